#ifndef JSONW_H
#define JSONW_H
/*
 * A streaming JSON writer for the large documents (compare --json over
 * thousands of rows): appends to an sbuf, indents like jansson's
 * JSON_INDENT(2), prints numbers with 15 significant digits through a
 * fast formatter, and non-finite numbers as null.  The caller writes the
 * sbuf out once.  For small documents jansson is used directly.
 */
#include <stddef.h>
#include "core/sbuf.h"

struct jsonw {
	struct sbuf *out;	/* borrowed */
	int depth;
	unsigned char has_items[64];	/* per depth: anything written yet */
	char kind[64];			/* per depth: '{' or '[' */
};

void jw_init(struct jsonw *w, struct sbuf *out);
/* key is NULL inside arrays and at the top level. */
void jw_object(struct jsonw *w, const char *key);
void jw_array(struct jsonw *w, const char *key);
void jw_end(struct jsonw *w);	/* closes the innermost object/array */
void jw_str(struct jsonw *w, const char *key, const char *s); /* NULL: null */
void jw_num(struct jsonw *w, const char *key, double v);	/* NAN: null */
void jw_int(struct jsonw *w, const char *key, long long v);
void jw_bool(struct jsonw *w, const char *key, int v);
void jw_null(struct jsonw *w, const char *key);

#endif
