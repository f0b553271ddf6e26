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

/* one thread or two: PERFSIFT_THREADS=1 says one (to compare, to debug) */
static int two_threads(void)
{
	static int two = -1;

	if (two < 0) {
		const char *e = getenv("PERFSIFT_THREADS");

		two = !(e && !strcmp(e, "1"));
	}
	return two;
}

void parallel_halves(size_t n, void (*fn)(void *ctx, size_t lo, size_t hi),
		     void *ctx)
{
	struct half h = { fn, ctx, n / 2, n };
	pthread_t t;

	if (n < PARALLEL_MIN || !two_threads() ||
	    pthread_create(&t, NULL, run_half, &h)) {
		fn(ctx, 0, n);
		return;
	}
	fn(ctx, 0, n / 2);
	pthread_join(t, NULL);
}
