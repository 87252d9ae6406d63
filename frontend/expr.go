package frontend

import (
	"math/big"
	"slices"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// body collects the accesses of the statement being translated.
type body struct {
	accs []*ir.Access
}

// read returns the index of a read access to arr[idx], sharing an equal
// earlier read (access 0, the write, is never shared).
func (s *body) read(arr int, idx []ir.Aff) int {
	for k, a := range s.accs {
		if k > 0 && a.Array == arr && slices.EqualFunc(a.Index, idx, ir.Aff.Equal) {
			return k
		}
	}
	s.accs = append(s.accs, &ir.Access{Array: arr, Index: idx})
	return len(s.accs) - 1
}

// assign translates lhs op rhs into a statement.
func (b *builder) assign(n cc.Node, lhs cc.ExpressionNode, op ir.AssignOp, rhs cc.ExpressionNode, text string) {
	arr, idx, ok := b.ref(lhs, true)
	s := &body{accs: []*ir.Access{{Array: arr, Write: true, Index: idx}}}
	if ok && op != ir.Assign {
		s.accs = append(s.accs, &ir.Access{Array: arr, Index: idx})
	}
	r, ok2 := b.expr(s, rhs)
	if !ok || !ok2 {
		return
	}
	b.emit(n, s, op, r, text)
}

// assignDecl translates "T x = rhs;" inside the region.
func (b *builder) assignDecl(n cc.Node, d *cc.Declarator, rhs cc.ExpressionNode, text string) {
	arr, ok := b.array(n, d)
	if ok && b.prog.Arrays[arr].Rank() > 0 {
		b.unsupported(n, "initialized array %s", d.Name())
		ok = false
	}
	s := &body{accs: []*ir.Access{{Array: arr, Write: true}}}
	r, ok2 := b.expr(s, rhs)
	if !ok || !ok2 {
		return
	}
	b.emit(n, s, ir.Assign, r, text)
}

// emit appends a statement at the current position of the loop tree: one
// statement, or one per case when it uses placeholders (split.go).
func (b *builder) emit(n cc.Node, s *body, op ir.AssignOp, rhs ir.Expr, text string) {
	d, nl := len(b.loops), len(b.divs)
	if op == ir.Assign {
		rhs = convert(rhs, b.prog.Arrays[s.accs[0].Array].Elem)
	}
	st := &ir.Stmt{Op: op, RHS: rhs, Accesses: s.accs, Pos: b.pos(n), Text: text}
	for _, l := range b.loops {
		st.Iters = append(st.Iters, l.name)
		st.Dir = append(st.Dir, l.dir)
		st.Beta = append(st.Beta, l.index)
	}
	st.Beta = append(st.Beta, 0)
	for _, dv := range b.divs {
		st.Domain.Divs = append(st.Domain.Divs, ir.Div{Num: padAff(dv.Num, d, b.np, nl), Den: dv.Den})
	}
	for _, c := range b.cons {
		st.Domain.Cons = append(st.Domain.Cons, ir.Constraint{Aff: padAff(c.Aff, d, b.np, nl), Eq: c.Eq})
	}
	for _, a := range s.accs {
		for k := range a.Index {
			a.Index[k] = padAff(a.Index[k], d, b.np, nl)
		}
	}
	b.overflow = false
	b.exprTypes = b.iterTypes()
	sts, why := b.expand(st)
	if b.overflow {
		why = "coefficient overflow"
	}
	if why != "" {
		b.unsupported(n, "statement %s: %s", text, why)
		return
	}
	for _, c := range sts {
		c.Name = "S" + strconv.Itoa(len(b.prog.Stmts))
		c.Beta[d] = b.next[d]
		b.next[d]++
		b.prog.Stmts = append(b.prog.Stmts, c)
	}
}

// ref translates a variable or array element reference (lhs when write)
// into an array index and affine subscripts.
func (b *builder) ref(e cc.ExpressionNode, write bool) (int, []ir.Aff, bool) {
	var subs []cc.ExpressionNode
	x := unparen(e)
	// "b[i][j].re": a member of an array of structs (ir.Array.Members).
	// "p->re" is p[0].re.
	var member *cc.PostfixExpression
	arrow := false
	if pe, ok := x.(*cc.PostfixExpression); ok && (pe.Case == cc.PostfixExpressionSelect || pe.Case == cc.PostfixExpressionPSelect) {
		member, arrow = pe, pe.Case == cc.PostfixExpressionPSelect
		x = unparen(pe.PostfixExpression)
	}
	for {
		pe, ok := x.(*cc.PostfixExpression)
		if !ok || pe.Case != cc.PostfixExpressionIndex {
			break
		}
		subs = append(subs, pe.ExpressionList)
		x = unparen(pe.PostfixExpression)
	}
	slices.Reverse(subs)
	pe, ok := x.(*cc.PrimaryExpression)
	if !ok || pe.Case != cc.PrimaryExpressionIdent {
		b.unsupported(e, "%s", describeRef(x))
		return -1, nil, false
	}
	d, ok := pe.ResolvedTo().(*cc.Declarator)
	if !ok || !isVariable(d) {
		b.unsupported(e, "%s is not a variable", pe.Token.SrcStr())
		return -1, nil, false
	}
	if write && len(subs) == 0 && !arrow { // p->re writes what p points to
		switch {
		case b.counters[d]:
			b.unsupported(e, "assignment to loop counter %s", d.Name())
			return -1, nil, false
		case d.IsParam():
			b.unsupported(e, "assignment to function parameter %s", d.Name())
			return -1, nil, false
		}
	}
	k, ok := b.array(e, d)
	if !ok {
		return -1, nil, false
	}
	arr := b.prog.Arrays[k]
	rank := arr.Rank()
	if arr.Members != nil {
		rank-- // the member is the last subscript
		if member == nil {
			b.unsupported(e, "whole struct %s: nestor reads and writes the members of %s one at a time (%s.%s)",
				source(e), d.Name(), source(e), arr.Members[0])
			return -1, nil, false
		}
	}
	first := 0 // the subscripts before subs: p->re's 0
	if arrow {
		if len(subs) > 0 {
			b.unsupported(e, "member access through a pointer element %s (write %s)", source(e), source(x)+"[...][0]."+member.Token2.SrcStr())
			return -1, nil, false
		}
		first = 1
	}
	if first+len(subs) != rank {
		if first+len(subs) < rank {
			b.unsupported(e, "pointer arithmetic: array %s used with %d of its %d subscripts", d.Name(), len(subs), rank)
		} else {
			b.unsupported(e, "%s has %d dimensions but %d subscripts", d.Name(), rank, len(subs))
		}
		return -1, nil, false
	}
	idx := make([]ir.Aff, first+len(subs), first+len(subs)+1)
	if first > 0 {
		idx[0] = ir.NewAff(0, b.np, 0)
	}
	good := true
	for j, sub := range subs {
		j += first
		a, why, ok := b.aff(sub, affSubscript)
		if !ok {
			b.unsupported(sub, "non-affine subscript %s%s", source(sub), why)
			good = false
			continue
		}
		idx[j] = a
	}
	if member != nil {
		m := slices.Index(arr.Members, member.Token2.SrcStr())
		if m < 0 {
			b.unsupported(e, "member %s of %s not found", member.Token2.SrcStr(), d.Name())
			return -1, nil, false
		}
		sel := ir.NewAff(0, b.np, 0)
		sel.Const = int64(m)
		idx = append(idx, sel)
	}
	return k, idx, good
}

// describeRef says why an expression is not a variable reference.
func describeRef(x cc.ExpressionNode) string {
	switch x := x.(type) {
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionDeref:
			return "pointer dereference " + source(x)
		case cc.UnaryExpressionAddrof:
			return "address-of " + source(x)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionSelect:
			return "struct member access " + source(x) + " of something other than a variable or an array element (nested structs and array members are outside the subset)"
		case cc.PostfixExpressionPSelect:
			return "member access through a pointer " + source(x) + " (write " + source(x.PostfixExpression) + "[0]." + x.Token2.SrcStr() + ")"
		case cc.PostfixExpressionCall:
			return "call to " + calleeName(x) + " in an array reference"
		}
	case *cc.AdditiveExpression:
		return "pointer arithmetic " + source(x)
	}
	return "unsupported reference " + source(x)
}

// constant translates a literal.
func constant(pe *cc.PrimaryExpression) (*ir.Const, bool) {
	t, ok := scalarType(pe.Type())
	if !ok {
		return nil, false
	}
	c := &ir.Const{T: t, Text: pe.Token.SrcStr()}
	switch v := pe.Value().(type) {
	case cc.Int64Value:
		c.Int = int64(v)
		if t.IsFloat() {
			c.Float = float64(v)
		}
	case cc.UInt64Value:
		c.Int = int64(v)
		if t.IsFloat() {
			c.Float = float64(v)
		}
	case cc.Float64Value:
		c.Float = float64(v)
	case *cc.LongDoubleValue:
		c.Float, _ = (*big.Float)(v).Float64()
	default:
		if !t.IsFloat() {
			return nil, false
		}
		f, err := strconv.ParseFloat(strings.TrimRight(c.Text, "fFlL"), 64)
		if err != nil {
			return nil, false
		}
		c.Float = f
	}
	if pe.Case == cc.PrimaryExpressionChar {
		c.T = ir.Int
	}
	return c, true
}

// expr translates a body expression, making C's conversions explicit. It
// reports errors itself and keeps going to report them all.
func (b *builder) expr(s *body, e cc.ExpressionNode) (ir.Expr, bool) {
	switch x := e.(type) {
	case nil:
		return nil, false
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionExpr:
			if _, ok := x.ExpressionList.(*cc.ExpressionList); ok {
				b.unsupported(e, "comma expression %s", source(e))
				return nil, false
			}
			return b.expr(s, x.ExpressionList)
		case cc.PrimaryExpressionInt, cc.PrimaryExpressionFloat, cc.PrimaryExpressionChar:
			c, ok := constant(x)
			if !ok {
				b.unsupported(e, "literal %s of type %s", source(e), x.Type())
				return nil, false
			}
			return c, true
		case cc.PrimaryExpressionIdent:
			return b.identExpr(s, x)
		case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
			b.unsupported(e, "string literal")
			return nil, false
		case cc.PrimaryExpressionStmt:
			b.unsupported(e, "statement expression")
			return nil, false
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionPrimary:
			return b.expr(s, x.PrimaryExpression)
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			arr, idx, ok := b.ref(e, false)
			if !ok {
				return nil, false
			}
			return &ir.Load{T: b.prog.Arrays[arr].Elem, Access: s.read(arr, idx)}, true
		case cc.PostfixExpressionCall:
			return b.call(s, x)
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			b.unsupported(e, "increment %s inside an expression", source(e))
			return nil, false
		}
		b.unsupported(e, "%s", describeRef(x))
		return nil, false
	case *cc.UnaryExpression:
		return b.unary(s, x)
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return b.expr(s, x.UnaryExpression)
		}
		t, ok := scalarType(x.Type())
		if !ok {
			b.unsupported(e, "cast to %s", x.Type())
			return nil, false
		}
		y, ok := b.expr(s, x.CastExpression)
		if !ok {
			return nil, false
		}
		return &ir.Cast{T: t, X: y}, true
	case *cc.MultiplicativeExpression:
		op := map[cc.MultiplicativeExpressionCase]ir.BinOp{cc.MultiplicativeExpressionMul: ir.Mul,
			cc.MultiplicativeExpressionDiv: ir.Quo, cc.MultiplicativeExpressionMod: ir.Rem}
		if x.Case == cc.MultiplicativeExpressionCast {
			return b.expr(s, x.CastExpression)
		}
		return b.binary(s, e, op[x.Case], x.MultiplicativeExpression, x.CastExpression)
	case *cc.AdditiveExpression:
		if x.Case == cc.AdditiveExpressionMul {
			return b.expr(s, x.MultiplicativeExpression)
		}
		if isPointer(x.AdditiveExpression) || isPointer(x.MultiplicativeExpression) {
			b.unsupported(e, "pointer arithmetic %s", source(e))
			return nil, false
		}
		op := ir.Add
		if x.Case == cc.AdditiveExpressionSub {
			op = ir.Sub
		}
		return b.binary(s, e, op, x.AdditiveExpression, x.MultiplicativeExpression)
	case *cc.ShiftExpression:
		switch x.Case {
		case cc.ShiftExpressionLsh:
			return b.binary(s, e, ir.Shl, x.ShiftExpression, x.AdditiveExpression)
		case cc.ShiftExpressionRsh:
			return b.binary(s, e, ir.Shr, x.ShiftExpression, x.AdditiveExpression)
		}
		return b.expr(s, x.AdditiveExpression)
	case *cc.RelationalExpression:
		op := map[cc.RelationalExpressionCase]ir.BinOp{cc.RelationalExpressionLt: ir.Lt, cc.RelationalExpressionGt: ir.Gt,
			cc.RelationalExpressionLeq: ir.Le, cc.RelationalExpressionGeq: ir.Ge}
		if x.Case == cc.RelationalExpressionShift {
			return b.expr(s, x.ShiftExpression)
		}
		return b.binary(s, e, op[x.Case], x.RelationalExpression, x.ShiftExpression)
	case *cc.EqualityExpression:
		switch x.Case {
		case cc.EqualityExpressionEq:
			return b.binary(s, e, ir.Eql, x.EqualityExpression, x.RelationalExpression)
		case cc.EqualityExpressionNeq:
			return b.binary(s, e, ir.Neq, x.EqualityExpression, x.RelationalExpression)
		}
		return b.expr(s, x.RelationalExpression)
	case *cc.AndExpression:
		if x.Case == cc.AndExpressionAnd {
			return b.binary(s, e, ir.And, x.AndExpression, x.EqualityExpression)
		}
		return b.expr(s, x.EqualityExpression)
	case *cc.ExclusiveOrExpression:
		if x.Case == cc.ExclusiveOrExpressionXor {
			return b.binary(s, e, ir.Xor, x.ExclusiveOrExpression, x.AndExpression)
		}
		return b.expr(s, x.AndExpression)
	case *cc.InclusiveOrExpression:
		if x.Case == cc.InclusiveOrExpressionOr {
			return b.binary(s, e, ir.Or, x.InclusiveOrExpression, x.ExclusiveOrExpression)
		}
		return b.expr(s, x.ExclusiveOrExpression)
	case *cc.LogicalAndExpression:
		if x.Case == cc.LogicalAndExpressionLAnd {
			return b.binary(s, e, ir.LAnd, x.LogicalAndExpression, x.InclusiveOrExpression)
		}
		return b.expr(s, x.InclusiveOrExpression)
	case *cc.LogicalOrExpression:
		if x.Case == cc.LogicalOrExpressionLOr {
			return b.binary(s, e, ir.LOr, x.LogicalOrExpression, x.LogicalAndExpression)
		}
		return b.expr(s, x.LogicalAndExpression)
	case *cc.ConditionalExpression:
		if x.Case != cc.ConditionalExpressionCond {
			return b.expr(s, x.LogicalOrExpression)
		}
		c, ok1 := b.expr(s, x.LogicalOrExpression)
		y, ok2 := b.expr(s, x.ExpressionList)
		z, ok3 := b.expr(s, x.ConditionalExpression)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		t := ir.Common(y.Type(), z.Type())
		return &ir.Cond{C: c, X: convert(y, t), Y: convert(z, t), T: t}, true
	case *cc.AssignmentExpression:
		if x.Case == cc.AssignmentExpressionCond {
			return b.expr(s, x.ConditionalExpression)
		}
		b.unsupported(e, "assignment %s inside an expression", source(e))
		return nil, false
	case *cc.ExpressionList:
		b.unsupported(e, "comma expression %s", source(e))
		return nil, false
	}
	b.unsupported(e, "expression %s", source(e))
	return nil, false
}

// isPointer reports whether e has pointer or array type.
func isPointer(e cc.ExpressionNode) bool {
	if e == nil || e.Type() == nil {
		return false
	}
	k := e.Type().Kind()
	return k == cc.Ptr || k == cc.Array
}

// identExpr translates a variable read: a counter, a parameter, an
// enumeration constant or a scalar variable.
func (b *builder) identExpr(s *body, pe *cc.PrimaryExpression) (ir.Expr, bool) {
	if en, ok := pe.ResolvedTo().(*cc.Enumerator); ok {
		if v, ok := intValue(pe); ok {
			return &ir.Const{T: ir.Int, Int: v, Text: pe.Token.SrcStr()}, true
		}
		b.unsupported(pe, "enumerator %s", en.Token.SrcStr())
		return nil, false
	}
	d, ok := pe.ResolvedTo().(*cc.Declarator)
	if !ok {
		b.unsupported(pe, "identifier %s", pe.Token.SrcStr())
		return nil, false
	}
	if !isVariable(d) {
		b.unsupported(pe, "function %s used as a value", d.Name())
		return nil, false
	}
	for k := len(b.loops) - 1; k >= 0; k-- {
		if l := b.loops[k]; l.decl == d {
			if l.value != nil {
				return affExpr(padAff(*l.value, len(b.loops), b.np, 0), l.typ, b.prog.Params, b.iterTypes()), true
			}
			return &ir.IterRef{T: l.typ, Level: k}, true
		}
	}
	if p, ok := b.params[d]; ok {
		return &ir.ParamRef{T: b.prog.Params[p].Type, Param: p}, true
	}
	if b.counters[d] {
		a, why := b.value(d, len(b.loops))
		for l, v := range a.Local {
			if _, ok := b.placeholderCases(b.divs[l]); v != 0 && !ok && why == "" {
				why = "its value needs a floor division, which nestor reads in subscripts and bounds, not in expressions"
			}
		}
		if why != "" {
			b.unsupported(pe, "loop counter %s used outside its loop: %s", d.Name(), why)
			return nil, false
		}
		t, _ := scalarType(d.Type())
		return affExpr(a, t, b.prog.Params, b.iterTypes()), true
	}
	arr, idx, ok := b.ref(pe, false)
	if !ok {
		return nil, false
	}
	return &ir.Load{T: b.prog.Arrays[arr].Elem, Access: s.read(arr, idx)}, true
}

// unary translates the unary operators.
func (b *builder) unary(s *body, x *cc.UnaryExpression) (ir.Expr, bool) {
	switch x.Case {
	case cc.UnaryExpressionPostfix:
		return b.expr(s, x.PostfixExpression)
	case cc.UnaryExpressionPlus, cc.UnaryExpressionMinus, cc.UnaryExpressionCpl, cc.UnaryExpressionNot:
		y, ok := b.expr(s, x.CastExpression)
		if !ok {
			return nil, false
		}
		t := ir.Promote(y.Type())
		switch x.Case {
		case cc.UnaryExpressionPlus:
			return convert(y, t), true
		case cc.UnaryExpressionMinus:
			return &ir.Unary{Op: ir.Neg, X: convert(y, t), T: t}, true
		case cc.UnaryExpressionCpl:
			if !t.IsInteger() {
				b.unsupported(x, "~ of %s", t)
				return nil, false
			}
			return &ir.Unary{Op: ir.BitNot, X: convert(y, t), T: t}, true
		}
		return &ir.Unary{Op: ir.Not, X: y, T: ir.Int}, true
	case cc.UnaryExpressionSizeofExpr, cc.UnaryExpressionSizeofType, cc.UnaryExpressionAlignofExpr, cc.UnaryExpressionAlignofType:
		if v, ok := intValue(x); ok {
			t, _ := scalarType(x.Type())
			return &ir.Const{T: t, Int: v}, true
		}
	case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
		b.unsupported(x, "increment %s inside an expression", source(x))
		return nil, false
	case cc.UnaryExpressionDeref:
		b.unsupported(x, "pointer dereference %s", source(x))
		return nil, false
	case cc.UnaryExpressionAddrof:
		b.unsupported(x, "address-of %s", source(x))
		return nil, false
	}
	b.unsupported(x, "expression %s", source(x))
	return nil, false
}

// binary translates a binary operator with C's usual arithmetic
// conversions made explicit.
func (b *builder) binary(s *body, e cc.ExpressionNode, op ir.BinOp, xe, ye cc.ExpressionNode) (ir.Expr, bool) {
	x, ok1 := b.expr(s, xe)
	y, ok2 := b.expr(s, ye)
	if !ok1 || !ok2 {
		return nil, false
	}
	xt, yt := x.Type(), y.Type()
	switch {
	case op.IsLogical():
		return &ir.Binary{Op: op, X: x, Y: y, T: ir.Int}, true
	case op.IsComparison():
		t := ir.Common(xt, yt)
		return &ir.Binary{Op: op, X: convert(x, t), Y: convert(y, t), T: ir.Int}, true
	case op == ir.Shl || op == ir.Shr:
		t := ir.Promote(xt)
		if !t.IsInteger() || !yt.IsInteger() {
			b.unsupported(e, "shift of %s by %s", xt, yt)
			return nil, false
		}
		return &ir.Binary{Op: op, X: convert(x, t), Y: convert(y, ir.Promote(yt)), T: t}, true
	}
	t := ir.Common(xt, yt)
	if (op == ir.Rem || op == ir.And || op == ir.Or || op == ir.Xor) && !t.IsInteger() {
		b.unsupported(e, "%s of %s", op, t)
		return nil, false
	}
	return &ir.Binary{Op: op, X: convert(x, t), Y: convert(y, t), T: t}, true
}

// call translates a call of a pure math function of <math.h>, or of a
// function the file declares __attribute__((const)) or
// __attribute__((pure)) (see funcAttr and pureCalls).
func (b *builder) call(s *body, x *cc.PostfixExpression) (ir.Expr, bool) {
	name := calleeName(x)
	_, d := ident(x.PostfixExpression)
	if d == nil || isVariable(d) {
		b.unsupported(x, "call through %s, which is not a function name", source(x.PostfixExpression))
		return nil, false
	}
	var argExprs []cc.ExpressionNode
	for l := x.ArgumentExpressionList; l != nil; l = l.ArgumentExpressionList {
		argExprs = append(argExprs, l.AssignmentExpression)
	}
	if f, ok := ir.MathFuncs[name]; ok {
		if len(argExprs) != f.Arity {
			b.unsupported(x, "call to %s with %d arguments, want %d", name, len(argExprs), f.Arity)
			return nil, false
		}
		args, ok := b.args(s, argExprs, func(int) ir.Type { return f.T })
		if !ok {
			return nil, false
		}
		return &ir.Call{Fn: name, Args: args, T: f.T}, true
	}
	attr := b.funcAttr(d)
	if attr == "" {
		b.unsupported(x, "call to %s, which may have side effects (a region calls the math functions of <math.h> and functions declared __attribute__((const)) or __attribute__((pure)))", name)
		return nil, false
	}
	ft, ok := d.Type().(*cc.FunctionType)
	if !ok {
		b.unsupported(x, "call to %s, whose type %s is not a function type", name, d.Type())
		return nil, false
	}
	rt, ok := scalarType(ft.Result())
	if !ok || rt == ir.Void {
		b.unsupported(x, "call to %s, which returns %s (a %s function must return a number)", name, ft.Result(), attr)
		return nil, false
	}
	params := ft.Parameters()
	if ft.IsVariadic() || len(params) != len(argExprs) {
		b.unsupported(x, "call to %s with %d arguments; its prototype takes %d", name, len(argExprs), len(params))
		return nil, false
	}
	var types []ir.Type
	for k, pr := range params {
		t, ok := scalarType(pr.Type())
		if !ok {
			b.unsupported(argExprs[k], "argument %d of %s has type %s (a region passes numbers only)", k+1, name, pr.Type())
			return nil, false
		}
		types = append(types, t)
	}
	args, ok := b.args(s, argExprs, func(k int) ir.Type { return types[k] })
	if !ok {
		return nil, false
	}
	if attr == "pure" {
		b.pureCalls = append(b.pureCalls, pureCall{at: x, name: name})
	}
	return &ir.Call{Fn: name, Args: args, T: rt}, true
}

// args translates call arguments, converting each to its parameter type.
func (b *builder) args(s *body, es []cc.ExpressionNode, typ func(int) ir.Type) ([]ir.Expr, bool) {
	var out []ir.Expr
	good := true
	for k, e := range es {
		a, ok := b.expr(s, e)
		if !ok {
			good = false
			continue
		}
		out = append(out, convert(a, typ(k)))
	}
	return out, good
}
