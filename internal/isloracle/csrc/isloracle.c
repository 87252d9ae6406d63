/*
 * isloracle: memory-based dependences computed with isl, for cross-checking
 * nestor's dependence analysis in tests. Reads a model on stdin, one item a
 * line ("keyword SP isl-text"), and answers on stdout in the same form.
 *
 *   mode deps|equal       what to do (default deps)
 *   repeat K              time the computation K times, report the median
 *   context SET           parameter assumptions, e.g. [n] -> { : n >= 0 }
 *   domain SET            one per statement: [n] -> { S0[i] : ... }
 *   write MAP             [n] -> { S0[i] -> A[i] }
 *   read MAP
 *   schedule MAP          { S0[i] -> [0, i, 0] }, all in one space
 *   flow|anti|output UMAP candidate relations (mode equal)
 *
 * Mode deps prints "flow UMAP", "anti UMAP", "output UMAP", "ns N".
 * Mode equal prints "KIND equal" or "KIND differ" followed by
 * "isl KIND UMAP", "got KIND UMAP", "missing KIND UMAP", "extra KIND UMAP".
 * Errors go to stderr with exit status 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <isl/ctx.h>
#include <isl/options.h>
#include <isl/space.h>
#include <isl/set.h>
#include <isl/map.h>
#include <isl/union_set.h>
#include <isl/union_map.h>

static const char *kinds[3] = {"flow", "anti", "output"};

static void die(const char *msg, const char *arg) {
	fprintf(stderr, "isloracle: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b) {
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* add parses text as a union map (or set) and adds it to *acc. */
static isl_union_map *add_map(isl_ctx *ctx, isl_union_map *acc, const char *text) {
	isl_union_map *m = isl_union_map_read_from_str(ctx, text);
	if (!m)
		die("cannot parse relation", text);
	return isl_union_map_union(acc, m);
}

/*
 * deps computes the three memory-based dependence relations between
 * statement instances: a pair (a, b) is a dependence when a precedes b in
 * the schedule and both touch the same element, the kind telling which of
 * the two accesses write it:
 *   flow   = (W ; R^-1) intersect Before
 *   anti   = (R ; W^-1) intersect Before
 *   output = (W ; W^-1) intersect Before
 * where Before = { a -> b : S(a) <<_lex S(b) } over the scheduled domain.
 */
static void deps(isl_union_set *dom, isl_union_map *w, isl_union_map *r,
		 isl_union_map *s, isl_union_map *out[3]) {
	isl_union_map *W = isl_union_map_intersect_domain(isl_union_map_copy(w), isl_union_set_copy(dom));
	isl_union_map *R = isl_union_map_intersect_domain(isl_union_map_copy(r), isl_union_set_copy(dom));
	isl_union_map *S = isl_union_map_intersect_domain(isl_union_map_copy(s), isl_union_set_copy(dom));
	isl_union_map *before = isl_union_map_lex_lt_union_map(isl_union_map_copy(S), S);
	isl_union_map *pairs[3] = {
		isl_union_map_apply_range(isl_union_map_copy(W), isl_union_map_reverse(isl_union_map_copy(R))),
		isl_union_map_apply_range(isl_union_map_copy(R), isl_union_map_reverse(isl_union_map_copy(W))),
		isl_union_map_apply_range(isl_union_map_copy(W), isl_union_map_reverse(isl_union_map_copy(W))),
	};
	for (int k = 0; k < 3; k++)
		out[k] = isl_union_map_coalesce(isl_union_map_intersect(pairs[k], isl_union_map_copy(before)));
	isl_union_map_free(before);
	isl_union_map_free(W);
	isl_union_map_free(R);
}

static void print_umap(const char *prefix, const char *kind, isl_union_map *m) {
	char *str = isl_union_map_to_str(m);
	if (!str)
		die("cannot print relation", kind);
	printf("%s%s %s\n", prefix, kind, str);
	free(str);
}

int main(void) {
	isl_ctx *ctx = isl_ctx_alloc();
	isl_options_set_on_error(ctx, ISL_ON_ERROR_CONTINUE);
	isl_union_set *context = NULL;
	isl_union_set *dom = NULL;
	isl_union_map *w = NULL, *r = NULL, *s = NULL, *cand[3] = {NULL, NULL, NULL};
	int equal = 0;
	long repeat = 1;

	/* Empty unions need a parameter space; start from the zero one. */
	dom = isl_union_set_empty(isl_space_params_alloc(ctx, 0));
	w = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
	r = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
	s = isl_union_map_empty(isl_space_params_alloc(ctx, 0));

	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, stdin)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = 0;
		if (n == 0)
			continue;
		char *text = strchr(line, ' ');
		if (!text)
			die("line without text", line);
		*text++ = 0;
		if (!strcmp(line, "mode")) {
			equal = !strcmp(text, "equal");
			if (!equal && strcmp(text, "deps"))
				die("unknown mode", text);
		} else if (!strcmp(line, "repeat")) {
			repeat = strtol(text, NULL, 10);
			if (repeat < 1)
				die("bad repeat", text);
		} else if (!strcmp(line, "context")) {
			isl_set *c = isl_set_read_from_str(ctx, text);
			if (!c)
				die("cannot parse context", text);
			context = isl_union_set_from_set(c);
		} else if (!strcmp(line, "domain")) {
			isl_union_set *d = isl_union_set_read_from_str(ctx, text);
			if (!d)
				die("cannot parse domain", text);
			dom = isl_union_set_union(dom, d);
		} else if (!strcmp(line, "write")) {
			w = add_map(ctx, w, text);
		} else if (!strcmp(line, "read")) {
			r = add_map(ctx, r, text);
		} else if (!strcmp(line, "schedule")) {
			s = add_map(ctx, s, text);
		} else {
			int k;
			for (k = 0; k < 3 && strcmp(line, kinds[k]); k++)
				;
			if (k == 3)
				die("unknown keyword", line);
			if (!cand[k])
				cand[k] = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
			cand[k] = add_map(ctx, cand[k], text);
		}
	}
	free(line);
	if (context)
		dom = isl_union_set_intersect_params(dom, isl_set_from_union_set(isl_union_set_copy(context)));
	if (!dom || !w || !r || !s)
		die("invalid model", NULL);

	isl_union_map *out[3];
	long long *t = calloc(repeat, sizeof *t);
	for (long k = 0; k < repeat; k++) {
		long long t0 = now_ns();
		deps(dom, w, r, s, out);
		t[k] = now_ns() - t0;
		if (!out[0] || !out[1] || !out[2])
			die("dependence computation failed", NULL);
		if (k + 1 < repeat)
			for (int j = 0; j < 3; j++)
				isl_union_map_free(out[j]);
	}
	qsort(t, repeat, sizeof *t, cmp_ll);

	for (int k = 0; k < 3; k++) {
		if (!equal) {
			print_umap("", kinds[k], out[k]);
			continue;
		}
		if (!cand[k])
			cand[k] = isl_union_map_empty(isl_space_params_alloc(ctx, 0));
		if (context)
			cand[k] = isl_union_map_intersect_params(cand[k],
				isl_set_from_union_set(isl_union_set_copy(context)));
		isl_bool eq = isl_union_map_is_equal(out[k], cand[k]);
		if (eq < 0)
			die("cannot compare relations", kinds[k]);
		printf("%s %s\n", kinds[k], eq ? "equal" : "differ");
		if (!eq) {
			print_umap("isl ", kinds[k], out[k]);
			print_umap("got ", kinds[k], cand[k]);
			isl_union_map *miss = isl_union_map_subtract(isl_union_map_copy(out[k]), isl_union_map_copy(cand[k]));
			isl_union_map *extra = isl_union_map_subtract(isl_union_map_copy(cand[k]), isl_union_map_copy(out[k]));
			print_umap("missing ", kinds[k], isl_union_map_coalesce(miss));
			print_umap("extra ", kinds[k], isl_union_map_coalesce(extra));
			isl_union_map_free(miss);
			isl_union_map_free(extra);
		}
	}
	printf("ns %lld\n", t[repeat / 2]);
	free(t);
	for (int k = 0; k < 3; k++) {
		isl_union_map_free(out[k]);
		isl_union_map_free(cand[k]);
	}
	isl_union_set_free(context);
	isl_union_set_free(dom);
	isl_union_map_free(w);
	isl_union_map_free(r);
	isl_union_map_free(s);
	isl_ctx_free(ctx);
	return 0;
}
