package xls

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"nestor/outline"
)

// Write writes p as XLS IR text that Parse reads back to an equal
// package. It checks p first (see Check) and writes nothing if p is not
// well formed. Write does not modify p; where p's names and IDs do not
// make valid text, it writes others:
//
//   - IDs: a node keeps its ID when it is positive and no node written
//     before it has it; other nodes get fresh IDs, counting up from the
//     largest ID in p, in the order written.
//   - Names: a node is written under its Name, or op.ID when Name is "".
//     Characters other than letters, digits, '_' and '.' become '_', a
//     name that does not start with a letter or '_' gets a leading '_',
//     a keyword (ret, fn, bits, ...) gets a trailing '_', and a name
//     already used in the function gets a suffix _1, _2, ... The same
//     rules make function names unique in the package.
//   - Functions are written callees first, in p's order otherwise.
//   - Attributes are written in canonical spelling and order (that of
//     Parse), a select's cases and default as its layout says (see
//     doc.go), without source positions.
//
// A package that Parse returned keeps its names and IDs, so
// Write(Parse(Write(p))) is Write(p), byte for byte.
func Write(w io.Writer, p *outline.Package) error {
	s, err := Format(p)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

// Format returns p as XLS IR text; see Write.
func Format(p *outline.Package) (string, error) {
	if err := Check(p); err != nil {
		return "", err
	}
	wr := &writer{p: p, fnName: make(map[string]string), ids: make(map[*outline.Node]int)}
	wr.order()
	wr.assignIDs()
	var b strings.Builder
	name := sanitize(p.Name)
	if name == "" {
		name = "unnamed"
	}
	if !p.Headless || len(wr.items) != 1 {
		b.WriteString("package " + name + "\n")
		if len(p.Files) > 0 {
			b.WriteString("\n")
		}
		for _, fl := range p.Files {
			b.WriteString("file_number " + strconv.Itoa(fl.Number) + " " + fl.Path + "\n")
		}
		b.WriteString("\n")
	} else {
		// A file without a package line may still number files
		// (FuzzParse: they were dropped).
		for _, fl := range p.Files {
			b.WriteString("file_number " + strconv.Itoa(fl.Number) + " " + fl.Path + "\n")
		}
	}
	for i, it := range wr.items {
		if i > 0 {
			b.WriteString("\n")
		}
		if it.f != nil {
			wr.function(&b, it.f)
		} else {
			b.WriteString(it.o.Text + "\n")
		}
	}
	return b.String(), nil
}

type writer struct {
	p      *outline.Package
	items  []item              // in the order written
	fns    []*outline.Function // in the order written
	fnName map[string]string   // function name in p -> name written
	ids    map[*outline.Node]int
	names  map[*outline.Node]string // of the function being written
}

// keywords may not be used as names (XLS's keywords and literals).
var keywords = map[string]bool{
	"package": true, "fn": true, "top": true, "ret": true, "file_number": true,
	"bits": true, "token": true, "proc": true, "block": true, "chan": true,
	"reg": true, "next": true, "true": true, "false": true,
}

// sanitize makes s a name that Parse reads as one ("" stays "").
func sanitize(s string) string {
	if s == "" {
		return ""
	}
	b := []byte(s)
	for i, c := range b {
		if !isNameByte(c) {
			b[i] = '_'
		}
	}
	if !isLetter(b[0]) {
		b = append([]byte{'_'}, b...)
	}
	if keywords[string(b)] {
		b = append(b, '_')
	}
	return string(b)
}

// unique returns base, or base_k for the least k >= 1 not in used, and
// adds it to used.
func unique(base string, used map[string]bool) string {
	name := base
	for k := 1; used[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	used[name] = true
	return name
}

// An item is a function or an opaque part of the package.
type item struct {
	f *outline.Function
	o *outline.Opaque
}

// order lists p's functions and opaque parts in the order of their
// positions (functions without one, such as those Outline creates, after
// those with one), each function after the functions it calls, and names
// the functions.
func (wr *writer) order() {
	var all []item
	for _, f := range wr.p.Funcs {
		all = append(all, item{f: f})
	}
	for _, o := range wr.p.Opaque {
		all = append(all, item{o: o})
	}
	pos := func(it item) outline.Pos {
		if it.f != nil {
			return it.f.Pos
		}
		return it.o.Pos
	}
	slices.SortStableFunc(all, func(x, y item) int {
		px, py := pos(x), pos(y)
		switch {
		case px == py:
			return 0
		case px == outline.Pos{}:
			return 1
		case py == outline.Pos{}:
			return -1
		case px.Line != py.Line:
			return px.Line - py.Line
		}
		return px.Col - py.Col
	})
	seen := make(map[*outline.Function]bool)
	var visit func(f *outline.Function)
	visit = func(f *outline.Function) {
		if seen[f] {
			return
		}
		seen[f] = true
		for _, n := range f.Nodes {
			for _, name := range callees(n) {
				visit(wr.p.Func(name))
			}
		}
		wr.fns = append(wr.fns, f)
		wr.items = append(wr.items, item{f: f})
	}
	for _, it := range all {
		if it.f != nil {
			visit(it.f)
		} else {
			wr.items = append(wr.items, it)
		}
	}
	used := make(map[string]bool)
	for _, o := range wr.p.Opaque {
		if o.Kind != "chan" {
			used[o.Name] = true
		}
	}
	for _, f := range wr.fns {
		wr.fnName[f.Name] = unique(sanitize(f.Name), used)
	}
}

// assignIDs keeps the first use of every positive ID and numbers the
// other nodes from the largest ID up.
func (wr *writer) assignIDs() {
	next := 1
	for _, f := range wr.fns {
		for _, n := range f.Nodes {
			next = max(next, n.ID+1)
		}
	}
	for _, o := range wr.p.Opaque {
		next = max(next, o.MaxID+1)
	}
	used := make(map[int]bool)
	for _, f := range wr.fns {
		for _, n := range f.Nodes {
			if n.ID > 0 && !used[n.ID] {
				used[n.ID] = true
				wr.ids[n] = n.ID
			}
		}
	}
	for _, f := range wr.fns {
		for _, n := range f.Nodes {
			if _, ok := wr.ids[n]; !ok {
				wr.ids[n] = next
				next++
			}
		}
	}
}

func (wr *writer) function(b *strings.Builder, f *outline.Function) {
	used := make(map[string]bool)
	wr.names = make(map[*outline.Node]string, len(f.Nodes))
	for _, n := range f.Nodes {
		base := sanitize(n.Name)
		if base == "" {
			base = n.Op + "." + strconv.Itoa(wr.ids[n])
		}
		wr.names[n] = unique(base, used)
	}
	if f.Outlined {
		b.WriteString(outlinedMark + "\n")
	}
	for _, a := range f.Attrs {
		b.WriteString(a + "\n")
	}
	if f.Name == wr.p.Top {
		b.WriteString("top ")
	}
	b.WriteString("fn " + wr.fnName[f.Name] + "(")
	for i, q := range f.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(wr.names[q] + ": " + q.Type.String() + " id=" + strconv.Itoa(wr.ids[q]))
	}
	b.WriteString(") -> " + f.Ret.Type.String() + " {\n")
	for _, n := range f.Nodes[len(f.Params):] {
		wr.node(b, n, n == f.Ret)
	}
	if f.Ret.Op == "param" {
		name := wr.names[f.Ret]
		b.WriteString("  ret " + name + ": " + f.Ret.Type.String() + " = param(name=" + name + ", id=" + strconv.Itoa(wr.ids[f.Ret]) + ")\n")
	}
	b.WriteString("}\n")
}

func (wr *writer) refs(ns []*outline.Node) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = wr.names[n]
	}
	return strings.Join(s, ", ")
}

// node writes one node's line: [ret ]NAME: TYPE = OP(args, id=N).
func (wr *writer) node(b *strings.Builder, n *outline.Node, isRet bool) {
	b.WriteString("  ")
	if isRet {
		b.WriteString("ret ")
	}
	b.WriteString(wr.names[n] + ": " + n.Type.String() + " = " + n.Op + "(")
	var args []string
	operands := n.Operands
	positional := len(operands)
	switch info := ops[n.Op]; {
	case info.takes("cases"):
		positional = 1
	case info.hasList():
		positional = info.operands
	}
	if positional > 0 {
		args = append(args, wr.refs(operands[:positional]))
	}
	operands = operands[positional:]
	var lay selLayout
	if n.Op == "sel" || n.Op == "one_hot_sel" || n.Op == "priority_sel" {
		lay, _ = layoutOf(n.Op, len(n.Operands), n.Operands[0].Type.Width) // Check accepted it
	}
	for _, k := range ops[n.Op].keys {
		switch k {
		case "cases":
			args = append(args, "cases=["+wr.refs(operands[:lay.cases])+"]")
		case "default":
			if lay.hasDefault {
				args = append(args, "default="+wr.names[operands[lay.cases]])
			}
		case "indices", "data_operands":
			args = append(args, k+"=["+wr.refs(operands)+"]")
		case "invariant_args":
			if len(operands) > 0 {
				args = append(args, k+"=["+wr.refs(operands)+"]")
			}
		default:
			if v, ok := n.Attr(k); ok {
				args = append(args, k+"="+wr.attr(n, k, v))
			}
		}
	}
	args = append(args, "id="+strconv.Itoa(wr.ids[n]))
	if len(n.Loc) > 0 {
		args = append(args, "pos="+formatLoc(n.Loc))
	}
	b.WriteString(strings.Join(args, ", ") + ")\n")
}

// formatLoc writes source positions as XLS does: [(0,1,2), (0,3,4)].
func formatLoc(loc []outline.SourceLoc) string {
	s := make([]string, len(loc))
	for i, l := range loc {
		s[i] = "(" + strconv.Itoa(l.File) + "," + strconv.Itoa(l.Line) + "," + strconv.Itoa(l.Col) + ")"
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// attr returns the canonical spelling of the value v of n's attribute k,
// which Check accepted.
func (wr *writer) attr(n *outline.Node, k, v string) string {
	switch k {
	case "value":
		x, _ := ParseValue(n.Type, v)
		return x.String()
	case "to_apply", "body":
		return wr.fnName[v]
	case "lsb_prio", "assumed_in_bounds", "message", "label", "format":
		return v
	}
	i, _ := strconv.Atoi(v)
	return strconv.Itoa(i)
}
