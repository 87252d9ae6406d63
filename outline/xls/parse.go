package xls

import (
	"fmt"
	"go/token"
	"math/big"
	"strconv"
	"strings"

	"nestor/outline"
)

// maxErrors is the number of errors after which Parse stops.
const maxErrors = 10

// Parse reads a package written in XLS IR text. filename is used in
// error positions only. Errors are returned as an ErrorList, sorted, one
// per line. Parse checks every node as Check does, as it reads it.
func Parse(filename string, src []byte) (*outline.Package, error) {
	toks, marked, lerrs := lex(src)
	p := &parser{file: filename, src: src, toks: toks, marked: marked, ids: make(map[int]outline.Pos)}
	for _, e := range lerrs[:min(len(lerrs), maxErrors)] {
		p.errorf(e.pos, "%s", e.msg)
	}
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	pkg := p.parsePackage()
	if len(p.errs) > 0 {
		return nil, p.result()
	}
	return pkg, nil
}

type parser struct {
	file   string
	src    []byte
	marked map[int]bool // lines holding outlinedMark
	toks   []tok
	i      int
	errs   ErrorList

	pkg       *outline.Package
	topOpaque string              // the proc or block marked top, if any
	ids       map[int]outline.Pos // IDs used so far in the package
	noID      []*outline.Node     // nodes given neither id= nor a name op.N
}

func (p *parser) result() error {
	p.errs.Sort()
	return p.errs.Err()
}

func (p *parser) errorf(pos outline.Pos, format string, args ...any) {
	p.errs.Add(token.Position{Filename: p.file, Line: pos.Line, Column: pos.Col}, fmt.Sprintf(format, args...))
}

func (p *parser) peek() tok { return p.toks[p.i] }

func (p *parser) peekN(n int) tok {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() tok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) at(k tokKind) bool             { return p.peek().kind == k }
func (p *parser) atPunct(s string) bool         { t := p.peek(); return t.kind == tPunct && t.text == s }
func (p *parser) atIdent(s string) bool         { t := p.peek(); return t.kind == tIdent && t.text == s }
func isPunct(t tok, s string) bool              { return t.kind == tPunct && t.text == s }
func (p *parser) atKeyword() bool               { return p.at(tIdent) && isPunct(p.peekN(1), "=") }
func (p *parser) failf(f string, a ...any) bool { p.errorf(p.peek().pos(), f, a...); return false }

func (p *parser) expect(s string) bool {
	if p.atPunct(s) {
		p.next()
		return true
	}
	return p.failf("expected '%s', found %s", s, p.peek())
}

func (p *parser) expectIdent(what string) (tok, bool) {
	if p.at(tIdent) {
		return p.next(), true
	}
	return tok{}, p.failf("expected %s, found %s", what, p.peek())
}

// expectName reads a name that is not a keyword.
func (p *parser) expectName(what string) (tok, bool) {
	t, ok := p.expectIdent(what)
	if ok && keywords[t.text] {
		p.errorf(t.pos(), "keyword %s used as a %s", t.text, what)
		return t, false
	}
	return t, ok
}

// parseInt reads a non-negative decimal, hex or binary integer that fits
// an int32.
func (p *parser) parseInt(what string) (int, bool) {
	t := p.peek()
	if t.kind != tNumber {
		return 0, p.failf("expected %s, found %s", what, t)
	}
	x, err := parseNumber(t.text)
	if err != nil || x.Sign() < 0 || x.BitLen() > 31 {
		return 0, p.failf("bad %s %s", what, t.text)
	}
	p.next()
	return int(x.Int64()), true
}

// parseNumber reads an integer written in decimal, 0x hex or 0b binary,
// with an optional minus sign and underscores between digits.
func parseNumber(s string) (*big.Int, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	base := 10
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case strings.HasPrefix(s, "0b"):
		base, s = 2, s[2:]
	}
	if s == "" || s[0] == '_' || s[len(s)-1] == '_' || strings.Contains(s, "__") {
		return nil, fmt.Errorf("bad number")
	}
	x, ok := new(big.Int).SetString(strings.ReplaceAll(s, "_", ""), base)
	if !ok {
		return nil, fmt.Errorf("bad number")
	}
	if neg {
		x.Neg(x)
	}
	return x, nil
}

// parsePackage reads the whole file: "package NAME" (XLS's tests also
// write a lone function, proc or block without it), then file numbers,
// functions, and the parts the graph does not model (procs, blocks,
// channels, scheduled functions), each kept as text.
func (p *parser) parsePackage() *outline.Package {
	p.pkg = &outline.Package{}
	if p.atIdent("package") {
		p.next()
		name, ok := p.expectName("package name")
		if !ok {
			return nil
		}
		p.pkg.Name = name.text
	} else {
		p.pkg.Headless = true
	}
	var attrs []string
	itemStart := -1 // token index where the pending item began (its first attribute)
	for !p.at(tEOF) && len(p.errs) < maxErrors {
		t := p.peek()
		if itemStart < 0 {
			itemStart = p.i
		}
		switch {
		case p.atIdent("file_number") && len(attrs) == 0:
			p.next()
			n, ok := p.parseInt("file number")
			if !ok {
				return nil
			}
			if !p.at(tString) {
				p.failf("expected file name, found %s", p.peek())
				return nil
			}
			p.pkg.Files = append(p.pkg.Files, outline.SourceFile{Number: n, Path: p.next().text})
			itemStart = -1
		case p.atPunct("#"):
			start := p.peek().off
			if !p.skipAttribute() {
				return nil
			}
			attrs = append(attrs, string(p.src[start:p.toks[p.i-1].off+1]))
		case p.atIdent("fn"), p.atIdent("top") && p.peekN(1).kind == tIdent && p.peekN(1).text == "fn":
			top := p.atIdent("top")
			if top {
				p.next()
			}
			f := p.parseFunction(top)
			if f == nil {
				return nil
			}
			f.Attrs = attrs
			f.Outlined = p.marked[p.toks[itemStart].pos().Line-1]
			attrs, itemStart = nil, -1
		case t.kind == tIdent && p.peekN(1).kind == tIdent, t.kind == tIdent && t.text == "chan":
			if !p.opaque(itemStart) {
				return nil
			}
			attrs, itemStart = nil, -1
		default:
			p.failf("expected 'fn', 'top fn', 'proc', 'block', 'chan' or 'file_number', found %s", t)
			return nil
		}
	}
	if len(attrs) > 0 {
		p.failf("attribute not followed by a function, proc or block")
	}
	if p.pkg.Headless && len(p.pkg.Funcs)+len(p.pkg.Opaque) != 1 && len(p.errs) == 0 {
		p.errorf(outline.Pos{Line: 1, Col: 1}, "expected 'package' (only a file of one function, proc or block may go without)")
	}
	if len(p.errs) > 0 {
		return nil
	}
	next := 1
	for id := range p.ids {
		next = max(next, id+1)
	}
	for _, o := range p.pkg.Opaque {
		next = max(next, o.MaxID+1)
	}
	for _, n := range p.noID {
		n.ID = next
		next++
	}
	return p.pkg
}

// opaqueKinds are the parts of a package that the graph does not model,
// kept as text. Any other "KEYWORD NAME" at the top level is reported.
var opaqueKinds = map[string]bool{
	"proc": true, "block": true, "chan": true,
	"scheduled_fn": true, "scheduled_proc": true, "scheduled_block": true,
}

// opaque reads a part of the package that the graph does not model, from
// token start (its first attribute, or "top", or its keyword) to its end:
// for chan, the ')' that closes its arguments; for the others, the '}'
// that closes their body. Brackets must balance; nothing else inside is
// checked (XLS checks it). The text is kept as written.
func (p *parser) opaque(start int) bool {
	top := false
	if p.atIdent("top") {
		p.next()
		top = true
	}
	kw := p.next()
	if !opaqueKinds[kw.text] {
		p.errorf(kw.pos(), "%s is not a part of an XLS package that nestor reads (want fn, proc, block, chan or scheduled_fn)", kw.text)
		return false
	}
	name, ok := p.expectName(kw.text + " name")
	if !ok {
		return false
	}
	closer := "}"
	if kw.text == "chan" {
		closer = ")"
	}
	o := &outline.Opaque{Kind: kw.text, Name: name.text, Pos: p.toks[start].pos(), Top: top}
	var stack []string
	for {
		t := p.next()
		if t.kind == tEOF {
			p.errorf(kw.pos(), "%s %s not closed", kw.text, name.text)
			return false
		}
		if t.kind == tIdent && isPunct(p.peek(), "=") {
			switch t.text {
			case "id":
				if v, err := parseNumber(p.peekN(1).text); err == nil && v.IsInt64() && v.Int64() < 1<<31 {
					o.MaxID = max(o.MaxID, int(v.Int64()))
				}
			case "to_apply", "body", "foreign_function", "block":
				if f := p.peekN(1); f.kind == tIdent {
					o.Calls = append(o.Calls, f.text)
				}
			}
		}
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(":
			stack = append(stack, ")")
		case "[":
			stack = append(stack, "]")
		case "{":
			stack = append(stack, "}")
		case ")", "]", "}":
			if len(stack) == 0 || stack[len(stack)-1] != t.text {
				p.errorf(t.pos(), "unbalanced '%s' in %s %s", t.text, kw.text, name.text)
				return false
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 && t.text == closer {
				o.Text = string(p.src[p.toks[start].off : t.off+1])
				if top {
					if p.pkg.Top != "" || p.topOpaque != "" {
						p.errorf(kw.pos(), "two tops: %s and %s", p.pkg.Top+p.topOpaque, name.text)
						return false
					}
					p.topOpaque = name.text
				}
				if p.pkg.Defines(name.text) && kw.text != "chan" {
					p.errorf(name.pos(), "%s defined twice", name.text)
					return false
				}
				p.pkg.Opaque = append(p.pkg.Opaque, o)
				return true
			}
		}
	}
}

// skipAttribute skips an attribute such as #[initiation_interval(2)] or
// #![...]; the caller keeps its text.
func (p *parser) skipAttribute() bool {
	p.next()
	if p.atPunct("!") {
		p.next()
	}
	if !p.expect("[") {
		return false
	}
	for depth := 1; depth > 0; {
		switch t := p.next(); {
		case t.kind == tEOF:
			return p.failf("attribute not closed")
		case isPunct(t, "["):
			depth++
		case isPunct(t, "]"):
			depth--
		}
	}
	return true
}

// A scope maps the names of a function's nodes to them; failed holds the
// names whose definitions had errors, so that their uses are not
// reported again.
type scope struct {
	f      *outline.Function
	names  map[string]*outline.Node
	failed map[string]bool
	hasRet bool // a ret statement was seen, even one with errors
}

// parseFunction reads fn NAME(params) -> TYPE { body }. It returns nil
// when parsing cannot go on.
func (p *parser) parseFunction(top bool) *outline.Function {
	fnTok := p.next()
	name, ok := p.expectName("function name")
	if !ok {
		return nil
	}
	if p.pkg.Defines(name.text) {
		p.errorf(name.pos(), "function %s defined twice", name.text)
		return nil
	}
	f := &outline.Function{Name: name.text, Pos: fnTok.pos()}
	sc := &scope{f: f, names: make(map[string]*outline.Node), failed: make(map[string]bool)}
	if !p.expect("(") || !p.parseParams(sc) || !p.expect("->") {
		return nil
	}
	retType, ok := p.parseType(0)
	if !ok || !p.expect("{") {
		return nil
	}
	for !p.atPunct("}") && !p.at(tEOF) && len(p.errs) < maxErrors {
		line := p.peek().pos().Line
		if !p.parseStmt(sc) {
			for p.peek().pos().Line == line && !p.at(tEOF) {
				p.next()
			}
		}
	}
	end := p.peek()
	if !p.expect("}") {
		return nil
	}
	switch {
	case f.Ret == nil && !sc.hasRet:
		p.errorf(end.pos(), "function %s has no ret", f.Name)
	case f.Ret != nil && !f.Ret.Type.Equal(retType):
		p.errorf(f.Ret.Pos, "function %s returns %s, declared %s", f.Name, f.Ret.Type, retType)
	}
	if top {
		if p.pkg.Top != "" || p.topOpaque != "" {
			p.errorf(fnTok.pos(), "two tops: %s and %s", p.pkg.Top+p.topOpaque, f.Name)
		}
		p.pkg.Top = f.Name
	}
	p.pkg.Funcs = append(p.pkg.Funcs, f)
	return f
}

// parseParams reads "x: bits[8] id=1, y: bits[8] id=2)".
func (p *parser) parseParams(sc *scope) bool {
	f := sc.f
	for !p.atPunct(")") {
		if len(f.Params) > 0 && !p.expect(",") {
			return false
		}
		name, ok := p.expectName("parameter name")
		if !ok || !p.expect(":") {
			return false
		}
		t, ok := p.parseType(0)
		if !ok {
			return false
		}
		n := &outline.Node{Name: name.text, Op: "param", Type: t, Pos: name.pos()}
		if p.atIdent("id") && isPunct(p.peekN(1), "=") {
			p.next()
			p.next()
			if n.ID, ok = p.parseInt("id"); !ok {
				return false
			}
		}
		if sc.names[name.text] != nil {
			p.errorf(name.pos(), "parameter %s defined twice", name.text)
			return false
		}
		if !p.useID(n, name.text) {
			return false
		}
		sc.names[name.text] = n
		f.Params = append(f.Params, n)
		f.Nodes = append(f.Nodes, n)
	}
	p.next()
	return true
}

// useID gives n the ID suggested by a name of the form op.N when n has
// none, and records n's ID, which must be new in the package.
func (p *parser) useID(n *outline.Node, name string) bool {
	if n.ID == 0 {
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			if id, err := strconv.Atoi(name[i+1:]); err == nil && id > 0 && name[i+1] != '+' && name[i+1] != '0' {
				n.ID = id
			}
		}
	}
	if n.ID == 0 {
		p.noID = append(p.noID, n)
		return true
	}
	if prev, ok := p.ids[n.ID]; ok {
		p.errorf(n.Pos, "id %d already used at %s", n.ID, prev)
		return false
	}
	p.ids[n.ID] = n.Pos
	return true
}

// parseType reads bits[N], token or a tuple (T, ...), each followed by
// any number of array dimensions [N].
func (p *parser) parseType(depth int) (outline.Type, bool) {
	start := p.peek().pos()
	if depth > maxTypeDepth {
		return outline.Type{}, p.failf("type nested more than %d deep", maxTypeDepth)
	}
	var t outline.Type
	switch {
	case p.atPunct("("):
		p.next()
		t.Kind = outline.Tuple
		for !p.atPunct(")") {
			if len(t.Elems) > 0 && !p.expect(",") {
				return t, false
			}
			e, ok := p.parseType(depth + 1)
			if !ok {
				return t, false
			}
			t.Elems = append(t.Elems, e)
			if len(t.Elems) > maxTypeSize {
				return t, p.failf("tuple type too large")
			}
		}
		p.next()
	case p.atIdent("token"):
		p.next()
		t.Kind = outline.Token
	case p.atIdent("bits"):
		p.next()
		if !p.expect("[") {
			return t, false
		}
		w, ok := p.parseInt("bit count")
		if !ok || !p.expect("]") {
			return t, false
		}
		t = outline.BitsType(w)
	default:
		return t, p.failf("expected type, found %s", p.peek())
	}
	for p.atPunct("[") {
		p.next()
		n, ok := p.parseInt("array size")
		if !ok || !p.expect("]") {
			return t, false
		}
		t = outline.ArrayType(t, n)
		if err := checkType(t); err != nil {
			p.errorf(start, "%v", err)
			return t, false
		}
	}
	if err := checkType(t); err != nil {
		p.errorf(start, "%v", err)
		return t, false
	}
	return t, true
}

// parseValue reads a value of type t (see ParseValue).
func (p *parser) parseValue(t outline.Type, depth int) (Value, bool) {
	if depth > maxTypeDepth {
		return Value{}, p.failf("value nested more than %d deep", maxTypeDepth)
	}
	switch t.Kind {
	case outline.Bits:
		if p.atIdent("bits") {
			pos := p.peek().pos()
			u, ok := p.parseType(depth)
			if !ok || !p.expect(":") {
				return Value{}, false
			}
			if !u.Equal(t) {
				p.errorf(pos, "value of type %s where %s is expected", u, t)
				return Value{}, false
			}
		}
		nt := p.peek()
		if nt.kind != tNumber {
			return Value{}, p.failf("expected number, found %s", nt)
		}
		x, err := parseNumber(nt.text)
		if err != nil {
			return Value{}, p.failf("bad number %s", nt.text)
		}
		need := x.BitLen() // bits needed: unsigned, or two's complement for negatives
		if x.Sign() < 0 {
			need = new(big.Int).Sub(new(big.Int).Neg(x), bigOne).BitLen() + 1
		}
		if need > t.Width {
			return Value{}, p.failf("value %s does not fit in %s", nt.text, t)
		}
		p.next()
		return mkBits(t.Width, x), true
	case outline.Tuple, outline.Array:
		open, close, n := "(", ")", len(t.Elems)
		if t.Kind == outline.Array {
			open, close, n = "[", "]", t.Len
		}
		if !p.expect(open) {
			return Value{}, false
		}
		v := Value{typ: t, elems: make([]Value, n)}
		for i := range n {
			if i > 0 && !p.expect(",") {
				return Value{}, false
			}
			et := t.Elems[0]
			if t.Kind == outline.Tuple {
				et = t.Elems[i]
			}
			e, ok := p.parseValue(et, depth+1)
			if !ok {
				return Value{}, false
			}
			v.elems[i] = e
		}
		if !p.atPunct(close) {
			return Value{}, p.failf("expected '%s' after %d elements of %s, found %s", close, n, t, p.peek())
		}
		p.next()
		return v, true
	case outline.Token:
		if !p.atIdent("token") {
			return Value{}, p.failf("expected token, found %s", p.peek())
		}
		p.next()
		return TokenValue(), true
	}
	return Value{}, p.failf("values of type %s are not supported", t)
}

// args holds the arguments of a node as written.
type args struct {
	operands []*outline.Node            // positional
	lists    map[string][]*outline.Node // cases=[...], indices=[...]
	dflt     *outline.Node              // default=
	ints     map[string]int             // start, width, new_bit_count, index, id
	words    map[string]string          // to_apply, name, lsb_prio, assumed_in_bounds
	value    Value                      // value=
	keys     map[string]bool            // the keywords given
	loc      []outline.SourceLoc        // pos=
	hidden   bool                       // an operand's definition had errors (already reported)
}

func (a *args) setWord(key, w string) {
	if a.words == nil {
		a.words = make(map[string]string, 1)
	}
	a.words[key] = w
}

// parseStmt reads one statement of a function body:
//
//	[ret] NAME: TYPE = OP(operands..., key=value..., id=N, pos=...)
//	ret NAME
//
// It returns false after an error.
func (p *parser) parseStmt(sc *scope) bool {
	f := sc.f
	isRet := false
	if p.atIdent("ret") {
		p.next()
		isRet = true
		sc.hasRet = true
	}
	name, ok := p.expectName("node name")
	if !ok {
		return false
	}
	if isRet && !p.atPunct(":") {
		n := sc.names[name.text]
		if n == nil {
			if !sc.failed[name.text] {
				p.errorf(name.pos(), "undefined name %s", name.text)
			}
			return false
		}
		return p.setRet(f, n, name.pos())
	}
	n, ok := p.parseNode(sc, name)
	if !ok {
		if sc.names[name.text] == nil {
			sc.failed[name.text] = true
		}
		return false
	}
	if n.Op == "param" { // ret x: T = param(name=x): returns a parameter
		if isRet {
			return p.setRet(f, n, name.pos())
		}
		return true
	}
	if sc.names[name.text] != nil || sc.failed[name.text] {
		p.errorf(name.pos(), "name %s defined twice", name.text)
		return false
	}
	sc.names[name.text] = n
	f.Nodes = append(f.Nodes, n)
	if isRet {
		return p.setRet(f, n, name.pos())
	}
	return true
}

func (p *parser) setRet(f *outline.Function, n *outline.Node, pos outline.Pos) bool {
	if f.Ret != nil {
		p.errorf(pos, "function %s has two ret statements", f.Name)
		return false
	}
	f.Ret = n
	return true
}

// parseNode reads ": TYPE = OP(args)" after the node's name and builds
// the node, checked; for a param statement it returns the parameter.
func (p *parser) parseNode(sc *scope, name tok) (*outline.Node, bool) {
	if !p.expect(":") {
		return nil, false
	}
	t, ok := p.parseType(0)
	if !ok || !p.expect("=") {
		return nil, false
	}
	opTok, ok := p.expectIdent("operation")
	if !ok {
		return nil, false
	}
	info, ok := ops[opTok.text]
	if !ok {
		p.errorf(opTok.pos(), "unsupported operation %s", opTok.text)
		return nil, false
	}
	a, ok := p.parseArgs(sc, opTok.text, info, t)
	if !ok || a.hidden {
		return nil, false
	}
	if opTok.text == "param" {
		return p.paramStmt(sc, name, t, a)
	}
	n := &outline.Node{Op: opTok.text, Type: t, Pos: name.pos(), ID: a.ints["id"], Loc: a.loc}
	if !p.layout(n, a, opTok.pos()) {
		return nil, false
	}
	for _, k := range info.keys {
		if !attrKeys[k] || !a.keys[k] {
			continue
		}
		v, isInt := a.ints[k]
		switch {
		case isInt:
			n.Attrs = append(n.Attrs, outline.Attr{Key: k, Value: strconv.Itoa(v)})
		case k == "value":
			n.Attrs = append(n.Attrs, outline.Attr{Key: k, Value: a.value.String()})
		default:
			n.Attrs = append(n.Attrs, outline.Attr{Key: k, Value: a.words[k]})
		}
	}
	if !p.useID(n, name.text) {
		return nil, false
	}
	if n.ID == 0 || name.text != n.Op+"."+strconv.Itoa(n.ID) {
		n.Name = name.text
	}
	if err := checkNode(n, p.pkg.Func); err != nil {
		p.errorf(name.pos(), "%v", err)
		return nil, false
	}
	return n, true
}

// paramStmt handles "x: T = param(name=x, id=N)", XLS's way of writing a
// function that returns a parameter.
func (p *parser) paramStmt(sc *scope, name tok, t outline.Type, a *args) (*outline.Node, bool) {
	n := sc.names[a.words["name"]]
	switch {
	case n == nil || n.Op != "param":
		p.errorf(name.pos(), "param: %s is not a parameter", a.words["name"])
	case name.text != n.Name:
		p.errorf(name.pos(), "param: node %s names parameter %s", name.text, n.Name)
	case !t.Equal(n.Type):
		p.errorf(name.pos(), "param: type %s, but parameter %s has type %s", t, n.Name, n.Type)
	default:
		return n, true
	}
	return nil, false
}

// layout sets n's operands from the arguments: the positional ones, then
// the cases and default of a select, or the indices of an array access.
// It checks what XLS requires of a select as written: at least one case,
// a default exactly when the cases do not cover every selector value
// (sel), one case per selector bit (one_hot_sel, priority_sel).
func (p *parser) layout(n *outline.Node, a *args, pos outline.Pos) bool {
	n.Operands = append(n.Operands, a.operands...)
	switch n.Op {
	case "sel", "one_hot_sel", "priority_sel":
		cases := a.lists["cases"]
		if len(cases) == 0 {
			p.errorf(pos, "%s needs at least one case", n.Op)
			return false
		}
		if s := n.Operands[0].Type; s.Kind == outline.Bits {
			w, m := s.Width, len(cases)
			switch {
			case n.Op != "sel" && m != w:
				p.errorf(pos, "%s has %d cases for a %d-bit selector", n.Op, m, w)
				return false
			case n.Op == "sel" && !pow2AtLeast(w, m):
				p.errorf(pos, "sel has %d cases for a %d-bit selector", m, w)
				return false
			case n.Op == "sel" && a.dflt == nil && pow2AtLeast(w, m+1):
				p.errorf(pos, "sel needs a default: %d cases for a %d-bit selector", m, w)
				return false
			case n.Op == "sel" && a.dflt != nil && !pow2AtLeast(w, m+1):
				p.errorf(pos, "sel has a default but its %d cases cover the %d-bit selector", m, w)
				return false
			}
		}
		n.Operands = append(n.Operands, cases...)
		if a.dflt != nil {
			n.Operands = append(n.Operands, a.dflt)
		}
	case "array_index", "array_update":
		n.Operands = append(n.Operands, a.lists["indices"]...)
	case "trace":
		n.Operands = append(n.Operands, a.lists["data_operands"]...)
	case "counted_for", "dynamic_counted_for":
		n.Operands = append(n.Operands, a.lists["invariant_args"]...)
	}
	return true
}

// keyKinds says how each keyword argument's value is written.
var keyKinds = map[string]string{
	"id": "int", "start": "int", "width": "int", "new_bit_count": "int", "index": "int",
	"trip_count": "int", "delay": "int", "verbosity": "int", "stride": "sint",
	"cases": "names", "indices": "names", "data_operands": "names", "invariant_args": "names",
	"default":  "name",
	"to_apply": "ident", "name": "ident", "body": "ident",
	"lsb_prio": "bool", "assumed_in_bounds": "bool",
	"message": "string", "label": "string", "format": "string",
	"value": "value", "pos": "pos",
}

// parseArgs reads "(operands..., key=value, ...)".
func (p *parser) parseArgs(sc *scope, op string, info *opInfo, t outline.Type) (*args, bool) {
	a := &args{} // its maps are made when first written (most nodes have only id=)
	open := p.peek()
	if !p.expect("(") {
		return nil, false
	}
	for i := 0; !p.atPunct(")"); i++ {
		if i > 0 && !p.expect(",") {
			return nil, false
		}
		if !p.atKeyword() {
			if len(a.keys) > 0 {
				return nil, p.failf("operand after keyword arguments")
			}
			n, ok := p.parseName(sc, a)
			if !ok {
				return nil, false
			}
			a.operands = append(a.operands, n)
			continue
		}
		key := p.next()
		p.next() // =
		if a.keys[key.text] {
			p.errorf(key.pos(), "argument %s given twice", key.text)
			return nil, false
		}
		if a.keys == nil {
			a.keys = make(map[string]bool, 2)
		}
		a.keys[key.text] = true
		if key.text != "id" && key.text != "pos" && !info.takes(key.text) {
			p.errorf(key.pos(), "%s takes no argument %s", op, key.text)
			return nil, false
		}
		if !p.parseKeyword(sc, a, key.text, t) {
			return nil, false
		}
	}
	p.next()
	for _, k := range info.keys {
		if !a.keys[k] && !info.isOptional(k) {
			p.errorf(open.pos(), "%s needs argument %s", op, k)
			return nil, false
		}
	}
	if info.operands != variadic && len(a.operands) != info.operands {
		p.errorf(open.pos(), "%s takes %d operands, found %d", op, info.operands, len(a.operands))
		return nil, false
	}
	return a, true
}

// parseName reads the name of a node defined earlier.
func (p *parser) parseName(sc *scope, a *args) (*outline.Node, bool) {
	t, ok := p.expectIdent("operand name")
	if !ok {
		return nil, false
	}
	n := sc.names[t.text]
	if n == nil {
		if sc.failed[t.text] {
			a.hidden = true
			return &outline.Node{}, true
		}
		p.errorf(t.pos(), "undefined name %s", t.text)
		return nil, false
	}
	return n, true
}

// parseKeyword reads the value of the keyword argument key.
func (p *parser) parseKeyword(sc *scope, a *args, key string, t outline.Type) bool {
	switch keyKinds[key] {
	case "int":
		v, ok := p.parseInt(key)
		if ok && key == "id" && v == 0 {
			return p.failf("id must be positive")
		}
		if a.ints == nil {
			a.ints = make(map[string]int, 2)
		}
		a.ints[key] = v
		return ok
	case "names":
		if !p.expect("[") {
			return false
		}
		if a.lists == nil {
			a.lists = make(map[string][]*outline.Node)
		}
		a.lists[key] = []*outline.Node{}
		for !p.atPunct("]") {
			if len(a.lists[key]) > 0 && !p.expect(",") {
				return false
			}
			n, ok := p.parseName(sc, a)
			if !ok {
				return false
			}
			a.lists[key] = append(a.lists[key], n)
		}
		p.next()
		return true
	case "name":
		n, ok := p.parseName(sc, a)
		a.dflt = n
		return ok
	case "ident":
		w, ok := p.expectIdent(key)
		a.setWord(key, w.text)
		return ok
	case "string":
		if !p.at(tString) {
			return p.failf("expected a quoted string, found %s", p.peek())
		}
		a.setWord(key, p.next().text)
		return true
	case "sint":
		t := p.peek()
		x, err := parseNumber(t.text)
		if t.kind != tNumber || err != nil || !x.IsInt64() || x.Int64() < -(1<<31) || x.Int64() >= 1<<31 {
			return p.failf("bad %s %s", key, t.text)
		}
		p.next()
		a.setWord(key, x.String())
		return true
	case "bool":
		if !p.atIdent("true") && !p.atIdent("false") {
			return p.failf("expected true or false, found %s", p.peek())
		}
		a.setWord(key, p.next().text)
		return true
	case "value":
		v, ok := p.parseValue(t, 0)
		a.value = v
		return ok
	case "pos":
		return p.parsePos(a)
	}
	return p.failf("unknown argument %s", key)
}

// parsePos reads source positions into a.loc: pos=[(file,line,col), ...]
// or the older pos=file,line,col.
func (p *parser) parsePos(a *args) bool {
	triple := func() bool {
		var v [3]int
		for i := range 3 {
			if i > 0 && !p.expect(",") {
				return false
			}
			x, ok := p.parseInt("source position")
			if !ok {
				return false
			}
			v[i] = x
		}
		a.loc = append(a.loc, outline.SourceLoc{File: v[0], Line: v[1], Col: v[2]})
		return true
	}
	if !p.atPunct("[") {
		return triple()
	}
	p.next()
	for i := 0; !p.atPunct("]"); i++ {
		if i > 0 && !p.expect(",") {
			return false
		}
		if !p.expect("(") || !triple() || !p.expect(")") {
			return false
		}
	}
	p.next()
	return true
}
