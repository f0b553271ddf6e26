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

/* The options of both, and the description of both. */
extern const struct opt changepoints_opts[];
extern const char changepoints_description[];

/* "x_ops (ops/s, higher is better), testcase t, ..." and a newline */
void cp_series_title(const struct cp_series *s, FILE *f);
/* The 12 digits of sha that the tables show, into buf[13]. */
void cp_short_sha(char *buf, const char *sha);
/* The commits of a series (its rows are in commit order). */
size_t cp_nr_commits(const struct cp_series *s);

/*
 * The command of c: parse argv, find the change points of each series
 * of --metric and print them as out says; an exit status.
 */
int changepoints_main(int argc, const char **argv, struct perfsift_ctx *ctx,
		      const struct cmd_options *c, const struct cp_output *out);

#endif
