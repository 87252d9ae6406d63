package xls

import (
	"fmt"
	"go/token"
	"sort"
)

// An Error is a problem in XLS IR text, at a position.
type Error struct {
	Pos token.Position
	Msg string
}

// Error writes e as file:line:col: msg.
func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// An ErrorList is a list of Errors, in the manner of go/scanner.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos token.Position, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts l by position.
func (l ErrorList) Sort() { sort.Sort(l) }

// RemoveMultiples sorts l and keeps the first error of every line.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	var last token.Position
	out := (*l)[:0]
	for _, e := range *l {
		if e.Pos.Filename != last.Filename || e.Pos.Line != last.Line {
			last = e.Pos
			out = append(out, e)
		}
	}
	*l = out
}

// Error writes the first error and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
