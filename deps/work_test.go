package deps

import (
	"path/filepath"
	"strings"
	"testing"

	"nestor/frontend"
)

// TestAnalyzeWork checks that every corpus kernel's analysis stays well
// inside the default budget (a tenth of it), so that the budget only
// stops pathological inputs, and that a tiny budget gives a graph that
// says it is an over-approximation.
func TestAnalyzeWork(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) == 0 {
		t.Fatal("no corpus kernels")
	}
	var most int64
	for _, k := range ks {
		f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"MINI_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		p := f.Scops[0].Prog
		g, err := Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		if g.Exhausted || g.Work > DefaultWork/10 {
			t.Errorf("%s: %.3g units of work (exhausted %v), more than a tenth of the budget", name, float64(g.Work), g.Exhausted)
		}
		most = max(most, g.Work)
		small, err := AnalyzeWork(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		if !small.Exhausted {
			t.Errorf("%s: a budget of 1 unit was not exhausted", name)
		}
		if len(small.Edges) < len(g.Edges) {
			t.Errorf("%s: %d edges with a budget of 1 unit, %d with the default: the over-approximation lost edges", name, len(small.Edges), len(g.Edges))
		}
	}
	t.Logf("the kernel that needs most: %.3g units", float64(most))
}
