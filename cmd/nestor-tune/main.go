// Command nestor-tune is nestor with the commands that link an embedded
// NATS server and a plotting library: tune and worker. nestor runs it
// for those two commands (it looks for nestor-tune beside itself, then
// on the PATH); it runs every other command as nestor does.
package main

import (
	"nestor/internal/cli"
	_ "nestor/internal/tunecli" // registers tune and worker
)

func main() { cli.Main() }
