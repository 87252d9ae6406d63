package assoc

import "fmt"

// Factored evaluation of a reduction: what rfactor computes, for tests
// and for the interpreter.
//
// A reduction x ← update(x, iteration) whose update matched f with the
// values y (Match.Y) computes, from the initial value x₀, the fold
// f(…f(f(x₀, y₁), y₂)…, yₙ). Factored, the iterations are cut into chunks,
// each chunk folds its values into a partial result (from f's identity,
// or from the chunk's first value when f has none), and the partial
// results are combined into x₀ in chunk order (in any order when f is
// commutative). Associativity makes the two equal.

// Combine returns f(x, y) under env (whose X and Y it sets), with the
// invariant named values of f in env.Vars.
func Combine(f Tuple, x, y []Value, env Env) ([]Value, error) {
	env.X, env.Y = x, y
	return EvalTuple(f, env)
}

// Lift returns the values Y of one iteration: m.Y evaluated with the
// iteration's named values.
func Lift(m *Match, vars map[string]Value, wrap bool) ([]Value, error) {
	env := Env{Vars: vars, Wrap: wrap}
	out := make([]Value, len(m.Y))
	for i, y := range m.Y {
		v, err := Eval(y, env)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Partial folds one chunk of values (one tuple per iteration, in order)
// with op: from op's identity when it has one, else from the chunk's
// first value. An empty chunk has no partial result without an identity
// (ok false).
func Partial(op Operator, ys [][]Value, env Env) (p []Value, ok bool, err error) {
	switch {
	case op.Identity != nil:
		p = make([]Value, len(op.Elems))
		for i, e := range op.Identity {
			if p[i], err = Eval(e, env); err != nil {
				return nil, false, fmt.Errorf("assoc: identity element %d: %w", i, err)
			}
		}
	case len(ys) == 0:
		return nil, false, nil
	default:
		p, ys = ys[0], ys[1:]
	}
	for _, y := range ys {
		if p, err = Combine(op.Tuple, p, y, env); err != nil {
			return nil, false, err
		}
	}
	return p, true, nil
}

// Fold computes the factored reduction from x0: each chunk's partial
// result, combined into x0 in the order given.
func Fold(op Operator, x0 []Value, env Env, chunks ...[][]Value) ([]Value, error) {
	x := x0
	for _, c := range chunks {
		p, ok, err := Partial(op, c, env)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if x, err = Combine(op.Tuple, x, p, env); err != nil {
			return nil, err
		}
	}
	return x, nil
}
