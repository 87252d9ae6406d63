package reroll

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/codegen"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
)

// program parses a C function whose region is body.
func program(t *testing.T, body string) *ir.Program {
	t.Helper()
	src := "void f(int n, double a, double x[1000], double y[1000], double z[1000], int c[1000],\n" +
		"       double A[100][100], double B[100][100]) {\n  int i, j, k;\n  double s;\n" +
		"#pragma scop\n" + body + "\n#pragma endscop\n}\n"
	f, err := frontend.Parse("k.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f.Scops[0].Prog
}

// dump prints p's statements: names, positions, domains and bodies.
func dump(p *ir.Program) string {
	var b strings.Builder
	for _, s := range p.Stmts {
		fmt.Fprintf(&b, "%s %v %v %s %s\n", s.Name, s.Iters, s.Beta, ir.FormatDomain(p, s), text(p, s))
	}
	return b.String()
}

// runBoth runs p and q under the interpreter on the same random inputs
// and fails unless every array ends up equal, byte for byte.
func runBoth(t *testing.T, p, q *ir.Program, params []int64) {
	t.Helper()
	mp, err := interp.NewMemory(p, params)
	if err != nil {
		t.Fatal(err)
	}
	mq, err := interp.NewMemory(q, params)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for a := range p.Arrays {
		for k := range mp.Len(a) {
			if p.Arrays[a].Elem.IsFloat() {
				mp.SetFloat64(a, k, rng.Float64()+1)
			} else {
				mp.SetInt64(a, k, rng.Int64N(64))
			}
		}
		copy(mq.Bytes(a), mp.Bytes(a))
	}
	if err := interp.Run(p, params, mp); err != nil {
		t.Fatal(err)
	}
	if err := interp.Run(q, params, mq); err != nil {
		t.Fatal(err)
	}
	for a, arr := range p.Arrays {
		if !bytes.Equal(mp.Bytes(a), mq.Bytes(a)) {
			t.Fatalf("array %s differs after rerolling", arr.Name)
		}
	}
}

// trace lists the elements every instance of p accesses, in execution
// order: rerolling keeps the order of the instances exactly, so the
// traces of a program and its rerolled form are equal.
func trace(t *testing.T, p *ir.Program, params []int64) []string {
	t.Helper()
	var out []string
	err := interp.Instances(p, params, func(stmt int, iter []int64) error {
		s := p.Stmts[stmt]
		var b strings.Builder
		for _, a := range s.Accesses {
			b.WriteString(p.Arrays[a.Array].Name)
			for _, x := range a.Index {
				v, _ := x.Eval(iter, params, nil)
				fmt.Fprintf(&b, "[%d]", v)
			}
			b.WriteString(" ")
		}
		out = append(out, b.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// loopBounds returns the constant bounds of counter d of s, from the
// constraints that use no other variable.
func loopBounds(s *ir.Stmt, d int) (lo, hi int64, ok bool) {
	var hasLo, hasHi bool
	for _, c := range s.Domain.Cons {
		other := slices.ContainsFunc(c.Iter[:d], func(x int64) bool { return x != 0 }) ||
			slices.ContainsFunc(c.Iter[d+1:], func(x int64) bool { return x != 0 }) ||
			slices.ContainsFunc(c.Param, func(x int64) bool { return x != 0 }) ||
			slices.ContainsFunc(c.Local, func(x int64) bool { return x != 0 })
		switch a := c.Iter[d]; {
		case other || a == 0 || c.Eq:
		case a == 1:
			lo, hasLo = -c.Const, true
		case a == -1:
			hi, hasHi = c.Const, true
		}
	}
	return lo, hi, hasLo && hasHi
}

// TestReroll rerolls small kernels and checks the runs found, the shape
// of the result, and that the result computes exactly what the input does,
// instance by instance in the same order.
func TestReroll(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		runs       []string // Group.String of each run, in order
		stmts      int      // statements after rerolling
		text       []string // the bodies after rerolling (Stmt.Text), when given
	}{
		{
			// The example: a loop of stride 4 (a floor-division local).
			name: "daxpy stride 4",
			body: `for (i = 0; i < n; i += 4) {
  y[i] = y[i] + a * x[i];
  y[i+1] = y[i+1] + a * x[i+1];
  y[i+2] = y[i+2] + a * x[i+2];
  y[i+3] = y[i+3] + a * x[i+3];
}`,
			runs:  []string{"S0 S1 S2 S3 (4 copies of 1 statement) became loop u"},
			stmts: 1,
			text:  []string{"y[i + u] = y[i + u] + a * x[i + u];"},
		},
		{
			// The same with a unit-stride counter and scaled subscripts.
			name: "daxpy 4*i+j",
			body: `for (i = 0; i < n / 4; i++) {
  y[4*i] = y[4*i] + a * x[4*i];
  y[4*i+1] = y[4*i+1] + a * x[4*i+1];
  y[4*i+2] = y[4*i+2] + a * x[4*i+2];
  y[4*i+3] = y[4*i+3] + a * x[4*i+3];
}`,
			runs:  []string{"S0 S1 S2 S3 (4 copies of 1 statement) became loop u"},
			stmts: 1,
			text:  []string{"y[4*i + u] = y[4*i + u] + a * x[4*i + u];"},
		},
		{
			// A reduction into a scalar: the written element never moves.
			name: "dot product",
			body: `s = 0.0;
for (i = 0; i < n; i += 4) {
  s += x[i] * y[i];
  s += x[i+1] * y[i+1];
  s += x[i+2] * y[i+2];
  s += x[i+3] * y[i+3];
}
z[0] = s;`,
			runs:  []string{"S1 S2 S3 S4 (4 copies of 1 statement) became loop u"},
			stmts: 3,
			text:  []string{"s = 0.0;", "s += x[i + u] * y[i + u];", "z[0] = s;"},
		},
		{
			// A 5-point stencil whose row loop is unrolled by 2.
			name: "stencil row by 2",
			body: `for (i = 1; i < n - 1; i++)
  for (j = 1; j < n - 2; j += 2) {
    B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i-1][j] + A[i+1][j]);
    B[i][j+1] = 0.2 * (A[i][j+1] + A[i][j] + A[i][j+2] + A[i-1][j+1] + A[i+1][j+1]);
  }`,
			runs:  []string{"S0 S1 (2 copies of 1 statement) became loop u"},
			stmts: 1,
			text:  []string{"B[i][j + u] = 0.2 * (A[i][j + u] + A[i][j + u - 1] + A[i][j + u + 1] + A[i - 1][j + u] + A[i + 1][j + u]);"},
		},
		{
			// Offsets 0, 1, 3 are no progression: only the first two roll.
			name: "not a progression",
			body: `for (i = 0; i < n; i += 4) {
  y[i] = a * x[i];
  y[i+1] = a * x[i+1];
  y[i+3] = a * x[i+3];
}`,
			runs:  []string{"S0 S1 (2 copies of 1 statement) became loop u"},
			stmts: 2,
			text:  []string{"y[i + u] = a * x[i + u];", "y[i+3] = a * x[i+3];"},
		},
		{
			// Offsets 0, 2, 3, 4: the longest progression is the last three.
			name: "most copies first",
			body: `for (i = 0; i < n; i += 8) {
  y[i] = a * x[i];
  y[i+2] = a * x[i+2];
  y[i+3] = a * x[i+3];
  y[i+4] = a * x[i+4];
}`,
			runs:  []string{"S1 S2 S3 (3 copies of 1 statement) became loop u"},
			stmts: 2,
			text:  []string{"y[i] = a * x[i];", "y[i + u + 2] = a * x[i + u + 2];"},
		},
		{
			// Different trees, or different arrays: nothing to roll.
			name: "not isomorphic",
			body: `for (i = 0; i < n; i += 3) {
  y[i] = y[i] + a * x[i];
  y[i+1] = y[i+1] * a + x[i+1];
  z[i+2] = y[i+2] * a + x[i+2];
}`,
			stmts: 3,
		},
		{
			// A coefficient that changes is no affine progression.
			name: "moving coefficient",
			body: `for (i = 0; i < n / 3; i++) {
  y[i] = x[i];
  y[i] = x[2*i];
  y[i] = x[3*i];
}`,
			stmts: 3,
		},
		{
			// Another statement splits the copies into two runs.
			name: "interrupted",
			body: `for (i = 0; i < n; i += 4) {
  y[i] = a * x[i];
  y[i+1] = a * x[i+1];
  z[i] = 0.0;
  y[i+2] = a * x[i+2];
  y[i+3] = a * x[i+3];
}`,
			runs: []string{
				"S0 S1 (2 copies of 1 statement) became loop u",
				"S3 S4 (2 copies of 1 statement) became loop u",
			},
			stmts: 3,
		},
		{
			// A loop between the copies: they are not consecutive.
			name: "interrupted by a loop",
			body: `for (i = 0; i < n; i += 2) {
  y[i] = a * x[i];
  for (j = 0; j < 4; j++)
    z[j] = x[i];
  y[i+1] = a * x[i+1];
}`,
			stmts: 3,
		},
		{
			// A body of two statements, four times.
			name: "period 2",
			body: `for (i = 0; i < n; i += 4) {
  y[i] = y[i] + a * x[i];
  z[i] = z[i] * x[i];
  y[i+1] = y[i+1] + a * x[i+1];
  z[i+1] = z[i+1] * x[i+1];
  y[i+2] = y[i+2] + a * x[i+2];
  z[i+2] = z[i+2] * x[i+2];
  y[i+3] = y[i+3] + a * x[i+3];
  z[i+3] = z[i+3] * x[i+3];
}`,
			runs:  []string{"S0 S1 S2 S3 S4 S5 S6 S7 (4 copies of 2 statements) became loop u"},
			stmts: 2,
			text:  []string{"y[i + u] = y[i + u] + a * x[i + u];", "z[i + u] = z[i + u] * x[i + u];"},
		},
		{
			// Both loops of a 2-D nest unrolled by 2: a loop of pairs, then
			// the pair itself.
			name: "2x2",
			body: `for (i = 0; i < n; i += 2)
  for (j = 0; j < n; j += 2) {
    B[i][j] = A[j][i];
    B[i][j+1] = A[j+1][i];
    B[i+1][j] = A[j][i+1];
    B[i+1][j+1] = A[j+1][i+1];
  }`,
			runs: []string{
				"S0 S1 S2 S3 (2 copies of 2 statements) became loop u",
				"S0 S1 (2 copies of 1 statement) became loop u1",
			},
			stmts: 1,
			text:  []string{"B[i + u][j + u1] = A[j + u1][i + u];"},
		},
		{
			// Integer literals in progression, float literals that are
			// integers in progression, and a float literal that stays.
			name: "literals",
			body: `for (i = 0; i < n; i += 3) {
  c[i] = 7 + c[i] * 3;
  c[i+1] = 5 + c[i+1] * 3;
  c[i+2] = 3 + c[i+2] * 3;
  x[i] = 1.0 + 0.5 * y[i];
  x[i+1] = 2.0 + 0.5 * y[i+1];
  x[i+2] = 3.0 + 0.5 * y[i+2];
}`,
			runs: []string{
				"S0 S1 S2 (3 copies of 1 statement) became loop u",
				"S3 S4 S5 (3 copies of 1 statement) became loop u",
			},
			stmts: 2,
			text:  []string{"c[i + u] = 7 - 2 * u + c[i + u] * 3;", "x[i + u] = (double)(1 + u) + 0.5 * y[i + u];"},
		},
		{
			// Float literals that are no integer progression.
			name: "float literals",
			body: `for (i = 0; i < n; i += 2) {
  x[i] = 0.5 * y[i];
  x[i+1] = 0.25 * y[i+1];
}`,
			stmts: 2,
		},
		{
			// Guards of a remainder move with the copies.
			name: "guarded copies",
			body: `for (i = 0; i < n; i += 3) {
  if (i < n - 5) y[i] = a * x[i];
  if (i + 1 < n - 5) y[i+1] = a * x[i+1];
  if (i + 2 < n - 5) y[i+2] = a * x[i+2];
}`,
			runs:  []string{"S0 S1 S2 (3 copies of 1 statement) became loop u"},
			stmts: 1,
		},
		{
			// Statements at the top of the region, outside any loop.
			name: "top level",
			body: `y[0] = x[1];
y[1] = x[2];
y[2] = x[3];
s = y[2];`,
			runs:  []string{"S0 S1 S2 (3 copies of 1 statement) became loop u"},
			stmts: 2,
			text:  []string{"y[u] = x[u + 1];", "s = y[2];"},
		},
		{
			// The counter's name is taken by a loop around the run.
			name: "name taken",
			body: `for (i = 0; i < 10; i++) { int u;
  for (u = 0; u < n; u += 2) {
    y[u] = x[u];
    y[u+1] = x[u+1];
  }
}`,
			runs:  []string{"S0 S1 (2 copies of 1 statement) became loop u1"},
			stmts: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := program(t, tc.body)
			before := dump(p)
			q, groups, err := Reroll(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(p); got != before {
				t.Fatalf("the input changed:\n%s\nwas\n%s", got, before)
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			var runs []string
			for _, g := range groups {
				runs = append(runs, g.String())
			}
			if !slices.Equal(runs, tc.runs) {
				t.Errorf("runs %q, want %q", runs, tc.runs)
			}
			if len(q.Stmts) != tc.stmts {
				t.Errorf("%d statements after rerolling, want %d:\n%s", len(q.Stmts), tc.stmts, dump(q))
			}
			if tc.text != nil {
				var got []string
				for _, s := range q.Stmts {
					got = append(got, s.Text)
				}
				if !slices.Equal(got, tc.text) {
					t.Errorf("bodies %q, want %q", got, tc.text)
				}
			}
			checkLoops(t, p, q, groups)
			// The code generator takes the new loops.
			tree, err := codegen.Build(q)
			if err != nil {
				t.Fatal(err)
			}
			var c bytes.Buffer
			if err := codegen.PrintC(&c, q, tree, ""); err != nil {
				t.Fatal(err)
			}
			if len(groups) > 0 && !strings.Contains(c.String(), "for (int u = 0; u <") && !strings.Contains(c.String(), "for (int u1 = 0; u1 <") {
				t.Errorf("no loop over u in the generated code:\n%s", c.String())
			}
			for _, n := range []int64{0, 7, 40, 41} {
				params := make([]int64, len(p.Params))
				for k := range params {
					params[k] = n
				}
				runBoth(t, p, q, params)
				if a, b := trace(t, p, params), trace(t, q, params); !slices.Equal(a, b) {
					t.Fatalf("n = %d: the rerolled program accesses memory in another order", n)
				}
			}
			// Rerolling again finds nothing.
			if _, again, err := Reroll(q); err != nil || len(again) != 0 {
				t.Errorf("a second reroll: %v, %v", again, err)
			}
		})
	}
}

// checkLoops checks each new loop: its statements are the group's body,
// one loop deeper than the run, with the counter running from 0 to
// Count-1.
func checkLoops(t *testing.T, p, q *ir.Program, groups []Group) {
	t.Helper()
	if len(groups) == 0 && q != p {
		t.Errorf("no run, but a new program")
	}
	for _, g := range groups {
		var body []*ir.Stmt
		for _, s := range q.Stmts {
			if len(s.Beta) > len(g.Beta) && slices.Equal(s.Beta[:len(g.Beta)], g.Beta) {
				body = append(body, s)
			}
		}
		// A later group may roll the body further: fewer statements.
		if len(body) == 0 || len(body) > len(g.Body) || len(g.Stmts) != g.Count*len(g.Body) {
			t.Errorf("%v: %d statements at %v", g, len(body), g.Beta)
			continue
		}
		for _, s := range body {
			d := len(g.Beta) - 1
			if s.Iters[d] != g.Iter || s.Dir[d] != 1 {
				t.Errorf("%v: %s has loop %s/%d at level %d", g, s.Name, s.Iters[d], s.Dir[d], d)
			}
			if lo, hi, ok := loopBounds(s, d); !ok || lo != 0 || hi != int64(g.Count-1) {
				t.Errorf("%v: %s: loop bounds %d..%d (%v), want 0..%d", g, s.Name, lo, hi, ok, g.Count-1)
			}
		}
	}
}

// TestLiteralRange keeps literal progressions whose steps would leave
// the literal's type as they are.
func TestLiteralRange(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		stmts      int
	}{
		// From INT_MAX down to INT_MAX - 2: a step of -1.
		{"int max", "c[0] = 2147483647; c[1] = 2147483646; c[2] = 2147483645;", 1},
		// From INT_MIN + 1 to INT_MAX: (n-1)·|d| leaves int.
		{"int span", "c[0] = -2147483647; c[1] = 2147483647;", 2},
		// Unsigned literals: a step of 2^31 fits unsigned.
		{"unsigned", "c[0] = 1u; c[1] = 2147483649u;", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := program(t, tc.body)
			q, _, err := Reroll(p)
			if err != nil {
				t.Fatal(err)
			}
			if len(q.Stmts) != tc.stmts {
				t.Fatalf("%d statements, want %d:\n%s", len(q.Stmts), tc.stmts, dump(q))
			}
			runBoth(t, p, q, nil)
		})
	}
	if literalRamp(ir.Long, 0, math.MaxInt64, 3) || !literalRamp(ir.Long, math.MinInt64, math.MaxInt64, 2) {
		t.Error("literalRamp: wrong answer at the limits of long")
	}
}

// TestCorpusKernels rerolls every corpus kernel: the few runs PolyBench
// has must compute the same, instance by instance, and the rest stay.
func TestCorpusKernels(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) < 32 {
		t.Fatalf("found %d kernels", len(ks))
	}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		f, err := frontend.ParseFile(k, frontend.Config{Defines: []string{"MINI_DATASET"}})
		if err != nil {
			t.Fatal(err)
		}
		p := f.Scops[0].Prog
		q, groups, err := Reroll(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, g := range groups {
			t.Logf("%s: %v", name, g)
		}
		params := make([]int64, len(p.Params))
		for i := range params {
			params[i] = 4 - int64(i%2) // within every MINI array size
		}
		runBoth(t, p, q, params)
		if a, b := trace(t, p, params), trace(t, q, params); !slices.Equal(a, b) {
			t.Fatalf("%s: the rerolled program accesses memory in another order", name)
		}
	}
}
