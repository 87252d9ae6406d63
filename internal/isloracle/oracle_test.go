package isloracle

import (
	"context"
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"nestor/frontend"
	"nestor/ir"
)

// corpusDir holds the kernel corpus.
const corpusDir = "../../testdata/kernels"

var corpusCfg = frontend.Config{IncludePaths: []string{corpusDir}, Defines: []string{"MINI_DATASET"}}

func newOracle(t testing.TB) *Oracle {
	t.Helper()
	o, err := New(context.Background())
	if errors.Is(err, ErrUnavailable) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// corpus returns the programs of the kernel corpus by kernel name.
func corpus(t testing.TB) map[string]*ir.Program {
	files, _ := filepath.Glob(filepath.Join(corpusDir, "*.c"))
	if len(files) == 0 {
		t.Skip("no kernel corpus in " + corpusDir)
	}
	progs := map[string]*ir.Program{}
	for _, path := range files {
		f, err := frontend.ParseFile(path, corpusCfg)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(f.Scops) != 1 {
			t.Fatalf("%s: %d scops, want 1", path, len(f.Scops))
		}
		progs[strings.TrimSuffix(filepath.Base(path), ".c")] = f.Scops[0].Prog
	}
	return progs
}

func sortedKeys(m map[string]*ir.Program) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// hasPair reports whether relation rel holds a pair from statement s to t.
func hasPair(rel, s, t string) bool {
	return regexp.MustCompile(`\b` + s + `\[[^\]]*\] -> ` + t + `\[`).MatchString(rel)
}

// isEmpty reports whether rel prints as the empty union map.
func isEmpty(rel string) bool {
	_, body, _ := strings.Cut(rel, "{")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(body), "}")) == ""
}

// TestCorpus computes the dependences of every kernel and checks that isl
// finds its own answer equal to itself, and a few known dependences.
func TestCorpus(t *testing.T) {
	o := newOracle(t)
	progs := corpus(t)
	var times []time.Duration
	for _, name := range sortedKeys(progs) {
		t.Run(name, func(t *testing.T) {
			m := Describe(progs[name])
			r, err := o.Deps(m)
			if err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Duration(r.Nanos))
			for _, k := range Kinds {
				if !strings.Contains(r.Kind(k), "{") {
					t.Errorf("%s: %q is not a union map", k, r.Kind(k))
				}
			}
			if testing.Verbose() {
				for _, s := range m.Stmts {
					t.Logf("%s\n  W %v\n  R %v\n  %s", s.Domain, s.Writes, s.Reads, s.Schedule)
				}
				t.Logf("flow %s\nanti %s\noutput %s\n%v", r.Flow, r.Anti, r.Output, time.Duration(r.Nanos))
			}
			eq, diff, err := o.EqualDiff(m, r)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range Kinds {
				if !eq[k] {
					t.Errorf("%s: isl's own answer is not equal to itself:\n%s", k, diff[k])
				}
			}
		})
	}
	if len(times) > 0 {
		slices.Sort(times)
		t.Logf("isl dependence time per kernel: median %v, max %v", times[len(times)/2], times[len(times)-1])
	}
}

// TestKnown checks dependences every reader of the kernels knows.
func TestKnown(t *testing.T) {
	o := newOracle(t)
	progs := corpus(t)
	deps := func(name string) Relations {
		t.Helper()
		p, ok := progs[name]
		if !ok {
			t.Fatalf("no kernel %s", name)
		}
		r, err := o.Deps(Describe(p))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	gemm := deps("gemm") // S0: C[i][j] *= beta; S1: C[i][j] += alpha*A[i][k]*B[k][j]
	for _, pair := range [][2]string{{"S0", "S1"}, {"S1", "S1"}} {
		if !hasPair(gemm.Flow, pair[0], pair[1]) {
			t.Errorf("gemm: no flow %s -> %s in %s", pair[0], pair[1], gemm.Flow)
		}
	}
	if hasPair(gemm.Flow, "S1", "S0") {
		t.Errorf("gemm: flow S1 -> S0 in %s", gemm.Flow)
	}
	jac := deps("jacobi-1d") // S0 writes B from A, S1 writes A from B, in a time loop
	for _, pair := range [][2]string{{"S0", "S1"}, {"S1", "S0"}} {
		if !hasPair(jac.Flow, pair[0], pair[1]) {
			t.Errorf("jacobi-1d: no flow %s -> %s in %s", pair[0], pair[1], jac.Flow)
		}
	}
}

// TestWrong checks that Equal rejects relations that differ from isl's.
func TestWrong(t *testing.T) {
	o := newOracle(t)
	m := Describe(corpus(t)["gemm"])
	r, err := o.Deps(m)
	if err != nil {
		t.Fatal(err)
	}
	tooFew := r
	tooFew.Flow = strings.Replace(r.Flow, " : ", " : i = 0 and ", 1)
	tooMany := r
	tooMany.Anti = strings.Replace(r.Anti, "k' > k", "k' >= k", 1) // adds S1[i, j, k] -> S1[i, j, k]
	if tooMany.Anti == r.Anti {
		t.Fatalf("gemm anti %s has no k' > k", r.Anti)
	}
	none := r
	none.Output = ""
	for _, c := range []struct {
		r    Relations
		kind string
	}{{tooFew, "flow"}, {tooMany, "anti"}, {none, "output"}} {
		eq, diff, err := o.EqualDiff(m, c.r)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range Kinds {
			if eq[k] != (k != c.kind) {
				t.Errorf("wrong %s: Equal says %s is %v", c.kind, k, eq[k])
			}
		}
		if diff[c.kind] == "" {
			t.Errorf("wrong %s: no difference described", c.kind)
		}
	}
}

// aff returns an affine form over one counter and one parameter.
func aff(iter, param, c int64, locals ...int64) ir.Aff {
	return ir.Aff{Iter: []int64{iter}, Param: []int64{param}, Local: locals, Const: c}
}

// loop returns the program "for (i = 0; i < n; i++) write = read", the
// loop running in direction dir over the points cons allow.
func loop(dir int, divs []ir.Div, cons []ir.Constraint, write, read ir.Access) *ir.Program {
	return &ir.Program{
		Params: []ir.Param{{Name: "n", Type: ir.Int}},
		Arrays: []*ir.Array{{Name: "A", Elem: ir.Double, Dims: []ir.Aff{{Param: []int64{1}}}},
			{Name: "B", Elem: ir.Double, Dims: []ir.Aff{{Param: []int64{1}}}}, {Name: "x", Elem: ir.Double}},
		Stmts: []*ir.Stmt{{Name: "S0", Iters: []string{"i"}, Dir: []int{dir}, Beta: []int{0, 0},
			Domain: ir.Domain{Divs: divs, Cons: cons}, Accesses: []*ir.Access{&write, &read},
			RHS: &ir.Load{T: ir.Double, Access: 1}}},
	}
}

// TestCopy checks that B[i] = A[i] has no dependence at all.
func TestCopy(t *testing.T) {
	o := newOracle(t)
	p := loop(1, nil, []ir.Constraint{{Aff: aff(1, 0, 0)}, {Aff: aff(-1, 1, -1)}},
		ir.Access{Array: 1, Write: true, Index: []ir.Aff{{Iter: []int64{1}, Param: []int64{0}}}},
		ir.Access{Array: 0, Index: []ir.Aff{{Iter: []int64{1}, Param: []int64{0}}}})
	if err := ir.Check(p); err != nil {
		t.Fatal(err)
	}
	m := Describe(p)
	if want := "[n] -> { S0[i] : i >= 0 and i <= n - 1 }"; m.Stmts[0].Domain != want {
		t.Errorf("domain %s, want %s", m.Stmts[0].Domain, want)
	}
	r, err := o.Deps(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if !isEmpty(r.Kind(k)) {
			t.Errorf("%s: %s, want empty", k, r.Kind(k))
		}
	}
	eq, err := o.Equal(m, Relations{})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if !eq[k] {
			t.Errorf("%s: empty candidate not equal to isl's empty relation", k)
		}
	}
}

// TestReverse checks floor locals, a downward loop and a scalar:
// for (i = n-1; i >= 0; i--) if (i % 2 == 0) x = x + A[i].
func TestReverse(t *testing.T) {
	o := newOracle(t)
	even := []ir.Div{{Num: aff(1, 0, 0, 0), Den: 2}}
	cons := []ir.Constraint{{Aff: aff(1, 0, 0, 0)}, {Aff: aff(-1, 1, -1, 0)}, {Aff: aff(1, 0, 0, -2), Eq: true}}
	p := loop(-1, even, cons, ir.Access{Array: 2, Write: true}, ir.Access{Array: 2})
	p.Stmts[0].Op = ir.AddAssign
	p.Stmts[0].Accesses = append(p.Stmts[0].Accesses,
		&ir.Access{Array: 0, Index: []ir.Aff{{Iter: []int64{1}, Param: []int64{0}}}})
	p.Stmts[0].RHS = &ir.Load{T: ir.Double, Access: 2}
	if err := ir.Check(p); err != nil {
		t.Fatal(err)
	}
	m := Describe(p)
	s := m.Stmts[0]
	for got, want := range map[string]string{
		s.Domain:    "[n] -> { S0[i] : i >= 0 and i <= n - 1 and i = 2*floor((i)/2) }",
		s.Writes[0]: "[n] -> { S0[i] -> x[] }",
		s.Schedule:  "[n] -> { S0[i] -> [0, -i, 0] }",
	} {
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
	// Every later (smaller) even i reads and writes x.
	later := "[n] -> { S0[i] -> S0[j] : 0 <= j < i < n and exists (a, b : i = 2a and j = 2b) }"
	eq, diff, err := o.EqualDiff(m, Relations{Flow: later, Anti: later, Output: later})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		if !eq[k] {
			t.Errorf("%s differs:\n%s", k, diff[k])
		}
	}
}

// BenchmarkDeps times isl's dependence analysis of every corpus kernel.
// ns/op includes starting the helper; isl-ns/op is the computation alone.
func BenchmarkDeps(b *testing.B) {
	o := newOracle(b)
	progs := corpus(b)
	for _, name := range sortedKeys(progs) {
		m := Describe(progs[name])
		b.Run(name, func(b *testing.B) {
			var total, n int64
			for b.Loop() {
				r, err := o.Deps(m)
				if err != nil {
					b.Fatal(err)
				}
				total += r.Nanos
				n++
			}
			b.ReportMetric(float64(total)/float64(n), "isl-ns/op")
		})
	}
}
