package sched

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"nestor/ir"
)

// TestTreeCorpus builds the schedule tree of every corpus kernel's
// schedule, prints it, reads it back and prints it again (the same
// text), and runs the schedule of the tree it read against the original
// program in the interpreter.
func TestTreeCorpus(t *testing.T) {
	ks, _ := filepath.Glob("../testdata/kernels/*.c")
	if len(ks) == 0 {
		t.Fatal("no corpus kernels")
	}
	for _, k := range ks {
		name := strings.TrimSuffix(filepath.Base(k), ".c")
		t.Run(name, func(t *testing.T) {
			p, g := analyzed(t, k, nil, "MINI_DATASET")
			sc, err := Compute(p, g, Options{})
			if err != nil {
				t.Skipf("no schedule: %v", err)
			}
			tree := FromSchedule(p, sc)
			text := tree.String()
			if !strings.Contains(text, "band:") {
				t.Fatalf("no band in\n%s", text)
			}
			back, err := ParseTree(text)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if again := back.String(); again != text {
				t.Fatalf("printed, read and printed again:\n%s\nfirst:\n%s", again, text)
			}
			sc2, err := back.Schedule(len(p.Params))
			if err != nil {
				t.Fatal(err)
			}
			if again := FromSchedule(p, sc2).String(); again != text {
				t.Fatalf("the tree's schedule has another tree:\n%s\nfirst:\n%s", again, text)
			}
			for k := range sc.Coincident {
				if sc.scalar(k) {
					continue // no loop: its flag means nothing
				}
				for s := range p.Stmts {
					if sc.ParallelFor(k, s) != sc2.ParallelFor(k, s) {
						t.Fatalf("dimension %d, statement %d: parallel %v, from the tree %v", k, s, sc.ParallelFor(k, s), sc2.ParallelFor(k, s))
					}
				}
			}
			if len(sc.Bands) != len(sc2.Bands) {
				t.Fatalf("bands %v, from the tree %v", sc.Bands, sc2.Bands)
			}
			// With the layouts: printed, read back, laid out, the same
			// program as ApplyPlan's.
			plan := Plan{Tile: true, Reorder: true, Wavefront: true, Machine: Plan{}.machine()}
			lays, err := Decide(p, sc, plan)
			if err != nil {
				t.Fatal(err)
			}
			tree.SetLayouts(lays)
			laid := tree.String()
			back, err = ParseTree(laid)
			if err != nil {
				t.Fatalf("%v\n%s", err, laid)
			}
			if again := back.String(); again != laid {
				t.Fatalf("printed, read and printed again:\n%s\nfirst:\n%s", again, laid)
			}
			read, err := back.Layouts(sc)
			if err != nil {
				t.Fatalf("%v\n%s", err, laid)
			}
			want, _, err := ApplyPlan(p, sc, plan)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, err := ApplyLayouts(p, sc, read); err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("the layouts read back lay the program out otherwise (%v):\n%s", err, laid)
			}
			q, err := Apply(p, sc2)
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if err := ir.Check(q); err != nil {
				t.Fatal(err)
			}
			params := make([]int64, len(p.Params))
			for i := range params {
				params[i] = 4 - int64(i%2)
			}
			runBoth(t, p, q, params)
		})
	}
}

// TestParseTreeErrors checks that malformed trees are refused with the
// line at fault.
func TestParseTreeErrors(t *testing.T) {
	good := `domain: "[n] -> { S0[i]; S1[i, j] }"
child:
  sequence:
  - filter: "{ S0[i] }"
    child:
      band:
        schedule: "[n] -> [{ S0[i] -> [(i)] }]"
        permutable: 0
        coincident: [ 1 ]
        coincident_for: [ [S0] ]
  - filter: "{ S1[i, j] }"
    child:
      band:
        schedule: "[n] -> [{ S1[i, j] -> [(i)] }, { S1[i, j] -> [(j + n - 1)] }]"
        permutable: 1
        coincident: [ 0, 1 ]
        coincident_for: [ [], [S1] ]
`
	tree, err := ParseTree(good)
	if err != nil {
		t.Fatal(err)
	}
	if got := tree.String(); got != good {
		t.Fatalf("read and printed:\n%s\nwant:\n%s", got, good)
	}
	sc, err := tree.Schedule(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Bands) != 1 || sc.Bands[0] != (Band{1, 3}) || sc.Rows[1][2].Param[0] != 1 || sc.Rows[1][2].Const != -1 || sc.Rows[1][0].Const != 1 {
		t.Fatalf("schedule %+v", sc)
	}
	for _, c := range []struct{ edit, want string }{
		{strings.Replace(good, "- filter: \"{ S1[i, j] }\"", "- filter: \"{ S0[i] }\"", 1), "two filters"},
		{strings.Replace(good, "(j + n - 1)", "(j + m)", 1), "unknown name"},
		{strings.Replace(good, "coincident: [ 0, 1 ]", "coincident: [ 0 ]", 1), "coincident has 1 entries"},
		{strings.Replace(good, "  sequence:", "  sequenz:", 1), "want a band or a sequence"},
	} {
		if _, err := ParseTree(c.edit); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("error %v, want one naming a line and %q", err, c.want)
		}
	}
}
