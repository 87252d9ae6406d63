package frontend

import (
	"errors"
	"strings"
	"testing"

	"nestor/ir"
)

// TestUserShapes checks the translation of programs as users write them
// (issue 14): each case's summary must contain every wanted line.
func TestUserShapes(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"chained assignment runs the inner one first (deriche.c)", `
double a1, a5;
void f(double k) {
#pragma scop
  a1 = a5 = k;
#pragma endscop
}`, []string{
			"{ S0[] } beta=[0] dir=[] acc=w:a5,k = L1:double",
			"{ S1[] } beta=[1] dir=[] acc=w:a1,a5 = L1:double",
		}},
		{"chained conversion reads back the narrower left side", `
double d; float x;
void f(double k) {
#pragma scop
  d = x = k;
#pragma endscop
}`, []string{
			"acc=w:x,k = conv<float>(L1:double)",
			"acc=w:d,x = conv<double>(L1:float)",
		}},
		{"math functions of math.h and their float forms", `
#include <math.h>
double a[10]; float b[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++) {
    a[i] = log10(a[i]) + atan2(a[i], 2.0) + fmod(a[i], 3.0) + cbrt(a[i]);
    b[i] = tanhf(b[i]) + hypotf(b[i], 1.0f);
  }
#pragma endscop
}`, []string{"log10(L1:double):double", "atan2(L1:double, 2.0:double):double", "tanhf(L1:float):float"}},
		{"a function declared const is a value of its arguments", `
__attribute__((const)) double sq(int x);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = sq(i);
#pragma endscop
}`, []string{"sq(i:int):double"}},
		{"a pure function when the region writes only unaliased locals", `
__attribute__((pure)) double peek(int x);
double g;
void f(void) {
  double s = 0;
#pragma scop
  for (int i = 0; i < 10; i++)
    s += peek(i);
#pragma endscop
  g = s;
}`, []string{"+= peek(i:int):double"}},
		{"a min on the lower side is a union: one statement per piece", `
void f(int n, int m, double x[n]) {
#pragma scop
  for (int i = (n < m ? n : m); i < 2 * n; i++)
    x[i] = 0;
#pragma endscop
}`, []string{
			"[n, m] -> { S0[i] : i >= n and i <= 2*n - 1 and n <= m } beta=[0 0]",
			"[n, m] -> { S1[i] : i >= m and i <= 2*n - 1 and n >= m + 1 } beta=[0 1]",
		}},
		{"a remainder subscript splits the statement by residue", `
double a[2][10];
void f(void) {
#pragma scop
  for (int t = 0; t < 4; t++)
    for (int i = 1; i < 9; i++)
      a[(t + 1) % 2][i] = a[t % 2][i - 1];
#pragma endscop
}`, []string{
			"S0[t, i] : t >= 0 and t <= 3 and i >= 1 and i <= 8 and t = 2*floor((t)/2) } beta=[0 0 0] dir=[1 1] acc=w:a[1][i],a[0][i - 1]",
			"S1[t, i] : t >= 0 and t <= 3 and i >= 1 and i <= 8 and t = 2*floor((t + 1)/2) - 1 } beta=[0 0 1] dir=[1 1] acc=w:a[0][i],a[1][i - 1]",
		}},
		{"a counter after its loop holds its final value", `
void f(int n, double x[n + 1]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = 1;
  x[i] = 2;
#pragma endscop
}`, []string{
			"[n] -> { S1[] : n >= 1 } beta=[1] dir=[] acc=w:x[n]",
			"[n] -> { S2[] : n <= 0 } beta=[2] dir=[] acc=w:x[0]",
		}},
		{"a counter after its loop read in an expression, piece by piece", `
void f(int n, double x[n + 1]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    x[i] = 1;
  x[0] = i;
#pragma endscop
}`, []string{
			"[n] -> { S1[] : n >= 1 } beta=[1] dir=[] acc=w:x[0] = conv<double>(n:int)",
			"[n] -> { S2[] : n <= 0 } beta=[2] dir=[] acc=w:x[0] = conv<double>(0:int)",
		}},
		{"nestor's own output: an expanded scalar on the heap, freed at the end", `
void f(int n, double A[n][n]) {
#pragma scop
  double *nestor_w = __builtin_malloc(sizeof(double) * (n));
  for (int i = 0; i < n; i++) {
    nestor_w[i] = A[i][0];
    A[i][1] = nestor_w[i];
  }
  __builtin_free(nestor_w);
#pragma endscop
}`, []string{
			"S0[i] : i >= 0 and i <= n - 1 } beta=[0 0] dir=[1] acc=w:nestor_w[i],A[i][0]",
			"S1[i] : i >= 0 and i <= n - 1 } beta=[0 1] dir=[1] acc=w:A[i][1],nestor_w[i]",
		}},
		{"nestor's own output: floord bounds, a counter declared before a loop that a second loop continues", `
#define nestor_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))
#define nestor_min(a, b) ((a) < (b) ? (a) : (b))
void f(int n, double x[n]) {
  int i;
#pragma scop
  for (int t1 = 0; t1 <= nestor_floord(n - 1, 8); t1++) {
    int t2 = 8*t1;
    for (; t2 < nestor_min(n - 1, 8*t1 + 7); t2 += 2) {
      x[t2] = 0;
      x[t2 + 1] = 0;
    }
    for (; t2 < nestor_min(n, 8*t1 + 8); t2++)
      x[t2] = 1;
  }
  (void)i;
#pragma endscop
}`, []string{
			// The second loop starts where the first ended: when n − 2
			// ended it after it ran, and at 8·t1 when it never ran (the
			// case where 8·t1 + 6 ended it leaves the second loop empty).
			"S2[t1, t2] : t1 >= 0 and 8*t1 <= n - 1 and t2 >= 8*t1 + 2*floor((n - 8*t1)/2) and t2 <= n - 1 and t2 <= 8*t1 + 7 and 8*t1 >= n - 8 and 8*t1 <= n - 2 } beta=[0 1 0]",
			"S3[t1, t2] : t1 >= 0 and 8*t1 <= n - 1 and t2 >= 8*t1 and t2 <= n - 1 and t2 <= 8*t1 + 7 and 8*t1 >= n - 8 and 8*t1 >= n - 1 } beta=[0 1 1]",
		}},
		{"nestor's own output: the function's counter set by an assignment, then continued", `
void f(int n, double x[n], double y[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++)
    y[i] = 0;
  i = 0;
  for (; i < n - 1; i += 2) {
    x[i] = 0;
    x[i + 1] = 0;
  }
  for (; i < n; i++)
    x[i] = 1;
#pragma endscop
}`, []string{
			"S1[i] : i >= 0 and i = 2*floor((i)/2) and i <= n - 2 } beta=[1 0]",
			// The rest loop starts where the unrolled one stopped: at
			// 2·⌊n/2⌋ when it ran, at 0 otherwise.
			"S3[i] : i >= 2*floor((n)/2) and i <= n - 1 and n >= 2 } beta=[2 0]",
			"S4[i] : i >= 0 and i <= n - 1 and n <= 1 } beta=[2 1]",
		}},
		{"x % m == r holds whatever the sign of x (C truncates): a stride, and x ≥ r for r > 0", `
void f(int n, double x[n]) {
#pragma scop
  for (int i = -n; i < n; i++) {
    if (i % 3 == 0)
      x[0] += 1;
    if ((i + n) % 4 == 1)
      x[1] += 1;
  }
#pragma endscop
}`, []string{
			"S0[i] : i >= -n and i <= n - 1 and i = 3*floor((i)/3) }",
			"S1[i] : i >= -n and i <= n - 1 and i = 4*floor((i + n - 1)/4) - n + 1 and i >= -n + 1 }",
		}},
		{"a pointer to rows gets the first size that covers its accesses", `
void f(int n, double (*restrict A)[n], double (*B)[8]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      A[i][j] = B[i][j];
#pragma endscop
}`, []string{"acc=w:A[i][j],B[i][j]"}},
		{"a member written through a pointer parameter writes what it points to", `
struct cpx { double re, im; };
void f(int n, struct cpx x[n], struct cpx *s) {
#pragma scop
  for (int i = 0; i < n; i++)
    s->re += x[i].im;
#pragma endscop
}`, []string{"acc=w:s[0][0],s[0][0],x[i][1] += L2:double"}},
		{"a counter divided by its step in a subscript: the loop is counted by trips", `
void f(int n, double A[n], double B[3 * n]) {
#pragma scop
  for (int i = 1; i < 3 * n; i += 3)
    A[i / 3] = B[i - 1] + i;
  for (int i = 3 * n - 1; i >= 0; i -= 3)
    A[i / 3] *= 2;
#pragma endscop
}`, []string{
			// i = 1 + 3·i': i/3 = i', and the value of i read as 3·i' + 1.
			"[n] -> { S0[i] : i >= 0 and 3*i <= 3*n - 2 } beta=[0 0] dir=[1] acc=w:A[i],B[3*i] = (L1:double + conv<double>(((3:int * i:int):int + 1:int):int)):double",
			// Going down from 3n − 1 by 3: i = 3n − 1 − 3·i', i/3 = n − 1 − i'.
			"[n] -> { S1[i] : i >= 0 and 3*i <= 3*n - 1 } beta=[1 0] dir=[1] acc=w:A[n - i - 1],A[n - i - 1]",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := summary(parseOne(t, tc.src).Prog)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
		})
	}
}

// TestUserErrors checks the positioned reasons for what stays refused.
func TestUserErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"a pure function may read what the region writes", `
__attribute__((pure)) double peek(int x);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = peek(i);
#pragma endscop
}`, "test.c:7:12: not a static control part: call to peek, declared __attribute__((pure)): it may read a"},
		{"a plain function may have side effects", `
double h(double);
double a[10];
void f(void) {
#pragma scop
  for (int i = 0; i < 10; i++)
    a[i] = h(a[i]);
#pragma endscop
}`, "test.c:7:12: not a static control part: call to h, which may have side effects"},
		{"a counter set inside its own loop", `
void f(int n, double A[n]) {
  int i;
#pragma scop
  for (i = 0; i < n; i++) {
    A[i] = 0;
    i = n;
  }
#pragma endscop
}`, "test.c:7:5: not a static control part: assignment to loop counter i"},
		{"a counter counted by trips is not known after its loop", `
void f(int n, double A[n]) {
  int i;
#pragma scop
  for (i = 0; i < 3 * n; i += 3)
    A[i / 3] = 0;
  A[i / 3 - 1] = 1;
#pragma endscop
}`, "test.c:7:5: not a static control part: non-affine subscript i / 3 - 1 (loop counter i used outside its loop: the value of i after its loop is not affine: its loop steps by 3 and is counted by trips (i is divided in a subscript))"},
		{"a dividend over the trips of a loop, not a multiple of the divisor", `
void f(int n, int m, double A[n]) {
#pragma scop
  for (int i = 0; i < 3 * n; i += 3)
    A[(i + m) / 3] = 0;
#pragma endscop
}`, "test.c:5:7: not a static control part: non-affine subscript (i + m) / 3 ((i + m) is not a multiple of 3, as i = 3*k over its loop's trips k, it is 3*k + m: the quotient is not affine)"},
		{"a first value whose parameter is not a multiple of the step", `
void f(int n, int m, double A[n]) {
#pragma scop
  for (int i = m; i < 3 * n; i += 3)
    A[i / 3] = 0;
#pragma endscop
}`, "test.c:5:7: not a static control part: non-affine subscript i / 3 (i is not a multiple of 3, as i = 3*k + m over its loop's trips k: the quotient is not affine)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("test.c", []byte(tc.src), Config{})
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want an ErrorList", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n%v\nwant it to contain\n%s", err, tc.want)
			}
		})
	}
}

// TestHeapArray checks the array a heap allocation in the region makes.
func TestHeapArray(t *testing.T) {
	p := parseOne(t, `
void f(int n, double x[n]) {
#pragma scop
  double *w = __builtin_malloc((n + 1) * sizeof(double));
  for (int i = 0; i < n; i++)
    w[i + 1] = x[i];
  __builtin_free(w);
#pragma endscop
}`).Prog
	w := p.Arrays[p.ArrayIndex("w")]
	if !w.Heap || w.Storage != ir.ScopLocal || w.Rank() != 1 || ir.FormatAff(w.Dims[0], ir.Names{Param: ir.ParamNames(p)}) != "n + 1" {
		t.Errorf("w: %+v", w)
	}
}

// TestFirstSize checks the first sizes inferred for array parameters
// declared without one.
func TestFirstSize(t *testing.T) {
	p := parseOne(t, `
void f(int n, int m, double (*restrict A)[n], double (*B)[8], double C[][4]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 8; j++)
      A[i][j] = B[i][j] + C[m][0];
#pragma endscop
}`).Prog
	names := ir.Names{Param: ir.ParamNames(p)}
	for _, w := range []struct{ array, size string }{{"A", "n"}, {"B", "n"}} {
		a := p.Arrays[p.ArrayIndex(w.array)]
		if got := ir.FormatAff(a.Dims[0], names); got != w.size {
			t.Errorf("%s: first size %s, want %s", w.array, got, w.size)
		}
	}
	// C[m] is not below any candidate size everywhere (m may exceed 4 or n).
	if c := p.Arrays[p.ArrayIndex("C")]; c.Dims[0].Param != nil {
		t.Errorf("C: first size %s, want none", ir.FormatAff(c.Dims[0], names))
	}
}

// TestHeapRows checks a heap allocation of rows in the region, as nestor's
// output allocates a temporary expanded along two loops.
func TestHeapRows(t *testing.T) {
	p := parseOne(t, `
void f(int n, int m, double x[n][m]) {
#pragma scop
  double (*w)[m] = __builtin_malloc(sizeof(double) * (n) * (m));
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      w[i][j] = x[i][j];
  __builtin_free(w);
#pragma endscop
}`).Prog
	w := p.Arrays[p.ArrayIndex("w")]
	names := ir.Names{Param: ir.ParamNames(p)}
	if !w.Heap || w.Storage != ir.ScopLocal || w.Rank() != 2 || ir.FormatAff(w.Dims[0], names) != "n" || ir.FormatAff(w.Dims[1], names) != "m" {
		t.Errorf("w: %+v", w)
	}
	// Rows of another size than the allocation's are no array nestor
	// knows the shape of.
	_, err := Parse("test.c", []byte(`
void f(int n, int m, double x[n][m]) {
#pragma scop
  double (*w)[n] = __builtin_malloc(sizeof(double) * (n) * (m));
  for (int i = 0; i < n; i++)
    w[i][0] = x[i][0];
  __builtin_free(w);
#pragma endscop
}`), Config{})
	if err == nil {
		t.Error("rows of n elements in an allocation of n × m: accepted")
	}
}

// TestFreshPointer checks that a pointer the function initializes with a
// fresh allocation and then only subscripts (or frees, or advises) is an
// array to a region, its first size inferred as a parameter's, and that
// a pointer that may alias another array is not.
func TestFreshPointer(t *testing.T) {
	const loops = `
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      t[i][j] = A[i][j] * 2;
#pragma endscop
`
	p := parseOne(t, `
void *malloc(unsigned long);
void free(void *);
int madvise(void *, unsigned long, int);
void f(int n, int m, double A[n][m]) {
  double (*t)[m] = n * m > 4 ? malloc(sizeof(double) * n * m) : malloc(8);
  madvise(t, sizeof(double) * n * m, 14);`+loops+`  free(t);
}`).Prog
	a := p.Arrays[p.ArrayIndex("t")]
	names := ir.Names{Param: ir.ParamNames(p)}
	if a.Storage != ir.FuncLocal || a.Rank() != 2 || ir.FormatAff(a.Dims[0], names) != "n" || ir.FormatAff(a.Dims[1], names) != "m" {
		t.Errorf("t: %+v", a)
	}
	for _, tc := range []struct{ name, init, after string }{
		{"a copy of another pointer", "double (*t)[m] = (double (*)[m]) A;", ""},
		{"copied to another pointer", "double (*t)[m] = malloc(sizeof(double) * n * m);\n  double (*u)[m] = t; (void)u;", ""},
		{"assigned again", "double (*t)[m] = malloc(sizeof(double) * n * m);", "  t = (double (*)[m]) A;\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "void *malloc(unsigned long);\nvoid f(int n, int m, double A[n][m]) {\n  " + tc.init + loops + tc.after + "}\n"
			_, err := Parse("test.c", []byte(src), Config{})
			if err == nil || !strings.Contains(err.Error(), "pointer variable t") {
				t.Errorf("error %v, want the pointer refused", err)
			}
		})
	}
}
