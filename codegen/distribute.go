package codegen

import (
	"slices"

	"nestor/deps"
	"nestor/ir"
)

// Distribute splits innermost loops that carry a dependence, and so run
// one element at a time, into a loop per group of their statements, so
// that the groups that carry none run as SIMD loops. A time-tiled
// stencil is the case: its fused statements shift against one another
// (jacobi-2d's A[i-1][j-1] = f(B[i-1][j], B[i][j-1], ...) reads the B
// its first statement wrote one iteration before), which chains the
// iterations of the innermost loop. Run one after the other over the
// loop's range, each statement's loop carries nothing.
//
// Loop l at level k, its body the instances S_1 … S_n in that order, is
// split into groups of consecutive instances. The instances of one
// iteration of the loops around l keep their order except that all of
// group a's iterations run before group b's when a < b: an instance of
// S_q at counter value y and one of S_p at y' > y swap when S_p's group
// comes first. That is legal when no dependence carried by l (Depth
// k + 1: the outer counters equal, l's larger at the target) runs from a
// statement of a later group to one of an earlier group; so every such
// dependence backwards in the body joins its two ends, and what lies
// between, into one group. Dependences carried by outer loops are
// untouched, and loop-independent ones run forwards in the body, as the
// groups do. A group is a SIMD loop when l carries no dependence between
// its own statements.
//
// The loop is split only when every group is then a SIMD loop, two
// groups or more; each copy has l's bounds, the pragma "omp simd" and its
// own registers. Only loops at the levels where simd says so are split
// (the loop groups whose marks ask for SIMD loops). carried returns the dependences of p (whose counters
// are the AST's levels) between the statements stmts that the loop at
// level carries, or nil when they are not known (a budget spent): the
// loop is then kept. Distribute returns the number of loops split.
func Distribute(p *ir.Program, b *Block, simd func(level int) bool, carried func(stmts []int, level int) *deps.Graph) int {
	d := &distributor{p: p, simd: simd, deps: carried, solver: newSolver(p, maxSolverWork)}
	b.Body = d.nodes(b.Body)
	return d.count
}

type distributor struct {
	p      *ir.Program
	simd   func(level int) bool
	deps   func(stmts []int, level int) *deps.Graph
	solver *solver
	count  int
}

func (d *distributor) nodes(ns []Node) []Node {
	var out []Node
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			n.Body = d.nodes(n.Body)
		case *If:
			n.Body = d.nodes(n.Body)
		case *Loop:
			if split := d.split(n); split != nil {
				out = append(out, split...)
				continue
			}
			n.Body = d.nodes(n.Body)
		}
		out = append(out, n)
	}
	return out
}

// split returns the loops replacing l, or nil to keep it.
func (d *distributor) split(l *Loop) []Node {
	if !d.simd(l.Level) || len(l.Pragmas) > 0 || l.Step != 1 || l.Dir < 0 || l.Rest || l.Reduction != nil || len(l.Body) < 2 || singleIteration(l) {
		return nil
	}
	pos := map[int]int{} // statement: its place in the body
	for k, n := range l.Body {
		in, ok := n.(*Instance)
		if !ok {
			return nil
		}
		if _, dup := pos[in.Stmt]; dup {
			return nil
		}
		pos[in.Stmt] = k
	}
	// Groups are runs of places; a dependence backwards in the body
	// joins the places from its target's to its source's.
	carried, ok := d.carried(l.Level, pos)
	if !ok {
		return nil
	}
	joined := make([]bool, len(l.Body)) // place k is in place k − 1's group
	for _, e := range carried {
		for k := e[1] + 1; k <= e[0]; k++ {
			joined[k] = true
		}
	}
	var starts []int
	for k := range joined {
		if !joined[k] {
			starts = append(starts, k)
		}
	}
	if len(starts) < 2 {
		return nil
	}
	group := func(place int) int {
		gi, _ := slices.BinarySearch(starts, place+1)
		return gi - 1
	}
	for _, e := range carried {
		if group(e[0]) == group(e[1]) {
			// A group left carrying a dependence still runs one element
			// at a time, and the split makes the others read again what
			// it reads (mvt's row reduction and its SIMD update, split
			// and then jammed by 8 rows, read 128 KB of A twice: 10%
			// slower).
			return nil
		}
	}
	d.count++
	var out []Node
	for gi, s := range starts {
		end := len(l.Body)
		if gi+1 < len(starts) {
			end = starts[gi+1]
		}
		c := *l
		c.Body = cloneInstances(l.Body[s:end])
		c.Pragmas = []string{"omp simd"}
		known := append(boundRows(c.Lower, c.Level, true, d.solver.depth, d.solver.np), boundRows(c.Upper, c.Level, false, d.solver.depth, d.solver.np)...)
		c.Registers = d.solver.registerArrays(d.p, &c, known)
		c.BodyRegisters = d.solver.bodyRegisters(d.p, &c, known)
		out = append(out, &c)
	}
	return out
}

// carried returns the dependences the loop at level carries between the
// statements of pos, as pairs of places (source, target); false when
// they are not known.
func (d *distributor) carried(level int, pos map[int]int) ([][2]int, bool) {
	stmts := make([]int, 0, len(pos))
	for st := range pos {
		stmts = append(stmts, st)
	}
	slices.Sort(stmts)
	g := d.deps(stmts, level)
	if g == nil || g.Exhausted {
		return nil, false
	}
	var out [][2]int
	for _, e := range g.Edges {
		ps, ok1 := pos[e.Source]
		pt, ok2 := pos[e.Target]
		if ok1 && ok2 && e.Depth == level+1 {
			out = append(out, [2]int{ps, pt})
		}
	}
	return out, true
}
