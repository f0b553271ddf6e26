/*
 * unixbench-dhry2reg, -execl, -pipe, -spawn, -syscall (research/mmtests-
 * 2020-extractors.md §8): the workloads W of logs/workloads' first line;
 * the copy counts T of every logs/W-*-1.log (the 2nd '-' field from the
 * end), numerically, once each; for each W, for each T, every
 * W-T-N.log in MMTests' lexical order, each repetition N; in each, the
 * line of the final "Partial Index" table, "<test name>  <BASELINE>
 * <RESULT>  <INDEX>", gives RESULT (lps) to op "unixbench-W-T".
 * Multiops.  Higher is better, but for unixbench-syscall, whose 2020
 * module declares nanoseconds: lower, a bug we copy.  The fs* tests'
 * "File ... maxblocks" lines are not read.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

/* The names of the Partial Index lines MMTests matches, in any file. */
static const char *const names[] = {
	"Dhrystone 2 using register variables",
	"Pipe Throughput",
	"System Call Overhead",
	"Execl Throughput",
	"Process Creation",
};

/* A run of [0-9.] at p, then a space if need_space: its end, or NULL. */
static const char *number_sp(const char *p, int need_space)
{
	const char *e = p + strspn(p, "0123456789.");

	if (e == p || (need_space && *e != ' '))
		return NULL;
	return e;
}

/*
 * MMTests' /^<name> * ([0-9.]+) * ([0-9.]+) * ([0-9.]+)/ (" * ": one
 * space or more), for each name: 1 and *v the middle number, 0 for a
 * line that starts with no name, -1 for one of the names' lines that
 * does not match (*name_i says which) or whose middle number is not one.
 */
static int match_result(const char *s, double *v, size_t *name_i)
{
	const char *p = NULL, *res, *e;
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names) && !p; i++)
		if (starts_with(s, names[i]))
			p = s + strlen(names[i]);
	if (!p)
		return 0;
	*name_i = i - 1;
	if (*p != ' ')
		return -1;
	p += strspn(p, " ");
	if (!(e = number_sp(p, 1)))
		return -1;
	res = e + strspn(e, " ");
	if (!(e = number_sp(res, 1)) || !number_sp(e + strspn(e, " "), 0) ||
	    (size_t)(e - res) >= sizeof(buf))
		return -1;
	memcpy(buf, res, (size_t)(e - res));
	buf[e - res] = '\0';
	/* Perl reads "1.2.3" as 1.2; that is no unixbench number */
	return str_to_double(buf, v) ? -1 : 1;
}

/* The lines of one W-T-N.log, for op "unixbench-W-T". */
struct results {
	const char *op;
	int in_index;		/* in the file's Partial Index table */
};

static long result(struct mmx *x, const struct mmx_line *l, void *data)
{
	struct results *r = data;
	const char *s = l->s;
	size_t name_i = 0;
	double v;
	int m;

	if (l->no == 1)
		r->in_index = 0;	/* each file starts above its table */
	if (starts_with(s, "System Benchmarks Partial Index")) {
		r->in_index = 1;
		return 0;
	}
	if (!*s || starts_with(s, "System Benchmarks Index Score"))
		r->in_index = 0;
	m = match_result(s, &v, &name_i);
	/*
	 * The same names head the lines of the runs above the table
	 * ("Pipe Throughput  584116.2 lps  (10.0 s, ...)"): a line MMTests
	 * does not match is wrong only in the table.
	 */
	if (m < 0 && r->in_index)
		return error("%s:%ld: expected '%s <BASELINE> <RESULT> "
			     "<INDEX>', got '%.80s'", l->f->path, l->no,
			     names[name_i], s);
	if (m <= 0)
		return 0;
	return mmx_add(x, r->op, l->rep, NAN, v, l->no) ? -1 : 1;
}

static const struct mmx_reader log_file = {
	.line = result,
	.none = "no result line in a 'System Benchmarks Partial Index' table "
		"(the run did not finish?)",
};

/* The files W-T-*.log of one op, in MMTests' lexical order. */
static int one_op(struct mmx *x, const char *w, const char *t, void *data)
{
	const struct mmx_file *const *f;
	const int *direction = data;
	char *glob = xstrfmt("%s-%s-*.log", w, t);
	char *op = xstrfmt("unixbench-%s-%s", w, t);
	struct results r = { op, 0 };
	int ret = 0;

	/* the direction is the op's from its first value on */
	if (mmx_glob(x, glob, &f))
		ret = mmx_op(x, op, *direction);
	if (!ret)
		ret = mmx_read_reps(x, glob, ".log", &log_file, &r);
	free(glob);
	free(op);
	return ret;
}

static int extract(struct mmx *x)
{
	/* ExtractUnixbenchsyscall.pm: DATA_TIME_NSECONDS, on lps */
	int direction = strcmp(mmx_test(x), "unixbench-syscall") ? 0 :
			DIR_LOWER;

	return mmx_each_workload(x, "unixbench-", "-*-1.log", "-1.log",
				 one_op, &direction);
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "lps",
	.extract = extract,
};

const struct importer importer_mmtests_unixbench = {
	.name = "unixbench",
	.family = "mmtests",
	.what = "unixbench: result (lps) per workload and copy count",
	.flags = IMP_PART,
	.part = &extractor,
};
