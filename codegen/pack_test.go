package codegen

import (
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

// TestPackable: the statements Pack may run as packed blocks are matrix
// products over a box whose result elements are distinct and which read
// nothing they write; everything else keeps its loops.
func TestPackable(t *testing.T) {
	for _, c := range []struct {
		name, body string
		ok         bool
	}{
		{"gemm", "C[i][j] += alpha * A[i][k] * B[k][j];", true},
		{"swapped factors", "C[i][j] += B[k][j] * A[i][k];", true},
		{"transposed operands", "C[i][j] += A[k][i] * B[j][k];", true},
		{"result transposed", "C[j][i] += A[i][k] * B[k][j];", true},
		{"no product", "C[i][j] += A[i][k] + B[k][j];", false},
		{"assignment", "C[i][j] = A[i][k] * B[k][j];", false},
		{"reads the result", "C[i][j] += C[i][k] * B[k][j];", false},
		{"one side reads both", "C[i][j] += A[i][j] * B[k][j];", false},
		{"elements not distinct", "D[i + j] += A[i][k] * B[k][j];", false},
		{"k in the result", "C[i][k] += A[i][k] * B[k][j];", false},
		{"a call", "C[i][j] += sqrt(A[i][k]) * B[k][j];", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := `#include <math.h>
void f(int n, double alpha, double C[n][n], double D[2 * n], double A[n][n], double B[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        ` + c.body + `
#pragma endscop
}
`
			f, err := frontend.Parse("p.c", []byte(src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			_, ok := packable(f.Scops[0].Prog, 0, nil)
			if ok != c.ok {
				t.Errorf("packable: %v, want %v", ok, c.ok)
			}
		})
	}
	// Triangles of the box (syrk's j <= i), and sums of products
	// (syr2k's), when the box is the triangle's projection: every row
	// meets a column and every column a row.
	for _, c := range []struct {
		name, loops, body string
		ok                bool
	}{
		{"lower triangle", "i = 0; i < n; i++) for (int j = 0; j <= i; j++", "C[i][j] += A[i][k] * A[j][k];", true},
		{"upper triangle", "i = 0; i < n; i++) for (int j = i; j < n; j++", "C[i][j] += A[k][i] * A[k][j];", true},
		{"strict, shifted", "i = 1; i < n; i++) for (int j = 0; j < i; j++", "C[i][j] += A[i][k] * A[j][k];", true},
		{"a row meets no column", "i = 0; i < n; i++) for (int j = 1; j <= i; j++", "C[i][j] += A[i][k] * A[j][k];", false},
		{"a column meets no row", "i = 0; i < n - 1; i++) for (int j = 0; j < n; j++", "if (j <= i) C[i][j] += A[i][k] * A[j][k];", false},
		{"the same, columns cut", "i = 0; i < n - 1; i++) for (int j = 0; j < n - 1; j++", "if (j <= i) C[i][j] += A[i][k] * A[j][k];", true},
		{"two products", "i = 0; i < n; i++) for (int j = 0; j <= i; j++", "C[i][j] += A[j][k] * 2.0 * B[i][k] + B[j][k] * 2.0 * A[i][k];", true},
		{"three products", "i = 0; i < n; i++) for (int j = 0; j < n; j++", "C[i][j] += A[i][k] * B[k][j] + (A[k][i] * B[k][j] + A[i][k] * A[j][k]);", true},
		{"a sum with a term not a product", "i = 0; i < n; i++) for (int j = 0; j < n; j++", "C[i][j] += A[i][k] * B[k][j] + A[i][k];", false},
		{"a product of sums", "i = 0; i < n; i++) for (int j = 0; j < n; j++", "C[i][j] += (A[i][k] + 1.0) * B[k][j] * (A[i][k] + B[k][j]);", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "void f(int n, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  for (int " + c.loops +
				")\n      for (int k = 0; k < n; k++)\n        " + c.body + "\n#pragma endscop\n}\n"
			f, err := frontend.Parse("t.c", []byte(src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := packable(f.Scops[0].Prog, 0, nil); ok != c.ok {
				t.Errorf("packable: %v, want %v", ok, c.ok)
			}
		})
	}
}

// TestPackableTriangleK: a triangle in k (trmm's k > i), and a factor
// that reads the array the product writes where its reads see the
// region's initial values (liveIn) and in the written element's column.
func TestPackableTriangleK(t *testing.T) {
	for _, c := range []struct {
		name, kloop, body string
		liveIn, ok        bool
	}{
		{"k above i", "k = i + 1; k < n; k++", "C[i][j] += A[k][i] * B[k][j];", false, true},
		{"k up to i", "k = 0; k <= i; k++", "C[i][j] += A[i][k] * B[k][j];", false, true},
		{"k from i - 2", "k = i - 2; k < n; k++", "C[i][j] += A[i][k] * B[k][j];", false, true},
		{"in place, initial values", "k = i + 1; k < n; k++", "B[i][j] += A[k][i] * B[k][j];", true, true},
		{"in place, values written before", "k = i + 1; k < n; k++", "B[i][j] += A[k][i] * B[k][j];", false, false},
		{"in place, another column", "k = i + 1; k < n; k++", "B[i][j] += A[k][i] * B[j][k];", true, false},
		{"in place, read by the row factor", "k = i + 1; k < n; k++", "B[i][j] += B[i][k] * A[k][j];", true, false},
		{"k tied to j", "k = j; k < n; k++", "C[i][j] += A[i][k] * B[k][j];", false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "void f(int n, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n" +
				"    for (int j = 0; j < n; j++)\n      for (int " + c.kloop + ")\n        " + c.body + "\n#pragma endscop\n}\n"
			f, err := frontend.Parse("k.c", []byte(src), frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			pk, ok := packable(f.Scops[0].Prog, 0, func(int) bool { return c.liveIn })
			if ok != c.ok {
				t.Fatalf("packable: %v, want %v", ok, c.ok)
			}
			if ok && pk.KDiag == nil {
				t.Errorf("no triangle in k")
			}
		})
	}
}

// TestPackOnlyWholeNests: a product whose loop also runs another
// statement, or sits inside a loop, keeps its loops; a product alone at
// the top is packed, and the printed code names its buffers.
func TestPackOnlyWholeNests(t *testing.T) {
	for _, c := range []struct {
		name, body string
		packed     int
	}{
		{"alone", `for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];`, 1},
		{"with another statement", `for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      C[i][j] = 0.0;
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
    }`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "void f(int n, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  " + c.body + "\n#pragma endscop\n}\n"
			p, b := built(t, "p.c", src)
			if c.packed > 0 {
				// The same loop twice: neither copy runs every instance.
				twice := &Block{Body: append(append([]Node(nil), b.Body...), b.Body...)}
				if got := Pack(twice, p, p, PackOptions{VectorBytes: 32}); len(got) != 0 {
					t.Errorf("a statement whose instances run in two loops was packed")
				}
			}
			got := Pack(b, p, p, PackOptions{VectorBytes: 32, Parallel: true})
			if len(got) != c.packed {
				t.Fatalf("%d statements packed, want %d", len(got), c.packed)
			}
			var out strings.Builder
			if err := PrintC(&out, p, b, "  "); err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(out.String(), "nestor_Bp"); has != (c.packed > 0) {
				t.Errorf("packed buffers printed: %v, want %v:\n%s", has, c.packed > 0, out.String())
			}
		})
	}
}

// TestAdjacentAlongJ: Y is packed row by row where its elements of one
// k step lie side by side along j (gemm's B[k][j]), panel by panel
// otherwise (A[j][k], or a sum with one such term).
func TestAdjacentAlongJ(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{"C[i][j] += alpha * A[i][k] * B[k][j];", true},
		{"C[i][j] += B[j][k] * A[i][k];", false},
		{"C[i][j] += A[i][k] * B[k][j] + A[i][k] * A[j][k];", false},
		// W's rows follow j here, so Y is A[i][k], whose k is adjacent.
		{"C[j][i] += A[i][k] * B[k][j];", false},
	} {
		src := "void f(int n, double alpha, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      for (int k = 0; k < n; k++)\n        " +
			c.body + "\n#pragma endscop\n}\n"
		f, err := frontend.Parse("y.c", []byte(src), frontend.Config{})
		if err != nil {
			t.Fatal(err)
		}
		pk, ok := packable(f.Scops[0].Prog, 0, nil)
		if !ok {
			t.Fatalf("%s: not packable", c.body)
		}
		pk.Orig = f.Scops[0].Prog.Stmts[0]
		if got := pk.adjacentAlongJ(); got != c.want {
			t.Errorf("%s: adjacentAlongJ = %v, want %v", c.body, got, c.want)
		}
	}
}

// TestPackInit: a statement right before a packed product that scales or
// clears exactly the elements the product computes is folded into its
// first block of k; any other is left in its loops.
func TestPackInit(t *testing.T) {
	prod := `
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];`
	for _, c := range []struct {
		name, init string
		fold       bool
	}{
		{"scale", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] *= beta;", true},
		{"scale, factor first", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = beta * C[i][j];", true},
		{"clear", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = 0.0;", true},
		{"transposed loops", "for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) C[i][j] *= beta;", true},
		{"part of the box", "for (int i = 0; i < n; i++) for (int j = 0; j < n - 1; j++) C[i][j] *= beta;", false},
		{"a triangle", "for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) C[i][j] *= beta;", false},
		{"not a product", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = C[i][j] * beta + 1.0;", false},
		{"a factor per row", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] *= A[i][0];", false},
		{"another element", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) C[i][j] = 2.0 * C[j][i];", false},
		{"another array", "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) A[i][j] *= beta;", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "void f(int n, double beta, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  " + c.init + prod + "\n#pragma endscop\n}\n"
			p, b := built(t, "p.c", src)
			if got := Pack(b, p, p, PackOptions{VectorBytes: 32, Parallel: true}); len(got) != 1 {
				t.Fatalf("%d statements packed, want 1", len(got))
			}
			pk, ok := b.Body[len(b.Body)-1].(*Packed)
			for !ok {
				f, isIf := b.Body[len(b.Body)-1].(*If)
				if !isIf {
					t.Fatal("the product is not the last node")
				}
				pk, ok = f.Body[0].(*Packed)
			}
			if got := pk.Init != nil; got != c.fold {
				t.Errorf("folded: %v, want %v", got, c.fold)
			}
			if want := map[bool]int{true: 1, false: 2}[c.fold]; len(b.Body) != want {
				t.Errorf("%d nodes left at the top, want %d", len(b.Body), want)
			}
		})
	}
}

// TestPrefetchNext: a micro-kernel prefetches the rows of W the next one
// loads: the first and last element of each, whichever of the source's
// counters runs along W's rows (C[j][i] is packed with the roles of i and
// j swapped, its rows still along J).
func TestPrefetchNext(t *testing.T) {
	for _, c := range []struct {
		body, want string
	}{
		{"C[i][j] += A[i][k] * B[k][j];", "__builtin_prefetch(&C[(nestor_ic + nestor_min(nestor_ir + nestor_r, nestor_mc - 1))][(nestor_jc + nestor_jr + nestor_nr - 1)], 1, 3);"},
		{"C[j][i] += A[i][k] * B[k][j];", "__builtin_prefetch(&C[(nestor_ic + nestor_min(nestor_ir + nestor_r, nestor_mc - 1))][(nestor_jc + nestor_jr)], 1, 3);"},
	} {
		src := "void f(int n, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      for (int k = 0; k < n; k++)\n        " +
			c.body + "\n#pragma endscop\n}\n"
		p, b := built(t, "f.c", src)
		if got := Pack(b, p, p, PackOptions{VectorBytes: 64}); len(got) != 1 {
			t.Fatalf("%s: %d statements packed, want 1", c.body, len(got))
		}
		var out strings.Builder
		if err := PrintC(&out, p, b, "  "); err != nil {
			t.Fatal(err)
		}
		got := strings.Count(out.String(), "__builtin_prefetch(")
		switch {
		case c.want == "" && got != 0:
			t.Errorf("%s: %d prefetches printed, want none:\n%s", c.body, got, out.String())
		case c.want != "" && (got != 2 || !strings.Contains(out.String(), c.want)):
			t.Errorf("%s: %d prefetches printed, want 2, among them\n%s\nin:\n%s", c.body, got, c.want, out.String())
		}
	}
}

// built parses the one region of src and builds its loops.
func built(t *testing.T, name, src string) (*ir.Program, *Block) {
	t.Helper()
	f, err := frontend.Parse(name, []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	b, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, b
}

// TestPackRegisterBlock: a product of one term keeps an MR×NR block of
// two vectors per row; a sum of products (syr2k's) one vector per row and
// more rows, so that each broadcast factor feeds one multiply (AVX-512
// folds it into the instruction) and the accumulators with both terms'
// Y vectors fit the registers.
func TestPackRegisterBlock(t *testing.T) {
	for _, c := range []struct {
		body    string
		vector  int
		mr, nr  int
		printed string
	}{
		{"C[i][j] += A[i][k] * B[k][j];", 64, packMR, 16, "6x16 register block"},
		{"C[i][j] += A[i][k] * B[k][j] + B[i][k] * A[k][j];", 64, packTermsMR, 8, "8x8 register block"},
		{"C[i][j] += A[i][k] * B[k][j] + B[i][k] * A[k][j];", 32, packTermsMR, 4, "8x4 register block"},
	} {
		src := "void f(int n, double C[n][n], double A[n][n], double B[n][n]) {\n#pragma scop\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      for (int k = 0; k < n; k++)\n        " +
			c.body + "\n#pragma endscop\n}\n"
		p, b := built(t, "f.c", src)
		if got := Pack(b, p, p, PackOptions{VectorBytes: c.vector}); len(got) != 1 {
			t.Fatalf("%s: %d statements packed, want 1", c.body, len(got))
		}
		pk := b.Body[0].(*Packed)
		if pk.MR != c.mr || pk.NR != c.nr || pk.MC%pk.MR != 0 {
			t.Errorf("%s, %d-byte vectors: %dx%d register block in blocks of %d rows, want %dx%d dividing them", c.body, c.vector, pk.MR, pk.NR, pk.MC, c.mr, c.nr)
		}
		var out strings.Builder
		if err := PrintC(&out, p, b, "  "); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), c.printed) {
			t.Errorf("%s: no %q in:\n%s", c.body, c.printed, out.String())
		}
	}
}
