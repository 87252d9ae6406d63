//go:build !linux

package prove

import "os/exec"

// dieWithParent does nothing where the system offers no parent-death
// signal.
func dieWithParent(cmd *exec.Cmd) {}
