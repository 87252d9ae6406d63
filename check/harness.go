package check

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"nestor/frontend"
	"nestor/ir"
)

// initFuncName is the function a harness calls after the random fill when
// the file defines it and its parameters match the kernel's by name
// (PolyBench's convention).
const initFuncName = "init_array"

// role says how the harness treats one value.
type role uint8

const (
	roleSize    role = iota // integer parameter: a size, from Options.Params or a macro
	roleScalar              // scalar parameter passed by value: filled
	rolePointer             // scalar parameter passed by pointer: filled, compared
	roleArray               // array parameter: heap-allocated, filled, compared
	roleGlobal              // global the kernel's scops touch: filled, compared
	roleLocal               // local of the kernel function: captured at the region's start (Execute)
)

// value is a variable of the harness's main, or a global it fills.
type value struct {
	name string
	elem ir.Type
	role role
	dims []string // C expressions of the sizes (roleArray)
	rank int
	// members marks an array of structs (ir.Array.Members): its last
	// dimension, counted in rank, selects the member, so C subscripts
	// rank-1 dimensions.
	members bool
	// ctype is the C type of a struct passed by value (FuncParam.Struct),
	// filled and written as the rank-1 array of its members.
	ctype   string
	written bool // some scop of the kernel writes it
	// required marks a size that is a parameter of the scop: without a
	// value the harness does not compile. Otherwise a size takes fallback
	// when no value is given.
	required bool
	fallback int64
}

// harness is the plan shared by the harnesses of both variants.
type harness struct {
	kernel   *frontend.Func
	origPath string // absolute
	values   []*value
	params   map[string]int64
	seed     uint64
	initArgs []string // nil when init_array is not called
	warnings []string
	// locals are the function locals of the scop that Execute's harness
	// captures when the region starts (role roleLocal); empty otherwise.
	locals []*value
	// endLocals are the variables of main that Compare's harness captures
	// at the end of main's last region (capture.go); empty otherwise.
	// endSrc is then the original file's text and endRegion that
	// region's index among its regions (for the reference's copy).
	endLocals []*value
	endSrc    []byte
	endRegion int
}

func newHarness(f *frontend.File, scop *frontend.Scop, opt Options) (*harness, error) {
	scops, err := kernelScops(f, scop, opt.Kernel)
	if err != nil {
		return nil, err
	}
	main := scops[0]
	path, err := filepath.Abs(f.Path)
	if err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	if strings.ContainsAny(path, "\"\n\\") {
		return nil, fmt.Errorf("check: cannot #include %q: the path has a quote, backslash or newline", path)
	}
	h := &harness{kernel: main.Func, origPath: path, params: opt.Params, seed: opt.Seed}
	h.warnings = aliasWarnings(f.Src, main.Func)
	if h.isMain() {
		return h.planMain(f, scops)
	}
	written := writtenArrays(scops)
	names := ir.Names{Param: ir.ParamNames(main.Prog)}
	rng := splitmix(opt.Seed ^ 0x5a5a)
	for _, p := range main.Func.Params {
		v := &value{name: p.Name, elem: p.Elem, rank: len(p.Dims), written: written[p.Name]}
		switch {
		case len(p.Dims) > 0:
			v.role = roleArray
			for k, d := range p.Dims {
				if k == 0 && absent(d) {
					d, err = firstDim(main.Prog, p.Name)
					if err != nil {
						return nil, err
					}
				}
				v.dims = append(v.dims, "("+ir.FormatAff(d, names)+")")
			}
		case p.Pointer:
			v.role = rolePointer
		case p.Struct != "":
			v.role, v.ctype, v.rank = roleScalar, p.Struct, 1
			v.dims = []string{fmt.Sprintf("(sizeof(%s) / sizeof(%s))", p.Name, cType(p.Elem))}
		case p.Elem.IsInteger():
			v.role = roleSize
			v.required = p.Param >= 0
			v.fallback = int64(rng.next() % fillIntRange)
		default:
			v.role = roleScalar
		}
		h.values = append(h.values, v)
	}
	for name := range opt.Params {
		if v := h.value(name); v == nil || v.role != roleSize {
			return nil, fmt.Errorf("check: %s has no integer parameter %s to set", h.kernel.Name, name)
		}
	}
	h.addGlobals(scops, written)
	h.planInit(f)
	return h, nil
}

// writtenArrays returns the names of the arrays some scop of scops writes.
func writtenArrays(scops []*frontend.Scop) map[string]bool {
	written := map[string]bool{}
	for _, s := range scops {
		for k, a := range s.Prog.Arrays {
			if s.Prog.Writes(k) {
				written[a.Name] = true
			}
		}
	}
	return written
}

// addGlobals adds the globals the scops touch to h.values.
func (h *harness) addGlobals(scops []*frontend.Scop, written map[string]bool) {
	seen := map[string]bool{}
	for _, s := range scops {
		for _, a := range s.Prog.Arrays {
			if a.Storage != ir.Global || seen[a.Name] {
				continue
			}
			seen[a.Name] = true
			h.values = append(h.values, &value{name: a.Name, elem: a.Elem, role: roleGlobal, rank: a.Rank(), members: a.Members != nil, written: written[a.Name]})
		}
	}
}

// userMain is what the harness calls the file's own main: the harness
// includes the file with main renamed to it.
const userMain = "nestor_user_main"

// isMain reports whether the regions to check are in the file's main (as
// in every Pluto example): the harness then fills the globals, calls the
// whole main, renamed, and compares the globals.
func (h *harness) isMain() bool { return h.kernel.Name == "main" }

// planMain plans the harness of a kernel that is main: its arguments are
// argc = 1 and argv (and envp) holding only a program name; the globals
// the regions touch are filled and compared. What main computes in its
// own locals cannot be compared: a warning names those arrays.
func (h *harness) planMain(f *frontend.File, scops []*frontend.Scop) (*harness, error) {
	if n := len(h.kernel.Params); n != 0 && n != 2 && n != 3 {
		return nil, fmt.Errorf("check: main has %d parameters; want none, (argc, argv) or (argc, argv, envp)", n)
	}
	h.addGlobals(scops, writtenArrays(scops))
	h.planEndCapture(scops)
	var locals []string
	seen := map[string]bool{}
	for _, s := range scops {
		for k, a := range s.Prog.Arrays {
			if (a.Storage == ir.FuncLocal || a.Storage == ir.ScopLocal && a.Rank() > 0) && s.Prog.Writes(k) && !seen[a.Name] && h.local(a.Name) == nil {
				seen[a.Name] = true
				locals = append(locals, a.Name)
			}
		}
	}
	h.warnings = append(h.warnings, "the regions are in main: the harness calls the whole main (times include all of it) and compares the globals and main's variables at the end of its last region")
	if len(locals) > 0 {
		h.warnings = append(h.warnings, fmt.Sprintf("main's variables %s are not compared (their sizes are not constants): make them globals to check them", strings.Join(locals, ", ")))
	}
	if !slices.ContainsFunc(h.values, func(v *value) bool { return v.written }) && len(h.endLocals) == 0 {
		h.warnings = append(h.warnings, "nothing the regions write can be compared")
	}
	h.planInit(f)
	return h, nil
}

// mainArgs are the arguments the harness passes to the file's main.
func (h *harness) mainArgs() []string {
	return []string{"1", "nestor_argv", "nestor_argv + 1"}[:len(h.kernel.Params)]
}

// kernelScops returns the scops of the kernel function, scop's first.
func kernelScops(f *frontend.File, scop *frontend.Scop, kernel string) ([]*frontend.Scop, error) {
	if scop == nil {
		for _, s := range f.Scops {
			if kernel == "" || s.Func != nil && s.Func.Name == kernel {
				scop = s
				break
			}
		}
	}
	if scop == nil {
		if kernel != "" {
			return nil, fmt.Errorf("check: %s: no scop in a function %s", f.Path, kernel)
		}
		return nil, fmt.Errorf("check: %s: no scop", f.Path)
	}
	if scop.Func == nil || scop.Prog == nil {
		return nil, fmt.Errorf("check: %s: scop without a function or program", scop.Pos)
	}
	scops := []*frontend.Scop{scop}
	for _, s := range f.Scops {
		if s != scop && s.Func != nil && s.Prog != nil && s.Func.Name == scop.Func.Name {
			scops = append(scops, s)
		}
	}
	return scops, nil
}

// absent reports whether d is the form FuncParam.Dims[0] has when the
// declaration leaves the size out.
func absent(d ir.Aff) bool {
	return d.Iter == nil && d.Param == nil && d.Local == nil && d.Const == 0
}

func firstDim(p *ir.Program, name string) (ir.Aff, error) {
	if k := p.ArrayIndex(name); k >= 0 && p.Arrays[k].Rank() > 0 && !absent(p.Arrays[k].Dims[0]) {
		return p.Arrays[k].Dims[0], nil
	}
	return ir.Aff{}, fmt.Errorf("check: array parameter %s has no first size; declare it (%s[n][...])", name, name)
}

// planInit decides whether and how the harness calls init_array: every
// parameter of it must name a kernel parameter or touched global of the
// same shape and element type.
func (h *harness) planInit(f *frontend.File) {
	var init *frontend.Func
	for _, fn := range f.Funcs {
		if fn.Name == initFuncName {
			init = fn
		}
	}
	if init == nil {
		return
	}
	byName := map[string]*value{}
	for _, v := range h.values {
		byName[v.name] = v
	}
	var args []string
	for _, p := range init.Params {
		v := byName[p.Name]
		why := ""
		switch {
		case v == nil:
			why = "is not a parameter of " + h.kernel.Name
		case len(p.Dims) > 0:
			if v.rank == 0 || v.rank != len(p.Dims) || v.elem != p.Elem {
				why = "is not an array of the same shape"
			}
			args = append(args, "(void *)"+v.ref())
		case p.Pointer:
			if v.rank > 0 || v.elem != p.Elem {
				why = "is not a scalar of the same type"
			}
			args = append(args, "&"+v.name)
		default:
			if v.rank > 0 {
				why = "is not a scalar"
			}
			args = append(args, v.name)
		}
		if why != "" {
			h.warnings = append(h.warnings, fmt.Sprintf("%s not called: its parameter %s %s", initFuncName, p.Name, why))
			return
		}
	}
	h.initArgs = args
}

// ref is the expression of the array's address for an array value.
func (v *value) ref() string {
	if v.role == roleGlobal {
		return "&" + v.name
	}
	return v.name
}

// cType is the C spelling of an ir type as a harness declares it.
func cType(t ir.Type) string { return t.String() }

// typeIdent names a type inside harness identifiers.
func typeIdent(t ir.Type) string {
	return strings.ReplaceAll(strings.TrimPrefix(t.String(), "_"), " ", "_")
}

// storage is the type a harness writes elements of t as.
func storage(t ir.Type) ir.Type {
	if t == ir.LongDouble {
		return ir.Double
	}
	return t
}

// The input generator: splitmix64 (Steele, Lea, Flood 2014), the same in Go
// and in the harness. Integers are drawn in [0, fillIntRange) so that sums
// and products of a few of them do not overflow; floating-point values are
// uniform in [0, 1).
const fillIntRange = 64

type splitmix uint64

func (s *splitmix) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

const prelude = `
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned long long nestor_state;

static unsigned long long nestor_next(void) {
	unsigned long long nestor_z = (nestor_state += 0x9e3779b97f4a7c15ULL);
	nestor_z = (nestor_z ^ (nestor_z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	nestor_z = (nestor_z ^ (nestor_z >> 27)) * 0x94d049bb133111ebULL;
	return nestor_z ^ (nestor_z >> 31);
}

static void nestor_fail(const char *nestor_what) {
	perror(nestor_what);
	exit(2);
}

static void *nestor_alloc(size_t nestor_n) {
	void *nestor_p = aligned_alloc(64, (nestor_n + 63) / 64 * 64 + 64);
	if (!nestor_p)
		nestor_fail("nestor check: allocating arrays");
	return nestor_p;
}

static void nestor_write(FILE *nestor_f, const void *nestor_p, size_t nestor_n) {
	if (fwrite(nestor_p, 1, nestor_n, nestor_f) != nestor_n)
		nestor_fail("nestor check: writing data");
}

static void nestor_dims(const char *nestor_name, int nestor_rank, const long long *nestor_d) {
	printf("nestor-array %s %d", nestor_name, nestor_rank);
	for (int nestor_k = 0; nestor_k < nestor_rank; nestor_k++)
		printf(" %lld", nestor_d[nestor_k]);
	printf("\n");
}
`

// fillFunc returns the C function filling n elements of type t.
func fillFunc(t ir.Type) string {
	var draw string
	switch t {
	case ir.Float:
		draw = "(float)(nestor_next() >> 40) * 0x1.0p-24f"
	case ir.Double, ir.LongDouble:
		draw = "(double)(nestor_next() >> 11) * 0x1.0p-53"
	case ir.Bool:
		draw = "nestor_next() & 1"
	default:
		draw = fmt.Sprintf("nestor_next() %% %d", fillIntRange)
	}
	return fmt.Sprintf(`
static void nestor_fill_%[1]s(void *nestor_p, size_t nestor_n) {
	%[2]s *nestor_q = nestor_p;
	for (size_t nestor_k = 0; nestor_k < nestor_n; nestor_k++)
		nestor_q[nestor_k] = (%[2]s)(%[3]s);
}
`, typeIdent(t), cType(t), draw)
}

const writeLongDouble = `
static void nestor_write_long_double(FILE *nestor_f, const long double *nestor_p, size_t nestor_n) {
	for (size_t nestor_k = 0; nestor_k < nestor_n; nestor_k++) {
		double nestor_d = (double)nestor_p[nestor_k];
		nestor_write(nestor_f, &nestor_d, sizeof nestor_d);
	}
}
`

// source returns the harness C text for the variant in the file src.
func (h *harness) source(src string) (string, error) {
	if strings.ContainsAny(src, "\"\n\\") {
		return "", fmt.Errorf("check: cannot #include %q: the path has a quote, backslash or newline", src)
	}
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("/* Generated by nestor check: runs %s from the file below. */\n", h.kernel.Name)
	p("#define main __attribute__((unused)) static %s\n", userMain)
	if len(h.locals) > 0 || len(h.endLocals) > 0 {
		b.WriteString(captureDecls)
	}
	p("#include \"%s\"\n", src)
	p("#undef main\n")
	b.WriteString(prelude)
	if len(h.locals) > 0 || len(h.endLocals) > 0 {
		b.WriteString(captureFuncs)
	}
	types := map[ir.Type]bool{}
	for _, v := range h.values {
		if v.role != roleSize && !types[v.elem] {
			types[v.elem] = true
			b.WriteString(fillFunc(v.elem))
			if v.elem == ir.LongDouble {
				b.WriteString(writeLongDouble)
			}
		}
	}

	p("\nint main(int argc, char **argv) {\n")
	p("\tif (argc < 2 || (strcmp(argv[1], \"time\") != 0 && argc < 3)) {\n")
	p("\t\tfprintf(stderr, \"usage: %%s in|out FILE, or %%s time\\n\", argv[0], argv[0]);\n")
	p("\t\treturn 2;\n\t}\n")
	p("\tconst char *nestor_mode = argv[1];\n")
	for _, v := range h.values {
		h.declare(&b, v)
	}
	for _, v := range h.values {
		if v.role == roleSize {
			p("\tprintf(\"nestor-param %s %%lld\\n\", (long long)%s);\n", v.name, v.name)
		}
	}

	// fill sets every input: the same pseudo-random values in every run,
	// then init_array. It runs before each call of the kernel.
	fill := func(indent string) {
		p("%snestor_state = %#xULL;\n", indent, h.seed)
		for _, v := range h.values {
			if v.role != roleSize {
				p("%snestor_fill_%s((void *)%s, %s);\n", indent, typeIdent(v.elem), v.addr(), v.count())
			}
		}
		if h.initArgs != nil {
			p("%s%s(%s);\n", indent, initFuncName, strings.Join(h.initArgs, ", "))
		}
	}
	p("\n\t/* Inputs: the same pseudo-random values in every run, then %s. */\n", initFuncName)
	fill("\t")
	kernel := h.kernel.Name
	var args []string
	if h.isMain() {
		kernel, args = userMain, h.mainArgs()
		p("\tstatic char nestor_arg0[] = \"nestor-check\";\n")
		p("\tstatic char *nestor_argv[] = {nestor_arg0, 0};\n")
	}
	p("\t__typeof__(%[1]s) *volatile nestor_kernel = %[1]s;\n", kernel)
	for _, v := range h.values {
		switch v.role {
		case roleSize, roleScalar:
			args = append(args, v.name)
		case rolePointer:
			args = append(args, "&"+v.name)
		case roleArray:
			args = append(args, "(void *)"+v.name)
		}
	}
	p("\tif (strcmp(nestor_mode, \"in\") == 0) {\n")
	h.dump(&b, func(v *value) bool { return v.role != roleSize }, "")
	if len(h.locals) > 0 {
		// The locals are written by the instrumented region, after the
		// inputs above, which the kernel then overwrites.
		p("\t\tnestor_capture = nestor_f;\n")
		p("\t\tnestor_kernel(%s);\n", strings.Join(args, ", "))
		p("\t\tnestor_capture = 0;\n")
	}
	h.closeDump(&b)
	p("\t\treturn 0;\n\t}\n")

	// The OpenMP runtime starts its threads before the clock does, as a
	// threaded library (OpenBLAS) starts its own when it loads: the first
	// call of an OpenMP kernel would otherwise also time the team's start
	// and its threads' first wake-up (3-5 ms on a 2-vCPU virtual machine).
	// Every version gets it; sequential code never forks again.
	p("\n\t/* The OpenMP team starts before the timed calls, as a threaded library's threads start when it loads. */\n")
	p("\t#ifdef _OPENMP\n\t#pragma omp parallel\n\t{ __asm__ volatile(\"\"); }\n\t#endif\n")
	p("\n\t/* The kernel, timed, called through a pointer so it is not inlined. */\n")
	for _, v := range h.values {
		if v.role == roleArray {
			p("\t__asm__ volatile(\"\" : : \"r\"(%s) : \"memory\");\n", v.name)
		}
	}
	// timed calls the kernel once and adds its time to nestor_ns.
	timed := func(indent string) {
		p("%sclock_gettime(CLOCK_MONOTONIC, &nestor_t0);\n", indent)
		p("%snestor_kernel(%s);\n", indent, strings.Join(args, ", "))
		p("%sclock_gettime(CLOCK_MONOTONIC, &nestor_t1);\n", indent)
		p("%s__asm__ volatile(\"\" : : : \"memory\");\n", indent)
		p("%snestor_ns += (long long)(nestor_t1.tv_sec - nestor_t0.tv_sec) * 1000000000LL + (nestor_t1.tv_nsec - nestor_t0.tv_nsec);\n", indent)
	}
	p("\tstruct timespec nestor_t0, nestor_t1;\n")
	p("\tlong long nestor_ns = 0;\n")
	if len(h.endLocals) > 0 {
		// The file is open while the kernel runs: the end of its last
		// region writes main's variables to it (see capture.go).
		p("\tFILE *nestor_out = 0;\n")
		p("\tif (strcmp(nestor_mode, \"out\") == 0) {\n")
		p("\t\tnestor_out = fopen(argv[2], \"wb\");\n")
		p("\t\tif (!nestor_out)\n\t\t\tnestor_fail(argv[2]);\n")
		p("\t\tnestor_capture = nestor_out;\n\t}\n")
	}
	timed("\t")
	if len(h.endLocals) > 0 {
		p("\tnestor_capture = 0;\n")
	}
	p("\tif (strcmp(nestor_mode, \"out\") == 0) {\n")
	open := ""
	if len(h.endLocals) > 0 {
		open = "nestor_out"
	}
	h.dump(&b, func(v *value) bool { return v.compared() }, open)
	h.closeDump(&b)
	p("\t}\n")
	// A short kernel is called again, on refilled inputs, until the calls
	// add up to minTimed; the report is the mean time per call.
	p("\tlong long nestor_calls = 1, nestor_spent = 0;\n")
	p("\tstruct timespec nestor_w0, nestor_w1;\n")
	p("\tclock_gettime(CLOCK_MONOTONIC, &nestor_w0);\n")
	p("\twhile (nestor_ns < %dLL && nestor_calls < %d && nestor_spent < %dLL) {\n", minTimed.Nanoseconds(), maxCalls, maxRepeat.Nanoseconds())
	fill("\t\t")
	timed("\t\t")
	p("\t\tnestor_calls++;\n")
	p("\t\tclock_gettime(CLOCK_MONOTONIC, &nestor_w1);\n")
	p("\t\tnestor_spent = (long long)(nestor_w1.tv_sec - nestor_w0.tv_sec) * 1000000000LL + (nestor_w1.tv_nsec - nestor_w0.tv_nsec);\n")
	p("\t}\n")
	p("\tprintf(\"nestor-time %%lld\\n\", nestor_ns / nestor_calls);\n")
	p("\treturn 0;\n}\n")
	return b.String(), nil
}

// compared reports whether the harness compares v after the kernel: every
// value the kernel can modify.
func (v *value) compared() bool {
	return v.role == rolePointer || v.role == roleArray || v.role == roleGlobal
}

// declare writes the declaration of v in main.
func (h *harness) declare(b *strings.Builder, v *value) {
	t := cType(v.elem)
	switch v.role {
	case roleSize:
		macro := strings.ToUpper(v.name)
		if x, ok := h.params[v.name]; ok {
			fmt.Fprintf(b, "\t%s %s = %d;\n", t, v.name, x)
			return
		}
		fmt.Fprintf(b, "#ifdef %s\n\t%s %s = %s;\n#else\n", macro, t, v.name, macro)
		if v.required {
			fmt.Fprintf(b, "#error \"nestor check: no value for parameter %s: define %s (-D %s=...) or pass --param %s=V\"\n",
				v.name, macro, macro, v.name)
		} else {
			fmt.Fprintf(b, "\t%s %s = %d;\n", t, v.name, v.fallback)
		}
		b.WriteString("#endif\n")
		if v.required {
			fmt.Fprintf(b, "\tif (%[1]s < 0) {\n\t\tfprintf(stderr, \"nestor check: parameter %[1]s = %%lld is negative\\n\", (long long)%[1]s);\n\t\treturn 2;\n\t}\n", v.name)
		}
	case roleScalar, rolePointer:
		if v.ctype != "" {
			t = v.ctype
		}
		fmt.Fprintf(b, "\t%s %s;\n", t, v.name)
	case roleArray:
		if v.rank == 1 {
			fmt.Fprintf(b, "\t%s *%s = nestor_alloc(%s);\n", t, v.name, v.bytes())
		} else {
			fmt.Fprintf(b, "\t%s (*%s)%s = nestor_alloc(%s);\n", t, v.name, brackets(v.dims[1:]), v.bytes())
		}
	}
}

func brackets(dims []string) string {
	var b strings.Builder
	for _, d := range dims {
		b.WriteString("[" + d + "]")
	}
	return b.String()
}

// bytes is the C expression of v's size in bytes.
func (v *value) bytes() string {
	switch v.role {
	case roleArray:
		return fmt.Sprintf("sizeof(%s%s)", cType(v.elem), brackets(v.dims))
	case roleGlobal:
		return "sizeof(" + v.name + ")"
	}
	if v.ctype != "" {
		return "sizeof(" + v.name + ")"
	}
	return fmt.Sprintf("sizeof(%s)", cType(v.elem))
}

// count is the C expression of v's number of elements.
func (v *value) count() string {
	return fmt.Sprintf("%s / sizeof(%s)", v.bytes(), cType(v.elem))
}

// addr is the C expression of v's first element's address.
func (v *value) addr() string {
	if v.role == roleArray {
		return v.name
	}
	return "&" + v.name
}

// dimExprs are the C expressions of v's sizes.
func (v *value) dimExprs() []string {
	if v.role != roleGlobal {
		return v.dims
	}
	ds := make([]string, v.rank)
	for k := range ds {
		ds[k] = fmt.Sprintf("sizeof(%s%s) / sizeof(%s%s)", v.name, strings.Repeat("[0]", k), v.name, strings.Repeat("[0]", k+1))
		if v.members && k == v.rank-1 {
			// The struct's members, all of the element type.
			ds[k] = fmt.Sprintf("sizeof(%s%s) / sizeof(%s)", v.name, strings.Repeat("[0]", k), cType(v.elem))
		}
	}
	return ds
}

// dump writes the code that opens the file argv[2] as nestor_f (or takes
// the open file named by open), writes the values selected by keep to it
// and lists them on standard output; closeDump closes it.
func (h *harness) dump(b *strings.Builder, keep func(*value) bool, open string) {
	if open != "" {
		b.WriteString("\t\tFILE *nestor_f = " + open + ";\n")
	} else {
		b.WriteString("\t\tFILE *nestor_f = fopen(argv[2], \"wb\");\n")
	}
	b.WriteString("\t\tif (!nestor_f)\n\t\t\tnestor_fail(argv[2]);\n")
	for _, v := range h.values {
		if !keep(v) {
			continue
		}
		ds := v.dimExprs()
		b.WriteString("\t\t{\n")
		if len(ds) > 0 {
			fmt.Fprintf(b, "\t\t\tlong long nestor_d[] = {%s};\n", strings.Join(wrapEach(ds, "(long long)(", ")"), ", "))
			fmt.Fprintf(b, "\t\t\tnestor_dims(\"%s\", %d, nestor_d);\n", v.name, len(ds))
		} else {
			fmt.Fprintf(b, "\t\t\tnestor_dims(\"%s\", 0, 0);\n", v.name)
		}
		if v.elem == ir.LongDouble {
			fmt.Fprintf(b, "\t\t\tnestor_write_long_double(nestor_f, (void *)%s, %s);\n", v.addr(), v.count())
		} else {
			fmt.Fprintf(b, "\t\t\tnestor_write(nestor_f, (void *)%s, %s);\n", v.addr(), v.bytes())
		}
		b.WriteString("\t\t}\n")
	}
}

// closeDump writes the code closing the file a dump opened.
func (h *harness) closeDump(b *strings.Builder) {
	b.WriteString("\t\tif (fclose(nestor_f) != 0)\n\t\t\tnestor_fail(argv[2]);\n")
}

func wrapEach(xs []string, pre, post string) []string {
	out := make([]string, len(xs))
	for k, x := range xs {
		out[k] = pre + x + post
	}
	return out
}

// aliasWarnings looks, in the file's text, for calls of the kernel that
// pass one array to two of its array or pointer parameters (kernel(n, A,
// A)): nestor assumes such parameters do not alias (as Pluto and PPCG do),
// so the optimized kernel may compute something else for that call. The
// harness itself passes every parameter its own array; the warning says
// what it cannot check.
func aliasWarnings(src []byte, kernel *frontend.Func) []string {
	var out []string
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(kernel.Name) + `\s*\(`)
	seen := map[string]bool{}
	for _, m := range re.FindAllIndex(src, -1) {
		args, ok := callArgs(src[m[1]:])
		if !ok || len(args) != len(kernel.Params) {
			continue // the definition, a declaration, or not a call we can read
		}
		byArg := map[string]string{}
		for k, p := range kernel.Params {
			if len(p.Dims) == 0 && !p.Pointer {
				continue
			}
			a := strings.TrimLeft(strings.Join(strings.Fields(args[k]), ""), "&")
			if a == "" || a == "0" || a == "NULL" {
				continue
			}
			if q, dup := byArg[a]; dup && !seen[a+"/"+q+"/"+p.Name] {
				seen[a+"/"+q+"/"+p.Name] = true
				out = append(out, fmt.Sprintf("a call of %s passes %s as both %s and %s: nestor assumes array parameters do not alias, so the optimized kernel may differ for that call (this check gives each its own array)",
					kernel.Name, strings.TrimSpace(args[k]), q, p.Name))
			}
			byArg[a] = p.Name
		}
	}
	return out
}

// callArgs splits the argument list that starts right after a call's "(",
// at the commas outside parentheses and brackets; ok is false when the
// text looks like a declaration (a type before a name) or never closes.
func callArgs(src []byte) (args []string, ok bool) {
	depth, start := 0, 0
	for i, c := range src {
		switch c {
		case '(', '[', '{':
			depth++
		case ']', '}':
			depth--
		case ')':
			if depth == 0 {
				args = append(args, string(src[start:i]))
				for _, a := range args {
					if declLike.MatchString(strings.TrimSpace(a)) {
						return nil, false
					}
				}
				return args, true
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, string(src[start:i]))
				start = i + 1
			}
		case ';':
			return nil, false
		}
	}
	return nil, false
}

// declLike matches a parameter declaration ("int n", "double A[n]",
// "DATA_TYPE POLYBENCH_2D(...)"): two words in a row.
var declLike = regexp.MustCompile(`^[A-Za-z_]\w*[\s*]+[A-Za-z_(]`)
