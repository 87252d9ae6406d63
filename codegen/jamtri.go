package codegen

import (
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/poly"
)

// jamTri returns the nodes replacing l1 when its first loop l2 has an
// upper bound that grows with l1's counter (a triangle, b ≤ hi(a)), as in
// a triangular solve or a Cholesky factorization by rows:
//
//	for a { Head(a); for (b = lo; b <= hi(a); b++) Body(a, b); Tail(a) }
//
// Such a nest is neither a band's rectangle (jam) nor a sequence whose
// loops have the same bounds in every copy (jamSeq). F = Rows·Cols (at
// most 8) iterations of a share the range b ≤ hi(a), where the copies'
// bodies run jammed; what is left of each copy runs after, copy by copy:
//
//	for (a = A0; a <= A1 - (F-1); a += F) {
//	  Head(a) … Head(a+F-1)
//	  for (b = lo; b <= hi(a); b++) { Body(a, b) … Body(a+F-1, b) }  // phase 1
//	  Tail(a)                                                         // phase 2
//	  for (b = max(lo, hi(a)+1); b <= hi(a+1); b++) Body(a+1, b)
//	  Tail(a+1)
//	  …
//	}
//	for (; a <= A1; a++) { the original body }
//
// Inside phase 1, Body's members (statements, innermost loops, guarded
// innermost loops) run as in jamSeq: each member's copies before the next
// member's, the copies of an innermost loop jammed into it. A reduction
// along an innermost loop (the row's dot product) then runs as F
// independent chains, and the operands that do not move with a are loaded
// once for all copies.
//
// Legality comes from the dependences carried by l1 between instances of
// one group of F iterations (the others keep their order):
//   - nothing after a copy's head may feed the head of a later copy;
//   - within phase 1, the new order is (b, member, inner counter, copy):
//     every such dependence needs a distance ≥ 0 along b, and where it
//     may be 0, an earlier member, or the same innermost loop with a
//     distance ≥ 0 along it, or the same statement;
//   - nothing that runs in phase 2 (the tails, the iterations of l2
//     above the common range) may feed phase 1 of a later copy. That is
//     tested on the dependence polyhedra, with the group's start relaxed
//     to its extremes: source s, target t with 1 ≤ t_a − s_a < F,
//     t_b ≤ hi(s_a), and s in a tail or s_b > hi(s_a − (F−1)) (hi is
//     non-decreasing, so these contain every pair that would run out of
//     order).
//
// Phase 2 keeps the original order within and across copies.
func (j *jammer) jamTri(l1 *Loop) []Node {
	if j.opt.Deps == nil || len(l1.Pragmas) > 0 || l1.Step != 1 || l1.Dir < 0 || l1.Rest || singleIteration(l1) || len(l1.Body) == 0 {
		return nil
	}
	if _, point := j.opt.Band(l1.Level); !point {
		return nil
	}
	L := l1.Level
	at := slices.IndexFunc(l1.Body, func(n Node) bool { _, ok := n.(*Loop); return ok })
	if at < 0 {
		return nil
	}
	pre, post := l1.Body[:at], l1.Body[at+1:]
	l2 := l1.Body[at].(*Loop)
	ok := true
	if !ok || l2.Level != L+1 || len(l2.Pragmas) > 0 || l2.Step != 1 || l2.Dir < 0 || l2.Rest || l2.Reduction != nil || singleIteration(l2) {
		return nil
	}
	if _, point := j.opt.Band(l2.Level); !point {
		return nil
	}
	// lo must not depend on a; hi(a) must be a min of affine leaves that
	// grow with a, at least one of them strictly.
	if boundsUseLevel(l2.Lower, L) || !triangleUpper(l2.Upper, L) {
		return nil
	}
	if hasReduction(l1.Body) {
		return nil
	}
	rows, cols := j.tile(L)
	f := min(rows*cols, 8)

	// The members of l2's body.
	// A member of l2's body is an innermost loop whose copies are
	// jammed (loop, maybe inside guard), or a node whose copies run in
	// turn.
	type member struct {
		node  Node
		loop  *Loop
		guard *If
		body  []*Instance
	}
	var ms []member
	inner := innermost(l2)
	var body2 []*Instance
	where := map[int]int{} // statement -> member (-1: tail)
	pays := false
	if inner {
		for _, n := range l2.Body {
			in, ok := n.(*Instance)
			if !ok || !identity(in.Iters) {
				return nil
			}
			body2 = append(body2, in)
		}
		for _, in := range body2 {
			if _, dup := where[in.Stmt]; dup {
				return nil
			}
			where[in.Stmt] = 0
		}
		pays = j.chains(l2, body2)
		f = min(f, int64(j.opt.MaxCopies/len(body2)))
	} else {
		for _, n := range l2.Body {
			m := member{node: n}
			switch n := n.(type) {
			case *Loop:
				if j.triJammable(n, L) {
					m.loop = n
				}
			case *If:
				if len(n.Body) == 1 {
					if l, ok := n.Body[0].(*Loop); ok && j.triJammable(l, L) && !slices.ContainsFunc(n.Conds, func(c Cond) bool {
						return L < len(c.Aff.Iter) && c.Aff.Iter[L] != 0 || usesLocals(c.Aff)
					}) {
						m.loop, m.guard = l, n
					}
				}
			}
			if m.loop != nil {
				m.body = plainInstances(m.loop.Body)
				pays = pays || j.chains(m.loop, m.body)
				f = min(f, int64(j.opt.MaxCopies/len(m.body)))
			}
			dup := false
			walkInstances([]Node{n}, func(in *Instance) {
				if _, ok := where[in.Stmt]; ok {
					dup = true
				}
				where[in.Stmt] = len(ms)
			})
			if dup {
				return nil
			}
			ms = append(ms, m)
		}
	}
	if !pays || f < 2 {
		return nil
	}
	tail, head := map[int]bool{}, map[int]bool{}
	dup := false
	for _, part := range []struct {
		ns  []Node
		set map[int]bool
	}{{post, tail}, {pre, head}} {
		walkInstances(part.ns, func(in *Instance) {
			if _, ok := where[in.Stmt]; ok || tail[in.Stmt] || head[in.Stmt] {
				dup = true
			}
			part.set[in.Stmt] = true
		})
	}
	if dup {
		return nil
	}
	// Within one b, phase 1 runs copy by copy when l2 is innermost, and
	// a member loop's copies interleaved along its counter.
	isLoop := func(m int) bool { return !inner && ms[m].loop != nil }
	// With Groups, G groups of f copies each share the common range,
	// the groups on different threads when no dependence joins two
	// copies there (apart); legality is then that of F = G·f copies.
	// Only where l2 holds loops: a group's work then grows with the
	// square of the range (cholesky's dot products), where a single
	// loop's (trisolv's row) rarely pays for a fork, and the copies
	// beyond f cost their phase 2 on one thread.
	groups, F := int64(1), f
	var scalar map[int]bool
	if G := int64(j.opt.Groups); G >= 2 && j.parallel == 0 && !inner {
		if sc, ok := j.triLegal(L, f*G, l2.Upper, where, head, tail, isLoop); ok && j.apart(L, f*G, l2.Upper, where) {
			scalar, groups, F = sc, G, f*G
		}
	}
	if groups == 1 {
		sc, ok := j.triLegal(L, f, l2.Upper, where, head, tail, isLoop)
		if !ok {
			return nil
		}
		scalar = sc
	}
	j.count++

	// Phase 1: the common range, copies base … base+f−1 jammed (its
	// bounds those of copy 0).
	shifted := func(body []*Instance, base int64) []*Instance {
		out := make([]*Instance, len(body))
		for k, in := range body {
			out[k] = shiftInstance(in, L, base, L, 0)
		}
		return out
	}
	phase1Of := func(base int64) Node {
		if inner {
			c := j.copyInner(l2, shifted(body2, base), L, L, f, 1)
			c.NonEmpty = false
			return c
		}
		p1 := *l2
		p1.NonEmpty = false
		p1.Body = nil
		p1.BodyRegisters = nil
		for k, m := range ms {
			switch {
			case m.loop == nil:
				for u := range f {
					p1.Body = append(p1.Body, cloneShift([]Node{m.node}, L, base+u)...)
				}
			default:
				lp := m.loop
				if scalar[k] {
					c := *lp
					c.Pragmas = nil
					lp = &c
				}
				var n Node = j.copyInner(lp, shifted(m.body, base), L, L, f, 1)
				if m.guard != nil {
					g := *m.guard
					g.Body = []Node{n}
					n = &g
				}
				p1.Body = append(p1.Body, n)
			}
		}
		p1.BodyRegisters = j.solver.bodyRegisters(j.p, &p1, nil)
		return &p1
	}
	// unrolledBy returns l1 unrolled by n copies in g groups: the heads,
	// phase 1, then phase 2: each copy's iterations of l2 above the
	// common range, then its tail.
	above := aboveBound(l2.Upper)
	unrolledBy := func(n, g int64) *Loop {
		m := unrolled(l1, n)
		m.Body = nil
		for u := range n {
			m.Body = append(m.Body, cloneShift(pre, L, u)...)
		}
		if g == 1 {
			m.Body = append(m.Body, phase1Of(0))
		} else {
			sections := &Block{Sections: true}
			for q := range g {
				sections.Body = append(sections.Body, &Block{Body: []Node{phase1Of(q * f)}})
			}
			m.Body = append(m.Body, sections)
		}
		for u := range n {
			if u > 0 {
				c := cloneShift([]Node{l2}, L, u)[0].(*Loop)
				c.Lower = append(c.Lower, above)
				c.NonEmpty = false
				m.Body = append(m.Body, c)
			}
			m.Body = append(m.Body, cloneShift(post, L, u)...)
		}
		m.BodyRegisters = j.solver.bodyRegisters(j.p, m, nil)
		return m
	}
	out := []Node{unrolledBy(F, groups)}
	if groups > 1 {
		// The rows the groups leave (fewer than F) still run f at a
		// time, jammed on one thread (legal: F copies' pairs include
		// f copies'), then one by one.
		mid := unrolledBy(f, 1)
		mid.Rest = true
		out = append(out, mid)
	}
	r := rest(l1)
	r.Body = l1.Body
	r.BodyRegisters = l1.BodyRegisters
	return append(out, r)
}

// triJammable reports whether l, in the body of the loop jamTri
// unrolls (at level), may take the copies of its body jammed: an
// innermost loop one level down, of several iterations, stepping up by
// one, whose bounds do not read the unrolled counter and whose body is
// statements with their own counters.
func (j *jammer) triJammable(l *Loop, level int) bool {
	_, point := j.opt.Band(l.Level)
	return point && innermost(l) && l.Level == level+2 && l.Step == 1 && l.Dir >= 0 && !l.Rest && l.Reduction == nil &&
		!singleIteration(l) && !boundsUse(l, level) && (len(l.Pragmas) == 0 || slices.Equal(l.Pragmas, []string{"omp simd"})) &&
		plainInstances(l.Body) != nil
}

// triLegal checks the dependences of jamTri's transformation of the loop
// at level by f (see jamTri): member gives the member of each statement
// of l2's body, tail the statements after l2, isLoop whether a member is
// an innermost loop; upper is l2's upper bound. scalar flags the
// members' loops whose copies depend on one another along them (no SIMD
// pragma).
func (j *jammer) triLegal(level int, f int64, upper []Bound, member map[int]int, head, tail map[int]bool, isLoop func(int) bool) (scalar map[int]bool, ok bool) {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return nil, false
	}
	scalar = map[int]bool{}
	for _, e := range g.Edges {
		if _, fromBody := member[e.Source]; head[e.Target] && e.Depth == level+1 && (tail[e.Source] || fromBody) {
			return nil, false // into a head, which runs before the rest of earlier copies
		}
		mt, inBody := member[e.Target]
		if !inBody || e.Depth != level+1 {
			continue // not into phase 1, or not carried by the loop
		}
		ms, srcBody := member[e.Source]
		if !srcBody && !tail[e.Source] {
			// From a statement the AST runs outside l1 (a loop split
			// off before it by Distribute): it still runs first.
			continue
		}
		if level >= len(e.Distance) {
			return nil, false
		}
		if d := e.Distance[level]; !d.MinInf && d.Min >= f {
			continue // from one group of f iterations to a later one
		}
		// Phase 2 of an earlier copy to phase 1 of a later one.
		if !j.noneAbove(e, level, f, upper, srcBody) {
			return nil, false
		}
		if !srcBody {
			continue
		}
		// Within phase 1.
		if level+1 >= len(e.Distance) {
			return nil, false
		}
		db := e.Distance[level+1]
		if db.MinInf || db.Min < 0 {
			return nil, false
		}
		if db.Min > 0 {
			continue
		}
		switch {
		case ms < mt:
		case ms > mt:
			return nil, false
		case isLoop(ms):
			if level+2 >= len(e.Distance) {
				return nil, false
			}
			dc := e.Distance[level+2]
			if dc.MinInf || dc.Min < 0 {
				return nil, false
			}
			if dc.MaxInf || dc.Max > 0 {
				scalar[ms] = true
			}
		}
	}
	return scalar, true
}

// noneAbove reports whether edge e has no pair of instances that jamTri
// would run out of order: target t in phase 1 of a later copy (1 ≤ t_a −
// s_a < f, t_b ≤ hi(s_a)), source s in phase 2 (a tail, or when srcBody,
// s_b > hi(s_a − (f−1)) for some leaf of hi). Unsure answers count as
// pairs.
func (j *jammer) noneAbove(e *deps.Edge, level int, f int64, upper []Bound, srcBody bool) bool {
	return j.noPairs(e, level, f, upper, false, srcBody)
}

// noPairs tests edge e for the pairs noneAbove describes, or when common
// for those of apart: the source also in the common range, s_b ≤ hi(s_a).
func (j *jammer) noPairs(e *deps.Edge, level int, f int64, upper []Bound, common, srcBody bool) bool {
	sp := e.Set.Space()
	nd, np := sp.NDim(), sp.NParam()
	ds := j.p.Stmts[e.Source].Depth()
	sa, sb, ta, tb := level, level+1, ds+level, ds+level+1
	row := func() []int64 { return make([]int64, nd+np+1) }
	var base []poly.Constraint
	d1 := row() // t_a − s_a − 1 ≥ 0
	d1[ta], d1[sa], d1[nd+np] = 1, -1, -1
	d2 := row() // s_a + f − 1 − t_a ≥ 0
	d2[sa], d2[ta], d2[nd+np] = 1, -1, f-1
	base = append(base, poly.Constraint{Coef: d1}, poly.Constraint{Coef: d2})
	// leaf(x) over the source's counters with counter a shifted by delta.
	leaf := func(b Bound, delta int64) []int64 {
		r := row()
		for k, x := range b.Aff.Iter {
			if x != 0 {
				r[k] += x
			}
		}
		for k, x := range b.Aff.Param {
			r[nd+k] += x
		}
		r[nd+np] = b.Aff.Const + delta*b.Aff.Iter[level]
		return r
	}
	for _, b := range upper { // Den·t_b ≤ leaf(s)
		r := leaf(b, 0)
		r[tb] -= b.Den
		base = append(base, poly.Constraint{Coef: r})
	}
	try := func(cs []poly.Constraint) bool {
		set, err := e.Set.With(cs...)
		if err != nil {
			return false
		}
		empty, err := set.IsEmptyWork(poly.NewWork(maxTriWork))
		return err == nil && empty
	}
	if common {
		for _, b := range upper { // Den·s_b ≤ leaf(s)
			r := leaf(b, 0)
			r[sb] -= b.Den
			base = append(base, poly.Constraint{Coef: r})
		}
		return try(base)
	}
	if !srcBody {
		return try(base)
	}
	for _, b := range upper { // Den·s_b − leaf(s_a − (f−1)) − 1 ≥ 0
		r := leaf(b, -(f - 1))
		for k := range r {
			r[k] = -r[k]
		}
		r[sb] += b.Den
		r[nd+np]--
		if !try(append(slices.Clone(base), poly.Constraint{Coef: r})) {
			return false
		}
	}
	return true
}

// apart reports whether no dependence carried by the loop at level joins
// the common ranges of two of jamTri's F copies, so that groups of copies
// may run on different threads: for each dependence between statements
// of l2's body (member) whose distance along the loop may be under F, no
// pair s, t with 1 ≤ t_a − s_a < F, s_b ≤ hi(s_a) and t_b ≤ hi(s_a) (a
// superset of the pairs in one group's common range b ≤ hi(a0), a0 ≤
// s_a, hi non-decreasing). Unsure answers count as pairs.
func (j *jammer) apart(level int, F int64, upper []Bound, member map[int]int) bool {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return false
	}
	for _, e := range g.Edges {
		_, src := member[e.Source]
		_, dst := member[e.Target]
		if !src || !dst || e.Depth != level+1 {
			continue
		}
		if level >= len(e.Distance) {
			return false
		}
		if d := e.Distance[level]; !d.MinInf && d.Min >= F {
			continue // from one group of F iterations to a later one
		}
		if !j.noPairs(e, level, F, upper, true, true) {
			return false
		}
	}
	return true
}

// maxTriWork bounds each emptiness test of noneAbove; past it the pair
// counts as possible.
const maxTriWork = 1 << 22

// triangleUpper reports whether the upper bound terms bs are affine
// leaves (denominator 1, no locals) none of which decreases with the
// counter at level and some of which grows with it.
func triangleUpper(bs []Bound, level int) bool {
	grows := false
	for _, b := range bs {
		if b.Of != nil || b.Den != 1 || usesLocals(b.Aff) || level >= len(b.Aff.Iter) {
			return false
		}
		x := b.Aff.Iter[level]
		if x < 0 {
			return false
		}
		grows = grows || x > 0
	}
	return grows
}

// aboveBound returns the lower bound min(hi) + 1 of the iterations above
// the upper bound terms bs (affine leaves of denominator 1).
func aboveBound(bs []Bound) Bound {
	var out []Bound
	for _, b := range bs {
		c := Bound{Aff: b.Aff.Clone(), Den: 1}
		c.Aff.Const++
		out = append(out, c)
	}
	if len(out) == 1 {
		return out[0]
	}
	return Bound{Of: out, Min: true}
}

// boundsUseLevel reports whether a term of bs reads the counter at level.
func boundsUseLevel(bs []Bound, level int) bool {
	return slices.ContainsFunc(bs, func(b Bound) bool {
		return boundsUseLevel(b.Of, level) || level < len(b.Aff.Iter) && b.Aff.Iter[level] != 0 || usesLocals(b.Aff)
	})
}

// plainInstances returns the nodes ns when all are statement instances with
// their own counters, nil otherwise.
func plainInstances(ns []Node) []*Instance {
	var out []*Instance
	for _, n := range ns {
		in, ok := n.(*Instance)
		if !ok || !identity(in.Iters) {
			return nil
		}
		out = append(out, in)
	}
	return out
}

// walkInstances calls visit on every instance of ns.
func walkInstances(ns []Node, visit func(*Instance)) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Instance:
			visit(n)
		case *Loop:
			walkInstances(n.Body, visit)
		case *If:
			walkInstances(n.Body, visit)
		case *Block:
			walkInstances(n.Body, visit)
		}
	}
}

// cloneShift returns a deep copy of ns with the counter at level k
// replaced by itself plus u everywhere: bounds, guards, instances and the
// elements kept in registers.
func cloneShift(ns []Node, k int, u int64) []Node {
	shift := func(a ir.Aff) ir.Aff {
		b := a.Clone()
		if k < len(b.Iter) {
			b.Const += u * b.Iter[k]
		}
		return b
	}
	var bounds func(bs []Bound) []Bound
	bounds = func(bs []Bound) []Bound {
		if bs == nil {
			return nil
		}
		out := make([]Bound, len(bs))
		for i, b := range bs {
			out[i] = Bound{Aff: shift(b.Aff), Den: b.Den, Of: bounds(b.Of), Min: b.Min}
		}
		return out
	}
	out := make([]Node, len(ns))
	for i, n := range ns {
		switch n := n.(type) {
		case *Block:
			out[i] = &Block{Body: cloneShift(n.Body, k, u), Sections: n.Sections}
		case *Loop:
			c := *n
			c.Lower, c.Upper = bounds(n.Lower), bounds(n.Upper)
			c.Pragmas = slices.Clone(n.Pragmas)
			c.Registers = slices.Clone(n.Registers)
			c.BodyRegisters = nil
			for _, r := range n.BodyRegisters {
				e := make([]ir.Aff, len(r.Elem))
				for x, a := range r.Elem {
					e[x] = shift(a)
				}
				r.Elem = e
				c.BodyRegisters = append(c.BodyRegisters, r)
			}
			c.Body = cloneShift(n.Body, k, u)
			out[i] = &c
		case *If:
			c := *n
			c.Conds = make([]Cond, len(n.Conds))
			for x, g := range n.Conds {
				g.Aff = shift(g.Aff)
				if g.Divs != nil {
					divs := make([]ir.Div, len(g.Divs))
					for d, dv := range g.Divs {
						divs[d] = ir.Div{Num: shift(dv.Num), Den: dv.Den}
					}
					g.Divs = divs
				}
				c.Conds[x] = g
			}
			c.Body = cloneShift(n.Body, k, u)
			out[i] = &c
		case *Instance:
			it := make([]ir.Aff, len(n.Iters))
			for x, a := range n.Iters {
				it[x] = shift(a)
			}
			out[i] = &Instance{Stmt: n.Stmt, Iters: it}
		default:
			out[i] = n
		}
	}
	return out
}
