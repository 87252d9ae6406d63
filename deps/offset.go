package deps

import (
	"nestor/internal/intmath"
	"nestor/ir"
	"nestor/poly"
)

// The offset canonicalization of the LoopModels note (seed 004).
//
// Loops normalized to start at 0, as LLVM's scalar evolution presents them,
// move constants into subscripts: the 0-based triangular solve reads
// A[i][k+j+1] where the 1-based one reads A[i][k]. The dependence systems
// then carry constant offsets (k' = j − j' − 1 instead of k' = j), and a
// Farkas-based scheduler looking for the schedule that lines up loads and
// stores of one address finds it only with a shift ω ≠ 0 between
// statements.
//
// The cure is a change of variables s' = s + δ_S per statement, applied to
// both sides of every dependence system: a subscript L·s + c becomes
// L·s' + (c − L·δ_S), so a well-chosen δ_S cancels the constants. A
// statement's store and the loads feeding it (one nestor statement) must
// move together, so δ_S is chosen for all of S's accesses at once, and only
// when it makes the offsets smaller in total (a shift that removes an
// offset from one access but adds one to another is no simplification).
// The change is invertible: a schedule row φ·s' + ω' found on the shifted
// systems is φ·s + (ω' + φ·δ_S) on the original ones.

// Shift is a change of variables s' = s + Delta[S] for every statement S of
// a program (Delta[S] has one entry per counter of S).
type Shift struct {
	Delta [][]int64
}

// maxShiftCandidates bounds the candidate values tried per counter.
const maxShiftCandidates = 4

// Canonicalize chooses for every statement of p the counter shift that
// minimizes the sum of the absolute constant offsets of its subscripts (ties
// go to the smallest shift), keeping 0 unless the sum strictly decreases.
func Canonicalize(p *ir.Program) Shift {
	sh := Shift{Delta: make([][]int64, len(p.Stmts))}
	for k, s := range p.Stmts {
		sh.Delta[k] = bestShift(s)
	}
	return sh
}

// bestShift searches the product of per-counter candidates: 0 and every
// value that zeroes the offset of a subscript whose only counter is that
// one with a unit coefficient, or that has a unit coefficient on it.
func bestShift(s *ir.Stmt) []int64 {
	d := s.Depth()
	cands := make([][]int64, d)
	for v := range d {
		cands[v] = []int64{0}
		for _, a := range s.Accesses {
			for _, x := range a.Index {
				if c := x.Iter[v]; (c == 1 || c == -1) && len(cands[v]) < maxShiftCandidates {
					val := x.Const * c // c·δ_v = Const zeroes this subscript's offset alone
					if !contains(cands[v], val) {
						cands[v] = append(cands[v], val)
					}
				}
			}
		}
	}
	best := make([]int64, d)
	bestCost, bestNorm := offsetCost(s, best), int64(0)
	cur := make([]int64, d)
	var walk func(v int)
	walk = func(v int) {
		if v == d {
			c, n := offsetCost(s, cur), norm1(cur)
			if c < bestCost || c == bestCost && n < bestNorm && c < offsetCost(s, make([]int64, d)) {
				best, bestCost, bestNorm = append([]int64(nil), cur...), c, n
			}
			return
		}
		for _, x := range cands[v] {
			cur[v] = x
			walk(v + 1)
		}
	}
	walk(0)
	return best
}

// offsetCost is Σ |c − L·δ| over every subscript of s.
func offsetCost(s *ir.Stmt, delta []int64) int64 {
	var sum int64
	for _, a := range s.Accesses {
		for _, x := range a.Index {
			c := x.Const
			for v, l := range x.Iter {
				c -= l * delta[v]
			}
			sum += intmath.Abs(c)
		}
	}
	return sum
}

func norm1(xs []int64) int64 {
	var n int64
	for _, x := range xs {
		n += intmath.Abs(x)
	}
	return n
}

func contains(xs []int64, x int64) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// IsZero reports whether sh moves nothing.
func (sh Shift) IsZero() bool {
	for _, d := range sh.Delta {
		for _, x := range d {
			if x != 0 {
				return false
			}
		}
	}
	return true
}

// Shifted returns the graph with every dependence system rewritten in the
// shifted counters: a row a_s·s + a_t·t + rest becomes
// a_s·s' + a_t·t' + rest − a_s·δ_S − a_t·δ_T, and every distance moves by
// Dir·(δ_T − δ_S). g is not modified.
func (g *Graph) Shifted(sh Shift) (*Graph, error) {
	out := &Graph{Prog: g.Prog}
	for _, e := range g.Edges {
		ds := g.Prog.Stmts[e.Source].Depth()
		dS, dT := sh.Delta[e.Source], sh.Delta[e.Target]
		rows := e.Set.Constraints()
		for k := range rows {
			c := rows[k].Coef
			last := len(c) - 1
			for v, x := range dS {
				c[last] -= c[v] * x
			}
			for v, x := range dT {
				c[last] -= c[ds+v] * x
			}
		}
		set, err := poly.NewSet(e.Set.Space(), rows...)
		if err != nil {
			return nil, err
		}
		ne := *e
		ne.Set = set
		ne.Distance = append([]Interval(nil), e.Distance...)
		dir := g.Prog.Stmts[e.Source].Dir
		for k := range ne.Distance {
			m := int64(dir[k]) * (dT[k] - dS[k])
			ne.Distance[k].Min += m
			ne.Distance[k].Max += m
		}
		out.Edges = append(out.Edges, &ne)
	}
	return out, nil
}
