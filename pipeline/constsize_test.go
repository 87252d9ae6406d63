package pipeline

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"nestor/check"
	"nestor/frontend"
)

// TestConstantSizes runs the constant-size programs of testdata/peers
// (size_*.c: #define N 500 and the like, whose Farkas systems overflow
// int64) through the scheduled pipeline with the skewed schedules kept
// (KeepCached off): each must be scheduled with its sizes as parameters,
// as the note says, and compute what the original computes.
func TestConstantSizes(t *testing.T) {
	files, _ := filepath.Glob("../testdata/peers/size_*.c")
	if len(files) == 0 {
		t.Fatal("no testdata/peers/size_*.c")
	}
	_, ccErr := exec.LookPath("cc")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := frontend.ParseFile(path, frontend.Config{})
			if err != nil {
				t.Fatal(err)
			}
			var notes bytes.Buffer
			o := DefaultOptions()
			o.Check, o.KeepCached, o.Notes = true, false, &notes
			out, err := Optimize(f, o)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(notes.String(), "as parameters") {
				t.Fatalf("not scheduled through its lifted copy; notes:\n%s", notes.String())
			}
			if strings.Contains(notes.String(), "kept the original order") {
				t.Fatalf("kept the original order:\n%s", notes.String())
			}
			if testing.Short() || ccErr != nil {
				return
			}
			expectOriginal(t, f, out, check.Options{Runs: 1, Threads: []int{2}})
		})
	}
}
