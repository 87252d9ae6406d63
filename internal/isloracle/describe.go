package isloracle

import (
	"fmt"
	"slices"
	"strings"

	"nestor/ir"
)

// Model is a program in isl notation, enough to compute its dependences.
type Model struct {
	Params  []string // parameter names, in ir.Program.Params order
	Context string   // "[n] -> { : n >= 0 }": assumptions over Params
	Stmts   []Stmt
}

// Stmt is one statement of a Model.
type Stmt struct {
	Name     string   // tuple name: S0, S1, ...
	Domain   string   // "[n] -> { S0[i, j] : ... }"
	Writes   []string // "[n] -> { S0[i, j] -> A[i, j + 1] }"
	Reads    []string // "[n] -> { S0[i] -> x[] }" for a scalar
	Schedule string   // "[n] -> { S0[i, j] -> [0, i, 0, j, 0] }"
}

// islKeywords are words isl's parser reserves; a name equal to one of them
// is renamed.
var islKeywords = map[string]bool{
	"and": true, "or": true, "not": true, "implies": true, "exists": true,
	"floor": true, "ceil": true, "floord": true, "ceild": true, "mod": true,
	"min": true, "max": true, "infty": true, "NaN": true, "true": true,
	"false": true, "rat": true, "domain": true, "range": true, "cst": true,
}

// Describe returns p in isl notation. p must pass ir.Check.
func Describe(p *ir.Program) Model {
	used := map[string]bool{}
	fresh := func(name, base string) string {
		if name != "" && !islKeywords[name] && !used[name] {
			used[name] = true
			return name
		}
		for k := 0; ; k++ {
			if c := fmt.Sprintf("%s%d", base, k); !used[c] {
				used[c] = true
				return c
			}
		}
	}
	params := make([]string, len(p.Params))
	for k, q := range p.Params {
		params[k] = fresh(q.Name, "p")
	}
	// Tuple names live apart from variable names in isl, but keywords still
	// clash; arrays and statements share one namespace of tuples.
	tuples := map[string]bool{}
	tuple := func(name, base string) string {
		if name != "" && !islKeywords[name] && !tuples[name] {
			tuples[name] = true
			return name
		}
		for k := 0; ; k++ {
			if c := fmt.Sprintf("%s%d", base, k); !tuples[c] {
				tuples[c] = true
				return c
			}
		}
	}
	stmtNames := make([]string, len(p.Stmts))
	for k, s := range p.Stmts {
		stmtNames[k] = tuple(s.Name, "S")
	}
	arrays := make([]string, len(p.Arrays))
	for k, a := range p.Arrays {
		arrays[k] = tuple(a.Name, "A")
	}
	width := 0
	for _, s := range p.Stmts {
		width = max(width, 2*s.Depth()+1)
	}
	pre := "[" + strings.Join(params, ", ") + "] -> "
	m := Model{Params: params, Context: pre + "{ : " + constraints(p.Context, ir.Names{Param: params}) + " }"}
	if len(p.Context) == 0 {
		m.Context = pre + "{ : }"
	}
	for k, s := range p.Stmts {
		iters := stmtIters(s, used)
		n := ir.Names{Iter: iters, Param: params}
		for _, d := range s.Domain.Divs {
			n.Local = append(n.Local, fmt.Sprintf("floor((%s)/%d)", ir.FormatAff(d.Num, n), d.Den))
		}
		inst := fmt.Sprintf("%s[%s]", stmtNames[k], strings.Join(iters, ", "))
		ms := Stmt{Name: stmtNames[k], Domain: pre + "{ " + inst + " }"}
		if len(s.Domain.Cons) > 0 {
			ms.Domain = pre + "{ " + inst + " : " + constraints(s.Domain.Cons, n) + " }"
		}
		for _, a := range s.Accesses {
			sub := make([]string, len(a.Index))
			for j, e := range a.Index {
				sub[j] = ir.FormatAff(e, n)
			}
			rel := fmt.Sprintf("%s{ %s -> %s[%s] }", pre, inst, arrays[a.Array], strings.Join(sub, ", "))
			if a.Write {
				ms.Writes = append(ms.Writes, rel)
			} else {
				ms.Reads = append(ms.Reads, rel)
			}
		}
		sched := make([]string, 0, width)
		for j, it := range iters {
			dim := it
			if s.Dir[j] < 0 {
				dim = "-" + it
			}
			sched = append(sched, fmt.Sprint(s.Beta[j]), dim)
		}
		sched = append(sched, fmt.Sprint(s.Beta[len(iters)]))
		for len(sched) < width {
			sched = append(sched, "0")
		}
		ms.Schedule = fmt.Sprintf("%s{ %s -> [%s] }", pre, inst, strings.Join(sched, ", "))
		m.Stmts = append(m.Stmts, ms)
	}
	return m
}

// stmtIters returns the names under which s's counters print: their own,
// unless one repeats, names a parameter (in used) or is an isl keyword.
func stmtIters(s *ir.Stmt, used map[string]bool) []string {
	iters := slices.Clone(s.Iters)
	ok := true
	for k, it := range iters {
		if it == "" || used[it] || islKeywords[it] || slices.Contains(iters[:k], it) {
			ok = false
		}
	}
	if ok {
		return iters
	}
	for k := range iters {
		name := fmt.Sprintf("i%d", k)
		for used[name] {
			name = "_" + name
		}
		iters[k] = name
	}
	return iters
}

// constraints joins cs with "and".
func constraints(cs []ir.Constraint, n ir.Names) string {
	parts := make([]string, len(cs))
	for k, c := range cs {
		parts[k] = ir.FormatConstraint(c, n)
	}
	return strings.Join(parts, " and ")
}
