/*
 * hackbench (MMTests 2020, rev 345f82be: bin/lib/MMTests/ExtractHackbench.pm,
 * shared by hackbench-{process,thread}-{pipes,sockets}; the research
 * notes do not cover it): logs/hackbench-G-N is the output of
 * `perf bench sched messaging` with G groups, repetition N.  The group
 * counts are those with a hackbench-G-1 file, in numeric order, each one
 * operation named "G" (bare, as MMTests names it); its files are read in
 * MMTests' lexical glob order, and the "Total time: <seconds>" line of
 * each is the repetition's value.  Multiops, lower is better (seconds).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

static long total_time(struct mmx *x, const struct mmx_line *l, void *data)
{
	const struct mmx_numbered *v = data;
	const char *p = strstr(l->s, "Total time:");
	char op[16];
	double secs;

	if (!p)
		return 0;
	p += strlen("Total time:");
	str_skip_blanks(&p);
	if (str_double(&p, &secs) || (*p && *p != ' ' && *p != '\t'))
		return error("%s:%ld: expected 'Total time: <seconds> [sec]', "
			     "got '%.80s'", l->f->path, l->no, l->s);
	if (l->first)
		return error("%s:%ld: a second 'Total time' line (the first at "
			     "line %ld)", l->f->path, l->no, l->first);
	snprintf(op, sizeof(op), "%ld", v->n);
	return mmx_add(x, op, l->rep, NAN, secs, l->no) ? -1 : 1;
}

/*
 * MMTests takes the group counts from the hackbench-*-1 files and reads
 * each count's files in its lexical glob order
 */
static const struct mmx_names logs = {
	.glob = "hackbench-*-*",
	.prefix = "hackbench-",
	.suffix = "",
	.flags = MMX_NUM_REP | MMX_NUM_LEXICAL,
	.other = "not hackbench-<groups>-<N>: not read",
	.needs_first = "groups",
};

static const struct mmx_reader log_file = {
	.line = total_time,
	.none = "no 'Total time: <seconds>' line",
};

static int extract(struct mmx *x)
{
	struct mmx_numbered *l;
	size_t nr = mmx_numbered(x, &logs, &l);
	int ret = mmx_read_numbered(x, l, nr, &log_file);

	free(l);
	return ret;
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_LOWER,
	.unit = "s",
	.extract = extract,
};

const struct importer importer_mmtests_hackbench = {
	.name = "hackbench",
	.family = "mmtests",
	.what = "hackbench: perf bench sched messaging seconds per group count",
	.flags = IMP_PART,
	.part = &extractor,
};
