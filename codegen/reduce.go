package codegen

import (
	"fmt"
	"slices"
	"strings"

	"nestor/ir"
)

// Factored reductions (rfactor).
//
// A loop marked with a [Reduction] prints as an OpenMP parallel region in
// which every thread folds a contiguous chunk of the iterations into
// private partial results, followed by a combine step in thread order:
//
//	{
//	  int nestor_nt = 1;           (omp_get_max_threads() under OpenMP)
//	  double nestor_p0[nestor_nt]; ... char nestor_h[nestor_nt];
//	  for (t = 0; t < nestor_nt; t++) nestor_h[t] = 0;
//	#pragma omp parallel
//	  {
//	    double m_p = <identity>;   (or a has-value flag: see below)
//	#pragma omp for schedule(static) nowait
//	    for (...) <the body, m renamed m_p>   (or one loop per group)
//	    nestor_p0[tid] = m_p; nestor_h[tid] = ran;
//	  }
//	  for (t = 0; t < nestor_nt; t++)
//	    if (nestor_h[t]) { y0 = f0(m, p0[t]); ...; m = y0; ... }
//	}
//
// Each thread's loop runs in the original's direction, and the elements
// of a tuple that do not read one another run in loops of their own
// where that lets one of them vectorize (reduceloops.go).
//
// schedule(static) without a chunk size gives each thread one contiguous
// chunk, in thread-number order, so combining the partials in thread order
// after the value the variables had before the loop applies the operator
// to the same sequence of values as the loop did, only grouped
// differently: equal for an associative operator, commutative or not.
// Where the loop counts up by one, the iterations are instead cut into
// reduceChunks contiguous chunks per thread, each with a slot of its own,
// which the threads take one at a time (schedule(dynamic, 1)) and which
// combine in chunk order: the same argument, with a core that runs slower
// than the other (a busy or held-back virtual CPU) costing a chunk's time
// instead of its whole share (see chunked).
// Within a chunk, a commutative operator folds the iterations into vector
// lanes, and the chunks of one that does not commute run several at a
// time in lockstep (reducelanes.go): both break the chain of one partial
// result that would otherwise set the pace.
// Without an identity each thread starts from its first iteration: there
// the partial results become the value folded in (Lift) instead of being
// updated. Without OpenMP the pragmas are ignored and one thread does it
// all. Where the operator is +, *, min, max, &, | or ^ of one integer
// variable with an identity, OpenMP's reduction clause says the same.

// MarkReductions attaches each reduction to the loops of b at its level
// whose body is exactly its statements (one instance each, in order, with
// the same counters), outside every OpenMP loop and without pragmas of
// their own. It returns, per reduction, how many loops it marked.
func MarkReductions(b *Block, reds []*ir.Reduction) []int {
	marked := make([]int, len(reds))
	var walk func(ns []Node, inside bool)
	walk = func(ns []Node, inside bool) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Block:
				walk(n.Body, inside)
			case *If:
				walk(n.Body, inside)
			case *Loop:
				forked := inside || slices.Contains(n.Pragmas, "omp parallel for")
				if !forked && len(n.Pragmas) == 0 && !n.Rest && !singleIteration(n) {
					for k, r := range reds {
						if r.Level == n.Level && subtreeIs(n, r.Stmts) && (r.Identity != nil || groupBodies(n.Body, r.Stmts)) {
							n.Reduction = r
							noRegisters(n)
							n.Pragmas = []string{"omp parallel"} // an enclosing if braces it
							marked[k]++
							break
						}
					}
				}
				if n.Reduction == nil {
					walk(n.Body, forked)
				}
			}
		}
	}
	walk(b.Body, false)
	return marked
}

// bodyIs reports whether body is one instance of each of stmts, in
// order, all with the same counter values.
func bodyIs(body []Node, stmts []int) bool {
	if len(body) != len(stmts) {
		return false
	}
	for k, n := range body {
		in, ok := n.(*Instance)
		if !ok || in.Stmt != stmts[k] {
			return false
		}
		if !slices.EqualFunc(in.Iters, body[0].(*Instance).Iters, ir.Aff.Equal) {
			return false
		}
	}
	return true
}

// groupBodies reports whether every body below ns that holds an instance
// is exactly the group stmts (bodyIs): where each thread's first
// iteration can fold the value in instead of updating.
func groupBodies(ns []Node, stmts []int) bool {
	if slices.ContainsFunc(ns, func(n Node) bool { _, ok := n.(*Instance); return ok }) {
		return bodyIs(ns, stmts)
	}
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			if !groupBodies(n.Body, stmts) {
				return false
			}
		case *If:
			if !groupBodies(n.Body, stmts) {
				return false
			}
		case *Loop:
			if !groupBodies(n.Body, stmts) {
				return false
			}
		}
	}
	return true
}

// lift is the state of a reduction without identity while its loop
// prints: the bodies of its statements print as "if (ran) body else
// fold the value in".
type lift struct {
	r     *ir.Reduction
	ran   string
	vars  []string // x_i as printed outside the loop
	priv  []string // the partial results
	stmts []int
}

// liftBody prints body under header (none when empty) the lift way when
// it is the group's body, and reports whether it did. Every instance of
// the group prints through it: one that does not is an error (see
// printer.node).
func (pr *printer) liftBody(depth int, header string, body []Node) bool {
	lf := pr.lift
	if lf == nil || !bodyIs(body, lf.stmts) {
		return false
	}
	d := depth
	if header != "" {
		pr.line(depth, header+" {")
		d++
	}
	in := body[0].(*Instance)
	pr.lift = nil // the instances below print as they are
	pr.line(d, fmt.Sprintf("if (%s) {", lf.ran))
	pr.nodes(body, d+1)
	pr.line(d, "} else {")
	for i := range lf.priv {
		pr.line(d+1, fmt.Sprintf("%s = %s;", lf.priv[i], pr.redExpr(lf.r, lf.r.Lift[i], in, lf.vars, nil)))
	}
	pr.line(d+1, lf.ran+" = 1;")
	pr.line(d, "}")
	pr.lift = lf
	if header != "" {
		pr.line(depth, "}")
	}
	return true
}

// noRegisters drops the registers of l and the loops inside it: the
// reduction's variables live in the partial results there, and a body
// that keeps registers prints its own way.
func noRegisters(l *Loop) {
	l.Registers, l.BodyRegisters = nil, nil
	for _, n := range l.Body {
		switch n := n.(type) {
		case *Loop:
			noRegisters(n)
		case *If:
			for _, c := range n.Body {
				if m, ok := c.(*Loop); ok {
					noRegisters(m)
				}
			}
		}
	}
}

// subtreeIs reports whether every instance below l is of one of stmts,
// and each of stmts has one.
func subtreeIs(l *Loop, stmts []int) bool {
	seen := map[int]bool{}
	ok := true
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Block:
				walk(n.Body)
			case *If:
				walk(n.Body)
			case *Loop:
				walk(n.Body)
			case *Instance:
				ok = ok && slices.Contains(stmts, n.Stmt)
				seen[n.Stmt] = true
			}
		}
	}
	walk(l.Body)
	return ok && len(seen) == len(stmts)
}

// anyInstance returns the first instance below ns, in print order.
func anyInstance(ns []Node) *Instance {
	for _, n := range ns {
		var in *Instance
		switch n := n.(type) {
		case *Block:
			in = anyInstance(n.Body)
		case *If:
			in = anyInstance(n.Body)
		case *Loop:
			in = anyInstance(n.Body)
		case *Instance:
			in = n
		}
		if in != nil {
			return in
		}
	}
	return nil
}

// reduction prints loop l, marked with a Reduction, at depth.
func (pr *printer) reduction(l *Loop, depth int) {
	r := l.Reduction
	in := anyInstance(l.Body)
	f := &factored{r: r, in: in}
	pr.names = append(pr.names, l.Iter)
	for _, a := range r.Vars {
		f.vars = append(f.vars, pr.access(a, in))
		f.keys = append(f.keys, rawAccess(pr, a, in))
		f.types = append(f.types, partialType(r, len(f.types), pr.p.Arrays[a.Array].Elem))
	}
	var temps, last []string
	for k, t := range r.Temps {
		name := pr.access(&ir.Access{Array: t}, in)
		if r.LastPrivate[k] {
			last = append(last, name)
		} else {
			temps = append(temps, name)
		}
	}
	pr.names = pr.names[:len(pr.names)-1]
	f.clauses = privateClauses(temps, last)
	f.temps = temps
	saved := *l
	l.Reduction, l.Pragmas = nil, nil
	defer func() { *l = saved }()
	if r.Clause != "" && len(f.vars) == 1 && isIdent(f.vars[0]) {
		l.Pragmas = []string{fmt.Sprintf("omp parallel for schedule(static) reduction(%s:%s)%s%s",
			r.Clause, f.vars[0], pr.forkIf(l), f.clauses)}
		pr.loop(l, depth)
		return
	}
	// Each thread's chunk runs in the original's direction, unless a
	// first iteration is peeled (peeledChunk counts up) or the operator
	// folds in lanes (laneCount: any order gives the same result).
	run := l
	f.lanes = pr.laneCount(f, l)
	if r.Identity != nil && f.lanes == 0 {
		run = pr.reversed(l, r)
	}
	if f.lanes == 0 {
		f.steps = pr.lockstepCount(f, run)
	}
	// At one thread the region still runs, in a function of its own:
	// the original loop printed in this function instead (an else
	// branch) ran up to 3 times slower than the original, though its
	// text was the same, where gcc moved its chains into vector
	// registers for the code around it (kadane, pairsum at LARGE). Only
	// a loop too short to fork for (forkCond) runs without the region
	// (sequential), in an else branch or alone: entering the OpenMP runtime without forking, and
	// the lanes, cost more than a few thousand iterations do where a
	// sequential loop runs the reduction many times (durbin under
	// --assoc-math).
	cond, never := pr.forkCond(run)
	if never {
		pr.sequential(f, l, depth)
		return
	}
	if cond != "" {
		pr.line(depth, "if ("+strings.TrimPrefix(cond, " && ")+") {")
		depth++
		defer func() {
			depth--
			pr.line(depth, "} else {")
			pr.sequential(f, l, depth+1)
			pr.line(depth, "}")
		}()
	}
	pr.line(depth, "{")
	pr.threadCount(f, depth+1)
	// Chunks where the loop counts up by one. Counting down (lexargmin)
	// they ran slower than the static split: 10.3 against 7.2 ms at 2
	// threads (LARGE, 9 interleaved rounds).
	if run.Dir >= 0 && run.Step == 1 && !run.Rest {
		f.chunks = pr.fresh("nestor_nc")
		pr.line(depth+1, fmt.Sprintf("int %s = %s > 1 ? %d * %s : %d;", f.chunks, f.nt, reduceChunks*max(f.steps, 1), f.nt, max(f.steps, 1)))
	}
	pr.partials(f, depth+1)
	if peelable(run, r, last) && f.lanes == 0 && f.steps == 0 {
		pr.line(depth+1, "#pragma omp parallel"+privateClauses(temps, nil))
		pr.line(depth+1, "{")
		pr.peeledChunk(f, run, depth+2)
	} else {
		pr.line(depth+1, "#pragma omp parallel")
		pr.line(depth+1, "{")
		pr.chunk(f, run, depth+2)
	}
	pr.line(depth+1, "}")
	pr.combine(f, depth+1)
	pr.line(depth, "}")
}

// sequential prints reduction loop l, too short to fork for, without
// OpenMP: as one sweep into vector lanes where they apply to the loop
// itself and the operator has an identity, else as it is.
func (pr *printer) sequential(f *factored, l *Loop, depth int) {
	if f.lanes > 0 && f.r.Identity != nil && laneLoop(l, f.r) == l {
		pr.inlineLanes(f, l, depth)
		return
	}
	pr.counterLoop(l, depth)
}

// factored is what the parts of a factored loop share.
type factored struct {
	r       *ir.Reduction
	in      *Instance // an instance of the loop's statements
	vars    []string  // x_i as printed outside the loop
	keys    []string  // x_i as printed without registers (pr.regs keys)
	types   []ir.Type
	clauses string // private and lastprivate clauses of the temporaries
	// Names: the thread count, the partial results' arrays, the flags
	// "thread t has a partial result", and a thread counter.
	nt, h, t string
	// chunks, when set, names the number of chunks the iterations are cut
	// into (reduceChunks per thread), each folded into a slot of its own
	// by whichever thread takes it next; nt then sizes nothing.
	chunks string
	parts  []string
	ran    string // per thread: has a partial result ("1" with an identity)
	priv   []string
	// lanes, when positive, is the number of interleaved lanes each chunk
	// folds its iterations into (laneLoops); temps are the private
	// temporaries' names.
	lanes int
	temps []string
	// steps, when positive, is the number of chunks a thread folds at
	// once, in lockstep (lockstepChunks).
	steps int
}

// slots returns the number of partial results: one per chunk, or per
// thread.
func (f *factored) slots() string {
	if f.chunks != "" {
		return f.chunks
	}
	return f.nt
}

// reduceChunks is the number of chunks per thread a factored reduction's
// iterations are cut into when its loop counts up by one: a thread that
// finishes its chunks first takes more, so a core the system slows down
// (another process, a virtual CPU held back) delays the team by a
// fraction of its share instead of all of it, and the partial results,
// one per chunk, still combine in the iterations' order.
const reduceChunks = 8

// chunkLoop opens, inside the team, the loop over chunks that a thread
// takes one at a time (schedule(dynamic)), with the clauses of the
// temporaries; it returns the chunk's number.
func (pr *printer) chunkLoop(f *factored, d int) string {
	c := pr.fresh("nestor_c")
	pr.line(d, "#pragma omp for schedule(dynamic, 1) nowait"+f.clauses)
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s; %s++) {", c, c, f.chunks, c))
	return c
}

func privateClauses(temps, last []string) string {
	s := ""
	if len(temps) > 0 {
		s += " private(" + strings.Join(temps, ", ") + ")"
	}
	if len(last) > 0 {
		s += " lastprivate(" + strings.Join(last, ", ") + ")"
	}
	return s
}

// threadCount declares the number of threads a parallel region would
// have.
func (pr *printer) threadCount(f *factored, d int) {
	f.nt = pr.fresh("nestor_nt")
	pr.line(d, fmt.Sprintf("int %s = 1;", f.nt))
	pr.line(0, "#ifdef _OPENMP")
	pr.line(d, "extern int omp_get_max_threads(void), omp_get_num_threads(void), omp_get_thread_num(void);")
	pr.line(d, fmt.Sprintf("%s = omp_get_max_threads();", f.nt))
	pr.line(0, "#endif")
}

// partials declares the partial results of every thread, none set yet.
func (pr *printer) partials(f *factored, d int) {
	f.h, f.t = pr.fresh("nestor_h"), pr.fresh("nestor_t")
	for i := range f.vars {
		f.parts = append(f.parts, pr.fresh(fmt.Sprintf("nestor_p%d", i)))
		f.priv = append(f.priv, pr.fresh(baseName(f.vars[i])+"_p"))
	}
	for i := range f.vars {
		pr.line(d, fmt.Sprintf("%s %s[%s];", f.types[i], f.parts[i], f.slots()))
	}
	pr.line(d, fmt.Sprintf("char %s[%s];", f.h, f.slots()))
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s; %s++)", f.t, f.t, f.slots(), f.t))
	pr.line(d+1, fmt.Sprintf("%s[%s] = 0;", f.h, f.t))
}

// chunk prints what each thread runs: its chunk of loop l on private
// partial results, stored in the thread's slot.
func (pr *printer) chunk(f *factored, l *Loop, d int) {
	if f.chunks != "" {
		pr.chunked(f, l, d)
		return
	}
	pr.openPartials(f, d)
	// schedule(static) gives each thread the same chunk of every loop of
	// the same iterations.
	for _, gl := range pr.groupLoops(f, l) {
		pr.line(d, "#pragma omp for schedule(static) nowait"+f.clauses)
		pr.withPartials(f, func() { pr.counterLoop(gl, d) })
	}
	pr.lift = nil
	tid := pr.fresh("nestor_tid")
	pr.line(d, fmt.Sprintf("int %s = 0;", tid))
	pr.line(0, "#ifdef _OPENMP")
	pr.line(d, fmt.Sprintf("%s = omp_get_thread_num();", tid))
	pr.line(0, "#endif")
	pr.store(f, tid, d)
}

// chunked prints what the team runs when the iterations are cut into
// chunks (f.chunks; loop l counts up by one): per chunk, taken by the
// next free thread, fresh partial results folded over its contiguous
// range of l (every group's loop over the same range), stored in the
// chunk's slot:
//
//	#pragma omp for schedule(dynamic, 1) nowait
//	for (c = 0; c < nc; c++) {
//	  x_p = <identity>;            (or a has-value flag)
//	  long lo = <lower>, n = <upper> - lo + 1;
//	  long b = lo + n*c/nc, e = lo + n*(c+1)/nc;
//	  for (i = b; i < e; i++) <the body, x renamed x_p>
//	  p[c] = x_p; h[c] = ran;
//	}
func (pr *printer) chunked(f *factored, l *Loop, d int) {
	if f.steps > 0 {
		pr.lockstepChunks(f, l, d)
		return
	}
	c := pr.chunkLoop(f, d)
	d++
	pr.openPartials(f, d)
	lo, n, b, e := pr.fresh("nestor_lo"), pr.fresh("nestor_n"), pr.fresh("nestor_b"), pr.fresh("nestor_e")
	pr.line(d, fmt.Sprintf("long %s = %s;", lo, pr.bound(l.Lower, true)))
	pr.line(d, fmt.Sprintf("long %s = (long)(%s) - %s + 1;", n, pr.bound(l.Upper, false), lo))
	pr.line(d, fmt.Sprintf("long %s = %s + %s * %s / %s, %s = %s + %s * (%s + 1) / %s;", b, lo, n, c, f.chunks, e, lo, n, c, f.chunks))
	if pr.chunkRange == nil {
		pr.chunkRange = map[*Loop][2]string{}
	}
	if f.lanes > 0 {
		pr.laneLoops(f, l, b, e, d)
	} else {
		for _, gl := range pr.groupLoops(f, l) {
			pr.chunkRange[gl] = [2]string{b, e}
			pr.withPartials(f, func() { pr.counterLoop(gl, d) })
			delete(pr.chunkRange, gl)
		}
	}
	pr.lift = nil
	pr.store(f, c, d)
	d--
	pr.line(d, "}")
}

// openPartials declares the partial results of a thread or chunk: the
// identity, or, without one, a has-value flag (f.ran) and the lift that
// folds the first iteration in. With an identity a thread that ran no
// iteration holds it, a partial result too.
func (pr *printer) openPartials(f *factored, d int) {
	r := f.r
	f.ran = "1"
	if r.Identity == nil {
		f.ran = pr.fresh("nestor_ran")
		pr.line(d, fmt.Sprintf("int %s = 0;", f.ran))
	}
	for i := range f.vars {
		if r.Identity != nil {
			pr.line(d, fmt.Sprintf("%s %s = %s;", f.types[i], f.priv[i], pr.redExpr(r, r.Identity[i], f.in, f.vars, nil)))
		} else {
			pr.line(d, fmt.Sprintf("%s %s;", f.types[i], f.priv[i]))
		}
	}
	if r.Identity == nil {
		pr.lift = &lift{r: r, ran: f.ran, vars: f.vars, priv: f.priv, stmts: r.Stmts}
	}
}

// groupLoops returns the loops that run l's iterations for f: l itself,
// or one copy per group of the tuple's elements (groups), each over the
// same iterations. It clears l's registers (the partial results stand
// for them).
func (pr *printer) groupLoops(f *factored, l *Loop) []*Loop {
	l.Registers, l.BodyRegisters = nil, nil
	gs := pr.groups(l, f.r, false)
	if gs == nil {
		return []*Loop{l}
	}
	var loops []*Loop
	for _, g := range gs {
		loops = append(loops, only(l, g))
	}
	return loops
}

// withPartials runs print with every x_i printed as its partial result.
func (pr *printer) withPartials(f *factored, print func()) {
	if pr.regs == nil {
		pr.regs = map[string]string{}
	}
	old := make([]string, len(f.vars))
	for i := range f.vars {
		old[i] = pr.regs[f.keys[i]]
		pr.regs[f.keys[i]] = f.priv[i]
	}
	print()
	for i := range f.vars {
		if old[i] == "" {
			delete(pr.regs, f.keys[i])
		} else {
			pr.regs[f.keys[i]] = old[i]
		}
	}
}

// store puts thread tid's partial results in its slots.
func (pr *printer) store(f *factored, tid string, d int) {
	for i := range f.vars {
		pr.line(d, fmt.Sprintf("%s[%s] = %s;", f.parts[i], tid, f.priv[i]))
	}
	pr.line(d, fmt.Sprintf("%s[%s] = %s;", f.h, tid, f.ran))
}

// peelable reports whether reduction loop l can print as a peeled chunk
// (peeledChunk): an operator without identity, an innermost ascending
// loop of step 1 whose body is the reduction's statements, and no
// temporary read after the loop (lastprivate needs an omp for).
func peelable(l *Loop, r *ir.Reduction, last []string) bool {
	return r.Identity == nil && len(last) == 0 && innermost(l) && l.Dir >= 0 && l.Step == 1 &&
		!l.Rest && bodyIs(l.Body, r.Stmts)
}

// peeledChunk prints what each thread runs when the operator has no
// identity and the loop is innermost: the thread's contiguous chunk of
// the iterations, the same split as schedule(static) (in thread order,
// sizes differing by at most one), with its first iteration peeled off to
// fold the value in (Lift), so the loop that runs the rest is the original
// body, free of the per-iteration "has a value yet" test that keeps
// compilers from vectorizing it:
//
//	long lo = <lower>, n = <upper> - lo + 1;   (the loop's iterations)
//	if (n > 0) {
//	  long q = n / nth, rem = n % nth;
//	  long b = lo + tid*q + min(tid, rem), e = b + q + (tid < rem);
//	  if (b < e) { int i = b; x_p = lift(i); for (i++; i < e; i++) body; ran = 1; }
//	}
func (pr *printer) peeledChunk(f *factored, l *Loop, d int) {
	r := f.r
	chunk := ""
	if f.chunks != "" {
		chunk = pr.chunkLoop(f, d)
		d++
		defer func() { pr.line(d-1, "}") }()
	}
	f.ran = pr.fresh("nestor_ran")
	pr.line(d, fmt.Sprintf("int %s = 0;", f.ran))
	for i := range f.vars {
		pr.line(d, fmt.Sprintf("%s %s;", f.types[i], f.priv[i]))
	}
	tid, nth := pr.fresh("nestor_tid"), pr.fresh("nestor_nth")
	if f.chunks != "" {
		// The chunks' ranges split the iterations as the threads' do.
		pr.line(d, fmt.Sprintf("int %s = %s, %s = %s;", tid, chunk, nth, f.chunks))
	} else {
		pr.line(d, fmt.Sprintf("int %s = 0, %s = 1;", tid, nth))
		pr.line(0, "#ifdef _OPENMP")
		pr.line(d, fmt.Sprintf("%s = omp_get_thread_num();", tid))
		pr.line(d, fmt.Sprintf("%s = omp_get_num_threads();", nth))
		pr.line(0, "#endif")
	}
	lo, n := pr.fresh("nestor_lo"), pr.fresh("nestor_n")
	q, rem, b, e := pr.fresh("nestor_q"), pr.fresh("nestor_rem"), pr.fresh("nestor_b"), pr.fresh("nestor_e")
	pr.line(d, fmt.Sprintf("long %s = %s;", lo, pr.bound(l.Lower, true)))
	pr.line(d, fmt.Sprintf("long %s = (long)(%s) - %s + 1;", n, pr.bound(l.Upper, false), lo))
	pr.line(d, fmt.Sprintf("if (%s > 0) {", n))
	pr.line(d+1, fmt.Sprintf("long %s = %s / %s, %s = %s %% %s;", q, n, nth, rem, n, nth))
	pr.line(d+1, fmt.Sprintf("long %s = %s + %s * %s + (%s < %s ? %s : %s);", b, lo, tid, q, tid, rem, tid, rem))
	pr.line(d+1, fmt.Sprintf("long %s = %s + %s + (%s < %s);", e, b, q, tid, rem))
	pr.line(d+1, fmt.Sprintf("if (%s < %s) {", b, e))
	dd := d + 2
	decl := "int "
	if pr.vars[l.Iter] {
		decl = ""
	}
	if pr.counters == nil {
		pr.counters = map[string]bool{}
	}
	pr.counters[l.Iter] = true
	pr.line(dd, fmt.Sprintf("%s%s = %s;", decl, l.Iter, b))
	pr.names = append(pr.names, l.Iter)
	for i := range f.priv {
		pr.line(dd, fmt.Sprintf("%s = %s;", f.priv[i], pr.redExpr(r, r.Lift[i], f.in, f.vars, nil)))
	}
	if gs := pr.groups(l, r, true); gs != nil {
		for _, g := range gs {
			pr.withPartials(f, func() {
				pr.nested(dd, fmt.Sprintf("for (%s = %s + 1; %s < %s; %s++)", l.Iter, b, l.Iter, e, l.Iter), only(l, g).Body)
			})
		}
	} else {
		pr.withPartials(f, func() {
			pr.nested(dd, fmt.Sprintf("for (%s++; %s < %s; %s++)", l.Iter, l.Iter, e, l.Iter), l.Body)
		})
	}
	pr.names = pr.names[:len(pr.names)-1]
	pr.line(dd, f.ran+" = 1;")
	pr.line(d+1, "}")
	pr.line(d, "}")
	pr.store(f, tid, d)
}

// combine folds the threads' partial results into the variables, in
// thread order: the new values all computed before any is assigned.
func (pr *printer) combine(f *factored, d int) {
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s; %s++)", f.t, f.t, f.slots(), f.t))
	pr.line(d+1, fmt.Sprintf("if (%s[%s]) {", f.h, f.t))
	ys := make([]string, len(f.vars))
	for i := range f.vars {
		ys[i] = f.parts[i] + "[" + f.t + "]"
	}
	news := make([]string, len(f.vars))
	for i := range f.vars {
		news[i] = pr.fresh(fmt.Sprintf("nestor_y%d", i))
		pr.line(d+2, fmt.Sprintf("%s %s = %s;", f.types[i], news[i], pr.redExpr(f.r, f.r.Combine[i], f.in, f.vars, ys)))
	}
	for i := range f.vars {
		if unsigned(f.r, i) {
			pr.line(d+2, fmt.Sprintf("%s = (%s)%s;", f.vars[i], pr.p.Arrays[f.r.Vars[i].Array].Elem, news[i]))
			continue
		}
		pr.line(d+2, fmt.Sprintf("%s = %s;", f.vars[i], news[i]))
	}
	pr.line(d+1, "}")
}

// unsigned reports whether the partial results of x_i are unsigned.
func unsigned(r *ir.Reduction, i int) bool { return i < len(r.Unsigned) && r.Unsigned[i] }

// partialType returns the type of the partial results of x_i, of type t.
func partialType(r *ir.Reduction, i int, t ir.Type) ir.Type {
	if !unsigned(r, i) {
		return t
	}
	switch t {
	case ir.Int:
		return ir.UInt
	case ir.Long:
		return ir.ULong
	}
	return t
}

// forkCond returns the condition, " && ..." or empty, that keeps an
// innermost OpenMP loop (a factored reduction's, or one with no loops
// inside) of fewer iterations than pay for a fork (forkLeast) sequential
// when its trip count is not known to be larger, and whether it never has
// that many. It matters most for a loop nested in a sequential loop,
// which forks every time.
func (pr *printer) forkCond(l *Loop) (cond string, never bool) {
	minForkTrip := pr.forkLeast(l)
	if !leaf(l) {
		// The work is in the inner loops: their estimated iterations
		// (fork.go), where every loop of the nest has a usable count.
		need, factors, never, partial := pr.workEstimate(l, l.Level, minForkTrip)
		switch {
		case partial || !pr.estimable(l.Body, l.Level, nil) || need <= 1:
			return "", false
		case never:
			return "", true
		case len(factors) == 1:
			return fmt.Sprintf(" && %s >= %d", factors[0], need), false
		}
		return fmt.Sprintf(" && (double)%s >= %d", strings.Join(factors, " * "), need), false
	}
	lower, upper := l.Lower, l.Upper
	if l.Dir < 0 {
		lower, upper = negBounds(upper), negBounds(lower) // the same count
	}
	if lo, up := lower, upper; len(lo) == 1 && len(up) == 1 && lo[0].Of == nil && up[0].Of == nil && lo[0].Den == 1 && up[0].Den == 1 {
		// up - lo + 1 ≥ minForkTrip, as a guard.
		d := up[0].Aff.Sub(lo[0].Aff)
		d.Const -= minForkTrip - 1
		if d.IsConst() {
			return "", d.Const < 0
		}
		return " && " + pr.cond(Cond{Aff: d}), false
	}
	if lo := pr.bound(lower, true); lo != "0" {
		return fmt.Sprintf(" && %s - %s >= %d", pr.bound(upper, false), lo, minForkTrip-1), false
	}
	return fmt.Sprintf(" && %s >= %d", pr.bound(upper, false), minForkTrip-1), false
}

// forkIf returns forkCond as an OpenMP if clause.
func (pr *printer) forkIf(l *Loop) string {
	cond, never := pr.forkCond(l)
	switch {
	case never:
		return " if(0)"
	case cond == "":
		return ""
	}
	return " if(" + strings.TrimPrefix(cond, " && ") + ")"
}

// redExpr prints an expression of r: x_i as vars[i], y_j as ys[j],
// Accesses and counters at instance in (pr.names must hold the counters
// the expression reads).
func (pr *printer) redExpr(r *ir.Reduction, e ir.Expr, in *Instance, vars, ys []string) string {
	n := len(r.Vars)
	load := func(x *ir.Load) string {
		switch {
		case x.Access < n:
			return vars[x.Access]
		case x.Access < 2*n:
			return ys[x.Access-n]
		}
		return pr.access(r.Accesses[x.Access-2*n], in)
	}
	iter := func(x *ir.IterRef) string { return pr.operand(in.Iters[x.Level]) }
	return ir.FormatExpr(pr.inlineMinMax(e), load, iter, pr.params)
}

// rawAccess prints an element without the register substitution.
func rawAccess(pr *printer, a *ir.Access, in *Instance) string {
	return pr.p.Arrays[a.Array].Element(a.Index, func(x ir.Aff) string { return pr.aff(compose(x, in.Iters), nil) })
}

// isIdent reports whether s is a C identifier.
func isIdent(s string) bool {
	for k, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || k > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// baseName returns the identifier an element's text starts with.
func baseName(s string) string {
	if k := strings.IndexAny(s, "[ "); k >= 0 {
		return s[:k]
	}
	return s
}
