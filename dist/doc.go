// Package dist distributes evaluations over machines through a NATS
// JetStream work queue, so that a search (nestor tune) can use workers on
// several machines without a protocol of its own.
//
// A Coordinator owns a queue named by a subject prefix P: tasks are
// published on P.tasks to a work-queue stream and consumed by a durable
// consumer shared by every worker; results are published on P.results to
// a second stream, which the coordinator reads from its start. By default
// the coordinator embeds a NATS server with JetStream listening on
// 127.0.0.1 only (nothing to install, nothing reachable from elsewhere);
// Options.Server names an existing server instead, with credentials and
// TLS. Work runs a worker: Slots goroutines, each pulling one task at a
// time, evaluating it with the Evaluator registered for its kind, then
// publishing the result before acknowledging the task. The coordinator
// runs Options.LocalSlots such slots in its own process; `nestor worker`
// runs them on other machines.
//
// # Guarantees
//
//   - Each task gets exactly one result from the coordinator (Results or
//     OnResult): a result is recorded once per task ID, whatever the
//     number of evaluations (a redelivery after a slow acknowledgement, a
//     worker dying between publishing a result and acknowledging).
//   - A worker that dies mid-evaluation loses nothing: its task is
//     delivered again once the ack wait has passed without a heartbeat.
//     A worker evaluating sends in-progress heartbeats every AckWait/4, so
//     a long evaluation is not delivered twice.
//   - A task is evaluated at most MaxDeliver times: the delivery after that
//     ends it with an error result (Result.Err), so a task that kills its
//     worker every time does not loop. Should that last delivery's worker
//     die too, the server's max-deliveries advisory makes the coordinator
//     publish the error result.
//   - A coordinator started with Resume on the same streams (the same
//     server, or the same StoreDir of the embedded server) and the same
//     prefix continues: tasks still queued are not published again by
//     Submit, results stored while it was down are delivered, and results
//     the caller already recorded (Options.Known, e.g. read with
//     ReadResultsFile) are neither delivered nor evaluated again.
//   - A worker consumes only the queue of the prefix it was given.
//
// # Trust
//
// A worker runs what it receives: the built-in kind "cbench" compiles and
// runs C source, and so does the tuner's evaluator. Anyone who can publish
// on P.tasks can run code on every worker of the queue, as the worker's
// user. Run workers on a server whose accounts restrict who may publish
// there (credentials, TLS), in a user account with nothing to lose.
//
// # Limits
//
// A task and a result are each one NATS message: at most the server's
// max_payload (1 MiB by default). The streams stay on a shared server
// after the run (a later fresh coordinator with the same prefix resets
// them once no task is pending).
// Results reach the caller in the order the results stream stores them,
// not in submission order. Tasks are not prioritized. A task interrupted
// by a worker's shutdown counts as one of its MaxDeliver deliveries. The
// embedded server has no authentication: listening beyond the loopback
// interface (Options.Listen) exposes the queue to the network.
package dist
