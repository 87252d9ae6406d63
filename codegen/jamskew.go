package codegen

import (
	"slices"

	"nestor/deps"
	"nestor/ir"
)

// jamSkew returns the nodes replacing l1 when it holds one innermost loop
// l2 that carries a chain of dependent operations (Gauss–Seidel's
// A[i][j-1] feeding A[i][j]) and whose copies along l1 may run side by
// side only with a lag: F = Rows·Cols (at most 8) iterations of l1 run
// together, copy c at b − s·c when l2 is at b:
//
//	for (a = A0; a <= A1 - (F-1); a += F) {
//	  for (b = lo; b <= hi + s·(F-1); b++)
//	    for c in 0 … F-1: if lo <= b − s·c <= hi: Body(a+c, b − s·c)
//	}
//	for (; a <= A1; a++) { the original loop }
//
// split into a prologue, a guard-free middle (lo + s·(F−1) ≤ b ≤ hi) and
// an epilogue. In the middle the F copies are independent chains: each
// runs as the original loop did, and none waits for another within an
// iteration.
//
// Legality and independence come from the dependences of the body's
// statements carried by l1 between iterations fewer than F apart: with
// distances Δa ≥ 1 along l1 and Δb along l2, the instance (a+c, b) runs
// at (b + s·c, c), so every such dependence keeps its order and joins
// different iterations of the new loop when Δb + s·Δa ≥ 1, which
// s = 1 − min Δb (over those dependences) ensures. Dependences within an
// iteration of l1 keep their order (each copy runs its b in order), and
// those between groups of F run as before. l2's bounds must not read l1's
// counter (a rectangle), and the skew must be 1 to 4 (s = 0 is jamPair's
// case, an unskewed jam).
func (j *jammer) jamSkew(l1 *Loop) []Node {
	if j.opt.Deps == nil || len(l1.Pragmas) > 0 || l1.Step != 1 || l1.Dir < 0 || l1.Rest || singleIteration(l1) || len(l1.Body) != 1 {
		return nil
	}
	l2, ok := l1.Body[0].(*Loop)
	if !ok || l2.Level != l1.Level+1 || !innermost(l2) || len(l2.Pragmas) > 0 || l2.Step != 1 || l2.Dir < 0 || l2.Rest ||
		l2.Reduction != nil || singleIteration(l2) || boundsUse(l2, l1.Level) {
		return nil
	}
	for _, l := range []*Loop{l1, l2} {
		if _, point := j.opt.Band(l.Level); !point {
			return nil
		}
	}
	body := plainInstances(l2.Body)
	if body == nil || !leafBounds(l2.Lower) || !leafBounds(l2.Upper) {
		return nil
	}
	rows, cols := j.tile(l1.Level)
	f := min(rows*cols, 8, int64(j.opt.MaxCopies/len(body)))
	if f < 2 {
		return nil
	}
	s, ok := j.skewOf(l1.Level, f, body)
	if !ok || s < 1 || s > maxSkew {
		return nil
	}
	j.count++
	L := l1.Level
	// The copies of the body at b: copy c runs Body(a+c, b − s·c). Where
	// the loop's range does not imply them, a copy runs under the guards
	// lo ≤ b − s·c (low) and b − s·c ≤ hi (high); a copy that never runs
	// in the loop is left out.
	type part struct{ first, last int64 } // the copies present
	copies := func(pt part, low, high func(c int64) bool) []Node {
		var out []Node
		for c := pt.first; c <= pt.last; c++ {
			var conds []Cond
			if low(c) {
				for _, lo := range l2.Lower { // b − s·c − lo ≥ 0
					a := extend(lo.Aff.Neg(), L+2)
					a.Iter[L+1]++
					a.Const -= s * c
					conds = append(conds, Cond{Aff: a})
				}
			}
			if high(c) {
				for _, hi := range l2.Upper { // hi − (b − s·c) ≥ 0
					a := extend(hi.Aff.Clone(), L+2)
					a.Iter[L+1]--
					a.Const += s * c
					conds = append(conds, Cond{Aff: a})
				}
			}
			var ns []Node
			for _, in := range body {
				ns = append(ns, shiftInstance(in, L, c, L+1, -s*c))
			}
			if len(conds) > 0 {
				out = append(out, &If{Conds: conds, Body: ns})
			} else {
				out = append(out, ns...)
			}
		}
		return out
	}
	loop := func(lower, upper []Bound, body []Node) *Loop {
		c := *l2
		c.Lower, c.Upper = lower, upper
		c.NonEmpty = false
		c.Registers, c.BodyRegisters = nil, nil
		c.Body = body
		return &c
	}
	never := func(int64) bool { return false }
	always := func(int64) bool { return true }
	// Over lo ≤ b ≤ hi + lag: the prologue up to lo + lag − 1 (b ≥ lo, and
	// b − s·(F−1) < lo: the last copy does not start there), the middle
	// (every copy in its range) up to hi, the epilogue above both (b > hi:
	// copy 0 is done; b ≥ lo + lag: each copy past its start).
	lag := s * (f - 1)
	lo, hi := l2.Lower, l2.Upper
	pro := loop(lo, append(shiftBounds(lo, lag-1), shiftBounds(hi, lag)...),
		copies(part{0, f - 2}, func(c int64) bool { return c > 0 }, always))
	mid := loop(shiftBounds(lo, lag), hi, copies(part{0, f - 1}, never, never))
	mid.Registers = j.solver.registerArrays(j.p, mid, nil)
	epi := loop(append(shiftBounds(lo, lag), shiftBounds(hi, 1)...), shiftBounds(hi, lag),
		copies(part{1, f - 1}, never, always))
	main := unrolled(l1, f)
	main.Body = []Node{pro, mid, epi}
	r := rest(l1)
	r.Body = l1.Body
	r.BodyRegisters = l1.BodyRegisters
	return []Node{main, r}
}

// maxSkew bounds the lag jamSkew gives each copy.
const maxSkew = 4

// maxChainDistance is the longest distance of a flow dependence along the
// inner loop that makes it a chain worth breaking (A[i][j-1] feeding
// A[i][j] is 1); a longer one leaves independent operations in between.
const maxChainDistance = 2

// skewOf returns the smallest lag s ≥ 0 with Δb + s·Δa ≥ 1 for every
// dependence between the statements of body carried by the loop at level
// fewer than f iterations apart (see jamSkew), false when a distance
// along b is unbounded below or when the inner loop carries no short
// recurrence (no chain for the copies to break: floyd-warshall's j loop
// carries only path[i][k], written at j = k and read at every j).
func (j *jammer) skewOf(level int, f int64, body []*Instance) (int64, bool) {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return 0, false
	}
	in := map[int]bool{}
	for _, x := range body {
		in[x.Stmt] = true
	}
	var s int64
	chain := false
	for _, e := range g.Edges {
		if !in[e.Source] || !in[e.Target] {
			continue
		}
		if e.Depth == level+2 && e.Kind == deps.Flow && level+1 < len(e.Distance) {
			// a recurrence: each iteration feeds one a few later
			if d := e.Distance[level+1]; !d.MaxInf && d.Max <= maxChainDistance {
				chain = true
			}
		}
		if e.Depth != level+1 {
			continue
		}
		if level+1 >= len(e.Distance) {
			return 0, false
		}
		if d := e.Distance[level]; !d.MinInf && d.Min >= f {
			continue
		}
		db := e.Distance[level+1]
		if db.MinInf {
			return 0, false
		}
		s = max(s, 1-db.Min)
	}
	return s, chain
}

// leafBounds reports whether every term of bs is a plain affine leaf
// (denominator 1, no locals): a guard can then restate it.
func leafBounds(bs []Bound) bool {
	return !slices.ContainsFunc(bs, func(b Bound) bool { return b.Of != nil || b.Den != 1 || usesLocals(b.Aff) })
}

// extend returns a with at least n counter coefficients.
func extend(a ir.Aff, n int) ir.Aff {
	if len(a.Iter) < n {
		a.Iter = append(slices.Clone(a.Iter), make([]int64, n-len(a.Iter))...)
	}
	return a
}

// LagJams reports whether the unroll-and-jam pass would run the rows of
// every statement of p with a lag (jamSkew) in p's own order, with the
// register tile rows × cols and g, the dependences of p: sweeps whose
// innermost loops are each one chain of dependent operations, which a
// schedule for parallel tiles would keep as one chain per tile.
func LagJams(p *ir.Program, rows, cols int64, g *deps.Graph) (bool, error) {
	b, err := Build(p)
	if err != nil {
		return false, err
	}
	j := &jammer{p: p, solver: newSolver(p, maxSolverWork), opt: JamOptions{
		Band:      func(int) (int, bool) { return 0, true },
		Tile:      func(int) [2]int64 { return [2]int64{rows, cols} },
		MaxCopies: 64,
		Deps:      func() *deps.Graph { return g },
	}}
	j.depth, j.np = j.solver.depth, j.solver.np
	lagged := map[int]bool{}
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Loop:
				if j.jamSkew(n) != nil {
					walkInstances(n.Body, func(in *Instance) { lagged[in.Stmt] = true })
					continue
				}
				walk(n.Body)
			case *If:
				walk(n.Body)
			case *Block:
				walk(n.Body)
			}
		}
	}
	walk(b.Body)
	return len(lagged) == len(p.Stmts), nil
}
