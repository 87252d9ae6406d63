package codegen

import (
	"slices"
	"sync"

	"nestor/deps"
	"nestor/ir"
	"nestor/poly"
)

// Unroll-and-jam of register tiles (the "register tiling" of the
// LoopModels note). In a perfect nest of three point loops of one
// permutable band,
//
//	for i { for k { for j { S(i, k, j) } } }
//
// with j innermost, the two outer loops are unrolled by Rows and Cols
// and the copies jammed into the innermost loop:
//
//	for (i = lo; i <= hi - (Rows-1); i += Rows) {
//	  for (k = lo'; k <= hi' - (Cols-1); k += Cols)
//	    for j { S(i, k, j) … S(i, k+Cols-1, j) … S(i+Rows-1, k+Cols-1, j) }
//	  for (; k <= hi'; k++)                       // the rest of k
//	    for j { S(i, k, j) … S(i+Rows-1, k, j) }
//	}
//	for (; i <= hi; i++)                          // the rest of i, as before
//	  for k { for j { S(i, k, j) } }
//
// Each copy's elements that do not move with j live in registers for the
// whole j loop (scalar.go): in gemm, Rows·Cols elements of A, while the
// Rows rows of C and Cols rows of B are read once per j for all copies.
//
// Legality: the three loops scan dimensions of one permutable band, so
// every dependence not carried by an enclosing loop has a non-negative
// distance on each of them; unroll-and-jam is a rectangular tiling of
// the first two by Rows × Cols with the point loops moved inside j, which
// such distances allow. A parallel j stays parallel: its flag means zero
// distance on every dependence live in the band, between copies too.
// The copies keep the band's statement order (copy by copy, statements in
// their order inside each copy).

// JamOptions chooses the register tiles of UnrollJam.
type JamOptions struct {
	// Band returns the permutable band of the loop at a level (0: none)
	// and whether that loop is a point loop (not a tile loop).
	Band func(level int) (band int, point bool)
	// Rows and Cols are the unroll factors of the outer and the middle
	// loop; below 2 on both, nothing is jammed. Tile, when set, gives
	// them per nest instead, from the level of its outer loop (the
	// register tile its band's marks choose).
	Rows, Cols int64
	Tile       func(level int) [2]int64
	// MaxCopies bounds the statements of a jammed innermost body
	// (statements × Rows × Cols); 0 means 64.
	MaxCopies int
	// Deps returns the dependences of the program the AST scans (its
	// counters are the AST's levels), or nil; called at most once, and
	// only for a loop whose body is a sequence (jamSeq), which the bands
	// alone do not make legal to jam.
	Deps func() *deps.Graph
	// Groups, when 2 or more, lets jamTri run that many groups of its
	// copies' common range as OpenMP sections, when no dependence joins
	// two copies there and no enclosing loop is parallel (cholesky's
	// rows: 16 copies, 8 jammed per thread).
	Groups int
}

// UnrollJam jams the register tiles of b as described above and returns
// how many nests it transformed. It runs after Build and MarkParallel:
// the jammed loops keep their pragmas, and the innermost loops' register
// sets are recomputed for their copies.
func UnrollJam(p *ir.Program, b *Block, opt JamOptions) int {
	if opt.Band == nil || opt.Tile == nil && opt.Rows < 2 && opt.Cols < 2 {
		return 0
	}
	if opt.Tile == nil {
		rows, cols := opt.Rows, opt.Cols
		opt.Tile = func(int) [2]int64 { return [2]int64{rows, cols} }
	}
	if opt.MaxCopies == 0 {
		opt.MaxCopies = 64
	}
	j := &jammer{p: p, opt: opt, solver: newSolver(p, maxSolverWork)}
	if opt.Deps != nil {
		j.opt.Deps = sync.OnceValue(opt.Deps)
	}
	j.depth, j.np = j.solver.depth, j.solver.np
	b.Body = j.nodes(b.Body)
	return j.count
}

type jammer struct {
	p         *ir.Program
	opt       JamOptions
	depth, np int
	count     int
	solver    *solver // decides which elements the copies keep in registers
	parallel  int     // enclosing OpenMP loops of the nodes being jammed
}

func (j *jammer) nodes(ns []Node) []Node {
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			n.Body = j.nodes(n.Body)
			out = append(out, n)
		case *If:
			n.Body = j.nodes(n.Body)
			out = append(out, n)
		case *Loop:
			jammed := j.jam(n)
			if jammed == nil {
				jammed = j.jamSeq(n)
			}
			if jammed == nil {
				jammed = j.jamTri(n)
			}
			if jammed == nil {
				jammed = j.jamPush(n)
			}
			if jammed == nil {
				jammed = j.jamSkew(n)
			}
			if jammed != nil {
				out = append(out, jammed...)
				continue
			}
			par := slices.Contains(n.Pragmas, "omp parallel for")
			if par {
				j.parallel++
			}
			n.Body = j.nodes(n.Body)
			if par {
				j.parallel--
			}
			out = append(out, n)
		default:
			out = append(out, n)
		}
	}
	return out
}

// jam returns the nodes replacing l1 when l1 heads a nest it can jam, nil
// otherwise.
func (j *jammer) jam(l1 *Loop) []Node {
	if len(l1.Body) != 1 {
		return nil
	}
	l2, ok := l1.Body[0].(*Loop)
	if ok && innermost(l2) {
		return j.jamPair(l1, l2)
	}
	if !ok || len(l2.Body) != 1 {
		return nil
	}
	l3, ok := l2.Body[0].(*Loop)
	if !ok || !innermost(l3) || singleIteration(l3) || l2.Level != l1.Level+1 || l3.Level != l2.Level+1 {
		return nil
	}
	band, point := j.opt.Band(l1.Level)
	for _, l := range []*Loop{l1, l2, l3} {
		b, pt := j.opt.Band(l.Level)
		if b != band || !pt || l.Step != 1 || l.Dir < 0 || l.Rest {
			return nil
		}
	}
	if band == 0 || !point || !jammable(l1) || len(l2.Pragmas) > 0 || singleIteration(l1) || singleIteration(l2) {
		return nil
	}
	// Rectangular in the unrolled counters: copies of one loop share the
	// loops inside it. Where an inner loop's bounds read the outer
	// counter (a triangle), only the other loop is unrolled, by the
	// larger factor: its copies still break a reduction's chain of
	// dependent operations into independent ones.
	rows, cols := j.tile(l1.Level)
	canRows := !boundsUse(l2, l1.Level) && !boundsUse(l3, l1.Level)
	canCols := !boundsUse(l3, l2.Level)
	switch {
	case canRows && canCols:
	case canCols:
		rows, cols = 1, max(rows, cols)
	case canRows:
		rows, cols = max(rows, cols), 1
	default:
		return nil
	}
	if rows*cols < 2 {
		return nil
	}
	var body []*Instance
	for _, n := range l3.Body {
		in, ok := n.(*Instance)
		if !ok {
			return nil
		}
		body = append(body, in)
	}
	if len(body)*int(rows*cols) > j.opt.MaxCopies || !j.pays(l3, body) {
		return nil
	}
	j.count++

	// for (i = lo; i <= hi - (Rows-1); i += Rows) { k main; k rest }
	inner := func(rows, cols int64, l2main *Loop) *Loop {
		l := j.copyInner(l3, body, l1.Level, l2.Level, rows, cols)
		if l2main == nil {
			return l
		}
		l2main.Body = []Node{l}
		return l2main
	}
	var mainBody []Node
	if cols > 1 {
		k := unrolled(l2, cols)
		mainBody = []Node{inner(rows, cols, k), inner(rows, 1, rest(l2))}
	} else {
		k := *l2
		k.BodyRegisters = nil
		mainBody = []Node{inner(rows, 1, &k)}
	}
	if rows == 1 {
		// Only the middle loop is unrolled: l1 stays as it is around it.
		m := *l1
		m.BodyRegisters = nil
		m.Body = mainBody
		return []Node{&m}
	}
	main := unrolled(l1, rows)
	main.Body = mainBody
	r := rest(l1)
	r.Body = l1.Body // the original nest, for the last rows
	return []Node{main, r}
}

// tile returns the register tile of the nest whose outer loop is at
// level, each factor at least 1.
func (j *jammer) tile(level int) (rows, cols int64) {
	t := j.opt.Tile(level)
	return max(t[0], 1), max(t[1], 1)
}

// jamPair returns the nodes replacing l1 when l1 and the innermost loop l2
// it holds are two point loops of one band (a matrix–vector product's
// rows and columns): l1 is unrolled by Rows·Cols, at most 8, and its
// copies jammed into l2. A reduction along l2 then runs as that many
// independent chains of operations instead of one chain whose latency
// bounds the loop, and the operands that do not move with l1 (the
// vector) are loaded once for all copies. Legal for the reason the
// three-loop case is.
func (j *jammer) jamPair(l1, l2 *Loop) []Node {
	band, point := j.opt.Band(l1.Level)
	for _, l := range []*Loop{l1, l2} {
		b, pt := j.opt.Band(l.Level)
		if b != band || !pt || l.Step != 1 || l.Dir < 0 || l.Rest {
			return nil
		}
	}
	if band == 0 || !point || !jammable(l1) || l2.Level != l1.Level+1 || singleIteration(l1) || singleIteration(l2) || boundsUse(l2, l1.Level) {
		return nil
	}
	var body []*Instance
	for _, n := range l2.Body {
		in, ok := n.(*Instance)
		if !ok {
			return nil
		}
		body = append(body, in)
	}
	rows, cols := j.tile(l1.Level)
	f := min(rows*cols, 8, int64(j.opt.MaxCopies/len(body)))
	if f < 2 || !j.pays(l2, body) {
		return nil
	}
	j.count++
	main := unrolled(l1, f)
	main.Body = []Node{j.copyInner(l2, body, l1.Level, l1.Level, f, 1)}
	r := rest(l1)
	r.Body = l1.Body // the original loop, for the last rows
	return []Node{main, r}
}

// jammable reports whether the outer loop l of a band's nest may be
// unrolled as it is printed: with no pragma, or as an OpenMP loop (an
// untiled band's parallel loop), which then steps by the factor and
// leaves the last iterations to a sequential rest loop.
func jammable(l *Loop) bool {
	return len(l.Pragmas) == 0 || slices.Equal(l.Pragmas, []string{"omp parallel for"})
}

// pays reports whether jamming helps the innermost loop l: some access of
// its body stays in a register for the whole loop, an operand or an
// accumulator (the copies then share the moving accesses' loads and
// multiply the work per load).
func (j *jammer) pays(l *Loop, body []*Instance) bool {
	for _, in := range body {
		for _, acc := range j.p.Stmts[in.Stmt].Accesses {
			if len(acc.Index) > 0 && !moves(acc, in, l.Level) {
				return true
			}
		}
	}
	return false
}

// copyInner returns innermost loop l with its body repeated rows × cols
// times, counter a shifted by 0…rows−1 and counter b by 0…cols−1, and
// its registers recomputed for the copies.
func (j *jammer) copyInner(l *Loop, body []*Instance, a, b int, rows, cols int64) *Loop {
	c := *l
	c.Body = nil
	c.BodyRegisters = nil
	for u := range rows {
		for v := range cols {
			for _, in := range body {
				c.Body = append(c.Body, shiftInstance(in, a, u, b, v))
			}
		}
	}
	// The loop's own bounds are facts inside it (t3 ≥ t1 + 1 keeps
	// A[i][t3] apart from A[i][t1]).
	var known []poly.Constraint
	if c.Step == 1 {
		known = append(boundRows(c.Lower, c.Level, true, j.depth, j.np), boundRows(c.Upper, c.Level, false, j.depth, j.np)...)
	}
	c.Registers = j.solver.registerArrays(j.p, &c, known)
	c.BodyRegisters = j.solver.bodyRegisters(j.p, &c, known)
	return &c
}

// shiftInstance returns in with the counter at level a replaced by itself
// plus u, and the one at level b by itself plus v.
func shiftInstance(in *Instance, a int, u int64, b int, v int64) *Instance {
	out := &Instance{Stmt: in.Stmt, Iters: make([]ir.Aff, len(in.Iters))}
	for k, x := range in.Iters {
		y := x.Clone()
		if a < len(y.Iter) {
			y.Const += u * y.Iter[a]
		}
		if b < len(y.Iter) {
			y.Const += v * y.Iter[b]
		}
		out.Iters[k] = y
	}
	return out
}

// unrolled returns a copy of l stepping by f over the iterations where
// all f copies run: its upper bounds lowered by f − 1.
func unrolled(l *Loop, f int64) *Loop {
	m := *l
	m.Step = f
	m.Upper = shiftBounds(l.Upper, -(f - 1))
	m.NonEmpty = false
	m.BodyRegisters = nil
	return &m
}

// rest returns a copy of l that continues its counter from where the
// unrolled loop before it stopped, to the original upper bounds.
func rest(l *Loop) *Loop {
	r := *l
	r.Rest = true
	r.NonEmpty = false
	r.BodyRegisters = nil
	r.Pragmas = nil
	return &r
}

// shiftBounds returns the bound terms plus c (min and max commute with
// it; ⌊(A + c·d)/d⌋ = ⌊A/d⌋ + c).
func shiftBounds(bs []Bound, c int64) []Bound {
	out := make([]Bound, len(bs))
	for k, b := range bs {
		out[k] = b
		if b.Of != nil {
			out[k].Of = shiftBounds(b.Of, c)
			continue
		}
		out[k].Aff = b.Aff.Clone()
		out[k].Aff.Const += c * b.Den
	}
	return out
}

// boundsUse reports whether a bound of l reads the counter at level k.
func boundsUse(l *Loop, k int) bool {
	var use func(bs []Bound) bool
	use = func(bs []Bound) bool {
		return slices.ContainsFunc(bs, func(b Bound) bool {
			return use(b.Of) || k < len(b.Aff.Iter) && b.Aff.Iter[k] != 0 || usesLocals(b.Aff)
		})
	}
	return use(l.Lower) || use(l.Upper)
}

// jamSeq returns the nodes replacing l1 when its body is a sequence of
// statements and innermost loops one level down, as in a fused
// matrix–vector pair (atax: a row's dot product, then the update of y by
// that row) or a loop kept in its original order (bicg):
//
//	for (i = lo; i <= hi - (F-1); i += F) {
//	  S(i) … S(i+F-1)                            // a statement: its copies in turn
//	  for j { T(i, j) … T(i+F-1, j) }             // a loop: its copies jammed
//	  …
//	}
//	for (; i <= hi; i++)                          // the rest, as before
//	  { S(i); for j { T(i, j) }; … }
//
// with F = Rows·Cols, at most 8. As in jamPair, a reduction along an inner
// loop runs as F independent chains, and the operands that do not move
// with i are loaded once for all copies.
//
// Legality comes from the dependences, not from the bands (the members
// of a sequence are scheduled apart, and a region kept in its original
// order has no bands): a group of F iterations of i runs each member's
// copies before the next member's, so every dependence carried by l1
// between members must run from an earlier member to a later one (or
// span more than F iterations), and one inside a member's loop must have
// a non-negative distance along it (the copies are interleaved along j).
// Dependences not carried by l1 keep their order: the copies of one
// iteration run as that iteration did.
func (j *jammer) jamSeq(l1 *Loop) []Node {
	if j.opt.Deps == nil || len(l1.Pragmas) > 0 || l1.Step != 1 || l1.Dir < 0 || l1.Rest || singleIteration(l1) {
		return nil
	}
	if _, point := j.opt.Band(l1.Level); !point {
		return nil
	}
	type member struct {
		in    *Instance
		loop  *Loop
		guard *If // around loop, when set
		body  []*Instance
	}
	innerOK := func(l *Loop) bool {
		_, point := j.opt.Band(l.Level)
		return point && innermost(l) && l.Level == l1.Level+1 && l.Step == 1 && l.Dir >= 0 && !l.Rest &&
			!singleIteration(l) && !boundsUse(l, l1.Level)
	}
	var ms []member
	var isLoop []bool
	stmtMember := map[int]int{}
	loops, pays := 0, false
	rows, cols := j.tile(l1.Level)
	f := min(rows*cols, 8)
	for _, n := range l1.Body {
		var m member
		switch n := n.(type) {
		case *Instance:
			if !identity(n.Iters) {
				return nil
			}
			m = member{in: n, body: []*Instance{n}}
		case *Loop:
			m = member{loop: n}
		case *If:
			if len(n.Body) != 1 {
				return nil
			}
			l, ok := n.Body[0].(*Loop)
			if !ok || slices.ContainsFunc(n.Conds, func(c Cond) bool {
				return l1.Level < len(c.Aff.Iter) && c.Aff.Iter[l1.Level] != 0 || usesLocals(c.Aff)
			}) {
				return nil
			}
			m = member{loop: l, guard: n}
		default:
			return nil
		}
		if m.loop != nil {
			if !innerOK(m.loop) || len(m.loop.Pragmas) > 0 && !slices.Equal(m.loop.Pragmas, []string{"omp simd"}) {
				return nil
			}
			if m.body = plainInstances(m.loop.Body); m.body == nil {
				return nil
			}
			loops++
			pays = pays || j.chains(m.loop, m.body)
			f = min(f, int64(j.opt.MaxCopies/len(m.body)))
		}
		for _, in := range m.body {
			if _, dup := stmtMember[in.Stmt]; dup {
				return nil
			}
			stmtMember[in.Stmt] = len(ms)
		}
		ms, isLoop = append(ms, m), append(isLoop, m.loop != nil)
	}
	if loops == 0 || !pays || f < 2 {
		return nil
	}
	ok, scalar := j.seqLegal(l1.Level, stmtMember, isLoop, f)
	if !ok {
		return nil
	}
	j.count++
	main := unrolled(l1, f)
	main.Body = nil
	for k, m := range ms {
		if scalar[k] {
			c := *m.loop
			c.Pragmas = nil
			m.loop = &c
		}
		switch {
		case m.loop == nil:
			for u := range f {
				main.Body = append(main.Body, shiftInstance(m.in, l1.Level, u, l1.Level, 0))
			}
		case m.guard != nil:
			g := *m.guard
			g.Body = []Node{j.copyInner(m.loop, m.body, l1.Level, l1.Level, f, 1)}
			main.Body = append(main.Body, &g)
		default:
			main.Body = append(main.Body, j.copyInner(m.loop, m.body, l1.Level, l1.Level, f, 1))
		}
	}
	main.BodyRegisters = j.solver.bodyRegisters(j.p, main, nil)
	r := rest(l1)
	r.Body = l1.Body // the original loop, for the last rows
	r.BodyRegisters = l1.BodyRegisters
	return []Node{main, r}
}

// chains reports whether the innermost loop l updates an element that
// does not move with it (a reduction's accumulator): its copies then run
// as independent chains. An invariant operand alone is not reason enough
// in a sequence: the copies' stores to one array may keep the compiler
// from vectorizing the loop (LU's row updates).
func (j *jammer) chains(l *Loop, body []*Instance) bool {
	for _, in := range body {
		for _, acc := range j.p.Stmts[in.Stmt].Accesses {
			if acc.Write && len(acc.Index) > 0 && !moves(acc, in, l.Level) {
				return true
			}
		}
	}
	return false
}

// seqLegal reports whether jamming the loop at level by f is legal for
// the sequence whose members hold the statements of member (see jamSeq):
// every dependence carried by the loop, between two of its statements
// and fewer than f iterations apart, runs to a later member, or within a
// member that is one statement, or within a member's loop with a
// non-negative distance along that loop. scalar flags the members' loops
// that such a dependence with a positive distance along them keeps from
// running as SIMD loops: the copies then depend on one another across
// iterations of the jammed loop.
func (j *jammer) seqLegal(level int, member map[int]int, isLoop []bool, f int64) (ok bool, scalar []bool) {
	g := j.opt.Deps()
	if g == nil || g.Exhausted {
		return false, nil
	}
	scalar = make([]bool, len(isLoop))
	for _, e := range g.Edges {
		ms, ok1 := member[e.Source]
		mt, ok2 := member[e.Target]
		if !ok1 || !ok2 || e.Depth != level+1 {
			continue // not between the body's statements, or not carried by the loop
		}
		if level >= len(e.Distance) {
			return false, nil
		}
		if d := e.Distance[level]; !d.MinInf && d.Min >= f {
			continue // from one group of f iterations to a later one
		}
		switch {
		case ms < mt:
		case ms > mt:
			return false, nil
		case isLoop[ms]:
			if level+1 >= len(e.Distance) || e.Distance[level+1].MinInf || e.Distance[level+1].Min < 0 {
				return false, nil
			}
			if d := e.Distance[level+1]; d.MaxInf || d.Max > 0 {
				scalar[ms] = true
			}
		}
	}
	return true, scalar
}
