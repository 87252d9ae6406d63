package remote

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"nestor/check"
	"nestor/dist"
	"nestor/frontend"
	"nestor/model"
	"nestor/tune"
)

// EvalKind is the kind of the dist tasks that evaluate a candidate on a
// worker (nestor worker runs them).
const EvalKind = "nestor.tune.eval"

func init() { dist.Register(EvalKind, evalTask) }

// maxShipped bounds the bytes of the kernel's folder and include folders
// a task carries.
const maxShipped = 8 << 20

// Kernel is what a worker needs to evaluate candidates of one kernel: the
// kernel file and the headers beside it and in the include folders, with
// the harness's settings. Its Key names it (workers keep one evaluator
// per key).
type Kernel struct {
	Path     string            `json:"path"`  // the kernel file, relative to the shipped root
	Files    map[string]string `json:"files"` // relative path → content
	Includes []string          `json:"includes"`
	Defines  []string          `json:"defines"`
	Params   map[string]int64  `json:"params,omitempty"`
	Func     string            `json:"func"` // the kernel function
	CC       string            `json:"cc,omitempty"`
	CFlags   []string          `json:"cflags,omitempty"`
	Threads  int               `json:"threads"`
	Runs     int               `json:"runs"`
	Key      string            `json:"key"`
}

// evalPayload is the payload of an EvalKind task.
type evalPayload struct {
	Kernel *Kernel `json:"kernel"`
	Name   string  `json:"name"`
	Code   string  `json:"code"`
}

// evalResult is its result, with the description of the machine that
// measured it (for the lower bound of a search that compares its times).
type evalResult struct {
	Time    float64        `json:"time"`
	Times   []float64      `json:"times"`
	Err     string         `json:"err,omitempty"`
	Wrong   bool           `json:"wrong,omitempty"`
	Machine *model.Machine `json:"machine,omitempty"`
}

// workerMachine is the description of the machine a worker runs on.
var workerMachine = sync.OnceValue(func() model.Machine {
	m, _ := model.Load()
	return m
})

// ShipKernel collects what workers need to evaluate candidates of the
// kernel function fn of f: the C file and headers (*.h) of its folder,
// and those of each include folder (as inc0/, inc1/, ...).
func ShipKernel(f *frontend.File, fn string, opt tune.EvalOptions) (*Kernel, error) {
	k := &Kernel{Files: map[string]string{}, Defines: opt.Check.Defines, Params: opt.Check.Params, Func: fn,
		CC: opt.Check.CC, CFlags: opt.Check.CFlags, Threads: max(opt.Threads, 1), Runs: opt.Runs}
	total := 0
	add := func(dir, prefix string, match func(string) bool) error {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range ents {
			if e.IsDir() || !match(e.Name()) {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return err
			}
			if total += len(b); total > maxShipped {
				return fmt.Errorf("tune: the kernel's folders hold more than %d MiB of headers to ship to workers", maxShipped>>20)
			}
			k.Files[filepath.ToSlash(filepath.Join(prefix, e.Name()))] = string(b)
		}
		return nil
	}
	base := filepath.Base(f.Path)
	if err := add(filepath.Dir(f.Path), "src", func(n string) bool { return strings.HasSuffix(n, ".h") }); err != nil {
		return nil, err
	}
	k.Files["src/"+base] = string(f.Src)
	k.Path = "src/" + base
	for i, dir := range opt.Check.IncludePaths {
		p := fmt.Sprintf("inc%d", i)
		if err := add(dir, p, func(n string) bool { return strings.HasSuffix(n, ".h") }); err != nil {
			return nil, err
		}
		k.Includes = append(k.Includes, p)
	}
	h := sha256.New()
	keys := make([]string, 0, len(k.Files))
	for n := range k.Files {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	for _, n := range keys {
		fmt.Fprintf(h, "%s\x00%s\x00", n, k.Files[n])
	}
	meta, _ := json.Marshal([]any{k.Defines, k.Params, k.Func, k.CC, k.CFlags, k.Threads, k.Runs, k.Includes})
	h.Write(meta)
	k.Key = hex.EncodeToString(h.Sum(nil)[:12])
	return k, nil
}

// workerEvals are the evaluators a worker process keeps, by kernel key.
var workerEvals struct {
	sync.Mutex
	m map[string]*workerEval
}

type workerEval struct {
	once sync.Once
	e    *tune.Evaluator
	root string // the kernel's folder: its files, builds and reference output
	err  error
}

// CloseWorkers removes the folders of the kernels this process's workers
// evaluated (the reference output and builds of a LARGE kernel take
// gigabytes: a tune over the corpus filled the disk) and forgets their
// evaluators. Call it once the workers have stopped.
func CloseWorkers() {
	workerEvals.Lock()
	defer workerEvals.Unlock()
	for _, we := range workerEvals.m {
		if we.root != "" {
			os.RemoveAll(we.root)
		}
	}
	workerEvals.m = nil
}

// evalTask evaluates a candidate on a worker: the kernel's files are
// written to a folder of the worker's own, parsed, the original built
// and run once per kernel, then the candidate built, checked and timed.
func evalTask(ctx context.Context, t dist.Task) (json.RawMessage, error) {
	var p evalPayload
	if err := json.Unmarshal(t.Payload, &p); err != nil {
		return nil, err
	}
	if p.Kernel == nil {
		return nil, fmt.Errorf("tune: task without a kernel")
	}
	k := p.Kernel
	workerEvals.Lock()
	if workerEvals.m == nil {
		workerEvals.m = map[string]*workerEval{}
	}
	we := workerEvals.m[k.Key]
	if we == nil {
		we = &workerEval{}
		workerEvals.m[k.Key] = we
	}
	workerEvals.Unlock()
	we.once.Do(func() { we.e, we.root, we.err = k.evaluator(ctx) })
	if we.err != nil {
		return nil, we.err
	}
	m := we.e.Eval(ctx, p.Name, filepath.Base(k.Path), []byte(p.Code))
	desc := workerMachine()
	r := evalResult{Time: m.Time.Seconds(), Err: m.Err, Wrong: m.Wrong, Machine: &desc}
	for _, x := range m.Times {
		r.Times = append(r.Times, x.Seconds())
	}
	return json.Marshal(r)
}

// evaluator writes the kernel's files to a new folder, root, and builds
// its Evaluator there; on an error it removes the folder.
func (k *Kernel) evaluator(ctx context.Context) (e *tune.Evaluator, root string, err error) {
	root, err = os.MkdirTemp("", "nestor-worker-")
	if err != nil {
		return nil, "", err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(root)
			root = ""
		}
	}()
	e, err = k.build(ctx, root)
	return e, root, err
}

// build writes the kernel's files under root and builds its Evaluator.
func (k *Kernel) build(ctx context.Context, root string) (*tune.Evaluator, error) {
	for name, text := range k.Files {
		if strings.Contains(name, "..") || filepath.IsAbs(name) {
			return nil, fmt.Errorf("tune: task names a file outside its folder: %s", name)
		}
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	var incs []string
	for _, i := range k.Includes {
		incs = append(incs, filepath.Join(root, i))
	}
	f, err := frontend.ParseFile(filepath.Join(root, filepath.FromSlash(k.Path)), frontend.Config{IncludePaths: incs, Defines: k.Defines})
	if err != nil {
		return nil, err
	}
	var scop *frontend.Scop
	for _, s := range f.Scops {
		if s.Func.Name == k.Func {
			scop = s
			break
		}
	}
	if scop == nil {
		return nil, fmt.Errorf("tune: no region in function %s", k.Func)
	}
	return tune.NewEvaluator(ctx, f, scop, tune.EvalOptions{
		Check:   check.Options{CC: k.CC, CFlags: k.CFlags, IncludePaths: incs, Defines: k.Defines, Params: k.Params, Threads: []int{k.Threads}},
		Threads: k.Threads, Runs: k.Runs, Dir: filepath.Join(root, "build"),
	})
}

// Remote evaluates candidates on the workers of a dist queue.
type Remote struct {
	C      *dist.Coordinator
	Kernel *Kernel
	// Run names this search's tasks, so that the records of a resumed
	// run find their results again.
	Run string
	// Kind is the kind of the tasks (default EvalKind; tests use their
	// own evaluators).
	Kind string

	redelivered atomic.Int64
	mu          sync.Mutex
	waiting     map[string]chan dist.Result
	early       map[string]dist.Result
	start       sync.Once
}

// Eval submits the candidate and waits for its result.
func (r *Remote) Eval(ctx context.Context, name, base string, src []byte) tune.Measure {
	r.start.Do(func() {
		r.waiting = map[string]chan dist.Result{}
		r.early = map[string]dist.Result{}
		go r.route()
	})
	payload, err := json.Marshal(evalPayload{Kernel: r.Kernel, Name: name, Code: string(src)})
	if err != nil {
		return tune.Measure{Err: err.Error()}
	}
	// The task is named by its code, not by the evaluation's number: a
	// resumed run that draws the same candidate meets its task again.
	// A confirmation round is a task of its own (tune.TaskKey).
	id := r.Run + "-" + tune.TaskKey(name, src)
	ch := make(chan dist.Result, 1)
	r.mu.Lock()
	if res, ok := r.early[id]; ok {
		ch <- res
	} else {
		r.waiting[id] = ch
	}
	r.mu.Unlock()
	kind := r.Kind
	if kind == "" {
		kind = EvalKind
	}
	if _, err := r.C.Submit(ctx, []dist.Task{{ID: id, Kind: kind, Payload: payload}}); err != nil {
		return tune.Measure{Err: err.Error()}
	}
	select {
	case <-ctx.Done():
		return tune.Measure{Err: ctx.Err().Error()}
	case res := <-ch:
		if res.Err != "" {
			return tune.Measure{Err: res.Err}
		}
		var er evalResult
		if err := json.Unmarshal(res.Payload, &er); err != nil {
			return tune.Measure{Err: err.Error()}
		}
		m := tune.Measure{Time: time.Duration(er.Time * 1e9), Err: er.Err, Wrong: er.Wrong, Machine: res.Machine, Desc: er.Machine}
		for _, x := range er.Times {
			m.Times = append(m.Times, time.Duration(x*1e9))
		}
		return m
	}
}

// Redelivered is the number of results of tasks delivered more than once
// (a worker died or was too slow to acknowledge).
func (r *Remote) Redelivered() int64 { return r.redelivered.Load() }

// route hands each result to the Eval waiting for it.
func (r *Remote) route() {
	for res := range r.C.Results() {
		if res.Deliveries > 1 {
			r.redelivered.Add(1)
		}
		r.mu.Lock()
		if ch, ok := r.waiting[res.TaskID]; ok {
			delete(r.waiting, res.TaskID)
			ch <- res
		} else {
			r.early[res.TaskID] = res
		}
		r.mu.Unlock()
	}
}
