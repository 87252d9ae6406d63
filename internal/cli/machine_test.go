package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"nestor/model"
)

func TestMachineUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		out  string // in stderr
	}{
		{[]string{"machine", "extra"}, `unexpected argument "extra"`},
		{[]string{"machine", "--reps", "-1"}, "--reps"},
		{[]string{"machine", "--sample", "soon"}, "sample"},
	} {
		code, _, errw := nestor(t, tc.args...)
		if code != 2 || !strings.Contains(errw, tc.out) {
			t.Errorf("nestor %q: exit %d, stderr %q, want 2 and %q", tc.args, code, errw, tc.out)
		}
	}
	if code, out, _ := nestor(t, "help", "machine"); code != 0 || !strings.Contains(out, "--refresh") || !strings.Contains(out, "NESTOR_MACHINE") {
		t.Errorf("nestor help machine: exit %d, %q", code, out)
	}
	if _, out, _ := nestor(t, "help"); !strings.Contains(out, "machine") {
		t.Errorf("nestor help does not list machine:\n%s", out)
	}
}

// TestMachineKept: a kept result is printed as it is, without measuring.
func TestMachineKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.json")
	t.Setenv(model.MachineEnv, path)
	m := model.Nominal()
	m.Measured, m.Compiler, m.FMAPeak = true, "a compiler that never ran", 123e9
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	code, out, errw := nestor(t, "machine", "--json")
	var got model.Machine
	if code != 0 || json.Unmarshal([]byte(out), &got) != nil || got.FMAPeak != 123e9 || got.Compiler != m.Compiler {
		t.Fatalf("nestor machine --json: exit %d, %q, %q; want the kept machine", code, out, errw)
	}
	if code, out, _ = nestor(t, "machine"); code != 0 || !strings.Contains(out, "123 Gflop/s") || !strings.Contains(out, "DRAM") {
		t.Errorf("nestor machine: exit %d, table %q", code, out)
	}
	// --refresh measures even so: with no compiler, it fails.
	t.Setenv("CC", filepath.Join(t.TempDir(), "no-such-cc"))
	if code, _, errw = nestor(t, "machine", "--refresh"); code != 1 || !strings.Contains(errw, "no-such-cc") {
		t.Errorf("nestor machine --refresh with no compiler: exit %d, %q; want 1 and the compiler named", code, errw)
	}
}

// progress captures machineProgress during a test.
func progress(t *testing.T) *strings.Builder {
	var b strings.Builder
	old := machineProgress
	machineProgress = &b
	t.Cleanup(func() { machineProgress = old })
	return &b
}

// TestMachineMeasure: a kept file that is not a machine is reported and
// measured again (tiny samples); the result is kept where NESTOR_MACHINE
// says and written to -o.
func TestMachineMeasure(t *testing.T) {
	needCC(t)
	dir := t.TempDir()
	kept, copyTo := filepath.Join(dir, "kept.json"), filepath.Join(dir, "copy.json")
	t.Setenv(model.MachineEnv, kept)
	if err := os.WriteFile(kept, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := progress(t)
	code, out, errw := nestor(t, "machine", "--reps", "2", "--sample", "2ms", "-o", copyTo)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	if p := prog.String(); !strings.Contains(p, "measuring again") || !strings.Contains(p, "FMA throughput") || !strings.Contains(p, "kept in "+kept) {
		t.Errorf("progress: %q; want the broken file reported, one line per benchmark and where the result is kept", p)
	}
	for _, p := range []string{kept, copyTo} {
		m, err := model.ReadFile(p)
		if err != nil || !m.Measured {
			t.Errorf("%s: measured %v, %v", p, m.Measured, err)
		}
	}
	if !strings.Contains(out, "fork+join") || !strings.Contains(out, "measured") {
		t.Errorf("table: %q", out)
	}
}
