package poly

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randSpace returns a space with nd dims and np params.
func randSpace(nd, np int) Space {
	sp := Space{Name: "S"}
	for i := range nd {
		sp.Dims = append(sp.Dims, fmt.Sprintf("x%d", i))
	}
	for i := range np {
		sp.Params = append(sp.Params, fmt.Sprintf("p%d", i))
	}
	return sp
}

// boxRows returns -b <= v <= b for every variable of sp.
func boxRows(sp Space, b int64) []Constraint {
	nv := sp.NVar()
	var rows []Constraint
	for v := range nv {
		lo, hi := make([]int64, nv+1), make([]int64, nv+1)
		lo[v], lo[nv] = 1, b
		hi[v], hi[nv] = -1, b
		rows = append(rows, Constraint{Coef: lo}, Constraint{Coef: hi})
	}
	return rows
}

// randRows returns 1..5 random rows with coefficients in [-5, 5] and
// constants in [-10, 10]; about one in seven is an equality.
func randRows(rng *rand.Rand, nv int) []Constraint {
	k := 1 + rng.IntN(5)
	rows := make([]Constraint, k)
	for i := range rows {
		c := make([]int64, nv+1)
		for j := range nv {
			c[j] = int64(rng.IntN(11) - 5)
		}
		c[nv] = int64(rng.IntN(21) - 10)
		rows[i] = Constraint{Eq: rng.IntN(7) == 0, Coef: c}
	}
	return rows
}

// randBoxed returns a random set with up to 4 dims and 2 params, intersected
// with the box [-b, b] on every variable, so that enumerating the box finds
// every integer point.
func randBoxed(t testing.TB, rng *rand.Rand) (*Set, int64) {
	nd, np := 1+rng.IntN(4), rng.IntN(3)
	sp := randSpace(nd, np)
	b := int64(3)
	if sp.NVar() > 4 {
		b = 2
	}
	s, err := NewSet(sp, append(randRows(rng, sp.NVar()), boxRows(sp, b)...)...)
	if err != nil {
		t.Fatal(err)
	}
	return s, b
}

// box calls f on every point of [-b, b]^n in lexicographic order.
func box(n int, b int64, f func([]int64)) {
	p := make([]int64, n)
	for i := range p {
		p[i] = -b
	}
	for {
		f(p)
		i := n - 1
		for i >= 0 && p[i] == b {
			p[i] = -b
			i--
		}
		if i < 0 {
			return
		}
		p[i]++
	}
}

// points returns the integer points of s in [-b, b]^NVar (dims then params).
func points(t testing.TB, s *Set, b int64) [][]int64 {
	var out [][]int64
	box(s.space.NVar(), b, func(p []int64) {
		ok, err := s.Contains(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			out = append(out, slices.Clone(p))
		}
	})
	return out
}

// pointsAt returns the dims of the integer points of s with params fixed.
func pointsAt(t testing.TB, s *Set, b int64, params []int64) [][]int64 {
	var out [][]int64
	box(s.space.NDim(), b, func(x []int64) {
		ok, err := s.Contains(append(slices.Clone(x), params...))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			out = append(out, slices.Clone(x))
		}
	})
	return out
}

func samePoints(a, b [][]int64) bool {
	return slices.EqualFunc(a, b, slices.Equal)
}

const propertyCases = 2000
