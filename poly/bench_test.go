package poly

import (
	"math/rand/v2"
	"testing"
)

// depSets returns n random systems shaped like dependence problems: nd dims
// (source and sink iterators) and np params, all treated as variables; each
// variable is >= 0, params are <= 100, and about nc rows in all: random
// inequalities with coefficients in {-1, 0, 1} and two equalities x_i = x_j + c.
func depSets(b *testing.B, seed uint64, n, nd, np, nc int) []*Set {
	rng := rand.New(rand.NewPCG(seed, 1))
	nv := nd + np
	sp := randSpace(nv, 0)
	var sets []*Set
	for len(sets) < n {
		var rows []Constraint
		row := func() []int64 { return make([]int64, nv+1) }
		for v := range nv {
			c := row()
			c[v] = 1
			rows = append(rows, Constraint{Coef: c})
		}
		for v := nd; v < nv; v++ {
			c := row()
			c[v], c[nv] = -1, 100
			rows = append(rows, Constraint{Coef: c})
		}
		for range 2 {
			c := row()
			i := rng.IntN(nd / 2)
			c[i], c[i+nd/2], c[nv] = 1, -1, int64(rng.IntN(3)-1)
			rows = append(rows, Constraint{Eq: true, Coef: c})
		}
		for len(rows) < nc {
			c := row()
			for j := range nv {
				c[j] = int64(rng.IntN(3) - 1)
			}
			c[nv] = int64(rng.IntN(21) - 5)
			rows = append(rows, Constraint{Coef: c})
		}
		s, err := NewSet(sp, rows...)
		if err != nil {
			b.Fatal(err)
		}
		sets = append(sets, s)
	}
	return sets
}

// BenchmarkMin8x20: minimize and maximize a distance x_k - x_{k+4} over
// 8-dim, 3-param systems with about 20 constraints (the shape of nestor's
// dependence distance queries).
func BenchmarkMin8x20(b *testing.B) {
	sets := depSets(b, 7, 64, 8, 3, 20)
	i := 0
	for b.Loop() {
		s := sets[i%len(sets)]
		f := make([]int64, 12)
		k := i % 4
		f[k], f[k+4] = 1, -1
		r, err := s.Min(f, nil)
		if err != nil && err != ErrLimit {
			b.Fatal(err)
		}
		r2, err := s.Max(f, nil)
		if err != nil && err != ErrLimit {
			b.Fatal(err)
		}
		sink = r.Status == r2.Status
		i++
	}
}

// BenchmarkEmpty8x20: emptiness of the same systems.
func BenchmarkEmpty8x20(b *testing.B) {
	sets := depSets(b, 7, 64, 8, 3, 20)
	i := 0
	for b.Loop() {
		e, err := sets[i%len(sets)].IsEmpty()
		if err != nil && err != ErrLimit {
			b.Fatal(err)
		}
		sink = e
		i++
	}
}
