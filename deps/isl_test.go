package deps

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/internal/isloracle"
	"nestor/ir"
)

func corpus(t testing.TB) []string {
	t.Helper()
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("found %d corpus kernels, want 32", len(ks))
	}
	return ks
}

func parse(t testing.TB, path string) *ir.Program {
	t.Helper()
	f, err := frontend.ParseFile(path, frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	return f.Scops[0].Prog
}

func oracle(t testing.TB) *isloracle.Oracle {
	t.Helper()
	o, err := isloracle.New(context.Background())
	if errors.Is(err, isloracle.ErrUnavailable) {
		t.Skipf("isl oracle: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestAgainstIsl compares, on every corpus kernel, the union of nestor's
// dependence polyhedra of each kind with the memory-based relation isl
// computes, as sets.
func TestAgainstIsl(t *testing.T) {
	o := oracle(t)
	for _, k := range corpus(t) {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		t.Run(name, func(t *testing.T) {
			p := parse(t, k)
			g, err := Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			rel := isloracle.Relations{Flow: g.Union(Flow), Anti: g.Union(Anti), Output: g.Union(Output)}
			eq, diff, err := o.EqualDiff(isloracle.Describe(p), rel)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[Kind]int{}
			for _, e := range g.Edges {
				counts[e.Kind]++
			}
			for _, kind := range Kinds {
				if !eq[kind.String()] {
					t.Errorf("%s differs from isl:\n%s", kind, diff[kind.String()])
				}
			}
			// The comparison table of the closing note: go test -v -run AgainstIsl.
			t.Logf("| %s | %d | %d | %d | %v |", name, counts[Flow], counts[Anti], counts[Output],
				eq["flow"] && eq["anti"] && eq["output"])
		})
	}
}
