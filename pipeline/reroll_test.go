package pipeline

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
)

// TestRerollCorpus optimizes every kernel of testdata/reroll (loops
// unrolled by hand four times, in both forms: a stride of 4, and
// subscripts 4*i + j) with Reroll, scheduled and in the original order:
// a note names the four statements rerolled, and the result computes
// what the original does (check.Compare, equal results). Without Reroll
// nothing is rerolled.
func TestRerollCorpus(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/reroll/*.c")
	if len(ks) < 2 {
		t.Fatalf("%d kernels in testdata/reroll, want at least 2", len(ks))
	}
	_, ccErr := exec.LookPath(cmp(os.Getenv("CC"), "cc"))
	for _, k := range ks {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			cfg := frontend.Config{Defines: []string{"SMALL_DATASET"}}
			f, err := frontend.ParseFile(k, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes = true, &notes
			if _, err := Optimize(f, o); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(notes.String(), "rerolled") {
				t.Errorf("rerolled without Reroll:\n%s", notes.String())
			}
			for _, o := range []Options{DefaultOptions(), {}} {
				notes.Reset()
				o.Check, o.Reroll, o.Notes = true, true, &notes
				out, err := Optimize(f, o)
				if err != nil {
					t.Fatal(err)
				}
				outsideEqual(t, f, out)
				if !strings.Contains(notes.String(), "rerolled at ") ||
					!strings.Contains(notes.String(), "(4 copies of 1 statement) became loop u") {
					t.Errorf("schedule %v: no note of the rerolled run:\n%s", o.Schedule, notes.String())
				}
				if testing.Short() || ccErr != nil {
					continue
				}
				res, err := check.Compare(context.Background(), f, nil, out, check.Options{Defines: cfg.Defines, Runs: 1})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Match {
					var b bytes.Buffer
					res.Format(&b)
					t.Errorf("schedule %v: results differ:\n%s\ncode:\n%s", o.Schedule, b.String(), out)
				}
			}
		})
	}
}
