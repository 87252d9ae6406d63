package codegen

import (
	"fmt"
	"slices"
	"strings"

	"nestor/ir"
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
// Stmt is the statement in the program being printed; Orig is its form
// before scheduling, over its own counters I, J and K (indices of
// Orig.Iters), whose bounds are Lower and Upper (affine in the
// parameters). XSide is the factor of the product over I and K, YSide
// the one over K and J.
type Packed struct {
	Stmt         int
	Orig         *ir.Stmt
	I, J, K      int
	Lower, Upper [3]ir.Aff // per counter I, J, K
	XSide, YSide ir.Expr
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
}

// The block sizes of a packed product: MC rows of X and KC steps of k
// (MC·KC elements, in L2; 48 rows share 1000 rows among two threads
// within 5%), NC columns of Y (KC·NC elements, 1 MB for
// double: in L2 or L3, and few pages for a first call to map).
const (
	packMR = 6
	packMC = 48
	packKC = 256
	packNC = 512
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
		stmts := stmtsIn([]Node{l})
		if len(stmts) != 1 || slices.Contains(done, stmts[0]) {
			continue
		}
		pk, ok := packable(orig, stmts[0])
		if !ok || instancesOf([]Node{l}, stmts[0]) != instancesOf(b.Body, stmts[0]) || slices.ContainsFunc(guard, func(c Cond) bool { return len(c.Divs) > 0 }) {
			continue // some of its instances run elsewhere
		}
		parallel := opt.Parallel
		if opt.Marks != nil {
			var pack bool
			if pack, parallel = opt.Marks(l.Level); !pack {
				continue
			}
		}
		pk.Stmt, pk.Guard, pk.Loop = stmts[0], guard, l
		size := orig.Arrays[orig.Stmts[stmts[0]].Accesses[0].Array].Elem.Size()
		pk.MR, pk.NR, pk.MC, pk.KC, pk.NC = packMR, max(4, 2*opt.VectorBytes/size), packMC, packKC, packNC
		pk.Parallel = parallel
		b.Body[k] = pk
		done = append(done, stmts[0])
	}
	return done
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
	_, ok := packable(p, s)
	return ok
}

// packable returns statement s of orig as a Packed product, or false:
// W[..] += X * Y over a box of three counters, W's subscripts one
// counter I and one J each (with coefficient ±1; the others constant),
// X over I and K, Y over K and J, no factor reading W, every value of
// one floating type.
func packable(orig *ir.Program, s int) (*Packed, bool) {
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
	// The product and its sides.
	mul, ok := st.RHS.(*ir.Binary)
	if !ok || mul.Op != ir.Mul || mul.T != t {
		return nil, false
	}
	sideOf := func(e ir.Expr) (uses [3]bool, ok bool) {
		ok = true
		var visit func(e ir.Expr)
		visit = func(e ir.Expr) {
			switch e := e.(type) {
			case *ir.Const, *ir.ParamRef:
			case *ir.IterRef:
				uses[e.Level] = true
			case *ir.Load:
				a := st.Accesses[e.Access]
				if a.Array == w.Array || orig.Arrays[a.Array].Members != nil {
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
		return uses, ok && e.Type() == t
	}
	ux, okx := sideOf(mul.X)
	uy, oky := sideOf(mul.Y)
	if !okx || !oky {
		return nil, false
	}
	switch {
	case !ux[pk.J] && !uy[pk.I]:
		pk.XSide, pk.YSide = mul.X, mul.Y
	case !uy[pk.J] && !ux[pk.I]:
		pk.XSide, pk.YSide = mul.Y, mul.X
	default:
		return nil, false
	}
	// The box: one lower and one upper bound per counter, over the
	// parameters.
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
			seenLo[d], pk.Lower[d] = true, neg(bound)
		} else { // b − x ≥ 0: x ≤ b
			if seenHi[d] {
				return nil, false
			}
			seenHi[d], pk.Upper[d] = true, bound
		}
	}
	if seenLo != [3]bool{true, true, true} || seenHi != [3]bool{true, true, true} {
		return nil, false
	}
	return pk, true
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
	pr.used["nestor_min"] = true
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
	line("{ /* %s as packed blocks (BLIS): %dx%d register block, %dx%dx%d blocks */", st.Name, n.MR, n.NR, n.MC, n.KC, n.NC)
	d++
	line("%s nestor_ni = %s, nestor_nj = %s, nestor_nk = %s;", ct, extent(0), extent(1), extent(2))
	line("if ((double)nestor_ni * nestor_nj * nestor_nk < %d) {", packMinWork)
	pr.node(n.Loop, d+1)
	line("} else {")
	d++
	line("%s *nestor_Bp = (%s *) __builtin_malloc(sizeof(%s) * %d * %d);", t, t, t, n.KC, n.NC)
	if n.Parallel {
		line("#pragma omp parallel if(nestor_ni > %d)", n.MC)
	}
	line("{")
	d++
	line("%s *nestor_Ap = (%s *) __builtin_malloc(sizeof(%s) * %d * %d);", t, t, t, n.MC, n.KC)
	line("for (%s nestor_jc = 0; nestor_jc < nestor_nj; nestor_jc += %d)", ct, n.NC)
	d++
	line("for (%s nestor_pc = 0; nestor_pc < nestor_nk; nestor_pc += %d) {", ct, n.KC)
	d++
	line("%s nestor_nc = nestor_min(%d, nestor_nj - nestor_jc), nestor_kc = nestor_min(%d, nestor_nk - nestor_pc);", ct, n.NC, n.KC)
	if n.Parallel {
		line("#pragma omp for")
	}
	line("for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d)", ct, n.NR)
	line("  for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++)", ct)
	line("    for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
	line("      nestor_Bp[nestor_jr * nestor_kc + nestor_p * %d + nestor_v] = nestor_jr + nestor_v < nestor_nc ? %s : 0;", n.NR,
		expr(n.YSide, [3]string{"", j("nestor_jc", "nestor_jr", "nestor_v"), k("nestor_pc", "nestor_p")}))
	if n.Parallel {
		line("#pragma omp for")
	}
	line("for (%s nestor_ic = 0; nestor_ic < nestor_ni; nestor_ic += %d) {", ct, n.MC)
	d++
	line("%s nestor_mc = nestor_min(%d, nestor_ni - nestor_ic);", ct, n.MC)
	line("for (%s nestor_ir = 0; nestor_ir < nestor_mc; nestor_ir += %d)", ct, n.MR)
	line("  for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++)", ct)
	line("    for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
	line("      nestor_Ap[nestor_ir * nestor_kc + nestor_p * %d + nestor_r] = nestor_ir + nestor_r < nestor_mc ? %s : 0;", n.MR,
		expr(n.XSide, [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), "", k("nestor_pc", "nestor_p")}))
	line("for (%s nestor_jr = 0; nestor_jr < nestor_nc; nestor_jr += %d)", ct, n.NR)
	line("  for (%s nestor_ir = 0; nestor_ir < nestor_mc; nestor_ir += %d) {", ct, n.MR)
	d += 2
	ij := [3]string{i("nestor_ic", "nestor_ir", "nestor_r"), j("nestor_jc", "nestor_jr", "nestor_v"), ""}
	line("%s nestor_mr = nestor_min(%d, nestor_mc - nestor_ir), nestor_nr = nestor_min(%d, nestor_nc - nestor_jr);", ct, n.MR, n.NR)
	line("%s nestor_c[%d][%d];", t, n.MR, n.NR)
	line("for (%s nestor_r = 0; nestor_r < %d; nestor_r++)", ct, n.MR)
	line("  for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
	line("    nestor_c[nestor_r][nestor_v] = nestor_r < nestor_mr && nestor_v < nestor_nr ? %s : 0;", elem(ij))
	line("for (%s nestor_p = 0; nestor_p < nestor_kc; nestor_p++)", ct)
	line("  for (%s nestor_r = 0; nestor_r < %d; nestor_r++) {", ct, n.MR)
	line("    %s nestor_a = nestor_Ap[nestor_ir * nestor_kc + nestor_p * %d + nestor_r];", t, n.MR)
	line("    #pragma omp simd")
	line("    for (%s nestor_v = 0; nestor_v < %d; nestor_v++)", ct, n.NR)
	line("      nestor_c[nestor_r][nestor_v] += nestor_a * nestor_Bp[nestor_jr * nestor_kc + nestor_p * %d + nestor_v];", n.NR)
	line("  }")
	line("for (%s nestor_r = 0; nestor_r < nestor_mr; nestor_r++)", ct)
	line("  for (%s nestor_v = 0; nestor_v < nestor_nr; nestor_v++)", ct)
	line("    %s = nestor_c[nestor_r][nestor_v];", elem(ij))
	d -= 2
	line("  }")
	d--
	line("}")
	d--
	line("}")
	d--
	line("__builtin_free(nestor_Ap);")
	d--
	line("}")
	line("__builtin_free(nestor_Bp);")
	d--
	line("}")
	d--
	line("}")
	pr.line(0, "#pragma scop")
}
