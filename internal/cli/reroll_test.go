package cli

import (
	"strings"
	"testing"
)

// TestRerollFlag: --reroll is off by default; with it, opt rolls the
// four copies into one statement and check proves the result equal to
// the original by execution, with the note in its report.
func TestRerollFlag(t *testing.T) {
	const k = "../../testdata/reroll/daxpy4.c"
	const note = "S0 S1 S2 S3 (4 copies of 1 statement) became loop u"
	if code, out, _ := nestor(t, "help", "opt"); code != 0 || !strings.Contains(out, "reroll hand-unrolled statements into loops") {
		t.Errorf("help opt: exit %d, no --reroll:\n%s", code, out)
	}
	// opt writes its notes to the process's standard error: count the
	// statements of the output instead, four copies or one.
	for _, tc := range []struct {
		flags  []string
		copies int
	}{{nil, 4}, {[]string{"--reroll"}, 1}} {
		code, out, errw := nestor(t, append(append([]string{"opt"}, tc.flags...), k, "-D", "SMALL_DATASET", "-o", "-")...)
		if n := strings.Count(out, "alpha * x["); code != 0 || n != tc.copies {
			t.Errorf("opt %v: exit %d, %d statements, want %d\n%s%s", tc.flags, code, n, tc.copies, out, errw)
		}
	}
	needCC(t)
	if testing.Short() {
		t.Skip("compiles and runs the kernel")
	}
	code, out, errw := nestor(t, "check", "--reroll", k, "-D", "SMALL_DATASET", "--runs", "1")
	if code != 0 || !strings.Contains(out, note) || !strings.Contains(out, "equal") {
		t.Errorf("check --reroll: exit %d\n%s%s", code, out, errw)
	}
}
