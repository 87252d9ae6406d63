package frontend

import (
	"fmt"
	"nestor/internal/intmath"
	"slices"

	"nestor/ir"
	"nestor/poly"
)

// Case splits. Some values a region reads are affine only piecewise: the
// remainder x % m is the constant r where x ≡ r (mod m), and the value of
// a loop counter after its loop is the first value past the bound that
// was the smallest, or the first value when the loop never ran. Such a
// value is a placeholder: a local of the domain (a Div with Den 1, which
// floor division never makes, and Num.Const naming the placeholder) whose
// cases (alt) partition the space. When a statement uses a placeholder, in
// its domain, a subscript or the definition of another local, emit makes
// one statement per case (expand): the local gets the case's definition,
// the case's conditions join the domain, and the placeholder is replaced
// by the case's value everywhere. The copies differ only in the last Beta
// entry, and since their conditions are disjoint, at most one of them runs
// at any iteration point, so the original execution order is kept.

// alt is one case of a placeholder local l. Its forms may use the
// counters and parameters, the locals before l, and l itself, which is
// then defined by div (ir.Div), or is 0 when div is nil.
type alt struct {
	div   *ir.Div
	cons  []ir.Constraint
	value ir.Aff
}

// maxCopies bounds the statements one statement may expand into.
const maxCopies = 64

// placeholder appends a placeholder local with the given cases to the
// domain's locals and returns the form q_l.
func (b *builder) placeholder(alts []alt) ir.Aff {
	if b.cases == nil {
		b.cases = map[int64][]alt{}
	}
	id := int64(len(b.cases) + 1)
	b.cases[id] = alts
	num := ir.NewAff(len(b.loops), b.np, len(b.divs))
	num.Const = id
	b.divs = append(b.divs, ir.Div{Num: num, Den: 1})
	a := ir.NewAff(len(b.loops), b.np, len(b.divs))
	a.Local[len(b.divs)-1] = 1
	return a
}

// placeholderCases returns the cases of local dv when it is a placeholder.
func (b *builder) placeholderCases(dv ir.Div) ([]alt, bool) {
	if dv.Den != 1 {
		return nil, false
	}
	alts, ok := b.cases[dv.Num.Const]
	return alts, ok
}

// expand returns the statements st stands for: itself when it uses no
// placeholder, else one copy per feasible combination of cases. Accesses
// come back without locals; a subscript that still uses one is an error
// (false).
func (b *builder) expand(st *ir.Stmt) ([]*ir.Stmt, string) {
	out := []*ir.Stmt{st}
	for l := len(st.Domain.Divs) - 1; l >= 0; l-- {
		alts, ok := b.placeholderCases(st.Domain.Divs[l])
		if !ok {
			continue
		}
		var next []*ir.Stmt
		for _, s := range out {
			if !usesLocal(s, l) {
				s.Domain.Divs[l] = ir.Div{Num: ir.NewAff(s.Depth(), b.np, l), Den: 1}
				next = append(next, s)
				continue
			}
			for _, a := range alts {
				c := b.substitute(s, l, a)
				if b.feasible(c) {
					next = append(next, c)
				}
			}
		}
		if len(next) > maxCopies {
			return nil, fmt.Sprintf("its values are affine in %d pieces, more than %d", len(next), maxCopies)
		}
		out = next
	}
	if b.inexpr {
		b.inexpr = false
		return nil, "a counter's value after its loop needs a floor division, which nestor reads in subscripts and bounds, not in expressions"
	}
	for _, s := range out {
		if hasMarker(s.RHS, -1) {
			return nil, "frontend: internal error: a placeholder left in an expression"
		}
		foldConstLocals(s)
		mergeLocals(s)
		compactLocals(s)
		s.Domain.Cons = dedupe(s.Domain.Cons)
		for _, acc := range s.Accesses {
			for k, x := range acc.Index {
				if slices.ContainsFunc(x.Local, func(v int64) bool { return v != 0 }) {
					return nil, "a subscript depends on a floor division (a quotient, or the value a loop with a step leaves in its counter), and nestor keeps subscripts affine in the counters"
				}
				acc.Index[k].Local = []int64{}
			}
		}
	}
	return out, ""
}

// usesLocal reports whether statement s uses local l anywhere.
func usesLocal(s *ir.Stmt, l int) bool {
	uses := func(a ir.Aff) bool { return l < len(a.Local) && a.Local[l] != 0 }
	for _, c := range s.Domain.Cons {
		if uses(c.Aff) {
			return true
		}
	}
	for _, dv := range s.Domain.Divs {
		if uses(dv.Num) {
			return true
		}
	}
	for _, acc := range s.Accesses {
		if slices.ContainsFunc(acc.Index, uses) {
			return true
		}
	}
	return hasMarker(s.RHS, l)
}

// substitute returns a copy of s in case a of placeholder l.
func (b *builder) substitute(s *ir.Stmt, l int, a alt) *ir.Stmt {
	d, nl := s.Depth(), len(s.Domain.Divs)
	fit := func(x ir.Aff) ir.Aff { return padAff(x, d, b.np, nl) }
	value := fit(a.value)
	// x − c·q_l + c·value, where value may use q_l itself (its new
	// definition).
	sub := func(x ir.Aff) ir.Aff {
		x = fit(x)
		c := x.Local[l]
		if c == 0 {
			return x
		}
		x.Local[l] = 0
		r, _, ok := addAff(x, c, value)
		if !ok {
			b.overflow = true
			return x
		}
		return r
	}
	c := &ir.Stmt{Name: s.Name, Iters: slices.Clone(s.Iters), Dir: slices.Clone(s.Dir), Beta: slices.Clone(s.Beta), Op: s.Op,
		RHS: cloneExpr(s.RHS), Pos: s.Pos, Text: s.Text}
	for k, dv := range s.Domain.Divs {
		switch {
		case k == l && a.div != nil:
			c.Domain.Divs = append(c.Domain.Divs, ir.Div{Num: fit(a.div.Num), Den: a.div.Den})
		case k == l:
			c.Domain.Divs = append(c.Domain.Divs, ir.Div{Num: ir.NewAff(d, b.np, nl), Den: 1})
		default:
			c.Domain.Divs = append(c.Domain.Divs, ir.Div{Num: sub(dv.Num), Den: dv.Den})
		}
	}
	for _, k := range s.Domain.Cons {
		c.Domain.Cons = append(c.Domain.Cons, ir.Constraint{Aff: sub(k.Aff), Eq: k.Eq})
	}
	for _, k := range a.cons {
		c.Domain.Cons = append(c.Domain.Cons, ir.Constraint{Aff: fit(k.Aff), Eq: k.Eq})
	}
	for _, acc := range s.Accesses {
		na := &ir.Access{Array: acc.Array, Write: acc.Write}
		for _, x := range acc.Index {
			na.Index = append(na.Index, sub(x))
		}
		c.Accesses = append(c.Accesses, na)
	}
	if hasMarker(s.RHS, l) {
		// The value in an expression: its placeholders become markers
		// again; a floor-division local cannot be written there.
		for k, v := range value.Local {
			if _, ok := b.placeholderCases(s.Domain.Divs[k]); v != 0 && (k == l || !ok) {
				b.inexpr = true
			}
		}
		c.RHS = replaceMarker(s.RHS, l, func(t ir.Type) ir.Expr { return affExpr(value, t, b.prog.Params, b.exprTypes) })
	}
	return c
}

// feasible reports whether s's domain may have a point: false only when
// poly proves it empty (placeholders not yet expanded are unconstrained).
func (b *builder) feasible(s *ir.Stmt) bool {
	empty, err := b.empty(s.Depth(), s.Domain.Divs, s.Domain.Cons, nil)
	return err != nil || !empty
}

// empty reports whether the constraints cons and extra, over d counters,
// the parameters and the locals divs (each bound by its definition,
// placeholders left free), have no integer point. Parameters range over
// all integers, constrained by the program's context.
func (b *builder) empty(d int, divs []ir.Div, cons, extra []ir.Constraint) (bool, error) {
	nl := len(divs)
	nd := d + nl
	sp := poly.Space{Dims: make([]string, nd), Params: make([]string, b.np)}
	for k := range sp.Dims {
		sp.Dims[k] = fmt.Sprintf("x%d", k)
	}
	for k := range sp.Params {
		sp.Params[k] = fmt.Sprintf("p%d", k)
	}
	row := func(a ir.Aff) []int64 {
		a = padAff(a, d, b.np, nl)
		r := make([]int64, nd+b.np+1)
		copy(r, a.Iter)
		copy(r[d:], a.Local)
		copy(r[nd:], a.Param)
		r[nd+b.np] = a.Const
		return r
	}
	var rows []poly.Constraint
	for _, c := range append(slices.Clone(cons), extra...) {
		rows = append(rows, poly.Constraint{Eq: c.Eq, Coef: row(c.Aff)})
	}
	for l, dv := range divs {
		if _, ok := b.placeholderCases(dv); ok || dv.Den <= 1 {
			continue
		}
		// Den·q ≤ Num ≤ Den·q + Den − 1.
		q := ir.NewAff(d, b.np, nl)
		q.Local[l] = dv.Den
		lo, _, ok1 := addAff(dv.Num, -1, q)
		hi, _, ok2 := addAff(q, -1, dv.Num)
		if !ok1 || !ok2 {
			return false, poly.ErrOverflow
		}
		hi.Const += dv.Den - 1
		rows = append(rows, poly.Constraint{Coef: row(lo)}, poly.Constraint{Coef: row(hi)})
	}
	for _, c := range b.prog.Context {
		rows = append(rows, poly.Constraint{Eq: c.Eq, Coef: row(c.Aff)})
	}
	set, err := poly.NewSet(sp, rows...)
	if err != nil {
		return false, err
	}
	return set.IsEmptyWork(b.work)
}

// nonNegative reports whether x ≥ 0 wherever the current statement can
// run (the enclosing loops' and guards' constraints); false when poly
// cannot tell.
func (b *builder) nonNegative(x ir.Aff) bool {
	neg, _, ok := scaleAff(x, -1)
	if !ok {
		return false
	}
	neg.Const--
	empty, err := b.empty(len(b.loops), b.divs, b.cons, []ir.Constraint{{Aff: neg}})
	return err == nil && empty
}

// compactLocals removes the locals of s that nothing uses.
func compactLocals(s *ir.Stmt) {
	for l := len(s.Domain.Divs) - 1; l >= 0; l-- {
		if usesLocal(s, l) {
			continue
		}
		drop := func(a *ir.Aff) {
			if l < len(a.Local) {
				a.Local = slices.Delete(slices.Clone(a.Local), l, l+1)
			}
		}
		s.Domain.Divs = slices.Delete(s.Domain.Divs, l, l+1)
		for k := range s.Domain.Divs {
			drop(&s.Domain.Divs[k].Num)
		}
		for k := range s.Domain.Cons {
			drop(&s.Domain.Cons[k].Aff)
		}
		for _, acc := range s.Accesses {
			for k := range acc.Index {
				drop(&acc.Index[k])
			}
		}
	}
}

// modCases returns the cases of x % m for x ≥ 0: for r = 0, ..., m−1,
// the local ⌊(x − r)/m⌋ with x − r − m·q = 0, and the value r.
func modCases(x ir.Aff, m int64, l int) ([]alt, bool) {
	var alts []alt
	for r := int64(0); r < m; r++ {
		// x − r ≡ 0 (mod m): the constant reduced to [0, m), so that equal
		// congruences print alike.
		num := x.Clone()
		num.Const = ((x.Const%m-r)%m + m) % m
		q := ir.NewAff(len(x.Iter), len(x.Param), l+1)
		q.Local[l] = m
		eq, _, ok := addAff(num, -1, q)
		if !ok {
			return nil, false
		}
		v := ir.NewAff(len(x.Iter), len(x.Param), 0)
		v.Const = r
		alts = append(alts, alt{div: &ir.Div{Num: num, Den: m}, cons: []ir.Constraint{{Aff: eq, Eq: true}}, value: v})
	}
	return alts, true
}

// mergeLocals makes the locals of s with the same definition one: uses of
// the later move to the earlier.
func mergeLocals(s *ir.Stmt) {
	divs := s.Domain.Divs
	for l := range divs {
		for k := 0; k < l; k++ {
			if divs[k].Den != divs[l].Den || !divs[k].Num.Equal(divs[l].Num) || divs[k].Den == 1 {
				continue
			}
			move := func(a *ir.Aff) {
				if l < len(a.Local) && a.Local[l] != 0 {
					a.Local = slices.Clone(a.Local)
					a.Local[k] += a.Local[l]
					a.Local[l] = 0
				}
			}
			for j := range divs {
				move(&divs[j].Num)
			}
			for j := range s.Domain.Cons {
				move(&s.Domain.Cons[j].Aff)
			}
			for _, acc := range s.Accesses {
				for j := range acc.Index {
					move(&acc.Index[j])
				}
			}
			break
		}
	}
}

// dedupe drops repeated constraints.
func dedupe(cons []ir.Constraint) []ir.Constraint {
	var out []ir.Constraint
	for _, c := range cons {
		if !slices.ContainsFunc(out, func(d ir.Constraint) bool { return d.Eq == c.Eq && d.Aff.Equal(c.Aff) }) {
			out = append(out, c)
		}
	}
	return out
}

// foldConstLocals replaces each local of s whose definition is constant
// by its value.
func foldConstLocals(s *ir.Stmt) {
	divs := s.Domain.Divs
	for l := range divs {
		if !divs[l].Num.IsConst() || divs[l].Den < 1 {
			continue
		}
		v := intmath.FloorDiv(divs[l].Num.Const, divs[l].Den)
		fold := func(a *ir.Aff) {
			if l < len(a.Local) && a.Local[l] != 0 {
				a.Local = slices.Clone(a.Local)
				a.Const += a.Local[l] * v
				a.Local[l] = 0
			}
		}
		for j := range divs {
			fold(&divs[j].Num)
		}
		for j := range s.Domain.Cons {
			fold(&s.Domain.Cons[j].Aff)
		}
		for _, acc := range s.Accesses {
			for j := range acc.Index {
				fold(&acc.Index[j])
			}
		}
	}
}

// cloneExpr returns a deep copy of e, so that no two statements share a
// node.
func cloneExpr(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Const:
		c := *x
		return &c
	case *ir.Load:
		c := *x
		return &c
	case *ir.IterRef:
		c := *x
		return &c
	case *ir.ParamRef:
		c := *x
		return &c
	}
	return replaceMarker(e, -1<<30, nil) // rebuilds every inner node
}
