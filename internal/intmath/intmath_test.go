package intmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAgainstBig compares every helper with math/big on random and edge
// values.
func TestAgainstBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	edges := []int64{0, 1, -1, 2, -2, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	val := func() int64 {
		if rng.IntN(4) == 0 {
			return edges[rng.IntN(len(edges))]
		}
		return rng.Int64() >> rng.IntN(63)
	}
	for range 20000 {
		a, b := val(), val()
		for _, op := range []struct {
			name string
			f    func(a, b int64) (int64, bool)
			big  func(z, x, y *big.Int) *big.Int
		}{{"Add", Add, (*big.Int).Add}, {"Sub", Sub, (*big.Int).Sub}, {"Mul", Mul, (*big.Int).Mul}} {
			want := op.big(new(big.Int), big.NewInt(a), big.NewInt(b))
			got, ok := op.f(a, b)
			if ok != want.IsInt64() || ok && got != want.Int64() {
				t.Fatalf("%s(%d, %d) = %d, %v; want %s", op.name, a, b, got, ok, want)
			}
		}
		if b > 0 {
			q, m := new(big.Int).DivMod(big.NewInt(a), big.NewInt(b), new(big.Int)) // Euclidean: floor for b > 0
			_ = m
			if got := FloorDiv(a, b); got != q.Int64() {
				t.Fatalf("FloorDiv(%d, %d) = %d, want %s", a, b, got, q)
			}
			c := new(big.Int).Neg(new(big.Int).Div(new(big.Int).Neg(big.NewInt(a)), big.NewInt(b)))
			if a != math.MinInt64 { // -a overflows: CeilDiv's domain excludes it
				if got := CeilDiv(a, b); got != c.Int64() {
					t.Fatalf("CeilDiv(%d, %d) = %d, want %s", a, b, got, c)
				}
			}
		}
		g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(big.NewInt(a)), new(big.Int).Abs(big.NewInt(b)))
		if g.IsInt64() {
			if got := Gcd(a, b); got != g.Int64() {
				t.Fatalf("Gcd(%d, %d) = %d, want %s", a, b, got, g)
			}
		}
		if u := Uabs(a); new(big.Int).SetUint64(u).Cmp(new(big.Int).Abs(big.NewInt(a))) != 0 {
			t.Fatalf("Uabs(%d) = %d", a, u)
		}
	}
}
