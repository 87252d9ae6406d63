package codegen

import (
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/poly"
)

// Push-form triangles: rows × steps register tiles.
//
// A triangular solve by rows, written as most codes write it, pushes
// each solved element into the row's later columns:
//
//	for a {                                  // rows: independent
//	  for b {                                // steps
//	    Pre(a, b)                            // A[a][b] /= U[b][b]
//	    for (c = lo(b); c <= hi; c++)        // lo grows with b: b + 1
//	      Body(a, b, c)                      // A[a][c] -= A[a][b] * U[b][c]
//	  }
//	}
//
// Each step loads and stores the element Body updates for one
// multiply-add. jamPush runs F steps at once (copies b … b+F−1 of the
// step loop) over the columns they share, c ≥ lo(b+F−1), where the
// element written moves with c only: it stays in a register while the F
// steps update it in their order. What each copy has below that range
// runs before, copy by copy:
//
//	for (b = B0; b <= B1 - (F-1); b += F) {
//	  Pre(a, b);     for (c = lo(b);     c < lo(b+F-1); c++) Body(a, b, c)       // phase 0
//	  …
//	  Pre(a, b+F-1)                                                             // (empty loop)
//	  for (c = lo(b+F-1); c <= hi; c++) { Body(a, b, c) … Body(a, b+F-1, c) }  // phase 1
//	}
//	for (; b <= B1; b++) { the original body }
//
// When the rows loop a around carries no dependence between the
// statements it runs, R rows are jammed as well (a rows × steps tile:
// each operand of the steps' rows is loaded once per c for the R rows,
// each element of a row once for the F steps); the rest of a's body then
// runs row by row, its innermost loops with the rows jammed.
//
// Legality (the rows aside): within a group of F steps the new order
// moves phase 1 of a copy after phase 0 of the later copies, and sorts
// phase 1 by (c, copy) instead of (copy, c). So no dependence carried by
// the step loop may run from a source s in phase 1 (s_c ≥ lo(b0+F−1))
// to a target t of a later copy of the same group in phase 0 (a Pre, or
// t_c < lo(b0+F−1)), nor, within phase 1, to a target with t_c < s_c.
// Both are emptiness tests on the dependence polyhedra with the group's
// start b0 a variable: b0 ≤ s_b < t_b ≤ b0 + F − 1 (b0's residue modulo
// F relaxed, which only adds pairs).

// jamPush returns the nodes replacing l0 when it is a loop of rows around
// a push-form step loop (see above), with R rows jammed, or the nodes
// replacing l0 when l0 is itself the step loop (R = 1); nil when neither
// applies.
func (j *jammer) jamPush(l0 *Loop) []Node {
	if j.opt.Deps == nil || l0.Step != 1 || l0.Dir < 0 || l0.Rest || singleIteration(l0) || len(l0.Body) == 0 {
		return nil
	}
	if _, point := j.opt.Band(l0.Level); !point {
		return nil
	}
	rows, cols := j.tile(l0.Level)
	F := min(cols, 8)
	R := min(rows, max(1, 16/F))
	if F < 2 {
		return nil
	}
	if len(l0.Pragmas) == 0 && j.pushable(l0, 1, F) {
		return j.push(l0, -1, 1, F)
	}
	if R < 2 || !jammable(l0) || !j.rowsApart(l0, R) {
		return nil
	}
	L0 := l0.Level
	steps := make([]bool, len(l0.Body)) // the step loops that take push tiles
	for at, n := range l0.Body {
		l1, ok := n.(*Loop)
		steps[at] = ok && l1.Level == L0+1 && !boundsUse(l1, L0) && j.pushable(l1, R, F)
	}
	if !slices.Contains(steps, true) {
		return nil
	}
	j.count++
	main := unrolled(l0, R)
	main.Body = nil
	for at, n := range l0.Body {
		if steps[at] {
			main.Body = append(main.Body, j.push(n.(*Loop), L0, R, F)...)
			continue
		}
		main.Body = append(main.Body, j.byRows([]Node{n}, L0, R)...)
	}
	main.BodyRegisters = j.solver.bodyRegisters(j.p, main, nil)
	// The last rows one by one, each with its steps jammed.
	r := rest(l0)
	r.Body = j.nodes(cloneShift(l0.Body, L0, 0))
	r.BodyRegisters = j.solver.bodyRegisters(j.p, r, nil)
	return []Node{main, r}
}

// byRows returns ns for rows 0 … R−1 of the counter at level a (R = 1:
// ns itself): an innermost loop of plain instances once, with the rows'
// copies jammed in it; anything else once per row, in order.
func (j *jammer) byRows(ns []Node, a int, R int64) []Node {
	if R == 1 {
		return ns
	}
	var out []Node
	for _, n := range ns {
		if l, ok := n.(*Loop); ok && innermost(l) && !singleIteration(l) && l.Reduction == nil && !boundsUse(l, a) {
			if body := shiftedInstances(l.Body); body != nil {
				c := j.copyInner(l, body, a, a, R, 1)
				c.NonEmpty = l.NonEmpty
				out = append(out, c)
				continue
			}
		}
		for r := range R {
			out = append(out, cloneShift([]Node{n}, a, r)...)
		}
	}
	return out
}

// shiftedInstances returns ns when all are instances, nil otherwise.
func shiftedInstances(ns []Node) []*Instance {
	var out []*Instance
	for _, n := range ns {
		in, ok := n.(*Instance)
		if !ok {
			return nil
		}
		out = append(out, in)
	}
	return out
}

// pushShape returns the pre nodes and the column loop of step loop l1
// when it has the push form: point loops stepping up by one, l1's body
// nodes that run before its last node, an innermost loop one level down
// whose lower bound is one affine leaf growing with l1's counter and
// whose upper bounds do not read it.
func (j *jammer) pushShape(l1 *Loop) (pre []Node, l2 *Loop) {
	L := l1.Level
	if len(l1.Pragmas) > 0 || l1.Step != 1 || l1.Dir < 0 || l1.Rest || singleIteration(l1) || len(l1.Body) < 1 {
		return nil, nil
	}
	if _, point := j.opt.Band(L); !point {
		return nil, nil
	}
	l2, ok := l1.Body[len(l1.Body)-1].(*Loop)
	if !ok || l2.Level != L+1 || !innermost(l2) || singleIteration(l2) || l2.Step != 1 || l2.Dir < 0 || l2.Rest || l2.Reduction != nil ||
		!(len(l2.Pragmas) == 0 || slices.Equal(l2.Pragmas, []string{"omp simd"})) || plainInstances(l2.Body) == nil {
		return nil, nil
	}
	if _, point := j.opt.Band(l2.Level); !point {
		return nil, nil
	}
	if len(l2.Lower) != 1 || l2.Lower[0].Of != nil || usesLocals(l2.Lower[0].Aff) || L >= len(l2.Lower[0].Aff.Iter) ||
		l2.Lower[0].Aff.Iter[L] <= 0 || boundsUseLevel(l2.Upper, L) {
		return nil, nil
	}
	pre = l1.Body[:len(l1.Body)-1]
	if hasReduction(pre) {
		return nil, nil
	}
	// A statement of l2 may also run in pre, peeled below l2's range: in
	// a loop of one iteration at a column under lo(b) (the aligned
	// trisolve-0based runs its first update with the division). Its
	// instances there then lie below phase 1 like those of l2's lower
	// part, which is what pushLegal assumes of them.
	col := map[int]bool{}
	for _, in := range plainInstances(l2.Body) {
		col[in.Stmt] = true
	}
	lo := l2.Lower[0]
	var below func(ns []Node, under bool) bool
	below = func(ns []Node, under bool) bool {
		for _, n := range ns {
			switch n := n.(type) {
			case *Instance:
				if col[n.Stmt] && !under {
					return false
				}
			case *Loop:
				u := under
				if n.Level == L+1 {
					d := n.Lower[0].Aff.Sub(lo.Aff)
					u = singleIteration(n) && lo.Den == 1 && isConst(d) && d.Const < 0
				}
				if !below(n.Body, u) {
					return false
				}
			case *If:
				if !below(n.Body, under) {
					return false
				}
			case *Block:
				if !below(n.Body, under) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	if !below(pre, false) {
		return nil, nil
	}
	return pre, l2
}

// isConst reports whether a reads no counter, parameter or local.
func isConst(a ir.Aff) bool {
	nz := func(x int64) bool { return x != 0 }
	return !slices.ContainsFunc(a.Iter, nz) && !slices.ContainsFunc(a.Param, nz) && !slices.ContainsFunc(a.Local, nz)
}

// pushable reports whether step loop l1 has the push form, pays for
// jamming (a statement of the column loop writes an element that moves
// with the columns and not with the steps, which the F copies share),
// and may take F copies legally.
func (j *jammer) pushable(l1 *Loop, R, F int64) bool {
	pre, l2 := j.pushShape(l1)
	if l2 == nil {
		return false
	}
	L := l1.Level
	body := plainInstances(l2.Body)
	if len(body)*int(F*R) > j.opt.MaxCopies {
		return false
	}
	shared := false
	for _, in := range body {
		for _, acc := range j.p.Stmts[in.Stmt].Accesses {
			if acc.Write && len(acc.Index) > 0 && moves(acc, in, L+1) && !moves(acc, in, L) {
				shared = true
			}
		}
	}
	if !shared {
		return false
	}
	inPre, inCol := map[int]bool{}, map[int]bool{}
	walkInstances(pre, func(in *Instance) { inPre[in.Stmt] = true })
	for _, in := range body {
		inCol[in.Stmt] = true
	}
	return j.pushLegal(L, F, l2.Lower[0], inPre, inCol)
}

// pushLegal tests the dependences carried by the step loop at level
// between the statements of its body (inPre: in the nodes before the
// column loop; inCol: in the column loop, whose lower bound is lo) for
// the pairs jamPush would run out of order with F copies (see above).
// Unsure answers count as pairs.
func (j *jammer) pushLegal(level int, F int64, lo Bound, inPre, inCol map[int]bool) bool {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return false
	}
	for _, e := range g.Edges {
		if e.Depth != level+1 || !(inPre[e.Source] || inCol[e.Source]) || !(inPre[e.Target] || inCol[e.Target]) {
			continue
		}
		if level < len(e.Distance) {
			if d := e.Distance[level]; !d.MinInf && d.Min >= F {
				continue // from one group of F steps to a later one
			}
		}
		if !inCol[e.Source] {
			continue // a source in phase 0 still runs before every later copy
		}
		if !j.pushPairs(e, level, F, lo, inCol[e.Target]) {
			return false
		}
	}
	return true
}

// pushPairs reports whether edge e, carried by the step loop at level
// with its source in the column loop, has no pair that jamPush with F
// copies reorders: s in phase 1 and t in phase 0 of a later copy of its
// group (t_c below phase 1 when t is a statement of the column loop,
// whose instances in Pre lie there too, see pushShape; any t
// otherwise), or both in phase 1 with t_c < s_c.
func (j *jammer) pushPairs(e *deps.Edge, level int, F int64, lo Bound, tCol bool) bool {
	sp := e.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	ds := j.p.Stmts[e.Source].Depth()
	dt := nd - ds
	sb, sc, tb, tc := level, level+1, ds+level, ds+level+1
	if sc >= ds || tCol && level+1 >= dt {
		return false
	}
	// The set with the group's start b0 as one more dimension (index
	// nd); columns: dims, b0, params, constant.
	n := nd + 1 + np + 1
	widen := func(c poly.Constraint) poly.Constraint {
		r := make([]int64, n)
		copy(r, c.Coef[:nd])
		copy(r[nd+1:], c.Coef[nd:])
		return poly.Constraint{Eq: c.Eq, Coef: r}
	}
	var base []poly.Constraint
	for _, c := range e.Set.Constraints() {
		base = append(base, widen(c))
	}
	row := func() []int64 { return make([]int64, n) }
	b0 := nd
	r := row() // s_b − b0 ≥ 0
	r[sb], r[b0] = 1, -1
	base = append(base, poly.Constraint{Coef: r})
	r = row() // b0 + F − 1 − t_b ≥ 0
	r[b0], r[tb], r[n-1] = 1, -1, F-1
	base = append(base, poly.Constraint{Coef: r})
	r = row() // t_b − s_b − 1 ≥ 0
	r[tb], r[sb], r[n-1] = 1, -1, -1
	base = append(base, poly.Constraint{Coef: r})
	// C = lo(b0 + F − 1) over the source's outer counters (the target's
	// are equal to them: the edge is carried at level), as Den·x ≥ C
	// rows: coef·(x) − leaf ≥ 0.
	leaf := func() []int64 {
		r := row()
		for k, x := range lo.Aff.Iter {
			if k == level {
				r[b0] += x
			} else if x != 0 {
				r[k] += x
			}
		}
		for k, x := range lo.Aff.Param {
			r[nd+1+k] += x
		}
		r[n-1] = lo.Aff.Const + (F-1)*lo.Aff.Iter[level]
		return r
	}
	above := func(x int) poly.Constraint { // Den·x − leaf ≥ 0
		r := leaf()
		for k := range r {
			r[k] = -r[k]
		}
		r[x] += lo.Den
		return poly.Constraint{Coef: r}
	}
	below := func(x int) poly.Constraint { // leaf − Den·x − 1 ≥ 0
		r := leaf()
		r[x] -= lo.Den
		r[n-1]--
		return poly.Constraint{Coef: r}
	}
	ext := sp
	ext.Dims = append(slices.Clone(sp.Dims), "b0")
	empty := func(cs ...poly.Constraint) bool {
		set, err := poly.NewSet(ext, append(slices.Clone(base), cs...)...)
		if err != nil {
			return false
		}
		ok, err := set.IsEmptyWork(poly.NewWork(maxTriWork))
		return err == nil && ok
	}
	if !tCol {
		return empty(above(sc))
	}
	if !empty(above(sc), below(tc)) {
		return false
	}
	r = row() // s_c − t_c − 1 ≥ 0
	r[sc], r[tc], r[n-1] = 1, -1, -1
	return empty(above(sc), above(tc), poly.Constraint{Coef: r})
}

// rowsApart reports whether no dependence carried by rows loop l joins
// two of R consecutive rows among the statements it runs.
func (j *jammer) rowsApart(l *Loop, R int64) bool {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return false
	}
	in := map[int]bool{}
	walkInstances(l.Body, func(x *Instance) { in[x.Stmt] = true })
	for _, e := range g.Edges {
		if e.Depth != l.Level+1 || !in[e.Source] || !in[e.Target] {
			continue
		}
		if l.Level < len(e.Distance) {
			if d := e.Distance[l.Level]; !d.MinInf && d.Min >= R {
				continue
			}
		}
		return false
	}
	return true
}

// push returns step loop l1 with F copies jammed as jamPush describes,
// each copy's work done for R rows of the counter at level a (a < 0:
// one row), then the rest of the steps one by one.
func (j *jammer) push(l1 *Loop, a int, R int64, F int64) []Node {
	pre, l2 := j.pushShape(l1)
	L := l1.Level
	if a < 0 {
		j.count++
	}
	rowsOf := func(ns []Node) []Node {
		if a < 0 {
			return ns
		}
		return j.byRows(ns, a, R)
	}
	body := plainInstances(l2.Body)
	// C = lo(b + F − 1): where phase 1 starts.
	start := shiftBounds(l2.Lower, 0)
	start[0].Aff.Const += (F - 1) * l2.Lower[0].Aff.Iter[L]
	// c ≤ C − 1, i.e. ⌊(leaf − 1)/Den⌋ ≥ c for the ceiling ⌈leaf/Den⌉.
	belowStart := start[0]
	belowStart.Aff = belowStart.Aff.Clone()
	belowStart.Aff.Const--

	m := unrolled(l1, F)
	m.Body = nil
	for u := range F {
		m.Body = append(m.Body, rowsOf(cloneShift(pre, L, u))...)
		if u == F-1 {
			break // its range below C is empty
		}
		low := cloneShift([]Node{l2}, L, u)[0].(*Loop)
		low.Upper = append(low.Upper, belowStart)
		low.NonEmpty = false
		low.Pragmas = nil
		lowBody := shiftedInstances(low.Body)
		var n Node
		if a < 0 {
			n = j.copyInner(low, lowBody, L, L, 1, 1)
		} else {
			n = j.copyInner(low, lowBody, a, a, R, 1)
		}
		m.Body = append(m.Body, n)
	}
	p1 := *l2
	p1.Lower = start
	p1.NonEmpty = false
	p1.Pragmas = nil
	var c *Loop
	if a < 0 {
		c = j.copyInner(&p1, body, L, L, F, 1)
	} else {
		c = j.copyInner(&p1, body, a, L, R, F)
	}
	m.Body = append(m.Body, c)
	m.BodyRegisters = j.solver.bodyRegisters(j.p, m, nil)

	r := rest(l1)
	r.Body = rowsOf(l1.Body)
	if a >= 0 {
		r.BodyRegisters = j.solver.bodyRegisters(j.p, r, nil)
	} else {
		r.BodyRegisters = l1.BodyRegisters
	}
	return []Node{m, r}
}
