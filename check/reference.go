package check

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"nestor/ir"
)

// A higher-precision reference for floating-point mismatches.
//
// A reduction factored under --assoc-math sums in another order than the
// original, so the two differ by the rounding of each; for a long sum of
// floats the original's own rounding error can exceed the tolerance, and
// then the comparison fails although the factored sum is as good, often
// better (pairwise partial sums round less). When float arrays differ,
// Compare therefore runs a third variant: the original compiled with
// double and float read as long double (x87's 64-bit significand on
// x86-64, 11 bits more than double), on the same inputs, and measures how
// far each variant is from it. An array whose optimized values are within
// the tolerance of the reference is explained: its mismatch is the
// original's own rounding, and it does not fail the comparison; one that
// is not fails, whichever variant is closer. The report says which is closer. A
// tolerance the user set (Options.RTol, Exact) is taken as the criterion:
// no reference then.
//
// The reference is the original file included with
//
//	typedef long double nestor_ld;
//	#define double nestor_ld
//	#define float nestor_ld
//
// (a typedef: float defined as long double would rescan to long long
// double) after the C library's headers (whose declarations keep their types), and
// a harness whose floating-point arrays, pointers and globals are long
// double, filled with the draws of their own type (a float array gets the
// float draws), and written back as double. Scalars passed by value stay
// as they are (the call converts them). The math functions of C99 the
// kernel calls become their long double versions (exp and expf become
// expl: mathDefines), so they too round less. A region in main writes
// main's variables at its end (capture.go) from their long double
// copies. No reference is built for Execute's harness, which captures a
// region's inputs.
//
// The reference is compiled without optimization (-O0 after the other
// flags): it is only built when the variants disagree, and then it must
// not share a fault of the optimizer with the original. gcc 12's loop
// distribution at -O3 computes a wrong x for a loop that updates x[i+1]
// from x[j+1] beside an unrelated int statement (random program 8032):
// a reference built at -O3 agreed with the wrong original and blamed
// nestor's output, which -O0 shows right.

// ReferenceResult compares one float array of both variants with the
// higher-precision reference.
type ReferenceResult struct {
	// OrigErr and OptErr are the largest relative errors (relErr) of the
	// original's and the optimized variant's elements against the
	// reference.
	OrigErr, OptErr float64
	// Explained reports that the optimized values are within the
	// tolerance (ArrayResult.RTol) of the reference: the mismatch is the
	// original's own rounding.
	Explained bool
}

// Closer names the variant closer to the reference: "nestor", "original"
// or "both" when they are as far.
func (r *ReferenceResult) Closer() string {
	switch {
	case r.OptErr < r.OrigErr:
		return "nestor"
	case r.OrigErr < r.OptErr:
		return "original"
	}
	return "both"
}

// referenceTypes are the element types the reference computes in long
// double.
func referenceType(t ir.Type) bool {
	return t == ir.Float || t == ir.Double || t == ir.LongDouble
}

// explainByReference runs the reference when float arrays of res
// mismatch, records each one's distances to it, and clears res.Match's
// failure when every mismatch is explained. A reference that cannot be
// built or run leaves res as it was, with a warning.
func (h *harness) explainByReference(ctx context.Context, dir string, orig, opt *Data, res *Result, o Options) {
	var need []int
	for i := range res.Arrays {
		a := &res.Arrays[i]
		if a.Mismatches > 0 && referenceType(a.Elem) {
			need = append(need, i)
		}
	}
	if len(need) == 0 || len(h.locals) > 0 || o.RTol > 0 || o.Exact {
		return // a tolerance the user chose is the criterion
	}
	ref, err := h.runReference(ctx, dir, o)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("no higher-precision reference: %v", err))
		return
	}
	for _, i := range need {
		a := &res.Arrays[i]
		x, y, z := orig.Array(a.Name), opt.Array(a.Name), ref.Array(a.Name)
		if x == nil || y == nil || z == nil || x.Len() != z.Len() || y.Len() != z.Len() {
			continue
		}
		r := referenceDistances(x, y, z)
		r.Explained = r.OptErr <= a.RTol
		a.Reference = &r
	}
	match := true
	for i := range res.Arrays {
		a := &res.Arrays[i]
		match = match && (a.Mismatches == 0 || a.Reference != nil && a.Reference.Explained)
	}
	res.Match = match
}

// referenceDistances measures x (original) and y (optimized) against the
// reference z, element by element, with Compare's floor taken from z.
func referenceDistances(x, y, z *ArrayData) ReferenceResult {
	floor := absFloor
	for k := range z.Len() {
		if v := math.Abs(z.At(k).F); !math.IsInf(v, 0) && !math.IsNaN(v) {
			floor = max(floor, relFloorFrac*v)
		}
	}
	var r ReferenceResult
	for k := range z.Len() {
		zk := z.At(k).F
		r.OrigErr = max(r.OrigErr, relErr(x.At(k).F, zk, floor))
		r.OptErr = max(r.OptErr, relErr(y.At(k).F, zk, floor))
	}
	return r
}

// runReference builds the reference harness in dir and runs it once on
// the inputs (at one thread: the original's order).
func (h *harness) runReference(ctx context.Context, dir string, o Options) (*Data, error) {
	hr := *h
	hr.values = make([]*value, len(h.values))
	var fromFloat []*value
	for i, v := range h.values {
		c := *v
		if referenceType(v.elem) && v.role != roleScalar && v.role != roleSize && v.ctype == "" {
			if v.elem == ir.Float {
				fromFloat = append(fromFloat, &c)
			}
			c.elem = ir.LongDouble
		}
		hr.values[i] = &c
	}
	src := h.origPath
	if len(h.endLocals) > 0 {
		// main's variables, long double in the reference, are written
		// at the end of its last region as such (capture_put's ld).
		hr.endLocals = make([]*value, len(h.endLocals))
		for i, v := range h.endLocals {
			c := *v
			if referenceType(v.elem) {
				c.elem = ir.LongDouble
			}
			hr.endLocals[i] = &c
		}
		var err error
		if src, err = hr.instrumentEnd(dir, "end-ref", h.origPath, h.endSrc, h.endRegion); err != nil {
			return nil, err
		}
	}
	text, err := hr.source(src)
	if err != nil {
		return nil, err
	}
	include := fmt.Sprintf("#include \"%s\"\n", src)
	if !strings.Contains(text, include) {
		return nil, fmt.Errorf("check: the harness does not include %s", h.origPath)
	}
	text = strings.Replace(text, include, referenceHeaders+
		"typedef long double nestor_ld;\n#define double nestor_ld\n#define float nestor_ld\n"+mathDefines(true)+include+
		"#undef double\n#undef float\n"+mathDefines(false), 1)
	if len(fromFloat) > 0 {
		// A float array of the original gets float draws, stored long
		// double: the inputs of the other variants.
		ld := typeIdent(ir.LongDouble)
		for _, v := range fromFloat {
			call := fmt.Sprintf("nestor_fill_%s((void *)%s, %s);", ld, v.addr(), v.count())
			text = strings.ReplaceAll(text, call, fmt.Sprintf("nestor_fill_float_ld((void *)%s, %s);", v.addr(), v.count()))
		}
		text = strings.Replace(text, "\nint main(int argc", fillFloatLD+"\nint main(int argc", 1)
	}
	cfile := filepath.Join(dir, "harness_ref.c")
	if err := os.WriteFile(cfile, []byte(text), 0o644); err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	ro := o
	ro.CFlags = append(slices.Clone(o.CFlags), "-O0")
	exe, err := h.compile(ctx, dir, "ref", cfile, ro)
	if err != nil {
		return nil, err
	}
	d, _, err := hr.runEnv(ctx, exe, "out", filepath.Join(dir, "ref.out"), ompEnv(1))
	return d, err
}

// referenceMath are the math functions of C99 the reference computes in
// long double: each call of f or ff (float) becomes a call of fl.
var referenceMath = []string{"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "cos", "cosh",
	"erf", "erfc", "exp", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax", "fmin", "fmod", "hypot", "log", "log10",
	"log1p", "log2", "pow", "remainder", "round", "sin", "sinh", "sqrt", "tan", "tanh", "tgamma", "lgamma", "trunc"}

// mathDefines returns the lines that make every call of a math function
// in the kernel a call of its long double version (define), or that
// undo them (!define).
func mathDefines(define bool) string {
	var b strings.Builder
	for _, f := range referenceMath {
		for _, name := range []string{f, f + "f"} {
			if !define {
				fmt.Fprintf(&b, "#undef %s\n", name)
				continue
			}
			args := "x"
			switch f {
			case "atan2", "fdim", "fmax", "fmin", "fmod", "hypot", "pow", "remainder":
				args = "x, y"
			case "fma":
				args = "x, y, z"
			}
			fmt.Fprintf(&b, "#define %s(%s) %sl(%s)\n", name, args, f, args)
		}
	}
	return b.String()
}

// referenceHeaders are the C library headers the reference includes
// before double becomes long double, so that their declarations keep
// their types (a kernel's own #include of them is then skipped).
const referenceHeaders = `#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>
`

// fillFloatLD fills long double elements with the float draws (fillFunc).
const fillFloatLD = `
static void nestor_fill_float_ld(void *nestor_p, size_t nestor_n) {
	long double *nestor_q = nestor_p;
	for (size_t nestor_k = 0; nestor_k < nestor_n; nestor_k++)
		nestor_q[nestor_k] = (long double)(float)((float)(nestor_next() >> 40) * 0x1.0p-24f);
}
`
