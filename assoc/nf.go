package assoc

import (
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
)

// Normal forms that decide the equality of two expressions (synthesis,
// synth.go). Equivalent(a, b) true means that a and b have the same value
// wherever both have one; false means only that the normal forms differ.
//
// Over an integer type of n bits, + − · and negation are the operations
// of the ring Z/2^n: an expression built of them is a polynomial in its
// atoms with coefficients modulo 2^n, and two polynomials with the same
// coefficients are the same function (C's wrap-around for the unsigned
// and narrow types; for int32 and int64 without -fwrapv, the value where
// the original does not overflow, the licence Canon takes too). Over
// floats under --assoc-math (Real) the ring is the reals and the
// coefficients are rationals. An atom is any other node (min, max,
// select, division, comparisons, bitwise operations, leaves), whose
// operands are in normal form and, for a commutative operation, sorted;
// an integer node of another type inside a polynomial is an atom too. A
// select of a ring type is b + (a − b)·[c], where the indicator [c] =
// select(c, 1, 0) is an atom (select(c, x0, x1) meets x1 + (x0 −
// x1)·select(c, 1, 0)); a leaf of a ring type is a polynomial of one
// atom (x0 meets x0·1 + x1 − x1). Min and max over a total order (integers; reals under
// Real) form a distributive lattice: a tree of them is the max of mins
// of atoms, no min's atoms a superset of another's (lattice).
//
// IEEE floats get no ring: only a − b = a + (−0 − b) (IEEE defines
// subtraction so) and −0 − (−0 − b) = b, with the two operands of + and ·
// sorted, which are exact for every operand.

// Equivalent reports whether a and b have equal normal forms (see above).
func Equivalent(a, b *Expr, real bool) bool {
	if a.Type != b.Type {
		return false
	}
	ca, cb := Canon(a), Canon(b)
	if ca.Equal(cb) {
		return true
	}
	n := &normalizer{real: real}
	return n.key(ca) == n.key(cb)
}

type normalizer struct {
	real bool
}

// ring reports whether + − · and negation of type t form a ring the
// normal form may use.
func (n *normalizer) ring(t Type) bool {
	return t.Integer() || t.Float() && n.real
}

// key returns the normal form of e written as a string.
func (n *normalizer) key(e *Expr) string {
	if n.ring(e.Type) {
		// Every node of a ring type, a leaf or an atom included, as a
		// polynomial: x0 and x0*1 + x1*1 - x1*1 must meet.
		return n.poly(e).String()
	}
	return n.atom(e)
}

func isRingOp(op Op) bool {
	return op == OpAdd || op == OpSub || op == OpMul || op == OpNeg || op == OpConst
}

// A select of a ring type is a polynomial too (poly). atom writes a node that is not a ring operation: its operation, type
// and the normal forms of its operands (sorted where they commute).
func (n *normalizer) atom(e *Expr) string {
	switch e.Op {
	case OpX:
		return "x" + itoa(e.Index) + ":" + e.Type.String()
	case OpY:
		return "y" + itoa(e.Index) + ":" + e.Type.String()
	case OpK:
		return "k" + itoa(e.Index) + ":" + e.Type.String()
	case OpVar:
		return "$" + e.Name + ":" + e.Type.String()
	case OpConst:
		return "#" + literal(e.Value, e.Type) + ":" + e.Type.String()
	}
	if (e.Op == OpMin || e.Op == OpMax) && (e.Type.Integer() || e.Type.Float() && n.real) {
		if terms, ok := n.lattice(e); ok {
			return latticeKey(e.Type, terms)
		}
	}
	if e.Type.Float() && !n.real {
		e = ieeeForm(e)
	}
	args := make([]string, len(e.Args))
	for i, a := range e.Args {
		args[i] = n.key(a)
	}
	if isChain(e) {
		// A flattened chain of an associative, commutative operation.
		args = args[:0]
		for _, a := range flatten(e, nil) {
			args = append(args, n.key(a))
		}
		sort.Strings(args)
	} else if e.Op.Commutative() {
		sort.Strings(args)
	}
	return "(" + e.Op.String() + ":" + e.Type.String() + " " + strings.Join(args, " ") + ")"
}

// ieeeForm rewrites the root of a float node with the exact IEEE rules:
// a − b is a + (−0 − b) unless a is −0, −0 − (−0 − b) is b.
func ieeeForm(e *Expr) *Expr {
	if e.Op != OpSub {
		return e
	}
	a, b := e.Args[0], e.Args[1]
	if isNegZero(a) {
		if b.Op == OpSub && isNegZero(b.Args[0]) {
			return ieeeForm(b.Args[1])
		}
		return e
	}
	return Apply(OpAdd, a, Apply(OpSub, Const(negZero(e.Type), e.Type), b))
}

// poly is a polynomial: monomial (its atoms' keys, sorted, joined) →
// coefficient.
type poly struct {
	t     Type
	terms map[string]*big.Rat // floats under Real
	ints  map[string]uint64   // integers, modulo 2^bits
}

func (n *normalizer) newPoly(t Type) *poly {
	p := &poly{t: t}
	if t.Integer() {
		p.ints = map[string]uint64{}
	} else {
		p.terms = map[string]*big.Rat{}
	}
	return p
}

// poly returns the polynomial of e, a node of a ring type.
func (n *normalizer) poly(e *Expr) *poly {
	t := e.Type
	switch e.Op {
	case OpConst:
		p := n.newPoly(t)
		if t.Integer() {
			p.addInt("", uint64(e.Value))
			return p
		}
		f := e.Value.Float(t)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			break
		}
		r := new(big.Rat)
		r.SetFloat64(f)
		p.addRat("", r)
		return p
	case OpNeg:
		return n.poly(e.Args[0]).scale(-1)
	case OpAdd, OpSub:
		a, b := n.poly(e.Args[0]), n.poly(e.Args[1])
		if e.Op == OpSub {
			b = b.scale(-1)
		}
		return a.add(b)
	case OpMul:
		return n.poly(e.Args[0]).mul(n.poly(e.Args[1]))
	case OpCast:
		if a := e.Args[0]; t.Integer() && a.Type.Integer() && t.Bits() <= a.Type.Bits() {
			if p, ok := truncate(a, t); ok {
				return n.poly(p)
			}
		}
	case OpSelect:
		// select(c, a, b) = b + select(c, a − b, 0): the branches'
		// common part leaves the select (exact in a ring), and the rest
		// is a multiple of the condition's indicator.
		a, b := n.poly(e.Args[1]), n.poly(e.Args[2])
		d := a.add(b.scale(-1))
		if d.zero() {
			return b
		}
		// select(c, d, 0) = d·[c] with [c] = select(c, 1, 0), exactly in
		// a ring: the indicator of the condition is the one atom.
		key := "(select:" + t.String() + " " + n.key(e.Args[0]) + ")"
		p := n.newPoly(t)
		if t.Integer() {
			p.addInt(key, 1)
		} else {
			p.addRat(key, big.NewRat(1, 1))
		}
		p = d.mul(p)
		return b.add(p)
	}
	p := n.newPoly(t)
	key := n.atom(e)
	if t.Integer() {
		p.addInt(key, 1)
	} else {
		p.addRat(key, big.NewRat(1, 1))
	}
	return p
}

func (p *poly) addInt(m string, c uint64) {
	v := (p.ints[m] + c) & uint64(mask(p.t))
	if v == 0 {
		delete(p.ints, m)
	} else {
		p.ints[m] = v
	}
}

func (p *poly) addRat(m string, c *big.Rat) {
	v := new(big.Rat).Set(c)
	if old, ok := p.terms[m]; ok {
		v.Add(v, old)
	}
	if v.Sign() == 0 {
		delete(p.terms, m)
	} else {
		p.terms[m] = v
	}
}

func (p *poly) zero() bool { return len(p.ints) == 0 && len(p.terms) == 0 }

func (p *poly) scale(s int64) *poly {
	q := &poly{t: p.t}
	if p.ints != nil {
		q.ints = map[string]uint64{}
		for m, c := range p.ints {
			q.addInt(m, c*uint64(s))
		}
		return q
	}
	q.terms = map[string]*big.Rat{}
	for m, c := range p.terms {
		q.addRat(m, new(big.Rat).Mul(c, big.NewRat(s, 1)))
	}
	return q
}

func (p *poly) add(o *poly) *poly {
	q := p.scale(1)
	for m, c := range o.ints {
		q.addInt(m, c)
	}
	for m, c := range o.terms {
		q.addRat(m, c)
	}
	return q
}

// monoSep separates the atoms of a monomial; no key contains it.
const monoSep = "\x1f"

// monomial multiplies two monomials (sorted lists of atom keys joined by
// monoSep).
func monomial(a, b string) string {
	var parts []string
	if a != "" {
		parts = append(parts, strings.Split(a, monoSep)...)
	}
	if b != "" {
		parts = append(parts, strings.Split(b, monoSep)...)
	}
	slices.Sort(parts)
	return strings.Join(parts, monoSep)
}

func (p *poly) mul(o *poly) *poly {
	q := p.scale(0)
	for m1, c1 := range p.ints {
		for m2, c2 := range o.ints {
			q.addInt(monomial(m1, m2), c1*c2)
		}
	}
	for m1, c1 := range p.terms {
		for m2, c2 := range o.terms {
			q.addRat(monomial(m1, m2), new(big.Rat).Mul(c1, c2))
		}
	}
	return q
}

func (p *poly) String() string {
	var parts []string
	for m, c := range p.ints {
		parts = append(parts, m+"*"+itoa(int(c)))
	}
	for m, c := range p.terms {
		parts = append(parts, m+"*"+c.String())
	}
	sort.Strings(parts)
	return "[" + p.t.String() + " " + strings.Join(parts, " + ") + "]"
}

func itoa(i int) string {
	return strings.TrimSpace(big.NewInt(int64(i)).String())
}

// maxLatticeTerms bounds the terms of a lattice normal form (the meets
// of a min over maxes multiply).
const maxLatticeTerms = 64

// lattice returns the normal form of a tree of min and max of one type
// over a total order (the integers; the reals under Real), a distributive
// lattice: the max of terms, each the min of a set of atoms (their keys,
// sorted), no term a superset of another (max(a, min(a, b)) = a). It
// reports false when the form would exceed maxLatticeTerms.
func (n *normalizer) lattice(e *Expr) ([][]string, bool) {
	if (e.Op != OpMin && e.Op != OpMax) || len(e.Args) != 2 {
		return [][]string{{n.key(e)}}, true
	}
	l, ok1 := n.lattice(e.Args[0])
	r, ok2 := n.lattice(e.Args[1])
	if !ok1 || !ok2 {
		return nil, false
	}
	if e.Args[0].Type != e.Type || e.Args[1].Type != e.Type {
		return [][]string{{n.key(e)}}, true
	}
	var terms [][]string
	if e.Op == OpMax {
		terms = append(append(terms, l...), r...)
	} else {
		if len(l)*len(r) > maxLatticeTerms {
			return nil, false
		}
		for _, a := range l {
			for _, b := range r {
				terms = append(terms, unionSorted(a, b))
			}
		}
	}
	return absorbTerms(terms), true
}

func unionSorted(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// absorbTerms drops the duplicate terms and those that contain another.
func absorbTerms(terms [][]string) [][]string {
	var out [][]string
	for i, t := range terms {
		keep := true
		for j, u := range terms {
			if i == j {
				continue
			}
			if isSubset(u, t) && (len(u) < len(t) || j < i) {
				keep = false // u ⊆ t: min(t) ≤ min(u), t adds nothing
				break
			}
		}
		if keep {
			out = append(out, t)
		}
	}
	return out
}

func isSubset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

func latticeKey(t Type, terms [][]string) string {
	parts := make([]string, len(terms))
	for i, term := range terms {
		parts[i] = "{" + strings.Join(term, " ") + "}"
	}
	sort.Strings(parts)
	return "(lattice:" + t.String() + " " + strings.Join(parts, " ") + ")"
}

// truncate returns e (an integer expression) converted to the integer type
// t of at most e's width, with the conversion moved into the ring
// operations: truncation modulo 2^w is a ring homomorphism, so t(a + b) =
// t(a) + t(b), t(a·b) = t(a)·t(b), t(−a) = −t(a), t(c ? a : b) = c ? t(a)
// : t(b), and t(u(v)) = t(v) when u is at least as wide as t (extending
// and truncating keeps the low bits). What is left converted is an atom:
// u8(x + i32(u8(0 − in))) is u8(x) − u8(in). It reports false when
// nothing moved.
func truncate(e *Expr, t Type) (*Expr, bool) {
	switch e.Op {
	case OpAdd, OpSub, OpMul:
		a, _ := truncate(e.Args[0], t)
		b, _ := truncate(e.Args[1], t)
		return &Expr{Op: e.Op, Type: t, Args: []*Expr{a, b}}, true
	case OpNeg:
		a, _ := truncate(e.Args[0], t)
		return &Expr{Op: OpNeg, Type: t, Args: []*Expr{a}}, true
	case OpSelect:
		a, _ := truncate(e.Args[1], t)
		b, _ := truncate(e.Args[2], t)
		return &Expr{Op: OpSelect, Type: t, Args: []*Expr{e.Args[0], a, b}}, true
	case OpConst:
		return Const(IntValue(e.Value.Int(e.Type), t), t), true
	case OpCast:
		if v := e.Args[0]; v.Type.Integer() && e.Type.Bits() >= t.Bits() && v.Type.Bits() >= t.Bits() {
			r, _ := truncate(v, t)
			return r, true
		}
	}
	if e.Type == t {
		return e, false
	}
	return Cast(e, t), false
}
