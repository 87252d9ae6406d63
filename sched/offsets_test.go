package sched

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/ir"
)

// TestAlignOffsetsCorpus aligns the schedule of every corpus kernel: the
// result must compute bit for bit what the program computes, and the
// triangular solve written with 0-based loops must get its update's
// innermost row equal to the column it writes, k + j + 1.
func TestAlignOffsetsCorpus(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	peers, _ := filepath.Glob("../testdata/peers/*.c")
	aligned := map[string]int{}
	for _, k := range append(ks, peers...) {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		t.Run(name, func(t *testing.T) {
			p, g := analyzed(t, k, nil, "MINI_DATASET")
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Skipf("no schedule: %v", err)
			}
			before := Format(p, sc)
			n := AlignOffsets(p, sc)
			aligned[name] = n
			if n == 0 {
				if after := Format(p, sc); after != before {
					t.Fatalf("no row reported changed, but the schedule did:\n%s\n%s", before, after)
				}
				return
			}
			q, err := Apply(p, sc)
			if err != nil {
				t.Fatalf("%v\n%s", err, Format(p, sc))
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			for _, base := range [][2]int64{{4, 3}, {3, 2}, {2, 4}, {1, 3}} {
				params := make([]int64, len(p.Params))
				for i := range params {
					params[i] = base[i%2]
				}
				runBoth(t, p, q, params)
			}
			t.Logf("%d rows changed\n%s", n, Format(p, sc))
		})
	}
	if aligned["trisolve-0based"] == 0 {
		t.Fatalf("trisolve-0based: no row aligned")
	}
	if aligned["trisolve-1based"] != 0 {
		t.Errorf("trisolve-1based, already aligned: %d rows changed", aligned["trisolve-1based"])
	}
}

// TestAlignOffsetsTrisolve checks the rows trisolve-0based's update gets:
// its innermost row is the written column, and the division, fused with
// it, moves by the same offset.
func TestAlignOffsetsTrisolve(t *testing.T) {
	p, g := analyzed(t, "../testdata/kernels/trisolve-0based.c", nil, "MINI_DATASET")
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	AlignOffsets(p, sc)
	upd := slices.IndexFunc(p.Stmts, func(s *ir.Stmt) bool { return len(s.Iters) == 3 })
	if upd < 0 {
		t.Fatal("no update statement")
	}
	w := p.Stmts[upd].Accesses[0].Index[1]
	inner := -1
	for k, r := range sc.Rows[upd] {
		if !isConstant(r) {
			inner = k
		}
	}
	if got := sc.Rows[upd][inner]; !got.Equal(w) {
		t.Fatalf("innermost row %v, want the written column %v\n%s", got, w, Format(p, sc))
	}
}

// TestAlignOffsetsKeepsSkew: a time-skewed stencil's inner row (2t + i
// or t + i) writes column i; aligning it would subtract the time row
// within the band and undo the skew that makes the band permutable.
func TestAlignOffsetsKeepsSkew(t *testing.T) {
	src := []byte(`void f(int T, int n, double A[n]) {
  int t, i;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < n - 1; i++)
      A[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
#pragma endscop
}
`)
	p, g := analyzed(t, "seidel1d.c", src)
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := Format(p, sc)
	if !strings.Contains(before, "t") {
		t.Fatalf("unexpected schedule:\n%s", before)
	}
	if n := AlignOffsets(p, sc); n != 0 {
		t.Fatalf("%d rows changed; before:\n%s\nafter:\n%s", n, before, Format(p, sc))
	}
	t.Logf("\n%s", before)
}
