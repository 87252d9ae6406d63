package outline

import (
	"hash"
	"hash/fnv"
	"slices"
	"strings"
)

// Canonicalize sorts the operands of every commutative operation of f
// (Commutative) by a structural key: first the operand's shallow key (its
// Label and its own operands' operations), which two nearly equal
// subgraphs share, so that they sort alike; ties are broken by a hash of
// the operand's whole expression (commutative operands hashed as a
// multiset), and then by a hash of where its value goes (its users'
// labels, operand positions and own such hashes, up to the returned
// value), so that structurally equal functions canonicalize to the same
// operand orders, even where two operands are equal expressions computed
// by different nodes. The value of f does not change.
func Canonicalize(f *Function) { canonicalize(f) }

// canonicalize is Canonicalize; it returns the nodes whose operands it
// reordered.
func canonicalize(f *Function) []*Node {
	n := len(f.Nodes)
	pos := make(map[*Node]int32, n)
	for i, x := range f.Nodes {
		pos[x] = int32(i)
	}
	shallow := make([]string, n)
	deep := make([]uint64, n)
	var buf [8]byte
	put := func(h hash.Hash64, v uint64) {
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		h.Write(buf[:])
	}
	label := make([]string, n)
	labelHash := make([]uint64, n)
	for i, x := range f.Nodes {
		label[i] = x.Label()
		h := fnv.New64a()
		h.Write([]byte(label[i]))
		labelHash[i] = h.Sum64()
	}
	// Down: the shallow keys and expression hashes.
	var ds []uint64
	for i, x := range f.Nodes {
		var b strings.Builder
		b.WriteString(label[i])
		b.WriteByte('(')
		for j, o := range x.Operands {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(o.Op)
		}
		b.WriteByte(')')
		shallow[i] = b.String()
		h := fnv.New64a()
		put(h, labelHash[i])
		if x.Op == "param" {
			h.Write([]byte(x.Name))
		}
		ds = ds[:0]
		for _, o := range x.Operands {
			ds = append(ds, deep[pos[o]])
		}
		if Commutative(x.Op) {
			slices.Sort(ds)
		}
		for _, d := range ds {
			put(h, d)
		}
		deep[i] = h.Sum64()
	}
	// Up: a hash of each node's uses, from the returned value down (a
	// node's users come after it, so walking backwards each node's uses
	// are all known when it is reached); a use by a commutative operation
	// does not depend on the operand position.
	uses := make([][]uint64, n)
	if r, ok := pos[f.Ret]; ok {
		uses[r] = append(uses[r], 1)
	}
	up := make([]uint64, n)
	for i := n - 1; i >= 0; i-- {
		x := f.Nodes[i]
		us := uses[i]
		slices.Sort(us)
		h := fnv.New64a()
		for _, v := range us {
			put(h, v)
		}
		up[i] = h.Sum64()
		uses[i] = nil
		for p, o := range x.Operands {
			h := fnv.New64a()
			put(h, labelHash[i])
			if !Commutative(x.Op) {
				put(h, uint64(p))
			}
			put(h, up[i])
			uses[pos[o]] = append(uses[pos[o]], h.Sum64())
		}
	}
	var changed []*Node
	for _, x := range f.Nodes {
		if !Commutative(x.Op) || len(x.Operands) < 2 {
			continue
		}
		sorted := slices.Clone(x.Operands)
		slices.SortStableFunc(sorted, func(a, b *Node) int {
			i, j := pos[a], pos[b]
			if c := strings.Compare(shallow[i], shallow[j]); c != 0 {
				return c
			}
			if c := cmpU64(deep[i], deep[j]); c != 0 {
				return c
			}
			return cmpU64(up[i], up[j])
		})
		if !slices.Equal(sorted, x.Operands) {
			x.Operands = sorted
			changed = append(changed, x)
		}
	}
	return changed
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// StructurallyEqual reports whether a and b compute the same expression
// the same way: the same number and types of parameters, and the graphs
// reachable from the returned nodes equal up to node IDs and names, with
// one node of b for each node of a (so sharing is the same) except
// literals, which compare by value however many copies there are.
// Operand order counts, except that the two operands of a commutative
// operation may also match exchanged: Canonicalize cannot order two
// operands that are equal expressions but different nodes, and which of
// them comes first matters only for sharing. (Canonicalize both first to
// compare up to the order of commutative operands in general.) A
// tuple_index of a tuple node stands for the element it selects, as
// Inline folds it. Nodes that do not reach the returned value are not
// compared.
func StructurallyEqual(a, b *Function) bool {
	if len(a.Params) != len(b.Params) {
		return false
	}
	e := &equality{fwd: map[*Node]*Node{}, rev: map[*Node]*Node{}}
	for i, p := range a.Params {
		if !p.Type.Equal(b.Params[i].Type) {
			return false
		}
		e.fwd[p], e.rev[b.Params[i]] = b.Params[i], p
	}
	return e.eq(a.Ret, b.Ret)
}

// equality is the node correspondence StructurallyEqual builds, with an
// undo log to retract the mappings of a failed attempt.
type equality struct {
	fwd, rev map[*Node]*Node
	log      []*Node // nodes of a mapped, in order
}

func (e *equality) undo(mark int) {
	for _, x := range e.log[mark:] {
		delete(e.rev, e.fwd[x])
		delete(e.fwd, x)
	}
	e.log = e.log[:mark]
}

func (e *equality) eq(x, y *Node) bool {
	if x == nil || y == nil {
		return x == y
	}
	x, y = through(x), through(y)
	if x.Op == "literal" || y.Op == "literal" {
		return x.Label() == y.Label()
	}
	if m, ok := e.fwd[x]; ok {
		return m == y
	}
	if _, ok := e.rev[y]; ok {
		return false
	}
	if x.Label() != y.Label() || len(x.Operands) != len(y.Operands) {
		return false
	}
	mark := len(e.log)
	e.fwd[x], e.rev[y] = y, x
	e.log = append(e.log, x)
	operands := func(swap bool) bool {
		for i, o := range x.Operands {
			j := i
			if swap {
				j = 1 - i
			}
			if !e.eq(o, y.Operands[j]) {
				return false
			}
		}
		return true
	}
	if operands(false) {
		return true
	}
	if Commutative(x.Op) && len(x.Operands) == 2 {
		e.undo(mark + 1)
		if operands(true) {
			return true
		}
	}
	e.undo(mark)
	return false
}

// through is n, or for a tuple_index of a tuple node, what the element it
// selects stands for.
func through(n *Node) *Node {
	for n.Op == "tuple_index" && len(n.Operands) == 1 && n.Operands[0].Op == "tuple" {
		e := element(n)
		if e == nil {
			break
		}
		n = e
	}
	return n
}
