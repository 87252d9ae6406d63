package outline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TypeKind says what a value type is.
type TypeKind uint8

const (
	Bits  TypeKind = iota // a bit vector of Width bits
	Tuple                 // a tuple of Elems
	Array                 // an array of Len elements of Elems[0]
	Token                 // XLS's ordering token (no value)
)

// A Type is the type of a node's value, as XLS writes it: bits[8],
// (bits[1], bits[8]), bits[8][4] (an array of four bits[8]), token.
type Type struct {
	Kind  TypeKind
	Width int    // Bits: number of bits (0 is allowed: bits[0])
	Elems []Type // Tuple: the element types; Array: one element type
	Len   int    // Array: number of elements
}

// BitsType returns bits[w].
func BitsType(w int) Type { return Type{Kind: Bits, Width: w} }

// TupleType returns the tuple of elems.
func TupleType(elems ...Type) Type { return Type{Kind: Tuple, Elems: elems} }

// ArrayType returns an array of n elements of elem.
func ArrayType(elem Type, n int) Type { return Type{Kind: Array, Elems: []Type{elem}, Len: n} }

// appendTo appends t in XLS notation to b.
func (t Type) appendTo(b []byte) []byte {
	switch t.Kind {
	case Bits:
		b = append(b, "bits["...)
		b = strconv.AppendInt(b, int64(t.Width), 10)
		return append(b, ']')
	case Tuple:
		b = append(b, '(')
		for i, e := range t.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = e.appendTo(b)
		}
		return append(b, ')')
	case Array:
		b = t.Elems[0].appendTo(b)
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(t.Len), 10)
		return append(b, ']')
	}
	return append(b, t.String()...)
}

// String writes t in XLS notation.
func (t Type) String() string {
	switch t.Kind {
	case Bits:
		return "bits[" + strconv.Itoa(t.Width) + "]"
	case Tuple:
		parts := make([]string, len(t.Elems))
		for i, e := range t.Elems {
			parts[i] = e.String()
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case Array:
		return t.Elems[0].String() + "[" + strconv.Itoa(t.Len) + "]"
	case Token:
		return "token"
	}
	return fmt.Sprintf("?type%d", t.Kind)
}

// Equal reports whether t and u are the same type.
func (t Type) Equal(u Type) bool {
	if t.Kind != u.Kind || t.Width != u.Width || t.Len != u.Len || len(t.Elems) != len(u.Elems) {
		return false
	}
	for i := range t.Elems {
		if !t.Elems[i].Equal(u.Elems[i]) {
			return false
		}
	}
	return true
}

// FlatBits is the number of bits of t's value laid out flat (XLS's
// flattening: tuples and arrays concatenated).
func (t Type) FlatBits() int {
	switch t.Kind {
	case Bits:
		return t.Width
	case Tuple:
		n := 0
		for _, e := range t.Elems {
			n += e.FlatBits()
		}
		return n
	case Array:
		return t.Len * t.Elems[0].FlatBits()
	}
	return 0
}

// An Attr is a named attribute of a node that is not an operand, kept in
// the order written: value=5, start=3, width=4, new_bit_count=16,
// index=1, to_apply=f. Values are kept as text in their canonical XLS
// spelling, so two nodes with equal attributes have equal Attrs.
type Attr struct {
	Key, Value string
}

// A Pos is a position in a source file, 1-based; the zero Pos is unknown.
type Pos struct {
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// A Node is one operation of a dataflow graph. Its operands are nodes of
// the same function defined before it. Operands are listed in the order
// the operation's semantics gives them; for operations whose XLS syntax
// names some operands by keyword (sel's cases= and default=, array_index's
// indices=), they follow the positional ones in that order, and any
// layout that the count of operands does not determine is recorded in
// Attrs.
type Node struct {
	ID       int    // unique within the package (XLS's id=N)
	Name     string // textual name: a param's name, or "" for op.ID
	Op       string // XLS operation name: "add", "umul", "bit_slice", "param", "literal", ...
	Type     Type
	Operands []*Node
	Attrs    []Attr
	Pos      Pos
	// Loc lists the node's source positions in the files of
	// Package.Files (XLS's pos=[(file,line,col), ...]); they are not part
	// of the Label and travel with the node when it is outlined or
	// inlined.
	Loc []SourceLoc

	// at is scratch space for the pass's walks over one function (the
	// node's position in it while a walk runs); it means nothing
	// outside one.
	at int32
}

// A SourceLoc is a position in a source file of the design: the file's
// number (Package.Files), line and column, as XLS counts them.
type SourceLoc struct {
	File, Line, Col int
}

// Attr returns the value of the attribute key and whether n has it.
func (n *Node) Attr(key string) (string, bool) {
	for _, a := range n.Attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// RefName is the name by which other nodes refer to n in XLS text.
func (n *Node) RefName() string {
	if n.Name != "" {
		return n.Name
	}
	return fmt.Sprintf("%s.%d", n.Op, n.ID)
}

// Label is what two nodes must share to be matched by anti-unification:
// operation, type and attributes (not operands).
func (n *Node) Label() string { return string(n.appendLabel(nil)) }

// appendLabel appends n's Label to b.
func (n *Node) appendLabel(b []byte) []byte {
	b = append(b, n.Op...)
	b = append(b, ' ')
	b = n.Type.appendTo(b)
	for _, a := range n.Attrs {
		b = append(b, ' ')
		b = append(b, a.Key...)
		b = append(b, '=')
		b = append(b, a.Value...)
	}
	return b
}

// A Function is a dataflow graph: parameters, nodes in a topological
// order (every operand before its user; parameters included, first) and
// the returned node.
type Function struct {
	Name   string
	Params []*Node // nodes with Op "param", in signature order
	Nodes  []*Node // all nodes, operands first
	Ret    *Node
	Pos    Pos
	// Attrs are the attributes written before the function, each as
	// its text ("#[initiation_interval(2)]", "#[ffi_proto(\"\"\"...\"\"\")]"),
	// kept to be written back.
	Attrs []string
	// Outlined is set on the functions Outline creates; Inline inlines
	// only invokes of those.
	Outlined bool
}

// Foreign reports whether f stands for an external implementation (XLS's
// #[ffi_proto]): its body is a model, and its invokes are instances of
// another module, so neither is outlined.
func (f *Function) Foreign() bool {
	for _, a := range f.Attrs {
		if strings.HasPrefix(a, "#[ffi_proto") {
			return true
		}
	}
	return false
}

// A Package is a set of functions, as in an XLS IR file.
type Package struct {
	Name  string
	Funcs []*Function
	Top   string // name of the top function ("" when none is marked)
	// Files are the source files that node positions (Node.Loc) refer
	// to, by number.
	Files []SourceFile
	// Opaque holds the parts of the file that are not functions (XLS
	// procs, blocks, channels, scheduled functions), as text, written
	// back unchanged in their place among the functions.
	Opaque []*Opaque
	// Headless is set when the text had no "package" line (a single
	// function, block or proc, as XLS's tests write them).
	Headless bool
}

// A SourceFile is one "file_number N "path"" line.
type SourceFile struct {
	Number int
	Path   string // as written, quotes included
}

// Opaque is a part of a package that the graph does not model: its kind
// (the keyword: proc, block, chan, scheduled_fn, ...), its name, and its
// text from its first attribute or "top" to its end. Pos places it among
// the functions (see Function.Pos): a writer writes parts in the order of
// their positions.
type Opaque struct {
	Kind, Name string
	Text       string
	Pos        Pos
	Top        bool // marked "top"
	MaxID      int  // the largest id=N in Text, so that new nodes take others
	// Calls are the functions its text names (to_apply=, body=, ...),
	// which must stay in the package.
	Calls []string
}

// Clone returns a deep copy of p: new functions and nodes (same IDs,
// names and positions), which Outline and Inline can change without
// touching p. Types, source locations and opaque parts, which neither
// changes, are shared.
func (p *Package) Clone() *Package {
	q := *p
	q.Files = slices.Clone(p.Files)
	q.Opaque = slices.Clone(p.Opaque)
	q.Funcs = make([]*Function, len(p.Funcs))
	for i, f := range p.Funcs {
		g := *f
		g.Attrs = slices.Clone(f.Attrs)
		nodes := make([]Node, len(f.Nodes)) // one allocation for all
		g.Nodes = make([]*Node, len(f.Nodes))
		for j, n := range f.Nodes {
			n.at = int32(j)
			nodes[j] = *n
			c := &nodes[j]
			c.Operands = make([]*Node, len(n.Operands))
			for k, o := range n.Operands {
				c.Operands[k] = g.Nodes[o.at]
			}
			c.Attrs = slices.Clone(n.Attrs)
			g.Nodes[j] = c
		}
		g.Params = make([]*Node, len(f.Params))
		for j, prm := range f.Params {
			g.Params[j] = g.Nodes[prm.at]
		}
		if f.Ret != nil {
			g.Ret = g.Nodes[f.Ret.at]
		}
		q.Funcs[i] = &g
	}
	return &q
}

// Defines reports whether name is taken in p by a function or by an
// opaque part.
func (p *Package) Defines(name string) bool {
	if p.Func(name) != nil {
		return true
	}
	for _, o := range p.Opaque {
		if o.Name == name {
			return true
		}
	}
	return false
}

// Func returns the function named name, or nil.
func (p *Package) Func(name string) *Function {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Commutative reports whether the operation op gives the same value for
// any order of its operands.
func Commutative(op string) bool {
	switch op {
	case "add", "umul", "smul", "and", "or", "xor", "nand", "nor", "eq", "ne":
		return true
	}
	return false
}

// Associative reports whether the operation op is associative (when its
// operands and result have one width).
func Associative(op string) bool {
	switch op {
	case "add", "umul", "smul", "and", "or", "xor":
		return true
	}
	return false
}

// Users returns, for every node of f, the nodes that use it as an operand
// (each user once per use), indexed by the node's position in f.Nodes.
func (f *Function) Users() map[*Node][]*Node {
	users := make(map[*Node][]*Node, len(f.Nodes))
	for _, n := range f.Nodes {
		for _, o := range n.Operands {
			users[o] = append(users[o], n)
		}
	}
	return users
}

// Check verifies f's invariants: nodes in topological order, operands
// defined in f, parameters first and listed in Params, Ret in f, unique
// IDs. It returns the first violation.
func (f *Function) Check() error {
	seen := make(map[*Node]bool, len(f.Nodes))
	ids := make(map[int]bool, len(f.Nodes))
	for i, n := range f.Nodes {
		if ids[n.ID] {
			return fmt.Errorf("outline: function %s: id %d defined twice", f.Name, n.ID)
		}
		ids[n.ID] = true
		if (n.Op == "param") != (i < len(f.Params)) || (n.Op == "param" && f.Params[i] != n) {
			return fmt.Errorf("outline: function %s: node %s: parameters must come first, in Params order", f.Name, n.RefName())
		}
		for _, o := range n.Operands {
			if !seen[o] {
				return fmt.Errorf("outline: function %s: node %s uses %s before its definition", f.Name, n.RefName(), o.RefName())
			}
		}
		seen[n] = true
	}
	if f.Ret == nil || !seen[f.Ret] {
		return fmt.Errorf("outline: function %s: return value is not a node of the function", f.Name)
	}
	return nil
}
