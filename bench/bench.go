package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"nestor/check"
	"nestor/frontend"
	"nestor/pipeline"
)

// Names of the versions a benchmark can run.
const (
	GCC      = "gcc"          // the original, gcc -O3 -march=native: the baseline
	Restrict = "gcc-restrict" // the same with -DPOLYBENCH_USE_RESTRICT: array parameters restrict-qualified (PolyBench's option)
	Nestor   = "nestor"       // nestor's output, compiled as the baseline
	Polly    = "polly"        // the original, clang-16 -O3 -march=native -mllvm -polly
	PollyPar = "polly-par"    // the same with -mllvm -polly-parallel
	OpenBLAS = "openblas"     // cblas_dgemm, on gemm only
)

// AllPeers are the versions Run knows, in the order of the report.
var AllPeers = []string{GCC, Restrict, Nestor, Polly, PollyPar, OpenBLAS}

// Sizes are PolyBench's dataset presets; Config.Size picks one by
// defining NAME_DATASET.
var Sizes = []string{"MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE"}

// Defaults of the Config fields left zero.
const (
	DefaultRuns    = 5
	DefaultTimeout = 5 * time.Minute
	DefaultClang   = "clang-16"
	DefaultCC      = "gcc"
	// minRounds is the number of rounds Budget cannot cut (fewer when
	// Runs asks for fewer): a median needs three values.
	minRounds = 3
)

// Config says what Run measures.
type Config struct {
	// Kernels are the paths of the kernel files, one row each.
	Kernels []string
	// Size is the dataset preset (one of Sizes; "" means LARGE); the
	// files see -D SIZE_DATASET. Defines and IncludePaths are added.
	Size         string
	Defines      []string
	IncludePaths []string
	// Peers are the versions to run (names from AllPeers); the baseline,
	// GCC, is always run. Empty means all.
	Peers []string
	// Threads are the thread counts of the parallel versions; empty means
	// 1 and the number of CPUs.
	Threads []int
	// Runs is the number of rounds (one run of every version each); 0
	// means DefaultRuns.
	Runs int
	// Budget, when positive, stops starting rounds of a kernel once its
	// runs took that long in all, after at least three rounds.
	Budget time.Duration
	// Timeout bounds one run of one version, and nestor's optimization of
	// one kernel; 0 means DefaultTimeout.
	Timeout time.Duration
	// CC compiles the baseline, nestor's output and the OpenBLAS driver
	// ("" means DefaultCC); Clang is the compiler with Polly ("" means
	// DefaultClang).
	CC, Clang string
	// Options are nestor's (pipeline.DefaultOptions, or what the flags of
	// nestor opt select). Notes are collected per kernel; Options.Notes is
	// ignored.
	Options pipeline.Options
	// Seed of the input generator (0: check's default).
	Seed uint64
	// KeepDir, when set, keeps each kernel's sources, executables and
	// outputs in KeepDir/KERNEL; otherwise they go to a temporary folder
	// removed after the kernel.
	KeepDir string
	// Progress, when set, receives one line per kernel as it finishes.
	Progress io.Writer
}

// Result is one version of one kernel at one thread count.
type Result struct {
	Peer    string
	Threads int
	Time    time.Duration // median of the runs; 0 when Err is set
	Runs    int           // timed runs
	// Err says why the version has no time (build failure, crash, "timeout").
	Err string
	// Match reports whether its outputs agreed with the baseline's; Diff
	// describes the worst array when they did not.
	Match bool
	Diff  string
}

// OK reports whether r ran and agreed with the baseline.
func (r *Result) OK() bool { return r != nil && r.Err == "" && r.Match }

// Kernel is one row of the report.
type Kernel struct {
	Name string // the file's base name without .c
	// Err says why the kernel has no results at all (parse error, the
	// baseline failed); the other fields are then empty.
	Err string
	// Results holds the baseline first, then the other versions in the
	// order of AllPeers, each at its thread counts in increasing order.
	Results []*Result
	// Params are the kernel's sizes, as the baseline harness reports them.
	Params map[string]int64
	// Flops is the kernel's floating-point operation count where it is
	// known (gemm and the corpus's other matrix products), else 0.
	Flops float64
	// Notes are nestor's remarks on the kernel ("kept the original order:
	// ...") and harness warnings.
	Notes   []string
	Elapsed time.Duration // wall time spent on the kernel
}

// Result returns the result of version peer at threads, or nil.
func (k *Kernel) Result(peer string, threads int) *Result {
	for _, r := range k.Results {
		if r.Peer == peer && r.Threads == threads {
			return r
		}
	}
	return nil
}

// Baseline is the gcc result, or nil when the kernel failed.
func (k *Kernel) Baseline() *Result { return k.Result(GCC, 1) }

// Speedup returns the baseline's time over the time of peer at threads,
// and whether that version ran and agreed with the baseline.
func (k *Kernel) Speedup(peer string, threads int) (float64, bool) {
	b, r := k.Baseline(), k.Result(peer, threads)
	if b == nil || r == nil || r.Err != "" || r.Time <= 0 || b.Time <= 0 {
		return 0, false
	}
	return float64(b.Time) / float64(r.Time), r.Match
}

// Report is the outcome of Run.
type Report struct {
	Size    string
	Runs    int
	Budget  time.Duration // Config.Budget
	Threads []int
	Peers   []string // the versions that ran, GCC first
	Kernels []*Kernel
	// Notes are remarks on the whole run: peers skipped and why.
	Notes   []string
	Machine Machine
	// Command is how the report was produced (set by the caller).
	Command string
	Started time.Time
	Elapsed time.Duration
}

// Run measures every kernel of cfg. It returns an error only for a bad
// configuration or when ctx is cancelled; then the report holds the kernels
// finished so far.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep := &Report{Size: cfg.Size, Runs: cfg.Runs, Budget: cfg.Budget, Threads: cfg.Threads, Started: start}
	b := &bencher{cfg: cfg, env: os.Environ()}
	rep.Peers, rep.Notes = b.probe(ctx)
	b.peers = rep.Peers
	if b.blasDir != "" {
		defer os.RemoveAll(b.blasDir)
	}
	rep.Machine = describeMachine(ctx, cfg, rep.Peers, b.blasConfig)
	defer func() { rep.Elapsed = time.Since(start) }()
	for i, path := range cfg.Kernels {
		k := b.kernel(ctx, path)
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.Kernels = append(rep.Kernels, k)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "bench: [%*d/%d] %s\n", len(fmt.Sprint(len(cfg.Kernels))), i+1, len(cfg.Kernels), progressLine(k))
			for _, n := range k.Notes {
				fmt.Fprintf(cfg.Progress, "bench:     %s\n", n)
			}
		}
	}
	return rep, nil
}

func (cfg Config) withDefaults() (Config, error) {
	if len(cfg.Kernels) == 0 {
		return cfg, errors.New("bench: no kernels")
	}
	if cfg.Size == "" {
		cfg.Size = "LARGE"
	}
	if !slices.Contains(Sizes, cfg.Size) {
		return cfg, fmt.Errorf("bench: size %q: want one of %s", cfg.Size, strings.Join(Sizes, ", "))
	}
	if len(cfg.Peers) == 0 {
		cfg.Peers = AllPeers
	}
	for _, p := range cfg.Peers {
		if !slices.Contains(AllPeers, p) {
			return cfg, fmt.Errorf("bench: unknown peer %q: want some of %s", p, strings.Join(AllPeers, ","))
		}
	}
	if len(cfg.Threads) == 0 {
		cfg.Threads = []int{1, runtime.NumCPU()}
	}
	for _, t := range cfg.Threads {
		if t < 1 {
			return cfg, fmt.Errorf("bench: thread count %d: want at least 1", t)
		}
	}
	cfg.Threads = slices.Compact(slices.Sorted(slices.Values(cfg.Threads)))
	if cfg.Runs <= 0 {
		cfg.Runs = DefaultRuns
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.CC == "" {
		cfg.CC = DefaultCC
	}
	if cfg.Clang == "" {
		cfg.Clang = DefaultClang
	}
	cfg.Options.Notes = nil
	return cfg, nil
}

// bencher holds what Run shares between kernels.
type bencher struct {
	cfg   Config
	env   []string // the environment the versions start from
	peers []string // available, GCC first
	// blasDriver is the OpenBLAS driver, built once by probe in blasDir;
	// blasConfig is what the library says of itself.
	blasDriver, blasConfig, blasDir string
}

// probe returns the peers of cfg that can run here, GCC first, and a note
// for each one that cannot.
func (b *bencher) probe(ctx context.Context) (peers, notes []string) {
	want := func(p string) bool { return slices.Contains(b.cfg.Peers, p) }
	peers = []string{GCC}
	clangOK := false
	if want(Polly) || want(PollyPar) {
		if err := b.probeClang(ctx); err != nil {
			notes = append(notes, fmt.Sprintf("Polly columns skipped: %v (scripts/install-peers installs clang-16 and libomp-16-dev)", err))
		} else {
			clangOK = true
		}
	}
	if want(OpenBLAS) {
		if err := b.buildBLAS(ctx); err != nil {
			notes = append(notes, fmt.Sprintf("OpenBLAS skipped: %v (scripts/install-peers installs libopenblas-dev)", err))
		} else {
			peers = append(peers, OpenBLAS)
		}
	}
	for _, p := range AllPeers {
		switch {
		case p == GCC || p == OpenBLAS || !want(p):
		case (p == Polly || p == PollyPar) && !clangOK:
		default:
			peers = append(peers, p)
		}
	}
	slices.SortStableFunc(peers, func(x, y string) int { return slices.Index(AllPeers, x) - slices.Index(AllPeers, y) })
	return peers, notes
}

// probeClang compiles and runs an OpenMP program with Polly's flags.
func (b *bencher) probeClang(ctx context.Context) error {
	if _, err := exec.LookPath(b.cfg.Clang); err != nil {
		return fmt.Errorf("no %s", b.cfg.Clang)
	}
	dir, err := os.MkdirTemp("", "nestor-bench-probe-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "probe.c")
	prog := "#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 0 : 1; }\n"
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		return err
	}
	exe := filepath.Join(dir, "probe")
	args := append(slices.Clone(check.DefaultCFlags), pollyFlags(PollyPar)...)
	args = append(args, "-o", exe, src)
	if out, err := exec.CommandContext(ctx, b.cfg.Clang, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v: %s", b.cfg.Clang, strings.Join(args, " "), err, firstLine(string(out)))
	}
	if out, err := exec.CommandContext(ctx, exe).CombinedOutput(); err != nil {
		return fmt.Errorf("an OpenMP program built by %s does not run: %v: %s", b.cfg.Clang, err, firstLine(string(out)))
	}
	return nil
}

// pollyFlags are the flags peer adds to check.DefaultCFlags.
func pollyFlags(peer string) []string {
	if peer == PollyPar {
		return []string{"-mllvm", "-polly", "-mllvm", "-polly-parallel"}
	}
	return []string{"-mllvm", "-polly"}
}

// parallel reports whether peer runs at every thread count.
func parallel(peer string) bool {
	return peer == Nestor || peer == PollyPar || peer == OpenBLAS
}

// runner is one executable version of a kernel.
type runner interface {
	// output runs the kernel once, writing its outputs to file.
	output(ctx context.Context, file string, env []string) (*check.Data, time.Duration, error)
	time(ctx context.Context, env []string) (time.Duration, error)
}

type harnessRunner struct{ exe *check.Exe }

func (h harnessRunner) output(ctx context.Context, file string, env []string) (*check.Data, time.Duration, error) {
	return h.exe.Output(ctx, file, env)
}

func (h harnessRunner) time(ctx context.Context, env []string) (time.Duration, error) {
	return h.exe.Time(ctx, env)
}

// variant is one version at one thread count, while it is measured.
type variant struct {
	res    *Result
	run    runner
	env    []string
	times  []time.Duration
	failed bool
}

// kernel measures one kernel file.
func (b *bencher) kernel(ctx context.Context, path string) *Kernel {
	start := time.Now()
	k := &Kernel{Name: strings.TrimSuffix(filepath.Base(path), ".c")}
	defer func() { k.Elapsed = time.Since(start) }()
	defines := append([]string{b.cfg.Size + "_DATASET"}, b.cfg.Defines...)
	f, err := frontend.ParseFile(path, frontend.Config{IncludePaths: b.cfg.IncludePaths, Defines: defines})
	if err != nil {
		k.Err = "parse: " + firstLine(err.Error())
		return k
	}
	if len(f.Scops) == 0 {
		k.Err = "no #pragma scop region"
		return k
	}
	h, err := check.NewHarness(f, nil, check.Options{
		CC: b.cfg.CC, IncludePaths: b.cfg.IncludePaths, Defines: defines, Seed: b.cfg.Seed,
	})
	if err != nil {
		k.Err = firstLine(err.Error())
		return k
	}
	k.Notes = append(k.Notes, h.Warnings()...)
	dir, err := b.workDir(k.Name)
	if err != nil {
		k.Err = err.Error()
		return k
	}
	if b.cfg.KeepDir == "" {
		defer os.RemoveAll(dir)
	}

	vs, err := b.build(ctx, k, f, h, dir)
	if err != nil {
		k.Err = err.Error()
		return k
	}
	for _, v := range vs {
		k.Results = append(k.Results, v.res)
	}
	if vs[0].failed {
		k.Err = "gcc: " + vs[0].res.Err
		k.Results = nil
		return k
	}
	b.measure(ctx, k, h, dir, vs)
	if k.Err != "" {
		k.Results = nil
	}
	return k
}

// workDir returns the folder of kernel name's files.
func (b *bencher) workDir(name string) (string, error) {
	if b.cfg.KeepDir != "" {
		dir := filepath.Join(b.cfg.KeepDir, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", fmt.Errorf("bench: %v", err)
		}
		return dir, nil
	}
	dir, err := os.MkdirTemp("", "nestor-bench-"+name+"-")
	if err != nil {
		return "", fmt.Errorf("bench: %v", err)
	}
	return dir, nil
}

// build optimizes the kernel with nestor and builds every version, in
// parallel; it returns the variants, the baseline first. A version that
// cannot be built is a failed variant.
func (b *bencher) build(ctx context.Context, k *Kernel, f *frontend.File, h *check.Harness, dir string) ([]*variant, error) {
	var optPath string
	var optErr error
	if slices.Contains(b.peers, Nestor) {
		var src []byte
		var notes string
		src, notes, optErr = b.optimize(f)
		for _, n := range strings.Split(strings.TrimSpace(notes), "\n") {
			if n != "" {
				k.Notes = append(k.Notes, "nestor: "+n)
			}
		}
		if optErr == nil {
			optPath = filepath.Join(dir, "nestor", filepath.Base(f.Path))
			if err := os.MkdirAll(filepath.Dir(optPath), 0o755); err != nil {
				return nil, fmt.Errorf("bench: %v", err)
			}
			if err := os.WriteFile(optPath, src, 0o644); err != nil {
				return nil, fmt.Errorf("bench: %v", err)
			}
		}
	}

	// built[i] is peer i's runner, or why it has none; nil when the peer
	// does not apply to the kernel.
	type built struct {
		run runner
		err error
	}
	exes := make([]*built, len(b.peers))
	var wg sync.WaitGroup
	for i, p := range b.peers {
		var cc, src string
		var flags []string
		switch p {
		case GCC:
			cc, src = b.cfg.CC, f.Path
		case Restrict:
			// PolyBench's headers qualify array parameters restrict under
			// this macro; gcc then reorders and vectorizes loops it must
			// otherwise keep as written. A file without the macro builds
			// as the baseline.
			cc, src, flags = b.cfg.CC, f.Path, []string{"-DPOLYBENCH_USE_RESTRICT"}
		case Nestor:
			if optErr != nil {
				exes[i] = &built{err: fmt.Errorf("optimize: %s", firstLine(optErr.Error()))}
				continue
			}
			cc, src = b.cfg.CC, optPath
		case Polly, PollyPar:
			cc, src, flags = b.cfg.Clang, f.Path, pollyFlags(p)
		case OpenBLAS:
			if isGemm(h) {
				exes[i] = &built{run: &blasRunner{driver: b.blasDriver}}
			}
			continue
		}
		wg.Go(func() {
			exe, err := h.Build(ctx, dir, p, src, cc, flags)
			if err != nil {
				exes[i] = &built{err: fmt.Errorf("build: %s", firstLine(strings.TrimPrefix(err.Error(), "check: ")))}
				return
			}
			exes[i] = &built{run: harnessRunner{exe}}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var vs []*variant
	for i, p := range b.peers {
		e := exes[i]
		if e == nil {
			continue
		}
		threads := []int{1}
		if parallel(p) {
			threads = b.cfg.Threads
		}
		for _, t := range threads {
			v := &variant{res: &Result{Peer: p, Threads: t}, run: e.run, env: b.environ(p, t)}
			if e.err != nil {
				v.res.Err, v.failed = e.err.Error(), true
			}
			vs = append(vs, v)
		}
	}
	return vs, nil
}

// optimize runs nestor's pipeline on f with a time limit, and turns a
// panic of the optimizer into an error.
func (b *bencher) optimize(f *frontend.File) (src []byte, notes string, err error) {
	type result struct {
		src   []byte
		notes string
		err   error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("nestor panicked: %v", p)
			}
			done <- r
		}()
		var buf bytes.Buffer
		opts := b.cfg.Options
		opts.Notes = &buf
		r.src, r.err = pipeline.Optimize(f, opts)
		r.notes = buf.String()
	}()
	select {
	case r := <-done:
		return r.src, r.notes, r.err
	case <-time.After(b.cfg.Timeout):
		return nil, "", fmt.Errorf("took longer than %v", b.cfg.Timeout)
	}
}

// environ is the environment of peer at threads: OMP_NUM_THREADS set, and
// for OpenBLAS its thread count set and the settings that pick its kernels
// removed, so that it chooses them for this CPU.
func (b *bencher) environ(peer string, threads int) []string {
	set := map[string]string{"OMP_NUM_THREADS": fmt.Sprint(threads)}
	var unset []string
	if peer == OpenBLAS {
		set["OPENBLAS_NUM_THREADS"] = fmt.Sprint(threads)
		unset = blasUnset
	}
	return environ(b.env, set, unset)
}

// blasUnset are the variables that override OpenBLAS's choice of kernels
// for the CPU (some machines set them for other programs' sake).
var blasUnset = []string{"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_VERBOSE"}

// environ returns base with the variables of set given their values and
// those of unset removed.
func environ(base []string, set map[string]string, unset []string) []string {
	var out []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; ok || slices.Contains(unset, name) {
			continue
		}
		out = append(out, kv)
	}
	for _, name := range slices.Sorted(maps.Keys(set)) {
		out = append(out, name+"="+set[name])
	}
	return out
}

// measure runs the rounds: the first writes and compares the outputs,
// the others only time. It fills the variants' results, or k.Err when the
// baseline fails.
func (b *bencher) measure(ctx context.Context, k *Kernel, h *check.Harness, dir string, vs []*variant) {
	base := vs[0]
	var baseOut *check.Data

	// Round 0, baseline first: every other output is compared with it.
	for _, v := range vs {
		if v.failed {
			continue
		}
		if v.res.Peer == OpenBLAS {
			if err := b.blasInputs(ctx, v, h, base, dir); err != nil {
				v.fail(err)
				continue
			}
		}
		file := filepath.Join(dir, fmt.Sprintf("%s-%d.out", v.res.Peer, v.res.Threads))
		d, t, err := b.once(ctx, func(ctx context.Context) (*check.Data, time.Duration, error) {
			return v.run.output(ctx, file, v.env)
		})
		if b.cfg.KeepDir == "" {
			os.Remove(file)
		}
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			v.fail(err)
			if v == base {
				k.Err = "gcc: " + v.res.Err
				return
			}
			continue
		}
		v.times = append(v.times, t)
		if v == base {
			baseOut, v.res.Match = d, true
			k.Params = d.Params
			k.Flops = flops(k.Name, d.Params)
			continue
		}
		v.res.Match, v.res.Diff, err = b.compare(h, baseOut, d, v.res.Peer == OpenBLAS)
		if err != nil {
			v.fail(err)
		}
	}

	var spent time.Duration
	for _, v := range vs {
		spent += sum(v.times)
	}
	for round := 1; round < b.cfg.Runs; round++ {
		if round >= minRounds && b.cfg.Budget > 0 && spent >= b.cfg.Budget {
			break
		}
		for i := range vs {
			v := vs[(i+round)%len(vs)] // rotate who goes first
			if v.failed {
				continue
			}
			_, t, err := b.once(ctx, func(ctx context.Context) (*check.Data, time.Duration, error) {
				t, err := v.run.time(ctx, v.env)
				return nil, t, err
			})
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				v.fail(err)
				continue
			}
			v.times = append(v.times, t)
			spent += t
		}
		if base.failed {
			k.Err = "gcc: " + base.res.Err
			return
		}
	}
	for _, v := range vs {
		if !v.failed {
			v.res.Time, v.res.Runs = median(v.times), len(v.times)
		}
	}
}

// once runs f under the per-run timeout; a timeout is reported as such.
func (b *bencher) once(ctx context.Context, f func(context.Context) (*check.Data, time.Duration, error)) (*check.Data, time.Duration, error) {
	rctx, cancel := context.WithTimeout(ctx, b.cfg.Timeout)
	defer cancel()
	d, t, err := f(rctx)
	if err != nil && ctx.Err() == nil && rctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("timeout (%v)", b.cfg.Timeout)
	}
	return d, t, err
}

// fail marks v as failed with err, which keeps it out of later rounds.
func (v *variant) fail(err error) {
	v.failed = true
	v.res.Err = firstLine(strings.TrimPrefix(err.Error(), "check: "))
	v.res.Match = false
}

// compare compares the outputs d of a version with the baseline's; a
// partial output (OpenBLAS writes only C) is compared array by array.
func (b *bencher) compare(h *check.Harness, base, d *check.Data, partial bool) (match bool, diff string, err error) {
	var arrays []check.ArrayResult
	if partial {
		match = true
		for _, y := range d.Arrays {
			x := base.Array(y.Name)
			if x == nil {
				return false, "", fmt.Errorf("the baseline has no array %s", y.Name)
			}
			r, err := check.CompareArray(x, y, 0)
			if err != nil {
				return false, "", err
			}
			arrays = append(arrays, r)
			match = match && r.Mismatches == 0
		}
	} else if arrays, match, err = h.CompareOutputs(base, d); err != nil {
		return false, "", err
	}
	if match {
		return true, "", nil
	}
	return false, describeDiff(arrays), nil
}

// describeDiff names the array with the most mismatches and its worst
// element.
func describeDiff(arrays []check.ArrayResult) string {
	var worst *check.ArrayResult
	for i := range arrays {
		a := &arrays[i]
		if a.Mismatches > 0 && (worst == nil || a.Mismatches > worst.Mismatches) {
			worst = a
		}
	}
	if worst == nil {
		return ""
	}
	if worst.Exact {
		return fmt.Sprintf("%s: %d of %d differ", worst.Name, worst.Mismatches, worst.Count)
	}
	return fmt.Sprintf("%s: %d of %d differ, rel err %.2g", worst.Name, worst.Mismatches, worst.Count, worst.RelErr)
}

// flops returns the floating-point operation count of kernel name at the
// sizes params, where it is simple to state, else 0.
func flops(name string, params map[string]int64) float64 {
	f := func(name string) float64 { return float64(params[name]) }
	// Two per multiply-add of the products, as BLAS benchmarks count
	// (scalings such as beta·C, of lower order, are left out).
	switch name {
	case "gemm": // C = alpha·A·B + beta·C
		return 2 * f("ni") * f("nj") * f("nk")
	case "2mm": // tmp = alpha·A·B, D = tmp·C + beta·D
		return 2*f("ni")*f("nj")*f("nk") + 2*f("ni")*f("nl")*f("nj")
	case "3mm": // E = A·B, F = C·D, G = E·F
		return 2*f("ni")*f("nj")*f("nk") + 2*f("nj")*f("nl")*f("nm") + 2*f("ni")*f("nl")*f("nj")
	case "syrk": // the lower triangle of C, diagonal included: n(n+1)/2 elements, m steps
		return 2 * f("n") * (f("n") + 1) / 2 * f("m")
	case "syr2k": // the same triangle, two multiply-adds a step
		return 4 * f("n") * (f("n") + 1) / 2 * f("m")
	case "trmm": // B[i][j] += A[k][i]·B[k][j] for k > i: m(m−1)/2 pairs, n columns
		return 2 * f("m") * (f("m") - 1) / 2 * f("n")
	case "symm": // two multiply-adds per (i, j, k < i)
		return 4 * f("m") * (f("m") - 1) / 2 * f("n")
	}
	return 0
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
	s := slices.Sorted(slices.Values(ts))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
