package tune

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
)

// Record is one evaluation, as a line of the records file (JSONL):
// enough to resume a search, merge the records of several runs, and apply
// the best decisions later (nestor opt --records).
type Record struct {
	File    string `json:"file"`   // the kernel file as given
	Region  int    `json:"region"` // index of the region in the file
	Machine string `json:"machine"`
	Threads int    `json:"threads"`
	Seed    int64  `json:"seed"`
	Eval    int    `json:"eval"` // 1 for the first evaluation of the run
	// Decisions maps each choice of the space to its value; Default
	// marks the default policy's candidate (no choice fixed).
	Decisions map[string]string `json:"decisions"`
	Default   bool              `json:"default,omitempty"`
	Code      string            `json:"code"`  // hash of the generated file
	Bound     float64           `json:"bound"` // lower bound, seconds
	// Time is the median of Times, in seconds; zero when Error is set.
	Time  float64   `json:"time"`
	Times []float64 `json:"times,omitempty"`
	Error string    `json:"error,omitempty"`
	Wrong bool      `json:"wrong,omitempty"`
	// Pruned and Expanded are the search's counts of subtrees cut by the
	// bound and created, when this evaluation started.
	Pruned   int `json:"pruned"`
	Expanded int `json:"expanded"`
	// Confirmed marks the final measure of a candidate the search
	// measured already (Options.Confirm): Time is the median of every
	// run of its interleaved rounds, Times those runs. It is no
	// evaluation of the search: summaries and plots leave it out, and
	// Best prefers such measures.
	Confirmed bool `json:"confirmed,omitempty"`
	// Chosen marks the confirmed measure of the candidate the
	// confirmation chose (see Options.Confirm): the fastest, or the
	// default policy when the fastest did not beat it clearly. Best
	// prefers it to every other measure.
	Chosen bool `json:"chosen,omitempty"`
}

// Key identifies the candidate of a record: its decisions in name order.
func (r *Record) Key() string {
	if r.Default {
		return "default"
	}
	return decisionsKey(r.Decisions)
}

func decisionsKey(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%s;", k, m[k])
	}
	return b.String()
}

// ReadRecords reads a records file; a missing file has none.
func ReadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeRecords(f, path)
}

func decodeRecords(r io.Reader, name string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}

// Best returns the fastest correct record of region k (of any file whose
// records are given) measured on machine (any machine when empty), nil
// when there is none.
func Best(recs []Record, region int, machine string) *Record {
	var best *Record
	for i := range recs {
		r := &recs[i]
		if r.Region != region || r.Error != "" || r.Time <= 0 || machine != "" && r.Machine != machine {
			continue
		}
		// A chosen measure beats every other, a confirmed one every
		// search measure (the fastest of those is biased low), then the
		// least time.
		rank := func(r *Record) int {
			switch {
			case r.Chosen:
				return 2
			case r.Confirmed:
				return 1
			}
			return 0
		}
		if best == nil || rank(r) > rank(best) || rank(r) == rank(best) && r.Time < best.Time {
			best = r
		}
	}
	return best
}

// Describe prints decisions compactly, in name order, leaving out the
// choices that do not apply ("-").
func Describe(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] != "-" {
			parts = append(parts, k+"="+m[k])
		}
	}
	return strings.Join(parts, " ")
}

// Summary aggregates records: how many evaluations, how many computed a
// wrong result, and how the lower bound compares with the measured times.
type Summary struct {
	Evals, Wrong, Failed int
	// Timed counts the evaluations with a time; Violations those whose
	// bound exceeded it (an unsound bound).
	Timed, Violations int
	// Tightness is the median of bound/time over the timed evaluations.
	Tightness float64
	// Speedups are, per search (file, region, seed, threads), the
	// default policy's time over the best time.
	Speedups []float64
	// Kept are, per search whose choice was confirmed (Options.Confirm),
	// the default policy's confirmed time over the chosen candidate's
	// (1 where the default was kept): the speedup that holds up when
	// measured again beside the default, not the search's fastest
	// single measure.
	Kept []float64
}

// Summarize aggregates recs.
func Summarize(recs []Record) Summary {
	var s Summary
	var ratios []float64
	type run struct {
		file    string
		region  int
		seed    int64
		threads int
	}
	def, best := map[run]float64{}, map[run]float64{}
	confDef, chosen := map[run]float64{}, map[run]float64{}
	var runs, confirmed []run
	for _, r := range recs {
		if r.Confirmed {
			// A measure again, not an evaluation: the last of the
			// default's, and the chosen candidate's.
			k := run{r.File, r.Region, r.Seed, r.Threads}
			if r.Time > 0 && r.Default {
				confDef[k] = r.Time
			}
			if r.Time > 0 && r.Chosen {
				if _, ok := chosen[k]; !ok {
					confirmed = append(confirmed, k)
				}
				chosen[k] = r.Time
			}
			continue
		}
		s.Evals++
		switch {
		case r.Wrong:
			s.Wrong++
		case r.Error != "":
			s.Failed++
		case r.Time > 0:
			s.Timed++
			ratios = append(ratios, r.Bound/r.Time)
			if r.Bound > r.Time {
				s.Violations++
			}
			k := run{r.File, r.Region, r.Seed, r.Threads}
			if _, ok := best[k]; !ok {
				runs = append(runs, k)
				best[k] = r.Time
			}
			best[k] = min(best[k], r.Time)
			if r.Default {
				def[k] = r.Time
			}
		}
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		s.Tightness = ratios[len(ratios)/2]
	}
	for _, k := range runs {
		if d, ok := def[k]; ok {
			s.Speedups = append(s.Speedups, d/best[k])
		}
	}
	for _, k := range confirmed {
		if d, ok := confDef[k]; ok {
			s.Kept = append(s.Kept, d/chosen[k])
		}
	}
	return s
}
