/*
 * sembench-futex and its siblings (research/mmtests-2020-extractors.md
 * §4): the workloads W of logs/workloads' first line; the thread counts T
 * of every logs/W-*.log (the last '-' field), numerically, once each; for
 * each W, for each T, the line "run time ... seconds <N> worker burns per
 * second" of W-T.log gives N to op "sembench-W-T".  MMTests dies when a W
 * lacks a T, and so do we.  Multiops; no data type, so higher is better.
 * The values are the iteration's (rep 0; several in one file would be
 * observations, t their index, as MMTests pools them).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"
#include <ctype.h>

/*
 * MMTests' /run time.* seconds ([0-9]+) worker burns per second/: 1 and
 * *v for a match, 0 for a line without "run time", -1 for a "run time"
 * line it does not match.
 */
static int match_burns(const char *s, double *v)
{
	static const char tail[] = " worker burns per second";
	const char *rt = strstr(s, "run time"), *p, *best = NULL;

	if (!rt)
		return 0;
	/* .* is greedy: the last " seconds <digits><tail>" wins */
	for (p = rt + 8; (p = strstr(p, " seconds ")); p++) {
		const char *d = p + 9, *e = d;

		while (isdigit((unsigned char)*e))
			e++;
		if (e > d && starts_with(e, tail))
			best = d;
	}
	if (!best)
		return -1;
	*v = strtod(best, NULL);
	return 1;
}

/* The burns of one file, held until it is read. */
struct burns {
	struct mmx_pool pool;
	const char *op;
};

static long burns_line(struct mmx *x, const struct mmx_line *l, void *data)
{
	struct burns *b = data;
	double v;
	int m = match_burns(l->s, &v);

	(void)x;
	if (m < 0)
		return error("%s:%ld: expected 'run time <s> seconds <N> "
			     "worker burns per second', got '%.80s'",
			     l->f->path, l->no, l->s);
	if (m)
		mmx_pool_take(&b->pool, xstrdup(b->op), v, l->no);
	return m;
}

static const struct mmx_reader log_file = {
	.line = burns_line,
	.none = "no 'run time ... worker burns per second' line (the run did "
		"not finish?)",
};

/* W-T.log, which MMTests dies without */
static int one_file(struct mmx *x, const char *w, const char *t, void *data)
{
	char *name = xstrfmt("%s-%s.log", w, t);
	char *op = xstrfmt("sembench-%s-%s", w, t);
	struct burns b = { MMX_POOL_INIT, op };
	const struct mmx_file *f = mmx_find(x, name);
	int ret;

	(void)data;
	if (!f)
		ret = error("%s: no logs/%s: workload %s lacks thread count %s "
			    "(MMTests dies)", mmx_test(x), name, w, t);
	else if (mmx_read(x, f, 0, &log_file, &b) < 0 ||
		 mmx_pool_add(x, &b.pool))
		ret = -1;
	else
		ret = 0;
	mmx_pool_release(&b.pool);
	free(op);
	free(name);
	return ret;
}

static int extract(struct mmx *x)
{
	return mmx_each_workload(x, "sembench-", "-*.log", ".log", one_file,
				 NULL);
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "burns/s",
	.extract = extract,
};

const struct importer importer_mmtests_sembench = {
	.name = "sembench",
	.family = "mmtests",
	.what = "sembench: worker burns per second per thread count",
	.flags = IMP_PART,
	.part = &extractor,
};
