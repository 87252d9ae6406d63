package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"nestor/outline"
	"nestor/outline/xls"
)

func init() { commands = append(commands, outlineCommand) }

var outlineCommand = &Command{
	Name: "outline", Args: "FILE.ir [-o OUT.ir] [--objective nodes|area] [--exact] [--fn NAME] [--min-size K] [--budget N] [--progress] [--verify N] [--inline]",
	Summary: `outline repeated subgraphs of an XLS IR package into functions

Reads an XLS IR package, finds in each function (or the one --fn names)
the subgraphs that repeat, by collision-avoiding anti-unification of every
pair of nodes, and replaces each chosen set of n instances of a pattern of
k operations by invocations of a new function (outlined_0, …), again and
again while the objective improves: --objective nodes (the default) saves
(n−1)·k operations and needs k ≥ --min-size (3 by default); area weighs
operations by their bit width and charges the multiplexers the shared
inputs would need. The choice of each instance set is greedy, or exact
(maximum cliques by Bron–Kerbosch) with --exact. Beside the pairwise
table, a cone miner finds exact repeats with internal fan-out by hashing
bounded-depth shapes; in large functions (more than about 2 million
pairs of equal-key nodes) it runs alone, in time near linear in the
function. --budget N stops each function's outlining after N units of
work with what it found so far; --progress reports each iteration on
standard error. A pattern equal to a function outlined before invokes it.
The result is checked by evaluation on random inputs against the input
(--verify N vectors; a large function gets fewer, at least 8, so that
the check evaluates at most about 2 million nodes per function).

The whole function-level IR is read: side-effecting operations (assert,
trace, cover, after_all, min_delay), counted_for, map and invokes of
foreign (#[ffi_proto]) or side-effecting functions are never moved into an
outlined function, but are kept, as are source positions (pos=),
file_number lines and function attributes; foreign functions are not
outlined. Procs, blocks, channels and scheduled functions are written back
unchanged, in place; the functions they use are outlined like any other.
Verification compares every function of the input, side effects included.

--inline does the opposite: every invocation of a function that outlining
created (marked "// nestor: outlined" in the file) is replaced by a copy
of its body, and those functions are dropped once nothing calls them;
the user's functions and invocations stay.

The package is written to OUT.ir and the report (functions created:
instances n, pattern size k, what each saves, time) to standard output;
without -o, the package goes to standard output and the report to
standard error.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		outFile := fs.String("o", "", "write the package to `OUT.ir`")
		objective := fs.String("objective", "nodes", "what outlining saves: nodes or area")
		exact := fs.Bool("exact", false, "choose each instance set by exact maximum-clique search")
		fn := fs.String("fn", "", "outline only function `NAME` (default: every function of the input)")
		minSize := fs.Int("min-size", 0, "least number of operations of a pattern (default 3 for nodes, 2 for area)")
		inline := fs.Bool("inline", false, "inline every invocation instead, restoring a flat graph")
		verify := fs.Int("verify", 1000, "random input vectors on which the result must evaluate as the input (0: none)")
		budget := fs.Int64("budget", 0, "stop each function's outlining after `N` units of work, keeping what was outlined (0: no limit)")
		progress := fs.Bool("progress", false, "report each iteration on standard error")
		return func(out io.Writer, args []string) error {
			if len(args) != 1 {
				return UsageError{"want one FILE.ir argument"}
			}
			var obj outline.Objective
			switch *objective {
			case "nodes":
				obj = outline.Nodes
			case "area":
				obj = outline.Area
			default:
				return UsageError{fmt.Sprintf("--objective %q: want nodes or area", *objective)}
			}
			src, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			p, err := xls.Parse(args[0], src)
			if err != nil {
				return err
			}
			var orig *outline.Package // the reference for --verify
			if *verify > 0 {
				orig = p.Clone() // a fraction of a second parse's time and memory
			}
			report := io.Writer(os.Stderr)
			if *outFile != "" {
				report = out
			}
			start := time.Now()
			var names []string
			switch {
			case *inline:
				if err := outline.Inline(p); err != nil {
					return err
				}
				fmt.Fprintf(report, "inlined: %d functions left, %v\n", len(p.Funcs), time.Since(start).Round(time.Microsecond))
			case *fn != "":
				if p.Func(*fn) == nil {
					return fmt.Errorf("%s: no function %s", args[0], *fn)
				}
				names = []string{*fn}
			default:
				for _, f := range p.Funcs {
					names = append(names, f.Name)
				}
			}
			for _, name := range names {
				o := outline.Options{Objective: obj, Exact: *exact, MinSize: *minSize, Budget: *budget}
				if *progress {
					o.Progress = os.Stderr
				}
				rep, err := outline.Outline(p, name, o)
				if err != nil {
					return err
				}
				printOutlineReport(report, rep)
			}
			if *verify > 0 {
				for _, f := range orig.Funcs {
					g := p.Func(f.Name)
					if g == nil && f.Outlined && *inline {
						continue // inlined everywhere and dropped
					}
					if g == nil {
						return fmt.Errorf("outline: function %s of the input is missing from the result (a bug in nestor)", f.Name)
					}
					if err := xls.EvalEqual(orig, f, p, g, verifyVectors(*verify, f), 1); err != nil {
						return fmt.Errorf("outline: the result differs from the input (a bug in nestor): function %s: %v", f.Name, err)
					}
				}
			}
			if kept := opaqueSummary(p); kept != "" {
				fmt.Fprintf(report, "kept as written: %s\n", kept)
			}
			var buf bytes.Buffer
			if err := xls.Write(&buf, p); err != nil {
				return err
			}
			if *outFile != "" {
				return os.WriteFile(*outFile, buf.Bytes(), 0o644)
			}
			_, err = out.Write(buf.Bytes())
			return err
		}
	},
}

// maxVerifyWork bounds the node evaluations --verify spends on one
// function (vectors times nodes): a 100,000-node function gets 20
// vectors instead of 1,000, which would take minutes; and minVerify is
// the least number of vectors it gets however large.
const (
	maxVerifyWork = 2_000_000
	minVerify     = 8
)

// verifyVectors is how many of the n vectors --verify asks for function
// f of the input gets.
func verifyVectors(n int, f *outline.Function) int {
	return min(n, max(minVerify, maxVerifyWork/max(len(f.Nodes), 1)))
}

// printOutlineReport writes what Outline did to one function.
func printOutlineReport(w io.Writer, r *outline.Report) {
	unit := "nodes"
	if r.Objective == outline.Area {
		unit = "area"
	}
	fmt.Fprintf(w, "%s: %d functions outlined, %s %d -> %d, %v", r.Func, len(r.Funcs), unit, r.CostBefore, r.CostAfter, r.Time.Round(time.Microsecond))
	if r.Exact {
		fmt.Fprint(w, " (each choice optimal)")
	}
	if r.TableSkipped {
		fmt.Fprint(w, " (cone miner only)")
	}
	if r.Stopped {
		fmt.Fprintf(w, " (stopped by the budget after %d units of work: partial result)", r.Work)
	}
	fmt.Fprintln(w)
	for _, o := range r.Funcs {
		again := ""
		if o.Reused {
			again = " (same body as before)"
		}
		fmt.Fprintf(w, "  %s%s: n = %d instances, k = %d operations, %d params, saves %d %s: %s\n",
			o.Name, again, o.Instances, o.Size, o.Params, o.Saved, unit, strings.TrimSpace(o.Pattern))
	}
}

// opaqueSummary counts the parts of p kept as text: "2 proc, 1 chan".
func opaqueSummary(p *outline.Package) string {
	count := map[string]int{}
	var kinds []string
	for _, o := range p.Opaque {
		if count[o.Kind] == 0 {
			kinds = append(kinds, o.Kind)
		}
		count[o.Kind]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", count[k], k)
	}
	return strings.Join(parts, ", ")
}
