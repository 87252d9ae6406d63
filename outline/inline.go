package outline

import (
	"fmt"
	"slices"
	"strconv"
)

// maxInlineDepth bounds nested inlining: a chain of invokes deeper than
// this is taken to be recursion.
const maxInlineDepth = 1000

// Inline replaces every invoke of a function that Outline created
// (Function.Outlined), in every function of p, by a copy of the callee's
// body (with fresh IDs, the invoke's operands in place of the
// parameters), until no such invoke is left, and then removes the
// functions Outline created that nothing invokes any more. Invokes of the
// user's functions, and the user's functions, stay. Where a callee returns a tuple node, a tuple_index
// of the invoke becomes the element it selects, and the copy of the tuple
// goes if nothing else uses it (so an outlined multi-output pattern comes
// back as it was, bundle.go). Inline(p) after Outline gives back
// functions that are StructurallyEqual to the originals once both are
// canonicalized.
func Inline(p *Package) error {
	id := maxID(p)
	for _, f := range p.Funcs {
		rets := map[*Node]bool{} // copies of callees' returned tuples
		for depth := 0; ; depth++ {
			if !slices.ContainsFunc(f.Nodes, func(n *Node) bool { return callee(p, f, n) != nil }) {
				break
			}
			if depth == maxInlineDepth {
				return fmt.Errorf("outline: function %s: invokes nest deeper than %d (recursion?)", f.Name, maxInlineDepth)
			}
			inlineOnce(p, f, &id, rets)
		}
		dropUnused(f, rets)
		if err := f.Check(); err != nil {
			return fmt.Errorf("outline: internal error: after inlining: %v", err)
		}
	}
	// Drop outlined functions nothing invokes.
	called := map[string]bool{}
	for _, f := range p.Funcs {
		for _, n := range f.Nodes {
			for _, k := range []string{"to_apply", "body"} {
				if to, ok := n.Attr(k); ok {
					called[to] = true
				}
			}
		}
	}
	for _, o := range p.Opaque {
		for _, to := range o.Calls {
			called[to] = true
		}
	}
	p.Funcs = slices.DeleteFunc(p.Funcs, func(f *Function) bool {
		return f.Outlined && !called[f.Name] && f.Name != p.Top
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
	if g == nil || g == f || !g.Outlined || len(g.Params) != len(n.Operands) {
		return nil
	}
	return g
}

// inlineOnce replaces each invoke of f by one level of its callee's body.
// It adds the copies of returned tuple nodes to rets, and replaces a
// tuple_index of one by the element it selects.
func inlineOnce(p *Package, f *Function, id *int, rets map[*Node]bool) {
	replace := map[*Node]*Node{}
	var nodes []*Node
	for _, n := range f.Nodes {
		for i, o := range n.Operands {
			if r, ok := replace[o]; ok {
				n.Operands[i] = r
			}
		}
		if e := selected(n, rets); e != nil {
			replace[n] = e
			continue
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
			c := &Node{ID: *id, Op: x.Op, Type: x.Type, Attrs: slices.Clone(x.Attrs), Pos: x.Pos, Loc: x.Loc}
			for _, o := range x.Operands {
				c.Operands = append(c.Operands, copyOf[o])
			}
			if e := selected(c, rets); e != nil {
				copyOf[x] = e
				continue
			}
			copyOf[x] = c
			nodes = append(nodes, c)
		}
		replace[n] = copyOf[g.Ret]
		if g.Ret.Op == "tuple" {
			rets[copyOf[g.Ret]] = true
		}
	}
	if r, ok := replace[f.Ret]; ok {
		f.Ret = r
	}
	f.Nodes = nodes
}

// selected is, when n is a tuple_index of a tuple in rets, the element it
// selects; else nil.
func selected(n *Node, rets map[*Node]bool) *Node {
	if n.Op != "tuple_index" || len(n.Operands) != 1 || !rets[n.Operands[0]] {
		return nil
	}
	return element(n)
}

// element is the operand of tuple node t = n.Operands[0] that the
// tuple_index n selects, or nil when its index is out of range.
func element(n *Node) *Node {
	t := n.Operands[0]
	v, _ := n.Attr("index")
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 || i >= len(t.Operands) {
		return nil
	}
	return t.Operands[i]
}

// dropUnused removes from f the tuples of rets that no node uses and f
// does not return.
func dropUnused(f *Function, rets map[*Node]bool) {
	if len(rets) == 0 {
		return
	}
	used := map[*Node]bool{f.Ret: true}
	for _, n := range f.Nodes {
		for _, o := range n.Operands {
			used[o] = true
		}
	}
	f.Nodes = slices.DeleteFunc(f.Nodes, func(n *Node) bool { return rets[n] && !used[n] })
}
