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

static long bandwidth(struct mmx *x, const struct mmx_line *l, void *data)
{
	double mbps;
	int m = match_bw(l->s, &mbps);

	if (m < 0)
		return error("%s:%ld: expected 'Summary: BandWidth is <x> MBps "
			     "(<Mbps> Mbps)', got '%.80s'", l->f->path, l->no,
			     l->s);
	if (!m)
		return 0;
	return mmx_add(x, data, l->rep, NAN, mbps, l->no) ? -1 : 1;
}

static const struct mmx_reader stdout_file = {
	.line = bandwidth,
	.none = "no 'Summary: BandWidth' line (the run did not finish?)",
};

/* The files of one size, in MMTests' lexical order: op "<size>". */
static int one_size(struct mmx *x, const char *proto, char *size)
{
	char *glob = xstrfmt("%s-%s-max-*.stdout", proto, size);
	int ret = mmx_read_reps(x, glob, ".stdout", &stdout_file, size);

	free(glob);
	return ret;
}

/*
 * "<proto>-<size>-max-1.stdout": the 4th and 3rd '-' fields from the end,
 * *proto and *size (plen and slen long); -1 for a name with fewer.
 */
static int name_fields(const char *name, const char **proto, size_t *plen,
		       const char **size, size_t *slen)
{
	const char *e = name + strlen(name), *d[4];
	int j;

	for (j = 0; j < 3; j++) {
		while (e > name && e[-1] != '-')
			e--;
		d[j] = e;
		if (e > name)
			e--;
	}
	if (d[2] == name)
		return -1;
	while (e > name && e[-1] != '-')
		e--;
	d[3] = e;
	*proto = d[3];
	*plen = (size_t)(d[2] - 1 - d[3]);
	*size = d[2];
	*slen = (size_t)(d[1] - 1 - d[2]);
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "*-max-1.stdout", &f), i, k = 0, alloc = 0;
	struct mmx_factor *sz = NULL;
	char *proto = NULL;
	int ret = 0;

	for (i = 0; i < n; i++) {
		const char *name = f[i]->name, *p, *size;
		size_t plen, slen;

		if (name_fields(name, &p, &plen, &size, &slen)) {
			mmx_warn(x, 0, "%s: not <protocol>-<size>-max-1."
				 "stdout; left out", name);
			continue;
		}
		/* MMTests keeps the last file's protocol for every size */
		if (proto && (strlen(proto) != plen ||
			      strncmp(proto, p, strlen(proto))))
			mmx_warn(x, 0, "%s: a second protocol: MMTests reads "
				 "every size as the last one's", name);
		free(proto);
		proto = xstrndup(p, plen);
		mmx_factor_push(&sz, &k, &alloc, xstrndup(size, slen));
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

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "Mbps",
	.extract = extract,
};

const struct importer importer_mmtests_sockperf = {
	.name = "sockperf",
	.family = "mmtests",
	.what = "sockperf: throughput in Mbps per message size",
	.flags = IMP_PART,
	.part = &extractor,
};
