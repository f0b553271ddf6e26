/*
 * Allocation wrappers that die on out-of-memory (git's wrapper.c).
 */
#include "core/compat.h"

static void __attribute__((noreturn)) oom(size_t size)
{
	fprintf(stderr, "perfsift: fatal: out of memory allocating %zu bytes\n",
		size);
	exit(4);
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
