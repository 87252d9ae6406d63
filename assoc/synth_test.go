package assoc

import (
	"math/rand/v2"
	"testing"
)

// Pairs the normal forms must find equal, and pairs they must not (each
// differs from the first at some point).
func TestEquivalent(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		typ   Type
		real  bool
		equal bool
	}{
		// The shapes: the update and f(x, y).
		{"x - a", "x + (0 - a)", Int32, false, true},
		{"x + a*x", "x * (a + 1)", Int32, false, true},
		{"x - a + b", "x + (b - a)", Uint8, false, true},
		{"x - x*a", "x * (1 - a)", Uint16, false, true},
		{"select(a < 0, x - a, x + a)", "x + select(a < 0, 0 - a, a)", Int32, false, true},
		{"select(c < 0, x*a, x + x*a)", "x * select(c < 0, a, a + 1)", Int32, false, true},
		{"min(x, a) + 0", "min(a, x)", Int8, false, true},
		// Modulo 2^8: 256*a is 0.
		{"x + a*256", "x", Int16, false, false},
		{"x*a*a - x", "x*(a - 1)*(a + 1)", Int64, false, true},
		// Floats: the ring only under Real.
		{"x - a", "x + (0.0 - a)", Float64, true, true},
		{"x + a*x", "x * (a + 1.0)", Float32, true, true},
		{"x + a*x", "x * (a + 1.0)", Float32, false, false},
		{"x - a", "x + (-0.0 - a)", Float32, false, true},
		{"(x + a) + b", "x + (a + b)", Float64, false, false},
		// Lattice laws of min and max (a total order).
		{"min(max(x, a), max(x, b))", "max(x, min(a, b))", Int32, false, true},
		{"max(x, min(x, a)) + 0", "x", Uint8, false, true},
		{"min(max(x, a), b)", "max(min(x, b), a)", Int32, false, false},
		{"min(max(x, a), max(x, b))", "max(x, min(a, b))", Float64, false, false},
		// A select is a multiple of its condition's indicator; a leaf
		// is a polynomial (Fibonacci's x1 ← x0, the ring's x0·y1 + x1·y0
		// − x1·y1 at y = {1, 1}).
		{"select(c < 0, x + a, x*a)", "x*a + (x + a - x*a)*select(c < 0, 1, 0)", Int32, false, true},
		{"x", "x*1 + a*1 - a*1", Int64, false, true},
		{"select(c < 0, x, a)", "a + select(c < 0, x, 0) - select(c < 0, a, 0)", Uint8, false, true},
		{"select(c < 0, x, a)", "select(c < 0, a, x)", Int32, false, false},
		// Truncation is a ring homomorphism: it moves into + − · and
		// selects, and through a conversion at least as wide.
		{"i32(u8(x - a))", "i32(u8(x + i32(u8(0 - a))))", Int32, false, true},
		{"i32(u8(x + a*256))", "i32(u8(x))", Int32, false, true},
		{"u8(select(c < 0, x*a, x + 300))", "u8(select(c < 0, u8(x)*u8(a), u8(x) + 44))", Int16, false, true},
		{"u8(select(c < 0, x*a, x + 300))", "select(c < 0, u8(x)*u8(a), u8(x) + 44)", Int16, false, false}, // not truncated
		{"i32(u16(x + a))", "i32(u8(x + a))", Int32, false, false},
		{"i32(u8(x / a))", "i32(u8(x) / u8(a))", Int32, false, false},
		// Differences.
		{"x - a", "a - x", Int32, false, false},
		{"select(a < 0, x - a, x)", "x + select(a < 0, a, 0)", Int32, false, false},
		{"min(x, a) + 1", "min(x + 1, a)", Int32, false, false},
		{"x * 2", "x + x + x", Uint8, false, false},
	} {
		a := mustUpdateExpr(t, c.a, c.typ)
		b := mustUpdateExpr(t, c.b, c.typ)
		if got := Equivalent(a, b, c.real); got != c.equal {
			t.Errorf("%s vs %s (%v, real %v): equivalent %v, want %v", c.a, c.b, c.typ, c.real, got, c.equal)
		}
	}
}

func mustUpdateExpr(t *testing.T, src string, ty Type) *Expr {
	t.Helper()
	e, err := ParseExpr(src, ty)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return e
}

// The normal forms are sound: random pairs of expressions they find equal
// agree at every point tried (integers wrap, the semantics of the normal
// forms), and they find the equal pairs built by ring identities.
func TestEquivalentRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 17))
	found, withCasts := 0, 0
	for range 4000 {
		ty := []Type{Int8, Uint8, Int32, Uint16}[rng.IntN(4)]
		a := randomRingExpr(rng, ty, 3)
		b := randomRingExpr(rng, ty, 3)
		if rng.IntN(3) == 0 {
			b = ringVariant(rng, a)
		}
		if !Equivalent(a, b, false) {
			continue
		}
		found++
		if a.Uses(OpCast) || b.Uses(OpCast) {
			withCasts++
		}
		for range 200 {
			env := Env{X: []Value{Sample(ty, rng)}, Vars: map[string]Value{"a": Sample(ty, rng), "b": Sample(ty, rng)}, Wrap: true}
			va, err1 := Eval(a, env)
			vb, err2 := Eval(b, env)
			if err1 == nil && err2 == nil && va != vb {
				t.Fatalf("%v and %v (%v) found equivalent, but differ at x = %d, a = %d, b = %d", a, b, ty, env.X[0], env.Vars["a"], env.Vars["b"])
			}
		}
	}
	if found < 500 || withCasts < 100 {
		t.Errorf("only %d random pairs found equivalent, %d with conversions", found, withCasts)
	}
}

func randomRingExpr(rng *rand.Rand, ty Type, depth int) *Expr {
	if depth == 0 || rng.IntN(4) == 0 {
		switch rng.IntN(4) {
		case 0:
			return X(0, ty)
		case 1:
			return Var("a", ty)
		case 2:
			return Var("b", ty)
		}
		return Const(IntValue(int64(rng.IntN(5)-2), ty), ty)
	}
	l, r := randomRingExpr(rng, ty, depth-1), randomRingExpr(rng, ty, depth-1)
	switch rng.IntN(7) {
	case 6:
		// A conversion from another integer type: truncations move
		// into the ring operations, extensions stay atoms.
		u := []Type{Int8, Uint8, Int16, Uint16, Int32, Uint32}[rng.IntN(6)]
		return Cast(randomRingExpr(rng, u, depth-1), ty)
	case 0:
		return Apply(OpAdd, l, r)
	case 1:
		return Apply(OpSub, l, r)
	case 2:
		return Apply(OpMul, l, r)
	case 3:
		return Apply(OpMin, l, r)
	case 4:
		return Apply(OpSelect, Apply(OpLT, Var("a", ty), Const(0, ty)), l, r)
	}
	return Apply(OpNeg, l)
}

// ringVariant rewrites e by a ring identity: distributing a product,
// moving a term across a subtraction, or lifting a select.
func ringVariant(rng *rand.Rand, e *Expr) *Expr {
	ty := e.Type
	a := Var("a", ty)
	switch rng.IntN(4) {
	case 3: // e = ty(int64(e)), e truncated from a wider computation
		return Cast(Cast(e, Int64), ty)
	case 0: // e = (e + a) - a
		return Apply(OpSub, Apply(OpAdd, e, a), a)
	case 1: // e*(a + 1) = e*a + e
		return Apply(OpSub, Apply(OpAdd, Apply(OpMul, e, a), e), Apply(OpMul, e, a))
	}
	// select(c, e + a, e) = e + select(c, a, 0)
	c := Apply(OpLT, Var("b", ty), Const(0, ty))
	return Apply(OpSub, Apply(OpSelect, c, Apply(OpAdd, e, a), e), Apply(OpSelect, c, a, Const(0, ty)))
}

// The closure test refutes what no associative operator decomposes, and
// never an update that is f(x, y) for an associative f.
func TestClosureProof(t *testing.T) {
	for _, c := range []struct {
		src  string
		typ  Type
		want bool
	}{
		{"f() = in(r) - f()", Int32, true},
		{"f() = in(r) - f()", Uint8, true},
		{"f() = 2*f() + in(r)", Int8, true},
		{"f() = select(in(r) < 0, 0, f() + in(r))", Int32, true},
		{"f() = f()*f() + in(r)", Int16, true},
		// Associative: x + y with y = -in, x * y, max, x + y + x*y,
		// the last value (y).
		{"f() = f() - in(r)", Int32, false},
		{"f() = f() * in(r)", Uint8, false},
		{"f() = max(f(), in(r))", Int64, false},
		{"f() = f() + in(r) + f()*in(r)", Int32, false},
		{"f() = in(r)", Int32, false},
		{"f() = f() ^ in(r)", Uint16, false},
	} {
		tp, err := ParseUpdate(c.src, c.typ)
		if err != nil {
			t.Fatal(err)
		}
		r := newClosureRecognizer(tp)
		proof, got := r.closureProof(0)
		if got != c.want {
			t.Errorf("%s (%v): closure proof %v (%s), want %v", c.src, c.typ, got, proof, c.want)
		}
	}
}

// newClosureRecognizer sets up what closureProof reads.
func newClosureRecognizer(tp Tuple) *recognizer {
	r := &recognizer{n: 1, types: []Type{tp.Elems[0].Type}, invariant: func(string) bool { return false }}
	c := Canon(tp.Elems[0])
	r.update.Elems = []*Expr{c}
	r.subj = []*snode{subject(c, r.invariant)}
	return r
}

// Random instances of the table's 1-element entries with an identity, with
// y an expression of the program's values substituted and the result
// expanded by ring identities so that y no longer appears literally.
// Whatever Recognize answers with synthesis must reproduce the update
// (soundness); most must be recognized (y is found from the identity).
func TestSynthesizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	tried, recognized := 0, 0
	for _, ty := range []Type{Int32, Uint8, Int16} {
		tb, err := Embedded(ty)
		if err != nil {
			t.Fatal(err)
		}
		var cands []*Entry
		for i := range tb.Entries {
			en := &tb.Entries[i]
			if len(en.Elems) == 1 && en.Identity != nil && !en.Elems[0].Uses(OpK) && !en.Identity[0].Uses(OpK) {
				cands = append(cands, en)
			}
		}
		for range 50 {
			en := cands[rng.IntN(len(cands))]
			a, b := Var("a(r)", ty), Var("b(r)", ty)
			var y *Expr
			switch rng.IntN(3) {
			case 0:
				y = Apply(OpSub, a, b)
			case 1:
				y = Apply(OpAdd, Apply(OpMul, a, b), Const(1, ty))
			default:
				y = Apply(OpSub, Const(0, ty), a)
			}
			update := substY(en.Elems[0], []*Expr{y})
			// Expand: x*(a - b) is written x*a - x*b by Canon's peers, here
			// by the exact ring rewrite e = (e + a) - a on the whole.
			if rng.IntN(2) == 0 {
				update = Apply(OpSub, Apply(OpAdd, update, a), a)
			}
			up := Tuple{Elems: []*Expr{update}}
			tried++
			m, err := Recognize(up, MatchOptions{Synthesize: true})
			if err != nil {
				continue
			}
			recognized++
			if msg := reproduced(rng, up, m, MatchOptions{}); msg != "" {
				t.Fatalf("%v: %v recognized as %v with y = %v: %s", ty, update, m.Tuple, Tuple{Elems: m.Y}, msg)
			}
		}
	}
	if recognized < tried*3/4 {
		t.Errorf("%d of %d random instances recognized", recognized, tried)
	}
	t.Logf("%d of %d random instances recognized", recognized, tried)
}

// laneEval, the closure test's evaluation of an update for every x at
// once, agrees with Eval at each x: the same values, and no map where
// some x has no value (a division by zero in the branch C evaluates).
func TestLaneEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	var toNamed func(e *Expr) *Expr
	toNamed = func(e *Expr) *Expr {
		switch e.Op {
		case OpX:
			return X(0, e.Type)
		case OpY:
			return Var([]string{"a", "b"}[e.Index], e.Type)
		case OpK:
			return Var("c", e.Type)
		}
		c := *e
		c.Args = nil
		for _, a := range e.Args {
			c.Args = append(c.Args, toNamed(a))
		}
		return &c
	}
	undefined := 0
	for _, ty := range []Type{Int8, Uint8, Bool} {
		size := 256
		if ty == Bool {
			size = 2
		}
		l := &laneEval{size: size}
		for range 400 {
			e := toNamed(randExpr(rng, ty, 1+rng.IntN(8)))
			vars := map[string]Value{"a": Sample(ty, rng), "b": Sample(ty, rng), "c": []Value{0, 1, Sample(ty, rng)}[rng.IntN(3)]}
			m := make([]byte, size)
			ok := l.mapOf(e, 0, vars, m)
			want := true
			for x := range size {
				v, err := Eval(e, Env{X: []Value{Value(x)}, Vars: vars, Wrap: true})
				if err != nil {
					want = false
					break
				}
				if ok && byte(v) != m[x] {
					t.Fatalf("%v at x=%d %v: lanes %d, Eval %d", e, x, vars, m[x], v)
				}
			}
			if ok != want {
				t.Fatalf("%v %v: lanes defined %v, Eval %v", e, vars, ok, want)
			}
			if !want {
				undefined++
			}
		}
	}
	if undefined == 0 {
		t.Errorf("no tree without a value at some x: the test does not reach the definedness")
	}
}
