// Package intmath holds the integer helpers every other package shares:
// greatest common divisor, floor and ceiling division, absolute value, and
// addition, subtraction and multiplication that report overflow.
// They are exact for every int64 input where the result is an int64
// (Gcd and Abs of math.MinInt64 are the exception noted on each); poly's
// checked arithmetic builds on them.
package intmath

import "math"

// Abs returns |x|; Abs(math.MinInt64) is math.MinInt64 (|x| does not fit).
func Abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Uabs returns |x| as an unsigned value, exact for every x.
func Uabs(x int64) uint64 {
	if x < 0 {
		return uint64(-(x + 1)) + 1
	}
	return uint64(x)
}

// Gcd returns the greatest common divisor of |a| and |b|, 0 when both are
// 0; it wraps to math.MinInt64 only for Gcd(MinInt64, 0) and
// Gcd(MinInt64, MinInt64), whose value 2^63 does not fit.
func Gcd(a, b int64) int64 {
	x, y := Uabs(a), Uabs(b)
	for y != 0 {
		x, y = y, x%y
	}
	return int64(x)
}

// FloorDiv returns ⌊a/b⌋ for b > 0.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// CeilDiv returns ⌈a/b⌉ for b > 0.
func CeilDiv(a, b int64) int64 { return -FloorDiv(-a, b) }

// Add returns a + b and whether it fits in an int64.
func Add(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

// Sub returns a − b and whether it fits in an int64.
func Sub(a, b int64) (int64, bool) {
	if b == math.MinInt64 {
		return a - b, a < 0 // a + 2^63 fits only for negative a
	}
	return Add(a, -b)
}

// Mul returns a·b and whether it fits in an int64.
func Mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}
