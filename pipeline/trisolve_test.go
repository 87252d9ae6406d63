package pipeline

import (
	"flag"
	"os"
	"strings"
	"testing"

	"nestor/frontend"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestTrisolveForms is the LoopModels note's test: the 0-based and the
// 1-based triangular solve are one program written with different loop
// offsets, and nestor must find the Δω = 0 schedule (trisolve_ω0!) for
// both: every statement updating A[m][n] in the same (m, n) iteration, the
// k-reduction innermost with A[m][n] kept in a register and stored once.
// The generated regions must be identical, and equal to the golden file.
// (Write-aligned schedules are opt-in, --align: on row-major C the
// default Pluto schedule, whose inner loop is a stride-1 update, is
// faster than the dot-product form.)
func TestTrisolveForms(t *testing.T) {
	region := func(name string) string {
		f, err := frontend.ParseFile("../testdata/kernels/"+name+".c", frontend.Config{})
		if err != nil {
			t.Fatal(err)
		}
		opt := DefaultOptions()
		opt.Check, opt.Align = true, true
		out, err := Optimize(f, opt)
		if err != nil {
			t.Fatal(err)
		}
		s := string(out)
		start := strings.Index(s, "#pragma scop")
		end := strings.Index(s, "#pragma endscop")
		if start < 0 || end < start {
			t.Fatalf("%s: no region in the output:\n%s", name, s)
		}
		return s[start:end]
	}
	zero, one := region("trisolve-0based"), region("trisolve-1based")
	if zero != one {
		t.Errorf("the two forms give different code:\n--- 0-based\n%s--- 1-based\n%s", zero, one)
	}
	// The shape of trisolve_ω0!: A[m][n] starts as B[m][n] in a register,
	// the reduction accumulates there, the division follows, and A[m][n]
	// is stored once.
	for _, want := range []string{"double A_r;", "A_r = B[", "A_r -= A[", "A_r /= U[", "] = A_r;"} {
		if !strings.Contains(zero, want) {
			t.Errorf("no %q in the generated code:\n%s", want, zero)
		}
	}
	golden := "testdata/trisolve.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(zero), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != zero {
		t.Errorf("%s mismatch (go test -update to accept):\n--- want\n%s--- got\n%s", golden, want, zero)
	}
}
