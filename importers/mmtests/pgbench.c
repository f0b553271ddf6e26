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

/* The 4-line groups of one client's transactions file. */
struct windows {
	const char *op;
	double start, sum;
	int k;			/* lines in the group so far */
};

static long window(struct mmx *x, const struct mmx_line *l, void *data)
{
	struct windows *w = data;
	double epoch, ntxn, mean;

	if (l->no > 1 && l->no <= SKIP_LINES)
		return 0;
	if (epoch_ntxn(l->s, &epoch, &ntxn))
		return error("%s:%ld: expected '<epoch> <transactions> ...', "
			     "got '%.80s'", l->f->path, l->no, l->s);
	if (l->no == 1) {
		w->start = epoch;
		return 0;
	}
	w->sum += ntxn;
	if (++w->k < BATCH)
		return 0;
	mean = w->sum / BATCH;
	w->sum = 0;
	w->k = 0;
	/* MMTests: a zero mean becomes 1, for the harmonic mean */
	return mmx_add(x, w->op, 0, epoch - w->start, mean ? mean : 1,
		       l->no) ? -1 : 1;
}

/* MMTests' fallback: "tps = X (including connections establishing)". */
static long tps(struct mmx *x, const struct mmx_line *l, void *data)
{
	const char *s = l->s, *p = s + strlen("tps = ");
	double v;

	if (!starts_with(s, "tps = ") || !strstr(s, " (including"))
		return 0;
	if (str_double(&p, &v) || !starts_with(p, " (including"))
		return error("%s:%ld: expected 'tps = <number> (including "
			     "...', got '%.80s'", l->f->path, l->no, s);
	return mmx_add(x, data, 0, NAN, v, l->no) ? -1 : 1;
}

static const struct mmx_reader transactions = { .line = window };
static const struct mmx_reader tps_line = { .line = tps };

static int one_client(struct mmx *x, const struct mmx_numbered *c)
{
	const struct mmx_file *f;
	char op[16], name[64];
	struct windows w = { op, 0, 0, 0 };
	long nr = 0;

	snprintf(op, sizeof(op), "%.*s", (int)c->len, c->digits);
	snprintf(name, sizeof(name), "pgbench-transactions-%s.log", op);
	f = mmx_find(x, name);
	if (f && (nr = mmx_read(x, f, 0, &transactions, &w)) < 0)
		return -1;
	if (nr)
		return 0;
	/* read first, so that the warning is about pgbench-C.log */
	if ((nr = mmx_read(x, c->f, 0, &tps_line, op)) < 0)
		return -1;
	mmx_warn(x, 0, "%s: %s; %s", name, f ? "fewer than 13 lines, no "
		"4-second window" : "no such file", nr ? "the tps line "
		"here instead" : "and no 'tps = <number> (including' line "
		"here: no value");
	return 0;
}

/* MMTests globs pgbench-*.log on disk: X.log.gz is not seen */
static const struct mmx_names logs = {
	.glob = "pgbench-*.log",
	.prefix = "pgbench-",
	.suffix = ".log",
	.flags = MMX_NUM_PLAIN,
};

static int extract(struct mmx *x)
{
	struct mmx_numbered *c;
	size_t nr = mmx_numbered(x, &logs, &c), i;
	int ret = 0;

	for (i = 0; i < nr && !ret; i++)
		ret = one_client(x, &c[i]);
	free(c);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "trans/s",
	.extract = extract,
};

const struct importer importer_mmtests_pgbench = {
	.name = "pgbench",
	.family = "mmtests",
	.what = "pgbench: transactions/sec per client count, 4-second windows",
	.flags = IMP_PART,
	.part = &extractor,
};
