package assoc_test

import (
	"errors"
	"testing"
	"time"

	"nestor/assoc"
	"nestor/assoc/prove"
)

// The corpus oracle's prover (corpus_test.go): assoc/prove's, bounded as
// prove's own tests bound theirs, by Z3's deterministic resource count
// (the timeout only guards against a hung z3).
func init() {
	assoc.NewZ3Claims = func(tb testing.TB, wrap, real bool) assoc.Z3Claims {
		tb.Helper()
		p, err := prove.NewProver(prove.Options{Wrap: wrap, Real: real}, 30*time.Second)
		if errors.Is(err, prove.ErrNoZ3) {
			tb.Skip(err)
		}
		if err != nil {
			tb.Fatal(err)
		}
		p.SetResourceLimit(30_000_000)
		tb.Cleanup(func() { p.Close() })
		return claims{p}
	}
}

type claims struct{ p *prove.Prover }

func answer(v prove.Verdict, reason string) assoc.Z3Answer {
	return assoc.Z3Answer{Proved: v == prove.Proved, Refuted: v == prove.Refuted, Reason: reason}
}

func result(r prove.Result, err error) (assoc.Z3Answer, error) {
	return answer(r.Verdict, r.Reason), err
}

func (c claims) Associative(f assoc.Tuple) (assoc.Z3Answer, error) {
	return result(c.p.Associative(f))
}

func (c claims) Commutative(f assoc.Tuple) (assoc.Z3Answer, error) {
	return result(c.p.Commutative(f))
}

func (c claims) Equal(a, b *assoc.Expr) (assoc.Z3Answer, error) { return result(c.p.Equal(a, b)) }

func (c claims) IsIdentity(f assoc.Tuple, e []*assoc.Expr) (assoc.Z3Answer, error) {
	return result(c.p.IsIdentity(f, e, prove.BothSides))
}

func (c claims) IdentityExists(f assoc.Tuple) (assoc.Z3Answer, error) {
	r, err := c.p.IdentityExists(f, prove.BothSides)
	return answer(r.Verdict, r.Reason), err
}
