package check

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"nestor/frontend"
)

// TestCorpus runs every kernel of the corpus (MINI_DATASET) against itself
// through the real frontend: the harness must build, init_array must be
// called where the file has one, and the results must match. Kernels the
// frontend cannot parse yet are skipped.
func TestCorpus(t *testing.T) {
	needCC(t)
	files, err := filepath.Glob("../testdata/kernels/*.c")
	if err != nil || len(files) == 0 {
		t.Skip("no corpus")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".c"), func(t *testing.T) {
			t.Parallel()
			cfg := frontend.Config{Defines: []string{"MINI_DATASET"}}
			f, err := frontend.ParseFile(path, cfg)
			if err != nil {
				t.Skipf("frontend: %v", err)
			}
			if len(f.Scops) == 0 {
				t.Skip("no scop")
			}
			res, err := Compare(context.Background(), f, nil, f.Src, Options{Defines: cfg.Defines, Runs: 1})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			res.Format(&b)
			t.Logf("\n%s", b.String())
			if !res.Match {
				t.Error("the original differs from itself")
			}
			for _, w := range res.Warnings {
				t.Errorf("warning: %s", w)
			}
			written := 0
			for _, a := range res.Arrays {
				if a.Written {
					written++
				}
			}
			if written == 0 {
				t.Error("no array compared is written by the kernel")
			}
		})
	}
}

// TestGemmReordered checks gemm against a copy whose k loop runs backwards:
// a reassociated sum, equal within the double tolerance but not bitwise.
func TestGemmReordered(t *testing.T) {
	needCC(t)
	cfg := frontend.Config{Defines: []string{"MINI_DATASET"}}
	f, err := frontend.ParseFile("../testdata/kernels/gemm.c", cfg)
	if err != nil {
		t.Skipf("frontend: %v", err)
	}
	rev := edit(t, f.Src, "for (k = 0; k < _PB_NK; k++) {", "for (k = _PB_NK - 1; k >= 0; k--) {")
	res, err := Compare(context.Background(), f, nil, rev, Options{Defines: cfg.Defines, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.Format(&b)
	t.Logf("\n%s", b.String())
	c := res.Arrays[0]
	if !res.Match || c.Name != "C" || !equalDims(c.Dims, []int64{20, 25}) || c.RelErr == 0 {
		t.Errorf("C: %+v", c)
	}
}

// TestRegionInMain: a region in main (every Pluto example) is checked by
// calling the whole main, renamed, and comparing the globals; a wrong
// statement is caught.
func TestRegionInMain(t *testing.T) {
	needCC(t)
	f, err := frontend.ParseFile("testdata/mainreg.c", frontend.Config{})
	if err != nil {
		t.Skipf("frontend: %v", err)
	}
	res, err := Compare(context.Background(), f, nil, f.Src, Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.Format(&b)
	t.Logf("\n%s", b.String())
	if !res.Match || res.Kernel != "main" || len(res.Arrays) != 2 || res.Arrays[0].Name != "a" || !res.Arrays[0].Written {
		t.Errorf("main against itself: %+v", res)
	}
	if !strings.Contains(b.String(), "the regions are in main") {
		t.Error("no warning that the times include all of main")
	}
	wrong := edit(t, f.Src, "a[1][i] + b[i]", "a[1][i] - b[i]")
	if res, err = Compare(context.Background(), f, nil, wrong, Options{Runs: 1}); err != nil {
		t.Fatal(err)
	}
	if res.Match {
		t.Error("a wrong statement in main matched")
	}
}

// TestMainLocals: what a region in main computes in main's own arrays is
// compared at the end of the region, and a wrong statement is caught.
func TestMainLocals(t *testing.T) {
	needCC(t)
	f, err := frontend.ParseFile("testdata/mainlocal.c", frontend.Config{})
	if err != nil {
		t.Skipf("frontend: %v", err)
	}
	res, err := Compare(context.Background(), f, nil, f.Src, Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	res.Format(&b)
	t.Logf("\n%s", b.String())
	names := map[string]bool{}
	for _, a := range res.Arrays {
		names[a.Name] = a.Written
	}
	if !res.Match || !names["x"] || !names["y"] {
		t.Errorf("main's arrays against themselves: %+v", res)
	}
	wrong := edit(t, f.Src, "y[j] = 2 * x", "y[j] = 3 * x")
	if res, err = Compare(context.Background(), f, nil, wrong, Options{Runs: 1}); err != nil {
		t.Fatal(err)
	}
	if res.Match {
		t.Error("a wrong statement on main's arrays matched")
	}
}

// TestHarnessStartsTeam: the harness starts the OpenMP team before its
// first timed call (as a threaded library starts its threads when it
// loads), so that call does not time the team's start.
func TestHarnessStartsTeam(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/gemm.c", frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	h, err := newHarness(f, f.Scops[0], Options{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	src, err := h.source("gemm.c")
	if err != nil {
		t.Fatal(err)
	}
	team, timed := strings.Index(src, "#pragma omp parallel\n"), strings.Index(src, "clock_gettime(CLOCK_MONOTONIC, &nestor_t0)")
	if team < 0 || timed < 0 || team > timed {
		t.Errorf("want the OpenMP team started before the first timed call (at %d, %d):\n%s", team, timed, src)
	}
}
