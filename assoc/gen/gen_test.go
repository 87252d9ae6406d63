package gen

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// testRlimit bounds each Z3 query of the tests in Z3's deterministic
// resource units (GenConfig.ResourceLimit), as prove's tests do: their
// answers do not depend on the machine's load.
const testRlimit = 30_000_000

func mustTuple(t *testing.T, src string, ty assoc.Type) assoc.Tuple {
	t.Helper()
	tp, err := assoc.ParseTuple(src, ty)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return tp
}

func needZ3(tb testing.TB) {
	tb.Helper()
	if _, err := prove.Z3Path(); errors.Is(err, prove.ErrNoZ3) {
		tb.Skip(err)
	}
}

func entryLines(es []assoc.Entry) string {
	var b strings.Builder
	for k := range es {
		b.WriteString(assoc.FormatEntryLine(&es[k]) + "\n")
	}
	return b.String()
}

func findEntry(es []assoc.Entry, src string, ty assoc.Type) *assoc.Entry {
	for k := range es {
		if es[k].Tuple.String() == src {
			return &es[k]
		}
	}
	return nil
}

// A small generation finds the simple operators with their identities and
// commutativity, leaves out the non-associative ones, and gives the same
// table with one worker or two.
func TestGenerateSmall(t *testing.T) {
	needZ3(t)
	cfg := GenConfig{Type: assoc.Int32, MaxLeaves: 3, TupleSize: 1, Jobs: 2, ResourceLimit: testRlimit}
	es, stats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		src  string
		comm bool
		id   string // "" for none
	}{
		{"x + y", true, "0"}, {"x * y", true, "1"}, {"min(x, y)", true, "2147483647"}, {"max(x, y)", true, "-2147483648"},
		{"x & y", true, "-1"}, {"x | y", true, "0"}, {"x ^ y", true, "0"}, {"x ^ y ^ k", true, "k"},
		{"max(min(x, k), y)", false, ""}, {"max(x, min(y, k))", false, ""},
	} {
		e := findEntry(es, c.src, assoc.Int32)
		if e == nil {
			t.Errorf("%s missing", c.src)
			continue
		}
		id := ""
		if e.Identity != nil {
			id = assoc.Tuple{Elems: e.Identity}.String()
		}
		if e.Commutative != c.comm || id != c.id {
			t.Errorf("%s: commutative %v identity %q, want %v %q", c.src, e.Commutative, id, c.comm, c.id)
		}
	}
	for _, src := range []string{"x - y", "x + y + y"} {
		if findEntry(es, src, assoc.Int32) != nil {
			t.Errorf("%s is not associative, but generated", src)
		}
	}
	tot := stats.Total()
	if tot.Proved != len(es) || tot.Candidates < tot.PassedRandom || tot.PassedRandom < tot.NonDecomposable || tot.NonDecomposable < tot.Proved {
		t.Errorf("stats do not add up: %+v with %d entries", tot, len(es))
	}
	cfg.Jobs = 1
	es1, _, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := entryLines(es), entryLines(es1); a != b {
		t.Errorf("two workers and one differ:\n%s\nvs\n%s", a, b)
	}
}

// A run resumes from the journal of an interrupted one: the Z3 outcomes
// recorded are replayed, a torn last line is dropped, and the table is
// the same. Without Resume an existing journal is an error.
func TestGenerateResume(t *testing.T) {
	needZ3(t)
	dir := t.TempDir()
	jname := filepath.Join(dir, "j")
	cfg := GenConfig{Type: assoc.Uint8, MaxLeaves: 3, TupleSize: 1, Jobs: 2, Journal: jname, ResourceLimit: testRlimit}
	want, stats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	elementary := stats.Total().NonDecomposable
	if _, _, err := Generate(cfg); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("second run without Resume: %v, want an error about the journal", err)
	}
	// Interrupt: keep the header and half of the records, and a torn line.
	data, err := os.ReadFile(jname)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	keep := 1 + (len(lines)-2)/2
	torn := strings.Join(lines[:keep], "") + lines[keep][:len(lines[keep])/2]
	if err := os.WriteFile(jname, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	got, stats2, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if stats2.Replayed != keep-1 {
		t.Errorf("replayed %d outcomes, want %d", stats2.Replayed, keep-1)
	}
	if a, b := entryLines(want), entryLines(got); a != b {
		t.Errorf("resumed table differs:\n%s\nvs\n%s", b, a)
	}
	// Everything is journaled now: a third run asks Z3 nothing.
	_, stats3, err := Generate(cfg)
	if err != nil || stats3.Replayed != elementary {
		t.Errorf("full replay: %d of %d, %v", stats3.Replayed, elementary, err)
	}
	// A journal of other settings is refused.
	cfg.Samples = 50
	if _, _, err := Generate(cfg); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("journal of other settings: %v", err)
	}
}

// The hand primitives are proved with the identity and commutativity Z3
// finds: complex multiplication commutes, matrix and quaternion products
// do not; argmin and argmax keep the first index on ties (not
// commutative) and have no identity (the value may be the type's
// extreme); over floats they hold over the reals only.
func TestGenerateHand(t *testing.T) {
	needZ3(t)
	ops, err := assoc.HandOps()
	if err != nil {
		t.Fatal(err)
	}
	// One integer and one float type (TestEmbeddedReprove proves hand
	// entries of the other tables again): the proofs take seconds each.
	for _, ty := range []assoc.Type{assoc.Int32, assoc.Float32} {
		es, err := GenerateHand(ty, ops, 10*time.Second, testRlimit)
		if err != nil {
			t.Fatalf("%v: %v", ty, err)
		}
		want := map[string]struct {
			comm bool
			id   string
		}{"complex-mul": {true, "{1, 0}"}, "mat2-mul": {false, "{1, 0, 0, 1}"}, "quaternion-mul": {false, "{1, 0, 0, 0}"}}
		if ty.Float() {
			want = map[string]struct {
				comm bool
				id   string
			}{"complex-mul": {true, "{1.0, 0.0}"}, "mat2-mul": {false, "{1.0, 0.0, 0.0, 1.0}"}, "quaternion-mul": {false, "{1.0, 0.0, 0.0, 0.0}"}}
		}
		for _, name := range []string{"argmin", "argmax", "argmin-select", "argmax-select"} {
			want[name] = struct {
				comm bool
				id   string
			}{false, "none"}
		}
		// Counts and least-index argmin commute (ties add, or take the
		// least index); their identity is the extreme value with a zero
		// count or the greatest index, none over the reals (no infinity).
		lo, hi := assoc.Const(assoc.IntValue(0, ty), ty).String(), assoc.Const(assoc.IntValue(-1, ty), ty).String() // unsigned
		if ty.Signed() {
			lo, hi = assoc.Const(assoc.IntValue(math.MinInt64>>(64-ty.Bits()), ty), ty).String(), assoc.Const(assoc.IntValue(-1, ty)>>1, ty).String()
		}
		for name, id := range map[string]string{"min-count": "{" + hi + ", 0}", "max-count": "{" + lo + ", 0}",
			"argmin-lex": "{" + hi + ", " + hi + "}", "argmax-lex": "{" + lo + ", " + hi + "}"} {
			if ty.Float() {
				id = "none"
			}
			want[name] = struct {
				comm bool
				id   string
			}{true, id}
		}
		// Kadane's 4-tuple keeps its order and has no identity (it would
		// need −∞); the Fibonacci ring's is M⁰.
		want["kadane"] = struct {
			comm bool
			id   string
		}{false, "none"}
		want["fib-mul"] = struct {
			comm bool
			id   string
		}{true, map[bool]string{false: "{1, 0}", true: "{1.0, 0.0}"}[ty.Float()]}
		// An 8- or 16-bit accumulator held in an int (int32 only) commutes
		// and has no identity (x ↦ i32(u8(e + x)) is no identity on
		// values above 255).
		if ty == assoc.Int32 {
			for _, name := range []string{"byte-sum", "short-sum"} {
				want[name] = struct {
					comm bool
					id   string
				}{true, "none"}
			}
			// Lexicographic argmin and argmax as C's if writes them:
			// commutative, the extreme value with the greatest index.
			want["argmin-lex-if"] = struct {
				comm bool
				id   string
			}{true, "{2147483647, 2147483647}"}
			want["argmax-lex-if"] = struct {
				comm bool
				id   string
			}{true, "{-2147483648, 2147483647}"}
			// The segment flag's least value and an empty sum.
			want["segmented-sum"] = struct {
				comm bool
				id   string
			}{false, "{-2147483648, 0}"}
		}
		if ty.Float() {
			// Log-sum-exp commutes; over the reals it has no identity
			// (it would need m = −∞).
			want["logsumexp"] = struct {
				comm bool
				id   string
			}{true, "none"}
			// log(exp(x) + exp(y)) and the sums, products, least and
			// largest of magnitudes commute, without an identity (−∞
			// for logaddexp; fabs(e) is no negative value).
			for _, name := range []string{"logaddexp", "abs-sum", "abs-product", "abs-max", "abs-min"} {
				want[name] = struct {
					comm bool
					id   string
				}{true, "none"}
			}
		}
		// The least and largest magnitude are exact: associative in IEEE
		// arithmetic too.
		ieee := map[string]bool{"abs-max": true, "abs-min": true}
		if len(es) != len(want) {
			t.Errorf("%v: %d entries", ty, len(es))
		}
		for _, e := range es {
			w := want[e.Name]
			id := "none"
			if e.Identity != nil {
				id = strings.ReplaceAll(assoc.Tuple{Elems: e.Identity}.String(), "-0.0", "0.0") // one real zero
			}
			if e.Commutative != w.comm || id != w.id || e.RealOnly != (ty.Float() && !ieee[e.Name]) {
				t.Errorf("%v %s: commutative %v identity %s RealOnly %v, want %v %s", ty, e.Name, e.Commutative, id, e.RealOnly, w.comm, w.id)
			}
		}
	}
	if _, err := GenerateHand(assoc.Int32, []assoc.HandOp{{Name: "sub", Src: "{x0 - y0, x1 - y1}", Line: 1}}, time.Second, testRlimit); err == nil {
		t.Errorf("x - y accepted as a primitive")
	}
}

func TestGenerateErrors(t *testing.T) {
	for _, cfg := range []GenConfig{
		{Type: assoc.Int32, MaxLeaves: 3, TupleSize: 3},
		{Type: assoc.Int32, MaxLeaves: 1, TupleSize: 1},
		{Type: assoc.Type(len(assoc.Types())), MaxLeaves: 3, TupleSize: 1},
	} {
		if _, _, err := Generate(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

// BenchmarkGenerateInt32Leaves3 times the whole pipeline on the int32
// 1-tuples of up to 3 leaves (406 candidates, 37 operators).
func BenchmarkGenerateInt32Leaves3(b *testing.B) {
	needZ3(b)
	for b.Loop() {
		es, _, err := Generate(GenConfig{Type: assoc.Int32, MaxLeaves: 3, TupleSize: 1, Jobs: 1, ResourceLimit: testRlimit})
		if err != nil {
			b.Fatal(err)
		}
		sinkCount = len(es)
	}
	b.ReportMetric(float64(sinkCount), "entries")
}

// Grouping candidates by fingerprint (GenConfig.Classes) gives the
// table that proving each candidate gives (the shipped one, generated
// without classes), with fewer proofs: the members of a class carry
// their representative's identity and commutativity, shown equal to it
// by normal forms or one Z3 query.
func TestGenerateClasses(t *testing.T) {
	needZ3(t)
	cfg := GenConfig{Type: assoc.Uint8, MaxLeaves: 3, TupleSize: 1, Jobs: 2, ResourceLimit: testRlimit, Classes: true}
	grouped, stats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := stats.Class
	t.Logf("%d entries; %s", len(grouped), c)
	if c.Members == 0 || c.ByNF+c.ByZ3 == 0 {
		t.Errorf("no class with a member shown equal: %s", c)
	}
	if c.Classes+c.Members != stats.Total().NonDecomposable {
		t.Errorf("%d classes and %d members, %d elementary candidates", c.Classes, c.Members, stats.Total().NonDecomposable)
	}
	shipped, err := assoc.Embedded(assoc.Uint8)
	if err != nil {
		t.Fatal(err)
	}
	lines := func(es []assoc.Entry) map[string]bool {
		out := map[string]bool{}
		for k := range es {
			e := es[k]
			if e.Name != "" || len(e.Elems) != 1 || e.Leaves > cfg.MaxLeaves {
				continue
			}
			e.Proof = ""
			out[assoc.FormatEntryLine(&e)] = true
		}
		return out
	}
	got, want := lines(grouped), lines(shipped.Entries)
	for l := range want {
		if !got[l] {
			t.Errorf("shipped entry %q missing with classes", l)
		}
	}
	for l := range got {
		if !want[l] {
			t.Errorf("entry %q with classes is not shipped", l)
		}
	}
	eq := 0
	for k := range grouped {
		if strings.Contains(grouped[k].Proof, " eq ") {
			eq++
		}
	}
	if eq != c.ByNF+c.ByZ3 {
		t.Errorf("%d entries proved by equality, stats say %d", eq, c.ByNF+c.ByZ3)
	}
}

// sameFunction shows equal forms of one function equal and refuses
// different ones, however close.
func TestSameFunction(t *testing.T) {
	needZ3(t)
	w := newGenWorker(GenConfig{Type: assoc.Int32, Timeout: DefaultGenTimeout, ResourceLimit: testRlimit}, &journal{})
	defer w.close()
	for _, c := range []struct {
		a, b, want string
	}{
		{"x + y - k", "x - (k - y)", "nf"},
		{"(x | y) & k", "x & k | y & k", "z3"},
		{"max(x + k, y + k)", "max(x, y) + k", ""}, // not where x + k wraps
		{"x + y", "x ^ y", ""},
		{"min(x, y) + k", "min(x + k, y)", ""},
	} {
		got, err := w.sameFunction(mustTuple(t, c.a, assoc.Int32), mustTuple(t, c.b, assoc.Int32))
		if err != nil || got != c.want {
			t.Errorf("sameFunction(%s, %s) = %q, %v; want %q", c.a, c.b, got, err, c.want)
		}
	}
}

// A run with classes and no bound given is bounded by Z3's resource
// count (DefaultClassRlimit), which its journal names, and resumed from
// a journal cut short it gives the table of the run it resumes: with a
// resource limit the outcomes do not depend on the machine's load.
func TestGenerateClassesResume(t *testing.T) {
	needZ3(t)
	dir := t.TempDir()
	jname := filepath.Join(dir, "j")
	cfg := GenConfig{Type: assoc.Uint8, MaxLeaves: 3, TupleSize: 1, Jobs: 2, Classes: true, Journal: jname}
	want, stats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if stats.Wall <= 0 || stats.CPU < 0 {
		t.Errorf("wall %v, cpu %v", stats.Wall, stats.CPU)
	}
	data, err := os.ReadFile(jname)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(data), "\n")
	if !strings.HasSuffix(head, " rlimit=5000000") || strings.Contains(head, "timeout=") {
		t.Errorf("journal header %q: want the default resource limit and no timeout", head)
	}
	lines := strings.SplitAfter(string(data), "\n")
	keep := 1 + (len(lines)-2)/2
	torn := strings.Join(lines[:keep], "") + lines[keep][:len(lines[keep])/2]
	if err := os.WriteFile(jname, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg.Resume = true
	got, stats2, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if stats2.Replayed != keep-1 {
		t.Errorf("replayed %d outcomes, want %d", stats2.Replayed, keep-1)
	}
	if stats.Queries == 0 || stats2.Queries >= stats.Queries {
		t.Errorf("Z3 queries: %d, then %d resumed", stats.Queries, stats2.Queries)
	}
	if a, b := entryLines(want), entryLines(got); a != b {
		t.Errorf("resumed table differs:\n%s\nvs\n%s", b, a)
	}
	// Another resource limit is another run.
	cfg.ResourceLimit = DefaultClassRlimit / 2
	if _, _, err := Generate(cfg); err == nil || !strings.Contains(err.Error(), "another run") {
		t.Errorf("journal of another resource limit: %v", err)
	}
}

// Under a resource limit the journal's header names no timeout (only a
// guard then): a journal whose header names one, as they did, is of the
// same run whatever it was.
func TestJournalSameRun(t *testing.T) {
	cfg := GenConfig{Type: assoc.Int32, TupleSize: 1, Samples: 100, Seed: 1, Timeout: 2 * time.Second, ResourceLimit: 5_000_000}
	head := journalHeader(cfg)
	if want := journalMagic + " type=int32 tuple=1 samples=100 seed=1 rlimit=5000000"; head != want {
		t.Fatalf("header %q, want %q", head, want)
	}
	for _, c := range []struct {
		first string
		want  bool
	}{
		{head, true},
		{journalMagic + " type=int32 tuple=1 samples=100 seed=1 timeout=5s rlimit=5000000", true},
		{journalMagic + " type=int32 tuple=1 samples=100 seed=1 timeout=5s rlimit=50000000", false},
		{journalMagic + " type=int32 tuple=1 samples=100 seed=1 timeout=2s", false},
		{journalMagic + " type=int32 tuple=1 samples=100 seed=2 timeout=5s rlimit=5000000", false},
	} {
		if got := sameRun(c.first, head); got != c.want {
			t.Errorf("sameRun(%q) = %v, want %v", c.first, got, c.want)
		}
	}
	cfg.ResourceLimit = 0
	if !sameRun(journalMagic+" type=int32 tuple=1 samples=100 seed=1 timeout=2s", journalHeader(cfg)) {
		t.Errorf("timeout header %q", journalHeader(cfg))
	}
}

func TestClassETA(t *testing.T) {
	for _, c := range []struct {
		el                              time.Duration
		proving, left, fresh, candsLeft int
		want                            string
	}{
		{time.Minute, 0, 10, 0, 10, "ETA ?"},
		{time.Minute, 30, 0, 100, 0, "ETA 0s"},
		// 60 s for 30 classes of 120 candidates: 60 classes of 90
		// candidates left take between 45 s and 2 min.
		{time.Minute, 30, 60, 120, 90, "2.0 s/class, ETA 45s to 2m0s"},
	} {
		if got := classETA(c.el, c.proving, c.left, c.fresh, c.candsLeft); got != c.want {
			t.Errorf("classETA(%v, %d, %d, %d, %d) = %q, want %q", c.el, c.proving, c.left, c.fresh, c.candsLeft, got, c.want)
		}
	}
}

// A run bounded to its largest classes (GenConfig.MaxClasses) decides
// only those, its entries among the whole run's, and the rest are
// counted as left undecided; resumed from its journal without the bound,
// it gives the whole run's table, replaying what it decided.
func TestGenerateMaxClasses(t *testing.T) {
	needZ3(t)
	cfg := GenConfig{Type: assoc.Uint8, MaxLeaves: 3, TupleSize: 1, Jobs: 2, ResourceLimit: testRlimit, Classes: true}
	whole, wstats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n := wstats.Class.Classes / 2
	cfg.MaxClasses = n
	cfg.Journal = filepath.Join(t.TempDir(), "j")
	part, pstats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := pstats.Class
	t.Logf("%d of %d entries with %d of %d classes; %s", len(part), len(whole), n, wstats.Class.Classes, c)
	if c.CutClasses != wstats.Class.Classes-n || c.Cut < c.CutClasses {
		t.Errorf("%d classes cut (%d candidates), want %d", c.CutClasses, c.Cut, wstats.Class.Classes-n)
	}
	if pt, wt := pstats.Total(), wstats.Total(); pt.NonDecomposable != wt.NonDecomposable || pt.Proved+pt.Refuted+pt.Unknown+c.Cut != wt.NonDecomposable {
		t.Errorf("bounded run: %d elementary, %d proved, %d refuted, %d unknown, %d cut; whole run %d elementary",
			pt.NonDecomposable, pt.Proved, pt.Refuted, pt.Unknown, c.Cut, wt.NonDecomposable)
	}
	if len(part) == 0 || len(part) >= len(whole) {
		t.Errorf("%d entries with %d classes, %d with all", len(part), n, len(whole))
	}
	all := entryLines(whole)
	for _, l := range strings.SplitAfter(entryLines(part), "\n") {
		if !strings.Contains(all, l) {
			t.Errorf("entry %q of the bounded run not in the whole run", l)
		}
	}
	cfg.MaxClasses, cfg.Resume = 0, true
	ext, estats, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if estats.Replayed == 0 {
		t.Errorf("the extending run replayed nothing")
	}
	if a, b := entryLines(whole), entryLines(ext); a != b {
		t.Errorf("extended table differs from the whole run's:\n%s\nvs\n%s", b, a)
	}
}
