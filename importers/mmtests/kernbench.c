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

struct timefile {
	long threads, rep;
	const struct mmx_file *f;
	int keep;		/* MMTests reads it */
};

/* "time-<digits>-<digits>" -> the two numbers; else 0. */
static int parse_name(const struct mmx_file *f, struct timefile *t)
{
	const char *p = f->name + strlen("time-");
	char *end;

	if (!starts_with(f->name, "time-") || *p < '0' || *p > '9')
		return 0;
	t->threads = strtol(p, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9' || end - p > 9)
		return 0;
	p = end + 1;
	t->rep = strtol(p, &end, 10);
	if (*end || end - p > 9)
		return 0;
	t->f = f;
	return 1;
}

static int cmp_timefile(const void *a, const void *b)
{
	const struct timefile *x = a, *y = b;

	if (x->threads != y->threads)
		return x->threads < y->threads ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return strcmp(x->f->name, y->f->name);
}

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

static int one_file(struct mmx *x, const struct timefile *t)
{
	struct input in;
	long first = 0;
	int r;

	if (mmx_open(x, t->f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p = in.sb.buf;
		double v[3];	/* in the order of metrics[] */
		char op[32];
		size_t i;

		if (!strstr(p, "elapsed"))
			continue;
		if (seconds_then(&p, "user", &v[2]) ||
		    seconds_then(&p, "system", &v[1]) || elapsed(&p, &v[0])) {
			error("%s:%ld: expected GNU time's '<user>user "
			      "<system>system <[h:]m:s>elapsed ...', "
			      "got '%.80s'", t->f->path, in.line,
			      in.sb.buf);
			mmx_close(x, t->f, &in);
			return -1;
		}
		if (first) {
			error("%s:%ld: a second GNU time line (the first"
			      " at line %ld)", t->f->path, in.line,
			      first);
			mmx_close(x, t->f, &in);
			return -1;
		}
		first = in.line;
		for (i = 0; i < ARRAY_SIZE(metrics); i++) {
			snprintf(op, sizeof(op), "%s-%ld", metrics[i],
				 t->threads);
			if (mmx_add(x, op, t->rep, NAN, v[i], in.line)) {
				mmx_close(x, t->f, &in);
				return -1;
			}
		}
	}
	if (mmx_close(x, t->f, &in) || r < 0)
		return -1;
	if (!first)
		mmx_warn(x, 0, "%s: no GNU time line ('... elapsed ...')",
			 t->f->name);
	return 0;
}

static int has_first(const struct timefile *t, size_t nr, long threads)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (t[i].threads == threads && t[i].rep == 1)
			return 1;
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "time-*", &f), i, m, nr = 0;
	struct timefile *t = xcalloc(n ? n : 1, sizeof(*t));
	int ret = 0;

	for (i = 0; i < n; i++)
		if (parse_name(f[i], &t[nr]))
			nr++;
	QSORT(t, nr, cmp_timefile);
	/* MMTests takes the thread counts from the time-*-1 files */
	for (i = 0; i < nr; i++)
		t[i].keep = has_first(t, nr, t[i].threads);
	for (i = m = 0; i < nr; i++)
		if (t[i].keep)
			t[m++] = t[i];
		else
			mmx_warn(x, 0, "%s: no time-%ld-1, so MMTests leaves "
				 "out %ld threads", t[i].f->name, t[i].threads,
				 t[i].threads);
	nr = m;
	if (!nr && mmx_glob(x, "kernbench-*-*.time", &f))
		mmx_warn(x, 0, "%s: kernbench-T-N.time, the layout of "
			 "MMTests before 2026, is not read", f[0]->name);
	for (m = 0; m < ARRAY_SIZE(metrics) && !ret; m++)
		for (i = 0; i < nr && !ret; i++) {
			char op[32];

			if (i && t[i].threads == t[i - 1].threads)
				continue;
			snprintf(op, sizeof(op), "%s-%ld", metrics[m],
				 t[i].threads);
			ret = mmx_op(x, op, 0);
		}
	for (i = 0; i < nr && !ret; i++)
		ret = one_file(x, &t[i]);
	free(t);
	return ret;
}

const struct mmtests_extractor mmx_kernbench = {
	.name = "kernbench",
	.what = "kernbench: Elapsed/System/User seconds per job count",
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "s",
	.extract = extract,
};
