package gen

import (
	"hash/fnv"
	"testing"

	"nestor/assoc"
)

// enumCase is one enumeration the tests run: small enough to take well
// under a second.
type enumCase struct {
	t         assoc.Type
	ops       Ops
	maxLeaves int
	size      int
}

func enumCases() []enumCase {
	return []enumCase{
		{assoc.Int32, DefaultOps(assoc.Int32), 4, 1},
		{assoc.Int32, AllOps(assoc.Int32), 4, 1},
		{assoc.Int32, DefaultOps(assoc.Int32), 4, 2},
		{assoc.Uint8, DefaultOps(assoc.Uint8), 4, 1},
		{assoc.Int64, DefaultOps(assoc.Int64), 4, 2},
		{assoc.Bool, DefaultOps(assoc.Bool), 5, 1},
		{assoc.Bool, DefaultOps(assoc.Bool), 4, 2},
		{assoc.Float32, AllOps(assoc.Float32), 4, 1},
		{assoc.Float64, DefaultOps(assoc.Float64), 4, 2},
	}
}

// Every emitted tuple is canonical, reads x and y in every element and
// every position, is the least of its relabellings, comes in increasing
// leaves, and is emitted once.
func TestEnumerateCanonical(t *testing.T) {
	for _, c := range enumCases() {
		seen := map[string]bool{}
		last, n := 0, 0
		EnumerateOps(c.t, c.ops, c.maxLeaves, c.size, func(tp assoc.Tuple) bool {
			n++
			s := tp.String()
			switch l := tp.Leaves(); {
			case len(tp.Elems) != c.size:
				t.Errorf("%v: %s has %d elements, want %d", c.t, s, len(tp.Elems), c.size)
			case l > c.maxLeaves || l < last:
				t.Errorf("%v: %s with %d leaves after %d (bound %d)", c.t, s, l, last, c.maxLeaves)
			default:
				last = l
			}
			if seen[s] {
				t.Errorf("%v: %s emitted twice", c.t, s)
			}
			seen[s] = true
			canon := assoc.CanonTuple(tp)
			for i := range tp.Elems {
				if !canon.Elems[i].Equal(tp.Elems[i]) {
					t.Errorf("%v: %s is not canonical: %s", c.t, s, canon)
					break
				}
			}
			for _, e := range tp.Elems {
				if !readsBoth(e) {
					t.Errorf("%v: %s: an element does not read both x and y", c.t, s)
				}
				e.Walk(func(x *assoc.Expr) bool {
					if x.Type != c.t && !(x.Type == assoc.Bool && x.Op >= assoc.OpLT && x.Op <= assoc.OpNE) && !(x.Type == assoc.Bool && len(x.Args) == 0 && c.t == assoc.Bool) {
						t.Errorf("%v: %s: node %v of type %v", c.t, s, x.Op, x.Type)
					}
					return true
				})
			}
			if !readsAll(tp) {
				t.Errorf("%v: %s does not read every x_i and y_i", c.t, s)
			}
			if c.size == 2 && !leastRelabelling(tp) {
				t.Errorf("%v: %s is not the least of its relabellings", c.t, s)
			}
			return true
		})
		if n == 0 {
			t.Errorf("%v ≤%d %d-tuples: nothing enumerated", c.t, c.maxLeaves, c.size)
		}
	}
}

// The enumeration stops when emit says so, and depends only on its
// arguments.
func TestEnumerateDeterministic(t *testing.T) {
	run := func(c enumCase) (uint64, int) {
		h := fnv.New64a()
		n := 0
		EnumerateOps(c.t, c.ops, c.maxLeaves, c.size, func(tp assoc.Tuple) bool {
			h.Write([]byte(tp.String() + "\n"))
			n++
			return true
		})
		return h.Sum64(), n
	}
	for _, c := range enumCases()[:3] {
		h1, n1 := run(c)
		h2, n2 := run(c)
		if h1 != h2 || n1 != n2 {
			t.Errorf("%v ≤%d: two runs differ (%d and %d tuples)", c.t, c.maxLeaves, n1, n2)
		}
		stopAt, got := n1/2, 0
		EnumerateOps(c.t, c.ops, c.maxLeaves, c.size, func(assoc.Tuple) bool { got++; return got < stopAt })
		if got != stopAt {
			t.Errorf("%v: emit returned false at %d, enumeration went on to %d", c.t, stopAt, got)
		}
	}
}

// Trees that a simplifier shrinks are not enumerated; operators written in
// two ways of the same size both are (x - (k - y) and x + y - k).
func TestEnumerateTrivial(t *testing.T) {
	got := map[string]bool{}
	EnumerateOps(assoc.Int32, AllOps(assoc.Int32), 4, 1, func(tp assoc.Tuple) bool { got[tp.String()] = true; return true })
	for _, s := range []string{
		"x + y", "x * y", "min(x, y)", "max(x, y)", "x & y", "x | y", "x ^ y",
		"max(min(x, k), y)", "min(max(x, k), y)", "max(x, min(y, k))", "min(x, max(y, k))",
		"max(x, min(k - x, y))", "min(x, max(k - x, y))", // the paper's first ten
		"x - (k - y)", "x + y - k", "x + (y - k)",
	} {
		if !got[s] {
			t.Errorf("%s not enumerated", s)
		}
	}
	for _, s := range []string{
		"x + y - y",         // x wherever defined
		"x * y / y",         // x wherever defined (y ≠ 0)
		"x + (y - y)",       // canonicalized away
		"x + (k - (k - y))", // x + y
		"x + y * y / y",     // x + y wherever defined
		"min(x, max(x, y))", // x
	} {
		if got[s] {
			t.Errorf("%s enumerated: it simplifies", s)
		}
	}
}

func TestOpsString(t *testing.T) {
	for _, ty := range assoc.Types() {
		for _, ops := range []Ops{DefaultOps(ty), AllOps(ty)} {
			back, err := ParseOps(ops.String(), ty)
			if err != nil || back.String() != ops.String() {
				t.Errorf("%v: %q read back as %q, %v", ty, ops, back, err)
			}
		}
	}
	if _, err := ParseOps("+ %", assoc.Float32); err == nil {
		t.Errorf("%% accepted for float32")
	}
	if _, err := ParseOps("+ frob", assoc.Int32); err == nil {
		t.Errorf("frob accepted")
	}
}

func TestDecomposable(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"{x0 + y0, x1 * y1}", true},                         // two 1-tuples side by side
		{"{min(x0, y0), select(y0 < x0, y1, x1)}", false},    // argmin: element 1 reads y0
		{"{x0 + y0, max(x0 + y1, x1)}", false},               // max prefix sum
		{"{x0 * y0 - x1 * y1, x0 * y1 + x1 * y0}", false},    // complex product
		{"{x0 + y0, x1 + y1, x2 * y2}", true},                // three independent
		{"{x0 + y0, x1 + y0 * y1, x2 + x1 * y2}", false},     // chain: 2 reads 1 reads 0, 0 reaches none, 2 reaches all
		{"{x0 + y0, x0 + x1 + y1, x2 + y2 + x1}", false},     // 2 reaches 1 reaches 0
		{"{x0 + y0 + x1, x1 + y1 + x0, x2 * y2 + x2}", true}, // {0,1} and {2}
	} {
		tp, err := assoc.ParseTuple(c.src, assoc.Int32)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := Decomposable(tp); got != c.want {
			t.Errorf("Decomposable(%s) = %v, want %v", c.src, got, c.want)
		}
	}
}

func BenchmarkEnumerateInt32Leaves4(b *testing.B) { benchEnumerate(b, assoc.Int32, 4, 1) }
func BenchmarkEnumerateInt32Leaves5(b *testing.B) { benchEnumerate(b, assoc.Int32, 5, 1) }
func BenchmarkEnumerateInt32Pairs5(b *testing.B)  { benchEnumerate(b, assoc.Int32, 5, 2) }

var sinkCount int

func benchEnumerate(b *testing.B, t assoc.Type, leaves, size int) {
	for b.Loop() {
		n := 0
		Enumerate(t, leaves, size, func(assoc.Tuple) bool { n++; return true })
		sinkCount = n
	}
	b.ReportMetric(float64(sinkCount), "candidates")
}
