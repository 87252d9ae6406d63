package ir

import "slices"

// The loop tree. The Beta vectors of a program's statements describe a
// tree: the region at the root, a loop at every shared prefix, and the
// statements at the leaves (see the package doc). The functions in this
// file are the one reading of Beta as that tree; analyses and passes that
// need the loop structure (interp's walk, codegen's build, expand, reroll,
// rfactor) ask them instead of comparing Beta prefixes themselves.
//
// A loop is named by its path: the positions Beta[:k+1] that the
// statements inside the loop at depth k share (its counter is their
// Iters[k]). The empty path names the region.

// Path returns the path of the loop at depth k around s (k <
// s.Depth()); k = -1 gives the region's, the empty path.
func (s *Stmt) Path(k int) []int { return s.Beta[:k+1] }

// In reports whether s lies inside the loop named by path (every statement
// lies in the region).
func (s *Stmt) In(path []int) bool {
	return s.Depth() >= len(path) && slices.Equal(s.Beta[:len(path)], path)
}

// SameLoops reports whether s and t share their loops at depths 0 to k-1
// (for k = 0, always).
func SameLoops(s, t *Stmt, k int) bool {
	return s.Depth() >= k && t.Depth() >= k && slices.Equal(s.Beta[:k], t.Beta[:k])
}

// Children splits items, whose statements (stmt(item)) all lie in one loop
// at depth k-1 (the region for k = 0), into that loop's children in
// execution order: the items of one statement of depth k, or of one loop
// at depth k. Items keep their order inside a child.
func Children[T any](items []T, stmt func(T) *Stmt, k int) [][]T {
	items = slices.Clone(items)
	slices.SortStableFunc(items, func(a, b T) int { return stmt(a).Beta[k] - stmt(b).Beta[k] })
	var out [][]T
	for len(items) > 0 {
		n := 1
		for n < len(items) && stmt(items[n]).Beta[k] == stmt(items[0]).Beta[k] {
			n++
		}
		out = append(out, items[:n:n])
		items = items[n:]
	}
	return out
}

// Child is one child of a loop: a statement, or a loop holding Stmts.
type Child struct {
	Pos   int   // its position among the loop's children
	Stmt  int   // the statement (an index into p.Stmts), or -1 for a loop
	Stmts []int // the statements it holds, in textual order
}

// ChildrenOf returns the children of the loop named by path (the region
// for the empty path), in execution order.
func (p *Program) ChildrenOf(path []int) []Child {
	var in []int
	for k, s := range p.Stmts {
		if s.In(path) {
			in = append(in, k)
		}
	}
	d := len(path)
	var out []Child
	for _, g := range Children(in, func(k int) *Stmt { return p.Stmts[k] }, d) {
		c := Child{Pos: p.Stmts[g[0]].Beta[d], Stmt: -1, Stmts: g}
		if len(g) == 1 && p.Stmts[g[0]].Depth() == d {
			c.Stmt = g[0]
		}
		out = append(out, c)
	}
	return out
}

// Paths returns the path of every loop of p (not the region), each once,
// in the textual order of their first statements, outer loops before the
// loops they hold.
func (p *Program) Paths() [][]int {
	var out [][]int
	for _, s := range p.Stmts {
		for k := range s.Depth() {
			path := s.Path(k)
			if !slices.ContainsFunc(out, func(q []int) bool { return slices.Equal(q, path) }) {
				out = append(out, path)
			}
		}
	}
	return out
}

// Place returns the Beta vector of a statement of depth len(path) placed
// at position pos of the loop named by path.
func Place(path []int, pos int) []int {
	return append(slices.Clone(path), pos)
}

// PosIn returns the position, among the children of the loop named by
// path, of the child that holds s (s lies in that loop).
func (s *Stmt) PosIn(path []int) int { return s.Beta[len(path)] }

// Moved returns a copy of s, which lies in the loop named by path, whose
// child there has moved by delta positions.
func (s *Stmt) Moved(path []int, delta int) *Stmt {
	c := *s
	c.Beta = slices.Clone(s.Beta)
	c.Beta[len(path)] += delta
	return &c
}

// CommonLoops returns how many loops s and t share, outermost first.
func CommonLoops(s, t *Stmt) int {
	k := 0
	for k < s.Depth() && k < t.Depth() && s.Beta[k] == t.Beta[k] {
		k++
	}
	return k
}

// Precedes reports whether, in the loop they share at depth k-1 (the
// region for k = 0), the child holding s comes before the one holding t:
// s's instances run before t's at equal outer counters.
func Precedes(s, t *Stmt, k int) bool { return s.Beta[k] < t.Beta[k] }
