package frontend

import (
	"fmt"
	"nestor/internal/intmath"
	"slices"

	"modernc.org/cc/v4"

	"nestor/ir"
)

// affMode says where an affine form is translated, which decides the
// variables it may use.
type affMode int

const (
	affSize      affMode = iota // array sizes: parameters only
	affSubscript                // subscripts: counters and parameters
	affBound                    // bounds and guards: also floor division by a constant
)

func (b *builder) depth(mode affMode) int {
	if mode == affSize {
		return 0
	}
	return len(b.loops)
}

func (b *builder) constAff(mode affMode, c int64) ir.Aff {
	a := ir.NewAff(b.depth(mode), b.np, 0)
	a.Const = c
	return a
}

// intValue returns the value of an integer constant expression.
func intValue(e cc.ExpressionNode) (int64, bool) {
	if e == nil {
		return 0, false
	}
	t := e.Type()
	if t == nil {
		return 0, false
	}
	if it, ok := scalarType(t); !ok || !it.IsInteger() {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		if v > 1<<63-1 {
			return 0, false
		}
		return int64(v), true
	}
	return 0, false
}

// aff translates an integer expression into a form over the counters of
// the enclosing loops (len(Iter) = depth, none for affSize), the parameters
// and the domain's locals. On failure it returns ok false and a reason,
// " (…)" or "", for the caller's message.
func (b *builder) aff(e cc.ExpressionNode, mode affMode) (ir.Aff, string, bool) {
	e = unparen(e)
	if e == nil {
		return ir.Aff{}, "", false
	}
	if c, ok := intValue(e); ok {
		return b.constAff(mode, c), "", true
	}
	switch e := e.(type) {
	case *cc.PrimaryExpression:
		if e.Case != cc.PrimaryExpressionIdent {
			return ir.Aff{}, "", false
		}
		d, ok := e.ResolvedTo().(*cc.Declarator)
		if !ok {
			return ir.Aff{}, "", false
		}
		if mode != affSize {
			for k := len(b.loops) - 1; k >= 0; k-- {
				if b.loops[k].decl == d {
					if v := b.loops[k].value; v != nil {
						return padAff(*v, len(b.loops), b.np, 0), "", true
					}
					a := ir.NewAff(len(b.loops), b.np, 0)
					a.Iter[k] = 1
					return a, "", true
				}
			}
		}
		if p, ok := b.params[d]; ok {
			a := ir.NewAff(b.depth(mode), b.np, 0)
			a.Param[p] = 1
			return a, "", true
		}
		switch {
		case b.counters[d] && mode != affSize:
			a, why := b.value(d, len(b.loops))
			if why != "" {
				return ir.Aff{}, fmt.Sprintf(" (loop counter %s used outside its loop: %s)", d.Name(), why), false
			}
			return a, "", true
		case b.counters[d]:
			return ir.Aff{}, fmt.Sprintf(" (%s is a loop counter)", d.Name()), false
		case b.written[d]:
			return ir.Aff{}, fmt.Sprintf(" (%s is written in the region)", d.Name()), false
		case !isIntScalar(d):
			return ir.Aff{}, fmt.Sprintf(" (%s is not an integer variable)", d.Name()), false
		}
		return ir.Aff{}, fmt.Sprintf(" (%s is not a parameter)", d.Name()), false
	case *cc.CastExpression:
		if e.Case != cc.CastExpressionCast {
			return ir.Aff{}, "", false
		}
		if t, ok := scalarType(e.Type()); !ok || !t.IsInteger() {
			return ir.Aff{}, "", false
		}
		return b.aff(e.CastExpression, mode)
	case *cc.UnaryExpression:
		switch e.Case {
		case cc.UnaryExpressionPlus:
			return b.aff(e.CastExpression, mode)
		case cc.UnaryExpressionMinus:
			x, why, ok := b.aff(e.CastExpression, mode)
			if !ok {
				return x, why, false
			}
			return scaleAff(x, -1)
		}
	case *cc.AdditiveExpression:
		if e.Case == cc.AdditiveExpressionMul {
			return b.aff(e.MultiplicativeExpression, mode)
		}
		x, why, ok := b.aff(e.AdditiveExpression, mode)
		if !ok {
			return x, why, false
		}
		y, why, ok := b.aff(e.MultiplicativeExpression, mode)
		if !ok {
			return y, why, false
		}
		k := int64(1)
		if e.Case == cc.AdditiveExpressionSub {
			k = -1
		}
		return addAff(x, k, y)
	case *cc.MultiplicativeExpression:
		x, why, ok := b.aff(e.MultiplicativeExpression, mode)
		if !ok {
			return x, why, false
		}
		switch e.Case {
		case cc.MultiplicativeExpressionMul:
			y, why, ok := b.aff(e.CastExpression, mode)
			if !ok {
				return y, why, false
			}
			switch {
			case y.IsConst():
				return scaleAff(x, y.Const)
			case x.IsConst():
				return scaleAff(y, x.Const)
			}
			return ir.Aff{}, "", false
		case cc.MultiplicativeExpressionDiv:
			c, ok := intValue(e.CastExpression)
			if !ok || c <= 0 || mode == affSize {
				return ir.Aff{}, "", false
			}
			if mode == affBound {
				return b.floorDiv(x, c), "", true
			}
			return b.exactDiv(e, x, c)
		case cc.MultiplicativeExpressionMod:
			return b.mod(e, x, mode)
		}
	case *cc.ConditionalExpression:
		if num, d, ok := b.floorCeil(e); ok && mode == affBound {
			return b.floorDiv(num, d), "", true
		}
	case *cc.ExpressionList:
		// "(e1, e2)": the value of e2, when e1 has no effect.
		var last cc.ExpressionNode
		for l := e; l != nil; l = l.ExpressionList {
			if last != nil && !sideEffectFree(last) {
				return ir.Aff{}, fmt.Sprintf(" (%s in a comma expression has side effects)", source(last)), false
			}
			last = l.AssignmentExpression
		}
		return b.aff(last, mode)
	}
	return ir.Aff{}, "", false
}

// sideEffectFree reports whether e assigns, increments and calls nothing
// (but the math functions).
func sideEffectFree(e cc.ExpressionNode) bool {
	free := true
	walk(e, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.AssignmentExpression:
			free = free && n.Case == cc.AssignmentExpressionCond
		case *cc.PostfixExpression:
			switch n.Case {
			case cc.PostfixExpressionInc, cc.PostfixExpressionDec:
				free = false
			case cc.PostfixExpressionCall:
				_, isMath := ir.MathFuncs[calleeName(n)]
				free = free && isMath
			}
		case *cc.UnaryExpression:
			free = free && n.Case != cc.UnaryExpressionInc && n.Case != cc.UnaryExpressionDec
		}
		return free
	})
	return free
}

// truncNote explains why C's truncating / and % need a non-negative
// dividend to be floor division.
const truncNote = "C's / and %% truncate toward zero, which is floor division only for a dividend ≥ 0"

// exactDiv translates x / c in a subscript: affine when c divides every
// coefficient of x (⌊x/c⌋ = (x − k)/c + ⌊k/c⌋ for the constant k) and x ≥ 0
// wherever the statement runs, so that C's truncation is floor division.
func (b *builder) exactDiv(e *cc.MultiplicativeExpression, x ir.Aff, c int64) (ir.Aff, string, bool) {
	for _, xs := range [][]int64{x.Iter, x.Param, x.Local} {
		for _, v := range xs {
			if v%c != 0 {
				return ir.Aff{}, fmt.Sprintf(" (%s is not a multiple of %d%s: the quotient is not affine)", source(e.MultiplicativeExpression), c, b.tripNote(e.MultiplicativeExpression, x)), false
			}
		}
	}
	if !b.nonNegative(x) {
		return ir.Aff{}, fmt.Sprintf(" (nestor cannot prove %s ≥ 0 where it is evaluated; "+truncNote+")", source(e.MultiplicativeExpression)), false
	}
	q := x.Clone()
	for _, xs := range [][]int64{q.Iter, q.Param, q.Local} {
		for k := range xs {
			xs[k] /= c
		}
	}
	q.Const = intmath.FloorDiv(x.Const, c)
	return q, "", true
}

// tripNote says, for a dividend that reads the counter of a loop counted
// by its trips (normalize), what the dividend is over the trip number k:
// ", as i = n + 3k, it is n + 3k".
func (b *builder) tripNote(e cc.ExpressionNode, x ir.Aff) string {
	names := ir.Names{Param: ir.ParamNames(b.prog), Iter: make([]string, len(b.loops))}
	note := ""
	for k, l := range b.loops {
		names.Iter[k] = l.name
		if l.value != nil && reads(e, l.decl) && note == "" {
			names.Iter[k] = "k"
			v := padAff(*l.value, len(b.loops), b.np, 0)
			note = fmt.Sprintf(", as %s = %s over its loop's trips k", l.name, ir.FormatAff(v, names))
		}
	}
	if _, d := ident(e); note == "" || d != nil || slices.ContainsFunc(x.Local, func(c int64) bool { return c != 0 }) {
		return note // the counter alone, or a form with floor divisions
	}
	return note + fmt.Sprintf(", it is %s", ir.FormatAff(padAff(x, len(b.loops), b.np, 0), names))
}

// mod translates x % c for a constant c > 0 and x ≥ 0 wherever the
// statement runs (proved with poly): in a bound or guard it is
// x − c·⌊x/c⌋ with a floor-division local; in a subscript it is a
// placeholder whose cases are the residues (split.go), so that every
// subscript stays affine.
func (b *builder) mod(e *cc.MultiplicativeExpression, x ir.Aff, mode affMode) (ir.Aff, string, bool) {
	c, ok := intValue(e.CastExpression)
	if !ok || c <= 0 || mode == affSize {
		return ir.Aff{}, fmt.Sprintf(" (%% by %s, not by a positive constant)", source(e.CastExpression)), false
	}
	if !b.nonNegative(x) {
		return ir.Aff{}, fmt.Sprintf(" (nestor cannot prove %s ≥ 0 where it is evaluated; "+truncNote+")", source(e.MultiplicativeExpression)), false
	}
	if c == 1 {
		return b.constAff(mode, 0), "", true
	}
	if mode == affBound {
		return addAff(x, -c, b.floorDiv(x, c))
	}
	if c > maxCopies {
		return ir.Aff{}, fmt.Sprintf(" (%% %d: nestor splits a statement into at most %d pieces)", c, maxCopies), false
	}
	l := len(b.divs)
	x = padAff(x, len(b.loops), b.np, l)
	key := fmt.Sprintf("%v %v %v %d %d", x.Iter, x.Param, x.Local, x.Const, c)
	if ph, ok := b.mods[key]; ok && ph.l < len(b.divs) && b.divs[ph.l].Den == 1 && b.divs[ph.l].Num.Const == ph.id {
		a := ir.NewAff(len(b.loops), b.np, len(b.divs))
		a.Local[ph.l] = 1
		return a, "", true
	}
	alts, ok := modCases(x, c, l)
	if !ok {
		return ir.Aff{}, " (coefficient overflow)", false
	}
	a := b.placeholder(alts)
	if b.mods == nil {
		b.mods = map[string]modPlaceholder{}
	}
	b.mods[key] = modPlaceholder{l: l, id: b.divs[l].Num.Const}
	return a, "", true
}

// modPlaceholder is the placeholder local l (with Num.Const id) that
// stands for a remainder, shared by the accesses that take it.
type modPlaceholder struct {
	l  int
	id int64
}

// floorDiv returns a form for ⌊x/c⌋, c > 0: x/c itself when c divides every
// coefficient, else a (shared) Div local of the domain. C's / truncates
// toward zero; for the non-negative numerators of loop bounds this is the
// same value (the convention of PolyBench and Pluto).
func (b *builder) floorDiv(x ir.Aff, c int64) ir.Aff {
	if c == 1 {
		return x
	}
	d := len(b.loops)
	num := padAff(x, d, b.np, len(b.divs))
	l := -1
	for k, dv := range b.divs {
		if dv.Den == c && dv.Num.Equal(num) {
			l = k
		}
	}
	if l < 0 {
		l = len(b.divs)
		b.divs = append(b.divs, ir.Div{Num: num, Den: c})
	}
	a := ir.NewAff(d, b.np, len(b.divs))
	a.Local[l] = 1
	return a
}

// padAff returns a copy of a with exactly d counters, np parameters and nl
// locals; missing coefficients are zero. Callers never shrink a form that
// uses the dropped variables.
func padAff(a ir.Aff, d, np, nl int) ir.Aff {
	fit := func(xs []int64, n int) []int64 {
		out := make([]int64, n)
		copy(out, xs)
		return out
	}
	return ir.Aff{Iter: fit(a.Iter, d), Param: fit(a.Param, np), Local: fit(a.Local, nl), Const: a.Const}
}

// addAff returns x + k*y, padded to the longer of the two; it fails on
// int64 overflow.
func addAff(x ir.Aff, k int64, y ir.Aff) (ir.Aff, string, bool) {
	r := padAff(x, max(len(x.Iter), len(y.Iter)), max(len(x.Param), len(y.Param)), max(len(x.Local), len(y.Local)))
	ok := true
	add := func(dst *int64, v int64) {
		p, o1 := mul64(k, v)
		s, o2 := add64(*dst, p)
		ok = ok && o1 && o2
		*dst = s
	}
	for i, v := range y.Iter {
		add(&r.Iter[i], v)
	}
	for i, v := range y.Param {
		add(&r.Param[i], v)
	}
	for i, v := range y.Local {
		add(&r.Local[i], v)
	}
	add(&r.Const, y.Const)
	if !ok {
		return ir.Aff{}, " (coefficient overflow)", false
	}
	return r, "", true
}

// scaleAff returns k*x; it fails on overflow.
func scaleAff(x ir.Aff, k int64) (ir.Aff, string, bool) {
	return addAff(ir.Aff{Iter: make([]int64, len(x.Iter)), Param: make([]int64, len(x.Param)), Local: make([]int64, len(x.Local))}, k, x)
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == -1<<63) || (b == -1 && a == -1<<63) {
		return 0, false
	}
	return p, true
}

func add64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// bound is a loop bound or a side of a comparison: min or max of bounds,
// or a leaf ⌊aff/den⌋ (den ≥ 1).
type bound struct {
	isMin, isMax bool
	kids         []*bound
	aff          ir.Aff
	den          int64
}

// boundTree translates e, recognizing the min and max idioms
// "a < b ? a : b" (and the forms with >, <=, >= and swapped arms, as
// macros such as MIN and MAX expand to) and a top-level division by a
// positive constant. It reports errors itself, calling the expression
// what ("bound", "condition").
func (b *builder) boundTree(e cc.ExpressionNode, what string) (*bound, bool) {
	u := unparen(e)
	if ce, ok := u.(*cc.ConditionalExpression); ok && ce.Case == cc.ConditionalExpressionCond {
		if num, d, ok := b.floorCeil(ce); ok {
			return &bound{aff: num, den: d}, true
		}
		if t, ok := b.minMax(ce, what); ok {
			return t, true
		}
		b.unsupported(e, "%s is not affine: %s (a conditional expression that is not min or max)", what, source(e))
		return nil, false
	}
	if me, ok := u.(*cc.MultiplicativeExpression); ok && me.Case == cc.MultiplicativeExpressionDiv {
		if c, ok := intValue(me.CastExpression); ok && c > 0 {
			num, why, ok := b.aff(me.MultiplicativeExpression, affBound)
			if !ok {
				b.unsupported(e, "%s is not affine: %s%s", what, source(e), why)
				return nil, false
			}
			return &bound{aff: num, den: c}, true
		}
	}
	a, why, ok := b.aff(u, affBound)
	if !ok {
		b.unsupported(e, "%s is not affine: %s%s", what, source(e), why)
		return nil, false
	}
	return &bound{aff: a, den: 1}, true
}

// minMax recognizes a conditional expression as min or max.
func (b *builder) minMax(ce *cc.ConditionalExpression, what string) (*bound, bool) {
	var x, y cc.ExpressionNode
	less := false
	switch c := unparen(ce.LogicalOrExpression).(type) {
	case *cc.RelationalExpression:
		x, y = c.RelationalExpression, c.ShiftExpression
		switch c.Case {
		case cc.RelationalExpressionLt, cc.RelationalExpressionLeq:
			less = true
		case cc.RelationalExpressionGt, cc.RelationalExpressionGeq:
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	tx, ok1 := b.boundTree(x, what)
	ty, ok2 := b.boundTree(y, what)
	tp, ok3 := b.boundTree(ce.ExpressionList, what)
	tq, ok4 := b.boundTree(ce.ConditionalExpression, what)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, false
	}
	var isMin bool
	switch {
	case sameBound(tx, tp) && sameBound(ty, tq): // x < y ? x : y
		isMin = less
	case sameBound(tx, tq) && sameBound(ty, tp): // x < y ? y : x
		isMin = !less
	default:
		return nil, false
	}
	return &bound{isMin: isMin, isMax: !isMin, kids: []*bound{tp, tq}}, true
}

func sameBound(x, y *bound) bool {
	if x.isMin != y.isMin || x.isMax != y.isMax || len(x.kids) != len(y.kids) {
		return false
	}
	if len(x.kids) == 0 {
		return x.den == y.den && x.aff.Equal(y.aff)
	}
	for k := range x.kids {
		if !sameBound(x.kids[k], y.kids[k]) {
			return false
		}
	}
	return true
}

// shift returns x + c (c ≥ 0 applied inside every leaf:
// ⌊a/d⌋ + c = ⌊(a + c·d)/d⌋).
func shift(x *bound, c int64) (*bound, bool) {
	if len(x.kids) > 0 {
		y := &bound{isMin: x.isMin, isMax: x.isMax}
		for _, k := range x.kids {
			s, ok := shift(k, c)
			if !ok {
				return nil, false
			}
			y.kids = append(y.kids, s)
		}
		return y, true
	}
	cd, ok := mul64(c, x.den)
	if !ok {
		return nil, false
	}
	a := x.aff.Clone()
	if a.Const, ok = add64(a.Const, cd); !ok {
		return nil, false
	}
	return &bound{aff: a, den: x.den}, true
}

// errNotConvex is the reason le gives for a min on the small side or a max
// on the large side of ≤.
const errNotConvex = "not convex"

// le returns constraints equivalent to x ≤ y, or a reason. A min on the
// small side or a max on the large side is a union of convex pieces: it
// becomes a placeholder whose cases are which operand is the extremum
// (extremum; nestor's output writes such bounds for loops that run
// the union of several statements' domains).
func (b *builder) le(x, y *bound) ([]ir.Constraint, string) {
	switch {
	case x.isMin:
		a, ok := b.extremum(x)
		if !ok {
			return nil, errNotConvex
		}
		return b.le(&bound{aff: a, den: 1}, y)
	case y.isMax:
		a, ok := b.extremum(y)
		if !ok {
			return nil, errNotConvex
		}
		return b.le(x, &bound{aff: a, den: 1})
	case x.isMax:
		var out []ir.Constraint
		for _, k := range x.kids {
			c, why := b.le(k, y)
			if why != "" {
				return nil, why
			}
			out = append(out, c...)
		}
		return out, ""
	case y.isMin:
		var out []ir.Constraint
		for _, k := range y.kids {
			c, why := b.le(x, k)
			if why != "" {
				return nil, why
			}
			out = append(out, c...)
		}
		return out, ""
	}
	// Leaves: ⌊ax/cx⌋ ≤ ⌊ay/cy⌋.
	ax, cx, ay, cy := x.aff, x.den, y.aff, y.den
	if cx > 1 && cy > 1 {
		ax, cx = b.floorDiv(ax, cx), 1
	}
	var r ir.Aff
	var ok bool
	switch {
	case cx == 1:
		// ax ≤ ⌊ay/cy⌋ ⇔ cy·ax ≤ ay.
		r, _, ok = addAff(ay, -cy, ax)
	default:
		// ⌊ax/cx⌋ ≤ ay ⇔ ax ≤ cx·ay + cx − 1.
		var t ir.Aff
		t, _, ok = scaleAff(ay, cx)
		if ok {
			t.Const, ok = add64(t.Const, cx-1)
		}
		if ok {
			r, _, ok = addAff(t, -1, ax)
		}
	}
	if !ok {
		return nil, "coefficient overflow"
	}
	return []ir.Constraint{{Aff: r}}, ""
}

// lt returns constraints equivalent to x < y.
func (b *builder) lt(x, y *bound) ([]ir.Constraint, string) {
	x1, ok := shift(x, 1)
	if !ok {
		return nil, "coefficient overflow"
	}
	return b.le(x1, y)
}

// condition translates a guard or loop condition: a conjunction (&&) of
// comparisons of affine expressions, possibly with min, max and floor
// division. It reports errors itself; what names the condition in them
// ("loop condition", "condition").
func (b *builder) condition(e cc.ExpressionNode, what string) ([]ir.Constraint, bool) {
	u := unparen(e)
	switch c := u.(type) {
	case *cc.LogicalAndExpression:
		if c.Case == cc.LogicalAndExpressionLAnd {
			x, ok1 := b.condition(c.LogicalAndExpression, what)
			y, ok2 := b.condition(c.InclusiveOrExpression, what)
			return append(x, y...), ok1 && ok2
		}
	case *cc.LogicalOrExpression:
		if c.Case == cc.LogicalOrExpressionLOr {
			b.unsupported(e, "%s %s is a disjunction (||)", what, source(e))
			return nil, false
		}
	case *cc.RelationalExpression:
		if c.Case == cc.RelationalExpressionShift {
			break
		}
		side := "bound"
		if what == "condition" {
			side = "condition"
		}
		x, ok1 := b.boundTree(c.RelationalExpression, side)
		y, ok2 := b.boundTree(c.ShiftExpression, side)
		if !ok1 || !ok2 {
			return nil, false
		}
		var cons []ir.Constraint
		var why string
		switch c.Case {
		case cc.RelationalExpressionLt:
			cons, why = b.lt(x, y)
		case cc.RelationalExpressionLeq:
			cons, why = b.le(x, y)
		case cc.RelationalExpressionGt:
			cons, why = b.lt(y, x)
		case cc.RelationalExpressionGeq:
			cons, why = b.le(y, x)
		}
		if why != "" {
			b.unsupported(e, "%s %s is %s", what, source(e), why)
			return nil, false
		}
		return cons, true
	case *cc.EqualityExpression:
		switch c.Case {
		case cc.EqualityExpressionNeq:
			b.unsupported(e, "%s %s", what, source(e))
			return nil, false
		case cc.EqualityExpressionEq:
			if cons, ok := b.remainderIs(c); ok {
				return cons, true
			}
			x, ok1 := b.boundTree(c.EqualityExpression, "condition")
			y, ok2 := b.boundTree(c.RelationalExpression, "condition")
			if !ok1 || !ok2 {
				return nil, false
			}
			if len(x.kids) > 0 || len(y.kids) > 0 || x.den != 1 || y.den != 1 {
				x1, y1 := x, y
				if len(x.kids) == 0 && x.den > 1 {
					x1 = &bound{aff: b.floorDiv(x.aff, x.den), den: 1}
				}
				if len(y.kids) == 0 && y.den > 1 {
					y1 = &bound{aff: b.floorDiv(y.aff, y.den), den: 1}
				}
				if len(x1.kids) > 0 || len(y1.kids) > 0 {
					b.unsupported(e, "%s %s compares with min or max", what, source(e))
					return nil, false
				}
				x, y = x1, y1
			}
			r, _, ok := addAff(y.aff, -1, x.aff)
			if !ok {
				b.unsupported(e, "%s %s: coefficient overflow", what, source(e))
				return nil, false
			}
			return []ir.Constraint{b.congruence(ir.Constraint{Aff: r, Eq: true})}, true
		}
	}
	b.unsupported(e, "%s is not affine: %s", what, source(e))
	return nil, false
}

// floorCeil recognizes floor and ceiling division by a constant d > 0 as
// nestor's nestor_floord and nestor_ceild macros expand:
//
//	n < 0 ? -((-n + d - 1) / d) : n / d   = ⌊n/d⌋
//	n < 0 ? -(-n / d) : (n + d - 1) / d   = ⌈n/d⌉ = ⌊(n + d − 1)/d⌋
//
// Each division there has a non-negative dividend on its side of n < 0,
// where C's truncation is floor division. It returns num and d of the
// leaf ⌊num/d⌋.
func (b *builder) floorCeil(ce *cc.ConditionalExpression) (ir.Aff, int64, bool) {
	rel, ok := unparen(ce.LogicalOrExpression).(*cc.RelationalExpression)
	if !ok || rel.Case != cc.RelationalExpressionLt {
		return ir.Aff{}, 0, false
	}
	if z, ok := intValue(rel.ShiftExpression); !ok || z != 0 {
		return ir.Aff{}, 0, false
	}
	div := func(e cc.ExpressionNode) (ir.Aff, int64, bool) {
		me, ok := unparen(e).(*cc.MultiplicativeExpression)
		if !ok || me.Case != cc.MultiplicativeExpressionDiv {
			return ir.Aff{}, 0, false
		}
		d, ok := intValue(me.CastExpression)
		if !ok || d <= 0 {
			return ir.Aff{}, 0, false
		}
		x, _, ok := b.aff(me.MultiplicativeExpression, affBound)
		return x, d, ok
	}
	neg, ok := unparen(ce.ExpressionList).(*cc.UnaryExpression)
	if !ok || neg.Case != cc.UnaryExpressionMinus {
		return ir.Aff{}, 0, false
	}
	n, _, ok1 := b.aff(rel.RelationalExpression, affBound)
	t, d1, ok2 := div(neg.CastExpression)
	e, d2, ok3 := div(ce.ConditionalExpression)
	if !ok1 || !ok2 || !ok3 || d1 != d2 {
		return ir.Aff{}, 0, false
	}
	d := d1
	minusN, _, ok1 := scaleAff(n, -1)
	up, _, ok2 := addAff(n, 1, ir.Aff{Const: d - 1})
	down, _, ok3 := addAff(minusN, 1, ir.Aff{Const: d - 1})
	if !ok1 || !ok2 || !ok3 {
		return ir.Aff{}, 0, false
	}
	switch {
	case e.Equal(n) && t.Equal(down): // floor
		return n, d, true
	case e.Equal(up) && t.Equal(minusN): // ceiling
		return up, d, true
	}
	return ir.Aff{}, 0, false
}

// extremum returns a placeholder for the min or max t of affine leaves
// (nested mins of a min, or maxes of a max, flattened): in case k, leaf k
// is the extremum (ties go to the first) and the value is leaf k (a
// floor-division local for a leaf with a division, a placeholder of its
// own for a max inside a min or a min inside a max).
func (b *builder) extremum(t *bound) (ir.Aff, bool) {
	var leaves []ir.Aff
	var flat func(u *bound) bool
	flat = func(u *bound) bool {
		if len(u.kids) == 0 {
			a := u.aff
			if u.den > 1 {
				a = b.floorDiv(a, u.den)
			}
			leaves = append(leaves, a)
			return true
		}
		if u.isMin != t.isMin {
			// A max inside a min (or the other way): its own
			// placeholder is its exact value.
			a, ok := b.extremum(u)
			leaves = append(leaves, a)
			return ok
		}
		for _, k := range u.kids {
			if !flat(k) {
				return false
			}
		}
		return true
	}
	if !flat(t) {
		return ir.Aff{}, false
	}
	d, l := len(b.loops), len(b.divs)
	var alts []alt
	for k, lk := range leaves {
		a := alt{value: padAff(lk, d, b.np, l)}
		for j, lj := range leaves {
			if j == k {
				continue
			}
			// min: leaf j − leaf k ≥ 0 (≥ 1 for an earlier j); max: the
			// other way.
			var c ir.Aff
			var ok bool
			if t.isMin {
				c, _, ok = addAff(lj, -1, lk)
			} else {
				c, _, ok = addAff(lk, -1, lj)
			}
			if ok && j < k {
				c.Const, ok = add64(c.Const, -1)
			}
			if !ok {
				return ir.Aff{}, false
			}
			a.cons = append(a.cons, ir.Constraint{Aff: padAff(c, d, b.np, l)})
		}
		alts = append(alts, a)
	}
	return b.placeholder(alts), true
}

// congruence rewrites the equality num − m·⌊num/m⌋ − r = 0 (or its
// negation), what "x % m == r" becomes, as (num − r) − m·q' = 0 with q' =
// ⌊(num − r)/m⌋, the form of a stride, which code generation prints as
// "(num − r) % m == 0" or a loop step. Other constraints, and r outside
// [0, m) (never true), come back unchanged.
func (b *builder) congruence(c ir.Constraint) ir.Constraint {
	l := -1
	for k, v := range c.Local {
		if v != 0 {
			if l >= 0 {
				return c
			}
			l = k
		}
	}
	if l < 0 || b.divs[l].Den <= 1 {
		return c
	}
	dv := b.divs[l]
	a := c.Aff
	if a.Local[l] > 0 {
		a, _, _ = scaleAff(a, -1)
	}
	if a.Local[l] != -dv.Den {
		return c
	}
	rest := a.Clone()
	rest.Local[l] = 0
	num := padAff(dv.Num, len(rest.Iter), len(rest.Param), len(rest.Local))
	r := num.Const - rest.Const
	rest.Const = num.Const
	if !rest.Equal(num) || r < 0 || r >= dv.Den {
		return c
	}
	shifted := num.Clone()
	shifted.Const -= r
	q := b.floorDiv(shifted, dv.Den)
	out, _, ok := addAff(shifted, -dv.Den, q)
	if !ok {
		return c
	}
	return ir.Constraint{Aff: out, Eq: true}
}

// remainderIs translates "x % m == r" (either side) for a constant m > 0
// and a constant r with C's truncating %, whatever the sign of x: the
// remainder is 0 exactly when m divides x; it is r > 0 exactly when x ≥ r
// and m divides x − r, and r < 0 when x ≤ r and m divides x − r; |r| ≥ m
// never. Divisibility is a stride: x − r − m·q = 0 with q = ⌊(x − r)/m⌋.
func (b *builder) remainderIs(c *cc.EqualityExpression) ([]ir.Constraint, bool) {
	side := func(mod, val cc.ExpressionNode) ([]ir.Constraint, bool) {
		me, ok := unparen(mod).(*cc.MultiplicativeExpression)
		if !ok || me.Case != cc.MultiplicativeExpressionMod {
			return nil, false
		}
		m, ok1 := intValue(me.CastExpression)
		r, ok2 := intValue(val)
		if !ok1 || !ok2 || m <= 0 {
			return nil, false
		}
		x, _, ok := b.aff(me.MultiplicativeExpression, affBound)
		if !ok {
			return nil, false
		}
		if r <= -m || r >= m {
			never := b.constAff(affBound, -1)
			return []ir.Constraint{{Aff: never}}, true
		}
		xr, _, ok := addAff(x, 1, ir.Aff{Const: -r}) // x − r
		if !ok {
			return nil, false
		}
		q := b.floorDiv(xr, m)
		eq, _, ok := addAff(xr, -m, q)
		if !ok {
			return nil, false
		}
		cons := []ir.Constraint{{Aff: eq, Eq: true}}
		switch {
		case r > 0: // x − r ≥ 0
			cons = append(cons, ir.Constraint{Aff: xr})
		case r < 0: // r − x ≥ 0
			neg, _, _ := scaleAff(xr, -1)
			cons = append(cons, ir.Constraint{Aff: neg})
		}
		return cons, true
	}
	if cons, ok := side(c.EqualityExpression, c.RelationalExpression); ok {
		return cons, true
	}
	return side(c.RelationalExpression, c.EqualityExpression)
}
