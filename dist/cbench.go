package dist

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func init() { Register(CBenchKind, CBench) }

// CBenchKind is the kind of the built-in evaluator CBench.
const CBenchKind = "cbench"

const (
	// CBenchMaxOutput caps the standard output (and compiler messages) a
	// cbench result carries.
	CBenchMaxOutput = 64 << 10
	// CBenchDefaultTimeout bounds each run when the task gives no timeout.
	CBenchDefaultTimeout = time.Minute
	// CBenchCompileTimeout bounds the compilation.
	CBenchCompileTimeout = 10 * time.Minute
	// cbenchMaxRuns bounds CBenchTask.Runs.
	cbenchMaxRuns = 1000
)

// CBenchTask is the payload of a cbench task: C files to compile into one
// program and run.
type CBenchTask struct {
	Files  map[string]string `json:"files"`  // file name (no folders) → C source
	CC     string            `json:"cc"`     // compiler (default $CC, else cc)
	CFlags []string          `json:"cflags"` // compiler flags, e.g. ["-O2"]
	Args   []string          `json:"args"`   // the program's arguments
	Env    []string          `json:"env"`    // NAME=VALUE added to the worker's environment
	Runs   int               `json:"runs"`   // runs of the program (default 1)
	// Timeout bounds each run (a Go duration, e.g. "30s"; default
	// CBenchDefaultTimeout); a run past it ends with TimedOut.
	Timeout string `json:"timeout,omitempty"`
}

// CBenchResult is the payload of a cbench result.
type CBenchResult struct {
	// Exit is the exit status of the last run (-1 if a signal or the
	// timeout ended it); runs stop at the first non-zero status.
	Exit     int       `json:"exit"`
	TimedOut bool      `json:"timed_out,omitempty"`
	Compile  float64   `json:"compile_s"` // compilation wall time, seconds
	Times    []float64 `json:"times_s"`   // wall time of each run, seconds
	// Stdout is the standard output of the last run, at most
	// CBenchMaxOutput bytes; Truncated says it was cut.
	Stdout    string `json:"stdout"`
	Truncated bool   `json:"truncated,omitempty"`
}

// CBench is the evaluator of kind "cbench": it compiles the task's files in
// a temporary folder and runs the program Runs times. A compilation
// failure is an error (with the compiler's messages); a failing run is a
// result with its exit status.
func CBench(ctx context.Context, t Task) (json.RawMessage, error) {
	var p CBenchTask
	if err := json.Unmarshal(t.Payload, &p); err != nil {
		return nil, fmt.Errorf("dist: cbench payload: %v", err)
	}
	res, err := runCBench(ctx, p)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

func runCBench(ctx context.Context, p CBenchTask) (*CBenchResult, error) {
	if len(p.Files) == 0 {
		return nil, errors.New("dist: cbench: no files")
	}
	timeout := CBenchDefaultTimeout
	if p.Timeout != "" {
		d, err := time.ParseDuration(p.Timeout)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("dist: cbench: timeout %q: want a positive duration", p.Timeout)
		}
		timeout = d
	}
	if p.Runs == 0 {
		p.Runs = 1
	}
	if p.Runs < 0 || p.Runs > cbenchMaxRuns {
		return nil, fmt.Errorf("dist: cbench: runs %d: want 1 to %d", p.Runs, cbenchMaxRuns)
	}
	cc := p.CC
	if cc == "" {
		cc = os.Getenv("CC")
	}
	if cc == "" {
		cc = "cc"
	}
	dir, err := os.MkdirTemp("", "nestor-cbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var sources []string
	for name, src := range p.Files {
		if name == "" || name != filepath.Base(name) || name == "." || name == ".." {
			return nil, fmt.Errorf("dist: cbench: file name %q: want a plain name", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			return nil, err
		}
		if strings.HasSuffix(name, ".c") {
			sources = append(sources, name)
		}
	}
	if len(sources) == 0 {
		return nil, errors.New("dist: cbench: no .c file")
	}
	sort.Strings(sources)
	args := append(append(append([]string{}, p.CFlags...), sources...), "-o", "prog", "-lm")
	cctx, cancel := context.WithTimeout(ctx, CBenchCompileTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, cc, args...)
	cmd.Dir = dir
	start := time.Now()
	msgs, err := cmd.CombinedOutput()
	res := &CBenchResult{Compile: time.Since(start).Seconds()}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("dist: cbench: %s: %v\n%s", cc, err, capBytes(msgs))
	}
	for range p.Runs {
		rctx, cancel := context.WithTimeout(ctx, timeout)
		cmd := exec.CommandContext(rctx, filepath.Join(dir, "prog"), p.Args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), p.Env...)
		out := &cappedBuffer{max: CBenchMaxOutput}
		cmd.Stdout = out
		start := time.Now()
		err := cmd.Run()
		res.Times = append(res.Times, time.Since(start).Seconds())
		timedOut := errors.Is(rctx.Err(), context.DeadlineExceeded)
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		res.Stdout, res.Truncated = out.buf.String(), out.cut
		var ee *exec.ExitError
		switch {
		case err == nil:
			res.Exit = 0
		case timedOut:
			res.Exit, res.TimedOut = -1, true
		case errors.As(err, &ee):
			res.Exit = ee.ExitCode()
		default:
			return nil, fmt.Errorf("dist: cbench: run: %v", err)
		}
		if res.Exit != 0 {
			break
		}
	}
	return res, nil
}

// capBytes cuts b to CBenchMaxOutput bytes.
func capBytes(b []byte) []byte {
	if len(b) > CBenchMaxOutput {
		return b[:CBenchMaxOutput]
	}
	return b
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.cut = true
	} else {
		c.buf.Write(p)
	}
	return len(p), nil
}
