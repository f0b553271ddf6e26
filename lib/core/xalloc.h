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
/*
 * Freed memory kept for reuse, big blocks from the heap, and a few big
 * arrays' mappings (free_big()) kept for the next xcalloc_big() of
 * their size: for compare and regressions, before they allocate
 * (xalloc.c says why).
 */
void xalloc_keep_freed(void);
/*
 * Arrays of a megabyte or more, on transparent huge pages where the
 * kernel gives them (madvise): one page fault for 2 MiB instead of 512.
 * Smaller ones, and every one in a sanitizer's build (so that it still
 * sees their bounds), are malloc()'s.  The caller keeps the size: it is
 * passed back to xrealloc_big() and free_big().
 *
 * xcalloc_big(): size bytes, zeroed.  xmalloc_big(): size bytes, zero
 * when they are fresh from the kernel (then *zeroed, if given, is 1),
 * else as a kept mapping was left (0): a caller that writes before it
 * reads, or zeroes only what it uses, saves zeroing the rest.
 * xrealloc_big(): the first min(old, size) bytes kept, the rest
 * undefined, p may be NULL (old 0).
 */
void *xcalloc_big(size_t size);
void *xmalloc_big(size_t size, int *zeroed);
void *xrealloc_big(void *p, size_t old, size_t size);
/*
 * Fault in the pages of p (from xcalloc_big() or xrealloc_big(), of size
 * bytes) without writing to them (MADV_POPULATE_WRITE): another thread
 * may be writing there already.  Nothing on a kernel before 5.14, or
 * for a small array.
 */
void populate_big(void *p, size_t size);
void free_big(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string; caller frees. */
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
