package dist

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func needCC(t *testing.T) {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s)", cc)
	}
}

func cbench(t *testing.T, p CBenchTask) (*CBenchResult, error) {
	t.Helper()
	payload, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	out, err := CBench(context.Background(), Task{ID: "t", Kind: CBenchKind, Payload: payload})
	if err != nil {
		return nil, err
	}
	var r CBenchResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	return &r, nil
}

const echoC = `#include <stdio.h>
#include <stdlib.h>
#include "two.h"
int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++) printf("%s ", argv[i]);
	printf("%s %d\n", getenv("CBENCH_TEST"), TWO);
	return argc - 1;
}
`

func TestCBench(t *testing.T) {
	needCC(t)
	files := map[string]string{"main.c": echoC, "two.h": "#define TWO 2\n"}
	for _, tc := range []struct {
		name    string
		p       CBenchTask
		exit    int
		runs    int
		stdout  string
		timeout bool
		trunc   bool
		err     string
	}{
		// three successful runs; the header is found, env and flags pass
		{name: "runs", p: CBenchTask{Files: files, CFlags: []string{"-O2"}, Env: []string{"CBENCH_TEST=hi"}, Runs: 3},
			runs: 3, stdout: "hi 2\n"},
		// a non-zero status is a result, and stops the runs
		{name: "exit", p: CBenchTask{Files: files, Args: []string{"a", "b"}, Env: []string{"CBENCH_TEST=x"}, Runs: 3},
			exit: 2, runs: 1, stdout: "a b x 2\n"},
		{name: "compile error", p: CBenchTask{Files: map[string]string{"bad.c": "int main( {"}}, err: "bad.c"},
		{name: "timeout", p: CBenchTask{Files: map[string]string{"loop.c": "int main(void) { for (;;); }"}, Timeout: "300ms"},
			exit: -1, runs: 1, timeout: true},
		// 100 KiB of output is cut to 64 KiB
		{name: "cap", p: CBenchTask{Files: map[string]string{"big.c": `#include <stdio.h>
int main(void) { for (int i = 0; i < 100*1024; i++) putchar('x'); return 0; }`}},
			runs: 1, stdout: strings.Repeat("x", CBenchMaxOutput), trunc: true},
		{name: "path", p: CBenchTask{Files: map[string]string{"../x.c": "int main;"}}, err: "plain name"},
		{name: "no files", p: CBenchTask{}, err: "no files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := cbench(t, tc.p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Exit != tc.exit || len(r.Times) != tc.runs || r.TimedOut != tc.timeout || r.Truncated != tc.trunc {
				t.Errorf("exit %d, %d runs, timed out %v, truncated %v; want %d, %d, %v, %v",
					r.Exit, len(r.Times), r.TimedOut, r.Truncated, tc.exit, tc.runs, tc.timeout, tc.trunc)
			}
			if tc.stdout != "" && r.Stdout != tc.stdout {
				t.Errorf("stdout %.80q (%d bytes), want %.80q", r.Stdout, len(r.Stdout), tc.stdout)
			}
		})
	}
}

// TestCBenchQueue runs cbench tasks through the queue with local
// workers: the registered evaluator answers them.
func TestCBenchQueue(t *testing.T) {
	needCC(t)
	ctx := context.Background()
	c, err := Start(ctx, Options{LocalSlots: 2, Prefix: "nestor.test.cbench"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var tasks []Task
	for i, arg := range []string{"x", "y y", "z"} {
		p, _ := json.Marshal(CBenchTask{Files: map[string]string{"main.c": echoC, "two.h": "#define TWO 2\n"},
			Args: []string{arg}, Env: []string{"CBENCH_TEST=q"}})
		tasks = append(tasks, Task{ID: string(rune('a' + i)), Kind: CBenchKind, Payload: p})
	}
	if _, err := c.Submit(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	for _, r := range takeResults(t, c, len(tasks)) {
		var out CBenchResult
		if r.Err != "" || json.Unmarshal(r.Payload, &out) != nil {
			t.Fatalf("task %s: %s %s", r.TaskID, r.Err, r.Payload)
		}
		arg := []string{"x", "y y", "z"}[r.TaskID[0]-'a']
		if want := arg + " q 2\n"; out.Stdout != want || out.Exit != 1 {
			t.Errorf("task %s: exit %d, stdout %q; want 1, %q", r.TaskID, out.Exit, out.Stdout, want)
		}
	}
}
