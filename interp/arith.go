package interp

import (
	"cmp"
	"fmt"
	"math"

	"nestor/ir"
)

// value is a scalar whose C type the caller knows. Integers live in i:
// signed types sign-extended, unsigned types zero-extended, unsigned long
// as its bit pattern, _Bool as 0 or 1. Floating values live in f; a float
// holds a value exactly representable in float32.
type value struct {
	i int64
	f float64
}

// width is the number of value bits of integer type t.
func width(t ir.Type) uint { return uint(t.Size()) * 8 }

// wrap reduces the bits of x modulo 2^width(t) into the representation of
// integer type t (for _Bool: x != 0).
func wrap(t ir.Type, x int64) int64 {
	switch t {
	case ir.Bool:
		if x != 0 {
			return 1
		}
		return 0
	case ir.Char:
		return int64(int8(x))
	case ir.UChar:
		return int64(uint8(x))
	case ir.Short:
		return int64(int16(x))
	case ir.UShort:
		return int64(uint16(x))
	case ir.Int:
		return int64(int32(x))
	case ir.UInt:
		return int64(uint32(x))
	}
	return x
}

// fits reports whether the mathematical integer x is a value of integer
// type t (for unsigned long: 0 ≤ x; x is never above MaxInt64 here).
func fits(t ir.Type, x int64) bool {
	if t == ir.ULong {
		return x >= 0
	}
	return wrap(t, x) == x
}

func truthy(t ir.Type, v value) bool {
	if t.IsFloat() {
		return v.f != 0 // NaN is true
	}
	return v.i != 0
}

func boolValue(b bool) value {
	if b {
		return value{i: 1}
	}
	return value{}
}

// convert converts v from type from to type to as C does (see the package
// doc for the implementation-defined choices); it fails only for a
// float-to-integer conversion that C leaves undefined.
func convert(v value, from, to ir.Type) (value, error) {
	switch {
	case from == to:
		return v, nil
	case to == ir.Bool:
		return boolValue(truthy(from, v)), nil
	case from.IsInteger() && to.IsInteger():
		return value{i: wrap(to, v.i)}, nil
	case from.IsInteger(): // to floating
		if to == ir.Float {
			if from == ir.ULong {
				return value{f: float64(float32(uint64(v.i)))}, nil
			}
			return value{f: float64(float32(v.i))}, nil
		}
		if from == ir.ULong {
			return value{f: float64(uint64(v.i))}, nil
		}
		return value{f: float64(v.i)}, nil
	case to.IsFloat(): // floating to floating
		if to == ir.Float {
			return value{f: float64(float32(v.f))}, nil // overflow gives ±Inf
		}
		return v, nil
	}
	// Floating to integer: truncate; the result must fit (C99 6.3.1.4).
	t := math.Trunc(v.f)
	w := width(to)
	var lo, hi float64 // t must lie in [lo, hi)
	if to.IsUnsigned() {
		lo, hi = 0, math.Ldexp(1, int(w))
	} else {
		lo, hi = -math.Ldexp(1, int(w-1)), math.Ldexp(1, int(w-1))
	}
	if !(t >= lo && t < hi) {
		return value{}, fmt.Errorf("conversion of %s %g to %s is out of range", from, v.f, to)
	}
	if to == ir.ULong {
		return value{i: int64(uint64(t))}, nil
	}
	return value{i: int64(t)}, nil
}

// arith applies an arithmetic or bitwise operator (not a shift) to x and y
// of type t.
func arith(op ir.BinOp, t ir.Type, x, y value) (value, error) {
	switch {
	case t == ir.Float:
		a, b := float32(x.f), float32(y.f)
		var r float32
		switch op {
		case ir.Add:
			r = a + b
		case ir.Sub:
			r = a - b
		case ir.Mul:
			r = a * b
		case ir.Quo:
			r = a / b
		default:
			return value{}, fmt.Errorf("%s of %s", op, t)
		}
		return value{f: float64(r)}, nil
	case t.IsFloat():
		var r float64
		switch op {
		case ir.Add:
			r = x.f + y.f
		case ir.Sub:
			r = x.f - y.f
		case ir.Mul:
			r = x.f * y.f
		case ir.Quo:
			r = x.f / y.f
		default:
			return value{}, fmt.Errorf("%s of %s", op, t)
		}
		return value{f: r}, nil
	case t.IsUnsigned():
		return unsignedArith(op, t, uint64(x.i), uint64(y.i))
	}
	return signedArith(op, t, x.i, y.i)
}

func unsignedArith(op ir.BinOp, t ir.Type, a, b uint64) (value, error) {
	var r uint64
	switch op {
	case ir.Add:
		r = a + b
	case ir.Sub:
		r = a - b
	case ir.Mul:
		r = a * b
	case ir.Quo, ir.Rem:
		if b == 0 {
			return value{}, fmt.Errorf("%s division by zero: %d %s 0", t, a, op)
		}
		if op == ir.Quo {
			r = a / b
		} else {
			r = a % b
		}
	case ir.And:
		r = a & b
	case ir.Or:
		r = a | b
	case ir.Xor:
		r = a ^ b
	default:
		return value{}, fmt.Errorf("%s of %s", op, t)
	}
	return value{i: wrap(t, int64(r))}, nil
}

// signedArith computes exactly in int64 and then requires the result to
// fit t: operands of types narrower than long cannot overflow int64, and
// for long the int64 operations are checked.
func signedArith(op ir.BinOp, t ir.Type, a, b int64) (value, error) {
	var r int64
	ok := true
	switch op {
	case ir.Add:
		r = a + b
		ok = (b >= 0) == (r >= a)
	case ir.Sub:
		r = a - b
		ok = (b >= 0) == (r <= a)
	case ir.Mul:
		r = a * b
		ok = a == 0 || (r/a == b && !(a == -1 && b == math.MinInt64))
	case ir.Quo, ir.Rem:
		if b == 0 {
			return value{}, fmt.Errorf("%s division by zero: %d %s 0", t, a, op)
		}
		if b == -1 && !fits(t, -a) || a == math.MinInt64 && b == -1 {
			// C11 6.5.5: a%b is undefined when a/b is not representable.
			return value{}, fmt.Errorf("signed overflow in %s: %d %s %d", t, a, op, b)
		}
		if op == ir.Quo {
			r = a / b
		} else {
			r = a % b
		}
	case ir.And:
		r = a & b
	case ir.Or:
		r = a | b
	case ir.Xor:
		r = a ^ b
	default:
		return value{}, fmt.Errorf("%s of %s", op, t)
	}
	if !ok || !fits(t, r) {
		return value{}, fmt.Errorf("signed overflow in %s: %d %s %d", t, a, op, b)
	}
	return value{i: r}, nil
}

// shift applies << or >> to x of (promoted) type t by y of type yt, with
// C99 6.5.7's rules: the count must lie in [0, width), and a signed x
// shifted left must be nonnegative with x·2^y representable.
func shift(op ir.BinOp, t ir.Type, x value, yt ir.Type, y value) (value, error) {
	w := width(t)
	if (!yt.IsUnsigned() && y.i < 0) || uint64(y.i) >= uint64(w) {
		if yt == ir.ULong {
			return value{}, fmt.Errorf("shift count %d out of range for %s", uint64(y.i), t)
		}
		return value{}, fmt.Errorf("shift count %d out of range for %s", y.i, t)
	}
	n := uint(y.i)
	switch {
	case t.IsUnsigned() && op == ir.Shl:
		return value{i: wrap(t, int64(uint64(x.i)<<n))}, nil
	case t.IsUnsigned():
		return value{i: int64(uint64(x.i) >> n)}, nil
	case op == ir.Shr:
		return value{i: x.i >> n}, nil // arithmetic, as gcc does
	}
	hi := int64(1)<<(w-1) - 1 // the largest value of t
	if x.i < 0 || x.i > hi>>n {
		return value{}, fmt.Errorf("signed overflow in %s: %d << %d", t, x.i, n)
	}
	return value{i: x.i << n}, nil
}

// compare applies a comparison to x and y of type t, yielding int 0 or 1.
func compare(op ir.BinOp, t ir.Type, x, y value) value {
	var c int // -1, 0, 1, or 2 when unordered (NaN)
	switch {
	case t.IsFloat():
		switch {
		case x.f < y.f:
			c = -1
		case x.f > y.f:
			c = 1
		case x.f == y.f:
			c = 0
		default:
			c = 2
		}
	case t.IsUnsigned():
		c = cmp.Compare(uint64(x.i), uint64(y.i))
	default:
		c = cmp.Compare(x.i, y.i)
	}
	switch op {
	case ir.Lt:
		return boolValue(c == -1)
	case ir.Le:
		return boolValue(c == -1 || c == 0)
	case ir.Gt:
		return boolValue(c == 1)
	case ir.Ge:
		return boolValue(c == 1 || c == 0)
	case ir.Eql:
		return boolValue(c == 0)
	}
	return boolValue(c != 0) // Neq: true when unordered
}

// unary applies - or ~ to x of type t.
func unary(op ir.UnOp, t ir.Type, x value) (value, error) {
	switch {
	case op == ir.Neg && t.IsFloat():
		return value{f: -x.f}, nil
	case op == ir.Neg && t.IsUnsigned():
		return value{i: wrap(t, -x.i)}, nil
	case op == ir.Neg:
		if x.i == math.MinInt64 || !fits(t, -x.i) {
			return value{}, fmt.Errorf("signed overflow in %s: -(%d)", t, x.i)
		}
		return value{i: -x.i}, nil
	case op == ir.BitNot && t.IsInteger():
		return value{i: wrap(t, ^x.i)}, nil
	}
	return value{}, fmt.Errorf("%s of %s", op, t)
}

// mathFuncs are the double functions of ir.MathFuncs over float64; the
// float and long double forms use the same function (and the float forms
// round its result).
var mathFuncs = map[string]func(a []float64) float64{
	"sqrt":      func(a []float64) float64 { return math.Sqrt(a[0]) },
	"cbrt":      func(a []float64) float64 { return math.Cbrt(a[0]) },
	"exp":       func(a []float64) float64 { return math.Exp(a[0]) },
	"exp2":      func(a []float64) float64 { return math.Exp2(a[0]) },
	"expm1":     func(a []float64) float64 { return math.Expm1(a[0]) },
	"log":       func(a []float64) float64 { return math.Log(a[0]) },
	"log10":     func(a []float64) float64 { return math.Log10(a[0]) },
	"log2":      func(a []float64) float64 { return math.Log2(a[0]) },
	"log1p":     func(a []float64) float64 { return math.Log1p(a[0]) },
	"pow":       func(a []float64) float64 { return math.Pow(a[0], a[1]) },
	"hypot":     func(a []float64) float64 { return math.Hypot(a[0], a[1]) },
	"fabs":      func(a []float64) float64 { return math.Abs(a[0]) },
	"fmax":      func(a []float64) float64 { return fmax(a[0], a[1]) },
	"fmin":      func(a []float64) float64 { return -fmax(-a[0], -a[1]) },
	"fdim":      func(a []float64) float64 { return fdim(a[0], a[1]) },
	"fmod":      func(a []float64) float64 { return math.Mod(a[0], a[1]) },
	"remainder": func(a []float64) float64 { return math.Remainder(a[0], a[1]) },
	"copysign":  func(a []float64) float64 { return math.Copysign(a[0], a[1]) },
	"floor":     func(a []float64) float64 { return math.Floor(a[0]) },
	"ceil":      func(a []float64) float64 { return math.Ceil(a[0]) },
	"round":     func(a []float64) float64 { return math.Round(a[0]) },
	"trunc":     func(a []float64) float64 { return math.Trunc(a[0]) },
	"rint":      func(a []float64) float64 { return math.RoundToEven(a[0]) },
	"nearbyint": func(a []float64) float64 { return math.RoundToEven(a[0]) },
	"sin":       func(a []float64) float64 { return math.Sin(a[0]) },
	"cos":       func(a []float64) float64 { return math.Cos(a[0]) },
	"tan":       func(a []float64) float64 { return math.Tan(a[0]) },
	"asin":      func(a []float64) float64 { return math.Asin(a[0]) },
	"acos":      func(a []float64) float64 { return math.Acos(a[0]) },
	"atan":      func(a []float64) float64 { return math.Atan(a[0]) },
	"atan2":     func(a []float64) float64 { return math.Atan2(a[0], a[1]) },
	"sinh":      func(a []float64) float64 { return math.Sinh(a[0]) },
	"cosh":      func(a []float64) float64 { return math.Cosh(a[0]) },
	"tanh":      func(a []float64) float64 { return math.Tanh(a[0]) },
	"asinh":     func(a []float64) float64 { return math.Asinh(a[0]) },
	"acosh":     func(a []float64) float64 { return math.Acosh(a[0]) },
	"atanh":     func(a []float64) float64 { return math.Atanh(a[0]) },
	"erf":       func(a []float64) float64 { return math.Erf(a[0]) },
	"erfc":      func(a []float64) float64 { return math.Erfc(a[0]) },
	"tgamma":    func(a []float64) float64 { return math.Gamma(a[0]) },
}

// fdim is C's fdim: x − y when x > y, +0 otherwise, NaN for a NaN operand.
func fdim(x, y float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x > y:
		return x - y
	}
	return 0
}

// fmax is C's fmax: a NaN operand is ignored.
func fmax(x, y float64) float64 {
	switch {
	case math.IsNaN(x):
		return y
	case math.IsNaN(y):
		return x
	}
	return math.Max(x, y)
}

// call evaluates math function fn of result type t.
func call(fn string, t ir.Type, args []float64) (value, error) {
	f, ok := mathFuncs[fn]
	if !ok && (t == ir.Float || t == ir.LongDouble) && len(fn) > 1 {
		f, ok = mathFuncs[fn[:len(fn)-1]]
	}
	if _, math := ir.MathFuncs[fn]; !ok || !math {
		return value{}, fmt.Errorf("call of %s: the interpreter evaluates only the math functions of ir.MathFuncs", fn)
	}
	r := f(args)
	if t == ir.Float {
		r = float64(float32(r))
	}
	return value{f: r}, nil
}
