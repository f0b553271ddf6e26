/*
 * pgbench (research/mmtests-2020-extractors.md §2): the clients are the
 * files logs/pgbench-C.log (not .gz: MMTests globs the disk), in numeric
 * order, each one operation named "C".  From pgbench-transactions-C.log
 * (gz first), lines 1-9 skipped, then groups of 4 lines: one observation
 * of the iteration, the group's mean of field 2 (0 becomes 1) at t =
 * epoch of its last line - epoch of line 1; a partial group is dropped.
 * With no group, the "tps = X (including" line of pgbench-C.log instead.
 * Multiops, higher is better (transactions/sec).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

#define SKIP_LINES 9	/* MMTests: start = 1 + 2 * batch */
#define BATCH 4

struct client {
	long n;
	const struct mmx_file *f;	/* pgbench-C.log */
	const char *name;		/* "12", in the file's name */
	size_t len;
};

/* "pgbench-<digits>.log", not .gz -> the digits; else 0. */
static int client_of(const struct mmx_file *f, struct client *c)
{
	const char *p = f->name + strlen("pgbench-"), *q = p;

	/* MMTests globs pgbench-*.log on disk: X.log.gz is not seen */
	if (!starts_with(f->name, "pgbench-") || ends_with(f->path, ".gz"))
		return 0;
	while (*q >= '0' && *q <= '9')
		q++;
	if (q == p || q - p > 9 || strcmp(q, ".log"))
		return 0;
	c->f = f;
	c->name = p;
	c->len = (size_t)(q - p);
	c->n = strtol(p, NULL, 10);
	return 1;
}

static int cmp_client(const void *a, const void *b)
{
	const struct client *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* "<epoch> <ntxn> ..." -> the two numbers; -1 if they are not there. */
static int epoch_ntxn(const char *s, double *epoch, double *ntxn)
{
	str_skip_blanks(&s);
	if (str_double(&s, epoch) || (*s != ' ' && *s != '\t'))
		return -1;
	str_skip_blanks(&s);
	if (str_double(&s, ntxn) || (*s && *s != ' ' && *s != '\t'))
		return -1;
	return 0;
}

/* The 4-line groups of one client; *nr gets how many. */
static int transactions(struct mmx *x, const struct mmx_file *f,
			const char *op, long *nr)
{
	struct input in;
	double start = 0, sum = 0;
	int r, k = 0;

	*nr = 0;
	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		double epoch, ntxn;

		if (in.line > 1 && in.line <= SKIP_LINES)
			continue;
		if (epoch_ntxn(in.sb.buf, &epoch, &ntxn)) {
			error("%s:%ld: expected '<epoch> <transactions> "
			      "...', got '%.80s'", f->path, in.line,
			      in.sb.buf);
			mmx_close(x, f, &in);
			return -1;
		}
		if (in.line == 1) {
			start = epoch;
			continue;
		}
		sum += ntxn;
		if (++k < BATCH)
			continue;
		/* MMTests: a zero mean becomes 1, for the harmonic mean */
		if (mmx_add(x, op, 0, epoch - start, sum / BATCH ? sum / BATCH :
			    1, in.line)) {
			mmx_close(x, f, &in);
			return -1;
		}
		(*nr)++;
		sum = 0;
		k = 0;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	return 0;
}

/* MMTests' fallback: "tps = X (including connections establishing)". */
static int tps_line(struct mmx *x, const struct mmx_file *f, const char *op,
		    long *nr)
{
	struct input in;
	int r;

	*nr = 0;
	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf, *p = s + strlen("tps = ");
		double v;

		if (!starts_with(s, "tps = ") || !strstr(s, " (including"))
			continue;
		if (str_double(&p, &v) || !starts_with(p, " (including")) {
			error("%s:%ld: expected 'tps = <number> "
			      "(including ...', got '%.80s'", f->path,
			      in.line, s);
			mmx_close(x, f, &in);
			return -1;
		}
		if (mmx_add(x, op, 0, NAN, v, in.line)) {
			mmx_close(x, f, &in);
			return -1;
		}
		(*nr)++;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	return 0;
}

static int one_client(struct mmx *x, const struct client *c)
{
	const struct mmx_file *f;
	char op[16], name[64];
	long nr = 0;

	snprintf(op, sizeof(op), "%.*s", (int)c->len, c->name);
	snprintf(name, sizeof(name), "pgbench-transactions-%s.log", op);
	f = mmx_find(x, name);
	if (f && transactions(x, f, op, &nr))
		return -1;
	if (nr)
		return 0;
	/* read first, so that the warning is about pgbench-C.log */
	if (tps_line(x, c->f, op, &nr))
		return -1;
	mmx_warn(x, 0, "%s: %s; %s", name, f ? "fewer than 13 lines, no "
		"4-second window" : "no such file", nr ? "the tps line "
		"here instead" : "and no 'tps = <number> (including' line "
		"here: no value");
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "pgbench-*.log", &f), i, nr = 0;
	struct client *c = xcalloc(n ? n : 1, sizeof(*c));
	int ret = 0;

	for (i = 0; i < n; i++)
		if (client_of(f[i], &c[nr]))
			nr++;
	QSORT(c, nr, cmp_client);
	for (i = 0; i < nr && !ret; i++)
		ret = one_client(x, &c[i]);
	free(c);
	return ret;
}

const struct mmtests_extractor mmx_pgbench = {
	.name = "pgbench",
	.what = "pgbench: transactions/sec per client count, 4-second windows",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "trans/s",
	.extract = extract,
};
