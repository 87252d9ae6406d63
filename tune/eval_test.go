package tune

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"nestor/check"
	"nestor/frontend"
	"nestor/model"
	"nestor/pipeline"
)

// TestRandomCandidates builds random complete candidates of corpus
// kernels at MINI size, checks each against the original by execution
// (every point of the space must be correct) and checks that the lower
// bound is below every measured time (it must be sound).
func TestRandomCandidates(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	ctx := context.Background()
	for _, name := range []string{"gemm", "2mm", "jacobi-2d", "atax"} {
		t.Run(name, func(t *testing.T) {
			r := region(t, name)
			e, err := NewEvaluator(ctx, r.File, nil, EvalOptions{Check: check.Options{Defines: []string{"MINI_DATASET"}}, Threads: 2, Runs: 1, Dir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			m := MachineOf(model.Host(), 2)
			s, err := NewSearcher(r, e, m, Options{Budget: 1})
			if err != nil {
				t.Fatal(err)
			}
			if s.Cost.Ops <= 0 {
				t.Fatalf("cost %+v: want positive operations", s.Cost)
			}
			d, _ := r.Space.NewDomains()
			mark := d.Mark()
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			for k := range 5 {
				d.Undo(mark)
				if !randomComplete(d, rng) {
					t.Fatal("dead end")
				}
				opt := r.Opt
				opt.Decide = []pipeline.Decisions{r.Decisions(d)}
				code, err := pipeline.Optimize(r.File, opt)
				if err != nil {
					t.Fatalf("%s: %v", Describe(d.Assignment()), err)
				}
				meas := e.Eval(ctx, "r"+string(rune('0'+k)), filepath.Base(r.File.Path), code)
				if meas.Err != "" {
					t.Fatalf("candidate %s: %s", Describe(d.Assignment()), meas.Err)
				}
				if b := r.Bound(d, m, s.Cost); b > meas.Time.Seconds() {
					t.Errorf("candidate %s: bound %.3g s above the measured %.3g s", Describe(d.Assignment()), b, meas.Time.Seconds())
				}
			}
		})
	}
}

// miniGemm returns gemm's region and an evaluator of it at MINI size.
func miniGemm(t *testing.T) (*Region, *Evaluator) {
	t.Helper()
	r := region(t, "gemm")
	e, err := NewEvaluator(context.Background(), r.File, nil, EvalOptions{Check: check.Options{Defines: []string{"MINI_DATASET"}}, Threads: 1, Runs: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return r, e
}

// TestSearch runs a small search on gemm: the default policy is measured
// first, every record is correct and distinct, and the best record's
// decisions regenerate its code.
func TestSearch(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	ctx := context.Background()
	r, e := miniGemm(t)
	s, err := NewSearcher(r, e, MachineOf(model.Host(), 1), Options{Budget: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) == 0 || !res.Records[0].Default {
		t.Fatalf("the first record is not the default policy's: %+v", res.Records)
	}
	if len(res.Records) > 5 {
		t.Errorf("%d evaluations, budget 5", len(res.Records))
	}
	codes := map[string]bool{}
	for _, rec := range res.Records {
		if rec.Error != "" {
			t.Errorf("evaluation %d: %s", rec.Eval, rec.Error)
		}
		if codes[rec.Code] {
			t.Errorf("code %s measured twice", rec.Code)
		}
		codes[rec.Code] = true
		if rec.Time > 0 && rec.Time < res.Best.Time {
			t.Errorf("record %d (%g s) beats the best (%g s)", rec.Eval, rec.Time, res.Best.Time)
		}
	}
	dec, err := r.Apply(res.Best)
	if err != nil {
		t.Fatal(err)
	}
	opt := r.Opt
	opt.Decide = []pipeline.Decisions{dec}
	code, err := pipeline.Optimize(r.File, opt)
	if err != nil {
		t.Fatal(err)
	}
	if h := HashCode(code); h != res.Best.Code {
		t.Errorf("the best record's decisions give code %s, recorded %s", h, res.Best.Code)
	}
}

// TestEvalMainLocals checks that a candidate of a region in main is
// compared on main's local variables: the original passes, a copy that
// computes something else is wrong.
func TestEvalMainLocals(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	ctx := context.Background()
	f, err := frontend.ParseFile("testdata/mainlocal.c", frontend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(ctx, f, nil, EvalOptions{Threads: 1, Runs: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if m := e.Eval(ctx, "same", "mainlocal.c", f.Src); m.Err != "" {
		t.Fatalf("the original itself: %s", m.Err)
	}
	bad := bytes.Replace(f.Src, []byte("a[j][i] * 2.0"), []byte("a[j][i] * 3.0"), 1)
	if bytes.Equal(bad, f.Src) {
		t.Fatal("test file changed: nothing replaced")
	}
	if m := e.Eval(ctx, "bad", "mainlocal.c", bad); !m.Wrong {
		t.Fatalf("a candidate computing another s: %+v, want a wrong result", m)
	}
}

// fakeEval times a candidate by its code alone, with no compiler: a
// search measure from the hash, and a confirmation measure (a name that
// starts with "confirm") in the reverse order, so that measuring again
// changes which candidate is fastest.
type fakeEval struct{ calls map[string]int }

func (f *fakeEval) Eval(_ context.Context, name, _ string, src []byte) Measure {
	h := HashCode(src)
	var v uint64
	for _, c := range h[:8] {
		v = v*16 + uint64(strings.IndexRune("0123456789abcdef", c))
	}
	search := 1 + float64(v%1000)/1000 // seconds, in [1, 2)
	d := time.Duration(search * 1e9)
	if strings.HasPrefix(name, "confirm") {
		f.calls[h]++
		d = time.Duration((4 - search) * 1e9)
	}
	return Measure{Time: d, Times: []time.Duration{d, d}}
}

// TestSearchConfirm: after the search, the default policy and the
// ConfirmTop fastest other candidates are measured again in Confirm
// rounds, and the fastest of those measures becomes the best, whatever
// the search measured; the search's fastest stays in Fastest.
func TestSearchConfirm(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	ctx := context.Background()
	r, e := miniGemm(t)
	fake := &fakeEval{calls: map[string]int{}}
	var lines bytes.Buffer
	s, err := NewSearcher(r, e, MachineOf(model.Host(), 1), Options{Budget: 12, Seed: 5, Eval: fake, Confirm: 3, Records: &lines})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) < ConfirmTop+2 {
		t.Fatalf("only %d candidates measured", len(res.Records))
	}
	// The confirmed set: the default and the ConfirmTop fastest others.
	var others []*Record
	for k := range res.Records {
		if rc := &res.Records[k]; !rc.Default {
			others = append(others, rc)
		}
	}
	slices.SortFunc(others, func(a, b *Record) int { return int((a.Time - b.Time) * 1e9) })
	want := map[string]bool{res.Default.Code: true}
	for _, rc := range others[:ConfirmTop] {
		want[rc.Code] = true
	}
	if len(res.Confirmed) != len(want) {
		t.Fatalf("%d candidates confirmed, want %d", len(res.Confirmed), len(want))
	}
	for k, c := range res.Confirmed {
		if !want[c.Record.Code] {
			t.Errorf("confirmed %s (search time %g s), not among the default and the fastest", c.Record.Code, c.Record.Time)
		}
		if fake.calls[c.Record.Code] != 3 || len(c.Times) != 6 {
			t.Errorf("%s measured again %d times (%d runs), want 3 rounds of 2 runs", c.Record.Code, fake.calls[c.Record.Code], len(c.Times))
		}
		if k > 0 && c.Time < res.Confirmed[k-1].Time {
			t.Errorf("confirmed measures out of order: %g after %g", c.Time, res.Confirmed[k-1].Time)
		}
	}
	// The reversed confirmation puts the slowest of the set first.
	slowest := res.Confirmed[0].Record
	for _, c := range res.Confirmed {
		if c.Record.Time > slowest.Time {
			slowest = c.Record
		}
	}
	if res.Best != res.Confirmed[0].Record || res.Best.Code != slowest.Code {
		t.Errorf("best %s, want the confirmed fastest %s", res.Best.Code, slowest.Code)
	}
	if res.Fastest == nil || res.Fastest.Code != others[0].Code && res.Fastest.Code != res.Default.Code {
		t.Errorf("Fastest %v is not the search's fastest", res.Fastest)
	}
	if got, ok := res.ConfirmedTime(res.Default); !ok || got <= 0 {
		t.Errorf("the default policy has no confirmed time")
	}
	// The records hold the confirmed measures after the evaluations;
	// Best (opt --records) takes the same candidate, and the summary
	// counts only the evaluations.
	recs, err := decodeRecords(&lines, "records")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(recs) - len(res.Records); n != len(res.Confirmed) {
		t.Errorf("%d confirmed records written, want %d", n, len(res.Confirmed))
	}
	if b := Best(recs, r.Index, ""); b == nil || !b.Confirmed || b.Code != res.Best.Code {
		t.Errorf("Best of the records is %+v, want the confirmed best %s", b, res.Best.Code)
	}
	sum := Summarize(recs)
	if sum.Evals != len(res.Records) {
		t.Errorf("the summary counts %d evaluations, want %d", sum.Evals, len(res.Records))
	}
	// The kept speedup: the default's confirmed time over the chosen's.
	def, _ := res.ConfirmedTime(res.Default)
	best, _ := res.ConfirmedTime(res.Best)
	if len(sum.Kept) != 1 || math.Abs(sum.Kept[0]-def/best) > 1e-9*def/best {
		t.Errorf("kept speedups %v, want [%g]", sum.Kept, def/best)
	}
}

// closeEval measures the search as fakeEval does, and in the
// confirmation gives the first candidate it meets (the default policy,
// measured first) one second and every other other seconds, or late
// seconds after the first three rounds when late is set. rounds, when
// set, records the rounds each candidate ran in.
type closeEval struct {
	fakeEval
	first       string
	other, late time.Duration
	rounds      map[string][]int
}

func (f *closeEval) Eval(ctx context.Context, name, file string, src []byte) Measure {
	if !strings.HasPrefix(name, "confirm") {
		return f.fakeEval.Eval(ctx, name, file, src)
	}
	var round int
	fmt.Sscanf(name, "confirm%d-", &round)
	h := HashCode(src)
	if f.rounds != nil {
		f.rounds[h] = append(f.rounds[h], round)
	}
	if f.first == "" {
		f.first = h
	}
	d := f.other
	switch {
	case h == f.first:
		d = time.Second
	case round > 3 && f.late > 0:
		d = f.late
	}
	return Measure{Time: d, Times: []time.Duration{d, d}}
}

// TestConfirmMargin: the confirmation keeps the default policy unless
// another candidate beats it by ConfirmMargin; the records then name the
// default as the best (opt --records).
func TestConfirmMargin(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	r, e := miniGemm(t)
	for _, c := range []struct {
		other       time.Duration
		wantDefault bool
	}{
		{995 * time.Millisecond, true},  // 0.5% faster: noise
		{900 * time.Millisecond, false}, // 10% faster in every round
	} {
		fake := &closeEval{fakeEval: fakeEval{calls: map[string]int{}}, other: c.other}
		var lines bytes.Buffer
		s, err := NewSearcher(r, e, MachineOf(model.Host(), 1), Options{Budget: 12, Seed: 5, Eval: fake, Confirm: 3, Records: &lines})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Confirmed) < 2 || res.Confirmed[0].Record.Default {
			t.Fatalf("other %v: the confirmed measures do not put another candidate first", c.other)
		}
		if got := res.Best.Default; got != c.wantDefault {
			t.Errorf("other %v: best is the default: %v, want %v", c.other, got, c.wantDefault)
		}
		recs, err := decodeRecords(&lines, "records")
		if err != nil {
			t.Fatal(err)
		}
		if b := Best(recs, r.Index, ""); b == nil || !b.Chosen || b.Code != res.Best.Code {
			t.Errorf("other %v: Best of the records is %+v, want the chosen %s", c.other, b, res.Best.Code)
		}
	}
}

// TestConfirmDuel: a candidate that beats the default policy clearly in
// the confirmation's rounds meets it again, the two alone, in as many
// more rounds; it is chosen only if it still beats it clearly over all
// of them. The other candidates are not measured again.
func TestConfirmDuel(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	r, e := miniGemm(t)
	for _, c := range []struct {
		late        time.Duration // the lucky candidate from round 4 on
		wantDefault bool
	}{
		{time.Second, true},             // level with the default in the duel
		{800 * time.Millisecond, false}, // still 20% faster
	} {
		fake := &closeEval{fakeEval: fakeEval{calls: map[string]int{}}, other: 800 * time.Millisecond, late: c.late, rounds: map[string][]int{}}
		s, err := NewSearcher(r, e, MachineOf(model.Host(), 1), Options{Budget: 12, Seed: 5, Eval: fake, Confirm: 3})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if res.Best.Default != c.wantDefault {
			t.Errorf("late %v: best is the default: %v, want %v", c.late, res.Best.Default, c.wantDefault)
		}
		if len(res.Confirmed) != ConfirmTop+1 {
			t.Fatalf("late %v: %d candidates confirmed, want %d", c.late, len(res.Confirmed), ConfirmTop+1)
		}
		// The winner of the first rounds is the first other candidate
		// confirmed (all tie at fast); it and the default run 6 rounds.
		duel := 0
		for _, cf := range res.Confirmed {
			rs := fake.rounds[cf.Record.Code]
			switch {
			case slices.Equal(rs, []int{1, 2, 3, 4, 5, 6}):
				duel++
				if len(cf.Rounds) != 6 {
					t.Errorf("late %v: %s has %d round medians, want 6", c.late, cf.Record.Code, len(cf.Rounds))
				}
			case !slices.Equal(rs, []int{1, 2, 3}):
				t.Errorf("late %v: %s measured in rounds %v", c.late, cf.Record.Code, rs)
			}
		}
		if duel != 2 {
			t.Errorf("late %v: %d candidates measured in 6 rounds, want the default and the winner", c.late, duel)
		}
	}
}

func TestClearlyFaster(t *testing.T) {
	for _, c := range []struct {
		t, d   float64
		rt, rd []float64
		want   bool
	}{
		{0.90, 1, []float64{0.9, 0.9, 0.9}, []float64{1, 1, 1}, true},
		{0.98, 1, []float64{0.98, 0.98, 0.98}, []float64{1, 1, 1}, false}, // within the margin
		{0.90, 1, []float64{0.9, 1.2, 1.3}, []float64{1, 1, 1}, false},    // faster in one round of three
		{0.90, 1, []float64{0.9, 0.8}, []float64{1, 0.7}, false},          // one of two: not a majority
	} {
		if got := clearlyFaster(Confirmation{Time: c.t, Rounds: c.rt}, Confirmation{Time: c.d, Rounds: c.rd}); got != c.want {
			t.Errorf("clearlyFaster(%v, %v, %v, %v) = %v, want %v", c.t, c.rt, c.d, c.rd, got, c.want)
		}
	}
}
