package frontend

import (
	"fmt"
	"slices"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// Loop counters outside their loops. A counter has a known affine value
// between its loops when it is initialized by a declaration in the region
// ("int t4 = 64*t1;", as nestor's own output declares the counter a
// register-tiled loop continues) or when its last loop has ended: the
// first value that failed the loop's condition, or its first value when
// the loop never ran. That final value is affine piecewise (which upper
// bound was the smallest, whether the loop ran), so it is a placeholder
// local whose cases split the statements that read it (split.go). A value
// holds in the scope (loop body or if branch) that computed it and the
// scopes nested in it; it is unknown elsewhere, since there it depends on
// how many times, or whether, that scope ran.

// counterValue is what the region knows of a counter outside its loops.
type counterValue struct {
	aff   ir.Aff // over the counters, parameters and locals in scope
	scope []int  // the scopes open when it was computed
	why   string // why the value is unknown, when it is
}

// enterScope opens a loop body or if branch; leaveScope closes it.
func (b *builder) enterScope() {
	b.nscopes++
	b.scope = append(b.scope, b.nscopes)
}

func (b *builder) leaveScope() { b.scope = b.scope[:len(b.scope)-1] }

// setValue records the value of counter d (why says why it is unknown).
func (b *builder) setValue(d *cc.Declarator, a ir.Aff, why string) {
	if b.values == nil {
		b.values = map[*cc.Declarator]counterValue{}
	}
	b.values[d] = counterValue{aff: a, scope: slices.Clone(b.scope), why: why}
}

// value returns the value of counter d here, as a form over the current
// counters, parameters and locals, or the reason it is unknown.
func (b *builder) value(d *cc.Declarator, depth int) (ir.Aff, string) {
	v, ok := b.values[d]
	switch {
	case !ok:
		return ir.Aff{}, fmt.Sprintf("%s has no known value here (initialize it in the region or read it after its loop)", d.Name())
	case len(v.scope) > len(b.scope) || !slices.Equal(v.scope, b.scope[:len(v.scope)]):
		return ir.Aff{}, fmt.Sprintf("the value of %s here depends on how often the loop or branch that set it ran", d.Name())
	case v.why != "":
		return ir.Aff{}, v.why
	case len(v.aff.Iter) > depth || len(v.aff.Local) > len(b.divs):
		return ir.Aff{}, fmt.Sprintf("the value of %s is not in scope here", d.Name())
	}
	return padAff(v.aff, depth, b.np, len(b.divs)), ""
}

// stepVar returns the variable a for loop's increment steps, for a loop
// without initialization ("for (; t4 < n; t4 += 6)").
func stepVar(e cc.ExpressionNode) *cc.Declarator {
	switch x := unparen(e).(type) {
	case *cc.PostfixExpression:
		if x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec {
			_, d := ident(x.PostfixExpression)
			return d
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionInc || x.Case == cc.UnaryExpressionDec {
			_, d := ident(x.UnaryExpression)
			return d
		}
	case *cc.AssignmentExpression:
		if x.Case != cc.AssignmentExpressionCond {
			_, d := ident(x.UnaryExpression)
			return d
		}
	}
	return nil
}

// finalValue returns the cases of the value counter i has after its loop
// (at depth, going dir by step ≥ 1 from lb, while cond holds), or why it
// is not affine. It needs an affine first value L and a condition that
// only bounds i in the direction it moves, with coefficient 1: going up,
// i ≤ R_k for each k. With R the smallest R_k (ties to the first), the
// loop ends at L + s·⌊(R − L + s)/s⌋ when L ≤ R, and at L when it never
// runs. Going down, i ≥ W_k, W the largest, the end is L − s·⌊(L − W +
// s)/s⌋ when W ≤ L. Every form uses locals below nd only, those of the
// enclosing scope.
func (b *builder) finalValue(lb *bound, cond []ir.Constraint, depth, dir int, step int64, nd int) ([]alt, string) {
	if len(lb.kids) > 0 || lb.den != 1 {
		return nil, "its loop's first value is not one affine expression"
	}
	outer := func(a ir.Aff) bool {
		return !slices.ContainsFunc(a.Local[min(nd, len(a.Local)):], func(v int64) bool { return v != 0 })
	}
	L := padAff(lb.aff, depth, b.np, nd)
	if !outer(lb.aff) {
		return nil, "its loop's first value uses a division local to the loop"
	}
	var rs []ir.Aff // R_k going up, W_k going down
	for _, c := range cond {
		a := int64(0)
		if depth < len(c.Iter) {
			a = c.Iter[depth]
		}
		if c.Eq || a != int64(-dir) || !outer(c.Aff) {
			return nil, "its loop's condition is not a set of bounds i < e (i > e going down) on the counter"
		}
		r := padAff(c.Aff, depth, b.np, nd) // drops the counter's column
		if dir < 0 {
			r, _, _ = scaleAff(r, -1)
		}
		rs = append(rs, r)
	}
	sub := func(x, y ir.Aff, c int64) (ir.Aff, bool) {
		r, _, ok := addAff(x, -1, y)
		if ok {
			r.Const, ok = add64(r.Const, c)
		}
		return r, ok
	}
	var alts []alt
	for k, rk := range rs {
		var best []ir.Constraint // R_k is the smallest (W_k the largest)
		for j, rj := range rs {
			if j == k {
				continue
			}
			var c ir.Aff
			var ok bool
			tie := int64(0)
			if j < k {
				tie = -1
			}
			if dir > 0 {
				c, ok = sub(rj, rk, tie)
			} else {
				c, ok = sub(rk, rj, tie)
			}
			if !ok {
				return nil, "coefficient overflow"
			}
			best = append(best, ir.Constraint{Aff: c})
		}
		// Runs: R_k − L ≥ 0 (L − W_k ≥ 0).
		var runs, never ir.Aff
		var ok1, ok2 bool
		if dir > 0 {
			runs, ok1 = sub(rk, L, 0)
			never, ok2 = sub(L, rk, -1)
		} else {
			runs, ok1 = sub(L, rk, 0)
			never, ok2 = sub(rk, L, -1)
		}
		num, ok3 := sub(runs, ir.NewAff(depth, b.np, nd), step) // (R − L + s) or (L − W + s)
		if !ok1 || !ok2 || !ok3 {
			return nil, "coefficient overflow"
		}
		var run alt
		run.cons = append(slices.Clone(best), ir.Constraint{Aff: runs})
		if step == 1 {
			// The end is R + 1 (W − 1).
			v, ok := sub(rk, ir.NewAff(depth, b.np, nd), int64(dir))
			if !ok {
				return nil, "coefficient overflow"
			}
			run.value = v
		} else {
			run.div = &ir.Div{Num: num, Den: step}
			q := ir.NewAff(depth, b.np, nd+1)
			q.Local[nd] = step * int64(dir)
			v, _, ok := addAff(L, 1, q)
			if !ok {
				return nil, "coefficient overflow"
			}
			run.value = v
		}
		alts = append(alts, run, alt{cons: append(slices.Clone(best), ir.Constraint{Aff: never}), value: L})
	}
	if len(alts) == 0 {
		return nil, "its loop has no bound"
	}
	return alts, ""
}

// affExpr returns the value of a as an expression of type t; a local q_l
// of a is a marker (marker) that expand replaces by the local's value in
// each case, so a may use placeholders only.
func affExpr(a ir.Aff, t ir.Type, params []ir.Param, iterTypes []ir.Type) ir.Expr {
	var e ir.Expr
	add := func(c int64, x ir.Expr) {
		if c == 0 {
			return
		}
		x = convert(x, t)
		if c != 1 {
			x = &ir.Binary{Op: ir.Mul, X: &ir.Const{T: t, Int: c}, Y: x, T: t}
		}
		if e == nil {
			e = x
		} else {
			e = &ir.Binary{Op: ir.Add, X: e, Y: x, T: t}
		}
	}
	for k, c := range a.Iter {
		add(c, &ir.IterRef{T: iterTypes[k], Level: k})
	}
	for k, c := range a.Param {
		add(c, &ir.ParamRef{T: params[k].Type, Param: k})
	}
	for l, c := range a.Local {
		add(c, marker(l, t))
	}
	if e == nil {
		return &ir.Const{T: t, Int: a.Const}
	}
	if a.Const != 0 {
		e = &ir.Binary{Op: ir.Add, X: e, Y: &ir.Const{T: t, Int: a.Const}, T: t}
	}
	return e
}

// setFinal records the final value of counter d from its cases: those
// that can hold here, as a placeholder, or as a plain form when one case
// without a local is left (a loop that runs at least once with one upper
// bound, for instance).
func (b *builder) setFinal(d *cc.Declarator, alts []alt) {
	var live []alt
	for _, a := range alts {
		div := ir.Div{Num: ir.NewAff(len(b.loops), b.np, len(b.divs)), Den: 1}
		if a.div != nil {
			div = *a.div
		}
		empty, err := b.empty(len(b.loops), append(slices.Clone(b.divs), div), b.cons, a.cons)
		if err != nil || !empty {
			live = append(live, a)
		}
	}
	if len(live) == 1 && live[0].div == nil {
		b.setValue(d, live[0].value, "")
		return
	}
	b.setValue(d, b.placeholder(live), "")
}

// inferFirstSizes gives each array parameter declared without its first
// size ("A[][n]", "(*A)[n]"), and each fresh pointer read as an array
// (freshPointer), a size that covers every access of the
// region, when one of the array's other sizes or one parameter does:
// poly proves 0 ≤ subscript < size over each statement's domain. The size
// is for a harness that must allocate the array; C ignores a parameter's
// first size, so nothing else changes.
func (b *builder) inferFirstSizes() {
	for k, a := range b.prog.Arrays {
		if a.Storage != ir.FuncParam && a.Storage != ir.FuncLocal || a.Rank() == 0 || a.Dims[0].Iter != nil || a.Dims[0].Param != nil {
			continue
		}
		var cands []ir.Aff
		for _, d := range a.Dims[1:] {
			cands = append(cands, d)
		}
		for p := range b.prog.Params {
			c := ir.NewAff(0, b.np, 0)
			c.Param[p] = 1
			cands = append(cands, c)
		}
		for _, c := range cands {
			if b.covers(k, c) {
				a.Dims[0] = padAff(c, 0, b.np, 0)
				break
			}
		}
	}
}

// covers reports whether 0 ≤ s < size for the first subscript s of every
// access to array k.
func (b *builder) covers(k int, size ir.Aff) bool {
	used := false
	for _, st := range b.prog.Stmts {
		d, nl := st.Depth(), len(st.Domain.Divs)
		for _, acc := range st.Accesses {
			if acc.Array != k {
				continue
			}
			used = true
			s := padAff(acc.Index[0], d, b.np, nl)
			neg, _, ok1 := scaleAff(s, -1) // s ≤ −1
			neg.Const--
			over, _, ok2 := addAff(s, -1, padAff(size, d, b.np, nl)) // s − size ≥ 0
			if !ok1 || !ok2 {
				return false
			}
			for _, bad := range []ir.Aff{neg, over} {
				empty, err := b.empty(d, st.Domain.Divs, st.Domain.Cons, []ir.Constraint{{Aff: bad}})
				if err != nil || !empty {
					return false
				}
			}
		}
	}
	return used
}

// marker stands for placeholder local l in an expression until expand
// replaces it: a ParamRef with the negative index −(l+1), which no
// program has, so that ir.Check rejects one left behind.
func marker(l int, t ir.Type) *ir.ParamRef { return &ir.ParamRef{T: t, Param: -(l + 1)} }

// isMarker reports whether e is the marker of local l.
func isMarker(e ir.Expr, l int) bool {
	p, ok := e.(*ir.ParamRef)
	return ok && p.Param == -(l+1)
}

// hasMarker reports whether e holds a marker of local l (any local when
// l < 0).
func hasMarker(e ir.Expr, l int) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) bool {
		if p, ok := x.(*ir.ParamRef); ok && p.Param < 0 && (l < 0 || p.Param == -(l+1)) {
			found = true
		}
		return !found
	})
	return found
}

// replaceMarker returns a copy of e (leaves copied by cloneExpr) with the
// marker of local l replaced by repl.
func replaceMarker(e ir.Expr, l int, repl func(t ir.Type) ir.Expr) ir.Expr {
	r := func(x ir.Expr) ir.Expr { return replaceMarker(x, l, repl) }
	switch x := e.(type) {
	case *ir.ParamRef:
		if isMarker(x, l) {
			return repl(x.T)
		}
		return cloneExpr(x)
	case *ir.Const, *ir.Load, *ir.IterRef:
		return cloneExpr(x)
	case *ir.Unary:
		return &ir.Unary{Op: x.Op, X: r(x.X), T: x.T}
	case *ir.Binary:
		return &ir.Binary{Op: x.Op, X: r(x.X), Y: r(x.Y), T: x.T}
	case *ir.Cond:
		return &ir.Cond{C: r(x.C), X: r(x.X), Y: r(x.Y), T: x.T}
	case *ir.Cast:
		return &ir.Cast{T: x.T, X: r(x.X), Implicit: x.Implicit}
	case *ir.Call:
		c := &ir.Call{Fn: x.Fn, T: x.T}
		for _, a := range x.Args {
			c.Args = append(c.Args, r(a))
		}
		return c
	}
	return e
}

// iterTypes returns the types of the enclosing loops' counters.
func (b *builder) iterTypes() []ir.Type {
	var out []ir.Type
	for _, l := range b.loops {
		out = append(out, l.typ)
	}
	return out
}
