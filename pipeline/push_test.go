package pipeline

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"nestor/check"
)

// TestPushRandom optimizes random triangular solves in push form, their
// column loop written with the offsets front ends produce (k from j + 1;
// from 0 with column k + j + 1; from 1 with column k + j; 1-based
// counters with subscripts minus one), some with one more term read in
// the update (the row's element at the step, another array, the column
// to the right, which the next step rewrites: no jam may reorder it), at
// sizes no tile divides, and checks each bit for bit against the
// original at 1 and 2 threads. Most must take push tiles (the step loop
// unrolled, codegen's jamPush, after sched's AlignOffsets).
func TestPushRandom(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil || testing.Short() {
		t.Skip("no C compiler, or -short")
	}
	rng := rand.New(rand.NewPCG(23, 7))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	const programs = 16
	jammed := 0
	for c := range programs {
		// col(k) is the column the update writes, as the loop spells it.
		var kloop, col string
		base := ""
		switch rng.IntN(4) {
		case 0:
			kloop, col = "for (int k = j + 1; k < n; k++)", "k"
		case 1:
			kloop, col = "for (int k = 0; k < n - j - 1; k++)", "k + j + 1"
		case 2:
			kloop, col = "for (int k = 1; k < n - j; k++)", "k + j"
		case 3:
			base = "1"
		}
		extra := pick("", " + 0.5 * B[i][COL]", " - 0.125 * A[i][COL + 1]", " - 0.125 * A[i][COL + 1]", " + 0.25 * A[i][J]")
		var body string
		if base == "1" {
			body = strings.NewReplacer("COL", "k - 1", "J", "j - 1").Replace(`  for (int i = 1; i <= m; i++) {
    for (int j = 1; j <= n; j++)
      A[i - 1][j - 1] = B[i - 1][j - 1];
    for (int j = 1; j <= n; j++) {
      A[i - 1][j - 1] /= U[j - 1][j - 1];
      for (int k = j + 1; k <= n; k++)
        A[i - 1][k - 1] -= A[i - 1][j - 1] * U[j - 1][k - 1]` + strings.ReplaceAll(extra, "[i]", "[i - 1]") + `;
    }
  }`)
		} else {
			body = strings.NewReplacer("KLOOP", kloop, "COL", col, "J", "j").Replace(`  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      A[i][j] = B[i][j];
    for (int j = 0; j < n; j++) {
      A[i][j] /= U[j][j];
      KLOOP
        A[i][COL] -= A[i][j] * U[j][COL]` + extra + `;
    }
  }`)
		}
		src := fmt.Sprintf(`#define M %d
#define N %d
void kernel(int m, int n, double A[M][N + 2], double B[M][N + 2], double U[N + 2][N + 2]) {
#pragma scop
%s
#pragma endscop
}
`, 30+rng.IntN(20), 40+rng.IntN(30), body)
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			t.Logf("column %q%s, extra %q", col, base, extra)
			f := parseSource(t, "push.c", src)
			o := DefaultOptions()
			o.Check = true
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			// The step loop unrolled around a loop of columns that
			// starts past the group's last step.
			if regexp.MustCompile(`t\d \+= 4\)`).Match(out) && strings.Contains(string(out), "+ 4; t") {
				jammed++
			}
			expectOriginal(t, f, out, check.Options{Runs: 1, Threads: []int{1, 2}, CFlags: []string{"-ffp-contract=off"}, Exact: true})
		})
	}
	t.Logf("%d of %d took push tiles", jammed, programs)
	if jammed < programs/2 || jammed == programs {
		t.Errorf("%d of %d programs took push tiles: the draw covers too little", jammed, programs)
	}
}
