package codegen

import (
	"fmt"
	"slices"

	"nestor/ir"
)

// Scalar replacement. In an innermost loop, an array element whose
// subscripts do not move with the loop's counter, when every other
// access of the loop to its array provably names another element, lives
// in a local variable for the whole loop: loaded once before, stored once after when the loop
// writes it. C compilers cannot do this themselves when arrays are
// pointers that may alias (PolyBench passes them so); nestor's dependence
// analysis already assumes distinct arrays do not overlap. The result is
// bit for bit the same: every read sees the value the element would hold.
//
// The load and the store only happen when the loop runs at least once
// (an empty loop may have subscripts out of bounds, or an element
// another thread owns): the loop is wrapped in a test of its bounds
// unless simplify proved it non-empty.

// register is one replaced element.
type register struct {
	name, elem string // variable name (set by nameRegisters), C element type
	base       string // what the name is made from
	access     string // the element as printed, e.g. "y[i]"
	written    bool
}

// registers returns the elements of innermost loop l to keep in
// variables, in the order of l.Registers and, within an array, of first
// access: every element of such an array that the accesses not moving
// with the loop name (one in a plain loop, one per copy in a jammed one).
func (pr *printer) registers(l *Loop) []register {
	var out []register
	for _, a := range l.Registers {
		first := len(out)
		for _, n := range l.Body {
			in := n.(*Instance) // registerArrays accepts only instances
			for k, acc := range pr.p.Stmts[in.Stmt].Accesses {
				if acc.Array != a || moves(acc, in, l.Level) {
					continue
				}
				text := pr.access(acc, in)
				if _, held := pr.regs[text]; held || pr.heldName(text) {
					continue // an enclosing loop's body holds it
				}
				at := slices.IndexFunc(out[first:], func(r register) bool { return r.access == text })
				if at < 0 {
					arr := pr.p.Arrays[a]
					out = append(out, register{base: arr.Name + "_r", elem: arr.Elem.String(), access: text})
					at = len(out) - 1 - first
				}
				out[first+at].written = out[first+at].written || k == 0
			}
		}
	}
	return out
}

// nameRegisters gives each register a fresh name.
func (pr *printer) nameRegisters(regs []register) {
	for k := range regs {
		regs[k].name = pr.fresh(regs[k].base)
	}
}

// heldName reports whether text is the name of a register in use.
func (pr *printer) heldName(text string) bool {
	for _, name := range pr.regs {
		if name == text {
			return true
		}
	}
	return false
}

// moves reports whether access acc of instance in changes with the
// counter at level k.
func moves(acc *ir.Access, in *Instance, k int) bool {
	for _, x := range acc.Index {
		if c := compose(x, in.Iters); k < len(c.Iter) && c.Iter[k] != 0 {
			return true
		}
	}
	return false
}

func sameSubscripts(a, b []ir.Aff) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !a[k].Sub(b[k]).IsConst() || a[k].Sub(b[k]).Const != 0 {
			return false
		}
	}
	return true
}

// fresh returns a variable name based on base that no parameter, array,
// outer variable, loop counter or earlier register of the region uses.
func (pr *printer) fresh(base string) string {
	taken := func(n string) bool {
		if pr.vars[n] || pr.taken[n] {
			return true
		}
		for _, q := range pr.params {
			if q == n {
				return true
			}
		}
		for _, a := range pr.p.Arrays {
			if a.Name == n {
				return true
			}
		}
		for _, s := range pr.p.Stmts {
			for _, it := range s.Iters {
				if it == n {
					return true
				}
			}
		}
		return false
	}
	name := base
	for k := 2; taken(name); k++ {
		name = fmt.Sprintf("%s%d", base, k)
	}
	if pr.taken == nil {
		pr.taken = map[string]bool{}
	}
	pr.taken[name] = true
	return name
}
