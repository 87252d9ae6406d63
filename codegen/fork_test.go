package codegen

import (
	"bytes"
	"strings"
	"testing"

	"nestor/ir"
)

// TestForkWork: an OpenMP loop nested in a sequential one forks only when
// (an if around a parallel and a sequential copy) its estimated work
// reaches minForkWork: the trip counts of the loop and
// of the first chain of loops inside it, a constant where the bounds
// differ by one (a tile's point loop); a product of several counts is
// tested through their sum, which keeps the condition affine.
func TestForkWork(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level int // the loop marked, by depth in the first chain
		want  string
	}{
		// gemm's j loop inside i: nj iterations of nk.
		{"gemm", 1, "if ((nj) + (nk) >= 32769) {"},
		// for (j = i; j < min(n, i + 4); j++): at most 4 iterations, so
		// the outer loop's trip count times 4.
		{"minupper", 0, "if ((n) >= 8192) {"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := casesByName(t, tc.name)
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			l := firstLoop(n.Body)
			for range tc.level {
				l = firstLoop(l.Body)
			}
			l.Pragmas, l.ForkIf = []string{"omp parallel for"}, true
			var b bytes.Buffer
			if err := PrintC(&b, p, n, ""); err != nil {
				t.Fatal(err)
			}
			// The loop is printed twice: forking under the condition, and
			// sequential otherwise (no libgomp call at all).
			out := b.String()
			if !strings.Contains(out, tc.want+"\n") || strings.Count(out, "#pragma omp parallel for if(") != 1 || !strings.Contains(out, "} else {") {
				t.Errorf("got\n%s\nwant the line\n%s, one omp parallel for with its trip test and an else copy", out, tc.want)
			}
		})
	}
}

// casesByName returns the program of the test case called name.
func casesByName(t *testing.T, name string) *ir.Program {
	t.Helper()
	for _, c := range cases {
		if c.name == name {
			return c.prog(t)
		}
	}
	t.Fatalf("no test case %s", name)
	return nil
}
