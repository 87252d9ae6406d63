package check

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"nestor/frontend"
	"nestor/ir"
)

// Defaults for Options fields left zero.
const (
	DefaultSeed = 0x6e6573746f72 // "nestor"
	// DefaultRuns is the number of timed runs of each variant.
	DefaultRuns = 5
	// DefaultBudget bounds the timing: after a variant's kernel time adds up
	// to this, no further runs start (there is always at least one).
	DefaultBudget = 2 * time.Second
)

// Repetition within one timed run, so that short kernels are measured above
// the clock's noise: a run calls the kernel again on refilled inputs until
// the calls add up to minTimed, maxCalls calls were made or the repetition
// took maxRepeat of wall time, refills included (a kernel of a microsecond
// whose inputs take 40 ms to fill would otherwise run 10,000 refills), and
// reports the mean time per call.
const (
	minTimed  = 20 * time.Millisecond
	maxCalls  = 10000
	maxRepeat = time.Second
)

// DefaultCFlags are the optimization flags both variants are built with,
// before Options.CFlags. -fopenmp is harmless for sequential code and needed
// for parallel code.
var DefaultCFlags = []string{"-O3", "-march=native", "-fopenmp"}

// Options configures Compare and Execute.
type Options struct {
	// CC is the compiler command, split at spaces ("ccache gcc"); empty
	// means $CC, and "cc" when that is unset.
	CC string
	// CFlags are added after DefaultCFlags for both variants.
	CFlags       []string
	IncludePaths []string // -I, after the folder of the kernel file
	Defines      []string // -D: "NAME" or "NAME=VALUE"
	// Params gives values to integer parameters of the kernel function by
	// name; a parameter not given takes the value of the macro with its
	// name in upper case (PolyBench's ni = NI).
	Params map[string]int64
	Seed   uint64        // of the input generator; 0 means DefaultSeed
	Runs   int           // timed runs per variant; 0 means DefaultRuns
	Budget time.Duration // 0 means DefaultBudget
	// RTol, when positive, replaces the default relative tolerance of every
	// floating-point type (RTolDouble, RTolFloat).
	RTol float64
	// Exact makes the tolerance 0: floating-point values must be equal
	// (NaN equals NaN), whatever RTol says.
	Exact bool
	// KeepDir, when set, is where the harnesses are built; it is kept.
	// Otherwise a temporary folder is used and removed unless Compare
	// fails, in which case the error names it.
	KeepDir string
	// Kernel names the kernel function when Compare's scop is nil; empty
	// means the function of the file's first scop.
	Kernel string
	// Threads are the OpenMP thread counts (OMP_NUM_THREADS) both variants
	// are timed at, one Timing each; nil means 1 and the number of CPUs.
	// The outputs are compared at the last count.
	Threads []int
}

// Timing is the outcome of the timed runs at one thread count.
type Timing struct {
	Threads   int
	Orig, Opt time.Duration // median kernel times
	Speedup   float64       // Orig/Opt
	Runs      int           // timed runs of each variant
}

// Result is the outcome of Compare.
type Result struct {
	Kernel string
	Arrays []ArrayResult // in the order of the kernel's parameters, then globals
	// Timings has one entry per thread count of Options.Threads. Orig,
	// Opt, Speedup and Runs repeat its last (the most threads).
	Timings   []Timing
	Orig, Opt time.Duration
	Speedup   float64
	Runs      int
	Match     bool // every compared element agreed
	Warnings  []string
	// Dir is where the harnesses are when they are kept: Options.KeepDir,
	// or the temporary folder when the results differ.
	Dir string
}

// ArrayResult compares one array (or scalar passed by pointer) of the
// kernel after it ran.
type ArrayResult struct {
	Name    string
	Elem    ir.Type
	Dims    []int64
	Written bool // the scop writes it; read-only arrays are compared too
	Count   int  // elements
	// Mismatches counts the elements that differ (integers) or whose
	// relative error exceeds RTol (floating point).
	Mismatches int
	Exact      bool    // compared exactly (integer types)
	RTol       float64 // tolerance used for floating point
	// Worst is the index of the element with the largest relative error
	// (floating point) or of the first mismatch (integers); nil when all
	// elements are equal. Orig and Opt are the values there and RelErr
	// its relative error (see relErr).
	Worst     []int64
	Orig, Opt Value
	RelErr    float64
	// Reference, for a float array that mismatches, compares both
	// variants with a higher-precision run of the original
	// (reference.go); nil when none ran.
	Reference *ReferenceResult
}

// Value is one element as read back from a harness.
type Value struct {
	T ir.Type
	I int64   // integer types (unsigned ones bit for bit)
	F float64 // floating-point types
}

func (v Value) String() string {
	switch {
	case v.T.IsFloat():
		return fmt.Sprintf("%.17g", v.F)
	case v.T.IsUnsigned():
		return fmt.Sprint(uint64(v.I))
	}
	return fmt.Sprint(v.I)
}

// Data is what one run of a harness wrote: the parameter values and the
// arrays in manifest order.
type Data struct {
	Params map[string]int64
	Arrays []*ArrayData
}

// ArrayData is one array (or scalar, with no Dims) of a Data.
type ArrayData struct {
	Name string
	Elem ir.Type // LongDouble values are stored as Double
	Dims []int64
	Raw  []byte // Len() elements of Elem's storage type, little endian
}

// Array returns the array called name, or nil.
func (d *Data) Array(name string) *ArrayData {
	for _, a := range d.Arrays {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Compare builds the kernel of scop from the original file f and from the
// optimized file text optSrc, runs both on the same pseudo-random inputs,
// compares every array the kernel can modify, and times both. A nil scop
// means the scops of the function named by opt.Kernel (or of f's first
// scop). The error is non-nil when the comparison could not be made
// (compile error, crash, timeout); a mismatch is reported in the Result.
func Compare(ctx context.Context, f *frontend.File, scop *frontend.Scop, optSrc []byte, opt Options) (res *Result, err error) {
	opt = opt.withDefaults()
	h, err := newHarness(f, scop, opt)
	if err != nil {
		return nil, err
	}
	dir, temp, err := workDir(opt)
	if err != nil {
		return nil, err
	}
	defer func() {
		switch {
		case !temp:
		case err != nil:
			err = fmt.Errorf("%w\n(harness kept in %s)", err, dir)
		case !res.Match:
			res.Dir = dir // kept for a look at the mismatch
		default:
			os.RemoveAll(dir)
		}
	}()
	res = &Result{Kernel: h.kernel.Name, Warnings: h.warnings}
	if !temp {
		res.Dir = dir
	}

	optPath := filepath.Join(dir, "src", filepath.Base(f.Path))
	if err := os.MkdirAll(filepath.Dir(optPath), 0o755); err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	if err := os.WriteFile(optPath, optSrc, 0o644); err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	origPath, err := filepath.Abs(f.Path)
	if err != nil {
		return nil, fmt.Errorf("check: %v", err)
	}
	if len(h.endLocals) > 0 {
		// Both variants write main's variables at the end of its last
		// region (capture.go).
		scops, err := kernelScops(f, scop, opt.Kernel)
		if err != nil {
			return nil, err
		}
		last := slices.IndexFunc(f.Scops, func(s *frontend.Scop) bool { return s == scops[len(scops)-1] })
		for _, s := range scops {
			last = max(last, slices.Index(f.Scops, s))
		}
		h.endSrc, h.endRegion = f.Src, last
		if origPath, err = h.instrumentEnd(dir, "end-orig", origPath, f.Src, last); err != nil {
			return nil, err
		}
		if optPath, err = h.instrumentEnd(dir, "end-opt", optPath, optSrc, last); err != nil {
			return nil, err
		}
	}
	var exes [2]string
	var errs [2]error
	var wg sync.WaitGroup
	for k, v := range []struct{ name, src string }{{"orig", origPath}, {"opt", optPath}} {
		wg.Go(func() {
			exes[k], errs[k] = h.build(ctx, dir, v.name, v.src, opt)
		})
	}
	wg.Wait()
	if errs[0] != nil {
		return nil, errs[0] // the optimized one most likely fails alike
	}
	if errs[1] != nil {
		return nil, errs[1]
	}

	// The first run of each, at the most threads, writes the outputs and
	// counts as a timed run.
	last := len(opt.Threads) - 1
	times := make([][2][]time.Duration, len(opt.Threads))
	var data [2]*Data
	for k, exe := range exes {
		out := strings.TrimSuffix(exe, ".exe") + ".out"
		d, t, err := h.runEnv(ctx, exe, "out", out, ompEnv(opt.Threads[last]))
		if err != nil {
			return nil, err
		}
		data[k] = d
		times[last][k] = append(times[last][k], t)
	}
	res.Arrays, res.Match, err = compareData(h, data[0], data[1], opt)
	if err != nil {
		return nil, err
	}
	if !res.Match {
		h.explainByReference(ctx, dir, data[0], data[1], res, opt)
	}
	for i, threads := range opt.Threads {
		// Alternate the variants so that drift of the machine hits both alike.
		ts := &times[i]
		for len(ts[0]) < opt.Runs && sum(ts[0]) < opt.Budget && sum(ts[1]) < opt.Budget {
			for k, exe := range exes {
				_, t, err := h.runEnv(ctx, exe, "time", "", ompEnv(threads))
				if err != nil {
					return nil, err
				}
				ts[k] = append(ts[k], t)
			}
		}
		tm := Timing{Threads: threads, Runs: len(ts[0]), Orig: median(ts[0]), Opt: median(ts[1])}
		if tm.Opt > 0 {
			tm.Speedup = float64(tm.Orig) / float64(tm.Opt)
		}
		res.Timings = append(res.Timings, tm)
	}
	t := res.Timings[last]
	res.Orig, res.Opt, res.Speedup, res.Runs = t.Orig, t.Opt, t.Speedup, t.Runs
	return res, nil
}

// ompEnv is the environment of a timed run at threads OpenMP threads:
// nestor's own with OMP_NUM_THREADS set and, unless the user chose a wait
// policy (OMP_WAIT_POLICY or GOMP_SPINCOUNT), OMP_WAIT_POLICY=passive:
// threads that wait at a barrier sleep instead of spinning, which costs a
// little on an idle machine and keeps a loaded one from losing whole time
// slices to spinning threads (libgomp spins about 300,000 times first).
func ompEnv(threads int) []string {
	var env []string
	policy := false
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "OMP_NUM_THREADS":
			continue
		case "OMP_WAIT_POLICY", "GOMP_SPINCOUNT":
			policy = true
		}
		env = append(env, kv)
	}
	env = append(env, fmt.Sprintf("OMP_NUM_THREADS=%d", threads))
	if !policy {
		env = append(env, "OMP_WAIT_POLICY=passive")
	}
	return env
}

// Execute builds the original file's harness and runs it twice: once
// writing the inputs (after fill and init_array), once writing the arrays
// after the kernel ran. A test can feed in to the reference interpreter
// and compare its result with out. In also holds the function locals of
// the region's program (Storage ir.FuncLocal) as they are when the region
// starts: the harness is built from a copy of the file instrumented to
// write them (see capture.go); Compare never instruments.
func Execute(ctx context.Context, f *frontend.File, scop *frontend.Scop, opt Options) (in, out *Data, err error) {
	opt = opt.withDefaults()
	h, err := newHarness(f, scop, opt)
	if err != nil {
		return nil, nil, err
	}
	dir, temp, err := workDir(opt)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		switch {
		case !temp:
		case err != nil:
			err = fmt.Errorf("%w\n(harness kept in %s)", err, dir)
		default:
			os.RemoveAll(dir)
		}
	}()
	scops, err := kernelScops(f, scop, opt.Kernel)
	if err != nil {
		return nil, nil, err
	}
	h.endLocals = nil // Execute captures at the start of the region only
	h.planCapture(scops[0])
	src := h.origPath
	if len(h.locals) > 0 {
		if src, err = h.instrument(dir, f, scops[0]); err != nil {
			return nil, nil, err
		}
	}
	exe, err := h.build(ctx, dir, "orig", src, opt)
	if err != nil {
		return nil, nil, err
	}
	if in, _, err = h.run(ctx, exe, "in", filepath.Join(dir, "orig.in")); err != nil {
		return nil, nil, err
	}
	if out, _, err = h.run(ctx, exe, "out", filepath.Join(dir, "orig.out")); err != nil {
		return nil, nil, err
	}
	if err := h.bindTypes(in); err != nil {
		return nil, nil, err
	}
	if err := h.bindTypes(out); err != nil {
		return nil, nil, err
	}
	return in, out, nil
}

func (o Options) withDefaults() Options {
	if o.CC == "" {
		o.CC = os.Getenv("CC")
	}
	if o.CC == "" {
		o.CC = "cc"
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Runs <= 0 {
		o.Runs = DefaultRuns
	}
	if o.Budget <= 0 {
		o.Budget = DefaultBudget
	}
	if len(o.Threads) == 0 {
		o.Threads = []int{1}
		if n := runtime.NumCPU(); n > 1 {
			o.Threads = append(o.Threads, n)
		}
	}
	return o
}

// workDir returns the folder to build in: opt.KeepDir, or a new temporary
// folder (temp set) that the caller removes unless something failed.
func workDir(opt Options) (dir string, temp bool, err error) {
	if opt.KeepDir != "" {
		if err := os.MkdirAll(opt.KeepDir, 0o755); err != nil {
			return "", false, fmt.Errorf("check: %v", err)
		}
		return opt.KeepDir, false, nil
	}
	dir, err = os.MkdirTemp("", "nestor-check-")
	if err != nil {
		return "", false, fmt.Errorf("check: %v", err)
	}
	return dir, true, nil
}

// build writes the harness of variant name, which includes src, and
// compiles it; it returns the executable's path.
func (h *harness) build(ctx context.Context, dir, name, src string, opt Options) (string, error) {
	text, err := h.source(src)
	if err != nil {
		return "", err
	}
	cfile := filepath.Join(dir, "harness_"+name+".c")
	if err := os.WriteFile(cfile, []byte(text), 0o644); err != nil {
		return "", fmt.Errorf("check: %v", err)
	}
	return h.compile(ctx, dir, name, cfile, opt)
}

// compile compiles the harness cfile into dir/name.exe.
func (h *harness) compile(ctx context.Context, dir, name, cfile string, opt Options) (string, error) {
	exe := filepath.Join(dir, name+".exe")
	cc := strings.Fields(opt.CC)
	if len(cc) == 0 {
		return "", fmt.Errorf("check: empty compiler command")
	}
	args := slices.Clone(cc[1:])
	args = append(args, DefaultCFlags...)
	args = append(args, opt.CFlags...)
	args = append(args, "-I", filepath.Dir(h.origPath))
	for _, p := range opt.IncludePaths {
		args = append(args, "-I", p)
	}
	for _, d := range opt.Defines {
		args = append(args, "-D", d)
	}
	args = append(args, "-o", exe, cfile, "-lm")
	cmd := exec.CommandContext(ctx, cc[0], args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("check: compiling %s: %v", cfile, ctx.Err())
		}
		return "", fmt.Errorf("check: compiling %s: %v\n%s", cfile, err, strings.TrimSpace(stderr.String()))
	}
	return exe, nil
}

func sum(ts []time.Duration) time.Duration {
	var s time.Duration
	for _, t := range ts {
		s += t
	}
	return s
}

func median(ts []time.Duration) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
