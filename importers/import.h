#ifndef IMPORT_H
#define IMPORT_H
/*
 * The import driver: walks paths (directories recursively, "-" for
 * stdin), picks an importer per file, and imports each file in its own
 * transaction: all of it or nothing.  Results are reported per file
 * through a callback so the command can print them as it goes.
 */
#include <stddef.h>
#include "store/db.h"

struct import_opts {
	const char *format;		/* NULL: detect */
	struct import_overrides ovr;
	int dry_run;			/* parse and roll back */
};

enum import_status {
	IMPORT_OK,
	IMPORT_ALREADY,		/* same content imported before: nothing done */
	IMPORT_FAILED,		/* error printed; nothing kept */
};

struct import_result {
	const char *path;	/* borrowed */
	const char *format;	/* borrowed; NULL if not detected */
	enum import_status status;
	long runs, samples, aggregates, series;
};

typedef void (*import_report_fn)(const struct import_result *r, size_t done,
				 size_t total, void *data);

/*
 * Expand paths into the list of files to import (directories walked
 * recursively, entries sorted; hidden files skipped).  Unreadable paths
 * are reported with error() and counted in *nr_bad.  Returns a new array
 * of new strings (caller frees both).
 */
char **import_expand(const char *const *paths, size_t nr, size_t *nr_files,
		     size_t *nr_bad);

/* Import one file (path "-" is stdin).  Fills *res; returns 0 or -1. */
int import_file(struct db *db, const struct import_opts *o, const char *path,
		struct import_result *res);

#endif
