package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Config bounds the shape of the programs Generate draws.
type Config struct {
	MinStmts, MaxStmts int // statements per program
	MaxDepth           int // deepest loop nest, at most maxDepth
	// MinSize and MaxSize bound the value drawn for each size parameter
	// (n and m); the arrays are sized for the values drawn.
	MinSize, MaxSize int64
	// MaxInstances bounds the statement instances one call of the kernel
	// executes; a larger draw is redrawn (it would only make the test
	// slow). It must allow every statement to run once.
	MaxInstances int
	// TempPercent is the share of programs, in percent, that get scalar
	// temporaries (temp.go); the others are as if there were none.
	TempPercent int
}

// DefaultConfig returns the configuration of the differential test: 2 to
// 4 statements, nests of depth at most 3, sizes 4 to 12, scalar
// temporaries in about a third of the programs.
func DefaultConfig() Config {
	return Config{MinStmts: 2, MaxStmts: 4, MaxDepth: 3, MinSize: 4, MaxSize: 12, MaxInstances: 20000, TempPercent: 35}
}

// Program is one generated C file.
type Program struct {
	Seed   int64
	Src    string // the C file
	Kernel string // the function holding the region
	// Params gives the size parameters the kernel takes (n, m; only those
	// the region uses) the values its arrays are sized for. The file also
	// defines them as the macros N and M, so `nestor check` needs no flags.
	Params    map[string]int64
	Stmts     int // statements in the region, the temporaries' included
	Depth     int // deepest loop nest
	Instances int // statement instances one call executes
	// Temps names the scalar temporaries and their shapes ("t0:reuse",
	// see tempShapes); empty in most programs.
	Temps []string
}

// maxDepth is the deepest nest the generator can write: one counter name
// (i, j, k) per level.
const maxDepth = 3

// maxAttempts bounds the redraws for one seed; a configuration that needs
// more cannot be met (MaxInstances too small, say) and Generate panics.
const maxAttempts = 10000

// intMod is the modulus every int statement reduces its value by, so that
// int values stay below it in magnitude and no sum or product of the
// bounded terms an int statement uses can overflow (signed overflow is
// undefined behaviour).
const intMod = 1009

// pcgStream is the second word of the generator's PCG state ("randprog").
const pcgStream = 0x72616e6470726f67

// Affine forms range over the loop counters of the three levels, then the
// two size parameters.
const (
	varN = maxDepth + iota // the parameter n
	varM                   // the parameter m
	nvar
)

var varNames = [nvar]string{"i", "j", "k", "n", "m"}

// Generate draws the program of seed: the same seed and configuration
// always give the same program. Every access of the program stays in its
// array's bounds for every iteration at the parameter values of
// Program.Params: arrays are sized, and subscripts shifted, from the exact
// ranges of the subscripts over an enumeration of all instances; every
// statement executes at least once.
func Generate(seed int64, cfg Config) Program {
	if cfg.MaxDepth < 1 || cfg.MaxDepth > maxDepth || cfg.MinStmts < 1 || cfg.MaxStmts < cfg.MinStmts ||
		cfg.MinSize < 1 || cfg.MaxSize < cfg.MinSize || cfg.MaxInstances < cfg.MaxStmts ||
		cfg.TempPercent < 0 || cfg.TempPercent > 100 {
		panic(fmt.Sprintf("randprog: bad configuration %+v", cfg))
	}
	r := rand.New(rand.NewPCG(uint64(seed), pcgStream))
	tr := rand.New(rand.NewPCG(uint64(seed), tempStream))
	for range maxAttempts {
		g := &gen{r: r, cfg: cfg}
		if p, ok := g.program(tr); ok {
			p.Seed = seed
			p.Src = g.print(seed, &p)
			return p
		}
	}
	panic(fmt.Sprintf("randprog: no program for seed %d in %d attempts with %+v", seed, maxAttempts, cfg))
}

// aff is the affine form Σ c[v]·var_v + k over the counters and parameters.
type aff struct {
	c [nvar]int64
	k int64
}

func constAff(k int64) aff { return aff{k: k} }

func varAff(v int) aff {
	var a aff
	a.c[v] = 1
	return a
}

func (a aff) plus(b aff) aff {
	for v := range a.c {
		a.c[v] += b.c[v]
	}
	a.k += b.k
	return a
}

func (a aff) addConst(k int64) aff {
	a.k += k
	return a
}

func (a aff) eval(env *[nvar]int64) int64 {
	s := a.k
	for v, c := range a.c {
		s += c * env[v]
	}
	return s
}

// String prints a in C: the variables with positive coefficients, then
// the negative ones, each in the order i, j, k, n, m, then the constant
// ("n - i - 1", "2 * j + 1").
func (a aff) String() string {
	var b []byte
	for _, pos := range []bool{true, false} {
		for v, c := range a.c {
			if c != 0 && (c > 0) == pos {
				b = appendTerm(b, c, varNames[v])
			}
		}
	}
	if a.k != 0 || len(b) == 0 {
		b = appendTerm(b, a.k, "")
	}
	return string(b)
}

// appendTerm appends c·name (name empty: the constant c) with its sign.
func appendTerm(b []byte, c int64, name string) []byte {
	neg := c < 0
	if neg {
		c = -c
	}
	switch {
	case len(b) == 0 && neg:
		b = append(b, '-')
	case len(b) > 0 && neg:
		b = append(b, " - "...)
	case len(b) > 0:
		b = append(b, " + "...)
	}
	switch {
	case name == "":
		b = fmt.Append(b, c)
	case c == 1:
		b = append(b, name...)
	default:
		b = fmt.Appendf(b, "%d * %s", c, name)
	}
	return b
}

// A node of the region: *loop, *guard or *stmt.
type node any

// loop runs counter level over [max lower, min upper], upward or downward
// by step.
type loop struct {
	level        int
	lower, upper []aff // inclusive bounds
	down         bool
	step         int64
	form         int // which of the equivalent ways to write the bounds
	body         []node
}

// cond is x op y.
type cond struct {
	x  aff
	op string
	y  aff
}

func (c cond) holds(env *[nvar]int64) bool {
	x, y := c.x.eval(env), c.y.eval(env)
	switch c.op {
	case "<":
		return x < y
	case "<=":
		return x <= y
	case ">":
		return x > y
	case ">=":
		return x >= y
	}
	return x == y
}

// guard runs then where all conds hold, else els (when not nil).
type guard struct {
	conds     []cond
	then, els *stmt
}

// array is an array of the kernel's parameters, or a scalar temporary
// (rank 0) declared in the kernel.
type array struct {
	name  string
	isInt bool
	dims  []int64 // sizes, set once the subscripts' ranges are known
	// lo and hi are the subscripts' ranges per dimension over all
	// instances, seen whether any access was executed.
	lo, hi []int64
	seen   bool
	// A temporary is written once the execution assigns it; init asks
	// for an initial value at its declaration, for a read before that.
	written, init bool
}

func (a *array) rank() int { return len(a.lo) }

type access struct {
	arr *array
	idx []aff
}

func (a *access) String() string {
	s := a.arr.name
	for _, e := range a.idx {
		s += "[" + e.String() + "]"
	}
	return s
}

// stmt is lhs op rhs; an int statement's value is reduced modulo intMod.
type stmt struct {
	lhs   *access
	op    string
	rhs   expr
	reads []*access
	runs  int // instances executed
}

// An expr is *access (a load), constExpr, iterExpr, scalarExpr or *binExpr.
type expr any

type constExpr string // as written in C

type iterExpr int // a loop counter's level

type scalarExpr string // a scalar parameter, read only

type binExpr struct {
	op   byte // '+', '-', '*'
	x, y expr
}

type gen struct {
	r        *rand.Rand
	cfg      Config
	size     [nvar]int64 // the parameters' values at varN, varM
	arrays   []*array    // the kernel's arrays, used or not
	accesses []*access
	stmts    []*stmt
	body     []node
	alpha    bool     // the scalar parameter alpha is read
	depth    int      // deepest statement's loop depth
	count    int      // instances executed so far
	temps    []*array // the scalar temporaries
	after    []*stmt  // statements after the region
	shapes   []string // the temporaries' shapes, for Program.Temps
}

// program draws one program and reports whether it is acceptable: every
// statement runs, at most cfg.MaxInstances instances in all. An acceptable
// program may then get temporaries, drawn from tr.
func (g *gen) program(tr *rand.Rand) (Program, bool) {
	g.size[varN] = g.cfg.MinSize + g.r.Int64N(g.cfg.MaxSize-g.cfg.MinSize+1)
	g.size[varM] = g.cfg.MinSize + g.r.Int64N(g.cfg.MaxSize-g.cfg.MinSize+1)
	g.pool()
	n := g.cfg.MinStmts + g.r.IntN(g.cfg.MaxStmts-g.cfg.MinStmts+1)
	body := g.block(0, n)
	env := g.size
	if !g.exec(body, &env) {
		return Program{}, false
	}
	for _, s := range g.stmts {
		if s.runs == 0 {
			return Program{}, false
		}
	}
	g.body = body
	g.addTemps(tr)
	g.fit()
	p := Program{Kernel: "kernel", Params: map[string]int64{}, Stmts: len(g.stmts), Depth: g.depth, Instances: g.count,
		Temps: g.shapes}
	for _, v := range []int{varN, varM} {
		if g.uses(v) {
			p.Params[varNames[v]] = g.size[v]
		}
	}
	return p, true
}

// pool draws the arrays statements choose from: two to four, of rank 1 to
// 3, some of them int.
func (g *gen) pool() {
	names := [][]string{{"x", "y", "z", "w"}, {"A", "B", "C", "D"}, {"T", "U", "V", "W"}}
	next := [3]int{}
	n := 2 + g.r.IntN(3)
	for range n {
		rank := pick(g.r, []int{1, 2, 3}, []int{7, 10, 3})
		a := &array{name: names[rank-1][next[rank-1]], isInt: g.r.IntN(7) == 0,
			lo: make([]int64, rank), hi: make([]int64, rank)}
		next[rank-1]++
		g.arrays = append(g.arrays, a)
	}
}

// block draws the nodes at loop depth depth holding n statements.
func (g *gen) block(depth, n int) []node {
	var out []node
	for n > 0 {
		k := 1 + g.r.IntN(n)
		if depth == g.cfg.MaxDepth {
			k = min(n, 1+g.r.IntN(2)) // a statement, or an if/else pair
		}
		out = append(out, g.item(depth, k))
		n -= k
	}
	return out
}

// item draws one node at depth holding n statements.
func (g *gen) item(depth, n int) node {
	pStmt := [maxDepth + 1]int{1, 7, 10, 20}[depth] // in twentieths
	switch {
	case depth == g.cfg.MaxDepth || n == 1 && g.r.IntN(20) < pStmt:
		if n == 2 {
			return g.ifElse(depth)
		}
		return g.guarded(depth)
	case n == 2 && depth > 0 && g.r.IntN(8) == 0:
		return g.ifElse(depth)
	}
	l := g.loop(depth)
	l.body = g.block(depth+1, n)
	return l
}

// guarded returns a statement at depth, sometimes under an if.
func (g *gen) guarded(depth int) node {
	if depth == 0 || g.r.IntN(5) != 0 {
		return g.stmt(depth)
	}
	gd := &guard{conds: []cond{g.cond(depth, true)}}
	if g.r.IntN(4) == 0 {
		gd.conds = append(gd.conds, g.cond(depth, true))
	}
	gd.then = g.stmt(depth)
	return gd
}

// ifElse returns if (c) S else T at depth > 0; nestor's subset allows
// else after a single inequality only.
func (g *gen) ifElse(depth int) node {
	gd := &guard{conds: []cond{g.cond(depth, false)}}
	gd.then = g.stmt(depth)
	gd.els = g.stmt(depth)
	return gd
}

// cond draws a condition on the counters of the loops around depth.
func (g *gen) cond(depth int, eqOK bool) cond {
	c := cond{x: varAff(g.r.IntN(depth))}
	if depth > 1 && g.r.IntN(4) == 0 {
		c.x = c.x.plus(varAff(g.r.IntN(depth)))
	}
	switch g.r.IntN(4) {
	case 0:
		c.y = constAff(1 + g.r.Int64N(4))
	case 1:
		c.y = varAff(varN + g.r.IntN(2)).addConst(-g.r.Int64N(3))
	default:
		c.y = varAff(g.r.IntN(depth)).addConst(g.r.Int64N(3) - 1)
	}
	ops := []string{"<", "<=", ">", ">="}
	if eqOK && g.r.IntN(6) == 0 {
		c.op = "=="
	} else {
		c.op = ops[g.r.IntN(len(ops))]
	}
	return c
}

// loop draws the bounds of a loop at level depth over the outer counters
// and one size parameter: rectangular, triangular, banded or reversed.
func (g *gen) loop(depth int) *loop {
	l := &loop{level: depth, step: 1, form: g.r.IntN(2)}
	p := varN + g.r.IntN(2)
	lower := func() aff {
		if depth == 0 || g.r.IntN(2) == 0 {
			return constAff(pick(g.r, []int64{0, 1, 2}, []int{6, 3, 1}))
		}
		return varAff(g.r.IntN(depth)).addConst(pick(g.r, []int64{0, 1, -1, -2}, []int{4, 3, 2, 1}))
	}
	upper := func() aff {
		if depth == 0 || g.r.IntN(2) == 0 {
			switch g.r.IntN(8) {
			case 0:
				return constAff(2 + g.r.Int64N(4))
			case 1:
				return varAff(p)
			case 2:
				return varAff(p).addConst(-2)
			}
			return varAff(p).addConst(-1)
		}
		c := g.r.IntN(depth)
		switch g.r.IntN(4) {
		case 0: // reversed: p - 1 - c
			return varAff(p).plus(aff{k: -1}).plus(scale(varAff(c), -1))
		case 1: // banded
			return varAff(c).addConst(1 + g.r.Int64N(3))
		}
		return varAff(c)
	}
	l.down = g.r.IntN(5) == 0
	if g.r.IntN(16) == 0 {
		l.step = 2
	}
	// A loop with a step starts at one affine value (the frontend's
	// rule): only its end may be a max or min.
	l.lower = bounds(g.r, lower, l.step == 1 || l.down)
	l.upper = bounds(g.r, upper, l.step == 1 || !l.down)
	return l
}

// bounds draws one bound, sometimes two when two is set (a max or min of
// two different forms, not both constant).
func bounds(r *rand.Rand, draw func() aff, two bool) []aff {
	b := []aff{draw()}
	if two && r.IntN(5) == 0 {
		if c := draw(); c != b[0] && (c.c != [nvar]int64{} || b[0].c != [nvar]int64{}) {
			b = append(b, c)
		}
	}
	return b
}

func scale(a aff, f int64) aff {
	for v := range a.c {
		a.c[v] *= f
	}
	a.k *= f
	return a
}

// stmt draws a statement at depth: its left-hand side, operator and
// right-hand side.
func (g *gen) stmt(depth int) *stmt {
	g.depth = max(g.depth, depth)
	s := &stmt{}
	lhsArr := g.arrays[g.r.IntN(len(g.arrays))]
	s.lhs = g.access(lhsArr, g.lhsIndex(lhsArr.rank(), depth))
	switch {
	case lhsArr.isInt:
		s.op = "="
		s.rhs = g.intExpr(s, depth, 1+g.r.IntN(3))
	default:
		s.op = pick(g.r, []string{"=", "+=", "-=", "*="}, []int{10, 6, 2, 1})
		s.rhs = g.doubleExpr(s, depth, 1+g.r.IntN(3))
		switch g.r.IntN(10) {
		case 0:
			s.rhs = &binExpr{'*', scalarExpr("alpha"), s.rhs}
			g.alpha = true
		case 1, 2:
			s.rhs = &binExpr{'*', g.coef(), s.rhs}
		}
	}
	g.stmts = append(g.stmts, s)
	return s
}

// lhsIndex draws the subscripts of a written access: distinct counters in
// a random order (a transpose), the innermost sometimes left out (a
// reduction), constants where the counters run out.
func (g *gen) lhsIndex(rank, depth int) []aff {
	cs := g.r.Perm(depth)
	if depth > 0 && g.r.IntN(4) == 0 {
		cs = slices.DeleteFunc(cs, func(c int) bool { return c == depth-1 })
	}
	idx := make([]aff, rank)
	for d := range idx {
		switch {
		case d < len(cs):
			idx[d] = varAff(cs[d])
			if g.r.IntN(6) == 0 {
				idx[d] = idx[d].addConst(g.r.Int64N(3) - 1)
			}
		case depth > 0 && g.r.IntN(3) == 0:
			idx[d] = varAff(g.r.IntN(depth))
		default:
			idx[d] = constAff(g.r.Int64N(3))
		}
	}
	if depth > 0 && g.r.IntN(8) == 0 {
		idx[g.r.IntN(rank)] = g.fancy(depth)
	}
	return idx
}

// fancy draws a subscript beyond counter + offset: i + j, 2 * i, or a
// reversal n - 1 - i.
func (g *gen) fancy(depth int) aff {
	c := varAff(g.r.IntN(depth))
	switch g.r.IntN(3) {
	case 0:
		return c.plus(varAff(g.r.IntN(depth)))
	case 1:
		return scale(c, 2)
	}
	return varAff(varN + g.r.IntN(2)).addConst(-1).plus(scale(c, -1))
}

// readIndex draws the subscripts of a load at depth from arr: when arr is
// the statement's own left-hand array, mostly a neighbour of the written
// element (a stencil), the element itself (an update) or its transpose.
func (g *gen) readIndex(s *stmt, arr *array, depth int) []aff {
	if arr == s.lhs.arr && g.r.IntN(3) != 0 {
		idx := slices.Clone(s.lhs.idx)
		switch g.r.IntN(4) {
		case 0: // the element itself
		case 1:
			if len(idx) >= 2 {
				a, b := g.r.IntN(len(idx)), g.r.IntN(len(idx))
				idx[a], idx[b] = idx[b], idx[a]
				break
			}
			fallthrough
		default:
			d := g.r.IntN(len(idx))
			idx[d] = idx[d].addConst(pick(g.r, []int64{-1, 1, -2, 2}, []int{4, 3, 1, 1}))
		}
		return idx
	}
	idx := g.lhsIndex(arr.rank(), depth)
	for d := range idx {
		if g.r.IntN(4) == 0 {
			idx[d] = idx[d].addConst(g.r.Int64N(3) - 1)
		}
	}
	return idx
}

func (g *gen) access(arr *array, idx []aff) *access {
	a := &access{arr: arr, idx: idx}
	g.accesses = append(g.accesses, a)
	return a
}

// load draws a read of s at depth from an array whose values the
// statement can use (int statements read int arrays only).
func (g *gen) load(s *stmt, depth int) *access {
	var cands []*array
	for _, a := range g.arrays {
		if !s.lhs.arr.isInt || a.isInt {
			cands = append(cands, a)
		}
	}
	arr := cands[g.r.IntN(len(cands))]
	if g.r.IntN(3) == 0 && s.lhs.arr.rank() > 0 {
		arr = s.lhs.arr
	}
	a := g.access(arr, g.readIndex(s, arr, depth))
	s.reads = append(s.reads, a)
	return a
}

var coefs = []string{"0.5", "0.25", "0.75", "1.5", "2.0", "0.125", "3.0"}

func (g *gen) coef() constExpr { return constExpr(coefs[g.r.IntN(len(coefs))]) }

// doubleExpr draws a double expression of n loads.
func (g *gen) doubleExpr(s *stmt, depth, n int) expr {
	if n == 1 {
		var e expr = g.load(s, depth)
		switch g.r.IntN(10) {
		case 0, 1, 2:
			e = &binExpr{'*', g.coef(), e}
		case 3:
			e = &binExpr{'+', e, g.coef()}
		case 4:
			if depth > 0 {
				e = &binExpr{'+', e, &binExpr{'*', constExpr("0.01"), iterExpr(g.r.IntN(depth))}}
			}
		}
		return e
	}
	k := 1 + g.r.IntN(n-1)
	op := pick(g.r, []byte{'+', '-', '*'}, []int{5, 3, 3})
	return &binExpr{op, g.doubleExpr(s, depth, k), g.doubleExpr(s, depth, n-k)}
}

// intExpr draws an int expression of n loads, each term bounded so that
// no operation overflows: loads are below intMod in magnitude (or fresh
// inputs, in [0, 64)), coefficients at most 3, counters small.
func (g *gen) intExpr(s *stmt, depth, n int) expr {
	var e expr
	for range n {
		var term expr = g.load(s, depth)
		if g.r.IntN(3) == 0 {
			term = &binExpr{'*', constExpr(fmt.Sprint(2 + g.r.IntN(2))), term}
		}
		if e == nil {
			e = term
			continue
		}
		e = &binExpr{pick(g.r, []byte{'+', '-'}, []int{2, 1}), e, term}
	}
	switch {
	case depth > 0 && g.r.IntN(3) == 0:
		e = &binExpr{'+', e, iterExpr(g.r.IntN(depth))}
	case g.r.IntN(3) == 0:
		e = &binExpr{'+', e, constExpr(fmt.Sprint(1 + g.r.IntN(7)))}
	}
	return e
}

// exec runs ns in program order with the counters and parameters of env,
// counting instances and recording the range of every subscript; it
// reports false when the instances exceed cfg.MaxInstances.
func (g *gen) exec(ns []node, env *[nvar]int64) bool {
	for _, n := range ns {
		switch n := n.(type) {
		case *loop:
			lo, hi := n.lower[0].eval(env), n.upper[0].eval(env)
			for _, b := range n.lower[1:] {
				lo = max(lo, b.eval(env))
			}
			for _, b := range n.upper[1:] {
				hi = min(hi, b.eval(env))
			}
			if n.down {
				for v := hi; v >= lo; v -= n.step {
					env[n.level] = v
					if !g.exec(n.body, env) {
						return false
					}
				}
			} else {
				for v := lo; v <= hi; v += n.step {
					env[n.level] = v
					if !g.exec(n.body, env) {
						return false
					}
				}
			}
		case *guard:
			ok := true
			for _, c := range n.conds {
				ok = ok && c.holds(env)
			}
			s := n.then
			if !ok {
				s = n.els
			}
			if s != nil && !g.exec([]node{s}, env) {
				return false
			}
		case *stmt:
			n.runs++
			g.count++
			if g.count > g.cfg.MaxInstances {
				return false
			}
			for _, a := range append([]*access{n.lhs}, n.reads...) {
				g.record(a, env)
			}
			g.touch(n)
		}
	}
	return true
}

func (g *gen) record(a *access, env *[nvar]int64) {
	arr := a.arr
	for d, e := range a.idx {
		v := e.eval(env)
		if !arr.seen {
			arr.lo[d], arr.hi[d] = v, v
		}
		arr.lo[d], arr.hi[d] = min(arr.lo[d], v), max(arr.hi[d], v)
	}
	arr.seen = true
}

// fit shifts the subscripts of each array dimension whose range starts
// below 0 by the same constant (which keeps every dependence) and sizes
// the dimension to the range exactly.
func (g *gen) fit() {
	for _, arr := range g.arrays {
		arr.dims = make([]int64, arr.rank())
		for d := range arr.dims {
			shift := max(0, -arr.lo[d])
			for _, a := range g.accesses {
				if a.arr == arr {
					a.idx[d] = a.idx[d].addConst(shift)
				}
			}
			arr.dims[d] = arr.hi[d] + shift + 1
		}
	}
}

// used reports whether arr appears in the region.
func (g *gen) used(arr *array) bool {
	return slices.ContainsFunc(g.accesses, func(a *access) bool { return a.arr == arr })
}

// uses reports whether the region mentions variable v.
func (g *gen) uses(v int) bool {
	found := false
	walk(g.body, func(n node) {
		switch n := n.(type) {
		case *loop:
			for _, b := range append(slices.Clone(n.lower), n.upper...) {
				found = found || b.c[v] != 0
			}
		case *guard:
			for _, c := range n.conds {
				found = found || c.x.c[v] != 0 || c.y.c[v] != 0
			}
		}
	})
	for _, a := range g.accesses {
		for _, e := range a.idx {
			found = found || e.c[v] != 0
		}
	}
	return found
}

// walk calls f on every node of ns, parents first.
func walk(ns []node, f func(node)) {
	for _, n := range ns {
		f(n)
		switch n := n.(type) {
		case *loop:
			walk(n.body, f)
		case *guard:
			f(n.then)
			if n.els != nil {
				f(n.els)
			}
		}
	}
}

// pick returns one of xs, drawn with the given weights.
func pick[T any](r *rand.Rand, xs []T, w []int) T {
	total := 0
	for _, x := range w {
		total += x
	}
	v := r.IntN(total)
	for k, x := range w {
		if v < x {
			return xs[k]
		}
		v -= x
	}
	panic("unreachable")
}
