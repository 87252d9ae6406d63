package assoc

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		t        Type
		in, want string
	}{
		{Int32, "x+y", "x + y"},
		{Int32, "x0 + y0", "x + y"},
		{Int32, "x0 + y1", "x0 + y1"},
		{Int32, "max(min(x,k),y)", "max(min(x, k), y)"},
		{Int32, "x > y ? x : y", "select(y < x, x, y)"},
		{Int32, "x >= y", "y <= x"},
		{Int32, "x < y == y < x", "x < y == y < x"},
		{Int32, "(x + y) * k", "(x + y) * k"},
		{Int32, "x - (y - k)", "x - (y - k)"},
		{Int32, "x - y - k", "x - y - k"},
		{Int32, "-x * y", "-x * y"},
		{Int32, "-(x * y)", "-(x * y)"},
		{Int32, "- -3", "-(-3)"},
		{Int32, "x - -3", "x - -3"},
		{Int32, "-(3)", "-(3)"},
		{Int32, "-2147483648", "-2147483648"},
		{Int32, "0x10 + x", "16 + x"},
		{Int32, "x & 1 | y ^ k", "x & 1 | y ^ k"},
		{Int32, "x && y || !k", "x && y || !k"},
		{Int32, "a[i] * in(r.x, r.y)", "a[i] * in(r.x,r.y)"},
		{Int32, "select(x < y, x1, y1)", "select(x0 < y0, x1, y1)"},
		{Int32, "k1 + k", "k1 + k"},
		{Float64, "x + 1", "x + 1.0"},
		{Float64, "x * 2.5e-3", "x * 0.0025"},
		{Float64, "fmin(x, -0.0)", "min(x, -0.0)"},
		{Float64, "x + -INFINITY + NAN", "x + -INFINITY + NAN"},
		{Float32, "x * 0.1", "x * 0.1"},
		{Bool, "x != true", "x != true"},
	}
	for _, tc := range tests {
		e, err := ParseExpr(tc.in, tc.t)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tc.in, err)
			continue
		}
		if got := Format(e); got != tc.want {
			t.Errorf("Format(ParseExpr(%q)) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		t       Type
		in, err string
	}{
		{Int32, "x + * y", "assoc: 1:5: want an expression"},
		{Int32, "max(x)", "assoc: 1:1: max takes 2 arguments"},
		{Int32, "x +\n  (y", "assoc: 2:5: want )"},
		{Int32, "x + 1.5", "assoc: 1:5: 1.5 used as int32"},
		{Int8, "x + 200", "assoc: 1:5: 200 does not fit int8"},
		{Int8, "x + -129", "assoc: 1:5: -129 does not fit int8"},
		{Int32, "x + true", "assoc: 1:5: true used as int32"},
		{Int32, "x $ y", "assoc: 1:3: want end of input"},
		{Int32, "", "assoc: 1:1: want an expression"},
		{Int32, strings.Repeat("(", 300) + "x" + strings.Repeat(")", 300), "nested too deeply"},
	}
	for _, tc := range tests {
		_, err := ParseExpr(tc.in, tc.t)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseExpr(%q): error %v, want %q", tc.in, err, tc.err)
		}
	}
}

func TestParseTupleTypes(t *testing.T) {
	// argmin over float32 values with an int32 index.
	tp, err := ParseTupleTypes("{min(x0, y0), select(x0 < y0, x1, y1)}", []Type{Float32, Int32})
	if err != nil {
		t.Fatal(err)
	}
	if got := tp.Elems[1].Args[0].Args[0].Type; got != Float32 {
		t.Errorf("x0 in the condition has type %v, want float32", got)
	}
	if got := tp.Elems[1].Type; got != Int32 {
		t.Errorf("element 1 has type %v, want int32", got)
	}
	if got, want := tp.String(), "{min(x0, y0), select(x0 < y0, x1, y1)}"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if _, err := ParseTupleTypes("{min(x0, y0), x1 + x0}", []Type{Float32, Int32}); err == nil ||
		!strings.Contains(err.Error(), "1:20: x0 has type float32, used as int32") {
		t.Errorf("mixing types: error %v", err)
	}
	if _, err := ParseTupleTypes("{x0 + y0}", []Type{Float32, Int32}); err == nil {
		t.Errorf("a 1-tuple for two types parsed")
	}
}

func TestParseUpdate(t *testing.T) {
	tests := []struct {
		src   string
		types []Type
		want  string
	}{
		{"f() = f() + in(r)", []Type{Int32}, "x + in(r)"},
		{"f(in(r) & 1) = f(in(r)&1) + in(r) * in(r)", []Type{Int32}, "x + in(r) * in(r)"}, // the paper's parity-bucketed sum of squares
		{"f() = {min(f()[0], in(r)), select(f()[0] < in(r), f()[1], r)}", []Type{Float32, Int32},
			"{min(x0, in(r)), select(x0 < in(r), x1, r)}"},
		{"f() = {min(f()[0], in(r.x, r.y)), select(f()[0] < in(r.x, r.y), f()[1], r.x), select(f()[0] < in(r.x, r.y), f()[2], r.y)}",
			[]Type{Float64, Int32, Int32}, "{min(x0, in(r.x,r.y)), select(x0 < in(r.x,r.y), x1, r.x), select(x0 < in(r.x,r.y), x2, r.y)}"},
		{"f() = select(P(r), f() + 1, f())", []Type{Int32}, "select(P(r), x + 1, x)"},
		{"s = s", []Type{Int32}, ""},
		{"f() = f()[2] + x", []Type{Int32}, ""},
		{"f() = g(f()) + x", []Type{Int32}, ""},
	}
	for _, tc := range tests {
		tp, err := ParseUpdateTypes(tc.src, tc.types)
		if tc.want == "" {
			if err == nil {
				t.Errorf("ParseUpdate(%q) = %v, want an error", tc.src, tp)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseUpdate(%q): %v", tc.src, err)
			continue
		}
		if got := tp.String(); got != tc.want {
			t.Errorf("ParseUpdate(%q) = %s, want %s", tc.src, got, tc.want)
		}
	}
	tp, err := ParseUpdateTypes("f() = {min(f()[0], in(r)), select(f()[0] < in(r), f()[1], r)}", []Type{Float32, Int32})
	if err != nil {
		t.Fatal(err)
	}
	if v := tp.Elems[1].Args[2]; v.Op != OpVar || v.Type != Int32 {
		t.Errorf("r is %v of type %v, want an int32 named value", v.Op, v.Type)
	}
	if v := tp.Elems[0].Args[1]; v.Op != OpVar || v.Type != Float32 {
		t.Errorf("in(r) is %v of type %v, want a float32 named value", v.Op, v.Type)
	}
}

// TestParseMath reads C's exp, log and fabs as the operations, of the
// partial result and of the program's values alike, prints them back,
// and converts them where an integer is wanted (double, or float for
// the f-suffixed names, as C computes them).
func TestParseMath(t *testing.T) {
	tests := []struct {
		src   string
		types []Type
		want  string
	}{
		{"f() = log(exp(f()) + exp(in(r)))", []Type{Float64}, "log(exp(x) + exp(in(r)))"},
		{"f() = logf(expf(a[i]) + expf(f()))", []Type{Float32}, "log(exp(a[i]) + exp(x))"},
		{"f() = fabs(f()) + fabs(in(r))", []Type{Float64}, "fabs(x) + fabs(in(r))"},
		{"f() = fmaxf(f(), fabsf(in(r)))", []Type{Float32}, "max(x, fabs(in(r)))"},
		{"f() = f() + (int)fabs(in(r))", []Type{Int32}, "x + i32(fabs(in(r)))"},
		{"f() = f() + fabsf(in(r))", []Type{Int32}, "x + i32(fabsf(in(r)))"},
		{"f() = log(f(), 2)", []Type{Float64}, ""},
	}
	for _, tc := range tests {
		tp, err := ParseUpdateTypes(tc.src, tc.types)
		if tc.want == "" {
			if err == nil {
				t.Errorf("ParseUpdate(%q) = %v, want an error", tc.src, tp)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseUpdate(%q): %v", tc.src, err)
			continue
		}
		if got := tp.String(); got != tc.want {
			t.Errorf("ParseUpdate(%q) = %s, want %s", tc.src, got, tc.want)
		}
		if back, err := ParseTupleTypes(tp.String(), tc.types); err != nil || !back.Elems[0].Equal(tp.Elems[0]) {
			t.Errorf("%s read back as %v, %v", tp, back, err)
		}
	}
	tp, err := ParseUpdateTypes("f() = f() + fabsf(in(r))", []Type{Int32})
	if err != nil {
		t.Fatal(err)
	}
	if a := tp.Elems[0].Args[1].Args[0]; a.Op != OpAbs || a.Type != Float32 || a.Args[0].Op != OpVar || a.Args[0].Type != Float32 {
		t.Errorf("fabsf(in(r)) in an int sum is %v of %v, want fabs of a float32 named value", a.Op, a.Type)
	}
	// Round trips, in the float types (in(r) and k typed by the context).
	for _, src := range []string{"log(exp(x) + exp(y))", "fabs(x) * fabs(y)", "max(fabs(x), fabs(y))", "fabs(-x)", "-fabs(x)",
		"{max(x0, y0), log(exp(x1 - max(x0, y0)) + fabs(y1))}", "exp(log(k) + in(r))", "log(fabs(x) + 1.5)"} {
		for _, ty := range []Type{Float32, Float64} {
			tp, err := ParseTuple(src, ty)
			if err != nil {
				t.Fatalf("%v: %q: %v", ty, src, err)
			}
			back, err := ParseTuple(tp.String(), ty)
			if err != nil {
				t.Fatalf("%v: %q printed as %q: %v", ty, src, tp.String(), err)
			}
			for i := range tp.Elems {
				if !back.Elems[i].Equal(tp.Elems[i]) {
					t.Errorf("%v: %q printed as %q, read back as %q", ty, src, tp.String(), back.String())
				}
			}
		}
	}
}

// TestRoundTrip checks Parse(Format(e)) = e on random trees of every
// type, and the same for tuples.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, ty := range Types() {
		for range 2000 {
			e := randExpr(rng, ty, 1+rng.IntN(10))
			src := Format(e)
			back, err := ParseExpr(src, ty)
			if err != nil {
				t.Fatalf("%v: ParseExpr(%q): %v", ty, src, err)
			}
			if !back.Equal(e) {
				t.Fatalf("%v: round trip of %q gave %q", ty, src, Format(back))
			}
			tp := Tuple{Elems: []*Expr{e, randExpr(rng, ty, 1+rng.IntN(5))}}
			tback, err := ParseTuple(tp.String(), ty)
			if err != nil || !tback.Elems[0].Equal(tp.Elems[0]) || !tback.Elems[1].Equal(tp.Elems[1]) {
				t.Fatalf("%v: tuple round trip of %q: %v, %v", ty, tp.String(), tback, err)
			}
		}
	}
}

// FuzzParse parses, prints and parses again: the trees must be equal,
// and nothing may panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"x + y", "max(min(x, k), y)", "select(x < y, x, y)", "x ? y : -3", "{x0 + y0, x1 * y1}",
		"a[i] + in(r)", "-(-x)", "x - -2147483648", "!(x && y) || k", "x >= y ^ 7", "0x1f % k",
		"log(exp(x) + exp(y))", "fabs(x) * fabsf(in(r))", "i32(logf(k))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, ty := range []Type{Int32, Float64, Bool} {
			tp, err := ParseTuple(src, ty)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "assoc: ") {
					t.Fatalf("error without position: %v", err)
				}
				continue
			}
			again, err := ParseTuple(tp.String(), ty)
			if err != nil {
				t.Fatalf("%q printed as %q, which does not parse: %v", src, tp.String(), err)
			}
			if len(again.Elems) != len(tp.Elems) {
				t.Fatalf("%q: %d elements, then %d", src, len(tp.Elems), len(again.Elems))
			}
			for i := range tp.Elems {
				if !again.Elems[i].Equal(tp.Elems[i]) {
					t.Fatalf("%q printed as %q, which parses as %q", src, tp.String(), again.String())
				}
			}
		}
	})
}
