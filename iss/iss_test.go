package iss

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

func parse(t *testing.T, src string) *ir.Program {
	t.Helper()
	f, err := frontend.Parse("t.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f.Scops[0].Prog
}

const floyd = `void f(int n, int path[100][100]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = FIRST)
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
#pragma endscop
}
`

// TestProgram splits statements whose carried dependences start or end on
// a hyperplane and leaves others alone. Where it splits, it checks that
// the split program runs the same instances in the same order (every
// instance at n = 7, sorted by the original order, names the same
// statement text and counters) and that the pieces' split loops carry no
// dependence.
func TestProgram(t *testing.T) {
	for _, c := range []struct {
		name, src string
		pieces    int // 0: not split
	}{
		{"floyd", replace(floyd, "FIRST", "0; i < n; i++"), 3},
		{"floyd-down", replace(floyd, "FIRST", "n - 1; i >= 0; i--"), 3},
		// Rows from k on: no rows below k, two pieces.
		{"floyd-from-k", replace(floyd, "FIRST", "k; i < n; i++"), 2},
		// Every other column: the j loop's stride is a local of the
		// domain, which the pieces' constraints must count (random
		// program 7294 failed the IR check after the pass).
		{"floyd-strided", replace(replace(floyd, "FIRST", "0; i < n; i++"), "j < n; j++", "j < n; j += 2"), 3},
		// Uniform distances: no hyperplane holds every end.
		{"stencil", `void f(int n, double A[100][100]) {
  int t, i, j;
#pragma scop
  for (t = 0; t < n; t++)
    for (i = 1; i < n; i++)
      for (j = 1; j < n; j++)
        A[i][j] = A[i - 1][j] + A[i][j - 1];
#pragma endscop
}
`, 0},
		// A pivot row and a uniform distance: the candidates i = k and
		// i = k + 1 each miss the ends of the other dependences.
		{"pivot-and-stencil", `void f(int n, double A[100][100]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 1; i < n; i++)
      for (j = 0; j < n; j++)
        A[i][j] = A[k][j] + A[i - 1][j];
#pragma endscop
}
`, 0},
		// Another statement shares the i loop: splitting it would
		// reorder the two.
		{"shared", `void f(int n, int path[100][100], int x[100]) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++) {
      for (j = 0; j < n; j++)
        path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];
      x[i] = path[i][0];
    }
#pragma endscop
}
`, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := parse(t, c.src)
			g, err := deps.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			q, splits := Program(p, g)
			if c.pieces == 0 {
				if len(splits) != 0 || q != p {
					t.Fatalf("split %+v, want none", splits)
				}
				return
			}
			if len(splits) != 1 || 1+len(splits[0].New) != c.pieces || splits[0].Level != 1 {
				t.Fatalf("splits %+v, want one of S0 at level 1 into %d", splits, c.pieces)
			}
			if err := ir.Check(q); err != nil {
				t.Fatalf("the split program: %v", err)
			}
			if got, want := trace(t, q), trace(t, p); !slices.Equal(got, want) {
				t.Fatalf("the split program runs\n%v\nwant\n%v", got, want)
			}
			h, err := deps.Analyze(q)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range h.Edges {
				if e.Source == e.Target && e.Depth == 2 {
					t.Errorf("piece %s still carries a dependence at its split loop: %+v", q.Stmts[e.Source].Name, e)
				}
			}
		})
	}
}

// trace returns the instances of p at n = 7 in the original order of p
// (interp's walk of its loops), each as its statement's text and counters.
func trace(t *testing.T, p *ir.Program) []string {
	t.Helper()
	var out []string
	err := interp.Instances(p, []int64{7}, func(st int, it []int64) error {
		out = append(out, fmt.Sprint(p.Stmts[st].Text, it))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func replace(s, old, new string) string { return strings.Replace(s, old, new, 1) }
