package assoc

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Enumeration of candidate operators (the paper's "Generating Elementary
// Operators").
//
// Enumerate builds expression trees bottom-up, by number of leaves, from
// the leaves x_i, y_i (i below the tuple size) and the one generic
// constant k, all of the type t, with the inner nodes of an operation
// set (Ops) valid for t:
//
//   - Bool: && || ! < <= == != select (& | ^ min max are && || != && ||
//     in canonical form);
//   - integers: + − * min max & | ^ select by default ([DefaultOps]; the
//     paper's Halide set with the bitwise operations that C reductions
//     use), and / % in [AllOps]; the conditions of select are
//     comparisons < <= == != of two trees;
//   - floats: + − * min max select by default, and / in AllOps;
//     conditions as for integers.
//
// Negation is no node (canonically 0 − a, which k − a covers); literals
// are no leaves (k stands for every constant); conditions of integers
// and floats are single comparisons (no && or || of comparisons).
//
// Every subtree is canonical ([IsCanonicalRoot] holds at every node, so
// Canon(e) equals e), reads x or y (a compound of k alone is some
// constant, which k already is), and is not trivially simplifiable: no
// tree with fewer leaves has its value wherever it has one on the sample
// points of its fingerprint (enumfp.go). A tuple is emitted when
//
//   - every element reads some x_i and some y_j, and the tuple reads every
//     x_i and every y_i (so no element ignores the partial result or the
//     value folded in, and no position is dead);
//   - it is the least of its relabellings: exchanging x_0, y_0 with x_1,
//     y_1 and the two elements, then canonicalizing, gives the same
//     operator, and only the one that sorts first (by [Compare],
//     element by element) is emitted.
//
// maxLeaves bounds the leaves of the whole tuple (both elements
// together). Tuples come out in increasing number of leaves, in an order
// that depends only on the arguments.

// Ops is a set of operations for the enumeration: the binary operations
// of t (other than comparisons) that trees may use; select and the
// comparisons of its conditions are always used.
type Ops []Op

// DefaultOps returns the operations Enumerate uses for t.
func DefaultOps(t Type) Ops {
	switch {
	case t == Bool:
		return Ops{OpAnd, OpOr, OpLT, OpLE, OpEQ, OpNE}
	case t.Integer():
		return Ops{OpAdd, OpSub, OpMul, OpMin, OpMax, OpBitAnd, OpBitOr, OpBitXor}
	}
	return Ops{OpAdd, OpSub, OpMul, OpMin, OpMax}
}

// AllOps returns every operation the enumeration can use for t: the
// default ones with division and remainder.
func AllOps(t Type) Ops {
	switch {
	case t == Bool:
		return DefaultOps(t)
	case t.Integer():
		return Ops{OpAdd, OpSub, OpMul, OpDiv, OpMod, OpMin, OpMax, OpBitAnd, OpBitOr, OpBitXor}
	}
	return Ops{OpAdd, OpSub, OpMul, OpDiv, OpMin, OpMax}
}

// String writes the set as its operators separated by spaces.
func (ops Ops) String() string {
	parts := make([]string, len(ops))
	for i, o := range ops {
		parts[i] = o.String()
	}
	return strings.Join(parts, " ")
}

// ParseOps reads a set written by Ops.String, checking each operation
// against t.
func ParseOps(s string, t Type) (Ops, error) {
	var out Ops
	for _, f := range strings.Fields(s) {
		found := false
		for _, o := range AllOps(t) {
			if o.String() == f {
				out = append(out, o)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("assoc: %q is no enumeration operation of %v (want some of %v)", f, t, AllOps(t))
		}
	}
	return out, nil
}

// Enumerate calls emit with every candidate operator of type t with
// tupleSize elements (1 or 2) and at most maxLeaves leaves built with
// DefaultOps(t), in increasing number of leaves, until emit returns
// false.
func Enumerate(t Type, maxLeaves, tupleSize int, emit func(Tuple) bool) {
	EnumerateOps(t, DefaultOps(t), maxLeaves, tupleSize, emit)
}

// EnumerateOps is Enumerate with the operation set ops.
func EnumerateOps(t Type, ops Ops, maxLeaves, tupleSize int, emit func(Tuple) bool) {
	if tupleSize < 1 || tupleSize > 2 {
		panic("assoc: Enumerate supports tuples of 1 or 2 elements")
	}
	en := newEnumerator(t, tupleSize, ops)
	// Elements of a 2-tuple have at most maxLeaves-1 leaves; the levels
	// a 1-tuple needs only at its root are streamed, not stored.
	store := maxLeaves - 1
	for n := 1; n <= store; n++ {
		en.addLevel(n)
	}
	if tupleSize == 1 {
		for n := 1; n <= maxLeaves; n++ {
			each := func(e *Expr, _ *fingerprint) bool {
				if !e.Uses(OpX) || !e.Uses(OpY) {
					return true
				}
				return emit(Tuple{Elems: []*Expr{e}})
			}
			if n <= store {
				for _, e := range en.vals[n] {
					if !each(e, nil) {
						return
					}
				}
			} else if !en.level(n, each, nil) {
				return
			}
		}
		return
	}
	for n := 2; n <= maxLeaves; n++ {
		for a := 1; a < n; a++ {
			for _, e0 := range en.vals[a] {
				if !readsBoth(e0) {
					continue
				}
				for _, e1 := range en.vals[n-a] {
					if !readsBoth(e1) {
						continue
					}
					tp := Tuple{Elems: []*Expr{e0, e1}}
					if !readsAll(tp) || !leastRelabelling(tp) {
						continue
					}
					if !emit(tp) {
						return
					}
				}
			}
		}
	}
}

// readsBoth reports whether e reads some x and some y.
func readsBoth(e *Expr) bool { return e.Uses(OpX) && e.Uses(OpY) }

// readsAll reports whether tp reads every x_i and y_i of its size.
func readsAll(tp Tuple) bool {
	n := len(tp.Elems)
	seen := make([]bool, 2*n)
	for _, e := range tp.Elems {
		e.Walk(func(x *Expr) bool {
			if (x.Op == OpX || x.Op == OpY) && x.Index < n {
				seen[2*x.Index+int(x.Op-OpX)] = true
			}
			return true
		})
	}
	for _, s := range seen {
		if !s {
			return false
		}
	}
	return true
}

// leastRelabelling reports whether the 2-tuple tp sorts no later than
// its relabelling (indices 0 and 1 exchanged, elements swapped,
// canonicalized).
func leastRelabelling(tp Tuple) bool {
	sw := CanonTuple(Tuple{Elems: []*Expr{relabel(tp.Elems[1]), relabel(tp.Elems[0])}})
	for i := range tp.Elems {
		if c := Compare(tp.Elems[i], sw.Elems[i]); c != 0 {
			return c < 0
		}
	}
	return true
}

// relabel returns e with the indices 0 and 1 of x and y exchanged.
func relabel(e *Expr) *Expr {
	c := e.Clone()
	c.Walk(func(x *Expr) bool {
		if x.Op == OpX || x.Op == OpY {
			x.Index ^= 1
		}
		return true
	})
	return c
}

type enumerator struct {
	t      Type
	leaves []*Expr
	binOps []Op
	// vals[n] and conds[n] are the canonical value trees (type t) and
	// conditions (Bool comparisons) of n leaves; for Bool they are the
	// same. valFP[n][i] and condFP[n][i] are their fingerprints.
	vals, conds     [][]*Expr
	valFP, condFP   [][]*fingerprint
	samples         fpSamples
	seenVal, seenCd map[uint64]int // fingerprint hash -> least leaves
	partial         fpIndex        // the value trees of up to fpIndexLeaves leaves
}

func newEnumerator(t Type, size int, ops Ops) *enumerator {
	en := &enumerator{t: t, vals: [][]*Expr{nil}, conds: [][]*Expr{nil},
		valFP: [][]*fingerprint{nil}, condFP: [][]*fingerprint{nil},
		samples: newFPSamples(t, size), seenVal: map[uint64]int{}, seenCd: map[uint64]int{}}
	for i := range size {
		en.leaves = append(en.leaves, X(i, t))
	}
	for i := range size {
		en.leaves = append(en.leaves, Y(i, t))
	}
	en.leaves = append(en.leaves, K(t))
	for _, o := range ops {
		if o.Arity() == 2 && o != OpSelect {
			en.binOps = append(en.binOps, o)
		}
	}
	return en
}

// addLevel computes and stores the trees of n leaves, and records their
// fingerprints as seen at n leaves.
func (en *enumerator) addLevel(n int) {
	var vals, conds []*Expr
	var vfp, cfp []*fingerprint
	en.level(n, func(e *Expr, f *fingerprint) bool { vals, vfp = append(vals, e), append(vfp, f); return true },
		func(e *Expr, f *fingerprint) bool { conds, cfp = append(conds, e), append(cfp, f); return true })
	if en.t == Bool {
		conds, cfp = vals, vfp
	}
	en.vals, en.valFP = append(en.vals, vals), append(en.valFP, vfp)
	en.conds, en.condFP = append(en.conds, conds), append(en.condFP, cfp)
	for _, f := range vfp {
		if _, ok := en.seenVal[f.hash]; !ok {
			en.seenVal[f.hash] = n
		}
		if n <= fpIndexLeaves {
			en.partial.add(&en.samples, f)
		}
	}
	for _, f := range cfp {
		if _, ok := en.seenCd[f.hash]; !ok {
			en.seenCd[f.hash] = n
		}
	}
}

// treeFunc receives a tree and its fingerprint.
type treeFunc func(e *Expr, f *fingerprint) bool

// level calls val with every value tree and cond (when not nil, and t
// is not Bool) with every condition of n leaves, built from the stored
// smaller levels; it stops and returns false when a callback does. A
// tree whose fingerprint equals that of a tree with fewer leaves is
// left out (it is trivially simplifiable, see fingerprint).
func (en *enumerator) level(n int, val, cond treeFunc) bool {
	t := en.t
	if n == 1 {
		for _, l := range en.leaves {
			if !val(l, en.samples.leaf(l)) {
				return false
			}
		}
		return true
	}
	try := func(e *Expr, seen map[uint64]int, yield treeFunc, args ...*fingerprint) bool {
		if !readsVar(e) || !IsCanonicalRoot(e) {
			return true
		}
		f := en.samples.node(e, args)
		f.leaves = n
		if m, ok := seen[f.hash]; ok && m < n {
			return true
		}
		if f.undef != 0 && e.Type == t && en.partial.simplifies(&en.samples, f, n) {
			return true
		}
		return yield(e, f)
	}
	type root struct {
		e *Expr
		f *fingerprint
	}
	var boolRoots []root // for Bool: the roots to negate
	yieldVal := val
	if t == Bool {
		yieldVal = func(e *Expr, f *fingerprint) bool {
			boolRoots = append(boolRoots, root{e, f})
			return val(e, f)
		}
	}
	for _, op := range en.binOps {
		for a := 1; a < n; a++ {
			for li, l := range en.vals[a] {
				for ri, r := range en.vals[n-a] {
					if op.Commutative() && Compare(l, r) > 0 {
						continue // the sorted order comes too
					}
					if !try(&Expr{Op: op, Type: t, Args: []*Expr{l, r}}, en.seenVal, yieldVal, en.valFP[a][li], en.valFP[n-a][ri]) {
						return false
					}
				}
			}
		}
	}
	// select(c, a, b): c has at least 1 leaf for Bool, 2 otherwise.
	for i := 1; i < n-1; i++ {
		for j := 1; i+j < n; j++ {
			for ci, c := range en.conds[i] {
				for ai, a := range en.vals[j] {
					for bi, b := range en.vals[n-i-j] {
						e := &Expr{Op: OpSelect, Type: t, Args: []*Expr{c, a, b}}
						if !try(e, en.seenVal, yieldVal, en.condFP[i][ci], en.valFP[j][ai], en.valFP[n-i-j][bi]) {
							return false
						}
					}
				}
			}
		}
	}
	if t == Bool {
		for _, r := range boolRoots {
			if r.e.Op != OpNot && !try(Apply(OpNot, r.e), en.seenVal, val, r.f) {
				return false
			}
		}
		return true
	}
	if cond == nil {
		return true
	}
	for _, op := range []Op{OpLT, OpLE, OpEQ, OpNE} {
		for a := 1; a < n; a++ {
			for li, l := range en.vals[a] {
				for ri, r := range en.vals[n-a] {
					if !try(Apply(op, l, r), en.seenCd, cond, en.valFP[a][li], en.valFP[n-a][ri]) {
						return false
					}
				}
			}
		}
	}
	return true
}

// readsVar reports whether e reads some x or y.
func readsVar(e *Expr) bool { return e.Uses(OpX) || e.Uses(OpY) }

// Decomposable reports whether tp is not elementary by the paper's
// subgraph decomposition: in the graph with an edge from element i to
// element j when element i reads x_j or y_j (y included: reading only
// x over-partitions), no element reaches every other. Such a tuple is
// the concatenation of the smaller tuples reachable from each element
// (a 2-tuple whose elements read only their own x_i and y_i is two
// 1-tuples), associative exactly when those are, so the tables keep it
// out. A 1-tuple is never decomposable.
func Decomposable(tp Tuple) bool {
	n := len(tp.Elems)
	if n <= 1 {
		return false
	}
	edges := make([][]bool, n)
	for i, e := range tp.Elems {
		edges[i] = make([]bool, n)
		edges[i][i] = true
		e.Walk(func(x *Expr) bool {
			if (x.Op == OpX || x.Op == OpY) && x.Index < n {
				edges[i][x.Index] = true
			}
			return true
		})
	}
	for i := range n {
		reach := make([]bool, n)
		stack := []int{i}
		reach[i] = true
		count := 1
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for w := range n {
				if edges[v][w] && !reach[w] {
					reach[w] = true
					count++
					stack = append(stack, w)
				}
			}
		}
		if count == n {
			return false
		}
	}
	return true
}

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
	kTypes := constTypes(tp)
	buf := make([]Value, 7*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, bc, left, right := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:6*n], buf[6*n:]
	k := make([]Value, len(kTypes))
	env := Env{K: k, Wrap: wrap}
	f := func(x, y, out []Value) error {
		env.X, env.Y = x, y
		return env.evalTuple(tp, out)
	}
	valid := 0
	for range maxDraws * samples {
		if valid >= samples {
			break
		}
		for i, e := range tp.Elems {
			a[i], b[i], c[i] = sample(e.Type, rng), sample(e.Type, rng), sample(e.Type, rng)
		}
		for i, t := range kTypes {
			k[i] = sample(t, rng)
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
	kTypes := constTypes(tp)
	buf := make([]Value, 6*n)
	a, b, c := buf[:n], buf[n:2*n], buf[2*n:3*n]
	ab, cb, ac := buf[3*n:4*n], buf[4*n:5*n], buf[5*n:]
	k := make([]Value, len(kTypes))
	env := Env{K: k}
	f := func(x, y, out []Value) error {
		env.X, env.Y = x, y
		return env.evalTuple(tp, out)
	}
	readsX, readsY := false, false
	for range maxDraws * samples {
		for i, e := range tp.Elems {
			a[i], b[i], c[i] = sample(e.Type, rng), sample(e.Type, rng), sample(e.Type, rng)
		}
		for i, t := range kTypes {
			k[i] = sample(t, rng)
		}
		if f(a, b, ab) != nil {
			continue
		}
		if !readsX && f(c, b, cb) == nil && !sameValues(tp, ab, cb) {
			readsX = true
		}
		if !readsY && f(a, c, ac) == nil && !sameValues(tp, ab, ac) {
			readsY = true
		}
		if readsX && readsY {
			return true
		}
	}
	return false
}

func sameValues(tp Tuple, u, v []Value) bool {
	for i, e := range tp.Elems {
		if !SameValue(u[i], v[i], e.Type) {
			return false
		}
	}
	return true
}

// constTypes returns the type of each k_i that tp reads (by Index).
func constTypes(tp Tuple) []Type {
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
		out[len(out)-4] = canonicalNaN(t)
		return out
	}
	lo, hi := minValue(t), maxValue(t)
	return []Value{0, 1, IntValue(-1, t), 2, IntValue(-2, t), lo, hi, (lo + 1) & mask(t), (hi - 1) & mask(t)}
}

// sample draws a value of t: an edge value half of the time, a small
// value (−8 … 8, or a multiple of 1/4 for floats) a quarter, uniform
// bits otherwise.
func sample(t Type, rng *rand.Rand) Value {
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
