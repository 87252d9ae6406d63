package tunecli

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"nestor/dist"
)

func init() {
	dist.Register("test.echo", func(ctx context.Context, t dist.Task) (json.RawMessage, error) {
		return t.Payload, nil
	})
}

func TestWorkerUsage(t *testing.T) {
	code, out, _ := nestor(t, "help", "worker")
	if code != 0 {
		t.Fatalf("help worker: exit %d", code)
	}
	for _, want := range []string{"NATS", "JetStream", "compiles and runs", "--server", "-slots", "-creds", "-tls-ca"} {
		if !strings.Contains(out, want) {
			t.Errorf("help worker does not mention %q", want)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"worker"}, 2, "want --server"},
		{[]string{"worker", "--server", "nats://127.0.0.1:4222", "--slots", "0"}, 2, "--slots 0"},
		{[]string{"worker", "--server", "nats://127.0.0.1:4222", "--tls-cert", "c.pem"}, 2, "go together"},
		{[]string{"worker", "--server", "nats://127.0.0.1:4222", "extra"}, 2, "unexpected argument"},
		// nothing listens on port 1
		{[]string{"worker", "--server", "nats://127.0.0.1:1", "-q"}, 1, "dist: connect to nats://127.0.0.1:1"},
	} {
		code, _, errw := nestor(t, tc.args...)
		if code != tc.code || !strings.Contains(errw, tc.msg) {
			t.Errorf("nestor %s: exit %d, %q; want %d and %q", strings.Join(tc.args, " "), code, errw, tc.code, tc.msg)
		}
	}
}

// TestWorkerCommand: nestor worker joins a coordinator's queue, answers
// its tasks with the registered evaluators and stops on SIGTERM.
func TestWorkerCommand(t *testing.T) {
	ctx := context.Background()
	c, err := dist.Start(ctx, dist.Options{LocalSlots: -1, Prefix: "nestor.test.cli"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tasks := []dist.Task{
		{ID: "1", Kind: "test.echo", Payload: json.RawMessage(`{"x":1}`)},
		{ID: "2", Kind: "test.echo", Payload: json.RawMessage(`[2]`)},
		{ID: "3", Kind: "no.such.kind"},
	}
	if _, err := c.Submit(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	done := make(chan int)
	go func() {
		code, out, _ := nestor(t, "worker", "--server", c.URL(), "--prefix", c.Prefix(), "--slots", "2",
			"--name", "cli", "--machine", "m1", "-q", "-v")
		if !strings.Contains(out, "test.echo 1 (delivery 1") || !strings.Contains(out, "no.such.kind 3 (delivery 1") {
			t.Errorf("-v printed %q; want a line per task", out)
		}
		done <- code
	}()
	got := map[string]dist.Result{}
	timeout := time.After(3 * time.Minute)
	for len(got) < len(tasks) {
		select {
		case r := <-c.Results():
			got[r.TaskID] = r
		case code := <-done:
			t.Fatalf("worker ended early: exit %d", code)
		case <-timeout:
			t.Fatalf("gave up after %d results", len(got))
		}
	}
	// The worker's signal handler is installed: its results came.
	syscall.Kill(syscall.Getpid(), syscall.SIGTERM)
	if code := <-done; code != 0 {
		t.Errorf("worker: exit %d after SIGTERM", code)
	}
	for _, tk := range tasks[:2] {
		if r := got[tk.ID]; string(r.Payload) != string(tk.Payload) || r.Worker != "cli" || r.Machine != "m1" || r.Err != "" {
			t.Errorf("task %s: %+v", tk.ID, r)
		}
	}
	if r := got["3"]; !strings.Contains(r.Err, "no evaluator") {
		t.Errorf("task of an unknown kind: %+v", r)
	}
}
