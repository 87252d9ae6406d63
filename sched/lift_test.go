package sched

import (
	"errors"
	"fmt"
	"testing"

	"nestor/deps"
	"nestor/frontend"
	"nestor/ir"
	"nestor/poly"
)

// Constant-size programs of the shapes Pluto's test suite writes with
// #define sizes; %d is the size, %[2]d the time steps where there are.
var liftPrograms = map[string]string{
	"lu": `double a[%d][%[1]d];
void kernel(void) {
#pragma scop
  for (int k = 0; k < %[1]d; k++) {
    for (int j = k + 1; j < %[1]d; j++)
      a[k][j] = a[k][j] / a[k][k];
    for (int i = k + 1; i < %[1]d; i++)
      for (int j = k + 1; j < %[1]d; j++)
        a[i][j] = a[i][j] - a[i][k] * a[k][j];
  }
#pragma endscop
}
`,
	"jacobi-1d-imper": `double a[%d], b[%[1]d];
void kernel(void) {
#pragma scop
  for (int t = 0; t < %[2]d; t++) {
    for (int i = 2; i < %[1]d - 1; i++)
      b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
    for (int i = 2; i < %[1]d - 1; i++)
      a[i] = b[i];
  }
#pragma endscop
}
`,
	"fdtd-2d": `double ex[%d][%[1]d], ey[%[1]d][%[1]d], hz[%[1]d][%[1]d];
void kernel(void) {
#pragma scop
  for (int t = 0; t < %[2]d; t++) {
    for (int j = 0; j < %[1]d; j++)
      ey[0][j] = t;
    for (int i = 1; i < %[1]d; i++)
      for (int j = 0; j < %[1]d; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < %[1]d; i++)
      for (int j = 1; j < %[1]d; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < %[1]d - 1; i++)
      for (int j = 0; j < %[1]d - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}
`,
}

func liftProgram(t *testing.T, name string, n, steps int) *ir.Program {
	t.Helper()
	src := fmt.Sprintf(liftPrograms[name], n, steps)
	f, err := frontend.Parse(name+".c", []byte(src), frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return f.Scops[0].Prog
}

// TestLiftOverflow checks that programs whose constant sizes overflow
// the exact arithmetic get a schedule through their lifted copy, and
// that the schedule can be laid out.
func TestLiftOverflow(t *testing.T) {
	for _, c := range []struct {
		name     string
		n, steps int
	}{{"lu", 500, 0}, {"jacobi-1d-imper", 2000000, 1000}, {"fdtd-2d", 4000, 1000}} {
		t.Run(c.name, func(t *testing.T) {
			p := liftProgram(t, c.name, c.n, c.steps)
			g, err := deps.Analyze(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := compute(p, g, Options{}, poly.NewWork(DefaultBudget)); !errors.Is(err, poly.ErrOverflow) {
				t.Skipf("no overflow without lifting (%v): the test no longer exercises lifting", err)
			}
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Lifted == 0 {
				t.Fatal("Compute succeeded without lifting after an overflow")
			}
			for _, rows := range sc.Rows {
				for _, r := range rows {
					if len(r.Param) != len(p.Params) {
						t.Fatalf("lowered row has %d parameters, the program %d", len(r.Param), len(p.Params))
					}
				}
			}
			if _, _, err := ApplyPlan(p, sc, Plan{Tile: true, Reorder: true, Wavefront: true}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLiftedScheduleRuns schedules small constant-size programs through
// their lifted copies (forced: they do not overflow) and runs the result
// against the original in the interpreter.
func TestLiftedScheduleRuns(t *testing.T) {
	for _, c := range []struct {
		name     string
		n, steps int
	}{{"lu", 13, 0}, {"jacobi-1d-imper", 40, 12}, {"fdtd-2d", 11, 10}} {
		t.Run(c.name, func(t *testing.T) {
			p := liftProgram(t, c.name, c.n, c.steps)
			sc, err := computeLifted(p, Options{}, poly.NewWork(DefaultBudget), errors.New("forced"))
			if err != nil {
				t.Fatal(err)
			}
			if sc.Lifted == 0 {
				t.Fatal("nothing lifted")
			}
			q, err := Apply(p, sc)
			if err != nil {
				t.Fatalf("%v\n%s", err, Format(p, sc))
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			runBoth(t, p, q, nil)
			tiled, _, err := ApplyPlan(p, sc, Plan{Tile: true, Reorder: true, Wavefront: true, Sizes: []int64{4, 3, 5}})
			if err != nil {
				t.Fatal(err)
			}
			runBoth(t, p, tiled, nil)
		})
	}
}

// TestLiftConstants checks the lifted copy term by term: at the values the
// new parameters stand for, every lifted form equals the original one, and
// nearby constants share a parameter.
func TestLiftConstants(t *testing.T) {
	p := liftProgram(t, "jacobi-1d-imper", 4000, 100)
	q, l, ok := LiftConstants(p)
	if !ok {
		t.Fatal("nothing lifted")
	}
	if len(l.Values) != 2 {
		t.Fatalf("lifted into %d parameters %v, want 2 (one for 4000 − 1 and 4000 − 2, one for 100)", len(l.Values), l.Values)
	}
	params := append(make([]int64, len(p.Params)), l.Values...)
	same := func(a, b ir.Aff) {
		t.Helper()
		x, _ := a.Eval(make([]int64, len(a.Iter)), params[:len(p.Params)], make([]int64, len(a.Local)))
		y, _ := b.Eval(make([]int64, len(b.Iter)), params, make([]int64, len(b.Local)))
		if x != y {
			t.Fatalf("lifted form %+v is %d at the lifted values, the original %+v is %d", b, y, a, x)
		}
		if y := b.Const; y > liftMin+liftSpread || y < -(liftMin+liftSpread) {
			t.Fatalf("lifted form %+v keeps a large constant", b)
		}
	}
	for k, s := range p.Stmts {
		for j, c := range s.Domain.Cons {
			same(c.Aff, q.Stmts[k].Domain.Cons[j].Aff)
		}
		for j, a := range s.Accesses {
			for i, x := range a.Index {
				same(x, q.Stmts[k].Accesses[j].Index[i])
			}
		}
	}
}
