package outline

import (
	"math/rand/v2"
	"testing"
)

var u8 = BitsType(8)

// issueFormula builds x + (5*y) and 3 + (4*(p+q)), the issue's first
// example, as the two elements of a returned tuple.
func issueFormula() (*Function, *Node, *Node) {
	b := newBuilder("f")
	x, y, p, q := b.param("x", u8), b.param("y", u8), b.param("p", u8), b.param("q", u8)
	n1 := b.op("add", u8, x, b.op("umul", u8, b.lit(8, 5), y))
	n2 := b.op("add", u8, b.lit(8, 3), b.op("umul", u8, b.lit(8, 4), b.op("add", u8, p, q)))
	f := b.ret(b.op("tuple", TupleType(u8, u8), n1, n2))
	return f, n1, n2
}

// issueChain builds x = a + b*c; y = d + e*x; z = f + g*y, the issue's
// collision-avoidance example, returning z.
func issueChain() (*Function, *Node, *Node) {
	b := newBuilder("f")
	var ps [7]*Node
	for i := range ps {
		ps[i] = b.param(string(rune('a'+i)), u8)
	}
	x := b.op("add", u8, ps[0], b.op("umul", u8, ps[1], ps[2]))
	y := b.op("add", u8, ps[3], b.op("umul", u8, ps[4], x))
	z := b.op("add", u8, ps[5], b.op("umul", u8, ps[6], y))
	return b.ret(z), y, z
}

func TestAntiunifyIssueExamples(t *testing.T) {
	// The issue: "the antiunification of x + (5 * y) and 3 + (4 * (p + q))
	// would be a + (b * c)".
	f, n1, n2 := issueFormula()
	if got, want := Antiunify(n1, n2).String(), "_ + _ * _"; got != want {
		t.Errorf("plain: got %q, want %q", got, want)
	}
	m, err := AntiunifySet(f, n1, n2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Pattern.String(), "_ + _ * _"; got != want || m.Size != 2 {
		t.Errorf("collision-avoiding: got %q (k=%d), want %q (k=2)", got, m.Size, want)
	}

	// The issue: y and z anti-unify to _ + (_ * (_ + _ * _)) but their
	// collision-avoiding anti-unifier is _ + _ * _ (the same terms with
	// minimal parentheses).
	f, y, z := issueChain()
	p := Antiunify(y, z)
	if got, want := p.String(), "_ + _ * (_ + _ * _)"; got != want || p.Size() != 4 {
		t.Errorf("plain: got %q (k=%d), want %q (k=4)", got, p.Size(), want)
	}
	m, err = AntiunifySet(f, y, z)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Pattern.String(), "_ + _ * _"; got != want || m.Size != 2 {
		t.Errorf("collision-avoiding: got %q (k=%d), want %q (k=2)", got, m.Size, want)
	}
	// The table agrees: plain closed T(z, y) = 4, collision-avoiding 2.
	a := analyze(f, Nodes, nil, nil)
	if err := checkMatch(a, m); err != nil {
		t.Error(err)
	}
	tb := newTable(a)
	iy, iz := a.index[y], a.index[z]
	if v := tb.pairVal(iz, iy); v != 4 {
		t.Errorf("table T(z, y) = %d, want 4", v)
	}
	if _, v, _, _ := tb.entry(iz, iy); v != 2 {
		t.Errorf("table collision-avoiding (z, y) = %d, want 2", v)
	}
}

func TestPatternString(t *testing.T) {
	for _, c := range []struct {
		p    Pattern
		want string
	}{
		// Left grouping: (_ - _) - _ needs no parentheses, _ - (_ - _) does.
		{Pattern{Nodes: []PNode{{Param: 0}, {Param: 1}, {Op: "sub", Args: []int{0, 1}, Param: -1}, {Op: "sub", Args: []int{2, 0}, Param: -1}}}, "_ - _ - _"},
		{Pattern{Nodes: []PNode{{Param: 0}, {Param: 1}, {Op: "sub", Args: []int{0, 1}, Param: -1}, {Op: "sub", Args: []int{0, 2}, Param: -1}}}, "_ - (_ - _)"},
		{Pattern{Nodes: []PNode{{Param: 0}, {Op: "literal", Attrs: []Attr{{"value", "3"}}, Param: -1}, {Op: "bit_slice", Args: []int{0}, Attrs: []Attr{{"start", "0"}, {"width", "4"}}, Param: -1}, {Op: "xor", Args: []int{2, 1}, Param: -1}}}, "bit_slice(_, start=0, width=4) ^ 3"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestAntiunifySharing checks a pattern with a node used twice: x*x
// against y*y matches the shared operand, x*x against y*z does not (the
// instances would use one value in two places and two values there).
func TestAntiunifySharing(t *testing.T) {
	b := newBuilder("f")
	p, q, r := b.param("p", u8), b.param("q", u8), b.param("r", u8)
	x := b.op("add", u8, p, q)
	y := b.op("add", u8, q, r)
	z := b.op("add", u8, r, p)
	w := b.op("add", u8, p, r)
	sq1 := b.op("umul", u8, x, x)
	sq2 := b.op("umul", u8, y, y)
	mix := b.op("umul", u8, z, w)
	f := b.ret(b.op("tuple", TupleType(u8, u8, u8), sq1, sq2, mix))
	m, err := AntiunifySet(f, sq1, sq2)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Pattern.Format(true), "(_0 + _1) * (_0 + _1)"; got != want || m.Size != 2 {
		t.Errorf("shared: got %q (k=%d), want %q (k=2)", got, m.Size, want)
	}
	m, err = AntiunifySet(f, sq1, mix)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Pattern.Format(true), "_0 * _1"; got != want {
		t.Errorf("inconsistent: got %q, want %q", got, want)
	}
	if len(m.Instances[0].Args) != 2 || m.Instances[0].Args[0] != x || m.Instances[0].Args[1] != x {
		t.Errorf("inconsistent: instance 0 args %v, want x twice", m.Instances[0].Args)
	}
}

// TestAntiunifyCommutative checks that two-operand commutative nodes are
// matched in the better order even when canonical order disagrees.
func TestAntiunifyCommutative(t *testing.T) {
	b := newBuilder("f")
	p, q := b.param("p", u8), b.param("q", u8)
	l1 := b.op("add", u8, b.op("xor", u8, p, q), b.op("umul", u8, p, q))
	l2 := b.op("add", u8, b.op("umul", u8, q, p), b.op("xor", u8, q, p))
	f := b.ret(b.op("tuple", TupleType(u8, u8), l1, l2))
	if got := Antiunify(l1, l2).Size(); got != 3 {
		t.Errorf("plain: k = %d, want 3", got)
	}
	m, err := AntiunifySet(f, l1, l2)
	if err != nil {
		t.Fatal(err)
	}
	if m.Size != 3 {
		t.Errorf("closed: k = %d (%s), want 3", m.Size, m.Pattern)
	}
}

// randomFunc builds a random dataflow graph over bits[8] with planted
// repeats: a few random templates (with internal reuse and literals),
// each instantiated several times on random earlier values, mixed with
// random single operations. Nodes without users are returned in a tuple.
func randomFunc(r *rand.Rand, size int) *Function {
	b := newBuilder("rand")
	var vals []*Node
	for i := range 3 + r.IntN(3) {
		vals = append(vals, b.param(string(rune('a'+i)), u8))
	}
	ops := []string{"add", "sub", "umul", "xor", "and", "or"}
	type tnode struct {
		op   string
		args []int // < 0: input -1-i; else earlier template node
		lit  uint64
	}
	var templates [][]tnode
	for range 2 + r.IntN(3) {
		var tn []tnode
		k := 2 + r.IntN(5)
		for i := range k {
			pick := func() int {
				if i > 0 && r.IntN(3) > 0 {
					return r.IntN(i)
				}
				return -1 - r.IntN(3)
			}
			switch r.IntN(6) {
			case 0:
				tn = append(tn, tnode{op: "not", args: []int{pick()}})
			case 1:
				tn = append(tn, tnode{op: "shll", args: []int{pick()}, lit: uint64(1 + r.IntN(3))})
			default:
				tn = append(tn, tnode{op: ops[r.IntN(len(ops))], args: []int{pick(), pick()}})
			}
		}
		templates = append(templates, tn)
	}
	for len(b.f.Nodes) < size {
		if r.IntN(4) == 0 {
			x, y := vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]
			vals = append(vals, b.op(ops[r.IntN(len(ops))], u8, x, y))
			continue
		}
		tn := templates[r.IntN(len(templates))]
		in := [3]*Node{vals[r.IntN(len(vals))], vals[r.IntN(len(vals))], vals[r.IntN(len(vals))]}
		made := make([]*Node, len(tn))
		for i, t := range tn {
			arg := func(j int) *Node {
				if j < 0 {
					return in[-1-j]
				}
				return made[j]
			}
			switch {
			case t.op == "shll":
				made[i] = b.op("shll", u8, arg(t.args[0]), b.lit(8, t.lit))
			case len(t.args) == 1:
				made[i] = b.op(t.op, u8, arg(t.args[0]))
			default:
				made[i] = b.op(t.op, u8, arg(t.args[0]), arg(t.args[1]))
			}
		}
		vals = append(vals, made[len(made)-1])
	}
	used := map[*Node]bool{}
	for _, n := range b.f.Nodes {
		for _, o := range n.Operands {
			used[o] = true
		}
	}
	var outs []*Node
	var types []Type
	for _, n := range b.f.Nodes {
		if !used[n] && n.Op != "param" {
			outs = append(outs, n)
			types = append(types, n.Type)
		}
	}
	return b.ret(b.op("tuple", TupleType(types...), outs...))
}

// TestTableMatchesExtract checks, on random graphs, that the table's
// entries for every pair of nodes with one key equal what AntiunifySet
// computes for the pair: the plain closed weight when neither cone holds
// the other root, the collision-avoiding one always; and that the table's
// fast path for tree cones agrees with the general local step.
func TestTableMatchesExtract(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pairs := 0
	for it := range 60 {
		f := randomFunc(r, 20+r.IntN(60))
		Canonicalize(f)
		for _, obj := range []Objective{Nodes, Area} {
			a := analyze(f, obj, nil, nil)
			tb := newTable(a)
			st := newStepper(a, tb)
			for _, b := range tb.blocks {
				for i := range b.g() {
					for j := i + 1; j < b.g(); j++ {
						x, y := a.index[b.members[j]], a.index[b.members[i]]
						_, ca, _, _ := tb.entry(x, y)
						if !a.litMatch([]int32{x, y}) {
							if ca != 0 {
								t.Fatalf("pair %s %s: literals differ, table %d", a.nodes[x].RefName(), a.nodes[y].RefName(), ca)
							}
							continue
						}
						m, err := a.extract([]int32{x, y}, tb, st)
						if err != nil {
							t.Fatal(err)
						}
						if err := checkMatch(a, m); err != nil {
							t.Fatal(err)
						}
						w := int64(m.Size)
						if obj == Area {
							w = m.Area
						}
						if int64(ca) != w {
							t.Fatalf("graph %d (%v): pair %s %s: table %d, extract %d (%s)", it, obj, a.nodes[x].RefName(), a.nodes[y].RefName(), ca, w, m.Pattern)
						}
						// The general step gives the fast path's value.
						st.run([]int32{x, y})
						v, _ := st.value()
						if tv := tb.pairVal(x, y); int64(tv) != v {
							t.Fatalf("graph %d: pair %s %s: fast %d, step %d", it, a.nodes[x].RefName(), a.nodes[y].RefName(), tv, v)
						}
						pairs++
					}
				}
			}
		}
	}
	t.Logf("%d pairs checked", pairs)
}

// TestGroupsAreCliques checks the maintainers' remark that having a
// nonzero anti-unifier is transitive: under Nodes, any two distinct nodes
// of one key (other than invokes, which weigh 0) have a collision-avoiding
// anti-unifier of weight at least 1, so each group is a clique of the
// graph of nonzero weights.
func TestGroupsAreCliques(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 30 {
		f := randomFunc(r, 40+r.IntN(80))
		Canonicalize(f)
		a := analyze(f, Nodes, nil, nil)
		tb := newTable(a)
		for i := range a.nodes {
			for j := range i {
				x, y := int32(i), int32(j)
				if a.key[x] < 0 || a.key[x] != a.key[y] || a.uses[x] == 0 || a.uses[y] == 0 {
					continue
				}
				if _, ca, _, _ := tb.entry(x, y); ca < 1 {
					t.Fatalf("%s and %s: weight %d", a.nodes[x].RefName(), a.nodes[y].RefName(), ca)
				}
			}
		}
	}
}
