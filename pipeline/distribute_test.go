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

// TestDistributeStencils: time-tiled (KeepCached off, so at sizes small
// enough to run here), the stencils whose fused statements chain the
// iterations of their innermost loop get that loop split into one SIMD
// loop per statement (a note says how many), and the result is exactly
// the original's, at 1 and 2 threads: each element is computed by the
// same operations, only the order of independent ones changes.
func TestDistributeStencils(t *testing.T) {
	_, ccErr := exec.LookPath("cc")
	for _, c := range []struct {
		kernel, defines string
		split           string // the note's count, "" for none
	}{
		{"jacobi-2d", "N=70 TSTEPS=9", "split 1 "},
		{"fdtd-2d", "NX=50 NY=70 TMAX=7", "split 2 "},
		{"heat-3d", "N=24 TSTEPS=5", "split 1 "},
		{"jacobi-1d", "N=300 TSTEPS=20", "split 1 "},
	} {
		t.Run(c.kernel, func(t *testing.T) {
			defines := strings.Fields(c.defines)
			f, err := frontend.ParseFile("../testdata/kernels/"+c.kernel+".c", frontend.Config{Defines: defines})
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.KeepCached, o.Notes = true, false, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if i := strings.Index(notes.String(), "split "); i >= 0 {
				got = notes.String()[i : i+len("split 1 ")]
			}
			if got != c.split {
				t.Fatalf("split note %q, want %q; notes:\n%s", got, c.split, notes.String())
			}
			if testing.Short() || ccErr != nil {
				return
			}
			res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1, Threads: []int{1, 2}, Defines: defines,
				CFlags: []string{"-ffp-contract=off"}, Exact: true})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Match {
				var b strings.Builder
				res.Format(&b)
				t.Fatalf("the split program differs:\n%s\n%s", b.String(), out)
			}
		})
	}
}
