package frontend

import (
	"go/token"

	"nestor/ir"
)

// Config is what a C compiler would take on its command line.
type Config struct {
	IncludePaths []string // -I folders, searched for "..." and <...> includes
	Defines      []string // -D: "NAME" or "NAME=VALUE"
}

// File is a parsed C file with its scop regions.
type File struct {
	Path  string
	Src   []byte // the file as read, byte for byte
	Scops []*Scop
	// Funcs are the signatures of all function definitions in the file
	// itself (not its includes), in textual order; a harness uses them to
	// find helpers such as PolyBench's init_array.
	Funcs []*Func
}

// Scop is one #pragma scop ... #pragma endscop region.
type Scop struct {
	Prog *ir.Program
	Func *Func // the function that contains the region
	// Start and End delimit the region's body in File.Src: Start is the first
	// byte of the line after "#pragma scop", End the first byte of the
	// "#pragma endscop" line. Replacing Src[Start:End] replaces the region.
	Start, End int
	Indent     string         // leading white space of the "#pragma scop" line
	Pos        token.Position // of "#pragma scop"
}

// Func is the signature of a C function, enough for a harness to call it.
type Func struct {
	Name   string
	Params []FuncParam // in declaration order
	Pos    token.Position
}

// FuncParam is one parameter of a Func.
type FuncParam struct {
	Name string
	Elem ir.Type // the scalar type, or the element type of an array
	// Dims are the array's sizes, affine in the scop's parameters
	// (Prog.Params); empty for a scalar. Dims[0] is the zero form with nil
	// slices when the declaration leaves the first size out ("A[][n]").
	Dims []ir.Aff
	// Param is the index in Prog.Params when this parameter is a symbolic
	// size, else -1. Always -1 in File.Funcs entries that hold no scop.
	Param int
	// Pointer is set for a pointer to a scalar ("double *alpha"); Dims is
	// then empty. Any other pointer parameter is an array with Dims[0]
	// absent.
	Pointer bool
	// Const is set when the element type is const-qualified.
	Const bool
	// Struct is, for a struct passed by value whose members all have type
	// Elem ("struct cpx alpha"), its type as the declaration spells it
	// ("struct cpx"); Dims is then empty. An array of such structs has
	// the members as its last dimension instead (ir.Array.Members).
	Struct string
}
