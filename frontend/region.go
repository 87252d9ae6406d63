package frontend

import (
	"fmt"
	gotoken "go/token"
	"strings"

	"modernc.org/cc/v4"
)

// parser holds one file's state while its regions are translated.
type parser struct {
	path string
	src  []byte
	ast  *cc.AST
	errs *ErrorList
}

// errorf reports a user error at n.
func (p *parser) errorf(n cc.Node, format string, args ...any) {
	p.errs.Add(p.pos(n), fmt.Sprintf(format, args...))
}

// unsupported reports a construct outside the supported subset at n.
func (p *parser) unsupported(n cc.Node, format string, args ...any) {
	p.errs.Add(p.pos(n), notSCoP+fmt.Sprintf(format, args...))
}

func (p *parser) pos(n cc.Node) gotoken.Position {
	if n == nil {
		return gotoken.Position{Filename: p.path}
	}
	return goPos(n.Position())
}

// extent returns the offset of the first token of n that lies in the main
// file and the end offset of the last one (macro-expanded tokens carry the
// position of the macro's invocation, and end with its name), and false
// when there are none.
func (p *parser) extent(n cc.Node) (first, end int, ok bool) {
	for _, t := range cc.NodeTokens(n) {
		pos := t.Position()
		if pos.Filename != p.path || !pos.IsValid() {
			continue
		}
		e := p.tokenEnd(pos.Offset, t.Src())
		if !ok || pos.Offset < first {
			first = pos.Offset
		}
		if !ok || e > end {
			end = e
		}
		ok = true
	}
	return first, end, ok
}

// tokenEnd returns the end offset of a token of source src at off: off +
// len(src) when the file has src there, else the end of the identifier (a
// macro name) or of the single character at off.
func (p *parser) tokenEnd(off int, src []byte) int {
	if off < 0 || off >= len(p.src) {
		return off
	}
	if off+len(src) <= len(p.src) && string(p.src[off:off+len(src)]) == string(src) {
		return off + len(src)
	}
	e := off
	for e < len(p.src) && (p.src[e] == '_' || p.src[e] >= 'a' && p.src[e] <= 'z' || p.src[e] >= 'A' && p.src[e] <= 'Z' || p.src[e] >= '0' && p.src[e] <= '9') {
		e++
	}
	if e == off {
		e++
	}
	return e
}

// text returns the source of src[from:to] with white space collapsed.
func (p *parser) text(from, to int) string {
	if from < 0 || to > len(p.src) || from >= to {
		return ""
	}
	return strings.Join(strings.Fields(string(p.src[from:to])), " ")
}

// source returns the tokens of n as written (after macro expansion), with
// single blanks between tokens that had white space between them.
func source(n cc.Node) string {
	if n == nil {
		return ""
	}
	return cc.NodeSource(n)
}

// scop translates one region, reporting errors; it returns nil when the
// region has errors.
func (p *parser) scop(r region) (*Scop, *cc.FunctionDefinition) {
	fd := p.enclosingFunc(r)
	if fd == nil {
		p.errs.Add(r.pos, "#pragma scop outside a function body")
		return nil, nil
	}
	body := fd.CompoundStatement
	if rb := goPos(body.Token2.Position()); rb.Filename == p.path && rb.Offset < r.endPos.Offset {
		p.errs.Add(r.endPos, "#pragma endscop after the end of the function that contains #pragma scop")
		return nil, nil
	}
	items, ok := p.regionItems(body, r)
	if !ok {
		return nil, nil
	}
	b := newBuilder(p, fd, r, items)
	prog, fn := b.build()
	if prog == nil {
		return nil, nil
	}
	return &Scop{Prog: prog, Func: fn, Start: r.start, End: r.end, Indent: r.indent, Pos: r.pos}, fd
}

// funcs describes every function defined in the main file, in textual
// order, reusing the description of a function that holds a scop. Sizes of
// other functions' array parameters are constant forms when constant and
// zero forms (non-nil) otherwise; their Param is -1.
func (p *parser) funcs(byFunc map[*cc.FunctionDefinition]*Func) []*Func {
	var out []*Func
	for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.FunctionDefinition == nil {
			continue
		}
		fd := ed.FunctionDefinition
		if fd.Declarator == nil || goPos(fd.Declarator.Position()).Filename != p.path {
			continue
		}
		if fn := byFunc[fd]; fn != nil {
			out = append(out, fn)
			continue
		}
		errs := ErrorList{}
		b := newBuilder(&parser{path: p.path, src: p.src, ast: p.ast, errs: &errs}, fd, region{}, nil)
		out = append(out, b.funcDesc(funcParams(fd)))
	}
	return out
}

// enclosingFunc returns the function definition of the main file whose body
// contains the region's "#pragma scop".
func (p *parser) enclosingFunc(r region) *cc.FunctionDefinition {
	for l := p.ast.TranslationUnit; l != nil; l = l.TranslationUnit {
		ed := l.ExternalDeclaration
		if ed == nil || ed.Case != cc.ExternalDeclarationFuncDef || ed.FunctionDefinition == nil {
			continue
		}
		fd := ed.FunctionDefinition
		cs := fd.CompoundStatement
		if cs == nil {
			continue
		}
		lb, rb := goPos(cs.Token.Position()), goPos(cs.Token2.Position())
		if lb.Filename != p.path || rb.Filename != p.path {
			continue
		}
		if lb.Offset < r.pos.Offset && r.pos.Offset < rb.Offset {
			return fd
		}
	}
	return nil
}

// regionItems returns the block items between the region's pragmas: whole
// statements of one block, which may be nested in the function body.
func (p *parser) regionItems(cs *cc.CompoundStatement, r region) ([]*cc.BlockItem, bool) {
	var items []*cc.BlockItem
	for l := cs.BlockItemList; l != nil; l = l.BlockItemList {
		it := l.BlockItem
		if it == nil {
			continue
		}
		first, last, ok := p.extent(it)
		switch {
		case !ok || last <= r.start || first >= r.end:
			continue
		case first >= r.start && last <= r.end:
			items = append(items, it)
		case first < r.start && last > r.end && len(items) == 0:
			// The region lies inside this item: look in its blocks.
			for _, inner := range innerBlocks(it) {
				f, l, ok := p.extent(inner)
				if ok && f < r.start && l > r.end {
					return p.regionItems(inner, r)
				}
			}
			p.errs.Add(r.pos, "#pragma scop must be followed by whole statements of one block")
			return nil, false
		default:
			p.errorf(it, "region boundary splits this statement: #pragma scop and #pragma endscop must enclose whole statements of one block")
			return nil, false
		}
	}
	return items, true
}

// innerBlocks returns the compound statements directly nested in a block
// item (as a block, a loop body or an if branch).
func innerBlocks(it *cc.BlockItem) []*cc.CompoundStatement {
	var out []*cc.CompoundStatement
	var stmt func(s *cc.Statement)
	stmt = func(s *cc.Statement) {
		if s == nil {
			return
		}
		switch s.Case {
		case cc.StatementCompound:
			out = append(out, s.CompoundStatement)
		case cc.StatementIteration:
			if s.IterationStatement != nil {
				stmt(s.IterationStatement.Statement)
			}
		case cc.StatementSelection:
			if s.SelectionStatement != nil {
				stmt(s.SelectionStatement.Statement)
				stmt(s.SelectionStatement.Statement2)
			}
		case cc.StatementLabeled:
			if s.LabeledStatement != nil {
				stmt(s.LabeledStatement.Statement)
			}
		}
	}
	if it.Case == cc.BlockItemStmt {
		stmt(it.Statement)
	}
	return out
}
