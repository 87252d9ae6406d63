package sched

import (
	"fmt"
	"slices"

	"nestor/ir"
)

// A Tree is a schedule as a tree, in the spirit of isl's schedule trees:
// the root's children order the statements (a Sequence of Filters) or
// scan them together (a Band of affine rows); a Leaf ends a branch. It
// says what Schedule's flat rows say — every time dimension is a member of
// a band or the position of a sequence — with the structure explicit: the
// statements each node runs, the rows of each band, whether the band is
// permutable and, per member, for which statements it carries no
// dependence.
//
// FromSchedule builds the tree of a schedule and Tree.Schedule the
// schedule of a tree; Tree.String prints it in a YAML-like text close to
// isl's (ParseTree reads it back), which is what `nestor sched --tree`
// shows.
type Tree struct {
	// Stmts are the names of the statements (ir.Stmt.Name), their counters
	// and the program's parameters, for printing and parsing.
	Stmts  []string
	Iters  [][]string
	Params []string
	Root   *TreeNode
}

// NodeKind is what a tree node does.
type NodeKind uint8

const (
	// LeafNode ends a branch: its statements are ordered completely.
	LeafNode NodeKind = iota
	// BandNode scans its statements by the affine rows of its members,
	// outermost first; its one child runs inside.
	BandNode
	// SequenceNode runs its children one after another; each child is a
	// FilterNode.
	SequenceNode
	// FilterNode restricts its child to the statements Stmts.
	FilterNode
)

var kindNames = [...]string{LeafNode: "leaf", BandNode: "band", SequenceNode: "sequence", FilterNode: "filter"}

func (k NodeKind) String() string { return kindNames[k] }

// A TreeNode is one node of a Tree.
type TreeNode struct {
	Kind NodeKind
	// Stmts are the statements the node runs, in increasing order.
	Stmts []int
	// Rows[m][s] is member m of a band for statement s (an index into
	// Tree.Stmts; nil for statements the band does not run): an affine
	// form over the statement's counters and the parameters.
	Rows [][]ir.Aff
	// Permutable reports whether the band's members may be permuted
	// (and tiled): each respects every dependence not satisfied outside
	// the band.
	Permutable bool
	// Coincident[m] says which statements member m carries no dependence
	// of: All is isl's coincident, For its per-statement form (a loop of
	// member m around statements that all have it is parallel).
	Coincident []Coincidence
	// Layout, on a band whose first member starts a loop group, is how
	// that group is laid out as loops (SetLayouts); nil before that.
	Layout   *Layout
	Children []*TreeNode
}

// ApplyTree rewrites p in the order of t, a schedule tree of p whose
// bands carry their layouts: the flat schedule is the tree's
// (Tree.Schedule), laid out as its layouts say (ApplyLayouts). This is
// how the pipeline lowers a region's tree to the program codegen scans.
func ApplyTree(p *ir.Program, t *Tree) (*ir.Program, []LoopInfo, error) {
	sc, err := t.Schedule(len(p.Params))
	if err != nil {
		return nil, nil, err
	}
	lays, err := t.Layouts(sc)
	if err != nil {
		return nil, nil, err
	}
	return ApplyLayouts(p, sc, lays)
}

// Layouts returns the layouts attached to t's bands (SetLayouts, or a
// parsed text's layout_ lines) as ApplyLayouts takes them for sc, the
// schedule of t: one per loop group, with the group's dimensions and band
// number filled in.
func (t *Tree) Layouts(sc *Schedule) ([]Layout, error) {
	byDim := map[int]*Layout{}
	t.eachBand(func(nd *TreeNode, dim int) {
		if nd.Layout != nil && byDim[dim] == nil {
			byDim[dim] = nd.Layout
		}
	})
	loops := sc.loopDims()
	var out []Layout
	band := 0
	for _, g := range loopGroups(sc, loops) {
		l := byDim[loops[g[0]]]
		if l == nil {
			return nil, fmt.Errorf("sched: no layout for the loop group at time dimension %d", loops[g[0]])
		}
		c := *l
		c.Dims, c.Band = nil, 0
		for _, j := range g {
			c.Dims = append(c.Dims, loops[j])
		}
		if len(g) > 1 {
			band++
			c.Band = band
		}
		out = append(out, c)
	}
	return out, nil
}

// SetLayouts attaches each layout (as Decide returns them for the
// schedule t was built from) to the band nodes whose first member is the
// layout's first time dimension. A group whose dimensions a sequence
// separates (a band cut by the positions of distributed statements)
// hangs on its outermost band.
func (t *Tree) SetLayouts(lays []Layout) {
	byDim := map[int]*Layout{}
	for k := range lays {
		byDim[lays[k].Dims[0]] = &lays[k]
	}
	t.eachBand(func(nd *TreeNode, dim int) { nd.Layout = byDim[dim] })
}

// eachBand calls f on every band node of t, outermost first, with the
// time dimension of its first member (Tree.Schedule's numbering: a band
// takes one dimension per member, a sequence one).
func (t *Tree) eachBand(f func(nd *TreeNode, dim int)) {
	var walk func(nd *TreeNode, dim int)
	walk = func(nd *TreeNode, dim int) {
		switch nd.Kind {
		case BandNode:
			f(nd, dim)
			dim += len(nd.Rows)
		case SequenceNode:
			dim++
		}
		for _, c := range nd.Children {
			walk(c, dim)
		}
	}
	if t.Root != nil {
		walk(t.Root, 0)
	}
}

// FromSchedule returns the tree of sc, a schedule of p: the scalar
// dimensions become sequences (one filter per value, in increasing
// order, for the statements that reach them) and the runs of loop
// dimensions bands, permutable where sc.Bands says so.
func FromSchedule(p *ir.Program, sc *Schedule) *Tree {
	t := &Tree{Params: ir.ParamNames(p)}
	all := make([]int, len(p.Stmts))
	for s, st := range p.Stmts {
		all[s] = s
		t.Stmts = append(t.Stmts, st.Name)
		t.Iters = append(t.Iters, st.Iters)
	}
	t.Root = buildTree(sc, all, 0)
	return t
}

func buildTree(sc *Schedule, stmts []int, dim int) *TreeNode {
	if dim >= sc.Dims() {
		return &TreeNode{Kind: LeafNode, Stmts: stmts}
	}
	if sc.scalar(dim) {
		seq := &TreeNode{Kind: SequenceNode, Stmts: stmts}
		var values []int64
		for _, s := range stmts {
			if v := sc.Rows[s][dim].Const; !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		slices.Sort(values)
		for _, v := range values {
			var group []int
			for _, s := range stmts {
				if sc.Rows[s][dim].Const == v {
					group = append(group, s)
				}
			}
			seq.Children = append(seq.Children, &TreeNode{Kind: FilterNode, Stmts: group,
				Children: []*TreeNode{buildTree(sc, group, dim+1)}})
		}
		return seq
	}
	end, permutable := dim+1, false
	for _, b := range sc.Bands {
		if b.Start <= dim && dim < b.End {
			end, permutable = b.End, true
		}
	}
	for k := dim + 1; k < end; k++ { // a band's members are loop dimensions
		if sc.scalar(k) {
			end = k
			break
		}
	}
	band := &TreeNode{Kind: BandNode, Stmts: stmts, Permutable: permutable}
	n := len(sc.Rows)
	for k := dim; k < end; k++ {
		rows := make([]ir.Aff, n)
		coin := make([]bool, n)
		for _, s := range stmts {
			rows[s] = sc.Rows[s][k].Clone()
			coin[s] = sc.ParallelFor(k, s)
		}
		band.Rows = append(band.Rows, rows)
		band.Coincident = append(band.Coincident, Coincidence{All: sc.Coincident[k].All, For: coin})
	}
	band.Children = []*TreeNode{buildTree(sc, stmts, end)}
	return band
}

// Schedule returns the flat schedule of t: one time dimension per band
// member and per sequence, depth first, a statement's position in a
// sequence as its value there; statements outside a branch get zero rows
// where the branch has dimensions they lack. A tree from FromSchedule
// gives back a schedule that orders every statement instance as the
// original did (the values of scalar dimensions may be renumbered).
func (t *Tree) Schedule(np int) (*Schedule, error) {
	n := len(t.Stmts)
	sc := &Schedule{Rows: make([][]ir.Aff, n)}
	zero := func(s int) ir.Aff {
		return ir.Aff{Iter: make([]int64, len(t.Iters[s])), Param: make([]int64, np)}
	}
	var walk func(nd *TreeNode, dim int) (int, error)
	walk = func(nd *TreeNode, dim int) (int, error) {
		grow := func(to int) {
			for len(sc.Coincident) < to {
				free := make([]bool, n)
				for s := range free {
					free[s] = true
				}
				sc.Coincident = append(sc.Coincident, Coincidence{All: true, For: free})
			}
			for s := range n {
				for len(sc.Rows[s]) < to {
					sc.Rows[s] = append(sc.Rows[s], zero(s))
				}
			}
		}
		switch nd.Kind {
		case LeafNode:
			return dim, nil
		case SequenceNode:
			grow(dim + 1)
			sc.Coincident[dim] = Coincidence{} // no loop
			end := dim + 1
			for k, f := range nd.Children {
				if f.Kind != FilterNode || len(f.Children) != 1 {
					return 0, fmt.Errorf("sched: a sequence's children must be filters with one child each")
				}
				for _, s := range f.Stmts {
					sc.Rows[s][dim].Const = int64(k)
				}
				e, err := walk(f.Children[0], dim+1)
				if err != nil {
					return 0, err
				}
				end = max(end, e)
			}
			return end, nil
		case BandNode:
			m := len(nd.Rows)
			grow(dim + m)
			for k := range m {
				sc.Coincident[dim+k].All = sc.Coincident[dim+k].All && nd.Coincident[k].All
				for _, s := range nd.Stmts {
					if len(nd.Rows[k][s].Iter) != len(t.Iters[s]) {
						return 0, fmt.Errorf("sched: band row of %s has %d counters, the statement %d", t.Stmts[s], len(nd.Rows[k][s].Iter), len(t.Iters[s]))
					}
					r := nd.Rows[k][s].Clone()
					r.Param = append(r.Param, make([]int64, max(0, np-len(r.Param)))...)[:np]
					sc.Rows[s][dim+k] = r
					sc.Coincident[dim+k].For[s] = nd.Coincident[k].Of(s)
				}
			}
			if nd.Permutable {
				sc.Bands = append(sc.Bands, Band{Start: dim, End: dim + m})
			}
			if len(nd.Children) != 1 {
				return 0, fmt.Errorf("sched: a band must have one child")
			}
			return walk(nd.Children[0], dim+m)
		}
		return 0, fmt.Errorf("sched: a %v node where a band, sequence or leaf belongs", nd.Kind)
	}
	end, err := walk(t.Root, 0)
	if err != nil {
		return nil, err
	}
	if end == 0 { // a leaf: one scalar dimension orders nothing
		for s := range n {
			sc.Rows[s] = []ir.Aff{zero(s)}
		}
		sc.Coincident = []Coincidence{{All: true}}
	}
	slices.SortFunc(sc.Bands, func(a, b Band) int { return a.Start - b.Start })
	sc.Bands = slices.CompactFunc(sc.Bands, func(a, b Band) bool { return a == b })
	return sc, nil
}
