#ifndef IMPORTER_H
#define IMPORTER_H
/*
 * How an importer plugs in: one file in importers/ and one row in the
 * table of registry.c.
 *
 * detect() looks only at the first bytes of the content (gunzipped) and
 * returns a score 0..100 (0 = not mine); it has no side effects.
 * parse() reads the whole input through struct input, writes rows with
 * db_emit_*() and returns 0, or -1 after error("path:line: ...").  The
 * driver wraps each file in one transaction and rolls back on -1, so a
 * parser may stop at the first error without cleaning up.
 */
#include <stddef.h>
#include "store/db.h"
#include "core/input.h"

struct importer {
	const char *name;	/* the --format value */
	const char *what;	/* one line for `perfsift help import` */
	int (*detect)(const char *path, const char *head, size_t len);
	int (*parse)(struct import_ctx *ctx, struct input *in);
};

/* All importers, sorted by name; *nr receives the count. */
const struct importer *importer_list(size_t *nr);
/* By --format name, or NULL. */
const struct importer *importer_find(const char *name);
/* The best-scoring importer for this head, or NULL if none scores > 0. */
const struct importer *importer_detect(const char *path, const char *head,
				       size_t len);

/* The importers (one file each). */
int csv_detect(const char *path, const char *head, size_t len);
int csv_parse(struct import_ctx *ctx, struct input *in);
int fio_detect(const char *path, const char *head, size_t len);
int fio_parse(struct import_ctx *ctx, struct input *in);

#endif
