// Command chain writes an XLS IR package whose function is one long
// chain of bits[32] operations (issue 18: a 114k-node xor chain), for
// timing nestor outline on deep graphs:
//
//	go run ./outline/testdata/chain -nodes 114000 -kind xor > chain.ir
//
// Kinds: xor, x = x ^ p_(i mod 8); hash, x = (x ^ p_(i mod 8)) + K_i
// with a literal K_i per step; acc, x = x ^ (p_a op p_b) with op
// cycling through add, sub, and, or, umul (a repeated 10-node pattern).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"nestor/outline"
	"nestor/outline/xls"
)

func main() {
	nodes := flag.Int("nodes", 114000, "nodes of the function, about")
	kind := flag.String("kind", "xor", "xor, hash or acc")
	flag.Parse()
	u32 := outline.BitsType(32)
	f := &outline.Function{Name: "f"}
	id := 0
	add := func(n *outline.Node) *outline.Node {
		id++
		n.ID = id
		f.Nodes = append(f.Nodes, n)
		return n
	}
	op := func(o string, a, b *outline.Node) *outline.Node {
		return add(&outline.Node{Op: o, Type: u32, Operands: []*outline.Node{a, b}})
	}
	var ps []*outline.Node
	for i := range 8 {
		p := add(&outline.Node{Name: fmt.Sprintf("p%d", i), Op: "param", Type: u32})
		ps = append(ps, p)
	}
	f.Params = ps
	x := ps[0]
	ops := []string{"add", "sub", "and", "or", "umul"}
	for i := 0; len(f.Nodes) < *nodes; i++ {
		switch *kind {
		case "xor":
			x = op("xor", x, ps[i%8])
		case "hash":
			k := add(&outline.Node{Op: "literal", Type: u32, Attrs: []outline.Attr{{Key: "value", Value: strconv.FormatUint(uint64(i)*2654435761%(1<<32), 10)}}})
			x = op("add", op("xor", x, ps[i%8]), k)
		case "acc":
			x = op("xor", x, op(ops[i%len(ops)], ps[i%8], ps[(i*3+1)%8]))
		default:
			fmt.Fprintf(os.Stderr, "chain: unknown kind %q\n", *kind)
			os.Exit(2)
		}
	}
	f.Ret = x
	p := &outline.Package{Name: "chain", Funcs: []*outline.Function{f}, Top: f.Name}
	fmt.Fprintf(os.Stderr, "%d nodes\n", len(f.Nodes))
	if err := xls.Write(os.Stdout, p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
