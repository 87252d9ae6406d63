package codegen

import (
	"slices"

	"nestor/ir"
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
			if jammed := j.jam(n); jammed != nil {
				out = append(out, jammed...)
				continue
			}
			n.Body = j.nodes(n.Body)
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
	if band == 0 || !point || len(l1.Pragmas) > 0 || len(l2.Pragmas) > 0 || singleIteration(l1) || singleIteration(l2) {
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
	if band == 0 || !point || len(l1.Pragmas) > 0 || l2.Level != l1.Level+1 || singleIteration(l1) || singleIteration(l2) || boundsUse(l2, l1.Level) {
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
	c.Registers = j.solver.registerArrays(j.p, &c, nil)
	c.BodyRegisters = j.solver.bodyRegisters(j.p, &c, nil)
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
