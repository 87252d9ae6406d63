package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"nestor/model"
)

var machineCommand = &Command{
	Name: "machine", Args: "[--refresh] [--json] [-o FILE] [--reps N] [--sample D]",
	Summary: `measure the machine once and print what the model knows of it

Micro-benchmarks (small C programs built with $CC or cc at -O3
-march=native -fopenmp) measure one core's peak FMA throughput and FMA
latency, L1 load and store throughput, the read bandwidth of L1, L2, L3
and DRAM with one core and with all, the cache sizes (knees of a
bandwidth sweep) and the cost of an OpenMP fork+join and of a barrier at
each thread count, and of a fork that wakes a sleeping team (the passive
wait policy; code generation weighs each parallel loop's work against
it); about 10 seconds, progress on standard error. The
result is kept as JSON in the user cache folder, one file per kind of
hardware (nestor/machine-FINGERPRINT.json; $NESTOR_MACHINE names another
file), and later runs print the kept result unless --refresh is given.
Where nothing was measured, the model uses nominal values (marked
"nominal").`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		refresh := fs.Bool("refresh", false, "measure again even when a result is kept")
		asJSON := fs.Bool("json", false, "print JSON instead of a table")
		outFile := fs.String("o", "", "also write the JSON to `FILE`")
		reps := fs.Int("reps", 0, "samples per benchmark (default 5)")
		sample := fs.Duration("sample", 0, "least `duration` of one sample (default 15ms)")
		return func(out io.Writer, args []string) error {
			if len(args) > 0 {
				return UsageError{fmt.Sprintf("unexpected argument %q", args[0])}
			}
			if *reps < 0 || *sample < 0 {
				return UsageError{"--reps and --sample must not be negative"}
			}
			m, err := machine(*refresh, model.MeasureOptions{Reps: *reps, Sample: *sample, Progress: machineProgress})
			if err != nil {
				return err
			}
			if *outFile != "" {
				if err := m.Save(*outFile); err != nil {
					return err
				}
			}
			if *asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(m)
			}
			return m.WriteTable(out)
		}
	},
}

// machineProgress receives nestor machine's progress lines (tests replace
// it).
var machineProgress io.Writer = os.Stderr

// machine returns the kept measurement of this host, or measures it (when
// none is kept, or refresh) and keeps the result.
func machine(refresh bool, opt model.MeasureOptions) (model.Machine, error) {
	path, err := model.CachePath()
	if err != nil {
		return model.Machine{}, err
	}
	if !refresh {
		m, err := model.ReadFile(path)
		if err == nil {
			return m, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(opt.Progress, "nestor machine: %v; measuring again\n", err)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(opt.Progress, "nestor machine: measuring (about 10 s; load average counts: an idle machine gives the best figures)\n")
	start := time.Now()
	m, err := model.Measure(ctx, opt)
	if err != nil {
		return m, err
	}
	if err := m.Save(path); err != nil {
		return m, err
	}
	fmt.Fprintf(opt.Progress, "nestor machine: measured in %.1f s, kept in %s\n", time.Since(start).Seconds(), path)
	return m, nil
}
