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
	struct mmx_factor *thr = NULL;
	size_t nr_thr = 0, alloc = 0, nr_wl, w, i;
	char **wl;
	int ret = 0;

	if (mmx_workloads(x, "sembench-", &wl, &nr_wl))
		return -1;
	for (w = 0; w < nr_wl; w++) {
		const struct mmx_file *const *f;
		char *glob = xstrfmt("%s-*.log", wl[w]);
		size_t n = mmx_glob(x, glob, &f);

		free(glob);
		for (i = 0; i < n; i++) {
			const char *name = f[i]->name, *t = strrchr(name, '-');

			ALLOC_GROW(thr, nr_thr + 1, alloc);
			memset(&thr[nr_thr], 0, sizeof(*thr));
			thr[nr_thr].text = xstrndup(t + 1, strlen(t + 1) -
						    strlen(".log"));
			thr[nr_thr].num = mmx_perl_num(thr[nr_thr].text);
			thr[nr_thr].pos = nr_thr;
			nr_thr++;
		}
	}
	nr_thr = mmx_sort_factors(thr, nr_thr, 1);
	for (w = 0; w < nr_wl && !ret; w++)
		for (i = 0; i < nr_thr && !ret; i++) {
			char *name = xstrfmt("%s-%s.log", wl[w], thr[i].text);
			char *op = xstrfmt("sembench-%s-%s", wl[w],
					   thr[i].text);
			const struct mmx_file *f = mmx_find(x, name);

			if (!f)
				ret = error("%s: no logs/%s: workload %s lacks "
					    "thread count %s (MMTests dies)",
					    mmx_test(x), name, wl[w],
					    thr[i].text);
			else
				ret = one_file(x, f, op);
			free(name);
			free(op);
		}
	mmx_factors_free(thr, nr_thr);
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
