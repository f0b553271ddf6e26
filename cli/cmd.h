#ifndef CMD_H
#define CMD_H
/*
 * The command table's contract: every command is one cmd-X.c file with
 * one entry point, called with its own argv (argv[0] = command name).
 * It returns an exit status (err.h enum exit_status).
 */
#include "store/db.h"
#include "parse-options.h"

struct perfsift_ctx {
	const char *db_path;	/* --db, $PERFSIFT_DB, or ./perfsift.db */
	struct db db;		/* opened by cmd_db(), closed by the hub */
};

/*
 * The database, opened (created, migrated) on first use; NULL after an
 * error message: the command returns EXIT_ENV.
 */
struct db *cmd_db(struct perfsift_ctx *ctx);
/*
 * May the command write its output to path?  Not when path is the
 * database or one of its -wal, -shm and -journal files (the same device
 * and inode: a link or another spelling of the name too).  0, or
 * EXIT_USAGE after error().
 */
int cmd_output_ok(const struct perfsift_ctx *ctx, const char *path);

int cmd_bisect(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_changepoints(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_commits(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_compare(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_debug(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_import(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_metrics(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_plot(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_push(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_report(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_regressions(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_runs(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_send(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_show(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_trend(int argc, const char **argv, struct perfsift_ctx *ctx);
int cmd_watch(int argc, const char **argv, struct perfsift_ctx *ctx);

/* `perfsift help import`: the formats, from the importer registry. */
void import_help_formats(FILE *f);

/* Each command's options and help (parse-options.h), for the hub. */
extern const struct cmd_options bisect_options, changepoints_options,
	commits_options, compare_options, debug_options, import_options,
	metrics_options, plot_options, push_options, regressions_options,
	report_options, runs_options, send_options, show_options,
	trend_options, watch_options;

/* Write a JSON value (stolen) to stdout, indented, with a newline. */
struct json_t;
int print_json_steal(struct json_t *v);
/* v as a JSON real, or null when it is not finite (NAN, infinite). */
struct json_t *json_finite(double v);
/* A run as the JSON object of SPEC §5.1 (new reference). */
struct run_row;
struct json_t *run_to_json(struct db *db, const struct run_row *r);
/*
 * The series of a history row (its metric, unit, direction, testcase,
 * params and machine) as a new JSON object (cmd-changepoints.c).
 */
struct history_row;
struct json_t *history_series_json(const struct history_row *r,
				   int direction);

/*
 * --from, --to, --cc and --smtp (NULL or empty: not given) over the
 * config's and environment's mail settings (report, watch).
 */
struct mail_settings;
struct strlist;
void mail_settings_flags(struct mail_settings *ms, const char *from,
			 const struct strlist *to, const struct strlist *cc,
			 const char *smtp);
#endif
