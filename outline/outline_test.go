package outline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// clonePackage copies p deeply (new nodes, same IDs), so a test can keep
// the original.
func clonePackage(p *Package) *Package {
	q := &Package{Name: p.Name, Top: p.Top}
	for _, f := range p.Funcs {
		m := map[*Node]*Node{}
		g := &Function{Name: f.Name, Pos: f.Pos, Attrs: slices.Clone(f.Attrs), Outlined: f.Outlined}
		for _, n := range f.Nodes {
			c := *n
			c.Operands = make([]*Node, len(n.Operands))
			for i, o := range n.Operands {
				c.Operands[i] = m[o]
			}
			c.Attrs = slices.Clone(n.Attrs)
			m[n] = &c
			g.Nodes = append(g.Nodes, &c)
		}
		for _, prm := range f.Params {
			g.Params = append(g.Params, m[prm])
		}
		g.Ret = m[f.Ret]
		q.Funcs = append(q.Funcs, g)
	}
	return q
}

// checkOutline runs the pass on a copy of p's function fn and checks
// what every run must satisfy: all functions pass Check, the values are
// the same on random inputs, each outlined
// function is invoked once per instance, Cost falls by at least the sum of
// what the report says was saved (and each step saved something), a
// second run changes nothing, and inlining gives back the original up to
// commutative operand order.
func checkOutline(t *testing.T, p *Package, fn string, opt Options) *Report {
	t.Helper()
	orig := clonePackage(p)
	q := clonePackage(p)
	rep, err := Outline(q, fn, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range q.Funcs {
		if err := f.Check(); err != nil {
			t.Fatal(err)
		}
	}
	// Same values, on random inputs (eval_test.go knows the operations
	// of the tests' graphs).
	r := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		args := make([]uint64, len(orig.Func(fn).Params))
		for i := range args {
			args[i] = r.Uint64()
		}
		want, err := eval(orig, orig.Func(fn), args)
		if err != nil {
			t.Fatal(err)
		}
		got, err := eval(q, q.Func(fn), args)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("outlined function computes %v, want %v", got, want)
		}
	}
	var saved int64
	for _, o := range rep.Funcs {
		if o.Saved <= 0 || o.Instances < 2 || o.Size < opt.minSize() {
			t.Errorf("%s: saved %d with n=%d k=%d", o.Name, o.Saved, o.Instances, o.Size)
		}
		saved += o.Saved
		calls := 0
		for _, n := range q.Func(fn).Nodes {
			if to, _ := n.Attr("to_apply"); n.Op == "invoke" && to == o.Name {
				calls++
			}
		}
		if calls != o.Instances && len(rep.Funcs) == 1 {
			t.Errorf("%s: %d invokes, %d instances", o.Name, calls, o.Instances)
		}
	}
	if rep.CostBefore-rep.CostAfter < saved {
		t.Errorf("cost %d -> %d, but the report saved %d", rep.CostBefore, rep.CostAfter, saved)
	}
	// No two outlined functions have one body (issue 18), under either
	// objective.
	checkBodies(t, q)
	// Idempotent (unless a budget stopped the pass).
	again := clonePackage(q)
	rep2, err := Outline(again, fn, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Stopped && (len(rep2.Funcs) != 0 || !StructurallyEqual(again.Func(fn), q.Func(fn))) {
		t.Errorf("second run outlined %d more functions", len(rep2.Funcs))
	}
	// Inline restores the original.
	if err := Inline(q); err != nil {
		t.Fatal(err)
	}
	// Inline inlines every outlined function, those of the input too.
	user := func(p *Package) (n int) {
		for _, f := range p.Funcs {
			if !f.Outlined {
				n++
			}
		}
		return n
	}
	if len(q.Funcs) != user(orig) {
		t.Errorf("after Inline: %d functions, want %d", len(q.Funcs), user(orig))
	}
	got, want := q.Func(fn), orig.Func(fn)
	Canonicalize(got)
	Canonicalize(want)
	if !StructurallyEqual(got, want) {
		t.Errorf("inline(outline(f)) differs from f")
	}
	return rep
}

// checkBodies fails the test if two functions that Outline created in p
// have identical bodies (bodyText: the same operations, types,
// attributes and wiring).
func checkBodies(t *testing.T, p *Package) {
	t.Helper()
	bodies := map[string]string{}
	for _, f := range p.Funcs {
		if !f.Outlined {
			continue
		}
		if prev, ok := bodies[bodyText(f)]; ok {
			t.Errorf("functions %s and %s have one body:\n%s", prev, f.Name, bodyText(f))
		}
		bodies[bodyText(f)] = f.Name
	}
}

func TestOutlineIssueChain(t *testing.T) {
	// Three copies of a + b*c chained: the collision-avoiding pattern
	// _ + _ * _ (k = 2) is below the default minimum size; with MinSize 2
	// all three are outlined (they are disjoint).
	f, _, _ := issueChain()
	p := &Package{Name: "p", Funcs: []*Function{f}, Top: f.Name}
	if rep := checkOutline(t, p, "f", Options{}); len(rep.Funcs) != 0 {
		t.Errorf("outlined %v with k < 3", rep.Funcs)
	}
	rep := checkOutline(t, p, "f", Options{MinSize: 2})
	if len(rep.Funcs) != 1 || rep.Funcs[0].Instances != 3 || rep.Funcs[0].Pattern != "_ + _ * _" {
		t.Errorf("got %+v, want one function _ + _ * _ with 3 instances", rep.Funcs)
	}
}

func TestOutlineRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	funcs := 0
	for it := range 40 {
		f := randomFunc(r, 30+r.IntN(120))
		p := &Package{Name: "p", Funcs: []*Function{f}, Top: f.Name}
		for _, opt := range []Options{{}, {Exact: true}, {Objective: Area}, {MinSize: 2}} {
			t.Run(fmt.Sprintf("%d/%v/%v/%d", it, opt.Objective, opt.Exact, opt.MinSize), func(t *testing.T) {
				rep := checkOutline(t, p, "rand", opt)
				funcs += len(rep.Funcs)
			})
		}
	}
	t.Logf("%d functions outlined", funcs)
}

func TestOutlineARX(t *testing.T) {
	rep := checkOutline(t, ARX(24), "sha", Options{})
	for _, o := range rep.Funcs {
		t.Logf("%s n=%d k=%d saved=%d: %s", o.Name, o.Instances, o.Size, o.Saved, o.Pattern)
	}
	if len(rep.Funcs) == 0 {
		t.Errorf("nothing outlined")
	}
	// Under Area, the table finds nothing that pays in SHA-256's rounds
	// (their adders are as wide as the multiplexers their inputs would
	// need); the cone miner finds exact repeats whose area exceeds their
	// multiplexers: the rotations of one input (Σ0, Σ1, constant shifts
	// are wiring) and the message schedule's σ sums. checkOutline checks
	// that the cost falls by what each saves.
	for _, o := range checkOutline(t, ARX(24), "sha", Options{Objective: Area}).Funcs {
		if o.Saved <= 0 || o.Area <= o.MuxBits {
			t.Errorf("area: outlined %+v", o)
		}
	}
}

// complexMuls builds n complex products (ar*br - ai*bi, ar*bi + ai*br) of
// bits[32] parameters, chained: each product's real part is the next
// one's ar. Under Area, sharing the multipliers pays.
func complexMuls(n int) *Package {
	u32 := BitsType(32)
	b := newBuilder("cmul")
	var ps []*Node
	for i := range 3*n + 1 {
		ps = append(ps, b.param(fmt.Sprintf("p%d", i), u32))
	}
	var outs []*Node
	ar := ps[0]
	for i := range n {
		ai, br, bi := ps[3*i+1], ps[3*i+2], ps[3*i+3]
		re := b.op("sub", u32, b.op("umul", u32, ar, br), b.op("umul", u32, ai, bi))
		im := b.op("add", u32, b.op("umul", u32, ar, bi), b.op("umul", u32, ai, br))
		outs = append(outs, im)
		ar = re
	}
	outs = append(outs, ar)
	types := make([]Type, len(outs))
	for i := range types {
		types[i] = u32
	}
	f := b.ret(b.op("tuple", TupleType(types...), outs...))
	return &Package{Name: "c", Funcs: []*Function{f}, Top: f.Name}
}

func TestOutlineArea(t *testing.T) {
	rep := checkOutline(t, complexMuls(6), "cmul", Options{Objective: Area})
	for _, o := range rep.Funcs {
		t.Logf("%s n=%d k=%d area=%d mux=%d saved=%d: %s", o.Name, o.Instances, o.Size, o.Area, o.MuxBits, o.Saved, o.Pattern)
	}
	if len(rep.Funcs) == 0 || rep.CostAfter >= rep.CostBefore {
		t.Errorf("area: outlined %v, cost %d -> %d", rep.Funcs, rep.CostBefore, rep.CostAfter)
	}
}

// TestTableIncremental checks that the table the pass updates between
// steps, outlining, bundling and unbundling as Outline does, equals the
// table computed from scratch.
func TestTableIncremental(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(p *Package, fn string, obj Objective) {
		f := p.Func(fn)
		keys := newKeyTable()
		seeds := canonicalize(f)
		var tbl *table
		var bs *bundles
		outlined := false // while bundled
		for range 8 {
			a := analyze(f, obj, keys, bs)
			if tbl == nil {
				tbl = buildTable(a, nil, nil)
			} else {
				tbl = buildTable(a, tbl, affected(a, seeds))
			}
			fresh := buildTable(a, nil, nil)
			for i := range a.nodes {
				for j := range a.nodes {
					if i == j || tbl.blk[i] < 0 || a.key[i] != a.key[j] || tbl.blk[i] != tbl.blk[j] || fresh.blk[i] != fresh.blk[j] {
						continue
					}
					v1, c1, m1, cm1 := tbl.entry(int32(i), int32(j))
					v2, c2, m2, cm2 := fresh.entry(int32(i), int32(j))
					if v1 != v2 || c1 != c2 || m1 != m2 || cm1 != cm2 {
						t.Fatalf("%s: pair %s %s: incremental %d/%d/%d/%d, fresh %d/%d/%d/%d", fn, a.nodes[i].RefName(), a.nodes[j].RefName(), v1, c1, m1, cm1, v2, c2, m2, cm2)
					}
				}
			}
			rep := &Report{}
			m, _, err := choose(tbl, Options{Objective: obj}, rep)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case m == nil && bs == nil:
				if bs, seeds = bundle(p, f, a); bs == nil {
					return
				}
				outlined = false
			case m == nil:
				seeds = append(unbundle(f, bs), canonicalize(f)...)
				bs = nil
				if !outlined {
					return
				}
			default:
				_, _, invs, err := apply(p, f, []*Match{m}, map[string]string{})
				invokes := invs[0]
				if err != nil {
					t.Fatal(err)
				}
				seeds = append(canonicalize(f), invokes...)
				outlined = true
			}
		}
	}
	for range 20 {
		f := randomFunc(r, 60+r.IntN(100))
		check(&Package{Funcs: []*Function{f}}, f.Name, Nodes)
		f = randomFunc(r, 60+r.IntN(100))
		check(&Package{Funcs: []*Function{f}}, f.Name, Area)
	}
	check(ARX(20), "sha", Nodes)
	check(sortNet(), "sort8", Nodes)
	check(sortNet(), "sort8", Area)
}

// TestOutlineBigGroup checks a group of equal keys larger than a dense
// block (maxGroup): 2100 copies of (p ^ q) + r. The table matches pairs
// across blocks at the root only, and would outline each block on its
// own, two functions with one body; the cone miner outlines all 2100
// copies into one function (issue 18).
func TestOutlineBigGroup(t *testing.T) {
	b := newBuilder("big")
	var ps []*Node
	for i := range 8 {
		ps = append(ps, b.param(fmt.Sprintf("p%d", i), u8))
	}
	var outs []*Node
	const n = maxGroup + 52
	for i := range n {
		x := b.op("xor", u8, ps[i%8], ps[(i+1)%8])
		outs = append(outs, b.op("add", u8, x, ps[(i+3)%8]))
	}
	types := make([]Type, n)
	for i := range types {
		types[i] = u8
	}
	f := b.ret(b.op("tuple", TupleType(types...), outs...))
	p := &Package{Name: "p", Funcs: []*Function{f}, Top: f.Name}
	rep := checkOutline(t, p, "big", Options{MinSize: 2})
	if len(rep.Funcs) != 1 || rep.Funcs[0].Instances != n {
		t.Errorf("got %+v, want one function with %d instances", rep.Funcs, n)
	}
}

// chainHash builds h_{i+1} = (h_i ^ m_i) + K_i over bits[32] for the given
// rounds: each state is used once, so every earlier round lies in the
// fanout-free cone of every later state, and the anti-unifier of two
// states must stop where one instance would reach the other's root.
func chainHash(rounds int) *Package {
	u32 := BitsType(32)
	b := newBuilder("chain")
	h := b.param("h", u32)
	var ms []*Node
	for i := range rounds {
		ms = append(ms, b.param(fmt.Sprintf("m%d", i), u32))
	}
	for i := range rounds {
		h = b.op("add", u32, b.op("xor", u32, h, ms[i]), b.lit(32, uint64(i%5)))
	}
	f := b.ret(h)
	return &Package{Name: "c", Funcs: []*Function{f}, Top: f.Name}
}

func TestOutlineChain(t *testing.T) {
	// Every pair of states: the table's collision-avoiding weight equals
	// the anti-unifier of the pair (walks shorter than maxWalk).
	p := chainHash(30)
	f := p.Funcs[0]
	a := analyze(f, Nodes, nil, nil)
	tb := newTable(a)
	st := newStepper(a, tb)
	for i := range a.nodes {
		for j := range i {
			x, y := int32(i), int32(j)
			if a.key[x] < 0 || a.key[x] != a.key[y] {
				continue
			}
			m, err := a.extract([]int32{x, y}, tb, st)
			if err != nil {
				t.Fatal(err)
			}
			if _, ca, _, _ := tb.entry(x, y); int(ca) != m.Size {
				t.Fatalf("pair %s %s: table %d, extract %d (%s)", a.nodes[x].RefName(), a.nodes[y].RefName(), ca, m.Size, m.Pattern)
			}
		}
	}
	// The pass: with 100 rounds some walks are cut (maxWalk).
	for _, n := range []int{30, 100} {
		rep := checkOutline(t, chainHash(n), "chain", Options{MinSize: 2})
		for _, o := range rep.Funcs {
			t.Logf("%d rounds: %s n=%d k=%d saved=%d: %s", n, o.Name, o.Instances, o.Size, o.Saved, o.Pattern)
		}
		if len(rep.Funcs) == 0 {
			t.Errorf("%d rounds: nothing outlined", n)
		}
	}
}

// sortNet builds Batcher's odd-even merge sort of eight bytes, as in
// xls/testdata/sortnet.ir: 19 compare-exchange stages lt = ult(b, a),
// lo = sel(lt, a, b), hi = sel(lt, b, a), each a pattern with two outputs
// sharing lt.
func sortNet() *Package {
	u8 := BitsType(8)
	b := newBuilder("sort8")
	var x [8]*Node
	for i := range x {
		x[i] = b.param(fmt.Sprintf("a%d", i), u8)
	}
	stages := [19][2]int{{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {1, 2}, {5, 6},
		{0, 4}, {1, 5}, {2, 6}, {3, 7}, {2, 4}, {3, 5}, {1, 2}, {3, 4}, {5, 6}}
	for _, s := range stages {
		lo, hi := x[s[0]], x[s[1]]
		lt := b.op("ult", BitsType(1), hi, lo)
		x[s[0]] = b.op("sel", u8, lt, lo, hi)
		x[s[1]] = b.op("sel", u8, lt, hi, lo)
	}
	f := b.ret(b.op("array", ArrayType(u8, 8), x[:]...))
	return &Package{Name: "sortnet", Funcs: []*Function{f}, Top: f.Name}
}

// TestOutlineSortNet checks the multi-output compare-exchange of a
// sorting network (bundle.go): under Nodes one function with 19
// instances of k = 3 (ult and two sels; the tuple that bundles them
// counts 0), and nothing below the minimum size, where bundling must
// leave the function as it was.
func TestOutlineSortNet(t *testing.T) {
	rep := checkOutline(t, sortNet(), "sort8", Options{})
	if len(rep.Funcs) != 1 || rep.Funcs[0].Instances != 19 || rep.Funcs[0].Size != 3 {
		t.Fatalf("got %+v, want one function with n = 19, k = 3", rep.Funcs)
	}
	if got := rep.CostBefore - rep.CostAfter; got != 18*3 {
		t.Errorf("cost %d -> %d, want a saving of 54", rep.CostBefore, rep.CostAfter)
	}
	// Stopped by MaxFuncs while bundled: the bundles go all the same.
	if rep := checkOutline(t, sortNet(), "sort8", Options{MaxFuncs: 1}); len(rep.Funcs) != 1 {
		t.Errorf("MaxFuncs 1: got %+v", rep.Funcs)
	}
	p := sortNet()
	want := clonePackage(p)
	Canonicalize(want.Funcs[0])
	rep = checkOutline(t, p, "sort8", Options{MinSize: 4})
	q := clonePackage(p)
	if _, err := Outline(q, "sort8", Options{MinSize: 4}); err != nil {
		t.Fatal(err)
	}
	if len(rep.Funcs) != 0 || !identical(q.Funcs[0], want.Funcs[0]) {
		t.Errorf("with k = 3 below the minimum: outlined %+v, or the function changed", rep.Funcs)
	}
}

// identical reports whether f and g have the same nodes, by ID, in the
// same order, with the same operations and operands.
func identical(f, g *Function) bool {
	if len(f.Nodes) != len(g.Nodes) || f.Ret.ID != g.Ret.ID {
		return false
	}
	for i, x := range f.Nodes {
		y := g.Nodes[i]
		if x.ID != y.ID || x.Label() != y.Label() || len(x.Operands) != len(y.Operands) {
			return false
		}
		for j, o := range x.Operands {
			if o.ID != y.Operands[j].ID {
				return false
			}
		}
	}
	return true
}

// TestClone: a clone is StructurallyEqual to its package, and outlining
// the clone leaves the package as it was.
func TestClone(t *testing.T) {
	p, _ := Planted(PlantSpec{Seed: 2, Size: 6, Copies: 8, Nodes: 300, FanOut: true})
	q := p.Clone()
	keep := clonePackage(p)
	if !StructurallyEqual(q.Funcs[0], p.Funcs[0]) {
		t.Fatal("clone differs")
	}
	rep, err := Outline(q, "planted", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Funcs) == 0 || len(q.Funcs) == len(p.Funcs) {
		t.Fatalf("nothing outlined in the clone")
	}
	if !StructurallyEqual(p.Funcs[0], keep.Funcs[0]) || len(p.Funcs) != 1 {
		t.Errorf("outlining the clone changed the package")
	}
}
