#ifndef WATCH_H
#define WATCH_H
/*
 * What `perfsift watch` reported last, per series (schema 0010): the
 * runs the series had and its change points then, each by the commit it
 * starts at and its run's index in the series.  watch_store() replaces a
 * series' rows; the caller holds the transaction (db_begin()), so that
 * every series of one watch is stored, or none.
 */
#include <stddef.h>
#include "store/db.h"

/* A series: the metric's name and the variant's testcase, params, machine */
struct watch_key {
	const char *metric, *testcase, *params, *machine;
};

struct watch_point {
	char *sha;		/* owned; the first commit after the change */
	long index;		/* its run's index in the series then */
	double p;		/* NAN if stored as NULL */
};

struct watch_state {
	int known;		/* a watch stored this series before */
	long runs;		/* runs in the series then */
	struct watch_point *pts;	/* owned; in series order */
	size_t nr;
};

/* The state of series k into st (emptied first); 0 or -1 after error(). */
int watch_load(struct db *db, const struct watch_key *k,
	       struct watch_state *st);
/* Replace series k's state with runs and pts[0..nr); 0 or -1. */
int watch_store(struct db *db, const struct watch_key *k, long runs,
		const struct watch_point *pts, size_t nr);
void watch_state_release(struct watch_state *st);

#endif
