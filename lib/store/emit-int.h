#ifndef EMIT_INT_H
#define EMIT_INT_H
/*
 * Inside the emit API (db.h): what its three files share.  emit.c writes
 * the rows of a run (runs, samples, series, histograms, aggregates) and
 * the warnings, tables and skipped rows of an import; emit-ids.c finds
 * or makes the variants and the metrics those rows name; emit-import.c
 * keeps the imports row, its format and meta, the statements every
 * import prepares, and the check of the text that goes into the
 * database.  emit.c calls the other two and emit-ids.c calls
 * emit-import.c; none calls back.
 */
#include "store/db.h"
#include "core/err.h"

/*
 * An import being recorded (emitlog.h) may not call this: checked before
 * anything reads ctx->db, which a recording has not
 */
#define NOT_RECORDING(ctx) do { \
	if ((ctx)->log) \
		BUG("%s() while an import records", __func__); \
} while (0)

static inline void bind_text_or_null(struct stmt *st, int i, const char *s)
{
	if (s && *s)
		stmt_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		stmt_bind_null(st, i);
}

static inline const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* emit-import.c */

/*
 * Text that goes into the database is valid UTF-8 without control
 * characters.  NULL passes.  Returns 0, or -1 after error() naming what
 * and where.
 */
int emit_check_text(struct import_ctx *ctx, long line, const char *what,
		    const char *s);

/* units.c */

/*
 * The factor from unit from to unit to (1.5 MiB/s * 1024 = 1536 KiB/s):
 * 0, or -1 when they are not two units of one quantity perfsift knows.
 */
int unit_convert(const char *from, const char *to, double *factor);
/*
 * Values of metric id (name) given in unit are stored times *factor, in
 * the metric's own unit; 1 with no unit or the same.  0, or -1 after
 * error() naming both units when they do not convert.
 */
int emit_unit_factor(struct import_ctx *ctx, int64_t id, const char *name,
		     const char *unit, long line, double *factor);

/* emit-ids.c */

/*
 * The id of metric name, found or made, with the unit and kind it is
 * given where the database lacks them.  0 or -1 after error().
 */
int emit_metric_id(struct import_ctx *ctx, const char *name,
		   const char *unit, enum metric_kind kind, long line,
		   int64_t *id);
/*
 * Find or make the variant of these columns (overrides applied, default
 * label: the kernel, else the commit's first digits), and check that
 * overrides merge nothing.  Sets *id; 0 or -1 after error().
 */
int emit_variant_id(struct import_ctx *ctx, const char *testcase,
		    const char *machine, const char *kernel,
		    const char *commit, const char *label,
		    const struct kv *params, size_t nr_params, long line,
		    int64_t *id);

#endif
