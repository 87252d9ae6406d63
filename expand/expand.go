package expand

import (
	"fmt"
	"slices"
	"strings"

	"nestor/deps"
	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// Expansion records one live range of a scalar made an array.
type Expansion struct {
	Scalar string // the variable's name
	Old    int    // its index in Program.Arrays
	Array  int    // the new array's index in Program.Arrays
	Kill   int    // the statement that assigns the scalar first in every iteration
	Stmts  []int  // the statements of the live range (Kill first) whose accesses move to the array
	Level  int    // the loop (0 = outermost) whose counter subscripts the new array
	Lo     ir.Aff // the counter's lower bound: the element of counter value i is i − Lo
	Size   ir.Aff // the new array's length, hi − Lo + 1 for the counter's upper bound hi
	// Outer are the loops around Level whose counters subscript the new
	// array too, outermost first, when the range is expanded along every
	// loop of its kill (Options.Product); Level's subscript comes last.
	Outer []Dim
}

// Dim is one subscript of an expanded array: the counter of loop Level
// minus Lo, over Size values.
type Dim struct {
	Level    int
	Lo, Size ir.Aff
}

func (x Expansion) String() string {
	if len(x.Outer) > 0 {
		var loops []string
		for _, d := range x.Outer {
			loops = append(loops, fmt.Sprint(d.Level+1))
		}
		return fmt.Sprintf("%s expanded along loops %s and %d", x.Scalar, strings.Join(loops, ", "), x.Level+1)
	}
	return fmt.Sprintf("%s expanded along loop %d", x.Scalar, x.Level+1)
}

// Options choose what Expand expands besides the ranges whose loop then
// runs in parallel.
type Options struct {
	// Product, when set, reports whether statement s of q is a matrix
	// product the code generator runs as packed blocks: a range of which
	// a statement becomes one when the range is expanded along every loop
	// of its kill is expanded so (symm's temp2, a dot product per (i, j),
	// becomes the product T[i][j] += B[k][j]·A[i][k]).
	Product func(q *ir.Program, s int) bool
}

// Expand returns p with every live range of a scalar that the package
// doc's conditions allow expanded, and what it expanded. p is not
// modified; statements that do not mention an expanded scalar are shared
// with the result. The graph is the result's dependences when Expand
// computed them after its last change (nil otherwise), for the caller to
// reuse.
//
// The ranges killed in the body of one loop are decided together: a loop
// whose iterations share several temporaries (deriche's row sweeps keep
// xm1, ym1 and ym2) runs in parallel only when all of them are expanded,
// and no one of them alone would make it so.
func Expand(p *ir.Program) (*ir.Program, []Expansion, *deps.Graph, error) {
	return ExpandWith(p, Options{})
}

// ExpandWith is Expand with options.
func ExpandWith(p *ir.Program, opt Options) (*ir.Program, []Expansion, *deps.Graph, error) {
	var loops [][]Expansion // the candidate ranges, grouped by the loop that subscripts them
	for a, arr := range p.Arrays {
		if arr.Rank() != 0 || !arr.RegionOnly {
			continue
		}
		ranges, err := liveRanges(p, a)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, x := range ranges {
			k := slices.IndexFunc(loops, func(l []Expansion) bool { return sameLoop(p, &l[0], &x) })
			if k < 0 {
				loops = append(loops, nil)
				k = len(loops) - 1
			}
			loops[k] = append(loops[k], x)
		}
	}
	if len(loops) == 0 {
		return p, nil, nil, nil
	}
	g, err := deps.Analyze(p)
	if err != nil {
		return nil, nil, nil, err
	}
	var done []Expansion
	q := p
	for _, l := range loops {
		full, err := fullRanges(p, l)
		if err != nil {
			return nil, nil, nil, err
		}
		if opt.Product != nil && full != nil {
			r := q
			for k := range full {
				r = apply(r, &full[k])
			}
			if slices.ContainsFunc(full, func(x Expansion) bool {
				return slices.ContainsFunc(x.Stmts, func(s int) bool { return opt.Product(r, s) })
			}) {
				q = r
				done = append(done, full...)
				continue
			}
		}
		if !parallelAfter(p, g, l) {
			continue
		}
		for _, x := range l {
			q = apply(q, &x)
			done = append(done, x)
		}
	}
	if len(done) > 0 {
		g = nil // the dependences through the scalars are gone
	}
	return q, done, g, nil
}

// fullRanges returns the ranges l expanded along every loop of their
// kills, nil when some loop's counter has no bounds affine in the
// parameters.
func fullRanges(p *ir.Program, l []Expansion) ([]Expansion, error) {
	var out []Expansion
	for _, x := range l {
		x.Outer = nil
		for k := range x.Level {
			lo, hi, err := bounds(p, p.Stmts[x.Kill], k)
			if err != nil || lo == nil || hi == nil {
				return nil, err
			}
			x.Outer = append(x.Outer, Dim{Level: k, Lo: *lo, Size: size(*lo, *hi)})
		}
		out = append(out, x)
	}
	return out, nil
}

// sameLoop reports whether ranges x and y are subscripted by the same
// loop: their kills lie in its body.
func sameLoop(p *ir.Program, x, y *Expansion) bool {
	return x.Level == y.Level && slices.Equal(p.Stmts[x.Kill].Path(x.Level), p.Stmts[y.Kill].Path(y.Level))
}

// liveRanges splits the statements that mention scalar a into live
// ranges, each opened by a kill: a statement that assigns a without
// reading it, outside the loops of the range before it. Every other
// statement must lie inside the loops of its range's kill and run only
// where the kill runs: then every read of a reads a value of its own
// range, written in the same iteration of the kill's loops, and ranges
// can be given storage of their own. It returns the ranges that can be
// expanded (a kill inside a loop whose counter has parameter bounds), or
// none when some statement is not covered: a read could then see a value
// from an earlier range.
func liveRanges(p *ir.Program, a int) ([]Expansion, error) {
	ranges, err := coveredRanges(p, a)
	if err != nil {
		return nil, err
	}
	out := ranges[:0]
	for _, r := range ranges {
		w := p.Stmts[r.Kill]
		if r.Level < 0 || len(w.Domain.Divs) > 0 {
			continue
		}
		lo, hi, err := bounds(p, w, r.Level)
		if err != nil {
			return nil, err
		}
		if lo != nil && hi != nil {
			r.Lo, r.Size = *lo, size(*lo, *hi)
			out = append(out, r)
		}
	}
	return out, nil
}

// kills reports whether s assigns scalar a without reading it.
func kills(s *ir.Stmt, a int) bool {
	return s.Op == ir.Assign && s.Accesses[0].Array == a &&
		!slices.ContainsFunc(s.Accesses[1:], func(acc *ir.Access) bool { return acc.Array == a })
}

// inside reports whether s lies in the loops around statement w (after
// it, when s comes later in textual order).
func inside(s, w *ir.Stmt) bool {
	return s.In(w.Path(w.Depth() - 1))
}

// mentions returns the statements with an access to array a, in textual
// order.
func mentions(p *ir.Program, a int) []int {
	var out []int
	for k, s := range p.Stmts {
		if slices.ContainsFunc(s.Accesses, func(acc *ir.Access) bool { return acc.Array == a }) {
			out = append(out, k)
		}
	}
	return out
}

// implies reports whether every instance of s (with the context) satisfies
// the constraints of w's domain, which are over the counters s shares
// with w: for each constraint c, s's domain ∧ c < 0 has no integer point.
// An undecided question (a search limit) answers no.
func implies(p *ir.Program, s, w *ir.Stmt) (bool, error) {
	sp, base := domainRows(p, s)
	rows := make([]poly.Constraint, len(w.Domain.Cons))
	for k, c := range w.Domain.Cons {
		rows[k] = poly.Constraint{Eq: c.Eq, Coef: row(c.Aff, s, len(p.Params))}
	}
	return irpoly.Implies(sp, base, rows)
}

// domainRows returns the space of s's counters, its locals and the
// parameters, and the rows of its domain and of the context.
func domainRows(p *ir.Program, s *ir.Stmt) (poly.Space, []poly.Constraint) {
	sp, _, rows := irpoly.Stmt(p, s)
	return sp, rows
}

// row lays form a out over (s's counters, s's locals, parameters, 1); a
// may have fewer counters than s (those of an enclosing statement).
func row(a ir.Aff, s *ir.Stmt, np int) []int64 {
	return irpoly.Layout{Dims: s.Depth() + len(s.Domain.Divs), Params: np}.Row(a, 0, s.Depth())
}

// negate returns −r with c added to the constant.
func negate(r []int64, c int64) []int64 {
	out := make([]int64, len(r))
	for k, v := range r {
		out[k] = -v
	}
	out[len(out)-1] += c
	return out
}

// size returns hi − lo + 1.
func size(lo, hi ir.Aff) ir.Aff {
	n := ir.Aff{Param: make([]int64, len(lo.Param)), Const: hi.Const - lo.Const + 1}
	for q := range n.Param {
		n.Param[q] = hi.Param[q] - lo.Param[q]
	}
	return n
}

// bounds returns forms lo and hi over the parameters with lo ≤ x_k ≤ hi on
// w's domain, nil where the projection has no such bound with
// coefficient ±1 on x_k.
func bounds(p *ir.Program, w *ir.Stmt, k int) (lo, hi *ir.Aff, err error) {
	np, d := len(p.Params), w.Depth()
	_, base := domainRows(p, w) // no locals: candidate rejects them
	// Reorder the columns to (x_k, parameters, other counters, 1) and
	// eliminate the other counters.
	perm := []int{k}
	for q := range np {
		perm = append(perm, d+q)
	}
	for c := range d {
		if c != k {
			perm = append(perm, c)
		}
	}
	rows := make([]poly.Constraint, len(base))
	for n, c := range base {
		r := make([]int64, len(c.Coef))
		for to, from := range perm {
			r[to] = c.Coef[from]
		}
		r[len(r)-1] = c.Coef[len(c.Coef)-1]
		rows[n] = poly.Constraint{Eq: c.Eq, Coef: r}
	}
	proj, err := poly.EliminateRational(rows, d+np, 1+np)
	if err != nil {
		return nil, nil, err
	}
	// form turns the row sign·x + rest ≥ 0 into the bound −sign·rest of x,
	// a form over the parameters.
	form := func(r []int64, sign int64) *ir.Aff {
		a := ir.Aff{Param: make([]int64, np)}
		for q := range np {
			a.Param[q] = -sign * r[1+q]
		}
		a.Const = -sign * r[len(r)-1]
		return &a
	}
	for _, c := range proj {
		ineqs := [][]int64{c.Coef}
		if c.Eq {
			ineqs = append(ineqs, negate(c.Coef, 0))
		}
		for _, r := range ineqs {
			switch {
			case r[0] == 1 && (lo == nil || constOnly(r, np)):
				lo = form(r, 1) // x + rest ≥ 0: x ≥ −rest
			case r[0] == -1 && (hi == nil || constOnly(r, np)):
				hi = form(r, -1) // −x + rest ≥ 0: x ≤ rest
			}
		}
	}
	return lo, hi, nil
}

// constOnly reports whether projected row r has no parameter terms.
func constOnly(r []int64, np int) bool {
	return !slices.ContainsFunc(r[1:1+np], func(c int64) bool { return c != 0 })
}

// apply returns p with scalar x.Old replaced by a new heap array
// subscripted by the counters of x.Outer and x.Level, each minus its
// lower bound.
func apply(p *ir.Program, x *Expansion) *ir.Program {
	np := len(p.Params)
	old := p.Arrays[x.Old]
	q := *p
	dims := append(slices.Clone(x.Outer), Dim{Level: x.Level, Lo: x.Lo, Size: x.Size})
	var sizes []ir.Aff
	for _, d := range dims {
		sizes = append(sizes, d.Size)
	}
	q.Arrays = append(slices.Clone(p.Arrays), &ir.Array{Name: freshName(p, "nestor_"+old.Name), Elem: old.Elem,
		Dims: sizes, Storage: ir.ScopLocal, Pos: old.Pos, RegionOnly: true, Heap: true})
	na := len(q.Arrays) - 1
	x.Array = na
	q.Stmts = retarget(p, x.Stmts, x.Old, func(s *ir.Stmt, acc *ir.Access) *ir.Access {
		var index []ir.Aff
		for _, d := range dims {
			sub := ir.NewAff(s.Depth(), np, 0)
			sub.Iter[d.Level] = 1
			for r := range np {
				sub.Param[r] = -d.Lo.Param[r]
			}
			sub.Const = -d.Lo.Const
			index = append(index, sub)
		}
		return &ir.Access{Array: na, Write: acc.Write, Index: index}
	})
	return &q
}

// retarget returns p's statements with those at indices stmts copied and
// each of their accesses to array a replaced by to(statement, access):
// how expansion and demotion move a scalar's accesses elsewhere.
func retarget(p *ir.Program, stmts []int, a int, to func(*ir.Stmt, *ir.Access) *ir.Access) []*ir.Stmt {
	out := slices.Clone(p.Stmts)
	for _, k := range stmts {
		s := out[k]
		ns := *s
		ns.Accesses = slices.Clone(s.Accesses)
		for n, acc := range ns.Accesses {
			if acc.Array == a {
				ns.Accesses[n] = to(s, acc)
			}
		}
		out[k] = &ns
	}
	return out
}

// freshName returns name, or name_1, name_2, … when an array, parameter
// or counter of p has it.
func freshName(p *ir.Program, name string) string {
	taken := p.Names()
	for _, s := range p.Stmts {
		for _, it := range s.Iters {
			taken[it] = true
		}
	}
	n := name
	for k := 1; taken[n]; k++ {
		n = fmt.Sprintf("%s_%d", name, k)
	}
	return n
}

// parallelAfter reports whether expanding the ranges l, all subscripted
// by one loop L, leaves L carrying no dependence between the statements
// inside it, given g, the dependences of p before the expansion.
// Expansion removes exactly the dependences on a scalar that have an end
// in one of its expanded ranges (the range's accesses of one iteration of
// L all go to that iteration's element, and no other statement accesses
// the new array): L comes out parallel when every other dependence inside
// L is not carried by it.
func parallelAfter(p *ir.Program, g *deps.Graph, l []Expansion) bool {
	w := p.Stmts[l[0].Kill]
	d := l[0].Level + 1
	removed := func(e *deps.Edge) bool {
		return slices.ContainsFunc(l, func(x Expansion) bool {
			return e.Array == x.Old && (slices.Contains(x.Stmts, e.Source) || slices.Contains(x.Stmts, e.Target))
		})
	}
	for _, e := range g.Edges {
		if e.Depth == d && e.Common >= d && inside(p.Stmts[e.Source], w) && inside(p.Stmts[e.Target], w) && !removed(e) {
			return false
		}
	}
	return true
}
