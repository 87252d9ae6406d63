package pipeline

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"nestor/check"
)

// TestSplitCollisions optimizes loops whose innermost loop reads an
// element in place that a moving access of the loop writes at one
// iteration (floyd-warshall's path[i][k] and path[i][j] at j = k), and
// checks that the loop is split there exactly when one point collides,
// that the pieces then keep the element in a register, and, by
// execution, that the results equal the original's.
func TestSplitCollisions(t *testing.T) {
	const floyd = `#define N 300
void k(int n, int path[N][N]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}
`
	// A downward loop, in the original order: the pieces run from the
	// top.
	const down = `#define N 200
void k(double x[N][N]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = N - 1; j >= 0; j--)
        x[i][j] = 0.5 * x[i][j] + x[i][k] * 0.25;
#pragma endscop
}
`
	// Two fixed elements colliding at two points: no split.
	const two = `#define N 200
void k(double x[N][N]) {
  int i, j, k;
#pragma scop
  for (k = 1; k < N; k++)
    for (i = 0; i < N; i++)
      for (j = 0; j < N; j++)
        x[i][j] = 0.5 * x[i][j] + x[i][k] * 0.25 - x[i][k - 1] * 0.125;
#pragma endscop
}
`
	for _, c := range []struct {
		name, src string
		order     Order
		split     bool
		register  string
		note      string // a note the options must give, when set
		iss       bool   // Options.Split
	}{
		// By default, with arrays past the L2 cache: the schedule's
		// only parallelism is a wavefront of (i, j) tiles inside k, and
		// the original order stays.
		{"floyd-default", strings.Replace(floyd, "N 300", "N 2000", 1), OrderRule, true, `int path_r\d* = path\[i\]\[k\];`,
			"kept the original order: the new schedule is parallel only by a wavefront of tiles inside a sequential loop", false},
		// With index-set splitting, the rows below and above k run in
		// parallel loops of the original order.
		{"floyd-iss", strings.Replace(floyd, "N 300", "N 2000", 1), OrderRule, true, `(?s)omp parallel for.*for \(int t2 = 0; t2 < t1; t2\+\+\) \{\s*\{\s*int path_r\d* = path\[t2\]\[t1\];`,
			"split at i = k into 3 statements", true},
		// The schedule's wavefront, rows jammed: each copy's element.
		{"floyd", floyd, OrderSchedule, true, `int path_r\d* = path\[t4 \+ 7\]\[t1\];`, "", false},
		{"floyd-original", floyd, OrderOriginal, true, `int path_r\d* = path\[i\]\[k\];`, "", false},
		{"down", down, OrderOriginal, true, `double x_r\d* = x\[i\]\[k\];`, "", false},
		{"two-points", two, OrderOriginal, false, "", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := parseSource(t, c.name+".c", c.src)
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.Notes, o.Split = true, &notes, c.iss
			o.Decide = []Decisions{{Order: c.order}}
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			split := strings.Contains(notes.String(), "split where a moving access meets")
			if split != c.split {
				t.Fatalf("split: %v, want %v; notes:\n%s\n%s", split, c.split, notes.String(), out)
			}
			if !strings.Contains(notes.String(), c.note) {
				t.Errorf("no note %q; notes:\n%s", c.note, notes.String())
			}
			if c.split && !regexp.MustCompile(c.register).Match(out) {
				t.Errorf("no register %s in:\n%s", c.register, out)
			}
			if _, err := exec.LookPath(cmp(os.Getenv("CC"), "cc")); err != nil || testing.Short() {
				return
			}
			var params map[string]int64
			if strings.Contains(c.src, "int n,") {
				params = map[string]int64{"n": 300}
			}
			expectOriginal(t, f, out, check.Options{Runs: 1, Params: params})
		})
	}
}
