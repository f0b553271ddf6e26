#ifndef EMITLOG_H
#define EMITLOG_H
/*
 * An import recorded instead of written: a parser on a thread of its own
 * (the import pipeline, lib/import/pipe.c) gets an import_ctx whose log
 * is set, and its db_emit_sample(), db_emit_series(), db_emit_run(),
 * db_emit_histogram() and db_warn() calls, and its error() and warning()
 * messages, are appended to the log in order instead of touching the
 * database or stderr.  The connection's thread then replays the log
 * through the same calls (db_replay()), so the rows, the ids, the
 * counters and the messages are those of the parser calling them itself:
 * a call that fails stops the replay where the parser would have
 * stopped, and nothing recorded after it is printed.
 *
 * Any other db_* call of an import while it records is a BUG: only an
 * importer that needs nothing back from the database may be recorded
 * (IMP_RECORDED).
 */
#include <stddef.h>
#include "core/sbuf.h"
#include "store/db.h"

/* bytes of ops handed over at a time */
#define EMIT_LOG_CHUNK (64u << 10)

struct emit_log {
	struct sbuf buf;	/* the ops not handed over yet */
	/* called when buf holds EMIT_LOG_CHUNK bytes or more: takes them
	 * (sbuf_detach()) or empties buf */
	void (*full)(struct emit_log *log, void *data);
	void *data;
};

/* kinds of a recorded message */
enum emit_msg {
	EMIT_ERROR,		/* error() */
	EMIT_WARNING,		/* warning() */
	EMIT_WARN_COUNTED,	/* db_warn(): counted in nr_warnings */
};

/* A message of the recording thread (err_divert()'s fn), as formatted. */
void emit_log_msg(struct emit_log *log, enum emit_msg kind, const char *msg);

/*
 * Replay len bytes of whole ops from a log into ctx (not recording): 0,
 * or -1 after the failing call's error().  Messages are printed as they
 * come.
 */
int db_replay(struct import_ctx *ctx, const char *p, size_t len);

/* emit.c's recording side of its calls */
int emit_log_sample(struct emit_log *log, const char *metric,
		    const char *unit, double value, long line);
int emit_log_series(struct emit_log *log, const char *metric,
		    const char *unit, enum metric_kind kind, double t,
		    double value, long line);
int emit_log_run(struct emit_log *log, const struct run_desc *rd, long line);
int emit_log_histogram(struct emit_log *log, const char *metric,
		       const char *unit, const double *value,
		       const double *count, size_t n, long line);

#endif
