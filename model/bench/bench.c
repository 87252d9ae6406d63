/* Micro-benchmarks of nestor machine (model.Measure).
 *
 * Built with cc -O3 -march=native -fopenmp -DVB=<vector bytes>; run as
 *
 *   bench MODE N TARGET REPS [THREADS]
 *
 * MODE picks a kernel, N its size (bytes of the working set for the memory
 * kernels, thread count for fork, wake and barrier), TARGET the least
 * seconds a sample lasts (the kernel's repetition count doubles until one
 * run takes that long; for wake, the seconds the master works alone
 * before each fork), REPS the number of samples. Each sample is printed as
 * one line "WORK SECONDS": flops, FMAs, bytes, forks or barriers done in
 * that many seconds; fork, wake and barrier add a third column, the
 * fastest single operation's seconds. Statistics (median, minimum) are
 * model's business.
 *
 * The machine may be shared, so the clocks are chosen to leave other
 * processes out. Kernels time each thread's CPU time: a sample with
 * several threads adds the threads' rates (each its bytes over its CPU
 * time), which on an idle machine is the bandwidth they share and under
 * load at most a few times it. Fork and barrier time every operation on
 * the wall clock, and a sample is the median operation of its run: one
 * that a descheduled thread made wait does not count.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef VB
#define VB 16
#endif

typedef double vd __attribute__((vector_size(VB)));
typedef long long vi __attribute__((vector_size(VB)));
#define LANES (VB / 8)

/* Independent FMA chains: enough to cover latency × issue width of every
 * current x86 core (4 cycles × 2 pipes, 4 × 3 with AVX2 on some). */
#if VB >= 64
#define NACC 16
#else
#define NACC 12
#endif

/* The scalar kernels must stay scalar: -O3 would vectorize them. */
#if defined(__clang__)
#define SCALAR
#define NOVEC _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define SCALAR __attribute__((optimize("no-tree-vectorize", "no-tree-slp-vectorize")))
#define NOVEC
#endif

/* clobber makes the compiler forget what memory holds, so repeated passes
 * over the same data are not merged or removed. */
#define clobber() __asm__ volatile("" ::: "memory")

static volatile double vseed = 1.0;
static volatile long long sink;

static double clock_at(clockid_t id) {
	struct timespec t;
	clock_gettime(id, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* now is the calling thread's CPU time; wall the wall clock. */
static double now(void) { return clock_at(CLOCK_THREAD_CPUTIME_ID); }
static double wall(void) { return clock_at(CLOCK_MONOTONIC); }

static int cmp_double(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* median sorts t[0:n] and returns its median. */
static double median(double *t, long n) {
	qsort(t, n, sizeof *t, cmp_double);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void keep(double x) { sink += (long long)x; }

/* fma_tp runs n rounds of NACC independent vector FMAs: 2·LANES·NACC
 * flops a round. */
static double fma_tp(long n) {
	vd acc[NACC], b, c;
	for (int k = 0; k < LANES; k++) {
		b[k] = vseed * 0.999999;
		c[k] = vseed * 1e-6;
	}
	for (int j = 0; j < NACC; j++)
		for (int k = 0; k < LANES; k++)
			acc[j][k] = vseed + j;
	for (long i = 0; i < n; i++) {
#pragma GCC unroll 16
		for (int j = 0; j < NACC; j++)
			acc[j] = acc[j] * b + c;
	}
	double s = 0;
	for (int j = 0; j < NACC; j++)
		for (int k = 0; k < LANES; k++)
			s += acc[j][k];
	keep(s);
	return 2.0 * LANES * NACC * n;
}

/* fma_lat runs one chain of n dependent vector FMAs. */
static double fma_lat(long n) {
	vd a, b, c;
	for (int k = 0; k < LANES; k++) {
		a[k] = vseed;
		b[k] = vseed * 0.999999;
		c[k] = vseed * 1e-6;
	}
	for (long i = 0; i < n; i++) {
		a = a * b + c;
	}
	double s = 0;
	for (int k = 0; k < LANES; k++)
		s += a[k];
	keep(s);
	return n;
}

/* vload reads n vectors (n a multiple of 8) into 8 independent
 * accumulators; an OR issues on every vector ALU pipe, so the loads bound
 * the loop. */
static vi vload(const vi *p, long n) {
	vi s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0}, s4 = {0}, s5 = {0}, s6 = {0}, s7 = {0};
	for (long i = 0; i < n; i += 8) {
		s0 |= p[i];
		s1 |= p[i + 1];
		s2 |= p[i + 2];
		s3 |= p[i + 3];
		s4 |= p[i + 4];
		s5 |= p[i + 5];
		s6 |= p[i + 6];
		s7 |= p[i + 7];
	}
	return s0 | s1 | s2 | s3 | s4 | s5 | s6 | s7;
}

SCALAR static long long sload(const long long *p, long n) {
	long long s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
	NOVEC
	for (long i = 0; i < n; i += 8) {
		s0 |= p[i];
		s1 |= p[i + 1];
		s2 |= p[i + 2];
		s3 |= p[i + 3];
		s4 |= p[i + 4];
		s5 |= p[i + 5];
		s6 |= p[i + 6];
		s7 |= p[i + 7];
	}
	return s0 | s1 | s2 | s3 | s4 | s5 | s6 | s7;
}

static void vstore(vi *p, long n, vi v) {
#pragma GCC unroll 8
	for (long i = 0; i < n; i++)
		p[i] = v;
}

SCALAR static void sstore(long long *p, long n, long long v) {
	NOVEC
#pragma GCC unroll 8
	for (long i = 0; i < n; i++)
		p[i] = v;
}

/* buffer returns a zeroed, touched, aligned buffer of at least bytes. */
static void *buffer(long bytes) {
	void *p = NULL;
	if (posix_memalign(&p, 4096, bytes) != 0) {
		perror("bench: posix_memalign");
		exit(1);
	}
	memset(p, 1, bytes);
	return p;
}

/* mem runs passes of kernel mode over one buffer of bytes: the work is
 * the bytes moved. */
static double mem(const char *mode, void *p, long bytes, long passes) {
	long long acc = 0;
	for (long r = 0; r < passes; r++) {
		clobber();
		if (!strcmp(mode, "load")) {
			vi s = vload((const vi *)p, bytes / VB);
			for (int k = 0; k < LANES; k++)
				acc |= s[k];
		} else if (!strcmp(mode, "sload")) {
			acc |= sload((const long long *)p, bytes / 8);
		} else if (!strcmp(mode, "store")) {
			vi v;
			for (int k = 0; k < LANES; k++)
				v[k] = r + k;
			vstore((vi *)p, bytes / VB, v);
		} else {
			sstore((long long *)p, bytes / 8, r);
		}
		clobber();
	}
	sink += acc;
	return (double)bytes * passes;
}

/* calibrate returns a repetition count for which run(n) lasts at least
 * target seconds. */
#define CALIBRATE(n, target, call)                          \
	do {                                                    \
		for (n = 1;; n *= 2) {                              \
			double t0 = now();                              \
			call;                                           \
			if (now() - t0 >= (target) || n >= (1L << 40)) \
				break;                                      \
		}                                                   \
	} while (0)

static void compute(const char *mode, double target, int reps) {
	long n;
	if (!strcmp(mode, "fma")) {
		CALIBRATE(n, target, fma_tp(n));
		for (int r = 0; r < reps; r++) {
			double t0 = now(), w = fma_tp(n);
			printf("%.17g %.9g\n", w, now() - t0);
		}
	} else {
		CALIBRATE(n, target, fma_lat(n));
		for (int r = 0; r < reps; r++) {
			double t0 = now(), w = fma_lat(n);
			printf("%.17g %.9g\n", w, now() - t0);
		}
	}
}

/* memory times kernel mode on a working set of bytes with one thread, or
 * with threads threads each on its own buffer of bytes/threads (first
 * touched by that thread). */
static void memory(const char *mode, long bytes, double target, int reps, int threads) {
	long per = bytes / threads;
	per -= per % (8 * VB);
	if (per < 8 * VB)
		per = 8 * VB;
	double *times = calloc((size_t)reps * threads, sizeof *times); /* [rep][thread] CPU seconds */
	long n = 1;
#pragma omp parallel num_threads(threads)
	{
		int id = omp_get_thread_num();
		void *p = buffer(per);
		mem(mode, p, per, 1); /* warm: caches, TLB */
#pragma omp barrier
#pragma omp master
		CALIBRATE(n, target, mem(mode, p, per, n));
#pragma omp barrier
		for (int r = 0; r < reps; r++) {
#pragma omp barrier
			double t0 = now();
			mem(mode, p, per, n);
			times[r * threads + id] = now() - t0;
		}
		free(p);
	}
	for (int r = 0; r < reps; r++) {
		double rate = 0;
		for (int t = 0; t < threads; t++)
			rate += (double)per * n / times[r * threads + t];
		double work = (double)per * threads * n;
		printf("%.17g %.9g\n", work, work / rate);
	}
	free(times);
}

/* A fork or barrier sample times between opmin and opcap operations one
 * by one: enough for the median and the fastest to mean something when
 * a loaded machine makes each one last longer than the target. */
#define opmin 32L
#define opcap (1L << 20)

static double forks(int threads, long n) {
	for (long i = 0; i < n; i++) {
#pragma omp parallel num_threads(threads)
		clobber();
	}
	return n;
}

static void fork_join(int threads, double target, int reps) {
	long n;
	double t0;
	for (n = opmin; n < opcap; n *= 2) {
		t0 = wall();
		forks(threads, n);
		if (wall() - t0 >= target)
			break;
	}
	double *t = malloc(n * sizeof *t);
	for (int r = 0; r < reps; r++) {
		for (long i = 0; i < n; i++) {
			t0 = wall();
#pragma omp parallel num_threads(threads)
			clobber();
			t[i] = wall() - t0;
		}
		double m = median(t, n);
		printf("1 %.9g %.9g\n", m, t[0]);
	}
	free(t);
}

/* wake times forks of a team that sleeps between them: the runner sets
 * OMP_WAIT_POLICY=passive, and before each fork the master alone works
 * for gap seconds (sequential code between two parallel loops), long
 * enough for the other threads to sleep and their cores to idle. A fork
 * then wakes them: a system call, and on a virtual machine the host's
 * wake-up of an idle virtual CPU. n forks make a sample. */
static void wake(int threads, double gap, int reps) {
	long n = 64;
	double *t = malloc(n * sizeof *t);
	for (int r = 0; r < reps; r++) {
		for (long i = 0; i < n; i++) {
			double g0 = wall();
			while (wall() - g0 < gap)
				clobber();
			double t0 = wall();
#pragma omp parallel num_threads(threads)
			clobber();
			t[i] = wall() - t0;
		}
		double m = median(t, n); /* sorts t */
		printf("1 %.9g %.9g\n", m, t[0]);
	}
	free(t);
}

/* barrier times barriers inside one parallel region on the master
 * thread, each from the end of the previous one. */
static void barrier(int threads, double target, int reps) {
	long n = opmin;
	int stop = 0;
	double *t = NULL;
#pragma omp parallel num_threads(threads)
	{
		while (!stop) {
#pragma omp barrier
			/* The master doubles n once the loop's last barrier is
			 * passed: the others must not read it again then. */
			long m = n;
			double t0 = wall();
			for (long i = 0; i < m; i++) {
#pragma omp barrier
			}
#pragma omp master
			{
				if (wall() - t0 >= target || n >= opcap) {
					stop = 1;
					t = malloc(n * sizeof *t);
				} else
					n *= 2;
			}
#pragma omp barrier
		}
		for (int r = 0; r < reps; r++) {
#pragma omp barrier
			double t0 = wall();
			for (long i = 0; i < n; i++) {
#pragma omp barrier
#pragma omp master
				{
					double t1 = wall();
					t[i] = t1 - t0;
					t0 = t1;
				}
			}
#pragma omp master
			{
				double m = median(t, n);
				printf("1 %.9g %.9g\n", m, t[0]);
			}
		}
	}
	free(t);
}

int main(int argc, char **argv) {
	if (argc < 5) {
		fprintf(stderr, "usage: bench MODE N TARGET REPS [THREADS]\n");
		return 2;
	}
	const char *mode = argv[1];
	long n = atol(argv[2]);
	double target = atof(argv[3]);
	int reps = atoi(argv[4]);
	int threads = argc > 5 ? atoi(argv[5]) : 1;
	if (reps < 1 || threads < 1 || target <= 0) {
		fprintf(stderr, "bench: bad arguments\n");
		return 2;
	}
	omp_set_dynamic(0);
	if (!strcmp(mode, "fma") || !strcmp(mode, "lat"))
		compute(mode, target, reps);
	else if (!strcmp(mode, "load") || !strcmp(mode, "sload") || !strcmp(mode, "store") || !strcmp(mode, "sstore"))
		memory(mode, n, target, reps, threads);
	else if (!strcmp(mode, "fork"))
		fork_join((int)n, target, reps);
	else if (!strcmp(mode, "wake"))
		wake((int)n, target, reps);
	else if (!strcmp(mode, "barrier"))
		barrier((int)n, target, reps);
	else {
		fprintf(stderr, "bench: unknown mode %s\n", mode);
		return 2;
	}
	return 0;
}
