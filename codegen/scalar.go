package codegen

import (
	"fmt"

	"nestor/ir"
)

// Scalar replacement. In an innermost loop, an array element whose
// subscripts do not move with the loop's counter, and which is the only
// element of its array the loop touches, lives in a local variable for
// the whole loop: loaded once before, stored once after when the loop
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
	name, elem string // variable name, C element type
	access     string // the element as printed, e.g. "y[i]"
	written    bool
}

// registers returns the elements of innermost loop l to keep in
// variables, in the order of first access.
func (pr *printer) registers(l *Loop) []register {
	type use struct {
		sub     []ir.Aff
		text    string
		ok      bool
		written bool
	}
	uses := map[int]*use{} // by array
	var order []int
	for _, n := range l.Body {
		in, ok := n.(*Instance)
		if !ok {
			return nil // guards or nested loops: keep it simple
		}
		s := pr.p.Stmts[in.Stmt]
		for k, acc := range s.Accesses {
			if len(acc.Index) == 0 {
				continue // already a scalar variable
			}
			sub := make([]ir.Aff, len(acc.Index))
			moves := false
			for j, x := range acc.Index {
				sub[j] = compose(x, in.Iters)
				moves = moves || (l.Level < len(sub[j].Iter) && sub[j].Iter[l.Level] != 0)
			}
			u := uses[acc.Array]
			if u == nil {
				u = &use{sub: sub, text: pr.access(acc, in), ok: true}
				uses[acc.Array] = u
				order = append(order, acc.Array)
			}
			if moves || !sameSubscripts(u.sub, sub) {
				u.ok = false
			}
			u.written = u.written || k == 0
		}
	}
	var out []register
	for _, a := range order {
		u := uses[a]
		if !u.ok {
			continue
		}
		arr := pr.p.Arrays[a]
		out = append(out, register{name: pr.fresh(arr.Name + "_r"), elem: arr.Elem.String(), access: u.text, written: u.written})
	}
	return out
}

func sameSubscripts(a, b []ir.Aff) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !sub(a[k], b[k]).IsConst() || sub(a[k], b[k]).Const != 0 {
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
