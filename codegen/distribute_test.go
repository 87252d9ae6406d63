package codegen

import (
	"bytes"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/ir"
)

// TestDistribute splits an innermost loop of two statements where the
// dependences allow it and every piece then carries none.
func TestDistribute(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stmts []string // the bodies, in order, all over 1 <= i < n
		split bool
	}{
		// S1 writes B[i], S2 reads B[i - 1]: carried forwards, from the
		// first statement to the second; each alone carries nothing.
		{"forward", []string{"B[i] = A[i] + 1.0", "C[i] = B[i - 1] * 2.0"}, true},
		// S2 writes C[i], S1 reads C[i - 1] at the next iteration:
		// carried backwards, from the second statement to the first. All
		// of S1 before all of S2 would read C before it is written.
		{"backward", []string{"B[i] = C[i - 1] + 1.0", "C[i] = B[i] * 2.0"}, false},
		// S1 carries its own recurrence: its piece would still run one
		// element at a time, and S2 would read B again.
		{"recurrence", []string{"B[i] = B[i - 1] + A[i]", "C[i] = B[i - 1] * 2.0"}, false},
		// Three statements, all forwards (S1 → S2 on B, S2 → S3 on C).
		{"three", []string{"B[i] = A[i] * 3.0", "C[i] = B[i - 1] + A[i]", "D[i] = C[i - 1] - B[i - 1]"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newProg(t, "n").array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").
				array("C", ir.FuncParam, "n").array("D", ir.FuncParam, "n")
			for k, s := range tc.stmts {
				b = b.stmt("i", []int{0, k}, "1 <= i < n", s)
			}
			p := b.build()
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			asked := 0
			carried := func(stmts []int, level int) *deps.Graph {
				asked++
				g, err := deps.Carried(p, stmts, level+1, deps.DefaultWork)
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			got := Distribute(p, n, func(int) bool { return true }, carried)
			if asked != 1 {
				t.Errorf("dependences asked %d times, want once", asked)
			}
			var out bytes.Buffer
			if err := PrintC(&out, p, n, ""); err != nil {
				t.Fatal(err)
			}
			loops, simd := strings.Count(out.String(), "for ("), strings.Count(out.String(), "#pragma omp simd")
			switch {
			case tc.split && (got != 1 || loops != len(tc.stmts) || simd != len(tc.stmts)):
				t.Errorf("split %d, %d loops, %d SIMD; want one split into %d SIMD loops:\n%s", got, loops, simd, len(tc.stmts), out.String())
			case !tc.split && (got != 0 || loops != 1 || simd != 0):
				t.Errorf("split %d, %d loops, %d SIMD; want the loop kept:\n%s", got, loops, simd, out.String())
			}
		})
	}
}

// TestDistributeMarks: a loop at a level whose marks ask for no SIMD
// loops (simd false), or already marked, is kept without a question.
func TestDistributeMarks(t *testing.T) {
	p := newProg(t, "n").array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").array("C", ir.FuncParam, "n").
		stmt("i", []int{0, 0}, "1 <= i < n", "B[i] = A[i] + 1.0").
		stmt("i", []int{0, 1}, "1 <= i < n", "C[i] = B[i - 1] * 2.0").build()
	for _, tc := range []struct {
		name    string
		simd    bool
		pragmas []string
	}{{"nosimd", false, nil}, {"marked", true, []string{"omp simd"}}} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			firstLoop(n.Body).Pragmas = tc.pragmas
			carried := func([]int, int) *deps.Graph {
				t.Fatal("dependences asked for")
				return nil
			}
			if got := Distribute(p, n, func(int) bool { return tc.simd }, carried); got != 0 {
				t.Errorf("split %d loops, want none", got)
			}
		})
	}
}

// TestDistributeUnknown: where the dependences are not known (a spent
// budget: an exhausted graph, or none), the loop is kept.
func TestDistributeUnknown(t *testing.T) {
	p := newProg(t, "n").array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").array("C", ir.FuncParam, "n").
		stmt("i", []int{0, 0}, "1 <= i < n", "B[i] = A[i] + 1.0").
		stmt("i", []int{0, 1}, "1 <= i < n", "C[i] = B[i - 1] * 2.0").build()
	for _, tc := range []struct {
		name string
		g    func() *deps.Graph
	}{
		{"exhausted", func() *deps.Graph {
			g, err := deps.Carried(p, []int{0, 1}, 1, 1)
			if err != nil || !g.Exhausted {
				t.Fatalf("a budget of one unit: %v, exhausted %v", err, g != nil && g.Exhausted)
			}
			return g
		}},
		{"none", func() *deps.Graph { return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := Distribute(p, n, func(int) bool { return true }, func([]int, int) *deps.Graph { return tc.g() }); got != 0 {
				t.Errorf("split %d loops, want none", got)
			}
		})
	}
}
