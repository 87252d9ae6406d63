package remote

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"nestor/dist"
	"nestor/frontend"
	"nestor/model"
	"nestor/pipeline"
	"nestor/tune"
)

// fakeKind is the test's evaluation: a time that depends only on the
// code (so that a search is reproducible), after a short wait (so that a
// worker can be killed in the middle of one).
const fakeKind = "tune.test.fake"

// workerEnv, when set in the environment of the test binary, makes it a
// worker of the queue at that URL instead of running the tests.
const workerEnv = "NESTOR_TUNE_TEST_WORKER"

func TestMain(m *testing.M) {
	if url := os.Getenv(workerEnv); url != "" {
		err := dist.Work(context.Background(), dist.WorkerOptions{URL: url, Prefix: "nestor.tunetest", Slots: 1, Machine: "test"},
			map[string]dist.Evaluator{fakeKind: fakeEval})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeTime is the deterministic time of a candidate's code.
func fakeTime(code string) time.Duration {
	h := sha256.Sum256([]byte(code))
	return time.Duration(1e6 + binary.LittleEndian.Uint64(h[:8])%9e6) // 1 to 10 ms
}

// holdEnv, when set in a worker's environment, names a file the worker
// creates at its third evaluation, which it then never finishes: the
// test kills it there, in the middle of an evaluation.
const holdEnv = "NESTOR_TUNE_TEST_HOLD"

var evals atomic.Int32

func fakeEval(ctx context.Context, t dist.Task) (json.RawMessage, error) {
	var p evalPayload
	if err := json.Unmarshal(t.Payload, &p); err != nil {
		return nil, err
	}
	if hold := os.Getenv(holdEnv); hold != "" && evals.Add(1) == 3 {
		os.WriteFile(hold, []byte(t.ID), 0o644)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	select {
	case <-time.After(150 * time.Millisecond):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	tm := fakeTime(p.Code).Seconds()
	return json.Marshal(evalResult{Time: tm, Times: []float64{tm}})
}

// localFake is the same evaluation in the test's own process.
type localFake struct{}

func (localFake) Eval(_ context.Context, _, _ string, src []byte) tune.Measure {
	t := fakeTime(string(src))
	return tune.Measure{Time: t, Times: []time.Duration{t}}
}

// TestDistributedSearch is issue 19's acceptance test on one machine: a
// search of 60 evaluations over an embedded NATS JetStream queue served
// by 3 worker processes, one of them killed (SIGKILL) in the middle of an
// evaluation. Every candidate must be recorded exactly once, and the
// search must find the same best as in one process with the same seed.
func TestDistributedSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a NATS server and worker processes")
	}
	r := gemmRegion(t)
	params := map[string]int64{"ni": 20, "nj": 25, "nk": 30}
	e := &tune.Evaluator{Params: params}
	m := tune.MachineOf(model.Nominal(), 1)
	const budget, jobs = 60, 3
	search := func(eval tune.Evaluate) *tune.Result {
		s, err := tune.NewSearcher(r, e, m, tune.Options{Budget: budget, Seed: 5, Eval: eval, Jobs: jobs})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	want := search(localFake{})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := dist.Start(ctx, dist.Options{Prefix: "nestor.tunetest", LocalSlots: -1, AckWait: 2 * time.Second, StoreDir: filepath.Join(t.TempDir(), "js")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var workers []*exec.Cmd
	hold := filepath.Join(t.TempDir(), "hold")
	for k := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+c.URL())
		if k == 0 {
			cmd.Env = append(cmd.Env, holdEnv+"="+hold)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		workers = append(workers, cmd)
	}
	defer func() {
		for _, w := range workers {
			w.Process.Kill()
			w.Wait()
		}
	}()
	// Kill the first worker in the middle of its third evaluation.
	killed := make(chan string, 1)
	go func() {
		for ctx.Err() == nil {
			if id, err := os.ReadFile(hold); err == nil {
				workers[0].Process.Signal(syscall.SIGKILL)
				killed <- string(id)
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	remote := &Remote{C: c, Kind: fakeKind, Run: "t"}
	got := search(remote)
	select {
	case id := <-killed:
		if remote.Redelivered() == 0 {
			t.Errorf("worker killed during task %s, but no task was delivered twice", id)
		}
	default:
		t.Error("the first worker never reached its third evaluation: nothing was killed")
	}

	if len(got.Records) != len(want.Records) {
		t.Errorf("%d evaluations over the queue, %d in one process", len(got.Records), len(want.Records))
	}
	seen := map[string]int{}
	for _, rec := range got.Records {
		seen[rec.Code]++
		if rec.Error != "" {
			t.Errorf("evaluation %d: %s", rec.Eval, rec.Error)
		}
	}
	for code, n := range seen {
		if n != 1 {
			t.Errorf("candidate %s recorded %d times", code, n)
		}
	}
	if got.Best == nil || want.Best == nil || got.Best.Code != want.Best.Code {
		t.Errorf("best over the queue %+v, in one process %+v", got.Best, want.Best)
	}
}

// TestResumeFromRecords: a search started again with the records of an
// interrupted one measures none of their candidates again.
func TestResumeFromRecords(t *testing.T) {
	r := gemmRegion(t)
	e := &tune.Evaluator{Params: map[string]int64{"ni": 20, "nj": 25, "nk": 30}}
	m := tune.MachineOf(model.Nominal(), 1)
	var buf bytes.Buffer
	s, err := tune.NewSearcher(r, e, m, tune.Options{Budget: 8, Seed: 9, Eval: localFake{}, Records: &buf})
	if err != nil {
		t.Fatal(err)
	}
	first, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "first.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	prior, err := tune.ReadRecords(path)
	if err != nil || len(prior) != len(first.Records) {
		t.Fatalf("records of the first run: %d read (%v), %d made", len(prior), err, len(first.Records))
	}
	s, err = tune.NewSearcher(r, e, m, tune.Options{Budget: 16, Seed: 10, Eval: localFake{}, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, rec := range prior {
		seen[rec.Code] = true
	}
	measured := 0
	for _, rec := range second.Records {
		if rec.Default {
			continue // taken from the records, not measured
		}
		measured++
		if seen[rec.Code] {
			t.Errorf("candidate %s measured again after the resume", rec.Code)
		}
	}
	if measured == 0 {
		t.Error("the resumed search measured nothing new")
	}
}

// gemmRegion is the space of the corpus's gemm at MINI size.
func gemmRegion(t *testing.T) *tune.Region {
	t.Helper()
	f, err := frontend.ParseFile("../../testdata/kernels/gemm.c", frontend.Config{Defines: []string{"MINI_DATASET"}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := tune.NewRegion(f, 0, pipeline.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCloseWorkers: a worker's evaluation of a kernel leaves the kernel's
// folder (its files, builds and reference output) until CloseWorkers,
// which removes it.
func TestCloseWorkers(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	path := "../../testdata/kernels/gemm.c"
	defines := []string{"MINI_DATASET"}
	f, err := frontend.ParseFile(path, frontend.Config{Defines: defines})
	if err != nil {
		t.Fatal(err)
	}
	k, err := ShipKernel(f, f.Scops[0].Func.Name, tune.EvalOptions{Threads: 1, Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	k.Defines = defines
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := json.Marshal(evalPayload{Kernel: k, Name: "orig", Code: string(src)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := evalTask(context.Background(), dist.Task{ID: "t", Kind: EvalKind, Payload: payload})
	if err != nil {
		t.Fatal(err)
	}
	var r evalResult
	if err := json.Unmarshal(out, &r); err != nil || r.Err != "" || r.Time <= 0 {
		t.Fatalf("evaluation %s (%v)", out, err)
	}
	dirs, _ := filepath.Glob(filepath.Join(tmp, "nestor-worker-*"))
	if len(dirs) != 1 {
		t.Fatalf("folders %v, want the kernel's", dirs)
	}
	CloseWorkers()
	if _, err := os.Stat(dirs[0]); !os.IsNotExist(err) {
		t.Errorf("%s still there after CloseWorkers (%v)", dirs[0], err)
	}
}
