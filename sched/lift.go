package sched

import (
	"errors"
	"fmt"
	"math"
	"nestor/internal/intmath"
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/poly"
)

// Large constant sizes (#define N 4000) make the scheduler's Farkas
// systems overflow int64: the multipliers of a domain's rows are
// eliminated against their constants, and the simplex that follows
// multiplies them together (lu with N = 500 does; N = 300 does not). The
// same program with symbolic sizes has the sizes in parameter columns,
// where they stay coefficients 0 and ±1.
//
// So when Compute overflows, it schedules a lifted copy of the program:
// every constant term c with |c| > liftMin becomes sign(c)·(P + |c| − r),
// where P is a new parameter standing for r, the largest of a cluster of
// nearby magnitudes (within liftSpread of r: N − 1, N and N + 1 share
// one P, so that the offsets between them stay exact), under the context
// P ≥ liftMin + liftSpread (every lifted term keeps its sign; a context
// P ≥ r would bring r back into the Farkas systems). At P = r the lifted
// program is the original one, term for term: its dependences at P = r
// are the original dependences, and a schedule that respects them for
// every P of the context respects them at P = r. The schedule
// found is lowered back by substituting P = r (Lift.Lower), so nothing
// after the scheduler sees the new parameters. Lifting is sound whatever
// the clusters; they only decide how close the lifted problem is to the
// original one (nearby constants in one cluster keep their differences).

// liftMin is the magnitude above which a constant term is lifted. Loop
// offsets and stencil radii stay constants.
const liftMin = 8

// liftSpread is the largest distance between a cluster's magnitudes and
// its representative.
const liftSpread = 64

// Lift records the parameters a lifted program adds: parameter np+k
// stands for Values[k].
type Lift struct {
	np     int     // the original program's parameters
	Values []int64 // the value each new parameter stands for
}

// LiftConstants returns a copy of p in which every constant term of a
// domain constraint, a floor-division numerator or a subscript whose
// magnitude exceeds liftMin is expressed through a new parameter (see the
// comment above), and the Lift that lowers a schedule of the copy back to
// p. The copy shares p's arrays and bodies; its new parameters are
// appended after p's, with their contexts. It reports ok == false when p
// has no such constant.
func LiftConstants(p *ir.Program) (q *ir.Program, l *Lift, ok bool) {
	var mags []int64
	seen := map[int64]bool{}
	visit := func(a ir.Aff) {
		if m := intmath.Abs(a.Const); m > liftMin && !seen[m] && a.Const != math.MinInt64 {
			seen[m] = true
			mags = append(mags, m)
		}
	}
	forEachAff(p, visit)
	if len(mags) == 0 {
		return nil, nil, false
	}
	slices.Sort(mags)
	slices.Reverse(mags)
	l = &Lift{np: len(p.Params)}
	param := map[int64]int{} // magnitude → new parameter (index among the new ones)
	rep := map[int64]int64{} // magnitude → its cluster's representative
	for _, m := range mags {
		k := len(l.Values) - 1
		if k < 0 || l.Values[k]-m > liftSpread {
			l.Values = append(l.Values, m)
			k++
		}
		param[m], rep[m] = k, l.Values[k]
	}
	q = &ir.Program{Arrays: p.Arrays, Vars: p.Vars, Voided: p.Voided, Params: slices.Clone(p.Params)}
	names := p.Names()
	for k := range l.Values {
		name := fmt.Sprintf("_lift%d", k)
		for names[name] {
			name += "_"
		}
		names[name] = true
		q.Params = append(q.Params, ir.Param{Name: name, Type: ir.Long})
	}
	np := len(q.Params)
	lift := func(a ir.Aff) ir.Aff {
		b := a.Clone()
		b.Param = make([]int64, np)
		copy(b.Param, a.Param)
		if m := intmath.Abs(a.Const); m > liftMin && a.Const != math.MinInt64 {
			s := int64(1)
			if a.Const < 0 {
				s = -1
			}
			b.Param[l.np+param[m]] += s
			b.Const = s * (m - rep[m])
		}
		return b
	}
	for _, c := range p.Context {
		q.Context = append(q.Context, ir.Constraint{Aff: lift(c.Aff), Eq: c.Eq})
	}
	for k := range l.Values { // P ≥ liftMin + liftSpread
		c := ir.Constraint{Aff: ir.Aff{Param: make([]int64, np), Const: -(liftMin + liftSpread)}}
		c.Param[l.np+k] = 1
		q.Context = append(q.Context, c)
	}
	for _, s := range p.Stmts {
		t := *s
		t.Domain = ir.Domain{}
		for _, c := range s.Domain.Cons {
			t.Domain.Cons = append(t.Domain.Cons, ir.Constraint{Aff: lift(c.Aff), Eq: c.Eq})
		}
		for _, d := range s.Domain.Divs {
			t.Domain.Divs = append(t.Domain.Divs, ir.Div{Num: lift(d.Num), Den: d.Den})
		}
		t.Accesses = nil
		for _, a := range s.Accesses {
			b := *a
			b.Index = nil
			for _, x := range a.Index {
				b.Index = append(b.Index, lift(x))
			}
			t.Accesses = append(t.Accesses, &b)
		}
		q.Stmts = append(q.Stmts, &t)
	}
	return q, l, true
}

// forEachAff calls f on every affine form of p's statements and context
// whose constant LiftConstants may lift.
func forEachAff(p *ir.Program, f func(ir.Aff)) {
	for _, c := range p.Context {
		f(c.Aff)
	}
	for _, s := range p.Stmts {
		for _, c := range s.Domain.Cons {
			f(c.Aff)
		}
		for _, d := range s.Domain.Divs {
			f(d.Num)
		}
		for _, a := range s.Accesses {
			for _, x := range a.Index {
				f(x)
			}
		}
	}
}

// Lower returns sc, a schedule of the lifted program, as a schedule of the
// original one: each new parameter replaced by the value it stands for.
func (l *Lift) Lower(sc *Schedule) (*Schedule, error) {
	out := *sc
	out.Rows = make([][]ir.Aff, len(sc.Rows))
	for s, rows := range sc.Rows {
		out.Rows[s] = make([]ir.Aff, len(rows))
		for k, r := range rows {
			a := r.Clone()
			for j, v := range l.Values {
				if j := l.np + j; j < len(a.Param) && a.Param[j] != 0 {
					c, ok := mulAdd(a.Const, a.Param[j], v)
					if !ok {
						return nil, poly.ErrOverflow
					}
					a.Const = c
				}
			}
			if len(a.Param) > l.np {
				a.Param = a.Param[:l.np]
			}
			out.Rows[s][k] = a
		}
	}
	return &out, nil
}

// mulAdd returns c + a·v, false on int64 overflow.
func mulAdd(c, a, v int64) (int64, bool) {
	if a != 0 && (v > math.MaxInt64/intmath.Abs(a) || v < -math.MaxInt64/intmath.Abs(a)) {
		return 0, false
	}
	p := a * v
	if (p > 0 && c > math.MaxInt64-p) || (p < 0 && c < math.MinInt64+1-p) {
		return 0, false
	}
	return c + p, true
}

// computeLifted schedules p through its lifted copy (see LiftConstants):
// the dependences of the copy, Compute on it, and the schedule lowered.
// It returns the error of the first attempt when p has nothing to lift.
func computeLifted(p *ir.Program, opt Options, work *poly.Work, first error) (*Schedule, error) {
	q, l, ok := LiftConstants(p)
	if !ok {
		return nil, first
	}
	g, err := deps.Analyze(q)
	if err != nil {
		return nil, fmt.Errorf("%w (and with its constant sizes as parameters: %v)", first, err)
	}
	sc, err := compute(q, g, opt, work)
	if err != nil {
		if errors.Is(err, ErrNoSchedule) {
			return nil, err
		}
		return nil, fmt.Errorf("%w (and with its constant sizes as parameters: %v)", first, err)
	}
	sc, err = l.Lower(sc)
	if err != nil {
		return nil, err
	}
	sc.Lifted = len(l.Values)
	return sc, nil
}
