#ifndef IMPORT_H
#define IMPORT_H
/*
 * The import driver: walks paths (directories recursively, "-" for
 * stdin), picks an importer per result and imports each result in its
 * own transaction: all of it or nothing.  A result is a file, or a
 * directory that a directory importer claims whole (an lkp run
 * directory): its members are read by that importer and the importers it
 * hands them to, and the import's hash covers them all.  Results are
 * reported one by one through the caller's loop.
 */
#include <stddef.h>
#include "store/db.h"

struct importer;
struct import_result;

struct import_opts {
	const char *format;		/* NULL: detect */
	struct import_overrides ovr;
	int dry_run;			/* parse and roll back */
	/*
	 * The variants seen under overrides, across the results of one
	 * command (owned by the caller, freed with free(); NULL slot: each
	 * result checked alone).  Overrides that would put two variants of
	 * the inputs into one row (same testcase, machine and params) are a
	 * usage error.
	 */
	char **first_variant;
	/*
	 * The database being written (NULL: none): a walk never lists it or
	 * its -wal and -shm files as inputs.
	 */
	const char *db_path;
	/*
	 * Mail (an mbox, an .eml): each message is its own result, given
	 * here as it is done (NULL: not reported); the file's own result
	 * then has messages > 0 and nothing else to count.
	 */
	void (*on_message)(const struct import_result *r, void *data);
	void *on_message_data;
};

enum import_status {
	IMPORT_OK,
	IMPORT_ALREADY,		/* same content imported before: nothing done */
	IMPORT_FAILED,		/* error printed; nothing kept */
	IMPORT_SKIPPED,		/* found by a walk, no importer knows it */
	IMPORT_USAGE,		/* error printed; nothing kept; exit 2 */
};

struct import_result {
	const char *path;	/* borrowed */
	const char *format;	/* borrowed; NULL if not detected */
	const char *part;	/* borrowed: the part of a tree, or NULL */
	enum import_status status;
	long runs, samples, aggregates, series, derived;
	long skipped;		/* members of a directory no importer read */
	long warnings;
	int replaced;		/* an earlier import of this directory was
				 * replaced by this one */
	int message;		/* > 0: the message's number in its file */
	const char *message_id;	/* borrowed; the message's Message-ID */
	long messages;		/* a mail file: messages read */
};

/* One thing to import, as import_expand() found it. */
struct import_item {
	char *path;		/* owned */
	int walked;		/* found inside a directory, not named */
	const struct importer *dir_imp;	/* a claimed directory, or NULL */
	char *part;		/* owned: the part of a claimed tree, or NULL */
};

/*
 * Expand paths into results to import: a directory that a directory
 * importer claims (or that --format names such an importer for) is one
 * result; other directories are walked recursively, entries sorted,
 * hidden ones skipped.  Unreadable paths are reported with error() and
 * counted in *nr_bad.  Returns a new array (import_items_free()).
 */
struct import_item *import_expand(const char *const *paths, size_t nr,
				  const struct import_opts *o, size_t *nr_items,
				  size_t *nr_bad);
void import_items_free(struct import_item *items, size_t nr);

/* Import one result.  Fills *res; returns 0 or -1. */
int import_item(struct db *db, const struct import_opts *o,
		const struct import_item *item, struct import_result *res);
/* Import one file named by the user (path "-" is stdin). */
int import_file(struct db *db, const struct import_opts *o, const char *path,
		struct import_result *res);

#endif
