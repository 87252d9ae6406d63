package interp

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"nestor/ir"
)

func TestLayout(t *testing.T) {
	b := newProg(t, "n", "m")
	b.array("A", ir.Short, "n", "m + 1")
	b.array("x", ir.Double)
	b.array("L", ir.LongDouble, "2")
	b.stmt("S0", "i j", []int{0, 0, 0}, "i >= 0; i < n; j >= 0; j <= m", "A[i][j]", ir.Assign,
		cast(ir.Short, bin(ir.Sub, bin(ir.Mul, it(0), ic(100)), it(1))))
	p := b.build()
	m, err := run(t, p, []int64{3, 4}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len(0) != 15 || len(m.Bytes(0)) != 30 || m.Len(1) != 1 || len(m.Bytes(1)) != 8 || len(m.Bytes(2)) != 32 {
		t.Fatalf("sizes %d/%d %d/%d %d", m.Len(0), len(m.Bytes(0)), m.Len(1), len(m.Bytes(1)), len(m.Bytes(2)))
	}
	// Row-major, little-endian: A[2][3] = 197 at byte 2*(2*5+3).
	if g := binary.LittleEndian.Uint16(m.Bytes(0)[26:]); g != 197 {
		t.Errorf("A[2][3] bytes hold %d, want 197", g)
	}
	// A[0][1] = -1 is 0xffff.
	if g := m.Bytes(0)[2:4]; !bytes.Equal(g, []byte{0xff, 0xff}) {
		t.Errorf("A[0][1] bytes % x, want ff ff", g)
	}
	// Writing the buffer is seen by the typed helpers.
	binary.LittleEndian.PutUint64(m.Bytes(1), math.Float64bits(2.5))
	if g := m.Float64(1, 0); g != 2.5 {
		t.Errorf("x = %v after writing its bytes", g)
	}
	m.SetFloat64(0, 4, -7.9)
	if g := m.Int64(0, 4); g != -7 {
		t.Errorf("short element set to -7.9 reads %d", g)
	}
}

func TestLongDouble(t *testing.T) {
	p := &ir.Program{Arrays: []*ir.Array{{Name: "L", Elem: ir.LongDouble, Dims: []ir.Aff{{Const: 1}}}}}
	m, err := NewMemory(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1.0L: significand 0x8000000000000000, exponent 0x3fff.
	m.SetFloat64(0, 0, 1)
	want := []byte{0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0x3f, 0, 0, 0, 0, 0, 0}
	if g := m.Bytes(0); !bytes.Equal(g, want) {
		t.Errorf("1.0L is % x, want % x", g, want)
	}
	// -3.0L: 1.1b·2^1.
	m.SetFloat64(0, 0, -3)
	want = []byte{0, 0, 0, 0, 0, 0, 0, 0xc0, 0x00, 0xc0, 0, 0, 0, 0, 0, 0}
	if g := m.Bytes(0); !bytes.Equal(g, want) {
		t.Errorf("-3.0L is % x, want % x", g, want)
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e-310, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.Pi, math.Inf(-1), 1 / 3.0} {
		m.SetFloat64(0, 0, x)
		if g := m.Float64(0, 0); g != x || math.Signbit(g) != math.Signbit(x) {
			t.Errorf("long double round trip of %v gives %v", x, g)
		}
	}
	m.SetFloat64(0, 0, math.NaN())
	if g := m.Float64(0, 0); !math.IsNaN(g) {
		t.Errorf("NaN round trip gives %v", g)
	}
	// 1 + 2^-60 is not a double: it rounds to 1; 1 + 2^-53 + 2^-60 rounds up.
	m.SetFloat64(0, 0, 1)
	binary.LittleEndian.PutUint64(m.Bytes(0), 1<<63|1<<3)
	if g := m.Float64(0, 0); g != 1 {
		t.Errorf("1 + 2^-60 reads %v", g)
	}
	binary.LittleEndian.PutUint64(m.Bytes(0), 1<<63|1<<10|1<<3)
	if g := m.Float64(0, 0); g != 1+0x1p-52 {
		t.Errorf("1 + 2^-53 + 2^-60 reads %v, want %v", g, 1+0x1p-52)
	}
}

func TestMemoryErrors(t *testing.T) {
	b := newProg(t, "n")
	b.p.Arrays = append(b.p.Arrays, &ir.Array{Name: "A", Elem: ir.Int, Storage: ir.FuncParam,
		Dims: []ir.Aff{{}, ir.NewAff(0, 1, 0)}})
	b.p.Arrays[0].Dims[1].Param[0] = 1
	b.p.Context = []ir.Constraint{{Aff: ir.Aff{Param: []int64{1}, Const: -2}}} // n >= 2
	p := b.build()
	_, err := NewMemory(p, []int64{4})
	wantErr(t, err, "array A", "first dimension is absent")
	p.Arrays[0].Dims[0] = ir.Aff{Param: []int64{2}} // A[2*n][n]
	m, err := NewMemory(p, []int64{4})
	if err != nil || m.Len(0) != 32 {
		t.Errorf("A[2*n][n] at n=4: %v elements, %v", m.Len(0), err)
	}
	_, err = NewMemory(p, []int64{1})
	wantErr(t, err, "context constraint 0: n >= 2")
	_, err = NewMemory(p, nil)
	wantErr(t, err, "0 parameter values for 1 parameters")
	p.Arrays[0].Dims[0].Param[0] = -1
	_, err = NewMemory(p, []int64{4})
	wantErr(t, err, "dimension 0 is -4")
	p.Arrays[0].Dims[0] = ir.Aff{Param: []int64{0}, Const: 1 << 40}
	_, err = NewMemory(p, []int64{4})
	wantErr(t, err, "array A is larger than")
}
