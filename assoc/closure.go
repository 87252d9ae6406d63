package assoc

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Proofs that an update has no associative decomposition at all, for the
// refusal message (issue 17): "not associative" is said only with such a
// proof; a counterexample to nestor's own candidate operator refutes the
// candidate, not the update, and the message then says "not recognized".
//
// The semigroup-closure test. Suppose update(x, in) = f(x, y(in)) with f
// associative on the values D of x's type and y(in) in D. Then the maps
// m_v = (x ↦ f(x, v)), v ∈ D, are closed under composition: m_b ∘ m_a =
// m_f(a,b), since f(f(x, a), b) = f(x, f(a, b)). So every composition of
// the maps x ↦ update(x, in), for any inputs, is some m_v: there are at
// most |D| of them. Finding more than |D| distinct compositions proves
// that no such f and y exist. The test runs exhaustively over the 256
// values of an 8-bit type (2 of bool): at the element's own width for
// int8, uint8 and bool, and for wider integer types on the update
// computed in the 8-bit type of the same signedness. Only the first is a
// proof: a wider type's maps may compose into as many maps as it has
// values whatever the 8-bit ones do (and with min or a comparison the
// update is another function at 8 bits), so for a wider type the refusal
// says "not recognized" and gives the 8-bit result as evidence. Any subset of the inputs' values may
// generate the maps (the closure of a subset is a subset), so the named
// values are sampled; loop-invariant ones are fixed to a few values in
// turn, the proof naming them.

// closureGenSteps are the numbers of generating maps tried in turn: few
// generators usually suffice (their closure is a subset of the whole
// closure), and each costs |D| evaluations of the update. One step of 16:
// the closure of 16 maps already takes up to 16 compositions per map
// found, and a second step with more generators never had budget left
// (closureMaxCompositions) to refute what the first did not.
var closureGenSteps = []int{16}

// closureMaxCompositions bounds the compositions one closure proof
// computes, over all its generator counts and invariant values (a
// refusal's cost: well under a millisecond). The updates it refutes
// exceed the number of values within the first compositions (the
// corpus's refutations take at most 3,632, y - x's reflections and
// translations); one that the bound stops is not refuted. A composition
// costs tens of nanoseconds (closureExceeds compares samples), one that
// makes a new map a tenth of a microsecond: the bound keeps the worst
// refusal well under a millisecond.
const closureMaxCompositions = 8192

// closureInvariantValues are the values loop-invariant names take in
// turn, 0 last: it is the value that makes a term vanish (x*in + c with c
// = 0 is a product, associative), so its closure tends to stay small and
// spend the composition budget without refuting anything.
var closureInvariantValues = []int64{1, 2, 3, 0}

// closureSmallValues are the values a second varying input, or a
// loop-invariant one, takes.
var closureSmallValues = []int64{0, 1, 2, 3, -1, -2, 5, 127, -128, 64}

// narrowType returns the 8-bit type of t's signedness (t for Bool), or
// false for floats.
func narrowType(t Type) (Type, bool) {
	switch {
	case t == Bool:
		return Bool, true
	case t.Signed():
		return Int8, true
	case t.Unsigned():
		return Uint8, true
	}
	return 0, false
}

// narrow returns e computed in 8-bit types, literals truncated. A
// conversion has no 8-bit counterpart (u8(min(u16(x) + u16(y), 255)) at
// 8 bits would be another function): false.
func narrow(e *Expr) (*Expr, bool) {
	t, ok := narrowType(e.Type)
	if !ok || e.Op == OpCast || e.Op.Math() {
		return nil, false
	}
	c := *e
	c.Type = t
	if e.Op == OpConst {
		c.Value = IntValue(e.Value.Int(e.Type), t)
	}
	if len(e.Args) > 0 {
		c.Args = make([]*Expr, len(e.Args))
		for i, a := range e.Args {
			n, ok := narrow(a)
			if !ok {
				return nil, false
			}
			c.Args[i] = n
		}
	}
	return &c, true
}

// closureProof runs the closure test on element i of the update, which
// must read no partial result but its own. It returns the proof written
// out, or false.
func (r *recognizer) closureProof(i int) (string, bool) {
	e := r.update.Elems[i]
	if r.subj[i].xs&^(1<<uint(i)) != 0 {
		return "", false
	}
	n, ok := narrow(e)
	if !ok {
		return "", false
	}
	t := n.Type
	size := 256
	if t == Bool {
		size = 2
	}
	var vary, inv []*Expr // named values, one node each
	seen := map[string]bool{}
	n.Walk(func(x *Expr) bool {
		if x.Op == OpVar && !seen[x.Name] {
			seen[x.Name] = true
			if r.invariant(x.Name) {
				inv = append(inv, x)
			} else {
				vary = append(vary, x)
			}
		}
		return true
	})
	if len(vary) == 0 {
		return "", false // one map: its closure is a cyclic semigroup, and proves nothing here
	}
	work := 0 // compositions computed, against closureMaxCompositions
	for _, c := range closureInvariantValues {
		invVals := map[string]Value{}
		for _, v := range inv {
			invVals[v.Name] = IntValue(c, v.Type)
		}
		var count int
		for _, gens := range closureGenSteps {
			if count, ok = closureExceeds(n, i, size, vary, invVals, gens, &work); ok {
				break
			}
		}
		if !ok {
			if len(inv) == 0 {
				break
			}
			continue
		}
		width := "at the element's own width"
		if e.Type != t {
			width = fmt.Sprintf("at 8 bits (the update computed in %v)", t)
		}
		var at []string
		for _, v := range inv {
			at = append(at, fmt.Sprintf("%s = %s", v.Name, literal(invVals[v.Name], v.Type)))
		}
		where := ""
		if len(at) > 0 {
			where = " with " + strings.Join(at, ", ")
		}
		return fmt.Sprintf("%s%s, the maps x ↦ %v for the inputs' values compose into more than %d distinct maps (%d found), "+
			"while f(x, y) with f associative gives at most %d, one per value of y: no associative operator decomposes the update",
			width, where, n, size, count, size), true
	}
	return "", false
}

// closureExceeds generates the maps x ↦ e(x, in) (x is x_i, the varying
// values vary drawn, the invariant ones fixed by inv) and reports whether
// their closure under composition exceeds size maps, with the number
// found. At most maxGens distinct generators are used; work counts the
// compositions, which stop at closureMaxCompositions.
func closureExceeds(e *Expr, i, size int, vary []*Expr, inv map[string]Value, maxGens int, work *int) (int, bool) {
	vars := map[string]Value{}
	for k, v := range inv {
		vars[k] = v
	}
	lanes := &laneEval{size: size}
	values := func(t Type, all bool) []Value {
		if t == Bool {
			return []Value{0, 1}
		}
		if all {
			// Every value, in an order that spreads the first ones over
			// the range (signs, magnitudes): 167 is odd, so v*167 mod
			// 256 is a permutation.
			out := make([]Value, 256)
			for v := range out {
				out[v] = Value(v * 167 % 256)
			}
			return out
		}
		var out []Value
		for _, c := range closureSmallValues {
			out = append(out, IntValue(c, t))
		}
		return out
	}
	doms := make([][]Value, len(vary))
	for k, v := range vary {
		doms[k] = values(v.Type, k == 0)
	}
	// Maps are told apart by their values at closureSample's points: two
	// maps with different samples are different maps, so the count of
	// distinct samples is a lower bound of the count of distinct maps,
	// and exceeding size with it is a proof. A composition whose sample
	// is known is not computed further (most are, in a closure that stays
	// small): it may be a new map that agrees on the sample, whose
	// compositions the search then misses, which only weakens the test.
	seen := make(map[closureKey]struct{}, 2*size+2)
	var pts [len(closureSample)]int // the sample's points within size
	for j, x := range closureSample {
		pts[j] = int(x) % size
	}
	// Every map kept has its own sample, and there are at most size+1
	// of them before the test stops: one allocation holds them all.
	slab := make([]closureMap, 0, size+1)
	newMap := func() *closureMap {
		slab = append(slab, closureMap{})
		return &slab[len(slab)-1]
	}
	var gens []*closureMap
	idx := make([]int, len(vary))
	for len(gens) < maxGens {
		for k, v := range vary {
			vars[v.Name] = doms[k][idx[k]]
		}
		var m closureMap
		ok := lanes.mapOf(e, i, vars, m[:size]) // false: undefined for some x, leave this input out
		if key := m.key(&pts); ok {
			if _, dup := seen[key]; !dup {
				seen[key] = struct{}{}
				g := newMap()
				*g = m
				gens = append(gens, g)
			}
		}
		// The next combination, the first value fastest.
		k := 0
		for ; k < len(idx); k++ {
			idx[k]++
			if idx[k] < len(doms[k]) {
				break
			}
			idx[k] = 0
		}
		if k == len(idx) {
			break
		}
	}
	if len(seen) > size {
		return len(seen), true
	}
	queue := slices.Clone(gens)
	for q := 0; q < len(queue); q++ {
		m := queue[q]
		for _, g := range gens {
			if *work++; *work > closureMaxCompositions {
				return len(seen), false
			}
			var key closureKey
			for k, x := range pts {
				key[k] = g[m[x]]
			}
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = struct{}{}
			if len(seen) > size {
				return len(seen), true
			}
			c := newMap()
			for x := range size {
				c[x] = g[m[x]]
			}
			queue = append(queue, c)
		}
	}
	return len(seen), false
}

// closureMap is a map of the 8-bit values (of the 2 Bool values, the
// rest zero): x ↦ m[x].
type closureMap [256]byte

// closureKey is a map's values at the points of closureSample.
type closureKey [len(closureSample)]byte

// closureSample are the points at which maps are compared: 0, 1, 255
// (-1), 128 (the signed minimum), 127, then others spread over the range.
// For Bool (size 2) they are taken modulo 2.
var closureSample = [...]byte{0, 1, 255, 128, 127, 2, 254, 64, 192, 3, 100, 200, 17, 33, 77, 160,
	5, 9, 250, 129, 126, 63, 65, 191, 12, 45, 90, 135, 170, 215, 240, 31}

// key returns m's values at the points pts.
func (m *closureMap) key(pts *[len(closureSample)]int) closureKey {
	var k closureKey
	for j, x := range pts {
		k[j] = m[x]
	}
	return k
}

// laneEval evaluates an expression of 8-bit and Bool types (narrow's
// result) for every value of x_i at once, as Eval with Wrap would for
// each: one pass over the tree per generator instead of one per value,
// which keeps a refusal's closure test within a millisecond. Each node
// yields its value in every lane and whether the lane is undefined
// (division by zero where C evaluates it); select, && and || take a
// lane's definedness from the operands C evaluates in that lane.
type laneEval struct {
	size int
	free [][]Value
}

// mapOf writes e's value for x_i = 0 … size-1 into m; it reports false
// when some lane has no value.
func (l *laneEval) mapOf(e *Expr, i int, vars map[string]Value, m []byte) bool {
	v, bad, err := l.eval(e, i, vars)
	if err != nil {
		return false
	}
	for x := range l.size {
		if bad != nil && bad[x] {
			return false
		}
		m[x] = byte(v[x])
	}
	l.release(v)
	return true
}

func (l *laneEval) get() []Value {
	if n := len(l.free); n > 0 {
		v := l.free[n-1]
		l.free = l.free[:n-1]
		return v
	}
	return make([]Value, l.size)
}

func (l *laneEval) release(v []Value) { l.free = append(l.free, v) }

// orBad returns the lanes undefined in a or b (nil: none).
func orBad(a, b []bool) []bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := make([]bool, len(a))
	for k := range a {
		out[k] = a[k] || b[k]
	}
	return out
}

func (l *laneEval) eval(e *Expr, i int, vars map[string]Value) ([]Value, []bool, error) {
	out := l.get()
	switch e.Op {
	case OpX:
		if e.Index != i {
			return nil, nil, fmt.Errorf("assoc: x%d in a closure test of x%d", e.Index, i)
		}
		for x := range out {
			out[x] = Value(x) & mask(e.Type)
		}
		return out, nil, nil
	case OpConst, OpVar:
		v := e.Value
		if e.Op == OpVar {
			var ok bool
			if v, ok = vars[e.Name]; !ok {
				return nil, nil, fmt.Errorf("assoc: %s unbound", e.Name)
			}
		}
		v &= mask(e.Type)
		for x := range out {
			out[x] = v
		}
		return out, nil, nil
	case OpY, OpK, OpCast, OpExp, OpLog, OpAbs:
		return nil, nil, fmt.Errorf("assoc: %v in a closure test", e.Op)
	}
	if e.Op >= numOps || len(e.Args) != e.Op.Arity() {
		return nil, nil, fmt.Errorf("assoc: malformed %v node with %d operands", e.Op, len(e.Args))
	}
	var argv [3][]Value // at most 3 operands (select)
	var badv [3][]bool
	args, bads := argv[:len(e.Args)], badv[:len(e.Args)]
	for k, a := range e.Args {
		v, bad, err := l.eval(a, i, vars)
		if err != nil {
			return nil, nil, err
		}
		args[k], bads[k] = v, bad
	}
	defer func() {
		for _, a := range args {
			l.release(a)
		}
	}()
	t0 := e.Args[0].Type
	switch e.Op {
	case OpSelect:
		var bad []bool
		c, a, b := args[0], args[1], args[2]
		for x := range out {
			pick, pbad := a, bads[1]
			if !c[x].Bool(t0) {
				pick, pbad = b, bads[2]
			}
			out[x] = pick[x]
			if (bads[0] != nil && bads[0][x]) || (pbad != nil && pbad[x]) {
				if bad == nil {
					bad = make([]bool, len(out))
				}
				bad[x] = true
			}
		}
		return out, bad, nil
	case OpAnd, OpOr:
		var bad []bool
		for x := range out {
			a := args[0][x].Bool(t0)
			decided := a == (e.Op == OpOr)
			r := a
			if !decided {
				r = args[1][x].Bool(e.Args[1].Type)
			}
			out[x] = BoolValue(r)
			if (bads[0] != nil && bads[0][x]) || (!decided && bads[1] != nil && bads[1][x]) {
				if bad == nil {
					bad = make([]bool, len(out))
				}
				bad[x] = true
			}
		}
		return out, bad, nil
	case OpNot:
		for x := range out {
			out[x] = BoolValue(!args[0][x].Bool(t0))
		}
		return out, bads[0], nil
	case OpNeg:
		for x := range out {
			v, err := arith(OpNeg, e.Type, args[0][x], 0, true)
			if err != nil {
				return nil, nil, err
			}
			out[x] = v
		}
		return out, bads[0], nil
	}
	bad := orBad(bads[0], bads[1])
	a, b := args[0], args[1]
	if e.Op >= OpLT && e.Op <= OpNE {
		for x := range out {
			out[x] = compare(e.Op, t0, a[x], b[x])
		}
		return out, bad, nil
	}
	m := mask(e.Type)
	switch e.Op {
	case OpAdd:
		if e.Type != Bool {
			for x := range out {
				out[x] = (a[x] + b[x]) & m
			}
			return out, bad, nil
		}
	case OpSub:
		if e.Type != Bool {
			for x := range out {
				out[x] = (a[x] - b[x]) & m
			}
			return out, bad, nil
		}
	case OpMul:
		if e.Type != Bool {
			for x := range out {
				out[x] = (a[x] * b[x]) & m
			}
			return out, bad, nil
		}
	}
	own := false // bad is this node's own slice
	for x := range out {
		v, err := arith(e.Op, e.Type, a[x], b[x], true)
		switch {
		case errors.Is(err, ErrUndefined):
			if !own {
				nb := make([]bool, len(out))
				copy(nb, bad)
				bad, own = nb, true
			}
			bad[x] = true
		case err != nil:
			return nil, nil, err
		}
		out[x] = v
	}
	return out, bad, nil
}
