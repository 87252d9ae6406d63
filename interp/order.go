package interp

import (
	"fmt"
	"nestor/internal/intmath"
	"slices"

	"nestor/ir"
)

// Instances calls f(stmt, iter) for every instance of every statement of p
// at params, in the original execution order (ir.Less), and stops at the
// first error. stmt indexes p.Stmts; iter holds the statement's counters,
// outermost first, and is reused: f must not keep it.
func Instances(p *ir.Program, params []int64, f func(stmt int, iter []int64) error) error {
	if err := checkParams(p, params); err != nil {
		return err
	}
	w := &walker{p: p, params: params, f: f}
	depth := 0
	for _, s := range p.Stmts {
		depth = max(depth, s.Depth())
		w.bounds = append(w.bounds, boundCons(s))
	}
	w.iter = make([]int64, depth)
	order := make([]int, len(p.Stmts))
	for k := range order {
		order[k] = k
	}
	return w.walk(0, order)
}

// boundCons returns, per loop k of s, the constraints whose innermost
// counter is k and that use no local: those that bound counter k given the
// outer counters.
func boundCons(s *ir.Stmt) [][]ir.Constraint {
	bs := make([][]ir.Constraint, s.Depth())
	for _, c := range s.Domain.Cons {
		k := c.Innermost()
		if k >= 0 && !slices.ContainsFunc(c.Local, func(x int64) bool { return x != 0 }) {
			bs[k] = append(bs[k], c)
		}
	}
	return bs
}

type walker struct {
	p      *ir.Program
	params []int64
	f      func(int, []int64) error
	bounds [][][]ir.Constraint // per statement, per loop
	iter   []int64             // the current counters; iter[:k] are set at depth k
}

// walk runs the children at depth k of the loop whose statements are
// stmts, with the outer counters iter[:k] set: each a statement of depth
// k, or the loop k that its statements share.
func (w *walker) walk(k int, stmts []int) error {
	for _, run := range ir.Children(stmts, func(st int) *ir.Stmt { return w.p.Stmts[st] }, k) {
		if s := w.p.Stmts[run[0]]; s.Depth() == k {
			if len(run) > 1 {
				return fmt.Errorf("interp: stmt %s and a loop share position %v", s.Name, s.Path(k))
			}
			if err := w.leaf(run[0]); err != nil {
				return err
			}
			continue
		}
		if err := w.loop(k, run); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) leaf(stmt int) error {
	s := w.p.Stmts[stmt]
	iter := w.iter[:s.Depth()]
	in, ok := s.Domain.Contains(iter, w.params)
	if !ok {
		return &Error{Stmt: s, Point: slices.Clone(iter), Msg: "domain constraint overflows int64"}
	}
	if !in {
		return nil
	}
	return w.f(stmt, iter)
}

// loop runs loop k shared by stmts: the counter takes every value of the
// hull of the statements' ranges, in the loop's direction, and each value
// runs the statements whose range contains it.
func (w *walker) loop(k int, stmts []int) error {
	type rng struct {
		stmt   int
		lo, hi int64
	}
	var rs []rng
	lo, hi := int64(0), int64(-1)
	for _, st := range stmts {
		l, h, err := w.bound(st, k)
		if err != nil {
			return err
		}
		if l > h {
			continue
		}
		if len(rs) == 0 {
			lo, hi = l, h
		}
		lo, hi = min(lo, l), max(hi, h)
		rs = append(rs, rng{st, l, h})
	}
	if len(rs) == 0 {
		return nil
	}
	dir := w.p.Stmts[stmts[0]].Dir[k]
	sub := make([]int, 0, len(rs))
	for n := uint64(0); n <= uint64(hi-lo); n++ {
		v := lo + int64(n)
		if dir < 0 {
			v = hi - int64(n)
		}
		sub = sub[:0]
		for _, r := range rs {
			if r.lo <= v && v <= r.hi {
				sub = append(sub, r.stmt)
			}
		}
		w.iter[k] = v
		if err := w.walk(k+1, sub); err != nil {
			return err
		}
	}
	return nil
}

// bound returns the range of counter k of statement st at the current
// outer counters. A constraint a·i_k + r ≥ 0 gives i_k ≥ ⌈-r/a⌉ when a > 0
// and i_k ≤ ⌊r/-a⌋ when a < 0; an equality gives both.
func (w *walker) bound(st, k int) (lo, hi int64, err error) {
	s := w.p.Stmts[st]
	var hasLo, hasHi bool
	lower := func(x int64) {
		if !hasLo || x > lo {
			lo = x
		}
		hasLo = true
	}
	upper := func(x int64) {
		if !hasHi || x < hi {
			hi = x
		}
		hasHi = true
	}
	w.iter[k] = 0 // r is the constraint at i_k = 0
	for _, c := range w.bounds[st][k] {
		r, ok := c.Eval(w.iter[:s.Depth()], w.params, nil)
		if !ok {
			return 0, 0, &Error{Stmt: s, Point: slices.Clone(w.iter[:k]),
				Msg: fmt.Sprintf("bound of loop %s overflows int64", s.Iters[k])}
		}
		if a := c.Iter[k]; a > 0 {
			lower(intmath.CeilDiv(-r, a))
			if c.Eq {
				upper(intmath.FloorDiv(-r, a))
			}
		} else {
			upper(intmath.FloorDiv(r, -a))
			if c.Eq {
				lower(intmath.CeilDiv(r, -a))
			}
		}
	}
	switch {
	case !hasLo:
		err = &Error{Stmt: s, Point: slices.Clone(w.iter[:k]), Msg: fmt.Sprintf("loop %s has no lower bound", s.Iters[k])}
	case !hasHi:
		err = &Error{Stmt: s, Point: slices.Clone(w.iter[:k]), Msg: fmt.Sprintf("loop %s has no upper bound", s.Iters[k])}
	}
	return lo, hi, err
}
