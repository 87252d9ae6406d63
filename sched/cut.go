package sched

import (
	"math/big"
	"nestor/internal/intmath"
	"slices"

	"nestor/ir"
)

// sccs returns the strongly connected components of the statements under
// the live edges (all edges when all is set), in a topological order that
// keeps textual order where dependences leave the choice, and the
// component of every statement.
func (s *scheduler) sccs(all bool) (order [][]int, comp []int) {
	n := len(s.p.Stmts)
	adj := make([][]int, n)
	for e, ed := range s.g.Edges {
		if all || s.live[e] {
			adj[ed.Source] = append(adj[ed.Source], ed.Target)
		}
	}
	// Tarjan's algorithm.
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	comp = make([]int, n)
	for k := range index {
		index[k], comp[k] = -1, -1
	}
	var stack []int
	var comps [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = len(comps)
				c = append(c, w)
				if w == v {
					break
				}
			}
			slices.Sort(c)
			comps = append(comps, c)
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	// Kahn's algorithm, taking the ready component with the first statement.
	indeg := make([]int, len(comps))
	succ := make([][]int, len(comps))
	for v := range n {
		for _, w := range adj[v] {
			if a, b := comp[v], comp[w]; a != b {
				succ[a] = append(succ[a], b)
				indeg[b]++
			}
		}
	}
	done := make([]bool, len(comps))
	rank := make([]int, n)
	for len(order) < len(comps) {
		best := -1
		for c := range comps {
			if !done[c] && indeg[c] == 0 && (best < 0 || comps[c][0] < comps[best][0]) {
				best = c
			}
		}
		done[best] = true
		for _, b := range succ[best] {
			indeg[b]--
		}
		for _, v := range comps[best] {
			rank[v] = len(order)
		}
		order = append(order, comps[best])
	}
	return order, rank
}

// scalarDim appends a scalar dimension with value group[st] for every
// statement and drops the live edges it satisfies (group[src] <
// group[dst]). It reports whether any edge was satisfied.
func (s *scheduler) scalarDim(group []int) bool {
	np := len(s.p.Params)
	for st, x := range s.p.Stmts {
		s.sc.Rows[st] = append(s.sc.Rows[st], ir.Aff{Iter: make([]int64, x.Depth()), Param: make([]int64, np), Const: int64(group[st])})
	}
	s.sc.Coincident = append(s.sc.Coincident, Coincidence{})
	s.band = s.sc.Dims()
	progress := false
	for e, ed := range s.g.Edges {
		if s.live[e] && group[ed.Source] < group[ed.Target] {
			s.live[e] = false
			progress = true
		}
	}
	return progress
}

// cut separates the strongly connected components of the live edges by a
// scalar dimension; it reports false when that satisfies no edge (no
// progress is possible).
//
// Consecutive components (in the topological order) stay together when no
// live edge joins them and their statements have the same depth: they can
// share the loops that follow (symm's two updates in one k loop, reading
// A[i][k] once), and the edges left inside a group are for later rows or
// cuts. A group ends where a live edge enters the next component from it.
func (s *scheduler) cut() bool {
	order, rank := s.sccs(false)
	if len(order) < 2 {
		return false
	}
	group := make([]int, len(s.p.Stmts))
	inGroup := map[int]bool{} // statements of the current group
	g, depth := 0, -1
	for k, c := range order {
		d := 0
		for _, st := range c {
			d = max(d, s.p.Stmts[st].Depth())
		}
		if k > 0 && (d != depth || s.joins(inGroup, c)) {
			g++
			clear(inGroup)
		}
		depth = d
		for _, st := range c {
			group[st] = g
			inGroup[st] = true
		}
	}
	for e, ed := range s.g.Edges {
		if s.live[e] && group[ed.Source] < group[ed.Target] {
			return s.scalarDim(group) // satisfies at least this edge
		}
	}
	for e, ed := range s.g.Edges {
		if s.live[e] && rank[ed.Source] < rank[ed.Target] {
			return s.scalarDim(rank) // every component apart
		}
	}
	return false // a cut would order nothing that is left
}

// joins reports whether a live edge goes from a statement of group to one
// of component c.
func (s *scheduler) joins(group map[int]bool, c []int) bool {
	for e, ed := range s.g.Edges {
		if s.live[e] && group[ed.Source] && slices.Contains(c, ed.Target) {
			return true
		}
	}
	return false
}

// initialCut distributes before the first loop: every component (NoFuse),
// or between consecutive components of different depth (SmartFuse).
func (s *scheduler) initialCut(f Fusion) {
	order, _ := s.sccs(true)
	if len(order) < 2 {
		return
	}
	group := make([]int, len(s.p.Stmts))
	g, prevDepth := 0, -1
	for k, c := range order {
		depth := 0
		for _, st := range c {
			depth = max(depth, s.p.Stmts[st].Depth())
		}
		if k > 0 && (f == NoFuse || depth != prevDepth) {
			g++
		}
		prevDepth = depth
		for _, st := range c {
			group[st] = g
		}
	}
	if g > 0 {
		s.scalarDim(group)
	}
}

// finalOrder appends a scalar dimension in textual order, so that no two
// statements share a position in the loop tree (no dependence is left to
// order them, so any order is legal; textual order reads best).
func (s *scheduler) finalOrder() {
	if len(s.sc.Rows) < 2 {
		return
	}
	group := make([]int, len(s.sc.Rows))
	for st := range group {
		group[st] = st
	}
	s.scalarDim(group)
}

// orthogonalComplement returns integer rows spanning the orthogonal
// complement of the rows of h in Z^d: the rows of I − hᵀ(h·hᵀ)⁻¹h scaled to
// integers, zero rows dropped, and of a row and its negation only the
// first kept (Pluto's restriction to a half-space, a heuristic).
func orthogonalComplement(h [][]int64, d int) [][]int64 {
	if len(h) == 0 {
		out := make([][]int64, d)
		for k := range out {
			out[k] = make([]int64, d)
			out[k][k] = 1
		}
		return out
	}
	r := len(h)
	rat := func(x int64) *big.Rat { return new(big.Rat).SetInt64(x) }
	// g = h·hᵀ (r×r), then its inverse.
	g := make([][]*big.Rat, r)
	for i := range r {
		g[i] = make([]*big.Rat, r)
		for j := range r {
			var s int64
			for k := range d {
				s += h[i][k] * h[j][k]
			}
			g[i][j] = rat(s)
		}
	}
	inv, ok := invert(g) // h has independent rows, so g is invertible
	if !ok {
		return nil // defensive: no direction is known to be independent
	}
	var out [][]int64
	for i := range d {
		row := make([]*big.Rat, d)
		for j := range d {
			v := new(big.Rat)
			if i == j {
				v.SetInt64(1)
			}
			// − Σ_a Σ_b h[a][i] inv[a][b] h[b][j]
			for a := range r {
				for b := range r {
					t := new(big.Rat).Mul(rat(h[a][i]), inv[a][b])
					t.Mul(t, rat(h[b][j]))
					v.Sub(v, t)
				}
			}
			row[j] = v
		}
		ints := scaleToInts(row)
		if allZero(ints) || containsRowOrNeg(out, ints) {
			continue
		}
		out = append(out, ints)
	}
	return out
}

// invert returns the inverse of the square matrix m by Gauss–Jordan
// elimination over the rationals, or false when m is singular.
func invert(m [][]*big.Rat) ([][]*big.Rat, bool) {
	n := len(m)
	a := make([][]*big.Rat, n)
	for i := range a {
		a[i] = make([]*big.Rat, 2*n)
		for j := range n {
			a[i][j] = new(big.Rat).Set(m[i][j])
			a[i][n+j] = new(big.Rat)
		}
		a[i][n+i].SetInt64(1)
	}
	for c := range n {
		p := c
		for p < n && a[p][c].Sign() == 0 {
			p++
		}
		if p == n {
			return nil, false
		}
		a[c], a[p] = a[p], a[c]
		f := new(big.Rat).Inv(a[c][c])
		for j := range 2 * n {
			a[c][j].Mul(a[c][j], f)
		}
		for i := range n {
			if i != c && a[i][c].Sign() != 0 {
				f := new(big.Rat).Set(a[i][c])
				for j := range 2 * n {
					a[i][j].Sub(a[i][j], new(big.Rat).Mul(f, a[c][j]))
				}
			}
		}
	}
	out := make([][]*big.Rat, n)
	for i := range out {
		out[i] = a[i][n:]
	}
	return out, true
}

// scaleToInts multiplies a rational vector by the lcm of its denominators
// and divides by the gcd of the result.
func scaleToInts(v []*big.Rat) []int64 {
	l := big.NewInt(1)
	for _, x := range v {
		d := x.Denom()
		g := new(big.Int).GCD(nil, nil, l, d)
		l.Mul(l, new(big.Int).Quo(d, g))
	}
	out := make([]int64, len(v))
	var g int64
	for k, x := range v {
		n := new(big.Int).Mul(x.Num(), new(big.Int).Quo(l, x.Denom()))
		out[k] = n.Int64()
		g = intmath.Gcd(g, out[k])
	}
	if g > 1 {
		for k := range out {
			out[k] /= g
		}
	}
	return out
}

func containsRowOrNeg(rows [][]int64, r []int64) bool {
	for _, q := range rows {
		same, neg := true, true
		for k := range q {
			same = same && q[k] == r[k]
			neg = neg && q[k] == -r[k]
		}
		if same || neg {
			return true
		}
	}
	return false
}
