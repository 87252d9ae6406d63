package ir

import (
	"fmt"
	"slices"
	"testing"
)

// TestLoopTree reads the tree of
//
//	S0; for i { S1; for j { S2; S3 }; S4 }; for k { S5 }
//
// through the loop API: children, paths, membership and moves.
func TestLoopTree(t *testing.T) {
	st := func(name string, beta ...int) *Stmt {
		iters := []string{"i", "j", "k"}[:len(beta)-1]
		return &Stmt{Name: name, Beta: beta, Iters: iters}
	}
	p := &Program{Stmts: []*Stmt{
		st("S0", 0), st("S1", 1, 0), st("S2", 1, 1, 0), st("S3", 1, 1, 1), st("S4", 1, 2), st("S5", 2, 0),
	}}
	show := func(cs []Child) string {
		var out []string
		for _, c := range cs {
			out = append(out, fmt.Sprint(c.Pos, c.Stmt, c.Stmts))
		}
		return fmt.Sprint(out)
	}
	for _, tc := range []struct {
		path []int
		want string
	}{
		{nil, "[0 0 [0] 1 -1 [1 2 3 4] 2 -1 [5]]"},
		{[]int{1}, "[0 1 [1] 1 -1 [2 3] 2 4 [4]]"},
		{[]int{1, 1}, "[0 2 [2] 1 3 [3]]"},
		{[]int{2}, "[0 5 [5]]"},
	} {
		if got := show(p.ChildrenOf(tc.path)); got != tc.want {
			t.Errorf("ChildrenOf(%v) = %s, want %s", tc.path, got, tc.want)
		}
	}
	if got, want := fmt.Sprint(p.Paths()), "[[1] [1 1] [2]]"; got != want {
		t.Errorf("Paths = %s, want %s", got, want)
	}
	s2, s4, s5 := p.Stmts[2], p.Stmts[4], p.Stmts[5]
	if !SameLoops(s2, s4, 1) || SameLoops(s2, s4, 2) || SameLoops(s2, s5, 1) || !SameLoops(s2, s5, 0) {
		t.Error("SameLoops disagrees with the tree")
	}
	if !s2.In([]int{1, 1}) || s4.In([]int{1, 1}) || !s4.In(nil) {
		t.Error("In disagrees with the tree")
	}
	if CommonLoops(s2, p.Stmts[3]) != 2 || CommonLoops(s2, s4) != 1 || CommonLoops(s2, s5) != 0 ||
		!Precedes(p.Stmts[1], s2, 1) || Precedes(s4, s2, 1) || !Precedes(s2, s5, 0) {
		t.Error("CommonLoops or Precedes disagrees with the tree")
	}
	m := s4.Moved([]int{1}, 3)
	if m.PosIn([]int{1}) != 5 || s4.PosIn([]int{1}) != 2 || !slices.Equal(m.Path(0), []int{1}) {
		t.Errorf("Moved: got %v from %v", m.Beta, s4.Beta)
	}
	// Children keeps the items' order inside a child and orders children
	// by position, whatever the input order.
	got := Children([]int{4, 3, 2, 1}, func(k int) *Stmt { return p.Stmts[k] }, 1)
	if fmt.Sprint(got) != "[[1] [3 2] [4]]" {
		t.Errorf("Children = %v", got)
	}
}
