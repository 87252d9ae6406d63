package xls

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/outline"
)

func testFiles(t testing.TB) []string {
	files, err := filepath.Glob("testdata/*.ir")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	return files
}

func parseFile(t testing.TB, file string) *outline.Package {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(file, src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return p
}

func mustParse(t testing.TB, src string) *outline.Package {
	t.Helper()
	p, err := Parse("test.ir", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return p
}

func mustFormat(t testing.TB, p *outline.Package) string {
	t.Helper()
	s, err := Format(p)
	if err != nil {
		t.Fatalf("Format: %v", err)
	}
	return s
}

// samePackage reports how a and b differ structurally: names, IDs,
// operations, types, attributes, operands (by position), returns, source
// positions (pos=), file numbers, function attributes and the opaque
// parts (procs, blocks, channels). Positions in the IR text are not
// compared.
func samePackage(a, b *outline.Package) error {
	if a.Name != b.Name || a.Top != b.Top || len(a.Funcs) != len(b.Funcs) {
		return fmt.Errorf("package %s top %q %d funcs vs %s top %q %d funcs", a.Name, a.Top, len(a.Funcs), b.Name, b.Top, len(b.Funcs))
	}
	if !slices.Equal(a.Files, b.Files) || a.Headless != b.Headless || len(a.Opaque) != len(b.Opaque) {
		return fmt.Errorf("file numbers %v, headless %v, %d opaque parts vs %v, %v, %d", a.Files, a.Headless, len(a.Opaque), b.Files, b.Headless, len(b.Opaque))
	}
	for i, o := range a.Opaque {
		q := b.Opaque[i]
		if o.Kind != q.Kind || o.Name != q.Name || o.Text != q.Text || o.Top != q.Top || o.MaxID != q.MaxID || !slices.Equal(o.Calls, q.Calls) {
			return fmt.Errorf("opaque part %d: %s %s vs %s %s:\n%s\n---\n%s", i, o.Kind, o.Name, q.Kind, q.Name, o.Text, q.Text)
		}
	}
	for i, f := range a.Funcs {
		g := b.Funcs[i]
		if f.Name != g.Name || len(f.Params) != len(g.Params) || len(f.Nodes) != len(g.Nodes) {
			return fmt.Errorf("function %s (%d params, %d nodes) vs %s (%d, %d)", f.Name, len(f.Params), len(f.Nodes), g.Name, len(g.Params), len(g.Nodes))
		}
		if !slices.Equal(f.Attrs, g.Attrs) || f.Outlined != g.Outlined {
			return fmt.Errorf("function %s: attributes %q outlined %v vs %q %v", f.Name, f.Attrs, f.Outlined, g.Attrs, g.Outlined)
		}
		ia, ib := indexOf(f), indexOf(g)
		for j, n := range f.Nodes {
			m := g.Nodes[j]
			if n.ID != m.ID || n.Name != m.Name || n.Op != m.Op || !n.Type.Equal(m.Type) ||
				!slices.Equal(n.Attrs, m.Attrs) || len(n.Operands) != len(m.Operands) || !slices.Equal(n.Loc, m.Loc) {
				return fmt.Errorf("function %s node %d: %s %d %q %v vs %s %d %q %v", f.Name, j, n.RefName(), n.ID, n.Label(), n.Operands, m.RefName(), m.ID, m.Label(), m.Operands)
			}
			for k := range n.Operands {
				if ia[n.Operands[k]] != ib[m.Operands[k]] {
					return fmt.Errorf("function %s node %s: operand %d differs", f.Name, n.RefName(), k)
				}
			}
		}
		for j := range f.Params {
			if ia[f.Params[j]] != ib[g.Params[j]] {
				return fmt.Errorf("function %s: param %d differs", f.Name, j)
			}
		}
		if ia[f.Ret] != ib[g.Ret] {
			return fmt.Errorf("function %s: ret differs", f.Name)
		}
	}
	return nil
}

func indexOf(f *outline.Function) map[*outline.Node]int {
	m := make(map[*outline.Node]int, len(f.Nodes))
	for i, n := range f.Nodes {
		m[n] = i
	}
	return m
}

// roundTrip checks parse -> write -> parse gives an equal package and
// that writing is idempotent.
func roundTrip(t testing.TB, p *outline.Package) {
	t.Helper()
	text := mustFormat(t, p)
	q, err := Parse("written.ir", []byte(text))
	if err != nil {
		t.Fatalf("Parse of written text: %v\n%s", err, text)
	}
	if err := samePackage(p, q); err != nil {
		t.Fatalf("written package differs: %v\n%s", err, text)
	}
	if again := mustFormat(t, q); again != text {
		t.Fatalf("writing is not idempotent:\n%s\n---\n%s", text, again)
	}
}

func TestParseTestdata(t *testing.T) {
	for _, file := range testFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			p := parseFile(t, file)
			if err := Check(p); err != nil {
				t.Fatalf("Check: %v", err)
			}
			for _, f := range p.Funcs {
				if err := f.Check(); err != nil {
					t.Fatalf("outline Check: %v", err)
				}
			}
			roundTrip(t, p)
		})
	}
}

// TestParseDetails checks what the reader keeps of a node: names, IDs,
// canonical attributes, operand layout.
func TestParseDetails(t *testing.T) {
	p := mustParse(t, `package p
fn f(x: bits[8] id=1, s: bits[2] id=2) -> bits[8] {
  literal.3: bits[8] = literal(value=0xff, pos=[(0,1,2), (1,2,3)], id=3)
  k: bits[8] = literal(value=-1, id=4)
  add.9: bits[8] = add(x, k, id=5)
  sel.6: bits[8] = sel(s, cases=[x, k, add.9], default=literal.3, id=6)
  bit_slice.7: bits[3] = bit_slice(sel.6, width=3, start=2)
  ret zero_ext.8: bits[8] = zero_ext(bit_slice.7, new_bit_count=8, pos=0,1,2)
}
`)
	f := p.Funcs[0]
	type want struct {
		id    int
		name  string
		label string
		ops   int
	}
	wants := []want{
		{1, "x", "param bits[8]", 0},
		{2, "s", "param bits[2]", 0},
		{3, "", "literal bits[8] value=255", 0},
		{4, "k", "literal bits[8] value=255", 0},
		{5, "add.9", "add bits[8]", 2},
		{6, "", "sel bits[8]", 5},
		{7, "", "bit_slice bits[3] start=2 width=3", 1},
		{8, "", "zero_ext bits[8] new_bit_count=8", 1},
	}
	if len(f.Nodes) != len(wants) {
		t.Fatalf("%d nodes, want %d", len(f.Nodes), len(wants))
	}
	for i, w := range wants {
		n := f.Nodes[i]
		if n.ID != w.id || n.Name != w.name || n.Label() != w.label || len(n.Operands) != w.ops {
			t.Errorf("node %d: id %d name %q label %q %d operands, want %+v", i, n.ID, n.Name, n.Label(), len(n.Operands), w)
		}
	}
	if f.Ret != f.Nodes[7] || f.Nodes[5].Operands[4] != f.Nodes[2] {
		t.Errorf("wrong ret or sel default")
	}
	if f.Nodes[4].Pos != (outline.Pos{Line: 5, Col: 3}) {
		t.Errorf("add at %v, want 5:3", f.Nodes[4].Pos)
	}
	roundTrip(t, p)
}

// TestParseErrors checks that bad input gives an error at the right place.
func TestParseErrors(t *testing.T) {
	const head = "package p\nfn f(x: bits[8] id=1, y: bits[4] id=2) -> bits[8] {\n"
	tests := []struct {
		body, want string
	}{
		{"  ret add.3: bits[8] = add(x, y, id=3)\n}\n", "3:7: add operand 1 has type bits[4], want bits[8]"},
		{"  ret add.3: bits[4] = add(x, x, id=3)\n}\n", "3:7: add operand 0 has type bits[8], want bits[4]"},
		{"  ret q: bits[8] = add(x, z)\n}\n", "3:27: undefined name z"},
		{"  ret q: bits[8] = frob(x)\n}\n", "3:20: unsupported operation frob"},
		{"  ret q: bits[8] = bit_slice(x, start=1)\n}\n", "3:29: bit_slice needs argument width"},
		{"  ret q: bits[8] = bit_slice(x, start=1, width=8)\n}\n", "bit_slice start=1 width=8 of a 8-bit operand"},
		{"  ret q: bits[8] = literal(value=256)\n}\n", "3:34: value 256 does not fit in bits[8]"},
		{"  ret q: bits[8] = literal(value=-129)\n}\n", "value -129 does not fit in bits[8]"},
		{"  q: bits[8] = identity(x)\n}\n", "4:1: function f has no ret"},
		{"  ret q: bits[4] = identity(y)\n}\n", "function f returns bits[4], declared bits[8]"},
		{"  q: bits[8] = identity(x, id=1)\n  ret r: bits[8] = identity(q)\n}\n", "3:3: id 1 already used at 2:6"},
		{"  ret q: bits[8] = sel(y, cases=[x, x])\n}\n", "sel needs a default: 2 cases for a 4-bit selector"},
		{"  b: bits[1] = bit_slice(y, start=0, width=1)\n  ret q: bits[8] = sel(b, cases=[x, x], default=x)\n}\n", "sel has a default but its 2 cases cover the 1-bit selector"},
		{"  ret q: bits[8] = one_hot_sel(y, cases=[x, x])\n}\n", "one_hot_sel has 2 cases for a 4-bit selector"},
		{"  ret q: bits[8] = tuple_index(x, index=0)\n}\n", "tuple_index operand has type bits[8], want a tuple"},
		{"  ret q: bits[8] = invoke(x, to_apply=g)\n}\n", "invoke of undefined function g"},
		{"  ret q: bits[8] = add(x, x, id=3, id=4)\n}\n", "argument id given twice"},
		{"  ret q: bits[8] = add(x, x, start=3)\n}\n", "add takes no argument start"},
		{"  ret q: bits[8] = add(x)\n}\n", "add takes 2 operands, found 1"},
		{"  ret q: bits[8] = sign_ext(x, new_bit_count=4)\n}\n", "sign_ext new_bit_count=4 is less than the operand's 8 bits"},
		{"  ret q: bits[8] = sign_ext(y, new_bit_count=6)\n}\n", "sign_ext has type bits[8], want bits[6]"},
		{"  ret q: bits[8][0] = array()\n}\n", "returns bits[8][0], declared bits[8]"}, // empty arrays are read (XLS has them)
		{"  ret q: bits[8] = add(x, x) $\n}\n", "3:30: unexpected character '$'"},
		{"  ret q: bits[99999999] = add(x, x)\n}\n", "type too large"},
	}
	for _, tt := range tests {
		_, err := Parse("t.ir", []byte(head+tt.body))
		if err == nil {
			t.Errorf("no error for\n%s", tt.body)
			continue
		}
		var list ErrorList
		if !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "t.ir:") {
			t.Errorf("error %q is not an ErrorList with positions", err)
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %q, want %q for\n%s", err, tt.want, tt.body)
		}
	}
}

// TestParseRecovers checks that errors on several lines are all reported,
// without follow-on errors for uses of the bad definitions.
func TestParseRecovers(t *testing.T) {
	src := `package p
fn f(x: bits[8] id=1) -> bits[8] {
  a: bits[8] = add(x, x, x)
  b: bits[8] = add(a, x)
  c: bits[8] = neg(b, x)
  ret d: bits[8] = bogus(c)
}
`
	_, err := Parse("r.ir", []byte(src))
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"r.ir:3:19: add takes 2 operands, found 3",
		"r.ir:5:19: neg takes 1 operands, found 2",
		"r.ir:6:20: unsupported operation bogus",
	}
	if !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParseForms reads forms that XLS has written over time.
func TestParseForms(t *testing.T) {
	src := `package forms

#[initiation_interval(2)]
fn id(x: bits[8]) -> bits[8] {
  ret x: bits[8] = param(name=x, id=1)
}

fn names(x: bits[8], y: bits[8]) -> bits[8] {
  add.7: bits[8] = add(x, y)
  foo: bits[8] = sub(add.7, y, pos=[(0, 1, 2)])
  ret foo
}

top fn main(t: (bits[8], token, ()) id=20) -> (bits[8][2], ()) {
  tuple_index.21: bits[8] = tuple_index(t, index=0)
  lit: (bits[8][2], ()) = literal(value=([bits[8]:1, 0b11], ()))
  tuple_index.22: () = tuple_index(t, index=2)
  array.23: bits[8][2] = array(tuple_index.21, tuple_index.21)
  ret r: (bits[8][2], ()) = tuple(array.23, tuple_index.22)
}
`
	p := mustParse(t, src)
	if p.Top != "main" || len(p.Funcs) != 3 {
		t.Fatalf("top %q, %d funcs", p.Top, len(p.Funcs))
	}
	if f := p.Funcs[0]; f.Ret != f.Params[0] || len(f.Nodes) != 1 {
		t.Errorf("id does not return its parameter")
	}
	g := p.Funcs[1]
	if g.Nodes[2].ID != 7 || g.Nodes[2].Name != "" || g.Ret.Name != "foo" {
		t.Errorf("names: add %d %q, ret %q", g.Nodes[2].ID, g.Nodes[2].Name, g.Ret.Name)
	}
	seen := map[int]bool{}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			if n.ID <= 0 || seen[n.ID] {
				t.Errorf("node %s has id %d", n.RefName(), n.ID)
			}
			seen[n.ID] = true
		}
	}
	roundTrip(t, p)
}

// TestWriteFresh checks what Write does with graphs built by other code:
// zero and repeated IDs, repeated and odd names, keyword names.
func TestWriteFresh(t *testing.T) {
	b8 := outline.BitsType(8)
	x := &outline.Node{Op: "param", Name: "x", Type: b8}
	y := &outline.Node{Op: "param", Name: "ret", Type: b8, ID: 7}
	a := &outline.Node{Op: "add", Type: b8, Operands: []*outline.Node{x, y}, ID: 7}
	c := &outline.Node{Op: "add", Name: "add.8", Type: b8, Operands: []*outline.Node{a, y}}
	d := &outline.Node{Op: "literal", Name: "a b", Type: b8, Attrs: []outline.Attr{{Key: "value", Value: "0x10"}}}
	e := &outline.Node{Op: "xor", Name: "9lives", Type: b8, Operands: []*outline.Node{c, d}, ID: 3}
	f := &outline.Function{Name: "f-1", Params: []*outline.Node{x, y}, Nodes: []*outline.Node{x, y, a, c, d, e}, Ret: e}
	p := &outline.Package{Name: "built", Funcs: []*outline.Function{f}, Top: "f-1"}
	text := mustFormat(t, p)
	want := `package built

top fn f_1(x: bits[8] id=8, ret_: bits[8] id=7) -> bits[8] {
  add.9: bits[8] = add(x, ret_, id=9)
  add.8: bits[8] = add(add.9, ret_, id=10)
  a_b: bits[8] = literal(value=16, id=11)
  ret _9lives: bits[8] = xor(add.8, a_b, id=3)
}
`
	if text != want {
		t.Errorf("got:\n%s\nwant:\n%s", text, want)
	}
	q := mustParse(t, text)
	roundTrip(t, q)
	if err := EvalEqual(p, f, q, q.Funcs[0], 50, 1); err != nil {
		t.Error(err)
	}
	if x.ID != 0 || a.ID != 7 || d.Attrs[0].Value != "0x10" {
		t.Errorf("Write modified its package")
	}
}

// TestWriteOrder checks that callees are written before their callers.
func TestWriteOrder(t *testing.T) {
	b8 := outline.BitsType(8)
	x := &outline.Node{Op: "param", Name: "x", Type: b8}
	call := &outline.Node{Op: "invoke", Type: b8, Operands: []*outline.Node{x}, Attrs: []outline.Attr{{Key: "to_apply", Value: "g"}}}
	f := &outline.Function{Name: "f", Params: []*outline.Node{x}, Nodes: []*outline.Node{x, call}, Ret: call}
	z := &outline.Node{Op: "param", Name: "z", Type: b8}
	g := &outline.Function{Name: "g", Params: []*outline.Node{z}, Nodes: []*outline.Node{z}, Ret: z}
	p := &outline.Package{Name: "o", Funcs: []*outline.Function{f, g}}
	text := mustFormat(t, p)
	if i, j := strings.Index(text, "fn g("), strings.Index(text, "fn f("); i < 0 || j < i {
		t.Errorf("callee not first:\n%s", text)
	}
	roundTrip(t, mustParse(t, text))

	g.Nodes = append(g.Nodes, &outline.Node{Op: "invoke", Type: b8, Operands: []*outline.Node{z}, Attrs: []outline.Attr{{Key: "to_apply", Value: "f"}}})
	g.Ret = g.Nodes[1]
	if _, err := Format(p); err == nil || !strings.Contains(err.Error(), "calls itself") {
		t.Errorf("recursion: got %v", err)
	}
}

// TestCheckRejects checks that Check reports malformed graphs instead of
// panicking.
func TestCheckRejects(t *testing.T) {
	b8 := outline.BitsType(8)
	x := &outline.Node{Op: "param", Name: "x", Type: b8}
	mk := func(nodes ...*outline.Node) *outline.Package {
		f := &outline.Function{Name: "f", Params: []*outline.Node{x}, Nodes: append([]*outline.Node{x}, nodes...)}
		f.Ret = f.Nodes[len(f.Nodes)-1]
		return &outline.Package{Name: "p", Funcs: []*outline.Function{f}}
	}
	other := &outline.Node{Op: "param", Name: "o", Type: b8}
	tests := []struct {
		p    *outline.Package
		want string
	}{
		{mk(&outline.Node{Op: "add", Type: b8, Operands: []*outline.Node{x, other}}), "operand 1 is not defined before it"},
		{mk(&outline.Node{Op: "add", Type: b8, Operands: []*outline.Node{x, nil}}), "operand 1 is not defined before it"},
		{mk(&outline.Node{Op: "add", Type: outline.Type{Kind: outline.Array}, Operands: []*outline.Node{x, x}}), "malformed array type"},
		{mk(&outline.Node{Op: "sel", Type: b8}), "sel has no selector"},
		{mk(&outline.Node{Op: "bit_slice", Type: b8, Operands: []*outline.Node{x}, Attrs: []outline.Attr{{Key: "start", Value: "x"}, {Key: "width", Value: "8"}}}), `bit_slice attribute start="x"`},
		{mk(&outline.Node{Op: "add", Type: b8, Operands: []*outline.Node{x, x}, Attrs: []outline.Attr{{Key: "pos", Value: "1"}}}), "add has no attribute pos"},
		{mk(&outline.Node{Op: "literal", Type: b8, Attrs: []outline.Attr{{Key: "value", Value: "300"}}}), "does not fit"},
		{mk(&outline.Node{Op: "param", Type: b8}), "a param that is not in Params"},
		{mk(nil), "node 1 is nil"},
		{&outline.Package{Name: "p", Funcs: []*outline.Function{{Name: "f"}}}, "return value is not a node"},
		{&outline.Package{Name: "p", Top: "main"}, "top function main is not defined"},
	}
	for _, tt := range tests {
		err := Check(tt.p)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "xls: ") {
			t.Errorf("Check: %v, want %q", err, tt.want)
		}
	}
}
