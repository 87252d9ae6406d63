package sched

import (
	"fmt"
	"math/big"
	"nestor/internal/intmath"
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// Schedule maps the counters of every statement to one common time space.
// Rows[s][k] is time dimension k of statement s, an affine form over the
// statement's counters and the program's parameters (Local empty). A
// dimension that is constant for every statement is scalar: it orders
// statements (a fusion or distribution decision) and never becomes a loop.
type Schedule struct {
	Rows [][]ir.Aff
	// Coincident[k] says which statements time dimension k carries no
	// dependence of: a statement is free at k when no edge with it at one
	// end, live at k, has a nonzero distance there. Scalar dimensions and
	// schedules not from Compute know only All.
	Coincident []Coincidence
	// Bands lists the permutable bands: runs of loop dimensions every
	// one of which respects (distance ≥ 0) every dependence not
	// satisfied by an earlier dimension outside the band. Tiling and loop
	// permutation stay inside a band.
	Bands []Band
	// Work is what Compute spent finding the schedule, in poly.Work units
	// (see Options.Budget).
	Work int64
	// Lifted is the number of parameters that stood for p's constant
	// sizes while Compute scheduled it (0: none; see LiftConstants).
	Lifted int
}

// Coincidence says which statements a schedule dimension, a band member
// or a loop carries no dependence of (isl's coincident): All when it
// carries none at all; otherwise For[s] per statement s (nil: only All is
// known). A loop around statements that all have it carries no
// dependence, though other statements' loops of the same dimension do (a
// distributed nest: gramschmidt's norm is a reduction along i, its update
// loops are parallel along j). It is the one record of parallelism:
// schedules, schedule trees and laid-out loops (LoopInfo) keep it.
type Coincidence struct {
	All bool
	For []bool
}

// Of reports whether a loop around exactly stmts carries no dependence:
// all of them are free (false for no statement unless All).
func (c Coincidence) Of(stmts ...int) bool {
	if c.All {
		return true
	}
	if c.For == nil || len(stmts) == 0 {
		return false
	}
	for _, st := range stmts {
		if !c.For[st] {
			return false
		}
	}
	return true
}

// ParallelFor reports whether dimension k carries no dependence of
// statement st.
func (sc *Schedule) ParallelFor(k, st int) bool { return sc.Coincident[k].Of(st) }

// AnyParallel reports whether some dimension carries no dependence at all.
func (sc *Schedule) AnyParallel() bool {
	return slices.ContainsFunc(sc.Coincident, func(c Coincidence) bool { return c.All })
}

// Band is the run of time dimensions [Start, End).
type Band struct{ Start, End int }

// Dims is the number of time dimensions.
func (sc *Schedule) Dims() int {
	if len(sc.Rows) == 0 {
		return 0
	}
	return len(sc.Rows[0])
}

// scalar reports whether dimension k is constant for every statement.
func (sc *Schedule) scalar(k int) bool {
	for _, rows := range sc.Rows {
		for _, c := range rows[k].Iter {
			if c != 0 {
				return false
			}
		}
	}
	return true
}

// Original returns the schedule of the program as written: the 2d+1
// vectors (β0, Dir·i1, β1, ...), padded with zeros to a common length.
func Original(p *ir.Program) *Schedule {
	m := 0
	for _, s := range p.Stmts {
		m = max(m, 2*s.Depth()+1)
	}
	np := len(p.Params)
	sc := &Schedule{Rows: make([][]ir.Aff, len(p.Stmts)), Coincident: make([]Coincidence, m)}
	for k, s := range p.Stmts {
		d := s.Depth()
		rows := make([]ir.Aff, m)
		for j := range rows {
			rows[j] = ir.Aff{Iter: make([]int64, d), Param: make([]int64, np)}
		}
		for l := 0; l <= d; l++ {
			rows[2*l].Const = int64(s.Beta[l])
			if l < d {
				rows[2*l+1].Iter[l] = int64(s.Dir[l])
			}
		}
		sc.Rows[k] = rows
	}
	return sc
}

// OriginalParallel returns the original schedule (Original) with its
// Parallel dimensions: the loop dimension of depth d is parallel when no
// dependence of g is carried by a loop of depth d.
func OriginalParallel(p *ir.Program, g *deps.Graph) *Schedule {
	sc := Original(p)
	for k := 1; k < len(sc.Coincident); k += 2 {
		sc.Coincident[k].All = true
	}
	for _, e := range g.Edges {
		if d := e.Depth; d <= e.Common && 2*d-1 < len(sc.Coincident) {
			sc.Coincident[2*d-1].All = false
		}
	}
	return sc
}

// Apply rewrites p so that its original order is sc: every statement gets
// the loop dimensions of sc as counters (named t1, t2, ...), its domain
// expressed over them, its beta vector from the scalar dimensions, and its
// body and subscripts with each old counter replaced by its value in the new
// ones. The result runs the same instances in the order sc gives, and the
// existing code generator scans it.
//
// Each statement's rows over its own counters must contain a unimodular
// square matrix in the rows that are not constant for it, one row per
// counter; a dimension constant for a statement (but a loop for others)
// becomes an equality of its domain. Domains with floor-division locals are
// not supported yet.
func Apply(p *ir.Program, sc *Schedule) (*ir.Program, error) {
	out, _, err := ApplyPlan(p, sc, Plan{})
	return out, err
}

// timeNames returns n counter names that clash with no parameter or array.
func timeNames(p *ir.Program, n int) []string {
	taken := map[string]bool{}
	for _, q := range p.Params {
		taken[q.Name] = true
	}
	for _, a := range p.Arrays {
		taken[a.Name] = true
	}
	for _, v := range p.Vars { // declared outside: a loop would reuse, not declare, them
		taken[v] = true
	}
	for prefix := "t"; ; prefix += "t" {
		out := make([]string, n)
		clash := false
		for k := range out {
			out[k] = fmt.Sprintf("%s%d", prefix, k+1)
			clash = clash || taken[out[k]]
		}
		if !clash {
			return out
		}
	}
}

// stmtMap returns statement s's counters as affine forms over the counters
// of the loop dimensions (old), and its domain over them (cons, without
// the projections the code generator needs).
//
// Floor-division locals (ir.Div) carry over — a[(t+1)%2] is
// a[t + 1 − 2q] with q = ⌊(t+1)/2⌋, and a guard t % 2 == 1 the
// congruence t = 2q − 1: each numerator is rewritten in the new counters
// (divs, numerators over the loop dimensions), which defines the same q
// at every instance, and the constraints and subscripts keep their
// locals' coefficients.
func stmtMap(p *ir.Program, s *ir.Stmt, rows []ir.Aff, loops []int) (old []ir.Aff, cons []ir.Constraint, divs []ir.Div, err error) {
	d, np, m := s.Depth(), len(p.Params), len(loops)
	// The rows of the loop dimensions that move with this statement's
	// counters form M; i = M⁻¹·(t_sel − N·p − c).
	// A row that is a combination of earlier ones (a loop of a band the
	// statement shares after its own counters ran out, as Pluto schedules
	// fdtd-2d's ey[0][j] = …: [t, t + j, t]) does not enter M; its loop
	// takes one value, an equality below.
	var sel, dep []int // positions in loops
	var lin [][]int64
	for j, k := range loops {
		if isConstant(rows[k]) {
			continue
		}
		if rankOf(append(slices.Clone(lin), rows[k].Iter)) > len(lin) {
			lin = append(lin, rows[k].Iter)
			sel = append(sel, j)
		} else {
			dep = append(dep, j)
		}
	}
	if len(sel) != d {
		return nil, nil, nil, fmt.Errorf("%d schedule rows span %d of its %d counters", len(sel)+len(dep), len(sel), d)
	}
	M := make([][]int64, d)
	for r, j := range sel {
		M[r] = rows[loops[j]].Iter
	}
	inv, err := unimodularInverse(M)
	if err != nil {
		return nil, nil, nil, err
	}
	// old[l] = Σ_r inv[l][r]·(t_sel[r] − Param·p − c), an affine form over the new counters.
	old = make([]ir.Aff, d)
	for l := range d {
		a := ir.Aff{Iter: make([]int64, m), Param: make([]int64, np)}
		for r, j := range sel {
			row := rows[loops[j]]
			a.Iter[j] += inv[l][r]
			for q := range np {
				a.Param[q] -= inv[l][r] * row.Param[q]
			}
			a.Const -= inv[l][r] * row.Const
		}
		old[l] = a
	}
	for _, c := range s.Domain.Cons {
		cons = append(cons, ir.Constraint{Eq: c.Eq, Aff: substitute(c.Aff, old, m, np)})
	}
	for _, j := range dep { // t_j = row, the row in the other loop dimensions
		a := substitute(rows[loops[j]], old, m, np)
		a = neg(a)
		a.Iter[j]++
		cons = append(cons, ir.Constraint{Eq: true, Aff: a})
	}
	for j, k := range loops { // a loop dimension constant for s: t_j = row
		if !isConstant(rows[k]) {
			continue
		}
		a := ir.Aff{Iter: make([]int64, m), Param: make([]int64, np)}
		a.Iter[j] = 1
		for q := range np {
			a.Param[q] = -rows[k].Param[q]
		}
		a.Const = -rows[k].Const
		cons = append(cons, ir.Constraint{Eq: true, Aff: a})
	}
	for _, dv := range s.Domain.Divs {
		divs = append(divs, ir.Div{Num: substitute(dv.Num, old, m, np), Den: dv.Den})
	}
	return old, cons, divs, nil
}

func isConstant(a ir.Aff) bool {
	for _, c := range a.Iter {
		if c != 0 {
			return false
		}
	}
	return true
}

// betas returns every statement's beta vector: entry l orders the
// statements between loop l-1 and loop l by the tuple of the scalar
// dimensions there, compared lexicographically and replaced by its rank.
func betas(sc *Schedule, loops []int) [][]int {
	gap := make([]int, sc.Dims()) // the beta entry each scalar dim belongs to
	l := 0
	for k := range gap {
		if l < len(loops) && loops[l] == k {
			l++
			gap[k] = -1
			continue
		}
		gap[k] = l
	}
	out := make([][]int, len(sc.Rows))
	for s := range out {
		out[s] = make([]int, len(loops)+1)
	}
	for g := 0; g <= len(loops); g++ {
		tuple := func(s int) []int64 {
			var t []int64
			for k, gk := range gap {
				if gk == g {
					t = append(t, sc.Rows[s][k].Const)
				}
			}
			return t
		}
		for s := range sc.Rows {
			rank := 0
			for u := range sc.Rows {
				if slices.Compare(tuple(u), tuple(s)) < 0 {
					rank++
				}
			}
			out[s][g] = rank
		}
	}
	return out
}

// substitute rewrites a form over old counters as a form over new ones;
// the locals' coefficients stay.
func substitute(a ir.Aff, old []ir.Aff, m, np int) ir.Aff {
	out := ir.Aff{Iter: make([]int64, m), Param: append([]int64(nil), a.Param...), Local: slices.Clone(a.Local), Const: a.Const}
	if len(out.Param) < np {
		out.Param = append(out.Param, make([]int64, np-len(out.Param))...)
	}
	for l, c := range a.Iter {
		if c == 0 {
			continue
		}
		for j := range m {
			out.Iter[j] += c * old[l].Iter[j]
		}
		for q := range np {
			out.Param[q] += c * old[l].Param[q]
		}
		out.Const += c * old[l].Const
	}
	return out
}

// rewriteIters replaces every counter reference of e by its affine value
// in the new counters.
func rewriteIters(e ir.Expr, old []ir.Aff, np int) ir.Expr {
	switch e := e.(type) {
	case *ir.IterRef:
		return affExpr(old[e.Level], e.T)
	case *ir.Unary:
		return &ir.Unary{Op: e.Op, X: rewriteIters(e.X, old, np), T: e.T}
	case *ir.Binary:
		return &ir.Binary{Op: e.Op, X: rewriteIters(e.X, old, np), Y: rewriteIters(e.Y, old, np), T: e.T}
	case *ir.Cond:
		return &ir.Cond{C: rewriteIters(e.C, old, np), X: rewriteIters(e.X, old, np), Y: rewriteIters(e.Y, old, np), T: e.T}
	case *ir.Cast:
		return &ir.Cast{T: e.T, X: rewriteIters(e.X, old, np), Implicit: e.Implicit}
	case *ir.Call:
		args := make([]ir.Expr, len(e.Args))
		for k, a := range e.Args {
			args[k] = rewriteIters(a, old, np)
		}
		return &ir.Call{Fn: e.Fn, Args: args, T: e.T}
	}
	return e
}

// affExpr builds the expression of an affine form typed t.
func affExpr(a ir.Aff, t ir.Type) ir.Expr {
	var e ir.Expr
	add := func(term ir.Expr, c int64) {
		if c == 0 {
			return
		}
		if c != 1 && c != -1 {
			term = &ir.Binary{Op: ir.Mul, X: &ir.Const{T: t, Int: intmath.Abs(c)}, Y: term, T: t}
		}
		switch {
		case e == nil && c < 0:
			e = &ir.Unary{Op: ir.Neg, X: term, T: t}
		case e == nil:
			e = term
		case c < 0:
			e = &ir.Binary{Op: ir.Sub, X: e, Y: term, T: t}
		default:
			e = &ir.Binary{Op: ir.Add, X: e, Y: term, T: t}
		}
	}
	for j, c := range a.Iter {
		add(&ir.IterRef{T: t, Level: j}, c)
	}
	for q, c := range a.Param {
		add(&ir.ParamRef{T: t, Param: q}, c)
	}
	if a.Const != 0 || e == nil {
		k := &ir.Const{T: t, Int: intmath.Abs(a.Const)}
		switch {
		case e == nil && a.Const < 0:
			return &ir.Const{T: t, Int: a.Const}
		case e == nil:
			return k
		case a.Const < 0:
			return &ir.Binary{Op: ir.Sub, X: e, Y: k, T: t}
		}
		return &ir.Binary{Op: ir.Add, X: e, Y: k, T: t}
	}
	return e
}

// unimodularInverse returns the integer inverse of the square matrix M, or
// an error when M is singular or its inverse is not integral.
func unimodularInverse(M [][]int64) ([][]int64, error) {
	n := len(M)
	m := make([][]*big.Rat, n)
	for i := range m {
		m[i] = make([]*big.Rat, n)
		for j := range n {
			m[i][j] = new(big.Rat).SetInt64(M[i][j])
		}
	}
	inv, ok := invert(m)
	if !ok {
		return nil, fmt.Errorf("schedule matrix %v is singular", M)
	}
	out := make([][]int64, n)
	for i := range out {
		out[i] = make([]int64, n)
		for j := range n {
			v := inv[i][j]
			if !v.IsInt() || !v.Num().IsInt64() {
				return nil, fmt.Errorf("schedule matrix %v is not unimodular", M)
			}
			out[i][j] = v.Num().Int64()
		}
	}
	return out, nil
}

// withProjections adds, for every prefix of the counters, the constraints
// of the domain's projection onto it (Fourier–Motzkin, the rational shadow:
// implied by the domain, so the integer points do not change), so that the
// code generator finds bounds for every loop from the constraints whose
// innermost counter it is.
func withProjections(cons []ir.Constraint, m, np int) ([]ir.Constraint, error) {
	rows := irpoly.Layout{Dims: m, Params: np}.Cons(cons, 0, m)
	set, err := poly.NewSet(irpoly.Anonymous(m, np), rows...)
	if err != nil {
		return nil, err
	}
	out := append([]ir.Constraint(nil), cons...)
	seen := map[string]bool{}
	for _, c := range cons {
		seen[fmt.Sprint(c)] = true
	}
	for d := m - 1; d > 0; d-- {
		if set, _, err = set.ProjectOutRational(d); err != nil {
			return nil, err
		}
		for _, r := range set.Constraints() {
			// Rows of the projection use dims 0..d-1; put them back in m dims.
			c := ir.Constraint{Eq: r.Eq, Aff: ir.Aff{Iter: make([]int64, m), Param: append([]int64(nil), r.Coef[d:d+np]...), Const: r.Coef[d+np]}}
			copy(c.Iter, r.Coef[:d])
			if k := fmt.Sprint(c); !seen[k] {
				seen[k] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}
