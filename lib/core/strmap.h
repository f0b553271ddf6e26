#ifndef STRMAP_H
#define STRMAP_H
/*
 * struct strmap: string -> int64 hash table, open addressing (FNV-1a).
 * Keys are copied (owned by the map); used for metric-name -> id caches
 * on the import hot path.
 */
#include <stddef.h>
#include <stdint.h>

#define STRMAP_INLINE 24	/* keys up to this long live in the entry */

struct strmap_entry {
	char *key;		/* NULL = empty slot; else inline_key or owned */
	size_t keylen;
	uint64_t hash;
	int64_t value;
	char inline_key[STRMAP_INLINE];	/* short keys: no malloc, no miss */
};

struct strmap {
	struct strmap_entry *slots;	/* owned */
	size_t nr, alloc;		/* alloc is 0 or a power of two */
};
#define STRMAP_INIT { NULL, 0, 0 }

/* Returns 1 and sets *value if found, else 0. */
int strmap_get(const struct strmap *m, const char *key, size_t len,
	       int64_t *value);
/* Inserts or replaces. */
void strmap_put(struct strmap *m, const char *key, size_t len, int64_t value);
/*
 * Returns 1 with *value set to key's value if key is present, else puts
 * *value for it and returns 0: strmap_get() then strmap_put() with one
 * hash of the key.
 */
int strmap_get_or_put(struct strmap *m, const char *key, size_t len,
		      int64_t *value);
void strmap_clear(struct strmap *m);

#endif
