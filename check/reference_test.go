package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

func bigsumFile(t *testing.T) *frontend.File { return floatSumFile(t, "bigsum") }

// floatSumFile is testdata/NAME.c, whose kernel_NAME(n, A, total) adds
// the float array A into *total.
func floatSumFile(t *testing.T, name string) *frontend.File {
	arrays := []*ir.Array{
		{Name: "A", Elem: ir.Float, Dims: []ir.Aff{constSize(1, 1000000)}, Storage: ir.FuncParam},
		{Name: "total", Elem: ir.Float, Storage: ir.FuncParam},
	}
	fn := &frontend.Func{Name: "kernel_" + name, Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: 0},
		{Name: "A", Elem: ir.Float, Dims: arrays[0].Dims, Param: -1},
		{Name: "total", Elem: ir.Float, Pointer: true, Param: -1},
	}}
	return fileOf(t, name+".c", fn, program([]string{"n"}, arrays, "total"))
}

// factoredSum is bigsum.c's loop in 16 partial sums, as nestor factors a
// reduction under --assoc-math.
const factoredSum = `{
    float nestor_p[16] = {0};
    for (int c = 0; c < 16; c++)
      for (int i = c * (n / 16); i < (c == 15 ? n : (c + 1) * (n / 16)); i++)
        nestor_p[c] += A[i];
    for (int c = 0; c < 16; c++)
      *total += nestor_p[c];
  }`

// A float sum factored into partial sums differs from the sequential one
// by more than float's tolerance, because the sequential sum rounds more:
// against the long double reference the factored one is closer, and the
// comparison passes, saying so. A wrong sum, beyond the tolerance of the
// reference, still fails; a tolerance the user sets is the criterion,
// with no reference.
func TestReferenceExplainsReassociation(t *testing.T) {
	needCC(t)
	f := bigsumFile(t)
	loop := "for (int i = 0; i < n; i++)\n    *total += A[i];"
	factored := edit(t, f.Src, loop, factoredSum)
	opt := quick(Options{Params: map[string]int64{"n": 1000000}, Threads: []int{1}})
	res, err := Compare(context.Background(), f, nil, factored, opt)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	t.Logf("\n%s", out.String())
	tot := res.Arrays[1]
	if tot.Name != "total" || tot.Mismatches != 1 || tot.RelErr <= RTolFloat {
		t.Fatalf("total: %+v (want the sums apart by more than %g)", tot, RTolFloat)
	}
	r := tot.Reference
	if r == nil || !r.Explained || r.OptErr >= r.OrigErr || r.Closer() != "nestor" || !res.Match {
		t.Fatalf("reference %+v, match %v: want the factored sum closer and the comparison passed", r, res.Match)
	}
	if !strings.Contains(out.String(), "nestor closer") || strings.Contains(out.String(), "FAIL") {
		t.Errorf("report:\n%s", out.String())
	}

	// 1% off in the partial sums: closer to the reference than the
	// original, but beyond the tolerance of it.
	wrong := edit(t, factored, "*total += nestor_p[c];", "*total += nestor_p[c] * 1.01f;")
	opt.KeepDir = t.TempDir()
	res, err = Compare(context.Background(), f, nil, wrong, opt)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Arrays[1].Reference; res.Match || r == nil || r.Explained || r.OptErr <= RTolFloat {
		t.Errorf("wrong sum: match %v, reference %+v", res.Match, r)
	}

	opt.RTol = RTolFloat
	opt.KeepDir = t.TempDir()
	res, err = Compare(context.Background(), f, nil, factored, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Match || res.Arrays[1].Reference != nil {
		t.Errorf("with --rtol set: match %v, reference %+v", res.Match, res.Arrays[1].Reference)
	}
}

// TestReferenceMathFunctions: in the reference, the kernel's calls of
// math functions (expf, sqrt) are calls of their long double versions,
// and the factored sum of their values is explained by it.
func TestReferenceMathFunctions(t *testing.T) {
	needCC(t)
	f := floatSumFile(t, "mathsum")
	loop := "for (int i = 0; i < n; i++)\n    *total += expf(A[i]) + sqrt(A[i]);"
	factored := edit(t, f.Src, loop, strings.ReplaceAll(factoredSum, "nestor_p[c] += A[i];", "nestor_p[c] += expf(A[i]) + sqrt(A[i]);"))
	opt := quick(Options{Params: map[string]int64{"n": 1000000}, Threads: []int{1}, KeepDir: t.TempDir()})
	res, err := Compare(context.Background(), f, nil, factored, opt)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Arrays[1].Reference
	if r == nil || !r.Explained || !res.Match {
		var out strings.Builder
		res.Format(&out)
		t.Fatalf("reference %+v, match %v: want the factored sum explained\n%s", r, res.Match, out.String())
	}
	ref, err := os.ReadFile(filepath.Join(opt.KeepDir, "harness_ref.c"))
	if err != nil {
		t.Fatal(err)
	}
	for _, def := range []string{"#define expf(x) expl(x)\n", "#define sqrt(x) sqrtl(x)\n", "#define pow(x, y) powl(x, y)\n", "#undef expf\n"} {
		if !strings.Contains(string(ref), def) {
			t.Errorf("the reference harness lacks %q", def)
		}
	}
}

// TestReferenceInMain: a region in main whose float sum is a local of
// main gets the reference too (main's variables are long double in it,
// written at the region's end), which explains the factored sum.
func TestReferenceInMain(t *testing.T) {
	needCC(t)
	f, err := frontend.ParseFile("testdata/mainsum.c", frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	factored := edit(t, f.Src, "  for (int i = 0; i < N; i++)\n    total += A[i];\n#pragma endscop", `  {
    float nestor_p[16] = {0};
    for (int c = 0; c < 16; c++)
      for (int i = c * (N / 16); i < (c == 15 ? N : (c + 1) * (N / 16)); i++)
        nestor_p[c] += A[i];
    for (int c = 0; c < 16; c++)
      total += nestor_p[c];
  }
#pragma endscop`)
	res, err := Compare(context.Background(), f, nil, factored, quick(Options{Threads: []int{1}}))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	k := slices.IndexFunc(res.Arrays, func(a ArrayResult) bool { return a.Name == "total" })
	if k < 0 {
		t.Fatalf("total not compared:\n%s", out.String())
	}
	tot := res.Arrays[k]
	if tot.Mismatches != 1 || tot.RelErr <= RTolFloat {
		t.Fatalf("total: %+v (want the sums apart by more than %g)\n%s", tot, RTolFloat, out.String())
	}
	if r := tot.Reference; r == nil || !r.Explained || r.Closer() != "nestor" || !res.Match {
		t.Fatalf("reference %+v, match %v: want the factored sum closer and explained\n%s", r, res.Match, out.String())
	}
}

// TestReferenceUnoptimized: the reference is built without optimization,
// so a fault of the compiler's optimizer in the original (gcc 12's loop
// distribution at -O3 on this loop, from random program 8032) is not
// blamed on the optimized variant, here the same source with loop
// distribution off. (With a compiler that has no such fault the two
// agree, and the test shows only that.)
func TestReferenceUnoptimized(t *testing.T) {
	needCC(t)
	const src = `void kernel(int n, double alpha, double A[11][22], int B[13][17], double x[12])
{
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = i - 1; j < i + 4; j++) {
      B[i + 2][2] = (B[i + 2][3] + B[3][i + 1] + j) % 1009;
      x[i + 1] += 1.5 * (A[i + 1][j + 1] + 0.01 * j + x[j + 1]);
    }
    A[i][i + 1] += alpha * A[i][i + 2];
  }
#pragma endscop
}
`
	// The same source with loop distribution off for the kernel: what
	// the source says, computed right.
	split := strings.Replace(src, "void kernel(", "__attribute__((optimize(\"no-tree-loop-distribution\"))) void kernel(", 1)
	path := filepath.Join(t.TempDir(), "ldist.c")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := frontend.ParseFile(path, frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	opt := quick(Options{Params: map[string]int64{"n": 3}, Threads: []int{1}})
	res, err := Compare(context.Background(), f, nil, []byte(split), opt)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	if !res.Match {
		t.Fatalf("the split loop, which computes what the source says, failed:\n%s", out.String())
	}
}
