package assoc

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func mustTuple(t *testing.T, src string, ty Type) Tuple {
	t.Helper()
	tp, err := ParseTuple(src, ty)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return tp
}

func mustExprs(t *testing.T, src string, ty Type) []*Expr {
	t.Helper()
	return mustTuple(t, src, ty).Elems
}

// A table survives Write and LoadTable: every field of every entry, the
// header lines, and the root groups.
func TestTableRoundTrip(t *testing.T) {
	i := Int32
	entry := func(op, id string, comm, wraps bool, name string) Entry {
		tp := mustTuple(t, op, i)
		e := Entry{Operator: Operator{Tuple: tp, Commutative: comm}, Leaves: tp.Leaves(), Proof: "z3 4.8.12 bv", Wraps: wraps, Name: name}
		if id != "" {
			e.Identity = mustExprs(t, id, i)
		}
		return e
	}
	tb := &Table{Type: i, Version: TableVersion, Generators: []string{"tuple=1 leaves=4", "hand=complex-mul"}, Prover: "z3 4.8.12"}
	tb.Entries = []Entry{
		entry("x + y", "0", true, true, ""),
		entry("x ^ y ^ k", "k", true, true, ""),
		entry("x + y - k", "", true, true, ""),
		entry("min(x, y)", "2147483647", true, true, ""),
		entry("max(x, y)", "-2147483648", true, true, ""),
		entry("max(x, min(k - x, y))", "", false, false, ""),
		entry("{x0 * y0 - x1 * y1, x0 * y1 + x1 * y0}", "{1, 0}", true, true, "complex-mul"),
		entry("{min(x0, y0), select(y0 < x0, y1, x1)}", "{2147483647, 0}", false, true, ""),
		entry("x | y", "-1 - k", true, true, ""),
	}
	SortEntries(tb.Entries)
	var buf bytes.Buffer
	if err := tb.Write(&buf, "a comment", "two\nlines"); err != nil {
		t.Fatal(err)
	}
	back, err := LoadTable(bytes.NewReader(buf.Bytes()), "rt.txt")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if back.Type != tb.Type || back.Version != TableVersion || back.Prover != tb.Prover || strings.Join(back.Generators, "|") != strings.Join(tb.Generators, "|") {
		t.Errorf("header: got %v v%d %q %q", back.Type, back.Version, back.Prover, back.Generators)
	}
	if len(back.Entries) != len(tb.Entries) {
		t.Fatalf("%d entries back, want %d", len(back.Entries), len(tb.Entries))
	}
	for k := range tb.Entries {
		a, b := &tb.Entries[k], &back.Entries[k]
		if FormatEntryLine(a) != FormatEntryLine(b) {
			t.Errorf("entry %d: %q, want %q", k, FormatEntryLine(b), FormatEntryLine(a))
		}
		for j := range a.Elems {
			if !a.Elems[j].Equal(b.Elems[j]) {
				t.Errorf("entry %d element %d: %v, want %v", k, j, b.Elems[j], a.Elems[j])
			}
		}
		if (a.Identity == nil) != (b.Identity == nil) {
			t.Errorf("entry %d: identity %v, want %v", k, b.Identity, a.Identity)
		}
		for j := range a.Identity {
			va, _ := Eval(a.Identity[j], Env{K: []Value{5}})
			vb, _ := Eval(b.Identity[j], Env{K: []Value{5}})
			if va != vb {
				t.Errorf("entry %d: identity %v, want %v", k, b.Identity, a.Identity)
			}
		}
	}
	// The groups are what ByRoot finds.
	for _, op := range []Op{OpAdd, OpMin, OpMax, OpBitOr, OpSub, OpMul} {
		for _, e := range back.ByRoot(op) {
			if e.Elems[0].Op != op {
				t.Errorf("ByRoot(%v) has %v", op, e.Tuple)
			}
		}
	}
	if n := len(back.ByRoot(OpSub)); n != 2 { // x + y - k and complex-mul
		t.Errorf("ByRoot(-) has %d entries, want 2", n)
	}
	// Writing again gives the same bytes.
	var again bytes.Buffer
	back.Write(&again, "a comment", "two\nlines")
	if again.String() != buf.String() {
		t.Errorf("second write differs:\n%s\nvs\n%s", again.String(), buf.String())
	}
}

// Bad table files are rejected with the line and column of the mistake.
func TestTableErrors(t *testing.T) {
	head := "nestor-assoc-table v1\ntype int32\n"
	for _, c := range []struct {
		name, src string
		pos       string // file:line:col
		msg       string
	}{
		{"empty", "", "bad:1:1", "ends before its header"},
		{"magic", "hello\n", "bad:1:1", "not a table file"},
		{"version", "nestor-assoc-table v9\n", "bad:1:20", "v9"},
		{"version syntax", "nestor-assoc-table 1\n", "bad:1:20", "version"},
		{"no type", "nestor-assoc-table v1\nprover z3\n", "bad:2:1", "type"},
		{"bad type", "nestor-assoc-table v1\ntype int33\n", "bad:2:6", "unknown type"},
		{"fields", head + "cw- 2 ; 0 ; x + y\n", "bad:3:1", "fields"},
		{"flag", head + "cx- 2 ; 0 ; x + y ; z3\n", "bad:3:2", "flag"},
		{"leaves", head + "cw- two ; 0 ; x + y ; z3\n", "bad:3:5", "leaves"},
		{"leaves count", head + "cw- 3 ; 0 ; x + y ; z3\n", "bad:3:5", "has 2"},
		{"operator syntax", head + "cw- 2 ; 0 ; x + + ; z3\n", "bad:3:18", "expression"}, // the end of the operator
		{"identity syntax", head + "cw- 2 ; 0 ) ; x + y ; z3\n", "bad:3:11", ""},
		{"identity reads x", head + "cw- 2 ; x ; x + y ; z3\n", "bad:3:9", "reads x"},
		{"identity size", head + "cw- 2 ; {0, 1} ; x + y ; z3\n", "bad:3:9", "identity of 2"},
		{"real int", head + "--r 2 ; 0 ; x + y ; z3\n", "bad:3:3", "flag r"},
		{"x index", head + "--- 2 ; 0 ; x1 + y ; z3\n", "bad:3:13", "x1"},
		{"order", head + "cw- 3 ; none ; x + y + k ; z3\ncw- 2 ; 0 ; x + y ; z3\n", "bad:4:5", "ordered by leaves"},
		{"groups", head + "cw- 2 ; 0 ; x + y ; z3\ncw- 2 ; 1 ; x * y ; z3\ncw- 3 ; none ; x + y + k ; z3\n", "bad:5:1", "grouped by root"},
		{"second prover", head + "prover a\nprover b\n", "bad:4:1", "second prover"},
	} {
		_, err := LoadTable(strings.NewReader(c.src), "bad")
		var te *TableError
		if !errors.As(err, &te) {
			t.Errorf("%s: error %v, want a *TableError", c.name, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.pos+": ") || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %q, want %s: …%s…", c.name, err, c.pos, c.msg)
		}
	}
}

// Every type has a shipped table that loads, keeps the Table invariants,
// holds canonical operators only, and has the hand-added primitives.
func TestEmbeddedTables(t *testing.T) {
	for _, ty := range Types() {
		tb, err := Embedded(ty)
		if err != nil {
			t.Errorf("%v: %v", ty, err)
			continue
		}
		if again, _ := Embedded(ty); again != tb {
			t.Errorf("%v: Embedded does not cache", ty)
		}
		if len(tb.Entries) == 0 {
			t.Errorf("%v: empty table", ty)
		}
		roots := map[Op]bool{}
		for k, e := range tb.Entries {
			if k > 0 {
				prev := tb.Entries[k-1]
				if r := e.Elems[0].Op; r != prev.Elems[0].Op && roots[r] {
					t.Errorf("%v: %s: root %v not grouped", ty, e.Tuple, r)
				} else if r == prev.Elems[0].Op && e.Leaves < prev.Leaves {
					t.Errorf("%v: %s after %s: leaves decrease", ty, e.Tuple, prev.Tuple)
				}
			}
			roots[e.Elems[0].Op] = true
			canon := CanonTuple(e.Tuple)
			for j := range e.Elems {
				if !canon.Elems[j].Equal(e.Elems[j]) {
					t.Errorf("%v: %s is not canonical (%s)", ty, e.Tuple, canon)
				}
			}
			if e.RealOnly && !ty.Float() || e.Proof == "" {
				t.Errorf("%v: %s: RealOnly %v, proof %q", ty, e.Tuple, e.RealOnly, e.Proof)
			}
		}
		names := map[string]*Entry{}
		for k := range tb.Entries {
			if n := tb.Entries[k].Name; n != "" {
				names[n] = &tb.Entries[k]
			}
		}
		if ty == Bool {
			continue
		}
		for _, h := range []struct {
			name string
			comm bool
			id   []float64
		}{
			{"complex-mul", true, []float64{1, 0}},
			{"mat2-mul", false, []float64{1, 0, 0, 1}},
			{"quaternion-mul", false, []float64{1, 0, 0, 0}},
		} {
			e := names[h.name]
			if e == nil {
				t.Errorf("%v: no %s", ty, h.name)
				continue
			}
			if e.Commutative != h.comm || e.RealOnly != ty.Float() || len(e.Identity) != len(h.id) {
				t.Errorf("%v: %s: commutative %v, RealOnly %v, identity %v", ty, h.name, e.Commutative, e.RealOnly, e.Identity)
				continue
			}
			for j, want := range h.id {
				v, err := Eval(e.Identity[j], Env{})
				w := IntValue(int64(want), ty)
				if ty.Float() {
					w = FloatValue(want, ty)
				}
				if err != nil || !SameValue(v, w, ty) && !(ty.Float() && v.Float(ty) == want) { // -0.0 is the real 0

					t.Errorf("%v: %s: identity %v, want %v", ty, h.name, e.Identity, h.id)
				}
			}
		}
	}
}

func TestParseHandOps(t *testing.T) {
	ops, err := HandOps()
	if err != nil || len(ops) != 34 {
		t.Fatalf("shipped hand.txt: %v, %v", ops, err)
	}
	for _, h := range ops {
		for _, ty := range []Type{Int32, Float64, Uint8, Uint16} {
			if !h.For(ty) {
				continue
			}
			if _, err := ParseTuple(h.Src, ty); err != nil {
				t.Errorf("%s: %v", h.Name, err)
			}
		}
	}
	if _, err := ParseHandOps("# c\nnoseparator\n", "h.txt"); err == nil || !strings.HasPrefix(err.Error(), "h.txt:2:1: ") {
		t.Errorf("missing separator: %v", err)
	}
	// A list of types restricts a primitive to them.
	ops, err = ParseHandOps("sat ; select(x + y < x, 255, x + y) ; uint8\nany ; x + y\n", "h.txt")
	if err != nil || len(ops) != 2 || ops[0].Src != "select(x + y < x, 255, x + y)" || !ops[0].For(Uint8) || ops[0].For(Uint16) || !ops[1].For(Int64) || ops[1].For(Bool) {
		t.Errorf("types: %+v, %v", ops, err)
	}
	if _, err := ParseHandOps("sat ; x + y ; uint9\n", "h.txt"); err == nil || !strings.Contains(err.Error(), "uint9") {
		t.Errorf("unknown type: %v", err)
	}
}
