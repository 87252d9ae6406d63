package poly

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// header writes "[p] -> { S[i, j] -> T[a, b]" with names over (in, out,
// params); out entries with a non-empty outExpr entry print that instead.
func (sp MapSpace) header(b *strings.Builder, names []string, outExpr []string) {
	ni, no := sp.NIn(), sp.NOut()
	if len(sp.Params) > 0 {
		b.WriteString("[" + strings.Join(names[ni+no:], ", ") + "] -> ")
	}
	b.WriteString("{ " + sp.InName + "[" + strings.Join(names[:ni], ", ") + "] -> " + sp.OutName + "[")
	for k := range no {
		if k > 0 {
			b.WriteString(", ")
		}
		if k < len(outExpr) && outExpr[k] != "" {
			b.WriteString(outExpr[k])
		} else {
			b.WriteString(names[ni+k])
		}
	}
	b.WriteString("]")
}

// String prints m in isl notation, e.g.
// "[n] -> { S[i, j] -> T[i, j + 1] : 0 <= i < n }". An output dim fixed by
// an equality with coefficient ±1 on it and no other output dim prints as
// the defining affine expression of input dims and params (the equality is
// substituted into the other rows, which is exact). Names repeated between
// params, in dims and out dims get primes. ParseMap reads the text back to
// the same relation, and printing that again gives the same text.
func (m *Map) String() string {
	sp := m.space
	names := uniqueNames(sp)
	var b strings.Builder
	if m.set.IsEmptyKnown() {
		sp.header(&b, names, nil)
		b.WriteString(" : false }")
		return b.String()
	}
	s, outExpr := m.fixedOutputs(names)
	sp.header(&b, names, outExpr)
	if s.IsEmptyKnown() {
		b.WriteString(" : false }")
		return b.String()
	}
	if rows := s.Constraints(); len(rows) > 0 {
		parts := make([]string, len(rows))
		for i, r := range rows {
			parts[i] = printRow(r, names)
		}
		b.WriteString(" : " + strings.Join(parts, " and "))
	}
	b.WriteString(" }")
	return b.String()
}

// fixedOutputs finds, one at a time, an equality with coefficient ±1 on one
// output dim and 0 on the others, records the defining expression and
// substitutes it into the other rows. It returns the remaining rows as a set
// and the expressions ("" for dims printed by name). On overflow it gives up
// and returns m's rows with no expressions.
func (m *Map) fixedOutputs(names []string) (rest *Set, exprs []string) {
	sp := m.space
	ni, no := sp.NIn(), sp.NOut()
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(overflow); !ok {
				panic(r)
			}
			rest, exprs = m.set, nil
		}
	}()
	wsp := sp.wrapped()
	s := m.set
	outExpr := make([]string, no)
	for {
		rows := s.Constraints()
		pick, k := -1, -1
		for i, r := range rows {
			if !r.Eq {
				continue
			}
			kk, nz := -1, 0
			for j := range no {
				if r.Coef[ni+j] != 0 {
					kk, nz = j, nz+1
				}
			}
			if nz == 1 && abs(r.Coef[ni+kk]) == 1 && outExpr[kk] == "" {
				pick, k = i, kk
				break
			}
		}
		if pick < 0 {
			break
		}
		e := rows[pick].Coef
		// o_k = -c·rest where c = e[ni+k] = ±1.
		var rest []int64
		var rnames []string
		for j, v := range e {
			if j >= ni && j < ni+no {
				continue
			}
			rest = append(rest, -v*e[ni+k])
			if j < len(names) {
				rnames = append(rnames, names[j])
			}
		}
		outExpr[k] = exprString(rest, rnames)
		var others []Constraint
		for i, r := range rows {
			if i != pick {
				others = append(others, Constraint{Eq: r.Eq, Coef: combineOut(r.Coef, e, ni+k)})
			}
		}
		t, err := NewSet(wsp, others...)
		if err != nil {
			panic(overflow{})
		}
		s = t
		if s.IsEmptyKnown() {
			return s, nil
		}
	}
	return s, outExpr
}

// exprString prints the affine form c·(vars, 1), e.g. "i - 2n + 1", "0".
func exprString(c []int64, names []string) string {
	var b strings.Builder
	put := func(v int64, s string) {
		switch {
		case b.Len() == 0 && v < 0:
			b.WriteString("-")
		case b.Len() > 0 && v < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		b.WriteString(s)
	}
	for i, name := range names {
		if v := c[i]; v != 0 {
			put(v, term(abs(v), name))
		}
	}
	if v := c[len(names)]; v != 0 || b.Len() == 0 {
		put(v, strconv.FormatInt(abs(v), 10))
	}
	return b.String()
}

// ParseMap reads a relation in isl notation:
//
//	map   := [ "[" names "]" "->" ] "{" tuple "->" otuple [ ":" disj ] "}"
//	otuple:= [ name ] "[" [ entry { "," entry } ] "]"
//	entry := name | expr
//
// with tuple and disj as in ParseUnion. Identical disjuncts count once. An output entry that is a name not
// yet bound names a new output dim; any other entry is an affine expression
// of params, input dims and earlier output dims and gives an output dim
// (with a generated name) equal to it. A disjunction must reduce to at most
// one non-empty disjunct. ParseMap never panics; errors are *Error values.
func ParseMap(src string) (m *Map, err error) {
	p := &parser{src: src}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *Error:
				m, err = nil, e
			case overflow:
				m, err = nil, p.errAt(p.tok, "integer overflow")
			default:
				panic(r)
			}
		}
	}()
	p.next()
	return p.mapBody(), nil
}

func (p *parser) mapBody() *Map {
	p.names = map[string]int{}
	var sp MapSpace
	if p.is("[") {
		sp.Params = p.nameList()
		p.expect("->")
	}
	p.expect("{")
	if p.tok.kind == tIdent && !isKeyword(p.tok.text) {
		sp.InName = p.ident().text
	}
	sp.In = p.nameList()
	p.expect("->")
	if p.tok.kind == tIdent && !isKeyword(p.tok.text) {
		sp.OutName = p.ident().text
	}
	// Count the output entries first so that columns are known.
	save := *p
	p.expect("[")
	no, depth := 0, 0
	if !p.is("]") {
		no = 1
	}
	for depth > 0 || !p.is("]") {
		switch {
		case p.tok.kind == tEOF:
			p.fail("expected ']'")
		case p.is("("):
			depth++
		case p.is(")"):
			depth--
		case p.is(",") && depth == 0:
			no++
		}
		p.next()
	}
	*p = save
	ni, np := len(sp.In), len(sp.Params)
	p.nv = ni + no + np
	for i, n := range sp.In {
		p.names[n] = i
	}
	for i, n := range sp.Params {
		p.names[n] = ni + no + i
	}
	p.expect("[")
	var tupleRows []Constraint
	sp.Out = make([]string, no)
	for k := range no {
		if k > 0 {
			p.expect(",")
		}
		if p.tok.kind == tIdent && !isKeyword(p.tok.text) {
			if _, bound := p.names[p.tok.text]; !bound {
				look := *p
				look.next()
				if look.is(",") || look.is("]") {
					sp.Out[k] = p.tok.text
					p.names[p.tok.text] = ni + k
					p.next()
					continue
				}
			}
		}
		e := p.expr()
		c := make([]int64, p.nv+1)
		for j, v := range e {
			c[j] = neg(v)
		}
		c[ni+k] = add(c[ni+k], 1)
		tupleRows = append(tupleRows, Constraint{Eq: true, Coef: c})
	}
	p.expect("]")
	// Generated names for expression entries, distinct from every name.
	used := map[string]bool{}
	for _, n := range slices.Concat(sp.Params, sp.In, sp.Out) {
		used[n] = true
	}
	for k, n := range sp.Out {
		if n != "" {
			continue
		}
		g := fmt.Sprintf("o%d", k)
		for used[g] {
			g += "'"
		}
		used[g] = true
		sp.Out[k] = g
	}
	disj := [][]Constraint{nil}
	if p.is(":") {
		p.next()
		disj = p.disj()
	}
	p.expect("}")
	p.finish()
	var sets []*Set
	for _, rows := range disj {
		s, err := NewSet(sp.wrapped(), slices.Concat(tupleRows, rows)...)
		if err != nil {
			panic(overflow{})
		}
		if !s.IsEmptyKnown() && !slices.ContainsFunc(sets, func(t *Set) bool { return sameRows(s, t) }) {
			sets = append(sets, s)
		}
	}
	switch len(sets) {
	case 0:
		return &Map{space: sp, set: emptySet(sp.wrapped())}
	case 1:
		return &Map{space: sp, set: sets[0]}
	}
	panic(&Error{Line: 1, Col: 1, Msg: "map has more than one disjunct"})
}

func sameRows(s, t *Set) bool {
	return slices.EqualFunc(s.Constraints(), t.Constraints(), func(x, y Constraint) bool {
		return x.Eq == y.Eq && slices.Equal(x.Coef, y.Coef)
	})
}
