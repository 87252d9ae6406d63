package codegen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"nestor/ir"
	"nestor/model"
)

// TestForkWork: an OpenMP loop nested in a sequential one forks only when
// (an if around a parallel and a sequential copy) its estimated work
// reaches forkLeast's count: the trip counts of the loop and
// of the chain of the widest loops inside it, a constant where the bounds
// differ by one (a tile's point loop); a product of counts is tested by
// asking each distinct count to reach a root, in nested ifs (one affine
// inequality each).
func TestForkWork(t *testing.T) {
	ceil := func(a, b int64) int64 { return (a + b - 1) / b }
	for _, tc := range []struct {
		name  string
		level int                        // the loop marked, by depth in the chain of first loops
		want  func(least int64) []string // the if lines, outermost first
	}{
		// gemm's j loop inside i: nj iterations of nk, each at least
		// the square root of the count.
		{"gemm", 1, func(least int64) []string {
			r := rootCeil(least, 2)
			return []string{fmt.Sprintf("if ((nj) >= %d) {", r), fmt.Sprintf("if ((nk) >= %d) {", r)}
		}},
		// for (j = i; j < min(n, i + 4); j++): at most 4 iterations, so
		// the outer loop's trip count times 4.
		{"minupper", 0, func(least int64) []string { return []string{fmt.Sprintf("if ((n) >= %d) {", ceil(least, 4))} }},
		// A stencil's i loop inside t: (n - 2)² reaches the count.
		{"square", 1, func(least int64) []string { return []string{fmt.Sprintf("if ((n - 2) >= %d) {", rootCeil(least, 2))} }},
		// The i loop's body: a loop of one iteration, then one of 255
		// (a tile's point loop split at the domain's edge): the chain
		// follows the wider, n · 255.
		{"split", 1, func(least int64) []string { return []string{fmt.Sprintf("if ((n) >= %d) {", ceil(least, 255))} }},
		// The same with the 255-iteration loop stepping by 5 and its body
		// holding 5 copies, as unroll-and-jam leaves it: the estimate
		// counts 51 iterations of the copies, whose time the count is of.
		{"unrolled", 1, func(least int64) []string { return []string{fmt.Sprintf("if ((n) >= %d) {", ceil(least, 51))} }},
		// The i loop's body: a loop over n holding a loop of one
		// iteration (a statement placed at one point of the band, as
		// doitgen's zeroing of a row), then a loop over n holding one
		// over n. The chain follows the second: n³, not n².
		{"placed", 1, func(least int64) []string {
			return []string{fmt.Sprintf("if ((n) >= %d) {", rootCeil(least, 3))}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p *ir.Program
			switch tc.name {
			case "placed":
				p = newProg(t, "tsteps", "n").
					array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "n").
					stmt("t i a b", []int{0, 0, 0, 0, 0}, "0 <= t < tsteps and 0 <= i < n and 0 <= a < n and 0 <= b <= 0", "A[i][a] = 0.0").
					stmt("t i a b", []int{0, 0, 1, 0, 0}, "0 <= t < tsteps and 0 <= i < n and 0 <= a < n and 0 <= b < n", "A[i][a] = A[i][a] + B[a][b]").
					build()
			case "split", "unrolled":
				p = newProg(t, "tsteps", "n").
					array("A", ir.FuncParam, "n", "n").
					stmt("t i j", []int{0, 0, 0, 0}, "0 <= t < tsteps and 0 <= i < n and 0 <= j <= 0", "A[i][j] = A[i][j] * 0.5").
					stmt("t i j", []int{0, 0, 1, 0}, "0 <= t < tsteps and 0 <= i < n and 1 <= j < 256", "A[i][j] = A[i][j] * 0.25").
					build()
			case "square":
				p = newProg(t, "tsteps", "n").
					array("A", ir.FuncParam, "n", "n").
					stmt("t i j", []int{0, 0, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < n - 1", "A[i][j] = A[i][j] * 0.5").
					build()
			default:
				p = casesByName(t, tc.name)
			}
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			l := firstLoop(n.Body)
			for range tc.level {
				l = firstLoop(l.Body)
			}
			l.Pragmas, l.ForkIf = []string{"omp parallel for"}, true
			if tc.name == "unrolled" {
				for _, c := range l.Body {
					if in, ok := c.(*Loop); ok && !singleIteration(in) {
						unrollBody(in, 5)
					}
				}
			}
			want := tc.want(testLeast(p, l))
			var b bytes.Buffer
			if err := PrintC(&b, p, n, ""); err != nil {
				t.Fatal(err)
			}
			// The loop is printed once forking under the conditions, and
			// sequential (no libgomp call at all) in the else of each.
			out := b.String()
			at := 0
			for _, w := range want {
				i := strings.Index(out[at:], w+"\n")
				if i < 0 {
					t.Fatalf("got\n%s\nwant the lines %q in that order", out, want)
				}
				at += i + len(w)
			}
			if strings.Count(out, "#pragma omp parallel for if(") != 1 || strings.Count(out, "} else {") != len(want) {
				t.Errorf("got\n%s\nwant one omp parallel for with its trip test and %d else copies", out, len(want))
			}
		})
	}
}

// casesByName returns the program of the test case called name.
func casesByName(t *testing.T, name string) *ir.Program {
	t.Helper()
	for _, c := range cases {
		if c.name == name {
			return c.prog(t)
		}
	}
	t.Fatalf("no test case %s", name)
	return nil
}

// TestRootCeil checks that rootCeil's answer r is the least: r^m reaches
// n and (r-1)^m does not.
func TestRootCeil(t *testing.T) {
	pow := func(r int64, m int) int64 {
		p := int64(1)
		for range m {
			p *= r
		}
		return p
	}
	for _, n := range []int64{1, 2, 7, 8, 9, 1000, 32768, 32769, 1 << 20} {
		for m := 1; m <= 4; m++ {
			r := rootCeil(n, m)
			if pow(r, m) < n || (r > 1 && pow(r-1, m) >= n) {
				t.Errorf("rootCeil(%d, %d) = %d: %d^%d = %d, (r-1)^%d = %d", n, m, r, r, m, pow(r, m), m, pow(r-1, m))
			}
		}
	}
}

// TestForkOnce: with PrintOptions.ForkOnce, a sequential loop whose
// statements all run in OpenMP loops forks one team (if their work pays)
// whose threads share each loop with "omp for"; a statement outside the
// OpenMP loops keeps the fork per iteration.
func TestForkOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		stmt bool // a statement directly in the time loop
	}{{"stencil", false}, {"with-statement", true}} {
		t.Run(tc.name, func(t *testing.T) {
			b := newProg(t, "tsteps", "n").
				array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "n").array("s", ir.FuncParam, "tsteps").
				stmt("t i j", []int{0, 0, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < n - 1", "B[i][j] = A[i][j] * 0.5").
				stmt("t i j", []int{0, 1, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < n - 1", "A[i][j] = B[i][j] * 0.5")
			if tc.stmt {
				b = b.stmt("t", []int{0, 2}, "0 <= t < tsteps and n >= 3", "s[t] = A[1][1]")
			}
			p := b.build()
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			tl := firstLoop(n.Body)
			r := rootCeil(testLeast(p, firstLoop(tl.Body)), 2)
			for _, c := range tl.Body {
				if l, ok := c.(*Loop); ok {
					l.Pragmas, l.ForkIf = []string{"omp parallel for"}, true
					if tc.name == "unrolled" {
						for _, c := range l.Body {
							if in, ok := c.(*Loop); ok && !singleIteration(in) {
								unrollBody(in, 5)
							}
						}
					}
				}
			}
			var out bytes.Buffer
			if err := PrintCWith(&out, p, n, "", PrintOptions{ForkOnce: true}); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			team := strings.Contains(got, fmt.Sprintf("#pragma omp parallel if((n - 2) >= %d)\n{\n", r)) && strings.Count(got, "#pragma omp for\n") == 2 &&
				!strings.Contains(got, "omp parallel for")
			if team == tc.stmt {
				t.Errorf("team %v, want %v:\n%s", team, !tc.stmt, got)
			}
		})
	}
}

// TestForkOnceInnerBounds: the estimate of a team's loops counts loops
// further in, whose bounds may read the counter of the sequential loop
// the team encloses (j < t), a counter the clause cannot read: the
// estimate leaves such a count out instead of printing it.
func TestForkOnceInnerBounds(t *testing.T) {
	p := newProg(t, "tsteps", "n").
		array("A", ir.FuncParam, "n", "n").array("B", ir.FuncParam, "n", "n").
		stmt("t i j", []int{0, 0, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < t", "B[i][j] = A[i][j] * 0.5").
		stmt("t i j", []int{0, 1, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < n - 1", "A[i][j] = B[i][j] * 0.5").
		build()
	n, err := Build(p)
	if err != nil {
		t.Fatal(err)
	}
	tl := firstLoop(n.Body)
	for _, c := range tl.Body {
		if l, ok := c.(*Loop); ok {
			l.Pragmas, l.ForkIf = []string{"omp parallel for"}, true
		}
	}
	var out bytes.Buffer
	if err := PrintCWith(&out, p, n, "", PrintOptions{ForkOnce: true}); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "#pragma omp parallel if(") || strings.Count(got, "#pragma omp for\n") != 2 {
		t.Errorf("want one team with a work clause around the time loop:\n%s", got)
	}
}

// TestForkThreads: with PrintOptions.Threads, an OpenMP loop nested in a
// sequential loop forks only at two threads or more (its first if), and
// the region declares the thread count between pragma lines of its own,
// outside any static control part; without a nested OpenMP loop, nothing
// is declared.
func TestForkThreads(t *testing.T) {
	p := newProg(t, "tsteps", "n").
		array("A", ir.FuncParam, "n", "n").
		stmt("t i j", []int{0, 0, 0, 0}, "0 <= t < tsteps and 1 <= i < n - 1 and 1 <= j < n - 1", "A[i][j] = A[i][j] * 0.5").
		build()
	for _, nested := range []bool{true, false} {
		n, err := Build(p)
		if err != nil {
			t.Fatal(err)
		}
		l := firstLoop(n.Body)
		if nested {
			l = firstLoop(l.Body)
		}
		l.Pragmas, l.ForkIf = []string{"omp parallel for"}, nested
		var b bytes.Buffer
		if err := PrintCWith(&b, p, n, "  ", PrintOptions{Threads: "nt"}); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		decl := "  #pragma endscop\n  #ifdef _OPENMP\n  extern int omp_get_max_threads(void);\n  int nt = omp_get_max_threads();"
		if !nested {
			if strings.Contains(out, "omp_get_max_threads") || strings.Contains(out, "nt >= 2") {
				t.Errorf("an outermost OpenMP loop reads the thread count:\n%s", out)
			}
			continue
		}
		if !strings.HasPrefix(out, decl) || !strings.Contains(out, "  #else\n  int nt = 1;\n  #endif\n  #pragma scop\n") {
			t.Fatalf("the thread count is not declared first, outside the region:\n%s", out)
		}
		first, work := strings.Index(out, "if (nt >= 2) {\n"), strings.Index(out, fmt.Sprintf("if ((n - 2) >= %d) {\n", rootCeil(testLeast(p, l), 2)))
		if first < 0 || work < first || strings.Count(out, "} else {") != 2 || strings.Count(out, "#pragma omp parallel for") != 1 {
			t.Errorf("want the thread test, then the work test, each with a sequential else:\n%s", out)
		}
	}
}

// TestForkEnteredOnce: an OpenMP loop entered once (not nested in a
// sequential loop) with loops inside forks when it has two iterations or
// more and its estimated work, the product of the trip counts of its
// chain of widest loops, reaches forkLeast's count: an if clause with the
// count and the product where counts are parameters (the count alone
// where it is the product; a triangle's loop counted at the midpoint of
// the counter it reads), the plain pragma where constants reach both,
// the count alone where a loop has no count to estimate, no pragma at
// all where a constant stays below.
func TestForkEnteredOnce(t *testing.T) {
	for _, tc := range []struct {
		name, dom, want string // want: %[1]d stands for the count, %[2]d for its 64th
		step            int64  // of the outer loop
	}{
		{"parametric", "0 <= i < n and 0 <= j < m", "#pragma omp parallel for if((n) >= 2 && (double)(n) * (m) >= %[1]d)\n", 1},
		{"one parameter", "0 <= i < n and 0 <= j < 64", "#pragma omp parallel for if((n) >= %[2]d)\n", 1},
		{"large constant", "0 <= i < 4096 and 0 <= j < 4096", "#pragma omp parallel for\n", 1},
		{"small constant", "0 <= i < 24 and 0 <= j < 16", "", 1},
		// j < i has no trip count read before i starts: it counts
		// (n - 1) / 2 iterations, its count at i's midpoint, the mean.
		{"triangle", "0 <= i < n and 0 <= j < i", "#pragma omp parallel for if((n) >= 2 && (double)(n) * ((n - 1) / 2) >= %[1]d)\n", 1},
		{"reversed triangle", "0 <= i < n and i <= j < m", "#pragma omp parallel for if((n) >= 2 && (double)(n) * ((2*m - n + 1) / 2) >= %[1]d)\n", 1},
		// An unrolled loop's counter still averages its bounds'
		// midpoint (jamPush's rows and steps).
		{"unrolled triangle", "0 <= i < n and 0 <= j < i", "#pragma omp parallel for if((n) >= 2 && (double)(n) * ((n - 1) / 2) >= %[1]d)\n", 2},
		// i's range has two upper bounds (no midpoint to read): the
		// estimate would count j's loop once, so the loop forks
		// whatever its work.
		{"triangle in a min", "0 <= i < n and i < m and 0 <= j < i", "#pragma omp parallel for if((n) >= 2)\n", 1},
		// One iteration: nothing to share, however much work it holds.
		{"one row", "0 <= i < 1 and 0 <= j < n", "", 1},
		// Tiles of 64 columns: the point loop counts 64, or m where the
		// domain is narrower than a tile (maxTrip: j ≤ m − 1 at i = 0).
		{"tiles", "0 <= i and 64*i <= m - 1 and 64*i <= j < 64*i + 64 and j < m", "#pragma omp parallel for if((nestor_floord(m - 1, 64) + 1) >= 2 && (double)(nestor_floord(m - 1, 64) + 1) * nestor_min(64, (m)) >= %[1]d)\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProg(t, "n", "m").
				array("A", ir.FuncParam, "n", "m").
				stmt("i j", []int{0, 0, 0}, tc.dom, "A[i][j] = A[i][j] * 0.5").
				build()
			n, err := Build(p)
			if err != nil {
				t.Fatal(err)
			}
			firstLoop(n.Body).Pragmas = []string{"omp parallel for"}
			firstLoop(n.Body).Step = tc.step
			least := testLeast(p, firstLoop(n.Body))
			if least <= 24*16 || least > 4096*4096 {
				t.Fatalf("count %d: the constant cases below assume one above 384 and at most 4096²", least)
			}
			if strings.Contains(tc.want, "%[") {
				tc.want = fmt.Sprintf(tc.want, least, (least+63)/64)
			}
			var b bytes.Buffer
			if err := PrintC(&b, p, n, ""); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if tc.want == "" {
				if strings.Contains(out, "omp parallel") {
					t.Errorf("forks a constant 384 iterations:\n%s", out)
				}
			} else if at := strings.Index(out, "#pragma"); at < 0 || !strings.HasPrefix(out[at:], tc.want) {
				t.Errorf("got\n%s\nwant the first pragma line %q", out, tc.want)
			}
		})
	}
}

// TestLeastParam: adi's tile counts ⌊(n − 2)/8⌋ + 1 and ⌊(n − 2)/256⌋ + 1
// reach a product of 128 from n = 506 (64 · 2), not at 505 (63 · 2);
// roots would have asked each for 12, which n = 1000's 4 tiles of 256
// never reach. A count that shrinks as n grows is not one parameter's.
func TestLeastParam(t *testing.T) {
	tiles := func(den int64) countForm {
		up := ir.Aff{Iter: []int64{}, Param: []int64{1}, Const: -2}
		return countForm{Lo: Bound{Aff: ir.Aff{Iter: []int64{}, Param: []int64{0}}, Den: 1}, Up: Bound{Aff: up, Den: den}}
	}
	forms := []countForm{tiles(8), tiles(256)}
	q, ok := oneParam(forms)
	if !ok || q != 0 {
		t.Fatalf("oneParam = %d, %v; want parameter 0", q, ok)
	}
	if v, ok := leastParam(forms, q, 128); !ok || v != 506 {
		t.Errorf("leastParam = %d, %v; want 506", v, ok)
	}
	if _, ok := leastParam(forms, q, 1<<62); ok {
		t.Error("a product no n up to 2³¹ reaches was found")
	}
	down := countForm{Lo: Bound{Aff: ir.Aff{Iter: []int64{}, Param: []int64{1}}, Den: 1}, Up: Bound{Aff: ir.Aff{Iter: []int64{}, Param: []int64{0}, Const: 1000}, Den: 1}}
	if _, ok := oneParam([]countForm{tiles(8), down}); ok {
		t.Error("1000 − n + 1 accepted as growing with n")
	}
}

// testLeast returns forkLeast's count for OpenMP loop l of p on the
// machine printing uses by default (model.Typical): what the fork clauses
// of the tests must print.
// unrollBody steps l by f and repeats its body's instances f times, the
// counter shifted by 0…f−1, as unroll-and-jam does (without the rest loop:
// the tests print the code, they do not run it).
func unrollBody(l *Loop, f int64) {
	l.Step = f
	var body []Node
	for u := range f {
		for _, n := range l.Body {
			body = append(body, shiftInstance(n.(*Instance), l.Level, u, l.Level, 0))
		}
	}
	l.Body = body
}

func testLeast(p *ir.Program, l *Loop) int64 {
	pr := &printer{p: p, params: ir.ParamNames(p), vars: map[string]bool{}, used: map[string]bool{}, machine: model.Typical()}
	return pr.forkLeast(l)
}
