#ifndef PARALLEL_H
#define PARALLEL_H
/*
 * Work on n independent items split over the machine's two cores: the
 * items [n/2, n) in a second thread, [0, n/2) in the caller's, then a
 * join.  Each item's result must depend on that item alone (the output
 * is then the same byte for byte as one thread's).  Below
 * PARALLEL_MIN items, or with PERFSIFT_THREADS=1 in the environment, or
 * when a thread cannot be made, everything runs in the caller's thread.
 */
#include <stddef.h>

#define PARALLEL_MIN 4096

/*
 * What each thread writes as it goes (a buffer's length, a writer's
 * state) lies in cache lines of its own: two threads writing the same
 * line pass it between their cores at each write, and formatting a
 * table on two cores took as long as on one.  128 bytes: the cores
 * fetch lines in pairs.  Put _Alignas(PARALLEL_ALIGN) on the first
 * member of such a struct (its size is then a multiple too).
 */
#define PARALLEL_ALIGN 128

void parallel_halves(size_t n, void (*fn)(void *ctx, size_t lo, size_t hi),
		     void *ctx);

/*
 * fn over the n items in blocks of block, on a second thread, while the
 * caller runs other(octx); then the caller takes the blocks still left
 * too, and waits for the last.  For work independent of what other()
 * does (which must not touch the fields fn writes), in the time the
 * caller would have spent alone.  The blocks are taken from the last
 * one down: other() usually goes through the same items from the first
 * (compare's families through its rows), and the two would otherwise
 * write the same cache lines at once.  Below PARALLEL_MIN items, with
 * PERFSIFT_THREADS=1 or without a thread: other() first, then fn over
 * everything.
 */
void parallel_beside(size_t n, size_t block,
		     void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx,
		     void (*other)(void *octx), void *octx);

/*
 * fn(a) in the caller's thread and fn(b) in a second one, then a join;
 * one after the other with PERFSIFT_THREADS=1 or when no thread can be
 * made.  a and b must share nothing that either writes.
 */
void parallel_pair(void (*fn)(void *), void *a, void *b);

/*
 * n blocks made on two cores and used in order (a table formatted a
 * block at a time and written as it goes): for each block b in turn,
 * ready(ctx, b, slot) in the caller's thread, in block order (a block
 * may start from the state the blocks before it leave); run(ctx, b,
 * slot) in whichever thread is free; then use(ctx, b, slot) in the
 * caller's thread, in block order, once run() is done.  slot is b %
 * slots: at most slots blocks are between ready() and use(), and a
 * slot's buffers serve each of its blocks in turn.  The caller uses each
 * block as soon as it is made and formats the next ones meanwhile, so
 * that the two cores share the making and the using evenly.  One thread
 * (one slot: nothing can be made ahead; PERFSIFT_THREADS=1, n < 2, no
 * thread to be had): ready, run and use each block in turn, all in slot
 * 0.
 */
struct ordered_ops {
	void (*ready)(void *ctx, size_t b, int slot);
	void (*run)(void *ctx, size_t b, int slot);
	void (*use)(void *ctx, size_t b, int slot);
};

void parallel_ordered(size_t n, int slots, const struct ordered_ops *ops,
		      void *ctx);

/* 0 when PERFSIFT_THREADS=1 says one thread, else 1 */
int parallel_enabled(void);

/*
 * A helper thread that runs fn(ctx, job) on the jobs handed to it, one
 * at a time and in the order given, while the caller goes on: the hash
 * of an input's reads (core/input.c), the series points of an import
 * (store/series.c).  At most two jobs are outstanding (the one running
 * and one waiting); worker_queue() waits for room.  What a job reads
 * must not be written by the caller until worker_wait() says it is
 * done.  worker_start() returns NULL when one thread must do
 * (PERFSIFT_THREADS=1, or no thread can be made): the caller then runs
 * fn itself.
 */
struct worker;
struct worker *worker_start(void (*fn)(void *ctx, void *job), void *ctx);
void worker_queue(struct worker *w, void *job);
/*
 * worker_queue() unless two jobs are outstanding: 0 when queued, -1 when
 * the caller is to do the job itself (the work goes to whichever thread
 * is free).
 */
int worker_try_queue(struct worker *w, void *job);
/* Wait until at most n jobs are outstanding (0: every job is done). */
void worker_wait(struct worker *w, int n);
/* Finish the jobs queued, end the thread and free w (NULL is fine). */
void worker_stop(struct worker *w);

#endif
