package expand

import (
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

// prog parses a C function around body, a region, followed by after.
func prog(t *testing.T, decls, body, after string) *ir.Program {
	t.Helper()
	src := "void f(int n, int m, double A[n][n], double B[n][n], double x[n], double y[n]) {\n  int i, j, k;\n" + decls +
		"#pragma scop\n" + body + "\n#pragma endscop\n" + after + "}\n"
	f, err := frontend.Parse("t.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Scops[0].Prog
}

// matvec: s is assigned first in every iteration of i, read after its
// sum over j; the i loop carries nothing else.
const matvec = `for (i = 0; i < n; i++) {
    s = 0;
    for (j = 0; j < n; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }`

func TestExpandMatvec(t *testing.T) {
	p := prog(t, "  double s;\n", matvec, "")
	q, xs, _, err := Expand(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || xs[0].Scalar != "s" || xs[0].Level != 0 {
		t.Fatalf("expansions %v, want s along loop 1", xs)
	}
	a := q.Arrays[xs[0].Array]
	if a.Storage != ir.ScopLocal || !a.Heap || a.Rank() != 1 || a.Name != "nestor_s" {
		t.Errorf("new array %+v", a)
	}
	if got := ir.FormatAff(a.Dims[0], ir.Names{Param: ir.ParamNames(q)}); got != "n" {
		t.Errorf("size %s, want n", got)
	}
	for _, s := range q.Stmts {
		for _, acc := range s.Accesses {
			if acc.Array == xs[0].Old {
				t.Errorf("%s still accesses the scalar", s.Name)
			}
			if acc.Array == xs[0].Array && (len(acc.Index) != 1 || acc.Index[0].Iter[0] != 1 || acc.Index[0].Const != 0) {
				t.Errorf("%s subscripts the new array by %v, want [i]", s.Name, acc.Index)
			}
		}
	}
	if err := ir.Check(q); err != nil {
		t.Fatal(err)
	}
	if p.Stmts[0].Accesses[0].Array != xs[0].Old {
		t.Error("Expand modified its argument")
	}
}

// TestExpandOffset: the counter's lower bound is subtracted.
func TestExpandOffset(t *testing.T) {
	p := prog(t, "  double s;\n", strings.ReplaceAll(matvec, "i = 0; i < n", "i = 2; i < m + 2"), "")
	q, xs, _, err := Expand(p)
	if err != nil || len(xs) != 1 {
		t.Fatalf("%v %v", xs, err)
	}
	names := ir.Names{Param: ir.ParamNames(q)}
	if got := ir.FormatAff(q.Arrays[xs[0].Array].Dims[0], names); got != "m" {
		t.Errorf("size %s, want m", got)
	}
	if c := q.Stmts[0].Accesses[0].Index[0].Const; c != -2 {
		t.Errorf("subscript constant %d, want -2", c)
	}
}

// TestExpandRefused: each case breaks one condition of the package doc.
func TestExpandRefused(t *testing.T) {
	cases := []struct{ name, decls, body, after string }{
		{"used after the region", "  double s;\n", matvec, "  x[0] = s;\n"},
		{"read before assigned", "  double s = 0;\n", strings.Replace(matvec, "s = 0;", "y[i] = s;", 1), ""},
		{"assignment reads it", "  double s = 0;\n", strings.Replace(matvec, "s = 0;", "s = s * 0.5;", 1), ""},
		{"assignment guarded", "  double s = 0;\n", strings.Replace(matvec, "s = 0;", "if (i > 0) s = 0;", 1), ""},
		{"loop carries another dependence", "  double s;\n", strings.Replace(matvec, "y[i] = s;", "x[i] = s;", 1), ""},
		{"used outside the loop", "  double s;\n", matvec + "\n  y[0] = s;", ""},
		{"static", "  static double s;\n", matvec, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := prog(t, c.decls, c.body, c.after)
			_, xs, _, err := Expand(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(xs) != 0 {
				t.Errorf("expanded %v", xs)
			}
		})
	}
}

// TestExpandInnerLoop: symm's temp2 is assigned first in every (i, j)
// iteration and the j loop carries only its dependences: it is expanded
// along j (the loop that then runs in parallel), its size n.
func TestExpandInnerLoop(t *testing.T) {
	body := `for (i = 0; i < n; i++)
    for (j = 0; j < m; j++) {
      s = 0;
      for (k = 0; k < i; k++) {
        B[k][j] += x[i] * A[i][k];
        s += B[k][j] * x[k];
      }
      B[i][j] = y[j] * B[i][j] + s;
    }`
	p := prog(t, "  double s;\n", body, "")
	q, xs, _, err := Expand(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || xs[0].Level != 1 {
		t.Fatalf("expansions %v, want s along loop 2", xs)
	}
	if got := ir.FormatAff(q.Arrays[xs[0].Array].Dims[0], ir.Names{Param: ir.ParamNames(q)}); got != "m" {
		t.Errorf("size %s, want m", got)
	}
}

// TestExpandLiveRanges: a temporary reused by two loop nests (ludcmp's w)
// has two live ranges; only the one whose loop then runs in parallel is
// expanded, and the other keeps the scalar.
func TestExpandLiveRanges(t *testing.T) {
	body := `for (i = 0; i < n; i++) {
    s = x[i];
    for (j = 0; j < i; j++)
      s -= A[i][j] * y[j];
    y[i] = s;
  }
  ` + matvec
	p := prog(t, "  double s;\n", body, "")
	q, xs, _, err := Expand(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || xs[0].Kill != 3 || !slices.Equal(xs[0].Stmts, []int{3, 4, 5}) {
		t.Fatalf("expansions %+v, want the second range (S3, S4, S5)", xs)
	}
	for k, s := range q.Stmts {
		want, other := xs[0].Old, xs[0].Array // the first range keeps the scalar
		if k >= 3 {
			want, other = other, want
		}
		if s.Accesses[0].Array != want && k != 2 && k != 5 { // S2 and S5 write y
			t.Errorf("%s writes %s, want %s", s.Name, q.Arrays[s.Accesses[0].Array].Name, q.Arrays[want].Name)
		}
		for _, acc := range s.Accesses {
			if acc.Array == other {
				t.Errorf("%s accesses %s", s.Name, q.Arrays[other].Name)
			}
		}
	}
}

// TestExpandUncovered: a read in an iteration where the kill does not run
// would see the previous range's value: no range is expanded.
func TestExpandUncovered(t *testing.T) {
	body := `for (i = 0; i < n; i++) {
    s = x[i];
    y[i] = s;
  }
  for (i = 0; i < n; i++) {
    if (i > 0)
      s = 0;
    y[i] += s;
  }`
	p := prog(t, "  double s;\n", body, "")
	if _, xs, _, err := Expand(p); err != nil || len(xs) != 0 {
		t.Errorf("expansions %v (%v), want none", xs, err)
	}
}

// recursive: deriche's row sweep keeps three temporaries across the
// iterations of j; each is assigned first in every iteration of i, and
// the i loop carries only their dependences.
const recursive = `for (i = 0; i < n; i++) {
    s = 0;
    u = 0;
    v = 0;
    for (j = 0; j < m; j++) {
      B[i][j] = A[i][j] + s + u * v;
      v = A[i][j];
      u = s;
      s = B[i][j];
    }
  }`

// TestExpandTogether: no one of the row sweep's temporaries alone makes
// the i loop parallel (the other two still carry dependences), all three
// together do: all three are expanded along i.
func TestExpandTogether(t *testing.T) {
	p := prog(t, "  double s, u, v;\n", recursive, "")
	q, xs, _, err := Expand(p)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range xs {
		if x.Level != 0 {
			t.Errorf("%v, want along loop 1", x)
		}
		got = append(got, x.Scalar)
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"s", "u", "v"}) {
		t.Fatalf("expanded %v, want s, u and v", got)
	}
	for _, s := range q.Stmts {
		for _, acc := range s.Accesses {
			if q.Arrays[acc.Array].Rank() == 0 {
				t.Errorf("%s still accesses scalar %s", s.Name, q.Arrays[acc.Array].Name)
			}
		}
	}
	if err := ir.Check(q); err != nil {
		t.Fatal(err)
	}
}

// TestExpandTogetherRefused: when one of the temporaries is also used
// after the region, the other two would leave i carrying its
// dependences: none is expanded.
func TestExpandTogetherRefused(t *testing.T) {
	p := prog(t, "  double s, u, v;\n", recursive, "  x[0] = u;\n")
	if _, xs, _, err := Expand(p); err != nil || len(xs) != 0 {
		t.Errorf("expansions %v (%v), want none", xs, err)
	}
}

// TestExpandProduct checks the expansion along every loop of a kill that
// makes a statement of the range a product (Options.Product): symm's
// temp2, a dot product per (i, j), becomes T[i][j] += B[k][j]·A[i][k];
// without the option (or when the predicate says no) it is expanded along
// j alone, where its loop then runs in parallel.
func TestExpandProduct(t *testing.T) {
	const symm = `for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      s = 0;
      for (k = 0; k < i; k++)
        s += B[k][j] * A[i][k];
      y[j] = y[j] + s;
    }`
	p := prog(t, "  double s;\n", symm, "")
	var asked []string
	product := func(q *ir.Program, s int) bool {
		st := q.Stmts[s]
		asked = append(asked, st.Name)
		w := q.Arrays[st.Accesses[0].Array]
		return st.Depth() == 3 && w.Rank() == 2 // T[i][j] += …
	}
	q, xs, _, err := ExpandWith(p, Options{Product: product})
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || len(xs[0].Outer) != 1 || xs[0].Outer[0].Level != 0 || xs[0].Level != 1 {
		t.Fatalf("expansions %v, want s along loops 1 and 2", xs)
	}
	if got := xs[0].String(); got != "s expanded along loops 1 and 2" {
		t.Errorf("String() = %q", got)
	}
	a := q.Arrays[xs[0].Array]
	names := ir.Names{Param: ir.ParamNames(q)}
	if !a.Heap || a.Rank() != 2 || ir.FormatAff(a.Dims[0], names) != "m" || ir.FormatAff(a.Dims[1], names) != "n" {
		t.Errorf("new array %+v", a)
	}
	for _, s := range q.Stmts {
		for _, acc := range s.Accesses {
			if acc.Array == xs[0].Array && (len(acc.Index) != 2 || acc.Index[0].Iter[0] != 1 || acc.Index[1].Iter[1] != 1) {
				t.Errorf("%s subscripts the new array by %v, want [i][j]", s.Name, acc.Index)
			}
		}
	}
	if err := ir.Check(q); err != nil {
		t.Fatal(err)
	}
	if len(asked) == 0 {
		t.Error("the predicate was never asked")
	}
	// No product: the rule that expands for a parallel loop.
	_, xs, _, err = ExpandWith(p, Options{Product: func(*ir.Program, int) bool { return false }})
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 1 || len(xs[0].Outer) != 0 || xs[0].Level != 1 {
		t.Fatalf("expansions %v without a product, want s along loop 2", xs)
	}
}
