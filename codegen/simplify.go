package codegen

import (
	"slices"

	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// simplify removes the guards that the enclosing loops' bounds, the
// enclosing guards and the program's context imply. A guard c is implied
// by the known constraints K when K ∧ ¬c has no integer point (c is
// aff ≥ 0, so ¬c is −aff − 1 ≥ 0), over the counters and the parameters
// together; when poly cannot decide (a limit or an overflow) the guard
// stays. Guards with modulo or floor-division terms always stay. An If
// left with no guard is replaced by its body. The questions share one
// budget of work (see solver); past it the guards stay and the bounds are
// left as they are.
func simplify(p *ir.Program, b *Block, work int64) {
	s := newSolver(p, work)
	var known []poly.Constraint
	for _, c := range p.Context {
		known = append(known, toPoly(c.Aff, c.Eq, s.depth, s.np))
	}
	b.Body = s.simplifyNodes(p, b.Body, known)
}

// maxSolverWork is the budget of one region's simplification, in the units
// of solver.cost. The region of testdata that needs most, seidel-2d's, asks
// for 9e7 under the default options and 3e8 with 4×3×2 tiles. A unit takes
// 5e-11 to 1e-8 s, depending on how large the pivots make the coefficients
// (seidel-2d's skewed tiles are the slow end), so the budget is a few
// seconds at worst. Generated nests with partial tiles in several
// dimensions asked for 4e11 — linear programs of a thousand bound terms —
// and took 20 s and more.
const maxSolverWork = 5e8

// A solver answers the emptiness questions of simplification over the
// counters of a program's loops (depth of them) and its parameters (np),
// within a budget of work. A question is charged its cost before poly
// solves it; one that costs more than the budget has left is not solved
// and is answered as if poly could not decide it: the guard stays, the
// loop may run no iteration, the bound term stays, the accesses may name
// one element. Such answers only cost simplification, never correctness.
// A smaller question may still fit after a large one was refused. The
// budget counts work, not time, so the output does not depend on the
// machine nor on its load.
type solver struct {
	depth, np int
	left      int64 // what the budget has left
}

func newSolver(p *ir.Program, work int64) *solver {
	s := &solver{np: len(p.Params), left: work}
	for _, st := range p.Stmts {
		s.depth = max(s.depth, st.Depth())
	}
	return s
}

// cost estimates the work of deciding the emptiness of rows: poly's
// simplex tableau has a row per constraint plus the objective and a column
// per variable and its negation, per inequality's slack and for the
// constant, and phase 1 makes up to about one pivot per row, each updating
// the whole tableau. The estimate, (r+1)²·(r+1+2v) for r rows over v
// variables, is a cube in the rows: a question about a thousand bound
// terms costs as much as a thousand questions about a hundred.
func (s *solver) cost(rows []poly.Constraint) int64 {
	r := int64(min(len(rows), 1<<20)) + 1 // capped: the cube fits an int64
	return r * r * (r + 2*int64(s.depth+s.np))
}

// empty reports whether rows have no point: no rational point, or with
// integer no integer point. It is false when poly cannot decide (a limit,
// an overflow) and when the budget left does not cover the question.
func (s *solver) empty(rows []poly.Constraint, integer bool) bool {
	c := s.cost(rows)
	if c > s.left {
		return false
	}
	s.left -= c
	set, err := poly.NewSet(space(s.depth, s.np), rows...)
	if err != nil {
		return false
	}
	var empty bool
	if integer {
		empty, err = set.IsEmpty()
	} else {
		empty, err = set.IsRationalEmpty()
	}
	return err == nil && empty
}

func (s *solver) simplifyNodes(p *ir.Program, ns []Node, known []poly.Constraint) []Node {
	depth, np := s.depth, s.np
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			inner := slices.Clone(known)
			if n.Step == 1 {
				inner = append(inner, boundRows(n.Lower, n.Level, true, depth, np)...)
				inner = append(inner, boundRows(n.Upper, n.Level, false, depth, np)...)
				if s.empty(inner, true) {
					continue // never runs (past the budget, such a loop stays)
				}
			}
			n.Lower = s.dropDominated(known, n.Lower, true)
			n.Upper = s.dropDominated(known, n.Upper, false)
			n.NonEmpty = s.nonEmpty(known, n)
			if singleIteration(n) && !usesLocals(n.Lower[0].Aff) {
				// The counter has one value: inner bounds and statements
				// read it as that value (a tile loop over a dimension a
				// statement keeps constant), and the loop prints as its body.
				substitute(n.Body, n.Level, n.Lower[0].Aff)
			}
			n.Body = s.simplifyNodes(p, n.Body, inner)
			if len(n.Body) == 0 {
				continue
			}
			if pieces := splitGuards(n); pieces != nil {
				ns := make([]Node, len(pieces))
				for k, q := range pieces {
					ns[k] = q
				}
				out = append(out, s.simplifyNodes(p, ns, known)...)
				continue
			}
			if innermost(n) {
				n.Registers = s.registerArrays(p, n, inner)
			}
			n.BodyRegisters = s.bodyRegisters(p, n, inner)
			out = append(out, n)
		case *If:
			if slices.ContainsFunc(n.Conds, func(c Cond) bool { return s.refuted(known, c) }) {
				continue // never runs
			}
			keep := slices.Clone(n.Conds)
			for k := 0; k < len(keep); {
				c := keep[k]
				if c.Mod > 0 || usesLocals(c.Aff) {
					k++
					continue
				}
				// Implied by what is known and the other guards kept.
				others := slices.Clone(known)
				for j, d := range keep {
					if j != k && d.Mod == 0 && !usesLocals(d.Aff) {
						others = append(others, toPoly(d.Aff, d.Eq, depth, np))
					}
				}
				if s.guardImplied(others, c) || s.onlyNonEmpty(others, c, n.Body) {
					keep = slices.Delete(keep, k, k+1)
					continue
				}
				k++
			}
			inner := slices.Clone(known)
			for _, c := range keep {
				if c.Mod == 0 && !usesLocals(c.Aff) {
					inner = append(inner, toPoly(c.Aff, c.Eq, depth, np))
				}
			}
			body := s.simplifyNodes(p, n.Body, inner)
			if len(body) == 0 {
				continue // guards around nothing
			}
			if len(keep) == 0 {
				out = append(out, body...)
				continue
			}
			n.Conds, n.Body = keep, body
			out = append(out, n)
		default:
			out = append(out, n)
		}
	}
	return mergeIfs(out)
}

// onlyNonEmpty reports whether guard c around body only keeps out points
// where body, a single loop, runs no iteration: the known constraints,
// ¬c and the loop's lower bounds below its upper ones have no common
// point (over the rationals).
func (s *solver) onlyNonEmpty(known []poly.Constraint, c Cond, body []Node) bool {
	l, ok := body[0].(*Loop)
	if len(body) != 1 || !ok || c.Eq || c.Mod > 0 || usesLocals(c.Aff) {
		return false
	}
	rows := slices.Clone(known)
	not := c.Aff.Neg()
	not.Const--
	rows = append(rows, toPoly(not, false, s.depth, s.np))
	for _, lo := range l.Lower {
		for _, up := range l.Upper {
			if len(lo.Of) > 0 || len(up.Of) > 0 || lo.Den != 1 || up.Den != 1 || usesLocals(lo.Aff) || usesLocals(up.Aff) {
				return false
			}
			rows = append(rows, toPoly(up.Aff.Sub(lo.Aff), false, s.depth, s.np))
		}
	}
	return s.empty(rows, true)
}

// refuted reports whether the known constraints contradict guard c (an
// inequality; other guards are never refuted): they imply −aff − 1 ≥ 0.
func (s *solver) refuted(known []poly.Constraint, c Cond) bool {
	if c.Eq || c.Mod > 0 || usesLocals(c.Aff) {
		return false
	}
	not := c.Aff.Neg()
	not.Const--
	return s.guardImplied(known, Cond{Aff: not})
}

// guardImplied reports whether the known constraints imply guard c. It
// reasons over the rationals: integer emptiness (branch and bound) made
// generated programs with many guards take seconds, for little gain.
func (s *solver) guardImplied(known []poly.Constraint, c Cond) bool {
	return s.implies(known, c, false)
}

// rationalImplied is guardImplied over the rationals: weaker (it may miss
// an implication that needs integrality) but never slow, for the pairwise
// comparisons of bound terms.
func (s *solver) rationalImplied(known []poly.Constraint, c Cond) bool {
	return s.implies(known, c, false)
}

// implies decides known ⇒ c by the emptiness of known ∧ ¬c: first over
// the rationals (empty there means empty over the integers), then, when
// integer is set, over the integers.
func (s *solver) implies(known []poly.Constraint, c Cond, integer bool) bool {
	holds := func(a ir.Aff) bool { // known ⇒ a ≥ 0
		if impliedByOne(known, toPoly(a, false, s.depth, s.np)) {
			return true
		}
		not := toPoly(a.Neg(), false, s.depth, s.np)
		not.Coef[len(not.Coef)-1]--
		rows := append(connected(known, not), not)
		return s.empty(rows, false) || integer && s.empty(rows, true)
	}
	if !holds(c.Aff) {
		return false
	}
	return !c.Eq || holds(c.Aff.Neg())
}

// connected returns the known constraints that share a variable with q,
// directly or through other such constraints. The others cannot help
// prove anything about q (short of contradicting themselves, which the
// callers only lose a simplification over), and leaving them out keeps
// the linear programs small: a guard on one counter of a deep nest needs
// none of the facts about the other counters.
func connected(known []poly.Constraint, q poly.Constraint) []poly.Constraint {
	n := len(q.Coef) - 1
	vars := make([]bool, n)
	for v, c := range q.Coef[:n] {
		vars[v] = c != 0
	}
	taken := make([]bool, len(known))
	for grew := true; grew; {
		grew = false
		for i, k := range known {
			if taken[i] || len(k.Coef) != len(q.Coef) {
				continue
			}
			touches := false
			for v, c := range k.Coef[:n] {
				if c != 0 && vars[v] {
					touches = true
					break
				}
			}
			if !touches {
				continue
			}
			taken[i], grew = true, true
			for v, c := range k.Coef[:n] {
				if c != 0 {
					vars[v] = true
				}
			}
		}
	}
	var out []poly.Constraint
	for i, k := range known {
		if taken[i] {
			out = append(out, k)
		}
	}
	return out
}

// impliedByOne reports whether q (an inequality L + c ≥ 0) holds by
// itself, L being 0 and c ≥ 0, or a single known constraint implies it:
// an inequality or equality with the same linear part and a constant no
// larger, or an equality with the negated linear part that fixes L at a
// value q admits. Many guards and bounds the simplifier asks about are
// implied this way, without a linear program (and so past the budget too).
func impliedByOne(known []poly.Constraint, q poly.Constraint) bool {
	n := len(q.Coef) - 1
	if allZero(q.Coef[:n]) && q.Coef[n] >= 0 {
		return true // max(0, 1): 1 − 0 ≥ 0
	}
	for _, k := range known {
		if len(k.Coef) != len(q.Coef) {
			continue
		}
		// L + k ≥ 0 (or = 0) gives L + c ≥ 0 for every c ≥ k.
		if slices.Equal(k.Coef[:n], q.Coef[:n]) && k.Coef[n] <= q.Coef[n] {
			return true
		}
		// −L + k = 0 gives L = k, and L + c ≥ 0 for every c ≥ −k.
		if k.Eq && negated(k.Coef[:n], q.Coef[:n]) && -k.Coef[n] <= q.Coef[n] {
			return true
		}
	}
	return false
}

// negated reports whether a = −b.
func negated(a, b []int64) bool {
	for i := range a {
		if a[i] != -b[i] {
			return false
		}
	}
	return true
}

// boundRows returns the constraints a loop's bound terms give its counter
// at level k: counter ≥ each term of a lower bound (the max of its terms),
// ≤ each term of an upper bound. A term that is itself a min in a lower
// bound (or a max in an upper one) gives nothing: it is a disjunction.
func boundRows(bs []Bound, k int, lower bool, depth, np int) []poly.Constraint {
	var out []poly.Constraint
	for _, b := range bs {
		switch {
		case len(b.Of) > 0 && b.Min != lower:
			out = append(out, boundRows(b.Of, k, lower, depth, np)...)
		case len(b.Of) > 0:
			// a disjunction: no conjunctive fact
		case !usesLocals(b.Aff):
			// lower: den·i ≥ aff, i.e. den·i − aff ≥ 0; upper: aff − den·i ≥ 0.
			a := b.Aff.Neg()
			if !lower {
				a = b.Aff
			}
			r := toPoly(a, false, depth, np)
			if lower {
				r.Coef[k] += b.Den
			} else {
				r.Coef[k] -= b.Den
			}
			out = append(out, r)
		}
	}
	return out
}

func space(depth, np int) poly.Space { return irpoly.Anonymous(depth, np) }

// toPoly converts an affine form over the counters and parameters to a
// poly row over (depth counters, np parameters, 1); locals are left out.
func toPoly(a ir.Aff, eq bool, depth, np int) poly.Constraint {
	a.Local = nil
	return poly.Constraint{Eq: eq, Coef: irpoly.Layout{Dims: depth, Params: np}.Row(a, 0, depth)}
}

// nonEmpty reports whether the known constraints imply that loop l runs
// at least once: every leaf of its lower bound (a max) is at most every
// leaf of its upper bound (a min), both with denominator 1.
func (s *solver) nonEmpty(known []poly.Constraint, l *Loop) bool {
	if len(l.Lower) == 0 || len(l.Upper) == 0 {
		return false
	}
	for _, lo := range l.Lower {
		for _, up := range l.Upper {
			if len(lo.Of) > 0 || len(up.Of) > 0 || lo.Den != 1 || up.Den != 1 || usesLocals(lo.Aff) || usesLocals(up.Aff) {
				return false
			}
			if !s.guardImplied(known, Cond{Aff: up.Aff.Sub(lo.Aff)}) {
				return false
			}
		}
	}
	return true
}

// registerArrays returns the arrays whose elements loop l may keep in
// variables (see scalar.go): the accesses to the array in l's body that
// do not move with l's counter name a few elements (at most
// maxRegisterElems), any two of them either the same or provably distinct,
// and every access that moves is provably to another element wherever
// the loop runs (known holds the enclosing facts and l's bounds).
func (s *solver) registerArrays(p *ir.Program, l *Loop, known []poly.Constraint) []int {
	if !all(l.Body, isInstance) {
		return nil
	}
	order, byArray := loopAccesses(p, l)
	var out []int
	for _, a := range order {
		fixed := fixedElems(byArray[a])
		if len(fixed) == 0 || len(fixed) > maxRegisterElems || !pairwiseDistinct(s, known, fixed) {
			continue
		}
		ok := true
		for _, x := range byArray[a] {
			for _, f := range fixed {
				if ok && x.moves && !s.distinct(known, f, x.sub) {
					ok = false
				}
			}
		}
		if ok {
			out = append(out, a)
		}
	}
	return out
}

// maxRegisterElems bounds the elements of one array an innermost loop
// keeps in variables (a jammed loop has one per copy).
const maxRegisterElems = 32

// distinct reports whether the known constraints exclude a = b (the two
// subscript lists naming one element).
func (s *solver) distinct(known []poly.Constraint, a, b []ir.Aff) bool {
	rows := slices.Clone(known)
	for k := range a {
		d := a[k].Sub(b[k])
		if usesLocals(d) {
			return false
		}
		if d.Const != 0 && allZero(d.Iter) && allZero(d.Param) {
			return true // A[i][j] and A[i][j+1]: no solver needed
		}
		rows = append(rows, toPoly(d, true, s.depth, s.np))
	}
	return s.empty(rows, true)
}

// bodyRegisters returns the elements loop l's body may keep in a variable
// for one iteration (see scalar.go): an element a statement directly in
// the body accesses unconditionally, such that every access of the body
// (inner loops and guards included) to its array either names it or
// provably names another element, given the enclosing facts and the
// accessing statement's domain. An array may have several such elements
// (a jammed body updates one per copy), up to maxRegisterElems.
func (s *solver) bodyRegisters(p *ir.Program, l *Loop, known []poly.Constraint) []BodyRegister {
	var out []BodyRegister
	seen := map[int][][]ir.Aff{} // per array, the elements considered
	for _, in := range unconditional(l.Body) {
		for _, a := range p.Stmts[in.Stmt].Accesses {
			if len(a.Index) == 0 || len(seen[a.Array]) >= maxRegisterElems {
				continue
			}
			elem := make([]ir.Aff, len(a.Index))
			moves := false
			for j, ix := range a.Index {
				elem[j] = compose(ix, in.Iters)
				moves = moves || (l.Level < len(elem[j].Iter) && elem[j].Iter[l.Level] != 0)
			}
			if slices.ContainsFunc(seen[a.Array], func(e []ir.Aff) bool { return sameSubscripts(e, elem) }) {
				continue
			}
			seen[a.Array] = append(seen[a.Array], elem)
			if !moves {
				continue // the same element every iteration: Registers' case
			}
			for j := range elem { // over the counters of l and outer loops
				if len(elem[j].Iter) > l.Level+1 && !allZero(elem[j].Iter[l.Level+1:]) {
					moves = false
				}
			}
			if !moves {
				continue
			}
			uses, written, ok := s.elementUses(p, l.Body, a.Array, elem, known)
			if ok && uses > 1 && written { // a value only read: the compiler keeps it
				out = append(out, BodyRegister{Array: a.Array, Elem: elem, Written: written,
					Load: !assigns(p, firstInstance(l.Body), elem, a.Array)})
			}
		}
	}
	return out
}

// elementUses counts the statement instances in ns that access element
// elem of array a and
// reports whether one writes it; false when some access may name elem
// without being provably equal to it.
func (s *solver) elementUses(p *ir.Program, ns []Node, a int, elem []ir.Aff, known []poly.Constraint) (count int, written, ok bool) {
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			c, w, ok := s.elementUses(p, n.Body, a, elem, known)
			if !ok {
				return 0, false, false
			}
			count, written = count+c, written || w
		case *If:
			c, w, ok := s.elementUses(p, n.Body, a, elem, known)
			if !ok {
				return 0, false, false
			}
			count, written = count+c, written || w
		case *Instance:
			st := p.Stmts[n.Stmt]
			var dom []poly.Constraint
			for _, c := range st.Domain.Cons {
				if usesLocals(c.Aff) || !identity(n.Iters) {
					dom = nil
					break
				}
				dom = append(dom, toPoly(c.Aff, c.Eq, s.depth, s.np))
			}
			touched := false
			for k, acc := range st.Accesses {
				if acc.Array != a {
					continue
				}
				sub := make([]ir.Aff, len(acc.Index))
				for j, ix := range acc.Index {
					sub[j] = compose(ix, n.Iters)
				}
				switch {
				case sameSubscripts(elem, sub):
					touched = true
					written = written || k == 0
				case !s.distinct(append(slices.Clone(known), dom...), elem, sub):
					return 0, false, false
				}
			}
			if touched {
				count++
			}
		}
	}
	return count, written, true
}

// identity reports whether an instance's counters are the loop counters
// themselves (counter l is loop l), so its domain reads over the loops.
func identity(iters []ir.Aff) bool {
	for l, a := range iters {
		if a.Const != 0 || !allZero(a.Param) {
			return false
		}
		for k, c := range a.Iter {
			if (k == l) != (c == 1) || (k != l && c != 0) {
				return false
			}
		}
	}
	return true
}

func allZero(xs []int64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

// unconditional returns the instances ns runs exactly once: those directly
// in ns and in loops of one iteration, in order.
func unconditional(ns []Node) []*Instance {
	var out []*Instance
	for _, n := range ns {
		switch n := n.(type) {
		case *Instance:
			out = append(out, n)
		case *Loop:
			if singleIteration(n) {
				out = append(out, unconditional(n.Body)...)
			}
		}
	}
	return out
}

// assigns reports whether instance in, when it is the first thing a body
// runs, sets element elem of array a outright: a plain assignment to it
// whose right-hand side does not read it.
func assigns(p *ir.Program, in *Instance, elem []ir.Aff, a int) bool {
	if in == nil {
		return false
	}
	s := p.Stmts[in.Stmt]
	if s.Op != ir.Assign || s.Accesses[0].Array != a {
		return false // an update, or a write of another array
	}
	for k, acc := range s.Accesses {
		if acc.Array != a {
			continue
		}
		sub := make([]ir.Aff, len(acc.Index))
		for j, ix := range acc.Index {
			sub[j] = compose(ix, in.Iters)
		}
		if same := sameSubscripts(elem, sub); (k == 0) != same {
			return false // writes another element, or reads this one
		}
	}
	return true
}

// firstInstance returns the instance a body runs first when that is its
// first node (possibly in loops of one iteration), else nil.
func firstInstance(ns []Node) *Instance {
	if len(ns) == 0 {
		return nil
	}
	switch n := ns[0].(type) {
	case *Instance:
		return n
	case *Loop:
		if singleIteration(n) {
			return firstInstance(n.Body)
		}
	}
	return nil
}

// maxPruneTerms bounds the bound terms dropDominated compares pairwise
// (the solver's work budget bounds their questions too). A wavefront of
// tiles over a skewed band projects long lists: seidel-2d's outer loop
// printed dozens of ceild and floord terms, each bound one once the
// dominated ones were dropped.
const maxPruneTerms = 64

// dropDominated removes the terms of a loop bound that another term
// always dominates where the loop runs: a lower-bound term (of a max)
// never above another, an upper-bound term (of a min) never below
// another. ⌈a/d⌉ ≤ ⌈b/e⌉ whenever a/d ≤ b/e, that is e·a ≤ d·b; the same
// holds for floors. Nested terms (the union of several statements'
// ranges: a min of lower bounds, a max of upper bounds) are simplified
// first, the same way, and one of the list's own kind is spliced into
// it: max(min(0, i), 0) is 0, since min(0, i) ≤ 0.
func (s *solver) dropDominated(known []poly.Constraint, bs []Bound, lower bool) []Bound {
	if len(bs) > maxPruneTerms {
		return bs
	}
	var out []Bound
	for _, b := range bs {
		if b.Of != nil {
			b = s.simplifyTerm(known, b)
		}
		if b.Of != nil && b.Min != lower { // a max in a max, a min in a min
			out = append(out, b.Of...)
			continue
		}
		out = append(out, b)
	}
	if len(out) < 2 || len(out) > maxPruneTerms {
		return out
	}
	for k := 0; k < len(out); {
		b := out[k]
		dominated := false
		for j, c := range out {
			if j == k {
				continue
			}
			if (lower && s.atLeast(known, c, b, 2)) || (!lower && s.atLeast(known, b, c, 2)) {
				dominated = true
				break
			}
		}
		if dominated {
			out = slices.Delete(out, k, k+1)
			continue
		}
		k++
	}
	return out
}

// simplifyTerm returns the nested term b (a min or a max of terms) with
// its own dominated terms dropped, the term itself when one is left.
func (s *solver) simplifyTerm(known []poly.Constraint, b Bound) Bound {
	of := s.dropDominated(known, b.Of, !b.Min)
	if len(of) == 1 {
		return of[0]
	}
	return Bound{Of: of, Min: b.Min}
}

// atLeast reports whether x ≥ y wherever the loop runs, looking depth
// levels into nested terms: a min is at least y when each of its terms
// is, a max when one of them is; x is at least a max when it is at least
// each of its terms, at least a min when it is at least one of them.
// Terms with locals are never compared.
func (s *solver) atLeast(known []poly.Constraint, x, y Bound, depth int) bool {
	switch {
	case x.Of == nil && y.Of == nil:
		if usesLocals(x.Aff) || usesLocals(y.Aff) {
			return false
		}
		diff := scale(x.Aff, y.Den).Sub(scale(y.Aff, x.Den))
		return s.rationalImplied(known, Cond{Aff: diff})
	case depth == 0:
		return false
	case x.Of != nil:
		if x.Min {
			return all(x.Of, func(t Bound) bool { return s.atLeast(known, t, y, depth-1) })
		}
		return slices.ContainsFunc(x.Of, func(t Bound) bool { return s.atLeast(known, t, y, depth-1) })
	default:
		if y.Min {
			return slices.ContainsFunc(y.Of, func(t Bound) bool { return s.atLeast(known, x, t, depth-1) })
		}
		return all(y.Of, func(t Bound) bool { return s.atLeast(known, x, t, depth-1) })
	}
}

// scale returns f·a.
func scale(a ir.Aff, f int64) ir.Aff {
	out := a.Clone()
	for _, xs := range [][]int64{out.Iter, out.Param, out.Local} {
		for j := range xs {
			xs[j] *= f
		}
	}
	out.Const *= f
	return out
}

// substitute replaces the counter at level k by e, an affine form of the
// outer counters and the parameters, in every bound, guard and instance
// of ns.
func substitute(ns []Node, k int, e ir.Aff) {
	sub := func(a *ir.Aff) {
		if k >= len(a.Iter) || a.Iter[k] == 0 {
			return
		}
		c := a.Iter[k]
		out := a.Clone()
		out.Iter[k] = 0
		for j, x := range e.Iter {
			if j < len(out.Iter) {
				out.Iter[j] += c * x
			}
		}
		if len(out.Param) < len(e.Param) {
			out.Param = append(out.Param, make([]int64, len(e.Param)-len(out.Param))...)
		}
		for j, x := range e.Param {
			out.Param[j] += c * x
		}
		out.Const += c * e.Const
		*a = out
	}
	var bounds func(bs []Bound) []Bound
	bounds = func(bs []Bound) []Bound {
		out := slices.Clone(bs)
		for j := range out {
			out[j].Of = bounds(out[j].Of)
			sub(&out[j].Aff)
		}
		return out
	}
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			substitute(n.Body, k, e)
		case *Loop:
			n.Lower, n.Upper = bounds(n.Lower), bounds(n.Upper)
			substitute(n.Body, k, e)
		case *If:
			conds := slices.Clone(n.Conds)
			for j := range conds {
				sub(&conds[j].Aff)
				divs := slices.Clone(conds[j].Divs)
				for d := range divs {
					sub(&divs[d].Num)
				}
				conds[j].Divs = divs
			}
			n.Conds = conds
			substitute(n.Body, k, e)
		case *Instance:
			iters := slices.Clone(n.Iters)
			for j := range iters {
				sub(&iters[j])
			}
			n.Iters = iters
		}
	}
}
