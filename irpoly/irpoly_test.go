package irpoly

import (
	"testing"

	"nestor/ir"
	"nestor/poly"
)

// holds reports whether the point x (dims, then params) satisfies rows.
func holds(rows []poly.Constraint, x []int64) bool {
	for _, r := range rows {
		v := r.Coef[len(r.Coef)-1]
		for k, c := range r.Coef[:len(r.Coef)-1] {
			v += c * x[k]
		}
		if r.Eq && v != 0 || !r.Eq && v < 0 {
			return false
		}
	}
	return true
}

// TestDomainRows lays out {0 ≤ i < n, q = ⌊(i + 1)/3⌋, q ≤ 2} with the
// counter at dim 1 and the local at dim 2 (dim 0 is another statement's),
// and checks by enumeration that the rows hold exactly at the points of
// the domain with q its floor division.
func TestDomainRows(t *testing.T) {
	aff := func(iter, local, param []int64, c int64) ir.Aff {
		return ir.Aff{Iter: iter, Local: local, Param: param, Const: c}
	}
	d := ir.Domain{
		Cons: []ir.Constraint{
			{Aff: aff([]int64{1}, []int64{0}, []int64{0}, 0)},   // i ≥ 0
			{Aff: aff([]int64{-1}, []int64{0}, []int64{1}, -1)}, // n − 1 − i ≥ 0
			{Aff: aff([]int64{0}, []int64{-1}, []int64{0}, 2)},  // 2 − q ≥ 0
		},
		Divs: []ir.Div{{Num: aff([]int64{1}, []int64{0}, []int64{0}, 1), Den: 3}},
	}
	l := Layout{Dims: 3, Params: 1}
	rows := l.Domain(d, 1, 2)
	for _, r := range rows {
		if len(r.Coef) != 5 {
			t.Fatalf("row %v: want 3 dims, 1 parameter and the constant", r.Coef)
		}
	}
	const n = 20
	for i := int64(-3); i < n+3; i++ {
		for q := int64(-3); q < 10; q++ {
			want := 0 <= i && i < n && q == (i+1)/3 && q <= 2
			if got := holds(rows, []int64{7, i, q, n}); got != want {
				t.Errorf("i = %d, q = %d: rows hold %v, want %v", i, q, got, want)
			}
		}
	}
}

// TestImplies: 0 <= x <= 9 implies x <= 10 and x >= 0, not x <= 8, and
// the equality x = 3 only where the base pins x there.
func TestImplies(t *testing.T) {
	sp := Anonymous(1, 0)
	row := func(eq bool, c ...int64) poly.Constraint { return poly.Constraint{Eq: eq, Coef: c} }
	base := []poly.Constraint{row(false, 1, 0), row(false, -1, 9)} // x >= 0, 9 - x >= 0
	for _, c := range []struct {
		rows []poly.Constraint
		want bool
	}{
		{[]poly.Constraint{row(false, -1, 10), row(false, 1, 0)}, true},
		{[]poly.Constraint{row(false, -1, 8)}, false},
		{[]poly.Constraint{row(true, 1, -3)}, false},
	} {
		if got, err := Implies(sp, base, c.rows); err != nil || got != c.want {
			t.Errorf("Implies(%v) = %v, %v; want %v", c.rows, got, err, c.want)
		}
	}
	pinned := append(base, row(true, 1, -3))
	if got, _ := Implies(sp, pinned, []poly.Constraint{row(true, 1, -3)}); !got {
		t.Error("x = 3 does not imply x = 3")
	}
}
