package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// nestor runs the command line in-process and returns its exit status and
// outputs.
func nestor(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(args, &out, &errw)
	return code, out.String(), errw.String()
}

func kernels(t *testing.T) []string {
	t.Helper()
	ks, err := filepath.Glob("../../testdata/kernels/*.c")
	if err != nil || len(ks) == 0 {
		t.Fatalf("no kernels in testdata/kernels: %v", err)
	}
	return ks
}

func needCC(t *testing.T) {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s)", cc)
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string // in stdout or stderr
	}{
		{nil, 2, "commands:"},
		{[]string{"help"}, 0, "commands:"},
		{[]string{"help", "opt"}, 0, "-o file"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"opt"}, 2, "want one C file"},
		{[]string{"opt", "a.c", "b.c"}, 2, "want one C file"},
		{[]string{"opt", "--no-such-flag", "a.c"}, 2, "no-such-flag"},
		{[]string{"version"}, 0, "nestor "},
		{[]string{"opt", "no/such/file.c"}, 1, "no/such/file.c"},
		{[]string{"check", "--param", "n", "x.c"}, 2, "want name=value"},
	} {
		code, out, errw := nestor(t, tc.args...)
		if code != tc.code || !strings.Contains(out+errw, tc.out) {
			t.Errorf("nestor %q: exit %d, want %d; output %q, want it to contain %q", tc.args, code, tc.code, out+errw, tc.out)
		}
	}
}

func TestCompilerStyleFlags(t *testing.T) {
	got := compilerStyle([]string{"-DN=10", "-Iinc", "-D", "M", "-I", "x", "--kernel", "f"})
	want := []string{"-D", "N=10", "-I", "inc", "-D", "M", "-I", "x", "--kernel", "f"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("compilerStyle = %q, want %q", got, want)
	}
}

// TestRejectsNonAffine is the user's first contact with an error: a
// positioned message and exit status 1.
func TestRejectsNonAffine(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.c")
	src := "void f(int n, double A[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i*i] = 0;\n#pragma endscop\n}\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errw := nestor(t, "opt", bad, "-o", filepath.Join(dir, "out.c"))
	if code != 1 || !strings.Contains(errw, "bad.c:4:") || !strings.Contains(errw, "not a static control part") {
		t.Errorf("exit %d, stderr %q", code, errw)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.c")); err == nil {
		t.Error("an output file was written for rejected input")
	}
}

// TestCheckCorpus runs "nestor check" at SMALL size on every kernel of the
// corpus: the optimized code must match the original.
func TestCheckCorpus(t *testing.T) {
	needCC(t)
	if testing.Short() {
		t.Skip("compiles and runs every kernel")
	}
	for _, k := range kernels(t) {
		t.Run(strings.TrimSuffix(filepath.Base(k), ".c"), func(t *testing.T) {
			t.Parallel()
			// The default (schedule, tile, parallel), then without tiling
			// and without parallel loops: each must compute the same. At
			// SMALL the stencils' arrays fit in the cache, where the
			// default keeps their order: --keep-cached=false checks their
			// schedules.
			for _, flags := range [][]string{nil, {"--notile"}, {"--noparallel"}} {
				args := append([]string{"check", k, "-D", "SMALL_DATASET", "--runs", "1", "--keep-cached=false"}, flags...)
				code, out, errw := nestor(t, args...)
				if code != 0 {
					t.Errorf("%v: exit %d\n%s%s", flags, code, out, errw)
				}
				if !strings.Contains(out, "speedup") {
					t.Errorf("%v: no timing in the report:\n%s", flags, out)
				}
			}
		})
	}
}

// TestInvalidCorpus runs "nestor opt" on every rejected input of the front
// end's corpus: each must fail with exit status 1 and a positioned error,
// and write no output.
func TestInvalidCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../frontend/testdata/invalid/*.c")
	if len(files) < 30 {
		t.Fatalf("want at least 30 invalid inputs, found %d", len(files))
	}
	for _, f := range files {
		out := filepath.Join(t.TempDir(), "out.c")
		code, _, errw := nestor(t, "opt", f, "-o", out)
		pos := regexp.MustCompile(regexp.QuoteMeta(filepath.Base(f)) + `:\d+:\d+: `)
		if code != 1 || !pos.MatchString(errw) {
			t.Errorf("%s: exit %d, stderr %q", filepath.Base(f), code, errw)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: output written for rejected input", filepath.Base(f))
		}
	}
}

// TestCheckScheduled runs "nestor check --schedule" on kernels the
// scheduler transforms (loop interchange, fusion and distribution, a
// triangular solve): the rescheduled code must match the original. The
// slow-to-schedule kernels are left to sched's -sched.all test.
func TestCheckScheduled(t *testing.T) {
	needCC(t)
	for _, k := range []string{"gemm", "2mm", "jacobi-1d", "seidel-2d", "trisolve-0based", "atax", "trmm", "gramschmidt", "durbin"} {
		t.Run(k, func(t *testing.T) {
			t.Parallel()
			code, out, errw := nestor(t, "check", "../../testdata/kernels/"+k+".c", "--schedule", "--keep-cached=false", "-D", "SMALL_DATASET", "--runs", "1")
			if code != 0 || strings.Contains(out+errw, "kept the original order") {
				t.Errorf("exit %d\n%s%s", code, out, errw)
			}
		})
	}
}

// TestCheckForkOnce runs "nestor check --fork-once" on loop nests whose
// time (or outer sequential) loops hold only parallel loops, at sizes
// where their work forks a team: each team's threads share the loops of
// every step (a team with or without an if clause: lu's work always
// pays for the one fork), and the results must match the original's.
func TestCheckForkOnce(t *testing.T) {
	needCC(t)
	for _, tc := range []struct {
		kernel string
		sizes  []string
	}{
		{"jacobi-2d", []string{"-D", "N=400", "-D", "TSTEPS=4"}},
		// Without expansion, which gives each r its own sum and runs r
		// in parallel instead.
		{"doitgen", []string{"-D", "NQ=6", "-D", "NR=5", "-D", "NP=260", "--expand=false"}},
		{"lu", []string{"-D", "N=500"}},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			t.Parallel()
			keep := t.TempDir()
			args := append([]string{"check", "--fork-once", "../../testdata/kernels/" + tc.kernel + ".c", "--runs", "1", "--keep", keep}, tc.sizes...)
			code, out, errw := nestor(t, args...)
			if code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, errw)
			}
			var team bool
			filepath.WalkDir(keep, func(path string, d os.DirEntry, err error) error {
				if b, _ := os.ReadFile(path); err == nil && !d.IsDir() && strings.Contains(string(b), "#pragma omp for\n") && (strings.Contains(string(b), "#pragma omp parallel if(") || strings.Contains(string(b), "#pragma omp parallel\n")) {
					team = true
				}
				return nil
			})
			if !team {
				t.Errorf("no team forked once in the checked code (kept in %s)", keep)
			}
		})
	}
}

func TestSchedCommand(t *testing.T) {
	code, out, errw := nestor(t, "sched", "../../testdata/kernels/gemm.c")
	if code != 0 || !strings.Contains(out, "S0[i, j] -> [") || !strings.Contains(out, "S1[i, k, j] -> [") {
		t.Errorf("exit %d\n%s%s", code, out, errw)
	}
	code, out, _ = nestor(t, "sched", "../../testdata/kernels/gemm.c", "--fuse", "sideways")
	if code != 2 {
		t.Errorf("bad --fuse: exit %d, %s", code, out)
	}
}

// TestFlagErrors: a bad flag prints the problem and one usage line (as go
// tools do), not the whole help; --help prints the help of every command on
// standard output.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string // in stderr
	}{
		{[]string{"opt", "--no-such-flag", "a.c"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"check", "--rtol", "-1e-3", "a.c"}, "want a non-negative number"},
		{[]string{"check", "--rtol", "NaN", "a.c"}, "want a non-negative number"},
		{[]string{"check", "--param", "n=-5", "a.c"}, "value of n is negative"},
		{[]string{"check", "--param", "n=x", "a.c"}, "not an integer"},
	} {
		code, out, errw := nestor(t, tc.args...)
		lines := strings.Split(strings.TrimSpace(errw), "\n")
		if code != 2 || out != "" || !strings.Contains(errw, tc.msg) || len(lines) != 2 || !strings.HasPrefix(lines[1], "usage: nestor ") {
			t.Errorf("nestor %q: exit %d, stdout %q, stderr %q; want exit 2, %q and one usage line", tc.args, code, out, errw, tc.msg)
		}
	}
	for _, c := range commands {
		if c.External != "" {
			continue // TestExternal
		}
		args := append(strings.Fields(c.Name), "--help")
		code, out, errw := nestor(t, args...)
		if code != 0 || !strings.HasPrefix(out, "usage: nestor "+c.Name) || errw != "" {
			t.Errorf("nestor %q: exit %d, stdout %.60q, stderr %q", args, code, out, errw)
		}
	}
}

const stdinKernel = "void f(int n, double A[n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    A[i] = 2 * A[i];\n#pragma endscop\n}\n"

// TestOptStdin: "-" as the input reads standard input and writes standard
// output.
func TestOptStdin(t *testing.T) {
	defer func(r io.Reader) { stdin = r }(stdin)
	stdin = strings.NewReader(stdinKernel)
	code, out, errw := nestor(t, "opt", "-")
	if code != 0 || !strings.Contains(out, "#pragma scop") || !strings.Contains(out, "void f(int n") {
		t.Errorf("opt -: exit %d\nstdout %s\nstderr %s", code, out, errw)
	}
	stdin = strings.NewReader("void f(int n, double A[n]) {\n#pragma scop\n  A[n*n] = 0;\n#pragma endscop\n}\n")
	code, _, errw = nestor(t, "opt", "-")
	if code != 1 || !strings.Contains(errw, "<stdin>:3:") {
		t.Errorf("opt - with a non-affine subscript: exit %d, stderr %q", code, errw)
	}
	if code, _, errw := nestor(t, "check", "-"); code != 2 || !strings.Contains(errw, "not -") {
		t.Errorf("check -: exit %d, stderr %q", code, errw)
	}
}

// TestOptOntoInput: -o naming the input file itself is refused before
// anything is written.
func TestOptOntoInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "k.c")
	if err := os.WriteFile(in, []byte(stdinKernel), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []string{in, filepath.Join(dir, ".", "k.c")} {
		code, _, errw := nestor(t, "opt", in, "-o", o)
		if code != 2 || !strings.Contains(errw, "is the input file") {
			t.Errorf("opt %s -o %s: exit %d, stderr %q", in, o, code, errw)
		}
	}
	if got, _ := os.ReadFile(in); string(got) != stdinKernel {
		t.Errorf("the input changed:\n%s", got)
	}
	if code, _, errw := nestor(t, "opt", in, "-o", filepath.Join(dir, "k2.c")); code != 0 {
		t.Errorf("opt to another file: exit %d, stderr %q", code, errw)
	}
}

// TestCheckMain: nestor check harnesses a region in main (Pluto's habit),
// with its schedule.
func TestCheckMain(t *testing.T) {
	needCC(t)
	code, out, errw := nestor(t, "check", "../../check/testdata/mainreg.c", "--keep-cached=false", "--runs", "1")
	if code != 0 || !strings.Contains(out, "equal") && !strings.Contains(out, "ok, max rel err") {
		t.Errorf("exit %d\n%s%s", code, out, errw)
	}
}
