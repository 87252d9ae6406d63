package ir

import (
	"nestor/internal/intmath"
	"slices"
)

// Aff is the affine form
//
//	Const + Σ Iter[k]·i_k + Σ Param[p]·n_p + Σ Local[l]·q_l
//
// over the loop counters i of a statement (outermost first), the program's
// parameters n, and the local (floor-division) variables q of a domain.
// Forms over parameters only (array sizes, the context) have empty Iter and
// Local.
type Aff struct {
	Iter  []int64
	Param []int64
	Local []int64
	Const int64
}

// NewAff returns the zero form over d counters, np parameters and nl locals.
func NewAff(d, np, nl int) Aff {
	return Aff{Iter: make([]int64, d), Param: make([]int64, np), Local: make([]int64, nl)}
}

// Clone returns a deep copy of a.
func (a Aff) Clone() Aff {
	return Aff{Iter: slices.Clone(a.Iter), Param: slices.Clone(a.Param), Local: slices.Clone(a.Local), Const: a.Const}
}

// IsConst reports whether a has no variable terms.
func (a Aff) IsConst() bool {
	return allZero(a.Iter) && allZero(a.Param) && allZero(a.Local)
}

// Innermost returns the largest counter index with a nonzero coefficient, or
// -1 when a does not depend on any counter.
func (a Aff) Innermost() int {
	for k := len(a.Iter) - 1; k >= 0; k-- {
		if a.Iter[k] != 0 {
			return k
		}
	}
	return -1
}

// Neg returns −a.
func (a Aff) Neg() Aff {
	b := a.Clone()
	for _, xs := range [][]int64{b.Iter, b.Param, b.Local} {
		for k := range xs {
			xs[k] = -xs[k]
		}
	}
	b.Const = -b.Const
	return b
}

// Sub returns a − b, with the longer of their coefficient lists.
func (a Aff) Sub(b Aff) Aff {
	pad := func(x, y []int64) []int64 {
		out := make([]int64, max(len(x), len(y)))
		copy(out, x)
		for k, v := range y {
			out[k] -= v
		}
		return out
	}
	return Aff{Iter: pad(a.Iter, b.Iter), Param: pad(a.Param, b.Param), Local: pad(a.Local, b.Local), Const: a.Const - b.Const}
}

// Equal reports whether a and b are the same form (missing trailing
// coefficients count as zero).
func (a Aff) Equal(b Aff) bool {
	return a.Const == b.Const && eqPad(a.Iter, b.Iter) && eqPad(a.Param, b.Param) && eqPad(a.Local, b.Local)
}

// Eval returns the value of a at the given counters, parameters and locals.
// It reports false on int64 overflow.
func (a Aff) Eval(iter, param, local []int64) (int64, bool) {
	v := a.Const
	ok := true
	acc := func(cs, xs []int64) {
		for k, c := range cs {
			if c == 0 {
				continue
			}
			p, o1 := intmath.Mul(c, xs[k])
			s, o2 := intmath.Add(v, p)
			ok = ok && o1 && o2
			v = s
		}
	}
	acc(a.Iter, iter)
	acc(a.Param, param)
	acc(a.Local, local)
	return v, ok
}

func allZero(xs []int64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

func eqPad(a, b []int64) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	for k := range a {
		var y int64
		if k < len(b) {
			y = b[k]
		}
		if a[k] != y {
			return false
		}
	}
	return true
}

// Constraint is Aff ≥ 0, or Aff = 0 when Eq is set.
type Constraint struct {
	Aff
	Eq bool
}

// Div defines a local variable q = ⌊Num/Den⌋, Den > 0. Num may use counters,
// parameters and earlier locals.
type Div struct {
	Num Aff
	Den int64
}

// Domain is the set of counter values for which a statement executes: the
// points satisfying every constraint, with locals defined by Divs.
type Domain struct {
	Divs []Div
	Cons []Constraint
}

// Locals evaluates the domain's Div variables at the given point; it reports
// false on overflow.
func (d *Domain) Locals(iter, param []int64) ([]int64, bool) {
	loc := make([]int64, len(d.Divs))
	for l, dv := range d.Divs {
		n, ok := dv.Num.Eval(iter, param, loc)
		if !ok {
			return nil, false
		}
		loc[l] = intmath.FloorDiv(n, dv.Den)
	}
	return loc, true
}

// Contains reports whether the point (iter, param) is in the domain. The
// second result is false when evaluation overflowed int64.
func (d *Domain) Contains(iter, param []int64) (in, ok bool) {
	loc, ok := d.Locals(iter, param)
	if !ok {
		return false, false
	}
	for _, c := range d.Cons {
		v, ok := c.Eval(iter, param, loc)
		if !ok {
			return false, false
		}
		if v < 0 || (c.Eq && v != 0) {
			return false, true
		}
	}
	return true, true
}
