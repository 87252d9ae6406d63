package expand

import (
	"fmt"
	"slices"

	"nestor/ir"
	"nestor/poly"
)

// Demotion is the inverse of scalar replacement: a live range of a scalar
// t that a programmer opened by reading an array element and closed by
// storing into that same element,
//
//	w = A[i][j];                        A[i][j] = A[i][j];   (dropped)
//	for (k = 0; k < j; k++)       →     for (k = 0; k < j; k++)
//	  w -= A[i][k] * A[k][j];             A[i][j] -= A[i][k] * A[k][j];
//	A[i][j] = w / A[j][j];              A[i][j] = A[i][j] / A[j][j];
//
// (ludcmp's factorization, which is then lu's), is rewritten to work on
// the element itself. The scalar's anti and output dependences between
// iterations, which forbid interchanging the loops around it, are gone;
// the element's are exact. The code generator's scalar replacement puts
// the element back in a register where the loops stay as they were.
//
// The rewrite keeps every value: between the kill (t = e) and the store
// (A[f] = e'), the last statement of the range, at the kill's depth in its
// loops, no statement reads or writes the element A[f] but through t
// (decided exactly: the element's subscripts equal to another access's
// has no integer point in that statement's domain), so the element may
// hold t's values instead of its old one, which only the kill reads, and
// the store writes the element's final value as before. The scalar and
// the element have one type, so storing t's values in the element rounds
// nothing. Only ranges inside loops are rewritten: outside every loop
// the scalar's dependences order nothing a schedule could change.
type Demotion struct {
	Scalar string // the scalar's name
	Array  string // the element's array
	Kill   int    // the statement that opens the range (t = e)
	Store  int    // the statement that closes it (A[f] = e')
	// Dropped reports that the kill copied the element into t (w =
	// A[i][j]): it became a self-assignment and was removed. StoreDropped
	// says the same of a store that copied t into the element (A[i][j] =
	// w).
	Dropped, StoreDropped bool
}

func (d Demotion) String() string {
	return fmt.Sprintf("%s works on the element of %s it is copied from and stored to", d.Scalar, d.Array)
}

// Demote returns p with every live range of a region-only scalar that
// Demotion's conditions allow rewritten to work on its array element,
// and the ranges it rewrote (statement indices of p). p is not modified.
func Demote(p *ir.Program) (*ir.Program, []Demotion, error) {
	q := p
	var done []Demotion
	var drop []int
	for a, arr := range p.Arrays {
		if arr.Rank() != 0 || !arr.RegionOnly {
			continue
		}
		ranges, err := coveredRanges(q, a)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range ranges {
			// Decided on the program as rewritten so far: a range demoted
			// before may have put accesses to its element in this one.
			d, ok, err := demotable(q, a, r)
			if err != nil {
				return nil, nil, err
			}
			if !ok {
				continue
			}
			q = demote(q, a, r, d)
			done = append(done, d)
			if d.Dropped {
				drop = append(drop, d.Kill)
			}
			if d.StoreDropped {
				drop = append(drop, d.Store)
			}
		}
	}
	if len(drop) > 0 {
		stmts := make([]*ir.Stmt, 0, len(q.Stmts)-len(drop))
		for k, s := range q.Stmts {
			if !slices.Contains(drop, k) {
				stmts = append(stmts, s)
			}
		}
		c := *q
		c.Stmts = stmts
		q = &c
	}
	return q, done, nil
}

// coveredRanges returns the live ranges of scalar a, each opened by a
// kill and holding the statements inside the kill's loops after it, or
// none when some statement lies outside every range (see liveRanges).
func coveredRanges(p *ir.Program, a int) ([]Expansion, error) {
	var ranges []Expansion
	var w *ir.Stmt
	for _, u := range mentions(p, a) {
		s := p.Stmts[u]
		if w == nil || !inside(s, w) {
			if !kills(s, a) {
				return nil, nil
			}
			w = s
			ranges = append(ranges, Expansion{Scalar: p.Arrays[a].Name, Old: a, Kill: u, Stmts: []int{u}, Level: s.Depth() - 1})
			continue
		}
		covered, err := implies(p, s, w)
		if err != nil || !covered {
			return nil, err
		}
		r := &ranges[len(ranges)-1]
		r.Stmts = append(r.Stmts, u)
	}
	return ranges, nil
}

// demotable reports whether range r of scalar a meets Demotion's
// conditions, with the demotion it makes.
func demotable(p *ir.Program, a int, r Expansion) (Demotion, bool, error) {
	if len(r.Stmts) < 2 {
		return Demotion{}, false, nil
	}
	kill, store := p.Stmts[r.Kill], p.Stmts[r.Stmts[len(r.Stmts)-1]]
	d := kill.Depth()
	// Outside every loop the scalar's dependences order nothing a
	// schedule could change, and a reduction into a scalar is what rfactor
	// factors: such a range stays.
	if d == 0 || store.Depth() != d || !ir.SameLoops(kill, store, d) || store.Op != ir.Assign || len(store.Domain.Divs) > 0 {
		return Demotion{}, false, nil
	}
	// The store runs wherever the kill runs (the range's statements run
	// only there): otherwise the element would keep t's value where the
	// original kept its own.
	if every, err := implies(p, kill, store); err != nil || !every {
		return Demotion{}, false, err
	}
	w := store.Accesses[0]
	arr := p.Arrays[w.Array]
	if w.Array == a || arr.Rank() == 0 || arr.Elem != p.Arrays[a].Elem || len(arr.Members) > 0 {
		return Demotion{}, false, nil
	}
	elem := w.Index
	// Every statement from the kill to the store, in the range or not,
	// touches the element only through t (the kill may read it: its old
	// value is still there).
	path := kill.Path(d - 1)
	for k, s := range p.Stmts {
		if !s.In(path) || s.Beta[d] <= kill.Beta[d] && k != r.Kill || s.Beta[d] > store.Beta[d] {
			continue
		}
		for n, acc := range s.Accesses {
			if acc.Array != w.Array || k == r.Kill && !acc.Write || s == store && n == 0 {
				continue
			}
			hits, err := mayTouch(p, s, acc.Index, elem)
			if err != nil || hits {
				return Demotion{}, false, err
			}
		}
	}
	dropped := len(kill.Accesses) == 2 && !kill.Accesses[1].Write && kill.Accesses[1].Array == w.Array &&
		slices.EqualFunc(kill.Accesses[1].Index, elem, ir.Aff.Equal) && isLoad(kill.RHS, 1)
	storeDropped := len(store.Accesses) == 2 && store.Accesses[1].Array == a && isLoad(store.RHS, 1)
	return Demotion{Scalar: p.Arrays[a].Name, Array: arr.Name, Kill: r.Kill, Store: r.Stmts[len(r.Stmts)-1], Dropped: dropped, StoreDropped: storeDropped}, true, nil
}

// isLoad reports whether e is the load of access k, perhaps converted to
// its own type.
func isLoad(e ir.Expr, k int) bool {
	if c, ok := e.(*ir.Cast); ok && c.T == c.X.Type() {
		e = c.X
	}
	l, ok := e.(*ir.Load)
	return ok && l.Access == k
}

// mayTouch reports whether the subscripts index of an access of s can
// name the element elem (subscripts over the counters s shares with the
// kill) at some point of s's domain: false only when that has no integer
// point (an undecided question answers true).
func mayTouch(p *ir.Program, s *ir.Stmt, index, elem []ir.Aff) (bool, error) {
	if len(index) != len(elem) {
		return true, nil
	}
	sp, base := domainRows(p, s)
	np := len(p.Params)
	for k := range index {
		x, y := row(index[k], s, np), row(elem[k], s, np)
		for c := range x {
			x[c] -= y[c]
		}
		base = append(base, poly.Constraint{Eq: true, Coef: x})
	}
	set, err := poly.NewSet(sp, base...)
	if err != nil {
		return true, nil
	}
	empty, err := set.IsEmpty()
	if err != nil {
		return true, nil
	}
	return !empty, nil
}

// demote returns q with range r of scalar a working on the element the
// store writes: every access to a becomes an access to that element (its
// subscripts over the kill's counters, which every statement of the
// range shares).
func demote(q *ir.Program, a int, r Expansion, d Demotion) *ir.Program {
	w := q.Stmts[d.Store].Accesses[0]
	out := *q
	out.Stmts = retarget(q, r.Stmts, a, func(s *ir.Stmt, acc *ir.Access) *ir.Access {
		index := make([]ir.Aff, len(w.Index))
		for e, x := range w.Index {
			y := x.Clone()
			y.Iter = append(y.Iter, make([]int64, s.Depth()-len(y.Iter))...)
			index[e] = y
		}
		return &ir.Access{Array: w.Array, Write: acc.Write, Index: index}
	})
	return &out
}
