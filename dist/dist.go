package dist

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// A Task is one unit of work: an evaluation of kind Kind (the name of an
// Evaluator) on Payload. ID identifies the task across deliveries,
// restarts and records: results are deduplicated by it.
type Task struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// A Result is the outcome of a task: the evaluator's Payload, or Err when
// it failed, when no worker had an evaluator of its kind, or when the task
// was delivered more than the allowed number of times without a result.
type Result struct {
	TaskID  string          `json:"task_id"`
	Kind    string          `json:"kind"`
	Worker  string          `json:"worker,omitempty"`  // the worker's name
	Machine string          `json:"machine,omitempty"` // the worker's machine fingerprint
	Payload json.RawMessage `json:"payload,omitempty"`
	Err     string          `json:"err,omitempty"`
	// Deliveries is the delivery of the task that produced the result:
	// 1 the first time, more after a worker died or a slow acknowledgement.
	Deliveries int `json:"deliveries"`
	// Elapsed is the evaluator's wall time (nanoseconds in JSON).
	Elapsed time.Duration `json:"elapsed"`
}

// An Evaluator computes the result of a task. It must return when ctx is
// done; its result is then discarded and the task goes back to the queue.
type Evaluator func(ctx context.Context, t Task) (json.RawMessage, error)

// DefaultPrefix is the subject prefix of the work queue when none is
// given: coordinator and workers meet on it. It is nestor tune's.
const DefaultPrefix = "nestor.tune"

// TLSFiles names the PEM files of a TLS connection to a NATS server: the
// certificate authority that signed the server's certificate, and the
// client's certificate and key when the server asks for one.
type TLSFiles struct {
	CA, Cert, Key string
}

// connect opens a connection to the NATS server at url.
// Asynchronous errors (a permission violation) go to logf.
func connect(url, name, creds string, tls TLSFiles, logf func(string, ...any)) (*nats.Conn, error) {
	opts := []nats.Option{
		nats.Name(name),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			logf("dist: %s: %v", name, err)
		}),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
	}
	if creds != "" {
		opts = append(opts, nats.UserCredentials(creds))
	}
	if tls.CA != "" {
		opts = append(opts, nats.RootCAs(tls.CA))
	}
	if (tls.Cert == "") != (tls.Key == "") {
		return nil, errors.New("dist: a TLS client certificate needs both its certificate and its key")
	}
	if tls.Cert != "" {
		opts = append(opts, nats.ClientCert(tls.Cert, tls.Key))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("dist: connect to %s: %w", url, err)
	}
	return nc, nil
}

// names are the JetStream names derived from a subject prefix.
type names struct {
	tasksSubject, resultsSubject string
	tasksStream, resultsStream   string
	consumer                     string
}

// consumerName is the durable consumer of the tasks stream that every
// worker of a queue shares.
const consumerName = "workers"

func namesFor(prefix string) (names, error) {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	for _, tok := range strings.Split(prefix, ".") {
		if tok == "" || strings.ContainsAny(tok, "*> \t\r\n") {
			return names{}, fmt.Errorf("dist: subject prefix %q: want dot-separated tokens without wildcards or spaces", prefix)
		}
	}
	base := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, prefix)
	return names{
		tasksSubject:   prefix + ".tasks",
		resultsSubject: prefix + ".results",
		tasksStream:    base + "_tasks",
		resultsStream:  base + "_results",
		consumer:       consumerName,
	}, nil
}

var registry = struct {
	sync.Mutex
	m map[string]Evaluator
}{m: map[string]Evaluator{}}

// Register makes e the evaluator of tasks of the given kind in workers
// started without an explicit map (nestor worker). It panics if the kind
// is already registered, as http.Handle does for a pattern.
func Register(kind string, e Evaluator) {
	registry.Lock()
	defer registry.Unlock()
	if kind == "" || e == nil {
		panic("dist: Register with an empty kind or a nil evaluator")
	}
	if _, dup := registry.m[kind]; dup {
		panic("dist: Register called twice for kind " + kind)
	}
	registry.m[kind] = e
}

// Registered returns a copy of the registered evaluators by kind.
func Registered() map[string]Evaluator {
	registry.Lock()
	defer registry.Unlock()
	return maps.Clone(registry.m)
}

// WriteResult appends r to w as one line of JSON.
func WriteResult(w io.Writer, r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadResults reads results written by WriteResult, one JSON object a
// line; blank lines are skipped, and a last line cut short (a writer
// killed mid-line) is ignored.
func ReadResults(r io.Reader) ([]Result, error) {
	var rs []Result
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 64<<20)
	var pendingErr error
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if pendingErr != nil {
			return nil, pendingErr
		}
		var res Result
		if err := json.Unmarshal([]byte(text), &res); err != nil {
			pendingErr = fmt.Errorf("dist: results line %d: %v", line, err)
			continue
		}
		if res.TaskID == "" {
			return nil, fmt.Errorf("dist: results line %d: no task_id", line)
		}
		rs = append(rs, res)
	}
	return rs, sc.Err()
}

// ReadResultsFile reads the results in the JSONL file path; a missing
// file has none.
func ReadResultsFile(path string) ([]Result, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadResults(f)
}
