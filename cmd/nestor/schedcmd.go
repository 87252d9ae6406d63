package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"nestor/deps"
	"nestor/sched"
)

var schedCommand = &command{
	name: "sched", args: "FILE.c [-I dir] [-D NAME[=VALUE]] [--fuse smart|max|no] [--tree]",
	summary: `print the affine schedule nestor computes for each #pragma scop region

One line per statement, isl style: the statement's counters mapped to the
time dimensions (constant dimensions order statements: fusion and
distribution), then the dimensions that carry no dependence (parallel).
When the scheduler gives up, the reason is printed and opt keeps the
original order.

With --tree, the schedule as a schedule tree, in the YAML-like text isl
prints: sequences of filters for the constant dimensions, bands of affine
rows for the loops, each band permutable or not, with its coincident
(parallel) members, and per member the statements it carries no
dependence of (coincident_for).`,
	setup: func(fs *flag.FlagSet) runFunc {
		var src sourceFlags
		src.register(fs)
		src.registerOpt(fs)
		tree := fs.Bool("tree", false, "print the schedule as a schedule tree (isl's YAML-like form) instead of per-statement rows and loops")
		return func(out io.Writer, args []string) error {
			f, err := src.parse(args)
			if err != nil {
				return err
			}
			opts, err := src.options(nil)
			if err != nil {
				return err
			}
			for k, s := range f.Scops {
				if k > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, "%s (%s):\n", s.Func.Name, s.Pos)
				g, err := deps.Analyze(s.Prog)
				if err != nil {
					return fmt.Errorf("%s: %w", s.Pos, err)
				}
				sc, err := sched.Compute(s.Prog, g, sched.Options{Fusion: opts.Fusion, Align: opts.Align, Budget: opts.SchedBudget})
				if err != nil {
					fmt.Fprintf(out, "  no schedule, the original order stays: %v\n", err)
					continue
				}
				if *tree {
					fmt.Fprint(out, indentLines(sched.FromSchedule(s.Prog, sc).String(), "  "))
					continue
				}
				fmt.Fprint(out, indentLines(sched.Format(s.Prog, sc), "  "))
				plan := sched.Plan{Tile: opts.Tile, Reorder: true, Wavefront: opts.Tile && opts.Parallel}
				for _, n := range opts.TileSizes {
					plan.Sizes = append(plan.Sizes, int64(n))
				}
				p, loops, err := sched.ApplyPlan(s.Prog, sc, plan)
				if err != nil {
					fmt.Fprintf(out, "  the schedule cannot be applied, the original order stays: %v\n", err)
					continue
				}
				fmt.Fprintln(out, "  loops, outermost first:")
				fmt.Fprint(out, indentLines(sched.FormatLoops(p.Stmts[0].Iters, loops), "    "))
			}
			return nil
		}
	},
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+prefix) + "\n"
}
