package assoc

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Random tests of operators by evaluation.
//
// The generator filters its candidates with them before Z3 (gen), and the
// matcher checks table entries, refutes updates and filters synthesized
// inputs with the same draws (recognize.go, synth.go). A false answer is a
// counterexample; a true one is evidence only: what the tables claim is
// proved by Z3.

// maxDraws bounds the draws of RandomAssociative per requested sample,
// so that an operator undefined on most inputs still ends.
const maxDraws = 4

// minValidShare is the least share of the requested samples on which an
// operator must have a value for RandomAssociative: one undefined almost
// everywhere (x / (y % (y % k))) is associative only vacuously and no use
// as a reduction.
const minValidShare = 10

// RandomAssociative reports whether tp passed samples random tests of
// f(f(a, b), c) = f(a, f(b, c)): a, b, c and k are drawn from rng, half
// of the time among each type's edge values (0, ±1, ±2, the least and
// greatest values and their neighbours; ±0, ±inf, NaN, the extreme and
// denormal magnitudes for floats), otherwise small values or uniform
// bits. Signed int32 and int64 arithmetic is assumed not to overflow:
// a draw where either side has no value (overflow, division by zero) is
// skipped, up to maxDraws·samples draws, and an operator with a value on
// fewer than samples/minValidShare draws is rejected. Results compare by
// [SameValue] (all NaNs alike). A false answer is a counterexample (or
// an operator with almost no values); a true one is evidence only.
func RandomAssociative(tp Tuple, rng *rand.Rand, samples int) bool {
	return randomAssociative(tp, rng, samples, false)
}

func randomAssociative(tp Tuple, rng *rand.Rand, samples int, wrap bool) bool {
	n := len(tp.Elems)
	kTypes := tp.ConstTypes()
	buf := make([]Value, 7*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, bc, left, right := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:6*n], buf[6*n:]
	k := make([]Value, len(kTypes))
	env := Env{K: k, Wrap: wrap}
	f := func(x, y, out []Value) error {
		env.X, env.Y = x, y
		return env.EvalTupleInto(tp, out)
	}
	valid := 0
	for range maxDraws * samples {
		if valid >= samples {
			break
		}
		for i, e := range tp.Elems {
			a[i], b[i], c[i] = Sample(e.Type, rng), Sample(e.Type, rng), Sample(e.Type, rng)
		}
		for i, t := range kTypes {
			k[i] = Sample(t, rng)
		}
		if f(a, b, ab) != nil || f(b, c, bc) != nil || f(ab, c, left) != nil || f(a, bc, right) != nil {
			continue
		}
		valid++
		for i, e := range tp.Elems {
			if !SameValue(left[i], right[i], e.Type) {
				return false
			}
		}
	}
	return valid*minValidShare >= samples
}

// RandomReadsBoth reports whether random samples (drawn as by
// [RandomAssociative]) show that tp's value depends on x and on y:
// f(a, b) differs from f(a', b) for some draws, and from f(a, b') for
// some. Trees that read both syntactically may still ignore one
// (x % y / y + min(x, k) is min(x, k)); such an operator is a projection
// in disguise, associative and useless.
func RandomReadsBoth(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	kTypes := tp.ConstTypes()
	buf := make([]Value, 6*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, cb, ac := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:]
	k := make([]Value, len(kTypes))
	env := Env{K: k}
	f := func(x, y, out []Value) error {
		env.X, env.Y = x, y
		return env.EvalTupleInto(tp, out)
	}
	readsX, readsY := false, false
	for range maxDraws * samples {
		for i, e := range tp.Elems {
			a[i], b[i], c[i] = Sample(e.Type, rng), Sample(e.Type, rng), Sample(e.Type, rng)
		}
		for i, t := range kTypes {
			k[i] = Sample(t, rng)
		}
		if f(a, b, ab) != nil {
			continue
		}
		if !readsX && f(c, b, cb) == nil && !SameValues(tp, ab, cb) {
			readsX = true
		}
		if !readsY && f(a, c, ac) == nil && !SameValues(tp, ab, ac) {
			readsY = true
		}
		if readsX && readsY {
			return true
		}
	}
	return false
}

// SameValues reports whether u and v, values of tp's elements, are the
// same element by element ([SameValue]: all NaNs alike).
func SameValues(tp Tuple, u, v []Value) bool {
	for i, e := range tp.Elems {
		if !SameValue(u[i], v[i], e.Type) {
			return false
		}
	}
	return true
}

// ConstTypes returns the type of each k_i that tp reads (by Index): the
// constants an evaluation of tp needs in Env.K.
func (tp Tuple) ConstTypes() []Type {
	var types []Type
	for _, e := range tp.Elems {
		e.Walk(func(x *Expr) bool {
			if x.Op == OpK {
				for len(types) <= x.Index {
					types = append(types, x.Type)
				}
				types[x.Index] = x.Type
			}
			return true
		})
	}
	return types
}

// EdgeValues returns the values of t that random testing favours: 0,
// ±1, ±2, the least and greatest values and their neighbours for
// integers; ±0, ±1, ±2, 0.5, 3, ±inf, NaN, the greatest finite and the
// least denormal magnitudes for floats; false and true for Bool.
func EdgeValues(t Type) []Value {
	return slices.Clone(edgeValues[t])
}

var edgeValues = func() (out [numTypes][]Value) {
	for t := range numTypes {
		out[t] = makeEdgeValues(t)
	}
	return out
}()

func makeEdgeValues(t Type) []Value {
	switch {
	case t == Bool:
		return []Value{0, 1}
	case t.Float():
		fs := []float64{0, math.Copysign(0, -1), 1, -1, 2, -2, 0.5, 3, math.Inf(1), math.Inf(-1), math.NaN()}
		if t == Float32 {
			fs = append(fs, math.MaxFloat32, -math.MaxFloat32, math.SmallestNonzeroFloat32)
		} else {
			fs = append(fs, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64)
		}
		out := make([]Value, len(fs))
		for i, f := range fs {
			out[i] = FloatValue(f, t)
		}
		out[len(out)-4] = NaN(t)
		return out
	}
	lo, hi := minValue(t), maxValue(t)
	return []Value{0, 1, IntValue(-1, t), 2, IntValue(-2, t), lo, hi, (lo + 1) & mask(t), (hi - 1) & mask(t)}
}

// Sample draws a value of t: an edge value ([EdgeValues]) half of the
// time, a small value (−8 … 8, or a multiple of 1/4 for floats) a
// quarter, uniform bits otherwise.
func Sample(t Type, rng *rand.Rand) Value {
	switch r := rng.IntN(4); {
	case r < 2:
		edges := edgeValues[t]
		return edges[rng.IntN(len(edges))]
	case r == 2:
		i := rng.Int64N(17) - 8
		if t.Float() {
			return FloatValue(float64(rng.Int64N(65)-32)/4, t)
		}
		if t == Bool {
			return Value(i & 1)
		}
		return IntValue(i, t)
	}
	return Value(rng.Uint64()) & mask(t)
}

// RandomNotCommutative reports whether one of samples random points
// (drawn as by [RandomAssociative]) shows f(a, b) ≠ f(b, a), both
// defined: then tp is not commutative, without Z3.
func RandomNotCommutative(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	kTypes := tp.ConstTypes()
	k := make([]Value, len(kTypes))
	a, b, ab, ba := make([]Value, n), make([]Value, n), make([]Value, n), make([]Value, n)
	for range samples {
		for i, t := range kTypes {
			k[i] = Sample(t, rng)
		}
		for i, e := range tp.Elems {
			a[i], b[i] = Sample(e.Type, rng), Sample(e.Type, rng)
		}
		e1, e2 := Env{X: a, Y: b, K: k}, Env{X: b, Y: a, K: k}
		if e1.EvalTupleInto(tp, ab) != nil || e2.EvalTupleInto(tp, ba) != nil {
			continue
		}
		if !SameValues(tp, ab, ba) {
			return true
		}
	}
	return false
}

// Random tests over the reals.
//
// A float operator that is associative only over the reals (x + y, with
// rounding) fails the IEEE tests. RealRandomAssociative evaluates it in
// float64 as an approximation of the reals on points where that is
// nearly exact: small integers and quarters, and moderate values, with no
// NaN, infinity or signed zero (the Real mode has none). Results compare
// with a relative tolerance (realTolerance); a draw where a division by
// zero or a non-finite value occurs is skipped. Like the other random
// tests it is only a filter: Z3 proves what passes.

// realTolerance is the relative difference below which two float64
// results count as the same real number.
const realTolerance = 1e-9

// RealRandomAssociative is RandomAssociative over the reals (above).
func RealRandomAssociative(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	buf := make([]float64, 7*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, bc, left, right := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:6*n], buf[6*n:]
	var k float64
	f := func(x, y, out []float64) bool { return realApply(tp, x, y, k, out) }
	valid := 0
	for range maxDraws * samples {
		if valid >= samples {
			break
		}
		for i := range n {
			a[i], b[i], c[i] = realSample(rng), realSample(rng), realSample(rng)
		}
		k = realSample(rng)
		if !f(a, b, ab) || !f(b, c, bc) || !f(ab, c, left) || !f(a, bc, right) {
			continue
		}
		valid++
		for i := range n {
			if d := math.Abs(left[i] - right[i]); d > realTolerance*max(1, math.Abs(left[i]), math.Abs(right[i])) {
				return false
			}
		}
	}
	return valid*minValidShare >= samples
}

// RealReadsBoth is RandomReadsBoth over the reals: x + y - y reads y in
// IEEE arithmetic (it rounds, and y may be infinite) but is x over the
// reals, where a RealOnly operator is used.
func RealReadsBoth(tp Tuple, rng *rand.Rand, samples int) bool {
	n := len(tp.Elems)
	buf := make([]float64, 6*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, cb, ac := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:]
	var k float64
	f := func(x, y, out []float64) bool { return realApply(tp, x, y, k, out) }
	differ := func(u, v []float64) bool {
		for i := range u {
			if math.Abs(u[i]-v[i]) > realTolerance*max(1, math.Abs(u[i]), math.Abs(v[i])) {
				return true
			}
		}
		return false
	}
	readsX, readsY := false, false
	for range maxDraws * samples {
		for i := range n {
			a[i], b[i], c[i] = realSample(rng), realSample(rng), realSample(rng)
		}
		k = realSample(rng)
		if !f(a, b, ab) {
			continue
		}
		readsX = readsX || f(c, b, cb) && differ(ab, cb)
		readsY = readsY || f(a, c, ac) && differ(ab, ac)
		if readsX && readsY {
			return true
		}
	}
	return false
}

// realSample draws a small integer or quarter half of the time, else a
// value in ±1000.
func realSample(rng *rand.Rand) float64 {
	if rng.IntN(2) == 0 {
		return float64(rng.Int64N(65)-32) / 4
	}
	return math.Round((rng.Float64()*2000-1000)*64) / 64
}

// realEval evaluates e with float types read as reals (approximated in
// float64); ok is false where the value is undefined or not finite.
func realEval(e *Expr, x, y []float64, k float64) (float64, bool) {
	switch e.Op {
	case OpX:
		return x[e.Index], true
	case OpY:
		return y[e.Index], true
	case OpK:
		return k, true
	case OpConst:
		v := e.Value.Float(e.Type)
		if e.Type == Bool {
			v = float64(e.Value & 1)
		}
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	case OpSelect:
		c, ok := realEval(e.Args[0], x, y, k)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return realEval(e.Args[1], x, y, k)
		}
		return realEval(e.Args[2], x, y, k)
	case OpAnd, OpOr:
		a, ok := realEval(e.Args[0], x, y, k)
		if !ok {
			return 0, false
		}
		if (a != 0) == (e.Op == OpOr) {
			return float64(BoolValue(e.Op == OpOr)), true
		}
		b, ok := realEval(e.Args[1], x, y, k)
		return float64(BoolValue(b != 0)), ok
	case OpNot:
		a, ok := realEval(e.Args[0], x, y, k)
		return float64(BoolValue(a == 0)), ok
	case OpNeg:
		a, ok := realEval(e.Args[0], x, y, k)
		return -a, ok
	}
	if len(e.Args) != 2 {
		return 0, false
	}
	a, ok := realEval(e.Args[0], x, y, k)
	if !ok {
		return 0, false
	}
	b, ok := realEval(e.Args[1], x, y, k)
	if !ok {
		return 0, false
	}
	var r float64
	switch e.Op {
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv:
		if b == 0 {
			return 0, false
		}
		r = a / b
	case OpMin:
		r = min(a, b)
	case OpMax:
		r = max(a, b)
	case OpLT:
		r = float64(BoolValue(a < b))
	case OpLE:
		r = float64(BoolValue(a <= b))
	case OpEQ:
		r = float64(BoolValue(a == b))
	case OpNE:
		r = float64(BoolValue(a != b))
	default:
		return 0, false
	}
	return r, !math.IsInf(r, 0) && !math.IsNaN(r)
}

// realApply evaluates every element of tp over the reals at the partial
// results x and y with input k, into out; false when one is undefined.
func realApply(tp Tuple, x, y []float64, k float64, out []float64) bool {
	for i, e := range tp.Elems {
		v, ok := realEval(e, x, y, k)
		if !ok {
			return false
		}
		out[i] = v
	}
	return true
}
