package poly

import (
	"nestor/internal/intmath"
	"slices"
)

// ProjectOutRational eliminates set dimension d and returns the rational
// shadow of s in the space without d: the set of integer points (x', p) for
// which some RATIONAL x_d makes (x, p) satisfy the rows of s. This contains
// the integer projection and may be strictly larger. exact reports that the
// result is proved equal to the integer projection.
//
// Equalities first: if an equality has coefficient ±1 on x_d, then
// x_d = ∓(rest) is an integer affine expression; substituting it into every
// other row is exact over the integers (exact = true). If only equalities with
// |a| > 1 involve x_d, the one with the smallest |a| is used to eliminate x_d
// from the other rows by scaling them by |a| (rational elimination, exact only
// over Q: the congruence a | rest is lost), and the equality is dropped.
//
// Otherwise Fourier–Motzkin: split the inequalities into lower bounds
// l: a·x_d + L >= 0 (a > 0), upper bounds u: -b·x_d + U >= 0 (b > 0), and
// rows without x_d. The shadow is the rows without x_d plus, for each pair,
// b·L + a·U >= 0 (from -L/a <= x_d <= U/b), each normalized by its gcd with
// the constant tightened by floor (exact for integer points of the combined
// row). If every a = 1 (or every b = 1), the shadow is exact over the
// integers: x_d = max(-L) is an integer and satisfies every upper bound.
func (s *Set) ProjectOutRational(d int) (out *Set, exact bool, err error) {
	defer catch(&err)
	nd := s.space.NDim()
	if d < 0 || d >= nd {
		panic("poly: ProjectOutRational: dimension out of range")
	}
	sp := s.space.clone()
	sp.Dims = slices.Delete(sp.Dims, d, d+1)
	if s.empty {
		return &Set{space: sp, empty: true}, true, nil
	}
	drop := func(c []int64) []int64 { return slices.Delete(slices.Clone(c), d, d+1) }

	// Equality elimination.
	pivot := -1
	for i, r := range s.rows {
		if r.Eq && r.Coef[d] != 0 && (pivot < 0 || abs(r.Coef[d]) < abs(s.rows[pivot].Coef[d])) {
			pivot = i
		}
	}
	if pivot >= 0 {
		e := s.rows[pivot].Coef
		a := e[d]
		var rows []Constraint
		for i, r := range s.rows {
			if i == pivot {
				continue
			}
			rows = append(rows, Constraint{Eq: r.Eq, Coef: drop(combineOut(r.Coef, e, d))})
		}
		return build(sp, rows), abs(a) == 1, nil
	}

	// Fourier–Motzkin.
	var lower, upper, rows []Constraint
	for _, r := range s.rows {
		switch {
		case r.Coef[d] > 0:
			lower = append(lower, r)
		case r.Coef[d] < 0:
			upper = append(upper, r)
		default:
			rows = append(rows, Constraint{Eq: r.Eq, Coef: drop(r.Coef)})
		}
	}
	unitLower, unitUpper := true, true
	for _, l := range lower {
		unitLower = unitLower && l.Coef[d] == 1
	}
	for _, u := range upper {
		unitUpper = unitUpper && u.Coef[d] == -1
	}
	for _, l := range lower {
		for _, u := range upper {
			rows = append(rows, Constraint{Coef: drop(combineOut(u.Coef, l.Coef, d))})
		}
	}
	return build(sp, rows), unitLower || unitUpper, nil
}

// combineOut returns a row without x_d from r and the pivot row e (e[d] != 0):
// |e_d|·r - sign(e_d)·r_d·e. If e is an equality this is exact over Q for any
// sign of r_d; if e is an inequality the caller must pass r and e with
// opposite signs at d so that both multipliers are non-negative.
func combineOut(r, e []int64, d int) []int64 {
	out := make([]int64, len(r))
	if r[d] == 0 {
		copy(out, r)
		return out
	}
	g := intmath.Gcd(r[d], e[d])
	f, h := abs(e[d])/g, mul(sign(e[d]), r[d]/g)
	for i := range r {
		out[i] = sub(mul(f, r[i]), mul(h, e[i]))
	}
	return out
}

// RemoveRedundant returns s without the inequalities implied by the others
// over the integers. Inequality r(x) >= 0 is redundant when the rest of the
// system together with its integer negation -r(x) - 1 >= 0 has no integer
// point; rows are tested one at a time against the rows kept so far and the
// rows not yet tested, so the point set never changes. Equalities are kept.
func (s *Set) RemoveRedundant() (out *Set, err error) {
	defer catch(&err)
	if s.empty {
		return s, nil
	}
	nv := s.space.NVar()
	rows := slices.Clone(s.rows)
	for i := 0; i < len(rows); {
		r := rows[i]
		if r.Eq {
			i++
			continue
		}
		others := slices.Concat(rows[:i], rows[i+1:])
		negr := make([]int64, nv+1)
		for k, v := range r.Coef {
			negr[k] = neg(v)
		}
		negr[nv] = sub(negr[nv], 1)
		res, err := intMin(append(others, Constraint{Coef: negr}), nv, make([]int64, nv), nil)
		if err == ErrLimit {
			i++ // undecided: keeping the row is always correct
			continue
		}
		if err != nil {
			return nil, err
		}
		if res.Status == Empty {
			rows = others
			continue
		}
		i++
	}
	return &Set{space: s.space.clone(), rows: rows}, nil
}
