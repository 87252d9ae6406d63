package prove

import (
	"errors"
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"nestor/assoc"
)

// reproveEntries is how many entries of each shipped table
// TestEmbeddedReprove proves again; one hand primitive of one table is
// added (their proofs take seconds each).
const reproveEntries = 3

var reproveSeed = flag.Uint64("reproveseed", 1, "seed of TestEmbeddedReprove's sample of table entries (0: the clock)")

// A random sample of every shipped table is proved again with Z3:
// associativity in the entry's semantics, the recorded identity on both
// sides, and the commutativity flag (true: proved; false: a random
// counterexample, or Z3 does not prove it).
func TestEmbeddedReprove(t *testing.T) {
	if _, err := Z3Path(); errors.Is(err, ErrNoZ3) {
		t.Skip(err)
	}
	// A fixed sample by default, so that a failure reproduces; -reproveseed
	// draws another (0: from the clock).
	seed := *reproveSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 5))
	provers := map[Options]*Prover{}
	prover := func(o Options) *Prover {
		if provers[o] == nil {
			provers[o] = newTestProver(t, o)
		}
		return provers[o]
	}
	handType := assoc.Types()[1+rng.IntN(len(assoc.Types())-1)] // not Bool, which has none
	for _, ty := range assoc.Types() {
		tb, err := assoc.Embedded(ty)
		if err != nil {
			t.Errorf("%v: %v", ty, err)
			continue
		}
		var sample, hand []*assoc.Entry
		for k := range tb.Entries {
			if tb.Entries[k].Name != "" {
				hand = append(hand, &tb.Entries[k])
			}
		}
		for range reproveEntries {
			sample = append(sample, &tb.Entries[rng.IntN(len(tb.Entries))])
		}
		if ty == handType && len(hand) > 0 {
			sample = append(sample, hand[rng.IntN(len(hand))])
		}
		for _, e := range sample {
			reprove(t, ty, e, prover, rng)
		}
	}
}

func reprove(t *testing.T, ty assoc.Type, e *assoc.Entry, prover func(Options) *Prover, rng *rand.Rand) {
	t.Helper()
	// Associativity in the mode the generator proved it: with
	// wrap-around for the int32 and int64 entries flagged w (which
	// implies it without), else in the table's semantics. Identity and
	// commutativity are the table's semantics.
	opts := Options{Real: e.RealOnly}
	p, pa := prover(opts), prover(opts)
	if e.Wraps && (ty == assoc.Int32 || ty == assoc.Int64) {
		pa = prover(Options{Wrap: true})
	}
	r, err := pa.Associative(e.Tuple)
	if err != nil || r.Verdict != Proved {
		t.Errorf("%v: %s: associativity %v, %v", ty, e.Tuple, r, err)
	}
	if e.Identity != nil {
		r, _, err := p.checkIdentity(e.Tuple, e.Identity, BothSides, nil)
		if err != nil || r.Verdict != Proved {
			t.Errorf("%v: %s: identity %v: %v, %v", ty, e.Tuple, e.Identity, r, err)
		}
	}
	if !e.Commutative && !e.RealOnly && assoc.RandomNotCommutative(e.Tuple, rng, 200) {
		return
	}
	c, err := p.Commutative(e.Tuple)
	if err != nil || (c.Verdict == Proved) != e.Commutative {
		t.Errorf("%v: %s: commutative %v, z3 says %v, %v", ty, e.Tuple, e.Commutative, c, err)
	}
}

// The paper's first ten int32 operators are in the shipped int32 table,
// with their identities and commutativity (see tenInt32 in prove_test.go
// for why each is what it is).
func TestEmbeddedTenInt32(t *testing.T) {
	tb, err := assoc.Embedded(assoc.Int32)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tenInt32() {
		want := assoc.CanonTuple(one(c.f))
		var found *assoc.Entry
		for k := range tb.Entries {
			if e := &tb.Entries[k]; len(e.Elems) == 1 && e.Elems[0].Equal(want.Elems[0]) {
				found = e
			}
		}
		if found == nil {
			t.Errorf("%s (canonically %s) is not in the int32 table", c.name, want)
			continue
		}
		if found.Commutative != c.commutative {
			t.Errorf("%s: commutative %v, want %v", c.name, found.Commutative, c.commutative)
		}
		switch {
		case c.both == nil && found.Identity != nil:
			t.Errorf("%s: identity %v, want none", c.name, found.Identity)
		case c.both != nil && (found.Identity == nil || !found.Identity[0].Equal(c.both)):
			t.Errorf("%s: identity %v, want %v", c.name, found.Identity, c.both)
		}
		if found.RealOnly || found.Leaves != c.f.Leaves() {
			t.Errorf("%s: RealOnly %v, leaves %d", c.name, found.RealOnly, found.Leaves)
		}
	}
}
