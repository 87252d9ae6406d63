package sched

import (
	"fmt"
	"strings"

	"nestor/ir"
)

// Format prints a schedule one statement per line, isl style:
// "S1[i, j, k] -> [0, i, j, k]", then the parallel dimensions.
func Format(p *ir.Program, sc *Schedule) string {
	var b strings.Builder
	params := ir.ParamNames(p)
	for st, s := range p.Stmts {
		names := ir.Names{Iter: s.Iters, Param: params}
		dims := make([]string, len(sc.Rows[st]))
		for k, a := range sc.Rows[st] {
			dims[k] = ir.FormatAff(a, names)
		}
		fmt.Fprintf(&b, "%s[%s] -> [%s]\n", s.Name, strings.Join(s.Iters, ", "), strings.Join(dims, ", "))
	}
	var par []string
	for k, ok := range sc.Parallel {
		if ok {
			par = append(par, fmt.Sprint(k))
		}
	}
	fmt.Fprintf(&b, "parallel dimensions: [%s]\n", strings.Join(par, ", "))
	return b.String()
}
