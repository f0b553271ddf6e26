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

static int one_file(struct mmx *x, const struct mmx_file *f, long rep)
{
	struct input in;
	int r, found = 0;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf, *last, *op;
		char *end;
		double v;

		if (!starts_with(s, "Final score"))
			continue;
		op = strstr(s, "writes") ? "WriteScore" :
		     strstr(s, "reads") ? "ReadScore" : NULL;
		if (!op)
			continue;
		last = s + strlen(s);
		while (last > s && (last[-1] == ' ' || last[-1] == '\t'))
			last--;
		while (last > s && last[-1] != ' ' && last[-1] != '\t' &&
		       last[-1] != ':')
			last--;
		v = strtod(last, &end);
		if (end == last || (*end && *end != ' ' && *end != '\t')) {
			error("%s:%ld: expected 'Final score for %s: <number>', "
			      "got '%.80s'", f->path, in.line, op[0] == 'W' ?
			      "writes" : "reads", s);
			mmx_close(x, f, &in);
			return -1;
		}
		if (mmx_add(x, op, rep, NAN, v, in.line)) {
			mmx_close(x, f, &in);
			return -1;
		}
		found++;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!found)
		mmx_warn(x, 0, "%s: no 'Final score' line (the run did not "
			 "finish?)", f->name);
	return 0;
}

static int extract(struct mmx *x)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, "blogbench-*.log", &f), i;

	for (i = 0; i < n; i++)
		if (one_file(x, f[i], mmx_rep_of(f[i]->name, ".log",
						 (long)i + 1)))
			return -1;
	return 0;
}

const struct mmtests_extractor mmx_blogbench = {
	.name = "blogbench",
	.what = "blogbench: Final score for writes/reads per run",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "score",
	.extract = extract,
};
