#ifndef COMPAT_H
#define COMPAT_H
/*
 * Included first by every perfsift .c file: the system headers everyone
 * needs, the small macros git has in git-compat-util.h, and banned.h last.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "core/xalloc.h"
#include "core/err.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 1 in a build with AddressSanitizer (gcc's or clang's) or clang's
 * MemorySanitizer, else 0 */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/*
 * Grow p (of alloc elements) so that it holds at least nr; git's rule.
 * ALLOC_GROW_BIG: the same for an array of xalloc.h's big ones, which
 * FREE_BIG releases.
 */
#define ALLOC_GROW(p, nr, alloc) ALLOC_GROW_((p), (nr), (alloc), 0)
#define ALLOC_GROW_BIG(p, nr, alloc) ALLOC_GROW_((p), (nr), (alloc), 1)
#define ALLOC_GROW_(p, nr, alloc, big) \
	do { \
		if ((size_t)(nr) > (size_t)(alloc)) { \
			size_t alloc_grow_n_ = (size_t)(alloc) * 2 + 16; \
			if (alloc_grow_n_ < (size_t)(nr)) \
				alloc_grow_n_ = (size_t)(nr); \
			(p) = (big) ? xrealloc_big((p), (size_t)(alloc) * \
						   sizeof(*(p)), \
						   alloc_grow_n_ * \
						   sizeof(*(p))) \
				    : xrealloc((p), alloc_grow_n_ * \
						    sizeof(*(p))); \
			(alloc) = alloc_grow_n_; \
		} \
	} while (0)
#define FREE_BIG(p, alloc) free_big((p), (size_t)(alloc) * sizeof(*(p)))

#define UNUSED __attribute__((unused))

/* qsort() of nothing may pass NULL, which is undefined: git's QSORT. */
static inline void sane_qsort(void *base, size_t nmemb, size_t size,
			      int (*compar)(const void *, const void *))
{
	if (nmemb > 1)
		qsort(base, nmemb, size, compar);
}
#define QSORT(base, n, compar) sane_qsort((base), (n), sizeof(*(base)), (compar))

#include "core/banned.h"
#endif
