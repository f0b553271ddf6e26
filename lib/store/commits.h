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

#endif
