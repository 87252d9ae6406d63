package ir

// Expr is a typed scalar expression in a statement body.
type Expr interface {
	// Type is the C type of the expression's value.
	Type() Type
	exprNode()
}

// Const is a literal. Int holds integer values (and 0/1 for Bool), Float
// floating-point ones; Text is the source spelling when there is one (for
// printing "1.5" rather than "1.5000000000000000").
type Const struct {
	T     Type
	Int   int64
	Float float64
	Text  string
}

// Load reads the element named by the statement's access Accesses[Access].
type Load struct {
	T      Type
	Access int
}

// IterRef is the value of the statement's loop counter at Level (0 = outermost).
type IterRef struct {
	T     Type
	Level int
}

// ParamRef is the value of the program parameter Params[Param].
type ParamRef struct {
	T     Type
	Param int
}

// UnOp is a unary operator.
type UnOp uint8

// Unary operators.
const (
	Neg    UnOp = iota // -x
	Not                // !x (result Int)
	BitNot             // ~x
)

var unOpNames = [...]string{Neg: "-", Not: "!", BitNot: "~"}

func (o UnOp) String() string { return unOpNames[o] }

// Unary applies Op to X.
type Unary struct {
	Op UnOp
	X  Expr
	T  Type
}

// BinOp is a binary operator.
type BinOp uint8

// Binary operators, in C's spelling order.
const (
	Add BinOp = iota
	Sub
	Mul
	Quo // "/": truncating for integers, as in C
	Rem // "%"
	Shl
	Shr
	And // bitwise &
	Or  // bitwise |
	Xor
	Lt
	Le
	Gt
	Ge
	Eql
	Neq
	LAnd // &&
	LOr  // ||
)

var binOpNames = [...]string{
	Add: "+", Sub: "-", Mul: "*", Quo: "/", Rem: "%", Shl: "<<", Shr: ">>",
	And: "&", Or: "|", Xor: "^", Lt: "<", Le: "<=", Gt: ">", Ge: ">=",
	Eql: "==", Neq: "!=", LAnd: "&&", LOr: "||",
}

func (o BinOp) String() string { return binOpNames[o] }

// IsComparison reports whether o is a relational or equality operator.
func (o BinOp) IsComparison() bool { return o >= Lt && o <= Neq }

// IsLogical reports whether o is && or ||.
func (o BinOp) IsLogical() bool { return o == LAnd || o == LOr }

// Binary applies Op to X and Y. For arithmetic and bitwise operators X, Y and
// the result have type T (shifts: X has type T, Y its own promoted type);
// comparisons compare operands of a common type and yield Int; && and || take
// any scalar operands and yield Int.
type Binary struct {
	Op   BinOp
	X, Y Expr
	T    Type
}

// Cond is C's X ? Y : Z; Y, Z and the result have type T.
type Cond struct {
	C, X, Y Expr
	T       Type
}

// Cast converts X to T. Implicit casts are those C inserts (usual arithmetic
// conversions, assignment); printers omit them.
type Cast struct {
	T        Type
	X        Expr
	Implicit bool
}

// Call calls a pure function: one of MathFuncs (the math functions of
// <math.h>), or a function the source declares __attribute__((const)) or
// __attribute__((pure)) whose calls the front end proved to be values of
// their arguments in the region. Args are converted to the parameter
// types already. Only MathFuncs have a meaning nestor knows (interp
// evaluates them); the others are kept as written.
type Call struct {
	Fn   string
	Args []Expr
	T    Type
}

func (e *Const) Type() Type    { return e.T }
func (e *Load) Type() Type     { return e.T }
func (e *IterRef) Type() Type  { return e.T }
func (e *ParamRef) Type() Type { return e.T }
func (e *Unary) Type() Type    { return e.T }
func (e *Binary) Type() Type   { return e.T }
func (e *Cond) Type() Type     { return e.T }
func (e *Cast) Type() Type     { return e.T }
func (e *Call) Type() Type     { return e.T }

func (*Const) exprNode()    {}
func (*Load) exprNode()     {}
func (*IterRef) exprNode()  {}
func (*ParamRef) exprNode() {}
func (*Unary) exprNode()    {}
func (*Binary) exprNode()   {}
func (*Cond) exprNode()     {}
func (*Cast) exprNode()     {}
func (*Call) exprNode()     {}

// MathFuncs maps the pure functions of <math.h> a body may call to their
// result type and arity; all arguments have the result type. Each double
// function f comes with its float form ff and its long double form fl.
// None of them reads or writes memory: with the default floating-point
// environment (round to nearest, exceptions not trapped, errno not read
// by the region) a call is a value of its arguments. Functions with
// pointer arguments (frexp, modf), integer arguments or results (ldexp,
// lround) and lgamma (it writes signgam) are not among them.
var MathFuncs = mathFuncs()

// mathFuncArity lists the double forms of MathFuncs with their arity.
var mathFuncArity = map[string]int{
	"sqrt": 1, "cbrt": 1, "exp": 1, "exp2": 1, "expm1": 1, "log": 1, "log10": 1, "log2": 1, "log1p": 1,
	"pow": 2, "hypot": 2, "fabs": 1, "fmax": 2, "fmin": 2, "fdim": 2, "fmod": 2, "remainder": 2, "copysign": 2,
	"floor": 1, "ceil": 1, "round": 1, "trunc": 1, "rint": 1, "nearbyint": 1,
	"sin": 1, "cos": 1, "tan": 1, "asin": 1, "acos": 1, "atan": 1, "atan2": 2,
	"sinh": 1, "cosh": 1, "tanh": 1, "asinh": 1, "acosh": 1, "atanh": 1,
	"erf": 1, "erfc": 1, "tgamma": 1,
}

// MathFunc is the signature of a function of MathFuncs.
type MathFunc struct {
	T     Type
	Arity int
}

func mathFuncs() map[string]MathFunc {
	m := map[string]MathFunc{}
	for name, n := range mathFuncArity {
		m[name] = MathFunc{Double, n}
		m[name+"f"] = MathFunc{Float, n}
		m[name+"l"] = MathFunc{LongDouble, n}
	}
	return m
}

// Walk calls f on e and then on its operands, depth first, stopping a branch
// when f returns false.
func Walk(e Expr, f func(Expr) bool) {
	if !f(e) {
		return
	}
	switch e := e.(type) {
	case *Unary:
		Walk(e.X, f)
	case *Binary:
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Cond:
		Walk(e.C, f)
		Walk(e.X, f)
		Walk(e.Y, f)
	case *Cast:
		Walk(e.X, f)
	case *Call:
		for _, a := range e.Args {
			Walk(a, f)
		}
	}
}
