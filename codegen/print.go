package codegen

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"nestor/ir"
	"nestor/model"
)

// PrintC writes n, a loop AST that Build made for p (or a transformation
// of one), as C statements: every line starts with indent, nested lines
// with two more spaces per level. Helper macros and the declarations of
// p's ir.ScopLocal arrays come first.
func PrintC(w io.Writer, p *ir.Program, n Node, indent string) error {
	return printC(w, p, n, indent, nil, PrintOptions{})
}

// PrintCWith is PrintC with options.
func PrintCWith(w io.Writer, p *ir.Program, n Node, indent string, opt PrintOptions) error {
	return printC(w, p, n, indent, nil, opt)
}

// stmtFunc prints a statement instance as one line of C, given the C
// expressions of its counters; tests use it to trace instances.
type stmtFunc func(pr *printer, s *ir.Stmt, in *Instance, iters []string) string

// helper macros, in the order they are defined. Each evaluates its
// arguments more than once; they are only applied to affine expressions.
// nestor_floord and nestor_ceild divide by a positive d and round toward
// minus and plus infinity whatever the sign of n (C's / truncates).
var macros = []struct{ name, def string }{
	{"nestor_floord", "#define nestor_floord(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))"},
	{"nestor_ceild", "#define nestor_ceild(n, d) (((n) < 0) ? -(-(n) / (d)) : ((n) + (d) - 1) / (d))"},
	{"nestor_min", "#define nestor_min(a, b) ((a) < (b) ? (a) : (b))"},
	{"nestor_max", "#define nestor_max(a, b) ((a) > (b) ? (a) : (b))"},
	// The same with each argument evaluated once, in GNU C statement
	// expressions (gcc, clang), for regions whose bounds nest the macros
	// deeper than maxMacroDepth: there the text the portable ones expand to
	// doubles with every level (tiny tiles nest them 14 deep: gigabytes).
	{"nestor_floord_g", "#define nestor_floord_g(n, d) ({ __auto_type nestor_n = (n); nestor_n < 0 ? -((-nestor_n + (d) - 1) / (d)) : nestor_n / (d); })"},
	{"nestor_ceild_g", "#define nestor_ceild_g(n, d) ({ __auto_type nestor_n = (n); nestor_n < 0 ? -(-nestor_n / (d)) : (nestor_n + (d) - 1) / (d); })"},
	{"nestor_min_g", "#define nestor_min_g(a, b) ({ __auto_type nestor_a = (a); __auto_type nestor_b = (b); nestor_a < nestor_b ? nestor_a : nestor_b; })"},
	{"nestor_max_g", "#define nestor_max_g(a, b) ({ __auto_type nestor_a = (a); __auto_type nestor_b = (b); nestor_a > nestor_b ? nestor_a : nestor_b; })"},
	// C's fmin and fmax as comparisons a compiler vectorizes (minmax.go).
	{"nestor_fmin", "#define nestor_fmin(x, y) ((((x) <= (y)) | ((y) != (y))) ? (x) : (y))"},
	{"nestor_fmax", "#define nestor_fmax(x, y) ((((x) >= (y)) | ((y) != (y))) ? (x) : (y))"},
	// The buffers of packed products (pack.go). On Linux each call site
	// keeps its buffer, per thread, from one call to the next (as BLAS
	// libraries keep theirs), growing it when a call needs more: fresh
	// memory costs the kernel a page fault per 4K page on its first touch
	// (14 to 40 µs under this project's virtual machines) or the clearing
	// of a 2 MB page (about 100 µs), which small products paid at every
	// call (symm at 60×80: 0.16× of the original, 2.8× with the buffers
	// kept). A buffer is mapped in 2 MB pages (transparent huge pages,
	// asked for by madvise), the mapping and its size kept in the 16 bytes
	// before it; when mmap fails, it comes from malloc, aligned to 64
	// bytes. Elsewhere, malloc and free every call.
	{"nestor_pack_alloc", strings.Join([]string{
		"#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))",
		"#define nestor_pack_map(n) ({ extern void *mmap(void *, __SIZE_TYPE__, int, int, int, long); extern int madvise(void *, __SIZE_TYPE__, int); " +
			"__SIZE_TYPE__ nestor_s = (((__SIZE_TYPE__) (n) + 0x1fffff) & ~(__SIZE_TYPE__) 0x1fffff) + 0x200000; " +
			"char *nestor_m = (char *) mmap(0, nestor_s, 3 /* read, write */, 0x22 /* private, anonymous */, -1, 0), *nestor_q; " +
			"if (nestor_m == (char *) -1) { nestor_s = 0; nestor_m = (char *) __builtin_malloc((n) + 80); nestor_q = (char *) (((__UINTPTR_TYPE__) nestor_m + 16 + 63) & ~(__UINTPTR_TYPE__) 63); } " +
			"else { nestor_q = (char *) (((__UINTPTR_TYPE__) nestor_m + 16 + 0x1fffff) & ~(__UINTPTR_TYPE__) 0x1fffff); " +
			"madvise(nestor_q, nestor_s - (nestor_q - nestor_m), 14 /* huge pages */); } " +
			"((char **) nestor_q)[-2] = nestor_m; ((__SIZE_TYPE__ *) nestor_q)[-1] = nestor_s; (void *) nestor_q; })",
		"#define nestor_pack_unmap(p) ({ extern int munmap(void *, __SIZE_TYPE__); char *nestor_q = (char *) (p); " +
			"if (((__SIZE_TYPE__ *) nestor_q)[-1]) munmap(((char **) nestor_q)[-2], ((__SIZE_TYPE__ *) nestor_q)[-1]); " +
			"else __builtin_free(((char **) nestor_q)[-2]); })",
		"#define nestor_pack_alloc(n) ({ static __thread void *nestor_c; static __thread __SIZE_TYPE__ nestor_cn; __SIZE_TYPE__ nestor_w = (n); " +
			"if (nestor_cn < nestor_w) { if (nestor_c) nestor_pack_unmap(nestor_c); nestor_c = nestor_pack_map(nestor_w); nestor_cn = nestor_w; } nestor_c; })",
		"#define nestor_pack_free(p) ((void) (p)) /* kept for the next call */",
		"#else",
		"#define nestor_pack_alloc(n) __builtin_malloc(n)",
		"#define nestor_pack_free(p) __builtin_free(p)",
		"#endif"}, "\n")},
	// The fewest multiply-adds for which a packed product forks its team
	// (pack.go); -DNESTOR_PACK_FORK_WORK=N overrides it. Each thread maps
	// and touches its own buffers and packs all of Y: gemm, one call per
	// process, ran slower at 2 threads than at 1 up to 400³ (2.43 against
	// 2.23 ms) and level at 500³ (4.09 against 4.13 ms).
	{"NESTOR_PACK_FORK_WORK", "#define NESTOR_PACK_FORK_WORK 134217728 /* 2^27 */"},
}

// maxMacroDepth is the deepest nesting of the portable helper macros a
// region's text may have; deeper, the region uses the GNU ones (the
// macros' names with _g).
const maxMacroDepth = 8

// MacroDepth returns the deepest nesting of calls of the portable helper
// macros (nestor_min, nestor_max, nestor_floord, nestor_ceild) in src,
// generated C.
func MacroDepth(src []byte) int {
	var stack []bool // per open parenthesis: whether it opens a macro call
	depth, deepest := 0, 0
	for k, c := range src {
		switch c {
		case '(':
			before := bytes.TrimRight(src[:k], " ")
			call := false
			for _, m := range macros[:4] {
				call = call || bytes.HasSuffix(before, []byte(m.name))
			}
			stack = append(stack, call)
			if call {
				depth++
				deepest = max(deepest, depth)
			}
		case ')':
			if n := len(stack); n > 0 {
				if stack[n-1] {
					depth--
				}
				stack = stack[:n-1]
			}
		}
	}
	return deepest
}

// useGNUMacros renames the calls of the portable helper macros in body to
// their GNU versions and marks those used.
func (pr *printer) useGNUMacros() {
	body := pr.body.Bytes()
	for _, m := range macros[:4] {
		if pr.used[m.name] {
			body = bytes.ReplaceAll(body, []byte(m.name+"("), []byte(m.name+"_g("))
			pr.used[m.name], pr.used[m.name+"_g"] = false, true
		}
	}
	pr.body.Reset()
	pr.body.Write(body)
}

type printer struct {
	// chunkRange, per loop of a factored reduction's chunk, holds the
	// names of the chunk's first and end iterations (reduce.go).
	chunkRange map[*Loop][2]string
	// laneOf, per innermost loop of a factored reduction's chunk whose
	// iterations fold into vector lanes, holds the lanes (reducelanes.go).
	laneOf   map[*Loop]*laneSet
	p        *ir.Program
	params   []string
	vars     map[string]bool
	indent   string
	body     bytes.Buffer
	used     map[string]bool // helper macros used
	names    []string        // counters of the enclosing loops, outermost first
	stmtText stmtFunc
	// elide drops loops of one iteration whose counter the statements do
	// not read; off when a test prints statements its own way (a trace
	// that reads every counter).
	elide bool
	// regs maps an element, as printed, to the variable that holds it
	// (scalar replacement); taken lists the variables made so far.
	regs     map[string]string
	taken    map[string]bool
	counters map[string]bool  // loop counters printed
	counter  string           // the C type of the counters declared (counterType)
	open     map[*Loop]bool   // unrolled loops whose counter pair declared
	split    map[*Loop]string // ForkIf loops being printed as their "par" or "seq" copy
	clause   map[*Loop]string // the if clause of a "par" copy
	lift     *lift            // the reduction without identity being printed
	share    bool             // PrintOptions.Share
	forkOnce bool             // PrintOptions.ForkOnce
	threads  string           // PrintOptions.Threads
	// usedThreads reports that a condition reads threads: the region
	// declares it.
	usedThreads bool
	inTeam      bool // printing inside a team forked once (fork.go)
	// machine is PrintOptions.Machine, model.Typical() for the zero one:
	// what fork clauses weigh their work against (forkmodel.go).
	machine model.Machine
	err     error
}

func printC(w io.Writer, p *ir.Program, n Node, indent string, stmt stmtFunc, opt PrintOptions) error {
	pr := &printer{p: p, params: ir.ParamNames(p), vars: map[string]bool{}, indent: indent,
		used: map[string]bool{}, stmtText: stmt, share: opt.Share && stmt == nil, forkOnce: opt.ForkOnce, threads: opt.Threads, counter: counterType(p), machine: opt.Machine}
	if pr.machine.L2 == 0 {
		pr.machine = model.Typical()
	}
	if pr.stmtText == nil {
		pr.stmtText = (*printer).stmt
		pr.elide = true
	}
	for _, v := range p.Vars {
		pr.vars[v] = true
	}
	pr.node(n, 0)
	if pr.err != nil {
		return pr.err
	}
	if MacroDepth(pr.body.Bytes()) > maxMacroDepth {
		pr.useGNUMacros()
	}
	var out bytes.Buffer
	if pr.usedThreads {
		// Declared outside the region (between its pragmas), as nestor
		// reads its output back: a call is no static control part, the
		// variable then a parameter.
		for _, l := range []string{"#pragma endscop", "#ifdef _OPENMP", "extern int omp_get_max_threads(void);",
			fmt.Sprintf("int %s = omp_get_max_threads(); /* at one thread, no team is forked */", pr.threads),
			"#else", fmt.Sprintf("int %s = 1;", pr.threads), "#endif", "#pragma scop"} {
			fmt.Fprintf(&out, "%s%s\n", indent, l)
		}
	}
	for _, m := range macros {
		if pr.used[m.name] {
			fmt.Fprintf(&out, "%s#ifndef %s\n%s%s\n%s#endif\n", indent, m.name, indent, strings.ReplaceAll(m.def, "\n", "\n"+indent), indent)
		}
	}
	accessed := accessedArrays(p)
	// Packed blocks split the region into pieces (pack.go): a heap array
	// is then allocated and freed outside them, so that each piece nestor
	// reads back sees a fresh pointer declared before it
	// (frontend.freshPointer), not an allocation one piece makes and
	// another frees.
	split := pr.used["nestor_pack_alloc"]
	outside := func(lines func()) {
		if split {
			fmt.Fprintf(&out, "%s#pragma endscop\n", indent)
		}
		lines()
		if split {
			fmt.Fprintf(&out, "%s#pragma scop\n", indent)
		}
	}
	var heap, heapDecls []string
	for a, arr := range p.Arrays {
		if arr.Storage != ir.ScopLocal || !accessed[a] {
			continue
		}
		if arr.Heap && arr.Rank() >= 1 {
			// A pointer to the rows (a variably modified type past the
			// first dimension): x[i][j] indexes it as it would the array.
			size, rows := "", ""
			for k, d := range arr.Dims {
				x := ir.FormatAff(d, ir.Names{Param: pr.params})
				size += " * (" + x + ")"
				if k > 0 {
					rows += "[" + x + "]"
				}
			}
			decl := "*" + arr.Name
			if rows != "" {
				decl = "(*" + arr.Name + ")" + rows
			}
			bytes := fmt.Sprintf("sizeof(%s)%s", arr.Elem, size)
			if !split {
				heapDecls = append(heapDecls, fmt.Sprintf("%s%s %s = __builtin_malloc(%s);\n", indent, arr.Elem, decl, bytes))
			} else {
				// Outside the region: in 2 MB pages from 2 MB on, as the
				// packed blocks' buffers (print.go's nestor_pack_alloc):
				// a first touch of each 4K page of fresh memory costs a
				// page fault (symm LARGE's 9.6 MB temporary took 35 ms of
				// its 90).
				heapDecls = append(heapDecls,
					fmt.Sprintf("%s%s %s = %s >= 0x200000 ? aligned_alloc(0x200000, nestor_huge_bytes(%s)) : __builtin_malloc(%s);\n", indent, arr.Elem, decl, bytes, bytes, bytes),
					fmt.Sprintf("%s#ifdef __linux__\n", indent),
					fmt.Sprintf("%sif (%s >= 0x200000)\n", indent, bytes),
					fmt.Sprintf("%s  madvise(%s, nestor_huge_bytes(%s), 14 /* huge pages */);\n", indent, arr.Name, bytes),
					fmt.Sprintf("%s#endif\n", indent))
			}
			heap = append(heap, arr.Name)
			continue
		}
		dims := ""
		for _, d := range arr.Dims {
			dims += "[" + ir.FormatAff(d, ir.Names{Param: pr.params}) + "]"
		}
		init := ""
		if arr.Rank() == 0 {
			// Every read of the scalar follows a write in the schedule's
			// order, but where the two sit under separate guards a
			// compiler cannot always tell (gcc's -Wmaybe-uninitialized,
			// fatal under -Werror): it starts at zero.
			init = " = 0"
		}
		fmt.Fprintf(&out, "%s%s %s%s%s;\n", indent, arr.Elem, arr.Name, dims, init)
	}
	if len(heap) > 0 {
		outside(func() {
			if split {
				fmt.Fprintf(&out, "%sextern void *aligned_alloc(__SIZE_TYPE__, __SIZE_TYPE__);\n", indent)
				fmt.Fprintf(&out, "%s#ifdef __linux__\n%sextern int madvise(void *, __SIZE_TYPE__, int);\n%s#endif\n", indent, indent, indent)
				fmt.Fprintf(&out, "%s#ifndef nestor_huge_bytes\n%s#define nestor_huge_bytes(n) (((__SIZE_TYPE__) (n) + 0x1fffff) & ~(__SIZE_TYPE__) 0x1fffff)\n%s#endif\n", indent, indent, indent)
			}
			for _, l := range heapDecls {
				out.WriteString(l)
			}
		})
	}
	out.Write(pr.body.Bytes())
	if len(heap) > 0 {
		outside(func() {
			for _, name := range heap {
				fmt.Fprintf(&out, "%s__builtin_free(%s);\n", indent, name)
			}
		})
	}
	// Counters declared outside the region that no loop reuses any more
	// (a new schedule names its own), and locals the region no longer
	// mentions (an expanded scalar), would be unused: say so to the
	// compiler, as -Wall -Werror builds need.
	var unused []string
	for _, v := range p.Vars {
		if !pr.counters[v] {
			unused = append(unused, "(void)"+v+";")
		}
	}
	for _, v := range p.Voided {
		if !slices.Contains(p.Vars, v) {
			unused = append(unused, "(void)"+v+";")
		}
	}
	what := "counters the new loops do not use"
	for a, arr := range p.Arrays {
		if arr.Storage == ir.FuncLocal && !accessed[a] {
			unused = append(unused, "(void)"+arr.Name+";")
			what = "variables the new code does not use"
		}
	}
	if len(unused) > 0 {
		fmt.Fprintf(&out, "%s%s /* %s */\n", indent, strings.Join(unused, " "), what)
	}
	_, err := w.Write(out.Bytes())
	return err
}

func (pr *printer) line(depth int, s string) {
	pr.body.WriteString(pr.indent)
	pr.body.WriteString(strings.Repeat("  ", depth))
	pr.body.WriteString(s)
	pr.body.WriteByte('\n')
}

func (pr *printer) node(n Node, depth int) {
	switch n := n.(type) {
	case *Block:
		if n.Sections && len(n.Body) > 1 {
			pr.sections(n, depth)
			return
		}
		pr.nodes(n.Body, depth)
	case *Loop:
		pr.loop(n, depth)
	case *If:
		var conds []string
		paired := make([]bool, len(n.Conds))
		for j, c := range n.Conds {
			if paired[j] {
				continue
			}
			// Aff ≥ 0 and -Aff ≥ 0 read better as Aff = 0.
			for m := j + 1; m < len(n.Conds); m++ {
				d := n.Conds[m]
				if !paired[m] && !c.Eq && !d.Eq && c.Mod == 0 && d.Mod == 0 && !usesLocals(c.Aff) && !usesLocals(d.Aff) && c.Aff.Equal(d.Aff.Neg()) {
					paired[m], c.Eq = true, true
					break
				}
			}
			conds = append(conds, pr.cond(c))
		}
		pr.nested(depth, "if ("+strings.Join(conds, " && ")+")", n.Body)
	case *Packed:
		pr.packed(n, depth)
	case *Instance:
		if pr.lift != nil && slices.Contains(pr.lift.stmts, n.Stmt) {
			pr.fail(fmt.Errorf("codegen: reduction statement %s printed outside its body", pr.p.Stmts[n.Stmt].Name))
		}
		if n.Stmt < 0 || n.Stmt >= len(pr.p.Stmts) {
			pr.fail(fmt.Errorf("codegen: instance of statement %d of %d", n.Stmt, len(pr.p.Stmts)))
			return
		}
		iters := make([]string, len(n.Iters))
		for l, a := range n.Iters {
			iters[l] = pr.operand(a)
		}
		pr.line(depth, pr.stmtText(pr, pr.p.Stmts[n.Stmt], n, iters))
	default:
		pr.fail(fmt.Errorf("codegen: unknown node %T", n))
	}
}

func (pr *printer) fail(err error) {
	if pr.err == nil {
		pr.err = err
	}
}

// nested prints a loop or if header and its body, in braces when the body
// has more than one node or starts with a pragma line.
func (pr *printer) nested(depth int, header string, body []Node) {
	if pr.liftBody(depth, header, body) {
		return // the body of a reduction without identity (reduce.go)
	}
	if len(body) == 0 {
		pr.line(depth, header+" {}")
		return
	}
	if l, ok := body[0].(*Loop); len(body) == 1 && ok && pr.merges(l) {
		// The loop's register block becomes this header's block.
		pr.line(depth, header+" {")
		regs := pr.registers(l)
		pr.nameRegisters(regs)
		pr.registerLoop(l, depth+1, regs)
		pr.line(depth, "}")
		return
	}
	if l, ok := body[0].(*Loop); len(body) == 1 && !(ok && len(l.Pragmas) > 0) && !(ok && pr.elided(l) && pr.printedCount(l.Body) != 1) {
		pr.line(depth, header)
		pr.node(body[0], depth+1)
		return
	}
	pr.line(depth, header+" {")
	if chain := restChain(body); len(chain) == len(body) {
		pr.pair(chain, depth+1) // the header's block scopes the counter
	} else {
		pr.nodes(body, depth+1)
	}
	pr.line(depth, "}")
}

// sections prints the blocks of b as OpenMP sections (Block.Sections):
// a worksharing construct in the team of an enclosing fork-once region,
// else a team of their own, forked when the first section's first loop
// has the work workClause asks of an OpenMP loop entered once; in turn
// on one thread when it never has.
func (pr *printer) sections(b *Block, depth int) {
	pg := "omp sections"
	if !pr.inTeam {
		pg = "omp parallel sections"
		if l := firstLoop(b.Body[:1]); l != nil {
			clause, never := pr.workClause(l)
			if never {
				pr.nodes(b.Body, depth)
				return
			}
			pg += clause
		}
	}
	pr.line(depth, "#pragma "+pg)
	pr.line(depth, "{")
	for _, s := range b.Body {
		pr.line(depth+1, "#pragma omp section")
		pr.line(depth+1, "{")
		pr.node(s, depth+2)
		pr.line(depth+1, "}")
	}
	pr.line(depth, "}")
}

// nodes prints ns at depth: an unrolled loop and the rest loops after it
// as one block that declares their shared counter.
func (pr *printer) nodes(ns []Node, depth int) {
	if pr.liftBody(depth, "", ns) {
		return
	}
	if pr.sharedBody(ns, depth) {
		return
	}
	for k := 0; k < len(ns); k++ {
		if chain := restChain(ns[k:]); chain != nil {
			pr.line(depth, "{")
			pr.pair(chain, depth+1)
			pr.line(depth, "}")
			k += len(chain) - 1
			continue
		}
		pr.node(ns[k], depth)
	}
}

// isRest reports whether n is the rest loop of unrolled loop l.
// restChain returns the unrolled loop ns[0] and the rest loops right
// after it that continue its counter, or nil when ns[0] has none.
func restChain(ns []Node) []*Loop {
	l, ok := ns[0].(*Loop)
	if !ok || len(ns) < 2 || !isRest(ns[1], l) {
		return nil
	}
	chain := []*Loop{l}
	for _, n := range ns[1:] {
		if !isRest(n, l) {
			break
		}
		chain = append(chain, n.(*Loop))
	}
	return chain
}

func isRest(n Node, l *Loop) bool {
	r, ok := n.(*Loop)
	return ok && r.Rest && r.Iter == l.Iter && r.Level == l.Level && !l.Rest
}

// pair prints unrolled loop l and the rest loops that continue its
// counter (an unrolled one, then one by one): the counter is declared (or,
// for a variable of the enclosing code, set) before l, and every loop
// runs it without an initialization.
func (pr *printer) pair(chain []*Loop, depth int) {
	l := chain[0]
	decl := pr.counter + " "
	if pr.vars[l.Iter] {
		decl = ""
	}
	if l.Dir < 0 {
		pr.fail(fmt.Errorf("codegen: unrolled loop %s runs downward", l.Iter))
		return
	}
	pr.line(depth, fmt.Sprintf("%s%s = %s;", decl, l.Iter, pr.bound(l.Lower, true)))
	if pr.open == nil {
		pr.open = map[*Loop]bool{}
	}
	for _, m := range chain[:len(chain)-1] {
		pr.open[m] = true
		pr.loop(m, depth)
		delete(pr.open, m)
	}
	pr.loop(chain[len(chain)-1], depth)
}

func (pr *printer) loop(l *Loop, depth int) {
	if l.Reduction != nil && pr.elide {
		pr.reduction(l, depth)
		return
	}
	if ls := pr.laneOf[l]; ls != nil {
		pr.innerLanes(ls, l, depth)
		return
	}
	if len(l.Lower) == 0 || len(l.Upper) == 0 || l.Step < 1 {
		pr.fail(fmt.Errorf("codegen: loop %s has %d lower bounds, %d upper bounds and step %d",
			l.Iter, len(l.Lower), len(l.Upper), l.Step))
		return
	}
	if pr.elided(l) {
		// A loop of one iteration whose counter nothing reads (a
		// statement placed at a fixed point of a schedule dimension) is
		// just its body.
		pr.names = append(pr.names, l.Iter)
		pr.nodes(l.Body, depth)
		pr.names = pr.names[:len(pr.names)-1]
		return
	}
	if pr.forkOnce && !pr.inTeam && !l.Rest && !pr.open[l] && pr.split[l] == "" {
		if cond, ok := pr.teamIf(l); ok {
			pr.line(depth, "#pragma omp parallel"+cond)
			pr.line(depth, "{")
			pr.inTeam = true
			pr.loop(l, depth+1)
			pr.inTeam = false
			pr.line(depth, "}")
			return
		}
	}
	if l.ForkIf && !pr.inTeam && !l.Rest && !pr.open[l] && pr.split[l] == "" && slices.Contains(l.Pragmas, "omp parallel for") {
		// An OpenMP loop nested in a sequential loop: decide whether to
		// fork before reaching libgomp, whose call costs a system call
		// even when an if clause keeps it on one thread (doitgen entered
		// 6,000 such regions at MEDIUM size: 11x slower than sequential).
		if pr.split == nil {
			pr.split, pr.clause = map[*Loop]string{}, map[*Loop]string{}
		}
		iters, work, never := pr.forkWorkIf(l)
		if never {
			pr.split[l] = "seq"
			pr.loop(l, depth)
			delete(pr.split, l)
			return
		}
		// One affine inequality per if (nestor reads its output back):
		// the work tests nest, each with the sequential copy as its else;
		// the trip test goes in the pragma's clause (a loop of one
		// iteration with much work is rare).
		conds, clause := work, iters
		if len(work) == 0 && len(l.Lower) == 1 && len(l.Upper) == 1 && len(l.Lower[0].Of) == 0 && len(l.Upper[0].Of) == 0 {
			// The trip test alone, as an if where it is one inequality
			// (no min or max in the bounds); else it stays a clause.
			conds, clause = []string{iters}, ""
		}
		if pr.threads != "" {
			// At one thread, no fork: the sequential copy.
			conds = append([]string{pr.threads + " >= 2"}, conds...)
			pr.usedThreads = true
		}
		pr.clause[l] = clause
		for i, c := range conds {
			pr.line(depth+i, "if ("+c+") {")
		}
		pr.split[l] = "par"
		pr.loop(l, depth+len(conds))
		pr.split[l] = "seq"
		for i := len(conds) - 1; i >= 0; i-- {
			pr.line(depth+i, "} else {")
			pr.loop(l, depth+i+1)
			pr.line(depth+i, "}")
		}
		delete(pr.split, l)
		delete(pr.clause, l)
		return
	}
	if pr.counters == nil {
		pr.counters = map[string]bool{}
	}
	pr.counters[l.Iter] = true
	decl := pr.counter + " "
	if pr.vars[l.Iter] {
		decl = ""
	}
	var init, test, incr string
	if l.Dir >= 0 {
		init = pr.bound(l.Lower, true)
		test = pr.upperTest(l.Iter, l.Upper)
		incr = l.Iter + "++"
		if l.Step > 1 {
			incr = l.Iter + " += " + strconv.FormatInt(l.Step, 10)
		}
	} else {
		init = pr.bound(l.Upper, false)
		test = l.Iter + " >= " + pr.bound(l.Lower, true)
		incr = l.Iter + "--"
		if l.Step > 1 {
			incr = l.Iter + " -= " + strconv.FormatInt(l.Step, 10)
		}
	}
	if rg, ok := pr.chunkRange[l]; ok && l.Dir >= 0 && l.Step == 1 { // a factored reduction's chunk
		init, test = rg[0], l.Iter+" < "+rg[1]
	}
	header := fmt.Sprintf("for (%s%s = %s; %s; %s)", decl, l.Iter, init, test, incr)
	switch {
	case pr.open[l] && slices.Contains(l.Pragmas, "omp parallel for"):
		// OpenMP wants the counter set in the loop, and lastprivate
		// hands its final value on to the rest loop (pragmas).
		header = fmt.Sprintf("for (%s = %s; %s; %s)", l.Iter, init, test, incr)
	case l.Rest || pr.open[l]:
		header = fmt.Sprintf("for (; %s; %s)", test, incr)
	}
	pr.names = append(pr.names, l.Iter)
	var regs []register
	if pr.elide && innermost(l) {
		regs = pr.registers(l)
		pr.nameRegisters(regs)
	}
	if len(regs) == 0 && pr.elide && len(l.BodyRegisters) > 0 {
		pr.pragmas(l, depth)
		pr.line(depth, header+" {")
		var stores []string
		var keys []string
		for _, br := range l.BodyRegisters {
			arr := pr.p.Arrays[br.Array]
			text := arr.Element(br.Elem, func(x ir.Aff) string { return pr.aff(x, nil) })
			if _, ok := pr.regs[text]; ok {
				continue // an enclosing loop holds it already
			}
			name := pr.fresh(arr.Name + "_r")
			if br.Load {
				pr.line(depth+1, fmt.Sprintf("%s %s = %s;", arr.Elem, name, text))
			} else {
				pr.line(depth+1, fmt.Sprintf("%s %s;", arr.Elem, name))
			}
			if pr.regs == nil {
				pr.regs = map[string]string{}
			}
			pr.regs[text] = name
			keys = append(keys, text)
			if br.Written {
				stores = append(stores, fmt.Sprintf("%s = %s;", text, name))
			}
		}
		pr.nodes(l.Body, depth+1)
		for _, k := range keys {
			delete(pr.regs, k)
		}
		for _, st := range stores {
			pr.line(depth+1, st)
		}
		pr.line(depth, "}")
		pr.names = pr.names[:len(pr.names)-1]
		return
	}
	if len(regs) == 0 {
		pr.pragmas(l, depth)
		pr.nested(depth, header, l.Body)
		pr.names = pr.names[:len(pr.names)-1]
		return
	}
	// The loop with its registers: guarded unless known non-empty.
	pr.names = pr.names[:len(pr.names)-1]
	open := "{"
	if !l.NonEmpty {
		test := pr.bound(l.Lower, true) + " <= " + pr.bound(l.Upper, false)
		if lo, up := l.Lower[0], l.Upper[0]; len(l.Lower) == 1 && len(l.Upper) == 1 && len(lo.Of) == 0 && len(up.Of) == 0 && lo.Den == 1 && up.Den == 1 {
			test = pr.cond(Cond{Aff: up.Aff.Sub(lo.Aff)})
		}
		open = "if (" + test + ") {"
	}
	pr.line(depth, open)
	pr.registerLoop(l, depth+1, regs)
	pr.line(depth, "}")
}

// pragmas prints the pragma lines of loop l; an OpenMP loop that contains
// no loop forks only for minForkTrip iterations or more (a copy loop of a
// few thousand elements takes less time than a fork), one with loops
// inside only when its work, as fork.go estimates it, reaches
// minForkWork; where either count is a constant below its bound, the
// loop prints without the pragma. One with ForkIf
// (nested in a sequential loop) is printed twice by loop, under an if
// that forks only when it has two iterations or more and its estimated
// work reaches minForkWork (fork.go), and as a sequential copy otherwise:
// split says which copy is printing.
func (pr *printer) pragmas(l *Loop, depth int) {
	for _, pg := range l.Pragmas {
		switch {
		case pg == "omp parallel for" && pr.inTeam:
			pg = "omp for" // the team's threads share the iterations
		case pg == "omp parallel for" && pr.split[l] == "seq":
			continue // the sequential copy of a split loop
		case pg == "omp parallel for" && pr.split[l] == "par":
			if c := pr.clause[l]; c != "" {
				pg += " if(" + c + ")"
			}
		case pg == "omp parallel for" && leaf(l):
			clause := pr.forkIf(l)
			if clause == " if(0)" {
				continue // never enough iterations: no fork
			}
			pg += clause
		case pg == "omp parallel for" && !l.ForkIf:
			// An OpenMP loop entered once with its work inside: it forks
			// when the estimated work of the fork reaches minForkWork.
			clause, never := pr.workClause(l)
			if never {
				continue
			}
			pg += clause
		case pg == "omp parallel for" && l.ForkIf:
			// Not split (one of an unrolled pair): the tests as a clause.
			iters, work, never := pr.forkWorkIf(l)
			if never {
				pg += " if(0)"
			} else {
				pg += " if(" + strings.Join(append([]string{iters}, work...), " && ") + ")"
			}
		}
		if pr.open[l] && strings.HasPrefix(pg, "omp parallel for") {
			// An unrolled loop: its rest loop goes on from the counter's
			// final value, which the threads' copies must hand back.
			pg += " lastprivate(" + l.Iter + ")"
		}
		pr.line(depth, "#pragma "+pg)
	}
}

// elided reports whether loop l prints as its body: one iteration, a
// counter nothing reads, no pragma.
func (pr *printer) elided(l *Loop) bool {
	return pr.elide && len(l.Pragmas) == 0 && singleIteration(l) && !usesCounter(pr.p, l.Body, l.Level)
}

// printedCount returns how many nodes ns prints as at its own depth
// (an elided loop counts as its body).
func (pr *printer) printedCount(ns []Node) int {
	n := 0
	for _, x := range ns {
		if l, ok := x.(*Loop); ok && pr.elided(l) {
			n += pr.printedCount(l.Body)
			continue
		}
		n++
	}
	return n
}

// merges reports whether loop l prints as a block of registers that needs
// no test of its own, so an enclosing header can hold it.
func (pr *printer) merges(l *Loop) bool {
	return pr.elide && l.NonEmpty && len(l.Registers) > 0 && innermost(l) && !(singleIteration(l) && len(l.Pragmas) == 0) &&
		len(pr.registers(l)) > 0
}

// registerLoop prints loop l at depth with regs loaded before and the
// written ones stored after, without enclosing braces.
func (pr *printer) registerLoop(l *Loop, depth int, regs []register) {
	for _, r := range regs {
		pr.line(depth, fmt.Sprintf("%s %s = %s;", r.elem, r.name, r.access))
	}
	if pr.regs == nil {
		pr.regs = map[string]string{}
	}
	for _, r := range regs {
		pr.regs[r.access] = r.name
	}
	saved := l.Registers
	l.Registers = nil // printed once: the loop itself prints plain
	pr.loop(l, depth)
	l.Registers = saved
	for _, r := range regs {
		delete(pr.regs, r.access)
		if r.written {
			pr.line(depth, fmt.Sprintf("%s = %s;", r.access, r.name))
		}
	}
}

// upperTest prints "i <= U", or "i < U + 1" when that reads simpler: U
// is a constant, or more of its terms lose a "- c" than gain a "+ c"
// (n - 1 becomes n).
func (pr *printer) upperTest(iter string, bs []Bound) string {
	neg, pos, nonConst, ok := 0, 0, 0, true
	var count func(bs []Bound)
	count = func(bs []Bound) {
		for _, b := range bs {
			switch {
			case b.Of != nil:
				count(b.Of)
			case b.Den != 1:
				ok = false
			case b.Aff.IsConst():
			case b.Aff.Const < 0:
				neg++
			case b.Aff.Const > 0:
				pos++
			}
			if b.Of == nil && !b.Aff.IsConst() {
				nonConst++
			}
		}
	}
	count(bs)
	if ok && (nonConst == 0 || neg > 0 && neg >= pos) {
		return iter + " < " + pr.bound(shift(bs), false)
	}
	return iter + " <= " + pr.bound(bs, false)
}

// shift returns the bound terms plus one (min and max commute with it).
func shift(bs []Bound) []Bound { return shiftBounds(bs, 1) }

// bound prints the max (lower) or min of the terms bs.
func (pr *printer) bound(bs []Bound, lower bool) string {
	fn := "nestor_min"
	if lower {
		fn = "nestor_max"
	}
	terms := make([]string, len(bs))
	for j, b := range bs {
		terms[j] = pr.term(b, lower)
	}
	return pr.fold(fn, terms)
}

func (pr *printer) term(b Bound, lower bool) string {
	if b.Of != nil {
		fn := "nestor_max"
		if b.Min {
			fn = "nestor_min"
		}
		terms := make([]string, len(b.Of))
		for j, c := range b.Of {
			terms[j] = pr.term(c, lower)
		}
		return pr.fold(fn, terms)
	}
	s := pr.aff(b.Aff, nil)
	if b.Den == 1 {
		return s
	}
	fn := "nestor_floord"
	if lower {
		fn = "nestor_ceild"
	}
	pr.used[fn] = true
	return fmt.Sprintf("%s(%s, %d)", fn, s, b.Den)
}

// fold combines the terms with fn, as a balanced tree:
// fn(fn(t0, t1), fn(t2, t3)). Balanced: the macros evaluate their arguments twice, so a
// chain of n terms would expand to 2ⁿ copies, a balanced tree to about n².
func (pr *printer) fold(fn string, terms []string) string {
	if len(terms) == 1 {
		return terms[0]
	}
	pr.used[fn] = true
	h := len(terms) / 2
	return fmt.Sprintf("%s(%s, %s)", fn, pr.fold(fn, terms[:h]), pr.fold(fn, terms[h:]))
}

// aff prints a over the enclosing counters, the parameters and locals
// named by local.
func (pr *printer) aff(a ir.Aff, local []string) string {
	iters := pr.names
	if len(a.Iter) > len(iters) {
		iters = append(iters[:len(iters):len(iters)], make([]string, len(a.Iter)-len(iters))...)
		for k := len(pr.names); k < len(iters); k++ {
			if a.Iter[k] != 0 {
				pr.fail(fmt.Errorf("codegen: affine form uses counter %d inside %d loops", k, len(pr.names)))
			}
		}
	}
	return ir.FormatAff(a, ir.Names{Iter: iters, Param: pr.params, Local: local})
}

// operand prints a as an operand of any C operator.
func (pr *printer) operand(a ir.Aff) string {
	s := pr.aff(a, nil)
	if strings.ContainsAny(s, " *-") {
		return "(" + s + ")"
	}
	return s
}

// cond prints a guard with its innermost variable alone on the left:
// "j >= i + 1" reads "j > i", "j <= n - 1" reads "j < n".
func (pr *printer) cond(c Cond) string {
	local := pr.locals(c)
	if c.Mod > 0 {
		s := pr.aff(c.Aff, local)
		if strings.ContainsAny(s, " *-") {
			s = "(" + s + ")"
		}
		return fmt.Sprintf("%s %% %d == 0", s, c.Mod)
	}
	lhs := ir.Aff{Iter: make([]int64, len(c.Aff.Iter)), Param: make([]int64, len(c.Aff.Param)), Local: make([]int64, len(c.Aff.Local))}
	rhs := c.Aff.Neg()
	var coef int64
	move := func(xs, ys []int64, k int) {
		coef, xs[k], ys[k] = -ys[k], -ys[k], 0
	}
	switch {
	case c.Aff.Innermost() >= 0:
		move(lhs.Iter, rhs.Iter, c.Aff.Innermost())
	case usesLocals(c.Aff):
		k := len(c.Aff.Local) - 1
		for c.Aff.Local[k] == 0 {
			k--
		}
		move(lhs.Local, rhs.Local, k)
	default:
		k := 0
		for k < len(c.Aff.Param) && c.Aff.Param[k] == 0 {
			k++
		}
		if k == len(c.Aff.Param) {
			return pr.aff(c.Aff, nil) + map[bool]string{true: " == 0", false: " >= 0"}[c.Eq]
		}
		move(lhs.Param, rhs.Param, k)
	}
	op := ">="
	switch {
	case c.Eq:
		op = "=="
	case coef < 0:
		lhs, rhs, op = lhs.Neg(), rhs.Neg(), "<="
	}
	if coef == 1 || coef == -1 {
		switch {
		case op == ">=" && rhs.Const > 0 && !rhs.IsConst():
			op, rhs.Const = ">", rhs.Const-1
		case op == "<=" && rhs.Const < 0 && !rhs.IsConst():
			op, rhs.Const = "<", rhs.Const+1
		}
	}
	return pr.aff(lhs, local) + " " + op + " " + pr.aff(rhs, local)
}

// locals returns the names of the locals c uses, as floor divisions.
func (pr *printer) locals(c Cond) []string {
	if !usesLocals(c.Aff) {
		return nil
	}
	names := make([]string, len(c.Divs))
	used := make([]bool, len(c.Divs))
	for l, x := range c.Aff.Local {
		used[l] = x != 0
	}
	for l := len(c.Divs) - 1; l >= 0; l-- {
		if used[l] {
			for m, x := range c.Divs[l].Num.Local {
				used[m] = used[m] || x != 0
			}
		}
	}
	for l, dv := range c.Divs {
		if used[l] {
			pr.used["nestor_floord"] = true
			names[l] = fmt.Sprintf("nestor_floord(%s, %d)", pr.aff(dv.Num, names), dv.Den)
		}
	}
	return names
}

// stmt prints s as written: "C[i][j] += alpha * A[i][k] * B[k][j];".
func (pr *printer) stmt(s *ir.Stmt, in *Instance, iters []string) string {
	load := func(l *ir.Load) string { return pr.access(s.Accesses[l.Access], in) }
	iter := func(r *ir.IterRef) string { return iters[r.Level] }
	return pr.access(s.Accesses[0], in) + " " + s.Op.String() + " " + ir.FormatExpr(pr.inlineMinMax(s.RHS), load, iter, pr.params) + ";"
}

// access prints an array element, its subscripts in terms of the loop
// counters.
func (pr *printer) access(a *ir.Access, in *Instance) string {
	text := rawAccess(pr, a, in)
	if r, ok := pr.regs[text]; ok {
		return r
	}
	return text
}

// compose returns a, an affine form of a statement's counters, as a form of
// the loop counters, given each statement counter's value.
func compose(a ir.Aff, iters []ir.Aff) ir.Aff {
	out := ir.Aff{Param: append([]int64(nil), a.Param...), Const: a.Const}
	for l, c := range a.Iter {
		if c == 0 {
			continue
		}
		v := iters[l]
		if len(out.Iter) < len(v.Iter) {
			out.Iter = append(out.Iter, make([]int64, len(v.Iter)-len(out.Iter))...)
		}
		for k, x := range v.Iter {
			out.Iter[k] += c * x
		}
		if len(out.Param) < len(v.Param) {
			out.Param = append(out.Param, make([]int64, len(v.Param)-len(out.Param))...)
		}
		for k, x := range v.Param {
			out.Param[k] += c * x
		}
		out.Const += c * v.Const
	}
	return out
}

// singleIteration reports whether l's only lower and upper bounds are the
// same affine form: the loop runs once.
func singleIteration(l *Loop) bool {
	return len(l.Lower) == 1 && len(l.Upper) == 1 && len(l.Lower[0].Of) == 0 && len(l.Upper[0].Of) == 0 &&
		l.Lower[0].Den == 1 && l.Upper[0].Den == 1 && l.Lower[0].Aff.Equal(l.Upper[0].Aff)
}

// usesCounter reports whether any bound, guard or statement in ns reads
// the counter of the loop at level k.
func usesCounter(p *ir.Program, ns []Node, k int) bool {
	at := func(a ir.Aff) bool { return k < len(a.Iter) && a.Iter[k] != 0 }
	var bound func(bs []Bound) bool
	bound = func(bs []Bound) bool {
		return slices.ContainsFunc(bs, func(b Bound) bool { return at(b.Aff) || bound(b.Of) })
	}
	for _, n := range ns {
		switch n := n.(type) {
		case *Block:
			if usesCounter(p, n.Body, k) {
				return true
			}
		case *Loop:
			if bound(n.Lower) || bound(n.Upper) || usesCounter(p, n.Body, k) {
				return true
			}
		case *If:
			for _, c := range n.Conds {
				if at(c.Aff) || slices.ContainsFunc(c.Divs, func(d ir.Div) bool { return at(d.Num) }) {
					return true
				}
			}
			if usesCounter(p, n.Body, k) {
				return true
			}
		case *Instance:
			if instanceUses(p.Stmts[n.Stmt], n, at) {
				return true
			}
		}
	}
	return false
}

// instanceUses reports whether statement s, run as instance n, reads a
// loop counter that at selects: through a subscript or a counter
// reference in its body whose value (n.Iters) depends on it.
func instanceUses(s *ir.Stmt, n *Instance, at func(ir.Aff) bool) bool {
	dep := make([]bool, len(n.Iters)) // statement counters that depend on it
	for j, a := range n.Iters {
		dep[j] = at(a)
	}
	for _, acc := range s.Accesses {
		for _, x := range acc.Index {
			for j, c := range x.Iter {
				if c != 0 && dep[j] {
					return true
				}
			}
		}
	}
	used := false
	ir.Walk(s.RHS, func(e ir.Expr) bool {
		if r, ok := e.(*ir.IterRef); ok && dep[r.Level] {
			used = true
		}
		return !used
	})
	return used
}

// accessedArrays reports which arrays of p some statement accesses.
func accessedArrays(p *ir.Program) map[int]bool {
	out := map[int]bool{}
	for _, s := range p.Stmts {
		for _, acc := range s.Accesses {
			out[acc.Array] = true
		}
	}
	return out
}
