/*
 * Two threads over independent items (parallel.h).
 */
#include "core/compat.h"
#include "core/parallel.h"
#include <pthread.h>

struct half {
	void (*fn)(void *ctx, size_t lo, size_t hi);
	void *ctx;
	size_t lo, hi;
};

static void *run_half(void *arg)
{
	struct half *h = arg;

	h->fn(h->ctx, h->lo, h->hi);
	return NULL;
}

/*
 * One thread or two: PERFSIFT_THREADS=1 says one (to compare, to debug);
 * read at each call, so that a test can set it between two.
 */
int parallel_enabled(void)
{
	const char *e = getenv("PERFSIFT_THREADS");

	return !(e && !strcmp(e, "1"));
}

void parallel_halves(size_t n, void (*fn)(void *ctx, size_t lo, size_t hi),
		     void *ctx)
{
	struct half h = { fn, ctx, n / 2, n };
	pthread_t t;

	if (n < PARALLEL_MIN || !parallel_enabled() ||
	    pthread_create(&t, NULL, run_half, &h)) {
		fn(ctx, 0, n);
		return;
	}
	fn(ctx, 0, n / 2);
	pthread_join(t, NULL);
}

struct pair {
	void (*fn)(void *);
	void *arg;
};

static void *run_pair(void *arg)
{
	struct pair *p = arg;

	p->fn(p->arg);
	return NULL;
}

void parallel_pair(void (*fn)(void *), void *a, void *b)
{
	struct pair p = { fn, b };
	pthread_t t;

	if (!parallel_enabled() || pthread_create(&t, NULL, run_pair, &p)) {
		fn(a);
		fn(b);
		return;
	}
	fn(a);
	pthread_join(t, NULL);
}
