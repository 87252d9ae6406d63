package sched

import (
	"errors"
	"fmt"
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/poly"
)

// Fusion is the policy for fusing loops of different statements.
type Fusion uint8

const (
	// SmartFuse (Pluto's default) separates, before the first loop, the
	// strongly connected components of the dependence graph whose loop
	// depths differ, and fuses the rest as far as dependences allow.
	SmartFuse Fusion = iota
	// MaxFuse fuses everything that dependences allow.
	MaxFuse
	// NoFuse separates every strongly connected component.
	NoFuse
)

// Options tunes Compute.
type Options struct {
	Fusion Fusion
	// Align tries write-aligned rows first (see align.go): when every
	// statement writes the same array and its subscripts are legal rows,
	// they become the outer band.
	Align bool
	// ReadAlign, when not 0, is 1 + the index of an array every
	// statement reads: Compute tries the rows of its subscripts first
	// (read-aligned, see align.go), before Align's.
	ReadAlign int
	// Budget bounds the work Compute may do, in poly.Work units (simplex
	// tableau entries updated, Fourier–Motzkin coefficients combined);
	// past it Compute gives up with an error wrapping ErrNoSchedule. Work,
	// not time: the schedule of a region does not depend on the machine
	// nor on its load. Zero means DefaultBudget.
	Budget int64
}

// DefaultBudget is the work Compute does at most when Options.Budget is
// zero: 5e8 units, about a second on the machines we measured (a unit
// takes 1 to 3 ns: deep nests' Fourier–Motzkin steps and their small
// linear programs are the slow end). The corpus kernel that needs most,
// deriche, takes 2.7e7 (TestComputeCorpus fails past a tenth of the
// budget).
const DefaultBudget = 5e8

// ErrNoSchedule means the scheduler found no legal hyperplane and no cut:
// the caller keeps the original order.
var ErrNoSchedule = errors.New("sched: no affine schedule found")

// Compute finds an affine schedule of p that respects every dependence of
// g, with Pluto's algorithm: outermost first, each new row is the lexical
// minimum, over non-negative integer coefficients, of (u, w, Σ c, c): the
// bound u·p + w on the dependence distances (so that tiles have small
// communication), then small coefficients. Legality and the bound are
// linearized with Farkas' lemma, the multipliers eliminated by
// Fourier–Motzkin. Rows must be linearly independent of earlier ones per
// statement (Pluto's orthogonal-subspace constraint). Dependences satisfied
// by a row (distance ≥ 1 everywhere) are dropped for inner rows; when no
// row exists, the statements are cut by strongly connected components (a
// scalar dimension). Coefficients on a counter of a loop that counts down
// are negative (the counter is oriented by its Dir).
//
// When p's constant sizes make the exact arithmetic overflow int64,
// Compute schedules p with those constants as parameters instead (see
// LiftConstants; Schedule.Lifted says so). Both attempts share the
// budget.
func Compute(p *ir.Program, g *deps.Graph, opt Options) (*Schedule, error) {
	budget := opt.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	work := poly.NewWork(budget)
	sc, err := compute(p, g, opt, work)
	if errors.Is(err, poly.ErrOverflow) {
		return computeLifted(p, opt, work, err)
	}
	return sc, err
}

// compute is Compute on p as it is, charging work.
func compute(p *ir.Program, g *deps.Graph, opt Options, work *poly.Work) (*Schedule, error) {
	s := newScheduler(p, g)
	s.work = work
	sc, err := s.compute(opt)
	if err != nil && s.work.Exhausted() {
		return nil, s.overBudget() // whichever step noticed it
	}
	return sc, err
}

func (s *scheduler) compute(opt Options) (*Schedule, error) {
	p, g := s.p, s.g
	aligned := opt.ReadAlign > 0 && s.align(opt.ReadAlign-1) || opt.Align && s.align(-1)
	alignedDims := s.sc.Dims()
	s.aligned = aligned
	if aligned {
		// the aligned rows fuse every statement: no initial cut
	} else if opt.Fusion != MaxFuse {
		s.initialCut(opt.Fusion)
	}
	for !s.done() {
		if len(s.sc.Rows[0]) > maxDims {
			return nil, fmt.Errorf("%w: more than %d dimensions", ErrNoSchedule, maxDims)
		}
		if err := s.checkBudget(); err != nil {
			return nil, err
		}
		if !s.allFull() {
			found, err := s.hyperplane()
			if err != nil {
				return nil, err
			}
			if found {
				continue
			}
		}
		if s.endBand() {
			continue // the dependences the band satisfied no longer constrain
		}
		if !s.cut() {
			return nil, fmt.Errorf("%w: no legal hyperplane for the dependences left", ErrNoSchedule)
		}
	}
	s.endBand()
	s.finalOrder()
	s.sc.Work = s.work.Used()
	if aligned {
		canonicalOffsets(p, g, s.sc, alignedDims) // after the aligned rows
	}
	return s.sc, nil
}

// endBand closes the current band of loop rows: it records the band and
// drops the edges its rows satisfy. Within a band every row respects
// every edge live at the band's start (Pluto's rule), so the band is
// permutable and can be tiled. It reports whether any edge was dropped.
func (s *scheduler) endBand() bool {
	if d := s.sc.Dims(); d > s.band {
		s.sc.Bands = append(s.sc.Bands, Band{Start: s.band, End: d})
		s.band = d
	}
	progress := false
	for e, sat := range s.sat {
		if sat && s.live[e] {
			s.live[e] = false
			progress = true
		}
		s.sat[e] = false
	}
	return progress
}

// checkBudget returns an error wrapping ErrNoSchedule once the work
// budget (set by Compute) is spent.
func (s *scheduler) checkBudget() error {
	if s.work.Exhausted() {
		return s.overBudget()
	}
	return nil
}

// overBudget is the error of a spent work budget.
func (s *scheduler) overBudget() error {
	return fmt.Errorf("%w: over the scheduling budget (%.3g units of work; --sched-budget)", ErrNoSchedule, float64(s.work.Used()))
}

// maxDims bounds the number of time dimensions (a safety net against a
// loop that makes no progress).
const maxDims = 64

type scheduler struct {
	p       *ir.Program
	g       *deps.Graph
	sc      *Schedule
	live    []bool                       // edges not satisfied before the current band
	sat     []bool                       // live edges a row of the current band satisfies
	work    *poly.Work                   // see Options.Budget
	aligned bool                         // the outer band is write-aligned (align.go): inner rows keep constant rows for full statements
	band    int                          // the first dimension of the current band
	h       [][][]int64                  // per statement, the linear parts of its loop rows
	farkas  map[int][]poly.Constraint    // per edge, its Farkas rows
	shapes  map[int][]poly.Constraint    // the same, per shape (shapeOf)
	groups  map[string][]poly.Constraint // the pruned rows of a set of edges of one statement pair
	shape   []int                        // per edge, an id shared by edges of equal pair and polyhedron
	shapeK  map[string]int
	effects map[effectKey]effectResult // see rowEffect
	// only, when set, restricts the next row's problem to the
	// statements it marks (partRows): the others get zero rows.
	only []bool
	// unknown layout: u (one per parameter), w, σ = Σ c, then per
	// statement c0 and its counter coefficients.
	np, nu int
	off    []int // first unknown of each statement (its c0)
}

func newScheduler(p *ir.Program, g *deps.Graph) *scheduler {
	s := &scheduler{p: p, g: g, sc: &Schedule{Rows: make([][]ir.Aff, len(p.Stmts))},
		live: make([]bool, len(g.Edges)), sat: make([]bool, len(g.Edges)), h: make([][][]int64, len(p.Stmts)),
		farkas: map[int][]poly.Constraint{}, shapes: map[int][]poly.Constraint{}, groups: map[string][]poly.Constraint{}, shapeK: map[string]int{}, effects: map[effectKey]effectResult{}, np: len(p.Params)}
	for k := range s.live {
		s.live[k] = true
	}
	s.nu = s.np + 2
	for _, st := range p.Stmts {
		s.off = append(s.off, s.nu)
		s.nu += 1 + st.Depth()
	}
	return s
}

func (s *scheduler) full(st int) bool { return len(s.h[st]) == s.p.Stmts[st].Depth() }

func (s *scheduler) allFull() bool {
	for st := range s.p.Stmts {
		if !s.full(st) {
			return false
		}
	}
	return true
}

func (s *scheduler) done() bool {
	for st := range s.p.Stmts {
		if !s.full(st) {
			return false
		}
	}
	return !slices.Contains(s.live, true)
}

// coefIndex returns the unknown holding the coefficient of counter k of
// statement st; the constant is at s.off[st]. Inner counters come first,
// so that the lexical minimum zeroes them first and, among equally good
// rows, keeps the original outer loop outside.
func (s *scheduler) coefIndex(st, k int) int { return s.off[st] + s.p.Stmts[st].Depth() - k }

// hyperplane finds the next loop row; false when none exists. When no
// row exists for all the statements together, the parts of the region
// that earlier scalar dimensions have already put apart and that no live
// edge joins are tried one by one (isl schedules such components apart
// too): a part that has a row takes it, the others take constant rows
// until the band ends. ludcmp's back substitution, whose x[i] /= A[i][i]
// follows a loop over j > i, has no second row, and without this it ended
// the band of the factorization beside it after one row.
func (s *scheduler) hyperplane() (bool, error) {
	found, err := s.hyperplaneWith(false)
	if found || err != nil {
		return found, err
	}
	if s.mayFree() {
		if found, err := s.hyperplaneWith(true); found || err != nil {
			return found, err
		}
	}
	return s.partRows()
}

// partRows finds a row for each part of the statements (see parts) that
// has one, constant rows for the others; false when no part has one, the
// statements form one part, the band has no row yet (its first row is
// every statement's, or a cut), or a part left without a row holds one
// of the deepest statements.
func (s *scheduler) partRows() (bool, error) {
	if s.sc.Dims() == s.band {
		return false, nil // a band's first row is for all: otherwise cut
	}
	parts := s.parts()
	if len(parts) < 2 {
		return false, nil
	}
	// The band goes on only for the deepest nests: where a part that has
	// no row holds one of the deepest statements still short of rows,
	// extending the band would tile the shallow parts and leave the deep
	// one idle (gramschmidt's zeroing of R beside its k loop): the band
	// ends instead, as it did before parts were tried.
	deepest := 0
	for st, x := range s.p.Stmts {
		if !s.full(st) {
			deepest = max(deepest, x.Depth())
		}
	}
	defer func() { s.only = nil }()
	merged := make([]int64, s.nu)
	found := false
	for _, part := range parts {
		if !slices.ContainsFunc(part, func(st int) bool { return !s.full(st) }) {
			continue // nothing left to find: constant rows
		}
		s.only = make([]bool, len(s.p.Stmts))
		for _, st := range part {
			s.only[st] = true
		}
		sol, ok, err := s.solve(false)
		if err == nil && !ok && s.mayFree() {
			sol, ok, err = s.solve(true)
		}
		switch {
		case err != nil:
			return false, err
		case !ok && slices.ContainsFunc(part, func(st int) bool { return !s.full(st) && s.p.Stmts[st].Depth() == deepest }):
			return false, nil
		case !ok:
			continue
		}
		found = true
		for _, st := range part {
			copy(merged[s.off[st]:s.off[st]+1+s.p.Stmts[st].Depth()], sol[s.off[st]:])
		}
	}
	if found {
		s.addRow(merged)
	}
	return found, nil
}

// parts splits the statements into the parts that earlier scalar
// dimensions (where every statement's row is constant) put in different
// subtrees of the loop tree, merged where a live edge joins them, in
// statement order; one part when nothing separates them.
func (s *scheduler) parts() [][]int {
	n := len(s.p.Stmts)
	key := make([]string, n)
	for d := range s.sc.Dims() {
		scalar := true
		for st := range n {
			if !allZero(s.sc.Rows[st][d].Iter) {
				scalar = false
				break
			}
		}
		if scalar {
			for st := range n {
				key[st] += fmt.Sprintf("%d,", s.sc.Rows[st][d].Const)
			}
		}
	}
	// union-find over subtrees and live edges
	parent := make([]int, n)
	for st := range parent {
		parent[st] = st
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	union := func(a, b int) { parent[find(a)] = find(b) }
	first := map[string]int{} // the first statement of each subtree
	for st := range n {
		if f, ok := first[key[st]]; ok {
			union(st, f)
		} else {
			first[key[st]] = st
		}
	}
	for e, ed := range s.g.Edges {
		if s.live[e] {
			union(ed.Source, ed.Target)
		}
	}
	var out [][]int
	at := map[int]int{}
	for st := range n {
		r := find(st)
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], st)
	}
	return out
}

// minFreeBand is the number of rows the current band must have before a
// statement with a full set of rows may take a non-constant row to extend
// it. A band of two or more rows is the one that gets tiled; ending it
// because one statement ran out of counters (fdtd-2d's ey[0][j] = …, 2
// counters among statements of 3) leaves the remaining loops outside the
// band, where they cannot be reordered: fdtd-2d then ran its column loop
// innermost. Pluto frees such rows always; a one-row band loses nothing
// when it ends, and keeping the constant rows there keeps the schedules
// of the triangular solvers (trisolv, cholesky, durbin) as they were.
// Write-aligned schedules (Options.Align) keep them too: their inner rows
// are the reductions, one per written element.
const minFreeBand = 2

// mayFree reports whether a statement with a full set of rows may take a
// non-constant row to extend the current band: a band of minFreeBand or
// more rows, none of them parallel (a band that will be time-tiled with a
// wavefront), not write-aligned, and some statement full.
func (s *scheduler) mayFree() bool {
	if s.aligned || s.sc.Dims()-s.band < minFreeBand || !s.anyFull() {
		return false
	}
	return !slices.ContainsFunc(s.sc.Coincident[s.band:], func(c Coincidence) bool { return c.All })
}

// anyFull reports whether some statement has a full set of rows.
func (s *scheduler) anyFull() bool {
	for st := range s.p.Stmts {
		if s.full(st) {
			return true
		}
	}
	return false
}

// hyperplaneWith finds the next loop row; false when none exists. With
// free false, a statement with a full set of rows gets a constant row;
// with free true, any row (a combination of its earlier ones: as Pluto
// does, which keeps fdtd-2d's ey[0][j] = … in the band of the other
// statements instead of ending it).
func (s *scheduler) hyperplaneWith(free bool) (bool, error) {
	sol, ok, err := s.solve(free)
	if err != nil || !ok {
		return false, err
	}
	s.addRow(sol)
	return true, nil
}

// solve returns the lexicographically smallest solution of the next
// row's problem (see constraints), false when it has none.
func (s *scheduler) solve(free bool) ([]int64, bool, error) {
	cs, err := s.constraints(free)
	if err != nil {
		return nil, false, err
	}
	names := make([]string, s.nu)
	for v := range names {
		names[v] = fmt.Sprintf("x%d", v)
	}
	set, err := poly.NewSet(poly.Space{Dims: names}, cs...)
	if err != nil {
		return nil, false, err
	}
	if n := len(set.Constraints()); n > maxILPRows {
		return nil, false, fmt.Errorf("%w: the scheduling problem has %d constraints (limit %d)", ErrNoSchedule, n, maxILPRows)
	}
	sol, ok, err := set.LexMinWork(nil, s.work)
	if errors.Is(err, poly.ErrLimit) {
		if err := s.checkBudget(); err != nil {
			return nil, false, err
		}
		return nil, false, nil // treat as no hyperplane: cut, or give up
	}
	return sol, ok, err
}

// constraints returns the scheduling problem of the next row over the
// unknowns: non-negativity, σ, independence, and every live edge's
// legality and bound.
func (s *scheduler) constraints(free bool) ([]poly.Constraint, error) {
	var cs []poly.Constraint
	row := func() []int64 { return make([]int64, s.nu+1) }
	for v := range s.nu { // every unknown ≥ 0
		r := row()
		r[v] = 1
		cs = append(cs, poly.Constraint{Coef: r})
	}
	sigma := row() // σ = Σ c
	sigma[s.np+1] = -1
	for st, x := range s.p.Stmts {
		for k := range x.Depth() {
			sigma[s.coefIndex(st, k)] = 1
		}
	}
	cs = append(cs, poly.Constraint{Eq: true, Coef: sigma})
	for st := range s.p.Stmts {
		if s.only != nil && !s.only[st] {
			// outside the part being scheduled: a zero row
			for k := range s.p.Stmts[st].Depth() + 1 {
				r := row()
				r[s.off[st]+k] = 1
				cs = append(cs, poly.Constraint{Eq: true, Coef: r})
			}
			continue
		}
		if free && s.full(st) {
			continue
		}
		cs = append(cs, s.independence(st)...)
	}
	rows, err := s.liveEdgeRows()
	if err != nil {
		return nil, err
	}
	return append(cs, rows...), nil
}

// independence returns the constraints that make statement st's next row
// linearly independent of its earlier ones: with the rows of H⊥ (a basis
// of the orthogonal complement of the earlier rows, sign-fixed to be
// mostly non-negative), H⊥·c ≥ 0 and Σ H⊥·c ≥ 1 (Pluto's heuristic). A
// statement with a full set of rows gets c = 0.
func (s *scheduler) independence(st int) []poly.Constraint {
	d := s.p.Stmts[st].Depth()
	row := func() []int64 { return make([]int64, s.nu+1) }
	var cs []poly.Constraint
	if s.full(st) {
		for k := range d {
			r := row()
			r[s.coefIndex(st, k)] = 1
			cs = append(cs, poly.Constraint{Eq: true, Coef: r})
		}
		return cs
	}
	perp := orthogonalComplement(s.h[st], d)
	sum := row()
	sum[s.nu] = -1
	for _, q := range perp {
		r := row()
		for k, c := range q {
			r[s.coefIndex(st, k)] = c
			sum[s.coefIndex(st, k)] += c
		}
		cs = append(cs, poly.Constraint{Coef: r})
	}
	return append(cs, poly.Constraint{Coef: sum})
}

// maxILPRows bounds the size of one scheduling problem; past it the
// scheduler gives up (the caller keeps the original order). The simplex
// tableau is dense, rows × (2·unknowns + rows) entries, and branch and
// bound keeps one per level of its search. The largest corpus problem
// (deriche) has about 600 rows.
const maxILPRows = 1000

// addRow records the loop row given by the unknowns sol, marks the edges
// it satisfies and whether it is parallel: zero distance on every edge
// live at the start of the band, so that the row's loop carries no
// dependence, and neither does its tile loop when the band is tiled; and
// per statement, whether it is for the edges of that statement
// (Schedule.Coincident).
func (s *scheduler) addRow(sol []int64) {
	np := s.np
	for st, x := range s.p.Stmts {
		d := x.Depth()
		a := ir.Aff{Iter: make([]int64, d), Param: make([]int64, np), Const: sol[s.off[st]]}
		lin := make([]int64, d)
		for k := range d {
			a.Iter[k] = int64(x.Dir[k]) * sol[s.coefIndex(st, k)]
			lin[k] = a.Iter[k]
		}
		s.sc.Rows[st] = append(s.sc.Rows[st], a)
		if !s.full(st) && !allZero(lin) && rankOf(append(slices.Clone(s.h[st]), lin)) > len(s.h[st]) {
			s.h[st] = append(s.h[st], lin)
		}
	}
	parallel := true
	carried := make([]bool, len(s.p.Stmts))
	for e, live := range s.live {
		if !live {
			continue
		}
		ed := s.g.Edges[e]
		want := !carried[ed.Source] || !carried[ed.Target]
		sat, zero := s.rowEffect(e, want)
		if !zero { // or not asked: both ends carry one already
			parallel = false
			carried[ed.Source], carried[ed.Target] = true, true
		}
		if sat {
			s.sat[e] = true
		}
	}
	free := make([]bool, len(carried))
	for st, c := range carried {
		free[st] = !c
	}
	s.sc.Coincident = append(s.sc.Coincident, Coincidence{All: parallel, For: free})
}

// rowEffect reports whether the last row satisfies edge e (distance
// L ≥ 1 on every instance: { L ≤ 0 } is empty) and, when asked, whether
// it is zero on it ({ L ≥ 1 } and { L ≤ −1 } are empty). A search limit
// answers no to both, which is safe: the edge stays live, the row is not
// marked parallel. Edges of one shape share the answers.
func (s *scheduler) rowEffect(e int, wantZero bool) (sat, zero bool) {
	f := s.distanceForm(e)
	key := effectKey{shape: s.shapeOf(e), form: fmt.Sprint(f)}
	if r, ok := s.effects[key]; ok && (r.zeroKnown || !wantZero) {
		return r.sat, r.zero
	}
	set := s.g.Edges[e].Set
	// empty reports whether no instance has sign·L + c ≥ 0.
	empty := func(sign, c int64) bool {
		g := make([]int64, len(f))
		for k, v := range f {
			g[k] = sign * v
		}
		g[len(g)-1] += c
		t, err := set.With(poly.Constraint{Coef: g})
		if err != nil {
			return false
		}
		em, err := t.IsEmpty()
		return err == nil && em
	}
	sat = empty(-1, 0)
	if wantZero && !sat {
		zero = empty(1, -1) && empty(-1, -1)
	}
	s.effects[key] = effectResult{sat: sat, zero: zero, zeroKnown: wantZero || sat}
	return sat, zero
}

type effectKey struct {
	shape int
	form  string
}

type effectResult struct{ sat, zero, zeroKnown bool }

// distanceForm returns the current last row's L = φ_T(t) − φ_S(s) over
// the edge's (dims, params, 1).
func (s *scheduler) distanceForm(e int) []int64 {
	ed := s.g.Edges[e]
	sp := ed.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	f := make([]int64, nd+np+1)
	src, dst := s.sc.Rows[ed.Source], s.sc.Rows[ed.Target]
	rs, rt := src[len(src)-1], dst[len(dst)-1]
	ds := len(rs.Iter)
	for k, c := range rs.Iter {
		f[k] -= c
	}
	for k, c := range rt.Iter {
		f[ds+k] += c
	}
	for q := range np {
		f[nd+q] = rt.Param[q] - rs.Param[q]
	}
	f[nd+np] = rt.Const - rs.Const
	return f
}

func allZero(xs []int64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}
