package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"nestor/frontend"
)

// Harness is Compare's harness plan for one kernel, for callers that build
// more than two variants of it (nestor bench: the original with gcc, nestor's
// output, other compilers). Every executable built from one Harness fills
// the same inputs, so their outputs compare as Compare's do.
type Harness struct {
	h   *harness
	opt Options
	// last is the index in the file of the kernel's last region, where
	// main's local variables are captured (when the kernel is main).
	last int
}

// NewHarness plans the harness of the kernel of scop in f (nil: as for
// Compare, the scops of opt.Kernel or of the file's first scop). Options
// fields that shape the harness (Defines, IncludePaths, Params, Seed, RTol)
// apply to every variant; CC and CFlags are the defaults of Build.
func NewHarness(f *frontend.File, scop *frontend.Scop, opt Options) (*Harness, error) {
	opt = opt.withDefaults()
	h, err := newHarness(f, scop, opt)
	if err != nil {
		return nil, err
	}
	H := &Harness{h: h, opt: opt}
	if len(h.endLocals) > 0 {
		scops, err := kernelScops(f, scop, opt.Kernel)
		if err != nil {
			return nil, err
		}
		for _, s := range scops {
			H.last = max(H.last, slices.Index(f.Scops, s))
		}
	}
	return H, nil
}

// Kernel is the name of the kernel function.
func (H *Harness) Kernel() string { return H.h.kernel.Name }

// Warnings are the harness's remarks, as in Result.Warnings.
func (H *Harness) Warnings() []string { return slices.Clone(H.h.warnings) }

// Build writes, in dir, the harness of the variant called name that
// includes the C file src (the original kernel file or an optimized copy
// of it), and compiles it with the compiler cc (split at spaces; empty
// means the Options' CC) and the flags DefaultCFlags, the Options' CFlags,
// then cflags.
func (H *Harness) Build(ctx context.Context, dir, name, src, cc string, cflags []string) (*Exe, error) {
	if strings.ContainsAny(name, "/ \n") || name == "" {
		return nil, fmt.Errorf("check: bad variant name %q", name)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	if len(H.h.endLocals) > 0 {
		// As Compare does: main's variables are written at the end of the
		// kernel's last region of this variant.
		text, err := os.ReadFile(abs)
		if err != nil {
			return nil, fmt.Errorf("check: %v", err)
		}
		if abs, err = H.h.instrumentEnd(dir, "end-"+name, abs, text, H.last); err != nil {
			return nil, err
		}
	}
	opt := H.opt
	if cc != "" {
		opt.CC = cc
	}
	opt.CFlags = append(slices.Clone(opt.CFlags), cflags...)
	exe, err := H.h.build(ctx, dir, name, abs, opt)
	if err != nil {
		return nil, err
	}
	return &Exe{Path: exe, h: H.h}, nil
}

// Exe is one built variant of a Harness.
type Exe struct {
	Path string
	h    *harness
}

// Inputs runs the executable in mode "in": it writes the inputs (every
// array and scalar after the fill and init_array) to file and returns them.
// env is the environment of the process (nil: nestor's own).
func (e *Exe) Inputs(ctx context.Context, file string, env []string) (*Data, error) {
	d, _, err := e.h.runEnv(ctx, e.Path, "in", file, env)
	return d, err
}

// Output runs the kernel once, writes every compared array to file and
// returns them with the kernel's time.
func (e *Exe) Output(ctx context.Context, file string, env []string) (*Data, time.Duration, error) {
	return e.h.runEnv(ctx, e.Path, "out", file, env)
}

// Time runs the kernel (repeated on refilled inputs while the calls add up
// to less than 20 ms) and returns the mean time of a call.
func (e *Exe) Time(ctx context.Context, env []string) (time.Duration, error) {
	_, t, err := e.h.runEnv(ctx, e.Path, "time", "", env)
	return t, err
}

// CompareOutputs compares the outputs b of a variant with the outputs a of
// the reference variant, array by array, with Compare's tolerances; match
// reports whether every element agreed.
func (H *Harness) CompareOutputs(a, b *Data) (arrays []ArrayResult, match bool, err error) {
	return compareData(H.h, a, b, H.opt)
}

// CompareArray compares the array y computed by some other means (a
// library) with the array x of a harness's output, as Compare compares
// arrays; rtol > 0 overrides the default tolerance of the element type.
// The error says when their shapes or element types differ.
func CompareArray(x, y *ArrayData, rtol float64) (ArrayResult, error) {
	if x.Elem != y.Elem || !equalDims(x.Dims, y.Dims) || len(x.Raw) != len(y.Raw) {
		return ArrayResult{}, fmt.Errorf("check: array %s is %s%s with %d bytes, compared with %s%s with %d bytes",
			x.Name, x.Elem, dimString(x.Dims), len(x.Raw), y.Elem, dimString(y.Dims), len(y.Raw))
	}
	return compareArray(x, y, rtol, false), nil
}

// OMPEnv is the environment Compare times a variant in at threads OpenMP
// threads (nestor's own environment with OMP_NUM_THREADS set and, unless
// the user chose one, the passive wait policy).
func OMPEnv(threads int) []string { return ompEnv(threads) }
