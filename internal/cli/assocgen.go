package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"nestor/assoc"
	"nestor/assoc/gen"
	"nestor/assoc/prove"
)

func init() { commands = append(commands, assocGenCommand) }

var assocGenCommand = &Command{
	Name: "assoc gen", Args: "--type T --leaves L [--leaves2 L] [--tuple 1|2|1,2] [--ops OPS] [--ops2 OPS] [-o FILE] [--jobs N] [--resume] [--timeout D] [--rlimit N] [--classes [--max-classes N]] [--min-leaves L --merge FILE] [--from-journal FILE]",
	Summary: `generate the table of elementary associative operators of a type

Enumerates the canonical 1- and 2-tuple expression trees in x, y and a
generic constant k with at most L leaves (the paper's "Generating
Elementary Operators"), and keeps those that pass, in order: random tests
of f(f(x,y),z) = f(x,f(y,z)) with edge values, a dependence on x and y,
not being decomposable, and a Z3 proof of associativity; each kept
operator gets its identity (synthesized by Z3, "none" when there is none)
and its commutativity (decided by Z3). The primitives of
assoc/tables/hand.txt (complex, 2x2 matrix and quaternion products) are
proved and added unless --hand=false.

The table is written to FILE (standard output without -o), in the format
that assoc.LoadTable reads, with the command that regenerates it at the
top; a FILE ending in .txt gets its packed form beside it (.bin, what
nestor loads: assoc/tablebin.go). Progress goes to standard error; the
statistics per number of leaves (candidates, passed random,
non-decomposable, proved, time) are printed at the end. Z3 outcomes are journaled in FILE.journal as they
come: after an interruption, run the same command with --resume to
continue. Needs z3 (Debian's package z3).

--classes groups the candidates that reach Z3 by their values on fixed
points: one proof per class, each other member shown equal to it (normal
forms, else one Z3 query) and given its identity and commutativity
(assoc/gen/genclass.go), the largest classes first; its progress lines
count the classes done and estimate the time left. A --classes run
bounds each Z3 query by Z3's deterministic resource count (--rlimit,
default gen.DefaultClassRlimit) unless --timeout or --rlimit is given,
so that it gives the same table on a loaded machine as on an idle one,
and resumed as uninterrupted. --max-classes N decides only the N
largest classes (the others' candidates are left out): a budget that,
being a count, keeps the table deterministic; a later run with a larger
N, resumed from the journal, extends it. --min-leaves L with --merge FILE extends a table:
only candidates of L leaves and more are generated, and FILE's entries
are kept (its hand primitives too with --hand=false). --from-journal
FILE writes the table of what the journal of a run still going on or
interrupted records as proved (each entry proved; the candidates not yet
reached are missing), without generating.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		typ := fs.String("type", "", "element `type`: bool, int8 … int64, uint8 … uint64, float32, float64")
		leaves := fs.Int("leaves", 0, "at most `L` leaves per operator (whole tuple)")
		leaves2 := fs.Int("leaves2", 0, "at most `L` leaves for 2-tuples (default: --leaves)")
		tuple := fs.String("tuple", "1,2", "tuple `sizes` to enumerate: 1, 2 or 1,2")
		outFile := fs.String("o", "", "write the table to `FILE`")
		jobs := fs.Int("jobs", 0, "`N` workers, each with its z3 processes (default: the number of CPUs)")
		resume := fs.Bool("resume", false, "continue an interrupted run from its journal")
		journal := fs.String("journal", "", "journal `FILE` (default: the output file with .journal appended)")
		timeout := fs.Duration("timeout", gen.DefaultGenTimeout, "bound on each Z3 query")
		rlimit := fs.Uint64("rlimit", 0, "bound each Z3 query by `N` units of Z3's deterministic resource count instead of --timeout (a table that does not depend on the machine's load; default with --classes and no --timeout: gen.DefaultClassRlimit)")
		hand := fs.Bool("hand", true, "add the hand-written primitives of assoc/tables/hand.txt")
		opsFlag := fs.String("ops", "", "operations of the enumeration, e.g. \"+ - * min max\", or \"all\" (default: gen.DefaultOps)")
		ops2Flag := fs.String("ops2", "", "operations for 2-tuples (default: --ops)")
		samples := fs.Int("samples", gen.DefaultSamples, "random draws per candidate")
		seed := fs.Uint64("seed", 1, "seed of the random draws")
		quiet := fs.Bool("quiet", false, "no progress lines")
		maxClasses := fs.Int("max-classes", 0, "with --classes, decide only the `N` largest classes (0: all)")
		classes := fs.Bool("classes", false, "group the elementary candidates by their values on fixed points and prove one per class, the others shown equal to it (integer and bool types)")
		minLeaves := fs.Int("min-leaves", 0, "skip the candidates with fewer than `L` leaves (a run that extends a table: see --merge)")
		fromJournal := fs.String("from-journal", "", "write the table of the operators the journal `FILE` of an interrupted run records as proved, without generating (one tuple size)")
		merge := fs.String("merge", "", "keep the entries of the table `FILE` (one of the same type) beside the generated ones")
		addHand := fs.Bool("add-hand", false, "prove the primitives of assoc/tables/hand.txt that the table -o FILE lacks and add them to it, keeping its entries")
		return func(out io.Writer, args []string) error {
			if len(args) > 0 {
				return UsageError{fmt.Sprintf("unexpected argument %q", args[0])}
			}
			if *typ == "" {
				return UsageError{"--type is required"}
			}
			t, err := assoc.ParseType(*typ)
			if err != nil {
				return UsageError{strings.TrimPrefix(err.Error(), "assoc: ")}
			}
			given := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
			if *maxClasses < 0 || *maxClasses > 0 && !*classes {
				return UsageError{"--max-classes N needs --classes, and N not negative"}
			}
			if *classes && !given["timeout"] && !given["rlimit"] {
				*rlimit = gen.DefaultClassRlimit
			}
			if *addHand {
				if *outFile == "" {
					return UsageError{"--add-hand needs -o FILE, the table to extend"}
				}
				return addHandPrimitives(out, t, *outFile, *timeout, *rlimit)
			}
			if *leaves < 2 {
				return UsageError{fmt.Sprintf("--leaves %d: an operator reads x and y, so it needs at least 2 leaves", *leaves)}
			}
			if *leaves2 == 0 {
				*leaves2 = *leaves
			}
			sizes, err := parseTupleSizes(*tuple)
			if err != nil {
				return UsageError{err.Error()}
			}
			ops, err := parseOpsFlag(*opsFlag, t)
			if err != nil {
				return err
			}
			ops2 := ops
			if *ops2Flag != "" {
				if ops2, err = parseOpsFlag(*ops2Flag, t); err != nil {
					return err
				}
			}
			if *samples < 1 || *jobs < 0 || *timeout <= 0 {
				return UsageError{"--samples and --timeout must be positive, --jobs not negative"}
			}
			if *resume && *journal == "" && *outFile == "" {
				return UsageError{"--resume needs -o FILE or --journal FILE"}
			}
			var progress io.Writer = os.Stderr
			if *quiet {
				progress = nil
			}
			statsOut := io.Writer(os.Stderr)
			if *outFile != "" {
				statsOut = out
			}
			tb := &assoc.Table{Type: t, Version: assoc.TableVersion}
			ver, err := prove.Z3Version()
			if err != nil {
				return err
			}
			tb.Prover = "z3 " + ver
			var summary []string
			var journals []string
			for _, size := range sizes {
				max, ops := *leaves, ops
				if size == 2 {
					max, ops = *leaves2, ops2
				}
				jname := *journal
				if jname == "" && *outFile != "" {
					jname = *outFile + ".journal"
				}
				if jname != "" && len(sizes) > 1 {
					jname += strconv.Itoa(size)
				}
				cfg := gen.GenConfig{
					Type: t, MaxLeaves: max, TupleSize: size, Ops: ops, Samples: *samples, Seed: *seed,
					Jobs: *jobs, Timeout: *timeout, ResourceLimit: *rlimit, Journal: jname, Resume: *resume, Progress: progress,
					MinLeaves: *minLeaves, Classes: *classes, MaxClasses: *maxClasses,
				}
				if *fromJournal != "" {
					entries, err := gen.ReadJournal(*fromJournal, t)
					if err != nil {
						return err
					}
					tb.Entries = append(tb.Entries, entries...)
					tb.Generators = append(tb.Generators, fmt.Sprintf("tuple=%d leaves=%d ops=%q samples=%d seed=%d timeout=%v partial=%s",
						size, max, ops.String(), *samples, *seed, *timeout, filepath.Base(*fromJournal)))
					summary = append(summary, fmt.Sprintf("%d-tuples: %d operators proved so far, from the journal of an interrupted run (%s)", size, len(entries), filepath.Base(*fromJournal)))
					continue
				}
				entries, stats, err := gen.Generate(cfg)
				if stats != nil {
					stats.Print(statsOut)
				}
				if err != nil {
					if jname != "" {
						return fmt.Errorf("%v (rerun with --resume to continue from %s)", err, jname)
					}
					return err
				}
				tb.Entries = append(tb.Entries, entries...)
				gen := fmt.Sprintf("tuple=%d leaves=%d ops=%q samples=%d seed=%d timeout=%v", size, max, ops.String(), *samples, *seed, *timeout)
				if *minLeaves > 2 {
					gen += fmt.Sprintf(" min-leaves=%d", *minLeaves)
				}
				if *classes {
					gen += " classes"
				}
				if *maxClasses > 0 {
					gen += fmt.Sprintf(" max-classes=%d", *maxClasses)
				}
				if *rlimit > 0 {
					gen += fmt.Sprintf(" rlimit=%d", *rlimit)
				}
				tb.Generators = append(tb.Generators, gen)
				summary = append(summary, describeStats(stats))
				if jname != "" {
					journals = append(journals, jname)
				}
			}
			if *merge != "" {
				old, err := assoc.ReadTableFile(*merge)
				if err != nil {
					return err
				}
				if old.Type != t {
					return fmt.Errorf("%s: a table of %v, not %v", *merge, old.Type, t)
				}
				have := map[string]bool{}
				for _, e := range tb.Entries {
					have[e.Tuple.String()] = true
				}
				kept := 0
				for _, e := range old.Entries {
					if !have[e.Tuple.String()] && (e.Name == "" || !*hand) {
						tb.Entries = append(tb.Entries, e)
						have[e.Tuple.String()] = true
						kept++
					}
				}
				tb.Generators = append(old.Generators, tb.Generators...)
				summary = append(summary, fmt.Sprintf("merged: %d entries of %s", kept, *merge))
			}
			if *hand && t != assoc.Bool {
				hops, err := assoc.HandOps()
				if err != nil {
					return err
				}
				start := time.Now()
				entries, err := gen.GenerateHand(t, hops, *timeout, *rlimit)
				if err != nil {
					return err
				}
				var names []string
				for _, h := range hops {
					names = append(names, h.Name)
				}
				tb.Entries = append(tb.Entries, entries...)
				tb.Generators = append(tb.Generators, "hand="+strings.Join(names, ","))
				fmt.Fprintf(statsOut, "%v hand primitives: %d proved in %v\n", t, len(entries), time.Since(start).Round(time.Millisecond))
			}
			assoc.SortEntries(tb.Entries)
			cmdline := regenCommand(t, *leaves, *leaves2, sizes, *opsFlag, *ops2Flag, *samples, *seed, *timeout, *rlimit, *hand, *outFile)
			if *minLeaves > 2 || *classes || *merge != "" || *fromJournal != "" {
				var extra []string
				if *fromJournal != "" {
					extra = append(extra, "--from-journal "+*fromJournal)
				}
				if *minLeaves > 2 {
					extra = append(extra, fmt.Sprintf("--min-leaves %d", *minLeaves))
				}
				if *classes {
					extra = append(extra, "--classes")
				}
				if *maxClasses > 0 {
					extra = append(extra, fmt.Sprintf("--max-classes %d", *maxClasses))
				}
				if *merge != "" {
					extra = append(extra, "--merge "+*merge)
				}
				cmdline = strings.Replace(cmdline, "nestor assoc gen", "nestor assoc gen "+strings.Join(extra, " "), 1)
			}
			comments := []string{
				fmt.Sprintf("Elementary associative operators of %v for nestor's assoc package (issue 5),", t),
				"generated and proved by Z3; do not edit. Regenerate with:",
				"",
				"    " + cmdline,
				"",
			}
			comments = append(comments, summary...)
			comments = append(comments, "", "Format: see assoc/table.go. Fields: flags (c commutative, w associative",
				"with wrap-around too, r reals only) and leaves ; identity ; operator ; proof [; name].")
			var buf bytes.Buffer
			if err := tb.Write(&buf, comments...); err != nil {
				return err
			}
			if *outFile == "" {
				_, err := out.Write(buf.Bytes())
				return err
			}
			if err := writeTable(*outFile, buf.Bytes(), tb); err != nil {
				return err
			}
			for _, j := range journals {
				if *fromJournal != "" || *maxClasses > 0 {
					break // the run goes on, or may be extended: keep its journal
				}
				if err := os.Remove(j); err != nil && !errors.Is(err, os.ErrNotExist) {
					return err
				}
			}
			fmt.Fprintf(out, "wrote %s: %d entries\n", *outFile, len(tb.Entries))
			return nil
		}
	},
}

// addHandPrimitives proves the hand primitives that the table in file
// lacks (by name and by operator) and writes the table back with them,
// its header extended by the command that added them.
func addHandPrimitives(out io.Writer, t assoc.Type, file string, timeout time.Duration, rlimit uint64) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	tb, err := assoc.LoadTable(bytes.NewReader(src), file)
	if err != nil {
		return err
	}
	if tb.Type != t {
		return fmt.Errorf("%s: a table of %v, not %v", file, tb.Type, t)
	}
	have := map[string]bool{}
	for _, e := range tb.Entries {
		have[e.Name] = true
		have[e.Operator.Tuple.String()] = true
	}
	hops, err := assoc.HandOps()
	if err != nil {
		return err
	}
	var missing []assoc.HandOp
	for _, h := range hops {
		if !have[h.Name] {
			missing = append(missing, h)
		}
	}
	start := time.Now()
	entries, err := gen.GenerateHand(t, missing, timeout, rlimit)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if have[e.Operator.Tuple.String()] {
			continue // generated already, under no name
		}
		tb.Entries = append(tb.Entries, e)
		names = append(names, e.Name)
	}
	assoc.SortEntries(tb.Entries)
	// The header: the file's comment lines, and the command that added these.
	var comments []string
	for _, l := range strings.Split(string(src), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		comments = append(comments, strings.TrimPrefix(strings.TrimPrefix(l, "#"), " "))
	}
	if len(names) > 0 {
		tb.Generators = append(tb.Generators, "hand="+strings.Join(names, ","))
		comments = append(comments, "", "Then the hand primitives "+strings.Join(names, ", ")+" were added with:", "",
			fmt.Sprintf("    nestor assoc gen --type %v --add-hand%s -o %s", t, rlimitFlag(rlimit), file))
	}
	var buf bytes.Buffer
	if err := tb.Write(&buf, comments...); err != nil {
		return err
	}
	if err := writeTable(file, buf.Bytes(), tb); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: %d hand primitives added (%s) in %v; %d entries\n", file, len(names), strings.Join(names, ", "),
		time.Since(start).Round(time.Millisecond), len(tb.Entries))
	return nil
}

// writeTable writes a table's text to file and, when file is a .txt,
// its packed form beside it (file.bin: what a process loads, see
// assoc/tablebin.go), so that a shipped table regenerated in place stays
// in step with its packing. The packing is of the text read back, as go
// generate packs it.
func writeTable(file string, text []byte, _ *assoc.Table) error {
	if err := os.WriteFile(file, text, 0o644); err != nil {
		return err
	}
	base, ok := strings.CutSuffix(file, ".txt")
	if !ok {
		return nil
	}
	tb, err := assoc.LoadTable(bytes.NewReader(text), file)
	if err != nil {
		return err
	}
	packed, err := tb.MarshalBinary()
	if err != nil {
		return err
	}
	return os.WriteFile(base+".bin", packed, 0o644)
}

// parseOpsFlag reads --ops: "" for the default set, "all", or a list.
func parseOpsFlag(s string, t assoc.Type) (gen.Ops, error) {
	switch s {
	case "":
		return gen.DefaultOps(t), nil
	case "all":
		return gen.AllOps(t), nil
	}
	ops, err := gen.ParseOps(s, t)
	if err != nil {
		return nil, UsageError{strings.TrimPrefix(err.Error(), "assoc: ")}
	}
	return ops, nil
}

// parseTupleSizes reads --tuple: 1, 2 or 1,2.
func parseTupleSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 2 {
			return nil, fmt.Errorf("--tuple %q: want 1, 2 or 1,2", s)
		}
		if len(out) > 0 && out[len(out)-1] >= n {
			return nil, fmt.Errorf("--tuple %q: want 1, 2 or 1,2", s)
		}
		out = append(out, n)
	}
	return out, nil
}

// describeStats writes a run's counts for the table's header comment:
// counts only, no times, so that regenerating gives the same file.
func describeStats(s *gen.GenStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d-tuples:", s.TupleSize)
	for _, l := range s.Levels {
		if l.Candidates == 0 {
			continue
		}
		fmt.Fprintf(&b, " %d leaves %d candidates %d random %d elementary %d proved;", l.Leaves, l.Candidates, l.PassedRandom, l.NonDecomposable, l.Proved)
	}
	return strings.TrimSuffix(b.String(), ";")
}

// regenCommand writes the command line that regenerates a table.
func regenCommand(t assoc.Type, leaves, leaves2 int, sizes []int, ops, ops2 string, samples int, seed uint64, timeout time.Duration, rlimit uint64, hand bool, out string) string {
	var parts []string
	parts = append(parts, "nestor assoc gen", "--type "+t.String(), fmt.Sprintf("--leaves %d", leaves))
	var ss []string
	for _, s := range sizes {
		ss = append(ss, strconv.Itoa(s))
	}
	parts = append(parts, "--tuple "+strings.Join(ss, ","))
	if leaves2 != leaves && len(sizes) > 0 && sizes[len(sizes)-1] == 2 {
		parts = append(parts, fmt.Sprintf("--leaves2 %d", leaves2))
	}
	if ops != "" {
		parts = append(parts, fmt.Sprintf("--ops %q", ops))
	}
	if ops2 != "" {
		parts = append(parts, fmt.Sprintf("--ops2 %q", ops2))
	}
	if samples != gen.DefaultSamples {
		parts = append(parts, fmt.Sprintf("--samples %d", samples))
	}
	if seed != 1 {
		parts = append(parts, fmt.Sprintf("--seed %d", seed))
	}
	if timeout != gen.DefaultGenTimeout {
		parts = append(parts, "--timeout "+timeout.String())
	}
	if rlimit > 0 {
		parts = append(parts, strings.TrimSpace(rlimitFlag(rlimit)))
	}
	if !hand {
		parts = append(parts, "--hand=false")
	}
	if out != "" {
		parts = append(parts, "-o "+out)
	}
	return strings.Join(parts, " ")
}

// rlimitFlag writes the --rlimit flag of a command line (" --rlimit N"),
// "" for none.
func rlimitFlag(rlimit uint64) string {
	if rlimit == 0 {
		return ""
	}
	return fmt.Sprintf(" --rlimit %d", rlimit)
}
