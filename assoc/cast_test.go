package assoc

import (
	"errors"
	"math"
	"testing"
)

// Conversions (OpCast) follow C: integers extend by their own signedness
// and truncate; floats truncate toward zero into integers, without a value
// where the result does not fit; to bool, nonzero is true.
func TestConvert(t *testing.T) {
	f32 := func(f float32) Value { return Value(math.Float32bits(f)) }
	f64 := func(f float64) Value { return Value(math.Float64bits(f)) }
	for _, c := range []struct {
		v        Value
		from, to Type
		want     Value
		undef    bool
	}{
		{0xff, Int8, Int32, 0xffffffff, false}, // -1 sign-extends
		{0xff, Uint8, Int32, 0xff, false},      // 255 zero-extends
		{0x1234, Int16, Uint8, 0x34, false},    // truncates
		{0x80000000, Int32, Int64, 0xffffffff80000000, false},
		{0x80000000, Uint32, Int64, 0x80000000, false},
		{0x100, Int16, Bool, 1, false},                 // nonzero, though its low byte is 0
		{1, Bool, Uint16, 1, false},                    // true is 1
		{f64(-2.9), Float64, Int32, 0xfffffffe, false}, // toward zero: -2
		{f64(255.9), Float64, Uint8, 255, false},
		{f64(256), Float64, Uint8, 0, true},
		{f64(-1), Float64, Uint32, 0, true},
		{f64(math.NaN()), Float64, Int64, 0, true},
		{f64(9.3e18), Float64, Int64, 0, true}, // above 2^63
		{f64(1.8e19), Float64, Uint64, Value(uint64(1.8e19)), false},
		{0xffffffffffffffff, Uint64, Float64, f64(18446744073709551615), false},
		{0xffffffffffffffff, Int64, Float32, f32(-1), false},
		{f64(0.1), Float64, Float32, f32(0.1), false},
		{f64(0), Float64, Bool, 0, false},
		{f64(math.NaN()), Float64, Bool, 1, false},
	} {
		e := Cast(Var("v", c.from), c.to)
		got, err := Eval(e, Env{Vars: map[string]Value{"v": c.v}})
		if c.undef {
			if !errors.Is(err, ErrUndefined) {
				t.Errorf("%v %#x -> %v: %#x, %v; want undefined", c.from, c.v, c.to, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v %#x -> %v: %#x, %v; want %#x", c.from, c.v, c.to, got, err, c.want)
		}
	}
}

// The notation reads Halide's u8(e), the type names, and C's casts, and
// types a conversion's operand by itself (a named value: the element's
// type); a conversion used where another type is wanted converts again.
func TestParseCast(t *testing.T) {
	for _, c := range []struct {
		src  string
		ty   Type
		want string
	}{
		{"f() = u8(min(u16(f()) + u16(in(r)), 255))", Uint8, "u8(min(u16(x) + u16(in(r)), 255))"},
		{"f() = (uint8_t)min((uint16_t)f() + (uint16_t)in(r), 255)", Uint8, "u8(min(u16(x) + u16(in(r)), 255))"},
		{"f() = (uint8_t)(f() + in(r))", Int32, "i32(u8(x + in(r)))"},
		{"f() = f() + (unsigned char)in(r)", Int32, "x + i32(u8(in(r)))"},
		{"f() = u8(in(r)) + f()", Int64, "i64(u8(in(r))) + x"},
		{"f() = max(f(), (signed char)in(r))", Int32, "max(x, i32(i8(in(r))))"},
		{"f() = f() + (long long)(a(r)*b(r))", Int64, "x + i64(a(r) * b(r))"},
		{"f() = f() + uint16(in(r))", Uint16, "x + u16(in(r))"},
		{"f() = f() + (in(r))", Int32, "x + in(r)"}, // parentheses, no cast
	} {
		tp, err := ParseUpdate(c.src, c.ty)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if got := tp.String(); got != c.want {
			t.Errorf("%s: %s, want %s", c.src, got, c.want)
		}
		// Printed conversions read back as the same tree.
		back, err := ParseExpr(tp.Elems[0].String(), c.ty)
		if err != nil {
			t.Errorf("%s: reading %s back: %v", c.src, tp.Elems[0], err)
			continue
		}
		if x := ParseUpdateTree(t, c.src, c.ty); !back.Equal(x) {
			t.Errorf("%s: %s read back as %s", c.src, x, back)
		}
	}
	for _, src := range []string{"f() = u8(f(), in(r))", "f() = u8()"} {
		if _, err := ParseUpdate(src, Uint8); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
}

// ParseUpdateTree returns element 0 of the update src with its partial
// result as x (the form ParseExpr reads).
func ParseUpdateTree(t *testing.T, src string, ty Type) *Expr {
	t.Helper()
	tp, err := ParseUpdate(src, ty)
	if err != nil {
		t.Fatal(err)
	}
	return tp.Elems[0]
}

// Canon drops a conversion to its operand's own type and keeps the
// others; the closure test makes no 8-bit claim about an update with a
// conversion.
func TestCanonCast(t *testing.T) {
	e := ParseUpdateTree(t, "f() = f() + i32(in(r))", Int32)
	if got := Canon(e).String(); got != "x + in(r)" {
		t.Errorf("Canon: %s, want x + in(r)", got)
	}
	e = ParseUpdateTree(t, "f() = i32(u8(f() + in(r)))", Int32)
	if got := Canon(e).String(); got != "i32(u8(x + in(r)))" {
		t.Errorf("Canon: %s", got)
	}
	if _, ok := narrow(e); ok {
		t.Errorf("narrow(%v): an 8-bit form of a conversion", e)
	}
}
