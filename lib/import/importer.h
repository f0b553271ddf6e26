#ifndef IMPORTER_H
#define IMPORTER_H
/*
 * How a format plugs in: one file in its family's folder of importers/
 * (importers/fio/fio-log.c) defining its struct importer with designated
 * initializers, and one row in importers/formats.c's table.  The program
 * hands that table to the engine (importer_use()), which reads it
 * through importer_list() and never by name.
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

/*
 * What an importer can do.  The driver acts on IMP_FILES and IMP_DIRS
 * (what it offers the importer), never on names; the others say what
 * the format yields, and `perfsift help import` lists them.
 */
enum importer_flags {
	IMP_FILES = 1 << 0,	/* claims files: detect() + parse() */
	IMP_DIRS = 1 << 1,	/* claims a directory as one result:
				 * detect_dir() + parse_dir() */
	IMP_VARIANTS = 1 << 2,	/* one input may hold several variants */
	IMP_SAMPLES = 1 << 3,	/* yields per-run samples */
	IMP_AGGREGATES = 1 << 4,	/* yields summaries as printed */
	IMP_SERIES = 1 << 5,	/* yields time series */
	IMP_TREES = 1 << 6,	/* claims a tree whose results are spread over
				 * its subdirectories: tree_parts() +
				 * tree_members() + parse_dir() */
	IMP_RECORDED = 1 << 7,	/* parse() calls only db_emit_sample(),
				 * _series(), _run(), _histogram() and
				 * db_warn(), and reads nothing but its input:
				 * it may run ahead on the import pipeline's
				 * thread, recorded (store/emitlog.h) */
	IMP_TEXT = 1 << 8,	/* parse() is its text parser over the file:
				 * the driver reads such a file as a text,
				 * with every text parser (text.c) */
	IMP_PART = 1 << 9,	/* not a format: the reader of one part of
				 * its family's trees (an MMTests benchmark's
				 * logs), found with importer_part(); .part is
				 * the family's own description of it */
};

/* A member of a directory result. */
struct member {
	const char *name;	/* the file's name in the directory without
				 * a ".gz" suffix: "X" for X, X.gz, or the
				 * two side by side (then read from X) */
	const char *path;	/* the file to open (X or X.gz) */
	int64_t size;		/* bytes on disk */
};

/* `perfsift help import`: the width of the column of format names. */
#define IMP_HELP_WIDTH 15

struct importer {
	const char *name;	/* the --format value */
	const char *family;	/* its folder in importers/: "fio", "lkp" */
	const char *what;	/* one line for `perfsift help import` */
	unsigned flags;		/* enum importer_flags */
	int (*detect)(const char *path, const char *head, size_t len);
	/*
	 * NULL for a text importer (IMP_TEXT): the engine feeds its text
	 * parser below (import_text_file()).
	 */
	int (*parse)(struct import_ctx *ctx, struct input *in);
	/*
	 * Directories: score 0..100 from the path and the names of the
	 * entries (members sorted by name); no file is opened.
	 */
	int (*detect_dir)(const char *dir, const struct member *m, size_t nr);
	/*
	 * Parse a claimed directory: emit runs and hand members to other
	 * importers with import_nested().  Members it does not read are
	 * counted as skipped.  0 or -1 after error().
	 */
	int (*parse_dir)(struct import_ctx *ctx, const char *dir,
			 const struct member *m, size_t nr);
	/*
	 * Text importers (tables people paste into mail): the parser fed
	 * one decoded line at a time, so that each message of an mbox or
	 * .eml feeds the same code as a plain file.  Every text importer
	 * reads every text (unless --format names one): a parser says
	 * nothing of lines it does not know.  text_new() makes it (NULL:
	 * no such parser); text_line() takes a line, its quote prefix
	 * ("> > ") stripped and counted in depth, format=flowed pieces
	 * joined (0 or -1 after error(); a row it cannot read is
	 * db_skip_row()); text_end() frees it, after the end-of-text checks
	 * when finish is 1 (0 or -1).
	 */
	void *(*text_new)(struct import_ctx *ctx);
	int (*text_line)(void *p, const char *line, long lineno, int depth);
	int (*text_end)(void *p, int finish);
	/*
	 * Trees (an MMTests run, work/log/<run>/iter-N/<test>/logs/...):
	 * tree_parts() scores dir 0..100 (0 = not mine; it may list
	 * directories and stat files, not read them) and names each result
	 * in it with add() (an MMTests run: one per test); tree_members()
	 * names the files of one part with add(name, path): name relative
	 * to dir without ".gz", path the file to open.  parse_dir() then
	 * gets those members, sorted by name, with ctx->part set.  Both 0,
	 * or -1 after error().
	 */
	int (*tree_parts)(const char *dir, void (*add)(void *, const char *),
			  void *data);
	int (*tree_members)(const char *dir, const char *part,
			    void (*add)(void *, const char *name,
					const char *path),
			    void *data);
	/*
	 * The members of an lkp run directory it reads (lkp's names for
	 * its monitors and outputs: "proc-vmstat", "fio.output"; NULL-
	 * terminated), handed to it by lkp-tree: always when it yields
	 * series, else only without stats.json, which holds the numbers.
	 */
	const char *const *lkp_names;
	/*
	 * What `perfsift help import` says of it after its line, or NULL;
	 * its lines are indented as the help's, the names' column
	 * IMP_HELP_WIDTH wide after four blanks.
	 */
	void (*help)(FILE *f);
	/*
	 * `perfsift debug FAMILY-extract [--part NAME] DIR`: print what the
	 * importer reads of one part of a tree (NULL: the directory's
	 * name), one value a line; 0 or -1 after error().  NULL: none.
	 */
	int (*extract)(const char *dir, const char *part, FILE *out);
	/* IMP_PART: what its family's tree importer knows it by. */
	const void *part;
};

/*
 * The table the engine reads: every format and every part (IMP_PART),
 * sorted by name; set once, before any import.  The program passes
 * importers/formats.c's, so that the engine, below the formats, takes
 * nothing from them by name.
 */
void importer_use(const struct importer *const *table, size_t nr);

/*
 * Every line of in through imp's text parser (text_new / text_line /
 * text_end): the parse() of a text importer, and a file's prose for one
 * that reads other files itself (codesize).  0 or -1 after error().
 */
int import_text_file(struct import_ctx *ctx, struct input *in,
		     const struct importer *imp);

/* All formats (no IMP_PART), sorted by name; *nr receives the count. */
const struct importer *const *importer_list(size_t *nr);
/* All parts (IMP_PART) of every family, sorted by name. */
const struct importer *const *importer_parts(size_t *nr);
/* A format by its --format name, or NULL. */
const struct importer *importer_find(const char *name);
/* The part of family called name, or NULL. */
const struct importer *importer_part(const char *family, const char *name);
/* The best-scoring importer for this head, or NULL if none scores > 0. */
const struct importer *importer_detect(const char *path, const char *head,
				       size_t len);
/*
 * The importer of a file with this head, as the import driver takes it:
 * --format's (format non-NULL), or the best-scoring one.  NULL for mail
 * (an mbox or .eml, unless --format names a format that does not read
 * text), an empty head, a format not known, or --format naming an
 * importer of directories.  Says nothing: the driver says why.
 */
const struct importer *importer_pick(const char *format, const char *path,
				     const char *head, size_t len);
/* The best-scoring directory importer, or NULL if none scores > 0. */
const struct importer *importer_detect_dir(const char *dir,
					   const struct member *m, size_t nr);

/*
 * Parse one member of the directory result being imported with the
 * named importer (NULL: detect from its first bytes) into ctx: its rows
 * land in the current run, its errors name the member's path and line,
 * and it becomes the provenance of those rows.  Returns 0, 1 when no
 * importer knows the member (skipped, counted), or -1 after error().
 */
int import_nested(struct import_ctx *ctx, const char *format,
		  const struct member *m);
/*
 * Open a member that the directory importer reads itself (job.yaml,
 * stats.json): it is no longer counted as skipped, and it becomes the
 * provenance of the rows that follow.  Close with import_close_member(),
 * which keeps its content hash for the directory's (no second read).
 * Both return 0 or -1 after error().
 */
int import_open_member(struct import_ctx *ctx, const struct member *m,
		       struct input *in);
int import_close_member(struct import_ctx *ctx, const struct member *m,
			struct input *in);
/*
 * The member list holds regular files only, so a member an importer
 * reads by name that is something else (a directory, a FIFO, a link to
 * /dev/zero) would be silently absent and its result imported emptier
 * than it is.  member_check(): 0 if dir/name and dir/name.gz are each
 * absent or a regular file, else -1 after error() naming it ("path: not
 * a regular file: a FIFO", "path: cannot read: ...").  member_present():
 * 1 if either is there as anything at all (for detect_dir(), which
 * then claims the directory so that parse_dir() can say what is wrong).
 */
int member_check(const char *dir, const char *name);
int member_present(const char *dir, const char *name);
/* What a file of that mode is, for a message: "a FIFO", "a directory". */
const char *member_kind(mode_t mode);

#include <stdio.h>

#endif
