package poly

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"nestor/internal/intmath"
	"testing"
)

// try runs f and reports whether it aborted with an overflow.
func try(f func()) (overflowed bool) {
	var err error
	func() {
		defer catch(&err)
		f()
	}()
	return errors.Is(err, ErrOverflow)
}

func inRange(z *big.Int) bool {
	return z.IsInt64() && z.Int64() != math.MinInt64
}

// checkOp verifies that op either returns the exact big.Int result or overflows.
func checkOp(t *testing.T, name string, a, b int64, op func(a, b int64) int64, big2 func(z, x, y *big.Int) *big.Int) {
	want := big2(new(big.Int), big.NewInt(a), big.NewInt(b))
	var got int64
	if try(func() { got = op(a, b) }) {
		if inRange(want) {
			t.Fatalf("%s(%d, %d) overflowed, want %v", name, a, b, want)
		}
		return
	}
	if !inRange(want) || got != want.Int64() {
		t.Fatalf("%s(%d, %d) = %d, want %v", name, a, b, got, want)
	}
}

var edge = []int64{0, 1, -1, 2, -2, 3, math.MaxInt64, -math.MaxInt64, math.MaxInt64 / 2, -math.MaxInt64 / 2,
	1 << 31, -(1 << 31), 1 << 32, 3037000499, 3037000500, -3037000500, 1 << 62, -(1 << 62)}

func TestCheckedArith(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 1))
	vals := append([]int64(nil), edge...)
	for range 200 {
		vals = append(vals, rng.Int64()>>rng.IntN(63)*int64(1-2*rng.IntN(2)))
	}
	for _, a := range vals {
		for _, b := range vals {
			checkOp(t, "add", a, b, add, (*big.Int).Add)
			checkOp(t, "sub", a, b, sub, (*big.Int).Sub)
			checkOp(t, "mul", a, b, mul, (*big.Int).Mul)
		}
	}
}

func FuzzRat(f *testing.F) {
	f.Add(int64(1), int64(2), int64(3), int64(4))
	f.Add(int64(math.MaxInt64), int64(3), int64(-math.MaxInt64), int64(7))
	f.Add(int64(1<<62), int64(1<<61+1), int64(1<<40), int64(3))
	f.Fuzz(func(t *testing.T, a, b, c, d int64) {
		if b == 0 || d == 0 || a == math.MinInt64 || b == math.MinInt64 || c == math.MinInt64 || d == math.MinInt64 {
			t.Skip()
		}
		var x, y rat
		if try(func() { x, y = mkrat(a, b), mkrat(c, d) }) {
			t.Fatalf("mkrat overflowed")
		}
		bx, by := big.NewRat(a, b), big.NewRat(c, d)
		ops := []struct {
			name string
			f    func() rat
			want *big.Rat
		}{
			{"add", func() rat { return x.add(y) }, new(big.Rat).Add(bx, by)},
			{"sub", func() rat { return x.sub(y) }, new(big.Rat).Sub(bx, by)},
			{"mul", func() rat { return x.mul(y) }, new(big.Rat).Mul(bx, by)},
		}
		for _, op := range ops {
			var got rat
			if try(func() { got = op.f() }) {
				continue // overflow is allowed; a wrong value is not
			}
			if big.NewRat(got.num, got.den).Cmp(op.want) != 0 || got.den <= 0 || intmath.Gcd(got.num, got.den) != 1 {
				t.Fatalf("%s(%v, %v) = %v, want %v", op.name, x, y, got, op.want)
			}
		}
		if c != 0 {
			var got rat
			if !try(func() { got = x.div(y) }) && big.NewRat(got.num, got.den).Cmp(new(big.Rat).Quo(bx, by)) != 0 {
				t.Fatalf("div(%v, %v) = %v", x, y, got)
			}
		}
	})
}
