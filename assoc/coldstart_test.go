package assoc

import (
	"sync"
	"testing"
)

// resetTableCaches forgets every table and index a process builds on
// first use, so that the next Recognize pays what a fresh process pays
// (less the page faults of fresh memory).
func resetTableCaches() {
	embedded.Lock()
	embedded.tables = nil
	embedded.Unlock()
	embeddedAll.Lock()
	embeddedAll.tables = nil
	embeddedAll.Unlock()
	embeddedLayers.Lock()
	embeddedLayers.tables = [2]map[Type]*Table{}
	embeddedLayers.packed = nil
	embeddedLayers.Unlock()
	tableIndexes = sync.Map{}
	synthIndexes = sync.Map{}
	wrapChecks = sync.Map{}
}

func benchmarkCold(b *testing.B, src string, refused bool) {
	tp, err := ParseTuple(src, Int32)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		resetTableCaches()
		if _, err := Recognize(tp, MatchOptions{Synthesize: true}); (err != nil) != refused {
			b.Fatal(err)
		}
	}
}

func BenchmarkColdCommon(b *testing.B)  { benchmarkCold(b, "x + y", false) }
func BenchmarkColdMore(b *testing.B)    { benchmarkCold(b, "x + (y - x * (y + y * k))", false) }
func BenchmarkColdRefused(b *testing.B) { benchmarkCold(b, "x * y + 1", true) }
