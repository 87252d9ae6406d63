package cli

import (
	"strings"
	"testing"

	"nestor/sched"
)

// TestSchedTree checks that nestor sched --tree prints a schedule tree
// that sched.ParseTree reads back.
func TestSchedTree(t *testing.T) {
	code, out, errw := nestor(t, "sched", "../../testdata/kernels/gemm.c", "--tree")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	_, body, ok := strings.Cut(out, "):\n")
	if !ok || !strings.Contains(body, "band:") {
		t.Fatalf("no tree with a band:\n%s", out)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	tree, err := sched.ParseTree(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(tree.Stmts) != 2 {
		t.Fatalf("read %d statements, gemm has 2", len(tree.Stmts))
	}
}
