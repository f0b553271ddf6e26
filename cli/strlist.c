/*
 * The lists of repeatable options (see strlist.h).
 */
#include "core/compat.h"
#include "store/query.h"
#include "strlist.h"

void strlist_add(struct strlist *l, const char *s)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = s;
}

void strlist_release(struct strlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
