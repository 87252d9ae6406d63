package deps

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

// TestAnalyzeWork checks that every corpus kernel's analysis stays well
// inside the default budget (a tenth of it), so that the budget only
// stops pathological inputs, and that a tiny budget gives a graph that
// says it is an over-approximation.
func TestAnalyzeWork(t *testing.T) {
	var most int64
	for _, c := range corpusGraphs(t) {
		name, p, g := c.name, c.p, c.g
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

// TestCarried: the dependences Carried computes for a set of statements
// and one depth are exactly those of the whole analysis between those
// statements at that depth, for every corpus kernel's first two
// statements and every depth they share.
func TestCarried(t *testing.T) {
	compared := 0
	for _, c := range corpusGraphs(t) {
		name, p, g := c.name, c.p, c.g
		stmts := []int{0}
		if len(p.Stmts) > 1 {
			stmts = append(stmts, 1)
		}
		in := func(s int) bool { return s == 0 || s == 1 && len(stmts) == 2 }
		for depth := 1; depth <= p.Stmts[0].Depth()+1; depth++ {
			c, err := Carried(p, stmts, depth, DefaultWork)
			if err != nil {
				t.Fatal(err)
			}
			compared += len(c.Edges)
			var want []string
			for _, e := range g.Edges {
				if in(e.Source) && in(e.Target) && e.Depth == depth {
					want = append(want, fmt.Sprintf("%d->%d %v a%d d%d %v", e.Source, e.Target, e.Kind, e.Array, e.Depth, e.Distance))
				}
			}
			var got []string
			for _, e := range c.Edges {
				got = append(got, fmt.Sprintf("%d->%d %v a%d d%d %v", e.Source, e.Target, e.Kind, e.Array, e.Depth, e.Distance))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, depth %d: Carried gives\n%v\nthe whole analysis\n%v", name, depth, got, want)
			}
		}
	}
	if compared == 0 {
		t.Error("no edge compared: the corpus's first statements have no dependence")
	}
}

type corpusGraph struct {
	name string
	p    *ir.Program
	g    *Graph
}

// corpusGraphs returns every corpus kernel's first region at MINI size
// with its whole dependence graph.
func corpusGraphs(t *testing.T) []corpusGraph {
	t.Helper()
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) == 0 {
		t.Fatal("no corpus kernels")
	}
	var out []corpusGraph
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
		out = append(out, corpusGraph{strings.TrimSuffix(filepath.Base(k), ".c"), p, g})
	}
	return out
}
