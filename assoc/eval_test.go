package assoc

import (
	"errors"
	"math"
	"testing"
)

// TestEval checks C's semantics per type, one case per rule of Eval's
// documentation.
func TestEval(t *testing.T) {
	f32 := func(f float64) Value { return FloatValue(f, Float32) }
	f64 := func(f float64) Value { return FloatValue(f, Float64) }
	negZero := math.Copysign(0, -1)
	tests := []struct {
		src  string
		t    Type
		x, y Value
		wrap bool
		want Value
		err  error
	}{
		{"x + y", Int32, IntValue(math.MaxInt32, Int32), 1, false, 0, ErrOverflow},                     // signed overflow assumed away
		{"x + y", Int32, IntValue(math.MaxInt32, Int32), 1, true, IntValue(math.MinInt32, Int32), nil}, // -fwrapv
		{"x * y", Int64, IntValue(math.MinInt64, Int64), IntValue(-1, Int64), false, 0, ErrOverflow},
		{"x * y", Int64, 1 << 32, 1 << 31, false, 0, ErrOverflow},
		{"x * y", Int64, 1 << 31, 1 << 31, false, 1 << 62, nil},
		{"x - y", Int64, IntValue(math.MinInt64, Int64), 1, false, 0, ErrOverflow},
		{"x / y", Int32, IntValue(math.MinInt32, Int32), IntValue(-1, Int32), false, 0, ErrOverflow}, // INT_MIN / -1
		{"x / y", Int32, IntValue(math.MinInt32, Int32), IntValue(-1, Int32), true, IntValue(math.MinInt32, Int32), nil},
		{"x % y", Int32, IntValue(math.MinInt32, Int32), IntValue(-1, Int32), true, 0, nil},
		{"x / y", Int32, 5, 0, true, 0, ErrUndefined},
		{"x % y", Uint8, 5, 0, false, 0, ErrUndefined},
		{"x / y", Int32, IntValue(-7, Int32), 2, false, IntValue(-3, Int32), nil}, // truncation
		{"x % y", Int32, IntValue(-7, Int32), 2, false, IntValue(-1, Int32), nil}, // sign of the dividend
		{"-x", Int32, IntValue(math.MinInt32, Int32), 0, false, 0, ErrOverflow},
		{"x + y", Int8, 127, 1, false, IntValue(-128, Int8), nil}, // narrow types wrap
		{"x / y", Int8, IntValue(-128, Int8), IntValue(-1, Int8), false, IntValue(-128, Int8), nil},
		{"x * y", Uint32, 1 << 31, 2, false, 0, nil},
		{"x - y", Uint16, 0, 1, false, 0xffff, nil},
		{"min(x, y)", Int16, IntValue(-1, Int16), 1, false, IntValue(-1, Int16), nil},
		{"min(x, y)", Uint16, 0xffff, 1, false, 1, nil},
		{"x < y", Int8, IntValue(-1, Int8), 0, false, 1, nil},
		{"x < y", Uint8, 0xff, 0, false, 0, nil},
		{"x + y", Float32, f32(16777216), f32(1), false, f32(16777216), nil}, // rounded to float32
		{"x + y", Float64, f64(16777216), f64(1), false, f64(16777217), nil},
		{"x / y", Float64, f64(1), f64(0), false, f64(math.Inf(1)), nil},
		{"x - y", Float64, f64(math.Inf(1)), f64(math.Inf(1)), false, NaN(Float64), nil},
		{"min(x, y)", Float64, f64(math.NaN()), f64(2), false, f64(2), nil}, // fmin ignores NaN
		{"max(x, y)", Float32, f32(3), f32(math.NaN()), false, f32(3), nil},
		{"min(x, y)", Float64, f64(0), f64(negZero), false, f64(negZero), nil},
		{"min(x, y)", Float64, f64(negZero), f64(0), false, f64(negZero), nil},
		{"max(x, y)", Float64, f64(negZero), f64(0), false, f64(0), nil},
		{"x < y", Float64, f64(math.NaN()), f64(1), false, 0, nil},
		{"x != y", Float64, f64(math.NaN()), f64(math.NaN()), false, 1, nil},
		{"x == y", Float64, f64(0), f64(negZero), false, 1, nil},
		{"-x", Float32, f32(0), 0, false, f32(negZero), nil},
		{"select(y != 0, x / y, x)", Int32, 7, 0, false, 7, nil}, // the branch not taken has no value
		{"y != 0 && x / y > 1", Int32, 7, 0, false, 0, nil},      // && short-circuits
		{"y == 0 || x / y > 1", Int32, 7, 0, false, 1, nil},
		{"x && !y", Bool, 1, 0, false, 1, nil},
		{"x ^ y", Bool, 1, 1, false, 0, nil},
		{"x ? y : 3", Float64, f64(math.NaN()), f64(1), false, f64(1), nil}, // NaN is true
		{"log(x)", Float64, f64(1), 0, false, f64(0), nil},
		{"log(exp(x) + exp(y))", Float64, f64(0), f64(0), false, f64(math.Ln2), nil},
		{"logf(x)", Float32, f32(-1), 0, false, f32(math.NaN()), nil}, // C's log of a negative value
		{"log(x)", Float64, f64(0), 0, false, f64(math.Inf(-1)), nil},
		{"fabs(x) + fabs(y)", Float64, f64(-3), f64(-0.5), false, f64(3.5), nil},
		{"fabsf(x)", Float32, f32(negZero), 0, false, f32(0), nil}, // the sign bit cleared
		{"max(fabs(x), fabs(y))", Float32, f32(-7), f32(math.NaN()), false, f32(7), nil},
		{"x + y", Bool, 1, 1, false, 0, errBoolArith},
		{"x % y", Float64, f64(1), f64(1), false, 0, errBoolArith},
	}
	for _, tc := range tests {
		e, err := ParseExpr(tc.src, tc.t)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got, err := Eval(e, Env{X: []Value{tc.x}, Y: []Value{tc.y}, Wrap: tc.wrap})
		switch {
		case tc.err == errBoolArith:
			if err == nil || errors.Is(err, ErrOverflow) || errors.Is(err, ErrUndefined) {
				t.Errorf("%s on %v: err %v, want a type error", tc.src, tc.t, err)
			}
		case !errors.Is(err, tc.err):
			t.Errorf("%s on %v (%#x, %#x, wrap %v): err %v, want %v", tc.src, tc.t, tc.x, tc.y, tc.wrap, err, tc.err)
		case err == nil && got != tc.want:
			t.Errorf("%s on %v (%#x, %#x, wrap %v) = %#x, want %#x", tc.src, tc.t, tc.x, tc.y, tc.wrap, got, tc.want)
		}
	}
}

// errBoolArith marks the cases that must fail with a type error.
var errBoolArith = errors.New("type error")

func TestEvalUnbound(t *testing.T) {
	for _, e := range []*Expr{X(1, Int32), Y(0, Int32), K(Int32), Var("r", Int32)} {
		if _, err := Eval(e, Env{X: []Value{1}}); err == nil {
			t.Errorf("%v: no error for an unbound leaf", e)
		}
	}
	v, err := Eval(Apply(OpAdd, Var("r", Int32), K(Int32)), Env{K: []Value{2}, Vars: map[string]Value{"r": 3}})
	if err != nil || v != 5 {
		t.Errorf("r + k = %v, %v; want 5", v, err)
	}
}

// TestEvalInt64Overflow compares the int64 overflow checks with exact
// big-integer-free reasoning over int32 products computed in int64.
func TestEvalInt64Overflow(t *testing.T) {
	vals := []int64{0, 1, -1, 2, -2, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1 << 32, -1 << 32, 1 << 31, 1<<31 - 1, 3037000499, 3037000500, -3037000500}
	for _, op := range []Op{OpAdd, OpSub, OpMul} {
		for _, x := range vals {
			for _, y := range vals {
				_, err := checkedArith(op, Int64, x, y)
				if got, want := err != nil, overflows(op, x, y); got != want {
					t.Errorf("%d %v %d: overflow %v, want %v", x, op, y, got, want)
				}
			}
		}
	}
}

// overflows reports whether x op y overflows int64, using float64
// magnitude estimates away from the boundary and exact checks near it.
func overflows(op Op, x, y int64) bool {
	switch op {
	case OpAdd:
		return y > 0 && x > math.MaxInt64-y || y < 0 && x < math.MinInt64-y
	case OpSub:
		return y < 0 && x > math.MaxInt64+y || y > 0 && x < math.MinInt64+y
	}
	if x == 0 || y == 0 {
		return false
	}
	r := x * y
	return r/y != x || r/x != y || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64)
}
