#ifndef PAIRMAP_H
#define PAIRMAP_H
/*
 * struct pairmap: (a, b) -> int64 hash table of int64 pairs, a >= 0,
 * open addressing.  24 bytes an entry, at most 3/4 full: a map of
 * hundreds of thousands of small keys (a CSV's runs: variant, run of
 * it) in a third of what struct strmap takes for them.
 */
#include <stddef.h>
#include <stdint.h>

struct pairmap_entry {
	int64_t a;		/* -1: empty */
	int64_t b, value;
};

struct pairmap {
	struct pairmap_entry *slots;	/* owned */
	size_t nr, alloc;		/* alloc is 0 or a power of two */
};
#define PAIRMAP_INIT { NULL, 0, 0 }

/* Returns 1 and sets *value if (a, b) is there, else 0. */
int pairmap_get(const struct pairmap *m, int64_t a, int64_t b,
		int64_t *value);
/* Inserts or replaces; a must be >= 0. */
void pairmap_put(struct pairmap *m, int64_t a, int64_t b, int64_t value);
void pairmap_clear(struct pairmap *m);

#endif
