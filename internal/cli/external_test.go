package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternal: tune and worker run nestor-tune with the same arguments
// (here a stand-in on the PATH that echoes them and exits 3), its outputs
// and exit status passed through; without it, outside nestor's source
// tree, the error says how to install it.
func TestExternal(t *testing.T) {
	dir := t.TempDir()
	fake := "#!/bin/sh\necho \"fake $*\"\necho \"on stderr\" >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, TuneBinary), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, args := range [][]string{
		{"tune", "k.c", "--budget", "2", "-o", "out.c"},
		{"tune", "--help"},
		{"help", "tune"},
		{"worker", "--server", "nats://h:4222"},
	} {
		code, out, errw := nestor(t, args...)
		if want := "fake " + strings.Join(args, " ") + "\n"; code != 3 || out != want || errw != "on stderr\n" {
			t.Errorf("nestor %q: exit %d, stdout %q, stderr %q; want 3, %q", args, code, out, errw, want)
		}
	}

	t.Setenv("PATH", t.TempDir())
	t.Chdir(t.TempDir()) // outside the source tree: nothing to build it from
	code, _, errw := nestor(t, "tune", "k.c")
	if code != 1 || !strings.Contains(errw, "go install ./cmd/...") {
		t.Errorf("without nestor-tune: exit %d, %q", code, errw)
	}
}
