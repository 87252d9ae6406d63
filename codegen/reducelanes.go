package codegen

import (
	"fmt"
	"slices"
	"strconv"

	"nestor/ir"
)

// Vector lanes of a commutative reduction.
//
// A thread's chunk of a factored reduction is a chain: every iteration
// waits for the one before it, so a compiler cannot vectorize an update
// it does not know to be associative (mincount's minimum and its count,
// a float sum under --assoc-math), and the chain's latency, not the
// machine's throughput, sets the pace. Where the operator is proved
// commutative, the fold of a chunk may visit its iterations in any order
// and group them any way, so the chunk folds them into lanes instead:
// lane k takes the iterations b+k, b+k+L, b+k+2L, ..., and an OpenMP
// simd loop over the lanes updates L partial results at once:
//
//	T x_v[L]; for (l = 0; l < L; l++) x_v[l] = <identity>;
//	int i0 = b;
//	for (; i0 + L <= e; i0 += L)
//	  #pragma omp simd
//	  for (l = 0; l < L; l++) { int i = i0 + l; <the body, x renamed x_v[l]> }
//	for (l = 0; l < e - i0; l++) { int i = i0 + l; <the same> }   (the rest)
//	for (l = 0; l < L; l++) x_p = x_p ⊕ x_v[l];
//
// Without an identity each lane starts from the value its first
// iteration folds in (Lift), when the chunk has L iterations or more
// (else it runs in order, as without lanes), and x_p from lane 0's.
// Where the reduction's loop holds a nest of loops (a sum over an
// image's rows and columns), the lanes take the iterations of the
// innermost loop, each time it runs, and fold into x_p once, after the
// chunk (an operator with an identity only).
//
// The result is the fold of the same values, regrouped and reordered:
// equal for a commutative monoid (and, for floats, what --assoc-math
// allows). mincount at LARGE ran 4× faster at one thread this way.

// laneBytes is the width of the lanes of a commutative reduction, in
// bytes of the widest partial result: two 512-bit vectors (four 256-bit
// ones), enough independent chains to cover an operation's latency.
const laneBytes = 128

// A laneSet is the lanes of a chunk: the names of the lane counter and
// of each x_i's lanes, and the loop whose iterations fold into them.
type laneSet struct {
	f      *factored
	loop   *Loop
	lane   string
	vs, ys []string // x_i's lanes, and its lane as printed (vs[i][lane])
}

// laneCount returns the number of lanes the chunks of reduction loop l
// fold into (laneLoops), or 0 where they run in order: an operator
// without proof of commutativity, a temporary read after the loop (its
// last value would be a lane's), or no loop to fold (laneLoop).
func (pr *printer) laneCount(f *factored, l *Loop) int {
	r := f.r
	if !r.Commutative || slices.Contains(r.LastPrivate, true) || r.Identity == nil && r.Lift == nil || laneLoop(l, r) == nil || pr.calls(r) {
		return 0
	}
	widest := 1
	for _, t := range f.types {
		widest = max(widest, t.Size())
	}
	return laneBytes / widest
}

// inlined are the functions a compiler computes in vector registers
// without -ffast-math (an and, a compare and a select).
var inlined = map[string]bool{"fabs": true, "fabsf": true, "abs": true, "labs": true}

// calls reports whether a statement of r calls a function the compiler
// calls for each element (exp, log; inlinedCall): around each call the
// lanes or chains go to memory and back, and minmax's fmin and fmax, when
// they were calls, ran 10% slower at one thread in lanes than in one
// chain.
func (pr *printer) calls(r *ir.Reduction) bool {
	found := false
	for _, st := range r.Stmts {
		ir.Walk(pr.p.Stmts[st].RHS, func(e ir.Expr) bool {
			if c, ok := e.(*ir.Call); ok && !inlinedCall(c) {
				found = true
			}
			return !found
		})
	}
	return found
}

// laneLoop returns the loop of reduction loop l whose iterations fold
// into lanes: l itself when it holds the reduction's statements alone,
// or, with an identity, the innermost of a nest of loops one inside the
// other (each body one loop) whose body they are; nil when there is
// none or it does not count up by one.
func laneLoop(l *Loop, r *ir.Reduction) *Loop {
	if l.Dir < 0 || l.Step != 1 || l.Rest {
		return nil
	}
	m := l
	for r.Identity != nil && len(m.Body) == 1 {
		inner, ok := m.Body[0].(*Loop)
		if !ok {
			break
		}
		m = inner
	}
	if !innermost(m) || m.Dir < 0 || m.Step != 1 || m.Rest || !bodyIs(m.Body, r.Stmts) {
		return nil
	}
	return m
}

// newLanes declares f.lanes lanes of every x_i at depth d, holding the
// identity when the operator has one.
func (pr *printer) newLanes(f *factored, m *Loop, d int) *laneSet {
	r := f.r
	ls := &laneSet{f: f, loop: m, lane: pr.fresh("nestor_l")}
	for i := range f.vars {
		ls.vs = append(ls.vs, pr.fresh(baseName(f.vars[i])+"_v"))
		ls.ys = append(ls.ys, ls.vs[i]+"["+ls.lane+"]")
		pr.line(d, fmt.Sprintf("%s %s[%d];", f.types[i], ls.vs[i], f.lanes))
	}
	if r.Identity != nil {
		pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", ls.lane, ls.lane, f.lanes, ls.lane))
		for i := range f.vars {
			pr.line(d+1, fmt.Sprintf("%s = %s;", ls.ys[i], pr.redExpr(r, r.Identity[i], f.in, f.vars, nil)))
		}
		pr.line(d, "}")
	}
	return ls
}

// laneFor opens a loop over the lanes (cond bounds the lane counter),
// with the counter of the lanes' loop at iteration from + lane where
// from is set.
func (pr *printer) laneFor(ls *laneSet, d int, pragma, cond, from string) {
	if pragma != "" {
		pr.line(d, pragma)
	}
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s; %s++) {", ls.lane, ls.lane, cond, ls.lane))
	if from != "" {
		pr.line(d+1, fmt.Sprintf("%s %s = %s + %s;", pr.counter, ls.loop.Iter, from, ls.lane))
	}
}

// laneBody prints what print prints with the lanes' loop's counter
// named and the lanes standing for the partial results, −(−t) read t
// (as counterLoop prints it).
func (pr *printer) laneBody(ls *laneSet, print func()) {
	f, it := ls.f, ls.loop.Iter
	start := pr.body.Len()
	saved := f.priv
	f.priv = ls.ys
	pr.names = append(pr.names, it)
	pr.withPartials(f, print)
	pr.names = pr.names[:len(pr.names)-1]
	f.priv = saved
	pr.unnegate(start, it)
}

// liftLanes sets the lanes to the value their iteration folds in (Lift):
// their start where the operator has no identity.
func (pr *printer) liftLanes(ls *laneSet, d int) {
	f := ls.f
	for i := range f.vars {
		pr.line(d, fmt.Sprintf("%s = %s;", ls.ys[i], pr.redExpr(f.r, f.r.Lift[i], f.in, f.vars, nil)))
	}
}

// laneSweep prints the iterations from to end (exclusive; C expressions)
// of the lanes' loop, folded into the lanes: L at a time, then the rest
// in the first lanes.
func (pr *printer) laneSweep(ls *laneSet, from, end string, d int) {
	f, m := ls.f, ls.loop
	i0 := pr.fresh("nestor_i0")
	pr.line(d, fmt.Sprintf("%s %s = %s;", pr.counter, i0, from)) // the counters' type: i0 + l does not wrap
	pr.line(d, fmt.Sprintf("for (; %s + %d <= %s; %s += %d) {", i0, f.lanes, end, i0, f.lanes))
	pr.laneFor(ls, d+1, "#pragma omp simd"+privateClauses(f.temps, nil), strconv.Itoa(f.lanes), i0)
	pr.laneBody(ls, func() { pr.nodes(m.Body, d+2) })
	pr.line(d+1, "}")
	pr.line(d, "}")
	pr.laneFor(ls, d, "", end+" - "+i0, i0)
	pr.laneBody(ls, func() { pr.nodes(m.Body, d+1) })
	pr.line(d, "}")
}

// innerLanes prints loop m, the lanes' loop inside a chunk's nest of
// loops, as a sweep over its iterations into the lanes.
func (pr *printer) innerLanes(ls *laneSet, m *Loop, d int) {
	end := "(" + pr.bound(m.Upper, false) + ") + 1"
	if u := m.Upper; len(u) == 1 && u[0].Of == nil && u[0].Den == 1 {
		b := u[0]
		b.Aff = b.Aff.Clone()
		b.Aff.Const++
		end = pr.bound([]Bound{b}, false)
	}
	pr.line(d, "{")
	pr.laneSweep(ls, pr.bound(m.Lower, true), end, d+1)
	pr.line(d, "}")
}

// foldLanes folds the lanes into the chunk's partial results (in any
// order: the operator commutes), lane 0 starting them where there is
// no identity.
func (pr *printer) foldLanes(ls *laneSet, d int) {
	f, r := ls.f, ls.f.r
	from := 0
	if r.Identity == nil {
		for i := range f.vars {
			pr.line(d, fmt.Sprintf("%s = %s[0];", f.priv[i], ls.vs[i]))
		}
		from = 1
	}
	pr.line(d, fmt.Sprintf("for (int %s = %d; %s < %d; %s++) {", ls.lane, from, ls.lane, f.lanes, ls.lane))
	news := make([]string, len(ls.vs))
	for i := range ls.vs {
		news[i] = pr.fresh(fmt.Sprintf("nestor_y%d", i))
		pr.line(d+1, fmt.Sprintf("%s %s = %s;", f.types[i], news[i], pr.redExpr(r, r.Combine[i], f.in, f.priv, ls.ys)))
	}
	for i := range ls.vs {
		pr.line(d+1, fmt.Sprintf("%s = %s;", f.priv[i], news[i]))
	}
	pr.line(d, "}")
}

// inlineLanes prints reduction loop l, innermost, as one sweep of its
// iterations into lanes folded into the variables, without OpenMP: the
// short loops forkCond keeps sequential (operator with an identity).
func (pr *printer) inlineLanes(f *factored, l *Loop, d int) {
	r := f.r
	l.Registers, l.BodyRegisters = nil, nil
	pr.line(d, "{")
	ls := pr.newLanes(f, l, d+1)
	pr.innerLanes(ls, l, d+1)
	pr.line(d+1, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", ls.lane, ls.lane, f.lanes, ls.lane))
	news := make([]string, len(ls.vs))
	for i := range ls.vs {
		news[i] = pr.fresh(fmt.Sprintf("nestor_y%d", i))
		pr.line(d+2, fmt.Sprintf("%s %s = %s;", f.types[i], news[i], pr.redExpr(r, r.Combine[i], f.in, f.vars, ls.ys)))
	}
	for i := range ls.vs {
		if unsigned(r, i) {
			pr.line(d+2, fmt.Sprintf("%s = (%s)%s;", f.vars[i], pr.p.Arrays[r.Vars[i].Array].Elem, news[i]))
			continue
		}
		pr.line(d+2, fmt.Sprintf("%s = %s;", f.vars[i], news[i]))
	}
	pr.line(d+1, "}")
	pr.line(d, "}")
}

// laneLoops prints the iterations b to e of l (b and e name them) folded
// into f.lanes lanes and then into the chunk's partial results, which
// hold the identity, or which the lanes start (f.ran set) where the
// operator has none.
func (pr *printer) laneLoops(f *factored, l *Loop, b, e string, d int) {
	r := f.r
	l.Registers, l.BodyRegisters = nil, nil
	m := laneLoop(l, r)
	if m != l {
		// A nest: the lanes take the innermost loop's iterations.
		ls := pr.newLanes(f, m, d)
		if pr.laneOf == nil {
			pr.laneOf = map[*Loop]*laneSet{}
		}
		pr.laneOf[m] = ls
		pr.chunkRange[l] = [2]string{b, e}
		pr.withPartials(f, func() { pr.counterLoop(l, d) })
		delete(pr.chunkRange, l)
		delete(pr.laneOf, m)
		pr.foldLanes(ls, d)
		return
	}
	lift := pr.lift
	pr.lift = nil // the bodies below update lanes that hold a value
	if r.Identity == nil {
		pr.line(d, fmt.Sprintf("if (%s - %s >= %d) {", e, b, f.lanes))
		d++
	}
	ls := pr.newLanes(f, l, d)
	first := b
	if r.Identity == nil {
		// Each lane starts from its first iteration's value.
		pr.laneFor(ls, d, "#pragma omp simd"+privateClauses(f.temps, nil), strconv.Itoa(f.lanes), b)
		pr.laneBody(ls, func() { pr.liftLanes(ls, d+1) })
		pr.line(d, "}")
		first = fmt.Sprintf("%s + %d", b, f.lanes)
	}
	pr.laneSweep(ls, first, e, d)
	pr.foldLanes(ls, d)
	if r.Identity == nil {
		pr.line(d, f.ran+" = 1;")
		d--
		pr.line(d, "} else {") // fewer iterations than lanes: in order
		pr.lift = lift
		pr.chunkRange[l] = [2]string{b, e}
		pr.withPartials(f, func() { pr.counterLoop(l, d+1) })
		delete(pr.chunkRange, l)
		pr.line(d, "}")
	}
}

// Chunks in lockstep.
//
// An operator that does not commute must fold every chunk in order, but
// a thread can fold several chunks at once: the chains of consecutive
// chunks are independent, and interleaved they overlap in the core's
// pipelines where one chain alone waits on each operation's latency
// (kadane's four running maxima). The team's loop then takes K
// consecutive chunks at a time, each with its own scalar partial results
// and slot, and runs the same iteration of each in turn:
//
//	for (c = 0; c < nc / K; c++) {
//	  b_k, e_k: the range of chunk K*c + k (k < K); len = min(e_k - b_k)
//	  x_pk = <identity>;                              (each k)
//	  for (q = 0; q < len; q++) { int i = b_0 + q; <body of x_p0> } ... { int i = b_K-1 + q; <body of x_pK-1> }
//	  for (i = b_k + len; i < e_k; i++) <body of x_pk>   (each k: the rest)
//	  p[K*c + k] = x_pk;                              (each k)
//	}
//
// Without an identity each chunk starts from its first iteration's value
// (Lift). The slots combine in chunk order as before.

// lockstepSteps is the number of chunks folded in lockstep: kadane at
// LARGE ran 1.3 times faster with 4 than with 1 (16.8 against 22.5 ms
// at one thread, 8.9 against 11.6 at two).
const lockstepSteps = 4

// lockstepCount returns the number of chunks of reduction loop l a
// thread folds in lockstep, or 0: a loop with loops inside, or that does
// not count up by one, or a temporary read after the loop.
func (pr *printer) lockstepCount(f *factored, l *Loop) int {
	r := f.r
	if slices.Contains(r.LastPrivate, true) || r.Identity == nil && r.Lift == nil ||
		!innermost(l) || l.Dir < 0 || l.Step != 1 || l.Rest || !bodyIs(l.Body, r.Stmts) || pr.calls(r) {
		return 0
	}
	return lockstepSteps
}

// lockstepChunks prints the team's loop over f.chunks chunks of loop l,
// f.steps at a time (see above), the chunks' ranges and partial results
// in arrays of f.steps elements that the compiler keeps in registers.
func (pr *printer) lockstepChunks(f *factored, l *Loop, d int) {
	r, k := f.r, f.steps
	l.Registers, l.BodyRegisters = nil, nil
	c := pr.fresh("nestor_c")
	pr.line(d, "#pragma omp for schedule(dynamic, 1) nowait"+f.clauses)
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s / %d; %s++) {", c, c, f.chunks, k, c))
	d++
	lo, n, q, length := pr.fresh("nestor_lo"), pr.fresh("nestor_n"), pr.fresh("nestor_q"), pr.fresh("nestor_len")
	b, e, j := pr.fresh("nestor_b"), pr.fresh("nestor_e"), pr.fresh("nestor_k")
	pr.line(d, fmt.Sprintf("long %s = %s;", lo, pr.bound(l.Lower, true)))
	pr.line(d, fmt.Sprintf("long %s = (long)(%s) - %s + 1;", n, pr.bound(l.Upper, false), lo))
	// Ranges, counter and rest in the counters' type: b[k] + q then does
	// not wrap, and the compiler steps one pointer per chunk (kadane: 13.4
	// against 19.2 ms at one thread with long ranges and an int counter).
	pr.line(d, fmt.Sprintf("%s %s[%d], %s[%d];", pr.counter, b, k, e, k))
	pr.line(d, fmt.Sprintf("long %s = %s;", length, n))
	vs, ys := make([]string, len(f.vars)), make([]string, len(f.vars))
	for i := range f.vars {
		vs[i] = pr.fresh(baseName(f.vars[i]) + "_v")
		ys[i] = vs[i] + "[" + j + "]"
		pr.line(d, fmt.Sprintf("%s %s[%d];", f.types[i], vs[i], k))
	}
	forLanes := func(d int) { pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", j, j, k, j)) }
	slot := fmt.Sprintf("%d * %s + %s", k, c, j)
	forLanes(d)
	pr.line(d+1, fmt.Sprintf("%s[%s] = %s + %s * (%s) / %s;", b, j, lo, n, slot, f.chunks))
	pr.line(d+1, fmt.Sprintf("%s[%s] = %s + %s * (%s + 1) / %s;", e, j, lo, n, slot, f.chunks))
	pr.line(d+1, fmt.Sprintf("if (%s[%s] - %s[%s] < %s)", e, j, b, j, length))
	pr.line(d+2, fmt.Sprintf("%s = %s[%s] - %s[%s];", length, e, j, b, j))
	if r.Identity != nil {
		for i := range f.vars {
			pr.line(d+1, fmt.Sprintf("%s = %s;", ys[i], pr.redExpr(r, r.Identity[i], f.in, f.vars, nil)))
		}
	}
	pr.line(d, "}")
	pr.lift = nil // every body below updates partial results that hold a value
	// lane prints the body of chunk j at iteration it, or the value it
	// folds in (lift), with −(−t) read t (as counterLoop prints it).
	ls := &laneSet{f: f, loop: l, ys: ys}
	lane := func(d int, it string, lift bool) {
		pr.line(d, fmt.Sprintf("%s %s = %s;", pr.counter, l.Iter, it))
		pr.laneBody(ls, func() {
			if lift {
				pr.liftLanes(ls, d)
			} else {
				pr.nodes(l.Body, d)
			}
		})
	}
	bj := b + "[" + j + "]"
	dd, first := d, "0"
	if r.Identity == nil {
		pr.line(d, fmt.Sprintf("if (%s > 0) {", length))
		dd, first = d+1, "1"
		forLanes(dd)
		lane(dd+1, bj, true)
		pr.line(dd, "}")
	}
	pr.line(dd, fmt.Sprintf("for (%s %s = %s; %s < %s; %s++)", pr.counter, q, first, q, length, q))
	forLanes(dd + 1)
	lane(dd+2, bj+" + "+q, false)
	pr.line(dd+1, "}")
	// The rest of each chunk (one iteration at most).
	forLanes(dd)
	t := pr.fresh("nestor_i")
	pr.line(dd+1, fmt.Sprintf("for (%s %s = %s + %s; %s < %s[%s]; %s++) {", pr.counter, t, bj, length, t, e, j, t))
	lane(dd+2, t, false)
	pr.line(dd+1, "}")
	pr.line(dd, "}")
	if r.Identity == nil {
		pr.line(d, "} else {") // chunks of one iteration at most
		forLanes(d + 1)
		pr.line(d+2, fmt.Sprintf("if (%s < %s[%s]) {", bj, e, j))
		lane(d+3, bj, true)
		pr.line(d+2, "}")
		pr.line(d+1, "}")
		pr.line(d, "}")
	}
	forLanes(d)
	for i := range f.vars {
		pr.line(d+1, fmt.Sprintf("%s[%s] = %s;", f.parts[i], slot, ys[i]))
	}
	ran := "1"
	if r.Identity == nil {
		ran = fmt.Sprintf("%s < %s[%s]", bj, e, j)
	}
	pr.line(d+1, fmt.Sprintf("%s[%s] = %s;", f.h, slot, ran))
	pr.line(d, "}")
	d--
	pr.line(d, "}")
}
