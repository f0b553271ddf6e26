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
#include <string.h>
#include "core/sbuf.h"

struct jsonw {
	struct sbuf *out;	/* borrowed */
	int depth;
	unsigned char has_items[64];	/* per depth: anything written yet */
	char kind[64];			/* per depth: '{' or '[' */
};

void jw_init(struct jsonw *w, struct sbuf *out);
/*
 * key: NULL inside arrays and at the top level, else a name written in
 * the source, which needs no escaping (a sanitizer's build checks it):
 * it is copied as it is.  The macros pass its length, which the compiler
 * knows for a literal (a document of 20,000 rows has 700,000 keys).
 */
static inline size_t jw_klen(const char *key)
{
	return key ? strlen(key) : 0;
}
#define jw_object(w, key) jw_object_n((w), (key), jw_klen(key))
#define jw_array(w, key) jw_array_n((w), (key), jw_klen(key))
#define jw_str(w, key, s) jw_str_n((w), (key), jw_klen(key), (s))
#define jw_num(w, key, v) jw_num_n((w), (key), jw_klen(key), (v))
#define jw_int(w, key, v) jw_int_n((w), (key), jw_klen(key), (v))
#define jw_bool(w, key, v) jw_bool_n((w), (key), jw_klen(key), (v))
#define jw_null(w, key) jw_null_n((w), (key), jw_klen(key))
void jw_object_n(struct jsonw *w, const char *key, size_t klen);
void jw_array_n(struct jsonw *w, const char *key, size_t klen);
void jw_end(struct jsonw *w);	/* closes the innermost object/array */
/* s NULL: null */
void jw_str_n(struct jsonw *w, const char *key, size_t klen, const char *s);
/* NAN: null */
void jw_num_n(struct jsonw *w, const char *key, size_t klen, double v);
void jw_int_n(struct jsonw *w, const char *key, size_t klen, long long v);
void jw_bool_n(struct jsonw *w, const char *key, size_t klen, int v);
void jw_null_n(struct jsonw *w, const char *key, size_t klen);

#endif
