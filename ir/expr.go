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

// Call calls a pure math function of <math.h> (sqrt, exp, pow, fabs, fmax,
// fmin, floor, ... and their f-suffixed float forms); Args are converted to
// the parameter types already.
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

// MathFuncs maps the pure functions a body may call to their result type
// and arity. All arguments have the result type.
var MathFuncs = map[string]struct {
	T     Type
	Arity int
}{
	"sqrt": {Double, 1}, "exp": {Double, 1}, "log": {Double, 1}, "pow": {Double, 2},
	"fabs": {Double, 1}, "fmax": {Double, 2}, "fmin": {Double, 2}, "floor": {Double, 1},
	"ceil": {Double, 1}, "sin": {Double, 1}, "cos": {Double, 1}, "tanh": {Double, 1},
	"sqrtf": {Float, 1}, "expf": {Float, 1}, "logf": {Float, 1}, "powf": {Float, 2},
	"fabsf": {Float, 1}, "fmaxf": {Float, 2}, "fminf": {Float, 2}, "floorf": {Float, 1},
	"ceilf": {Float, 1}, "sinf": {Float, 1}, "cosf": {Float, 1}, "tanhf": {Float, 1},
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
