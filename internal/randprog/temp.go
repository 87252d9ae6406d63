package randprog

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// Scalar temporaries. A share of the programs (Config.TempPercent) get
// one or two local scalars of the kernel function, t0 and t1, declared
// before the region, each used in one of the shapes below: the live
// ranges package expand turns into arrays, and the ones it must leave
// alone. A live range sits in a loop L, either one of the program's loops
// (its statements around L's body) or a new nest at the top level: a kill
// t = e at the top of L's body, sometimes an accumulation t += e in a loop
// inside L or in L's body, and a store A[..] = f(t) at its end (symm,
// matvec).
//
// The temporaries are drawn after the program is accepted, from a stream
// of their own (tempStream): a seed whose program gets none keeps the
// program it had before temporaries existed, byte for byte, and one that
// gets some keeps its statements, with the temporaries' statements added
// (its arrays may grow, and subscripts shift, to fit their accesses). A
// temporary that the program reads before writing it at the parameter
// values it is drawn for (before its first kill, or where a guarded kill
// did not run), as its execution by rerun finds, is initialized at its
// declaration, so that no program reads an uninitialized value.

// tempStream is the second word of the PCG state of the temporaries' draws
// ("randtemp").
const tempStream = 0x72616e6474656d70

// maxTempAttempts bounds the redraws of a program's temporaries (too many
// instances, a statement that never runs); past it the program keeps none.
const maxTempAttempts = 20

// tempNames name the temporaries; t1 is also a name code generation likes
// for its counters.
var tempNames = []string{"t0", "t1"}

// A tempShape is one way of using a temporary.
type tempShape struct {
	name   string
	weight int
	draw   func(g *gen, t *array)
}

// tempShapes are the shapes a temporary is drawn in, with their weights.
var tempShapes = []tempShape{
	// kill, accumulate, store in one loop: expandable when the loop
	// carries nothing else.
	{"accumulate", 4, func(g *gen, t *array) { g.place(g.rangeNodes(t)) }},
	// the same in a new nest whose store writes an element per iteration
	// of L to an array the range does not read (where there is another
	// one to read): expandable unless L has a step.
	{"parallel", 3, (*gen).parallel},
	// two live ranges of one temporary, in two loops (ludcmp).
	{"reuse", 2, func(g *gen, t *array) {
		g.place(g.rangeNodes(t))
		g.place(g.rangeNodes(t))
	}},
	// a store reads t before the kill: the value of the previous
	// iteration, a flow dependence the loop carries.
	{"readfirst", 1, (*gen).readFirst},
	// the kill under an affine guard, the store under the same guard or
	// not at all.
	{"guarded", 2, (*gen).guardedKill},
	// if (c) t = e; else t = f;: every iteration kills t, by two
	// statements.
	{"ifelse", 1, (*gen).ifElseKill},
	// a top-level statement after the loop reads t's last value.
	{"liveout", 1, (*gen).liveOut},
	// the code after the region reads t's last value: t is not local to
	// the region.
	{"escape", 1, (*gen).escape},
	// the store feeds the kill of a later iteration: a real dependence
	// that expansion does not remove.
	{"carried", 2, (*gen).carried},
	// t = e at the top level, a loop nest sums into t, a top-level store
	// reads it: a scalar reduction.
	{"reduce", 1, (*gen).reduce},
}

// addTemps gives the program drawn, which ran successfully, its
// temporaries, drawing from r: none in most programs.
func (g *gen) addTemps(r *rand.Rand) {
	if r.IntN(100) >= g.cfg.TempPercent {
		return
	}
	main := g.r
	g.r = r // the helpers draw from g.r
	defer func() { g.r = main }()
	base := g.save()
	for range maxTempAttempts {
		g.drawTemps()
		if g.rerun() {
			return
		}
		g.restore(base)
	}
	g.rerun() // the program as drawn, which ran before
}

// drawTemps adds one or two temporaries to the program, each in a shape of
// tempShapes.
func (g *gen) drawTemps() {
	var hasInt, hasDouble bool
	for _, a := range g.arrays {
		hasInt = hasInt || a.isInt
		hasDouble = hasDouble || !a.isInt
	}
	n := 1
	if g.r.IntN(3) == 0 {
		n = 2
	}
	weights := make([]int, len(tempShapes))
	for k, s := range tempShapes {
		weights[k] = s.weight
	}
	for k := range n {
		t := &array{name: tempNames[k], isInt: !hasDouble || hasInt && g.r.IntN(5) == 0}
		g.temps = append(g.temps, t)
		sh := pick(g.r, tempShapes, weights)
		g.shapes = append(g.shapes, t.name+":"+sh.name)
		sh.draw(g, t)
	}
}

// snapshot is the program before temporaries, to go back to.
type snapshot struct {
	body            []node
	loopBodies      map[*loop][]node
	stmts, accesses int
	alpha           bool
	depth           int
}

func (g *gen) save() snapshot {
	s := snapshot{body: slices.Clone(g.body), loopBodies: map[*loop][]node{}, stmts: len(g.stmts),
		accesses: len(g.accesses), alpha: g.alpha, depth: g.depth}
	walk(g.body, func(n node) {
		if l, ok := n.(*loop); ok {
			s.loopBodies[l] = slices.Clone(l.body)
		}
	})
	return s
}

func (g *gen) restore(s snapshot) {
	g.body = slices.Clone(s.body)
	for l, b := range s.loopBodies {
		l.body = slices.Clone(b)
	}
	g.stmts, g.accesses = g.stmts[:s.stmts], g.accesses[:s.accesses]
	g.alpha, g.depth = s.alpha, s.depth
	g.temps, g.after, g.shapes = nil, nil, nil
}

// rerun executes the program again from scratch, recording the subscripts'
// ranges and which temporaries need an initial value, and reports whether
// it is acceptable (see program).
func (g *gen) rerun() bool {
	g.count = 0
	for _, a := range g.arrays {
		a.seen = false
		clear(a.lo)
		clear(a.hi)
	}
	for _, t := range g.temps {
		t.written, t.init = false, false
	}
	for _, s := range g.stmts {
		s.runs = 0
	}
	env := g.size
	if !g.exec(g.body, &env) {
		return false
	}
	for _, s := range g.stmts {
		if s.runs == 0 {
			return false
		}
	}
	for _, s := range g.after {
		g.touch(s)
	}
	return true
}

// touch records what statement s, executed, does to the temporaries: a
// read of one not yet written needs an initial value.
func (g *gen) touch(s *stmt) {
	for _, a := range s.reads {
		if a.arr.rank() == 0 && !a.arr.written {
			a.arr.init = true
		}
	}
	if t := s.lhs.arr; t.rank() == 0 {
		t.init = t.init || s.op != "=" && !t.written
		t.written = true
	}
}

// place puts the statements of a live range into a loop L: first at the
// start of its body, last at its end. L is one of the program's loops or
// the innermost loop of a new nest at a random place of the top level.
// The statements are drawn at L's body's depth, which place passes to
// draw; it returns the top-level index of the nest holding L.
func (g *gen) place(draw func(dep int) (first, last []node)) int {
	var loops []*loop
	walk(g.body, func(n node) {
		if l, ok := n.(*loop); ok {
			loops = append(loops, l)
		}
	})
	if len(loops) > 0 && g.r.IntN(2) == 0 {
		l := loops[g.r.IntN(len(loops))]
		first, last := draw(l.level + 1)
		l.body = slices.Concat(first, l.body, last)
		return slices.IndexFunc(g.body, func(n node) bool { return contains(n, l) })
	}
	level := pick(g.r, []int{0, 1, 2}, []int{3, 2, 1}[:g.cfg.MaxDepth])
	first, last := draw(level + 1)
	var nest node
	body := slices.Concat(first, last)
	for lv := level; lv >= 0; lv-- {
		l := g.loop(lv)
		l.body = body
		body, nest = []node{l}, l
	}
	top := g.r.IntN(len(g.body) + 1)
	g.body = slices.Insert(g.body, top, nest)
	return top
}

// contains reports whether node n is l or holds it.
func contains(n node, l *loop) bool {
	found := false
	walk([]node{n}, func(m node) { found = found || m == l })
	return found
}

// rangeNodes returns the drawer, for place, of a plain live range of t:
// the kill and an accumulation first, the store last.
func (g *gen) rangeNodes(t *array) func(dep int) (first, last []node) {
	return func(dep int) (first, last []node) {
		head, store := g.liveRange(t, dep)
		return head, []node{store}
	}
}

// liveRange returns the statements of a live range of t at depth dep:
// those of liveHead and the store.
func (g *gen) liveRange(t *array, dep int) (head []node, store *stmt) {
	head = g.liveHead(t, dep)
	return head, g.store(t, dep)
}

// liveHead returns the kill of t at depth dep and an accumulation into t
// in a loop inside (or next to the kill, or none).
func (g *gen) liveHead(t *array, dep int) []node {
	head := []node{g.kill(t, dep)}
	switch {
	case dep < g.cfg.MaxDepth && g.r.IntN(3) != 0:
		l := g.loop(dep)
		l.body = []node{g.accumulate(t, dep+1)}
		head = append(head, l)
	case g.r.IntN(2) == 0:
		head = append(head, g.accumulate(t, dep))
	}
	return head
}

// kill returns t = e at depth dep, e not reading t.
func (g *gen) kill(t *array, dep int) *stmt {
	s := &stmt{lhs: g.access(t, nil), op: "="}
	switch {
	case t.isInt:
		s.rhs = g.intExpr(s, dep, 1+g.r.IntN(2))
	case g.r.IntN(3) == 0:
		s.rhs = constExpr("0.0")
	default:
		s.rhs = g.doubleExpr(s, dep, 1+g.r.IntN(2))
	}
	return g.add(s, dep)
}

// accumulate returns t += e at depth dep (for an int t, t = t + e, reduced).
func (g *gen) accumulate(t *array, dep int) *stmt {
	s := &stmt{lhs: g.access(t, nil)}
	if t.isInt {
		s.op = "="
		s.rhs = &binExpr{'+', g.readTemp(s, t), g.intExpr(s, dep, 1+g.r.IntN(2))}
		return g.add(s, dep)
	}
	s.op = pick(g.r, []string{"+=", "-=", "*="}, []int{6, 2, 1})
	s.rhs = g.doubleExpr(s, dep, 1+g.r.IntN(2))
	return g.add(s, dep)
}

// store returns a statement at depth dep writing a value computed from t
// to an array of t's type.
func (g *gen) store(t *array, dep int) *stmt {
	var cands []*array
	for _, a := range g.arrays {
		if a.isInt == t.isInt {
			cands = append(cands, a)
		}
	}
	arr := cands[g.r.IntN(len(cands))]
	s := &stmt{lhs: g.access(arr, g.lhsIndex(arr.rank(), dep))}
	var tv expr = g.readTemp(s, t)
	if t.isInt {
		s.op = "="
		if g.r.IntN(2) == 0 {
			tv = &binExpr{'+', tv, g.intExpr(s, dep, 1)}
		}
		s.rhs = tv
		return g.add(s, dep)
	}
	s.op = pick(g.r, []string{"=", "+="}, []int{3, 2})
	switch g.r.IntN(5) {
	case 0:
		s.rhs = tv
	case 1:
		s.rhs = &binExpr{'*', scalarExpr("alpha"), tv}
		g.alpha = true
	case 2:
		s.rhs = &binExpr{'*', g.coef(), tv}
	case 3:
		s.rhs = &binExpr{'+', tv, g.doubleExpr(s, dep, 1)}
	default:
		s.rhs = &binExpr{'*', g.doubleExpr(s, dep, 1), tv}
	}
	return g.add(s, dep)
}

// readTemp returns a read of t by s.
func (g *gen) readTemp(s *stmt, t *array) *access {
	a := g.access(t, nil)
	s.reads = append(s.reads, a)
	return a
}

// add records s, a statement at depth dep.
func (g *gen) add(s *stmt, dep int) *stmt {
	g.depth = max(g.depth, dep)
	g.stmts = append(g.stmts, s)
	return s
}

// parallel adds a new nest around a live range whose store writes, at a
// subscript of L's counter, an array the kill and the accumulation do not
// read (where others are left to read).
func (g *gen) parallel(t *array) {
	level := pick(g.r, []int{0, 1, 2}, []int{3, 2, 1}[:g.cfg.MaxDepth])
	dep := level + 1
	var cands, others []*array
	for _, a := range g.arrays {
		if a.isInt == t.isInt {
			cands = append(cands, a)
		}
	}
	arr := cands[g.r.IntN(len(cands))]
	for _, a := range g.arrays {
		if a != arr && (!t.isInt || a.isInt) {
			others = append(others, a)
		}
	}
	all := g.arrays
	if len(others) > 0 {
		g.arrays = others
	}
	head := g.liveHead(t, dep)
	g.arrays = all
	s := &stmt{lhs: g.access(arr, g.lhsIndex(arr.rank(), dep))}
	s.lhs.idx[0] = varAff(level)
	s.op, s.rhs = "=", g.readTemp(s, t)
	if !t.isInt && g.r.IntN(2) == 0 {
		s.rhs = &binExpr{'*', g.coef(), s.rhs}
	}
	body := append(head, g.add(s, dep))
	var nest node
	for lv := level; lv >= 0; lv-- {
		l := g.loop(lv)
		l.body = body
		body, nest = []node{l}, l
	}
	g.body = slices.Insert(g.body, g.r.IntN(len(g.body)+1), nest)
}

// readFirst places a live range whose store comes before the kill.
func (g *gen) readFirst(t *array) {
	g.place(func(dep int) (first, last []node) {
		head, store := g.liveRange(t, dep)
		return append([]node{store}, head...), nil
	})
}

// guardedKill places a live range whose kill runs under an affine
// condition on the counters; the store runs under the same condition, or
// unguarded.
func (g *gen) guardedKill(t *array) {
	g.place(func(dep int) (first, last []node) {
		c := g.cond(dep, true)
		head, store := g.liveRange(t, dep)
		head[0] = &guard{conds: []cond{c}, then: head[0].(*stmt)}
		if g.r.IntN(2) == 0 {
			return head, []node{&guard{conds: []cond{c}, then: store}}
		}
		return head, []node{store}
	})
}

// ifElseKill places a live range killed by both branches of an if.
func (g *gen) ifElseKill(t *array) {
	g.place(func(dep int) (first, last []node) {
		c := g.cond(dep, false)
		head, store := g.liveRange(t, dep)
		head[0] = &guard{conds: []cond{c}, then: head[0].(*stmt), els: g.kill(t, dep)}
		return head, []node{store}
	})
}

// liveOut places a live range and reads t at the top level after its nest.
func (g *gen) liveOut(t *array) {
	top := g.place(g.rangeNodes(t))
	at := top + 1 + g.r.IntN(len(g.body)-top)
	g.body = slices.Insert(g.body, at, node(g.store(t, 0)))
}

// escape places a live range and adds t to an array after the region.
func (g *gen) escape(t *array) {
	g.place(g.rangeNodes(t))
	var cands []*array
	for _, a := range g.arrays {
		if a.isInt == t.isInt && g.used(a) {
			cands = append(cands, a)
		}
	}
	arr := cands[g.r.IntN(len(cands))] // the store's array at least
	s := &stmt{lhs: &access{arr: arr, idx: make([]aff, arr.rank())}, op: "+="}
	s.rhs = &access{arr: t}
	s.reads = []*access{s.rhs.(*access)}
	if t.isInt {
		s.op, s.rhs = "=", &binExpr{'+', &access{arr: arr, idx: s.lhs.idx}, s.rhs}
	}
	g.after = append(g.after, s)
}

// carried places a live range whose store writes, along L's counter, the
// element next to one its kill reads: L carries a dependence through the
// array.
func (g *gen) carried(t *array) {
	g.place(func(dep int) (first, last []node) {
		head, store := g.liveRange(t, dep)
		idx := store.lhs.idx
		idx[0] = varAff(dep - 1)
		for d := 1; d < len(idx); d++ {
			if idx[d].c[dep-1] != 0 { // the read's element would differ
				idx[d] = constAff(g.r.Int64N(3))
			}
		}
		read := slices.Clone(idx)
		read[0] = read[0].addConst(pick(g.r, []int64{-1, 1}, []int{3, 1}))
		kill := head[0].(*stmt)
		a := g.access(store.lhs.arr, read)
		kill.reads = append(kill.reads, a)
		kill.rhs = &binExpr{'+', a, kill.rhs}
		return head, []node{store}
	})
}

// reduce adds t = e, a nest summing into t and a store of t, one after
// the other at a random place of the top level.
func (g *gen) reduce(t *array) {
	kill := g.kill(t, 0)
	level := g.r.IntN(g.cfg.MaxDepth)
	var nest node = g.accumulate(t, level+1)
	for lv := level; lv >= 0; lv-- {
		l := g.loop(lv)
		l.body = []node{nest}
		nest = l
	}
	top := g.r.IntN(len(g.body) + 1)
	g.body = slices.Insert(g.body, top, node(kill), nest, node(g.store(t, 0)))
}

// tempDecl returns the declaration of temporary t.
func tempDecl(t *array) string {
	typ := "double"
	if t.isInt {
		typ = "int"
	}
	if t.init {
		return fmt.Sprintf("%s %s = 0;", typ, t.name)
	}
	return typ + " " + t.name + ";"
}
