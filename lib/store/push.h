#ifndef PUSH_H
#define PUSH_H
/*
 * perfsift push: copy what one database holds into another (a test box's
 * SQLite file into the team's server), idempotently.  An import is one
 * unit, recognised by its content hash (imports.sha256): an import the
 * target holds is not copied again, and each one copied is one
 * transaction on the target, so that a push cut short leaves whole
 * imports only and the next push copies the rest.
 */
#include "store/db.h"

/* One import copied, for the caller's report. */
struct push_import {
	const char *path;		/* borrowed: the import's path */
	int message;			/* its number in an mbox; 0 not mail */
	long runs, samples, aggregates;
};

struct push_result {
	/*
	 * Set by the caller, may be NULL: called after each import copied
	 * (committed).
	 */
	void (*pushed)(void *data, const struct push_import *imp);
	void *data;			/* borrowed, for pushed() */
	/* filled by db_push() */
	long imports;			/* copied */
	long already;			/* the target held them */
	long pending;			/* unfinished in the source: skipped */
	long runs, samples;		/* copied, all imports */
	long commits;			/* recorded commits copied */
	long directions;		/* direction overrides copied */
	/*
	 * The target had recorded commits and got more: their positions
	 * are the source's, which need not fit the target's order.
	 */
	int commits_merged;
};

/*
 * Copy into `to` every import of `from` (in id order) whose sha256 `to`
 * does not hold, with everything it produced: sources, mail headers,
 * variants (matched by identity), metrics (matched by name; a unit,
 * kind, direction or summary the target lacks is filled in, the first
 * statement wins), metric positions, runs, samples, series, histograms,
 * aggregates; then the target's run_values of it.  Also the recorded
 * commits and the direction overrides the target lacks (those first).
 * Each import is one transaction on `to`.  Returns 0, or -1 after
 * error() (the import being copied rolled back; those before it stay).
 */
int db_push(struct db *from, struct db *to, struct push_result *res);

#endif
