package prove

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes z3 get SIGKILL when the process that started it
// ends, so that a test killed at its timeout (or a killed nestor) leaves
// no solver running.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
