package sched

import (
	"math/rand/v2"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/poly"
)

// TestFarkasRowsMatchLegal checks the scheduler's linearized legality
// (equalities substituted, multipliers eliminated, cached per edge shape)
// against two references on random rows of corpus kernels: every row Legal
// accepts (Farkas over the rational polyhedron, decided by the simplex)
// satisfies the rows, and every row that satisfies them respects the
// dependence at every integer point (no instance with distance ≤ −1).
func TestFarkasRowsMatchLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for _, name := range []string{"lu", "jacobi-2d", "seidel-2d", "heat-3d", "trisolve-0based", "adi", "nussinov"} {
		f, err := frontend.ParseFile("../testdata/kernels/"+name+".c", frontend.Config{Defines: []string{"MINI_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		p := f.Scops[0].Prog
		g, err := deps.Analyze(p)
		if err != nil {
			t.Fatal(err)
		}
		s := newScheduler(p, g)
		for e, ed := range g.Edges {
			ep, err := prepare(ed.Set, nil)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := s.farkasRows(ed, ep, false)
			if err != nil {
				t.Fatalf("%s edge %d: %v", name, e, err)
			}
			for range 40 {
				sol := make([]int64, s.nu)
				for v := range sol {
					sol[v] = rng.Int64N(5) - 2
				}
				ours := true
				for _, r := range rows {
					v := r.Coef[s.nu]
					for k, c := range r.Coef[:s.nu] {
						v += c * sol[k]
					}
					if r.Eq && v != 0 || v < 0 {
						ours = false
					}
				}
				src, dst := rowOf(s, ed.Source, sol), rowOf(s, ed.Target, sol)
				legal, err := Legal(ed, src, dst)
				if err != nil {
					t.Fatal(err)
				}
				if legal && !ours {
					t.Fatalf("%s edge %d: Legal accepts %v → %v, the Farkas rows do not", name, e, src, dst)
				}
				if ours && !respects(t, ed, src, dst) {
					t.Fatalf("%s edge %d: the Farkas rows accept %v → %v, which reverses an instance", name, e, src, dst)
				}
			}
		}
	}
}

// rowOf returns statement st's row in the scheduler's unknowns sol.
func rowOf(s *scheduler, st int, sol []int64) Row {
	x := s.p.Stmts[st]
	r := Row{Phi: make([]int64, x.Depth()), Omega: sol[s.off[st]]}
	for k := range r.Phi {
		r.Phi[k] = int64(x.Dir[k]) * sol[s.coefIndex(st, k)]
	}
	return r
}

// respects reports whether no integer instance of the edge has
// dst(t) − src(s) ≤ −1.
func respects(t *testing.T, ed *deps.Edge, src, dst Row) bool {
	sp := ed.Set.Space()
	c := make([]int64, sp.NVar()+1)
	for k, v := range src.Phi {
		c[k] += v
	}
	for k, v := range dst.Phi {
		c[len(src.Phi)+k] -= v
	}
	c[sp.NVar()] = src.Omega - dst.Omega - 1 // src − dst − 1 ≥ 0
	bad, err := ed.Set.With(poly.Constraint{Coef: c})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := bad.IsEmpty()
	if err != nil {
		t.Fatal(err)
	}
	return empty
}

// TestDominates: rows over non-negative unknowns, one implied by another
// (from the Farkas rows of a uniform dependence and of a wider one).
func TestDominates(t *testing.T) {
	for _, c := range []struct {
		b, a []int64
		want bool
	}{
		{[]int64{1, -1, 0}, []int64{1, -1, 0}, true},   // itself
		{[]int64{1, -1, 0}, []int64{2, -1, 0}, true},   // a = b + x0
		{[]int64{1, -1, 0}, []int64{2, -2, 1}, true},   // a = 2b + 1
		{[]int64{1, -1, 0}, []int64{1, -2, 0}, false},  // would need −x1
		{[]int64{1, -1, 1}, []int64{1, -1, 0}, false},  // weaker constant
		{[]int64{2, -1, 0}, []int64{3, -2, 0}, false},  // λ ≤ 3/2 and λ ≥ 2
		{[]int64{2, -1, 0}, []int64{4, -2, -1}, false}, // constant −1 < 0
		{[]int64{0, 1, -1}, []int64{0, 1, -1}, true},
		{[]int64{0, 1, -1}, []int64{1, 1, -1}, true},
	} {
		if got := dominates(c.b, c.a); got != c.want {
			t.Errorf("dominates(%v, %v) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}
