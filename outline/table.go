package outline

// The pairwise table
//
// The table holds, for every pair of nodes with one match key, the weight
// of their plain closed anti-unifier T (antiunify.go) and of their
// collision-avoiding one, and under Area the multiplexed input bits of
// each. Nodes are grouped by key first (only nodes of one group can
// match; the maintainers' remark that a nonzero anti-unifier is
// transitive is this grouping), and each group is a dense block.
//
// T is a dynamic program over node pairs in topological order: T(a, b)
// needs T of the candidate pairs of its local step, which are pairs of
// earlier nodes. T counts graph nodes, not positions in the unfolded
// tree: the candidates' cones are disjoint subtrees of the post-dominator
// tree, so no node is counted twice however often it is reused. Most
// nodes' cones are trees (every post-dominator child an operand used
// once), and then the step is a loop over the operands; under Nodes, T
// of two tree cones depends only on their shapes (analysis.shapes), and
// is computed once per pair of shapes. The table is sparse in that only
// pairs within a group exist, and a group whose nodes have nothing below
// the root to match (a flat block: shifts of inputs by constants, say)
// stores nothing; a block of g nodes stores g(g-1)/2 entries per matrix.
//
// Collision avoidance. Closed instances rooted at a and b collide exactly
// when one cone contains the other root, say b in MFFC(a). Then the
// instance of a must not contain b. In the plain pattern, b sits at the
// end of the post-dominator path from a down to b; forbidding b changes
// only the local step of b's immediate post-dominator p (b's tuple goes,
// and with it whatever that step matched only through b), while every
// step above it keeps its candidates and only loses weight below. So the
// collision-avoiding weight is T(a, b) - T(p, q) + T'(p, q), where q is
// p's partner (found by walking the path, one local step per level) and
// T' is the step at p rerun with b forbidden. This equals what
// AntiunifySet computes for the pair. The walk is cut after maxWalk
// levels, where the part below is estimated by the root pair alone: that
// and maxGroup are the two places where the table is not exact.
//
// Incremental update. T(a, b) depends only on the cones of a and b
// (their nodes, uses and keys). Outlining replaces instances by invokes;
// the cones that change are those of the invokes' post-dominator
// ancestors (and of nodes whose operands Canonicalize reorders), so the
// pass recomputes only the pairs with such a node and keeps the rest.

// maxGroup bounds a dense block: a larger group of equal keys is cut into
// blocks of consecutive nodes, and pairs across blocks are taken to match
// at the root only (the table's other approximation; it keeps memory at
// maxGroup² entries per block).
const maxGroup = 2048

// maxWalk bounds the levels the collision-avoiding correction follows
// down the post-dominator tree.
const maxWalk = 64

// A block is a dense table for one group (or part of one) of nodes with
// one key, holding each pair once (the lower triangle, tri). Members keep
// their slots across the pass's iterations; slots of nodes outlined away
// are dead. A block is flat when no member has an operand in its own cone
// that could be matched: then every pair matches at the root alone, and
// the block keeps no matrices.
type block struct {
	key     int32
	members []*Node
	idx     []int32 // this iteration's node index of each member
	dead    []bool
	flat    bool
	val, ca []int32 // plain and collision-avoiding weight
	mux     []int32 // Area: multiplexed bits of the plain and collision-avoiding
	camux   []int32 // anti-unifiers

	dirty  bool     // pairs or members changed since cands was chosen
	cands  []clique // the choice's candidates (choose.go), by slot
	proven bool     // cands came from a finished exact search
}

func (b *block) g() int { return len(b.members) }

// tri is the position of pair (i, j), i ≠ j, in a block's matrices.
func tri(i, j int32) int32 {
	if i < j {
		i, j = j, i
	}
	return i*(i-1)/2 + j
}

// A table is the pairwise table of one function at one iteration.
type table struct {
	a      *analysis
	area   bool
	blocks []*block
	where  map[*Node][2]int32 // block and slot of each member, kept across iterations
	blk    []int32            // per node: block, or -1
	slot   []int32            // per node: slot in its block
	st     *stepper
	total  int64     // pair entries computed, this and earlier iterations
	memo   [][]int32 // plain weight by pair of shapes (analysis.shape), -1 unknown
}

// newTable computes the table of a from scratch.
func newTable(a *analysis) *table { return buildTable(a, nil, nil) }

// buildTable computes the table of a from scratch (prev nil) or updates
// prev's blocks in place, recomputing the pairs with a node marked in aff
// (which must then be non-nil); new nodes with keys no block has get new
// blocks. A block whose pairs or members change is marked dirty, so that
// its candidates are chosen again.
func buildTable(a *analysis, prev *table, aff []bool) *table {
	t := &table{a: a, area: a.obj == Area}
	n := len(a.nodes)
	t.blk = make([]int32, n)
	t.slot = make([]int32, n)
	t.st = newStepper(a, t)
	eligible := func(i int32) bool { return a.key[i] >= 0 && a.uses[i] > 0 }
	var fresh []*Node
	if prev == nil {
		t.where = map[*Node][2]int32{}
		fresh = a.nodes
	} else {
		t.where, t.blocks, t.total = prev.where, prev.blocks, prev.total
		for _, x := range a.nodes {
			if _, ok := t.where[x]; !ok {
				fresh = append(fresh, x)
			}
		}
	}
	// Group the new nodes by key, in topological order, into blocks of at
	// most maxGroup.
	byKey := map[int32][]*Node{}
	var keys []int32
	for _, x := range fresh {
		i := a.index[x]
		if !eligible(i) {
			continue
		}
		k := a.key[i]
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], x)
	}
	for _, k := range keys {
		for ms := byKey[k]; len(ms) > 0; {
			m := min(len(ms), maxGroup)
			t.addBlock(k, ms[:m])
			ms = ms[m:]
		}
	}
	for i := range t.blk {
		t.blk[i] = -1
	}
	for bi, b := range t.blocks {
		flat := true
		for s, x := range b.members {
			i, ok := a.index[x]
			ok = ok && eligible(i)
			if !ok {
				if !b.dead[s] {
					b.dirty = true
				}
				b.dead[s] = true
				b.idx[s] = -1
				continue
			}
			b.idx[s] = i
			t.blk[i], t.slot[i] = int32(bi), int32(s)
			flat = flat && a.flat(i)
			if aff != nil && aff[i] {
				b.dirty = true
			}
		}
		if b.val == nil && !flat {
			// New, or no longer flat: compute all its pairs.
			g := b.g()
			m := g * (g - 1) / 2
			b.val, b.ca = make([]int32, m), make([]int32, m)
			if t.area {
				b.mux, b.camux = make([]int32, m), make([]int32, m)
			}
			if aff != nil {
				for _, i := range b.idx {
					if i >= 0 {
						aff[i] = true
					}
				}
			}
			b.dirty = true
		}
		b.flat = b.val == nil
	}
	t.fill(aff)
	return t
}

func (t *table) addBlock(k int32, ms []*Node) *block {
	g := len(ms)
	b := &block{key: k, members: ms, idx: make([]int32, g), dead: make([]bool, g), dirty: true}
	bi := int32(len(t.blocks))
	t.blocks = append(t.blocks, b)
	for s, x := range ms {
		t.where[x] = [2]int32{bi, int32(s)}
	}
	return b
}

// fill computes the pairs in topological order of their later node: all
// pairs when aff is nil, else the pairs with a node marked in aff.
func (t *table) fill(aff []bool) {
	a := t.a
	// Affected slots of each block, in slot order.
	var affSlots [][]int32
	if aff != nil {
		affSlots = make([][]int32, len(t.blocks))
		for i := range a.nodes {
			if aff[i] && t.blk[i] >= 0 {
				affSlots[t.blk[i]] = append(affSlots[t.blk[i]], int32(i))
			}
		}
	}
	for i := range a.nodes {
		x := int32(i)
		bi := t.blk[x]
		if bi < 0 || t.blocks[bi].flat {
			continue
		}
		b := t.blocks[bi]
		sx := t.slot[x]
		if aff == nil || aff[x] {
			for sy, y := range b.idx[:sx] {
				if y >= 0 {
					t.set(b, x, y, sx, int32(sy))
				}
			}
			continue
		}
		for _, y := range affSlots[bi] {
			if y >= x {
				break
			}
			t.set(b, x, y, sx, t.slot[y])
		}
	}
}

// set computes the entries of pair (x, y), x after y.
func (t *table) set(b *block, x, y, sx, sy int32) {
	k := tri(sx, sy)
	v, m := t.compute(x, y)
	b.val[k] = v
	if t.area {
		b.mux[k] = m
	}
	cv, cm := v, m
	switch {
	case t.a.inCone(y, x):
		cv, cm = t.walk(x, y)
	case t.a.inCone(x, y):
		cv, cm = t.walk(y, x)
	}
	b.ca[k] = cv
	if t.area {
		b.camux[k] = cm
	}
	t.total++
}

// compute is the plain closed anti-unifier of (x, y): the local step, or
// its special case when either cone is a tree of operands used once.
func (t *table) compute(x, y int32) (val, mux int32) {
	a := t.a
	if sx, sy := a.shape[x], a.shape[y]; sx >= 0 && sy >= 0 {
		if t.memo == nil {
			t.memo = make([][]int32, a.nShapes)
		}
		row := t.memo[sx]
		if row == nil {
			row = make([]int32, a.nShapes)
			for i := range row {
				row[i] = -1
			}
			t.memo[sx] = row
		}
		if v := row[sy]; v >= 0 {
			return v, 0
		}
		v, _ := t.computePair(x, y)
		row[sy] = v
		return v, 0
	}
	return t.computePair(x, y)
}

func (t *table) computePair(x, y int32) (val, mux int32) {
	a := t.a
	if !a.tree[x] && !a.tree[y] {
		t.st.run([]int32{x, y})
		v, m := t.st.value()
		return clamp(v), clamp(m)
	}
	if !a.litMatch([]int32{x, y}) {
		return 0, 0
	}
	sw := a.comm2[x] && t.st.orient(x, y)
	v := int64(a.w[x])
	var m int64
	for p := range int(a.opOff[x+1] - a.opOff[x]) {
		c, d := a.opAt(x, p, false), a.opAt(y, p, sw)
		if a.ipdom[c] == x && a.ipdom[d] == y && a.closed[c] && a.closed[d] &&
			a.key[c] == a.key[d] && a.uses[c] == 1 && a.uses[d] == 1 && a.litMatch([]int32{c, d}) {
			v += int64(t.pairVal(c, d))
			if t.area {
				m += int64(t.pairMux(c, d))
			}
			continue
		}
		if t.area && c != d && (a.lit[c] < 0 || a.lit[c] != a.lit[d]) {
			m += int64(a.width[c])
		}
	}
	return clamp(v), clamp(m)
}

func clamp(v int64) int32 { return int32(min(max(v, 0), 1<<30)) }

// walk is the collision-avoiding anti-unifier of (x, y) when y is in
// MFFC(x): see the comment at the top of this file.
func (t *table) walk(x, y int32) (val, mux int32) {
	a, st := t.a, t.st
	tv, tm := int64(t.pairVal(x, y)), int64(t.pairMux(x, y))
	p, q := x, y
	for range maxWalk {
		if a.ipdom[y] == p {
			st.forbid[y] = true
			st.run([]int32{p, q})
			v, m := st.value()
			st.forbid[y] = false
			return clamp(tv - int64(t.pairVal(p, q)) + v), clamp(tm - int64(t.pairMux(p, q)) + m)
		}
		st.run([]int32{p, q})
		next := false
		for c := range st.useCnt {
			if st.alive(c) && a.inCone(y, st.cand[2*c]) {
				p, q = st.cand[2*c], st.cand[2*c+1]
				next = true
				break
			}
		}
		if !next {
			return clamp(tv), clamp(tm) // y is not in x's instance
		}
	}
	return clamp(tv - int64(t.pairVal(p, q)) + int64(a.w[p])), clamp(tm)
}

// pairVal is T(x, y) for two nodes with one key (the root alone in a
// flat block or across blocks; 0 for a node with itself).
func (t *table) pairVal(x, y int32) int32 {
	if x == y {
		return 0
	}
	bx := t.blk[x]
	if bx < 0 || bx != t.blk[y] || t.blocks[bx].flat {
		if !t.a.litMatch([]int32{x, y}) {
			return 0
		}
		return t.a.w[x]
	}
	return t.blocks[bx].val[tri(t.slot[x], t.slot[y])]
}

func (t *table) pairMux(x, y int32) int32 {
	if !t.area || x == y {
		return 0
	}
	bx := t.blk[x]
	if bx < 0 || bx != t.blk[y] || t.blocks[bx].flat {
		a := t.a
		if !a.litMatch([]int32{x, y}) {
			return 0
		}
		sw := a.comm2[x] && t.st.orient(x, y)
		var m int64
		for p := range int(a.opOff[x+1] - a.opOff[x]) {
			c, d := a.opAt(x, p, false), a.opAt(y, p, sw)
			if c != d && (a.lit[c] < 0 || a.lit[c] != a.lit[d]) {
				m += int64(a.width[c])
			}
		}
		return clamp(m)
	}
	return t.blocks[bx].mux[tri(t.slot[x], t.slot[y])]
}

// edge is the weight of the edge between slots sx and sy of block b in
// the graph the choice works on: the collision-avoiding weight, less its
// multiplexed bits under Area.
func (t *table) edge(b *block, sx, sy int) int64 {
	if b.flat {
		x, y := b.idx[sx], b.idx[sy]
		return int64(t.pairVal(x, y)) - int64(t.pairMux(x, y))
	}
	k := tri(int32(sx), int32(sy))
	v := int64(b.ca[k])
	if t.area {
		v -= int64(b.camux[k])
	}
	return v
}

// entry returns all the table's entries for nodes x ≠ y with one key.
func (t *table) entry(x, y int32) (val, ca, mux, camux int32) {
	bx := t.blk[x]
	if bx < 0 || bx != t.blk[y] || t.blocks[bx].flat {
		v, m := t.pairVal(x, y), t.pairMux(x, y)
		return v, v, m, m
	}
	b := t.blocks[bx]
	k := tri(t.slot[x], t.slot[y])
	val, ca = b.val[k], b.ca[k]
	if t.area {
		mux, camux = b.mux[k], b.camux[k]
	}
	return val, ca, mux, camux
}
