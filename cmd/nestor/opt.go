package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"nestor/frontend"
	"nestor/pipeline"
)

// sourceFlags are the flags of every command that reads C: what a compiler
// takes, plus -check.
type sourceFlags struct {
	include, define listFlag
	check           bool
}

func (s *sourceFlags) register(fs *flag.FlagSet) {
	fs.Var(&s.include, "I", "add `dir` to the include search path (repeatable; -Idir works too)")
	fs.Var(&s.define, "D", "define macro `NAME[=VALUE]` for the preprocessor (repeatable; -DNAME=V works too)")
	fs.BoolVar(&s.check, "check", false, "verify the IR's invariants after every pass (for debugging nestor)")
}

func (s *sourceFlags) config() frontend.Config {
	return frontend.Config{IncludePaths: s.include, Defines: s.define}
}

// parse reads and parses the one C file named by args.
func (s *sourceFlags) parse(args []string) (*frontend.File, error) {
	if len(args) != 1 {
		return nil, usageError{fmt.Sprintf("want one C file, got %d arguments", len(args))}
	}
	f, err := frontend.ParseFile(args[0], s.config())
	if err != nil {
		return nil, err
	}
	if len(f.Scops) == 0 {
		return nil, fmt.Errorf("%s: no #pragma scop region: nothing to optimize", args[0])
	}
	return f, nil
}

var optCommand = &command{
	name: "opt", args: "FILE.c [-o OUT.c] [-I dir] [-D NAME[=VALUE]]",
	summary: `optimize the #pragma scop regions of a C file (like polycc)

Every region between "#pragma scop" and "#pragma endscop" is replaced by
generated code; every other byte of the file is kept, so the output drops
into the existing build. The default output is FILE.nestor.c; "-o -"
writes to standard output.`,
	setup: func(fs *flag.FlagSet) runFunc {
		var src sourceFlags
		src.register(fs)
		outPath := fs.String("o", "", "write the result to `file` (default FILE.nestor.c; - for standard output)")
		return func(out io.Writer, args []string) error {
			f, err := src.parse(args)
			if err != nil {
				return err
			}
			res, err := pipeline.Optimize(f, pipeline.Options{Check: src.check})
			if err != nil {
				return err
			}
			path := *outPath
			if path == "" {
				path = strings.TrimSuffix(f.Path, ".c") + ".nestor.c"
			}
			if path == "-" {
				_, err = out.Write(res)
				return err
			}
			return os.WriteFile(path, res, 0o644)
		}
	},
}
