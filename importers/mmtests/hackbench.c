/*
 * hackbench (MMTests 2020, rev 345f82be: bin/lib/MMTests/ExtractHackbench.pm,
 * shared by hackbench-{process,thread}-{pipes,sockets}; the research
 * notes do not cover it): logs/hackbench-G-N is the output of
 * `perf bench sched messaging` with G groups, repetition N.  The group
 * counts are those with a hackbench-G-1 file, in numeric order, each one
 * operation named "G" (bare, as MMTests names it); its files are read in
 * MMTests' lexical glob order, and the "Total time: <seconds>" line of
 * each is the repetition's value.  Multiops, lower is better (seconds).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

struct logfile {
	long groups, rep;
	const struct mmx_file *f;
	size_t pos;		/* in the lexical glob */
	int keep;		/* MMTests reads it */
};

/* "hackbench-<digits>-<digits>" -> the two numbers; else 0. */
static int parse_name(const struct mmx_file *f, struct logfile *l)
{
	const char *p = f->name + strlen("hackbench-");
	char *end;

	if (!starts_with(f->name, "hackbench-") || *p < '0' || *p > '9')
		return 0;
	l->groups = strtol(p, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9' || end - p > 9)
		return 0;
	p = end + 1;
	l->rep = strtol(p, &end, 10);
	if (*end || end - p > 9)
		return 0;
	l->f = f;
	return 1;
}

/* By groups, then in the lexical order MMTests reads them. */
static int cmp_logfile(const void *a, const void *b)
{
	const struct logfile *x = a, *y = b;

	if (x->groups != y->groups)
		return x->groups < y->groups ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int one_file(struct mmx *x, const struct logfile *l)
{
	struct input in;
	char op[16];
	long first = 0;
	int r;

	snprintf(op, sizeof(op), "%ld", l->groups);
	if (mmx_open(x, l->f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p = strstr(in.sb.buf, "Total time:");
		double v;

		if (!p)
			continue;
		p += strlen("Total time:");
		str_skip_blanks(&p);
		if (str_double(&p, &v) || (*p && *p != ' ' && *p != '\t')) {
			error("%s:%ld: expected 'Total time: <seconds> "
			      "[sec]', got '%.80s'", l->f->path,
			      in.line, in.sb.buf);
			mmx_close(x, l->f, &in);
			return -1;
		}
		if (first) {
			error("%s:%ld: a second 'Total time' line (the "
			      "first at line %ld)", l->f->path, in.line,
			      first);
			mmx_close(x, l->f, &in);
			return -1;
		}
		first = in.line;
		if (mmx_add(x, op, l->rep, NAN, v, in.line)) {
			mmx_close(x, l->f, &in);
			return -1;
		}
	}
	if (mmx_close(x, l->f, &in) || r < 0)
		return -1;
	if (!first)
		mmx_warn(x, 0, "%s: no 'Total time: <seconds>' line",
			 l->f->name);
	return 0;
}

static int has_first(const struct logfile *l, size_t nr, long groups)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (l[i].groups == groups && l[i].rep == 1)
			return 1;
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "hackbench-*-*", &f), i, m, nr = 0;
	struct logfile *l = xcalloc(n ? n : 1, sizeof(*l));
	int ret = 0;

	for (i = 0; i < n; i++)
		if (parse_name(f[i], &l[nr])) {
			l[nr].pos = i;
			nr++;
		} else {
			mmx_warn(x, 0, "%s: not hackbench-<groups>-<N>: not "
				 "read", f[i]->name);
		}
	QSORT(l, nr, cmp_logfile);
	/* MMTests takes the group counts from the hackbench-*-1 files */
	for (i = 0; i < nr; i++)
		l[i].keep = has_first(l, nr, l[i].groups);
	for (i = m = 0; i < nr; i++)
		if (l[i].keep)
			l[m++] = l[i];
		else
			mmx_warn(x, 0, "%s: no hackbench-%ld-1, so MMTests "
				 "leaves out %ld groups", l[i].f->name,
				 l[i].groups, l[i].groups);
	nr = m;
	for (i = 0; i < nr && !ret; i++)
		ret = one_file(x, &l[i]);
	free(l);
	return ret;
}

const struct mmtests_extractor mmx_hackbench = {
	.name = "hackbench",
	.what = "hackbench: perf bench sched messaging seconds per group count",
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "s",
	.extract = extract,
};
