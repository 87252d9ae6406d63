package assoc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The packed table.
//
// The text tables (tables/<type>.txt) are what people read, review and
// regenerate; a process that matches an update needs their entries as
// trees at once, and parsing, typing and checking thousands of lines of
// notation cost most of a short `nestor assoc match`. So each text table
// is also packed (tables/<type>.bin, written by `go generate` from the
// text: internal/packtables) into a form that decodes without parsing.
// Its trees are DAGs: a subtree that several entries of a chunk (below)
// share (x + y, k, min(x, y)) is one node, so the int32 table's 19,500
// tree nodes are 4,900 in its 48 chunks, and a process touches that much
// less fresh memory, which is most of what loading costs where a page's
// first touch is dear (a virtual machine). Table trees are never
// modified (Embedded's callers must not), so the sharing is invisible.
// The decoder takes every node of a chunk from one slice and every
// operand list from another: a few allocations, not one per node.
// TestPackedTables fails when a packed table is not the packing of its
// text.
//
// The entries are packed in chunks: those whose elements have one
// multiset of roots (the key matching looks entries up by) and that do
// or do not read k each form one chunk, with its own DAG of nodes, so
// that a process decodes only the chunks it looks up (tablelazy.go): a
// common update one root's entries of the small table, and one that
// falls through to the larger operators (EmbeddedMore, 6,910 int32
// entries in 18 chunks) one root's of those; synthesis reads only the
// entries without k.
//
// Layout (varint: encoding/binary's unsigned varint):
//
//	magic "nestor-assoc-bin", a zero byte, the format version (varint)
//	type (byte), table version (varint)
//	strings: count, then each as length and bytes (index 0 is "")
//	generators: count, string indices; prover: string index
//	entries: count
//	chunks: count, then each: elements n, the n root ops of its
//	    entries' elements in increasing order (bytes), whether they read
//	    k (byte), entries, the length of its body in bytes
//	the chunks' bodies, in order, each:
//	    slots: the number of operand and root pointers (the decoder's slice)
//	    nodes: count, then each: op (byte), type (byte), for x, y, k the
//	        index, for a constant the value, for a named value its string
//	        index, then the indices of its Op.Arity operands, all earlier
//	        nodes of the chunk
//	    its entries, each: its position in the table (varint)
//	        flags (byte: 1 commutative, 2 wraps, 4 real only, 8 has identity,
//	        16 canonical: matching builds its patterns without Canon)
//	        leaves, the n elements' root nodes, the identity's root
//	        nodes when flag 8, proof and name string indices

const (
	packMagic   = "nestor-assoc-bin"
	packVersion = 2
)

const (
	packCommutative = 1 << iota
	packWraps
	packRealOnly
	packIdentity
	packCanonical // the operator is in canonical form (Canon leaves it)
)

// chunkKey is what a chunk's entries share: their elements' roots, in
// increasing order, and whether they read k.
type chunkKey struct {
	roots string // one byte per element
	usesK bool
}

// keyOfEntry returns en's chunk key.
func keyOfEntry(en *Entry) chunkKey {
	roots := make([]byte, len(en.Elems))
	usesK := false
	for i, e := range en.Elems {
		roots[i] = byte(e.Op)
		usesK = usesK || e.Uses(OpK)
	}
	slices.Sort(roots)
	return chunkKey{string(roots), usesK}
}

// MarshalBinary packs t (the packed table format above).
func (t *Table) MarshalBinary() ([]byte, error) {
	strs := &packStrings{index: map[string]uint64{"": 0}, strs: []string{""}}
	var keys []chunkKey
	chunks := map[chunkKey][]int{}
	for i := range t.Entries {
		en := &t.Entries[i]
		if len(en.Elems) == 0 || len(en.Elems) > maxElems {
			return nil, fmt.Errorf("assoc: entry %v: %d elements", en.Tuple, len(en.Elems))
		}
		if en.Identity != nil && len(en.Identity) != len(en.Elems) {
			return nil, fmt.Errorf("assoc: entry %v: identity of %d elements", en.Tuple, len(en.Identity))
		}
		k := keyOfEntry(en)
		if _, ok := chunks[k]; !ok {
			keys = append(keys, k)
		}
		chunks[k] = append(chunks[k], i)
	}
	bodies := make([][]byte, len(keys))
	for c, k := range keys {
		w := &packWriter{strs: strs, ids: map[string]uint64{}}
		var body []byte
		slots := 0
		for _, i := range chunks[k] {
			en := &t.Entries[i]
			var flags byte
			for bit, on := range []bool{en.Commutative, en.Wraps, en.RealOnly, en.Identity != nil, isCanonical(en.Tuple)} {
				if on {
					flags |= 1 << bit
				}
			}
			slots += len(en.Elems) + len(en.Identity)
			body = binary.AppendUvarint(body, uint64(i))
			body = append(body, flags)
			body = binary.AppendUvarint(body, uint64(en.Leaves))
			for _, e := range en.Elems {
				body = binary.AppendUvarint(body, w.node(e))
			}
			for _, e := range en.Identity {
				body = binary.AppendUvarint(body, w.node(e))
			}
			body = binary.AppendUvarint(body, strs.str(en.Proof))
			body = binary.AppendUvarint(body, strs.str(en.Name))
		}
		head := binary.AppendUvarint(nil, uint64(slots+w.slots))
		head = binary.AppendUvarint(head, w.n)
		head = append(head, w.nodes...)
		bodies[c] = append(head, body...)
	}
	gens := make([]uint64, len(t.Generators))
	for i, g := range t.Generators {
		gens[i] = strs.str(g)
	}
	prover := strs.str(t.Prover)

	out := append([]byte(packMagic), 0)
	out = binary.AppendUvarint(out, packVersion)
	out = append(out, byte(t.Type))
	out = binary.AppendUvarint(out, uint64(t.Version))
	out = binary.AppendUvarint(out, uint64(len(strs.strs)))
	for _, s := range strs.strs {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = binary.AppendUvarint(out, uint64(len(gens)))
	for _, g := range gens {
		out = binary.AppendUvarint(out, g)
	}
	out = binary.AppendUvarint(out, prover)
	out = binary.AppendUvarint(out, uint64(len(t.Entries)))
	out = binary.AppendUvarint(out, uint64(len(keys)))
	for c, k := range keys {
		out = binary.AppendUvarint(out, uint64(len(k.roots)))
		out = append(out, k.roots...)
		usesK := byte(0)
		if k.usesK {
			usesK = 1
		}
		out = append(out, usesK)
		out = binary.AppendUvarint(out, uint64(len(chunks[k])))
		out = binary.AppendUvarint(out, uint64(len(bodies[c])))
	}
	for _, b := range bodies {
		out = append(out, b...)
	}
	return out, nil
}

// packStrings numbers the strings of a packed table.
type packStrings struct {
	index map[string]uint64
	strs  []string
}

func (w *packStrings) str(s string) uint64 {
	if i, ok := w.index[s]; ok {
		return i
	}
	i := uint64(len(w.strs))
	w.index[s] = i
	w.strs = append(w.strs, s)
	return i
}

// packWriter writes the nodes of one chunk.
type packWriter struct {
	strs *packStrings
	// ids numbers the distinct subtrees by their encoding; nodes holds
	// the encodings in that order, slots counts their operands.
	ids   map[string]uint64
	nodes []byte
	n     uint64
	slots int
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
		enc = binary.AppendUvarint(enc, w.strs.str(e.Name))
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

// packed is a packed table read up to its chunks' bodies.
type packed struct {
	typ     Type
	version int
	strs    []string
	gens    []string
	prover  string
	entries int // in the whole table
	chunks  []packedChunk
}

// packedChunk is one chunk of a packed table, not decoded.
type packedChunk struct {
	roots []Op // its entries' elements' roots, in increasing order
	usesK bool
	count int // entries
	body  []byte
}

// readPacked reads data's header and chunk list, checking that the
// chunks' bodies make up the rest of data.
func readPacked(data []byte) (*packed, error) {
	if len(data) < len(packMagic)+1 || string(data[:len(packMagic)]) != packMagic || data[len(packMagic)] != 0 {
		return nil, fmt.Errorf("assoc: not a packed table (want %q first)", packMagic)
	}
	r := &packReader{data: data[len(packMagic)+1:]}
	if v := r.uvarint(); r.err == nil && v != packVersion {
		return nil, fmt.Errorf("assoc: packed table format v%d, this nestor reads v%d (go generate ./assoc)", v, packVersion)
	}
	p := &packed{typ: Type(r.byte()), version: int(r.uvarint())}
	if r.err == nil && p.typ >= numTypes {
		return nil, errPacked
	}
	r.strs = make([]string, r.count())
	for i := range r.strs {
		n := r.count()
		if r.err != nil {
			return nil, r.err
		}
		r.strs[i] = string(r.data[:n])
		r.data = r.data[n:]
	}
	p.strs = r.strs
	p.gens = make([]string, r.count())
	for i := range p.gens {
		p.gens[i] = r.str()
	}
	p.prover = r.str()
	p.entries = r.count()
	p.chunks = make([]packedChunk, r.count())
	lengths := make([]int, len(p.chunks))
	entries := 0
	for i := range p.chunks {
		c := &p.chunks[i]
		n := r.count()
		if r.err != nil || n == 0 || n > maxElems || n > len(r.data) {
			return nil, errPacked
		}
		c.roots = make([]Op, n)
		for j := range c.roots {
			c.roots[j] = Op(r.data[j])
			if c.roots[j] >= numOps || j > 0 && c.roots[j] < c.roots[j-1] {
				return nil, errPacked
			}
		}
		r.data = r.data[n:]
		switch r.byte() {
		case 0:
		case 1:
			c.usesK = true
		default:
			return nil, errPacked
		}
		c.count = r.count()
		lengths[i] = r.count()
		entries += c.count
	}
	if r.err != nil {
		return nil, r.err
	}
	if entries != p.entries {
		return nil, errPacked
	}
	for i := range p.chunks {
		if lengths[i] > len(r.data) {
			return nil, errPacked
		}
		p.chunks[i].body = r.data[:lengths[i]:lengths[i]]
		r.data = r.data[lengths[i]:]
	}
	if len(r.data) != 0 {
		return nil, errPacked
	}
	return p, nil
}

// decodeChunk decodes chunk c's entries: place returns where to decode
// the entry at a position of the table (nil: a position out of range or
// taken, which is an error).
func (p *packed) decodeChunk(c *packedChunk, place func(pos int) *Entry) error {
	r := &packReader{data: c.body, strs: p.strs}
	r.slots = make([]*Expr, r.count())
	r.decodeNodes()
	n := len(c.roots)
	var roots [maxElems]Op
	for range c.count {
		pos := r.uvarint()
		if r.err != nil || pos >= uint64(p.entries) {
			return errPacked
		}
		en := place(int(pos))
		if en == nil {
			return errPacked
		}
		flags := r.byte()
		en.Commutative = flags&packCommutative != 0
		en.Wraps = flags&packWraps != 0
		en.RealOnly = flags&packRealOnly != 0
		en.canonical = flags&packCanonical != 0
		en.Leaves = int(r.uvarint())
		m := n // the elements and the identity share their slots
		if flags&packIdentity != 0 {
			m = 2 * n
		}
		elems := r.take(m)
		usesK := false
		for j := range elems {
			elems[j] = r.ref(len(r.nodes))
			if r.err != nil {
				return r.err
			}
			if j < n {
				roots[j] = elems[j].Op
				usesK = usesK || elems[j].Uses(OpK)
			}
		}
		slices.Sort(roots[:n])
		if usesK != c.usesK || !slices.Equal(roots[:n], c.roots) {
			return errPacked
		}
		en.Elems = elems[:n:n]
		if m > n {
			en.Identity = elems[n:]
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
	return nil
}

// UnmarshalBinary decodes a packed table into t.
func (t *Table) UnmarshalBinary(data []byte) error {
	p, err := readPacked(data)
	if err != nil {
		return err
	}
	entries := make([]Entry, p.entries)
	placed := make([]bool, p.entries)
	place := func(pos int) *Entry {
		if placed[pos] {
			return nil
		}
		placed[pos] = true
		return &entries[pos]
	}
	for i := range p.chunks {
		if err := p.decodeChunk(&p.chunks[i], place); err != nil {
			return err
		}
	}
	*t = Table{Type: p.typ, Version: p.version, Entries: entries, Generators: p.gens, Prover: p.prover}
	return nil
}
