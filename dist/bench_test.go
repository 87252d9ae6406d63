package dist

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"
)

// childCPU returns the CPU time (user and system) of the finished child
// processes so far: the compilers and programs of cbench tasks.
func childCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// report adds the throughput and the compilers' CPU time per task, which
// does not depend on the machine's load as the throughput does.
func report(b *testing.B, start time.Time, cpu0 time.Duration) {
	b.ReportMetric(float64(b.N)/time.Since(start).Minutes(), "tasks/min")
	b.ReportMetric((childCPU()-cpu0).Seconds()/float64(b.N), "cpu-s/task")
}

// benchC is a small compile-bound program: gcc -O2 spends most of the
// task's time compiling it; the run takes milliseconds.
const benchC = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N 64
static double a[N][N], b[N][N], c[N][N];
static int cmp(const void *x, const void *y) {
	double d = *(const double *)x - *(const double *)y;
	return (d > 0) - (d < 0);
}
static unsigned hash(const char *s) {
	unsigned h = 2166136261u;
	while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}
static void gemm(void) {
	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++)
			for (int j = 0; j < N; j++)
				c[i][j] += a[i][k] * b[k][j];
}
static void stencil(double *x, int n, int steps) {
	double *y = malloc(n * sizeof *y);
	for (int t = 0; t < steps; t++) {
		for (int i = 1; i < n - 1; i++) y[i] = (x[i-1] + x[i] + x[i+1]) / 3;
		memcpy(x + 1, y + 1, (n - 2) * sizeof *x);
	}
	free(y);
}
int main(int argc, char **argv) {
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = (i * 7 + j) % 13;
			b[i][j] = (i + j * 5) % 11;
		}
	gemm();
	double v[N * N];
	memcpy(v, c, sizeof v);
	qsort(v, N * N, sizeof *v, cmp);
	stencil(v, N * N, 10);
	char buf[64];
	snprintf(buf, sizeof buf, "%.6f", v[N * N / 2]);
	printf("%s %u\n", buf, hash(buf) ^ (unsigned)argc);
	return 0;
}
`

// BenchmarkCBench measures tasks per minute of compile-bound cbench
// tasks (benchC at -O2, one run) with 1, 2 and 3 local worker slots;
// "direct" evaluates them one after another without the queue.
//
//	go test -run '^$' -bench CBench -benchtime 24x ./dist
//
// Run it several times rather than with -count: -count repeats each
// sub-benchmark in a row, so a change of the machine's load between them
// shows as a difference between worker counts.
func BenchmarkCBench(b *testing.B) {
	task := func(i int) Task {
		p, _ := json.Marshal(CBenchTask{
			Files:  map[string]string{"bench.c": fmt.Sprintf("/* task %d */\n%s", i, benchC)},
			CFlags: []string{"-O2"}, Runs: 1,
		})
		return Task{ID: fmt.Sprint(i), Kind: CBenchKind, Payload: p}
	}
	b.Run("direct", func(b *testing.B) {
		start, cpu0 := time.Now(), childCPU()
		for i := range b.N {
			if _, err := CBench(context.Background(), task(i)); err != nil {
				b.Fatal(err)
			}
		}
		report(b, start, cpu0)
	})
	for slots := 1; slots <= 3; slots++ {
		b.Run(fmt.Sprintf("workers=%d", slots), func(b *testing.B) {
			ctx := context.Background()
			c, err := Start(ctx, Options{LocalSlots: slots, Prefix: "nestor.bench"})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			tasks := make([]Task, b.N)
			for i := range tasks {
				tasks[i] = task(i)
			}
			b.ResetTimer()
			start, cpu0 := time.Now(), childCPU()
			if _, err := c.Submit(ctx, tasks); err != nil {
				b.Fatal(err)
			}
			for range b.N {
				r := <-c.Results()
				if r.Err != "" {
					b.Fatal(r.Err)
				}
			}
			b.StopTimer() // Close waits for the workers' pending pulls
			report(b, start, cpu0)
		})
	}
}
