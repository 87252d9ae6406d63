package pipeline

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"nestor/check"
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

// TestReadAligned: mvt's two statements read A[i][j] and A[j][i], each
// element once, in nests the scheduler keeps apart and parallel; A does
// not fit in the L2 cache, so the region is scheduled aligned on the
// reads of A (the second statement's loops swapped, both in one nest) and
// streams A once. The result must compute what the original does. Where
// the alignment is illegal (the second statement reads what the first
// finishes only at the end of its nest) or A fits in the L2 cache, the
// schedule stays as it was; a third statement that reads x1 after the
// first finished it runs after the aligned pair (sched's readGroups).
func TestReadAligned(t *testing.T) {
	const mvt = `#define N 600
void k(double A[N][N], double x1[N], double x2[N], double y1[N], double y2[N]) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + A[i][j] * y1[j];
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      x2[i] = x2[i] + A[j][i] * YY[j];
#pragma endscop
}
`
	for _, c := range []struct {
		name, src string
		aligned   bool
	}{{"mvt", strings.Replace(mvt, "YY", "y2", 1), true},
		{"after", strings.Replace(mvt, "YY", "x1", 1), false},
		{"small", strings.Replace(strings.Replace(mvt, "YY", "y2", 1), "N 600", "N 40", 1), false},
		// A third statement reads x1 once the first has finished it:
		// the first two align, the third follows in a nest of its own.
		{"three", strings.Replace(strings.Replace(mvt, "YY", "y2", 1), "#pragma endscop", `  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      y1[i] = y1[i] + A[i][j] * x1[j];
#pragma endscop`, 1), true}} {
		t.Run(c.name, func(t *testing.T) {
			f := parseSource(t, c.name+".c", c.src)
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes = true, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			aligned := strings.Contains(notes.String(), "aligned the loops of the statements reading A on their reads")
			if aligned != c.aligned {
				t.Fatalf("aligned on the reads of A: %v, want %v; notes:\n%s\n%s", aligned, c.aligned, notes.String(), out)
			}
			if aligned && (bytes.Contains(out, []byte("A[t2][t1]")) || !bytes.Contains(out, []byte("A[t1][t2] * y1[t2]")) || !bytes.Contains(out, []byte("A[t1][t2] * y2_r"))) {
				t.Errorf("mvt: want both statements reading A[t1][t2] (rows jammed):\n%s", out)
			}
			if _, err := exec.LookPath(cmp(os.Getenv("CC"), "cc")); err != nil || testing.Short() {
				return
			}
			expectOriginal(t, f, out, check.Options{Runs: 1})
		})
	}
}
