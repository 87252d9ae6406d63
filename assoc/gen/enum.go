package gen

import (
	"fmt"
	"strings"

	"nestor/assoc"
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
type Ops []assoc.Op

// DefaultOps returns the operations Enumerate uses for t.
func DefaultOps(t assoc.Type) Ops {
	switch {
	case t == assoc.Bool:
		return Ops{assoc.OpAnd, assoc.OpOr, assoc.OpLT, assoc.OpLE, assoc.OpEQ, assoc.OpNE}
	case t.Integer():
		return Ops{assoc.OpAdd, assoc.OpSub, assoc.OpMul, assoc.OpMin, assoc.OpMax, assoc.OpBitAnd, assoc.OpBitOr, assoc.OpBitXor}
	}
	return Ops{assoc.OpAdd, assoc.OpSub, assoc.OpMul, assoc.OpMin, assoc.OpMax}
}

// AllOps returns every operation the enumeration can use for t: the
// default ones with division and remainder.
func AllOps(t assoc.Type) Ops {
	switch {
	case t == assoc.Bool:
		return DefaultOps(t)
	case t.Integer():
		return Ops{assoc.OpAdd, assoc.OpSub, assoc.OpMul, assoc.OpDiv, assoc.OpMod, assoc.OpMin, assoc.OpMax, assoc.OpBitAnd, assoc.OpBitOr, assoc.OpBitXor}
	}
	return Ops{assoc.OpAdd, assoc.OpSub, assoc.OpMul, assoc.OpDiv, assoc.OpMin, assoc.OpMax}
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
func ParseOps(s string, t assoc.Type) (Ops, error) {
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
func Enumerate(t assoc.Type, maxLeaves, tupleSize int, emit func(assoc.Tuple) bool) {
	EnumerateOps(t, DefaultOps(t), maxLeaves, tupleSize, emit)
}

// EnumerateOps is Enumerate with the operation set ops.
func EnumerateOps(t assoc.Type, ops Ops, maxLeaves, tupleSize int, emit func(assoc.Tuple) bool) {
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
			each := func(e *assoc.Expr, _ *fingerprint) bool {
				if !e.Uses(assoc.OpX) || !e.Uses(assoc.OpY) {
					return true
				}
				return emit(assoc.Tuple{Elems: []*assoc.Expr{e}})
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
					tp := assoc.Tuple{Elems: []*assoc.Expr{e0, e1}}
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
func readsBoth(e *assoc.Expr) bool { return e.Uses(assoc.OpX) && e.Uses(assoc.OpY) }

// readsAll reports whether tp reads every x_i and y_i of its size.
func readsAll(tp assoc.Tuple) bool {
	n := len(tp.Elems)
	seen := make([]bool, 2*n)
	for _, e := range tp.Elems {
		e.Walk(func(x *assoc.Expr) bool {
			if (x.Op == assoc.OpX || x.Op == assoc.OpY) && x.Index < n {
				seen[2*x.Index+int(x.Op-assoc.OpX)] = true
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
func leastRelabelling(tp assoc.Tuple) bool {
	sw := assoc.CanonTuple(assoc.Tuple{Elems: []*assoc.Expr{relabel(tp.Elems[1]), relabel(tp.Elems[0])}})
	for i := range tp.Elems {
		if c := assoc.Compare(tp.Elems[i], sw.Elems[i]); c != 0 {
			return c < 0
		}
	}
	return true
}

// relabel returns e with the indices 0 and 1 of x and y exchanged.
func relabel(e *assoc.Expr) *assoc.Expr {
	c := e.Clone()
	c.Walk(func(x *assoc.Expr) bool {
		if x.Op == assoc.OpX || x.Op == assoc.OpY {
			x.Index ^= 1
		}
		return true
	})
	return c
}

type enumerator struct {
	t      assoc.Type
	leaves []*assoc.Expr
	binOps []assoc.Op
	// vals[n] and conds[n] are the canonical value trees (type t) and
	// conditions (Bool comparisons) of n leaves; for Bool they are the
	// same. valFP[n][i] and condFP[n][i] are their fingerprints.
	vals, conds     [][]*assoc.Expr
	valFP, condFP   [][]*fingerprint
	samples         fpSamples
	seenVal, seenCd map[uint64]int // fingerprint hash -> least leaves
	partial         fpIndex        // the value trees of up to fpIndexLeaves leaves
}

func newEnumerator(t assoc.Type, size int, ops Ops) *enumerator {
	en := &enumerator{t: t, vals: [][]*assoc.Expr{nil}, conds: [][]*assoc.Expr{nil},
		valFP: [][]*fingerprint{nil}, condFP: [][]*fingerprint{nil},
		samples: newFPSamples(t, size), seenVal: map[uint64]int{}, seenCd: map[uint64]int{}}
	for i := range size {
		en.leaves = append(en.leaves, assoc.X(i, t))
	}
	for i := range size {
		en.leaves = append(en.leaves, assoc.Y(i, t))
	}
	en.leaves = append(en.leaves, assoc.K(t))
	for _, o := range ops {
		if o.Arity() == 2 && o != assoc.OpSelect {
			en.binOps = append(en.binOps, o)
		}
	}
	return en
}

// addLevel computes and stores the trees of n leaves, and records their
// fingerprints as seen at n leaves.
func (en *enumerator) addLevel(n int) {
	var vals, conds []*assoc.Expr
	var vfp, cfp []*fingerprint
	en.level(n, func(e *assoc.Expr, f *fingerprint) bool { vals, vfp = append(vals, e), append(vfp, f); return true },
		func(e *assoc.Expr, f *fingerprint) bool { conds, cfp = append(conds, e), append(cfp, f); return true })
	if en.t == assoc.Bool {
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
type treeFunc func(e *assoc.Expr, f *fingerprint) bool

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
	try := func(e *assoc.Expr, seen map[uint64]int, yield treeFunc, args ...*fingerprint) bool {
		if !readsVar(e) || !assoc.IsCanonicalRoot(e) {
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
		e *assoc.Expr
		f *fingerprint
	}
	var boolRoots []root // for Bool: the roots to negate
	yieldVal := val
	if t == assoc.Bool {
		yieldVal = func(e *assoc.Expr, f *fingerprint) bool {
			boolRoots = append(boolRoots, root{e, f})
			return val(e, f)
		}
	}
	for _, op := range en.binOps {
		for a := 1; a < n; a++ {
			for li, l := range en.vals[a] {
				for ri, r := range en.vals[n-a] {
					if op.Commutative() && assoc.Compare(l, r) > 0 {
						continue // the sorted order comes too
					}
					if !try(&assoc.Expr{Op: op, Type: t, Args: []*assoc.Expr{l, r}}, en.seenVal, yieldVal, en.valFP[a][li], en.valFP[n-a][ri]) {
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
						e := &assoc.Expr{Op: assoc.OpSelect, Type: t, Args: []*assoc.Expr{c, a, b}}
						if !try(e, en.seenVal, yieldVal, en.condFP[i][ci], en.valFP[j][ai], en.valFP[n-i-j][bi]) {
							return false
						}
					}
				}
			}
		}
	}
	if t == assoc.Bool {
		for _, r := range boolRoots {
			if r.e.Op != assoc.OpNot && !try(assoc.Apply(assoc.OpNot, r.e), en.seenVal, val, r.f) {
				return false
			}
		}
		return true
	}
	if cond == nil {
		return true
	}
	for _, op := range []assoc.Op{assoc.OpLT, assoc.OpLE, assoc.OpEQ, assoc.OpNE} {
		for a := 1; a < n; a++ {
			for li, l := range en.vals[a] {
				for ri, r := range en.vals[n-a] {
					if !try(assoc.Apply(op, l, r), en.seenCd, cond, en.valFP[a][li], en.valFP[n-a][ri]) {
						return false
					}
				}
			}
		}
	}
	return true
}

// readsVar reports whether e reads some x or y.
func readsVar(e *assoc.Expr) bool { return e.Uses(assoc.OpX) || e.Uses(assoc.OpY) }

// Decomposable reports whether tp is not elementary by the paper's
// subgraph decomposition: in the graph with an edge from element i to
// element j when element i reads x_j or y_j (y included: reading only
// x over-partitions), no element reaches every other. Such a tuple is
// the concatenation of the smaller tuples reachable from each element
// (a 2-tuple whose elements read only their own x_i and y_i is two
// 1-tuples), associative exactly when those are, so the tables keep it
// out. A 1-tuple is never decomposable.
func Decomposable(tp assoc.Tuple) bool {
	n := len(tp.Elems)
	if n <= 1 {
		return false
	}
	edges := make([][]bool, n)
	for i, e := range tp.Elems {
		edges[i] = make([]bool, n)
		edges[i][i] = true
		e.Walk(func(x *assoc.Expr) bool {
			if (x.Op == assoc.OpX || x.Op == assoc.OpY) && x.Index < n {
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
