package expand

import (
	"fmt"
	"slices"

	"nestor/deps"
	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// Array privatization by expansion.
//
// A scratch array that every iteration of a loop L fills before it reads
// it (doitgen's sum[p]: set to 0, summed into, copied out, for every
// (r, q)) carries output and anti dependences from one iteration of L to
// the next, which keep L sequential, but no value: no iteration reads
// what another wrote. Giving each iteration of L its own copy, a new
// array X_x[L − lo][...], removes those dependences and changes no value
// any statement reads. Expanding X along L is done when
//
//   - the first statement K that mentions X writes it with a plain
//     assignment and reads none of it, and every other access to X in the
//     region (reads and writes) touches an element that K wrote earlier
//     in the same iteration of every loop they share (a witness instance
//     of K: K's counters outside the shared loops solved from the
//     subscripts, each one appearing alone with coefficient ±1 in one of
//     them; K's domain implied there, decided by integer emptiness; K
//     earlier in the loops' bodies);
//   - every statement that mentions X lies in L, and L carries no other
//     dependence between statements inside it, and at least one on X: the
//     expansion makes L parallel;
//   - L's counter has bounds affine in the parameters over K's domain,
//     which size the new dimension.
//
// When code outside the region may read X (not ir.Array.RegionOnly), the
// values the original leaves in X are copied out after the region: K
// writes the same elements in every iteration (its write uses no counter
// of L or of the loops around it, and its domain separates into
// constraints on those counters alone and constraints on the others), so
// the last iteration of L, in the last iteration of the loops around it,
// holds every final value; a copy-out statement X[f(u)] = X_x[last][f(u)]
// over K's inner counters u runs when those loops run at all.

// ArrayExpansion records one array given a copy per iteration of a loop.
type ArrayExpansion struct {
	Name    string // the array's name
	Old     int    // its index in Program.Arrays
	Array   int    // the expanded array's index in Program.Arrays
	Kill    int    // the statement that writes every element first in each iteration
	Level   int    // the loop (0 = outermost) whose counter subscripts the new dimension
	Lo      ir.Aff // the counter's lower bound
	Size    ir.Aff // the new dimension's length
	CopyOut int    // the copy-out statement's index, -1 when the array is the region's own
}

func (x ArrayExpansion) String() string {
	return fmt.Sprintf("array %s expanded along loop %d", x.Name, x.Level+1)
}

// ExpandArrays returns p with every array that the conditions above let
// expand expanded, what it expanded, and p's dependences when nothing
// changed (g, which the caller computed for p; nil: computed here).
func ExpandArrays(p *ir.Program, g *deps.Graph) (*ir.Program, []ArrayExpansion, error) {
	type candidate struct {
		a, kill, level int
		lo, size, last ir.Aff
	}
	var cands []candidate
	for a, arr := range p.Arrays {
		if arr.Rank() == 0 {
			continue // scalars: Expand
		}
		m := mentions(p, a)
		if len(m) < 2 {
			continue
		}
		k := m[0]
		w := p.Stmts[k]
		if w.Op != ir.Assign || w.Accesses[0].Array != a || w.Depth() == 0 ||
			slices.ContainsFunc(w.Accesses[1:], func(acc *ir.Access) bool { return acc.Array == a }) {
			continue
		}
		if slices.ContainsFunc(m, func(s int) bool { return len(p.Stmts[s].Domain.Divs) > 0 }) {
			continue
		}
		// The outermost loop of K that holds every statement of X.
		level := -1
		for l := range w.Depth() {
			if !slices.ContainsFunc(m, func(s int) bool { return !p.Stmts[s].In(w.Path(l)) }) {
				level = l
				break
			}
		}
		if level < 0 {
			continue
		}
		covered := true
		for _, s := range m {
			for n, acc := range p.Stmts[s].Accesses {
				if acc.Array != a || s == k && n == 0 {
					continue
				}
				ok, err := witnessed(p, w, p.Stmts[s], acc)
				if err != nil {
					return nil, nil, err
				}
				if !ok {
					covered = false
					break
				}
			}
			if !covered {
				break
			}
		}
		if !covered {
			continue
		}
		if g == nil {
			var err error
			if g, err = deps.Analyze(p); err != nil {
				return nil, nil, err
			}
		}
		// The outermost loop, from level in, that expansion makes parallel.
		chosen := -1
		for l := level; l < w.Depth() && chosen < 0; l++ {
			if gains(p, g, w, a, l) {
				chosen = l
			}
		}
		if chosen < 0 {
			continue
		}
		lo, hi, err := bounds(p, w, chosen)
		if err != nil {
			return nil, nil, err
		}
		if lo == nil || hi == nil {
			continue
		}
		last := *hi
		if w.Dir[chosen] < 0 {
			last = *lo
		}
		if !arr.RegionOnly && (len(arr.Dims) == 0 || !separable(w, chosen)) {
			continue // the final values cannot be copied out
		}
		if !slices.ContainsFunc(tripSizes(p, w, chosen, size(*lo, *hi)), func(t ir.Aff) bool {
			return boundedBy(p, a, append([]ir.Aff{t}, arr.Dims...))
		}) {
			continue // it could take far more memory than the region's data
		}
		cands = append(cands, candidate{a: a, kill: k, level: chosen, lo: *lo, size: size(*lo, *hi), last: last})
	}
	if len(cands) == 0 {
		return p, nil, nil
	}
	q := p
	var done []ArrayExpansion
	for _, c := range cands {
		var x ArrayExpansion
		q, x = expandArray(q, c.a, c.kill, c.level, c.lo, c.size, c.last)
		done = append(done, x)
	}
	return q, done, nil
}

// boundedBy reports whether an array of sizes dims takes no more
// elements than some array of p other than a: its sizes are, as forms,
// a sub-multiset of that array's (doitgen's sum expanded along r,
// [nr][np], beside A[nr][nq][np]). The expansion then at most doubles
// the region's data, whatever the parameters' values.
func boundedBy(p *ir.Program, a int, dims []ir.Aff) bool {
	for b, arr := range p.Arrays {
		if b == a || arr.Rank() < len(dims) {
			continue
		}
		left := slices.Clone(arr.Dims)
		fits := true
		for _, d := range dims {
			k := slices.IndexFunc(left, func(x ir.Aff) bool { return sameSize(x, d) })
			if k < 0 {
				fits = false
				break
			}
			left = slices.Delete(left, k, k+1)
		}
		if fits {
			return true
		}
	}
	return false
}

// tripSizes returns sizes no smaller than the trip count of loop level
// of K: the count itself, and each array size that an access in the loop
// indexes by the loop's counter alone (c ± counter: the accesses stay in
// bounds, so the counter takes at most that many values).
func tripSizes(p *ir.Program, k *ir.Stmt, level int, count ir.Aff) []ir.Aff {
	out := []ir.Aff{count}
	for _, s := range p.Stmts {
		if !s.In(k.Path(level)) {
			continue
		}
		for _, acc := range s.Accesses {
			for d, f := range acc.Index {
				only := level < len(f.Iter) && (f.Iter[level] == 1 || f.Iter[level] == -1) &&
					!slices.ContainsFunc(f.Param, func(c int64) bool { return c != 0 }) &&
					!slices.ContainsFunc(f.Local, func(c int64) bool { return c != 0 })
				for j, c := range f.Iter {
					only = only && (j == level || c == 0)
				}
				if only && d < len(p.Arrays[acc.Array].Dims) {
					out = append(out, p.Arrays[acc.Array].Dims[d])
				}
			}
		}
	}
	return out
}

// sameSize reports whether parameter forms x and y are equal (trailing
// zero coefficients aside).
func sameSize(x, y ir.Aff) bool {
	if x.Const != y.Const {
		return false
	}
	for q := range max(len(x.Param), len(y.Param)) {
		var a, b int64
		if q < len(x.Param) {
			a = x.Param[q]
		}
		if q < len(y.Param) {
			b = y.Param[q]
		}
		if a != b {
			return false
		}
	}
	return true
}

// witnessed reports whether K (one write, to acc's array) writes the
// element access acc of s reaches, earlier in the same iterations of the
// loops K and s share, for every instance of s.
func witnessed(p *ir.Program, k, s *ir.Stmt, acc *ir.Access) (bool, error) {
	common := 0
	for common < min(k.Depth(), s.Depth()) && ir.SameLoops(k, s, common+1) {
		common++
	}
	// K first: its statement or loop precedes s's in the body where they part.
	if common < len(k.Beta) && common < len(s.Beta) && k.Beta[common] >= s.Beta[common] {
		return false, nil
	}
	np := len(p.Params)
	kw := k.Accesses[0]
	if len(kw.Index) != len(acc.Index) {
		return false, nil
	}
	// wit[j]: K's counter j as a form over s's counters.
	wit := make([]*ir.Aff, k.Depth())
	for j := range common {
		a := ir.NewAff(s.Depth(), np, 0)
		a.Iter[j] = 1
		wit[j] = &a
	}
	unknown := func(f ir.Aff, skip int) bool {
		for j := common; j < k.Depth(); j++ {
			if j != skip && j < len(f.Iter) && f.Iter[j] != 0 && wit[j] == nil {
				return true
			}
		}
		return false
	}
	for progress := true; progress; {
		progress = false
		for d, f := range kw.Index {
			if slices.ContainsFunc(f.Local, func(c int64) bool { return c != 0 }) {
				return false, nil
			}
			for j := common; j < k.Depth(); j++ {
				if wit[j] != nil || j >= len(f.Iter) || (f.Iter[j] != 1 && f.Iter[j] != -1) || unknown(f, j) {
					continue
				}
				// f = c·x_j + rest = acc's subscript: x_j = c·(sub − rest).
				rest := subst(f, wit, j, s.Depth(), np)
				sol := acc.Index[d].Clone()
				for len(sol.Iter) < s.Depth() {
					sol.Iter = append(sol.Iter, 0)
				}
				sol = addScaled(sol, rest, -1)
				if f.Iter[j] < 0 {
					sol = addScaled(ir.NewAff(s.Depth(), np, 0), sol, -1)
				}
				wit[j] = &sol
				progress = true
			}
		}
	}
	if slices.Contains(wit, nil) {
		return false, nil
	}
	for d, f := range kw.Index {
		got := subst(f, wit, -1, s.Depth(), np)
		want := acc.Index[d].Clone()
		for len(want.Iter) < s.Depth() {
			want.Iter = append(want.Iter, 0)
		}
		if !got.Equal(want) {
			return false, nil
		}
	}
	// Every instance of s meets K's domain at the witness.
	sp, base := domainRows(p, s)
	rows := make([]poly.Constraint, len(k.Domain.Cons))
	for n, c := range k.Domain.Cons {
		rows[n] = poly.Constraint{Eq: c.Eq, Coef: row(subst(c.Aff, wit, -1, s.Depth(), np), s, np)}
	}
	return irpoly.Implies(sp, base, rows)
}

// alone reports whether every constraint of s's domain that mentions
// counter j mentions no other counter.
func alone(s *ir.Stmt, j int) bool {
	for _, c := range s.Domain.Cons {
		if j >= len(c.Iter) || c.Iter[j] == 0 {
			continue
		}
		for k, v := range c.Iter {
			if k != j && v != 0 {
				return false
			}
		}
	}
	return true
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = k
	}
	return out
}

// subst returns form f over K's counters with each counter j (but skip)
// replaced by wit[j], a form over d counters; skip's term is dropped.
func subst(f ir.Aff, wit []*ir.Aff, skip, d, np int) ir.Aff {
	out := ir.NewAff(d, np, 0)
	copy(out.Param, f.Param)
	out.Const = f.Const
	for j, c := range f.Iter {
		if c == 0 || j == skip {
			continue
		}
		out = addScaled(out, *wit[j], c)
	}
	return out
}

// addScaled returns a + c·b (forms over the same counters and parameters).
func addScaled(a, b ir.Aff, c int64) ir.Aff {
	out := a.Clone()
	for len(out.Iter) < len(b.Iter) {
		out.Iter = append(out.Iter, 0)
	}
	for len(out.Param) < len(b.Param) {
		out.Param = append(out.Param, 0)
	}
	for j, v := range b.Iter {
		out.Iter[j] += c * v
	}
	for j, v := range b.Param {
		out.Param[j] += c * v
	}
	out.Const += c * b.Const
	return out
}

// gains reports whether expanding array a along loop level of K (every
// statement of a inside it) leaves that loop carrying no dependence
// between statements inside it, when it carries one on a now.
func gains(p *ir.Program, g *deps.Graph, k *ir.Stmt, a, level int) bool {
	path := k.Path(level)
	d := level + 1
	onA := false
	for _, e := range g.Edges {
		if e.Depth != d || e.Common < d || !p.Stmts[e.Source].In(path) || !p.Stmts[e.Target].In(path) {
			continue
		}
		if e.Array != a {
			return false
		}
		onA = true
	}
	return onA
}

// separable reports whether K's write uses no counter up to level and
// each constraint of its domain mentions either one counter up to level
// alone (with the parameters) or counters past level only: K then writes
// the same elements in every iteration of those loops, which all have
// parameter bounds.
func separable(k *ir.Stmt, level int) bool {
	for _, f := range k.Accesses[0].Index {
		for j := 0; j <= level && j < len(f.Iter); j++ {
			if f.Iter[j] != 0 {
				return false
			}
		}
	}
	for _, c := range k.Domain.Cons {
		outer, inner := 0, 0
		for j, v := range c.Iter {
			switch {
			case v == 0:
			case j <= level:
				outer++
			default:
				inner++
			}
		}
		if outer > 1 || outer == 1 && inner > 0 {
			return false
		}
	}
	return true
}

// expandArray returns p with array a given a copy per iteration of loop
// level of statement kill (new dimension first: counter − lo, of length
// size), and, unless a is the region's own, a copy-out statement at the
// end of the region from the copy of iteration last.
func expandArray(p *ir.Program, a, kill, level int, lo, size, last ir.Aff) (*ir.Program, ArrayExpansion) {
	np := len(p.Params)
	old := p.Arrays[a]
	w := p.Stmts[kill]
	q := *p
	q.Arrays = append(slices.Clone(p.Arrays), &ir.Array{Name: freshName(p, "nestor_"+old.Name), Elem: old.Elem,
		Dims: append([]ir.Aff{size}, old.Dims...), Storage: ir.ScopLocal, Pos: old.Pos, RegionOnly: true, Heap: true})
	na := len(q.Arrays) - 1
	x := ArrayExpansion{Name: old.Name, Old: a, Array: na, Kill: kill, Level: level, Lo: lo, Size: size, CopyOut: -1}
	q.Stmts = retarget(p, mentions(p, a), a, func(s *ir.Stmt, acc *ir.Access) *ir.Access {
		sub := ir.NewAff(s.Depth(), np, 0)
		sub.Iter[level] = 1
		sub = addScaled(sub, ir.Aff{Param: lo.Param, Const: lo.Const}, -1)
		return &ir.Access{Array: na, Write: acc.Write, Index: append([]ir.Aff{sub}, acc.Index...)}
	})
	if old.RegionOnly {
		return &q, x
	}
	// The copy-out: over K's counters past level that its write uses
	// (renumbered from 0); the loops up to level, and the other counters
	// when their constraints mention them alone, need only run.
	var keep, gone []int
	for j := level + 1; j < w.Depth(); j++ {
		used := slices.ContainsFunc(w.Accesses[0].Index, func(f ir.Aff) bool { return j < len(f.Iter) && f.Iter[j] != 0 })
		if used || !alone(w, j) {
			keep = append(keep, j)
		} else {
			gone = append(gone, j)
		}
	}
	d := len(keep)
	shift := func(f ir.Aff) ir.Aff {
		out := ir.NewAff(d, np, 0)
		copy(out.Param, f.Param)
		out.Const = f.Const
		for n, j := range keep {
			if j < len(f.Iter) {
				out.Iter[n] = f.Iter[j]
			}
		}
		return out
	}
	var cons []ir.Constraint
	for _, c := range w.Domain.Cons {
		if slices.ContainsFunc(keep, func(j int) bool { return j < len(c.Iter) && c.Iter[j] != 0 }) || !slices.ContainsFunc(c.Iter, func(v int64) bool { return v != 0 }) {
			cons = append(cons, ir.Constraint{Aff: shift(c.Aff), Eq: c.Eq})
		}
	}
	// Each loop up to level, and each counter dropped, runs: its bounds
	// meet.
	for _, j := range append(seq(level+1), gone...) {
		lj, hj, err := bounds(p, w, j)
		if err != nil || lj == nil || hj == nil {
			return p, ArrayExpansion{} // unreachable: checked by separable and bounds
		}
		c := ir.NewAff(d, np, 0)
		c = addScaled(c, ir.Aff{Param: hj.Param, Const: hj.Const}, 1)
		c = addScaled(c, ir.Aff{Param: lj.Param, Const: lj.Const}, -1)
		cons = append(cons, ir.Constraint{Aff: c})
	}
	var iters []string
	for _, j := range keep {
		iters = append(iters, w.Iters[j])
	}
	dst := make([]ir.Aff, len(w.Accesses[0].Index))
	for n, f := range w.Accesses[0].Index {
		dst[n] = shift(f)
	}
	first := ir.NewAff(d, np, 0)
	first = addScaled(first, ir.Aff{Param: last.Param, Const: last.Const}, 1)
	first = addScaled(first, ir.Aff{Param: lo.Param, Const: lo.Const}, -1)
	top := 0
	for _, s := range p.Stmts {
		top = max(top, s.Beta[0]+1)
	}
	beta := make([]int, d+1)
	beta[0] = top
	dir := make([]int, d)
	for j := range dir {
		dir[j] = 1
	}
	out := &ir.Stmt{
		Name:     fmt.Sprintf("S%d", len(p.Stmts)),
		Iters:    iters,
		Dir:      dir,
		Beta:     beta,
		Domain:   ir.Domain{Cons: cons},
		Accesses: []*ir.Access{{Array: a, Write: true, Index: dst}, {Array: na, Index: append([]ir.Aff{first}, dst...)}},
		Op:       ir.Assign,
		RHS:      &ir.Load{T: old.Elem, Access: 1},
		Pos:      w.Pos,
		Text:     fmt.Sprintf("copy-out of %s", old.Name),
	}
	q.Stmts = append(q.Stmts, out)
	x.CopyOut = len(q.Stmts) - 1
	return &q, x
}
