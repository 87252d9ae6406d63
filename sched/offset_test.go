package sched

import (
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/ir"
)

func analyze(t *testing.T, kernel string) (*ir.Program, *deps.Graph) {
	t.Helper()
	f, err := frontend.ParseFile("../testdata/kernels/"+kernel+".c", frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	g, err := deps.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, g
}

// edge finds the flow dependence from statement src to dst whose target
// access reads through the subscript with the most counters (the update's
// A[i][k+j+1] or A[i-1][k-1] rather than A[i][j]).
func edge(t *testing.T, p *ir.Program, g *deps.Graph, src, dst string) int {
	t.Helper()
	best, most := -1, -1
	for k, e := range g.Edges {
		if e.Kind != deps.Flow || p.Stmts[e.Source].Name != src || p.Stmts[e.Target].Name != dst {
			continue
		}
		n := 0
		for _, x := range p.Stmts[e.Target].Accesses[e.TargetAccess].Index {
			for _, c := range x.Iter {
				if c != 0 {
					n++
				}
			}
		}
		if n > most {
			best, most = k, n
		}
	}
	if best < 0 {
		t.Fatalf("no flow dependence %s -> %s", src, dst)
	}
	return best
}

// TestTrisolveOffsets reproduces the LoopModels note. The schedule that
// lines up the store A[.][j] of S0 (A[i][j] = B[i][j]) with the reduction's
// load of the same column in S2 is j for S0 and the column subscript for
// S2: k in the 1-based form, j + k in the 0-based one. With Δω = 0 it is
// legal for the 1-based form, illegal for the 0-based form as written, and
// legal for both after deps.Canonicalize; the solution found on the shifted
// systems maps back to a legal row in the original space.
func TestTrisolveOffsets(t *testing.T) {
	for _, tc := range []struct {
		kernel       string
		phiS2        []int64
		legalAsIs    bool
		wantOmegaOrg int64 // ω of S2 in the original space, from ω' = 0
	}{
		{"trisolve-1based", []int64{0, 0, 1}, true, 0},
		{"trisolve-0based", []int64{0, 1, 1}, false, 1},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			p, g := analyze(t, tc.kernel)
			k := edge(t, p, g, "S0", "S2")
			s0, s2 := Row{Phi: []int64{0, 1}}, Row{Phi: tc.phiS2}
			legal, err := Legal(g.Edges[k], s0, s2)
			if err != nil {
				t.Fatal(err)
			}
			if legal != tc.legalAsIs {
				t.Errorf("Δω = 0 legal before the change of variables: %v, want %v", legal, tc.legalAsIs)
			}

			sh := deps.Canonicalize(p)
			h, err := g.Shifted(sh)
			if err != nil {
				t.Fatal(err)
			}
			if legal, err = Legal(h.Edges[k], s0, s2); err != nil || !legal {
				t.Errorf("Δω = 0 after the change of variables: legal %v, %v", legal, err)
			}

			// Back to the original space: φ·s' + ω' = φ·s + (ω' + φ·δ).
			back := func(r Row, delta []int64) Row {
				for v, c := range r.Phi {
					r.Omega += c * delta[v]
				}
				return r
			}
			o0, o2 := back(s0, sh.Delta[0]), back(s2, sh.Delta[2])
			if got := o2.Omega - o0.Omega; got != tc.wantOmegaOrg {
				t.Errorf("mapped back, ω(S2) − ω(S0) = %d, want %d", got, tc.wantOmegaOrg)
			}
			if legal, err := Legal(g.Edges[k], o0, o2); err != nil || !legal {
				t.Errorf("the mapped-back rows are not legal on the original system: %v, %v", legal, err)
			}
		})
	}
}

// TestFarkasLoadBeforeStore is the note's first case: the reduction load of
// S2 precedes the store of S1 (A[i][j] /= U[j][j]) of the same column; with
// the column schedules Δω = 0 is legal in both forms, with λ0 = 1 taking the
// slack of the 0-based offset.
func TestFarkasLoadBeforeStore(t *testing.T) {
	for _, tc := range []struct {
		kernel string
		phiS2  []int64
	}{
		{"trisolve-1based", []int64{0, 0, 1}},
		{"trisolve-0based", []int64{0, 1, 1}},
	} {
		p, g := analyze(t, tc.kernel)
		k := edge(t, p, g, "S2", "S1")
		legal, err := Legal(g.Edges[k], Row{Phi: tc.phiS2}, Row{Phi: []int64{0, 1}})
		if err != nil || !legal {
			t.Errorf("%s: legal %v, %v", tc.kernel, legal, err)
		}
		// And a row that runs the load after the store is refused.
		legal, err = Legal(g.Edges[k], Row{Phi: tc.phiS2, Omega: 5}, Row{Phi: []int64{0, 1}})
		if err != nil || legal {
			t.Errorf("%s: shifted by 5, legal %v, %v", tc.kernel, legal, err)
		}
	}
}
