package ir

import (
	"fmt"
	"slices"
)

// Check verifies the invariants listed in the package documentation and
// returns the first violation, naming the statement and the object. A
// failure is a bug in the pass that produced p, never a user error.
func Check(p *Program) error {
	np := len(p.Params)
	for k, c := range p.Context {
		if err := checkAff(c.Aff, 0, np, 0); err != nil {
			return fmt.Errorf("ir: context constraint %d: %v", k, err)
		}
	}
	names := map[string]bool{}
	for _, q := range p.Params {
		if q.Name == "" || names[q.Name] {
			return fmt.Errorf("ir: parameter %q is empty or repeated", q.Name)
		}
		if !q.Type.IsInteger() {
			return fmt.Errorf("ir: parameter %s has non-integer type %s", q.Name, q.Type)
		}
		names[q.Name] = true
	}
	for _, a := range p.Arrays {
		if a.Name == "" || names[a.Name] {
			return fmt.Errorf("ir: array %q is empty or repeated", a.Name)
		}
		names[a.Name] = true
		if a.Elem == Void || a.Elem > LongDouble {
			return fmt.Errorf("ir: array %s has element type %s", a.Name, a.Elem)
		}
		for d, e := range a.Dims {
			if d == 0 && (a.Storage == FuncParam || a.Storage == FuncLocal) && e.Iter == nil && e.Param == nil && e.Local == nil && e.Const == 0 {
				continue // "A[][n]": the first size of an array parameter (or of a fresh pointer) may be absent
			}
			if err := checkAff(e, 0, np, 0); err != nil {
				return fmt.Errorf("ir: array %s dimension %d: %v", a.Name, d, err)
			}
		}
		if err := checkMembers(a); err != nil {
			return fmt.Errorf("ir: array %s: %v", a.Name, err)
		}
	}
	for k, s := range p.Stmts {
		if err := checkStmt(p, s); err != nil {
			return fmt.Errorf("ir: stmt %s (#%d): %v", s.Name, k, err)
		}
	}
	return checkTree(p)
}

func checkAff(a Aff, d, np, nl int) error {
	if len(a.Iter) != d || len(a.Param) != np || len(a.Local) != nl {
		return fmt.Errorf("affine form has %d/%d/%d coefficients, want %d counters, %d parameters, %d locals",
			len(a.Iter), len(a.Param), len(a.Local), d, np, nl)
	}
	return nil
}

func checkStmt(p *Program, s *Stmt) error {
	d, np, nl := s.Depth(), len(p.Params), len(s.Domain.Divs)
	if len(s.Dir) != d || len(s.Beta) != d+1 {
		return fmt.Errorf("%d loops but %d directions and %d beta entries", d, len(s.Dir), len(s.Beta))
	}
	for k, dir := range s.Dir {
		if dir != 1 && dir != -1 {
			return fmt.Errorf("loop %s has direction %d", s.Iters[k], dir)
		}
	}
	for l, dv := range s.Domain.Divs {
		if dv.Den <= 0 {
			return fmt.Errorf("local %d divides by %d", l, dv.Den)
		}
		if err := checkAff(dv.Num, d, np, nl); err != nil {
			return fmt.Errorf("local %d: %v", l, err)
		}
		if slices.ContainsFunc(dv.Num.Local[l:], func(c int64) bool { return c != 0 }) {
			return fmt.Errorf("local %d uses itself or a later local", l)
		}
	}
	for k, c := range s.Domain.Cons {
		if err := checkAff(c.Aff, d, np, nl); err != nil {
			return fmt.Errorf("domain constraint %d: %v", k, err)
		}
	}
	if len(s.Accesses) == 0 || !s.Accesses[0].Write {
		return fmt.Errorf("access 0 is not a write")
	}
	for k, a := range s.Accesses {
		if a.Array < 0 || a.Array >= len(p.Arrays) {
			return fmt.Errorf("access %d names array %d of %d", k, a.Array, len(p.Arrays))
		}
		if k > 0 && a.Write {
			return fmt.Errorf("access %d is a second write", k)
		}
		arr := p.Arrays[a.Array]
		if len(a.Index) != arr.Rank() {
			return fmt.Errorf("access %d to %s has %d subscripts, want %d", k, arr.Name, len(a.Index), arr.Rank())
		}
		for j, e := range a.Index {
			if err := checkAff(e, d, np, 0); err != nil {
				return fmt.Errorf("access %d subscript %d: %v", k, j, err)
			}
		}
		if m := len(arr.Members); m > 0 {
			if x := a.Index[len(a.Index)-1]; !x.IsConst() || x.Const < 0 || x.Const >= int64(m) {
				return fmt.Errorf("access %d to %s selects member %s, not a constant in [0, %d)", k, arr.Name, FormatAff(x, StmtNames(p, s)), m)
			}
		}
	}
	if s.Op > XorAssign {
		return fmt.Errorf("assignment operator %d", s.Op)
	}
	if s.Op != Assign {
		w := s.Accesses[0]
		if len(s.Accesses) < 2 || s.Accesses[1].Array != w.Array ||
			!slices.EqualFunc(s.Accesses[1].Index, w.Index, Aff.Equal) {
			return fmt.Errorf("compound assignment %s without its read of the written element as access 1", s.Op)
		}
	}
	if s.RHS == nil {
		return fmt.Errorf("no right-hand side")
	}
	elem := p.Arrays[s.Accesses[0].Array].Elem
	if s.Op == Assign && s.RHS.Type() != elem {
		return fmt.Errorf("right-hand side has type %s, stored into %s", s.RHS.Type(), elem)
	}
	return checkExpr(p, s, s.RHS)
}

func checkExpr(p *Program, s *Stmt, root Expr) error {
	var err error
	Walk(root, func(e Expr) bool {
		if err != nil {
			return false
		}
		err = checkNode(p, s, e)
		return err == nil
	})
	return err
}

func checkNode(p *Program, s *Stmt, e Expr) error {
	t := e.Type()
	if t == Void || t > LongDouble {
		return fmt.Errorf("expression %T has type %s", e, t)
	}
	switch e := e.(type) {
	case *Load:
		if e.Access <= 0 || e.Access >= len(s.Accesses) {
			return fmt.Errorf("load of access %d of %d (access 0 is the write)", e.Access, len(s.Accesses))
		}
		if elem := p.Arrays[s.Accesses[e.Access].Array].Elem; elem != t {
			return fmt.Errorf("load of %s typed %s", elem, t)
		}
	case *IterRef:
		if e.Level < 0 || e.Level >= s.Depth() || !t.IsInteger() {
			return fmt.Errorf("counter reference %d (%s) at depth %d", e.Level, t, s.Depth())
		}
	case *ParamRef:
		if e.Param < 0 || e.Param >= len(p.Params) {
			return fmt.Errorf("parameter reference %d of %d", e.Param, len(p.Params))
		}
	case *Unary:
		if e.Op == Not && t != Int {
			return fmt.Errorf("! yields %s", t)
		}
		if e.Op != Not && e.X.Type() != t {
			return fmt.Errorf("%s of %s yields %s", e.Op, e.X.Type(), t)
		}
		if e.Op == BitNot && !t.IsInteger() {
			return fmt.Errorf("~ of %s", t)
		}
	case *Binary:
		return checkBinary(e)
	case *Cond:
		if e.X.Type() != t || e.Y.Type() != t {
			return fmt.Errorf("?: with arms %s and %s yields %s", e.X.Type(), e.Y.Type(), t)
		}
	case *Call:
		f, ok := MathFuncs[e.Fn]
		if !ok {
			// A function the source declares const or pure (the front end
			// checked its prototype).
			if !isIdent(e.Fn) {
				return fmt.Errorf("call of %q, which is not a function name", e.Fn)
			}
			return nil
		}
		if len(e.Args) != f.Arity || t != f.T {
			return fmt.Errorf("call of %s with %d arguments typed %s", e.Fn, len(e.Args), t)
		}
		for _, a := range e.Args {
			if a.Type() != f.T {
				return fmt.Errorf("argument of %s typed %s", e.Fn, a.Type())
			}
		}
	}
	return nil
}

func checkBinary(e *Binary) error {
	x, y, t := e.X.Type(), e.Y.Type(), e.T
	switch {
	case e.Op.IsLogical():
		if t != Int {
			return fmt.Errorf("%s yields %s", e.Op, t)
		}
	case e.Op.IsComparison():
		if t != Int || x != y {
			return fmt.Errorf("%s compares %s with %s yielding %s", e.Op, x, y, t)
		}
	case e.Op == Shl || e.Op == Shr:
		if x != t || !t.IsInteger() || !y.IsInteger() {
			return fmt.Errorf("%s of %s by %s yields %s", e.Op, x, y, t)
		}
	default:
		if x != t || y != t {
			return fmt.Errorf("%s of %s and %s yields %s", e.Op, x, y, t)
		}
		if (e.Op == Rem || e.Op == And || e.Op == Or || e.Op == Xor) && !t.IsInteger() {
			return fmt.Errorf("%s of %s", e.Op, t)
		}
	}
	return nil
}

// checkTree verifies that the beta vectors describe a loop tree: distinct
// positions, and statements under a common loop agree on that loop.
func checkTree(p *Program) error {
	for a, s := range p.Stmts {
		for _, t := range p.Stmts[a+1:] {
			if slices.Equal(s.Beta, t.Beta) {
				return fmt.Errorf("ir: stmts %s and %s have the same beta %v", s.Name, t.Name, s.Beta)
			}
			// Loops k = 0.. are shared while the beta prefixes up to k agree.
			k := 0
			for ; k < s.Depth() && k < t.Depth() && s.Beta[k] == t.Beta[k]; k++ {
				if s.Iters[k] != t.Iters[k] || s.Dir[k] != t.Dir[k] {
					return fmt.Errorf("ir: stmts %s and %s share loop %d but call it %s/%d and %s/%d",
						s.Name, t.Name, k, s.Iters[k], s.Dir[k], t.Iters[k], t.Dir[k])
				}
			}
			// Agreeing on all of the shallower one's beta puts a statement
			// where the other has a loop.
			if s.Depth() != t.Depth() && k == min(s.Depth(), t.Depth()) && s.Beta[k] == t.Beta[k] {
				return fmt.Errorf("ir: stmts %s and %s both sit at position %v", s.Name, t.Name, s.Beta[:k+1])
			}
		}
	}
	return nil
}

// checkMembers verifies the shape of an array of structs: distinct member
// names that are C identifiers, and a last dimension that is the constant
// number of members.
func checkMembers(a *Array) error {
	if a.Members == nil {
		return nil
	}
	if len(a.Members) == 0 || a.Rank() == 0 {
		return fmt.Errorf("struct elements with %d members and %d dimensions", len(a.Members), a.Rank())
	}
	if last := a.Dims[a.Rank()-1]; !last.IsConst() || last.Const != int64(len(a.Members)) {
		return fmt.Errorf("last dimension is not the constant number of members %d", len(a.Members))
	}
	seen := map[string]bool{}
	for _, m := range a.Members {
		if !isIdent(m) || seen[m] {
			return fmt.Errorf("member %q is not an identifier or repeated", m)
		}
		seen[m] = true
	}
	return nil
}

// isIdent reports whether s is a C identifier.
func isIdent(s string) bool {
	for k, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || k > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
