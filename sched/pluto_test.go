package sched

import (
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/ir"
)

// all is kept so that command lines that pass it still work: every corpus
// kernel schedules in milliseconds now, and every one runs.
var all = flag.Bool("sched.all", false, "no effect: every corpus kernel runs")

// fallback lists the corpus kernels that are expected to keep their
// original order (Compute returns ErrNoSchedule), with the reason. Every
// other kernel must schedule: a new fallback is a regression.
var fallback = map[string]string{}

// TestComputeCorpus schedules every corpus kernel and checks the result by
// execution: the program rewritten under the new schedule computes bit for
// bit what the original does (the interpreter evaluates both in their own
// orders; only dependences constrain them). A kernel in fallback must fail
// with ErrNoSchedule (the caller keeps the original order); any other must
// schedule, well within the default budget.
func TestComputeCorpus(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		t.Run(name, func(t *testing.T) {
			p, g := analyzed(t, k, nil, "MINI_DATASET")
			sc, err := Compute(p, g, Options{})
			if why, ok := fallback[name]; ok {
				if !errors.Is(err, ErrNoSchedule) {
					t.Fatalf("expected a fallback (%s), got %v", why, err)
				}
				t.Skipf("falls back to the original order: %v", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			if sc.Work > DefaultBudget/10 {
				t.Errorf("scheduling took %.3g units of work, more than a tenth of the default budget", float64(sc.Work))
			}
			t.Logf("%.3g units of work", float64(sc.Work))
			q, err := Apply(p, sc)
			if err != nil {
				t.Fatalf("%v\n%s", err, Format(p, sc))
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			params := make([]int64, len(p.Params))
			for i := range params {
				params[i] = 4 - int64(i%2)
			}
			runBoth(t, p, q, params)
			t.Logf("\n%s", Format(p, sc))
		})
	}
}

// TestComputeBudget checks that a scheduler out of work gives up the way
// the pipeline expects: an error wrapping ErrNoSchedule.
func TestComputeBudget(t *testing.T) {
	f, err := frontend.ParseFile("../testdata/kernels/heat-3d.c", frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	g, err := deps.Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compute(p, g, Options{Budget: 1})
	if !errors.Is(err, ErrNoSchedule) || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("Compute with a budget of 1 unit: %v, want a budget error wrapping ErrNoSchedule", err)
	}
}

// TestComputeParts: a factorization followed by a back substitution in
// one region. The substitution's x[i] /= A[i][i] follows its loop over
// j > i, so it has no second row; the factorization, which the first
// scalar dimension already puts apart and no live edge joins to it,
// still gets its three-row band (lu's), the substitution constant rows
// there. The rewritten program computes what the original does.
func TestComputeParts(t *testing.T) {
	src := []byte(`void f(int n, double A[n][n], double x[n], double y[n]) {
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (j = i; j < n; j++)
      for (k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
  for (i = n - 1; i >= 0; i--) {
    x[i] = y[i];
    for (j = i + 1; j < n; j++)
      x[i] -= A[i][j] * x[j];
    x[i] = x[i] / A[i][i];
  }
#pragma endscop
}
`)
	p, g := analyzed(t, "parts.c", src)
	sc, err := Compute(p, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wide := false
	for _, b := range sc.Bands {
		wide = wide || b.End-b.Start >= 3
	}
	if !wide {
		t.Errorf("no band of three rows:\n%s", Format(p, sc))
	}
	q, err := Apply(p, sc)
	if err != nil {
		t.Fatal(err)
	}
	runBoth(t, p, q, []int64{7})
}
