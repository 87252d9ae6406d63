package codegen

import (
	"fmt"
	"nestor/internal/intmath"
	"slices"

	"nestor/ir"
)

// Build returns the loop AST that executes every statement instance of p in
// the original order (Beta, Dir). It fails when p breaks an ir invariant or
// a statement's domain leaves one of its loops unbounded.
func Build(p *ir.Program) (*Block, error) {
	return buildWithin(p, maxSolverWork)
}

// buildWithin is Build with work as the budget of simplification (see
// solver).
func buildWithin(p *ir.Program, work int64) (*Block, error) {
	if err := ir.Check(p); err != nil {
		return nil, fmt.Errorf("codegen: %w", err)
	}
	var sts []*stmtInfo
	for k, s := range p.Stmts {
		st, err := analyze(p, k, s)
		if err != nil {
			return nil, err
		}
		if st != nil {
			sts = append(sts, st)
		}
	}
	b := &Block{Body: build(sts, 0)}
	simplify(p, b, work)
	return b, nil
}

// stmtInfo is a statement's domain sorted by loop level, plus the guards
// it still needs.
type stmtInfo struct {
	idx     int
	np      int // number of parameters
	s       *ir.Stmt
	lvl     []level
	pending []Cond // guards not yet placed, over the counters of loops already open
}

// level holds what a statement's domain says about its counter k: its
// bounds (over counters 0..k-1), its congruences, and other constraints
// whose innermost counter is k.
type level struct {
	lower, upper []Bound
	strides      []stride
	conds        []Cond
}

// stride is the congruence i_k ≡ anchor (mod mod), anchor over counters
// 0..k-1; cond is the same congruence as a guard.
type stride struct {
	anchor ir.Aff
	mod    int64
	cond   Cond
}

// analyze sorts the constraints of s's domain by the innermost counter they
// involve (through locals too). It returns nil when the domain is empty for
// a reason visible in its constants.
func analyze(p *ir.Program, idx int, s *ir.Stmt) (*stmtInfo, error) {
	dom := &s.Domain
	st := &stmtInfo{idx: idx, np: len(p.Params), s: s, lvl: make([]level, s.Depth())}
	inner := make([]int, len(dom.Divs))
	for l, dv := range dom.Divs {
		inner[l] = max(dv.Num.Innermost(), localsInnermost(dv.Num, inner))
	}
	for _, c := range dom.Cons {
		eff := max(c.Innermost(), localsInnermost(c.Aff, inner))
		switch {
		case usesLocals(c.Aff):
			if num, den, ok := congruence(c, dom.Divs); ok {
				st.addCongruence(num, den)
				break
			}
			g := Cond{Aff: truncate(c.Aff, eff+1), Eq: c.Eq, Divs: truncateDivs(dom.Divs, eff+1)}
			st.addCond(eff, g)
			// Bounds the guard implies without locals, so that the loop
			// has bounds (i ≥ 4⌊n/4⌋ gives i ≥ n − 3).
			if k := c.Innermost(); k >= 0 && k == eff && localsInnermost(c.Aff, inner) < k {
				for _, r := range relax(c, dom.Divs) {
					st.addBound(r, k)
				}
			}
		case eff < 0:
			if c.IsConst() {
				if c.Const < 0 || c.Eq && c.Const != 0 {
					return nil, nil
				}
				continue
			}
			if !slices.ContainsFunc(p.Context, func(d ir.Constraint) bool { return d.Eq == c.Eq && d.Aff.Equal(c.Aff) }) {
				st.pending = append(st.pending, Cond{Aff: truncate(c.Aff, 0), Eq: c.Eq})
			}
		default:
			st.addBound(c, eff)
		}
	}
	for k := range st.lvl {
		lv := &st.lvl[k]
		lv.lower = prune(lv.lower, true)
		lv.upper = prune(lv.upper, false)
		if len(lv.lower) == 0 || len(lv.upper) == 0 {
			return nil, fmt.Errorf("codegen: stmt %s: loop %s has no lower or no upper bound", s.Name, s.Iters[k])
		}
		if lo, hi := lv.lower[0], lv.upper[0]; len(lv.lower) == 1 && len(lv.upper) == 1 &&
			lo.Aff.IsConst() && hi.Aff.IsConst() && intmath.CeilDiv(lo.Aff.Const, lo.Den) > intmath.FloorDiv(hi.Aff.Const, hi.Den) {
			return nil, nil
		}
	}
	return st, nil
}

// addBound records the bounds constraint c (without locals) gives the
// counter at level k, its innermost: a·i + rest ≥ 0 (or = 0).
func (st *stmtInfo) addBound(c ir.Constraint, k int) {
	a := c.Iter[k]
	rest := truncate(c.Aff, k)
	if c.Eq && a < 0 {
		a, rest = -a, rest.Neg()
	}
	lv := &st.lvl[k]
	switch {
	case c.Eq:
		lv.lower = append(lv.lower, normBound(rest.Neg(), a, true))
		lv.upper = append(lv.upper, normBound(rest.Neg(), a, false))
	case a > 0:
		lv.lower = append(lv.lower, normBound(rest.Neg(), a, true))
	default:
		lv.upper = append(lv.upper, normBound(rest, -a, false))
	}
}

// relax returns inequalities without locals that constraint c implies:
// with E = b·q + R and q = ⌊num/den⌋, den·E ≤ b·num + den·R when b > 0
// (q ≤ num/den) and den·E ≤ b·(num − den + 1) + den·R when b < 0 (q ≥
// (num − den + 1)/den), so E ≥ 0 implies the right side ≥ 0. Locals are
// replaced from the last (whose numerators may use earlier ones) to the
// first; an equality gives its two inequalities. The result is a superset
// of c's points, for bounds; c itself stays as a guard.
func relax(c ir.Constraint, divs []ir.Div) []ir.Constraint {
	sides := []ir.Aff{c.Aff}
	if c.Eq {
		sides = append(sides, c.Aff.Neg())
	}
	var out []ir.Constraint
	for _, e := range sides {
		e = e.Clone()
		for l := len(divs) - 1; l >= 0; l-- {
			if l >= len(e.Local) || e.Local[l] == 0 {
				continue
			}
			b, dv := e.Local[l], divs[l]
			e = scale(e, dv.Den)
			e.Local[l] = 0
			num := dv.Num
			if b < 0 {
				num = num.Clone()
				num.Const -= dv.Den - 1
			}
			e = addScaled(e, num, b)
		}
		out = append(out, ir.Constraint{Aff: e})
	}
	return out
}

// addScaled returns a + m·b, as long as the longer of the two.
func addScaled(a, b ir.Aff, m int64) ir.Aff {
	pad := func(x, y []int64) []int64 {
		out := make([]int64, max(len(x), len(y)))
		copy(out, x)
		for j, v := range y {
			out[j] += m * v
		}
		return out
	}
	return ir.Aff{Iter: pad(a.Iter, b.Iter), Param: pad(a.Param, b.Param), Local: pad(a.Local, b.Local), Const: a.Const + m*b.Const}
}

// addCongruence records num ≡ 0 (mod den): a stride of the innermost
// counter of num when its coefficient is ±1, otherwise a guard.
func (st *stmtInfo) addCongruence(num ir.Aff, den int64) {
	k := num.Innermost()
	g := Cond{Aff: truncate(num, k+1), Mod: den}
	if k < 0 {
		st.pending = append(st.pending, g)
		return
	}
	a := num.Iter[k]
	if a != 1 && a != -1 {
		st.addCond(k, g)
		return
	}
	// i + rest ≡ 0, so i ≡ -rest.
	anchor := truncate(num, k)
	if a == 1 {
		anchor = anchor.Neg()
	}
	lv := &st.lvl[k]
	lv.strides = append(lv.strides, stride{anchor: anchor, mod: den, cond: g})
}

func (st *stmtInfo) addCond(k int, g Cond) {
	if k < 0 {
		st.pending = append(st.pending, g)
		return
	}
	st.lvl[k].conds = append(st.lvl[k].conds, g)
}

// congruence recognizes the equality num - den·q = 0 (or its negation) with
// q = ⌊num/den⌋ a local of the domain: it holds exactly when den divides
// num.
func congruence(c ir.Constraint, divs []ir.Div) (num ir.Aff, den int64, ok bool) {
	if !c.Eq {
		return ir.Aff{}, 0, false
	}
	l := -1
	for m, x := range c.Local {
		if x != 0 {
			if l >= 0 {
				return ir.Aff{}, 0, false
			}
			l = m
		}
	}
	dv := divs[l]
	if usesLocals(dv.Num) {
		return ir.Aff{}, 0, false
	}
	rest := c.Aff.Clone()
	x := rest.Local[l]
	rest.Local[l] = 0
	if x == -dv.Den && rest.Equal(dv.Num) || x == dv.Den && rest.Neg().Equal(dv.Num) {
		return dv.Num, dv.Den, true
	}
	return ir.Aff{}, 0, false
}

// build returns the nodes executing sts, which share their first k loops,
// in the order of their children there.
func build(sts []*stmtInfo, k int) []Node {
	var out []Node
	for _, g := range ir.Children(sts, func(st *stmtInfo) *ir.Stmt { return st.s }, k) {
		for _, part := range separateAll(g, k) {
			out = append(out, shared(part, k))
		}
	}
	return mergeIfs(out)
}

// shared returns the node that runs the statements of g at level k: an
// instance or a loop, inside the guards they all still need.
func shared(g []*stmtInfo, k int) Node {
	common := hoist(g)
	var node Node
	if len(g) == 1 && g[0].s.Depth() == k {
		node = instance(g[0])
	} else {
		node = buildLoop(g, k)
	}
	if len(common) > 0 {
		node = &If{Conds: common, Body: []Node{node}}
	}
	return node
}

// separateAll splits the loop at level k that g would share at every
// point some of its statements run at (separate, again on each part); g
// alone when there is none.
func separateAll(g []*stmtInfo, k int) [][]*stmtInfo {
	return separateN(g, k, maxSeparations)
}

// maxSeparations bounds the points one loop is separated at.
const maxSeparations = 8

func separateN(g []*stmtInfo, k, n int) [][]*stmtInfo {
	parts := separate(g, k)
	if parts == nil || n == 0 {
		return [][]*stmtInfo{g}
	}
	var out [][]*stmtInfo
	for i, part := range parts {
		switch {
		case len(part) == 0:
		case i == 1: // the point itself: every statement runs at it
			out = append(out, part)
		default:
			out = append(out, separateN(part, k, n-1)...)
		}
	}
	return out
}

// separate splits the loop at level k that g would share when some of its
// statements run at one point c of the counter (a fixed position of a
// schedule dimension) and the others over ranges: the loop becomes the
// iterations before c (the ranged statements only), the iteration c (all
// of them), and the iterations after c, in that order, which is the order
// of the shared loop (reversed when it counts down). The guards that would select the point statements
// inside the loop disappear, and the inner loops of the first and last
// parts run one statement set (CLooG's separation, for this common case).
// It returns nil when the case does not apply.
func separate(g []*stmtInfo, k int) [][]*stmtInfo {
	var c *ir.Aff
	var points, ranged []*stmtInfo
	for _, st := range g {
		if st.s.Depth() <= k {
			return nil
		}
		a, ok := point(st, k)
		if !ok {
			ranged = append(ranged, st)
			continue
		}
		switch {
		case c == nil:
			c = &a
		case !c.Equal(a):
			// another point: a ranged statement here, separated in the
			// parts (separateAll)
			ranged = append(ranged, st)
			continue
		}
		points = append(points, st)
	}
	if c == nil || len(ranged) == 0 {
		return nil
	}
	at := func(delta int64) Bound {
		b := Bound{Aff: c.Clone(), Den: 1}
		b.Aff.Const += delta
		return b
	}
	var before, here, after []*stmtInfo
	for _, st := range g {
		if slices.Contains(points, st) {
			here = append(here, st.withBounds(k, nil, nil))
			continue
		}
		before = append(before, st.withBounds(k, nil, []Bound{at(-1)}))
		here = append(here, st.withBounds(k, []Bound{at(0)}, []Bound{at(0)}))
		after = append(after, st.withBounds(k, []Bound{at(1)}, nil))
	}
	if g[0].s.Dir[k] < 0 { // a loop counting down meets the iterations above c first
		return [][]*stmtInfo{after, here, before}
	}
	return [][]*stmtInfo{before, here, after}
}

// point returns the one value statement st's counter k can take, when one
// of its lower bounds and one of its upper bounds are the same affine form
// c; other bounds (a tile's, around a statement pinned to a schedule
// dimension) stay with the statement and decide whether it runs at c.
func point(st *stmtInfo, k int) (ir.Aff, bool) {
	lv := st.lvl[k]
	if len(lv.strides) > 0 {
		return ir.Aff{}, false
	}
	for _, lo := range lv.lower {
		if !plainBound(lo) {
			continue
		}
		for _, up := range lv.upper {
			if plainBound(up) && lo.Aff.Equal(up.Aff) {
				return lo.Aff, true
			}
		}
	}
	return ir.Aff{}, false
}

// plainBound reports whether b is an affine form: no division, min/max or
// locals.
func plainBound(b Bound) bool { return len(b.Of) == 0 && b.Den == 1 && !usesLocals(b.Aff) }

// withBounds returns a copy of st whose level k has the extra lower and
// upper bounds (its own pending guards copied, so parts stay independent).
func (st *stmtInfo) withBounds(k int, lower, upper []Bound) *stmtInfo {
	c := *st
	c.lvl = slices.Clone(st.lvl)
	c.lvl[k].lower = append(slices.Clone(st.lvl[k].lower), lower...)
	c.lvl[k].upper = append(slices.Clone(st.lvl[k].upper), upper...)
	c.pending = slices.Clone(st.pending)
	return &c
}

// hoist removes the pending guards every statement of g needs and returns
// them: they go around the node g shares.
func hoist(g []*stmtInfo) []Cond {
	var common []Cond
	for _, c := range g[0].pending {
		if all(g, func(st *stmtInfo) bool { return slices.ContainsFunc(st.pending, c.equal) }) {
			common = append(common, c)
		}
	}
	for _, st := range g {
		st.pending = slices.DeleteFunc(slices.Clone(st.pending), func(c Cond) bool {
			return slices.ContainsFunc(common, c.equal)
		})
	}
	return common
}

func instance(st *stmtInfo) *Instance {
	d := st.s.Depth()
	in := &Instance{Stmt: st.idx, Iters: make([]ir.Aff, d)}
	for l := range in.Iters {
		in.Iters[l] = ir.Aff{Iter: make([]int64, d), Param: make([]int64, st.np)}
		in.Iters[l].Iter[l] = 1
	}
	return in
}

// buildLoop returns the loop at level k shared by the statements of g. It
// runs over the union of their ranges; each statement gets guards for the
// bounds of its own that the loop does not imply.
func buildLoop(g []*stmtInfo, k int) *Loop {
	s0 := g[0].s
	l := &Loop{Iter: s0.Iters[k], Level: k, Step: 1, Dir: s0.Dir[k]}
	lowers := make([][]Bound, len(g))
	uppers := make([][]Bound, len(g))
	for j, st := range g {
		lowers[j], uppers[j] = st.lvl[k].lower, st.lvl[k].upper
	}
	var extraLo, extraUp [][]Bound
	l.Lower, extraLo = union(lowers, true)
	l.Upper, extraUp = union(uppers, false)
	step, ok := commonStride(g, k, l)
	if ok {
		l.Step = step
	}
	for j, st := range g {
		lv := &st.lvl[k]
		for _, b := range extraLo[j] {
			if !implied(l.Lower, b, true) {
				st.pending = append(st.pending, boundCond(b, k, true))
			}
		}
		for _, b := range extraUp[j] {
			if !implied(l.Upper, b, false) {
				st.pending = append(st.pending, boundCond(b, k, false))
			}
		}
		if !ok {
			for _, sd := range lv.strides {
				st.pending = append(st.pending, sd.cond)
			}
		}
		st.pending = append(st.pending, lv.conds...)
	}
	l.Body = build(g, k+1)
	return l
}

// union returns bounds for the union of the ranges whose lower (or upper)
// bound sets are sets, and for each set the bounds of it the result leaves
// out. With C the bounds common to all sets and E_s the others, the union
// lower bound is max(C, min_s max(E_s)), which is max(C) when some E_s is
// empty; upper bounds are the same with min and max exchanged.
func union(sets [][]Bound, lower bool) ([]Bound, [][]Bound) {
	var common []Bound
	for _, b := range sets[0] {
		if all(sets, func(s []Bound) bool { return slices.ContainsFunc(s, b.equal) }) {
			common = append(common, b)
		}
	}
	extra := make([][]Bound, len(sets))
	someEmpty := false
	for j, s := range sets {
		extra[j] = slices.DeleteFunc(slices.Clone(s), func(b Bound) bool { return slices.ContainsFunc(common, b.equal) })
		someEmpty = someEmpty || len(extra[j]) == 0
	}
	if someEmpty {
		return common, extra
	}
	var alts []Bound
	for _, e := range extra {
		alt := e[0]
		if len(e) > 1 {
			alt = Bound{Of: e, Min: !lower}
		}
		if !slices.ContainsFunc(alts, alt.equal) {
			alts = append(alts, alt)
		}
	}
	// The alternatives combine the other way round: the least of the lower
	// bounds. min(b, max(c, ...)) is b when c ≥ b, and the same for upper
	// bounds with min and max exchanged.
	alts = slices.DeleteFunc(slices.Clone(alts), func(x Bound) bool {
		return x.Of != nil && slices.ContainsFunc(alts, func(b Bound) bool { return b.Of == nil && implied(x.Of, b, lower) })
	})
	alts = prune(alts, !lower)
	if len(alts) == 1 {
		return append(common, alts[0]), extra
	}
	return append(common, Bound{Of: alts, Min: lower}), extra
}

// commonStride reports the step of loop l when every statement of g has
// the same single congruence on counter k and the loop starts on it.
func commonStride(g []*stmtInfo, k int, l *Loop) (int64, bool) {
	var first *stride
	for _, st := range g {
		ss := st.lvl[k].strides
		if len(ss) != 1 {
			return 0, false
		}
		if first == nil {
			first = &ss[0]
		} else if ss[0].mod != first.mod || !congruent(ss[0].anchor, first.anchor, first.mod) {
			return 0, false
		}
	}
	start := l.Lower
	if l.Dir < 0 {
		start = l.Upper
	}
	if len(start) != 1 || start[0].Of != nil || start[0].Den != 1 || !congruent(start[0].Aff, first.anchor, first.mod) {
		return 0, false
	}
	return first.mod, true
}

// implied reports whether the loop bound terms bs imply the bound b: some
// leaf of bs differs from b only by a constant at least as strong.
func implied(bs []Bound, b Bound, lower bool) bool {
	return slices.ContainsFunc(bs, func(c Bound) bool {
		if c.Of != nil || c.Den != b.Den || !sameVars(c.Aff, b.Aff) {
			return false
		}
		if lower {
			return c.Aff.Const >= b.Aff.Const
		}
		return c.Aff.Const <= b.Aff.Const
	})
}

// boundCond returns the guard saying i_k ≥ ⌈A/d⌉ (d·i_k - A ≥ 0) or
// i_k ≤ ⌊A/d⌋ (A - d·i_k ≥ 0) for a leaf bound.
func boundCond(b Bound, k int, lower bool) Cond {
	a := truncate(b.Aff, k+1)
	a.Iter[k] = -b.Den
	if lower {
		a = a.Neg()
	}
	return Cond{Aff: a}
}

// mergeIfs joins adjacent guards with the same conditions.
func mergeIfs(ns []Node) []Node {
	var out []Node
	for _, n := range ns {
		if f, ok := n.(*If); ok && len(out) > 0 {
			if prev, ok := out[len(out)-1].(*If); ok && slices.EqualFunc(prev.Conds, f.Conds, Cond.equal) {
				out[len(out)-1] = &If{Conds: prev.Conds, Body: append(slices.Clone(prev.Body), f.Body...)}
				continue
			}
		}
		out = append(out, n)
	}
	return out
}

// normBound returns the leaf ⌈a/den⌉ (lower) or ⌊a/den⌋ in lowest terms:
// with g the gcd of den and a's variable coefficients, a = g·x + c and
// ⌈a/den⌉ = ⌈(x + ⌈c/g⌉)/(den/g)⌉ (the same with floors).
func normBound(a ir.Aff, den int64, lower bool) Bound {
	g := den
	for _, xs := range [][]int64{a.Iter, a.Param} {
		for _, x := range xs {
			g = intmath.Gcd(g, x)
		}
	}
	if g > 1 {
		for _, xs := range [][]int64{a.Iter, a.Param} {
			for j := range xs {
				xs[j] /= g
			}
		}
		if lower {
			a.Const = intmath.CeilDiv(a.Const, g)
		} else {
			a.Const = intmath.FloorDiv(a.Const, g)
		}
		den /= g
	}
	return Bound{Aff: a, Den: den}
}

// prune drops repeated leaves and, of leaves that differ only by their
// constant, keeps the largest constant (keepLarger) or the smallest.
func prune(bs []Bound, keepLarger bool) []Bound {
	var out []Bound
next:
	for _, b := range bs {
		for j, c := range out {
			if b.Of == nil && c.Of == nil && b.Den == c.Den && sameVars(b.Aff, c.Aff) {
				if keepLarger == (b.Aff.Const > c.Aff.Const) {
					out[j] = b
				}
				continue next
			}
			if b.equal(c) {
				continue next
			}
		}
		out = append(out, b)
	}
	return out
}

// congruent reports whether a ≡ b (mod m) for all values of the variables.
func congruent(a, b ir.Aff, m int64) bool {
	d := a.Sub(b)
	if (d.Const % m) != 0 {
		return false
	}
	for _, xs := range [][]int64{d.Iter, d.Param, d.Local} {
		for _, x := range xs {
			if x%m != 0 {
				return false
			}
		}
	}
	return true
}

// sameVars reports whether a and b differ at most in their constants.
func sameVars(a, b ir.Aff) bool {
	a.Const = b.Const
	return a.Equal(b)
}

func usesLocals(a ir.Aff) bool {
	return slices.ContainsFunc(a.Local, func(x int64) bool { return x != 0 })
}

// localsInnermost returns the innermost counter the locals a uses depend on.
func localsInnermost(a ir.Aff, inner []int) int {
	k := -1
	for l, x := range a.Local {
		if x != 0 {
			k = max(k, inner[l])
		}
	}
	return k
}

// truncate returns a copy of a over the first n counters, dropping the
// coefficients of the others or adding zero ones.
func truncate(a ir.Aff, n int) ir.Aff {
	b := a.Clone()
	b.Iter = append(b.Iter[:min(n, len(b.Iter)):min(n, len(b.Iter))], make([]int64, max(0, n-len(b.Iter)))...)
	if !usesLocals(b) {
		b.Local = nil
	}
	return b
}

func truncateDivs(divs []ir.Div, n int) []ir.Div {
	out := make([]ir.Div, len(divs))
	for l, dv := range divs {
		num := dv.Num.Clone()
		if num.Innermost() < n {
			num = truncate(num, n)
			num.Local = dv.Num.Local
		}
		out[l] = ir.Div{Num: num, Den: dv.Den}
	}
	return out
}

func all[T any](xs []T, f func(T) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}
