package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"nestor/pipeline"
	"nestor/sched"
)

var schedCommand = &Command{
	Name: "sched", Args: "FILE.c [-I dir] [-D NAME[=VALUE]] [--fuse smart|max|no] [--tree]",
	Summary: `print the affine schedule nestor computes for each #pragma scop region

One line per statement, isl style: the statement's counters mapped to the
time dimensions (constant dimensions order statements: fusion and
distribution), then the dimensions that carry no dependence (parallel),
then the loops nestor opt writes with the same flags (the same passes:
reroll, expand, index-set splitting, the schedule and its layout). When the scheduler gives
up, or opt keeps an original order, the reason is printed.

With --tree, the schedule as a schedule tree, in the YAML-like text isl
prints: sequences of filters for the constant dimensions, bands of affine
rows for the loops, each band permutable or not, with its coincident
(parallel) members, and per member the statements it carries no
dependence of (coincident_for); then the layout opt gives its loops: the
point-loop order, tile loops and sizes, wavefront, a loop sunk
innermost, and the code generation marks (layout_marks: parallel,
nosimd, rfactor, pack, jam=ROWSxCOLS, unroll=N).`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		var src SourceFlags
		src.Register(fs)
		src.RegisterOpt(fs)
		tree := fs.Bool("tree", false, "print the schedule as a schedule tree (isl's YAML-like form) instead of per-statement rows and loops")
		return func(out io.Writer, args []string) error {
			f, err := src.Parse(args)
			if err != nil {
				return err
			}
			opts, err := src.Options(nil)
			if err != nil {
				return err
			}
			views, err := pipeline.Inspect(f, opts)
			if err != nil {
				return err
			}
			for k, v := range views {
				if k > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintf(out, "%s (%s):\n", v.Scop.Func.Name, v.Scop.Pos)
				if v.Schedule == nil {
					fmt.Fprintf(out, "  no schedule: %s\n", v.Kept)
					continue
				}
				if *tree {
					t := v.Tree
					if t == nil { // an original order: the schedule opt did not use
						t = sched.FromSchedule(v.Scheduled, v.Schedule)
					}
					fmt.Fprint(out, indentLines(t.String(), "  "))
					if v.Kept != "" {
						fmt.Fprintf(out, "  opt keeps %s\n", v.Kept)
					}
					continue
				}
				fmt.Fprint(out, indentLines(sched.Format(v.Scheduled, v.Schedule), "  "))
				if v.Kept != "" {
					fmt.Fprintf(out, "  opt keeps %s\n", v.Kept)
				}
				if v.Loops == nil {
					continue
				}
				fmt.Fprintln(out, "  loops opt writes, outermost first:")
				fmt.Fprint(out, indentLines(sched.FormatLoops(v.Prog.Stmts[0].Iters, v.Loops), "    "))
			}
			return nil
		}
	},
}

func indentLines(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+prefix) + "\n"
}
