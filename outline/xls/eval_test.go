package xls

import (
	"hash/crc32"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"nestor/outline"
)

func call(t *testing.T, p *outline.Package, name string, args ...Value) Value {
	t.Helper()
	f := p.Func(name)
	if f == nil {
		t.Fatalf("no function %s", name)
	}
	v, err := Eval(p, f, args)
	if err != nil {
		t.Fatalf("Eval %s: %v", name, err)
	}
	return v
}

func u(w int, x uint64) Value { return Uint(w, x) }

func TestEvalCRC32(t *testing.T) {
	p := parseFile(t, "testdata/crc32.ir")
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 200 {
		d := r.Uint32()
		if k < 2 {
			d = uint32(k) * 0xffffffff
		}
		want := crc32.ChecksumIEEE([]byte{byte(d), byte(d >> 8), byte(d >> 16), byte(d >> 24)})
		if got := call(t, p, "crc32_4", u(32, uint64(d))).Uint64(); got != uint64(want) {
			t.Fatalf("crc32(%#x) = %#x, want %#x", d, got, want)
		}
	}
}

func TestEvalFIR(t *testing.T) {
	p := parseFile(t, "testdata/fir.ir")
	r := rand.New(rand.NewPCG(3, 4))
	coef := []int16{3, -5, 12, 40, 40, 12, -5, 3}
	for range 200 {
		var xs, cs []Value
		var sum, fixed int32
		var scalars []Value
		for i := range 8 {
			x, c := int16(r.Uint32()), int16(r.Uint32())
			xs, cs = append(xs, u(16, uint64(uint16(x)))), append(cs, u(16, uint64(uint16(c))))
			scalars = append(scalars, u(16, uint64(uint16(x))))
			sum += int32(x) * int32(c)
			fixed += int32(x) * int32(coef[i])
		}
		b16 := outline.BitsType(16)
		if got := call(t, p, "fir8", Array(b16, xs...), Array(b16, cs...)).Uint64(); got != uint64(uint32(sum)) {
			t.Fatalf("fir8 = %#x, want %#x", got, uint32(sum))
		}
		if got := call(t, p, "fir_fixed", scalars...).Uint64(); got != uint64(uint32(fixed)) {
			t.Fatalf("fir_fixed = %#x, want %#x", got, uint32(fixed))
		}
	}
}

func TestEvalSortNet(t *testing.T) {
	p := parseFile(t, "testdata/sortnet.ir")
	r := rand.New(rand.NewPCG(5, 6))
	check := func(in []uint64) {
		args := make([]Value, 8)
		for i, x := range in {
			args[i] = u(8, x)
		}
		var got []uint64
		for _, e := range call(t, p, "sort8", args...).Elems() {
			got = append(got, e.Uint64())
		}
		want := slices.Clone(in)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("sort8(%v) = %v", in, got)
		}
	}
	// The 0-1 principle: a network that sorts every 0/1 input sorts all.
	for m := range 256 {
		in := make([]uint64, 8)
		for i := range in {
			in[i] = uint64(m>>i&1) * 0xff
		}
		check(in)
	}
	for range 200 {
		in := make([]uint64, 8)
		for i := range in {
			in[i] = uint64(r.IntN(256))
		}
		check(in)
	}
}

// hashRef is the Go reference of testdata/hash.ir.
func hashRef(a, b uint32) uint32 {
	for _, k := range []uint32{0x03020100, 0x0b0a0908, 0x13121110, 0x1b1a1918} {
		a = (bits.RotateLeft32(a, -8) + b) ^ k
		b = bits.RotateLeft32(b, 3) ^ a
	}
	x := a ^ b
	for range 2 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
	}
	return x
}

func TestEvalHash(t *testing.T) {
	p := parseFile(t, "testdata/hash.ir")
	r := rand.New(rand.NewPCG(7, 8))
	for range 200 {
		a, b := r.Uint32(), r.Uint32()
		if got := call(t, p, "hash", u(32, uint64(a)), u(32, uint64(b))).Uint64(); got != uint64(hashRef(a, b)) {
			t.Fatalf("hash(%#x, %#x) = %#x, want %#x", a, b, got, hashRef(a, b))
		}
	}
}

func TestEvalMisc(t *testing.T) {
	p := parseFile(t, "testdata/misc.ir")
	r := rand.New(rand.NewPCG(9, 10))
	b8 := outline.BitsType(8)
	table := []uint64{10, 0x14, 30, 0xff}
	for range 300 {
		x, y16, i := r.Uint64()&0xff, r.Uint64()&0xffff, r.Uint64()&7

		// swap, lookup and grid through main.
		got := call(t, p, "main", u(8, x), u(16, y16), u(3, i))
		upd := slices.Clone(table)
		if i < 4 {
			upd[i] = x
		}
		read := table[min(i, 3)]
		arr := append(slices.Clone(upd), x, x, read, x)
		var arrVals []Value
		for _, a := range arr {
			arrVals = append(arrVals, u(8, a))
		}
		grid := [][]uint64{{1, 2, 3}, {4, 5, 6}}
		gr, gc := min(i>>1, 1), min(y16>>14, 2)
		want := Tuple(Tuple(u(16, y16), u(8, x)), u(8, read), Array(b8, arrVals...), u(4, grid[gr][gc]))
		if !Equal(got, want) {
			t.Fatalf("main(%d, %d, %d) = %s, want %s", x, y16, i, got, want)
		}

		// selects
		s, h, z := r.Uint64()&3, r.Uint64()&7, r.Uint64()&0xff
		y := y16 & 0xff
		xyz := []uint64{x, y, z}
		sel25 := []uint64{x, y, z, y}[s]
		sel26 := y
		if h < 3 {
			sel26 = xyz[h]
		}
		var ohs, prio uint64
		prio = z
		for b := 2; b >= 0; b-- {
			if h>>b&1 == 1 {
				ohs |= xyz[b]
				prio = xyz[b]
			}
		}
		lsb, msb := uint64(8), uint64(8)
		if h != 0 {
			lsb = 1 << bits.TrailingZeros64(h)
			msb = 1 << (bits.Len64(h) - 1)
		}
		got = call(t, p, "selects", u(2, s), u(3, h), u(8, x), u(8, y), u(8, z))
		want = Tuple(u(8, sel25), u(8, sel26), u(4, lsb), u(8, ohs), u(8, prio), u(4, msb))
		if !Equal(got, want) {
			t.Fatalf("selects(%d, %d, %d, %d, %d) = %s, want %s", s, h, x, y, z, got, want)
		}

		// bitops
		k := r.Uint64() & 15
		rev := uint64(bits.Reverse8(uint8(x)))
		red := b2u(x == 0xff)<<2 | b2u(x != 0)<<1 | uint64(bits.OnesCount64(x)&1)
		var enc uint64
		for b := range 8 {
			if x>>b&1 == 1 {
				enc |= uint64(b)
			}
		}
		dec := uint64(1) << k
		dyn := (x >> k) & 15
		if k >= 8 {
			dyn = 0
		}
		upd8 := x
		if k < 8 {
			upd8 = (x&^(15<<k) | k<<k) & 0xff
		}
		shra := uint64(uint8(int8(x) >> min(k, 7)))
		got = call(t, p, "bitops", u(8, x), u(4, k))
		want = Tuple(u(12, x<<4|k), u(8, rev), u(3, red), u(3, enc), u(16, dec), u(4, dyn), u(8, upd8), u(8, shra), u(8, ^(x&rev)&0xff))
		if !Equal(got, want) {
			t.Fatalf("bitops(%#x, %d) = %s, want %s", x, k, got, want)
		}

		// arith, with y = 0 one time in eight.
		if r.IntN(8) == 0 {
			y = 0
		}
		sx, sy := int8(x), int8(y)
		var ud, sd, um, sm uint64
		switch {
		case y == 0:
			ud, um, sm = 0xff, 0, 0
			sd = 0x7f
			if sx < 0 {
				sd = 0x80
			}
		case sx == -128 && sy == -1:
			ud, um = x/y, x%y
			sd, sm = 0x80, 0
		default:
			ud, um = x/y, x%y
			sd, sm = uint64(uint8(sx/sy)), uint64(uint8(sx%sy))
		}
		got = call(t, p, "arith", u(8, x), u(8, y))
		want = Tuple(u(8, ud), u(8, sd), u(8, um), u(8, sm), u(16, uint64(uint16(int16(sx)*int16(sy)))),
			u(1, b2u(sx < sy)), u(1, b2u(x >= y)), Tuple(u(12, x*y&0xfff), u(12, 0)))
		if !Equal(got, want) {
			t.Fatalf("arith(%#x, %#x) = %s, want %s", x, y, got, want)
		}
	}
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// TestEvalSemantics checks XLS's documented edge cases one by one (the
// examples of docs_src/ir_semantics.md among them).
func TestEvalSemantics(t *testing.T) {
	tests := []struct {
		src  string // a node "ret r: T = ..." over x: bits[W] and y: bits[V]
		x, y Value
		want Value
	}{
		// bit_slice_update examples from the semantics document.
		{"ret r: bits[16] = bit_slice_update(x, y, z)", u(16, 0xabcd), u(8, 0), u(16, 0xabff)},
		{"ret r: bits[16] = bit_slice_update(x, y, z)", u(16, 0xabcd), u(8, 4), u(16, 0xaffd)},
		{"ret r: bits[16] = bit_slice_update(x, y, z)", u(16, 0xabcd), u(8, 12), u(16, 0xfbcd)},
		{"ret r: bits[16] = bit_slice_update(x, y, z)", u(16, 0xabcd), u(8, 16), u(16, 0xabcd)},
		// one_hot examples.
		{"ret r: bits[5] = one_hot(x, lsb_prio=true)", u(4, 0b0011), u(1, 0), u(5, 0b00001)},
		{"ret r: bits[5] = one_hot(x, lsb_prio=false)", u(4, 0b0111), u(1, 0), u(5, 0b00100)},
		{"ret r: bits[3] = one_hot(x, lsb_prio=false)", u(2, 0), u(1, 0), u(3, 0b100)},
		// encode: the or of the set positions.
		{"ret r: bits[3] = encode(x)", u(8, 1<<3|1<<5), u(1, 0), u(3, 7)},
		{"ret r: bits[0] = encode(x)", u(1, 1), u(1, 0), u(0, 0)},
		// decode past the result width is zero.
		{"ret r: bits[4] = decode(x, width=4)", u(3, 5), u(1, 0), u(4, 0)},
		// Divisions by zero.
		{"ret r: bits[8] = udiv(x, y)", u(8, 7), u(8, 0), u(8, 0xff)},
		{"ret r: bits[8] = sdiv(x, y)", u(8, 7), u(8, 0), u(8, 0x7f)},
		{"ret r: bits[8] = sdiv(x, y)", u(8, 0x80), u(8, 0), u(8, 0x80)},
		{"ret r: bits[8] = smod(x, y)", u(8, 0x80), u(8, 0), u(8, 0)},
		{"ret r: bits[8] = umod(x, y)", u(8, 9), u(8, 0), u(8, 0)},
		// Signed division and modulus round toward zero.
		{"ret r: bits[8] = sdiv(x, y)", u(8, 0xf9), u(8, 2), u(8, 0xfd)},    // -7/2 = -3
		{"ret r: bits[8] = smod(x, y)", u(8, 0xf9), u(8, 2), u(8, 0xff)},    // -7%2 = -1
		{"ret r: bits[8] = smod(x, y)", u(8, 7), u(8, 0xfe), u(8, 1)},       // 7%-2 = 1
		{"ret r: bits[8] = sdiv(x, y)", u(8, 0x80), u(8, 0xff), u(8, 0x80)}, // overflow wraps
		// Shifts by the width or more.
		{"ret r: bits[8] = shll(x, y)", u(8, 0xff), u(100, 8), u(8, 0)},
		{"ret r: bits[8] = shrl(x, y)", u(8, 0xff), u(100, 1<<40), u(8, 0)},
		{"ret r: bits[8] = shra(x, y)", u(8, 0x80), u(100, 9), u(8, 0xff)},
		{"ret r: bits[8] = shra(x, y)", u(8, 0x70), u(100, 9), u(8, 0)},
		{"ret r: bits[8] = shra(x, y)", u(8, 0x90), u(3, 2), u(8, 0xe4)},
		// Mixed-width multiplies.
		{"ret r: bits[4] = smul(x, y)", u(8, 0xff), u(3, 0b111), u(4, 1)},      // -1 * -1
		{"ret r: bits[12] = umul(x, y)", u(8, 0xff), u(3, 0b111), u(12, 1785)}, // 255 * 7
		// dynamic_bit_slice reads zeros past the end.
		{"ret r: bits[8] = dynamic_bit_slice(x, y, width=8)", u(8, 0xab), u(8, 4), u(8, 0x0a)},
		{"ret r: bits[8] = dynamic_bit_slice(x, y, width=8)", u(8, 0xab), u(70, 0).withBits(new(big.Int).Lsh(bigOne, 65)), u(8, 0)},
		// Extensions and zero widths.
		{"ret r: bits[12] = sign_ext(x, new_bit_count=12)", u(4, 0b1010), u(1, 0), u(12, 0xffa)},
		{"ret r: bits[1] = and_reduce(x)", u(0, 0), u(1, 0), u(1, 1)},
		{"ret r: bits[1] = xor_reduce(x)", u(130, 0).withBits(big.NewInt(0).Lsh(big.NewInt(7), 120)), u(1, 0), u(1, 1)},
		{"ret r: bits[9] = concat(x, y)", u(8, 0x81), u(1, 1), u(9, 0x103)},
		// Wide values.
		{"ret r: bits[100] = add(x, y)", u(100, 0).withBits(mask(100)), u(100, 1), u(100, 0)},
		{"ret r: bits[100] = neg(x)", u(100, 1), u(100, 0), u(100, 0).withBits(mask(100))},
		{"ret r: bits[1] = slt(x, y)", u(100, 0).withBits(mask(100)), u(100, 0), u(1, 1)},
		{"ret r: bits[100] = shll(x, y)", u(100, 1), u(7, 99), u(100, 0).withBits(new(big.Int).Lsh(bigOne, 99))},
		// gate
		{"ret r: bits[8] = gate(y, x)", u(8, 0x12), u(1, 0), u(8, 0)},
		{"ret r: bits[8] = gate(y, x)", u(8, 0x12), u(1, 1), u(8, 0x12)},
		// priority_sel without a default gives zero.
		{"ret r: bits[8] = priority_sel(y, cases=[x])", u(8, 0x12), u(1, 0), u(8, 0)},
		// sel over a 1-bit selector.
		{"ret r: bits[8] = sel(y, cases=[x, z])", u(8, 0x12), u(1, 1), u(8, 0x34)},
	}
	for _, tt := range tests {
		zt := tt.y.typ
		if strings.Contains(tt.src, "bit_slice_update") {
			zt = outline.BitsType(8)
		} else if strings.Contains(tt.src, "sel(") {
			zt = tt.x.typ
		}
		src := "package t\nfn f(x: " + tt.x.typ.String() + ", y: " + tt.y.typ.String() + ", z: " + zt.String() + ") -> " + tt.want.typ.String() + " {\n  " + tt.src + "\n}\n"
		p := mustParse(t, src)
		z := Uint(zt.Width, 0xff)
		if strings.Contains(tt.src, "sel(") {
			z = Uint(zt.Width, 0x34)
		}
		got, err := Eval(p, p.Funcs[0], []Value{tt.x, tt.y, z})
		if err != nil {
			t.Errorf("%s: %v", tt.src, err)
			continue
		}
		if !Equal(got, tt.want) {
			t.Errorf("%s on x=%s y=%s: got %s, want %s", tt.src, tt.x, tt.y, got, tt.want)
		}
	}
}

func (v Value) withBits(x *big.Int) Value { return Bits(v.typ.Width, x) }

// TestEvalUint64 checks the arithmetic of bits values up to 64 bits wide
// against Go's machine arithmetic.
func TestEvalUint64(t *testing.T) {
	type ref func(x, y uint64, w int) uint64
	sx := func(x uint64, w int) int64 { return int64(x<<(64-w)) >> (64 - w) }
	refs := map[string]ref{
		"add":  func(x, y uint64, w int) uint64 { return x + y },
		"sub":  func(x, y uint64, w int) uint64 { return x - y },
		"umul": func(x, y uint64, w int) uint64 { return x * y },
		"smul": func(x, y uint64, w int) uint64 { return uint64(sx(x, w) * sx(y, w)) },
		"udiv": func(x, y uint64, w int) uint64 {
			if y == 0 {
				return ^uint64(0)
			}
			return x / y
		},
		"umod": func(x, y uint64, w int) uint64 {
			if y == 0 {
				return 0
			}
			return x % y
		},
		"shll": func(x, y uint64, w int) uint64 {
			if y >= uint64(w) {
				return 0
			}
			return x << y
		},
		"shrl": func(x, y uint64, w int) uint64 {
			if y >= uint64(w) {
				return 0
			}
			return x >> y
		},
		"shra": func(x, y uint64, w int) uint64 { return uint64(sx(x, w) >> min(y, 63)) },
		"and":  func(x, y uint64, w int) uint64 { return x & y },
		"nor":  func(x, y uint64, w int) uint64 { return ^(x | y) },
		"xor":  func(x, y uint64, w int) uint64 { return x ^ y },
		"ult":  func(x, y uint64, w int) uint64 { return b2u(x < y) },
		"sge":  func(x, y uint64, w int) uint64 { return b2u(sx(x, w) >= sx(y, w)) },
		"ne":   func(x, y uint64, w int) uint64 { return b2u(x != y) },
	}
	r := rand.New(rand.NewPCG(11, 12))
	for op, f := range refs {
		for _, w := range []int{1, 7, 8, 31, 32, 63, 64} {
			rw := w
			if op == "ult" || op == "sge" || op == "ne" {
				rw = 1
			}
			p := mustParse(t, "package t\nfn f(x: bits["+itoa(w)+"], y: bits["+itoa(w)+"]) -> bits["+itoa(rw)+"] {\n  ret r: bits["+itoa(rw)+"] = "+op+"(x, y)\n}\n")
			e, err := NewEvaluator(p)
			if err != nil {
				t.Fatal(err)
			}
			m := ^uint64(0) >> (64 - w)
			for range 300 {
				xv, yv := RandomValue(outline.BitsType(w), r), RandomValue(outline.BitsType(w), r)
				got, err := e.Call(p.Funcs[0], []Value{xv, yv})
				if err != nil {
					t.Fatal(err)
				}
				want := f(xv.Uint64(), yv.Uint64(), w) & (^uint64(0) >> (64 - rw))
				if got.Uint64() != want {
					t.Fatalf("%s bits[%d] (%#x, %#x) = %#x, want %#x", op, w, xv.Uint64()&m, yv.Uint64()&m, got.Uint64(), want)
				}
			}
		}
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// TestEvalEqual checks EvalEqual on equal and unequal functions.
func TestEvalEqual(t *testing.T) {
	p := mustParse(t, `package e
fn a(x: bits[8], y: bits[8]) -> bits[8] {
  ret r: bits[8] = add(x, y)
}
fn b(x: bits[8], y: bits[8]) -> bits[8] {
  s: bits[8] = sub(x, y)
  twice: bits[8] = add(y, y)
  ret r: bits[8] = add(s, twice)
}
fn c(x: bits[8], y: bits[8]) -> bits[8] {
  ret r: bits[8] = or(x, y)
}
fn d(x: bits[8]) -> bits[8] {
  ret x: bits[8] = param(name=x)
}
`)
	if err := EvalEqual(p, p.Func("a"), p, p.Func("b"), 100, 1); err != nil {
		t.Errorf("a vs b: %v", err)
	}
	if err := EvalEqual(p, p.Func("a"), p, p.Func("c"), 100, 1); err == nil || !strings.Contains(err.Error(), "differ on") {
		t.Errorf("a vs c: %v", err)
	}
	if err := EvalEqual(p, p.Func("a"), p, p.Func("d"), 100, 1); err == nil {
		t.Errorf("a vs d: no error")
	}
	// Argument checks.
	if _, err := Eval(p, p.Func("a"), []Value{u(8, 1)}); err == nil {
		t.Errorf("Eval with one argument: no error")
	}
	if _, err := Eval(p, p.Func("a"), []Value{u(8, 1), u(7, 1)}); err == nil {
		t.Errorf("Eval with a bits[7] argument: no error")
	}
}

// TestValues checks value parsing, printing and RandomValue's edge values.
func TestValues(t *testing.T) {
	tt := outline.TupleType(outline.BitsType(4), outline.ArrayType(outline.BitsType(8), 2), outline.TupleType())
	v, err := ParseValue(tt, "(-8, [0xff, bits[8]:0b1], ())")
	if err != nil {
		t.Fatal(err)
	}
	if s := v.String(); s != "(8, [255, 1], ())" {
		t.Errorf("String = %s", s)
	}
	for _, bad := range []string{"(16, [1, 2], ())", "(1, [1, 2, 3], ())", "(1, [1], ())", "(1, [1, 2])", "(-9, [1, 2], ())", "(1, [1, 2], ()) x"} {
		if _, err := ParseValue(tt, bad); err == nil {
			t.Errorf("ParseValue(%s): no error", bad)
		}
	}
	r := rand.New(rand.NewPCG(1, 1))
	seen := map[string]bool{}
	for range 400 {
		seen[RandomValue(outline.BitsType(8), r).String()] = true
	}
	for _, edge := range []string{"0", "1", "255", "128", "127"} {
		if !seen[edge] {
			t.Errorf("RandomValue never drew %s", edge)
		}
	}
	if len(seen) < 100 {
		t.Errorf("RandomValue drew only %d distinct bytes", len(seen))
	}
	w := RandomValue(outline.BitsType(200), r)
	if w.Big().BitLen() > 200 {
		t.Errorf("RandomValue bits[200] = %s", w)
	}
}

var sink Value

func BenchmarkEvalCRC32(b *testing.B) {
	p := parseFile(b, "testdata/crc32.ir")
	e, err := NewEvaluator(p)
	if err != nil {
		b.Fatal(err)
	}
	f := p.Func("crc32_4")
	args := []Value{u(32, 0x12345678)}
	for b.Loop() {
		sink, err = e.Call(f, args)
		if err != nil {
			b.Fatal(err)
		}
	}
}

// TestEvalAggregates checks the operations on tuples and arrays that
// misc.ir does not reach.
func TestEvalAggregates(t *testing.T) {
	p := mustParse(t, `package agg
fn f(s: bits[2] id=1, a: bits[4][3][2] id=2, t: (bits[4], bits[4][2]) id=3, i: bits[8] id=4, g: bits[1] id=5) -> ((bits[4], bits[4][2]), bits[1], bits[4][3][2], bits[4][3][3], (bits[4], bits[4][2]), bits[4][3][2]) {
  k: (bits[4], bits[4][2]) = literal(value=(0b0101, [1, 8]), id=6)
  ohs: (bits[4], bits[4][2]) = one_hot_sel(s, cases=[t, k], id=7)
  e: bits[1] = eq(t, k, id=8)
  v: bits[4][3] = array_index(a, indices=[g], id=9)
  w: bits[4][3] = literal(value=[7, 7, 7], id=10)
  upd: bits[4][3][2] = array_update(a, w, indices=[i], id=11)
  all: bits[4][3][2] = array_index(a, indices=[], id=12)
  sl: bits[4][3][3] = array_slice(upd, i, width=3, id=13)
  gt: (bits[4], bits[4][2]) = gate(g, t, id=14)
  n4: bits[4] = bit_slice(i, start=0, width=4, id=17)
  deep: bits[4][3][2] = array_update(all, n4, indices=[g, s], id=15)
  ret r: ((bits[4], bits[4][2]), bits[1], bits[4][3][2], bits[4][3][3], (bits[4], bits[4][2]), bits[4][3][2]) = tuple(ohs, e, upd, sl, gt, deep, id=16)
}
`)
	b4 := outline.BitsType(4)
	row := func(x, y, z uint64) Value { return Array(b4, u(4, x), u(4, y), u(4, z)) }
	a := Array(row(1, 2, 3).typ, row(1, 2, 3), row(4, 5, 6))
	tv := Tuple(u(4, 0b1010), Array(b4, u(4, 2), u(4, 4)))
	got, err := Eval(p, p.Funcs[0], []Value{u(2, 3), a, tv, u(8, 1), u(1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	want := Tuple(
		Tuple(u(4, 0b1111), Array(b4, u(4, 3), u(4, 12))), // t | k
		u(1, 0),
		Array(row(1, 2, 3).typ, row(1, 2, 3), row(7, 7, 7)),
		Array(row(1, 2, 3).typ, row(7, 7, 7), row(7, 7, 7), row(7, 7, 7)), // clamped past the end
		tv,
		Array(row(1, 2, 3).typ, row(1, 2, 3), row(4, 5, 6)), // s=3 is past the end: unchanged
	)
	if !Equal(got, want) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// An update inside the two-dimensional array: a[1][1] = 1.
	got, err = Eval(p, p.Funcs[0], []Value{u(2, 1), a, tv, u(8, 1), u(1, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if deep := got.Elems()[5]; !Equal(deep, Array(row(1, 2, 3).typ, row(1, 2, 3), row(4, 1, 6))) {
		t.Errorf("deep update: got %s", deep)
	}
	// EvalEqual with aggregate parameters (all ones included).
	if err := EvalEqual(p, p.Funcs[0], p, p.Funcs[0], 20, 3); err != nil {
		t.Error(err)
	}
	var b strings.Builder
	if err := Write(&b, p); err != nil || !strings.Contains(b.String(), "one_hot_sel(s, cases=[t, k], id=7)") {
		t.Errorf("Write: %v\n%s", err, b.String())
	}
}

// TestFastStep: the uint64 evaluation of the common operations
// (fastStep) agrees with the general one (opInfo.eval, math/big) on random and
// extreme operands of widths 0 to 64, operands kept as big.Int and as
// uint64 alike.
func TestFastStep(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 1))
	e := &Evaluator{prepared: map[*outline.Function]*program{}}
	operand := func(w int) Value {
		var x uint64
		switch r.IntN(4) {
		case 0:
			x = 0
		case 1:
			x = ^uint64(0)
		default:
			x = r.Uint64()
		}
		if w < 64 {
			x &= 1<<uint(w) - 1
		}
		if r.IntN(2) == 0 {
			return Value{typ: outline.BitsType(w), bits: new(big.Int).SetUint64(x)}
		}
		return Value{typ: outline.BitsType(w), u: x}
	}
	checked := 0
	for _, info := range opTable {
		op, code := info.name, info.fast
		if code == fastNone {
			continue
		}
		for _, w := range []int{0, 1, 7, 31, 32, 63, 64} {
			for range 200 {
				nops, ow, rw := 2, w, w
				switch code {
				case fastNeg, fastNot:
					nops = 1
				case fastAnd, fastOr, fastXor, fastNand, fastNor:
					nops = 1 + r.IntN(6)
				case fastEq, fastNe, fastUlt, fastUle, fastUgt, fastUge:
					rw = 1
				case fastUmul:
					rw = r.IntN(65)
				}
				in := make([]Value, nops)
				for i := range in {
					in[i] = operand(ow)
				}
				if code == fastShll || code == fastShrl {
					in[1] = operand(r.IntN(9))
				}
				n := &outline.Node{Op: op, Type: outline.BitsType(rw)}
				s := &step{n: n, eval: info.eval, fast: code}
				got, ok := fastStep(s, in)
				if !ok {
					t.Fatalf("%s on bits[%d]: not computed", op, w)
				}
				want, err := s.eval(e, s, in)
				if err != nil {
					t.Fatal(err)
				}
				if !Equal(got, want) {
					t.Fatalf("%s%v = %s, want %s", op, in, got, want)
				}
				checked++
			}
		}
	}
	t.Logf("%d operations checked", checked)
}
