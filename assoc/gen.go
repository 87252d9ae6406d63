package assoc

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Table generation (the paper's "Generating Elementary Operators").
//
// Generate runs the candidates of Enumerate through filters of increasing
// cost, each stage cheaper than the next and rejecting most of what
// reaches it:
//
//  1. random evaluation of f(f(a,b),c) = f(a,f(b,c)) on Samples draws
//     with edge values (RandomAssociative); for floats, IEEE evaluation
//     first and, when it fails, evaluation over the reals
//     (realRandomAssociative), which makes the candidate a RealOnly one;
//  2. a dependence on both x and y in value, not only in syntax
//     (RandomReadsBoth: x*y/y + min(x,k) is a projection in disguise);
//  3. rejection of decomposable tuples (Decomposable);
//  4. a Z3 proof of associativity. For int32 and int64, whose arithmetic
//     is assumed not to overflow, the proof with wrap-around comes first:
//     an operator associative when it wraps is associative wherever it
//     does not overflow (the two agree there), and the wrap-around query
//     is much cheaper; only when it fails is the no-overflow claim
//     proved. The entry records which held (Entry.Wraps). For floats, a
//     candidate that passed the IEEE tests is proved in IEEE arithmetic
//     and, failing that, over the reals (RealOnly);
//  5. synthesis of a two-sided identity (Prover.Identity), nil when none
//     holds;
//  6. a Z3 decision of commutativity (false unless proved).
//
// Workers (GenConfig.Jobs, one z3 process per mode each) take candidates
// in enumeration order; the outcome of each candidate depends only on it
// (its random draws are seeded by its sequence number), and the entries
// are sorted at the end, so the table does not depend on the number of
// workers or their timing. The Z3 outcomes are appended to a journal as
// they come; a run given the journal of an interrupted one (Resume)
// replays them instead of asking Z3 again.

// GenConfig configures one generation run: one type and one tuple size.
type GenConfig struct {
	Type      Type
	MaxLeaves int // bound on the leaves of the whole tuple
	TupleSize int // 1 or 2
	// Ops is the enumeration's operation set (DefaultOps(Type) when nil).
	Ops Ops
	// Samples is the number of random draws of the first filter
	// (DefaultSamples when zero).
	Samples int
	// Seed seeds the random draws (with each candidate's number).
	Seed uint64
	// Jobs is the number of workers (runtime.NumCPU() when zero).
	Jobs int
	// Timeout bounds each Z3 query (DefaultGenTimeout when zero).
	Timeout time.Duration
	// ResourceLimit, when nonzero, bounds each Z3 query by Z3's
	// deterministic resource count instead (Prover.SetResourceLimit): the
	// table then does not depend on the machine's speed or load.
	ResourceLimit uint64
	// Journal names the journal file ("" for none). Without Resume the
	// file must not exist; with Resume its outcomes are replayed.
	Journal string
	Resume  bool
	// MinLeaves, when above 2, skips the candidates with fewer leaves
	// (a run that extends a table of up to MinLeaves-1 leaves).
	MinLeaves int
	// Classes groups the elementary candidates by their values on fixed
	// points before Z3 (genclass.go): one proof per class, its members
	// shown equal to it. Integer and Bool types only.
	Classes bool
	// Progress receives a status line every ProgressEvery (none when
	// nil).
	Progress      io.Writer
	ProgressEvery time.Duration
}

// DefaultSamples is the number of random draws per candidate, the
// paper's 100.
const DefaultSamples = 100

// handTimeout is the least query timeout of GenerateHand.
const handTimeout = 30 * time.Second

// identityBudgetFactor bounds the generator's identity search of one
// operator, in query timeouts.
const identityBudgetFactor = 3

// DefaultGenTimeout bounds one Z3 query of the generator.
const DefaultGenTimeout = 5 * time.Second

// GenStats counts what each stage let through, per number of leaves.
type GenStats struct {
	Type      Type
	TupleSize int
	Levels    []LevelStats // by increasing Leaves
	Wall      time.Duration
	Replayed  int // outcomes read from the journal
	// Class counts of a run with GenConfig.Classes (genclass.go).
	Class ClassStats
}

// LevelStats are the counts of the candidates with Leaves leaves.
type LevelStats struct {
	Leaves          int
	Candidates      int // enumerated
	PassedRandom    int // passed the random tests
	ReadsBoth       int // and depend on x and y
	NonDecomposable int // and are elementary
	Proved          int // and Z3 proved associative
	RealOnly        int // of which over the reals only
	Refuted         int // Z3 found a counterexample
	Unknown         int // Z3 gave up
	WithIdentity    int // proved ones with a two-sided identity
	Commutative     int // proved ones that commute
	// Time is the worker time spent on these candidates (all stages,
	// Z3 included), summed over workers.
	Time time.Duration
}

// Total returns the sums over all levels.
func (s *GenStats) Total() LevelStats {
	var t LevelStats
	for _, l := range s.Levels {
		t.Candidates += l.Candidates
		t.PassedRandom += l.PassedRandom
		t.ReadsBoth += l.ReadsBoth
		t.NonDecomposable += l.NonDecomposable
		t.Proved += l.Proved
		t.RealOnly += l.RealOnly
		t.Refuted += l.Refuted
		t.Unknown += l.Unknown
		t.WithIdentity += l.WithIdentity
		t.Commutative += l.Commutative
		t.Time += l.Time
	}
	return t
}

// Print writes the statistics as a table.
func (s *GenStats) Print(w io.Writer) {
	fmt.Fprintf(w, "%v %d-tuples (wall %v, %d Z3 outcomes replayed from the journal)\n", s.Type, s.TupleSize, s.Wall.Round(time.Millisecond), s.Replayed)
	fmt.Fprintf(w, "%6s %10s %8s %8s %8s %7s %5s %7s %7s %5s %5s %10s\n",
		"leaves", "candidates", "random", "xy", "elem", "proved", "real", "refuted", "unknown", "id", "comm", "time")
	row := func(name string, l LevelStats) {
		fmt.Fprintf(w, "%6s %10d %8d %8d %8d %7d %5d %7d %7d %5d %5d %10v\n", name, l.Candidates, l.PassedRandom, l.ReadsBoth,
			l.NonDecomposable, l.Proved, l.RealOnly, l.Refuted, l.Unknown, l.WithIdentity, l.Commutative, l.Time.Round(time.Millisecond))
	}
	for _, l := range s.Levels {
		row(fmt.Sprint(l.Leaves), l)
	}
	row("all", s.Total())
	if c := s.Class; c.Classes > 0 {
		fmt.Fprintf(w, "classes: %s\n", c)
	}
}

// level returns the statistics of n leaves, adding levels as needed.
func (s *GenStats) level(n int) *LevelStats {
	for len(s.Levels) < n {
		s.Levels = append(s.Levels, LevelStats{Leaves: len(s.Levels) + 1})
	}
	return &s.Levels[n-1]
}

// genStage is how far a candidate got.
type genStage uint8

const (
	stageEnumerated genStage = iota
	stageRandom              // passed the random tests
	stageReadsBoth           // depends on x and y
	stageElementary          // not decomposable: Z3 ran
)

// genOutcome is what became of one candidate.
type genOutcome struct {
	seq     int
	tp      Tuple
	leaves  int
	stage   genStage
	verdict Verdict // of the associativity proof, when stage is stageElementary
	entry   *Entry  // when proved
	replay  bool
	// unjournaled marks an outcome that is no Z3 outcome of its own (a
	// member dropped with its refuted class, genclass.go).
	unjournaled bool
	member      uint8 // how a member of a class was decided (genclass.go)
	time        time.Duration
}

// Generate runs the pipeline of cfg and returns the proved operators in
// table order (grouped by the root operation of element 0, by increasing
// leaves, then in enumeration order) and the statistics.
func Generate(cfg GenConfig) ([]Entry, *GenStats, error) {
	if cfg.TupleSize < 1 || cfg.TupleSize > 2 {
		return nil, nil, fmt.Errorf("assoc: tuple size %d (want 1 or 2)", cfg.TupleSize)
	}
	if cfg.MaxLeaves < 2 {
		return nil, nil, fmt.Errorf("assoc: at most %d leaves: an operator reads x and y, so it has at least 2", cfg.MaxLeaves)
	}
	if cfg.Type >= numTypes {
		return nil, nil, fmt.Errorf("assoc: unknown type %v", cfg.Type)
	}
	if cfg.Ops == nil {
		cfg.Ops = DefaultOps(cfg.Type)
	}
	if cfg.Samples <= 0 {
		cfg.Samples = DefaultSamples
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = runtime.NumCPU()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultGenTimeout
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 2 * time.Second
	}
	if _, err := Z3Path(); err != nil {
		return nil, nil, err
	}
	if cfg.Classes && cfg.Type.Float() {
		return nil, nil, fmt.Errorf("assoc: classes of candidates are for integer and bool tables (a float member's IEEE and real proofs may differ from its class's)")
	}
	jr, err := openJournal(cfg)
	if err != nil {
		return nil, nil, err
	}
	defer jr.close()
	if cfg.Classes {
		return generateClasses(cfg, jr)
	}

	start := time.Now()
	stats := &GenStats{Type: cfg.Type, TupleSize: cfg.TupleSize}
	type job struct {
		seq int
		tp  Tuple
	}
	jobs := make(chan job, 4*cfg.Jobs)
	outs := make(chan genOutcome, 4*cfg.Jobs)
	var enumerated atomic.Int64
	var total atomic.Int64 // the number of candidates, once counted
	total.Store(-1)
	stop := make(chan struct{})
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }) }

	enumDone := make(chan struct{})
	// The candidates of 1-tuples are counted apart, for the ETA. Those
	// of 2-tuples are not: their enumeration keeps big levels of trees,
	// and a second one would double the memory; their total is known
	// when the enumeration ends.
	go func() {
		if cfg.TupleSize != 1 {
			<-enumDone
			total.Store(enumerated.Load())
			return
		}
		n := 0
		EnumerateOps(cfg.Type, cfg.Ops, cfg.MaxLeaves, cfg.TupleSize, func(tp Tuple) bool {
			if cfg.MinLeaves <= 2 || tupleLeaves(tp) >= cfg.MinLeaves {
				n++
			}
			select {
			case <-stop:
				return false
			default:
				return true
			}
		})
		total.Store(int64(n))
	}()
	go func() {
		defer close(jobs)
		defer close(enumDone)
		seq := 0
		EnumerateOps(cfg.Type, cfg.Ops, cfg.MaxLeaves, cfg.TupleSize, func(tp Tuple) bool {
			if cfg.MinLeaves > 2 && tupleLeaves(tp) < cfg.MinLeaves {
				return true
			}
			select {
			case jobs <- job{seq, tp}:
			case <-stop:
				return false
			}
			seq++
			enumerated.Add(1)
			return true
		})
	}()

	var wg sync.WaitGroup
	var workerErr error
	var errOnce sync.Once
	for range cfg.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newGenWorker(cfg, jr)
			defer w.close()
			for j := range jobs {
				o, err := w.run(j.seq, j.tp)
				if err != nil {
					errOnce.Do(func() { workerErr = err })
					halt()
					for range jobs { // let the enumerator end
					}
					return
				}
				outs <- o
			}
		}()
	}
	go func() { wg.Wait(); close(outs) }()

	var entries []genResult
	prog := newGenProgress(cfg, start, &enumerated, &total)
	tick := time.NewTicker(cfg.ProgressEvery)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case o, ok := <-outs:
			if !ok {
				done = true
				break
			}
			stats.add(o)
			prog.add(o)
			if o.entry != nil {
				entries = append(entries, genResult{o.seq, *o.entry})
			}
			if o.stage == stageElementary && !o.replay {
				if err := jr.record(o); err != nil {
					errOnce.Do(func() { workerErr = err })
					halt()
				}
			}
		case <-tick.C:
			prog.print(stats)
		}
	}
	halt()
	stats.Wall = time.Since(start)
	prog.print(stats)
	if workerErr != nil {
		return nil, stats, workerErr
	}
	slices.SortFunc(entries, func(a, b genResult) int {
		return cmp.Or(cmp.Compare(a.e.Elems[0].Op, b.e.Elems[0].Op), cmp.Compare(a.e.Leaves, b.e.Leaves), cmp.Compare(a.seq, b.seq))
	})
	out := make([]Entry, len(entries))
	for i, r := range entries {
		out[i] = r.e
	}
	return out, stats, nil
}

type genResult struct {
	seq int
	e   Entry
}

func (s *GenStats) add(o genOutcome) {
	l := s.level(o.leaves)
	l.Candidates++
	l.Time += o.time
	if o.replay {
		s.Replayed++
	}
	if o.stage >= stageRandom {
		l.PassedRandom++
	}
	if o.stage >= stageReadsBoth {
		l.ReadsBoth++
	}
	if o.stage < stageElementary {
		return
	}
	l.NonDecomposable++
	switch o.verdict {
	case Refuted:
		l.Refuted++
	case Unknown:
		l.Unknown++
	}
	if e := o.entry; e != nil {
		l.Proved++
		if e.RealOnly {
			l.RealOnly++
		}
		if e.Identity != nil {
			l.WithIdentity++
		}
		if e.Commutative {
			l.Commutative++
		}
	}
}

// genProgress writes the status lines.
type genProgress struct {
	cfg               GenConfig
	start             time.Time
	enumerated, total *atomic.Int64
	done, z3          int
}

func newGenProgress(cfg GenConfig, start time.Time, enumerated, total *atomic.Int64) *genProgress {
	return &genProgress{cfg: cfg, start: start, enumerated: enumerated, total: total}
}

func (p *genProgress) add(o genOutcome) {
	p.done++
	if o.stage == stageElementary {
		p.z3++
	}
}

// print writes one line: the counts per stage, the rates and an ETA from
// the share of candidates done (once they are counted).
func (p *genProgress) print(s *GenStats) {
	if p.cfg.Progress == nil {
		return
	}
	t := s.Total()
	el := time.Since(p.start)
	rate := float64(p.done) / el.Seconds()
	eta := "?"
	total := p.total.Load()
	if total >= 0 {
		if p.done > 0 && int64(p.done) < total {
			eta = (time.Duration(float64(el) * float64(total-int64(p.done)) / float64(p.done))).Round(time.Second).String()
		} else if int64(p.done) >= total {
			eta = "0s"
		}
	}
	tot := "?"
	if total >= 0 {
		tot = fmt.Sprint(total)
	}
	fmt.Fprintf(p.cfg.Progress, "assoc gen %v %d-tuples ≤%d leaves: %d/%s candidates, %d random, %d xy, %d elementary, %d proved (%d real), %d refuted, %d unknown | %.0f cand/s, %.1f z3/s, %v elapsed, ETA %s\n",
		p.cfg.Type, p.cfg.TupleSize, p.cfg.MaxLeaves, p.done, tot, t.PassedRandom, t.ReadsBoth, t.NonDecomposable, t.Proved, t.RealOnly, t.Refuted, t.Unknown,
		rate, float64(p.z3)/el.Seconds(), el.Round(time.Second), eta)
}

// genWorker runs candidates through the stages, with its own provers.
type genWorker struct {
	cfg      GenConfig
	noBudget bool // no identity search budget
	jr       *journal
	provers  map[Options]*Prover
}

func newGenWorker(cfg GenConfig, jr *journal) *genWorker {
	return &genWorker{cfg: cfg, jr: jr, provers: map[Options]*Prover{}}
}

func (w *genWorker) close() {
	for _, p := range w.provers {
		p.Close()
	}
}

func (w *genWorker) prover(o Options) (*Prover, error) {
	if p, ok := w.provers[o]; ok {
		return p, nil
	}
	p, err := NewProver(o, w.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	p.noMissing = true
	p.SetResourceLimit(w.cfg.ResourceLimit)
	if !w.noBudget {
		p.identityBudget = identityBudgetFactor * w.cfg.Timeout
	}
	w.provers[o] = p
	return p, nil
}

// run takes one candidate through the stages.
func (w *genWorker) run(seq int, tp Tuple) (genOutcome, error) {
	t0 := time.Now()
	o, ieee := w.filter(seq, tp)
	if o.stage < stageElementary {
		o.time = time.Since(t0)
		return o, nil
	}
	err := w.prove(&o, ieee)
	o.time = time.Since(t0)
	return o, err
}

// filter takes a candidate through the stages before Z3 (1 to 3); ieee
// reports, for a float candidate, that it passed the IEEE tests.
func (w *genWorker) filter(seq int, tp Tuple) (o genOutcome, ieee bool) {
	o = genOutcome{seq: seq, tp: tp, leaves: tupleLeaves(tp)}
	rng := rand.New(rand.NewPCG(w.cfg.Seed, uint64(seq)))
	ieee = RandomAssociative(tp, rng, w.cfg.Samples)
	real := false
	if !ieee && w.cfg.Type.Float() {
		real = realRandomAssociative(tp, rng, w.cfg.Samples)
	}
	if !ieee && !real {
		return o, ieee
	}
	o.stage = stageRandom
	if ieee && !RandomReadsBoth(tp, rng, w.cfg.Samples) || !ieee && !realReadsBoth(tp, rng, w.cfg.Samples) {
		return o, ieee
	}
	o.stage = stageReadsBoth
	if Decomposable(tp) {
		return o, ieee
	}
	o.stage = stageElementary
	return o, ieee
}

// prove runs the Z3 stages (4 to 6) on an elementary candidate, or
// replays their outcome from the journal.
func (w *genWorker) prove(o *genOutcome, ieee bool) error {
	if rec, ok := w.jr.lookup(o.tp); ok {
		o.verdict, o.entry, o.replay = rec.verdict, rec.entry, true
		return nil
	}
	e, v, err := ProveEntry(o.tp, w.prover, ieee)
	o.verdict, o.entry = v, e
	return err
}

// tupleLeaves returns the leaves of all of tp's elements.
func tupleLeaves(tp Tuple) int {
	n := 0
	for _, e := range tp.Elems {
		n += e.Leaves()
	}
	return n
}

// ProverFunc returns the prover of a semantics (generation keeps one per
// worker and mode).
type ProverFunc func(Options) (*Prover, error)

// ProveEntry proves tp associative and, when it is, synthesizes its
// identity and decides its commutativity (stages 4 to 6 of Generate). For
// floats, ieee says whether tp passed the IEEE random tests: only then is
// an IEEE proof tried before the proof over the reals. The verdict is
// that of the associativity proof: Proved with an entry, or Refuted or
// Unknown without one.
func ProveEntry(tp Tuple, provers ProverFunc, ieee bool) (*Entry, Verdict, error) {
	t := tp.Elems[0].Type
	ver, err := Z3Version()
	if err != nil {
		return nil, Unknown, err
	}
	e := &Entry{Operator: Operator{Tuple: tp}, Leaves: tupleLeaves(tp)}
	var opts Options
	var v Verdict
	switch {
	case t == Int32 || t == Int64:
		// Wrap-around first: associative when wrapping implies
		// associative where nothing overflows.
		v, err = proveAssoc(provers, Options{Wrap: true}, tp)
		if err != nil {
			return nil, Unknown, err
		}
		e.Wraps = v == Proved
		if v != Proved {
			v, err = proveAssoc(provers, opts, tp)
		}
		switch {
		case e.Wraps:
			e.Proof = "z3 " + ver + " bv wrap"
		case opts.intsFor(tp.Elems...).ints:
			e.Proof = "z3 " + ver + " int"
		default:
			e.Proof = "z3 " + ver + " bv"
		}
	case t.Float():
		v = Unknown
		if ieee {
			v, err = proveAssoc(provers, opts, tp)
			e.Proof = "z3 " + ver + " fp"
		}
		if err == nil && v != Proved {
			opts = Options{Real: true}
			v, err = proveAssoc(provers, opts, tp)
			e.RealOnly = true
			e.Proof = "z3 " + ver + " real"
		}
	default:
		v, err = proveAssoc(provers, opts, tp)
		e.Wraps = v == Proved
		e.Proof = "z3 " + ver + " bv"
	}
	if err != nil || v != Proved {
		return nil, v, err
	}
	p, err := provers(opts)
	if err != nil {
		return nil, Unknown, err
	}
	rng := rand.New(rand.NewPCG(uint64(e.Leaves), 7))
	if opts.Real || identityPlausible(tp, opts, rng) {
		// An error here leaves the operator without identity: over the
		// reals a witness of identityExists may have no float value
		// (beyond the greatest float).
		id, err := p.Identity(tp, BothSides)
		if err == nil && id.Verdict == Proved {
			e.Identity = id.Identity
		}
	}
	if opts.Real || !randomNotCommutative(tp, rng) {
		c, err := p.Commutative(tp)
		e.Commutative = err == nil && c.Verdict == Proved // an error (as above): not commutative
	}
	return e, Proved, nil
}

// prescreenPoints is the number of random points of the identity and
// commutativity prescreens.
const prescreenPoints = 200

// identityPlausible reports whether tp may have a two-sided identity that
// Prover.Identity would find: tp reads no k (Z3 may then find an
// identity outside the candidates), or some combination of the
// candidates of identityCandidates (a candidate per element) passes
// random tests: f(e, v) = v and f(v, e) = v, both defined, at random v
// and k. When it reports false, the generator records no identity
// without asking Z3; Z3 would have found none either, as its candidates
// are the same.
func identityPlausible(tp Tuple, opts Options, rng *rand.Rand) bool {
	syms, err := smtConsts(tp.Elems...)
	if err != nil || len(syms) == 0 {
		return true
	}
	n := len(tp.Elems)
	cands := make([][]*Expr, n)
	for i, e := range tp.Elems {
		cands[i] = identityCandidates(e.Type, opts, syms)
	}
	kTypes := constTypes(tp)
	k := make([]Value, len(kTypes))
	v, id, out := make([]Value, n), make([]Value, n), make([]Value, n)
	pick := make([]int, n)
	holds := func() bool {
		for range prescreenPoints {
			for i, t := range kTypes {
				k[i] = sample(t, rng)
			}
			for i, e := range tp.Elems {
				v[i] = sample(e.Type, rng)
				c, err := Eval(cands[i][pick[i]], Env{K: k, Wrap: opts.Wrap})
				if err != nil {
					return false
				}
				id[i] = c
			}
			for _, side := range [][2][]Value{{id, v}, {v, id}} {
				env := Env{X: side[0], Y: side[1], K: k, Wrap: opts.Wrap}
				if env.evalTuple(tp, out) != nil {
					return false
				}
				for i, e := range tp.Elems {
					if !SameValue(out[i], v[i], e.Type) {
						return false
					}
				}
			}
		}
		return true
	}
	// Every combination, odometer order.
	for {
		if holds() {
			return true
		}
		i := 0
		for ; i < n; i++ {
			pick[i]++
			if pick[i] < len(cands[i]) {
				break
			}
			pick[i] = 0
		}
		if i == n {
			return false
		}
	}
}

// randomNotCommutative reports whether random points show f(a, b) ≠
// f(b, a), both defined: then tp is not commutative, without Z3.
func randomNotCommutative(tp Tuple, rng *rand.Rand) bool {
	n := len(tp.Elems)
	kTypes := constTypes(tp)
	k := make([]Value, len(kTypes))
	a, b, ab, ba := make([]Value, n), make([]Value, n), make([]Value, n), make([]Value, n)
	for range prescreenPoints {
		for i, t := range kTypes {
			k[i] = sample(t, rng)
		}
		for i, e := range tp.Elems {
			a[i], b[i] = sample(e.Type, rng), sample(e.Type, rng)
		}
		e1, e2 := Env{X: a, Y: b, K: k}, Env{X: b, Y: a, K: k}
		if e1.evalTuple(tp, ab) != nil || e2.evalTuple(tp, ba) != nil {
			continue
		}
		if !sameValues(tp, ab, ba) {
			return true
		}
	}
	return false
}

// proveAssoc proves tp associative. A query that fails once the prover
// runs (over the reals Z3 may answer with an irrational counterexample,
// which has no float value) counts as Unknown: the operator is left out,
// and the run goes on.
func proveAssoc(provers ProverFunc, opts Options, tp Tuple) (Verdict, error) {
	p, err := provers(opts)
	if err != nil {
		return Unknown, err
	}
	r, err := p.Associative(tp)
	if err != nil {
		return Unknown, nil
	}
	return r.Verdict, nil
}

var z3Version struct {
	once sync.Once
	v    string
	err  error
}

// Z3Version returns the version of the installed z3 ("4.8.12").
func Z3Version() (string, error) {
	z3Version.once.Do(func() {
		path, err := Z3Path()
		if err != nil {
			z3Version.err = err
			return
		}
		b, err := exec.Command(path, "--version").Output()
		out := string(b)
		if err != nil {
			z3Version.err = fmt.Errorf("assoc: z3 --version: %v", err)
			return
		}
		// "Z3 version 4.8.12 - 64 bit"
		f := strings.Fields(out)
		if len(f) < 3 {
			z3Version.err = fmt.Errorf("assoc: z3 --version said %q", out)
			return
		}
		z3Version.v = f[2]
	})
	return z3Version.v, z3Version.err
}

// The journal.
//
// A journal is a text file: a header line naming the run's settings, then
// one line per candidate that reached Z3, "proved <entry line>" (the
// table's entry format) or "refuted <tuple>" or "unknown <tuple>". A
// line cut short by an interruption is ignored (and rewritten).

const journalMagic = "nestor-assoc-journal v1"

type journal struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	t    Type
	done map[string]journalRecord
}

type journalRecord struct {
	verdict Verdict
	entry   *Entry
}

// journalHeader names the settings a journal's outcomes depend on: the
// type, the tuple size, the samples and seed (which decide what reaches
// Z3) and the Z3 timeout or resource limit. The leaf bound and the operation set may change
// between runs: an outcome is keyed by the candidate itself.
func journalHeader(cfg GenConfig) string {
	h := fmt.Sprintf("%s type=%v tuple=%d samples=%d seed=%d timeout=%v", journalMagic, cfg.Type, cfg.TupleSize, cfg.Samples, cfg.Seed, cfg.Timeout)
	if cfg.ResourceLimit > 0 {
		h += fmt.Sprintf(" rlimit=%d", cfg.ResourceLimit)
	}
	return h
}

func openJournal(cfg GenConfig) (*journal, error) {
	jr := &journal{t: cfg.Type, done: map[string]journalRecord{}}
	if cfg.Journal == "" {
		return jr, nil
	}
	head := journalHeader(cfg)
	data, err := os.ReadFile(cfg.Journal)
	switch {
	case err == nil && !cfg.Resume:
		return nil, fmt.Errorf("assoc: journal %s exists: resume from it (--resume) or remove it", cfg.Journal)
	case err == nil:
		if err := jr.load(cfg.Journal, string(data), head); err != nil {
			return nil, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("assoc: journal: %v", err)
	}
	f, err := os.OpenFile(cfg.Journal, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("assoc: journal: %v", err)
	}
	jr.f, jr.w = f, bufio.NewWriter(f)
	// Rewrite what was read (dropping a torn last line), then append.
	fmt.Fprintln(jr.w, head)
	for _, line := range jr.lines(data) {
		fmt.Fprintln(jr.w, line)
	}
	return jr, jr.flush()
}

// lines returns the complete record lines of data.
func (jr *journal) lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := string(data)
	if !strings.HasSuffix(s, "\n") {
		s = s[:strings.LastIndexByte(s, '\n')+1]
	}
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(ls) > 0 {
		ls = ls[1:] // the header
	}
	return ls
}

// load reads a journal's records.
func (jr *journal) load(name, data, head string) error {
	first, _, _ := strings.Cut(data, "\n")
	if first != head {
		return fmt.Errorf("%s:1:1: journal of another run: %q, want %q", name, first, head)
	}
	for i, line := range jr.lines([]byte(data)) {
		kind, rest, _ := strings.Cut(line, " ")
		lineNo := i + 2
		switch kind {
		case "proved":
			e, err := parseEntryLine(rest, jr.t)
			if err != nil {
				return positioned(name, lineNo, len(kind)+1, err)
			}
			jr.done[e.Tuple.String()] = journalRecord{Proved, e}
		case "refuted", "unknown":
			tp, err := ParseTuple(rest, jr.t)
			if err != nil {
				return positioned(name, lineNo, len(kind)+1, err)
			}
			v := Refuted
			if kind == "unknown" {
				v = Unknown
			}
			jr.done[tp.String()] = journalRecord{verdict: v}
		default:
			return &TableError{File: name, Line: lineNo, Col: 1, Msg: fmt.Sprintf("journal record %q", kind)}
		}
	}
	return nil
}

// ReadJournal returns the operators a generation journal of a table of
// type t records as proved, in table order: the table of an interrupted
// run so far (each entry is proved; what is missing is the candidates
// not reached).
func ReadJournal(name string, t Type) ([]Entry, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	jr := &journal{t: t, done: map[string]journalRecord{}}
	head, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(head, journalMagic+" type="+t.String()+" ") {
		return nil, fmt.Errorf("%s:1:1: not a journal of a %v table: %q", name, t, head)
	}
	if err := jr.load(name, string(data), head); err != nil {
		return nil, err
	}
	var out []Entry
	for _, r := range jr.done {
		if r.entry != nil {
			out = append(out, *r.entry)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Elems[0].Op, b.Elems[0].Op), cmp.Compare(a.Leaves, b.Leaves), strings.Compare(a.Tuple.String(), b.Tuple.String()))
	})
	return out, nil
}

func (jr *journal) lookup(tp Tuple) (journalRecord, bool) {
	if len(jr.done) == 0 {
		return journalRecord{}, false
	}
	r, ok := jr.done[tp.String()]
	return r, ok
}

// record appends o's outcome.
func (jr *journal) record(o genOutcome) error {
	if jr.w == nil {
		return nil
	}
	jr.mu.Lock()
	defer jr.mu.Unlock()
	switch {
	case o.entry != nil:
		fmt.Fprintf(jr.w, "proved %s\n", formatEntryLine(o.entry))
	case o.verdict == Refuted:
		fmt.Fprintf(jr.w, "refuted %s\n", o.tp)
	default:
		fmt.Fprintf(jr.w, "unknown %s\n", o.tp)
	}
	return jr.flush()
}

func (jr *journal) flush() error {
	if err := jr.w.Flush(); err != nil {
		return fmt.Errorf("assoc: journal: %v", err)
	}
	return nil
}

func (jr *journal) close() {
	if jr.f != nil {
		jr.w.Flush()
		jr.f.Close()
	}
}

// Random tests over the reals.
//
// A float operator that is associative only over the reals (x + y, with
// rounding) fails the IEEE tests. realRandomAssociative evaluates it in
// float64 as an approximation of the reals on points where that is
// nearly exact: small integers and quarters, and moderate values, with no
// NaN, infinity or signed zero (the Real mode has none). Results compare
// with a relative tolerance (realTolerance); a draw where a division by
// zero or a non-finite value occurs is skipped. Like the other random
// tests it is only a filter: Z3 proves what passes.

// realTolerance is the relative difference below which two float64
// results count as the same real number.
const realTolerance = 1e-9

func realRandomAssociative(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	buf := make([]float64, 7*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, bc, left, right := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:6*n], buf[6*n:]
	var k float64
	f := func(x, y, out []float64) bool {
		for i, e := range tp.Elems {
			v, ok := realEval(e, x, y, k)
			if !ok {
				return false
			}
			out[i] = v
		}
		return true
	}
	valid := 0
	for range maxDraws * samples {
		if valid >= samples {
			break
		}
		for i := range n {
			a[i], b[i], c[i] = realSample(rng), realSample(rng), realSample(rng)
		}
		k = realSample(rng)
		if !f(a, b, ab) || !f(b, c, bc) || !f(ab, c, left) || !f(a, bc, right) {
			continue
		}
		valid++
		for i := range n {
			if d := math.Abs(left[i] - right[i]); d > realTolerance*max(1, math.Abs(left[i]), math.Abs(right[i])) {
				return false
			}
		}
	}
	return valid*minValidShare >= samples
}

// realReadsBoth is RandomReadsBoth over the reals: x + y - y reads y in
// IEEE arithmetic (it rounds, and y may be infinite) but is x over the
// reals, where a RealOnly operator is used.
func realReadsBoth(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	buf := make([]float64, 6*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, cb, ac := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:]
	var k float64
	f := func(x, y, out []float64) bool {
		for i, e := range tp.Elems {
			v, ok := realEval(e, x, y, k)
			if !ok {
				return false
			}
			out[i] = v
		}
		return true
	}
	differ := func(u, v []float64) bool {
		for i := range u {
			if math.Abs(u[i]-v[i]) > realTolerance*max(1, math.Abs(u[i]), math.Abs(v[i])) {
				return true
			}
		}
		return false
	}
	readsX, readsY := false, false
	for range maxDraws * samples {
		for i := range n {
			a[i], b[i], c[i] = realSample(rng), realSample(rng), realSample(rng)
		}
		k = realSample(rng)
		if !f(a, b, ab) {
			continue
		}
		readsX = readsX || f(c, b, cb) && differ(ab, cb)
		readsY = readsY || f(a, c, ac) && differ(ab, ac)
		if readsX && readsY {
			return true
		}
	}
	return false
}

// realSample draws a small integer or quarter half of the time, else a
// value in ±1000.
func realSample(rng *rand.Rand) float64 {
	if rng.IntN(2) == 0 {
		return float64(rng.Int64N(65)-32) / 4
	}
	return math.Round((rng.Float64()*2000-1000)*64) / 64
}

// realEval evaluates e with float types read as reals (approximated in
// float64); ok is false where the value is undefined or not finite.
func realEval(e *Expr, x, y []float64, k float64) (float64, bool) {
	switch e.Op {
	case OpX:
		return x[e.Index], true
	case OpY:
		return y[e.Index], true
	case OpK:
		return k, true
	case OpConst:
		v := e.Value.Float(e.Type)
		if e.Type == Bool {
			v = float64(e.Value & 1)
		}
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case OpSelect:
		c, ok := realEval(e.Args[0], x, y, k)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return realEval(e.Args[1], x, y, k)
		}
		return realEval(e.Args[2], x, y, k)
	case OpAnd, OpOr:
		a, ok := realEval(e.Args[0], x, y, k)
		if !ok {
			return 0, false
		}
		if (a != 0) == (e.Op == OpOr) {
			return float64(boolValue(e.Op == OpOr)), true
		}
		b, ok := realEval(e.Args[1], x, y, k)
		return float64(boolValue(b != 0)), ok
	case OpNot:
		a, ok := realEval(e.Args[0], x, y, k)
		return float64(boolValue(a == 0)), ok
	case OpNeg:
		a, ok := realEval(e.Args[0], x, y, k)
		return -a, ok
	}
	if len(e.Args) != 2 {
		return 0, false
	}
	a, ok := realEval(e.Args[0], x, y, k)
	if !ok {
		return 0, false
	}
	b, ok := realEval(e.Args[1], x, y, k)
	if !ok {
		return 0, false
	}
	var r float64
	switch e.Op {
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv:
		if b == 0 {
			return 0, false
		}
		r = a / b
	case OpMin:
		r = min(a, b)
	case OpMax:
		r = max(a, b)
	case OpLT:
		r = float64(boolValue(a < b))
	case OpLE:
		r = float64(boolValue(a <= b))
	case OpEQ:
		r = float64(boolValue(a == b))
	case OpNE:
		r = float64(boolValue(a != b))
	default:
		return 0, false
	}
	return r, !math.IsInf(r, 0) && !math.IsNaN(r)
}

// GenerateHand proves the primitives ops for type t (those for t: Bool has
// none, the arithmetic of the primitives is no operation on truth values) and
// returns their entries, named, with the operators canonicalized as
// matching expects. A primitive that Z3 does not prove associative is an
// error: the list promises it.
//
// rlimit, when nonzero, bounds each query by Z3's resource count instead
// of the timeout (see GenConfig.ResourceLimit).
func GenerateHand(t Type, ops []HandOp, timeout time.Duration, rlimit uint64) ([]Entry, error) {
	if t == Bool {
		return nil, nil
	}
	// The primitives are few and their identities matter (a 2×2 int64
	// matrix product's proof with overflow conditions takes seconds):
	// no search budget, and at least handTimeout per query.
	w := newGenWorker(GenConfig{Type: t, Timeout: max(timeout, handTimeout), ResourceLimit: rlimit}, nil)
	w.noBudget = true
	defer w.close()
	var out []Entry
	for _, h := range ops {
		if !h.For(t) {
			continue
		}
		tp, err := ParseTuple(h.Src, t)
		if err != nil {
			return nil, fmt.Errorf("assoc: hand primitive %s (line %d): %v", h.Name, h.Line, err)
		}
		tp = CanonTuple(tp)
		// No random filter: products of int32 matrices overflow on most
		// draws. The IEEE tests only decide whether an IEEE proof is
		// worth trying.
		rng := rand.New(rand.NewPCG(1, uint64(h.Line)))
		ieee := t.Float() && RandomAssociative(tp, rng, DefaultSamples)
		e, v, err := ProveEntry(tp, w.prover, ieee)
		if err != nil {
			return nil, err
		}
		if v != Proved {
			return nil, fmt.Errorf("assoc: hand primitive %s in %v: associativity %v by z3", h.Name, t, v)
		}
		e.Name = h.Name
		out = append(out, *e)
	}
	return out, nil
}
