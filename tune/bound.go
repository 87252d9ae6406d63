package tune

import (
	"fmt"
	"math"
	"math/big"
	"nestor/internal/intmath"
	"slices"

	"nestor/interp"
	"nestor/ir"
	"nestor/model"
)

// Machine is what the lower bound knows of the machine that measures the
// candidates: peaks no implementation can exceed.
type Machine struct {
	// Threads is the number of threads a candidate runs with.
	Threads int
	// PeakOps is one core's most arithmetic operations per second on
	// 8-byte elements (vector lanes × FMA units × 2 × clock: an FMA counts
	// as two, so every operation counted once is at most this fast);
	// narrower elements scale it by 8/size.
	PeakOps float64
	// DRAMBandwidth is the most bytes per second all cores together read
	// from memory; LastLevel is the size of the last-level cache in bytes.
	DRAMBandwidth float64
	LastLevel     int64
	// Levels are the cache levels outside L1 (L2, L3 where measured):
	// the data that does not fit in the level below crosses each at
	// least once per call, at most at its bandwidth.
	Levels []Level
	// Fill is a cache private to each core and how fast one core fills
	// it (the most bytes per second the bandwidth sweep read past its
	// capacity, with the margin): what the original order's sweeps
	// (Cost.Sweeps) bring into it is read at most that fast. Zero: no
	// capacity term.
	Fill Fill
	// Fingerprint names the kind of machine in records: times compare
	// only between records of one fingerprint.
	Fingerprint string
}

// Level is a cache level seen from the cores: the capacity of the level
// below it and the bandwidth all cores read it with.
type Level struct {
	Below     int64
	Bandwidth float64
}

// Fill is one core's private cache as the capacity term sees it.
type Fill struct {
	Capacity  int64   // bytes, per core
	Bandwidth float64 // bytes per second one core brings into it, at most
}

// Cost is what a region computes, counted once at the measured sizes.
type Cost struct {
	// Ops is a lower bound on the arithmetic operations any compiled
	// implementation performs, each statement's weighted by size/8 of its
	// narrowest arithmetic type (a vector holds 8/size times as many of
	// those): Ops/PeakOps is the time one core needs at least. An
	// operation counts once per distinct tuple of the elements and counters
	// it reads (see opCounts), not once per instance: a compiler hoists
	// gemm's alpha*A[i][k] out of the j loop.
	Ops float64
	// Bytes is a lower bound on the bytes of the data the region
	// touches: per array, the most elements one injective access touches
	// (an access is injective when its subscripts' coefficients over the
	// counters have full column rank), at most the array's size.
	Bytes int64
	// Sweeps are the loops of the original order that read the same data
	// in every iteration (see sweepsOf), for the capacity term of a
	// candidate kept in that order.
	Sweeps []Sweep
}

// Sweep is a loop of the original order each of whose iterations reads
// the same Bytes of data: the elements of read-only arrays that one
// statement inside it reads through subscripts the loop's counter does
// not move (gemm's B[k][j] in its i loop), over loops inside it whose
// ranges do not depend on any other counter. Windows counts the loop's
// iterations over the whole region (its trips times the times the loop
// runs).
type Sweep struct {
	Loop    string // the statement and the loop's counter, for reports
	Bytes   int64
	Windows int64
}

// CostOf counts the arithmetic and the data of program p at params (the
// instances of each statement from interp.Count).
func CostOf(p *ir.Program, params []int64) (Cost, error) {
	counts, err := interp.Count(p, params)
	if err != nil {
		return Cost{}, err
	}
	var c Cost
	used := map[int]bool{}
	// touched[a] is a lower bound on the elements of array a the region
	// touches: the most that one access touches (distinct).
	touched := map[int]int64{}
	for si, s := range p.Stmts {
		for _, a := range s.Accesses {
			used[a.Array] = true
			if n, ok := distinct(s, a.Index, counts[si], params); ok {
				touched[a.Array] = max(touched[a.Array], n)
			}
		}
	}
	c.Ops = opCounts(p, counts, params)
	c.Sweeps = sweepsOf(p, counts, params)
	for a := range used {
		arr := p.Arrays[a]
		size, ok := arraySize(arr, params)
		if !ok {
			return Cost{}, fmt.Errorf("tune: size of array %s overflows", arr.Name)
		}
		c.Bytes += min(touched[a]*int64(arr.Elem.Size()), size)
	}
	return c, nil
}

// opCounts returns the weighted operations of p that no implementation
// avoids. An operation's value is a function of the elements and counters
// its operands read, so a compiler need not compute it more often than
// there are distinct tuples of those: a subtree invariant in a loop is
// hoisted out of it (gemm's alpha*A[i][k]), and subtrees of the same
// shape over the same arrays may share their values (common
// subexpressions, predictive commoning), so such a group counts as its
// largest member, not their sum. A compound assignment's own operation
// counts once per distinct element written or tuple of its right side,
// whichever is more. Where the distinct tuples cannot be counted exactly
// (subscripts with locals, non-separable domains), the count falls back
// to the most distinct elements of one of its loads, else to none.
func opCounts(p *ir.Program, counts []int64, params []int64) float64 {
	type group struct {
		n      int64
		weight float64
	}
	groups := map[string]*group{}
	add := func(key string, n int64, t ir.Type) {
		w := 1.0
		if sz := t.Size(); (t.IsFloat() || t.IsInteger()) && sz > 0 && sz < 8 {
			w = float64(sz) / 8
		}
		g := groups[key]
		if g == nil {
			g = &group{weight: w}
			groups[key] = g
		}
		g.n = max(g.n, n)
		g.weight = min(g.weight, w)
	}
	for si, s := range p.Stmts {
		if counts[si] == 0 {
			continue
		}
		var walk func(e ir.Expr) (key string, rows []ir.Aff, loads [][]ir.Aff)
		walk = func(e ir.Expr) (string, []ir.Aff, [][]ir.Aff) {
			switch e := e.(type) {
			case *ir.Load:
				a := s.Accesses[e.Access]
				return p.Arrays[a.Array].Name, a.Index, [][]ir.Aff{a.Index}
			case *ir.IterRef:
				row := ir.NewAff(s.Depth(), len(p.Params), 0)
				row.Iter[e.Level] = 1
				return "i", []ir.Aff{row}, nil
			case *ir.Const:
				return fmt.Sprint(e.Int, e.Float), nil, nil
			case *ir.ParamRef:
				return "p" + fmt.Sprint(e.Param), nil, nil
			case *ir.Cast:
				k, rows, loads := walk(e.X)
				return "(" + e.T.String() + ")" + k, rows, loads
			}
			var kids []ir.Expr
			op := ""
			switch e := e.(type) {
			case *ir.Unary:
				kids, op = []ir.Expr{e.X}, e.Op.String()
			case *ir.Binary:
				kids, op = []ir.Expr{e.X, e.Y}, e.Op.String()
			case *ir.Cond:
				kids, op = []ir.Expr{e.C, e.X, e.Y}, "?"
			case *ir.Call:
				kids, op = e.Args, e.Fn
			}
			key := op + "("
			var rows []ir.Aff
			var loads [][]ir.Aff
			for _, k := range kids {
				kk, r, l := walk(k)
				key += kk + ","
				rows = append(rows, r...)
				loads = append(loads, l...)
			}
			key += ")"
			add(key, tuples(s, rows, loads, counts[si], params), e.Type())
			return key, rows, loads
		}
		key, rows, loads := walk(s.RHS)
		if s.Op != ir.Assign {
			lhs := s.Accesses[0].Index
			n := tuples(s, rows, loads, counts[si], params)
			if m, ok := distinct(s, lhs, counts[si], params); ok {
				n = max(n, m)
			}
			add(fmt.Sprintf("%s%s=%s", p.Arrays[s.Accesses[0].Array].Name, s.Op, key), n, p.Arrays[s.Accesses[0].Array].Elem)
		}
	}
	ops := 0.0
	for _, g := range groups {
		ops += float64(g.n) * g.weight
	}
	return ops
}

// tuples returns a lower bound on the distinct values that the subscripts
// and counters rows take over the count instances of s: exact where
// distinct can tell, else the most distinct elements of one of loads.
func tuples(s *ir.Stmt, rows []ir.Aff, loads [][]ir.Aff, count int64, params []int64) int64 {
	if n, ok := distinct(s, rows, count, params); ok {
		return n
	}
	var best int64
	for _, l := range loads {
		if n, ok := distinct(s, l, count, params); ok {
			best = max(best, n)
		}
	}
	return best
}

// bound returns a time no implementation of cost c can beat with at most
// threads cores busy: the arithmetic at the cores' peak, and the data
// that cannot stay in the last-level cache between calls at the memory's
// bandwidth.
func (m Machine) bound(c Cost, threads int) float64 {
	compute := c.Ops / (m.PeakOps * float64(max(threads, 1)))
	memory := 0.0
	if extra := c.Bytes - m.LastLevel; extra > 0 && m.DRAMBandwidth > 0 {
		memory = float64(extra) / m.DRAMBandwidth
	}
	for _, l := range m.Levels {
		if extra := c.Bytes - l.Below; extra > 0 && l.Bandwidth > 0 {
			memory = max(memory, float64(extra)/l.Bandwidth)
		}
	}
	return max(compute, memory)
}

// Bound returns a lower bound on the time of every candidate d can still
// become: at most Threads cores when a parallel order and parallel loops
// remain possible, one core otherwise; and where every candidate left
// keeps an original order, the time its sweeps take (Fill.capacity).
func (r *Region) Bound(d *Domains, m Machine, c Cost) float64 {
	threads := 1
	if r.mayFork(d) {
		threads = m.Threads
	}
	b := m.bound(c, threads)
	if r.keepsOriginal(d) {
		b = max(b, m.Fill.capacity(c, threads))
	}
	return b
}

// keepsOriginal reports whether every candidate d can still become runs
// the original order's loops as they are, with no loop unrolled and
// jammed but those jamProof allows: no schedule, no packed blocks, no
// factored reduction (which splits a loop into chunks). pack has no
// constraint that sets it to "-": there "-" leaves packing to the rule
// (Options.Pack); rfactor is "-" exactly where no loop runs in parallel,
// and no reduction is factored then.
func (r *Region) keepsOriginal(d *Domains) bool {
	packs := r.pack >= 0 && (d.May(r.pack, "yes") || r.Opt.Pack && d.May(r.pack, "-"))
	factors := r.rfactor >= 0 && d.May(r.rfactor, "yes")
	return !d.May(r.order, "schedule") && !packs && !factors
}

// mayFork reports whether some candidate d can still become runs on
// several threads: the region's parallel marks are on, and the original
// order's parallel loops, a factored reduction, or a band of a schedule
// still possible (its parallel loop or its wavefront) may still run in
// parallel.
func (r *Region) mayFork(d *Domains) bool {
	if r.parallel < 0 || !d.May(r.parallel, "yes") {
		return false
	}
	if d.May(r.order, "original-parallel") || r.rfactor >= 0 && d.May(r.rfactor, "yes") {
		return true
	}
	if !d.May(r.order, "schedule") {
		return false
	}
	for _, v := range r.variants {
		if r.fusion >= 0 && !d.May(r.fusion, v.name) {
			continue
		}
		for _, bc := range v.bands {
			if bc.par >= 0 && d.May(bc.par, "yes") || bc.wave >= 0 && d.May(bc.wave, "yes") {
				return true
			}
		}
	}
	return false
}

// Margins over measured peaks: a kernel may run at a higher clock (turbo
// on a quieter machine) than the micro-benchmark saw, and the bound must
// stay below every time measured.
const (
	peakMargin      = 2.0
	bandwidthMargin = 2.0
)

// MachineOf returns the bound's view of machine m running threads
// threads: its measured FMA peak and memory bandwidth with margins (see
// peakMargin), or, where m was not measured (nestor machine), generous
// values no current core exceeds (5 GHz, two 512-bit FMA units, 1 TB/s),
// which keep the bound sound and only lose tightness.
func MachineOf(m model.Machine, threads int) Machine {
	out := Machine{Threads: threads, PeakOps: 5e9 * 2 * 8 * 2, DRAMBandwidth: 1e12, LastLevel: m.L3, Fingerprint: m.Fingerprint}
	if m.Measured && m.FMAPeak > 0 {
		out.PeakOps = m.FMAPeak * peakMargin
		if bw := m.Read[model.LevelDRAM]; bw.All > 0 {
			out.DRAMBandwidth = max(bw.All, bw.PerCore) * bandwidthMargin
		}
		below := []int64{m.L1, m.L2}
		for k, l := range []model.Level{model.LevelL2, model.LevelL3} {
			if bw := m.Read[l]; bw.All > 0 && below[k] > 0 {
				out.Levels = append(out.Levels, Level{Below: below[k], Bandwidth: max(bw.All, bw.PerCore) * bandwidthMargin})
			}
		}
	}
	if m.Measured && m.L2 > 0 {
		// One core fills its L2 from L3 at most as fast as the sweep read
		// any working set larger than L2.
		bw := m.Read[model.LevelL3].PerCore
		for _, p := range m.Sweep {
			if p.Bytes > m.L2 {
				bw = max(bw, p.PerCore)
			}
		}
		if bw > 0 {
			out.Fill = Fill{Capacity: m.L2, Bandwidth: bw * bandwidthMargin}
		}
	}
	if out.Fingerprint == "" {
		out.Fingerprint = fmt.Sprintf("cores%d-l3_%d", m.Cores, m.L3)
	}
	return out
}

// distinct returns the number of distinct values the affine forms rows
// (an access's subscripts) take over the count instances of s, when it
// can tell exactly: the counters the forms use must map injectively (see
// injective), and
// every other counter must be separable, its bounds mentioning no other
// counter and no local, so the domain is the product of its range and the
// rest: the access then touches count / (the product of those ranges).
func distinct(s *ir.Stmt, rows []ir.Aff, count int64, params []int64) (int64, bool) {
	d := s.Depth()
	used := make([]bool, d)
	for _, x := range rows {
		if slices.ContainsFunc(x.Local, func(c int64) bool { return c != 0 }) {
			return 0, false
		}
		for j, c := range x.Iter {
			if c != 0 {
				used[j] = true
			}
		}
	}
	var cols []int
	div := int64(1)
	for j := range d {
		if used[j] {
			cols = append(cols, j)
			continue
		}
		r, ok := separableRange(s, j, params)
		if !ok {
			return 0, false
		}
		if r == 0 {
			return 0, true
		}
		div *= r
	}
	if !injective(rows, cols) {
		return 0, false
	}
	return count / div, true
}

// separableRange returns the number of values counter j of s takes when
// every constraint that mentions it mentions no other counter and no
// local (its range is then the same at every point of the others).
func separableRange(s *ir.Stmt, j int, params []int64) (int64, bool) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	for _, c := range s.Domain.Cons {
		if j >= len(c.Iter) || c.Iter[j] == 0 {
			continue
		}
		for k, x := range c.Iter {
			if k != j && x != 0 {
				return 0, false
			}
		}
		if slices.ContainsFunc(c.Local, func(x int64) bool { return x != 0 }) {
			return 0, false
		}
		iter := make([]int64, len(c.Iter))
		r, ok := c.Eval(iter, params, nil) // the constraint at counter 0
		if !ok {
			return 0, false
		}
		a := c.Iter[j]
		if a > 0 || c.Eq {
			if a > 0 {
				lo = max(lo, intmath.CeilDiv(-r, a))
			} else {
				lo = max(lo, intmath.CeilDiv(r, -a))
			}
		}
		if a < 0 || c.Eq {
			if a < 0 {
				hi = min(hi, intmath.FloorDiv(r, -a))
			} else {
				hi = min(hi, intmath.FloorDiv(-r, a))
			}
		}
	}
	if lo == math.MinInt64 || hi == math.MaxInt64 {
		return 0, false
	}
	return max(hi-lo+1, 0), true
}

// injective reports whether the affine forms index map distinct values
// of the counters cols to distinct tuples: the matrix of their
// coefficients on those counters has full column rank (exact rational
// elimination; a form with locals does not count).
func injective(index []ir.Aff, cols []int) bool {
	depth := len(cols)
	if depth == 0 {
		return true
	}
	var rows [][]*big.Rat
	for _, x := range index {
		if slices.ContainsFunc(x.Local, func(c int64) bool { return c != 0 }) {
			continue
		}
		row := make([]*big.Rat, depth)
		for k, j := range cols {
			row[k] = new(big.Rat)
			if j < len(x.Iter) {
				row[k].SetInt64(x.Iter[j])
			}
		}
		rows = append(rows, row)
	}
	rank := 0
	for col := 0; col < depth && rank < len(rows); col++ {
		piv := -1
		for r := rank; r < len(rows); r++ {
			if rows[r][col].Sign() != 0 {
				piv = r
				break
			}
		}
		if piv < 0 {
			continue
		}
		rows[rank], rows[piv] = rows[piv], rows[rank]
		for r := range rows {
			if r == rank || rows[r][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Quo(rows[r][col], rows[rank][col])
			for j := col; j < depth; j++ {
				rows[r][j].Sub(rows[r][j], new(big.Rat).Mul(f, rows[rank][j]))
			}
		}
		rank++
	}
	return rank == depth
}

// sweepsOf returns the sweeps of p's original order (see Sweep): for
// every loop L that no implementation in an original order unrolls and
// jams (jamProof) and every statement s inside it whose counter of L and
// inner counters have separable ranges, the bytes of read-only arrays
// (never written in the region, so no pass privatizes them) s reads
// through accesses L's counter does not move, each access counting the
// distinct elements it reads in one iteration (injective on the inner
// counters it uses), at most the array's size, the largest access per
// array.
func sweepsOf(p *ir.Program, counts []int64, params []int64) []Sweep {
	written := map[int]bool{}
	for _, s := range p.Stmts {
		for _, a := range s.Accesses {
			if a.Write {
				written[a.Array] = true
			}
		}
	}
	var out []Sweep
	for _, path := range p.Paths() {
		if !jamProof(p, path) {
			continue
		}
		k := len(path) - 1 // L's counter
		for si, s := range p.Stmts {
			if !s.In(path) || counts[si] == 0 {
				continue
			}
			ranges := make([]int64, s.Depth())
			inner := int64(1)
			ok := true
			for j := k; j < s.Depth() && ok; j++ {
				ranges[j], ok = separableRange(s, j, params)
				if j > k && ok {
					ok = ranges[j] == 0 || inner <= math.MaxInt64/ranges[j] // else skip s
					inner *= ranges[j]
				}
			}
			if !ok || inner == 0 {
				continue
			}
			perArray := map[int]int64{}
			for _, a := range s.Accesses {
				arr := p.Arrays[a.Array]
				if written[a.Array] || len(arr.Dims) == 0 {
					continue
				}
				n, ok := perIteration(a.Index, k, ranges)
				if !ok {
					continue
				}
				perArray[a.Array] = max(perArray[a.Array], n)
			}
			var bytes int64
			for a, n := range perArray {
				arr := p.Arrays[a]
				size, ok := arraySize(arr, params)
				if !ok {
					continue
				}
				elem := int64(arr.Elem.Size())
				bytes = min(bytes+min(n, size/elem)*elem, math.MaxInt64/2)
			}
			if bytes > 0 {
				out = append(out, Sweep{Loop: s.Name + " in " + s.Iters[k], Bytes: bytes, Windows: counts[si] / inner})
			}
		}
	}
	return out
}

// perIteration returns the distinct elements the subscripts index read
// in one iteration of the loop of counter k, when that counter does not
// appear in them (nor a local) and they map the inner counters they use
// (ranges[j], j > k) injectively; the counters outside the loop are
// fixed during an iteration.
func perIteration(index []ir.Aff, k int, ranges []int64) (int64, bool) {
	used := make([]bool, len(ranges))
	for _, x := range index {
		if slices.ContainsFunc(x.Local, func(c int64) bool { return c != 0 }) || k < len(x.Iter) && x.Iter[k] != 0 {
			return 0, false
		}
		for j, c := range x.Iter {
			if c != 0 && j > k {
				used[j] = true
			}
		}
	}
	var cols []int
	n := int64(1)
	for j := k + 1; j < len(ranges); j++ {
		if used[j] {
			cols = append(cols, j)
			if ranges[j] > 0 && n > math.MaxInt64/ranges[j] {
				return 0, false
			}
			n *= ranges[j]
		}
	}
	if !injective(index, cols) {
		return 0, false
	}
	return n, true
}

// arraySize returns the bytes of arr at params.
func arraySize(arr *ir.Array, params []int64) (int64, bool) {
	size := int64(arr.Elem.Size())
	for _, d := range arr.Dims {
		x, ok := d.Eval(nil, params, nil)
		if !ok || x < 0 || x > 0 && size > math.MaxInt64/x {
			return 0, false
		}
		size *= x
	}
	return size, true
}

// jamProof reports whether the loop named by path keeps its iterations
// apart in every implementation of an original order: codegen's
// unroll-and-jam (codegen.UnrollJam) unrolls a loop whose body is one
// loop that is innermost or holds one innermost loop (jam, jamPair, also
// as the inner unrolled loop), or whose body's members are statements
// and innermost loops (jamSeq); a loop that is none of these is never
// unrolled, so its iterations run one after another.
func jamProof(p *ir.Program, path []int) bool {
	innermost := func(c ir.Child) bool {
		for _, st := range c.Stmts {
			if p.Stmts[st].Depth() != len(path)+1 {
				return false
			}
		}
		return true
	}
	kids := p.ChildrenOf(path)
	if !slices.ContainsFunc(kids, func(c ir.Child) bool { return c.Stmt < 0 && !innermost(c) }) {
		return false // statements and innermost loops: jamSeq
	}
	if len(kids) == 1 {
		inner := p.ChildrenOf(ir.Place(path, kids[0].Pos))
		if len(inner) == 1 && inner[0].Stmt < 0 {
			for _, st := range inner[0].Stmts {
				if p.Stmts[st].Depth() != len(path)+2 {
					return true
				}
			}
			return false // one loop holding one innermost loop: jam
		}
	}
	return true
}

// capacity returns the time the sweeps of c take at least on threads
// cores, each with a private cache f: a sweep's Windows iterations run on
// the cores, so one core runs at least ⌈Windows/threads⌉ of them one after
// another; at the start of each the cache holds at most Capacity bytes
// (threads × Capacity, should the cores share their caches), so at least
// Bytes − threads·Capacity bytes come into it during the iteration,
// whatever the replacement policy, at most at one core's Bandwidth.
func (f Fill) capacity(c Cost, threads int) float64 {
	if f.Bandwidth <= 0 || f.Capacity <= 0 {
		return 0
	}
	t := int64(max(threads, 1))
	worst := 0.0
	for _, s := range c.Sweeps {
		if extra := s.Bytes - t*f.Capacity; extra > 0 {
			worst = max(worst, float64((s.Windows+t-1)/t)*float64(extra)/f.Bandwidth)
		}
	}
	return worst
}
