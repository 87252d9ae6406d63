package poly

import (
	"errors"
	"slices"
)

// Branch-and-bound limits. Exceeding either returns ErrLimit, never a guess.
const (
	// maxBranchNodes bounds the number of LPs solved by one integer query.
	maxBranchNodes = 20000
	// maxBranchDepth bounds the number of nested branchings on one path.
	maxBranchDepth = 256
)

// ErrLimit is returned when branch and bound exceeds its limits.
var ErrLimit = errors.New("poly: branch and bound limit exceeded")

// ErrUnbounded is returned by LexMin and LexMax when a dimension is unbounded.
var ErrUnbounded = errors.New("poly: unbounded")

// Status is the outcome of an integer optimization.
type Status int

const (
	// Empty: the set has no integer point.
	Empty Status = iota
	// Bounded: the optimum is attained; Result.Value and Result.Point hold it.
	Bounded
	// Unbounded: the objective has no finite optimum.
	Unbounded
)

func (s Status) String() string {
	return [...]string{"empty", "bounded", "unbounded"}[s]
}

// Result is the answer to an integer optimization.
type Result struct {
	Status Status
	Value  int64
	Point  []int64 // an optimal point (dims only when params were fixed)
}

// bnb is one branch-and-bound search minimizing obj·x over integer x.
type bnb struct {
	nv       int
	obj      []int64
	feasOnly bool // stop at the first integer point
	nodes    int
	found    bool
	best     int64
	point    []int64
	work     *Work // charged by every tableau of the search; nil: unlimited
}

// search solves the LP over rows and explores it as the root node.
func (b *bnb) search(rows []Constraint, depth int) (lpStatus, error) {
	t := newTableau(rows, b.nv)
	t.work = b.work
	if !t.phase1() {
		b.nodes++
		return lpInfeasible, nil
	}
	st, _, _ := t.phase2(b.obj)
	if st != lpOptimal {
		b.nodes++
		return st, nil
	}
	return st, b.node(t, depth)
}

// node explores the node whose optimal LP tableau is t. The LP optimum over a
// node is a lower bound on its integer optimum; since obj is integral at
// integer points the node is pruned when ceil(LP) >= best. Otherwise, if the
// LP vertex has a fractional x_j = v, every integer point satisfies
// x_j <= floor(v) or x_j >= ceil(v), and the two children cover all integer
// points of the node. Each child is the parent's tableau plus the branching
// bound, reoptimized by the dual simplex method (tableau.addBound).
func (b *bnb) node(t *tableau, depth int) error {
	b.nodes++
	if b.nodes > maxBranchNodes || depth > maxBranchDepth {
		return ErrLimit
	}
	x, val := t.solution()
	if b.found && val.ceil() >= b.best {
		return nil
	}
	j := slices.IndexFunc(x, func(v rat) bool { return !v.isInt() })
	if j < 0 {
		pt := make([]int64, b.nv)
		for i, v := range x {
			pt[i] = v.num
		}
		v := eval(append(slices.Clone(b.obj), 0), pt)
		if !b.found || v < b.best {
			b.found, b.best, b.point = true, v, pt
		}
		return nil
	}
	type branch struct{ dir, v int64 }
	first, second := branch{-1, x[j].floor()}, branch{1, x[j].ceil()}
	if x[j].sub(ri(x[j].floor())).cmp(mkrat(1, 2)) > 0 {
		first, second = second, first
	}
	for _, c := range []branch{first, second} {
		child := t.cloneWide()
		if !child.addBound(j, c.dir, c.v) {
			b.nodes++
			if b.nodes > maxBranchNodes {
				return ErrLimit
			}
		} else if err := b.node(child, depth+1); err != nil {
			return err
		}
		if b.feasOnly && b.found {
			break
		}
	}
	return nil
}

// intMin minimizes obj·x over integer points of rows. An LP relaxation that
// is unbounded over a rational polyhedron with an integer point means the
// integer problem is unbounded too (the integer hull has the same recession
// cone, Meyer 1974), so feasibility is decided first.
//
// Equalities are solved over the integers first (solveEqualities), so that
// branch and bound runs on an equality-free system in the lattice
// coordinates z, with x = X0 + M·z and objective (obj·M)·z + obj·X0.
func intMin(rows []Constraint, nv int, obj []int64, w *Work) (Result, error) {
	eqs := 0
	for _, r := range rows {
		if r.Eq {
			eqs++
		}
	}
	w.charge(int64(len(rows)+1) * int64(nv+1) * int64(eqs+1)) // each equality eliminated touches every row
	lat, ineqs, ok := solveEqualities(rows, nv)
	if !ok {
		return Result{Status: Empty}, nil
	}
	k := lat.k
	zobj := make([]int64, k)
	for j := range k {
		for i := range nv {
			zobj[j] = add(zobj[j], mul(obj[i], lat.m[i][j]))
		}
	}
	r, err := intMinIneq(ineqs, k, zobj, w)
	if err != nil || r.Status != Bounded {
		return r, err
	}
	r.Point = lat.apply(r.Point)
	r.Value = eval(append(slices.Clone(obj), 0), r.Point)
	return r, nil
}

// intMinIneq is intMin for rows without equalities.
func intMinIneq(rows []Constraint, nv int, obj []int64, w *Work) (Result, error) {
	f := &bnb{nv: nv, obj: make([]int64, nv), feasOnly: true, work: w}
	if _, err := f.search(rows, 0); err != nil {
		return Result{}, err
	}
	if !f.found {
		return Result{Status: Empty}, nil
	}
	if st, _, _ := lpMin(rows, nv, obj); st == lpUnbounded {
		return Result{Status: Unbounded}, nil
	}
	b := &bnb{nv: nv, obj: obj, found: true, point: f.point, best: eval(append(slices.Clone(obj), 0), f.point), work: w}
	if _, err := b.search(rows, 0); err != nil {
		return Result{}, err
	}
	return Result{Status: Bounded, Value: b.best, Point: b.point}, nil
}

// fixParams substitutes the parameter values into the rows of s, giving rows
// over the dims only: the constant becomes c + Σ b_k p_k.
func (s *Set) fixParams(params []int64) []Constraint {
	nd, np := s.space.NDim(), s.space.NParam()
	if len(params) != np {
		panic("poly: wrong number of parameter values")
	}
	out := make([]Constraint, len(s.rows))
	for i, r := range s.rows {
		c := make([]int64, nd+1)
		copy(c, r.Coef[:nd])
		c[nd] = eval(r.Coef[nd:], params)
		out[i] = Constraint{Eq: r.Eq, Coef: c}
	}
	return out
}

// IsEmpty reports whether s has no integer point (x, p), parameters being
// treated as variables.
func (s *Set) IsEmpty() (empty bool, err error) {
	return s.IsEmptyWork(nil)
}

// IsEmptyWork is IsEmpty charging its simplex pivots to w: it returns
// ErrLimit once w is spent.
func (s *Set) IsEmptyWork(w *Work) (empty bool, err error) {
	defer catch(&err)
	if s.empty {
		return true, nil
	}
	r, err := intMin(s.rows, s.space.NVar(), make([]int64, s.space.NVar()), w)
	return r.Status == Empty, err
}

// IsRationalEmpty reports whether s has no rational point (x, p), parameters
// being treated as variables. It decides the linear relaxation only: a set
// such as { [i] : 1 <= 2i <= 1 } is rationally non-empty but integer-empty.
// Rational emptiness implies integer emptiness. The relaxation is that of
// the constraints given to NewSet or the parser, before normalization
// tightened constants to the integer points; a Set computed by an operation
// (Intersect, projection, ...) is relaxed from its normalized rows.
func (s *Set) IsRationalEmpty() (empty bool, err error) {
	defer catch(&err)
	if s.relax != nil {
		return !lpFeasible(s.relax, s.space.NVar()), nil
	}
	if s.empty {
		return true, nil
	}
	return !lpFeasible(s.rows, s.space.NVar()), nil
}

// IsEmptyAt reports whether s has no integer point x for the given parameter
// values.
func (s *Set) IsEmptyAt(params []int64) (empty bool, err error) {
	defer catch(&err)
	if s.empty {
		return true, nil
	}
	nd := s.space.NDim()
	r, err := intMin(s.fixParams(params), nd, make([]int64, nd), nil)
	return r.Status == Empty, err
}

// Min returns the minimum over the integer points of s, for the given
// parameter values, of the affine form f·(x, p, 1) (f has one entry per dim,
// per param, and the constant). Result.Point holds the dims of a minimizer.
func (s *Set) Min(f []int64, params []int64) (res Result, err error) {
	return s.MinWork(f, params, nil)
}

// Max is Min for the maximum: max f = -min(-f).
func (s *Set) Max(f []int64, params []int64) (res Result, err error) {
	return s.MaxWork(f, params, nil)
}

// MinWork is Min charging its simplex pivots to w: it returns ErrLimit
// once w is spent.
func (s *Set) MinWork(f []int64, params []int64, w *Work) (res Result, err error) {
	defer catch(&err)
	return s.opt(f, params, 1, w)
}

// MaxWork is Max charging its simplex pivots to w.
func (s *Set) MaxWork(f []int64, params []int64, w *Work) (res Result, err error) {
	defer catch(&err)
	r, err := s.opt(f, params, -1, w)
	r.Value = neg(r.Value)
	return r, err
}

func (s *Set) opt(f []int64, params []int64, dir int64, w *Work) (Result, error) {
	nd := s.space.NDim()
	if len(f) != s.space.NVar()+1 {
		panic("poly: affine form has the wrong length")
	}
	if s.empty {
		return Result{Status: Empty}, nil
	}
	obj := make([]int64, nd)
	for i := range obj {
		obj[i] = mul(dir, f[i])
	}
	r, err := intMin(s.fixParams(params), nd, obj, w)
	if err != nil || r.Status != Bounded {
		return r, err
	}
	// The constant part of f, evaluated at params, shifts the value.
	r.Value = add(r.Value, mul(dir, eval(f[nd:], params)))
	return r, nil
}

// LexMin returns the lexicographically smallest integer point of s for the
// given parameter values, or ok == false if there is none. It minimizes x_0,
// fixes it with an equality, minimizes x_1, and so on; it returns
// ErrUnbounded if some dimension has no minimum.
func (s *Set) LexMin(params []int64) (point []int64, ok bool, err error) {
	defer catch(&err)
	return s.lex(params, 1, nil)
}

// LexMinWork is LexMin charging its simplex pivots to w: it gives up with
// ErrLimit once w is spent.
func (s *Set) LexMinWork(params []int64, w *Work) (point []int64, ok bool, err error) {
	defer catch(&err)
	return s.lex(params, 1, w)
}

// LexMax is LexMin for the lexicographically largest point.
func (s *Set) LexMax(params []int64) (point []int64, ok bool, err error) {
	defer catch(&err)
	return s.lex(params, -1, nil)
}

// lex minimizes dir·x lexicographically over the integer points of s at
// params. The equalities are solved first (x = X0 + M·z over integer z);
// then lexicographic branch and bound (lexBnB) runs on z with the forms
// f_i = dir·M_i·z, x's coordinates up to their constants. Where some
// relaxation is unbounded, lexSequential decides what LexMin means then.
func (s *Set) lex(params []int64, dir int64, w *Work) ([]int64, bool, error) {
	if s.empty {
		return nil, false, nil
	}
	nd := s.space.NDim()
	lat, ineqs, ok := solveEqualities(s.fixParams(params), nd)
	if !ok {
		return nil, false, nil
	}
	k := lat.k
	t := newTableau(ineqs, k)
	t.work = w
	if !t.phase1() {
		return nil, false, nil
	}
	b := &lexBnB{}
	for i := range nd {
		f := make([]int64, k)
		for j := range k {
			f[j] = mul(dir, lat.m[i][j])
		}
		if !allZero(f) { // else x_i is fixed by the equalities
			b.forms = append(b.forms, f)
		}
	}
	if err := b.node(t, 0); err == ErrUnbounded {
		return lexSequential(lat, ineqs, b.forms)
	} else if err != nil {
		return nil, false, err
	}
	if !b.found {
		return nil, false, nil
	}
	return lat.apply(b.point), true, nil
}

// lexSequential is the lexicographic minimum by definition: minimize f_0
// over the integer points, fix it, minimize f_1, and so on; ErrUnbounded
// when some f_i has no minimum. Branch and bound runs once per form, so
// lex uses it only when a relaxation is unbounded, where the
// lexicographic branch and bound cannot tell an unbounded minimum from an
// unbounded relaxation off the minimum's path.
func lexSequential(lat *lattice, ineqs []Constraint, forms [][]int64) ([]int64, bool, error) {
	k := lat.k
	rows := slices.Clip(ineqs)
	var z []int64
	for _, f := range forms {
		r, err := intMinIneq(rows, k, f, nil)
		if err != nil {
			return nil, false, err
		}
		switch r.Status {
		case Empty:
			return nil, false, nil
		case Unbounded:
			return nil, false, ErrUnbounded
		}
		z = r.Point
		fix := make([]int64, k+1)
		for j, c := range f {
			fix[j] = c
		}
		fix[k] = neg(r.Value)
		rows = append(rows, Constraint{Coef: fix}, Constraint{Coef: negated(fix)})
	}
	if z == nil { // no form: only emptiness is left
		r, err := intMinIneq(rows, k, make([]int64, k), nil)
		if err != nil || r.Status == Empty {
			return nil, false, err
		}
		z = r.Point
	}
	return lat.apply(z), true, nil
}

func negated(c []int64) []int64 {
	out := make([]int64, len(c))
	for i, v := range c {
		out[i] = neg(v)
	}
	return out
}

// lexBnB is a lexicographic branch and bound: it finds the integer point
// z minimizing (f_0·z, f_1·z, …) lexicographically, where the forms f_i
// determine z (they do: M has full column rank).
//
// At each node the rational lexicographic minimum r of the forms over the
// node's polyhedron comes from one tableau (tableau.lexmin); every integer
// point of the node is ≥ r lexicographically, so the node is pruned when
// r cannot beat the incumbent. Otherwise, with i the first form whose
// value r_i is fractional, every integer point has f_i ≤ ⌊r_i⌋ or
// f_i ≥ ⌈r_i⌉. The child f_i ≥ ⌈r_i⌉ is searched first: only it can keep
// the integral prefix r_0 … r_{i−1}, so it usually holds the answer, after
// which the other child is pruned at its root. When no form is fractional
// r is the node's integer lexmin (integral forms make z integral: x is).
type lexBnB struct {
	forms [][]int64
	nodes int
	found bool
	best  []int64 // the incumbent's form values
	point []int64 // the incumbent
}

// errLexInternal reports a broken invariant of lexBnB: our bug.
var errLexInternal = errors.New("poly: lexmin: integral coordinates at a fractional point (internal error)")

func (b *lexBnB) node(t *tableau, depth int) error {
	b.nodes++
	if b.nodes > maxBranchNodes || depth > maxBranchDepth {
		return ErrLimit
	}
	r, ok := t.lexmin(b.forms)
	if !ok {
		return ErrUnbounded
	}
	if b.found && !lexBelow(r, b.best) {
		return nil
	}
	i := slices.IndexFunc(r, func(v rat) bool { return !v.isInt() })
	if i < 0 {
		x, _ := t.solution()
		pt := make([]int64, len(x))
		for j, v := range x {
			if !v.isInt() {
				return errLexInternal
			}
			pt[j] = v.num
		}
		b.found, b.point, b.best = true, pt, make([]int64, len(r))
		for j, v := range r {
			b.best[j] = v.num
		}
		return nil
	}
	for _, c := range [2]struct{ dir, v int64 }{{1, r[i].ceil()}, {-1, r[i].floor()}} {
		child := t.cloneWide()
		child.frozen = nil
		clear(child.a[child.m]) // a zero objective is dual feasible
		child.d[child.m] = 1
		if !child.addForm(b.forms[i], c.dir, c.v) {
			b.nodes++
			continue
		}
		if err := b.node(child, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// lexBelow reports whether an integer vector y ≥ r (lexicographically)
// can be lexicographically smaller than best. At the first position i
// where r differs from best (r_j = best_j before it), such a y has the
// same prefix and y_i ≥ r_i: if r_i > best_i it is above best; if r_i <
// best_i, y_i < best_i may hold, or y_i = best_i > r_i with the rest free.
func lexBelow(r []rat, best []int64) bool {
	for i, v := range r {
		if c := v.cmp(ri(best[i])); c != 0 {
			return c < 0
		}
	}
	return false
}

func allZero(xs []int64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}
