package frontend

import (
	"fmt"
	"go/token"
	"sort"
	"strings"
)

// Error is a user error at a position in the input: bad C, or C outside
// the supported subset. It prints as "file:line:col: msg".
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

// ErrorList is a list of *Errors, like go/scanner's: Sort orders it by
// position and keeps one error per line, and Err returns nil when the list
// is empty.
type ErrorList []*Error

// Add appends an error at pos.
func (p *ErrorList) Add(pos token.Position, msg string) {
	*p = append(*p, &Error{Pos: pos, Msg: msg})
}

// Len, Swap and Less implement sort.Interface.
func (p ErrorList) Len() int      { return len(p) }
func (p ErrorList) Swap(i, j int) { p[i], p[j] = p[j], p[i] }
func (p ErrorList) Less(i, j int) bool {
	e, f := &p[i].Pos, &p[j].Pos
	if e.Filename != f.Filename {
		return e.Filename < f.Filename
	}
	if e.Line != f.Line {
		return e.Line < f.Line
	}
	if e.Column != f.Column {
		return e.Column < f.Column
	}
	return p[i].Msg < p[j].Msg
}

// Sort sorts the list by position and removes all but the first error of
// each line.
func (p *ErrorList) Sort() {
	sort.Stable(*p)
	var last token.Position
	out := (*p)[:0]
	for k, e := range *p {
		if k > 0 && e.Pos.Filename == last.Filename && e.Pos.Line == last.Line {
			continue
		}
		last = e.Pos
		out = append(out, e)
	}
	*p = out
}

// Error prints every error on its own line.
func (p ErrorList) Error() string {
	switch len(p) {
	case 0:
		return "no errors"
	case 1:
		return p[0].Error()
	}
	var b strings.Builder
	for k, e := range p {
		if k > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Err returns p as an error, or nil when p is empty.
func (p ErrorList) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// notSCoP is the prefix of every message about a construct outside the
// supported subset.
const notSCoP = "not a static control part: "

// internalError reports a bug in the frontend (a broken invariant), never a
// problem with the input.
func internalError(format string, args ...any) error {
	return fmt.Errorf("frontend: internal error: "+format, args...)
}
