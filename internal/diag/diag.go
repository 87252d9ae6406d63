package diag

import (
	"go/token"
	"sort"
	"strings"
)

// An Error is a user error at a position in the input. It prints as
// "file:line:col: msg" (or as much of the position as is known).
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// A List is a list of *Errors. Sort orders it by position and keeps one
// error per line, and Err returns nil when the list is empty.
type List []*Error

// Add appends an error at pos.
func (l *List) Add(pos token.Position, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// Len, Swap and Less implement sort.Interface: by file, line, column,
// then message.
func (l List) Len() int      { return len(l) }
func (l List) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l List) Less(i, j int) bool {
	e, f := &l[i].Pos, &l[j].Pos
	if e.Filename != f.Filename {
		return e.Filename < f.Filename
	}
	if e.Line != f.Line {
		return e.Line < f.Line
	}
	if e.Column != f.Column {
		return e.Column < f.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position and removes all but the first error of
// each line.
func (l *List) Sort() {
	sort.Stable(*l)
	var last token.Position
	out := (*l)[:0]
	for k, e := range *l {
		if k > 0 && e.Pos.Filename == last.Filename && e.Pos.Line == last.Line {
			continue
		}
		last = e.Pos
		out = append(out, e)
	}
	*l = out
}

// Error prints every error on its own line.
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for k, e := range l {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns l as an error, or nil when l is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
