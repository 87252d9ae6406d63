package xls

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"nestor/outline"
)

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a name or keyword: [A-Za-z_][A-Za-z0-9_.]*
	tNumber         // -?[0-9][0-9A-Za-z_]*, checked when it is read
	tString         // "..." or """...""", kept as written (quotes and escapes)
	tPunct          // ( ) [ ] { } < > : , = # ! ->
)

type tok struct {
	text      string
	off       int32 // byte offset of the token in the source
	line, col int32
	kind      tokKind
}

// pos returns where the token starts.
func (t tok) pos() outline.Pos { return outline.Pos{Line: int(t.line), Col: int(t.col)} }

func (t tok) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("%q", t.text)
	case tNumber:
		return "number " + t.text
	case tString:
		return "string " + t.text
	}
	return fmt.Sprintf("'%s'", t.text)
}

type lexError struct {
	pos outline.Pos
	msg string
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isNameByte reports whether c may continue a name.
func isNameByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '.' }

// outlinedMark is the comment the writer puts on the line before a
// function that Outline created (XLS accepts no attribute of ours), and
// by which Parse recognizes one.
const outlinedMark = "// nestor: outlined"

// maxSource bounds the size of a source (tokens keep int32 offsets).
const maxSource = 1 << 31

// lex splits src into tokens, ending with a tEOF token. Comments run from
// // to the end of the line; marked lists the lines that hold
// outlinedMark. Columns count bytes, from 1. Offsets, lines and columns
// are int32: a source of maxSource bytes or more is refused.
func lex(src []byte) (toks []tok, marked map[int]bool, errs []lexError) {
	if len(src) >= maxSource {
		return []tok{{kind: tEOF, line: 1, col: 1}}, nil, []lexError{{outline.Pos{Line: 1, Col: 1}, "file too large (2 GiB or more)"}}
	}
	line, lineStart := 1, 0
	i := 0
	text := string(src)                  // tokens are slices of one copy
	toks = make([]tok, 0, len(src)/3+16) // about one token in three bytes
	for i < len(src) {
		c := src[i]
		pos := outline.Pos{Line: line, Col: i - lineStart + 1}
		switch {
		case c == '\n':
			i++
			line, lineStart = line+1, i
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if strings.TrimSpace(string(src[i:j])) == outlinedMark {
				if marked == nil {
					marked = make(map[int]bool)
				}
				marked[line] = true
			}
			i = j
		case c == '"' && i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"':
			// A raw string """...""", which may span lines.
			j := i + 3
			for j+2 < len(src) && !(src[j] == '"' && src[j+1] == '"' && src[j+2] == '"') {
				j++
			}
			if j+2 >= len(src) {
				errs = append(errs, lexError{pos, "string not terminated"})
				i = len(src)
				continue
			}
			toks = append(toks, tok{text[i : j+3], int32(i), int32(pos.Line), int32(pos.Col), tString})
			for k := i; k < j+3; k++ {
				if src[k] == '\n' {
					line, lineStart = line+1, k+1
				}
			}
			i = j + 3
		case isLetter(c):
			j := i + 1
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			toks = append(toks, tok{text[i:j], int32(i), int32(pos.Line), int32(pos.Col), tIdent})
			i = j
		case isDigit(c) || c == '-' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, tok{text[i:j], int32(i), int32(pos.Line), int32(pos.Col), tNumber})
			i = j
		case c == '-' && i+1 < len(src) && src[i+1] == '>':
			toks = append(toks, tok{"->", int32(i), int32(pos.Line), int32(pos.Col), tPunct})
			i += 2
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' && j+1 < len(src) && src[j+1] != '\n' {
					j++
				}
				j++
			}
			if j >= len(src) || src[j] != '"' {
				errs = append(errs, lexError{pos, "string not terminated"})
				i = j
				continue
			}
			toks = append(toks, tok{text[i : j+1], int32(i), int32(pos.Line), int32(pos.Col), tString})
			i = j + 1
		case c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' ||
			c == ':' || c == ',' || c == '=' || c == '#' || c == '!' || c == '<' || c == '>':
			toks = append(toks, tok{text[i : i+1], int32(i), int32(pos.Line), int32(pos.Col), tPunct})
			i++
		default:
			r, n := utf8.DecodeRune(src[i:])
			errs = append(errs, lexError{pos, fmt.Sprintf("unexpected character %q", r)})
			i += n
		}
	}
	toks = append(toks, tok{"", int32(len(src)), int32(line), int32(len(src) - lineStart + 1), tEOF})
	return toks, marked, errs
}
