package sched

import (
	"fmt"
	"math"
	"slices"

	"nestor/internal/intmath"
	"nestor/ir"
	"nestor/model"
)

// Plan says how ApplyPlan lays the loop dimensions of a schedule out as
// loops. The zero Plan gives Apply's program: one loop per loop dimension,
// in schedule order.
type Plan struct {
	// Tile tiles every band of two or more loop dimensions where tiling
	// pays (tilingPays: the untiled loops lose some reuse), and every one
	// whose BandPlan says Yes: each loop dimension t of the band gets a
	// tile loop T outside the band with s·T ≤ t ≤ s·T + s − 1. Sizes
	// gives s per band dimension, outermost first, for every band; a
	// missing or zero entry takes the size of the cache model
	// (TileSizes).
	Tile  bool
	Sizes []int64
	// describe tiles every band, paying or not (DescribeBands' sizes).
	describe bool
	// Reorder moves to the innermost position of each band the loop with
	// the most stride-1 and invariant accesses (parallel loops first
	// among equals), and to the outermost tile position a parallel one.
	Reorder bool
	// Wavefront skews the first two tile loops of a tiled band none of
	// whose loops is parallel (T1 + T2 replaces T1), which makes the
	// second one parallel: tiles on one wavefront run in any order.
	Wavefront bool
	// Machine is the machine the tile sizes are chosen for (its L2
	// cache), passed in by the caller; the zero Machine means
	// model.Typical(), never the host the scheduler happens to run on.
	Machine model.Machine
	// Marks are the code generation decisions of every loop group
	// (Layout.Marks), unless the group's BandPlan overrides them.
	Marks Marks
	// Bands overrides the rules above band by band: Bands[b-1] is the
	// decision for the band LoopInfo.Band calls b (the permutable bands
	// of two or more loop dimensions, outermost first). A missing entry,
	// or a zero field, leaves the rule.
	Bands []BandPlan
}

// BandPlan fixes the layout of one band, whatever Plan's rules would do.
// Every value is legal: any order and any tiling of a permutable band
// keeps its dependences.
type BandPlan struct {
	// Order lists the band's loop dimensions (0 for its first) from the
	// outermost point loop to the innermost; nil keeps the Reorder rule.
	// It also turns off the sinking of parallel loops (see
	// sinkParallel), which would move a loop out of the order given.
	Order []int
	// Tile is Yes or No to tile the band or not; Rule leaves Plan.Tile.
	Tile Tristate
	// Sizes gives the tile size of each loop dimension of the band in
	// band order (not Order's); a missing or zero entry takes Plan.Sizes
	// and then the cache model's size.
	Sizes []int64
	// Wavefront is Yes or No to skew the band's first two tile loops
	// (only where no loop of the band is parallel); Rule leaves
	// Plan.Wavefront.
	Wavefront Tristate
	// Parallel, SIMD, Rfactor and Pack are Yes or No to set the band's
	// Marks.Parallel, !Marks.NoSIMD, Marks.Rfactor and Marks.Pack; Jam
	// and Unroll, when positive (both of Jam), its Marks.Jam and
	// Marks.Unroll. Rule and zero leave Plan.Marks.
	Parallel, SIMD, Rfactor, Pack Tristate
	Jam                           [2]int64
	Unroll                        int64
}

// Tristate is a decision that may be left to a rule.
type Tristate int8

// Tristate values.
const (
	Rule Tristate = iota
	Yes
	No
)

// Or returns t's decision, def when t leaves it to the rule.
func (t Tristate) Or(def bool) bool {
	switch t {
	case Yes:
		return true
	case No:
		return false
	}
	return def
}

// machine returns the machine of the plan.
func (plan Plan) machine() model.Machine {
	if plan.Machine.L2 == 0 {
		return model.Typical()
	}
	return plan.Machine
}

// band returns the plan's decisions for band b (1-based), zero when none.
func (plan Plan) band(b int) BandPlan {
	if b >= 1 && b <= len(plan.Bands) {
		return plan.Bands[b-1]
	}
	return BandPlan{}
}

// LoopInfo describes one counter (one loop) of the program ApplyPlan
// returns.
type LoopInfo struct {
	// Coincident says which statements the loop carries no dependence
	// of: with All, its iterations may run in any order, in parallel, or
	// as SIMD lanes; a loop of the counter around statements that are
	// all free is parallel too (see ParallelFor).
	Coincident Coincidence
	// Tile reports whether the loop counts tiles.
	Tile bool
	// Size is the tile size of a tile loop.
	Size int64
	// Wavefront reports whether a tile loop counts the sum of its own
	// tile index and the next loop's (a tile wavefront).
	Wavefront bool
	// Dim is the time dimension of the schedule the loop scans (a tile
	// loop: whose tiles it counts).
	Dim int
	// Band is 1 + the index of the permutable band of two or more loop
	// dimensions the loop belongs to, 0 for a loop outside such a band.
	// Point loops (Tile false) of one band may be permuted, strip-mined
	// and jammed among themselves.
	Band int
	// Marks are the code generation decisions of the loop's group
	// (Layout.Marks).
	Marks Marks
}

// ParallelFor reports whether a loop of this counter around (exactly) the
// statements stmts carries no dependence.
func (li LoopInfo) ParallelFor(stmts []int) bool {
	return li.Coincident.Of(stmts...)
}

// ApplyPlan rewrites p in the order of sc, laid out as plan says; see
// Apply. Every statement of the result has the same counters, described
// by the returned LoopInfo.
//
// Tiling and reordering stay within the permutable bands of sc, where
// they are legal: every dependence not satisfied before a band has a
// non-negative distance on each of its dimensions, hence also between
// tiles, and any order of the loops of a band (tile loops among
// themselves, point loops among themselves) keeps the dependences
// lexicographically positive.
func ApplyPlan(p *ir.Program, sc *Schedule, plan Plan) (*ir.Program, []LoopInfo, error) {
	return apply(p, sc, func(loops []int, olds [][]ir.Aff) []Layout { return decide(p, sc, loops, olds, plan) })
}

// ApplyLayouts rewrites p in the order of sc, its loop groups laid out as
// lays say (one per group, as Decide returns them).
func ApplyLayouts(p *ir.Program, sc *Schedule, lays []Layout) (*ir.Program, []LoopInfo, error) {
	loops := sc.loopDims()
	groups := loopGroups(sc, loops)
	if len(lays) != len(groups) {
		return nil, nil, fmt.Errorf("sched: %d layouts for %d loop groups", len(lays), len(groups))
	}
	sinks := 0
	for gi, g := range groups {
		if err := lays[gi].check(sc, loops, g); err != nil {
			return nil, nil, fmt.Errorf("sched: layout %d: %w", gi, err)
		}
		if lays[gi].Sink >= 0 {
			sinks++
		}
	}
	if sinks > 1 {
		return nil, nil, fmt.Errorf("sched: %d layouts sink a loop, at most one may", sinks)
	}
	return apply(p, sc, func([]int, [][]ir.Aff) []Layout { return lays })
}

// check reports why l is not a layout of group g (indices into loops),
// nil when it is one: its dimensions are the group's, its orders are
// permutations, its tile sizes positive, and what it tiles, skews or sinks
// may be (a band of two or more dimensions; a tiled one; a loop that
// carries no dependence, which may move anywhere inside).
func (l Layout) check(sc *Schedule, loops, g []int) error {
	if len(l.Dims) != len(g) {
		return fmt.Errorf("%d dimensions, the group has %d", len(l.Dims), len(g))
	}
	for n, j := range g {
		if l.Dims[n] != loops[j] {
			return fmt.Errorf("dimension %d is %d, the group's is %d", n, l.Dims[n], loops[j])
		}
	}
	if !ValidOrder(l.Order, len(g)) {
		return fmt.Errorf("order %v is not a permutation of the %d dimensions", l.Order, len(g))
	}
	if l.Tile {
		if len(g) < 2 {
			return fmt.Errorf("a loop alone is not tiled")
		}
		if !ValidOrder(l.Tiles, len(g)) || len(l.Sizes) != len(g) || slices.ContainsFunc(l.Sizes, func(s int64) bool { return s < 1 }) {
			return fmt.Errorf("tiles %v with sizes %v: want a permutation and a positive size per dimension", l.Tiles, l.Sizes)
		}
	} else if l.Wavefront {
		return fmt.Errorf("a wavefront of tiles needs tiles")
	}
	if m := l.Marks; m.Jam[0] < 0 || m.Jam[1] < 0 || m.Unroll < 0 {
		return fmt.Errorf("marks %s: negative factors", m)
	}
	if l.Sink < -1 || l.Sink >= 0 && (l.Sink >= len(g) || !sc.Coincident[l.Dims[l.Sink]].All) {
		return fmt.Errorf("sink %d: only a dimension that carries no dependence may move innermost", l.Sink)
	}
	return nil
}

// apply rewrites p in the order of sc, laid out as the layouts that
// decide returns given the loop dimensions of sc and each statement's
// counters over them.
func apply(p *ir.Program, sc *Schedule, decide func(loops []int, olds [][]ir.Aff) []Layout) (*ir.Program, []LoopInfo, error) {
	loops := sc.loopDims()
	m := len(loops)
	olds := make([][]ir.Aff, len(p.Stmts))
	conss := make([][]ir.Constraint, len(p.Stmts))
	divss := make([][]ir.Div, len(p.Stmts))
	for si, s := range p.Stmts {
		var err error
		olds[si], conss[si], divss[si], err = stmtMap(p, s, sc.Rows[si], loops)
		if err != nil {
			return nil, nil, fmt.Errorf("sched: %s: %w", s.Name, err)
		}
	}
	lay := build(sc, loops, decide(loops, olds))
	names := timeNames(p, len(lay.info))
	bs := betas(sc, loops)
	out := &ir.Program{Params: p.Params, Arrays: p.Arrays, Context: p.Context, Vars: p.Vars, Voided: p.Voided}
	for si, s := range p.Stmts {
		ns, err := lay.stmt(p, s, olds[si], conss[si], divss[si], bs[si], names, m)
		if err != nil {
			return nil, nil, fmt.Errorf("sched: %s: %w", s.Name, err)
		}
		out.Stmts = append(out.Stmts, ns)
	}
	return out, lay.info, nil
}

// plan is the layout of the counters: where each loop dimension's
// counter goes, and the tile counters.
type planLayout struct {
	pos   []int       // new index of loop dimension j's counter
	tiles []tileLoop  // the tile counters
	start []int       // per new counter, the loop dimension whose beta entry precedes it, or -1
	info  []LoopInfo  // per new counter
	group []int       // per new counter, the index of its group (a band, or a loop alone)
	skew  map[int]int // wavefront: tile counter index → the tile index added to it
}

// tileLoop is tile counter at (new index) of loop dimension j: size·at ≤ t_j ≤ size·at + size − 1.
type tileLoop struct {
	at, j int
	size  int64
}

// loopDims returns the time dimensions of sc that are loops (not scalar).
func (sc *Schedule) loopDims() []int {
	var loops []int
	for k := range sc.Dims() {
		if !sc.scalar(k) {
			loops = append(loops, k)
		}
	}
	return loops
}

// loopGroups returns the groups of loop indices (into loops) laid out
// together, in order: each band restricted to its loop dimensions, and
// every other loop alone. LoopInfo.Band numbers those of two or more.
func loopGroups(sc *Schedule, loops []int) [][]int {
	dimOf := map[int]int{} // time dim → loop index
	for j, k := range loops {
		dimOf[k] = j
	}
	var groups [][]int
	inBand := make([]bool, len(loops))
	for _, b := range sc.Bands {
		var g []int
		for k := b.Start; k < b.End; k++ {
			if j, ok := dimOf[k]; ok {
				g = append(g, j)
				inBand[j] = true
			}
		}
		if len(g) > 0 {
			groups = append(groups, g)
		}
	}
	for j := range loops {
		if !inBand[j] {
			groups = append(groups, []int{j})
		}
	}
	slices.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
	return groups
}

// A Layout is every decision ApplyPlan takes for one group of loop
// dimensions of a schedule: a permutable band of two or more dimensions,
// or a loop alone. Decide fills the layouts of a schedule from a Plan's
// rules and overrides; ApplyLayouts lays the program out as they say. Any
// order and any tiling of a band is legal, so a search may change them
// freely (keeping Dims and Band).
type Layout struct {
	// Dims are the group's time dimensions, in band order.
	Dims []int
	// Band is LoopInfo.Band of the group's loops: 1 + the index of the
	// band among those of two or more dimensions, 0 for a loop alone.
	Band int
	// Order lists the point loops, outermost first, as indices into Dims.
	Order []int
	// Tile says whether the band is tiled (only a band of two or more
	// dimensions is); Tiles then lists its tile loops outermost first (as
	// indices into Dims) and Sizes the tile size of each dimension, in
	// band order.
	Tile  bool
	Tiles []int
	Sizes []int64
	// Wavefront skews the first two tile loops: T1 + T2 replaces T1, and
	// the second one carries no dependence of the band.
	Wavefront bool
	// Sink, when not −1, moves the point loop of Dims[Sink] below every
	// later loop, innermost (see sinkParallel); at most one group of a
	// schedule has one.
	Sink int
	// Marks are how code generation prints the group's loops.
	Marks Marks
}

// Decide returns the layouts of the loop groups of sc (outermost first)
// that plan's rules and band overrides choose.
func Decide(p *ir.Program, sc *Schedule, plan Plan) ([]Layout, error) {
	loops := sc.loopDims()
	olds := make([][]ir.Aff, len(p.Stmts))
	for si, s := range p.Stmts {
		var err error
		if olds[si], _, _, err = stmtMap(p, s, sc.Rows[si], loops); err != nil {
			return nil, fmt.Errorf("sched: %s: %w", s.Name, err)
		}
	}
	return decide(p, sc, loops, olds, plan), nil
}

// decide is Decide given the loop dimensions of sc and each statement's
// counters over them (olds).
func decide(p *ir.Program, sc *Schedule, loops []int, olds [][]ir.Aff, plan Plan) []Layout {
	groups := loopGroups(sc, loops)
	parallel := parallelIn(sc, loops)
	lays := make([]Layout, len(groups))
	bands, sink := 0, plan.Reorder
	for gi, g := range groups {
		band := 0
		if len(g) > 1 {
			bands++
			band = bands
		}
		bp := plan.band(band)
		lay := Layout{Band: band, Sink: -1, Marks: plan.marks(band)}
		for _, j := range g {
			lay.Dims = append(lay.Dims, loops[j])
		}
		points := slices.Clone(g)
		switch {
		case len(g) > 1 && ValidOrder(bp.Order, len(g)):
			for n, k := range bp.Order {
				points[n] = g[k]
			}
			sink = false
		case plan.Reorder && len(g) > 1:
			points = innermostLast(p, sc, loops, olds, g)
		}
		lay.Order = indices(g, points)
		if bp.Tile.Or(plan.Tile) && len(g) > 1 {
			lay.Tile = true
			tiles := slices.Clone(g)
			if plan.Reorder {
				// A parallel tile loop outermost: its loop becomes the
				// OpenMP loop with the most work per thread.
				k := slices.IndexFunc(tiles, parallel)
				if k < 0 {
					k = mostParallel(p, sc, loops, tiles)
				}
				if k > 0 {
					j := tiles[k]
					tiles = append([]int{j}, slices.Delete(tiles, k, k+1)...)
				}
			}
			lay.Tiles = indices(g, tiles)
			override := slices.Clone(plan.Sizes)
			for n, sz := range bp.Sizes {
				if sz > 0 {
					for len(override) <= n {
						override = append(override, 0)
					}
					override[n] = sz
				}
			}
			lay.Sizes = TileSizes(p, olds, g, points[len(points)-1], override, plan.machine())
			lay.Wavefront = bp.Wavefront.Or(plan.Wavefront) && !slices.ContainsFunc(g, parallel) && !eachParallel(p, sc, loops, g)
			// Untiled, the band's outermost loop must be its parallel one
			// if it has one (its tile loop is moved out otherwise). A band
			// parallel by a wavefront of tiles, or statement by statement
			// (eachParallel), stays tiled.
			outerPar := parallel(points[0]) || !slices.ContainsFunc(g, parallel) && !lay.Wavefront && !eachParallel(p, sc, loops, g)
			// Inside a sequential loop, a tile loop kept only for its
			// parallelism forks once per iteration of that loop and cuts
			// the inner loop's streams short. Where the untiled innermost
			// loop moves every access by at most one element and some
			// statement keeps the outermost point loop parallel, the band
			// runs untiled and that statement's loop runs in parallel
			// (distributed from the others): gramschmidt LARGE's update
			// of R and A in rows (i outside j) took 287 ms tiled and 236
			// ms untiled at one thread, 274 and 194 ms at two.
			streams := !outerPar && insideSequential(loops, g, parallel) && unitStride(p, olds, points) && ownParallel(p, sc, loops, olds, points)
			if bp.Tile == Rule && !plan.describe && (outerPar || streams) && !tilingPays(p, olds, points, plan.machine().L2/2) {
				lay.Tile, lay.Tiles, lay.Sizes, lay.Wavefront = false, nil, nil, false
			}
		}
		lays[gi] = lay
	}
	if sink {
		// Where the laid-out loops call for it, one parallel point loop
		// sinks innermost.
		built := build(sc, loops, lays)
		if c := built.sinkCandidate(p, sc, loops, olds); c >= 0 {
			j := slices.Index(built.pos, c)
			for gi, g := range groups {
				if k := slices.Index(g, j); k >= 0 {
					lays[gi].Sink = k
				}
			}
		}
	}
	return lays
}

// indices returns the position in g of each element of sub.
func indices(g, sub []int) []int {
	out := make([]int, len(sub))
	for n, j := range sub {
		out[n] = slices.Index(g, j)
	}
	return out
}

// build lays the counters out as lays say: the positions of the point and
// tile counters, their LoopInfo, and the wavefront skews.
func build(sc *Schedule, loops []int, lays []Layout) *planLayout {
	jOf := map[int]int{} // time dim → loop index
	for j, k := range loops {
		jOf[k] = j
	}
	lay := &planLayout{pos: make([]int, len(loops)), skew: map[int]int{}}
	sinkJ := -1
	for gi, l := range lays {
		g := make([]int, len(l.Dims))
		for n, k := range l.Dims {
			g[n] = jOf[k]
		}
		if l.Tile {
			first := len(lay.info)
			for _, k := range l.Tiles {
				j := g[k]
				at := len(lay.info)
				lay.tiles = append(lay.tiles, tileLoop{at: at, j: j, size: l.Sizes[k]})
				lay.info = append(lay.info, LoopInfo{Coincident: sc.Coincident[loops[j]], Tile: true, Size: l.Sizes[k], Dim: loops[j], Band: l.Band, Marks: l.Marks})
				lay.start = append(lay.start, -1)
				lay.group = append(lay.group, gi)
			}
			lay.start[first] = g[0]
			if l.Wavefront {
				lay.skew[first] = first + 1
				lay.info[first].Coincident = Coincidence{}
				lay.info[first].Wavefront = true
				lay.info[first+1].Coincident = Coincidence{All: true}
			}
		}
		for n, k := range l.Order {
			j := g[k]
			lay.pos[j] = len(lay.info)
			lay.info = append(lay.info, LoopInfo{Coincident: sc.Coincident[loops[j]], Dim: loops[j], Band: l.Band, Marks: l.Marks})
			lay.group = append(lay.group, gi)
			if n == 0 && !l.Tile {
				lay.start = append(lay.start, g[0])
			} else {
				lay.start = append(lay.start, -1)
			}
		}
		if l.Sink >= 0 {
			sinkJ = g[l.Sink]
		}
	}
	if sinkJ >= 0 {
		lay.moveLast(lay.pos[sinkJ])
	}
	return lay
}

// ValidOrder reports whether order is a permutation of 0..n-1 (a
// BandPlan.Order for a band of n loop dimensions).
func ValidOrder(order []int, n int) bool {
	if len(order) != n {
		return false
	}
	seen := make([]bool, n)
	for _, k := range order {
		if k < 0 || k >= n || seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// sinkCandidate returns the counter of a parallel point loop to move
// below the loops of later groups (sinkParallel), −1 for none.
//
// sinkParallel moves a parallel point loop below the loops of later groups
// nested in it (to the innermost position) when its accesses run along
// rows where the innermost loop's jump across them: symm's update
// C[k][j] += … B[i][j] … runs its k loop (a separate band, for the
// statements that have it) inside the parallel j loop and walks C and B
// by columns; with j innermost it walks them by rows.
//
// It is legal because the loop carries no dependence (Parallel: distance
// zero on every dependence not satisfied outside its band, hence on every
// one not satisfied by an outer loop): moving a zero entry of every
// distance vector to the end keeps each vector's first non-zero entry,
// positive. Statements that shared the loop around the inner ones get one
// loop each (the scalar dimensions now precede it). The moved loop leaves
// its band (Band 0): it is no longer next to the band's other loops.
//
// The candidate must not be the innermost loop's group, and the loop that
// scores best over the statements with loops below it (innermostLast's
// stride score) must beat the innermost loop's score.
func (lay *planLayout) sinkCandidate(p *ir.Program, sc *Schedule, loops []int, olds [][]ir.Aff) int {
	n := len(lay.info)
	if n < 2 || lay.info[n-1].Tile {
		return -1
	}
	loopAt := make([]int, n) // loop index of a point counter, −1 for a tile one
	for c := range loopAt {
		loopAt[c] = -1
	}
	for j, c := range lay.pos {
		loopAt[c] = j
	}
	inner := loopAt[n-1]
	best, bestScore := -1, 0
	for c := 0; c < n-1; c++ {
		j := loopAt[c]
		if j < 0 || !lay.info[c].Coincident.All || lay.group[c] == lay.group[n-1] {
			continue
		}
		if lay.start[c] >= 0 && (lay.group[c+1] != lay.group[c] || lay.start[c+1] >= 0) {
			continue // its beta entry has no loop of its group to go to
		}
		deeper := map[int]bool{} // the statements with a loop below c
		for st := range p.Stmts {
			for k := c + 1; k < n; k++ {
				if l := loopAt[k]; l >= 0 && !isConstant(sc.Rows[st][loops[l]]) {
					deeper[st] = true
				}
			}
		}
		score, innerScore := 0, 0
		for st := range deeper {
			for _, acc := range p.Stmts[st].Accesses {
				score += strideScore(acc, olds[st], j)
				innerScore += strideScore(acc, olds[st], inner)
			}
		}
		if score > innerScore && (best < 0 || score > bestScore) {
			best, bestScore = c, score
		}
	}
	return best
}

// moveLast moves counter c to the innermost position, handing its beta
// entry to the next counter of its group.
func (lay *planLayout) moveLast(c int) {
	n := len(lay.info)
	newIdx := make([]int, n)
	for k := range n {
		switch {
		case k < c:
			newIdx[k] = k
		case k == c:
			newIdx[k] = n - 1
		default:
			newIdx[k] = k - 1
		}
	}
	if lay.start[c] >= 0 {
		lay.start[c+1], lay.start[c] = lay.start[c], -1
	}
	start, info, group := make([]int, n), make([]LoopInfo, n), make([]int, n)
	for k := range n {
		start[newIdx[k]], info[newIdx[k]], group[newIdx[k]] = lay.start[k], lay.info[k], lay.group[k]
	}
	info[n-1].Band = 0
	lay.start, lay.info, lay.group = start, info, group
	for j := range lay.pos {
		lay.pos[j] = newIdx[lay.pos[j]]
	}
	for t := range lay.tiles {
		lay.tiles[t].at = newIdx[lay.tiles[t].at]
	}
	skew := map[int]int{}
	for k, v := range lay.skew {
		skew[newIdx[k]] = newIdx[v]
	}
	lay.skew = skew
}

// loopRows returns the statements whose rows at the band's dimensions
// (loops[j], j in g) are not constant: those the band's loops scan, with
// how many of them each has.
func loopRows(p *ir.Program, sc *Schedule, loops []int, g []int) map[int]int {
	out := map[int]int{}
	for st := range p.Stmts {
		for _, j := range g {
			if slices.ContainsFunc(sc.Rows[st][loops[j]].Iter, func(c int64) bool { return c != 0 }) {
				out[st]++
			}
		}
	}
	return out
}

// eachParallel reports whether every statement that two or more loops of
// band g scan has one of them parallel for it: the statements were
// distributed, and each nest has a parallel loop of its own, so a
// wavefront of tiles (which serializes the outer tile loop) would lose
// what they have.
func eachParallel(p *ir.Program, sc *Schedule, loops []int, g []int) bool {
	for st, n := range loopRows(p, sc, loops, g) {
		if n >= 2 && !slices.ContainsFunc(g, func(j int) bool { return sc.ParallelFor(loops[j], st) }) {
			return false
		}
	}
	return true
}

// mostParallel returns the index in tiles of the loop parallel for the
// most statements that it scans, −1 when it is parallel for none.
func mostParallel(p *ir.Program, sc *Schedule, loops []int, tiles []int) int {
	best, bestN := -1, 0
	for k, j := range tiles {
		n := 0
		for st := range loopRows(p, sc, loops, []int{j}) {
			if sc.ParallelFor(loops[j], st) {
				n++
			}
		}
		if n > bestN {
			best, bestN = k, n
		}
	}
	return best
}

// stmt builds statement s over the new counters from old (s's counters as
// forms over the m loop-dimension counters) and cons (its domain over
// them).
func (lay *planLayout) stmt(p *ir.Program, s *ir.Stmt, old []ir.Aff, cons []ir.Constraint, divs []ir.Div, beta []int, names []string, m int) (*ir.Stmt, error) {
	n, np, nl := len(lay.info), len(p.Params), len(divs)
	remap := func(a ir.Aff) ir.Aff {
		out := ir.Aff{Iter: make([]int64, n), Param: slices.Clone(a.Param), Local: make([]int64, nl), Const: a.Const}
		copy(out.Local, a.Local)
		for j, c := range a.Iter {
			out.Iter[lay.pos[j]] += c
		}
		return out
	}
	// The constraints that read a local (congruences) stay as they are;
	// the loops' bounds are projected from the others, a relaxation whose
	// projections the exact domain implies.
	var all, congruences []ir.Constraint
	for _, c := range cons {
		c := ir.Constraint{Eq: c.Eq, Aff: remap(c.Aff)}
		if slices.ContainsFunc(c.Local, func(v int64) bool { return v != 0 }) {
			congruences = append(congruences, c)
			continue
		}
		all = append(all, c)
	}
	for _, tl := range lay.tiles {
		// t − s·T ≥ 0 and s·T + s − 1 − t ≥ 0, with T = W − T2 where the
		// tile loop is skewed.
		lo := ir.Aff{Iter: make([]int64, n), Param: make([]int64, np)}
		lo.Iter[lay.pos[tl.j]] = 1
		lo.Iter[tl.at] -= tl.size
		if by, ok := lay.skew[tl.at]; ok {
			lo.Iter[by] += tl.size
		}
		hi := neg(lo)
		hi.Const += tl.size - 1
		all = append(all, ir.Constraint{Aff: lo}, ir.Constraint{Aff: hi})
	}
	all, err := withProjections(all, n, np)
	if err != nil {
		return nil, err
	}
	for k := range all {
		all[k].Local = make([]int64, nl)
	}
	all = append(all, congruences...)
	ns := &ir.Stmt{Name: s.Name, Iters: names, Dir: make([]int, n), Op: s.Op, Pos: s.Pos, Text: s.Text,
		Beta: make([]int, n+1), Domain: ir.Domain{Cons: all}}
	for _, dv := range divs {
		ns.Domain.Divs = append(ns.Domain.Divs, ir.Div{Num: remap(dv.Num), Den: dv.Den})
	}
	for k := range ns.Dir {
		ns.Dir[k] = 1
	}
	for k, j := range lay.start {
		if j >= 0 {
			ns.Beta[k] = beta[j]
		}
	}
	ns.Beta[n] = beta[m]
	news := make([]ir.Aff, len(old))
	for l, a := range old {
		news[l] = remap(a)
	}
	for _, acc := range s.Accesses {
		na := &ir.Access{Array: acc.Array, Write: acc.Write}
		for _, x := range acc.Index {
			na.Index = append(na.Index, substitute(x, news, n, np)) // subscripts have no locals (ir.Access)
		}
		ns.Accesses = append(ns.Accesses, na)
	}
	ns.RHS = rewriteIters(s.RHS, news, np)
	return ns, nil
}

func neg(a ir.Aff) ir.Aff {
	out := ir.Aff{Iter: make([]int64, len(a.Iter)), Param: make([]int64, len(a.Param)), Const: -a.Const}
	for k, c := range a.Iter {
		out.Iter[k] = -c
	}
	for k, c := range a.Param {
		out.Param[k] = -c
	}
	return out
}

// innermostLast returns the loops of band g with the best innermost loop
// moved last, the others in schedule order. First, the fewest statements
// that carry a recurrence along the loop (carriesRecurrence): innermost,
// such a loop runs one iteration after another at the latency of the
// statement's chain of operations, where a loop without one overlaps
// its iterations. Then the best stride score: a loop scores, over every
// access of every statement, 2 when only the last subscript moves with it
// by ±1 (consecutive elements), 1 when no subscript does (the element
// stays in a register), and −4 otherwise (a new cache line per
// iteration); a parallel loop gets 1 more (it vectorizes without
// reassociation). Ties keep the later loop.
func innermostLast(p *ir.Program, sc *Schedule, loops []int, olds [][]ir.Aff, g []int) []int {
	best, bestRec, bestScore := g[len(g)-1], 0, 0
	for n, j := range g {
		rec, score := 0, 0
		if sc.Coincident[loops[j]].All {
			score++
		}
		for si, s := range p.Stmts {
			for _, acc := range s.Accesses {
				score += strideScore(acc, olds[si], j)
			}
			if carriesRecurrence(s, olds[si], j) {
				rec++
			}
		}
		if n == 0 || rec < bestRec || rec == bestRec && score >= bestScore {
			best, bestRec, bestScore = j, rec, score
		}
	}
	out := slices.DeleteFunc(slices.Clone(g), func(j int) bool { return j == best })
	return append(out, best)
}

// carriesRecurrence reports whether statement s, with counters given by
// old, reads along loop j an element it wrote δ ≥ 1 iterations of j
// earlier, the other counters unchanged: a write and a read of one array
// whose subscripts differ by the constant δ·(step along j), as
// p[i][j] = f(p[i][j-1]). The update of one element (s += ..., a
// reduction) is no such recurrence: unroll-and-jam of an outer loop
// interleaves its chains, and its loop keeps its stride score.
func carriesRecurrence(s *ir.Stmt, old []ir.Aff, j int) bool {
	w := s.Accesses[0]
	if !w.Write {
		return false
	}
	for _, r := range s.Accesses[1:] {
		if !r.Write && r.Array == w.Array && len(r.Index) == len(w.Index) && recurrenceDistance(w, r, old, j) >= 1 {
			return true
		}
	}
	return false
}

// recurrenceDistance returns δ when read r at iteration I is write w at
// I − δ·e_j (their subscripts differ by δ·(step along j)), else 0.
func recurrenceDistance(w, r *ir.Access, old []ir.Aff, j int) int64 {
	var delta int64
	for k := range w.Index {
		d, ok := constDiff(w.Index[k], r.Index[k])
		st := step(w.Index[k], old, j)
		switch {
		case !ok, st == 0 && d != 0:
			return 0
		case st != 0:
			if d%st != 0 || delta != 0 && delta != d/st {
				return 0
			}
			delta = d / st
		}
	}
	return delta
}

// constDiff returns w − r when it is a constant, and whether it is.
func constDiff(w, r ir.Aff) (int64, bool) {
	if !slices.Equal(w.Iter, r.Iter) || !slices.Equal(w.Param, r.Param) || !slices.Equal(w.Local, r.Local) {
		return 0, false
	}
	return w.Const - r.Const, true
}

// step returns how much subscript x changes when loop counter j grows by
// one, with the statement's counters given by old.
func step(x ir.Aff, old []ir.Aff, j int) int64 {
	var v int64
	for l, c := range x.Iter {
		v += c * old[l].Iter[j]
	}
	return v
}

// strideScore rates how access acc moves along loop j (see innermostLast).
func strideScore(acc *ir.Access, old []ir.Aff, j int) int {
	last := len(acc.Index) - 1
	for k := 0; k < last; k++ {
		if step(acc.Index[k], old, j) != 0 {
			return -4
		}
	}
	if last < 0 {
		return 1
	}
	switch v := step(acc.Index[last], old, j); {
	case v == 0:
		return 1
	case v == 1 || v == -1:
		return 2
	}
	return -4
}

// tilingPays reports whether tiling a band whose point loops run as
// points (loop indices, outermost first) can keep in cache data that the
// untiled loops cannot. The untiled loops reuse data across an iteration
// of a point loop L (an access touches elements, or cache lines, that it
// touched in the previous iteration of L: each subscript that L moves is
// moved by a loop inside L too, or moves by less than a line in the last
// dimension) when what the loops inside L touch
// over their whole extent fits in budget bytes; that extent is bounded by
// the arrays' sizes. Where every such reuse fits, tiles only cut the
// inner loop's streams into pieces: gesummv's rows of 1300 doubles, cut
// into pieces of 256, ran 20% slower than whole. An array of unknown size
// counts as too large.
func tilingPays(p *ir.Program, olds [][]ir.Aff, points []int, budget int64) bool {
	const line = 64 // bytes of a cache line
	inBand := func(si int) bool { return movedBy(olds[si], points) }
	for l := 0; l+1 < len(points); l++ {
		outer, inner := points[l], points[l+1:]
		reuse := false
		per := map[*ir.Array]int64{}
		for si, s := range p.Stmts {
			if !inBand(si) {
				continue
			}
			for _, acc := range s.Accesses {
				a := p.Arrays[acc.Array]
				elem := int64(a.Elem.Size())
				last := len(acc.Index) - 1
				moves := false // to data the next iteration of outer does not touch
				bytes := elem
				for k, x := range acc.Index {
					inside := slices.ContainsFunc(inner, func(j int) bool { return step(x, olds[si], j) != 0 })
					if st := intmath.Abs(step(x, olds[si], outer)); st != 0 && !inside && (k != last || st*elem >= line) {
						moves = true
					}
					switch {
					case inside && (k >= len(a.Dims) || !a.Dims[k].IsConst() || a.Dims[k].Const <= 0):
						return true // unknown extent
					case inside:
						bytes = satMul(bytes, a.Dims[k].Const)
					case k == last:
						bytes = satMul(bytes/elem, line) // a line per row
					}
				}
				reuse = reuse || !moves
				per[a] = max(per[a], bytes)
			}
		}
		var total int64
		for _, b := range per {
			total = min(total+b, math.MaxInt64/2)
		}
		if reuse && total > budget {
			return true
		}
	}
	return false
}

// movedBy reports whether a statement whose counters are old (in terms
// of the loops) runs in any of the loops points.
func movedBy(old []ir.Aff, points []int) bool {
	for _, x := range old {
		for _, j := range points {
			if j < len(x.Iter) && x.Iter[j] != 0 {
				return true
			}
		}
	}
	return false
}

// inLoops returns the number of the loops points that a statement whose
// counters are old runs in.
func inLoops(old []ir.Aff, points []int) int {
	n := 0
	for _, j := range points {
		if movedBy(old, []int{j}) {
			n++
		}
	}
	return n
}

// insideSequential reports whether a loop outside the group g (a loop
// index before its first) carries a dependence.
func insideSequential(loops, g []int, parallel func(int) bool) bool {
	for j := range loops[:g[0]] {
		if !parallel(j) {
			return true
		}
	}
	return false
}

// unitStride reports whether the innermost of the point loops points
// moves every access of the statements in two or more of them by at most
// one element of its last subscript (strideScore ≥ 1). Tiles only cut a
// statement in one of them into pieces, in the same order.
func unitStride(p *ir.Program, olds [][]ir.Aff, points []int) bool {
	inner := points[len(points)-1]
	for si, s := range p.Stmts {
		if inLoops(olds[si], points) < 2 {
			continue
		}
		for _, acc := range s.Accesses {
			if strideScore(acc, olds[si], inner) < 1 {
				return false
			}
		}
	}
	return true
}

// ownParallel reports whether the outermost of the point loops points
// carries no dependence of some statement in two or more of them: untiled
// and distributed, that statement's loop still runs in parallel.
func ownParallel(p *ir.Program, sc *Schedule, loops []int, olds [][]ir.Aff, points []int) bool {
	for si := range p.Stmts {
		if inLoops(olds[si], points) >= 2 && sc.ParallelFor(loops[points[0]], si) {
			return true
		}
	}
	return false
}

// satMul returns a·b, or MaxInt64/2 when that is larger.
func satMul(a, b int64) int64 {
	if b != 0 && a > math.MaxInt64/2/b {
		return math.MaxInt64 / 2
	}
	return a * b
}

// Tile-size model bounds.
const (
	minTile = 8   // below this, loop overhead dominates
	maxTile = 256 // beyond this, tiles stop fitting any cache
	// innerFactor stretches the innermost point loop: long stride-1 runs
	// keep SIMD lanes and prefetchers busy.
	innerFactor = 4
	// innerVectors is the fewest vectors' worth of elements the
	// innermost point loop runs (16 vectors: 128 doubles with AVX-512),
	// however small the others: heat-3d's four-dimensional time tiles
	// (8 on the other loops) ran 16% faster at one thread and 9% at two
	// with 128 than with innerFactor's 32, at LARGE.
	innerVectors = 16
)

// TileSizes returns the tile size of every loop of band g (in g's order),
// with inner the loop that runs innermost: the model's sizes for machine
// m where override has no positive entry. The model takes one size s for every
// loop (innerFactor·s for the innermost), the largest power of two for
// which the data one tile touches fits in half the L2 cache, as counted
// by footprint; the innermost at least innerLeast elements (16 vectors).
// An innermost loop along which some access leaves its
// cache line at every iteration (stridedLanes: a column of p[i][j] along
// i) gets one line's worth of elements instead: each such access then
// reads a line per row and uses all of it before the next loop moves
// on, and the rows of a tile stay in L1 (adi's sweeps along i, vectorized
// across rows: 8×128 tiles ran 20% faster than 128×32).
func TileSizes(p *ir.Program, olds [][]ir.Aff, g []int, inner int, override []int64, m model.Machine) []int64 {
	budget := m.L2 / 2
	sizes := make([]int64, len(g))
	lanes := stridedLanes(p, olds, inner, m.L3/2)
	least := innerLeast(p, m)
	set := func(s int64) {
		for n, j := range g {
			sizes[n] = s
			switch {
			case j == inner && lanes > 0:
				sizes[n] = lanes
			case j == inner:
				sizes[n] = min(max(s*innerFactor, least), maxTile*innerFactor)
			}
		}
	}
	s := int64(minTile)
	for s*2 <= maxTile {
		set(s * 2)
		if footprint(p, olds, g, sizes) > budget {
			break
		}
		s *= 2
	}
	set(s)
	if s, ok := deepInner(p, olds, g, inner, budget); ok {
		sizes[slices.Index(g, inner)] = s
	}
	for n := range sizes {
		if n < len(override) && override[n] > 0 {
			sizes[n] = override[n]
		}
	}
	return sizes
}

// deepInner sizes the tiles of a band whose statements run loops of their
// own inside it (schedule dimensions after the band's) that sweep whole
// array dimensions: trisolve's row update A[i][j+k+1] -= A[i][j] *
// U[j][j+k+1], k inside the band of i and j. A tile's data is then not
// its sizes' product: each iteration of the band's innermost loop inner
// touches whole rows (U[j][*], A[i][*]). The rows inner runs over are
// used again by every iteration of the outer point loops, from the L2
// cache if they fit in budget: inner gets the largest power of two (from
// minTile to maxTile) whose rows fit; the outer loops keep their sizes
// (each outer iteration's own rows, A[i][*], stay in L1 while inner
// runs). At LARGE, trisolve's 32×128 tiles (128 rows of U, 1.2 MB, from
// the L3 cache for every row of A) took 164 ms at one thread, 32×32 139
// ms, 64×32 139 and 256×32 136 (medians of 11 interleaved rounds): the
// outer size hardly matters, and larger ones would cost MEDIUM its
// parallel tiles. ok is false when no access moves along a deeper loop,
// or one that does has an array extent that is not a constant.
func deepInner(p *ir.Program, olds [][]ir.Aff, g []int, inner int, budget int64) (size int64, ok bool) {
	last := slices.Max(g)
	// deeper reports whether subscript x, of a statement whose counters
	// are old, moves along a loop inside the band.
	deeper := func(x ir.Aff, old []ir.Aff) bool {
		for j := last + 1; len(old) > 0 && j < len(old[0].Iter); j++ {
			if step(x, old, j) != 0 {
				return true
			}
		}
		return false
	}
	// rows returns the bytes the band's statements (those with a loop at
	// each of its dimensions: ludcmp's back substitution shares only the
	// first with its factorization's band) touch over t iterations of
	// inner, and whether some access moves along a deeper loop; ok is
	// false when such an access's array extent is not a constant.
	rows := func(t int64) (bytes int64, deep, ok bool) {
		per := map[*ir.Array]int64{}
		for si, s := range p.Stmts {
			if inLoops(olds[si], g) < len(g) {
				continue
			}
			for _, acc := range s.Accesses {
				a := p.Arrays[acc.Array]
				n := int64(a.Elem.Size())
				for d, x := range acc.Index {
					if !deeper(x, olds[si]) {
						n = satMul(n, 1+intmath.Abs(step(x, olds[si], inner))*(t-1))
						continue
					}
					if d >= len(a.Dims) || !a.Dims[d].IsConst() || a.Dims[d].Const <= 0 {
						return 0, true, false
					}
					deep = true
					n = satMul(n, a.Dims[d].Const)
				}
				per[a] = max(per[a], n)
			}
		}
		for _, b := range per {
			bytes = min(bytes+b, math.MaxInt64/2)
		}
		return bytes, deep, true
	}
	if _, deep, ok := rows(minTile); !deep || !ok {
		return 0, false
	}
	size = minTile
	for size*2 <= maxTile {
		if b, _, _ := rows(size * 2); b > budget {
			break
		}
		size *= 2
	}
	return size, true
}

// innerLeast returns the fewest elements of the innermost point loop:
// innerVectors vectors of machine m of p's widest array element (at
// least 8 bytes of vector: 16 doubles without SIMD registers).
func innerLeast(p *ir.Program, m model.Machine) int64 {
	elem := 1
	for _, a := range p.Arrays {
		elem = max(elem, a.Elem.Size())
	}
	return int64(innerVectors * max(m.VectorBytes, 8) / elem)
}

// stridedLanes returns, when the accesses of p that move along loop
// inner mostly leave their cache line at every iteration (more than one
// element along the last subscript, or along another subscript) and the
// arrays they read add up to more than big bytes (known sizes), the most
// elements of such an access a cache line holds (at least minTile); 0
// otherwise. Mostly: the strided accesses outnumber the stride-1 ones (a
// band's sizes hold for every statement with loops at its dimensions,
// adi's column sweeps and its other loops alike). Big: streamed from
// memory, a tile's many short runs of lines defeat the prefetchers, and
// narrow tiles keep its rows few; arrays that stay in cache are faster
// with the innermost loop stretched (adi, 8×256 tiles against 128×32: at
// n = 1000, 32 MB of strided arrays, 10–20% faster; at n = 200, 1.3 MB,
// 50% slower).
func stridedLanes(p *ir.Program, olds [][]ir.Aff, inner int, big int64) int64 {
	const line = 64 // bytes of a cache line
	var lanes int64
	strided, unit := 0, 0
	arrays := map[*ir.Array]bool{}
	for si, s := range p.Stmts {
		for _, acc := range s.Accesses {
			switch strideScore(acc, olds[si], inner) {
			case 2:
				unit++
			case -4:
				strided++
				a := p.Arrays[acc.Array]
				arrays[a] = true
				lanes = max(lanes, minTile, line/int64(max(1, a.Elem.Size())))
			}
		}
	}
	if strided <= unit {
		return 0
	}
	var bytes int64
	for a := range arrays {
		n := int64(max(1, a.Elem.Size()))
		for _, d := range a.Dims {
			if !d.IsConst() || d.Const <= 0 {
				return 0 // unknown size
			}
			n = satMul(n, d.Const)
		}
		bytes = min(bytes+n, math.MaxInt64/2)
	}
	if bytes <= big {
		return 0
	}
	return lanes
}

// footprint estimates the bytes one tile touches: per array, the product
// over its dimensions of the range of the subscript over the tile (1 +
// Σ |step|·(size − 1) over the band's loops), the largest over the
// array's accesses, times the element size.
func footprint(p *ir.Program, olds [][]ir.Aff, g []int, sizes []int64) int64 {
	per := map[*ir.Array]int64{}
	for si, s := range p.Stmts {
		for _, acc := range s.Accesses {
			n := int64(1)
			for _, x := range acc.Index {
				r := int64(1)
				for k, j := range g {
					r += intmath.Abs(step(x, olds[si], j)) * (sizes[k] - 1)
				}
				n *= r
			}
			a := p.Arrays[acc.Array]
			per[a] = max(per[a], n*int64(a.Elem.Size()))
		}
	}
	var total int64
	for _, b := range per {
		total += b
	}
	return total
}

// BandInfo describes a band that a Plan's BandPlan can lay out: what a
// search over layouts needs to know of it, and what the rules choose.
type BandInfo struct {
	// Dims are the band's loop dimensions (time dimensions of the
	// schedule), in band order; Parallel says which carry no dependence.
	Dims     []int
	Parallel []bool
	// Names are readable names of the loop dimensions: the counter of
	// the original loop each one scans most directly, or t<dim>.
	Names []string
	// Order and Sizes are the rules' point-loop order (as BandPlan.Order)
	// and tile sizes (band order) for the plan Describe was given.
	Order []int
	Sizes []int64
	// Tile says whether the rules tile the band (tilingPays).
	Tile bool
	// CanWavefront reports whether Plan.Wavefront would skew the band's
	// tiles (no loop of it parallel, not every statement parallel in it).
	CanWavefront bool
}

// DescribeBands returns the bands of sc that ApplyPlan lays out as
// BandPlans, in the order of LoopInfo.Band, with the decisions the rules
// of plan take for each.
func DescribeBands(p *ir.Program, sc *Schedule, plan Plan) ([]BandInfo, error) {
	// The rules' layouts with every band tiled and skewed where it may
	// be: their orders, sizes and wavefronts are what the rules choose.
	plan.Bands, plan.Tile, plan.Wavefront = nil, true, true
	rule, err := Decide(p, sc, plan)
	if err != nil {
		return nil, err
	}
	plan.describe = true
	lays, err := Decide(p, sc, plan)
	if err != nil {
		return nil, err
	}
	var out []BandInfo
	for li, l := range lays {
		if l.Band == 0 {
			continue
		}
		bi := BandInfo{Dims: l.Dims, Order: l.Order, Sizes: l.Sizes, Tile: rule[li].Tile, CanWavefront: l.Wavefront}
		for _, k := range l.Dims {
			bi.Parallel = append(bi.Parallel, sc.Coincident[k].All)
			bi.Names = append(bi.Names, dimName(p, sc, k))
		}
		out = append(out, bi)
	}
	return out, nil
}

// dimName names time dimension k after the original counter with the
// largest coefficient in the first statement that scans it.
func dimName(p *ir.Program, sc *Schedule, k int) string {
	for si, s := range p.Stmts {
		row := sc.Rows[si][k]
		best, bestC := -1, int64(0)
		for j, c := range row.Iter {
			if intmath.Abs(c) > bestC {
				best, bestC = j, intmath.Abs(c)
			}
		}
		if best >= 0 && best < len(s.Iters) {
			return s.Iters[best]
		}
	}
	return fmt.Sprintf("t%d", k)
}

// parallelIn returns whether loop j of loops scans a dimension of sc that
// carries no dependence at all.
func parallelIn(sc *Schedule, loops []int) func(j int) bool {
	return func(j int) bool { return sc.Coincident[loops[j]].All }
}
