package interp

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"nestor/ir"
)

// maxBytes bounds the size of one array buffer (4 GiB), so that a wrong
// parameter gives an error rather than an out-of-memory crash.
const maxBytes = 1 << 32

// Memory holds the contents of every array of one program: buffer k is
// Program.Arrays[k], laid out as C lays it out (see the package doc).
type Memory struct {
	elem []ir.Type
	dims [][]int64
	buf  [][]byte
}

// NewMemory allocates zeroed buffers for the arrays of p, their sizes
// evaluated at params.
func NewMemory(p *ir.Program, params []int64) (*Memory, error) {
	if err := checkParams(p, params); err != nil {
		return nil, err
	}
	m := &Memory{}
	for _, a := range p.Arrays {
		dims := make([]int64, len(a.Dims))
		n := int64(a.Elem.Size())
		if n == 0 {
			return nil, fmt.Errorf("interp: array %s has element type %s", a.Name, a.Elem)
		}
		for d, e := range a.Dims {
			if d == 0 && e.Iter == nil && e.Param == nil && e.Local == nil && e.Const == 0 {
				return nil, fmt.Errorf("interp: array %s: the first dimension is absent (%s[]...); the interpreter needs its size", a.Name, a.Name)
			}
			v, ok := e.Eval(nil, params, nil)
			if !ok || v < 0 {
				return nil, fmt.Errorf("interp: array %s: dimension %d is %d (overflow: %v)", a.Name, d, v, !ok)
			}
			dims[d] = v
			if v != 0 && n > maxBytes/v {
				return nil, fmt.Errorf("interp: array %s is larger than %d bytes", a.Name, int64(maxBytes))
			}
			n *= v
		}
		m.elem = append(m.elem, a.Elem)
		m.dims = append(m.dims, dims)
		m.buf = append(m.buf, make([]byte, n))
	}
	return m, nil
}

// checkParams reports an error when params do not fit p: wrong count, a
// value outside its parameter's type, or a violated context constraint.
func checkParams(p *ir.Program, params []int64) error {
	if len(params) != len(p.Params) {
		return fmt.Errorf("interp: %d parameter values for %d parameters", len(params), len(p.Params))
	}
	for k, q := range p.Params {
		if !fits(q.Type, params[k]) {
			return fmt.Errorf("interp: parameter %s = %d does not fit %s", q.Name, params[k], q.Type)
		}
	}
	for k, c := range p.Context {
		v, ok := c.Eval(nil, params, nil)
		if !ok || v < 0 || (c.Eq && v != 0) {
			n := ir.Names{Param: ir.ParamNames(p)}
			return fmt.Errorf("interp: parameters violate context constraint %d: %s", k, ir.FormatConstraint(c, n))
		}
	}
	return nil
}

// Bytes returns the buffer of array a; writes to it change the memory.
func (m *Memory) Bytes(a int) []byte { return m.buf[a] }

// Len returns the number of elements of array a.
func (m *Memory) Len(a int) int { return len(m.buf[a]) / m.elem[a].Size() }

// Dims returns the sizes of array a, outermost first. The caller must not
// modify them.
func (m *Memory) Dims(a int) []int64 { return m.dims[a] }

// Float64 returns element flat (row-major index) of array a converted to
// double as C converts it.
func (m *Memory) Float64(a, flat int) float64 {
	v, _ := convert(m.load(a, flat), m.elem[a], ir.Double)
	return v.f
}

// Int64 returns element flat of array a converted to long as C converts it.
// It panics when that conversion is undefined (a NaN or out-of-range float).
func (m *Memory) Int64(a, flat int) int64 {
	v, err := convert(m.load(a, flat), m.elem[a], ir.Long)
	if err != nil {
		panic("interp: Int64: " + err.Error())
	}
	return v.i
}

// SetFloat64 stores x converted to the element type of array a. It panics
// when that conversion is undefined (a NaN or out-of-range value into an
// integer array).
func (m *Memory) SetFloat64(a, flat int, x float64) {
	v, err := convert(value{f: x}, ir.Double, m.elem[a])
	if err != nil {
		panic("interp: SetFloat64: " + err.Error())
	}
	m.store(a, flat, v)
}

// SetInt64 stores x converted to the element type of array a (wrapping to
// narrower integer types, rounding to floating ones).
func (m *Memory) SetInt64(a, flat int, x int64) {
	v, _ := convert(value{i: x}, ir.Long, m.elem[a])
	m.store(a, flat, v)
}

func (m *Memory) checkFlat(a, flat int) {
	if flat < 0 || flat >= m.Len(a) {
		panic(fmt.Sprintf("interp: element %d of array %d with %d elements", flat, a, m.Len(a)))
	}
}

// load reads element flat of array a as a value of its element type.
func (m *Memory) load(a, flat int) value {
	m.checkFlat(a, flat)
	t := m.elem[a]
	b := m.buf[a][flat*t.Size():]
	switch t {
	case ir.Bool:
		if b[0] != 0 {
			return value{i: 1}
		}
		return value{}
	case ir.Char:
		return value{i: int64(int8(b[0]))}
	case ir.UChar:
		return value{i: int64(b[0])}
	case ir.Short:
		return value{i: int64(int16(binary.LittleEndian.Uint16(b)))}
	case ir.UShort:
		return value{i: int64(binary.LittleEndian.Uint16(b))}
	case ir.Int:
		return value{i: int64(int32(binary.LittleEndian.Uint32(b)))}
	case ir.UInt:
		return value{i: int64(binary.LittleEndian.Uint32(b))}
	case ir.Long, ir.ULong:
		return value{i: int64(binary.LittleEndian.Uint64(b))}
	case ir.Float:
		return value{f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}
	case ir.Double:
		return value{f: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	case ir.LongDouble:
		return value{f: decodeX87(b)}
	}
	panic("interp: load of " + t.String())
}

// store writes v, a value of the element type, to element flat of array a.
func (m *Memory) store(a, flat int, v value) {
	m.checkFlat(a, flat)
	t := m.elem[a]
	b := m.buf[a][flat*t.Size():]
	switch t {
	case ir.Bool, ir.Char, ir.UChar:
		b[0] = byte(v.i)
	case ir.Short, ir.UShort:
		binary.LittleEndian.PutUint16(b, uint16(v.i))
	case ir.Int, ir.UInt:
		binary.LittleEndian.PutUint32(b, uint32(v.i))
	case ir.Long, ir.ULong:
		binary.LittleEndian.PutUint64(b, uint64(v.i))
	case ir.Float:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v.f)))
	case ir.Double:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v.f))
	case ir.LongDouble:
		encodeX87(b, v.f)
	default:
		panic("interp: store of " + t.String())
	}
}

// x87 extended precision: a 64-bit significand with an explicit integer
// bit, a 15-bit exponent biased by 16383 and a sign, in 10 bytes; the value
// of a normal number is mant·2^(exp-16383-63). Every float64 is exact in it.
const x87Bias = 16383

func encodeX87(b []byte, f float64) {
	u := math.Float64bits(f)
	sign, exp, frac := u>>63, int64(u>>52&0x7ff), u&(1<<52-1)
	var e, mant uint64
	switch {
	case exp == 0x7ff: // infinity or NaN
		e, mant = 0x7fff, 1<<63|frac<<11
	case exp == 0 && frac == 0:
		e, mant = 0, 0
	case exp == 0: // subnormal float64: frac·2^-1074, normal in x87
		s := bits.LeadingZeros64(frac)
		e, mant = uint64(-1074-int64(s)+x87Bias+63), frac<<s
	default:
		e, mant = uint64(exp-1023+x87Bias), 1<<63|frac<<11
	}
	binary.LittleEndian.PutUint64(b, mant)
	binary.LittleEndian.PutUint16(b[8:], uint16(sign<<15|e))
	clear(b[10:16])
}

// decodeX87 rounds an x87 extended value to the nearest float64.
func decodeX87(b []byte) float64 {
	mant := binary.LittleEndian.Uint64(b)
	se := binary.LittleEndian.Uint16(b[8:])
	neg, e := se>>15 == 1, int(se&0x7fff)
	var f float64
	switch {
	case e == 0x7fff && mant<<1 == 0:
		f = math.Inf(1)
	case e == 0x7fff:
		f = math.NaN()
	case mant == 0:
		f = 0
	default:
		if e == 0 { // denormal: the exponent of the smallest normal
			e = 1
		}
		x := new(big.Float).SetUint64(mant)
		f, _ = x.SetMantExp(x, e-x87Bias-63).Float64()
	}
	if neg {
		f = math.Copysign(f, -1)
	}
	return f
}
