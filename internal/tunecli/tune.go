package tunecli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"nestor/check"
	"nestor/dist"
	"nestor/frontend"
	"nestor/internal/cli"
	"nestor/model"
	"nestor/pipeline"
	"nestor/tune"
	"nestor/tune/remote"

	"github.com/schollz/progressbar/v3"
)

var tuneCommand = &cli.Command{
	Name: "tune", Args: "FILE.c [--budget N|--time D] [--threads N] [--seed S] [--records FILE.jsonl] [-o OUT.c] | --plot FILE.jsonl -o OUT.svg",
	Summary: `search the implementations of a kernel's regions, measured on this machine

Each region's implementation is a vector of decisions (loop order or
schedule, fusion policy, parallel loops, per band: tiling, tile sizes,
wavefront, the order of its loops; register tile, reduction strategy) tied
by constraints that propagate after every decision. A Monte-Carlo tree
search draws candidates, cutting every subtree whose lower bound on the run
time (the arithmetic at the machine's peak on the cores it may still use,
the data that cannot stay cached at memory bandwidth) is no better than the
best time measured. Every candidate is generated, compiled with $CC -O3
-march=native -fopenmp, run on the check harness's inputs and compared with
the original (a wrong candidate is reported and discarded), then timed
(median of --runs). The default policy (what nestor opt writes) is always
evaluated first, so the result is never slower than it as measured.

--records appends one JSON line per evaluation; a later run with the same
file resumes (candidates already measured on this machine are not measured
again), and nestor opt --records FILE applies the best recorded decisions.
--space prints the decision space and its constraints and exits.`,
	Setup: func(fs *flag.FlagSet) cli.RunFunc {
		var src cli.SourceFlags
		src.Register(fs)
		src.RegisterOpt(fs)
		budget := fs.Int("budget", 50, "evaluations per region, the default policy's included")
		limit := fs.Duration("time", 0, "stop starting evaluations of a region after this `duration` (e.g. 10m; 0: no limit)")
		threads := fs.Int("threads", runtime.NumCPU(), "OpenMP threads the candidates are timed with")
		seed := fs.Int64("seed", 1, "seed of the search's random choices")
		records := fs.String("records", "", "append every evaluation to `FILE.jsonl` (and resume from what it holds)")
		outPath := fs.String("o", "", "write the best implementation to `OUT.c` (default FILE.tuned.c)")
		runs := fs.Int("runs", 5, "timed runs per candidate (the median counts)")
		confirm := fs.Int("confirm", 3, fmt.Sprintf("after the search, measure the default policy and the %d fastest other candidates again in `N` interleaved rounds, and keep the fastest of those measures, the default policy unless another beats it by %.0f%% and in most rounds, then again in N more rounds of the two alone (0: keep the fastest of the search's)", tune.ConfirmTop, 100*tune.ConfirmMargin))
		order := fs.String("order", "", "decision order: comma-separated name fragments, most discriminating first (default "+strings.Join(tune.DefaultOrder, ",")+")")
		kernel := fs.String("kernel", "", "tune the regions of function `name` (default: the only function with regions)")
		space := fs.Bool("space", false, "print each region's decision space and exit")
		quiet := fs.Bool("quiet", false, "no progress on standard error")
		jobs := fs.Int("jobs", 1, "candidates measured at once: keep 1 on one machine (timings stay clean); with --dist or --server, the number of workers' slots to keep busy")
		distLocal := fs.Bool("dist", true, "evaluate through an embedded NATS JetStream work queue (listening on localhost only) with --slots local workers; --dist=false evaluates in this process (see docs/DISTRIBUTED.md)")
		server := fs.String("server", "", "evaluate through the NATS JetStream work queue of the server at `nats://HOST:4222` (workers join with nestor worker)")
		slots := fs.Int("slots", -1, "local worker slots (default: one per core with the embedded queue, none with --server; --jobs says how many candidates are in flight)")
		creds := fs.String("creds", "", "NATS credentials `file` for --server")
		prefix := fs.String("prefix", "nestor.tune", "subject `prefix` of the work queue (workers must use the same)")
		resume := fs.Bool("resume", false, "with --dist or --server, continue the queue of an interrupted run (its tasks still queued, its results stored); needs --records, whose candidates are not measured again either way")
		var tlsFiles dist.TLSFiles
		fs.StringVar(&tlsFiles.CA, "tls-ca", "", "CA certificate `file` that signs the --server's certificate")
		fs.StringVar(&tlsFiles.Cert, "tls-cert", "", "client certificate `file` for --server")
		fs.StringVar(&tlsFiles.Key, "tls-key", "", "client key `file` for --server")
		cflags := fs.String("cflags", "", "extra compiler `flags` for the original and every candidate, after "+strings.Join(check.DefaultCFlags, " "))
		random := fs.Bool("random", false, "evaluate uniformly drawn candidates without pruning (a sample of the space: checks the bound's soundness and the candidates' correctness)")
		params := cli.ParamFlag{}
		fs.Var(params, "param", "value of an int kernel parameter, `name=V` (repeatable)")
		summary := fs.String("summary", "", "summarize the records in `FILE.jsonl` (evaluations, wrong results, the bound against the measured times, speedups) and exit")
		plotIn := fs.String("plot", "", "draw the convergence of the searches in `FILE.jsonl` (best time and the share cut by the bound against evaluations) as SVG to -o, and exit")
		return func(out io.Writer, args []string) error {
			if *summary != "" {
				recs, err := tune.ReadRecords(*summary)
				if err != nil {
					return err
				}
				sm := tune.Summarize(recs)
				fmt.Fprintf(out, "%d evaluations: %d timed, %d wrong results, %d failed\n", sm.Evals, sm.Timed, sm.Wrong, sm.Failed)
				fmt.Fprintf(out, "lower bound above the measured time: %d of %d (median bound/measured %.3g)\n", sm.Violations, sm.Timed, sm.Tightness)
				if len(sm.Speedups) > 0 {
					geo := 0.0
					for _, x := range sm.Speedups {
						geo += math.Log(x)
					}
					fmt.Fprintf(out, "%d searches with the default policy measured: best/default geometric mean %.3gx\n", len(sm.Speedups), math.Exp(geo/float64(len(sm.Speedups))))
				}
				if len(sm.Kept) > 0 {
					geo := 0.0
					for _, x := range sm.Kept {
						geo += math.Log(x)
					}
					fmt.Fprintf(out, "%d searches confirmed beside the default policy: kept/default geometric mean %.3gx\n", len(sm.Kept), math.Exp(geo/float64(len(sm.Kept))))
				}
				return nil
			}
			if *plotIn != "" {
				if len(args) != 0 {
					return cli.UsageError{Msg: "--plot FILE.jsonl takes no C file"}
				}
				if *outPath == "" {
					return cli.UsageError{Msg: "--plot needs -o OUT.svg"}
				}
				return plotRecords(*plotIn, *outPath)
			}
			if *resume && (*records == "" || !*distLocal && *server == "") {
				return cli.UsageError{Msg: "--resume continues a work queue: it needs --records and --dist or --server"}
			}
			if *budget < 1 {
				return cli.UsageError{Msg: fmt.Sprintf("--budget %d: want at least 1 evaluation", *budget)}
			}
			if *threads < 1 || *runs < 1 || *confirm < 0 {
				return cli.UsageError{Msg: "--threads and --runs want positive numbers, --confirm zero or more"}
			}
			if len(args) == 1 && args[0] == "-" {
				return cli.UsageError{Msg: "tune compiles the original file: give its path, not - (standard input)"}
			}
			f, err := src.Parse(args)
			if err != nil {
				return err
			}
			scop, err := cli.PickKernel(f, *kernel)
			if err != nil {
				return err
			}
			opts, err := src.Options(io.Discard)
			if err != nil {
				return err
			}
			var regions []int
			for k, s := range f.Scops {
				if s.Func.Name == scop.Func.Name {
					regions = append(regions, k)
				}
			}
			if *space {
				for _, k := range regions {
					r, err := tune.NewRegion(f, k, opts)
					if err != nil {
						return err
					}
					size, dead := r.Estimate(2000, *seed)
					fmt.Fprintf(out, "region %d (%s): %d choices, %d constraints, about %.3g candidates (Knuth estimate; %.0f%% of random descents end dead)\n%s",
						k, f.Scops[k].Pos, len(r.Space.Choices), len(r.Space.Clauses), size, 100*dead, r.Space)
				}
				return nil
			}
			dst := *outPath
			if dst == "" {
				dst = strings.TrimSuffix(args[0], ".c") + ".tuned.c"
			}
			if dst, err = cli.OutputPath(args[0], dst); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return runTune(ctx, out, f, scop, regions, opts, tuneConfig{
				budget: *budget, limit: *limit, threads: *threads, seed: *seed, runs: *runs, confirm: *confirm,
				records: *records, out: dst, order: *order, quiet: *quiet, params: params, random: *random,
				jobs: *jobs, dist: *distLocal, server: *server, slots: *slots, creds: *creds, prefix: *prefix,
				resume: *resume, tls: tlsFiles,
				check: check.Options{CC: os.Getenv("CC"), CFlags: strings.Fields(*cflags), IncludePaths: src.Includes(), Defines: src.Defines()},
			})
		}
	},
}

func init() { cli.Register(tuneCommand) }

type tuneConfig struct {
	budget, threads, runs int
	confirm               int
	limit                 time.Duration
	seed                  int64
	records, out, order   string
	quiet, random         bool
	jobs, slots           int
	dist, resume          bool
	server, creds, prefix string
	tls                   dist.TLSFiles
	params                cli.ParamFlag
	check                 check.Options
}

// runTune tunes the regions of one kernel in turn (each with the best
// decisions found for the ones before) and writes the best file.
func runTune(ctx context.Context, out io.Writer, f *frontend.File, scop *frontend.Scop, regions []int, opts pipeline.Options, cfg tuneConfig) (err error) {
	copt := cfg.check
	copt.Params = map[string]int64(cfg.params)
	copt.Threads = []int{cfg.threads}
	progress := io.Writer(os.Stderr)
	if cfg.quiet {
		progress = io.Discard
	}
	fmt.Fprintf(progress, "tune: building and timing the original %s ...\n", scop.Func.Name)
	e, err := tune.NewEvaluator(ctx, f, scop, tune.EvalOptions{Check: copt, Threads: cfg.threads, Runs: cfg.runs})
	if err != nil {
		return err
	}
	defer e.Close()
	host, err := model.Load()
	if err != nil {
		fmt.Fprintf(progress, "tune: %v (using nominal machine values)\n", err)
	}
	if !host.Measured {
		fmt.Fprintf(progress, "tune: the machine was not measured (nestor machine): the lower bound uses generous nominal peaks\n")
	}
	m := tune.MachineOf(host, cfg.threads)
	var prior []tune.Record
	var rec io.Writer
	if cfg.records != "" {
		if prior, err = tune.ReadRecords(cfg.records); err != nil {
			return err
		}
		fh, err := os.OpenFile(cfg.records, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		defer fh.Close()
		rec = fh
	}
	var eval tune.Evaluate
	if cfg.dist || cfg.server != "" {
		kernel, err := remote.ShipKernel(f, scop.Func.Name, tune.EvalOptions{Check: copt, Threads: cfg.threads, Runs: cfg.runs})
		if err != nil {
			return err
		}
		slots := cfg.slots
		switch {
		case slots < 0 && cfg.server != "":
			slots = -1 // none: the workers are elsewhere
		case slots < 0:
			slots = 0 // one per core; --jobs (1) keeps one evaluation in flight
		case slots == 0:
			slots = -1
		}
		do := dist.Options{Server: cfg.server, Creds: cfg.creds, TLS: cfg.tls, Prefix: cfg.prefix, LocalSlots: slots, Machine: m.Fingerprint, Resume: cfg.resume,
			Log: func(format string, args ...any) { fmt.Fprintf(progress, "tune: "+format+"\n", args...) }}
		if cfg.server == "" && cfg.records != "" {
			// The embedded server keeps its queue in the user cache, by
			// the records' path, for --resume after an interruption.
			if dir, err := queueDir(cfg.records); err == nil {
				do.StoreDir = dir
				// A run that ends well needs no resuming: its queue
				// goes (after the server closes, deferred below).
				defer func() {
					if err == nil {
						os.RemoveAll(dir)
					}
				}()
			}
		}
		c, err := dist.Start(ctx, do)
		if err != nil {
			return err
		}
		defer remote.CloseWorkers() // after the workers stop (deferred next)
		defer c.Close()
		if cfg.server == "" {
			fmt.Fprintf(progress, "tune: work queue at %s (prefix %s): other machines may join with nestor worker --server %s --prefix %s\n", c.URL(), c.Prefix(), c.URL(), c.Prefix())
		}
		eval = &remote.Remote{C: c, Kernel: kernel, Run: fmt.Sprintf("%s-s%d", kernel.Key, cfg.seed)}
	}
	var order []string
	if cfg.order != "" {
		order = strings.Split(cfg.order, ",")
	}
	fmt.Fprintf(out, "original %s: %s at %d thread(s)\n", scop.Func.Name, fmtDur(e.Orig), cfg.threads)
	for _, k := range regions {
		r, err := tune.NewRegion(f, k, opts)
		if err != nil {
			return err
		}
		size, dead := r.Estimate(2000, cfg.seed)
		fmt.Fprintf(progress, "tune: region %d (%s): %d choices, about %.3g candidates (%.0f%% dead ends)\n", k, f.Scops[k].Pos, len(r.Space.Choices), size, 100*dead)
		show := newTuneProgress(progress, cfg.budget, cfg.quiet)
		s, err := tune.NewSearcher(r, e, m, tune.Options{Budget: cfg.budget, Time: cfg.limit, Seed: cfg.seed, Order: order,
			Prior: prior, Records: rec, File: f.Path, Machine: m.Fingerprint, Threads: cfg.threads, Progress: show.update, Random: cfg.random,
			Eval: eval, Jobs: cfg.jobs, Confirm: cfg.confirm})
		if err != nil {
			return err
		}
		res, err := s.Run(ctx)
		show.finish()
		if err != nil {
			return err
		}
		wrong := 0
		for _, rc := range res.Records {
			if rc.Wrong {
				wrong++
				fmt.Fprintf(progress, "tune: candidate %d computed a wrong result (%s), discarded: %s\n", rc.Eval, rc.Error, tune.Describe(rc.Decisions))
			}
			if strings.HasPrefix(rc.Error, "generating: ") {
				// nestor's own defect, worth a report: the search went on.
				fmt.Fprintf(progress, "tune: candidate %d could not be generated (%s), skipped: %s\n", rc.Eval, strings.TrimPrefix(rc.Error, "generating: "), tune.Describe(rc.Decisions))
			}
		}
		if res.Best == nil {
			return fmt.Errorf("%s: no candidate ran (the default's error: %s)", f.Scops[k].Pos, res.Default.Error)
		}
		dec, err := r.Apply(res.Best)
		if err != nil {
			return err
		}
		opts.Decide = append(opts.Decide, make([]pipeline.Decisions, max(0, k+1-len(opts.Decide)))...)
		opts.Decide[k] = dec
		fmt.Fprintf(out, "region %d (%s): best %s, default policy %s (%.2fx) after %d evaluations; bound cut %d of %d subtrees; %d wrong candidates; bound above the measured time: %d\n",
			k, f.Scops[k].Pos, cli.FormatSeconds(res.Fastest.Time), cli.FormatSeconds(res.Default.Time), res.Default.Time/res.Fastest.Time, len(res.Records), res.Pruned, res.Expanded, wrong, res.Violations)
		if best, ok := res.ConfirmedTime(res.Best); ok {
			if def, ok := res.ConfirmedTime(res.Default); ok {
				least, most, runs := math.MaxInt, 0, 0
				for _, c := range res.Confirmed {
					least, most = min(least, len(c.Rounds)), max(most, len(c.Rounds))
					runs = max(runs, len(c.Times)/max(1, len(c.Rounds)))
				}
				more := ""
				if most > least {
					more = fmt.Sprintf(", then the fastest and the default policy in %d more", most-least)
				}
				fmt.Fprintf(out, "  measured again, %d candidates in %d interleaved rounds (%d runs each)%s: best %s, default policy %s (%.2fx)\n",
					len(res.Confirmed), least, runs, more, cli.FormatSeconds(best), cli.FormatSeconds(def), def/best)
				if first := res.Confirmed[0]; res.Best.Default && !first.Record.Default {
					fmt.Fprintf(out, "  default policy kept: the fastest, at %s, beat it by less than %.0f%% or in half of the rounds or fewer\n",
						cli.FormatSeconds(first.Time), 100*tune.ConfirmMargin)
				}
			}
		}
		if !res.Best.Default {
			fmt.Fprintf(out, "  decisions: %s\n", tune.Describe(res.Best.Decisions))
		}
		var levels []string
		for d := 0; d < min(4, len(res.ExpandedAt)); d++ {
			levels = append(levels, fmt.Sprintf("%d/%d", res.PrunedAt[d], res.ExpandedAt[d]))
		}
		if len(levels) > 0 {
			fmt.Fprintf(out, "  subtrees cut by the bound at depths 1-%d: %s\n", len(levels), strings.Join(levels, ", "))
		}
	}
	code, err := pipeline.Optimize(f, opts)
	if err != nil {
		return err
	}
	if cfg.out == "-" {
		_, err = out.Write(code)
		return err
	}
	if err := os.WriteFile(cfg.out, code, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %s\n", cfg.out)
	return nil
}

func fmtDur(d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return cli.FormatSeconds(d.Seconds())
}

// tuneProgress shows a search's progress on standard error: a progress
// bar on a terminal, one line per evaluation otherwise (logs).
type tuneProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newTuneProgress(w io.Writer, budget int, quiet bool) *tuneProgress {
	tp := &tuneProgress{w: w}
	if quiet {
		return tp
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			tp.bar = progressbar.NewOptions(budget, progressbar.OptionSetWriter(w), progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(20), progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionSetDescription("tune"))
		}
	}
	return tp
}

func (tp *tuneProgress) update(p tune.Progress) {
	cut := 0.0
	if p.Expanded > 0 {
		cut = 100 * float64(p.Pruned) / float64(p.Expanded)
	}
	desc := fmt.Sprintf("best %s (default %s), bound cut %.0f%%", fmtDur(p.Best), fmtDur(p.Default), cut)
	if tp.bar != nil {
		tp.bar.Describe(desc)
		tp.bar.Set(p.Evals)
		return
	}
	fmt.Fprintf(tp.w, "tune: %d/%d evaluations, %s\n", p.Evals, p.Budget, desc)
}

func (tp *tuneProgress) finish() {
	if tp.bar != nil {
		tp.bar.Finish()
		fmt.Fprintln(tp.w)
	}
}

// queueDir is where the embedded server of a run whose records are at
// path keeps its queue: the user cache folder, by the records' absolute
// path.
func queueDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(cache, "nestor", "queue-"+hex.EncodeToString(sum[:6])), nil
}
