package assoc

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Tables decoded as they are looked up.
//
// A `nestor assoc match` process looks up one or two keys (the roots of
// the update's elements) and, for synthesis, the entries without k, yet
// decoding and indexing a whole table cost it most of its time: the
// first touch of fresh memory. Where the small table of its type does
// not recognize an update, it falls through to the larger operators too
// (EmbeddedMore: int32's 6,910 6-leaf 1-tuples), which cost 20 to 35 ms
// decoded whole. So Recognize reads the shipped tables as layered tables
// (embeddedSmall, embeddedMore): packed tables (tablebin.go) whose
// chunks are decoded on the first lookup of their key, the small table a
// layer of both. A key's list is the layers' entries merged as
// SortEntries orders their concatenation (by the root of element 0 and
// leaves, an earlier layer's first where they tie), so a lookup gets the
// entries, in the order, of Embedded and EmbeddedAll, which decode
// whole; TestLayeredIsAll checks it, and that Recognize answers alike.

// tableLayers is a layered table: packed tables, in order.
type tableLayers struct {
	layers  []*packedLayer
	maxSize int
}

// packedLayer is a packed table whose chunks are decoded when looked up.
type packedLayer struct {
	p       *packed
	keys    []uint64 // per chunk, its rootKey
	maxSize int

	mu      sync.Mutex
	decoded [][]entryIndex // per chunk, nil until decoded
	pos     [][]int        // per chunk, its entries' positions
	err     error          // the first decoding error
}

func newPackedLayer(data []byte) (*packedLayer, error) {
	p, err := readPacked(data)
	if err != nil {
		return nil, err
	}
	l := &packedLayer{p: p, keys: make([]uint64, len(p.chunks)), decoded: make([][]entryIndex, len(p.chunks)), pos: make([][]int, len(p.chunks))}
	for i, c := range p.chunks {
		l.keys[i] = rootKey(c.roots)
		l.maxSize = max(l.maxSize, len(c.roots))
	}
	return l, nil
}

// chunk returns chunk i's entries, indexed, decoding them on first use;
// l.mu is held.
func (l *packedLayer) chunk(i int) ([]entryIndex, []int) {
	if l.decoded[i] != nil || l.err != nil {
		return l.decoded[i], l.pos[i]
	}
	c := &l.p.chunks[i]
	entries := make([]Entry, c.count)
	pos := make([]int, 0, c.count)
	err := l.p.decodeChunk(c, func(p int) *Entry {
		if len(pos) == c.count || len(pos) > 0 && p <= pos[len(pos)-1] {
			return nil
		}
		pos = append(pos, p)
		return &entries[len(pos)-1]
	})
	if err != nil {
		l.err = fmt.Errorf("assoc: larger operators of %v: %v", l.p.typ, strings.TrimPrefix(err.Error(), "assoc: "))
		return nil, nil
	}
	l.decoded[i], l.pos[i] = indexEntries(entries), pos
	return l.decoded[i], l.pos[i]
}

// lookup returns the entries of the chunks that want selects, in table
// order.
func (l *packedLayer) lookup(want func(i int) bool) []*entryIndex {
	l.mu.Lock()
	defer l.mu.Unlock()
	type at struct {
		pos int
		ei  *entryIndex
	}
	var list []at
	for i := range l.p.chunks {
		if !want(i) {
			continue
		}
		eis, pos := l.chunk(i)
		for j := range eis {
			list = append(list, at{pos[j], &eis[j]})
		}
	}
	slices.SortFunc(list, func(a, b at) int { return cmp.Compare(a.pos, b.pos) })
	out := make([]*entryIndex, len(list))
	for i, a := range list {
		out[i] = a.ei
	}
	return out
}

// layeredIndex is the index of a layered table: its lists are built per
// key on first use.
type layeredIndex struct {
	layers []*packedLayer

	mu    sync.Mutex
	lists map[uint64][]*entryIndex
	noK   []*entryIndex
	noKOK bool
}

// list returns the entries of key, as tableIndex.byKey would for the
// table that SortEntries makes of the layers' entries.
func (lx *layeredIndex) list(key uint64) []*entryIndex {
	lx.mu.Lock()
	defer lx.mu.Unlock()
	if l, ok := lx.lists[key]; ok {
		return l
	}
	var l []*entryIndex
	for _, layer := range lx.layers {
		l = mergeLayers(l, layer.lookup(func(i int) bool { return layer.keys[i] == key }))
	}
	if lx.lists == nil {
		lx.lists = map[uint64][]*entryIndex{}
	}
	lx.lists[key] = l
	return l
}

// withoutK returns the entries whose elements read no k, in the order
// of list (synthesis uses no entry with k).
func (lx *layeredIndex) withoutK() []*entryIndex {
	lx.mu.Lock()
	defer lx.mu.Unlock()
	if !lx.noKOK {
		for _, layer := range lx.layers {
			lx.noK = mergeLayers(lx.noK, layer.lookup(func(i int) bool { return !layer.p.chunks[i].usesK }))
		}
		lx.noKOK = true
	}
	return lx.noK
}

// mergeLayers merges two lists in table order as SortEntries orders the
// concatenation of their tables: by the root of element 0 and leaves,
// a's first where they tie.
func mergeLayers(a, b []*entryIndex) []*entryIndex {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]*entryIndex, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		ea, eb := a[0].entry, b[0].entry
		if cmp.Or(cmp.Compare(eb.Elems[0].Op, ea.Elems[0].Op), cmp.Compare(eb.Leaves, ea.Leaves)) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

var embeddedLayers struct {
	sync.Mutex
	tables [2]map[Type]*Table
	// packed holds the layers by file name: the small table is a layer
	// of both tables of its type, decoded once.
	packed map[string]*packedLayer
}

// embeddedLayer returns the shipped packed table name as a layer, nil
// when there is none; embeddedLayers is locked.
func embeddedLayer(name string) (*packedLayer, error) {
	if l, ok := embeddedLayers.packed[name]; ok {
		return l, nil
	}
	data, err := tableFiles.ReadFile(name)
	if err != nil {
		return nil, nil
	}
	l, err := newPackedLayer(data)
	if err != nil {
		return nil, fmt.Errorf("assoc/%s: %v", name, strings.TrimPrefix(err.Error(), "assoc: "))
	}
	if embeddedLayers.packed == nil {
		embeddedLayers.packed = map[string]*packedLayer{}
	}
	embeddedLayers.packed[name] = l
	return l, nil
}

// embeddedLayered returns the shipped table of t as a layered table
// (above), with its larger operators when more; only matching reads it
// (its Entries are nil). Loaded once and shared.
func embeddedLayered(t Type, more bool) (*Table, error) {
	embeddedLayers.Lock()
	defer embeddedLayers.Unlock()
	m := 0
	if more {
		m = 1
	}
	if tb, ok := embeddedLayers.tables[m][t]; ok {
		return tb, nil
	}
	if t >= numTypes {
		return nil, fmt.Errorf("assoc: no table for %v", t)
	}
	names := []string{"tables/" + t.String() + ".bin"}
	if more {
		names = append(names, "tables/"+t.String()+".more.bin")
	}
	tb := &Table{Type: t, layers: &tableLayers{}}
	for i, name := range names {
		layer, err := embeddedLayer(name)
		if err != nil {
			return nil, err
		}
		if layer == nil {
			if i == 0 {
				return nil, fmt.Errorf("assoc: no shipped table for %v", t)
			}
			continue
		}
		if layer.p.typ != t {
			return nil, fmt.Errorf("assoc/%s: table of %v, want %v", name, layer.p.typ, t)
		}
		if i == 0 {
			tb.Version, tb.Prover = layer.p.version, layer.p.prover
		}
		tb.Generators = append(tb.Generators, layer.p.gens...)
		tb.layers.layers = append(tb.layers.layers, layer)
		tb.layers.maxSize = max(tb.layers.maxSize, layer.maxSize)
	}
	if embeddedLayers.tables[m] == nil {
		embeddedLayers.tables[m] = map[Type]*Table{}
	}
	embeddedLayers.tables[m][t] = tb
	return tb, nil
}

// embeddedSmall and embeddedMore are Recognize's shipped tables: the
// small one of each type, and it with the larger operators.
func embeddedSmall(t Type) (*Table, error) { return embeddedLayered(t, false) }
func embeddedMore(t Type) (*Table, error)  { return embeddedLayered(t, true) }
