package rfactor

import (
	"errors"
	"fmt"
	"strings"

	"nestor/assoc"
	"nestor/ir"
)

// Options are the semantics under which updates are proved associative.
type Options struct {
	// Wrap: signed arithmetic wraps around (-fwrapv); otherwise it is
	// assumed never to overflow, as C compilers assume.
	Wrap bool
	// Real: float arithmetic may be reassociated (--assoc-math, in the
	// spirit of -fassociative-math); otherwise only operators exact in
	// IEEE arithmetic, NaN included (fmin, fmax), are: float sums never.
	Real bool
	// Tables gives assoc's table of a type; nil uses the embedded ones.
	Tables func(assoc.Type) (*assoc.Table, error)
}

// Decision is what Factor decided for one reduction loop.
type Decision struct {
	Loop      *Loop
	Reduction *ir.Reduction // nil: the loop stays sequential
	Match     *assoc.Match
	Why       string // why it stays sequential, or what it factors
}

// Factor finds the reduction loops of p (see Find) and asks assoc to
// recognize each update; a recognized one gets the ir.Reduction
// that prints it factored. Loops that do not qualify come back with the
// reason and no Reduction.
func Factor(p *ir.Program, parallel func(level int) bool, opt Options) []Decision {
	loops, rejects := Find(p, parallel)
	var out []Decision
	for _, r := range rejects {
		out = append(out, Decision{Loop: &Loop{Level: r.Level, Stmts: r.Stmts, Pos: p.Stmts[r.Stmts[0]].Pos.String()},
			Why: "no reduction loop: " + r.Why})
	}
	for _, l := range loops {
		out = append(out, factor(p, l, opt))
	}
	return out
}

func factor(p *ir.Program, l *Loop, opt Options) Decision {
	d := Decision{Loop: l}
	tp, vars, invariant, err := l.Tuple(p)
	if err != nil {
		d.Why = "not recognized: " + err.Error()
		return d
	}
	m, err := assoc.Recognize(tp, assoc.MatchOptions{Wrap: opt.Wrap, Real: opt.Real, Invariant: invariant, Tables: opt.Tables, Synthesize: true})
	if err != nil {
		var me *assoc.MatchError
		switch {
		case errors.As(err, &me) && me.NotAssociative:
			d.Why = fmt.Sprintf("not associative: %s (%s)", me.Operator, me.Reason)
		case errors.As(err, &me):
			d.Why = fmt.Sprintf("not recognized: %s: %s", me.Operator, me.Reason)
		default:
			d.Why = fmt.Sprintf("not recognized: %s; update %s", strings.TrimPrefix(err.Error(), "assoc: "), tp)
		}
		return d
	}
	d.Match = m
	r, err := reduction(p, l, m, vars, tp)
	if err != nil {
		d.Why = "cannot print the operator: " + err.Error()
		return d
	}
	d.Reduction = r
	kind := "commutative"
	if !m.Commutative {
		kind = "not commutative: combined in thread order"
	}
	ident := "identity"
	if m.Identity == nil {
		ident = "no identity: each thread starts from its first iteration"
	}
	d.Why = fmt.Sprintf("factored: operator %s (%s; %s)", m.Operator.Tuple.String(), kind, ident)
	return d
}

// reduction builds the ir.Reduction of a recognized loop.
func reduction(p *ir.Program, l *Loop, m *assoc.Match, vars map[string]ir.Expr, update assoc.Tuple) (*ir.Reduction, error) {
	n := len(l.Vars)
	r := &ir.Reduction{Level: l.Level, Stmts: l.Stmts, Vars: l.Vars, Temps: l.Temps,
		LastPrivate: l.LastPrivate, Accesses: l.Accesses}
	list := func(es []*assoc.Expr) ([]ir.Expr, error) {
		if es == nil {
			return nil, nil
		}
		if len(es) != n {
			return nil, fmt.Errorf("%d expressions for %d variables", len(es), n)
		}
		out := make([]ir.Expr, n)
		for i, e := range es {
			x, err := irExpr(e, n, vars)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	var err error
	if r.Combine, err = list(m.Operator.Tuple.Elems); err != nil {
		return nil, err
	}
	if r.Identity, err = list(m.Identity); err != nil {
		return nil, err
	}
	if r.Lift, err = list(m.Y); err != nil {
		return nil, err
	}
	if r.Identity == nil && r.Lift == nil {
		return nil, fmt.Errorf("neither an identity nor the value folded in")
	}
	ring := ringOnly(m.Operator.Tuple) && ringOnly(update)
	for _, v := range l.Vars {
		t := p.Arrays[v.Array].Elem
		r.Unsigned = append(r.Unsigned, ring && (t == ir.Int || t == ir.Long))
	}
	r.Clause = clause(p, l, m)
	r.Commutative = m.Commutative
	return r, nil
}

// ringOnly reports whether t reaches every x_i and y_j only through +,
// − and * (and negation): then t computes the same modulo 2^n in the
// unsigned type of n bits as in the signed one (see
// ir.Reduction.Unsigned). Both the operator and the update (in x_i
// and the program's values) must be.
func ringOnly(t assoc.Tuple) bool {
	var ring func(e *assoc.Expr) bool
	ring = func(e *assoc.Expr) bool {
		switch e.Op {
		case assoc.OpAdd, assoc.OpSub, assoc.OpMul, assoc.OpNeg:
			for _, a := range e.Args {
				if !ring(a) {
					return false
				}
			}
			return true
		case assoc.OpX, assoc.OpY:
			return true
		}
		return !e.Uses(assoc.OpX) && !e.Uses(assoc.OpY)
	}
	for _, e := range t.Elems {
		if !ring(e) {
			return false
		}
	}
	return true
}

// clause returns the operator of OpenMP's reduction clause that does
// exactly this reduction: one integer variable, an identity, and the
// operator x op y for a commutative op OpenMP knows, + and * only on
// unsigned types (and those narrower than int, which C computes in int).
func clause(p *ir.Program, l *Loop, m *assoc.Match) string {
	if len(l.Vars) != 1 || m.Identity == nil || !m.Commutative || !p.Arrays[l.Vars[0].Array].Elem.IsInteger() {
		return ""
	}
	e := m.Operator.Tuple.Elems[0]
	if len(e.Args) != 2 {
		return ""
	}
	a, b := e.Args[0], e.Args[1]
	xy := a.Op == assoc.OpX && b.Op == assoc.OpY || a.Op == assoc.OpY && b.Op == assoc.OpX
	if !xy {
		return ""
	}
	if t := p.Arrays[l.Vars[0].Array].Elem; (t == ir.Int || t == ir.Long) && (e.Op == assoc.OpAdd || e.Op == assoc.OpMul) {
		// The clause's partial sums would be signed: they may overflow
		// where the loop did not. The partial results of the factored
		// loop are unsigned instead (ir.Reduction.Unsigned).
		return ""
	}
	return map[assoc.Op]string{assoc.OpAdd: "+", assoc.OpMul: "*", assoc.OpMin: "min", assoc.OpMax: "max",
		assoc.OpBitAnd: "&", assoc.OpBitOr: "|", assoc.OpBitXor: "^"}[e.Op]
}
