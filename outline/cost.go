package outline

import "math/bits"

// An Objective says what outlining saves.
type Objective uint8

const (
	// Nodes counts operation nodes (not parameters, literals, invokes,
	// tuples or tuple_index nodes: see weight): an instance of k
	// operations outlined n times saves (n-1)·k, the issue's
	// number_of_nodes_saved.
	Nodes Objective = iota
	// Area weighs each operation by an area estimate for its bit width
	// (areaOf) and charges the multiplexers that feed the one shared
	// instance: per extra instance, the width of every input whose value
	// differs between instances. An outlined pattern of area A with
	// multiplexed input bits M and n instances saves (n-1)·(A-M).
	Area
)

func (o Objective) String() string {
	if o == Area {
		return "area"
	}
	return "nodes"
}

// unmatchable lists operations that anti-unification never matches: they
// have effects or state, so moving them into a function would change what
// the program does, not only how it is written.
var unmatchable = map[string]bool{
	"param": true, "literal": true, // inputs and constants are never instance nodes
	"assert": true, "cover": true, "trace": true,
	"send": true, "receive": true, "after_all": true, "min_delay": true,
	"state_read": true, "next_value": true, "new_channel": true,
	"input_port": true, "output_port": true,
	"register_read": true, "register_write": true,
	"instantiation_input": true, "instantiation_output": true,
	// Loops and maps call a function per iteration or element; they
	// stay where they are (their bodies are functions of their own).
	"counted_for": true, "dynamic_counted_for": true, "map": true,
}

// effectful lists the operations that do something besides computing a
// value (see fixedCallees).
var effectful = map[string]bool{
	"assert": true, "cover": true, "trace": true,
	"send": true, "receive": true, "state_read": true, "next_value": true,
	"input_port": true, "output_port": true, "register_read": true, "register_write": true,
	"instantiation_input": true, "instantiation_output": true, "new_channel": true,
}

func calleeName(n *Node) string {
	to, _ := n.Attr("to_apply")
	return to
}

// fixedCallees returns the functions of p whose invokes are never moved
// into an outlined function: foreign functions (their invokes are
// instances of external modules) and functions with side effects
// (asserts, traces, covers), directly or through what they call. Moving
// such a call would keep its meaning but change where its effect sits in
// the design, which outlining does not promise to do.
func fixedCallees(p *Package) map[string]bool {
	fixed := map[string]bool{}
	state := map[*Function]int{} // 1: visiting, 2: done
	var visit func(f *Function) bool
	visit = func(f *Function) bool {
		if f == nil {
			return false
		}
		switch state[f] {
		case 1:
			return false // a cycle: Check rejects it elsewhere
		case 2:
			return fixed[f.Name]
		}
		state[f] = 1
		fx := f.Foreign()
		for _, n := range f.Nodes {
			if effectful[n.Op] {
				fx = true
			}
			for _, k := range []string{"to_apply", "body"} {
				if to, ok := n.Attr(k); ok && visit(p.Func(to)) {
					fx = true
				}
			}
		}
		state[f] = 2
		if fx {
			fixed[f.Name] = true
		}
		return fx
	}
	for _, f := range p.Funcs {
		visit(f)
	}
	return fixed
}

// matchable reports whether n may be a node of an outlined instance.
func matchable(n *Node) bool {
	if unmatchable[n.Op] || hasToken(n.Type) {
		return false
	}
	for _, o := range n.Operands {
		if hasToken(o.Type) {
			return false
		}
	}
	return true
}

func hasToken(t Type) bool {
	if t.Kind == Token {
		return true
	}
	for _, e := range t.Elems {
		if hasToken(e) {
			return true
		}
	}
	return false
}

// weight is what node n contributes to a pattern's size under objective
// o. Parameters, literals, invokes, tuples and tuple_index nodes weigh
// nothing under both objectives: a literal is wiring (matching it keeps a
// constant inside the outlined function instead of making it an input,
// but saves no operation), an invoke is a call whose callee is counted
// once, in its own function, and a tuple or tuple_index only groups or
// names wires. So the tuple that bundles the outputs of a multi-output
// pattern (bundle.go) and the tuple_index nodes that read them after
// outlining cost nothing and do not count in k.
func weight(n *Node, o Objective) int64 {
	switch n.Op {
	case "param", "literal", "invoke", "tuple", "tuple_index":
		return 0
	}
	if o == Area {
		return areaOf(n)
	}
	return 1
}

// areaOf estimates the area of n in units of one full-adder bit: an adder
// is as wide as its operands, a multiplier or divider is the product of
// its operand widths, bitwise logic costs a quarter of a gate per bit and
// input, a shift by a literal amount or a slice, concatenation or
// extension is wiring (0), a shift by a variable amount is a barrel
// shifter (width·log2 width), a select is one 2:1 multiplexer bit per case
// bit beyond the first. Other operations cost their result width.
func areaOf(n *Node) int64 {
	w := int64(n.Type.FlatBits())
	opw := func(i int) int64 {
		if i < len(n.Operands) {
			return int64(n.Operands[i].Type.FlatBits())
		}
		return 0
	}
	switch n.Op {
	case "param", "literal", "invoke", "bit_slice", "concat", "zero_ext", "sign_ext",
		"tuple", "tuple_index", "identity", "reverse", "array", "array_concat":
		return 0
	case "add", "sub", "neg":
		return w
	case "umul", "smul", "umulp", "smulp", "udiv", "sdiv", "umod", "smod":
		return max(opw(0)*opw(1), w)
	case "and", "or", "xor", "nand", "nor":
		return int64(max(len(n.Operands)-1, 1)) * quarter(w)
	case "not":
		return quarter(w)
	case "and_reduce", "or_reduce", "xor_reduce":
		return quarter(opw(0))
	case "eq", "ne":
		return quarter(opw(0)) + quarter(opw(0))
	case "ult", "ule", "ugt", "uge", "slt", "sle", "sgt", "sge":
		return opw(0)
	case "shll", "shrl", "shra":
		if len(n.Operands) == 2 && n.Operands[1].Op == "literal" {
			return 0
		}
		return w * int64(bits.Len64(uint64(max(w-1, 1))))
	case "dynamic_bit_slice", "bit_slice_update":
		return w * int64(bits.Len64(uint64(max(opw(0)-1, 1))))
	case "sel", "one_hot_sel", "priority_sel":
		return w * int64(max(len(n.Operands)-2, 1))
	case "array_index", "array_update", "array_slice":
		for _, o := range n.Operands[1:] {
			if o.Op != "literal" {
				return w * int64(max(len(n.Operands)-1, 1)) * 2
			}
		}
		return 0
	}
	return w
}

// literalDependent lists the operations whose areaOf depends on whether
// an operand is a literal.
var literalDependent = map[string]bool{
	"shll": true, "shrl": true, "shra": true, "array_index": true, "array_update": true, "array_slice": true,
}

func quarter(w int64) int64 { return (w + 3) / 4 }

// Cost is the objective's measure of package p: the weights of all nodes
// of all functions (each function counted once, as hardware that the
// calls share), plus, under Area, the multiplexers in front of every
// function called from more than one place: per call beyond the first,
// the width of each parameter whose arguments are not the same node at
// every call. Outlining an instance set that saves s lowers Cost by at
// least s.
func Cost(p *Package, o Objective) int64 {
	var c int64
	calls := map[string][]*Node{}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			c += weight(n, o)
			if n.Op == "invoke" {
				if to, ok := n.Attr("to_apply"); ok {
					calls[to] = append(calls[to], n)
				}
			}
		}
	}
	if o != Area {
		return c
	}
	for name, cs := range calls {
		if p.Func(name) == nil || len(cs) < 2 {
			continue
		}
		for i, a := range cs[0].Operands {
			for _, x := range cs[1:] {
				if i < len(x.Operands) && x.Operands[i] != a {
					c += int64(len(cs)-1) * int64(a.Type.FlatBits())
					break
				}
			}
		}
	}
	return c
}
