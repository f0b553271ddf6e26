/*
 * schbench (research/mmtests-2020-extractors.md §3): the message-thread
 * counts G of logs/schbench-G.log in numeric order; in each file, every
 * line where blanks or a '*' come before "<pct>th: <usec>" gives op
 * "<pct>th-qrtle-G" (pct as printed, a trailing "00" dropped), in file
 * order.  Singleops "Lat", lower is better (usec).  The values are the
 * iteration's (rep 0); a file with several percentile blocks gives each
 * op one observation per block, t the block's index (MMTests pools them).
 */
#include "core/compat.h"
#include "core/strmap.h"
#include "store/direction.h"
#include "extract.h"
#include <ctype.h>

/* One percentile line of a file, kept until the file is read. */
struct pct {
	char *op;		/* owned */
	double usec;
	long line;
	long block;		/* times op came before in the file */
};

static int is_blank_or_star(char c)
{
	return c == ' ' || c == '\t' || c == '*';
}

/*
 * MMTests' /[ \t\*]+([0-9]+\.[0-9]+)th: ([0-9]+)/: *pct gets the
 * percentile's text (pct_len long), *usec the latency.  Returns 1 for a
 * match, 0 for none, -1 when "<pct>th:" is there but no number follows
 * (a value MMTests would skip without a word).
 */
static int match_pct(const char *s, const char **pct, size_t *pct_len,
		     double *usec)
{
	const char *p = s;
	int seen = 0;

	while (*p) {
		const char *d, *q;
		size_t n;

		if (!is_blank_or_star(*p)) {
			p++;
			continue;
		}
		while (is_blank_or_star(*p))
			p++;
		d = p;
		q = d + strspn(d, "0123456789");
		if (q == d || *q != '.')
			continue;
		n = strspn(q + 1, "0123456789");
		if (!n || strncmp(q + 1 + n, "th:", 3))
			continue;
		q += 1 + n;
		if (q[3] != ' ' || !isdigit((unsigned char)q[4])) {
			seen = 1;
			continue;
		}
		*pct = d;
		*pct_len = (size_t)(q - d);
		*usec = strtod(q + 4, NULL);
		return 1;
	}
	return seen ? -1 : 0;
}

static void free_pcts(struct pct *v, size_t nr)
{
	while (nr)
		free(v[--nr].op);
	free(v);
}

static int one_file(struct mmx *x, const struct mmx_file *f, const char *g)
{
	struct strmap seen = STRMAP_INIT;
	struct pct *v = NULL;
	size_t nr = 0, alloc = 0, i;
	long blocks = 1;
	struct input in;
	int r, ret = -1;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf, *pct;
		size_t len;
		double usec;
		int64_t before = 0;
		int m = match_pct(s, &pct, &len, &usec);

		if (m < 0) {
			error("%s:%ld: expected '<percentile>th: <usec>', got "
			      "'%.80s'", f->path, in.line, s);
			goto out;
		}
		if (!m)
			continue;
		/* MMTests' s/00$// on the percentile's text */
		if (len >= 2 && !strncmp(pct + len - 2, "00", 2))
			len -= 2;
		ALLOC_GROW(v, nr + 1, alloc);
		v[nr].op = xstrfmt("%.*sth-qrtle-%s", (int)len, pct, g);
		v[nr].usec = usec;
		v[nr].line = in.line;
		strmap_get(&seen, v[nr].op, strlen(v[nr].op), &before);
		strmap_put(&seen, v[nr].op, strlen(v[nr].op), before + 1);
		v[nr].block = (long)before;
		if (before + 1 > blocks)
			blocks = (long)before + 1;
		nr++;
	}
	if (r < 0)
		goto out;
	if (!nr)
		mmx_warn(x, 0, "%s: no '<percentile>th: <usec>' line (the run "
			 "did not finish?)", f->name);
	for (i = 0; i < nr; i++)
		if (mmx_add(x, v[i].op, 0, blocks > 1 ? (double)v[i].block :
			    NAN, v[i].usec, v[i].line))
			goto out;
	ret = 0;
out:
	if (mmx_close(x, f, &in))
		ret = -1;
	free_pcts(v, nr);
	strmap_clear(&seen);
	return ret;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "schbench-*.log", &f), i;
	struct mmx_factor *grp = xcalloc(n ? n : 1, sizeof(*grp));
	int ret = 0;

	/* the message-thread counts G of schbench-G.log, numerically */
	for (i = 0; i < n; i++) {
		grp[i].f = f[i];
		grp[i].num = mmx_perl_num(f[i]->name + strlen("schbench-"));
		grp[i].pos = i;
	}
	mmx_sort_factors(grp, n, 0);
	for (i = 0; i < n && !ret; i++) {
		const char *name = grp[i].f->name + strlen("schbench-");
		char *g = xstrndup(name, strlen(name) - strlen(".log"));

		ret = one_file(x, grp[i].f, g);
		free(g);
	}
	mmx_factors_free(grp, n);
	return ret;
}

const struct mmtests_extractor mmx_schbench = {
	.name = "schbench",
	.what = "schbench: latency percentiles per message-thread count",
	.summary = MMX_SINGLEOPS,
	.label = "Lat",
	.direction = DIR_LOWER,
	.unit = "usec",
	.extract = extract,
};
