package deps

import (
	"strings"

	"nestor/ir"
	"nestor/poly"
)

// Relation prints e's polyhedron as an isl map, without the parameter
// header, the way isl itself would: target counters fixed by an equality
// appear in the target tuple, redundant constraints are gone, and the bounds
// of each variable read as one chain:
//
//	S1[i, k, j] -> S1[i, k', j] : 0 <= i < ni and 0 <= j < nj and 0 <= k < k' < nk
//
// Locals are existentially quantified.
func (g *Graph) Relation(e *Edge) string {
	s, t := g.Prog.Stmts[e.Source], g.Prog.Stmts[e.Target]
	set := e.Set
	if r, err := set.RemoveRedundant(); err == nil {
		set = r
	}
	dims := set.Space().Dims
	ds, dt := s.Depth(), t.Depth()
	names := ir.Names{Iter: dims, Param: ir.ParamNames(g.Prog)}
	rows := set.Constraints()

	// A target counter with a unit coefficient in an equality that no other
	// target counter or local appears in is a function of the rest: print
	// it in the tuple and substitute it everywhere else.
	out := make([]string, dt)
	for k := range dt {
		v := ds + k
		out[k] = dims[v]
		for r, row := range rows {
			if !row.Eq || (row.Coef[v] != 1 && row.Coef[v] != -1) || usesOther(row.Coef, v, ds, len(dims)) {
				continue
			}
			def := eliminate(rows, r, v)
			a := constraintAff(def, len(dims)).Aff // v = -(rest)/c, with c = 1 now
			a.Iter[v] = 0
			neg(&a)
			out[k] = ir.FormatAff(a, names)
			rows = append(rows[:r], rows[r+1:]...)
			break
		}
	}
	var b strings.Builder
	b.WriteString(s.Name + "[" + strings.Join(dims[:ds], ", ") + "] -> " + t.Name + "[" + strings.Join(out, ", ") + "]")
	body := formatRows(rows, names, len(dims))
	if body == "" {
		return b.String()
	}
	if locals := dims[ds+dt:]; len(locals) > 0 {
		body = "exists (" + strings.Join(locals, ", ") + " : " + body + ")"
	}
	return b.String() + " : " + body
}

// usesOther reports whether a row uses a target counter or local other than v.
func usesOther(c []int64, v, from, to int) bool {
	for k := from; k < to; k++ {
		if k != v && c[k] != 0 {
			return true
		}
	}
	return false
}

// eliminate scales rows[r] so that v has coefficient 1, substitutes v out
// of every other row (exact: the coefficient is a unit) and returns the
// scaled row.
func eliminate(rows []poly.Constraint, r, v int) poly.Constraint {
	def := poly.Constraint{Eq: true, Coef: append([]int64(nil), rows[r].Coef...)}
	if def.Coef[v] < 0 {
		for k := range def.Coef {
			def.Coef[k] = -def.Coef[k]
		}
	}
	for q := range rows {
		if q == r || rows[q].Coef[v] == 0 {
			continue
		}
		c := rows[q].Coef[v]
		row := append([]int64(nil), rows[q].Coef...)
		for k := range row {
			row[k] -= c * def.Coef[k]
		}
		rows[q] = poly.Constraint{Eq: rows[q].Eq, Coef: row}
	}
	return def
}

func neg(a *ir.Aff) {
	for _, xs := range [][]int64{a.Iter, a.Param, a.Local} {
		for k := range xs {
			xs[k] = -xs[k]
		}
	}
	a.Const = -a.Const
}

// formatRows prints rows joined by "and": for each dimension, the lower and
// upper bounds whose innermost variable it is (with a unit coefficient) as
// one chain "lo <= v < hi"; other rows as single constraints.
func formatRows(rows []poly.Constraint, names ir.Names, nd int) string {
	lower := make([][]string, nd)
	upper := make([][]string, nd)
	var other []string
	for _, row := range rows {
		c := constraintAff(row, nd)
		v := c.Innermost()
		if row.Eq || v < 0 || (c.Iter[v] != 1 && c.Iter[v] != -1) {
			other = append(other, ir.FormatConstraint(c, names))
			continue
		}
		coef := c.Iter[v]
		rest := c.Aff.Clone()
		rest.Iter[v] = 0
		if coef == 1 { // v + rest >= 0: v >= -rest
			neg(&rest)
			lower[v] = append(lower[v], bound(rest, names, true))
		} else { // rest - v >= 0: v <= rest
			upper[v] = append(upper[v], bound(rest, names, false))
		}
	}
	var parts []string
	for v := range nd {
		lo, hi := lower[v], upper[v]
		switch {
		case len(lo) == 1 && len(hi) == 1:
			parts = append(parts, lo[0]+" "+names.Iter[v]+" "+hi[0])
		default:
			for _, l := range lo {
				parts = append(parts, l+" "+names.Iter[v])
			}
			for _, h := range hi {
				parts = append(parts, names.Iter[v]+" "+h)
			}
		}
	}
	return strings.Join(append(parts, other...), " and ")
}

// bound prints one side of a chain: "0 <=" or "k <" for a lower bound,
// "< n" or "<= i" for an upper one, using a strict comparison when that
// removes a ±1.
func bound(a ir.Aff, names ir.Names, lower bool) string {
	if lower {
		if a.Const > 0 && !a.IsConst() { // v >= e + 1: e < v
			a.Const--
			return ir.FormatAff(a, names) + " <"
		}
		return ir.FormatAff(a, names) + " <="
	}
	if a.Const < 0 && !a.IsConst() { // v <= e - 1: v < e
		a.Const++
		return "< " + ir.FormatAff(a, names)
	}
	return "<= " + ir.FormatAff(a, names)
}

// constraintAff converts a poly row over (dims, params, 1) to an ir form
// whose counters are the dims.
func constraintAff(c poly.Constraint, nd int) ir.Constraint {
	n := len(c.Coef)
	return ir.Constraint{Eq: c.Eq, Aff: ir.Aff{
		Iter:  append([]int64(nil), c.Coef[:nd]...),
		Param: append([]int64(nil), c.Coef[nd:n-1]...),
		Const: c.Coef[n-1],
	}}
}

// Union prints the union of the edges of kind k as one isl union map:
// "[n] -> { S0[i] -> S1[i] : ...; S1[i] -> S1[i'] : ... }".
func (g *Graph) Union(k Kind) string {
	var parts []string
	for _, e := range g.Edges {
		if e.Kind == k {
			parts = append(parts, g.Relation(e))
		}
	}
	return "[" + strings.Join(ir.ParamNames(g.Prog), ", ") + "] -> { " + strings.Join(parts, "; ") + " }"
}
