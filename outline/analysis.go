package outline

import (
	"math/bits"
)

// sink stands for the function's exit in the post-dominator tree: the
// immediate post-dominator of the returned node, of dead nodes, and of
// every node whose uses reach the exit along disjoint paths.
const sink = -1

// An analysis is a snapshot of one function as dense arrays indexed by a
// node's position in f.Nodes (its topological order), with what
// anti-unification needs: operands, uses, match keys, weights and the
// post-dominator tree.
//
// # Post-dominators and fanout-free cones
//
// Node r post-dominates x when every path from x along uses to the exit
// passes through r. The nodes r post-dominates form r's maximal
// fanout-free cone MFFC(r), the subtree of r in the post-dominator tree:
// the nodes whose values reach the rest of the function only through r.
// Two such cones are nested or disjoint. An outlined instance rooted at r
// must lie inside MFFC(r), because its nodes other than r disappear from
// the caller and so may have no other uses; the anti-unifier is built cone
// by cone along this tree (antiunify.go).
type analysis struct {
	f   *Function
	obj Objective
	// reuse, under Area, prices sets whose pattern is the body of a
	// function outlined before (saving); nil elsewhere.
	reuse *reuser
	nodes []*Node
	index map[*Node]int32

	opOff, opIdx   []int32 // operands of i: opIdx[opOff[i]:opOff[i+1]]
	useOff, useIdx []int32 // users of i, once per use: useIdx[useOff[i]:useOff[i+1]]
	uses           []int32 // number of uses, +1 for the returned node (the exit uses it)

	key   []int32 // match key id (keys.go); -1 when the node is never matched
	lit   []int32 // literal label id; -1 when not a literal
	w     []int32 // weight under obj
	litOp []bool  // Area: the area depends on which operands are literals (see litMatch)
	width []int32 // flat bits of the node's type
	comm2 []bool  // commutative with two operands: the anti-unifier may swap them

	ipdom     []int32 // immediate post-dominator, or sink
	kidOff    []int32 // post-dominator tree children: kidIdx[kidOff[i]:kidOff[i+1]]
	kidIdx    []int32
	tin, tout []int32 // preorder interval in the post-dominator tree
	closed    []bool  // may be a non-root node of an instance (see below)
	tree      []bool  // every post-dominator child is an operand used once
	shape     []int32 // Nodes: the shape of a tree cone (see shapes), or -1
	nShapes   int
	byKey     map[int32][]int32    // the nodes of each key (keyGroup)
	byOpKey   map[[2]int32][]int32 // the nodes of each key and operand key (operandGroup)
}

// maxShapes bounds the distinct shapes the table memoizes pairs of (the
// memo holds up to maxShapes² entries).
const maxShapes = 2048

// keyTable interns match keys and literal labels; a pass keeps one across
// its iterations so that key ids, and with them table groups, are stable.
type keyTable struct {
	ids   map[string]int32
	names []string
	// fixed are the functions whose invokes are never matched (see
	// fixedCallees).
	fixed map[string]bool
}

func newKeyTable() *keyTable { return &keyTable{ids: map[string]int32{}} }

// idBytes is id(string(b)), without allocating when b is known.
func (k *keyTable) idBytes(b []byte) int32 {
	if id, ok := k.ids[string(b)]; ok {
		return id
	}
	return k.id(string(b))
}

func (k *keyTable) id(s string) int32 {
	if id, ok := k.ids[s]; ok {
		return id
	}
	id := int32(len(k.names))
	k.ids[s] = id
	k.names = append(k.names, s)
	return id
}

// matchKey is what two nodes must share to be matched: the Label
// (operation, type, attributes) and the operand types. Two nodes with one
// Label may still differ in their operands' types (a bit_slice of a
// bits[32] and of a bits[16] value); one function cannot take both.
func matchKey(n *Node) string { return string(appendMatchKey(nil, n)) }

// appendMatchKey appends matchKey(n) to b.
func appendMatchKey(b []byte, n *Node) []byte {
	b = n.appendLabel(b)
	b = append(b, " |"...)
	for _, o := range n.Operands {
		b = append(b, ' ')
		b = o.Type.appendTo(b)
	}
	return b
}

// analyze builds the analysis of f under objective obj, interning keys in
// keys (a fresh table when nil). bs lists the bundles f holds (nil when
// none): their tuples match only each other, and the tuple_index nodes
// that read them are never matched (bundle.go).
func analyze(f *Function, obj Objective, keys *keyTable, bs *bundles) *analysis {
	if keys == nil {
		keys = newKeyTable()
	}
	n := len(f.Nodes)
	a := &analysis{f: f, obj: obj, nodes: f.Nodes, index: make(map[*Node]int32, n)}
	for i, x := range f.Nodes {
		a.index[x] = int32(i)
		x.at = int32(i)
	}
	a.opOff = make([]int32, n+1)
	a.uses = make([]int32, n)
	a.key = make([]int32, n)
	a.lit = make([]int32, n)
	a.w = make([]int32, n)
	a.litOp = make([]bool, n)
	a.width = make([]int32, n)
	a.comm2 = make([]bool, n)
	lits := map[string]int32{}
	var buf []byte
	nops := 0
	for _, x := range f.Nodes {
		nops += len(x.Operands)
	}
	a.opIdx = make([]int32, 0, nops)
	for i, x := range f.Nodes {
		a.opOff[i+1] = a.opOff[i] + int32(len(x.Operands))
		for _, o := range x.Operands {
			j := o.at // f's nodes are in order: o is f.Nodes[o.at] (Check)
			if int(j) >= i || f.Nodes[j] != o {
				j = a.index[o]
			}
			a.opIdx = append(a.opIdx, j)
			a.uses[j]++
		}
		a.key[i], a.lit[i] = -1, -1
		switch {
		case x.Op == "literal":
			buf = x.appendLabel(buf[:0])
			id, ok := lits[string(buf)]
			if !ok {
				id = int32(len(lits))
				lits[string(buf)] = id
			}
			a.lit[i] = id
		case bs.reads(x):
		case bs.tuple(x):
			a.key[i] = keys.id(bundleKeyPrefix + matchKey(x))
		case x.Op == "invoke" && keys.fixed[calleeName(x)]:
		case matchable(x) && !(obj == Area && x.Op == "invoke"):
			// Under Area a pattern never contains a call: moving a call
			// into a new function would change its callee's call sites,
			// and with them the callee's multiplexers (Cost), which the
			// saving of the new pattern does not account for.
			buf = appendMatchKey(buf[:0], x)
			a.key[i] = keys.idBytes(buf)
		}
		a.w[i] = int32(min(weight(x, obj), 1<<20))
		a.litOp[i] = obj == Area && literalDependent[x.Op]
		a.width[i] = int32(x.Type.FlatBits())
		a.comm2[i] = Commutative(x.Op) && len(x.Operands) == 2
	}
	// Users, once per use, in increasing order.
	a.useOff = make([]int32, n+1)
	for i := range n {
		a.useOff[i+1] = a.useOff[i] + a.uses[i]
	}
	a.useIdx = make([]int32, len(a.opIdx))
	fill := append([]int32(nil), a.useOff[:n]...)
	for i := range n {
		for _, o := range a.opIdx[a.opOff[i]:a.opOff[i+1]] {
			a.useIdx[fill[o]] = int32(i)
			fill[o]++
		}
	}
	if r, ok := a.index[f.Ret]; ok {
		a.uses[r]++
	}
	a.postDominators()
	a.shapes()
	return a
}

// shapes gives each node whose whole cone is a tree of operands used
// once, under Nodes, a shape: its key and, for each operand that a local
// step could match, that operand's shape (the others are holes). The
// plain anti-unifier of two such nodes depends only on their shapes,
// which lets the table compute it once per pair of shapes.
func (a *analysis) shapes() {
	n := len(a.nodes)
	a.shape = make([]int32, n)
	ids := map[string]int32{}
	var buf []byte
	for i := range n {
		a.shape[i] = -1
		if a.obj != Nodes || a.key[i] < 0 || !a.tree[i] {
			continue
		}
		buf = appendInt32(buf[:0], a.key[i])
		ok := true
		for _, c := range a.ops(int32(i)) {
			sc := int32(-1)
			if a.ipdom[c] == int32(i) && a.closed[c] && a.uses[c] == 1 {
				if sc = a.shape[c]; sc < 0 {
					ok = false
					break
				}
			}
			buf = appendInt32(buf, sc)
		}
		if !ok {
			continue
		}
		id, seen := ids[string(buf)]
		if !seen {
			id = int32(len(ids))
			ids[string(buf)] = id
		}
		a.shape[i] = id
	}
	a.nShapes = len(ids)
	if a.nShapes > maxShapes {
		for i := range a.shape {
			a.shape[i] = -1
		}
	}
}

func appendInt32(b []byte, v int32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func (a *analysis) ops(i int32) []int32   { return a.opIdx[a.opOff[i]:a.opOff[i+1]] }
func (a *analysis) users(i int32) []int32 { return a.useIdx[a.useOff[i]:a.useOff[i+1]] }
func (a *analysis) kids(i int32) []int32  { return a.kidIdx[a.kidOff[i]:a.kidOff[i+1]] }

// inCone reports whether x is in MFFC(r), that is, r post-dominates x or
// is x.
func (a *analysis) inCone(x, r int32) bool {
	return a.tin[r] <= a.tin[x] && a.tin[x] <= a.tout[r]
}

// postDominators computes ipdom, the tree's preorder intervals and the
// closed and tree flags.
//
// Since every user comes after its operands, a node's immediate
// post-dominator is the nearest common ancestor of its users in the tree
// built so far (Cooper, Harvey and Kennedy's observation), found by
// binary lifting (lifting) in O(log n) steps. The returned node is
// used by the exit, so its post-dominator is the sink, as is that of a
// node without users.
//
// A node may be a non-root node of an instance only when it is closed:
// each of its users is either its immediate post-dominator p or another
// node whose immediate post-dominator is p. Then all its uses lie in the
// part of the cone of p that the anti-unifier decides in one step (the
// local step of p), and the step can check that every use is matched
// consistently. A node used from deeper inside a sibling's cone is not
// closed and stays an input of any pattern: this keeps the cone by cone
// construction exact at the price of missing such shapes.
func (a *analysis) postDominators() {
	n := int32(len(a.nodes))
	a.ipdom = make([]int32, n)
	ret, hasRet := a.index[a.f.Ret]
	lca := newLifting(n)
	for i := n - 1; i >= 0; i-- {
		us := a.users(i)
		p := lca.root
		if !(hasRet && i == ret) && len(us) > 0 {
			p = us[0]
			for _, u := range us[1:] {
				p = lca.lca(p, u)
			}
		}
		lca.set(i, p)
		a.ipdom[i] = p
		if p == lca.root {
			a.ipdom[i] = sink
		}
	}
	// Children lists and preorder intervals (iteratively: the tree can be
	// as deep as the function is long).
	a.kidOff = make([]int32, n+2)
	for i := range n {
		a.kidOff[a.ipdom[i]+2]++
	}
	for i := int32(1); i < n+2; i++ {
		a.kidOff[i] += a.kidOff[i-1]
	}
	kids := make([]int32, n)
	fill := append([]int32(nil), a.kidOff[:n+1]...)
	for i := range n {
		p := a.ipdom[i] + 1
		kids[fill[p]] = i
		fill[p]++
	}
	// kidOff is indexed by parent+1 (the sink is -1); re-base it so that
	// kids(i) works for real nodes and roots are kidIdx[0:kidOff0].
	roots := kids[a.kidOff[0]:a.kidOff[1]]
	a.kidIdx = kids
	off := a.kidOff[1:]
	a.kidOff = off
	a.tin = make([]int32, n)
	a.tout = make([]int32, n)
	clock := int32(0)
	type frame struct{ node, next int32 }
	var stack []frame
	for _, r := range roots {
		stack = append(stack[:0], frame{r, 0})
		a.tin[r] = clock
		clock++
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			ks := a.kids(top.node)
			if int(top.next) < len(ks) {
				c := ks[top.next]
				top.next++
				a.tin[c] = clock
				clock++
				stack = append(stack, frame{c, 0})
				continue
			}
			a.tout[top.node] = clock - 1
			stack = stack[:len(stack)-1]
		}
	}
	a.closed = make([]bool, n)
	a.tree = make([]bool, n)
	for i := range n {
		p := a.ipdom[i]
		ok := p != sink && a.key[i] >= 0
		for _, u := range a.users(i) {
			if u != p && a.ipdom[u] != p {
				ok = false
				break
			}
		}
		a.closed[i] = ok
		t := true
		for _, c := range a.kids(i) {
			if a.uses[c] != 1 {
				t = false
				break
			}
		}
		a.tree[i] = t
	}
}

// A lifting answers nearest-common-ancestor questions on a tree built
// leaves last (each node's parent is set before the node is asked
// about), by binary lifting: up[k][x] is x's 2^k-th ancestor, so that a
// question takes O(log n) steps however deep the tree (a post-dominator
// tree can be as deep as the function is long). The root, n, stands for
// the sink.
type lifting struct {
	root  int32
	depth []int32
	up    [][]int32
}

func newLifting(n int32) *lifting {
	l := &lifting{root: n, depth: make([]int32, n+1)}
	for range bits.Len32(uint32(n)) + 1 {
		row := make([]int32, n+1)
		row[n] = n
		l.up = append(l.up, row)
	}
	return l
}

// set makes p the parent of x.
func (l *lifting) set(x, p int32) {
	l.depth[x] = l.depth[p] + 1
	l.up[0][x] = p
	for k := 1; k < len(l.up); k++ {
		l.up[k][x] = l.up[k-1][l.up[k-1][x]]
	}
}

// lca is the nearest common ancestor of x and y (either, if it is an
// ancestor of the other).
func (l *lifting) lca(x, y int32) int32 {
	if l.depth[x] < l.depth[y] {
		x, y = y, x
	}
	for k := len(l.up) - 1; k >= 0; k-- {
		if l.depth[x]-int32(1)<<k >= l.depth[y] {
			x = l.up[k][x]
		}
	}
	if x == y {
		return x
	}
	for k := len(l.up) - 1; k >= 0; k-- {
		if l.up[k][x] != l.up[k][y] {
			x, y = l.up[k][x], l.up[k][y]
		}
	}
	return l.up[0][x]
}

// flat reports whether no operand of x is in x's own cone and closed: then
// no local step from x finds a candidate, and x matches any node of its
// key at the root alone.
func (a *analysis) flat(x int32) bool {
	for _, c := range a.ops(x) {
		if a.ipdom[c] == x && a.closed[c] {
			return false
		}
	}
	return true
}

// litMatch reports whether the nodes of tuple x may be matched as far as
// their literal operands go. Under Area, an operation whose area depends
// on whether an operand is a literal (a shift by a constant is wiring, by
// a variable a barrel shifter) matches only when at each operand position
// either every node has the same literal or none has a literal: otherwise
// the pattern would take the constants as a parameter and cost more than
// the instances it replaces.
func (a *analysis) litMatch(x []int32) bool {
	x0 := x[0]
	if !a.litOp[x0] {
		return true
	}
	for p, o := range a.ops(x0) {
		for _, xi := range x[1:] {
			if a.lit[a.opAt(xi, p, false)] != a.lit[o] {
				return false
			}
		}
	}
	return true
}

// opAt is operand p of node x, with the two operands of a commutative
// node exchanged when swap is set.
func (a *analysis) opAt(x int32, p int, swap bool) int32 {
	if swap {
		p = 1 - p
	}
	return a.opIdx[int(a.opOff[x])+p]
}
