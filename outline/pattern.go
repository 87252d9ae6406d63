package outline

import (
	"fmt"
	"strings"
)

// A Pattern is an anti-unifier: a small dataflow graph of operations and
// holes. A hole is a parameter of the pattern: where the instances differ,
// or where an instance's value comes from outside it. Several holes that
// stand for the same arguments in every instance are one parameter.
type Pattern struct {
	Nodes  []PNode // operands first; the root is the last node
	Params []Type  // the type of each parameter, in parameter order
}

// A PNode is one node of a pattern: an operation with the Op, Type and
// Attrs of the nodes it matches (a literal when Op is "literal"), or a
// hole (Op "") standing for parameter Param.
type PNode struct {
	Op    string
	Type  Type
	Attrs []Attr
	Args  []int // operand nodes, as indices into Pattern.Nodes
	Param int   // the parameter of a hole; -1 for an operation
}

// Hole reports whether n is a hole.
func (n *PNode) Hole() bool { return n.Op == "" }

// Root is the index of the pattern's root node.
func (p *Pattern) Root() int { return len(p.Nodes) - 1 }

// Size is k, the number of operations of the pattern: holes, literals,
// invokes, tuples and tuple_index nodes do not count (literals are
// constants kept inside the outlined function, invokes call functions
// counted elsewhere, tuples are wiring; see weight).
func (p *Pattern) Size() int {
	k := 0
	for i := range p.Nodes {
		switch p.Nodes[i].Op {
		case "", "literal", "invoke", "tuple", "tuple_index":
		default:
			k++
		}
	}
	return k
}

// String writes p as an expression in the notation, with each
// hole written _ and the usual infix operators for add (+), sub (-),
// umul/smul (*), and (&), or (|), xor (^), shll (<<), shrl (>>), eq (==)
// and ne (!=), parenthesized only where precedence requires (* & << >>
// bind tighter than + - | ^, which bind tighter than == and !=; operators
// group to the left). Other operations are written op(operands,
// attributes), literals by their value. A node the pattern shares is
// written once per use.
func (p *Pattern) String() string { return p.Format(false) }

// Format is String, with holes numbered by parameter (_0, _1, ...) when
// numbered is set.
func (p *Pattern) Format(numbered bool) string {
	if len(p.Nodes) == 0 {
		return ""
	}
	var b strings.Builder
	p.write(&b, p.Root(), numbered)
	return b.String()
}

var infix = map[string]struct {
	sym  string
	prec int
}{
	"umul": {"*", 5}, "smul": {"*", 5}, "and": {"&", 5}, "shll": {"<<", 5}, "shrl": {">>", 5},
	"add": {"+", 4}, "sub": {"-", 4}, "or": {"|", 4}, "xor": {"^", 4},
	"eq": {"==", 3}, "ne": {"!=", 3},
}

// prec is the binding strength of node i as written: infix operators by
// the table above, everything else binds tightest.
func (p *Pattern) prec(i int) int {
	if op, ok := infix[p.Nodes[i].Op]; ok && len(p.Nodes[i].Args) >= 2 {
		return op.prec
	}
	return 10
}

func (p *Pattern) write(b *strings.Builder, i int, numbered bool) {
	n := &p.Nodes[i]
	switch {
	case n.Hole():
		b.WriteByte('_')
		if numbered {
			fmt.Fprint(b, n.Param)
		}
		return
	case n.Op == "literal":
		if v, ok := lookupAttr(n.Attrs, "value"); ok {
			b.WriteString(v)
			return
		}
	}
	if op, ok := infix[n.Op]; ok && len(n.Args) >= 2 {
		for j, a := range n.Args {
			if j > 0 {
				b.WriteString(" " + op.sym + " ")
			}
			// Left operands may bind equally tightly (left grouping);
			// later ones must bind more tightly.
			paren := p.prec(a) < op.prec || (j > 0 && p.prec(a) == op.prec)
			if paren {
				b.WriteByte('(')
			}
			p.write(b, a, numbered)
			if paren {
				b.WriteByte(')')
			}
		}
		return
	}
	name := n.Op
	if n.Op == "invoke" {
		if to, ok := lookupAttr(n.Attrs, "to_apply"); ok {
			name = to
		}
	}
	b.WriteString(name)
	b.WriteByte('(')
	sep := ""
	for _, a := range n.Args {
		b.WriteString(sep)
		p.write(b, a, numbered)
		sep = ", "
	}
	for _, at := range n.Attrs {
		if n.Op == "invoke" && at.Key == "to_apply" {
			continue
		}
		b.WriteString(sep + at.Key + "=" + at.Value)
		sep = ", "
	}
	b.WriteByte(')')
}

func lookupAttr(as []Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}
