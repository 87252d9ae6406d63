package pipeline

import (
	"bytes"
	"strings"
	"testing"

	"nestor/frontend"
)

// TestSplitReads: bicg's two statements read A[i][j] in the same
// iteration, and the scheduler's parallel schedule swaps i and j for one
// of them, so A would be streamed twice: the region keeps its original
// order, with a note naming A. Its write-aligned variant, where each
// statement has a nest of its own, reads A in two nests already: the rule
// must leave that one scheduled. With A in the L2 cache (Target's), the
// split costs no memory traffic and the schedule is kept.
func TestSplitReads(t *testing.T) {
	const fused = `void k(int n, int m, double A[n][m], double s[m], double q[n], double p[m], double r[n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    q[i] = 0.0;
    for (int j = 0; j < m; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}
`
	const apart = `void k(int n, int m, double A[n][m], double s[m], double q[n], double p[m], double r[n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s[j] = s[j] + r[i] * A[i][j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      q[i] = q[i] + A[i][j] * p[j];
#pragma endscop
}
`
	const small = `#define N 40
void k(double A[N][N], double s[N], double q[N], double p[N], double r[N]) {
#pragma scop
  for (int i = 0; i < N; i++) {
    q[i] = 0.0;
    for (int j = 0; j < N; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
#pragma endscop
}
`
	for _, c := range []struct {
		name, src string
		kept      bool
	}{{"fused", fused, true}, {"apart", apart, false}, {"small", small, false},
		// A statement outside every loop has no stride to check.
		{"scalar", strings.Replace(fused, "#pragma scop\n", "#pragma scop\n  s[0] = 1.0;\n", 1), true}} {
		t.Run(c.name, func(t *testing.T) {
			f, err := frontend.Parse(c.name+".c", []byte(c.src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes = true, &notes
			if _, err := Optimize(f, o); err != nil {
				t.Fatal(err)
			}
			kept := strings.Contains(notes.String(), "reads each element of A in")
			if kept != c.kept {
				t.Errorf("kept for the split reads of A: %v, want %v; notes:\n%s", kept, c.kept, notes.String())
			}
		})
	}
}
