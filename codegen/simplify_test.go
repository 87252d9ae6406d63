package codegen

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"nestor/ir"
	"nestor/poly"
)

// TestSolverBudget checks that a question is solved only when the budget
// left covers its cost, and that the cost is then charged.
func TestSolverBudget(t *testing.T) {
	// 0 ≤ i ≤ −1 over one counter: no rational point.
	rows := []poly.Constraint{{Coef: []int64{1, 0}}, {Coef: []int64{-1, -1}}}
	s := &solver{depth: 1}
	c := s.cost(rows)
	if c <= 0 {
		t.Fatalf("cost %d: a question must cost something", c)
	}
	s.left = c - 1
	if s.empty(rows, false) || s.left != c-1 {
		t.Errorf("budget %d below the cost %d: the question was answered (left %d)", c-1, c, s.left)
	}
	s.left = c
	if !s.empty(rows, false) || s.left != 0 {
		t.Errorf("budget %d, the cost: the question was not answered or not charged (left %d)", c, s.left)
	}
	if s.empty(rows, true) {
		t.Errorf("budget spent: the question was answered")
	}
}

// countConds returns the number of guards in the AST under n.
func countConds(n Node) int {
	switch n := n.(type) {
	case *Block:
		return countNodes(n.Body)
	case *Loop:
		return countNodes(n.Body)
	case *If:
		return len(n.Conds) + countNodes(n.Body)
	}
	return 0
}

func countNodes(ns []Node) int {
	k := 0
	for _, n := range ns {
		k += countConds(n)
	}
	return k
}

// TestBudgetKeepsGuards checks that a guard implied only through a linear
// program (in case union, j = i and i < n give j < n around the third
// statement) stays when the budget is spent, and goes with the default
// budget.
func TestBudgetKeepsGuards(t *testing.T) {
	k := slices.IndexFunc(cases, func(c testCase) bool { return c.name == "union" })
	prog := func() *ir.Program { return cases[k].prog(t) }
	full, err := buildWithin(prog(), maxSolverWork)
	if err != nil {
		t.Fatal(err)
	}
	spent, err := buildWithin(prog(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if f, s := countConds(full), countConds(spent); s <= f {
		var b bytes.Buffer
		PrintC(&b, prog(), spent, "  ")
		t.Errorf("%d guards with no budget, %d with the default one: the budget is not honoured\n%s", s, f, b.String())
	}
}

// TestTraceBudgets checks, as TestTrace does, that every case runs the same
// statement instances in the same order when the budget of simplification
// runs out early (none, then budgets from 1 up by factors of 4, spent at
// different points of the simplification): the answers given past it keep
// the program correct.
func TestTraceBudgets(t *testing.T) {
	cc := needCC(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checked := map[string]bool{}
			for work := int64(0); work < 1<<20; work = max(4*work, 1) {
				p := c.prog(t)
				n, err := buildWithin(p, work)
				if err != nil {
					t.Fatal(err)
				}
				var region bytes.Buffer
				if err := PrintC(&region, p, n, "  "); err != nil {
					t.Fatal(err)
				}
				if checked[region.String()] {
					continue
				}
				checked[region.String()] = true
				bin, text := traceBinary(t, cc, p, n)
				for _, vals := range c.params {
					out := runTrace(t, bin, vals)
					if want := expectedTrace(t, p, vals); out != want {
						t.Errorf("budget %d, params %v: trace mismatch\n%s\n--- want\n%s--- got\n%s", work, vals, text, want, out)
					}
				}
			}
		})
	}
}

// TestSplitSingleIteration: guards on the j loop's counter that sit
// around loops of one iteration split the j loop as guards around
// statements do (ludcmp's factorization beside its solves, whose loops
// it keeps constant, ran its two updates in one guarded loop).
func TestSplitSingleIteration(t *testing.T) {
	k := slices.IndexFunc(cases, func(c testCase) bool { return c.name == "singlesplit" })
	b, err := buildWithin(cases[k].prog(t), maxSolverWork)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := PrintC(&out, cases[k].prog(t), b, "  "); err != nil {
		t.Fatal(err)
	}
	if n := countConds(b); n != 0 {
		t.Errorf("%d guards left, want the j loop split at i\n%s", n, out.String())
	}
	// The pieces' bounds keep only what binds: the union's min(0, i) is
	// below the piece's own 0, its max(i, n) above the piece's i.
	for _, want := range []string{"for (int j = 0; j < i; j++)", "for (int j = i; j < n; j++)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
