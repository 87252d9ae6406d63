package rfactor

import (
	"strings"
	"testing"

	"nestor/assoc"
	"nestor/ir"
)

// TestFactorShipped checks that reduction loops of issue 17's shapes,
// written in C, are factored with the operators of the shipped tables
// (assoc.Embedded): Kadane's 4-tuple, Fibonacci's ring, continuants (a
// 2×2 matrix product), segmented sums, prefix products and the
// lexicographic argmin written with || and &&.
func TestFactorShipped(t *testing.T) {
	if _, err := assoc.Embedded(assoc.Int32); err != nil {
		t.Skip(err)
	}
	for _, tc := range []struct {
		name, decl, body string
		want             string // a part of the decision
	}{
		{"kadane", "int s, p, u, m;",
			"for (i = 0; i < n; i++) { s = s + c[i]; p = p > s ? p : s; u = u + c[i] > c[i] ? u + c[i] : c[i]; m = m > u ? m : u; }",
			"factored: operator {x0 + y0, max(x0 + y1, x1), max(x2 + y0, y2), max(max(x2 + y1, x3), y3)} (not commutative"},
		{"fibonacci", "long f0, f1, t;", "for (i = 0; i < n; i++) { t = f0 + f1; f1 = f0; f0 = t; }",
			"factored: operator {x0 * y0 + x1 * y1, x0 * y1 + x1 * y0 - x1 * y1} (commutative; identity)"},
		{"continuant", "long p0, p1, q0, q1, t, u;",
			"for (i = 0; i < n; i++) { t = p0 * c[i] + p1; p1 = p0; p0 = t; u = q0 * c[i] + q1; q1 = q0; q0 = u; }",
			"factored: operator {x0 * y0 + x1 * y2, x0 * y1 + x1 * y3, x2 * y0 + x3 * y2, x2 * y1 + x3 * y3} (not commutative"},
		{"segmented sum", "int fl, s;", "for (i = 0; i < n; i++) { s = c[i] > 0 ? c[i+1] : s + c[i+1]; fl = fl > c[i] ? fl : c[i]; }",
			"factored: operator {select(0 < y1, y0, x0 + y0), max(x1, y1)} (not commutative"},
		{"prefix products", "int p, s;", "for (i = 0; i < n; i++) { p = p * c[i]; s = s + p; }",
			"factored: operator {x0 * y0, x1 + x0 * y1} (not commutative"},
		{"lexicographic argmin", "int m, k;", "for (i = 0; i < n; i++) if (c[i] < m || c[i] == m && i < k) { m = c[i]; k = i; }",
			"(commutative; identity)"},
	} {
		p := program(t, tc.decl, tc.body)
		ds := Factor(p, nil, Options{Tables: assoc.Embedded})
		if len(ds) != 1 || ds[0].Reduction == nil || !strings.Contains(ds[0].Why, tc.want) {
			var why []string
			for _, d := range ds {
				why = append(why, d.Why)
			}
			t.Errorf("%s: %v; want %s", tc.name, why, tc.want)
		}
	}
}

// TestFactorMath checks that reductions through C's log, exp and fabs of
// the partial result are factored with the shipped tables' logaddexp and
// magnitude primitives (over the reals where rounding differs, under
// Options.Real), that the combining code calls log, exp and fabs back
// (logf, expf, fabsf in float), and that a near miss stays sequential.
func TestFactorMath(t *testing.T) {
	for _, tc := range []struct {
		name, decl, body string
		real             bool
		want             string // a part of the decision; "" to stay sequential
		calls            []string
	}{
		{"logaddexp", "double s;", "for (i = 0; i < n; i++) s = log(exp(s) + exp(a[i]));", true,
			"factored: operator log(exp(x) + exp(y)) (commutative", []string{"log", "exp"}},
		{"logaddexp float", "float s;", "for (i = 0; i < n; i++) s = logf(expf(s) + expf(a[i]));", true,
			"factored: operator log(exp(x) + exp(y)) (commutative", []string{"logf", "expf"}},
		{"sum of magnitudes", "double s;", "for (i = 0; i < n; i++) s = fabs(s) + fabs(a[i]);", true,
			"factored: operator fabs(x) + fabs(y) (commutative", []string{"fabs"}},
		{"largest magnitude", "double m;", "for (i = 0; i < n; i++) m = fmax(fabs(m), fabs(a[i]));", false,
			"factored: operator max(fabs(x), fabs(y)) (commutative", []string{"fabs", "fmax"}},
		{"sum of magnitudes in IEEE arithmetic", "double s;", "for (i = 0; i < n; i++) s = fabs(s) + fabs(a[i]);", false, "", nil},
		{"log-sum-exp without exp of the input", "double s;", "for (i = 0; i < n; i++) s = log(exp(s) + a[i]);", true, "", nil},
	} {
		p := program(t, tc.decl, tc.body)
		ds := Factor(p, nil, Options{Real: tc.real, Tables: assoc.Embedded})
		if len(ds) != 1 {
			t.Errorf("%s: %d decisions, want 1", tc.name, len(ds))
			continue
		}
		d := ds[0]
		if tc.want == "" {
			if d.Reduction != nil || !strings.HasPrefix(d.Why, "not ") {
				t.Errorf("%s: %s; want it sequential, not recognized", tc.name, d.Why)
			}
			continue
		}
		if d.Reduction == nil || !strings.Contains(d.Why, tc.want) {
			t.Errorf("%s: %s; want %s", tc.name, d.Why, tc.want)
			continue
		}
		called := map[string]bool{}
		for _, c := range d.Reduction.Combine {
			ir.Walk(c, func(x ir.Expr) bool {
				if call, ok := x.(*ir.Call); ok {
					called[call.Fn] = true
				}
				return true
			})
		}
		for _, fn := range tc.calls {
			if !called[fn] {
				t.Errorf("%s: the combining code calls %v, want %s", tc.name, called, fn)
			}
		}
	}
}
