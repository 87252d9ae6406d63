package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"nestor/frontend"
	"nestor/model"
	"nestor/pipeline"
	"nestor/sched"
)

// SourceFlags are the flags of every command that reads C: what a compiler
// takes, plus -check.
type SourceFlags struct {
	include, define listFlag
	check           bool
	schedule        bool
	tile, parallel  bool
	notile, nopar   bool
	tileSizes       string
	align           bool
	fuse            string
	unrollJam       bool
	registerTile    string
	keepCached      bool
	norfactor       bool
	assocMath, wrap bool
	reroll          bool
	share           bool
	forkOnce        bool
	pack            bool
	expand          bool
	iss             bool
	schedBudget     float64
}

// Includes returns the include folders of -I; Defines the macros of -D.
func (s *SourceFlags) Includes() []string { return s.include }
func (s *SourceFlags) Defines() []string  { return s.define }

// Register adds the flags of a compiler's front end: -I, -D, and --check.
func (s *SourceFlags) Register(fs *flag.FlagSet) {
	fs.Var(&s.include, "I", "add `dir` to the include search path (repeatable; -Idir works too)")
	fs.Var(&s.define, "D", "define macro `NAME[=VALUE]` for the preprocessor (repeatable; -DNAME=V works too)")
	fs.BoolVar(&s.check, "check", false, "verify the IR's invariants after every pass (for debugging nestor)")
}

// RegisterOpt adds the flags that choose transformations (polycc's
// spelling where it has one).
func (s *SourceFlags) RegisterOpt(fs *flag.FlagSet) {
	fs.BoolVar(&s.reroll, "reroll", false, "reroll hand-unrolled statements into loops: runs of isomorphic statements whose subscripts and literals move in arithmetic progression (y[i] = ...; y[i+1] = ...; ...) become one loop, in the original order, before scheduling")
	fs.BoolVar(&s.pack, "pack", true, "run each matrix product alone in its loops (W[i][j] += X(i,k) * Y(k,j), or a sum of such products, over a box or a triangle j <= i + b: gemm, 2mm, 3mm, syrk, syr2k) as BLIS runs dgemm when its work reaches 64^3 multiply-adds: its operands' blocks packed into contiguous panels, a 6-row register-blocked micro-kernel, one team of threads; every element sums in the original order")
	fs.BoolVar(&s.forkOnce, "fork-once", false, "fork one team of threads around a sequential loop whose statements all run in parallel loops (a stencil's time steps), which then share each loop's iterations and meet at its barrier, instead of forking once per iteration")
	fs.BoolVar(&s.share, "share", false, "print straight-line bodies (the copies of unrolled statements) with the subexpressions they repeat computed once, in const temporaries, and the patterns they repeat with differences outlined into local macros (anti-unification, as nestor outline does)")
	fs.BoolVar(&s.schedule, "schedule", true, "compute an affine schedule (Pluto-style); --schedule=false keeps the original order and turns off what follows")
	fs.BoolVar(&s.iss, "iss", true, "split a statement's iterations where all the dependences one of its loops carries start or end (index-set splitting: floyd-warshall's rows at i = k), so that the pieces' loops carry none and may run in parallel; the pieces run the same instances in the same order")
	fs.BoolVar(&s.expand, "expand", true, "expand scalar temporaries that only the region uses into arrays along the loop whose iterations each assign them first, when that makes the loop parallel (symm's temp2: the loop can then run in parallel or move inside); with --parallel, give a scratch array that every iteration of a loop fills before reading it a copy per iteration, its final values copied out, when that makes the loop parallel (doitgen's sum)")
	fs.BoolVar(&s.tile, "tile", true, "tile the permutable bands of the schedule")
	fs.BoolVar(&s.notile, "notile", false, "do not tile (same as --tile=false)")
	fs.StringVar(&s.tileSizes, "tile-sizes", "", "tile sizes, outermost band loop first, e.g. `32,32,128` (default: from the cache model; 0 keeps the model's)")
	fs.BoolVar(&s.parallel, "parallel", true, "mark parallel loops for OpenMP (parallel for, simd) and run tile wavefronts in parallel")
	fs.BoolVar(&s.nopar, "noparallel", false, "do not mark parallel loops (same as --parallel=false)")
	fs.BoolVar(&s.align, "align", false, "try a write-aligned schedule first: when every statement writes one array, its subscripts become the outer loops (Δω = 0, the LoopModels note: each element is updated in one iteration, in a register)")
	fs.StringVar(&s.fuse, "fuse", "smart", "fusion policy of the scheduler: `smart`, max or no")
	fs.BoolVar(&s.unrollJam, "unroll-jam", true, "unroll and jam register tiles: two outer loops of a band unrolled into the innermost one, each copy's loop-invariant elements in registers")
	fs.BoolVar(&s.keepCached, "keep-cached", true, "keep the original order of a region whose new schedule has no parallel loop (time skewing) when its arrays fit in the L2 cache, or when they fit in half the L3 cache (or their sizes are unknown) and the original order has parallel loops (run one time step after another in parallel), or when its only parallelism is a wavefront of tiles nested in a sequential loop (a fork at every step of every iteration of that loop)")
	fs.BoolVar(&s.norfactor, "norfactor", false, "do not factor reduction loops (by default a reduction loop the schedule leaves sequential runs in parallel when its update is proved associative: per-thread partial results combined in thread order)")
	fs.BoolVar(&s.assocMath, "assoc-math", false, "let float reductions be reassociated, in the spirit of -fassociative-math (results then agree with the original only within rounding); without it only operators exact in IEEE arithmetic, NaN included (fmin, fmax), are factored")
	fs.BoolVar(&s.wrap, "fwrapv", false, "signed integer arithmetic wraps around, as with cc -fwrapv (by default it is assumed never to overflow)")
	fs.Float64Var(&s.schedBudget, "sched-budget", float64(sched.DefaultBudget), "the scheduler's budget of work per region, in units of exact arithmetic (about a second per 5e8 units); past it the region keeps its original order, with a note")
	fs.StringVar(&s.registerTile, "register-tile", "", "unroll factors of the register tiles, `ROWSxCOLS` (default: from the machine's vector registers, 6x4 with AVX-512)")
}

// targetMachine returns the machine the code is laid out for: the one nestor
// machine measured on this host, or model.Nominal's costs where nothing
// was measured (a note on w says why when a measurement could not be
// read).
func targetMachine(w io.Writer) model.Machine {
	m, err := model.Load()
	if err != nil && w != nil {
		fmt.Fprintf(w, "nestor: %v; using nominal costs\n", err)
	}
	return m
}

// Options returns the pipeline options the flags select; notes go to w.
func (s *SourceFlags) Options(w io.Writer) (pipeline.Options, error) {
	o := pipeline.Options{Check: s.check, Schedule: s.schedule, Notes: w,
		Align: s.align, Tile: s.schedule && s.tile && !s.notile, Parallel: s.schedule && s.parallel && !s.nopar,
		UnrollJam: s.schedule && s.unrollJam, KeepCached: s.keepCached,
		Rfactor: !s.norfactor, AssocMath: s.assocMath, Wrap: s.wrap, Reroll: s.reroll, Share: s.share, ForkOnce: s.forkOnce, Pack: s.pack,
		Expand: s.schedule && s.expand, Split: s.schedule && s.iss, Machine: targetMachine(w)}
	if s.schedBudget < 1 || s.schedBudget > 1e15 {
		return o, UsageError{fmt.Sprintf("--sched-budget %g: want a number of work units between 1 and 1e15", s.schedBudget)}
	}
	o.SchedBudget = int64(s.schedBudget)
	if s.registerTile != "" {
		r, c, ok := strings.Cut(s.registerTile, "x")
		rows, err1 := strconv.ParseInt(r, 10, 64)
		cols, err2 := strconv.ParseInt(c, 10, 64)
		if !ok || err1 != nil || err2 != nil || rows < 1 || cols < 1 || rows*cols > 64 {
			return o, UsageError{fmt.Sprintf("--register-tile %q: want ROWSxCOLS, two positive integers with at most 64 copies, e.g. 6x4", s.registerTile)}
		}
		o.RegisterTile = [2]int64{rows, cols}
	}
	switch s.fuse {
	case "smart":
		o.Fusion = sched.SmartFuse
	case "max":
		o.Fusion = sched.MaxFuse
	case "no":
		o.Fusion = sched.NoFuse
	default:
		return o, UsageError{fmt.Sprintf("--fuse %q: want smart, max or no", s.fuse)}
	}
	if s.tileSizes != "" {
		for _, f := range strings.Split(s.tileSizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 0 {
				return o, UsageError{fmt.Sprintf("--tile-sizes %q: want non-negative integers separated by commas", s.tileSizes)}
			}
			o.TileSizes = append(o.TileSizes, n)
		}
	}
	return o, nil
}

// Config is the front end configuration of -I and -D.
func (s *SourceFlags) Config() frontend.Config {
	return frontend.Config{IncludePaths: s.include, Defines: s.define}
}

// stdin is where "-" as the input file reads from (a variable for tests).
var stdin io.Reader = os.Stdin

// stdinName is the file name of standard input in messages, as cc says it.
const stdinName = "<stdin>"

// Parse reads and parses the one C file named by args; "-" is standard
// input (quoted includes are then found from the current folder).
func (s *SourceFlags) Parse(args []string) (*frontend.File, error) {
	if len(args) != 1 {
		return nil, UsageError{fmt.Sprintf("want one C file, got %d arguments", len(args))}
	}
	var f *frontend.File
	var err error
	if args[0] == "-" {
		var src []byte
		if src, err = io.ReadAll(stdin); err != nil {
			return nil, fmt.Errorf("reading standard input: %v", err)
		}
		f, err = frontend.Parse(stdinName, src, s.Config())
	} else {
		f, err = frontend.ParseFile(args[0], s.Config())
	}
	if err != nil {
		return nil, err
	}
	if len(f.Scops) == 0 {
		return nil, fmt.Errorf("%s: no #pragma scop region: nothing to optimize", f.Path)
	}
	return f, nil
}

// OutputPath is where opt writes the result of the input in: -o's path,
// else FILE.nestor.c, or standard output ("-") for standard input. It
// refuses to write over the input itself.
func OutputPath(in, o string) (string, error) {
	switch {
	case o == "" && in == "-":
		return "-", nil
	case o == "":
		return strings.TrimSuffix(in, ".c") + ".nestor.c", nil
	case o == "-" || in == "-":
		return o, nil
	}
	a, errA := os.Stat(in)
	b, errB := os.Stat(o)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return "", UsageError{fmt.Sprintf("-o %s is the input file: nestor opt writes a new file and keeps the original (use another name, or -o - and redirect)", o)}
	}
	return o, nil
}

var optCommand = &Command{
	Name: "opt", Args: "FILE.c|- [-o OUT.c|-] [-I dir] [-D NAME[=VALUE]]",
	Summary: `optimize the #pragma scop regions of a C file (like polycc)

Every region between "#pragma scop" and "#pragma endscop" is replaced by
generated code; every other byte of the file is kept, so the output drops
into the existing build. The default output is FILE.nestor.c; "-o -"
writes to standard output. FILE "-" reads standard input (and writes
standard output unless -o says otherwise).

Pointer and array parameters are assumed not to alias one another (as
Pluto and PPCG assume): a kernel called with the same array twice may
compute something else after optimization.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		var src SourceFlags
		src.Register(fs)
		src.RegisterOpt(fs)
		outPath := fs.String("o", "", "write the result to `file` (default FILE.nestor.c; - for standard output)")
		records := fs.String("records", "", "apply the best decisions that nestor tune recorded in `FILE.jsonl` for this file's regions (measured on this machine when there are such records)")
		return func(out io.Writer, args []string) error {
			if len(args) == 1 {
				if _, err := OutputPath(args[0], *outPath); err != nil {
					return err // before the work
				}
			}
			f, err := src.Parse(args)
			if err != nil {
				return err
			}
			opts, err := src.Options(os.Stderr)
			if err != nil {
				return err
			}
			if *records != "" {
				if opts.Decide, err = recordedDecisions(f, opts, *records, os.Stderr); err != nil {
					return err
				}
			}
			res, err := pipeline.Optimize(f, opts)
			if err != nil {
				return err
			}
			path, err := OutputPath(args[0], *outPath)
			if err != nil {
				return err
			}
			if path == "-" {
				_, err = out.Write(res)
				return err
			}
			return os.WriteFile(path, res, 0o644)
		}
	},
}
