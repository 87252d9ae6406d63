package poly

import (
	"errors"
	"math"
	"math/bits"
	"nestor/internal/intmath"
)

// ErrOverflow is returned when an exact result does not fit in an int64.
var ErrOverflow = errors.New("poly: overflow")

// overflow is the panic value used inside the package to abort a computation
// on overflow; exported functions recover it into ErrOverflow (see catch).
type overflow struct{}

// catch converts an internal overflow panic into ErrOverflow, and a spent
// Work budget (overLimit) into ErrLimit. Use as
// defer catch(&err) in every exported function that does arithmetic.
func catch(err *error) {
	if r := recover(); r != nil {
		switch r.(type) {
		case overflow:
			*err = ErrOverflow
		case overLimit:
			*err = ErrLimit
		default:
			panic(r)
		}
	}
}

// check panics with overflow when v is math.MinInt64, which the package
// never stores (so that negation is always exact).
func check(v int64) int64 {
	if v == math.MinInt64 {
		panic(overflow{})
	}
	return v
}

// add returns a+b, panicking with overflow if the exact sum is outside
// [-MaxInt64, MaxInt64]. Signed overflow happened iff a and b have the same
// sign and the sum has the other sign.
func add(a, b int64) int64 {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		panic(overflow{})
	}
	return check(s)
}

func sub(a, b int64) int64 { return add(a, neg(b)) }

func neg(a int64) int64 { return -check(a) }

// mul returns a*b exactly or panics with overflow. The 128-bit product of
// |a| and |b| comes from bits.Mul64; it fits iff the high word is 0 and the
// low word is at most MaxInt64.
func mul(a, b int64) int64 {
	check(a)
	check(b)
	hi, lo := bits.Mul64(intmath.Uabs(a), intmath.Uabs(b))
	if hi != 0 || lo > math.MaxInt64 {
		panic(overflow{})
	}
	if (a < 0) != (b < 0) {
		return -int64(lo)
	}
	return int64(lo)
}

func abs(a int64) int64 { return check(a) * sign(a) }

func sign(a int64) int64 {
	switch {
	case a < 0:
		return -1
	case a > 0:
		return 1
	}
	return 0
}

// rat is an exact rational num/den with den > 0 and intmath.Gcd(num, den) = 1.
// All operations use the checked int64 operations above.
type rat struct{ num, den int64 }

func ri(n int64) rat { return rat{check(n), 1} }

func mkrat(n, d int64) rat {
	if d == 0 {
		panic("poly: zero denominator")
	}
	if d < 0 {
		n, d = neg(n), neg(d)
	}
	g := intmath.Gcd(n, d)
	if g > 1 {
		n, d = n/g, d/g
	}
	return rat{n, d}
}

// a/b + c/d = (a*(d/g) + c*(b/g)) / (b/g*d) with g = intmath.Gcd(b, d).
func (x rat) add(y rat) rat {
	g := intmath.Gcd(x.den, y.den)
	return mkrat(add(mul(x.num, y.den/g), mul(y.num, x.den/g)), mul(x.den/g, y.den))
}

func (x rat) neg() rat { return rat{neg(x.num), x.den} }

func (x rat) sub(y rat) rat { return x.add(y.neg()) }

// (a/b)(c/d): cross-cancel intmath.Gcd(a,d) and intmath.Gcd(c,b) first to keep values small.
func (x rat) mul(y rat) rat {
	g1, g2 := intmath.Gcd(x.num, y.den), intmath.Gcd(y.num, x.den)
	if g1 == 0 || g2 == 0 {
		return rat{0, 1}
	}
	return mkrat(mul(x.num/g1, y.num/g2), mul(x.den/g2, y.den/g1))
}

func (x rat) inv() rat { return mkrat(x.den, x.num) }

func (x rat) div(y rat) rat { return x.mul(y.inv()) }

func (x rat) sign() int { return int(sign(x.num)) }

func (x rat) isInt() bool { return x.den == 1 }

func (x rat) floor() int64 { return intmath.FloorDiv(x.num, x.den) }

func (x rat) ceil() int64 { return intmath.CeilDiv(x.num, x.den) }

// cmp returns -1, 0, +1 as x <, =, > y.
func (x rat) cmp(y rat) int { return x.sub(y).sign() }
