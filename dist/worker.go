package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const (
	// pollWait is how long one slot's pull request waits for a task; it
	// bounds how late a slot notices that its context is done.
	pollWait = 2 * time.Second
	// retryWait is the pause before looking the queue up again when it
	// does not exist (yet) or a pull failed.
	retryWait = time.Second
	// minHeartbeat bounds the in-progress heartbeat period from below.
	minHeartbeat = 50 * time.Millisecond
	// resultTimeout bounds the publication of one result.
	resultTimeout = 30 * time.Second
)

// WorkerOptions configure Work.
type WorkerOptions struct {
	// URL of the NATS server (nats://HOST:4222), with Creds and TLS to
	// authenticate.
	URL   string
	Creds string
	TLS   TLSFiles
	// Prefix is the subject prefix of the queue (default DefaultPrefix):
	// the worker consumes that queue only.
	Prefix string
	// Slots is the number of tasks evaluated at once (default: one per CPU).
	Slots int
	// Machine is the fingerprint of this machine, copied into each result.
	Machine string
	// Name names the worker in results (default HOST-PID).
	Name string
	// Log, if set, receives progress messages.
	Log func(format string, args ...any)
	// OnResult, if set, is called with each result the worker published
	// (from the slot's goroutine).
	OnResult func(Result)
}

// Work consumes the queue of the coordinator at o.URL until ctx is done,
// evaluating each task with evals[task.Kind] (nil: the registered
// evaluators), Slots tasks at a time. While a task is evaluated the
// worker sends in-progress heartbeats, so that a long evaluation is not
// delivered again; a task whose evaluation is interrupted by ctx goes back
// to the queue. The queue need not exist yet: Work waits for it.
func Work(ctx context.Context, o WorkerOptions, evals map[string]Evaluator) error {
	n, err := namesFor(o.Prefix)
	if err != nil {
		return err
	}
	if evals == nil {
		evals = Registered()
	}
	if o.Slots <= 0 {
		o.Slots = runtime.NumCPU()
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	if o.Name == "" {
		host, _ := os.Hostname()
		o.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	nc, err := connect(o.URL, "nestor worker "+o.Name, o.Creds, o.TLS, o.Log)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	w := &worker{opts: o, names: n, nc: nc, js: js, evals: evals}
	var wg sync.WaitGroup
	for slot := 0; slot < o.Slots; slot++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.slot(ctx)
		}()
	}
	wg.Wait()
	return nil
}

type worker struct {
	opts  WorkerOptions
	names names
	nc    *nats.Conn
	js    jetstream.JetStream

	evals map[string]Evaluator
}

// consumer waits for the queue's consumer and returns it, or nil when ctx
// is done.
func (w *worker) consumer(ctx context.Context) jetstream.Consumer {
	logged := false
	for {
		cctx, cancel := context.WithTimeout(ctx, apiTimeout)
		cons, err := w.js.Consumer(cctx, w.names.tasksStream, w.names.consumer)
		cancel()
		if err == nil {
			return cons
		}
		if ctx.Err() != nil {
			return nil
		}
		if !logged {
			w.opts.Log("dist: worker %s: waiting for the queue %s: %v", w.opts.Name, w.names.tasksSubject, err)
			logged = true
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(retryWait):
		}
	}
}

// slot evaluates one task at a time until ctx is done.
func (w *worker) slot(ctx context.Context) {
	var cons jetstream.Consumer
	for ctx.Err() == nil {
		if cons == nil {
			if cons = w.consumer(ctx); cons == nil {
				return
			}
		}
		msg, err := cons.Next(jetstream.FetchMaxWait(pollWait))
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, jetstream.ErrNoMessages) {
			continue
		}
		if err != nil {
			// The consumer was deleted (a new coordinator) or the
			// connection is down: look it up again.
			if ctx.Err() == nil {
				w.opts.Log("dist: worker %s: %v", w.opts.Name, err)
			}
			cons = nil
			select {
			case <-ctx.Done():
			case <-time.After(retryWait):
			}
			continue
		}
		if ctx.Err() != nil {
			msg.Nak()
			return
		}
		w.handle(ctx, msg, cons.CachedInfo().Config)
	}
}

// handle evaluates one delivered task and publishes its result before
// acknowledging it, so that a worker dying in between costs a second
// evaluation, never a lost result.
func (w *worker) handle(ctx context.Context, msg jetstream.Msg, cfg jetstream.ConsumerConfig) {
	meta, err := msg.Metadata()
	if err != nil {
		w.opts.Log("dist: worker %s: %v", w.opts.Name, err)
		msg.Term()
		return
	}
	var t Task
	if err := json.Unmarshal(msg.Data(), &t); err != nil || t.ID == "" {
		w.opts.Log("dist: worker %s: dropping a malformed task (stream sequence %d)", w.opts.Name, meta.Sequence.Stream)
		msg.Term()
		return
	}
	res := Result{TaskID: t.ID, Kind: t.Kind, Worker: w.opts.Name, Machine: w.opts.Machine, Deliveries: int(meta.NumDelivered)}
	ev := w.evals[t.Kind]
	switch attempts := cfg.MaxDeliver - 1; {
	case attempts > 0 && res.Deliveries > attempts:
		res.Err = fmt.Sprintf("dist: task %s: no result after %d deliveries (each ended its worker or outlived the ack wait)", t.ID, attempts)
	case ev == nil:
		res.Err = fmt.Sprintf("dist: worker %s has no evaluator for tasks of kind %q", w.opts.Name, t.Kind)
	default:
		// Tell the server the task is taken before evaluating it.
		msg.InProgress()
		w.nc.FlushTimeout(apiTimeout)
		stop := w.heartbeat(msg, cfg.AckWait)
		start := time.Now()
		payload, err := evaluate(ctx, ev, t)
		res.Elapsed = time.Since(start)
		stop()
		if ctx.Err() != nil {
			msg.Nak() // interrupted: another worker takes it
			return
		}
		if err != nil {
			res.Err = err.Error()
		} else {
			res.Payload = payload
		}
	}
	data, err := json.Marshal(res)
	if err == nil {
		pctx, cancel := context.WithTimeout(context.Background(), resultTimeout)
		_, err = w.js.Publish(pctx, w.names.resultsSubject, data, jetstream.WithMsgID(t.ID))
		cancel()
	}
	if err != nil {
		w.opts.Log("dist: worker %s: publish the result of %s: %v", w.opts.Name, t.ID, err)
		msg.Nak()
		return
	}
	actx, cancel := context.WithTimeout(context.Background(), apiTimeout)
	defer cancel()
	if err := msg.DoubleAck(actx); err != nil {
		// The result is stored; a redelivery is answered as a duplicate.
		w.opts.Log("dist: worker %s: acknowledge %s: %v", w.opts.Name, t.ID, err)
	}
	if w.opts.OnResult != nil {
		w.opts.OnResult(res)
	}
}

// heartbeat sends in-progress acknowledgements every ackWait/4 until
// the returned function is called.
func (w *worker) heartbeat(msg jetstream.Msg, ackWait time.Duration) (stop func()) {
	period := max(ackWait/4, minHeartbeat)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(period)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				msg.InProgress()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// evaluate runs ev, turning a panic into an error.
func evaluate(ctx context.Context, ev Evaluator, t Task) (payload json.RawMessage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("dist: evaluator of kind %q panicked: %v", t.Kind, p)
		}
	}()
	return ev(ctx, t)
}
