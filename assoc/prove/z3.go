package prove

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"nestor/assoc"
)

// This file drives Z3 (Debian's z3) as a subprocess over SMT-LIB2: one
// process per Prover, kept between queries, each query between a (reset)
// and its answer. (reset) rather than (push)/(pop): after a push Z3
// solves incrementally and skips the bit-vector preprocessing that makes
// these queries fast.

// DefaultTimeout bounds one Z3 query when NewProver is given no timeout.
const DefaultTimeout = 10 * time.Second

// rlimitGuard is the wall-clock bound on a query bounded by a resource
// limit (Prover.SetResourceLimit): only a guard against a hung process,
// far above what any limit the tests use takes on a loaded machine, so
// that the answer depends on the limit alone.
const rlimitGuard = 5 * time.Minute

// killGrace is how long past a query's timeout the driver waits for Z3's
// own answer before it kills the process.
const killGrace = 2 * time.Second

// endMarker ends every batch of commands, so the driver knows where Z3's
// answer to the batch ends.
const endMarker = "@@assoc-end"

// ErrNoZ3 is returned when the z3 command is not installed.
var ErrNoZ3 = errors.New("assoc: z3 not found: install the Debian package z3")

// Z3Path returns the path of the z3 command, or ErrNoZ3.
func Z3Path() (string, error) {
	p, err := exec.LookPath("z3")
	if err != nil {
		return "", ErrNoZ3
	}
	return p, nil
}

var z3Version struct {
	once sync.Once
	v    string
	err  error
}

// Z3Version returns the version of the installed z3 ("4.8.12").
func Z3Version() (string, error) {
	z3Version.once.Do(func() {
		path, err := Z3Path()
		if err != nil {
			z3Version.err = err
			return
		}
		b, err := exec.Command(path, "--version").Output()
		out := string(b)
		if err != nil {
			z3Version.err = fmt.Errorf("assoc: z3 --version: %v", err)
			return
		}
		// "Z3 version 4.8.12 - 64 bit"
		f := strings.Fields(out)
		if len(f) < 3 {
			z3Version.err = fmt.Errorf("assoc: z3 --version said %q", out)
			return
		}
		z3Version.v = f[2]
	})
	return z3Version.v, z3Version.err
}

// solver is one running z3 -in process.
type z3Process struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string // stdout, line by line; closed when the process ends
}

func startZ3(path string) (*z3Process, error) {
	cmd := exec.Command(path, "-smt2", "-in")
	dieWithParent(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("assoc: z3: %v", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("assoc: z3: %v", err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("assoc: starting z3: %v", err)
	}
	s := &z3Process{cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	return s, nil
}

// run sends script followed by the end marker and returns Z3's output up
// to the marker. It kills the process when no answer comes by deadline.
func (s *z3Process) run(script string, deadline time.Time) ([]string, error) {
	if _, err := io.WriteString(s.in, script+"\n(echo \""+endMarker+"\")\n"); err != nil {
		return nil, fmt.Errorf("assoc: writing to z3: %v", err)
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	var out []string
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return out, fmt.Errorf("assoc: z3 exited: %s", strings.Join(out, " "))
			}
			if line == endMarker {
				return out, nil
			}
			out = append(out, line)
		case <-timer.C:
			s.kill()
			return out, errHung
		}
	}
}

// errHung reports a query that ran past its deadline: the process is gone.
var errHung = errors.New("assoc: z3 did not z3Answer in time and was killed")

func (s *z3Process) kill() {
	s.in.Close()
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// Verdict is the outcome of a proof.
type Verdict uint8

const (
	// Unknown: Z3 gave up (a timeout, or a query outside what it decides).
	Unknown Verdict = iota
	// Proved: the claim holds for every value of its variables (under the
	// mode's assumptions of defined behaviour).
	Proved
	// Refuted: a counterexample falsifies the claim.
	Refuted
)

func (v Verdict) String() string {
	return [...]string{"unknown", "proved", "refuted"}[v]
}

// Assignment is the value of one variable in a counterexample: x0, y1, z0
// (the third operand of an associativity claim), k, or a named value.
type Assignment struct {
	Name  string
	Type  assoc.Type
	Value assoc.Value
	// Approx reports that Value rounds the solver's value: a real number
	// of the Real mode written as the nearest float.
	Approx bool
}

func (a Assignment) String() string {
	return a.Name + "=" + cexValue(a.Value, a.Type)
}

// Result is the outcome of a claim.
type Result struct {
	Verdict Verdict
	// Counterexample gives, when Refuted, values of the claim's
	// variables that falsify it, in the order x, y, z, constants.
	Counterexample []Assignment
	// Reason says why, when Unknown.
	Reason string
}

func (r Result) String() string {
	switch r.Verdict {
	case Refuted:
		parts := make([]string, len(r.Counterexample))
		for i, a := range r.Counterexample {
			parts[i] = a.String()
		}
		return "refuted: " + strings.Join(parts, " ")
	case Unknown:
		return "unknown: " + r.Reason
	}
	return "proved"
}

// Prover proves claims about operators with Z3. It runs one z3 process,
// started on first use, and is for one goroutine at a time; create one
// per worker to prove in parallel (each is cheap: a process of a few MB).
type Prover struct {
	opts    Options
	timeout time.Duration
	path    string
	s       *z3Process
	// Queries counts the queries sent to Z3.
	Queries int
	// noMissing makes Identity skip identityMissing, which only turns an
	// Unknown into a Refuted and often runs to its timeout (the
	// generator, which records no identity either way, sets it).
	noMissing bool
	// bitvectorsOnly keeps the bit-vector encoding of the no-overflow
	// mode (no Options.intsFor), for the benchmarks that compare the two.
	bitvectorsOnly bool
	// identityBudget bounds the time of Identity's candidate search
	// (none when zero): each round may run to the query timeout, and
	// there may be maxCEGISRounds of them. The generator sets it.
	identityBudget time.Duration
	// rlimit bounds each query by Z3's resource count (set-option :rlimit)
	// instead of wall-clock time when nonzero (SetResourceLimit).
	rlimit uint64
}

// SetResourceLimit bounds each query by n units of Z3's deterministic
// resource count (its rlimit) instead of the wall-clock timeout, so that
// an answer does not depend on how fast Z3 runs: the same query gets the
// same verdict on an idle machine and on a loaded one. The timeout then
// only guards against a hung process (at least rlimitGuard), and the
// identity search's wall-clock budget is off (maxCEGISRounds still bounds
// it). Zero goes back to the timeout.
func (p *Prover) SetResourceLimit(n uint64) { p.rlimit = n }

// SetIdentityBudget bounds the wall-clock time of Identity's candidate
// search (none when zero, the default; off under a resource limit): each
// round may run to the query timeout, and there may be maxCEGISRounds of
// them. The generator sets it.
func (p *Prover) SetIdentityBudget(d time.Duration) { p.identityBudget = d }

// SetSkipMissing makes Identity leave out the query that only turns an
// Unknown into a Refuted (identityMissing, which often runs to its
// timeout), and give the quantified query a share of the resource limit:
// for the generator, which records no identity either way.
func (p *Prover) SetSkipMissing(on bool) { p.noMissing = on }

// NewProver returns a prover with the given semantics. timeout bounds each
// query (DefaultTimeout when zero). It fails with ErrNoZ3 when z3 is not
// installed.
func NewProver(opts Options, timeout time.Duration) (*Prover, error) {
	path, err := Z3Path()
	if err != nil {
		return nil, err
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Prover{opts: opts, timeout: timeout, path: path}, nil
}

// Options returns the prover's semantics.
func (p *Prover) Options() Options { return p.opts }

// Close stops the z3 process.
func (p *Prover) Close() error {
	if p.s != nil {
		p.s.kill()
		p.s = nil
	}
	return nil
}

// answer is what Z3 said to a check-sat.
type z3Answer struct {
	status string   // sat, unsat or unknown
	model  []string // the lines of (get-value ...) when sat
	reason string   // the reason when unknown
}

// check runs one query: decls and asserts after a reset, then check-sat,
// and on sat the values of the symbols named in show.
func (p *Prover) check(query string, show []string) (z3Answer, error) {
	return p.checkWithin(query, show, p.timeout)
}

// checkWithin is check with its own timeout.
func (p *Prover) checkWithin(query string, show []string, timeout time.Duration) (z3Answer, error) {
	if p.s == nil {
		s, err := startZ3(p.path)
		if err != nil {
			return z3Answer{}, err
		}
		p.s = s
	}
	p.Queries++
	var b strings.Builder
	b.WriteString("(reset)\n")
	if p.rlimit > 0 {
		// Z3 resets its resource counter with (reset): the limit is
		// per query.
		fmt.Fprintf(&b, "(set-option :rlimit %d)\n", p.rlimit)
		timeout = max(timeout, rlimitGuard)
	} else {
		fmt.Fprintf(&b, "(set-option :timeout %d)\n", timeout.Milliseconds())
	}
	fmt.Fprintf(&b, "%s\n(check-sat)\n", query)
	out, err := p.s.run(b.String(), time.Now().Add(timeout+killGrace))
	if err == errHung {
		p.s = nil
		return z3Answer{status: "unknown", reason: "z3 hung past the timeout and was killed"}, nil
	}
	if err != nil {
		p.s.kill()
		p.s = nil
		return z3Answer{}, err
	}
	if len(out) != 1 || (out[0] != "sat" && out[0] != "unsat" && out[0] != "unknown") {
		return z3Answer{}, fmt.Errorf("assoc: z3 said %q to:\n%s", strings.Join(out, "\n"), query)
	}
	a := z3Answer{status: out[0]}
	switch {
	case a.status == "sat" && len(show) > 0:
		a.model, err = p.s.run("(get-value ("+strings.Join(show, " ")+"))", time.Now().Add(killGrace))
	case a.status == "unknown":
		var r []string
		r, err = p.s.run("(get-info :reason-unknown)", time.Now().Add(killGrace))
		a.reason = strings.Trim(strings.TrimSuffix(strings.TrimPrefix(strings.Join(r, " "), "(:reason-unknown "), ")"), "\"")
	}
	if err == errHung {
		p.s = nil
		err = nil
	}
	return a, err
}

// cexValue writes v of type t for a counterexample: integers in decimal,
// floats with %g (and their sign of zero), bools as true or false.
func cexValue(v assoc.Value, t assoc.Type) string {
	switch {
	case t == assoc.Bool:
		return fmt.Sprint(v&1 != 0)
	case t.Signed():
		w := uint(t.Bits())
		return fmt.Sprint(int64(uint64(v)<<(64-w)) >> (64 - w))
	case t.Unsigned():
		return fmt.Sprint(uint64(v) & smtMask(t.Bits()))
	case t.Float():
		f := smtFloat(v, t)
		if f == 0 && math.Signbit(f) {
			return "-0.0"
		}
		return strconv.FormatFloat(f, 'g', -1, t.Bits())
	}
	return fmt.Sprint(uint64(v))
}

// sexp is a parsed S-expression: an atom, or a list.
type sexp struct {
	atom string
	list []sexp
}

// parseSexps parses the S-expressions of s.
func z3ParseSexps(s string) ([]sexp, error) {
	var stack [][]sexp
	var top []sexp
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			i++
		case c == '(':
			stack = append(stack, top)
			top = nil
			i++
		case c == ')':
			if len(stack) == 0 {
				return nil, fmt.Errorf("assoc: unbalanced z3 output %q", s)
			}
			l := sexp{list: top}
			top = append(stack[len(stack)-1], l)
			stack = stack[:len(stack)-1]
			i++
		case c == '|' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("assoc: unterminated smtSymbol in z3 output %q", s)
			}
			top = append(top, sexp{atom: s[i : i+j+2]})
			i += j + 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \n\t\r()", rune(s[j])) {
				j++
			}
			top = append(top, sexp{atom: s[i:j]})
			i = j
		}
	}
	if len(stack) != 0 {
		return nil, fmt.Errorf("assoc: unbalanced z3 output %q", s)
	}
	return top, nil
}

// parseModel reads the answer of (get-value (names...)) into values of
// the given types.
func (o Options) parseModel(lines []string, types map[string]assoc.Type) (map[string]Assignment, error) {
	xs, err := z3ParseSexps(strings.Join(lines, "\n"))
	if err != nil {
		return nil, err
	}
	if len(xs) != 1 {
		return nil, fmt.Errorf("assoc: z3 model %q", strings.Join(lines, " "))
	}
	out := map[string]Assignment{}
	for _, pair := range xs[0].list {
		if len(pair.list) != 2 || pair.list[0].atom == "" {
			return nil, fmt.Errorf("assoc: z3 model entry in %q", strings.Join(lines, " "))
		}
		name := pair.list[0].atom
		t, ok := types[name]
		if !ok {
			return nil, fmt.Errorf("assoc: z3 model names %s", name)
		}
		v, approx, err := o.parseValue(pair.list[1], t)
		if err != nil {
			return nil, err
		}
		out[name] = Assignment{Name: smtDisplayName(name), Type: t, Value: v, Approx: approx}
	}
	return out, nil
}

// parseBits reads a #x or #b literal.
func z3ParseBits(a string) (uint64, error) {
	switch {
	case strings.HasPrefix(a, "#x"):
		return strconv.ParseUint(a[2:], 16, 64)
	case strings.HasPrefix(a, "#b"):
		return strconv.ParseUint(a[2:], 2, 64)
	}
	return 0, fmt.Errorf("assoc: z3 value %q is not a bit-vector", a)
}

// parseValue reads one value of type t written by Z3.
func (o Options) parseValue(x sexp, t assoc.Type) (assoc.Value, bool, error) {
	bad := fmt.Errorf("assoc: cannot read z3 value %v as %v", x, t)
	switch {
	case t == assoc.Bool:
		switch x.atom {
		case "true":
			return 1, false, nil
		case "false":
			return 0, false, nil
		}
		return 0, false, bad
	case o.intMode(t):
		r, err := z3ParseReal(x)
		if err != nil || !r.IsInt() || !r.Num().IsInt64() {
			return 0, false, bad
		}
		return assoc.IntValue(r.Num().Int64(), t), false, nil
	case t.Integer():
		v, err := z3ParseBits(x.atom)
		return assoc.Value(v), false, err
	case t.Float() && o.Real:
		r, err := z3ParseReal(x)
		if err != nil {
			return 0, false, err
		}
		f, exact := r.Float64()
		if t == assoc.Float32 {
			f32 := float32(f)
			return assoc.Value(math.Float32bits(f32)), !exact || float64(f32) != f, nil
		}
		return assoc.Value(math.Float64bits(f)), !exact, nil
	case t.Float():
		return z3ParseFP(x, t)
	}
	return 0, false, bad
}

// parseFP reads (fp s e m), (_ +zero eb sb), (_ -zero ...), (_ +oo ...),
// (_ -oo ...) or (_ NaN ...).
func z3ParseFP(x sexp, t assoc.Type) (assoc.Value, bool, error) {
	eb, sb := smtFPFormat(t)
	l := x.list
	if len(l) == 4 && l[0].atom == "fp" {
		var f [3]uint64
		for i := range f {
			v, err := z3ParseBits(l[i+1].atom)
			if err != nil {
				return 0, false, err
			}
			f[i] = v
		}
		return assoc.Value(f[0]<<(eb+sb-1) | f[1]<<(sb-1) | f[2]), false, nil
	}
	if len(l) == 4 && l[0].atom == "_" {
		signBit := uint64(1) << (eb + sb - 1)
		expAll := smtMask(eb) << (sb - 1)
		switch l[1].atom {
		case "+zero":
			return 0, false, nil
		case "-zero":
			return assoc.Value(signBit), false, nil
		case "+oo":
			return assoc.Value(expAll), false, nil
		case "-oo":
			return assoc.Value(signBit | expAll), false, nil
		case "NaN":
			return assoc.Value(expAll | 1<<(sb-2)), false, nil
		}
	}
	return 0, false, fmt.Errorf("assoc: cannot read z3 value %v as %v", x, t)
}

// parseReal reads a Real written by Z3: a decimal, (- r) or (/ r r).
func z3ParseReal(x sexp) (*big.Rat, error) {
	if x.atom != "" {
		r, ok := new(big.Rat).SetString(x.atom)
		if !ok {
			return nil, fmt.Errorf("assoc: z3 real %q", x.atom)
		}
		return r, nil
	}
	l := x.list
	switch {
	case len(l) == 2 && l[0].atom == "-":
		r, err := z3ParseReal(l[1])
		if err != nil {
			return nil, err
		}
		return r.Neg(r), nil
	case len(l) == 3 && l[0].atom == "/":
		a, err := z3ParseReal(l[1])
		if err != nil {
			return nil, err
		}
		b, err := z3ParseReal(l[2])
		if err != nil || b.Sign() == 0 {
			return nil, fmt.Errorf("assoc: z3 real %v", x)
		}
		return a.Quo(a, b), nil
	}
	return nil, fmt.Errorf("assoc: z3 real %v (not rational)", x)
}

func (x sexp) String() string {
	if x.list == nil {
		return x.atom
	}
	parts := make([]string, len(x.list))
	for i, y := range x.list {
		parts[i] = y.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}
