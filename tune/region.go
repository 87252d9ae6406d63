package tune

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"nestor/codegen"
	"nestor/frontend"
	"nestor/pipeline"
	"nestor/sched"
)

// fusions are the fusion policies a region may be scheduled with, by the
// name the space gives them.
var fusions = []struct {
	name string
	f    sched.Fusion
}{{"smart", sched.SmartFuse}, {"max", sched.MaxFuse}, {"no", sched.NoFuse}}

// sizeValues are the tile sizes a band dimension may take besides the
// cache model's own.
var sizeValues = []int64{8, 16, 32, 64, 128, 256, 512}

// Region is the space of implementations of one region of a file.
type Region struct {
	File  *frontend.File
	Index int              // the region's position in File.Scops
	Opt   pipeline.Options // the options every candidate is generated with
	Space *Space
	// variants are the distinct schedules (one per fusion policy that
	// gives a program of its own), with the choices of their bands.
	variants []*variant
	// origPar reports whether the original order has parallel loops.
	origPar bool
	// The region-wide choices (-1: absent).
	order, fusion, parallel, rfactor, simd, unroll, fork, pack int
}

// variant is one fusion policy's schedule and the choices of its bands.
type variant struct {
	name   string
	fusion sched.Fusion
	layout *pipeline.Layout
	bands  []bandChoices
}

// bandChoices are the indices of the choices of one band.
type bandChoices struct {
	tile, wave int // -1: absent
	jam        int // the band's register tile (Marks.Jam); -1: absent
	// par, simd and unroll are the band's own marks (Marks.Parallel,
	// !Marks.NoSIMD, Marks.Unroll), over the region's: -1 where absent.
	par, simd, unroll int
	sizes             []int // per band dimension (band order)
	// pairs[a][b] (a < b) is the choice "a before b" of the point loops
	// of band dimensions a and b.
	pairs [][]int
}

// NewRegion builds the decision space of region k of f for the options
// opt (normally pipeline.DefaultOptions()).
func NewRegion(f *frontend.File, k int, opt pipeline.Options) (*Region, error) {
	r := &Region{File: f, Index: k, Opt: opt, Space: &Space{}, order: -1, fusion: -1, parallel: -1, rfactor: -1, simd: -1, unroll: -1, fork: -1, pack: -1}
	opt.Notes = nil
	var policies []sched.Fusion
	for _, fu := range fusions {
		policies = append(policies, fu.f)
	}
	lays, err := pipeline.Describe(f, k, opt, policies)
	if err != nil {
		return nil, err
	}
	r.origPar = lays[0].OriginalParallel
	var seen [][]byte
	for i, fu := range fusions {
		lay := lays[i]
		if !lay.Scheduled {
			if fu.f == opt.Fusion {
				break // no schedule: only the original orders remain
			}
			continue
		}
		// A policy that gives the program another already gives is no
		// choice: compare the code of its default layout.
		o := opt
		o.Decide = make([]pipeline.Decisions, max(k+1, len(opt.Decide)))
		copy(o.Decide, opt.Decide)
		o.Decide[k] = pipeline.Decisions{Order: pipeline.OrderSchedule, Fusion: pipeline.Fuse(fu.f)}
		code, err := pipeline.Optimize(f, o)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(seen, func(c []byte) bool { return bytes.Equal(c, code) }) {
			continue
		}
		seen = append(seen, code)
		r.variants = append(r.variants, &variant{name: fu.name, fusion: fu.f, layout: lay})
	}
	r.build()
	r.Space.index()
	return r, nil
}

// build lays out the choices and constraints of r's space.
func (r *Region) build() {
	sp := r.Space
	anyParallel := false
	var orders []string
	if len(r.variants) > 0 {
		orders = append(orders, "schedule")
		for _, v := range r.variants {
			anyParallel = anyParallel || v.layout.Parallel
		}
	}
	orders = append(orders, "original")
	if r.origPar {
		orders = append(orders, "original-parallel")
		anyParallel = true
	}
	r.order = sp.add(Choice{Name: "order", Values: orders, Default: -1})
	sched := sp.set(r.order, "schedule")
	if len(r.variants) > 1 {
		names := []string{"-"}
		def := 0
		for _, v := range r.variants {
			names = append(names, v.name)
			if v.fusion == r.Opt.Fusion {
				def = len(names) - 1
			}
		}
		r.fusion = sp.add(Choice{Name: "fusion", Values: names, Default: def})
		r.relevantIff(r.fusion, Lit{r.order, sched})
	}
	if anyParallel {
		r.parallel = sp.add(Choice{Name: "parallel", Values: []string{"-", "yes", "no"}, Default: 1 + boolIndex(r.Opt.Parallel)})
		// Loops are marked parallel in a new schedule or in the original
		// order with its parallel loops, which needs them marked.
		r.relevantIff(r.parallel, Lit{r.order, sp.set(r.order, "schedule", "original-parallel")})
		sp.require(Lit{r.order, sp.all(r.order) &^ sp.set(r.order, "original-parallel")}, Lit{r.parallel, sp.set(r.parallel, "yes")})
	}
	if r.parallel >= 0 {
		r.simd = sp.add(Choice{Name: "simd", Values: []string{"-", "yes", "no"}, Default: 1})
		r.relevantIff(r.simd, Lit{r.parallel, sp.set(r.parallel, "yes")})
		// One team around a sequential loop of parallel loops, or a fork
		// per iteration (codegen.PrintOptions.ForkOnce; "no", the rule,
		// where no loop qualifies: the code is the same).
		r.fork = sp.add(Choice{Name: "fork-once", Values: []string{"-", "yes", "no"}, Default: 1 + boolIndex(r.Opt.ForkOnce)})
		r.relevantIff(r.fork, Lit{r.parallel, sp.set(r.parallel, "yes")})
	}
	for _, v := range r.variants {
		// The variant's bands apply when the region is scheduled with it.
		when := []Lit{{r.order, sched}}
		if r.fusion >= 0 {
			when = append(when, Lit{r.fusion, sp.set(r.fusion, v.name)})
		}
		for bi, b := range v.layout.Bands {
			v.bands = append(v.bands, r.bandChoices(v, bi+1, b, when))
		}
	}
	// The unroll factor of the innermost loops of a region in an
	// original order; a schedule's bands have their own.
	r.unroll = sp.add(Choice{Name: "unroll", Values: []string{"-", "1", "2", "4", "8"}, Default: 1})
	r.relevantIff(r.unroll, Lit{r.order, sp.all(r.order) &^ sched})
	// BLIS-style packed blocks for a matrix product alone in its loops
	// (codegen.Packed): offered where a statement of the region is one.
	prog := r.File.Scops[r.Index].Prog
	for st := range prog.Stmts {
		if codegen.Packable(prog, st) {
			r.pack = sp.add(Choice{Name: "pack", Values: []string{"-", "yes", "no"}, Default: 1 + boolIndex(r.Opt.Pack)})
			break
		}
	}
	if r.parallel >= 0 && r.Opt.Rfactor {
		r.rfactor = sp.add(Choice{Name: "rfactor", Values: []string{"-", "yes", "no"}, Default: 1})
		r.relevantIff(r.rfactor, Lit{r.parallel, sp.set(r.parallel, "yes")})
	}
}

// relevantIff adds the constraints that choice c (whose value 0 is "-")
// takes "-" exactly when one of the literals when is false.
func (r *Region) relevantIff(c int, when ...Lit) {
	sp := r.Space
	dash := sp.set(c, "-")
	for _, w := range when {
		// ¬w ⇒ c = "-"
		sp.require(w, Lit{c, dash})
	}
	// every w ⇒ c ≠ "-"
	cl := Clause{Lit{c, sp.all(c) &^ dash}}
	for _, w := range when {
		cl = append(cl, Lit{w.C, sp.all(w.C) &^ w.Set})
	}
	sp.Clauses = append(sp.Clauses, cl)
}

// bandChoices adds the choices of band number b of variant v: tiling,
// tile sizes, wavefront, and the pairwise order of its point loops, which
// constraints keep acyclic (Telamon's order choices with transitivity).
func (r *Region) bandChoices(v *variant, b int, info sched.BandInfo, when []Lit) bandChoices {
	sp := r.Space
	prefix := fmt.Sprintf("%s.b%d.", v.name, b)
	bc := bandChoices{tile: -1, wave: -1, jam: -1, par: -1, simd: -1, unroll: -1}
	// The band's own loop marks, under the region's: OpenMP on its
	// parallel loop, SIMD on its inner loops, and the unroll factor of
	// its innermost loops (Telamon's per-loop choices).
	if r.parallel >= 0 && slices.Contains(info.Parallel, true) {
		bc.par = sp.add(Choice{Name: prefix + "parallel", Values: []string{"-", "yes", "no"}, Default: 1})
		r.relevantIff(bc.par, append(slices.Clone(when), Lit{r.parallel, sp.set(r.parallel, "yes")})...)
	}
	if r.simd >= 0 {
		bc.simd = sp.add(Choice{Name: prefix + "simd", Values: []string{"-", "yes", "no"}, Default: 1})
		r.relevantIff(bc.simd, append(slices.Clone(when), Lit{r.simd, sp.set(r.simd, "yes")})...)
	}
	bc.unroll = sp.add(Choice{Name: prefix + "unroll", Values: []string{"-", "1", "2", "4", "8"}, Default: 1})
	r.relevantIff(bc.unroll, when...)
	if r.Opt.UnrollJam {
		// The band's register tile: its point loops unrolled and jammed
		// (sched.Marks.Jam), each band its own.
		host := r.Opt.Target()
		regs := max(host.VectorRegs, 16)
		rows, cols := host.RegisterTile()
		names := []string{"-", "1x1"}
		def := -1
		for _, rc := range [][2]int{{2, 1}, {2, 2}, {3, 1}, {4, 1}, {4, 2}, {4, 4}, {6, 2}, {6, 4}, {8, 1}, {8, 2}} {
			if rc[0]*rc[1]+rc[0]+2 <= regs {
				names = append(names, fmt.Sprintf("%dx%d", rc[0], rc[1]))
				if int64(rc[0]) == rows && int64(rc[1]) == cols {
					def = len(names) - 1
				}
			}
		}
		bc.jam = sp.add(Choice{Name: prefix + "jam", Values: names, Default: def})
		r.relevantIff(bc.jam, when...)
	}
	bc.tile = sp.add(Choice{Name: prefix + "tile", Values: []string{"-", "yes", "no"}, Default: 1 + boolIndex(r.Opt.Tile && info.Tile)})
	r.relevantIff(bc.tile, when...)
	yes := Lit{bc.tile, sp.set(bc.tile, "yes")}
	for d, def := range info.Sizes {
		names := []string{"-"}
		vals := slices.Clone(sizeValues)
		if !slices.Contains(vals, def) {
			vals = append(vals, def)
			slices.Sort(vals)
		}
		for _, x := range vals {
			names = append(names, strconv.FormatInt(x, 10))
		}
		c := sp.add(Choice{Name: fmt.Sprintf("%s%s.size", prefix, info.Names[d]), Values: names, Default: 1 + slices.Index(vals, def)})
		r.relevantIff(c, yes)
		bc.sizes = append(bc.sizes, c)
	}
	if info.CanWavefront && r.parallel >= 0 {
		bc.wave = sp.add(Choice{Name: prefix + "wavefront", Values: []string{"-", "yes", "no"}, Default: 1 + boolIndex(r.Opt.Tile && r.Opt.Parallel)})
		r.relevantIff(bc.wave, yes, Lit{r.parallel, sp.set(r.parallel, "yes")})
	}
	n := len(info.Dims)
	bc.pairs = make([][]int, n)
	pos := make([]int, n) // rule's position of each band dimension
	for p, d := range info.Order {
		pos[d] = p
	}
	for a := range n {
		bc.pairs[a] = make([]int, n)
		for b := a + 1; b < n; b++ {
			def := 2
			if pos[a] < pos[b] {
				def = 1
			}
			c := sp.add(Choice{Name: fmt.Sprintf("%s%s<%s", prefix, info.Names[a], info.Names[b]), Values: []string{"-", "before", "after"}, Default: def})
			r.relevantIff(c, when...)
			bc.pairs[a][b] = c
		}
	}
	// No cycle a→b→c→a: for every triple, forbid the two cyclic
	// assignments of its three pairs.
	for a := range n {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				ab, bc2, ac := bc.pairs[a][b], bc.pairs[b][c], bc.pairs[a][c]
				// a<b, b<c, c<a
				sp.require(Lit{ab, sp.set(ab, "-", "after")}, Lit{bc2, sp.set(bc2, "-", "after")}, Lit{ac, sp.set(ac, "-", "before")})
				// b<a, c<b, a<c
				sp.require(Lit{ab, sp.set(ab, "-", "before")}, Lit{bc2, sp.set(bc2, "-", "before")}, Lit{ac, sp.set(ac, "-", "after")})
			}
		}
	}
	return bc
}

func boolIndex(b bool) int {
	if b {
		return 0
	}
	return 1
}

// Decisions returns the pipeline's decisions for the choices d fixes; an
// open choice is left to the rules.
func (r *Region) Decisions(d *Domains) pipeline.Decisions {
	var dec pipeline.Decisions
	switch d.Value(r.order) {
	case "schedule":
		dec.Order = pipeline.OrderSchedule
	case "original":
		dec.Order = pipeline.OrderOriginal
	case "original-parallel":
		dec.Order = pipeline.OrderOriginalParallel
	}
	v := r.variant(d)
	if v != nil && r.fusion >= 0 {
		dec.Fusion = pipeline.Fuse(v.fusion)
	}
	dec.Parallel = tristate(d, r.parallel)
	dec.Rfactor = tristate(d, r.rfactor)
	dec.SIMD = tristate(d, r.simd)
	dec.ForkOnce = tristate(d, r.fork)
	dec.Pack = tristate(d, r.pack)
	if r.unroll >= 0 {
		if u, err := strconv.ParseInt(d.Value(r.unroll), 10, 64); err == nil {
			dec.Unroll = u
		}
	}
	if v == nil {
		return dec
	}
	for _, bc := range v.bands {
		bp := sched.BandPlan{Tile: tristate(d, bc.tile), Wavefront: tristate(d, bc.wave)}
		for _, c := range bc.sizes {
			x, _ := strconv.ParseInt(d.Value(c), 10, 64) // 0: open or "-"
			bp.Sizes = append(bp.Sizes, x)
		}
		bp.Order = pairOrder(d, bc.pairs)
		if bc.jam >= 0 {
			if s := d.Value(bc.jam); s != "" && s != "-" {
				fmt.Sscanf(s, "%dx%d", &bp.Jam[0], &bp.Jam[1])
			}
		}
		bp.Parallel, bp.SIMD = tristate(d, bc.par), tristate(d, bc.simd)
		if bc.unroll >= 0 {
			bp.Unroll, _ = strconv.ParseInt(d.Value(bc.unroll), 10, 64) // 0: open or "-"
		}
		dec.Bands = append(dec.Bands, bp)
	}
	return dec
}

// variant returns the schedule d selects, nil while it is open or when
// the order is an original one.
func (r *Region) variant(d *Domains) *variant {
	if d.Value(r.order) != "schedule" {
		return nil
	}
	if r.fusion < 0 {
		return r.variants[0]
	}
	name := d.Value(r.fusion)
	for _, v := range r.variants {
		if v.name == name {
			return v
		}
	}
	return nil
}

// tristate reads a yes/no choice (-1 or open: the rule).
func tristate(d *Domains, c int) sched.Tristate {
	if c < 0 {
		return sched.Rule
	}
	switch d.Value(c) {
	case "yes":
		return sched.Yes
	case "no":
		return sched.No
	}
	return sched.Rule
}

// pairOrder returns the order of a band's point loops that fixed pair
// choices give (nil while one is open): each dimension's position is the
// number of dimensions before it.
func pairOrder(d *Domains, pairs [][]int) []int {
	n := len(pairs)
	before := make([]int, n) // how many dimensions run outside dimension x
	for a := range n {
		for b := a + 1; b < n; b++ {
			switch d.Value(pairs[a][b]) {
			case "before":
				before[b]++
			case "after":
				before[a]++
			default:
				return nil
			}
		}
	}
	order := make([]int, n)
	for x, p := range before {
		order[p] = x
	}
	if !sched.ValidOrder(order, n) {
		return nil
	}
	return order
}
