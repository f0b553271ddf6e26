/*
 * Open-addressing map of int64 pairs (see pairmap.h), linear probing.
 */
#include "core/compat.h"
#include "core/err.h"
#include "core/pairmap.h"
#include "core/xalloc.h"

/* splitmix64's finalizer over both halves: the low bits of the slot */
static uint64_t mix(int64_t a, int64_t b)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL ^ (uint64_t)b;

	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static struct pairmap_entry *find(const struct pairmap *m, int64_t a,
				  int64_t b)
{
	size_t mask = m->alloc - 1, i = (size_t)mix(a, b) & mask;

	for (;; i = (i + 1) & mask) {
		struct pairmap_entry *e = &m->slots[i];

		if (e->a < 0 || (e->a == a && e->b == b))
			return e;
	}
}

int pairmap_get(const struct pairmap *m, int64_t a, int64_t b,
		int64_t *value)
{
	const struct pairmap_entry *e;

	if (!m->alloc || a < 0)
		return 0;
	e = find(m, a, b);
	if (e->a < 0)
		return 0;
	*value = e->value;
	return 1;
}

static void grow(struct pairmap *m)
{
	struct pairmap old = *m;
	size_t i;

	m->alloc = old.alloc ? old.alloc * 2 : 64;
	m->slots = xmalloc(m->alloc * sizeof(*m->slots));
	for (i = 0; i < m->alloc; i++)
		m->slots[i].a = -1;
	for (i = 0; i < old.alloc; i++)
		if (old.slots[i].a >= 0)
			*find(m, old.slots[i].a, old.slots[i].b) = old.slots[i];
	free(old.slots);
}

void pairmap_put(struct pairmap *m, int64_t a, int64_t b, int64_t value)
{
	struct pairmap_entry *e;

	if (a < 0)
		BUG("pairmap key %" PRId64 " < 0", a);
	/* at most 3/4 full: linear probing stays short */
	if ((m->nr + 1) * 4 > m->alloc * 3)
		grow(m);
	e = find(m, a, b);
	if (e->a < 0) {
		e->a = a;
		e->b = b;
		m->nr++;
	}
	e->value = value;
}

void pairmap_clear(struct pairmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->nr = m->alloc = 0;
}
