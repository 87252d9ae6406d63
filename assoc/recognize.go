package assoc

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
)

// Recognition of a reduction's associative operator (the paper's
// "Subgraph Decomposition" and "Algorithm Summary").
//
// The update of a reduction is a tuple: element i is the new value of
// partial result x_i, an expression in the partial results x_j, named
// values of the program (the input element, the reduction variables,
// loop-invariant values) and literals. Recognize finds an associative
// operator f and, per element, the value y_i folded in by one iteration,
// such that the update is f(x, y):
//
//  1. Each element is made canonical (Canon), and a select that applies
//     the same operation to the partial result in both branches, or in
//     one branch only, takes the operation out: select(c, x + 1, x) is
//     x + select(c, 1, 0) (exact: 0 is the right identity of +).
//  2. The dependency graph has an edge i → j where element i reads x_j;
//     the subgraph of element i is the set of elements it reaches. The
//     initial subgraphs are those not contained in another: duplicating
//     the elements they share makes them independent reductions.
//  3. Groupings of the initial subgraphs are tried, the initial one
//     first, then those merging subgraphs that read a common variable of
//     the program (a dependency through y only: the 2×2 matrix product
//     written as a 4-tuple reads x0, x1 in elements 0 and 1 and x2, x3 in
//     2 and 3, and needs all four together), each group no larger than
//     the largest entry of the tables.
//  4. Each group is matched against the sub-table of its elements' roots
//     (match.go), in table order (fewest leaves first), with every
//     assignment of the group's elements to the entry's elements.
//  5. An element in several groups must get the same operator and the
//     same y from each. The composite operator is then associative: each
//     group's operator is its restriction to the group's elements.
//
// The composite's identity is the groups' identities where every group
// has one and the groups sharing an element agree on it; it is nil
// otherwise (then each partial result starts from its chunk's first
// element). It is commutative exactly when every group's operator is:
// a group's operator is the composite's projection on the group.
//
// An element that reads no partial result is an assignment, f(x, y) = y
// (the last value wins: associative, not commutative, no identity); one
// that is its own partial result keeps it, f(x, y) = x.
//
// Elements of a type other than the table's may only meet elements that
// carry values (entryIndex.carried): argmin over float32 values with an
// int32 index matches the float32 argmin, whose index element only
// selects between x_1 and y_1, whatever their type.

// MatchOptions are the semantics of the program and where the tables
// come from.
type MatchOptions struct {
	// Wrap: signed int32 and int64 arithmetic wraps (-fwrapv). Only
	// entries proved associative with wrapping (Entry.Wraps) are used for
	// those types, and a commutativity or identity that random values
	// refute with wrapping is withdrawn (see wrapCheck).
	Wrap bool
	// Real: floats may be reassociated (-fassociative-math): entries
	// proved over the reals only are used.
	Real bool
	// Invariant reports which named values do not change during the
	// reduction: only those (and literals) may bind the constant k of an
	// entry. Nil: none does.
	Invariant func(name string) bool
	// Tables returns the table of a type; nil means the embedded tables.
	Tables func(Type) (*Table, error)
	// Synthesize solves for the input map y where no entry meets the
	// update literally (synth.go): x - in is x + y with y = 0 - in. Off by
	// default (the literal forms only); package rfactor and nestor assoc
	// match turn it on.
	Synthesize bool
}

// Match is a recognized reduction.
type Match struct {
	// Operator is the composite operator over the update's elements, in
	// their order: element i is the new x_i, an expression in x_j, y_j
	// and loop-invariant named values (an entry's k bound to the
	// program's value). Its Identity may read the invariant values too.
	Operator
	// Y gives per element the value folded in by one iteration: the
	// update is Operator applied to x and Y.
	Y []*Expr
	// Update is the canonical update that was matched.
	Update Tuple
	// Parts says which table entry matched which elements.
	Parts []Part
}

// Part is one group of the update's elements and what matched it.
type Part struct {
	// Elements[p] is the update's element that entry element p met.
	Elements []int
	// Entry is the table entry, nil for a built-in operator.
	Entry *Entry
	// Type is the table's type.
	Type Type
	// K gives the program's value bound to each k_i of the entry.
	K []*Expr
	// Builtin names a built-in operator: "assignment" (f(x, y) = y) or
	// "keep" (f(x, y) = x).
	Builtin string
}

// MatchError says why an update was not recognized.
type MatchError struct {
	// Elements are the update's elements that failed to match (the first
	// such group).
	Elements []int
	// Operator writes those elements as an operator in x and y, where
	// the program's values could be abstracted into y, else as the
	// canonical update.
	Operator string
	// NotAssociative reports that Operator is refuted: Reason then gives
	// the counterexample.
	NotAssociative bool
	Reason         string
}

func (e *MatchError) Error() string {
	if e.NotAssociative {
		return fmt.Sprintf("assoc: %s: not associative (%s)", e.Operator, e.Reason)
	}
	return fmt.Sprintf("assoc: not recognized: %s: %s", e.Operator, e.Reason)
}

// defaultTables is the source of tables when MatchOptions.Tables is nil.
var defaultTables = embeddedSmall

// maxPartitions bounds the groupings of initial subgraphs tried.
const maxPartitions = 4096

// maxPartitionSteps bounds the steps of the search for those groupings
// (a deterministic count, so the same update always gets the same
// answer): past it the groupings found so far are all that are tried.
const maxPartitionSteps = 1 << 20

// Recognize finds the associative operator of a reduction's update (see
// above). update's x_i are the partial results; its y_j and k_i, if any,
// are read as named values "y", "y1", …, "k", "k1", … (the y varying, the
// k invariant).
func Recognize(update Tuple, opts MatchOptions) (*Match, error) {
	m, r, err := recognizeTables(update, opts)
	if err == nil {
		return m, nil
	}
	var me *MatchError
	if !errors.As(err, &me) {
		return nil, err
	}
	// An unsigned update of the ring's operations alone computes the
	// bits the signed one of its width computes with wrapping: the signed
	// tables' operators proved with wrapping hold for it too.
	if signed, ok := ringSigned(update); ok {
		wrap := opts
		wrap.Wrap = true
		if m2, _, _ := recognizeTables(signed, wrap); m2 != nil {
			return m2.retyped(unsignedOf), nil
		}
	}
	// Only the refusal the caller sees gets the closure test: it costs
	// milliseconds, most for an associative update, whose closure it
	// exhausts, and one the larger operators recognize must not pay it.
	// (Run before them, as it was, it refused as not associative six
	// int32 updates that int32.more holds, proved: its proof at 8 bits is
	// no proof for a wider type.)
	if na := r.notAssociative(me); na != nil {
		return nil, na
	}
	return nil, err
}

// recognizeTables is Recognize without the closure test of a refusal:
// the update, then its conditions split (|| and &&), then the shipped
// tables' larger operators. A refusal is the first try's.
func recognizeTables(update Tuple, opts MatchOptions) (*Match, *recognizer, error) {
	m, r, err := recognize(update, opts)
	if err == nil {
		return m, r, nil
	}
	var me *MatchError
	if !errors.As(err, &me) {
		return nil, r, err
	}
	// Conditions written with || and && (argmin's ties, a < m || a == m
	// && i < k) become nested selects, the form of the tables: a second
	// try, so that an update the first recognizes keeps its operator.
	split, isSplit := splitConditionsTuple(update)
	if isSplit {
		if m2, r2, _ := recognize(split, opts); m2 != nil {
			return m2, r2, nil
		}
	}
	// The shipped tables' larger operators, loaded only now.
	if opts.Tables == nil && hasMore(update) {
		all := opts
		all.Tables = embeddedMore
		if m2, r2, _ := recognize(update, all); m2 != nil {
			return m2, r2, nil
		}
		if isSplit {
			if m2, r2, _ := recognize(split, all); m2 != nil {
				return m2, r2, nil
			}
		}
	}
	return nil, r, err
}

// ringOps are the operations that compute the same bits on signed
// integers with wrapping as on the unsigned ones of their width.
var ringOps = map[Op]bool{OpX: true, OpY: true, OpK: true, OpConst: true, OpVar: true, OpNeg: true, OpAdd: true, OpSub: true, OpMul: true}

// signedOf maps uint32 and uint64 to int32 and int64 (false for every
// other type); unsignedOf maps int32 and int64 back, and every other type
// to itself.
func signedOf(t Type) (Type, bool) {
	switch t {
	case Uint32:
		return Int32, true
	case Uint64:
		return Int64, true
	}
	return t, false
}

func unsignedOf(t Type) Type {
	switch t {
	case Int32:
		return Uint32
	case Int64:
		return Uint64
	}
	return t
}

// ringSigned returns update over uint32 or uint64 as the same update over
// int32 or int64, when it uses only the ring's operations (ringOps).
func ringSigned(update Tuple) (Tuple, bool) {
	ok := true
	for _, e := range update.Elems {
		e.Walk(func(x *Expr) bool {
			_, unsigned := signedOf(x.Type)
			ok = ok && ringOps[x.Op] && unsigned
			return ok
		})
	}
	if !ok {
		return Tuple{}, false
	}
	return retypeTuple(update, func(t Type) Type { s, _ := signedOf(t); return s }), true
}

// retype returns a copy of e with every node's type mapped by f (the
// values keep their bits: the widths are the same).
func retype(e *Expr, f func(Type) Type) *Expr {
	if e == nil {
		return nil
	}
	c := e.Clone()
	c.Walk(func(x *Expr) bool { x.Type = f(x.Type); return true })
	return c
}

func retypeTuple(tp Tuple, f func(Type) Type) Tuple {
	out := Tuple{Elems: make([]*Expr, len(tp.Elems))}
	for i, e := range tp.Elems {
		out.Elems[i] = retype(e, f)
	}
	return out
}

func retypeAll(es []*Expr, f func(Type) Type) []*Expr {
	if es == nil {
		return nil
	}
	out := make([]*Expr, len(es))
	for i, e := range es {
		out[i] = retype(e, f)
	}
	return out
}

// retyped returns m with its expressions' types mapped by f (a match of
// ringSigned's update, back in the unsigned types); its parts keep the
// signed entries that matched.
func (m *Match) retyped(f func(Type) Type) *Match {
	out := *m
	out.Operator.Tuple = retypeTuple(m.Operator.Tuple, f)
	out.Identity = retypeAll(m.Identity, f)
	out.Y = retypeAll(m.Y, f)
	out.Update = retypeTuple(m.Update, f)
	out.Parts = make([]Part, len(m.Parts))
	for i, p := range m.Parts {
		out.Parts[i] = p
		out.Parts[i].K = retypeAll(p.K, f)
	}
	return &out
}

// hasMore reports whether a type of update has larger operators shipped
// apart (EmbeddedMore).
func hasMore(update Tuple) bool {
	for _, e := range update.Elems {
		if e.Type < numTypes {
			if _, err := fs.Stat(tableFiles, "tables/"+e.Type.String()+".more.bin"); err == nil {
				return true
			}
		}
	}
	return false
}

// splitConditionsTuple applies splitConditions to every element.
func splitConditionsTuple(tp Tuple) (Tuple, bool) {
	out := Tuple{Elems: make([]*Expr, len(tp.Elems))}
	changed := false
	for i, e := range tp.Elems {
		c, ok := splitConditions(e)
		out.Elems[i], changed = c, changed || ok
	}
	return out, changed
}

// splitConditions rewrites the selects of e whose condition is a
// disjunction or a conjunction into nested selects, which C evaluates
// alike (the second operand only where the first does not decide):
//
//	select(p || q, u, v) = select(p, u, select(q, u, v))
//	select(p && q, u, v) = select(p, select(q, u, v), v)
//	select(!p, u, v)     = select(p, v, u)
//
// It reports whether it changed anything.
func splitConditions(e *Expr) (*Expr, bool) {
	if len(e.Args) == 0 {
		return e, false
	}
	c := *e
	c.Args = make([]*Expr, len(e.Args))
	changed := false
	for i, a := range e.Args {
		var ok bool
		c.Args[i], ok = splitConditions(a)
		changed = changed || ok
	}
	if c.Op != OpSelect {
		return &c, changed
	}
	cond, u, v := c.Args[0], c.Args[1], c.Args[2]
	switch cond.Op {
	case OpOr:
		r, _ := splitConditions(Apply(OpSelect, cond.Args[0], u, Apply(OpSelect, cond.Args[1], u, v)))
		return r, true
	case OpAnd:
		r, _ := splitConditions(Apply(OpSelect, cond.Args[0], Apply(OpSelect, cond.Args[1], u, v), v))
		return r, true
	case OpNot:
		r, _ := splitConditions(Apply(OpSelect, cond.Args[0], v, u))
		return r, true
	}
	return &c, changed
}

// recognize matches update against opts's tables. A refusal has not had
// the closure test: the recognizer returned with it runs it
// (recognizer.notAssociative).
func recognize(update Tuple, opts MatchOptions) (*Match, *recognizer, error) {
	n := len(update.Elems)
	if n == 0 || n > maxElems {
		return nil, nil, fmt.Errorf("assoc: an update of %d elements (want 1 to %d)", n, maxElems)
	}
	r := &recognizer{opts: opts, n: n, types: make([]Type, n)}
	if r.opts.Tables == nil {
		r.opts.Tables = defaultTables
	}
	invariant := opts.Invariant
	var constants []string // the names of the update's k_i
	r.invariant = func(name string) bool {
		return invariant != nil && invariant(name) || slices.Contains(constants, name)
	}
	r.update.Elems = make([]*Expr, n)
	r.subj = make([]*snode, n)
	r.xLeaves = make([]int, n)
	for i, e := range update.Elems {
		r.types[i] = e.Type
	}
	for i, e := range update.Elems {
		if err := r.checkLeaves(e); err != nil {
			return nil, nil, err
		}
		c := Canon(renameWildcards(e, n, &constants))
		if l, ok := liftSelects(c); ok {
			c = Canon(l)
		}
		if opts.Real && opts.Synthesize {
			if l, ok := realMinMax(c); ok {
				c = Canon(l)
			}
		}
		r.update.Elems[i] = c
		r.subj[i] = subject(c, r.invariant)
		r.xLeaves[i] = xLeaves(r.subj[i])
	}
	m, err := r.recognize()
	return m, r, err
}

type recognizer struct {
	opts      MatchOptions
	invariant func(string) bool
	n         int
	types     []Type
	update    Tuple
	subj      []*snode
	xLeaves   []int // per element, its x leaves
	cache     map[uint32]*groupResult
	m         matcher
}

// groupResult is the outcome of matching one group of elements.
type groupResult struct {
	part Part
	// elems and ident give, per element of the update (nil outside the
	// group), the composite operator and the identity (nil: none).
	elems, ident, y []*Expr
	commutative     bool
	hasIdentity     bool
	err             *MatchError
}

func (r *recognizer) checkLeaves(e *Expr) error {
	var err error
	e.Walk(func(x *Expr) bool {
		if x.Op == OpX && err == nil {
			switch {
			case x.Index < 0 || x.Index >= r.n:
				err = fmt.Errorf("assoc: x%d in an update of %d elements", x.Index, r.n)
			case x.Type != r.types[x.Index]:
				err = fmt.Errorf("assoc: x%d of type %v, element %d is %v", x.Index, x.Type, x.Index, r.types[x.Index])
			}
		}
		return err == nil
	})
	return err
}

// renameWildcards returns e, an element of an n-tuple, with y_j and k_i
// read as named values y (y0, y1, … when n > 1), k, k1, … (the names of
// the k added to constants); e itself when it has none.
func renameWildcards(e *Expr, n int, constants *[]string) *Expr {
	if !e.Uses(OpY) && !e.Uses(OpK) {
		return e
	}
	var re func(e *Expr) *Expr
	re = func(e *Expr) *Expr {
		switch e.Op {
		case OpY:
			if n > 1 {
				return Var(fmt.Sprint("y", e.Index), e.Type)
			}
			return Var(wildName("y", e.Index), e.Type)
		case OpK:
			name := wildName("k", e.Index)
			if !slices.Contains(*constants, name) {
				*constants = append(*constants, name)
			}
			return Var(name, e.Type)
		}
		c := *e
		c.Args = make([]*Expr, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = re(a)
		}
		return &c
	}
	return re(e)
}

func wildName(s string, i int) string {
	if i == 0 {
		return s
	}
	return fmt.Sprint(s, i)
}

func (r *recognizer) recognize() (*Match, error) {
	n := r.n
	// The dependency graph and the subgraph reachable from each element.
	reach := make([]uint32, n)
	for i := range n {
		reach[i] = 1<<uint(i) | r.subj[i].xs
	}
	for changed := true; changed; {
		changed = false
		for i := range n {
			m := reach[i]
			for j := range n {
				if m&(1<<uint(j)) != 0 {
					m |= reach[j]
				}
			}
			if m != reach[i] {
				reach[i], changed = m, true
			}
		}
	}
	var initial []uint32
	for i := range n {
		contained := false
		for j := range n {
			if j != i && reach[i]&reach[j] == reach[i] && (reach[i] != reach[j] || j < i) {
				contained = true
				break
			}
		}
		if !contained {
			initial = append(initial, reach[i])
		}
	}
	// The initial grouping first.
	var firstErr *MatchError
	if m, err := r.tryGrouping(initial, nil); m != nil || err != nil {
		if m != nil {
			return m, nil
		}
		firstErr = err
	}
	if len(initial) > 1 {
		maxSize := r.maxTupleSize()
		shares := r.sharing(initial)
		tried := 0
		for _, part := range partitions(initial, maxSize, shares) {
			if tried++; tried > maxPartitions {
				break
			}
			if m, _ := r.tryGrouping(initial, part); m != nil {
				return m, nil
			}
		}
	}
	if firstErr == nil {
		firstErr = &MatchError{Operator: r.update.String(), Reason: "no consistent grouping of its elements matches the tables"}
	}
	return nil, firstErr
}

// notAssociative runs the closure test (closure.go) on the elements that
// the refusal err of r.recognize names, when they are one, and returns
// the refusal that says the update is not associative, nil when the test
// does not prove it. Only the refusal the caller sees gets it (failed
// groups of the grouping search do not: it costs milliseconds).
func (r *recognizer) notAssociative(err *MatchError) *MatchError {
	if r != nil && len(err.Elements) == 1 {
		i := err.Elements[0]
		if proof, ok := r.closureProof(i); ok {
			if t := r.update.Elems[i].Type; t != Bool && t != Int8 && t != Uint8 {
				// The 8-bit closure is no proof for a wider type: the
				// wider maps' compositions may number up to its own
				// count of values, whatever the 8-bit ones do (and an
				// update with min or a comparison is another function at
				// 8 bits). Evidence, said as such.
				return &MatchError{Elements: err.Elements, Operator: err.Operator,
					Reason: err.Reason + fmt.Sprintf("; %s: at 8 bits only, which for %v is evidence, not a proof", proof, t)}
			}
			return &MatchError{Elements: err.Elements, Operator: r.update.Elems[i].String(), NotAssociative: true, Reason: proof}
		}
	}
	return nil
}

// tryGrouping matches the groups of the initial subgraphs that part
// gives (part[i] is the group of initial[i]; nil: each alone) and
// combines them. It returns the match, or the first failure.
func (r *recognizer) tryGrouping(initial []uint32, part []int) (*Match, *MatchError) {
	var groups []uint32
	if part == nil {
		groups = initial
	} else {
		groups = make([]uint32, slices.Max(part)+1)
		for i, g := range part {
			groups[g] |= initial[i]
		}
	}
	results := make([]*groupResult, len(groups))
	for i, g := range groups {
		res := r.group(g)
		if res.err != nil {
			return nil, res.err
		}
		results[i] = res
	}
	return r.combine(results)
}

// combine checks that groups sharing an element agree on it and builds
// the composite.
func (r *recognizer) combine(results []*groupResult) (*Match, *MatchError) {
	n := r.n
	m := &Match{Update: r.update, Y: make([]*Expr, n)}
	m.Elems = make([]*Expr, n)
	ident := make([]*Expr, n)
	hasIdentity, comm := true, true
	for _, res := range results {
		for i := range n {
			e := res.elems[i]
			if e == nil {
				continue
			}
			if m.Elems[i] == nil {
				m.Elems[i], m.Y[i], ident[i] = e, res.y[i], res.ident[i]
				continue
			}
			if !m.Elems[i].Equal(e) || !m.Y[i].Equal(res.y[i]) {
				return nil, &MatchError{Elements: []int{i}, Operator: r.update.String(),
					Reason: fmt.Sprintf("element %d matches %v with y%d = %v in one group and %v with y%d = %v in another",
						i, m.Elems[i], i, m.Y[i], e, i, res.y[i])}
			}
			if ident[i] != nil && res.ident[i] != nil && !ident[i].Equal(res.ident[i]) {
				hasIdentity = false // the groups disagree: no identity claimed
			}
		}
		hasIdentity = hasIdentity && res.hasIdentity
		comm = comm && res.commutative
		m.Parts = append(m.Parts, res.part)
	}
	if hasIdentity && r.opts.Real && !realIdentity(ident) {
		// An IEEE entry's NaN or infinite identity names no real
		// number: where floats are read as reals, claim none.
		hasIdentity = false
	}
	if hasIdentity {
		m.Identity = ident
	}
	m.Commutative = comm
	return m, nil
}

// maxTupleSize returns the size of the largest entry among the tables of
// the update's types.
func (r *recognizer) maxTupleSize() int {
	size := 1
	for _, t := range r.distinctTypes(1<<uint(r.n) - 1) {
		if tb, err := r.opts.Tables(t); err == nil && tb != nil {
			size = max(size, indexOf(tb).maxSize)
		}
	}
	return size
}

// sharing returns, per initial subgraph, the set of subgraphs it shares a
// varying named value with.
func (r *recognizer) sharing(initial []uint32) []uint32 {
	names := make([][]string, len(initial))
	for i, g := range initial {
		for j := range r.n {
			if g&(1<<uint(j)) != 0 {
				r.update.Elems[j].Walk(func(x *Expr) bool {
					if x.Op == OpVar && !r.invariant(x.Name) && !slices.Contains(names[i], x.Name) {
						names[i] = append(names[i], x.Name)
					}
					return true
				})
			}
		}
	}
	out := make([]uint32, len(initial))
	for i := range initial {
		for j := range initial {
			if i != j && slices.ContainsFunc(names[i], func(s string) bool { return slices.Contains(names[j], s) }) {
				out[i] |= 1 << uint(j)
			}
		}
	}
	return out
}

// partitions returns the groupings of the initial subgraphs other than
// the initial one, fewest merges first: each group's elements number at
// most maxSize, and a group of several subgraphs is connected by shared
// values. part[i] is the group of subgraph i.
func partitions(initial []uint32, maxSize int, shares []uint32) [][]int {
	out, _ := searchPartitions(initial, maxSize, shares)
	return out
}

// searchPartitions is partitions, and the steps its search took.
func searchPartitions(initial []uint32, maxSize int, shares []uint32) ([][]int, int) {
	t := len(initial)
	var out [][]int
	cur := make([]int, t)
	var unions []uint32
	var groups []uint32 // the subgraph indices of each group
	steps := 0
	var rec func(i int)
	rec = func(i int) {
		if steps++; len(out) >= maxPartitions || steps > maxPartitionSteps {
			return
		}
		// A group that subgraphs still to place cannot connect is a
		// dead end: without this the search visits every grouping of
		// many unrelated updates (an unrolled loop's accumulators).
		future := uint32(1)<<uint(t) - uint32(1)<<uint(i)
		for _, m := range groups {
			if m&(m-1) != 0 && !connectedVia(m, future, shares) {
				return
			}
		}
		if i == t {
			if len(unions) == t {
				return // the initial grouping
			}
			for g := range unions {
				var members uint32
				for j := range t {
					if cur[j] == g {
						members |= 1 << uint(j)
					}
				}
				if !connected(members, shares) {
					return
				}
			}
			out = append(out, slices.Clone(cur))
			return
		}
		for g := range unions {
			u := unions[g] | initial[i]
			if bits.OnesCount32(u) > maxSize {
				continue
			}
			old := unions[g]
			unions[g], cur[i] = u, g
			groups[g] |= 1 << uint(i)
			rec(i + 1)
			groups[g] &^= 1 << uint(i)
			unions[g] = old
		}
		if bits.OnesCount32(initial[i]) <= maxSize {
			unions = append(unions, initial[i])
			groups = append(groups, 1<<uint(i))
			cur[i] = len(unions) - 1
			rec(i + 1)
			unions = unions[:len(unions)-1]
			groups = groups[:len(groups)-1]
		}
	}
	rec(0)
	slices.SortStableFunc(out, func(a, b []int) int { return slices.Max(b) - slices.Max(a) })
	return out, steps
}

// connected reports whether the subgraphs in members are connected by
// shares.
func connected(members uint32, shares []uint32) bool {
	return connectedVia(members, 0, shares)
}

// connectedVia reports whether the subgraphs in members are connected by
// shares through paths that may also pass through the subgraphs in via.
func connectedVia(members, via uint32, shares []uint32) bool {
	if members == 0 {
		return true
	}
	allowed := members | via
	seen := members & -members
	for {
		next := seen
		for j := range shares {
			if seen&(1<<uint(j)) != 0 {
				next |= shares[j] & allowed
			}
		}
		if next == seen {
			return seen&members == members
		}
		seen = next
	}
}

// distinctTypes returns the types of the elements in mask, in element
// order.
func (r *recognizer) distinctTypes(mask uint32) []Type {
	var ts []Type
	for i := range r.n {
		if mask&(1<<uint(i)) != 0 && !slices.Contains(ts, r.types[i]) {
			ts = append(ts, r.types[i])
		}
	}
	return ts
}

// group matches the elements in mask as one tuple, once per mask.
func (r *recognizer) group(mask uint32) *groupResult {
	if res, ok := r.cache[mask]; ok {
		return res
	}
	res := r.matchGroup(mask)
	if r.cache == nil {
		r.cache = map[uint32]*groupResult{}
	}
	r.cache[mask] = res
	return res
}

func (r *recognizer) matchGroup(mask uint32) *groupResult {
	var elems []int
	for i := range r.n {
		if mask&(1<<uint(i)) != 0 {
			elems = append(elems, i)
		}
	}
	if len(elems) == 1 {
		if res := r.builtin(elems[0]); res != nil {
			return res
		}
	}
	roots := make([]Op, len(elems))
	for p, i := range elems {
		roots[p] = r.subj[i].op
	}
	key := rootKey(roots)
	var realOnly *Entry
	tried := 0
	var tableErr error
	for _, t := range r.distinctTypes(mask) {
		tb, err := r.opts.Tables(t)
		if err != nil || tb == nil {
			if tableErr == nil {
				tableErr = err
			}
			continue
		}
		for _, ei := range indexOf(tb).list(key) {
			if ei.entry.RealOnly && !r.opts.Real {
				if realOnly == nil && r.tryEntry(ei, t, elems) {
					realOnly = ei.entry
				}
				continue
			}
			var wc wrapCheck
			if r.opts.Wrap && (t == Int32 || t == Int64) {
				if !ei.entry.Wraps {
					continue
				}
				wc = checkWrap(ei.entry)
			}
			tried++
			if r.tryEntry(ei, t, elems) {
				res := r.result(ei, t, elems)
				if wc.refutedComm {
					res.commutative = false
				}
				if wc.refutedIdentity {
					res.hasIdentity = false
				}
				return res
			}
		}
	}
	if r.opts.Synthesize {
		if res := r.synthesize(elems); res != nil {
			return res
		}
		if realOnly == nil && !r.opts.Real && slices.ContainsFunc(elems, func(i int) bool { return r.types[i].Float() }) {
			// Would it be recognized over the reals? Then say so.
			r.opts.Real = true
			res := r.synthesize(elems)
			r.opts.Real = false
			if res != nil && res.part.Entry != nil {
				realOnly = res.part.Entry
			}
		}
	}
	return &groupResult{err: r.failure(elems, roots, tried, realOnly, tableErr)}
}

// wrapCheck is what random testing says of an int32 or int64 entry when
// signed arithmetic wraps. The tables prove those types assuming it never
// overflows, and prove associativity with wrapping too (Entry.Wraps: under
// which max(x1, x0 + y1) of the maximum prefix sum is not associative),
// but commutativity and the identity without wrapping only: a
// counterexample with wrapping withdraws them (a sound direction; the
// random search may miss one).
type wrapCheck struct {
	refutedComm     bool // a counterexample to commutativity with wrapping
	refutedIdentity bool // a counterexample to the identity with wrapping
}

var wrapChecks sync.Map // *Entry → wrapCheck

// wrapSamples is the number of random draws of each wrapping check.
const wrapSamples = 400

func checkWrap(en *Entry) wrapCheck {
	if v, ok := wrapChecks.Load(en); ok {
		return v.(wrapCheck)
	}
	rng := newRand()
	tp := en.Tuple
	var wc wrapCheck
	n := len(tp.Elems)
	a, b := make([]Value, n), make([]Value, n)
	k := make([]Value, len(tp.ConstTypes()))
	env := Env{K: k, Wrap: true}
	for range wrapSamples {
		for i, e := range tp.Elems {
			a[i], b[i] = Sample(e.Type, rng), Sample(e.Type, rng)
		}
		for i, t := range tp.ConstTypes() {
			k[i] = Sample(t, rng)
		}
		env.X, env.Y = a, b
		ab, err1 := EvalTuple(tp, env)
		env.X, env.Y = b, a
		ba, err2 := EvalTuple(tp, env)
		if en.Commutative && err1 == nil && err2 == nil && !SameValues(tp, ab, ba) {
			wc.refutedComm = true
		}
		if en.Identity != nil {
			env.X, env.Y = nil, nil
			id, err := EvalTuple(Tuple{Elems: en.Identity}, env)
			if err != nil {
				wc.refutedIdentity = true
				continue
			}
			env.X, env.Y = id, a
			l, err1 := EvalTuple(tp, env)
			env.X, env.Y = a, id
			r, err2 := EvalTuple(tp, env)
			if err1 != nil || err2 != nil || !SameValues(tp, l, a) || !SameValues(tp, r, a) {
				wc.refutedIdentity = true
			}
		}
	}
	wrapChecks.Store(en, wc)
	return wc
}

// tryEntry reports whether entry ei of the table of type t matches the
// elements, under some assignment of them to its elements; the matcher
// keeps the assignment and the bindings.
func (r *recognizer) tryEntry(ei *entryIndex, t Type, elems []int) bool {
	r.m.elemType = r.types
	return r.assign(ei, t, elems, 0, 0)
}

// assign assigns the elements not in used to the entry's elements p, p+1,
// … (an element of the same root and as many x leaves, of the table's
// type unless the entry's element only carries values), then matches.
func (r *recognizer) assign(ei *entryIndex, t Type, elems []int, p int, used uint32) bool {
	m := &r.m
	if p == len(elems) {
		pats := ei.patterns()
		m.reset(ei.nk)
		top := 0
		for q := len(elems) - 1; q >= 0; q-- {
			g := m.sigma[q]
			want := t
			if ei.carried[q] {
				want = r.types[g]
			}
			top = m.push(top, goal{p: pats[q], s: r.subj[g], want: want})
		}
		return m.solve(top)
	}
	// The patterns are built on the first element that passes the tests
	// that need none: most entries a lookup tries fail them, and
	// building their patterns cost a refused update most of its time.
	var pe *pnode
	for _, g := range elems {
		s := r.subj[g]
		if used&(1<<uint(g)) != 0 || r.types[g] != t && !ei.carried[p] || r.xLeaves[g] != ei.xcount[p] {
			continue
		}
		if pe == nil {
			pe = ei.patterns()[p]
		}
		if s.op != pe.op {
			continue
		}
		m.sigma[p] = g
		if r.assign(ei, t, elems, p+1, used|1<<uint(g)) {
			return true
		}
	}
	return false
}

// xLeaves counts the x leaves of s.
func xLeaves(s *snode) int {
	if !s.hasX {
		return 0
	}
	if s.op == OpX {
		return 1
	}
	c := 0
	for _, a := range s.args {
		c += xLeaves(a)
	}
	return c
}

// result builds the group's part of the composite from the matcher's
// assignment and bindings.
func (r *recognizer) result(ei *entryIndex, t Type, elems []int) *groupResult {
	m := &r.m
	n := r.n
	res := &groupResult{elems: make([]*Expr, n), ident: make([]*Expr, n), y: make([]*Expr, n),
		commutative: ei.entry.Commutative, hasIdentity: ei.entry.Identity != nil}
	res.part = Part{Elements: make([]int, len(elems)), Entry: ei.entry, Type: t, K: slices.Clone(m.k)}
	sub := substitution{sigma: m.sigma[:len(elems)], types: r.types, k: m.k}
	for p := range elems {
		g := m.sigma[p]
		res.part.Elements[p] = g
		want := t
		if ei.carried[p] {
			want = r.types[g]
		}
		res.elems[g] = sub.apply(ei.entry.Elems[p], want)
		if y := m.y[p]; y != nil {
			res.y[g] = y
		} else {
			res.y[g] = Const(0, r.types[g]) // the operator ignores y_p
		}
		if res.hasIdentity {
			if want != t {
				// A carried element's identity may be any value: the
				// operator never selects it where the result must be x.
				res.ident[g] = Const(0, want)
			} else {
				res.ident[g] = sub.apply(ei.entry.Identity[p], t)
			}
		}
	}
	return res
}

// substitution rewrites an entry's expression into the composite's terms:
// x_p and y_p become x and y of element sigma[p], k_i its binding; a
// carried element's selects take the element's type.
type substitution struct {
	sigma []int
	types []Type
	k     []*Expr
}

func (sub substitution) apply(e *Expr, want Type) *Expr {
	switch e.Op {
	case OpX:
		g := sub.sigma[e.Index]
		return X(g, sub.types[g])
	case OpY:
		g := sub.sigma[e.Index]
		return Y(g, sub.types[g])
	case OpK:
		if e.Index < len(sub.k) && sub.k[e.Index] != nil {
			return sub.k[e.Index]
		}
		return e
	case OpConst, OpVar:
		c := *e
		return &c
	}
	c := &Expr{Op: e.Op, Type: e.Type, Args: make([]*Expr, len(e.Args))}
	if e.Op == OpSelect {
		c.Type = want
		c.Args[0] = sub.apply(e.Args[0], e.Args[0].Type)
		c.Args[1] = sub.apply(e.Args[1], want)
		c.Args[2] = sub.apply(e.Args[2], want)
		return c
	}
	for i, a := range e.Args {
		c.Args[i] = sub.apply(a, a.Type)
	}
	return c
}

// builtin returns the built-in operator of element i alone: assignment
// when it reads no partial result, keep when it is its own; nil
// otherwise.
func (r *recognizer) builtin(i int) *groupResult {
	s := r.subj[i]
	var elem, y *Expr
	var name string
	switch {
	case !s.hasX:
		elem, y, name = Y(i, r.types[i]), s.e, "assignment"
	case s.op == OpX && s.index == i:
		elem, y, name = X(i, r.types[i]), Const(0, r.types[i]), "keep"
	default:
		return nil
	}
	res := &groupResult{elems: make([]*Expr, r.n), ident: make([]*Expr, r.n), y: make([]*Expr, r.n)}
	res.elems[i], res.y[i] = elem, y
	res.part = Part{Elements: []int{i}, Type: r.types[i], Builtin: name}
	return res
}

// failure explains why no entry matched the elements. Recognize says
// "not associative" only when the closure test proves that no associative
// operator decomposes the update (closure.go); a counterexample to the
// candidate operator that abstract writes (y the varying operand) is
// reported as such, with "not recognized": another y might decompose it.
func (r *recognizer) failure(elems []int, roots []Op, tried int, realOnly *Entry, tableErr error) *MatchError {
	op, abstract := r.abstract(elems)
	text := op.String()
	if !abstract {
		group := Tuple{Elems: make([]*Expr, len(elems))}
		for p, i := range elems {
			group.Elems[p] = r.update.Elems[i]
		}
		text = group.String()
	}
	t := r.types[elems[0]]
	var why string
	if realOnly != nil {
		why = fmt.Sprintf("%v arithmetic is associative only over the reals: it matches %v with --assoc-math (-fassociative-math)", t, realOnly.Tuple)
		if abstract {
			if cex, ok := refute(op, r.opts.Wrap, false); ok {
				why += "; in IEEE arithmetic " + cex
			}
		}
	} else {
		var rootNames []string
		for _, o := range roots {
			rootNames = append(rootNames, o.String())
		}
		why = fmt.Sprintf("no %v table entry of %d element(s) with root %s", t, len(elems), strings.Join(rootNames, ", "))
		if tried > 0 {
			why = fmt.Sprintf("none of the %d %v table entries of %d element(s) with root %s matches", tried, t, len(elems), strings.Join(rootNames, ", "))
		}
		if r.opts.Synthesize {
			why += ", and no entry with an identity gives it for a synthesized y"
		}
		if tableErr != nil {
			why += fmt.Sprintf(" (%v)", tableErr)
		}
	}
	if realOnly == nil && abstract {
		if cex, ok := refute(op, r.opts.Wrap, r.opts.Real); ok {
			why += "; the candidate operator, with y the varying operand, fails associativity: " + cex
		}
	}
	return &MatchError{Elements: elems, Operator: text, Reason: why}
}

// abstract writes the elements as an operator: x_i renumbered in the
// group's order, the one varying subexpression that does not read the
// partial results of element i as y_i. It reports false when some
// element has several (or the group reads partial results outside it).
func (r *recognizer) abstract(elems []int) (Tuple, bool) {
	local := make([]int, r.n)
	for i := range local {
		local[i] = -1
	}
	for p, i := range elems {
		local[i] = p
	}
	tp := Tuple{Elems: make([]*Expr, len(elems))}
	ok := true
	for p, i := range elems {
		var y *Expr
		var re func(s *snode) *Expr
		re = func(s *snode) *Expr {
			switch {
			case s.op == OpX:
				if local[s.index] < 0 {
					ok = false
					return s.e
				}
				return X(local[s.index], s.typ)
			case !s.hasX && s.vary:
				if y != nil && !y.Equal(s.e) || s.typ != r.types[i] {
					ok = false
				}
				y = s.e
				return Y(p, s.typ)
			case !s.hasX:
				return s.e
			}
			c := &Expr{Op: s.e.Op, Type: s.e.Type, Args: make([]*Expr, len(s.e.Args))}
			for j, a := range s.e.Args {
				c.Args[j] = re(subject(a, r.invariant))
			}
			return c
		}
		tp.Elems[p] = re(r.subj[i])
		if y == nil {
			ok = false
		}
	}
	return tp, ok
}

// newRand returns the fixed-seed source of refute, so that a message
// does not change between runs.
func newRand() *rand.Rand { return rand.New(rand.NewPCG(5, 5)) }

// refuteSamples is the number of random draws refute tries.
const refuteSamples = 400

// refute looks for a counterexample to the associativity of tp among
// random values (edge values favoured), the invariant named values drawn
// too. It returns it written out. In the real mode floats are drawn among
// small integers, on which float arithmetic is exact.
func refute(tp Tuple, wrap, real bool) (string, bool) {
	n := len(tp.Elems)
	rng := newRand()
	vars := map[string]Value{}
	var names []string
	var varTypes []Type
	for _, e := range tp.Elems {
		e.Walk(func(x *Expr) bool {
			if x.Op == OpVar && !slices.Contains(names, x.Name) {
				names = append(names, x.Name)
				varTypes = append(varTypes, x.Type)
			}
			return true
		})
	}
	draw := func(t Type) Value {
		if real && t.Float() {
			return FloatValue(float64(rng.IntN(9)-4), t)
		}
		return Sample(t, rng)
	}
	a, b, c := make([]Value, n), make([]Value, n), make([]Value, n)
	env := Env{Vars: vars, Wrap: wrap}
	f := func(x, y []Value) ([]Value, error) {
		env.X, env.Y = x, y
		return EvalTuple(tp, env)
	}
	for range refuteSamples {
		for i, e := range tp.Elems {
			a[i], b[i], c[i] = draw(e.Type), draw(e.Type), draw(e.Type)
		}
		for i, name := range names {
			vars[name] = draw(varTypes[i])
		}
		ab, err1 := f(a, b)
		bc, err2 := f(b, c)
		if err1 != nil || err2 != nil {
			continue
		}
		left, err1 := f(ab, c)
		right, err2 := f(a, bc)
		if err1 != nil || err2 != nil || real && (!finite(tp, left) || !finite(tp, right)) {
			continue // in the real mode, NaN (log of a value ≤ 0) is undefined
		}
		for i, e := range tp.Elems {
			if !sameValue(left[i], right[i], e.Type, real) {
				return fmt.Sprintf("f(f(x,y),z) = %s but f(x,f(y,z)) = %s at x = %s, y = %s, z = %s%s",
					values(tp, left), values(tp, right), values(tp, a), values(tp, b), values(tp, c), varValues(names, varTypes, vars)), true
			}
		}
	}
	return "", false
}

// finite reports whether the float elements of v (values of tp's
// elements) are real numbers: neither NaN nor infinite.
func finite(tp Tuple, v []Value) bool {
	for i, e := range tp.Elems {
		if !e.Type.Float() {
			continue
		}
		if f := v[i].Float(e.Type); math.IsNaN(f) || math.IsInf(f, 0) {
			return false
		}
	}
	return true
}

// sameValue is SameValue, except that in the real mode the two zeros of
// a float type are one number.
func sameValue(a, b Value, t Type, real bool) bool {
	if real && t.Float() {
		// Floats stand for reals: equal, or equal but for the rounding
		// of a value no float holds (exp of the draws, a quotient).
		x, y := a.Float(t), b.Float(t)
		tol := realTolerance
		if t == Float32 {
			tol = realTolerance32
		}
		if x == y || math.Abs(x-y) <= tol*max(math.Abs(x), math.Abs(y)) {
			return true
		}
	}
	return SameValue(a, b, t)
}

// realTolerance32 is realTolerance for float32 values (2^-24 per
// rounding).
const realTolerance32 = 1e-5

func values(tp Tuple, v []Value) string {
	if len(v) == 1 {
		return literal(v[0], tp.Elems[0].Type)
	}
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = literal(x, tp.Elems[i].Type)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func varValues(names []string, types []Type, vars map[string]Value) string {
	var sb strings.Builder
	for i, name := range names {
		fmt.Fprintf(&sb, ", %s = %s", name, literal(vars[name], types[i]))
	}
	return sb.String()
}

// liftSelects takes a common operation out of the branches of the
// selects of e (see Recognize) and reports whether it changed anything.
func liftSelects(e *Expr) (*Expr, bool) {
	if e.Op.Leaf() {
		return e, false
	}
	changed := false
	args := e.Args
	for i, a := range e.Args {
		if l, ok := liftSelects(a); ok {
			if !changed {
				args = slices.Clone(e.Args)
				changed = true
			}
			args[i] = l
		}
	}
	if changed {
		c := *e
		c.Args = args
		e = &c
	}
	if e.Op == OpSelect {
		if l, ok := liftSelect(e); ok {
			return l, true
		}
	}
	return e, changed
}

// liftSelect rewrites select(c, X op a, X op b) as X op select(c, a, b)
// where X is the operands reading partial results, a or b possibly
// missing (then the right identity of op stands in), and c reads none.
func liftSelect(e *Expr) (*Expr, bool) {
	c, a, b := e.Args[0], e.Args[1], e.Args[2]
	if c.Uses(OpX) {
		// A condition on the partial result is part of the operator
		// (select(x == y, x, x | k) is an entry): keep it whole.
		return nil, false
	}
	for _, op := range []Op{a.Op, b.Op} {
		id, ok := rightIdentity(op, e.Type)
		if !ok {
			continue
		}
		xa, ra := splitX(op, a)
		xb, rb := splitX(op, b)
		if len(xa) == 0 || len(xa) != len(xb) || len(ra) == 0 && len(rb) == 0 {
			continue
		}
		same := true
		for i := range xa {
			same = same && xa[i].Equal(xb[i])
		}
		if !same {
			continue
		}
		branch := func(rest []*Expr) *Expr {
			if len(rest) == 0 {
				return id
			}
			return chain(op, e.Type, rest)
		}
		sel := Apply(OpSelect, c, branch(ra), branch(rb))
		return chain(op, e.Type, append(slices.Clone(xa), sel)), true
	}
	return nil, false
}

// rightIdentity returns the literal e with a op e = a for every a of t.
func rightIdentity(op Op, t Type) (*Expr, bool) {
	switch {
	case t.Integer():
		switch op {
		case OpAdd, OpBitOr, OpBitXor:
			return Const(0, t), true
		case OpMul:
			return Const(1, t), true
		case OpBitAnd:
			return Const(mask(t), t), true
		case OpMin:
			return Const(maxValue(t), t), true
		case OpMax:
			return Const(minValue(t), t), true
		}
	case t.Float():
		switch op {
		case OpAdd:
			return Const(negZero(t), t), true
		case OpMul:
			return Const(FloatValue(1, t), t), true
		}
	}
	return nil, false
}

// splitX splits e, as a chain of op (a single operand when its root is
// another operation), into the operands that read partial results and
// the rest.
func splitX(op Op, e *Expr) (xs, rest []*Expr) {
	ops := []*Expr{e}
	if e.Op == op {
		if isChain(e) {
			ops = flatten(e, nil)
		} else {
			ops = e.Args
		}
	}
	for _, o := range ops {
		if o.Uses(OpX) {
			xs = append(xs, o)
		} else {
			rest = append(rest, o)
		}
	}
	return xs, rest
}

// realMinMax rewrites the float selects of e that choose the lesser or
// greater of their comparison's operands as min and max, and reports
// whether it changed anything: select(p < q, q, p) and select(p <= q, q,
// p) are max(p, q), select(p < q, p, q) and select(p <= q, p, q) are
// min(p, q). Exact where floats are read as real numbers (--assoc-math:
// no NaN, one zero); Canon does it for integers only.
func realMinMax(e *Expr) (*Expr, bool) {
	if e.Op.Leaf() {
		return e, false
	}
	changed := false
	args := make([]*Expr, len(e.Args))
	for i, a := range e.Args {
		n, ok := realMinMax(a)
		args[i] = n
		changed = changed || ok
	}
	c := *e
	c.Args = args
	if e.Op == OpSelect && e.Type.Float() {
		cond, a, b := args[0], args[1], args[2]
		if (cond.Op == OpLT || cond.Op == OpLE) && cond.Args[0].Type == e.Type {
			p, q := cond.Args[0], cond.Args[1]
			switch {
			case a.Equal(q) && b.Equal(p):
				return Apply(OpMax, p, q), true
			case a.Equal(p) && b.Equal(q):
				return Apply(OpMin, p, q), true
			}
		}
	}
	return &c, changed
}

// realIdentity reports whether every float literal of ident is a real
// number (not NaN nor infinite).
func realIdentity(ident []*Expr) bool {
	ok := true
	for _, e := range ident {
		if e == nil {
			continue
		}
		e.Walk(func(x *Expr) bool {
			if x.Op == OpConst && x.Type.Float() {
				f := x.Value.Float(x.Type)
				ok = ok && !math.IsNaN(f) && !math.IsInf(f, 0)
			}
			return ok
		})
	}
	return ok
}
