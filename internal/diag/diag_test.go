package diag

import (
	"errors"
	"go/token"
	"testing"
)

func pos(file string, line, col int) token.Position {
	return token.Position{Filename: file, Line: line, Column: col}
}

// TestSort: sorted by file, line, column, message; one error per line,
// the first of its line in that order.
func TestSort(t *testing.T) {
	var l List
	l.Add(pos("b.c", 1, 1), "b1")
	l.Add(pos("a.c", 3, 9), "a3 late")
	l.Add(pos("a.c", 3, 2), "a3 z")
	l.Add(pos("a.c", 3, 2), "a3 a")
	l.Add(pos("a.c", 1, 5), "a1")
	l.Sort()
	want := []string{"a.c:1:5: a1", "a.c:3:2: a3 a", "b.c:1:1: b1"}
	if len(l) != len(want) {
		t.Fatalf("sorted list %q, want %q", l.Error(), want)
	}
	for i, e := range l {
		if e.Error() != want[i] {
			t.Errorf("error %d is %q, want %q", i, e.Error(), want[i])
		}
	}
	if got := l.Error(); got != "a.c:1:5: a1\na.c:3:2: a3 a\nb.c:1:1: b1" {
		t.Errorf("List.Error() = %q", got)
	}
}

func TestErr(t *testing.T) {
	var l List
	if l.Err() != nil {
		t.Errorf("empty list: Err() = %v, want nil", l.Err())
	}
	if got := l.Error(); got != "no errors" {
		t.Errorf("empty list: Error() = %q", got)
	}
	l.Add(token.Position{}, "no position")
	err := l.Err()
	var back List
	if !errors.As(err, &back) || len(back) != 1 {
		t.Fatalf("Err() = %v, not the List", err)
	}
	if err.Error() != "no position" {
		t.Errorf("an error without a position prints as %q", err.Error())
	}
	if e := (&Error{Pos: pos("f.ir", 2, 0), Msg: "m"}); e.Error() != "f.ir:2: m" {
		t.Errorf("an error without a column prints as %q", e.Error())
	}
}
