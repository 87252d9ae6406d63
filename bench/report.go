package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Column is one speedup column of the table: a version at a thread count.
type Column struct {
	Peer    string
	Threads int
}

func (c Column) String() string {
	if parallel(c.Peer) {
		return fmt.Sprintf("%s %dt", c.Peer, c.Threads)
	}
	return c.Peer
}

// Columns are the speedup columns of the table: every version but the
// baseline and OpenBLAS (which has its own section), parallel ones once
// per thread count.
func (r *Report) Columns() []Column {
	var cols []Column
	for _, p := range r.Peers {
		switch {
		case p == GCC || p == OpenBLAS:
		case parallel(p):
			for _, t := range r.Threads {
				cols = append(cols, Column{p, t})
			}
		default:
			cols = append(cols, Column{p, 1})
		}
	}
	return cols
}

// Geomean returns the geometric mean of the speedups of column c over the
// kernels where that version ran and agreed with the baseline, and how many
// kernels that is.
func (r *Report) Geomean(c Column) (float64, int) {
	var xs []float64
	for _, k := range r.Kernels {
		if s, ok := k.Speedup(c.Peer, c.Threads); ok {
			xs = append(xs, s)
		}
	}
	return geomean(xs), len(xs)
}

// geomean is the geometric mean of positive xs, 0 for none.
func geomean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(xs)))
}

// measured is the number of kernels with a baseline time.
func (r *Report) measured() int {
	n := 0
	for _, k := range r.Kernels {
		if k.Err == "" {
			n++
		}
	}
	return n
}

// table returns the rows of the results table, the header first and the
// geometric means last.
func (r *Report) table() [][]string {
	cols := r.Columns()
	head := []string{"kernel", "gcc"}
	for _, c := range cols {
		head = append(head, c.String())
	}
	rows := [][]string{append(head, "check")}
	for _, k := range r.Kernels {
		row := []string{k.Name}
		if k.Err != "" {
			row = append(row, "—")
			for range cols {
				row = append(row, "—")
			}
			rows = append(rows, append(row, "error"))
			continue
		}
		row = append(row, formatDuration(k.Baseline().Time))
		for _, c := range cols {
			row = append(row, speedupCell(k, c))
		}
		rows = append(rows, append(row, k.status()))
	}
	geo := []string{"geomean", ""}
	n := r.measured()
	for _, c := range cols {
		g, m := r.Geomean(c)
		cell := "—"
		if m > 0 {
			cell = fmt.Sprintf("%.2fx", g)
			if m < n {
				cell += fmt.Sprintf(" (%d)", m)
			}
		}
		geo = append(geo, cell)
	}
	return append(rows, append(geo, ""))
}

// speedupCell is "1.23x", "(1.23x)" when the results differ from the
// baseline's, "—" when the version did not run.
func speedupCell(k *Kernel, c Column) string {
	s, ok := k.Speedup(c.Peer, c.Threads)
	switch {
	case s == 0:
		return "—"
	case !ok:
		return fmt.Sprintf("(%.2fx)", s)
	}
	return fmt.Sprintf("%.2fx", s)
}

// status is the check column: "ok" when every version ran and agreed with
// the baseline, else what went wrong, shortly, per version.
func (k *Kernel) status() string {
	if k.Err != "" {
		return "error"
	}
	var bad []string
	for _, p := range k.problems() {
		bad = append(bad, p.who+": "+p.short)
	}
	if len(bad) == 0 {
		return "ok"
	}
	return strings.Join(bad, ", ")
}

// problem is one version of a kernel that failed or disagreed.
type problem struct {
	who, short, long string
}

// problems lists the versions that failed or disagreed with the baseline;
// a version failing alike at every thread count is listed once.
func (k *Kernel) problems() []problem {
	var ps []problem
	for _, r := range k.Results {
		if r.OK() {
			continue
		}
		p := problem{who: Column{r.Peer, r.Threads}.String()}
		switch {
		case r.Err == "":
			p.short, p.long = "differs", r.Diff
		case strings.HasPrefix(r.Err, "timeout"):
			p.short, p.long = "timeout", r.Err
		case strings.HasPrefix(r.Err, "build"):
			p.short, p.long = "build failed", r.Err
		case strings.HasPrefix(r.Err, "optimize"):
			p.short, p.long = "nestor failed", r.Err
		default:
			p.short, p.long = "failed", r.Err
		}
		if n := len(ps); n > 0 && ps[n-1].long == p.long && strings.HasPrefix(ps[n-1].who, r.Peer+" ") {
			ps[n-1].who = r.Peer
			continue
		}
		ps = append(ps, p)
	}
	return ps
}

// formatDuration prints d with three significant digits in µs, ms or s.
func formatDuration(d time.Duration) string {
	x := float64(d)
	switch {
	case d < time.Millisecond:
		return sig3(x/float64(time.Microsecond)) + " µs"
	case d < time.Second:
		return sig3(x/float64(time.Millisecond)) + " ms"
	}
	return sig3(x/float64(time.Second)) + " s"
}

// sig3 prints x ≥ 0 with three significant digits, trailing zeros kept
// (2.00, 11.6, 512; 1234 for larger numbers).
func sig3(x float64) string {
	decimals := 2
	if x > 0 {
		decimals = max(0, 2-int(math.Floor(math.Log10(x))))
	}
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if len(s) > 4 && strings.Contains(s, ".") && !strings.HasPrefix(s, "0.") { // 9.995 rounded up to 10.00
		s = strconv.FormatFloat(x, 'f', decimals-1, 64)
	}
	return s
}

// progressLine summarizes a kernel in one line.
func progressLine(k *Kernel) string {
	if k.Err != "" {
		return fmt.Sprintf("%s: error: %s (%s)", k.Name, k.Err, k.Elapsed.Round(time.Second))
	}
	parts := []string{"gcc " + formatDuration(k.Baseline().Time)}
	for _, r := range k.Results[1:] {
		parts = append(parts, Column{r.Peer, r.Threads}.String()+" "+speedupCell(k, Column{r.Peer, r.Threads}))
	}
	return fmt.Sprintf("%s: %s; %s (%s)", k.Name, strings.Join(parts, ", "), k.status(), k.Elapsed.Round(time.Second))
}

// Text writes the report for a terminal: the table with aligned columns,
// then the gemm section, the problems and the notes.
func (r *Report) Text(w io.Writer) {
	fmt.Fprintf(w, "%s dataset, median of %d runs, speedups over gcc -O3 -march=native at 1 thread\n\n", r.Size, r.Runs)
	writeAligned(w, r.table())
	r.gemm(w, false)
	r.products(w, false)
	r.problemList(w, false)
	for _, n := range r.notes() {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	fmt.Fprintf(w, "\n(%s)\n", r.Elapsed.Round(time.Second))
}

// writeAligned writes rows as columns separated by two spaces: the first
// and last left-aligned, the others right-aligned.
func writeAligned(w io.Writer, rows [][]string) {
	width := map[int]int{}
	for _, row := range rows {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case i == len(row)-1:
				b.WriteString("  " + c)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// writeMarkdown writes rows as a Markdown table, numbers right-aligned,
// the last row (the means) in bold when boldLast is set.
func writeMarkdown(w io.Writer, rows [][]string, boldLast bool) {
	for i, row := range rows {
		cells := slices.Clone(row)
		if boldLast && i == len(rows)-1 && i > 0 {
			for j, c := range cells {
				if c != "" {
					cells[j] = "**" + c + "**"
				}
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			seps := make([]string, len(row))
			for j := range seps {
				seps[j] = "---:"
				if j == 0 || j == len(row)-1 {
					seps[j] = "---"
				}
			}
			fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
		}
	}
}

// gemm writes the comparison of gemm's versions with OpenBLAS in GFLOP/s.
func (r *Report) gemm(w io.Writer, markdown bool) {
	var k *Kernel
	for _, x := range r.Kernels {
		if x.Err == "" && x.Flops > 0 && x.Name == "gemm" {
			k = x
		}
	}
	if k == nil {
		return
	}
	var blas map[int]*Result
	if slices.Contains(r.Peers, OpenBLAS) {
		blas = map[int]*Result{}
		for _, t := range r.Threads {
			if b := k.Result(OpenBLAS, t); b.OK() {
				blas[t] = b
			}
		}
	}
	rows := [][]string{{"version", "threads", "time", "GFLOP/s", "of OpenBLAS", "check"}}
	for _, res := range k.Results {
		row := []string{res.Peer, fmt.Sprint(res.Threads), "—", "—", "—", "ok"}
		if res.Err != "" {
			row[5] = "failed"
			rows = append(rows, row)
			continue
		}
		row[2] = formatDuration(res.Time)
		row[3] = fmt.Sprintf("%.1f", k.Flops/res.Time.Seconds()/1e9)
		if b := blas[res.Threads]; b != nil {
			row[4] = fmt.Sprintf("%.0f%%", 100*float64(b.Time)/float64(res.Time))
		}
		if !res.Match {
			row[5] = "differs"
		}
		rows = append(rows, row)
	}
	p := k.Params
	title := fmt.Sprintf("gemm, C = alpha·A·B + beta·C with ni=%d, nj=%d, nk=%d: GFLOP/s = 2·ni·nj·nk / time", p["ni"], p["nj"], p["nk"])
	writeSection(w, markdown, "gemm against OpenBLAS", title, rows)
	if blas == nil {
		fmt.Fprintln(w, "\n(OpenBLAS did not run: no comparison.)")
		return
	}
	for _, t := range r.Threads {
		n, b := k.Result(Nestor, t), blas[t]
		if n.OK() && b != nil {
			fmt.Fprintf(w, "\nnestor's gemm at %s runs at %.0f%% of the speed of OpenBLAS's dgemm.\n", threadsText(t), 100*float64(b.Time)/float64(n.Time))
		}
	}
}

// products writes the GFLOP/s of nestor's version of each matrix product
// other than gemm (the kernels whose flops are known) and its share of
// what nestor's gemm reaches at the same thread count, in this run.
func (r *Report) products(w io.Writer, markdown bool) {
	var gemm *Kernel
	var ks []*Kernel
	for _, k := range r.Kernels {
		switch {
		case k.Err != "" || k.Flops == 0:
		case k.Name == "gemm":
			gemm = k
		default:
			ks = append(ks, k)
		}
	}
	if gemm == nil || len(ks) == 0 {
		return
	}
	head := []string{"kernel"}
	for _, t := range r.Threads {
		head = append(head, fmt.Sprintf("GFLOP/s %dt", t), fmt.Sprintf("of gemm %dt", t))
	}
	rows := [][]string{head}
	for _, k := range append([]*Kernel{gemm}, ks...) {
		row := []string{k.Name}
		for _, t := range r.Threads {
			res, g := k.Result(Nestor, t), gemm.Result(Nestor, t)
			if !res.OK() || !g.OK() {
				row = append(row, "—", "—")
				continue
			}
			rate := k.Flops / res.Time.Seconds() / 1e9
			row = append(row, fmt.Sprintf("%.1f", rate), fmt.Sprintf("%.0f%%", 100*rate/(gemm.Flops/g.Time.Seconds()/1e9)))
		}
		rows = append(rows, row)
	}
	title := "nestor's matrix products in GFLOP/s (two per multiply-add of the products) and as a share of nestor's gemm at the same thread count"
	writeSection(w, markdown, "Matrix products against gemm", title, rows)
}

// writeSection writes a table under its title: in Markdown a section
// with its heading, else the title and the aligned table.
func writeSection(w io.Writer, markdown bool, heading, title string, rows [][]string) {
	if markdown {
		fmt.Fprintf(w, "\n## %s\n\n%s.\n\n", heading, title)
		writeMarkdown(w, rows, false)
	} else {
		fmt.Fprintf(w, "\n%s\n\n", title)
		writeAligned(w, rows)
	}
}

func threadsText(t int) string {
	if t == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", t)
}

// formatElapsed prints a run's duration in hours and minutes.
func formatElapsed(d time.Duration) string {
	d = d.Round(time.Minute)
	h, m := int(d.Hours()), int(d.Minutes())%60
	switch {
	case h == 0 && m == 0:
		return "under a minute"
	case h == 0:
		return fmt.Sprintf("%d min", m)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// problemList writes every failure and disagreement in full.
func (r *Report) problemList(w io.Writer, markdown bool) {
	var lines []string
	for _, k := range r.Kernels {
		if k.Err != "" {
			lines = append(lines, fmt.Sprintf("%s: %s", k.Name, k.Err))
		}
		for _, p := range k.problems() {
			lines = append(lines, fmt.Sprintf("%s, %s: %s", k.Name, p.who, p.long))
		}
	}
	if len(lines) == 0 {
		return
	}
	if markdown {
		fmt.Fprintf(w, "\n## Problems\n\n")
		for _, l := range lines {
			fmt.Fprintf(w, "- %s\n", mdEscape(l))
		}
		return
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		fmt.Fprintf(w, "problem: %s\n", l)
	}
}

// caveats explain, per kernel, why correct versions can disagree with the
// baseline on the corpus's inputs; a note shows one when that happens.
var caveats = map[string]string{
	"gramschmidt": "A is M×N with M < N, so the residual of the last N−M columns is zero in exact arithmetic and those columns of Q (and rows of R) are roundoff divided by roundoff: any change in the order of operations, a compiler's FMA contraction included, changes them. The first M columns are the meaningful result.",
}

// notes are the run's notes, then each kernel's, prefixed by its name.
func (r *Report) notes() []string {
	ns := slices.Clone(r.Notes)
	for _, k := range r.Kernels {
		for _, n := range k.Notes {
			ns = append(ns, k.Name+": "+n)
		}
		if c, ok := caveats[k.Name]; ok && slices.ContainsFunc(k.problems(), func(p problem) bool { return p.short == "differs" }) {
			ns = append(ns, k.Name+" differs: "+c)
		}
	}
	return ns
}

// mdEscape keeps text from being read as Markdown markup.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", "`", "'").Replace(s)
}

// Markdown writes the report as the page docs/BENCHMARKS.md: the machine,
// the command, the method, the table, gemm against OpenBLAS, the other
// matrix products against gemm, problems and notes.
func (r *Report) Markdown(w io.Writer) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# Benchmarks\n\n")
	p("Generated by `nestor bench` on %s; the run took %s. Regenerate it with\n", r.Started.Format("2006-01-02"), formatElapsed(r.Elapsed))
	p("the command below rather than editing it (run scripts/install-peers first\nfor the Polly and OpenBLAS columns).\n\n")
	p("```sh\n%s\n```\n\n", r.Command)
	p("## Machine\n\n")
	m := r.Machine
	for _, f := range []struct{ name, val string }{
		{"CPU", m.CPU}, {"cores", m.Cores}, {"caches", m.Caches}, {"system", m.OS},
		{"gcc", m.GCC}, {"clang", m.Clang}, {"OpenBLAS", m.OpenBLAS}, {"Go", m.Go},
	} {
		if f.val != "" {
			p("- %s: %s\n", f.name, mdEscape(f.val))
		}
	}
	p("\n## Method\n\n")
	p("Every kernel is built from `nestor check`'s harness, so every version runs on\n")
	p("the same seeded inputs: the original with `gcc -O3 -march=native -fopenmp`\n")
	p("(the baseline), nestor's output (`nestor opt`) with the same flags")
	if slices.Contains(r.Peers, Polly) || slices.Contains(r.Peers, PollyPar) {
		p(",\nthe original with clang-16 and Polly (`-mllvm -polly`; polly-par adds\n")
		p("`-mllvm -polly-parallel`)")
	}
	p(". A round runs every version once, one process each, in turns;\n")
	p("times are the medians over %d rounds of the kernel call alone", r.Runs)
	if r.Budget > 0 {
		p(" (over 3 for a kernel\nwhose runs took more than %v in all)", r.Budget)
	}
	p(", and a\n")
	p("speedup is the baseline's median at one thread over the version's, both\n")
	p("from the same run. Sequential versions run with OMP_NUM_THREADS=1, parallel\n")
	p("ones (`Nt`) with OMP_NUM_THREADS=N; a kernel call is timed from the first\n")
	p("of its process (repeated while the calls add up to under 20 ms), after the\n")
	p("harness has started the OpenMP team, as OpenBLAS starts its threads when it\n")
	p("loads. The outputs of every version are\n")
	p("compared with the baseline's as `nestor check` compares them (relative\n")
	p("error 1e-9 for double, 1e-4 for float); a speedup in parentheses is one\n")
	p("whose results differ, and it is left out of the geometric mean. A mean\n")
	p("followed by (n) covers only the n kernels where that version ran and agreed.\n")
	p("\n## Results: %s dataset\n\n", r.Size)
	writeMarkdown(w, r.table(), true)
	r.gemm(w, true)
	r.products(w, true)
	r.problemList(w, true)
	if ns := r.notes(); len(ns) > 0 {
		p("\n## Notes\n\n")
		for _, n := range ns {
			p("- %s\n", mdEscape(n))
		}
	}
}
