package assoc

import (
	"math/rand/v2"
	"testing"
)

// TestCanonForms lists inputs and the canonical form Canon writes.
func TestCanonForms(t *testing.T) {
	tests := []struct {
		t        Type
		in, want string
	}{
		{Int32, "y + x", "x + y"},
		{Int32, "max(min(y, k), x)", "max(x, min(y, k))"},         // the paper's 7th operator
		{Int32, "max(min(k - x, y), x)", "max(x, min(k - x, y))"}, // 9th: x as high as possible
		{Int32, "max(min(x, k), y)", "max(min(x, k), y)"},
		{Int32, "k + (y + x)", "x + y + k"}, // flattened, sorted, left-deep
		{Int32, "3 + x + 4", "x + 7"},       // literals fold
		{Int32, "x - 5", "x + -5"},
		{Int32, "x - -2147483648", "x - -2147483648"}, // -INT_MIN does not exist
		{Uint32, "x - 5", "x - 5"},
		{Int32, "-x", "0 - x"},
		{Int32, "-(-x)", "x"},
		{Int32, "0 - (x - y)", "y - x"},
		{Int32, "x - (0 - y)", "x + y"},
		{Int32, "x - x", "0"},
		{Int32, "x * 1 + 0", "x"},
		{Int32, "x * 0", "0"},
		{Int32, "x / x", "1"},
		{Int32, "x % x", "0"},
		{Int32, "max(x, x)", "x"},
		{Int32, "min(x, max(x, y))", "x"}, // absorption
		{Int32, "min(x, 2147483647)", "x"},
		{Int32, "max(y, -2147483648, x)", ""}, // parse error: max takes 2
		{Int32, "x ^ y ^ x", "y"},
		{Int32, "x & x | 0", "x"},
		{Int32, "x < y ? x : y", "min(x, y)"},
		{Int32, "x > y ? x : y", "max(x, y)"},
		{Int32, "x == y ? x : y", "y"},
		{Int32, "!(x < y) ? x : y", "max(x, y)"}, // select(!c, a, b) swaps
		{Int32, "select(true, x, y)", "x"},
		{Int32, "select(x < y, k, k)", "k"},
		{Int32, "!(x < y)", "y <= x"},
		{Int32, "!(x == y)", "x != y"},
		{Int32, "y == x", "x == y"},
		{Int32, "x < x", "false"},
		{Int32, "x <= x", "true"},
		{Bool, "x & y", "x && y"},
		{Bool, "y ^ x", "x != y"},
		{Bool, "!!x", "x"},
		{Bool, "x && y && x", "x && y"},
		{Bool, "x ? true : false", "x"},
		{Float64, "y + x", "x + y"},
		{Float64, "x + 0.0", "x + 0.0"}, // -0 + 0 is +0
		{Float64, "x + -0.0", "x"},
		{Float64, "x - 0.0", "x"},
		{Float64, "x - x", "x - x"}, // inf - inf is NaN
		{Float64, "x * 1", "x"},
		{Float64, "-x", "-0.0 - x"},
		{Float64, "-(-x)", "x"},
		{Float64, "x <= x", "x <= x"}, // NaN
		{Float64, "x < x", "false"},
		{Float64, "(x + y) + k", "x + y + k"},
		{Float64, "x + (y + k)", "x + (y + k)"}, // no reassociation
		{Float64, "min(min(y, k), x)", "min(min(x, y), k)"},
		{Float64, "x < y ? x : y", "select(x < y, x, y)"}, // NaN
		{Float64, "!(x < y)", "!(x < y)"},
		{Float64, "1.5 * 2", "3.0"},
	}
	for _, tc := range tests {
		e, err := ParseExpr(tc.in, tc.t)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: parsed", tc.in)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got := Format(Canon(e)); got != tc.want {
			t.Errorf("Canon(%s) on %v = %s, want %s", tc.in, tc.t, got, tc.want)
		}
	}
}

// randExpr returns a random well-typed tree of type t with about size
// leaves, over x0, x1, y0, y1, k and the edge values of t.
func randExpr(rng *rand.Rand, t Type, size int) *Expr {
	if size <= 1 {
		switch r := rng.IntN(6); {
		case r < 2:
			return X(rng.IntN(2), t)
		case r < 4:
			return Y(rng.IntN(2), t)
		case r == 4:
			return K(t)
		}
		edges := EdgeValues(t)
		return Const(edges[rng.IntN(len(edges))], t)
	}
	var ops []Op
	switch {
	case t == Bool:
		ops = []Op{OpNot, OpAnd, OpOr, OpBitAnd, OpBitOr, OpBitXor, OpMin, OpMax, OpLT, OpLE, OpEQ, OpNE, OpSelect}
	case t.Integer():
		ops = []Op{OpNeg, OpAdd, OpSub, OpMul, OpDiv, OpMod, OpMin, OpMax, OpBitAnd, OpBitOr, OpBitXor, OpSelect}
	default:
		ops = []Op{OpNeg, OpAdd, OpSub, OpMul, OpDiv, OpMin, OpMax, OpSelect}
	}
	op := ops[rng.IntN(len(ops))]
	l := 1 + rng.IntN(size-1)
	switch {
	case op == OpNeg || op == OpNot:
		return Apply(op, randExpr(rng, t, size-1))
	case op == OpSelect:
		c := randCond(rng, t, l)
		return Apply(OpSelect, c, randExpr(rng, t, (size-l+1)/2), randExpr(rng, t, (size-l)/2))
	}
	return &Expr{Op: op, Type: t, Args: []*Expr{randExpr(rng, t, l), randExpr(rng, t, size-l)}}
}

// randCond returns a random condition over values of type t.
func randCond(rng *rand.Rand, t Type, size int) *Expr {
	if size < 2 {
		size = 2
	}
	switch rng.IntN(6) {
	case 0:
		return Apply(OpNot, randCond(rng, t, size))
	case 1:
		l := 1 + rng.IntN(size-1)
		return Apply([]Op{OpAnd, OpOr}[rng.IntN(2)], randCond(rng, t, l), randCond(rng, t, size-l))
	}
	l := 1 + rng.IntN(size-1)
	op := []Op{OpLT, OpLE, OpEQ, OpNE}[rng.IntN(4)]
	return Apply(op, randExpr(rng, t, l), randExpr(rng, t, size-l))
}

func randEnv(rng *rand.Rand, t Type, wrap bool) Env {
	return Env{
		X:    []Value{Sample(t, rng), Sample(t, rng)},
		Y:    []Value{Sample(t, rng), Sample(t, rng)},
		K:    []Value{Sample(t, rng)},
		Wrap: wrap,
	}
}

// TestCanonRandom checks on random trees of every type that Canon is
// idempotent and keeps the value: with Wrap, wherever the original has a
// value the canonical form has the same; without, wherever both have one.
func TestCanonRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	trees := 3000
	if testing.Short() {
		trees = 300
	}
	for _, ty := range Types() {
		for i := range trees {
			e := randExpr(rng, ty, 1+rng.IntN(9))
			if ty.Integer() && i%3 == 0 {
				// A conversion from another integer type (or its own)
				// inside: u8(e) + x, x * i32(i8(e)).
				from := Types()[Int8+Type(rng.IntN(8))]
				inner := Cast(randExpr(rng, from, 1+rng.IntN(5)), ty)
				if rng.IntN(2) == 0 {
					inner = Cast(Cast(inner, from), ty)
				}
				e = Apply([]Op{OpAdd, OpMul, OpMin, OpSub}[rng.IntN(4)], e, inner)
			}
			c := Canon(e)
			if cc := Canon(c); !cc.Equal(c) {
				t.Fatalf("%v: Canon not idempotent:\n  e        = %v\n  Canon    = %v\n  Canon²   = %v", ty, e, c, cc)
			}
			for range 20 {
				for _, wrap := range []bool{true, false} {
					env := randEnv(rng, ty, wrap)
					want, err := Eval(e, env)
					if err != nil {
						continue
					}
					got, err2 := Eval(c, env)
					if err2 != nil && !wrap {
						continue
					}
					if err2 != nil || !SameValue(got, want, c.Type) {
						t.Fatalf("%v (wrap %v): Canon changed the value at x=%#x y=%#x k=%#x:\n  %v = %#x\n  %v = %#x (%v)",
							ty, wrap, env.X, env.Y, env.K, e, want, c, got, err2)
					}
				}
			}
		}
	}
}

// TestCompareTotal checks that Compare is antisymmetric and agrees
// with Equal.
func TestCompareTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 2000 {
		a, b := randExpr(rng, Int32, 1+rng.IntN(4)), randExpr(rng, Int32, 1+rng.IntN(4))
		if ab, ba := Compare(a, b), Compare(b, a); sign(ab) != -sign(ba) || (ab == 0) != a.Equal(b) {
			t.Fatalf("Compare(%v, %v) = %d, reversed %d, Equal %v", a, b, ab, ba, a.Equal(b))
		}
	}
}

func sign(i int) int {
	switch {
	case i < 0:
		return -1
	case i > 0:
		return 1
	}
	return 0
}
