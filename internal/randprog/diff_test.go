package randprog

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"nestor/check"
	"nestor/codegen"
	"nestor/frontend"
	"nestor/interp"
	"nestor/ir"
	"nestor/pipeline"
)

// knownSeeds are seeds that made the optimizer fail once; TestDiff always
// runs them, whatever -randprog.n and -randprog.first say.
var knownSeeds = []int64{
	// Code generation dropped the braces of a loop over three guarded
	// statements: the optimized file did not compile (fixed since).
	12,
	// sched.orthogonalComplement panicked (index out of range) on a loop
	// that runs once and counts down, "for (j = i; j >= i; j--)", around
	// a loop-carried dependence (fixed since: rows are recorded only when
	// they raise a statement's rank). Smallest form:
	//	for (int i = 0; i < 4; i++)
	//	  for (int j = i; j >= i; j--)
	//	    for (int k = 1; k <= 3; k++)
	//	      x[k] = x[k - 1];
	557, 574, 606, 613,
}

// slowSeeds are programs that took tens of seconds in code generation's
// implication checks on tiled nests (seed 240 33 s with the default
// options; 59, 343, 401 and 709 as long with 4x3x2 tiles) before
// simplification got a work budget (codegen maxSolverWork): they now
// finish in under 3 s. Run them with -randprog.seeds 240,59,343,401,709.
var slowSeeds = []int64{240, 59, 343, 401, 709}

// optionSets are the pipeline configurations every program is optimized
// with; Check is added to each. Identical outputs are checked once.
var optionSets = []optionSet{
	{"default", defaultOptions},
	{"notile", func() pipeline.Options {
		o := defaultOptions()
		o.Tile = false
		return o
	}},
	{"noparallel", func() pipeline.Options {
		o := defaultOptions()
		o.Parallel = false
		return o
	}},
	// The sizes of the programs (n, m ≤ 12) fit in one default tile: small
	// tiles make partial tiles and tile boundaries inside the domains, and
	// a 3 × 2 register tile leaves rest iterations in most of them.
	{"tiles432", func() pipeline.Options {
		o := defaultOptions()
		o.TileSizes = []int{4, 3, 2}
		o.RegisterTile = [2]int64{3, 2}
		return o
	}},
}

// defaultOptions are nestor's defaults, except that small arrays do not
// keep a region in its original order: the programs are small, and their
// schedules are what the test is for.
func defaultOptions() pipeline.Options {
	o := pipeline.DefaultOptions()
	o.KeepCached = false
	return o
}

type optionSet struct {
	name string
	opts func() pipeline.Options
}

// checkCFlags keep the compiler from contracting a*b+c into a fused
// multiply-add in one variant and not in the other, so both variants round
// every operation alike and the results must agree exactly.
var checkCFlags = []string{"-ffp-contract=off"}

var (
	// optimizeLimit bounds one optimization of one small program; the
	// optimizer runs in a child process so that a search that does not
	// end can be stopped.
	optimizeLimit = flag.Duration("randprog.limit", 20*time.Second, "time limit of one optimization in TestDiff")
	seedList      = flag.String("randprog.seeds", "", "comma-separated seeds TestDiff runs instead of the others (to reproduce failures)")
)

// helperEnv, when set in the environment of this test binary, makes it
// optimize a file instead of running tests: its value is the option set's
// name and the file's path, separated by a space. The optimized file goes
// to standard output, the pipeline's notes to standard error, and an error
// makes the exit status 1.
const helperEnv = "NESTOR_RANDPROG_OPTIMIZE"

func TestMain(m *testing.M) {
	if v := os.Getenv(helperEnv); v != "" {
		os.Exit(optimizeHelper(v))
	}
	os.Exit(m.Run())
}

func optimizeHelper(v string) int {
	name, path, _ := strings.Cut(v, " ")
	k := slices.IndexFunc(optionSets, func(s optionSet) bool { return s.name == name })
	if k < 0 {
		fmt.Fprintf(os.Stderr, "no option set %q\n", name)
		return 2
	}
	f, err := frontend.ParseFile(path, frontend.Config{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	opts := optionSets[k].opts()
	opts.Check = true
	opts.Notes = os.Stderr
	out, err := pipeline.Optimize(f, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	os.Stdout.Write(out)
	return 0
}

// errTimeout reports an optimization past optimizeLimit.
var errTimeout = errors.New("randprog: the optimizer did not finish in time")

// optimize runs pipeline.Optimize with option set name on the file at
// path in a child process, within optimizeLimit, and returns the optimized
// file and the notes (with the error message, if any).
func optimize(ctx context.Context, name, path string) (out []byte, notes string, err error) {
	ctx, cancel := context.WithTimeout(ctx, *optimizeLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+name+" "+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, stderr.String(), fmt.Errorf("%w (%v)", errTimeout, *optimizeLimit)
	case err != nil:
		return nil, stderr.String(), fmt.Errorf("optimize: %v", err)
	}
	return stdout.Bytes(), stderr.String(), nil
}

// outcome counts the option sets of every seed by how they ended.
type outcome struct {
	mu                                      sync.Mutex
	ok, same, mismatch, failed, slow, noted int
	unparsed                                int // optimized files the interpreter skipped
	mismatchSeeds, failedSeeds, slowSeeds   []int64
	// temps counts the programs with scalar temporaries, expanded those
	// of them some option set expanded a temporary of (package expand's
	// note "expanded along loop").
	temps, expanded int
}

func (o *outcome) add(f func(o *outcome)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	f(o)
}

// TestDiff optimizes the programs of -randprog.n seeds from
// -randprog.first, and of knownSeeds, with every option set, and proves
// each result equal to the original: under the interpreter, bit for bit,
// where the optimized file parses again, and always compiled by
// check.Compare. Optimizing and checking must not fail nor take longer
// than -randprog.limit; a scheduler's fallback to the original order is a
// note, not a failure. The seeds run in parallel (go test's -parallel,
// GOMAXPROCS by default); the last line of -v output sums them up.
func TestDiff(t *testing.T) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(strings.Fields(cc)[0]); err != nil {
		t.Skip("no C compiler")
	}
	seeds, err := seedsToRun()
	if err != nil {
		t.Fatal(err)
	}
	var o outcome
	t.Cleanup(func() {
		slices.Sort(o.mismatchSeeds)
		slices.Sort(o.failedSeeds)
		slices.Sort(o.slowSeeds)
		t.Logf("%d seeds; option sets: %d checked equal, %d same output as another set, %d mismatched %v, "+
			"%d failed %v, %d past the time limit %v; %d with notes; %d not read back by the interpreter; "+
			"%d programs with scalar temporaries, %d of them expanded",
			len(seeds), o.ok, o.same, o.mismatch, o.mismatchSeeds, o.failed, o.failedSeeds, o.slow, o.slowSeeds, o.noted, o.unparsed,
			o.temps, o.expanded)
	})
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			diff(t, seed, &o)
		})
	}
}

// seedsToRun returns the seeds of -randprog.seeds, or else knownSeeds and
// -randprog.n seeds from -randprog.first (5 under -short).
func seedsToRun() ([]int64, error) {
	if *seedList != "" {
		var seeds []int64
		for _, f := range strings.Split(*seedList, ",") {
			s, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("-randprog.seeds: %v", err)
			}
			seeds = append(seeds, s)
		}
		return seeds, nil
	}
	seeds := slices.Clone(knownSeeds)
	n := *nSeeds
	if testing.Short() {
		n = min(n, 5)
	}
	for s := *firstSeed; s < *firstSeed+int64(n); s++ {
		if !slices.Contains(seeds, s) {
			seeds = append(seeds, s)
		}
	}
	return seeds, nil
}

// diff runs one seed through every option set.
func diff(t *testing.T, seed int64, o *outcome) {
	p := Generate(seed, testConfig())
	path := filepath.Join(t.TempDir(), fmt.Sprintf("seed%d.c", seed))
	if err := os.WriteFile(path, []byte(p.Src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := frontend.ParseFile(path, frontend.Config{})
	if err != nil {
		t.Fatalf("seed %d: the generated program does not parse: %v\n%s", seed, err, p.Src)
	}
	prog := f.Scops[0].Prog
	params, err := paramValues(prog, p.Params)
	if err != nil {
		t.Fatal(err)
	}
	want, err := execute(prog, params)
	if err != nil {
		t.Fatalf("seed %d: the original fails under the interpreter: %v\n%s", seed, err, p.Src)
	}
	done := map[string]string{} // optimized text -> the option set that made it
	var mismatched, failed, expanded bool
	if len(p.Temps) > 0 {
		t.Logf("temporaries: %s", strings.Join(p.Temps, ", "))
	}
	defer func() {
		o.add(func(o *outcome) {
			if len(p.Temps) > 0 {
				o.temps++
			}
			if expanded {
				o.expanded++
			}
			if mismatched {
				o.mismatchSeeds = append(o.mismatchSeeds, seed)
			}
			if failed {
				o.failedSeeds = append(o.failedSeeds, seed)
			}
		})
	}()
	for _, set := range optionSets {
		start := time.Now()
		out, notes, err := optimize(t.Context(), set.name, path)
		tOpt := time.Since(start)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Errorf("seed %d, options %s %+v: %s\n--- notes\n%s--- source\n%s", seed, set.name,
				set.opts(), fmt.Sprintf(format, args...), notes, p.Src)
		}
		expanded = expanded || strings.Contains(notes, "expanded along loop")
		if notes != "" && err == nil {
			o.add(func(o *outcome) { o.noted++ })
			t.Logf("options %s: %s", set.name, strings.TrimSpace(notes))
		}
		if errors.Is(err, errTimeout) {
			// The other option sets mostly run the same slow pass (the
			// scheduler, or tiling): skip them.
			fail("%v", err)
			o.add(func(o *outcome) { o.slow++; o.slowSeeds = append(o.slowSeeds, seed) })
			return
		}
		if err != nil {
			fail("%v", err)
			failed = true
			o.add(func(o *outcome) { o.failed++ })
			continue
		}
		if prev, ok := done[string(out)]; ok {
			t.Logf("options %s: same output as %s", set.name, prev)
			o.add(func(o *outcome) { o.same++ })
			continue
		}
		done[string(out)] = set.name
		bad := false
		msg, skipped := interpDiff(path, out, prog, want, params)
		if skipped != "" {
			t.Logf("options %s: the interpreter skips the optimized program: %s", set.name, skipped)
			o.add(func(o *outcome) { o.unparsed++ })
		}
		if msg != "" {
			fail("the interpreter tells the optimized program apart: %s\n--- optimized\n%s", msg, out)
			bad = true
		}
		tInterp := time.Since(start) - tOpt
		res, err := check.Compare(t.Context(), f, nil, out, check.Options{
			Params: p.Params, Runs: 1, CFlags: checkCFlags,
		})
		t.Logf("options %s: optimized in %v, interpreted in %v, checked in %v", set.name,
			tOpt.Round(time.Millisecond), tInterp.Round(time.Millisecond), (time.Since(start) - tOpt - tInterp).Round(time.Millisecond))
		switch {
		case err != nil:
			fail("check: %v\n--- optimized\n%s", err, out)
			failed = true
			o.add(func(o *outcome) { o.failed++ })
			continue
		case !res.Match:
			var rep bytes.Buffer
			res.Format(&rep)
			fail("check: mismatch\n%s--- optimized\n%s", rep.String(), out)
			bad = true
		}
		if bad {
			mismatched = true
			o.add(func(o *outcome) { o.mismatch++ })
		} else {
			o.add(func(o *outcome) { o.ok++ })
		}
	}
}

// interpDiff parses the optimized file out and runs it under the
// interpreter on the inputs of execute; it returns how the arrays differ
// from want ("" when they are equal bit for bit), or why it skipped out:
// when out does not parse as a region nestor accepts (generated code may
// use constructs the frontend does not read back), when its macros would
// take the preprocessor long to expand (see maxMacroDepth), or when the
// interpreter would take long to walk its loops (see quick);
// check.Compare still covers it. op is the original program, which want
// holds the result of at params.
// unboundedLoop reports whether err is the interpreter's refusal of a
// loop whose bounds it cannot find among the local-free constraints.
func unboundedLoop(err error) bool {
	var ie *interp.Error
	return errors.As(err, &ie) && strings.HasPrefix(ie.Msg, "loop ") &&
		(strings.HasSuffix(ie.Msg, "has no lower bound") || strings.HasSuffix(ie.Msg, "has no upper bound"))
}

func interpDiff(path string, out []byte, op *ir.Program, want *interp.Memory, params []int64) (msg, skipped string) {
	if d := codegen.MacroDepth(out); d > maxMacroDepth {
		return "", fmt.Sprintf("it nests nestor_ macros %d deep", d)
	}
	g, err := frontend.Parse(path, out, frontend.Config{})
	if err != nil {
		return "", "it does not parse: " + err.Error()
	}
	if len(g.Scops) != 1 {
		return "", fmt.Sprintf("it has %d regions", len(g.Scops))
	}
	prog := g.Scops[0].Prog
	if !quick(prog, params, op) {
		return "", fmt.Sprintf("its instances take more than %v to enumerate", interpBudget)
	}
	q, ok := optParams(prog, params, op)
	if !ok {
		return "the optimized program has new parameters: " + strings.Join(ir.ParamNames(prog), ", "), ""
	}
	got, err := execute(prog, q)
	if err != nil {
		if unboundedLoop(err) {
			// The frontend reads a min on the lower side of nestor's
			// output as pieces whose bounds go through placeholder
			// locals, which the interpreter's walk does not use: a
			// limit of the interpreter, not a result.
			return "", "the interpreter finds no local-free bound for a loop: " + err.Error()
		}
		return "the optimized program fails: " + err.Error(), ""
	}
	var diffs []string
	for a, arr := range op.Arrays {
		// A local only the region uses (a scalar temporary) is dead
		// after it: expansion leaves it unwritten.
		if arr.Storage == ir.ScopLocal || arr.Storage == ir.FuncLocal && arr.RegionOnly {
			continue
		}
		b := slices.IndexFunc(prog.Arrays, func(x *ir.Array) bool { return x.Name == arr.Name })
		if b < 0 {
			continue // not accessed any more: the run wrote nothing to it
		}
		x, y := want.Bytes(a), got.Bytes(b)
		if bytes.Equal(x, y) {
			continue
		}
		if len(x) != len(y) {
			diffs = append(diffs, fmt.Sprintf("%s: %d bytes, optimized %d", arr.Name, len(x), len(y)))
			continue
		}
		n, first := 0, -1
		for k := range want.Len(a) {
			if !sameElem(want, got, a, b, k, arr.Elem) {
				n++
				if first < 0 {
					first = k
				}
			}
		}
		diffs = append(diffs, fmt.Sprintf("%s: %d elements differ, first at flat index %d: %s, optimized %s",
			arr.Name, n, first, elemString(want, a, first, arr.Elem), elemString(got, b, first, arr.Elem)))
	}
	return strings.Join(diffs, "; "), ""
}

func sameElem(m1, m2 *interp.Memory, a, b, k int, t ir.Type) bool {
	if t.IsFloat() {
		x, y := m1.Float64(a, k), m2.Float64(b, k)
		return x == y || x != x && y != y
	}
	return m1.Int64(a, k) == m2.Int64(b, k)
}

func elemString(m *interp.Memory, a, k int, t ir.Type) string {
	if t.IsFloat() {
		return fmt.Sprintf("%.17g", m.Float64(a, k))
	}
	return fmt.Sprint(m.Int64(a, k))
}

// interpBudget bounds the time the interpreter may spend enumerating the
// instances of one optimized program before interpDiff gives up on it:
// the loops the frontend reads back from tiled code can be loose, and
// the interpreter walks their whole hull (seconds for a few programs).
const interpBudget = 2 * time.Second

// quick reports whether the interpreter enumerates the instances of the
// optimized program prog within interpBudget. params are the values of the
// original program op's parameters.
func quick(prog *ir.Program, params []int64, op *ir.Program) bool {
	q, ok := optParams(prog, params, op)
	if !ok {
		return true // interpDiff reports it
	}
	deadline := time.Now().Add(interpBudget)
	n := 0
	errSlow := errors.New("slow")
	err := interp.Instances(prog, q, func(int, []int64) error {
		if n++; n%1024 == 0 && time.Now().After(deadline) {
			return errSlow
		}
		return nil
	})
	return err != errSlow
}

// optParams orders the values params of op's parameters as prog's; it
// reports false when prog has a parameter op does not.
func optParams(prog *ir.Program, params []int64, op *ir.Program) ([]int64, bool) {
	q := make([]int64, len(prog.Params))
	for k, x := range prog.Params {
		i := slices.IndexFunc(op.Params, func(y ir.Param) bool { return y.Name == x.Name })
		if i < 0 {
			return nil, false
		}
		q[k] = params[i]
	}
	return q, true
}

// maxMacroDepth bounds the nesting of the generated code's nestor_min,
// nestor_max, nestor_floord and nestor_ceild macros that interpDiff reads
// back: each macro repeats its arguments, so the expanded text doubles
// with every level, and tiled code nests them a dozen deep (seconds of
// preprocessing, or the frontend's expansion limit).
const maxMacroDepth = 8
