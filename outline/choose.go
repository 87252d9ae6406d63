package outline

import (
	"math/bits"
	"slices"
)

// Choosing what to outline
//
// The table defines a weighted graph on each group of nodes with one key:
// an edge joins two nodes whose collision-avoiding anti-unifier weighs w
// (k operations under Nodes, area less multiplexed bits under Area). A set
// S of pairwise joined nodes is a clique; the issue approximates what
// outlining S saves by (|S|-1)·min weight of its edges, and we look for
// the clique that maximizes it.
//
// The maintainers observed that a nonzero anti-unifier is transitive, so
// each group is a clique in the graph of all nonzero edges. That holds
// here for edges of weight ≥ 1 under Nodes (every pair of one group has
// the root in common; TestGroupsAreCliques checks it), but such edges do
// not pay: under Nodes we keep only edges of weight ≥ MinSize, under
// Area only positive ones (an operation may weigh 0 there), and then a
// group is in general no longer a clique.
//
// The greedy choice (greedyChoice) first does what the issue proposes for
// that case: within each connected component, remove the lowest-weight
// edges until the component is a clique, splitting it (splitCliques), and
// ablate each clique (ablate, the AblateClique with two bugs
// fixed). Alone, that is 8% from the optimum on average on random
// weighted cliques and fails outright on some components (see
// TestChooseOptimality), so the greedy choice also runs peel (a vertex
// cover of the weakest edges, with counts kept current), corePeel
// (degeneracy peeling of each G_t) and, on small components that are not
// cliques, both ablations with the missing edges as the weakest level,
// and keeps every candidate; together they are within 0.5% on average.
//
// The exact choice (exactChoice) runs, for each distinct weight t of a
// component, a maximum-clique search (Bron–Kerbosch with Tomita's pivot,
// on bit sets, pruned by the need-core and a greedy colouring bound) on
// G_t, the edges of weight ≥ t: the maintainers' reformulation, the
// optimum is the maximum over t of (ω(G_t) - 1)·t, where ω is the clique
// number.
//
// Both produce candidates with an estimated saving; the pass verifies the
// best ones by anti-unifying the whole set (AntiunifySet), which also
// makes the instances of a chosen set pairwise disjoint whatever the
// pairwise estimates said.

// A wedge is an edge of a choice graph.
type wedge struct {
	i, j int32
	w    int64
}

// A clique is a candidate set of nodes (indices into the graph) with the
// minimum weight of its edges and its estimated saving (len-1)·weight.
type clique struct {
	nodes  []int32
	weight int64
	score  int64
}

// A unionFind is a disjoint-set forest with path halving.
type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(x int32) int32 {
	for u[x] != x {
		u[x] = u[u[x]]
		x = u[x]
	}
	return x
}

// components splits the nodes touched by edges into connected
// components; each component's edges keep their relative order.
func components(n int, edges []wedge) (comps [][]int32, compEdges [][]wedge) {
	u := newUnionFind(n)
	for _, e := range edges {
		if a, b := u.find(e.i), u.find(e.j); a != b {
			u[a] = b
		}
	}
	id := make([]int32, n)
	for i := range id {
		id[i] = -1
	}
	size := []int{}
	touched := make([]bool, n)
	for _, e := range edges {
		touched[e.i], touched[e.j] = true, true
	}
	for i := range n {
		if !touched[i] {
			continue
		}
		r := u.find(int32(i))
		if id[r] < 0 {
			id[r] = int32(len(comps))
			comps = append(comps, nil)
			size = append(size, 0)
		}
		comps[id[r]] = append(comps[id[r]], int32(i))
	}
	for _, e := range edges {
		size[id[u.find(e.i)]]++
	}
	compEdges = make([][]wedge, len(comps))
	for c := range compEdges {
		compEdges[c] = make([]wedge, 0, size[c])
	}
	for _, e := range edges {
		c := id[u.find(e.i)]
		compEdges[c] = append(compEdges[c], e)
	}
	return comps, compEdges
}

// sortEdges sorts edges by weight, increasing or (desc) decreasing,
// stably; by counting when the weights span a small range.
func sortEdges(es []wedge, desc bool) {
	if len(es) < 2 {
		return
	}
	lo, hi := es[0].w, es[0].w
	for _, e := range es {
		lo, hi = min(lo, e.w), max(hi, e.w)
	}
	if hi-lo > int64(4*len(es)+1024) {
		if desc {
			slices.SortStableFunc(es, func(a, b wedge) int { return cmp64(b.w, a.w) })
		} else {
			slices.SortStableFunc(es, func(a, b wedge) int { return cmp64(a.w, b.w) })
		}
		return
	}
	cnt := make([]int, hi-lo+2)
	key := func(w int64) int64 {
		if desc {
			return hi - w
		}
		return w - lo
	}
	for _, e := range es {
		cnt[key(e.w)+1]++
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	out := make([]wedge, len(es))
	for _, e := range es {
		k := key(e.w)
		out[cnt[k]] = e
		cnt[k]++
	}
	copy(es, out)
}

// splitCliques does the first step: within each connected
// component, remove the lowest-weight edges until the component is a
// clique (complete), splitting it as it goes. It calls out with each
// clique so found (two nodes or more) and its edges, in increasing order
// of weight; when all of a clique's edges weigh the same, with one of
// them only. edges must be sorted by increasing weight.
//
// Rather than removing one level of weights at a time and recomputing
// the components, it builds the hierarchy of components once, adding the
// edges in decreasing order of weight (Kruskal's order: a component at
// threshold t is a node whose children are the components it is made of
// at the next higher threshold), and then walks it from the roots down,
// stopping at the first component that is a clique: the same cliques in
// O(E α(E)).
func splitCliques(n int, edges []wedge, out func(nodes []int32, edges []wedge), roots func(nodes []int32, edges []wedge)) {
	type hnode struct {
		level    int64
		size     int
		nEdges   int
		children []int32
		leaf     int32 // the graph node of a leaf, else -1
	}
	h := make([]hnode, n, 2*n)
	for i := range h {
		h[i] = hnode{level: 1 << 62, size: 1, leaf: int32(i)}
	}
	u := newUnionFind(n)
	top := make([]int32, n) // hierarchy node of each union-find root
	for i := range top {
		top[i] = int32(i)
	}
	// current returns root r's hierarchy node, starting a new one at level
	// t when its node belongs to a higher threshold.
	current := func(r int32, t int64) int32 {
		d := top[r]
		if h[d].level == t {
			return d
		}
		h = append(h, hnode{level: t, size: h[d].size, nEdges: h[d].nEdges, children: []int32{d}, leaf: -1})
		top[r] = int32(len(h) - 1)
		return top[r]
	}
	for k := len(edges) - 1; k >= 0; k-- {
		e := edges[k]
		a, b := u.find(e.i), u.find(e.j)
		da := current(a, e.w)
		if a == b {
			h[da].nEdges++
			continue
		}
		db := current(b, e.w)
		// Merge the node with fewer children into the other (both at
		// level e.w), so that each child moves O(log n) times.
		if len(h[da].children) < len(h[db].children) {
			a, b, da, db = b, a, db, da
		}
		h[da].size += h[db].size
		h[da].nEdges += h[db].nEdges + 1
		h[da].children = append(h[da].children, h[db].children...)
		h[db].children = nil
		u[b] = a
		top[a] = da
	}
	// Walk down from the roots to the first cliques.
	clq := make([]int32, n) // clique of each graph node, or -1
	for i := range clq {
		clq[i] = -1
	}
	var cliques [][]int32
	var leaves func(d int32, id int32)
	leaves = func(d int32, id int32) {
		if h[d].leaf >= 0 {
			clq[h[d].leaf] = id
			cliques[id] = append(cliques[id], h[d].leaf)
			return
		}
		for _, c := range h[d].children {
			leaves(c, id)
		}
	}
	var walk func(d int32)
	walk = func(d int32) {
		if h[d].size < 2 {
			return
		}
		if h[d].nEdges == h[d].size*(h[d].size-1)/2 {
			id := int32(len(cliques))
			cliques = append(cliques, nil)
			leaves(d, id)
			return
		}
		for _, c := range h[d].children {
			walk(c)
		}
	}
	seen := make([]bool, n)
	var rootNodes [][]int32 // the components that are not cliques, for roots
	rootOf := make([]int32, n)
	for i := range rootOf {
		rootOf[i] = -1
	}
	for i := range n {
		r := u.find(int32(i))
		if seen[r] {
			continue
		}
		seen[r] = true
		d := top[r]
		walk(d)
		if sz := h[d].size; roots != nil && sz > 2 && sz <= maxZeroAblate && h[d].nEdges < sz*(sz-1)/2 {
			rootNodes = append(rootNodes, nil)
			var collect func(d int32)
			collect = func(d int32) {
				if h[d].leaf >= 0 {
					rootOf[h[d].leaf] = int32(len(rootNodes) - 1)
					rootNodes[len(rootNodes)-1] = append(rootNodes[len(rootNodes)-1], h[d].leaf)
					return
				}
				for _, c := range h[d].children {
					collect(c)
				}
			}
			collect(d)
		}
	}
	if len(rootNodes) > 0 {
		res := make([][]wedge, len(rootNodes))
		for _, e := range edges {
			if r := rootOf[e.i]; r >= 0 {
				res[r] = append(res[r], e)
			}
		}
		for r, ns := range rootNodes {
			slices.Sort(ns)
			roots(ns, res[r])
		}
	}
	// Each clique's edges, except for a clique whose edges all weigh the
	// same: ablating it finds nothing more, so it goes out without them.
	cnt := make([]int, len(cliques))
	lo := make([]int64, len(cliques))
	hi := make([]int64, len(cliques))
	for _, e := range edges {
		if c := clq[e.i]; c >= 0 && c == clq[e.j] {
			if cnt[c] == 0 || e.w < lo[c] {
				lo[c] = e.w
			}
			hi[c] = max(hi[c], e.w)
			cnt[c]++
		}
	}
	ces := make([][]wedge, len(cliques))
	for c := range ces {
		if lo[c] != hi[c] {
			ces[c] = make([]wedge, 0, cnt[c])
		}
	}
	for _, e := range edges {
		if c := clq[e.i]; c >= 0 && c == clq[e.j] && ces[c] != nil {
			ces[c] = append(ces[c], e)
		}
	}
	for c, ns := range cliques {
		slices.Sort(ns)
		if ces[c] == nil {
			ces[c] = []wedge{{ns[0], ns[1], lo[c]}} // stands for all of them
		}
		out(ns, ces[c])
	}
}

// ablate is the AblateClique on a clique (nodes, edges sorted by
// increasing weight, w the weight of any two distinct nodes of it): it
// records the clique with its minimum weight, then takes the edges of
// minimum weight and removes one endpoint of each (skipping edges with an
// endpoint already removed), and repeats on what is left. The endpoint
// removed is the one whose other incident edges reach lower: the one with
// the smaller minimum weight over the edges to the rest of the clique.
//
// Two fixes to the code: its minimum starts at 0, so it is always
// 0 and the rule always removes the second endpoint; and it scores the
// clique only after the first ablation, never the clique it was given.
// Ties (both endpoints have another edge of the same minimum weight,
// common in a clique of equal weights) remove the endpoint with more
// edges of that minimum weight, as a greedy vertex cover would, then the
// second endpoint.
//
// With zeros set, nodes need not be a clique: missing edges (w ≤ 0) are
// the first, lowest level, ablated by the same rule before anything is
// recorded, which makes the procedure a greedy maximum-clique heuristic
// on any connected component. It returns every clique it recorded. pos is
// scratch space with an entry for every node.
func ablate(nodes []int32, edges []wedge, w func(i, j int32) int64, pos []int32, zeros bool) []clique {
	m := len(nodes)
	for i, x := range nodes {
		pos[x] = int32(i)
	}
	alive := make([]bool, m)
	for i := range alive {
		alive[i] = true
	}
	var removed []int32 // positions, in removal order
	type rec struct {
		nRemoved int
		weight   int64
	}
	var recs []rec
	cnt := make([]int, m)
	minOther := func(a, b int32) int64 {
		best := int64(-1)
		for c := range int32(m) {
			if c == a || c == b || !alive[c] {
				continue
			}
			if v := max(w(nodes[a], nodes[c]), 0); best < 0 || v < best {
				best = v
			}
		}
		if best < 0 {
			return 1 << 62
		}
		return best
	}
	// drop removes one endpoint of the level-t edge between positions a
	// and b.
	drop := func(a, b int32) {
		if !alive[a] || !alive[b] {
			return
		}
		ma, mb := minOther(a, b), minOther(b, a)
		d := b
		if ma < mb || (ma == mb && cnt[a] > cnt[b]) {
			d = a
		}
		alive[d] = false
		removed = append(removed, d)
	}
	if zeros {
		for a := range int32(m) {
			for b := a + 1; b < int32(m); b++ {
				if w(nodes[a], nodes[b]) <= 0 {
					cnt[a]++
					cnt[b]++
				}
			}
		}
		for a := range int32(m) {
			for b := a + 1; b < int32(m) && alive[a]; b++ {
				if alive[b] && w(nodes[a], nodes[b]) <= 0 {
					drop(a, b)
				}
			}
		}
		clear(cnt)
	}
	for lo := 0; lo < len(edges); {
		t := edges[lo].w
		hi := lo
		for hi < len(edges) && edges[hi].w == t {
			hi++
		}
		level := edges[lo:hi]
		lo = hi
		any := false
		for _, e := range level {
			if alive[pos[e.i]] && alive[pos[e.j]] {
				any = true
				break
			}
		}
		if !any {
			continue
		}
		recs = append(recs, rec{len(removed), t})
		if hi == len(edges) {
			break // nothing weighs more: ablating further finds no larger minimum
		}
		for _, e := range level {
			a, b := pos[e.i], pos[e.j]
			if alive[a] && alive[b] {
				cnt[a]++
				cnt[b]++
			}
		}
		for _, e := range level {
			drop(pos[e.i], pos[e.j])
		}
		clear(cnt)
	}
	out := make([]clique, 0, len(recs))
	for _, r := range recs {
		clear(alive)
		for _, x := range removed[:r.nRemoved] {
			alive[x] = true // here: gone
		}
		var ns []int32
		for i, x := range nodes {
			if !alive[i] {
				ns = append(ns, x)
			}
		}
		if len(ns) >= 2 {
			out = append(out, clique{ns, r.weight, int64(len(ns)-1) * r.weight})
		}
	}
	return out
}

// peel is a second greedy ablation, run beside ablate: at each level
// (the current minimum weight t among the remaining nodes, starting
// with the missing edges when zeros is set) it removes, one at a time,
// the node with the most remaining edges of weight t, keeping those
// counts up to date (a greedy vertex cover of the weight-t edges), with
// ties going to the node whose remaining edges weigh least in total; it
// records the remaining clique each time the minimum rises. ablate's
// rule looks at one edge at a time and may remove both ends of a path of
// weak edges where one middle node would do.
func peel(nodes []int32, edges []wedge, w func(i, j int32) int64, pos []int32, zeros bool) []clique {
	m := len(nodes)
	for i, x := range nodes {
		pos[x] = int32(i)
	}
	alive := make([]bool, m)
	for a := range alive {
		alive[a] = true
	}
	var sum []int64 // total remaining weight of each node, from the first level on
	cnt := make([]int32, m)
	var adjOff, adj []int32
	var out []clique
	// level peels the edges given as pairs of positions.
	level := func(pairs [][2]int32) {
		if sum == nil {
			sum = make([]int64, m)
			for a := range m {
				for b := range m {
					if a != b && alive[a] && alive[b] {
						sum[a] += max(w(nodes[a], nodes[b]), 0)
					}
				}
			}
		}
		adjOff = slices.Grow(adjOff[:0], m+1)[:m+1]
		clear(adjOff)
		clear(cnt)
		live := 0
		for _, p := range pairs {
			if alive[p[0]] && alive[p[1]] {
				cnt[p[0]]++
				cnt[p[1]]++
				adjOff[p[0]+1]++
				adjOff[p[1]+1]++
				live++
			}
		}
		for i := 1; i <= m; i++ {
			adjOff[i] += adjOff[i-1]
		}
		adj = slices.Grow(adj[:0], int(adjOff[m]))[:adjOff[m]]
		fill := slices.Clone(adjOff[:m])
		for _, p := range pairs {
			if alive[p[0]] && alive[p[1]] {
				adj[fill[p[0]]] = p[1]
				fill[p[0]]++
				adj[fill[p[1]]] = p[0]
				fill[p[1]]++
			}
		}
		for live > 0 {
			d := int32(-1)
			for v := range int32(m) {
				if alive[v] && cnt[v] > 0 && (d < 0 || cnt[v] > cnt[d] || (cnt[v] == cnt[d] && sum[v] < sum[d])) {
					d = v
				}
			}
			alive[d] = false
			for _, u := range adj[adjOff[d]:adjOff[d+1]] {
				if alive[u] {
					cnt[u]--
					live--
				}
			}
			for u := range int32(m) {
				if alive[u] {
					sum[u] -= max(w(nodes[u], nodes[d]), 0)
				}
			}
		}
	}
	record := func(t int64) {
		var ns []int32
		for i, x := range nodes {
			if alive[i] {
				ns = append(ns, x)
			}
		}
		if len(ns) >= 2 {
			out = append(out, clique{ns, t, int64(len(ns)-1) * t})
		}
	}
	if zeros {
		var pairs [][2]int32
		for a := range int32(m) {
			for b := a + 1; b < int32(m); b++ {
				if w(nodes[a], nodes[b]) <= 0 {
					pairs = append(pairs, [2]int32{a, b})
				}
			}
		}
		level(pairs)
	}
	var pairs [][2]int32
	for lo := 0; lo < len(edges); {
		t := edges[lo].w
		hi := lo
		pairs = pairs[:0]
		for hi < len(edges) && edges[hi].w == t {
			a, b := pos[edges[hi].i], pos[edges[hi].j]
			if alive[a] && alive[b] {
				pairs = append(pairs, [2]int32{a, b})
			}
			hi++
		}
		lo = hi
		if len(pairs) == 0 {
			continue
		}
		record(t)
		if hi == len(edges) {
			break
		}
		level(pairs)
	}
	return out
}

// corePeel is the third greedy, aimed at the maintainers' reformulation
// max over t of (ω(G_t)-1)·t: for each distinct weight t, from the
// largest down, it peels G_t (the edges of weight ≥ t) by repeatedly
// removing a node of least degree until what remains is a clique (the
// classic degeneracy heuristic for maximum clique), in time linear in
// G_t, and records that clique. It skips a threshold whose bound (max
// degree)·t cannot beat what it has. edges must be sorted by decreasing
// weight.
func corePeel(n int, edges []wedge, w func(i, j int32) int64) []clique {
	var out []clique
	var bestScore int64
	deg := make([]int32, n)
	maxDeg := int32(0)
	var adjOff, adj, d []int32
	alive := make([]bool, n)
	for hi := 0; hi < len(edges); {
		t := edges[hi].w
		for hi < len(edges) && edges[hi].w == t {
			e := edges[hi]
			deg[e.i]++
			deg[e.j]++
			maxDeg = max(maxDeg, deg[e.i], deg[e.j])
			hi++
		}
		if int64(maxDeg)*t <= bestScore {
			continue
		}
		g := edges[:hi]
		// Adjacency of G_t.
		adjOff = slices.Grow(adjOff[:0], n+1)[:n+1]
		adjOff[0] = 0
		for v := range n {
			adjOff[v+1] = adjOff[v] + deg[v]
		}
		adj = slices.Grow(adj[:0], 2*len(g))[:2*len(g)]
		fill := slices.Clone(adjOff[:n])
		for _, e := range g {
			adj[fill[e.i]] = e.j
			fill[e.i]++
			adj[fill[e.j]] = e.i
			fill[e.j]++
		}
		// Peel by least degree, with buckets of nodes by degree.
		d = append(d[:0], deg...)
		head := make([]int32, maxDeg+1)
		for i := range head {
			head[i] = -1
		}
		nextB, prevB := make([]int32, n), make([]int32, n)
		remain := int32(0)
		push := func(v int32) {
			nextB[v], prevB[v] = head[d[v]], -1
			if head[d[v]] >= 0 {
				prevB[head[d[v]]] = v
			}
			head[d[v]] = v
		}
		unlink := func(v int32) {
			if prevB[v] >= 0 {
				nextB[prevB[v]] = nextB[v]
			} else {
				head[d[v]] = nextB[v]
			}
			if nextB[v] >= 0 {
				prevB[nextB[v]] = prevB[v]
			}
		}
		for v := range int32(n) {
			alive[v] = d[v] > 0
			if alive[v] {
				remain++
				push(v)
			}
		}
		low := int32(0)
		for remain >= 2 {
			for head[low] < 0 {
				low++
			}
			v := head[low]
			if low == remain-1 {
				// Every remaining node is joined to every other.
				var ns []int32
				for u := range int32(n) {
					if alive[u] {
						ns = append(ns, u)
					}
				}
				c := exactWeight(ns, w)
				if c.score > bestScore {
					bestScore = c.score
					out = append(out, c)
				}
				break
			}
			unlink(v)
			alive[v] = false
			remain--
			for _, u := range adj[adjOff[v]:adjOff[v+1]] {
				if alive[u] {
					unlink(u)
					d[u]--
					push(u)
				}
			}
			if low > 0 {
				low--
			}
		}
	}
	return out
}

// maxZeroAblate bounds the components that greedyChoice also ablates
// with their missing edges as the lowest level (which takes time
// quadratic in the component's size); larger ones get the issue's
// procedure only.
const maxZeroAblate = 256

// greedyChoice returns the greedy candidates of the graph with n nodes,
// the given edges (any order; they are sorted in place) and weights w (at
// most 0 between nodes that no edge joins), best first: the issue's
// procedure (splitCliques, then ablate and peel on each clique), corePeel
// on each threshold, and on each connected component that is not a
// clique (up to maxZeroAblate nodes) ablate and peel with its missing
// edges as the lowest level. The later ones catch what splitting loses: a
// path a-b-c of equal weights has no clique left once its lowest edges
// go, but a-b is one; and the best clique at a threshold t may be a union
// of cliques that splitting separates at a higher threshold because
// other nodes join them at t.
func greedyChoice(n int, edges []wedge, w func(i, j int32) int64) []clique {
	sortEdges(edges, false)
	scratch := make([]int32, n)
	var out []clique
	var nonCliques [][]int32
	var nonCliqueEdges [][]wedge
	splitCliques(n, edges, func(ns []int32, es []wedge) {
		out = append(out, ablate(ns, es, w, scratch, false)...)
		if len(es) > 1 {
			out = append(out, peel(ns, es, w, scratch, false)...)
		}
	}, func(ns []int32, es []wedge) {
		nonCliques = append(nonCliques, ns)
		nonCliqueEdges = append(nonCliqueEdges, es)
	})
	slices.Reverse(edges)
	out = append(out, corePeel(n, edges, w)...)
	slices.Reverse(edges)
	for c, ns := range nonCliques {
		m := len(ns)
		// A dense copy of the component's weights: the ablations read
		// each pair several times.
		lw := make([]int64, m*m)
		for i, x := range ns {
			scratch[x] = int32(i)
			for j, y := range ns[:i] {
				v := w(x, y)
				lw[i*m+j], lw[j*m+i] = v, v
			}
		}
		pos := slices.Clone(scratch)
		lwf := func(x, y int32) int64 { return lw[int(pos[x])*m+int(pos[y])] }
		out = append(out, ablate(ns, nonCliqueEdges[c], lwf, scratch, true)...)
		out = append(out, peel(ns, nonCliqueEdges[c], lwf, scratch, true)...)
	}
	sortCliques(out)
	return out
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sortCliques(cs []clique) {
	slices.SortStableFunc(cs, func(a, b clique) int {
		if c := cmp64(b.score, a.score); c != 0 {
			return c
		}
		return len(b.nodes) - len(a.nodes)
	})
}

// exactWeight is the clique of nodes ns with its minimum weight and
// score: a clique found in G_t may weigh more than t everywhere.
func exactWeight(ns []int32, w func(i, j int32) int64) clique {
	minW := int64(-1)
	for a, x := range ns {
		for _, y := range ns[a+1:] {
			if v := w(x, y); minW < 0 || v < minW {
				minW = v
			}
		}
	}
	return clique{ns, minW, int64(len(ns)-1) * minW}
}

// maxBKCalls bounds the recursive calls of one exact choice; past it the
// search stops and reports that its answer is not proven optimal.
const maxBKCalls = 2_000_000

// exactChoice finds, for each component of the graph, the clique
// maximizing (ω(G_t)-1)·t over the distinct weights t, by a maximum
// clique search on G_t (the edges of weight ≥ t) for each t whose bound
// (max degree in G_t)·t can beat the best so far. It returns one
// candidate per (component, t) searched, best first, and whether every
// search finished within maxBKCalls.
func exactChoice(n int, edges []wedge, w func(i, j int32) int64) ([]clique, bool) {
	es := slices.Clone(edges)
	sortEdges(es, true)
	comps, compEdges := components(n, es)
	proven := true
	calls := 0
	var out []clique
	for c := range comps {
		nodes, ce := comps[c], compEdges[c]
		m := len(nodes)
		local := make(map[int32]int, m)
		for i, x := range nodes {
			local[x] = i
		}
		words := (m + 63) / 64
		adj := make([]uint64, m*words) // grows with decreasing t
		deg := make([]int, m)
		maxDeg := 0
		best := int64(0)
		// Thresholds in decreasing order: add the edges of weight t, then
		// search G_t when its bound can beat the best.
		for lo := 0; lo < len(ce); {
			t := ce[lo].w
			hi := lo
			for hi < len(ce) && ce[hi].w == t {
				e := ce[hi]
				i, j := local[e.i], local[e.j]
				adj[i*words+j/64] |= 1 << (j % 64)
				adj[j*words+i/64] |= 1 << (i % 64)
				deg[i]++
				deg[j]++
				maxDeg = max(maxDeg, deg[i], deg[j])
				hi++
			}
			lo = hi
			if int64(maxDeg)*t <= best {
				continue
			}
			// A clique must have more than best/t+1 nodes to beat best.
			need := int(best/t) + 1
			cl, ok := maxClique(m, words, adj, need, &calls)
			if !ok {
				proven = false
			}
			if len(cl) >= 2 {
				ns := make([]int32, len(cl))
				for i, x := range cl {
					ns[i] = nodes[x]
				}
				c := exactWeight(ns, w)
				out = append(out, c)
				best = max(best, c.score)
			}
		}
	}
	sortCliques(out)
	return out, proven
}

// maxClique returns a maximum clique of the graph given by adjacency bit
// sets, if it has more than need nodes (else possibly a smaller one or
// none), and whether the search finished within the call budget.
func maxClique(m, words int, adj []uint64, need int, calls *int) ([]int, bool) {
	var best, cur []int
	bestSize := need
	ok := true
	// Only nodes with at least need neighbours can be in a clique of more
	// than need nodes; removing the others lowers their neighbours'
	// degrees, so repeat (the need-core of the graph).
	P := make([]uint64, words)
	for i := range m {
		P[i/64] |= 1 << (i % 64)
	}
	for changed := true; changed; {
		changed = false
		for i := range m {
			if P[i/64]&(1<<(i%64)) == 0 {
				continue
			}
			d := 0
			for k := range words {
				d += bits.OnesCount64(P[k] & adj[i*words+k])
			}
			if d < need {
				P[i/64] &^= 1 << (i % 64)
				changed = true
			}
		}
	}
	// Bit sets for each depth, reused.
	var pool [][]uint64
	get := func(depth int) []uint64 {
		for len(pool) <= depth {
			pool = append(pool, make([]uint64, 3*words))
		}
		return pool[depth]
	}
	var expand func(P []uint64, depth int)
	expand = func(P []uint64, depth int) {
		*calls++
		if *calls > maxBKCalls {
			ok = false
			return
		}
		np := popcount(P)
		if np == 0 {
			if len(cur) > bestSize {
				bestSize = len(cur)
				best = slices.Clone(cur)
			}
			return
		}
		if len(cur)+np <= bestSize {
			return
		}
		buf := get(depth)
		cand, rest, next := buf[:words], buf[words:2*words], buf[2*words:]
		// Bound: a greedy colouring of P needs at least as many colours as
		// P's largest clique has nodes.
		copy(rest, P)
		colours := 0
		for popcount(rest) > 0 && len(cur)+colours <= bestSize {
			colours++
			copy(cand, rest)
			for wi := range cand {
				for cand[wi] != 0 {
					v := wi*64 + bits.TrailingZeros64(cand[wi])
					rest[wi] &^= 1 << (v % 64)
					for k := range words {
						cand[k] &^= adj[v*words+k]
					}
					cand[wi] &^= 1 << (v % 64)
				}
			}
		}
		if len(cur)+colours <= bestSize {
			return
		}
		// Tomita's pivot: the node of P with most neighbours in P; only
		// its non-neighbours need to start a branch.
		pivot, pd := -1, -1
		for wi, word := range P {
			for word != 0 {
				u := wi*64 + bits.TrailingZeros64(word)
				word &= word - 1
				d := 0
				for k := range words {
					d += bits.OnesCount64(P[k] & adj[u*words+k])
				}
				if d > pd {
					pivot, pd = u, d
				}
			}
		}
		for k := range words {
			cand[k] = P[k] &^ adj[pivot*words+k]
		}
		copy(rest, P)
		for wi := range cand {
			for cand[wi] != 0 && ok {
				v := wi*64 + bits.TrailingZeros64(cand[wi])
				cand[wi] &= cand[wi] - 1
				for k := range words {
					next[k] = rest[k] & adj[v*words+k]
				}
				cur = append(cur, v)
				expand(slices.Clone(next), depth+1)
				cur = cur[:len(cur)-1]
				rest[v/64] &^= 1 << (v % 64)
				if len(cur)+popcount(rest) <= bestSize {
					return
				}
			}
		}
	}
	expand(P, 0)
	return best, ok
}

func popcount(s []uint64) int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
