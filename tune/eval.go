package tune

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"nestor/check"
	"nestor/frontend"
	"nestor/model"
)

// Evaluator measures candidates of one kernel: each is built in the
// kernel's check harness, run once to compare its outputs with the
// original's (a candidate that differs is wrong, never kept), then timed.
type Evaluator struct {
	h       *check.Harness
	dir     string
	ref     *check.Data
	threads int
	runs    int
	// Orig is the original kernel's time (median of the runs).
	Orig time.Duration
	// Params are the values of the kernel's parameters in the harness,
	// by name.
	Params map[string]int64
}

// EvalOptions configures an Evaluator.
type EvalOptions struct {
	Check   check.Options // harness, compiler and flags, tolerances
	Threads int           // OpenMP threads of the timed runs
	Runs    int           // timed runs per candidate (median); 0 means 5
	Dir     string        // where candidates are built (kept); "" for a temporary folder
}

// NewEvaluator builds and runs the original kernel of region scop of f
// (nil: of f's first region); the candidates are timed as calls of that
// kernel function.
func NewEvaluator(ctx context.Context, f *frontend.File, scop *frontend.Scop, opt EvalOptions) (_ *Evaluator, err error) {
	h, err := check.NewHarness(f, scop, opt.Check)
	if err != nil {
		return nil, err
	}
	dir := opt.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "nestor-tune-"); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				os.RemoveAll(dir) // the original did not build or run
			}
		}()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	e := &Evaluator{h: h, dir: dir, threads: max(opt.Threads, 1), runs: opt.Runs}
	if e.runs <= 0 {
		e.runs = 5
	}
	exe, err := h.Build(ctx, dir, "orig", f.Path, "", nil)
	if err != nil {
		return nil, err
	}
	ref, _, err := exe.Output(ctx, filepath.Join(dir, "orig.out"), check.OMPEnv(e.threads))
	if err != nil {
		return nil, err
	}
	e.ref, e.Params = ref, ref.Params
	if e.Orig, _, err = e.time(ctx, exe); err != nil {
		return nil, err
	}
	return e, nil
}

// Dir is the folder the candidates are built in.
func (e *Evaluator) Dir() string { return e.dir }

// Close removes the build folder.
func (e *Evaluator) Close() error { return os.RemoveAll(e.dir) }

// Measure is the outcome of one evaluation.
type Measure struct {
	Time  time.Duration   // median of Times
	Times []time.Duration // every timed run
	// Err says why the candidate has no time: it did not compile, did not
	// run, or computed a different result (Wrong).
	Err   string
	Wrong bool
	// Machine is the fingerprint of the machine that measured it when
	// not this one (a worker's), and Desc its description when known.
	Machine string
	Desc    *model.Machine
}

// Eval builds the candidate src (the whole optimized file) as name,
// checks its outputs and times it.
func (e *Evaluator) Eval(ctx context.Context, name, base string, src []byte) Measure {
	dir := filepath.Join(e.dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Measure{Err: err.Error()}
	}
	path := filepath.Join(dir, base)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		return Measure{Err: err.Error()}
	}
	exe, err := e.h.Build(ctx, dir, "cand", path, "", nil)
	if err != nil {
		return Measure{Err: firstLine(err.Error())}
	}
	out, _, err := exe.Output(ctx, filepath.Join(dir, "cand.out"), check.OMPEnv(e.threads))
	if err != nil {
		return Measure{Err: firstLine(err.Error())}
	}
	arrays, match, err := e.h.CompareOutputs(e.ref, out)
	if err != nil {
		return Measure{Err: firstLine(err.Error())}
	}
	if !match {
		var bad []string
		for _, a := range arrays {
			if a.Mismatches > 0 {
				bad = append(bad, a.Name)
			}
		}
		return Measure{Wrong: true, Err: "wrong result in " + strings.Join(bad, ", ")}
	}
	t, ts, err := e.time(ctx, exe)
	if err != nil {
		return Measure{Err: firstLine(err.Error())}
	}
	os.Remove(exe.Path)
	return Measure{Time: t, Times: ts}
}

// time runs exe's timed mode e.runs times and returns the median.
func (e *Evaluator) time(ctx context.Context, exe *check.Exe) (time.Duration, []time.Duration, error) {
	var ts []time.Duration
	for range e.runs {
		t, err := exe.Time(ctx, check.OMPEnv(e.threads))
		if err != nil {
			return 0, nil, err
		}
		ts = append(ts, t)
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2], ts, nil
}

func firstLine(s string) string {
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		return s[:k]
	}
	return s
}

// params returns the values of p's parameters from the harness.
func (e *Evaluator) params(names []string) ([]int64, error) {
	out := make([]int64, len(names))
	for k, n := range names {
		v, ok := e.Params[n]
		if !ok {
			return nil, fmt.Errorf("tune: the harness gives no value to parameter %s", n)
		}
		out[k] = v
	}
	return out, nil
}
