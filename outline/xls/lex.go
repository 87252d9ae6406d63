package xls

import (
	"fmt"
	"unicode/utf8"

	"nestor/outline"
)

type tokKind uint8

const (
	tEOF    tokKind = iota
	tIdent          // a name or keyword: [A-Za-z_][A-Za-z0-9_.]*
	tNumber         // -?[0-9][0-9A-Za-z_]*, checked when it is read
	tString         // "...", without escapes interpreted
	tPunct          // ( ) [ ] { } : , = # ! ->
)

type tok struct {
	kind tokKind
	text string
	pos  outline.Pos
}

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

// lex splits src into tokens, ending with a tEOF token. Comments run from
// // to the end of the line. Columns count bytes, from 1.
func lex(src []byte) ([]tok, []lexError) {
	var toks []tok
	var errs []lexError
	line, lineStart := 1, 0
	i := 0
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
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case isLetter(c):
			j := i + 1
			for j < len(src) && isNameByte(src[j]) {
				j++
			}
			toks = append(toks, tok{tIdent, string(src[i:j]), pos})
			i = j
		case isDigit(c) || c == '-' && i+1 < len(src) && isDigit(src[i+1]):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			toks = append(toks, tok{tNumber, string(src[i:j]), pos})
			i = j
		case c == '-' && i+1 < len(src) && src[i+1] == '>':
			toks = append(toks, tok{tPunct, "->", pos})
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
			toks = append(toks, tok{tString, string(src[i : j+1]), pos})
			i = j + 1
		case c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' ||
			c == ':' || c == ',' || c == '=' || c == '#' || c == '!':
			toks = append(toks, tok{tPunct, string(c), pos})
			i++
		default:
			r, n := utf8.DecodeRune(src[i:])
			errs = append(errs, lexError{pos, fmt.Sprintf("unexpected character %q", r)})
			i += n
		}
	}
	toks = append(toks, tok{tEOF, "", outline.Pos{Line: line, Col: len(src) - lineStart + 1}})
	return toks, errs
}
