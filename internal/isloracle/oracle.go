package isloracle

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

//go:embed csrc/isloracle.c
var helperSrc []byte

// ErrUnavailable is wrapped by New's error when the helper cannot be built
// here: no C compiler, or no isl headers or library.
var ErrUnavailable = errors.New("isloracle: isl helper unavailable")

// Kinds are the dependence kinds, in the order the helper prints them.
var Kinds = [...]string{"flow", "anti", "output"}

// Relations are dependence relations between statement instances, as isl
// union maps: "[n] -> { S0[i] -> S1[i'] : ... }".
type Relations struct {
	Flow, Anti, Output string
	// Nanos is the median time isl took to compute the relations, measured
	// inside the helper around the computation only (not parsing).
	Nanos int64
}

// Kind returns the relation of kind k (one of Kinds).
func (r Relations) Kind(k string) string {
	switch k {
	case "flow":
		return r.Flow
	case "anti":
		return r.Anti
	case "output":
		return r.Output
	}
	panic("isloracle: unknown kind " + k)
}

// Oracle runs the isl helper.
type Oracle struct {
	bin string
}

// New builds the helper, or finds it already built in the user cache.
func New(ctx context.Context) (*Oracle, error) {
	sum := sha256.Sum256(helperSrc)
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "nestor-isloracle", hex.EncodeToString(sum[:8]))
	bin := filepath.Join(dir, "isloracle")
	if _, err := os.Stat(bin); err == nil {
		return &Oracle{bin: bin}, nil
	}
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("isloracle: %v", err)
	}
	// Build in a private folder and rename, so concurrent test processes
	// never run a half-written binary.
	tmp, err := os.MkdirTemp(dir, "build")
	if err != nil {
		return nil, fmt.Errorf("isloracle: %v", err)
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "isloracle.c")
	if err := os.WriteFile(src, helperSrc, 0o644); err != nil {
		return nil, fmt.Errorf("isloracle: %v", err)
	}
	out := filepath.Join(tmp, "isloracle")
	cmd := exec.CommandContext(ctx, cc, "-O2", "-o", out, src, "-lisl")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%w: %s: %v\n%s", ErrUnavailable, cc, err, msg)
	}
	if err := os.Rename(out, bin); err != nil {
		return nil, fmt.Errorf("isloracle: %v", err)
	}
	return &Oracle{bin: bin}, nil
}

// Deps returns isl's memory-based dependences of m.
func (o *Oracle) Deps(m Model) (Relations, error) { return o.DepsN(m, 1) }

// DepsN is Deps with the computation repeated k times; Nanos is the median.
func (o *Oracle) DepsN(m Model, k int) (Relations, error) {
	var in bytes.Buffer
	fmt.Fprintf(&in, "mode deps\nrepeat %d\n", max(k, 1))
	writeModel(&in, m)
	out, err := o.run(&in)
	if err != nil {
		return Relations{}, err
	}
	var r Relations
	for _, l := range out {
		key, text, _ := strings.Cut(l, " ")
		switch key {
		case "flow":
			r.Flow = text
		case "anti":
			r.Anti = text
		case "output":
			r.Output = text
		case "ns":
			r.Nanos, err = strconv.ParseInt(text, 10, 64)
		}
	}
	return r, err
}

// Equal reports, per kind, whether r's relation equals isl's dependences
// of m (as sets of instance pairs, under m's context). An empty relation
// in r means no dependence; EqualDiff also says how they differ.
func (o *Oracle) Equal(m Model, r Relations) (map[string]bool, error) {
	eq, _, err := o.EqualDiff(m, r)
	return eq, err
}

// EqualDiff is Equal, also returning for each differing kind isl's
// relation, r's, and the pairs missing from r and extra in r.
func (o *Oracle) EqualDiff(m Model, r Relations) (map[string]bool, map[string]string, error) {
	var in bytes.Buffer
	in.WriteString("mode equal\n")
	writeModel(&in, m)
	for _, k := range Kinds {
		if rel := r.Kind(k); strings.TrimSpace(rel) != "" {
			fmt.Fprintf(&in, "%s %s\n", k, oneLine(rel))
		}
	}
	out, err := o.run(&in)
	if err != nil {
		return nil, nil, err
	}
	eq := map[string]bool{}
	diff := map[string]string{}
	for _, l := range out {
		key, text, _ := strings.Cut(l, " ")
		switch key {
		case "flow", "anti", "output":
			eq[key] = text == "equal"
		case "isl", "got", "missing", "extra":
			kind, rel, _ := strings.Cut(text, " ")
			diff[kind] += fmt.Sprintf("%-8s %s\n", key+":", rel)
		}
	}
	if len(eq) != len(Kinds) {
		return nil, nil, fmt.Errorf("isloracle: helper answered %q", out)
	}
	return eq, diff, nil
}

// writeModel writes m in the helper's line format.
func writeModel(b *bytes.Buffer, m Model) {
	if m.Context != "" {
		fmt.Fprintf(b, "context %s\n", oneLine(m.Context))
	}
	for _, s := range m.Stmts {
		fmt.Fprintf(b, "domain %s\n", oneLine(s.Domain))
		for _, w := range s.Writes {
			fmt.Fprintf(b, "write %s\n", oneLine(w))
		}
		for _, r := range s.Reads {
			fmt.Fprintf(b, "read %s\n", oneLine(r))
		}
		fmt.Fprintf(b, "schedule %s\n", oneLine(s.Schedule))
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// run feeds in to the helper and returns its output lines.
func (o *Oracle) run(in *bytes.Buffer) ([]string, error) {
	cmd := exec.Command(o.bin)
	cmd.Stdin = in
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("isloracle: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	// isl reports parse errors on stderr and may continue; treat any as fatal.
	if strings.Contains(stderr.String(), "error") {
		return nil, fmt.Errorf("isloracle: %s", strings.TrimSpace(stderr.String()))
	}
	var lines []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines, sc.Err()
}
