package pipeline

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"nestor/assoc"
	"nestor/check"
	"nestor/frontend"
	"nestor/internal/assoctables"
)

// reductionTables returns the tables the rfactor tests match against,
// skipping the test when they cannot be built (no z3).
func reductionTables(t *testing.T) func(assoc.Type) (*assoc.Table, error) {
	t.Helper()
	if _, err := assoctables.Tables(assoc.Int32); err != nil {
		t.Skipf("no tables: %v", err)
	}
	return assoctables.Tables
}

// parseSource writes src to a file named name in a temporary folder and
// parses it (the message shows src when it does not parse).
func parseSource(t *testing.T, name, src string) *frontend.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := frontend.ParseFile(path, frontend.Config{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f
}

// expectOriginal runs the optimized text out against the original file f
// (check.Compare with opt) and fails the test when the comparison cannot
// be made or the results differ.
func expectOriginal(t *testing.T, f *frontend.File, out []byte, opt check.Options) {
	t.Helper()
	res, err := check.Compare(context.Background(), f, nil, out, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Match {
		var b bytes.Buffer
		res.Format(&b)
		t.Errorf("results differ:\n%s\ncode:\n%s", b.String(), out)
	}
}

// TestReductions optimizes every kernel of testdata/reductions with the
// shipped tables, checks that each of its reductions is factored, and runs the result against the
// original with one, two and three threads (24 chunks of iterations,
// taken in any order, their partial results combined in order): equal
// results (exactly for integers, within check's tolerance for floats
// reassociated under --assoc-math).
func TestReductions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs C")
	}
	if _, err := exec.LookPath(cmp(os.Getenv("CC"), "cc")); err != nil {
		t.Skip("no C compiler")
	}
	ks, _ := filepath.Glob("../testdata/reductions/*.c")
	if len(ks) < 4 {
		t.Fatalf("%d kernels in testdata/reductions, want at least 4", len(ks))
	}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		t.Run(name, func(t *testing.T) {
			cfg := frontend.Config{Defines: []string{"SMALL_DATASET"}}
			f, err := frontend.ParseFile(k, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.AssocMath, o.Notes = true, true, &notes // the shipped tables
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			outsideEqual(t, f, out)
			if !bytes.Contains(out, []byte("#pragma omp")) || strings.Contains(notes.String(), "stays sequential") {
				t.Fatalf("a reduction not factored; notes:\n%s", notes.String())
			}
			for _, threads := range []string{"1", "2", "3"} {
				t.Setenv("OMP_NUM_THREADS", threads)
				res, err := check.Compare(context.Background(), f, nil, out, check.Options{
					Defines: cfg.Defines, Runs: 1,
				})
				if err != nil {
					t.Fatalf("%s threads: %v", threads, err)
				}
				if !res.Match {
					var b bytes.Buffer
					res.Format(&b)
					t.Errorf("%s threads: results differ:\n%s\ncode:\n%s", threads, b.String(), out)
				}
			}
		})
	}
}

// TestReductionsExact checks that without --assoc-math only the
// reductions exact in IEEE arithmetic are factored: min and max are,
// float sums and products are not.
func TestReductionsExact(t *testing.T) {
	tables := reductionTables(t)
	for _, tc := range []struct {
		kernel   string
		factored bool
	}{
		{"minmax", true},
		{"sumsq", false},
		{"complex", false},
		{"argmin", false}, // a NaN would make the select-based min non-associative
	} {
		f, err := frontend.ParseFile("../testdata/reductions/"+tc.kernel+".c", frontend.Config{Defines: []string{"SMALL_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		var notes bytes.Buffer
		o := DefaultOptions()
		o.Check, o.Tables, o.Notes = true, tables, &notes
		out, err := Optimize(f, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(out, []byte("#pragma omp parallel")); got != tc.factored {
			t.Errorf("%s: factored %v, want %v; notes:\n%s", tc.kernel, got, tc.factored, notes.String())
		}
		if !tc.factored && !strings.Contains(notes.String(), "stays sequential") {
			t.Errorf("%s: no note says why the reduction stays sequential:\n%s", tc.kernel, notes.String())
		}
		// --norfactor, and --noparallel, keep every reduction sequential.
		for _, o := range []Options{{Schedule: true, Parallel: true, Tables: tables}, {Schedule: true, Rfactor: true, Tables: tables}} {
			o.Check = true
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(out, []byte("#pragma omp parallel")) {
				t.Errorf("%s: factored with Rfactor %v, Parallel %v", tc.kernel, o.Rfactor, o.Parallel)
			}
		}
	}
}

// TestReductionsSequential checks that reductions whose update is not
// associative stay sequential, with a note saying so, even with
// --assoc-math.
func TestReductionsSequential(t *testing.T) {
	tables := reductionTables(t)
	for _, tc := range []struct{ name, decl, body string }{
		// x ↦ x² + y: its compositions are polynomials of growing
		// degree, no associative operator over a few values.
		{"square and add", "int s;", "s = s * s + b[i];"},
		// Kahan summation: the compensation is not an associative
		// operator (the paper's and the rejected example).
		{"kahan", "double s, c, y, t;", "y = a[i] - c; t = s + y; c = (t - s) - y; s = t;"},
		// 2x + y.
		{"double and add", "int s;", "s = 2 * s + b[i];"},
	} {
		src := `void f(int n, double a[100], int b[100], double out[2]) {
  int i;
  ` + tc.decl + `
#pragma scop
  for (i = 0; i < n; i++) {
    ` + tc.body + `
  }
  out[0] = s;
#pragma endscop
}
`
		f, err := frontend.Parse("kernel.c", []byte(src), frontend.Config{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var notes bytes.Buffer
		o := DefaultOptions()
		o.Check, o.Tables, o.AssocMath, o.Notes = true, tables, true, &notes
		out, err := Optimize(f, o)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if bytes.Contains(out, []byte("#pragma omp parallel")) {
			t.Errorf("%s: factored:\n%s", tc.name, out)
		}
		if n := notes.String(); !strings.Contains(n, "stays sequential: not") {
			t.Errorf("%s: notes do not say why it stays sequential:\n%s", tc.name, n)
		}
	}
}

// TestReductionShapes runs reductions of other shapes through opt and
// check, with one and two threads: results equal to the original's.
func TestReductionShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs C")
	}
	if _, err := exec.LookPath(cmp(os.Getenv("CC"), "cc")); err != nil {
		t.Skip("no C compiler")
	}
	tables := reductionTables(t)
	for _, tc := range []struct{ name, decl, body string }{
		// Integers, exact without --assoc-math; c repeats values.
		{"int argmin", "int m, k;", "m = c[0]; k = 0;\n for (i = 1; i < n; i++) if (c[i] < m) { m = c[i]; k = i; }\n iout[0] = m; iout[1] = k;"},
		// The minimum at the last iteration of thread 0's chunk (3
		// threads: 1..16667), ties at the ends of the others.
		{"int argmin at chunk ends", "int m, k;", "m = c[0]; k = 0;\n for (i = 1; i < n; i++) if (c[i] - (i == 16667 || i == 25000 || i == 33334) * 2000 < m) { m = c[i] - (i == 16667 || i == 25000 || i == 33334) * 2000; k = i; }\n iout[0] = m; iout[1] = k;"},
		{"int argmax downward", "int m, k;", "m = c[0]; k = 0;\n for (i = n - 1; i >= 0; i--) if (c[i] > m) { m = c[i]; k = i; }\n iout[0] = m; iout[1] = k;"},
		{"int sum stride 3", "long s;", "s = 0;\n for (i = 1; i < n; i += 3) s += c[i];\n lout[0] = s;"},
		{"2-d sum", "int s;", "s = 0;\n for (i = 0; i < 64; i++) for (j = 0; j < n; j++) s += c[j] * (i + 1);\n iout[0] = s;"},
		{"element", "", "for (i = 0; i < n; i++) iout[2] = iout[2] > c[i] ? iout[2] : c[i];"},
		{"min and max with temporary", "double lo, hi, t;", "lo = a[0]; hi = a[0];\n for (i = 0; i < n; i++) { t = a[i] * 2; lo = fmin(lo, t); hi = fmax(t, hi); }\n out[0] = lo; out[1] = hi; out[2] = t;"},
		{"float argmin", "double m; int k;", "m = a[0]; k = 0;\n for (i = 1; i < n; i++) if (a[i] < m) { m = a[i]; k = i; }\n out[0] = m; iout[0] = k;"},
		{"2-d argmin", "int m, k;", "m = c[0]; k = 0;\n for (i = 0; i < 8; i++) for (j = 0; j < n; j++) if (c[j] + i < m) { m = c[j] + i; k = i * n + j; }\n iout[0] = m; iout[1] = k;"},
		// Arrays larger than the L2 cache: the scheduled (tiled) order.
		{"scheduled 2-d sum", "double s;", "s = 0;\n for (i = 0; i < 4; i++) for (j = 0; j < 300000; j++) s += big[j] * i;\n out[0] = s;"},
		{"scheduled argmin", "double m; int k;", "m = big[0]; k = 0;\n for (i = 0; i < 300000; i++) if (big[i] < m) { m = big[i]; k = i; }\n out[0] = m; iout[0] = k;"},
		// x - y is a sum of the negated inputs.
		{"int difference", "int s;", "s = 0;\n for (i = 0; i < n; i++) s = s - c[i];\n iout[0] = s;"},
		{"float difference", "double s;", "s = 0;\n for (i = 0; i < n; i++) s = s - a[i] * 2;\n out[0] = s;"},
		// Commutative with an identity: folded in vector lanes (see
		// TestReductionLanes), a temporary private to each lane, n not a
		// multiple of the lanes.
		{"lanes with temporary", "int s, t;", "s = 0;\n for (i = 3; i < n - 2; i++) { t = c[i] * 3; s += t - 1; }\n iout[0] = s;"},
		// Lanes along the inner loop of a nest, whose bounds read the
		// outer counter.
		{"lanes in a triangle", "double s;", "s = 0;\n for (i = 0; i < 300; i++) for (j = i; j < n - i; j++) s += a[j] * i;\n out[0] = s;"},
		// Short reductions in a sequential loop: folded in lanes
		// without OpenMP below the fork threshold.
		{"short sums in a loop", "double s, t;", "t = 1;\n for (i = 1; i < 300; i++) { s = 0; for (j = 0; j < i * 17; j++) s += a[j] * t; t = t * 0.5 + s * 0.001; }\n out[0] = t;"},
		// Nests too small to fork for: a constant count (no OpenMP at
		// all) and a count known at run time (the else branch).
		{"small constant nest", "double s;", "s = 0;\n for (i = 0; i < 10; i++) for (j = 0; j < 40; j++) s += a[j] * i;\n out[0] = s;"},
		{"small nest", "double s;", "s = 0;\n for (i = 0; i < 10; i++) for (j = 0; j < n - 49900; j++) s += a[j] * i;\n out[0] = s;"},
		{"empty loop", "int s;", "s = 7;\n for (i = n; i < 2 * n - N; i++) s += c[i];\n iout[0] = s;"}, // n = N
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := `#include <math.h>
#ifndef N
# define N 50000
#endif
void init_array(int n, int c[N]) {
  int i;
  for (i = 0; i < n; i++)
    c[i] = (i % 1009 * 7919 + 13) % 1009 - 500;
}
void kernel(int n, double a[N], int c[N], double out[4], int iout[4], long lout[1], double big[300000]) {
  int i, j;
  ` + tc.decl + `
#pragma scop
  ` + tc.body + `
#pragma endscop
}
`
			f := parseSource(t, "kernel.c", src)
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Tables, o.AssocMath, o.Notes = true, tables, true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(notes.String(), "factored: operator") {
				t.Fatalf("not factored; notes:\n%s", notes.String())
			}
			for _, threads := range []string{"1", "2", "3"} {
				t.Setenv("OMP_NUM_THREADS", threads)
				res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1})
				if err != nil {
					t.Fatalf("%s threads: %v", threads, err)
				}
				if !res.Match {
					var b bytes.Buffer
					res.Format(&b)
					t.Errorf("%s threads: results differ:\n%s\ncode:\n%s", threads, b.String(), out)
				}
			}
		})
	}
}

// TestReductionNoSignedOverflow factors an int sum that starts at -2.1e9
// and climbs to 2.1e9 in its second half: the sequential sum stays in
// range, but the partial sum of a thread's chunk of the second half would
// not, in int. Built with the undefined-
// behavior sanitizer trapping on signed overflow, the factored loop must
// run clean and give the sequential result (its partial sums are
// unsigned).
func TestReductionNoSignedOverflow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs C")
	}
	cc := cmp(os.Getenv("CC"), "cc")
	if _, err := exec.LookPath(cc); err != nil {
		t.Skip("no C compiler")
	}
	src := `#define N 100000
void init_array(int n, int a[N]) {
  int i;
  for (i = 0; i < n; i++)
    a[i] = i == 0 ? -2100000000 : i >= n / 2 ? 84000 : i % 2;
}
void kernel(int n, int a[N], int out[1]) {
  int i, s;
#pragma scop
  s = 0;
  for (i = 0; i < n; i++)
    s += a[i];
  out[0] = s;
#pragma endscop
}
`
	f := parseSource(t, "kernel.c", src)
	o := DefaultOptions()
	o.Tables = reductionTables(t)
	out, err := Optimize(f, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("#pragma omp parallel")) {
		t.Fatalf("not factored:\n%s", out)
	}
	for _, threads := range []string{"2", "3"} {
		t.Setenv("OMP_NUM_THREADS", threads)
		res, err := check.Compare(context.Background(), f, nil, out, check.Options{Runs: 1,
			CFlags: []string{"-fsanitize=signed-integer-overflow", "-fno-sanitize-recover"}})
		if err != nil {
			t.Fatalf("%s threads: %v\ncode:\n%s", threads, err, out)
		}
		if !res.Match {
			var b bytes.Buffer
			res.Format(&b)
			t.Errorf("%s threads: results differ:\n%s", threads, b.String())
		}
	}
}

// TestReductionLanes checks how factored reductions fold their chunks:
// in vector lanes (codegen's laneLoops) those whose operator is proved
// commutative (mincount's minimum and count, and bytesum's sums, which
// have no identity: each lane starts from its first iteration); the
// others in order, several chunks in lockstep (lockstepChunks: kadane's,
// with no identity, and segsum's, with one). minmax's fmin and fmax print
// as comparisons (codegen's nestor_fmin), so its lanes need no call.
// continuant's temporaries t and w are locals that no code after the
// region reads (RegionOnly): private, not lastprivate, so its chunks run
// in lockstep. Neither lanes nor lockstep where a temporary's last value
// is read after the loop (continuant with out[4] = t, below) or where the
// update calls a function for each element (exp, below).
func TestReductionLanes(t *testing.T) {
	for _, tc := range []struct {
		kernel          string
		lanes, lockstep bool
	}{{"mincount", true, false}, {"satadd", true, false}, {"minmax", true, false}, {"bytesum", true, false},
		{"kadane", false, true}, {"segsum", false, true}, {"continuant", false, true}} {
		f, err := frontend.ParseFile("../testdata/reductions/"+tc.kernel+".c", frontend.Config{Defines: []string{"LARGE_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Optimize(f, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(out, []byte("#pragma omp parallel")) {
			t.Fatalf("%s: not factored:\n%s", tc.kernel, out)
		}
		if got := bytes.Contains(out, []byte("_v[nestor_l]")) && bytes.Contains(out, []byte("#pragma omp simd")); got != tc.lanes {
			t.Errorf("%s: folded in lanes: %v, want %v:\n%s", tc.kernel, got, tc.lanes, out)
		}
		if got := bytes.Contains(out, []byte("_v[nestor_k]")); got != tc.lockstep {
			t.Errorf("%s: chunks in lockstep: %v, want %v:\n%s", tc.kernel, got, tc.lockstep, out)
		}
	}
	// continuant's recurrence with t read after the loop: t's last value
	// is the last chunk's, which lockstep would not keep.
	f := parseSource(t, "continuant.c", `void kernel(int n, unsigned long c[20000000], unsigned long out[5]) {
  int i;
  unsigned long p0, p1, q0, q1, t, w;
#pragma scop
  p0 = 1;
  p1 = 0;
  q0 = 0;
  q1 = 1;
  for (i = 0; i < n; i++) {
    t = p0 * c[i] + p1;
    p1 = p0;
    p0 = t;
    w = q0 * c[i] + q1;
    q1 = q0;
    q0 = w;
  }
  out[0] = p0;
  out[1] = p1;
  out[2] = q0;
  out[3] = q1;
  out[4] = t;
#pragma endscop
}
`)
	out, err := Optimize(f, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("lastprivate(")) || bytes.Contains(out, []byte("_v[nestor_k]")) {
		t.Errorf("continuant reading t after the loop: want a lastprivate t and no lockstep:\n%s", out)
	}
	// A minimum of exp's values: a call for each element, and fmin of a
	// call stays a call (the macro would evaluate exp twice).
	f = parseSource(t, "minexp.c", `#include <math.h>
void kernel(int n, double x[20000000], double out[1]) {
  int i;
  double lo;
#pragma scop
  lo = x[0];
  for (i = 0; i < n; i++)
    lo = fmin(lo, exp(x[i]));
  out[0] = lo;
#pragma endscop
}
`)
	if out, err = Optimize(f, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("#pragma omp parallel")) || bytes.Contains(out, []byte("#pragma omp simd")) ||
		bytes.Contains(out, []byte("nestor_fmin(lo, exp(")) || !bytes.Contains(out, []byte("fmin(lo, exp(x[")) {
		t.Errorf("min of exp: want a factored loop without lanes that calls fmin:\n%s", out)
	}
	// A sum over an image's rows and columns: the lanes take the
	// columns, each time the inner loop runs.
	image := `void kernel(int h, int w, float img[4000][5000], double out[1]) {
  int i, j;
  double s;
#pragma scop
  s = 0;
  for (i = 0; i < h; i++)
    for (j = 0; j < w; j++)
      s += img[i][j];
  out[0] = s;
#pragma endscop
}
`
	f = parseSource(t, "image.c", image)
	o := DefaultOptions()
	o.AssocMath = true
	out, err = Optimize(f, o)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("s_v[nestor_l] += img[t1][t2]")) {
		t.Errorf("image sum: the columns do not fold into lanes:\n%s", out)
	}
	// durbin's sums, inside its sequential k loop, are shorter than the
	// fork threshold at LARGE: they fold in lanes without OpenMP (the
	// second copy of the lanes, in the else branch).
	f, err = frontend.ParseFile("../testdata/kernels/durbin.c", frontend.Config{Defines: []string{"LARGE_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	if out, err = Optimize(f, o); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`if \(k >= (\d+)\) \{`).FindSubmatch(out)
	if m == nil || !bytes.Contains(out, []byte("double sum_v2[16];")) {
		t.Errorf("durbin: the short sums do not fold in lanes outside OpenMP:\n%s", out)
	} else if least, _ := strconv.Atoi(string(m[1])); least <= 2000 {
		t.Errorf("durbin forks its sums from k = %d, within LARGE's n = 2000:\n%s", least, out)
	}
}
