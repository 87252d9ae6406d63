package outline

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// best is the best score among candidates (0 when none).
func best(cs []clique) int64 {
	var b int64
	for _, c := range cs {
		b = max(b, c.score)
	}
	return b
}

// checkClique verifies that c is a clique of w with the weight and score
// it claims.
func checkClique(t *testing.T, c clique, w func(i, j int32) int64) {
	t.Helper()
	minW := int64(-1)
	for a, x := range c.nodes {
		for _, y := range c.nodes[a+1:] {
			v := w(x, y)
			if v <= 0 {
				t.Fatalf("candidate %v: %d and %d are not joined", c.nodes, x, y)
			}
			if minW < 0 || v < minW {
				minW = v
			}
		}
	}
	if minW != c.weight || int64(len(c.nodes)-1)*minW != c.score {
		t.Fatalf("candidate %v: weight %d score %d, want %d and %d", c.nodes, c.weight, c.score, minW, int64(len(c.nodes)-1)*minW)
	}
}

// gapStats accumulates greedy's gap to the optimum.
type gapStats struct {
	cases, optimal int
	sumGap, worst  float64
	issue          *gapStats // the issue's procedure alone
}

func (g *gapStats) add(greedy, opt int64) {
	if opt == 0 {
		return
	}
	g.cases++
	gap := float64(opt-greedy) / float64(opt)
	if gap == 0 {
		g.optimal++
	}
	g.sumGap += gap
	g.worst = max(g.worst, gap)
}

func (g *gapStats) String() string {
	if g.cases == 0 {
		return "no cases"
	}
	s := fmt.Sprintf("%d cases, greedy optimal in %d, mean gap %.1f%%, worst %.1f%%",
		g.cases, g.optimal, 100*g.sumGap/float64(g.cases), 100*g.worst)
	if g.issue != nil && g.issue.cases > 0 {
		s += fmt.Sprintf(" (the issue's split+AblateClique alone: optimal in %d, mean gap %.1f%%, worst %.1f%%)",
			g.issue.optimal, 100*g.issue.sumGap/float64(g.issue.cases), 100*g.issue.worst)
	}
	return s
}

// compare runs the three choices on one graph of n ≤ 12 nodes.
func compare(t *testing.T, n int, w func(i, j int32) int64, st *gapStats) {
	t.Helper()
	var edges []wedge
	for i := range int32(n) {
		for j := i + 1; j < int32(n); j++ {
			if v := w(i, j); v > 0 {
				edges = append(edges, wedge{i, j, v})
			}
		}
	}
	opt, _ := bestSubset(n, w)
	ex, proven := exactChoice(n, edges, w)
	gr := greedyChoice(n, edges, w)
	// The issue's procedure alone: split into cliques, ablate each.
	var issue []clique
	splitCliques(n, edges, func(ns []int32, es []wedge) {
		issue = append(issue, ablate(ns, es, w, make([]int32, n), false)...)
	}, nil)
	if st.issue != nil {
		st.issue.add(best(issue), opt)
	}
	for _, c := range ex {
		checkClique(t, c, w)
	}
	for _, c := range gr {
		checkClique(t, c, w)
	}
	if !proven || best(ex) != opt {
		t.Fatalf("exact %d (proven %v), optimum %d", best(ex), proven, opt)
	}
	if best(gr) > opt {
		t.Fatalf("greedy %d beats the optimum %d", best(gr), opt)
	}
	st.add(best(gr), opt)
}

// TestChooseOptimality compares the greedy choice (splitCliques, ablate)
// and the exact one (exactChoice) with the exhaustive optimum of the
// clique model, max (|S|-1)·min weight, on small graphs: exact must find
// the optimum; greedy's gap is logged (go test -v).
func TestChooseOptimality(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	// Random weights: complete graphs (a group under the issue's
	// transitivity) with weights 1..20, and sparser graphs with missing
	// edges as after a MinSize threshold.
	uniform, sparse, graphs := gapStats{issue: &gapStats{}}, gapStats{issue: &gapStats{}}, gapStats{issue: &gapStats{}}
	for it := range 400 {
		n := 3 + r.IntN(10)
		m := make([]int64, n*n)
		p := 0.0
		if it%2 == 1 {
			p = 0.3
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.Float64() >= p {
					v := int64(1 + r.IntN(20))
					m[i*n+j], m[j*n+i] = v, v
				}
			}
		}
		w := func(i, j int32) int64 { return m[int(i)*n+int(j)] }
		if p == 0 {
			compare(t, n, w, &uniform)
		} else {
			compare(t, n, w, &sparse)
		}
	}
	// Blocks of the tables of random dataflow graphs with planted
	// repeats, with at most 12 live members, under both objectives.
	for range 150 {
		f := randomFunc(r, 30+r.IntN(90))
		Canonicalize(f)
		for _, obj := range []Objective{Nodes, Area} {
			a := analyze(f, obj, nil, nil)
			tb := newTable(a)
			thresh := int64(Options{Objective: obj}.minSize())
			if obj == Area {
				thresh = 1
			}
			for _, b := range tb.blocks {
				if b.g() > 12 || b.g() < 2 {
					continue
				}
				w := func(i, j int32) int64 {
					if v := tb.edge(b, int(i), int(j)); v >= thresh {
						return v
					}
					return 0
				}
				compare(t, b.g(), w, &graphs)
			}
		}
	}
	t.Logf("complete random graphs: %v", &uniform)
	t.Logf("random graphs, 30%% of edges missing: %v", &sparse)
	t.Logf("blocks of random dataflow graphs: %v", &graphs)
}

// bestSubset is the exhaustive optimum of the clique model for tests and
// small graphs: the maximum of (|S|-1)·min weight over all sets S of at
// least two nodes that are pairwise joined (w > 0), by enumerating all
// subsets of n ≤ 20 nodes.
func bestSubset(n int, w func(i, j int32) int64) (int64, []int32) {
	var best int64
	var bestSet []int32
	for mask := 1; mask < 1<<n; mask++ {
		if bits.OnesCount(uint(mask)) < 2 {
			continue
		}
		minW := int64(-1)
		ok := true
		for i := 0; i < n && ok; i++ {
			if mask&(1<<i) == 0 {
				continue
			}
			for j := i + 1; j < n; j++ {
				if mask&(1<<j) == 0 {
					continue
				}
				v := w(int32(i), int32(j))
				if v <= 0 {
					ok = false
					break
				}
				if minW < 0 || v < minW {
					minW = v
				}
			}
		}
		if !ok {
			continue
		}
		if s := int64(bits.OnesCount(uint(mask))-1) * minW; s > best {
			best = s
			bestSet = bestSet[:0]
			for i := range n {
				if mask&(1<<i) != 0 {
					bestSet = append(bestSet, int32(i))
				}
			}
		}
	}
	return best, bestSet
}
