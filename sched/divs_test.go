package sched

import (
	"testing"

	"nestor/ir"
)

// TestApplyCongruences schedules programs whose domains carry
// floor-division locals (a two-buffer stencil's t % 2, a guard on a
// parity, a stride) and runs the scheduled and tiled programs against the
// originals in the interpreter.
func TestApplyCongruences(t *testing.T) {
	for name, src := range map[string]string{
		"two buffers": `double a[2][40];
void kernel(void) {
#pragma scop
  for (int t = 0; t < 9; t++)
    for (int i = 1; i < 39; i++)
      a[(t + 1) % 2][i] = 0.25 * (a[t % 2][i - 1] + 2.0 * a[t % 2][i] + a[t % 2][i + 1]);
#pragma endscop
}
`,
		"parity guard": `double a[30][30];
void kernel(void) {
#pragma scop
  for (int t = 1; t < 8; t++)
    for (int i = 1; i < 29; i++) {
      if (t % 2 == 1)
        a[t % 2][i] = a[(t + 1) % 2][i - 1] + a[(t + 1) % 2][i + 1];
      if (t % 2 == 0)
        a[t % 2][i] = 0.5 * a[(t + 1) % 2][i];
    }
#pragma endscop
}
`,
	} {
		t.Run(name, func(t *testing.T) {
			p, g := analyzed(t, "k.c", []byte(src))
			divs := 0
			for _, s := range p.Stmts {
				divs += len(s.Domain.Divs)
			}
			if divs == 0 {
				t.Fatal("no floor-division locals: the test no longer tests them")
			}
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, plan := range []Plan{{}, {Tile: true, Reorder: true, Wavefront: true, Sizes: []int64{3, 5}}} {
				q, _, err := ApplyPlan(p, sc, plan)
				if err != nil {
					t.Fatal(err)
				}
				if err := ir.Check(q); err != nil {
					t.Fatal(err)
				}
				runBoth(t, p, q, nil)
			}
		})
	}
}
