package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/model"
)

// A random program (randprog seed 7336) whose band the scheduler skews
// by 7i − j and 20i + k − 2j over a stride-2 loop: tiled, its first
// statement's domain holds thousands of constraints, and code generation
// spent minutes on their guards.
const skewedStrided = `void kernel(int n, int m, double alpha, double A[9][7], double B[7][8])
{
#pragma scop
  for (int i = 1; i <= m - 1; i++)
    for (int j = i + 3; j >= 1; j--)
      for (int k = 1; k < m && k < 6; k += 2) {
        A[k + 1][i] = alpha * (0.75 * A[k + 1][i] - A[k - 1][i]);
        if (j <= n - 1 && i <= 4)
          B[j][i] -= 1.5 * A[i + 2][k] * (A[k + 2][j] - B[j + 1][i]);
      }
  for (int i = 1; i < n + 1; i++)
    A[i + 2][i] = 0.25 * (B[i - 1][i + 1] - A[i + 2][1]);
#pragma endscop
}
`

// TestLaidOutLimit: a region whose laid-out domains exceed
// maxLaidOutCons constraints keeps its original order, with a note that
// says why, instead of handing them to code generation.
func TestLaidOutLimit(t *testing.T) {
	f, err := frontend.Parse("skewed.c", []byte(skewedStrided), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var notes strings.Builder
	opt := DefaultOptions()
	opt.Machine = model.Typical()
	opt.KeepCached, opt.Notes = false, &notes
	if _, err := Optimize(f, opt); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("constraints (more than %d)", maxLaidOutCons); !strings.Contains(notes.String(), "kept the original order") || !strings.Contains(notes.String(), want) {
		t.Errorf("notes do not say the original order was kept for the constraints:\n%s", notes.String())
	}
}
