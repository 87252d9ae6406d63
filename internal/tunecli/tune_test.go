package tunecli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTuneCommand runs nestor tune as a user would: a small search with
// records, the best file written (its work queue removed once it ended
// well), then the records summarized, plotted and applied by opt
// --records.
func TestTuneCommand(t *testing.T) {
	needCC(t)
	dir := t.TempDir()
	rec := filepath.Join(dir, "r.jsonl")
	out := filepath.Join(dir, "t.c")
	k := "../../testdata/kernels/atax.c"
	code, stdout, stderr := nestor(t, "tune", k, "-D", "MINI_DATASET", "--budget", "3", "--runs", "1", "--threads", "1", "--records", rec, "-o", out)
	if code != 0 {
		t.Fatalf("tune: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "after") || !strings.Contains(stdout, "wrote "+out) {
		t.Errorf("tune's report lacks the search's outcome:\n%s", stdout)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	// One line per evaluation, then the final measures of the default
	// and the fastest others (--confirm).
	evals, confirmed := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(l, `"confirmed":true`) {
			confirmed++
		} else {
			evals++
		}
	}
	if evals < 1 || evals > 3 {
		t.Errorf("%d evaluations recorded for a budget of 3", evals)
	}
	if evals >= 2 && confirmed < 2 {
		t.Errorf("%d confirmed measures after %d evaluations, want the default's and the best other's at least", confirmed, evals)
	}
	if evals >= 2 && !strings.Contains(stdout, "measured again") {
		t.Errorf("tune's report lacks the confirmed measures:\n%s", stdout)
	}
	// The run ended well: its queue, kept for --resume, is gone.
	if q, err := queueDir(rec); err != nil {
		t.Error(err)
	} else if _, err := os.Stat(q); !os.IsNotExist(err) {
		t.Errorf("the finished run's queue %s is still there (%v)", q, err)
	}
	tuned, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(tuned), "#pragma scop") {
		t.Fatalf("tuned file: %v", err)
	}
	code, stdout, stderr = nestor(t, "tune", "--summary", rec)
	if code != 0 || !strings.Contains(stdout, "0 wrong results") {
		t.Errorf("tune --summary: exit %d\n%s%s", code, stdout, stderr)
	}
	svg := filepath.Join(dir, "conv.svg")
	if code, _, stderr = nestor(t, "tune", "--plot", rec, "-o", svg); code != 0 {
		t.Errorf("tune --plot: exit %d: %s", code, stderr)
	} else if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "<svg") {
		t.Errorf("tune --plot wrote no SVG")
	}
	opt := filepath.Join(dir, "o.c")
	if code, _, stderr = nestor(t, "opt", k, "-D", "MINI_DATASET", "--records", rec, "-o", opt); code != 0 {
		t.Fatalf("opt --records: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(opt); string(b) != string(tuned) {
		t.Errorf("opt --records wrote another file than tune's best")
	}
}

// TestTuneSpaceAndErrors checks --space and the usage errors.
func TestTuneSpaceAndErrors(t *testing.T) {
	code, stdout, stderr := nestor(t, "tune", "../../testdata/kernels/gemm.c", "--space")
	if code != 0 || !strings.Contains(stdout, "smart.b1.tile") || !strings.Contains(stdout, "∨") {
		t.Errorf("tune --space: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, args := range [][]string{
		{"tune", "../../testdata/kernels/gemm.c", "--budget", "0"},
		{"tune", "--plot", "x.jsonl"},
		{"tune", "-"},
	} {
		if code, _, stderr := nestor(t, args...); code != 2 {
			t.Errorf("nestor %s: exit %d, want 2 (usage)\n%s", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestTunePlotEqualTimes: records whose best time never changes (a log
// axis over an empty range) still plot.
func TestTunePlotEqualTimes(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "eq.jsonl")
	var lines []string
	for k, code := range []string{"x", "y", "z"} {
		lines = append(lines, fmt.Sprintf(`{"file":"a.c","region":0,"seed":1,"eval":%d,"default":%v,"code":%q,"bound":1e-9,"time":0.0000016,"pruned":0,"expanded":%d}`, k+1, k == 0, code, 2*k))
	}
	if err := os.WriteFile(rec, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "eq.svg")
	if code, _, stderr := nestor(t, "tune", "--plot", rec, "-o", svg); code != 0 {
		t.Fatalf("tune --plot of equal times: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "<svg") {
		t.Error("no SVG written")
	}
}
