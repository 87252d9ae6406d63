package assoc

import (
	"math/bits"
	"sync"
)

// Wildcard matching of canonical expressions against table entries.
//
// A table entry is a pattern: x_i must meet the partial result the
// entry's element i is mapped to, y_j is a wildcard for an expression that
// does not read the partial results (it may read the reduction's
// variables), k a wildcard for one that reads neither (a loop-invariant
// value or a literal), and every other node must meet a node of the same
// operation and type. A wildcard met twice must meet the same expression.
//
// Both sides are canonical (Canon), so most nodes meet positionally. Three
// freedoms remain, because the canonical order of the program's operands
// depends on their names (the wildcards' order in the pattern does not):
//
//   - The operands of a chain that Canon flattens (integer + * & | ^, min
//     and max, && and || that cannot trap) meet in any order, and the
//     last wildcard of a pattern chain may absorb several operands of the
//     program's chain: x + y meets x + a(r) + b(r) with y = a(r) + b(r),
//     x * y * y meets x * a * a * b * b with y = a * b, and a wildcard
//     bound to a chain takes its operands.
//   - The operands of other commutative nodes (float + and *, == and !=)
//     meet in either order.
//   - select(c, a, b) meets select(!c, b, a) where !c is a comparison
//     (integers: !(p < q) is q <= p; every type: == and != swap).
//
// Matching backtracks over these choices with an explicit goal stack and
// a trail of bindings, so that a choice made for one element can be
// revised when a later element needs another; it allocates only to bind a
// wildcard to several chain operands.

// maxElems bounds the elements of an update Recognize accepts (masks of
// elements are uint32).
const maxElems = 16

// maxChain bounds the operands of a chain the matcher permutes (masks of
// operands are uint64).
const maxChain = 64

// pnode is a node of a pattern, with the operands of a chain flattened.
type pnode struct {
	op    Op
	typ   Type
	index int   // x, y, k
	value Value // literal
	args  []*pnode
	chain bool // args are the flattened operands of a chain of op
	// order lists the chain's operands with the wildcards last, wild
	// counts them.
	order []int
	wild  int
}

// snode is a node of the program's canonical update, annotated.
type snode struct {
	e     *Expr
	op    Op
	typ   Type
	index int
	value Value
	args  []*snode
	chain bool
	hasX  bool   // reads some partial result
	vary  bool   // reads a value that is not loop-invariant
	xs    uint32 // the partial results it reads
	neg   *snode // for a comparison: its negation, when exact (nil otherwise)
}

// isChain reports whether Canon flattens chains of e's operation in e's
// type (rewriteChain).
func isChain(e *Expr) bool {
	switch e.Op {
	case OpAdd, OpMul, OpBitAnd, OpBitOr, OpBitXor:
		return e.Type.Integer()
	case OpMin, OpMax:
		return e.Type != Bool
	case OpAnd, OpOr:
		return chainable(e)
	}
	return false
}

// flatten appends the operands of the chain of e's operation rooted at e.
func flatten(e *Expr, out []*Expr) []*Expr {
	for _, a := range e.Args {
		if a.Op == e.Op && a.Type == e.Type && isChain(a) {
			out = flatten(a, out)
		} else {
			out = append(out, a)
		}
	}
	return out
}

func wildcard(op Op) bool { return op == OpY || op == OpK }

// newPattern converts a canonical table element.
func newPattern(e *Expr) *pnode {
	p := &pnode{op: e.Op, typ: e.Type, index: e.Index, value: e.Value}
	args := e.Args
	if isChain(e) {
		p.chain = true
		args = flatten(e, nil)
	}
	p.args = make([]*pnode, len(args))
	for i, a := range args {
		p.args[i] = newPattern(a)
	}
	if p.chain {
		for i, a := range p.args {
			if !wildcard(a.op) {
				p.order = append(p.order, i)
			}
		}
		for i, a := range p.args {
			if wildcard(a.op) {
				p.order = append(p.order, i)
				p.wild++
			}
		}
	}
	return p
}

// subject builds the annotated tree of a canonical expression of the
// program. invariant reports which named values are loop-invariant.
func subject(e *Expr, invariant func(string) bool) *snode {
	s := &snode{e: e, op: e.Op, typ: e.Type, index: e.Index, value: e.Value}
	switch e.Op {
	case OpX:
		s.hasX, s.xs = true, 1<<uint(e.Index)
	case OpVar:
		s.vary = invariant == nil || !invariant(e.Name)
	}
	args := e.Args
	if isChain(e) {
		s.chain = true
		args = flatten(e, nil)
	}
	if len(args) > 0 {
		s.args = make([]*snode, len(args))
	}
	for i, a := range args {
		c := subject(a, invariant)
		s.args[i] = c
		s.hasX = s.hasX || c.hasX
		s.vary = s.vary || c.vary
		s.xs |= c.xs
	}
	if n := negation(e); n != nil {
		s.neg = &snode{e: n, op: n.Op, typ: n.Type, args: []*snode{s.args[0], s.args[1]},
			hasX: s.hasX, vary: s.vary, xs: s.xs}
		if n.Args[0] != e.Args[0] {
			s.neg.args[0], s.neg.args[1] = s.args[1], s.args[0]
		}
	}
	return s
}

// negation returns the comparison equal to !e where that is exact for
// every value (not < and <= of floats: NaN), or nil.
func negation(e *Expr) *Expr {
	if e.Op < OpLT || e.Op > OpNE {
		return nil
	}
	a, b := e.Args[0], e.Args[1]
	switch e.Op {
	case OpEQ:
		return Apply(OpNE, a, b)
	case OpNE:
		return Apply(OpEQ, a, b)
	}
	if a.Type.Float() {
		return nil
	}
	if e.Op == OpLT {
		return Apply(OpLE, b, a)
	}
	return Apply(OpLT, b, a)
}

// goal kinds.
const (
	goalMatch = iota // p meets s
	goalChain        // the chain operands p.args[p.order[i:]] meet the unused operands of s
)

type goal struct {
	kind uint8
	p    *pnode
	s    *snode
	want Type   // the type s must have (differs from p's for a carried element)
	i    int    // goalChain: the next operand in p.order
	used uint64 // goalChain: the operands of s already met
	// absorber is, for goalChain, 1 + the position in p.order of the
	// wildcard that takes every operand left at the end (0: none chosen).
	absorber int
}

// matcher holds the state of one match of an entry against a group of
// elements; it is reused between entries.
type matcher struct {
	// sigma maps the entry's element (and x_i, y_i) to the program's
	// element; elemType gives the program's element types.
	sigma    [maxElems]int
	elemType []Type
	y        [maxElems]*Expr // bindings of y_i
	k        []*Expr         // bindings of k_i
	trail    []int           // bound wildcards, to undo: i for y_i, maxElems+i for k_i
	goals    []goal
}

func (m *matcher) reset(nk int) {
	for i := range m.y {
		m.y[i] = nil
	}
	if cap(m.k) < nk {
		m.k = make([]*Expr, nk)
	}
	m.k = m.k[:nk]
	for i := range m.k {
		m.k[i] = nil
	}
	m.trail = m.trail[:0]
	m.goals = m.goals[:0]
}

func (m *matcher) undo(mark int) {
	for _, w := range m.trail[mark:] {
		if w < maxElems {
			m.y[w] = nil
		} else {
			m.k[w-maxElems] = nil
		}
	}
	m.trail = m.trail[:mark]
}

// bind binds the wildcard p to e (a node of the program, or a chain
// built of some) and reports whether that is consistent.
func (m *matcher) bind(p *pnode, e *Expr, hasX, vary bool) bool {
	if hasX {
		return false
	}
	if p.op == OpY {
		if cur := m.y[p.index]; cur != nil {
			return cur == e || cur.Equal(e)
		}
		m.y[p.index] = e
		m.trail = append(m.trail, p.index)
		return true
	}
	if vary || p.index >= len(m.k) {
		return false
	}
	if cur := m.k[p.index]; cur != nil {
		return cur == e || cur.Equal(e)
	}
	m.k[p.index] = e
	m.trail = append(m.trail, maxElems+p.index)
	return true
}

// solve works the goals m.goals[:n] off, last first, and reports whether
// all are met. On failure it leaves the goals and bindings as it found
// them.
func (m *matcher) solve(n int) bool {
	if n == 0 {
		return true
	}
	g := m.goals[n-1]
	n--
	mark := len(m.trail)
	ok := m.step(g, n)
	if !ok {
		m.undo(mark)
		m.goals[n] = g
	}
	return ok
}

// push sets goal slot i (growing the stack) and returns i+1.
func (m *matcher) push(i int, g goal) int {
	if i < len(m.goals) {
		m.goals[i] = g
	} else {
		m.goals = append(m.goals, g)
	}
	return i + 1
}

func (m *matcher) step(g goal, n int) bool {
	if g.kind == goalChain {
		return m.chainStep(g, n)
	}
	p, s := g.p, g.s
	switch p.op {
	case OpX:
		return s.op == OpX && s.index == m.sigma[p.index] && m.solve(n)
	case OpVar:
		return false // tables hold no named values
	case OpY:
		if s.typ != m.elemType[m.sigma[p.index]] {
			return false
		}
		mark := len(m.trail)
		if !m.bind(p, s.e, s.hasX, s.vary) {
			return false
		}
		if m.solve(n) {
			return true
		}
		m.undo(mark)
		return false
	case OpK:
		if s.typ != g.want {
			return false
		}
		mark := len(m.trail)
		if !m.bind(p, s.e, s.hasX, s.vary) {
			return false
		}
		if m.solve(n) {
			return true
		}
		m.undo(mark)
		return false
	case OpConst:
		return s.op == OpConst && s.typ == g.want && s.value == p.value && m.solve(n)
	}
	if s.op != p.op || s.typ != g.want || s.chain != p.chain {
		return m.unit(g, n)
	}
	if p.chain {
		if len(s.args) < len(p.args) || len(s.args) > len(p.args) && p.wild == 0 || len(s.args) > maxChain {
			return false
		}
		return m.solve(m.push(n, goal{kind: goalChain, p: p, s: s, want: g.want}))
	}
	if len(s.args) != len(p.args) {
		return false
	}
	if p.op == OpSelect {
		// The branches take the select's type, the condition its own.
		top := m.push(n, goal{p: p.args[2], s: s.args[2], want: g.want})
		top = m.push(top, goal{p: p.args[1], s: s.args[1], want: g.want})
		top = m.push(top, goal{p: p.args[0], s: s.args[0], want: p.args[0].typ})
		if m.solve(top) {
			return true
		}
		if c := s.args[0].neg; c != nil {
			top = m.push(n, goal{p: p.args[2], s: s.args[1], want: g.want})
			top = m.push(top, goal{p: p.args[1], s: s.args[2], want: g.want})
			top = m.push(top, goal{p: p.args[0], s: c, want: p.args[0].typ})
			return m.solve(top)
		}
		return false
	}
	top := n
	for i := len(p.args) - 1; i >= 0; i-- {
		top = m.push(top, goal{p: p.args[i], s: s.args[i], want: p.args[i].typ})
	}
	if m.solve(top) {
		return true
	}
	if len(p.args) == 2 && p.op.Commutative() {
		top = m.push(n, goal{p: p.args[0], s: s.args[1], want: p.args[0].typ})
		top = m.push(top, goal{p: p.args[1], s: s.args[0], want: p.args[1].typ})
		if m.solve(top) {
			return true
		}
	}
	return m.unit(g, n)
}

// unit meets a float product y_j * e of the pattern with a node s that
// is e alone, binding y_j to 1: e * 1 is e exactly, in IEEE arithmetic
// too, so the update is still f(x, y) literally (the weight of
// log-sum-exp's y1*exp(y0 - m), 1 for a plain exp(v - m)). Integer
// products are chains, whose units synthesis finds (x + in*x).
func (m *matcher) unit(g goal, n int) bool {
	p, s := g.p, g.s
	if p.op != OpMul || p.chain || len(p.args) != 2 || !g.want.Float() {
		return false
	}
	for i, w := range p.args {
		if w.op != OpY || s.typ != m.elemType[m.sigma[w.index]] {
			continue
		}
		mark := len(m.trail)
		if !m.bind(w, Const(FloatValue(1, s.typ), s.typ), false, false) {
			continue
		}
		if m.solve(m.push(n, goal{p: p.args[1-i], s: s, want: g.want})) {
			return true
		}
		m.undo(mark)
	}
	return false
}

// chainStep meets the pattern chain's operand p.order[g.i] with an unused
// operand of the program's chain, each in turn. A wildcard already bound
// to a chain of the same operation takes its operands; when the operands
// left of the pattern are copies of one wildcard, they share every
// operand left (x * y * y meets x * a * a * b * b with y = a * b).
func (m *matcher) chainStep(g goal, n int) bool {
	p, s := g.p, g.s
	if g.i == len(p.order) {
		if g.absorber > 0 {
			return m.absorb(p.args[p.order[g.absorber-1]], s, g.used, g.want, 1, n)
		}
		return g.used == 1<<uint(len(s.args))-1 && m.solve(n)
	}
	if g.absorber == g.i+1 {
		g.i++ // the absorber comes last
		return m.chainStep(g, n)
	}
	pi := p.args[p.order[g.i]]
	left := len(s.args) - bits.OnesCount64(g.used)
	next := goal{kind: goalChain, p: p, s: s, want: g.want, i: g.i + 1, absorber: g.absorber}
	if wildcard(pi.op) {
		if b := m.bound(pi); b != nil && b.Op == s.op && b.Type == s.typ && isChain(b) {
			used, ok := consume(s, g.used, flatten(b, nil))
			if !ok {
				return false
			}
			next.used = used
			return m.solve(m.push(n, next))
		}
		rest := len(p.order) - g.i // all wildcards: they are ordered last
		copies := 0
		for _, q := range p.order[g.i:] {
			if a := p.args[q]; a.op == pi.op && a.index == pi.index {
				copies++
			}
		}
		if copies == rest && left > copies && g.absorber == 0 {
			return m.absorb(pi, s, g.used, g.want, copies, n)
		}
		if left > rest && g.absorber == 0 {
			// One of the wildcards left takes several operands: each in
			// turn.
			for a := g.i; a < len(p.order); a++ {
				h := g
				h.absorber = a + 1
				if m.solve(m.push(n, h)) {
					return true
				}
			}
			return false
		}
	}
	for j, sj := range s.args {
		if g.used&(1<<uint(j)) != 0 {
			continue
		}
		// A non-wildcard needs a node of its operation (or a leaf of its
		// kind); skip the rest cheaply.
		if !wildcard(pi.op) && sj.op != pi.op {
			continue
		}
		next.used = g.used | 1<<uint(j)
		top := m.push(n, next)
		top = m.push(top, goal{p: pi, s: sj, want: pi.typ})
		if m.solve(top) {
			return true
		}
	}
	return false
}

// bound returns the binding of the wildcard p, or nil.
func (m *matcher) bound(p *pnode) *Expr {
	if p.op == OpY {
		return m.y[p.index]
	}
	if p.index < len(m.k) {
		return m.k[p.index]
	}
	return nil
}

// consume marks, for each of ops, an unused operand of s equal to it.
func consume(s *snode, used uint64, ops []*Expr) (uint64, bool) {
	for _, o := range ops {
		found := false
		for j, sj := range s.args {
			if used&(1<<uint(j)) == 0 && sj.e.Equal(o) {
				used |= 1 << uint(j)
				found = true
				break
			}
		}
		if !found {
			return used, false
		}
	}
	return used, true
}

// absorb binds the wildcard p, the remaining copies operands of the
// pattern's chain, to the chain of the operands of s not in used, which
// must be copies times one multiset (copies = 1: all of them).
func (m *matcher) absorb(p *pnode, s *snode, used uint64, want Type, copies, n int) bool {
	var ops []*Expr
	hasX, vary := false, false
	var taken uint64
	for j, sj := range s.args {
		if used&(1<<uint(j)) != 0 || taken&(1<<uint(j)) != 0 {
			continue
		}
		// Take the run of operands equal to sj: copies must divide it.
		count := 0
		for k := j; k < len(s.args); k++ {
			if used&(1<<uint(k)) == 0 && taken&(1<<uint(k)) == 0 && s.args[k].e.Equal(sj.e) {
				taken |= 1 << uint(k)
				count++
			}
		}
		if count%copies != 0 {
			return false
		}
		for range count / copies {
			ops = append(ops, sj.e)
		}
		hasX = hasX || sj.hasX
		vary = vary || sj.vary
	}
	if hasX || len(ops) == 0 {
		return false
	}
	e := ops[0]
	if len(ops) > 1 {
		e = chain(s.op, s.typ, ops)
	}
	if p.op == OpY && e.Type != m.elemType[m.sigma[p.index]] || p.op == OpK && e.Type != want {
		return false
	}
	mark := len(m.trail)
	if !m.bind(p, e, false, vary) {
		return false
	}
	if m.solve(n) {
		return true
	}
	m.undo(mark)
	return false
}

// An entryIndex is one table entry prepared for matching.
type entryIndex struct {
	entry *Entry
	// pats holds the elements' patterns, built on the first match that
	// reaches the entry (patterns): most entries of a table are never
	// tried by a process, and building them all cost more than the rest
	// of a first Recognize.
	pats    []*pnode
	patOnce sync.Once
	// xcount[p] counts the x leaves of element p: the program's element
	// must have as many (a wildcard never takes an x).
	xcount []int
	// carried[p] reports that element p only carries values: it is a tree
	// of selects whose branches are x_p and y_p, which appear nowhere
	// else. Such an element may be of any type (an argmin's index).
	carried []bool
	nk      int // the k_i it reads: i < nk
}

// tableIndex groups a table's entries by tuple size and the multiset of
// the roots of their elements, in table order.
type tableIndex struct {
	table   *Table
	byKey   map[uint64][]*entryIndex
	all     []*entryIndex // every entry indexed, in table order
	maxSize int
	// layered, for a layered table (tablelazy.go), builds the lists
	// instead of byKey and all.
	layered *layeredIndex
}

// list returns the entries of key, in table order.
func (ix *tableIndex) list(key uint64) []*entryIndex {
	if ix.layered != nil {
		return ix.layered.list(key)
	}
	return ix.byKey[key]
}

// synthCandidates returns, in table order, the entries synthesis may use:
// all of them, or of a layered table those whose elements read no k.
func (ix *tableIndex) synthCandidates() []*entryIndex {
	if ix.layered != nil {
		return ix.layered.withoutK()
	}
	return ix.all
}

var tableIndexes sync.Map // *Table → *tableIndex

// indexOf returns the index of t, built on first use.
func indexOf(t *Table) *tableIndex {
	if ix, ok := tableIndexes.Load(t); ok {
		return ix.(*tableIndex)
	}
	var ix *tableIndex
	if t.layers != nil {
		ix = &tableIndex{table: t, maxSize: t.layers.maxSize, layered: &layeredIndex{layers: t.layers.layers}}
	} else {
		ix = &tableIndex{table: t, byKey: map[uint64][]*entryIndex{}}
		eis := indexEntries(t.Entries)
		// Each key's list is sized by a first count: the index of a big
		// table is a few allocations (fresh memory is most of its cost).
		keys := make([]uint64, len(eis))
		counts := map[uint64]int{}
		var roots [maxElems]Op
		for i := range eis {
			en := eis[i].entry
			n := len(en.Elems)
			for p, e := range en.Elems {
				roots[p] = e.Op
			}
			ix.maxSize = max(ix.maxSize, n)
			keys[i] = rootKey(roots[:n])
			counts[keys[i]]++
		}
		ix.all = make([]*entryIndex, len(eis))
		for i := range eis {
			ei := &eis[i]
			ix.all[i] = ei
			list := ix.byKey[keys[i]]
			if list == nil {
				list = make([]*entryIndex, 0, counts[keys[i]])
			}
			ix.byKey[keys[i]] = append(list, ei)
		}
	}
	v, _ := tableIndexes.LoadOrStore(t, ix)
	return v.(*tableIndex)
}

// indexEntries prepares entries for matching, leaving out those of no
// element or more than maxElems. The entries and their per-element
// counts come from one slice each.
func indexEntries(entries []Entry) []entryIndex {
	n := 0
	for i := range entries {
		if k := len(entries[i].Elems); k > 0 && k <= maxElems {
			n += k
		}
	}
	eis := make([]entryIndex, 0, len(entries))
	xcounts, carried := make([]int, n), make([]bool, n)
	for i := range entries {
		en := &entries[i]
		n := len(en.Elems)
		if n == 0 || n > maxElems {
			continue
		}
		eis = append(eis, entryIndex{entry: en, xcount: xcounts[:n:n], carried: carried[:n:n]})
		ei := &eis[len(eis)-1]
		xcounts, carried = xcounts[n:], carried[n:]
		for p, e := range en.Elems {
			countLeaves(e, &ei.xcount[p], &ei.nk)
			ei.carried[p] = carries(en.Tuple, p)
		}
	}
	return eis
}

// countLeaves adds e's x leaves to xs and raises nk above the index of
// each k it reads.
func countLeaves(e *Expr, xs, nk *int) {
	switch e.Op {
	case OpX:
		*xs++
	case OpK:
		*nk = max(*nk, e.Index+1)
	}
	for _, a := range e.Args {
		countLeaves(a, xs, nk)
	}
}

// patterns returns the patterns of ei's elements, building them once.
func (ei *entryIndex) patterns() []*pnode {
	ei.patOnce.Do(func() {
		for _, e := range ei.entry.Elems {
			if !ei.entry.canonical {
				e = Canon(e) // hand-written entries may not be canonical
			}
			ei.pats = append(ei.pats, newPattern(e))
		}
	})
	return ei.pats
}

// rootKey encodes a tuple size and a multiset of root operations.
func rootKey(roots []Op) uint64 {
	var count [numOps]uint8
	for _, r := range roots {
		count[r]++
	}
	key := uint64(len(roots))
	for op, c := range count {
		for range c {
			key = key*uint64(numOps+1) + uint64(op) + 1
		}
	}
	return key
}

// carries reports whether element p of tp only carries values (see
// entryIndex.carried).
func carries(tp Tuple, p int) bool {
	if op := tp.Elems[p].Op; op != OpSelect && op != OpX && op != OpY {
		return false // the common case, without the closures below
	}
	var branches func(e *Expr) bool
	branches = func(e *Expr) bool {
		switch e.Op {
		case OpX, OpY:
			return e.Index == p
		case OpSelect:
			return branches(e.Args[1]) && branches(e.Args[2])
		}
		return false
	}
	if !branches(tp.Elems[p]) {
		return false
	}
	// x_p and y_p appear only in branches: nowhere in a condition, nor in
	// another element.
	ok := true
	var cond func(e *Expr)
	cond = func(e *Expr) {
		e.Walk(func(x *Expr) bool {
			if (x.Op == OpX || x.Op == OpY) && x.Index == p {
				ok = false
			}
			return ok
		})
	}
	var walk func(e *Expr)
	walk = func(e *Expr) {
		if e.Op == OpSelect {
			cond(e.Args[0])
			walk(e.Args[1])
			walk(e.Args[2])
		}
	}
	walk(tp.Elems[p])
	for q, e := range tp.Elems {
		if q != p {
			cond(e)
		}
	}
	return ok
}
