#ifndef FIO_JSON_H
#define FIO_JSON_H
/*
 * One fio job's JSON as a small tree, parsed without jansson: the fio
 * importer reads documents of thousands of jobs, and jansson's parse of
 * each job makes a malloc and a hash insert per value, more work than
 * the rest of the import does with the job.  The parser takes a subset of
 * JSON that jansson reads the same way, and refuses the rest (fj_parse()
 * returns -1): the caller then parses the bytes with jansson, which says
 * what is wrong or gives the tree (fj_from_json()), so jansson still
 * decides what is valid.
 *
 *   struct fj d = FJ_INIT;
 *   if (fj_parse(&d, text, len)) { v = json_loadb(...); fj_from_json(&d, v); }
 *   for (n = fj_first(&d, fj_get(&d, fj_root(&d), "read")); n;
 *        n = fj_next(&d, n))
 *           use fj_key(&d, n), fj_num(n) ...
 *   fj_release(&d);
 *
 * Accessors take NULL (a member that is absent) and then answer as
 * jansson's do: NULL, 0.  Nodes are valid until the next parse.
 */
#include <stdint.h>
#include <stddef.h>
#include <jansson.h>
#include "core/sbuf.h"

enum fj_type { FJ_OBJECT, FJ_ARRAY, FJ_STRING, FJ_NUMBER, FJ_TRUE, FJ_FALSE,
	       FJ_NULL };

struct fj_node {
	uint32_t type;		/* enum fj_type */
	uint32_t next;		/* the next member or element; 0 = none */
	uint32_t child;		/* object, array: the first; 0 = none */
	uint32_t key;		/* a member's key: offset in fj.text */
	uint32_t key_len;
	uint32_t key_hash;
	uint32_t str;		/* a string: offset in fj.text */
	double num;		/* a number, as json_number_value() */
};

struct fj {
	struct fj_node *node;	/* owned; node[0] is the root */
	size_t nr, alloc;
	struct sbuf text;	/* keys and strings, each ending in NUL */
	/*
	 * fio's options as given: an option repeated on fio's command line
	 * is printed twice, and fio ran with the last.  In an object named
	 * "job options" or "global options" (or the root, when the caller
	 * sets options_root before fj_parse()), a key given twice keeps its
	 * last value; repeats counts them and repeat_key (an offset in
	 * text) names the first.  Any other key given twice with another
	 * value is not in the subset.
	 */
	int options_root;
	uint32_t repeats, repeat_key;
};

#define FJ_INIT { NULL, 0, 0, SBUF_INIT, 0, 0, 0 }

void fj_release(struct fj *d);
/*
 * Parse one JSON value that fills text[0..len) exactly (blanks around it
 * allowed).  0, or -1 when it is not in the subset (invalid JSON among
 * them): parse it with jansson then.
 */
int fj_parse(struct fj *d, const char *text, size_t len);
/* The same tree from a jansson value (borrowed). */
void fj_from_json(struct fj *d, const json_t *v);

static inline const struct fj_node *fj_root(const struct fj *d)
{
	return d->nr ? &d->node[0] : NULL;
}

/* The member key of object obj (keys are unique in a tree), or NULL. */
const struct fj_node *fj_get(const struct fj *d, const struct fj_node *obj,
			     const char *key);

static inline const struct fj_node *fj_first(const struct fj *d,
					     const struct fj_node *v)
{
	return v && v->child ? &d->node[v->child] : NULL;
}

static inline const struct fj_node *fj_next(const struct fj *d,
					    const struct fj_node *v)
{
	return v->next ? &d->node[v->next] : NULL;
}

static inline const char *fj_key(const struct fj *d, const struct fj_node *v)
{
	return d->text.buf + v->key;
}

static inline int fj_is(const struct fj_node *v, enum fj_type t)
{
	return v && v->type == (uint32_t)t;
}

static inline double fj_num(const struct fj_node *v)
{
	return fj_is(v, FJ_NUMBER) ? v->num : 0;
}

static inline const char *fj_str(const struct fj *d, const struct fj_node *v)
{
	return fj_is(v, FJ_STRING) ? d->text.buf + v->str : NULL;
}

#endif
