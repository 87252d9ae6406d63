package tune

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/pipeline"
	"nestor/sched"
)

// region parses kernel name of the corpus at MINI size and builds the
// space of its first region.
func region(t *testing.T, name string) *Region {
	t.Helper()
	f, err := frontend.ParseFile("../testdata/kernels/"+name+".c", frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewRegion(f, 0, pipeline.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// randomComplete fixes the open choices of d one by one to random values
// of their domains, propagating; false at a dead end.
func randomComplete(d *Domains, rng *rand.Rand) bool {
	for c := range d.sp.Choices {
		if _, ok := d.Fixed(c); ok {
			continue
		}
		var vals []int
		for v := range d.sp.Choices[c].Values {
			if d.Dom(c)&(1<<v) != 0 {
				vals = append(vals, v)
			}
		}
		if !d.Restrict(c, 1<<vals[rng.IntN(len(vals))]) {
			return false
		}
	}
	return true
}

// TestOrderPairs checks the order choices of gemm's band: propagation
// closes them transitively, every complete candidate orders the band's
// loops as a permutation, and Undo restores the domains.
func TestOrderPairs(t *testing.T) {
	r := region(t, "gemm")
	sp := r.Space
	d, ok := sp.NewDomains()
	if !ok {
		t.Fatal("no candidate")
	}
	before := d.String()
	mark := d.Mark()
	ij, jk, ik := sp.lookup("smart.b1.i<j"), sp.lookup("smart.b1.j<k"), sp.lookup("smart.b1.i<k")
	if ij < 0 || jk < 0 || ik < 0 {
		t.Fatalf("gemm's band has no order pairs i<j, j<k, i<k:\n%s", sp)
	}
	if !d.Restrict(ij, sp.set(ij, "before")) || !d.Restrict(jk, sp.set(jk, "before")) {
		t.Fatal("dead end after i before j, j before k")
	}
	if got := d.Value(ik); got != "before" {
		t.Errorf("i before j before k: i<k is %q, want before (transitivity)", got)
	}
	// The pairs are relevant: the order is the schedule's.
	if got := d.Value(r.order); got != "schedule" {
		t.Errorf("fixing a band's order left order = %q, want schedule", got)
	}
	d.Undo(mark)
	if after := d.String(); after != before {
		t.Errorf("Undo did not restore the domains:\n%s\nwant\n%s", after, before)
	}
	// A cycle is a dead end.
	if d.Restrict(ij, sp.set(ij, "before")) && d.Restrict(jk, sp.set(jk, "before")) && d.Restrict(ik, sp.set(ik, "after")) {
		t.Error("i before j before k before i was accepted")
	}
	d.Undo(mark)

	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		d.Undo(mark)
		if !randomComplete(d, rng) {
			t.Fatal("a random descent met a dead end: the constraints should only fix irrelevant choices")
		}
		dec := r.Decisions(d)
		if d.Value(r.order) != "schedule" {
			if len(dec.Bands) != 0 {
				t.Errorf("order %s with band decisions %v", d.Value(r.order), dec.Bands)
			}
			continue
		}
		for _, b := range dec.Bands {
			if !sched.ValidOrder(b.Order, 3) {
				t.Fatalf("band order %v is not a permutation of gemm's 3 loops:\n%s", b.Order, d)
			}
		}
	}
}

// TestRecordsApply checks that a complete candidate's record reproduces
// its decisions through Apply.
func TestRecordsApply(t *testing.T) {
	r := region(t, "2mm")
	d, _ := r.Space.NewDomains()
	rng := rand.New(rand.NewPCG(3, 4))
	mark := d.Mark()
	for range 50 {
		d.Undo(mark)
		if !randomComplete(d, rng) {
			t.Fatal("dead end")
		}
		rec := &Record{Decisions: d.Assignment()}
		got, err := r.Apply(rec)
		if err != nil {
			t.Fatal(err)
		}
		want := r.Decisions(d)
		if got.Order != want.Order || got.Fusion != want.Fusion || got.Parallel != want.Parallel || got.Rfactor != want.Rfactor || got.Pack != want.Pack ||
			!slices.EqualFunc(got.Bands, want.Bands, func(a, b sched.BandPlan) bool {
				return slices.Equal(a.Order, b.Order) && a.Tile == b.Tile && slices.Equal(a.Sizes, b.Sizes) && a.Wavefront == b.Wavefront && a.Jam == b.Jam
			}) {
			t.Fatalf("Apply(record) = %+v, want %+v", got, want)
		}
	}
}

// gemmCost returns CostOf gemm's region at MINI sizes.
func gemmCost(t *testing.T) Cost {
	t.Helper()
	p := region(t, "gemm").File.Scops[0].Prog
	sizes := map[string]int64{"ni": 20, "nj": 25, "nk": 30} // MINI
	params := make([]int64, len(p.Params))
	for k, q := range p.Params {
		params[k] = sizes[q.Name]
	}
	c, err := CostOf(p, params)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCostBytes checks the data lower bound on gemm: every array is
// touched whole (C[i][j] is injective in C *= beta; A[i][k] and B[k][j]
// leave out a counter whose range is separable).
func TestCostBytes(t *testing.T) {
	c := gemmCost(t)
	if want := int64(20*25+20*30+30*25+2) * 8; c.Bytes != want { // and alpha, beta
		t.Errorf("gemm MINI: %d bytes touched at least, want %d (C, A, B whole, alpha and beta)", c.Bytes, want)
	}
}

// TestPackChoice: a region with a matrix product alone in its loops
// offers the pack choice (default: the option's value), one without
// does not; setting it reaches the pipeline's decisions.
func TestPackChoice(t *testing.T) {
	r := region(t, "gemm")
	c := r.Space.lookup("pack")
	if c < 0 {
		t.Fatal("gemm offers no pack choice")
	}
	if v, want := r.Space.Choices[c].Values[r.Space.Choices[c].Default], map[bool]string{true: "yes", false: "no"}[r.Opt.Pack]; v != want {
		t.Errorf("pack defaults to %q, want %q (Options.Pack is %v)", v, want, r.Opt.Pack)
	}
	d, _ := r.Space.NewDomains()
	if !d.Restrict(c, r.Space.set(c, "yes")) {
		t.Fatal("pack=yes is a dead end")
	}
	if got := r.Decisions(d).Pack; got != sched.Yes {
		t.Errorf("pack=yes gives Decisions.Pack %v", got)
	}
	if region(t, "atax").Space.lookup("pack") >= 0 {
		t.Error("atax, which has no matrix product, offers pack")
	}
}

// TestCostOps checks the arithmetic lower bound on gemm: C *= beta once
// per element of C, alpha*A[i][k] once per (i, k) (a compiler hoists it
// out of the j loop), the product with B[k][j] and the += once per
// instance. Counting every operation of every instance, as the bound
// did, gives 45500 at MINI and exceeded the time of a compiled gemm.
func TestCostOps(t *testing.T) {
	c := gemmCost(t)
	if want := float64(20*25 + 20*30 + 2*20*25*30); c.Ops != want {
		t.Errorf("gemm MINI: %v operations at least, want %v", c.Ops, want)
	}
}

// TestCostOpsShared: two statements of one loop computing the same
// product over the same arrays share it (a compiler's common
// subexpression), and a product of the counter with a loop-invariant
// element counts once per value of the counter.
func TestCostOpsShared(t *testing.T) {
	src := `void f(int n, double a[100][100], double x[100], double y[100], double z[100]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      y[i] = y[i] + a[i][j] * x[j];
      z[i] = z[i] + a[i][j] * x[j] + i * x[0];
    }
#pragma endscop
}
`
	f, err := frontend.Parse("shared.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	c, err := CostOf(p, []int64{10})
	if err != nil {
		t.Fatal(err)
	}
	// a*x: 100 (shared); y+..: 100; z+..: 100; (z+a*x)+i*x[0]: 100;
	// i*x[0]: 10 (once per i; the int i converted to double counts as
	// the product's operand, not an operation).
	if want := float64(100 + 100 + 100 + 100 + 10); c.Ops != want {
		t.Errorf("%v operations at least, want %v", c.Ops, want)
	}
}

// TestCandidatesGenerate draws random complete candidates of every corpus
// kernel at MINI size and generates each one's code: every point of a
// space must be one code generation can write (a team's clause once asked
// for a count that read a counter outside it, trisolve-0based with
// fork-once).
func TestCandidatesGenerate(t *testing.T) {
	kernels, err := filepath.Glob("../testdata/kernels/*.c")
	if err != nil || len(kernels) == 0 {
		t.Fatalf("no corpus kernels: %v", err)
	}
	draws := 12
	if testing.Short() {
		draws = 3
	}
	for _, path := range kernels {
		name := strings.TrimSuffix(filepath.Base(path), ".c")
		t.Run(name, func(t *testing.T) {
			r := region(t, name)
			d, ok := r.Space.NewDomains()
			if !ok {
				t.Fatal("the space has no candidate")
			}
			mark := d.Mark()
			rng := rand.New(rand.NewPCG(11, uint64(len(name))))
			for range draws {
				d.Undo(mark)
				if !randomComplete(d, rng) {
					t.Fatal("dead end")
				}
				opt := r.Opt
				opt.Decide = []pipeline.Decisions{r.Decisions(d)}
				if _, err := pipeline.Optimize(r.File, opt); err != nil {
					t.Errorf("%s: %v", Describe(d.Assignment()), err)
				}
			}
		})
	}
}
