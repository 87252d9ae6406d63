package codegen

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"nestor/ir"
)

// progBuilder builds test programs from names and text, in the style of Go's
// ssa/func_test.go: parameters are ints, arrays hold doubles, and domains
// and bodies are written in a small C-like syntax.
type progBuilder struct {
	t *testing.T
	p *ir.Program
}

func newProg(t *testing.T, params ...string) *progBuilder {
	b := &progBuilder{t: t, p: &ir.Program{}}
	for _, n := range params {
		b.p.Params = append(b.p.Params, ir.Param{Name: n, Type: ir.Int})
	}
	return b
}

// array declares a double array (a scalar without dims); dims are affine
// in the parameters.
func (b *progBuilder) array(name string, st ir.Storage, dims ...string) *progBuilder {
	a := &ir.Array{Name: name, Elem: ir.Double, Storage: st}
	for _, d := range dims {
		ps := b.parser(d, nil, 0)
		a.Dims = append(a.Dims, ps.aff())
		ps.end()
	}
	b.p.Arrays = append(b.p.Arrays, a)
	return b
}

func (b *progBuilder) vars(names ...string) *progBuilder {
	b.p.Vars = append(b.p.Vars, names...)
	return b
}

// stmt adds a statement with counters iters ("i j"; "-i" for a decreasing
// loop), position beta, the domain "c and c ...", each c a chain like
// "0 <= i < n" or a congruence "i % 2 = n - 1", and the body "A[i] += x".
func (b *progBuilder) stmt(iters string, beta []int, domain, body string) *progBuilder {
	s := &ir.Stmt{Name: fmt.Sprintf("S%d", len(b.p.Stmts)), Beta: beta, Text: body}
	for _, f := range strings.Fields(iters) {
		dir := 1
		if f[0] == '-' {
			dir, f = -1, f[1:]
		}
		s.Iters = append(s.Iters, f)
		s.Dir = append(s.Dir, dir)
	}
	var parts []string
	if domain != "" {
		parts = strings.Split(domain, " and ")
	}
	nl := strings.Count(domain, "%")
	for _, part := range parts {
		ps := b.parser(part, s.Iters, nl)
		lhs := ps.aff()
		if ps.accept("%") {
			// lhs ≡ rhs (mod m): q = ⌊(lhs - rhs)/m⌋ and lhs - rhs - m·q = 0.
			m := ps.int()
			ps.expect("=")
			num := lhs.Sub(ps.aff())
			ps.end()
			eq := num.Clone()
			eq.Local[len(s.Domain.Divs)] = -m
			s.Domain.Divs = append(s.Domain.Divs, ir.Div{Num: num, Den: m})
			s.Domain.Cons = append(s.Domain.Cons, ir.Constraint{Aff: eq, Eq: true})
			continue
		}
		for !ps.done() {
			op := ps.next()
			rhs := ps.aff()
			var c ir.Constraint
			switch op {
			case "<=":
				c.Aff = rhs.Sub(lhs)
			case "<":
				c.Aff = rhs.Sub(lhs)
				c.Const--
			case ">=":
				c.Aff = lhs.Sub(rhs)
			case ">":
				c.Aff = lhs.Sub(rhs)
				c.Const--
			case "=", "==":
				c.Aff, c.Eq = lhs.Sub(rhs), true
			default:
				b.t.Fatalf("%q: operator %q", part, op)
			}
			s.Domain.Cons = append(s.Domain.Cons, c)
			lhs = rhs
		}
	}
	b.body(s, body)
	b.p.Stmts = append(b.p.Stmts, s)
	return b
}

func (b *progBuilder) body(s *ir.Stmt, text string) {
	ps := b.parser(text, s.Iters, 0)
	ps.s = s
	w := ps.access(true)
	op := ps.next()
	ops := map[string]ir.AssignOp{"=": ir.Assign, "+=": ir.AddAssign, "-=": ir.SubAssign, "*=": ir.MulAssign, "/=": ir.QuoAssign}
	o, ok := ops[op]
	if !ok {
		b.t.Fatalf("%q: assignment %q", text, op)
	}
	s.Op = o
	if o != ir.Assign {
		s.Accesses = append(s.Accesses, &ir.Access{Array: w.Array, Index: w.Index})
	}
	s.RHS = ps.expr()
	ps.end()
	if elem := b.p.Arrays[w.Array].Elem; o == ir.Assign && s.RHS.Type() != elem {
		s.RHS = &ir.Cast{T: elem, X: s.RHS, Implicit: true}
	}
}

func (b *progBuilder) build() *ir.Program {
	if err := ir.Check(b.p); err != nil {
		b.t.Fatal(err)
	}
	return b.p
}

// parser reads affine forms and expressions over a statement's counters,
// the parameters and nl locals.
type parser struct {
	b     *progBuilder
	text  string
	toks  []string
	iters []string
	nl    int
	s     *ir.Stmt
}

func (b *progBuilder) parser(text string, iters []string, nl int) *parser {
	ps := &parser{b: b, text: text, iters: iters, nl: nl}
	for r := []rune(text); len(r) > 0; {
		n := 1
		switch {
		case unicode.IsSpace(r[0]):
			r = r[1:]
			continue
		case unicode.IsLetter(r[0]) || r[0] == '_':
			for n < len(r) && (unicode.IsLetter(r[n]) || unicode.IsDigit(r[n]) || r[n] == '_') {
				n++
			}
		case unicode.IsDigit(r[0]):
			for n < len(r) && (unicode.IsDigit(r[n]) || r[n] == '.') {
				n++
			}
		case n < len(r) && r[n] == '=' && strings.ContainsRune("<>=+-*/!", r[0]):
			n = 2
		}
		ps.toks = append(ps.toks, string(r[:n]))
		r = r[n:]
	}
	return ps
}

func (ps *parser) fail(format string, args ...any) {
	ps.b.t.Helper()
	ps.b.t.Fatalf("%q: %s", ps.text, fmt.Sprintf(format, args...))
}

func (ps *parser) done() bool { return len(ps.toks) == 0 }

func (ps *parser) peek() string {
	if ps.done() {
		return ""
	}
	return ps.toks[0]
}

func (ps *parser) next() string {
	t := ps.peek()
	if !ps.done() {
		ps.toks = ps.toks[1:]
	}
	return t
}

func (ps *parser) accept(t string) bool {
	if ps.peek() == t {
		ps.next()
		return true
	}
	return false
}

func (ps *parser) expect(t string) {
	if !ps.accept(t) {
		ps.fail("want %q, got %q", t, ps.peek())
	}
}

func (ps *parser) end() {
	if !ps.done() {
		ps.fail("unexpected %q", ps.peek())
	}
}

func (ps *parser) int() int64 {
	v, err := strconv.ParseInt(ps.next(), 10, 64)
	if err != nil {
		ps.fail("%v", err)
	}
	return v
}

// aff reads [-] term {± term}, a term being c, x or c*x.
func (ps *parser) aff() ir.Aff {
	a := ir.Aff{Iter: make([]int64, len(ps.iters)), Param: make([]int64, len(ps.b.p.Params)), Local: make([]int64, ps.nl)}
	sign := int64(1)
	if ps.accept("-") {
		sign = -1
	}
	for {
		c := int64(1)
		if t := ps.peek(); t != "" && unicode.IsDigit(rune(t[0])) {
			c = ps.int()
			if !ps.accept("*") {
				a.Const += sign * c
				goto more
			}
		}
		if name := ps.next(); slicesIndex(ps.iters, name) >= 0 {
			a.Iter[slicesIndex(ps.iters, name)] += sign * c
		} else if k := ps.b.p.ParamIndex(name); k >= 0 {
			a.Param[k] += sign * c
		} else {
			ps.fail("unknown name %q", name)
		}
	more:
		switch {
		case ps.accept("+"):
			sign = 1
		case ps.accept("-"):
			sign = -1
		default:
			return a
		}
	}
}

func slicesIndex(xs []string, x string) int {
	for k, y := range xs {
		if y == x {
			return k
		}
	}
	return -1
}

// access reads an array element and adds it to the statement's accesses.
func (ps *parser) access(write bool) *ir.Access {
	name := ps.next()
	k := ps.b.p.ArrayIndex(name)
	if k < 0 {
		ps.fail("unknown array %q", name)
	}
	a := &ir.Access{Array: k, Write: write}
	for ps.accept("[") {
		x := ps.aff()
		x.Local = nil
		a.Index = append(a.Index, x)
		ps.expect("]")
	}
	ps.s.Accesses = append(ps.s.Accesses, a)
	return a
}

func (ps *parser) expr() ir.Expr {
	x := ps.mul()
	for {
		switch {
		case ps.accept("+"):
			x = binary(ir.Add, x, ps.mul())
		case ps.accept("-"):
			x = binary(ir.Sub, x, ps.mul())
		default:
			return x
		}
	}
}

func (ps *parser) mul() ir.Expr {
	x := ps.unary()
	for {
		switch {
		case ps.accept("*"):
			x = binary(ir.Mul, x, ps.unary())
		case ps.accept("/"):
			x = binary(ir.Quo, x, ps.unary())
		default:
			return x
		}
	}
}

func (ps *parser) unary() ir.Expr {
	if ps.accept("-") {
		x := ps.unary()
		return &ir.Unary{Op: ir.Neg, X: x, T: x.Type()}
	}
	if ps.accept("(") {
		x := ps.expr()
		ps.expect(")")
		return x
	}
	t := ps.peek()
	switch {
	case t == "":
		ps.fail("unexpected end")
	case unicode.IsDigit(rune(t[0])):
		ps.next()
		if strings.Contains(t, ".") {
			f, _ := strconv.ParseFloat(t, 64)
			return &ir.Const{T: ir.Double, Float: f, Text: t}
		}
		v, _ := strconv.ParseInt(t, 10, 64)
		return &ir.Const{T: ir.Int, Int: v}
	case ps.b.p.ArrayIndex(t) >= 0:
		a := ps.access(false)
		return &ir.Load{T: ps.b.p.Arrays[a.Array].Elem, Access: len(ps.s.Accesses) - 1}
	case slicesIndex(ps.iters, t) >= 0:
		ps.next()
		return &ir.IterRef{T: ir.Int, Level: slicesIndex(ps.iters, t)}
	case ps.b.p.ParamIndex(t) >= 0:
		ps.next()
		return &ir.ParamRef{T: ir.Int, Param: ps.b.p.ParamIndex(t)}
	}
	ps.fail("unexpected %q", t)
	return nil
}

// binary applies C's usual arithmetic conversions, as implicit casts.
func binary(op ir.BinOp, x, y ir.Expr) ir.Expr {
	t := ir.Common(x.Type(), y.Type())
	conv := func(e ir.Expr) ir.Expr {
		if e.Type() == t {
			return e
		}
		return &ir.Cast{T: t, X: e, Implicit: true}
	}
	return &ir.Binary{Op: op, X: conv(x), Y: conv(y), T: t}
}
