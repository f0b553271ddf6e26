/*
 * Recording the commit order from git (see commits.h): one `git log`
 * run, its records merged with the order already recorded, written in
 * one transaction with the linking of short shas.
 */
#include "core/compat.h"
#include "core/run.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "store/commits.h"
#include <ctype.h>

/* what git log may print at most (the kernel's history is ~150 MiB) */
#define LOG_CAP ((size_t)1 << 30)
/* what git may say on stderr at most */
#define GIT_MSG_CAP (16 << 10)

struct cm {
	const char *sha;	/* borrowed: into the git output or owned */
	const char *parents;	/* borrowed, space-separated */
	const char *subject;	/* borrowed */
	int64_t date;		/* unix seconds */
	int64_t old_pos;	/* recorded position; -1 new */
	double key;		/* preference among ready commits */
	int64_t tie;
	size_t nchild, first_child;	/* into the child index array */
	size_t nparent_in;	/* parents in the union not yet placed */
};

static int is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* git's messages, one error per non-blank line */
static void report_git(const struct sbuf *msg)
{
	const char *p = msg->buf, *nl;

	for (; *p; p = *nl ? nl + 1 : nl) {
		nl = strchrnul(p, '\n');
		if (nl > p)
			error("git: %.*s", (int)(nl - p), p);
	}
}

/*
 * Run git with args after "git -C repo"; stdout into out.  0; -1 after
 * error() (not started); else git's exit status, its messages in err.
 */
static int run_git(const char *repo, const char *const *args, size_t nargs,
		   struct sbuf *out, struct sbuf *err)
{
	const char **argv = xcalloc(nargs + 4, sizeof(*argv));
	struct run_io io = { NULL, 0, out, LOG_CAP, err, GIT_MSG_CAP, NULL, 0, 0 };
	size_t i;
	int r;

	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = repo;
	for (i = 0; i < nargs; i++)
		argv[3 + i] = args[i];
	r = run_program(argv, &io);
	if (r < 0 && io.missing)
		error("git is needed to read commits: install the Debian "
		      "package git");
	free(argv);
	return r;
}

/* Heap of ready commits, least (key, tie) on top. */
static int before(const struct cm *c, size_t a, size_t b)
{
	if (c[a].key != c[b].key)
		return c[a].key < c[b].key;
	return c[a].tie < c[b].tie;
}

static void heap_push(size_t *h, size_t *n, const struct cm *c, size_t x)
{
	size_t i = (*n)++;

	while (i && before(c, x, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = x;
}

static size_t heap_pop(size_t *h, size_t *n, const struct cm *c)
{
	size_t top = h[0], x = h[--*n], i = 0;

	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < *n && before(c, h[l], x))
			m = l;
		if (l + 1 < *n && before(c, h[l + 1], m == i ? x : h[m]))
			m = l + 1;
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	if (*n)
		h[i] = x;
	return top;
}

/*
 * The children of each commit of c[0..n) within it, in a new array
 * (caller frees): c[i]'s are at first_child, nchild of them; nparent_in
 * counts each commit's parents in c.  Two passes over the parents:
 * count the children, then fill.
 */
static size_t *index_children(struct cm *c, size_t n,
			      const struct strmap *idx)
{
	size_t *child = NULL, nchild = 0, i, pass;

	for (pass = 0; pass < 2; pass++) {
		size_t at = 0;

		for (i = 0; i < n; i++) {
			c[i].first_child = at;
			at += c[i].nchild;
			if (pass)
				c[i].nchild = 0;
		}
		if (pass)
			child = xmalloc((nchild + 1) * sizeof(*child));
		for (i = 0; i < n; i++) {
			const char *p = c[i].parents;

			while (*p) {
				size_t len = strcspn(p, " ");
				int64_t j;

				if (len && strmap_get(idx, p, len, &j)) {
					struct cm *pc = &c[j];

					if (pass) {
						child[pc->first_child +
						      pc->nchild] = i;
					} else {
						nchild++;
						c[i].nparent_in++;
					}
					pc->nchild++;
				}
				p += len;
				p += strspn(p, " ");
			}
		}
	}
	return child;
}

/*
 * Topological order of the union c[0..n) (parent links inside it), the
 * least (key, tie) first among the commits whose parents are placed.
 * order gets n indices.  0, or -1 after error() (a cycle: corrupt data).
 */
static int topo_sort(struct cm *c, size_t n, const struct strmap *idx,
		     size_t *order)
{
	size_t *child = index_children(c, n, idx);
	size_t *heap = xmalloc((n + 1) * sizeof(*heap));
	size_t i, nheap = 0, done = 0;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (!c[i].nparent_in)
			heap_push(heap, &nheap, c, i);
	while (nheap) {
		size_t x = heap_pop(heap, &nheap, c), k;

		order[done++] = x;
		for (k = 0; k < c[x].nchild; k++) {
			size_t y = child[c[x].first_child + k];

			if (!--c[y].nparent_in)
				heap_push(heap, &nheap, c, y);
		}
	}
	if (done != n)
		ret = error("the commits' parent links form a cycle");
	free(child);
	free(heap);
	return ret;
}

/* Parse git log -z output into c (appended); 0 or -1 after error(). */
static int parse_log(char *buf, size_t len, struct cm **c, size_t *n,
		     size_t *alloc)
{
	char *p = buf, *end = buf + len;

	while (p < end) {
		char *rec_end = memchr(p, '\0', (size_t)(end - p));
		char *f[4];
		size_t k;
		struct cm *x;

		if (!rec_end)
			rec_end = end;
		*rec_end = '\0';
		while (*p == '\n')	/* git separates records with "\0\n"? */
			p++;
		if (!*p) {
			p = rec_end + 1;
			continue;
		}
		for (k = 0; k < 4; k++) {
			f[k] = p;
			if (k < 3) {
				char *nl = strchr(p, '\n');

				if (!nl)
					return error("git log printed a record "
						     "without 4 fields: '%s'",
						     f[0]);
				*nl = '\0';
				p = nl + 1;
			}
		}
		k = strlen(f[0]);
		if ((k != 40 && k != 64) || !is_hex(f[0], k))
			return error("git log printed '%s' for a sha", f[0]);
		ALLOC_GROW(*c, *n + 1, *alloc);
		x = &(*c)[(*n)++];
		memset(x, 0, sizeof(*x));
		x->sha = f[0];
		x->parents = f[1];
		x->date = strtoll(f[2], NULL, 10);
		x->subject = f[3];
		x->old_pos = -1;
		p = rec_end + 1;
	}
	return 0;
}

static int step_done(struct db *db, struct stmt *st)
{
	int rc = stmt_step(st);

	stmt_reset(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, db->path, 0);
	return 0;
}

/* A variant whose commit is a short sha: its id and that prefix. */
struct lv {
	int64_t id;
	char *prefix;	/* owned: lowercase */
};

/* The statements of linking a short sha to the recorded commit. */
enum link_stmt {
	L_FIND, L_SAME, L_SET, L_MV_RUNS, L_MV_AGGS, L_DEL_PARAMS, L_DEL,
	L_NR
};

static const char *const link_sql[L_NR] = {
	/* hex digits sort below 'g': the prefix's range of the index */
	[L_FIND] = "SELECT sha FROM commits WHERE sha >= ?1 AND"
		" sha < CAST(?1 AS TEXT) || 'g' LIMIT 2",
	[L_SAME] = "SELECT o.id FROM variants v JOIN variants o"
		" ON o.label = v.label AND o.kernel = v.kernel AND"
		" o.machine = v.machine AND o.testcase = v.testcase"
		" AND o.params = v.params AND o.commit_sha = ?2"
		" WHERE v.id = ?1",
	[L_SET] = "UPDATE variants SET commit_sha = ?2 WHERE id = ?1",
	[L_MV_RUNS] = "UPDATE runs SET variant_id = ?2 WHERE"
		" variant_id = ?1",
	[L_MV_AGGS] = "UPDATE aggregates SET variant_id = ?2 WHERE"
		" variant_id = ?1",
	[L_DEL_PARAMS] = "DELETE FROM variant_params WHERE variant_id = ?1",
	[L_DEL] = "DELETE FROM variants WHERE id = ?1",
};

/*
 * The variants whose commit is a short hex sha, appended to *v (the
 * caller frees them, on failure too).  0 or -1 after error().
 */
static int short_sha_variants(struct db *db, struct lv **v, size_t *nv)
{
	struct stmt *sel = db_prepare(db, "SELECT id, lower(commit_sha) FROM"
				       " variants WHERE length(commit_sha)"
				       " BETWEEN 4 AND 39");
	size_t alloc = 0;
	int rc;

	if (!sel)
		return -1;
	while ((rc = stmt_step(sel)) == SQLITE_ROW) {
		const char *s = (const char *)stmt_column_text(sel, 1);

		if (!is_hex(s, strlen(s)))
			continue;
		ALLOC_GROW(*v, *nv + 1, alloc);
		(*v)[*nv].id = stmt_column_int64(sel, 0);
		(*v)[*nv].prefix = xstrdup(s);
		(*nv)++;
	}
	stmt_finalize(sel);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, db->path, 0);
	return 0;
}

/*
 * How many recorded commits prefix abbreviates (find stops at 2), and
 * when it is one, its sha in *full (new; else NULL).  -1 after error().
 */
static int full_sha(struct db *db, struct stmt *find, const char *prefix,
		    char **full)
{
	int rc, nr = 0;

	*full = NULL;
	stmt_bind_text(find, 1, prefix, -1, SQLITE_STATIC);
	while ((rc = stmt_step(find)) == SQLITE_ROW) {
		if (!nr++)
			*full = xstrdup((const char *)
					stmt_column_text(find, 0));
	}
	stmt_reset(find);
	if (rc == SQLITE_DONE && nr == 1)
		return 1;
	free(*full);
	*full = NULL;
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, db->path, 0);
	return nr;
}

/*
 * Variant id found again under its full sha as other: its runs and
 * aggregates move there, and it goes.  0 or -1 after error().
 */
static int merge_variant(struct db *db, struct stmt *const *st, int64_t id,
			 int64_t other)
{
	stmt_bind_int64(st[L_MV_RUNS], 1, id);
	stmt_bind_int64(st[L_MV_RUNS], 2, other);
	stmt_bind_int64(st[L_MV_AGGS], 1, id);
	stmt_bind_int64(st[L_MV_AGGS], 2, other);
	stmt_bind_int64(st[L_DEL_PARAMS], 1, id);
	stmt_bind_int64(st[L_DEL], 1, id);
	if (step_done(db, st[L_MV_RUNS]) || step_done(db, st[L_MV_AGGS]) ||
	    step_done(db, st[L_DEL_PARAMS]) || step_done(db, st[L_DEL]))
		return -1;
	return 0;
}

/*
 * Variant v linked to the one recorded commit its prefix abbreviates
 * (merged into the same variant under the full sha, when there is
 * one); a prefix of several is left alone, with a warning.  0 or -1
 * after error().
 */
static int link_variant(struct db *db, struct stmt *const *st,
			const struct lv *v, struct commits_result *res)
{
	char *full;
	int64_t other = 0;
	int nr = full_sha(db, st[L_FIND], v->prefix, &full), rc, ret = -1;

	if (nr < 0)
		return -1;
	if (nr > 1) {
		warning("commit '%s' is the prefix of several recorded "
			"commits: not linked", v->prefix);
		res->ambiguous++;
	}
	if (nr != 1)
		return 0;
	stmt_bind_int64(st[L_SAME], 1, v->id);
	stmt_bind_text(st[L_SAME], 2, full, -1, SQLITE_TRANSIENT);
	rc = stmt_step(st[L_SAME]);
	if (rc == SQLITE_ROW)
		other = stmt_column_int64(st[L_SAME], 0);
	stmt_reset(st[L_SAME]);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		db_fail(db, rc, db->path, 0);
		goto out;
	}
	if (other) {
		/* the same variant under its full sha: one now */
		if (merge_variant(db, st, v->id, other))
			goto out;
		res->merged++;
	} else {
		stmt_bind_int64(st[L_SET], 1, v->id);
		stmt_bind_text(st[L_SET], 2, full, -1, SQLITE_TRANSIENT);
		if (step_done(db, st[L_SET]))
			goto out;
	}
	res->linked++;
	ret = 0;
out:
	free(full);
	return ret;
}

int commits_link_variants(struct db *db, struct commits_result *res)
{
	struct lv *v = NULL;
	struct stmt *st[L_NR] = { NULL };
	size_t nv = 0, i;
	int ret = -1;

	if (short_sha_variants(db, &v, &nv))
		goto out;
	/* every one prepared (and each failure said) before any is checked */
	for (i = 0; i < L_NR; i++)
		st[i] = db_prepare(db, link_sql[i]);
	for (i = 0; i < L_NR; i++)
		if (!st[i])
			goto out;
	for (i = 0; i < nv; i++)
		if (link_variant(db, st, &v[i], res))
			goto out;
	ret = 0;
out:
	for (i = 0; i < L_NR; i++)
		stmt_finalize(st[i]);
	for (i = 0; i < nv; i++)
		free(v[i].prefix);
	free(v);
	return ret;
}

/* The recorded commits, oldest first, appended to c (strings owned). */
static int load_recorded(struct db *db, struct cm **c, size_t *n,
			 size_t *alloc)
{
	struct stmt *st = db_prepare(db, "SELECT sha, parents, position"
				      " FROM commits ORDER BY position, sha");
	int rc;

	if (!st)
		return -1;
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		struct cm *x;

		ALLOC_GROW(*c, *n + 1, *alloc);
		x = &(*c)[(*n)++];
		memset(x, 0, sizeof(*x));
		x->sha = xstrdup((const char *)stmt_column_text(st, 0));
		x->parents = xstrdup((const char *)stmt_column_text(st, 1));
		x->old_pos = stmt_column_int64(st, 2);
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(db, rc, db->path, 0);
	return 0;
}

/*
 * The new commits of the listing g[0..ng) appended to c, each keyed
 * where it goes among the recorded ones: git_old[i] is the recorded
 * position of g[i], or -1 for a new one (overwritten here).  New
 * commits with no recorded one in the listing are keyed disjoint_key.
 */
static void key_new_commits(struct cm **c, size_t *n, size_t *alloc,
			    const struct cm *g, size_t ng, int64_t *git_old,
			    double disjoint_key)
{
	int64_t next = -1, last = -1;
	size_t i;

	/*
	 * A new commit follows the recorded commit before it in git's
	 * listing, else precedes the one after it, else goes at the end;
	 * among themselves they keep git's order (tie).
	 */
	for (i = ng; i-- > 0;) {
		int64_t o = git_old[i];

		git_old[i] = o >= 0 ? o : -2 - next;	/* -2 - next: new */
		if (o >= 0)
			next = o;
	}
	for (i = 0; i < ng; i++) {
		struct cm *x;

		if (git_old[i] >= 0) {
			last = git_old[i];
			continue;
		}
		next = -2 - git_old[i];
		ALLOC_GROW(*c, *n + 1, *alloc);
		x = &(*c)[(*n)++];
		*x = g[i];
		x->key = last >= 0 ? (double)last :
			 next >= 0 ? (double)next - 0.5 : disjoint_key;
		x->tie = (int64_t)i;
	}
}

/*
 * Merge the listing g[0..ng) into the recorded order c[0..nold), writing
 * the new commits after them in c and the positions to pos (indexed as
 * c).  New commits with no recorded one in the listing are keyed
 * disjoint_key (INFINITY: after them all).  Returns 0 or -1.
 */
static int merge_order(struct cm **c, size_t *n, size_t *alloc, size_t nold,
		       const struct cm *g, size_t ng, double disjoint_key,
		       int64_t *pos_out, struct commits_result *res)
{
	struct strmap idx = STRMAP_INIT;
	int64_t *git_old = xmalloc((ng + 1) * sizeof(*git_old));
	size_t i, *order = NULL;
	int ret = -1;

	for (i = 0; i < nold; i++)
		strmap_put(&idx, (*c)[i].sha, strlen((*c)[i].sha), (int64_t)i);
	/* for each listed commit, the recorded one it is, or -1 */
	for (i = 0; i < ng; i++) {
		int64_t j;

		git_old[i] = strmap_get(&idx, g[i].sha, strlen(g[i].sha), &j) ?
			(*c)[j].old_pos : -1;
	}
	key_new_commits(c, n, alloc, g, ng, git_old, disjoint_key);
	res->added = (long)(*n - nold);
	for (i = 0; i < nold; i++) {
		(*c)[i].key = (double)(*c)[i].old_pos;
		(*c)[i].tie = -1;
	}
	for (i = nold; i < *n; i++)
		strmap_put(&idx, (*c)[i].sha, strlen((*c)[i].sha), (int64_t)i);
	order = xmalloc((*n + 1) * sizeof(*order));
	if (topo_sort(*c, *n, &idx, order))
		goto out;
	for (i = 0; i < *n; i++) {
		pos_out[order[i]] = (int64_t)i;
		if (order[i] < nold && (*c)[order[i]].old_pos != (int64_t)i)
			res->renumbered = 1;
	}
	ret = 0;
out:
	strmap_clear(&idx);
	free(order);
	free(git_old);
	return ret;
}

/* Does no listed commit appear among the recorded ones? */
static int disjoint(const struct cm *c, size_t nold, const struct cm *g,
		    size_t ng)
{
	struct strmap m = STRMAP_INIT;
	int64_t unused;
	size_t i;
	int ret = 1;

	for (i = 0; i < nold; i++)
		strmap_put(&m, c[i].sha, strlen(c[i].sha), 0);
	for (i = 0; i < ng && ret; i++)
		if (strmap_get(&m, g[i].sha, strlen(g[i].sha), &unused))
			ret = 0;
	strmap_clear(&m);
	return ret;
}

/* Is every one a revision range (not empty, no option)?  0, or -2. */
static int check_revs(const char *const *revs, size_t nrevs)
{
	size_t i;

	for (i = 0; i < nrevs; i++)
		if (revs[i][0] == '-' || !revs[i][0]) {
			error("'%s' is not a revision range", revs[i]);
			return -2;
		}
	return 0;
}

/*
 * The `git log` of revs in repo, oldest first, into out (git's messages
 * in err).  0; -1 after error() (git not started); -2 after error() (no
 * repository, or a range git refused: the user's to change).
 */
static int git_log(const char *repo, const char *const *revs, size_t nrevs,
		   struct sbuf *out, struct sbuf *err)
{
	static const char *const probe[] = { "rev-parse", "--git-dir" };
	static const char *const opts[] = {
		"-c", "log.showSignature=false", "log", "--topo-order",
		"--reverse", "-z", "--format=%H%n%P%n%at%n%s",
	};
	const char **args;
	size_t i, nargs = 0;
	int r = run_git(repo, probe, ARRAY_SIZE(probe), out, err);

	if (r < 0)
		return -1;
	if (r) {
		error("'%s' is not a git repository", repo);
		report_git(err);
		return -2;
	}
	sbuf_reset(out);
	sbuf_reset(err);
	/* the options, the ranges and "--" */
	args = xcalloc(ARRAY_SIZE(opts) + nrevs + 1, sizeof(*args));
	for (i = 0; i < ARRAY_SIZE(opts); i++)
		args[nargs++] = opts[i];
	for (i = 0; i < nrevs; i++)
		args[nargs++] = revs[i];
	args[nargs++] = "--";
	r = run_git(repo, args, nargs, out, err);
	free(args);
	if (r < 0)
		return -1;
	if (r) {
		error("git log failed on '%s' (exit status %d); git said:",
		      repo, r);
		report_git(err);
		return -2;
	}
	return 0;
}

/*
 * *key for the new commits with no recorded one among them (see
 * merge_order()).  Nothing in common: git says whether the new range
 * is older (its newest commit an ancestor of the oldest recorded one:
 * -INFINITY); parallel histories go after (INFINITY).  git writes to
 * buffers of its own here: the listing's strings point into the log's.
 * 0, or -1 after error().
 */
static int disjoint_key(const char *repo, const struct cm *c, size_t nold,
			const struct cm *g, size_t ng, double *key)
{
	*key = INFINITY;
	if (nold && ng && disjoint(c, nold, g, ng)) {
		const char *anc[] = { "merge-base", "--is-ancestor",
				      g[ng - 1].sha, c[0].sha };
		struct sbuf out = SBUF_INIT, err = SBUF_INIT;
		int r = run_git(repo, anc, ARRAY_SIZE(anc), &out, &err);

		sbuf_release(&out);
		sbuf_release(&err);
		if (r < 0)
			return -1;
		if (!r)
			*key = -INFINITY;
	}
	return 0;
}

/*
 * The merged order c[0..n) (the recorded commits first, nold of them)
 * into the table: a recorded commit moved where pos says it went, a new
 * one inserted there.  0 or -1 after error().
 */
static int write_order(struct db *db, const struct cm *c, size_t n,
		       size_t nold, const int64_t *pos)
{
	struct stmt *ins = db_prepare(db, "INSERT INTO commits(sha, position,"
				      " parents, subject, date) VALUES (?, ?,"
				      " ?, ?, ?)");
	struct stmt *upd = db_prepare(db, "UPDATE commits SET position = ?2"
				      " WHERE sha = ?1");
	size_t i;
	int ret = -1;

	if (!ins || !upd)
		goto out;
	for (i = 0; i < n; i++) {
		if (i < nold) {
			if (pos[i] == c[i].old_pos)
				continue;
			stmt_bind_text(upd, 1, c[i].sha, -1, SQLITE_STATIC);
			stmt_bind_int64(upd, 2, pos[i]);
			if (step_done(db, upd))
				goto out;
			continue;
		}
		stmt_bind_text(ins, 1, c[i].sha, -1, SQLITE_STATIC);
		stmt_bind_int64(ins, 2, pos[i]);
		stmt_bind_text(ins, 3, c[i].parents, -1, SQLITE_STATIC);
		stmt_bind_text(ins, 4, c[i].subject, -1, SQLITE_STATIC);
		stmt_bind_int64(ins, 5, c[i].date);
		if (step_done(db, ins))
			goto out;
	}
	ret = 0;
out:
	stmt_finalize(ins);
	stmt_finalize(upd);
	return ret;
}

int commits_import(struct db *db, const char *repo, const char *const *revs,
		   size_t nrevs, struct commits_result *res)
{
	static const char *const head[] = { "HEAD" };
	struct sbuf out = SBUF_INIT, err = SBUF_INIT;
	struct cm *g = NULL, *c = NULL;
	size_t ng = 0, alloc_g = 0, n = 0, alloc_c = 0, nold = 0, i;
	int64_t *pos = NULL;
	double key;
	int r, ret, in_tx = 0;

	memset(res, 0, sizeof(*res));
	if (!nrevs) {
		revs = head;
		nrevs = 1;
	}
	ret = check_revs(revs, nrevs);
	if (!ret)
		ret = git_log(repo, revs, nrevs, &out, &err);
	if (ret)
		goto out;
	ret = -1;
	if (parse_log(out.buf, out.len, &g, &ng, &alloc_g))
		goto out;
	res->listed = (long)ng;

	if (db_begin(db))
		goto out;
	in_tx = 1;
	r = load_recorded(db, &c, &n, &alloc_c);
	nold = n;
	if (r)
		goto out;
	pos = xmalloc((n + ng + 1) * sizeof(*pos));
	if (disjoint_key(repo, c, nold, g, ng, &key) ||
	    merge_order(&c, &n, &alloc_c, nold, g, ng, key, pos, res) ||
	    write_order(db, c, n, nold, pos))
		goto out;
	res->total = (long)n;
	if (commits_link_variants(db, res))
		goto out;
	if (db_commit(db))
		goto out;
	in_tx = 0;
	ret = 0;
out:
	if (in_tx)
		db_rollback(db);
	for (i = 0; i < nold; i++) {
		/* the recorded commits' strings are ours (load_recorded) */
		free((char *)c[i].sha);
		free((char *)c[i].parents);
	}
	free(c);
	free(pos);
	free(g);
	sbuf_release(&out);
	sbuf_release(&err);
	return ret;
}

static void commit_row_read(struct stmt *st, struct commit_row *r)
{
	const char *subject = (const char *)stmt_column_text(st, 1);

	r->sha = xstrdup((const char *)stmt_column_text(st, 0));
	r->subject = xstrdup(subject ? subject : "");
	r->position = (long)stmt_column_int64(st, 2);
}

/*
 * Run st (one text bound) and keep up to two rows: how many matched
 * (0, 1, or 2 for "several"), the first in *out; -1 on a database error.
 * Every match's sha is appended to list (for the message).
 */
static int match_commits(struct db *db, struct stmt *st, const char *text,
			 struct commit_row *out, struct sbuf *list)
{
	int rc, nr = 0;

	stmt_bind_text(st, 1, text, -1, SQLITE_TRANSIENT);
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		if (!nr)
			commit_row_read(st, out);
		sbuf_addf(list, "%s%.12s", nr ? ", " : "",
			  (const char *)stmt_column_text(st, 0));
		nr++;
	}
	if (rc != SQLITE_DONE) {
		if (nr)
			commit_row_release(out);
		return db_fail(db, rc, db->path, 0);
	}
	if (nr > 1) {
		commit_row_release(out);
		return 2;
	}
	return nr;
}

static int resolve(struct db *db, const char *text, struct commit_row *out,
		   int quiet)
{
	static const char *const sql[] = {
		/* hex digits sort below 'g': the prefix's range of the index */
		"SELECT sha, subject, position FROM commits WHERE sha >= ?1"
		" AND sha < CAST(?1 AS TEXT) || 'g' ORDER BY position LIMIT 11",
		"SELECT DISTINCT c.sha, c.subject, c.position FROM variants v"
		" JOIN commits c ON c.sha = v.commit_sha WHERE v.label = ?1"
		" OR v.kernel = ?1 ORDER BY c.position LIMIT 11",
	};
	struct sbuf list = SBUF_INIT;
	size_t len = strlen(text), i;
	char *lower = xstrdup(text);
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!len) {
		free(lower);
		return quiet ? -1 : error("an empty commit: a sha prefix, "
					  "label or kernel is needed");
	}
	for (i = 0; i < len; i++)
		lower[i] = (char)tolower((unsigned char)lower[i]);
	for (i = 0; i < ARRAY_SIZE(sql); i++) {
		struct stmt *st;
		int nr;

		if (!i && (len < 4 || len > 40 || !is_hex(lower, len)))
			continue;
		st = db_prepare(db, sql[i]);
		if (!st) {
			ret = -2;
			goto out;
		}
		nr = match_commits(db, st, i ? text : lower, out, &list);
		stmt_finalize(st);
		if (nr < 0) {
			ret = -2;
			goto out;
		}
		if (nr == 1) {
			ret = 0;
			goto out;
		}
		if (nr > 1) {
			if (!quiet)
				error("'%s' names several recorded commits: "
				      "%s%s", text, list.buf, nr > 10 ? ", ..." :
				      "");
			goto out;
		}
	}
	if (!quiet)
		error("'%s' is not a recorded commit, nor a label or kernel of "
		      "runs at one (see 'perfsift commits import' and "
		      "'perfsift runs')", text);
out:
	sbuf_release(&list);
	free(lower);
	return ret;
}

int commits_resolve(struct db *db, const char *text, struct commit_row *out)
{
	return resolve(db, text, out, 0);
}

int commits_lookup(struct db *db, const char *text, struct commit_row *out)
{
	int r = resolve(db, text, out, 1);

	return r == -1 ? 1 : r == -2 ? -1 : 0;
}

int commits_range(struct db *db, long from, long to, struct commit_row **rows,
		  size_t *nr)
{
	struct stmt *st = db_prepare(db, "SELECT sha, subject, position FROM"
				      " commits WHERE position BETWEEN ?1 AND"
				      " ?2 ORDER BY position");
	size_t alloc = 0;
	int rc;

	*rows = NULL;
	*nr = 0;
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, from);
	stmt_bind_int64(st, 2, to);
	while ((rc = stmt_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*rows, *nr + 1, alloc);
		commit_row_read(st, &(*rows)[(*nr)++]);
	}
	stmt_finalize(st);
	if (rc != SQLITE_DONE) {
		commit_rows_free(*rows, *nr);
		*rows = NULL;
		*nr = 0;
		return db_fail(db, rc, db->path, 0);
	}
	return 0;
}

void commit_row_release(struct commit_row *r)
{
	free(r->sha);
	free(r->subject);
	memset(r, 0, sizeof(*r));
}

void commit_rows_free(struct commit_row *rows, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		commit_row_release(&rows[i]);
	free(rows);
}
