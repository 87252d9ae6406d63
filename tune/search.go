package tune

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"nestor/pipeline"
)

// Options configures Search.
type Options struct {
	Budget int           // evaluations (default policy included); 0 means 50
	Time   time.Duration // stop starting evaluations after this; 0: no limit
	Seed   int64
	// Order is the decision order: a choice whose name contains Order[i]
	// is decided before those matching only later entries, and the rest
	// after all of them, in the space's order. Nil: DefaultOrder.
	Order []string
	// Prior are records of earlier runs: a candidate they measured (same
	// region, same machine) is not measured again.
	Prior []Record
	// Records receives each new record as a JSON line.
	Records io.Writer
	// File, Machine, Threads are copied into the records.
	File    string
	Machine string
	Threads int
	// Progress, when set, is called after every evaluation.
	Progress func(Progress)
	// Eval measures the candidates (nil: the Searcher's Evaluator);
	// Jobs is how many are measured at once (default 1: timings on one
	// machine stay clean; more where Eval spreads them over workers).
	Eval Evaluate
	Jobs int
	// Random draws candidates uniformly at each decision and prunes
	// nothing: a sample of the space, for checking the bound's soundness
	// and the correctness of arbitrary candidates.
	Random bool
	// Confirm, when positive, measures again after the search, in
	// Confirm interleaved rounds, the default policy and the ConfirmTop
	// fastest other candidates of this run, and takes as the best the
	// one whose runs over all rounds have the least median (see
	// Result.Confirmed). The fastest of many noisy measures is biased
	// low; measures taken side by side, minutes later, are not, and
	// compare the default with the best in the same conditions. It
	// spends Confirm·(ConfirmTop+1) evaluations beyond Budget and Time.
	// A candidate other than the default policy is chosen only when it
	// beats the default clearly: its median by ConfirmMargin, and in
	// more than half of the rounds, and again after Confirm more rounds
	// of the two alone (2·Confirm evaluations more).
	Confirm int
}

// ConfirmTop is how many of a run's fastest candidates besides the
// default policy Options.Confirm measures again.
const ConfirmTop = 3

// ConfirmMargin is the share of the default policy's confirmed time by
// which another candidate must beat it to be chosen. On a machine whose
// speed drifts, a candidate 1% faster in its confirmation was 24% slower
// in a later interleaved comparison (jacobi-2d, seed 3); keeping the
// default unless the difference stands out makes searches with other
// seeds agree.
const ConfirmMargin = 0.03

// DefaultOrder decides the most discriminating choices first (Telamon's
// observation): the loop order and schedule, parallelism, tiling, the
// order of loops in bands, then sizes, register tiles and reductions.
var DefaultOrder = []string{"order", "pack", "fusion", "parallel", ".tile", "<", "wavefront", ".size", "jam", "simd", "unroll", "rfactor"}

// Progress reports a running search.
type Progress struct {
	Evals, Budget int
	Best          time.Duration // zero before the first correct candidate
	Default       time.Duration
	Pruned        int // subtrees cut by the bound
	Expanded      int // subtrees considered
}

// Result is the outcome of Search.
type Result struct {
	Best     *Record // fastest correct candidate (the default policy's when nothing beat it)
	Default  *Record
	Records  []Record // this run's evaluations, in order
	Pruned   int      // subtrees cut because their bound exceeded the best time
	Expanded int      // subtrees created
	DeadEnds int      // decisions whose propagation emptied a domain
	// Violations counts evaluations whose measured time was below the
	// bound of their candidate (a bound that was not sound).
	Violations int
	// PrunedAt[k] and ExpandedAt[k] count the subtrees at depth k + 1
	// (the paper's Table 3: the share of the first levels cut).
	PrunedAt, ExpandedAt []int
	// Confirmed holds the final measures of Options.Confirm, fastest
	// first (the default policy among them); Best is then the first, or
	// the default policy when the first does not beat it clearly (see
	// Options.Confirm), and Fastest the candidate the search's own
	// measures put first.
	Confirmed []Confirmation
	Fastest   *Record
}

// Confirmation is a candidate measured again after the search.
type Confirmation struct {
	Record *Record // its record from the search
	// Time is the median of Times, every run of every round, in
	// seconds; Times are in round order.
	Time  float64
	Times []float64
	// Rounds are the medians of each round's runs, in round order.
	Rounds []float64
}

// node is a node of the search tree: a partial candidate, reached from
// its parent by fixing one choice to one value.
type node struct {
	choice int // the choice its children fix; -1 when the candidate is complete
	vals   []int
	kids   []*node
	bound  float64
	closed bool // evaluated, pruned, a dead end, or every child closed
	depth  int
}

// Searcher runs the search of one region.
type Searcher struct {
	R    *Region
	E    *Evaluator
	M    Machine
	Cost Cost
	opt  Options
	rank []int // per choice, its rank in the decision order
	rng  *rand.Rand
	done map[string]*Record // by code hash
	srcs map[string][]byte  // the code of this run's candidates, by hash, for Options.Confirm
	res  *Result
	best float64 // seconds
	// reference is the machine kind whose times the search compares.
	reference string
}

// NewSearcher prepares a search of r's space, evaluating with e on
// machine m.
func NewSearcher(r *Region, e *Evaluator, m Machine, opt Options) (*Searcher, error) {
	if opt.Budget <= 0 {
		opt.Budget = 50
	}
	if opt.Order == nil {
		opt.Order = DefaultOrder
	}
	p := r.File.Scops[r.Index].Prog
	names := make([]string, len(p.Params))
	for k, q := range p.Params {
		names[k] = q.Name
	}
	params, err := e.params(names)
	if err != nil {
		return nil, err
	}
	cost, err := CostOf(p, params)
	if err != nil {
		return nil, err
	}
	s := &Searcher{R: r, E: e, M: m, Cost: cost, opt: opt, rng: rand.New(rand.NewPCG(uint64(opt.Seed), 0x6e6573746f72)),
		done: map[string]*Record{}, srcs: map[string][]byte{}, res: &Result{}, best: math.Inf(1)}
	s.rank = make([]int, len(r.Space.Choices))
	for c, ch := range r.Space.Choices {
		s.rank[c] = len(opt.Order)
		for k, pat := range opt.Order {
			if strings.Contains(ch.Name, pat) {
				s.rank[c] = k
				break
			}
		}
	}
	for i := range opt.Prior {
		rec := &opt.Prior[i]
		if rec.Region == r.Index && (opt.Machine == "" || rec.Machine == opt.Machine) && rec.Code != "" && !rec.Confirmed {
			s.done[rec.Code] = rec
		}
	}
	return s, nil
}

// next returns the open choice of d to decide next, -1 when d is
// complete.
func (s *Searcher) next(d *Domains) int {
	best := -1
	for c := range s.R.Space.Choices {
		if _, fixed := d.Fixed(c); fixed {
			continue
		}
		if best < 0 || s.rank[c] < s.rank[best] {
			best = c
		}
	}
	return best
}

// Evaluate measures one candidate: Evaluator does it here, a remote
// evaluator on the workers of a queue.
type Evaluate interface {
	Eval(ctx context.Context, name, base string, src []byte) Measure
}

// pending is a candidate drawn and waiting for its measure.
type pending struct {
	rec  *Record
	code []byte
	// failed is why the candidate's code could not be generated: a defect
	// of nestor's, recorded as the evaluation's error (never measured)
	// instead of ending the search.
	failed string
}

// Run searches until the budget of evaluations or time is spent or the
// tree is exhausted, and returns the best candidate found. With Jobs > 1
// it draws that many candidates (distinct code) before measuring them
// together, then takes their measures in the order they were drawn, so a
// run is the same whatever finishes first.
func (s *Searcher) Run(ctx context.Context) (*Result, error) {
	start := time.Now()
	// The default policy first: it is what nestor opt writes, and its
	// time lets the bound prune from the first descent. Its bound is the
	// threads' whenever it may mark parallel loops.
	threads := 1
	if s.R.Opt.Parallel {
		threads = s.M.Threads
	}
	p, err := s.prepare(nil, s.M.bound(s.Cost, threads), true)
	if err != nil {
		return nil, err
	}
	if p != nil {
		if err := s.measure(ctx, []*pending{p}); err != nil {
			return nil, err
		}
	}
	if len(s.res.Records) > 0 {
		s.res.Default = &s.res.Records[0] // the default policy's, measured or recorded before
	}
	d, ok := s.R.Space.NewDomains()
	if !ok {
		return s.finish(), nil
	}
	root := &node{choice: s.next(d), bound: s.R.Bound(d, s.M, s.Cost)}
	mark := d.Mark()
	evals := len(s.res.Records)
	jobs := max(s.opt.Jobs, 1)
	tries := 0
	for evals < s.opt.Budget && !root.closed && tries < 50*s.opt.Budget {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if s.opt.Time > 0 && time.Since(start) > s.opt.Time {
			break
		}
		var batch []*pending
		inBatch := map[string]bool{}
		for len(batch) < min(jobs, s.opt.Budget-evals) && !root.closed && tries < 50*s.opt.Budget {
			tries++
			d.Undo(mark)
			leaf, path := s.descend(root, d)
			if leaf != nil {
				p, err := s.prepare(d, leaf.bound, false)
				if err != nil {
					return nil, err
				}
				leaf.closed = true
				if p != nil && (p.failed != "" || !inBatch[p.rec.Code]) {
					inBatch[p.rec.Code] = true
					batch = append(batch, p)
				}
			}
			for k := len(path) - 1; k >= 0; k-- {
				n := path[k]
				if n.kids != nil && !slices.ContainsFunc(n.kids, func(c *node) bool { return !c.closed }) {
					n.closed = true
				}
			}
		}
		if len(batch) == 0 {
			continue
		}
		if err := s.measure(ctx, batch); err != nil {
			return nil, err
		}
		evals += len(batch)
	}
	if err := s.confirm(ctx); err != nil {
		return nil, err
	}
	return s.finish(), nil
}

// confirm measures the default policy and the ConfirmTop fastest other
// candidates of this run again, in s.opt.Confirm rounds of one
// evaluation each, in turns, and makes the fastest by the median of
// all their runs the best (Options.Confirm). A candidate that fails
// now (it ran before) is left out.
func (s *Searcher) confirm(ctx context.Context) error {
	if s.opt.Confirm <= 0 {
		return nil
	}
	var cands []*Record
	for k := range s.res.Records {
		rc := &s.res.Records[k]
		if rc.Error == "" && rc.Time > 0 && rc.Machine == s.reference && s.srcs[rc.Code] != nil &&
			!slices.ContainsFunc(cands, func(c *Record) bool { return c.Code == rc.Code }) {
			cands = append(cands, rc)
		}
	}
	slices.SortStableFunc(cands, func(a, b *Record) int {
		switch {
		case a.Default != b.Default: // the default policy first, then by time
			if a.Default {
				return -1
			}
			return 1
		case a.Time < b.Time:
			return -1
		case a.Time > b.Time:
			return 1
		}
		return 0
	})
	if len(cands) > 0 && !cands[0].Default {
		cands = cands[:min(len(cands), ConfirmTop)]
	} else {
		cands = cands[:min(len(cands), ConfirmTop+1)]
	}
	if len(cands) < 2 {
		return nil // nothing to compare
	}
	eval := s.opt.Eval
	if eval == nil {
		eval = s.E
	}
	times := make([][]float64, len(cands))
	rounds := make([][]float64, len(cands)) // each round's median
	failed := make([]bool, len(cands))
	// measure runs rounds first, first+1, … of the candidates ks.
	measure := func(first, n int, ks []int) error {
		for round := first; round < first+n; round++ {
			for _, k := range ks {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				rc := cands[k]
				m := eval.Eval(ctx, confirmName(round+1, rc.Code), filepath.Base(s.R.File.Path), s.srcs[rc.Code])
				if m.Err != "" || m.Machine != "" && m.Machine != s.reference {
					failed[k] = true
					continue
				}
				var run []float64
				for _, t := range m.Times {
					run = append(run, t.Seconds())
				}
				times[k] = append(times[k], run...)
				rounds[k] = append(rounds[k], median(run))
			}
		}
		return nil
	}
	confirmed := func() []Confirmation {
		var conf []Confirmation
		for k, rc := range cands {
			if !failed[k] && len(times[k]) > 0 {
				conf = append(conf, Confirmation{Record: rc, Time: median(times[k]), Times: times[k], Rounds: rounds[k]})
			}
		}
		slices.SortStableFunc(conf, func(a, b Confirmation) int { return cmp.Compare(a.Time, b.Time) })
		return conf
	}
	all := make([]int, len(cands))
	for k := range all {
		all[k] = k
	}
	if err := measure(0, s.opt.Confirm, all); err != nil {
		return err
	}
	conf := confirmed()
	if len(conf) == 0 {
		s.res.Confirmed = nil
		return nil
	}
	chosen := conf[0].Record
	if def := slices.IndexFunc(conf, func(c Confirmation) bool { return c.Record.Default }); def > 0 {
		// A candidate that beats the default clearly in these rounds
		// meets it again, the two alone, in as many more rounds, and is
		// chosen only if it still beats it clearly over all of them: of
		// four or five noisy measures, the fastest is often lucky (atax
		// LARGE at 2 threads: 1.30x faster in 3 rounds, 1.01x in 7 more).
		if clearlyFaster(conf[0], conf[def]) {
			w, d := slices.Index(cands, conf[0].Record), slices.Index(cands, conf[def].Record)
			if err := measure(s.opt.Confirm, s.opt.Confirm, []int{w, d}); err != nil {
				return err
			}
			conf = confirmed()
			wc := slices.IndexFunc(conf, func(c Confirmation) bool { return c.Record == cands[w] })
			dc := slices.IndexFunc(conf, func(c Confirmation) bool { return c.Record == cands[d] })
			switch {
			case wc < 0: // the winner failed now
				chosen = cands[d]
			case dc >= 0 && !clearlyFaster(conf[wc], conf[dc]):
				chosen = cands[d]
			default:
				chosen = cands[w]
			}
		} else {
			chosen = conf[def].Record
		}
	}
	s.res.Confirmed = conf
	if s.opt.Records != nil {
		for _, c := range s.res.Confirmed {
			rec := *c.Record
			rec.Confirmed, rec.Time, rec.Times, rec.Eval, rec.Chosen = true, c.Time, c.Times, 0, c.Record == chosen
			line, _ := json.Marshal(rec)
			if _, err := s.opt.Records.Write(append(line, '\n')); err != nil {
				return err
			}
		}
	}
	s.res.Fastest, s.res.Best = s.res.Best, chosen
	return nil
}

// clearlyFaster reports whether confirmed candidate c beats the default
// policy's measures d: its median at least ConfirmMargin below d's, and
// faster in more than half of the rounds both ran.
func clearlyFaster(c, d Confirmation) bool {
	if c.Time > d.Time*(1-ConfirmMargin) {
		return false
	}
	wins, n := 0, min(len(c.Rounds), len(d.Rounds))
	for r := range n {
		if c.Rounds[r] < d.Rounds[r] {
			wins++
		}
	}
	return 2*wins > n
}

// median returns the median of xs (the upper one of an even count), 0
// for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// confirmName names round's measure of the candidate of hash code.
func confirmName(round int, code string) string { return fmt.Sprintf("confirm%d-%s", round, code) }

// TaskKey names an evaluation (Evaluate's name and code) for a work
// queue that drops a task it has seen: a search's evaluation by its code
// alone, so that a resumed run that draws the same candidate meets its
// task again, and a round of Options.Confirm by its name, since each
// round measures the candidate anew.
func TaskKey(name string, src []byte) string {
	if strings.HasPrefix(name, "confirm") {
		return name
	}
	return HashCode(src)
}

// ConfirmedTime returns the final measure of rc (Options.Confirm), and
// whether it has one.
func (r *Result) ConfirmedTime(rc *Record) (float64, bool) {
	for _, c := range r.Confirmed {
		if c.Record == rc || rc != nil && c.Record.Code == rc.Code {
			return c.Time, true
		}
	}
	return 0, false
}

// descend walks from root to a complete candidate not yet evaluated,
// fixing each choice on the way in d; it returns nil when the nodes met
// were all closed (then closed is propagated by the caller along path).
func (s *Searcher) descend(root *node, d *Domains) (*node, []*node) {
	path := []*node{root}
	n := root
	for n.choice >= 0 {
		if n.kids == nil {
			s.expand(n, d)
		}
		k := s.pick(n)
		if k < 0 {
			n.closed = true
			return nil, path
		}
		if !d.Restrict(n.choice, 1<<n.vals[k]) {
			n.kids[k].closed = true // cannot happen: expand propagated it
			return nil, path
		}
		n = n.kids[k]
		path = append(path, n)
	}
	if n.closed {
		return nil, path
	}
	return n, path
}

// expand creates n's children: one per value of its choice, each
// propagated; a dead end is closed at once.
func (s *Searcher) expand(n *node, d *Domains) {
	dom := d.Dom(n.choice)
	for dom != 0 {
		v := bits.TrailingZeros64(dom)
		dom &^= 1 << v
		kid := &node{depth: n.depth + 1}
		m := d.Mark()
		if d.Restrict(n.choice, 1<<v) {
			kid.bound = s.R.Bound(d, s.M, s.Cost)
			kid.choice = s.next(d)
		} else {
			kid.closed = true
			s.res.DeadEnds++
		}
		d.Undo(m)
		n.vals = append(n.vals, v)
		n.kids = append(n.kids, kid)
		s.res.Expanded++
		for len(s.res.ExpandedAt) < kid.depth {
			s.res.ExpandedAt = append(s.res.ExpandedAt, 0)
			s.res.PrunedAt = append(s.res.PrunedAt, 0)
		}
		s.res.ExpandedAt[kid.depth-1]++
	}
}

// pick returns the child of n to descend into, -1 when none is left. A
// child whose bound is no better than the best time is cut; among the
// others, one is drawn with probability proportional to how much better
// than the best time its bound is (uniformly before any time is known).
func (s *Searcher) pick(n *node) int {
	var open []int
	var weights []float64
	total := 0.0
	for k, kid := range n.kids {
		if kid.closed {
			continue
		}
		if kid.bound >= s.best && !s.opt.Random {
			kid.closed = true
			s.res.Pruned++
			s.res.PrunedAt[kid.depth-1]++
			continue
		}
		w := 1.0
		if !math.IsInf(s.best, 1) && !s.opt.Random {
			w = s.best - kid.bound
		}
		open = append(open, k)
		weights = append(weights, w)
		total += w
	}
	if len(open) == 0 {
		return -1
	}
	x := s.rng.Float64() * total
	for i, w := range weights {
		if x < w {
			return open[i]
		}
		x -= w
	}
	return open[len(open)-1]
}

// prepare generates the candidate d (the default policy when def is
// set) and returns it to be measured, or nil when its code was measured
// before (in this run or a prior one): no evaluation is spent on it. The
// default policy's code measured before is taken as it was.
func (s *Searcher) prepare(d *Domains, bound float64, def bool) (*pending, error) {
	opt := s.R.Opt
	opt.Notes = nil
	rec := &Record{File: s.opt.File, Region: s.R.Index, Machine: s.opt.Machine, Threads: s.opt.Threads, Seed: s.opt.Seed, Default: def, Bound: bound,
		Pruned: s.res.Pruned, Expanded: s.res.Expanded}
	if d != nil {
		opt.Decide = make([]pipeline.Decisions, max(s.R.Index+1, len(opt.Decide)))
		copy(opt.Decide, s.R.Opt.Decide)
		opt.Decide[s.R.Index] = s.R.Decisions(d)
		rec.Decisions = d.Assignment()
	}
	code, err := pipeline.Optimize(s.R.File, opt)
	if err != nil {
		if def {
			return nil, fmt.Errorf("tune: generating the default policy's code: %w", err)
		}
		return &pending{rec: rec, failed: "generating: " + firstLine(err.Error())}, nil
	}
	rec.Code = HashCode(code)
	if def && s.opt.Confirm > 0 {
		s.srcs[rec.Code] = code // measured again even when a prior run measured it
	}
	if prev, ok := s.done[rec.Code]; ok {
		if def {
			cp := *prev
			cp.Default, cp.Decisions = true, nil
			s.res.Records = append(s.res.Records, cp)
			s.note(&s.res.Records[len(s.res.Records)-1])
		}
		return nil, nil
	}
	return &pending{rec: rec, code: code}, nil
}

// measure evaluates the batch at once and records the outcomes in order.
func (s *Searcher) measure(ctx context.Context, batch []*pending) error {
	eval := s.opt.Eval
	if eval == nil {
		eval = s.E
	}
	ms := make([]Measure, len(batch))
	var wg sync.WaitGroup
	for i, p := range batch {
		p.rec.Eval = len(s.res.Records) + i + 1
		if p.failed != "" {
			ms[i] = Measure{Err: p.failed}
			continue
		}
		wg.Go(func() {
			ms[i] = eval.Eval(ctx, fmt.Sprintf("c%04d-%s", p.rec.Eval, p.rec.Code), filepath.Base(s.R.File.Path), p.code)
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	for i, p := range batch {
		rec, m := p.rec, ms[i]
		rec.Error, rec.Wrong = m.Err, m.Wrong
		if m.Machine != "" {
			rec.Machine = m.Machine
		}
		if s.reference == "" && m.Err == "" && m.Desc != nil && m.Machine != "" && m.Machine != s.M.Fingerprint {
			// The times compared will be this machine's: so is the bound
			// (the candidates already drawn keep theirs).
			threads := s.M.Threads
			s.M = MachineOf(*m.Desc, threads)
			s.M.Fingerprint = m.Machine
		}
		if m.Err == "" {
			rec.Time = m.Time.Seconds()
			for _, t := range m.Times {
				rec.Times = append(rec.Times, t.Seconds())
			}
			if rec.Time < rec.Bound {
				s.res.Violations++
			}
		}
		if p.failed == "" {
			s.done[rec.Code] = rec
		}
		if s.opt.Confirm > 0 && m.Err == "" {
			s.srcs[rec.Code] = p.code
		}
		s.res.Records = append(s.res.Records, *rec)
		if s.opt.Records != nil {
			line, _ := json.Marshal(rec)
			if _, err := s.opt.Records.Write(append(line, '\n')); err != nil {
				return err
			}
		}
		s.note(&s.res.Records[len(s.res.Records)-1])
	}
	return nil
}

// note updates the best time with rec and reports progress.
func (s *Searcher) note(rec *Record) {
	// Times compare only between measures of one kind of machine: the
	// kind of the first measure (the default policy's, normally).
	if rec.Error == "" && rec.Time > 0 && s.reference == "" {
		s.reference = rec.Machine
	}
	if rec.Error == "" && rec.Time > 0 && rec.Machine == s.reference && rec.Time < s.best {
		s.best = rec.Time
		s.res.Best = rec
	}
	if s.opt.Progress != nil {
		p := Progress{Evals: len(s.res.Records), Budget: s.opt.Budget, Pruned: s.res.Pruned, Expanded: s.res.Expanded}
		if s.res.Best != nil {
			p.Best = time.Duration(s.res.Best.Time * 1e9)
		}
		if s.res.Default != nil {
			p.Default = time.Duration(s.res.Default.Time * 1e9)
		}
		s.opt.Progress(p)
	}
}

func (s *Searcher) finish() *Result {
	if s.res.Best == nil {
		s.res.Best = s.res.Default
	}
	if s.res.Fastest == nil {
		s.res.Fastest = s.res.Best
	}
	return s.res
}

// Apply returns the decisions of record rec for r: each recorded choice
// fixed to its value (the default policy's record: none). The error says
// when the record does not fit r's space (another version of the file or
// of nestor).
func (r *Region) Apply(rec *Record) (pipeline.Decisions, error) {
	if rec.Default {
		return pipeline.Decisions{}, nil
	}
	d, ok := r.Space.NewDomains()
	if !ok {
		return pipeline.Decisions{}, fmt.Errorf("tune: region %d has no candidate", r.Index)
	}
	for name, v := range rec.Decisions {
		c := r.Space.lookup(name)
		if c < 0 || r.Space.set(c, v) == 0 {
			return pipeline.Decisions{}, fmt.Errorf("tune: the record's choice %s=%s is not in the region's space", name, v)
		}
		if !d.Restrict(c, r.Space.set(c, v)) {
			return pipeline.Decisions{}, fmt.Errorf("tune: the record's decisions contradict the region's constraints at %s=%s", name, v)
		}
	}
	return r.Decisions(d), nil
}

// Estimate samples n random descents of r's space (decisions in order,
// values uniformly, with propagation) and returns Knuth's estimate of the
// number of complete candidates (the mean of the products of the
// branching factors met) and the share of descents that met a dead end
// (Chen's heuristic sampling refines the same estimator).
func (r *Region) Estimate(n int, seed int64) (size float64, deadRatio float64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 1))
	d, ok := r.Space.NewDomains()
	if !ok {
		return 0, 1
	}
	mark := d.Mark()
	dead := 0
	for range n {
		d.Undo(mark)
		prod := 1.0
		for {
			c := -1
			for k := range r.Space.Choices {
				if _, fixed := d.Fixed(k); !fixed {
					c = k
					break
				}
			}
			if c < 0 {
				break
			}
			dom := d.Dom(c)
			k := bits.OnesCount64(dom)
			prod *= float64(k)
			pick := rng.IntN(k)
			v := 0
			for x := dom; ; x &= x - 1 {
				if pick == 0 {
					v = bits.TrailingZeros64(x)
					break
				}
				pick--
			}
			if !d.Restrict(c, 1<<v) {
				dead++
				prod = 0
				break
			}
		}
		size += prod / float64(n)
	}
	return size, float64(dead) / float64(n)
}

// HashCode names generated code in records: equal code is measured once.
func HashCode(code []byte) string {
	sum := sha256.Sum256(code)
	return hex.EncodeToString(sum[:8])
}
