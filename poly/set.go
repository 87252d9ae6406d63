package poly

import (
	"fmt"
	"math"
	"nestor/internal/intmath"
	"slices"
)

// Space names the parameters and the one tuple of set dimensions of a Set,
// as in "[n, m] -> { S[i, j] }". Name may be empty (an anonymous tuple).
type Space struct {
	Params []string
	Name   string
	Dims   []string
}

// NDim returns the number of set dimensions.
func (sp Space) NDim() int { return len(sp.Dims) }

// NParam returns the number of parameters.
func (sp Space) NParam() int { return len(sp.Params) }

// NVar returns the number of variables: dims then params.
func (sp Space) NVar() int { return len(sp.Dims) + len(sp.Params) }

// Equal reports whether the two spaces have the same names in the same order.
func (sp Space) Equal(o Space) bool {
	return sp.Name == o.Name && slices.Equal(sp.Params, o.Params) && slices.Equal(sp.Dims, o.Dims)
}

func (sp Space) clone() Space {
	return Space{Params: slices.Clone(sp.Params), Name: sp.Name, Dims: slices.Clone(sp.Dims)}
}

// Constraint is the affine condition Coef·(x, p, 1) >= 0, or == 0 when Eq:
// Coef holds one coefficient per set dimension, then one per parameter, then
// the constant.
type Constraint struct {
	Eq   bool
	Coef []int64
}

// Set is a conjunction of affine constraints over a Space. The zero value is
// not usable; build Sets with NewSet, Universe or the parser.
type Set struct {
	space Space
	rows  []Constraint // normalized, see doc.go
	empty bool         // normalization found a false row
	// relax holds the rows as given when normalization tightened a constant
	// (so the normalized rows describe a smaller rational polyhedron); nil
	// when the normalized rows have the same rational points. See
	// IsRationalEmpty.
	relax []Constraint
}

// Universe returns the set of all integer points of sp.
func Universe(sp Space) *Set { return &Set{space: sp.clone()} }

// NewSet returns the normalized conjunction of cs over sp. It panics if a
// constraint has the wrong length, and returns ErrOverflow if a coefficient
// is math.MinInt64.
func NewSet(sp Space, cs ...Constraint) (*Set, error) {
	n := sp.NVar() + 1
	rows := make([]Constraint, len(cs))
	for i, c := range cs {
		if len(c.Coef) != n {
			panic(fmt.Sprintf("poly: constraint has %d coefficients, space needs %d", len(c.Coef), n))
		}
		if slices.Contains(c.Coef, math.MinInt64) {
			return nil, ErrOverflow
		}
		rows[i] = Constraint{Eq: c.Eq, Coef: slices.Clone(c.Coef)}
	}
	return build(sp.clone(), rows), nil
}

// Space returns the space of s.
func (s *Set) Space() Space { return s.space.clone() }

// Constraints returns a copy of the normalized rows of s. An empty set found
// by normalization returns the single row -1 >= 0.
func (s *Set) Constraints() []Constraint {
	if s.empty {
		c := make([]int64, s.space.NVar()+1)
		c[len(c)-1] = -1
		return []Constraint{{Coef: c}}
	}
	out := make([]Constraint, len(s.rows))
	for i, r := range s.rows {
		out[i] = Constraint{Eq: r.Eq, Coef: slices.Clone(r.Coef)}
	}
	return out
}

// IsEmptyKnown reports whether normalization alone proved s empty. A false
// answer says nothing; use IsEmpty for the exact answer.
func (s *Set) IsEmptyKnown() bool { return s.empty }

// build normalizes rows (which it owns) into a Set over sp.
func build(sp Space, rows []Constraint) *Set {
	relax := tightened(rows, sp.NVar())
	s := &Set{space: sp, relax: relax}
	out := rows[:0]
	for _, r := range rows {
		switch normalize(&r) {
		case rowFalse:
			return &Set{space: sp, empty: true, relax: relax}
		case rowTrue:
			continue
		}
		out = append(out, r)
	}
	slices.SortFunc(out, cmpRow)
	out = slices.CompactFunc(out, func(a, b Constraint) bool { return cmpRow(a, b) == 0 })
	out, empty := pairs(out)
	if empty {
		return &Set{space: sp, empty: true, relax: relax}
	}
	slices.SortFunc(out, cmpRow)
	// Sorted rows with the same variable part are adjacent, the smallest
	// constant first: of such inequalities only that one, the strongest,
	// constrains.
	n := sp.NVar()
	out = slices.CompactFunc(out, func(a, b Constraint) bool {
		return a.Eq == b.Eq && (!a.Eq || a.Coef[n] == b.Coef[n]) && slices.Equal(a.Coef[:n], b.Coef[:n])
	})
	s.rows = out
	return s
}

// tightened returns a copy of rows when normalizing some row changes its
// rational points (a constant not divisible by the gcd of the variable
// coefficients), and nil otherwise.
func tightened(rows []Constraint, nv int) []Constraint {
	for _, r := range rows {
		g := int64(0)
		for _, v := range r.Coef[:nv] {
			g = intmath.Gcd(g, v)
		}
		if g > 1 && r.Coef[nv]%g != 0 {
			out := make([]Constraint, len(rows))
			for i, r := range rows {
				out[i] = Constraint{Eq: r.Eq, Coef: slices.Clone(r.Coef)}
			}
			return out
		}
	}
	return nil
}

// pairs finds opposite inequalities r >= 0 and -r + k >= 0 (same variable
// part, negated). Their sum is k >= 0 with no variables, so k < 0 makes the
// set empty, and k == 0 means r = 0: the pair becomes one equality. The
// comparison c1 + c2 < 0 is written c1 < -c2 so that it cannot overflow.
// Rows are sorted (equalities first, then by coefficients, the constant
// last), so of the inequalities with one variable part the first has the
// smallest constant, the strongest: only those pair, and the opposite of a
// row is found by binary search.
func pairs(rows []Constraint) ([]Constraint, bool) {
	n := 0
	if len(rows) > 0 {
		n = len(rows[0].Coef) - 1
	}
	ineq := slices.IndexFunc(rows, func(r Constraint) bool { return !r.Eq })
	if ineq < 0 {
		return rows, false
	}
	dead := make([]bool, len(rows))
	var eqs []int // rows that become equalities, changed after the search
	for i := ineq; i < len(rows); i++ {
		a := rows[i].Coef[:n]
		if dead[i] || i > ineq && slices.Equal(rows[i-1].Coef[:n], a) {
			continue
		}
		j, found := slices.BinarySearchFunc(rows[ineq:], a, func(r Constraint, a []int64) int {
			return cmpNeg(r.Coef[:n], a)
		})
		j += ineq
		if !found || dead[j] || j == i {
			continue
		}
		ci, cj := rows[i].Coef[n], rows[j].Coef[n]
		if ci < -cj {
			return nil, true
		}
		if ci == -cj {
			eqs = append(eqs, i)
			dead[i], dead[j] = true, true
		}
	}
	for _, i := range eqs {
		rows[i].Eq = true
		normalize(&rows[i])
		dead[i] = false
	}
	out := rows[:0]
	for i, r := range rows {
		if !dead[i] {
			out = append(out, r)
		}
	}
	return out, false
}

// cmpNeg compares x with -a lexicographically.
func cmpNeg(x, a []int64) int {
	for k, v := range x {
		if w := -a[k]; v != w {
			if v < w {
				return -1
			}
			return 1
		}
	}
	return 0
}

type rowKind int

const (
	rowKeep rowKind = iota
	rowTrue
	rowFalse
)

// normalize divides a row by the gcd g of its variable coefficients.
// For an inequality a·x + c >= 0 over integers, a·x is a multiple of g, so
// (a/g)·x + floor(c/g) >= 0 is equivalent (integer tightening). For an
// equality a·x + c = 0, g must divide c or there is no integer solution; the
// row is then scaled so that its first nonzero coefficient is positive.
func normalize(r *Constraint) rowKind {
	n := len(r.Coef) - 1
	var g int64
	for _, v := range r.Coef[:n] {
		g = intmath.Gcd(g, v)
	}
	c := r.Coef[n]
	if g == 0 {
		if (r.Eq && c == 0) || (!r.Eq && c >= 0) {
			return rowTrue
		}
		return rowFalse
	}
	if r.Eq {
		if c%g != 0 {
			return rowFalse
		}
		first := int64(1)
		for _, v := range r.Coef[:n] {
			if v != 0 {
				first = sign(v)
				break
			}
		}
		g *= first
		for i := range r.Coef {
			r.Coef[i] /= g
		}
		return rowKeep
	}
	if g > 1 {
		for i := range r.Coef[:n] {
			r.Coef[i] /= g
		}
		r.Coef[n] = intmath.FloorDiv(c, g)
	}
	return rowKeep
}

// cmpRow orders equalities first, then by coefficients.
func cmpRow(a, b Constraint) int {
	if a.Eq != b.Eq {
		if a.Eq {
			return -1
		}
		return 1
	}
	return slices.Compare(a.Coef, b.Coef)
}

// Intersect returns s ∩ t. It panics if the spaces differ.
func (s *Set) Intersect(t *Set) *Set {
	mustSameSpace(s.space, t.space)
	if s.empty || t.empty {
		return &Set{space: s.space.clone(), empty: true}
	}
	rows := make([]Constraint, 0, len(s.rows)+len(t.rows))
	for _, r := range append(slices.Clip(s.rows), t.rows...) {
		rows = append(rows, Constraint{Eq: r.Eq, Coef: slices.Clone(r.Coef)})
	}
	return build(s.space.clone(), rows)
}

// With returns s with the extra constraints cs (see NewSet).
func (s *Set) With(cs ...Constraint) (*Set, error) {
	t, err := NewSet(s.space, cs...)
	if err != nil {
		return nil, err
	}
	return s.Intersect(t), nil
}

func mustSameSpace(a, b Space) {
	if !a.Equal(b) {
		panic(fmt.Sprintf("poly: space mismatch: %v vs %v", a, b))
	}
}

// Contains reports whether the integer point (x, p) satisfies every
// constraint of s; point holds the dims then the params.
func (s *Set) Contains(point []int64) (ok bool, err error) {
	defer catch(&err)
	if len(point) != s.space.NVar() {
		panic("poly: Contains: wrong point length")
	}
	if s.empty {
		return false, nil
	}
	for _, r := range s.rows {
		v := eval(r.Coef, point)
		if (r.Eq && v != 0) || (!r.Eq && v < 0) {
			return false, nil
		}
	}
	return true, nil
}

// eval returns coef·(point, 1) with checked arithmetic.
func eval(coef, point []int64) int64 {
	v := coef[len(coef)-1]
	for i, x := range point {
		v = add(v, mul(coef[i], x))
	}
	return v
}

// Union is a disjunction of Sets over one Space. An empty Sets slice is the
// empty set.
type Union struct {
	Space Space
	Sets  []*Set
}

// Intersect returns the pairwise intersections of the disjuncts.
func (u *Union) Intersect(v *Union) *Union {
	mustSameSpace(u.Space, v.Space)
	out := &Union{Space: u.Space.clone()}
	for _, a := range u.Sets {
		for _, b := range v.Sets {
			if c := a.Intersect(b); !c.empty {
				out.Sets = append(out.Sets, c)
			}
		}
	}
	return out
}

// IsEmpty reports whether no disjunct has an integer point (params free).
func (u *Union) IsEmpty() (bool, error) {
	for _, s := range u.Sets {
		e, err := s.IsEmpty()
		if err != nil || !e {
			return e, err
		}
	}
	return true, nil
}

// Contains reports whether some disjunct contains point.
func (u *Union) Contains(point []int64) (bool, error) {
	for _, s := range u.Sets {
		ok, err := s.Contains(point)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}
