package codegen

import (
	"strings"
	"testing"

	"nestor/ir"
)

// TestMinMaxMacrosExact compiles nestor_fmin and nestor_fmax against the
// C library's fmin, fmax, fminf, fmaxf, fminl and fmaxl on every pair of
// special values (signed zeros, infinities, subnormals, NaNs), in a loop
// the compiler vectorizes (-O3, omp simd) and at -O0. Results must be
// equal numbers or both NaNs: which of two zeros fmin(-0, +0) returns is
// left open by C, and varies (glibc's double functions return the first
// argument, its long double ones and gcc's constant folding the second).
func TestMinMaxMacrosExact(t *testing.T) {
	cc := needCC(t)
	var src strings.Builder
	src.WriteString("#include <math.h>\n#include <stdio.h>\n")
	for _, m := range macros {
		if strings.HasPrefix(m.name, "nestor_fm") {
			src.WriteString(m.def + "\n")
		}
	}
	src.WriteString(`#define N 11
#define SAME(T, a, b) ((isnan(a) && isnan(b)) || (a) == (b))
#define PAIRS(T, vals, F, M) \
  { T x[N * N], y[N * N], want[N * N], got[N * N]; \
    for (int i = 0; i < N; i++) \
      for (int j = 0; j < N; j++) { x[i * N + j] = vals[i]; y[i * N + j] = vals[j]; want[i * N + j] = F(vals[i], vals[j]); } \
    _Pragma("omp simd") \
    for (int k = 0; k < N * N; k++) got[k] = M(x[k], y[k]); \
    for (int k = 0; k < N * N; k++) \
      if (!SAME(T, want[k], got[k])) { bad++; printf("%s(%La, %La): %La, macro %La\n", #F, (long double) x[k], (long double) y[k], (long double) want[k], (long double) got[k]); } }
int main(void) {
  int bad = 0;
  volatile double nan_ = NAN, zero = 0.0;
  double d[N] = {-INFINITY, -1.5, -0.0, 0.0, 4.9e-324, 2.0, INFINITY, nan_, -nan_, 1e308, -4.9e-324};
  float f[N] = {-INFINITY, -1.5f, -0.0f, 0.0f, 1.4e-45f, 2.0f, INFINITY, (float) nan_, (float) -nan_, 3e38f, -1.4e-45f};
  long double l[N] = {-INFINITY, -1.5L, -0.0L, 0.0L, 4.9e-324L, 2.0L, INFINITY, nan_, -nan_, 1e308L, -zero};
  PAIRS(double, d, fmin, nestor_fmin)
  PAIRS(double, d, fmax, nestor_fmax)
  PAIRS(float, f, fminf, nestor_fmin)
  PAIRS(float, f, fmaxf, nestor_fmax)
  PAIRS(long double, l, fminl, nestor_fmin)
  PAIRS(long double, l, fmaxl, nestor_fmax)
  printf("%d\n", bad);
  return 0;
}
`)
	for _, flags := range [][]string{{"-O0"}, {"-O3", "-march=native", "-fopenmp-simd"}} {
		if got, out := compileRun(t, cc, src.String(), flags...); got != "0" {
			t.Errorf("%v: %s results differ from the library's:\n%s", flags, got, out)
		}
	}
}

// TestMinMaxForm checks which calls become macros: a clamp (one macro
// inside another), not a third level, not a call whose argument calls a
// function the compiler does not inline (exp); an argument converted
// implicitly is cast explicitly, so that the macro compares in the
// function's type.
func TestMinMaxForm(t *testing.T) {
	x := &ir.Load{Access: 1, T: ir.Double}
	f := &ir.Cast{T: ir.Double, X: &ir.Load{Access: 2, T: ir.Float}, Implicit: true}
	call := func(fn string, args ...ir.Expr) *ir.Call { return &ir.Call{Fn: fn, Args: args, T: ir.Double} }
	load := func(l *ir.Load) string { return []string{"", "x", "f"}[l.Access] }
	for _, tc := range []struct {
		e    ir.Expr
		want string
	}{
		{call("fmax", call("fmin", x, f), &ir.Const{T: ir.Double, Float: 0}),
			"nestor_fmax(nestor_fmin(x, (double)f), 0.0)"},
		{call("fmin", call("fmin", call("fmin", x, f), x), x),
			"fmin(nestor_fmin(nestor_fmin(x, (double)f), x), x)"},
		{call("fmin", x, call("exp", x)), "fmin(x, exp(x))"},
		{call("fmin", x, call("fabs", f)), "nestor_fmin(x, fabs(f))"},
		{&ir.Binary{Op: ir.Mul, X: call("fmaxf", f, f), Y: x, T: ir.Double}, "nestor_fmax((double)f, (double)f) * x"},
	} {
		if got := ir.FormatExpr(minMaxForm(tc.e), load, nil, nil); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}
