package gen

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// Table generation (the paper's "Generating Elementary Operators").
//
// Generate runs the candidates of Enumerate through filters of increasing
// cost, each stage cheaper than the next and rejecting most of what
// reaches it:
//
//  1. random evaluation of f(f(a,b),c) = f(a,f(b,c)) on Samples draws
//     with edge values (assoc.RandomAssociative); for floats, IEEE
//     evaluation first and, when it fails, evaluation over the reals
//     (assoc.RealRandomAssociative), which makes the candidate a
//     RealOnly one;
//  2. a dependence on both x and y in value, not only in syntax
//     (assoc.RandomReadsBoth: x*y/y + min(x,k) is a projection in
//     disguise);
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
	Type      assoc.Type
	MaxLeaves int // bound on the leaves of the whole tuple
	TupleSize int // 1 or 2
	// Ops is the enumeration's operation set (DefaultOps(Type) when nil).
	Ops Ops
	// Samples is the number of random draws of the first filter
	// (DefaultSamples when zero).
	Samples int
	// Seed seeds the random draws (with each candidate's number).
	Seed uint64
	// Jobs is the number of workers, each with its z3 processes
	// (runtime.NumCPU() when zero; with Classes, the stages before Z3
	// run on every CPU whatever Jobs).
	Jobs int
	// Timeout bounds each Z3 query (DefaultGenTimeout when zero).
	Timeout time.Duration
	// ResourceLimit, when nonzero, bounds each Z3 query by Z3's
	// deterministic resource count instead (Prover.SetResourceLimit): the
	// table then does not depend on the machine's speed or load, and
	// Timeout only guards against a hung z3. A run with Classes and
	// neither bound set gets DefaultClassRlimit.
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
	// MaxClasses, when above zero, bounds a run with Classes to its
	// MaxClasses largest classes (genclass.go's order): the members of
	// the others are left undecided (ClassStats.Cut). The bound is a
	// count, so the table does not depend on the machine's speed or load,
	// and a run with a larger bound extends it (resumed from the journal
	// of a smaller one, it replays those classes).
	MaxClasses int
	// Progress receives a status line every ProgressEvery (none when
	// nil).
	Progress      io.Writer
	ProgressEvery time.Duration

	// queries counts the queries the run's provers sent to Z3 (set by
	// Generate, added to as workers close).
	queries *atomic.Int64
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

// DefaultClassRlimit bounds each Z3 query of a run with Classes (unless
// a Timeout or ResourceLimit is given), in Z3's deterministic resource
// units, so that such a run gives the same table on an idle machine and
// a loaded one, and a resumed run the table of an uninterrupted one.
// Calibrated with z3 4.8.12 on int32's 6-leaf candidates: the
// associativity queries that a 2 s timeout proves take at most about
// 1.3 M units (most under 0.5 M); 5 M units is about 1.5 to 3 s of one
// core, and proves about as many of those a 2 s timeout leaves undecided
// as it refutes.
const DefaultClassRlimit = 5_000_000

// GenStats counts what each stage let through, per number of leaves.
type GenStats struct {
	Type      assoc.Type
	TupleSize int
	Levels    []LevelStats // by increasing Leaves
	Wall      time.Duration
	// CPU is the processor time of the run, the z3 processes it ended
	// included (zero where the system does not say).
	CPU      time.Duration
	Replayed int // outcomes read from the journal
	// Queries counts the queries sent to Z3 (associativity, identity,
	// commutativity, and with classes the equalities of members).
	Queries int64
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
	fmt.Fprintf(w, "%v %d-tuples (wall %v, cpu %v, %d Z3 queries, %d Z3 outcomes replayed from the journal)\n", s.Type, s.TupleSize, s.Wall.Round(time.Millisecond), s.CPU.Round(time.Millisecond), s.Queries, s.Replayed)
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
	tp      assoc.Tuple
	leaves  int
	stage   genStage
	verdict prove.Verdict // of the associativity proof, when stage is stageElementary
	entry   *assoc.Entry  // when proved
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
func Generate(cfg GenConfig) ([]assoc.Entry, *GenStats, error) {
	if cfg.TupleSize < 1 || cfg.TupleSize > 2 {
		return nil, nil, fmt.Errorf("assoc: tuple size %d (want 1 or 2)", cfg.TupleSize)
	}
	if cfg.MaxLeaves < 2 {
		return nil, nil, fmt.Errorf("assoc: at most %d leaves: an operator reads x and y, so it has at least 2", cfg.MaxLeaves)
	}
	if int(cfg.Type) >= len(assoc.Types()) {
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
	if cfg.Classes && cfg.Timeout <= 0 && cfg.ResourceLimit == 0 {
		cfg.ResourceLimit = DefaultClassRlimit
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultGenTimeout
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 2 * time.Second
	}
	if _, err := prove.Z3Path(); err != nil {
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
	cfg.queries = new(atomic.Int64)
	if cfg.Classes {
		return generateClasses(cfg, jr)
	}

	start, cpu0 := time.Now(), processCPU()
	stats := &GenStats{Type: cfg.Type, TupleSize: cfg.TupleSize}
	type job struct {
		seq int
		tp  assoc.Tuple
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
		EnumerateOps(cfg.Type, cfg.Ops, cfg.MaxLeaves, cfg.TupleSize, func(tp assoc.Tuple) bool {
			if cfg.MinLeaves <= 2 || tp.Leaves() >= cfg.MinLeaves {
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
		EnumerateOps(cfg.Type, cfg.Ops, cfg.MaxLeaves, cfg.TupleSize, func(tp assoc.Tuple) bool {
			if cfg.MinLeaves > 2 && tp.Leaves() < cfg.MinLeaves {
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
	stats.Wall, stats.CPU = time.Since(start), processCPU()-cpu0
	stats.Queries = cfg.queries.Load()
	prog.print(stats)
	if workerErr != nil {
		return nil, stats, workerErr
	}
	slices.SortFunc(entries, func(a, b genResult) int {
		return cmp.Or(cmp.Compare(a.e.Elems[0].Op, b.e.Elems[0].Op), cmp.Compare(a.e.Leaves, b.e.Leaves), cmp.Compare(a.seq, b.seq))
	})
	out := make([]assoc.Entry, len(entries))
	for i, r := range entries {
		out[i] = r.e
	}
	return out, stats, nil
}

type genResult struct {
	seq int
	e   assoc.Entry
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
	case prove.Refuted:
		l.Refuted++
	case prove.Unknown:
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
	// byClass: the ETA is that of the classes line (genclass.go), the
	// candidates left being classes' members.
	byClass bool
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
	if p.byClass {
		eta = "below"
	} else if total >= 0 {
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
	provers  map[prove.Options]*prove.Prover
}

func newGenWorker(cfg GenConfig, jr *journal) *genWorker {
	return &genWorker{cfg: cfg, jr: jr, provers: map[prove.Options]*prove.Prover{}}
}

func (w *genWorker) close() {
	for _, p := range w.provers {
		if w.cfg.queries != nil {
			w.cfg.queries.Add(int64(p.Queries))
		}
		p.Close()
	}
}

func (w *genWorker) prover(o prove.Options) (*prove.Prover, error) {
	if p, ok := w.provers[o]; ok {
		return p, nil
	}
	p, err := prove.NewProver(o, w.cfg.Timeout)
	if err != nil {
		return nil, err
	}
	p.SetSkipMissing(true)
	p.SetResourceLimit(w.cfg.ResourceLimit)
	if !w.noBudget {
		p.SetIdentityBudget(identityBudgetFactor * w.cfg.Timeout)
	}
	w.provers[o] = p
	return p, nil
}

// run takes one candidate through the stages.
func (w *genWorker) run(seq int, tp assoc.Tuple) (genOutcome, error) {
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
func (w *genWorker) filter(seq int, tp assoc.Tuple) (o genOutcome, ieee bool) {
	o = genOutcome{seq: seq, tp: tp, leaves: tp.Leaves()}
	rng := rand.New(rand.NewPCG(w.cfg.Seed, uint64(seq)))
	ieee = assoc.RandomAssociative(tp, rng, w.cfg.Samples)
	real := false
	if !ieee && w.cfg.Type.Float() {
		real = assoc.RealRandomAssociative(tp, rng, w.cfg.Samples)
	}
	if !ieee && !real {
		return o, ieee
	}
	o.stage = stageRandom
	if ieee && !assoc.RandomReadsBoth(tp, rng, w.cfg.Samples) || !ieee && !assoc.RealReadsBoth(tp, rng, w.cfg.Samples) {
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

// ProverFunc returns the prover of a semantics (generation keeps one per
// worker and mode).
type ProverFunc func(prove.Options) (*prove.Prover, error)

// ProveEntry proves tp associative and, when it is, synthesizes its
// identity and decides its commutativity (stages 4 to 6 of Generate). For
// floats, ieee says whether tp passed the IEEE random tests: only then is
// an IEEE proof tried before the proof over the reals. The verdict is
// that of the associativity proof: Proved with an entry, or Refuted or
// Unknown without one.
func ProveEntry(tp assoc.Tuple, provers ProverFunc, ieee bool) (*assoc.Entry, prove.Verdict, error) {
	t := tp.Elems[0].Type
	ver, err := prove.Z3Version()
	if err != nil {
		return nil, prove.Unknown, err
	}
	e := &assoc.Entry{Operator: assoc.Operator{Tuple: tp}, Leaves: tp.Leaves()}
	var opts prove.Options
	var v prove.Verdict
	switch {
	case t == assoc.Int32 || t == assoc.Int64:
		// Wrap-around first: associative when wrapping implies
		// associative where nothing overflows.
		v, err = proveAssoc(provers, prove.Options{Wrap: true}, tp)
		if err != nil {
			return nil, prove.Unknown, err
		}
		e.Wraps = v == prove.Proved
		if v != prove.Proved {
			v, err = proveAssoc(provers, opts, tp)
		}
		switch {
		case e.Wraps:
			e.Proof = "z3 " + ver + " bv wrap"
		case opts.IntEncoding(tp.Elems...):
			e.Proof = "z3 " + ver + " int"
		default:
			e.Proof = "z3 " + ver + " bv"
		}
	case t.Float():
		v = prove.Unknown
		if ieee {
			v, err = proveAssoc(provers, opts, tp)
			e.Proof = "z3 " + ver + " fp"
		}
		if err == nil && v != prove.Proved {
			opts = prove.Options{Real: true}
			v, err = proveAssoc(provers, opts, tp)
			e.RealOnly = true
			e.Proof = "z3 " + ver + " real"
		}
	default:
		v, err = proveAssoc(provers, opts, tp)
		e.Wraps = v == prove.Proved
		e.Proof = "z3 " + ver + " bv"
	}
	if err != nil || v != prove.Proved {
		return nil, v, err
	}
	p, err := provers(opts)
	if err != nil {
		return nil, prove.Unknown, err
	}
	rng := rand.New(rand.NewPCG(uint64(e.Leaves), 7))
	if opts.Real || identityPlausible(tp, opts, rng) {
		// An error here leaves the operator without identity: over the
		// reals a witness of identityExists may have no float value
		// (beyond the greatest float).
		id, err := p.Identity(tp, prove.BothSides)
		if err == nil && id.Verdict == prove.Proved {
			e.Identity = id.Identity
		}
	}
	if opts.Real || !assoc.RandomNotCommutative(tp, rng, prescreenPoints) {
		c, err := p.Commutative(tp)
		e.Commutative = err == nil && c.Verdict == prove.Proved // an error (as above): not commutative
	}
	return e, prove.Proved, nil
}

// prescreenPoints is the number of random points of the identity and
// commutativity prescreens.
const prescreenPoints = 200

// identityPlausible reports whether tp may have a two-sided identity that
// Prover.Identity would find: tp reads no k (Z3 may then find an
// identity outside the candidates), or some combination of the
// candidates of prove.IdentityCandidates (a candidate per element) passes
// random tests: f(e, v) = v and f(v, e) = v, both defined, at random v
// and k. When it reports false, the generator records no identity
// without asking Z3; Z3 would have found none either, as its candidates
// are the same.
func identityPlausible(tp assoc.Tuple, opts prove.Options, rng *rand.Rand) bool {
	cands, err := prove.IdentityCandidates(tp, opts)
	if err != nil || cands == nil {
		return true
	}
	n := len(tp.Elems)
	kTypes := tp.ConstTypes()
	k := make([]assoc.Value, len(kTypes))
	v, id, out := make([]assoc.Value, n), make([]assoc.Value, n), make([]assoc.Value, n)
	pick := make([]int, n)
	holds := func() bool {
		for range prescreenPoints {
			for i, t := range kTypes {
				k[i] = assoc.Sample(t, rng)
			}
			for i, e := range tp.Elems {
				v[i] = assoc.Sample(e.Type, rng)
				c, err := assoc.Eval(cands[i][pick[i]], assoc.Env{K: k, Wrap: opts.Wrap})
				if err != nil {
					return false
				}
				id[i] = c
			}
			for _, side := range [][2][]assoc.Value{{id, v}, {v, id}} {
				env := assoc.Env{X: side[0], Y: side[1], K: k, Wrap: opts.Wrap}
				if env.EvalTupleInto(tp, out) != nil {
					return false
				}
				for i, e := range tp.Elems {
					if !assoc.SameValue(out[i], v[i], e.Type) {
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

// proveAssoc proves tp associative. A query that fails once the prover
// runs (over the reals Z3 may answer with an irrational counterexample,
// which has no float value) counts as Unknown: the operator is left out,
// and the run goes on.
func proveAssoc(provers ProverFunc, opts prove.Options, tp assoc.Tuple) (prove.Verdict, error) {
	p, err := provers(opts)
	if err != nil {
		return prove.Unknown, err
	}
	r, err := p.Associative(tp)
	if err != nil {
		return prove.Unknown, nil
	}
	return r.Verdict, nil
}

// GenerateHand proves the primitives ops for type t (those for t: Bool has
// none, the arithmetic of the primitives is no operation on truth values) and
// returns their entries, named, with the operators canonicalized as
// matching expects. A primitive that Z3 does not prove associative is an
// error: the list promises it.
//
// rlimit, when nonzero, bounds each query by Z3's resource count instead
// of the timeout (see GenConfig.ResourceLimit).
func GenerateHand(t assoc.Type, ops []assoc.HandOp, timeout time.Duration, rlimit uint64) ([]assoc.Entry, error) {
	if t == assoc.Bool {
		return nil, nil
	}
	// The primitives are few and their identities matter (a 2×2 int64
	// matrix product's proof with overflow conditions takes seconds):
	// no search budget, and at least handTimeout per query.
	w := newGenWorker(GenConfig{Type: t, Timeout: max(timeout, handTimeout), ResourceLimit: rlimit}, nil)
	w.noBudget = true
	defer w.close()
	var out []assoc.Entry
	for _, h := range ops {
		if !h.For(t) {
			continue
		}
		tp, err := assoc.ParseTuple(h.Src, t)
		if err != nil {
			return nil, fmt.Errorf("assoc: hand primitive %s (line %d): %v", h.Name, h.Line, err)
		}
		tp = assoc.CanonTuple(tp)
		// No random filter: products of int32 matrices overflow on most
		// draws. The IEEE tests only decide whether an IEEE proof is
		// worth trying.
		rng := rand.New(rand.NewPCG(1, uint64(h.Line)))
		ieee := t.Float() && assoc.RandomAssociative(tp, rng, DefaultSamples)
		e, v, err := ProveEntry(tp, w.prover, ieee)
		if err != nil {
			return nil, err
		}
		if v != prove.Proved {
			return nil, fmt.Errorf("assoc: hand primitive %s in %v: associativity %v by z3", h.Name, t, v)
		}
		e.Name = h.Name
		out = append(out, *e)
	}
	return out, nil
}
