package assoc

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// Tables for the matcher's tests, written by hand: the operators the
// corpus needs, in the form the generator emits (canonical, x_i, y_i and
// k). Each entry is checked by random evaluation when built; the corpus
// test checks every operator Recognize returns with Z3 or exhaustively,
// whatever table it came from, so these tables are not trusted.
//
// Each line, fields separated by ";": types (ints, floats, bool, or a list), flags (comm, real:
// proved over the reals only), the tuple, its identity (none, or a
// tuple; MAX and MIN stand for the type's greatest and least values).
var handEntries = []string{
	"ints;comm;x + y;0",
	"ints;comm;x * y;1",
	"ints;comm;min(x, y);MAX",
	"ints;comm;max(x, y);MIN",
	"floats;comm;min(x, y);NAN", // fmin ignores a NaN operand
	"floats;comm;max(x, y);NAN",
	"ints;comm;x & y;-1",
	"ints;comm;x | y;0",
	"ints;comm;x ^ y;0",
	"floats;comm real;x + y;-0.0",
	"floats;comm real;x * y;1",
	"bool;comm;x && y;true",
	"bool;comm;x || y;false",
	"bool;comm;x != y;false",
	"bool;comm;x == y;true",
	// The paper's six with k.
	"ints;;max(min(x, k), y);none",
	"ints;;min(max(x, k), y);none",
	"ints;;max(min(y, k), x);none",
	"ints;;min(max(y, k), x);none",
	"int32 int64;;max(min(k - x, y), x);none",
	"int32 int64;;min(max(k - x, y), x);none",
	// argmin and argmax keeping the first index on ties (y is the later
	// value), and the last.
	"ints;;{min(x0, y0), select(y0 < x0, y1, x1)};none",
	"ints;;{min(x0, y0), select(x0 < y0, x1, y1)};none",
	"ints;;{max(x0, y0), select(x0 < y0, y1, x1)};none",
	"ints;;{max(x0, y0), select(y0 < x0, x1, y1)};none",
	"floats;real;{min(x0, y0), select(y0 < x0, y1, x1)};none",
	"floats;real;{max(x0, y0), select(x0 < y0, y1, x1)};none",
	"floats;real;{select(y0 < x0, y0, x0), select(y0 < x0, y1, x1)};none",
	// Maximum prefix sum: the sum and the greatest prefix sum.
	"int32 int64;;{x0 + y0, max(x0 + y1, x1)};none",
	"floats;real;{x0 + y0, max(x0 + y1, x1)};none",
	// Higher-dimensional primitives.
	"ints;comm;{x0*y0 - x1*y1, x0*y1 + x1*y0};{1, 0}",
	"floats;comm real;{x0*y0 - x1*y1, x0*y1 + x1*y0};{1, 0}",
	"ints;;{x0*y0 + x1*y2, x0*y1 + x1*y3, x2*y0 + x3*y2, x2*y1 + x3*y3};{1, 0, 0, 1}",
	"floats;real;{x0*y0 + x1*y2, x0*y1 + x1*y3, x2*y0 + x3*y2, x2*y1 + x3*y3};{1, 0, 0, 1}",
	"ints;;{x0*y0 - x1*y1 - x2*y2 - x3*y3, x0*y1 + x1*y0 + x2*y3 - x3*y2, x0*y2 - x1*y3 + x2*y0 + x3*y1, x0*y3 + x1*y2 - x2*y1 + x3*y0};{1, 0, 0, 0}",
}

var (
	handOnce sync.Once
	handTabs [numTypes]*Table
	handErr  error
)

// handTable returns the hand-written table of t.
func handTable(t Type) (*Table, error) {
	handOnce.Do(func() {
		for ty := range numTypes {
			handTabs[ty] = &Table{Type: ty, Version: 0}
		}
		for _, line := range handEntries {
			f := strings.Split(line, ";")
			for _, ty := range Types() {
				if !typeIn(ty, f[0]) {
					continue
				}
				en, err := handEntry(ty, f[1], f[2], f[3])
				if err != nil {
					handErr = fmt.Errorf("%s on %v: %v", line, ty, err)
					return
				}
				handTabs[ty].Entries = append(handTabs[ty].Entries, en)
			}
		}
	})
	if handErr != nil {
		return nil, handErr
	}
	return handTabs[t], nil
}

func typeIn(t Type, set string) bool {
	for _, w := range strings.Fields(set) {
		switch {
		case w == "ints" && t.Integer(), w == "floats" && t.Float(), w == t.String():
			return true
		}
	}
	return false
}

func handEntry(t Type, flags, src, ident string) (Entry, error) {
	tp, err := ParseTuple(src, t)
	if err != nil {
		return Entry{}, err
	}
	tp = CanonTuple(tp)
	en := Entry{Operator: Operator{Tuple: tp, Commutative: strings.Contains(flags, "comm")},
		RealOnly: strings.Contains(flags, "real"), Proof: "hand (random tests)"}
	for _, e := range tp.Elems {
		en.Leaves += e.Leaves()
	}
	if ident != "none" {
		ident = strings.NewReplacer("MAX", literal(maxOf(t), t), "MIN", literal(minOf(t), t)).Replace(ident)
		id, err := ParseTuple(ident, t)
		if err != nil {
			return Entry{}, err
		}
		if len(id.Elems) != len(tp.Elems) {
			return Entry{}, fmt.Errorf("identity of %d elements", len(id.Elems))
		}
		en.Identity = id.Elems
	}
	// Products of matrices overflow on most random int32 values: test
	// them wrapping.
	rng := rand.New(rand.NewPCG(1, 2))
	en.Wraps = !t.Float() && randomAssociative(tp, rng, 200, true)
	if !en.RealOnly && !RandomAssociative(tp, rng, 200) && !en.Wraps {
		return Entry{}, fmt.Errorf("not associative on random values")
	}
	return en, nil
}

// maxOf and minOf are the greatest and least values of t (±inf for
// floats).
func maxOf(t Type) Value {
	if t.Float() {
		return EdgeValues(t)[8]
	}
	return maxValue(t)
}

func minOf(t Type) Value {
	if t.Float() {
		return EdgeValues(t)[9]
	}
	return minValue(t)
}

func TestHandTables(t *testing.T) {
	for _, ty := range Types() {
		tb, err := handTable(ty)
		if err != nil {
			t.Fatal(err)
		}
		if ty == Int32 && len(tb.Entries) < 20 {
			t.Errorf("int32: %d entries", len(tb.Entries))
		}
	}
}

// TestMatchFreedoms checks the matcher's freedoms one by one, on the hand
// tables.
func TestMatchFreedoms(t *testing.T) {
	inv := func(name string) bool { return name == "lo" || name == "hi" || name == "a" || name == "zz" }
	for _, tc := range []struct {
		src, want string
	}{
		{"f() = f() + in(r)", "x + y"},
		{"f() = in(r) + f()", "x + y"},
		{"f() = f() + a(r) + b(r)", "x + y"},                   // y absorbs a(r) + b(r)
		{"f() = max(min(f(), a), in(r))", "max(min(x, a), y)"}, // k named before y
		{"f() = min(max(in(r), zz), f())", "min(x, y)"},        // y = max(in(r), zz), fewer leaves
		{"f() = {min(f()[0], in(r)), select(in(r) < f()[0], r, f()[1])}", "{min(x0, y0), select(y0 < x0, y1, x1)}"},
		{"f() = {min(f()[0], in(r)), select(f()[0] <= in(r), f()[1], r)}", "{min(x0, y0), select(y0 < x0, y1, x1)}"},
		{"f() = select(p(r), f() + 1, f())", "x + y"},
		{"f() = select(p(r), f(), f() * v(r))", "x * y"},
	} {
		up, err := ParseUpdate(tc.src, Int32)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		m, err := Recognize(up, MatchOptions{Invariant: inv, Tables: handTable})
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if got := m.Parts[0].Entry.Tuple.String(); got != tc.want && m.Tuple.String() != tc.want {
			t.Errorf("%s: matched %s (%v), want %s", tc.src, got, m.Tuple, tc.want)
		}
	}
}

// TestRecognizeInstances writes every entry of the tables (the embedded
// ones; the hand-written ones with -handtables) as a program would: its
// y_i replaced by expressions of the program's values, k by a
// loop-invariant value, its elements permuted. Recognize must recognize
// each, with an operator and values that reproduce the update on random
// values.
func TestRecognizeInstances(t *testing.T) {
	tables := corpusTables()
	rng := rand.New(rand.NewPCG(7, 8))
	perType := 400
	if testing.Short() {
		perType = 60
	}
	for _, ty := range Types() {
		tb, err := tables(ty)
		if err != nil {
			t.Logf("%v: %v", ty, err)
			continue
		}
		entries := tb.Entries
		if len(entries) > perType {
			entries = make([]Entry, 0, perType)
			for _, i := range rng.Perm(len(tb.Entries))[:perType] {
				entries = append(entries, tb.Entries[i])
			}
		}
		failed := 0
		for i := range entries {
			en := &entries[i]
			update := instance(rng, en.Tuple, ty)
			opts := MatchOptions{Real: en.RealOnly, Tables: tables, Invariant: func(name string) bool { return name == "lim" || name == "lim1" }}
			m, err := Recognize(update, opts)
			if err != nil {
				if failed++; failed <= 5 {
					t.Errorf("%v: entry %v as %v: %v", ty, en.Tuple, update, err)
				}
				continue
			}
			if msg := reproduced(rng, update, m, opts); msg != "" {
				t.Errorf("%v: entry %v as %v: matched %v with y = %v: %s", ty, en.Tuple, update, m.Tuple, Tuple{Elems: m.Y}, msg)
			}
		}
		if failed > 0 {
			t.Errorf("%v: %d of %d entries not recognized", ty, failed, len(entries))
		}
	}
}

// instance writes f as a program's update: y_i an expression of the
// program's values, k_i a loop-invariant value lim, lim1, …, the
// elements permuted.
func instance(rng *rand.Rand, f Tuple, t Type) Tuple {
	n := len(f.Elems)
	perm := rng.Perm(n)
	ys := make([]*Expr, n)
	for i, e := range f.Elems {
		et := e.Type
		switch r := rng.IntN(3); {
		case et == Bool || r == 0:
			ys[i] = Var(fmt.Sprintf("in%d(r)", i), et)
		case r == 1:
			ys[i] = Apply(OpMul, Var(fmt.Sprintf("u%d(r)", i), et), Var("v(r)", et))
		default:
			ys[i] = Apply(OpSub, Var(fmt.Sprintf("a%d(r)", i), et), Var("w", et))
		}
	}
	var re func(e *Expr) *Expr
	re = func(e *Expr) *Expr {
		switch e.Op {
		case OpX:
			return X(perm[e.Index], e.Type)
		case OpY:
			return ys[e.Index]
		case OpK:
			return Var(wildName("lim", e.Index), e.Type)
		}
		c := *e
		c.Args = make([]*Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = re(a)
		}
		return &c
	}
	out := Tuple{Elems: make([]*Expr, n)}
	for p, e := range f.Elems {
		out.Elems[perm[p]] = re(e)
	}
	return out
}

// reproduced checks on random values that m's operator applied to x and
// m.Y is the update; it returns what differs, or "".
func reproduced(rng *rand.Rand, update Tuple, m *Match, opts MatchOptions) string {
	names := varTypes(update)
	composed := Tuple{Elems: make([]*Expr, len(m.Elems))}
	for i, e := range m.Elems {
		composed.Elems[i] = substY(e, m.Y)
	}
	x := make([]Value, len(update.Elems))
	for range 200 {
		vars := map[string]Value{}
		for name, t := range names {
			vars[name] = Sample(t, rng)
		}
		for i, e := range update.Elems {
			x[i] = Sample(e.Type, rng)
		}
		env := Env{X: x, Vars: vars, Wrap: true}
		want, err1 := EvalTuple(update, env)
		got, err2 := EvalTuple(composed, env)
		if err1 != nil || err2 != nil {
			continue
		}
		if !SameValues(update, want, got) {
			return fmt.Sprintf("at x = %s, %v: update %s, matched %s", values(update, x), vars, values(update, want), values(update, got))
		}
	}
	return ""
}

// TestRecognizeGroupings checks the decomposition and the regrouping on
// updates that mix several reductions in one tuple.
func TestRecognizeGroupings(t *testing.T) {
	tables := corpusTables()
	rng := rand.New(rand.NewPCG(9, 9))
	for _, tc := range []struct {
		src   string
		parts int
		comm  bool
	}{
		// A sum, a 2×2 matrix product (over-partitioned by x: elements 1,
		// 2 and 3, 4 share only y) and a count.
		{"f() = {f()[0] + in(r), f()[1]*a(r) + f()[2]*c(r), f()[1]*b(r) + f()[2]*d(r), f()[3]*a(r) + f()[4]*c(r), f()[3]*b(r) + f()[4]*d(r), select(in(r) < 0, f()[5] + 1, f()[5])}", 3, false},
		// The matrix product with its elements in column-major order.
		{"f() = {f()[0]*a(r) + f()[2]*c(r), f()[1]*a(r) + f()[3]*c(r), f()[0]*b(r) + f()[2]*d(r), f()[1]*b(r) + f()[3]*d(r)}", 1, false},
		// Two argmins sharing nothing but the index, and a max.
		{"f() = {min(f()[0], u(r)), select(u(r) < f()[0], r, f()[1]), max(f()[2], v(r)), select(f()[2] < v(r), r, f()[3]), max(f()[4], u(r))}", 3, false},
		// 2-D argmin: three elements, two overlapping subgraphs.
		{"f() = {min(f()[0], in(i, j)), select(in(i, j) < f()[0], i, f()[1]), select(in(i, j) < f()[0], j, f()[2])}", 2, false},
		// max and min, independent.
		{"f() = {max(f()[0], in(r)), min(f()[1], in(r))}", 2, true},
	} {
		up, err := ParseUpdate(tc.src, Int32)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		opts := MatchOptions{Tables: tables}
		m, err := Recognize(up, opts)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		if len(m.Parts) != tc.parts || m.Commutative != tc.comm {
			t.Errorf("%s: %d parts, commutative %v; want %d, %v", tc.src, len(m.Parts), m.Commutative, tc.parts, tc.comm)
		}
		if msg := reproduced(rng, up, m, opts); msg != "" {
			t.Errorf("%s: %s", tc.src, msg)
		}
	}
}

// TestRingSigned: an unsigned update of +, − and · alone that the
// unsigned tables lack is recognized with a signed operator proved with
// wrapping, and answered in the unsigned type; one with a comparison is
// not (unsigned order is not signed order).
func TestRingSigned(t *testing.T) {
	for _, tc := range []struct {
		src, op string
		types   []Type
		ok      bool
	}{
		{"f() = f() + in(r) + 2 * f() * in(r)", "x + x * y * 2 + y", []Type{Uint32}, true}, // int64's table lacks it
		{"f() = {f()[0] + in(r), f()[1] + f()[0] * in(r)}", "", []Type{Uint32, Uint64}, true},
		{"f() = select(f() < in(r), f() * 2, f() + in(r))", "", []Type{Uint32, Uint64}, false},
	} {
		for _, ty := range tc.types {
			up, err := ParseUpdate(tc.src, ty)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ringSigned(up); ok != tc.ok {
				t.Errorf("%s (%v): ringSigned %v, want %v", tc.src, ty, ok, tc.ok)
			}
			if !tc.ok {
				continue
			}
			m, err := Recognize(up, MatchOptions{Synthesize: true})
			if err != nil {
				t.Errorf("%s (%v): %v", tc.src, ty, err)
				continue
			}
			for _, e := range append(append(append([]*Expr{}, m.Tuple.Elems...), m.Y...), m.Identity...) {
				e.Walk(func(x *Expr) bool {
					if x.Type != ty {
						t.Errorf("%s (%v): %s has a node of type %v", tc.src, ty, e, x.Type)
					}
					return x.Type == ty
				})
			}
			if s, _ := signedOf(ty); m.Parts[0].Type != s {
				t.Errorf("%s (%v): matched in the %v table, want the signed one", tc.src, ty, m.Parts[0].Type)
			}
			if tc.op != "" && m.Tuple.String() != tc.op {
				t.Errorf("%s (%v): operator %s, want %s", tc.src, ty, m.Tuple, tc.op)
			}
			// The operator folds the update's values as the update does,
			// in chunks, at random points, in the unsigned type.
			c := &corpusCase{name: tc.src, update: up}
			for range up.Elems {
				c.types = append(c.types, ty)
			}
			rng := rand.New(rand.NewPCG(3, 4))
			for range 200 {
				differential(t, c, m, varTypes(up), rng)
			}
		}
	}
}
