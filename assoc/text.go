package assoc

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
)

// The notation.
//
// Expressions are written as in the paper and in C: x + y, max(min(x, k),
// y), select(x < y, x, y), c ? a : b, with C's operators and precedence
// (unary - !, * / %, + -, < <= > >=, == !=, &, ^, |, &&, ||, ?:) and the
// calls min, max, fmin, fmax, fminf, fmaxf and select. a > b is read as
// b < a and a >= b as b <= a. The leaves are x, y (x_0 and y_0), x0, x1,
// y0, y1, …, k (k0) and k1, k2, …, integer and float literals, true,
// false, INFINITY and NAN; every other name, call or subscript (r,
// in(r), a[i]) is a named value, its name the source text without
// blanks. A tuple is {e0, e1, …}; a 1-tuple may omit the braces.
//
// The update form of a Halide reduction, f(args) = rhs, reads f(args)[i]
// (f(args) for a 1-tuple) as x_i; there x, y and k are ordinary names.
//
// Types: every leaf of tuple element i takes the element's type (x_j and
// y_j take the type of element j), except that literals and named values
// take the type their context gives (the other operand of an arithmetic
// operation or comparison, the branches of a select); comparisons, !,
// && and || are Bool.
//
// Format writes what the parser reads: Parse(Format(e)) equals e.

// Error is a syntax or type error in the notation, at a 1-based line
// and column of the source.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("assoc: %d:%d: %s", e.Line, e.Col, e.Msg) }

// ParseExpr parses one expression in which every leaf has type t (and
// comparisons are Bool). The expression is of type t, or Bool when it is
// a comparison or logic.
func ParseExpr(src string, t Type) (*Expr, error) {
	p := newParser(src)
	n := p.expr()
	p.expect(tokEOF)
	if p.err != nil {
		return nil, p.err
	}
	return p.typed(n, func(i int) Type {
		if i < 0 && n.kind == nOp && n.op >= OpLT && n.op <= OpOr {
			return Bool // a condition over t
		}
		return t
	})
}

// ParseTuple parses a tuple {e0, e1, …}, or a single expression as a
// 1-tuple, in which every leaf has type t.
func ParseTuple(src string, t Type) (Tuple, error) {
	return parseTuple(src, func(int) Type { return t }, -1)
}

// ParseTupleTypes parses a tuple whose element i, and x_i and y_i, have
// type types[i] (argmin: {min(x0, y0), select(x0 < y0, x1, y1)} with
// types float32 and int32).
func ParseTupleTypes(src string, types []Type) (Tuple, error) {
	return parseTuple(src, elemTypes(types), len(types))
}

func elemTypes(types []Type) func(int) Type {
	return func(i int) Type {
		if i < len(types) {
			return types[i]
		}
		return types[len(types)-1]
	}
}

func parseTuple(src string, types func(int) Type, want int) (Tuple, error) {
	p := newParser(src)
	elems := p.tuple()
	p.expect(tokEOF)
	if p.err != nil {
		return Tuple{}, p.err
	}
	if want >= 0 && len(elems) != want {
		return Tuple{}, &Error{1, 1, fmt.Sprintf("tuple of %d elements, want %d", len(elems), want)}
	}
	return p.typedTuple(elems, types)
}

// ParseUpdate parses the update definition of a reduction in Halide's
// form, f() = {min(f()[0], in(r)), select(f()[0] < in(r), f()[1], r)},
// and returns its right side as a tuple in which f()[i] is x_i; every
// element and leaf has type t. A 1-tuple reduction may write f() for
// f()[0] and omit the braces.
func ParseUpdate(src string, t Type) (Tuple, error) {
	return parseUpdate(src, func(int) Type { return t })
}

// ParseUpdateTypes is ParseUpdate with element i of type types[i].
func ParseUpdateTypes(src string, types []Type) (Tuple, error) {
	return parseUpdate(src, elemTypes(types))
}

func parseUpdate(src string, types func(int) Type) (Tuple, error) {
	p := newParser(src)
	p.update = true
	tok := p.tok
	if tok.kind != tokName {
		p.fail(tok, "want the reduction's name")
		return Tuple{}, p.err
	}
	p.next()
	start := p.tok.off
	p.expect(tokLParen)
	if p.tok.kind != tokRParen {
		p.args()
	}
	if p.err != nil {
		return Tuple{}, p.err
	}
	p.lhs = tok.text + squeeze(p.src[start:p.tok.off])
	p.expect(tokRParen)
	p.lhs += ")"
	p.expect(tokAssign)
	elems := p.tuple()
	p.expect(tokEOF)
	if p.err != nil {
		return Tuple{}, p.err
	}
	if p.maxX >= len(elems) {
		return Tuple{}, &Error{1, 1, fmt.Sprintf("%s[%d] out of a tuple of %d elements", p.lhs, p.maxX, len(elems))}
	}
	return p.typedTuple(elems, types)
}

// Format returns e in the notation. x_0 and y_0 are written x and y when
// e reads no other x_i or y_j, x0 and y0 otherwise.
func Format(e *Expr) string {
	var sb strings.Builder
	pr := printer{sb: &sb, short: shortNames(e)}
	pr.expr(e, 0)
	return sb.String()
}

// String returns tp in the notation: a 1-tuple as its expression, with
// x and y, a larger tuple as {e0, e1, …} with x0, y0, x1, y1, ….
func (tp Tuple) String() string {
	if len(tp.Elems) == 1 {
		return Format(tp.Elems[0])
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, e := range tp.Elems {
		if i > 0 {
			sb.WriteString(", ")
		}
		pr := printer{sb: &sb}
		pr.expr(e, 0)
	}
	sb.WriteByte('}')
	return sb.String()
}

func shortNames(e *Expr) bool {
	short := true
	e.Walk(func(x *Expr) bool {
		if (x.Op == OpX || x.Op == OpY) && x.Index != 0 {
			short = false
		}
		return short
	})
	return short
}

func (e *Expr) String() string { return Format(e) }

// Precedence levels of C, loosest first.
const (
	precTernary = 1 + iota
	precOr
	precAnd
	precBitOr
	precBitXor
	precBitAnd
	precEq
	precRel
	precAdd
	precMul
	precUnary
)

var binPrec = map[Op]int{
	OpOr: precOr, OpAnd: precAnd, OpBitOr: precBitOr, OpBitXor: precBitXor, OpBitAnd: precBitAnd,
	OpEQ: precEq, OpNE: precEq, OpLT: precRel, OpLE: precRel,
	OpAdd: precAdd, OpSub: precAdd, OpMul: precMul, OpDiv: precMul, OpMod: precMul,
}

type printer struct {
	sb    *strings.Builder
	short bool
	// floatCall asks the next node, a float32 exp, log or fabs that a
	// conversion reads, for its float name.
	floatCall bool
}

// expr writes e, in parentheses when its precedence is below prec.
func (pr *printer) expr(e *Expr, prec int) {
	sb := pr.sb
	switch e.Op {
	case OpX, OpY, OpK:
		sb.WriteString(e.Op.String())
		if e.Index != 0 || e.Op != OpK && !pr.short {
			sb.WriteString(strconv.Itoa(e.Index))
		}
		return
	case OpVar:
		sb.WriteString(e.Name)
		return
	case OpConst:
		lit := literal(e.Value, e.Type)
		if prec >= precUnary && lit[0] == '-' {
			lit = "(" + lit + ")"
		}
		sb.WriteString(lit)
		return
	case OpMin, OpMax, OpSelect:
		sb.WriteString(e.Op.String())
		sb.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				sb.WriteString(", ")
			}
			pr.expr(a, 0)
		}
		sb.WriteByte(')')
		return
	case OpCast, OpExp, OpLog, OpAbs:
		if e.Op.Math() {
			sb.WriteString(mathNames[e.Op])
			if pr.floatCall {
				sb.WriteByte('f') // converted: expf, logf, fabsf
			}
		} else {
			sb.WriteString(castName[e.Type])
		}
		// A float function converted reads back in double unless
		// written with its float name (typer.expr).
		pr.floatCall = e.Op == OpCast && e.Args[0].Op.Math() && e.Args[0].Type == Float32
		sb.WriteByte('(')
		pr.expr(e.Args[0], 0)
		sb.WriteByte(')')
		return
	case OpNeg, OpNot:
		sb.WriteString(map[Op]string{OpNeg: "-", OpNot: "!"}[e.Op])
		a := e.Args[0]
		if a.Op == OpConst || a.Op == OpNeg || a.Op == OpNot {
			// -(3) is a negation, -3 a literal; - -a would read as --.
			sb.WriteByte('(')
			pr.expr(a, 0)
			sb.WriteByte(')')
			return
		}
		pr.expr(a, precUnary)
		return
	}
	p := binPrec[e.Op]
	if p < prec {
		sb.WriteByte('(')
	}
	pr.expr(e.Args[0], p)
	sb.WriteString(" " + e.Op.String() + " ")
	pr.expr(e.Args[1], p+1)
	if p < prec {
		sb.WriteByte(')')
	}
}

// literal writes the value v of type t so that the parser reads it back
// exactly.
func literal(v Value, t Type) string {
	switch {
	case t == Bool:
		if v&1 != 0 {
			return "true"
		}
		return "false"
	case t.Signed():
		return strconv.FormatInt(v.Int(t), 10)
	case t.Unsigned():
		return strconv.FormatUint(uint64(v&mask(t)), 10)
	}
	f := v.Float(t)
	switch {
	case math.IsNaN(f):
		return "NAN"
	case math.IsInf(f, 1):
		return "INFINITY"
	case math.IsInf(f, -1):
		return "-INFINITY"
	}
	bits := 64
	if t == Float32 {
		bits = 32
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if !strings.ContainsAny(s, ".eIN") {
		s += ".0"
	}
	return s
}

// Lexer.

type tokKind uint8

const (
	tokEOF tokKind = iota
	tokName
	tokInt
	tokFloat
	tokOp // an operator or punctuation other than those below
	tokLParen
	tokRParen
	tokLBrack
	tokRBrack
	tokLBrace
	tokRBrace
	tokComma
	tokAssign
	tokQuest
	tokColon
	tokBad
)

var tokNames = map[tokKind]string{tokEOF: "end of input", tokLParen: "(", tokRParen: ")", tokLBrack: "[",
	tokRBrack: "]", tokLBrace: "{", tokRBrace: "}", tokComma: ",", tokAssign: "=", tokQuest: "?", tokColon: ":"}

type token struct {
	kind      tokKind
	text      string
	off       int // byte offset in the source
	line, col int
}

// ops lists the operator tokens, longest first.
var opTokens = []string{"&&", "||", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "<", ">", "!", "&", "|", "^"}

func (p *parser) lex() token {
	s := p.src
	for p.off < len(s) && (s[p.off] == ' ' || s[p.off] == '\t' || s[p.off] == '\r' || s[p.off] == '\n') {
		if s[p.off] == '\n' {
			p.line++
			p.lineStart = p.off + 1
		}
		p.off++
	}
	tok := token{off: p.off, line: p.line, col: p.off - p.lineStart + 1}
	if p.off >= len(s) {
		tok.kind = tokEOF
		return tok
	}
	start := p.off
	c := s[p.off]
	switch {
	case c == '_' || isLetter(c):
		for p.off < len(s) && (s[p.off] == '_' || s[p.off] == '.' || isLetter(s[p.off]) || isDigit(s[p.off])) {
			p.off++
		}
		tok.kind = tokName
	case isDigit(c) || c == '.' && p.off+1 < len(s) && isDigit(s[p.off+1]):
		tok.kind = tokInt
		if strings.HasPrefix(s[p.off:], "0x") || strings.HasPrefix(s[p.off:], "0X") {
			p.off += 2
			for p.off < len(s) && (isDigit(s[p.off]) || isLetter(s[p.off])) {
				p.off++
			}
			break
		}
		for p.off < len(s) && (isDigit(s[p.off]) || isLetter(s[p.off]) || s[p.off] == '.' ||
			(s[p.off] == '+' || s[p.off] == '-') && (s[p.off-1] == 'e' || s[p.off-1] == 'E')) {
			if s[p.off] == '.' || s[p.off] == 'e' || s[p.off] == 'E' {
				tok.kind = tokFloat
			}
			p.off++
		}
	default:
		if k := singleTokens[c]; k != tokEOF {
			tok.kind = k
			p.off++
			break
		}
		for _, op := range opTokens {
			if strings.HasPrefix(s[p.off:], op) {
				tok.kind = tokOp
				p.off += len(op)
				break
			}
		}
		if tok.kind == tokEOF {
			if c == '=' {
				tok.kind = tokAssign
				p.off++
				break
			}
			tok.kind = tokBad
			p.off++
		}
	}
	tok.text = s[start:p.off]
	return tok
}

// singleTokens are the tokens of one character (tokEOF: none).
var singleTokens = [256]tokKind{'(': tokLParen, ')': tokRParen, '[': tokLBrack, ']': tokRBrack, '{': tokLBrace,
	'}': tokRBrace, ',': tokComma, '?': tokQuest, ':': tokColon}

func isLetter(c byte) bool { return c < 0x80 && unicode.IsLetter(rune(c)) }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// Parser: recursive descent into untyped nodes, then a typing pass.

type nodeKind uint8

const (
	nOp      nodeKind = iota // Op applied to args
	nLeaf                    // x_i, y_j, k_i (leafOp, leafIndex)
	nVar                     // a named value
	nNum                     // a numeric literal (text, neg)
	nBool                    // true or false (neg: false)
	nSpecial                 // INFINITY or NAN (text, neg)
)

type node struct {
	kind      nodeKind
	tok       token
	op        Op
	args      []*node
	leafOp    Op
	leafIndex int
	text      string
	neg       bool
	float     bool // a literal with a point or an exponent
	cast      Type // OpCast: the type converted to
}

// count returns the number of nodes of the tree n.
func (n *node) count() int {
	c := 1
	for _, a := range n.args {
		c += a.count()
	}
	return c
}

type parser struct {
	src       string
	off       int
	line      int
	lineStart int
	tok       token
	err       *Error
	update    bool   // parsing ParseUpdate's right side
	lhs       string // the update's f(args), without blanks
	maxX      int    // the largest f(args)[i] read
	opaque    int    // depth inside a named value's arguments
	depth     int    // nesting of the expression being parsed
	nodes     []node // free nodes of alloc's chunk
}

// maxDepth bounds the nesting of the source, so that the parser's
// recursion stays shallow on hostile input.
const maxDepth = 200

// alloc returns a new node with n's fields, from a chunk of nodes: a
// table of two thousand entries parses without a hundred thousand small
// allocations.
func (p *parser) alloc(n node) *node {
	if len(p.nodes) == 0 {
		// A node takes at least two characters of the source (an
		// operand and an operator or a comma) beyond the first.
		p.nodes = make([]node, min(64, (len(p.src)-p.off)/2+2))
	}
	q := &p.nodes[0]
	p.nodes = p.nodes[1:]
	*q = n
	return q
}

func newParser(src string) *parser {
	p := &parser{src: src, line: 1, maxX: -1}
	p.tok = p.lex()
	return p
}

func (p *parser) next() { p.tok = p.lex() }

func (p *parser) fail(tok token, format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Line: tok.line, Col: tok.col, Msg: fmt.Sprintf(format, args...)}
	}
	// Stop consuming input.
	p.off = len(p.src)
	p.tok = token{kind: tokEOF, off: len(p.src), line: tok.line, col: tok.col}
}

func describe(tok token) string {
	if tok.kind == tokEOF {
		return "end of input"
	}
	return strconv.Quote(tok.text)
}

func (p *parser) expect(k tokKind) {
	if p.err != nil {
		return
	}
	if p.tok.kind != k {
		p.fail(p.tok, "want %s, got %s", tokNames[k], describe(p.tok))
		return
	}
	p.next()
}

func (p *parser) isOp(s string) bool { return p.tok.kind == tokOp && p.tok.text == s }

// tuple parses {e0, e1, …} or a single expression.
func (p *parser) tuple() []*node {
	if p.tok.kind != tokLBrace {
		return []*node{p.expr()}
	}
	p.next()
	elems := []*node{p.expr()}
	for p.tok.kind == tokComma {
		p.next()
		elems = append(elems, p.expr())
	}
	p.expect(tokRBrace)
	return elems
}

// expr parses a conditional expression (C's ?: is right associative).
func (p *parser) expr() *node {
	if p.depth++; p.depth > maxDepth {
		p.fail(p.tok, "expression nested too deeply")
	}
	defer func() { p.depth-- }()
	c := p.binary(precOr)
	if p.tok.kind != tokQuest {
		return c
	}
	tok := p.tok
	p.next()
	a := p.expr()
	p.expect(tokColon)
	b := p.expr()
	return p.alloc(node{kind: nOp, tok: tok, op: OpSelect, args: []*node{c, a, b}})
}

var binOps = map[string]struct {
	op   Op
	prec int
	swap bool // a > b is b < a
}{
	"||": {OpOr, precOr, false}, "&&": {OpAnd, precAnd, false}, "|": {OpBitOr, precBitOr, false},
	"^": {OpBitXor, precBitXor, false}, "&": {OpBitAnd, precBitAnd, false},
	"==": {OpEQ, precEq, false}, "!=": {OpNE, precEq, false},
	"<": {OpLT, precRel, false}, "<=": {OpLE, precRel, false}, ">": {OpLT, precRel, true}, ">=": {OpLE, precRel, true},
	"+": {OpAdd, precAdd, false}, "-": {OpSub, precAdd, false},
	"*": {OpMul, precMul, false}, "/": {OpDiv, precMul, false}, "%": {OpMod, precMul, false},
}

// binary parses left-associative binary operations of precedence at
// least prec (precedence climbing: one call per operator, not one per
// level per operand).
func (p *parser) binary(prec int) *node {
	return p.binaryRest(p.unary(), prec)
}

// binaryRest continues the binary operations of precedence at least prec
// whose left operand a has been read.
func (p *parser) binaryRest(a *node, prec int) *node {
	for p.tok.kind == tokOp {
		b, ok := binOps[p.tok.text]
		if !ok || b.prec < prec {
			break
		}
		tok := p.tok
		p.next()
		c := p.unary()
		for p.tok.kind == tokOp {
			b2, ok := binOps[p.tok.text]
			if !ok || b2.prec <= b.prec {
				break
			}
			c = p.binaryRest(c, b.prec+1)
		}
		if b.swap {
			a, c = c, a
		}
		a = p.alloc(node{kind: nOp, tok: tok, op: b.op, args: []*node{a, c}})
	}
	return a
}

func (p *parser) unary() *node {
	tok := p.tok
	switch {
	case p.isOp("-"):
		p.next()
		if p.depth++; p.depth > maxDepth {
			p.fail(tok, "expression nested too deeply")
		}
		defer func() { p.depth-- }()
		// A minus directly before a number is part of the literal,
		// so that -2147483648 is an int32 and -0.0 a negative zero.
		if k := p.tok.kind; k == tokInt || k == tokFloat || k == tokName && (p.tok.text == "INFINITY" || p.tok.text == "NAN") {
			n := p.primary()
			if n.kind == nNum || n.kind == nSpecial {
				n.neg = !n.neg
				n.tok = tok
				return n
			}
		}
		return p.alloc(node{kind: nOp, tok: tok, op: OpNeg, args: []*node{p.unary()}})
	case p.isOp("!"):
		p.next()
		if p.depth++; p.depth > maxDepth {
			p.fail(tok, "expression nested too deeply")
		}
		defer func() { p.depth-- }()
		return p.alloc(node{kind: nOp, tok: tok, op: OpNot, args: []*node{p.unary()}})
	case p.isOp("+"):
		p.next()
		return p.unary()
	}
	return p.primary()
}

// castName is the name a conversion to each type is printed with
// (Halide's).
var castName = [numTypes]string{Bool: "bool", Int8: "i8", Int16: "i16", Int32: "i32", Int64: "i64",
	Uint8: "u8", Uint16: "u16", Uint32: "u32", Uint64: "u64", Float32: "f32", Float64: "f64"}

// castTypes are the names of conversions: Halide's (u8(e)), the type
// names (uint8(e)), and C's, which also read as casts in parentheses
// ((uint8_t)e, (unsigned char)e; the names of several words only so).
var castTypes = map[string]Type{
	"bool": Bool, "_Bool": Bool,
	"i8": Int8, "int8": Int8, "int8_t": Int8, "signed char": Int8,
	"i16": Int16, "int16": Int16, "int16_t": Int16, "short": Int16,
	"i32": Int32, "int32": Int32, "int32_t": Int32, "int": Int32,
	"i64": Int64, "int64": Int64, "int64_t": Int64, "long": Int64, "long long": Int64,
	"u8": Uint8, "uint8": Uint8, "uint8_t": Uint8, "unsigned char": Uint8,
	"u16": Uint16, "uint16": Uint16, "uint16_t": Uint16, "unsigned short": Uint16,
	"u32": Uint32, "uint32": Uint32, "uint32_t": Uint32, "unsigned": Uint32, "unsigned int": Uint32,
	"u64": Uint64, "uint64": Uint64, "uint64_t": Uint64, "unsigned long": Uint64, "unsigned long long": Uint64,
	"f32": Float32, "float32": Float32, "float": Float32,
	"f64": Float64, "float64": Float64, "double": Float64,
}

// mathCalls are C's math functions of the language (Op.Math), by their
// double and float names; mathNames prints them.
var (
	mathCalls = map[string]Op{"exp": OpExp, "expf": OpExp, "log": OpLog, "logf": OpLog, "fabs": OpAbs, "fabsf": OpAbs}
	mathNames = map[Op]string{OpExp: "exp", OpLog: "log", OpAbs: "fabs"}
)

var calls = map[string]Op{"min": OpMin, "max": OpMax, "fmin": OpMin, "fmax": OpMax, "fminf": OpMin,
	"fmaxf": OpMax, "select": OpSelect}

func (p *parser) primary() *node {
	tok := p.tok
	switch tok.kind {
	case tokInt, tokFloat:
		p.next()
		return p.alloc(node{kind: nNum, tok: tok, text: tok.text, float: tok.kind == tokFloat})
	case tokLParen:
		p.next()
		if to, ok := p.cCast(); ok {
			return p.alloc(node{kind: nOp, tok: tok, op: OpCast, cast: to, args: []*node{p.unary()}})
		}
		n := p.expr()
		p.expect(tokRParen)
		return n
	case tokName:
		return p.name()
	}
	p.fail(tok, "want an expression, got %s", describe(tok))
	return p.alloc(node{kind: nBool, tok: tok})
}

// cCast reads the "T)" of a C cast (the parenthesis before it read) and
// returns T; otherwise it reads nothing.
func (p *parser) cCast() (Type, bool) {
	if p.tok.kind != tokName {
		return 0, false
	}
	save := *p
	var words []string
	for p.tok.kind == tokName && len(words) < 3 {
		words = append(words, p.tok.text)
		p.next()
	}
	if t, ok := castTypes[strings.Join(words, " ")]; ok && p.tok.kind == tokRParen {
		p.next()
		return t, true
	}
	*p = save
	return 0, false
}

// name parses a leaf, a literal name, a call or a named value.
func (p *parser) name() *node {
	tok := p.tok
	p.next()
	switch tok.text {
	case "true", "false":
		return p.alloc(node{kind: nBool, tok: tok, neg: tok.text == "false"})
	case "INFINITY", "NAN":
		return p.alloc(node{kind: nSpecial, tok: tok, text: tok.text})
	}
	if op, ok := calls[tok.text]; ok && p.tok.kind == tokLParen {
		p.next()
		args := p.args()
		p.expect(tokRParen)
		if len(args) != op.Arity() {
			p.fail(tok, "%s takes %d arguments, got %d", tok.text, op.Arity(), len(args))
		}
		return p.alloc(node{kind: nOp, tok: tok, op: op, args: args})
	}
	if op, ok := mathCalls[tok.text]; ok && p.tok.kind == tokLParen {
		// C's exp, log and fabs are the operations, of the partial
		// result and of the program's values alike (exp(in(r)) is exp
		// of the named value in(r), as in(r)*in(r) is a product): a
		// table's log(exp(x) + exp(y)) meets log(exp(s) + exp(v)) with
		// y = v.
		p.next()
		args := p.args()
		p.expect(tokRParen)
		if len(args) != 1 {
			p.fail(tok, "%s takes 1 argument, got %d", tok.text, len(args))
			args = append(args, p.alloc(node{kind: nBool, tok: tok}))[:1]
		}
		return p.alloc(node{kind: nOp, tok: tok, op: op, args: args})
	}
	if to, ok := castTypes[tok.text]; ok && p.tok.kind == tokLParen {
		p.next()
		args := p.args()
		p.expect(tokRParen)
		if len(args) != 1 {
			p.fail(tok, "%s takes 1 argument, got %d", tok.text, len(args))
			args = append(args, p.alloc(node{kind: nBool, tok: tok}))[:1]
		}
		return p.alloc(node{kind: nOp, tok: tok, op: OpCast, cast: to, args: args})
	}
	if !p.update && p.opaque == 0 {
		if op, i, ok := leafName(tok.text); ok {
			return p.alloc(node{kind: nLeaf, tok: tok, leafOp: op, leafIndex: i})
		}
	}
	// A named value: the name, then calls and subscripts, as written
	// without blanks. In an update, the reduction's own f(args)[i] is
	// x_i.
	text := tok.text
	for p.err == nil && (p.tok.kind == tokLParen || p.tok.kind == tokLBrack) {
		closer := tokRParen
		if p.tok.kind == tokLBrack {
			closer = tokRBrack
		}
		start := p.tok.off
		p.next()
		p.opaque++
		if closer == tokRParen {
			if p.tok.kind != tokRParen {
				p.args()
			}
		} else {
			p.expr()
		}
		p.opaque--
		end := p.tok.off + 1
		p.expect(closer)
		if p.err != nil {
			break
		}
		text += squeeze(p.src[start:end])
		if p.update && p.opaque == 0 && text == p.lhs {
			return p.partial(tok)
		}
	}
	if p.update && p.opaque > 0 && strings.HasPrefix(text, p.lhs) && len(p.lhs) > 0 {
		p.fail(tok, "partial result %s inside %s", p.lhs, "a named value")
	}
	return p.alloc(node{kind: nVar, tok: tok, text: text})
}

// partial parses what follows the reduction's f(args): [i] for x_i, or
// nothing for x_0.
func (p *parser) partial(tok token) *node {
	i := 0
	if p.tok.kind == tokLBrack {
		p.next()
		itok := p.tok
		p.expect(tokInt)
		n, err := strconv.Atoi(itok.text)
		if err != nil || n > 1<<16 {
			p.fail(itok, "bad tuple index %s", describe(itok))
		}
		i = n
		p.expect(tokRBrack)
	}
	p.maxX = max(p.maxX, i)
	return p.alloc(node{kind: nLeaf, tok: tok, leafOp: OpX, leafIndex: i})
}

func (p *parser) args() []*node {
	args := []*node{p.expr()}
	for p.tok.kind == tokComma {
		p.next()
		args = append(args, p.expr())
	}
	return args
}

// leafName reads x, y, k, xN, yN and kN.
func leafName(s string) (Op, int, bool) {
	var op Op
	switch s[0] {
	case 'x':
		op = OpX
	case 'y':
		op = OpY
	case 'k':
		op = OpK
	default:
		return 0, 0, false
	}
	if len(s) == 1 {
		return op, 0, true
	}
	if len(s) > 6 || s[1] == '0' && len(s) > 2 {
		return 0, 0, false
	}
	i, err := strconv.Atoi(s[1:])
	if err != nil || i < 0 {
		return 0, 0, false
	}
	return op, i, true
}

// squeeze drops the blanks of s.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// Typing.

const untyped = numTypes

func (p *parser) typedTuple(elems []*node, types func(int) Type) (Tuple, error) {
	tp := Tuple{Elems: make([]*Expr, len(elems))}
	for i, n := range elems {
		e, err := p.typed(n, func(j int) Type {
			if j < 0 {
				return types(i)
			}
			return types(j)
		})
		if err != nil {
			return Tuple{}, err
		}
		tp.Elems[i] = e
	}
	return tp, nil
}

// typed converts n to an Expr whose root has type types(-1); x_j and
// y_j have type types(j), k the type its context gives.
func (p *parser) typed(n *node, types func(int) Type) (*Expr, error) {
	ty := typer{types: types}
	// One chunk of the tree's size (a conversion may add one node).
	size := n.count()
	ty.exprs, ty.args = make([]Expr, size+2), make([]*Expr, size+2)
	e := ty.expr(n, types(-1))
	if ty.err != nil {
		return nil, ty.err
	}
	return e, nil
}

type typer struct {
	types func(int) Type
	err   *Error
	exprs []Expr  // free nodes (newExpr)
	args  []*Expr // free operand slots (newArgs)
}

func (ty *typer) fail(n *node, format string, args ...any) {
	if ty.err == nil {
		ty.err = &Error{Line: n.tok.line, Col: n.tok.col, Msg: fmt.Sprintf(format, args...)}
	}
}

// known returns the type n has whatever its context, or untyped.
func (ty *typer) known(n *node) Type {
	switch n.kind {
	case nLeaf:
		if n.leafOp == OpK {
			return untyped
		}
		return ty.types(n.leafIndex)
	case nBool:
		return Bool
	case nSpecial:
		return untyped
	case nOp:
		switch {
		case n.op >= OpLT && n.op <= OpOr:
			return Bool
		case n.op == OpSelect:
			return ty.either(n.args[1], n.args[2])
		case n.op == OpCast:
			return n.cast
		}
		if len(n.args) == 2 {
			return ty.either(n.args[0], n.args[1])
		}
		return ty.known(n.args[0])
	}
	return untyped
}

func (ty *typer) either(a, b *node) Type {
	ta, tb := ty.known(a), ty.known(b)
	if ta == untyped || tb != untyped && ta != tb && (isCast(b) || isCast(a)) && wider(tb, ta) {
		// A conversion's type meets the other operand's as C's usual
		// arithmetic conversions do: u8(a) + x0 is computed in x0's int.
		return tb
	}
	return ta
}

func isCast(n *node) bool { return n.kind == nOp && n.op == OpCast }

func isMath(n *node) bool { return n.kind == nOp && n.op.Math() }

// mathType returns the type C's math function n computes in where the
// context wants no float: float for expf, logf, fabsf, else double
// (which the printer does not distinguish: exp of a float32 converted to
// an integer reads back as exp of a float64).
func mathType(n *node) Type {
	if strings.HasSuffix(n.tok.text, "f") {
		return Float32
	}
	return Float64
}

// wider reports whether C's usual arithmetic conversions take a and b to
// a: floats above integers, more bits above fewer, unsigned above signed
// of the same width.
func wider(a, b Type) bool {
	switch {
	case a.Float() != b.Float():
		return a.Float()
	case a.Bits() != b.Bits():
		return a.Bits() > b.Bits()
	}
	return a.Unsigned() && !b.Unsigned()
}

// operandType returns the type of the operands of a comparison, or of
// a condition: what they know, else want.
func (ty *typer) operandType(want Type, args ...*node) Type {
	for _, a := range args {
		if t := ty.known(a); t != untyped {
			return t
		}
	}
	return want
}

// expr types n in a context that wants type want.
func (ty *typer) expr(n *node, want Type) *Expr {
	if ty.err != nil {
		return Const(0, want)
	}
	switch n.kind {
	case nLeaf:
		if n.leafOp == OpK {
			return ty.newExpr(Expr{Op: OpK, Type: want, Index: n.leafIndex})
		}
		if t := ty.types(n.leafIndex); t != want {
			ty.fail(n, "%s%d has type %v, used as %v", n.leafOp, n.leafIndex, t, want)
		}
		return ty.newExpr(Expr{Op: n.leafOp, Type: want, Index: n.leafIndex})
	case nVar:
		return ty.newExpr(Expr{Op: OpVar, Type: want, Name: n.text})
	case nBool:
		if want != Bool {
			ty.fail(n, "%s used as %v", n.tok.text, want)
		}
		return Const(BoolValue(!n.neg), Bool)
	case nNum, nSpecial:
		return ty.number(n, want)
	}
	switch op := n.op; {
	case op == OpCast:
		// The operand's own type, else the element's (a named value
		// converted: u16(in(r)) reads in(r) in the element type); a
		// conversion used where another type is wanted converts again,
		// as C converts implicitly.
		from := ty.known(n.args[0])
		switch {
		case from == untyped && isMath(n.args[0]):
			from = mathType(n.args[0])
		case from == untyped:
			from = ty.types(-1)
		}
		e := ty.apply(OpCast, n.cast, ty.expr(n.args[0], from))
		if n.cast != want {
			e = ty.apply(OpCast, want, e)
		}
		return e
	case op.Math() && !want.Float():
		// exp, log and fabs compute in double (expf, logf, fabsf in
		// float), converted where another type is wanted, as C does.
		ft := mathType(n)
		return ty.apply(OpCast, want, ty.apply(op, ft, ty.expr(n.args[0], ft)))
	case op == OpSelect:
		c := ty.expr(n.args[0], ty.operandType(Bool, n.args[0]))
		return ty.apply(OpSelect, want, c, ty.expr(n.args[1], want), ty.expr(n.args[2], want))
	case op == OpNot || op == OpAnd || op == OpOr:
		ty.want(n, want, Bool)
		args := ty.newArgs(len(n.args))
		for i, a := range n.args {
			args[i] = ty.expr(a, ty.operandType(Bool, a))
		}
		return ty.newExpr(Expr{Op: op, Type: Bool, Args: args})
	case op >= OpLT && op <= OpNE:
		ty.want(n, want, Bool)
		t := ty.operandType(ty.types(-1), n.args...)
		return ty.apply(op, Bool, ty.expr(n.args[0], t), ty.expr(n.args[1], t))
	}
	args := ty.newArgs(len(n.args))
	for i, a := range n.args {
		args[i] = ty.expr(a, want)
	}
	return ty.newExpr(Expr{Op: n.op, Type: want, Args: args})
}

// newExpr returns a node with e's fields, from a chunk of nodes: a table
// of two thousand entries parses without an allocation per node.
func (ty *typer) newExpr(e Expr) *Expr {
	if len(ty.exprs) == 0 {
		ty.exprs = make([]Expr, 16)
	}
	p := &ty.exprs[0]
	ty.exprs = ty.exprs[1:]
	*p = e
	return p
}

// newArgs returns an operand list of n, from a chunk (its capacity n:
// appending to it copies).
func (ty *typer) newArgs(n int) []*Expr {
	if len(ty.args) < n {
		ty.args = make([]*Expr, max(n, 32))
	}
	a := ty.args[:n:n]
	ty.args = ty.args[n:]
	return a
}

// apply returns op of type t applied to args, from the chunks.
func (ty *typer) apply(op Op, t Type, args ...*Expr) *Expr {
	a := ty.newArgs(len(args))
	copy(a, args)
	return ty.newExpr(Expr{Op: op, Type: t, Args: a})
}

func (ty *typer) want(n *node, want, got Type) {
	if want != got {
		ty.fail(n, "%s is %v, used as %v", n.tok.text, got, want)
	}
}

// number types a numeric literal (or INFINITY, NAN) as want.
func (ty *typer) number(n *node, want Type) *Expr {
	text := n.text
	shown := text
	if n.neg {
		shown = "-" + text
	}
	if want.Float() {
		var f float64
		switch text {
		case "INFINITY":
			f = math.Inf(1)
		case "NAN":
			return Const(NaN(want), want)
		default:
			bits := 64
			if want == Float32 {
				bits = 32
			}
			var err error
			f, err = strconv.ParseFloat(text, bits)
			if err != nil && !strings.Contains(err.Error(), "range") {
				ty.fail(n, "bad number %s", shown)
			}
		}
		if n.neg {
			f = -f
		}
		return Const(FloatValue(f, want), want)
	}
	if n.kind == nSpecial || n.float {
		ty.fail(n, "%s used as %v", shown, want)
		return Const(0, want)
	}
	text = strings.TrimRight(text, "uUlL")
	u, err := strconv.ParseUint(text, 0, 64)
	if err != nil {
		ty.fail(n, "bad integer %s", shown)
		return Const(0, want)
	}
	if want == Bool {
		if u > 1 || n.neg {
			ty.fail(n, "%s used as bool", shown)
		}
		return Const(Value(u), Bool)
	}
	v := Value(u)
	if n.neg {
		v = -v
	}
	// The literal must fit the type (as a negative number for signed
	// types, or as its magnitude for unsigned ones).
	fits := v&^mask(want) == 0
	if want.Signed() {
		lim := uint64(maxValue(want))
		fits = !n.neg && u <= lim || n.neg && u <= lim+1
	} else if want.Unsigned() {
		fits = u <= uint64(mask(want))
	}
	if !fits {
		ty.fail(n, "%s does not fit %v", shown, want)
	}
	return Const(v&mask(want), want)
}
