package assoc

import (
	"errors"
	"testing"
)

// TestCorpusRate counts, without Z3, how many of the corpus's associative
// reductions Recognize recognizes (the truth is each line's, which
// TestCorpus establishes), in a second: the figure of issue 17, which
// this file measures on any commit when copied there with the corpus.
func TestCorpusRate(t *testing.T) {
	cases := loadCorpus(t)
	var assoc, rec, wrongRefusal int
	var missed []string
	for _, c := range cases {
		if c.reject != "" {
			continue
		}
		assoc++
		opts := c.opts
		opts.Tables = corpusTables()
		_, err := Recognize(c.update, opts)
		if err == nil {
			rec++
			continue
		}
		missed = append(missed, c.name)
		var me *MatchError
		if errors.As(err, &me) && me.NotAssociative {
			wrongRefusal++
		}
	}
	t.Logf("%d associative reductions: %d recognized (%.1f%%), %d refused as \"not associative\"; missed: %v", assoc, rec, 100*float64(rec)/float64(assoc), wrongRefusal, missed)
}
