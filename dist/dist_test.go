package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// workerEnv, when set (to a JSON testWorker), makes the test binary a
// worker process (TestMain).
const workerEnv = "NESTOR_DIST_TEST_WORKER"

// Generous bounds: they end a test that hangs, and never fire on a
// machine that is merely slow.
const (
	testAckWait = 3 * time.Second
	testTimeout = 3 * time.Minute
)

// testWorker configures a worker process.
type testWorker struct {
	URL, Prefix, Name, Dir string
}

func TestMain(m *testing.M) {
	if cfg := os.Getenv(workerEnv); cfg != "" {
		os.Exit(runTestWorker(cfg))
	}
	os.Exit(m.Run())
}

func runTestWorker(cfg string) int {
	var w testWorker
	if err := json.Unmarshal([]byte(cfg), &w); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	err := Work(ctx, WorkerOptions{URL: w.URL, Prefix: w.Prefix, Slots: 1, Name: w.Name, Machine: "test-machine",
		Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }}, testEvaluators(w.Dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// squareTask is the payload of the test kind "test.square".
type squareTask struct {
	N    int  `json:"n"`
	MS   int  `json:"ms"`   // evaluation time
	Hold bool `json:"hold"` // the first evaluation blocks until its process dies
}

// squareOf is the result of a test.square task: what a single-process
// evaluation gives.
func squareOf(n int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"n":%d,"square":%d}`, n, n*n))
}

// testEvaluators are the evaluators of the test workers; they leave
// marker files in dir: eval-N-PID-… for each evaluation of square N,
// crash-PID-… for each crash, and hold (the PID of the holding process).
func testEvaluators(dir string) map[string]Evaluator {
	mark := func(name string) {
		f, err := os.CreateTemp(dir, name)
		if err == nil {
			f.Close()
		}
	}
	return map[string]Evaluator{
		"test.square": func(ctx context.Context, t Task) (json.RawMessage, error) {
			var p squareTask
			if err := json.Unmarshal(t.Payload, &p); err != nil {
				return nil, err
			}
			mark(fmt.Sprintf("eval-%d-%d-", p.N, os.Getpid()))
			if p.Hold && claim(dir, "hold", strconv.Itoa(os.Getpid())) {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(p.MS) * time.Millisecond):
			}
			return squareOf(p.N), nil
		},
		"test.crash": func(ctx context.Context, t Task) (json.RawMessage, error) {
			mark(fmt.Sprintf("crash-%d-", os.Getpid()))
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		},
	}
}

// claim creates dir/name holding content, atomically; it reports whether
// this call created it.
func claim(dir, name, content string) bool {
	f, err := os.CreateTemp(dir, "tmp-")
	if err != nil {
		return false
	}
	f.WriteString(content)
	f.Close()
	defer os.Remove(f.Name())
	return os.Link(f.Name(), filepath.Join(dir, name)) == nil
}

func markers(t *testing.T, dir, prefix string) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, prefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func squareTasks(ids ...int) []Task {
	var ts []Task
	for _, n := range ids {
		p, _ := json.Marshal(squareTask{N: n, MS: 20})
		ts = append(ts, Task{ID: fmt.Sprintf("sq-%02d", n), Kind: "test.square", Payload: p})
	}
	return ts
}

func checkSquare(t *testing.T, r Result) {
	t.Helper()
	var p struct{ N int }
	if r.Err != "" {
		t.Errorf("task %s: error %s", r.TaskID, r.Err)
		return
	}
	if err := json.Unmarshal(r.Payload, &p); err != nil {
		t.Errorf("task %s: payload %s: %v", r.TaskID, r.Payload, err)
		return
	}
	if want := fmt.Sprintf("sq-%02d", p.N); r.TaskID != want {
		t.Errorf("task %s: result of %s", r.TaskID, want)
	}
	if string(r.Payload) != string(squareOf(p.N)) {
		t.Errorf("task %s: got %s, want %s", r.TaskID, r.Payload, squareOf(p.N))
	}
}

// supervisor keeps n worker processes running (a crashed one is started
// again under a new name) until stop.
type supervisor struct {
	t     *testing.T
	cfg   testWorker
	mu    sync.Mutex
	byPID map[int]string
	live  map[string]*exec.Cmd
	done  bool
	wg    sync.WaitGroup
}

func startWorkers(t *testing.T, n int, url, prefix, dir string) *supervisor {
	s := &supervisor{t: t, cfg: testWorker{URL: url, Prefix: prefix, Dir: dir}, byPID: map[int]string{}, live: map[string]*exec.Cmd{}}
	for i := range n {
		s.wg.Add(1)
		go s.keep(i)
	}
	return s
}

func (s *supervisor) keep(i int) {
	defer s.wg.Done()
	for gen := 0; ; gen++ {
		cfg := s.cfg
		cfg.Name = fmt.Sprintf("w%d.%d", i, gen)
		b, _ := json.Marshal(cfg)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), workerEnv+"="+string(b))
		logf, err := os.Create(filepath.Join(s.cfg.Dir, "log-"+cfg.Name))
		if err == nil {
			cmd.Stderr = logf
		}
		s.mu.Lock()
		if s.done {
			s.mu.Unlock()
			return
		}
		if err := cmd.Start(); err != nil {
			s.mu.Unlock()
			s.t.Errorf("start worker: %v", err)
			return
		}
		s.byPID[cmd.Process.Pid] = cfg.Name
		s.live[cfg.Name] = cmd
		s.mu.Unlock()
		cmd.Wait()
		if logf != nil {
			logf.Close()
		}
		s.mu.Lock()
		delete(s.live, cfg.Name)
		done := s.done
		s.mu.Unlock()
		if done {
			return
		}
	}
}

func (s *supervisor) name(pid int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byPID[pid]
}

func (s *supervisor) stop() {
	s.mu.Lock()
	s.done = true
	for _, cmd := range s.live {
		cmd.Process.Signal(syscall.SIGTERM)
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// waitFor polls cond until it holds; it fails the test after testTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// collector gathers a coordinator's results, counting repeats.
type collector struct {
	mu    sync.Mutex
	got   map[string]Result
	count map[string]int
	order []string
}

func collect(c *Coordinator) *collector {
	col := &collector{got: map[string]Result{}, count: map[string]int{}}
	go func() {
		for r := range c.Results() {
			col.mu.Lock()
			col.got[r.TaskID] = r
			col.count[r.TaskID]++
			col.order = append(col.order, r.TaskID)
			col.mu.Unlock()
		}
	}()
	return col
}

func (col *collector) has(ids ...string) bool {
	col.mu.Lock()
	defer col.mu.Unlock()
	for _, id := range ids {
		if _, ok := col.got[id]; !ok {
			return false
		}
	}
	return true
}

func (col *collector) len() int {
	col.mu.Lock()
	defer col.mu.Unlock()
	return len(col.order)
}

// TestWorkerProcesses is issue 19's acceptance scenario: an embedded
// server, 3 worker processes, 60 tasks; the worker holding one task (after
// its in-progress acknowledgement) is killed with SIGKILL; a task that
// kills every worker evaluating it ends with an error result after
// MaxDeliver evaluations.
func TestWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker processes")
	}
	dir := t.TempDir()
	ctx := context.Background()
	const maxDeliver = 2
	c, err := Start(ctx, Options{AckWait: testAckWait, MaxDeliver: maxDeliver, LocalSlots: -1, Prefix: "nestor.test.procs"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	col := collect(c)
	sup := startWorkers(t, 3, c.URL(), c.Prefix(), dir)
	defer sup.stop()

	const victim = 17
	var ids []int
	for n := range 60 {
		ids = append(ids, n)
	}
	tasks := squareTasks(ids...)
	tasks[victim].Payload, _ = json.Marshal(squareTask{N: victim, Hold: true})
	tasks = append(tasks, Task{ID: "crash", Kind: "test.crash"})
	if n, err := c.Submit(ctx, tasks); err != nil || n != len(tasks) {
		t.Fatalf("Submit: %d, %v; want %d", n, err, len(tasks))
	}
	// Resubmitting queued tasks publishes nothing.
	if n, err := c.Submit(ctx, tasks); err != nil || n != 0 {
		t.Fatalf("Submit again: %d, %v; want 0", n, err)
	}

	var holdPID int
	waitFor(t, "the victim's evaluation", func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "hold"))
		holdPID, _ = strconv.Atoi(string(b))
		return err == nil
	})
	held := time.Now()
	victimID := tasks[victim].ID
	var others []string
	for _, tk := range tasks {
		if tk.ID != victimID {
			others = append(others, tk.ID)
		}
	}
	waitFor(t, "every other result", func() bool { return col.has(others...) })
	// Heartbeats: the held task outlives its ack wait twice over and is
	// still not delivered to another worker.
	time.Sleep(time.Until(held.Add(5 * testAckWait / 2)))
	if k := markers(t, dir, fmt.Sprintf("eval-%d-", victim)); k != 1 || col.has(victimID) {
		t.Fatalf("the held task was evaluated %d times before its worker died (result: %v); want once (heartbeats keep it)", k, col.has(victimID))
	}
	killed := sup.name(holdPID)
	if err := syscall.Kill(holdPID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the victim's result", func() bool { return col.has(victimID) })

	c.Close() // closes Results: no result can follow
	col.mu.Lock()
	defer col.mu.Unlock()
	if len(col.got) != len(tasks) {
		t.Errorf("%d results, want %d", len(col.got), len(tasks))
	}
	for id, k := range col.count {
		if k != 1 {
			t.Errorf("task %s: %d results, want 1", id, k)
		}
	}
	for _, tk := range tasks[:60] {
		r := col.got[tk.ID]
		checkSquare(t, r)
		if r.Machine != "test-machine" || !strings.HasPrefix(r.Worker, "w") {
			t.Errorf("task %s: worker %q, machine %q", r.TaskID, r.Worker, r.Machine)
		}
	}
	if r := col.got[victimID]; r.Deliveries < 2 || r.Worker == killed || killed == "" {
		t.Errorf("killed task: delivery %d by %q; want a redelivery to another worker than %q", r.Deliveries, r.Worker, killed)
	}
	if k := markers(t, dir, fmt.Sprintf("eval-%d-", victim)); k < 2 {
		t.Errorf("killed task evaluated %d times, want at least 2", k)
	}
	r := col.got["crash"]
	if r.Err == "" || !strings.Contains(r.Err, "deliveries") || r.Deliveries != maxDeliver+1 {
		t.Errorf("crashing task: delivery %d, error %q; want an error at delivery %d", r.Deliveries, r.Err, maxDeliver+1)
	}
	if k := markers(t, dir, "crash-"); k != maxDeliver {
		t.Errorf("crashing task evaluated %d times, want %d", k, maxDeliver)
	}
}

// localWorkers runs in-process workers with the test evaluators until
// the returned function is called.
func localWorkers(t *testing.T, url, prefix, dir string, slots int) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- Work(ctx, WorkerOptions{URL: url, Prefix: prefix, Slots: slots, Name: "local-test"}, testEvaluators(dir))
	}()
	return func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

func takeResults(t *testing.T, c *Coordinator, n int) []Result {
	t.Helper()
	var rs []Result
	timeout := time.After(testTimeout)
	for len(rs) < n {
		select {
		case r, ok := <-c.Results():
			if !ok {
				t.Fatalf("results closed after %d, want %d", len(rs), n)
			}
			rs = append(rs, r)
		case <-timeout:
			t.Fatalf("gave up after %d results, want %d", len(rs), n)
		}
	}
	return rs
}

// TestResume restarts a coordinator mid-run on the same store, then
// starts one on a fresh store from the caller's records.
func TestResume(t *testing.T) {
	ctx := context.Background()
	store, dir := t.TempDir(), t.TempDir()
	const prefix = "nestor.test.resume"
	var ids []int
	for n := range 20 {
		ids = append(ids, n)
	}
	tasks := squareTasks(ids...)

	a, err := Start(ctx, Options{StoreDir: store, LocalSlots: -1, AckWait: testAckWait, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := a.Submit(ctx, tasks); err != nil || n != 20 {
		t.Fatalf("Submit: %d, %v", n, err)
	}
	stop := localWorkers(t, a.URL(), prefix, dir, 2)
	known := takeResults(t, a, 8)
	stop()
	a.Close()

	// The same store: nothing to publish again (every task is answered or
	// queued); the 12 results the caller lacks arrive, once each.
	b, err := Start(ctx, Options{StoreDir: store, Resume: true, Known: known, LocalSlots: -1, AckWait: testAckWait, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := b.Submit(ctx, tasks); err != nil || n != 0 {
		t.Fatalf("Submit after resume: %d, %v; want 0", n, err)
	}
	stop = localWorkers(t, b.URL(), prefix, dir, 2)
	rest := takeResults(t, b, 12)
	stop()
	b.Close()
	seen := map[string]bool{}
	for _, r := range known {
		seen[r.TaskID] = true
	}
	for _, r := range rest {
		if seen[r.TaskID] {
			t.Errorf("task %s: a second result after resume", r.TaskID)
		}
		seen[r.TaskID] = true
	}
	for _, r := range append(known, rest...) {
		checkSquare(t, r)
	}
	if len(seen) != 20 {
		t.Errorf("%d tasks answered, want 20", len(seen))
	}

	// A fresh store with the caller's records: the other 12 are published.
	c, err := Start(ctx, Options{Known: known, LocalSlots: 2, Evaluators: testEvaluators(dir), AckWait: testAckWait, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if n, err := c.Submit(ctx, tasks); err != nil || n != 12 {
		t.Fatalf("Submit with records: %d, %v; want 12", n, err)
	}
	for _, r := range takeResults(t, c, 12) {
		checkSquare(t, r)
		for _, k := range known {
			if k.TaskID == r.TaskID {
				t.Errorf("task %s: evaluated again although known", r.TaskID)
			}
		}
	}
}

// TestDuplicateResults publishes two results of one task (as two workers
// would after a redelivery): the caller gets the first only.
func TestDuplicateResults(t *testing.T) {
	ctx := context.Background()
	c, err := Start(ctx, Options{LocalSlots: -1, Prefix: "nestor.test.dup"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	for i, r := range []Result{
		{TaskID: "a", Worker: "first", Payload: json.RawMessage(`1`)},
		{TaskID: "a", Worker: "second", Payload: json.RawMessage(`2`)},
		{TaskID: "b", Worker: "first"},
	} {
		data, _ := json.Marshal(r)
		// Distinct message IDs: the stream's own deduplication window
		// does not hide the repeat, the coordinator must.
		if _, err := js.Publish(ctx, "nestor.test.dup.results", data, jetstream.WithMsgID(strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	rs := takeResults(t, c, 2)
	if rs[0].TaskID != "a" || rs[0].Worker != "first" || rs[1].TaskID != "b" {
		t.Errorf("results %+v; want a from the first worker, then b", rs)
	}
	if !c.Answered("a") || c.Answered("c") {
		t.Errorf("Answered: a %v, c %v", c.Answered("a"), c.Answered("c"))
	}
}

// TestMaxDeliveriesAdvisory: a client that takes the task and dies at
// every delivery, the last included, leaves the coordinator to report it.
func TestMaxDeliveriesAdvisory(t *testing.T) {
	ctx := context.Background()
	const prefix = "nestor.test.adv"
	c, err := Start(ctx, Options{LocalSlots: -1, MaxDeliver: 1, AckWait: time.Second, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Submit(ctx, []Task{{ID: "lost", Kind: "test.square"}}); err != nil {
		t.Fatal(err)
	}
	nc, err := nats.Connect(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	n, _ := namesFor(prefix)
	cons, err := js.Consumer(ctx, n.tasksStream, n.consumer)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan Result, 1)
	go func() {
		for r := range c.Results() {
			got <- r
		}
	}()
	// Take every delivery and never acknowledge it.
	deliveries := 0
	deadline := time.Now().Add(testTimeout)
	for time.Now().Before(deadline) {
		select {
		case r := <-got:
			if r.TaskID != "lost" || r.Err == "" || r.Worker != "coordinator" || r.Deliveries != 2 {
				t.Errorf("result %+v; want the coordinator's error after 2 deliveries", r)
			}
			if deliveries != 2 {
				t.Errorf("%d deliveries, want 2", deliveries)
			}
			return
		default:
		}
		m, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if errors.Is(err, nats.ErrTimeout) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		deliveries++
		_ = m
		if deliveries > 2 {
			t.Fatalf("delivery %d: MaxDeliver not enforced", deliveries)
		}
	}
	t.Fatal("gave up waiting for the coordinator's error result")
}

// TestSharedServer runs a server from the configuration that
// docs/DISTRIBUTED.md shows (testdata/nats-server.conf): a coordinator and
// a worker work with their users' permissions, and the worker's user
// cannot publish tasks.
func TestSharedServer(t *testing.T) {
	t.Setenv("NESTOR_COORDINATOR_PASSWORD", "c-secret")
	t.Setenv("NESTOR_WORKER_PASSWORD", "w-secret")
	opts, err := server.ProcessConfigFile("testdata/nats-server.conf")
	if err != nil {
		t.Fatal(err)
	}
	opts.Host, opts.Port, opts.StoreDir = "127.0.0.1", server.RANDOM_PORT, t.TempDir()
	opts.NoLog, opts.NoSigs = true, true
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(testTimeout) {
		t.Fatal("server did not start")
	}
	url := func(user, pw string) string {
		return strings.Replace(srv.ClientURL(), "nats://", "nats://"+user+":"+pw+"@", 1)
	}
	ctx := context.Background()
	// Denied requests go unanswered: a short deadline ends them.
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if _, err := Start(short, Options{Server: url("worker", "w-secret"), LocalSlots: -1}); err == nil {
		t.Error("a worker's user could start a coordinator")
	}
	if _, err := Start(ctx, Options{Server: url("coordinator", "wrong"), LocalSlots: -1}); err == nil {
		t.Error("a wrong password was accepted")
	}
	dir := t.TempDir()
	c, err := Start(ctx, Options{Server: url("coordinator", "c-secret"), LocalSlots: 1, Evaluators: testEvaluators(dir), AckWait: testAckWait})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The coordinator's local workers alone, then the workers' user's.
	acked := func() bool {
		info, err := c.tasks.Info(ctx)
		return err == nil && info.State.Msgs == 0
	}
	if _, err := c.Submit(ctx, squareTasks(1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	for _, r := range takeResults(t, c, 3) {
		checkSquare(t, r)
	}
	waitFor(t, "the local workers' acknowledgements", acked)
	stop := localWorkers(t, url("worker", "w-secret"), "", dir, 2)
	defer stop()
	tasks := append(squareTasks(5, 6, 7), Task{ID: "unknown", Kind: "no.such.kind"})
	if _, err := c.Submit(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	for _, r := range takeResults(t, c, len(tasks)) {
		if r.TaskID == "unknown" {
			if !strings.Contains(r.Err, "no evaluator") {
				t.Errorf("task of an unknown kind: %+v", r)
			}
			continue
		}
		checkSquare(t, r)
	}
	waitFor(t, "the acknowledgements", acked)

	// The worker's user may not publish a task.
	nc, err := nats.Connect(url("worker", "w-secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	pctx, cancel2 := context.WithTimeout(ctx, 2*time.Second)
	defer cancel2()
	data, _ := json.Marshal(squareTasks(9)[0])
	if _, err := js.Publish(pctx, "nestor.tune.tasks", data); err == nil {
		t.Error("the worker's user published a task")
	}
	if n, err := c.Submit(ctx, squareTasks(1, 2, 3, 4, 5)); err != nil || n != 1 {
		t.Errorf("Submit: %d, %v; want 1", n, err)
	}
	if r := takeResults(t, c, 1)[0]; r.TaskID != "sq-04" {
		t.Errorf("result of %s, want sq-04 (and none of sq-09)", r.TaskID)
	}
}

func TestReadResults(t *testing.T) {
	var b strings.Builder
	for _, r := range []Result{{TaskID: "a", Payload: json.RawMessage(`{"x":1}`), Elapsed: time.Second}, {TaskID: "b", Err: "boom"}} {
		if err := WriteResult(&b, r); err != nil {
			t.Fatal(err)
		}
	}
	whole := b.String()
	rs, err := ReadResults(strings.NewReader(whole + "\n" + `{"task_id":"c","pay`))
	if err != nil || len(rs) != 2 || rs[0].TaskID != "a" || string(rs[0].Payload) != `{"x":1}` || rs[0].Elapsed != time.Second || rs[1].Err != "boom" {
		t.Errorf("a cut last line: %+v, %v; want a and b", rs, err)
	}
	if _, err := ReadResults(strings.NewReader(`{"task_id":"c","pay` + "\n" + whole)); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a bad first line: %v; want an error at line 1", err)
	}
	if _, err := ReadResults(strings.NewReader(`{"kind":"k"}` + "\n")); err == nil {
		t.Error("a result without task_id was accepted")
	}
	if rs, err := ReadResultsFile(filepath.Join(t.TempDir(), "none.jsonl")); rs != nil || err != nil {
		t.Errorf("a missing file: %v, %v", rs, err)
	}
}

// TestQueueInUse: on a shared server, a coordinator starting afresh does
// not wipe a queue that still has tasks; resuming takes it over.
func TestQueueInUse(t *testing.T) {
	ctx := context.Background()
	const prefix = "nestor.test.inuse"
	a, err := Start(ctx, Options{LocalSlots: -1, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.Submit(ctx, squareTasks(1)); err != nil {
		t.Fatal(err)
	}
	if b, err := Start(ctx, Options{Server: a.URL(), LocalSlots: -1, Prefix: prefix}); err == nil || !strings.Contains(err.Error(), "1 tasks pending") {
		t.Errorf("a fresh start on a busy queue: %v; want an error", err)
		if b != nil {
			b.Close()
		}
	}
	b, err := Start(ctx, Options{Server: a.URL(), LocalSlots: -1, Prefix: prefix, Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if n, err := b.Submit(ctx, squareTasks(1, 2)); err != nil || n != 1 {
		t.Errorf("Submit on the resumed queue: %d, %v; want 1 (sq-01 is queued)", n, err)
	}
}

// TestResumeAnswered: every task answered before a restart, the caller's
// records holding only some: nothing is published again, and the other
// results come from the stream, with no worker running.
func TestResumeAnswered(t *testing.T) {
	ctx := context.Background()
	store, dir := t.TempDir(), t.TempDir()
	const prefix = "nestor.test.answered"
	var ids []int
	for n := range 20 {
		ids = append(ids, n)
	}
	tasks := squareTasks(ids...)
	a, err := Start(ctx, Options{StoreDir: store, LocalSlots: 2, Evaluators: testEvaluators(dir), Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Submit(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	known := takeResults(t, a, 20)[:8]
	a.Close()

	b, err := Start(ctx, Options{StoreDir: store, Resume: true, Known: known, LocalSlots: -1, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if n, err := b.Submit(ctx, tasks); err != nil || n != 0 {
		t.Fatalf("Submit after resume: %d, %v; want 0", n, err)
	}
	seen := map[string]bool{}
	for _, r := range known {
		seen[r.TaskID] = true
	}
	for _, r := range takeResults(t, b, 12) {
		if seen[r.TaskID] {
			t.Errorf("task %s: a second result", r.TaskID)
		}
		seen[r.TaskID] = true
		checkSquare(t, r)
	}
}
