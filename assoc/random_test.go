package assoc

import (
	"math/rand/v2"
	"testing"
)

// The random tests over the reals accept what is associative over the
// reals but not in IEEE arithmetic, and reject the rest.
func TestRealRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"x + y", true}, {"x * y", true}, {"x + y + k", true}, {"{x0 * y0 - x1 * y1, x0 * y1 + x1 * y0}", true},
		{"x - y", false}, {"x / y", false}, {"x * y + k", false}, {"max(x, y) + k", false},
	} {
		tp := mustTuple(t, c.src, Float64)
		if got := RealRandomAssociative(tp, rng, 100); got != c.want {
			t.Errorf("%s: %v, want %v", c.src, got, c.want)
		}
	}
	if RandomAssociative(mustTuple(t, "x + y", Float32), rng, 100) {
		t.Errorf("IEEE float32 x + y passed the IEEE random tests")
	}
}
