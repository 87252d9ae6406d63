package outline

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options configure Outline.
type Options struct {
	Objective Objective
	// Exact chooses each instance set by exact maximum-clique search
	// (exactChoice) instead of the greedy choice (greedyChoice).
	Exact bool
	// MinSize is the least number of operations k of an outlined
	// pattern; 0 means 3 under Nodes and 2 under Area. (Sharing single
	// operations is what XLS's mutual exclusion pass already does; under
	// Nodes, patterns of one or two nodes save little and many of them
	// crowd out larger ones.)
	MinSize int
	// MaxFuncs stops the pass after that many outlined functions; 0
	// means no limit.
	MaxFuncs int
	// Budget stops the pass, with what it has outlined so far (a valid
	// function: every step leaves one), once Report.Work exceeds it; 0
	// means no limit. Work is counted, not timed, so a budget gives the
	// same result on every machine.
	Budget int64
	// Progress, when set, receives a line per iteration: the function's
	// size and cost, the functions outlined and the work done.
	Progress io.Writer
	// trace, when set (tests), is told of every instance outlined: the
	// function invoked, the invoke and the nodes it replaced.
	trace func(name string, inv *Node, nodes []*Node)
}

func (o Options) minSize() int {
	switch {
	case o.MinSize > 0:
		return o.MinSize
	case o.Objective == Area:
		return 2
	}
	return 3
}

// A Report says what Outline did.
type Report struct {
	Func      string
	Objective Objective
	Funcs     []Outlined // in the order created
	// CostBefore and CostAfter are Cost of the package under the
	// objective; CostBefore - CostAfter is at least the sum of Saved.
	CostBefore, CostAfter int64
	Iterations            int
	Pairs                 int64 // pairwise table entries computed, all iterations
	Verified              int   // candidate sets anti-unified to check the estimate
	// Exact is set when Options.Exact was and every choice was proven
	// optimal under the clique model within maxBKCalls.
	Exact bool
	Time  time.Duration
	// ConeFuncs counts the functions whose instance set the cone miner
	// found (cones.go) rather than the pairwise table.
	ConeFuncs int
	// TableSkipped is set when the pairwise table was not built, or
	// given up, because its groups of equal keys held more than
	// maxTablePairs pairs; the cone miner alone chose.
	TableSkipped bool
	// Work counts units of work: per iteration the nodes analysed, the
	// table's pair entries computed, and the nodes the cone miner hashed
	// and visited.
	Work int64
	// Stopped is set when Options.Budget stopped the pass early.
	Stopped bool
	// Diminished is set when, in a function too large for the table, a
	// batch saved less than 1/minBatchGain of the cost and the pass
	// stopped there (each further pass over the function would gain less).
	Diminished bool
}

// minBatchGain: where only the cone miner runs (large functions), the
// pass goes on only while a batch saves at least 1/minBatchGain of the
// package's cost, so that it makes few passes over the function.
const minBatchGain = 512

// maxTablePairs bounds the pairs of nodes with equal keys for which the
// pass builds the pairwise table: it takes time and memory in proportion
// to them (a 10,000-node function of eight operations has about 6
// million). Above it only the cone miner, linear in the function, looks
// for instance sets.
const maxTablePairs = 1 << 21

// pairs counts the pairs of nodes with one match key.
func (a *analysis) pairs() int64 {
	count := map[int32]int64{}
	var total int64
	for _, k := range a.key {
		if k >= 0 {
			total += count[k]
			count[k]++
		}
	}
	return total
}

// Outlined describes one function the pass created.
type Outlined struct {
	Name      string
	Pattern   string // in the notation of Pattern.String
	Instances int    // n
	Size      int    // k, operations of the pattern
	Area      int64  // the pattern's area (areaOf)
	Params    int
	MuxBits   int64 // width of the parameters whose arguments differ between instances
	Saved     int64 // (n-1)·k under Nodes, (n-1)·(Area-MuxBits) under Area
	// Reused is set when a function outlined before (in this function or
	// another of the package) has the same body: its instances invoke
	// that one, and no function is added.
	Reused bool
}

// maxCandidates is how many candidate sets per block the choice keeps for
// verification, and maxVerify how many the pass anti-unifies per
// iteration before it settles for the best verified one.
const (
	maxCandidates = 4
	maxVerify     = 64
)

// outlinedPrefix names the functions Outline creates: outlined_0,
// outlined_1, ... (the first names the package does not use). Inline
// removes such functions once nothing invokes them.
const outlinedPrefix = "outlined_"

// Outline repeatedly finds the instance set of function fn of p that
// saves the most under opt.Objective, replaces each instance by an invoke
// of a new function holding the pattern (added to p), and stops when no
// set saves anything; patterns of fewer than opt.MinSize operations are
// not considered. Each step lowers Cost(p, opt.Objective) by at least its
// Saved amount, which is positive, so the pass terminates; running it
// again on its result changes nothing.
//
// Once no single-output pattern pays, it bundles sibling outputs into
// tuples and looks for multi-output patterns (bundle.go); the bundles
// not outlined are removed before it returns.
//
// It first canonicalizes fn (Canonicalize) and keeps it canonical. Only
// fn is searched, not the functions it creates: a pattern that repeats
// inside an outlined body repeats in each of its instances too, and
// would have been chosen first if it saved more. Under Nodes, later
// patterns may contain invokes of earlier ones, so outlined functions
// nest.
func Outline(p *Package, fn string, opt Options) (*Report, error) {
	start := time.Now()
	f := p.Func(fn)
	if f == nil {
		return nil, fmt.Errorf("outline: no function %s", fn)
	}
	if err := f.Check(); err != nil {
		return nil, err
	}
	obj := opt.Objective
	rep := &Report{Func: fn, Objective: obj, CostBefore: Cost(p, obj), Exact: opt.Exact}
	if f.Foreign() {
		// The body of a foreign function models an external module; it
		// is kept as written.
		rep.CostAfter = rep.CostBefore
		rep.Time = time.Since(start)
		return rep, nil
	}
	// Rounds: each starts afresh (keys, table) on the function the last
	// one left, until one outlines nothing, so that running the pass
	// again on its result changes nothing (a round's incremental state
	// can miss what a fresh one finds).
	for {
		before := len(rep.Funcs)
		if err := outlineRound(p, f, opt, rep); err != nil {
			return nil, err
		}
		if len(rep.Funcs) == before || rep.Stopped || rep.Diminished || rep.TableSkipped ||
			opt.MaxFuncs > 0 && len(rep.Funcs) >= opt.MaxFuncs {
			break
		}
	}
	rep.CostAfter = Cost(p, obj)
	rep.Time = time.Since(start)
	return rep, nil
}

// outlineRound is one round of Outline on f, adding to rep.
func outlineRound(p *Package, f *Function, opt Options, rep *Report) error {
	obj := opt.Objective
	keys := newKeyTable()
	keys.fixed = fixedCallees(p)
	// Under Nodes a set whose pattern is the body of a function outlined
	// before invokes that one (it saves the body as well). Under Area
	// too, but more calls of one function need more multiplexers: the
	// choice prices such a set as a reuse (reuser, set per iteration)
	// and areaReuse gives apply the bodies to reuse.
	var bodies map[string]string
	if obj == Nodes {
		bodies = outlinedBodies(p)
	}
	seeds := canonicalize(f)
	var tbl *table
	var tablePairs int64 // tbl.total when last counted
	useTable := true     // until the pairs of a group of equal keys are too many
	var bs *bundles      // f's bundles, while it has them
	bundledAt := 0       // len(rep.Funcs) when they were added
	for opt.MaxFuncs == 0 || len(rep.Funcs) < opt.MaxFuncs {
		if opt.Budget > 0 && rep.Work > opt.Budget {
			rep.Stopped = true
			break
		}
		if opt.Progress != nil {
			fmt.Fprintf(opt.Progress, "outline: %s: iteration %d: %d nodes, cost %d, %d functions outlined, work %d\n",
				f.Name, rep.Iterations+1, len(f.Nodes), Cost(p, obj), len(rep.Funcs), rep.Work)
		}
		rep.Iterations++
		rep.Work += int64(len(f.Nodes))
		a := analyze(f, obj, keys, bs)
		if obj == Area {
			a.reuse = newReuser(p)
		}
		var m *Match
		if useTable = useTable && a.pairs() <= maxTablePairs; useTable {
			if tbl == nil {
				tbl = buildTable(a, nil, nil)
			} else {
				tbl = buildTable(a, tbl, affected(a, seeds))
			}
			rep.Work += tbl.total - tablePairs
			rep.Pairs += tbl.total - tablePairs
			tablePairs = tbl.total
			var proven bool
			var err error
			m, proven, err = choose(tbl, opt, rep)
			if err != nil {
				return err
			}
			rep.Exact = rep.Exact && proven
		} else {
			rep.Exact = false
		}
		var best int64
		if m != nil {
			best = a.saving(m)
		}
		batch := []*Match{m}
		if mc := a.coneChoice(opt, best, rep, &rep.Work, !useTable); len(mc) > 0 {
			for _, x := range mc {
				if err := checkMatch(a, x); err != nil {
					return err
				}
			}
			m, batch = mc[0], mc
			rep.ConeFuncs += len(mc)
		}
		var saved []int64 // under Area, the saving of each set of batch
		if obj == Area && m != nil {
			batch, saved, bodies = areaReuse(a.reuse, batch)
			if len(batch) == 0 {
				m = nil
			} else {
				m = batch[0]
			}
		}
		if m == nil {
			if bs == nil {
				// Single-output patterns no longer pay: bundle
				// (bundle.go) and look for multi-output ones.
				if bs, seeds = bundle(p, f, a); bs == nil {
					break
				}
				if err := f.Check(); err != nil {
					return fmt.Errorf("outline: internal error: after bundling: %v", err)
				}
				bundledAt = len(rep.Funcs)
				tbl, tablePairs = nil, 0 // as after unbundling (below)
				continue
			}
			seeds = unbundle(f, bs)
			bs = nil
			if err := f.Check(); err != nil {
				return fmt.Errorf("outline: internal error: after unbundling: %v", err)
			}
			if len(rep.Funcs) == bundledAt {
				canonicalize(f) // as a second run would find it
				break           // f is back where nothing paid
			}
			// Outlined bundles may make single-output patterns pay. The
			// table starts afresh: unbundling changed cones that the
			// seeds do not all reach (a second run found patterns the
			// incremental table missed).
			seeds = append(seeds, canonicalize(f)...)
			tbl, tablePairs = nil, 0
			continue
		}
		// The sets of a batch are disjoint (coneChoice).
		names, reused, invs, err := apply(p, f, batch, bodies)
		if err != nil {
			return err
		}
		var invokes []*Node
		for i, m := range batch {
			if opt.trace != nil {
				for j, in := range m.Instances {
					opt.trace(names[i], invs[i][j], in.Nodes)
				}
			}
			invokes = append(invokes, invs[i]...)
			rep.Funcs = append(rep.Funcs, Outlined{
				Name: names[i], Pattern: m.Pattern.String(), Instances: len(m.Instances), Size: m.Size,
				Area: m.Area, Params: len(m.Pattern.Params), MuxBits: m.MuxBits, Saved: m.Saved(obj),
				Reused: reused[i],
			})
			if saved != nil {
				rep.Funcs[len(rep.Funcs)-1].Saved = saved[i]
			}
		}
		seeds = append(canonicalize(f), invokes...)
		if !useTable {
			// Large functions: a batch that saves too little of the cost
			// for another pass over the function ends the pass.
			var total int64
			for i := range batch {
				total += rep.Funcs[len(rep.Funcs)-len(batch)+i].Saved
			}
			if total*minBatchGain < Cost(p, obj) {
				rep.Diminished = true
				break
			}
		}
	}
	if bs != nil { // stopped by MaxFuncs
		unbundle(f, bs)
		canonicalize(f)
	}
	rep.TableSkipped = rep.TableSkipped || !useTable
	return nil
}

// affected marks the nodes of a whose table rows must be recomputed: the
// seeds (new invokes, reordered nodes) and their post-dominator
// ancestors, whose cones contain them.
func affected(a *analysis, seeds []*Node) []bool {
	aff := make([]bool, len(a.nodes))
	for _, s := range seeds {
		i, ok := a.index[s]
		if !ok {
			continue
		}
		for x := i; x != sink && !aff[x]; x = a.ipdom[x] {
			aff[x] = true
		}
	}
	return aff
}

// choose returns the best verified instance set of the table's function,
// or nil when none saves anything, and whether every block's candidates
// come from a finished exact search (true when opt.Exact is not set).
//
// Candidates are verified in decreasing order of their estimated saving,
// by anti-unifying the whole set (AntiunifySet's algorithm), and the
// search stops at the first estimate that cannot beat the best verified
// saving: the set's anti-unifier is contained in the pair anti-unifier
// of its first root with each other root, so (n-1)·(min weight) bounds
// it (exactly for the pairs with the first root; the minimum over all
// pairs is a close heuristic bound).
func choose(t *table, opt Options, rep *Report) (*Match, bool, error) {
	minK := opt.minSize()
	thresh := int64(minK)
	if opt.Objective == Area {
		thresh = 1
	}
	type cand struct {
		b  *block
		cl clique
	}
	var cands []cand
	proven := true
	for _, b := range t.blocks {
		if b.dirty || b.cands == nil {
			b.cands, b.proven = blockChoice(t, b, thresh, opt.Exact)
			b.dirty = false
		}
		proven = proven && b.proven
		for _, cl := range b.cands {
			cands = append(cands, cand{b, cl})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return cmp64(y.cl.score, x.cl.score) })
	var best *Match
	var bestScore int64
	a := t.a
	for i, c := range cands {
		if i >= maxVerify || c.cl.score <= bestScore {
			break
		}
		roots := make([]int32, len(c.cl.nodes))
		for j, s := range c.cl.nodes {
			roots[j] = c.b.idx[s]
		}
		m, err := a.extract(roots, t, t.st)
		if err != nil {
			return nil, false, fmt.Errorf("outline: internal error: %v", err)
		}
		if err := checkMatch(a, m); err != nil {
			return nil, false, err
		}
		rep.Verified++
		if s := a.saving(m); m.Size >= minK && s > bestScore {
			best, bestScore = m, s
		}
	}
	return best, proven, nil
}

// blockChoice builds the choice graph of block b (edges of weight ≥
// thresh between live members) and returns its best candidates.
func blockChoice(t *table, b *block, thresh int64, exact bool) ([]clique, bool) {
	g := b.g()
	var edges []wedge
	if b.flat {
		// Every pair matches at the root alone: weight at most the
		// heaviest member's.
		var top int64
		for i, x := range b.idx {
			if !b.dead[i] {
				top = max(top, int64(t.a.w[x]))
			}
		}
		if top < thresh {
			return []clique{}, true
		}
		for i := range g {
			for j := range i {
				if !b.dead[i] && !b.dead[j] {
					if w := t.edge(b, i, j); w >= thresh {
						edges = append(edges, wedge{int32(i), int32(j), w})
					}
				}
			}
		}
	} else {
		// Two passes over the triangle: count, then fill.
		weight := func(k int) int64 {
			v := int64(b.ca[k])
			if t.area {
				v -= int64(b.camux[k])
			}
			return v
		}
		count, live := 0, 0
		lo, hi := int64(1<<62), int64(0)
		for i := range g {
			if b.dead[i] {
				continue
			}
			live++
			row := i * (i - 1) / 2
			for j := range i {
				if w := weight(row + j); !b.dead[j] && w >= thresh {
					count++
					lo, hi = min(lo, w), max(hi, w)
				}
			}
		}
		if count > 0 && count == live*(live-1)/2 && lo == hi {
			// A clique of equal weights (rotations, say): the whole block
			// is the only candidate.
			var ns []int32
			for i := range g {
				if !b.dead[i] {
					ns = append(ns, int32(i))
				}
			}
			return []clique{{ns, lo, int64(live-1) * lo}}, true
		}
		edges = make([]wedge, 0, count)
		for i := 1; i < g; i++ {
			if b.dead[i] {
				continue
			}
			row := i * (i - 1) / 2
			for j := range i {
				if w := weight(row + j); !b.dead[j] && w >= thresh {
					edges = append(edges, wedge{int32(i), int32(j), w})
				}
			}
		}
	}
	if len(edges) == 0 {
		return []clique{}, true
	}
	w := func(i, j int32) int64 {
		if w := t.edge(b, int(i), int(j)); w >= thresh {
			return w
		}
		return 0
	}
	var cs []clique
	proven := false
	if exact {
		cs, proven = exactChoice(g, edges, w)
	} else {
		cs = greedyChoice(g, edges, w)
	}
	if len(cs) > maxCandidates {
		cs = cs[:maxCandidates]
	}
	return cs, proven || !exact
}

// checkMatch verifies what outlining m relies on, invariants of
// AntiunifySet whose violation is our bug: no node is in two instances,
// and no node of an instance other than its root is used outside it or
// is an argument of it.
func checkMatch(a *analysis, m *Match) error {
	seen := map[*Node]int{}
	for i, in := range m.Instances {
		for _, x := range in.Nodes {
			if j, ok := seen[x]; ok {
				return fmt.Errorf("outline: internal error: node %s in instances %d and %d of %s", x.RefName(), j, i, m.Pattern)
			}
			seen[x] = i
		}
	}
	for i, in := range m.Instances {
		for _, x := range in.Nodes {
			if x == in.Root {
				continue
			}
			if slices.Contains(in.Args, x) {
				return fmt.Errorf("outline: internal error: node %s of instance %d of %s is also an argument", x.RefName(), i, m.Pattern)
			}
			for _, u := range a.users(a.index[x]) {
				if j, ok := seen[a.nodes[u]]; !ok || j != i {
					return fmt.Errorf("outline: internal error: node %s of instance %d of %s is used by %s outside it", x.RefName(), i, m.Pattern, a.nodes[u].RefName())
				}
			}
		}
	}
	return nil
}

// freshName returns the first name outlined_N, N >= *from, that p does
// not define, and moves *from past it.
func freshName(p *Package, from *int) string {
	for ; ; *from++ {
		if name := fmt.Sprintf("%s%d", outlinedPrefix, *from); !p.Defines(name) {
			*from++
			return name
		}
	}
}

// maxID is the largest node ID in p, opaque parts included.
func maxID(p *Package) int {
	m := 0
	for _, o := range p.Opaque {
		m = max(m, o.MaxID)
	}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			m = max(m, n.ID)
		}
	}
	return m
}

// apply outlines the instance sets ms (disjoint) in f: for each, it adds
// a function with the pattern's parameters and nodes to p (or, when
// bodies holds a function Outline created with the same body, uses that
// one), puts an invoke of it in place of each instance's root, and
// removes the instances' other nodes and the literals only they used.
// An argument that is the root of an instance of another set becomes
// that instance's invoke. It returns, per set, the function's name,
// whether it was reused, and the invokes, one per instance. It walks f
// once for all the sets.
func apply(p *Package, f *Function, ms []*Match, bodies map[string]string) ([]string, []bool, [][]*Node, error) {
	id := maxID(p)
	next := func() int { id++; return id }
	names := make([]string, len(ms))
	reused := make([]bool, len(ms))
	from := 0
	invokes := make([][]*Node, len(ms))
	replace := map[*Node]*Node{}
	remove := map[*Node]bool{}
	for mi, m := range ms {
		g, err := patternFunc(m, freshName(p, &from), next)
		if err != nil {
			return nil, nil, nil, err
		}
		name := g.Name
		sig := bodyText(g)
		if prev, ok := bodies[sig]; ok && bodies != nil {
			name, reused[mi] = prev, true
		} else {
			if bodies != nil {
				bodies[sig] = name
			}
			p.Funcs = append(p.Funcs, g)
			if err := g.Check(); err != nil {
				return nil, nil, nil, fmt.Errorf("outline: internal error: outlined function: %v", err)
			}
		}
		names[mi] = name
		for _, in := range m.Instances {
			inv := &Node{ID: next(), Op: "invoke", Type: in.Root.Type, Operands: slices.Clone(in.Args),
				Attrs: []Attr{{Key: "to_apply", Value: name}}, Pos: in.Root.Pos, Loc: in.Root.Loc}
			replace[in.Root] = inv
			invokes[mi] = append(invokes[mi], inv)
			for _, x := range in.Nodes {
				remove[x] = true
			}
		}
	}
	// The caller.
	var nodes []*Node
	lits := map[*Node]bool{} // literals that removed nodes used
	for _, x := range f.Nodes {
		if inv, ok := replace[x]; ok {
			nodes = append(nodes, inv)
			for _, o := range x.Operands {
				if o.Op == "literal" {
					lits[o] = true
				}
			}
			continue
		}
		if remove[x] {
			for _, o := range x.Operands {
				if o.Op == "literal" {
					lits[o] = true
				}
			}
			continue
		}
		for i, o := range x.Operands {
			if r, ok := replace[o]; ok {
				x.Operands[i] = r
			}
		}
		nodes = append(nodes, x)
	}
	for _, invs := range invokes {
		for _, inv := range invs {
			for i, o := range inv.Operands {
				if r, ok := replace[o]; ok {
					inv.Operands[i] = r
				}
			}
		}
	}
	if r, ok := replace[f.Ret]; ok {
		f.Ret = r
	}
	used := map[*Node]bool{f.Ret: true}
	for _, x := range nodes {
		for _, o := range x.Operands {
			used[o] = true
		}
	}
	f.Nodes = nodes[:0:0]
	for _, x := range nodes {
		if !lits[x] || used[x] {
			f.Nodes = append(f.Nodes, x)
		}
	}
	if err := f.Check(); err != nil {
		return nil, nil, nil, fmt.Errorf("outline: internal error: after outlining %s: %v", strings.Join(names, ", "), err)
	}
	return names, reused, invokes, nil
}

// patternFunc returns the function named name that computes m's
// pattern, canonicalized, with node IDs from next and the positions of
// the first instance.
func patternFunc(m *Match, name string, next func() int) (*Function, error) {
	g := &Function{Name: name, Outlined: true}
	made := make([]*Node, len(m.Pattern.Nodes))
	for i, pn := range m.Pattern.Nodes {
		if pn.Hole() && made[i] == nil {
			nd := &Node{ID: next(), Name: fmt.Sprintf("p%d", pn.Param), Op: "param", Type: pn.Type}
			made[i] = nd
		}
	}
	params := make([]*Node, len(m.Pattern.Params))
	for i, pn := range m.Pattern.Nodes {
		if pn.Hole() {
			params[pn.Param] = made[i]
		}
	}
	if slices.Contains(params, nil) {
		return nil, errors.New("outline: internal error: pattern parameter without a hole")
	}
	g.Params = params
	g.Nodes = append(g.Nodes, params...)
	inst0 := m.Instances[0].Nodes
	k := 0
	for i, pn := range m.Pattern.Nodes {
		if pn.Hole() {
			continue
		}
		nd := &Node{ID: next(), Op: pn.Op, Type: pn.Type, Attrs: slices.Clone(pn.Attrs)}
		for _, a := range pn.Args {
			nd.Operands = append(nd.Operands, made[a])
		}
		if pn.Op != "literal" {
			nd.Pos, nd.Loc = inst0[k].Pos, inst0[k].Loc
			k++
		}
		made[i] = nd
		g.Nodes = append(g.Nodes, nd)
	}
	g.Ret = made[m.Pattern.Root()]
	Canonicalize(g)
	return g, nil
}

// A reuser prices instance sets under Area against the functions
// Outline created before in the package: outlined functions with one
// body are one piece of hardware built twice, which the pass never
// emits, so a set whose pattern is the body of one of them can only
// invoke that one, and saves what that saves (reuser.saving: its
// instances go, but the function's multiplexers may widen), nothing
// when that is not positive. The choice (choose, coneChoice) scores
// sets by saving, so a set that cannot pay is never chosen.
type reuser struct {
	p      *Package
	bodies map[string]string    // body text -> function name
	calls  map[string][][]*Node // function name -> the operands of each invoke of it
}

func newReuser(p *Package) *reuser {
	r := &reuser{p: p, bodies: outlinedBodies(p), calls: map[string][][]*Node{}}
	if len(r.bodies) == 0 {
		return r
	}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			if n.Op == "invoke" && p.Func(calleeName(n)) != nil && p.Func(calleeName(n)).Outlined {
				r.calls[calleeName(n)] = append(r.calls[calleeName(n)], n.Operands)
			}
		}
	}
	return r
}

// body returns the function outlined before whose body is m's pattern,
// and its body text (sig, also when there is none).
func (r *reuser) body(m *Match) (name, sig string) {
	id := 0
	g, err := patternFunc(m, "body", func() int { id++; return id })
	if err != nil {
		return "", ""
	}
	sig = bodyText(g)
	return r.bodies[sig], sig
}

// saving is what outlining m saves under the analysis's objective:
// m.Saved, except under Area where m's pattern is the body of a
// function outlined before (reuser).
func (a *analysis) saving(m *Match) int64 {
	if a.reuse == nil || len(a.reuse.bodies) == 0 {
		return m.Saved(a.obj)
	}
	if name, _ := a.reuse.body(m); name != "" {
		return max(a.reuse.saving(name, m), 0)
	}
	return m.Saved(a.obj)
}

// areaReuse prepares a batch under Area: a set whose pattern is the
// body of a function outlined before invokes that one (reuser; the
// choice only takes such a set when that saves area, and one that does
// not is dropped here), and of the sets of a batch with one pattern only
// the first is kept (the next iteration prices the others as reuses of
// its function). It returns the sets kept, the saving of each, and the
// bodies apply reuses.
func areaReuse(r *reuser, batch []*Match) ([]*Match, []int64, map[string]string) {
	reuse := map[string]string{}
	seen := map[string]bool{}
	var kept []*Match
	var saved []int64
	for _, m := range batch {
		s := m.Saved(Area)
		name, sig := r.body(m)
		if sig != "" {
			if seen[sig] {
				continue
			}
			seen[sig] = true
		}
		if name != "" {
			if s = r.saving(name, m); s <= 0 {
				continue
			}
			reuse[sig] = name
		}
		kept = append(kept, m)
		saved = append(saved, s)
	}
	return kept, saved, reuse
}

// saving is what invoking function name (outlined before, with m's
// pattern as its body) from m's instances saves under Area: the
// instances' area, less the multiplexer bits the function's inputs need
// beyond those they needed (Cost: per call beyond the first, the width
// of each parameter whose arguments are not all one node).
func (r *reuser) saving(name string, m *Match) int64 {
	g := r.p.Func(name)
	calls := r.calls[name]
	mux := func(calls [][]*Node) int64 {
		if len(calls) < 2 {
			return 0
		}
		var bits int64
		for i, prm := range g.Params {
			for _, c := range calls[1:] {
				if i < len(c) && i < len(calls[0]) && c[i] != calls[0][i] {
					bits += int64(prm.Type.FlatBits())
					break
				}
			}
		}
		return int64(len(calls)-1) * bits
	}
	before := mux(calls)
	calls = slices.Clone(calls)
	for _, in := range m.Instances {
		calls = append(calls, in.Args)
	}
	return int64(len(m.Instances))*m.Area - (mux(calls) - before)
}

// bodyText writes f's parameters' types and its nodes (operation, type,
// attributes, operands by position), so that two functions with equal
// texts compute the same value the same way.
func bodyText(f *Function) string {
	var b strings.Builder
	at := make(map[*Node]int, len(f.Nodes))
	for i, n := range f.Nodes {
		at[n] = i
		b.WriteString(n.Label())
		for _, o := range n.Operands {
			b.WriteString(" " + strconv.Itoa(at[o]))
		}
		b.WriteByte(';')
	}
	b.WriteString(" ret " + strconv.Itoa(at[f.Ret]))
	return b.String()
}

// outlinedBodies maps the body text of each function of p that Outline
// created to its name.
func outlinedBodies(p *Package) map[string]string {
	m := map[string]string{}
	for _, f := range p.Funcs {
		if f.Outlined {
			if _, ok := m[bodyText(f)]; !ok {
				m[bodyText(f)] = f.Name
			}
		}
	}
	return m
}
