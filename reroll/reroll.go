package reroll

import (
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"nestor/ir"
)

// Group is one rerolled run: Count copies of a body of len(Body)
// statements, which became a loop.
type Group struct {
	Pos   token.Position // the first statement of the run
	Iter  string         // the new loop's counter, 0 ≤ Iter ≤ Count-1
	Count int            // iterations of the new loop: copies in the run, at least 2
	// Beta is the new loop's position right after this reroll: the
	// common beta prefix of its statements (one entry per enclosing loop,
	// and the loop's position among its siblings). A later group may
	// move it, or roll its body further.
	Beta []int
	// Stmts names the run's statements in order, Count × len(Body) of
	// them; Body names the new loop's statements (those of the first
	// copy), as rerolled by this group.
	Stmts []string
	Body  []string
}

// String describes g for a note: "S1 S2 S3 S4 (4 copies of 1 statement)
// became loop u".
func (g Group) String() string {
	return fmt.Sprintf("%s (%d copies of %d statement%s) became loop %s",
		strings.Join(g.Stmts, " "), g.Count, len(g.Body), plural(len(g.Body)), g.Iter)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Reroll returns p with every run of isomorphic statement copies replaced
// by a loop (see the package documentation), and the runs it rerolled, in
// the order it rerolled them. p is not modified; the result shares the
// statements it leaves unchanged. An error is an internal one: the result
// failed ir.Check.
func Reroll(p *ir.Program) (*ir.Program, []Group, error) {
	q := &ir.Program{Params: p.Params, Arrays: p.Arrays, Stmts: slices.Clone(p.Stmts), Context: p.Context, Vars: p.Vars, Voided: p.Voided}
	var groups []Group
	// Each reroll replaces at least two statements by fewer: this ends.
	for {
		r, ok := findRun(q)
		if !ok {
			break
		}
		groups = append(groups, apply(q, r))
	}
	if len(groups) == 0 {
		return p, nil, nil
	}
	if err := ir.Check(q); err != nil {
		return nil, nil, fmt.Errorf("reroll: the rerolled program is invalid: %w", err)
	}
	return q, groups, nil
}

// run is a run of copies found in a program: count·period consecutive
// children of the loop (or region) whose statements share the beta
// prefix parent, all of them statements of depth len(parent).
type run struct {
	parent []int
	stmts  []int // indices into Program.Stmts, in order
	count  int   // copies
	period int   // statements per copy
	forms  []*form
}

// findRun returns the run to reroll first: among the runs of sibling
// statements under the first parent (in statement order) that has one,
// the one with the most copies, then the one that covers the most
// statements, then the earliest, then the one with the shortest body.
// Copies first: any two pairs of isomorphic statements are two copies of
// a body of two, but y[i], y[i+2], y[i+3], y[i+4] is y[i] and three
// copies of one statement, not two copies of the pairs (y[i], y[i+3]) and
// (y[i+2], y[i+4]).
func findRun(p *ir.Program) (run, bool) {
	seen := map[string]bool{}
	for _, s := range p.Stmts {
		parent := s.Path(s.Depth() - 1)
		key := fmt.Sprint(parent)
		if seen[key] {
			continue
		}
		seen[key] = true
		if r, ok := bestRun(p, parent); ok {
			return r, true
		}
	}
	return run{}, false
}

// children returns the children of the loop (or region) named by parent,
// in order: the index of the statement for a statement child, -1 for a
// loop.
func children(p *ir.Program, parent []int) []int {
	var out []int
	for _, c := range p.ChildrenOf(parent) {
		out = append(out, c.Stmt)
	}
	return out
}

// bestRun returns the best run among the children of parent.
func bestRun(p *ir.Program, parent []int) (run, bool) {
	cs := children(p, parent)
	forms := make([]*form, len(cs))
	for k, c := range cs {
		if c >= 0 {
			forms[k] = newForm(p.Stmts[c])
		}
	}
	var best run
	for start := range cs {
		// (len(cs)-start)/period copies at most: stop where that cannot
		// beat the best run.
		for period := 1; start+2*period <= len(cs) && (len(cs)-start)/period >= best.count; period++ {
			count := copies(forms[start:], period)
			if count < 2 || count < best.count || count == best.count && count*period <= len(best.stmts) {
				continue
			}
			n := count * period
			best = run{parent: parent, stmts: cs[start : start+n], count: count, period: period, forms: forms[start : start+n]}
		}
	}
	return best, best.count > 0
}

// copies returns how many copies of the body fs[:period] start fs: each
// statement of a copy has the key of the body's statement at the same
// place, and every slot and float literal of the statements at one place
// follows one progression across the copies (statements only: a nil form
// is a loop, which ends the run).
func copies(fs []*form, period int) int {
	if len(fs) < 2*period {
		return 0
	}
	for t := range period {
		if f0, f1 := fs[t], fs[period+t]; f0 == nil || f1 == nil || f0.key != f1.key {
			return 0
		}
	}
	gs := make([]*progression, period)
	for t := range period {
		f0, f1 := fs[t], fs[period+t]
		var ok bool
		if gs[t], ok = newProgression(f0, f1); !ok {
			return 0
		}
	}
	n := 2
	for ; (n+1)*period <= len(fs); n++ {
		for t, g := range gs {
			f := fs[n*period+t]
			if f == nil || f.key != fs[t].key || !g.add(f) {
				return n
			}
		}
	}
	return n
}

// apply replaces run r of p by its loop and returns its description.
func apply(p *ir.Program, r run) Group {
	first := p.Stmts[r.stmts[0]]
	pos := first.PosIn(r.parent)
	iter := counterName(p, first)
	g := Group{Pos: first.Pos, Iter: iter, Count: r.count, Beta: ir.Place(r.parent, pos)}
	for _, k := range r.stmts {
		g.Stmts = append(g.Stmts, p.Stmts[k].Name)
	}
	rolled := make([]*ir.Stmt, r.period)
	for t := range r.period {
		class := make([]*form, r.count)
		for u := range r.count {
			class[u] = r.forms[u*r.period+t]
		}
		prog, _ := follow(class)
		beta := ir.Place(g.Beta, t)
		rolled[t] = roll(p, p.Stmts[r.stmts[t]], iter, int64(r.count), beta, prog.rs, prog.fl)
		g.Body = append(g.Body, rolled[t].Name)
	}
	// The siblings after the run move up: the loop takes one position
	// where the run took count·period.
	last := p.Stmts[r.stmts[len(r.stmts)-1]].PosIn(r.parent)
	shift := len(r.stmts) - 1
	gone := map[int]bool{}
	for _, k := range r.stmts {
		gone[k] = true
	}
	var out []*ir.Stmt
	for k, s := range p.Stmts {
		switch {
		case k == r.stmts[0]:
			out = append(out, rolled...)
		case gone[k]:
		case s.In(r.parent) && s.PosIn(r.parent) > last:
			out = append(out, s.Moved(r.parent, -shift))
		default:
			out = append(out, s)
		}
	}
	p.Stmts = out
	return g
}

// counterName returns a name for a new loop counter inside the loops of
// s that no enclosing loop, parameter, array or variable of p uses: u,
// then u1, u2, ... (other loops may use the same name: the new loop sees
// only its own and those around it).
func counterName(p *ir.Program, s *ir.Stmt) string {
	used := p.Names()
	for _, it := range s.Iters {
		used[it] = true
	}
	name := "u"
	for k := 1; used[name]; k++ {
		name = "u" + strconv.Itoa(k)
	}
	return name
}
