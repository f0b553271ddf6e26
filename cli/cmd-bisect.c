/*
 * perfsift bisect suggest and perfsift bisect judge: guide a bisection
 * between a good and a bad commit of the recorded order by a metric's
 * runs.  Every tested commit of the range is classified like good, like
 * bad, or not yet known (lib/stats/bisect.h: Student's t against good
 * and against bad with the series' pooled noise); suggest narrows the
 * range to the last good and first bad commit and names the next commit
 * to test, judge gives one commit's verdict as an exit status for
 * `git bisect run`.
 */
#include "core/compat.h"
#include "stats/bisect.h"
#include "store/commits.h"
#include "store/direction.h"
#include "store/query.h"
#include "cmd.h"
#include "options.h"
#include "table.h"
#include <jansson.h>

struct bisect_args {
	const char *metric, *good, *bad;
	struct run_filter f;
	double alpha;
	int json;
};

static const char *const bisect_usage[] = {
	"perfsift bisect suggest --metric NAME --good G --bad B\n"
	"                        [--testcase GLOB] [--machine M]\n"
	"                        [--alpha A] [--json]",
	"perfsift bisect judge --metric NAME --good G --bad B\n"
	"                      [same options] COMMIT",
	NULL,
};

#define T struct bisect_args
static const struct opt bisect_opts[] = {
	OPT_METRIC(T, metric, "NAME",
		   "the metric (a glob matching one series)"),
	OPT_STRING(0, "good", T, good, "G",
		   "a commit where the metric is as it should be"),
	OPT_STRING(0, "bad", T, bad, "B", "a later commit where it changed"),
	OPT_TESTCASE(T, f.testcase),
	OPT_MACHINE(T, f.machine),
	OPT_ALPHA(T, alpha, "the level of each single t-test of the "
		  "sequence\n(default " OPT_STR(ALPHA_EACH_TEST) ")"),
	OPT_JSON(T, json, "suggest: one JSON document on stdout"),
	OPT_END(),
};
#undef T

const struct cmd_options bisect_options = {
	.name = "bisect",
	.usage = bisect_usage,
	.description =
	"G, B and COMMIT are recorded commits ('perfsift commits import'):\n"
	"a sha prefix, or a label or kernel whose runs are at one commit.\n"
	"Runs count at a commit when their variant carries it (import\n"
	"--commit SHA).  G must come before B in the recorded order.\n"
	"\n"
	"Each tested commit from G to B is compared with G and with B by\n"
	"Student's t on the commits' means, with one noise for the series:\n"
	"the pooled within-commit sample standard deviation (n-1 per\n"
	"commit, over every commit of the series with 2 runs or more).  A\n"
	"commit unlike good and like bad is bad, the mirror image good;\n"
	"unlike both, it is bad beyond bad, good beyond good, else 'between'\n"
	"(a partial change); like both, 'unknown': more runs are needed, and\n"
	"how many is said (for 90% power at A).\n"
	"\n"
	"suggest: the classification, the range between the last good\n"
	"commit and the first bad one, the next commit to test (the middle\n"
	"one of the untested commits in that range, by recorded order), the\n"
	"commits still unknown there, and the git bisect commands that\n"
	"reproduce the narrowing.  When no untested or unknown commit is\n"
	"left, the first bad commit is found.\n"
	"\n"
	"judge: COMMIT's verdict as the exit status, for `git bisect run`: 0\n"
	"good, 1 bad, 125 cannot tell yet (unknown: more runs; or between),\n"
	"128 any error (so that git bisect stops rather than mark a commit\n"
	"wrongly).  One line on stdout says why.\n",
	.options = bisect_opts,
};

/* one series of the history: rows[0..nr), one metric, testcase, ... */
struct bseries {
	struct history_row *r;
	size_t nr;
	int direction;
	double *x;
	size_t *g;
};

static void series_name(const struct history_row *r, FILE *f)
{
	fprintf(f, "%s, testcase %s", r->metric, *r->testcase ? r->testcase :
		"-");
	if (*r->params)
		fprintf(f, ", params %s", r->params);
	if (*r->machine)
		fprintf(f, ", machine %s", r->machine);
}

/*
 * The options; the COMMIT of judge to *commit.  -1 when the command
 * ends here (*status: after --help or a usage error), else 0.
 */
static int parse_args(int argc, const char **argv, struct bisect_args *a,
		      const char **commit, int *status)
{
	memset(a, 0, sizeof(*a));
	a->alpha = ALPHA_EACH_TEST;
	argc = parse_options(argc, argv, &bisect_options, a, 0, status);
	if (argc < 0)
		return -1;
	*status = EXIT_USAGE;
	if (commit && a->json)
		return usage_error(&bisect_options, "judge answers by its exit "
				   "status; --json is suggest's"), -1;
	if (!a->metric || !a->good || !a->bad)
		return usage_error(&bisect_options, "--metric, --good and "
				   "--bad are needed"), -1;
	if (commit && argc != 1)
		return usage_error(&bisect_options, "judge wants one COMMIT"),
		       -1;
	if (!commit && argc)
		return usage_error(&bisect_options, "unexpected argument '%s'",
				   argv[0]), -1;
	if (commit)
		*commit = argv[0];
	*status = EXIT_OK;
	return 0;
}

static const char *sha12(const char *sha, char *buf)
{
	snprintf(buf, 13, "%s", sha);
	return buf;
}

/* Resolve --good and --bad, good first; EXIT_OK or a status said */
static int resolve_ends(struct db *db, const struct bisect_args *a,
			struct commit_row *good, struct commit_row *bad)
{
	char b1[13], b2[13];
	int r;

	r = commits_resolve(db, a->good, good);
	if (!r)
		r = commits_resolve(db, a->bad, bad);
	if (r)
		return r == -2 ? EXIT_ENV : EXIT_USAGE;
	if (good->position == bad->position) {
		error("--good and --bad name the same commit %s", sha12(good->sha,
		      b1));
		return EXIT_USAGE;
	}
	if (good->position > bad->position) {
		error("good %s (position %ld) comes after bad %s (position "
		      "%ld) in the recorded order: are they the wrong way "
		      "round?", sha12(good->sha, b1), good->position,
		      sha12(bad->sha, b2), bad->position);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* rows[0..nr) hold one series, else the series are listed: 0 or -1 */
static int one_series(const struct history_row *rows, size_t nr,
		      const char *metric)
{
	size_t i;

	for (i = 1; i < nr && history_same_series(&rows[0], &rows[i]); i++)
		;
	if (i == nr)
		return 0;
	error("'%s' matches more than one series; choose one with "
	      "--metric, --testcase or --machine:", metric);
	for (i = 0; i < nr; i++) {
		if (i && history_same_series(&rows[i - 1], &rows[i]))
			continue;
		fputs("    ", stderr);
		series_name(&rows[i], stderr);
		fputc('\n', stderr);
	}
	return -1;
}

/*
 * Resolve good and bad and read the one series of the metric; EXIT_OK
 * or the exit status after an error message.
 */
static int load(struct db *db, const struct bisect_args *a,
		struct commit_row *good, struct commit_row *bad,
		struct history_row **rows, size_t *nr, struct bseries *s)
{
	struct direction_overrides dirs = { 0 };
	size_t i;
	int status = resolve_ends(db, a, good, bad);

	if (status)
		return status;
	if (query_history(db, &a->f, a->metric, rows, nr))
		return EXIT_ENV;
	if (!*nr) {
		error("no sample of '%s' in a run whose commit is recorded "
		      "(see 'perfsift metrics' and 'perfsift commits import')",
		      a->metric);
		return EXIT_USAGE;
	}
	if (one_series(*rows, *nr, a->metric))
		return EXIT_USAGE;
	if (direction_load(db, &dirs))
		return EXIT_ENV;
	s->r = *rows;
	s->nr = *nr;
	s->direction = direction_of(&dirs, s->r->metric, s->r->unit,
				    s->r->stated);
	direction_release(&dirs);
	s->x = xmalloc(s->nr * sizeof(*s->x));
	s->g = xmalloc(s->nr * sizeof(*s->g));
	for (i = 0; i < s->nr; i++) {
		s->x[i] = s->r[i].value;
		s->g[i] = (size_t)s->r[i].position;
	}
	return EXIT_OK;
}

/* bisect_range() of good..bad, its errors said; EXIT_OK or a status */
static int classify(const struct bseries *s, const struct bisect_args *a,
		    const struct commit_row *good, const struct commit_row *bad,
		    struct bisect_result *res)
{
	char b1[13], b2[13];
	int r = bisect_range(s->x, s->g, s->nr, (size_t)good->position,
			     (size_t)bad->position, a->alpha, res);

	switch (r) {
	case BISECT_OK:
		return EXIT_OK;
	case BISECT_ENOGOOD:
	case BISECT_ENOBAD:
		error("no run of %s at the %s commit %s: import its runs with "
		      "--commit", s->r->metric, r == BISECT_ENOGOOD ? "good" :
		      "bad", sha12(r == BISECT_ENOGOOD ? good->sha : bad->sha,
				   b1));
		break;
	case BISECT_ENONOISE:
		error("%s: no commit has 2 runs, so the noise cannot be "
		      "estimated: run the benchmark at least twice at good "
		      "and at bad", s->r->metric);
		break;
	case BISECT_ESAME: {
		long each = bisect_runs_each(&res->noise, a->alpha,
					     res->delta);

		error("%s: good %s and bad %s do not differ at alpha %g (p %.2g,"
		      " pooled sd(n-1) %.4g): nothing to bisect yet", s->r->metric,
		      sha12(good->sha, b1), sha12(bad->sha, b2), a->alpha,
		      res->p, res->noise.sd);
		if (each > 0)
			fprintf(stderr, "hint: a change as large as the one seen "
				"(%+.4g) needs about %ld runs at each for 90%% "
				"power at alpha %g\n", res->delta, each, a->alpha);
		break;
	}
	default:
		error("%s: a value that is not finite, or out of memory",
		      s->r->metric);
		return EXIT_ENV;
	}
	return EXIT_BADINPUT;
}

/* What suggest found, in both outputs' terms. */
struct suggestion {
	struct commit_row *c;		/* the recorded commits good..bad */
	size_t nc;
	size_t *point_of;		/* c index -> res point + 1, 0 untested */
	size_t lg, fb;			/* c indices: last good, first bad */
	size_t *untested, nu;		/* c indices between lg and fb */
	size_t *unknown, nk;		/* tested there, unknown */
	size_t *between, nb;		/* tested there, between */
	size_t next;			/* c index; SIZE_MAX: none */
};

static void suggestion_release(struct suggestion *sg)
{
	commit_rows_free(sg->c, sg->nc);
	free(sg->point_of);
	free(sg->untested);
	free(sg->unknown);
	free(sg->between);
}

/*
 * The next commit to test: an unknown commit in the range is run again
 * first (as Pinpoint adds attempts to an unknown change rather than
 * test around it), the one nearest the middle of the range, unless no
 * number of runs there would do without more at good and bad; else the
 * middle one of the untested commits.
 */
static void choose_next(const struct bisect_result *res,
			struct suggestion *sg)
{
	size_t mid = (sg->lg + sg->fb) / 2, i;

	for (i = 0; i < sg->nk; i++) {
		const struct bisect_point *p =
			&res->points[sg->point_of[sg->unknown[i]] - 1];

		if (p->cls.more_runs <= 0)
			continue;
		if (sg->next == SIZE_MAX ||
		    (sg->unknown[i] > mid ? sg->unknown[i] - mid :
		     mid - sg->unknown[i]) < (sg->next > mid ? sg->next - mid :
					       mid - sg->next))
			sg->next = sg->unknown[i];
	}
	if (sg->next == SIZE_MAX && sg->nu)
		sg->next = sg->untested[(sg->nu - 1) / 2];
	else if (sg->next == SIZE_MAX && sg->nk)
		sg->next = sg->unknown[0];
}

static int suggest_build(struct db *db, const struct bisect_result *res,
			 const struct commit_row *good,
			 const struct commit_row *bad, struct suggestion *sg)
{
	size_t i, k = 0;
	long lgp = (long)res->points[res->last_good].group;
	long fbp = (long)res->points[res->first_bad].group;

	memset(sg, 0, sizeof(*sg));
	sg->next = SIZE_MAX;
	if (commits_range(db, good->position, bad->position, &sg->c, &sg->nc))
		return -1;
	sg->point_of = xcalloc(sg->nc + 1, sizeof(*sg->point_of));
	sg->untested = xcalloc(sg->nc + 1, sizeof(*sg->untested));
	sg->unknown = xcalloc(sg->nc + 1, sizeof(*sg->unknown));
	sg->between = xcalloc(sg->nc + 1, sizeof(*sg->between));
	for (i = 0; i < sg->nc; i++) {
		long pos = sg->c[i].position;

		while (k < res->nr && (long)res->points[k].group < pos)
			k++;
		if (k < res->nr && (long)res->points[k].group == pos)
			sg->point_of[i] = k + 1;
		if (pos == lgp)
			sg->lg = i;
		if (pos == fbp)
			sg->fb = i;
		if (pos <= lgp || pos >= fbp)
			continue;
		if (!sg->point_of[i])
			sg->untested[sg->nu++] = i;
		else if (res->points[k].cls.verdict == BISECT_UNKNOWN)
			sg->unknown[sg->nk++] = i;
		else
			sg->between[sg->nb++] = i;
	}
	choose_next(res, sg);
	return 0;
}

static void git_commands(const struct bisect_result *res,
			 const struct suggestion *sg, const struct commit_row *good,
			 const struct commit_row *bad, json_t *arr, FILE *f)
{
	size_t i;

	for (i = 0; i <= sg->nc; i++) {
		const struct bisect_point *p;
		char line[128];

		if (!i) {
			snprintf(line, sizeof(line), "git bisect start %s %s",
				 bad->sha, good->sha);
		} else {
			if (!sg->point_of[i - 1])
				continue;
			p = &res->points[sg->point_of[i - 1] - 1];
			if (!strcmp(sg->c[i - 1].sha, good->sha) ||
			    !strcmp(sg->c[i - 1].sha, bad->sha))
				continue;
			if (p->cls.verdict != BISECT_GOOD &&
			    p->cls.verdict != BISECT_BAD)
				continue;
			snprintf(line, sizeof(line), "git bisect %s %s",
				 bisect_verdict_name(p->cls.verdict),
				 sg->c[i - 1].sha);
		}
		if (arr)
			json_array_append_new(arr, json_string(line));
		else
			fprintf(f, "    %s\n", line);
	}
}

static json_t *point_json(const struct commit_row *c,
			  const struct bisect_point *p)
{
	json_t *o = json_object();

	json_object_set_new(o, "commit", json_string(c->sha));
	json_object_set_new(o, "position", json_integer(c->position));
	json_object_set_new(o, "subject", json_string(c->subject));
	json_object_set_new(o, "n", json_integer((json_int_t)p->n));
	json_object_set_new(o, "mean", json_finite(p->mean));
	json_object_set_new(o, "sd", json_finite(p->sd));
	json_object_set_new(o, "verdict",
			    json_string(bisect_verdict_name(p->cls.verdict)));
	json_object_set_new(o, "p_good", json_finite(p->cls.p_good));
	json_object_set_new(o, "p_bad", json_finite(p->cls.p_bad));
	json_object_set_new(o, "level", json_finite(p->cls.level));
	json_object_set_new(o, "more_runs",
			    p->cls.verdict == BISECT_UNKNOWN ?
			    json_integer(p->cls.more_runs) : json_null());
	return o;
}

static double change_pct(const struct bisect_point *good,
			 const struct bisect_point *bad)
{
	return good->mean ? 100 * (bad->mean / good->mean - 1) : NAN;
}

/* The series, its test level and its noise: a new object */
static json_t *series_json(const struct bseries *s, const struct bisect_args *a,
			   const struct bisect_result *res)
{
	json_t *o = history_series_json(s->r, s->direction);
	json_t *noise = json_object();

	json_object_set_new(o, "alpha", json_real(a->alpha));
	json_object_set_new(noise, "sd", json_finite(res->noise.sd));
	json_object_set_new(noise, "df", json_real(res->noise.df));
	json_object_set_new(noise, "commits",
			    json_integer((json_int_t)res->noise.commits));
	json_object_set_new(o, "noise", noise);
	return o;
}

/* The shas of the commits sg->c[idx[0..n)] */
static json_t *shas_json(const struct suggestion *sg, const size_t *idx,
			 size_t n)
{
	json_t *arr = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(arr, json_string(sg->c[idx[i]].sha));
	return arr;
}

static int suggest_json(const struct bseries *s, const struct bisect_args *a,
			const struct bisect_result *res,
			const struct suggestion *sg,
			const struct commit_row *good,
			const struct commit_row *bad)
{
	const struct bisect_point *gp = &res->points[0];
	const struct bisect_point *bp = &res->points[res->nr - 1];
	json_t *o = series_json(s, a, res), *arr;
	double pct = change_pct(gp, bp);
	size_t i;

	json_object_set_new(o, "given_good", json_string(good->sha));
	json_object_set_new(o, "given_bad", json_string(bad->sha));
	json_object_set_new(o, "change_pct", json_finite(pct));
	json_object_set_new(o, "p", json_finite(res->p));
	json_object_set_new(o, "verdict",
			    json_string(direction_verdict(s->direction, pct)));
	json_object_set_new(o, "good", json_string(sg->c[sg->lg].sha));
	json_object_set_new(o, "bad", json_string(sg->c[sg->fb].sha));
	json_object_set_new(o, "found",
			    json_boolean(sg->next == SIZE_MAX && !sg->nb));
	json_object_set_new(o, "next", sg->next == SIZE_MAX ? json_null() :
			    json_string(sg->c[sg->next].sha));
	json_object_set_new(o, "next_is_retest",
			    json_boolean(sg->next != SIZE_MAX &&
					 sg->point_of[sg->next]));
	json_object_set_new(o, "untested_between",
			    json_integer((json_int_t)sg->nu));
	arr = json_array();
	for (i = sg->lg + 1; i <= sg->fb; i++)
		json_array_append_new(arr, json_string(sg->c[i].sha));
	json_object_set_new(o, "candidates", arr);
	json_object_set_new(o, "undecided", shas_json(sg, sg->unknown, sg->nk));
	json_object_set_new(o, "between", shas_json(sg, sg->between, sg->nb));
	json_object_set_new(o, "conflicts",
			    json_integer((json_int_t)res->conflicts));
	arr = json_array();
	for (i = 0; i < sg->nc; i++)
		if (sg->point_of[i])
			json_array_append_new(arr, point_json(&sg->c[i],
				&res->points[sg->point_of[i] - 1]));
	json_object_set_new(o, "commits", arr);
	arr = json_array();
	git_commands(res, sg, good, bad, arr, NULL);
	json_object_set_new(o, "git", arr);
	return print_json_steal(o) ? EXIT_ENV : EXIT_OK;
}

/* One tested commit's row of suggest's table. */
static void point_text(struct table *t, const struct commit_row *c,
		       const struct bisect_point *p)
{
	char buf[13];

	table_addf(t, "%ld", c->position);
	table_addf(t, "%s", sha12(c->sha, buf));
	table_addf(t, "%zu", p->n);
	table_addf(t, "%.6g", p->mean);
	if (p->n > 1)
		table_addf(t, "%.4g", p->sd);
	else
		table_addf(t, "-");
	table_addf(t, "%.2g", p->cls.p_good);
	table_addf(t, "%.2g", p->cls.p_bad);
	if (p->cls.verdict == BISECT_UNKNOWN && p->cls.more_runs > 0)
		table_addf(t, "unknown: %ld more run%s", p->cls.more_runs,
			   p->cls.more_runs == 1 ? "" : "s");
	else if (p->cls.verdict == BISECT_UNKNOWN)
		table_addf(t, "unknown: more runs here and at good and bad");
	else
		table_addf(t, "%s", bisect_verdict_name(p->cls.verdict));
	table_addf(t, "%s", c->subject);
}

/* The tested commits of the range, a row each. */
static void points_text(const struct bisect_result *res,
			const struct suggestion *sg, FILE *f)
{
	struct table t;
	size_t i;

	table_init(&t, 9, 0x7cul);
	table_addf(&t, "POS");
	table_addf(&t, "COMMIT");
	table_addf(&t, "N");
	table_addf(&t, "MEAN");
	table_addf(&t, "SD(n-1)");
	table_addf(&t, "P(GOOD)");
	table_addf(&t, "P(BAD)");
	table_addf(&t, "VERDICT");
	table_addf(&t, "SUBJECT");
	for (i = 0; i < sg->nc; i++)
		if (sg->point_of[i])
			point_text(&t, &sg->c[i],
				   &res->points[sg->point_of[i] - 1]);
	table_print(&t, f);
	table_release(&t);
	fputc('\n', f);
}

/* Where the narrowing stands: found, stuck between, or what is next. */
static void narrowing_text(const struct suggestion *sg, FILE *f)
{
	const struct commit_row *lg = &sg->c[sg->lg], *fb = &sg->c[sg->fb];
	const struct commit_row *next;
	char b1[13], b2[13];

	if (sg->next == SIZE_MAX && !sg->nb) {
		fprintf(f, "first bad commit: %s (position %ld) %s\n",
			fb->sha, fb->position, fb->subject);
		fprintf(f, "last good commit: %s (position %ld) %s\n",
			lg->sha, lg->position, lg->subject);
		return;
	}
	if (sg->next == SIZE_MAX) {
		fprintf(f, "no commit is left to test, but %zu between the "
			"last good %s (position %ld) and the first bad %s "
			"(position %ld) %s at a level between good's and "
			"bad's: the change came in more than one step, or "
			"depends on something else\n", sg->nb,
			sha12(lg->sha, b1), lg->position, sha12(fb->sha, b2),
			fb->position, sg->nb == 1 ? "is" : "are");
		return;
	}
	fprintf(f, "range: after %s (position %ld, good) up to %s "
		"(position %ld, bad): %zu candidate%s, %zu untested, "
		"%zu unknown, %zu between\n", sha12(lg->sha, b1),
		lg->position, sha12(fb->sha, b2), fb->position,
		sg->fb - sg->lg, sg->fb - sg->lg == 1 ? "" : "s", sg->nu,
		sg->nk, sg->nb);
	next = &sg->c[sg->next];
	if (!sg->point_of[sg->next])
		fprintf(f, "next: test %s (position %ld), the middle of the "
			"%zu untested: %s\n", next->sha, next->position,
			sg->nu, next->subject);
	else
		fprintf(f, "next: run %s (position %ld) again, it is "
			"unknown: %s\n", next->sha, next->position,
			next->subject);
}

static void suggest_text(const struct bseries *s, const struct bisect_args *a,
			 const struct bisect_result *res,
			 const struct suggestion *sg,
			 const struct commit_row *good,
			 const struct commit_row *bad, FILE *f)
{
	const struct bisect_point *gp = &res->points[0];
	const struct bisect_point *bp = &res->points[res->nr - 1];
	double pct = change_pct(gp, bp);
	char b1[13], b2[13];

	fputs("bisect: ", f);
	series_name(s->r, f);
	fprintf(f, " (%s%s%s is better)\n", s->r->unit ? s->r->unit : "",
		s->r->unit ? ", " : "", direction_name(s->direction));
	fprintf(f, "good %s: mean %.6g (n=%zu); bad %s: mean %.6g (n=%zu): "
		"%+.2f%% %s, p %.2g\n", sha12(good->sha, b1), gp->mean, gp->n,
		sha12(bad->sha, b2), bp->mean, bp->n, pct,
		direction_verdict(s->direction, pct), res->p);
	fprintf(f, "Student's t against good and bad, alpha %g; noise: pooled "
		"within-commit sd(n-1) %.4g, %g df from %zu commits\n\n",
		a->alpha, res->noise.sd, res->noise.df, res->noise.commits);
	points_text(res, sg, f);
	if (res->conflicts)
		fprintf(f, "warning: %zu commit%s after the first bad one "
			"like good: a second change in the range, or noise; "
			"the range below follows the first bad commit\n",
			res->conflicts, res->conflicts == 1 ? " is" : "s are");
	narrowing_text(sg, f);
	fputs("git commands that reproduce this narrowing:\n", f);
	git_commands(res, sg, good, bad, NULL, f);
}

/* What both subcommands read: the commits, the series, its verdicts. */
struct bisection {
	struct commit_row good, bad;
	struct history_row *rows;
	size_t nr;
	struct bseries s;
	struct bisect_result res;
};

static int bisection_open(struct db *db, const struct bisect_args *a,
			  struct bisection *b)
{
	int status = load(db, a, &b->good, &b->bad, &b->rows, &b->nr, &b->s);

	return status ? status : classify(&b->s, a, &b->good, &b->bad,
					  &b->res);
}

static void bisection_release(struct bisection *b)
{
	bisect_result_release(&b->res);
	free(b->s.x);
	free(b->s.g);
	history_rows_free(b->rows, b->nr);
	commit_row_release(&b->good);
	commit_row_release(&b->bad);
}

static int bisect_suggest(int argc, const char **argv,
			  struct perfsift_ctx *ctx)
{
	struct bisection b = { 0 };
	struct suggestion sg = { 0 };
	struct bisect_args a;
	struct db *db;
	int status;

	if (parse_args(argc, argv, &a, NULL, &status))
		return status;
	db = cmd_db(ctx);
	if (!db)
		return EXIT_ENV;
	status = bisection_open(db, &a, &b);
	if (!status && suggest_build(db, &b.res, &b.good, &b.bad, &sg))
		status = EXIT_ENV;
	if (!status && a.json)
		status = suggest_json(&b.s, &a, &b.res, &sg, &b.good, &b.bad);
	else if (!status)
		suggest_text(&b.s, &a, &b.res, &sg, &b.good, &b.bad, stdout);
	suggestion_release(&sg);
	bisection_release(&b);
	return status;
}

/* One line for judge: the verdict and why; its exit status. */
static int judge_print(const struct bisection *b, const struct commit_row *c,
		       const struct bisect_point *p)
{
	static const int code[] = { 0, 1, 125, 125 };
	char buf[13];

	printf("%s: %s: mean %.6g (n=%zu); good %.6g, bad %.6g; p against "
	       "good %.2g, against bad %.2g", sha12(c->sha, buf),
	       bisect_verdict_name(p->cls.verdict), p->mean, p->n,
	       b->res.points[0].mean, b->res.points[b->res.nr - 1].mean,
	       p->cls.p_good, p->cls.p_bad);
	if (p->cls.verdict == BISECT_UNKNOWN && p->cls.more_runs > 0)
		printf("; %ld more run%s needed", p->cls.more_runs,
		       p->cls.more_runs == 1 ? "" : "s");
	else if (p->cls.verdict == BISECT_UNKNOWN)
		printf("; more runs needed here and at good and bad");
	putchar('\n');
	return code[p->cls.verdict];
}

/* judge: COMMIT's verdict; any other status than 0, 1, 125 becomes 128 */
static int judge(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct bisection b = { 0 };
	struct commit_row c = { 0 };
	struct bisect_args a;
	const char *commit;
	struct db *db;
	char buf[13];
	size_t i;
	int status, r;

	if (parse_args(argc, argv, &a, &commit, &status))
		return status == EXIT_OK ? EXIT_OK : 128;
	db = cmd_db(ctx);
	if (!db)
		return 128;
	status = bisection_open(db, &a, &b);
	if (status)
		goto out;
	r = commits_resolve(db, commit, &c);
	if (r) {
		status = r == -2 ? EXIT_ENV : EXIT_USAGE;
		goto out;
	}
	if (c.position < b.good.position || c.position > b.bad.position) {
		error("%s (position %ld) is not between good (position %ld) "
		      "and bad (position %ld) in the recorded order",
		      sha12(c.sha, buf), c.position, b.good.position,
		      b.bad.position);
		status = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < b.res.nr && (long)b.res.points[i].group != c.position;
	     i++)
		;
	if (i == b.res.nr) {
		error("no run of %s at %s: import the benchmark's result with "
		      "--commit %s", b.s.r->metric, sha12(c.sha, buf), c.sha);
		status = EXIT_BADINPUT;
		goto out;
	}
	status = judge_print(&b, &c, &b.res.points[i]);
out:
	bisection_release(&b);
	commit_row_release(&c);
	if (status != 0 && status != 1 && status != 125)
		status = 128;
	return status;
}

int cmd_bisect(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	if (argc >= 2 && !strcmp(argv[1], "suggest"))
		return bisect_suggest(argc - 1, argv + 1, ctx);
	if (argc >= 2 && !strcmp(argv[1], "judge"))
		return judge(argc - 1, argv + 1, ctx);
	if (parse_options_help(argc, argv, &bisect_options))
		return EXIT_OK;
	if (argc < 2)
		return usage_error(&bisect_options, "a subcommand is needed: "
				   "suggest or judge");
	return usage_error(&bisect_options, "unknown subcommand '%s'",
			   argv[1]);
}
