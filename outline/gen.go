package outline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
)

// A builder appends nodes to a function in topological order, with
// fresh IDs.
type builder struct {
	f  *Function
	id int
}

func newBuilder(name string) *builder { return &builder{f: &Function{Name: name}} }

func (b *builder) add(n *Node) *Node {
	b.id++
	n.ID = b.id
	b.f.Nodes = append(b.f.Nodes, n)
	return n
}

// param adds a parameter; all parameters must come before other nodes.
func (b *builder) param(name string, t Type) *Node {
	n := b.add(&Node{Name: name, Op: "param", Type: t})
	b.f.Params = append(b.f.Params, n)
	return n
}

func (b *builder) op(op string, t Type, ops ...*Node) *Node {
	return b.add(&Node{Op: op, Type: t, Operands: ops})
}

func (b *builder) opAttr(op string, t Type, attrs []Attr, ops ...*Node) *Node {
	return b.add(&Node{Op: op, Type: t, Operands: ops, Attrs: attrs})
}

func (b *builder) lit(w int, v uint64) *Node {
	return b.add(&Node{Op: "literal", Type: BitsType(w), Attrs: []Attr{{Key: "value", Value: strconv.FormatUint(v, 10)}}})
}

func (b *builder) ret(n *Node) *Function {
	b.f.Ret = n
	return b.f
}

// sha256K are SHA-256's round constants.
var sha256K = [64]uint64{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// ARX returns a package whose function "sha" runs the given number of
// rounds of SHA-256's compression function on bits[32] values (add,
// rotate, xor and the Boolean choice and majority functions), a block of
// 16 message words every 64 rounds with the feed-forward at the end of
// each block, and returns the eight state words as a tuple. Rotations are
// written as XLS lowers them, or(shrl(x, n), shll(x, 32-n)), with their
// own literals. Each round past the 16th of a block has 82 nodes, so
// 137 rounds make just over 10,000 nodes; the rounds are the planted
// repeated structure (message schedule, T1, T2), with round constants
// that differ.
func ARX(rounds int) *Package {
	b := newBuilder("sha")
	u32 := BitsType(32)
	var st [8]*Node
	for i := range st {
		st[i] = b.param(string(rune('a'+i)), u32)
	}
	blocks := (rounds + 63) / 64
	msg := make([][16]*Node, blocks)
	for k := range msg {
		for j := range 16 {
			msg[k][j] = b.param(fmt.Sprintf("m%d_%d", k, j), u32)
		}
	}
	rotr := func(x *Node, n int) *Node {
		return b.op("or", u32, b.op("shrl", u32, x, b.lit(32, uint64(n))), b.op("shll", u32, x, b.lit(32, uint64(32-n))))
	}
	shr := func(x *Node, n int) *Node { return b.op("shrl", u32, x, b.lit(32, uint64(n))) }
	xor3 := func(x, y, z *Node) *Node { return b.op("xor", u32, b.op("xor", u32, x, y), z) }
	addN := func(xs ...*Node) *Node {
		s := xs[0]
		for _, x := range xs[1:] {
			s = b.op("add", u32, s, x)
		}
		return s
	}
	var w [64]*Node
	start := st
	for r := range rounds {
		j := r % 64
		if j == 0 {
			start = st
		}
		if j < 16 {
			w[j] = msg[r/64][j]
		} else {
			s0 := xor3(rotr(w[j-15], 7), rotr(w[j-15], 18), shr(w[j-15], 3))
			s1 := xor3(rotr(w[j-2], 17), rotr(w[j-2], 19), shr(w[j-2], 10))
			w[j] = addN(s1, w[j-7], s0, w[j-16])
		}
		a, bb, c, d, e, f, g, h := st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7]
		S1 := xor3(rotr(e, 6), rotr(e, 11), rotr(e, 25))
		ch := b.op("xor", u32, b.op("and", u32, e, f), b.op("and", u32, b.op("not", u32, e), g))
		t1 := addN(h, S1, ch, b.lit(32, sha256K[j]), w[j])
		S0 := xor3(rotr(a, 2), rotr(a, 13), rotr(a, 22))
		maj := xor3(b.op("and", u32, a, bb), b.op("and", u32, a, c), b.op("and", u32, bb, c))
		t2 := b.op("add", u32, S0, maj)
		st = [8]*Node{b.op("add", u32, t1, t2), a, bb, c, b.op("add", u32, d, t1), e, f, g}
		if j == 63 || r == rounds-1 {
			for i := range st {
				st[i] = b.op("add", u32, st[i], start[i])
			}
		}
	}
	types := make([]Type, 8)
	for i := range types {
		types[i] = u32
	}
	f := b.ret(b.op("tuple", TupleType(types...), st[:]...))
	return &Package{Name: "arx", Funcs: []*Function{f}, Top: f.Name}
}

// A PlantSpec describes a graph with a planted repeated motif (issue 18):
// Copies instances of a random motif of Size operations (a DAG over
// three inputs whose root alone is used outside it), placed at random
// among random other operations so that the function has about Nodes
// nodes; the values nothing reads form the returned tuple. With FanOut, some motif node feeds two later motif nodes; with
// Mutated, as many decoy copies again differ from the motif in one
// operation.
type PlantSpec struct {
	Seed                uint64
	Size, Copies, Nodes int
	FanOut, Mutated     bool
}

// plantOps are the operations of motifs and of the background, all
// bits[32] -> bits[32] with two operands.
var plantOps = []string{"add", "sub", "xor", "and", "or", "umul"}

// Planted returns a package whose function "planted" holds the motif of s
// and the saving that outlining the motif's exact copies gives under
// Nodes, (Copies-1)·Size.
func Planted(s PlantSpec) (*Package, int64) {
	p, saving, _, _ := plant(s)
	return p, saving
}

// plant is Planted; it also returns the node IDs of each exact copy of
// the motif, root last, and then those of each decoy.
func plant(s PlantSpec) (*Package, int64, [][]int, [][]int) {
	r := rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15))
	u32 := BitsType(32)
	b := newBuilder("planted")
	var pool []*Node // values the next nodes may read
	unused := map[*Node]bool{}
	for i := range 8 {
		n := b.param(fmt.Sprintf("x%d", i), u32)
		pool = append(pool, n)
		unused[n] = true
	}
	pick := func() *Node {
		// Mostly recent values, sometimes any: irregular but local.
		var n *Node
		if r.IntN(4) > 0 && len(pool) > 16 {
			n = pool[len(pool)-1-r.IntN(16)]
		} else {
			n = pool[r.IntN(len(pool))]
		}
		return n
	}
	use := func(ns ...*Node) {
		for _, n := range ns {
			delete(unused, n)
		}
	}
	// The motif: node i reads two of the inputs (-1..-3) and earlier
	// nodes; every node but the root is read by a later one.
	type mnode struct {
		op   string
		a, b int // operand: >= 0 motif node, < 0 input -1-k
	}
	motif := make([]mnode, s.Size)
	readers := make([]int, s.Size)
	for i := range motif {
		m := mnode{op: plantOps[r.IntN(len(plantOps))], a: -1 - r.IntN(3), b: -1 - r.IntN(3)}
		if i > 0 {
			m.a = i - 1 // a chain keeps every node live
			if s.FanOut && i > 1 && r.IntN(2) == 0 {
				m.b = r.IntN(i - 1)
			}
		}
		if m.op == "sub" && m.a == m.b {
			m.op = "add"
		}
		motif[i] = m
		for _, o := range []int{m.a, m.b} {
			if o >= 0 {
				readers[o]++
			}
		}
	}
	if s.FanOut && s.Size >= 3 && !slices.ContainsFunc(readers[:s.Size-1], func(k int) bool { return k > 1 }) {
		// Node 0 feeds node 1 (the chain) and the last node.
		motif[s.Size-1].b = 0
	}
	var copies, decoys [][]int
	instance := func(mut int) *Node {
		in := []*Node{pick(), pick(), pick()}
		vals := make([]*Node, s.Size)
		arg := func(o int) *Node {
			if o < 0 {
				return in[-1-o]
			}
			return vals[o]
		}
		for i, m := range motif {
			op := m.op
			if i == mut {
				op = plantOps[(slices.Index(plantOps, op)+1+r.IntN(len(plantOps)-1))%len(plantOps)]
			}
			vals[i] = b.op(op, u32, arg(m.a), arg(m.b))
		}
		use(in...)
		ids := make([]int, len(vals))
		for i, v := range vals {
			ids[i] = v.ID
		}
		if mut < 0 {
			copies = append(copies, ids)
		} else {
			decoys = append(decoys, ids)
		}
		return vals[s.Size-1]
	}
	noise := max(s.Nodes-len(pool)-s.Copies*s.Size*(1+b2i(s.Mutated)), 0)
	slots := make([]int, 0, 2*s.Copies) // 1: copy, 2: decoy
	for range s.Copies {
		slots = append(slots, 1)
		if s.Mutated {
			slots = append(slots, 2)
		}
	}
	// Spread the copies over the background.
	at := make([]int, len(slots))
	for i := range at {
		at[i] = r.IntN(noise + 1)
	}
	slices.Sort(at)
	k := 0
	for step := 0; step <= noise; step++ {
		for k < len(at) && at[k] == step {
			mut := -1
			if slots[k] == 2 {
				mut = r.IntN(s.Size)
			}
			root := instance(mut)
			pool = append(pool, root)
			unused[root] = true
			k++
		}
		if step < noise {
			x, y := pick(), pick()
			n := b.op(plantOps[r.IntN(len(plantOps))], u32, x, y)
			use(x, y)
			pool = append(pool, n)
			unused[n] = true
		}
	}
	// Every value that nothing reads is an element of the result (a
	// tuple: a chain of xors would itself be a repeated pattern, which
	// absorbs the copies' roots).
	var outs []*Node
	var types []Type
	for _, n := range pool {
		if unused[n] {
			outs = append(outs, n)
			types = append(types, n.Type)
		}
	}
	acc := b.op("tuple", TupleType(types...), outs...)
	f := b.ret(acc)
	return &Package{Name: "planted", Funcs: []*Function{f}, Top: f.Name}, int64(s.Copies-1) * int64(s.Size), copies, decoys
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
