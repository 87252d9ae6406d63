package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"nestor/assoc"
)

func init() { commands = append(commands, assocMatchCommand) }

var assocMatchCommand = &Command{
	Name: "assoc match", Args: "'UPDATE' [--type T[,T…]] [--wrap] [--assoc-math] [--invariant NAME,…]",
	Summary: `recognize the associative operator of a reduction

UPDATE is the reduction's update in Halide's form, f() = {min(f()[0], in(r)),
select(in(r) < f()[0], r, f()[1])}, where f()[i] (f() for one element) is
the partial result x_i and every other name, call or subscript is a value
of the program; or an operator in x, y and k (x + y, {x0 + y0, max(x1,
x0 + y1)}), where y is the value folded in and k a loop-invariant value.
--type gives the element type, or one per element (float32,int32 for an
argmin over floats with an int index); signed int32/int64 arithmetic is
assumed not to overflow unless --wrap, and float arithmetic is never
reassociated unless --assoc-math (-fassociative-math; --real is the same
flag). --invariant names the
values that do not change during the reduction: only those may stand for
an operator's constant k.

Prints the operator, the value each iteration folds in (y), the identity
(or that each partial result starts from its chunk's first element), the
commutativity (without it the partial results combine in chunk order)
and the table entries that matched; exit status 1 with the reason when
the update is not recognized.`,
	Setup: func(fs *flag.FlagSet) RunFunc {
		types := fs.String("type", "int32", "element type, or one per element separated by commas")
		wrap := fs.Bool("wrap", false, "signed int32/int64 arithmetic wraps (-fwrapv)")
		real := fs.Bool("assoc-math", false, "floats may be reassociated (-fassociative-math), as opt's --assoc-math")
		fs.BoolVar(real, "real", false, "the same as --assoc-math")
		invariant := fs.String("invariant", "", "loop-invariant names, separated by commas")
		return func(out io.Writer, args []string) error {
			if len(args) != 1 {
				return UsageError{"want one UPDATE argument (quote it)"}
			}
			var ts []assoc.Type
			for _, s := range strings.Split(*types, ",") {
				t, err := assoc.ParseType(strings.TrimSpace(s))
				if err != nil {
					return UsageError{err.Error()}
				}
				ts = append(ts, t)
			}
			update, err := parseAssocUpdate(args[0], ts)
			if err != nil {
				return err
			}
			inv := map[string]bool{}
			for _, name := range strings.Split(*invariant, ",") {
				if name = strings.TrimSpace(name); name != "" {
					inv[strings.Join(strings.Fields(name), "")] = true
				}
			}
			m, err := assoc.Recognize(update, assoc.MatchOptions{Wrap: *wrap, Real: *real, Synthesize: true,
				Invariant: func(name string) bool { return inv[name] }})
			if err != nil {
				return err
			}
			printMatch(out, m)
			return nil
		}
	},
}

// parseAssocUpdate reads the update form f(…) = …, or else an operator
// in x, y and k.
func parseAssocUpdate(src string, ts []assoc.Type) (assoc.Tuple, error) {
	if lhs, rhs, ok := strings.Cut(src, "="); ok && !strings.HasPrefix(rhs, "=") && !strings.ContainsAny(lhs, "<>!{") &&
		strings.HasSuffix(strings.TrimSpace(lhs), ")") {
		return assoc.ParseUpdateTypes(src, ts)
	}
	return assoc.ParseTupleTypes(src, elementTypes(src, ts))
}

// elementTypes repeats the last of ts for the elements of src's tuple
// (ParseTupleTypes wants one type per element).
func elementTypes(src string, ts []assoc.Type) []assoc.Type {
	tp, err := assoc.ParseTuple(src, ts[0])
	if err != nil || len(tp.Elems) <= len(ts) {
		return ts
	}
	out := append([]assoc.Type{}, ts...)
	for len(out) < len(tp.Elems) {
		out = append(out, ts[len(ts)-1])
	}
	return out
}

func printMatch(w io.Writer, m *assoc.Match) {
	fmt.Fprintf(w, "update:      %v\n", m.Update)
	fmt.Fprintf(w, "operator:    %v\n", m.Tuple)
	fmt.Fprintf(w, "y:           %v\n", assoc.Tuple{Elems: m.Y})
	if m.Identity != nil {
		fmt.Fprintf(w, "identity:    %v\n", assoc.Tuple{Elems: m.Identity})
	} else {
		fmt.Fprintf(w, "identity:    none: initialize each partial result from its chunk's first element\n")
	}
	if m.Commutative {
		fmt.Fprintf(w, "commutative: yes\n")
	} else {
		fmt.Fprintf(w, "commutative: no: combine the partial results in chunk order\n")
	}
	for _, p := range m.Parts {
		var els []string
		for _, e := range p.Elements {
			els = append(els, fmt.Sprint(e))
		}
		if p.Entry == nil {
			fmt.Fprintf(w, "matched:     element %s: built-in %s\n", strings.Join(els, ", "), p.Builtin)
			continue
		}
		plural := "elements"
		if len(els) == 1 {
			plural = "element"
		}
		fmt.Fprintf(w, "matched:     %s %s: %v entry %v (%d leaves", plural, strings.Join(els, ", "), p.Type, p.Entry.Tuple, p.Entry.Leaves)
		if len(p.K) > 0 {
			var ks []string
			for i, k := range p.K {
				name := "k"
				if i > 0 {
					name = fmt.Sprint("k", i)
				}
				ks = append(ks, fmt.Sprintf("%s = %v", name, k))
			}
			fmt.Fprintf(w, "; %s", strings.Join(ks, ", "))
		}
		if p.Entry.Proof != "" {
			fmt.Fprintf(w, "; %s", p.Entry.Proof)
		}
		fmt.Fprintf(w, ")\n")
	}
}
