package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// TuneBinary is the program that holds the commands whose libraries are
// heavy to start: tune (an embedded NATS server, plotting) and worker.
// nestor itself links neither, so that every other command starts in a
// few milliseconds (a NATS server and a plotting library cost nestor
// about 20 ms of start-up on every run, page faults and package
// initialization); its tune and worker commands run nestor-tune with the
// same arguments.
const TuneBinary = "nestor-tune"

func init() {
	Register(&Command{Name: "tune", Args: "FILE.c [--budget N|--time D] [--threads N] [--seed S] [--records FILE.jsonl] [-o OUT.c] | --plot FILE.jsonl -o OUT.svg",
		Summary: "search the implementations of a kernel's regions, measured on this machine", External: TuneBinary})
	Register(&Command{Name: "worker", Args: "--server nats://HOST:4222 [--slots N] [--prefix P] [--creds FILE] [--tls-ca F --tls-cert F --tls-key F]",
		Summary: "evaluate tasks from a NATS JetStream work queue (distributed tuning)", External: TuneBinary})
}

// runExternal runs c's program with the command line args (the command's
// name included), passing the standard input and the outputs through, and
// returns its exit status.
func runExternal(c *Command, args []string, out, errw io.Writer) int {
	bin, err := findExternal(c.External, errw)
	if err != nil {
		fmt.Fprintf(errw, "nestor %s: %v\n", c.Name, err)
		return 1
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, out, errw
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	fmt.Fprintf(errw, "nestor %s: %v\n", c.Name, err)
	return 1
}

// findExternal finds program name: beside this executable (go install
// and go build -o DIR put nestor and nestor-tune together), then on the
// PATH. Failing both, when the working directory is inside nestor's
// source tree and go is installed, it builds the program from that tree
// into the user's cache folder, saying so on errw (go rebuilds it only
// when the sources changed).
func findExternal(name string, errw io.Writer) (string, error) {
	if exe, err := os.Executable(); err == nil {
		if exe, err := filepath.EvalSymlinks(exe); err == nil {
			p := filepath.Join(filepath.Dir(exe), name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	missing := fmt.Errorf("this command is in the %s program, found neither beside nestor nor on the PATH: install both with 'go install ./cmd/...' in nestor's source tree", name)
	root := moduleRoot()
	if root == "" {
		return "", missing
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", missing
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", missing
	}
	dir := filepath.Join(cache, "nestor", "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("%v (%v)", missing, err)
	}
	p := filepath.Join(dir, name)
	if _, err := os.Stat(p); err != nil {
		// Said once: later runs rebuild it silently (go build does
		// nothing unless the sources changed).
		fmt.Fprintf(errw, "nestor: %s is not installed; building it from %s into %s (again whenever the sources change)\n", name, root, dir)
	}
	build := exec.Command(gobin, "build", "-o", p, "./cmd/"+name)
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v; building it failed: %v\n%s", missing, err, msg)
	}
	return p, nil
}

// moduleRoot returns the folder of the go.mod of module nestor that holds
// the working directory, or "".
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			ok := sc.Scan() && strings.TrimSpace(sc.Text()) == "module nestor"
			f.Close()
			if ok {
				return dir
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
