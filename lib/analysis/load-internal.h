#ifndef ANALYSIS_LOAD_INTERNAL_H
#define ANALYSIS_LOAD_INTERNAL_H
/*
 * What the loader's files share, each using only those listed before it
 * (load-rows.c: the pool, rows and runs; load-metrics.c: the metrics
 * table; load-samples.c: the samples and their digest; load.c: the
 * aggregates, the order, cmp_load()).  Private to them: the analysis
 * sees load.h only.
 */
#include "analysis/load.h"
#include "core/strmap.h"
#include "store/direction.h"

/*
 * A metric's direction before the catalog was looked up (l->mdir,
 * cmp_row.direction while loading): none of the DIR_* values.
 */
#define DIR_UNRESOLVED 2

/*
 * What a sample costs against CMP_MEM_BUDGET while it is held: its
 * double and its array's slack.
 */
#define SAMPLE_BYTES 12

/* Direct row arrays take at most this many entries (4 bytes each). */
#define ROW_OF_BUDGET (2u << 20)

/*
 * SQLite's page cache for a comparison's connections: everything is
 * read once, so a larger cache (24 MiB for an import) would only hold
 * pages already used; 1 MiB keeps the comparison's memory to its rows.
 */
#define LOAD_CACHE_PRAGMA "PRAGMA cache_size = -1024"

/* Entries of a run_values blob read at a time (48 KiB on the stack). */
#define BLOB_PIECE 4096

/* testcase, params, machine of a set of rows; strings in the pool */
struct group {
	const char *testcase, *params, *machine;
};

struct metric_split;

struct loader {
	struct db *db;
	struct comparison *c;
	/* the analysis's part of each row's digest (cmp_load()) */
	cmp_digest_fn *digest;
	struct strmap groups;	/* "testcase\x1fparams\x1fmachine" -> idx */
	struct group *group;	/* owned array */
	size_t nr_groups, alloc_groups;
	struct strmap rows;	/* (group idx, metric id) -> row idx */
	/*
	 * The same as direct arrays, one per group, indexed by metric id
	 * (ids are dense): one array load per sample instead of a hash
	 * probe that misses the cache.  row + 1, 0 = none.  NULL when the
	 * arrays would be too large; then the strmap serves.
	 */
	uint32_t **row_of;	/* owned, by group; each owned or NULL */
	size_t row_of_used;	/* entries allocated, up to ROW_OF_BUDGET */
	int hashed_any;		/* a group went to the strmap: all later do */
	int64_t max_metric_id;
	/*
	 * With more than SPARSE_METRICS ids: a bit for each id up to
	 * used_max that the variants have (metrics_used()); ids past it
	 * came after and are read.  NULL: every metric is read.
	 */
	unsigned char *used;
	int64_t used_max;
	struct strmap metrics;	/* metric id (8 bytes) -> metric index */
	int32_t *mindex;	/* the same by id (ids are dense), -1 = none;
				 * NULL past ROW_OF_BUDGET ids: the strmap */
	const char **mname, **munit;	/* by metric index; pool strings */
	int64_t *mid;		/* by metric index: the metric id */
	signed char *mdir;	/* by metric index: direction, or
				 * DIR_UNRESOLVED */
	char *mexact;		/* by metric index: kind is exact */
	signed char *mstated;	/* by metric index: the importer's direction */
	const char **msummary;	/* by metric index: MMTests' summary (pool) */
	long *mpos;		/* by metric index: its position in the
				 * base's imports, -1 none */
	size_t nr_m, alloc_m;
	/* metrics_begin() .. metrics_end(); NULL: the arrays are complete */
	struct metric_split *split;
	int ready;			/* metrics_ready() was called */
	int listed;			/* list_all_runs() was called */
	struct direction_overrides dirs;
	size_t mem_bytes;	/* rows and samples so far: CMP_MEM_BUDGET */
	/*
	 * runs[v * nr_groups + g]: the runs of variant v in group g, the
	 * most samples a side of the group's rows gets (one a run)
	 */
	size_t *gruns;
	/*
	 * Without keep_samples, the samples of a range's sides, each side
	 * its runs' room (load_samples()): no allocation a side, and none
	 * to free when digest_row() is done with them.
	 */
	double *slab;
	size_t slab_used, slab_alloc;
	/* digesting rows while load_samples() reads (struct digest_pipe) */
	struct worker *digester;
	/*
	 * The rows' next chunk, made ahead (add_chunk()), and the same for
	 * the digest's helper to fault in (atomic: it takes it); the rows
	 * the range being merged makes at least.
	 */
	char *ahead, *populate;
	int ahead_zeroed;
	size_t rows_sure;
	/* by variant: its runs in load order, and each run's group */
	struct vruns {
		int64_t *id;
		size_t *group;
		size_t nr;
	} *vrun;
};

/*
 * The metrics of a loader as cmp_metrics_load() read them once, every
 * direction decided, for the loaders of many comparisons to copy.
 */
struct cmp_metrics {
	struct comparison owner;	/* owns the names (its pool) */
	struct loader l;		/* its metric arrays and mindex */
	size_t *order;			/* owned: metric indexes, natural order */
	char *kpi;			/* owned: by rank in that order,
					 * metric_is_kpi() */
};

/* load-rows.c */

/* A copy of s (NULL for NULL) in c's pool (cmp_pool_addn()). */
const char *pool_add(struct comparison *c, const char *s);
/*
 * The row of (group, metric id mid), made when create is set; NULL when
 * there is none, or mid is not a metric read (--metric).
 */
struct cmp_row *row_for(struct loader *l, size_t group, int64_t mid,
			int create);
/* The bytes of one of c's chunks of row blocks (add_chunk()). */
size_t chunk_size(const struct comparison *c);
/*
 * "head WHERE TRUE" plus variant v's selection and the filters, bound;
 * NULL after error().
 */
struct stmt *variant_query(struct loader *l, size_t v, const char *head,
			   int aggregates);
/* The runs of every variant and their groups (l->vrun); 0, or -1. */
int list_all_runs(struct loader *l);
/*
 * The group of the row st is on, of variant v: its testcase, params and
 * machine in columns col, col + 1 and col + 2.
 */
size_t row_group(struct loader *l, size_t v, struct stmt *st, int col);
/*
 * The runs of variant v: run id -> its group, into run_group; *count
 * (if not NULL) counts them, and *ids (if not NULL) gets their ids.  0,
 * or -1 after error().
 */
int map_runs(struct loader *l, size_t v, struct strmap *run_group,
	     long *count, int64_t **ids);
/* The side's extra figures, made when the side has none. */
struct cmp_extra *extra_of(struct comparison *c, struct cmp_side *sd);
/* One value of MMTests' pool of a side (its statistics' samples). */
void pool_value(struct loader *l, struct cmp_side *sd, double x);
/* The metric index of id, or -1 when it was not read. */
int64_t metric_index(const struct loader *l, int64_t id);
/*
 * Entries i.. of the run_values blob b, of n entries, into buf (room
 * for BLOB_PIECE): how many, 0 past the end, or -1 after error().
 */
long blob_piece(struct loader *l, struct db_blob *b, size_t n, size_t i,
		unsigned char *buf);

/* load-metrics.c */

/*
 * Start reading the metrics table; metrics_ready() completes it.  0, or
 * -1 after error().
 */
int metrics_begin(struct loader *l);
/*
 * The metrics complete, their positions for MMTests, and the rows'
 * array (once; later calls do nothing).  0, or -1 after error().
 */
int metrics_ready(struct loader *l);
/*
 * Every row's direction from rows first.. on, from the catalog once per
 * metric (before sort_rows(): metric_rank is still the metric's index).
 */
void resolve_directions(struct loader *l, size_t first);
/* idx[0..nr_m): the metrics' indexes in natural order of their names. */
void sort_metrics(const struct loader *l, size_t *idx);
/* Free the metric arrays and indexes, and stop the helper if any. */
void metrics_release(struct loader *l);

/* load-samples.c */

/*
 * The samples of every variant into the rows, digested a range of
 * metrics at a time.  0, or -1 after error().
 */
int load_samples(struct loader *l);

#endif
