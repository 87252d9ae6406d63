package sched

import (
	"slices"

	"nestor/deps"
	"nestor/internal/intmath"
	"nestor/ir"
)

// Write-aligned schedules (Δω = 0).
//
// When every statement writes an element of the same array, the
// subscripts of the writes are candidate schedule rows: row k of
// statement S is subscript k of S's write, constant offsets included.
// Rows taken this way line up each instance with the element it updates,
// so that every statement updating one element runs in the same
// iteration of the outer loops (Δω = 0 in the LoopModels note's terms):
// the element stays in a register across an inner reduction and is
// stored once. Because the rows are the subscripts themselves, two
// spellings of one program that differ by loop offsets (the 0-based and
// 1-based triangular solves) get the same rows.
//
// The rows are used only when each is legal for every dependence (Farkas,
// distance ≥ 0: they form a permutable band) and each statement's rows
// are linearly independent; otherwise Compute schedules as Pluto does.
//
// Read-aligned schedules (Options.ReadAlign) take the rows from the
// subscripts of one array every statement reads instead: each element is
// then read by all of them in one iteration, and a memory-bound region
// streams it once. mvt's x1 = A·y1 and x2 = Aᵀ·y2 read A[i][j] and
// A[j][i]: aligned, the second statement's loops swap, and both read
// A[t1][t2] (bicg's order as written).

// alignedRows returns the write-aligned rows of every statement, or false
// when some statement writes no array element, the arrays differ, a
// subscript uses a parameter, a row is illegal for some dependence, or a
// statement's rows are dependent.
func alignedRows(p *ir.Program, g *deps.Graph) ([][]ir.Aff, bool) {
	return rowsOf(p, g, func(s *ir.Stmt) *ir.Access { return s.Accesses[0] })
}

// ReadAccess returns the access through which s reads array a: its one
// read of a, or its reads of one element; nil when it reads a nowhere or
// at two different elements.
func ReadAccess(s *ir.Stmt, a int) *ir.Access {
	var r *ir.Access
	for k, acc := range s.Accesses {
		if acc.Array != a || acc.Write && !(k == 0 && s.Op != ir.Assign) {
			continue
		}
		if r != nil && !slices.EqualFunc(r.Index, acc.Index, ir.Aff.Equal) {
			return nil
		}
		r = acc
	}
	return r
}

// rowsOf returns the rows that the subscripts of access(s) give every
// statement s (see alignedRows).
func rowsOf(p *ir.Program, g *deps.Graph, access func(*ir.Stmt) *ir.Access) ([][]ir.Aff, bool) {
	if len(p.Stmts) == 0 || access(p.Stmts[0]) == nil {
		return nil, false
	}
	array := access(p.Stmts[0]).Array
	rank := len(access(p.Stmts[0]).Index)
	if rank == 0 {
		return nil, false
	}
	rows := make([][]ir.Aff, len(p.Stmts))
	for st, s := range p.Stmts {
		w := access(s)
		if w == nil || w.Array != array || len(w.Index) != rank || len(s.Domain.Divs) > 0 {
			return nil, false
		}
		var lin [][]int64
		for _, x := range w.Index {
			for _, c := range x.Param {
				if c != 0 {
					return nil, false
				}
			}
			row := ir.Aff{Iter: make([]int64, s.Depth()), Param: make([]int64, len(p.Params)), Const: x.Const}
			copy(row.Iter, x.Iter)
			if !isConstant(row) {
				if rankOf(append(lin, row.Iter)) <= len(lin) {
					return nil, false
				}
				lin = append(lin, row.Iter)
			}
			rows[st] = append(rows[st], row)
		}
	}
	for k := range rank {
		for _, e := range g.Edges {
			src, dst := rows[e.Source][k], rows[e.Target][k]
			ok, err := Legal(e, Row{Phi: src.Iter, Omega: src.Const}, Row{Phi: dst.Iter, Omega: dst.Const})
			if err != nil || !ok {
				return nil, false
			}
		}
	}
	return rows, true
}

// align makes the write-aligned rows the first band of s's schedule, or
// with read ≥ 0 the rows aligned on the reads of array read (readGroups,
// after a scalar dimension between the groups); it reports false
// (leaving s unchanged) when there are none.
func (s *scheduler) align(read int) bool {
	rows, ok := alignedRows(s.p, s.g)
	if read >= 0 {
		var group []int
		if group, rows, ok = s.readGroups(read); ok && slices.Max(group) > 0 {
			s.scalarDim(group)
		}
	}
	if !ok {
		return false
	}
	rank := 0
	for _, r := range rows {
		rank = max(rank, len(r))
	}
	for k := range rank {
		sol := make([]int64, s.nu)
		for st, x := range s.p.Stmts {
			if rows[st] == nil {
				continue // not aligned: a constant row
			}
			sol[s.off[st]] = rows[st][k].Const
			for l := range x.Depth() {
				sol[s.coefIndex(st, l)] = int64(x.Dir[l]) * rows[st][k].Iter[l]
			}
		}
		s.addRow(sol)
	}
	return true
}

// readGroups splits the statements into groups for read alignment on
// array a: consecutive in a topological order of the dependence
// components, so that a scalar dimension in group order respects every
// dependence between groups. A group either aligns its statements, each
// of which reads a with as many independent subscripts as it has loops
// (rows[st] those subscripts), on rows legal for every dependence
// inside the group, or holds one component that does not align (rows nil
// for its statements). It reports false when no group aligns two
// statements (gemver: A's update and x += βAᵀy align, x += z and w +=
// αAx, which reads the x finished after them, follow apart).
func (s *scheduler) readGroups(a int) (group []int, rows [][]ir.Aff, ok bool) {
	order, _ := s.sccs(true)
	group = make([]int, len(s.p.Stmts))
	rows = make([][]ir.Aff, len(s.p.Stmts))
	g, members, aligned, shared := -1, []int(nil), false, false
	for _, c := range order {
		cr := make([][]ir.Aff, len(c))
		all := true
		for k, st := range c {
			cr[k] = readRows(s.p, s.p.Stmts[st], a)
			all = all && cr[k] != nil
		}
		for k, st := range c {
			rows[st] = cr[k]
		}
		if all && aligned && s.legalRows(append(slices.Clone(members), c...), rows) {
			members = append(members, c...)
			shared = true
		} else {
			g++
			members, aligned = slices.Clone(c), all && s.legalRows(c, rows)
			shared = shared || aligned && len(c) > 1
			if !aligned {
				for _, st := range c {
					rows[st] = nil
				}
			}
		}
		for _, st := range c {
			group[st] = g
		}
	}
	return group, rows, shared
}

// readRows returns the rows of statement x aligned on its reads of array
// a: the subscripts of ReadAccess, as many as x has loops, linearly
// independent, without parameters; nil when there are none.
func readRows(p *ir.Program, x *ir.Stmt, a int) []ir.Aff {
	r := ReadAccess(x, a)
	if r == nil || len(r.Index) != x.Depth() || x.Depth() == 0 || len(x.Domain.Divs) > 0 {
		return nil
	}
	var rows []ir.Aff
	var lin [][]int64
	for _, sub := range r.Index {
		if !allZero(sub.Param) || isConstant(sub) {
			return nil
		}
		row := ir.Aff{Iter: slices.Clone(sub.Iter), Param: make([]int64, len(p.Params)), Const: sub.Const}
		if rankOf(append(lin, row.Iter)) <= len(lin) {
			return nil
		}
		lin = append(lin, row.Iter)
		rows = append(rows, row)
	}
	return rows
}

// legalRows reports whether rows, on statements stmts, respect every
// dependence between them: each row has distance ≥ 0 (Legal), and a
// dependence from a statement to an earlier one in textual order, which
// the final order would not put after it where every row ties, is
// refused.
func (s *scheduler) legalRows(stmts []int, rows [][]ir.Aff) bool {
	for _, e := range s.g.Edges {
		if !slices.Contains(stmts, e.Source) || !slices.Contains(stmts, e.Target) {
			continue
		}
		if e.Source > e.Target {
			return false
		}
		for k := range rows[e.Source] {
			src, dst := rows[e.Source][k], rows[e.Target][k]
			ok, err := Legal(e, Row{Phi: src.Iter, Omega: src.Const}, Row{Phi: dst.Iter, Omega: dst.Const})
			if err != nil || !ok {
				return false
			}
		}
	}
	return true
}

// rankOf returns the rank of the integer matrix m (rows of equal length),
// by fraction-free Gaussian elimination.
func rankOf(m [][]int64) int {
	a := make([][]int64, len(m))
	for i := range m {
		a[i] = append([]int64(nil), m[i]...)
	}
	r := 0
	for c := 0; len(a) > 0 && c < len(a[0]) && r < len(a); c++ {
		p := -1
		for i := r; i < len(a); i++ {
			if a[i][c] != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			continue
		}
		a[r], a[p] = a[p], a[r]
		for i := r + 1; i < len(a); i++ {
			if a[i][c] == 0 {
				continue
			}
			f, g := a[i][c], a[r][c]
			for j := range a[i] {
				a[i][j] = a[i][j]*g - a[r][j]*f
			}
			if d := rowGCD(a[i]); d > 1 {
				for j := range a[i] {
					a[i][j] /= d
				}
			}
		}
		r++
	}
	return r
}

func rowGCD(xs []int64) int64 {
	var g int64
	for _, x := range xs {
		g = intmath.Gcd(g, intmath.Abs(x))
	}
	return g
}

// canonicalOffsets rewrites the loop rows from dimension from on in the
// counters of the LoopModels offset canonicalization (deps.Canonicalize):
// row φ·s + c becomes φ·(s + δ_S) + c, so a reduction loop over A[i-1]
// and one over A[i] get the same counter. Only the rows of a statement
// none of whose dependences with other statements is still to be ordered
// there may move (every such dependence is satisfied — distance ≥ 1 — at
// an earlier dimension); a self-dependence keeps its distances under a
// common shift.
func canonicalOffsets(p *ir.Program, g *deps.Graph, sc *Schedule, from int) {
	sh := deps.Canonicalize(p)
	for st, s := range p.Stmts {
		moved := false
		for _, d := range sh.Delta[st] {
			moved = moved || d != 0
		}
		if !moved {
			continue
		}
		for k := from; k < sc.Dims(); k++ {
			row := &sc.Rows[st][k]
			if isConstant(*row) || !separated(g, sc, st, k) {
				continue
			}
			for l := range s.Depth() {
				row.Const += row.Iter[l] * sh.Delta[st][l]
			}
		}
	}
}

// separated reports whether every dependence between statement st and
// another statement is satisfied before dimension k.
func separated(g *deps.Graph, sc *Schedule, st, k int) bool {
	for _, e := range g.Edges {
		if e.Source == e.Target || (e.Source != st && e.Target != st) {
			continue
		}
		sat := false
		for d := 0; d < k && !sat; d++ {
			iv, err := deps.Range(e.Set, distanceForm(e, sc.Rows[e.Source][d], sc.Rows[e.Target][d]))
			sat = err == nil && !iv.MinInf && iv.Min >= 1
		}
		if !sat {
			return false
		}
	}
	return true
}

// distanceForm returns rt(t) − rs(s) over edge e's (dims, params, 1).
func distanceForm(e *deps.Edge, rs, rt ir.Aff) []int64 {
	sp := e.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	f := make([]int64, nd+np+1)
	ds := len(rs.Iter)
	for k, c := range rs.Iter {
		f[k] -= c
	}
	for k, c := range rt.Iter {
		f[ds+k] += c
	}
	for q := range np {
		f[nd+q] = rt.Param[q] - rs.Param[q]
	}
	f[nd+np] = rt.Const - rs.Const
	return f
}
