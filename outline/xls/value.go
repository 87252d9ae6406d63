package xls

import (
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"strings"

	"nestor/outline"
)

// A Value is a value of an XLS type: a bit vector of any width, a tuple,
// an array or a token. Values are immutable: no function of this package
// modifies a Value it is given or one it has returned.
//
// The zero Value is bits[0]:0.
type Value struct {
	typ   outline.Type
	bits  *big.Int // Bits: the value, 0 <= bits < 2^Width; nil stands for u
	u     uint64   // Bits of width at most 64, when bits is nil
	elems []Value  // Tuple and Array: the elements
}

var (
	bigZero = big.NewInt(0)
	bigOne  = big.NewInt(1)
)

// Bits returns the bits[width] value x mod 2^width; a negative x gives its
// two's complement. It panics if width is negative.
func Bits(width int, x *big.Int) Value {
	if width < 0 {
		panic(fmt.Sprintf("xls: Bits: negative width %d", width))
	}
	return mkBits(width, new(big.Int).Set(x))
}

// Uint returns the bits[width] value x mod 2^width.
func Uint(width int, x uint64) Value {
	if width < 0 {
		panic(fmt.Sprintf("xls: Uint: negative width %d", width))
	}
	return mkBits(width, new(big.Int).SetUint64(x))
}

// Tuple returns the tuple of elems.
func Tuple(elems ...Value) Value {
	ts := make([]outline.Type, len(elems))
	for i, e := range elems {
		ts[i] = e.typ
	}
	return Value{typ: outline.TupleType(ts...), elems: append([]Value(nil), elems...)}
}

// Array returns the array of elems, each of which must have type elem
// (Array panics otherwise).
func Array(elem outline.Type, elems ...Value) Value {
	for i, e := range elems {
		if !e.typ.Equal(elem) {
			panic(fmt.Sprintf("xls: Array: element %d has type %s, want %s", i, e.typ, elem))
		}
	}
	return Value{typ: outline.ArrayType(elem, len(elems)), elems: append([]Value(nil), elems...)}
}

// TokenValue returns the token.
func TokenValue() Value { return Value{typ: outline.Type{Kind: outline.Token}} }

// Zero returns the value of type t whose bits are all zero.
func Zero(t outline.Type) Value {
	switch t.Kind {
	case outline.Tuple:
		es := make([]Value, len(t.Elems))
		for i, et := range t.Elems {
			es[i] = Zero(et)
		}
		return Value{typ: t, elems: es}
	case outline.Array:
		es := make([]Value, t.Len)
		z := Zero(t.Elems[0])
		for i := range es {
			es[i] = z
		}
		return Value{typ: t, elems: es}
	}
	return Value{typ: t}
}

// allOnes returns the value of type t whose bits are all one.
func allOnes(t outline.Type) Value {
	switch t.Kind {
	case outline.Bits:
		return Value{typ: t, bits: mask(t.Width)}
	case outline.Tuple, outline.Array:
		z := Zero(t)
		for i := range z.elems {
			z.elems[i] = allOnes(z.elems[i].typ)
		}
		return z
	}
	return Value{typ: t}
}

// Type returns v's type.
func (v Value) Type() outline.Type { return v.typ }

// Big returns the unsigned value of a bits value (0 for other kinds), as
// a new big.Int.
func (v Value) Big() *big.Int { return new(big.Int).Set(v.int()) }

// Signed returns the value of a bits value read as a two's complement
// number, as a new big.Int.
func (v Value) Signed() *big.Int { return signed(v) }

// Uint64 returns the low 64 bits of a bits value (0 for other kinds).
func (v Value) Uint64() uint64 {
	x := v.int()
	if x.IsUint64() {
		return x.Uint64()
	}
	return new(big.Int).And(x, mask(64)).Uint64()
}

// Elems returns a copy of the elements of a tuple or array value.
func (v Value) Elems() []Value { return append([]Value(nil), v.elems...) }

// Equal reports whether a and b have the same type and the same value.
func Equal(a, b Value) bool {
	if !a.typ.Equal(b.typ) {
		return false
	}
	if a.typ.Kind == outline.Bits {
		if x, ok := a.small(); ok {
			y, ok := b.small()
			return ok && x == y
		}
		return a.int().Cmp(b.int()) == 0
	}
	for i := range a.elems {
		if !Equal(a.elems[i], b.elems[i]) {
			return false
		}
	}
	return true
}

// String writes v as XLS IR writes a literal's value: bits in decimal
// (in hex, 0x..., when the value is 2^64 or more), tuples as (a, b),
// arrays as [a, b], the token as token. This is the canonical spelling
// kept in a literal node's value attribute.
func (v Value) String() string {
	var b strings.Builder
	v.format(&b)
	return b.String()
}

func (v Value) format(b *strings.Builder) {
	switch v.typ.Kind {
	case outline.Bits:
		// Decimal conversion takes time quadratic in the width; wide
		// values are written in hex, which takes linear time.
		if x := v.int(); x.BitLen() <= 64 {
			b.WriteString(x.String())
		} else {
			b.WriteString("0x" + x.Text(16))
		}
	case outline.Tuple, outline.Array:
		open, close := "(", ")"
		if v.typ.Kind == outline.Array {
			open, close = "[", "]"
		}
		b.WriteString(open)
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.format(b)
		}
		b.WriteString(close)
	case outline.Token:
		b.WriteString("token")
	}
}

// ParseValue reads a value of type t written as in a literal's value
// attribute: 5, 0xff, 0b101, -1 (two's complement, where it fits),
// bits[8]:5, (1, 2), [1, 2], token.
func ParseValue(t outline.Type, s string) (Value, error) {
	if err := checkType(t); err != nil {
		return Value{}, fmt.Errorf("xls: value of type %s: %v", typeString(t), err)
	}
	toks, _, lerrs := lex([]byte(s))
	if len(lerrs) > 0 {
		return Value{}, fmt.Errorf("xls: value %q: %s", s, lerrs[0].msg)
	}
	p := &parser{toks: toks}
	v, ok := p.parseValue(t, 0)
	if ok && !p.at(tEOF) {
		p.errorf(p.peek().pos(), "unexpected %s after value", p.peek())
		ok = false
	}
	if !ok {
		return Value{}, fmt.Errorf("xls: value %q of type %s: %s", s, t, p.errs[0].Msg)
	}
	return v, nil
}

// RandomValue draws a value of type t. Each bits value is, with equal
// odds, one of the edge values 0, 1, all ones, the sign bit alone and the
// largest positive number, or uniformly random (half of all draws).
func RandomValue(t outline.Type, r *rand.Rand) Value {
	switch t.Kind {
	case outline.Bits:
		return randomBits(t.Width, r)
	case outline.Tuple, outline.Array:
		z := Zero(t)
		for i := range z.elems {
			z.elems[i] = RandomValue(z.elems[i].typ, r)
		}
		return z
	}
	return Value{typ: t}
}

func randomBits(w int, r *rand.Rand) Value {
	t := outline.BitsType(w)
	if w == 0 {
		return Value{typ: t}
	}
	switch r.IntN(10) {
	case 0:
		return Value{typ: t}
	case 1:
		return Value{typ: t, bits: big.NewInt(1)}
	case 2:
		return Value{typ: t, bits: mask(w)}
	case 3:
		return Value{typ: t, bits: new(big.Int).Lsh(bigOne, uint(w-1))}
	case 4:
		return Value{typ: t, bits: mask(w - 1)}
	}
	words := make([]big.Word, (w+bits.UintSize-1)/bits.UintSize)
	for i := range words {
		words[i] = big.Word(r.Uint64())
	}
	return mkBits(w, new(big.Int).SetBits(words))
}

// int returns the unsigned value of a bits value; it must not be modified.
func (v Value) int() *big.Int {
	if v.bits == nil {
		if v.u == 0 {
			return bigZero
		}
		return new(big.Int).SetUint64(v.u)
	}
	return v.bits
}

// small returns the value of a bits value when it fits in 64 bits.
func (v Value) small() (uint64, bool) {
	if v.bits == nil {
		return v.u, true
	}
	if v.bits.IsUint64() {
		return v.bits.Uint64(), true
	}
	return 0, false
}

// mkBits returns bits[w] holding x mod 2^w; it takes ownership of x.
// Values of at most 64 bits are kept as a uint64.
func mkBits(w int, x *big.Int) Value {
	if x.Sign() < 0 || x.BitLen() > w {
		x.And(x, mask(w)) // big.Int's And works in two's complement
	}
	if w <= 64 {
		return Value{typ: outline.BitsType(w), u: x.Uint64()}
	}
	return Value{typ: outline.BitsType(w), bits: x}
}

// mask64 is 2^w - 1 for w <= 64.
func mask64(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// mask returns a new 2^w - 1.
func mask(w int) *big.Int {
	m := new(big.Int).Lsh(bigOne, uint(w))
	return m.Sub(m, bigOne)
}

// signed returns a bits value read as a two's complement number.
func signed(v Value) *big.Int {
	x := new(big.Int).Set(v.int())
	if w := v.typ.Width; w > 0 && x.Bit(w-1) == 1 {
		x.Sub(x, new(big.Int).Lsh(bigOne, uint(w)))
	}
	return x
}
