package codegen

import (
	"math"

	"nestor/ir"
)

// counterType returns the C type of the loop counters the generated code
// declares: int, as the original loops use, unless the values the loops
// range over may not fit one. That is the case when a parameter, or a
// counter the statements read, has a type wider than int (the original
// declared long counters or sizes), or when a constant of a domain or a
// subscript is out of int's range (#define N 3037000499L): a tiled loop
// of such a program counts up to values the original counted with long
// counters, and an int counter would overflow.
func counterType(p *ir.Program) string {
	wide := func(t ir.Type) bool { return t.IsInteger() && t.Size() > 4 }
	for _, q := range p.Params {
		if wide(q.Type) {
			return "long"
		}
	}
	big := func(a ir.Aff) bool { return a.Const > math.MaxInt32 || a.Const < math.MinInt32 }
	for _, s := range p.Stmts {
		for _, c := range s.Domain.Cons {
			if big(c.Aff) {
				return "long"
			}
		}
		for _, d := range s.Domain.Divs {
			if big(d.Num) {
				return "long"
			}
		}
		for _, a := range s.Accesses {
			for _, x := range a.Index {
				if big(x) {
					return "long"
				}
			}
		}
		found := false
		ir.Walk(s.RHS, func(e ir.Expr) bool {
			if r, ok := e.(*ir.IterRef); ok && wide(r.T) {
				found = true
			}
			return !found
		})
		if found {
			return "long"
		}
	}
	return "int"
}
