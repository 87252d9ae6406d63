package assoc

import (
	"fmt"
	"strings"
	"testing"
)

// indexLines writes a list of indexed entries, one line each, with what
// matching reads of them.
func indexLines(list []*entryIndex) string {
	var b strings.Builder
	for _, ei := range list {
		fmt.Fprintf(&b, "%s | %v %v %d %v\n", FormatEntryLine(ei.entry), ei.xcount, ei.carried, ei.nk, ei.entry.canonical)
	}
	return b.String()
}

// The layered tables Recognize reads (tablelazy.go) give every lookup
// the entries, in the order, of the shipped tables decoded whole: the
// small table (Embedded) and it with the larger operators (EmbeddedAll);
// synthesis gets the same entries without k; and Recognize answers the
// same with either.
func TestLayeredIsAll(t *testing.T) {
	for _, ty := range Types() {
		for _, more := range []bool{false, true} {
			whole, err := Embedded(ty)
			if more {
				whole, err = EmbeddedAll(ty)
			}
			if err != nil {
				t.Fatal(err)
			}
			layered, err := embeddedLayered(ty, more)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%v more=%v", ty, more)
			wx, lx := indexOf(whole), indexOf(layered)
			if wx.maxSize != lx.maxSize {
				t.Errorf("%s: largest tuple %d, want %d", name, lx.maxSize, wx.maxSize)
			}
			keys := map[uint64]bool{}
			for k := range wx.byKey {
				keys[k] = true
			}
			for _, layer := range layered.layers.layers {
				for _, k := range layer.keys {
					keys[k] = true
				}
			}
			n := 0
			for k := range keys {
				got, want := lx.list(k), wx.byKey[k]
				n += len(got)
				if g, w := indexLines(got), indexLines(want); g != w {
					t.Errorf("%s: key %d: layered list\n%s\nwant\n%s", name, k, g, w)
				}
			}
			if n != len(wx.all) {
				t.Errorf("%s: %d entries in the layered lists, want %d", name, n, len(wx.all))
			}
			var noK []*entryIndex
			for _, ei := range wx.all {
				if ei.nk == 0 {
					noK = append(noK, ei)
				}
			}
			if g, w := indexLines(lx.synthCandidates()), indexLines(noK); g != w {
				t.Errorf("%s: synthesis candidates differ", name)
			}
		}
	}
	// Recognize with each: the corpus, and updates made of the larger
	// operators (recognized or not).
	cases := loadCorpus(t)
	var updates []Tuple
	var opts []MatchOptions
	for _, c := range cases {
		updates, opts = append(updates, c.update), append(opts, c.opts)
	}
	if more, _ := EmbeddedMore(Int32); more != nil {
		inv := MatchOptions{Invariant: func(name string) bool { return name == "c" }, Synthesize: true}
		for i := 0; i < len(more.Entries); i += 97 {
			e := more.Entries[i].Elems[0]
			u := substK(substY(e, []*Expr{Var("in(r)", Int32)}), Var("c", Int32))
			updates, opts = append(updates, Tuple{Elems: []*Expr{u}}), append(opts, inv)
			if e.Op == OpAdd {
				u = Apply(OpSub, u.Args[0], u.Args[1])
				updates, opts = append(updates, Tuple{Elems: []*Expr{u}}), append(opts, inv)
			}
		}
	}
	answer := func(m *Match, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%v y %v id %v comm %v parts %d", m.Tuple, m.Y, m.Identity, m.Commutative, len(m.Parts))
	}
	for _, more := range []bool{false, true} {
		for i, u := range updates {
			whole, layered := opts[i], opts[i]
			whole.Tables, layered.Tables = Embedded, embeddedSmall
			if more {
				whole.Tables, layered.Tables = EmbeddedAll, embeddedMore
			}
			w := answer(Recognize(u, whole))
			if g := answer(Recognize(u, layered)); g != w {
				t.Errorf("%v (more=%v): layered tables give %s, want %s", u, more, g, w)
			}
		}
	}
	t.Logf("%d updates", len(updates))
}

// Goroutines that recognize updates at once, from tables not yet
// decoded, get the answers one gets alone (go test -race checks the
// layers' locking).
func TestLayeredConcurrent(t *testing.T) {
	cases := loadCorpus(t)
	answer := func(i int) string {
		opts := cases[i].opts
		opts.Tables = nil
		m, err := Recognize(cases[i].update, opts)
		if err != nil {
			return err.Error()
		}
		return fmt.Sprintf("%v y %v id %v comm %v", m.Tuple, m.Y, m.Identity, m.Commutative)
	}
	want := make([]string, len(cases))
	for i := range cases {
		want[i] = answer(i)
	}
	resetTableCaches()
	defer resetTableCaches()
	const workers = 4
	got := make([]string, len(cases))
	done := make(chan bool)
	for w := range workers {
		go func() {
			for i := w; i < len(cases); i += workers {
				got[len(cases)-1-i] = answer(len(cases) - 1 - i)
			}
			done <- true
		}()
	}
	for range workers {
		<-done
	}
	for i := range cases {
		if got[i] != want[i] {
			t.Errorf("%s: concurrently %s, alone %s", cases[i].src, got[i], want[i])
		}
	}
}
