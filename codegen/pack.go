package codegen

import (
	"fmt"
	"slices"
	"strings"

	"nestor/ir"
	"nestor/irpoly"
)

// Packed runs every instance of a matrix-product statement
//
//	W[.. i ..][.. j ..] += X(i, k) * Y(k, j)
//
// over a box of i, j and k as BLIS and OpenBLAS run dgemm: the operands'
// blocks copied into contiguous buffers (packing: Y's kc×nc block in
// panels of NR columns, X's mc×kc block in panels of MR rows), and a
// micro-kernel that keeps an MR×NR block of W in registers along the kc
// steps of k, reading both panels at unit stride. Every element of W
// still sums its terms in increasing k, from its value before, and each
// product is X·Y as the statement computes it: the result is the
// statement's, bit for bit (FMA contraction aside, as for any order).
//
// The right-hand side may be a sum of such products (syr2k's
// X1·Y1 + X2·Y2), each term with its own packed operands, the sum
// evaluated as the statement groups it; and the domain may be a triangle
// of the box (syrk's j ≤ i): the blocks of W wholly outside it are
// skipped, and only its elements are loaded and stored.
//
// Stmt is the statement in the program being printed; Orig is its form
// before scheduling, over its own counters I, J and K (indices of
// Orig.Iters), whose bounds are Lower and Upper (affine in the
// parameters). Terms are the products of the right-hand side, in the
// order a walk of Orig.RHS meets them.
type Packed struct {
	Stmt         int
	Orig         *ir.Stmt
	I, J, K      int
	Lower, Upper [3]ir.Aff // per counter I, J, K
	Terms        []PackTerm
	// Diag, when set, cuts the box to a triangle (see PackDiag).
	Diag *PackDiag
	// KDiag, when set, is the one constraint that ties K to I: K ≤ I + B
	// when Upper, K ≥ I + B otherwise (trmm's k > i). Each row block
	// then sums its terms of the triangle's edge in masked loops, and
	// those of the rest of the k range in packed blocks, in increasing k.
	KDiag *PackDiag
	// LiveIn reports that a Y factor reads W's array, at elements whose
	// values the region had on entry (no write reaches the read: trmm's
	// B[k][j] for k > i), in W's own column: Y is then packed whole, per
	// block of columns, before any element of those columns is written.
	LiveIn bool
	// MR×NR is the register block (NR a multiple of the vector length),
	// MC, KC, NC the blocks of i, k and j packed at once.
	MR, NR, MC, KC, NC int
	// Parallel shares the blocks of i among the threads (one team for
	// the whole product), each with its own X buffer.
	Parallel bool
	// Guard holds the conditions of the ifs the loop was in (over the
	// parameters), printed around the blocks.
	Guard []Cond
	// Loop is the loop the node replaces, which still runs a product of
	// less than packMinWork multiply-adds (packing would cost more than
	// it saves).
	Loop *Loop
	// Init, when set, is the statement right before the product that
	// sets every element of W it computes (gemm's C *= beta, 2mm's
	// tmp = 0), folded into the first block of k.
	Init *PackInit
}

// A PackInit is a statement W = 0 or W = W·F (W *= F, F·W) over exactly
// the elements of W a packed product computes, run right before it, with
// F a constant, a parameter or a scalar the region does not write.
// Loading an element of W into the accumulators for the first block of k
// then applies it: one pass over W less, and the same operations on each
// element in the same order. Node is its loops, which still run where the
// product's blocks do not (a product too small to pack, or one whose
// guard is false).
type PackInit struct {
	Stmt   int
	Node   Node
	Zero   bool
	Factor ir.Expr // over the accesses of orig.Stmts[Stmt]
	Left   bool    // F·W: the factor is the left operand
}

// A PackTerm is one product of a packed statement: X is the factor over I
// and K, Y the one over K and J, and Node the product in Orig.RHS.
type PackTerm struct {
	X, Y ir.Expr
	Node *ir.Binary
}

// A PackDiag is the one constraint of a packed statement's domain that
// ties J to I: J ≤ I + B when Upper, J ≥ I + B otherwise. Every value of
// I in the box still meets some J and every J some I (the box is the
// domain's projection), so the operands' packed blocks hold only what
// the statement reads.
type PackDiag struct {
	Upper bool
	B     int64
}

// packMinWork is the number of multiply-adds (64³) below which a product
// runs in its loops instead of packed blocks.
const packMinWork = 1 << 18

func (*Packed) node() {}

// PackOptions say how Pack lays the products out: the vector width in
// bytes (the register block is 6 rows by two vectors, the width BLIS's
// Haswell and Skylake-X kernels use) and whether the threads share the
// blocks.
type PackOptions struct {
	VectorBytes int
	Parallel    bool
	// Marks, when set, says per product, from the level of its outermost
	// loop, whether to pack it and whether its team runs in parallel
	// (its loop group's marks); nil packs every product, in parallel
	// when Parallel is set.
	Marks func(level int) (pack, parallel bool)
	// LiveIn, when set, reports whether access a of statement st reads
	// only values the region had on entry (no dependence flows into it);
	// nil: no factor may read the array a product writes.
	LiveIn func(st, a int) bool
}

// The block sizes of a packed product: MC rows of X and KC steps of k
// (MC·KC elements, in L2), and at most packYBytes of Y per block of k
// (KC·NC elements: in L3, two 2 MB pages for a first call to map). The
// columns are cut into blocks of equal width under that limit: gemm
// LARGE's 1100 columns in one block of 1104 instead of 512, 512 and 76
// ran 4–5% faster at 1 and 2 threads (X is packed once per block of
// columns).
//
// The register block is packMR rows of two vectors for one product, and
// packTermsMR rows of one vector for a sum of products (syr2k's
// c + (x0·y0 + x1·y1), the original's association: a multiply, an FMA and
// an add per pair). With two vectors a row, each broadcast factor feeds
// two multiplies and gcc loads it into a register by a separate
// instruction (12 a k step besides the 36 arithmetic ones); with one
// vector, gcc folds every broadcast into its multiply ({1to8} on
// AVX-512). Alone on one core of the Zen 4 we measure on, the 6x16 block
// of two terms ran 48-50 GFLOP/s and the 8x8 one 58.5, the FMA peak;
// syr2k LARGE went from 72.7 to 59.8 ms at 1 thread. (Inside the
// kernel's function the 6x16 block also spilled a Y vector; outlined
// without the spill it gained only 3%.)
const (
	packMR      = 6
	packTermsMR = 8
	packMC      = 48
	packKC      = 256
	packYBytes  = 9 << 18 // 2.25 MiB: 1152 columns of double
	// A Y packed over the whole k range takes blocks of columns as wide
	// as keep it at packWholeY blocks of KC×packWholeNC elements.
	packWholeNC = 512
	packWholeY  = 4
)

// Pack replaces each loop at the top of b (alone in an if at the top, or
// in a chain of such ifs) that runs only instances of one matrix-product
// statement (see Packed), and all of them, by a Packed node. orig is the
// program before scheduling, whose statements match p's one for one. It
// returns the statements packed.
//
// The printed blocks read local buffers and block counts: they are
// printed between "#pragma endscop" and "#pragma scop" lines, outside the
// region, so that nestor reads its own output back (hence only at the
// top of the region).
func Pack(b *Block, p, orig *ir.Program, opt PackOptions) []int {
	var done []int
	for k, n := range b.Body {
		var guard []Cond
		for {
			f, ok := n.(*If)
			if !ok || len(f.Body) != 1 {
				break
			}
			guard = append(guard, f.Conds...)
			n = f.Body[0]
		}
		l, ok := n.(*Loop)
		if !ok {
			continue
		}
		parallel := opt.Parallel
		if opt.Marks != nil {
			var pack bool
			if pack, parallel = opt.Marks(l.Level); !pack {
				continue
			}
		}
		stmts := stmtsIn([]Node{l})
		if len(stmts) != 1 || slices.Contains(done, stmts[0]) {
			continue
		}
		var liveIn func(int) bool
		if opt.LiveIn != nil {
			st := stmts[0]
			liveIn = func(a int) bool { return opt.LiveIn(st, a) }
		}
		pk, ok := packable(orig, stmts[0], liveIn)
		if !ok || instancesOf([]Node{l}, stmts[0]) != instancesOf(b.Body, stmts[0]) || slices.ContainsFunc(guard, func(c Cond) bool { return len(c.Divs) > 0 }) {
			continue // some of its instances run elsewhere
		}
		pk.Stmt, pk.Guard, pk.Loop = stmts[0], guard, l
		size := orig.Arrays[orig.Stmts[stmts[0]].Accesses[0].Array].Elem.Size()
		pk.MR, pk.NR, pk.MC, pk.KC = packMR, max(4, 2*opt.VectorBytes/size), packMC, packKC
		if len(pk.Terms) > 1 {
			pk.MR, pk.NR = packTermsMR, max(4, opt.VectorBytes/size)
		}
		pk.NC = max(pk.NR, packYBytes/(pk.KC*size)/pk.NR*pk.NR)
		pk.Parallel = parallel
		b.Body[k] = pk
		done = append(done, stmts[0])
		if k > 0 && !pk.LiveIn && pk.KDiag == nil {
			pk.Init = foldableInit(b.Body, k-1, orig, pk)
		}
	}
	// The folded statements' loops run inside their products now.
	b.Body = slices.DeleteFunc(b.Body, func(n Node) bool {
		return slices.ContainsFunc(b.Body, func(m Node) bool {
			pk, ok := m.(*Packed)
			return ok && pk.Init != nil && pk.Init.Node == n
		})
	})
	return done
}

// foldableInit returns the statement of body[at], right before the packed
// product pk, as its PackInit when it is one (see PackInit): body[at]
// runs all of its instances and nothing else, and it writes the elements
// of W that pk computes, each once, reading only its own element.
func foldableInit(body []Node, at int, orig *ir.Program, pk *Packed) *PackInit {
	stmts := stmtsIn(body[at : at+1])
	if len(stmts) != 1 || instancesOf(body[at:at+1], stmts[0]) != instancesOf(body, stmts[0]) {
		return nil
	}
	s := orig.Stmts[stmts[0]]
	w := pk.Orig.Accesses[0]
	sw := s.Accesses[0]
	if sw.Array != w.Array || s.Depth() != 2 || len(s.Domain.Divs) > 0 {
		return nil
	}
	init := &PackInit{Stmt: stmts[0], Node: body[at]}
	elemType := orig.Arrays[w.Array].Elem
	// factor reports whether e is a value no statement of the region
	// changes and of W's type: a constant, a parameter, a scalar.
	factor := func(e ir.Expr) bool {
		switch e := e.(type) {
		case *ir.Const, *ir.ParamRef:
			return e.Type() == elemType
		case *ir.Load:
			a := s.Accesses[e.Access]
			if orig.Arrays[a.Array].Rank() != 0 || e.Type() != elemType {
				return false
			}
			return !slices.ContainsFunc(orig.Stmts, func(t *ir.Stmt) bool { return t.Accesses[0].Array == a.Array })
		}
		return false
	}
	own := func(e ir.Expr) bool { // a load of the element s writes
		l, ok := e.(*ir.Load)
		return ok && l.Access != 0 && s.Accesses[l.Access].Array == sw.Array && slices.EqualFunc(s.Accesses[l.Access].Index, sw.Index, ir.Aff.Equal)
	}
	rhs := s.RHS
	if c, ok := rhs.(*ir.Cast); ok && c.Implicit {
		if k, isConst := c.X.(*ir.Const); isConst && k.Int == 0 && k.Float == 0 {
			rhs = &ir.Const{T: c.T}
		}
	}
	switch {
	case s.Op == ir.MulAssign && factor(rhs):
		init.Factor = rhs
	case s.Op == ir.Assign:
		if k, ok := rhs.(*ir.Const); ok && k.Int == 0 && k.Float == 0 && len(s.Accesses) == 1 {
			init.Zero = true
			break
		}
		m, ok := rhs.(*ir.Binary)
		if !ok || m.Op != ir.Mul || len(s.Accesses) > 3 {
			return nil
		}
		switch {
		case own(m.X) && factor(m.Y):
			init.Factor = m.Y
		case own(m.Y) && factor(m.X):
			init.Factor, init.Left = m.X, true
		default:
			return nil
		}
	default:
		return nil
	}
	// The other accesses: the factor's scalar and reads of the own element.
	for a := 1; a < len(s.Accesses); a++ {
		acc := s.Accesses[a]
		if acc.Write || acc.Array == sw.Array && !slices.EqualFunc(acc.Index, sw.Index, ir.Aff.Equal) {
			return nil
		}
	}
	if !sameElements(orig, s, pk) {
		return nil
	}
	return init
}

// sameElements reports whether statement s (two counters) writes exactly
// the elements of W that the packed product pk computes: its subscripts
// are W's with its counters for pk's I and J (in some order), and its
// domain is pk's box over them (with pk's triangle), each implying the
// other (integer emptiness).
func sameElements(orig *ir.Program, s *ir.Stmt, pk *Packed) bool {
	w := pk.Orig.Accesses[0]
	np := len(orig.Params)
	// over s's counters: the product's form a with I, J renamed.
	for _, order := range [][2]int{{0, 1}, {1, 0}} {
		rename := func(a ir.Aff) (ir.Aff, bool) {
			out := ir.NewAff(2, np, 0)
			copy(out.Param, a.Param)
			out.Const = a.Const
			for k, c := range a.Iter {
				switch {
				case c == 0:
				case k == pk.I:
					out.Iter[order[0]] = c
				case k == pk.J:
					out.Iter[order[1]] = c
				default:
					return out, false
				}
			}
			return out, !slices.ContainsFunc(a.Local, func(c int64) bool { return c != 0 })
		}
		same := len(w.Index) == len(s.Accesses[0].Index)
		for d := 0; same && d < len(w.Index); d++ {
			x, ok := rename(w.Index[d])
			same = ok && x.Equal(s.Accesses[0].Index[d])
		}
		if !same {
			continue
		}
		// The product's elements as constraints over s's counters.
		var box []ir.Constraint
		for d := range 2 { // I − lower ≥ 0, upper − I ≥ 0; J's
			ctr := ir.NewAff(2, np, 0)
			ctr.Iter[order[d]] = 1
			lo, hi := ctr.Clone(), ctr.Clone()
			for q, c := range pk.Lower[d].Param {
				lo.Param[q] -= c
			}
			lo.Const -= pk.Lower[d].Const
			for q := range hi.Iter {
				hi.Iter[q] = -hi.Iter[q]
			}
			for q, c := range pk.Upper[d].Param {
				hi.Param[q] += c
			}
			hi.Const += pk.Upper[d].Const
			box = append(box, ir.Constraint{Aff: lo}, ir.Constraint{Aff: hi})
		}
		if dg := pk.Diag; dg != nil { // J ≤ I + B (Upper), J ≥ I + B
			e := ir.NewAff(2, np, 0)
			e.Iter[order[0]], e.Iter[order[1]], e.Const = 1, -1, dg.B // I + B − J ≥ 0
			if !dg.Upper {
				e.Iter[order[0]], e.Iter[order[1]], e.Const = -1, 1, -dg.B
			}
			box = append(box, ir.Constraint{Aff: e})
		}
		return impliesAll(orig, s.Domain.Cons, box) && impliesAll(orig, box, s.Domain.Cons)
	}
	return false
}

// impliesAll reports whether the constraints a (over two counters and
// orig's parameters, with orig's context) imply every constraint of b.
func impliesAll(orig *ir.Program, a, b []ir.Constraint) bool {
	l := irpoly.Layout{Dims: 2, Params: len(orig.Params)}
	base := append(l.Cons(a, 0, 2), l.Cons(orig.Context, 0, 2)...)
	ok, err := irpoly.Implies(irpoly.Anonymous(2, len(orig.Params)), base, l.Cons(b, 0, 2))
	return ok && err == nil
}

// instancesOf returns the number of Instance nodes of statement s in
// ns: a loop that holds all of them, outside every loop, runs every
// instance of s.
func instancesOf(ns []Node, s int) int {
	n := 0
	for _, nd := range ns {
		switch nd := nd.(type) {
		case *Instance:
			if nd.Stmt == s {
				n++
			}
		case *Loop:
			n += instancesOf(nd.Body, s)
		case *If:
			n += instancesOf(nd.Body, s)
		case *Block:
			n += instancesOf(nd.Body, s)
		}
	}
	return n
}

// Packable reports whether statement s of p is a matrix product Pack can
// run as packed blocks, when its loops hold nothing else (see packable).
func Packable(p *ir.Program, s int) bool {
	_, ok := packable(p, s, nil)
	return ok
}

// packable returns statement s of orig as a Packed product, or false:
// W[..] += a sum of products X * Y over a box of three counters, or a
// triangle of one (PackDiag: J against I, or K against I), W's subscripts
// one counter I and one J each (with coefficient ±1; the others
// constant), each X over I and K, each Y over K and J, no factor reading
// W's array but a Y whose reads of it liveIn accepts, in W's column
// (Packed.LiveIn), every value of one floating type.
func packable(orig *ir.Program, s int, liveIn func(a int) bool) (*Packed, bool) {
	st := orig.Stmts[s]
	if st.Depth() != 3 || st.Op != ir.AddAssign || len(st.Domain.Divs) > 0 {
		return nil, false
	}
	w := st.Accesses[0]
	arr := orig.Arrays[w.Array]
	t := arr.Elem
	if !t.IsFloat() || arr.Members != nil {
		return nil, false
	}
	// The subscripts of W: one counter each, I before J.
	pk := &Packed{Orig: st, I: -1, J: -1, K: -1}
	for _, x := range w.Index {
		if !allZero(x.Local) {
			return nil, false
		}
		var moved []int
		for l, c := range x.Iter {
			if c != 0 {
				if c != 1 && c != -1 {
					return nil, false
				}
				moved = append(moved, l)
			}
		}
		switch {
		case len(moved) == 0:
		case len(moved) > 1:
			return nil, false
		case pk.I < 0:
			pk.I = moved[0]
		case pk.J < 0 && moved[0] != pk.I:
			pk.J = moved[0]
		default:
			return nil, false
		}
	}
	if pk.I < 0 || pk.J < 0 {
		return nil, false
	}
	pk.K = 3 - pk.I - pk.J
	// The products and their sides.
	var muls []*ir.Binary
	var sum func(e ir.Expr) bool
	sum = func(e ir.Expr) bool {
		b, ok := e.(*ir.Binary)
		switch {
		case !ok || b.T != t:
			return false
		case b.Op == ir.Add:
			return sum(b.X) && sum(b.Y)
		case b.Op == ir.Mul:
			muls = append(muls, b)
			return true
		}
		return false
	}
	if !sum(st.RHS) {
		return nil, false
	}
	sideOf := func(e ir.Expr) (uses [3]bool, readsW []int, ok bool) {
		ok = true
		var visit func(e ir.Expr)
		visit = func(e ir.Expr) {
			switch e := e.(type) {
			case *ir.Const, *ir.ParamRef:
			case *ir.IterRef:
				uses[e.Level] = true
			case *ir.Load:
				a := st.Accesses[e.Access]
				if a.Array == w.Array {
					readsW = append(readsW, e.Access)
				}
				if orig.Arrays[a.Array].Members != nil {
					ok = false
				}
				for _, x := range a.Index {
					if !allZero(x.Local) {
						ok = false
					}
					for l, c := range x.Iter {
						if c != 0 {
							uses[l] = true
						}
					}
				}
			case *ir.Unary:
				visit(e.X)
			case *ir.Binary:
				visit(e.X)
				visit(e.Y)
			case *ir.Cast:
				visit(e.X)
			default: // calls, conditionals: not in a packed product
				ok = false
			}
		}
		visit(e)
		return uses, readsW, ok && e.Type() == t
	}
	// column reports whether access a of W's array reads an element of
	// W's column and a row that does not move with I or J: then writes
	// to W's columns of a block of J reach no read of another block.
	column := func(a int) bool {
		if liveIn == nil || !liveIn(a) {
			return false
		}
		y := st.Accesses[a]
		for d, x := range y.Index {
			wx := w.Index[d]
			if wx.Iter[pk.J] != 0 {
				if !x.Equal(wx) {
					return false
				}
			} else if x.Iter[pk.I] != 0 || x.Iter[pk.J] != 0 {
				return false
			}
		}
		return true
	}
	for _, mul := range muls {
		ux, wx, okx := sideOf(mul.X)
		uy, wy, oky := sideOf(mul.Y)
		if !okx || !oky {
			return nil, false
		}
		tm := PackTerm{X: mul.X, Y: mul.Y, Node: mul}
		switch {
		case !ux[pk.J] && !uy[pk.I]:
		case !uy[pk.J] && !ux[pk.I]:
			tm.X, tm.Y = mul.Y, mul.X
			wx, wy = wy, wx
		default:
			return nil, false
		}
		if len(wx) > 0 || slices.ContainsFunc(wy, func(a int) bool { return !column(a) }) {
			return nil, false
		}
		pk.LiveIn = pk.LiveIn || len(wy) > 0
		pk.Terms = append(pk.Terms, tm)
	}
	// The box: one lower and one upper bound per counter, over the
	// parameters, and at most one constraint J − I against a constant.
	var seenLo, seenHi [3]bool
	for _, c := range st.Domain.Cons {
		if c.Eq || !allZero(c.Local) {
			return nil, false
		}
		l, n := -1, 0
		for m, x := range c.Iter {
			if x != 0 {
				l, n = m, n+1
			}
		}
		if n == 2 && pk.Diag == nil && pk.KDiag == nil && allZero(c.Aff.Param) && c.Iter[pk.J] == 0 && c.Iter[pk.I]*c.Iter[pk.K] == -1 {
			// K − I + b ≥ 0: K ≥ I − b; I − K + b ≥ 0: K ≤ I + b.
			if c.Iter[pk.K] == 1 {
				pk.KDiag = &PackDiag{B: -c.Aff.Const}
			} else {
				pk.KDiag = &PackDiag{Upper: true, B: c.Aff.Const}
			}
			continue
		}
		if n == 2 && pk.Diag == nil && pk.KDiag == nil && allZero(c.Aff.Param) && c.Iter[pk.K] == 0 && c.Iter[pk.I]*c.Iter[pk.J] == -1 {
			// I − J + b ≥ 0: J ≤ I + b; J − I + b ≥ 0: J ≥ I − b.
			if c.Iter[pk.I] == 1 {
				pk.Diag = &PackDiag{Upper: true, B: c.Aff.Const}
			} else {
				pk.Diag = &PackDiag{B: -c.Aff.Const}
			}
			continue
		}
		if n != 1 || (c.Iter[l] != 1 && c.Iter[l] != -1) {
			return nil, false
		}
		slot := [3]int{pk.I, pk.J, pk.K}
		d := slices.Index(slot[:], l)
		bound := c.Aff.Clone()
		bound.Iter = nil
		if c.Iter[l] == 1 { // x + b ≥ 0: x ≥ −b
			if seenLo[d] {
				return nil, false
			}
			seenLo[d], pk.Lower[d] = true, bound.Neg()
		} else { // b − x ≥ 0: x ≤ b
			if seenHi[d] {
				return nil, false
			}
			seenHi[d], pk.Upper[d] = true, bound
		}
	}
	if dg := pk.Diag; dg != nil {
		// A bound of I or J the triangle gives, where the box has none.
		const i, j = 0, 1
		shift := func(a ir.Aff, c int64) ir.Aff { a = a.Clone(); a.Const += c; return a }
		if dg.Upper { // J ≤ I + B, I ≥ J − B
			if !seenHi[j] && seenHi[i] {
				seenHi[j], pk.Upper[j] = true, shift(pk.Upper[i], dg.B)
			}
			if !seenLo[i] && seenLo[j] {
				seenLo[i], pk.Lower[i] = true, shift(pk.Lower[j], -dg.B)
			}
		} else { // J ≥ I + B, I ≤ J − B
			if !seenLo[j] && seenLo[i] {
				seenLo[j], pk.Lower[j] = true, shift(pk.Lower[i], dg.B)
			}
			if !seenHi[i] && seenHi[j] {
				seenHi[i], pk.Upper[i] = true, shift(pk.Upper[j], -dg.B)
			}
		}
	}
	if dg := pk.KDiag; dg != nil && !pk.kBounds(&seenLo, &seenHi) || pk.LiveIn && pk.Diag != nil {
		return nil, false
	}
	if seenLo != [3]bool{true, true, true} || seenHi != [3]bool{true, true, true} {
		return nil, false
	}
	if dg := pk.Diag; dg != nil {
		// The box must be the triangle's projection: the first row meets
		// a column and the last column a row (J ≤ I + B), or the last row
		// and the first column (J ≥ I + B). Each difference must be a
		// constant.
		lo, hi := pk.Lower, pk.Upper
		var d1, d2 int64
		var ok1, ok2 bool
		if dg.Upper {
			d1, ok1 = constDiff(lo[0], lo[1]) // Ilo − Jlo ≥ −B
			d2, ok2 = constDiff(hi[0], hi[1]) // Ihi − Jhi ≥ −B
			ok1, ok2 = ok1 && d1+dg.B >= 0, ok2 && d2+dg.B >= 0
		} else {
			d1, ok1 = constDiff(hi[1], hi[0]) // Jhi − Ihi ≥ B
			d2, ok2 = constDiff(lo[1], lo[0]) // Jlo − Ilo ≥ B
			ok1, ok2 = ok1 && d1 >= dg.B, ok2 && d2 >= dg.B
		}
		if !ok1 || !ok2 {
			return nil, false
		}
	}
	return pk, true
}

// kBounds completes and tightens the bounds of I and K that the
// constraint KDiag and the other's bounds give: every row of the box then
// meets some k and every k some row (the statement reads each packed
// element, and writes each row it loads), with I's bound on the side
// the constraint does not give. False
// when the bounds needed differ by more than a constant.
func (pk *Packed) kBounds(seenLo, seenHi *[3]bool) bool {
	const i, k = 0, 2
	dg := pk.KDiag
	shift := func(a ir.Aff, c int64) ir.Aff { a = a.Clone(); a.Const += c; return a }
	// tighten sets bound d of slot to src + c when it is missing, or
	// when it is looser (further from the box's inside, on the side
	// lower says) than that.
	tighten := func(bounds *[3]ir.Aff, seen *[3]bool, slot int, src ir.Aff, c int64, lower bool) bool {
		want := shift(src, c)
		if !seen[slot] {
			seen[slot], bounds[slot] = true, want
			return true
		}
		diff, ok := constDiff(bounds[slot], want)
		if !ok {
			return false
		}
		if lower && diff < 0 || !lower && diff > 0 {
			bounds[slot] = want
		}
		return true
	}
	if dg.Upper { // K ≤ I + B: K below I's last row + B, I from K's first − B
		return seenHi[i] && tighten(&pk.Upper, seenHi, k, pk.Upper[i], dg.B, false) &&
			seenLo[k] && tighten(&pk.Lower, seenLo, i, pk.Lower[k], -dg.B, true)
	}
	// K ≥ I + B: K from I's first row + B, I below K's last − B (symm's
	// C[k][j] += … for k < i gives I no other upper bound).
	return seenLo[i] && tighten(&pk.Lower, seenLo, k, pk.Lower[i], dg.B, true) &&
		seenHi[k] && tighten(&pk.Upper, seenHi, i, pk.Upper[k], -dg.B, false)
}

// adjacentAlongJ reports whether every array the Y factors read moves
// its last subscript with J: the factors' elements of one k step lie
// side by side along j (gemm's B[k][j], not syrk's A[j][k]).
func (n *Packed) adjacentAlongJ() bool {
	ok := true
	for _, tm := range n.Terms {
		ir.Walk(tm.Y, func(e ir.Expr) bool {
			if l, isLoad := e.(*ir.Load); isLoad {
				idx := n.Orig.Accesses[l.Access].Index
				if len(idx) == 0 || n.J >= len(idx[len(idx)-1].Iter) || idx[len(idx)-1].Iter[n.J] == 0 {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// prefetchNext prints, ahead of a micro-kernel, prefetches of the block
// of W the next one (MR rows further down the same columns) loads: its
// elements come from L3 or memory, and the accumulators' first
// multiply-adds wait for them. Issued a whole micro-kernel (KC steps)
// early they arrive in time: gemm LARGE ran 10–15% faster with them, at 1
// and 2 threads. Two prefetches per row cover its at most NR adjacent
// elements (two 64-byte lines, or three when they straddle one); past
// the block's last row they repeat it, so the loop has a constant trip
// count and gcc unrolls it (guarded by an if, the loop had gcc spill an
// operand of syr2k's micro-kernel to the stack, 7% slower). Only where
// W's rows lie along j (its last subscript moves with J).
func (n *Packed) prefetchNext(line func(string, ...any), ct string, elem func([3]string) string, i, j func(...string) string) {
	idx := n.Orig.Accesses[0].Index
	if len(idx) == 0 {
		return
	}
	if last := idx[len(idx)-1]; n.J >= len(last.Iter) || last.Iter[n.J] == 0 {
		return
	}
	row := "nestor_min(nestor_ir + nestor_r, nestor_mc - 1)"
	line("for (%s nestor_r = %d; nestor_r < %d; nestor_r++) { /* the next block's W on its way to the cache */", ct, n.MR, 2*n.MR)
	line("  __builtin_prefetch(&%s, 1, 3);", elem([3]string{i("nestor_ic", row), j("nestor_jc", "nestor_jr"), ""}))
	line("  __builtin_prefetch(&%s, 1, 3);", elem([3]string{i("nestor_ic", row), j("nestor_jc", "nestor_jr", "nestor_nr - 1"), ""}))
	line("}")
}

// constDiff returns a − b when it is a constant (the same parameter
// coefficients).
func constDiff(a, b ir.Aff) (int64, bool) {
	for k := range max(len(a.Param), len(b.Param)) {
		var x, y int64
		if k < len(a.Param) {
			x = a.Param[k]
		}
		if k < len(b.Param) {
			y = b.Param[k]
		}
		if x != y {
			return 0, false
		}
	}
	return a.Const - b.Const, true
}

// kernelSum prints e, the right-hand side of n's statement or a part of
// it, with each product replaced by term(q) for its term q: the sum the
// micro-kernel adds, grouped as the statement groups it (an addition on
// the right of another is parenthesized).
func (n *Packed) kernelSum(e ir.Expr, right bool, term func(q int) string) string {
	b := e.(*ir.Binary) // packable: sums of the products
	for q, tm := range n.Terms {
		if tm.Node == b {
			return term(q)
		}
	}
	s := n.kernelSum(b.X, false, term) + " + " + n.kernelSum(b.Y, true, term)
	if right {
		return "(" + s + ")"
	}
	return s
}

// packed prints n: the buffers, the loops over the blocks, the packing
// of each block, and the micro-kernel.
func (pr *printer) packed(n *Packed, depth int) {
	st := n.Orig
	t := pr.p.Arrays[st.Accesses[0].Array].Elem.String()
	ct := pr.counter
	params := pr.params
	extent := func(d int) string {
		e := n.Upper[d].Clone()
		lo := n.Lower[d]
		for len(e.Param) < len(lo.Param) {
			e.Param = append(e.Param, 0)
		}
		for k, c := range lo.Param {
			e.Param[k] -= c
		}
		e.Const += 1 - lo.Const
		return ir.FormatAff(e, ir.Names{Param: params})
	}
	// The statement's counters as forms of the names given.
	counter := func(d int, parts ...string) string {
		if lo := n.Lower[d]; !lo.IsConst() || lo.Const != 0 {
			parts = append([]string{ir.FormatAff(lo, ir.Names{Param: params})}, parts...)
		}
		return "(" + strings.Join(parts, " + ") + ")"
	}
	// expr prints e with the statement's counters I, J, K replaced.
	expr := func(e ir.Expr, vals [3]string) string {
		names := make([]string, 3)
		names[n.I], names[n.J], names[n.K] = vals[0], vals[1], vals[2]
		load := func(l *ir.Load) string {
			a := st.Accesses[l.Access]
			return pr.p.Arrays[a.Array].Element(a.Index, func(x ir.Aff) string {
				return ir.FormatAff(x, ir.Names{Iter: names, Param: params})
			})
		}
		iter := func(r *ir.IterRef) string { return names[r.Level] }
		return ir.FormatExpr(e, load, iter, params)
	}
	w := st.Accesses[0]
	elem := func(vals [3]string) string {
		names := make([]string, 3)
		names[n.I], names[n.J], names[n.K] = vals[0], vals[1], vals[2]
		return pr.p.Arrays[w.Array].Element(w.Index, func(x ir.Aff) string {
			return ir.FormatAff(x, ir.Names{Iter: names, Param: params})
		})
	}
	pr.used["nestor_min"], pr.used["nestor_pack_alloc"] = true, true
	if n.Parallel {
		pr.used["NESTOR_PACK_FORK_WORK"] = true
	}
	i := func(parts ...string) string { return counter(0, parts...) }
	j := func(parts ...string) string { return counter(1, parts...) }
	k := func(parts ...string) string { return counter(2, parts...) }
	d := depth
	line := func(format string, args ...any) { pr.line(d, fmt.Sprintf(format, args...)) }
	pr.line(0, "#pragma endscop")
	if len(n.Guard) > 0 {
		var conds []string
		for _, c := range n.Guard {
			conds = append(conds, pr.cond(c))
		}
		line("if (%s)", strings.Join(conds, " && "))
		d++
	}
	line("{ /* %s as packed blocks (BLIS): %dx%d register block, %dx%d blocks of X, %dx(at most %d) of Y */", st.Name, n.MR, n.NR, n.MC, n.KC, n.KC, n.NC)
	d++
	line("%s nestor_ni = %s, nestor_nj = %s, nestor_nk = %s;", ct, extent(0), extent(1), extent(2))
	line("if ((double)nestor_ni * nestor_nj * nestor_nk < %d) {", packMinWork)
	if n.Init != nil {
		pr.node(n.Init.Node, d+1)
	}
	pr.node(n.Loop, d+1)
	line("} else {")
	d++
	// Term q's buffers and its X value in the micro-kernel.
	sfx := func(q int) string {
		if q == 0 {
			return ""
		}
		return fmt.Sprint(q + 1)
	}
	// whole: Y packed over the whole k range per block of columns
	// (KDiag, LiveIn), else over one block of k at a time.
	whole := n.KDiag != nil || n.LiveIn
	if whole {
		// A block of columns as wide as keeps Y's buffer at
		// packWholeY·KC×NC elements (4 MB for double: in L3, a couple of
		// 2 MB pages to map on a first call). Narrower blocks pack X
		// once more per block: trmm LARGE (k over 999) ran 9% slower at
		// one thread with blocks of 128 columns than with 512.
		line("%s nestor_ncb = nestor_max(%d, nestor_min(%d, %d / nestor_max(nestor_nk, 1) / %d * %d));", ct, n.NR, packWholeNC, packWholeY*n.KC*packWholeNC, n.NR, n.NR)
		for q := range n.Terms {
			line("%s *nestor_Bp%s = (%s *) nestor_pack_alloc(sizeof(%s) * nestor_nk * nestor_ncb);", t, sfx(q), t, t)
		}
	} else {
		// Blocks of columns of equal width (a multiple of NR), at most NC.
		line("%s nestor_ncb = (nestor_nj + %d) / %d; /* blocks of columns */", ct, n.NC-1, n.NC)
		line("nestor_ncb = ((nestor_nj + nestor_ncb - 1) / nestor_ncb + %d) / %d * %d; /* their width */", n.NR-1, n.NR, n.NR)
		if !n.Parallel {
			for q := range n.Terms {
				line("%s *nestor_Bp%s = (%s *) nestor_pack_alloc(sizeof(%s) * %d * nestor_ncb);", t, sfx(q), t, t, n.KC)
			}
		}
	}
	// ownY: in parallel, every thread packs its own copy of each block of
	// Y and takes the same blocks of rows at every k block (a static
	// schedule over the same count), so the threads never wait for one
	// another until the product ends: a thread the system holds back
	// (another process on its core) delays only its own rows, where a
	// barrier per k block made the team wait for it every time (gemm at
	// 2 threads beside a busy process: 137 ms with barriers, 54 ms
	// without, 35 ms at 1 thread). It packs the whole block of Y, twice
	// the packing of a shared copy at 2 threads, a few percent of the
	// product's time. A live-in Y (whole) stays shared: its packing must
	// end, in every thread, before any thread writes W's columns.
	ownY := n.Parallel && !whole
	if n.Parallel {
		line("#pragma omp parallel if(nestor_ni > %d && (double)nestor_ni * nestor_nj * nestor_nk >= NESTOR_PACK_FORK_WORK)", n.MC)
	}
	line("{")
	d++
	for q := range n.Terms {
		line("%s *nestor_Ap%s = (%s *) nestor_pack_alloc(sizeof(%s) * %d * %d);", t, sfx(q), t, t, n.MC, n.KC)
	}
	if ownY {
		for q := range n.Terms {
			line("%s *nestor_Bp%s = (%s *) nestor_pack_alloc(sizeof(%s) * %d * nestor_ncb);", t, sfx(q), t, t, n.KC)
		}
	}
	// pack prints the loops that copy a block of each term's side into
	// its buffer; one statement per term. The block's k steps are
	// nestor_p < nestor_kc; its rows or columns nestor_<ctr>r <
	// nestor_<sz>c, in panels of width. A whole panel copies without a
	// test per element: the tests compiled to a compare and branch per
	// element, and trmm spent a tenth of its time packing X so.
	pack := func(ctr, sz, count string, width int, buf string, side func(PackTerm) ir.Expr, at [3]string) {
		line("for (%s nestor_%sr = 0; nestor_%sr < nestor_%sc; nestor_%sr += %d)", ct, ctr, ctr, sz, ctr, width)
		line("  if (nestor_%sr + %d <= nestor_%sc) {", ctr, width, sz)
		copies := func(edge bool) {
			line("    for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++) {", ct)
			for q, tm := range n.Terms {
				line("      for (%s nestor_%s = 0; nestor_%s < %d; nestor_%s++)", ct, count, count, width, count)
				dst := fmt.Sprintf("%s%s[nestor_%sr * nestor_kc + nestor_p * %d + nestor_%s]", buf, sfx(q), ctr, width, count)
				if edge {
					line("        %s = nestor_%sr + nestor_%s < nestor_%sc ? %s : 0;", dst, ctr, count, sz, expr(side(tm), at))
				} else {
					line("        %s = %s;", dst, expr(side(tm), at))
				}
			}
			line("    }")
		}
		copies(false)
		line("  } else {")
		copies(true)
		line("  }")
	}
	// micro prints the micro-kernels of a row block's k block (nestor_pc,
	// nestor_kc): over each MR×NR block of W, an accumulator block loaded,
	// the k steps added, stored; bStride and bRow index the Y buffer.
	// first returns the value element x of W enters the accumulators
	// with: its own, or, where an initializing statement is folded in
	// (Init, only without whole), at the first block of k the value that
	// statement gives it.
	first := func(x string) string {
		if n.Init == nil || whole {
			return x
		}
		if n.Init.Zero {
			return "(nestor_pc == 0 ? 0 : " + x + ")"
		}
		is := pr.p.Stmts[n.Init.Stmt]
		f := ir.FormatExpr(n.Init.Factor, func(l *ir.Load) string {
			a := is.Accesses[l.Access]
			return pr.p.Arrays[a.Array].Element(a.Index, func(x ir.Aff) string { return ir.FormatAff(x, ir.Names{Param: params}) })
		}, func(*ir.IterRef) string { return "" }, params)
		if n.Init.Left {
			return fmt.Sprintf("(nestor_pc == 0 ? %s * %s : %s)", f, x, x)
		}
		return fmt.Sprintf("(nestor_pc == 0 ? %s * %s : %s)", x, f, x)
	}
	micro := func(bStride, bRow string) {
		line("for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d)", ct, n.NR)
		line("  for (%s nestor_ir = 0; nestor_ir < nestor_mc; nestor_ir += %d) {", ct, n.MR)
		d += 2
		ij := [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), j("nestor_jc", "nestor_jr", "nestor_v"), ""}
		line("%s nestor_mr = nestor_min(%d, nestor_mc - nestor_ir), nestor_nr = nestor_min(%d, nestor_nc - nestor_jr);", ct, n.MR, n.NR)
		in, inside := "", ""
		if dg := n.Diag; dg != nil {
			// Column minus row, offsets from the box's corner, against the
			// triangle's edge: an element is in the domain when it is on the
			// edge's side, a block is skipped when none of its elements is,
			// and runs unmasked when all of its elements are.
			dd, _ := constDiff(n.Lower[0], n.Lower[1])
			dd += dg.B
			if dg.Upper {
				line("if (nestor_jc + nestor_jr - (nestor_ic + nestor_ir + nestor_mr - 1) > %d)", dd)
				in = fmt.Sprintf("nestor_jc + nestor_jr + nestor_v - (nestor_ic + nestor_ir + nestor_r) <= %d", dd)
				inside = fmt.Sprintf(" && nestor_jc + nestor_jr + %d - (nestor_ic + nestor_ir) <= %d", n.NR-1, dd)
			} else {
				line("if (nestor_jc + nestor_jr + nestor_nr - 1 - (nestor_ic + nestor_ir) < %d)", dd)
				in = fmt.Sprintf("nestor_jc + nestor_jr + nestor_v - (nestor_ic + nestor_ir + nestor_r) >= %d", dd)
				inside = fmt.Sprintf(" && nestor_jc + nestor_jr - (nestor_ic + nestor_ir + %d) >= %d", n.MR-1, dd)
			}
			line("  continue; /* the block lies outside the triangle */")
		}
		n.prefetchNext(line, ct, elem, i, j)
		line("%s nestor_c[%d][%d];", t, n.MR, n.NR)
		steps := func() {
			line("for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++)", ct)
			line("  for (%s nestor_r = 0; nestor_r < %d; nestor_r++) {", ct, n.MR)
			for q := range n.Terms {
				line("    %s nestor_a%s = nestor_Ap%s[nestor_ir * nestor_kc + nestor_p * %d + nestor_r];", t, sfx(q), sfx(q), n.MR)
			}
			line("    #pragma omp simd")
			line("    for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
			line("      nestor_c[nestor_r][nestor_v] += %s;", n.kernelSum(st.RHS, false, func(q int) string {
				return fmt.Sprintf("nestor_a%s * nestor_Bp%s[nestor_jr * %s + %s * %d + nestor_v]", sfx(q), sfx(q), bStride, bRow, n.NR)
			}))
			line("  }")
		}
		// A whole block (every element in the domain) moves between W
		// and the accumulators in unmasked vector loops; the masked
		// copies of the blocks at the edges cost gcc a call to memcpy
		// per row and the vector unit's state switch around it, about
		// 5% of gemm's time.
		line("if (nestor_mr == %d && nestor_nr == %d%s) {", n.MR, n.NR, inside)
		d++
		line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
		line("  #pragma omp simd")
		line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
		line("    nestor_c[nestor_r][nestor_v] = %s;", first(elem(ij)))
		steps()
		line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
		line("  #pragma omp simd")
		line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
		line("    %s = nestor_c[nestor_r][nestor_v];", elem(ij))
		d--
		line("} else {")
		d++
		line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
		line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
		if in != "" {
			line("    nestor_c[nestor_r][nestor_v] = nestor_r < nestor_mr && nestor_v < nestor_nr && %s ? %s : 0;", in, first(elem(ij)))
		} else {
			line("    nestor_c[nestor_r][nestor_v] = nestor_r < nestor_mr && nestor_v < nestor_nr ? %s : 0;", first(elem(ij)))
		}
		steps()
		line("for (%s nestor_r = 0; nestor_r < nestor_mr; nestor_r++)", ct)
		line("  for (%s nestor_v = 0; nestor_v < nestor_nr; nestor_v++)", ct)
		if in != "" {
			line("    if (%s)", in)
			line("      %s = nestor_c[nestor_r][nestor_v];", elem(ij))
		} else {
			line("    %s = nestor_c[nestor_r][nestor_v];", elem(ij))
		}
		d--
		line("}")
		d -= 2
		line("  }")
	}
	packA := func() {
		pack("i", "m", "r", n.MR, "nestor_Ap", func(tm PackTerm) ir.Expr { return tm.X }, [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), "", k("nestor_pc", "nestor_p")})
	}
	if whole {
		// Per block of columns: Y packed over the whole k range (before
		// any of the block's columns of W is written: a live-in Y reads
		// the values the region had on entry), then per block of rows
		// the triangle's edge in masked loops and the rest of k in
		// packed blocks, in increasing k.
		var dd int64 // k offset ≥ (or ≤) i offset + dd
		if n.KDiag != nil {
			dd, _ = constDiff(n.Lower[0], n.Lower[2])
			dd += n.KDiag.B
		}
		pr.used["nestor_max"] = true
		lo, hi := "0", "nestor_ni"
		if n.Parallel {
			rowRanges(pr, line, n, ct)
			lo, hi = "nestor_i0", "nestor_i1"
		}
		line("for (%s nestor_jc = 0; nestor_jc < nestor_nj; nestor_jc += nestor_ncb) {", ct)
		d++
		line("%s nestor_nc = nestor_min(nestor_ncb, nestor_nj - nestor_jc);", ct)
		if n.Parallel {
			line("#pragma omp for")
		}
		// Row by row of Y: each row's panels are contiguous in Y, and the
		// k range is long (a panel at a time would walk a page per row);
		// the copy loops have no condition, so that they vectorize.
		line("for (%s nestor_p = 0; nestor_p < nestor_nk; nestor_p++)", ct)
		line("  for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d) {", ct, n.NR)
		d += 2
		line("%s nestor_nr = nestor_min(%d, nestor_nc - nestor_jr);", ct, n.NR)
		for q, tm := range n.Terms {
			line("#pragma omp simd")
			line("for (%s nestor_v = 0; nestor_v < nestor_nr; nestor_v++)", ct)
			line("  nestor_Bp%s[nestor_jr * nestor_nk + nestor_p * %d + nestor_v] = %s;", sfx(q), n.NR,
				expr(tm.Y, [3]string{"", j("nestor_jc", "nestor_jr", "nestor_v"), k("nestor_p")}))
			line("for (%s nestor_v = nestor_nr; nestor_v < %d; nestor_v++)", ct, n.NR)
			line("  nestor_Bp%s[nestor_jr * nestor_nk + nestor_p * %d + nestor_v] = 0;", sfx(q), n.NR)
		}
		d -= 2
		line("  }")
		// Each thread its rows (rowRanges), then a barrier: the next
		// block of columns packs Y again.
		line("for (%s nestor_ic = %s; nestor_ic < %s; nestor_ic += %d) {", ct, lo, hi, n.MC)
		d++
		line("%s nestor_mc = nestor_min(%d, %s - nestor_ic);", ct, n.MC, hi)
		// [nestor_k0, nestor_k1) are the k offsets every row of the block
		// takes, in packed blocks (full); each row takes the rest of its
		// range, below k0 (K ≥ I + B) or from k1 (K ≤ I + B), in the
		// edge's loops.
		full := func() {
			line("for (%s nestor_kc, nestor_pc = nestor_k0; nestor_pc < nestor_k1; nestor_pc += nestor_kc) {", ct)
			d++
			line("nestor_kc = nestor_min(%d, nestor_k1 - nestor_pc);", n.KC)
			packA()
			micro("nestor_nk", "(nestor_pc + nestor_p)")
			d--
			line("}")
		}
		// edge prints the masked loops of the triangle's edge: per panel
		// of NR columns and row, a row of W in a local array (registers)
		// along the row's k offsets [from, to), then stored.
		edge := func(from, to func(row string) string) {
			line("for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d) {", ct, n.NR)
			d++
			line("%s nestor_nr = nestor_min(%d, nestor_nc - nestor_jr);", ct, n.NR)
			line("for (%s nestor_ir = 0; nestor_ir < nestor_mc; nestor_ir += %d) {", ct, n.MR)
			d++
			line("%s nestor_mr = nestor_min(%d, nestor_mc - nestor_ir);", ct, n.MR)
			// A full panel of MR rows: an MR×NR block of W in registers,
			// as in the micro-kernel, along the k steps of any of its
			// rows; X read in place. A row's first and last steps move
			// with the row (one of them is the block's for all), so the
			// steps where every row takes part run unmasked between the
			// masked ones, all in increasing k.
			line("if (nestor_mr == %d) {", n.MR)
			d++
			wr := elem([3]string{i("nestor_ic", "nestor_ir", "nestor_r"), j("nestor_jc", "nestor_jr", "nestor_v"), ""})
			line("%s nestor_c[%d][%d];", t, n.MR, n.NR)
			line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
			line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
			line("    nestor_c[nestor_r][nestor_v] = nestor_v < nestor_nr ? %s : 0;", wr)
			last := fmt.Sprintf("nestor_ir + %d", n.MR-1)
			line("%s nestor_pa = %s, nestor_pb = %s, nestor_pe = %s, nestor_pf = %s;", ct, from("nestor_ir"), from(last), to("nestor_ir"), to(last))
			steps := func(lo, hi string, masked bool) {
				line("for (%s nestor_p = %s; nestor_p < %s; nestor_p++)", ct, lo, hi)
				line("  for (%s nestor_r = 0; nestor_r < %d; nestor_r++) {", ct, n.MR)
				d += 2
				if masked {
					row := "nestor_ir + nestor_r"
					line("if (nestor_p < %s || nestor_p >= %s)", from(row), to(row))
					line("  continue;")
				}
				irk := [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), "", k("nestor_p")}
				for q, tm := range n.Terms {
					line("%s nestor_a%s = %s;", t, sfx(q), expr(tm.X, irk))
				}
				line("#pragma omp simd")
				line("for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
				line("  nestor_c[nestor_r][nestor_v] += %s;", n.kernelSum(st.RHS, false, func(q int) string {
					return fmt.Sprintf("nestor_a%s * nestor_Bp%s[nestor_jr * nestor_nk + nestor_p * %d + nestor_v]", sfx(q), sfx(q), n.NR)
				}))
				d -= 2
				line("  }")
			}
			line("if (nestor_pb < nestor_pe) {")
			d++
			steps("nestor_pa", "nestor_pb", true)
			steps("nestor_pb", "nestor_pe", false)
			steps("nestor_pe", "nestor_pf", true)
			d--
			line("} else {")
			d++
			steps("nestor_pa", "nestor_pf", true)
			d--
			line("}")
			line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
			line("  for (%s nestor_v = 0; nestor_v < nestor_nr; nestor_v++)", ct)
			line("    %s = nestor_c[nestor_r][nestor_v];", wr)
			d--
			line("} else")
			// The last rows of the block, one at a time.
			line("  for (%s nestor_r = 0; nestor_r < nestor_mr; nestor_r++) {", ct)
			d += 2
			row := "nestor_ir + nestor_r"
			w := elem([3]string{i("nestor_ic", "nestor_ir", "nestor_r"), j("nestor_jc", "nestor_jr", "nestor_v"), ""})
			line("%s nestor_c[%d];", t, n.NR)
			line("for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
			line("  nestor_c[nestor_v] = nestor_v < nestor_nr ? %s : 0;", w)
			line("for (%s nestor_p = %s; nestor_p < %s; nestor_p++) {", ct, from(row), to(row))
			ik := [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), "", k("nestor_p")}
			for q, tm := range n.Terms {
				line("  %s nestor_a%s = %s;", t, sfx(q), expr(tm.X, ik))
			}
			line("  #pragma omp simd")
			line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
			line("    nestor_c[nestor_v] += %s;", n.kernelSum(st.RHS, false, func(q int) string {
				return fmt.Sprintf("nestor_a%s * nestor_Bp%s[nestor_jr * nestor_nk + nestor_p * %d + nestor_v]", sfx(q), sfx(q), n.NR)
			}))
			line("}")
			line("for (%s nestor_v = 0; nestor_v < nestor_nr; nestor_v++)", ct)
			line("  %s = nestor_c[nestor_v];", w)
			d -= 2
			line("  }")
			d--
			line("}")
			d--
			line("}")
		}
		switch {
		case n.KDiag == nil:
			line("%s nestor_k0 = 0, nestor_k1 = nestor_nk;", ct)
			full()
		case !n.KDiag.Upper:
			line("%s nestor_k0 = nestor_max(0, nestor_min(nestor_nk, nestor_ic + nestor_mc - 1 + %d)), nestor_k1 = nestor_nk;", ct, dd)
			edge(func(row string) string { return fmt.Sprintf("nestor_max(0, nestor_ic + %s + %d)", row, dd) },
				func(string) string { return "nestor_k0" })
			full()
		default:
			line("%s nestor_k0 = 0, nestor_k1 = nestor_max(0, nestor_min(nestor_nk, nestor_ic + %d + 1));", ct, dd)
			full()
			edge(func(string) string { return "nestor_k1" },
				func(row string) string { return fmt.Sprintf("nestor_min(nestor_nk, nestor_ic + %s + %d)", row, dd+1) })
		}
		d--
		line("}")
		if n.Parallel {
			line("#pragma omp barrier")
		}
		d--
		line("}")
	} else {
		lo, hi := "0", "nestor_ni"
		if n.Parallel {
			rowRanges(pr, line, n, ct)
			lo, hi = "nestor_i0", "nestor_i1"
		}
		line("for (%s nestor_jc = 0; nestor_jc < nestor_nj; nestor_jc += nestor_ncb)", ct)
		d++
		line("for (%s nestor_pc = 0; nestor_pc < nestor_nk; nestor_pc += %d) {", ct, n.KC)
		d++
		line("%s nestor_nc = nestor_min(nestor_ncb, nestor_nj - nestor_jc), nestor_kc = nestor_min(%d, nestor_nk - nestor_pc);", ct, n.KC)
		if n.adjacentAlongJ() {
			// Row by row of Y, as its elements lie in memory: a panel at
			// a time would walk a page per k step. gemm LARGE at 2
			// threads packed Y in 2.0–2.4 ms of each thread's 30 ms
			// panel by panel, about 1 ms less row by row.
			line("for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++)", ct)
			line("  for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d) {", ct, n.NR)
			for q, tm := range n.Terms {
				line("    for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
				line("      nestor_Bp%s[nestor_jr * nestor_kc + nestor_p * %d + nestor_v] = nestor_jr + nestor_v < nestor_nc ? %s : 0;", sfx(q), n.NR,
					expr(tm.Y, [3]string{"", j("nestor_jc", "nestor_jr", "nestor_v"), k("nestor_pc", "nestor_p")}))
			}
			line("  }")
		} else {
			pack("j", "n", "v", n.NR, "nestor_Bp", func(tm PackTerm) ir.Expr { return tm.Y }, [3]string{"", j("nestor_jc", "nestor_jr", "nestor_v"), k("nestor_pc", "nestor_p")})
		}
		// In parallel, each thread takes its own rows [nestor_i0,
		// nestor_i1) at every k block: each element still sums its k
		// blocks in order, in one thread, with no barrier between them.
		line("for (%s nestor_ic = %s; nestor_ic < %s; nestor_ic += %d) {", ct, lo, hi, n.MC)
		d++
		line("%s nestor_mc = nestor_min(%d, %s - nestor_ic);", ct, n.MC, hi)
		packA()
		micro("nestor_kc", "nestor_p")
		d--
		line("}")
		d--
		line("}")
		d--
	}
	for q := range n.Terms {
		line("nestor_pack_free(nestor_Ap%s);", sfx(q))
	}
	if ownY {
		for q := range n.Terms {
			line("nestor_pack_free(nestor_Bp%s);", sfx(q))
		}
	}
	d--
	line("}")
	if !ownY {
		for q := range n.Terms {
			line("nestor_pack_free(nestor_Bp%s);", sfx(q))
		}
	}
	d--
	line("}")
	d--
	line("}")
	if n.Init != nil && len(n.Guard) > 0 {
		// The product's blocks do not run: its initialization still does.
		line("else {")
		pr.node(n.Init.Node, d)
		line("}")
	}
	pr.line(0, "#pragma scop")
}

// rowRanges prints, at the top of a packed product's parallel region, the
// rows [nestor_i0, nestor_i1) of the calling thread: contiguous ranges,
// one per thread in thread order, cut at register-block boundaries
// where the running sum of the rows' work (one plus the row's columns in
// the domain, or its k steps over a triangle of k: a triangle's rows
// hold unequal work) reaches the thread's
// share. Every thread computes the same cuts, so the ranges partition the
// rows whatever the work counts are; only the balance depends on them
// (integer sums: a -ffast-math build must not round one thread's cut
// differently from its neighbour's).
// An even split of MC-row blocks (schedule(static)) gave gemm LARGE's
// 21 blocks of 48 rows 11 and 10 to 2 threads, 528 and 472 rows.
func rowRanges(pr *printer, line func(string, ...any), n *Packed, ct string) {
	// count prints the values of slot (1: J, 2: K) that row nestor_i
	// takes under triangle dg, over the slot's extent ext.
	count := func(dg *PackDiag, slot int, ext string) string {
		pr.used["nestor_max"] = true
		dd, _ := constDiff(n.Lower[0], n.Lower[slot])
		dd += dg.B
		if dg.Upper { // 0 .. min(ext-1, i+dd)
			return fmt.Sprintf("nestor_max(0, nestor_min(%s, nestor_i + %d))", ext, dd+1)
		}
		// max(0, i+dd) .. ext-1
		return fmt.Sprintf("%s - nestor_max(0, nestor_min(%s, nestor_i + %d))", ext, ext, dd)
	}
	cols := "nestor_nj"
	switch {
	case n.KDiag != nil: // the row's k steps (its columns are all)
		cols = count(n.KDiag, 2, "nestor_nk")
	case n.Diag != nil:
		cols = count(n.Diag, 1, "nestor_nj")
	}
	line("%s nestor_i0 = 0, nestor_i1 = nestor_ni;", ct)
	pr.line(0, "#ifdef _OPENMP")
	line("{")
	line("  extern int omp_get_num_threads(void), omp_get_thread_num(void);")
	line("  long long nestor_nt = omp_get_num_threads(), nestor_t = omp_get_thread_num(), nestor_all = 0, nestor_acc = 0;")
	line("  for (%s nestor_i = 0; nestor_i < nestor_ni; nestor_i++)", ct)
	line("    nestor_all += 1 + %s;", cols)
	line("  nestor_i0 = nestor_ni;")
	line("  for (%s nestor_b = 0; nestor_b < nestor_ni; nestor_b += %d) {", ct, n.MR)
	line("    if (nestor_i0 == nestor_ni && nestor_acc * nestor_nt >= nestor_all * nestor_t)")
	line("      nestor_i0 = nestor_b;")
	line("    if (nestor_acc * nestor_nt >= nestor_all * (nestor_t + 1)) {")
	line("      nestor_i1 = nestor_b;")
	line("      break;")
	line("    }")
	line("    for (%s nestor_i = nestor_b; nestor_i < nestor_min(nestor_b + %d, nestor_ni); nestor_i++)", ct, n.MR)
	line("      nestor_acc += 1 + %s;", cols)
	line("  }")
	line("}")
	pr.line(0, "#endif")
}
