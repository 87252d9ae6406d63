package interp

import (
	"math"
	"slices"

	"nestor/ir"
)

// Count returns, per statement of p, the number of its instances at
// params: the points of its domain. A statement whose domain uses no
// local is counted with its innermost loop in closed form; one with
// locals tests every point of that loop against the whole domain. The
// counts saturate at math.MaxInt64.
func Count(p *ir.Program, params []int64) ([]int64, error) {
	if err := checkParams(p, params); err != nil {
		return nil, err
	}
	out := make([]int64, len(p.Stmts))
	for si, s := range p.Stmts {
		w := &walker{p: p, params: params, bounds: make([][][]ir.Constraint, len(p.Stmts)), iter: make([]int64, s.Depth())}
		w.bounds[si] = boundCons(s)
		closed := !slices.ContainsFunc(s.Domain.Cons, func(c ir.Constraint) bool {
			return slices.ContainsFunc(c.Local, func(x int64) bool { return x != 0 })
		})
		n, err := w.count(si, 0, closed)
		if err != nil {
			return nil, err
		}
		out[si] = n
	}
	return out, nil
}

// count returns the instances of statement st with its counters iter[:k]
// set.
func (w *walker) count(st, k int, closed bool) (int64, error) {
	s := w.p.Stmts[st]
	d := s.Depth()
	if k == d {
		in, ok := s.Domain.Contains(w.iter[:d], w.params)
		if !ok {
			return 0, &Error{Stmt: s, Point: slices.Clone(w.iter[:d]), Msg: "domain constraint overflows int64"}
		}
		if in {
			return 1, nil
		}
		return 0, nil
	}
	lo, hi, err := w.bound(st, k)
	if err != nil || lo > hi {
		return 0, err
	}
	if closed && k == d-1 {
		return hi - lo + 1, nil
	}
	var total int64
	for v := lo; ; v++ {
		w.iter[k] = v
		n, err := w.count(st, k+1, closed)
		if err != nil {
			return 0, err
		}
		if total > math.MaxInt64-n {
			return math.MaxInt64, nil
		}
		total += n
		if v == hi {
			break
		}
	}
	return total, nil
}
