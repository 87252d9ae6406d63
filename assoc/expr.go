package assoc

import (
	"fmt"
	"strings"
)

// Type is a machine type of C that reductions compute in.
type Type uint8

const (
	Bool Type = iota
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	numTypes
)

var typeNames = [numTypes]string{"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

// Types lists every type, in the order of the tables.
func Types() []Type {
	out := make([]Type, numTypes)
	for t := range numTypes {
		out[t] = t
	}
	return out
}

func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// ParseType returns the type named s ("int32", "uint8", "float64", ...).
func ParseType(s string) (Type, error) {
	for t, name := range typeNames {
		if name == s {
			return Type(t), nil
		}
	}
	return 0, fmt.Errorf("assoc: unknown type %q (want one of %s)", s, strings.Join(typeNames[:], ", "))
}

// Bits returns the width of t in bits (1 for Bool).
func (t Type) Bits() int {
	switch t {
	case Bool:
		return 1
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32, Float32:
		return 32
	}
	return 64
}

// Signed reports whether t is a signed integer type.
func (t Type) Signed() bool { return t >= Int8 && t <= Int64 }

// Unsigned reports whether t is an unsigned integer type.
func (t Type) Unsigned() bool { return t >= Uint8 && t <= Uint64 }

// Float reports whether t is a floating-point type.
func (t Type) Float() bool { return t == Float32 || t == Float64 }

// Integer reports whether t is a signed or unsigned integer type.
func (t Type) Integer() bool { return t.Signed() || t.Unsigned() }

// Op is an operation of the expression language, or the kind of a leaf.
type Op uint8

const (
	// Leaves.
	OpX     Op = iota // x_i: element Index of the partial result (the left operand)
	OpY               // y_j: element Index of the right operand, a wildcard when matching
	OpK               // k: the generic constant (Index distinguishes several)
	OpConst           // a literal of the node's type (Value)
	OpVar             // a named value of the program being matched (Name)

	// Arithmetic, with C's semantics in the node's type.
	OpNeg // −a
	OpAdd
	OpSub
	OpMul
	OpDiv // truncating for integers
	OpMod // C's %: the sign of the dividend
	OpMin
	OpMax

	// Comparisons: operands of one type, result Bool.
	OpLT
	OpLE
	OpEQ
	OpNE

	// Logic on Bool.
	OpNot
	OpAnd // &&
	OpOr  // ||

	// Bitwise, on integers and Bool.
	OpBitAnd
	OpBitOr
	OpBitXor

	// OpSelect is c ? a : b: Args are the Bool condition, then a, b.
	OpSelect

	// OpCast is C's conversion of Args[0] to the node's Type (build it
	// with Cast): integers are truncated or extended by their own
	// signedness, a float converts to an integer by truncation (without
	// a value when the result does not fit), and to Bool a value is
	// true when it is not zero.
	OpCast

	// OpExp is e^a of a float (C's exp, expf), over the reals under
	// prove.Options.Real; Z3 knows it by facts of the exponential: a
	// positive function with exp(a)·exp(b) = exp(a + b), exp(0) = 1,
	// monotone, the inverse of log (assoc/prove, smt.go).
	OpExp

	// OpLog is the natural logarithm of a float (C's log, logf), over
	// the reals under prove.Options.Real, defined for a > 0 only; Z3
	// knows it as the inverse of exp (log(exp(a)) = a, exp(log(a)) = a),
	// with log(a·b) = log(a) + log(b) and monotone (assoc/prove, smt.go).
	OpLog

	// OpAbs is |a| of a float (C's fabs, fabsf): exact, in IEEE
	// arithmetic too (the sign bit cleared), and written out for Z3 (an
	// ite over the reals, fp.abs otherwise).
	OpAbs

	numOps
)

var opNames = [numOps]string{"x", "y", "k", "const", "var", "neg", "+", "-", "*", "/", "%", "min", "max",
	"<", "<=", "==", "!=", "!", "&&", "||", "&", "|", "^", "select", "cast", "exp", "log", "abs"}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Leaf reports whether o is a leaf kind (x, y, k, a constant or a variable).
func (o Op) Leaf() bool { return o <= OpVar }

// Arity returns the number of operands of o (0 for leaves).
func (o Op) Arity() int {
	switch {
	case o.Leaf():
		return 0
	case o == OpNeg || o == OpNot || o == OpCast || o.Math():
		return 1
	case o == OpSelect:
		return 3
	}
	return 2
}

// Math reports whether o is one of C's math functions of a float
// (exp, log, fabs): unary, of a float type to the same type.
func (o Op) Math() bool { return o == OpExp || o == OpLog || o == OpAbs }

// Commutative reports whether o's two operands may be swapped in every
// type (min, max, +, *, ==, !=, &&, ||, &, |, ^).
func (o Op) Commutative() bool {
	switch o {
	case OpAdd, OpMul, OpMin, OpMax, OpEQ, OpNE, OpAnd, OpOr, OpBitAnd, OpBitOr, OpBitXor:
		return true
	}
	return false
}

// Value is a constant: the bit pattern of its type, two's complement for
// integers (only the type's low bits are significant; the rest are zero),
// IEEE 754 for floats (math.Float32bits or Float64bits), 0 or 1 for Bool.
type Value uint64

// Expr is a node of an expression tree. A node's Type is the type of the
// value it computes; the operands of a comparison share a type and the
// comparison is Bool.
type Expr struct {
	Op    Op
	Type  Type
	Index int    // OpX, OpY, OpK: which element or constant
	Value Value  // OpConst
	Name  string // OpVar
	Args  []*Expr
}

// X returns x_i of type t.
func X(i int, t Type) *Expr { return &Expr{Op: OpX, Type: t, Index: i} }

// Y returns y_j of type t.
func Y(j int, t Type) *Expr { return &Expr{Op: OpY, Type: t, Index: j} }

// K returns the generic constant k of type t.
func K(t Type) *Expr { return &Expr{Op: OpK, Type: t} }

// Const returns the literal v of type t.
func Const(v Value, t Type) *Expr { return &Expr{Op: OpConst, Type: t, Value: v} }

// Var returns the named value name of type t.
func Var(name string, t Type) *Expr { return &Expr{Op: OpVar, Type: t, Name: name} }

// Cast returns e converted to type t (C's (t)e).
func Cast(e *Expr, t Type) *Expr { return &Expr{Op: OpCast, Type: t, Args: []*Expr{e}} }

// Apply returns op applied to args (for OpCast, use Cast); the result type is Bool for
// comparisons and logic, the type of the second operand for a select,
// the type of the first operand otherwise.
func Apply(op Op, args ...*Expr) *Expr {
	e := &Expr{Op: op, Args: args}
	switch {
	case op >= OpLT && op <= OpOr:
		e.Type = Bool
	case op == OpSelect:
		e.Type = args[1].Type
	default:
		e.Type = args[0].Type
	}
	return e
}

// Tuple is an operator of n elements: Elems[i] is the new value of x_i,
// an expression in x_0 … x_{n-1}, y_0 … y_{n-1} and k.
type Tuple struct {
	Elems []*Expr
}

// Operator is an associative operator with what the table records about
// it.
type Operator struct {
	Tuple
	// Identity gives, per element, the value e with f(e, v) = f(v, e) = v
	// for every v of the types (it may read k); nil when no such value
	// exists in the type (argmin over values that may equal the maximum).
	Identity []*Expr
	// Commutative reports whether f(a, b) = f(b, a) for all a, b.
	Commutative bool
}

// Walk calls fn on e and its operands, depth first, parents first; it
// stops descending below a node where fn returns false.
func (e *Expr) Walk(fn func(*Expr) bool) {
	if !fn(e) {
		return
	}
	for _, a := range e.Args {
		a.Walk(fn)
	}
}

// Leaves returns the number of leaves of e.
func (e *Expr) Leaves() int {
	n := 0
	e.Walk(func(x *Expr) bool {
		if x.Op.Leaf() {
			n++
		}
		return true
	})
	return n
}

// Uses reports whether e contains a leaf of kind op (OpX, OpY, OpK).
func (e *Expr) Uses(op Op) bool {
	found := false
	e.Walk(func(x *Expr) bool {
		found = found || x.Op == op
		return !found
	})
	return found
}

// Clone returns a deep copy of e.
func (e *Expr) Clone() *Expr {
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	for k, a := range e.Args {
		c.Args[k] = a.Clone()
	}
	if len(e.Args) == 0 {
		c.Args = nil
	}
	return &c
}

// Equal reports whether e and f are the same tree.
func (e *Expr) Equal(f *Expr) bool {
	if e.Op != f.Op || e.Type != f.Type || e.Index != f.Index || e.Value != f.Value || e.Name != f.Name || len(e.Args) != len(f.Args) {
		return false
	}
	for k := range e.Args {
		if !e.Args[k].Equal(f.Args[k]) {
			return false
		}
	}
	return true
}

// Validate checks that f has elements and that its leaves x_i and y_i
// name elements of f with their types.
func (f Tuple) Validate() error {
	if len(f.Elems) == 0 {
		return fmt.Errorf("assoc: empty tuple")
	}
	var err error
	for _, e := range f.Elems {
		e.Walk(func(x *Expr) bool {
			if (x.Op == OpX || x.Op == OpY) && err == nil {
				switch {
				case x.Index < 0 || x.Index >= len(f.Elems):
					err = fmt.Errorf("assoc: %v%d in a %d-tuple", x.Op, x.Index, len(f.Elems))
				case x.Type != f.Elems[x.Index].Type:
					err = fmt.Errorf("assoc: %v%d of type %v, element %d is %v", x.Op, x.Index, x.Type, x.Index, f.Elems[x.Index].Type)
				}
			}
			return err == nil
		})
	}
	return err
}

// Leaves returns the leaves of all of tp's elements.
func (tp Tuple) Leaves() int {
	n := 0
	for _, e := range tp.Elems {
		n += e.Leaves()
	}
	return n
}
