package assoc

import (
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
// computed in the 8-bit type of the same signedness (said in the
// message: a proof at 8 bits). Any subset of the inputs' values may
// generate the maps (the closure of a subset is a subset), so the named
// values are sampled; loop-invariant ones are fixed to a few values in
// turn, the proof naming them.

// closureGenSteps are the numbers of generating maps tried in turn: few
// generators usually suffice (their closure is a subset of the whole
// closure), and each costs |D| evaluations of the update.
var closureGenSteps = []int{16, 64}

// closureMaxCompositions bounds the compositions one closure test
// computes (a refusal's cost: a few milliseconds). The updates it refutes
// exceed the bound on the values within the first compositions; one that
// the bound stops is not refuted.
const closureMaxCompositions = 8192

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

// narrow returns e computed in 8-bit types, literals truncated.
func narrow(e *Expr) (*Expr, bool) {
	t, ok := narrowType(e.Type)
	if !ok {
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
	for _, c := range closureSmallValues[:min(len(closureSmallValues), 4)] {
		invVals := map[string]Value{}
		for _, v := range inv {
			invVals[v.Name] = IntValue(c, v.Type)
		}
		var count int
		for _, gens := range closureGenSteps {
			if count, ok = closureExceeds(n, i, size, vary, invVals, gens); ok {
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
// found. At most maxGens distinct generators are used.
func closureExceeds(e *Expr, i, size int, vary []*Expr, inv map[string]Value, maxGens int) (int, bool) {
	vars := map[string]Value{}
	for k, v := range inv {
		vars[k] = v
	}
	xs := make([]Value, i+1)
	env := Env{X: xs, Vars: vars, Wrap: true}
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
	seen := map[string]bool{}
	var gens [][]byte
	idx := make([]int, len(vary))
	for len(gens) < maxGens {
		for k, v := range vary {
			vars[v.Name] = doms[k][idx[k]]
		}
		m := make([]byte, size)
		ok := true
		for x := range size {
			xs[i] = Value(x)
			v, err := Eval(e, env)
			if err != nil {
				ok = false // undefined for some x: leave this input out
				break
			}
			m[x] = byte(v)
		}
		if ok && !seen[string(m)] {
			seen[string(m)] = true
			gens = append(gens, m)
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
	c := make([]byte, size)
	work := 0
	for q := 0; q < len(queue); q++ {
		m := queue[q]
		for _, g := range gens {
			if work++; work > closureMaxCompositions {
				return len(seen), false
			}
			for x := range size {
				c[x] = g[m[x]]
			}
			if !seen[string(c)] {
				seen[string(c)] = true
				if len(seen) > size {
					return len(seen), true
				}
				queue = append(queue, slices.Clone(c))
			}
		}
	}
	return len(seen), false
}
