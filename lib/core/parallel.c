/*
 * Two threads over independent items (parallel.h).
 */
#include "core/compat.h"
#include "core/parallel.h"
#include <pthread.h>
#include <stdatomic.h>

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

/* parallel_beside()'s blocks: the next one anyone takes, from the end */
struct beside {
	void (*fn)(void *ctx, size_t lo, size_t hi);
	void *ctx;
	size_t n, block;
	_Atomic size_t next;	/* blocks taken */
};

static void take_blocks(struct beside *b)
{
	size_t k, nr = (b->n + b->block - 1) / b->block;

	while ((k = atomic_fetch_add(&b->next, 1)) < nr) {
		size_t hi = b->n - k * b->block;

		b->fn(b->ctx, hi > b->block ? hi - b->block : 0, hi);
	}
}

static void *run_beside(void *arg)
{
	take_blocks(arg);
	return NULL;
}

void parallel_beside(size_t n, size_t block,
		     void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx,
		     void (*other)(void *octx), void *octx)
{
	struct beside b = { fn, ctx, n, block ? block : 1, 0 };
	pthread_t t;

	if (n < PARALLEL_MIN || !parallel_enabled() ||
	    pthread_create(&t, NULL, run_beside, &b)) {
		other(octx);
		fn(ctx, 0, n);
		return;
	}
	other(octx);
	take_blocks(&b);
	pthread_join(t, NULL);
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

/* ---- blocks made on two cores, used in order ---- */

struct ordered {
	const struct ordered_ops *ops;
	void *ctx;
	size_t n;
	int slots;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	/* blocks readied, taken to be made, and used: each counts up */
	size_t ready, taken, used;
	unsigned char *done;	/* per slot: its block is made */
};

/* The helper: it makes the next block readied, until every one is. */
static void *ordered_helper(void *arg)
{
	struct ordered *o = arg;

	pthread_mutex_lock(&o->lock);
	while (o->taken < o->n) {
		size_t b;

		if (o->taken == o->ready) {
			pthread_cond_wait(&o->cond, &o->lock);
			continue;
		}
		b = o->taken++;
		pthread_mutex_unlock(&o->lock);
		o->ops->run(o->ctx, b, (int)(b % (size_t)o->slots));
		pthread_mutex_lock(&o->lock);
		o->done[b % (size_t)o->slots] = 1;
		pthread_cond_broadcast(&o->cond);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

void parallel_ordered(size_t n, int slots, const struct ordered_ops *ops,
		      void *ctx)
{
	struct ordered o = { .ops = ops, .ctx = ctx, .n = n, .slots = slots };
	pthread_t t;
	size_t b;
	int helper = 0;

	if (slots < 1)
		BUG("parallel_ordered() wants a slot or more");
	if (slots > 1 && n > 1 && parallel_enabled()) {
		pthread_mutex_init(&o.lock, NULL);
		pthread_cond_init(&o.cond, NULL);
		o.done = xcalloc((size_t)slots, 1);
		helper = !pthread_create(&t, NULL, ordered_helper, &o);
		if (!helper) {
			free(o.done);
			pthread_mutex_destroy(&o.lock);
			pthread_cond_destroy(&o.cond);
		}
	}
	if (!helper) {
		for (b = 0; b < n; b++) {
			ops->ready(ctx, b, 0);
			ops->run(ctx, b, 0);
			ops->use(ctx, b, 0);
		}
		return;
	}
	pthread_mutex_lock(&o.lock);
	while (o.used < n) {
		int s;

		/* every slot free readied, in order, for either thread */
		if (o.ready < n && o.ready - o.used < (size_t)slots) {
			b = o.ready;
			pthread_mutex_unlock(&o.lock);
			ops->ready(ctx, b, (int)(b % (size_t)slots));
			pthread_mutex_lock(&o.lock);
			o.ready++;
			pthread_cond_broadcast(&o.cond);
			continue;
		}
		/* the next block used as soon as it is made */
		s = (int)(o.used % (size_t)slots);
		if (o.done[s]) {
			b = o.used;
			pthread_mutex_unlock(&o.lock);
			ops->use(ctx, b, s);
			pthread_mutex_lock(&o.lock);
			o.done[s] = 0;
			o.used++;
			continue;
		}
		/* else one to make here, or wait for the helper's */
		if (o.taken < o.ready) {
			b = o.taken++;
			pthread_mutex_unlock(&o.lock);
			ops->run(ctx, b, (int)(b % (size_t)slots));
			pthread_mutex_lock(&o.lock);
			o.done[b % (size_t)slots] = 1;
			continue;
		}
		pthread_cond_wait(&o.cond, &o.lock);
	}
	pthread_mutex_unlock(&o.lock);
	pthread_join(t, NULL);
	free(o.done);
	pthread_mutex_destroy(&o.lock);
	pthread_cond_destroy(&o.cond);
}

/* ---- a helper thread with a queue of two jobs ---- */

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	void (*fn)(void *ctx, void *job);
	void *ctx;
	void *job[2];
	int head, count;	/* the queue; count includes the one running */
	int quit;
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		void *job;

		while (!w->count && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		if (!w->count)
			break;
		job = w->job[w->head];
		pthread_mutex_unlock(&w->lock);
		w->fn(w->ctx, job);
		pthread_mutex_lock(&w->lock);
		w->head ^= 1;
		w->count--;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

struct worker *worker_start(void (*fn)(void *ctx, void *job), void *ctx)
{
	struct worker *w;

	if (!parallel_enabled())
		return NULL;
	w = xcalloc(1, sizeof(*w));
	w->fn = fn;
	w->ctx = ctx;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	if (pthread_create(&w->thread, NULL, worker_run, w)) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return NULL;
	}
	return w;
}

void worker_wait(struct worker *w, int n)
{
	pthread_mutex_lock(&w->lock);
	while (w->count > n)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
}

/* job into the queue, which has room; w->lock held */
static void enqueue(struct worker *w, void *job)
{
	w->job[(w->head + w->count) & 1] = job;
	w->count++;
	pthread_cond_broadcast(&w->cond);
}

void worker_queue(struct worker *w, void *job)
{
	pthread_mutex_lock(&w->lock);
	while (w->count == 2)
		pthread_cond_wait(&w->cond, &w->lock);
	enqueue(w, job);
	pthread_mutex_unlock(&w->lock);
}

int worker_try_queue(struct worker *w, void *job)
{
	int ret = -1;

	pthread_mutex_lock(&w->lock);
	if (w->count < 2) {
		enqueue(w, job);
		ret = 0;
	}
	pthread_mutex_unlock(&w->lock);
	return ret;
}

void worker_stop(struct worker *w)
{
	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->quit = 1;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
