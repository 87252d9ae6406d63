// Package irpoly is the one bridge from the IR's affine forms to poly's
// constraint rows: where a statement's counters, its floor-division locals
// and the parameters sit in a row, and how a domain's locals are encoded
// (den·q ≤ num ≤ den·q + den − 1). deps, expand, codegen and sched build
// their systems through it.
package irpoly

import (
	"fmt"
	"slices"

	"nestor/ir"
	"nestor/poly"
)

// Layout is a row of Dims variables (the counters and locals of one or more
// statements, wherever each caller places them), then Params parameters,
// then the constant.
type Layout struct {
	Dims, Params int
}

// Of returns the layout of dims variables with p's parameters.
func Of(p *ir.Program, dims int) Layout { return Layout{Dims: dims, Params: len(p.Params)} }

// Row returns the coefficients of a with its counters from dim iter and its
// locals from dim local.
func (l Layout) Row(a ir.Aff, iter, local int) []int64 {
	r := make([]int64, l.Dims+l.Params+1)
	copy(r[iter:], a.Iter)
	copy(r[local:], a.Local)
	copy(r[l.Dims:], a.Param)
	r[l.Dims+l.Params] = a.Const
	return r
}

// Cons returns the rows of cs (their counters from dim iter, their locals
// from dim local).
func (l Layout) Cons(cs []ir.Constraint, iter, local int) []poly.Constraint {
	out := make([]poly.Constraint, len(cs))
	for k, c := range cs {
		out[k] = poly.Constraint{Eq: c.Eq, Coef: l.Row(c.Aff, iter, local)}
	}
	return out
}

// Domain returns the rows of d, its counters from dim iter and its locals
// from dim local, each local q defined by den·q ≤ num ≤ den·q + den − 1.
func (l Layout) Domain(d ir.Domain, iter, local int) []poly.Constraint {
	cs := l.Cons(d.Cons, iter, local)
	for k, dv := range d.Divs {
		lo := l.Row(dv.Num, iter, local) // num − den·q ≥ 0
		lo[local+k] -= dv.Den
		hi := make([]int64, len(lo)) // den·q + den − 1 − num ≥ 0
		for j := range lo {
			hi[j] = -lo[j]
		}
		hi[len(hi)-1] += dv.Den - 1
		cs = append(cs, poly.Constraint{Coef: lo}, poly.Constraint{Coef: hi})
	}
	return cs
}

// Stmt returns the space of s alone (its counters, its locals q0, q1, …,
// p's parameters), its layout, and the rows of its domain and of p's
// context.
func Stmt(p *ir.Program, s *ir.Stmt) (poly.Space, Layout, []poly.Constraint) {
	d := s.Depth()
	dims := slices.Clone(s.Iters)
	for k := range s.Domain.Divs {
		dims = append(dims, fmt.Sprintf("q%d", k))
	}
	l := Of(p, len(dims))
	rows := append(l.Domain(s.Domain, 0, d), l.Cons(p.Context, 0, d)...)
	return poly.Space{Dims: dims, Params: ir.ParamNames(p)}, l, rows
}

// Anonymous returns a space of dims counters and params parameters with
// generated names, for systems that no message shows.
func Anonymous(dims, params int) poly.Space {
	sp := poly.Space{Dims: make([]string, dims), Params: make([]string, params)}
	for k := range sp.Dims {
		sp.Dims[k] = fmt.Sprintf("x%d", k)
	}
	for k := range sp.Params {
		sp.Params[k] = fmt.Sprintf("p%d", k)
	}
	return sp
}

// Implies reports whether every integer point of base (constraints in
// space sp) satisfies each of rows: for a row c ≥ 0, base ∧ −c − 1 ≥ 0
// has no integer point (for c = 0, also base ∧ c − 1 ≥ 0). A question
// poly cannot decide (a search limit) answers no.
func Implies(sp poly.Space, base, rows []poly.Constraint) (bool, error) {
	for _, c := range rows {
		neg := make([]int64, len(c.Coef))
		for k, v := range c.Coef {
			neg[k] = -v
		}
		neg[len(neg)-1]--
		negs := [][]int64{neg}
		if c.Eq {
			pos := slices.Clone(c.Coef)
			pos[len(pos)-1]--
			negs = append(negs, pos)
		}
		for _, n := range negs {
			set, err := poly.NewSet(sp, append(slices.Clone(base), poly.Constraint{Coef: n})...)
			if err != nil {
				return false, err
			}
			if empty, err := set.IsEmpty(); err != nil || !empty {
				return false, nil
			}
		}
	}
	return true, nil
}
