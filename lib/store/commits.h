#ifndef COMMITS_H
#define COMMITS_H
/*
 * The recorded commit order (schema table commits): read from a git
 * repository by running `git log --topo-order --reverse`, and the
 * variants whose commit is a short sha linked to the full one.
 */
#include <stddef.h>
#include "store/db.h"

struct commits_result {
	long listed;		/* commits git listed for the range */
	long added;		/* of them not recorded before */
	long total;		/* commits recorded now */
	int renumbered;		/* recorded commits moved: new ones went
				 * between them */
	long linked;		/* variants given their full sha */
	long merged;		/* of them merged into an existing variant */
	long ambiguous;		/* short shas of several recorded commits */
};

/*
 * Record the commits of revs (nrevs revision arguments for git log;
 * none: HEAD) of the repository at repo, in topological order, oldest
 * first, and link the variants.  Commits recorded before keep their
 * order; new ones are placed where git's order puts them (after the
 * recorded commit they follow in git's listing, else before the one they
 * precede, else at the end), and parent links always win, so the order
 * is renumbered only when new commits go between recorded ones.  One
 * transaction.  Returns 0; -1 after error() when git or the database
 * failed (git missing: an environment error); -2 after error() when repo
 * is not a git repository or git refused the range (git's messages are
 * shown).
 */
int commits_import(struct db *db, const char *repo, const char *const *revs,
		   size_t nrevs, struct commits_result *res);

/*
 * Link the variants whose commit is a prefix (4 to 39 hex digits) of
 * exactly one recorded commit to its full sha.  A variant that would then
 * equal an existing one (same label, kernel, machine, testcase, params)
 * is merged into it: its runs and aggregates move there.  Counts go to
 * res (linked, merged, ambiguous).  Inside the caller's transaction.
 * 0 or -1 after error().
 */
int commits_link_variants(struct db *db, struct commits_result *res);

/* A recorded commit. */
struct commit_row {
	char *sha, *subject;	/* owned; subject '' when unknown */
	long position;		/* in the recorded order, 0 oldest */
};

/*
 * Resolve text to one recorded commit: a prefix (4 to 40 hex digits) of
 * exactly one recorded sha, else a label or kernel version whose
 * variants all carry one recorded commit.  Returns 0; -1 after error()
 * when text names no recorded commit or several (they are listed): a
 * usage error; -2 on a database error.
 */
int commits_resolve(struct db *db, const char *text, struct commit_row *out);
/* The same without a message: 0 found, 1 none or several, -1 error(). */
int commits_lookup(struct db *db, const char *text, struct commit_row *out);

/*
 * The recorded commits at positions from..to (inclusive), in order.
 * *rows is new (commit_rows_free).  0 or -1 after error().
 */
int commits_range(struct db *db, long from, long to, struct commit_row **rows,
		  size_t *nr);
void commit_row_release(struct commit_row *r);
void commit_rows_free(struct commit_row *rows, size_t nr);

#endif
