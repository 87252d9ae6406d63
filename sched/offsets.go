package sched

import (
	"fmt"
	"slices"

	"nestor/internal/intmath"
	"nestor/ir"
)

// Offset alignment of innermost loops (the LoopModels offset note).
//
// A front end that normalizes every loop to start at 0 writes a
// triangular update as A[i][k + j + 1] with k = 0 … n − j − 2. The
// schedule's row for the inner loop is then k, and the element a
// statement writes moves with both the inner counter and the loop around
// it: two iterations of j at the same k write different elements. With
// the row k + j + 1, the inner counter is the written column itself,
// and copies of the j loop jammed together update one element in one
// iteration (codegen's push-form tiles).
//
// AlignOffsets adds to the innermost row of a group of fused statements
// the combination of the outer rows (and a constant) that makes it equal
// to the last subscript of their writes, when that combination reads an
// outer row (a constant alone would only respell the counter: the
// 1-based solve's A[i-1][k-1] keeps k). The change is the same for every
// statement sharing that loop, a function of the loops around it only,
// so the order of all instances is unchanged: at equal outer counters
// the inner counters move together, and elsewhere the outer counters
// decide. Only non-negative multiples of outer rows are added: every
// dependence still live at the row has non-negative distances on the
// rows outside it, so its distance along the row stays non-negative and
// the row's band stays permutable (tiling stays legal); coincidence is
// unchanged (a pair with zero distance on the outer rows keeps its
// distance on the row).

// AlignOffsets rewrites sc in place as above and returns the number of
// statement rows it changed.
func AlignOffsets(p *ir.Program, sc *Schedule) int {
	// Only loop rows change, so which dimensions are scalar stays as is.
	scalar := make([]bool, sc.Dims())
	for k := range scalar {
		scalar[k] = sc.scalar(k)
	}
	changed := 0
	for k := range scalar {
		if scalar[k] {
			continue
		}
		groups := map[string][]int{}
		var keys []string
		for st, rows := range sc.Rows {
			key := ""
			for k2 := range k {
				if scalar[k2] {
					key += fmt.Sprint(rows[k2].Const, ",")
				}
			}
			if groups[key] == nil {
				keys = append(keys, key)
			}
			groups[key] = append(groups[key], st)
		}
		for _, key := range keys {
			group := groups[key]
			shift, ok := groupOffset(p, sc, group, k)
			if !ok {
				continue
			}
			next := make([]ir.Aff, len(group))
			for x, st := range group {
				if next[x], ok = addRows(sc.Rows[st], shift, k); !ok {
					break
				}
			}
			if !ok {
				continue // overflow: the rows stay as they are
			}
			for x, st := range group {
				sc.Rows[st][k] = next[x]
				changed++
			}
		}
	}
	return changed
}

// offset is a combination of a schedule's rows: Coef[k2] times row k2,
// plus Const.
type offset struct {
	Coef  []int64
	Const int64
}

// constant reports whether o adds no row: a constant shift changes no
// iteration's elements, only how the counter is spelled.
func (o offset) constant() bool {
	return !slices.ContainsFunc(o.Coef, func(c int64) bool { return c != 0 })
}

func (o offset) equal(q offset) bool { return o.Const == q.Const && slices.Equal(o.Coef, q.Coef) }

// groupOffset returns the offset that aligns row k of the statements of
// group, when they agree on one that adds an outer row: every statement whose
// row k moves and is innermost (its later rows constant) writes an
// element whose last subscript minus row k is a combination of its outer
// rows.
func groupOffset(p *ir.Program, sc *Schedule, group []int, k int) (offset, bool) {
	var out offset
	found := false
	for _, st := range group {
		rows := sc.Rows[st]
		if isConstant(rows[k]) {
			continue
		}
		for k2 := k + 1; k2 < len(rows); k2++ {
			if !isConstant(rows[k2]) {
				return offset{}, false // not innermost
			}
		}
		o, ok := stmtOffset(p.Stmts[st], sc, rows, k)
		if !ok {
			return offset{}, false
		}
		if found && !o.equal(out) {
			return offset{}, false
		}
		out, found = o, true
	}
	if !found || out.constant() {
		return offset{}, false
	}
	// Only non-negative multiples of outer rows (see above).
	if slices.ContainsFunc(out.Coef, func(c int64) bool { return c < 0 }) {
		return offset{}, false
	}
	return out, true
}

// stmtOffset returns the offset with which row k of s equals the last
// subscript of the element s writes: the difference must read only
// counters that an outer loop row scans alone (±counter + constant), and
// no parameter.
func stmtOffset(s *ir.Stmt, sc *Schedule, rows []ir.Aff, k int) (offset, bool) {
	if len(s.Accesses) == 0 || !s.Accesses[0].Write || len(s.Accesses[0].Index) == 0 || len(s.Domain.Divs) > 0 {
		return offset{}, false
	}
	w := s.Accesses[0].Index[len(s.Accesses[0].Index)-1]
	if slices.ContainsFunc(w.Local, func(c int64) bool { return c != 0 }) || slices.ContainsFunc(rows[k].Param, func(c int64) bool { return c != 0 }) {
		return offset{}, false
	}
	d := w.Clone()
	for v, c := range rows[k].Iter {
		d.Iter[v] -= c
	}
	d.Const -= rows[k].Const
	if slices.ContainsFunc(d.Param, func(c int64) bool { return c != 0 }) {
		return offset{}, false
	}
	out := offset{Coef: make([]int64, len(rows)), Const: d.Const}
	for v, c := range d.Iter {
		if c == 0 {
			continue
		}
		// An outer row ±v + constant.
		k2 := slices.IndexFunc(rows[:k], func(r ir.Aff) bool {
			return slices.IndexFunc(r.Iter, func(x int64) bool { return x != 0 }) == v && (r.Iter[v] == 1 || r.Iter[v] == -1) &&
				!slices.ContainsFunc(r.Iter[v+1:], func(x int64) bool { return x != 0 }) && !slices.ContainsFunc(r.Param, func(x int64) bool { return x != 0 })
		})
		if k2 < 0 || out.Coef[k2] != 0 {
			return offset{}, false
		}
		// c·v = (c·sign)·(row − const)
		sign := rows[k2].Iter[v]
		m, ok := intmath.Mul(c, sign)
		if !ok {
			return offset{}, false
		}
		out.Coef[k2] = m
		t, ok := intmath.Mul(m, rows[k2].Const)
		if !ok {
			return offset{}, false
		}
		if out.Const, ok = intmath.Sub(out.Const, t); !ok {
			return offset{}, false
		}
	}
	return out, true
}

// addRows returns row k of rows plus the offset o, over the statement's
// counters; false on int64 overflow.
func addRows(rows []ir.Aff, o offset, k int) (ir.Aff, bool) {
	out := rows[k].Clone()
	ok := true
	acc := func(dst *int64, c, x int64) {
		m, ok1 := intmath.Mul(c, x)
		s, ok2 := intmath.Add(*dst, m)
		ok = ok && ok1 && ok2
		*dst = s
	}
	for k2, c := range o.Coef {
		if c == 0 {
			continue
		}
		for v, x := range rows[k2].Iter {
			acc(&out.Iter[v], c, x)
		}
		for q, x := range rows[k2].Param {
			acc(&out.Param[q], c, x)
		}
		acc(&out.Const, c, rows[k2].Const)
	}
	acc(&out.Const, 1, o.Const)
	return out, ok
}
