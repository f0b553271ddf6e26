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

struct logfile {
	long threads, rep;
	const struct mmx_file *f;
};

/* "ebizzy-<digits>-<digits>.log" -> the two numbers; else 0. */
static int parse_name(const struct mmx_file *f, struct logfile *l)
{
	const char *p = f->name + strlen("ebizzy-");
	char *end;

	if (!starts_with(f->name, "ebizzy-") || *p < '0' || *p > '9')
		return 0;
	l->threads = strtol(p, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9' || end - p > 9)
		return 0;
	p = end + 1;
	l->rep = strtol(p, &end, 10);
	if (strcmp(end, ".log") || end - p > 9)
		return 0;
	l->f = f;
	return 1;
}

static int cmp_logfile(const void *a, const void *b)
{
	const struct logfile *x = a, *y = b;

	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return strcmp(x->f->name, y->f->name);
}

/* A number that ends at a blank or at the end of the line. */
static int number(const char **p, double *v)
{
	const char *s = *p;

	if (str_double(&s, v) || (*s && *s != ' ' && *s != '\t'))
		return -1;
	*p = s;
	return 0;
}

static int one_file(struct mmx *x, const struct logfile *l)
{
	struct input in;
	char total[32], thread[32];
	const char *p;
	double v;
	long i = 0;
	int r;

	snprintf(total, sizeof(total), "total_rsec-%ld", l->threads);
	snprintf(thread, sizeof(thread), "thread_rsec-%ld", l->threads);
	if (mmx_open(x, l->f, &in))
		return -1;
	r = input_getline(&in);
	if (r <= 0) {
		if (mmx_close(x, l->f, &in) || r < 0)
			return -1;
		mmx_warn(x, 0, "%s: empty, no '<total> records/s' line",
			 l->f->name);
		return 0;
	}
	p = in.sb.buf;
	str_skip_blanks(&p);
	if (number(&p, &v) || (str_skip_blanks(&p),
			       str_expect_lit(&p, "records/s")) ||
	    (*p && *p != ' ' && *p != '\t'))
		goto bad;
	if (mmx_add(x, total, l->rep, NAN, v, in.line))
		goto fail;
	for (str_skip_blanks(&p); *p; str_skip_blanks(&p)) {
		if (number(&p, &v))
			goto bad;
		if (mmx_add(x, thread, l->rep, (double)++i, v, in.line))
			goto fail;
	}
	if (!i)
		mmx_warn(x, in.line, "no per-thread figure after 'records/s'");
	return mmx_close(x, l->f, &in);
bad:
	error("%s:%ld: expected '<total> records/s <thread> ...', got "
	      "'%.80s'", l->f->path, in.line, in.sb.buf);
fail:
	mmx_close(x, l->f, &in);
	return -1;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "ebizzy-*.log", &f), i, nr = 0;
	struct logfile *l = xcalloc(n ? n : 1, sizeof(*l));
	int ret = 0;

	for (i = 0; i < n; i++)
		if (parse_name(f[i], &l[nr]))
			nr++;
	QSORT(l, nr, cmp_logfile);
	/* thread_rsec sorts before total_rsec in MMTests' output */
	for (i = 0; i < nr && !ret; i++) {
		char op[32];

		if (i && l[i].threads == l[i - 1].threads)
			continue;
		snprintf(op, sizeof(op), "thread_rsec-%ld", l[i].threads);
		ret = mmx_op(x, op, 0);
	}
	for (i = 0; i < nr && !ret; i++) {
		char op[32];

		if (i && l[i].threads == l[i - 1].threads)
			continue;
		snprintf(op, sizeof(op), "total_rsec-%ld", l[i].threads);
		ret = mmx_op(x, op, 0);
	}
	for (i = 0; i < nr && !ret; i++)
		ret = one_file(x, &l[i]);
	free(l);
	return ret;
}

const struct mmtests_extractor mmx_ebizzy = {
	.name = "ebizzy",
	.what = "ebizzy: records/s per thread count, total and per thread",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "records/s",
	.extract = extract,
};
