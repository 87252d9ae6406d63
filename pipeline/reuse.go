package pipeline

import (
	"math"
	"slices"

	"nestor/ir"
	"nestor/sched"
)

// splitRead is an element read that the original order shares between
// two statements and a schedule splits.
type splitRead struct {
	Array int
	S, T  int // the two statements
}

// splitReads returns an array larger than cache bytes (or of sizes not
// known as constants) of which two statements read the same element in
// the same iteration of all their loops in p's original order, and which
// sc runs in different iterations: the original order streams the array
// once for both, the schedule twice (bicg: s[j] += r[i]*A[i][j] and q[i]
// += A[i][j]*p[j], which the scheduler aligns with i and j swapped for an
// outer parallel loop). It reports false when there is none.
func splitReads(p *ir.Program, sc *sched.Schedule, cache int64) (splitRead, bool) {
	for _, st := range p.Stmts {
		if !unitStrides(p, st) {
			return splitRead{}, false
		}
	}
	for s, st := range p.Stmts {
		for t := s + 1; t < len(p.Stmts); t++ {
			tt := p.Stmts[t]
			d := st.Depth()
			if d == 0 || tt.Depth() != d || ir.CommonLoops(st, tt) != d ||
				len(st.Domain.Divs) > 0 || len(tt.Domain.Divs) > 0 || together(sc.Rows[s], sc.Rows[t]) {
				continue
			}
			for _, a := range st.Accesses {
				if (a.Write && st.Op == ir.Assign) || arrayBytes(p.Arrays[a.Array]) <= cache {
					continue
				}
				for _, b := range tt.Accesses {
					if b.Array == a.Array && (!b.Write || tt.Op != ir.Assign) && slices.EqualFunc(a.Index, b.Index, ir.Aff.Equal) {
						return splitRead{Array: a.Array, S: s, T: t}, true
					}
				}
			}
		}
	}
	return splitRead{}, false
}

// together reports whether two statements with schedule rows r and q run
// each point in the same iteration of every loop: their rows agree up to
// the last loop dimension of either (the scalar dimensions after it only
// order them inside the iteration).
func together(r, q []ir.Aff) bool {
	last := -1
	for k := range min(len(r), len(q)) {
		if !r[k].IsConst() || !q[k].IsConst() {
			last = k
		}
	}
	for k := 0; k <= last; k++ {
		if !r[k].Equal(q[k]) {
			return false
		}
	}
	return true
}

// arrayBytes returns the size of an array in bytes, MaxInt64 when a size
// is not a positive constant or the product overflows (footprint and
// splitReads read it).
func arrayBytes(arr *ir.Array) int64 {
	size := int64(arr.Elem.Size())
	for _, d := range arr.Dims {
		if !d.IsConst() || d.Const <= 0 || size > math.MaxInt64/d.Const {
			return math.MaxInt64
		}
		size *= d.Const
	}
	return size
}

// unitStrides reports whether each access of st moves by at most one
// element per iteration of its innermost loop (or not at all).
func unitStrides(p *ir.Program, st *ir.Stmt) bool {
	in := st.Depth() - 1
	if in < 0 {
		return true // no loop
	}
	for _, a := range st.Accesses {
		last := len(a.Index) - 1
		if len(p.Arrays[a.Array].Members) > 0 {
			last-- // the member, a constant
		}
		for k, x := range a.Index {
			if in >= len(x.Iter) {
				continue
			}
			if c := x.Iter[in]; c != 0 && (k != last || c != 1 && c != -1) {
				return false
			}
		}
	}
	return true
}

// sharedRead returns an array larger than cache bytes (or of sizes not
// known as constants) that two or more statements of p read at one
// element per instance, through subscripts as many as their loops: each
// of them reads each element at most once, a stream, and a schedule
// aligned on the reads (sched.Options.ReadAlign) streams it once for all
// of them (mvt: x1[i] += A[i][j]*y1[j] and x2[i] += A[j][i]*y2[j]).
func sharedRead(p *ir.Program, cache int64) (int, bool) {
	for a, arr := range p.Arrays {
		if arr.Rank() == 0 || arrayBytes(arr) <= cache || len(arr.Members) > 0 {
			continue
		}
		n := 0
		for _, st := range p.Stmts {
			if r := sched.ReadAccess(st, a); r != nil && len(r.Index) == st.Depth() {
				n++
			}
		}
		if n >= 2 {
			return a, true
		}
	}
	return 0, false
}

// readTogether counts the pairs of statements that sc runs reading the
// same element of array a in one iteration: their rows agree on every
// scalar dimension up to their loop rows, which are their subscripts of
// a, each loop row the same subscript position for both, up to one
// constant offset shared by both.
func readTogether(p *ir.Program, sc *sched.Schedule, a int) int {
	n := 0
	for s := range p.Stmts {
		for t := s + 1; t < len(p.Stmts); t++ {
			if sameReads(p, sc, a, s, t) {
				n++
			}
		}
	}
	return n
}

// sameReads reports whether sc runs statements s and t reading the same
// element of a in one iteration (see readTogether).
func sameReads(p *ir.Program, sc *sched.Schedule, a, s, t int) bool {
	rs, rt := sched.ReadAccess(p.Stmts[s], a), sched.ReadAccess(p.Stmts[t], a)
	if rs == nil || rt == nil || len(rs.Index) != p.Stmts[s].Depth() || len(rt.Index) != p.Stmts[t].Depth() || len(rs.Index) != len(rt.Index) {
		return false
	}
	used := make([]bool, len(rs.Index))
	left := len(rs.Index)
	for k := range sc.Dims() {
		if left == 0 {
			return true
		}
		x, y := sc.Rows[s][k], sc.Rows[t][k]
		switch {
		case x.IsConst() && y.IsConst():
			if x.Const != y.Const {
				return false
			}
		case x.IsConst() || y.IsConst():
			return false
		default:
			m := slices.IndexFunc(rs.Index, func(sub ir.Aff) bool { return slices.Equal(x.Iter, sub.Iter) })
			if m < 0 || used[m] || !slices.Equal(y.Iter, rt.Index[m].Iter) || !slices.Equal(x.Param, y.Param) ||
				x.Const-rs.Index[m].Const != y.Const-rt.Index[m].Const {
				return false
			}
			used[m] = true
			left--
		}
	}
	return left == 0
}
