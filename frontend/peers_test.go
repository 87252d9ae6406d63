package frontend_test

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
	"nestor/pipeline"
)

// TestPeers runs every program of testdata/peers (shapes from PolyBench,
// Pluto's and PPCG's tests, as users write them; issue 14) through `nestor
// opt` and `nestor check`: the optimized file must compute what the
// original computes, compiled and run. Then the optimized file, read back
// as nestor's own output, is optimized again and checked against the
// original the same way.
func TestPeers(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	files, _ := filepath.Glob("../testdata/peers/*.c")
	if len(files) < 10 {
		t.Fatalf("%d programs in testdata/peers, want at least 10", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(t *testing.T) {
			t.Parallel()
			f, err := frontend.ParseFile(path, frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Scops) == 0 {
				t.Fatal("no scop")
			}
			once := optimizeAndCheck(t, f, f.Src, "opt")
			again, err := frontend.Parse(path, once, frontend.Config{})
			if err != nil {
				t.Fatalf("nestor cannot read its own output: %v\n--- output\n%s", err, once)
			}
			optimizeAndCheck(t, again, f.Src, "opt of opt")
		})
	}
}

// optimizeAndCheck optimizes f and checks the result against the
// original source orig; it returns the optimized file.
func optimizeAndCheck(t *testing.T, f *frontend.File, orig []byte, what string) []byte {
	t.Helper()
	opts := pipeline.DefaultOptions()
	opts.Check = true
	var notes bytes.Buffer
	opts.Notes = &notes
	out, err := pipeline.Optimize(f, opts)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	// Compare runs the file as parsed against out: parse the original
	// again so that the harness sees the original program.
	base, err := frontend.Parse(f.Path, orig, frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := check.Compare(context.Background(), base, nil, out, check.Options{Runs: 1})
	if err != nil {
		t.Fatalf("%s: check: %v\n--- optimized\n%s", what, err, out)
	}
	if !res.Match {
		var b strings.Builder
		res.Format(&b)
		t.Fatalf("%s: the optimized program differs:\n%s--- optimized\n%s", what, b.String(), out)
	}
	t.Logf("%s: %s", what, notes.String())
	return out
}
