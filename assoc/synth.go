package assoc

import (
	"math/rand/v2"
	"slices"
	"sync"
)

// Synthesis of the input map y (issue 17).
//
// The structural matcher finds an entry f of the tables only when the
// update is f(x, y) with y appearing literally: x + in(r) meets x + y. A
// user writes x - in(r) (f = +, y = −in(r)), x + in(r)*x (f = ·, y =
// 1 + in(r)) or {x0 + in, x1 + x0*in} (y = {in, 0}). When no entry meets
// the update literally, synthesis solves for y instead:
//
//  1. If update(x, in) = f(x, y(in)) and e is a left identity of f, then
//     update(e, in) = f(e, y(in)) = y(in). So for each entry f with an
//     identity (in table order, fewest leaves first, over the group's
//     assignments to the entry's elements) the only candidate is
//     y = update(x := e): nothing is searched but f. The entries without
//     an identity come after all the others, with y = update(x := 0): a
//     guess (i32(u8(x - in)) is i32(u8(x + y)) at y = i32(u8(0 - in))),
//     which step 3 decides like any other.
//  2. A cheap filter evaluates update(x, in) and f(x, y(in)) on a few
//     random points (synthSamples) and drops f at the first difference.
//  3. The survivors are checked symbolically: update and f(x, y) must
//     have the same normal form (Equivalent). The normal forms are
//     exact: polynomials over the ring of the type (integers modulo 2^n;
//     the rationals for floats under --assoc-math, where float arithmetic
//     is read as real arithmetic), with the other operations as atoms
//     whose operands are normal, commutative atoms sorted; IEEE floats
//     only get the exact rewrites a − b = a + (−0 − b) and −0 − (−0 − b)
//     = b. Equal normal forms mean equal functions, so the claim
//     update = f(x, y) never rests on the random filter.
//
// The operator is the table's, proved associative by Z3 with its
// identity and commutativity: synthesis adds no claim about f, only the
// equality of the update and f(x, y), and that one by normal forms.

// synthSamples is the number of random points of synthesis's filter.
const synthSamples = 6

// synthIndex lists, per tuple size, a table's entries that synthesis can
// use (an identity that reads no k, no k in the operator), fewest leaves
// first.
type synthIndex struct {
	bySize map[int][]*entryIndex
	// noIdentity lists the entries without an identity (no k either),
	// tried after all the others with x := 0 for the candidate (step 1
	// below): i32(u8(x + y)) has none, yet i32(u8(x - in)) is it with y =
	// i32(u8(0 - in)).
	noIdentity map[int][]*entryIndex
}

var synthIndexes sync.Map // *Table → *synthIndex

func synthIndexOf(t *Table) *synthIndex {
	if v, ok := synthIndexes.Load(t); ok {
		return v.(*synthIndex)
	}
	ix := indexOf(t)
	si := &synthIndex{bySize: map[int][]*entryIndex{}, noIdentity: map[int][]*entryIndex{}}
	all := slices.Clone(ix.synthCandidates()) // in table order
	slices.SortStableFunc(all, func(a, b *entryIndex) int { return a.entry.Leaves - b.entry.Leaves })
	for _, ei := range all {
		en := ei.entry
		if ei.nk > 0 || slices.Contains(ei.carried, true) {
			continue
		}
		if en.Identity == nil {
			si.noIdentity[len(en.Elems)] = append(si.noIdentity[len(en.Elems)], ei)
			continue
		}
		usesK := false
		for _, e := range en.Identity {
			usesK = usesK || e.Uses(OpK) || e.Uses(OpVar)
		}
		if usesK {
			continue
		}
		n := len(en.Elems)
		si.bySize[n] = append(si.bySize[n], ei)
	}
	v, _ := synthIndexes.LoadOrStore(t, si)
	return v.(*synthIndex)
}

// synthPoints are the random points of the filter: values of the group's
// partial results and of the named values it reads.
type synthPoints struct {
	x    [][]Value          // per point, per element of the update
	vars []map[string]Value // per point
	want [][]Value          // per point, the update's value per element (nil: undefined)
}

// synthesize tries to write the group's elements as f(x, y) for an entry
// f of the tables and a y found by the identity (see above). It returns
// nil when none works.
func (r *recognizer) synthesize(elems []int) *groupResult {
	pts := r.synthPoints(elems)
	for pass := range 2 {
		if res := r.synthesizePass(elems, pts, pass == 1); res != nil {
			return res
		}
	}
	return nil
}

// synthesizePass tries the entries with an identity, or those without
// one (noIdentity), at x := 0.
func (r *recognizer) synthesizePass(elems []int, pts *synthPoints, noIdentity bool) *groupResult {
	for _, t := range r.distinctTypes(r.maskOf(elems)) {
		tb, err := r.opts.Tables(t)
		if err != nil || tb == nil {
			continue
		}
		list := synthIndexOf(tb).bySize[len(elems)]
		if noIdentity {
			list = synthIndexOf(tb).noIdentity[len(elems)]
		}
		for _, ei := range list {
			en := ei.entry
			if en.RealOnly && !r.opts.Real {
				continue
			}
			var wc wrapCheck
			if r.opts.Wrap && (t == Int32 || t == Int64) {
				if !en.Wraps {
					continue
				}
				wc = checkWrap(en)
			}
			if res := r.synthAssign(ei, t, elems, pts, 0, 0); res != nil {
				if wc.refutedComm {
					res.commutative = false
				}
				if wc.refutedIdentity {
					res.hasIdentity = false
				}
				return res
			}
		}
	}
	return nil
}

func (r *recognizer) maskOf(elems []int) uint32 {
	var m uint32
	for _, i := range elems {
		m |= 1 << uint(i)
	}
	return m
}

// synthAssign assigns the group's elements to the entry's elements p, p+1,
// … (of the table's type t), then tries the assignment.
func (r *recognizer) synthAssign(ei *entryIndex, t Type, elems []int, pts *synthPoints, p int, used uint32) *groupResult {
	m := &r.m
	if p == len(elems) {
		return r.synthTry(ei, t, elems, pts)
	}
	for _, g := range elems {
		if used&(1<<uint(g)) != 0 || r.types[g] != t {
			continue
		}
		m.sigma[p] = g
		if res := r.synthAssign(ei, t, elems, pts, p+1, used|1<<uint(g)); res != nil {
			return res
		}
	}
	return nil
}

// synthTry checks the entry under the assignment m.sigma.
func (r *recognizer) synthTry(ei *entryIndex, t Type, elems []int, pts *synthPoints) *groupResult {
	m := &r.m
	en := ei.entry
	n := len(elems)
	if en.Identity == nil {
		// A guessed candidate: only for an entry whose elements have the
		// update's roots, which f(x, y) keeps whatever y is.
		for p := range n {
			if r.update.Elems[m.sigma[p]].Op != en.Elems[p].Op {
				return nil
			}
		}
	}
	if !r.synthQuick(en, n, pts) {
		return nil
	}
	// x_{sigma(q)} := identity_q.
	id := map[int]*Expr{}
	for q := range n {
		id[m.sigma[q]] = synthCandidate(en, q)
	}
	ys := make([]*Expr, n)
	for p := range n {
		y := Canon(substX(r.update.Elems[m.sigma[p]], id))
		if y.Uses(OpX) {
			return nil
		}
		ys[p] = y
	}
	sub := substitution{sigma: m.sigma[:n], types: r.types}
	fs := make([]*Expr, n)
	for p := range n {
		fs[p] = substYs(sub.apply(en.Elems[p], t), m.sigma[:n], ys)
	}
	if !r.synthFilter(fs, elems, m.sigma[:n], pts) {
		return nil
	}
	for p := range n {
		if !Equivalent(r.update.Elems[m.sigma[p]], fs[p], r.opts.Real) {
			return nil
		}
	}
	m.reset(0)
	for p := range n {
		m.y[p] = ys[p]
	}
	return r.result(ei, t, elems)
}

// substX replaces x_i by by[i] where by has one.
func substX(e *Expr, by map[int]*Expr) *Expr {
	if e.Op == OpX {
		if v, ok := by[e.Index]; ok {
			return v.Clone()
		}
		return e
	}
	if len(e.Args) == 0 {
		return e
	}
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	for i, a := range e.Args {
		c.Args[i] = substX(a, by)
	}
	return &c
}

// substYs replaces y_g (g = sigma[p], as substitution.apply writes it) by
// ys[p].
func substYs(e *Expr, sigma []int, ys []*Expr) *Expr {
	if e.Op == OpY {
		for p, g := range sigma {
			if g == e.Index {
				return ys[p]
			}
		}
		return e
	}
	if len(e.Args) == 0 {
		return e
	}
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	for i, a := range e.Args {
		c.Args[i] = substYs(a, sigma, ys)
	}
	return &c
}

// synthPoints draws the filter's points for the group once.
func (r *recognizer) synthPoints(elems []int) *synthPoints {
	rng := rand.New(rand.NewPCG(17, 17))
	names := map[string]Type{}
	var order []string
	for _, i := range elems {
		r.update.Elems[i].Walk(func(x *Expr) bool {
			if x.Op == OpVar {
				if _, ok := names[x.Name]; !ok {
					order = append(order, x.Name)
				}
				names[x.Name] = x.Type
			}
			return true
		})
	}
	draw := func(t Type) Value {
		if r.opts.Real && t.Float() {
			return FloatValue(float64(rng.IntN(9)-4), t)
		}
		return Sample(t, rng)
	}
	pts := &synthPoints{}
	for range synthSamples {
		x := make([]Value, r.n)
		for i := range r.n {
			x[i] = draw(r.types[i])
		}
		vars := map[string]Value{}
		for _, name := range order {
			vars[name] = draw(names[name])
		}
		env := Env{X: x, Vars: vars, Wrap: true}
		want := make([]Value, r.n)
		ok := true
		for _, i := range elems {
			v, err := Eval(r.update.Elems[i], env)
			if err != nil {
				ok = false
				break
			}
			want[i] = v
		}
		if !ok {
			continue
		}
		pts.x = append(pts.x, x)
		pts.vars = append(pts.vars, vars)
		pts.want = append(pts.want, want)
	}
	return pts
}

// synthFilter reports whether fs (f(x, y) per entry element, in the
// update's terms) agrees with the update at the points where both have a
// value.
func (r *recognizer) synthFilter(fs []*Expr, elems []int, sigma []int, pts *synthPoints) bool {
	for k := range pts.x {
		env := Env{X: pts.x[k], Vars: pts.vars[k], Wrap: true}
		for p, e := range fs {
			v, err := Eval(e, env)
			if err != nil {
				continue
			}
			g := sigma[p]
			if !sameValue(v, pts.want[k][g], r.types[g], r.opts.Real) {
				return false
			}
		}
	}
	return true
}

// synthQuick is synthFilter on values alone, before any expression is
// built: at each point, y's value is the update's with x_{sigma(q)} at
// the entry's identity_q, and f(x, y) is evaluated on the entry itself.
// It reports false at the first point where both have a value and differ.
// (Most entries of a table fail here: synthTry's canonical forms cost a
// hundred times more.)
func (r *recognizer) synthQuick(en *Entry, n int, pts *synthPoints) bool {
	sigma := r.m.sigma[:n]
	var idv, fx, yv [maxSynthElems]Value
	if n > maxSynthElems {
		return true
	}
	for q := range n {
		v, err := Eval(synthCandidate(en, q), Env{Wrap: true})
		if err != nil {
			return true // let the symbolic path decide
		}
		idv[q] = v
	}
	xid := make([]Value, r.n)
	for k := range pts.x {
		copy(xid, pts.x[k])
		for q, g := range sigma {
			xid[g] = idv[q]
		}
		env := Env{X: xid, Vars: pts.vars[k], Wrap: true}
		ok := true
		for p, g := range sigma {
			v, err := Eval(r.update.Elems[g], env)
			if err != nil {
				ok = false
				break
			}
			yv[p] = v
			fx[p] = pts.x[k][g]
		}
		if !ok {
			continue
		}
		fenv := Env{X: fx[:n], Y: yv[:n], Wrap: true}
		for p, g := range sigma {
			v, err := Eval(en.Elems[p], fenv)
			if err != nil {
				continue
			}
			if !sameValue(v, pts.want[k][g], r.types[g], r.opts.Real) {
				return false
			}
		}
	}
	return true
}

// maxSynthElems is the largest group synthQuick filters (larger ones go
// to the symbolic path directly).
const maxSynthElems = 8

// synthCandidate returns the value of x_q at which the update gives the
// candidate y: the entry's identity, or 0 for an entry without one.
func synthCandidate(en *Entry, q int) *Expr {
	if en.Identity != nil {
		return en.Identity[q]
	}
	return Const(0, en.Elems[q].Type)
}
