package deps

import (
	"strings"

	"nestor/ir"
	"nestor/poly"
)

// Relation prints e's polyhedron as an isl map, without the parameter
// header: "S0[i, j] -> S1[i', j'] : i' = i and j' >= j + 1". Locals are
// existentially quantified.
func (g *Graph) Relation(e *Edge) string {
	s, t := g.Prog.Stmts[e.Source], g.Prog.Stmts[e.Target]
	dims := e.Set.Space().Dims
	ds, dt := s.Depth(), t.Depth()
	var b strings.Builder
	b.WriteString(s.Name + "[" + strings.Join(dims[:ds], ", ") + "] -> " +
		t.Name + "[" + strings.Join(dims[ds:ds+dt], ", ") + "]")
	cons := e.Set.Constraints()
	if len(cons) == 0 {
		return b.String()
	}
	names := ir.Names{Iter: dims, Param: ir.ParamNames(g.Prog)}
	parts := make([]string, len(cons))
	for k, c := range cons {
		parts[k] = ir.FormatConstraint(constraintAff(c, len(dims)), names)
	}
	body := strings.Join(parts, " and ")
	if locals := dims[ds+dt:]; len(locals) > 0 {
		body = "exists (" + strings.Join(locals, ", ") + " : " + body + ")"
	}
	b.WriteString(" : " + body)
	return b.String()
}

// constraintAff converts a poly row over (dims, params, 1) to an ir form
// whose counters are the dims.
func constraintAff(c poly.Constraint, nd int) ir.Constraint {
	n := len(c.Coef)
	return ir.Constraint{Eq: c.Eq, Aff: ir.Aff{
		Iter:  c.Coef[:nd],
		Param: c.Coef[nd : n-1],
		Const: c.Coef[n-1],
	}}
}

// Union prints the union of the edges of kind k as one isl union map:
// "[n] -> { S0[i] -> S1[i'] : ...; S1[i] -> S1[i'] : ... }".
func (g *Graph) Union(k Kind) string {
	var parts []string
	for _, e := range g.Edges {
		if e.Kind == k {
			parts = append(parts, g.Relation(e))
		}
	}
	return "[" + strings.Join(ir.ParamNames(g.Prog), ", ") + "] -> { " + strings.Join(parts, "; ") + " }"
}
