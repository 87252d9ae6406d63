// Package iss splits a statement's iterations at a hyperplane where its
// loop-carried dependences start or end (index-set splitting), so that
// the pieces' loops carry none.
//
// floyd-warshall's update path[i][j] = min(path[i][j], path[i][k] +
// path[k][j]) carries dependences along i within one k: row k, written at
// i = k, is read by every other row, before (anti) and after (flow) it is
// written. Every such dependence has an end on the hyperplane i = k. Split
// there, the i loop becomes three loops run one after another — the rows
// below k, row k, the rows above — and the first and last carry no
// dependence: each row of them can run in parallel.
//
// The three loops run exactly the instances of the one loop, in the same
// order (the pieces follow the loop's direction), so the split program is
// the original program written differently: the dependence analysis and
// the scheduler then see the pieces as statements of their own.
package iss

import (
	"fmt"
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// Split is one statement split by Program.
type Split struct {
	Stmt  int    // its index, kept by the piece that runs first
	Level int    // the loop (0-based) split
	At    ir.Aff // the hyperplane: counter Level = At, a form of the outer counters and the parameters
	New   []int  // the indices of the other pieces (appended to Stmts)
}

// maxWork bounds the polyhedral work of one call (poly.Work units): past
// it the remaining statements are not split.
const maxWork = 1 << 24

// Program returns p with its statements split where their carried
// dependences (g, p's dependence graph) allow and gain (see above), and
// the splits; p itself is not modified. A statement is split at most once,
// at the outermost loop that qualifies; innermost loops are left to code
// generation, which splits them at collisions.
func Program(p *ir.Program, g *deps.Graph) (*ir.Program, []Split) {
	if g == nil || g.Exhausted {
		return p, nil
	}
	w := poly.NewWork(maxWork)
	var out *ir.Program
	var splits []Split
	for s := range p.Stmts {
		q := p
		if out != nil {
			q = out
		}
		lvl, at, pieces, ok := choose(q, g, s, w)
		if !ok {
			continue
		}
		if out == nil {
			out = clone(p)
		}
		splits = append(splits, apply(out, s, lvl, at, pieces))
	}
	if out == nil {
		return p, nil
	}
	return out, splits
}

// choose returns the level and hyperplane to split statement s of p at,
// and which of its pieces (below, on, above the hyperplane) hold
// instances.
func choose(p *ir.Program, g *deps.Graph, s int, w *poly.Work) (int, ir.Aff, [3]bool, bool) {
	st := p.Stmts[s]
	d := st.Depth()
	for lvl := 1; lvl <= d-2; lvl++ {
		if !alone(p, s, lvl) {
			continue
		}
		var carried []*deps.Edge
		unsure := false
		for _, e := range g.Edges {
			if e.Source == s && e.Target == s && e.Depth == lvl+1 {
				carried = append(carried, e)
				unsure = unsure || e.Unsure
			}
		}
		if len(carried) == 0 || unsure {
			continue
		}
		for _, at := range candidates(st, lvl) {
			if !endsOn(carried, d, len(p.Params), lvl, at, w) {
				continue
			}
			pieces, ok := nonEmpty(p, st, lvl, at, w)
			if ok && pieces[1] && (pieces[0] || pieces[2]) {
				return lvl, at, pieces, true
			}
		}
	}
	return 0, ir.Aff{}, [3]bool{}, false
}

// alone reports whether statement s is the only statement in its loop at
// level lvl.
func alone(p *ir.Program, s, lvl int) bool {
	b := p.Stmts[s].Beta
	for t, o := range p.Stmts {
		if t != s && o.Depth() > lvl && slices.Equal(o.Beta[:lvl+1], b[:lvl+1]) {
			return false
		}
	}
	return true
}

// candidates returns the hyperplanes counter lvl = At that two accesses of
// st to one array suggest: a subscript of one minus the same subscript of
// the other is ±(counter lvl − At), At a form of the outer counters and
// the parameters (path[i][j] and path[k][j]: i = k).
func candidates(st *ir.Stmt, lvl int) []ir.Aff {
	var out []ir.Aff
	for x, a := range st.Accesses {
		for _, b := range st.Accesses[x+1:] {
			if a.Array != b.Array || len(a.Index) != len(b.Index) {
				continue
			}
			for q := range a.Index {
				d := a.Index[q].Sub(b.Index[q])
				if lvl >= len(d.Iter) || (d.Iter[lvl] != 1 && d.Iter[lvl] != -1) || slices.ContainsFunc(d.Iter[lvl+1:], nonZero) || slices.ContainsFunc(d.Local, nonZero) {
					continue
				}
				// d = c·t + r with c = ±1: t = −r/c.
				at := d.Clone()
				c := at.Iter[lvl]
				at.Iter[lvl] = 0
				if c == 1 {
					at = at.Neg()
				}
				at.Local = nil
				if !slices.ContainsFunc(out, at.Equal) {
					out = append(out, at)
				}
			}
		}
	}
	return out
}

// endsOn reports whether every edge of carried (self-dependences of a
// statement of depth d) has its source or its target on counter lvl = at.
func endsOn(carried []*deps.Edge, d, np, lvl int, at ir.Aff, w *poly.Work) bool {
	for _, e := range carried {
		sp := e.Set.Space()
		nd := sp.NDim()
		// h(x) = x_lvl − at(x) over the source (dims 0..d) or the target
		// (dims d..2d).
		h := func(off int, sign int64) []int64 {
			r := make([]int64, nd+np+1)
			r[off+lvl] = sign
			for k, c := range at.Iter {
				r[off+k] -= sign * c
			}
			for k, c := range at.Param {
				r[nd+k] -= sign * c
			}
			r[nd+np] = -sign*at.Const - 1 // sign·h − 1 ≥ 0
			return r
		}
		for _, sign := range []int64{1, -1} {
			// Both ends strictly on one side of the hyperplane.
			set, err := e.Set.With(poly.Constraint{Coef: h(0, sign)}, poly.Constraint{Coef: h(d, sign)})
			if err != nil {
				return false
			}
			empty, err := set.IsEmptyWork(w)
			if err != nil || !empty {
				return false
			}
		}
	}
	return true
}

// nonEmpty reports which pieces of st's domain, below, on and above
// counter lvl = at, hold instances.
func nonEmpty(p *ir.Program, st *ir.Stmt, lvl int, at ir.Aff, w *poly.Work) ([3]bool, bool) {
	sp, lay, rows := irpoly.Stmt(p, st)
	var out [3]bool
	for k, c := range pieceCons(st, lvl, at) {
		set, err := poly.NewSet(sp, append(slices.Clone(rows), lay.Cons([]ir.Constraint{c}, 0, st.Depth())...)...)
		if err != nil {
			return out, false
		}
		empty, err := set.IsEmptyWork(w)
		if err != nil {
			return out, false
		}
		out[k] = !empty
	}
	return out, true
}

// pieceCons returns the constraints of the pieces below, on and above
// counter lvl = at, for statement st: over its counters, the parameters
// and its domain's locals (at reads none: a stride's local, k -= 2, is
// zero in them).
func pieceCons(st *ir.Stmt, lvl int, at ir.Aff) [3]ir.Constraint {
	d := st.Depth()
	h := at.Clone() // at − t
	h.Iter = append(h.Iter, make([]int64, max(0, d-len(h.Iter)))...)
	h.Local = make([]int64, len(st.Domain.Divs))
	h = h.Neg()
	h.Iter[lvl] = 1 // t − at
	below := h.Neg()
	below.Const-- // at − t − 1 ≥ 0
	above := h.Clone()
	above.Const-- // t − at − 1 ≥ 0
	return [3]ir.Constraint{{Aff: below}, {Aff: h.Clone(), Eq: true}, {Aff: above}}
}

// apply splits statement s of p (a copy the caller owns) at counter lvl =
// at into its non-empty pieces: s keeps the piece that runs first, the
// others are appended; the pieces get consecutive positions at level lvl,
// and the statements after s's loop at that level move over.
func apply(p *ir.Program, s, lvl int, at ir.Aff, pieces [3]bool) Split {
	st := p.Stmts[s]
	cons := pieceCons(st, lvl, at)
	order := []int{0, 1, 2}
	if st.Dir[lvl] < 0 {
		order = []int{2, 1, 0}
	}
	var made []*ir.Stmt
	for _, k := range order {
		if !pieces[k] {
			continue
		}
		c := cloneStmt(st)
		c.Domain.Cons = append(c.Domain.Cons, cons[k])
		c.Beta[lvl] += len(made)
		made = append(made, c)
	}
	shift := len(made) - 1
	b := st.Beta
	for _, o := range p.Stmts {
		if o != st && len(o.Beta) > lvl && slices.Equal(o.Beta[:lvl], b[:lvl]) && o.Beta[lvl] > b[lvl] {
			o.Beta = slices.Clone(o.Beta)
			o.Beta[lvl] += shift
		}
	}
	sp := Split{Stmt: s, Level: lvl, At: at}
	p.Stmts[s] = made[0]
	for _, c := range made[1:] {
		c.Name = freshName(p)
		sp.New = append(sp.New, len(p.Stmts))
		p.Stmts = append(p.Stmts, c)
	}
	return sp
}

// freshName returns S<n> for the first n no statement of p is named.
func freshName(p *ir.Program) string {
	for n := len(p.Stmts); ; n++ {
		name := fmt.Sprintf("S%d", n)
		if !slices.ContainsFunc(p.Stmts, func(s *ir.Stmt) bool { return s.Name == name }) {
			return name
		}
	}
}

func clone(p *ir.Program) *ir.Program {
	q := *p
	q.Stmts = slices.Clone(p.Stmts)
	return &q
}

// cloneStmt returns a copy of st whose domain, beta vector and accesses
// may be changed without changing st (the body, which names accesses by
// index, is shared).
func cloneStmt(st *ir.Stmt) *ir.Stmt {
	c := *st
	c.Beta = slices.Clone(st.Beta)
	c.Dir = slices.Clone(st.Dir)
	c.Iters = slices.Clone(st.Iters)
	c.Domain = ir.Domain{Divs: slices.Clone(st.Domain.Divs), Cons: slices.Clone(st.Domain.Cons)}
	c.Accesses = make([]*ir.Access, len(st.Accesses))
	for k, a := range st.Accesses {
		idx := make([]ir.Aff, len(a.Index))
		for j, x := range a.Index {
			idx[j] = x.Clone()
		}
		c.Accesses[k] = &ir.Access{Array: a.Array, Write: a.Write, Index: idx}
	}
	return &c
}

func nonZero(x int64) bool { return x != 0 }
