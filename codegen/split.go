package codegen

import "slices"

// Index-set splitting at guards. When statements of a loop have
// different ranges (a skewed stencil: one statement stops a step before
// the other), Build gives the loop the union of their ranges and each
// statement a guard that bounds the loop's counter. Every iteration then
// tests the guards, and a compiler neither vectorizes nor pipelines the
// loop well. splitGuards cuts the loop's range where such a guard
// changes value: below and above the cut are two loops, the guard
// removed from one and its statements from the other, so the middle
// piece, where every statement runs, has no guard at all.
//
// The pieces run in the order of the counter (reversed for a downward
// loop) and each runs exactly the iterations of its range with the
// statements whose guards hold there: the same instances in the same
// order. Pieces that are empty, and guards that a piece's bounds imply,
// are removed by simplify afterwards.

const (
	// maxSplitPieces bounds the loops one loop is split into.
	maxSplitPieces = 9
	// maxSplitInstances bounds the statement instances under a loop that
	// is split: every piece copies them.
	maxSplitInstances = 8
)

// splitGuards returns the loops l splits into at the guards under it
// that bound its counter, in execution order, or nil when it has no such
// guard or would split into too many pieces.
func splitGuards(l *Loop) []*Loop {
	if l.Step != 1 || l.Rest || countInstances(l.Body) > maxSplitInstances {
		return nil
	}
	if _, ok := boundingCond(l.Body, l.Level); !ok {
		return nil
	}
	pieces := []*Loop{l}
	for {
		var next []*Loop
		for _, q := range pieces {
			c, ok := boundingCond(q.Body, q.Level)
			if !ok {
				next = append(next, q)
				continue
			}
			lo, hi := splitAt(q, c)
			if q.Dir < 0 {
				lo, hi = hi, lo
			}
			next = append(next, lo, hi)
		}
		if len(next) > maxSplitPieces {
			return nil
		}
		if len(next) == len(pieces) {
			return pieces
		}
		pieces = next
	}
}

// boundingCond returns the first guard under ns that bounds the counter
// at level k, an inequality of that counter and outer ones, around
// statements (a guard around a loop costs one test per execution of the
// loop, not one per iteration).
func boundingCond(ns []Node, k int) (Cond, bool) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			if c, ok := boundingCond(n.Body, k); ok {
				return c, true
			}
		case *Loop:
			if c, ok := boundingCond(n.Body, k); ok {
				return c, true
			}
		case *If:
			for _, c := range n.Conds {
				if bounds(c, k) && slices.ContainsFunc(n.Body, runsInstance) {
					return c, true
				}
			}
			if c, ok := boundingCond(n.Body, k); ok {
				return c, true
			}
		}
	}
	return Cond{}, false
}

func isInstance(n Node) bool {
	_, ok := n.(*Instance)
	return ok
}

// runsInstance reports whether n is a statement instance or a loop of one
// iteration (printed as its body: a dimension the statement keeps
// constant, ludcmp's solves' loop around its factorization) that holds
// one: a guard around it is tested once per iteration of the loop
// outside.
func runsInstance(n Node) bool {
	if l, ok := n.(*Loop); ok && singleIteration(l) {
		return slices.ContainsFunc(l.Body, runsInstance)
	}
	return isInstance(n)
}

// bounds reports whether guard c is an inequality whose innermost
// counter is the one at level k.
func bounds(c Cond, k int) bool {
	if c.Eq || c.Mod > 0 || usesLocals(c.Aff) || k >= len(c.Aff.Iter) || c.Aff.Iter[k] == 0 {
		return false
	}
	return allZero(c.Aff.Iter[k+1:])
}

// splitAt returns the part of q below the point where guard c changes
// value and the part from that point up.
func splitAt(q *Loop, c Cond) (lo, hi *Loop) {
	k := q.Level
	a := c.Aff.Iter[k]
	r := c.Aff.Clone() // c is a·t + r ≥ 0
	r.Iter[k] = 0
	lo, hi = copyLoop(q), copyLoop(q)
	if a > 0 {
		// Holds from t ≥ ⌈−r/a⌉: false below, true above.
		below := r.Neg()
		below.Const--
		lo.Upper = append(slices.Clone(q.Upper), normBound(below, a, false))
		hi.Lower = append(slices.Clone(q.Lower), normBound(r.Neg(), a, true))
		lo.Body, hi.Body = withGuard(q.Body, c, false), withGuard(q.Body, c, true)
	} else {
		// Holds up to t ≤ ⌊r/−a⌋: true below, false above.
		above := r.Clone()
		above.Const++
		lo.Upper = append(slices.Clone(q.Upper), normBound(r.Clone(), -a, false))
		hi.Lower = append(slices.Clone(q.Lower), normBound(above, -a, true))
		lo.Body, hi.Body = withGuard(q.Body, c, true), withGuard(q.Body, c, false)
	}
	return lo, hi
}

// copyLoop returns a copy of l for a piece: no facts about its range or
// registers, which simplify recomputes.
func copyLoop(l *Loop) *Loop {
	m := *l
	m.NonEmpty = false
	m.Registers, m.BodyRegisters = nil, nil
	m.Pragmas = slices.Clone(l.Pragmas)
	return &m
}

// withGuard returns a copy of ns where guard c is known to be true
// (holds) or false: an If testing c loses that test, or is dropped.
func withGuard(ns []Node, c Cond, holds bool) []Node {
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			out = append(out, &Block{Body: withGuard(n.Body, c, holds)})
		case *Loop:
			m := copyLoop(n)
			m.Body = withGuard(n.Body, c, holds)
			out = append(out, m)
		case *If:
			at := slices.IndexFunc(n.Conds, c.equal)
			switch {
			case at < 0:
				out = append(out, &If{Conds: n.Conds, Body: withGuard(n.Body, c, holds)})
			case !holds:
				// The statements do not run here.
			case len(n.Conds) == 1:
				out = append(out, withGuard(n.Body, c, holds)...)
			default:
				out = append(out, &If{Conds: slices.Delete(slices.Clone(n.Conds), at, at+1), Body: withGuard(n.Body, c, holds)})
			}
		case *Instance:
			out = append(out, &Instance{Stmt: n.Stmt, Iters: slices.Clone(n.Iters)})
		default:
			out = append(out, n)
		}
	}
	return out
}

// countInstances returns the number of statement instances under ns.
func countInstances(ns []Node) int {
	count := 0
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			count += countInstances(n.Body)
		case *Loop:
			count += countInstances(n.Body)
		case *If:
			count += countInstances(n.Body)
		case *Instance:
			count++
		}
	}
	return count
}
