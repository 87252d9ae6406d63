package pipeline

import (
	"fmt"

	"nestor/frontend"
	"nestor/sched"
)

// Layout is what one region offers to decide (Decisions) under one
// fusion policy: the facts a search over its implementations needs.
type Layout struct {
	// Scheduled reports whether the scheduler found a schedule; when it
	// did not, Why says why, and only the original orders remain.
	Scheduled bool
	Why       string
	// Parallel reports whether the schedule has a parallel loop;
	// OriginalParallel whether the original order has one.
	Parallel, OriginalParallel bool
	// Bands are the schedule's bands with the rules' layout of each.
	Bands []sched.BandInfo
}

// Describe returns the layout choices of region k of f (in file order)
// when scheduled with each fusion policy of fusions, after the passes
// before the schedule (reroll, expand, iss) as opt says: those passes and the
// dependence analysis run once.
func Describe(f *frontend.File, k int, opt Options, fusions []sched.Fusion) ([]*Layout, error) {
	if k < 0 || k >= len(f.Scops) {
		return nil, fmt.Errorf("pipeline: no region %d (the file has %d)", k, len(f.Scops))
	}
	s, err := runPasses(f.Scops[k], k, f.Src, &opt, "schedule")
	if err != nil {
		return nil, err
	}
	g, err := s.dependences()
	if err != nil {
		return nil, err
	}
	origPar := sched.OriginalParallel(s.Prog, g).AnyParallel()
	plan := sched.Plan{Tile: opt.Tile, Reorder: true, Machine: opt.Target()}
	for _, n := range opt.TileSizes {
		plan.Sizes = append(plan.Sizes, int64(n))
	}
	var out []*Layout
	for _, fu := range fusions {
		lay := &Layout{OriginalParallel: origPar}
		out = append(out, lay)
		sc, err := sched.Compute(s.Prog, g, sched.Options{Fusion: fu, Align: opt.Align, Budget: opt.SchedBudget})
		if err != nil {
			lay.Why = err.Error()
			continue
		}
		lay.Scheduled = true
		lay.Parallel = sc.AnyParallel()
		if lay.Bands, err = sched.DescribeBands(s.Prog, sc, plan); err != nil {
			return nil, err
		}
	}
	return out, nil
}
