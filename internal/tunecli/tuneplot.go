package tunecli

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"nestor/tune"
)

// plotRecords draws the convergence of the searches in a records file:
// per region (and seed), the best time so far against the evaluations,
// and the share of the search tree's subtrees the bound had cut.
func plotRecords(in, out string) (err error) {
	defer func() {
		if r := recover(); r != nil { // the plotting library panics on data it cannot draw
			err = fmt.Errorf("plotting %s: %v", in, r)
		}
	}()
	recs, err := tune.ReadRecords(in)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no records", in)
	}
	best := plot.New()
	best.Title.Text = "nestor tune: best time so far (" + filepath.Base(in) + ")"
	best.X.Label.Text = "evaluations"
	best.Y.Label.Text = "best time (ms)"
	best.Y.Scale = plot.LogScale{}
	best.Y.Tick.Marker = plot.LogTicks{}
	cut := plot.New()
	cut.X.Label.Text = "evaluations"
	cut.Y.Label.Text = "subtrees cut by the bound (%)"
	cut.Y.Min, cut.Y.Max = 0, 100
	type run struct {
		region int
		seed   int64
		file   string
	}
	var order []run
	series := map[run][]tune.Record{}
	for _, r := range recs {
		if r.Confirmed {
			continue // a measure again after the search, not an evaluation
		}
		k := run{r.Region, r.Seed, r.File}
		if _, ok := series[k]; !ok {
			order = append(order, k)
		}
		series[k] = append(series[k], r)
	}
	lo, hi := math.Inf(1), 0.0 // the best times' range, ms
	for n, k := range order {
		var bestPts, cutPts plotter.XYs
		b := math.Inf(1)
		for i, r := range series[k] {
			if r.Error == "" && r.Time > 0 && r.Time < b {
				b = r.Time
			}
			if !math.IsInf(b, 1) {
				bestPts = append(bestPts, plotter.XY{X: float64(i + 1), Y: b * 1e3})
				lo, hi = min(lo, b*1e3), max(hi, b*1e3)
			}
			if r.Expanded > 0 {
				cutPts = append(cutPts, plotter.XY{X: float64(i + 1), Y: 100 * float64(r.Pruned) / float64(r.Expanded)})
			}
		}
		name := fmt.Sprintf("%s region %d seed %d", filepath.Base(k.file), k.region, k.seed)
		for _, pc := range []struct {
			p   *plot.Plot
			pts plotter.XYs
		}{{best, bestPts}, {cut, cutPts}} {
			if len(pc.pts) == 0 {
				continue
			}
			l, err := plotter.NewLine(pc.pts)
			if err != nil {
				return err
			}
			l.Color = plotColor(n)
			pc.p.Add(l)
			pc.p.Legend.Add(name, l)
		}
	}
	if hi > 0 {
		// A log axis needs a positive range: gonum pads an empty one
		// (every best time equal) below zero.
		best.Y.Min, best.Y.Max = lo/2, hi*2
	} else {
		best.Y.Scale, best.Y.Tick.Marker = plot.LinearScale{}, plot.DefaultTicks{}
	}
	const w, h = 16 * vg.Centimeter, 18 * vg.Centimeter
	img := vgsvg.New(w, h)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Centimeter / 4, PadBottom: vg.Centimeter / 4, PadX: vg.Centimeter / 4, PadY: vg.Centimeter / 2}
	canvases := plot.Align([][]*plot.Plot{{best}, {cut}}, tiles, draw.New(img))
	best.Draw(canvases[0][0])
	cut.Draw(canvases[1][0])
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if _, err := img.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotColor returns the n-th of a few distinct colors.
func plotColor(n int) color.RGBA {
	palette := [][3]uint8{{31, 119, 180}, {255, 127, 14}, {44, 160, 44}, {214, 39, 40}, {148, 103, 189}, {140, 86, 75}}
	c := palette[n%len(palette)]
	return color.RGBA{R: c[0], G: c[1], B: c[2], A: 255}
}
