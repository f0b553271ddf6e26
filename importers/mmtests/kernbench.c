/*
 * kernbench (research/mmtests.md §3.2): logs/time-T-N, GNU time's default
 * output for the build with T jobs, repetition N.  The thread counts are
 * those with a time-T-1 file; the line with "Uuser Ssystem [h:]m:selapsed"
 * gives Elapsed-T, System-T and User-T in seconds.  Operations in the
 * order of MMTests' sorted parse-results: Elapsed, System, User, each by
 * T ascending.  Multiops, lower is better.
 *
 * This is the layout and the names of the MMTests of 2026
 * (shellpack_src/parsers/time-parse-results); the MMTests of 2020 wrote
 * kernbench-T-N.time and called the operations user-T, syst-T, elsp-T:
 * such files are not read here, only named in a warning.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

static const char *const metrics[] = { "Elapsed", "System", "User" };

/* "<seconds>" followed by word; the cursor is left after word. */
static int seconds_then(const char **p, const char *word, double *out)
{
	const char *s = *p;

	str_skip_blanks(&s);
	if (str_double(&s, out) || *out < 0 || str_expect_lit(&s, word))
		return -1;
	*p = s;
	return 0;
}

/* "[[h:]m:]s" then "elapsed", as GNU time's %E prints it */
static int elapsed(const char **p, double *out)
{
	const char *s = *p;
	double part[3], v = 0;
	int n = 0, i;

	str_skip_blanks(&s);
	for (;;) {
		if (n == 3 || str_double(&s, &part[n]) || part[n] < 0)
			return -1;
		n++;
		if (*s != ':')
			break;
		s++;
	}
	if (str_expect_lit(&s, "elapsed"))
		return -1;
	for (i = 0; i < n; i++)
		v = v * 60 + part[i];
	*out = v;
	*p = s;
	return 0;
}

static long gnu_time(struct mmx *x, const struct mmx_line *l, void *data)
{
	const struct mmx_numbered *t = data;
	const char *p = l->s;
	double v[3];	/* in the order of metrics[] */
	char op[32];
	size_t i;

	if (!strstr(p, "elapsed"))
		return 0;
	if (seconds_then(&p, "user", &v[2]) ||
	    seconds_then(&p, "system", &v[1]) || elapsed(&p, &v[0]))
		return error("%s:%ld: expected GNU time's '<user>user "
			     "<system>system <[h:]m:s>elapsed ...', got "
			     "'%.80s'", l->f->path, l->no, l->s);
	if (l->first)
		return error("%s:%ld: a second GNU time line (the first at "
			     "line %ld)", l->f->path, l->no, l->first);
	for (i = 0; i < ARRAY_SIZE(metrics); i++) {
		snprintf(op, sizeof(op), "%s-%ld", metrics[i], t->n);
		if (mmx_add(x, op, l->rep, NAN, v[i], l->no))
			return -1;
	}
	return (long)ARRAY_SIZE(metrics);
}

/* MMTests takes the thread counts from the time-*-1 files */
static const struct mmx_names logs = {
	.glob = "time-*",
	.prefix = "time-",
	.suffix = "",
	.flags = MMX_NUM_REP,
	.needs_first = "threads",
};

static const struct mmx_reader time_file = {
	.line = gnu_time,
	.none = "no GNU time line ('... elapsed ...')",
};

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	struct mmx_numbered *t;
	size_t nr = mmx_numbered(x, &logs, &t), m;
	int ret = 0;

	if (!nr && mmx_glob(x, "kernbench-*-*.time", &f))
		mmx_warn(x, 0, "%s: kernbench-T-N.time, the layout of "
			 "MMTests before 2026, is not read", f[0]->name);
	for (m = 0; m < ARRAY_SIZE(metrics) && !ret; m++)
		ret = mmx_op_per_n(x, metrics[m], t, nr);
	if (!ret)
		ret = mmx_read_numbered(x, t, nr, &time_file);
	free(t);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "s",
	.extract = extract,
};

const struct importer importer_mmtests_kernbench = {
	.name = "kernbench",
	.family = "mmtests",
	.what = "kernbench: Elapsed/System/User seconds per job count",
	.flags = IMP_PART,
	.part = &extractor,
};
