/*
 * sockperf-tcp-throughput and -udp- (research/mmtests-2020-extractors.md
 * §5): the message sizes S of logs/<proto>-S-max-1.stdout in numeric
 * order; for each, every <proto>-S-max-N.stdout in MMTests' lexical order
 * (-1, -10, -2), each repetition N; in each, the line "sockperf: Summary:
 * BandWidth is <x> MBps (<y> Mbps)" gives y (Mbps, the MBps ignored) to
 * op "S".  Multiops, higher is better (Mbit/s).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

/*
 * MMTests' /Summary: BandWidth is.*\(([0-9.]+) Mbps\)/: 1 and *v for a
 * match, 0 for a line without "Summary: BandWidth is", -1 for one it
 * does not match or whose number is not one.
 */
static int match_bw(const char *s, double *v)
{
	const char *p = strstr(s, "Summary: BandWidth is"), *q, *best = NULL;
	size_t n = 0;

	if (!p)
		return 0;
	/* .* is greedy: the last "(<number> Mbps)" wins */
	for (q = p + 21; (q = strchr(q, '(')); q++) {
		size_t k = strspn(q + 1, "0123456789.");

		if (k && starts_with(q + 1 + k, " Mbps)")) {
			best = q + 1;
			n = k;
		}
	}
	if (!best || n >= 64)
		return -1;
	{
		char buf[64];

		memcpy(buf, best, n);
		buf[n] = '\0';
		/* Perl reads "1.2.3" as 1.2; that is no sockperf number */
		if (str_to_double(buf, v))
			return -1;
	}
	return 1;
}

static int one_file(struct mmx *x, const struct mmx_file *f, const char *op,
		    long rep)
{
	struct input in;
	int r, found = 0;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		double mbps;
		int m = match_bw(in.sb.buf, &mbps);

		if (m < 0) {
			error("%s:%ld: expected 'Summary: BandWidth is <x> "
			      "MBps (<Mbps> Mbps)', got '%.80s'", f->path,
			      in.line, in.sb.buf);
			mmx_close(x, f, &in);
			return -1;
		}
		if (!m)
			continue;
		if (mmx_add(x, op, rep, NAN, mbps, in.line)) {
			mmx_close(x, f, &in);
			return -1;
		}
		found++;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!found)
		mmx_warn(x, 0, "%s: no 'Summary: BandWidth' line (the run did "
			 "not finish?)", f->name);
	return 0;
}

/* The files of one size, in MMTests' lexical order. */
static int one_size(struct mmx *x, const char *proto, const char *size)
{
	const struct mmx_file *const *g, **f;
	char *glob = xstrfmt("%s-%s-max-*.stdout", proto, size);
	size_t n = mmx_glob(x, glob, &g), i;
	int ret = 0;

	free(glob);
	/* mmx_glob's list lasts until the next call: keep a copy */
	f = xcalloc(n ? n : 1, sizeof(*f));
	for (i = 0; i < n; i++)
		f[i] = g[i];
	for (i = 0; i < n && !ret; i++)
		ret = one_file(x, f[i], size, mmx_rep_of(f[i]->name, ".stdout",
							 (long)i + 1));
	free(f);
	return ret;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "*-max-1.stdout", &f), i, k;
	struct mmx_factor *sz = xcalloc(n ? n : 1, sizeof(*sz));
	char *proto = NULL;
	int ret = 0;

	/* <proto>-S-max-1.stdout: the 4th and 3rd '-' fields from the end */
	for (i = k = 0; i < n; i++) {
		const char *name = f[i]->name, *e = name + strlen(name), *d[4];
		int j;

		for (j = 0; j < 3; j++) {
			while (e > name && e[-1] != '-')
				e--;
			d[j] = e;
			if (e > name)
				e--;
		}
		if (d[2] == name) {
			mmx_warn(x, 0, "%s: not <protocol>-<size>-max-1."
				 "stdout; left out", name);
			continue;
		}
		while (e > name && e[-1] != '-')
			e--;
		d[3] = e;
		/* MMTests keeps the last file's protocol for every size */
		if (proto && (strlen(proto) != (size_t)(d[2] - 1 - d[3]) ||
			      strncmp(proto, d[3], strlen(proto))))
			mmx_warn(x, 0, "%s: a second protocol: MMTests reads "
				 "every size as the last one's", name);
		free(proto);
		proto = xstrndup(d[3], (size_t)(d[2] - 1 - d[3]));
		sz[k].text = xstrndup(d[2], (size_t)(d[1] - 1 - d[2]));
		sz[k].num = mmx_perl_num(sz[k].text);
		sz[k].pos = k;
		k++;
	}
	mmx_sort_factors(sz, k, 0);
	for (i = 0; i < k && !ret; i++) {
		/* two protocols of one size: MMTests would read it twice */
		if (i && !strcmp(sz[i].text, sz[i - 1].text))
			continue;
		ret = one_size(x, proto, sz[i].text);
	}
	mmx_factors_free(sz, k);
	free(proto);
	return ret;
}

const struct mmtests_extractor mmx_sockperf = {
	.name = "sockperf",
	.what = "sockperf: throughput in Mbps per message size",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "Mbps",
	.extract = extract,
};
