/*
 * Allocation wrappers that die on out-of-memory (git's wrapper.c).
 */
#include "core/compat.h"

#include <malloc.h>
#include <pthread.h>
#include <sys/mman.h>

static void __attribute__((noreturn)) oom(size_t size)
{
	fprintf(stderr, "perfsift: fatal: out of memory allocating %zu bytes\n",
		size);
	exit(4);
}

/*
 * An analysis (compare, regressions) allocates and frees arrays of a
 * few hundred kB in turn, on two threads.  glibc maps each one of 128
 * kB or more anew and unmaps it when freed, and returns the top of its
 * heaps past 128 kB: every page is then faulted in again, and each
 * unmap interrupts the other core to flush its TLB.  Here they come
 * from the heap and stay there for the next one (the process is
 * short-lived; its peak is what it holds at once, the big arrays of
 * xcalloc_big() aside: of those, free_big() keeps a few, kept[]).
 */
static int keep_big;	/* free_big() keeps mappings (kept[]) */

void xalloc_keep_freed(void)
{
	if (SANITIZED)
		return;
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
	keep_big = 1;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);

	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size ? size : 1);

	if (!p)
		oom(size);
	return p;
}

#define BIG_MIN ((size_t)1 << 20)
#define HUGE_PAGE ((size_t)2 << 20)

static int is_big(size_t size)
{
	return !SANITIZED && size >= BIG_MIN;
}

static size_t huge_round(size_t size)
{
	return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

/*
 * The big arrays that xalloc_keep_freed() keeps: regressions makes one
 * comparison after another, each with the same few arrays of a few MB,
 * and faulted each in anew (the kernel zeroing and unmapping pages for a
 * tenth of its time).  free_big() keeps up to KEPT_MAX of them,
 * KEPT_BYTES in all; map_huge() takes back one of the size it needs
 * and zeroes it itself when its caller wants zeros.  A comparison's
 * rows' chunk (4 MiB), its range of samples (4) and their slab (2) are
 * 10 MiB: the room must hold all three of one comparison, or one of
 * them is faulted anew each time.
 */
#define KEPT_MAX 8
#define KEPT_BYTES ((size_t)16 << 20)
static struct kept {
	void *p;
	size_t n;
} kept[KEPT_MAX];
static size_t nr_kept, kept_bytes;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

/* A kept mapping of n bytes, or NULL. */
static void *take_kept(size_t n)
{
	void *p = NULL;
	size_t i;

	pthread_mutex_lock(&kept_lock);
	for (i = 0; i < nr_kept; i++)
		if (kept[i].n == n) {
			p = kept[i].p;
			kept[i] = kept[--nr_kept];
			kept_bytes -= n;
			break;
		}
	pthread_mutex_unlock(&kept_lock);
	return p;
}

/* Keep the mapping p of n bytes if there is room: 1 if kept. */
static int keep_mapping(void *p, size_t n)
{
	int ok;

	pthread_mutex_lock(&kept_lock);
	ok = nr_kept < KEPT_MAX && kept_bytes + n <= KEPT_BYTES;
	if (ok) {
		kept[nr_kept].p = p;
		kept[nr_kept++].n = n;
		kept_bytes += n;
	}
	pthread_mutex_unlock(&kept_lock);
	return ok;
}

/*
 * size bytes rounded up to whole huge pages, aligned to one; zeroed
 * when zero says so (a fresh mapping is zero anyway, a kept one is not:
 * xrealloc_big() copies over it and leaves the rest undefined).
 * *zeroed, when given: 1 if the bytes are zero.
 */
static void *map_huge(size_t size, int zero, int *zeroed)
{
	size_t n = huge_round(size);
	char *p, *a;

	if (n < size || n + HUGE_PAGE < n)
		oom(size);
	if (keep_big && (a = take_kept(n))) {
		if (zero)
			memset(a, 0, n);
		if (zeroed)
			*zeroed = zero;
		return a;
	}
	if (zeroed)
		*zeroed = 1;
	p = mmap(NULL, n + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		oom(size);
	/* the aligned n bytes kept, the slack either side returned */
	a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) &
		     ~(uintptr_t)(HUGE_PAGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + n, HUGE_PAGE - (size_t)(a - p));
	/* a hint: without THP (or with it off) these are small pages */
	(void)madvise(a, n, MADV_HUGEPAGE);
	return a;
}

void *xcalloc_big(size_t size)
{
	return is_big(size) ? map_huge(size, 1, NULL) : xcalloc(1, size);
}

void *xmalloc_big(size_t size, int *zeroed)
{
	if (is_big(size))
		return map_huge(size, 0, zeroed);
	if (zeroed)
		*zeroed = 0;
	return xmalloc(size);
}

void *xrealloc_big(void *p, size_t old, size_t size)
{
	void *q;

	if (!p)
		old = 0;
	if (!is_big(old) && !is_big(size))
		return xrealloc(p, size);
	if (is_big(old) && is_big(size) && huge_round(old) == huge_round(size))
		return p;
	q = xmalloc_big(size, NULL);
	if (old)
		memcpy(q, p, old < size ? old : size);
	free_big(p, old);
	return q;
}

void populate_big(void *p, size_t size)
{
	if (p && is_big(size))
		(void)madvise(p, huge_round(size), MADV_POPULATE_WRITE);
}

void free_big(void *p, size_t size)
{
	if (!p)
		return;
	if (is_big(size)) {
		/* map_huge()'s own are aligned to a huge page */
		if (keep_big && !((uintptr_t)p & (HUGE_PAGE - 1)) &&
		    keep_mapping(p, huge_round(size)))
			return;
		/* not page-aligned: malloc()'s, given to the wrong free */
		if (munmap(p, huge_round(size)))
			BUG("free_big() of %zu bytes not from xcalloc_big()",
			    size);
	} else
		free(p);
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap, ap2;
	int len;
	char *p;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	p = xmalloc((size_t)len + 1);
	vsnprintf(p, (size_t)len + 1, fmt, ap2);
	va_end(ap2);
	return p;
}
