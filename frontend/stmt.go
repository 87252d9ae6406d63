package frontend

import (
	"fmt"
	"nestor/internal/intmath"
	"slices"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// item translates one block item of the region.
func (b *builder) item(it *cc.BlockItem) {
	if it == nil {
		return
	}
	switch it.Case {
	case cc.BlockItemDecl:
		b.decl(it.Declaration)
	case cc.BlockItemStmt:
		b.stmt(it.Statement)
	case cc.BlockItemLabel:
		b.unsupported(it, "label declaration")
	default:
		b.unsupported(it, "nested function definition")
	}
}

func (b *builder) block(l *cc.BlockItemList) {
	for ; l != nil; l = l.BlockItemList {
		b.item(l.BlockItem)
	}
}

// jumpNames names the jump statements, all outside the subset.
var jumpNames = map[cc.JumpStatementCase]string{
	cc.JumpStatementGoto:     "goto",
	cc.JumpStatementGotoExpr: "computed goto",
	cc.JumpStatementContinue: "continue",
	cc.JumpStatementBreak:    "break",
	cc.JumpStatementReturn:   "return",
}

func (b *builder) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementCompound:
		if s.CompoundStatement != nil {
			b.block(s.CompoundStatement.BlockItemList)
		}
	case cc.StatementExpr:
		b.exprStmt(s.ExpressionStatement)
	case cc.StatementSelection:
		b.selection(s.SelectionStatement)
	case cc.StatementIteration:
		b.iteration(s.IterationStatement)
	case cc.StatementJump:
		b.unsupported(s, "%s", jumpNames[s.JumpStatement.Case])
	case cc.StatementLabeled:
		b.unsupported(s, "labeled statement")
	case cc.StatementAsm:
		b.unsupported(s, "asm statement")
	}
}

// selection translates an if statement with an affine condition: the
// condition's constraints join the domains of the then branch; an else
// branch is supported when the condition is one inequality, whose negation
// is one inequality too. A condition that reads memory becomes selects
// (select.go).
func (b *builder) selection(s *cc.SelectionStatement) {
	if s.Case == cc.SelectionStatementSwitch {
		b.unsupported(s, "switch")
		return
	}
	if b.dataDependent(s.ExpressionList) {
		b.dataSelection(s)
		return
	}
	nc, nd := len(b.cons), len(b.divs)
	cons, ok := b.condition(s.ExpressionList, "condition")
	if !ok {
		// Translate the branches anyway, to report their errors too.
		cons = nil
	}
	b.cons = append(b.cons, cons...)
	b.enterScope()
	b.stmt(s.Statement)
	b.leaveScope()
	b.cons = b.cons[:nc]
	b.enterScope()
	defer b.leaveScope()
	if s.Case == cc.SelectionStatementIfElse {
		if ok && (len(cons) != 1 || cons[0].Eq) {
			b.unsupported(s.Token4, "else branch of condition %s, whose negation is not one inequality", source(s.ExpressionList))
		} else if ok {
			neg, _, ok2 := scaleAff(cons[0].Aff, -1)
			if ok2 {
				neg.Const, ok2 = add64(neg.Const, -1)
			}
			if ok2 {
				b.cons = append(b.cons, ir.Constraint{Aff: neg})
			}
		}
		b.stmt(s.Statement2)
		b.cons = b.cons[:nc]
	}
	b.divs = b.divs[:nd]
}

// iteration translates a for loop with affine bounds and a constant step;
// other loops are errors.
func (b *builder) iteration(n *cc.IterationStatement) {
	switch n.Case {
	case cc.IterationStatementWhile:
		b.unsupported(n, "while loop")
		return
	case cc.IterationStatementDo:
		b.unsupported(n, "do-while loop")
		return
	}
	// The counter and its first value.
	var counter *cc.Declarator
	var init cc.ExpressionNode
	var at cc.Node = n
	switch n.Case {
	case cc.IterationStatementFor:
		if n.ExpressionList == nil {
			// "for (; i < n; i++)" starts from the counter's value.
			counter = stepVar(n.ExpressionList3)
			if counter == nil {
				b.unsupported(n, "for loop without initialization or increment")
				return
			}
			break
		}
		ae, ok := n.ExpressionList.(*cc.AssignmentExpression)
		if !ok || ae.Case != cc.AssignmentExpressionAssign {
			b.unsupported(n.ExpressionList, "loop initialization %s is not \"counter = expression\"", source(n.ExpressionList))
			return
		}
		_, counter = ident(ae.UnaryExpression)
		init, at = ae.AssignmentExpression, ae
	case cc.IterationStatementForDecl:
		dl := n.Declaration
		if dl == nil || dl.InitDeclaratorList == nil || dl.InitDeclaratorList.InitDeclaratorList != nil ||
			dl.InitDeclaratorList.InitDeclarator == nil || dl.InitDeclaratorList.InitDeclarator.Initializer == nil ||
			dl.InitDeclaratorList.InitDeclarator.Initializer.Case != cc.InitializerExpr {
			b.unsupported(n, "loop declaration must declare one initialized counter")
			return
		}
		id := dl.InitDeclaratorList.InitDeclarator
		counter, init, at = id.Declarator, id.Initializer.AssignmentExpression, id
	}
	if counter == nil || !isIntScalar(counter) {
		b.unsupported(at, "loop counter is not an integer variable")
		return
	}
	for _, l := range b.loops {
		if l.decl == counter {
			b.unsupported(at, "assignment to loop counter %s", counter.Name())
			return
		}
	}
	name := counter.Name()
	typ, _ := scalarType(counter.Type())
	// "for (decl cond; inc)" has one expression list fewer.
	condExpr, incExpr := n.ExpressionList2, n.ExpressionList3
	if n.Case == cc.IterationStatementForDecl {
		condExpr, incExpr = n.ExpressionList, n.ExpressionList2
	}
	step, ok := b.step(n, incExpr, counter)
	if !ok {
		return
	}
	if condExpr == nil {
		b.unsupported(n, "for loop without condition")
		return
	}
	dir := 1
	if step < 0 {
		dir = -1
	}

	nc, nd := len(b.cons), len(b.divs)
	var final []alt
	finalWhy := "its loop is outside the subset"
	defer func() {
		// After the loop, the counter holds its final value.
		if finalWhy == "" {
			b.setFinal(counter, final)
		} else {
			b.setValue(counter, ir.Aff{}, fmt.Sprintf("the value of %s after its loop is not affine: %s", name, finalWhy))
		}
	}()
	defer func() { b.cons, b.divs = b.cons[:nc], b.divs[:nd] }()
	depth := len(b.loops)
	var lb *bound
	okLB := true
	if init != nil {
		lb, okLB = b.boundTree(init, "bound")
	} else {
		a, why := b.value(counter, depth)
		if why != "" {
			b.unsupported(n, "for loop without initialization: %s", why)
			return
		}
		lb = &bound{aff: a, den: 1}
	}
	var value *ir.Aff
	if okLB && init != nil && intmath.Abs(step) > 1 && dividedInSubscript(n.Statement, counter) {
		value = b.normalize(lb, depth, step)
	}
	if value != nil {
		dir = 1 // the trip number goes up whichever way the counter moves
	}
	b.enterScope()
	b.loops = append(b.loops, &loop{decl: counter, name: name, typ: typ, dir: dir, index: b.next[depth], value: value})
	b.next = append(b.next, 0)
	defer func() {
		b.loops = b.loops[:depth]
		b.next = b.next[:depth+1]
		b.next[depth]++
		b.leaveScope()
	}()
	iv := ir.NewAff(depth+1, b.np, 0)
	iv.Iter[depth] = 1
	it := &bound{aff: iv, den: 1}
	if value != nil {
		// The trip number starts at 0.
		b.cons = append(b.cons, ir.Constraint{Aff: iv})
		finalWhy = fmt.Sprintf("its loop steps by %d and is counted by trips (%s is divided in a subscript)", step, name)
	} else if okLB {
		// The first value: i ≥ lb going up, i ≤ lb going down.
		var cons []ir.Constraint
		var why string
		if dir > 0 {
			cons, why = b.le(lb, it)
		} else {
			cons, why = b.le(it, lb)
		}
		if why != "" {
			b.unsupported(init, "lower bound %s of %s is %s", source(init), name, why)
		}
		b.cons = append(b.cons, cons...)
		if s := intmath.Abs(step); s > 1 && why == "" {
			b.stride(init, lb, depth, dir, s)
		}
	}
	cond, okCond := b.condition(condExpr, "loop condition")
	if okCond {
		bounded := false
		for _, c := range cond {
			if v := c.Iter; len(v) > depth && (c.Eq || v[depth]*int64(dir) < 0) {
				bounded = true
			}
		}
		if !bounded {
			b.unsupported(condExpr, "loop condition %s does not bound %s in the direction it moves", source(condExpr), name)
		}
		b.cons = append(b.cons, cond...)
		if okLB && value == nil {
			final, finalWhy = b.finalValue(lb, cond, depth, dir, intmath.Abs(step), nd)
		}
	}
	if !declaredIn(counter, n) && !b.declared[counter] && !slices.Contains(b.prog.Vars, name) {
		b.prog.Vars = append(b.prog.Vars, name)
	}
	b.stmt(n.Statement)
}

// declaredIn reports whether the counter is declared by the loop itself.
func declaredIn(d *cc.Declarator, n *cc.IterationStatement) bool {
	return n.Case == cc.IterationStatementForDecl
}

// normalize returns the value lb + step·k of a counter whose loop is
// counted by its trip number k ≥ 0 instead, or nil when lb is not one
// affine form without floor divisions. nestor counts a loop with a step
// s ≠ ±1 so when its counter is divided in a subscript (A[i/3] in a loop
// "i += 3"): over the trip number, i/3 = lb/3 + k is affine where 3
// divides lb's coefficients (exactDiv), whereas over i it needs the floor
// division ⌊(i − lb)/3⌋, which subscripts may not use. Other strided
// loops keep their counter and a stride local (stride), which reads
// better in notes.
func (b *builder) normalize(lb *bound, depth int, step int64) *ir.Aff {
	if len(lb.kids) > 0 || lb.den != 1 || slices.ContainsFunc(lb.aff.Local, func(c int64) bool { return c != 0 }) {
		return nil
	}
	v := padAff(lb.aff, depth+1, b.np, 0)
	v.Iter[depth] = step
	return &v
}

// dividedInSubscript reports whether a subscript in body divides an
// expression that reads counter (by / or %).
func dividedInSubscript(body cc.Node, counter *cc.Declarator) bool {
	found := false
	walk(body, func(n cc.Node) bool {
		pe, ok := n.(*cc.PostfixExpression)
		if found || !ok || pe.Case != cc.PostfixExpressionIndex {
			return !found
		}
		walk(pe.ExpressionList, func(n cc.Node) bool {
			me, ok := n.(*cc.MultiplicativeExpression)
			if ok && (me.Case == cc.MultiplicativeExpressionDiv || me.Case == cc.MultiplicativeExpressionMod) && reads(me.MultiplicativeExpression, counter) {
				found = true
			}
			return !found
		})
		return !found
	})
	return found
}

// reads reports whether e names d.
func reads(e cc.Node, d *cc.Declarator) bool {
	found := false
	walk(e, func(n cc.Node) bool {
		if pe, ok := n.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent && pe.ResolvedTo() == d {
			found = true
		}
		return !found
	})
	return found
}

// stride adds the local q = ⌊(i − lb)/s⌋ (⌊(lb − i)/s⌋ going down) and the
// equality i − lb − s·q = 0 for a loop with step ±s, s > 1.
func (b *builder) stride(init cc.ExpressionNode, lb *bound, depth, dir int, s int64) {
	if len(lb.kids) > 0 || lb.den != 1 {
		b.unsupported(init, "loop with step %d needs an affine first value, not %s", s, source(init))
		return
	}
	iv := ir.NewAff(depth+1, b.np, 0)
	iv.Iter[depth] = 1
	diff, _, ok := addAff(iv, -1, lb.aff)
	if ok && dir < 0 {
		diff, _, ok = scaleAff(diff, -1)
	}
	if !ok {
		b.unsupported(init, "coefficient overflow")
		return
	}
	q := b.floorDiv(diff, s)
	eq, _, ok := addAff(diff, -s, q)
	if !ok {
		b.unsupported(init, "coefficient overflow")
		return
	}
	b.cons = append(b.cons, ir.Constraint{Aff: eq, Eq: true})
}

// step returns the constant step of a for loop's increment.
func (b *builder) step(n *cc.IterationStatement, e cc.ExpressionNode, counter *cc.Declarator) (int64, bool) {
	if e == nil {
		b.unsupported(n, "for loop without increment")
		return 0, false
	}
	bad := func(why string) (int64, bool) {
		b.unsupported(e, "loop increment %s %s", source(e), why)
		return 0, false
	}
	constStep := func(x cc.ExpressionNode) (int64, bool) {
		v, ok := intValue(x)
		if !ok {
			b.unsupported(x, "non-constant stride %s", source(x))
			return 0, false
		}
		if v == 0 {
			b.unsupported(x, "loop step is zero")
			return 0, false
		}
		return v, true
	}
	is := func(x cc.ExpressionNode) bool { _, d := ident(x); return d == counter }
	switch x := unparen(e).(type) {
	case *cc.PostfixExpression:
		if is(x.PostfixExpression) {
			switch x.Case {
			case cc.PostfixExpressionInc:
				return 1, true
			case cc.PostfixExpressionDec:
				return -1, true
			}
		}
	case *cc.UnaryExpression:
		if is(x.UnaryExpression) {
			switch x.Case {
			case cc.UnaryExpressionInc:
				return 1, true
			case cc.UnaryExpressionDec:
				return -1, true
			}
		}
	case *cc.AssignmentExpression:
		if !is(x.UnaryExpression) {
			return bad("does not step the counter " + counter.Name())
		}
		switch x.Case {
		case cc.AssignmentExpressionAdd:
			return constStep(x.AssignmentExpression)
		case cc.AssignmentExpressionSub:
			v, ok := constStep(x.AssignmentExpression)
			if !ok || v == -1<<63 {
				return 0, false
			}
			return -v, true
		case cc.AssignmentExpressionAssign:
			ae, ok := unparen(x.AssignmentExpression).(*cc.AdditiveExpression)
			if !ok || ae.Case == cc.AdditiveExpressionMul {
				break
			}
			switch {
			case is(ae.AdditiveExpression):
				v, ok := constStep(ae.MultiplicativeExpression)
				if !ok || v == -1<<63 {
					return 0, false
				}
				if ae.Case == cc.AdditiveExpressionSub {
					v = -v
				}
				return v, true
			case is(ae.MultiplicativeExpression) && ae.Case == cc.AdditiveExpressionAdd:
				return constStep(ae.AdditiveExpression)
			}
		}
	}
	return bad("is not a constant step of " + counter.Name())
}

// exprStmt translates "lhs = rhs;" and "lhs op= rhs;".
func (b *builder) exprStmt(es *cc.ExpressionStatement) {
	if es == nil || es.ExpressionList == nil {
		return // the empty statement
	}
	e := es.ExpressionList
	if isVoidCast(e) {
		// "(void)i;", as nestor's output marks unused counters: nothing
		// to run, but the output marks the variable again.
		if _, d := ident(unparen(e).(*cc.CastExpression).CastExpression); d != nil && !b.declared[d] && !slices.Contains(b.prog.Voided, d.Name()) {
			b.prog.Voided = append(b.prog.Voided, d.Name())
		}
		return
	}
	if b.heapFree(e) {
		return // the region's heap arrays are freed where it ends
	}
	ae, ok := e.(*cc.AssignmentExpression)
	if !ok || ae.Case == cc.AssignmentExpressionCond {
		b.unsupported(e, "%s", describeExprStmt(e))
		return
	}
	if ae.Case == cc.AssignmentExpressionAssign {
		// "i = 0;" before "for (; i < n - 7; i += 8)", as nestor's output
		// starts a register-tiled loop whose counter is the function's
		// variable: the counter's value, as a declaration would set it,
		// outside every loop of that counter.
		if _, d := ident(ae.UnaryExpression); d != nil && b.counters[d] && !slices.ContainsFunc(b.loops, func(l *loop) bool { return l.decl == d }) {
			b.counterInit(es, d, ae.AssignmentExpression)
			return
		}
	}
	first, _, _ := b.extent(es)
	end := goPos(es.Token.Position()).Offset + 1
	b.chain(es, ae, b.text(first, end))
}

// chain translates an assignment whose right side may itself be an
// assignment, "a1 = a5 = k;": the innermost assignment runs first, and
// each outer one stores the value the inner one stored, read back from
// its left side (C99 6.5.16: the value of an assignment is that of its
// left operand after the assignment, so reading it back is the same value
// converted to that operand's type).
func (b *builder) chain(n cc.Node, ae *cc.AssignmentExpression, text string) {
	rhs := ae.AssignmentExpression
	if r, ok := unparen(rhs).(*cc.AssignmentExpression); ok && r.Case != cc.AssignmentExpressionCond {
		b.chain(n, r, text)
		rhs = r.UnaryExpression
	}
	b.assign(n, ae.UnaryExpression, assignOps[ae.Case], rhs, text)
}

// assignOps maps cc's assignment cases to nestor's operators.
var assignOps = map[cc.AssignmentExpressionCase]ir.AssignOp{
	cc.AssignmentExpressionAssign: ir.Assign,
	cc.AssignmentExpressionMul:    ir.MulAssign,
	cc.AssignmentExpressionDiv:    ir.QuoAssign,
	cc.AssignmentExpressionMod:    ir.RemAssign,
	cc.AssignmentExpressionAdd:    ir.AddAssign,
	cc.AssignmentExpressionSub:    ir.SubAssign,
	cc.AssignmentExpressionLsh:    ir.ShlAssign,
	cc.AssignmentExpressionRsh:    ir.ShrAssign,
	cc.AssignmentExpressionAnd:    ir.AndAssign,
	cc.AssignmentExpressionXor:    ir.XorAssign,
	cc.AssignmentExpressionOr:     ir.OrAssign,
}

// describeExprStmt says why an expression statement is not an assignment.
func describeExprStmt(e cc.ExpressionNode) string {
	switch x := unparen(e).(type) {
	case *cc.ExpressionList:
		return "comma expression " + source(e)
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
			return "increment statement " + source(e) + " (write it as an assignment)"
		case cc.PostfixExpressionCall:
			return "call to " + calleeName(x) + " with side effects"
		}
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
			return "increment statement " + source(e) + " (write it as an assignment)"
		}
	}
	return "expression statement " + source(e) + " is not an assignment"
}

func calleeName(x *cc.PostfixExpression) string {
	if pe, ok := unparen(x.PostfixExpression).(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
		return pe.Token.SrcStr()
	}
	return source(x.PostfixExpression)
}

// decl translates a declaration inside the region: an initialized scalar
// becomes an assignment to a region-local variable; arrays and scalars
// without initializer only declare.
func (b *builder) decl(d *cc.Declaration) {
	if d == nil || d.Case != cc.DeclarationDecl {
		if d != nil && d.Case == cc.DeclarationAssert {
			return
		}
		b.unsupported(d, "declaration")
		return
	}
	if ds := d.DeclarationSpecifiers; ds != nil {
		for s := ds; s != nil; s = s.DeclarationSpecifiers {
			if s.Case == cc.DeclarationSpecifiersStorage && s.StorageClassSpecifier != nil {
				switch s.StorageClassSpecifier.Case {
				case cc.StorageClassSpecifierTypedef:
					return
				case cc.StorageClassSpecifierAuto, cc.StorageClassSpecifierRegister:
				default:
					b.unsupported(d, "%s declaration inside the region", s.StorageClassSpecifier.Token.SrcStr())
					return
				}
			}
		}
	}
	single := d.InitDeclaratorList != nil && d.InitDeclaratorList.InitDeclaratorList == nil
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		dd := id.Declarator
		if id.Case != cc.InitDeclaratorInit || id.Initializer == nil {
			continue // declared on first use
		}
		if id.Initializer.Case == cc.InitializerExpr && b.heapDecl(id, dd, id.Initializer.AssignmentExpression) {
			continue
		}
		if b.counters[dd] && id.Initializer.Case == cc.InitializerExpr {
			// "int t4 = 64*t1;" before "for (; t4 < ...; ...)".
			b.counterInit(id, dd, id.Initializer.AssignmentExpression)
			continue
		}
		if id.Initializer.Case != cc.InitializerExpr {
			b.unsupported(id, "initializer list for %s", dd.Name())
			continue
		}
		var text string
		if single {
			first, _, _ := b.extent(d)
			text = b.text(first, goPos(d.Token.Position()).Offset+1)
		} else {
			first, end, _ := b.extent(id)
			text = b.text(first, end) + ";"
		}
		b.assignDecl(id, dd, id.Initializer.AssignmentExpression, text)
	}
}

// isVoidCast reports whether e is "(void)x" for an x without side effects.
func isVoidCast(e cc.ExpressionNode) bool {
	ce, ok := unparen(e).(*cc.CastExpression)
	return ok && ce.Case == cc.CastExpressionCast && ce.Type() != nil && ce.Type().Kind() == cc.Void && sideEffectFree(ce.CastExpression)
}

// counterInit records the value a declaration gives a loop counter.
func (b *builder) counterInit(n cc.Node, d *cc.Declarator, e cc.ExpressionNode) {
	a, why, ok := b.aff(e, affBound)
	if ce, isCond := unparen(e).(*cc.ConditionalExpression); !ok && isCond && ce.Case == cc.ConditionalExpressionCond {
		// "int t5 = nestor_max(t4 + 1, 64*t3);": the extremum, piece by
		// piece.
		if t, isMinMax := b.minMax(ce, "bound"); isMinMax {
			a, ok = b.extremum(t)
		}
	}
	if !ok {
		b.setValue(d, ir.Aff{}, fmt.Sprintf("the initial value %s of %s is not affine%s", source(e), d.Name(), why))
		return
	}
	b.setValue(d, a, "")
}

// heapDecl recognizes "T *p = __builtin_malloc(sizeof(T) * (e));" (or
// malloc, the factors in any order) with e affine in the parameters, as
// nestor's output allocates an expanded scalar: p becomes a region-local
// array of e elements on the heap (ir.Array.Heap), which generated code
// allocates at the region's start and frees at its end. A pointer to
// rows, "T (*p)[e2]…[ek] = __builtin_malloc(sizeof(T) * (e1) * (e2) * …
// * (ek));", the sizes after the first those of its rows, is an array of
// e1 × … × ek elements.
func (b *builder) heapDecl(n cc.Node, d *cc.Declarator, e cc.ExpressionNode) bool {
	t, layers, ok := elemType(d.Type())
	rows, shapeOK := rowDims(d)
	if !ok || !shapeOK || layers != 1+len(rows) || d.Type().Kind() != cc.Ptr {
		return false
	}
	call, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || call.Case != cc.PostfixExpressionCall || call.ArgumentExpressionList == nil || call.ArgumentExpressionList.ArgumentExpressionList != nil {
		return false
	}
	if name := calleeName(call); name != "__builtin_malloc" && name != "malloc" {
		return false
	}
	// The factors of the size, left to right: sizeof(T) once, then the
	// sizes of the dimensions in order.
	var factors []cc.ExpressionNode
	x := unparen(call.ArgumentExpressionList.AssignmentExpression)
	for {
		mul, ok := x.(*cc.MultiplicativeExpression)
		if !ok || mul.Case != cc.MultiplicativeExpressionMul {
			factors = append(factors, x)
			break
		}
		factors = append(factors, mul.CastExpression)
		x = mul.MultiplicativeExpression
	}
	slices.Reverse(factors)
	var dims []ir.Aff
	elem := false
	for _, f := range factors {
		if v, ok := intValue(f); ok && v == int64(t.Size()) && !elem {
			elem = true
			continue
		}
		a, _, ok := b.aff(f, affSize)
		if !ok {
			return false
		}
		dims = append(dims, a)
	}
	if !elem || len(dims) != 1+len(rows) {
		return false
	}
	for k, r := range rows {
		a, _, ok := b.aff(r, affSize)
		if !ok || !a.Equal(dims[1+k]) {
			return false
		}
	}
	b.arrays[d] = len(b.prog.Arrays)
	b.prog.Arrays = append(b.prog.Arrays, &ir.Array{
		Name: b.uniqueName(d.Name()), Elem: t, Dims: dims, Storage: ir.ScopLocal, Heap: true,
		Pos: goPos(d.Position()), RegionOnly: b.regionOnly(d),
	})
	return true
}

// rowDims returns the sizes of the rows of a pointer declarator: none for
// "*p", e2 … ek for "(*p)[e2]…[ek]"; false for any other declarator.
func rowDims(d *cc.Declarator) ([]cc.ExpressionNode, bool) {
	if d.Pointer != nil {
		return nil, d.Pointer.Pointer == nil && d.DirectDeclarator != nil && d.DirectDeclarator.Case == cc.DirectDeclaratorIdent
	}
	var rows []cc.ExpressionNode
	dd := d.DirectDeclarator
	for dd != nil && dd.Case == cc.DirectDeclaratorArr && dd.AssignmentExpression != nil {
		rows = append(rows, dd.AssignmentExpression)
		dd = dd.DirectDeclarator
	}
	if dd == nil || dd.Case != cc.DirectDeclaratorDecl || len(rows) == 0 {
		return nil, false
	}
	in := dd.Declarator
	if in == nil || in.Pointer == nil || in.Pointer.Pointer != nil || in.DirectDeclarator == nil || in.DirectDeclarator.Case != cc.DirectDeclaratorIdent {
		return nil, false
	}
	slices.Reverse(rows)
	return rows, true
}

// heapFree reports whether e is "free(p)" (or __builtin_free) of a heap
// array of the region (heapDecl).
func (b *builder) heapFree(e cc.ExpressionNode) bool {
	call, ok := unparen(e).(*cc.PostfixExpression)
	if !ok || call.Case != cc.PostfixExpressionCall || call.ArgumentExpressionList == nil || call.ArgumentExpressionList.ArgumentExpressionList != nil {
		return false
	}
	if name := calleeName(call); name != "__builtin_free" && name != "free" {
		return false
	}
	_, d := ident(call.ArgumentExpressionList.AssignmentExpression)
	k, ok := b.arrays[d]
	return d != nil && ok && k >= 0 && b.prog.Arrays[k].Heap
}
