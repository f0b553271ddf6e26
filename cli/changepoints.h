#ifndef CHANGEPOINTS_H
#define CHANGEPOINTS_H
/*
 * What perfsift changepoints and perfsift trend share
 * (cmd-changepoints.c): their options and description, and the walk
 * over a metric's history in commit order, a series per testcase,
 * params and machine, each with its change points.
 */
#include "stats/changepoint.h"
#include "store/query.h"
#include "cmd.h"

/* One series: rows r[0..nr) of the history, one row key. */
struct cp_series {
	const struct history_row *r;	/* borrowed */
	size_t nr;
	int direction;
	size_t window;		/* --window: 0 = the whole series */
	struct cp_result cp;
};

/* What a command prints of each series. */
struct cp_output {
	void (*text)(const struct cp_series *s, FILE *f);
	/* more members of the series' JSON object; NULL: none */
	void (*json)(const struct cp_series *s, struct json_t *o);
};

/* --max-pvalue and --min-change into T's cpo and min_pct */
#define OPT_CP_TESTS(T, cpo, min_pct) \
	OPT_DOUBLE_OPEN("max-pvalue", T, cpo.max_pvalue, "P", \
			"a change point's t-test must give p < P\n" \
			"(default 0.001, Otava's)", 0, 1, "a number in (0, 1)"), \
	OPT_MIN_CHANGE(T, min_pct, "and a change of the means of at least " \
		       "PCT %\n(default 0)")
/* --window N: 0, or at least two of the smallest segments (a size_t) */
int cp_opt_window(const struct opt *o, const char *arg, void *window);
/* A change point of s as changepoints' JSON object (new reference). */
struct json_t *cp_point_json(const struct cp_series *s,
			      const struct cp_point *p);

/* The options of both, and the description of both. */
extern const struct opt changepoints_opts[];
extern const char changepoints_description[];

/* "x_ops (ops/s, higher is better), testcase t, ..." and a newline */
void cp_series_title(const struct cp_series *s, FILE *f);
/* The 12 digits of sha that the tables show, into buf[13]. */
void cp_short_sha(char *buf, const char *sha);
/*
 * The change points of s into s->cp: windowed when s->window is not 0,
 * else over the whole series at once; 0, or -1 after error().
 */
int cp_series_detect(struct cp_series *s, const struct cp_options *cpo);
/* The commits of a series (its rows are in commit order). */
size_t cp_nr_commits(const struct cp_series *s);

/*
 * The command of c: parse argv, find the change points of each series
 * of --metric and print them as out says; an exit status.
 */
int changepoints_main(int argc, const char **argv, struct perfsift_ctx *ctx,
		      const struct cmd_options *c, const struct cp_output *out);

#endif
