package outline

import (
	"fmt"
	"strconv"
)

// eval computes function f of p on args (bits values, masked to their
// widths), for the operations the tests' graphs use; a tuple is its
// elements, flattened. It calls invoked functions of p.
func eval(p *Package, f *Function, args []uint64) ([]uint64, error) {
	val := make(map[*Node][]uint64, len(f.Nodes))
	for i, prm := range f.Params {
		val[prm] = []uint64{args[i] & mask(prm.Type.Width)}
	}
	for _, n := range f.Nodes {
		if n.Op == "param" {
			continue
		}
		w := n.Type.Width
		op := func(i int) uint64 { return val[n.Operands[i]][0] }
		var v uint64
		switch n.Op {
		case "literal":
			s, _ := n.Attr("value")
			u, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return nil, err
			}
			v = u
		case "add":
			v = op(0) + op(1)
		case "sub":
			v = op(0) - op(1)
		case "umul":
			v = op(0) * op(1)
		case "xor", "and", "or":
			v = op(0)
			for i := 1; i < len(n.Operands); i++ {
				switch n.Op {
				case "xor":
					v ^= op(i)
				case "and":
					v &= op(i)
				case "or":
					v |= op(i)
				}
			}
		case "not":
			v = ^op(0)
		case "ult":
			if op(0) < op(1) {
				v = 1
			}
		case "sel": // selector, cases (no default)
			v = op(1 + int(min(op(0), uint64(len(n.Operands)-2))))
		case "shll":
			if s := op(1); s < 64 {
				v = op(0) << s
			}
		case "shrl":
			if s := op(1); s < 64 {
				v = op(0) >> s
			}
		case "tuple", "array":
			var t []uint64
			for _, o := range n.Operands {
				t = append(t, val[o]...)
			}
			val[n] = t
			continue
		case "tuple_index":
			s, _ := n.Attr("index")
			i, err := strconv.Atoi(s)
			if err != nil {
				return nil, err
			}
			off := 0
			for _, e := range n.Operands[0].Type.Elems[:i] {
				off += leaves(e)
			}
			val[n] = val[n.Operands[0]][off : off+leaves(n.Type)]
			continue
		case "invoke":
			to, _ := n.Attr("to_apply")
			g := p.Func(to)
			if g == nil {
				return nil, fmt.Errorf("outline: eval: no function %s", to)
			}
			var as []uint64
			for _, o := range n.Operands {
				as = append(as, val[o][0])
			}
			r, err := eval(p, g, as)
			if err != nil {
				return nil, err
			}
			val[n] = r
			continue
		default:
			return nil, fmt.Errorf("outline: eval: operation %s", n.Op)
		}
		val[n] = []uint64{v & mask(w)}
	}
	return val[f.Ret], nil
}

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<w - 1
}

// leaves is the number of bits values a value of type t flattens to.
func leaves(t Type) int {
	switch t.Kind {
	case Tuple:
		n := 0
		for _, e := range t.Elems {
			n += leaves(e)
		}
		return n
	case Array:
		return t.Len * leaves(t.Elems[0])
	}
	return 1
}
