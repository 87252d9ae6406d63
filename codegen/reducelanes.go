package codegen

import (
	"bytes"
	"fmt"
	"slices"
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
// without proof of commutativity or without identity, a loop with loops
// inside or of another step, or a temporary read after the loop (its
// last value would be a lane's).
func (pr *printer) laneCount(f *factored, l *Loop) int {
	r := f.r
	if !r.Commutative || r.Identity == nil || slices.Contains(r.LastPrivate, true) ||
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
// hold the identity.
func (pr *printer) laneLoops(f *factored, l *Loop, b, e string, d int) {
	r := f.r
	l.Registers, l.BodyRegisters = nil, nil
	lane, i0 := pr.fresh("nestor_l"), pr.fresh("nestor_i0")
	vs := make([]string, len(f.vars))
	for i := range f.vars {
		vs[i] = pr.fresh(baseName(f.vars[i]) + "_v")
		pr.line(d, fmt.Sprintf("%s %s[%d];", f.types[i], vs[i], f.lanes))
	}
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", lane, lane, f.lanes, lane))
	for i := range f.vars {
		pr.line(d+1, fmt.Sprintf("%s[%s] = %s;", vs[i], lane, pr.redExpr(r, r.Identity[i], f.in, f.vars, nil)))
	}
	pr.line(d, "}")
	pr.line(d, fmt.Sprintf("%s %s = %s;", pr.counter, i0, b)) // the counters' type: i0 + l does not wrap
	pr.line(d, fmt.Sprintf("for (; %s + %d <= %s; %s += %d) {", i0, f.lanes, e, i0, f.lanes))
	pr.line(d+1, "#pragma omp simd"+privateClauses(f.temps, nil))
	pr.line(d+1, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", lane, lane, f.lanes, lane))
	pr.line(d+2, fmt.Sprintf("%s %s = %s + %s;", pr.counter, l.Iter, i0, lane))
	start := pr.body.Len()
	saved := f.priv
	f.priv = make([]string, len(vs))
	for i := range vs {
		f.priv[i] = vs[i] + "[" + lane + "]"
	}
	pr.names = append(pr.names, l.Iter)
	pr.withPartials(f, func() { pr.nodes(l.Body, d+2) })
	pr.names = pr.names[:len(pr.names)-1]
	f.priv = saved
	// −(−t) reads t, as counterLoop prints it.
	text := bytes.ReplaceAll(pr.body.Bytes()[start:], []byte("-(-"+l.Iter+")"), []byte(l.Iter))
	pr.body.Truncate(start)
	pr.body.Write(text)
	pr.line(d+1, "}")
	pr.line(d, "}")
	// The rest, fewer than a lane's count, in the partial results.
	pr.chunkRange[l] = [2]string{i0, e}
	pr.withPartials(f, func() { pr.counterLoop(l, d) })
	delete(pr.chunkRange, l)
	// The lanes, folded in (in any order: the operator commutes).
	pr.line(d, fmt.Sprintf("for (int %s = 0; %s < %d; %s++) {", lane, lane, f.lanes, lane))
	ys := make([]string, len(vs))
	for i := range vs {
		ys[i] = vs[i] + "[" + lane + "]"
	}
	news := make([]string, len(vs))
	for i := range vs {
		news[i] = pr.fresh(fmt.Sprintf("nestor_y%d", i))
		pr.line(d+1, fmt.Sprintf("%s %s = %s;", f.types[i], news[i], pr.redExpr(r, r.Combine[i], f.in, f.priv, ys)))
	}
	for i := range vs {
		pr.line(d+1, fmt.Sprintf("%s = %s;", f.priv[i], news[i]))
	}
	pr.line(d, "}")
}
