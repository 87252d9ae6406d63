package outline

import (
	"fmt"
	"slices"
	"strings"
)

// maxInlineDepth bounds nested inlining: a chain of invokes deeper than
// this is taken to be recursion.
const maxInlineDepth = 1000

// Inline replaces every invoke of a function of p, in every function of
// p, by a copy of the callee's body (with fresh IDs, the invoke's operands
// in place of the parameters), until no such invoke is left, and then
// removes the functions Outline created (named outlined_N) that nothing
// invokes any more. Inline(p) after Outline gives back functions that are
// StructurallyEqual to the originals once both are canonicalized.
func Inline(p *Package) error {
	id := maxID(p)
	for _, f := range p.Funcs {
		for depth := 0; ; depth++ {
			if !slices.ContainsFunc(f.Nodes, func(n *Node) bool { return callee(p, f, n) != nil }) {
				break
			}
			if depth == maxInlineDepth {
				return fmt.Errorf("outline: function %s: invokes nest deeper than %d (recursion?)", f.Name, maxInlineDepth)
			}
			inlineOnce(p, f, &id)
		}
		if err := f.Check(); err != nil {
			return fmt.Errorf("outline: internal error: after inlining: %v", err)
		}
	}
	// Drop outlined functions nothing invokes.
	called := map[string]bool{}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			if n.Op == "invoke" {
				to, _ := n.Attr("to_apply")
				called[to] = true
			}
		}
	}
	p.Funcs = slices.DeleteFunc(p.Funcs, func(f *Function) bool {
		return strings.HasPrefix(f.Name, outlinedPrefix) && !called[f.Name] && f.Name != p.Top
	})
	return nil
}

// callee is the function of p that n invokes, or nil.
func callee(p *Package, f *Function, n *Node) *Function {
	if n.Op != "invoke" {
		return nil
	}
	to, ok := n.Attr("to_apply")
	if !ok {
		return nil
	}
	g := p.Func(to)
	if g == nil || g == f || len(g.Params) != len(n.Operands) {
		return nil
	}
	return g
}

// inlineOnce replaces each invoke of f by one level of its callee's body.
func inlineOnce(p *Package, f *Function, id *int) {
	replace := map[*Node]*Node{}
	var nodes []*Node
	for _, n := range f.Nodes {
		for i, o := range n.Operands {
			if r, ok := replace[o]; ok {
				n.Operands[i] = r
			}
		}
		g := callee(p, f, n)
		if g == nil {
			nodes = append(nodes, n)
			continue
		}
		copyOf := make(map[*Node]*Node, len(g.Nodes))
		for i, prm := range g.Params {
			copyOf[prm] = n.Operands[i]
		}
		for _, x := range g.Nodes {
			if x.Op == "param" {
				continue
			}
			*id++
			c := &Node{ID: *id, Op: x.Op, Type: x.Type, Attrs: slices.Clone(x.Attrs), Pos: x.Pos}
			for _, o := range x.Operands {
				c.Operands = append(c.Operands, copyOf[o])
			}
			copyOf[x] = c
			nodes = append(nodes, c)
		}
		replace[n] = copyOf[g.Ret]
	}
	if r, ok := replace[f.Ret]; ok {
		f.Ret = r
	}
	f.Nodes = nodes
}
