package poly

import (
	"fmt"
	"slices"
	"strconv"
)

// Error is a positioned syntax or semantic error in isl notation. Line and
// Col are 1-based; Col counts bytes.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("poly: %d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseUnion reads a union of sets in isl notation:
//
//	union := [ "[" names "]" "->" ] "{" [ tuple [ ":" disj ] ] "}"
//	tuple := [ name ] "[" names "]"
//	disj  := conj { "or" conj }
//	conj  := atom { "and" atom }
//	atom  := "true" | "false" | expr cmp expr { cmp expr }   (cmp: < <= > >= = ==)
//	expr  := term { ("+" | "-") term }
//	term  := { "-" } factor { [ "*" ] factor }               (at most one non-constant factor)
//	factor:= integer | name | "(" expr ")"
//
// A chain a <= b < c means a <= b and b < c. Over the integers a < b is read
// as b - a - 1 >= 0. Disjuncts that normalization proves empty are dropped.
// ParseUnion never panics; errors are *Error values.
func ParseUnion(src string) (u *Union, err error) {
	p := &parser{src: src}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Error:
				u, err = nil, e
			case overflow:
				u, err = nil, p.errAt(p.tok, "integer overflow")
			default:
				panic(r)
			}
		}
	}()
	p.next()
	return p.union(), nil
}

// ParseSet reads a set in isl notation; a union of several disjuncts is an
// error. A union with no disjunct gives an empty set.
func ParseSet(src string) (*Set, error) {
	u, err := ParseUnion(src)
	if err != nil {
		return nil, err
	}
	switch len(u.Sets) {
	case 0:
		return &Set{space: u.Space, empty: true}, nil
	case 1:
		return u.Sets[0], nil
	}
	return nil, &Error{Line: 1, Col: 1, Msg: "set has more than one disjunct"}
}

type tokKind int

const (
	tEOF tokKind = iota
	tInt
	tIdent
	tOp
)

type token struct {
	kind      tokKind
	text      string
	line, col int
}

type parser struct {
	src       string
	off       int
	line, col int // of src[off], 0-based col
	tok       token
	names     map[string]int // variable name -> column
	nv        int
	depth     int // current parenthesis nesting
}

// maxNesting bounds parenthesis nesting so that the recursive descent
// cannot exhaust the stack.
const maxNesting = 1000

func (p *parser) errAt(t token, format string, args ...any) *Error {
	return &Error{Line: t.line, Col: t.col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) fail(format string, args ...any) { panic(p.errAt(p.tok, format, args...)) }

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// next scans the next token into p.tok.
func (p *parser) next() {
	for p.off < len(p.src) {
		c := p.src[p.off]
		if c == '\n' {
			p.line++
			p.col = 0
		} else if c == ' ' || c == '\t' || c == '\r' {
			p.col++
		} else {
			break
		}
		p.off++
	}
	t := token{line: p.line + 1, col: p.col + 1}
	start := p.off
	if p.off >= len(p.src) {
		p.tok = t
		return
	}
	c := p.src[p.off]
	switch {
	case isDigit(c):
		for p.off < len(p.src) && isDigit(p.src[p.off]) {
			p.off++
		}
		t.kind = tInt
	case isLetter(c):
		for p.off < len(p.src) && (isLetter(p.src[p.off]) || isDigit(p.src[p.off]) || p.src[p.off] == '\'') {
			p.off++
		}
		t.kind = tIdent
	default:
		t.kind = tOp
		two := ""
		if p.off+1 < len(p.src) {
			two = p.src[p.off : p.off+2]
		}
		switch two {
		case "<=", ">=", "==", "->":
			p.off += 2
		default:
			if !slices.Contains([]byte("[]{}(),:+-*<>="), c) {
				p.tok = t
				p.fail("unexpected character %q", rune(c))
			}
			p.off++
		}
	}
	t.text = p.src[start:p.off]
	p.col += p.off - start
	p.tok = t
}

func (p *parser) is(s string) bool {
	return p.tok.kind != tEOF && p.tok.kind != tInt && p.tok.text == s
}

func (p *parser) expect(s string) {
	if !p.is(s) {
		p.fail("expected '%s'", s)
	}
	p.next()
}

func (p *parser) ident() token {
	if p.tok.kind != tIdent || isKeyword(p.tok.text) {
		p.fail("expected name")
	}
	t := p.tok
	p.next()
	return t
}

func isKeyword(s string) bool {
	return s == "and" || s == "or" || s == "true" || s == "false"
}

// names parses "[" [ name { "," name } ] "]", rejecting repeated names.
func (p *parser) nameList() []string {
	p.expect("[")
	var out []string
	for !p.is("]") {
		if len(out) > 0 {
			p.expect(",")
		}
		t := p.ident()
		if _, dup := p.names[t.text]; dup {
			panic(p.errAt(t, "duplicate name %s", t.text))
		}
		p.names[t.text] = -1
		out = append(out, t.text)
	}
	p.next()
	return out
}

func (p *parser) union() *Union {
	p.names = map[string]int{}
	var sp Space
	if p.is("[") {
		sp.Params = p.nameList()
		p.expect("->")
	}
	p.expect("{")
	u := &Union{}
	if p.is("}") {
		p.next()
		p.finish()
		u.Space = sp
		return u
	}
	if p.tok.kind == tIdent && !isKeyword(p.tok.text) {
		sp.Name = p.ident().text
	}
	sp.Dims = p.nameList()
	u.Space = sp
	for i, n := range sp.Dims {
		p.names[n] = i
	}
	for i, n := range sp.Params {
		p.names[n] = len(sp.Dims) + i
	}
	p.nv = sp.NVar()
	disj := [][]Constraint{nil}
	if p.is(":") {
		p.next()
		disj = p.disj()
	}
	p.expect("}")
	p.finish()
	for _, rows := range disj {
		if s := build(sp.clone(), rows); !s.empty {
			u.Sets = append(u.Sets, s)
		}
	}
	return u
}

func (p *parser) finish() {
	if p.tok.kind != tEOF {
		p.fail("unexpected %q after set", p.tok.text)
	}
}

// disj returns one row list per disjunct; a nil entry in a row list is the
// constant false.
func (p *parser) disj() [][]Constraint {
	var out [][]Constraint
	for {
		rows, ok := p.conj()
		if ok {
			out = append(out, rows)
		}
		if !p.is("or") {
			return out
		}
		p.next()
	}
}

// conj returns the rows of a conjunction and false if it contains "false".
func (p *parser) conj() ([]Constraint, bool) {
	var rows []Constraint
	ok := true
	for {
		switch {
		case p.is("true"):
			p.next()
		case p.is("false"):
			p.next()
			ok = false
		default:
			rows = append(rows, p.chain()...)
		}
		if !p.is("and") {
			return rows, ok
		}
		p.next()
	}
}

func (p *parser) chain() []Constraint {
	left := p.expr()
	var rows []Constraint
	for {
		op := p.tok.text
		if p.tok.kind != tOp || !slices.Contains([]string{"<", "<=", ">", ">=", "=", "=="}, op) {
			if len(rows) == 0 {
				p.fail("expected comparison")
			}
			return rows
		}
		p.next()
		right := p.expr()
		rows = append(rows, compare(left, op, right))
		left = right
	}
}

// compare turns l op r into a row: l <= r is r - l >= 0, l < r is
// r - l - 1 >= 0 over the integers, and symmetrically for > and >=.
func compare(l []int64, op string, r []int64) Constraint {
	if op == ">" || op == ">=" {
		l, r = r, l
	}
	c := make([]int64, len(l))
	for i := range c {
		c[i] = sub(r[i], l[i])
	}
	switch op {
	case "<", ">":
		c[len(c)-1] = sub(c[len(c)-1], 1)
	case "=", "==":
		return Constraint{Eq: true, Coef: c}
	}
	return Constraint{Coef: c}
}

// expr returns the affine form as coefficients over (vars, 1).
func (p *parser) expr() []int64 {
	e := p.term()
	for p.is("+") || p.is("-") {
		s := int64(1)
		if p.is("-") {
			s = -1
		}
		p.next()
		t := p.term()
		for i := range e {
			e[i] = add(e[i], mul(s, t[i]))
		}
	}
	return e
}

func (p *parser) term() []int64 {
	s := int64(1)
	for p.is("-") {
		s = -s
		p.next()
	}
	start := p.tok
	e := p.factor()
	for {
		implicit := p.tok.kind == tIdent && !isKeyword(p.tok.text) || p.is("(")
		if !p.is("*") && !implicit {
			break
		}
		if p.is("*") {
			p.next()
		}
		f := p.factor()
		switch {
		case isConst(e):
			e = scale(f, e[p.nv])
		case isConst(f):
			e = scale(e, f[p.nv])
		default:
			panic(p.errAt(start, "nonlinear term"))
		}
	}
	return scale(e, s)
}

func isConst(e []int64) bool {
	for _, v := range e[:len(e)-1] {
		if v != 0 {
			return false
		}
	}
	return true
}

func scale(e []int64, k int64) []int64 {
	out := make([]int64, len(e))
	for i, v := range e {
		out[i] = mul(v, k)
	}
	return out
}

func (p *parser) factor() []int64 {
	e := make([]int64, p.nv+1)
	switch {
	case p.tok.kind == tInt:
		v, err := strconv.ParseInt(p.tok.text, 10, 64)
		if err != nil {
			p.fail("integer overflow")
		}
		e[p.nv] = v
		p.next()
	case p.tok.kind == tIdent && !isKeyword(p.tok.text):
		col, ok := p.names[p.tok.text]
		if !ok {
			p.fail("unknown name %s", p.tok.text)
		}
		e[col] = 1
		p.next()
	case p.is("("):
		if p.depth++; p.depth > maxNesting {
			p.fail("parentheses nested too deeply")
		}
		p.next()
		e = p.expr()
		p.expect(")")
		p.depth--
	default:
		p.fail("expected expression")
	}
	return e
}
