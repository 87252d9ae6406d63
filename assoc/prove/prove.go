package prove

import (
	"fmt"
	"math"
	"strings"
	"time"

	"nestor/assoc"
)

// This file states the claims about an operator f (a Tuple: element i is
// the new x_i) and proves them with Z3: associativity, commutativity and
// the identity. Each claim is checked for validity: its negation is
// asserted, and unsat proves it; sat gives a counterexample. The leaves
// k and named values are free, so a proof holds for all their values.
//
// Every claim is conditioned on C's definedness (smt.go): in the default
// mode, on no signed int32/int64 overflow and no division by zero anywhere
// in either side. For associativity this is the C compiler's own
// assumption. It does not say that the regrouped evaluation is itself free
// of overflow: (-1 + INT_MAX) + 1 is defined, -1 + (INT_MAX + 1) is not. On
// two's complement hardware the two agree whenever the operator is also
// associative with Options.Wrap, which holds for + and *; generated code
// that regroups signed arithmetic should compute in the unsigned type.
//
// An identity must hold for every value of the types and every k, and its
// own evaluation must be defined: f(e, x) and f(x, e) may not overflow for
// any x (the factored code evaluates them where the original did not).

// query builds one SMT-LIB query.
type smtQuery struct {
	opts  Options
	b     strings.Builder
	types map[string]assoc.Type // declared symbols
	show  []string              // symbols a counterexample reports, in order
	fns   smtFuncs              // the arguments of exp and log
}

func newSMTQuery(opts Options) *smtQuery {
	return &smtQuery{opts: opts, types: map[string]assoc.Type{}}
}

// declare declares the constant name of type t, once.
func (q *smtQuery) declare(name string, t assoc.Type, show bool) {
	if _, ok := q.types[name]; ok {
		return
	}
	q.types[name] = t
	fmt.Fprintf(&q.b, "(declare-const %s %s)\n", name, q.opts.sort(t))
	if g := q.opts.guard(name, t); g != "true" {
		fmt.Fprintf(&q.b, "(assert %s)\n", g)
	}
	if show {
		q.show = append(q.show, name)
	}
}

// quantified returns the query's text for a claim under quantifiers:
// exp and log declared when used, with smtFuncs.quantifiedAxioms but
// none of the ground ones, which are instances at terms that may read
// the bound variables. Only unsat answers are then claims about the
// exponential and the logarithm.
func (q *smtQuery) quantified() string {
	if !q.fns.used() {
		return q.b.String()
	}
	return q.fns.declare() + q.fns.quantifiedAxioms() + q.b.String()
}

// tuple declares the symbols prefix0 … prefix{n-1} with the types of
// f's elements and returns their names.
func (q *smtQuery) tuple(prefix string, f assoc.Tuple) []string {
	names := make([]string, len(f.Elems))
	for i, e := range f.Elems {
		names[i] = fmt.Sprintf("%s%d", prefix, i)
		q.declare(names[i], e.Type, true)
	}
	return names
}

// consts declares the constants (k, named values) of es.
func (q *smtQuery) consts(es ...*assoc.Expr) error {
	syms, err := smtConsts(es...)
	for _, s := range syms {
		q.declare(s.name, s.typ, true)
	}
	return err
}

// define names the terms of a tuple's elements: name_i its value and
// name_i_d its definedness.
func (q *smtQuery) define(name string, f assoc.Tuple, ts []smtTerm) []smtTerm {
	out := make([]smtTerm, len(ts))
	for i, t := range ts {
		v, d := fmt.Sprintf("%s%d", name, i), fmt.Sprintf("%s%d_d", name, i)
		fmt.Fprintf(&q.b, "(define-fun %s () %s %s)\n(define-fun %s () Bool %s)\n", v, q.opts.sort(f.Elems[i].Type), t.val, d, t.def)
		out[i] = smtTerm{v, d}
	}
	return out
}

// apply translates f(a, b): x_i reads a[i], y_i reads b[i].
func (q *smtQuery) apply(f assoc.Tuple, a, b []string) ([]smtTerm, error) {
	tr := &smtTranslator{opts: q.opts, fns: &q.fns, leaf: func(e *assoc.Expr) (string, error) {
		switch e.Op {
		case assoc.OpX:
			return a[e.Index], nil
		case assoc.OpY:
			return b[e.Index], nil
		}
		return smtConstName(e), nil
	}}
	out := make([]smtTerm, len(f.Elems))
	for i, e := range f.Elems {
		t, err := tr.expr(e)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// equalAll returns the claim that the defined terms l and r are equal
// element by element, under their definedness (implied, when strict is
// false: the defs are hypotheses; required, when strict).
func smtEqualAll(l, r []smtTerm, strict bool) string {
	var defs, eqs []string
	for i := range l {
		defs = append(defs, l[i].def, r[i].def)
		eqs = append(eqs, "(= "+l[i].val+" "+r[i].val+")")
	}
	if strict {
		return smtAnd(append(defs, eqs...)...)
	}
	return "(=> " + smtAnd(defs...) + " " + smtAnd(eqs...) + ")"
}

// names returns the terms of symbols, always defined.
func smtNames(ns []string) []smtTerm {
	out := make([]smtTerm, len(ns))
	for i, n := range ns {
		out[i] = smtTerm{n, "true"}
	}
	return out
}

// encodeFor makes the prover's options choose the Int encoding when es
// allow it (Options.intsFor), until the returned function restores them.
func (p *Prover) encodeFor(es ...*assoc.Expr) func() {
	old := p.opts
	if !p.bitvectorsOnly {
		p.opts = p.opts.intsFor(es...)
	}
	return func() { p.opts = old }
}

// valid proves the claim (a Bool term over q's declarations) valid.
func (p *Prover) valid(q *smtQuery, claim string) (Result, error) {
	src := q.b.String()
	if q.fns.used() {
		src = q.fns.declare() + src + q.fns.axioms()
	}
	a, err := p.check(src+fmt.Sprintf("(assert (not %s))", claim), q.show)
	if err != nil {
		return Result{}, err
	}
	switch {
	case a.status == "unsat":
		return Result{Verdict: Proved}, nil
	case a.status == "unknown":
		return Result{Verdict: Unknown, Reason: "z3: " + a.reason}, nil
	case q.fns.used():
		// A model of the axioms need not be the exponential or the
		// logarithm: no counterexample.
		return Result{Verdict: Unknown, Reason: "z3: a model where exp and log are only what smtFuncs states"}, nil
	}
	r := Result{Verdict: Refuted}
	if len(q.show) > 0 {
		m, err := q.opts.parseModel(a.model, q.types)
		if err != nil {
			return Result{}, err
		}
		for _, n := range q.show {
			r.Counterexample = append(r.Counterexample, m[n])
		}
	}
	return r, nil
}

// Associative proves ∀x,y,z,k f(f(x,y),z) = f(x,f(y,z)), under the
// definedness of both sides. A counterexample names x_i, y_i, z_i and the
// constants.
func (p *Prover) Associative(f assoc.Tuple) (Result, error) {
	defer p.encodeFor(f.Elems...)()
	if err := f.Validate(); err != nil {
		return Result{}, err
	}
	q := newSMTQuery(p.opts)
	x, y, z := q.tuple("x", f), q.tuple("y", f), q.tuple("z", f)
	if err := q.consts(f.Elems...); err != nil {
		return Result{}, err
	}
	xy, err := q.apply(f, x, y)
	if err != nil {
		return Result{}, err
	}
	a := q.define("xy", f, xy)
	yz, err := q.apply(f, y, z)
	if err != nil {
		return Result{}, err
	}
	b := q.define("yz", f, yz)
	lhs, err := q.apply(f, smtVals(a), z)
	if err != nil {
		return Result{}, err
	}
	rhs, err := q.apply(f, x, smtVals(b))
	if err != nil {
		return Result{}, err
	}
	for i := range lhs {
		lhs[i].def = smtAnd(a[i].def, lhs[i].def)
		rhs[i].def = smtAnd(b[i].def, rhs[i].def)
	}
	for i := range lhs { // the inner applications' defs hold for every element
		for j := range a {
			lhs[i].def = smtAnd(lhs[i].def, a[j].def)
			rhs[i].def = smtAnd(rhs[i].def, b[j].def)
		}
	}
	return p.valid(q, smtEqualAll(lhs, rhs, false))
}

func smtVals(ts []smtTerm) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.val
	}
	return out
}

// Commutative proves ∀x,y,k f(x,y) = f(y,x), under the definedness of
// both sides.
func (p *Prover) Commutative(f assoc.Tuple) (Result, error) {
	defer p.encodeFor(f.Elems...)()
	if err := f.Validate(); err != nil {
		return Result{}, err
	}
	q := newSMTQuery(p.opts)
	x, y := q.tuple("x", f), q.tuple("y", f)
	if err := q.consts(f.Elems...); err != nil {
		return Result{}, err
	}
	l, err := q.apply(f, x, y)
	if err != nil {
		return Result{}, err
	}
	r, err := q.apply(f, y, x)
	if err != nil {
		return Result{}, err
	}
	return p.valid(q, smtEqualAll(l, r, false))
}

// Equal proves that a and b compute the same value for all values of
// their leaves (x_i, y_i, k, named values), where both are defined. The
// leaves must have one type per name.
func (p *Prover) Equal(a, b *assoc.Expr) (Result, error) {
	defer p.encodeFor(a, b)()
	if a.Type != b.Type {
		return Result{Verdict: Refuted}, nil
	}
	q := newSMTQuery(p.opts)
	var err error
	for _, e := range []*assoc.Expr{a, b} {
		e.Walk(func(x *assoc.Expr) bool {
			if x.Op == assoc.OpX || x.Op == assoc.OpY {
				n := fmt.Sprintf("%v%d", x.Op, x.Index)
				if t, ok := q.types[n]; ok && t != x.Type && err == nil {
					err = fmt.Errorf("assoc: %s used as %v and %v", n, t, x.Type)
				}
				q.declare(n, x.Type, true)
			}
			return true
		})
	}
	if err == nil {
		err = q.consts(a, b)
	}
	if err != nil {
		return Result{}, err
	}
	tr := &smtTranslator{opts: p.opts, fns: &q.fns, leaf: func(e *assoc.Expr) (string, error) {
		if e.Op == assoc.OpX || e.Op == assoc.OpY {
			return fmt.Sprintf("%v%d", e.Op, e.Index), nil
		}
		return smtConstName(e), nil
	}}
	ta, err := tr.expr(a)
	if err != nil {
		return Result{}, err
	}
	tb, err := tr.expr(b)
	if err != nil {
		return Result{}, err
	}
	return p.valid(q, smtEqualAll([]smtTerm{ta}, []smtTerm{tb}, false))
}

// Side selects the equations an identity e satisfies.
type Side uint8

const (
	// BothSides: f(e, x) = x and f(x, e) = x, a partial result's identity.
	BothSides Side = iota
	// LeftSide: f(e, x) = x only (the paper's synthesis: enough to start a
	// chunk's partial result from e and fold the chunk into it).
	LeftSide
	// RightSide: f(x, e) = x only.
	RightSide
)

// IdentityResult is the outcome of an identity synthesis.
type IdentityResult struct {
	// Verdict is Proved when Identity holds, Refuted when Z3 proved that
	// no tuple of values is an identity, whatever k (Reason says so), and
	// Unknown otherwise (no candidate held, and Z3 could not decide
	// whether some other value does, or found one for some k only).
	Verdict Verdict
	// Identity gives per element the identity, an expression in k and
	// literals, when Proved.
	Identity []*assoc.Expr
	Reason   string
}

// maxCEGISRounds bounds the rounds of the candidate search of Identity:
// each round proposes a candidate consistent with the counterexamples so
// far and checks it.
const maxCEGISRounds = 64

// Identity synthesizes an identity of f on the given side. It searches
// the candidates of each element's type (identityCandidates) by
// counterexample-guided synthesis: Z3 picks a combination of candidates
// that holds on every counterexample seen so far, then proves it for all
// x and k, or returns a new counterexample. When no combination holds, a
// quantified query (∃k ∃e ∀x) decides whether any value could be an
// identity: unsat proves there is none (Refuted); when f does not use k, a
// model is an identity outside the candidates.
func (p *Prover) Identity(f assoc.Tuple, side Side) (IdentityResult, error) {
	defer p.encodeFor(f.Elems...)()
	if err := f.Validate(); err != nil {
		return IdentityResult{}, err
	}
	syms, err := smtConsts(f.Elems...)
	if err != nil {
		return IdentityResult{}, err
	}
	fTypes := map[string]assoc.Type{}
	for _, s := range syms {
		fTypes[s.name] = s.typ
	}
	cands := make([][]*assoc.Expr, len(f.Elems))
	for i, e := range f.Elems {
		cands[i] = identityCandidates(e.Type, p.opts, syms)
	}
	var all []*assoc.Expr
	for _, c := range cands {
		all = append(all, c...)
	}
	var points []map[string]assoc.Value // counterexamples: x_i and constants
	var blocked [][]int                 // combinations whose check was unknown
	start := time.Now()
	for range maxCEGISRounds {
		if p.identityBudget > 0 && p.rlimit == 0 && time.Since(start) > p.identityBudget {
			return IdentityResult{Verdict: Unknown, Reason: "the identity search ran out of time"}, nil
		}
		pick, ok, err := p.proposeIdentity(f, side, cands, all, points, blocked)
		if err != nil {
			return IdentityResult{}, err
		}
		if !ok {
			break
		}
		e := make([]*assoc.Expr, len(f.Elems))
		for i, c := range pick {
			e[i] = cands[i][c]
		}
		r, show, err := p.checkIdentity(f, e, side, all)
		if err != nil {
			return IdentityResult{}, err
		}
		switch r.Verdict {
		case Proved:
			return IdentityResult{Verdict: Proved, Identity: e}, nil
		case Unknown:
			blocked = append(blocked, pick)
		case Refuted:
			pt := map[string]assoc.Value{}
			for i, a := range r.Counterexample {
				pt[show[i]] = a.Value
			}
			points = append(points, pt)
		}
	}
	if p.noMissing && p.rlimit > 0 {
		// The generator records no identity whether none exists or Z3
		// cannot tell: the quantified query, which rarely settles, gets
		// a share of the resource limit.
		saved := p.rlimit
		p.rlimit /= missingShare
		defer func() { p.rlimit = saved }()
	}
	return p.identityExists(f, side, syms)
}

// identityClaim returns the claim that e is an identity of f on side,
// with x_i named x[i]: e, f(e,x) and f(x,e) are defined and f gives x.
func (q *smtQuery) identityClaim(f assoc.Tuple, e []smtTerm, x []string, side Side) (string, error) {
	var parts []string
	for _, t := range e {
		parts = append(parts, t.def)
	}
	xs := smtNames(x)
	ev := smtVals(e)
	if side != RightSide {
		l, err := q.apply(f, ev, x)
		if err != nil {
			return "", err
		}
		parts = append(parts, smtEqualAll(l, xs, true))
	}
	if side != LeftSide {
		r, err := q.apply(f, x, ev)
		if err != nil {
			return "", err
		}
		parts = append(parts, smtEqualAll(r, xs, true))
	}
	return smtAnd(parts...), nil
}

// checkIdentity proves that e is an identity of f on side for all x and
// k. The constants of every candidate (all) are declared, so that a
// counterexample gives them all; show names the counterexample's symbols.
func (p *Prover) checkIdentity(f assoc.Tuple, e []*assoc.Expr, side Side, all []*assoc.Expr) (r Result, show []string, err error) {
	q := newSMTQuery(p.opts)
	x := q.tuple("x", f)
	if err := q.consts(append(append([]*assoc.Expr{}, f.Elems...), all...)...); err != nil {
		return Result{}, nil, err
	}
	tr := &smtTranslator{opts: p.opts, leaf: func(l *assoc.Expr) (string, error) {
		if l.Op == assoc.OpX || l.Op == assoc.OpY {
			return "", fmt.Errorf("assoc: identity reads %v%d", l.Op, l.Index)
		}
		return smtConstName(l), nil
	}}
	ts := make([]smtTerm, len(e))
	for i, c := range e {
		t, err := tr.expr(c)
		if err != nil {
			return Result{}, nil, err
		}
		ts[i] = t
	}
	claim, err := q.identityClaim(f, q.define("e", f, ts), x, side)
	if err != nil {
		return Result{}, nil, err
	}
	r, err = p.valid(q, claim)
	return r, q.show, err
}

// IsIdentity proves that e (per element an expression in k, named
// values and literals) is an identity of f on side, for all x and k.
// Unlike Identity, it and IdentityExists keep the prover's encoding of
// int32 and int64 (bit-vectors, whatever IntEncoding says), and so
// answer as the plain bit-vector queries do.
func (p *Prover) IsIdentity(f assoc.Tuple, e []*assoc.Expr, side Side) (Result, error) {
	if err := f.Validate(); err != nil {
		return Result{}, err
	}
	r, _, err := p.checkIdentity(f, e, side, e)
	return r, err
}

// IdentityExists decides with the quantified query of Identity alone,
// without its candidate search, whether some value is an identity of f
// on side: Refuted proves that no value is one, for any k or, by a
// second query that SetSkipMissing leaves out, for some k (Reason says
// which); Proved gives one when f reads no k; Unknown otherwise.
func (p *Prover) IdentityExists(f assoc.Tuple, side Side) (IdentityResult, error) {
	if err := f.Validate(); err != nil {
		return IdentityResult{}, err
	}
	syms, err := smtConsts(f.Elems...)
	if err != nil {
		return IdentityResult{}, err
	}
	return p.identityExists(f, side, syms)
}

// proposeIdentity asks Z3 for a combination of candidates (an index per
// element) under which f satisfies the identity equations at every point,
// avoiding the blocked combinations; ok is false when there is none.
func (p *Prover) proposeIdentity(f assoc.Tuple, side Side, cands [][]*assoc.Expr, all []*assoc.Expr, points []map[string]assoc.Value, blocked [][]int) ([]int, bool, error) {
	q := newSMTQuery(p.opts)
	sel := make([]string, len(f.Elems))
	for i := range sel {
		sel[i] = fmt.Sprintf("s%d", i)
		fmt.Fprintf(&q.b, "(declare-const %s (_ BitVec 8))\n(assert (bvult %s #x%02x))\n", sel[i], sel[i], len(cands[i]))
	}
	syms, err := smtConsts(append(append([]*assoc.Expr{}, f.Elems...), all...)...)
	if err != nil {
		return nil, false, err
	}
	for _, pt := range points {
		lit := func(name string, t assoc.Type) (string, error) { return p.opts.literal(pt[name], t) }
		tr := &smtTranslator{opts: p.opts, leaf: func(l *assoc.Expr) (string, error) { return lit(smtConstName(l), l.Type) }}
		// The chosen identity: an ite over the candidates, at this point.
		e := make([]smtTerm, len(f.Elems))
		for i, cs := range cands {
			var t smtTerm
			for c := len(cs) - 1; c >= 0; c-- {
				tc, err := tr.expr(cs[c])
				if err != nil {
					return nil, false, err
				}
				if c == len(cs)-1 {
					t = tc
					continue
				}
				is := fmt.Sprintf("(= %s #x%02x)", sel[i], c)
				t = smtTerm{smtIte(is, tc.val, t.val), smtIte(is, tc.def, t.def)}
			}
			e[i] = t
		}
		x := make([]string, len(f.Elems))
		for i, el := range f.Elems {
			if x[i], err = lit(fmt.Sprintf("x%d", i), el.Type); err != nil {
				return nil, false, err
			}
		}
		// f's constants read the point's values: bindConsts binds their
		// names to them.
		claim, err := q.identityClaim(f, e, x, side)
		if err != nil {
			return nil, false, err
		}
		fmt.Fprintf(&q.b, "(assert %s)\n", bindConsts(claim, syms, pt, p.opts))
	}
	for _, b := range blocked {
		var eqs []string
		for i, c := range b {
			eqs = append(eqs, fmt.Sprintf("(= %s #x%02x)", sel[i], c))
		}
		fmt.Fprintf(&q.b, "(assert (not %s))\n", smtAnd(eqs...))
	}
	types := map[string]assoc.Type{}
	for _, s := range sel {
		types[s] = assoc.Uint8
	}
	a, err := p.check(q.b.String(), sel)
	if err != nil || a.status != "sat" {
		return nil, false, err
	}
	m, err := p.opts.parseModel(a.model, types)
	if err != nil {
		return nil, false, err
	}
	pick := make([]int, len(sel))
	for i, s := range sel {
		pick[i] = int(m[s].Value)
	}
	return pick, true, nil
}

// bindConsts wraps claim in a let that gives the constants their values
// at the point pt.
func bindConsts(claim string, syms []smtSymbol, pt map[string]assoc.Value, opts Options) string {
	if len(syms) == 0 {
		return claim
	}
	var bs []string
	for _, s := range syms {
		lit, err := opts.literal(pt[s.name], s.typ)
		if err != nil {
			continue
		}
		bs = append(bs, "("+s.name+" "+lit+")")
	}
	return "(let (" + strings.Join(bs, " ") + ") " + claim + ")"
}

// identityExists decides, when no candidate is an identity, whether any
// value is: ∃k ∃e ∀x (e is an identity). Unsat proves that none exists.
func (p *Prover) identityExists(f assoc.Tuple, side Side, syms []smtSymbol) (IdentityResult, error) {
	none := IdentityResult{Verdict: Unknown, Reason: "no candidate identity holds for every k"}
	q := newSMTQuery(p.opts)
	for _, s := range syms {
		q.declare(s.name, s.typ, true)
	}
	e := q.tuple("e", f)
	x := make([]string, len(f.Elems))
	var bound []string
	for i, el := range f.Elems {
		x[i] = fmt.Sprintf("x%d", i)
		bound = append(bound, "("+x[i]+" "+p.opts.sort(el.Type)+")")
	}
	claim, err := q.identityClaim(f, smtNames(e), x, side)
	if err != nil {
		return IdentityResult{}, err
	}
	var guards []string
	for i, el := range f.Elems {
		guards = append(guards, p.opts.guard(x[i], el.Type))
	}
	fmt.Fprintf(&q.b, "(assert (forall (%s) (=> %s %s)))", strings.Join(bound, " "), smtAnd(guards...), claim)
	a, err := p.check(q.quantified(), q.show)
	if err != nil {
		return IdentityResult{}, err
	}
	switch {
	case a.status == "unsat":
		// With exp or log: for all functions that satisfy
		// smtFuncs.quantifiedAxioms, so for the real ones.
		return IdentityResult{Verdict: Refuted, Reason: "no value is an identity, for any k"}, nil
	case a.status == "unknown":
		none.Reason += "; z3 could not decide whether another value is one: " + a.reason
		return none, nil
	case q.fns.used():
		none.Reason += "; z3's witness holds for some functions in place of exp and log"
		return none, nil
	}
	m, err := p.opts.parseModel(a.model, q.types)
	if err != nil {
		return IdentityResult{}, err
	}
	id := make([]*assoc.Expr, len(f.Elems))
	var desc []string
	for i, n := range e {
		id[i] = assoc.Const(m[n].Value, f.Elems[i].Type)
		desc = append(desc, m[n].String())
	}
	if len(syms) == 0 {
		// f reads no constant: the witness is an identity; prove it as a
		// check of the quantified query's answer.
		r, _, err := p.checkIdentity(f, id, side, nil)
		if err != nil {
			return IdentityResult{}, err
		}
		if r.Verdict == Proved {
			return IdentityResult{Verdict: Proved, Identity: id}, nil
		}
	}
	var ks []string
	for _, s := range syms {
		ks = append(ks, m[s.name].String())
	}
	none.Reason += fmt.Sprintf("; an identity exists when %s: %s", strings.Join(ks, " "), strings.Join(desc, " "))
	if p.noMissing {
		return none, nil
	}
	if k, ok, err := p.identityMissing(f, side, syms); err != nil || ok {
		return IdentityResult{Verdict: Refuted, Reason: "no value is an identity when " + k}, err
	}
	return none, nil
}

// missingTimeout bounds identityMissing's query, which only sharpens an
// Unknown into a Refuted and often does not terminate.
const missingTimeout = 2 * time.Second

// missingShare is the share of the resource limit identityMissing's query
// gets, in a prover bounded by one (1/missingShare of it).
const missingShare = 5

// identityMissing looks for constants under which no value is an
// identity: ∃k ∀e ∃x (e is not an identity). It returns them written out,
// and whether Z3 found them.
func (p *Prover) identityMissing(f assoc.Tuple, side Side, syms []smtSymbol) (string, bool, error) {
	q := newSMTQuery(p.opts)
	for _, s := range syms {
		q.declare(s.name, s.typ, true)
	}
	e, x := make([]string, len(f.Elems)), make([]string, len(f.Elems))
	var be, bx []string
	for i, el := range f.Elems {
		e[i], x[i] = fmt.Sprintf("e%d", i), fmt.Sprintf("x%d", i)
		be = append(be, "("+e[i]+" "+p.opts.sort(el.Type)+")")
		bx = append(bx, "("+x[i]+" "+p.opts.sort(el.Type)+")")
	}
	claim, err := q.identityClaim(f, smtNames(e), x, side)
	if err != nil {
		return "", false, err
	}
	var ge, gx []string
	for i, el := range f.Elems {
		ge = append(ge, p.opts.guard(e[i], el.Type))
		gx = append(gx, p.opts.guard(x[i], el.Type))
	}
	fmt.Fprintf(&q.b, "(assert (forall (%s) (=> %s (exists (%s) (and %s (not %s))))))", strings.Join(be, " "), smtAnd(ge...), strings.Join(bx, " "), smtAnd(gx...), claim)
	saved := p.rlimit
	p.rlimit /= missingShare
	a, err := p.checkWithin(q.quantified(), q.show, min(p.timeout, missingTimeout))
	p.rlimit = saved
	if err != nil || a.status != "sat" || q.fns.used() {
		return "", false, err // with exp or log, a model need not hold for the real functions
	}
	m, err := p.opts.parseModel(a.model, q.types)
	if err != nil {
		return "", false, err
	}
	var ks []string
	for _, s := range syms {
		ks = append(ks, m[s.name].String())
	}
	return strings.Join(ks, " "), true, nil
}

// IdentityCandidates returns, per element of f, the candidate identities
// Identity searches in the semantics opts (identityCandidates), or nil
// when f reads no constant k: Z3 may then find an identity outside them.
func IdentityCandidates(f assoc.Tuple, opts Options) ([][]*assoc.Expr, error) {
	syms, err := smtConsts(f.Elems...)
	if err != nil || len(syms) == 0 {
		return nil, err
	}
	cands := make([][]*assoc.Expr, len(f.Elems))
	for i, e := range f.Elems {
		cands[i] = identityCandidates(e.Type, opts, syms)
	}
	return cands, nil
}

// identityCandidates lists the candidate identities of an element of type
// t, most likely first: the literals that are identities of the common
// operators, and simple functions of each constant of type t that f
// reads.
func identityCandidates(t assoc.Type, opts Options, syms []smtSymbol) []*assoc.Expr {
	var out []*assoc.Expr
	add := func(e *assoc.Expr) {
		for _, o := range out {
			if o.Equal(e) {
				return
			}
		}
		if _, err := opts.literal(e.Value, e.Type); e.Op == assoc.OpConst && err != nil {
			return
		}
		out = append(out, e)
	}
	w := t.Bits()
	var ks []*assoc.Expr
	for _, s := range syms {
		if s.typ == t && !strings.HasPrefix(s.name, "|") {
			k := assoc.K(t)
			fmt.Sscanf(s.name, "k%d", &k.Index)
			ks = append(ks, k)
		}
	}
	switch {
	case t == assoc.Bool:
		add(assoc.Const(0, t))
		add(assoc.Const(1, t))
		for _, k := range ks {
			add(k)
			add(assoc.Apply(assoc.OpNot, k))
		}
	case t.Integer():
		one, all, min := assoc.Const(1, t), assoc.Const(assoc.Value(smtMask(w)), t), assoc.Value(1)<<(w-1)
		add(assoc.Const(0, t))
		add(one)
		if t.Signed() {
			add(assoc.Const(min, t))   // INT_MIN
			add(assoc.Const(min-1, t)) // INT_MAX
		}
		add(all) // -1, or UINT_MAX
		if t.Unsigned() {
			add(assoc.Const(min, t))
			add(assoc.Const(min-1, t))
		}
		for _, k := range ks {
			add(k)
			add(assoc.Apply(assoc.OpNeg, k))
			add(assoc.Apply(assoc.OpAdd, k, one))
			add(assoc.Apply(assoc.OpSub, k, one))
			if t.Signed() {
				add(assoc.Apply(assoc.OpSub, all, k)) // ~k, as -1 - k: no bitwise operation, so the Int encoding applies
			} else {
				add(assoc.Apply(assoc.OpBitXor, k, all)) // ~k
			}
		}
	case t.Float():
		bits := func(f float64) assoc.Value {
			if t == assoc.Float32 {
				return assoc.Value(math.Float32bits(float32(f)))
			}
			return assoc.Value(math.Float64bits(f))
		}
		maxf := math.MaxFloat64
		if t == assoc.Float32 {
			maxf = math.MaxFloat32
		}
		for _, f := range []float64{math.Copysign(0, -1), 0, 1, math.Inf(1), math.Inf(-1), math.NaN(), -1, maxf, -maxf} {
			add(assoc.Const(bits(f), t))
		}
		for _, k := range ks {
			add(k)
			add(assoc.Apply(assoc.OpNeg, k))
		}
	}
	return out
}
