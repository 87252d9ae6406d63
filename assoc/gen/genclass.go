package gen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// Classes of candidates (issue 17: the table at scale).
//
// Most elementary candidates of six leaves and more are the same function
// written several ways: x - (k - y) and x + y - k, max(x, y) + k and
// max(x + k, y + k). The enumeration keeps them all (matching needs each
// form a programmer may write), so without grouping Z3 proves the same
// operator again per form. With GenConfig.Classes the generator runs in
// three phases:
//
//  1. Enumeration and the stages before Z3 (random tests, a use of x
//     and y, decomposability), in parallel; each elementary candidate
//     gets a fingerprint: its values on classPoints fixed points (x, y
//     and k drawn once per run from the seed), evaluated with
//     wrap-around, an undefined value marked apart.
//  2. Candidates with one fingerprint form a class; the member with the
//     least enumeration number is its representative, and only the
//     representatives go through Z3 (associativity, identity,
//     commutativity), in parallel.
//  3. Each other member of a class whose representative was proved
//     associative with wrap-around (Entry.Wraps: for int32 and int64 the
//     stronger claim, for the other types the only one) is shown equal
//     to it as a function: by the exact normal forms of nf.go when they
//     meet, which costs no Z3 call, else by one Z3 query of equality in
//     wrap-around arithmetic (Prover.Equal). Equal functions share
//     associativity, identity and commutativity, so the member's entry
//     is the representative's with the member's tree; its proof says how
//     it was shown equal ("eq nf" or "eq z3" after the representative's
//     proof). A member not shown equal, or whose representative Z3 could
//     not decide or proved only without wrap-around, goes through Z3
//     itself, and the first such member Z3 proves with wrap-around stands
//     for the class from then on; after maxUndecided members in a row
//     that Z3 does not decide either, the rest of the class is left out.
//     Members of a class Z3 refuted are dropped without a proof of their
//     own: a fingerprint collision could drop an associative operator
//     (completeness, never soundness).
//
// Phases 2 and 3 run a class at a time (a worker proves the
// representative, then decides the other members), the largest classes
// first, so that an interrupted run has finished classes in its journal,
// as many entries as it could for its Z3 calls, and a run bounded to its
// GenConfig.MaxClasses largest classes (a budget that, being a count,
// keeps the table deterministic) gets the most entries for its time. The outcome of each candidate
// depends only on the candidate, its class (fixed by the enumeration
// order) and Z3, not on the workers' timing. Phase 1 runs again on a
// resumed run; phases 2 and 3 replay the journal, members' entries
// included.

// classPoints is the number of fixed points of a class fingerprint.
const classPoints = 32

// ClassStats counts what grouping by fingerprint did.
type ClassStats struct {
	Classes int // classes of elementary candidates (representatives)
	Members int // elementary candidates that were not a representative
	// ByNF and ByZ3 count the members shown equal to their proved
	// representative by normal forms (no Z3 call) and by one Z3 query.
	ByNF, ByZ3 int
	// WithRefuted counts the members dropped with their refuted
	// representative; Alone those proved (or not) on their own; GaveUp
	// those left out of a class Z3 decided none of the first members of.
	WithRefuted, Alone, GaveUp int
	// CutClasses and Cut count the classes beyond GenConfig.MaxClasses
	// and their candidates (representatives included), left undecided.
	CutClasses, Cut int
}

// Saved returns the candidates that needed no proof of their own: the
// members shown equal by normal forms or dropped with their class (each
// would have cost the Z3 queries of associativity, identity and
// commutativity), and those shown equal by one Z3 query instead.
func (c ClassStats) Saved() (noZ3, oneQuery int) { return c.ByNF + c.WithRefuted + c.GaveUp, c.ByZ3 }

func (c ClassStats) String() string {
	noZ3, one := c.Saved()
	s := fmt.Sprintf("%d classes, %d members: %d equal by normal form, %d equal by one Z3 query, %d dropped with a refuted class, %d proved alone, %d left out of undecided classes (Z3 proofs saved: %d, %d more replaced by an equality query)",
		c.Classes, c.Members, c.ByNF, c.ByZ3, c.WithRefuted, c.Alone, c.GaveUp, noZ3, one)
	if c.CutClasses > 0 {
		s += fmt.Sprintf("; %d smaller classes (%d candidates) left undecided beyond --max-classes", c.CutClasses, c.Cut)
	}
	return s
}

// classCand is an elementary candidate of phase 1.
type classCand struct {
	seq  int
	tp   assoc.Tuple
	ieee bool
}

// classFingerprint returns tp's values at the points as a string key.
func classFingerprint(tp assoc.Tuple, pts []assoc.Env) string {
	n := len(tp.Elems)
	key := make([]byte, 0, len(pts)*n*9)
	out := make([]assoc.Value, n)
	for i := range pts {
		if err := pts[i].EvalTupleInto(tp, out); err != nil {
			key = append(key, 'u')
			continue
		}
		for _, v := range out {
			key = append(key, 'v', byte(v), byte(v>>8), byte(v>>16), byte(v>>24), byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
		}
	}
	return string(key)
}

// classPointsFor draws the fingerprint points of a run.
func classPointsFor(cfg GenConfig) []assoc.Env {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0xc1a55))
	pts := make([]assoc.Env, classPoints)
	for i := range pts {
		x, y := make([]assoc.Value, cfg.TupleSize), make([]assoc.Value, cfg.TupleSize)
		for j := range x {
			x[j], y[j] = assoc.Sample(cfg.Type, rng), assoc.Sample(cfg.Type, rng)
		}
		pts[i] = assoc.Env{X: x, Y: y, K: []assoc.Value{assoc.Sample(cfg.Type, rng)}, Wrap: true}
	}
	return pts
}

// generateClasses is Generate with GenConfig.Classes.
func generateClasses(cfg GenConfig, jr *journal) ([]assoc.Entry, *GenStats, error) {
	start, cpu0 := time.Now(), processCPU()
	stats := &GenStats{Type: cfg.Type, TupleSize: cfg.TupleSize}
	var enumerated, total atomic.Int64
	total.Store(-1)
	prog := newGenProgress(cfg, start, &enumerated, &total)

	// Phase 1.
	pts := classPointsFor(cfg)
	type filtered struct {
		o    genOutcome
		ieee bool
		fp   string
	}
	// Phase 1 runs no Z3: as many workers as CPUs, whatever cfg.Jobs
	// (which bounds the z3 processes of phases 2 and 3).
	filters := max(cfg.Jobs, runtime.NumCPU())
	jobs := make(chan classCand, 64*filters)
	filt := make(chan filtered, 64*filters)
	go func() {
		defer close(jobs)
		seq := 0
		EnumerateOps(cfg.Type, cfg.Ops, cfg.MaxLeaves, cfg.TupleSize, func(tp assoc.Tuple) bool {
			if cfg.MinLeaves <= 2 || tp.Leaves() >= cfg.MinLeaves {
				jobs <- classCand{seq: seq, tp: tp}
				seq++
				enumerated.Add(1)
			}
			return true
		})
		total.Store(enumerated.Load())
	}()
	var wg sync.WaitGroup
	for range filters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newGenWorker(cfg, jr)
			for j := range jobs {
				t0 := time.Now()
				o, ieee := w.filter(j.seq, j.tp)
				f := filtered{o: o, ieee: ieee}
				if o.stage == stageElementary {
					f.fp = classFingerprint(j.tp, pts)
				}
				f.o.time = time.Since(t0)
				filt <- f
			}
		}()
	}
	go func() { wg.Wait(); close(filt) }()
	var cands []classCand
	fps := map[int]string{}
	tick := time.NewTicker(cfg.ProgressEvery)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case f, ok := <-filt:
			if !ok {
				done = true
				break
			}
			if f.o.stage < stageElementary {
				stats.add(f.o)
				prog.add(f.o)
				continue
			}
			// Counted when its Z3 stage (or its class) decides it.
			stats.level(f.o.leaves).Time += f.o.time
			cands = append(cands, classCand{f.o.seq, f.o.tp, f.ieee})
			fps[f.o.seq] = f.fp
		case <-tick.C:
			prog.print(stats)
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "assoc gen classes: phase 1 (enumeration, filters), %d elementary candidates so far\n", len(cands))
			}
		}
	}

	// Phases 2 and 3, a class at a time: its representative, then its
	// other members.
	slices.SortFunc(cands, func(a, b classCand) int { return cmp.Compare(a.seq, b.seq) })
	classOf := map[string]int{}
	var classes [][]classCand
	for _, c := range cands {
		fp := fps[c.seq]
		i, ok := classOf[fp]
		if !ok {
			i = len(classes)
			classOf[fp] = i
			classes = append(classes, nil)
		}
		classes[i] = append(classes[i], c)
	}
	fps, classOf = nil, nil
	// The largest classes first (then in enumeration order): a class's
	// outcome does not depend on when it is decided, so a run that ends
	// gives the same table, and one interrupted has proved more entries
	// per Z3 call, the members of a proved class costing no proof.
	slices.SortStableFunc(classes, func(a, b []classCand) int { return cmp.Compare(len(b), len(a)) })
	prog.byClass = true
	stats.Class.Classes = len(classes)
	stats.Class.Members = len(cands) - len(classes)
	if cfg.MaxClasses > 0 && len(classes) > cfg.MaxClasses {
		// The smaller classes are left undecided: counted as elementary
		// candidates, neither proved, refuted nor unknown.
		for _, c := range classes[cfg.MaxClasses:] {
			for _, m := range c {
				l := stats.level(m.tp.Leaves())
				l.Candidates++
				l.PassedRandom++
				l.ReadsBoth++
				l.NonDecomposable++
			}
			stats.Class.CutClasses++
			stats.Class.Cut += len(c)
		}
		classes = classes[:cfg.MaxClasses]
	}
	decide := len(cands) - stats.Class.Cut // the candidates of the classes kept
	if cfg.Progress != nil {
		fmt.Fprintf(cfg.Progress, "assoc gen classes: %d elementary candidates in %d classes\n", decide, len(classes))
	}
	outs, err := classParallel(cfg, jr, stats, prog, tick, len(classes), decide, func(w *genWorker, i int, emit func(genOutcome)) error {
		rep := classes[i][0]
		ro := genOutcome{seq: rep.seq, tp: rep.tp, leaves: rep.tp.Leaves(), stage: stageElementary}
		t0 := time.Now()
		err := w.prove(&ro, rep.ieee)
		ro.time = time.Since(t0)
		if err != nil {
			return err
		}
		emit(ro)
		undecided := 0 // members Z3 did not decide alone, in a row
		for _, m := range classes[i][1:] {
			o := genOutcome{seq: m.seq, tp: m.tp, leaves: m.tp.Leaves(), stage: stageElementary}
			t0 := time.Now()
			if ro.verdict == prove.Unknown && undecided >= maxUndecided {
				// Z3 decided neither the representative nor the
				// members tried after it: the rest are left out.
				o.verdict, o.unjournaled, o.member = prove.Unknown, true, memberGaveUp
				emit(o)
				continue
			}
			err := w.member(&o, m.ieee, &ro)
			o.time = time.Since(t0)
			if err != nil {
				return err
			}
			emit(o)
			switch {
			case o.member != memberAlone:
			case o.verdict == prove.Unknown:
				undecided++
			case ro.verdict == prove.Unknown || ro.entry != nil && !ro.entry.Wraps && o.entry != nil && o.entry.Wraps:
				// A member Z3 decided stands for the class from now on.
				ro, undecided = o, 0
			}
		}
		return nil
	})
	stats.Wall, stats.CPU = time.Since(start), processCPU()-cpu0
	stats.Queries = cfg.queries.Load()
	prog.print(stats)
	if err != nil {
		return nil, stats, err
	}
	var entries []genResult
	for _, o := range outs {
		if o.entry != nil {
			entries = append(entries, genResult{o.seq, *o.entry})
		}
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

// classParallel runs fn(w, i, emit) for i below n on cfg.Jobs workers,
// each with its own provers; fn emits the outcomes of its candidates,
// cands in all. It returns them all, counts them in stats, journals those
// Z3 decided, and writes progress.
func classParallel(cfg GenConfig, jr *journal, stats *GenStats, prog *genProgress, tick *time.Ticker, n, cands int,
	fn func(w *genWorker, i int, emit func(genOutcome)) error) ([]genOutcome, error) {
	var outs []genOutcome
	idx := make(chan int)
	type result struct {
		o   genOutcome
		err error
		// classDone marks the end of a class; z3 says whether Z3 ran
		// for it (not all replayed from the journal or decided without).
		classDone, z3 bool
	}
	res := make(chan result, 4*cfg.Jobs)
	stop := make(chan struct{})
	go func() {
		defer close(idx)
		for i := range n {
			select {
			case idx <- i:
			case <-stop:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range cfg.Jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newGenWorker(cfg, jr)
			defer w.close()
			for i := range idx {
				ranZ3 := false
				err := fn(w, i, func(o genOutcome) {
					ranZ3 = ranZ3 || !o.replay && o.member != memberNF && o.member != memberWithRefuted && o.member != memberGaveUp
					res <- result{o: o}
				})
				if err != nil {
					res <- result{err: err}
					continue
				}
				res <- result{classDone: true, z3: ranZ3}
			}
		}()
	}
	go func() { wg.Wait(); close(res) }()
	var first error
	fail := func(err error) {
		if first == nil {
			first = err
			close(stop)
		}
	}
	start := time.Now()
	classes, proving := 0, 0 // classes done, and those of them Z3 ran for
	decided, fresh := 0, 0   // candidates decided, and those not replayed
	for done := false; !done; {
		select {
		case r, ok := <-res:
			if !ok {
				done = true
				break
			}
			if r.err != nil {
				fail(r.err)
				continue
			}
			if r.classDone {
				classes++
				if r.z3 {
					proving++
				}
				continue
			}
			outs = append(outs, r.o)
			decided++
			if !r.o.replay {
				fresh++
			}
			stats.add(r.o)
			stats.Class.count(r.o)
			prog.add(r.o)
			if !r.o.replay && !r.o.unjournaled {
				if err := jr.record(r.o); err != nil {
					fail(err)
				}
			}
		case <-tick.C:
			prog.print(stats)
			if cfg.Progress != nil {
				fmt.Fprintf(cfg.Progress, "assoc gen classes: %d/%d classes done (%d without Z3: replayed or refuted), %s; %s\n",
					classes, n, classes-proving, classETA(time.Since(start), proving, n-classes, fresh, cands-decided), stats.Class)
			}
		}
	}
	return outs, first
}

// classETA estimates the time left for left classes (candsLeft
// candidates) from the time elapsed over the proving classes done and
// over the fresh candidates decided (those replayed from a journal take
// next to none). The classes come largest first: the time per class
// falls as the run goes on, and the time per candidate rises (a member
// costs at most one equality query), so the time left lies between
// the two estimates, per candidate and per class.
func classETA(elapsed time.Duration, proving, left, fresh, candsLeft int) string {
	if left == 0 {
		return "ETA 0s"
	}
	if proving == 0 || fresh == 0 {
		return "ETA ?"
	}
	perClass := elapsed / time.Duration(proving)
	lo := elapsed / time.Duration(fresh) * time.Duration(candsLeft)
	hi := perClass * time.Duration(left)
	if lo > hi {
		lo, hi = hi, lo
	}
	return fmt.Sprintf("%.1f s/class, ETA %v to %v", perClass.Seconds(), lo.Round(time.Second), hi.Round(time.Second))
}

// How a member of a class was decided (genOutcome.member).
const (
	memberNone        = iota // not a member: a representative, or no classes
	memberNF                 // shown equal to its representative by normal forms
	memberZ3                 // shown equal by one Z3 query
	memberWithRefuted        // dropped with its refuted representative
	memberAlone              // proved (or not) on its own
	memberGaveUp             // left out: Z3 decided none of the class's first members
)

// maxUndecided is the number of members tried alone after a
// representative Z3 did not decide, before the rest of the class is left
// out.
const maxUndecided = 2

// member decides a member o of the class of the decided representative
// rep (phase 3 above).
func (w *genWorker) member(o *genOutcome, ieee bool, rep *genOutcome) error {
	if rec, ok := w.jr.lookup(o.tp); ok {
		o.verdict, o.entry, o.replay = rec.verdict, rec.entry, true
		switch {
		case rec.entry != nil && strings.HasSuffix(rec.entry.Proof, " eq nf"):
			o.member = memberNF
		case rec.entry != nil && strings.HasSuffix(rec.entry.Proof, " eq z3"):
			o.member = memberZ3
		default:
			o.member = memberAlone
		}
		return nil
	}
	if rep.verdict == prove.Refuted {
		o.verdict = prove.Refuted
		o.unjournaled = true // no Z3 outcome of its own
		o.member = memberWithRefuted
		return nil
	}
	if rep.entry != nil && rep.entry.Wraps {
		how, err := w.sameFunction(rep.tp, o.tp)
		if err != nil {
			return err
		}
		if how != "" {
			e := *rep.entry
			e.Tuple, e.Leaves, e.Name = o.tp, o.leaves, ""
			e.Proof = rep.entry.Proof + " eq " + how
			o.verdict, o.entry = prove.Proved, &e
			o.member = memberNF
			if how == "z3" {
				o.member = memberZ3
			}
			return nil
		}
	}
	o.member = memberAlone
	return w.prove(o, ieee)
}

// count adds a member's outcome to c.
func (c *ClassStats) count(o genOutcome) {
	switch o.member {
	case memberNF:
		c.ByNF++
	case memberZ3:
		c.ByZ3++
	case memberWithRefuted:
		c.WithRefuted++
	case memberAlone:
		c.Alone++
	case memberGaveUp:
		c.GaveUp++
	}
}

// sameFunction shows b equal to a (both tuples of the run's type, b
// elementary, a proved with wrap-around) as functions of x, y and k in
// wrap-around arithmetic: "nf" when their normal forms meet, "z3" when Z3
// proves it, "" when neither does.
func (w *genWorker) sameFunction(a, b assoc.Tuple) (string, error) {
	if len(a.Elems) != len(b.Elems) {
		return "", nil
	}
	nf := true
	for i := range a.Elems {
		nf = nf && assoc.Equivalent(a.Elems[i], b.Elems[i], false)
	}
	if nf {
		return "nf", nil
	}
	p, err := w.prover(prove.Options{Wrap: true})
	if err != nil {
		return "", err
	}
	for i := range a.Elems {
		r, err := p.Equal(a.Elems[i], b.Elems[i])
		if err != nil || r.Verdict != prove.Proved {
			return "", nil // an error once Z3 runs: not shown equal
		}
	}
	return "z3", nil
}
