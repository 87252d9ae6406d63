package ir

import (
	"go/token"
	"strings"
)

// Program is one static-control region (scop) of a C function.
type Program struct {
	Params  []Param
	Arrays  []*Array
	Stmts   []*Stmt
	Context []Constraint // assumptions over the parameters only (e.g. n ≥ 0)
	// Vars are the int variables declared outside the region that loops in
	// it use as counters; generated code may assign them instead of
	// declaring new ones.
	Vars []string
	// Voided are the variables declared outside the region that it names
	// only in "(void)x;" statements, as nestor's own output marks the
	// counters its loops no longer use: the printed region names them so
	// again, for compilers run with -Wall -Werror.
	Voided []string
}

// Param is a symbolic size: an integer variable read, never written, in the
// region and used in bounds, subscripts or array sizes.
type Param struct {
	Name string
	Type Type
}

// Storage says where an array lives, which decides who declares it.
type Storage uint8

const (
	FuncParam Storage = iota // a parameter of the enclosing function
	Global                   // a file-scope variable
	FuncLocal                // declared in the function, before the region
	ScopLocal                // declared inside the region (a temporary)
)

var storageNames = [...]string{FuncParam: "param", Global: "global", FuncLocal: "local", ScopLocal: "scop-local"}

func (s Storage) String() string { return storageNames[s] }

// Array is a named block of memory; a scalar variable is an Array with no
// dimensions. Dims are affine in the parameters only; for an array function
// parameter the first dimension is the declared one (C ignores it); when the
// declaration leaves it out ("A[][n]", "(*A)[n]") it is a size the front
// end proved to cover every access of the region, or nil when it found
// none. The same holds for a local pointer to a fresh allocation the front
// end reads as an array (FuncLocal, "double (*t)[n] = malloc(…)").
type Array struct {
	Name    string
	Elem    Type
	Dims    []Aff
	Storage Storage
	Pos     token.Position // declaration
	// RegionOnly reports that no code outside the region reads or writes
	// the variable (a local of the enclosing function, neither static nor
	// address-taken, referenced only inside the region): its value before
	// the region is never read unless the region reads it, and its value
	// after the region is never read. False when unknown.
	RegionOnly bool
	// Heap asks the generated code to allocate an ir.ScopLocal array on
	// the heap for the region (an expanded scalar, package expand, whose
	// sizes are parameters) rather than on the stack.
	Heap bool
	// Members, when not nil, says the variable's elements are structs
	// whose members all have type Elem, named Members in the order of
	// their offsets, with no padding ("struct cpx { double re, im; }"):
	// the memory is exactly that of Elem[d1]...[dk][len(Members)], so the
	// last dimension is the constant len(Members) and selects the member.
	// Every access subscripts it with a constant, which prints as the
	// member: b[i][j][1] is b[i][j].im (see Array.Element).
	Members []string
}

// Element prints the element of a at the subscripts idx in C syntax, each
// subscript printed by sub: "A[i][j]", or "b[i][j].im" for an array of
// structs, whose last subscript is a constant member index.
func (a *Array) Element(idx []Aff, sub func(Aff) string) string {
	var b strings.Builder
	b.WriteString(a.Name)
	for k, x := range idx {
		if k == len(idx)-1 && a.Members != nil && x.Const >= 0 && x.Const < int64(len(a.Members)) {
			b.WriteString("." + a.Members[x.Const])
			break
		}
		b.WriteString("[" + sub(x) + "]")
	}
	return b.String()
}

// Rank is the number of dimensions of a.
func (a *Array) Rank() int { return len(a.Dims) }

// AssignOp is the operator of a statement: = or a compound assignment.
type AssignOp uint8

// Assignment operators. A compound x op= e means x = x op e (C99 6.5.16.2).
const (
	Assign AssignOp = iota
	AddAssign
	SubAssign
	MulAssign
	QuoAssign
	RemAssign
	ShlAssign
	ShrAssign
	AndAssign
	OrAssign
	XorAssign
)

var assignOpNames = [...]string{"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="}

func (o AssignOp) String() string { return assignOpNames[o] }

// Binary returns the binary operator of a compound assignment.
func (o AssignOp) Binary() BinOp {
	return [...]BinOp{AddAssign: Add, SubAssign: Sub, MulAssign: Mul, QuoAssign: Quo, RemAssign: Rem,
		ShlAssign: Shl, ShrAssign: Shr, AndAssign: And, OrAssign: Or, XorAssign: Xor}[o]
}

// Access is an array reference of a statement: the element
// Array[Index[0]]...[Index[r-1]], each subscript affine in the statement's
// counters and the parameters (Local is empty).
type Access struct {
	Array int // index into Program.Arrays
	Write bool
	Index []Aff
}

// Stmt is one assignment Accesses[0] Op RHS, executed once for every point of
// Domain in the order given by Beta and Dir (see the package doc).
type Stmt struct {
	Name     string   // S0, S1, ... in textual order
	Iters    []string // names of the surrounding loop counters, outermost first
	Dir      []int    // +1 or -1 per loop: the direction the counter moves
	Beta     []int    // len(Iters)+1 positions in the loop tree
	Domain   Domain
	Accesses []*Access
	Op       AssignOp
	RHS      Expr // converted to the written array's element type for Assign
	Pos      token.Position
	Text     string // the statement as written, for comments
}

// Depth is the number of loops around s.
func (s *Stmt) Depth() int { return len(s.Iters) }

// Value returns the value s stores: RHS for a plain assignment, and for a
// compound one (T)(x op RHS) with C's conversions made explicit, where x is
// the read Accesses[1] and T the element type.
func (s *Stmt) Value(p *Program) Expr {
	if s.Op == Assign {
		return s.RHS
	}
	t := p.Arrays[s.Accesses[0].Array].Elem
	x := Expr(&Load{T: t, Access: 1})
	y := s.RHS
	op := s.Op.Binary()
	var ct Type
	if op == Shl || op == Shr {
		ct = Promote(t)
		y = convert(y, Promote(y.Type()))
	} else {
		ct = Common(t, y.Type())
		y = convert(y, ct)
	}
	return convert(&Binary{Op: op, X: convert(x, ct), Y: y, T: ct}, t)
}

func convert(e Expr, t Type) Expr {
	if e.Type() == t {
		return e
	}
	return &Cast{T: t, X: e, Implicit: true}
}

// Schedule returns the 2d+1 original schedule vector of s at counters iter.
func (s *Stmt) Schedule(iter []int64) []int64 {
	v := make([]int64, 0, 2*len(iter)+1)
	for k, i := range iter {
		v = append(v, int64(s.Beta[k]), int64(s.Dir[k])*i)
	}
	return append(v, int64(s.Beta[len(iter)]))
}

// Less reports whether instance a of s precedes instance b of t in the
// original execution order.
func Less(s *Stmt, a []int64, t *Stmt, b []int64) bool {
	x, y := s.Schedule(a), t.Schedule(b)
	for k := 0; k < len(x) && k < len(y); k++ {
		if x[k] != y[k] {
			return x[k] < y[k]
		}
	}
	return len(x) < len(y)
}

// Writes reports whether any statement of p writes array a.
func (p *Program) Writes(a int) bool {
	for _, s := range p.Stmts {
		if s.Accesses[0].Array == a {
			return true
		}
	}
	return false
}

// Names returns the names p's parameters, arrays and outside counter
// variables take, for a pass that makes a new one.
func (p *Program) Names() map[string]bool {
	used := map[string]bool{}
	for _, q := range p.Params {
		used[q.Name] = true
	}
	for _, a := range p.Arrays {
		used[a.Name] = true
	}
	for _, v := range p.Vars {
		used[v] = true
	}
	return used
}

// ParamIndex returns the index of the parameter called name, or -1.
func (p *Program) ParamIndex(name string) int {
	for k, q := range p.Params {
		if q.Name == name {
			return k
		}
	}
	return -1
}

// ArrayIndex returns the index of the array called name, or -1.
func (p *Program) ArrayIndex(name string) int {
	for k, a := range p.Arrays {
		if a.Name == name {
			return k
		}
	}
	return -1
}
