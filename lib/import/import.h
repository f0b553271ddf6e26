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
struct import_item;
struct import_pipe;
struct pipe_entry;

struct import_opts {
	const char *format;		/* NULL: detect */
	struct import_overrides ovr;
	int dry_run;			/* parse and roll back */
	int strict;			/* a row that cannot be read refuses
					 * its result (--strict) */
	int replace;			/* a directory's re-import replaces
					 * its earlier import even with
					 * fewer samples (--replace) */
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
	/*
	 * The pipeline over the items the caller imports with these
	 * options, in order (import_pipe_start()), or NULL.
	 */
	struct import_pipe *pipe;
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
	long tables;		/* tables read from text */
	char tables_text[160];	/* their rows: "12 rows, 6 rows (1 skipped)" */
	int replaced;		/* an earlier import of this directory was
				 * replaced by this one */
	int message;		/* > 0: the message's number in its file */
	const char *message_id;	/* borrowed; the message's Message-ID */
	long messages;		/* a mail file: messages read */
	const char *skip_kind;	/* skipped as no regular file: "a FIFO" */
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

/*
 * The import pipeline (pipe.c): the items' files whose importer needs
 * nothing back from the database (IMP_RECORDED) are parsed on a thread
 * of their own ahead of the caller's loop, which must then call
 * import_item() on items[0..nr) in order with o->pipe set to the result,
 * and import_pipe_stop() after (also when it stops early).  The results,
 * the rows and the messages are those of the loop without it.  NULL: no
 * such file, or no threads (PERFSIFT_THREADS=1).
 */
struct import_pipe *import_pipe_start(struct db *db,
				      const struct import_opts *o,
				      const struct import_item *items,
				      size_t nr);
void import_pipe_stop(struct import_pipe *p);
/* How many of the items taken so far were parsed ahead (recorded). */
size_t import_pipe_recorded(const struct import_pipe *p);

/* The driver's side of the pipeline (import.c and pipe.c only). */
/* item's recorded calls, or NULL: import it as without the pipeline */
struct pipe_entry *import_pipe_take(struct import_pipe *p,
				    const struct import_item *item);
/* The next chunk of e's calls (1, with *buf to free), or 0 at the end. */
int import_pipe_next(struct import_pipe *p, struct pipe_entry *e,
		     char **buf, size_t *len);
const struct importer *import_pipe_importer(const struct pipe_entry *e,
					    int64_t *file_size);
/* After the last chunk: the content's hash, or -1 (the parse failed). */
int import_pipe_result(const struct pipe_entry *e, char hex[65],
		       uint64_t *size);

#endif
