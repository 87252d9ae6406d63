// Package assoctables builds small tables of associative operators for
// tests of the code that uses assoc.Recognize (rfactor, pipeline) while
// no generated tables are embedded: a few operators written by hand, each
// proved associative by Z3 when the table is built, with the identity Z3
// synthesizes (or none) and the commutativity it proves.
package assoctables

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// operators are the hand-written entries: the operator, the types it
// is tried on ("int": the integer types, "float": in IEEE arithmetic,
// "real": floats over the reals only), and whether to synthesize an
// identity (none is always a safe answer: each chunk then starts from its
// first element). Queries Z3 cannot answer quickly are left out.
var operators = []struct {
	src, on  string
	identity bool
}{
	{"x + y", "int real", true},
	{"x * y", "int real", true},
	{"min(x, y)", "int float", true},
	{"max(x, y)", "int float", true},
	// argmin and argmax keeping the first index on ties.
	{"{min(x0, y0), select(y0 < x0, y1, x1)}", "int real", false},
	{"{max(x0, y0), select(x0 < y0, y1, x1)}", "int real", false},
	{"{select(y0 < x0, y0, x0), select(y0 < x0, y1, x1)}", "int real", false},
	// Complex multiplication.
	{"{x0*y0 - x1*y1, x0*y1 + x1*y0}", "int real", true},
}

// rlimit bounds each Z3 query in Z3's resource units (about ten times
// what the slowest of these proofs takes).
const rlimit = 60_000_000

// types are the element types the tables cover.
var types = []assoc.Type{assoc.Int32, assoc.Int64, assoc.Float64}

var (
	once   sync.Once
	tables map[assoc.Type]*assoc.Table
	err    error
)

// Tables returns the table of t (empty for the types not covered). It
// fails when z3 is missing.
func Tables(t assoc.Type) (*assoc.Table, error) {
	once.Do(build)
	if err != nil {
		return nil, err
	}
	if tb := tables[t]; tb != nil {
		return tb, nil
	}
	return &assoc.Table{Type: t}, nil
}

func build() {
	tables = map[assoc.Type]*assoc.Table{}
	for _, t := range types {
		tb := &assoc.Table{Type: t}
		done := map[string]bool{}
		for _, real := range []bool{false, true} {
			if real && !t.Float() {
				continue
			}
			p, e := prove.NewProver(prove.Options{Real: real}, 20*time.Second)
			if e != nil {
				err = e
				return
			}
			// The tests that use these tables must not depend on how
			// fast z3 runs: a deterministic resource limit, not the
			// timeout, decides what is proved (issue 14).
			p.SetResourceLimit(rlimit)
			for _, op := range operators {
				mode := "int"
				switch {
				case real:
					mode = "real"
				case t.Float():
					mode = "float"
				}
				if !strings.Contains(op.on, mode) {
					continue
				}
				tp, e := assoc.ParseTuple(op.src, t)
				if e != nil {
					err = fmt.Errorf("assoctables: %s: %v", op.src, e)
					return
				}
				tp = assoc.CanonTuple(tp)
				if done[tp.String()] {
					continue
				}
				if en, ok := proveEntry(p, tp, op.identity); ok {
					en.RealOnly = real
					tb.Entries = append(tb.Entries, en)
					done[tp.String()] = true
				}
			}
			p.Close()
		}
		// Grouped by root operation, fewest leaves first.
		sortEntries(tb.Entries)
		tables[t] = tb
	}
}

// proveEntry returns the entry of tp when Z3 proves it associative.
func proveEntry(p *prove.Prover, tp assoc.Tuple, identity bool) (assoc.Entry, bool) {
	r, e := p.Associative(tp)
	if e != nil || r.Verdict != prove.Proved {
		return assoc.Entry{}, false
	}
	en := assoc.Entry{Operator: assoc.Operator{Tuple: tp}, Proof: "z3 (assoctables)"}
	for _, x := range tp.Elems {
		en.Leaves += x.Leaves()
	}
	if c, e := p.Commutative(tp); e == nil && c.Verdict == prove.Proved {
		en.Commutative = true
	}
	if !identity {
		return en, true
	}
	if id, e := p.Identity(tp, prove.BothSides); e == nil && id.Verdict == prove.Proved {
		en.Identity = id.Identity
	}
	return en, true
}

func sortEntries(es []assoc.Entry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && less(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func less(a, b assoc.Entry) bool {
	if a.Elems[0].Op != b.Elems[0].Op {
		return a.Elems[0].Op < b.Elems[0].Op
	}
	return a.Leaves < b.Leaves
}
