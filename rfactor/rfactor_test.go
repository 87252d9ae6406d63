package rfactor

import (
	"slices"
	"strings"
	"testing"

	"nestor/assoc"
	"nestor/frontend"
	"nestor/internal/assoctables"
	"nestor/ir"
)

// program parses a C function whose region is body, with the
// declarations decl.
func program(t *testing.T, decl, body string) *ir.Program {
	t.Helper()
	src := "#include <math.h>\nvoid f(int n, double a[1000], double b[1000], int c[1000], double out[4], int iout[4]) {\n  int i, j;\n  " +
		decl + "\n#pragma scop\n" + body + "\n#pragma endscop\n}\n"
	f, err := frontend.Parse("k.c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return f.Scops[0].Prog
}

func tables(t *testing.T) func(assoc.Type) (*assoc.Table, error) {
	t.Helper()
	if _, err := assoctables.Tables(assoc.Int32); err != nil {
		t.Skipf("no tables: %v", err)
	}
	return assoctables.Tables
}

// TestFind checks which loops are reduction loops, their variables,
// temporaries and updates, and why the others are not.
func TestFind(t *testing.T) {
	for _, tc := range []struct {
		name, decl, body string
		vars, temps      []string
		update           string // the tuple, or the reason of the reject
	}{
		{"sum of squares", "double s;", "for (i = 0; i < n; i++) s += a[i] * a[i];",
			[]string{"s"}, nil, "x + a[i] * a[i]"},
		{"argmin", "double m; int k;", "for (i = 0; i < n; i++) if (a[i] < m) { m = a[i]; k = i; }",
			[]string{"m", "k"}, []string{"nestor_cond"}, "{select(a[i] < x0, a[i], x0), select(a[i] < x0, i, x1)}"},
		{"min and max", "double lo, hi;", "for (i = 0; i < n; i++) { lo = fmin(lo, a[i]); hi = fmax(hi, a[i]); }",
			[]string{"lo", "hi"}, nil, "{min(x0, a[i]), max(x1, a[i])}"},
		{"complex product", "double pr, pi, t;", "for (i = 0; i < n; i++) { t = pr * a[i] - pi * b[i]; pi = pr * b[i] + pi * a[i]; pr = t; }",
			[]string{"pr", "pi"}, []string{"t"}, "{x0 * a[i] - x1 * b[i], x0 * b[i] + x1 * a[i]}"},
		{"array element", "", "for (i = 0; i < n; i++) for (j = 0; j < n; j++) out[1] += a[j];",
			[]string{"out[1]"}, nil, "x + a[j]"},
		{"row sums", "", "for (i = 0; i < 4; i++) for (j = 0; j < n; j++) iout[i] += c[j];",
			[]string{"iout[i]"}, nil, "x + c[j]"},
		{"invariant input", "double s;", "for (i = 0; i < 4; i++) for (j = 0; j < n; j++) s = s + a[i] * a[j];",
			[]string{"s"}, nil, "x + a[i] * a[j]"},
		// A scan is no reduction, and no reduction loop rejected either.
		{"prefix sum", "double s;", "for (i = 1; i < n; i++) { s += a[i]; b[i] = s; }",
			nil, nil, ""},
		{"two elements", "", "for (i = 1; i < n; i++) { out[0] += a[i]; out[1] += out[0]; }",
			nil, nil, "it accesses several elements of out"},
	} {
		p := program(t, tc.decl, tc.body)
		loops, rejects := Find(p, nil)
		if tc.vars == nil {
			nrej := 1
			if tc.update == "" {
				nrej = 0
			}
			if len(loops) != 0 || len(rejects) != nrej || nrej > 0 && !strings.Contains(rejects[0].Why, tc.update) {
				t.Errorf("%s: loops %d, rejects %v; want %d reject %q", tc.name, len(loops), rejects, nrej, tc.update)
			}
			continue
		}
		if len(loops) != 1 {
			t.Errorf("%s: %d reduction loops (rejects %v), want 1", tc.name, len(loops), rejects)
			continue
		}
		l := loops[0]
		var vars, temps []string
		for _, v := range l.Vars {
			vars = append(vars, element(p, l, v))
		}
		for _, a := range l.Temps {
			temps = append(temps, p.Arrays[a].Name)
		}
		if strings.Join(vars, " ") != strings.Join(tc.vars, " ") || strings.Join(temps, " ") != strings.Join(tc.temps, " ") {
			t.Errorf("%s: variables %v temporaries %v, want %v %v", tc.name, vars, temps, tc.vars, tc.temps)
		}
		tp, _, _, err := l.Tuple(p)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := plain(tp.String()); got != tc.update {
			t.Errorf("%s: update %s, want %s", tc.name, got, tc.update)
		}
	}
}

// element prints a reduction variable's element.
func element(p *ir.Program, l *Loop, a *ir.Access) string {
	s := p.Arrays[a.Array].Name
	for _, x := range a.Index {
		s += "[" + ir.FormatAff(x, ir.Names{Iter: p.Stmts[l.Stmts[0]].Iters, Param: ir.ParamNames(p)}) + "]"
	}
	return s
}

// plain returns s: names of values carry no types unless two collide.
func plain(s string) string { return s }

// TestFactor checks what assoc recognizes and how it is factored, and
// that the non-associative updates stay sequential with a reason.
func TestFactor(t *testing.T) {
	tb := tables(t)
	for _, tc := range []struct {
		name, decl, body string
		real             bool
		want             string // "factored: ..." or a part of the reason
		clause           string
		unsigned         bool // partial results in the unsigned type
	}{
		{"int sum", "int s;", "for (i = 0; i < n; i++) s += c[i];", false,
			"factored: operator x + y (commutative; identity)", "", true},
		{"long sum of products", "long s;", "for (i = 0; i < n; i++) s = s + c[i] * c[i];", false,
			"factored: operator x + y (commutative; identity)", "", true},
		{"int max", "int s;", "for (i = 0; i < n; i++) s = c[i] > s ? c[i] : s;", false,
			"factored: operator max(x, y) (commutative; identity)", "max", false},
		{"int argmin", "int m, k;", "for (i = 0; i < n; i++) if (c[i] < m) { m = c[i]; k = i; }", false,
			"not commutative: combined in thread order; no identity", "", false},
		{"float sum without --assoc-math", "double s;", "for (i = 0; i < n; i++) s += a[i];", false,
			"stays", "", false},
		{"float sum", "double s;", "for (i = 0; i < n; i++) s += a[i];", true,
			"factored: operator x + y (commutative; identity)", "", false},
		{"min and max", "double lo, hi;", "for (i = 0; i < n; i++) { lo = fmin(lo, a[i]); hi = fmax(hi, a[i]); }", false,
			"factored: operator {min(x0, y0), max(x1, y1)} (commutative; identity)", "", false},
		// x - in is x + y with y = -in (assoc's synthesis of the input map).
		{"difference", "double s;", "for (i = 0; i < n; i++) s = s - a[i];", true,
			"factored: operator x + y (commutative; identity)", "", false},
		{"int difference", "int s;", "for (i = 0; i < n; i++) s = s - c[i];", false,
			"factored: operator x + y (commutative; identity)", "", true},
		{"difference without --assoc-math", "double s;", "for (i = 0; i < n; i++) s = s - a[i];", false,
			"stays", "", false},
		{"reversed difference", "int s;", "for (i = 0; i < n; i++) s = c[i] - s;", false,
			"stays", "", false},
		{"kahan", "double s, cc, y, t;", "for (i = 0; i < n; i++) { y = a[i] - cc; t = s + y; cc = (t - s) - y; s = t; }", true,
			"stays", "", false},
	} {
		p := program(t, tc.decl, tc.body)
		ds := Factor(p, nil, Options{Real: tc.real, Tables: tb})
		if len(ds) != 1 {
			t.Errorf("%s: %d decisions, want 1", tc.name, len(ds))
			continue
		}
		d := ds[0]
		if tc.want == "stays" {
			if d.Reduction != nil || !strings.HasPrefix(d.Why, "not ") {
				t.Errorf("%s: %s; want it sequential, not associative or not recognized", tc.name, d.Why)
			}
			continue
		}
		if d.Reduction == nil || !strings.Contains(d.Why, tc.want) {
			t.Errorf("%s: %s; want %s", tc.name, d.Why, tc.want)
			continue
		}
		if d.Reduction.Clause != tc.clause {
			t.Errorf("%s: clause %q, want %q", tc.name, d.Reduction.Clause, tc.clause)
		}
		if got := slices.Contains(d.Reduction.Unsigned, true); got != tc.unsigned {
			t.Errorf("%s: unsigned partial results %v, want %v", tc.name, got, tc.unsigned)
		}
	}
}

// TestParallelLoops checks that loops inside parallel loops are left
// alone: their parallelism is used outside.
func TestParallelLoops(t *testing.T) {
	p := program(t, "", "for (i = 0; i < 4; i++) for (j = 0; j < n; j++) iout[i] += c[j];")
	if loops, _ := Find(p, func(level int) bool { return level == 0 }); len(loops) != 0 {
		t.Errorf("%d reduction loops inside a parallel loop, want 0", len(loops))
	}
}
