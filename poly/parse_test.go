package poly

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i", "poly: 1:46: expected '}'"}, // unterminated set
		{"[n -> { S[i] }", "poly: 1:4: expected ','"},                                 // params not closed
		{"{ S[i] : i = j }", "poly: 1:14: unknown name j"},
		{"{ S[i] : i * i >= 0 }", "poly: 1:10: nonlinear term"},
		{"{ S[i, i] }", "poly: 1:8: duplicate name i"},
		{"{ S[i] : i }", "poly: 1:12: expected comparison"},
		{"{ S[i] : i >= 99999999999999999999 }", "poly: 1:15: integer overflow"},
		{"{ S[i] : 9223372036854775807i + 9223372036854775807i >= 0 }", "poly: 1:54: integer overflow"},
		{"{ S[i] : i >= 0 } x", "poly: 1:19: unexpected \"x\" after set"},
		{"{ S[i] : i # 0 }", "poly: 1:12: unexpected character '#'"},
		{"{ S[i] :\n  i >= }", "poly: 2:8: expected expression"},
		{"", "poly: 1:1: expected '{'"},
	} {
		_, err := ParseUnion(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("ParseUnion(%q) = %v, want %s", c.src, err, c.want)
		}
	}
}

func TestParsePrint(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }", "[n] -> { S[i, j] : n >= i + 1 and j >= 0 and i >= j and i >= 0 }"},
		{"{ [i] : 2i = 3 }", "{ [i] : false }"},            // no integer solution
		{"{ [i] : 3 <= 2*i + 1 <= 4 }", "{ [i] : i = 1 }"}, // tightening makes an equality
		{"{ [i] : 0 <= i <= 1 or i > 7 and i < 9 }", "{ [i] : i <= 1 and i >= 0 or i = 8 }"},
		{"{ S[i] }", "{ S[i] }"},
		{"{ S[i] : false or i = 2(1 - -i) }", "{ S[i] : i + 2 = 0 }"},
		{"{ }", "{ [] : false }"},
		{"{ [i] : 1 > 2 or true }", "{ [i] }"},
	} {
		u, err := ParseUnion(c.src)
		if err != nil {
			t.Errorf("ParseUnion(%q): %v", c.src, err)
			continue
		}
		if got := u.String(); got != c.want {
			t.Errorf("ParseUnion(%q) prints %s, want %s", c.src, got, c.want)
		}
	}
}

// FuzzParse: parse, print, parse again; the two parses must print the same
// and contain the same points of a small box.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"[n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i }",
		"{ [i] : 0 <= 2*i <= 3 or i > 7 and i < 9 }",
		"[n, m] -> { T[a, b, c] : a + 2b - 3c = n and -m <= a - b < 4 }",
		"{ S[i] : i >= -(3 - 2i) }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		u, err := ParseUnion(src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "poly: ") {
				t.Fatalf("error without prefix: %v", err)
			}
			return
		}
		text := u.String()
		v, err := ParseUnion(text)
		if err != nil {
			t.Fatalf("%q printed as %q, which fails: %v", src, text, err)
		}
		if v.String() != text {
			t.Fatalf("unstable print:\n%s\n%s", text, v)
		}
		if !u.Space.Equal(v.Space) || !slices.EqualFunc(u.Sets, v.Sets, func(a, b *Set) bool {
			return slices.EqualFunc(a.rows, b.rows, func(x, y Constraint) bool { return x.Eq == y.Eq && slices.Equal(x.Coef, y.Coef) })
		}) {
			t.Fatalf("%q: reparse differs", text)
		}
		if n := u.Space.NVar(); n <= 4 {
			box(n, 3, func(p []int64) {
				a, err1 := u.Contains(p)
				b, err2 := v.Contains(p)
				if a != b || (err1 == nil) != (err2 == nil) {
					t.Fatalf("%q: points differ at %v", text, p)
				}
			})
		}
	})
}

func TestUnboundedAndUnion(t *testing.T) {
	s, err := ParseSet("[n] -> { [i] : i >= n }")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Min([]int64{1, 0, 0}, []int64{5}); err != nil || r.Status != Bounded || r.Value != 5 {
		t.Errorf("min i = %v %v, want 5", r, err)
	}
	if r, err := s.Max([]int64{1, 0, 0}, []int64{5}); err != nil || r.Status != Unbounded {
		t.Errorf("max i = %v %v, want unbounded", r, err)
	}
	if _, _, err := s.LexMax([]int64{5}); err != ErrUnbounded {
		t.Errorf("LexMax err = %v, want %v", err, ErrUnbounded)
	}
	// No integer point on a line with a divisibility obstruction, unbounded
	// rationally: decided by the Hermite step, not by branching.
	e, err := ParseSet("{ [x, y] : 2x + 4y = 1 + 6x and x >= 0 }")
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := e.IsEmpty(); err != nil || !empty {
		t.Errorf("IsEmpty(%v) = %v %v, want true", e, empty, err)
	}
	u, err := ParseUnion("[n] -> { [i] : 0 <= i < n and n < 0 or i = 2n and 3i = 1 }")
	if err != nil {
		t.Fatal(err)
	}
	if empty, err := u.IsEmpty(); err != nil || !empty {
		t.Errorf("IsEmpty(%v) = %v %v, want true", u, empty, err)
	}
	if _, err := ParseSet("{ [i] : i = 0 or i = 1 }"); err == nil {
		t.Errorf("ParseSet accepted two disjuncts")
	}
}

var sink any

func BenchmarkEmpty4x2(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var sets []*Set
	for len(sets) < 64 {
		sp := randSpace(4, 2)
		s, err := NewSet(sp, append(randRows(rng, sp.NVar()), boxRows(sp, 10)...)...)
		if err != nil {
			b.Fatal(err)
		}
		sets = append(sets, s)
	}
	i := 0
	for b.Loop() {
		e, err := sets[i%len(sets)].IsEmpty()
		if err != nil {
			b.Fatal(err)
		}
		sink = e
		i++
	}
}

// Zero-dimensional sets: lexmin must still decide emptiness.
func TestLexZeroDim(t *testing.T) {
	s, err := ParseSet("[n] -> { [] : n >= 3 }")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n  int64
		ok bool
	}{{2, false}, {3, true}} {
		if _, ok, err := s.LexMin([]int64{c.n}); err != nil || ok != c.ok {
			t.Errorf("LexMin at n=%d: %v %v, want %v", c.n, ok, err, c.ok)
		}
	}
}
