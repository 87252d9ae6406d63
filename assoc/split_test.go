package assoc

import (
	"math/rand/v2"
	"testing"
)

// splitConditions keeps the value and the definedness of every select it
// rewrites (q is evaluated only where p does not decide, as in C), and
// leaves conditions without || or && alone.
func TestSplitConditions(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, src := range []string{
		"select(a < x || a == x && b < y, b, y)",
		"select(a != 0 && 100 / a > x, x + 1, x - 1)",
		"select(a < 0 || 100 / a > 3, select(b < 0 && x < y, 1, 2), 3)",
		"select(!(a < 0 || b < 0), x, y)",
	} {
		e, err := ParseExpr(src, Int8)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := splitConditions(e)
		if !ok {
			t.Errorf("%s: unchanged", src)
		}
		s.Walk(func(x *Expr) bool {
			if x.Op == OpSelect && (x.Args[0].Op == OpOr || x.Args[0].Op == OpAnd) {
				t.Errorf("%s: %v keeps the condition %v", src, s, x.Args[0])
			}
			return true
		})
		for range 3000 {
			env := Env{X: []Value{Value(rng.IntN(256))}, Y: []Value{Value(rng.IntN(256))},
				Vars: map[string]Value{"a": Value(rng.IntN(256)), "b": Value(rng.IntN(256))}, Wrap: true}
			env.Vars["a"] = []Value{0, 1, 255, env.Vars["a"]}[rng.IntN(4)]
			v1, err1 := Eval(e, env)
			v2, err2 := Eval(s, env)
			if (err1 == nil) != (err2 == nil) || err1 == nil && v1 != v2 {
				t.Fatalf("%s = %v at %v: %v, %v against %v, %v", src, s, env, v1, err1, v2, err2)
			}
		}
	}
	e, _ := ParseExpr("select(a < x, b, select(a == x, min(b, y), y))", Int32)
	if _, ok := splitConditions(e); ok {
		t.Errorf("%v: changed", e)
	}
}
