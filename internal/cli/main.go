package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"nestor/pipeline"
)

// version is the release of nestor; builds may override it with -ldflags.
var version = "0.1.0-dev"

// A Command is one subcommand: its flags are registered by Setup, whose
// result does the work on the positional arguments.
type Command struct {
	Name, Args, Summary string
	Setup               func(fs *flag.FlagSet) RunFunc
	// External names the program that runs the command instead (with
	// the same arguments), when this binary does not link its code.
	External string
}

// A RunFunc does a command's work on its positional arguments, writing
// its results to out.
type RunFunc func(out io.Writer, args []string) error

var commands = []*Command{optCommand, checkCommand, depsCommand, schedCommand, benchCommand, machineCommand, versionCommand}

// A command whose name has two words ("assoc gen") is a subcommand: the
// files that define them append them to commands in an init function.

// Register adds a command, or replaces the one of the same name in place
// (the nestor-tune binary replaces the stubs of tune and worker).
func Register(c *Command) {
	for i, old := range commands {
		if old.Name == c.Name {
			commands[i] = c
			return
		}
	}
	commands = append(commands, c)
}

// A UsageError is a mistake on the command line (exit status 2).
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// exitError carries an exit status with an error already reported.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// Main runs the command line of the process and exits with its status.
func Main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(pipeline.GCPercent)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Run runs the command line args, writing to out and errw, and returns
// the exit status.
func Run(args []string, out, errw io.Writer) int { return run(args, out, errw) }

func run(args []string, out, errw io.Writer) int {
	if len(args) == 0 {
		usage(errw)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		if len(args) > 1 {
			if c, _ := lookupArgs(args[1:]); c != nil {
				if c.External != "" {
					return runExternal(c, args, out, errw)
				}
				fs := newFlagSet(c)
				c.Setup(fs)
				fs.SetOutput(out)
				fs.Usage()
				return 0
			}
		}
		usage(out)
		return 0
	}
	c, rest := lookupArgs(args)
	if c == nil {
		if sub := subcommands(name); len(sub) > 0 {
			if len(args) > 1 {
				fmt.Fprintf(errw, "nestor %s: unknown subcommand %q\n\n", name, args[1])
			}
			usage(errw)
			return 2
		}
		fmt.Fprintf(errw, "nestor: unknown command %q\n\n", name)
		usage(errw)
		return 2
	}
	if c.External != "" {
		return runExternal(c, args, out, errw)
	}
	fs := newFlagSet(c)
	do := c.Setup(fs)
	// The flag package prints its message and calls Usage; both are
	// replaced: --help prints the command's help on standard output, a bad
	// flag the message and one usage line, as go tools do.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	pos, err := parseInterspersed(fs, compilerStyle(rest))
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(out)
		printHelp(fs, c)
		return 0
	}
	if err != nil {
		fmt.Fprintf(errw, "nestor %s: %v\n", c.Name, err)
		shortUsage(errw, c)
		return 2
	}
	err = do(out, pos)
	var ue UsageError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(errw, "nestor %s: %s\n", c.Name, ue.Msg)
		shortUsage(errw, c)
		return 2
	case errors.As(err, &ee):
		return ee.code
	}
	fmt.Fprintln(errw, err)
	return 1
}

// lookupArgs finds the command args name: "assoc gen" takes two words.
// It returns the command and the arguments after its name.
func lookupArgs(args []string) (*Command, []string) {
	if len(args) > 1 {
		if c := lookup(args[0] + " " + args[1]); c != nil {
			return c, args[2:]
		}
	}
	if c := lookup(args[0]); c != nil {
		return c, args[1:]
	}
	return nil, nil
}

// subcommands returns the commands "name …".
func subcommands(name string) []*Command {
	var cs []*Command
	for _, c := range commands {
		if strings.HasPrefix(c.Name, name+" ") {
			cs = append(cs, c)
		}
	}
	return cs
}

func lookup(name string) *Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func newFlagSet(c *Command) *flag.FlagSet {
	fs := flag.NewFlagSet("nestor "+c.Name, flag.ContinueOnError)
	fs.Usage = func() { printHelp(fs, c) }
	return fs
}

// printHelp prints the help of command c, whose flags fs holds, to
// fs.Output().
func printHelp(fs *flag.FlagSet, c *Command) {
	w := fs.Output()
	fmt.Fprintf(w, "usage: nestor %s %s\n\n%s\n\nflags:\n", c.Name, c.Args, c.Summary)
	fs.PrintDefaults()
}

// shortUsage prints the one usage line that follows a usage error.
func shortUsage(w io.Writer, c *Command) {
	fmt.Fprintf(w, "usage: nestor %s %s (see nestor help %s)\n", c.Name, c.Args, c.Name)
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "nestor %s: a loop-nest optimizer for static-control C\n\nusage: nestor COMMAND [flags] FILE\n\ncommands:\n", version)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, FirstLine(c.Summary))
	}
	fmt.Fprintf(w, "\nRun 'nestor help COMMAND' for a command's flags.\n")
}

// FirstLine is s up to its first newline.
func FirstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (nestor opt in.c -o out.c), as compilers accept.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// compilerStyle splits the attached forms -DNAME=V and -Idir into two
// arguments, so that "-DN=100" works as it does with cc.
func compilerStyle(args []string) []string {
	var out []string
	for _, a := range args {
		if len(a) > 2 && (strings.HasPrefix(a, "-D") || strings.HasPrefix(a, "-I")) && a[2] != '-' {
			out = append(out, a[:2], a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, " ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// paramFlag is a repeatable name=value flag for parameter values.
type ParamFlag map[string]int64

func (p ParamFlag) String() string {
	var s []string
	for k, v := range p {
		s = append(s, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}

func (p ParamFlag) Set(v string) error {
	name, val, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=value, got %q", v)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(val), 10, 64)
	if err != nil {
		return fmt.Errorf("value of %s is not an integer: %q", name, val)
	}
	if n < 0 {
		return fmt.Errorf("value of %s is negative (%d): parameters are sizes", name, n)
	}
	p[name] = n
	return nil
}

// tolFlag is a relative tolerance: a non-negative number, 0 meaning exact
// equality. It records whether it was given.
type tolFlag struct {
	v   float64
	set bool
}

func (t *tolFlag) String() string {
	if t == nil || !t.set {
		return ""
	}
	return strconv.FormatFloat(t.v, 'g', -1, 64)
}

func (t *tolFlag) Set(s string) error {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
		return fmt.Errorf("want a non-negative number (0: exact equality), got %q", s)
	}
	t.v, t.set = x, true
	return nil
}

var versionCommand = &Command{
	Name: "version", Args: "", Summary: "print nestor's version",
	Setup: func(fs *flag.FlagSet) RunFunc {
		return func(out io.Writer, args []string) error {
			fmt.Fprintf(out, "nestor %s\n", version)
			return nil
		}
	},
}
