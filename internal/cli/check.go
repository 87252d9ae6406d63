package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"nestor/check"
	"nestor/frontend"
	"nestor/pipeline"
)

var checkCommand = &Command{
	Name: "check", Args: "FILE.c [-I dir] [-D NAME[=VALUE]] [--param name=V] [--runs N]",
	Summary: `optimize, then prove the result equal to the original by execution

Both versions are compiled with $CC (default cc) -O3 -march=native, run on
the same seeded pseudo-random inputs (then PolyBench's init_array, when the
file has one), and every array the kernel writes is compared: exactly for
integers, within a relative tolerance for floating point. The report gives
the worst element per array, then both run times and the speedup at 1
thread and at all threads (--threads; OMP_NUM_THREADS, with
OMP_WAIT_POLICY=passive unless you set a wait policy). The exit status is
1 on any mismatch.

Pointer and array parameters are assumed not to alias one another (as
Pluto and PPCG assume); the harness passes each its own array.

An int parameter x of the kernel takes its value from --param x=V, else from
the macro X (PolyBench's convention: the kernel is called with n = N).`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		var src SourceFlags
		src.Register(fs)
		src.RegisterOpt(fs)
		params := ParamFlag{}
		fs.Var(params, "param", "value of an int kernel parameter, `name=V` (repeatable)")
		kernel := fs.String("kernel", "", "check the regions of function `name` (default: the only function with regions)")
		runs := fs.Int("runs", 5, "timed runs of each version; the median is reported")
		seed := fs.Uint64("seed", 1, "seed of the input generator")
		var rtol tolFlag
		fs.Var(&rtol, "rtol", "relative `tolerance` for floating point, non-negative; 0 demands equal values (default 1e-9 for double, 1e-4 for float)")
		threads := fs.String("threads", "", "OpenMP thread `counts` to time both versions at, e.g. 1,4 (default: 1 and the number of CPUs)")
		keep := fs.String("keep", "", "keep the harness sources and binaries in `dir`")
		cflags := fs.String("cflags", "", "extra compiler `flags` for both versions, after "+strings.Join(check.DefaultCFlags, " "))
		return func(out io.Writer, args []string) error {
			if len(args) == 1 && args[0] == "-" {
				return UsageError{"check compiles the original file: give its path, not - (standard input)"}
			}
			counts, err := threadCounts(*threads)
			if err != nil {
				return err
			}
			f, err := src.Parse(args)
			if err != nil {
				return err
			}
			scop, err := PickKernel(f, *kernel)
			if err != nil {
				return err
			}
			opts, err := src.Options(out)
			if err != nil {
				return err
			}
			opt, err := pipeline.Optimize(f, opts)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			res, err := check.Compare(ctx, f, scop, opt, check.Options{
				CC:           os.Getenv("CC"),
				CFlags:       strings.Fields(*cflags),
				IncludePaths: src.include,
				Defines:      src.define,
				Params:       params,
				Seed:         *seed,
				Runs:         *runs,
				RTol:         rtol.v,
				Exact:        rtol.set && rtol.v == 0,
				KeepDir:      *keep,
				Threads:      counts,
			})
			if err != nil {
				return err
			}
			res.Format(out)
			if !res.Match {
				return exitError{1}
			}
			return nil
		}
	},
}

// threadCounts parses --threads: positive integers separated by commas;
// "" is nil (check's default).
func threadCounts(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, UsageError{fmt.Sprintf("--threads %q: want positive integers separated by commas, e.g. 1,4", s)}
		}
		out = append(out, n)
	}
	return out, nil
}

// PickKernel returns the first region of the function to check.
func PickKernel(f *frontend.File, name string) (*frontend.Scop, error) {
	var found *frontend.Scop
	for _, s := range f.Scops {
		switch {
		case name != "" && s.Func.Name != name:
		case found == nil:
			found = s
		case found.Func.Name != s.Func.Name:
			return nil, UsageError{fmt.Sprintf("regions in %s and %s: choose one with --kernel", found.Func.Name, s.Func.Name)}
		}
	}
	if found == nil {
		return nil, fmt.Errorf("%s: no region in a function named %q", f.Path, name)
	}
	return found, nil
}
