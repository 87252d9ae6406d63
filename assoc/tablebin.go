package assoc

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The packed table.
//
// The text tables (tables/<type>.txt) are what people read, review and
// regenerate; a process that matches an update needs their entries as
// trees at once, and parsing, typing and checking thousands of lines of
// notation cost most of a short `nestor assoc match`. So each text table
// is also packed (tables/<type>.bin, written by `go generate` from the
// text: internal/packtables) into a form that decodes without parsing.
// Its trees are one DAG: a subtree that several entries share (x + y, k,
// min(x, y)) is one node, so the int32 table's 19,500 tree nodes are
// 3,500, and a process touches that much less fresh memory, which is
// most of what loading costs where a page's first touch is dear (a
// virtual machine). Table trees are never modified (Embedded's callers
// must not), so the sharing is invisible. The decoder takes every node of
// a table from one slice and every operand list from another: a few
// allocations, not one per node. TestPackedTables fails when a packed
// table is not the packing of its text.
//
// Layout (varint: encoding/binary's unsigned varint):
//
//	magic "nestor-assoc-bin", a zero byte, the format version (varint)
//	type (byte), table version (varint)
//	strings: count, then each as length and bytes (index 0 is "")
//	generators: count, string indices; prover: string index
//	slots: the number of operand and root pointers (the decoder's slice)
//	nodes: count, then each: op (byte), type (byte), for x, y, k the
//	    index, for a constant the value, for a named value its string
//	    index, then the indices of its Op.Arity operands, all earlier nodes
//	entries: count, then each:
//	    flags (byte: 1 commutative, 2 wraps, 4 real only, 8 has identity,
//	    16 canonical: matching builds its patterns without Canon)
//	    leaves, elements, the elements' root nodes, the identity's root
//	    nodes when flag 8, proof and name string indices

const (
	packMagic   = "nestor-assoc-bin"
	packVersion = 1
)

const (
	packCommutative = 1 << iota
	packWraps
	packRealOnly
	packIdentity
	packCanonical // the operator is in canonical form (Canon leaves it)
)

// MarshalBinary packs t (the packed table format above).
func (t *Table) MarshalBinary() ([]byte, error) {
	w := &packWriter{index: map[string]uint64{"": 0}, strs: []string{""}, ids: map[string]uint64{}}
	var body []byte
	slots := 0
	for i := range t.Entries {
		en := &t.Entries[i]
		var flags byte
		for bit, on := range []bool{en.Commutative, en.Wraps, en.RealOnly, en.Identity != nil, isCanonical(en.Tuple)} {
			if on {
				flags |= 1 << bit
			}
		}
		if en.Identity != nil && len(en.Identity) != len(en.Elems) {
			return nil, fmt.Errorf("assoc: entry %v: identity of %d elements", en.Tuple, len(en.Identity))
		}
		slots += len(en.Elems) + len(en.Identity)
		body = append(body, flags)
		body = binary.AppendUvarint(body, uint64(en.Leaves))
		body = binary.AppendUvarint(body, uint64(len(en.Elems)))
		for _, e := range en.Elems {
			body = binary.AppendUvarint(body, w.node(e))
		}
		for _, e := range en.Identity {
			body = binary.AppendUvarint(body, w.node(e))
		}
		body = binary.AppendUvarint(body, w.str(en.Proof))
		body = binary.AppendUvarint(body, w.str(en.Name))
	}
	slots += w.slots
	gens := make([]uint64, len(t.Generators))
	for i, g := range t.Generators {
		gens[i] = w.str(g)
	}
	prover := w.str(t.Prover)

	out := append([]byte(packMagic), 0)
	out = binary.AppendUvarint(out, packVersion)
	out = append(out, byte(t.Type))
	out = binary.AppendUvarint(out, uint64(t.Version))
	out = binary.AppendUvarint(out, uint64(len(w.strs)))
	for _, s := range w.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(gens)))
	for _, g := range gens {
		out = binary.AppendUvarint(out, g)
	}
	out = binary.AppendUvarint(out, prover)
	out = binary.AppendUvarint(out, uint64(slots))
	out = binary.AppendUvarint(out, w.n)
	out = append(out, w.nodes...)
	out = binary.AppendUvarint(out, uint64(len(t.Entries)))
	return append(out, body...), nil
}

type packWriter struct {
	index map[string]uint64
	strs  []string
	// ids numbers the distinct subtrees by their encoding; nodes holds
	// the encodings in that order, slots counts their operands.
	ids   map[string]uint64
	nodes []byte
	n     uint64
	slots int
}

func (w *packWriter) str(s string) uint64 {
	if i, ok := w.index[s]; ok {
		return i
	}
	i := uint64(len(w.strs))
	w.index[s] = i
	w.strs = append(w.strs, s)
	return i
}

// node returns the number of e's node, adding it and its operands.
func (w *packWriter) node(e *Expr) uint64 {
	enc := []byte{byte(e.Op), byte(e.Type)}
	switch e.Op {
	case OpX, OpY, OpK:
		enc = binary.AppendUvarint(enc, uint64(e.Index))
	case OpConst:
		enc = binary.AppendUvarint(enc, uint64(e.Value))
	case OpVar:
		enc = binary.AppendUvarint(enc, w.str(e.Name))
	}
	for _, a := range e.Args {
		enc = binary.AppendUvarint(enc, w.node(a))
	}
	if id, ok := w.ids[string(enc)]; ok {
		return id
	}
	id := w.n
	w.n++
	w.ids[string(enc)] = id
	w.nodes = append(w.nodes, enc...)
	w.slots += len(e.Args)
	return id
}

// isCanonical reports whether Canon leaves every element of tp as it is.
func isCanonical(tp Tuple) bool {
	c := CanonTuple(tp)
	for i, e := range tp.Elems {
		if !c.Elems[i].Equal(e) {
			return false
		}
	}
	return true
}

// errPacked is the error of a malformed packed table.
var errPacked = errors.New("assoc: malformed packed table")

// packReader decodes a packed table; the first error sticks.
type packReader struct {
	data  []byte
	err   error
	strs  []string
	nodes []Expr
	slots []*Expr
}

func (r *packReader) byte() byte {
	if r.err != nil || len(r.data) == 0 {
		r.err = errPacked
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

func (r *packReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.err = errPacked
		return 0
	}
	r.data = r.data[n:]
	return v
}

// count reads a count that may size a slice: no more than the bytes left
// could hold.
func (r *packReader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.data)) {
		r.err = errPacked
		return 0
	}
	return int(v)
}

func (r *packReader) str() string {
	i := r.uvarint()
	if i >= uint64(len(r.strs)) {
		r.err = errPacked
		return ""
	}
	return r.strs[i]
}

// take returns the next n slots.
func (r *packReader) take(n int) []*Expr {
	if r.err != nil || len(r.slots) < n {
		r.err = errPacked
		return nil
	}
	s := r.slots[:n:n]
	r.slots = r.slots[n:]
	return s
}

// ref reads the index of a node decoded already (below n).
func (r *packReader) ref(n int) *Expr {
	i := r.uvarint()
	if r.err != nil || i >= uint64(n) {
		r.err = errPacked
		return nil
	}
	return &r.nodes[i]
}

// decodeNodes reads the node list, checking what the text loader's
// parser would: known operations and types, operands decoded before.
func (r *packReader) decodeNodes() {
	r.nodes = make([]Expr, r.count())
	for i := range r.nodes {
		e := &r.nodes[i]
		op, typ := Op(r.byte()), Type(r.byte())
		if r.err != nil || op >= numOps || typ >= numTypes {
			r.err = errPacked
			return
		}
		e.Op, e.Type = op, typ
		switch op {
		case OpX, OpY, OpK:
			j := r.uvarint()
			if j > maxElems {
				r.err = errPacked
			}
			e.Index = int(j)
		case OpConst:
			e.Value = Value(r.uvarint())
		case OpVar:
			e.Name = r.str()
		}
		if n := op.Arity(); n > 0 {
			e.Args = r.take(n)
			for j := range e.Args {
				e.Args[j] = r.ref(i)
			}
		}
		if r.err != nil {
			return
		}
	}
}

// UnmarshalBinary decodes a packed table into t.
func (t *Table) UnmarshalBinary(data []byte) error {
	r := &packReader{data: data}
	if len(data) < len(packMagic)+1 || string(data[:len(packMagic)]) != packMagic || data[len(packMagic)] != 0 {
		return fmt.Errorf("assoc: not a packed table (want %q first)", packMagic)
	}
	r.data = data[len(packMagic)+1:]
	if v := r.uvarint(); r.err == nil && v != packVersion {
		return fmt.Errorf("assoc: packed table format v%d, this nestor reads v%d (go generate ./assoc)", v, packVersion)
	}
	typ := Type(r.byte())
	version := int(r.uvarint())
	if r.err == nil && typ >= numTypes {
		return errPacked
	}
	r.strs = make([]string, r.count())
	for i := range r.strs {
		n := r.count()
		if r.err != nil {
			return r.err
		}
		r.strs[i] = string(r.data[:n])
		r.data = r.data[n:]
	}
	gens := make([]string, r.count())
	for i := range gens {
		gens[i] = r.str()
	}
	prover := r.str()
	r.slots = make([]*Expr, r.count())
	r.decodeNodes()
	entries := make([]Entry, r.count())
	for i := range entries {
		en := &entries[i]
		flags := r.byte()
		en.Commutative = flags&packCommutative != 0
		en.Wraps = flags&packWraps != 0
		en.RealOnly = flags&packRealOnly != 0
		en.canonical = flags&packCanonical != 0
		en.Leaves = int(r.uvarint())
		n := r.count()
		if r.err != nil || n == 0 || n > maxElems {
			return errPacked
		}
		m := n // the elements and the identity share their slots
		if flags&packIdentity != 0 {
			m = 2 * n
		}
		roots := r.take(m)
		for j := range roots {
			roots[j] = r.ref(len(r.nodes))
		}
		if r.err != nil {
			return r.err
		}
		en.Elems = roots[:n:n]
		if m > n {
			en.Identity = roots[n:]
		}
		en.Proof = r.str()
		en.Name = r.str()
	}
	if r.err != nil {
		return r.err
	}
	if len(r.data) != 0 || len(r.slots) != 0 {
		return errPacked
	}
	*t = Table{Type: typ, Version: version, Entries: entries, Generators: gens, Prover: prover}
	return nil
}
