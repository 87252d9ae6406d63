package rfactor

import (
	"fmt"
	"slices"

	"nestor/ir"
)

// Loop is a reduction loop of a program: its level, its statements and
// the update of its reduction variables (see the package doc).
type Loop struct {
	Level int
	Stmts []int // in body order
	// Vars are the reduction variables' elements (Access.Index over the
	// statements' counters, not moving with the loop), x_0, x_1, ...
	Vars []*ir.Access
	// Temps are the private temporaries; LastPrivate says which are read
	// after the loop (or live outside the region).
	Temps       []int
	LastPrivate []bool
	// Update gives, per x_i, its value after one iteration as an ir
	// expression over Load indices i < len(Vars) (x_i before the
	// iteration) and len(Vars)+k (Accesses[k], an input).
	Update   []ir.Expr
	Accesses []*ir.Access
	Pos      string // of the loop's first statement, for notes
}

// Reject says why a loop that updates variables is not a reduction loop.
type Reject struct {
	Level int
	Stmts []int
	Why   string
}

// loopKey identifies the loop at depth level around s: its path and
// counters.
func loopKey(s *ir.Stmt, level int) string {
	return fmt.Sprint(s.Path(level), s.Iters[:level+1])
}

// Find returns the reduction loops of p, and the loops that carry a
// reduction-like update but do not qualify, with the reason. parallel,
// when not nil, reports loop levels already free of carried dependences:
// loops at or inside them need no factoring.
func Find(p *ir.Program, parallel func(level int) bool) ([]*Loop, []Reject) {
	var loops []*Loop
	var rejects []Reject
	seen := map[string]bool{}
	for _, s := range p.Stmts {
		if s.Depth() == 0 {
			continue
		}
		inner := s.Depth() - 1
		key := loopKey(s, inner)
		if seen[key] {
			continue
		}
		seen[key] = true
		group := loopStmts(p, s, inner)
		// The outermost loop that runs only this group and qualifies.
		var found *Loop
		why := ""
		for level := 0; level <= inner && found == nil; level++ {
			if parallelAt(parallel, level) {
				why = ""
				break
			}
			if !slices.Equal(loopStmts(p, s, level), group) {
				continue
			}
			found, why = analyze(p, level, group)
		}
		switch {
		case found != nil:
			loops = append(loops, found)
		case why != "":
			rejects = append(rejects, Reject{Level: inner, Stmts: group, Why: why})
		}
	}
	return loops, rejects
}

// loopStmts returns the statements inside the loop at level around s.
func loopStmts(p *ir.Program, s *ir.Stmt, level int) []int {
	key := loopKey(s, level)
	var group []int
	for k, t := range p.Stmts {
		if t.Depth() > level && loopKey(t, level) == key {
			group = append(group, k)
		}
	}
	return group
}

// parallelAt reports whether the loop at level or one enclosing it is
// parallel: its parallelism is used there already.
func parallelAt(parallel func(int) bool, level int) bool {
	if parallel == nil {
		return false
	}
	for k := 0; k <= level; k++ {
		if parallel(k) {
			return true
		}
	}
	return false
}

// analyze decides whether the loop at level whose statements are group
// is a reduction loop. It returns an empty reason for a loop that is no
// reduction candidate at all (it writes nothing the loop does not move).
func analyze(p *ir.Program, level int, group []int) (*Loop, string) {
	stmts := make([]*ir.Stmt, len(group))
	for k, g := range group {
		stmts[k] = p.Stmts[g]
	}
	first := stmts[0]
	// Every written array's accesses in the group.
	type use struct {
		writes, reads []accRef
	}
	uses := map[int]*use{}
	var order []int
	for k, s := range stmts {
		for a, acc := range s.Accesses {
			u := uses[acc.Array]
			if u == nil {
				u = &use{}
				uses[acc.Array] = u
				order = append(order, acc.Array)
			}
			r := accRef{stmt: k, acc: a}
			if a == 0 {
				u.writes = append(u.writes, r)
			} else {
				u.reads = append(u.reads, r)
			}
		}
	}
	// Is this loop updating something it does not move at all?
	candidate := false
	for _, a := range order {
		u := uses[a]
		if len(u.writes) > 0 && len(u.reads) > 0 && fixed(stmts[u.writes[0].stmt].Accesses[0], level) {
			candidate = true
		}
	}
	if !candidate {
		return nil, ""
	}
	for _, s := range stmts {
		if s.Depth() != first.Depth() || !ir.SameLoops(s, first, s.Depth()) {
			return nil, "its statements are in different loops"
		}
		if !slices.Equal(s.Iters, first.Iters) || !slices.Equal(s.Dir, first.Dir) || !sameDomain(s.Domain, first.Domain) {
			return nil, "its statements run on different iterations"
		}
	}
	l := &Loop{Level: level, Stmts: group, Pos: first.Pos.String()}
	xs := map[int]int{}    // array → x index
	temps := map[int]int{} // array → defining statement (in group order)
	for _, a := range order {
		u := uses[a]
		if len(u.writes) == 0 {
			continue // an input
		}
		arr := p.Arrays[a]
		w := stmts[u.writes[0].stmt].Accesses[0]
		for _, r := range append(append([]accRef(nil), u.writes...), u.reads...) {
			acc := stmts[r.stmt].Accesses[r.acc]
			if !fixed(acc, level) {
				return nil, "" // it writes what moves with the loop: a scan or a recurrence, no reduction
			}
			if !slices.EqualFunc(acc.Index, w.Index, ir.Aff.Equal) {
				return nil, fmt.Sprintf("it accesses several elements of %s", arr.Name)
			}
		}
		if d, ok := temporary(stmts, u.writes, u.reads); ok && arr.Rank() == 0 {
			temps[a] = d
			l.Temps = append(l.Temps, a)
			l.LastPrivate = append(l.LastPrivate, arr.Storage != ir.ScopLocal && !arr.RegionOnly || readOutside(p, a, group))
			continue
		}
		xs[a] = len(l.Vars)
		l.Vars = append(l.Vars, &ir.Access{Array: a, Index: w.Index})
	}
	if len(l.Vars) == 0 {
		return nil, ""
	}
	if err := l.update(p, stmts, xs, temps); err != "" {
		return nil, err
	}
	return l, ""
}

// accRef names access acc of the group's statement stmt.
type accRef struct{ stmt, acc int }

// fixed reports whether an access's subscripts read no counter at level
// or deeper.
func fixed(a *ir.Access, level int) bool {
	for _, x := range a.Index {
		for k := level; k < len(x.Iter); k++ {
			if x.Iter[k] != 0 {
				return false
			}
		}
	}
	return true
}

// sameDomain reports whether two domains have the same locals and
// constraints (as sets of rows).
func sameDomain(a, b ir.Domain) bool {
	if len(a.Divs) != len(b.Divs) || len(a.Cons) != len(b.Cons) {
		return false
	}
	for k := range a.Divs {
		if a.Divs[k].Den != b.Divs[k].Den || !a.Divs[k].Num.Equal(b.Divs[k].Num) {
			return false
		}
	}
	for _, c := range a.Cons {
		if !slices.ContainsFunc(b.Cons, func(d ir.Constraint) bool { return c.Eq == d.Eq && c.Aff.Equal(d.Aff) }) {
			return false
		}
	}
	return true
}

// temporary reports whether a scalar is a private temporary of the
// group: one statement assigns it (plain =, without reading it) and
// every read comes later in the body. It returns the defining statement.
func temporary(stmts []*ir.Stmt, writes, reads []accRef) (int, bool) {
	if len(writes) != 1 {
		return 0, false
	}
	d := writes[0].stmt
	if stmts[d].Op != ir.Assign {
		return 0, false
	}
	for _, r := range reads {
		if r.stmt <= d {
			return 0, false
		}
	}
	return d, true
}

// readOutside reports whether a statement outside group reads array a.
func readOutside(p *ir.Program, a int, group []int) bool {
	for k, s := range p.Stmts {
		if slices.Contains(group, k) {
			continue
		}
		for j, acc := range s.Accesses {
			if j > 0 && acc.Array == a {
				return true
			}
		}
	}
	return false
}

// update runs the group symbolically (see the package doc) and sets
// l.Update and l.Accesses.
func (l *Loop) update(p *ir.Program, stmts []*ir.Stmt, xs, temps map[int]int) string {
	n := len(l.Vars)
	env := map[int]ir.Expr{}
	for a, i := range xs {
		env[a] = &ir.Load{T: p.Arrays[a].Elem, Access: i}
	}
	for _, s := range stmts {
		var bad string
		v := substitute(s.Value(p), func(x *ir.Load) ir.Expr {
			acc := s.Accesses[x.Access]
			if e, ok := env[acc.Array]; ok {
				return e
			}
			if _, ok := temps[acc.Array]; ok {
				bad = "a temporary is read before it is assigned"
				return x
			}
			return &ir.Load{T: x.T, Access: n + l.input(acc)}
		})
		if bad != "" {
			return bad
		}
		env[s.Accesses[0].Array] = v
	}
	l.Update = make([]ir.Expr, n)
	for a, i := range xs {
		l.Update[i] = env[a]
	}
	return ""
}

// input returns the index in l.Accesses of a read of an input, adding it.
func (l *Loop) input(a *ir.Access) int {
	for k, b := range l.Accesses {
		if b.Array == a.Array && slices.EqualFunc(b.Index, a.Index, ir.Aff.Equal) {
			return k
		}
	}
	l.Accesses = append(l.Accesses, &ir.Access{Array: a.Array, Index: a.Index})
	return len(l.Accesses) - 1
}

// substitute returns e with every Load replaced by load(Load); e is not
// modified.
func substitute(e ir.Expr, load func(*ir.Load) ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Load:
		return load(e)
	case *ir.Unary:
		return &ir.Unary{Op: e.Op, X: substitute(e.X, load), T: e.T}
	case *ir.Binary:
		return &ir.Binary{Op: e.Op, X: substitute(e.X, load), Y: substitute(e.Y, load), T: e.T}
	case *ir.Cond:
		return &ir.Cond{C: substitute(e.C, load), X: substitute(e.X, load), Y: substitute(e.Y, load), T: e.T}
	case *ir.Cast:
		return &ir.Cast{T: e.T, X: substitute(e.X, load), Implicit: e.Implicit}
	case *ir.Call:
		args := make([]ir.Expr, len(e.Args))
		for k, a := range e.Args {
			args[k] = substitute(a, load)
		}
		return &ir.Call{Fn: e.Fn, Args: args, T: e.T}
	}
	return e
}
