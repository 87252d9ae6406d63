package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// Names gives the names under which an affine form's variables print.
type Names struct {
	Iter, Param, Local []string
}

// StmtNames returns the names of s's counters, p's parameters, and the
// locals of s's domain (printed as floor divisions).
func StmtNames(p *Program, s *Stmt) Names {
	n := Names{Iter: s.Iters, Param: ParamNames(p)}
	for _, d := range s.Domain.Divs {
		n.Local = append(n.Local, fmt.Sprintf("floor((%s)/%d)", FormatAff(d.Num, n), d.Den))
	}
	return n
}

// ParamNames returns the names of p's parameters.
func ParamNames(p *Program) []string {
	ns := make([]string, len(p.Params))
	for k, q := range p.Params {
		ns[k] = q.Name
	}
	return ns
}

// FormatAff prints a in C syntax ("2*i + n - 1", "n - j - 1"): terms with
// positive coefficients first, each group in the order counters,
// parameters, locals, and the constant last.
func FormatAff(a Aff, n Names) string {
	var b strings.Builder
	term := func(c int64, name string) {
		if c == 0 {
			return
		}
		switch {
		case b.Len() == 0 && c < 0:
			b.WriteString("-")
		case b.Len() > 0 && c < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		if c < 0 {
			c = -c
		}
		if name == "" {
			b.WriteString(strconv.FormatUint(uint64(c), 10))
			return
		}
		if c != 1 {
			b.WriteString(strconv.FormatUint(uint64(c), 10) + "*")
		}
		b.WriteString(name)
	}
	name := func(names []string, k int) string {
		if k < len(names) {
			return names[k]
		}
		return fmt.Sprintf("?%d", k) // a local printed inside its own definition
	}
	// Positive terms first, as people write "n - j - 1" rather than "-j + n - 1".
	for _, positive := range []bool{true, false} {
		for _, part := range []struct {
			cs    []int64
			names []string
		}{{a.Iter, n.Iter}, {a.Param, n.Param}, {a.Local, n.Local}} {
			for k, c := range part.cs {
				if c != 0 && (c > 0) == positive {
					term(c, name(part.names, k))
				}
			}
		}
	}
	term(a.Const, "")
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

// FormatConstraint prints c in isl style, with the innermost counter (or
// the first variable) alone on the left: "i <= n - 1", "j >= i + 1".
func FormatConstraint(c Constraint, n Names) string {
	lhs := c.Aff.Clone()
	rhs := Aff{Iter: make([]int64, len(lhs.Iter)), Param: make([]int64, len(lhs.Param)), Local: make([]int64, len(lhs.Local))}
	// Pick the pivot variable: innermost counter, else last local, else first parameter.
	pivot := func() *int64 {
		if k := lhs.Innermost(); k >= 0 {
			return &lhs.Iter[k]
		}
		for k := len(lhs.Local) - 1; k >= 0; k-- {
			if lhs.Local[k] != 0 {
				return &lhs.Local[k]
			}
		}
		for k := range lhs.Param {
			if lhs.Param[k] != 0 {
				return &lhs.Param[k]
			}
		}
		return nil
	}()
	op := ">="
	if c.Eq {
		op = "="
	}
	if pivot == nil {
		return fmt.Sprintf("%d %s 0", lhs.Const, op)
	}
	neg := *pivot < 0
	// Move every term but the pivot to the right-hand side.
	move := func(l, r []int64) {
		for k := range l {
			if &l[k] != pivot {
				r[k], l[k] = -l[k], 0
			}
		}
	}
	move(lhs.Iter, rhs.Iter)
	move(lhs.Param, rhs.Param)
	move(lhs.Local, rhs.Local)
	rhs.Const, lhs.Const = -lhs.Const, 0
	if neg {
		negate(&lhs)
		negate(&rhs)
		if !c.Eq {
			op = "<="
		}
	}
	return FormatAff(lhs, n) + " " + op + " " + FormatAff(rhs, n)
}

func negate(a *Aff) {
	for _, xs := range [][]int64{a.Iter, a.Param, a.Local} {
		for k := range xs {
			xs[k] = -xs[k]
		}
	}
	a.Const = -a.Const
}

// FormatDomain prints the domain of s in isl notation:
// "[n] -> { S0[i, j] : i >= 0 and i <= n - 1 and ... }".
func FormatDomain(p *Program, s *Stmt) string {
	n := StmtNames(p, s)
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] -> { %s[%s]", strings.Join(n.Param, ", "), s.Name, strings.Join(s.Iters, ", "))
	for k, c := range s.Domain.Cons {
		if k == 0 {
			b.WriteString(" : ")
		} else {
			b.WriteString(" and ")
		}
		b.WriteString(FormatConstraint(c, n))
	}
	b.WriteString(" }")
	return b.String()
}

// Precedence levels of C operators, higher binds tighter.
const (
	precCond = 3 + iota
	precLOr
	precLAnd
	precOr
	precXor
	precAnd
	precEq
	precRel
	precShift
	precAdd
	precMul
	precUnary
	precPostfix
)

// warned reports whether gcc's -Wparentheses warns about operand x of
// operator o printed without parentheses.
func warned(o BinOp, x Expr) bool {
	b, ok := x.(*Binary)
	if !ok || b.Op == o {
		return false
	}
	switch o {
	case And, Or, Xor:
		return binPrec(b.Op) > binPrec(o)
	case Shl, Shr:
		return b.Op == Add || b.Op == Sub
	case LOr:
		return b.Op == LAnd
	}
	return false
}

func binPrec(o BinOp) int {
	switch o {
	case LOr:
		return precLOr
	case LAnd:
		return precLAnd
	case Or:
		return precOr
	case Xor:
		return precXor
	case And:
		return precAnd
	case Eql, Neq:
		return precEq
	case Lt, Le, Gt, Ge:
		return precRel
	case Shl, Shr:
		return precShift
	case Add, Sub:
		return precAdd
	}
	return precMul
}

// FormatExpr prints e as C with the fewest parentheses that keep its tree.
// load prints a Load (an array element); iter prints a counter reference.
func FormatExpr(e Expr, load func(*Load) string, iter func(*IterRef) string, params []string) string {
	f := exprFormatter{load: load, iter: iter, params: params}
	return f.format(e, 0)
}

type exprFormatter struct {
	load   func(*Load) string
	iter   func(*IterRef) string
	params []string
}

func (f *exprFormatter) format(e Expr, ctx int) string {
	s, prec := f.node(e)
	if prec < ctx {
		return "(" + s + ")"
	}
	return s
}

func (f *exprFormatter) node(e Expr) (string, int) {
	switch e := e.(type) {
	case *Const:
		return FormatConst(e), precPostfix
	case *Load:
		return f.load(e), precPostfix
	case *IterRef:
		return f.iter(e), precPostfix
	case *ParamRef:
		return f.params[e.Param], precPostfix
	case *Unary:
		x := f.format(e.X, precUnary)
		if e.Op == Neg && strings.HasPrefix(x, "-") {
			x = "(" + x + ")"
		}
		return e.Op.String() + x, precUnary
	case *Binary:
		p := binPrec(e.Op)
		// Left-associative: the right operand needs parentheses at equal
		// precedence. An operand gcc's -Wparentheses asks to see
		// parenthesized (a comparison or arithmetic under & | ^, arithmetic
		// under a shift, && under ||) gets them too, as -Wall -Werror
		// builds need.
		x, y := p, p+1
		if warned(e.Op, e.X) {
			x = precUnary
		}
		if warned(e.Op, e.Y) {
			y = precUnary
		}
		return f.format(e.X, x) + " " + e.Op.String() + " " + f.format(e.Y, y), p
	case *Cond:
		return f.format(e.C, precLOr) + " ? " + f.format(e.X, 0) + " : " + f.format(e.Y, precCond), precCond
	case *Cast:
		if e.Implicit {
			return f.node(e.X)
		}
		return "(" + e.T.String() + ")" + f.format(e.X, precUnary), precUnary
	case *Call:
		args := make([]string, len(e.Args))
		for k, a := range e.Args {
			args[k] = f.format(a, 0)
		}
		return e.Fn + "(" + strings.Join(args, ", ") + ")", precPostfix
	}
	panic(fmt.Sprintf("ir: FormatExpr: unknown node %T", e))
}

// FormatConst prints a literal: its source text when it has one, otherwise
// a C literal of its type that reads back to the same value.
func FormatConst(c *Const) string {
	if c.Text != "" {
		return c.Text
	}
	switch {
	case c.T.IsFloat():
		s := strconv.FormatFloat(c.Float, 'g', -1, 64)
		if c.T == Float {
			s = strconv.FormatFloat(c.Float, 'g', -1, 32)
		}
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		if c.T == Float {
			s += "f"
		}
		return s
	case c.T == UInt:
		return strconv.FormatInt(c.Int, 10) + "u"
	case c.T == Long:
		return strconv.FormatInt(c.Int, 10) + "l"
	case c.T == ULong:
		return strconv.FormatUint(uint64(c.Int), 10) + "ul"
	}
	return strconv.FormatInt(c.Int, 10)
}

// String prints s for debugging: its name, domain and assignment.
func (s *Stmt) String() string { return s.Name + " " + s.Text }
