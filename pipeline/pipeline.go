package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"nestor/assoc"
	"nestor/codegen"
	"nestor/deps"
	"nestor/expand"
	"nestor/frontend"
	"nestor/ir"
	"nestor/iss"
	"nestor/model"
	"nestor/reroll"
	"nestor/rfactor"
	"nestor/sched"
)

// Options selects what the pipeline does.
type Options struct {
	// Check runs ir.Check after every pass (the CLI's -check flag; tests
	// always set it).
	Check bool
	// Reroll turns statements unrolled by hand back into loops before
	// anything else (package reroll; the CLI's --reroll, off by default):
	// runs of isomorphic sibling statements whose subscripts and literals
	// move in arithmetic progression become one loop, in the original
	// execution order. A note names each run.
	Reroll bool
	// Expand turns scalar temporaries that only the region uses into
	// arrays when that makes a loop parallel (package expand; the CLI's
	// --expand, on by default; needs Schedule). A note names each one.
	Expand bool
	// Split splits a statement's iterations where its loop-carried
	// dependences start or end (package iss: floyd-warshall's rows at
	// i = k), so that the pieces' loops carry none (the CLI's --iss, on
	// by default; needs Schedule). A note names each split.
	Split bool
	// Schedule replaces the original order by an affine schedule from
	// sched.Compute (the CLI's --schedule). Where the scheduler gives up,
	// the region keeps its order and a note says why.
	Schedule bool
	// Fusion is the scheduler's fusion policy.
	Fusion sched.Fusion
	// SchedBudget is the scheduler's work budget per region
	// (sched.Options.Budget; zero: sched.DefaultBudget).
	SchedBudget int64
	// Align tries write-aligned schedules first (sched.Options.Align).
	Align bool
	// Tile tiles the permutable bands of the schedule (the CLI's --tile;
	// needs Schedule). TileSizes overrides the sizes of the cache model,
	// outermost band dimension first; missing entries use the model.
	Tile      bool
	TileSizes []int
	// Parallel marks the outermost parallel loop of each nest as an
	// OpenMP parallel loop and legal innermost loops as SIMD loops (the
	// CLI's --parallel; needs Schedule).
	Parallel bool
	// UnrollJam unrolls and jams register tiles of the scheduled code
	// (codegen.UnrollJam; the CLI's --unroll-jam, needs Schedule).
	// RegisterTile overrides the rows × cols of the machine model
	// (model.Machine.RegisterTile) when both are set.
	UnrollJam    bool
	RegisterTile [2]int64
	// Share prints straight-line bodies (the copies unroll-and-jam makes)
	// with their repeated subexpressions computed once and their repeated
	// patterns outlined into local macros (codegen.PrintOptions.Share,
	// package outline; the CLI's --share).
	Share bool
	// ForkOnce forks one team of threads around a sequential loop whose
	// statements all run in OpenMP loops, instead of one fork per
	// iteration (codegen.PrintOptions.ForkOnce; the CLI's --fork-once).
	ForkOnce bool
	// Pack runs each matrix-product statement alone in its loops at the
	// top of a region (W[i][j] += X(i,k) * Y(k,j), or a sum of such
	// products, over a box or a triangle of one) as BLIS
	// runs dgemm: blocks of its operands packed into contiguous panels
	// and a register-blocked micro-kernel (codegen.Packed; the CLI's
	// --pack, on by default), when its work reaches 64³ multiply-adds.
	Pack bool
	// KeepCached keeps the original order of a region whose new schedule
	// has no parallel loop (a time-skewed stencil) when its arrays fit in
	// the L2 cache (skewing gains no locality there and costs the vector
	// loops), or when the original order has parallel loops (it then runs
	// them in parallel, one time step after another). The CLI's
	// --keep-cached. Tests turn it off to exercise the skewed schedules.
	KeepCached bool
	// Rfactor factors reduction loops that the schedule leaves sequential
	// when assoc proves their update associative (package rfactor; needs
	// Parallel): partial results per thread, combined in thread order.
	// AssocMath lets float arithmetic be reassociated (--assoc-math);
	// Wrap says signed arithmetic wraps (-fwrapv).
	Rfactor   bool
	AssocMath bool
	Wrap      bool
	// Tables gives assoc's table of a type (tests); nil uses the
	// embedded tables.
	Tables func(assoc.Type) (*assoc.Table, error)
	// Machine is the machine the code is laid out for (cache sizes, vector
	// registers). DefaultOptions sets model.Host(), what the system
	// reports; the zero Machine means model.Typical(). Every pass reads it
	// from here (Target), none from the host.
	Machine model.Machine
	// Decide fixes choices of the regions (Decide[k] for the k-th region
	// of the file) that the rules above would otherwise make: what a
	// search over implementations sets (package tune). Regions past its
	// end, and zero fields, follow the rules.
	Decide []Decisions
	// Notes receives one line per decision a user should know about
	// ("kept the original order: ..."); nil discards them.
	Notes io.Writer
}

// Decisions are the choices of one region's implementation that Options'
// rules make unless they are fixed here. Every value is legal: the choices
// only lay out what the dependences allow.
type Decisions struct {
	// Order is the loop order: OrderRule, OrderSchedule (the new
	// schedule, even where KeepCached would keep the original),
	// OrderOriginal (the original order, sequential) or
	// OrderOriginalParallel (the original order with its parallel loops
	// marked; where it has none, the original order).
	Order Order
	// Fusion, when Order is not an original one, is the scheduler's
	// fusion policy; FuseRule leaves Options.Fusion.
	Fusion FusionChoice
	// Bands lays out the bands of the schedule (sched.Plan.Bands).
	Bands []sched.BandPlan
	// Parallel marks parallel loops as OpenMP and SIMD loops or not.
	Parallel sched.Tristate
	// Jam is the register tile rows × cols; zero leaves the rule, 1 × 1
	// jams nothing.
	Jam [2]int64
	// Rfactor factors the reductions the schedule leaves sequential.
	Rfactor sched.Tristate
	// SIMD keeps (Yes, the rule) or drops (No) the "omp simd" marks of
	// parallel innermost loops: the compiler's own vectorizer decides then.
	SIMD sched.Tristate
	// Unroll, above 1, asks the compiler to unroll every innermost loop
	// that has no OpenMP mark by that factor (#pragma GCC unroll).
	Unroll int64
	// ForkOnce sets Options.ForkOnce for the region (Yes or No).
	ForkOnce sched.Tristate
	// Pack sets Options.Pack for the region (Yes or No).
	Pack sched.Tristate
}

// Order is Decisions.Order.
type Order uint8

// Order values.
const (
	OrderRule Order = iota
	OrderSchedule
	OrderOriginal
	OrderOriginalParallel
)

// FusionChoice is Decisions.Fusion: FuseRule, or 1 + a sched.Fusion.
type FusionChoice uint8

// FuseRule leaves the fusion policy to Options.Fusion.
const FuseRule FusionChoice = 0

// Fuse returns the FusionChoice that fixes f.
func Fuse(f sched.Fusion) FusionChoice { return FusionChoice(f) + 1 }

// Target returns the machine the options lay code out for.
func (o *Options) Target() model.Machine {
	if o.Machine.L2 == 0 {
		return model.Typical()
	}
	return o.Machine
}

// marks returns the code generation marks of the loop groups of a region
// whose fixed decisions are dec: the default policy of sched.Marks.
func (o *Options) marks(dec Decisions) sched.Marks {
	par := dec.Parallel.Or(o.Parallel)
	m := sched.Marks{Parallel: par, NoSIMD: dec.SIMD == sched.No, Unroll: dec.Unroll,
		Rfactor: par && dec.Rfactor.Or(o.Rfactor), Pack: dec.Pack.Or(o.Pack)}
	if o.UnrollJam {
		rows, cols := o.Target().RegisterTile()
		if o.RegisterTile[0] > 0 && o.RegisterTile[1] > 0 {
			rows, cols = o.RegisterTile[0], o.RegisterTile[1]
		}
		if dec.Jam[0] > 0 && dec.Jam[1] > 0 {
			rows, cols = dec.Jam[0], dec.Jam[1]
		}
		m.Jam = [2]int64{rows, cols}
	}
	return m
}

// marks returns the code generation marks of the loops of counter level:
// their group's (on the schedule tree), or the region's policy when the
// region keeps an original order without loop information.
func (s *region) marks(level int) sched.Marks {
	if s.loops != nil && level < len(s.loops) {
		return s.loops[level].Marks
	}
	return s.policy
}

func (o *Options) decisions(k int) Decisions {
	if k < len(o.Decide) {
		return o.Decide[k]
	}
	return Decisions{}
}

// DefaultOptions returns what `nestor opt` does without flags: schedule,
// tile and parallelize, with smart fusion.
func DefaultOptions() Options {
	return Options{Schedule: true, Expand: true, Split: true, Tile: true, Parallel: true, UnrollJam: true, KeepCached: true, Rfactor: true,
		Pack: true, Machine: model.Host()}
}

func (o *Options) note(s *frontend.Scop, format string, args ...any) {
	if o.Notes != nil {
		fmt.Fprintf(o.Notes, "%s: %s\n", s.Pos, fmt.Sprintf(format, args...))
	}
}

// region is one scop region as the passes transform it.
type region struct {
	*frontend.Scop
	// loops describes the counters of Prog once a schedule is applied
	// (nil in the original order: no loop is known to be parallel).
	loops []sched.LoopInfo
	// schedTree is the schedule tree Prog was lowered from, its bands
	// with their layouts (nil in an original order).
	schedTree *sched.Tree
	// reductions are the loops to print factored (pass rfactor).
	reductions []*ir.Reduction
	// graph holds the dependences of Prog once computed (dependences
	// computes them on demand, pass expand sets those of its output); the
	// driver drops them after a program pass that does not declare it
	// keeps them.
	graph *deps.Graph
	// dec are the region's fixed decisions (Options.Decide), and policy
	// the code generation marks they and the options give every loop
	// group (sched.Plan.Marks): what the loops of a region without a
	// schedule tree are printed with.
	dec    Decisions
	policy sched.Marks
	// src is the file's text; tree is the loop AST (after pass build) and
	// code the region's C text (after pass print).
	src  []byte
	tree *codegen.Block
	code []byte
	// What the schedule pass saw and decided (for Inspect): the program
	// it scheduled, the schedule (nil when none was computed), and why
	// the region keeps an original order ("" when it does not).
	scheduled *ir.Program
	sched     *sched.Schedule
	kept      string
}

// pass is one step on a region: a program pass rewrites its ir.Program
// (ir.Check holds after it), a code pass (code set) builds, annotates or
// prints its loop AST. keepsDeps declares that a program pass leaves the
// region's dependences valid: it does not change the program, or it sets
// those of the program it returns.
type pass struct {
	name      string
	fn        func(*region, *Options) error
	code      bool
	keepsDeps bool
}

// GCPercent is the garbage collector's setting (GOGC) the command line
// runs with unless GOGC is set: scheduling allocates many short-lived
// constraint rows while the live heap stays small (a few MB), so the
// default of 100 collects every few hundred kilobytes and takes a third
// of the CPU time. At 400 the heap peaks at tens of MB.
const GCPercent = 400

// passes is the pipeline, in order. Scheduling lays out the loops as
// well (tiling and the order inside bands are decisions on the schedule's
// bands, made where the bands are known); parallel loops are marked when
// the code is generated.
var passes = []pass{
	{name: "reroll", fn: rerollPass},
	{name: "expand", fn: expandPass, keepsDeps: true},
	{name: "iss", fn: issPass, keepsDeps: true},
	{name: "schedule", fn: schedule},
	{name: "rfactor", fn: factor},
	{name: "build", fn: buildPass, code: true},
	{name: "parallel", fn: parallelPass, code: true},
	{name: "distribute", fn: distributePass, code: true},
	{name: "pack", fn: packPass, code: true},
	{name: "jam", fn: jamPass, code: true},
	{name: "unroll", fn: unrollPass, code: true},
	{name: "reductions", fn: reductionsPass, code: true},
	{name: "collide", fn: collidePass, code: true},
	{name: "print", fn: printPass, code: true},
}

// order lists the ordering constraints between passes and why they hold; a
// test fails if passes breaks one.
var order = []struct{ before, after, why string }{
	{"reroll", "schedule", "rerolling recovers the loops a hand-unrolled body hid, which the scheduler then tiles, fuses and vectorizes; it works on the original loop tree (sibling statements, beta positions), which a schedule replaces"},
	{"reroll", "expand", "expansion looks for temporaries assigned first in every iteration of a loop, and a hand-unrolled body hides the loop"},
	{"expand", "iss", "a temporary expanded into an array no longer ties the iterations of its loop, which may leave nothing to split"},
	{"iss", "schedule", "the scheduler and the original-order rules see the split pieces as statements of their own"},
	{"expand", "schedule", "an expanded temporary no longer ties the iterations of its loop: the scheduler may then run them in parallel or move the loop inside"},
	{"schedule", "rfactor", "rfactor factors the loops of the final schedule, and only those it leaves sequential"},
	{"rfactor", "build", "code is built from the final program: every program pass comes first"},
	{"build", "parallel", "OpenMP and SIMD marks annotate the loop AST"},
	{"parallel", "pack", "a packed product is printed with its own OpenMP team: the parallel marks of the loops it replaces go with them"},
	{"parallel", "distribute", "only loops MarkParallel leaves unmarked carry a dependence; the split ones get their SIMD marks from the split (the schedule's coincidence is per statement, over all of its dependences, so MarkParallel would not mark them)"},
	{"distribute", "jam", "a loop is split where each statement appears once in its body: after unroll-and-jam its copies would keep it whole"},
	{"pack", "jam", "unroll-and-jam would unroll the loops that pack replaces"},
	{"parallel", "jam", "unroll-and-jam keeps the marks of the loops it leaves and jams only point loops inside the parallel one"},
	{"jam", "unroll", "the unroll hints go on the innermost loops jamming leaves"},
	{"parallel", "unroll", "an unroll hint goes only where no OpenMP mark is (a pragma between omp simd and its loop is an error)"},
	{"jam", "reductions", "a loop jammed into its neighbours is no longer the reduction's loop: reductions are marked on the final loops"},
	{"parallel", "reductions", "a reduction inside an OpenMP loop stays as it is"},
	{"jam", "collide", "splitting an innermost loop at a collision leaves no perfect nest to jam, and the jammed copies' fixed elements collide where the loop's did"},
	{"reductions", "collide", "a factored reduction's loop is printed whole, and MarkReductions finds the loops the schedule made"},
	{"collide", "print", "printing comes last"},
}

// Optimize runs the passes on every region of f and returns the file with
// each region replaced by generated code.
func Optimize(f *frontend.File, opt Options) ([]byte, error) {
	var out bytes.Buffer
	last := 0
	for k, orig := range f.Scops {
		if len(orig.Prog.Stmts) == 0 {
			// Nothing to optimize, and nothing to say: nestor's own
			// output has an empty region where it declares a thread
			// count between pragma lines.
			continue
		}
		s, err := runPasses(orig, k, f.Src, &opt, "")
		if err != nil {
			return nil, err
		}
		out.Write(f.Src[last:s.Start])
		out.Write(s.code)
		last = s.End
	}
	out.Write(f.Src[last:])
	return out.Bytes(), nil
}

// runPasses runs the passes on the k-th region orig of a file whose text
// is src, up to the pass called until (excluded; "" runs them all).
func runPasses(orig *frontend.Scop, k int, src []byte, opt *Options, until string) (*region, error) {
	s := &region{Scop: new(frontend.Scop), dec: opt.decisions(k), src: src}
	s.policy = opt.marks(s.dec)
	*s.Scop = *orig // passes replace s.Prog; the caller's file stays as parsed
	return s, s.run(opt, until)
}

// run runs the passes on s from its first code-free state, up to the pass
// called until (excluded; "" runs them all).
func (s *region) run(opt *Options, until string) error {
	for _, p := range passes {
		if p.name == until {
			break
		}
		if err := p.fn(s, opt); err != nil {
			if p.code {
				return fmt.Errorf("%s: %w", s.Pos, err)
			}
			return fmt.Errorf("%s: pass %s: %w", s.Pos, p.name, err)
		}
		if !p.code && !p.keepsDeps {
			s.graph = nil
		}
		if opt.Check && !p.code {
			if err := ir.Check(s.Prog); err != nil {
				return fmt.Errorf("%s: after pass %s: %w", s.Pos, p.name, err)
			}
			if s.graph != nil && s.graph.Prog != s.Prog {
				return fmt.Errorf("%s: pass %s declares it keeps the dependences but changed the program", s.Pos, p.name)
			}
		}
	}
	return nil
}

// View is what the passes made of one region: what nestor sched prints,
// and exactly what Optimize generates code from.
type View struct {
	Scop *frontend.Scop
	// Scheduled is the program the scheduler was given (after reroll and
	// expand) and Schedule its schedule; nil when none was computed.
	Scheduled *ir.Program
	Schedule  *sched.Schedule
	// Kept says which original order the region keeps and why ("" when
	// it runs in the new schedule).
	Kept string
	// Prog is the final program and Loops its counters (nil in an
	// original order without parallel loops).
	Prog  *ir.Program
	Loops []sched.LoopInfo
	// Tree is the schedule tree Prog was lowered from, each band with
	// the layout of its loops (nil when the region keeps an original
	// order): what nestor sched --tree prints.
	Tree *sched.Tree
	// reductions are the loops generation prints factored, and policy
	// the marks of a region without a tree.
	reductions []*ir.Reduction
	policy     sched.Marks
}

// ProgramPasses returns the names of the passes that transform a region's
// program (those before code generation), in order.
func ProgramPasses() []string {
	var names []string
	for _, p := range passes {
		if !p.code {
			names = append(names, p.name)
		}
	}
	return names
}

// Dependences runs the passes of Optimize on every region of f up to the
// program pass before (excluded; one of ProgramPasses) and returns each
// region's program as that pass gets it, with its dependences: what the
// pass sees, for nestor deps --before.
func Dependences(f *frontend.File, opt Options, before string) ([]*ir.Program, []*deps.Graph, error) {
	if !slices.Contains(ProgramPasses(), before) {
		return nil, nil, fmt.Errorf("pipeline: no program pass %q (the passes are %s)", before, strings.Join(ProgramPasses(), ", "))
	}
	var progs []*ir.Program
	var graphs []*deps.Graph
	for k, orig := range f.Scops {
		s, err := runPasses(orig, k, f.Src, &opt, before)
		if err != nil {
			return nil, nil, err
		}
		g, err := s.dependences()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", orig.Pos, err)
		}
		progs, graphs = append(progs, s.Prog), append(graphs, g)
	}
	return progs, graphs, nil
}

// Inspect runs the passes of Optimize on every region of f and returns
// what they made, without generating code.
func Inspect(f *frontend.File, opt Options) ([]View, error) {
	var out []View
	for k, orig := range f.Scops {
		s, err := runPasses(orig, k, f.Src, &opt, "build")
		if err != nil {
			return nil, err
		}
		out = append(out, View{Scop: orig, Scheduled: s.scheduled, Schedule: s.sched, Kept: s.kept, Prog: s.Prog, Loops: s.loops, Tree: s.schedTree, reductions: s.reductions, policy: s.policy})
	}
	return out, nil
}

// Generate returns the C text that replaces region s in its original
// order: whole lines, each indented like the first line of the region's
// body.
func Generate(s *frontend.Scop, src []byte) ([]byte, error) {
	r := &region{Scop: s, src: src}
	for _, p := range passes {
		if p.code {
			if err := p.fn(r, &Options{}); err != nil {
				return nil, err
			}
		}
	}
	return r.code, nil
}

// buildPass builds the loop AST of the region's program (codegen.Build).
func buildPass(s *region, opt *Options) error {
	var err error
	s.tree, err = codegen.Build(s.Prog)
	return err
}

// parallelPass marks, in the loop groups whose marks say Parallel, the
// outermost parallel loop of each nest as an OpenMP loop and parallel
// innermost loops as SIMD loops.
func parallelPass(s *region, opt *Options) error {
	if s.loops != nil {
		codegen.MarkParallel(s.tree, func(level int, stmts []int) bool {
			return s.loops[level].Marks.Parallel && s.loops[level].ParallelFor(stmts)
		})
	}
	return nil
}

// distributePass splits the innermost loops that carry a dependence into
// a loop per group of statements where every group then carries none
// (codegen.Distribute: a time-tiled stencil's fused statements), in the
// loop groups whose marks ask for SIMD loops.
func distributePass(s *region, opt *Options) error {
	if s.loops == nil {
		return nil
	}
	// The pieces of a loop split at the domain's edges ask the same
	// question, answered once; the region's questions share one budget,
	// past which the loops left stay whole (a note says so).
	known := map[string]*deps.Graph{}
	left, spent := int64(distributeWork), false
	carried := func(stmts []int, level int) *deps.Graph {
		key := fmt.Sprint(stmts, level)
		if g, ok := known[key]; ok {
			return g
		}
		if left <= 0 {
			spent = true
			return nil
		}
		g, err := deps.Carried(s.Prog, stmts, level+1, left)
		if g != nil {
			left -= g.Work
			spent = spent || g.Exhausted
		}
		if err != nil {
			g = nil
		}
		known[key] = g
		return g
	}
	simd := func(level int) bool {
		m := s.marks(level)
		return m.Parallel && !m.NoSIMD
	}
	if n := codegen.Distribute(s.Prog, s.tree, simd, carried); n > 0 {
		opt.note(s.Scop, "split %d innermost loops that carry a dependence into a loop per group of statements, each of which carries none and runs as a SIMD loop", n)
	}
	if spent {
		opt.note(s.Scop, "the dependences of innermost loops that could be split into SIMD loops spent their budget (%.3g units of work): the loops left keep their statements together", float64(distributeWork))
	}
	return nil
}

// distributeWork is the budget of the dependences the innermost loops'
// splits of one region ask about (deps.Carried), in poly.Work units: a
// whole analysis's, 4× over. jacobi-2d's time-tiled loop, six counters
// and their floor-division locals, needs 4.5e7 for its two statements at
// one depth (the whole graph of its program spends more than 2e8).
const distributeWork = 4 * deps.DefaultWork

// jamPass unrolls and jams the register tiles the bands' marks give
// (Marks.Jam), after the OpenMP loops are marked.
//
// A loop whose body is a sequence of statements and inner loops is
// jammed where the dependences of the region's program allow it, also
// in a region kept in its original order (no bands, every loop a point
// loop, the region's register tile).
func jamPass(s *region, opt *Options) error {
	analyze := func() *deps.Graph {
		g, err := deps.Analyze(s.Prog)
		if err != nil {
			return nil
		}
		return g
	}
	band := func(level int) (int, bool) { return s.loops[level].Band, !s.loops[level].Tile }
	if s.loops == nil {
		if !opt.UnrollJam || !opt.Schedule {
			return nil
		}
		band = func(int) (int, bool) { return 0, true }
	}
	// Groups of copies on threads (jamTri): two, each jamming a register
	// tile's copies (cholesky LARGE at 2 threads: 0.36 s to 0.20 s).
	groups := 0
	if opt.Parallel && opt.Machine.Cores >= 2 {
		groups = 2
	}
	codegen.UnrollJam(s.Prog, s.tree, codegen.JamOptions{Band: band, Tile: func(level int) [2]int64 { return s.marks(level).Jam }, Deps: analyze, Groups: groups})
	return nil
}

// packPass replaces the loops of the matrix products of the region by
// packed blocks (Options.Pack), with a note per product.
func packPass(s *region, opt *Options) error {
	orig := s.scheduled
	if orig == nil {
		orig = s.Prog
	}
	vb := opt.Target().VectorBytes
	marks := func(level int) (bool, bool) { m := s.marks(level); return m.Pack, m.Parallel }
	// A factor may read the array its product writes where no
	// dependence flows into the read (trmm's B[k][j], k > i): it reads
	// the values the region had on entry. The dependences are computed
	// only for such a product.
	var g *deps.Graph
	liveIn := func(st, a int) bool {
		if g == nil {
			var err error
			if g, err = deps.Analyze(orig); err != nil {
				g = &deps.Graph{Exhausted: true}
			}
		}
		if g.Exhausted {
			return false
		}
		for _, e := range g.Edges {
			if e.Kind == deps.Flow && e.Target == st && e.TargetAccess == a {
				return false
			}
		}
		return true
	}
	for _, st := range codegen.Pack(s.tree, s.Prog, orig, codegen.PackOptions{VectorBytes: vb, Marks: marks, LiveIn: liveIn}) {
		opt.note(s.Scop, "%s at %s runs as packed blocks (a BLIS-style matrix product)", s.Prog.Stmts[st].Name, s.Prog.Stmts[st].Pos)
	}
	return nil
}

// unrollPass applies the loops' marks NoSIMD and Unroll to the loop AST.
func unrollPass(s *region, opt *Options) error {
	var walk func(ns []codegen.Node)
	walk = func(ns []codegen.Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *codegen.Block:
				walk(n.Body)
			case *codegen.If:
				walk(n.Body)
			case *codegen.Loop:
				m := s.marks(n.Level)
				if m.NoSIMD {
					n.Pragmas = slices.DeleteFunc(n.Pragmas, func(p string) bool { return p == "omp simd" })
				}
				if !hasLoop(n.Body) && m.Unroll > 1 && len(n.Pragmas) == 0 && n.Reduction == nil {
					n.Pragmas = append(n.Pragmas, fmt.Sprintf("GCC unroll %d", m.Unroll))
				}
				walk(n.Body)
			}
		}
	}
	walk(s.tree.Body)
	return nil
}

// hasLoop reports whether ns holds a loop, at any depth.
func hasLoop(ns []codegen.Node) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *codegen.Loop:
			return true
		case *codegen.Block:
			if hasLoop(n.Body) {
				return true
			}
		case *codegen.If:
			if hasLoop(n.Body) {
				return true
			}
		}
	}
	return false
}

// reductionsPass marks the loops the rfactor pass factored, after the
// OpenMP loops are marked (a reduction inside one stays as it is) and the
// register tiles jammed (a jammed loop is no longer the reduction's loop).
func reductionsPass(s *region, opt *Options) error {
	if len(s.reductions) == 0 {
		return nil
	}
	for k, n := range codegen.MarkReductions(s.tree, s.reductions) {
		if n == 0 {
			opt.note(s.Scop, "reduction at %s stays sequential: its loop was transformed", s.Prog.Stmts[s.reductions[k].Stmts[0]].Pos)
		}
	}
	return nil
}

// collidePass splits innermost loops where an access that moves with the
// counter names an element the loop otherwise keeps in a register
// (codegen.SplitCollisions), with a note.
func collidePass(s *region, opt *Options) error {
	if n := codegen.SplitCollisions(s.Prog, s.tree); n > 0 {
		opt.note(s.Scop, "%d innermost loop(s) split where a moving access meets an element the loop reads in place: the pieces keep it in a register", n)
	}
	return nil
}

// printPass prints the loop AST as the region's C text: whole lines, each
// indented like the first line of the region's body.
func printPass(s *region, opt *Options) error {
	var b bytes.Buffer
	if err := codegen.PrintCWith(&b, s.Prog, s.tree, bodyIndent(s.Scop, s.src), codegen.PrintOptions{Share: opt.Share, ForkOnce: s.dec.ForkOnce.Or(opt.ForkOnce), Machine: opt.Target(),
		Threads: fmt.Sprintf("nestor_threads_%d", s.Pos.Line)}); err != nil {
		return err
	}
	s.code = b.Bytes()
	return nil
}

// bodyIndent returns the leading white space of the first non-blank line
// of region s in src (PolyBench writes "#pragma scop" in column 1 and
// indents the loops under it), or the pragma's own indentation.
func bodyIndent(s *frontend.Scop, src []byte) string {
	for _, line := range bytes.Split(src[s.Start:s.End], []byte("\n")) {
		if t := bytes.TrimLeft(line, " \t"); len(bytes.TrimSpace(t)) > 0 {
			return string(line[:len(line)-len(t)])
		}
	}
	return s.Indent
}

// schedule computes the dependences and an affine schedule of the region
// and rewrites its program in the new order, laid out as the options say:
// each band's loops reordered for locality, tiled with Tile, tile
// wavefronts with Tile and Parallel. When the scheduler finds no schedule
// the region keeps its original order: always correct.
func schedule(s *region, opt *Options) error {
	if !opt.Schedule || s.dec.Order == OrderOriginal {
		s.kept = "the original order (not scheduled)"
		return nil
	}
	s.scheduled = s.Prog
	g, err := s.dependences()
	if err != nil {
		return err
	}
	if g.Exhausted {
		opt.note(s.Scop, "the dependence analysis spent its budget (%.3g units of work): the dependences it could not decide are assumed, which only restricts the schedule", float64(g.Work))
	}
	if s.dec.Order == OrderOriginalParallel {
		orig := sched.OriginalParallel(s.Prog, g)
		s.kept = "the original order with its parallel loops (decided)"
		if p, loops, err := sched.ApplyPlan(s.Prog, orig, sched.Plan{Marks: s.policy}); err == nil && orig.AnyParallel() {
			s.Prog, s.loops = p, loops
		} else {
			s.kept = "the original order (decided; it has no parallel loop)"
		}
		return nil
	}
	fusion := opt.Fusion
	if s.dec.Fusion != FuseRule {
		fusion = sched.Fusion(s.dec.Fusion - 1)
	}
	sc, err := sched.Compute(s.Prog, g, sched.Options{Fusion: fusion, Align: opt.Align, Budget: opt.SchedBudget})
	if err != nil { // ErrNoSchedule, or a limit of poly's exact arithmetic
		opt.note(s.Scop, "kept the original order: %v", err)
		s.kept = fmt.Sprintf("the original order: %v", err)
		return nil
	}
	s.sched = sc
	if sc.Lifted > 0 {
		opt.note(s.Scop, "its constant sizes overflow int64 in the scheduler's exact arithmetic: scheduled with %d of them as parameters, the schedule then specialized to their values", sc.Lifted)
	}
	keepCached := opt.KeepCached && s.dec.Order != OrderSchedule
	bytes, sized := footprint(s.Prog)
	if keepCached && sized && bytes <= opt.Target().L2 && !sc.AnyParallel() {
		opt.note(s.Scop, "kept the original order: the arrays fit in the L2 cache (%d KiB) and the new schedule has no parallel loop, so reordering gains no locality (and time skewing would cost the vector loops)", bytes>>10)
		s.kept = fmt.Sprintf("the original order: the arrays fit in the L2 cache (%d KiB) and the schedule has no parallel loop", bytes>>10)
		return nil
	}
	readAligned := false
	if a, ok := sharedRead(s.Prog, opt.Target().L2); keepCached && ok {
		// Statements stream one array too large for the L2 cache, each
		// element once, and the schedule reads it at different times in
		// each: aligned on those reads, they read each element together
		// and the array is streamed once (sched's readGroups). mvt
		// LARGE ran in 1.9 ms against 7.2 ms at one thread, 1.8 against
		// 5.1 ms at two, though the aligned loops carry each statement's
		// reduction and none of them is parallel. Untiled: each
		// statement reads each element once, so tiles find no reuse in
		// the array (tiled by 64 x 256, 2.4 ms at one thread).
		ra, err := sched.Compute(s.Prog, g, sched.Options{Fusion: fusion, ReadAlign: a + 1, Budget: opt.SchedBudget})
		// Where the original order reads them together as often, the
		// rule below keeps it instead (bicg).
		if err == nil && readTogether(s.Prog, ra, a) > max(readTogether(s.Prog, sc, a), readTogether(s.Prog, sched.Original(s.Prog), a)) {
			name := s.Prog.Arrays[a].Name
			opt.note(s.Scop, "aligned the loops of the statements reading %s on their reads: they read each element of %s in the same iteration, so %s is streamed once for them (it does not fit in the L2 cache)", name, name, name)
			sc, s.sched, readAligned = ra, ra, true
		}
	}
	if r, ok := splitReads(s.Prog, sc, opt.Target().L2); keepCached && ok {
		// Two statements reading one element in the same iteration,
		// which the schedule splits: the array is streamed twice. For a
		// memory-bound nest (bicg) that costs more than the parallel
		// loop gains (0.63x of gcc -O3 on one thread, 0.88x on two).
		name := s.Prog.Arrays[r.Array].Name
		why := fmt.Sprintf("the new schedule reads each element of %s in %s and %s at different times, where the original order reads it once for both, and %s does not fit in the L2 cache", name, s.Prog.Stmts[r.S].Name, s.Prog.Stmts[r.T].Name, name)
		keepOriginal(s, opt, g, why)
		return nil
	}
	// Innermost loops count the column their statements write
	// (trisolve-0based's k + j + 1), so that copies of the loop around
	// update one element in one iteration (codegen's push-form tiles).
	sched.AlignOffsets(s.Prog, sc)
	if !sc.AnyParallel() && !readAligned {
		// Time-skewed stencils: the new schedule is parallel only by a
		// wavefront of tiles, and its skewed tiles run their points
		// slower than the original loops (fdtd-2d at MEDIUM, 1.2 MB of
		// arrays: 0.42x of the original). Where the arrays exceed half the
		// L3 cache, the original order streams them from memory at every
		// time step and its parallel loops share that bandwidth, while the
		// time tiles reuse them in cache: at LARGE (27-29 MB), heat-3d,
		// fdtd-2d and jacobi-2d ran 1.10-1.30x faster time-tiled than in
		// the original order with its parallel loops, on one thread and on
		// two. Elsewhere (and where the sizes are unknown, or no tiles are
		// made) the original order with its parallel loops runs each
		// time step in parallel, as fast as the original on one thread.
		streamed := sized && bytes > opt.Target().L3/2
		orig := sched.OriginalParallel(s.Prog, g)
		if jam := s.policy.Jam; keepCached && opt.UnrollJam && !orig.AnyParallel() && jam[0]*jam[1] >= 2 {
			// Gauss-Seidel sweeps (seidel-2d): the original order has no
			// parallel loop, and the innermost loop of every statement is
			// one chain of dependent operations (A[i][j-1] feeds A[i][j]).
			// Skewed
			// tiles keep that chain in every tile; in the original order
			// the rows run side by side with a lag, as independent
			// chains (codegen's jamSkew): seidel-2d LARGE ran 5.7 s
			// against 19.7 s time-tiled at one thread (gcc -O3 with
			// restrict: 17.9 s) and 9.4 s time-tiled at two.
			if lag, err := codegen.LagJams(s.Prog, jam[0], jam[1], g); err == nil && lag {
				keepOriginal(s, opt, g, "the new schedule is parallel only by a wavefront of skewed tiles whose innermost loops each run one chain of dependent operations; in the original order the rows run side by side with a lag, as independent chains")
				return nil
			}
		}
		if keepCached && !(streamed && opt.Tile) && orig.AnyParallel() {
			if p, loops, err := sched.ApplyPlan(s.Prog, orig, sched.Plan{Marks: s.policy}); err == nil {
				why := fmt.Sprintf("the arrays fit in half the L3 cache (%d KiB)", bytes>>10)
				switch {
				case !sized:
					why = "the arrays' sizes are unknown"
				case !opt.Tile:
					why = "tiling is off"
				}
				opt.note(s.Scop, "kept the original order with its parallel loops: the new schedule is parallel only by a wavefront of skewed tiles, and %s", why)
				s.kept = "the original order with its parallel loops: the schedule is parallel only by a wavefront of skewed tiles, and " + why
				s.Prog, s.loops = p, loops
				return nil
			}
		}
	}
	plan := sched.Plan{Tile: opt.Tile && !readAligned, Reorder: true, Wavefront: opt.Tile && s.dec.Parallel.Or(opt.Parallel), Bands: s.dec.Bands, Machine: opt.Target(), Marks: s.policy}
	for _, n := range opt.TileSizes {
		plan.Sizes = append(plan.Sizes, int64(n))
	}
	// The region's schedule from here on is its tree: the layout
	// decisions go on its bands, and the program is lowered from it.
	tree, err := layOut(s.Prog, sc, plan)
	var p *ir.Program
	var loops []sched.LoopInfo
	if err == nil {
		p, loops, err = sched.ApplyTree(s.Prog, tree)
	}
	if err == nil {
		for _, st := range p.Stmts {
			if n := len(st.Domain.Cons); n > maxLaidOutCons {
				err = fmt.Errorf("%s's laid-out domain has %d constraints (more than %d), which code generation would scan for minutes", st.Name, n, maxLaidOutCons)
				break
			}
		}
	}
	if err != nil {
		opt.note(s.Scop, "kept the original order: %v", err)
		s.kept = fmt.Sprintf("the original order: %v", err)
		return nil
	}
	if keepCached && !sc.AnyParallel() && nestedWavefront(tree.Root, false) {
		// A wavefront of tiles inside a sequential loop (floyd-warshall's
		// (i, j) tiles in each k): the only parallelism of the schedule,
		// it forks or synchronizes at every step of every iteration of
		// the loop outside, and its tiles reuse nothing across that loop.
		// floyd-warshall LARGE made 76,000 forks a call and ran 9.7 s at
		// two threads, 7.5 s at one, against 5.7 s in the original order
		// (its rows vectorized once split at k).
		keepOriginal(s, opt, g, "the new schedule is parallel only by a wavefront of tiles inside a sequential loop, which would synchronize at each of its steps in every iteration of that loop, and tiles there reuse nothing across it")
		return nil
	}
	s.Prog, s.loops, s.schedTree = p, loops, tree
	return nil
}

// maxLaidOutCons bounds the constraints of a statement's domain once the
// schedule lays it out (tiles of skewed bands over strided loops
// multiply them): the corpus's most is 115; a random program whose band
// was skewed by 7i − j and 20i + k − 2j over a stride-2 loop had 17,089,
// and code generation spent minutes on its guards.
const maxLaidOutCons = 2000

// keepOriginal keeps the region in its original order, with its parallel
// loops where it has some, for the reason why.
func keepOriginal(s *region, opt *Options, g *deps.Graph, why string) {
	if orig := sched.OriginalParallel(s.Prog, g); orig.AnyParallel() {
		if p, loops, err := sched.ApplyPlan(s.Prog, orig, sched.Plan{Marks: s.policy}); err == nil {
			opt.note(s.Scop, "kept the original order with its parallel loops: %s", why)
			s.kept = "the original order with its parallel loops: " + why
			s.Prog, s.loops = p, loops
			return
		}
	}
	opt.note(s.Scop, "kept the original order: %s", why)
	s.kept = "the original order: " + why
}

// nestedWavefront reports whether a band under nd laid out as a wavefront
// of tiles runs inside a loop: under another band (inside reports that nd
// itself is under one).
func nestedWavefront(nd *sched.TreeNode, inside bool) bool {
	if nd == nil {
		return false
	}
	if nd.Kind == sched.BandNode {
		if inside && nd.Layout != nil && nd.Layout.Wavefront {
			return true
		}
		inside = inside || len(nd.Rows) > 0
	}
	for _, c := range nd.Children {
		if nestedWavefront(c, inside) {
			return true
		}
	}
	return false
}

// layOut returns the schedule tree of sc, a schedule of p, with the
// layouts plan's rules choose on its bands.
func layOut(p *ir.Program, sc *sched.Schedule, plan sched.Plan) (*sched.Tree, error) {
	tree := sched.FromSchedule(p, sc)
	flat, err := tree.Schedule(len(p.Params))
	if err != nil {
		return nil, err
	}
	lays, err := sched.Decide(p, flat, plan)
	if err != nil {
		return nil, err
	}
	tree.SetLayouts(lays)
	return tree, nil
}

// dependences returns the dependences of the region's program, computed
// once and kept until a pass that changes the program drops them.
func (s *region) dependences() (*deps.Graph, error) {
	if s.graph == nil {
		g, err := deps.Analyze(s.Prog)
		if err != nil {
			return nil, err
		}
		s.graph = g
	}
	return s.graph, nil
}

// issPass splits statements where their carried dependences start or end
// (iss.Program), with a note per split.
func issPass(s *region, opt *Options) error {
	if !opt.Split || !opt.Schedule || s.dec.Order == OrderOriginal {
		return nil
	}
	g, err := s.dependences()
	if err != nil {
		return err
	}
	p, splits := iss.Program(s.Prog, g)
	if len(splits) == 0 {
		return nil
	}
	for _, sp := range splits {
		st := p.Stmts[sp.Stmt]
		opt.note(s.Scop, "%s at %s split at %s = %s into %d statements: the dependences its %s loop carries all start or end there", st.Name, st.Pos,
			st.Iters[sp.Level], ir.FormatAff(sp.At, ir.StmtNames(p, st)), 1+len(sp.New), st.Iters[sp.Level])
	}
	s.Prog, s.graph = p, nil
	return nil
}

// expandPass expands the scalar temporaries of the region whose loop then
// runs in parallel, with a note per temporary.
func expandPass(s *region, opt *Options) error {
	if !opt.Expand || !opt.Schedule {
		return nil
	}
	// A product (packed blocks) wants its temporary expanded along every
	// loop of the kill when packing is on.
	var xo expand.Options
	if opt.Pack {
		xo.Product = codegen.Packable
	}
	// A temporary that copies an array element and stores back into it
	// first becomes that element again (ludcmp's w): its dependences are
	// then the element's, which let the loops around it be reordered.
	demoted, ds, err := expand.Demote(s.Prog)
	if err != nil {
		return err
	}
	for _, d := range ds {
		opt.note(s.Scop, "%s between %s and %s", d, s.Prog.Stmts[d.Kill].Pos, s.Prog.Stmts[d.Store].Pos)
	}
	if len(ds) > 0 {
		s.Prog, s.graph = demoted, nil
	}
	p, xs, g, err := expand.ExpandWith(s.Prog, xo)
	if err != nil {
		return err
	}
	for _, x := range xs {
		opt.note(s.Scop, "%s at %s: each iteration of its loop gets its own element of %s", x, s.Prog.Stmts[x.Kill].Pos, p.Arrays[x.Array].Name)
	}
	// An array gets copies only for a loop that then runs in parallel.
	q, axs := p, []expand.ArrayExpansion(nil)
	if opt.Parallel {
		if q, axs, err = expand.ExpandArrays(p, g); err != nil {
			return err
		}
	}
	if len(axs) > 0 {
		g = nil // the dependences through the arrays are gone
	}
	for _, x := range axs {
		opt.note(s.Scop, "%s at %s: each iteration of its loop gets its own copy, %s", x, p.Stmts[x.Kill].Pos, q.Arrays[x.Array].Name)
	}
	s.graph = g
	s.Prog = q
	return nil
}

// rerollPass replaces the runs of hand-unrolled statement copies of the
// region by loops, with a note per run.
func rerollPass(s *region, opt *Options) error {
	if !opt.Reroll {
		return nil
	}
	p, groups, err := reroll.Reroll(s.Prog)
	if err != nil {
		return err
	}
	for _, g := range groups {
		opt.note(s.Scop, "rerolled at %s: %s", g.Pos, g)
	}
	s.Prog = p
	return nil
}

// factor finds the reduction loops the schedule leaves sequential and
// keeps those whose update assoc proves associative, noting why the
// others stay sequential.
func factor(s *region, opt *Options) error {
	wanted := s.policy.Rfactor // a region without loop information
	if s.loops != nil {
		wanted = slices.ContainsFunc(s.loops, func(li sched.LoopInfo) bool { return li.Marks.Rfactor })
	}
	if !wanted {
		return nil
	}
	var parallel func(int) bool
	if s.loops != nil {
		parallel = func(level int) bool { return s.loops[level].Coincident.All }
	}
	for _, d := range rfactor.Factor(s.Prog, parallel, rfactor.Options{Wrap: opt.Wrap, Real: opt.AssocMath, Tables: opt.Tables}) {
		pos := s.Prog.Stmts[d.Loop.Stmts[0]].Pos
		if !s.marks(d.Loop.Level).Rfactor {
			continue // its group's marks keep it sequential
		}
		if d.Reduction == nil {
			opt.note(s.Scop, "reduction at %s stays sequential: %s", pos, d.Why)
			continue
		}
		opt.note(s.Scop, "reduction at %s: %s", pos, d.Why)
		s.reductions = append(s.reductions, d.Reduction)
	}
	return nil
}

// footprint returns the bytes of the arrays p accesses, when every one
// has constant extents (and the total fits an int64).
func footprint(p *ir.Program) (int64, bool) {
	used := map[int]bool{}
	for _, st := range p.Stmts {
		for _, a := range st.Accesses {
			used[a.Array] = true
		}
	}
	var total int64
	for a := range used {
		size := arrayBytes(p.Arrays[a])
		if size == math.MaxInt64 || total > math.MaxInt64-size {
			return 0, false
		}
		total += size
	}
	return total, true
}
