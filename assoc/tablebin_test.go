package assoc

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Every shipped packed table is the packing of its text table (go
// generate writes them), and unpacks to the text's entries, field by
// field.
func TestPackedTables(t *testing.T) {
	var names []string
	for _, ty := range Types() {
		names = append(names, ty.String())
		if _, err := os.Stat(filepath.Join("tables", ty.String()+".more.txt")); err == nil {
			names = append(names, ty.String()+".more")
		}
	}
	for _, ty := range names {
		src := filepath.Join("tables", ty+".txt")
		text, err := ReadTableFile(src)
		if err != nil {
			t.Errorf("%v: %v", ty, err)
			continue
		}
		want, err := text.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		got, err := os.ReadFile(filepath.Join("tables", ty+".bin"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%v: tables/%v.bin is not the packing of %s (run go generate ./assoc): %v", ty, ty, src, err)
			continue
		}
		var back Table
		if err := back.UnmarshalBinary(got); err != nil {
			t.Fatalf("%v: %v", ty, err)
		}
		sameTables(t, ty, &back, text)
	}
}

// sameTables compares two tables field by field.
func sameTables(t *testing.T, name string, got, want *Table) {
	t.Helper()
	if got.Type != want.Type || got.Version != want.Version || got.Prover != want.Prover || len(got.Generators) != len(want.Generators) {
		t.Errorf("%s: header %v v%d %q %q, want %v v%d %q %q", name, got.Type, got.Version, got.Prover, got.Generators,
			want.Type, want.Version, want.Prover, want.Generators)
	}
	for i := range min(len(got.Generators), len(want.Generators)) {
		if got.Generators[i] != want.Generators[i] {
			t.Errorf("%s: generator %q, want %q", name, got.Generators[i], want.Generators[i])
		}
	}
	if len(got.Entries) != len(want.Entries) {
		t.Fatalf("%s: %d entries, want %d", name, len(got.Entries), len(want.Entries))
	}
	for k := range want.Entries {
		a, b := &want.Entries[k], &got.Entries[k]
		if FormatEntryLine(a) != FormatEntryLine(b) || len(a.Elems) != len(b.Elems) || len(a.Identity) != len(b.Identity) {
			t.Errorf("%s: entry %d: %q, want %q", name, k, FormatEntryLine(b), FormatEntryLine(a))
			continue
		}
		for j := range a.Elems {
			if !a.Elems[j].Equal(b.Elems[j]) {
				t.Errorf("%s: entry %d element %d: %v, want %v", name, k, j, b.Elems[j], a.Elems[j])
			}
		}
		for j := range a.Identity {
			if !a.Identity[j].Equal(b.Identity[j]) {
				t.Errorf("%s: entry %d identity %d: %v, want %v", name, k, j, b.Identity[j], a.Identity[j])
			}
		}
	}
}

// A table with every kind of node (named values, literals, several k,
// hand names, no identity) survives packing; a packed table cut short
// or with a byte changed is rejected or decodes to something, never
// panics.
func TestPackRoundTrip(t *testing.T) {
	i := Int32
	tb := &Table{Type: i, Version: TableVersion, Generators: []string{"tuple=1 leaves=4", "hand=complex-mul"}, Prover: "z3 4.8.12"}
	for _, c := range []struct{ op, id, name string }{
		{"x + y", "0", ""},
		{"max(x, min(k - x, y))", "", ""},
		{"{x0 * y0 - x1 * y1, x0 * y1 + x1 * y0}", "{1, 0}", "complex-mul"},
		{"{min(x0, y0), select(y0 < x0, y1, x1)}", "{2147483647, 0}", ""},
		{"i32(u8(x + y))", "", "byte-sum"},
		{"x | y", "-1 - k", ""},
		{"x + lim * y", "0", "named"},
	} {
		tp := mustTuple(t, c.op, i)
		e := Entry{Operator: Operator{Tuple: tp, Commutative: c.id != ""}, Leaves: tp.Leaves(), Proof: "z3 4.8.12 bv", Wraps: c.name == "", Name: c.name}
		if c.id != "" {
			e.Identity = mustExprs(t, c.id, i)
		}
		tb.Entries = append(tb.Entries, e)
	}
	SortEntries(tb.Entries)
	data, err := tb.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Table
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	sameTables(t, "round trip", &back, tb)
	for n := range len(data) {
		var cut Table
		if cut.UnmarshalBinary(data[:n]) == nil {
			t.Errorf("packed table cut to %d of %d bytes accepted", n, len(data))
		}
		flipped := bytes.Clone(data)
		flipped[n] ^= 0x5a
		var f Table
		f.UnmarshalBinary(flipped) // must not panic
	}
}

// substK replaces k by v in e.
func substK(e *Expr, v *Expr) *Expr {
	if e.Op == OpK {
		return v
	}
	if len(e.Args) == 0 {
		return e
	}
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	for i, a := range e.Args {
		c.Args[i] = substK(a, v)
	}
	return &c
}

// moreTried bounds the larger operators TestEmbeddedMore writes as
// updates (a miss of the small table costs milliseconds).
const moreTried = 40

// A type's larger operators (tables/<type>.more.txt) join its table in
// EmbeddedAll, grouped by root; Recognize with the shipped tables finds
// an update that only they hold.
func TestEmbeddedMore(t *testing.T) {
	for _, ty := range Types() {
		more, err := EmbeddedMore(ty)
		if err != nil {
			t.Fatalf("%v: %v", ty, err)
		}
		if more == nil {
			continue
		}
		base, _ := Embedded(ty)
		all, err := EmbeddedAll(ty)
		if err != nil || len(all.Entries) != len(base.Entries)+len(more.Entries) {
			t.Fatalf("%v: %d entries in all, %d + %d shipped: %v", ty, len(all.Entries), len(base.Entries), len(more.Entries), err)
		}
		seen := map[Op]bool{}
		for k, e := range all.Entries {
			if r := e.Elems[0].Op; k > 0 && r != all.Entries[k-1].Elems[0].Op && seen[r] {
				t.Fatalf("%v: root %v not grouped", ty, r)
			}
			seen[e.Elems[0].Op] = true
		}
		// The larger 1-tuple operators applied to a named value, k an
		// invariant one: some that the small table does not recognize
		// are found with all; none is refused with all.
		inv := MatchOptions{Invariant: func(name string) bool { return name == "c" }}
		found, tried := 0, 0
		for _, e := range more.Entries {
			if len(e.Elems) != 1 || !e.Wraps {
				continue
			}
			if tried++; tried > moreTried {
				break
			}
			update := Tuple{Elems: []*Expr{substK(substY(e.Elems[0], []*Expr{Var("in(r)", ty)}), Var("c", ty))}}
			small := inv
			small.Tables = Embedded
			if _, err := Recognize(update, small); err == nil {
				continue // the small table holds an equal form
			}
			m, err := Recognize(update, inv)
			if err != nil {
				t.Errorf("%v: %v not recognized with the larger operators: %v", ty, update, err)
				continue
			}
			if found++; found == 1 {
				t.Logf("%v: %v recognized as %v", ty, update, m.Tuple)
			}
		}
		if found == 0 {
			t.Errorf("%v: every larger operator recognized by the small table alone", ty)
		}
	}
}
