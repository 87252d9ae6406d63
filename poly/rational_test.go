package poly

import (
	"math/rand/v2"
	"testing"
)

// TestIsRationalEmpty: hand-picked sets whose rational and integer emptiness
// differ or agree. They are built with NewSet: ParseUnion drops disjuncts
// that normalization proves integer-empty.
func TestIsRationalEmpty(t *testing.T) {
	x := Space{Dims: []string{"i"}}
	xy := Space{Dims: []string{"i", "j"}}
	xn := Space{Params: []string{"n"}, Dims: []string{"i"}}
	ge := func(c ...int64) Constraint { return Constraint{Coef: c} }
	eq := func(c ...int64) Constraint { return Constraint{Eq: true, Coef: c} }
	for _, tc := range []struct {
		name           string
		sp             Space
		rows           []Constraint
		rational, ints bool
	}{
		{"1 <= 2i <= 1", x, []Constraint{ge(2, -1), ge(-2, 1)}, false, true},
		{"2i = 2j + 1", xy, []Constraint{eq(2, -2, -1)}, false, true},
		{"1 <= 3i - 3j <= 2", xy, []Constraint{ge(3, -3, -1), ge(-3, 3, 2)}, false, true},
		{"1 <= i <= 0", x, []Constraint{ge(1, -1), ge(-1, 0)}, true, true},
		{"0 <= i <= n < 0", xn, []Constraint{ge(1, 0, 0), ge(-1, 1, 0), ge(0, -1, -1)}, true, true},
		{"0 <= i <= n", xn, []Constraint{ge(1, 0, 0), ge(-1, 1, 0)}, false, false},
		{"i + j >= 3, i <= 1, j <= 1", xy, []Constraint{ge(1, 1, -3), ge(-1, 0, 1), ge(0, -1, 1)}, true, true},
		{"2i + 2j >= 3, i <= 1, j <= 0", xy, []Constraint{ge(2, 2, -3), ge(-1, 0, 1), ge(0, -1, 0)}, true, true},
		{"2i + 2j >= 1, i <= 1, j <= -1/2", xy, []Constraint{ge(2, 2, -1), ge(-1, 0, 1), ge(0, -2, -1)}, false, true},
	} {
		s, err := NewSet(tc.sp, tc.rows...)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.IsRationalEmpty()
		if err != nil {
			t.Fatal(err)
		}
		e, err := s.IsEmpty()
		if err != nil {
			t.Fatal(err)
		}
		if r != tc.rational || e != tc.ints {
			t.Errorf("%s: rational empty %v, integer empty %v; want %v, %v", tc.name, r, e, tc.rational, tc.ints)
		}
	}
}

// TestRationalEmptyBruteForce: on random boxed sets, rational emptiness
// implies that brute force finds no integer point, and a set with an integer
// point is rationally non-empty.
func TestRationalEmptyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	differ := 0
	for range propertyCases {
		s, b := randBoxed(t, rng)
		r, err := s.IsRationalEmpty()
		if err != nil {
			t.Fatal(err)
		}
		pts := points(t, s, b)
		if r && len(pts) > 0 {
			t.Fatalf("%v: rationally empty but contains %v", s, pts[0])
		}
		if !r && len(pts) == 0 {
			differ++
		}
	}
	t.Logf("%d of %d sets integer-empty but rationally non-empty", differ, propertyCases)
}

// TestRationalEmptyInterval: one-dimensional intervals against the exact
// rational answer.
func TestRationalEmptyInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 1))
	for range propertyCases {
		// { [x] : a·x >= lo and a'·x <= hi } with a, a' > 0 has a rational
		// point iff lo/a <= hi/a'.
		a, a2 := 1+rng.Int64N(9), 1+rng.Int64N(9)
		lo, hi := rng.Int64N(41)-20, rng.Int64N(41)-20
		s, err := NewSet(Space{Dims: []string{"x"}},
			Constraint{Coef: []int64{a, -lo}}, Constraint{Coef: []int64{-a2, hi}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.IsRationalEmpty()
		if err != nil {
			t.Fatal(err)
		}
		want := lo*a2 > hi*a
		if got != want {
			t.Fatalf("%v: rational empty %v, want %v", s, got, want)
		}
	}
}
