package interp

import (
	"math"
	"strings"
	"testing"

	"nestor/ir"
)

// TestMathFuncs evaluates every function of ir.MathFuncs, and refuses a
// function it does not know (a const function of the source).
func TestMathFuncs(t *testing.T) {
	for name, f := range ir.MathFuncs {
		args := []float64{0.5, 0.25}[:f.Arity]
		v, err := call(name, f.T, args)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if f.T == ir.Float && !math.IsNaN(v.f) && v.f != float64(float32(v.f)) {
			t.Errorf("%s = %v, not a float", name, v.f)
		}
	}
	for _, tc := range []struct {
		name string
		args []float64
		want float64
	}{
		{"log10", []float64{1000}, 3},
		{"fmod", []float64{7.5, 2}, 1.5},
		{"hypot", []float64{3, 4}, 5},
		{"round", []float64{2.5}, 3}, // half away from zero
		{"rint", []float64{2.5}, 2},  // half to even in the default rounding mode
		{"fdim", []float64{2, 5}, 0}, // x ≤ y
		{"atan2", []float64{1, 1}, math.Pi / 4},
	} {
		v, err := call(tc.name, ir.Double, tc.args)
		if err != nil || v.f != tc.want {
			t.Errorf("%s%v = %v, %v; want %v", tc.name, tc.args, v.f, err, tc.want)
		}
	}
	if _, err := call("weight", ir.Double, []float64{1}); err == nil || !strings.Contains(err.Error(), "only the math functions") {
		t.Errorf("a function of the source: %v, want an error", err)
	}
}
