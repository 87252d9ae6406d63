package poly

import (
	"strconv"
	"strings"
)

// String prints s in isl notation, e.g. "[n] -> { S[i, j] : i >= 0 and n >= i + 1 }".
// An empty set found by normalization prints its condition as "false".
func (s *Set) String() string {
	var b strings.Builder
	s.space.header(&b)
	s.body(&b)
	b.WriteString(" }")
	return b.String()
}

// String prints u in isl notation; disjuncts are joined by "or".
func (u *Union) String() string {
	var b strings.Builder
	u.Space.header(&b)
	if len(u.Sets) == 0 {
		b.WriteString(" : false }")
		return b.String()
	}
	for i, s := range u.Sets {
		if i > 0 {
			b.WriteString(" or")
		}
		if i == 0 && len(u.Sets) == 1 {
			s.body(&b)
			continue
		}
		if i == 0 {
			b.WriteString(" :")
		}
		b.WriteString(" ")
		b.WriteString(s.conj())
	}
	b.WriteString(" }")
	return b.String()
}

func (s *Set) body(b *strings.Builder) {
	if s.empty || len(s.rows) > 0 {
		b.WriteString(" : ")
		b.WriteString(s.conj())
	}
}

// conj prints the rows joined by "and", "true" for none, "false" if empty.
func (s *Set) conj() string {
	if s.empty {
		return "false"
	}
	if len(s.rows) == 0 {
		return "true"
	}
	names := append(append([]string(nil), s.space.Dims...), s.space.Params...)
	parts := make([]string, len(s.rows))
	for i, r := range s.rows {
		parts[i] = printRow(r, names)
	}
	return strings.Join(parts, " and ")
}

// header writes "[p, q] -> { Name[i, j]" (without the closing part).
func (sp Space) header(b *strings.Builder) {
	if len(sp.Params) > 0 {
		b.WriteString("[" + strings.Join(sp.Params, ", ") + "] -> ")
	}
	b.WriteString("{ " + sp.Name + "[" + strings.Join(sp.Dims, ", ") + "]")
}

// String prints the space as "[n] -> { S[i, j] }".
func (sp Space) String() string {
	var b strings.Builder
	sp.header(&b)
	b.WriteString(" }")
	return b.String()
}

// printRow writes the row with positive terms on the left and negated
// negative terms on the right, so that no coefficient prints negative:
// "n >= i + 1" for n - i - 1 >= 0. When the left has no variable the sides
// are swapped ("i <= 5").
func printRow(r Constraint, names []string) string {
	var pos, negs []string
	posVar := false
	for i, name := range names {
		switch c := r.Coef[i]; {
		case c > 0:
			pos = append(pos, term(c, name))
			posVar = true
		case c < 0:
			negs = append(negs, term(-c, name))
		}
	}
	switch c := r.Coef[len(names)]; {
	case c > 0:
		pos = append(pos, strconv.FormatInt(c, 10))
	case c < 0:
		negs = append(negs, strconv.FormatInt(-c, 10))
	}
	l, rt := side(pos), side(negs)
	switch {
	case r.Eq && posVar:
		return l + " = " + rt
	case r.Eq:
		return rt + " = " + l
	case posVar:
		return l + " >= " + rt
	}
	return rt + " <= " + l
}

func term(c int64, name string) string {
	if c == 1 {
		return name
	}
	return strconv.FormatInt(c, 10) + name
}

func side(ts []string) string {
	if len(ts) == 0 {
		return "0"
	}
	return strings.Join(ts, " + ")
}
