package pipeline

import (
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/model"
)

// A Gauss–Seidel sweep with sizes the compiler does not know, and a
// region that also holds a matrix–vector product.
const (
	seidelSweep = `void kernel(int T, int n, double A[n][n])
{
#pragma scop
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = (A[i-1][j] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j]) / 5.0;
#pragma endscop
}
`
	seidelBeside = `void kernel(int T, int n, double A[n][n], double y[n], double x[n])
{
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += A[i][j] * x[j];
  for (int t = 0; t < T; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = (A[i-1][j] + A[i][j-1] + A[i][j] + A[i][j+1] + A[i+1][j]) / 5.0;
#pragma endscop
}
`
)

// TestLagKeepsOriginal: a region whose every statement is a sweep of
// dependent rows (the innermost loop one chain, the original order with
// no parallel loop) keeps its original order, whose rows run side by side
// with a lag, rather than skewed tiles; a region with other statements
// beside the sweep is scheduled as before.
func TestLagKeepsOriginal(t *testing.T) {
	for _, c := range []struct {
		name, src string
		kept      bool
	}{{"sweep", seidelSweep, true}, {"beside", seidelBeside, false}} {
		t.Run(c.name, func(t *testing.T) {
			f, err := frontend.Parse(c.name+".c", []byte(c.src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			var notes strings.Builder
			opt := DefaultOptions()
			opt.Machine = model.Typical()
			opt.Notes = &notes
			out, err := Optimize(f, opt)
			if err != nil {
				t.Fatal(err)
			}
			kept := strings.Contains(notes.String(), "side by side with a lag")
			lagged := strings.Contains(string(out), "A[i + 1][j - 1] = ")
			if kept != c.kept || lagged != c.kept {
				t.Errorf("kept the original order for its lag: %v (want %v); a copy lags: %v\nnotes:\n%s\n%s", kept, c.kept, lagged, notes.String(), out)
			}
		})
	}
}
