package cli

import (
	"flag"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBenchUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string // in stderr
	}{
		{[]string{"bench", "--size", "HUGE", "gemm"}, `--size "HUGE"`},
		{[]string{"bench", "--threads", "1,x", "gemm"}, "--threads"},
		{[]string{"bench", "--threads", "0", "gemm"}, "--threads"},
		{[]string{"bench", "--peers", "gcc,icc", "gemm"}, `unknown version "icc"`},
		{[]string{"bench", "--runs", "0", "gemm"}, "--runs 0"},
		{[]string{"bench", "--opt-flags", "--no-such-flag", "gemm"}, "no-such-flag"},
		{[]string{"bench", "--opt-flags", "--fuse=sideways", "gemm"}, "sideways"},
		{[]string{"bench", "--corpus", "../../testdata/kernels", "no-such-kernel"}, "no file"},
		{[]string{"bench", "--corpus", t.TempDir()}, "no kernels in"},
	} {
		code, _, errw := nestor(t, tc.args...)
		if code != 2 || !strings.Contains(errw, tc.out) {
			t.Errorf("nestor %q: exit %d, stderr %q, want 2 and %q", tc.args, code, errw, tc.out)
		}
	}
}

func TestParseThreads(t *testing.T) {
	if ts, err := parseThreads(""); err != nil || ts != nil {
		t.Errorf("empty: %v, %v", ts, err)
	}
	if ts, err := parseThreads("1, 2"); err != nil || !slices.Equal(ts, []int{1, 2}) {
		t.Errorf("1, 2: %v, %v", ts, err)
	}
}

func TestParsePeers(t *testing.T) {
	for in, want := range map[string][]string{
		"nestor":                 {"gcc", "nestor"},                       // the baseline is added
		"polly,gcc,polly":        {"gcc", "polly"},                        // repeats dropped
		" gcc , openblas ,":      {"gcc", "openblas"},                     // spaces and empty items
		"polly-par,nestor,polly": {"gcc", "polly-par", "nestor", "polly"}, // bench orders them
	} {
		if got, err := parsePeers(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("parsePeers(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestOptOptions: --opt-flags selects what nestor opt would do with the
// same flags, from the same defaults.
func TestOptOptions(t *testing.T) {
	def, err := optOptions("")
	if err != nil {
		t.Fatal(err)
	}
	var src SourceFlags
	fs := flag.NewFlagSet("opt", flag.ContinueOnError)
	src.Register(fs)
	src.RegisterOpt(fs)
	want, err := src.Options(nil)
	if err != nil {
		t.Fatal(err)
	}
	if def.Schedule != want.Schedule || def.Tile != want.Tile || def.Parallel != want.Parallel || def.Fusion != want.Fusion {
		t.Errorf("no flags: %+v, nestor opt's defaults %+v", def, want)
	}
	o, err := optOptions("--tile=false --fuse max")
	if err != nil {
		t.Fatal(err)
	}
	if o.Tile || !o.Schedule || o.Fusion == want.Fusion {
		t.Errorf("--tile=false --fuse max: %+v", o)
	}
	if _, err := optOptions("gemm.c"); err == nil {
		t.Error("a file in --opt-flags: no error")
	}
}

func TestBenchKernels(t *testing.T) {
	corpus := "../../testdata/kernels"
	all, err := benchKernels(corpus, nil)
	if err != nil || len(all) != 32 {
		t.Fatalf("the corpus: %d kernels, %v", len(all), err)
	}
	got, err := benchKernels(corpus, []string{"gemm", corpus + "/lu.c"})
	if err != nil || !slices.Equal(got, []string{filepath.Join(corpus, "gemm.c"), corpus + "/lu.c"}) {
		t.Errorf("gemm and a path: %v, %v", got, err)
	}
}

func TestCommandLine(t *testing.T) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var define listFlag
	fs.Var(&define, "D", "")
	fs.Bool("markdown", false, "")
	fs.String("opt-flags", "", "")
	fs.Int("runs", 5, "")
	fs.String("o", "", "")
	if err := fs.Parse([]string{"-D", "N=10", "--markdown", "--opt-flags", "--tile=false --fuse max", "--runs", "3", "-o", "docs/BENCHMARKS.md"}); err != nil {
		t.Fatal(err)
	}
	want := ` -D N=10 --markdown -o docs/BENCHMARKS.md --opt-flags='--tile=false --fuse max' --runs=3 gemm 'it'\''s'`
	if got := commandLine(fs, []string{"gemm", "it's"}); got != want {
		t.Errorf("commandLine =\n%s, want\n%s", got, want)
	}
}
