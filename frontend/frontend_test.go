package frontend

import (
	"fmt"
	"strings"
	"testing"

	"nestor/ir"
)

// parseOne parses src as test.c and returns its only scop.
func parseOne(t *testing.T, src string) *Scop {
	t.Helper()
	f, err := Parse("test.c", []byte(src), Config{})
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(f.Scops) != 1 {
		t.Fatalf("%d scops, want 1", len(f.Scops))
	}
	if err := ir.Check(f.Scops[0].Prog); err != nil {
		t.Fatal(err)
	}
	return f.Scops[0]
}

// summary prints each statement's domain, beta, directions, accesses and
// body, one per line.
func summary(p *ir.Program) string {
	var b strings.Builder
	for _, s := range p.Stmts {
		n := ir.StmtNames(p, s)
		n.Local = nil
		var accs []string
		for _, a := range s.Accesses {
			var idx []string
			for _, e := range a.Index {
				idx = append(idx, "["+ir.FormatAff(e, n)+"]")
			}
			w := ""
			if a.Write {
				w = "w:"
			}
			accs = append(accs, w+p.Arrays[a.Array].Name+strings.Join(idx, ""))
		}
		fmt.Fprintf(&b, "%s beta=%v dir=%v acc=%s %s %s\n", ir.FormatDomain(p, s), s.Beta, s.Dir,
			strings.Join(accs, ","), s.Op, formatTyped(s.RHS, s.Iters, p))
	}
	return b.String()
}

// formatTyped prints e with every node's type, casts shown.
func formatTyped(e ir.Expr, iters []string, p *ir.Program) string {
	switch e := e.(type) {
	case *ir.Const:
		return ir.FormatConst(e) + ":" + e.T.String()
	case *ir.Load:
		return fmt.Sprintf("L%d:%s", e.Access, e.T)
	case *ir.IterRef:
		return iters[e.Level] + ":" + e.T.String()
	case *ir.ParamRef:
		return p.Params[e.Param].Name + ":" + e.T.String()
	case *ir.Unary:
		return fmt.Sprintf("(%s%s):%s", e.Op, formatTyped(e.X, iters, p), e.T)
	case *ir.Binary:
		return fmt.Sprintf("(%s %s %s):%s", formatTyped(e.X, iters, p), e.Op, formatTyped(e.Y, iters, p), e.T)
	case *ir.Cast:
		k := "cast"
		if e.Implicit {
			k = "conv"
		}
		return fmt.Sprintf("%s<%s>(%s)", k, e.T, formatTyped(e.X, iters, p))
	case *ir.Call:
		var as []string
		for _, a := range e.Args {
			as = append(as, formatTyped(a, iters, p))
		}
		return e.Fn + "(" + strings.Join(as, ", ") + "):" + e.T.String()
	case *ir.Cond:
		return fmt.Sprintf("(%s ? %s : %s):%s", formatTyped(e.C, iters, p), formatTyped(e.X, iters, p), formatTyped(e.Y, iters, p), e.T)
	}
	return "?"
}

var translateTests = []struct {
	name, src, want string
}{
	{
		// The basic shape: a VLA parameter, a scalar parameter, compound assignment.
		"gemv",
		`void f(int n, int m, double alpha, double A[n][m], double x[m], double y[n]) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < m; j++)
      y[i] += alpha * A[i][j] * x[j];
#pragma endscop
}`,
		`[n, m] -> { S0[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= m - 1 } beta=[0 0 0] dir=[1 1] acc=w:y[i],y[i],alpha,A[i][j],x[j] += ((L2:double * L3:double):double * L4:double):double
`,
	},
	{
		// A decreasing loop gets Dir -1; <= and >= bounds.
		"decreasing",
		`void f(int n, double x[n]) {
#pragma scop
  for (int i = n - 1; i >= 1; i--)
    x[i] = x[i-1];
#pragma endscop
}`,
		`[n] -> { S0[i] : i <= n - 1 and i >= 1 } beta=[0 0] dir=[-1] acc=w:x[i],x[i - 1] = L1:double
`,
	},
	{
		// Stride 2: a Div local q = floor(i/2) with i - 2q = 0.
		"stride",
		`void f(int n, double x[n]) {
#pragma scop
  for (int i = 1; i < n; i += 2)
    x[i] = 0;
#pragma endscop
}`,
		`[n] -> { S0[i] : i >= 1 and i = 2*floor((i - 1)/2) + 1 and i <= n - 1 } beta=[0 0] dir=[1] acc=w:x[i] = conv<double>(0:int)
`,
	},
	{
		// min through a macro, max as a lower bound, both through ?:.
		"minmax",
		`#define MIN(a,b) ((a) < (b) ? (a) : (b))
#define MAX(a,b) ((a) > (b) ? (a) : (b))
void f(int n, int m, float x[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++)
    for (int j = MAX(0, i - 2); j <= MIN(i + 2, m); j++)
      x[i][j] = 1.5f;
#pragma endscop
}`,
		`[n, m] -> { S0[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j >= i - 2 and j <= i + 2 and j <= m } beta=[0 0 0] dir=[1 1] acc=w:x[i][j] = 1.5f:float
`,
	},
	{
		// An if guard with && and ==, an if/else on one inequality, betas.
		"guards",
		`void f(int n, int x[n][n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++)
      if (i <= j && 2*j <= n && j == 2)
        x[i][j] = i + j;
    if (i >= 3)
      x[i][i] = 1;
    else
      x[i][0] = 2;
  }
#pragma endscop
}`,
		`[n] -> { S0[i, j] : i >= 0 and i <= n - 1 and j >= 0 and j <= n - 1 and j >= i and 2*j <= n and j = 2 } beta=[0 0 0] dir=[1 1] acc=w:x[i][j] = (i:int + j:int):int
[n] -> { S1[i] : i >= 0 and i <= n - 1 and i >= 3 } beta=[0 1] dir=[1] acc=w:x[i][i] = 1:int
[n] -> { S2[i] : i >= 0 and i <= n - 1 and i <= 2 } beta=[0 2] dir=[1] acc=w:x[i][0] = 2:int
`,
	},
	{
		// A declaration in the region becomes an assignment to a region-local scalar.
		"decl",
		`void f(int n, double x[n], double y[n]) {
#pragma scop
  for (int i = 0; i < n; i++) {
    double t = x[i] * 2;
    y[i] = t + t;
  }
#pragma endscop
}`,
		`[n] -> { S0[i] : i >= 0 and i <= n - 1 } beta=[0 0] dir=[1] acc=w:t,x[i] = (L1:double * conv<double>(2:int)):double
[n] -> { S1[i] : i >= 0 and i <= n - 1 } beta=[0 1] dir=[1] acc=w:y[i],t = (L1:double + L1:double):double
`,
	},
	{
		// Floor division in a bound: i <= n/2 is 2i <= n.
		"floordiv",
		`void f(int n, double x[n]) {
#pragma scop
  for (int i = 0; i <= n / 2; i++)
    x[i] = sqrt(x[2*i]);
#pragma endscop
}`,
		`[n] -> { S0[i] : i >= 0 and 2*i <= n } beta=[0 0] dir=[1] acc=w:x[i],x[2*i] = sqrt(L1:double):double
`,
	},
	{
		// Usual arithmetic conversions: int, unsigned char, float and long.
		"types",
		`void f(int n, unsigned char c[n], float s[n], long l) {
#pragma scop
  for (int i = 0; i < n; i++)
    s[i] = c[i] * i + s[i] / l - (double)c[i] + (i < n) + fabsf(s[i]);
#pragma endscop
}`,
		`[n, l] -> { S0[i] : i >= 0 and i <= n - 1 } beta=[0 0] dir=[1] acc=w:s[i],c[i],s[i] = conv<float>((((conv<double>((conv<float>((conv<int>(L1:unsigned char) * i:int):int) + (L2:float / conv<float>(l:long)):float):float) - cast<double>(L1:unsigned char)):double + conv<double>((i:int < n:int):int)):double + conv<double>(fabsf(L2:float):float)):double)
`,
	},
}

func TestTranslate(t *testing.T) {
	for _, tc := range translateTests {
		t.Run(tc.name, func(t *testing.T) {
			src := "#include <math.h>\n" + tc.src + "\n"
			s := parseOne(t, src)
			got := summary(s.Prog)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
