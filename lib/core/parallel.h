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

void parallel_halves(size_t n, void (*fn)(void *ctx, size_t lo, size_t hi),
		     void *ctx);

/*
 * fn(a) in the caller's thread and fn(b) in a second one, then a join;
 * one after the other with PERFSIFT_THREADS=1 or when no thread can be
 * made.  a and b must share nothing that either writes.
 */
void parallel_pair(void (*fn)(void *), void *a, void *b);

/* 0 when PERFSIFT_THREADS=1 says one thread, else 1 */
int parallel_enabled(void);

#endif
