package frontend

import (
	"modernc.org/cc/v4"

	"nestor/ir"
)

// kindTypes maps cc's scalar kinds to nestor's types (LP64: long long is
// long; enums are int).
var kindTypes = map[cc.Kind]ir.Type{
	cc.Bool:       ir.Bool,
	cc.Char:       ir.Char, // signed on x86-64
	cc.SChar:      ir.Char,
	cc.UChar:      ir.UChar,
	cc.Short:      ir.Short,
	cc.UShort:     ir.UShort,
	cc.Int:        ir.Int,
	cc.UInt:       ir.UInt,
	cc.Long:       ir.Long,
	cc.ULong:      ir.ULong,
	cc.LongLong:   ir.Long,
	cc.ULongLong:  ir.ULong,
	cc.Enum:       ir.Int,
	cc.Float:      ir.Float,
	cc.Double:     ir.Double,
	cc.LongDouble: ir.LongDouble,
}

// scalarType returns the ir type of a scalar cc type.
func scalarType(t cc.Type) (ir.Type, bool) {
	if t == nil {
		return ir.Void, false
	}
	it, ok := kindTypes[t.Kind()]
	return it, ok
}

// elemType strips array and pointer layers from t and returns the scalar
// type below them and the number of layers.
func elemType(t cc.Type) (ir.Type, int, bool) {
	layers := 0
	for t != nil && layers < 64 {
		switch x := t.(type) {
		case *cc.ArrayType:
			t = x.Elem()
		case *cc.PointerType:
			t = x.Elem()
		default:
			it, ok := scalarType(t)
			return it, layers, ok
		}
		layers++
	}
	return ir.Void, layers, false
}

// convert returns e converted to t, with an implicit cast when needed.
func convert(e ir.Expr, t ir.Type) ir.Expr {
	if e.Type() == t {
		return e
	}
	return &ir.Cast{T: t, X: e, Implicit: true}
}
