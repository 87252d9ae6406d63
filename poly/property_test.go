package poly

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestEmptyBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	nonempty := 0
	for range propertyCases {
		s, b := randBoxed(t, rng)
		got, err := s.IsEmpty()
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		want := len(points(t, s, b)) == 0
		if got != want {
			t.Fatalf("%v: IsEmpty = %v, brute force %v", s, got, want)
		}
		if !want {
			nonempty++
		}
	}
	t.Logf("%d of %d nonempty", nonempty, propertyCases)
}

func TestEmptyAtBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1))
	for range propertyCases {
		s, b := randBoxed(t, rng)
		params := make([]int64, s.space.NParam())
		for i := range params {
			params[i] = rng.Int64N(2*b+1) - b
		}
		got, err := s.IsEmptyAt(params)
		if err != nil {
			t.Fatalf("%v at %v: %v", s, params, err)
		}
		if want := len(pointsAt(t, s, b, params)) == 0; got != want {
			t.Fatalf("%v at %v: IsEmptyAt = %v, brute force %v", s, params, got, want)
		}
	}
}

func TestIntersectBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 1))
	for range propertyCases / 4 {
		s, b := randBoxed(t, rng)
		t2, err := NewSet(s.space, randRows(rng, s.space.NVar())...)
		if err != nil {
			t.Fatal(err)
		}
		before := s.String()
		x := s.Intersect(t2)
		if s.String() != before {
			t.Fatalf("Intersect modified its argument")
		}
		var want [][]int64
		for _, p := range points(t, s, b) {
			if ok, _ := t2.Contains(p); ok {
				want = append(want, p)
			}
		}
		if got := points(t, x, b); !samePoints(got, want) {
			t.Fatalf("%v ∩ %v = %v: %d points, want %d", s, t2, x, len(got), len(want))
		}
	}
}

// rationalPreimage reports whether some rational x_d extends y (the point
// without dim d) to a point satisfying every row of s: each row is
// a·x_d + r(y) >= 0 (or = 0), an interval condition checked in big.Rat.
func rationalPreimage(s *Set, d int, y []int64) bool {
	var lo, hi *big.Rat
	full := slices.Insert(slices.Clone(y), d, 0)
	for _, r := range s.rows {
		a := r.Coef[d]
		rest := big.NewInt(r.Coef[len(r.Coef)-1])
		for i, v := range full {
			rest.Add(rest, new(big.Int).Mul(big.NewInt(r.Coef[i]), big.NewInt(v)))
		}
		if a == 0 {
			if (r.Eq && rest.Sign() != 0) || rest.Sign() < 0 {
				return false
			}
			continue
		}
		v := new(big.Rat).SetFrac(new(big.Int).Neg(rest), big.NewInt(a)) // x_d bound -rest/a
		if r.Eq || a > 0 {
			if lo == nil || v.Cmp(lo) > 0 {
				lo = v
			}
		}
		if r.Eq || a < 0 {
			if hi == nil || v.Cmp(hi) < 0 {
				hi = v
			}
		}
	}
	return lo == nil || hi == nil || lo.Cmp(hi) <= 0
}

func TestProjectBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 1))
	exactCount := 0
	for range propertyCases {
		s, b := randBoxed(t, rng)
		d := rng.IntN(s.space.NDim())
		got, exact, err := s.ProjectOutRational(d)
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		// The integer projection, from the integer points of s.
		var want [][]int64
		for _, p := range points(t, s, b) {
			want = append(want, slices.Delete(slices.Clone(p), d, d+1))
		}
		slices.SortFunc(want, slices.Compare)
		want = slices.CompactFunc(want, slices.Equal)
		gotPts := points(t, got, b) // the box rows on other vars survive FM
		for _, w := range want {
			if ok, _ := got.Contains(w); !ok {
				t.Fatalf("project %v dim %d = %v: misses %v", s, d, got, w)
			}
		}
		for _, g := range gotPts {
			if !rationalPreimage(s, d, g) {
				t.Fatalf("project %v dim %d = %v: %v has no rational preimage", s, d, got, g)
			}
		}
		if exact {
			exactCount++
			if !samePoints(gotPts, want) {
				t.Fatalf("project %v dim %d = %v claims exact: %d points, want %d", s, d, got, len(gotPts), len(want))
			}
		}
	}
	t.Logf("%d of %d projections exact", exactCount, propertyCases)
}

// TestProjectUnit: when every row has coefficient 0 or ±1 on the eliminated
// dimension, the projection must be exact and say so.
func TestProjectUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for range propertyCases {
		nd, np := 1+rng.IntN(4), rng.IntN(3)
		sp := randSpace(nd, np)
		b := int64(3)
		if sp.NVar() > 4 {
			b = 2
		}
		d := rng.IntN(nd)
		rows := randRows(rng, sp.NVar())
		for _, r := range rows {
			r.Coef[d] = int64(rng.IntN(3) - 1)
		}
		s, err := NewSet(sp, append(rows, boxRows(sp, b)...)...)
		if err != nil {
			t.Fatal(err)
		}
		got, exact, err := s.ProjectOutRational(d)
		if err != nil {
			t.Fatal(err)
		}
		if !exact {
			t.Fatalf("project %v dim %d: unit coefficients but not exact", s, d)
		}
		var want [][]int64
		for _, p := range points(t, s, b) {
			want = append(want, slices.Delete(slices.Clone(p), d, d+1))
		}
		slices.SortFunc(want, slices.Compare)
		want = slices.CompactFunc(want, slices.Equal)
		if gotPts := points(t, got, b); !samePoints(gotPts, want) {
			t.Fatalf("project %v dim %d = %v: %d points, want %d", s, d, got, len(gotPts), len(want))
		}
	}
}

func TestRemoveRedundantBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	removed := 0
	for range propertyCases / 2 {
		s, b := randBoxed(t, rng)
		r, err := s.RemoveRedundant()
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		removed += len(s.rows) - len(r.rows)
		// Compare on a larger box: removed box rows must not matter inside
		// the original box, and nothing outside it may appear.
		in := func(p []int64) bool { ok, _ := s.Contains(p); return ok }
		box(s.space.NVar(), b+1, func(p []int64) {
			ok, _ := r.Contains(p)
			if ok != in(p) {
				t.Fatalf("RemoveRedundant(%v) = %v differs at %v", s, r, p)
			}
		})
	}
	t.Logf("%d rows removed", removed)
}

func TestMinMaxBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for range propertyCases {
		s, b := randBoxed(t, rng)
		nv := s.space.NVar()
		params := make([]int64, s.space.NParam())
		for i := range params {
			params[i] = rng.Int64N(2*b+1) - b
		}
		f := make([]int64, nv+1)
		for i := range f {
			f[i] = int64(rng.IntN(11) - 5)
		}
		pts := pointsAt(t, s, b, params)
		for _, max := range []bool{false, true} {
			var res Result
			var err error
			if max {
				res, err = s.Max(f, params)
			} else {
				res, err = s.Min(f, params)
			}
			if err != nil {
				t.Fatalf("%v: %v", s, err)
			}
			if len(pts) == 0 {
				if res.Status != Empty {
					t.Fatalf("%v at %v: %v, want empty", s, params, res.Status)
				}
				continue
			}
			var want int64
			for i, p := range pts {
				v := eval(f, append(slices.Clone(p), params...))
				if i == 0 || (max && v > want) || (!max && v < want) {
					want = v
				}
			}
			if res.Status != Bounded || res.Value != want {
				t.Fatalf("%v at %v: opt(max=%v) %v = %v %d, want %d", s, params, max, f, res.Status, res.Value, want)
			}
			if v := eval(f, append(slices.Clone(res.Point), params...)); v != want {
				t.Fatalf("%v: point %v has value %d, want %d", s, res.Point, v, want)
			}
		}
	}
}

func TestLexBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for range propertyCases {
		s, b := randBoxed(t, rng)
		params := make([]int64, s.space.NParam())
		for i := range params {
			params[i] = rng.Int64N(2*b+1) - b
		}
		pts := pointsAt(t, s, b, params) // in lexicographic order
		lo, okLo, err := s.LexMin(params)
		if err != nil {
			t.Fatal(err)
		}
		hi, okHi, err := s.LexMax(params)
		if err != nil {
			t.Fatal(err)
		}
		if len(pts) == 0 {
			if okLo || okHi {
				t.Fatalf("%v at %v: lex found a point in an empty set", s, params)
			}
			continue
		}
		if !okLo || !slices.Equal(lo, pts[0]) || !okHi || !slices.Equal(hi, pts[len(pts)-1]) {
			t.Fatalf("%v at %v: lexmin %v lexmax %v, want %v %v", s, params, lo, hi, pts[0], pts[len(pts)-1])
		}
	}
}

func TestPrintParseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 1))
	for range propertyCases {
		u := &Union{}
		s, b := randBoxed(t, rng)
		u.Space = s.Space()
		for range rng.IntN(3) + 1 {
			rows := append(randRows(rng, s.space.NVar()), boxRows(s.space, b)...)
			if x, _ := NewSet(s.space, rows...); !x.empty {
				u.Sets = append(u.Sets, x)
			}
		}
		text := u.String()
		v, err := ParseUnion(text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if v.String() != text {
			t.Fatalf("round trip:\n%s\n%s", text, v)
		}
		box(u.Space.NVar(), b, func(p []int64) {
			a, _ := u.Contains(p)
			c, _ := v.Contains(p)
			if a != c {
				t.Fatalf("%s: reparsed differs at %v", text, p)
			}
		})
	}
}

func TestSubtractBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 1))
	for range propertyCases / 2 {
		s, b := randBoxed(t, rng)
		t2, err := NewSet(s.space, randRows(rng, s.space.NVar())...)
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.Subtract(t2)
		if err != nil {
			t.Fatal(err)
		}
		box(s.space.NVar(), b, func(p []int64) {
			in1, _ := s.Contains(p)
			in2, _ := t2.Contains(p)
			hits := 0
			for _, x := range d.Sets {
				if ok, _ := x.Contains(p); ok {
					hits++
				}
			}
			if want := in1 && !in2; (hits > 0) != want || hits > 1 {
				t.Fatalf("%v \\ %v = %v: at %v in %d pieces, want %v", s, t2, d, p, hits, want)
			}
		})
		// s ∩ t2 ⊆ s always; s ⊆ s ∩ t2 iff the difference has no point.
		x := &Union{Space: s.Space(), Sets: []*Set{s.Intersect(t2)}}
		us := &Union{Space: s.Space(), Sets: []*Set{s}}
		if ok, err := x.IsSubset(us); err != nil || !ok {
			t.Fatalf("%v ∩ %v not a subset of it: %v", s, t2, err)
		}
		eq, err := us.IsEqual(x)
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := d.IsEmpty(); eq != want {
			t.Fatalf("IsEqual(%v, %v) = %v, want %v", us, x, eq, want)
		}
	}
}
