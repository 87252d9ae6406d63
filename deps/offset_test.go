package deps

import (
	"slices"
	"testing"
)

// The shifts of the note's two trisolve forms: the 1-based one moves every
// counter by -1 (A[i-1][k-1] becomes A[i'][k']), the 0-based one moves k by
// +1 in the update (A[i][k+j+1] becomes A[i][k'+j]) and nothing else.
func TestCanonicalizeTrisolve(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		want   [][]int64
	}{
		{"trisolve-1based", [][]int64{{-1, -1}, {-1, -1}, {-1, -1, -1}}},
		{"trisolve-0based", [][]int64{{0, 0}, {0, 0}, {0, 0, 1}}},
		{"gemm", [][]int64{{0, 0}, {0, 0, 0}}},
	} {
		p := parse(t, "../testdata/kernels/"+tc.kernel+".c")
		got := Canonicalize(p).Delta
		if !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%s: shifts %v, want %v", tc.kernel, got, tc.want)
		}
	}
}

// Shifting is a change of variables: the shifted relation of every edge
// holds exactly the shifted points of the original one.
func TestShiftedPoints(t *testing.T) {
	p := parse(t, "../testdata/kernels/trisolve-0based.c")
	g, err := Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	sh := Canonicalize(p)
	h, err := g.Shifted(sh)
	if err != nil {
		t.Fatal(err)
	}
	params := []int64{3, 5} // m, n
	for k, e := range g.Edges {
		ds := p.Stmts[e.Source].Depth()
		dS, dT := sh.Delta[e.Source], sh.Delta[e.Target]
		nd := e.Set.Space().NDim()
		n := 0
		forBox(nd, -1, 6, func(x []int64) {
			pt := append(append([]int64(nil), x...), params...)
			in, err := e.Set.Contains(pt)
			if err != nil {
				t.Fatal(err)
			}
			moved := append([]int64(nil), pt...)
			for v, d := range dS {
				moved[v] += d
			}
			for v, d := range dT {
				moved[ds+v] += d
			}
			in2, err := h.Edges[k].Set.Contains(moved)
			if err != nil {
				t.Fatal(err)
			}
			if in != in2 {
				t.Fatalf("edge %d: point %v in original %v, shifted %v in shifted %v", k, pt, in, moved, in2)
			}
			if in {
				n++
			}
		})
		if n == 0 {
			t.Errorf("edge %d has no point in the box: the test checks nothing", k)
		}
	}
}

// forBox calls f on every integer point of [lo, hi]^n.
func forBox(n int, lo, hi int64, f func([]int64)) {
	x := make([]int64, n)
	var rec func(int)
	rec = func(k int) {
		if k == n {
			f(x)
			return
		}
		for v := lo; v <= hi; v++ {
			x[k] = v
			rec(k + 1)
		}
	}
	rec(0)
}
