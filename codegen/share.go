package codegen

import (
	"fmt"
	"strings"

	"nestor/ir"
	"nestor/model"
	"nestor/outline"
)

// Shared bodies (PrintOptions.Share).
//
// Unroll-and-jam leaves an innermost body of many copies of one statement
// that differ in a few subscripts: syrk's four
//
//	C_r  += alpha * A[t4][t6] * A[t5][t6];
//	C_r2 += alpha * A[t4][t6] * A[t5 + 1][t6];  ...
//
// Such a body prints shared: its statements' right-hand sides, with their
// counters substituted, become one dataflow graph (package outline) in
// which a subexpression that repeats is one node. A node that several
// places read, all of whose values are stable in the body (no statement of
// the body writes the array or variable they read), is computed once into
// a const temporary before the statements; then outline.Outline finds the
// patterns that repeat with differences (anti-unification) and each
// becomes a macro local to the body, defined before it and undefined
// after:
//
//	#define nestor_f0(p0, p1) ((p0) * (p1))
//	const double nestor_s0 = alpha * A[t4][t6];
//	C_r += nestor_f0(nestor_s0, A[t5][t6]);  ...
//
// The arithmetic is the same: every operation keeps its operands, its
// types and its grouping (outline matches modulo commutativity only, and
// swaps operands only of commutative C operators, which IEEE arithmetic
// computes bit for bit the same either way), and a value read by the body
// where a statement of the body writes it keeps its place (its leaf is a
// different node in every statement).

// PrintOptions choose how PrintCWith prints.
type PrintOptions struct {
	// Share prints unrolled bodies with their repeated subexpressions
	// computed once and repeated patterns as local macros (share.go).
	Share bool
	// ForkOnce forks one team of threads around a sequential loop whose
	// statements all run in OpenMP loops (a stencil's time loop), which
	// then share the iterations of each with "omp for" and meet at its
	// barrier, instead of forking once per iteration (fork.go).
	ForkOnce bool
	// Threads, when set, names a variable the region declares with the
	// number of threads OpenMP would use (omp_get_max_threads, 1 without
	// OpenMP): an OpenMP loop nested in a sequential loop forks only when
	// it is two or more. With one thread a team is pointless, and each
	// fork still makes a system call, which on some kernels (page-table
	// isolation) flushes the TLB: the loop then pays for the misses.
	Threads string
	// Machine is the machine the code is for: fork clauses weigh a
	// loop's work against its fork cost (forkmodel.go). The zero Machine
	// means model.Typical().
	Machine model.Machine
}

// minShareStmts is the fewest statements of a body printed shared: below
// it there is little to share.
const minShareStmts = 2

// shareGraph is the dataflow graph of a body being printed shared.
type shareGraph struct {
	f      *outline.Function
	byKey  map[string]*outline.Node // value numbering: structural key → node
	text   map[*outline.Node]string // leaves: their C text
	stable map[*outline.Node]bool
	nextID int
}

// sharedBody prints the instances ns (all of them instances, at least
// minShareStmts) shared, and reports whether it did.
func (pr *printer) sharedBody(ns []Node, depth int) bool {
	if !pr.share || len(ns) < minShareStmts || pr.lift != nil {
		return false
	}
	ins := make([]*Instance, len(ns))
	for k, n := range ns {
		in, ok := n.(*Instance)
		if !ok {
			return false
		}
		ins[k] = in
	}
	// What the body writes, by the name of the array or variable.
	written := map[string]bool{}
	lhs := make([]string, len(ins))
	for k, in := range ins {
		s := pr.p.Stmts[in.Stmt]
		lhs[k] = pr.access(s.Accesses[0], in)
		written[baseOf(lhs[k])] = true
	}
	g, ok := pr.shareGraph(ins, written)
	if !ok {
		return false
	}
	pkg := &outline.Package{Name: "body", Funcs: []*outline.Function{g.f}, Top: "body"}
	rep, err := outline.Outline(pkg, "body", outline.Options{})
	if err != nil {
		return false // print the body as it is
	}
	multi := false // a pattern with several outputs is no C macro
	for _, o := range rep.Funcs {
		if fn := pkg.Func(o.Name); fn == nil || fn.Ret.Type.Kind == outline.Tuple {
			multi = true
		}
	}
	if multi {
		rep.Funcs = nil
	}
	if len(rep.Funcs) == 0 {
		// Outline put commutative operands in its canonical order: print
		// the graph as the statements wrote it.
		pkg.Funcs[0] = nil
		if g, ok = pr.shareGraph(ins, written); !ok {
			return false
		}
		pkg.Funcs[0] = g.f
	}
	f := pkg.Func("body")
	sp := &sharePrinter{pr: pr, g: g, names: map[*outline.Node]string{}, macros: map[string]string{}}
	// Temporaries: nodes read from more than one place whose leaves are
	// stable, children first.
	refs := map[*outline.Node]int{}
	for _, n := range f.Nodes {
		for _, o := range n.Operands {
			refs[o]++
		}
	}
	var temps []*outline.Node
	for _, n := range f.Nodes {
		if n.Op != "param" && n != f.Ret && refs[n] >= 2 && sp.stable(n) {
			temps = append(temps, n)
		}
	}
	if len(temps) == 0 && len(rep.Funcs) == 0 {
		return false // nothing shared: print the body as written
	}
	// The macros, one per outlined function, before the temporaries.
	for _, o := range rep.Funcs {
		fn := pkg.Func(o.Name)
		name := pr.fresh("nestor_f")
		sp.macros[o.Name] = name
		params := make([]string, len(fn.Params))
		pnames := map[*outline.Node]string{}
		for k, q := range fn.Params {
			params[k] = fmt.Sprintf("p%d", k)
			pnames[q] = "(" + params[k] + ")"
		}
		body := sp.inline(fn.Ret, pnames)
		pr.line(0, fmt.Sprintf("%s#define %s(%s) %s", strings.Repeat("  ", depth), name, strings.Join(params, ", "), body))
		sp.defined = append(sp.defined, name)
	}
	for _, n := range temps {
		name := pr.fresh("nestor_s")
		pr.line(depth, fmt.Sprintf("const %s %s = %s;", sp.ctypeOf(n), name, sp.expr(n)))
		sp.names[n] = name
	}
	for k, in := range ins {
		s := pr.p.Stmts[in.Stmt]
		pr.line(depth, lhs[k]+" "+s.Op.String()+" "+sp.expr(f.Ret.Operands[k])+";")
	}
	for _, name := range sp.defined {
		pr.line(0, fmt.Sprintf("%s#undef %s", strings.Repeat("  ", depth), name))
	}
	return true
}

// shareGraph builds the dataflow graph of the right-hand sides of
// instances ins, which write what written names.
func (pr *printer) shareGraph(ins []*Instance, written map[string]bool) (*shareGraph, bool) {
	g := &shareGraph{f: &outline.Function{Name: "body"}, byKey: map[string]*outline.Node{},
		text: map[*outline.Node]string{}, stable: map[*outline.Node]bool{}}
	var roots []*outline.Node
	for k, in := range ins {
		s := pr.p.Stmts[in.Stmt]
		iters := make([]string, len(in.Iters))
		for l, a := range in.Iters {
			iters[l] = pr.operand(a)
		}
		r, ok := g.expr(pr, s, in, iters, s.RHS, k, written)
		if !ok {
			return nil, false
		}
		roots = append(roots, r)
	}
	types := make([]outline.Type, len(roots))
	for k, r := range roots {
		types[k] = r.Type
	}
	g.f.Ret = g.add(&outline.Node{Op: "tuple", Type: outline.TupleType(types...), Operands: roots}, "", false)
	return g, true
}

// baseOf returns the array or variable an access text names: "C" of
// "C[t4][t6]".
func baseOf(text string) string {
	if i := strings.IndexByte(text, '['); i >= 0 {
		return text[:i]
	}
	return text
}

// add returns the node of g equal to n (same operation, type, attributes
// and operands), adding n when there is none. A leaf is keyed by its text;
// an unstable one also by its statement (its value changes in the body).
func (g *shareGraph) add(n *outline.Node, leafKey string, stable bool) *outline.Node {
	var b strings.Builder
	b.WriteString(n.Label())
	b.WriteString(leafKey)
	for _, o := range n.Operands {
		fmt.Fprintf(&b, " #%d", o.ID)
	}
	k := b.String()
	if m, ok := g.byKey[k]; ok {
		return m
	}
	g.nextID++
	n.ID = g.nextID
	g.byKey[k] = n
	if n.Op == "param" {
		n.Name = fmt.Sprintf("v%d", n.ID)
		g.f.Params = append(g.f.Params, n)
		g.stable[n] = stable
		// Parameters come first in Nodes.
		g.f.Nodes = append(g.f.Nodes, nil)
		copy(g.f.Nodes[len(g.f.Params):], g.f.Nodes[len(g.f.Params)-1:])
		g.f.Nodes[len(g.f.Params)-1] = n
		return n
	}
	g.f.Nodes = append(g.f.Nodes, n)
	return n
}

// leaf returns the parameter node for the C text of a value of type t.
func (g *shareGraph) leaf(text string, t ir.Type, stmt int, stable bool) *outline.Node {
	key := " " + text
	if !stable {
		key += fmt.Sprintf(" @%d", stmt)
	}
	n := g.add(&outline.Node{Op: "param", Type: bitsOf(t), Attrs: []outline.Attr{{Key: "ctype", Value: t.String()}}}, key, stable)
	g.text[n] = text
	return n
}

// bitsOf is the outline type standing for C type t: its width.
func bitsOf(t ir.Type) outline.Type { return outline.BitsType(8 * t.Size()) }

// shareOps names C's binary operators as outline operations: commutative
// ones by XLS's commutative names (outline may swap their operands, which
// C's + * == != & | ^ allow, floating point included), the others by
// names of their own.
var shareOps = map[ir.BinOp]string{
	ir.Add: "add", ir.Mul: "umul", ir.Eql: "eq", ir.Neq: "ne", ir.And: "and", ir.Or: "or", ir.Xor: "xor",
}

// expr adds expression e of statement s (instance in, statement k of the
// body) to g and returns its node; false for a node it cannot share.
func (g *shareGraph) expr(pr *printer, s *ir.Stmt, in *Instance, iters []string, e ir.Expr, k int, written map[string]bool) (*outline.Node, bool) {
	attrs := []outline.Attr{{Key: "ctype", Value: e.Type().String()}}
	op := func(name string, args ...ir.Expr) (*outline.Node, bool) {
		n := &outline.Node{Op: name, Type: bitsOf(e.Type()), Attrs: attrs}
		for _, a := range args {
			c, ok := g.expr(pr, s, in, iters, a, k, written)
			if !ok {
				return nil, false
			}
			n.Operands = append(n.Operands, c)
		}
		return g.add(n, "", false), true
	}
	switch e := e.(type) {
	case *ir.Const:
		return g.leaf(ir.FormatConst(e), e.T, k, true), true
	case *ir.Load:
		text := pr.access(s.Accesses[e.Access], in)
		return g.leaf(text, e.T, k, !written[baseOf(text)]), true
	case *ir.IterRef:
		return g.leaf(iters[e.Level], e.T, k, true), true
	case *ir.ParamRef:
		return g.leaf(pr.params[e.Param], e.T, k, true), true
	case *ir.Unary:
		attrs = append(attrs, outline.Attr{Key: "c", Value: e.Op.String()})
		return op("unary", e.X)
	case *ir.Binary:
		if e.Op.IsLogical() {
			return nil, false // as Cond: the right operand is conditional
		}
		name, ok := shareOps[e.Op]
		if !ok {
			name = "c_binary"
		}
		attrs = append(attrs, outline.Attr{Key: "c", Value: e.Op.String()})
		return op(name, e.X, e.Y)
	case *ir.Cond:
		return nil, false // a temporary would evaluate a branch unconditionally
	case *ir.Cast:
		if e.Implicit {
			attrs = append(attrs, outline.Attr{Key: "implicit", Value: "1"})
		}
		return op("c_cast", e.X)
	case *ir.Call:
		attrs = append(attrs, outline.Attr{Key: "fn", Value: e.Fn})
		return op("c_call", e.Args...)
	}
	return nil, false
}

// sharePrinter prints the nodes of a shared body as C.
type sharePrinter struct {
	pr      *printer
	g       *shareGraph
	names   map[*outline.Node]string // temporaries
	macros  map[string]string        // outlined function → macro name
	defined []string
}

func (sp *sharePrinter) ctypeOf(n *outline.Node) string {
	v, ok := n.Attr("ctype")
	if !ok {
		sp.pr.fail(fmt.Errorf("codegen: shared body: node %s has no C type", n.Label()))
	}
	return v
}

// stable reports whether every leaf below n has the same value everywhere
// in the body.
func (sp *sharePrinter) stable(n *outline.Node) bool {
	if n.Op == "param" {
		return sp.g.stable[n]
	}
	if n.Op == "invoke" {
		return false // its arguments are checked where it prints
	}
	for _, o := range n.Operands {
		if !sp.stable(o) {
			return false
		}
	}
	return true
}

// expr prints node n of the body's function, fully parenthesized.
func (sp *sharePrinter) expr(n *outline.Node) string {
	if name, ok := sp.names[n]; ok {
		return name
	}
	if n.Op == "param" {
		return sp.g.text[n]
	}
	return sp.op(n, sp.expr)
}

// inline prints the body of an outlined function at node n, its
// parameters as pnames says.
func (sp *sharePrinter) inline(n *outline.Node, pnames map[*outline.Node]string) string {
	if s, ok := pnames[n]; ok {
		return s
	}
	return sp.op(n, func(o *outline.Node) string { return sp.inline(o, pnames) })
}

// op prints operation node n, its operands by sub.
func (sp *sharePrinter) op(n *outline.Node, sub func(*outline.Node) string) string {
	args := make([]string, len(n.Operands))
	for k, o := range n.Operands {
		args[k] = sub(o)
	}
	c, _ := n.Attr("c")
	switch n.Op {
	case "invoke":
		callee, _ := n.Attr("to_apply")
		return sp.macros[callee] + "(" + strings.Join(args, ", ") + ")"
	case "unary":
		return "(" + c + args[0] + ")"
	case "c_cast":
		if _, ok := n.Attr("implicit"); ok {
			return args[0]
		}
		return "((" + sp.ctypeOf(n) + ")" + args[0] + ")"
	case "c_call":
		fn, _ := n.Attr("fn")
		return fn + "(" + strings.Join(args, ", ") + ")"
	case "literal":
		v, _ := n.Attr("value")
		return v
	}
	if len(args) == 2 && c != "" {
		return "(" + args[0] + " " + c + " " + args[1] + ")"
	}
	sp.pr.fail(fmt.Errorf("codegen: shared body: operation %s", n.Label()))
	return "0"
}
