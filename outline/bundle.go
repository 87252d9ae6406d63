package outline

import (
	"slices"
	"strconv"
)

// Multi-output patterns
//
// An instance has one root, and its other nodes reach the rest of the
// function only through it (closed, antiunify.go). A compare-exchange
//
//	lt = ult(b, a); lo = sel(lt, cases=[a, b]); hi = sel(lt, cases=[b, a])
//
// has two outputs that share lt: neither sel's cone contains lt, and the
// only cone that holds both sels, their common post-dominator's, is the
// whole sorting network. Bundling makes such a group one cone. For a node
// u whose users s1, ..., sm (m ≥ 2) are siblings, it adds the bundle
//
//	t = tuple(s1, ..., sm)
//
// and turns every other use of si into a use of a new tuple_index(t,
// index=i), one per si, which reads it. Now the si are used only by t, so
// u and the si lie in MFFC(t), and the single-output machinery
// anti-unifies t with other bundles unchanged: outlined, a bundle becomes
// an invoke of a function returning the tuple, and its reads read the
// invoke. Unbundling removes the bundles that were not outlined: each of
// their reads is replaced by the element it selects, and the tuple goes,
// so that the function is again what it was where nothing was outlined.
//
// Tuples and tuple_index nodes weigh nothing (weight): a bundle does not
// count in k, and the reads an outlined bundle leaves in the caller cost
// nothing. In the analysis, a bundle matches only other bundles (its
// match key is marked with bundleKeyPrefix), and its reads are never
// matched: they are where the instance's outputs leave it, like the holes
// at its inputs. So a bundle is only ever an instance's root; never a
// node inside a pattern, nor an argument.
//
// The siblings of u are its distinct users, when u has positive weight,
// is not the returned value, and each si is matchable, used (by a node or
// as the returned value), in no other bundle, and used only by nodes that
// come after the last of the si in the function's order. That last rule
// makes the si independent (none reaches another, so t closes no cycle)
// and lets t and its reads go right after the last si without moving any
// node. Nodes are tried in order and each takes part in one bundle at
// most, as u or as a sibling (groups that overlap are not merged: the
// first wins); the si of a bundle are in the function's order. Siblings
// interleaved with their users are not bundled (a topological re-sort
// would lift this).
//
// Outline bundles only when single-output patterns no longer pay, and
// unbundles when nothing more pays while bundled (outline.go): a bundle
// takes its si out of the cones that held them, so the pass first makes
// exactly the single-output choices it would make without bundling.

// bundleKeyPrefix marks the match key of a bundle (no operation name
// contains a colon), so that bundles match only each other.
const bundleKeyPrefix = "bundle: "

// bundles are the bundles added to one function: their tuples, and the
// tuple_index nodes that read them, with the element each selects.
type bundles struct {
	tuples map[*Node]bool
	index  map[*Node]int
}

// tuple reports whether x is the tuple of a bundle of bs (nil: none).
func (bs *bundles) tuple(x *Node) bool { return bs != nil && bs.tuples[x] }

// reads reports whether x reads a bundle of bs (nil: none).
func (bs *bundles) reads(x *Node) bool {
	if bs == nil {
		return false
	}
	_, ok := bs.index[x]
	return ok
}

// bundle adds to f, of package p, a bundle for every node whose users are
// siblings (see above); a is f's analysis. It returns the bundles, nil
// when there are none, and the nodes whose cones changed: the new nodes
// and the users that read a bundle now.
func bundle(p *Package, f *Function, a *analysis) (*bundles, []*Node) {
	n := int32(len(a.nodes))
	taken := make([]bool, n)
	var groups [][]int32
	var sibs []int32
	for u := range n {
		if taken[u] || a.key[u] < 0 || a.w[u] <= 0 || int(a.uses[u]) != len(a.users(u)) {
			continue
		}
		sibs = sibs[:0]
		for _, s := range a.users(u) { // in increasing order
			if len(sibs) == 0 || sibs[len(sibs)-1] != s {
				sibs = append(sibs, s)
			}
		}
		if len(sibs) < 2 || !a.siblings(sibs, taken) {
			continue
		}
		taken[u] = true
		for _, s := range sibs {
			taken[s] = true
		}
		groups = append(groups, slices.Clone(sibs))
	}
	if len(groups) == 0 {
		return nil, nil
	}
	id := maxID(p)
	next := func() int { id++; return id }
	bs := &bundles{tuples: map[*Node]bool{}, index: map[*Node]int{}}
	after := make(map[int32][]*Node, len(groups)) // new nodes, by the node they follow
	var seeds []*Node
	for _, g := range groups {
		last := a.nodes[g[len(g)-1]]
		t := &Node{ID: next(), Op: "tuple", Pos: last.Pos}
		elems := make([]Type, len(g))
		for i, s := range g {
			t.Operands = append(t.Operands, a.nodes[s])
			elems[i] = a.nodes[s].Type
		}
		t.Type = TupleType(elems...)
		bs.tuples[t] = true
		made := []*Node{t}
		for i, s := range g {
			x := a.nodes[s]
			r := &Node{ID: next(), Op: "tuple_index", Type: x.Type, Operands: []*Node{t},
				Attrs: []Attr{{Key: "index", Value: strconv.Itoa(i)}}, Pos: x.Pos}
			bs.index[r] = i
			made = append(made, r)
			for _, y := range a.users(s) {
				user := a.nodes[y]
				for j, o := range user.Operands {
					if o == x {
						user.Operands[j] = r
					}
				}
				seeds = append(seeds, user)
			}
			if f.Ret == x {
				f.Ret = r
			}
		}
		after[g[len(g)-1]] = made
		seeds = append(seeds, made...)
	}
	nodes := make([]*Node, 0, len(f.Nodes)+len(bs.tuples)+len(bs.index))
	for i, x := range f.Nodes {
		nodes = append(nodes, x)
		nodes = append(nodes, after[int32(i)]...)
	}
	f.Nodes = nodes
	return bs, seeds
}

// siblings reports whether sibs, the distinct users of one node in
// increasing order, can be bundled: each is matchable, used, in no other
// bundle (taken), and used only after the last of them.
func (a *analysis) siblings(sibs []int32, taken []bool) bool {
	last := sibs[len(sibs)-1]
	for _, s := range sibs {
		if taken[s] || a.key[s] < 0 || a.uses[s] == 0 {
			return false
		}
		if us := a.users(s); len(us) > 0 && us[0] <= last {
			return false
		}
	}
	return true
}

// unbundle removes from f the bundles of bs that were not outlined: each
// read of one is replaced by the element it selects, and the tuple and its
// reads go. The reads of outlined bundles, which read invokes, stay as
// ordinary tuple_index nodes. It returns the nodes whose cones changed:
// the users given their elements back and the reads that stay.
func unbundle(f *Function, bs *bundles) []*Node {
	elem := map[*Node]*Node{} // read of a remaining bundle -> its element
	for r, i := range bs.index {
		if t := r.Operands[0]; bs.tuples[t] {
			elem[r] = t.Operands[i]
		}
	}
	var seeds []*Node
	nodes := make([]*Node, 0, len(f.Nodes))
	for _, x := range f.Nodes {
		if bs.tuples[x] || elem[x] != nil {
			continue
		}
		changed := bs.reads(x)
		for i, o := range x.Operands {
			if e := elem[o]; e != nil {
				x.Operands[i] = e
				changed = true
			}
		}
		if changed {
			seeds = append(seeds, x)
		}
		nodes = append(nodes, x)
	}
	f.Nodes = nodes
	if e := elem[f.Ret]; e != nil {
		f.Ret = e
	}
	return seeds
}
