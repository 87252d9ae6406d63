package tune

import (
	"testing"

	"nestor/frontend"
)

// TestSweeps: gemm's i loop reads all of B in every iteration (its body
// holds the k–j nest beside the beta loop, so no original order jams it);
// a perfect i–j–k nest, which codegen may unroll and jam, and a triangle
// (the inner ranges move with i) give no sweep.
func TestSweeps(t *testing.T) {
	c := gemmCost(t)
	if len(c.Sweeps) != 1 {
		t.Fatalf("gemm MINI: sweeps %+v, want one (S1 in i)", c.Sweeps)
	}
	if s := c.Sweeps[0]; s.Loop != "S1 in i" || s.Bytes != 30*25*8 || s.Windows != 20 {
		t.Errorf("gemm MINI: sweep %+v, want S1 in i reading B (30×25 doubles) in each of 20 iterations", s)
	}
	for name, src := range map[string]string{
		"perfect": `void f(int n, double c[100][100], double a[100][100], double b[100][100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        c[i][j] += a[i][k] * b[k][j];
#pragma endscop
}
`,
		"triangle": `void f(int n, double c[100][100], double a[100][100], double b[100][100]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      c[i][j] *= 2.0;
    for (int j = 0; j < n; j++)
      for (int k = 0; k <= i; k++)
        c[i][j] += a[i][k] * b[k][j];
  }
#pragma endscop
}
`,
	} {
		f, err := frontend.Parse(name+".c", []byte(src), frontend.Config{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := CostOf(f.Scops[0].Prog, []int64{100})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Sweeps) != 0 {
			t.Errorf("%s: sweeps %+v, want none", name, c.Sweeps)
		}
	}
}

// TestCapacityBound: a candidate that can still be scheduled or packed
// has no capacity term; one kept in the sequential original order without
// packing has ⌈20/1⌉ iterations each bringing B's 6000 bytes less the
// cache's into the cache, at the fill bandwidth; with two threads, half
// the iterations and twice the cache.
func TestCapacityBound(t *testing.T) {
	r := region(t, "gemm")
	c := gemmCost(t)
	m := Machine{Threads: 2, PeakOps: 1e30, Fill: Fill{Capacity: 1000, Bandwidth: 1e6}}
	d, _ := r.Space.NewDomains()
	if b := r.Bound(d, m, c); b > 1e-9 {
		t.Errorf("open candidate: bound %v, want the arithmetic's alone, about 0 (the schedule and packing remain possible)", b)
	}
	sp := r.Space
	if !d.Restrict(r.order, sp.set(r.order, "original")) {
		t.Fatal("order=original is a dead end")
	}
	if b := r.Bound(d, m, c); b > 1e-9 {
		t.Errorf("original order, packing open: bound %v, want about 0", b)
	}
	mark := d.Mark()
	// Left to the rule, which packs (Options.Pack), packing stays possible.
	if !r.Opt.Pack {
		t.Fatal("the default options do not pack")
	}
	if !d.Restrict(r.pack, sp.set(r.pack, "-")) {
		t.Fatal("pack=- is a dead end")
	}
	if b := r.Bound(d, m, c); b > 1e-9 {
		t.Errorf("original order, packing left to the rule: bound %v, want about 0", b)
	}
	d.Undo(mark)
	if !d.Restrict(r.pack, sp.set(r.pack, "no")) {
		t.Fatal("pack=no is a dead end")
	}
	if b, want := r.Bound(d, m, c), 20*float64(6000-1000)/1e6; b != want {
		t.Errorf("original order, no packing: bound %v, want %v", b, want)
	}
	d.Undo(mark)
	if !r.origPar {
		t.Fatal("gemm's original order has no parallel loop")
	}
	d2, _ := r.Space.NewDomains()
	for _, lit := range []Lit{{r.order, sp.set(r.order, "original-parallel")}, {r.pack, sp.set(r.pack, "no")}, {r.rfactor, sp.set(r.rfactor, "no")}} {
		if !d2.Restrict(lit.C, lit.Set) {
			t.Fatal("dead end")
		}
	}
	if b, want := r.Bound(d2, m, c), 10*float64(6000-2000)/1e6; b != want {
		t.Errorf("original order with its parallel loops: bound %v, want %v", b, want)
	}
}
