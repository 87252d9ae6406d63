package codegen

import (
	"bytes"
	"slices"

	"nestor/ir"
)

// The shapes of a factored reduction's loops (reduce.go).
//
// Each thread's loop should run as fast per iteration as the original
// loop, or twice as many threads do not make it twice as fast. Two
// shapes of the loop the schedule gives make the compiler emit slower
// code than for the original, and are printed otherwise:
//
//   - a loop the original runs downward is counted up by the schedule
//     (t = -i, every subscript reads -t): gcc then keeps both counters
//     and the branches of a data-dependent update lengthen (lexargmin:
//     9.5 ms a thread instead of 7.1 at LARGE). reversed prints the
//     loop downward again, as the original does;
//   - a tuple whose elements do not read one another (a segmented sum
//     and the largest flag) runs one element per loop (groups): each
//     loop is then the loop gcc compiles best for that element alone,
//     where the fused loop gets the worst of both (segsum: the sum's
//     add and select and the maximum's compare and select chained in
//     one loop of 3.3 cycles an iteration; apart, the maximum
//     vectorizes and the sum keeps a predictable branch).

// reversed returns loop l counted downward when the subscripts of its
// statements read its counter only negated (and some do): the loop over
// the negated counter u, for (u = -lo; u >= -up; u--), its statements'
// counters written over u (t = -u). Otherwise it returns l. l's body
// must be its statements' instances alone (bodyIs).
func (pr *printer) reversed(l *Loop, r *ir.Reduction) *Loop {
	if l.Dir < 0 || l.Step != 1 || l.Rest || !bodyIs(l.Body, r.Stmts) {
		return l
	}
	neg := false
	for _, n := range l.Body {
		in := n.(*Instance)
		for _, a := range pr.p.Stmts[in.Stmt].Accesses {
			for _, x := range a.Index {
				c := compose(x, in.Iters)
				if l.Level >= len(c.Iter) {
					continue
				}
				if c.Iter[l.Level] > 0 {
					return l
				}
				neg = neg || c.Iter[l.Level] < 0
			}
		}
	}
	if !neg {
		return l
	}
	rl := *l
	rl.Dir = -1
	rl.Lower, rl.Upper = negBounds(l.Upper), negBounds(l.Lower)
	rl.Body = nil
	for _, n := range l.Body {
		in := n.(*Instance)
		c := &Instance{Stmt: in.Stmt}
		for _, a := range in.Iters {
			a = a.Clone()
			if l.Level < len(a.Iter) {
				a.Iter[l.Level] = -a.Iter[l.Level]
			}
			c.Iters = append(c.Iters, a)
		}
		rl.Body = append(rl.Body, c)
	}
	return &rl
}

// negBounds returns the bounds of −t from those of t, lower from upper
// and upper from lower: −⌈a/d⌉ = ⌊−a/d⌋, and the max of terms becomes
// the min of their negations.
func negBounds(bs []Bound) []Bound {
	out := make([]Bound, len(bs))
	for k, b := range bs {
		out[k] = Bound{Aff: b.Aff.Neg(), Den: b.Den, Of: negBounds(b.Of), Min: !b.Min}
		if len(b.Of) == 0 {
			out[k].Min = false
			out[k].Of = nil
		}
	}
	return out
}

// groups returns the statements of r as the loops each thread runs one
// after another, or nil for one loop. The statements fall into groups
// that share no reduction variable or temporary; splitting them pays
// where a loop of one group vectorizes (an integer sum, product, bitwise
// operation, min or max: simple) and the loop of another does not: the
// vectorized loop then costs about its memory traffic, and the rest runs
// as its own chains allow (segsum's sum of a segment, 2.1 cycles an
// iteration; with the maximum in its loop, 3.3). Loops that do not
// vectorize stay one loop, whose chains of dependent operations overlap
// (absmax's largest element and sum of magnitudes in doubles: 15.6 ms
// as one loop, 25 ms as two, at 2 threads), and so do loops that all
// vectorize, which would read their inputs twice (bytesum). A thread
// can run the loops one after another when the body is instances alone,
// no temporary is read after the loop, and an identity or a first
// iteration peeled starts the partial results (a flag tested at every
// iteration would have to be shared).
func (pr *printer) groups(l *Loop, r *ir.Reduction, peeled bool) [][]int {
	if !bodyIs(l.Body, r.Stmts) || slices.Contains(r.LastPrivate, true) || r.Identity == nil && !peeled {
		return nil
	}
	own := map[int]bool{} // the arrays of the variables and temporaries
	for _, a := range r.Vars {
		own[a.Array] = true
	}
	for _, t := range r.Temps {
		own[t] = true
	}
	// Union-find over the statements: two that touch one of own's
	// arrays are in one group.
	parent := make([]int, len(r.Stmts))
	for k := range parent {
		parent[k] = k
	}
	var find func(int) int
	find = func(k int) int {
		for parent[k] != k {
			k = parent[k]
		}
		return k
	}
	first := map[int]int{} // array -> the first statement touching it
	for k, s := range r.Stmts {
		for _, a := range pr.p.Stmts[s].Accesses {
			if !own[a.Array] {
				continue
			}
			if j, ok := first[a.Array]; ok {
				parent[find(k)] = find(j)
			} else {
				first[a.Array] = k
			}
		}
	}
	var out [][]int
	index := map[int]int{}
	for k, s := range r.Stmts {
		root := find(k)
		g, ok := index[root]
		if !ok {
			g = len(out)
			index[root] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], s)
	}
	if len(out) < 2 {
		return nil
	}
	// The groups that vectorize, and those that do not, each one loop.
	var vec, rest []int
	for _, g := range out {
		v := true
		for _, s := range g {
			w := pr.p.Stmts[s].Accesses[0].Array
			for i, a := range r.Vars {
				if a.Array == w && !simple(r, i, pr.p.Arrays[w].Elem) {
					v = false
				}
			}
			if slices.Contains(r.Temps, w) {
				v = false
			}
		}
		if v {
			vec = append(vec, g...)
		} else {
			rest = append(rest, g...)
		}
	}
	if len(vec) == 0 || len(rest) == 0 {
		return nil
	}
	slices.Sort(vec)
	slices.Sort(rest)
	return [][]int{rest, vec}
}

// simple reports whether x_i, of type t, is an integer combined as
// x_i op y_i, op one of +, *, &, |, ^, or min or max written as a select
// (x > y ? x : y), conversions aside: a reduction compilers vectorize.
func simple(r *ir.Reduction, i int, t ir.Type) bool {
	if !t.IsInteger() || i >= len(r.Combine) {
		return false
	}
	n := len(r.Vars)
	uncast := func(e ir.Expr) ir.Expr {
		for {
			c, ok := e.(*ir.Cast)
			if !ok {
				return e
			}
			e = c.X
		}
	}
	is := func(e ir.Expr, k int) bool {
		l, ok := uncast(e).(*ir.Load)
		return ok && l.Access == k
	}
	xy := func(a, b ir.Expr) bool { return is(a, i) && is(b, n+i) || is(a, n+i) && is(b, i) }
	switch e := uncast(r.Combine[i]).(type) {
	case *ir.Binary:
		switch e.Op {
		case ir.Add, ir.Mul, ir.And, ir.Or, ir.Xor:
			return xy(e.X, e.Y)
		}
	case *ir.Cond:
		c, ok := uncast(e.C).(*ir.Binary)
		return ok && c.Op.IsComparison() && c.Op != ir.Eql && c.Op != ir.Neq && xy(c.X, c.Y) && xy(e.X, e.Y)
	}
	return false
}

// only returns a copy of l whose body keeps the instances of stmts.
func only(l *Loop, stmts []int) *Loop {
	c := *l
	c.Body = nil
	for _, n := range l.Body {
		if slices.Contains(stmts, n.(*Instance).Stmt) {
			c.Body = append(c.Body, n)
		}
	}
	return &c
}

// counterLoop prints loop l, a reduction's loop or a copy of it, with
// −(−t) written t for its counter t: where reversed has counted the loop
// downward, a value the statements compute as the negated counter (the
// index of lexargmin's k = i) reads the negation of a negation.
func (pr *printer) counterLoop(l *Loop, depth int) {
	start := pr.body.Len()
	pr.loop(l, depth)
	pr.unnegate(start, l.Iter)
}

// unnegate rewrites −(−t) as t in what was printed since start.
func (pr *printer) unnegate(start int, t string) {
	text := bytes.ReplaceAll(pr.body.Bytes()[start:], []byte("-(-"+t+")"), []byte(t))
	pr.body.Truncate(start)
	pr.body.Write(text)
}
