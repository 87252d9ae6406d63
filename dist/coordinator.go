package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Defaults of Options.
const (
	// DefaultAckWait is how long the server waits for a worker's
	// acknowledgement (or its in-progress heartbeat) before it delivers
	// the task again.
	DefaultAckWait = 30 * time.Second
	// DefaultMaxDeliver is the number of evaluations a task gets before it
	// ends with an error result.
	DefaultMaxDeliver = 3
	// serverReadyTimeout bounds the start of the embedded server.
	serverReadyTimeout = 30 * time.Second
	// apiTimeout bounds one JetStream API call of the coordinator.
	apiTimeout = 30 * time.Second
)

// Options configure a Coordinator.
type Options struct {
	// Server is the URL of an existing NATS server with JetStream
	// (nats://HOST:4222). Empty: start an embedded server.
	Server string
	// Listen is the embedded server's host:port; default 127.0.0.1:0, a
	// free port on the loopback interface only.
	Listen string
	// StoreDir is the embedded server's JetStream folder. Empty: a
	// temporary folder removed by Close (nothing to resume from).
	StoreDir string
	// Creds and TLS authenticate the connection to Server.
	Creds string
	TLS   TLSFiles
	// Prefix is the subject prefix of the queue (tasks on Prefix.tasks,
	// results on Prefix.results); default DefaultPrefix. Workers must be
	// given the same prefix.
	Prefix string
	// AckWait is how long a delivered task may go without an
	// acknowledgement or heartbeat before it is delivered again (default
	// DefaultAckWait); workers send heartbeats every AckWait/4.
	AckWait time.Duration
	// MaxDeliver is the number of evaluations of a task (default
	// DefaultMaxDeliver): the delivery after the last one ends it with an
	// error result.
	MaxDeliver int
	// Resume keeps the streams of an earlier coordinator with the same
	// prefix (on Server, or in StoreDir): tasks still queued are not
	// published again, results already stored are delivered. Without it
	// the streams start empty; on a Server, Start then refuses a queue
	// that still has tasks (one coordinator per prefix at a time).
	Resume bool
	// Known are results the caller already has (its records): they are
	// neither delivered again nor their tasks published again.
	Known []Result
	// LocalSlots is the number of tasks evaluated at once by workers in
	// this process: 0 means one per CPU, negative none.
	LocalSlots int
	// Evaluators of the local workers; nil: the registered ones.
	Evaluators map[string]Evaluator
	// Machine is the local workers' machine fingerprint.
	Machine string
	// OnResult, if set, receives each task's first result, one call at a
	// time, instead of the Results channel.
	OnResult func(Result)
	// Log, if set, receives progress messages.
	Log func(format string, args ...any)
}

// A Coordinator owns a work queue: it submits tasks and collects their
// results, once each.
type Coordinator struct {
	opts   Options
	names  names
	srv    *server.Server
	tmpDir string
	url    string
	nc     *nats.Conn
	js     jetstream.JetStream
	tasks  jetstream.Stream

	mu        sync.Mutex
	answered  map[string]bool // tasks with a result, delivered or known
	submitted map[string]bool // tasks in the queue or published by Submit
	queue     []Result        // results not yet handed to the caller
	closed    bool
	wake      chan struct{}
	out       chan Result

	results  jetstream.ConsumeContext
	advisory *nats.Subscription
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	stopOnce sync.Once
}

// Start starts a coordinator: the embedded server unless Options.Server
// is set, the streams, and the local workers.
func Start(ctx context.Context, o Options) (_ *Coordinator, err error) {
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = DefaultMaxDeliver
	}
	if o.LocalSlots == 0 {
		o.LocalSlots = runtime.NumCPU()
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	n, err := namesFor(o.Prefix)
	if err != nil {
		return nil, err
	}
	c := &Coordinator{
		opts: o, names: n,
		answered: map[string]bool{}, submitted: map[string]bool{},
		wake: make(chan struct{}, 1),
	}
	if o.OnResult == nil {
		c.out = make(chan Result)
	}
	defer func() {
		if err != nil {
			c.shutdown()
		}
	}()
	c.url = o.Server
	if o.Server == "" {
		if err := c.startServer(); err != nil {
			return nil, err
		}
	}
	if c.nc, err = connect(c.url, "nestor coordinator", o.Creds, o.TLS, o.Log); err != nil {
		return nil, err
	}
	if c.js, err = jetstream.New(c.nc); err != nil {
		return nil, err
	}
	for _, r := range o.Known {
		c.answered[r.TaskID] = true
	}
	if err := c.setupStreams(ctx); err != nil {
		return nil, err
	}
	c.pumpStart()
	if err := c.consumeResults(ctx); err != nil {
		return nil, err
	}
	if err := c.watchMaxDeliveries(); err != nil {
		return nil, err
	}
	if o.LocalSlots > 0 {
		wctx, cancel := context.WithCancel(context.Background())
		c.cancel = cancel
		c.wg.Add(1)
		go func() {
			defer c.wg.Done()
			err := Work(wctx, WorkerOptions{
				URL: c.url, Creds: o.Creds, TLS: o.TLS, Prefix: n.prefix(),
				Slots: o.LocalSlots, Machine: o.Machine, Name: "local", Log: o.Log,
			}, o.Evaluators)
			if err != nil {
				o.Log("dist: local workers: %v", err)
			}
		}()
	}
	return c, nil
}

func (n names) prefix() string { return n.tasksSubject[:len(n.tasksSubject)-len(".tasks")] }

// startServer starts the embedded NATS server with JetStream.
func (c *Coordinator) startServer() error {
	listen := c.opts.Listen
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	host, portStr, err := net.SplitHostPort(listen)
	if err != nil {
		return fmt.Errorf("dist: listen address %q: %v", listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port < 0 || port > 65535 {
		return fmt.Errorf("dist: listen address %q: bad port", listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	dir := c.opts.StoreDir
	if dir == "" {
		if c.tmpDir, err = os.MkdirTemp("", "nestor-nats-"); err != nil {
			return err
		}
		dir = c.tmpDir
	}
	srv, err := server.NewServer(&server.Options{
		ServerName: "nestor",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   dir,
		NoLog:      true,
		NoSigs:     true,
	})
	if err != nil {
		return fmt.Errorf("dist: embedded server: %v", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(serverReadyTimeout) {
		srv.Shutdown()
		return errors.New("dist: embedded server did not start")
	}
	c.srv = srv
	c.url = srv.ClientURL()
	return nil
}

// setupStreams creates (or, resuming, opens) the tasks stream, its
// workers' consumer and the results stream, and reads which tasks are
// queued.
func (c *Coordinator) setupStreams(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	n := c.names
	if !c.opts.Resume {
		if err := c.checkIdle(ctx); err != nil {
			return err
		}
		for _, s := range []string{n.tasksStream, n.resultsStream} {
			if err := c.js.DeleteStream(ctx, s); err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
				return fmt.Errorf("dist: delete stream %s: %w", s, err)
			}
		}
	}
	var err error
	c.tasks, err = c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        n.tasksStream,
		Description: "nestor work queue: tasks",
		Subjects:    []string{n.tasksSubject},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return fmt.Errorf("dist: tasks stream: %w", err)
	}
	_, err = c.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        n.resultsStream,
		Description: "nestor work queue: results",
		Subjects:    []string{n.resultsSubject},
		Retention:   jetstream.LimitsPolicy,
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return fmt.Errorf("dist: results stream: %w", err)
	}
	_, err = c.tasks.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       n.consumer,
		Description:   "nestor workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       c.opts.AckWait,
		MaxDeliver:    c.opts.MaxDeliver + 1, // the last delivery reports the failure
		FilterSubject: n.tasksSubject,
		MaxAckPending: -1,
	})
	if err != nil {
		return fmt.Errorf("dist: workers' consumer: %w", err)
	}
	if !c.opts.Resume {
		return nil
	}
	// Walk the queued tasks, subject by subject, skipping the deleted
	// (acknowledged) ones.
	for seq := uint64(1); ; {
		m, err := c.tasks.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(n.tasksSubject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("dist: read queued tasks: %w", err)
		}
		var t Task
		if json.Unmarshal(m.Data, &t) == nil && t.ID != "" {
			c.submitted[t.ID] = true
		}
		seq = m.Sequence + 1
	}
}

// checkIdle refuses to start afresh on a shared server's queue that still
// has tasks queued or being evaluated: another coordinator's run, or an
// interrupted one to resume. (A queue without pending tasks is reset.)
func (c *Coordinator) checkIdle(ctx context.Context) error {
	if c.srv != nil {
		return nil // the embedded server's queue is this coordinator's
	}
	n := c.names
	s, err := c.js.Stream(ctx, n.tasksStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dist: tasks stream: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("dist: tasks stream: %w", err)
	}
	if info.State.Msgs > 0 {
		return fmt.Errorf("dist: the queue %s on %s has %d tasks pending (another coordinator's, or an interrupted run): resume it, or use another prefix",
			n.tasksSubject, c.url, info.State.Msgs)
	}
	return nil
}

// URL returns the URL of the server the coordinator uses: the one workers
// on this machine connect to.
func (c *Coordinator) URL() string { return c.url }

// Prefix returns the subject prefix of the queue.
func (c *Coordinator) Prefix() string { return c.names.prefix() }

// Submit publishes the tasks that have no result yet and are not queued
// already, and returns how many it published. IDs must be non-empty and
// distinct.
func (c *Coordinator) Submit(ctx context.Context, tasks []Task) (int, error) {
	seen := map[string]bool{}
	for _, t := range tasks {
		if t.ID == "" || t.Kind == "" {
			return 0, fmt.Errorf("dist: task %q of kind %q: want an ID and a kind", t.ID, t.Kind)
		}
		if seen[t.ID] {
			return 0, fmt.Errorf("dist: task %q submitted twice", t.ID)
		}
		seen[t.ID] = true
	}
	published := 0
	for _, t := range tasks {
		c.mu.Lock()
		skip := c.answered[t.ID] || c.submitted[t.ID]
		c.mu.Unlock()
		if skip {
			continue
		}
		data, err := json.Marshal(t)
		if err != nil {
			return published, err
		}
		pctx, cancel := context.WithTimeout(ctx, apiTimeout)
		ack, err := c.js.Publish(pctx, c.names.tasksSubject, data, jetstream.WithMsgID(t.ID))
		cancel()
		if err != nil {
			return published, fmt.Errorf("dist: publish task %s: %w", t.ID, err)
		}
		c.mu.Lock()
		c.submitted[t.ID] = true
		c.mu.Unlock()
		if !ack.Duplicate { // else the stream had it (its deduplication window)
			published++
		}
	}
	return published, nil
}

// Results returns the channel of results, each task's first one, in the
// order they arrive; it is closed by Close. It is nil when
// Options.OnResult is set.
func (c *Coordinator) Results() <-chan Result { return c.out }

// Answered reports whether the task has a result (delivered or known).
func (c *Coordinator) Answered(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.answered[id]
}

// consumeResults reads the results stream from its start, in order, and
// returns once it has read the results stored before the call: Submit
// then knows every task answered before the coordinator started.
func (c *Coordinator) consumeResults(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	stream, err := c.js.Stream(cctx, c.names.resultsStream)
	if err != nil {
		return fmt.Errorf("dist: results stream: %w", err)
	}
	info, err := stream.Info(cctx)
	if err != nil {
		return fmt.Errorf("dist: results stream: %w", err)
	}
	stored := info.State.LastSeq
	caughtUp := make(chan struct{})
	var once sync.Once
	if stored == 0 {
		once.Do(func() { close(caughtUp) })
	}
	cons, err := stream.OrderedConsumer(cctx, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{c.names.resultsSubject},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("dist: results consumer: %w", err)
	}
	c.results, err = cons.Consume(func(m jetstream.Msg) {
		var r Result
		if err := json.Unmarshal(m.Data(), &r); err != nil || r.TaskID == "" {
			c.opts.Log("dist: dropping a malformed result: %v", err)
		} else {
			c.record(r)
		}
		if meta, err := m.Metadata(); err == nil && meta.Sequence.Stream >= stored {
			once.Do(func() { close(caughtUp) })
		}
	})
	if err != nil {
		return fmt.Errorf("dist: results consumer: %w", err)
	}
	select {
	case <-caughtUp:
		return nil
	case <-cctx.Done():
		return fmt.Errorf("dist: reading the %d stored results: %w", stored, cctx.Err())
	}
}

// record queues r for the caller unless its task already has a result.
func (c *Coordinator) record(r Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answered[r.TaskID] || c.closed {
		return
	}
	c.answered[r.TaskID] = true
	c.queue = append(c.queue, r)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// pumpStart hands queued results to the caller from one goroutine, so
// that a slow reader never blocks the NATS client.
func (c *Coordinator) pumpStart() {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		if c.out != nil {
			defer close(c.out)
		}
		for {
			c.mu.Lock()
			closed := c.closed
			var r Result
			ok := len(c.queue) > 0
			if ok {
				r = c.queue[0]
				c.queue = c.queue[1:]
			}
			c.mu.Unlock()
			if closed {
				return
			}
			if !ok {
				<-c.wake
				continue
			}
			if c.opts.OnResult != nil {
				c.opts.OnResult(r)
				continue
			}
			select {
			case c.out <- r:
			case <-c.wake:
				// Closing: the result is dropped with the others.
				c.mu.Lock()
				closed := c.closed
				c.queue = append([]Result{r}, c.queue...)
				c.mu.Unlock()
				if closed {
					return
				}
			}
		}
	}()
}

// maxDeliveriesAdvisory is the server's notice that a message of a
// consumer reached its delivery limit.
type maxDeliveriesAdvisory struct {
	Stream     string `json:"stream"`
	Consumer   string `json:"consumer"`
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries uint64 `json:"deliveries"`
}

// watchMaxDeliveries answers the tasks whose last delivery also ended
// without an acknowledgement (normally the last delivery's worker reports
// the failure): the coordinator publishes their error result and removes
// them from the queue.
func (c *Coordinator) watchMaxDeliveries() error {
	subj := server.JSAdvisoryConsumerMaxDeliveryExceedPre + "." + c.names.tasksStream + "." + c.names.consumer
	var err error
	c.advisory, err = c.nc.Subscribe(subj, func(m *nats.Msg) {
		var a maxDeliveriesAdvisory
		if json.Unmarshal(m.Data, &a) != nil {
			return
		}
		go c.expire(a)
	})
	return err
}

func (c *Coordinator) expire(a maxDeliveriesAdvisory) {
	ctx, cancel := context.WithTimeout(context.Background(), apiTimeout)
	defer cancel()
	m, err := c.tasks.GetMsg(ctx, a.StreamSeq)
	if err != nil {
		return // acknowledged meanwhile
	}
	var t Task
	if json.Unmarshal(m.Data, &t) != nil || t.ID == "" {
		return
	}
	if !c.Answered(t.ID) {
		r := Result{TaskID: t.ID, Kind: t.Kind, Deliveries: int(a.Deliveries), Worker: "coordinator",
			Err: fmt.Sprintf("dist: task %s: no result after %d deliveries (each ended its worker or outlived the ack wait)", t.ID, a.Deliveries)}
		data, _ := json.Marshal(r)
		if _, err := c.js.Publish(ctx, c.names.resultsSubject, data, jetstream.WithMsgID(t.ID)); err != nil {
			c.opts.Log("dist: report task %s: %v", t.ID, err)
			return
		}
	}
	if err := c.tasks.DeleteMsg(ctx, a.StreamSeq); err != nil {
		c.opts.Log("dist: remove task %s: %v", t.ID, err)
	}
}

// Close stops the local workers (their unfinished tasks go back to the
// queue), the coordinator's connection and the embedded server, and
// closes the Results channel. The streams stay on the server (or in
// Options.StoreDir) for a coordinator with Resume. Close may be called
// more than once.
func (c *Coordinator) Close() error {
	c.shutdown()
	return nil
}

func (c *Coordinator) shutdown() { c.stopOnce.Do(c.stop) }

func (c *Coordinator) stop() {
	if c.cancel != nil {
		c.cancel()
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	c.wg.Wait()
	if c.results != nil {
		c.results.Stop()
	}
	if c.advisory != nil {
		c.advisory.Unsubscribe()
	}
	if c.nc != nil {
		c.nc.Close()
	}
	if c.srv != nil {
		c.srv.Shutdown()
		c.srv.WaitForShutdown()
	}
	if c.tmpDir != "" {
		os.RemoveAll(c.tmpDir)
	}
}
