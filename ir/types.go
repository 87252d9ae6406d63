package ir

import "fmt"

// Type is a C scalar type, as nestor sees it on an LP64 target.
type Type uint8

// The C scalar types. Char is signed, as on x86-64.
const (
	Void   Type = iota
	Bool        // _Bool
	Char        // char, signed char
	UChar       // unsigned char
	Short       // short
	UShort      // unsigned short
	Int         // int
	UInt        // unsigned int
	Long        // long, long long
	ULong       // unsigned long, unsigned long long
	Float       // float
	Double      // double
	LongDouble
)

var typeNames = [...]string{
	Void: "void", Bool: "_Bool", Char: "char", UChar: "unsigned char",
	Short: "short", UShort: "unsigned short", Int: "int", UInt: "unsigned int",
	Long: "long", ULong: "unsigned long", Float: "float", Double: "double",
	LongDouble: "long double",
}

// String returns the C spelling of t.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", int(t))
}

// IsFloat reports whether t is a floating-point type.
func (t Type) IsFloat() bool { return t == Float || t == Double || t == LongDouble }

// IsInteger reports whether t is an integer type (including _Bool).
func (t Type) IsInteger() bool { return t >= Bool && t <= ULong }

// IsUnsigned reports whether t is an unsigned integer type (including _Bool).
func (t Type) IsUnsigned() bool {
	return t == Bool || t == UChar || t == UShort || t == UInt || t == ULong
}

// Size is the size of t in bytes on x86-64 (LongDouble counts as 16).
func (t Type) Size() int {
	switch t {
	case Bool, Char, UChar:
		return 1
	case Short, UShort:
		return 2
	case Int, UInt, Float:
		return 4
	case Long, ULong, Double:
		return 8
	case LongDouble:
		return 16
	}
	return 0
}

// rank orders integer types for the usual arithmetic conversions.
func (t Type) rank() int {
	switch t {
	case Bool:
		return 0
	case Char, UChar:
		return 1
	case Short, UShort:
		return 2
	case Int, UInt:
		return 3
	case Long, ULong:
		return 4
	}
	return -1
}

// Promote applies C's integer promotions: types narrower than int become int.
func Promote(t Type) Type {
	if t.IsInteger() && t.rank() < Int.rank() {
		return Int
	}
	return t
}

// Common returns the type of the usual arithmetic conversions of C99 6.3.1.8
// applied to operands of types a and b.
func Common(a, b Type) Type {
	switch {
	case a == LongDouble || b == LongDouble:
		return LongDouble
	case a == Double || b == Double:
		return Double
	case a == Float || b == Float:
		return Float
	}
	a, b = Promote(a), Promote(b)
	if a == b {
		return a
	}
	if a.IsUnsigned() == b.IsUnsigned() {
		if a.rank() > b.rank() {
			return a
		}
		return b
	}
	u, s := a, b
	if s.IsUnsigned() {
		u, s = s, u
	}
	switch {
	case u.rank() >= s.rank():
		return u
	case s.Size() > u.Size():
		return s
	}
	// Same size, signed has higher rank: the unsigned version of the signed type.
	return s + 1
}
