package assoc

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFactorDifferential runs every recognized corpus reduction on random
// inputs twice: sequentially, by its update, and factored, by the
// recognized operator (Fold) over random chunkings of 1 to 8 chunks, the
// partial results starting from the identity or, without one (and once
// more in any case), from the chunk's first value; chunks combine in
// order, or shuffled when the operator is commutative. The results must
// be the same value (exactly: floats in the real mode are drawn among
// small integers, whose sums and products stay exact, as fabs is; with
// exp or log, log-sum-exp in its two forms, to within the rounding of
// float64 or float32, realTolerance).
func TestFactorDifferential(t *testing.T) {
	cases := loadCorpus(t)
	tables := corpusTables()
	rng := rand.New(rand.NewPCG(11, 12))
	trials := 200
	if testing.Short() {
		trials = 40
	}
	for _, c := range cases {
		if c.reject != "" {
			continue
		}
		opts := c.opts
		opts.Tables = tables
		m, err := Recognize(c.update, opts)
		if err != nil {
			continue // a miss: TestCorpus counts them
		}
		names := varTypes(c.update)
		defined := 0
		for range trials {
			if differential(t, c, m, names, rng) {
				defined++
			}
		}
		if defined < trials/4 {
			t.Errorf("%s: only %d of %d trials had a value", c.name, defined, trials)
		}
	}
}

// varTypes returns the named values of tp and their types.
func varTypes(tp Tuple) map[string]Type {
	out := map[string]Type{}
	for _, e := range tp.Elems {
		e.Walk(func(x *Expr) bool {
			if x.Op == OpVar {
				out[x.Name] = x.Type
			}
			return true
		})
	}
	return out
}

// draw returns a random value of t for the differential test: small
// values where arithmetic could overflow or round, edge values otherwise.
func draw(rng *rand.Rand, t Type, c *corpusCase) Value {
	switch {
	case t.Float() && c.opts.Real:
		return FloatValue(float64(rng.IntN(5)-2), t)
	case (t == Int32 || t == Int64) && !c.opts.Wrap:
		return IntValue(int64(rng.IntN(7)-3), t)
	}
	return Sample(t, rng)
}

// differential runs one trial and reports whether the sequential
// reduction had a value (an int32 sum may overflow).
func differential(t *testing.T, c *corpusCase, m *Match, names map[string]Type, rng *rand.Rand) bool {
	t.Helper()
	n := len(c.update.Elems)
	iters := rng.IntN(24)
	if c.opts.Real {
		iters = rng.IntN(9) // products of matrices stay exact in float32
	}
	invariant := map[string]Value{}
	for name, ty := range names {
		if slices.Contains(c.invariants, name) {
			invariant[name] = draw(rng, ty, c)
		}
	}
	x0 := make([]Value, n)
	for i, ty := range c.types {
		x0[i] = draw(rng, ty, c)
	}
	// Sequentially.
	x := slices.Clone(x0)
	ys := make([][]Value, iters)
	for it := range iters {
		vars := map[string]Value{}
		for name, ty := range names {
			if v, ok := invariant[name]; ok {
				vars[name] = v
			} else {
				vars[name] = draw(rng, ty, c)
			}
		}
		next, err := EvalTuple(c.update, Env{X: x, Vars: vars, Wrap: c.opts.Wrap})
		if err != nil {
			return false
		}
		x = next
		if ys[it], err = Lift(m, vars, c.opts.Wrap); err != nil {
			t.Fatalf("%s: lifting iteration %d: %v", c.name, it, err)
		}
	}
	// Factored.
	env := Env{Vars: invariant, Wrap: c.opts.Wrap}
	ops := []Operator{m.Operator}
	if m.Identity != nil {
		noID := m.Operator
		noID.Identity = nil
		ops = append(ops, noID)
	}
	for _, op := range ops {
		chunks := chunk(rng, ys, 1+rng.IntN(8))
		if op.Commutative {
			rng.Shuffle(len(chunks), func(i, j int) { chunks[i], chunks[j] = chunks[j], chunks[i] })
		}
		got, err := Fold(op, x0, env, chunks...)
		if errors.Is(err, ErrOverflow) {
			// Regrouped signed arithmetic may overflow where the
			// sequential order did not (the prover's caveat: a product
			// of matrices whose partial products are large): factored
			// code computes it wrapping, which gives the sequential
			// value for the ring operations.
			wrapped := env
			wrapped.Wrap = true
			got, err = Fold(op, x0, wrapped, chunks...)
		}
		if err != nil {
			t.Fatalf("%s: factored: %v", c.name, err)
		}
		for i := range n {
			same := SameValue(got[i], x[i], c.types[i])
			if c.opts.Real && c.types[i].Float() {
				same = got[i].Float(c.types[i]) == x[i].Float(c.types[i]) // the reals have one zero
				if !same && inexact(c.update) {
					// exp and log of the draws round: equal as reals but for
					// the rounding (log-sum-exp regrouped), which is
					// relative to the terms summed, not to a sum that
					// cancels to about zero (negative weights): the
					// tuple's largest magnitude bounds those terms.
					same = sameValue(got[i], x[i], c.types[i], true)
					if !same {
						tol := realTolerance
						if c.types[i] == Float32 {
							tol = realTolerance32
						}
						scale := 0.0
						for k := range n {
							for _, v := range []Value{x0[k], x[k], got[k]} {
								if c.types[k].Float() {
									scale = max(scale, math.Abs(v.Float(c.types[k])))
								}
							}
						}
						same = math.Abs(got[i].Float(c.types[i])-x[i].Float(c.types[i])) <= tol*scale*float64(iters+1)
					}
				}
			}
			if !same {
				t.Fatalf("%s: factored over %d chunks (identity %v) gives %s, sequential %s; x0 %s, ys %v",
					c.name, len(chunks), op.Identity != nil, values(c.update, got), values(c.update, x), values(c.update, x0), ys)
			}
		}
	}
	return true
}

// inexact reports whether tp applies exp or log, which round on the
// small integers the reals are drawn among.
func inexact(tp Tuple) bool {
	return slices.ContainsFunc(tp.Elems, func(e *Expr) bool { return e.Uses(OpExp) || e.Uses(OpLog) })
}

// chunk cuts ys into k consecutive chunks at random points (some may be
// empty).
func chunk(rng *rand.Rand, ys [][]Value, k int) [][][]Value {
	cuts := make([]int, k-1)
	for i := range cuts {
		cuts[i] = rng.IntN(len(ys) + 1)
	}
	slices.Sort(cuts)
	out := make([][][]Value, 0, k)
	prev := 0
	for _, c := range cuts {
		out = append(out, ys[prev:c])
		prev = c
	}
	return append(out, ys[prev:])
}
