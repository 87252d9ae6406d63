package cli

import (
	"fmt"
	"io"
	"path/filepath"

	"nestor/frontend"
	"nestor/model"
	"nestor/pipeline"
	"nestor/tune"
)

// recordedDecisions returns, per region of f, the decisions of the
// fastest correct record of path for it: records of this file (by base
// name), measured on this machine when any were, else on any machine
// (with a note on w).
func recordedDecisions(f *frontend.File, opts pipeline.Options, path string, w io.Writer) ([]pipeline.Decisions, error) {
	all, err := tune.ReadRecords(path)
	if err != nil {
		return nil, err
	}
	if all == nil {
		return nil, fmt.Errorf("%s: no such records file", path)
	}
	var recs []tune.Record
	for _, r := range all {
		if filepath.Base(r.File) == filepath.Base(f.Path) {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no record of %s", path, filepath.Base(f.Path))
	}
	host, _ := model.Load()
	fp := tune.MachineOf(host, 1).Fingerprint
	dec := make([]pipeline.Decisions, len(f.Scops))
	for k := range f.Scops {
		best := tune.Best(recs, k, fp)
		if best == nil {
			if best = tune.Best(recs, k, ""); best != nil {
				fmt.Fprintf(w, "%s: the records of region %d were measured on another machine (%s)\n", f.Scops[k].Pos, k, best.Machine)
			}
		}
		if best == nil {
			continue
		}
		r, err := tune.NewRegion(f, k, opts)
		if err != nil {
			return nil, err
		}
		if dec[k], err = r.Apply(best); err != nil {
			return nil, fmt.Errorf("%s: %v (were the records made with other flags or another version of the file?)", f.Scops[k].Pos, err)
		}
		fmt.Fprintf(w, "%s: decisions of record %d (%s): %s\n", f.Scops[k].Pos, best.Eval, FormatSeconds(best.Time), tune.Describe(best.Decisions))
	}
	return dec, nil
}

// FormatSeconds writes a time in seconds with a unit that suits it ("-"
// for none).
func FormatSeconds(s float64) string {
	switch {
	case s <= 0:
		return "-"
	case s < 1e-3:
		return fmt.Sprintf("%.1f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}
