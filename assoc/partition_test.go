package assoc

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPartitions compares the grouping search with every grouping of up
// to 7 subgraphs enumerated directly, on random sharing graphs.
func TestPartitions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		n := 2 + trial%6
		initial := make([]uint32, n)
		for i := range initial {
			initial[i] = 1 << uint(i) // one element each
			if rng.IntN(4) == 0 && i+1 < 32 {
				initial[i] |= 1 << uint(n+i) // and sometimes a second
			}
		}
		shares := make([]uint32, n)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(3) == 0 {
					shares[i] |= 1 << uint(j)
					shares[j] |= 1 << uint(i)
				}
			}
		}
		maxSize := 2 + rng.IntN(3)
		got := partitions(initial, maxSize, shares)
		want := bruteGroupings(initial, maxSize, shares)
		key := func(ps [][]int) []string {
			var ks []string
			for _, p := range ps {
				ks = append(ks, fmt.Sprint(p))
			}
			slices.Sort(ks)
			return ks
		}
		if !slices.Equal(key(got), key(want)) {
			t.Fatalf("trial %d (initial %b, shares %b, max %d):\ngot  %v\nwant %v", trial, initial, shares, maxSize, key(got), key(want))
		}
	}
}

// bruteGroupings lists every grouping (restricted growth strings) but
// the initial one whose groups hold at most maxSize elements and are
// connected by shares.
func bruteGroupings(initial []uint32, maxSize int, shares []uint32) [][]int {
	n := len(initial)
	var out [][]int
	cur := make([]int, n)
	var rec func(i, groups int)
	rec = func(i, groups int) {
		if i == n {
			if groups == n {
				return
			}
			for g := range groups {
				var members, union uint32
				for j := range n {
					if cur[j] == g {
						members |= 1 << uint(j)
						union |= initial[j]
					}
				}
				if bits.OnesCount32(union) > maxSize || !connected(members, shares) {
					return
				}
			}
			out = append(out, slices.Clone(cur))
			return
		}
		for g := 0; g <= groups; g++ {
			cur[i] = g
			next := groups
			if g == groups {
				next++
			}
			rec(i+1, next)
		}
	}
	rec(0, 0)
	return out
}

// TestPartitionsUnrelated: the accumulators of an unrolled loop share
// nothing, so no grouping can hold two of them; the search must see that
// at once instead of visiting the groupings of 16 updates.
func TestPartitionsUnrelated(t *testing.T) {
	initial := make([]uint32, 16)
	for i := range initial {
		initial[i] = 1 << uint(i)
	}
	out, steps := searchPartitions(initial, 4, make([]uint32, 16))
	if len(out) != 0 {
		t.Errorf("%d groupings of unrelated updates, want none", len(out))
	}
	if steps > 1000 {
		t.Errorf("%d steps, want at most 1000 (the search should prune each merge at once)", steps)
	}
}
