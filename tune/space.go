// Package tune searches the implementations of a region, as Telamon does
// (../shared/seeds, "decision vector"): the choices of an implementation
// (pipeline.Decisions) form a vector of variables with finite domains,
// tied by constraints that propagate after every decision; a partial
// candidate (some domains not yet single values) has a lower bound on the
// run time of every implementation it can still become, and a Monte-Carlo
// tree search, pruned by that bound, spends a budget of evaluations
// (generate, compile, check, time) on the most promising candidates.
//
// # Invariants
//
//   - Every complete assignment the domains allow is legal: a choice only
//     lays out what the dependences allow (pipeline.Decisions), so a
//     constraint expresses relevance and consistency, never legality.
//   - Propagation only removes values; Undo restores the domains exactly
//     as they were at a Mark.
//   - Bound(partial) ≤ the time of every completion of partial on the
//     machine it describes (see bound.go for what it counts).
package tune

import (
	"fmt"
	"math/bits"
	"strings"
)

// Choice is one variable of the decision vector: a named decision with
// its finite set of values (at most 64).
type Choice struct {
	// Name says where the choice applies: "order", "fusion", "parallel",
	// "rfactor", or "<fusion>.b<band>.<what>" for a band's tiling, tile
	// sizes, wavefront, loop order and register tile ("jam").
	Name string
	// Values are the printable values; a value "-" means "does not apply"
	// (a constraint sets it where the choice is irrelevant).
	Values []string
	// Default is the index of the value today's rules take (the default
	// policy), or -1 when the rules decide something the value list does
	// not name.
	Default int
}

// Lit is a literal of a constraint: the value of choice C is in the set
// of values Set (a bitmask over its Values).
type Lit struct {
	C   int
	Set uint64
}

// Clause is a constraint: at least one of its literals holds. Every
// constraint of a space is a clause (implications and exclusions are
// clauses), which a reader can print and a test can check.
type Clause []Lit

// Space is the decision vector of one region: its choices and the
// constraints between them.
type Space struct {
	Choices []Choice
	Clauses []Clause
	// watch lists, per choice, the clauses that mention it.
	watch [][]int
}

// add appends a choice and returns its index.
func (sp *Space) add(c Choice) int {
	sp.Choices = append(sp.Choices, c)
	return len(sp.Choices) - 1
}

// lookup returns the index of the choice called name, or -1.
func (sp *Space) lookup(name string) int {
	for k, c := range sp.Choices {
		if c.Name == name {
			return k
		}
	}
	return -1
}

// set returns the bitmask of the named values of choice c.
func (sp *Space) set(c int, values ...string) uint64 {
	var m uint64
	for k, v := range sp.Choices[c].Values {
		for _, w := range values {
			if v == w {
				m |= 1 << k
			}
		}
	}
	return m
}

// all returns the bitmask of every value of choice c.
func (sp *Space) all(c int) uint64 {
	return 1<<len(sp.Choices[c].Values) - 1
}

// require adds the clause lits.
func (sp *Space) require(lits ...Lit) {
	sp.Clauses = append(sp.Clauses, Clause(lits))
}

// index builds the watch lists; it is called once the space is complete.
func (sp *Space) index() {
	sp.watch = make([][]int, len(sp.Choices))
	for k, cl := range sp.Clauses {
		for _, l := range cl {
			if len(sp.watch[l.C]) == 0 || sp.watch[l.C][len(sp.watch[l.C])-1] != k {
				sp.watch[l.C] = append(sp.watch[l.C], k)
			}
		}
	}
}

// String prints a literal as "name ∈ {a, b}".
func (sp *Space) litString(l Lit) string {
	var vs []string
	for k, v := range sp.Choices[l.C].Values {
		if l.Set&(1<<k) != 0 {
			vs = append(vs, v)
		}
	}
	return fmt.Sprintf("%s ∈ {%s}", sp.Choices[l.C].Name, strings.Join(vs, ", "))
}

// ClauseString prints clause k as a disjunction of its literals.
func (sp *Space) ClauseString(k int) string {
	var ls []string
	for _, l := range sp.Clauses[k] {
		ls = append(ls, sp.litString(l))
	}
	return strings.Join(ls, " ∨ ")
}

// String prints the space: one line per choice, then one per constraint.
func (sp *Space) String() string {
	var b strings.Builder
	for _, c := range sp.Choices {
		def := "?"
		if c.Default >= 0 {
			def = c.Values[c.Default]
		}
		fmt.Fprintf(&b, "%s: {%s} (rule: %s)\n", c.Name, strings.Join(c.Values, ", "), def)
	}
	for k := range sp.Clauses {
		fmt.Fprintf(&b, "  %s\n", sp.ClauseString(k))
	}
	return b.String()
}

// Domains are the values each choice may still take: a partial candidate.
// Changes are logged so that Undo can restore an earlier Mark.
type Domains struct {
	sp  *Space
	dom []uint64
	log []undo
}

type undo struct {
	c   int
	old uint64
}

// NewDomains returns the full domains of sp, propagated; ok is false when
// the constraints leave no candidate.
func (sp *Space) NewDomains() (d *Domains, ok bool) {
	if sp.watch == nil {
		sp.index()
	}
	d = &Domains{sp: sp, dom: make([]uint64, len(sp.Choices))}
	all := make([]int, len(sp.Clauses))
	for k := range sp.Choices {
		d.dom[k] = sp.all(k)
	}
	for k := range all {
		all[k] = k
	}
	return d, d.propagate(all)
}

// Clone returns an independent copy of d with an empty log.
func (d *Domains) Clone() *Domains {
	return &Domains{sp: d.sp, dom: append([]uint64(nil), d.dom...)}
}

// Mark returns the position to Undo to.
func (d *Domains) Mark() int { return len(d.log) }

// Undo restores the domains as they were at mark.
func (d *Domains) Undo(mark int) {
	for len(d.log) > mark {
		u := d.log[len(d.log)-1]
		d.dom[u.c] = u.old
		d.log = d.log[:len(d.log)-1]
	}
}

// Dom returns the bitmask of the values choice c may take.
func (d *Domains) Dom(c int) uint64 { return d.dom[c] }

// Fixed returns the value of choice c when its domain is one value.
func (d *Domains) Fixed(c int) (int, bool) {
	if bits.OnesCount64(d.dom[c]) != 1 {
		return 0, false
	}
	return bits.TrailingZeros64(d.dom[c]), true
}

// Value returns the printable value of a fixed choice c ("" when open).
func (d *Domains) Value(c int) string {
	if v, ok := d.Fixed(c); ok {
		return d.sp.Choices[c].Values[v]
	}
	return ""
}

// May reports whether choice c may still take the value called v.
func (d *Domains) May(c int, v string) bool {
	return c >= 0 && d.dom[c]&d.sp.set(c, v) != 0
}

// Complete reports whether every choice is fixed.
func (d *Domains) Complete() bool {
	for c := range d.dom {
		if _, ok := d.Fixed(c); !ok {
			return false
		}
	}
	return true
}

// Restrict narrows choice c to the values of set and propagates; false
// means a dead end (some domain became empty). The caller Undoes to a Mark
// taken before.
func (d *Domains) Restrict(c int, set uint64) bool {
	if !d.narrow(c, set) {
		return false
	}
	return d.propagate(d.sp.watch[c])
}

// narrow sets choice c's domain to its intersection with set, logging the
// change; false when that is empty.
func (d *Domains) narrow(c int, set uint64) bool {
	nd := d.dom[c] & set
	if nd == d.dom[c] {
		return true
	}
	d.log = append(d.log, undo{c, d.dom[c]})
	d.dom[c] = nd
	return nd != 0
}

// propagate runs unit propagation from the clauses queue to a fixpoint: a
// clause all of whose literals but one are false restricts that one's
// choice to its set; a clause with every literal false is a dead end.
func (d *Domains) propagate(queue []int) bool {
	queued := make(map[int]bool, len(queue))
	q := append([]int(nil), queue...)
	for _, k := range q {
		queued[k] = true
	}
	for len(q) > 0 {
		k := q[0]
		q = q[1:]
		queued[k] = false
		open, sat := -1, false
		for i, l := range d.sp.Clauses[k] {
			m := d.dom[l.C] & l.Set
			switch {
			case m == d.dom[l.C]:
				sat = true // the literal holds whatever the choice becomes
			case m != 0:
				if open >= 0 {
					open = -2 // two literals still open: nothing to infer
				} else if open == -1 {
					open = i
				}
			}
			if sat {
				break
			}
		}
		if sat || open == -2 {
			continue
		}
		if open == -1 {
			return false
		}
		l := d.sp.Clauses[k][open]
		if !d.narrow(l.C, l.Set) {
			return false
		}
		for _, w := range d.sp.watch[l.C] {
			if !queued[w] {
				queued[w] = true
				q = append(q, w)
			}
		}
	}
	return true
}

// String prints the open and fixed choices of d, one per line.
func (d *Domains) String() string {
	var b strings.Builder
	for c, ch := range d.sp.Choices {
		var vs []string
		for k, v := range ch.Values {
			if d.dom[c]&(1<<k) != 0 {
				vs = append(vs, v)
			}
		}
		fmt.Fprintf(&b, "%s = %s\n", ch.Name, strings.Join(vs, "|"))
	}
	return b.String()
}

// Assignment maps every fixed choice to its value's name: the record of a
// complete candidate.
func (d *Domains) Assignment() map[string]string {
	out := map[string]string{}
	for c, ch := range d.sp.Choices {
		if v, ok := d.Fixed(c); ok {
			out[ch.Name] = ch.Values[v]
		}
	}
	return out
}
