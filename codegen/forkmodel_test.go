package codegen

import (
	"testing"

	"nestor/ir"
	"nestor/model"
)

// TestIterBody checks what forkLeast weighs an OpenMP loop's iterations
// by: the operations and moving bytes of the innermost body, and the
// streams, accesses that name a new element at every iteration of the
// whole nest.
func TestIterBody(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    func(t *testing.T) *ir.Program
		want model.Body
	}{
		// A stencil-like update under loops i and j: one operation, A[i][j]
		// read and written, a stream both ways.
		{"update", func(t *testing.T) *ir.Program {
			return newProg(t, "n", "m").array("A", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < m", "A[i][j] = A[i][j] * 0.5").build()
		}, model.Body{Ops: 1, Load: 8, Store: 8, Stream: 16}},
		// gemm's k loop innermost: C[i][j] stays (in a register), A[i][k]
		// and B[k][j] move with k but neither is new at every (i, j, k):
		// no stream. A[i][k] moves by one element, B[k][j] by a row: a
		// gather. alpha * A * B + C: three operations.
		{"gemm", func(t *testing.T) *ir.Program { return casesByName(t, "gemm") }, model.Body{Ops: 3, Load: 8, Gather: 8}},
		// A neighbour read B[i][j + 1] besides B[i][j]: two elements
		// loaded, one stream of B; A[j][i], written transposed (a
		// scatter), is a stream too.
		{"neighbours", func(t *testing.T) *ir.Program {
			return newProg(t, "n").array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "n").
				stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < n - 1", "A[j][i] = B[i][j] + B[i][j + 1]").build()
		}, model.Body{Ops: 1, Load: 16, Scatter: 8, Stream: 16}},
		// Backwards at unit stride is unit stride; every other element
		// is not.
		{"strides", func(t *testing.T) *ir.Program {
			return newProg(t, "n").array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "2*n").array("C", ir.FuncParam, "n").
				stmt("i", []int{0, 0}, "0 <= i < n", "A[i] = B[2*i] + C[n - 1 - i]").build()
		}, model.Body{Ops: 1, Load: 8, Gather: 8, Store: 8, Stream: 24}},
		// A diagonal read C[i + j] is not a stream over (i, j); the
		// written A[i][j] is (once: it is not read).
		{"diagonal", func(t *testing.T) *ir.Program {
			return newProg(t, "n").array("A", ir.FuncParam, "n", "n").array("C", ir.FuncParam, "2*n").
				stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < n", "A[i][j] = C[i + j]").build()
		}, model.Body{Load: 8, Store: 8, Stream: 8}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p(t)
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			pr := &printer{p: p, params: ir.ParamNames(p), vars: map[string]bool{}, used: map[string]bool{}, machine: model.Typical()}
			if got := pr.iterBody(firstLoop(n.Body)); got != tc.want {
				t.Errorf("iterBody = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestForkLeastMachine: the count forkLeast prints follows the machine:
// a dearer wake-up asks for more iterations, and a machine whose
// streams come slower from memory for fewer.
func TestForkLeastMachine(t *testing.T) {
	p := newProg(t, "n", "m").array("A", ir.FuncParam, "n", "m").
		stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < m", "A[i][j] = A[i][j] * 0.5").build()
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	least := func(m model.Machine) int64 {
		pr := &printer{p: p, params: ir.ParamNames(p), vars: map[string]bool{}, used: map[string]bool{}, machine: m}
		return pr.forkLeast(firstLoop(n.Body))
	}
	base := model.Nominal()
	dear := base
	dear.Wake = append([]model.Overhead(nil), base.Wake...)
	for i := range dear.Wake {
		dear.Wake[i].Median *= 16
	}
	slow := base
	for l := range slow.Read {
		slow.Read[l].PerCore /= 16
	}
	b, d, s := least(base), least(dear), least(slow)
	if d <= b || s >= b {
		t.Errorf("counts: nominal %d, 16× the wake-up %d (want more), 1/16 the bandwidth %d (want fewer)", b, d, s)
	}
}
