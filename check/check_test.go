package check

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"nestor/frontend"
	"nestor/ir"
)

func needCC(t *testing.T) {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(strings.Fields(cc + " x")[0]); err != nil {
		t.Skipf("no C compiler: %v", err)
	}
}

// The IR below is built by hand, as the frontend would build it, with only
// what check reads: parameters, arrays with their storage, and one
// statement per written array (Program.Writes looks at Accesses[0]).

// sizeOf is the affine form "parameter p" over np parameters.
func sizeOf(np, p int) ir.Aff {
	a := ir.NewAff(0, np, 0)
	a.Param[p] = 1
	return a
}

// constSize is the constant form c over np parameters.
func constSize(np int, c int64) ir.Aff {
	a := ir.NewAff(0, np, 0)
	a.Const = c
	return a
}

// program returns a Program with the given parameters (all int) and arrays,
// with a statement writing each array named in written.
func program(params []string, arrays []*ir.Array, written ...string) *ir.Program {
	p := &ir.Program{Arrays: arrays}
	for _, n := range params {
		p.Params = append(p.Params, ir.Param{Name: n, Type: ir.Int})
	}
	for k, w := range written {
		a := p.ArrayIndex(w)
		if a < 0 {
			panic("no array " + w)
		}
		p.Stmts = append(p.Stmts, &ir.Stmt{
			Name: "S" + string(rune('0'+k)), Beta: []int{k},
			Accesses: []*ir.Access{{Array: a, Write: true}},
		})
	}
	return p
}

// params returns the FuncParams of a kernel whose scop has program p: an
// int parameter for each name of p.Params, the others from rest.
func fileOf(t *testing.T, name string, fn *frontend.Func, p *ir.Program, others ...*frontend.Func) *frontend.File {
	t.Helper()
	path := filepath.Join("testdata", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	scop := &frontend.Scop{Prog: p, Func: fn}
	return &frontend.File{Path: path, Src: src, Scops: []*frontend.Scop{scop}, Funcs: append(others, fn)}
}

// edit returns src with old replaced by new, which must occur once.
func edit(t *testing.T, src []byte, old, new string) []byte {
	t.Helper()
	if n := bytes.Count(src, []byte(old)); n != 1 {
		t.Fatalf("%q occurs %d times", old, n)
	}
	return bytes.Replace(src, []byte(old), []byte(new), 1)
}

func quick(o Options) Options {
	o.Runs = 1
	return o
}

func axpyFile(t *testing.T) *frontend.File {
	arrays := []*ir.Array{
		{Name: "A", Elem: ir.Double, Dims: []ir.Aff{sizeOf(2, 0), sizeOf(2, 1)}, Storage: ir.FuncParam},
		{Name: "B", Elem: ir.Double, Dims: []ir.Aff{sizeOf(2, 0), sizeOf(2, 1)}, Storage: ir.FuncParam},
		{Name: "alpha", Elem: ir.Double, Storage: ir.FuncParam},
	}
	fn := &frontend.Func{Name: "kernel_axpy", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: 0},
		{Name: "m", Elem: ir.Int, Param: 1},
		{Name: "alpha", Elem: ir.Double, Param: -1},
		{Name: "A", Elem: ir.Double, Dims: arrays[0].Dims, Param: -1},
		{Name: "B", Elem: ir.Double, Dims: arrays[1].Dims, Param: -1},
	}}
	return fileOf(t, "axpy.c", fn, program([]string{"n", "m"}, arrays, "B"))
}

func TestIdenticalMatches(t *testing.T) {
	needCC(t)
	f := axpyFile(t)
	res, err := Compare(context.Background(), f, nil, f.Src, Options{Params: map[string]int64{"m": 30}, Runs: 3})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	t.Logf("\n%s", out.String())
	if !res.Match {
		t.Fatalf("identical kernels differ")
	}
	if len(res.Arrays) != 2 {
		t.Fatalf("compared %d arrays, want A and B", len(res.Arrays))
	}
	b := res.Arrays[1]
	if b.Name != "B" || !b.Written || b.Count != 40*30 || b.Mismatches != 0 || b.Worst != nil {
		t.Errorf("B: %+v", b)
	}
	if res.Runs != 3 || res.Orig <= 0 || res.Opt <= 0 || res.Speedup <= 0 {
		t.Errorf("times: %d runs, %v, %v, %v", res.Runs, res.Orig, res.Opt, res.Speedup)
	}
	if !strings.Contains(out.String(), "speedup") || !strings.Contains(out.String(), "(median of 3)") {
		t.Errorf("report lacks the times:\n%s", out.String())
	}
}

func TestWrongStatement(t *testing.T) {
	needCC(t)
	f := axpyFile(t)
	bad := edit(t, f.Src, "B[i][j] = alpha * A[i][j] + B[i][j];", "B[i][j] = alpha * A[i][j] + B[i][j] + (i == 3 && j == 5);")
	res, err := Compare(context.Background(), f, nil, bad, quick(Options{Params: map[string]int64{"m": 30}, Defines: []string{"N=7"}, KeepDir: t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	t.Logf("\n%s", out.String())
	if res.Match {
		t.Fatal("wrong kernel matches")
	}
	a, b := res.Arrays[0], res.Arrays[1]
	if a.Name != "A" || a.Mismatches != 0 || a.Written {
		t.Errorf("A: %+v", a)
	}
	if b.Count != 7*30 || b.Mismatches != 1 || b.Exact || !equalDims(b.Worst, []int64{3, 5}) || math.Abs(b.Opt.F-b.Orig.F-1) > 1e-12 {
		t.Errorf("B: %+v", b)
	}
	if !strings.Contains(out.String(), "MISMATCH 1 of 210, worst at B[3][5]") {
		t.Errorf("report:\n%s", out.String())
	}
}

func fsumFile(t *testing.T) *frontend.File {
	arrays := []*ir.Array{
		{Name: "A", Elem: ir.Float, Dims: []ir.Aff{constSize(2, 50), constSize(2, 1000)}, Storage: ir.FuncParam},
		{Name: "s", Elem: ir.Float, Dims: []ir.Aff{constSize(2, 50)}, Storage: ir.FuncParam},
		{Name: "total", Elem: ir.Float, Storage: ir.FuncParam},
	}
	fn := &frontend.Func{Name: "kernel_fsum", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: 0},
		{Name: "m", Elem: ir.Int, Param: 1},
		{Name: "A", Elem: ir.Float, Dims: arrays[0].Dims, Param: -1},
		{Name: "s", Elem: ir.Float, Dims: arrays[1].Dims, Param: -1},
		{Name: "total", Elem: ir.Float, Pointer: true, Param: -1},
	}}
	return fileOf(t, "fsum.c", fn, program([]string{"n", "m"}, arrays, "s", "s", "total"))
}

func TestFloatTolerance(t *testing.T) {
	needCC(t)
	f := fsumFile(t)
	// Summing each row backwards rounds differently.
	rev := edit(t, f.Src, "for (int j = 0; j < m; j++)", "for (int j = m - 1; j >= 0; j--)")
	opt := quick(Options{Params: map[string]int64{"n": 50, "m": 1000}})
	res, err := Compare(context.Background(), f, nil, rev, opt)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	t.Logf("\n%s", out.String())
	if !res.Match {
		t.Fatal("reordered float sums beyond tolerance")
	}
	s := res.Arrays[1]
	if s.Name != "s" || s.RTol != RTolFloat || s.RelErr == 0 || s.RelErr > RTolFloat || s.Worst == nil {
		t.Errorf("s: %+v (want a nonzero error within tolerance)", s)
	}
	if tot := res.Arrays[2]; tot.Name != "total" || tot.Dims != nil || !tot.Written {
		t.Errorf("total: %+v", tot)
	}

	opt.RTol = 1e-12
	opt.KeepDir = t.TempDir()
	res, err = Compare(context.Background(), f, nil, rev, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Match || res.Arrays[1].Mismatches == 0 || res.Arrays[1].RTol != 1e-12 {
		t.Errorf("with RTol 1e-12: %+v", res.Arrays[1])
	}
}

func intFile(t *testing.T) *frontend.File {
	arrays := []*ir.Array{
		{Name: "G", Elem: ir.Int, Dims: []ir.Aff{constSize(1, 50)}, Storage: ir.Global},
		{Name: "A", Elem: ir.Int, Dims: []ir.Aff{constSize(1, 50)}, Storage: ir.FuncParam},
		{Name: "C", Elem: ir.Int, Dims: []ir.Aff{constSize(1, 50), constSize(1, 50)}, Storage: ir.FuncParam},
	}
	fn := &frontend.Func{Name: "kernel_int", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: 0},
		{Name: "A", Elem: ir.Int, Dims: arrays[1].Dims, Param: -1},
		{Name: "C", Elem: ir.Int, Dims: arrays[2].Dims, Param: -1},
	}}
	return fileOf(t, "intk.c", fn, program([]string{"n"}, arrays, "G", "C"))
}

func TestIntegerExact(t *testing.T) {
	needCC(t)
	f := intFile(t)
	opt := quick(Options{KeepDir: t.TempDir()}) // n = N from intk.c
	res, err := Compare(context.Background(), f, nil, f.Src, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Match || len(res.Arrays) != 3 || res.Arrays[2].Name != "G" || !res.Arrays[2].Written || !equalDims(res.Arrays[2].Dims, []int64{50}) {
		t.Fatalf("identical: %+v", res.Arrays)
	}
	bad := edit(t, f.Src, "A[i] * A[j] + G[i];", "A[i] * A[j] + G[i] + (i == 7 && j >= 2);")
	res, err = Compare(context.Background(), f, nil, bad, opt)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	res.Format(&out)
	t.Logf("\n%s", out.String())
	c := res.Arrays[1]
	if res.Match || c.Name != "C" || !c.Exact || c.Mismatches != 48 || !equalDims(c.Worst, []int64{7, 2}) || c.Opt.I != c.Orig.I+1 {
		t.Errorf("C: %+v", c)
	}
	if g := res.Arrays[2]; g.Mismatches != 0 {
		t.Errorf("G: %+v", g)
	}
}

func TestMissingParameter(t *testing.T) {
	needCC(t)
	f := initFile(t, "x") // initk.c has no macro N
	_, err := Compare(context.Background(), f, nil, f.Src, quick(Options{KeepDir: t.TempDir()}))
	if err == nil {
		t.Fatal("no error without a value for n")
	}
	want := "nestor check: no value for parameter n: define N (-D N=...) or pass --param n=V"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "harness_orig.c") {
		t.Errorf("error %q\nlacks %q or the harness path", err, want)
	}
}

func TestUnknownParameter(t *testing.T) {
	f := axpyFile(t)
	_, err := Compare(context.Background(), f, nil, f.Src, Options{Params: map[string]int64{"m": 3, "alpha": 1}})
	if err == nil || !strings.Contains(err.Error(), "kernel_axpy has no integer parameter alpha") {
		t.Errorf("error %v", err)
	}
}

func initFile(t *testing.T, initParam string) *frontend.File {
	arrays := []*ir.Array{
		{Name: "alpha", Elem: ir.Double, Storage: ir.FuncParam},
		{Name: "x", Elem: ir.Double, Dims: []ir.Aff{sizeOf(1, 0)}, Storage: ir.FuncParam},
		{Name: "y", Elem: ir.Double, Dims: []ir.Aff{sizeOf(1, 0)}, Storage: ir.FuncParam},
	}
	fn := &frontend.Func{Name: "kernel_init", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: 0},
		{Name: "alpha", Elem: ir.Double, Param: -1},
		{Name: "x", Elem: ir.Double, Dims: arrays[1].Dims, Param: -1},
		{Name: "y", Elem: ir.Double, Dims: arrays[2].Dims, Param: -1},
	}}
	init := &frontend.Func{Name: "init_array", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int, Param: -1},
		{Name: "alpha", Elem: ir.Double, Pointer: true, Param: -1},
		{Name: initParam, Elem: ir.Double, Dims: []ir.Aff{sizeOf(1, 0)}, Param: -1},
	}}
	return fileOf(t, "initk.c", fn, program([]string{"n"}, arrays, "y"), init)
}

func TestInitArray(t *testing.T) {
	needCC(t)
	opt := Options{Params: map[string]int64{"n": 10}}
	in, out, err := Execute(context.Background(), initFile(t, "x"), nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if in.Params["n"] != 10 {
		t.Errorf("params %v", in.Params)
	}
	if a := in.Array("alpha"); a == nil || a.At(0).F != 100 {
		t.Fatalf("alpha not set by init_array: %+v", a)
	}
	y := out.Array("y")
	if y == nil || y.Len() != 10 || out.Array("alpha") != nil || out.Array("x") == nil {
		t.Fatalf("outputs %+v", out.Arrays)
	}
	for k := range 10 {
		if got := y.At(k).F; got != 100*float64(k) {
			t.Errorf("y[%d] = %v, want %v", k, got, 100*k)
		}
	}

	// init_array's parameter z matches no kernel parameter: not called.
	f := initFile(t, "z")
	res, err := Compare(context.Background(), f, nil, f.Src, quick(opt))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Match || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "init_array not called: its parameter z") {
		t.Errorf("warnings %q", res.Warnings)
	}
	_, out, err = Execute(context.Background(), f, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if out.Array("y").At(1).F == 100 {
		t.Errorf("init_array was called")
	}
}

func TestCrash(t *testing.T) {
	needCC(t)
	f := axpyFile(t)
	bad := edit(t, f.Src, "  int i, j;\n", "  int i, j;\n  *(volatile int *)0 = 0;\n")
	_, err := Compare(context.Background(), f, nil, bad, Options{Params: map[string]int64{"m": 30}, KeepDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "opt.exe out") || !strings.Contains(err.Error(), "signal") {
		t.Errorf("error %v", err)
	}
}

func TestTimeout(t *testing.T) {
	needCC(t)
	f := axpyFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	if _, err := Compare(ctx, f, nil, f.Src, Options{Params: map[string]int64{"m": 30}, KeepDir: t.TempDir()}); err == nil {
		t.Fatal("no error after the deadline")
	}
}

func TestRelErr(t *testing.T) {
	inf, nan := 1/zero, zero/zero
	for _, c := range []struct {
		a, b, want float64
	}{
		{1, 1, 0},
		{2, 1, 0.5},
		{nan, nan, 0},
		{nan, 1, inf},
		{inf, inf, 0},
		{inf, -inf, inf},
		{inf, 1, inf},
		{1e-20, 0, 1e-20 / 1e-3}, // judged against the floor
		{-3, 3, 2},
	} {
		if got := relErr(c.a, c.b, 1e-3); got != c.want && math.Abs(got-c.want) > 1e-15*c.want {
			t.Errorf("relErr(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

var zero = 0.0

// TestExactTolerance: Options.Exact (--rtol 0) counts every difference,
// however small, where the default tolerance passes it.
func TestExactTolerance(t *testing.T) {
	arr := func(vs ...float64) *ArrayData {
		a := &ArrayData{Name: "x", Elem: ir.Double, Dims: []int64{int64(len(vs))}}
		for _, v := range vs {
			a.Raw = binary.LittleEndian.AppendUint64(a.Raw, math.Float64bits(v))
		}
		return a
	}
	x, y := arr(1, 2, math.NaN()), arr(1, math.Nextafter(2, 3), math.NaN())
	if r := compareArray(x, y, 0, false); r.Mismatches != 0 || r.RTol != RTolDouble {
		t.Errorf("default tolerance: %+v", r)
	}
	if r := compareArray(x, y, 1e-3, true); r.Mismatches != 1 || r.RTol != 0 || r.Worst[0] != 1 {
		t.Errorf("exact: %+v", r)
	}
	if r := compareArray(x, x, 0, true); r.Mismatches != 0 {
		t.Errorf("exact, equal arrays (NaN included): %+v", r)
	}
}

// TestTimingsPerThreadCount: one timing line per thread count, each naming
// its count; the runs get the thread count and a passive wait policy unless
// the user chose one.
func TestTimingsPerThreadCount(t *testing.T) {
	r := &Result{Match: true, Timings: []Timing{
		{Threads: 1, Orig: 2 * time.Millisecond, Opt: time.Millisecond, Speedup: 2, Runs: 5},
		{Threads: 4, Orig: 2 * time.Millisecond, Opt: 500 * time.Microsecond, Speedup: 4, Runs: 5},
	}}
	var b strings.Builder
	r.Format(&b)
	for _, want := range []string{"1 thread: original 2 ms, nestor 1 ms, speedup 2.00x", "4 threads: original 2 ms, nestor 500 µs, speedup 4.00x"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	t.Setenv("OMP_WAIT_POLICY", "")
	os.Unsetenv("OMP_WAIT_POLICY")
	t.Setenv("OMP_NUM_THREADS", "7")
	env := strings.Join(ompEnv(3), "\n")
	if !strings.Contains(env, "OMP_NUM_THREADS=3") || strings.Contains(env, "OMP_NUM_THREADS=7") || !strings.Contains(env, "OMP_WAIT_POLICY=passive") {
		t.Errorf("ompEnv(3):\n%s", env)
	}
	t.Setenv("GOMP_SPINCOUNT", "1000")
	if env := strings.Join(ompEnv(3), "\n"); strings.Contains(env, "OMP_WAIT_POLICY=passive") {
		t.Errorf("a user's GOMP_SPINCOUNT overridden:\n%s", env)
	}
}

// TestAliasWarnings: a call passing one array twice to array parameters is
// named; the definition, other calls and scalars passed twice are not.
func TestAliasWarnings(t *testing.T) {
	fn := &frontend.Func{Name: "kernel", Params: []frontend.FuncParam{
		{Name: "n", Elem: ir.Int}, {Name: "m", Elem: ir.Int},
		{Name: "A", Elem: ir.Double, Dims: []ir.Aff{{}}}, {Name: "B", Elem: ir.Double, Dims: []ir.Aff{{}}},
	}}
	src := `void kernel(int n, int m, double A[n], double B[n]) { }
int main(void) {
  double x[10], y[10];
  kernel(10, 10, x, y);
  kernel(10, 10, x, x);
  kernel (n, n, POLYBENCH_ARRAY(y), POLYBENCH_ARRAY(y));
  return 0;
}
`
	got := aliasWarnings([]byte(src), fn)
	if len(got) != 2 || !strings.Contains(got[0], "passes x as both A and B") || !strings.Contains(got[1], "POLYBENCH_ARRAY(y) as both A and B") {
		t.Errorf("got %q", got)
	}
}
