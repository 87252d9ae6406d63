package sched

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"nestor/ir"
)

// TestRandomLayouts lays every corpus kernel's schedule out by Decide's
// layouts (which must give what ApplyPlan gives) and by random ones: any
// order and tiling of a band, a wavefront of its tiles, a parallel loop
// sunk innermost. Each result must pass ir.Check and compute bit for bit
// what the original computes under the interpreter.
func TestRandomLayouts(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("found %d kernels", len(ks))
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for _, k := range ks {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			p, g := analyzed(t, k, nil, "MINI_DATASET")
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Skip(err) // kernels the scheduler leaves alone
			}
			plan := Plan{Tile: true, Reorder: true, Wavefront: true, Machine: Plan{}.machine()}
			lays, err := Decide(p, sc, plan)
			if err != nil {
				t.Fatal(err)
			}
			want, wantInfo, err := ApplyPlan(p, sc, plan)
			if err != nil {
				t.Fatal(err)
			}
			got, gotInfo, err := ApplyLayouts(p, sc, lays)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotInfo, wantInfo) {
				t.Fatal("ApplyLayouts of Decide's layouts differs from ApplyPlan")
			}
			params := make([]int64, len(p.Params))
			for i := range params {
				params[i] = 4 - int64(i%2) // within every MINI array size
			}
			for range 4 {
				r := randomLayouts(rng, sc, lays)
				q, _, err := ApplyLayouts(p, sc, r)
				if err != nil {
					t.Fatalf("%+v: %v", r, err)
				}
				if err := ir.Check(q); err != nil {
					t.Fatalf("%+v: %v", r, err)
				}
				runBoth(t, p, q, params)
			}
		})
	}
}

// randomLayouts returns layouts of the groups of lays with random orders,
// tiles, sizes and wavefronts, and sometimes a loop that carries no
// dependence sunk innermost.
func randomLayouts(rng *rand.Rand, sc *Schedule, lays []Layout) []Layout {
	out := make([]Layout, len(lays))
	var free [][2]int // (group, dim) pairs that may sink
	for gi, l := range lays {
		n := len(l.Dims)
		r := Layout{Dims: l.Dims, Band: l.Band, Order: rng.Perm(n), Sink: -1}
		if n > 1 && rng.IntN(2) == 0 {
			r.Tile, r.Tiles = true, rng.Perm(n)
			for range n {
				r.Sizes = append(r.Sizes, []int64{1, 2, 3, 5}[rng.IntN(4)])
			}
			r.Wavefront = rng.IntN(3) == 0
		}
		for k, d := range l.Dims {
			if sc.Coincident[d].All {
				free = append(free, [2]int{gi, k})
			}
		}
		out[gi] = r
	}
	if len(free) > 0 && rng.IntN(3) == 0 {
		f := free[rng.IntN(len(free))]
		out[f[0]].Sink = f[1]
	}
	return out
}

// TestLayoutCheck: ApplyLayouts refuses layouts that are not layouts of
// the schedule's groups, with the reason.
func TestLayoutCheck(t *testing.T) {
	p, g := analyzed(t, "gemm.c", []byte(`void k(int n, double C[n][n], double A[n][n], double B[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
`))
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lays, err := Decide(p, sc, Plan{Tile: true, Reorder: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		why  string
		edit func(l []Layout) []Layout
	}{
		{"layouts for", func(l []Layout) []Layout { return append(l, l[0]) }},
		{"not a permutation", func(l []Layout) []Layout { l[0].Order = []int{0, 0, 1}; return l }},
		{"positive size", func(l []Layout) []Layout {
			l[0].Tile, l[0].Tiles, l[0].Sizes = true, []int{0, 1, 2}, []int64{4, 0, 4}
			return l
		}},
		{"needs tiles", func(l []Layout) []Layout { l[0].Tile, l[0].Wavefront = false, true; return l }},
		{"carries no dependence", func(l []Layout) []Layout {
			l[0].Sink = slices.IndexFunc(l[0].Dims, func(d int) bool { return !sc.Coincident[d].All })
			return l
		}},
	} {
		edited := c.edit(slices.Clone(lays))
		if _, _, err := ApplyLayouts(p, sc, edited); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%s: got %v", c.why, err)
		}
	}
}

// TestMarksText prints marks and reads them back, and refuses what is not
// a mark.
func TestMarksText(t *testing.T) {
	for _, m := range []Marks{
		{},
		{Parallel: true},
		{Parallel: true, NoSIMD: true, Rfactor: true, Pack: true, Jam: [2]int64{6, 4}, Unroll: 8},
		{Jam: [2]int64{1, 1}},
		{Unroll: 2, Pack: true},
	} {
		back, err := ParseMarks(m.String())
		if err != nil || back != m {
			t.Errorf("%+v printed %q, read back %+v (%v)", m, m.String(), back, err)
		}
	}
	for _, bad := range []string{"paralel", "jam=4", "jam=ax2", "unroll=-1", "jam=-1x2", "unroll"} {
		if _, err := ParseMarks(bad); err == nil {
			t.Errorf("ParseMarks(%q) accepted it", bad)
		}
	}
}

// TestBandMarks: a band's BandPlan overrides the plan's marks for that
// band's loops only, and the marks reach LoopInfo.
func TestBandMarks(t *testing.T) {
	p, g := analyzed(t, "../testdata/kernels/gramschmidt.c", nil, "MINI_DATASET")
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	def := Marks{Parallel: true, Jam: [2]int64{4, 2}}
	plan := Plan{Tile: true, Reorder: true, Marks: def, Bands: []BandPlan{{Parallel: No, SIMD: No, Jam: [2]int64{1, 1}, Unroll: 4}}}
	_, loops, err := ApplyPlan(p, sc, plan)
	if err != nil {
		t.Fatal(err)
	}
	want1 := Marks{NoSIMD: true, Jam: [2]int64{1, 1}, Unroll: 4}
	seen := map[int]bool{}
	for level, li := range loops {
		want := def
		if li.Band == 1 {
			want = want1
		}
		if li.Marks != want {
			t.Errorf("loop %d (band %d): marks %v, want %v", level, li.Band, li.Marks, want)
		}
		seen[li.Band] = true
	}
	if !seen[1] || len(seen) < 2 {
		t.Fatalf("gramschmidt's loops lie in bands %v: the test needs band 1 and another group", seen)
	}
	bad := Layout{Marks: Marks{Unroll: -2}}
	if lays, err := Decide(p, sc, plan); err == nil {
		lays[0].Marks = bad.Marks
		if _, _, err := ApplyLayouts(p, sc, lays); err == nil {
			t.Error("a negative unroll factor was accepted")
		}
	}
}
