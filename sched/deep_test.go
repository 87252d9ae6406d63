package sched

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/ir"
)

// deepNest returns a region of one statement nested depth deep (Pluto's
// test/deep.c shape: a scalar accumulated at every point), whose Farkas
// systems grow exponentially with the depth.
func deepNest(tb testing.TB, depth int) (*ir.Program, *deps.Graph) {
	tb.Helper()
	var b strings.Builder
	b.WriteString("double s;\nvoid kernel(int n) {\n#pragma scop\n")
	for k := range depth {
		fmt.Fprintf(&b, "for (int i%d = 0; i%d < n; i%d++)\n", k, k, k)
	}
	b.WriteString("s += 1;\n#pragma endscop\n}\n")
	return analyzed(tb, "deep.c", []byte(b.String()))
}

// TestDeepNestBudget checks that the work budget holds on a 12-deep nest:
// Compute gives up with a budget error once the work passes it (before,
// the Fourier–Motzkin steps between two checks of a wall-clock deadline
// ran for minutes).
func TestDeepNestBudget(t *testing.T) {
	p, g := deepNest(t, 12)
	_, err := Compute(p, g, Options{Budget: 5e7})
	if !errors.Is(err, ErrNoSchedule) || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("Compute on a 12-deep nest: %v, want a budget error", err)
	}
}

// BenchmarkDeepNest times Compute on 10- and 12-deep nests under the
// default budget: it should take about a second, whatever the depth.
func BenchmarkDeepNest(b *testing.B) {
	for _, depth := range []int{10, 12} {
		b.Run(fmt.Sprint(depth), func(b *testing.B) {
			p, g := deepNest(b, depth)
			for b.Loop() {
				Compute(p, g, Options{})
			}
		})
	}
}
