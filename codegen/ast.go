package codegen

import (
	"slices"

	"nestor/ir"
)

// Node is a node of the loop AST: *Block, *Loop, *If or *Instance.
type Node interface{ node() }

// Block is a sequence of nodes executed in order; Build returns the region
// as one.
type Block struct {
	Body []Node
	// Sections runs the nodes of Body, each a Block, as OpenMP sections:
	// one thread each, in any order or at once (jamTri's groups of copies,
	// which no dependence joins). Sequentially they run in order.
	Sections bool
}

// Loop runs its counter over the integers from max(Lower) to min(Upper),
// upward when Dir is +1 and downward from min(Upper) when Dir is -1, in
// steps of Step. Its bounds are affine over the counters of the Level
// enclosing loops.
type Loop struct {
	Iter    string // the counter's name
	Level   int    // the number of enclosing loops
	Lower   []Bound
	Upper   []Bound
	Step    int64
	Dir     int
	Pragmas []string // printed as "#pragma X" lines before the loop: "omp parallel for", "omp simd"
	// ForkIf makes an "omp parallel for" fork threads only when the loop
	// has two iterations or more (an if clause): a loop nested in others
	// forks once per outer iteration, and one iteration is nothing to
	// share.
	ForkIf bool
	// NonEmpty reports that the loop is known to run at least once
	// wherever it is reached (set by Build's simplification).
	NonEmpty bool
	// Rest marks the remainder of an unrolled loop (UnrollJam): the loop
	// right before it in the same body has the same counter and a larger
	// step, and this loop continues that counter from where it stopped
	// (its Lower bounds still hold, as facts, but are not where it
	// starts).
	Rest bool
	// Registers lists the arrays (indices into Program.Arrays) one of
	// whose elements an innermost loop may keep in a variable (set by
	// Build's simplification; see scalar.go).
	Registers []int
	// BodyRegisters lists elements one iteration of the loop may keep in
	// a variable, loaded at the start of the body and stored at its end.
	BodyRegisters []BodyRegister
	// Reduction, when set, prints the loop as a factored reduction
	// (reduce.go; set by MarkReductions).
	Reduction *ir.Reduction
	Body      []Node
}

// Bound is one term of a loop bound. A leaf (Of empty) is ⌈Aff/Den⌉ in a
// lower bound and ⌊Aff/Den⌋ in an upper one; Aff is over the enclosing
// loops' counters and the parameters. Otherwise the term is the min (Min
// set) or max of the terms Of, rounded the same way.
type Bound struct {
	Aff ir.Aff
	Den int64
	Of  []Bound
	Min bool
}

// If runs Body where every one of Conds holds.
type If struct {
	Conds []Cond
	Body  []Node
}

// Cond is one guard: Aff ≥ 0, Aff = 0 when Eq is set, or Aff ≡ 0 (mod Mod)
// when Mod > 0. Aff is over the enclosing loops' counters, the parameters
// and the locals ⌊Num/Den⌋ of Divs (whose numerators use the same
// counters).
type Cond struct {
	Aff  ir.Aff
	Eq   bool
	Mod  int64
	Divs []ir.Div
}

// Instance executes statement Stmt (an index in Program.Stmts) once, with
// its counter l equal to Iters[l], an affine form over the enclosing loops'
// counters and the parameters.
type Instance struct {
	Stmt  int
	Iters []ir.Aff
}

func (*Block) node()    {}
func (*Loop) node()     {}
func (*If) node()       {}
func (*Instance) node() {}

// equal reports whether b and c are the same bound term.
func (b Bound) equal(c Bound) bool {
	return b.Den == c.Den && b.Min == c.Min && b.Aff.Equal(c.Aff) &&
		slices.EqualFunc(b.Of, c.Of, Bound.equal)
}

// equal reports whether c and d are the same guard.
func (c Cond) equal(d Cond) bool {
	if c.Eq != d.Eq || c.Mod != d.Mod || !c.Aff.Equal(d.Aff) {
		return false
	}
	if !slices.ContainsFunc(c.Aff.Local, func(x int64) bool { return x != 0 }) {
		return true
	}
	return slices.EqualFunc(c.Divs, d.Divs, func(x, y ir.Div) bool { return x.Den == y.Den && x.Num.Equal(y.Num) })
}

// MarkParallel annotates the loops of b that parallel reports free of
// carried dependences, given the loop's counter level and the statements
// it runs: the outermost such loop of each
// nest becomes "omp parallel for" when it contains loops or is outermost,
// and a parallel loop that contains no loop and is not already the
// OpenMP loop becomes "omp simd" (a parallel innermost loop under a
// sequential one vectorizes rather than forking threads each time).
func MarkParallel(b *Block, parallel func(level int, stmts []int) bool) {
	for _, n := range b.Body {
		markParallel(n, parallel, false)
	}
}

func markParallel(n Node, parallel func(int, []int) bool, inside bool) {
	switch n := n.(type) {
	case *Block:
		for _, c := range n.Body {
			markParallel(c, parallel, inside)
		}
	case *If:
		for _, c := range n.Body {
			markParallel(c, parallel, inside)
		}
	case *Loop:
		par := parallel(n.Level, stmtsIn(n.Body)) && !singleIteration(n) // one iteration: nothing to share
		leaf := innermost(n)
		forked := par && !inside && (!leaf || n.Level == 0)
		switch {
		case forked:
			n.Pragmas = append(n.Pragmas, "omp parallel for")
			n.ForkIf = n.Level > 0
		case par && leaf:
			n.Pragmas = append(n.Pragmas, "omp simd")
		}
		for _, c := range n.Body {
			markParallel(c, parallel, inside || forked)
		}
	}
}

// stmtsIn returns the statements of the instances in ns, each once.
func stmtsIn(ns []Node) []int {
	var out []int
	var walk func(ns []Node)
	walk = func(ns []Node) {
		for _, n := range ns {
			switch n := n.(type) {
			case *Instance:
				if !slices.Contains(out, n.Stmt) {
					out = append(out, n.Stmt)
				}
			case *Packed:
				if !slices.Contains(out, n.Stmt) {
					out = append(out, n.Stmt)
				}
			case *Loop:
				walk(n.Body)
			case *If:
				walk(n.Body)
			case *Block:
				walk(n.Body)
			}
		}
	}
	walk(ns)
	return out
}

// leaf reports whether loop l contains no loop of more than one
// iteration: its body is the work of one iteration.
func leaf(l *Loop) bool {
	var has func(ns []Node) bool
	has = func(ns []Node) bool {
		for _, n := range ns {
			switch n := n.(type) {
			case *Loop:
				if !singleIteration(n) || has(n.Body) {
					return true
				}
			case *If:
				if has(n.Body) {
					return true
				}
			case *Block:
				if has(n.Body) {
					return true
				}
			}
		}
		return false
	}
	return !has(l.Body)
}

// innermost reports whether loop l contains no loop.
func innermost(l *Loop) bool {
	var has func(ns []Node) bool
	has = func(ns []Node) bool {
		for _, n := range ns {
			switch n := n.(type) {
			case *Loop:
				return true
			case *If:
				if has(n.Body) {
					return true
				}
			case *Block:
				if has(n.Body) {
					return true
				}
			}
		}
		return false
	}
	return !has(l.Body)
}

// BodyRegister is one array element, its subscripts over the counters of
// a loop and the enclosing ones.
type BodyRegister struct {
	Array   int
	Elem    []ir.Aff
	Written bool
	// Load reports whether the variable starts with the element's value
	// (false when the body's first statement assigns it outright).
	Load bool
}
