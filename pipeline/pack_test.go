package pipeline

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
)

// TestPack runs the corpus's matrix products with Options.Pack: every
// product statement runs as packed blocks (a note each; syrk's and
// covariance's over a triangle, syr2k's a sum of two products), nestor
// reads the output back, and the result computes exactly what the
// original computes, at 1 and 2 threads.
func TestPack(t *testing.T) {
	_, ccErr := exec.LookPath("cc")
	for _, c := range []struct {
		kernel  string
		packed  int
		dataset string
		run     bool // check by execution (3mm's products are 2mm's)
	}{{"gemm", 1, "SMALL_DATASET", true}, {"2mm", 2, "SMALL_DATASET", true}, {"3mm", 3, "MINI_DATASET", false},
		{"syrk", 1, "SMALL_DATASET", true}, {"syr2k", 1, "SMALL_DATASET", true}, {"covariance", 1, "SMALL_DATASET", true}} {
		t.Run(c.kernel, func(t *testing.T) {
			f, err := frontend.ParseFile("../testdata/kernels/"+c.kernel+".c", frontend.Config{Defines: []string{c.dataset}})
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Pack, o.Notes = true, true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(notes.String(), "runs as packed blocks"); n != c.packed {
				t.Fatalf("%d products packed, want %d; notes:\n%s", n, c.packed, notes.String())
			}
			// The blocks are printed outside the region's pragmas: nestor
			// reads its output back, and finds no product to pack in it.
			again, err := frontend.Parse(f.Path, out, frontend.Config{Defines: []string{c.dataset}})
			if err != nil {
				t.Fatalf("nestor cannot read its packed output: %v\n%s", err, out)
			}
			notes.Reset()
			if _, err := Optimize(again, o); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(notes.String(), "runs as packed blocks") {
				t.Errorf("the packed output packed again:\n%s", notes.String())
			}
			if testing.Short() || ccErr != nil || !c.run {
				return
			}
			// Every element sums its terms in the original order: without
			// FMA contraction, the results are equal.
			res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1, Threads: []int{1, 2}, Defines: []string{c.dataset},
				CFlags: []string{"-ffp-contract=off"}, Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Match {
				var b strings.Builder
				res.Format(&b)
				t.Fatalf("the packed program differs:\n%s", b.String())
			}
		})
	}
}
