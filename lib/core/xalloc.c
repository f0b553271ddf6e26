/*
 * Allocation wrappers that die on out-of-memory (git's wrapper.c).
 */
#include "core/compat.h"

#include <malloc.h>
#include <sys/mman.h>

static void __attribute__((noreturn)) oom(size_t size)
{
	fprintf(stderr, "perfsift: fatal: out of memory allocating %zu bytes\n",
		size);
	exit(4);
}

/*
 * An analysis (compare) allocates and frees arrays of a few hundred kB
 * in turn, on two threads.  glibc maps each one of 128 kB or more anew
 * and unmaps it when freed, and returns the top of its heaps past 128
 * kB: every page is then faulted in again, and each unmap interrupts
 * the other core to flush its TLB.  Here they come from the heap and
 * stay there for the next one (the process is short-lived; its peak is
 * what it holds at once, the big arrays of xcalloc_big() aside).
 */
void xalloc_keep_freed(void)
{
	if (SANITIZED)
		return;
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
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

/* size bytes rounded up to whole huge pages, aligned to one, zeroed */
static void *map_huge(size_t size)
{
	size_t n = huge_round(size);
	char *p, *a;

	if (n < size || n + HUGE_PAGE < n)
		oom(size);
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
	return is_big(size) ? map_huge(size) : xcalloc(1, size);
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
	q = is_big(size) ? map_huge(size) : xmalloc(size);
	if (old)
		memcpy(q, p, old < size ? old : size);
	free_big(p, old);
	return q;
}

void free_big(void *p, size_t size)
{
	if (!p)
		return;
	if (is_big(size)) {
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
