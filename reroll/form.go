package reroll

import (
	"fmt"
	"math"
	"strings"

	"nestor/internal/intmath"
	"nestor/ir"
)

// form is a statement with the integers that may move between copies
// taken out. Two statements are copies of one body when their keys are
// equal; the integers (slots) of the copies must then form arithmetic
// progressions.
//
// The key spells, in a fixed order, the assignment operator, the domain
// (each local's numerator and denominator; each constraint's kind and
// coefficients), the accesses (array, write flag, each subscript's
// coefficients) and the body (node kinds, operators, types, access
// numbers, counter levels, parameters, literals that may not move). The
// slots are, in the same order, the constant of every domain constraint,
// the constant of every subscript, then the body's integer literals of
// types int, unsigned, long and unsigned long. Float literals are kept
// apart (floats): they may only be equal, or integers in progression.
type form struct {
	key    string
	ints   []int64
	types  []ir.Type // per slot: the literal's type, Void for an affine constant
	floats []float64
}

// newForm returns the form of s.
func newForm(s *ir.Stmt) *form {
	f := &form{}
	var b strings.Builder
	fmt.Fprintf(&b, "op%d|", s.Op)
	for _, dv := range s.Domain.Divs {
		fmt.Fprintf(&b, "div%d:%v%v%v%d|", dv.Den, dv.Num.Iter, dv.Num.Param, dv.Num.Local, dv.Num.Const)
	}
	for _, c := range s.Domain.Cons {
		fmt.Fprintf(&b, "con%t:%v%v%v|", c.Eq, c.Iter, c.Param, c.Local)
		f.slot(c.Const, ir.Void)
	}
	for _, a := range s.Accesses {
		fmt.Fprintf(&b, "acc%d:%t", a.Array, a.Write)
		for _, x := range a.Index {
			fmt.Fprintf(&b, "[%v%v]", x.Iter, x.Param)
			f.slot(x.Const, ir.Void)
		}
		b.WriteString("|")
	}
	f.expr(&b, s.RHS)
	f.key = b.String()
	return f
}

func (f *form) slot(v int64, t ir.Type) {
	f.ints = append(f.ints, v)
	f.types = append(f.types, t)
}

// movable reports whether a literal of type t may move between copies:
// the types a C integer literal has.
func movable(t ir.Type) bool {
	return t == ir.Int || t == ir.UInt || t == ir.Long || t == ir.ULong
}

// expr appends e's shape to the key, its movable literals to the slots.
func (f *form) expr(b *strings.Builder, e ir.Expr) {
	fmt.Fprintf(b, "(%T:%d", e, e.Type())
	switch e := e.(type) {
	case *ir.Const:
		switch {
		case e.T.IsFloat():
			f.floats = append(f.floats, e.Float)
		case movable(e.T):
			f.slot(e.Int, e.T)
		default:
			fmt.Fprintf(b, "=%d", e.Int)
		}
	case *ir.Load:
		fmt.Fprintf(b, "@%d", e.Access)
	case *ir.IterRef:
		fmt.Fprintf(b, "@%d", e.Level)
	case *ir.ParamRef:
		fmt.Fprintf(b, "@%d", e.Param)
	case *ir.Unary:
		fmt.Fprintf(b, ":%d", e.Op)
		f.expr(b, e.X)
	case *ir.Binary:
		fmt.Fprintf(b, ":%d", e.Op)
		f.expr(b, e.X)
		f.expr(b, e.Y)
	case *ir.Cond:
		f.expr(b, e.C)
		f.expr(b, e.X)
		f.expr(b, e.Y)
	case *ir.Cast:
		fmt.Fprintf(b, ":%t", e.Implicit)
		f.expr(b, e.X)
	case *ir.Call:
		b.WriteString(":" + e.Fn)
		for _, a := range e.Args {
			f.expr(b, a)
		}
	default:
		panic(fmt.Sprintf("reroll: unknown expression %T", e))
	}
	b.WriteString(")")
}

// ramp is the value of one slot in copy u: Start + u·Step.
type ramp struct{ Start, Step int64 }

// floatLit is a float literal of the rolled body: the literal itself when
// all copies agree (Same), else the integer progression R converted to
// the literal's type.
type floatLit struct {
	Same bool
	R    ramp
}

// exactFloatInt bounds the integers a float literal may take in a
// progression: |v| ≤ 2^24 converts exactly to float, double and long
// double, and stays far from int's range.
const exactFloatInt = 1 << 24

// progression is the progression that copies of one statement (forms of
// equal keys) follow so far: per slot and per float literal. The first
// two copies fix it; each further copy is checked in time linear in the
// number of slots, so finding runs stays cheap on long bodies.
type progression struct {
	rs []ramp
	fl []floatLit
	n  int64 // copies so far
	f0 *form
}

// newProgression returns the progression of copies f0 and f1, or false
// when there is none: a float literal that is neither equal in both nor
// an integer in both, or a difference that overflows.
func newProgression(f0, f1 *form) (*progression, bool) {
	g := &progression{rs: make([]ramp, len(f0.ints)), fl: make([]floatLit, len(f0.floats)), n: 1, f0: f0}
	for i, v := range f0.ints {
		d, ok := intmath.Sub(f1.ints[i], v)
		if !ok {
			return nil, false
		}
		g.rs[i] = ramp{v, d}
	}
	for i, v := range f0.floats {
		if math.Float64bits(f1.floats[i]) == math.Float64bits(v) {
			g.fl[i] = floatLit{Same: true}
			continue
		}
		// Integers in progression: (T)(c0 + u·d) computed in int.
		a, ok1 := floatInt(v)
		b, ok2 := floatInt(f1.floats[i])
		if !ok1 || !ok2 {
			return nil, false
		}
		g.fl[i] = floatLit{R: ramp{a, b - a}}
	}
	return g, g.add(f1)
}

// add reports whether copy f, the next one, follows g, and counts it.
func (g *progression) add(f *form) bool {
	u := g.n
	for i, r := range g.rs {
		v, ok := linear(r.Start, r.Step, u)
		if !ok || v != f.ints[i] {
			return false
		}
		if t := g.f0.types[i]; t != ir.Void && r.Step != 0 && !literalRamp(t, r.Start, r.Step, u+1) {
			return false
		}
	}
	for i, fl := range g.fl {
		x := f.floats[i]
		if fl.Same {
			if math.Float64bits(x) != math.Float64bits(g.f0.floats[i]) {
				return false
			}
			continue
		}
		v, ok := floatInt(x)
		if !ok || v != fl.R.Start+u*fl.R.Step || math.Abs(float64(v)) > exactFloatInt {
			return false
		}
	}
	g.n++
	return true
}

// floatInt returns x as an integer when it is one of magnitude at most
// exactFloatInt (not -0: (double)0 is +0).
func floatInt(x float64) (int64, bool) {
	if x != math.Trunc(x) || math.Abs(x) > exactFloatInt || x == 0 && math.Signbit(x) {
		return 0, false
	}
	return int64(x), true
}

// follow returns the progression the copies fs (of equal keys, in order,
// at least two) follow, or false when one of their integers follows none.
func follow(fs []*form) (*progression, bool) {
	g, ok := newProgression(fs[0], fs[1])
	if !ok {
		return nil, false
	}
	for _, f := range fs[2:] {
		if !g.add(f) {
			return nil, false
		}
	}
	return g, true
}

// literalRamp reports whether the literal progression c0 + u·d of type t
// over n copies can be computed in t as c0 ± |d|·u without leaving t's
// range: every copy's value is in range, and so is (n-1)·|d|.
func literalRamp(t ir.Type, c0, d, n int64) bool {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch t {
	case ir.Int:
		lo, hi = math.MinInt32, math.MaxInt32
	case ir.UInt:
		lo, hi = 0, math.MaxUint32
	case ir.ULong:
		lo = 0
	}
	for _, u := range []int64{0, n - 1} { // the extremes of a progression
		v, ok := linear(c0, d, u)
		if !ok || v < lo || v > hi {
			return false
		}
	}
	if d == math.MinInt64 {
		return false
	}
	span, ok := intmath.Mul(n-1, max(d, -d))
	return ok && span <= hi
}

// linear returns c + u·d, reporting false on overflow.
func linear(c, d, u int64) (int64, bool) {
	p, ok := intmath.Mul(d, u)
	if !ok {
		return 0, false
	}
	return intmath.Add(c, p)
}
