/*
 * blogbench (research/mmtests-2020-extractors.md §1): logs/blogbench-*.log
 * in MMTests' lexical order, each one repetition; from each, the lines
 * starting "Final score", the last field the value: "writes" ->
 * WriteScore, "reads" -> ReadScore (first seen first: writes, reads).
 * Multiops, higher is better ("actions").
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

static long final_score(struct mmx *x, const struct mmx_line *l, void *data)
{
	const char *s = l->s, *last, *op;
	char *end;
	double v;

	(void)data;
	if (!starts_with(s, "Final score"))
		return 0;
	op = strstr(s, "writes") ? "WriteScore" :
	     strstr(s, "reads") ? "ReadScore" : NULL;
	if (!op)
		return 0;
	last = s + strlen(s);
	while (last > s && (last[-1] == ' ' || last[-1] == '\t'))
		last--;
	while (last > s && last[-1] != ' ' && last[-1] != '\t' &&
	       last[-1] != ':')
		last--;
	v = strtod(last, &end);
	if (end == last || (*end && *end != ' ' && *end != '\t'))
		return error("%s:%ld: expected 'Final score for %s: <number>', "
			     "got '%.80s'", l->f->path, l->no, op[0] == 'W' ?
			     "writes" : "reads", s);
	return mmx_add(x, op, l->rep, NAN, v, l->no) ? -1 : 1;
}

static const struct mmx_reader log_file = {
	.line = final_score,
	.none = "no 'Final score' line (the run did not finish?)",
};

static int extract(struct mmx *x)
{
	return mmx_read_reps(x, "blogbench-*.log", ".log", &log_file, NULL);
}

static const struct mmtests_extractor extractor = {
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "score",
	.extract = extract,
};

const struct importer importer_mmtests_blogbench = {
	.name = "blogbench",
	.family = "mmtests",
	.what = "blogbench: Final score for writes/reads per run",
	.flags = IMP_PART,
	.part = &extractor,
};
