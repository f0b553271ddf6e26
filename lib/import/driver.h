#ifndef IMPORT_DRIVER_H
#define IMPORT_DRIVER_H
/*
 * Between the rooms of the import engine (lib/import/ only): the
 * members of a directory (walk.c), a result's end (result.c) and the
 * texts and mail (text.c).
 */
#include "import/import.h"
#include "import/importer.h"
#include "mail/mail.h"

/* The regular files of one directory, as members (see importer.h). */
struct member_list {
	struct member *m;	/* owned; name and path owned too */
	size_t nr, alloc;
};

/*
 * List the regular files directly in dir (hidden ones skipped), sorted
 * by member name; "X.gz" is named "X", and where X and X.gz both exist
 * they are one member, read from X.  Returns 0 or -1 after error().
 */
int member_list_read(const char *dir, struct member_list *l);
void member_list_release(struct member_list *l);
/* The members of a tree's part, sorted by name.  0 or -1 after error(). */
int member_list_of_part(const struct importer *imp, const char *dir,
			const char *part, struct member_list *l);

/*
 * End the import in ctx: write the last run's series, check there was
 * something ("no data found in this <what>") and, when it replaces an
 * earlier import that had old_samples samples (-1: it replaces none),
 * that it has as many, unless o->replace; commit (or roll back for a dry
 * run).  On any failure the transaction is rolled back.  Returns 0 or
 * -1.
 */
int import_finish(struct db *db, const struct import_opts *o,
		  struct import_ctx *ctx, const char *what, long old_samples,
		  struct import_result *res);

/*
 * A text that is not mail (a table pasted into a file), read as one
 * message without headers: its result is the file's.
 */
int import_text(struct db *db, const struct import_opts *o, const char *path,
		struct input *in, struct import_result *res);
/*
 * A mail file of this kind (mail_detect()): every message its own
 * result, reported through o->on_message; the file's result counts the
 * messages.  Its status is IMPORT_FAILED when a message failed (the
 * others are kept), SKIPPED when no message held a table.
 */
int import_mail(struct db *db, const struct import_opts *o, const char *path,
		struct input *in, int kind, struct import_result *res);
/*
 * Text worth handing to the text parsers when no importer knows it: no
 * NUL byte and few control characters in its first bytes.
 */
int looks_like_text(const char *head, size_t len);

#endif
