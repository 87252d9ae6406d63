package codegen

import (
	"fmt"
	"slices"
	"strings"

	"nestor/internal/intmath"
	"nestor/ir"
)

// The fork clauses below weigh a loop's estimated work (its innermost
// iterations) against forkLeast's count (forkmodel.go): the machine
// model's cost of waking a sleeping team over the least time of one
// iteration. A loop counted partly (an inner loop whose bounds read the
// counters of loops above it, counted once for want of a usable trip
// count) compares against 1/partialShare of that count: its estimate may
// be far below its work. The share is a guess, not a bound (the ratio of
// the once-entered and nested thresholds before the model set them).
const partialShare = 8

// forkWorkIf returns the conditions under which an OpenMP loop l nested
// in a sequential loop (ForkIf) forks: iters, that l has two iterations or
// more, and work, that the work of one fork, estimated as below, reaches
// forkLeast's count (a conjunction; none when it always does). never
// reports that the estimate is a constant below it: l then stays
// sequential.
//
// The estimate is the trip count of l times the trip counts of a chain of
// loops inside it (the widest loop of each body, widestLoop). A trip count is
// bounded by U - L + 1 for any leaf term L of the loop's lower bound (a
// max) and U of its upper one (a min); a pair is usable when U - L reads
// no counter of l or inside it, since the clause is evaluated before l
// starts (a point loop of a tile: 64*t1 <= t4 < 64*t1 + 64 gives 64). A
// loop with no usable pair counts once, so the estimate may be low for
// loops whose extent depends on l's counter (a triangle).
//
// Each condition is printed as an if around a parallel and a sequential
// copy, which nestor must read back as a static control part: one affine
// inequality each. With the counts a product of M factors, k of them
// distinct (a square stencil's n - 2 twice: k = 1), work asks each
// distinct factor to reach the M-th root of what the constant part leaves
// (exact when k = 1), or, when the counts read one parameter and nothing
// else, the least value of that parameter from which their product does
// (exact); for more than two distinct factors, it tests their
// sum instead, which is at most their product plus M − 1 when each is at
// least 1 (it forks less often than the product would, never for less
// work), so no more than three copies of the loop are printed.
func (pr *printer) forkWorkIf(l *Loop) (iters string, work []string, never bool) {
	iters = fmt.Sprintf("%s > %s", pr.bound(l.Upper, false), pr.bound(l.Lower, true))
	work, never = pr.workConds(l, l.Level)
	return iters, work, never
}

// workConds returns forkWorkIf's work conditions of l with trip counts
// that read no counter of level from or deeper (they are evaluated before
// the loop at that level starts).
func (pr *printer) workConds(l *Loop, from int) (work []string, never bool) {
	least := pr.forkLeast(l)
	need, factors, forms, never, partial := pr.workForms(l, from, least)
	if partial {
		// A loop counted once (a triangle's): the estimate may be far
		// below the work.
		need, factors, forms, never, _ = pr.workForms(l, from, max(least/partialShare, 1))
	}
	if never || need <= 1 {
		return nil, never
	}
	var distinct []string
	for _, f := range factors {
		if !slices.Contains(distinct, f) {
			distinct = append(distinct, f)
		}
	}
	if q, ok := oneParam(forms); ok && len(distinct) > 1 {
		// Counts of one parameter (adi's n/8 and n/256 tiles): the least
		// value from which their product reaches need, one exact test
		// where roots would ask each count for the same share.
		v, ok := leastParam(forms, q, need)
		if !ok {
			return nil, true
		}
		unit := ir.Aff{Param: make([]int64, len(forms[0].Up.Aff.Param))}
		unit.Param[q] = 1
		return []string{fmt.Sprintf("%s >= %d", pr.aff(unit, nil), v)}, false
	}
	if len(distinct) > 2 {
		return []string{fmt.Sprintf("%s >= %d", strings.Join(factors, " + "), need+int64(len(factors))-1)}, false
	}
	r := rootCeil(need, len(factors))
	for _, f := range distinct {
		work = append(work, fmt.Sprintf("%s >= %d", f, r))
	}
	return work, false
}

// workEstimate returns the estimate of the work of a fork of l as the
// product of the trip counts factors (C expressions, read before the loop
// at level from starts) and a constant, and need, the least value of the
// factors' product for which the estimate reaches least (forkLeast's
// count): 1 when it always does, and never when it cannot.
// partial reports that a loop of the chain counted once for want of a
// usable trip count (a triangle's inner loop): the estimate may then be
// far below the work.
func (pr *printer) workEstimate(l *Loop, from int, least int64) (need int64, factors []string, never, partial bool) {
	need, factors, _, never, partial = pr.workForms(l, from, least)
	return need, factors, never, partial
}

// workForms is workEstimate with the form of each factor.
func (pr *printer) workForms(l *Loop, from int, least int64) (need int64, factors []string, forms []countForm, never, partial bool) {
	return pr.chainWork(l, from, least, false)
}

// chainWork is workForms; with mid, a loop of the chain whose bounds read
// an outer counter of the chain counts as midTrip estimates it (its forms
// are then not all set: for workClause only).
func (pr *printer) chainWork(l *Loop, from int, least int64, mid bool) (need int64, factors []string, forms []countForm, never, partial bool) {
	konst := int64(1)
	var chain []*Loop
	add := func(loop *Loop) {
		c, expr, form, ok := pr.tripForm(loop, from)
		if !ok && mid {
			c, expr, ok = pr.midTrip(loop, from, chain)
		}
		if ok && expr == "" && c > 1 && mid {
			// A tile's point loop counts the tile's width; where the
			// domain is narrower (a small problem, one partial tile),
			// the most its other bounds allow counts instead.
			if most, ok := pr.maxTrip(loop, from, chain); ok {
				expr = pr.fold("nestor_min", []string{fmt.Sprint(c), most})
			}
		}
		chain = append(chain, loop)
		switch {
		case !ok:
			partial = true
		case expr == "":
			// An unrolled loop (unroll-and-jam) counts its iterations,
			// not its counter's values: the Step copies are in the body
			// of the innermost loop, whose time forkLeast's count is of.
			konst *= max(c, 0)
		default:
			factors = append(factors, expr)
			forms = append(forms, form)
		}
	}
	widest := func(ns []Node) *Loop {
		if mid {
			return pr.widestLoop(ns, from, chain)
		}
		return pr.widestLoop(ns, from, nil)
	}
	add(l)
	for inner := widest(l.Body); inner != nil && konst > 0 && konst < least<<20; inner = widest(inner.Body) {
		add(inner)
	}
	switch {
	case konst == 0:
		return 0, nil, nil, true, partial
	case len(factors) == 0 && konst < least:
		return 0, nil, nil, true, partial
	case len(factors) == 0 || konst >= least:
		return 1, nil, nil, false, partial
	}
	return (least + konst - 1) / konst, factors, forms, false, partial
}

// workClause returns the if clause of an OpenMP loop l entered once (not
// nested in a sequential loop): the product of workEstimate's factors reaches
// need, computed in double (a product of int trip counts may overflow
// int). A clause need not be affine: nestor reads its own output back as
// code, and ignores pragmas. never reports that the work is a constant
// below forkLeast's count. A loop under l whose bounds read counters of l or of
// loops inside it (a triangle's j <= i) counts as midTrip estimates it;
// where one has no estimate even so, a single fork is cheaper than the
// parallelism a low estimate would lose: no work test. In every case the
// loop forks only for two iterations or more: one tile of a small
// problem is nothing to share, and waking a sleeping team (OpenMP's
// passive wait) costs tens of microseconds (bicg at SMALL, one tile per
// loop: 200 µs a call at 2 threads against 4 µs without the forks).
func (pr *printer) workClause(l *Loop) (clause string, never bool) {
	// The trip test: none for a constant count of 2 or more.
	var conds []string
	c, trip, ok := pr.tripCount(l, l.Level)
	switch {
	case ok && trip == "" && c < 2:
		return "", true
	case ok && trip != "":
		conds = append(conds, trip+" >= 2")
	case !ok:
		conds = append(conds, fmt.Sprintf("%s > %s", pr.bound(l.Upper, false), pr.bound(l.Lower, true)))
	}
	// A triangle's loop counts at its outer counters' midpoints; the
	// estimate stands when every loop under l has a count so.
	need, factors, _, never, partial := pr.chainWork(l, l.Level, pr.forkLeast(l), true)
	if !pr.estimable(l.Body, l.Level, []*Loop{l}) {
		partial = true
	}
	switch {
	case partial:
	case never:
		return "", true
	case need <= 1:
	case len(factors) == 1:
		if factors[0] == trip && need >= 2 {
			conds = nil // the work test implies the trip test
		}
		conds = append(conds, fmt.Sprintf("%s >= %d", factors[0], need))
	default:
		conds = append(conds, fmt.Sprintf("(double)%s >= %d", strings.Join(factors, " * "), need))
	}
	if len(conds) == 0 {
		return "", false
	}
	return " if(" + strings.Join(conds, " && ") + ")", false
}

// teamIf reports whether sequential loop l can run inside one team of
// threads forked once (PrintOptions.ForkOnce), and the if clause of that
// team's pragma ("" when it always forks). It can when every statement
// under l runs inside an OpenMP loop (no statement is left for all the
// threads to run), when l and the sequential loops between hold no
// registers (each thread would write them back) and declare their
// counters (a counter declared outside would be shared), and when no
// factored reduction is under l (it forks its own team). Every thread then
// runs the sequential loops alike (their bounds read only parameters and
// outer counters) and meets the same OpenMP loops in the same order, each
// ending at a barrier, which orders them as the sequential code did. The
// team forks when one of those loops' work, as fork.go estimates it with
// counts known before l starts, reaches forkLeast's count; not at all
// when none can.
func (pr *printer) teamIf(l *Loop) (clause string, ok bool) {
	if slices.Contains(l.Pragmas, "omp parallel for") {
		return "", false
	}
	var alts []string
	always, some := false, false
	var walk func(ns []Node) bool
	walk = func(ns []Node) bool {
		for _, n := range ns {
			switch n := n.(type) {
			case *Instance:
				return false
			case *If:
				if !walk(n.Body) {
					return false
				}
			case *Block:
				if !walk(n.Body) {
					return false
				}
			case *Loop:
				if n.Reduction != nil || n.Rest || pr.open[n] {
					return false
				}
				if !slices.Contains(n.Pragmas, "omp parallel for") {
					if len(n.Registers) > 0 || len(n.BodyRegisters) > 0 || pr.vars[n.Iter] || !walk(n.Body) {
						return false
					}
					continue
				}
				if hasReduction(n.Body) {
					return false
				}
				some = true
				work, never := pr.workConds(n, l.Level)
				switch {
				case never:
				case len(work) == 0:
					always = true
				case !slices.Contains(alts, strings.Join(work, " && ")):
					alts = append(alts, strings.Join(work, " && "))
				}
			}
		}
		return true
	}
	if len(l.Registers) > 0 || len(l.BodyRegisters) > 0 || pr.vars[l.Iter] || !walk(l.Body) || !some {
		return "", false
	}
	switch {
	case always:
		return "", true
	case len(alts) == 0:
		return "", false // no loop's work pays for a fork
	case len(alts) == 1:
		return " if(" + alts[0] + ")", true
	}
	return " if((" + strings.Join(alts, ") || (") + "))", true
}

// hasReduction reports whether a loop of ns, at any depth, is a factored
// reduction.
func hasReduction(ns []Node) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			if n.Reduction != nil || hasReduction(n.Body) {
				return true
			}
		case *If:
			if hasReduction(n.Body) {
				return true
			}
		case *Block:
			if hasReduction(n.Body) {
				return true
			}
		}
	}
	return false
}

// rootCeil returns the least r ≥ 1 with r^m ≥ n.
func rootCeil(n int64, m int) int64 {
	if m == 1 {
		return max(n, 1)
	}
	reaches := func(r int64) bool {
		p := int64(1)
		for range m {
			if p >= (n+r-1)/r {
				return true // p·r ≥ n already, whatever follows
			}
			p *= r
		}
		return p >= n
	}
	r := int64(1)
	for !reaches(r) {
		r++
	}
	return r
}

// firstLoop returns the first loop in ns, looking into guards and blocks.
func firstLoop(ns []Node) *Loop {
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			return n
		case *If:
			if l := firstLoop(n.Body); l != nil {
				return l
			}
		case *Block:
			if l := firstLoop(n.Body); l != nil {
				return l
			}
		}
	}
	return nil
}

// widestLoop returns the loop of the chain workEstimate follows in ns:
// of the loops at the first loop depth of ns (through ifs and blocks;
// not the rest loop of an unrolled loop) with the most loops nested
// inside (loopDepth), the first whose trip count is
// an expression, else the one with the largest constant count, else the
// first. Code generation splits a tile's point loop at the edges of the
// domain into loops of one iteration before the full one (heat-3d's
// skewed tiles): the first loop alone would count one iteration per
// tile. With chain (workClause's estimate of a triangle), a loop that
// midTrip can count at the midpoints of the chain's counters counts too.
func (pr *printer) widestLoop(ns []Node, from int, chain []*Loop) *Loop {
	var loops []*Loop
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Loop:
				if !n.Rest { // at most step − 1 iterations, whatever its bounds say
					loops = append(loops, n)
				}
			case *If:
				walk(n.Body)
			case *Block:
				walk(n.Body)
			}
		}
	}
	walk(ns)
	if len(loops) == 0 {
		return nil
	}
	// The deepest loops only: most of the work is in the deepest nest.
	deepest := 0
	for _, l := range loops {
		deepest = max(deepest, pr.loopDepth(l, from))
	}
	loops = slices.DeleteFunc(loops, func(l *Loop) bool { return pr.loopDepth(l, from) < deepest })

	best, bestC := loops[0], int64(-1)
	var uncounted *Loop
	for _, l := range loops {
		c, expr, ok := pr.tripCount(l, from)
		if !ok && chain != nil {
			c, expr, ok = pr.midTrip(l, from, chain)
		}
		switch {
		case ok && expr != "":
			return l
		case ok && c > bestC:
			best, bestC = l, c
		case !ok && uncounted == nil:
			uncounted = l
		}
	}
	if bestC <= 1 && uncounted != nil {
		// A loop of one iteration (a statement placed at a point of the
		// band: nussinov's tile, beside its reduction loop) is not the
		// widest where another loop has no usable count: that one is
		// counted partly (once), which at least says so.
		return uncounted
	}
	return best
}

// loopDepth returns the number of loops on the longest path from l down
// (through ifs and blocks), 1 for an innermost loop, not counting loops
// of one iteration (a constant count, from level from): code generation
// elides them, and a nest of a statement placed at one point of a band
// (doitgen's zeroing of a row inside the tiles of its product) is not
// deeper for them.
func (pr *printer) loopDepth(l *Loop, from int) int {
	var in func(ns []Node) int
	in = func(ns []Node) int {
		d := 0
		for _, n := range ns {
			switch n := n.(type) {
			case *Loop:
				d = max(d, pr.loopDepth(n, from))
			case *If:
				d = max(d, in(n.Body))
			case *Block:
				d = max(d, in(n.Body))
			}
		}
		return d
	}
	if c, expr, ok := pr.tripCount(l, from); ok && expr == "" && c <= 1 {
		return in(l.Body)
	}
	return 1 + in(l.Body)
}

// tripCount bounds the trip count of loop by U - L + 1 for leaf terms
// that read no counter of level from or deeper: a constant c (expr "")
// when one pair gives one (the smallest), else the C expression of a pair
// (in parentheses). ok is false when no pair is usable.
func (pr *printer) tripCount(loop *Loop, from int) (c int64, expr string, ok bool) {
	c, expr, _, ok = pr.tripForm(loop, from)
	return c, expr, ok
}

// countForm is a trip count expression as bounds: ⌊Up⌋ − ⌈Lo⌉ + 1.
type countForm struct{ Lo, Up Bound }

// tripForm is tripCount with the form of the expression it returns.
func (pr *printer) tripForm(loop *Loop, from int) (c int64, expr string, form countForm, ok bool) {
	// An expression can only read the counters of the loops open here: a
	// team's clause, printed above its sequential loops (forkOnce), asks
	// for the estimates of loops further in.
	from = min(from, len(pr.names))
	step := max(loop.Step, 1)
	best := int64(-1)
	for _, lo := range loop.Lower {
		for _, up := range loop.Upper {
			if lo.Of != nil || up.Of != nil {
				continue
			}
			if lo.Den == 1 && up.Den == 1 {
				d := up.Aff.Sub(lo.Aff)
				if d.IsConst() {
					if n := d.Const/step + 1; best < 0 || n < best {
						best = n
					}
					continue
				}
				if expr == "" && readsBefore(d, from) {
					d.Const++
					expr = "(" + pr.aff(d, nil) + ")"
					form = countForm{lo, up}
				}
				continue
			}
			if expr == "" && readsBefore(lo.Aff, from) && readsBefore(up.Aff, from) {
				if l := pr.term(lo, true); l == "0" {
					expr = fmt.Sprintf("(%s + 1)", pr.term(up, false))
				} else {
					expr = fmt.Sprintf("(%s - %s + 1)", pr.term(up, false), l)
				}
				form = countForm{lo, up}
			}
		}
	}
	if best >= 0 {
		return best, "", countForm{}, true
	}
	return 0, expr, form, expr != ""
}

// oneParam returns the parameter every form reads, when they read one
// parameter and nothing else (no counter, no local) and each count can
// only grow with it (its upper bound's coefficient non-negative, its
// lower bound's non-positive).
func oneParam(forms []countForm) (int, bool) {
	q := -1
	for _, f := range forms {
		for _, b := range []Bound{f.Lo, f.Up} {
			if b.Of != nil || usesLocals(b.Aff) || !allZero(b.Aff.Iter) {
				return 0, false
			}
			for k, c := range b.Aff.Param {
				if c == 0 {
					continue
				}
				if q >= 0 && k != q {
					return 0, false
				}
				q = k
			}
		}
		if q >= 0 && (f.Up.Aff.Param[q] < 0 || f.Lo.Aff.Param[q] > 0) {
			return 0, false
		}
	}
	return q, q >= 0
}

// countAt evaluates form f at parameter q = v (no other parameter or
// counter is read: see oneParam), at least 0.
func countAt(f countForm, q int, v int64) int64 {
	at := func(b Bound) (num, den int64) {
		return b.Aff.Param[q]*v + b.Aff.Const, max(b.Den, 1)
	}
	un, ud := at(f.Up)
	ln, ld := at(f.Lo)
	return max(intmath.FloorDiv(un, ud)-intmath.CeilDiv(ln, ld)+1, 0)
}

// leastParam returns the least value of parameter q from which the
// product of the counts forms reaches need (they only grow with it), and
// false when none up to 2³¹ does.
func leastParam(forms []countForm, q int, need int64) (int64, bool) {
	reaches := func(v int64) bool {
		p := int64(1)
		for _, f := range forms {
			c := countAt(f, q, v)
			if c == 0 {
				return false
			}
			if p > (need+c-1)/c {
				return true
			}
			p *= c
		}
		return p >= need
	}
	lo, hi := int64(0), int64(1)<<31
	if !reaches(hi) {
		return 0, false
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if reaches(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, true
}

// estimable reports whether every loop of ns, at any depth, has a trip
// count the work estimate can use: one that reads no counter of level
// from or deeper (tripForm), or, with chain (the loops around ns from
// level from down), one midTrip gives. Without chain, a triangle's loop
// has none: the estimate would count it once.
func (pr *printer) estimable(ns []Node, from int, chain []*Loop) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *Loop:
			if _, _, _, ok := pr.tripForm(n, from); !ok {
				if chain == nil {
					return false
				}
				if _, _, ok := pr.midTrip(n, from, chain); !ok {
					return false
				}
			}
			inner := chain
			if chain != nil {
				inner = append(slices.Clone(chain), n)
			}
			if !pr.estimable(n.Body, from, inner) {
				return false
			}
		case *If:
			if !pr.estimable(n.Body, from, chain) {
				return false
			}
		case *Block:
			if !pr.estimable(n.Body, from, chain) {
				return false
			}
		}
	}
	return true
}

// midTrip estimates the trip count of loop, whose bounds read counters of
// the loops of chain (at level from or deeper), as its count with each
// such counter at the middle of its loop's range: for a count affine in
// those counters, the mean over a box of them (a triangle's j <= i runs
// (n + 1) / 2 times on average over i < n). A counter qualifies when its
// loop has one lower and one upper bound, both affine, reading no counter
// of level from or deeper, and counts up (by any step: an unrolled loop's
// counter still averages its bounds' midpoint). The count is a constant c (expr
// "") or a C expression; ok is false when no pair of bounds gives one.
func (pr *printer) midTrip(loop *Loop, from int, chain []*Loop) (c int64, expr string, ok bool) {
	ranges := map[int]ir.Aff{} // level: lower + upper bound of its counter
	for _, o := range chain {
		if len(o.Lower) != 1 || len(o.Upper) != 1 || o.Dir < 0 {
			continue
		}
		lo, up := o.Lower[0], o.Upper[0]
		if lo.Of != nil || up.Of != nil || lo.Den != 1 || up.Den != 1 || !readsBefore(lo.Aff, from) || !readsBefore(up.Aff, from) {
			continue
		}
		ranges[o.Level] = up.Aff.Sub(lo.Aff.Neg())
	}
	small := func(a ir.Aff) bool { return within(a, 1<<30) } // coefficients kept far from overflow
	step := max(loop.Step, 1)
	best := int64(-1)
	for _, lo := range loop.Lower {
		for _, up := range loop.Upper {
			if lo.Of != nil || up.Of != nil || lo.Den != 1 || up.Den != 1 {
				continue
			}
			d := up.Aff.Sub(lo.Aff)
			if !small(d) {
				continue
			}
			// twice the count: 2·(d + 1) with each counter c_k replaced
			// by lo_k + up_k (twice its midpoint).
			two := ir.Aff{Iter: make([]int64, len(d.Iter)), Param: make([]int64, len(d.Param)), Local: make([]int64, len(d.Local)), Const: 2 * (d.Const + 1)}
			for k, v := range d.Param {
				two.Param[k] = 2 * v
			}
			for k, v := range d.Local {
				two.Local[k] = 2 * v
			}
			usable := true
			for k, v := range d.Iter {
				if k < from {
					two.Iter[k] = 2 * v
					continue
				}
				if v == 0 {
					continue
				}
				r, ok := ranges[k]
				if !ok || !small(r) {
					usable = false
					break
				}
				for _, part := range []struct{ x, y []int64 }{{two.Iter, r.Iter}, {two.Param, r.Param}} {
					for q, w := range part.y {
						if q < len(part.x) {
							part.x[q] += v * w
						} else if w != 0 {
							usable = false
						}
					}
				}
				if len(r.Local) > 0 && !allZero(r.Local) {
					usable = false
				}
				two.Const += v * r.Const
			}
			if !usable || !readsBefore(two, from) {
				continue
			}
			if two.IsConst() {
				if n := max(two.Const, 0) / (2 * step); best < 0 || n < best {
					best = n
				}
				continue
			}
			if expr == "" {
				expr = "((" + pr.aff(two, nil) + ") / " + fmt.Sprint(2*step) + ")"
			}
		}
	}
	if best >= 0 {
		return best, "", true
	}
	return 0, expr, expr != ""
}

// maxTrip returns a C expression of an upper bound on the trip count of
// loop that reads no counter of level from or deeper: the count of a pair
// of its bounds (affine, no division), each counter of a loop of chain
// it reads (at level from or deeper) at the end of that loop's range
// that makes the count largest (its one affine lower bound for a
// negative coefficient, its upper bound for a positive one). A point
// loop 256·t3 ≤ t6 ≤ np − 1 under 0 ≤ t3 runs at most np iterations.
// ok is false when no pair gives one, or the bound is a constant.
func (pr *printer) maxTrip(loop *Loop, from int, chain []*Loop) (expr string, ok bool) {
	at := map[int]*Loop{}
	for _, o := range chain {
		at[o.Level] = o
	}
	end := func(o *Loop, lower bool) (ir.Aff, bool) {
		if o == nil {
			return ir.Aff{}, false
		}
		bs := o.Upper
		if lower {
			bs = o.Lower
		}
		if len(bs) != 1 || bs[0].Of != nil || bs[0].Den != 1 || max(o.Step, 1) != 1 || !readsBefore(bs[0].Aff, from) {
			return ir.Aff{}, false
		}
		return bs[0].Aff, true
	}
	// Coefficients kept far from overflow: each product below is under
	// 2^40.
	small := func(a ir.Aff) bool { return within(a, 1<<20) }
	step := max(loop.Step, 1)
	for _, lo := range loop.Lower {
		for _, up := range loop.Upper {
			if lo.Of != nil || up.Of != nil || lo.Den != 1 || up.Den != 1 || usesLocals(lo.Aff) || usesLocals(up.Aff) || !small(lo.Aff) || !small(up.Aff) {
				continue
			}
			d := up.Aff.Sub(lo.Aff)
			usable := true
			for k := from; k < len(d.Iter); k++ {
				v := d.Iter[k]
				if v == 0 {
					continue
				}
				e, ok := end(at[k], v < 0)
				if !ok || !small(e) || intmath.Abs(v) > 1<<20 {
					usable = false
					break
				}
				d.Iter[k] = 0
				d = d.Sub(scale(e, -v))
			}
			if !usable || !readsBefore(d, from) || d.IsConst() {
				continue
			}
			if step == 1 {
				d.Const++
				return "(" + pr.aff(d, nil) + ")", true
			}
			return fmt.Sprintf("((%s) / %d + 1)", pr.aff(d, nil), step), true
		}
	}
	return "", false
}

// within reports whether every coefficient and the constant of a are at
// most limit in absolute value.
func within(a ir.Aff, limit int64) bool {
	for _, xs := range [][]int64{a.Iter, a.Param, a.Local} {
		for _, v := range xs {
			if intmath.Abs(v) > limit {
				return false
			}
		}
	}
	return intmath.Abs(a.Const) <= limit
}

// readsBefore reports whether a reads no counter of level from or deeper:
// its value is known before the loop at level from starts.
func readsBefore(a ir.Aff, from int) bool {
	for k := from; k < len(a.Iter); k++ {
		if a.Iter[k] != 0 {
			return false
		}
	}
	return true
}
