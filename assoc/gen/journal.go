package gen

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// The journal.
//
// A journal is a text file: a header line naming the run's settings, then
// one line per candidate that reached Z3, "proved <entry line>" (the
// table's entry format) or "refuted <tuple>" or "unknown <tuple>". A
// line cut short by an interruption is ignored (and rewritten).

const journalMagic = "nestor-assoc-journal v1"

type journal struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	t    assoc.Type
	done map[string]journalRecord
}

type journalRecord struct {
	verdict prove.Verdict
	entry   *assoc.Entry
}

// journalHeader names the settings a journal's outcomes depend on: the
// type, the tuple size, the samples and seed (which decide what reaches
// Z3) and the Z3 timeout or, when there is one, the resource limit (the
// timeout is then only a guard against a hung z3, and a resumed run may
// change it). The leaf bound and the operation set may change between
// runs: an outcome is keyed by the candidate itself.
func journalHeader(cfg GenConfig) string {
	h := fmt.Sprintf("%s type=%v tuple=%d samples=%d seed=%d", journalMagic, cfg.Type, cfg.TupleSize, cfg.Samples, cfg.Seed)
	if cfg.ResourceLimit > 0 {
		return h + fmt.Sprintf(" rlimit=%d", cfg.ResourceLimit)
	}
	return h + fmt.Sprintf(" timeout=%v", cfg.Timeout)
}

// sameRun reports whether a journal's header line first is that of head
// (journalHeader): a journal of a run bounded by a resource limit whose
// header names its timeout too, as they did before, is of the same run
// whatever the timeout.
func sameRun(first, head string) bool {
	if first == head {
		return true
	}
	pre, limit, ok := strings.Cut(head, " rlimit=")
	if !ok || !strings.HasPrefix(first, pre+" timeout=") {
		return false
	}
	_, rest, _ := strings.Cut(strings.TrimPrefix(first, pre+" timeout="), " ")
	return rest == "rlimit="+limit
}

func openJournal(cfg GenConfig) (*journal, error) {
	jr := &journal{t: cfg.Type, done: map[string]journalRecord{}}
	if cfg.Journal == "" {
		return jr, nil
	}
	head := journalHeader(cfg)
	data, err := os.ReadFile(cfg.Journal)
	switch {
	case err == nil && !cfg.Resume:
		return nil, fmt.Errorf("assoc: journal %s exists: resume from it (--resume) or remove it", cfg.Journal)
	case err == nil:
		if err := jr.load(cfg.Journal, string(data), head); err != nil {
			return nil, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("assoc: journal: %v", err)
	}
	f, err := os.OpenFile(cfg.Journal, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("assoc: journal: %v", err)
	}
	jr.f, jr.w = f, bufio.NewWriter(f)
	// Rewrite what was read (dropping a torn last line), then append.
	fmt.Fprintln(jr.w, head)
	for _, line := range jr.lines(data) {
		fmt.Fprintln(jr.w, line)
	}
	return jr, jr.flush()
}

// lines returns the complete record lines of data.
func (jr *journal) lines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := string(data)
	if !strings.HasSuffix(s, "\n") {
		s = s[:strings.LastIndexByte(s, '\n')+1]
	}
	ls := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(ls) > 0 {
		ls = ls[1:] // the header
	}
	return ls
}

// load reads a journal's records.
func (jr *journal) load(name, data, head string) error {
	first, _, _ := strings.Cut(data, "\n")
	if !sameRun(first, head) {
		return fmt.Errorf("%s:1:1: journal of another run: %q, want %q", name, first, head)
	}
	for i, line := range jr.lines([]byte(data)) {
		kind, rest, _ := strings.Cut(line, " ")
		lineNo := i + 2
		switch kind {
		case "proved":
			e, err := assoc.ParseEntryLine(rest, jr.t)
			if err != nil {
				return assoc.TableErrorAt(name, lineNo, len(kind)+1, err)
			}
			jr.done[e.Tuple.String()] = journalRecord{prove.Proved, e}
		case "refuted", "unknown":
			tp, err := assoc.ParseTuple(rest, jr.t)
			if err != nil {
				return assoc.TableErrorAt(name, lineNo, len(kind)+1, err)
			}
			v := prove.Refuted
			if kind == "unknown" {
				v = prove.Unknown
			}
			jr.done[tp.String()] = journalRecord{verdict: v}
		default:
			return &assoc.TableError{File: name, Line: lineNo, Col: 1, Msg: fmt.Sprintf("journal record %q", kind)}
		}
	}
	return nil
}

// ReadJournal returns the operators a generation journal of a table of
// type t records as proved, in table order: the table of an interrupted
// run so far (each entry is proved; what is missing is the candidates
// not reached).
func ReadJournal(name string, t assoc.Type) ([]assoc.Entry, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	jr := &journal{t: t, done: map[string]journalRecord{}}
	head, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(head, journalMagic+" type="+t.String()+" ") {
		return nil, fmt.Errorf("%s:1:1: not a journal of a %v table: %q", name, t, head)
	}
	if err := jr.load(name, string(data), head); err != nil {
		return nil, err
	}
	var out []assoc.Entry
	for _, r := range jr.done {
		if r.entry != nil {
			out = append(out, *r.entry)
		}
	}
	slices.SortFunc(out, func(a, b assoc.Entry) int {
		return cmp.Or(cmp.Compare(a.Elems[0].Op, b.Elems[0].Op), cmp.Compare(a.Leaves, b.Leaves), strings.Compare(a.Tuple.String(), b.Tuple.String()))
	})
	return out, nil
}

func (jr *journal) lookup(tp assoc.Tuple) (journalRecord, bool) {
	if len(jr.done) == 0 {
		return journalRecord{}, false
	}
	r, ok := jr.done[tp.String()]
	return r, ok
}

// record appends o's outcome.
func (jr *journal) record(o genOutcome) error {
	if jr.w == nil {
		return nil
	}
	jr.mu.Lock()
	defer jr.mu.Unlock()
	switch {
	case o.entry != nil:
		fmt.Fprintf(jr.w, "proved %s\n", assoc.FormatEntryLine(o.entry))
	case o.verdict == prove.Refuted:
		fmt.Fprintf(jr.w, "refuted %s\n", o.tp)
	default:
		fmt.Fprintf(jr.w, "unknown %s\n", o.tp)
	}
	return jr.flush()
}

func (jr *journal) flush() error {
	if err := jr.w.Flush(); err != nil {
		return fmt.Errorf("assoc: journal: %v", err)
	}
	return nil
}

func (jr *journal) close() {
	if jr.f != nil {
		jr.w.Flush()
		jr.f.Close()
	}
}
