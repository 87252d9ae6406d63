package tunecli

import (
	"bytes"
	"os/exec"
	"testing"

	"nestor/internal/cli"
)

// nestor runs nestor-tune's command line in-process and returns its exit
// status and outputs.
func nestor(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errw bytes.Buffer
	code := cli.Run(args, &out, &errw)
	return code, out.String(), errw.String()
}

// needCC skips a test that compiles C when there is no cc.
func needCC(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler (cc)")
	}
}
