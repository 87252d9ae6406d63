package poly

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestHugeInterval: { x : a·x >= b and a·x <= b + k } with a, b, k near 2^62.
// The answer, checked with math/big, must be exact unless ErrOverflow.
func TestHugeInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	answered := 0
	for range 2000 {
		a := 1 + rng.Int64N(1<<62)
		b := rng.Int64N(1<<62) - 1<<61
		k := rng.Int64N(1 << 62)
		if rng.IntN(2) == 0 {
			k = rng.Int64N(min(2*a, 1<<62))
		}
		sp := Space{Dims: []string{"x"}}
		s, err := NewSet(sp, Constraint{Coef: []int64{a, -b}}, Constraint{Coef: []int64{-a, b + k}})
		if err != nil {
			t.Fatal(err)
		}
		A, B, K := big.NewInt(a), big.NewInt(b), big.NewInt(k)
		lo := new(big.Int).Neg(new(big.Int).Div(new(big.Int).Neg(B), A)) // ceil(b/a); Div is Euclidean, a > 0
		hi := new(big.Int).Div(new(big.Int).Add(B, K), A)                // floor((b+k)/a)
		wantEmpty := lo.Cmp(hi) > 0
		res, err := s.Min([]int64{1, 0}, nil)
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		answered++
		if (res.Status == Empty) != wantEmpty || (!wantEmpty && res.Value != lo.Int64()) {
			t.Fatalf("%v (a=%d b=%d k=%d): %v %d, want empty=%v min %v", s, a, b, k, res.Status, res.Value, wantEmpty, lo)
		}
	}
	t.Logf("%d of 2000 answered exactly, the rest overflowed", answered)
}

// TestHugeShift: translating a random set by H (near 2^60) in every variable
// keeps emptiness and shifts lexmin by H, or reports ErrOverflow.
func TestHugeShift(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 1))
	answered := 0
	for range 1000 {
		s, _ := randBoxed(t, rng)
		h := rng.Int64N(1<<61) + 1<<60
		nv := s.space.NVar()
		var rows []Constraint
		ok := !try(func() {
			for _, r := range s.Constraints() { // r(x - h) = r(x) - h·Σ coef
				c := append([]int64(nil), r.Coef...)
				for _, v := range r.Coef[:nv] {
					c[nv] = sub(c[nv], mul(h, v))
				}
				rows = append(rows, Constraint{Eq: r.Eq, Coef: c})
			}
		})
		if !ok {
			continue
		}
		shifted, err := NewSet(s.space, rows...)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.IsEmpty()
		if err != nil {
			t.Fatal(err)
		}
		got, err := shifted.IsEmpty()
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%v shifted by %d: empty %v, want %v", s, h, got, want)
		}
		params := make([]int64, s.space.NParam())
		for i := range params {
			params[i] = h
		}
		lo, okLo, err := shifted.LexMin(params)
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		wlo, wok, err := s.LexMin(make([]int64, len(params)))
		if err != nil {
			t.Fatal(err)
		}
		if okLo != wok {
			t.Fatalf("%v shifted by %d: lexmin found %v, want %v", s, h, okLo, wok)
		}
		for i := range wlo {
			if lo[i] != wlo[i]+h {
				t.Fatalf("%v shifted by %d: lexmin %v, want %v + h", s, h, lo, wlo)
			}
		}
		answered++
	}
	t.Logf("%d of 1000 answered exactly", answered)
}

// TestHugePlane: { [x, y] : 0 <= x <= 20 and c <= a·x + b·y <= c + k } with
// a, b, c near 2^60..2^62; brute force over x in math/big gives emptiness
// and the minimum of y, which must match unless ErrOverflow.
func TestHugePlane(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	answered := 0
	for range 300 {
		a := rng.Int64N(1<<58) - 1<<57
		b := 1 + rng.Int64N(1<<58)
		c := rng.Int64N(1<<60) - 1<<59
		k := rng.Int64N(b + 1)
		if rng.IntN(2) == 0 {
			k = rng.Int64N(4)
		}
		sp := Space{Dims: []string{"x", "y"}}
		s, err := NewSet(sp,
			Constraint{Coef: []int64{1, 0, 0}}, Constraint{Coef: []int64{-1, 0, 20}},
			Constraint{Coef: []int64{a, b, -c}}, Constraint{Coef: []int64{-a, -b, c + k}})
		if err != nil {
			t.Fatal(err)
		}
		var best *big.Int
		B := big.NewInt(b)
		for x := int64(0); x <= 20; x++ {
			ax := new(big.Int).Mul(big.NewInt(a), big.NewInt(x))
			lo := new(big.Int).Sub(big.NewInt(c), ax)
			lo.Neg(new(big.Int).Div(new(big.Int).Neg(lo), B)) // ceil
			hi := new(big.Int).Sub(big.NewInt(c+k), ax)
			hi.Div(hi, B) // floor
			if lo.Cmp(hi) <= 0 && (best == nil || lo.Cmp(best) < 0) {
				best = lo
			}
		}
		res, err := s.Min([]int64{0, 1, 0}, nil)
		if errors.Is(err, ErrOverflow) {
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", s, err)
		}
		answered++
		if (res.Status == Empty) != (best == nil) || (best != nil && (!best.IsInt64() || res.Value != best.Int64())) {
			t.Fatalf("%v: %v %d, want %v", s, res.Status, res.Value, best)
		}
	}
	t.Logf("%d of 300 answered exactly, the rest overflowed", answered)
}
