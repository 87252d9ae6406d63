package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"nestor/bench"
	"nestor/pipeline"
)

var benchCommand = &Command{
	Name: "bench", Args: "[flags] [KERNEL...]",
	Summary: `time the corpus kernels as gcc, nestor and its peers build them

Each kernel (a name in --corpus, or a path to a C file; default: every
kernel of the corpus) is built from nestor check's harness as the original
with gcc -O3 -march=native (the baseline), nestor's output with the same
flags, and, when installed (scripts/install-peers), clang-16 with Polly,
sequential and -polly-parallel, and OpenBLAS's dgemm for gemm. The versions
run in turns, --runs rounds; the report gives the baseline's median time,
every version's speedup over it at 1 thread and at each --threads count,
the geometric means, and whether each version's outputs agree with the
baseline's. One line per kernel goes to standard error as it finishes.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		var define, include listFlag
		fs.Var(&define, "D", "define macro `NAME[=VALUE]` for every kernel (repeatable)")
		fs.Var(&include, "I", "add `dir` to the include search path (repeatable)")
		size := fs.String("size", "LARGE", "dataset `preset`: MINI, SMALL, MEDIUM, LARGE or EXTRALARGE (-D NAME_DATASET)")
		runs := fs.Int("runs", bench.DefaultRuns, "rounds: runs of every version, alternating; medians are reported")
		threads := fs.String("threads", "", "thread `counts` of the parallel versions, e.g. 1,2 (default 1 and the number of CPUs)")
		peers := fs.String("peers", strings.Join(bench.AllPeers, ","), "`versions` to run; gcc, the baseline, always runs")
		optFlags := fs.String("opt-flags", "", "`flags` of nestor opt for nestor's version, e.g. \"--tile=false\"")
		markdown := fs.Bool("markdown", false, "write the report as Markdown, the page docs/BENCHMARKS.md")
		outPath := fs.String("o", "", "write the report to `file` (default: standard output)")
		timeout := fs.Duration("timeout", bench.DefaultTimeout, "limit of one run of one version (and of nestor's optimization of a kernel)")
		budget := fs.Duration("budget", 0, "stop a kernel's rounds once its runs took this `long` in all, after 3 rounds (0: no limit)")
		corpus := fs.String("corpus", "testdata/kernels", "the `folder` of the kernels named by KERNEL arguments")
		cc := fs.String("cc", bench.DefaultCC, "compiler of the baseline and of nestor's output")
		clang := fs.String("clang", bench.DefaultClang, "compiler with Polly")
		seed := fs.Uint64("seed", 0, "seed of the input generator (0: nestor check's default)")
		keep := fs.String("keep", "", "keep each kernel's sources, executables and outputs in `dir`/KERNEL")
		return func(out io.Writer, args []string) error {
			cfg := bench.Config{
				Size: strings.ToUpper(*size), Defines: define, IncludePaths: include,
				Runs: *runs, Timeout: *timeout, Budget: *budget,
				CC: *cc, Clang: *clang, Seed: *seed, KeepDir: *keep, Progress: os.Stderr,
			}
			if !slices.Contains(bench.Sizes, cfg.Size) {
				return UsageError{fmt.Sprintf("--size %q: want one of %s", *size, strings.Join(bench.Sizes, ", "))}
			}
			if *runs < 1 {
				return UsageError{fmt.Sprintf("--runs %d: want at least 1", *runs)}
			}
			var err error
			if cfg.Threads, err = parseThreads(*threads); err != nil {
				return err
			}
			if cfg.Peers, err = parsePeers(*peers); err != nil {
				return err
			}
			if cfg.Options, err = optOptions(*optFlags); err != nil {
				return err
			}
			if cfg.Kernels, err = benchKernels(*corpus, args); err != nil {
				return err
			}
			if *outPath != "" && *outPath != "-" {
				// Fail on an unwritable path now, not after the run; the
				// file is only replaced when the report is complete.
				f, err := os.OpenFile(*outPath, os.O_WRONLY|os.O_CREATE, 0o644)
				if err != nil {
					return err
				}
				f.Close()
			}

			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			rep, err := bench.Run(ctx, cfg)
			if rep == nil {
				return err
			}
			rep.Command = "go run ./cmd/nestor bench" + commandLine(fs, args)
			var buf bytes.Buffer
			if *markdown {
				rep.Markdown(&buf)
			} else {
				rep.Text(&buf)
			}
			if err != nil {
				out.Write(buf.Bytes())
				return fmt.Errorf("nestor bench: stopped after %d kernels: %v", len(rep.Kernels), err)
			}
			if *outPath != "" && *outPath != "-" {
				return os.WriteFile(*outPath, buf.Bytes(), 0o644)
			}
			_, err = out.Write(buf.Bytes())
			return err
		}
	},
}

// benchKernels returns the kernel files: every .c file of corpus when args
// is empty, else each argument, a path when it names a .c file or has a
// slash, otherwise a kernel name in corpus.
func benchKernels(corpus string, args []string) ([]string, error) {
	if len(args) == 0 {
		files, err := filepath.Glob(filepath.Join(corpus, "*.c"))
		if err != nil || len(files) == 0 {
			return nil, UsageError{fmt.Sprintf("no kernels in %s: run in the repository root, pass --corpus or name the files", corpus)}
		}
		return files, nil
	}
	var files []string
	for _, a := range args {
		path := a
		if !strings.HasSuffix(a, ".c") && !strings.Contains(a, "/") {
			path = filepath.Join(corpus, a+".c")
		}
		if _, err := os.Stat(path); err != nil {
			return nil, UsageError{fmt.Sprintf("kernel %s: no file %s", a, path)}
		}
		files = append(files, path)
	}
	return files, nil
}

// parseThreads reads "1,2" (empty: the default of bench.Config).
func parseThreads(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var ts []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, UsageError{fmt.Sprintf("--threads %q: want positive counts separated by commas", s)}
		}
		if n > 4*runtime.NumCPU() {
			return nil, UsageError{fmt.Sprintf("--threads %d: this machine has %d CPUs", n, runtime.NumCPU())}
		}
		ts = append(ts, n)
	}
	return ts, nil
}

// parsePeers reads "gcc,nestor,polly"; gcc is added when missing.
func parsePeers(s string) ([]string, error) {
	peers := []string{bench.GCC}
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		switch {
		case p == "" || slices.Contains(peers, p):
		case !slices.Contains(bench.AllPeers, p):
			return nil, UsageError{fmt.Sprintf("--peers: unknown version %q: want some of %s", p, strings.Join(bench.AllPeers, ","))}
		default:
			peers = append(peers, p)
		}
	}
	return peers, nil
}

// optOptions returns the pipeline options `nestor opt FLAGS` would use.
func optOptions(flags string) (pipeline.Options, error) {
	fs := flag.NewFlagSet("nestor opt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var src SourceFlags
	src.Register(fs)
	src.RegisterOpt(fs)
	if err := fs.Parse(strings.Fields(flags)); err != nil {
		return pipeline.Options{}, UsageError{fmt.Sprintf("--opt-flags %q: %v", flags, err)}
	}
	if fs.NArg() > 0 {
		return pipeline.Options{}, UsageError{fmt.Sprintf("--opt-flags %q: only flags, not %q", flags, fs.Arg(0))}
	}
	return src.Options(nil)
}

// commandLine spells the flags that were set and the arguments, quoted
// for a shell where needed, each with a leading space.
func commandLine(fs *flag.FlagSet, args []string) string {
	var b strings.Builder
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "o" {
			fmt.Fprintf(&b, " -o %s", shellQuote(f.Value.String()))
			return
		}
		if bf, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && bf.IsBoolFlag() && f.Value.String() == "true" {
			fmt.Fprintf(&b, " --%s", f.Name)
			return
		}
		if l, ok := f.Value.(*listFlag); ok {
			for _, v := range *l {
				fmt.Fprintf(&b, " -%s %s", f.Name, shellQuote(v))
			}
			return
		}
		fmt.Fprintf(&b, " --%s=%s", f.Name, shellQuote(f.Value.String()))
	})
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./=,:
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
