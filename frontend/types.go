package frontend

import (
	"fmt"
	"strings"

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

// structMembers returns the layout of a struct type as ir.Array.Members
// models it: the scalar type all its members share and their names in
// the order of their offsets. why says what does not fit: a union, a
// member of another type, a bit-field, an array or struct member, an
// anonymous member, or padding (each member must sit at its index times
// the scalar's size, and the struct be exactly that long).
func structMembers(t cc.Type) (elem ir.Type, members []string, why string) {
	st, ok := t.(*cc.StructType)
	if tag := structTag(st); ok && tag != "" {
		name := "struct " + tag
		defer func() { why = strings.ReplaceAll(why, t.String(), name) }()
	}
	if !ok {
		if t != nil && t.Kind() == cc.Union {
			return ir.Void, nil, "it is a union (nestor models structs whose members share one scalar type)"
		}
		return ir.Void, nil, fmt.Sprintf("%s is not a struct", t)
	}
	n := st.NumFields()
	if n == 0 || st.IsIncomplete() {
		return ir.Void, nil, fmt.Sprintf("%s has no members nestor can see", t)
	}
	for k := 0; k < n; k++ {
		f := st.FieldByIndex(k)
		if f == nil {
			return ir.Void, nil, fmt.Sprintf("%s has a member nestor cannot see", t)
		}
		name := f.Name()
		ft, ok := scalarType(f.Type())
		switch {
		case name == "":
			return ir.Void, nil, fmt.Sprintf("%s has an anonymous member", t)
		case f.IsBitfield():
			return ir.Void, nil, fmt.Sprintf("member %s of %s is a bit-field", name, t)
		case !ok || ft == ir.Void:
			return ir.Void, nil, fmt.Sprintf("member %s of %s has type %s (nestor models structs whose members share one scalar type)", name, t, f.Type())
		case k > 0 && ft != elem:
			return ir.Void, nil, fmt.Sprintf("member %s of %s has type %s, member %s has type %s (nestor models structs whose members share one scalar type)", name, t, ft, members[0], elem)
		case f.Offset() != int64(k*ft.Size()):
			return ir.Void, nil, fmt.Sprintf("member %s of %s is at offset %d, not %d (padding)", name, t, f.Offset(), k*ft.Size())
		}
		elem = ft
		members = append(members, name)
	}
	if st.Size() != int64(n*elem.Size()) {
		return ir.Void, nil, fmt.Sprintf("%s is %d bytes long, not %d (padding)", t, st.Size(), n*elem.Size())
	}
	return elem, members, ""
}

// arrayElem strips array and pointer layers from t as elemType does, and
// reads a struct below them with structMembers (members is nil for a
// scalar). why is empty when the element type is modeled.
func arrayElem(t cc.Type) (elem ir.Type, members []string, layers int, why string) {
	for t != nil && layers < 64 {
		switch x := t.(type) {
		case *cc.ArrayType:
			t = x.Elem()
		case *cc.PointerType:
			t = x.Elem()
		default:
			if k := t.Kind(); k == cc.Struct || k == cc.Union {
				elem, members, why = structMembers(t)
				return elem, members, layers, why
			}
			it, ok := scalarType(t)
			if !ok {
				return ir.Void, nil, layers, fmt.Sprintf("type %s", t)
			}
			return it, nil, layers, ""
		}
		layers++
	}
	return ir.Void, nil, layers, "too many array or pointer layers"
}

// structTag returns the tag of a struct type ("cpx" of "struct cpx"), or
// "" for an anonymous one.
func structTag(st *cc.StructType) string {
	if st == nil {
		return ""
	}
	tag := st.Tag()
	return tag.SrcStr()
}
