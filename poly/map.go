package poly

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// MapSpace names the parameters and the input and output tuples of a Map,
// as in "[n] -> { S[i, j] -> T[a, b] }". Tuple names may be empty.
type MapSpace struct {
	Params  []string
	InName  string
	In      []string
	OutName string
	Out     []string
}

// NIn returns the number of input dimensions.
func (sp MapSpace) NIn() int { return len(sp.In) }

// NOut returns the number of output dimensions.
func (sp MapSpace) NOut() int { return len(sp.Out) }

// NParam returns the number of parameters.
func (sp MapSpace) NParam() int { return len(sp.Params) }

// NVar returns the number of variables: in dims, out dims, params.
func (sp MapSpace) NVar() int { return len(sp.In) + len(sp.Out) + len(sp.Params) }

// Equal reports whether the two spaces have the same names in the same order.
func (sp MapSpace) Equal(o MapSpace) bool {
	return sp.InName == o.InName && sp.OutName == o.OutName && slices.Equal(sp.Params, o.Params) &&
		slices.Equal(sp.In, o.In) && slices.Equal(sp.Out, o.Out)
}

// Domain returns the set space of the input tuple.
func (sp MapSpace) Domain() Space {
	return Space{Params: slices.Clone(sp.Params), Name: sp.InName, Dims: slices.Clone(sp.In)}
}

// Range returns the set space of the output tuple.
func (sp MapSpace) Range() Space {
	return Space{Params: slices.Clone(sp.Params), Name: sp.OutName, Dims: slices.Clone(sp.Out)}
}

// Reverse returns the space with the tuples swapped.
func (sp MapSpace) Reverse() MapSpace {
	return MapSpace{Params: slices.Clone(sp.Params), InName: sp.OutName, In: slices.Clone(sp.Out),
		OutName: sp.InName, Out: slices.Clone(sp.In)}
}

func (sp MapSpace) clone() MapSpace {
	return MapSpace{Params: slices.Clone(sp.Params), InName: sp.InName, In: slices.Clone(sp.In),
		OutName: sp.OutName, Out: slices.Clone(sp.Out)}
}

// wrapped returns the set space over (in, out, params) used to store a Map:
// anonymous tuple, dims named as printed (see uniqueNames), so that the
// wrapped set prints and parses back.
func (sp MapSpace) wrapped() Space {
	names := uniqueNames(sp)
	nd := sp.NIn() + sp.NOut()
	return Space{Params: names[nd:], Dims: names[:nd]}
}

// uniqueNames returns the names of (in, out, params) made pairwise distinct
// by appending primes to later repeats; parameters keep their names (they
// are bound first when parsing), then in dims, then out dims.
func uniqueNames(sp MapSpace) []string {
	used := map[string]bool{}
	fix := func(n string) string {
		for used[n] {
			n += "'"
		}
		used[n] = true
		return n
	}
	ps := make([]string, len(sp.Params))
	for i, n := range sp.Params {
		ps[i] = fix(n)
	}
	var out []string
	for _, n := range sp.In {
		out = append(out, fix(n))
	}
	for _, n := range sp.Out {
		out = append(out, fix(n))
	}
	return append(out, ps...)
}

// String prints the space as "[n] -> { S[i] -> T[j] }" (names made
// distinct as in uniqueNames).
func (sp MapSpace) String() string {
	var b strings.Builder
	sp.header(&b, uniqueNames(sp), nil)
	b.WriteString(" }")
	return b.String()
}

// Map is a relation between integer tuples: a conjunction of affine
// constraints over (in dims, out dims, params, 1), stored as a Set over the
// concatenated dims. Maps are immutable values.
type Map struct {
	space MapSpace
	set   *Set // over sp.wrapped()
}

// NewMap returns the conjunction of cs over sp; each constraint has one
// coefficient per in dim, per out dim, per param, then the constant. It
// panics on a wrong length and returns ErrOverflow for math.MinInt64.
func NewMap(sp MapSpace, cs ...Constraint) (*Map, error) {
	s, err := NewSet(sp.wrapped(), cs...)
	if err != nil {
		return nil, err
	}
	return &Map{space: sp.clone(), set: s}, nil
}

// UniverseMap returns the relation of all pairs of integer tuples of sp.
func UniverseMap(sp MapSpace) *Map {
	return &Map{space: sp.clone(), set: Universe(sp.wrapped())}
}

// Space returns the space of m.
func (m *Map) Space() MapSpace { return m.space.clone() }

// Constraints returns the normalized rows of m over (in, out, params, 1);
// see (*Set).Constraints.
func (m *Map) Constraints() []Constraint { return m.set.Constraints() }

// Wrap returns m as a set over the concatenated dims (in, out), with an
// anonymous tuple; dim names repeated between the tuples get primes.
// The set's points are exactly the pairs of m. Wrap is exact.
func (m *Map) Wrap() *Set { return m.set }

// Unwrap returns the map over sp whose pairs (x, y) are the points (x, y)
// of s. It panics unless s has NIn+NOut dims and the parameters of sp.
func Unwrap(s *Set, sp MapSpace) *Map {
	ss := s.Space()
	if ss.NDim() != sp.NIn()+sp.NOut() || !slices.Equal(ss.Params, sp.Params) {
		panic(fmt.Sprintf("poly: Unwrap: set space %v does not fit %v", ss, sp))
	}
	return &Map{space: sp.clone(), set: reSpace(s, sp.wrapped())}
}

// reSpace returns s (same rows) over the space sp with the same counts.
func reSpace(s *Set, sp Space) *Set {
	if s.IsEmptyKnown() {
		return emptySet(sp)
	}
	t, err := NewSet(sp, s.Constraints()...)
	if err != nil {
		panic(err) // rows of a Set never hold MinInt64
	}
	return t
}

func emptySet(sp Space) *Set {
	c := make([]int64, sp.NVar()+1)
	c[len(c)-1] = -1
	s, _ := NewSet(sp, Constraint{Coef: c})
	return s
}

// Intersect returns m ∩ n. It panics if the spaces differ.
func (m *Map) Intersect(n *Map) *Map {
	if !m.space.Equal(n.space) {
		panic(fmt.Sprintf("poly: map space mismatch: %v vs %v", m.space, n.space))
	}
	return &Map{space: m.space.clone(), set: m.set.Intersect(n.set)}
}

// Reverse returns { y -> x : x -> y in m }. Exact.
func (m *Map) Reverse() *Map {
	sp := m.space.Reverse()
	ni, no, nv := m.space.NIn(), m.space.NOut(), m.space.NVar()
	var rows []Constraint
	if !m.set.IsEmptyKnown() {
		for _, r := range m.set.Constraints() {
			c := make([]int64, nv+1)
			copy(c, r.Coef[ni:ni+no])
			copy(c[no:], r.Coef[:ni])
			copy(c[ni+no:], r.Coef[ni+no:])
			rows = append(rows, Constraint{Eq: r.Eq, Coef: c})
		}
	} else {
		return &Map{space: sp, set: emptySet(sp.wrapped())}
	}
	s, err := NewSet(sp.wrapped(), rows...)
	if err != nil {
		panic(err)
	}
	return &Map{space: sp, set: s}
}

// IsEmpty reports exactly whether m has no integer pair (params free).
func (m *Map) IsEmpty() (bool, error) { return m.set.IsEmpty() }

// Contains reports whether (in, out) is a pair of m at the given params.
func (m *Map) Contains(in, out, params []int64) (bool, error) {
	if len(in) != m.space.NIn() || len(out) != m.space.NOut() || len(params) != m.space.NParam() {
		panic("poly: Map.Contains: wrong point length")
	}
	return m.set.Contains(slices.Concat(in, out, params))
}

// fits panics unless s has n dims and the given params.
func fits(what string, s *Set, n int, params []string) {
	ss := s.Space()
	if ss.NDim() != n || !slices.Equal(ss.Params, params) {
		panic(fmt.Sprintf("poly: %s: set space %v does not fit", what, ss))
	}
}

// embed returns the rows of s (over dims d, params) placed at dims
// [at, at+len(d)) of a space with nd dims and the same params.
func embed(s *Set, nd, at int) []Constraint {
	ns := s.Space().NDim()
	np := s.Space().NParam()
	var rows []Constraint
	for _, r := range s.Constraints() {
		c := make([]int64, nd+np+1)
		copy(c[at:], r.Coef[:ns])
		copy(c[nd:], r.Coef[ns:])
		rows = append(rows, Constraint{Eq: r.Eq, Coef: c})
	}
	return rows
}

// IntersectDomain returns { x -> y in m : x in s }. s must have NIn dims and
// the parameters of m (tuple and dim names are not compared). Exact.
func (m *Map) IntersectDomain(s *Set) *Map {
	fits("IntersectDomain", s, m.space.NIn(), m.space.Params)
	return m.with(embed(s, m.space.NIn()+m.space.NOut(), 0))
}

// IntersectRange returns { x -> y in m : y in s }; see IntersectDomain.
func (m *Map) IntersectRange(s *Set) *Map {
	fits("IntersectRange", s, m.space.NOut(), m.space.Params)
	return m.with(embed(s, m.space.NIn()+m.space.NOut(), m.space.NIn()))
}

func (m *Map) with(rows []Constraint) *Map {
	t, err := m.set.With(rows...)
	if err != nil {
		panic(err)
	}
	return &Map{space: m.space.clone(), set: t}
}

// Domain returns { x : exists y, x -> y in m } as the rational shadow of the
// projection (see projectDims); exact reports that it is proved equal to the
// integer projection.
func (m *Map) Domain() (out *Set, exact bool, err error) {
	ni, no := m.space.NIn(), m.space.NOut()
	dims := make([]int, no)
	for i := range dims {
		dims[i] = ni + i
	}
	s, exact, err := projectDims(m.set, dims)
	if err != nil {
		return nil, false, err
	}
	return reSpace(s, m.space.Domain()), exact, nil
}

// Range returns { y : exists x, x -> y in m }; see Domain.
func (m *Map) Range() (out *Set, exact bool, err error) {
	dims := make([]int, m.space.NIn())
	for i := range dims {
		dims[i] = i
	}
	s, exact, err := projectDims(m.set, dims)
	if err != nil {
		return nil, false, err
	}
	return reSpace(s, m.space.Range()), exact, nil
}

// Apply returns the image { y : exists x in s, x -> y in m } of s under the
// relation m: the Range of IntersectDomain, with the same exactness report.
func (m *Map) Apply(s *Set) (out *Set, exact bool, err error) {
	return m.IntersectDomain(s).Range()
}

// projectDims eliminates the given dims of s (indices into s's dims) one at a
// time with ProjectOutRational. At each step it prefers a dim whose
// elimination is exact (unit equality, or all unit lower or upper bounds),
// otherwise the one giving the fewest rows; when no step is exact it retries
// after RemoveRedundant, and an inexact result of an integer-empty set is
// replaced by the empty set (exact). The result is exact when every
// step is, since a composition of exact integer projections is the integer
// projection.
func projectDims(s *Set, dims []int) (*Set, bool, error) {
	orig := s
	dims = slices.Clone(dims)
	exact := true
	for len(dims) > 0 {
		best, bestK, bestExact, err := bestProjection(s, dims)
		if err != nil {
			return nil, false, err
		}
		if !bestExact {
			// Rows redundant over the integers may hide an exact step
			// (a non-unit bound that no integer point needs). Dropping
			// them keeps the integer points, so the shadow of the
			// reduced set still contains the integer projection, and
			// an exact step on it is exact for s.
			if r, err := s.RemoveRedundant(); err == nil && len(r.Constraints()) < len(s.Constraints()) {
				b2, k2, ex2, err := bestProjection(r, dims)
				if err != nil {
					return nil, false, err
				}
				if ex2 {
					best, bestK, bestExact = b2, k2, ex2
				}
			}
		}
		exact = exact && bestExact
		d := dims[bestK]
		dims = slices.Delete(dims, bestK, bestK+1)
		for i := range dims {
			if dims[i] > d {
				dims[i]--
			}
		}
		s = best
		if s.IsEmptyKnown() {
			// Empty shadow: the integer projection is empty too.
			exact = true
		}
	}
	if !exact {
		// An integer-empty set has an empty projection.
		if e, err := orig.IsEmpty(); err == nil && e {
			return emptySet(s.Space()), true, nil
		}
	}
	return s, exact, nil
}

// bestProjection tries ProjectOutRational on each of dims and returns the
// result of an exact one if any, else the one with the fewest rows, with its
// index in dims.
func bestProjection(s *Set, dims []int) (best *Set, bestK int, bestExact bool, err error) {
	bestK, bestRows := -1, math.MaxInt
	for k, d := range dims {
		t, ex, err := s.ProjectOutRational(d)
		if err != nil {
			return nil, 0, false, err
		}
		n := len(t.Constraints())
		if bestK < 0 || (ex && !bestExact) || (ex == bestExact && n < bestRows) {
			best, bestK, bestExact, bestRows = t, k, ex, n
		}
	}
	return best, bestK, bestExact, nil
}

// AffineMap is a function from the in tuple to the out tuple of its space:
// out_k = Exprs[k]·(in, params, 1).
type AffineMap struct {
	space MapSpace
	exprs [][]int64
}

// NewAffineMap returns the function with one form per output dim over
// (in dims, params, 1). It panics on a wrong count or length and returns
// ErrOverflow for math.MinInt64.
func NewAffineMap(sp MapSpace, exprs ...[]int64) (*AffineMap, error) {
	if len(exprs) != sp.NOut() {
		panic("poly: NewAffineMap: need one expression per output dim")
	}
	n := sp.NIn() + sp.NParam() + 1
	f := &AffineMap{space: sp.clone()}
	for _, e := range exprs {
		if len(e) != n {
			panic(fmt.Sprintf("poly: NewAffineMap: expression has %d coefficients, need %d", len(e), n))
		}
		if slices.Contains(e, math.MinInt64) {
			return nil, ErrOverflow
		}
		f.exprs = append(f.exprs, slices.Clone(e))
	}
	return f, nil
}

// Space returns the space of f.
func (f *AffineMap) Space() MapSpace { return f.space.clone() }

// Exprs returns a copy of the output forms.
func (f *AffineMap) Exprs() [][]int64 {
	out := make([][]int64, len(f.exprs))
	for i, e := range f.exprs {
		out[i] = slices.Clone(e)
	}
	return out
}

// Map returns the graph { x -> f(x) } of f as a relation. Exact.
func (f *AffineMap) Map() (m *Map, err error) {
	defer catch(&err)
	ni, no, np := f.space.NIn(), f.space.NOut(), f.space.NParam()
	nv := ni + no + np
	var rows []Constraint
	for k, e := range f.exprs {
		c := make([]int64, nv+1)
		c[ni+k] = 1
		for j := range ni {
			c[j] = neg(e[j])
		}
		for j := range np + 1 {
			c[ni+no+j] = neg(e[ni+j])
		}
		rows = append(rows, Constraint{Eq: true, Coef: c})
	}
	return NewMap(f.space, rows...)
}

// Preimage returns { x : f(x) in s } over the domain space of f, by
// substituting the forms of f into the rows of s. Always exact. s must have
// NOut dims and the parameters of f.
func (s *Set) Preimage(f *AffineMap) (out *Set, err error) {
	defer catch(&err)
	ni, no, np := f.space.NIn(), f.space.NOut(), f.space.NParam()
	fits("Preimage", s, no, f.space.Params)
	sp := f.space.Domain()
	if s.IsEmptyKnown() {
		return emptySet(sp), nil
	}
	var rows []Constraint
	for _, r := range s.Constraints() {
		c := make([]int64, ni+np+1)
		copy(c[ni:], r.Coef[no:])
		for k, e := range f.exprs {
			if r.Coef[k] == 0 {
				continue
			}
			for j, v := range e {
				c[j] = add(c[j], mul(r.Coef[k], v))
			}
		}
		rows = append(rows, Constraint{Eq: r.Eq, Coef: c})
	}
	return NewSet(sp, rows...)
}

// Inverse returns the integer inverse of f when f is unimodular: as many
// outputs as inputs and a linear part with determinant ±1, so that f is a
// bijection of Z^n for every parameter value. ok is false otherwise.
func (f *AffineMap) Inverse() (g *AffineMap, ok bool, err error) {
	defer catch(&err)
	n, np := f.space.NIn(), f.space.NParam()
	if f.space.NOut() != n {
		return nil, false, nil
	}
	// Gauss–Jordan on [A | I] over exact rationals.
	a := make([][]rat, n)
	for i := range a {
		a[i] = make([]rat, 2*n)
		for j := range n {
			a[i][j] = ri(f.exprs[i][j])
			a[i][n+j] = ri(0)
		}
		a[i][n+i] = ri(1)
	}
	for col := range n {
		p := -1
		for i := col; i < n; i++ {
			if a[i][col].sign() != 0 {
				p = i
				break
			}
		}
		if p < 0 {
			return nil, false, nil // singular
		}
		a[col], a[p] = a[p], a[col]
		inv := a[col][col].inv()
		for j := range a[col] {
			a[col][j] = a[col][j].mul(inv)
		}
		for i := range n {
			if i == col || a[i][col].sign() == 0 {
				continue
			}
			q := a[i][col]
			for j := range a[i] {
				a[i][j] = a[i][j].sub(q.mul(a[col][j]))
			}
		}
	}
	// B = A^-1 must be integer (then det A = ±1).
	b := make([][]int64, n)
	for i := range n {
		b[i] = make([]int64, n)
		for j := range n {
			v := a[i][n+j]
			if !v.isInt() {
				return nil, false, nil
			}
			b[i][j] = v.num
		}
	}
	// x = B·(y - P·p - c): form for x_i over (y, params, 1).
	exprs := make([][]int64, n)
	for i := range n {
		e := make([]int64, n+np+1)
		copy(e, b[i])
		for j := range np + 1 {
			var v int64
			for k := range n {
				v = sub(v, mul(b[i][k], f.exprs[k][n+j]))
			}
			e[n+j] = v
		}
		exprs[i] = e
	}
	g, err = NewAffineMap(f.space.Reverse(), exprs...)
	return g, err == nil, err
}

// Image returns { f(x) : x in s } over the range space of f. When f is
// unimodular (see Inverse) the image is the Preimage under the integer
// inverse and exact is true. Otherwise it is the Range of the graph of f
// restricted to s, the rational shadow with its exactness report (exact for
// example when every input dim is fixed by a unit equality). s must have
// NIn dims and the parameters of f.
func (s *Set) Image(f *AffineMap) (out *Set, exact bool, err error) {
	fits("Image", s, f.space.NIn(), f.space.Params)
	g, ok, err := f.Inverse()
	if err != nil {
		return nil, false, err
	}
	if ok {
		out, err := s.Preimage(g)
		return out, err == nil, err
	}
	m, err := f.Map()
	if err != nil {
		return nil, false, err
	}
	return m.Apply(s)
}
