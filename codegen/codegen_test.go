package codegen

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"nestor/frontend"
	"nestor/ir"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// testCase is a program and the parameter values its trace is checked at.
type testCase struct {
	name   string
	prog   func(t *testing.T) *ir.Program
	params [][]int64
}

var cases = []testCase{
	{"gemm", func(t *testing.T) *ir.Program {
		// A perfect nest.
		return newProg(t, "ni", "nj", "nk").
			array("alpha", ir.FuncParam).
			array("C", ir.FuncParam, "ni", "nj").array("A", ir.FuncParam, "ni", "nk").array("B", ir.FuncParam, "nk", "nj").
			stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < ni and 0 <= j < nj and 0 <= k < nk", "C[i][j] += alpha * A[i][k] * B[k][j]").
			build()
	}, grid(3, 0, 1, 3)},
	{"imperfect", func(t *testing.T) *ir.Program {
		// for i { S0; for j { S1 }; S2 }
		return newProg(t, "n", "m").
			array("s", ir.FuncParam, "n").array("A", ir.FuncParam, "n", "m").array("B", ir.FuncParam, "n").
			stmt("i", []int{0, 0}, "0 <= i < n", "s[i] = 0.0").
			stmt("i j", []int{0, 1, 0}, "0 <= i < n and 0 <= j < m", "s[i] += A[i][j]").
			stmt("i", []int{0, 2}, "0 <= i < n", "B[i] = 2.0 * s[i]").
			build()
	}, grid(2, 0, 1, 2, 4)},
	{"triangular", func(t *testing.T) *ir.Program {
		return newProg(t, "n").
			array("L", ir.FuncParam, "n", "n").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j <= i", "L[i][j] = L[i][j] / (L[j][j] + 1.0)").
			build()
	}, grid(1, 0, 1, 2, 5)},
	{"minupper", func(t *testing.T) *ir.Program {
		// for (j = i; j < min(n, i + 4); j++)
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and i <= j < n and j <= i + 3", "A[i][j] = A[i][j] * 0.5").
			build()
	}, grid(1, 0, 1, 3, 7)},
	{"decreasing", func(t *testing.T) *ir.Program {
		// Back substitution: for (i = n - 1; i >= 0; i--) { for j > i { S0 }; S1 }
		return newProg(t, "n").
			array("U", ir.FuncParam, "n", "n").array("x", ir.FuncParam, "n").
			stmt("-i j", []int{0, 0, 0}, "0 <= i < n and i + 1 <= j < n", "x[i] -= U[i][j] * x[j]").
			stmt("-i", []int{0, 1}, "0 <= i < n", "x[i] = x[i] / U[i][i]").
			build()
	}, grid(1, 0, 1, 2, 5)},
	{"stride", func(t *testing.T) *ir.Program {
		// for (i = 1; i < n; i += 2) and for (j = n - 1; j >= 0; j -= 3)
		return newProg(t, "n").
			array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").
			stmt("i", []int{0, 0}, "1 <= i < n and i % 2 = 1", "A[i] = A[i - 1] + 1.0").
			stmt("-j", []int{1, 0}, "0 <= j < n and j % 3 = n - 1", "B[j] = A[j]").
			build()
	}, grid(1, 0, 1, 2, 3, 8)},
	{"stridemix", func(t *testing.T) *ir.Program {
		// A strided statement sharing its loop with a dense one gets a
		// guard; a triangular inner loop under a strided outer one.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("i", []int{0, 0}, "0 <= i < n", "A[i][i] = 0.0").
			stmt("i", []int{0, 1}, "0 <= i < n and i % 2 = 1", "A[i][0] = 1.0").
			stmt("i j", []int{1, 0, 0}, "0 <= i < n and i % 3 = 0 and i <= j < n", "A[i][j] += 1.0").
			build()
	}, grid(1, 0, 1, 2, 7)},
	{"guard", func(t *testing.T) *ir.Program {
		// for i { S0; if (i >= 1) S1 }
		return newProg(t, "n").
			array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").
			stmt("i", []int{0, 0}, "0 <= i < n", "A[i] = 0.0").
			stmt("i", []int{0, 1}, "1 <= i < n", "B[i] = A[i - 1]").
			build()
	}, grid(1, 0, 1, 2, 4)},
	{"union", func(t *testing.T) *ir.Program {
		// Statements of one loop with different upper bounds, an equality,
		// a congruence that is not a stride, and a guard on the parameters.
		return newProg(t, "n", "m").
			array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "m").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < n", "A[i][j] = 1.0").
			stmt("i j", []int{0, 0, 1}, "0 <= i < n and 0 <= j < m and m >= 2", "B[i][j] = 2.0").
			stmt("i j", []int{0, 0, 2}, "0 <= i < n and 0 <= j < n and j = i", "A[i][j] += 1.0").
			stmt("i j", []int{0, 0, 3}, "0 <= i < n and 1 <= j < n and i + j % 2 = 0", "A[i][j] *= 2.0").
			build()
	}, grid(2, 0, 1, 2, 3, 5)},
	{"ceild", func(t *testing.T) *ir.Program {
		// Bounds with coefficients: ceil(i/2) <= j <= floor(2n/3).
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and 2*j >= i and 3*j <= 2*n", "A[i][j] = 0.0").
			build()
	}, [][]int64{{0}, {1}, {2}, {3}, {4}, {7}}},
	{"depth0", func(t *testing.T) *ir.Program {
		// Statements outside any loop; the counter is declared before the region.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n").array("s", ir.FuncLocal).array("out", ir.Global).
			vars("i").
			stmt("", []int{0}, "", "s = 0.0").
			stmt("i", []int{1, 0}, "0 <= i < n", "s += A[i]").
			stmt("", []int{2}, "", "out = s * 2.0").
			build()
	}, grid(1, 0, 1, 3)},
	{"scoplocal", func(t *testing.T) *ir.Program {
		// A temporary declared inside the region.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").array("t", ir.ScopLocal).
			stmt("i", []int{0, 0}, "0 <= i < n", "t = A[i] + 1.0").
			stmt("i", []int{0, 1}, "0 <= i < n", "B[i] = t * t").
			build()
	}, grid(1, 0, 1, 3)},
	{"pinnedtile", func(t *testing.T) *ir.Program {
		// lu's innermost loop: S1 runs where j = k, inside the tile of j
		// (two more bounds): it is separated from the ranged statements
		// (before, at and after k), whose loops then have no guard.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("T k j", []int{0, 0, 0, 0}, "0 <= T and 4*T < n and 0 <= k < n and 4*T <= j <= 4*T + 3 and k < j < n", "A[k][j] -= A[k][k]").
			stmt("T k j", []int{0, 0, 0, 1}, "0 <= T and 4*T < n and 0 <= k < n and 4*T <= j <= 4*T + 3 and j = k", "A[k][j] /= 2.0").
			build()
	}, grid(1, 0, 1, 3, 6)},
	{"downpoint", func(t *testing.T) *ir.Program {
		// A loop counting down, one statement pinned to j = 2 (and to
		// j < n): the separated pieces run from the top, j > 2 first.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").
			stmt("-j", []int{0, 0}, "0 <= j < n", "A[j] = A[j] + B[0]").
			stmt("-j", []int{0, 1}, "j = 2 and 0 <= j < n", "B[0] = A[j] * 2.0").
			build()
	}, grid(1, 0, 1, 2, 3, 6)},
	{"fixedpoint", func(t *testing.T) *ir.Program {
		// Statements placed at a fixed point of a dimension, as a schedule
		// does: S0 never reads j (the loop of one iteration disappears),
		// S1 reads it (its loop stays), S2 shares a loop with S3.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").array("x", ir.FuncParam, "n").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and j = 0", "x[i] = 0.0").
			stmt("i j", []int{1, 0, 0}, "0 <= i < n and j = 1", "A[i][j] = 1.0").
			stmt("i j", []int{2, 0, 0}, "0 <= i < n and j = 0", "x[i] += 1.0").
			stmt("i j", []int{2, 0, 1}, "0 <= i < n and 0 <= j < n", "A[i][j] += x[i]").
			build()
	}, grid(1, 0, 1, 3)},
	{"twopoints", func(t *testing.T) *ir.Program {
		// A Cholesky factorization's statements in one band (i, j, k):
		// the update over k < j, the division at k = j, the diagonal's
		// update at k = i. The k loop splits at both points (j first,
		// then i in the part above j), and no piece needs a guard.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < n and 0 <= j < i and 0 <= k < j", "A[i][j] -= A[i][k] * A[j][k]").
			stmt("i j k", []int{0, 0, 0, 1}, "0 <= i < n and 0 <= j < i and k = j", "A[i][j] /= A[j][j]").
			stmt("i j k", []int{0, 0, 0, 2}, "0 <= i < n and 0 <= j < i and k = i", "A[i][i] -= A[i][j] * A[i][j]").
			build()
	}, grid(1, 0, 1, 2, 5)},
	{"manyterms", func(t *testing.T) *ir.Program {
		// Twenty lower bounds of j besides 0, each below 0 wherever i < n
		// (a wavefront of tiles projects such lists: seidel-2d's): all
		// dropped, though there are more than 16.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").
			stmt("i j", []int{0, 0, 0}, "0 <= i < n and 0 <= j < n and 2*j >= i - 1*n - 1 and 3*j >= i - 2*n - 2 and 1*j >= i - 3*n - 3 and 2*j >= i - 4*n - 4 and 3*j >= i - 5*n - 5 and 1*j >= i - 6*n - 6 and 2*j >= i - 7*n - 7 and 3*j >= i - 8*n - 8 and 1*j >= i - 9*n - 9 and 2*j >= i - 10*n - 10 and 3*j >= i - 11*n - 11 and 1*j >= i - 12*n - 12 and 2*j >= i - 13*n - 13 and 3*j >= i - 14*n - 14 and 1*j >= i - 15*n - 15 and 2*j >= i - 16*n - 16 and 3*j >= i - 17*n - 17 and 1*j >= i - 18*n - 18 and 2*j >= i - 19*n - 19 and 3*j >= i - 20*n - 20", "A[i][j] = 0.0").
			build()
	}, grid(1, 0, 1, 4)},
	{"singlesplit", func(t *testing.T) *ir.Program {
		// Two statements of one j loop on either side of j = i, each in a
		// loop of its own of one iteration (k = 0: a dimension they keep
		// constant): the j loop splits at i as it would with no k loops.
		return newProg(t, "n").
			array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "n").
			stmt("i j k", []int{0, 0, 0, 0}, "0 <= i < n and 0 <= j < i and k = 0", "A[i][j] += B[i][j + k]").
			stmt("i j k", []int{0, 0, 1, 0}, "0 <= i < n and i <= j < n and k = 0", "A[i][j] -= B[j][i + k]").
			build()
	}, grid(1, 0, 1, 4)},
}

// grid returns every vector of np values from vals.
func grid(np int, vals ...int64) [][]int64 {
	out := [][]int64{{}}
	for range np {
		var next [][]int64
		for _, v := range out {
			for _, x := range vals {
				next = append(next, append(slices.Clone(v), x))
			}
		}
		out = next
	}
	return out
}

// generate returns the domains of p as comments followed by its C code.
func generate(t *testing.T, p *ir.Program) []byte {
	t.Helper()
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, s := range p.Stmts {
		fmt.Fprintf(&b, "// %s: %s\n", formatDomain(p, s), s.Text)
	}
	b.WriteString("\n")
	if err := PrintC(&b, p, n, "  "); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGolden(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := generate(t, c.prog(t))
			golden := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s mismatch:\n--- want\n%s--- got\n%s", golden, want, got)
			}
		})
	}
}

func needCC(t *testing.T) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler: %v", err)
	}
	return cc
}

// TestTrace compiles the generated code with every statement replaced by a
// printf of its name and counters, runs it, and compares the instances and
// their order with the domain points sorted by ir.Less.
func TestTrace(t *testing.T) {
	cc := needCC(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.prog(t)
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			bin, region := traceBinary(t, cc, p, n)
			for _, vals := range c.params {
				out := runTrace(t, bin, vals)
				if want := expectedTrace(t, p, vals); out != want {
					t.Errorf("params %v: trace mismatch\n%s\n--- want\n%s--- got\n%s", vals, region, want, out)
				}
			}
		})
	}
}

// runTrace runs a binary of traceBinary with parameter values vals and
// returns its trace.
func runTrace(t *testing.T, bin string, vals []int64) string {
	t.Helper()
	var argv []string
	for _, v := range vals {
		argv = append(argv, fmt.Sprint(v))
	}
	out, err := exec.Command(bin, argv...).Output()
	if err != nil {
		t.Fatalf("run %v: %v", vals, err)
	}
	return string(out)
}

// traceBinary compiles loop AST n of p with every statement replaced by a
// printf of its name and counters, as a program taking p's parameters as
// arguments (flags go to the compiler); it returns the executable and the
// printed region.
func traceBinary(t *testing.T, cc string, p *ir.Program, n Node, flags ...string) (string, string) {
	t.Helper()
	var region bytes.Buffer
	trace := func(_ *printer, s *ir.Stmt, _ *Instance, iters []string) string {
		format, args := s.Name, ""
		for _, x := range iters {
			format += " %ld"
			args += ", (long)" + x
		}
		return fmt.Sprintf("printf(\"%s\\n\"%s);", format, args)
	}
	if err := printC(&region, p, n, "  ", trace, PrintOptions{}); err != nil {
		t.Fatal(err)
	}
	var src bytes.Buffer
	src.WriteString("#include <stdio.h>\n#include <stdlib.h>\n\nstatic void kernel(")
	var params, args []string
	for k, q := range p.Params {
		params = append(params, "int "+q.Name)
		args = append(args, fmt.Sprintf("atoi(argv[%d])", k+1))
	}
	if len(params) == 0 {
		params = []string{"void"}
	}
	fmt.Fprintf(&src, "%s) {\n", strings.Join(params, ", "))
	if len(p.Vars) > 0 {
		fmt.Fprintf(&src, "  int %s;\n", strings.Join(p.Vars, ", "))
	}
	fmt.Fprintf(&src, "%s}\n\nint main(int argc, char **argv) {\n  (void)argc;\n  kernel(%s);\n  return 0;\n}\n",
		region.String(), strings.Join(args, ", "))
	return compile(t, cc, src.Bytes(), append(flags, "-O0", "-o")...), region.String()
}

// traceBox bounds the counters enumerated by expectedTrace; no domain of a
// test case may reach it at the parameter values tested.
const traceBox = 20

// expectedTrace enumerates the statement instances of p in [-traceBox,
// traceBox]^d and prints them in the order of ir.Less.
func expectedTrace(t *testing.T, p *ir.Program, params []int64) string {
	type inst struct {
		s  *ir.Stmt
		it []int64
	}
	var all []inst
	for _, s := range p.Stmts {
		it := make([]int64, s.Depth())
		var rec func(k int)
		rec = func(k int) {
			if k == len(it) {
				in, ok := s.Domain.Contains(it, params)
				if !ok {
					t.Fatal("overflow")
				}
				if in {
					if slices.ContainsFunc(it, func(x int64) bool { return x == traceBox || x == -traceBox }) {
						t.Fatalf("%s reaches the box at %v", s.Name, it)
					}
					all = append(all, inst{s, slices.Clone(it)})
				}
				return
			}
			for v := int64(-traceBox); v <= traceBox; v++ {
				it[k] = v
				rec(k + 1)
			}
		}
		rec(0)
	}
	slices.SortStableFunc(all, func(a, b inst) int {
		switch {
		case ir.Less(a.s, a.it, b.s, b.it):
			return -1
		case ir.Less(b.s, b.it, a.s, a.it):
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, x := range all {
		b.WriteString(x.s.Name)
		for _, v := range x.it {
			fmt.Fprintf(&b, " %d", v)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestWarnings compiles the generated code of every case inside a function
// with gcc's -Wall -Wextra and fails on any warning.
func TestWarnings(t *testing.T) {
	cc := needCC(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.prog(t)
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			var src bytes.Buffer
			params := []string{}
			for _, q := range p.Params {
				params = append(params, "int "+q.Name)
			}
			names := ir.Names{Param: ir.ParamNames(p)}
			for _, a := range p.Arrays {
				switch {
				case a.Storage == ir.ScopLocal:
				case a.Rank() == 0:
					fmt.Fprintf(&src, "%s %s;\n", a.Elem, a.Name)
				default:
					decl := a.Elem.String() + " " + a.Name
					for _, d := range a.Dims {
						decl += "[" + ir.FormatAff(d, names) + "]"
					}
					params = append(params, decl)
				}
			}
			fmt.Fprintf(&src, "\nvoid kernel(%s) {\n", strings.Join(params, ", "))
			if len(p.Vars) > 0 {
				fmt.Fprintf(&src, "  int %s;\n", strings.Join(p.Vars, ", "))
			}
			if err := PrintC(&src, p, n, "  "); err != nil {
				t.Fatal(err)
			}
			src.WriteString("}\n")
			compile(t, cc, src.Bytes(), "-O2", "-Wall", "-Wextra", "-Werror", "-c", "-o")
		})
	}
}

// compile compiles src with cc -std=c99 and the flags (the last one takes
// the output path) and returns the output path.
func compile(t *testing.T, cc string, src []byte, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.c"), filepath.Join(dir, "k")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-std=c99"}, flags...)
	args = append(args, out, in, "-lm")
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s\n%s", cc, args, err, msg, src)
	}
	return out
}

// formatDomain prints the domain of s like ir.FormatDomain, which cannot
// print domains with locals yet (ir.StmtNames indexes the names of locals
// before it has made them).
func formatDomain(p *ir.Program, s *ir.Stmt) string {
	n := ir.Names{Iter: s.Iters, Param: ir.ParamNames(p), Local: make([]string, len(s.Domain.Divs))}
	for l, d := range s.Domain.Divs {
		n.Local[l] = fmt.Sprintf("floor((%s)/%d)", ir.FormatAff(d.Num, n), d.Den)
	}
	var cons []string
	for _, c := range s.Domain.Cons {
		cons = append(cons, ir.FormatConstraint(c, n))
	}
	dom := ""
	if len(cons) > 0 {
		dom = " : " + strings.Join(cons, " and ")
	}
	return fmt.Sprintf("[%s] -> { %s[%s]%s }", strings.Join(n.Param, ", "), s.Name, strings.Join(s.Iters, ", "), dom)
}

func TestPragmas(t *testing.T) {
	p := cases[0].prog(t)
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	outer := n.Body[0].(*Loop)
	outer.Pragmas = []string{"omp parallel for"}
	inner := outer.Body[0].(*Loop).Body[0].(*Loop)
	inner.Pragmas = []string{"omp simd"}
	var b bytes.Buffer
	if err := PrintC(&b, p, n, ""); err != nil {
		t.Fatal(err)
	}
	// The pragma stays on the loop, inside the block that keeps C[i][j]
	// in a variable (scalar replacement); it forks when the loop nest's
	// iterations reach what pays for a fork (forkLeast).
	want := fmt.Sprintf("#pragma omp parallel for if((ni) >= 2 && (double)(ni) * (nj) * (nk) >= %d)\n", testLeast(p, outer)) +
		`for (int i = 0; i < ni; i++)
  for (int j = 0; j < nj; j++) {
    if (nk >= 1) {
      double C_r = C[i][j];
      #pragma omp simd
      for (int k = 0; k < nk; k++)
        C_r += alpha * A[i][k] * B[k][j];
      C[i][j] = C_r;
    }
  }
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestUnbounded(t *testing.T) {
	p := newProg(t, "n").array("A", ir.FuncParam, "n").
		stmt("i", []int{0, 0}, "i < n", "A[i] = 0.0").build()
	_, err := Build(p)
	if err == nil || !strings.HasPrefix(err.Error(), "codegen: ") {
		t.Fatalf("Build of an unbounded loop: %v", err)
	}
}

// TestBodyRegisterLoad checks that an element kept in a variable for one
// iteration starts with its value when the body's first statement writes
// another array (fdtd-2d once read such a variable uninitialized).
func TestBodyRegisterLoad(t *testing.T) {
	p := newProg(t, "n").
		array("A", ir.FuncParam, "n").array("B", ir.FuncParam, "n").array("C", ir.FuncParam, "n").
		stmt("i", []int{0, 0}, "0 <= i < n", "B[i] = 2.0").
		stmt("i", []int{0, 1}, "0 <= i < n", "A[i] = A[i] + 1.0").
		stmt("i", []int{0, 2}, "0 <= i < n", "C[i] = A[i] * 3.0").
		build()
	got := string(generate(t, p))
	if !strings.Contains(got, "double A_r = A[i];") {
		t.Errorf("A[i] is not loaded into its variable:\n%s", got)
	}
}

// TestTraceFloorBounds traces loops whose bounds are floors of
// parameters and counters (a hand-unrolled loop's remainder, i from
// 4⌊n/4⌋, and its main part below it): the exact bound stays a guard,
// the loop gets the bound it implies without the floor.
func TestTraceFloorBounds(t *testing.T) {
	cc := needCC(t)
	src := `void k(int n, double y[100]) {
  int i, j;
#pragma scop
  for (i = 0; i < 4 * (n / 4); i++)
    y[i] = y[i] + 1.0;
  for (i = 4 * (n / 4); i < n; i++)
    y[i] = y[i] * 2.0;
  for (i = 0; i < n; i++)
    for (j = 3 * (i / 3); j <= i; j++)
      y[j] = y[j] + y[i];
  for (i = 0; i < n; i++)
    for (j = i; j < 2 * ((i + n) / 2); j++)
      y[j] = y[j] - 1.0;
#pragma endscop
}
`
	f, err := frontend.Parse("floor.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Scops[0].Prog
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	bin, region := traceBinary(t, cc, p, n)
	for _, v := range []int64{-5, 0, 1, 3, 4, 5, 7, 8, 11} {
		out, err := exec.Command(bin, fmt.Sprint(v)).Output()
		if err != nil {
			t.Fatalf("run n = %d: %v", v, err)
		}
		if want := expectedTrace(t, p, []int64{v}); string(out) != want {
			t.Errorf("n = %d: trace mismatch\n%s\n--- want\n%s--- got\n%s", v, region, want, out)
		}
	}
}
