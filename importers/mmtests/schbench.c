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
#include "store/direction.h"
#include "extract.h"
#include <ctype.h>

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

/* The percentiles of one file, held until it is read. */
struct pcts {
	struct mmx_pool pool;
	const char *g;		/* the message-thread count, as named */
};

static long percentile(struct mmx *x, const struct mmx_line *l, void *data)
{
	struct pcts *p = data;
	const char *pct;
	size_t len;
	double usec;
	int m = match_pct(l->s, &pct, &len, &usec);

	(void)x;
	if (m < 0)
		return error("%s:%ld: expected '<percentile>th: <usec>', got "
			     "'%.80s'", l->f->path, l->no, l->s);
	if (!m)
		return 0;
	/* MMTests' s/00$// on the percentile's text */
	if (len >= 2 && !strncmp(pct + len - 2, "00", 2))
		len -= 2;
	mmx_pool_take(&p->pool, xstrfmt("%.*sth-qrtle-%s", (int)len, pct,
					p->g), usec, l->no);
	return 1;
}

static const struct mmx_reader log_file = {
	.line = percentile,
	.none = "no '<percentile>th: <usec>' line (the run did not finish?)",
};

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "schbench-*.log", &f), nr = 0, alloc = 0, i;
	struct mmx_factor *grp = NULL;
	int ret = 0;

	/* the message-thread counts G of schbench-G.log, numerically */
	for (i = 0; i < n; i++) {
		const char *g = f[i]->name + strlen("schbench-");
		char *text = xstrndup(g, strlen(g) - strlen(".log"));

		mmx_factor_push(&grp, &nr, &alloc, text)->f = f[i];
	}
	mmx_sort_factors(grp, nr, 0);
	for (i = 0; i < nr && !ret; i++) {
		struct pcts p = { MMX_POOL_INIT, grp[i].text };

		if (mmx_read(x, grp[i].f, 0, &log_file, &p) < 0 ||
		    mmx_pool_add(x, &p.pool))
			ret = -1;
		mmx_pool_release(&p.pool);
	}
	mmx_factors_free(grp, nr);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_SINGLEOPS,
	.label = "Lat",
	.direction = DIR_LOWER,
	.unit = "usec",
	.extract = extract,
};

const struct importer importer_mmtests_schbench = {
	.name = "schbench",
	.family = "mmtests",
	.what = "schbench: latency percentiles per message-thread count",
	.flags = IMP_PART,
	.part = &extractor,
};
