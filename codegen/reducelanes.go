package codegen

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// Vector lanes of a commutative reduction.
//
// A thread's chunk of a factored reduction is a chain: every iteration
// waits for the one before it, so a compiler cannot vectorize an update
// it does not know to be associative (mincount's minimum and its count,
// a float sum under --assoc-math), and the chain's latency, not the
// machine's throughput, sets the pace. Where the operator is proved
// commutative and has an identity, the fold of a chunk may visit its
// iterations in any order and group them any way, so the chunk folds
// them into lanes instead: lane k takes the iterations b+k, b+k+L,
// b+2L+k, ..., each lane starts from the identity, and an OpenMP simd
// loop over the lanes updates L independent partial results at once:
//
//	T x_v[L]; for (l = 0; l < L; l++) x_v[l] = <identity>;
//	long i0 = b;
//	for (; i0 + L <= e; i0 += L)
//	  #pragma omp simd
//	  for (l = 0; l < L; l++) { int i = i0 + l; <the body, x renamed x_v[l]> }
//	for (i = i0; i < e; i++) <the body, x renamed x_p>       (the rest)
//	for (l = 0; l < L; l++) x_p = x_p ⊕ x_v[l];
//
// The result is the fold of the same values, regrouped and reordered:
// equal for a commutative monoid (and, for floats, what --assoc-math
// allows). mincount at LARGE ran 4× faster at one thread this way.

// laneBytes is the width of the lanes of a commutative reduction, in
// bytes of the widest partial result: two 512-bit vectors (four 256-bit
// ones), enough independent chains to cover an operation's latency.
const laneBytes = 128

// laneCount returns the number of lanes the chunks of reduction loop l
// fold into (laneLoops), or 0 where they run in order: an operator
// without proof of commutativity, a loop with loops inside or of another
// step, or a temporary read after the loop (its last value would be a
// lane's).
func (pr *printer) laneCount(f *factored, l *Loop) int {
	r := f.r
	if !r.Commutative || slices.Contains(r.LastPrivate, true) || r.Identity == nil && r.Lift == nil ||
		!innermost(l) || l.Dir < 0 || l.Step != 1 || l.Rest || !bodyIs(l.Body, r.Stmts) {
		return 0
	}
	widest := 1
	for _, t := range f.types {
		widest = max(widest, t.Size())
	}
	return laneBytes / widest
}

// laneLoops prints the iterations b to e of l (b and e name them) folded
// into f.lanes lanes and then into the chunk's partial results, which
// hold the identity, or which the lanes start (f.ran set) where the
// operator has none.
func (pr *printer) laneLoops(f *factored, l *Loop, b, e string, d int) {
	r := f.r
	l.Registers, l.BodyRegisters = nil, nil
	lane, i0 := pr.fresh("nestor_l"), pr.fresh("nestor_i0")
	vs, ys := make([]string, len(f.vars)), make([]string, len(f.vars))
	for i := range f.vars {
		vs[i] = pr.fresh(baseName(f.vars[i]) + "_v")
		ys[i] = vs[i] + "[" + lane + "]"
	}
	lift := pr.lift
	pr.lift = nil // the bodies below update lanes that hold a value
	if r.Identity == nil {
		pr.line(d, fmt.Sprintf("if (%s - %s >= %d) {", e, b, f.lanes))
		d++
	}
	for i := range f.vars {
		pr.line(d, fmt.Sprintf("%s %s[%d];", f.types[i], vs[i], f.lanes))
	}
	// laneFor opens a loop over the lanes, with the counter of l at
	// iteration from + lane where from is set.
	laneFor := func(d int, pragma, cond, from string) {
		if pragma != "" {
			pr.line(d, pragma)
		}
		pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %s; %s++) {", lane, lane, cond, lane))
		if from != "" {
			pr.line(d+1, fmt.Sprintf("%s %s = %s + %s;", pr.counter, l.Iter, from, lane))
		}
	}
	// body prints what it prints with the counter of l named and the
	// lanes standing for the partial results, −(−t) read t (as
	// counterLoop prints it).
	body := func(print func()) {
		start := pr.body.Len()
		saved := f.priv
		f.priv = ys
		pr.names = append(pr.names, l.Iter)
		pr.withPartials(f, print)
		pr.names = pr.names[:len(pr.names)-1]
		f.priv = saved
		text := bytes.ReplaceAll(pr.body.Bytes()[start:], []byte("-(-"+l.Iter+")"), []byte(l.Iter))
		pr.body.Truncate(start)
		pr.body.Write(text)
	}
	first := b
	if r.Identity != nil {
		laneFor(d, "", strconv.Itoa(f.lanes), "")
		for i := range f.vars {
			pr.line(d+1, fmt.Sprintf("%s = %s;", ys[i], pr.redExpr(r, r.Identity[i], f.in, f.vars, nil)))
		}
		pr.line(d, "}")
	} else {
		// Each lane starts from its first iteration's value.
		laneFor(d, "#pragma omp simd"+privateClauses(f.temps, nil), strconv.Itoa(f.lanes), b)
		body(func() {
			for i := range f.vars {
				pr.line(d+1, fmt.Sprintf("%s = %s;", ys[i], pr.redExpr(r, r.Lift[i], f.in, f.vars, nil)))
			}
		})
		pr.line(d, "}")
		first = fmt.Sprintf("%s + %d", b, f.lanes)
	}
	pr.line(d, fmt.Sprintf("%s %s = %s;", pr.counter, i0, first)) // the counters' type: i0 + l does not wrap
	pr.line(d, fmt.Sprintf("for (; %s + %d <= %s; %s += %d) {", i0, f.lanes, e, i0, f.lanes))
	laneFor(d+1, "#pragma omp simd"+privateClauses(f.temps, nil), strconv.Itoa(f.lanes), i0)
	body(func() { pr.nodes(l.Body, d+2) })
	pr.line(d+1, "}")
	pr.line(d, "}")
	// The rest, fewer than L iterations, in the first lanes.
	laneFor(d, "", e+" - "+i0, i0)
	body(func() { pr.nodes(l.Body, d+1) })
	pr.line(d, "}")
	// The lanes, folded in (in any order: the operator commutes).
	from := 0
	if r.Identity == nil {
		for i := range f.vars {
			pr.line(d, fmt.Sprintf("%s = %s[0];", f.priv[i], vs[i]))
		}
		from = 1
	}
	pr.line(d, fmt.Sprintf("for (int %s = %d; %s < %d; %s++) {", lane, from, lane, f.lanes, lane))
	news := make([]string, len(vs))
	for i := range vs {
		news[i] = pr.fresh(fmt.Sprintf("nestor_y%d", i))
		pr.line(d+1, fmt.Sprintf("%s %s = %s;", f.types[i], news[i], pr.redExpr(r, r.Combine[i], f.in, f.priv, ys)))
	}
	for i := range vs {
		pr.line(d+1, fmt.Sprintf("%s = %s;", f.priv[i], news[i]))
	}
	pr.line(d, "}")
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
