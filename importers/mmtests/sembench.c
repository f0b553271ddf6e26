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

struct thr {
	char *t;		/* owned: T as the file name spells it */
	double num;		/* T as Perl's <=> reads it */
	size_t pos;		/* in the order found: ties keep it */
};

/* A string as Perl's <=> reads it: its leading decimal number, else 0. */
static double perl_num(const char *s)
{
	char buf[64];
	size_t n = strspn(s, "0123456789.eE+-");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static int cmp_thr(const void *a, const void *b)
{
	const struct thr *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * The workloads: the words of logs/workloads' first line, split on single
 * spaces as MMTests splits it (empty words left out).  Without the file
 * (MMTests dies), the test's name says it: "sembench-futex" -> futex.
 */
static int read_workloads(struct mmx *x, char ***out, size_t *nr)
{
	const struct mmx_file *f = mmx_find(x, "workloads");
	const char *test = mmx_test(x), *s, *sp;
	size_t alloc = 0;
	struct input in;
	int r;

	*out = NULL;
	*nr = 0;
	if (!f) {
		if (!starts_with(test, "sembench-") || !test[9])
			return error("%s: no logs/workloads, and the test's "
				     "name does not say the workload", test);
		mmx_warn(x, 0, "no logs/workloads: the workload is '%s', from "
			 "the test's name", test + 9);
		ALLOC_GROW(*out, 1, alloc);
		(*out)[(*nr)++] = xstrdup(test + 9);
		return 0;
	}
	if (mmx_open(x, f, &in))
		return -1;
	r = input_getline(&in);
	for (s = r > 0 ? in.sb.buf : ""; *s; s = *sp ? sp + 1 : sp) {
		sp = strchrnul(s, ' ');
		if (sp == s)
			continue;
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = xstrndup(s, (size_t)(sp - s));
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!*nr)
		mmx_warn(x, 1, "no workload named: nothing to read");
	return 0;
}

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

static int one_file(struct mmx *x, const struct mmx_file *f, const char *op)
{
	double *v = NULL;
	long *line = NULL;
	size_t nr = 0, alloc = 0, alloc_line = 0, i;
	struct input in;
	int r, ret = -1;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		double burns;
		int m = match_burns(in.sb.buf, &burns);

		if (m < 0) {
			error("%s:%ld: expected 'run time <s> seconds <N> "
			      "worker burns per second', got '%.80s'",
			      f->path, in.line, in.sb.buf);
			goto out;
		}
		if (!m)
			continue;
		ALLOC_GROW(v, nr + 1, alloc);
		ALLOC_GROW(line, nr + 1, alloc_line);
		v[nr] = burns;
		line[nr++] = in.line;
	}
	if (r < 0)
		goto out;
	if (!nr)
		mmx_warn(x, 0, "%s: no 'run time ... worker burns per second' "
			 "line (the run did not finish?)", f->name);
	for (i = 0; i < nr; i++)
		if (mmx_add(x, op, 0, nr > 1 ? (double)i : NAN, v[i], line[i]))
			goto out;
	ret = 0;
out:
	if (mmx_close(x, f, &in))
		ret = -1;
	free(v);
	free(line);
	return ret;
}

static int extract(struct mmx *x)
{
	struct thr *thr = NULL;
	size_t nr_thr = 0, alloc = 0, nr_wl, w, i, k;
	char **wl;
	int ret = 0;

	if (read_workloads(x, &wl, &nr_wl))
		return -1;
	for (w = 0; w < nr_wl; w++) {
		const struct mmx_file *const *f;
		char *glob = xstrfmt("%s-*.log", wl[w]);
		size_t n = mmx_glob(x, glob, &f);

		free(glob);
		for (i = 0; i < n; i++) {
			const char *name = f[i]->name, *t = strrchr(name, '-');

			ALLOC_GROW(thr, nr_thr + 1, alloc);
			thr[nr_thr].t = xstrndup(t + 1, strlen(t + 1) -
						 strlen(".log"));
			thr[nr_thr].num = perl_num(thr[nr_thr].t);
			thr[nr_thr].pos = nr_thr;
			nr_thr++;
		}
	}
	QSORT(thr, nr_thr, cmp_thr);
	/* MMTests' uniq(): the first of equal strings stays */
	for (i = k = 0; i < nr_thr; i++) {
		size_t j;

		for (j = 0; j < k && strcmp(thr[j].t, thr[i].t); j++)
			;
		if (j < k)
			free(thr[i].t);
		else
			thr[k++] = thr[i];
	}
	nr_thr = k;
	for (w = 0; w < nr_wl && !ret; w++)
		for (i = 0; i < nr_thr && !ret; i++) {
			char *name = xstrfmt("%s-%s.log", wl[w], thr[i].t);
			char *op = xstrfmt("sembench-%s-%s", wl[w], thr[i].t);
			const struct mmx_file *f = mmx_find(x, name);

			if (!f)
				ret = error("%s: no logs/%s: workload %s lacks "
					    "thread count %s (MMTests dies)",
					    mmx_test(x), name, wl[w],
					    thr[i].t);
			else
				ret = one_file(x, f, op);
			free(name);
			free(op);
		}
	for (i = 0; i < nr_thr; i++)
		free(thr[i].t);
	free(thr);
	for (w = 0; w < nr_wl; w++)
		free(wl[w]);
	free(wl);
	return ret;
}

const struct mmtests_extractor mmx_sembench = {
	.name = "sembench",
	.what = "sembench: worker burns per second per thread count",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "burns/s",
	.extract = extract,
};
