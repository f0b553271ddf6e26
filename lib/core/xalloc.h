#ifndef XALLOC_H
#define XALLOC_H
/*
 * Allocation that cannot fail: on out-of-memory these print an error and
 * exit(4), so callers never check for NULL.  Everything they return is
 * owned by the caller and released with free().
 */
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
