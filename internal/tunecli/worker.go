package tunecli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"nestor/tune/remote"
	"os"
	"os/signal"
	"runtime"
	"syscall"

	"nestor/dist"
	"nestor/internal/cli"
	"nestor/model"
)

func init() { cli.Register(workerCommand) }

var workerCommand = &cli.Command{
	Name: "worker", Args: "--server nats://HOST:4222 [--slots N] [--prefix P] [--creds FILE] [--tls-ca F --tls-cert F --tls-key F]",
	Summary: `evaluate tasks from a NATS JetStream work queue (distributed tuning)

The worker connects to the NATS server at --server (with JetStream
enabled: nats-server -js), pulls tasks from the work queue named by
--prefix (the coordinator prints it; nestor tune's queue), evaluates
--slots of them at a time, publishes each result and acknowledges the
task. While evaluating it sends in-progress heartbeats; if it dies, the
server delivers its task to another worker once the ack wait has passed.
It runs until interrupted (SIGINT or SIGTERM): tasks it was evaluating go
back to the queue.

Trust: a task is C source that the worker compiles and runs as its own
user. Anyone who may publish on the queue's subjects can run code on
this machine, so point workers only at a server whose accounts restrict
publishing there (--creds, TLS), and run them as a user with nothing to
lose. The worker consumes only the queue it was pointed at.`,
	Setup: func(fs *flag.FlagSet) cli.RunFunc {
		server := fs.String("server", "", "`URL` of the NATS server, e.g. nats://HOST:4222 (required)")
		slots := fs.Int("slots", runtime.NumCPU(), "tasks evaluated at once (default: one per CPU)")
		prefix := fs.String("prefix", dist.DefaultPrefix, "subject `prefix` of the work queue")
		creds := fs.String("creds", "", "NATS credentials `file` (user JWT and NKey seed)")
		tlsCA := fs.String("tls-ca", "", "PEM `file` of the CA that signed the server's certificate")
		tlsCert := fs.String("tls-cert", "", "PEM `file` of the client certificate")
		tlsKey := fs.String("tls-key", "", "PEM `file` of the client certificate's key")
		name := fs.String("name", "", "`name` of the worker in results (default HOST-PID)")
		machine := fs.String("machine", "", "`fingerprint` of this machine, copied into results (default: its hardware fingerprint, as nestor machine's)")
		quiet := fs.Bool("q", false, "print nothing but errors")
		verbose := fs.Bool("v", false, "print a line per task evaluated")
		return func(out io.Writer, args []string) error {
			if len(args) > 0 {
				return cli.UsageError{Msg: fmt.Sprintf("unexpected argument %q", args[0])}
			}
			if *server == "" {
				return cli.UsageError{Msg: "want --server nats://HOST:4222"}
			}
			if *slots < 1 {
				return cli.UsageError{Msg: fmt.Sprintf("--slots %d: want at least 1", *slots)}
			}
			if (*tlsCert == "") != (*tlsKey == "") {
				return cli.UsageError{Msg: "--tls-cert and --tls-key go together"}
			}
			if *machine == "" {
				*machine = model.Host().Fingerprint
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			logf := func(format string, a ...any) { fmt.Fprintf(os.Stderr, format+"\n", a...) }
			var onResult func(dist.Result)
			if *verbose {
				onResult = func(r dist.Result) {
					status := "ok"
					if r.Err != "" {
						status = "error: " + cli.FirstLine(r.Err)
					}
					fmt.Fprintf(out, "%s %s (delivery %d, %.3gs): %s\n", r.Kind, r.TaskID, r.Deliveries, r.Elapsed.Seconds(), status)
				}
			}
			if !*quiet {
				fmt.Fprintf(os.Stderr, "nestor worker: %d slots on %s, queue %s\n", *slots, *server, *prefix)
			}
			defer remote.CloseWorkers()
			return dist.Work(ctx, dist.WorkerOptions{
				URL: *server, Creds: *creds, Prefix: *prefix, Slots: *slots, Name: *name, Machine: *machine,
				TLS: dist.TLSFiles{CA: *tlsCA, Cert: *tlsCert, Key: *tlsKey}, Log: logf, OnResult: onResult,
			}, nil)
		}
	},
}
