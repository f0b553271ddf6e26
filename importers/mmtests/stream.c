/*
 * stream (run stream-omp-nodes, test dir stream; research/mmtests-2020-
 * extractors.md §6): every logs/stream-N.log, each repetition N; in each,
 * the first number after "Copy:", "Scale:", "Add:", "Triad:" at the
 * start of a line (STREAM's best rate, MB/s) gives ops copy, scale, add,
 * triad, in that fixed order.  MMTests averages the files into one value
 * per op: we keep each file's and say Singleops-mean ("MB/sec") so that
 * the mean is taken later.  Higher is better.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"
#include <ctype.h>

static const struct {
	const char *lead;	/* at the start of STREAM's line */
	const char *op;
} kernels[] = {
	{ "Copy:", "copy" },
	{ "Scale:", "scale" },
	{ "Add:", "add" },
	{ "Triad:", "triad" },
};

/*
 * MMTests' "^Copy:\s+([0-9.]*)\s" after the lead: 0 and *v, or -1.
 * The end of the line stands for the newline \s matched in Perl.  Where
 * Perl would take an empty number as 0, that is no STREAM line: -1.
 */
static int rate(const char *p, double *v)
{
	char buf[64];
	size_t n;

	if (!isspace((unsigned char)*p))
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	n = strspn(p, "0123456789.");
	if (!n || n >= sizeof(buf) || (p[n] && !isspace((unsigned char)p[n])))
		return -1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return str_to_double(buf, v);
}

/* data: the line of each kernel's line so far, 0 for none */
static long kernel_line(struct mmx *x, const struct mmx_line *l, void *data)
{
	long *seen = data;
	const char *s = l->s;
	size_t k;
	double v;

	for (k = 0; k < ARRAY_SIZE(kernels); k++)
		if (starts_with(s, kernels[k].lead))
			break;
	if (k == ARRAY_SIZE(kernels))
		return 0;
	if (rate(s + strlen(kernels[k].lead), &v))
		return error("%s:%ld: expected '%s <MB/s> <avg> <min> <max>', "
			     "got '%.80s'", l->f->path, l->no,
			     kernels[k].lead, s);
	/* MMTests would add both to the sum of all the files */
	if (seen[k])
		return error("%s:%ld: a second '%s' line (the first at line "
			     "%ld)", l->f->path, l->no, kernels[k].lead,
			     seen[k]);
	seen[k] = l->no;
	return mmx_add(x, kernels[k].op, l->rep, NAN, v, l->no) ? -1 : 1;
}

static const struct mmx_reader log_file = { .line = kernel_line };

static int one_file(struct mmx *x, const struct mmx_file *f, long rep)
{
	long seen[ARRAY_SIZE(kernels)] = { 0 };
	size_t k;

	if (mmx_read(x, f, rep, &log_file, seen) < 0)
		return -1;
	/* MMTests would count the file and add 0 to the mean */
	for (k = 0; k < ARRAY_SIZE(kernels); k++)
		if (!seen[k])
			mmx_warn(x, 0, "%s: no '%s' line (the run did not "
				 "finish?)", f->name, kernels[k].lead);
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n, i;

	for (i = 0; i < ARRAY_SIZE(kernels); i++)
		if (mmx_op(x, kernels[i].op, 0))
			return -1;
	n = mmx_glob(x, "stream-*.log", &f);
	for (i = 0; i < n; i++)
		if (one_file(x, f[i], mmx_rep_of(f[i]->name, ".log",
						 (long)i + 1)))
			return -1;
	return 0;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_SINGLEOPS_MEAN,
	.label = "MB/sec",
	.direction = DIR_HIGHER,
	.unit = "MB/s",
	.extract = extract,
};

const struct importer importer_mmtests_stream = {
	.name = "stream",
	.family = "mmtests",
	.what = "stream: best rate of copy/scale/add/triad per run (MB/s)",
	.flags = IMP_PART,
	.part = &extractor,
};
