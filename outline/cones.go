package outline

import "slices"

// The cone miner finds instance sets that repeat exactly, as DAGs, in
// time near linear in the size of the function. It complements the
// pairwise table (table.go), which anti-unifies instances that differ but
// is quadratic in the size of a group of equal keys and matches a node
// used twice inside an instance only when both uses are decided in one
// local step (analysis.closed): a motif in which a node feeds two nodes
// of the motif that lie at different depths (internal fan-out) is found
// by the table only in parts.
//
// # Candidates by hashing bounded-depth shapes
//
// For every matchable node x and depth d = 0, 1, ..., maxConeDepth, the
// shape hash h_d(x) combines x's match key with, at each operand
// position, h_{d-1} of the operand when the operand is matchable and x is
// its immediate post-dominator (the operand's value reaches the rest of
// the function only through x), or a hole mark (the two operands of a
// commutative node in either order). It hashes the part of x's
// post-dominator subtree within depth d, and u_d(x) is that part's
// weight. Nodes with equal h_d form a bucket; buckets are taken in
// decreasing order of (|B|-1)·u_d, each set of roots once, and the first
// maxConeVerify (maxConeVerifyBatch in batches) are anti-unified whole.
//
// # Anti-unification of DAG cones
//
// dagMatch anti-unifies the roots of a bucket top down: a tuple of
// nodes, one per instance, is a pattern node; at each operand position
// the operands form a candidate tuple when they have one key and one
// number of uses, are distinct, lie in their instance root's fanout-free
// cone (analysis.go), and are neither a root (collision avoidance) nor
// the function's result. A node met again at the same place in every
// instance is the same tuple (sharing, internal fan-out: a node used by
// two nodes of the motif at different depths); a node met with other
// partners discards both tuples (conflict). Then, as in the table's
// local step but over the whole cone at once, a greatest fixpoint
// discards every tuple with a conflict or with a use that is not a
// pattern edge, and every tuple used by a discarded one: what survives is
// consistent and closed, so the instances are disjoint and outlining
// removes exactly their nodes. build (antiunify.go) makes the Match
// (equal literals kept, holes with the same argument in every instance
// one parameter), and the pass checks it (checkMatch) before it
// outlines. A bucket is anti-unified whole: one instance that differs
// shrinks the pattern (the pairwise table finds subsets, where it runs).
//
// # Batches
//
// In a function too large for the table, the pass outlines many sets per
// analysis, whose nodes must be disjoint (disjointSets). Sets overlap:
// a 3-node shape with 50 roots often has one root inside each copy of a
// 12-node motif. Taken greedily by saving and dropped on any overlap,
// the small pattern would pre-empt the motif for good; so a set that
// meets nodes taken before is trimmed of the instances that do, and a
// larger pattern that overlaps the next set goes before it when that
// saves more in the two together.

// Limits of the cone miner.
const (
	// maxConeDepth bounds the depth of the cones hashed and verified.
	maxConeDepth = 16
	// maxConeNodes bounds the nodes of one cone under verification.
	maxConeNodes = 512
	// maxConeVerify bounds the buckets verified per iteration, and
	// maxConeVerifyBatch when the pass outlines a batch of disjoint sets
	// (large functions, where the table does not run): there the few
	// copies of a motif rank below hundreds of buckets of small shapes
	// with many roots (a 9-node motif with 12 copies in 100,000 nodes
	// ranks about 300th of 1,100), so nearly all are verified.
	maxConeVerify      = 256
	maxConeVerifyBatch = 4096
	// maxPairedRoots bounds the buckets whose roots are anti-unified in
	// pairs with a reference to find subsets (subsets), and
	// maxThresholds the subsets tried per reference.
	maxPairedRoots = 4096
	maxThresholds  = 3
	// orientDepth is the depth of the shape hashes that orient the
	// operands of a commutative node when their keys do not.
	orientDepth = 3
	// maxRefs bounds the classes of deeper shapes whose first root is a
	// reference of subsets.
	maxRefs = 3
	// refDepth is how much deeper than its bucket the shape hash is that
	// picks a bucket's typical root (subsets).
	refDepth = 2
)

// coneHashes computes h_d and u_d for every node and depth (see above);
// h[d][x] is 0 when x is not matchable.
func (a *analysis) coneHashes() (h [][]uint64, u [][]int32) {
	n := len(a.nodes)
	h = make([][]uint64, maxConeDepth+1)
	u = make([][]int32, maxConeDepth+1)
	for d := range h {
		h[d] = make([]uint64, n)
		u[d] = make([]int32, n)
		for x := range n {
			if a.key[x] < 0 {
				continue
			}
			v := mix(uint64(a.key[x]) + 0x100)
			w := a.w[x]
			var oh [2]uint64
			for i, o := range a.ops(int32(x)) {
				c := uint64(0x5bd1e995)
				if d > 0 && a.key[o] >= 0 && a.ipdom[o] == int32(x) {
					c = h[d-1][o]
					w += u[d-1][o]
				}
				if a.comm2[x] {
					oh[i] = c
				} else {
					v = mix(v ^ c)
				}
			}
			if a.comm2[x] { // either order
				v = mix(mix(v^min(oh[0], oh[1])) ^ max(oh[0], oh[1]))
			}
			h[d][x] = v | 1
			u[d][x] = min(w, 1<<24)
		}
	}
	return h, u
}

// mix is splitmix64's finalizer.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// A coneBucket is a set of roots with one shape hash at one depth.
type coneBucket struct {
	depth int
	roots []int32
	bound int64 // (len(roots)-1)·u_depth
}

// A scored set is a verified instance set and what it saves.
type scored struct {
	m *Match
	s int64
}

// coneChoice returns the verified instance sets of the analysed function
// (see above) that save more than best under opt's objective with at
// least opt.minSize operations, best first: only the best when batch is
// not set, else every one whose nodes are disjoint from those of the
// sets before it, so that the pass can outline them all before it
// analyses the function again. work counts the nodes visited.
func (a *analysis) coneChoice(opt Options, best int64, rep *Report, work *int64, batch bool) []*Match {
	h, u := a.coneHashes()
	*work += int64(len(a.nodes)) * (maxConeDepth + 1)
	minK := int32(opt.minSize())
	var buckets []coneBucket
	seen := map[uint64]bool{} // root sets already taken, by hash
	for d := 1; d <= maxConeDepth; d++ {
		groups := map[uint64][]int32{}
		for x := range a.nodes {
			// A depth that adds nothing to x's shape repeats the bucket
			// of the depth before.
			// Batches (large functions) skip shapes lighter than the
			// least pattern; elsewhere they are kept, since the
			// anti-unifier of a bucket may be larger than its shape (a
			// node shared at two depths is outside the shape).
			if h[d][x] == 0 || u[d][x] == u[d-1][x] || a.uses[x] == 0 || batch && u[d][x] < minK {
				continue
			}
			groups[h[d][x]] = append(groups[h[d][x]], int32(x))
		}
		for _, g := range groups {
			if len(g) < 2 {
				continue
			}
			id := uint64(len(g))
			for _, r := range g {
				id = mix(id ^ uint64(r))
			}
			if !seen[id] {
				seen[id] = true
				buckets = append(buckets, coneBucket{d, g, int64(len(g)-1) * int64(u[d][g[0]])})
			}
		}
	}
	slices.SortFunc(buckets, func(x, y coneBucket) int {
		if x.bound != y.bound {
			return cmp64(y.bound, x.bound)
		}
		if x.depth != y.depth {
			return x.depth - y.depth
		}
		return int(x.roots[0] - y.roots[0])
	})
	st := newStepper(a, nil)
	st.noSwap, st.swapped, st.shape = true, map[int32]bool{}, h[orientDepth]
	limit := maxConeVerify
	if batch {
		limit = maxConeVerifyBatch
	}
	// Under Nodes the size of a set's anti-unifier gives its saving
	// exactly, so sets are sized first and built (build is the costly
	// part) best first; under Area every set is built.
	type cand struct {
		roots []int32
		est   int64
	}
	var cands []cand
	for i, b := range buckets {
		if i >= limit {
			break
		}
		for _, roots := range a.subsets(b.roots, h[min(b.depth+refDepth, maxConeDepth)], st, work) {
			est := int64(1) << 62
			if opt.Objective == Nodes {
				_, k := a.dagAU(roots, st, work, true)
				if int32(k) < minK {
					continue
				}
				est = int64(len(roots)-1) * int64(k)
			}
			cands = append(cands, cand{roots, est})
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int { return cmp64(y.est, x.est) })
	var found []scored
	// A set whose estimate does not beat the best may still do once
	// grown (grow): up to maxGrowTries such sets are verified, while
	// their estimate is at least a quarter of the best.
	tries := 0
	// grow's work per call is bounded in proportion to the function
	// (sets are grown best first).
	growWork, growBudget := int64(0), int64(growPerNode)*int64(len(a.nodes))
	// In a batch under Nodes, inner[x] is the largest pattern of a set
	// found so far that holds x inside an instance, not as its root. A
	// candidate whose roots all lie inside instances of patterns at
	// least as large as its own (the same repeat read from another
	// node, as in a long chain of one period, where every shift of the
	// period is a bucket) would lose every instance to them
	// (disjointSets), so it is not verified; a candidate whose roots are
	// the roots of a smaller pattern's instances (a motif whose top a
	// 3-node shape repeats) is.
	var inner []int32
	if batch && opt.Objective == Nodes {
		inner = make([]int32, len(a.nodes))
	}
	for _, c := range cands {
		if c.est <= best {
			if batch || c.est*4 < best || tries >= maxGrowTries {
				break
			}
			tries++
		}
		if inner != nil {
			k := int32(c.est / int64(len(c.roots)-1))
			if !slices.ContainsFunc(c.roots, func(r int32) bool { return inner[r] < k }) {
				continue
			}
		}
		m := a.dagMatch(c.roots, st, work)
		if m == nil {
			continue
		}
		rep.Verified++
		if m.Size >= int(minK) && growWork < growBudget {
			w0 := *work
			m = a.grow(m, opt.Objective, st, nil, work)
			growWork += *work - w0
		}
		if s := a.saving(m); m.Size >= int(minK) && s > best {
			found = append(found, scored{m, s})
			if !batch {
				best = s
			}
			if inner != nil {
				for _, in := range m.Instances {
					for _, x := range in.Nodes {
						if x != in.Root {
							inner[x.at] = max(inner[x.at], int32(m.Size))
						}
					}
				}
			}
		}
	}
	slices.SortStableFunc(found, func(x, y scored) int { return cmp64(y.s, x.s) })
	if !batch {
		if len(found) == 0 {
			return nil
		}
		return []*Match{found[0].m}
	}
	return a.disjointSets(found, opt, st, work)
}

// disjointSets chooses, among the verified sets found (best first), sets
// whose nodes are disjoint, for one batch. Taking the best set whole and
// dropping every set that shares a node with it would let a small
// pattern with many instances, one of them inside each copy of a larger
// motif, pre-empt the motif for good: once the small pattern is
// outlined, no copy is whole. So a set that shares nodes with those
// taken before it is trimmed instead (trim: it loses the instances that
// clash), and before a set S is taken, each larger pattern T that
// clashes with it is weighed: T goes first when T's saving plus S's
// without the instances that clash with T exceeds S's saving plus T's
// without those that clash with S (savings scaled by the instances
// kept, (n'-1)/(n-1): the sets are trimmed exactly when taken).
func (a *analysis) disjointSets(found []scored, opt Options, st *stepper, work *int64) []*Match {
	// The sets each node is in, larger patterns first: owners of node
	// x (x.at, its index in the analysis) are place[off[x]:off[x+1]].
	type place struct{ set, inst int32 }
	bySize := make([]int32, len(found))
	for i := range bySize {
		bySize[i] = int32(i)
	}
	slices.SortStableFunc(bySize, func(x, y int32) int { return found[y].m.Size - found[x].m.Size })
	off := make([]int32, len(a.nodes)+1)
	for _, f := range found {
		for _, in := range f.m.Instances {
			for _, x := range in.Nodes {
				off[x.at+1]++
			}
		}
	}
	for i := range a.nodes {
		off[i+1] += off[i]
	}
	owners := make([]place, off[len(a.nodes)])
	fill := slices.Clone(off[:len(a.nodes)])
	for _, i := range bySize {
		for j, in := range found[i].m.Instances {
			for _, x := range in.Nodes {
				owners[fill[x.at]] = place{i, int32(j)}
				fill[x.at]++
			}
		}
	}
	// scaled is what set i saves with n of its instances.
	scaled := func(i, n int) int64 {
		if n < 2 {
			return 0
		}
		return found[i].s * int64(n-1) / int64(len(found[i].m.Instances)-1)
	}
	taken := make([]bool, len(a.nodes)) // by x.at
	done := make([]bool, len(found))
	var ms []*Match
	take := func(i int) {
		done[i] = true
		m := a.trim(found[i].m, taken, opt, st, work)
		if m == nil {
			return
		}
		for _, in := range m.Instances {
			for _, x := range in.Nodes {
				taken[x.at] = true
			}
		}
		ms = append(ms, m)
	}
	for i, f := range found {
		if done[i] {
			continue
		}
		// The instances of i and of each larger live set that clash.
		mine := map[int32]map[int32]bool{}   // set -> instances of i it clashes with
		theirs := map[int32]map[int32]bool{} // set -> its instances that clash with i
		for j, in := range f.m.Instances {
			for _, x := range in.Nodes {
				for _, o := range owners[off[x.at]:off[x.at+1]] {
					if found[o.set].m.Size <= f.m.Size {
						break // the rest are no larger
					}
					if done[o.set] {
						continue
					}
					if mine[o.set] == nil {
						mine[o.set], theirs[o.set] = map[int32]bool{}, map[int32]bool{}
					}
					mine[o.set][int32(j)] = true
					theirs[o.set][o.inst] = true
				}
			}
		}
		rivals := make([]int32, 0, len(mine))
		for t := range mine {
			rivals = append(rivals, t)
		}
		slices.SortFunc(rivals, func(x, y int32) int {
			if d := found[y].m.Size - found[x].m.Size; d != 0 {
				return d
			}
			return int(x - y)
		})
		n := len(f.m.Instances)
		for _, t := range rivals {
			nt := len(found[t].m.Instances)
			first := scaled(int(t), nt) + scaled(i, n-len(mine[t]))
			after := scaled(i, n) + scaled(int(t), nt-len(theirs[t]))
			if first > after {
				take(int(t))
			}
		}
		take(i)
	}
	return ms
}

// trim returns m without the instances that hold a node taken (taken
// is indexed by Node.at, the index analyze gives each node): the
// roots of the others anti-unified again (the pattern of fewer instances
// may be larger, so it may meet taken nodes anew, and is trimmed again),
// or nil when fewer than two instances, or too small a pattern, remain.
func (a *analysis) trim(m *Match, taken []bool, opt Options, st *stepper, work *int64) *Match {
	for m != nil {
		var roots []int32
		for _, in := range m.Instances {
			if !slices.ContainsFunc(in.Nodes, func(x *Node) bool { return taken[x.at] }) {
				roots = append(roots, a.index[in.Root])
			}
		}
		if len(roots) == len(m.Instances) {
			break
		}
		if len(roots) < 2 {
			return nil
		}
		m = a.dagMatch(roots, st, work)
	}
	if m == nil || m.Size < opt.minSize() || a.saving(m) <= 0 {
		return nil
	}
	return m
}

// subsets returns the root sets of bucket roots worth anti-unifying:
// the whole bucket, and, since one root that differs shrinks the
// anti-unifier of all, for a reference root (the typical one: the most
// roots share its shape hash deeper, deeper; and the first) and each of
// the largest sizes t of its pair anti-unifiers with the other roots,
// the reference with the roots whose pair reaches t.
func (a *analysis) subsets(roots []int32, deeper []uint64, st *stepper, work *int64) [][]int32 {
	sets := [][]int32{roots}
	if len(roots) < 3 || len(roots) > maxPairedRoots {
		return sets
	}
	// The typical roots: the first of each of the maxRefs classes of
	// deeper shapes that the most roots share (several: the roots of a
	// repeated motif and nodes inside it may share a shallow shape),
	// and the first root.
	count := map[uint64]int{}
	first := map[uint64]int32{}
	var classes []uint64
	for _, r := range roots {
		if count[deeper[r]] == 0 {
			first[deeper[r]] = r
			classes = append(classes, deeper[r])
		}
		count[deeper[r]]++
	}
	slices.SortStableFunc(classes, func(x, y uint64) int { return count[y] - count[x] })
	var refs []int32
	for _, c := range classes[:min(len(classes), maxRefs)] {
		if count[c] >= 2 || len(refs) == 0 {
			refs = append(refs, first[c])
		}
	}
	if !slices.Contains(refs, roots[0]) {
		refs = append(refs, roots[0])
	}
	for _, ref := range refs {
		size := make(map[int32]int, len(roots))
		var ks []int
		for _, r := range roots {
			if r == ref {
				continue
			}
			_, k := a.dagAU([]int32{ref, r}, st, work, true)
			if _, seen := size[r]; !seen && !slices.Contains(ks, k) {
				ks = append(ks, k)
			}
			size[r] = k
		}
		slices.Sort(ks)
		slices.Reverse(ks)
		for _, t := range ks[:min(len(ks), maxThresholds)] {
			set := []int32{ref}
			for _, r := range roots {
				if r != ref && size[r] >= t {
					set = append(set, r)
				}
			}
			if len(set) >= 2 && len(set) < len(roots) {
				sets = append(sets, set)
			}
		}
	}
	return sets
}

// grow returns m with more instances, when there are nodes outside its
// set whose cones contain m's pattern whole (and that are not in taken):
// a copy of a motif whose cone also holds a private input (a node used
// only there) hashes apart from the others at every depth, so no bucket
// holds all the copies. The nodes with the root's key are filtered by
// the pattern's top growDepth levels (fits), anti-unified in pairs with
// m's first root, and those whose pair pattern is at least as large as
// m's are added; the larger set is anti-unified whole and replaces m
// when it saves more.
func (a *analysis) grow(m *Match, obj Objective, st *stepper, taken map[int32]bool, work *int64) *Match {
	ref := a.index[m.Instances[0].Root]
	in := make(map[int32]bool, len(m.Instances))
	roots := make([]int32, 0, len(m.Instances))
	for _, x := range m.Instances {
		in[a.index[x.Root]] = true
		roots = append(roots, a.index[x.Root])
	}
	// The nodes to scan: those with the root's key and, at an operand
	// position that is an operation of the pattern, an operand with
	// that operation's key (the smallest such list).
	group := a.keyGroup(a.key[ref])
	pat := m.Pattern
	for p, c := range pat.Nodes[pat.Root()].Args {
		if pc := &pat.Nodes[c]; !pc.Hole() && pc.Op != "literal" {
			if g := a.operandGroup(a.key[ref], a.key[a.opAt(ref, p, false)]); len(g) < len(group) {
				group = g
			}
		}
	}
	if len(group) > maxGrowScan {
		return m
	}
	*work += int64(len(group))
	added := 0
	for _, y := range group {
		if in[y] || taken[y] || a.uses[y] == 0 || !a.fits(pat, pat.Root(), ref, y, growDepth) {
			continue
		}
		if _, k := a.dagAU([]int32{ref, y}, st, work, true); k >= m.Size {
			roots = append(roots, y)
			if added++; added >= maxGrowAdd {
				break
			}
		}
	}
	if added == 0 {
		return m
	}
	if g := a.dagMatch(roots, st, work); g != nil && a.saving(g) > a.saving(m) {
		return g
	}
	return m
}

// Limits of grow.
const (
	// growDepth is how many levels of the pattern a node must fit
	// before it is anti-unified with the reference.
	growDepth = 3
	// maxGrowScan bounds the nodes of one key grow scans, and
	// maxGrowAdd the roots it adds.
	maxGrowScan = 1 << 16
	maxGrowAdd  = 4096
	// growPerNode bounds grow's work per coneChoice: growPerNode units
	// per node of the function.
	growPerNode = 8
	// maxGrowTries bounds the sets verified per iteration, outside
	// batches, whose estimate does not beat the best so far.
	maxGrowTries = 16
)

// keyGroup lists the nodes with key k, in order (built once for all
// keys).
func (a *analysis) keyGroup(k int32) []int32 {
	if a.byKey == nil {
		a.byKey = map[int32][]int32{}
		for x, kx := range a.key {
			if kx >= 0 {
				a.byKey[kx] = append(a.byKey[kx], int32(x))
			}
		}
	}
	return a.byKey[k]
}

// operandGroup lists the nodes with key k that have an operand with key
// ko, in order (built once for all pairs of keys).
func (a *analysis) operandGroup(k, ko int32) []int32 {
	if a.byOpKey == nil {
		a.byOpKey = map[[2]int32][]int32{}
		for x, kx := range a.key {
			if kx < 0 {
				continue
			}
			ops := a.ops(int32(x))
			for i, o := range ops {
				if a.key[o] >= 0 && (i == 0 || a.key[ops[i-1]] != a.key[o]) {
					pair := [2]int32{kx, a.key[o]}
					a.byOpKey[pair] = append(a.byOpKey[pair], int32(x))
				}
			}
		}
	}
	return a.byOpKey[[2]int32{k, ko}]
}

// fits reports whether node y matches pattern node q, which node r of the
// pattern's first instance is, to depth levels: same key (same literal),
// and the operands that are pattern operations fit in turn (either order
// for a commutative node).
func (a *analysis) fits(pat *Pattern, q int, r, y int32, depth int) bool {
	pn := &pat.Nodes[q]
	if pn.Hole() {
		return true
	}
	if pn.Op == "literal" {
		return a.lit[y] >= 0 && a.lit[y] == a.lit[r]
	}
	if a.key[y] != a.key[r] {
		return false
	}
	if depth == 0 {
		return true
	}
	try := func(swap bool) bool {
		for p, c := range pn.Args {
			if !a.fits(pat, c, a.opAt(r, p, false), a.opAt(y, p, swap), depth-1) {
				return false
			}
		}
		return true
	}
	return try(false) || a.comm2[y] && try(true)
}

// dagMatch anti-unifies the closed DAG cones of roots (distinct nodes
// with one key): the largest consistent, closed, collision-avoiding
// pattern common to all, with sharing inside it (see the comment at the
// top of this file). It returns nil when the pattern is the roots alone
// and they weigh nothing.
func (a *analysis) dagMatch(roots []int32, st *stepper, work *int64) *Match {
	m, _ := a.dagAU(roots, st, work, false)
	return m
}

// dagAU computes dagMatch, or with sizeOnly only the pattern's size k
// under Nodes (without building the Match).
func (a *analysis) dagAU(roots []int32, st *stepper, work *int64, sizeOnly bool) (*Match, int) {
	roots = slices.Clone(roots)
	slices.Sort(roots)
	n := len(roots)
	if n < 2 || !a.litMatch(roots) {
		return nil, 0
	}
	ret := int32(-1)
	if i, ok := a.index[a.f.Ret]; ok {
		ret = i
	}
	// The tuple of each node (st.dOf, valid where st.dGen is st.dg),
	// flat: tuple c is tuples[c*n:(c+1)*n]; the roots are tuple 0.
	if st.dOf == nil {
		st.dOf = make([]int32, len(a.nodes))
		st.dGen = make([]uint32, len(a.nodes))
		st.eGen = make([]uint32, len(a.nodes))
	}
	st.dg++
	if st.dg == 0 {
		clear(st.dGen)
		st.dg = 1
	}
	for _, r := range roots {
		st.dOf[r], st.dGen[r] = 0, st.dg
	}
	tuples := append(st.dTuples[:0], roots...)
	edges := st.dEdges[:0] // per tuple, per operand position: the child tuple or -1
	edgeOff := append(st.dEdgeOff[:0], 0)
	useCnt := append(st.dUse[:0], 0)
	conflict := append(st.dConflict[:0], false)
	clear(st.swapped)
	x := make([]int32, n)
	sw := make([]bool, n)
	for q := 0; q*n < len(tuples); q++ {
		T := tuples[q*n : (q+1)*n]
		clear(sw)
		if a.comm2[T[0]] {
			// The order that pairs more operands with one key, then
			// more of them both inside or both outside the instances'
			// own cones, then with one number of uses (a pattern node's
			// instances have one), then with one shape (st.shape).
			u0, u1 := a.opAt(T[0], 0, false), a.opAt(T[0], 1, false)
			score := func(x, y int32, rx, ry int32) int {
				s := 0
				if a.key[x] >= 0 && a.key[x] == a.key[y] {
					s += 8
					if a.inCone(x, rx) == a.inCone(y, ry) {
						s += 4
						if a.uses[x] == a.uses[y] {
							s += 2
						}
						if st.shape != nil && st.shape[x] == st.shape[y] {
							s++
						}
					}
				}
				return s
			}
			for i := 1; i < n; i++ {
				v0, v1 := a.opAt(T[i], 0, false), a.opAt(T[i], 1, false)
				same := score(u0, v0, roots[0], roots[i]) + score(u1, v1, roots[0], roots[i])
				cross := score(u0, v1, roots[0], roots[i]) + score(u1, v0, roots[0], roots[i])
				if cross > same {
					sw[i] = true
					st.swapped[T[i]] = true
				}
			}
		}
		*work += int64(n)
		for p := range int(a.opOff[T[0]+1] - a.opOff[T[0]]) {
			for i := range n {
				x[i] = a.opAt(T[i], p, sw[i])
			}
			c := int32(-1)
			if len(tuples) < maxConeNodes*n && a.dagEligible(x, roots, st, ret) {
				c = st.lookupTuple(x, tuples, conflict)
				if int(c)*n == len(tuples) {
					tuples = append(tuples, x...)
					T = tuples[q*n : (q+1)*n]
					useCnt = append(useCnt, 0)
					conflict = append(conflict, false)
				}
			}
			if c >= 0 {
				useCnt[c]++
			}
			edges = append(edges, c)
		}
		edgeOff = append(edgeOff, int32(len(edges)))
	}
	st.dTuples, st.dEdges, st.dEdgeOff, st.dUse, st.dConflict = tuples, edges, edgeOff, useCnt, conflict
	nt := len(tuples) / n
	// Greatest fixpoint: a tuple with a conflict or a use outside the
	// pattern goes, and with it the uses it made.
	killed := make([]bool, nt)
	var stack []int32
	for c := 1; c < nt; c++ {
		if conflict[c] || useCnt[c] != a.uses[tuples[c*n]] {
			killed[c] = true
			stack = append(stack, int32(c))
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range edges[edgeOff[c]:edgeOff[c+1]] {
			if e > 0 && !killed[e] {
				killed[e] = true
				stack = append(stack, e)
			}
		}
	}
	if sizeOnly {
		k := 0
		for c := range nt {
			if !killed[c] {
				k += int(weight(a.nodes[tuples[c*n]], Nodes))
			}
		}
		return nil, k
	}
	var flat []int32
	pn := map[int32]int32{}
	for c := range nt {
		if killed[c] {
			continue
		}
		T := tuples[c*n : (c+1)*n]
		id := int32(len(flat) / n)
		for _, xi := range T {
			pn[xi] = id
		}
		flat = append(flat, T...)
	}
	if len(flat) == n && a.w[roots[0]] == 0 {
		return nil, 0
	}
	m := a.build(roots, flat, pn, st)
	return m, m.Size
}

// dagEligible reports whether tuple x (operands of a pattern node, one
// per instance) may be a pattern node: one key and one number of uses,
// distinct nodes, each inside its instance root's fanout-free cone, none
// a root or the function's result.
func (a *analysis) dagEligible(x, roots []int32, st *stepper, ret int32) bool {
	k, u := a.key[x[0]], a.uses[x[0]]
	if k < 0 {
		return false
	}
	for i, xi := range x {
		if a.key[xi] != k || a.uses[xi] != u || xi == ret || !a.inCone(xi, roots[i]) ||
			st.dGen[xi] == st.dg && st.dOf[xi] == 0 {
			return false
		}
	}
	// Distinct.
	st.eg++
	if st.eg == 0 {
		clear(st.eGen)
		st.eg = 1
	}
	for _, xi := range x {
		if st.eGen[xi] == st.eg {
			return false
		}
		st.eGen[xi] = st.eg
	}
	return a.litMatch(x)
}

// lookupTuple returns the tuple that x is, len(tuples)/len(x) for a new
// one (recorded in st.dOf), or -1 when a node of x belongs to another
// tuple: then that tuple cannot be a pattern node either (conflict).
func (st *stepper) lookupTuple(x []int32, tuples []int32, conflict []bool) int32 {
	n := len(x)
	if st.dGen[x[0]] == st.dg {
		c := st.dOf[x[0]]
		if slices.Equal(tuples[int(c)*n:int(c+1)*n], x) {
			return c
		}
	}
	clash := false
	for _, xi := range x {
		if st.dGen[xi] == st.dg {
			conflict[st.dOf[xi]] = true
			clash = true
		}
	}
	if clash {
		return -1
	}
	c := int32(len(tuples) / n)
	for _, xi := range x {
		st.dOf[xi], st.dGen[xi] = c, st.dg
	}
	return c
}

func rootsOf[T any](xs []T, f func(T) int32) []int32 {
	r := make([]int32, len(xs))
	for i, x := range xs {
		r[i] = f(x)
	}
	return r
}
