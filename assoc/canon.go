package assoc

import (
	"math"
	"slices"
	"strings"
)

// Canonical form.
//
// Canon rewrites an expression bottom-up: the operands of a node are
// made canonical first, then rules at the node apply until none does.
// The rules are exact: the canonical form has the value of the original
// with Env.Wrap wherever the original has one; without Wrap, where the
// original has a value the canonical form has the same one or, for
// reassociated signed sums and products, its wrapped value (the
// compiler's licence). Where the original has no value (a division by
// zero, an overflow) the canonical form may have one: a - a is 0.
//
// The form:
//
//   - Commutative operands are sorted by [Compare]: subtrees are ordered
//     first by their least leaf, x_0 < x_1 < … < y_0 < y_1 < … < named
//     values < k < literals, so x goes left of y and constants go right,
//     then a leaf before a compound (x as high up the tree as possible),
//     then structurally.
//   - Chains of an operation that is associative in the type are
//     flattened, sorted and rebuilt left-deep, ((a op b) op c): +, * on
//     integers; min, max on every type (fmin and fmax are associative
//     with NaN ignored and −0 < +0); &, |, ^ on integers; && and || on
//     Bool operands that cannot trap. Equal operands of min, max, &, |,
//     &&, || merge, equal operands of ^ cancel, literals fold into one.
//   - There is no negation: −a is 0 − a for integers and −0.0 − a for
//     floats (exact in IEEE: −0 − a is −a for every a); a − c for a
//     signed literal c is a + (−c).
//   - & | ^ on Bool are && || !=; min and max on Bool are && and ||.
//   - ! applies to no comparison of integers or Bool (!(a < b) is b <= a)
//     and to no == or != (they swap); select's condition is no !.
//   - select(p < q, p, q) and select(p <= q, p, q) are min(p, q),
//     select(p < q, q, p) and select(p <= q, q, p) are max(p, q),
//     select(p == q, p, q) is q and select(p != q, p, q) is p, on
//     integers (not floats: NaN and ±0 tell them apart). a / a is 1 and
//     a % a is 0 on integers.
//   - Operations on literals fold, where C gives them a value.
//
// Floats get only the rules exact in IEEE 754 for every operand, ±0,
// ±inf and NaN included (NaNs count as one value): a + (−0) = a, a − 0 = a,
// a * 1 = a, a / 1 = a, a − (−0 − b) = a + b and sorting of + and *; never
// a + 0 = a (−0 + 0 = +0), a − a = 0 (inf − inf is NaN), a * 0 = 0,
// a <= a, a == a (NaN), 0 − a = −a (0 − 0 = +0) nor reassociation.

// Canon returns the canonical form of e (see above); e is not modified.
// Canon(Canon(e)) equals Canon(e).
func Canon(e *Expr) *Expr {
	return canon(e)
}

// CanonTuple returns the tuple of the canonical forms of tp's elements.
func CanonTuple(tp Tuple) Tuple {
	out := Tuple{Elems: make([]*Expr, len(tp.Elems))}
	for i, e := range tp.Elems {
		out.Elems[i] = canon(e)
	}
	return out
}

// maxRewrites bounds the rules applied at one node, a guard against a
// rule cycle (the rules decrease size or remove a !, −, − c, and
// sorting is idempotent, so the bound is never reached in practice).
const maxRewrites = 64

func canon(e *Expr) *Expr {
	if e.Op.Leaf() {
		return e.Clone()
	}
	n := &Expr{Op: e.Op, Type: e.Type, Args: make([]*Expr, len(e.Args))}
	for i, a := range e.Args {
		n.Args[i] = canon(a)
	}
	for range maxRewrites {
		r, changed := rewrite(n)
		if !changed {
			return n
		}
		if r.Op.Leaf() {
			return r
		}
		// A rule may build new nodes above canonical operands: make
		// them canonical too.
		n = &Expr{Op: r.Op, Type: r.Type, Args: make([]*Expr, len(r.Args))}
		for i, a := range r.Args {
			n.Args[i] = canon(a)
		}
	}
	return n
}

// IsCanonicalRoot reports whether e is canonical given that its operands
// are: whether no rule applies at its root. The enumeration builds trees
// from canonical operands and uses it instead of Canon.
func IsCanonicalRoot(e *Expr) bool {
	_, changed := rewrite(e)
	return !changed
}

// rewrite applies the first rule that matches at e's root, whose
// operands are canonical, and reports whether one did.
func rewrite(e *Expr) (*Expr, bool) {
	if e.Op.Leaf() {
		return e, false
	}
	if r, ok := fold(e); ok {
		return r, true
	}
	t := e.Type
	a := e.Args[0]
	var b *Expr
	if len(e.Args) > 1 {
		b = e.Args[1]
	}
	switch e.Op {
	case OpCast:
		if a.Type == t { // a conversion to the operand's own type
			return a, true
		}
	case OpNeg:
		switch {
		case t.Integer():
			return Apply(OpSub, Const(0, t), a), true
		case t.Float():
			return Apply(OpSub, Const(negZero(t), t), a), true
		}
	case OpSub:
		return rewriteSub(e)
	case OpAdd, OpMul:
		if t.Integer() {
			return rewriteChain(e)
		}
		if t.Float() {
			return rewriteFloatComm(e)
		}
	case OpMin, OpMax:
		if t == Bool {
			op := OpAnd
			if e.Op == OpMax {
				op = OpOr
			}
			return Apply(op, a, b), true
		}
		return rewriteChain(e)
	case OpBitAnd, OpBitOr, OpBitXor:
		if t == Bool {
			op := map[Op]Op{OpBitAnd: OpAnd, OpBitOr: OpOr, OpBitXor: OpNE}[e.Op]
			return Apply(op, a, b), true
		}
		if t.Integer() {
			return rewriteChain(e)
		}
	case OpAnd, OpOr:
		return rewriteLogic(e)
	case OpDiv:
		switch {
		case isLit(b, 1):
			return a, true
		case t.Integer() && a.Equal(b): // a / a is 1 where it has a value
			return Const(1, t), true
		}
	case OpMod:
		if t.Integer() && (isLit(b, 1) || t.Signed() && isLit(b, -1) || a.Equal(b)) {
			return Const(0, t), true
		}
	case OpNot:
		return rewriteNot(e)
	case OpLT, OpLE, OpEQ, OpNE:
		return rewriteCompare(e)
	case OpSelect:
		return rewriteSelect(e)
	}
	return e, false
}

// fold evaluates an operation on literals (a select on a literal
// condition) where C gives it a value.
func fold(e *Expr) (*Expr, bool) {
	if e.Op == OpSelect && e.Args[0].Op == OpConst {
		if e.Args[0].Value.Bool(e.Args[0].Type) {
			return e.Args[1], true
		}
		return e.Args[2], true
	}
	for _, a := range e.Args {
		if a.Op != OpConst {
			return nil, false
		}
	}
	v, err := Eval(e, Env{})
	if err != nil {
		return nil, false
	}
	return Const(v, e.Type), true
}

func rewriteSub(e *Expr) (*Expr, bool) {
	t, a, b := e.Type, e.Args[0], e.Args[1]
	if t.Float() {
		switch {
		case b.Op == OpConst && b.Value == 0: // a − (+0) = a
			return a, true
		case b.Op == OpSub && isNegZero(b.Args[0]): // a − (−0 − c) = a + c
			return Apply(OpAdd, a, b.Args[1]), true
		}
		return e, false
	}
	if !t.Integer() {
		return e, false
	}
	switch {
	case a.Equal(b):
		return Const(0, t), true
	case isLit(b, 0):
		return a, true
	case b.Op == OpConst && t.Signed() && b.Value != minValue(t):
		return Apply(OpAdd, a, Const(-b.Value&mask(t), t)), true
	case b.Op == OpSub && isLit(b.Args[0], 0): // a − (0 − c) = a + c
		return Apply(OpAdd, a, b.Args[1]), true
	case isLit(a, 0) && b.Op == OpSub: // 0 − (c − d) = d − c
		return Apply(OpSub, b.Args[1], b.Args[0]), true
	}
	return e, false
}

// rewriteFloatComm sorts the operands of a float + or * and drops the
// exact identities a + (−0) and a * 1.
func rewriteFloatComm(e *Expr) (*Expr, bool) {
	a, b := e.Args[0], e.Args[1]
	if e.Op == OpAdd {
		if isNegZero(b) {
			return a, true
		}
		if isNegZero(a) {
			return b, true
		}
	} else {
		if isLit(b, 1) {
			return a, true
		}
		if isLit(a, 1) {
			return b, true
		}
	}
	if Compare(a, b) > 0 {
		return Apply(e.Op, b, a), true
	}
	return e, false
}

// canTrap reports whether evaluating e may fail for some inputs:
// integer division, or signed int32/int64 arithmetic that may overflow.
func canTrap(e *Expr) bool {
	trap := false
	e.Walk(func(x *Expr) bool {
		switch x.Op {
		case OpDiv, OpMod:
			trap = trap || x.Type.Integer()
		case OpNeg, OpAdd, OpSub, OpMul:
			trap = trap || x.Type == Int32 || x.Type == Int64
		}
		return !trap
	})
	return trap
}

func rewriteLogic(e *Expr) (*Expr, bool) {
	a, b := e.Args[0], e.Args[1]
	and := e.Op == OpAnd
	if a.Op == OpConst {
		switch {
		case a.Value.Bool(a.Type) != and: // false && b, true || b
			return Const(BoolValue(!and), Bool), true
		case b.Type == Bool: // true && b, false || b
			return b, true
		}
	}
	if a.Type != Bool || b.Type != Bool || canTrap(a) || canTrap(b) {
		return e, false
	}
	return rewriteChain(e)
}

// rewriteChain flattens a chain of e's associative and commutative
// operation, sorts it, merges, cancels and folds operands, and rebuilds
// it left-deep.
func rewriteChain(e *Expr) (*Expr, bool) {
	op, t := e.Op, e.Type
	var ops []*Expr
	var flatten func(x *Expr)
	flatten = func(x *Expr) {
		if x.Op == op && x.Type == t && (op != OpAnd && op != OpOr || chainable(x)) {
			flatten(x.Args[0])
			flatten(x.Args[1])
			return
		}
		ops = append(ops, x)
	}
	flatten(e)
	slices.SortStableFunc(ops, Compare)
	ops = mergeOperands(op, t, ops)
	r := chain(op, t, ops)
	return r, !r.Equal(e)
}

func chainable(x *Expr) bool {
	a, b := x.Args[0], x.Args[1]
	return a.Type == Bool && b.Type == Bool && !canTrap(a) && !canTrap(b)
}

// mergeOperands simplifies the sorted operands of a chain of op: equal
// operands merge or cancel, literals (sorted last) fold into one, and
// identities and absorbing elements apply.
func mergeOperands(op Op, t Type, ops []*Expr) []*Expr {
	var out []*Expr
	for _, x := range ops {
		if len(out) > 0 && out[len(out)-1].Equal(x) {
			switch op {
			case OpMin, OpMax, OpBitAnd, OpBitOr, OpAnd, OpOr:
				continue
			case OpBitXor:
				out = out[:len(out)-1]
				continue
			}
		}
		out = append(out, x)
	}
	// Fold the literals at the end into one.
	n := len(out)
	for n >= 2 && out[n-1].Op == OpConst && out[n-2].Op == OpConst {
		v, err := Eval(Apply(op, out[n-2], out[n-1]), Env{Wrap: true})
		if err != nil {
			break
		}
		out = append(out[:n-2], Const(v, t))
		n--
	}
	if n >= 1 && out[n-1].Op == OpConst {
		c := out[n-1].Value
		switch {
		case isIdentity(op, t, c):
			out = out[:n-1]
		case isAbsorbing(op, t, c):
			return []*Expr{out[n-1]}
		}
	}
	if t.Integer() && (op == OpMin || op == OpMax) {
		out = absorb(op, out)
	}
	if len(out) == 0 {
		// Everything cancelled or was an identity.
		switch op {
		case OpBitXor, OpBitOr, OpAdd:
			return []*Expr{Const(0, t)}
		case OpAnd:
			return []*Expr{Const(1, Bool)}
		case OpOr:
			return []*Expr{Const(0, Bool)}
		case OpMul:
			return []*Expr{Const(1, t)}
		case OpBitAnd:
			return []*Expr{Const(mask(t), t)}
		case OpMin:
			return []*Expr{Const(maxValue(t), t)}
		case OpMax:
			return []*Expr{Const(minValue(t), t)}
		}
	}
	return out
}

// absorb drops, from the operands of an integer min (max), every max
// (min) that has another operand among its own: min(a, max(a, b)) = a.
func absorb(op Op, ops []*Expr) []*Expr {
	dual := OpMax
	if op == OpMax {
		dual = OpMin
	}
	var out []*Expr
	for i, x := range ops {
		drop := false
		if x.Op == dual {
			var inner []*Expr
			var walk func(y *Expr)
			walk = func(y *Expr) {
				if y.Op == dual && y.Type == x.Type {
					walk(y.Args[0])
					walk(y.Args[1])
					return
				}
				inner = append(inner, y)
			}
			walk(x)
			for j, y := range ops {
				if j != i && slices.ContainsFunc(inner, y.Equal) {
					drop = true
				}
			}
		}
		if !drop {
			out = append(out, x)
		}
	}
	return out
}

func isIdentity(op Op, t Type, c Value) bool {
	switch op {
	case OpAdd, OpBitOr, OpBitXor, OpOr:
		return c == 0
	case OpMul:
		return c == 1
	case OpBitAnd:
		return c == mask(t)
	case OpAnd:
		return c == 1
	case OpMin:
		return t.Integer() && c == maxValue(t)
	case OpMax:
		return t.Integer() && c == minValue(t)
	}
	return false
}

func isAbsorbing(op Op, t Type, c Value) bool {
	switch op {
	case OpMul, OpBitAnd, OpAnd:
		return c == 0
	case OpBitOr:
		return c == mask(t)
	case OpOr:
		return c == 1
	case OpMin:
		return t.Integer() && c == minValue(t)
	case OpMax:
		return t.Integer() && c == maxValue(t)
	}
	return false
}

// chain builds ((o0 op o1) op o2) … from at least one operand.
func chain(op Op, t Type, ops []*Expr) *Expr {
	r := ops[0]
	for _, x := range ops[1:] {
		r = &Expr{Op: op, Type: t, Args: []*Expr{r, x}}
	}
	return r
}

func rewriteNot(e *Expr) (*Expr, bool) {
	a := e.Args[0]
	exactOrder := a.Op.Arity() == 2 && !a.Args[0].Type.Float()
	switch {
	case a.Op == OpNot && a.Args[0].Type == Bool:
		return a.Args[0], true
	case a.Op == OpLT && exactOrder:
		return Apply(OpLE, a.Args[1], a.Args[0]), true
	case a.Op == OpLE && exactOrder:
		return Apply(OpLT, a.Args[1], a.Args[0]), true
	case a.Op == OpEQ:
		return Apply(OpNE, a.Args[0], a.Args[1]), true
	case a.Op == OpNE:
		return Apply(OpEQ, a.Args[0], a.Args[1]), true
	}
	return e, false
}

func rewriteCompare(e *Expr) (*Expr, bool) {
	a, b := e.Args[0], e.Args[1]
	if a.Equal(b) {
		switch {
		case e.Op == OpLT:
			return Const(0, Bool), true
		case !a.Type.Float(): // NaN is not <=, == itself
			return Const(BoolValue(e.Op != OpNE), Bool), true
		}
	}
	if e.Op.Commutative() && Compare(a, b) > 0 {
		return Apply(e.Op, b, a), true
	}
	return e, false
}

func rewriteSelect(e *Expr) (*Expr, bool) {
	c, a, b := e.Args[0], e.Args[1], e.Args[2]
	switch {
	case a.Equal(b):
		return a, true
	case c.Op == OpNot:
		return Apply(OpSelect, c.Args[0], b, a), true
	case e.Type == Bool && c.Type == Bool && isLit(a, 1) && isLit(b, 0):
		return c, true
	case e.Type == Bool && c.Type == Bool && isLit(a, 0) && isLit(b, 1):
		return Apply(OpNot, c), true
	case e.Type.Integer() && (c.Op == OpLT || c.Op == OpLE):
		p, q := c.Args[0], c.Args[1]
		if a.Equal(p) && b.Equal(q) {
			return Apply(OpMin, p, q), true
		}
		if a.Equal(q) && b.Equal(p) {
			return Apply(OpMax, p, q), true
		}
	case e.Type.Integer() && (c.Op == OpEQ || c.Op == OpNE):
		// p == q ? p : q is q, p != q ? p : q is p (not for floats:
		// −0 == +0).
		p, q := c.Args[0], c.Args[1]
		if a.Equal(p) && b.Equal(q) || a.Equal(q) && b.Equal(p) {
			if c.Op == OpEQ {
				return b, true
			}
			return a, true
		}
	}
	return e, false
}

// isLit reports whether e is the literal i of its (integer, Bool or
// float) type.
func isLit(e *Expr, i int64) bool {
	if e.Op != OpConst {
		return false
	}
	if e.Type.Float() {
		return e.Value.Float(e.Type) == float64(i) && !(i == 0 && math.Signbit(e.Value.Float(e.Type)))
	}
	return e.Value == IntValue(i, e.Type)
}

func isNegZero(e *Expr) bool {
	return e.Op == OpConst && e.Type.Float() && e.Value == negZero(e.Type)
}

func negZero(t Type) Value { return FloatValue(math.Copysign(0, -1), t) }

// minValue and maxValue return the least and greatest values of the
// integer or Bool type t.
func minValue(t Type) Value {
	if t.Signed() {
		return 1 << (t.Bits() - 1)
	}
	return 0
}

func maxValue(t Type) Value {
	if t.Signed() {
		return mask(t) >> 1
	}
	return mask(t)
}

// leafRank orders the kinds of leaves: x before y before named values
// before k before literals.
var leafRank = [...]int{OpX: 0, OpY: 1, OpVar: 2, OpK: 3, OpConst: 4}

// leastLeaf returns e's least leaf in the leaf order of Compare.
func leastLeaf(e *Expr) *Expr {
	if e.Op.Leaf() {
		return e
	}
	best := leastLeaf(e.Args[0])
	for _, a := range e.Args[1:] {
		if l := leastLeaf(a); compareLeaf(l, best) < 0 {
			best = l
		}
	}
	return best
}

func compareLeaf(a, b *Expr) int {
	if c := leafRank[a.Op] - leafRank[b.Op]; c != 0 {
		return c
	}
	switch a.Op {
	case OpX, OpY, OpK:
		if c := a.Index - b.Index; c != 0 {
			return c
		}
	case OpVar:
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
	case OpConst:
		if a.Value != b.Value {
			if a.Value < b.Value {
				return -1
			}
			return 1
		}
	}
	return int(a.Type) - int(b.Type)
}

// Compare is the total order of canonical forms: negative when a goes
// left of b among commutative operands, zero when a.Equal(b). Subtrees
// are ordered by their least leaf (x_0 < x_1 < … < y_0 < … < named
// values by name < k < literals by bits, then by type), then a leaf
// before a compound, then compounds by operation, type and operands
// left to right.
func Compare(a, b *Expr) int {
	if c := compareLeaf(leastLeaf(a), leastLeaf(b)); c != 0 {
		return c
	}
	return compareShape(a, b)
}

func compareShape(a, b *Expr) int {
	switch al, bl := a.Op.Leaf(), b.Op.Leaf(); {
	case al && bl:
		return compareLeaf(a, b)
	case al:
		return -1
	case bl:
		return 1
	}
	if c := int(a.Op) - int(b.Op); c != 0 {
		return c
	}
	if c := int(a.Type) - int(b.Type); c != 0 {
		return c
	}
	if c := len(a.Args) - len(b.Args); c != 0 {
		return c
	}
	for i := range a.Args {
		if c := Compare(a.Args[i], b.Args[i]); c != 0 {
			return c
		}
	}
	return 0
}
