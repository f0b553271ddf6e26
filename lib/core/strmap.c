/*
 * Open-addressing string hash map (see strmap.h).
 */
#include "core/compat.h"
#include "core/strmap.h"

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static struct strmap_entry *find(const struct strmap *m, const char *key,
				 size_t len, uint64_t h)
{
	size_t mask = m->alloc - 1, i = (size_t)h & mask;

	for (;; i = (i + 1) & mask) {
		struct strmap_entry *e = &m->slots[i];

		if (!e->key)
			return e;
		if (e->hash == h && e->keylen == len && !memcmp(e->key, key, len))
			return e;
	}
}

int strmap_get(const struct strmap *m, const char *key, size_t len,
	       int64_t *value)
{
	struct strmap_entry *e;

	if (!m->alloc)
		return 0;
	e = find(m, key, len, fnv1a(key, len));
	if (!e->key)
		return 0;
	*value = e->value;
	return 1;
}

static void rehash(struct strmap *m)
{
	struct strmap old = *m;
	size_t i;

	m->alloc = old.alloc ? old.alloc * 2 : 64;
	m->slots = xcalloc(m->alloc, sizeof(*m->slots));
	for (i = 0; i < old.alloc; i++) {
		struct strmap_entry *e = &old.slots[i], *n;

		if (!e->key)
			continue;
		n = find(m, e->key, e->keylen, e->hash);
		*n = *e;
		if (e->key == e->inline_key)
			n->key = n->inline_key;	/* it moved with the entry */
	}
	free(old.slots);
}

static void put_hashed(struct strmap *m, const char *key, size_t len,
		       uint64_t h, int64_t value)
{
	struct strmap_entry *e;

	/* at most half full: linear probing stays short */
	if ((m->nr + 1) * 2 > m->alloc)
		rehash(m);
	e = find(m, key, len, h);
	if (!e->key) {
		if (len < STRMAP_INLINE) {
			memcpy(e->inline_key, key, len);
			e->inline_key[len] = '\0';
			e->key = e->inline_key;
		} else {
			e->key = xstrndup(key, len);
		}
		e->keylen = len;
		e->hash = h;
		m->nr++;
	}
	e->value = value;
}

void strmap_put(struct strmap *m, const char *key, size_t len, int64_t value)
{
	put_hashed(m, key, len, fnv1a(key, len), value);
}

int strmap_get_or_put(struct strmap *m, const char *key, size_t len,
		      int64_t *value)
{
	uint64_t h = fnv1a(key, len);
	struct strmap_entry *e;

	if (m->alloc) {
		e = find(m, key, len, h);
		if (e->key) {
			*value = e->value;
			return 1;
		}
	}
	put_hashed(m, key, len, h, *value);
	return 0;
}

void strmap_clear(struct strmap *m)
{
	size_t i;

	for (i = 0; i < m->alloc; i++)
		if (m->slots[i].key != m->slots[i].inline_key)
			free(m->slots[i].key);
	free(m->slots);
	m->slots = NULL;
	m->nr = m->alloc = 0;
}
