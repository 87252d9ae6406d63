package xls

import (
	"errors"
	"fmt"
	"math/bits"
	"os"
	"slices"
	"strings"
	"testing"

	"nestor/outline"
)

// An opCase is a function f using one operation, and the value it must
// give, written here independently of the evaluator: from the values of
// f's parameters (0 for a token), the value as Value.String writes it,
// followed by the side effects as Evaluator.Effects lists them.
type opCase struct {
	op  string
	src string // the package's functions, f last; "package t" is added
	ref func(a []uint64) string
}

// sx reads the low w bits of x as a two's complement number.
func sx(x uint64, w int) int64 { return int64(x<<(64-w)) >> (64 - w) }

// lo keeps the low w bits of x.
func lo(x int64, w int) uint64 { return uint64(x) & (1<<w - 1) }

func ref1(f func(x uint64) uint64) func([]uint64) string {
	return func(a []uint64) string { return fmt.Sprint(f(a[0])) }
}

func ref2(f func(x, y uint64) uint64) func([]uint64) string {
	return func(a []uint64) string { return fmt.Sprint(f(a[0], a[1])) }
}

func ref3(f func(x, y, z uint64) uint64) func([]uint64) string {
	return func(a []uint64) string { return fmt.Sprint(f(a[0], a[1], a[2])) }
}

// bin3 is a function of two bits[3] giving bits[W] by op.
func bin3(op string, w int) string {
	return fmt.Sprintf("fn f(x: bits[3], y: bits[3]) -> bits[%d] {\n  ret r: bits[%d] = %s(x, y)\n}", w, w, op)
}

// un3 is a function of one bits[3] giving bits[W] by op.
func un3(op string, w int) string {
	return fmt.Sprintf("fn f(x: bits[3]) -> bits[%d] {\n  ret r: bits[%d] = %s(x)\n}", w, w, op)
}

func nary3(op string) string {
	return "fn f(x: bits[3], y: bits[3], z: bits[3]) -> bits[3] {\n  ret r: bits[3] = " + op + "(x, y, z)\n}"
}

func cmp3(op string, rel func(x, y uint64) bool) opCase {
	return opCase{op, bin3(op, 1), ref2(func(x, y uint64) uint64 { return b2u(rel(x, y)) })}
}

// arr3 makes a: bits[2][3] = [x, y, z] of parameters x, y, z: bits[2].
const arr3 = "  a: bits[2][3] = array(x, y, z)\n"

// opCases covers every operation of opTable but param, on small widths
// so that every input can be tried; the edge cases of the semantics
// (division by zero, shifts by the width or more, indices out of bounds,
// no bit set) are among those inputs.
var opCases = []opCase{
	{"add", bin3("add", 3), ref2(func(x, y uint64) uint64 { return (x + y) & 7 })},
	{"sub", bin3("sub", 3), ref2(func(x, y uint64) uint64 { return (x - y) & 7 })},
	{"neg", un3("neg", 3), ref1(func(x uint64) uint64 { return -x & 7 })},
	{"umul", bin3("umul", 5), ref2(func(x, y uint64) uint64 { return x * y & 31 })},
	{"smul", bin3("smul", 5), ref2(func(x, y uint64) uint64 { return lo(sx(x, 3)*sx(y, 3), 5) })},
	{"umulp", "fn f(x: bits[3], y: bits[3]) -> (bits[5], bits[5]) {\n  ret r: (bits[5], bits[5]) = umulp(x, y)\n}",
		func(a []uint64) string { return fmt.Sprintf("(%d, 0)", a[0]*a[1]&31) }},
	{"smulp", "fn f(x: bits[3], y: bits[3]) -> (bits[5], bits[5]) {\n  ret r: (bits[5], bits[5]) = smulp(x, y)\n}",
		func(a []uint64) string { return fmt.Sprintf("(%d, 0)", lo(sx(a[0], 3)*sx(a[1], 3), 5)) }},
	{"udiv", bin3("udiv", 3), ref2(func(x, y uint64) uint64 {
		if y == 0 {
			return 7
		}
		return x / y
	})},
	{"sdiv", bin3("sdiv", 3), ref2(func(x, y uint64) uint64 {
		switch {
		case y == 0 && sx(x, 3) >= 0:
			return 3
		case y == 0:
			return 4
		}
		return lo(sx(x, 3)/sx(y, 3), 3)
	})},
	{"umod", bin3("umod", 3), ref2(func(x, y uint64) uint64 {
		if y == 0 {
			return 0
		}
		return x % y
	})},
	{"smod", bin3("smod", 3), ref2(func(x, y uint64) uint64 {
		if y == 0 {
			return 0
		}
		return lo(sx(x, 3)%sx(y, 3), 3)
	})},
	cmp3("eq", func(x, y uint64) bool { return x == y }),
	cmp3("ne", func(x, y uint64) bool { return x != y }),
	cmp3("ult", func(x, y uint64) bool { return x < y }),
	cmp3("ule", func(x, y uint64) bool { return x <= y }),
	cmp3("ugt", func(x, y uint64) bool { return x > y }),
	cmp3("uge", func(x, y uint64) bool { return x >= y }),
	cmp3("slt", func(x, y uint64) bool { return sx(x, 3) < sx(y, 3) }),
	cmp3("sle", func(x, y uint64) bool { return sx(x, 3) <= sx(y, 3) }),
	cmp3("sgt", func(x, y uint64) bool { return sx(x, 3) > sx(y, 3) }),
	cmp3("sge", func(x, y uint64) bool { return sx(x, 3) >= sx(y, 3) }),
	{"shll", bin3("shll", 3), ref2(func(x, y uint64) uint64 { return x << y & 7 })},
	{"shrl", bin3("shrl", 3), ref2(func(x, y uint64) uint64 { return x >> y })},
	{"shra", bin3("shra", 3), ref2(func(x, y uint64) uint64 { return lo(sx(x, 3)>>y, 3) })},

	{"and", nary3("and"), ref3(func(x, y, z uint64) uint64 { return x & y & z })},
	{"or", nary3("or"), ref3(func(x, y, z uint64) uint64 { return x | y | z })},
	{"xor", nary3("xor"), ref3(func(x, y, z uint64) uint64 { return x ^ y ^ z })},
	{"nand", nary3("nand"), ref3(func(x, y, z uint64) uint64 { return ^(x & y & z) & 7 })},
	{"nor", nary3("nor"), ref3(func(x, y, z uint64) uint64 { return ^(x | y | z) & 7 })},
	{"not", un3("not", 3), ref1(func(x uint64) uint64 { return ^x & 7 })},
	{"identity", un3("identity", 3), ref1(func(x uint64) uint64 { return x })},
	{"reverse", un3("reverse", 3), ref1(func(x uint64) uint64 { return uint64(bits.Reverse8(uint8(x))) >> 5 })},
	{"and_reduce", un3("and_reduce", 1), ref1(func(x uint64) uint64 { return b2u(x == 7) })},
	{"or_reduce", un3("or_reduce", 1), ref1(func(x uint64) uint64 { return b2u(x != 0) })},
	{"xor_reduce", un3("xor_reduce", 1), ref1(func(x uint64) uint64 { return uint64(bits.OnesCount64(x) % 2) })},

	{"bit_slice", "fn f(x: bits[6]) -> bits[3] {\n  ret r: bits[3] = bit_slice(x, start=2, width=3)\n}",
		ref1(func(x uint64) uint64 { return x >> 2 & 7 })},
	{"dynamic_bit_slice", "fn f(x: bits[6], y: bits[3]) -> bits[3] {\n  ret r: bits[3] = dynamic_bit_slice(x, y, width=3)\n}",
		ref2(func(x, y uint64) uint64 { return x >> y & 7 })},
	{"bit_slice_update", "fn f(x: bits[5], y: bits[3], z: bits[2]) -> bits[5] {\n  ret r: bits[5] = bit_slice_update(x, y, z)\n}",
		ref3(func(x, y, z uint64) uint64 { return (x&^(3<<y) | z<<y) & 31 })},
	{"concat", "fn f(x: bits[3], y: bits[2]) -> bits[5] {\n  ret r: bits[5] = concat(x, y)\n}",
		ref2(func(x, y uint64) uint64 { return x<<2 | y })},
	{"sign_ext", "fn f(x: bits[3]) -> bits[5] {\n  ret r: bits[5] = sign_ext(x, new_bit_count=5)\n}",
		ref1(func(x uint64) uint64 { return lo(sx(x, 3), 5) })},
	{"zero_ext", "fn f(x: bits[3]) -> bits[5] {\n  ret r: bits[5] = zero_ext(x, new_bit_count=5)\n}",
		ref1(func(x uint64) uint64 { return x })},
	{"encode", "fn f(x: bits[5]) -> bits[3] {\n  ret r: bits[3] = encode(x)\n}",
		ref1(func(x uint64) uint64 {
			var r uint64
			for i := range 5 {
				if x>>i&1 == 1 {
					r |= uint64(i)
				}
			}
			return r
		})},
	{"decode", "fn f(x: bits[3]) -> bits[5] {\n  ret r: bits[5] = decode(x, width=5)\n}",
		ref1(func(x uint64) uint64 { return 1 << x & 31 })},
	{"one_hot", "fn f(x: bits[3]) -> bits[4] {\n  ret r: bits[4] = one_hot(x, lsb_prio=true)\n}",
		ref1(func(x uint64) uint64 { return 1 << bits.TrailingZeros8(uint8(x|8)) })},
	{"one_hot", "fn f(x: bits[3]) -> bits[4] {\n  ret r: bits[4] = one_hot(x, lsb_prio=false)\n}",
		ref1(func(x uint64) uint64 {
			if x == 0 {
				return 8
			}
			return 1 << (bits.Len64(x) - 1)
		})},

	{"sel", "fn f(s: bits[2], x: bits[2], y: bits[2], z: bits[2]) -> bits[2] {\n  d: bits[2] = literal(value=2)\n  ret r: bits[2] = sel(s, cases=[x, y, z], default=d)\n}",
		func(a []uint64) string { return fmt.Sprint(append(a[1:4], 2)[a[0]]) }},
	{"sel", "fn f(s: bits[1], x: bits[2], y: bits[2]) -> bits[2] {\n  ret r: bits[2] = sel(s, cases=[x, y])\n}",
		func(a []uint64) string { return fmt.Sprint(a[1+a[0]]) }},
	{"one_hot_sel", "fn f(s: bits[2], x: bits[3], y: bits[3]) -> bits[3] {\n  ret r: bits[3] = one_hot_sel(s, cases=[x, y])\n}",
		func(a []uint64) string { return fmt.Sprint(a[1]*(a[0]&1) | a[2]*(a[0]>>1)) }},
	{"priority_sel", "fn f(s: bits[2], x: bits[2], y: bits[2], z: bits[2]) -> bits[2] {\n  ret r: bits[2] = priority_sel(s, cases=[x, y], default=z)\n}",
		func(a []uint64) string {
			switch {
			case a[0]&1 == 1:
				return fmt.Sprint(a[1])
			case a[0]&2 == 2:
				return fmt.Sprint(a[2])
			}
			return fmt.Sprint(a[3])
		}},
	{"gate", "fn f(g: bits[1], x: bits[3]) -> bits[3] {\n  ret r: bits[3] = gate(g, x)\n}",
		ref2(func(g, x uint64) uint64 { return g * x })},

	{"tuple", "fn f(x: bits[3], y: bits[2]) -> (bits[3], bits[2]) {\n  ret r: (bits[3], bits[2]) = tuple(x, y)\n}",
		func(a []uint64) string { return fmt.Sprintf("(%d, %d)", a[0], a[1]) }},
	{"tuple_index", "fn f(x: bits[3], y: bits[2]) -> bits[2] {\n  t: (bits[3], bits[2]) = tuple(x, y)\n  ret r: bits[2] = tuple_index(t, index=1)\n}",
		func(a []uint64) string { return fmt.Sprint(a[1]) }},
	{"array", "fn f(x: bits[2], y: bits[2], z: bits[2]) -> bits[2][3] {\n  ret r: bits[2][3] = array(x, y, z)\n}",
		func(a []uint64) string { return fmt.Sprintf("[%d, %d, %d]", a[0], a[1], a[2]) }},
	{"array_index", "fn f(x: bits[2], y: bits[2], z: bits[2], i: bits[2]) -> bits[2] {\n" + arr3 + "  ret r: bits[2] = array_index(a, indices=[i])\n}",
		func(a []uint64) string { return fmt.Sprint(a[min(a[3], 2)]) }},
	{"array_update", "fn f(x: bits[2], y: bits[2], z: bits[2], i: bits[2]) -> bits[2][3] {\n" + arr3 + "  ret r: bits[2][3] = array_update(a, x, indices=[i])\n}",
		func(a []uint64) string {
			e := slices.Clone(a[:3])
			if a[3] < 3 {
				e[a[3]] = a[0]
			}
			return fmt.Sprintf("[%d, %d, %d]", e[0], e[1], e[2])
		}},
	{"array_concat", "fn f(x: bits[2], y: bits[2], z: bits[2]) -> bits[2][3] {\n  a: bits[2][2] = array(x, y)\n  b: bits[2][1] = array(z)\n  ret r: bits[2][3] = array_concat(a, b)\n}",
		func(a []uint64) string { return fmt.Sprintf("[%d, %d, %d]", a[0], a[1], a[2]) }},
	{"array_slice", "fn f(x: bits[2], y: bits[2], z: bits[2], i: bits[2]) -> bits[2][2] {\n" + arr3 + "  ret r: bits[2][2] = array_slice(a, i, width=2)\n}",
		func(a []uint64) string { return fmt.Sprintf("[%d, %d]", a[min(a[3], 2)], a[min(a[3]+1, 2)]) }},

	{"literal", "fn f() -> (bits[3], bits[2][2]) {\n  ret r: (bits[3], bits[2][2]) = literal(value=(0b101, [1, 0x3]))\n}",
		func([]uint64) string { return "(5, [1, 3])" }},
	{"invoke", "fn g(a: bits[3], b: bits[3]) -> bits[3] {\n  ret s: bits[3] = sub(a, b)\n}\nfn f(x: bits[3], y: bits[3]) -> bits[3] {\n  ret r: bits[3] = invoke(y, x, to_apply=g)\n}",
		ref2(func(x, y uint64) uint64 { return (y - x) & 7 })},
	{"counted_for", "fn body(i: bits[3], acc: bits[3], k: bits[3]) -> bits[3] {\n  s: bits[3] = add(i, k)\n  ret t: bits[3] = add(acc, s)\n}\nfn f(x: bits[3], y: bits[3]) -> bits[3] {\n  ret r: bits[3] = counted_for(x, trip_count=3, stride=3, body=body, invariant_args=[y])\n}",
		ref2(func(x, y uint64) uint64 {
			for j := range uint64(3) {
				x = (x + j*3&7 + y) & 7
			}
			return x
		})},
	{"dynamic_counted_for", "fn body(i: bits[3], acc: bits[3]) -> bits[3] {\n  s: bits[3] = umul(i, acc)\n  ret t: bits[3] = add(s, i)\n}\nfn f(x: bits[3], n: bits[2], st: bits[2]) -> bits[3] {\n  ret r: bits[3] = dynamic_counted_for(x, n, st, body=body)\n}",
		ref3(func(x, n, st uint64) uint64 {
			for j := range int64(n) {
				i := lo(j*sx(st, 2), 3)
				x = (i*x + i) & 7
			}
			return x
		})},
	{"map", "fn g(e: bits[2]) -> bits[3] {\n  ret n: bits[3] = zero_ext(e, new_bit_count=3)\n}\nfn f(x: bits[2], y: bits[2], z: bits[2]) -> bits[3][3] {\n" + arr3 + "  ret r: bits[3][3] = map(a, to_apply=g)\n}",
		func(a []uint64) string { return fmt.Sprintf("[%d, %d, %d]", a[0], a[1], a[2]) }},

	{"after_all", "fn f(s: token, t: token) -> token {\n  ret r: token = after_all(s, t)\n}",
		func([]uint64) string { return "token" }},
	{"min_delay", "fn f(s: token) -> token {\n  ret r: token = min_delay(s, delay=2)\n}",
		func([]uint64) string { return "token" }},
	{"assert", "fn f(s: token, c: bits[1]) -> token {\n  ret r: token = assert(s, c, message=\"m\", label=\"l\")\n}",
		func(a []uint64) string {
			if a[1] == 0 {
				return `token assert "m"`
			}
			return "token"
		}},
	{"trace", "fn f(s: token, c: bits[1], x: bits[3]) -> token {\n  ret r: token = trace(s, c, format=\"x={}\", data_operands=[x])\n}",
		func(a []uint64) string {
			if a[1] == 1 {
				return fmt.Sprintf(`token trace "x={}": (bits[3]:%d)`, a[2])
			}
			return "token"
		}},
	{"cover", "fn f(c: bits[1]) -> () {\n  ret r: () = cover(c, label=\"l\")\n}",
		func(a []uint64) string {
			if a[0] == 1 {
				return `() cover "l"`
			}
			return "()"
		}},
}

// TestOpTable: every operation of opTable but param has a type rule, an
// evaluation and a case in opCases, and the package documentation lists
// exactly these operations; every case's function is evaluated on all
// its inputs and agrees with the case's reference.
func TestOpTable(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range opCases {
		covered[c.op] = true
	}
	var names []string
	for i, info := range opTable {
		if ops[info.name] != &opTable[i] {
			t.Errorf("%s: ops does not index opTable's entry (named twice?)", info.name)
		}
		if info.name == "param" {
			if info.check != nil || info.eval != nil {
				t.Errorf("param has a type rule or an evaluation; it is never a node of its own")
			}
			continue
		}
		names = append(names, info.name)
		if info.check == nil || info.eval == nil {
			t.Errorf("%s has no type rule or no evaluation", info.name)
		}
		if !covered[info.name] {
			t.Errorf("%s has no case in opCases", info.name)
		}
		delete(covered, info.name)
	}
	for op := range covered {
		t.Errorf("opCases tests %s, which is not in opTable", op)
	}

	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i, j := strings.Index(text, "Supported operations:"), strings.Index(text, "The operations of procs")
	if i < 0 || j < i {
		t.Fatal("doc.go does not list the supported operations")
	}
	listed := strings.Fields(strings.NewReplacer("//", " ", ";", " ", ".", " ").Replace(text[i+len("Supported operations:") : j]))
	slices.Sort(listed)
	slices.Sort(names)
	if !slices.Equal(listed, names) {
		t.Errorf("doc.go lists the operations\n%v\nopTable has\n%v", listed, names)
	}

	for _, c := range opCases {
		p := mustParse(t, "package t\n"+c.src+"\n")
		f := p.Funcs[len(p.Funcs)-1]
		if !slices.ContainsFunc(f.Nodes, func(n *outline.Node) bool { return n.Op == c.op }) {
			t.Errorf("the case of %s does not use it", c.op)
			continue
		}
		total := 0
		for _, q := range f.Params {
			total += q.Type.Width
		}
		if total > 12 {
			t.Fatalf("the case of %s has %d bits of input, too many to try all", c.op, total)
		}
		// Once as Eval runs, once with fastStep off so that every
		// operation's evalFunc is tried.
		for _, general := range []bool{false, true} {
			if tried := tryAll(t, p, f, c, total, general); tried == 0 {
				t.Errorf("%s: no input tried", c.op)
			}
		}
	}
}

// tryAll evaluates f of p on all its inputs, given the total width of its
// parameters, and compares the results with c's reference; general turns
// fastStep off. It returns the number of inputs tried.
func tryAll(t *testing.T, p *outline.Package, f *outline.Function, c opCase, total int, general bool) int {
	t.Helper()
	e, err := NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	if general {
		if _, err := e.prepare(f); err != nil {
			t.Fatal(err)
		}
		for _, prog := range e.prepared {
			for i := range prog.steps {
				prog.steps[i].fast = fastNone
			}
		}
	}
	tried := 0
	for code := uint64(0); code < 1<<total; code++ {
		a := make([]uint64, len(f.Params))
		args := make([]Value, len(f.Params))
		rest := code
		for k, q := range f.Params {
			a[k] = rest & (1<<q.Type.Width - 1)
			rest >>= q.Type.Width
			args[k] = Uint(q.Type.Width, a[k])
			if q.Type.Kind == outline.Token {
				args[k] = TokenValue()
			}
		}
		v, err := e.Call(f, args)
		if err != nil {
			t.Fatalf("%s%v: %v", c.op, a, err)
		}
		got := v.String()
		if fx := e.Effects(); len(fx) > 0 {
			got += " " + strings.Join(fx, "; ")
		}
		if want := c.ref(a); got != want {
			t.Errorf("%s on %v (fastStep off: %v): got %s, want %s", c.op, a, general, got, want)
		}
		tried++
	}
	return tried
}

// TestOpTableDrives checks that Parse, Check and the evaluator take an
// operation's type rule and evaluation from its opTable entry (and only
// there): a replaced entry changes what they do.
func TestOpTableDrives(t *testing.T) {
	info := ops["add"]
	saved := *info
	defer func() { *info = saved }()
	src := "package t\nfn f(x: bits[100], y: bits[100]) -> bits[100] {\n  ret r: bits[100] = add(x, y)\n}\n"
	p := mustParse(t, src)

	info.check = func(c checker) error { return errors.New("rule replaced") }
	if _, err := Parse("t.ir", []byte(src)); err == nil || !strings.Contains(err.Error(), "rule replaced") {
		t.Errorf("Parse with add's rule replaced: %v", err)
	}
	if err := Check(p); err == nil || !strings.Contains(err.Error(), "rule replaced") {
		t.Errorf("Check with add's rule replaced: %v", err)
	}
	info.check = saved.check

	info.eval = func(_ *Evaluator, s *step, in []Value) (Value, error) { return Uint(s.n.Type.Width, 42), nil }
	v, err := Eval(p, p.Funcs[0], []Value{Uint(100, 1), Uint(100, 2)})
	if err != nil || v.String() != "42" {
		t.Errorf("Eval with add's evaluation replaced: %v, %v; want 42", v, err)
	}
	info.eval = saved.eval

	delete(ops, "add")
	defer func() { ops["add"] = info }()
	if _, err := Parse("t.ir", []byte(src)); err == nil || !strings.Contains(err.Error(), "unsupported operation add") {
		t.Errorf("Parse without add in the table: %v", err)
	}
	if err := Check(p); err == nil || !strings.Contains(err.Error(), `unsupported operation "add"`) {
		t.Errorf("Check without add in the table: %v", err)
	}
}
