package deps

import (
	"testing"

	"nestor/ir"
)

func TestReductionRead(t *testing.T) {
	x := func(access int) ir.Expr { return &ir.Load{T: ir.Double, Access: access} }
	elem := ir.Aff{Iter: []int64{1}, Param: []int64{}}
	other := ir.Aff{Iter: []int64{1}, Param: []int64{}, Const: 1}
	stmt := func(op ir.AssignOp, rhs ir.Expr, idx ...ir.Aff) *ir.Stmt {
		s := &ir.Stmt{Op: op, RHS: rhs, Accesses: []*ir.Access{{Write: true, Index: []ir.Aff{elem}}}}
		for _, a := range idx {
			s.Accesses = append(s.Accesses, &ir.Access{Index: []ir.Aff{a}})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		s    *ir.Stmt
		want int
	}{
		// x[i] += y[i+1] (same array, other element): a reduction on x[i].
		{"compound", stmt(ir.AddAssign, x(2), elem, other), 1},
		// x[i] -= x[i]: the operand reads the reduction element.
		{"compound self", stmt(ir.SubAssign, x(2), elem, elem), -1},
		// x[i] /= y: division is not an update of the x op= y kind.
		{"quotient", stmt(ir.QuoAssign, x(2), elem, other), -1},
		// x[i] = y[i+1] + x[i]: operand order does not matter.
		{"assign", stmt(ir.Assign, &ir.Binary{Op: ir.Add, X: x(1), Y: x(2), T: ir.Double}, other, elem), 2},
		// x[i] = x[i] * x[i]: no.
		{"square", stmt(ir.Assign, &ir.Binary{Op: ir.Mul, X: x(1), Y: x(2), T: ir.Double}, elem, elem), -1},
		// x[i] = fmax(x[i], y[i+1]).
		{"fmax", stmt(ir.Assign, &ir.Call{Fn: "fmax", Args: []ir.Expr{x(1), x(2)}, T: ir.Double}, elem, other), 1},
		// x[i] = y[i+1]: a plain copy.
		{"copy", stmt(ir.Assign, x(1), other), -1},
	} {
		if got := reductionRead(tc.s); got != tc.want {
			t.Errorf("%s: reductionRead = %d, want %d", tc.name, got, tc.want)
		}
	}
}
