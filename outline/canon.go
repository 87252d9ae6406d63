package outline

import (
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
// reordered. (Hashes are FNV-1a, computed inline; the shallow keys,
// compared only between the operands of commutative nodes, are built
// when first compared.)
func canonicalize(f *Function) []*Node {
	n := len(f.Nodes)
	for i, x := range f.Nodes {
		x.at = int32(i)
	}
	// Every operand is a node of f before its user (Check), so at is its
	// position; a malformed function's operands count as node 0.
	for i, x := range f.Nodes {
		for _, o := range x.Operands {
			if j := o.at; j < 0 || int(j) >= i || f.Nodes[j] != o {
				o.at = 0
			}
		}
	}
	pos := func(o *Node) int32 { return o.at }
	deep := make([]uint64, n)
	labelHash := make([]uint64, n)
	var buf []byte
	for i, x := range f.Nodes {
		buf = x.appendLabel(buf[:0])
		labelHash[i] = fnvBytes(fnvOffset, buf)
	}
	// Down: the expression hashes.
	var ds []uint64
	for i, x := range f.Nodes {
		h := fnvU64(fnvOffset, labelHash[i])
		if x.Op == "param" {
			h = fnvBytes(h, []byte(x.Name))
		}
		ds = ds[:0]
		for _, o := range x.Operands {
			ds = append(ds, deep[pos(o)])
		}
		if Commutative(x.Op) {
			slices.Sort(ds)
		}
		for _, d := range ds {
			h = fnvU64(h, d)
		}
		deep[i] = h
	}
	// Up: a hash of each node's uses, from the returned value down (a
	// node's users come after it, so walking backwards each node's uses
	// are all known when it is reached); a use by a commutative operation
	// does not depend on the operand position.
	// Node i's use hashes are uses[useOff[i]:useOff[i+1]], collected at
	// fill[i].
	useOff := make([]int32, n+1)
	for _, x := range f.Nodes {
		for _, o := range x.Operands {
			useOff[pos(o)+1]++
		}
	}
	ret := int32(-1)
	if f.Ret != nil {
		if r := pos(f.Ret); f.Nodes[r] == f.Ret {
			ret = r
			useOff[r+1]++
		}
	}
	for i := 1; i <= n; i++ {
		useOff[i] += useOff[i-1]
	}
	fill := slices.Clone(useOff[:n])
	uses := make([]uint64, useOff[n])
	if ret >= 0 {
		uses[fill[ret]] = 1
		fill[ret]++
	}
	up := make([]uint64, n)
	for i := n - 1; i >= 0; i-- {
		x := f.Nodes[i]
		us := uses[useOff[i]:useOff[i+1]]
		slices.Sort(us)
		h := uint64(fnvOffset)
		for _, v := range us {
			h = fnvU64(h, v)
		}
		up[i] = h
		comm := Commutative(x.Op)
		for p, o := range x.Operands {
			h := fnvU64(fnvOffset, labelHash[i])
			if !comm {
				h = fnvU64(h, uint64(p))
			}
			h = fnvU64(h, up[i])
			j := pos(o)
			uses[fill[j]] = h
			fill[j]++
		}
	}
	// The shallow keys of the operands of commutative nodes, before any
	// operands move.
	shallow := make([]string, n)
	var b []byte
	for _, x := range f.Nodes {
		if !Commutative(x.Op) || len(x.Operands) < 2 {
			continue
		}
		for _, o := range x.Operands {
			if i := pos(o); shallow[i] == "" {
				b = o.appendLabel(b[:0])
				b = append(b, '(')
				for j, oo := range o.Operands {
					if j > 0 {
						b = append(b, ',')
					}
					b = append(b, oo.Op...)
				}
				shallow[i] = string(append(b, ')'))
			}
		}
	}
	var changed []*Node
	var sorted []*Node
	for _, x := range f.Nodes {
		if !Commutative(x.Op) || len(x.Operands) < 2 {
			continue
		}
		sorted = append(sorted[:0], x.Operands...)
		slices.SortStableFunc(sorted, func(a, b *Node) int {
			i, j := pos(a), pos(b)
			if i == j {
				return 0
			}
			if c := strings.Compare(shallow[i], shallow[j]); c != 0 {
				return c
			}
			if c := cmpU64(deep[i], deep[j]); c != 0 {
				return c
			}
			return cmpU64(up[i], up[j])
		})
		if !slices.Equal(sorted, x.Operands) {
			copy(x.Operands, sorted)
			changed = append(changed, x)
		}
	}
	return changed
}

// FNV-1a, 64 bits.
const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnvBytes(h uint64, b []byte) uint64 {
	for _, c := range b {
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// fnvU64 hashes v's eight bytes, least significant first.
func fnvU64(h, v uint64) uint64 {
	for range 8 {
		h ^= v & 0xff
		h *= fnvPrime
		v >>= 8
	}
	return h
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
