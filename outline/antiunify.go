package outline

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Anti-unification
//
// The anti-unifier of two expressions is their most specific
// generalization: the largest pattern that both are instances of. Here
// two nodes match when their match keys (Label and operand types) are
// equal and their operands match pairwise; where they do not, the pattern
// has a hole. Antiunify computes it on the expression trees, as the issue
// defines it. Outlining needs more, and AntiunifySet computes the
// collision-avoiding, closed anti-unifier of n nodes of one function:
//
//   - Instances are disjoint: no node of the function is in two instances
//     (the collision avoidance), so each can be replaced by a call.
//   - Instances are closed: a node of an instance other than its root has
//     no use outside the instance, and every use inside it is matched.
//     Otherwise the node would stay in the caller, outlining would not
//     remove it, and the node counted as saved would be computed twice.
//   - Sharing is consistent: a node used twice inside an instance is one
//     pattern node, counted once, and the other instances use one node in
//     the same two places. Where they do not, neither place is matched:
//     the shared value becomes an input (the pattern's holes can repeat a
//     parameter, so every instance stays expressible).
//
// A closed instance rooted at r lies inside MFFC(r), its fanout-free cone
// (analysis.go). Those cones are nested or disjoint, and a closed instance
// that meets the cone of another instance's root must contain that root
// (follow the uses up from the common node: they stay in both). So
// closed instances are disjoint exactly when no instance contains another
// instance's root, and collision avoidance is the one rule "another
// instance's root is never matched". With the issue's example, x = a + b*c;
// y = d + e*x; z = f + g*y, the instance of z would contain y, so y is a
// hole: _ + _ * _ rather than _ + _ * (_ + _ * _).
//
// The closed anti-unifier is built one post-dominator subtree at a time.
// For a tuple t of matched nodes (one per instance), the local step
// decides which nodes of the instances' cones have their immediate
// post-dominator at t: starting from t's operands, a candidate tuple is
// formed wherever the operands at one position are, in every instance,
// closed nodes (analysis.go) of t's cone with one key and one number of
// uses; a node met at two positions with different partners, a use from
// outside the step, or a use from a discarded candidate discards the
// candidate, until nothing changes (a greatest fixpoint: what survives is
// the largest consistent choice). Each surviving candidate is a pattern
// node, and its own subtree is decided by its own step, independently of
// the rest, because nothing outside its cone uses the nodes of its cone.
// The size of the pair anti-unifier therefore decomposes exactly:
//
//	T(a, b) = w(a) + sum over surviving candidates (c, d) of T(c, d)
//
// which is what the table's dynamic program computes (table.go), and
// what AntiunifySet reproduces node by node for n roots.
//
// Literals are never instance nodes: a literal that is the same in every
// instance is copied into the pattern (it counts 0 in k and needs no
// input), any other is a hole. Parameters are always holes.
//
// Commutative operations keep the operand order that Canonicalize gives;
// for a two-operand one, an instance's operands are exchanged when the
// exchanged order pairs more of the cone: by the table's weights of the
// operand pairs in the two cones, and under Area also by equal literals
// and equal inputs, which need no multiplexer. Associativity is not used.

// A Match is a pattern with its instances in one function.
type Match struct {
	Pattern   *Pattern
	Instances []Instance
	Size      int   // k: operations of the pattern (Pattern.Size)
	Area      int64 // the pattern's area under areaOf
	MuxBits   int64 // total width of the parameters whose arguments differ between instances
}

// An Instance is where a pattern occurs.
type Instance struct {
	Root  *Node
	Nodes []*Node // the nodes the pattern matches, operands first, Root last; no literals
	Args  []*Node // the argument of each pattern parameter
}

// Saved is what outlining m saves under objective o: (n-1)·k for Nodes,
// (n-1)·(Area-MuxBits) for Area.
func (m *Match) Saved(o Objective) int64 {
	n := int64(len(m.Instances) - 1)
	if o == Area {
		return n * (m.Area - m.MuxBits)
	}
	return n * int64(m.Size)
}

// AntiunifySet returns the closed, collision-avoiding anti-unifier of the
// nodes roots of f, which must be distinct nodes of f with one match key
// (see the comment at the top of this file). It uses the operand order of
// f as it is; call Canonicalize first to match commutative operations up
// to operand order. It computes the pairwise table of f's nodes for the
// orientation of commutative operands, so it takes time quadratic in the
// size of f's groups of equal keys: the pass itself reuses its table.
func AntiunifySet(f *Function, roots ...*Node) (*Match, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	a := analyze(f, Nodes, nil, nil)
	t := newTable(a)
	idx := make([]int32, len(roots))
	for i, r := range roots {
		j, ok := a.index[r]
		if !ok {
			return nil, fmt.Errorf("outline: %s is not a node of %s", r.RefName(), f.Name)
		}
		idx[i] = j
	}
	return a.extract(idx, t, newStepper(a, t))
}

// valuer gives the plain closed anti-unifier of two nodes with one key:
// its weight and its multiplexed input bits (table.go).
type valuer interface {
	pairVal(x, y int32) int32
	pairMux(x, y int32) int32
}

// A stepper runs local steps; it keeps its scratch space between runs.
type stepper struct {
	a      *analysis
	v      valuer
	n      int
	root   []int32
	forbid []bool // nodes that may not be matched: the roots of other instances

	cand     []int32 // candidate tuples, n nodes each
	useCnt   []int32 // matched uses of each candidate
	conflict []bool
	killed   []bool
	edgeOff  []int32 // edges of parent j: edges[edgeOff[j]:edgeOff[j+1]]; parent 0 is the root, j > 0 candidate j-1
	edges    []int32 // the candidate an operand position leads to, or -1
	swap     []bool  // n per parent: operands exchanged
	mark     []int32 // candidate of a node, valid where markGen equals gen
	markGen  []uint32
	gen      uint32
	stack    []int32
	x        []int32
	// noSwap replaces orient's choice by swapped: the cone miner
	// (cones.go) decides the order of commutative operands itself;
	// swapped holds the nodes whose two operands it reads exchanged.
	noSwap  bool
	swapped map[int32]bool
	shape   []uint64 // the miner's shape hashes, which orient operands
	// The cone miner's scratch (dagAU): the tuple of a node, valid
	// where dGen is dg, and the tuples, edges, uses and conflicts.
	dOf                       []int32
	dGen                      []uint32
	dg                        uint32
	eGen                      []uint32 // dagEligible's distinctness marks
	eg                        uint32
	dTuples, dEdges, dEdgeOff []int32
	dUse                      []int32
	dConflict                 []bool
}

func newStepper(a *analysis, v valuer) *stepper {
	n := len(a.nodes)
	return &stepper{a: a, v: v, forbid: make([]bool, n), mark: make([]int32, n), markGen: make([]uint32, n)}
}

// parent is the tuple of parent j.
func (s *stepper) parent(j int) []int32 {
	if j == 0 {
		return s.root
	}
	return s.cand[(j-1)*s.n : j*s.n]
}

// orient reports whether v's two operands are exchanged to match u's: when
// the exchanged order pairs a larger part of the cones (see pv).
func (s *stepper) orient(u, v int32) bool {
	if s.noSwap {
		return s.swapped[u] != s.swapped[v]
	}
	a := s.a
	u0, u1 := a.opAt(u, 0, false), a.opAt(u, 1, false)
	v0, v1 := a.opAt(v, 0, false), a.opAt(v, 1, false)
	if !s.related(u, v, u0, v1) && !s.related(u, v, u1, v0) {
		return false // the exchanged order scores 0
	}
	return s.pv(u, v, u0, v1)+s.pv(u, v, u1, v0) > s.pv(u, v, u0, v0)+s.pv(u, v, u1, v1)
}

// related reports whether pv(u, v, x, y) > 0, without looking up the
// table.
func (s *stepper) related(u, v, x, y int32) bool {
	a := s.a
	return (a.obj == Area && (x == y || (a.lit[x] >= 0 && a.lit[x] == a.lit[y]))) ||
		(a.ipdom[x] == u && a.ipdom[y] == v && a.key[x] >= 0 && a.key[x] == a.key[y])
}

// pv scores pairing operand x of u with operand y of v: one more than the
// pair's anti-unifier when both are in their node's own cone (so that
// the score depends only on u's and v's cones, which keeps the table's
// incremental update exact), else 0; under Area also 1 for the same node
// or equal literals, which need no multiplexer. (Under Nodes the score
// ignores which nodes the holes are, so that the anti-unifier of two tree
// cones depends only on their shapes; see analysis.shape.)
func (s *stepper) pv(u, v, x, y int32) int64 {
	a := s.a
	if a.ipdom[x] == u && a.ipdom[y] == v && a.key[x] >= 0 && a.key[x] == a.key[y] {
		return int64(s.v.pairVal(x, y)) + 1
	}
	if a.obj == Area && (x == y || (a.lit[x] >= 0 && a.lit[x] == a.lit[y])) {
		return 1
	}
	return 0
}

// run performs the local step of root (one node per instance; the
// instances' order fixes the orientation: instance 0 keeps its operand
// order).
func (s *stepper) run(root []int32) {
	a := s.a
	n := len(root)
	s.n, s.root = n, root
	s.gen++
	if s.gen == 0 {
		clear(s.markGen)
		s.gen = 1
	}
	s.cand, s.useCnt, s.conflict, s.killed = s.cand[:0], s.useCnt[:0], s.conflict[:0], s.killed[:0]
	s.edgeOff, s.edges, s.swap = s.edgeOff[:0], s.edges[:0], s.swap[:0]
	if cap(s.x) < n {
		s.x = make([]int32, n)
	}
	x := s.x[:n]
	for j := 0; j <= len(s.useCnt); j++ { // candidates are appended as they are found
		P := s.parent(j)
		s.edgeOff = append(s.edgeOff, int32(len(s.edges)))
		p0 := P[0]
		for i := range n {
			s.swap = append(s.swap, i > 0 && a.comm2[p0] && s.orient(p0, P[i]))
		}
		sw := s.swap[j*n : (j+1)*n]
		for p := range int(a.opOff[p0+1] - a.opOff[p0]) {
			for i := range n {
				x[i] = a.opAt(P[i], p, sw[i])
			}
			t := int32(-1)
			if s.eligible(x) {
				t = s.lookup(x)
			}
			s.edges = append(s.edges, t)
			if t >= 0 {
				s.useCnt[t]++
			}
		}
	}
	s.edgeOff = append(s.edgeOff, int32(len(s.edges)))
	s.fixpoint()
}

// eligible reports whether tuple x can be a candidate of the current
// step: in every instance a closed node whose immediate post-dominator is
// the instance's root of the step, with one key and one number of uses,
// and not forbidden.
func (s *stepper) eligible(x []int32) bool {
	a := s.a
	k, u := a.key[x[0]], a.uses[x[0]]
	if k < 0 {
		return false
	}
	for i, xi := range x {
		if a.ipdom[xi] != s.root[i] || !a.closed[xi] || a.key[xi] != k || a.uses[xi] != u || s.forbid[xi] {
			return false
		}
	}
	return a.litMatch(x)
}

// lookup returns the candidate of tuple x, creating it, or -1 when one of
// its nodes already belongs to a different tuple (then that candidate
// cannot survive either).
func (s *stepper) lookup(x []int32) int32 {
	n := s.n
	if s.markGen[x[0]] == s.gen {
		c := s.mark[x[0]]
		if slices.Equal(s.cand[int(c)*n:int(c+1)*n], x) {
			return c
		}
		s.conflictAt(x)
		return -1
	}
	for _, xi := range x[1:] {
		if s.markGen[xi] == s.gen {
			s.conflictAt(x)
			return -1
		}
	}
	c := int32(len(s.useCnt))
	s.cand = append(s.cand, x...)
	s.useCnt = append(s.useCnt, 0)
	s.conflict = append(s.conflict, false)
	s.killed = append(s.killed, false)
	for _, xi := range x {
		s.markGen[xi] = s.gen
		s.mark[xi] = c
	}
	return c
}

func (s *stepper) conflictAt(x []int32) {
	for _, xi := range x {
		if s.markGen[xi] == s.gen {
			s.conflict[s.mark[xi]] = true
		}
	}
}

// fixpoint discards every candidate with a conflict or an unmatched use,
// and then every candidate that loses a use to a discarded one.
func (s *stepper) fixpoint() {
	a := s.a
	st := s.stack[:0]
	for c := range s.useCnt {
		if s.conflict[c] || s.useCnt[c] != a.uses[s.cand[c*s.n]] {
			s.killed[c] = true
			st = append(st, int32(c))
		}
	}
	for len(st) > 0 {
		c := st[len(st)-1]
		st = st[:len(st)-1]
		for _, e := range s.edges[s.edgeOff[c+1]:s.edgeOff[c+2]] {
			if e >= 0 {
				s.useCnt[e]--
				if !s.killed[e] {
					s.killed[e] = true
					st = append(st, e)
				}
			}
		}
	}
	s.stack = st
}

// alive reports whether candidate c survived the step.
func (s *stepper) alive(c int) bool { return !s.killed[c] }

// holeWidth is the multiplexed width of operand position p of parent j
// when it is a hole: 0 when every instance has the same node or equal
// literals there.
func (s *stepper) holeWidth(j, p int) int64 {
	a := s.a
	P := s.parent(j)
	sw := s.swap[j*s.n : (j+1)*s.n]
	x0 := a.opAt(P[0], p, false)
	same, lit := true, a.lit[x0] >= 0
	for i := 1; i < s.n; i++ {
		xi := a.opAt(P[i], p, sw[i])
		same = same && xi == x0
		lit = lit && a.lit[xi] == a.lit[x0]
	}
	if same || lit {
		return 0
	}
	return int64(a.width[x0])
}

// value is the weight and multiplexed bits of the pair anti-unifier of
// the step just run (n = 2): the root's weight plus the surviving
// candidates' own anti-unifiers; holes at the root's operands, plus the
// candidates' holes, less the candidates' operand positions that this
// step matched to other candidates (a candidate's own table entry counts
// them as holes).
func (s *stepper) value() (val, mux int64) {
	a := s.a
	if !a.litMatch(s.root) {
		return 0, 0
	}
	val = int64(a.w[s.root[0]])
	for p, e := range s.edges[s.edgeOff[0]:s.edgeOff[1]] {
		if e < 0 || s.killed[e] {
			mux += s.holeWidth(0, p)
		}
	}
	for c := range s.useCnt {
		if s.killed[c] {
			continue
		}
		c0, c1 := s.cand[2*c], s.cand[2*c+1]
		val += int64(s.v.pairVal(c0, c1))
		mux += int64(s.v.pairMux(c0, c1))
		for _, e := range s.edges[s.edgeOff[c+1]:s.edgeOff[c+2]] {
			if e >= 0 && !s.killed[e] {
				mux -= int64(a.width[s.cand[2*e]])
			}
		}
	}
	return val, mux
}

// extract computes the closed, collision-avoiding anti-unifier of roots
// (distinct nodes with one key), running the local step tuple by tuple
// from the roots down with every root forbidden elsewhere.
func (a *analysis) extract(roots []int32, v valuer, st *stepper) (*Match, error) {
	n := len(roots)
	if n == 0 {
		return nil, errors.New("outline: no roots to anti-unify")
	}
	roots = slices.Clone(roots)
	slices.Sort(roots)
	for i, r := range roots {
		if a.key[r] < 0 {
			return nil, fmt.Errorf("outline: %s cannot be matched", a.nodes[r].RefName())
		}
		if a.key[r] != a.key[roots[0]] {
			return nil, fmt.Errorf("outline: %s and %s have different labels", a.nodes[roots[0]].RefName(), a.nodes[r].RefName())
		}
		if i > 0 && r == roots[i-1] {
			return nil, fmt.Errorf("outline: %s given twice", a.nodes[r].RefName())
		}
	}
	if !a.litMatch(roots) {
		return nil, fmt.Errorf("outline: %s and the other roots have different literal operands", a.nodes[roots[0]].RefName())
	}
	for _, r := range roots {
		st.forbid[r] = true
	}
	defer func() {
		for _, r := range roots {
			st.forbid[r] = false
		}
	}()
	// The pattern's operation nodes, as tuples, in the order found.
	tuples := slices.Clone(roots)
	pn := map[int32]int32{} // instance node -> pattern tuple
	for _, r := range roots {
		pn[r] = 0
	}
	for q := 0; q*n < len(tuples); q++ {
		st.run(tuples[q*n : (q+1)*n])
		for c := range st.useCnt {
			if !st.alive(c) {
				continue
			}
			id := int32(len(tuples) / n)
			for _, x := range st.cand[c*n : (c+1)*n] {
				pn[x] = id
			}
			tuples = append(tuples, st.cand[c*n:(c+1)*n]...)
		}
	}
	return a.build(roots, tuples, pn, st), nil
}

// An arg is an operand of a pattern node while the pattern is assembled.
type arg struct {
	kind int8  // argOp, argLit or argHole
	id   int32 // tuple, literal node, or hole
}

const (
	argOp = iota
	argLit
	argHole
)

// build assembles the Match of the tuples that extract matched: operand
// positions that lead to a matched tuple in every instance are edges,
// equal literals are kept, everything else is a hole, and holes with the
// same argument in every instance are one parameter, numbered in the
// order a depth-first walk from the root meets them.
func (a *analysis) build(roots, tuples []int32, pn map[int32]int32, st *stepper) *Match {
	n := len(roots)
	nt := len(tuples) / n
	args := make([][]arg, nt)
	var litNodes []int32 // a literal node per distinct literal label used
	litOf := map[int32]int32{}
	var holeArgs [][]int32
	holeOf := map[string]int32{}
	x := make([]int32, n)
	for q := range nt {
		P := tuples[q*n : (q+1)*n]
		sw := make([]bool, n)
		for i := 1; i < n; i++ {
			sw[i] = a.comm2[P[0]] && st.orient(P[0], P[i])
		}
		for p := range int(a.opOff[P[0]+1] - a.opOff[P[0]]) {
			for i := range n {
				x[i] = a.opAt(P[i], p, sw[i])
			}
			args[q] = append(args[q], a.classify(x, tuples, pn, &litNodes, litOf, &holeArgs, holeOf))
		}
	}
	// Number parameters depth-first from the root, and order the pattern
	// nodes: holes, then literals, then operations in instance 0's order.
	paramOf := make([]int, len(holeArgs))
	for i := range paramOf {
		paramOf[i] = -1
	}
	var params []int32
	seen := make([]bool, nt)
	var walk func(q int32)
	walk = func(q int32) {
		seen[q] = true
		for _, g := range args[q] {
			switch {
			case g.kind == argHole && paramOf[g.id] < 0:
				paramOf[g.id] = len(params)
				params = append(params, g.id)
			case g.kind == argOp && !seen[g.id]:
				walk(g.id)
			}
		}
	}
	walk(0)
	order := make([]int32, nt)
	for q := range order {
		order[q] = int32(q)
	}
	slices.SortFunc(order, func(p, q int32) int { return int(tuples[int(p)*n] - tuples[int(q)*n]) })
	pat := &Pattern{}
	where := make([]int, nt)
	for _, h := range params {
		pat.Nodes = append(pat.Nodes, PNode{Type: a.nodes[holeArgs[h][0]].Type, Param: paramOf[h]})
		pat.Params = append(pat.Params, a.nodes[holeArgs[h][0]].Type)
	}
	litAt := make([]int, len(litNodes))
	for i, l := range litNodes {
		litAt[i] = len(pat.Nodes)
		ln := a.nodes[l]
		pat.Nodes = append(pat.Nodes, PNode{Op: ln.Op, Type: ln.Type, Attrs: slices.Clone(ln.Attrs), Param: -1})
	}
	m := &Match{Pattern: pat, Instances: make([]Instance, n)}
	for _, q := range order {
		nd := a.nodes[tuples[int(q)*n]]
		pnode := PNode{Op: nd.Op, Type: nd.Type, Attrs: slices.Clone(nd.Attrs), Param: -1}
		for _, g := range args[q] {
			switch g.kind {
			case argOp:
				pnode.Args = append(pnode.Args, where[g.id])
			case argLit:
				pnode.Args = append(pnode.Args, litAt[g.id])
			case argHole:
				pnode.Args = append(pnode.Args, paramOf[g.id])
			}
		}
		where[q] = len(pat.Nodes)
		pat.Nodes = append(pat.Nodes, pnode)
		m.Size += int(weight(nd, Nodes))
		m.Area += areaOf(nd)
		for i := range n {
			m.Instances[i].Nodes = append(m.Instances[i].Nodes, a.nodes[tuples[int(q)*n+i]])
		}
	}
	for i := range n {
		inst := &m.Instances[i]
		inst.Root = a.nodes[roots[i]]
		for _, h := range params {
			inst.Args = append(inst.Args, a.nodes[holeArgs[h][i]])
		}
		slices.SortFunc(inst.Nodes, func(p, q *Node) int { return int(a.index[p] - a.index[q]) })
	}
	for _, h := range params {
		for _, y := range holeArgs[h][1:] {
			if y != holeArgs[h][0] {
				m.MuxBits += int64(a.width[y])
				break
			}
		}
	}
	return m
}

// classify says what operand tuple x of a pattern node is: a matched
// tuple, a literal equal in all instances, or a hole (shared between
// positions with the same arguments).
func (a *analysis) classify(x, tuples []int32, pn map[int32]int32, litNodes *[]int32, litOf map[int32]int32, holeArgs *[][]int32, holeOf map[string]int32) arg {
	n := len(x)
	if q, ok := pn[x[0]]; ok {
		same := true
		for i, xi := range x {
			if tuples[int(q)*n+i] != xi {
				same = false
				break
			}
		}
		if same {
			return arg{argOp, q}
		}
	}
	if l := a.lit[x[0]]; l >= 0 {
		eq := true
		for _, xi := range x[1:] {
			eq = eq && a.lit[xi] == l
		}
		if eq {
			id, ok := litOf[l]
			if !ok {
				id = int32(len(*litNodes))
				litOf[l] = id
				*litNodes = append(*litNodes, x[0])
			}
			return arg{argLit, id}
		}
	}
	var b strings.Builder
	for _, xi := range x {
		b.WriteString(strconv.Itoa(int(xi)))
		b.WriteByte(',')
	}
	id, ok := holeOf[b.String()]
	if !ok {
		id = int32(len(*holeArgs))
		holeOf[b.String()] = id
		*holeArgs = append(*holeArgs, slices.Clone(x))
	}
	return arg{argHole, id}
}

// Antiunify returns the plain anti-unifier of the expressions rooted at a
// and b: nodes match when their match keys are equal, operands pairwise;
// a pair of nodes that does not match is a hole, and pairs met twice are
// one pattern node (or one parameter), so the pattern is the issue's
// anti-unifier of the two expression trees, kept as a graph. The two
// instances may overlap and their nodes may have other uses. Commutative
// two-operand nodes are matched in whichever operand order gives the
// larger anti-unifier (by memoized size, so this stays linear in the
// number of node pairs).
func Antiunify(a, b *Node) *Pattern {
	u := &plainAU{memo: map[[2]*Node]plainPair{}, keys: map[*Node]string{}}
	u.size(a, b)
	p := &Pattern{}
	u.emit(p, a, b, map[[2]*Node]int{})
	return p
}

type plainPair struct {
	size int // -1: a hole
	swap bool
}

type plainAU struct {
	memo map[[2]*Node]plainPair
	keys map[*Node]string
}

func (u *plainAU) key(n *Node) string {
	k, ok := u.keys[n]
	if !ok {
		k = matchKey(n)
		u.keys[n] = k
	}
	return k
}

// size is the number of operations of the pair's anti-unifier, 0 for
// equal literals and -1 for a hole.
func (u *plainAU) size(x, y *Node) int {
	if x.Op == "literal" && y.Op == "literal" && u.key(x) == u.key(y) {
		return 0
	}
	if !matchable(x) || !matchable(y) || u.key(x) != u.key(y) {
		return -1
	}
	k := [2]*Node{x, y}
	if r, ok := u.memo[k]; ok {
		return r.size
	}
	s := int(weight(x, Nodes))
	sum := func(swap bool) int {
		t := 0
		for i, o := range x.Operands {
			j := i
			if swap {
				j = 1 - i
			}
			t += max(u.size(o, y.Operands[j]), 0)
		}
		return t
	}
	r := plainPair{size: s + sum(false)}
	if Commutative(x.Op) && len(x.Operands) == 2 {
		if t := s + sum(true); t > r.size {
			r = plainPair{size: t, swap: true}
		}
	}
	u.memo[k] = r
	return r.size
}

// emit appends the pattern of (x, y) to p, operands first, and returns its
// index.
func (u *plainAU) emit(p *Pattern, x, y *Node, done map[[2]*Node]int) int {
	k := [2]*Node{x, y}
	if i, ok := done[k]; ok {
		return i
	}
	var node PNode
	switch s := u.size(x, y); {
	case s < 0:
		node = PNode{Type: x.Type, Param: len(p.Params)}
		p.Params = append(p.Params, x.Type)
	case x.Op == "literal":
		node = PNode{Op: x.Op, Type: x.Type, Attrs: slices.Clone(x.Attrs), Param: -1}
	default:
		node = PNode{Op: x.Op, Type: x.Type, Attrs: slices.Clone(x.Attrs), Param: -1}
		swap := u.memo[k].swap
		for i, o := range x.Operands {
			j := i
			if swap {
				j = 1 - i
			}
			node.Args = append(node.Args, u.emit(p, o, y.Operands[j], done))
		}
	}
	done[k] = len(p.Nodes)
	p.Nodes = append(p.Nodes, node)
	return len(p.Nodes) - 1
}
