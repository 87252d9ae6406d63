package deps

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"nestor/ir"
	"nestor/irpoly"
	"nestor/poly"
)

// Kind is the kind of a dependence.
type Kind uint8

// The kinds of memory-based dependences.
const (
	Flow   Kind = iota // write, then read (RAW)
	Anti               // read, then write (WAR)
	Output             // write, then write (WAW)
)

var kindNames = [...]string{Flow: "flow", Anti: "anti", Output: "output"}

func (k Kind) String() string { return kindNames[k] }

// Kinds lists the kinds in printing order.
var Kinds = []Kind{Flow, Anti, Output}

// Edge is one dependence polyhedron: from instances of Source (access
// SourceAccess) to instances of Target (access TargetAccess), carried at
// Depth.
type Edge struct {
	Kind                       Kind
	Source, Target             int // indices in Program.Stmts
	SourceAccess, TargetAccess int // indices in the statements' Accesses
	Array                      int
	// Depth is the 1-based loop that carries the dependence, or
	// Common+1 for a loop-independent one.
	Depth  int
	Common int // loops shared by Source and Target
	// Set is the polyhedron over (source counters, target counters,
	// source locals, target locals) and the program parameters.
	Set *poly.Set
	// Distance holds, per common loop, the range of Dir·(t − s).
	Distance  []Interval
	Reduction bool
	// Unsure is set when poly could not decide that the polyhedron has an
	// integer point (a search limit): the edge is kept to stay safe.
	Unsure bool
}

// LoopIndependent reports whether e is not carried by any loop.
func (e *Edge) LoopIndependent() bool { return e.Depth > e.Common }

// Interval is an integer range; an infinite end is unbounded.
type Interval struct {
	Min, Max       int64
	MinInf, MaxInf bool
}

func (iv Interval) String() string {
	lo, hi := fmt.Sprint(iv.Min), fmt.Sprint(iv.Max)
	if iv.MinInf {
		lo = "-inf"
	}
	if iv.MaxInf {
		hi = "+inf"
	}
	if lo == hi {
		return lo
	}
	return lo + ".." + hi
}

// Direction is the sign pattern of an interval: "<" (always positive), "="
// (always zero), ">" (always negative), "<=", ">=", or "*".
func (iv Interval) Direction() string {
	pos := !iv.MinInf && iv.Min > 0
	neg := !iv.MaxInf && iv.Max < 0
	zero := !iv.MinInf && !iv.MaxInf && iv.Min == 0 && iv.Max == 0
	switch {
	case pos:
		return "<"
	case neg:
		return ">"
	case zero:
		return "="
	case !iv.MinInf && iv.Min == 0:
		return "<="
	case !iv.MaxInf && iv.Max == 0:
		return ">="
	}
	return "*"
}

// Graph is the dependence graph of a program.
type Graph struct {
	Prog  *ir.Program
	Edges []*Edge
	// Work is what the analysis spent, in poly.Work units; Exhausted
	// reports that it spent its whole budget, after which every question
	// got the safe answer (the accesses may meet, the dependence may
	// exist, its distances are unbounded): the graph over-approximates.
	Work      int64
	Exhausted bool
}

// DefaultWork is the work budget of Analyze, in poly.Work units: under a
// second (a unit takes 1 to 4 ns). The corpus kernel that needs most
// takes 3e6 (TestAnalyzeWork fails past a tenth of the budget); a program
// of a hundred statements with floor-division locals (nestor's own
// unroll-jammed gemm, read back) needed minutes without it.
const DefaultWork = 2e8

// Analyze computes every memory-based dependence of p within DefaultWork.
// Edges are ordered by source, target, kind, array and depth.
func Analyze(p *ir.Program) (*Graph, error) {
	return AnalyzeWork(p, DefaultWork)
}

// AnalyzeWork is Analyze within a budget of work units (see
// Graph.Exhausted).
func AnalyzeWork(p *ir.Program, budget int64) (*Graph, error) {
	return analyze(p, budget, nil, 0)
}

// Carried computes the dependences of p between the statements of stmts
// (source and target both among them) that the loop at depth carries
// (1-based; Edge.Depth == depth), within budget: a loop's own question,
// for programs whose whole graph costs too much (a tiled, skewed nest
// with floor-division locals). The graph holds only those edges.
func Carried(p *ir.Program, stmts []int, depth int, budget int64) (*Graph, error) {
	in := make([]bool, len(p.Stmts))
	for _, st := range stmts {
		in[st] = true
	}
	return analyze(p, budget, in, depth)
}

// analyze is AnalyzeWork over the statement pairs both in only (all when
// nil) and at depth atDepth only (all when 0).
func analyze(p *ir.Program, budget int64, only []bool, atDepth int) (*Graph, error) {
	work := poly.NewWork(budget)
	g := &Graph{Prog: p}
	defer func() { g.Work, g.Exhausted = work.Used(), work.Exhausted() }()
	red := make([]int, len(p.Stmts)) // the reduction read of each statement, or -1
	for k, s := range p.Stmts {
		red[k] = reductionRead(s)
	}
	for si, s := range p.Stmts {
		for ti, t := range p.Stmts {
			if only != nil && (!only[si] || !only[ti]) {
				continue
			}
			b := newBuilder(p, s, t)
			b.work = work
			for ai, a := range s.Accesses {
				for bi, acc := range t.Accesses {
					if a.Array != acc.Array || !a.Write && !acc.Write {
						continue
					}
					kind := Output
					switch {
					case a.Write && !acc.Write:
						kind = Flow
					case !a.Write && acc.Write:
						kind = Anti
					}
					pair, alias, err := b.pair(a, acc)
					if err != nil {
						return nil, fmt.Errorf("deps: %s -> %s on %s: %w", s.Name, t.Name, p.Arrays[a.Array].Name, err)
					}
					if !alias {
						continue // the two accesses never touch the same element
					}
					for depth := 1; depth <= b.common+1; depth++ {
						if atDepth > 0 && depth != atDepth {
							continue
						}
						if depth == b.common+1 && !ir.Precedes(s, t, b.common) {
							continue // same statement, or T runs first in the common body
						}
						e, err := b.edge(pair, depth)
						if err != nil {
							return nil, fmt.Errorf("deps: %s -> %s on %s: %w", s.Name, t.Name, p.Arrays[a.Array].Name, err)
						}
						if e == nil {
							continue
						}
						e.Kind, e.Source, e.Target, e.SourceAccess, e.TargetAccess = kind, si, ti, ai, bi
						e.Array = a.Array
						e.Reduction = si == ti && red[si] >= 0 && isReductionPair(ai, bi, red[si])
						g.Edges = append(g.Edges, e)
					}
				}
			}
		}
	}
	slices.SortStableFunc(g.Edges, func(a, b *Edge) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Target, b.Target),
			cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Array, b.Array), cmp.Compare(a.Depth, b.Depth))
	})
	return g, nil
}

// isReductionPair reports whether accesses a and b of one statement are its
// write (0) and its reduction read r, in either role.
func isReductionPair(a, b, r int) bool {
	in := func(x int) bool { return x == 0 || x == r }
	return in(a) && in(b)
}

// reductionRead returns the index of the read of the written element in an
// update x = x op y (or x op= y), or -1 when s is not such an update. The
// other operand may not read x again (x = x * x is no reduction).
func reductionRead(s *ir.Stmt) int {
	if s.Op != ir.Assign {
		switch s.Op {
		case ir.AddAssign, ir.SubAssign, ir.MulAssign, ir.AndAssign, ir.OrAssign, ir.XorAssign:
			if !readsWritten(s, s.RHS) {
				return 1
			}
		}
		return -1
	}
	e := s.RHS
	for {
		c, ok := e.(*ir.Cast)
		if !ok {
			break
		}
		e = c.X
	}
	var x, y ir.Expr
	switch e := e.(type) {
	case *ir.Binary:
		switch e.Op {
		case ir.Add, ir.Mul, ir.And, ir.Or, ir.Xor, ir.Sub:
			x, y = e.X, e.Y
		}
	case *ir.Call:
		if len(e.Args) == 2 && (strings.HasPrefix(e.Fn, "fmax") || strings.HasPrefix(e.Fn, "fmin")) {
			x, y = e.Args[0], e.Args[1]
		}
	}
	if x == nil {
		return -1
	}
	for _, pair := range [][2]ir.Expr{{x, y}, {y, x}} {
		if r := sameElementRead(s, pair[0]); r > 0 && !readsWritten(s, pair[1]) {
			return r
		}
	}
	return -1
}

// sameElementRead returns the access read by e (through casts) when it is
// the element s writes, else -1.
func sameElementRead(s *ir.Stmt, e ir.Expr) int {
	for {
		c, ok := e.(*ir.Cast)
		if !ok {
			break
		}
		e = c.X
	}
	l, ok := e.(*ir.Load)
	if !ok || !sameElement(s.Accesses[0], s.Accesses[l.Access]) {
		return -1
	}
	return l.Access
}

func sameElement(a, b *ir.Access) bool {
	if a.Array != b.Array || len(a.Index) != len(b.Index) {
		return false
	}
	for k := range a.Index {
		if !a.Index[k].Equal(b.Index[k]) {
			return false
		}
	}
	return true
}

// readsWritten reports whether e reads the element s writes (other
// elements of the same array have dependences of their own).
func readsWritten(s *ir.Stmt, e ir.Expr) bool {
	found := false
	ir.Walk(e, func(x ir.Expr) bool {
		if l, ok := x.(*ir.Load); ok && sameElement(s.Accesses[0], s.Accesses[l.Access]) {
			found = true
		}
		return !found
	})
	return found
}

// builder lays out the variables of the dependence polyhedra between two
// statements: dims (s counters, t counters, s locals, t locals), then the
// parameters, then the constant.
type builder struct {
	p           *ir.Program
	s, t        *ir.Stmt
	space       poly.Space
	offT, offLS int // first t counter, first s local
	offLT, nd   int // first t local, number of dims
	rows        irpoly.Layout
	common      int
	base        []poly.Constraint // domains, local definitions, context
	work        *poly.Work        // shared by every query of the analysis
}

func newBuilder(p *ir.Program, s, t *ir.Stmt) *builder {
	b := &builder{p: p, s: s, t: t}
	ds, dt := s.Depth(), t.Depth()
	ls, lt := len(s.Domain.Divs), len(t.Domain.Divs)
	b.offT, b.offLS = ds, ds+dt
	b.offLT, b.nd = ds+dt+ls, ds+dt+ls+lt
	b.common = ir.CommonLoops(s, t)
	b.space = poly.Space{Params: ir.ParamNames(p), Dims: dimNames(s, t)}
	b.rows = irpoly.Of(p, b.nd)
	b.base = append(b.base, b.rows.Domain(s.Domain, 0, b.offLS)...)
	b.base = append(b.base, b.rows.Domain(t.Domain, b.offT, b.offLT)...)
	b.base = append(b.base, b.rows.Cons(p.Context, 0, 0)...)
	return b
}

// dimNames names the dims: s's counters, t's counters primed, then the
// locals of each.
func dimNames(s, t *ir.Stmt) []string {
	var names []string
	names = append(names, s.Iters...)
	for _, i := range t.Iters {
		names = append(names, i+"'")
	}
	for k := range s.Domain.Divs {
		names = append(names, fmt.Sprintf("q%d", k))
	}
	for k := range t.Domain.Divs {
		names = append(names, fmt.Sprintf("q%d'", k))
	}
	return names
}

// pair returns the system of both domains and the equality of the
// subscripts of a (of s) and c (of t), and whether it has an integer point:
// when it has none, no depth can have one, and one query saves c+1.
func (b *builder) pair(a, c *ir.Access) ([]poly.Constraint, bool, error) {
	cs := append([]poly.Constraint(nil), b.base...)
	for k := range a.Index {
		r := b.rows.Row(a.Index[k], 0, b.offLS)
		rt := b.rows.Row(c.Index[k], b.offT, b.offLT)
		for j := range r {
			r[j] -= rt[j]
		}
		cs = append(cs, poly.Constraint{Eq: true, Coef: r})
	}
	set, err := poly.NewSet(b.space, cs...)
	if err != nil {
		return nil, false, err
	}
	empty, err := set.IsEmptyWork(b.work)
	if errors.Is(err, poly.ErrLimit) {
		return cs, true, nil // undecided: keep looking, depth by depth
	}
	return cs, !empty, err
}

// edge adds to the pair system the precedence at depth and returns the
// dependence, or nil when it has no integer point.
func (b *builder) edge(pair []poly.Constraint, depth int) (*Edge, error) {
	cs := append([]poly.Constraint(nil), pair...)
	for k := 0; k < depth && k < b.common; k++ {
		r := b.distance(k) // Dir·(t_k − s_k)
		if k == depth-1 {
			r[len(r)-1] = -1 // ≥ 1
			cs = append(cs, poly.Constraint{Coef: r})
		} else {
			cs = append(cs, poly.Constraint{Eq: true, Coef: r})
		}
	}
	set, err := poly.NewSet(b.space, cs...)
	if err != nil {
		return nil, err
	}
	e := &Edge{Depth: depth, Common: b.common, Set: set}
	empty, err := set.IsEmptyWork(b.work)
	switch {
	case errors.Is(err, poly.ErrLimit):
		e.Unsure = true
	case err != nil:
		return nil, err
	case empty:
		return nil, nil
	}
	if e.Distance, err = b.distances(set); err != nil {
		return nil, err
	}
	return e, nil
}

// distance returns the form Dir_k·(t_k − s_k).
func (b *builder) distance(k int) []int64 {
	r := make([]int64, b.nd+len(b.p.Params)+1)
	d := int64(b.s.Dir[k])
	r[b.offT+k], r[k] = d, -d
	return r
}

// distances bounds Dir_k·(t_k − s_k) over set for every common loop, the
// parameters being free.
func (b *builder) distances(set *poly.Set) ([]Interval, error) {
	out := make([]Interval, b.common)
	rows := set.Constraints()
	for k := range out {
		if d, ok := b.fixedDistance(rows, k); ok {
			out[k] = Interval{Min: d, Max: d}
			continue
		}
		iv, err := rangeWork(set, b.distance(k), b.work)
		if err != nil {
			return nil, err
		}
		out[k] = iv
	}
	return out, nil
}

// Range returns the exact integer range of the affine form f (one
// coefficient per dim, per parameter, and the constant) over set, the
// parameters being free: an end is infinite where f is unbounded, or where
// poly hit its search limit (a safe answer: the range only grows).
func Range(set *poly.Set, f []int64) (Interval, error) {
	return rangeWork(set, f, nil)
}

func rangeWork(set *poly.Set, f []int64, w *poly.Work) (Interval, error) {
	// Optimize over (dims, params) with the parameters as variables: a set
	// in a space whose dims are all of them.
	sp := set.Space()
	free, err := poly.NewSet(poly.Space{Dims: append(sp.Dims, sp.Params...)}, set.Constraints()...)
	if err != nil {
		return Interval{}, err
	}
	lo, err := free.MinWork(f, nil, w)
	if err != nil && !errors.Is(err, poly.ErrLimit) {
		return Interval{}, err
	}
	hi, err2 := free.MaxWork(f, nil, w)
	if err2 != nil && !errors.Is(err2, poly.ErrLimit) {
		return Interval{}, err2
	}
	return Interval{Min: lo.Value, Max: hi.Value,
		MinInf: err != nil || lo.Status != poly.Bounded, MaxInf: err2 != nil || hi.Status != poly.Bounded}, nil
}

// fixedDistance finds the distance of common loop k when one equality of
// the system fixes it, a·(t_k − s_k) = c, the common case of uniform
// dependences; it saves two integer optimizations.
func (b *builder) fixedDistance(rows []poly.Constraint, k int) (int64, bool) {
	sk, tk := k, b.offT+k
	for _, r := range rows {
		if !r.Eq || r.Coef[sk] == 0 || r.Coef[sk] != -r.Coef[tk] {
			continue
		}
		only := true
		for v, c := range r.Coef[:len(r.Coef)-1] {
			if c != 0 && v != sk && v != tk {
				only = false
				break
			}
		}
		// a·t − a·s + c = 0 with a = Coef[tk]: t − s = −c/a.
		a, c := r.Coef[tk], r.Coef[len(r.Coef)-1]
		if only && c%a == 0 {
			return int64(b.s.Dir[k]) * (-c / a), true
		}
	}
	return 0, false
}
