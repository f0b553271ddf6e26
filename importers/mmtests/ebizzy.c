/*
 * ebizzy (research/mmtests.md §3.2): logs/ebizzy-T-N.log, T threads,
 * repetition N.  Only the first line is read, as MMTests' ebizzy patch
 * prints it: "<total> records/s <thread 1> <thread 2> ...".  The total is
 * total_rsec-T, one value per repetition; each thread's figure is one
 * observation of thread_rsec-T in that repetition, at t = the thread's
 * position (1, 2, ...).  Operations in the order of MMTests' sorted
 * parse-results: thread_rsec-T by T ascending, then total_rsec-T.
 * Multiops, higher is better.
 *
 * These are the names of the MMTests of 2026 (shellpack parse-results);
 * the MMTests of 2020 read the same files but kept only the total, as
 * Rsec-T.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

/* A number that ends at a blank or at the end of the line. */
static int number(const char **p, double *v)
{
	const char *s = *p;

	if (str_double(&s, v) || (*s && *s != ' ' && *s != '\t'))
		return -1;
	*p = s;
	return 0;
}

/* The first line: "<total> records/s <thread 1> <thread 2> ..." */
static long records(struct mmx *x, const struct mmx_line *l, void *data)
{
	const struct mmx_numbered *v = data;
	char total[32], thread[32];
	const char *p = l->s;
	double rsec;
	long i = 0;

	snprintf(total, sizeof(total), "total_rsec-%ld", v->n);
	snprintf(thread, sizeof(thread), "thread_rsec-%ld", v->n);
	str_skip_blanks(&p);
	if (number(&p, &rsec) || (str_skip_blanks(&p),
				  str_expect_lit(&p, "records/s")) ||
	    (*p && *p != ' ' && *p != '\t'))
		goto bad;
	if (mmx_add(x, total, l->rep, NAN, rsec, l->no))
		return -1;
	for (str_skip_blanks(&p); *p; str_skip_blanks(&p)) {
		if (number(&p, &rsec))
			goto bad;
		if (mmx_add(x, thread, l->rep, (double)++i, rsec, l->no))
			return -1;
	}
	if (!i)
		mmx_warn(x, l->no, "no per-thread figure after 'records/s'");
	return 1 + i;
bad:
	return error("%s:%ld: expected '<total> records/s <thread> ...', got "
		     "'%.80s'", l->f->path, l->no, l->s);
}

static const struct mmx_names logs = {
	.glob = "ebizzy-*.log",
	.prefix = "ebizzy-",
	.suffix = ".log",
	.flags = MMX_NUM_REP,
};

static const struct mmx_reader log_file = {
	.line = records,
	.none = "empty, no '<total> records/s' line",
	.first_only = 1,
};

static int extract(struct mmx *x)
{
	struct mmx_numbered *l;
	size_t nr = mmx_numbered(x, &logs, &l);
	int ret = 0;

	/* thread_rsec sorts before total_rsec in MMTests' output */
	if (mmx_op_per_n(x, "thread_rsec", l, nr) ||
	    mmx_op_per_n(x, "total_rsec", l, nr) ||
	    mmx_read_numbered(x, l, nr, &log_file))
		ret = -1;
	free(l);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "records/s",
	.extract = extract,
};

const struct importer importer_mmtests_ebizzy = {
	.name = "ebizzy",
	.family = "mmtests",
	.what = "ebizzy: records/s per thread count, total and per thread",
	.flags = IMP_PART,
	.part = &extractor,
};
