package sched

import (
	"errors"
	"fmt"

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
	key := fmt.Sprint(ed.Source, ed.Target, ed.Set.Constraints())
	if cs, ok := s.shapes[key]; ok {
		s.farkas[e] = cs
		return cs, nil
	}
	// The rows of the polyhedron without those the others imply: every
	// row costs a multiplier.
	sp := ed.Set.Space()
	poly1, err := poly.EliminateRational(ed.Set.Constraints(), sp.NVar(), sp.NVar())
	if err != nil {
		return nil, err
	}
	legal, err := s.farkasRows(ed, poly1, false)
	if err != nil {
		return nil, err
	}
	bound, err := s.farkasRows(ed, poly1, true)
	if err != nil {
		return nil, err
	}
	cs := append(legal, bound...)
	s.farkas[e] = cs
	s.shapes[key] = cs
	return cs, nil
}

// form returns the coefficients of L = φ_T(t) − φ_S(s) over the edge's
// (dims, params, 1), each an affine combination of unknowns: form[pos] is
// a vector over the unknowns.
func (s *scheduler) form(ed *deps.Edge) [][]int64 {
	sp := ed.Set.Space()
	n := sp.NDim() + sp.NParam() + 1
	f := make([][]int64, n)
	for k := range f {
		f[k] = make([]int64, s.nu)
	}
	src, dst := s.p.Stmts[ed.Source], s.p.Stmts[ed.Target]
	for k := range src.Depth() {
		f[k][s.coefIndex(ed.Source, k)] -= int64(src.Dir[k])
	}
	for k := range dst.Depth() {
		f[src.Depth()+k][s.coefIndex(ed.Target, k)] += int64(dst.Dir[k])
	}
	f[n-1][s.off[ed.Target]]++
	f[n-1][s.off[ed.Source]]--
	return f
}

// farkasRows linearizes "F ≥ 0 on the polyhedron rows" with F = L
// (legality) or F = u·p + w − L (bound). By the affine form of Farkas'
// lemma F ≥ 0 there exactly when F ≡ λ0 + Σ λ_r·row_r with λ ≥ 0 (free
// for an equality row): matching the coefficient of every variable gives
// one equation per variable, the constant gives λ0 = F_0 − Σ λ_r·c_r ≥ 0.
// The multipliers are rational and are eliminated exactly
// (poly.EliminateRational); what is left are constraints over the few
// unknowns F involves, mapped back to all unknowns.
func (s *scheduler) farkasRows(ed *deps.Edge, rows []poly.Constraint, bound bool) ([]poly.Constraint, error) {
	sp := ed.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	f := s.form(ed)
	if bound {
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
	// The unknowns F involves, numbered locally.
	var vars []int
	for v := range s.nu {
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
	red, err := poly.EliminateRational(cs, nl+nm, nl)
	if err != nil {
		if errors.Is(err, poly.ErrLimit) {
			return nil, fmt.Errorf("%w: eliminating Farkas multipliers: %v", ErrNoSchedule, err)
		}
		return nil, err
	}
	out := make([]poly.Constraint, len(red))
	for k, r := range red {
		c := make([]int64, s.nu+1)
		for j, v := range vars {
			c[v] = r.Coef[j]
		}
		c[s.nu] = r.Coef[nl]
		out[k] = poly.Constraint{Eq: r.Eq, Coef: c}
	}
	return out, nil
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
				cs, err := s.edgeConstraints(e)
				if err != nil {
					return nil, err
				}
				all = append(all, cs...)
			}
			var err error
			if rows, err = pruneNonNegative(all, s.nu); err != nil {
				return nil, err
			}
			s.groups[key] = rows
		}
		out = append(out, rows...)
	}
	return out, nil
}

// pruneNonNegative returns rows over nu integer unknowns without those
// implied by the others and the non-negativity of every unknown: the rows
// are tightened for integers (poly.NewSet), then pruned over the
// rationals on the unknowns they mention.
func pruneNonNegative(rows []poly.Constraint, nu int) ([]poly.Constraint, error) {
	names := make([]string, nu)
	for v := range names {
		names[v] = fmt.Sprintf("x%d", v)
	}
	set, err := poly.NewSet(poly.Space{Dims: names}, rows...)
	if err != nil {
		return nil, err
	}
	rows = set.Constraints()
	var vars []int
	for v := range nu {
		if usesColumn(rows, v) {
			vars = append(vars, v)
		}
	}
	nl := len(vars)
	local := make([]poly.Constraint, 0, len(rows)+nl)
	for _, r := range rows {
		c := make([]int64, nl+1)
		for j, v := range vars {
			c[j] = r.Coef[v]
		}
		c[nl] = r.Coef[nu]
		local = append(local, poly.Constraint{Eq: r.Eq, Coef: c})
	}
	for j := range nl {
		c := make([]int64, nl+1)
		c[j] = 1
		local = append(local, poly.Constraint{Coef: c})
	}
	local, err = poly.EliminateRational(local, nl, nl)
	if err != nil {
		return nil, err
	}
	var out []poly.Constraint
	for _, r := range local {
		if !r.Eq && isNonNegativity(r.Coef) {
			continue
		}
		c := make([]int64, nu+1)
		for j, v := range vars {
			c[v] = r.Coef[j]
		}
		c[nu] = r.Coef[nl]
		out = append(out, poly.Constraint{Eq: r.Eq, Coef: c})
	}
	return out, nil
}

// isNonNegativity reports whether the row (coefficients then constant)
// reads x_v ≥ 0 for one unknown.
func isNonNegativity(c []int64) bool {
	n := 0
	for _, v := range c[:len(c)-1] {
		switch v {
		case 0:
		case 1:
			n++
		default:
			return false
		}
	}
	return n == 1 && c[len(c)-1] == 0
}
