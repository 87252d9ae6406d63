package codegen

import (
	"slices"
	"strings"

	"nestor/ir"
	"nestor/poly"
)

// Splitting at a collision. An innermost loop may read an element that
// does not move with its counter while another of its accesses, which
// moves, names that element at one value of the counter: floyd-warshall's
// j loop reads path[i][k] and writes path[i][j], the same element when
// j = k. Scalar replacement (scalar.go) cannot keep path[i][k] in a
// variable, and a C compiler must assume every store may change it: the
// loop stays scalar (gcc versions it for aliasing, and the check fails
// whenever the loop's range holds k).
//
// SplitCollisions cuts such a loop at that value e into three pieces: the
// iterations below e, the one at e (a guard around the body with the
// counter replaced by e) and those above, run in the loop's direction.
// They are the same instances in the same order, so the split is legal
// whatever the dependences. Below and above e every moving access
// provably names another element, so those pieces keep the fixed element
// in a variable and vectorize.

// maxCollideInstances bounds the statement instances of a loop that is
// split (each of the three pieces copies them): a jammed loop holds one per
// copy.
const maxCollideInstances = 16

// SplitCollisions splits the innermost loops of b at their collisions and
// returns how many it split. It runs on the finished loop AST, after the
// passes that reshape loops (unroll-and-jam, packing, reductions): a
// split loop is no longer a perfect nest's innermost loop.
func SplitCollisions(p *ir.Program, b *Block) int {
	c := &collider{p: p, s: newSolver(p, maxSolverWork)}
	b.Body = c.nodes(b.Body, nil)
	return c.count
}

type collider struct {
	p     *ir.Program
	s     *solver
	count int
}

func (c *collider) nodes(ns []Node, known []poly.Constraint) []Node {
	depth, np := c.s.depth, c.s.np
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			n.Body = c.nodes(n.Body, known)
		case *If:
			inner := slices.Clone(known)
			for _, d := range n.Conds {
				if d.Mod == 0 && !usesLocals(d.Aff) {
					inner = append(inner, toPoly(d.Aff, d.Eq, depth, np))
				}
			}
			n.Body = c.nodes(n.Body, inner)
		case *Loop:
			inner := slices.Clone(known)
			if n.Step == 1 {
				inner = append(inner, boundRows(n.Lower, n.Level, true, depth, np)...)
				inner = append(inner, boundRows(n.Upper, n.Level, false, depth, np)...)
			}
			if pieces := c.split(n, known, inner); pieces != nil {
				c.count++
				out = append(out, pieces...)
				continue
			}
			n.Body = c.nodes(n.Body, inner)
		}
		out = append(out, n)
	}
	return out
}

// split returns the pieces replacing innermost loop l (see above), or nil
// when l has no collision to split at. known holds the facts of the
// enclosing loops and guards, inner those and l's bounds.
func (c *collider) split(l *Loop, known, inner []poly.Constraint) []Node {
	if !innermost(l) || l.Step != 1 || l.Rest || l.Reduction != nil || singleIteration(l) ||
		slices.ContainsFunc(l.Pragmas, func(p string) bool { return p != "omp simd" && !strings.HasPrefix(p, "GCC unroll") }) ||
		len(l.Body) > maxCollideInstances || !all(l.Body, isInstance) {
		return nil
	}
	at, ok := c.point(l, inner)
	if !ok {
		return nil
	}
	below, above := copyLoop(l), copyLoop(l)
	below.Body, above.Body = cloneInstances(l.Body), cloneInstances(l.Body)
	last := at.Clone()
	last.Const--
	below.Upper = append(slices.Clone(l.Upper), Bound{Aff: last, Den: 1})
	first := at.Clone()
	first.Const++
	above.Lower = append(slices.Clone(l.Lower), Bound{Aff: first, Den: 1})

	// The piece at e: the body once, with the counter equal to e, where
	// e lies in l's range.
	mid := copyLoop(l)
	mid.Body = cloneInstances(l.Body)
	var conds []Cond
	leaves := all(l.Lower, plainBound) && all(l.Upper, plainBound)
	if leaves {
		for _, b := range l.Lower {
			conds = append(conds, Cond{Aff: at.Sub(b.Aff)}) // e ≥ lower
		}
		for _, b := range l.Upper {
			conds = append(conds, Cond{Aff: b.Aff.Sub(at)}) // e ≤ upper
		}
		conds = slices.DeleteFunc(conds, func(d Cond) bool { return c.s.guardImplied(known, d) })
		mid.Lower, mid.Upper = []Bound{{Aff: at.Clone(), Den: 1}}, []Bound{{Aff: at.Clone(), Den: 1}}
		mid.Pragmas = nil
		substitute(mid.Body, l.Level, at)
	} else {
		mid.Lower = append(slices.Clone(l.Lower), Bound{Aff: at.Clone(), Den: 1})
		mid.Upper = append(slices.Clone(l.Upper), Bound{Aff: at.Clone(), Den: 1})
	}

	depth, np := c.s.depth, c.s.np
	for _, q := range []*Loop{below, mid, above} {
		q.Lower = c.s.dropDominated(known, q.Lower, true)
		q.Upper = c.s.dropDominated(known, q.Upper, false)
		q.NonEmpty = c.s.nonEmpty(known, q)
		rows := append(slices.Clone(known), boundRows(q.Lower, q.Level, true, depth, np)...)
		rows = append(rows, boundRows(q.Upper, q.Level, false, depth, np)...)
		q.Registers = c.s.registerArrays(c.p, q, rows)
		q.BodyRegisters = c.s.bodyRegisters(c.p, q, rows)
	}
	var middle Node = mid
	if leaves && len(conds) > 0 {
		middle = &If{Conds: conds, Body: []Node{mid}}
	}
	if l.Dir < 0 {
		return []Node{above, middle, below}
	}
	return []Node{below, middle, above}
}

// point returns the one value of l's counter, an affine form of the outer
// counters and the parameters, at which l's accesses collide: for every
// array some of whose accesses do not move with the counter, those name
// provably distinct elements, and each access that moves either provably
// names none of them (inner holds the facts there) or names one exactly
// where the counter equals the value. It reports false when there is no
// such value, or when two arrays collide at different ones.
func (c *collider) point(l *Loop, inner []poly.Constraint) (ir.Aff, bool) {
	order, byArray := loopAccesses(c.p, l)
	var at *ir.Aff
	for _, a := range order {
		fixed := fixedElems(byArray[a])
		if len(fixed) == 0 || len(fixed) > maxRegisterElems || !pairwiseDistinct(c.s, inner, fixed) {
			continue
		}
		var here *ir.Aff
		ok := true
		for _, x := range byArray[a] {
			if !x.moves {
				continue
			}
			for _, f := range fixed {
				if !ok || c.s.distinct(inner, f, x.sub) {
					continue
				}
				e, found := collision(f, x.sub, l.Level)
				switch {
				case !found, here != nil && !here.Equal(e):
					ok = false
				case here == nil:
					here = &e
				}
			}
		}
		if !ok || here == nil {
			continue
		}
		if at != nil && !at.Equal(*here) {
			return ir.Aff{}, false
		}
		at = here
	}
	if at == nil {
		return ir.Aff{}, false
	}
	return *at, true
}

// collision returns the value of the counter at level k at which
// subscripts x, which move with it, name element f, when one subscript
// fixes it: their difference is ±counter plus a form of the outer
// counters and the parameters.
func collision(f, x []ir.Aff, k int) (ir.Aff, bool) {
	for j := range x {
		d := x[j].Sub(f[j])
		if usesLocals(d) || k >= len(d.Iter) || (d.Iter[k] != 1 && d.Iter[k] != -1) || !allZero(d.Iter[k+1:]) {
			continue
		}
		a := d.Iter[k]
		r := d.Clone()
		r.Iter[k] = 0
		r.Local = nil
		if a == 1 {
			return r.Neg(), true // t + r = 0
		}
		return r, true // −t + r = 0
	}
	return ir.Aff{}, false
}

// loopAccess is an access of an innermost loop's body, its subscripts
// over the loop counters.
type loopAccess struct {
	sub   []ir.Aff
	moves bool // with the loop's counter
}

// loopAccesses returns the accesses to arrays of innermost loop l, whose
// body holds only statement instances, by array, and the arrays in the
// order of their first access.
func loopAccesses(p *ir.Program, l *Loop) ([]int, map[int][]loopAccess) {
	byArray := map[int][]loopAccess{}
	var order []int
	for _, n := range l.Body {
		in := n.(*Instance)
		for _, a := range p.Stmts[in.Stmt].Accesses {
			if len(a.Index) == 0 {
				continue
			}
			x := loopAccess{sub: make([]ir.Aff, len(a.Index))}
			for j, ix := range a.Index {
				x.sub[j] = compose(ix, in.Iters)
				x.moves = x.moves || (l.Level < len(x.sub[j].Iter) && x.sub[j].Iter[l.Level] != 0)
			}
			if _, seen := byArray[a.Array]; !seen {
				order = append(order, a.Array)
			}
			byArray[a.Array] = append(byArray[a.Array], x)
		}
	}
	return order, byArray
}

// pairwiseDistinct reports whether the elements are provably distinct
// from one another.
func pairwiseDistinct(s *solver, known []poly.Constraint, elems [][]ir.Aff) bool {
	for i := range elems {
		for j := range i {
			if !s.distinct(known, elems[j], elems[i]) {
				return false
			}
		}
	}
	return true
}

// fixedElems returns the distinct elements that the accesses which do
// not move name.
func fixedElems(xs []loopAccess) [][]ir.Aff {
	var fixed [][]ir.Aff
	for _, x := range xs {
		if !x.moves && !slices.ContainsFunc(fixed, func(f []ir.Aff) bool { return sameSubscripts(f, x.sub) }) {
			fixed = append(fixed, x.sub)
		}
	}
	return fixed
}

// cloneInstances returns copies of the statement instances ns.
func cloneInstances(ns []Node) []Node {
	out := make([]Node, len(ns))
	for k, n := range ns {
		in := n.(*Instance)
		out[k] = &Instance{Stmt: in.Stmt, Iters: slices.Clone(in.Iters)}
	}
	return out
}
