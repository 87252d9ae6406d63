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
	for k, c := range sc.Coincident {
		if c.All {
			par = append(par, fmt.Sprint(k))
		}
	}
	fmt.Fprintf(&b, "parallel dimensions: [%s]\n", strings.Join(par, ", "))
	var bands []string
	for _, bd := range sc.Bands {
		var dims []string
		for k := bd.Start; k < bd.End; k++ {
			dims = append(dims, fmt.Sprint(k))
		}
		bands = append(bands, "["+strings.Join(dims, ", ")+"]")
	}
	fmt.Fprintf(&b, "permutable bands: %s\n", strings.Join(bands, " "))
	return b.String()
}

// FormatLoops prints the loops ApplyPlan lays out, outermost first: the
// counter, what it scans, and whether it is parallel; with wavefront, the
// loop after a skewed tile loop counts tiles of its wavefront.
func FormatLoops(names []string, loops []LoopInfo) string {
	var b strings.Builder
	for k, l := range loops {
		what := fmt.Sprintf("dimension %d", l.Dim)
		if l.Tile {
			what = fmt.Sprintf("tiles of dimension %d, size %d", l.Dim, l.Size)
		}
		if l.Wavefront {
			what = fmt.Sprintf("wavefronts of tiles: dimension %d + the next loop's, size %d", l.Dim, l.Size)
		}
		par := ""
		if l.Coincident.All {
			par = ", parallel"
		}
		fmt.Fprintf(&b, "%s: %s%s\n", names[k], what, par)
	}
	return b.String()
}
