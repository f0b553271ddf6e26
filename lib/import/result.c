/*
 * The end of one result: the last run's series written, the checks that
 * there was something and that --strict holds, the counters copied into
 * the result, and the commit (a rollback for a dry run or a failure).
 * Shared by the driver (import.c) and the texts and mail (text.c).
 */
#include "core/compat.h"
#include "store/emitlog.h"
#include "store/values.h"
#include "import/driver.h"

/*
 * What the text tables of ctx held, for the summary line: "12 rows, 6
 * rows (1 skipped)", one entry a table in input order, cut with "..."
 * when it would not fit.
 */
static void table_summary(struct import_result *res,
			  const struct import_ctx *ctx)
{
	size_t i, len = 0, cap = sizeof(res->tables_text);

	res->tables = (long)ctx->nr_tables;
	res->tables_text[0] = '\0';
	for (i = 0; i < ctx->nr_tables; i++) {
		const struct text_table *t = &ctx->tables[i];
		char one[64];
		int n;

		n = snprintf(one, sizeof(one), "%s%ld row%s", i ? ", " : "",
			     t->rows_read, t->rows_read == 1 ? "" : "s");
		if (t->rows_skipped)
			n += snprintf(one + n, sizeof(one) - (size_t)n,
				      " (%ld skipped)", t->rows_skipped);
		if (len + (size_t)n + 5 >= cap) {
			snprintf(res->tables_text + len, cap - len, ", ...");
			break;
		}
		memcpy(res->tables_text + len, one, (size_t)n + 1);
		len += (size_t)n;
	}
}

/* Copy the counters of a finished import into the result. */
static void fill_result(struct import_result *res,
			const struct import_ctx *ctx)
{
	res->runs = ctx->nr_runs;
	res->samples = ctx->nr_samples;
	res->aggregates = ctx->nr_aggregates;
	res->series = ctx->nr_series;
	res->derived = ctx->nr_derived;
	res->skipped = ctx->nr_skipped;
	res->warnings = ctx->nr_warnings;
	table_summary(res, ctx);
}

int import_finish(struct db *db, const struct import_opts *o,
		  struct import_ctx *ctx, const char *what, long old_samples,
		  struct import_result *res)
{
	long samples;

	if (db_end_run(ctx) || db_tables_flush(ctx))
		goto fail;
	if (ctx->strict && ctx->nr_warnings) {
		error("%s: %ld warning%s, and --strict: nothing imported",
		      ctx->path, ctx->nr_warnings,
		      ctx->nr_warnings == 1 ? "" : "s");
		goto fail;
	}
	if (!ctx->nr_runs && !ctx->nr_aggregates) {
		error("%s: no data found in this %s", ctx->path, what);
		goto fail;
	}
	/*
	 * A result that lost samples since it was imported (a stats.json
	 * emptied, gone, or its raw route read instead) would replace good
	 * numbers with fewer: kept, said, unless --replace asks for it.
	 */
	samples = ctx->nr_samples + ctx->nr_derived;
	if (old_samples > samples && !o->replace) {
		error("%s: %ld sample%s, fewer than the %ld of its earlier "
		      "import: the earlier import is kept (--replace "
		      "replaces it)", ctx->path, samples,
		      samples == 1 ? "" : "s", old_samples);
		goto fail;
	}
	if (ctx->nr_runs && db_pack_import(ctx))
		goto fail;
	fill_result(res, ctx);
	db_import_end(ctx);
	if (o->dry_run) {
		db_rollback(db);
	} else if (db_commit(db)) {
		db_rollback(db);
		return -1;
	}
	res->status = IMPORT_OK;
	return 0;
fail:
	db_import_end(ctx);
	db_rollback(db);
	return -1;
}
