package frontend

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// Data-dependent conditions.
//
// An if statement whose condition reads memory (an array element, a
// scalar variable, a math function of them) is no guard of the
// polyhedral model. When its branches only assign scalar variables — the
// shape of argmin, "if (a[i] < m) { m = a[i]; k = i; }" — it becomes a
// sequence of selects that does exactly what the if does:
//
//	c = a[i] < m;        (a region-local int, evaluated first)
//	m = c ? a[i] : m;
//	k = c ? i : k;
//
// The condition is evaluated once, before any branch statement runs, so
// every select sees the value the if tested even when an earlier one
// updated a variable the condition reads. Each select assigns what the
// branch statement assigns when the condition holds and its variable's
// current value otherwise, and the statements of a branch run in their
// order, so each reads what it read in the branch. A branch of a single
// assignment with no else needs no temporary: "m = a[i] < m ? a[i] : m".
// An else branch selects on the negation. Anything else in a branch (an
// array element, a loop, a nested if) is a positioned error.

// dataDependent reports whether a condition reads memory: an array
// element, a variable that is neither an enclosing loop counter nor a
// parameter, or a function call.
func (b *builder) dataDependent(e cc.ExpressionNode) bool {
	found := false
	walk(e, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.PostfixExpression:
			if n.Case == cc.PostfixExpressionIndex || n.Case == cc.PostfixExpressionCall {
				found = true
			}
		case *cc.PrimaryExpression:
			if n.Case != cc.PrimaryExpressionIdent {
				break
			}
			d, ok := n.ResolvedTo().(*cc.Declarator)
			if !ok || !isVariable(d) {
				break
			}
			if _, ok := b.params[d]; ok {
				break
			}
			counter := false
			for _, l := range b.loops {
				counter = counter || l.decl == d
			}
			found = found || !counter
		}
		return !found
	})
	return found
}

// branchAssign is one assignment of a branch of a data-dependent if.
type branchAssign struct {
	es   *cc.ExpressionStatement
	ae   *cc.AssignmentExpression
	then bool // in the then branch (else: in the else branch)
}

// dataSelection translates an if statement with a data-dependent
// condition into selects (see above).
func (b *builder) dataSelection(s *cc.SelectionStatement) {
	cond := s.ExpressionList
	var as []branchAssign
	ok := b.branchAssigns(s.Statement, cond, true, &as)
	if s.Case == cc.SelectionStatementIfElse {
		ok = b.branchAssigns(s.Statement2, cond, false, &as) && ok
	}
	if !ok || len(as) == 0 {
		return
	}
	first, _, _ := b.extent(cond)
	_, end, _ := b.extent(cond)
	ctext := b.text(first, end)
	if len(as) == 1 && as[0].then {
		a := as[0]
		b.selectAssign(a, func(bd *body) (ir.Expr, bool) { return b.expr(bd, cond) }, ctext)
		return
	}
	// The condition goes to a region-local int first.
	t := len(b.prog.Arrays)
	name := b.uniqueName("nestor_cond")
	b.prog.Arrays = append(b.prog.Arrays, &ir.Array{Name: name, Elem: ir.Int, Storage: ir.ScopLocal, Pos: b.pos(s)})
	bd := &body{accs: []*ir.Access{{Array: t, Write: true}}}
	c, ok := b.expr(bd, cond)
	if !ok {
		return
	}
	b.emit(s, bd, ir.Assign, truth(c), fmt.Sprintf("%s = %s;", name, ctext))
	for _, a := range as {
		b.selectAssign(a, func(bd *body) (ir.Expr, bool) {
			return &ir.Load{T: ir.Int, Access: bd.read(t, nil)}, true
		}, ctext)
	}
}

// truth returns c as an int that is nonzero exactly when C reads c as
// true: c itself when it is a comparison or logical operation, else c != 0.
func truth(c ir.Expr) ir.Expr {
	switch x := c.(type) {
	case *ir.Binary:
		if x.Op.IsComparison() || x.Op.IsLogical() {
			return c
		}
	case *ir.Unary:
		if x.Op == ir.Not {
			return c
		}
	}
	if c.Type() == ir.Int {
		return c
	}
	zero := &ir.Const{T: c.Type(), Text: "0"}
	return &ir.Binary{Op: ir.Neq, X: c, Y: zero, T: ir.Int}
}

// branchAssigns collects the assignments of one branch, reporting what a
// data-dependent branch may not hold.
func (b *builder) branchAssigns(st *cc.Statement, cond cc.ExpressionNode, then bool, out *[]branchAssign) bool {
	if st == nil {
		return true
	}
	bad := func(n cc.Node, what string) bool {
		b.unsupported(n, "condition is not affine: %s reads memory, and a data-dependent if may only assign scalar variables, not %s", source(cond), what)
		return false
	}
	switch st.Case {
	case cc.StatementCompound:
		ok := true
		if st.CompoundStatement == nil {
			return true
		}
		for l := st.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
			it := l.BlockItem
			if it == nil {
				continue
			}
			if it.Case != cc.BlockItemStmt {
				ok = bad(it, "a declaration") && ok
				continue
			}
			ok = b.branchAssigns(it.Statement, cond, then, out) && ok
		}
		return ok
	case cc.StatementExpr:
		es := st.ExpressionStatement
		if es == nil || es.ExpressionList == nil {
			return true
		}
		ae, ok := es.ExpressionList.(*cc.AssignmentExpression)
		if !ok || ae.Case == cc.AssignmentExpressionCond {
			return bad(st, describeExprStmt(es.ExpressionList))
		}
		if _, d := ident(ae.UnaryExpression); d == nil {
			return bad(ae.UnaryExpression, source(ae.UnaryExpression))
		}
		*out = append(*out, branchAssign{es: es, ae: ae, then: then})
		return true
	case cc.StatementIteration:
		return bad(st, "a loop")
	case cc.StatementSelection:
		return bad(st, "a nested if")
	}
	return bad(st, strings.TrimSpace(source(st)))
}

// selectAssign translates one assignment x op= e of a branch into
// x = c ? (x op e) : x (x = c ? x : (x op e) in the else branch), where
// cond gives c in the statement's body.
func (b *builder) selectAssign(a branchAssign, cond func(*body) (ir.Expr, bool), ctext string) {
	arr, idx, ok := b.ref(a.ae.UnaryExpression, true)
	if !ok {
		return
	}
	if b.prog.Arrays[arr].Rank() > 0 {
		b.unsupported(a.ae.UnaryExpression, "condition is not affine: %s reads memory, and a data-dependent if may only assign scalar variables", ctext)
		return
	}
	op := assignOps[a.ae.Case]
	bd := &body{accs: []*ir.Access{{Array: arr, Write: true, Index: idx}}}
	x := bd.read(arr, idx) // access 1: the current value, as ir.Stmt.Value reads it
	r, ok := b.expr(bd, a.ae.AssignmentExpression)
	if !ok {
		return
	}
	t := b.prog.Arrays[arr].Elem
	v := convert(r, t)
	if op != ir.Assign {
		v = (&ir.Stmt{Op: op, RHS: r, Accesses: bd.accs}).Value(b.prog)
	}
	c, ok := cond(bd)
	if !ok {
		return
	}
	old := &ir.Load{T: t, Access: x}
	rhs := &ir.Cond{C: c, X: v, Y: old, T: t}
	guard := ctext
	if !a.then {
		rhs.X, rhs.Y = old, v
		guard = "!(" + ctext + ")"
	}
	first, _, _ := b.extent(a.es)
	end := goPos(a.es.Token.Position()).Offset + 1
	text := fmt.Sprintf("if (%s) %s", guard, b.text(first, end))
	b.emit(a.es, bd, ir.Assign, rhs, text)
}
