package gen

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"nestor/assoc"
)

// Fingerprints: which trees are trivially simplifiable.
//
// The paper enumerates no tree that the simplifier would shrink
// (max(x, x)). Our canonicalizer removes a few such forms, not x + y - y
// or (x | k) & k, which the random tests of associativity then pass in
// their thousands. The enumerator therefore evaluates every tree on a
// fixed set of sample points (values of x_i, y_i and k) and keeps a tree
// only when no tree with fewer leaves has the same values at every point
// (its fingerprint). Trees of the same size with the same values are all
// kept: x - (k - y) and x + y - k are two ways a programmer may write one
// operator, and matching needs both. A tree with no value at some points
// (a division by zero, an int32 or int64 overflow) is also trivially
// simplifiable when a smaller tree has its values wherever it has one:
// x * y / y and x - y + y are x where they are defined, and C lets a
// compiler assume that they are. Such trees are looked up by their values
// on a block of points where they are defined, among the indexed smaller
// trees. So that blocks without overflow are common, the points of int32
// and int64 are mostly moderate values (fpSample).
//
// Points are drawn once per type with a fixed seed, half of them among the
// type's edge values, so the enumeration is deterministic. For Bool the
// points are every assignment of x_i, y_i and k. Two trees that agree on
// every point but differ elsewhere make the enumeration drop the larger
// one: that costs completeness of the table, never soundness.

// fpPoints is the number of sample points of a non-Bool fingerprint.
const fpPoints = 48

// fpBlocks is the number of blocks of points by which trees are indexed
// for the partial-definedness lookup; fpIndexLeaves bounds the leaves of
// the indexed trees (bigger ones are rarely what a tree simplifies to,
// and there are many).
const (
	fpBlocks      = 8
	fpIndexLeaves = 4
)

// fpIndex finds the trees whose values on a block of points are given.
type fpIndex [fpBlocks]map[uint64][]*fingerprint

// block returns the bounds of block j of n points.
func fpBlock(j, n int) (lo, hi int) { return j * n / fpBlocks, (j + 1) * n / fpBlocks }

// definedOn reports whether f has a value at every point of [lo, hi).
func (f *fingerprint) definedOn(lo, hi int) bool {
	return f.undef&(uint64(1)<<hi-uint64(1)<<lo) == 0
}

// blockHash hashes f's values on [lo, hi).
func (s *fpSamples) blockHash(f *fingerprint, lo, hi int) uint64 {
	h := uint64(14695981039346656037)
	for p := lo; p < hi; p++ {
		v := f.vals[p]
		if s.t.Float() && math.IsNaN(v.Float(s.t)) {
			v = assoc.NaN(s.t)
		}
		h = (h ^ uint64(v)) * 1099511628211
	}
	return h
}

// add indexes f (defined everywhere, or on some blocks).
func (ix *fpIndex) add(s *fpSamples, f *fingerprint) {
	for j := range fpBlocks {
		lo, hi := fpBlock(j, s.n)
		if !f.definedOn(lo, hi) {
			continue
		}
		if ix[j] == nil {
			ix[j] = map[uint64][]*fingerprint{}
		}
		h := s.blockHash(f, lo, hi)
		ix[j][h] = append(ix[j][h], f)
	}
}

// simplifies reports whether an indexed tree of fewer than n leaves has
// f's value at every point where f has one.
func (ix *fpIndex) simplifies(s *fpSamples, f *fingerprint, n int) bool {
	for j := range fpBlocks {
		lo, hi := fpBlock(j, s.n)
		if !f.definedOn(lo, hi) || ix[j] == nil {
			continue
		}
		for _, g := range ix[j][s.blockHash(f, lo, hi)] {
			if g.leaves < n && g.undef&^f.undef == 0 && agreeWhereDefined(s, f, g) {
				return true
			}
		}
		return false
	}
	return false
}

func agreeWhereDefined(s *fpSamples, f, g *fingerprint) bool {
	for p := range s.n {
		if f.undef>>p&1 == 0 && !assoc.SameValue(f.vals[p], g.vals[p], s.t) {
			return false
		}
	}
	return true
}

// fingerprint holds a tree's value at every sample point.
type fingerprint struct {
	leaves int
	vals   []assoc.Value
	undef  uint64 // bit p: no value at point p
	hash   uint64
}

// fpSamples are the sample points: x[i][p] is x_i at point p.
type fpSamples struct {
	t      assoc.Type
	n      int
	x, y   [][]assoc.Value
	k      []assoc.Value
	byLeaf map[leafKey]*fingerprint
}

type leafKey struct {
	op    assoc.Op
	index int
}

func newFPSamples(t assoc.Type, size int) fpSamples {
	s := fpSamples{t: t, x: make([][]assoc.Value, size), y: make([][]assoc.Value, size), byLeaf: map[leafKey]*fingerprint{}}
	if t == assoc.Bool {
		s.n = 1 << (2*size + 1)
		for i := range size {
			s.x[i], s.y[i] = make([]assoc.Value, s.n), make([]assoc.Value, s.n)
		}
		s.k = make([]assoc.Value, s.n)
		for p := range s.n {
			for i := range size {
				s.x[i][p] = assoc.Value(p >> (2 * i) & 1)
				s.y[i][p] = assoc.Value(p >> (2*i + 1) & 1)
			}
			s.k[p] = assoc.Value(p >> (2 * size) & 1)
		}
	} else {
		s.n = fpPoints
		rng := rand.New(rand.NewPCG(uint64(t)+1, uint64(size)))
		draw := func() []assoc.Value {
			v := make([]assoc.Value, s.n)
			for p := range v {
				v[p] = fpSample(t, rng)
			}
			return v
		}
		for i := range size {
			s.x[i], s.y[i] = draw(), draw()
		}
		s.k = draw()
	}
	for i := range size {
		s.byLeaf[leafKey{assoc.OpX, i}] = s.finish(&fingerprint{leaves: 1, vals: s.x[i]})
		s.byLeaf[leafKey{assoc.OpY, i}] = s.finish(&fingerprint{leaves: 1, vals: s.y[i]})
	}
	s.byLeaf[leafKey{assoc.OpK, 0}] = s.finish(&fingerprint{leaves: 1, vals: s.k})
	return s
}

// leaf returns the fingerprint of the leaf l (x_i, y_i or k).
func (s *fpSamples) leaf(l *assoc.Expr) *fingerprint {
	return s.byLeaf[leafKey{l.Op, l.Index}]
}

// node returns the fingerprint of e, whose operands have the fingerprints
// args, with C's semantics (Eval's) at every point.
func (s *fpSamples) node(e *assoc.Expr, args []*fingerprint) *fingerprint {
	f := &fingerprint{vals: make([]assoc.Value, s.n)}
	for p := range s.n {
		v, ok := s.at(e, args, p)
		if ok {
			f.vals[p] = v
		} else {
			f.undef |= 1 << p
		}
	}
	return s.finish(f)
}

// at evaluates e's root at point p.
func (s *fpSamples) at(e *assoc.Expr, args []*fingerprint, p int) (assoc.Value, bool) {
	def := func(i int) bool { return args[i].undef>>p&1 == 0 }
	arg := func(i int) assoc.Value { return args[i].vals[p] }
	switch e.Op {
	case assoc.OpSelect:
		if !def(0) {
			return 0, false
		}
		if arg(0).Bool(e.Args[0].Type) {
			return arg(1), def(1)
		}
		return arg(2), def(2)
	case assoc.OpAnd, assoc.OpOr:
		if !def(0) {
			return 0, false
		}
		if arg(0).Bool(e.Args[0].Type) == (e.Op == assoc.OpOr) {
			return assoc.BoolValue(e.Op == assoc.OpOr), true
		}
		return assoc.BoolValue(arg(1).Bool(e.Args[1].Type)), def(1)
	case assoc.OpNot:
		return assoc.BoolValue(!arg(0).Bool(e.Args[0].Type)), def(0)
	case assoc.OpNeg:
		v, err := assoc.EvalOp(e.Op, e.Type, arg(0), 0, false)
		return v, def(0) && err == nil
	}
	if !def(0) || !def(1) {
		return 0, false
	}
	// The operands' type: a comparison's node is a Bool.
	v, err := assoc.EvalOp(e.Op, e.Args[0].Type, arg(0), arg(1), false)
	return v, err == nil
}

// finish computes f's hash: NaNs hash alike, undefined points as zero
// with their mask.
func (s *fpSamples) finish(f *fingerprint) *fingerprint {
	h := fnv.New64a()
	var b [8]byte
	put := func(v uint64) {
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	for p, v := range f.vals {
		switch {
		case f.undef>>p&1 != 0:
			v = 0
		case s.t.Float() && math.IsNaN(v.Float(s.t)):
			v = assoc.NaN(s.t)
		}
		put(uint64(v))
	}
	put(f.undef)
	f.hash = h.Sum64()
	return f
}

// fpSample draws a point's value of t: for int32 and int64 an edge value
// one time in 16, a small value (−8 … 8) five times, otherwise one in
// −1000 … 1000; for other types as the random tests draw ([Sample]).
func fpSample(t assoc.Type, rng *rand.Rand) assoc.Value {
	if t != assoc.Int32 && t != assoc.Int64 {
		return assoc.Sample(t, rng)
	}
	switch r := rng.IntN(16); {
	case r == 0:
		edges := assoc.EdgeValues(t)
		return edges[rng.IntN(len(edges))]
	case r <= 5:
		return assoc.IntValue(rng.Int64N(17)-8, t)
	}
	return assoc.IntValue(rng.Int64N(2001)-1000, t)
}
