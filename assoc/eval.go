package assoc

import (
	"errors"
	"fmt"
	"math"
)

var (
	// ErrOverflow reports a signed int32 or int64 overflow (INT_MIN / -1
	// included) when Env.Wrap is false.
	ErrOverflow = errors.New("assoc: signed overflow")
	// ErrUndefined reports an evaluation without a value in C whatever
	// the mode: integer division or remainder by zero, a float converted
	// to an integer type that cannot hold it.
	ErrUndefined = errors.New("assoc: division by zero")
)

// Env binds the leaves of an expression for [Eval]: X[i] is x_i, Y[j] is
// y_j, K[i] is the constant k of Index i, Vars the named values. Every
// value is the bit pattern of its leaf's type.
type Env struct {
	X, Y []Value
	K    []Value
	Vars map[string]Value
	// Wrap makes signed int32 and int64 arithmetic wrap around modulo
	// 2^bits, as with -fwrapv (prove.Options.Wrap of the prover). By default
	// it is assumed, as C compilers assume, never to overflow: an
	// evaluation that would overflow has no value and reports
	// ErrOverflow.
	Wrap bool
}

// Eval returns the value of e under env, with C's semantics in each
// node's type:
//
//   - Unsigned types, int8 and int16 wrap around (C computes the narrow
//     types in int and converts back, which wraps with every compiler;
//     the int-promotion overflow of uint16 * uint16 is not modelled).
//   - int32 and int64 follow env.Wrap: by default an overflowing +, −,
//     *, /, % or negation is ErrOverflow; with Wrap it wraps, and
//     INT_MIN / −1 is INT_MIN, INT_MIN % −1 is 0.
//   - Integer division truncates and % takes the sign of the dividend;
//     division or remainder by zero is ErrUndefined.
//   - float32 and float64 are IEEE 754 with round to nearest, float32
//     rounded after every operation (no fused operations). min and max
//     are C's fmin and fmax: a NaN operand is ignored unless both are NaN,
//     and −0 is below +0, so min(−0, +0) = −0 and max(−0, +0) = +0 in
//     either order (IEEE 754-2019 minimumNumber/maximumNumber). Every NaN
//     an operation produces is the type's quiet NaN with the sign clear:
//     payloads are not modelled (compare results with [SameValue]). %
//     and the bitwise operations are not defined on floats.
//   - Bool is 0 or 1; & | ^ min max apply to it, arithmetic does not.
//   - A condition (of select, !, &&, ||) is true when it is not zero, as
//     in C (a NaN is true). select, && and || evaluate only the operands
//     C evaluates, so c ? a : b has a value where the branch not taken
//     has none.
//
// Leaves missing from env and operations undefined on a type are errors
// (neither ErrOverflow nor ErrUndefined).
func Eval(e *Expr, env Env) (Value, error) {
	return env.eval(e)
}

// EvalTuple evaluates every element of tp under env; all elements read
// the same x and y.
func EvalTuple(tp Tuple, env Env) ([]Value, error) {
	out := make([]Value, len(tp.Elems))
	if err := env.EvalTupleInto(tp, out); err != nil {
		return nil, err
	}
	return out, nil
}

// EvalTupleInto is EvalTuple into out (len(tp.Elems) values), which must
// not alias env.X or env.Y: no allocation, for loops that evaluate one
// tuple many times.
func (env *Env) EvalTupleInto(tp Tuple, out []Value) error {
	for i, e := range tp.Elems {
		v, err := env.eval(e)
		if err != nil {
			return err
		}
		out[i] = v
	}
	return nil
}

func (env *Env) eval(e *Expr) (Value, error) {
	switch e.Op {
	case OpX:
		return leaf(env.X, e, "x")
	case OpY:
		return leaf(env.Y, e, "y")
	case OpK:
		return leaf(env.K, e, "k")
	case OpConst:
		return e.Value & mask(e.Type), nil
	case OpVar:
		v, ok := env.Vars[e.Name]
		if !ok {
			return 0, fmt.Errorf("assoc: %s unbound", e.Name)
		}
		return v & mask(e.Type), nil
	case OpSelect:
		c, err := env.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		if c.Bool(e.Args[0].Type) {
			return env.eval(e.Args[1])
		}
		return env.eval(e.Args[2])
	case OpAnd, OpOr:
		a, err := env.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		if a.Bool(e.Args[0].Type) == (e.Op == OpOr) {
			return BoolValue(e.Op == OpOr), nil
		}
		b, err := env.eval(e.Args[1])
		if err != nil {
			return 0, err
		}
		return BoolValue(b.Bool(e.Args[1].Type)), nil
	case OpNot:
		a, err := env.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		return BoolValue(!a.Bool(e.Args[0].Type)), nil
	case OpCast:
		if len(e.Args) != 1 {
			break
		}
		a, err := env.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		return convert(a, e.Args[0].Type, e.Type)
	case OpExp, OpLog, OpAbs:
		if len(e.Args) != 1 || !e.Type.Float() || e.Args[0].Type != e.Type {
			break
		}
		a, err := env.eval(e.Args[0])
		if err != nil {
			return 0, err
		}
		return FloatValue(mathFuncs[e.Op-OpExp](a.Float(e.Type)), e.Type), nil
	}
	if e.Op >= numOps || len(e.Args) != e.Op.Arity() {
		return 0, fmt.Errorf("assoc: malformed %v node with %d operands", e.Op, len(e.Args))
	}
	a, err := env.eval(e.Args[0])
	if err != nil {
		return 0, err
	}
	if e.Op == OpNeg {
		return arith(e.Op, e.Type, a, 0, env.Wrap)
	}
	b, err := env.eval(e.Args[1])
	if err != nil {
		return 0, err
	}
	if e.Op >= OpLT && e.Op <= OpNE {
		return compare(e.Op, e.Args[0].Type, a, b), nil
	}
	return arith(e.Op, e.Type, a, b, env.Wrap)
}

// mathFuncs are C's exp, log and fabs, in the order of OpExp, OpLog,
// OpAbs: log of a negative value is NaN and log(0) is −∞, as in C; fabs
// clears the sign bit (exact). A float32 result rounds once to float32
// from the float64 value, as expf and logf are close to.
var mathFuncs = [...]func(float64) float64{math.Exp, math.Log, math.Abs}

// EvalOp returns the value of a strict operation (negation, arithmetic,
// min, max, the bitwise operations, comparisons) on operand values of
// type t, as Eval computes it with Wrap = wrap; OpNeg ignores b, and a
// comparison's value is a Bool.
func EvalOp(op Op, t Type, a, b Value, wrap bool) (Value, error) {
	if op >= OpLT && op <= OpNE {
		return compare(op, t, a, b), nil
	}
	return arith(op, t, a, b, wrap)
}

func leaf(vals []Value, e *Expr, name string) (Value, error) {
	if e.Index < 0 || e.Index >= len(vals) {
		return 0, fmt.Errorf("assoc: %s%d unbound", name, e.Index)
	}
	return vals[e.Index] & mask(e.Type), nil
}

// masks holds the significant bits of a value of each type.
var masks = [numTypes]Value{Bool: 1, Int8: 0xff, Int16: 0xffff, Int32: 0xffffffff, Int64: ^Value(0),
	Uint8: 0xff, Uint16: 0xffff, Uint32: 0xffffffff, Uint64: ^Value(0), Float32: 0xffffffff, Float64: ^Value(0)}

// mask returns the significant bits of a value of type t.
func mask(t Type) Value {
	if t < numTypes {
		return masks[t]
	}
	return ^Value(0)
}

// IntValue returns i as a value of the integer or Bool type t, wrapped
// to t's width.
func IntValue(i int64, t Type) Value { return Value(i) & mask(t) }

// FloatValue returns f as a value of the float type t (rounded to
// float32 for Float32).
func FloatValue(f float64, t Type) Value {
	if t == Float32 {
		return Value(math.Float32bits(float32(f)))
	}
	return Value(math.Float64bits(f))
}

// Int returns v, a value of the integer or Bool type t, as an int64:
// sign-extended for signed types, zero-extended otherwise.
func (v Value) Int(t Type) int64 {
	v &= mask(t)
	if t.Signed() {
		shift := 64 - t.Bits()
		return int64(v<<shift) >> shift
	}
	return int64(v)
}

// Float returns v, a value of the float type t, as a float64.
func (v Value) Float(t Type) float64 {
	if t == Float32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(uint64(v))
}

// SameValue reports whether a and b are the same value of type t: equal
// bits, except that every NaN is the same value (and −0 differs from +0).
func SameValue(a, b Value, t Type) bool {
	if t.Float() && math.IsNaN(a.Float(t)) && math.IsNaN(b.Float(t)) {
		return true
	}
	return a&mask(t) == b&mask(t)
}

// BoolValue returns the Bool value of b: 1 for true, 0 for false.
func BoolValue(b bool) Value {
	if b {
		return 1
	}
	return 0
}

// Bool reports whether v, of type t, is true as a C condition: not zero
// (a NaN is true, −0 false).
func (v Value) Bool(t Type) bool {
	if t.Float() {
		return v.Float(t) != 0
	}
	return v&mask(t) != 0
}

func compare(op Op, t Type, a, b Value) Value {
	var lt, eq bool
	switch {
	case t.Float():
		x, y := a.Float(t), b.Float(t)
		lt, eq = x < y, x == y
	case t.Signed():
		x, y := a.Int(t), b.Int(t)
		lt, eq = x < y, x == y
	default:
		x, y := a&mask(t), b&mask(t)
		lt, eq = x < y, x == y
	}
	switch op {
	case OpLT:
		return BoolValue(lt)
	case OpLE:
		return BoolValue(lt || eq)
	case OpEQ:
		return BoolValue(eq)
	}
	return BoolValue(!eq)
}

// arith applies the arithmetic, min/max or bitwise op to a and b (b
// unused for OpNeg) in type t.
func arith(op Op, t Type, a, b Value, wrap bool) (Value, error) {
	switch {
	case t.Float():
		return floatArith(op, t, a, b)
	case t == Bool:
		switch op {
		case OpBitAnd, OpMin:
			return a & b & 1, nil
		case OpBitOr, OpMax:
			return (a | b) & 1, nil
		case OpBitXor:
			return (a ^ b) & 1, nil
		}
		return 0, fmt.Errorf("assoc: %v on bool", op)
	case t == Int32 || t == Int64:
		if !wrap {
			return checkedArith(op, t, a.Int(t), b.Int(t))
		}
	}
	return wrapArith(op, t, a, b)
}

// wrapArith computes op in the integer type t modulo 2^bits.
func wrapArith(op Op, t Type, a, b Value) (Value, error) {
	m := mask(t)
	switch op {
	case OpNeg:
		return -a & m, nil
	case OpAdd:
		return (a + b) & m, nil
	case OpSub:
		return (a - b) & m, nil
	case OpMul:
		return (a * b) & m, nil
	case OpBitAnd:
		return a & b & m, nil
	case OpBitOr:
		return (a | b) & m, nil
	case OpBitXor:
		return (a ^ b) & m, nil
	case OpDiv, OpMod:
		if b&m == 0 {
			return 0, ErrUndefined
		}
		if t.Signed() {
			x, y := a.Int(t), b.Int(t)
			if op == OpDiv {
				return IntValue(x/y, t), nil // Go wraps MinInt64 / -1 to MinInt64
			}
			return IntValue(x%y, t), nil
		}
		if op == OpDiv {
			return (a & m) / (b & m), nil
		}
		return (a & m) % (b & m), nil
	case OpMin, OpMax:
		less := a&m < b&m
		if t.Signed() {
			less = a.Int(t) < b.Int(t)
		}
		if less == (op == OpMin) {
			return a & m, nil
		}
		return b & m, nil
	}
	return 0, fmt.Errorf("assoc: %v on %v", op, t)
}

// checkedArith computes op on the int32 or int64 values x and y,
// reporting ErrOverflow where the exact result does not fit t.
func checkedArith(op Op, t Type, x, y int64) (Value, error) {
	lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
	if t == Int64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	var r int64
	switch op {
	case OpNeg:
		if x == lo {
			return 0, ErrOverflow
		}
		r = -x
	case OpAdd:
		r = x + y
		if t == Int64 && (y > 0 && r < x || y < 0 && r > x) {
			return 0, ErrOverflow
		}
	case OpSub:
		r = x - y
		if t == Int64 && (y > 0 && r > x || y < 0 && r < x) {
			return 0, ErrOverflow
		}
	case OpMul:
		r = x * y
		if t == Int64 && x != 0 && (r/x != y || x == -1 && y == lo) {
			return 0, ErrOverflow
		}
	case OpDiv, OpMod:
		if y == 0 {
			return 0, ErrUndefined
		}
		if x == lo && y == -1 {
			return 0, ErrOverflow
		}
		r = x / y
		if op == OpMod {
			r = x % y
		}
	default:
		return wrapArith(op, t, IntValue(x, t), IntValue(y, t))
	}
	if r < lo || r > hi {
		return 0, ErrOverflow
	}
	return IntValue(r, t), nil
}

// floatArith computes op in the float type t, rounding float32 results
// after the operation (the explicit conversions keep Go from fusing).
func floatArith(op Op, t Type, a, b Value) (Value, error) {
	x, y := a.Float(t), b.Float(t)
	var r float64
	switch op {
	case OpNeg:
		r = -x
	case OpAdd:
		r = x + y
	case OpSub:
		r = x - y
	case OpMul:
		r = x * y
	case OpDiv:
		r = x / y
	case OpMin, OpMax:
		return fminmax(op, t, a, b), nil
	default:
		return 0, fmt.Errorf("assoc: %v on %v", op, t)
	}
	if t == Float32 {
		// Sums, differences, products and quotients of float32 values
		// computed in float64 and rounded once to float32 are correctly
		// rounded (53 ≥ 2·24 + 2), so this is float32 arithmetic.
		f := float32(r)
		if f != f {
			return NaN(t), nil
		}
		return Value(math.Float32bits(f)), nil
	}
	if r != r {
		return NaN(t), nil
	}
	return Value(math.Float64bits(float64(r))), nil
}

// NaN returns the quiet NaN with a clear sign bit that evaluation
// produces for every NaN result of type t (a float type).
func NaN(t Type) Value {
	if t == Float32 {
		return 0x7fc00000
	}
	return 0x7ff8000000000000
}

// fminmax is C's fmin (op OpMin) or fmax on values of the float type t:
// a NaN operand loses to a number, and −0 < +0.
func fminmax(op Op, t Type, a, b Value) Value {
	x, y := a.Float(t), b.Float(t)
	switch {
	case x != x:
		return b
	case y != y:
		return a
	case x == y:
		// Equal: only ±0 can differ; the sign bit decides.
		neg := math.Signbit(x)
		if neg == (op == OpMin) {
			return a
		}
		return b
	case (x < y) == (op == OpMin):
		return a
	}
	return b
}

// convert returns v of type from converted to type to, as C converts:
// to Bool, true when v is not zero (a NaN is true); between integers, v
// extended by its own signedness and truncated to to's width; an integer
// to a float, rounded to nearest; a float to an integer, truncated
// toward zero, ErrUndefined when that does not fit (or v is NaN); a
// float to a float, rounded to nearest.
func convert(v Value, from, to Type) (Value, error) {
	switch {
	case to == Bool:
		return BoolValue(v.Bool(from)), nil
	case !from.Float() && !to.Float():
		return IntValue(v.Int(from), to), nil
	case !from.Float():
		switch {
		case to == Float32 && from == Uint64:
			return Value(math.Float32bits(float32(uint64(v)))), nil
		case to == Float32:
			return Value(math.Float32bits(float32(v.Int(from)))), nil
		case from == Uint64:
			return Value(math.Float64bits(float64(uint64(v)))), nil
		}
		return Value(math.Float64bits(float64(v.Int(from)))), nil
	case to.Float():
		return FloatValue(v.Float(from), to), nil
	}
	f := math.Trunc(v.Float(from))
	lo, hi := float64(minValue(to).Int(to)), float64(maxValue(to).Int(to))
	if to.Unsigned() {
		lo, hi = 0, float64(uint64(maxValue(to)))
	}
	// hi+1 is a power of two, exact in float64: f fits when f < hi+1.
	if math.IsNaN(f) || f < lo || f >= hi+1 {
		return 0, ErrUndefined
	}
	if to == Uint64 {
		return Value(uint64(f)), nil
	}
	return IntValue(int64(f), to), nil
}
