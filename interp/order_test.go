package interp

import (
	"fmt"
	"testing"

	"nestor/ir"
)

// imperfect is
//
//	for (i = 0; i < n; i++) {
//	  S0: h = h*31 + 1;
//	  for (j = 0; j <= i; j++)
//	    S1: h = h*31 + 2 + j;
//	  S2: h = h*31 + 3;
//	}
//	S3: h = h*31 + 4;
//
// with h unsigned long, so the final h encodes the order of execution.
func imperfect(t *testing.T) *ir.Program {
	b := newProg(t, "n")
	b.array("h", ir.ULong)
	step := func(c ir.Expr) ir.Expr {
		return bin(ir.Add, bin(ir.Mul, ld(ir.ULong, 1), tc(ir.ULong, 31)), c)
	}
	b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "h; h", ir.Assign, step(tc(ir.ULong, 1)))
	b.stmt("S1", "i j", []int{0, 1, 0}, "i >= 0; i < n; j >= 0; j <= i", "h; h", ir.Assign,
		step(bin(ir.Add, tc(ir.ULong, 2), cast(ir.ULong, it(1)))))
	b.stmt("S2", "i", []int{0, 2}, "i >= 0; i < n", "h; h", ir.Assign, step(tc(ir.ULong, 3)))
	b.stmt("S3", "", []int{1}, "", "h; h", ir.Assign, step(tc(ir.ULong, 4)))
	return b.build()
}

func TestImperfectOrder(t *testing.T) {
	p := imperfect(t)
	const n = 4
	var want []instance
	var h uint64
	for i := int64(0); i < n; i++ {
		want = append(want, instance{0, []int64{i}})
		h = h*31 + 1
		for j := int64(0); j <= i; j++ {
			want = append(want, instance{1, []int64{i, j}})
			h = h*31 + 2 + uint64(j)
		}
		want = append(want, instance{2, []int64{i}})
		h = h*31 + 3
	}
	want = append(want, instance{3, []int64{}})
	h = h*31 + 4
	got := checkOrder(t, p, []int64{n})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("trace\n got %v\nwant %v", got, want)
	}
	m, err := run(t, p, []int64{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := uint64(m.Int64(0, 0)); g != h {
		t.Errorf("h = %d, want %d", g, h)
	}
}

// TestStatementsOutOfTextOrder gives the statements of one loop in
// p.Stmts in an order other than their beta order.
func TestStatementsOutOfTextOrder(t *testing.T) {
	b := newProg(t)
	b.array("h", ir.ULong)
	step := func(c int64) ir.Expr {
		return bin(ir.Add, bin(ir.Mul, ld(ir.ULong, 1), tc(ir.ULong, 7)), tc(ir.ULong, c))
	}
	b.stmt("S0", "i", []int{0, 1}, "i >= 0; i < 3", "h; h", ir.Assign, step(1))
	b.stmt("S1", "i", []int{0, 0}, "i >= 1; i < 3", "h; h", ir.Assign, step(2))
	p := b.build()
	got := checkOrder(t, p, nil)
	want := "[S0[0] S1[1] S0[1] S1[2] S0[2]]"
	if fmt.Sprint(got) != want {
		t.Errorf("trace %v, want %s", got, want)
	}
}

// decreasing is
//
//	for (i = n - 1; i >= 0; i--)
//	  for (j = i + 1; j < n; j++)
//	    A[i] = A[i] * 3 - A[j];
func TestDecreasing(t *testing.T) {
	b := newProg(t, "n")
	b.array("A", ir.Long, "n")
	b.stmt("S0", "-i j", []int{0, 0, 0}, "i >= 0; i <= n - 1; j >= i + 1; j < n", "A[i]; A[i]; A[j]", ir.Assign,
		bin(ir.Sub, bin(ir.Mul, ld(ir.Long, 1), tc(ir.Long, 3)), ld(ir.Long, 2)))
	p := b.build()
	const n = 6
	tr := checkOrder(t, p, []int64{n})
	if first := tr[0].iter; first[0] != n-2 || first[1] != n-1 {
		t.Errorf("first instance %v, want [%d %d]", first, n-2, n-1)
	}
	a := make([]int64, n)
	m, err := run(t, p, []int64{n}, func(m *Memory) {
		for k := range a {
			a[k] = int64(k*k - 3)
			m.SetInt64(0, k, a[k])
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := n - 1; i >= 0; i-- {
		for j := i + 1; j < n; j++ {
			a[i] = a[i]*3 - a[j]
		}
	}
	for k := range a {
		if g := m.Int64(0, k); g != a[k] {
			t.Errorf("A[%d] = %d, want %d", k, g, a[k])
		}
	}
}

// TestStride is for (i = 1; i < n; i += 2) A[i] = i; with the stride as a
// Div local, and a decreasing strided loop for (i = n - 1; i >= 0; i -= 3).
func TestStride(t *testing.T) {
	b := newProg(t, "n")
	b.array("A", ir.Int, "n")
	b.array("B", ir.Int, "n")
	b.stmt("S0", "i", []int{0, 0}, "q = floor((i - 1)/2); i >= 1; i < n; i - 1 - 2*q == 0", "A[i]", ir.Assign, it(0))
	b.stmt("S1", "-i", []int{1, 0}, "q = floor((n - 1 - i)/3); i >= 0; i <= n - 1; n - 1 - i - 3*q == 0", "B[i]; B[i]", ir.Assign,
		bin(ir.Add, ld(ir.Int, 1), it(0)))
	p := b.build()
	const n = 10
	tr := checkOrder(t, p, []int64{n})
	if want := "[S0[1] S0[3] S0[5] S0[7] S0[9] S1[9] S1[6] S1[3] S1[0]]"; fmt.Sprint(tr) != want {
		t.Errorf("trace %v, want %s", tr, want)
	}
	m, err := run(t, p, []int64{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		want := 0
		if i%2 == 1 {
			want = i
		}
		if g := m.Int64(0, i); g != int64(want) {
			t.Errorf("A[%d] = %d, want %d", i, g, want)
		}
	}
}

// TestMinMaxBounds is for (i = max(0, m - 3); i < min(n, m); i++) with
// the min and max as two constraints each, and a triangular inner loop.
func TestMinMaxBounds(t *testing.T) {
	b := newProg(t, "n", "m")
	b.array("A", ir.Int, "n")
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i >= m - 3; i < n; i < m; j >= 0; j <= i; j <= 2", "A[i]; A[i]", ir.Assign,
		bin(ir.Add, ld(ir.Int, 1), ic(1)))
	p := b.build()
	for _, nm := range [][2]int64{{8, 5}, {4, 9}, {3, 0}, {6, 6}} {
		t.Run(fmt.Sprint(nm), func(t *testing.T) {
			checkOrder(t, p, nm[:])
			m, err := run(t, p, nm[:], nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := range nm[0] {
				want := int64(0)
				if i >= max(0, nm[1]-3) && i < min(nm[0], nm[1]) {
					want = min(i, 2) + 1
				}
				if g := m.Int64(0, int(i)); g != want {
					t.Errorf("A[%d] = %d, want %d", i, g, want)
				}
			}
		})
	}
}

// TestGuard is for i, j in [0, n): if (i == j || i + j >= n + 1) ... as
// two statements: S0 under the equality, S1 under the inequality.
func TestGuard(t *testing.T) {
	b := newProg(t, "n")
	b.array("A", ir.Int, "n", "n")
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i < n; j >= 0; j < n; i == j", "A[i][j]", ir.Assign, ic(1))
	b.stmt("S1", "i j", []int{0, 0, 1}, "i >= 0; i < n; j >= 0; j < n; i + j >= n + 1", "A[i][j]; A[i][j]", ir.Assign,
		bin(ir.Add, ld(ir.Int, 1), ic(2)))
	p := b.build()
	const n = 5
	checkOrder(t, p, []int64{n})
	m, err := run(t, p, []int64{n}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range n {
			want := 0
			if i == j {
				want++
			}
			if i+j >= n+1 {
				want += 2
			}
			if g := m.Int64(0, i*n+j); g != int64(want) {
				t.Errorf("A[%d][%d] = %d, want %d", i, j, g, want)
			}
		}
	}
}

// TestEmptyAndScalar runs a loop whose range is empty and a statement with
// no loops guarded by a parameter condition.
func TestEmptyAndScalar(t *testing.T) {
	b := newProg(t, "n")
	b.array("x", ir.Int)
	b.stmt("S0", "i", []int{0, 0}, "i >= n; i < 0", "x", ir.Assign, ic(7))
	b.stmt("S1", "", []int{1}, "n >= 3", "x; x", ir.Assign, bin(ir.Add, ld(ir.Int, 1), ic(1)))
	p := b.build()
	for n, want := range map[int64]int64{2: 0, 3: 1} {
		m, err := run(t, p, []int64{n}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if g := m.Int64(0, 0); g != want {
			t.Errorf("n=%d: x = %d, want %d", n, g, want)
		}
	}
}

func TestUnbounded(t *testing.T) {
	b := newProg(t, "n")
	b.array("A", ir.Int, "n")
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i < n; j >= i", "A[i]", ir.Assign, ic(1))
	_, err := run(t, b.build(), []int64{3}, nil)
	wantErr(t, err, "S0", "i=0", "loop j has no upper bound")
}
