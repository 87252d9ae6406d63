package prove

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"

	"nestor/assoc"
)

// This file translates expressions to SMT-LIB2 terms with C's semantics,
// for the Z3 proofs of prove.go. A translated node is a pair: its value,
// and the condition under which C defines it (no undefined behaviour
// anywhere below it). A claim lhs = rhs is proved under the definedness of
// both sides: a C program that reaches the reduction has no undefined
// behaviour, so its compiler (and we) may assume the operands are such
// that none occurs.
//
// # Semantics per type
//
//   - Bool is the SMT sort Bool. Arithmetic on bool is C's on _Bool: the
//     operands promote to int and the result converts back (nonzero is
//     true), so a+b is a||b, a-b and a^b are a!=b, a*b and a&b are a&&b,
//     -a is a, a/b is a and a%b is false (b must be true), min is &&, max is
//     ||, and false < true.
//   - The integers are bit-vectors of their width, in two's complement:
//     bvadd, bvsub, bvmul, bvneg; / is bvsdiv or bvudiv and % is bvsrem or
//     bvurem, which truncate toward zero and give the remainder the sign of
//     the dividend, as C99 does; comparisons are bvslt/bvsle or
//     bvult/bvule; min and max are an ite on the comparison (both operands
//     are ints, so no NaN question arises).
//   - Unsigned types and the narrow signed types (int8, int16) wrap: C
//     computes them in int and converts back, which wraps (C requires it
//     for unsigned types; gcc and clang define it for the signed ones).
//     INT8_MIN / -1 is then INT8_MIN, and INT8_MIN % -1 is 0.
//   - int32 and int64 (C's int and long) are assumed not to overflow, as
//     C compilers assume, unless Options.Wrap: a signed +, -, *, unary -
//     whose exact result does not fit, and INT_MIN / -1 and INT_MIN % -1,
//     are undefined. With Options.Wrap they wrap like the narrow types.
//   - Integer division and modulo by zero are undefined in every mode:
//     claims are proved under the condition that no divisor is zero.
//   - Definedness follows C's evaluation: c ? a : b evaluates one branch,
//     a && b and a || b evaluate b only when a does not decide.
//
// # Floating point
//
// By default float32 and float64 are IEEE 754 binary32 and binary64
// ((_ FloatingPoint 8 24) and (_ FloatingPoint 11 53)), every operation
// rounded to nearest, ties to even (RNE), as C does under the default
// floating-point environment and without -ffast-math. Division by zero is
// defined (an infinity or NaN, C's Annex F). Results are compared by SMT's
// =, which is identity of values: NaN equals NaN (SMT has one NaN, so
// payloads are not distinguished) and -0.0 differs from +0.0. So x+y has
// the identity -0.0, not +0.0 (-0.0 + +0.0 is +0.0).
//
// min and max on floats are C's fmin and fmax (what `m = fmin(m, a[i])`
// computes), with the choices C leaves open fixed as IEEE 754-2019's
// minimumNumber and maximumNumber do:
//
//   - if one operand is NaN the result is the other (both NaN: NaN);
//   - otherwise the smaller (larger) value, with -0.0 < +0.0.
//
// Both are commutative and associative on all values, with NaN as their
// identity (fmin(NaN, v) = v for every v, NaN included; +inf is not an
// identity of fmin, as fmin(+inf, NaN) = +inf). The evaluator must agree.
//
// Options.Real (the spirit of -fassociative-math) reads floats as real
// numbers: + - * / are exact, nothing rounds or overflows, and there is no
// NaN, infinity or signed zero (literals that are those cannot be
// translated; -0.0 is 0). Real division by zero is undefined, as for
// integers. A proof in this mode says the operator is associative over the
// reals: reassociating a float reduction with it changes rounding, so the
// result may differ from the sequential one in its last bits (or more, with
// cancellation), which the user accepts by opting in.

// Options selects the semantics of the proofs.
type Options struct {
	// Wrap makes signed int32 and int64 arithmetic wrap (two's complement)
	// instead of assuming that it never overflows.
	Wrap bool
	// Real reads float32 and float64 as real numbers (exact arithmetic,
	// no NaN or infinity): the opt-in, -fassociative-math-like mode.
	Real bool
	// ints encodes the int32 and int64 of the no-overflow mode as
	// mathematical integers (SMT Int) within the type's range, instead of
	// bit-vectors with overflow checks; the Prover sets it per query when
	// the expressions are linear and use no bitwise operation (intsFor).
	ints bool
}

// Mathematical integers for the no-overflow mode.
//
// Without wrap-around, int32 and int64 arithmetic has a value exactly
// when the exact result lies in the type's range, and that value is the
// exact result. So a query over +, −, negation, min, max, comparisons,
// select and products by literals can use SMT's Int: every symbol of the
// type is constrained to the range (declare, and the guards of quantified
// variables), and an operation is defined when its operands are and its
// exact result is in the range. Linear integer arithmetic decides these
// queries in milliseconds where bit-vectors with overflow conditions take
// seconds (max(min(k − x, y), x): about 60 ms against 2.5 s). Products of
// two variables, division, remainder and the bitwise operations keep the
// bit-vector encoding (nonlinear Int arithmetic is undecidable, and Z3
// gives up on it).

// intsFor returns o with ints set when every int32 or int64 operation in
// es is one the Int encoding handles.
func (o Options) intsFor(es ...*assoc.Expr) Options {
	o.ints = false
	if o.Wrap {
		return o
	}
	ok, any := true, false
	for _, e := range es {
		e.Walk(func(x *assoc.Expr) bool {
			if x.Op == assoc.OpCast {
				ok = false // conversions are bit-vector operations
				return ok
			}
			t := x.Type
			if len(x.Args) > 0 && x.Op >= assoc.OpLT && x.Op <= assoc.OpNE {
				t = x.Args[0].Type
			}
			if !o.assumesNoOverflow(t) {
				return ok
			}
			any = true
			switch x.Op {
			case assoc.OpDiv, assoc.OpMod, assoc.OpBitAnd, assoc.OpBitOr, assoc.OpBitXor:
				ok = false
			case assoc.OpMul:
				ok = x.Args[0].Op == assoc.OpConst || x.Args[1].Op == assoc.OpConst
			}
			return ok
		})
	}
	o.ints = ok && any
	return o
}

// IntEncoding reports whether the queries about es in the semantics o
// encode int32 and int64 as SMT integers (above) rather than bit-vectors.
func (o Options) IntEncoding(es ...*assoc.Expr) bool { return o.intsFor(es...).ints }

// intMode reports whether t is encoded as Int.
func (o Options) intMode(t assoc.Type) bool { return o.ints && o.assumesNoOverflow(t) }

// intRange returns the bounds of t as SMT Int literals.
func smtIntRange(t assoc.Type) (lo, hi string) {
	w := t.Bits()
	return smtIntLit(-1 << (w - 1)), smtIntLit(1<<(w-1) - 1)
}

func smtIntLit(v int64) string {
	if v < 0 {
		if v == math.MinInt64 {
			return "(- 9223372036854775808)"
		}
		return fmt.Sprintf("(- %d)", -v)
	}
	return fmt.Sprint(v)
}

// inRange returns the condition that the Int term a lies in t's range.
func smtInRange(t assoc.Type, a string) string {
	lo, hi := smtIntRange(t)
	return "(let (($r " + a + ")) (and (<= " + lo + " $r) (<= $r " + hi + ")))"
}

// guard returns the condition that the symbol name of type t holds a
// value of t: its range in the Int encoding, "true" otherwise.
func (o Options) guard(name string, t assoc.Type) string {
	if !o.intMode(t) {
		return "true"
	}
	return smtInRange(t, name)
}

// assumesNoOverflow reports whether signed arithmetic in t is assumed not
// to overflow.
func (o Options) assumesNoOverflow(t assoc.Type) bool {
	return !o.Wrap && (t == assoc.Int32 || t == assoc.Int64)
}

// sort returns the SMT-LIB sort of t.
func (o Options) sort(t assoc.Type) string {
	switch {
	case t == assoc.Bool:
		return "Bool"
	case o.intMode(t):
		return "Int"
	case t.Integer():
		return fmt.Sprintf("(_ BitVec %d)", t.Bits())
	case t.Float() && o.Real:
		return "Real"
	case t == assoc.Float32:
		return "(_ FloatingPoint 8 24)"
	case t == assoc.Float64:
		return "(_ FloatingPoint 11 53)"
	}
	panic(fmt.Sprintf("assoc: sort of %v", t))
}

// fpFormat returns the exponent and significand widths of a float type
// (the significand counting its hidden bit, as SMT-LIB does).
func smtFPFormat(t assoc.Type) (eb, sb int) {
	if t == assoc.Float32 {
		return 8, 24
	}
	return 11, 53
}

// literal returns the SMT-LIB term of the constant v of type t.
func (o Options) literal(v assoc.Value, t assoc.Type) (string, error) {
	switch {
	case t == assoc.Bool:
		if v&1 != 0 {
			return "true", nil
		}
		return "false", nil
	case o.intMode(t):
		return smtIntLit(v.Int(t)), nil
	case t.Integer():
		w := t.Bits()
		return fmt.Sprintf("#x%0*x", w/4, uint64(v)&smtMask(w)), nil
	case t.Float() && o.Real:
		f := smtFloat(v, t)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return "", fmt.Errorf("assoc: %v literal %v has no real value", t, f)
		}
		return smtReal(new(big.Rat).SetFloat64(f)), nil
	case t.Float():
		eb, sb := smtFPFormat(t)
		bits := uint64(v)
		sign := bits >> (eb + sb - 1) & 1
		exp := bits >> (sb - 1) & smtMask(eb)
		man := bits & smtMask(sb-1)
		return fmt.Sprintf("(fp #b%d #b%0*b #b%0*b)", sign, eb, exp, sb-1, man), nil
	}
	return "", fmt.Errorf("assoc: literal of type %v", t)
}

// realLiteral writes r as an SMT-LIB Real term.
func smtReal(r *big.Rat) string {
	num := new(big.Int).Abs(r.Num()).String() + ".0"
	s := num
	if !r.IsInt() {
		s = fmt.Sprintf("(/ %s %s.0)", num, r.Denom())
	}
	if r.Sign() < 0 {
		s = "(- " + s + ")"
	}
	return s
}

// mask returns the low w bits set.
func smtMask(w int) uint64 {
	if w >= 64 {
		return math.MaxUint64
	}
	return 1<<w - 1
}

// floatOf returns the float value of the bit pattern v of a float type.
func smtFloat(v assoc.Value, t assoc.Type) float64 {
	if t == assoc.Float32 {
		return float64(math.Float32frombits(uint32(v)))
	}
	return math.Float64frombits(uint64(v))
}

// term is a translated node: its value and the condition under which C
// defines it ("true" when always).
type smtTerm struct {
	val, def string
}

// leafFunc gives the term of a leaf (x, y, k or a named value).
type smtLeaf func(e *assoc.Expr) (string, error)

// translator turns expressions into SMT-LIB terms. The terms are closed
// strings, with let-bound operands where an operand is used twice, so they
// can be placed under quantifiers.
type smtTranslator struct {
	opts Options
	leaf smtLeaf
	// fns collects the arguments of exp and log (OpExp, OpLog, over the
	// reals only), for the facts the query states about them
	// (smtFuncs); nil where the query states none, and neither is
	// translated.
	fns *smtFuncs
}

// smtExp and smtLog name exp and log over the reals: uninterpreted
// functions, of which a query states what the proofs need (smtFuncs).
const (
	smtExp = "nestor_exp"
	smtLog = "nestor_log"
)

// smtFuncs collects the terms a query applies exp and log to. Every fact
// it states of them is true of the real exponential and logarithm, so an
// unsat answer (a proof) holds for them; a model may take any functions
// that satisfy the facts, so it is never a counterexample.
type smtFuncs struct {
	exps, logs []string
}

// used reports whether the query applies exp or log.
func (f *smtFuncs) used() bool { return len(f.exps) > 0 || len(f.logs) > 0 }

// add records a as an argument of fn (smtExp or smtLog) and returns the
// term fn(a).
func (f *smtFuncs) add(fn, a string) string {
	args := &f.exps
	if fn == smtLog {
		args = &f.logs
	}
	if !slices.Contains(*args, a) {
		*args = append(*args, a)
	}
	return "(" + fn + " " + a + ")"
}

// declare declares exp and log.
func (f *smtFuncs) declare() string {
	return fmt.Sprintf("(declare-fun %s (Real) Real)\n(declare-fun %s (Real) Real)\n", smtExp, smtLog)
}

// axioms writes what a query knows of exp and log at the arguments it
// applies them to (ground instances, no quantifier): exp(0) = 1,
// log(1) = 0; exp(a) > 0, log(exp(a)) = a and exp(a)·exp(b) = exp(a + b)
// at exp's arguments, exp monotone among them; exp(a) = … inverted at
// log's arguments a > 0 (exp(log(a)) = a), log(a·b) = log(a) + log(b)
// for a, b > 0, log monotone among them. That is enough for the
// regrouping of log-sum-exp in both its forms (the rescaled partial sums
// of {m, s} meet when the scalings compose; log(exp(log(exp(x) +
// exp(y))) + exp(z)) is log(exp(x) + exp(y) + exp(z))).
func (f *smtFuncs) axioms() string {
	var b strings.Builder
	fmt.Fprintf(&b, "(assert (= (%s 0.0) 1.0))\n(assert (= (%s 1.0) 0.0))\n", smtExp, smtLog)
	for i, a := range f.exps {
		fmt.Fprintf(&b, "(assert (< 0.0 (%s %s)))\n", smtExp, a)
		if len(f.logs) > 0 {
			fmt.Fprintf(&b, "(assert (= (%s (%s %s)) %s))\n", smtLog, smtExp, a, a)
		}
		for _, c := range f.exps[i:] {
			fmt.Fprintf(&b, "(assert (= (* (%s %s) (%s %s)) (%s (+ %s %s))))\n", smtExp, a, smtExp, c, smtExp, a, c)
			if c != a {
				fmt.Fprintf(&b, "(assert (= (< %s %s) (< (%s %s) (%s %s))))\n", a, c, smtExp, a, smtExp, c)
			}
		}
	}
	for i, a := range f.logs {
		fmt.Fprintf(&b, "(assert (=> (< 0.0 %s) (= (%s (%s %s)) %s)))\n", a, smtExp, smtLog, a, a)
		for _, c := range f.logs[i:] {
			pos := fmt.Sprintf("(and (< 0.0 %s) (< 0.0 %s))", a, c)
			fmt.Fprintf(&b, "(assert (=> %s (= (%s (* %s %s)) (+ (%s %s) (%s %s)))))\n", pos, smtLog, a, c, smtLog, a, smtLog, c)
			if c != a {
				fmt.Fprintf(&b, "(assert (=> %s (= (< %s %s) (< (%s %s) (%s %s)))))\n", pos, a, c, smtLog, a, smtLog, c)
			}
		}
	}
	return b.String()
}

// quantifiedAxioms writes, for a query whose claim is under quantifiers
// (its terms may read the bound variables, so no ground instance
// covers them), the facts as quantified formulas: exp(a) > 0,
// log(exp(a)) = a, exp(log(a)) = a for a > 0. They are true of the real
// functions, so an unsat answer is still a proof for them.
func (f *smtFuncs) quantifiedAxioms() string {
	var b strings.Builder
	fmt.Fprintf(&b, "(assert (forall ((a Real)) (! (and (< 0.0 (%s a)) (= (%s (%s a)) a)) :pattern ((%s a)))))\n", smtExp, smtLog, smtExp, smtExp)
	fmt.Fprintf(&b, "(assert (forall ((a Real)) (! (=> (< 0.0 a) (= (%s (%s a)) a)) :pattern ((%s a)))))\n", smtExp, smtLog, smtLog)
	return b.String()
}

// and returns the conjunction of conditions, dropping "true".
func smtAnd(cs ...string) string {
	var keep []string
	for _, c := range cs {
		if c != "true" && c != "" {
			keep = append(keep, c)
		}
	}
	switch len(keep) {
	case 0:
		return "true"
	case 1:
		return keep[0]
	}
	return "(and " + strings.Join(keep, " ") + ")"
}

// ite returns (ite c a b), simplified when the branches agree.
func smtIte(c, a, b string) string {
	if a == b {
		return a
	}
	return "(ite " + c + " " + a + " " + b + ")"
}

// let binds a and b to $a and $b around body (which uses them).
func smtLet(a, b, body string) string {
	return "(let (($a " + a + ") ($b " + b + ")) " + body + ")"
}

// ordered returns a and b sorted, for operations that commute exactly, so
// that a+b and b+a are the same term (Z3 does not normalize FP terms, and
// proving IEEE addition commutative by bit-blasting is slow).
func smtOrdered(a, b string) (string, string) {
	if b < a {
		return b, a
	}
	return a, b
}

// expr translates e.
func (tr *smtTranslator) expr(e *assoc.Expr) (smtTerm, error) {
	if e.Op.Leaf() {
		if e.Op == assoc.OpConst {
			s, err := tr.opts.literal(e.Value, e.Type)
			return smtTerm{s, "true"}, err
		}
		s, err := tr.leaf(e)
		return smtTerm{s, "true"}, err
	}
	if len(e.Args) != e.Op.Arity() {
		return smtTerm{}, fmt.Errorf("assoc: %v with %d operands", e.Op, len(e.Args))
	}
	args := make([]smtTerm, len(e.Args))
	for i, a := range e.Args {
		t, err := tr.expr(a)
		if err != nil {
			return smtTerm{}, err
		}
		args[i] = t
	}
	switch e.Op {
	case assoc.OpCast:
		val, err := tr.cast(args[0].val, e.Args[0].Type, e.Type)
		return smtTerm{val, args[0].def}, err
	case assoc.OpExp, assoc.OpLog:
		if !e.Type.Float() || !tr.opts.Real || tr.fns == nil {
			return smtTerm{}, fmt.Errorf("assoc: %v on %v is translated over the reals only (Options.Real), in associativity, commutativity, identity and equality queries", e.Op, e.Type)
		}
		a := args[0]
		if e.Op == assoc.OpExp {
			return smtTerm{tr.fns.add(smtExp, a.val), a.def}, nil
		}
		// The real logarithm is defined for a > 0 only (C's log gives
		// NaN or −∞ otherwise, which no real is).
		return smtTerm{tr.fns.add(smtLog, a.val), smtAnd(a.def, "(< 0.0 "+a.val+")")}, nil
	case assoc.OpAbs:
		a := args[0]
		switch {
		case !e.Type.Float():
			return smtTerm{}, fmt.Errorf("assoc: fabs on %v", e.Type)
		case tr.opts.Real:
			return smtTerm{"(let (($a " + a.val + ")) (ite (< $a 0.0) (- $a) $a))", a.def}, nil
		}
		return smtTerm{"(fp.abs " + a.val + ")", a.def}, nil
	case assoc.OpSelect:
		if e.Args[0].Type != assoc.Bool {
			return smtTerm{}, fmt.Errorf("assoc: select condition of type %v", e.Args[0].Type)
		}
		c, a, b := args[0], args[1], args[2]
		return smtTerm{smtIte(c.val, a.val, b.val), smtAnd(c.def, smtIte(c.val, a.def, b.def))}, nil
	case assoc.OpAnd, assoc.OpOr, assoc.OpNot:
		for _, a := range e.Args {
			if a.Type != assoc.Bool {
				return smtTerm{}, fmt.Errorf("assoc: %v on %v", e.Op, a.Type)
			}
		}
		if e.Op == assoc.OpNot {
			return smtTerm{"(not " + args[0].val + ")", args[0].def}, nil
		}
		a, b := args[0], args[1]
		if e.Op == assoc.OpAnd {
			return smtTerm{"(and " + a.val + " " + b.val + ")", smtAnd(a.def, smtIte(a.val, b.def, "true"))}, nil
		}
		return smtTerm{"(or " + a.val + " " + b.val + ")", smtAnd(a.def, smtIte(a.val, "true", b.def))}, nil
	}
	t := e.Args[0].Type
	for _, a := range e.Args[1:] {
		if a.Type != t {
			return smtTerm{}, fmt.Errorf("assoc: %v on %v and %v", e.Op, t, a.Type)
		}
	}
	var (
		val, local string
		err        error
	)
	switch {
	case t == assoc.Bool:
		val, local, err = smtBoolOp(e.Op, args)
	case t.Integer():
		val, local, err = tr.intOp(e.Op, t, args)
	case t.Float() && tr.opts.Real:
		val, local, err = smtRealOp(e.Op, args)
	case t.Float():
		val, local, err = smtFPOp(e.Op, args)
	default:
		err = fmt.Errorf("assoc: %v on %v", e.Op, t)
	}
	if err != nil {
		return smtTerm{}, err
	}
	defs := make([]string, 0, len(args)+1)
	for _, a := range args {
		defs = append(defs, a.def)
	}
	return smtTerm{val, smtAnd(append(defs, local)...)}, nil
}

// cast translates C's conversion of a from type from to type to, between
// integers (and Bool) in the bit-vector encoding: extension by the
// source's signedness, truncation, or the test against zero. Queries
// with conversions never use the Int encoding (intsFor); conversions of
// floats are not translated.
func (tr *smtTranslator) cast(a string, from, to assoc.Type) (string, error) {
	if from.Float() || to.Float() || tr.opts.intMode(from) || tr.opts.intMode(to) {
		return "", fmt.Errorf("assoc: conversion from %v to %v not translated", from, to)
	}
	switch {
	case from == to:
		return a, nil
	case to == assoc.Bool:
		return "(not (= " + a + " " + smtZero(from.Bits()) + "))", nil
	case from == assoc.Bool:
		w := to.Bits()
		return smtIte(a, fmt.Sprintf("#x%0*x", w/4, 1), smtZero(w)), nil
	}
	wf, wt := from.Bits(), to.Bits()
	switch {
	case wt < wf:
		return fmt.Sprintf("((_ extract %d 0) %s)", wt-1, a), nil
	case wt > wf && from.Signed():
		return fmt.Sprintf("((_ sign_extend %d) %s)", wt-wf, a), nil
	case wt > wf:
		return fmt.Sprintf("((_ zero_extend %d) %s)", wt-wf, a), nil
	}
	return a, nil // same width, another signedness: the same bits
}

// boolOp translates an operation on _Bool operands (see the file comment).
func smtBoolOp(op assoc.Op, args []smtTerm) (val, def string, err error) {
	a := args[0].val
	if op == assoc.OpNeg {
		return a, "true", nil
	}
	b := args[1].val
	switch op {
	case assoc.OpAdd, assoc.OpMax, assoc.OpBitOr:
		return "(or " + a + " " + b + ")", "true", nil
	case assoc.OpMul, assoc.OpMin, assoc.OpBitAnd:
		return "(and " + a + " " + b + ")", "true", nil
	case assoc.OpSub, assoc.OpBitXor, assoc.OpNE:
		return "(xor " + a + " " + b + ")", "true", nil
	case assoc.OpDiv:
		return a, b, nil
	case assoc.OpMod:
		return "false", b, nil
	case assoc.OpLT:
		return "(and (not " + a + ") " + b + ")", "true", nil
	case assoc.OpLE:
		return "(=> " + a + " " + b + ")", "true", nil
	case assoc.OpEQ:
		return "(= " + a + " " + b + ")", "true", nil
	}
	return "", "", fmt.Errorf("assoc: %v on bool", op)
}

// intOp translates an operation on integer operands of type t: its value
// and the local condition of definedness.
func (tr *smtTranslator) intOp(op assoc.Op, t assoc.Type, args []smtTerm) (val, def string, err error) {
	if tr.opts.intMode(t) {
		return smtIntOp(op, t, args)
	}
	w := t.Bits()
	signed := t.Signed()
	strict := tr.opts.assumesNoOverflow(t)
	a := args[0].val
	if op == assoc.OpNeg {
		val = "(bvneg " + a + ")"
		if strict {
			def = "(not (= " + a + " " + smtIntMin(w) + "))"
		}
		return val, smtAnd(def), nil
	}
	b := args[1].val
	pick := func(s, u string) string {
		if signed {
			return s
		}
		return u
	}
	def = "true"
	switch op {
	case assoc.OpAdd:
		val = "(bvadd " + a + " " + b + ")"
		if strict {
			def = smtLet(a, b, noOverflowAdd(w, "$a", "$b", "(bvadd $a $b)"))
		}
	case assoc.OpSub:
		val = "(bvsub " + a + " " + b + ")"
		if strict {
			def = smtLet(a, b, noOverflowSub(w, "$a", "$b", "(bvsub $a $b)"))
		}
	case assoc.OpMul:
		val = "(bvmul " + a + " " + b + ")"
		if strict {
			def = smtLet(a, b, noOverflowMul(w, "$a", "$b"))
		}
	case assoc.OpDiv, assoc.OpMod:
		val = "(" + pick("bvsdiv", "bvudiv") + " " + a + " " + b + ")"
		if op == assoc.OpMod {
			val = "(" + pick("bvsrem", "bvurem") + " " + a + " " + b + ")"
		}
		def = "(not (= " + b + " " + smtZero(w) + "))"
		if strict {
			def = smtLet(a, b, "(and (not (= $b "+smtZero(w)+")) (not (and (= $a "+smtIntMin(w)+") (= $b "+smtOnes(w)+"))))")
		}
	case assoc.OpMin:
		val = smtLet(a, b, "(ite ("+pick("bvsle", "bvule")+" $a $b) $a $b)")
	case assoc.OpMax:
		val = smtLet(a, b, "(ite ("+pick("bvsle", "bvule")+" $a $b) $b $a)")
	case assoc.OpLT:
		val = "(" + pick("bvslt", "bvult") + " " + a + " " + b + ")"
	case assoc.OpLE:
		val = "(" + pick("bvsle", "bvule") + " " + a + " " + b + ")"
	case assoc.OpEQ:
		val = "(= " + a + " " + b + ")"
	case assoc.OpNE:
		val = "(not (= " + a + " " + b + "))"
	case assoc.OpBitAnd:
		val = "(bvand " + a + " " + b + ")"
	case assoc.OpBitOr:
		val = "(bvor " + a + " " + b + ")"
	case assoc.OpBitXor:
		val = "(bvxor " + a + " " + b + ")"
	default:
		return "", "", fmt.Errorf("assoc: %v on %v", op, t)
	}
	return val, def, nil
}

// intOp translates an operation on int32 or int64 operands in the Int
// encoding: exact, defined when the result is in t's range.
func smtIntOp(op assoc.Op, t assoc.Type, args []smtTerm) (val, def string, err error) {
	a := args[0].val
	if op == assoc.OpNeg {
		val = "(- " + a + ")"
		return val, smtInRange(t, val), nil
	}
	b := args[1].val
	switch op {
	case assoc.OpAdd, assoc.OpSub, assoc.OpMul:
		val = "(" + map[assoc.Op]string{assoc.OpAdd: "+", assoc.OpSub: "-", assoc.OpMul: "*"}[op] + " " + a + " " + b + ")"
		return val, smtInRange(t, val), nil
	}
	if val, ok := smtOrderOp(op, a, b); ok {
		return val, "true", nil
	}
	return "", "", fmt.Errorf("assoc: %v on %v in the Int encoding", op, t)
}

func smtZero(w int) string   { return fmt.Sprintf("#x%0*x", w/4, 0) }
func smtOnes(w int) string   { return fmt.Sprintf("#x%0*x", w/4, smtMask(w)) }
func smtIntMin(w int) string { return fmt.Sprintf("#x%0*x", w/4, uint64(1)<<(w-1)) }

// sign returns the sign bit of a w-bit term.
func smtSign(w int, a string) string {
	return fmt.Sprintf("((_ extract %d %d) %s)", w-1, w-1, a)
}

// noOverflowAdd: a+b overflows exactly when a and b have the same sign and
// the wrapped sum r has the other.
func noOverflowAdd(w int, a, b, r string) string {
	return "(not (and (= " + smtSign(w, a) + " " + smtSign(w, b) + ") (not (= " + smtSign(w, a) + " " + smtSign(w, r) + "))))"
}

// noOverflowSub: a-b overflows exactly when a and b have different signs
// and the wrapped difference r has the sign of b.
func noOverflowSub(w int, a, b, r string) string {
	return "(not (and (not (= " + smtSign(w, a) + " " + smtSign(w, b) + ")) (not (= " + smtSign(w, a) + " " + smtSign(w, r) + "))))"
}

// noOverflowMul: a*b fits in w bits when the exact 2w-bit product of the
// sign-extended operands equals the sign extension of its low w bits.
func noOverflowMul(w int, a, b string) string {
	ext := func(s string) string { return fmt.Sprintf("((_ sign_extend %d) %s)", w, s) }
	p := "(bvmul " + ext(a) + " " + ext(b) + ")"
	return fmt.Sprintf("(let (($p %s)) (= $p ((_ sign_extend %d) ((_ extract %d 0) $p))))", p, w, w-1)
}

// fpOp translates an IEEE operation (RNE), with fmin/fmax as in the file
// comment. Nothing is undefined.
func smtFPOp(op assoc.Op, args []smtTerm) (val, def string, err error) {
	a := args[0].val
	if op == assoc.OpNeg {
		return "(fp.neg " + a + ")", "true", nil
	}
	b := args[1].val
	switch op {
	case assoc.OpAdd, assoc.OpMul:
		a, b = smtOrdered(a, b)
		name := map[assoc.Op]string{assoc.OpAdd: "fp.add", assoc.OpMul: "fp.mul"}[op]
		return "(" + name + " RNE " + a + " " + b + ")", "true", nil
	case assoc.OpSub:
		return "(fp.sub RNE " + a + " " + b + ")", "true", nil
	case assoc.OpDiv:
		return "(fp.div RNE " + a + " " + b + ")", "true", nil
	case assoc.OpMin:
		a, b = smtOrdered(a, b)
		return smtLet(a, b, "(ite (fp.isNaN $a) $b (ite (fp.isNaN $b) $a (ite (fp.lt $a $b) $a (ite (fp.lt $b $a) $b (ite (fp.isNegative $a) $a $b)))))"), "true", nil
	case assoc.OpMax:
		a, b = smtOrdered(a, b)
		return smtLet(a, b, "(ite (fp.isNaN $a) $b (ite (fp.isNaN $b) $a (ite (fp.lt $a $b) $b (ite (fp.lt $b $a) $a (ite (fp.isNegative $a) $b $a)))))"), "true", nil
	case assoc.OpLT:
		return "(fp.lt " + a + " " + b + ")", "true", nil
	case assoc.OpLE:
		return "(fp.leq " + a + " " + b + ")", "true", nil
	case assoc.OpEQ:
		a, b = smtOrdered(a, b)
		return "(fp.eq " + a + " " + b + ")", "true", nil
	case assoc.OpNE:
		a, b = smtOrdered(a, b)
		return "(not (fp.eq " + a + " " + b + "))", "true", nil
	}
	return "", "", fmt.Errorf("assoc: %v on floating point", op)
}

// realOp translates an operation on floats read as reals.
func smtRealOp(op assoc.Op, args []smtTerm) (val, def string, err error) {
	a := args[0].val
	if op == assoc.OpNeg {
		return "(- " + a + ")", "true", nil
	}
	b := args[1].val
	switch op {
	case assoc.OpAdd:
		return "(+ " + a + " " + b + ")", "true", nil
	case assoc.OpSub:
		return "(- " + a + " " + b + ")", "true", nil
	case assoc.OpMul:
		return "(* " + a + " " + b + ")", "true", nil
	case assoc.OpDiv:
		return "(/ " + a + " " + b + ")", "(not (= " + b + " 0.0))", nil
	}
	if val, ok := smtOrderOp(op, a, b); ok {
		return val, "true", nil
	}
	return "", "", fmt.Errorf("assoc: %v on floats read as reals", op)
}

// smtOrderOp writes min, max and the comparisons of a and b in the
// ordered theories (Int, Real), where they read the same; false for
// other operations. They are defined everywhere.
func smtOrderOp(op assoc.Op, a, b string) (string, bool) {
	switch op {
	case assoc.OpMin:
		return smtLet(a, b, "(ite (<= $a $b) $a $b)"), true
	case assoc.OpMax:
		return smtLet(a, b, "(ite (<= $a $b) $b $a)"), true
	case assoc.OpLT:
		return "(< " + a + " " + b + ")", true
	case assoc.OpLE:
		return "(<= " + a + " " + b + ")", true
	case assoc.OpEQ:
		return "(= " + a + " " + b + ")", true
	case assoc.OpNE:
		return "(not (= " + a + " " + b + "))", true
	}
	return "", false
}

// A symbol is a free variable of a query: a leaf x_i, y_i, z_i, k or a
// named value, with its SMT name.
type smtSymbol struct {
	name string
	typ  assoc.Type
}

// symbols collects the SMT names of the leaves of kind k and named values
// in es, with a consistent type for each (an error otherwise), sorted by
// name.
func smtConsts(es ...*assoc.Expr) ([]smtSymbol, error) {
	seen := map[string]assoc.Type{}
	var err error
	for _, e := range es {
		e.Walk(func(x *assoc.Expr) bool {
			if x.Op != assoc.OpK && x.Op != assoc.OpVar {
				return true
			}
			name := smtConstName(x)
			if t, ok := seen[name]; ok && t != x.Type && err == nil {
				err = fmt.Errorf("assoc: %s used as %v and %v", name, t, x.Type)
			}
			seen[name] = x.Type
			return true
		})
	}
	out := make([]smtSymbol, 0, len(seen))
	for n, t := range seen {
		out = append(out, smtSymbol{n, t})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, err
}

// constName returns the SMT name of a leaf k (k, k1, k2...) or of a named
// value (a quoted symbol, so any name is allowed).
func smtConstName(e *assoc.Expr) string {
	if e.Op == assoc.OpVar {
		return "|v:" + strings.ReplaceAll(e.Name, "|", "_") + "|"
	}
	if e.Index == 0 {
		return "k"
	}
	return fmt.Sprintf("k%d", e.Index)
}

// displayName returns the name a counterexample shows for an SMT symbol.
func smtDisplayName(s string) string {
	if strings.HasPrefix(s, "|v:") {
		return strings.TrimSuffix(strings.TrimPrefix(s, "|v:"), "|")
	}
	return s
}
