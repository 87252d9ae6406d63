package interp

import (
	"math"
	"math/rand/v2"
	"testing"

	"nestor/ir"
)

// TestGemm runs PolyBench's gemm (C = alpha*A*B + beta*C, an imperfect
// nest) and compares with the same loops in Go, bit for bit.
func gemm(t testing.TB) *ir.Program {
	b := newProg(t, "ni", "nj", "nk")
	b.array("C", ir.Double, "ni", "nj")
	b.array("A", ir.Double, "ni", "nk")
	b.array("B", ir.Double, "nk", "nj")
	b.array("alpha", ir.Double)
	b.array("beta", ir.Double)
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i < ni; j >= 0; j < nj", "C[i][j]; C[i][j]; beta", ir.MulAssign, ld(ir.Double, 2))
	b.stmt("S1", "i j k", []int{0, 0, 1, 0}, "i >= 0; i < ni; j >= 0; j < nj; k >= 0; k < nk",
		"C[i][j]; C[i][j]; alpha; A[i][k]; B[k][j]", ir.AddAssign,
		bin(ir.Mul, bin(ir.Mul, ld(ir.Double, 2), ld(ir.Double, 3)), ld(ir.Double, 4)))
	return b.build()
}

func TestGemm(t *testing.T) {
	p := gemm(t)
	const ni, nj, nk = 5, 6, 7
	r := rand.New(rand.NewPCG(1, 2))
	c, a, bb := make([]float64, ni*nj), make([]float64, ni*nk), make([]float64, nk*nj)
	alpha, beta := 1.5, 1.2
	m, err := run(t, p, []int64{ni, nj, nk}, func(m *Memory) {
		for k, xs := range [][]float64{c, a, bb} {
			for e := range xs {
				xs[e] = r.Float64()
				m.SetFloat64(k, e, xs[e])
			}
		}
		m.SetFloat64(3, 0, alpha)
		m.SetFloat64(4, 0, beta)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range ni {
		for j := range nj {
			c[i*nj+j] *= beta
			for k := range nk {
				c[i*nj+j] += alpha * a[i*nk+k] * bb[k*nj+j]
			}
		}
	}
	for e := range c {
		if g := m.Float64(0, e); g != c[e] {
			t.Errorf("C[%d] = %v, want %v", e, g, c[e])
		}
	}
}

// accumulate builds for (i = 0; i < n; i++) x = x + step (or x op= step
// with op) over a scalar x of type T.
func accumulate(t *testing.T, T ir.Type, op ir.AssignOp, step ir.Expr) *ir.Program {
	b := newProg(t, "n")
	b.array("x", T)
	if op == ir.Assign {
		b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "x; x", op, bin(ir.Add, ld(T, 1), step))
	} else {
		b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "x; x", op, step)
	}
	return b.build()
}

// TestFloat32Rounding runs x = x + 0.1f + 0.1f, which rounds to float after
// each addition; rounding only on the store gives another sum.
func TestFloat32Rounding(t *testing.T) {
	const n = 1000
	b := newProg(t, "n")
	b.array("x", ir.Float)
	b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "x; x", ir.Assign, bin(ir.Add, bin(ir.Add, ld(ir.Float, 1), fc(0.1)), fc(0.1)))
	m, err := run(t, b.build(), []int64{n}, func(m *Memory) { m.SetFloat64(0, 0, 1) })
	if err != nil {
		t.Fatal(err)
	}
	x32, once := float32(1), float32(1)
	tenth := float64(float32(0.1))
	for range n {
		x32 = x32 + 0.1 + 0.1
		once = float32(float64(once) + tenth + tenth)
	}
	if g := m.Float64(0, 0); g != float64(x32) {
		t.Errorf("float sum %v, want %v", g, x32)
	}
	if once == x32 {
		t.Fatalf("test is weak: rounding once per statement gives the same sum")
	}
	// The same in double is the float64 sum.
	m, err = run(t, accumulate(t, ir.Double, ir.Assign, dc(tenth)), []int64{n}, func(m *Memory) { m.SetFloat64(0, 0, 1) })
	if err != nil {
		t.Fatal(err)
	}
	x64 := 1.0
	for range n {
		x64 += tenth
	}
	if g := m.Float64(0, 0); g != x64 || x64 == float64(float32(x64)) {
		t.Errorf("double sum %v, want %v (not a float)", g, x64)
	}
}

func TestUnsignedWrap(t *testing.T) {
	// x = x*2654435761u + i, on unsigned int.
	b := newProg(t, "n")
	b.array("x", ir.UInt)
	b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "x; x", ir.Assign,
		bin(ir.Add, bin(ir.Mul, ld(ir.UInt, 1), tc(ir.UInt, 2654435761)), cast(ir.UInt, it(0))))
	m, err := run(t, b.build(), []int64{50}, func(m *Memory) { m.SetInt64(0, 0, 12345) })
	if err != nil {
		t.Fatal(err)
	}
	x := uint32(12345)
	for i := range uint32(50) {
		x = x*2654435761 + i
	}
	if g := m.Int64(0, 0); g != int64(x) {
		t.Errorf("x = %d, want %d", g, x)
	}
	// unsigned char c -= 100 promotes to int and wraps on the store.
	m, err = run(t, accumulate(t, ir.UChar, ir.SubAssign, ic(100)), []int64{3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := m.Int64(0, 0), int64(uint8(256-300%256)); g != want {
		t.Errorf("c = %d, want %d", g, want)
	}
	// 0u - 1u is UINT_MAX.
	m, err = run(t, accumulate(t, ir.UInt, ir.Assign, tc(ir.UInt, 0xffffffff)), []int64{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := m.Int64(0, 0); g != 0xffffffff {
		t.Errorf("0u + UINT_MAX = %d", g)
	}
}

func TestSignedOverflow(t *testing.T) {
	// x = x * 2 from 1 overflows int at i = 30, computing 2^31.
	b := newProg(t, "n")
	b.array("x", ir.Int)
	b.stmt("S7", "i", []int{0, 0}, "i >= 0; i < n", "x; x", ir.Assign, bin(ir.Mul, ld(ir.Int, 1), ic(2)))
	p := b.build()
	m, err := run(t, p, []int64{40}, func(m *Memory) { m.SetInt64(0, 0, 1) })
	wantErr(t, err, "stmt S7 at (i=30)", "signed overflow in int: 1073741824 * 2")
	if g := m.Int64(0, 0); g != 1<<30 {
		t.Errorf("x = %d after the error, want %d", g, 1<<30)
	}
	if _, err := run(t, p, []int64{30}, func(m *Memory) { m.SetInt64(0, 0, 1) }); err != nil {
		t.Errorf("30 doublings: %v", err)
	}
	// long: LONG_MAX + 1.
	_, err = run(t, accumulate(t, ir.Long, ir.Assign, tc(ir.Long, 1)), []int64{2}, func(m *Memory) { m.SetInt64(0, 0, math.MaxInt64) })
	wantErr(t, err, "S0", "i=0", "signed overflow in long")
	// INT_MIN / -1 and INT_MIN % -1.
	for _, op := range []ir.AssignOp{ir.QuoAssign, ir.RemAssign} {
		_, err = run(t, accumulate(t, ir.Int, op, ic(-1)), []int64{1}, func(m *Memory) { m.SetInt64(0, 0, math.MinInt32) })
		wantErr(t, err, "signed overflow in int")
	}
	// -INT_MIN.
	b = newProg(t)
	b.array("x", ir.Int)
	b.stmt("S0", "", []int{0}, "", "x; x", ir.Assign, &ir.Unary{Op: ir.Neg, X: ld(ir.Int, 1), T: ir.Int})
	_, err = run(t, b.build(), nil, func(m *Memory) { m.SetInt64(0, 0, math.MinInt32) })
	wantErr(t, err, "stmt S0: signed overflow")
}

func TestDivisionByZero(t *testing.T) {
	// A[i] = 10 / (i - 2) and A[i] = 10 % (i - 2).
	for _, op := range []ir.BinOp{ir.Quo, ir.Rem} {
		b := newProg(t, "n")
		b.array("A", ir.Int, "n")
		b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "A[i]", ir.Assign, bin(op, ic(10), bin(ir.Sub, it(0), ic(2))))
		m, err := run(t, b.build(), []int64{5}, nil)
		wantErr(t, err, "stmt S0 at (i=2)", "division by zero")
		if g0, g1 := m.Int64(0, 0), m.Int64(0, 1); op == ir.Quo && (g0 != -5 || g1 != -10) {
			t.Errorf("A[0], A[1] = %d, %d, want -5, -10", g0, g1)
		}
	}
	// Truncation toward zero: -7 / 2 = -3, -7 % 2 = -1, 7u / 2u = 3.
	for _, c := range []struct {
		e    ir.Expr
		want int64
	}{
		{bin(ir.Quo, ic(-7), ic(2)), -3},
		{bin(ir.Rem, ic(-7), ic(2)), -1},
		{bin(ir.Rem, ic(7), ic(-2)), 1},
		{cast(ir.Int, bin(ir.Quo, tc(ir.UInt, 7), tc(ir.UInt, 2))), 3},
	} {
		if g, err := evalInt(t, c.e); err != nil || g != c.want {
			t.Errorf("%s = %d (%v), want %d", ir.FormatExpr(c.e, nil, nil, nil), g, err, c.want)
		}
	}
	// Floating-point division by zero is +Inf.
	b := newProg(t)
	b.array("x", ir.Double)
	b.stmt("S0", "", []int{0}, "", "x", ir.Assign, bin(ir.Quo, dc(1), dc(0)))
	m, err := run(t, b.build(), nil, nil)
	if err != nil || !math.IsInf(m.Float64(0, 0), 1) {
		t.Errorf("1.0/0.0 = %v (%v)", m.Float64(0, 0), err)
	}
}

// evalInt runs x = e once for an int expression e.
func evalInt(t *testing.T, e ir.Expr) (int64, error) {
	b := newProg(t)
	b.array("x", ir.Int)
	b.stmt("S0", "", []int{0}, "", "x", ir.Assign, e)
	m, err := run(t, b.build(), nil, nil)
	return m.Int64(0, 0), err
}

// evalDouble runs x = e once for a double expression e.
func evalDouble(t *testing.T, e ir.Expr) (float64, error) {
	b := newProg(t)
	b.array("x", ir.Double)
	b.stmt("S0", "", []int{0}, "", "x", ir.Assign, e)
	m, err := run(t, b.build(), nil, nil)
	return m.Float64(0, 0), err
}

func TestOutOfBounds(t *testing.T) {
	// B[i] = A[i + 1] for i < n reads A[n].
	b := newProg(t, "n")
	b.array("A", ir.Int, "n")
	b.array("B", ir.Int, "n")
	b.stmt("S3", "i", []int{0, 0}, "i >= 0; i < n", "B[i]; A[i + 1]", ir.Assign, ld(ir.Int, 1))
	_, err := run(t, b.build(), []int64{4}, nil)
	wantErr(t, err, "stmt S3 at (i=3)", "A[i + 1] = A[4] is out of bounds of A[4]")
	// A write out of bounds, in the second dimension.
	b = newProg(t, "n")
	b.array("A", ir.Int, "n", "n")
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i < n; j >= 0; j < n", "A[j][i - 1]", ir.Assign, ic(0))
	_, err = run(t, b.build(), []int64{4}, nil)
	wantErr(t, err, "stmt S0 at (i=0, j=0)", "A[j][i - 1] = A[0][-1] is out of bounds of A[4][4]")
}

func TestCompoundConversion(t *testing.T) {
	// int A[i] += 0.7 * i: A[i] = (int)((double)A[i] + 0.7*(double)i).
	b := newProg(t, "n")
	b.array("A", ir.Int, "n")
	b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "A[i]; A[i]", ir.AddAssign, bin(ir.Mul, dc(0.7), cast(ir.Double, it(0))))
	p := b.build()
	if v, ok := p.Stmts[0].Value(p).(*ir.Cast); !ok || !v.Implicit || v.T != ir.Int {
		t.Fatalf("Value is %#v, want an implicit cast to int", p.Stmts[0].Value(p))
	}
	const n = 8
	init := []int64{-3, 5, 0, -1, 2, 100, -7, 9}
	m, err := run(t, p, []int64{n}, func(m *Memory) {
		for k, v := range init {
			m.SetInt64(0, k, v)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range init {
		want := int64(int32(float64(a) + 0.7*float64(i)))
		if g := m.Int64(0, i); g != want {
			t.Errorf("A[%d] = %d, want %d", i, g, want)
		}
	}
	// float f *= 3 (int): float multiplication, then the store.
	m, err = run(t, accumulate(t, ir.Float, ir.MulAssign, ic(3)), []int64{20}, func(m *Memory) { m.SetFloat64(0, 0, 0.1) })
	if err != nil {
		t.Fatal(err)
	}
	f := float32(0.1)
	for range 20 {
		f *= 3
	}
	if g := m.Float64(0, 0); g != float64(f) {
		t.Errorf("f = %v, want %v", g, f)
	}
	// int x += 1e10 cannot be stored: the conversion is undefined.
	_, err = run(t, accumulate(t, ir.Int, ir.AddAssign, dc(1e10)), []int64{1}, nil)
	wantErr(t, err, "stmt S0 at (i=0)", "conversion of double 1e+10 to int is out of range")
	// short s <<= 3 promotes: (short)(s << 3) wraps as gcc does.
	m, err = run(t, accumulate(t, ir.Short, ir.ShlAssign, ic(3)), []int64{2}, func(m *Memory) { m.SetInt64(0, 0, 1000) })
	if err != nil {
		t.Fatal(err)
	}
	if g, want := m.Int64(0, 0), int64(64000-65536); g != want {
		t.Errorf("s = %d, want %d", g, want)
	}
}

func TestShifts(t *testing.T) {
	for _, c := range []struct {
		e    ir.Expr
		want int64
		err  string
	}{
		{bin(ir.Shl, ic(1), ic(30)), 1 << 30, ""},
		{bin(ir.Shl, ic(1), ic(31)), 0, "signed overflow in int: 1 << 31"},
		{bin(ir.Shl, ic(-1), ic(1)), 0, "signed overflow"},
		{bin(ir.Shl, ic(1), ic(32)), 0, "shift count 32 out of range for int"},
		{bin(ir.Shr, ic(1), ic(-1)), 0, "shift count -1 out of range"},
		{bin(ir.Shr, ic(-8), ic(1)), -4, ""},
		{bin(ir.Shl, ic(3), tc(ir.Long, 2)), 12, ""},
		{cast(ir.Int, bin(ir.Shr, bin(ir.Shl, tc(ir.UInt, 3), ic(31)), ic(30))), 2, ""},
		{cast(ir.Int, bin(ir.Shr, tc(ir.ULong, -1), ic(60))), 15, ""},
	} {
		g, err := evalInt(t, c.e)
		s := ir.FormatExpr(c.e, nil, nil, nil)
		if c.err != "" {
			wantErr(t, err, c.err)
			continue
		}
		if err != nil || g != c.want {
			t.Errorf("%s = %d (%v), want %d", s, g, err, c.want)
		}
	}
}

// TestShortCircuit checks that &&, || and ?: skip the operand that would
// divide by zero.
func TestShortCircuit(t *testing.T) {
	b := newProg(t, "n")
	b.array("A", ir.Int, "n")
	b.array("B", ir.Int, "n")
	b.array("C", ir.Int, "n")
	nz := bin(ir.Neq, it(0), ic(0))
	q := bin(ir.Quo, ic(10), it(0))
	b.stmt("S0", "i", []int{0, 0}, "i >= 0; i < n", "A[i]", ir.Assign, bin(ir.LAnd, nz, bin(ir.Gt, q, ic(2))))
	b.stmt("S1", "i", []int{0, 1}, "i >= 0; i < n", "B[i]", ir.Assign, bin(ir.LOr, bin(ir.Eql, it(0), ic(0)), bin(ir.Gt, q, ic(2))))
	b.stmt("S2", "i", []int{0, 2}, "i >= 0; i < n", "C[i]", ir.Assign, &ir.Cond{C: nz, X: q, Y: ic(-1), T: ir.Int})
	m, err := run(t, b.build(), []int64{6}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		var a, bb, c int64 = 0, 1, -1
		if i != 0 {
			c = int64(10 / i)
			if c > 2 {
				a = 1
			} else {
				bb = 0
			}
		}
		if ga, gb, gc := m.Int64(0, i), m.Int64(1, i), m.Int64(2, i); ga != a || gb != bb || gc != c {
			t.Errorf("i=%d: A, B, C = %d, %d, %d, want %d, %d, %d", i, ga, gb, gc, a, bb, c)
		}
	}
	// The arm not taken is not evaluated even for the whole nest.
	nan := dc(math.NaN())
	if g, err := evalInt(t, bin(ir.LAnd, nan, ic(2))); err != nil || g != 1 {
		t.Errorf("NaN && 2 = %d (%v), want 1", g, err)
	}
	if g, err := evalInt(t, bin(ir.Lt, nan, dc(1))); err != nil || g != 0 {
		t.Errorf("NaN < 1 = %d (%v), want 0", g, err)
	}
	if g, err := evalInt(t, bin(ir.Neq, nan, nan)); err != nil || g != 1 {
		t.Errorf("NaN != NaN = %d (%v), want 1", g, err)
	}
	if g, err := evalInt(t, bin(ir.Lt, ic(-1), ic(0))); err != nil || g != 1 {
		t.Errorf("-1 < 0 = %d (%v), want 1", g, err)
	}
	if g, err := evalInt(t, bin(ir.Lt, tc(ir.UInt, 0xffffffff), tc(ir.UInt, 0))); err != nil || g != 0 {
		t.Errorf("UINT_MAX < 0u = %d (%v), want 0", g, err)
	}
}

func TestCasts(t *testing.T) {
	for _, c := range []struct {
		e    ir.Expr
		want int64
		err  string
	}{
		{cast(ir.Int, dc(-2.7)), -2, ""},
		{cast(ir.Int, dc(2.99)), 2, ""},
		{cast(ir.Int, cast(ir.Bool, dc(0.5))), 1, ""},
		{cast(ir.Int, cast(ir.Bool, ic(-4))), 1, ""},
		{cast(ir.Int, cast(ir.Bool, dc(0))), 0, ""},
		{cast(ir.Int, cast(ir.UChar, ic(300))), 44, ""},
		{cast(ir.Int, cast(ir.Char, ic(200))), -56, ""},
		{cast(ir.Int, cast(ir.UInt, dc(-0.9))), 0, ""},
		{cast(ir.Int, cast(ir.UInt, dc(-1))), 0, "conversion of double -1 to unsigned int is out of range"},
		{cast(ir.Int, dc(math.NaN())), 0, "conversion of double NaN to int"},
		{cast(ir.Int, dc(2147483647.5)), 2147483647, ""},
		{cast(ir.Int, dc(2147483648)), 0, "out of range"},
		{cast(ir.Int, dc(-2147483648.9)), math.MinInt32, ""},
		{&ir.Unary{Op: ir.Not, X: dc(0.0), T: ir.Int}, 1, ""},
		{cast(ir.Int, &ir.Unary{Op: ir.BitNot, X: tc(ir.UChar, 0), T: ir.UChar}), 255, ""},
	} {
		g, err := evalInt(t, c.e)
		s := ir.FormatExpr(c.e, nil, nil, nil)
		if c.err != "" {
			wantErr(t, err, c.err)
			continue
		}
		if err != nil || g != c.want {
			t.Errorf("%s = %d (%v), want %d", s, g, err, c.want)
		}
	}
	// int to float rounds: 16777217 is not a float.
	if g, err := evalDouble(t, cast(ir.Double, cast(ir.Float, ic(16777217)))); err != nil || g != 16777216 {
		t.Errorf("(double)(float)16777217 = %v (%v)", g, err)
	}
	// 2^63 + 2^10 + 1 as unsigned long rounds up to 2^63 + 2^11 in double.
	if g, err := evalDouble(t, cast(ir.Double, tc(ir.ULong, -1<<63|1<<10|1))); err != nil || g != 1<<63+1<<11 {
		t.Errorf("(double)(2^63+2^10+1)ul = %v (%v)", g, err)
	}
	// double to float overflows to infinity.
	if g, err := evalDouble(t, cast(ir.Double, cast(ir.Float, dc(1e300)))); err != nil || !math.IsInf(g, 1) {
		t.Errorf("(float)1e300 = %v (%v)", g, err)
	}
}

func TestMath(t *testing.T) {
	call := func(fn string, t ir.Type, args ...ir.Expr) ir.Expr { return &ir.Call{Fn: fn, Args: args, T: t} }
	for _, c := range []struct {
		e    ir.Expr
		want float64
	}{
		{call("sqrt", ir.Double, dc(2)), math.Sqrt(2)},
		{cast(ir.Double, call("sqrtf", ir.Float, fc(2))), float64(float32(math.Sqrt(2)))},
		{call("fmax", ir.Double, dc(math.NaN()), dc(3)), 3},
		{call("fmin", ir.Double, dc(-1), dc(math.NaN())), -1},
		{call("fmin", ir.Double, dc(-1), dc(2)), -1},
		{call("pow", ir.Double, dc(2), dc(10)), 1024},
		{call("floor", ir.Double, dc(-1.5)), -2},
		{cast(ir.Double, call("expf", ir.Float, fc(1))), float64(float32(math.E))},
	} {
		g, err := evalDouble(t, c.e)
		if err != nil || g != c.want {
			t.Errorf("%s = %v (%v), want %v", ir.FormatExpr(c.e, nil, nil, nil), g, err, c.want)
		}
	}
}

// BenchmarkGemm100 runs 10^6 instances of S1.
func BenchmarkGemm100(b *testing.B) {
	p := gemm(b)
	params := []int64{100, 100, 100}
	m, err := NewMemory(p, params)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Run(p, params, m); err != nil {
			b.Fatal(err)
		}
	}
}
