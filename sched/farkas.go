package sched

import (
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
