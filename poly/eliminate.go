package poly

import (
	"nestor/internal/intmath"
	"slices"
	"strconv"
	"strings"
)

// maxEliminateRows bounds the number of rows EliminateRational keeps while
// it eliminates; past it the elimination returns ErrLimit rather than run
// for minutes (Fourier–Motzkin can grow doubly exponentially).
const maxEliminateRows = 2000

// pruneAfter is the number of inequalities past which EliminateRational
// removes redundant rows (one small linear program per row) after an
// elimination step that made the system grow; below it, pruning costs
// more than the extra rows.
const pruneAfter = 64

// keepUnpruned is the number of rows up to which EliminateRational returns
// its result without removing redundant rows.
const keepUnpruned = 8

// EliminateRational returns the rational projection of the polyhedron
// { y ∈ Q^nv : rows } onto its first keep variables: constraints over
// (y_0 … y_keep−1, 1) whose rational solutions are exactly the points that
// extend to a rational solution of rows. Each row of rows has nv+1
// coefficients (the last the constant); variables keep … nv−1 are
// eliminated.
//
// Unlike ProjectOutRational it works over the rationals throughout, so it
// never tightens a constant (a row is divided by the gcd of all its entries,
// constant included): the eliminated variables need not be integers, as for
// Farkas multipliers. The kept variables' rows may be tightened by the
// caller when those variables are integers (NewSet does).
//
// Equalities are used first (Gaussian elimination, exact over Q); the
// inequalities then go through Fourier–Motzkin, always eliminating the
// variable whose elimination makes the fewest new rows. Duplicate rows and
// rows dominated by one with the same variable part are dropped at every
// step; once the system passes pruneAfter inequalities, a step that grows
// it is followed by redundancy removal by linear programming (a row is
// dropped when the others imply it over Q, see implied), and so is the
// result when it has more than keepUnpruned rows. A system found
// infeasible returns the single row −1 ≥ 0 (a small result may instead be
// contradictory rows). The result is sorted; it returns ErrLimit when the
// system grows past maxEliminateRows rows.
func EliminateRational(rows []Constraint, nv, keep int) (out []Constraint, err error) {
	return EliminateRationalWork(rows, nv, keep, nil)
}

// EliminateRationalWork is EliminateRational charging its work to w: it
// returns ErrLimit once w is spent.
func EliminateRationalWork(rows []Constraint, nv, keep int, w *Work) (out []Constraint, err error) {
	defer catch(&err)
	if keep < 0 || keep > nv {
		panic("poly: EliminateRational: keep out of range")
	}
	e := &eliminator{nv: nv, work: w}
	for _, r := range rows {
		if len(r.Coef) != nv+1 {
			panic("poly: EliminateRational: row of the wrong length")
		}
		if !e.add(Constraint{Eq: r.Eq, Coef: slices.Clone(r.Coef)}) {
			return falseRow(keep), nil
		}
	}
	if !e.gauss(keep) {
		return falseRow(keep), nil
	}
	if !e.fourierMotzkin(keep) {
		return falseRow(keep), nil
	}
	if err := e.err; err != nil {
		return nil, err
	}
	res := make([]Constraint, 0, len(e.rows))
	for _, r := range e.rows {
		res = append(res, Constraint{Eq: r.Eq, Coef: append(slices.Clone(r.Coef[:keep]), r.Coef[nv])})
	}
	empty := false
	if len(res) > keepUnpruned {
		res, empty = pruneRational(res, keep, w)
	}
	if empty {
		return falseRow(keep), nil
	}
	slices.SortFunc(res, cmpRow)
	return res, nil
}

func falseRow(n int) []Constraint {
	c := make([]int64, n+1)
	c[n] = -1
	return []Constraint{{Coef: c}}
}

// eliminator holds the rows of a rational elimination, normalized by
// normalizeRational, without duplicates: an inequality's variable part
// appears once, with the smallest constant (the strongest row).
type eliminator struct {
	nv   int
	rows []Constraint
	err  error
	work *Work // charged per coefficient combined and by pruning's LPs
}

// add normalizes r and adds it unless it is trivially true or dominated;
// it reports false when r is trivially false.
func (e *eliminator) add(r Constraint) bool {
	switch normalizeRational(&r) {
	case rowTrue:
		return true
	case rowFalse:
		return false
	}
	e.rows = append(e.rows, r)
	return true
}

// dedupe drops duplicate rows and inequalities dominated by another with
// the same variable part and a smaller constant.
func (e *eliminator) dedupe() {
	n := e.nv
	best := make(map[string]int, len(e.rows))
	out := e.rows[:0]
	for _, r := range e.rows {
		k := rowKey(r, n)
		if i, ok := best[k]; ok {
			if !r.Eq && r.Coef[n] < out[i].Coef[n] {
				out[i] = r
			}
			continue
		}
		best[k] = len(out)
		out = append(out, r)
	}
	e.rows = out
}

// rowKey identifies a row by its kind and variable part (and, for an
// equality, its constant).
func rowKey(r Constraint, n int) string {
	var b strings.Builder
	if r.Eq {
		b.WriteString("=")
		b.WriteString(strconv.FormatInt(r.Coef[n], 10))
	}
	for _, c := range r.Coef[:n] {
		b.WriteByte(',')
		b.WriteString(strconv.FormatInt(c, 10))
	}
	return b.String()
}

// gauss eliminates, with the equalities, every variable from keep on that
// an equality mentions; it reports false when the system is infeasible.
func (e *eliminator) gauss(keep int) bool {
	for {
		pi, pc := -1, -1
		for i, r := range e.rows {
			if !r.Eq {
				continue
			}
			for c := keep; c < e.nv; c++ {
				if a := r.Coef[c]; a != 0 && (pi < 0 || abs(a) < abs(e.rows[pi].Coef[pc])) {
					pi, pc = i, c
				}
			}
		}
		if pi < 0 {
			e.dedupe()
			return true
		}
		piv := e.rows[pi].Coef
		old := e.rows
		e.rows = nil
		for i, r := range old {
			if i == pi {
				continue
			}
			if !e.add(Constraint{Eq: r.Eq, Coef: combineOut(r.Coef, piv, pc)}) {
				return false
			}
		}
	}
}

// fourierMotzkin eliminates the variables from keep on from the
// inequalities (the equalities no longer mention them); it reports false
// when the system is infeasible.
func (e *eliminator) fourierMotzkin(keep int) bool {
	pruned := len(e.rows)
	for {
		best, bestCost := -1, 0
		var bl, bu int
		for c := keep; c < e.nv; c++ {
			l, u := 0, 0
			for _, r := range e.rows {
				switch {
				case r.Coef[c] > 0:
					l++
				case r.Coef[c] < 0:
					u++
				}
			}
			if l+u == 0 {
				continue
			}
			if cost := l*u - l - u; best < 0 || cost < bestCost {
				best, bestCost, bl, bu = c, cost, l, u
			}
		}
		if best < 0 {
			return true
		}
		var lower, upper []Constraint
		old := e.rows
		e.rows = make([]Constraint, 0, len(old)-bl-bu+bl*bu)
		for _, r := range old {
			switch {
			case r.Coef[best] > 0:
				lower = append(lower, r)
			case r.Coef[best] < 0:
				upper = append(upper, r)
			default:
				e.rows = append(e.rows, r)
			}
		}
		e.work.charge(int64(len(lower)) * int64(len(upper)) * int64(e.nv+1))
		for _, l := range lower {
			for _, u := range upper {
				if !e.add(Constraint{Coef: combineOut(u.Coef, l.Coef, best)}) {
					return false
				}
			}
		}
		e.dedupe()
		if n := len(e.rows); n > pruneAfter && n > pruned {
			var empty bool
			if e.rows, empty = pruneRational(e.rows, e.nv, e.work); empty {
				return false
			}
			pruned = len(e.rows)
		}
		if len(e.rows) > maxEliminateRows {
			e.err = ErrLimit
			return true
		}
	}
}

// normalizeRational divides r by the gcd of all its entries (the constant
// included, so that the rational points do not change) and gives an
// equality a positive first coefficient.
func normalizeRational(r *Constraint) rowKind {
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
	g = intmath.Gcd(g, c)
	if r.Eq {
		for _, v := range r.Coef[:n] {
			if v != 0 {
				g *= sign(v)
				break
			}
		}
	}
	if g != 1 {
		for i := range r.Coef {
			r.Coef[i] /= g
		}
	}
	return rowKeep
}

// pruneRational removes the inequalities of rows that the others imply
// over the rationals (see implied). It reports empty when the rows have no
// rational point. Equalities are kept.
func pruneRational(rows []Constraint, nv int, w *Work) (out []Constraint, empty bool) {
	if implied(rows, nv, falseRow(nv)[0], w) { // −1 ≥ 0: by the dual, cheaper
		return nil, true
	}
	out = slices.Clone(rows)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Eq {
			continue
		}
		others := slices.Concat(out[:i], out[i+1:])
		if implied(others, nv, out[i], w) {
			out = others
		}
	}
	return out, false
}

// implied reports whether the rational points of rows, a feasible
// system, all satisfy r: a·x + c ≥ 0. By the affine form of Farkas' lemma
// that holds exactly when a = Σ y_i·a_i and c ≥ Σ y_i·c_i for some y ≥ 0
// (free for an equality row). So it solves the dual
//
//	min Σ y_i·c_i  s.t.  Σ y_i·a_i = a, y ≥ 0,
//
// a linear program with one row per variable and one column per row: far
// smaller than the primal's tableau when rows outnumber variables. With
// r the row −1 ≥ 0 (a = 0, so y = 0 is feasible) it also decides
// feasibility: rows are infeasible exactly when some such y has
// Σ y_i·c_i < 0, so that the minimum is unbounded; implied then reports
// true.
func implied(rows []Constraint, nv int, r Constraint, w *Work) bool {
	ncol := 0
	for _, q := range rows {
		ncol++
		if q.Eq {
			ncol++
		}
	}
	w.charge(int64(nv+1) * int64(ncol+1)) // the dual's tableau, built before any pivot
	A := make([][]int64, nv)
	for j := range A {
		A[j] = make([]int64, ncol)
	}
	cost := make([]int64, ncol)
	col := 0
	for _, q := range rows {
		for s := int64(1); ; s = -1 {
			for j := range nv {
				A[j][col] = mul(s, q.Coef[j])
			}
			cost[col] = mul(s, q.Coef[nv])
			col++
			if !q.Eq || s < 0 {
				break
			}
		}
	}
	st, val := lpMinStd(A, r.Coef[:nv], cost, w)
	switch st {
	case lpUnbounded:
		return true // only when rows are infeasible
	case lpOptimal:
		return val.cmp(ri(r.Coef[nv])) <= 0
	}
	return false
}
