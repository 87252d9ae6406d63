package xls

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"nestor/outline"
)

// Limits on what the reader and Check accept, so that a short input
// cannot ask for an unbounded amount of memory or recursion.
const (
	// maxTypeSize bounds the size of a type: one per bits, tuple or array
	// (per element) plus one per 64 bits of width; about 4 Mbit in all.
	maxTypeSize = 1 << 16
	// maxTypeDepth bounds the nesting of tuple and array types and values.
	maxTypeDepth = 64
)

// Check verifies that p is a well-formed package of the supported subset,
// with XLS's typing rules: in every function, parameters come first in
// Nodes and in Params order, every operand is defined earlier in the same
// function, every node's operation, operand count, attributes and type
// agree as XLS's verifier requires, Ret is a node of the function, every
// invoked function exists in p, no function calls itself (directly or
// not), function names are distinct and p.Top, when set, names a function.
// Check does not require IDs or node names to be unique (Write gives
// fresh ones). It returns the first problem found.
func Check(p *outline.Package) error {
	if p == nil {
		return fmt.Errorf("xls: nil package")
	}
	names := make(map[string]bool, len(p.Funcs))
	for i, f := range p.Funcs {
		if f == nil {
			return fmt.Errorf("xls: package %s: function %d is nil", p.Name, i)
		}
		if names[f.Name] {
			return fmt.Errorf("xls: package %s: function %s defined twice", p.Name, f.Name)
		}
		names[f.Name] = true
	}
	if p.Top != "" && !names[p.Top] {
		return fmt.Errorf("xls: package %s: top function %s is not defined", p.Name, p.Top)
	}
	for _, f := range p.Funcs {
		if err := checkFunc(f, p.Func); err != nil {
			return err
		}
	}
	return checkCalls(p)
}

// checkFunc checks one function; lookup finds the functions it invokes.
func checkFunc(f *outline.Function, lookup func(string) *outline.Function) error {
	if f == nil {
		return fmt.Errorf("xls: nil function")
	}
	if len(f.Nodes) < len(f.Params) {
		return fmt.Errorf("xls: function %s: fewer nodes than parameters", f.Name)
	}
	seen := make(map[*outline.Node]bool, len(f.Nodes))
	for i, n := range f.Nodes {
		if n == nil {
			return fmt.Errorf("xls: function %s: node %d is nil", f.Name, i)
		}
		if seen[n] {
			return fmt.Errorf("xls: function %s: node %s listed twice", f.Name, n.RefName())
		}
		if err := checkType(n.Type); err != nil {
			return fmt.Errorf("xls: function %s: node %s: %v", f.Name, n.RefName(), err)
		}
		if i < len(f.Params) {
			if f.Params[i] != n || n.Op != "param" {
				return fmt.Errorf("xls: function %s: node %s: parameters must come first in Nodes, in Params order", f.Name, n.RefName())
			}
			if len(n.Operands) != 0 || len(n.Attrs) != 0 {
				return fmt.Errorf("xls: function %s: parameter %s has operands or attributes", f.Name, n.RefName())
			}
			seen[n] = true
			continue
		}
		if n.Op == "param" {
			return fmt.Errorf("xls: function %s: node %s: a param that is not in Params", f.Name, n.RefName())
		}
		for j, o := range n.Operands {
			if o == nil || !seen[o] {
				return fmt.Errorf("xls: function %s: node %s: operand %d is not defined before it in the function", f.Name, n.RefName(), j)
			}
		}
		if err := checkNode(n, lookup); err != nil {
			return fmt.Errorf("xls: function %s: node %s: %v", f.Name, n.RefName(), err)
		}
		seen[n] = true
	}
	if f.Ret == nil || !seen[f.Ret] {
		return fmt.Errorf("xls: function %s: return value is not a node of the function", f.Name)
	}
	return nil
}

// checkCalls reports an error if some function of p calls itself.
func checkCalls(p *outline.Package) error {
	const (
		unvisited = iota
		active
		done
	)
	state := make(map[*outline.Function]int, len(p.Funcs))
	var visit func(f *outline.Function) error
	visit = func(f *outline.Function) error {
		switch state[f] {
		case active:
			return fmt.Errorf("xls: package %s: function %s calls itself", p.Name, f.Name)
		case done:
			return nil
		}
		state[f] = active
		for _, n := range f.Nodes {
			for _, name := range callees(n) {
				if err := visit(p.Func(name)); err != nil {
					return err
				}
			}
		}
		state[f] = done
		return nil
	}
	for _, f := range p.Funcs {
		if err := visit(f); err != nil {
			return err
		}
	}
	return nil
}

// checkType reports whether t is a well-formed type within the limits.
func checkType(t outline.Type) error {
	_, err := typeSize(t, 0)
	return err
}

func typeSize(t outline.Type, depth int) (int, error) {
	if depth > maxTypeDepth {
		return 0, fmt.Errorf("type nested more than %d deep", maxTypeDepth)
	}
	size := 1
	switch t.Kind {
	case outline.Bits:
		if t.Width < 0 || len(t.Elems) != 0 || t.Len != 0 {
			return 0, fmt.Errorf("malformed bits type")
		}
		if t.Width/64 >= maxTypeSize {
			return 0, fmt.Errorf("type too large (bits[%d])", t.Width)
		}
		size += t.Width / 64
	case outline.Tuple:
		if t.Width != 0 || t.Len != 0 {
			return 0, fmt.Errorf("malformed tuple type")
		}
		for _, e := range t.Elems {
			n, err := typeSize(e, depth+1)
			if err != nil {
				return 0, err
			}
			size += n
			if size > maxTypeSize {
				break
			}
		}
	case outline.Array:
		if t.Width != 0 || len(t.Elems) != 1 || t.Len < 0 {
			return 0, fmt.Errorf("malformed array type")
		}
		n, err := typeSize(t.Elems[0], depth+1)
		if err != nil {
			return 0, err
		}
		if t.Len > maxTypeSize || n > maxTypeSize {
			return 0, fmt.Errorf("type too large")
		}
		size += t.Len * n
	case outline.Token:
		if t.Width != 0 || len(t.Elems) != 0 || t.Len != 0 {
			return 0, fmt.Errorf("malformed token type")
		}
	default:
		return 0, fmt.Errorf("unknown type kind %d", t.Kind)
	}
	if size > maxTypeSize {
		return 0, fmt.Errorf("type too large")
	}
	return size, nil
}

// typeString writes t, or a placeholder when t is malformed.
func typeString(t outline.Type) string {
	if checkType(t) != nil {
		return "<malformed type>"
	}
	return t.String()
}

// intAttr returns the value of a non-negative integer attribute of n.
func intAttr(n *outline.Node, key string) (int, error) {
	s, ok := n.Attr(key)
	if !ok {
		return 0, fmt.Errorf("%s has no %s attribute", n.Op, key)
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%s attribute %s=%q is not a non-negative integer", n.Op, key, s)
	}
	return v, nil
}

// boolAttr returns the value of a boolean attribute of n, false if absent.
func boolAttr(n *outline.Node, key string) (bool, error) {
	s, ok := n.Attr(key)
	switch {
	case !ok || s == "false":
		return false, nil
	case s == "true":
		return true, nil
	}
	return false, fmt.Errorf("%s attribute %s=%q is not true or false", n.Op, key, s)
}

// ceilLog2 returns the least k with 2^k >= n (0 for n <= 1).
func ceilLog2(n int) int {
	k := 0
	for k < 63 && 1<<k < n {
		k++
	}
	return k
}

// pow2AtLeast reports whether 2^w >= n (for n >= 0).
func pow2AtLeast(w, n int) bool { return w >= 62 || 1<<w >= n }

// A selLayout says how the operands of a sel, one_hot_sel or priority_sel
// node are laid out after the selector.
type selLayout struct {
	cases      int
	hasDefault bool
}

// layoutOf finds the layout of a select node from its operand count and
// the width of its selector. For sel, when the cases and default number
// exactly 2^w, all of them are taken as cases (a default that only the
// last selector value reaches is a case of its own).
func layoutOf(op string, nops, selWidth int) (selLayout, error) {
	k := nops - 1
	if k < 1 {
		return selLayout{}, fmt.Errorf("%s has no cases", op)
	}
	switch op {
	case "sel":
		if !pow2AtLeast(selWidth, k) {
			return selLayout{}, fmt.Errorf("sel has %d cases and default for a %d-bit selector", k, selWidth)
		}
		if selWidth < 62 && 1<<selWidth == k {
			return selLayout{cases: k}, nil
		}
		if k < 2 {
			return selLayout{}, fmt.Errorf("sel with %d case needs a default for a %d-bit selector", k, selWidth)
		}
		return selLayout{cases: k - 1, hasDefault: true}, nil
	case "one_hot_sel":
		if selWidth != k {
			return selLayout{}, fmt.Errorf("one_hot_sel has %d cases for a %d-bit selector", k, selWidth)
		}
		return selLayout{cases: k}, nil
	case "priority_sel":
		switch {
		case selWidth >= 1 && k == selWidth:
			return selLayout{cases: k}, nil
		case selWidth >= 1 && k == selWidth+1:
			return selLayout{cases: k - 1, hasDefault: true}, nil
		}
		return selLayout{}, fmt.Errorf("priority_sel has %d operands after a %d-bit selector, want %d cases and an optional default", k, selWidth, selWidth)
	}
	return selLayout{}, fmt.Errorf("%s is not a select", op)
}

// checkNode verifies n's operation, operand count, attributes and type
// against XLS's rules; its operands' types must already be well formed.
// lookup finds invoked functions. What every operation shares (known
// attributes, none twice, the required ones present, a fixed operand
// count) is checked here; the rest is the operation's type rule
// (opInfo.check).
func checkNode(n *outline.Node, lookup func(string) *outline.Function) error {
	info, ok := ops[n.Op]
	if !ok || info.check == nil {
		return fmt.Errorf("unsupported operation %q", n.Op)
	}
	for i, a := range n.Attrs {
		if !attrKeys[a.Key] || !info.takes(a.Key) {
			return fmt.Errorf("%s has no attribute %s", n.Op, a.Key)
		}
		for _, b := range n.Attrs[:i] {
			if b.Key == a.Key {
				return fmt.Errorf("attribute %s given twice", a.Key)
			}
		}
	}
	for _, k := range info.keys {
		if _, ok := n.Attr(k); attrKeys[k] && !ok && !info.isOptional(k) {
			return fmt.Errorf("%s needs attribute %s", n.Op, k)
		}
	}
	if info.operands != variadic && !info.takes("cases") && !info.hasList() && len(n.Operands) != info.operands {
		return fmt.Errorf("%s has %d operands, want %d", n.Op, len(n.Operands), info.operands)
	}
	return info.check(checker{n: n, lookup: lookup})
}

// A checker checks one node against its operation's type rule; its
// methods report the first problem. The rules are methods named for what
// they check, and opTable names each operation's.
type checker struct {
	n      *outline.Node
	lookup func(string) *outline.Function // finds invoked functions
}

func (c checker) operand(i int) outline.Type { return c.n.Operands[i].Type }

// bits reports an error unless operand i is a bits value; it returns the width.
func (c checker) bits(i int) (int, error) {
	t := c.operand(i)
	if t.Kind != outline.Bits {
		return 0, fmt.Errorf("%s operand %d has type %s, want bits", c.n.Op, i, t)
	}
	return t.Width, nil
}

// result reports an error unless n's type is want.
func (c checker) result(want outline.Type) error {
	if !c.n.Type.Equal(want) {
		return fmt.Errorf("%s has type %s, want %s", c.n.Op, c.n.Type, want)
	}
	return nil
}

// bitsResult reports an error unless n's type is a bits type.
func (c checker) bitsResult() error {
	if c.n.Type.Kind != outline.Bits {
		return fmt.Errorf("%s has type %s, want bits", c.n.Op, c.n.Type)
	}
	return nil
}

// same reports an error unless operand i has type want.
func (c checker) same(i int, want outline.Type) error {
	if !c.operand(i).Equal(want) {
		return fmt.Errorf("%s operand %d has type %s, want %s", c.n.Op, i, c.operand(i), want)
	}
	return nil
}

// allSame reports an error unless every operand from first on has type want.
func (c checker) allSame(first int, want outline.Type) error {
	for i := first; i < len(c.n.Operands); i++ {
		if err := c.same(i, want); err != nil {
			return err
		}
	}
	return nil
}

func (c checker) count(want int) error {
	if len(c.n.Operands) != want {
		return fmt.Errorf("%s has %d operands, want %d", c.n.Op, len(c.n.Operands), want)
	}
	return nil
}

// sameBits: bits[N] operands, all of the result's type bits[N] (add, sub,
// neg, not, reverse, the divisions and moduli).
func (c checker) sameBits() error {
	if err := c.allSame(0, c.n.Type); err != nil {
		return err
	}
	return c.bitsResult()
}

// nary: sameBits with at least one operand (and, or, xor, nand, nor).
func (c checker) nary() error {
	if len(c.n.Operands) == 0 {
		return fmt.Errorf("%s has no operands", c.n.Op)
	}
	return c.sameBits()
}

// identity: the operand has the result's type, whatever it is.
func (c checker) identity() error { return c.same(0, c.n.Type) }

// reduce: bits[N] -> bits[1].
func (c checker) reduce() error {
	if _, err := c.bits(0); err != nil {
		return err
	}
	return c.result(outline.BitsType(1))
}

// mul: bits operands and result of any widths.
func (c checker) mul() error {
	for i := range 2 {
		if _, err := c.bits(i); err != nil {
			return err
		}
	}
	return c.bitsResult()
}

// mulp: bits operands of any widths, a result (bits[N], bits[N]).
func (c checker) mulp() error {
	for i := range 2 {
		if _, err := c.bits(i); err != nil {
			return err
		}
	}
	if t := c.n.Type; t.Kind != outline.Tuple || len(t.Elems) != 2 || t.Elems[0].Kind != outline.Bits || !t.Elems[0].Equal(t.Elems[1]) {
		return fmt.Errorf("%s has type %s, want a tuple of two equal bits types", c.n.Op, t)
	}
	return nil
}

// shift: bits[N] shifted by bits of any width gives bits[N].
func (c checker) shift() error {
	if err := c.same(0, c.n.Type); err != nil {
		return err
	}
	if err := c.bitsResult(); err != nil {
		return err
	}
	_, err := c.bits(1)
	return err
}

// equality: two operands of one type, of any kind -> bits[1].
func (c checker) equality() error {
	if err := c.same(1, c.operand(0)); err != nil {
		return err
	}
	return c.result(outline.BitsType(1))
}

// compare: two bits[N] -> bits[1].
func (c checker) compare() error {
	if _, err := c.bits(0); err != nil {
		return err
	}
	return c.equality()
}

// concat: bits of widths N1, N2, ... -> bits[N1+N2+...].
func (c checker) concat() error {
	sum := 0
	for i := range c.n.Operands {
		w, err := c.bits(i)
		if err != nil {
			return err
		}
		sum += w
	}
	return c.result(outline.BitsType(sum))
}

// bitSlice: bits[N] -> bits[width], start+width <= N.
func (c checker) bitSlice() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	start, err := intAttr(c.n, "start")
	if err != nil {
		return err
	}
	width, err := intAttr(c.n, "width")
	if err != nil {
		return err
	}
	if start > w || width > w-start {
		return fmt.Errorf("bit_slice start=%d width=%d of a %d-bit operand", start, width, w)
	}
	return c.result(outline.BitsType(width))
}

// dynamicBitSlice: bits[N], a bits start -> bits[width], width <= N.
func (c checker) dynamicBitSlice() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	if _, err := c.bits(1); err != nil {
		return err
	}
	width, err := intAttr(c.n, "width")
	if err != nil {
		return err
	}
	if width > w {
		return fmt.Errorf("dynamic_bit_slice width=%d of a %d-bit operand", width, w)
	}
	return c.result(outline.BitsType(width))
}

// bitSliceUpdate: bits[N], a bits start, bits update -> bits[N].
func (c checker) bitSliceUpdate() error {
	for i := range 3 {
		if _, err := c.bits(i); err != nil {
			return err
		}
	}
	return c.result(c.operand(0))
}

// extend: bits[N] -> bits[new_bit_count], new_bit_count >= N.
func (c checker) extend() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	nbc, err := intAttr(c.n, "new_bit_count")
	if err != nil {
		return err
	}
	if nbc < w {
		return fmt.Errorf("%s new_bit_count=%d is less than the operand's %d bits", c.n.Op, nbc, w)
	}
	return c.result(outline.BitsType(nbc))
}

// encode: bits[N] -> bits[ceil(log2 N)].
func (c checker) encode() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	return c.result(outline.BitsType(ceilLog2(w)))
}

// decode: bits[N] -> bits[width], width <= 2^N.
func (c checker) decode() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	width, err := intAttr(c.n, "width")
	if err != nil {
		return err
	}
	if !pow2AtLeast(w, width) {
		return fmt.Errorf("decode width=%d is more than 2^%d", width, w)
	}
	return c.result(outline.BitsType(width))
}

// oneHot: bits[N] -> bits[N+1], lsb_prio a boolean.
func (c checker) oneHot() error {
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	if _, ok := c.n.Attr("lsb_prio"); ok {
		if _, err := boolAttr(c.n, "lsb_prio"); err != nil {
			return err
		}
	}
	return c.result(outline.BitsType(w + 1))
}

// selector: a bits selector, then cases and default laid out as layoutOf
// says, all of the result's type (sel, one_hot_sel, priority_sel).
func (c checker) selector() error {
	n := c.n
	if len(n.Operands) == 0 {
		return fmt.Errorf("%s has no selector", n.Op)
	}
	w, err := c.bits(0)
	if err != nil {
		return err
	}
	if _, err := layoutOf(n.Op, len(n.Operands), w); err != nil {
		return err
	}
	return c.allSame(1, n.Type)
}

// gate: bits[1], T -> T.
func (c checker) gate() error {
	if err := c.same(0, outline.BitsType(1)); err != nil {
		return err
	}
	return c.same(1, c.n.Type)
}

// tuple: T1, T2, ... -> (T1, T2, ...).
func (c checker) tuple() error {
	ts := make([]outline.Type, len(c.n.Operands))
	for i := range ts {
		ts[i] = c.operand(i)
	}
	return c.result(outline.TupleType(ts...))
}

// tupleIndex: (T0, T1, ...) -> T_index.
func (c checker) tupleIndex() error {
	u := c.operand(0)
	if u.Kind != outline.Tuple {
		return fmt.Errorf("tuple_index operand has type %s, want a tuple", u)
	}
	index, err := intAttr(c.n, "index")
	if err != nil {
		return err
	}
	if index >= len(u.Elems) {
		return fmt.Errorf("tuple_index index=%d of a %d-element tuple", index, len(u.Elems))
	}
	return c.result(u.Elems[index])
}

// array: k operands of type T -> T[k].
func (c checker) array() error {
	n, t := c.n, c.n.Type
	if t.Kind != outline.Array {
		return fmt.Errorf("array has type %s, want an array", t)
	}
	if t.Len != len(n.Operands) {
		return fmt.Errorf("array of %d operands has type %s", len(n.Operands), t)
	}
	return c.allSame(0, t.Elems[0])
}

// arrayIndex: an array, then one bits index per dimension indexed ->
// the element reached.
func (c checker) arrayIndex() error {
	u, err := c.indexed(1)
	if err != nil {
		return err
	}
	return c.result(u)
}

// arrayUpdate: an array A, the new element, then its bits indices -> A.
func (c checker) arrayUpdate() error {
	u, err := c.indexed(2)
	if err != nil {
		return err
	}
	if err := c.same(1, u); err != nil {
		return err
	}
	return c.result(c.operand(0))
}

// indexed checks the indices of array_index or array_update, the operands
// from first on, and the assumed_in_bounds attribute; it returns the type
// of the element they reach in operand 0.
func (c checker) indexed(first int) (outline.Type, error) {
	n := c.n
	if len(n.Operands) < first {
		return outline.Type{}, fmt.Errorf("%s has %d operands, want at least %d", n.Op, len(n.Operands), first)
	}
	if _, err := boolAttr(n, "assumed_in_bounds"); err != nil {
		return outline.Type{}, err
	}
	u := c.operand(0)
	for i := first; i < len(n.Operands); i++ {
		if _, err := c.bits(i); err != nil {
			return outline.Type{}, err
		}
		if u.Kind != outline.Array {
			return outline.Type{}, fmt.Errorf("%s has %d indices for an operand of type %s", n.Op, len(n.Operands)-first, c.operand(0))
		}
		if u.Len == 0 {
			return outline.Type{}, fmt.Errorf("%s indexes an empty array", n.Op)
		}
		u = u.Elems[0]
	}
	return u, nil
}

// arrayConcat: T[k1], T[k2], ... -> T[k1+k2+...].
func (c checker) arrayConcat() error {
	n, t := c.n, c.n.Type
	if len(n.Operands) == 0 {
		return fmt.Errorf("array_concat has no operands")
	}
	total := 0
	for i := range n.Operands {
		u := c.operand(i)
		if u.Kind != outline.Array || !u.Elems[0].Equal(c.operand(0).Elems[0]) {
			return fmt.Errorf("array_concat operand %d has type %s, want an array like operand 0", i, u)
		}
		total += u.Len
	}
	if t.Kind != outline.Array || t.Len != total || !t.Elems[0].Equal(c.operand(0).Elems[0]) {
		return fmt.Errorf("array_concat has type %s, want %s", t, outline.ArrayType(c.operand(0).Elems[0], total))
	}
	return nil
}

// arraySlice: T[k] with k > 0, a bits start -> T[width], width > 0.
func (c checker) arraySlice() error {
	u := c.operand(0)
	if u.Kind != outline.Array || u.Len == 0 {
		return fmt.Errorf("array_slice operand has type %s, want a non-empty array", u)
	}
	if _, err := c.bits(1); err != nil {
		return err
	}
	width, err := intAttr(c.n, "width")
	if err != nil {
		return err
	}
	if width == 0 {
		return fmt.Errorf("array_slice width=0 (empty arrays are not supported)")
	}
	return c.result(outline.ArrayType(u.Elems[0], width))
}

// literal: no operands, a value of the node's type.
func (c checker) literal() error {
	if err := c.count(0); err != nil {
		return err
	}
	s, _ := c.n.Attr("value")
	_, err := ParseValue(c.n.Type, s)
	return err
}

// invoke: the arguments have the types of the parameters of to_apply, a
// function defined before; the result has the type it returns.
func (c checker) invoke() error {
	n := c.n
	name, _ := n.Attr("to_apply")
	g := c.lookup(name)
	if g == nil {
		return fmt.Errorf("invoke of undefined function %s", name)
	}
	if len(g.Params) != len(n.Operands) {
		return fmt.Errorf("invoke of %s with %d arguments, want %d", name, len(n.Operands), len(g.Params))
	}
	for i, q := range g.Params {
		if q == nil || checkType(q.Type) != nil {
			return fmt.Errorf("invoke of %s: malformed parameter %d", name, i)
		}
		if err := c.same(i, q.Type); err != nil {
			return err
		}
	}
	if g.Ret == nil || checkType(g.Ret.Type) != nil {
		return fmt.Errorf("invoke of %s: malformed return value", name)
	}
	return c.result(g.Ret.Type)
}

// afterAll: tokens -> token.
func (c checker) afterAll() error {
	if err := c.allSame(0, tokenType); err != nil {
		return err
	}
	return c.result(tokenType)
}

// minDelay: token -> token, delay a non-negative integer.
func (c checker) minDelay() error {
	if err := c.same(0, tokenType); err != nil {
		return err
	}
	if _, err := intAttr(c.n, "delay"); err != nil {
		return err
	}
	return c.result(tokenType)
}

// effect: token, bits[1] condition[, trace's data operands] -> token,
// with quoted message, label and format and an integer verbosity (assert,
// trace).
func (c checker) effect() error {
	n := c.n
	if len(n.Operands) < 2 {
		return fmt.Errorf("%s has %d operands, want at least 2", n.Op, len(n.Operands))
	}
	if err := c.same(0, tokenType); err != nil {
		return err
	}
	if err := c.same(1, outline.BitsType(1)); err != nil {
		return err
	}
	if n.Op == "assert" && len(n.Operands) != 2 {
		return c.count(2)
	}
	for _, k := range []string{"message", "label", "format"} {
		if v, ok := n.Attr(k); ok && !quoted(v) {
			return fmt.Errorf("%s attribute %s=%s is not a quoted string", n.Op, k, v)
		}
	}
	if _, ok := n.Attr("verbosity"); ok {
		if _, err := intAttr(n, "verbosity"); err != nil {
			return err
		}
	}
	return c.result(tokenType)
}

// cover: bits[1] -> (), with a quoted label.
func (c checker) cover() error {
	if err := c.same(0, outline.BitsType(1)); err != nil {
		return err
	}
	if v, _ := c.n.Attr("label"); !quoted(v) {
		return fmt.Errorf("cover attribute label=%s is not a quoted string", v)
	}
	return c.result(outline.TupleType())
}

// mapOf: T[k] -> U[k], to_apply a function from T to U.
func (c checker) mapOf() error {
	name, _ := c.n.Attr("to_apply")
	g := c.lookup(name)
	if g == nil {
		return fmt.Errorf("map of undefined function %s", name)
	}
	u := c.operand(0)
	if u.Kind != outline.Array {
		return fmt.Errorf("map operand has type %s, want an array", u)
	}
	if len(g.Params) != 1 || g.Params[0] == nil || g.Ret == nil || !g.Params[0].Type.Equal(u.Elems[0]) {
		return fmt.Errorf("map of %s: it must take one %s", name, u.Elems[0])
	}
	return c.result(outline.ArrayType(g.Ret.Type, u.Len))
}

var tokenType = outline.Type{Kind: outline.Token}

// quoted reports whether s is a string as the lexer reads it: "..." or
// """...""".
func quoted(s string) bool {
	return len(s) >= 6 && strings.HasPrefix(s, `"""`) && strings.HasSuffix(s, `"""`) ||
		len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' && !strings.HasPrefix(s, `"""`)
}

// countedFor: counted_for(init, trip_count=N, stride=S, body=f,
// invariant_args=[...]), see loop.
func (c checker) countedFor() error {
	if err := c.loopBody(); err != nil {
		return err
	}
	if _, err := intAttr(c.n, "trip_count"); err != nil {
		return err
	}
	if v, ok := c.n.Attr("stride"); ok {
		if _, err := strconv.Atoi(v); err != nil {
			return fmt.Errorf("counted_for attribute stride=%q is not an integer", v)
		}
	}
	return c.loop(1)
}

// dynamicCountedFor: dynamic_counted_for(init, trip_count, stride,
// body=f, invariant_args=[...]) with bits trip_count and stride, see
// loop.
func (c checker) dynamicCountedFor() error {
	if err := c.loopBody(); err != nil {
		return err
	}
	for i := 1; i < 3; i++ {
		if _, err := c.bits(i); err != nil {
			return err
		}
	}
	return c.loop(3)
}

// loopBody reports an error unless a loop's body is defined.
func (c checker) loopBody() error {
	name, _ := c.n.Attr("body")
	if c.lookup(name) == nil {
		return fmt.Errorf("%s of undefined function %s", c.n.Op, name)
	}
	return nil
}

// loop checks a loop whose invariant arguments start at operand first:
// the body takes the induction variable (bits), the accumulator and the
// invariant arguments, and returns the accumulator's type, which is the
// loop's.
func (c checker) loop(first int) error {
	n := c.n
	name, _ := n.Attr("body")
	g := c.lookup(name)
	if len(n.Operands) < first {
		return fmt.Errorf("%s has %d operands, want at least %d", n.Op, len(n.Operands), first)
	}
	inv := len(n.Operands) - first
	if len(g.Params) != 2+inv || slices.Contains(g.Params, nil) || g.Ret == nil {
		return fmt.Errorf("%s body %s takes %d parameters, want %d", n.Op, name, len(g.Params), 2+inv)
	}
	if g.Params[0].Type.Kind != outline.Bits {
		return fmt.Errorf("%s body %s: induction variable of type %s, want bits", n.Op, name, g.Params[0].Type)
	}
	if err := c.same(0, g.Params[1].Type); err != nil {
		return err
	}
	for i := range inv {
		if err := c.same(first+i, g.Params[2+i].Type); err != nil {
			return err
		}
	}
	if !g.Ret.Type.Equal(g.Params[1].Type) {
		return fmt.Errorf("%s body %s returns %s, want %s", n.Op, name, g.Ret.Type, g.Params[1].Type)
	}
	return c.result(g.Params[1].Type)
}
