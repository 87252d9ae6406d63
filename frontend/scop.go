package frontend

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"nestor/ir"
	"nestor/poly"
)

// loop is one enclosing for loop during translation.
type loop struct {
	decl  *cc.Declarator
	name  string
	typ   ir.Type
	dir   int
	index int // position among the children of the enclosing loop (Beta)
	// value, when not nil, is the counter's value as a form over the
	// enclosing counters, this loop's trip number and the parameters:
	// lb + step·k for a loop counted from 0 (normalize in stmt.go).
	value *ir.Aff
}

// builder translates the block items of one region into an ir.Program.
type builder struct {
	*parser
	fn    *cc.FunctionDefinition
	r     region
	items []*cc.BlockItem
	prog  *ir.Program
	nerr  int // errors before this region

	// What the pre-scan learns about the region's variables.
	declared map[*cc.Declarator]bool // declared inside the region
	written  map[*cc.Declarator]bool // assigned as a scalar (counters too)
	counters map[*cc.Declarator]bool // used as a loop counter
	refs     []*cc.Declarator        // referenced variables, first use order

	params map[*cc.Declarator]int // program parameters
	arrays map[*cc.Declarator]int // index in prog.Arrays
	names  map[string]bool        // names taken by parameters and arrays
	np     int

	// The translation state: enclosing loops, the constraints of their
	// bounds and of enclosing if guards, floor-division locals, and the
	// next child position at each depth.
	loops []*loop
	cons  []ir.Constraint
	divs  []ir.Div
	next  []int

	cases     map[int64][]alt // the cases of each placeholder (split.go)
	overflow  bool            // set by substitute on int64 overflow
	inexpr    bool            // set by substitute: a floor division in an expression
	exprTypes []ir.Type       // the counters' types of the statement expand works on
	mods      map[string]modPlaceholder

	// Counter values outside their loops (counter.go).
	values  map[*cc.Declarator]counterValue
	scope   []int // open loop bodies and if branches
	nscopes int

	attrs     map[string]string // funcAttr's answers by function name
	pureCalls []pureCall        // calls of pure functions, for checkPure

	// work is the budget of the region's emptiness questions (case
	// splits, non-negativity proofs): past it each gets the safe answer
	// (the case may happen; the value is not proved non-negative).
	work *poly.Work
}

// regionWork is the budget of one region's emptiness questions, in
// poly.Work units (about a second; see builder.work). Reading nestor's
// own tiled output back asks many questions over a hundred variables.
const regionWork = 3e8

func newBuilder(p *parser, fd *cc.FunctionDefinition, r region, items []*cc.BlockItem) *builder {
	return &builder{
		parser: p, fn: fd, r: r, items: items, prog: &ir.Program{}, nerr: len(*p.errs),
		declared: map[*cc.Declarator]bool{}, written: map[*cc.Declarator]bool{},
		counters: map[*cc.Declarator]bool{}, params: map[*cc.Declarator]int{},
		arrays: map[*cc.Declarator]int{}, names: map[string]bool{},
		work: poly.NewWork(regionWork),
	}
}

func (b *builder) failed() bool { return len(*b.errs) > b.nerr }

// build runs the pre-scan, chooses the parameters and translates the
// statements. It returns nil when the region has errors.
func (b *builder) build() (*ir.Program, *Func) {
	for _, it := range b.items {
		b.prescan(it)
	}
	fps := funcParams(b.fn)
	b.chooseParams(fps)
	fn := b.funcDesc(fps)
	b.next = []int{0}
	for _, it := range b.items {
		b.item(it)
	}
	b.checkPure()
	b.inferFirstSizes()
	if b.failed() {
		return nil, nil
	}
	if err := ir.Check(b.prog); err != nil {
		b.errs.Add(b.r.pos, fmt.Sprintf("frontend: internal error: %v", err))
		return nil, nil
	}
	return b.prog, fn
}

// ident returns the declarator an identifier expression names, or nil.
func ident(e cc.ExpressionNode) (*cc.PrimaryExpression, *cc.Declarator) {
	pe, ok := unparen(e).(*cc.PrimaryExpression)
	if !ok || pe.Case != cc.PrimaryExpressionIdent {
		return nil, nil
	}
	d, _ := pe.ResolvedTo().(*cc.Declarator)
	return pe, d
}

// unparen strips parentheses.
func unparen(e cc.ExpressionNode) cc.ExpressionNode {
	for k := 0; k < 1000; k++ {
		pe, ok := e.(*cc.PrimaryExpression)
		if !ok || pe.Case != cc.PrimaryExpressionExpr || pe.ExpressionList == nil {
			return e
		}
		e = pe.ExpressionList
	}
	return e
}

// prescan records the region's declarations, scalar writes, loop counters
// and variable references.
func (b *builder) prescan(n cc.Node) {
	seen := map[*cc.Declarator]bool{}
	walk(n, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.Declarator:
			b.declared[n] = true
		case *cc.PrimaryExpression:
			if n.Case == cc.PrimaryExpressionIdent {
				if d, ok := n.ResolvedTo().(*cc.Declarator); ok && !seen[d] {
					seen[d] = true
					if !slices.Contains(b.refs, d) {
						b.refs = append(b.refs, d)
					}
				}
			}
		case *cc.AssignmentExpression:
			if n.Case != cc.AssignmentExpressionCond {
				if _, d := ident(n.UnaryExpression); d != nil {
					b.written[d] = true
				}
			}
		case *cc.PostfixExpression:
			if n.Case == cc.PostfixExpressionInc || n.Case == cc.PostfixExpressionDec {
				if _, d := ident(n.PostfixExpression); d != nil {
					b.written[d] = true
				}
			}
		case *cc.UnaryExpression:
			if n.Case == cc.UnaryExpressionInc || n.Case == cc.UnaryExpressionDec {
				if _, d := ident(n.UnaryExpression); d != nil {
					b.written[d] = true
				}
			}
		case *cc.ExpressionStatement:
			if isVoidCast(n.ExpressionList) {
				return false // "(void)i;" reads nothing
			}
		case *cc.IterationStatement:
			if d := forCounter(n); d != nil {
				b.counters[d] = true
				b.written[d] = true
			}
		}
		return true
	})
}

// forCounter returns the variable a for loop initializes, if any, or the
// one it steps when it has no initialization.
func forCounter(n *cc.IterationStatement) *cc.Declarator {
	switch n.Case {
	case cc.IterationStatementFor:
		if n.ExpressionList == nil {
			return stepVar(n.ExpressionList3)
		}
		if ae, ok := n.ExpressionList.(*cc.AssignmentExpression); ok && ae.Case == cc.AssignmentExpressionAssign {
			_, d := ident(ae.UnaryExpression)
			return d
		}
	case cc.IterationStatementForDecl:
		if n.Declaration != nil && n.Declaration.InitDeclaratorList != nil && n.Declaration.InitDeclaratorList.InitDeclarator != nil {
			return n.Declaration.InitDeclaratorList.InitDeclarator.Declarator
		}
	}
	return nil
}

// isVariable reports whether d declares an object (not a function or type).
func isVariable(d *cc.Declarator) bool {
	if d == nil || d.IsTypename() || d.Type() == nil {
		return false
	}
	return d.Type().Kind() != cc.Function
}

// isIntScalar reports whether d is a variable of integer type.
func isIntScalar(d *cc.Declarator) bool {
	if !isVariable(d) {
		return false
	}
	t, ok := scalarType(d.Type())
	return ok && t.IsInteger()
}

// paramDecl is one parameter of the enclosing function.
type paramDecl struct {
	decl *cc.Declarator
	pd   *cc.ParameterDeclaration
}

// funcParams lists the parameters of fd in order.
func funcParams(fd *cc.FunctionDefinition) []paramDecl {
	dd := fd.Declarator.DirectDeclarator
	for dd != nil && dd.Case != cc.DirectDeclaratorFuncParam {
		switch dd.Case {
		case cc.DirectDeclaratorDecl:
			if dd.Declarator == nil {
				return nil
			}
			dd = dd.Declarator.DirectDeclarator
		default:
			dd = dd.DirectDeclarator
		}
	}
	if dd == nil || dd.ParameterTypeList == nil {
		return nil
	}
	var out []paramDecl
	for l := dd.ParameterTypeList.ParameterList; l != nil; l = l.ParameterList {
		if pd := l.ParameterDeclaration; pd != nil && pd.Declarator != nil && pd.Declarator.Name() != "" {
			out = append(out, paramDecl{pd.Declarator, pd})
		}
	}
	return out
}

// dimExprs returns the size expressions of an array declarator, outermost
// first (nil for "[]"), whether it is a pointer declarator, and false when
// the declarator has a shape nestor does not model.
func dimExprs(d *cc.Declarator) (dims []cc.ExpressionNode, pointer, ok bool) {
	if d.Pointer != nil {
		if d.Pointer.Pointer != nil || d.DirectDeclarator == nil || d.DirectDeclarator.Case != cc.DirectDeclaratorIdent {
			return nil, true, false
		}
		return []cc.ExpressionNode{nil}, true, true
	}
	dd := d.DirectDeclarator
	for dd != nil {
		switch dd.Case {
		case cc.DirectDeclaratorIdent:
			slices.Reverse(dims)
			return dims, false, true
		case cc.DirectDeclaratorArr, cc.DirectDeclaratorStaticArr, cc.DirectDeclaratorArrStatic:
			dims = append(dims, dd.AssignmentExpression)
			dd = dd.DirectDeclarator
		case cc.DirectDeclaratorDecl:
			// "double (*restrict A)[n]", what a parameter "double
			// A[m][n]" decays to: a pointer to rows, the first size
			// absent as in "A[][n]".
			in := dd.Declarator
			if in == nil || in.Pointer == nil || in.Pointer.Pointer != nil || in.DirectDeclarator == nil ||
				in.DirectDeclarator.Case != cc.DirectDeclaratorIdent || len(dims) == 0 || !d.IsParam() {
				return nil, false, false
			}
			dims = append(dims, nil)
			slices.Reverse(dims)
			return dims, false, true
		default:
			return nil, false, false
		}
	}
	return nil, false, false
}

// chooseParams decides the program parameters: integer variables declared
// outside the region, never written in it, and read in it or in the sizes
// of its arrays and of the function's array parameters. Function
// parameters come first in signature order, then the others in order of
// declaration.
func (b *builder) chooseParams(fps []paramDecl) {
	cand := map[*cc.Declarator]bool{}
	var order []*cc.Declarator
	add := func(d *cc.Declarator) {
		if d == nil || cand[d] || b.declared[d] || b.written[d] || !isIntScalar(d) {
			return
		}
		cand[d] = true
		order = append(order, d)
	}
	sizeVars := func(d *cc.Declarator) {
		dims, _, ok := dimExprs(d)
		if !ok {
			return
		}
		for _, e := range dims {
			walk(e, func(n cc.Node) bool {
				if pe, ok := n.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent {
					if d, ok := pe.ResolvedTo().(*cc.Declarator); ok {
						add(d)
					}
				}
				return true
			})
		}
	}
	for _, d := range b.refs {
		add(d)
		if isVariable(d) {
			sizeVars(d)
		}
	}
	for _, fp := range fps {
		sizeVars(fp.decl)
	}
	rank := func(d *cc.Declarator) (int, int) {
		for k, fp := range fps {
			if fp.decl == d {
				return 0, k
			}
		}
		return 1, goPos(d.Position()).Offset
	}
	sort.SliceStable(order, func(i, j int) bool {
		a1, a2 := rank(order[i])
		b1, b2 := rank(order[j])
		if a1 != b1 {
			return a1 < b1
		}
		return a2 < b2
	})
	for _, d := range order {
		t, _ := scalarType(d.Type())
		b.params[d] = len(b.prog.Params)
		b.prog.Params = append(b.prog.Params, ir.Param{Name: b.uniqueName(d.Name()), Type: t})
	}
	b.np = len(b.prog.Params)
}

// uniqueName returns name, or name_1, name_2, ... when it is taken.
func (b *builder) uniqueName(name string) string {
	n := name
	for k := 1; b.names[n]; k++ {
		n = name + "_" + strconv.Itoa(k)
	}
	b.names[n] = true
	return n
}

// funcDesc describes the enclosing function's signature.
func (b *builder) funcDesc(fps []paramDecl) *Func {
	fn := &Func{Name: b.fn.Declarator.Name(), Pos: goPos(b.fn.Declarator.Position())}
	for _, fp := range fps {
		q := FuncParam{Name: fp.decl.Name(), Param: -1, Const: constElem(fp.pd)}
		if k, ok := b.params[fp.decl]; ok {
			q.Param = k
		}
		if t, members, layers, why := arrayElem(fp.decl.Type()); why == "" && members != nil && layers == 0 {
			q.Elem, q.Struct = t, typeSpelling(fp.pd)
		} else if why == "" {
			q.Elem = t
			exprs, pointer, shapeOK := dimExprs(fp.decl)
			switch {
			case pointer && shapeOK && members == nil:
				q.Pointer = true // "double *alpha"
			case pointer && shapeOK:
				// "struct cpx *x" is "struct cpx x[]": the first size
				// absent, the members last.
				q.Dims = []ir.Aff{{}, memberDim(b.np, members)}
			case layers > 0:
				q.Dims = b.paramDims(fp.decl, len(exprs))
				if members != nil {
					// An array of structs: the members are its last
					// dimension, as in ir.Array.Members.
					q.Dims = append(q.Dims, memberDim(b.np, members))
				}
			}
		}
		fn.Params = append(fn.Params, q)
	}
	return fn
}

// paramDims returns the sizes of an array parameter; a size that is not
// affine in the parameters becomes a zero form with empty, non-nil slices
// (so that it does not read as absent).
func (b *builder) paramDims(d *cc.Declarator, rank int) []ir.Aff {
	if dims, ok := b.arrayDims(d, true); ok {
		return dims
	}
	exprs, _, _ := dimExprs(d)
	dims := make([]ir.Aff, max(rank, len(exprs)))
	for k := range dims {
		if k < len(exprs) && exprs[k] == nil && k == 0 {
			continue
		}
		if k < len(exprs) {
			if a, _, ok := b.aff(exprs[k], affSize); ok {
				dims[k] = a
				continue
			}
		}
		dims[k] = ir.Aff{Iter: []int64{}, Param: make([]int64, b.np), Local: []int64{}}
	}
	return dims
}

// constElem reports whether a parameter's declaration specifiers include
// const, which qualifies the element type.
func constElem(pd *cc.ParameterDeclaration) bool {
	if pd == nil {
		return false
	}
	for s := pd.DeclarationSpecifiers; s != nil; s = s.DeclarationSpecifiers {
		if s.Case == cc.DeclarationSpecifiersTypeQual && s.TypeQualifier != nil && s.TypeQualifier.Case == cc.TypeQualifierConst {
			return true
		}
	}
	return false
}

// arrayDims translates the declared sizes of an array variable into forms
// over the parameters; quiet suppresses errors.
func (b *builder) arrayDims(d *cc.Declarator, quiet bool) ([]ir.Aff, bool) {
	exprs, pointer, ok := dimExprs(d)
	fresh := false
	if !d.IsParam() && (pointer || !ok) && b.freshPointer(d) {
		// A pointer to a fresh allocation: its rows' sizes, the first
		// unknown, as a parameter's.
		rows, _ := rowDims(d)
		exprs, pointer, ok, fresh = append([]cc.ExpressionNode{nil}, rows...), false, true, true
	}
	if !ok || (pointer && !d.IsParam()) {
		if !quiet {
			b.unsupported(d, "pointer variable %s (declare it as an array)", d.Name())
		}
		return nil, false
	}
	if len(exprs) == 0 {
		// A scalar, or an array type from a typedef: take the constant
		// lengths from the type.
		var dims []ir.Aff
		t := d.Type()
		for at, ok := t.(*cc.ArrayType); ok; at, ok = t.(*cc.ArrayType) {
			if at.IsVLA() || at.Len() < 0 {
				if !quiet {
					b.unsupported(d, "array %s has a variable size hidden in a type", d.Name())
				}
				return nil, false
			}
			a := ir.NewAff(0, b.np, 0)
			a.Const = at.Len()
			dims = append(dims, a)
			t = at.Elem()
		}
		return dims, true
	}
	dims := make([]ir.Aff, len(exprs))
	for k, e := range exprs {
		if e == nil {
			if k == 0 && (d.IsParam() || fresh) {
				continue // "A[][n]" or "*A": the first size is absent
			}
			if !quiet {
				b.unsupported(d, "array %s has no size in dimension %d", d.Name(), k)
			}
			return nil, false
		}
		a, why, ok := b.aff(e, affSize)
		if !ok {
			if !quiet {
				b.unsupported(e, "size of array %s is not affine in the parameters: %s%s", d.Name(), source(e), why)
			}
			return nil, false
		}
		dims[k] = a
	}
	return dims, true
}

// array returns the index in prog.Arrays of variable d, adding it on first
// use.
func (b *builder) array(n cc.Node, d *cc.Declarator) (int, bool) {
	if k, ok := b.arrays[d]; ok {
		return k, k >= 0
	}
	b.arrays[d] = -1
	t, members, _, why := arrayElem(d.Type())
	if why != "" {
		if members == nil && t == ir.Void && !isStruct(d.Type()) {
			b.unsupported(n, "variable %s has type %s", d.Name(), d.Type())
		} else {
			b.unsupported(n, "variable %s has type %s: %s", d.Name(), d.Type(), why)
		}
		return -1, false
	}
	if members != nil && b.declared[d] {
		b.unsupported(n, "array of structs %s declared inside the region (declare it before #pragma scop)", d.Name())
		return -1, false
	}
	if d.IsVolatile() {
		b.unsupported(n, "volatile variable %s", d.Name())
		return -1, false
	}
	dims, ok := b.arrayDims(d, false)
	if !ok {
		return -1, false
	}
	if members != nil {
		dims = append(dims, memberDim(b.np, members))
	}
	st := ir.FuncLocal
	switch {
	case d.IsParam():
		st = ir.FuncParam
	case b.declared[d]:
		st = ir.ScopLocal
	case d.LexicalScope() == nil || d.LexicalScope().Parent == nil || d.IsExtern():
		st = ir.Global
	}
	k := len(b.prog.Arrays)
	b.arrays[d] = k
	b.prog.Arrays = append(b.prog.Arrays, &ir.Array{
		Name: b.uniqueName(d.Name()), Elem: t, Dims: dims, Storage: st, Pos: goPos(d.Position()),
		RegionOnly: (st == ir.FuncLocal || st == ir.ScopLocal) && b.regionOnly(d), Members: members,
	})
	return k, true
}

// typeSpelling returns the type of a parameter declaration as written,
// without its qualifiers and storage class ("struct cpx", "cpx_t").
func typeSpelling(pd *cc.ParameterDeclaration) string {
	var parts []string
	for s := pd.DeclarationSpecifiers; s != nil; s = s.DeclarationSpecifiers {
		if s.Case == cc.DeclarationSpecifiersTypeSpec && s.TypeSpecifier != nil {
			parts = append(parts, source(s.TypeSpecifier))
		}
	}
	return strings.Join(parts, " ")
}

// memberDim is the last dimension of an array of structs with these
// members (ir.Array.Members): the number of members.
func memberDim(np int, members []string) ir.Aff {
	a := ir.NewAff(0, np, 0)
	a.Const = int64(len(members))
	return a
}

// isStruct reports whether t, below its array and pointer layers, is a
// struct or union.
func isStruct(t cc.Type) bool {
	for k := 0; t != nil && k < 64; k++ {
		switch x := t.(type) {
		case *cc.ArrayType:
			t = x.Elem()
		case *cc.PointerType:
			t = x.Elem()
		default:
			return t.Kind() == cc.Struct || t.Kind() == cc.Union
		}
	}
	return false
}

// regionOnly reports whether every use of the local variable d in the
// enclosing function lies inside the region (ir.Array.RegionOnly): it is
// not static or thread-local (its value would outlive the call), its
// address is never taken, and no identifier outside the region's bytes
// names it.
// freshPointer reports whether d is a local pointer, to elements ("T
// *p") or to rows ("T (*p)[n]"), that its declaration initializes with a
// fresh allocation (malloc, calloc, aligned_alloc, or their __builtin_
// forms) and that the function then only subscripts or frees: no other
// variable can point into its memory, so a region may read it as an
// array of its own, its first size unknown as a parameter's. nestor's
// output allocates an expanded temporary so when packed blocks split the
// region.
func (b *builder) freshPointer(d *cc.Declarator) bool {
	if d.IsStatic() || d.IsThreadLocal() || d.AddressTaken() || b.fn == nil {
		return false
	}
	if _, ok := rowDims(d); !ok {
		return false
	}
	allocs := map[string]bool{"malloc": true, "calloc": true, "aligned_alloc": true,
		"__builtin_malloc": true, "__builtin_calloc": true, "__builtin_aligned_alloc": true}
	frees := map[string]bool{"free": true, "__builtin_free": true}
	advice := map[string]bool{"madvise": true}
	call := func(e cc.ExpressionNode, names map[string]bool) *cc.PostfixExpression {
		x := unparen(e)
		if c, ok := x.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
			x = unparen(c.CastExpression) // "(double (*)[n]) malloc(…)"
		}
		pe, ok := x.(*cc.PostfixExpression)
		if !ok || pe.Case != cc.PostfixExpressionCall || !names[calleeName(pe)] {
			return nil
		}
		return pe
	}
	// alloc reports whether e allocates: a call of allocs, or a choice
	// between two (by size: nestor's output takes 2 MB pages from 2 MB
	// on).
	var alloc func(e cc.ExpressionNode) bool
	alloc = func(e cc.ExpressionNode) bool {
		if c, ok := unparen(e).(*cc.ConditionalExpression); ok && c.Case == cc.ConditionalExpressionCond {
			return sideEffectFree(c.LogicalOrExpression) && alloc(c.ExpressionList) && alloc(c.ConditionalExpression)
		}
		return call(e, allocs) != nil
	}
	// count counts the references to d in n.
	count := func(n cc.Node) int {
		k := 0
		walk(n, func(n cc.Node) bool {
			if pe, ok := n.(*cc.PrimaryExpression); ok && pe.Case == cc.PrimaryExpressionIdent && pe.ResolvedTo() == d {
				k++
			}
			return true
		})
		return k
	}
	fresh, refs, uses := false, 0, 0
	walk(b.fn.CompoundStatement, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.InitDeclarator:
			if n.Declarator == d && n.Case == cc.InitDeclaratorInit && n.Initializer != nil && n.Initializer.Case == cc.InitializerExpr {
				fresh = alloc(n.Initializer.AssignmentExpression)
			}
		case *cc.PostfixExpression:
			switch {
			case n.Case == cc.PostfixExpressionIndex:
				if _, x := ident(n.PostfixExpression); x == d {
					uses++
				}
			case call(n, frees) != nil:
				if args := n.ArgumentExpressionList; args != nil && args.ArgumentExpressionList == nil {
					if _, x := ident(args.AssignmentExpression); x == d {
						uses++
					}
				}
			case call(n, advice) != nil:
				// Advice on its pages keeps no copy of the pointer.
				uses += count(n.ArgumentExpressionList)
			}
		case *cc.PrimaryExpression:
			if n.Case == cc.PrimaryExpressionIdent && n.ResolvedTo() == d {
				refs++
			}
		}
		return true
	})
	return fresh && refs == uses
}

func (b *builder) regionOnly(d *cc.Declarator) bool {
	if d.IsStatic() || d.IsThreadLocal() || d.AddressTaken() {
		return false
	}
	inside := true
	walk(b.fn.CompoundStatement, func(n cc.Node) bool {
		pe, ok := n.(*cc.PrimaryExpression)
		if !inside || !ok || pe.Case != cc.PrimaryExpressionIdent || pe.ResolvedTo() != d {
			return inside
		}
		pos := goPos(pe.Position())
		if pos.Filename != b.r.pos.Filename || pos.Offset < b.r.start || pos.Offset >= b.r.end {
			inside = false
		}
		return inside
	})
	return inside
}
