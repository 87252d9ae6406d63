package sched

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"nestor/internal/intmath"
	"slices"

	"nestor/deps"
	"nestor/poly"
)

// Row is one affine schedule row of a statement: Phi·i + Omega over its
// counters i.
type Row struct {
	Phi   []int64
	Omega int64
}

// Legal reports whether the schedule rows src (of the edge's source) and dst
// (of its target) respect the dependence: dst(t) − src(s) ≥ 0 on every
// point of e's polyhedron, decided by Farkas' lemma over the rationals. The
// polyhedron's dims are (s, t, locals), see deps.Edge; the rows give no
// weight to the locals or the parameters.
func Legal(e *deps.Edge, src, dst Row) (bool, error) {
	sp := e.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	if len(src.Phi)+len(dst.Phi) > nd {
		return false, fmt.Errorf("sched: rows of %d and %d counters for a polyhedron of %d dims", len(src.Phi), len(dst.Phi), nd)
	}
	// target is the form's coefficient vector over (dims, params, 1).
	target := make([]int64, nd+np+1)
	for v, c := range src.Phi {
		target[v] -= c
	}
	for v, c := range dst.Phi {
		target[len(src.Phi)+v] += c
	}
	target[nd+np] = dst.Omega - src.Omega

	cols := multiplierColumns(e.Set) // Unknowns: λ0, then one multiplier per row.
	nu := len(cols)
	names := make([]string, nu)
	for u := range names {
		names[u] = fmt.Sprintf("l%d", u)
	}
	var cs []poly.Constraint
	for u := range nu { // every multiplier is non-negative
		c := make([]int64, nu+1)
		c[u] = 1
		cs = append(cs, poly.Constraint{Coef: c})
	}
	for pos := range target { // Σ_u unknown_u · cols[u][pos] = target[pos]
		c := make([]int64, nu+1)
		for u, col := range cols {
			c[u] = col[pos]
		}
		c[nu] = -target[pos]
		cs = append(cs, poly.Constraint{Eq: true, Coef: c})
	}
	set, err := poly.NewSet(poly.Space{Dims: names}, cs...)
	if err != nil {
		return false, err
	}
	empty, err := set.IsRationalEmpty()
	return !empty, err
}

// multiplierColumns returns the vectors over (dims, params, 1) that the
// Farkas multipliers of set multiply: the constant 1 (λ0), every row, and
// the negation of every equality (an equality's multiplier is free, the
// difference of two non-negative ones).
func multiplierColumns(set *poly.Set) [][]int64 {
	sp := set.Space()
	one := make([]int64, sp.NVar()+1)
	one[sp.NVar()] = 1
	cols := [][]int64{one}
	for _, r := range set.Constraints() {
		cols = append(cols, r.Coef)
		if r.Eq {
			m := make([]int64, len(r.Coef))
			for k, c := range r.Coef {
				m[k] = -c
			}
			cols = append(cols, m)
		}
	}
	return cols
}

// edgeConstraints returns, over the unknowns, the Farkas-linearized
// legality (φ_T − φ_S ≥ 0) and bound (u·p + w − (φ_T − φ_S) ≥ 0) of edge e;
// the same at every level, so they are cached, and edges with the same
// statements and polyhedron (a flow, anti and output dependence between
// the same accesses, often) share one computation.
func (s *scheduler) edgeConstraints(e int) ([]poly.Constraint, error) {
	if cs, ok := s.farkas[e]; ok {
		return cs, nil
	}
	ed := s.g.Edges[e]
	key := s.shapeOf(e)
	if cs, ok := s.shapes[key]; ok {
		s.farkas[e] = cs
		return cs, nil
	}
	ep, err := prepare(ed.Set, s.work)
	if err != nil {
		return nil, err
	}
	legal, err := s.farkasRows(ed, ep, false)
	if err != nil {
		return nil, err
	}
	bound, err := s.farkasRows(ed, ep, true)
	if err != nil {
		return nil, err
	}
	cs := append(legal, bound...)
	s.farkas[e] = cs
	s.shapes[key] = cs
	return cs, nil
}

// shapeOf returns the shape id of edge e: edges with the same source,
// target and polyhedron have the same id.
func (s *scheduler) shapeOf(e int) int {
	if s.shape == nil {
		s.shape = make([]int, len(s.g.Edges))
		for k := range s.shape {
			s.shape[k] = -1
		}
	}
	if id := s.shape[e]; id >= 0 {
		return id
	}
	ed := s.g.Edges[e]
	key := fmt.Sprint(ed.Source, ed.Target, ed.Set.Constraints())
	id, ok := s.shapeK[key]
	if !ok {
		id = len(s.shapeK)
		s.shapeK[key] = id
	}
	s.shape[e] = id
	return id
}

// form returns the coefficients of L = φ_T(t) − φ_S(s) over the edge's
// (dims, params, 1), each an affine combination of the unknowns vars:
// form[pos][j] is the coefficient of unknown vars[j].
func (s *scheduler) form(ed *deps.Edge, vars []int) [][]int64 {
	sp := ed.Set.Space()
	n := sp.NDim() + sp.NParam() + 1
	f := make([][]int64, n)
	for k := range f {
		f[k] = make([]int64, len(vars))
	}
	local := func(v int) int { return slices.Index(vars, v) }
	src, dst := s.p.Stmts[ed.Source], s.p.Stmts[ed.Target]
	for k := range src.Depth() {
		f[k][local(s.coefIndex(ed.Source, k))] -= int64(src.Dir[k])
	}
	for k := range dst.Depth() {
		f[src.Depth()+k][local(s.coefIndex(ed.Target, k))] += int64(dst.Dir[k])
	}
	f[n-1][local(s.off[ed.Target])]++
	f[n-1][local(s.off[ed.Source])]--
	return f
}

// edgeUnknowns returns the unknowns the legality form of edge e (and its
// bound, with bound set) can involve: the constants and coefficients of
// its statements, and u and w for the bound.
func (s *scheduler) edgeUnknowns(ed *deps.Edge, bound bool) []int {
	var vars []int
	if bound {
		for v := range s.np + 1 { // u, w
			vars = append(vars, v)
		}
	}
	stmts := []int{ed.Source}
	if ed.Target != ed.Source {
		stmts = append(stmts, ed.Target)
	}
	for _, st := range stmts {
		for v := range 1 + s.p.Stmts[st].Depth() {
			vars = append(vars, s.off[st]+v)
		}
	}
	return vars
}

// farkasRows linearizes "F ≥ 0 on the polyhedron rows" with F = L
// (legality) or F = u·p + w − L (bound). By the affine form of Farkas'
// lemma F ≥ 0 there exactly when F ≡ λ0 + Σ λ_r·row_r with λ ≥ 0 (free
// for an equality row): matching the coefficient of every variable gives
// one equation per variable, the constant gives λ0 = F_0 − Σ λ_r·c_r ≥ 0.
// The multipliers are rational and are eliminated exactly
// (poly.EliminateRational); what is left are constraints over the few
// unknowns F involves, mapped back to all unknowns.
func (s *scheduler) farkasRows(ed *deps.Edge, ep *edgePoly, bound bool) ([]poly.Constraint, error) {
	sp := ed.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	all := s.edgeUnknowns(ed, bound)
	f := s.form(ed, all)
	if bound { // u, w are all[0 … np]
		for pos := range f {
			for v := range f[pos] {
				f[pos][v] = -f[pos][v]
			}
		}
		for q := range np {
			f[nd+q][q]++ // u_q
		}
		f[nd+np][s.np]++ // w
	}
	if err := ep.substitute(f); err != nil {
		return nil, err
	}
	rows := ep.rows
	// The unknowns F involves, numbered locally: j for all[vars[j]].
	var vars []int
	for v := range all {
		for pos := range f {
			if f[pos][v] != 0 {
				vars = append(vars, v)
				break
			}
		}
	}
	nl, nm := len(vars), len(rows)
	width := nl + nm + 1
	var cs []poly.Constraint
	for l, r := range rows {
		if !r.Eq {
			c := make([]int64, width)
			c[nl+l] = 1
			cs = append(cs, poly.Constraint{Coef: c})
		}
	}
	for pos := range nd + np + 1 {
		if bound && pos >= nd && pos < nd+np && !usesColumn(rows, pos) {
			// The bound is an objective, not a legality condition, so it
			// may assume what Pluto assumes of every size: p ≥ 0. For a
			// parameter the edge does not mention, that frees u_q (its
			// equation would force u_q = 0, and two edges that need it
			// could never be bounded together).
			continue
		}
		// Σ λ_r·row_r[pos] − F[pos] = 0, or for the constant
		// F[pos] − Σ λ_r·row_r[pos] = λ0 ≥ 0.
		c := make([]int64, width)
		for l, r := range rows {
			c[nl+l] = r.Coef[pos]
		}
		for j, v := range vars {
			c[j] = -f[pos][v]
		}
		eq := pos < nd+np
		if !eq {
			for k := range c {
				c[k] = -c[k]
			}
		}
		cs = append(cs, poly.Constraint{Eq: eq, Coef: c})
	}
	red, err := poly.EliminateRationalWork(cs, nl+nm, nl, s.work)
	if err != nil {
		if s.work.Exhausted() {
			return nil, s.overBudget()
		}
		if errors.Is(err, poly.ErrLimit) {
			return nil, fmt.Errorf("%w: eliminating Farkas multipliers: %v", ErrNoSchedule, err)
		}
		return nil, err
	}
	out := make([]poly.Constraint, len(red))
	for k, r := range red {
		c := make([]int64, s.nu+1)
		for j, v := range vars {
			c[all[v]] = r.Coef[j]
		}
		c[s.nu] = r.Coef[nl]
		out[k] = poly.Constraint{Eq: r.Eq, Coef: c}
	}
	return out, nil
}

// edgePoly is an edge's polyhedron prepared for Farkas' lemma: each of its
// equalities eliminated one variable (steps, in order), and rows holds
// the inequalities left, rewritten without the eliminated variables (their
// positions are 0) and without the rows the others imply. Since F ≥ 0 on
// the polyhedron exactly when F', F with the same variables eliminated by
// the same equalities, is ≥ 0 on rows, the multipliers of the equalities
// and the equations of the eliminated variables never enter the Farkas
// system.
type edgePoly struct {
	steps []elimStep
	rows  []poly.Constraint
}

// elimStep eliminates the variable at pos with the equality eq (over the
// polyhedron's dims, params and constant), eq[pos] ≠ 0.
type elimStep struct {
	pos int
	eq  []int64
}

// prepare eliminates the equalities of set, each with the variable (a dim
// before a param) whose coefficient is smallest in magnitude: a row r
// becomes |a|·r − sign(a)·r_pos·eq (a = eq[pos]), exact over Q, and the
// projection of the integer points keeps satisfying the result, so its
// rows may be tightened (poly.NewSet) before the redundant ones go
// (poly.EliminateRational with nothing to eliminate).
func prepare(set *poly.Set, work *poly.Work) (*edgePoly, error) {
	sp := set.Space()
	nv := sp.NVar()
	rows := set.Constraints()
	ep := &edgePoly{}
	for {
		pi, pos := -1, -1
		for i, r := range rows {
			if !r.Eq {
				continue
			}
			for v := range nv {
				if a := r.Coef[v]; a != 0 && (pos < 0 || intmath.Abs(a) < intmath.Abs(rows[pi].Coef[pos]) ||
					v < sp.NDim() && pos >= sp.NDim() && intmath.Abs(a) == intmath.Abs(rows[pi].Coef[pos])) {
					pi, pos = i, v
				}
			}
		}
		if pi < 0 {
			break
		}
		eq := rows[pi].Coef
		ep.steps = append(ep.steps, elimStep{pos: pos, eq: eq})
		var next []poly.Constraint
		for i, r := range rows {
			if i == pi {
				continue
			}
			c, ok := combine(r.Coef, eq, pos)
			if !ok {
				return nil, poly.ErrOverflow
			}
			next = append(next, poly.Constraint{Eq: r.Eq, Coef: c})
		}
		t, err := poly.NewSet(sp, next...)
		if err != nil {
			return nil, err
		}
		rows = t.Constraints()
	}
	rows, err := poly.EliminateRationalWork(rows, nv, nv, work)
	if err != nil {
		return nil, err
	}
	ep.rows = rows
	return ep, nil
}

// combine returns |a|·r − sign(a)·r[pos]·eq with a = eq[pos], false on
// overflow.
func combine(r, eq []int64, pos int) ([]int64, bool) {
	a := eq[pos]
	out := make([]int64, len(r))
	for k := range r {
		x, ok1 := mul64(intmath.Abs(a), r[k])
		y, ok2 := mul64(r[pos], eq[k])
		if a < 0 {
			y = -y
		}
		z, ok3 := sub64(x, y)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		out[k] = z
	}
	out[pos] = 0
	return out, true
}

// substitute rewrites the form f (per variable of the polyhedron and the
// constant, a vector over unknowns) with the eliminated variables replaced
// as prepare replaced them in the rows: f becomes |a|·f − sign(a)·f_pos·eq
// per step, a positive multiple of f on the polyhedron.
func (ep *edgePoly) substitute(f [][]int64) error {
	for _, st := range ep.steps {
		a := st.eq[st.pos]
		fp := append([]int64(nil), f[st.pos]...)
		for q := range f {
			for v := range f[q] {
				x, ok1 := mul64(intmath.Abs(a), f[q][v])
				y, ok2 := mul64(fp[v], st.eq[q])
				if a < 0 {
					y = -y
				}
				z, ok3 := sub64(x, y)
				if !ok1 || !ok2 || !ok3 {
					return poly.ErrOverflow
				}
				f[q][v] = z
			}
		}
	}
	return nil
}

// mul64 returns x·y and whether it fits in an int64 (math.MinInt64
// excluded, as poly does).
func mul64(x, y int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(intmath.Abs(x)), uint64(intmath.Abs(y)))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (x < 0) != (y < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

// sub64 returns x − y and whether it fits in an int64 (math.MinInt64
// excluded).
func sub64(x, y int64) (int64, bool) {
	z := x - y
	if (x >= 0) != (y >= 0) && (z >= 0) != (x >= 0) || z == math.MinInt64 {
		return 0, false
	}
	return z, true
}

// usesColumn reports whether any row has a nonzero coefficient at pos.
func usesColumn(rows []poly.Constraint, pos int) bool {
	for _, r := range rows {
		if r.Coef[pos] != 0 {
			return true
		}
	}
	return false
}

// liveEdgeRows returns the Farkas rows of the live edges, grouped by
// statement pair, each group without the rows the others of the group
// imply (with every unknown ≥ 0, which the scheduling problem always
// has): the edges of one pair overlap a lot, those of different pairs
// involve different unknowns. Groups are cached by their set of edges.
func (s *scheduler) liveEdgeRows() ([]poly.Constraint, error) {
	type pair struct{ a, b int }
	groups := map[pair][]int{}
	var order []pair
	for e, live := range s.live {
		if !live {
			continue
		}
		ed := s.g.Edges[e]
		k := pair{min(ed.Source, ed.Target), max(ed.Source, ed.Target)}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	var out []poly.Constraint
	for _, k := range order {
		key := fmt.Sprint(groups[k])
		rows, ok := s.groups[key]
		if !ok {
			var all []poly.Constraint
			for _, e := range groups[k] {
				if err := s.checkBudget(); err != nil {
					return nil, err
				}
				cs, err := s.edgeConstraints(e)
				if err != nil {
					return nil, err
				}
				all = append(all, cs...)
			}
			var err error
			if rows, err = pruneGroup(all, s.nu); err != nil {
				return nil, err
			}
			s.groups[key] = rows
		}
		out = append(out, rows...)
	}
	return out, nil
}

// pruneGroup returns rows over nu integer unknowns, normalized
// (poly.NewSet tightens them for integers), without those implied by
// another row and the non-negativity of every unknown (dropDominated),
// which the scheduling problem always has. A full redundancy check by
// linear programming finds a few more, but costs more than the larger
// integer problem does.
func pruneGroup(rows []poly.Constraint, nu int) ([]poly.Constraint, error) {
	// The rows mention few unknowns: work on those.
	var vars []int
	for v := range nu {
		if usesColumn(rows, v) {
			vars = append(vars, v)
		}
	}
	nl := len(vars)
	local := make([]poly.Constraint, len(rows))
	for k, r := range rows {
		c := make([]int64, nl+1)
		for j, v := range vars {
			c[j] = r.Coef[v]
		}
		c[nl] = r.Coef[nu]
		local[k] = poly.Constraint{Eq: r.Eq, Coef: c}
	}
	names := make([]string, nl)
	for v := range names {
		names[v] = fmt.Sprintf("x%d", v)
	}
	set, err := poly.NewSet(poly.Space{Dims: names}, local...)
	if err != nil {
		return nil, err
	}
	local = dropDominated(set.Constraints())
	out := make([]poly.Constraint, len(local))
	for k, r := range local {
		c := make([]int64, nu+1)
		for j, v := range vars {
			c[v] = r.Coef[j]
		}
		c[nu] = r.Coef[nl]
		out[k] = poly.Constraint{Eq: r.Eq, Coef: c}
	}
	return out, nil
}

// dropDominated returns rows (over non-negative unknowns, coefficients
// then constant) without the inequalities implied by one other kept
// inequality and the non-negativity of the unknowns: r = λ·r' + μ + δ with
// λ > 0, μ ≥ 0 (a combination of the rows x_v ≥ 0) and δ ≥ 0 a constant,
// that is a ≥ λ·a' componentwise and c ≥ λ·c'. The λ satisfying all
// components form an interval, found with exact fraction comparisons.
func dropDominated(rows []poly.Constraint) []poly.Constraint {
	dead := make([]bool, len(rows))
	for i, r := range rows {
		if r.Eq {
			continue
		}
		for j, q := range rows {
			if j == i || dead[j] || q.Eq {
				continue
			}
			if dominates(q.Coef, r.Coef) {
				dead[i] = true
				break
			}
		}
	}
	var out []poly.Constraint
	for i, r := range rows {
		if !dead[i] {
			out = append(out, r)
		}
	}
	return out
}

// dominates reports whether some λ > 0 has a_k − λ·b_k ≥ 0 for every k
// (b dominates a).
func dominates(b, a []int64) bool {
	// λ ∈ [lo, hi], fractions with positive denominators; hi unset is +∞.
	loN, loD := int64(0), int64(1)
	hiN, hiD, hiSet := int64(0), int64(1), false
	for k, q := range b {
		p := a[k]
		switch {
		case q > 0: // λ ≤ p/q
			if p <= 0 {
				return false
			}
			if !hiSet || fracLess(p, q, hiN, hiD) {
				hiN, hiD, hiSet = p, q, true
			}
		case q < 0: // λ ≥ p/q = (−p)/(−q), binding when p < 0
			if p < 0 && fracLess(loN, loD, -p, -q) {
				loN, loD = -p, -q
			}
		default:
			if p < 0 {
				return false
			}
		}
	}
	return !hiSet || !fracLess(hiN, hiD, loN, loD)
}

// fracLess reports whether p/q < r/s for non-negative p, r and positive
// q, s, exactly (128-bit products).
func fracLess(p, q, r, s int64) bool {
	h1, l1 := bits.Mul64(uint64(p), uint64(s))
	h2, l2 := bits.Mul64(uint64(r), uint64(q))
	return h1 < h2 || h1 == h2 && l1 < l2
}
