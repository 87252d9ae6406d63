package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"nestor/deps"
	"nestor/frontend"
	"nestor/ir"
	"nestor/pipeline"
)

var depsCommand = &Command{
	Name: "deps", Args: "FILE.c [-I dir] [-D NAME[=VALUE]] [--json] [--before PASS]",
	Summary: `print the dependences of each #pragma scop region

For every pair of accesses to the same array (one of them a write) and
every loop that can carry it, the exact dependence polyhedron: a table
(source, target, kind, array, carrying loop, direction and distance per
common loop), then each relation in isl notation. Distances are in
execution order (positive: a later iteration, also for loops that count
down); "inf" marks an unbounded end. "red" marks the self dependences of
an update x = x op y that a reduction may relax. --json prints the same
for tools. With --before PASS, the dependences of the program that pass
of nestor opt is given (--before schedule: what the scheduler sees, after
rerolling and expansion), as a view of the same pipeline.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		var src SourceFlags
		src.Register(fs)
		src.RegisterOpt(fs)
		asJSON := fs.Bool("json", false, "print JSON instead of text")
		before := fs.String("before", "", "the dependences of the program that this pass of nestor opt gets (`PASS`: "+strings.Join(pipeline.ProgramPasses(), ", ")+"; with the flags of opt), instead of the program as written")
		return func(out io.Writer, args []string) error {
			f, err := src.Parse(args)
			if err != nil {
				return err
			}
			var regions []depsRegion
			if *before != "" {
				opts, err := src.Options(io.Discard)
				if err != nil {
					return err
				}
				progs, graphs, err := pipeline.Dependences(f, opts, *before)
				if err != nil {
					return UsageError{fmt.Sprintf("--before %s: %v", *before, err)}
				}
				for k, s := range f.Scops {
					regions = append(regions, describeDeps(s, progs[k], graphs[k]))
				}
			} else {
				for _, s := range f.Scops {
					g, err := deps.Analyze(s.Prog)
					if err != nil {
						return fmt.Errorf("%s: %w", s.Pos, err)
					}
					regions = append(regions, describeDeps(s, s.Prog, g))
				}
			}
			if *asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(regions)
			}
			for k, r := range regions {
				if k > 0 {
					fmt.Fprintln(out)
				}
				printDeps(out, r)
			}
			return nil
		}
	},
}

// depsRegion is what nestor deps reports about one region (and its JSON).
type depsRegion struct {
	Function   string      `json:"function"`
	Position   string      `json:"position"`
	Statements []depsStmt  `json:"statements"`
	Deps       []depsEntry `json:"dependences"`
}

type depsStmt struct {
	Name   string `json:"name"`
	Text   string `json:"text"`
	Domain string `json:"domain"`
}

type depsEntry struct {
	Source    string   `json:"source"`
	Target    string   `json:"target"`
	Kind      string   `json:"kind"`
	Array     string   `json:"array"`
	Accesses  string   `json:"accesses"` // "A[i][j] -> A[i][j + k + 1]": source access, target access
	Depth     int      `json:"depth"`
	CarriedBy string   `json:"carried_by,omitempty"` // empty when loop-independent
	Direction []string `json:"direction"`
	Distance  []bound2 `json:"distance"`
	Reduction bool     `json:"reduction"`
	Unsure    bool     `json:"unsure,omitempty"`
	Relation  string   `json:"relation"`
}

// bound2 is a distance interval; a nil end is unbounded.
type bound2 struct {
	Min *int64 `json:"min"`
	Max *int64 `json:"max"`
}

func describeDeps(s *frontend.Scop, p *ir.Program, g *deps.Graph) depsRegion {
	r := depsRegion{Function: s.Func.Name, Position: s.Pos.String()}
	for _, st := range p.Stmts {
		r.Statements = append(r.Statements, depsStmt{Name: st.Name, Text: st.Text, Domain: ir.FormatDomain(p, st)})
	}
	params := "[" + strings.Join(ir.ParamNames(p), ", ") + "] -> { "
	for _, e := range g.Edges {
		src := p.Stmts[e.Source]
		d := depsEntry{
			Source: src.Name, Target: p.Stmts[e.Target].Name, Kind: e.Kind.String(),
			Array: p.Arrays[e.Array].Name, Depth: e.Depth, Reduction: e.Reduction, Unsure: e.Unsure,
			Accesses: accessText(p, src, e.SourceAccess) + " -> " + accessText(p, p.Stmts[e.Target], e.TargetAccess),
			Relation: params + g.Relation(e) + " }",
		}
		if !e.LoopIndependent() {
			d.CarriedBy = src.Iters[e.Depth-1]
		}
		for _, iv := range e.Distance {
			d.Direction = append(d.Direction, iv.Direction())
			b := bound2{}
			if !iv.MinInf {
				b.Min = &iv.Min
			}
			if !iv.MaxInf {
				b.Max = &iv.Max
			}
			d.Distance = append(d.Distance, b)
		}
		r.Deps = append(r.Deps, d)
	}
	return r
}

func printDeps(out io.Writer, r depsRegion) {
	fmt.Fprintf(out, "%s (%s): %s, %s\n", r.Function, r.Position, plural(len(r.Statements), "statement"), plural(len(r.Deps), "dependence"))
	for _, s := range r.Statements {
		fmt.Fprintf(out, "  %-4s %s\n", s.Name, s.Text)
	}
	if len(r.Deps) == 0 {
		return
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "  #\tsource\ttarget\tkind\taccesses\tcarried by\tdirection\tdistance\t")
	for k, d := range r.Deps {
		carried := d.CarriedBy
		if carried == "" {
			carried = "-"
		}
		dist := make([]string, len(d.Distance))
		for j, b := range d.Distance {
			dist[j] = formatInterval(b)
		}
		flags := ""
		if d.Reduction {
			flags += " red"
		}
		if d.Unsure {
			flags += " unsure"
		}
		fmt.Fprintf(w, "  %d\t%s\t%s\t%s\t%s\t%s\t(%s)\t(%s)\t%s\n", k+1, d.Source, d.Target, d.Kind, d.Accesses, carried,
			strings.Join(d.Direction, ", "), strings.Join(dist, ", "), strings.TrimSpace(flags))
	}
	w.Flush()
	fmt.Fprintln(out)
	width := len(fmt.Sprint(len(r.Deps)))
	for k, d := range r.Deps {
		fmt.Fprintf(out, "  %*d  %s\n", width, k+1, d.Relation)
	}
}

func formatInterval(b bound2) string {
	lo, hi := "-inf", "inf"
	if b.Min != nil {
		lo = fmt.Sprint(*b.Min)
	}
	if b.Max != nil {
		hi = fmt.Sprint(*b.Max)
	}
	if lo == hi {
		return lo
	}
	return lo + ".." + hi
}

// accessText prints access a of s as C: "A[i][j + k + 1]".
func accessText(p *ir.Program, s *ir.Stmt, a int) string {
	acc := s.Accesses[a]
	names := ir.Names{Iter: s.Iters, Param: ir.ParamNames(p)}
	var b strings.Builder
	b.WriteString(p.Arrays[acc.Array].Name)
	for _, x := range acc.Index {
		b.WriteString("[" + ir.FormatAff(x, names) + "]")
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
