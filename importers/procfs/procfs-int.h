#ifndef PROCFS_INT_H
#define PROCFS_INT_H
/*
 * Inside the procfs importer: the state of one file and the helpers
 * (procfs-int.c) that the records (procfs.c) and the parsers of its
 * sections share: zoneinfo.c, and vmstat-meminfo.c with the hot path of
 * vmstat series.
 */
#include "core/sbuf.h"
#include "core/strmap.h"
#include "store/db.h"

enum section { SEC_NONE, SEC_ZONEINFO, SEC_VMSTAT, SEC_MEMINFO, SEC_NR };

enum zphase {
	ZP_HEAD,	/* after `Node N, zone Z` */
	ZP_NODE,	/* in `per-node stats` */
	ZP_PAGES,	/* from `pages free` */
	ZP_PAGESETS,	/* from `pagesets` */
	ZP_TAIL,	/* zone-level lines after the pagesets */
};

struct metric {
	char *name;		/* owned */
	size_t len;
	enum section sec;	/* of the line that made it */
	const char *unit;	/* static: "kB" or NULL */
	enum metric_kind kind;
	long record;		/* the last record that set it */
	int declared;		/* db_set_kind() done (snapshots) */
	int64_t id;		/* db_metric() handle; 0 = not yet */
};

/* One value of the current record, written when the record is whole. */
struct point {
	size_t metric;		/* index into procfs.m */
	double value;
	long line;
};

/*
 * A pagesets field summed over the CPUs of one zone: count and high,
 * and the 2.6.x per-cpu NUMA counters; the fields past ZONE_SUMS_MAX of
 * a zone are not summed.
 */
#define ZONE_SUMS_MAX 12
struct zsum {
	char field[32];
	double value;
	enum metric_kind kind;
};

struct zone {
	int open;
	long node;
	long line;		/* of its `Node` line */
	enum zphase phase;
	int pages_free, protection, pagesets, start_pfn;
	int populated;		/* present != 0, or no `present` line */
	int tail;		/* zone-level lines after the pagesets */
	long cpu;		/* current cpu block; -1 = none yet */
	int pcp;		/* 2.6.x list of the cpu block; -1 = none */
	long pagesets_line;
	struct zsum sums[ZONE_SUMS_MAX];
	size_t nr_sums;
};

struct procfs {
	struct import_ctx *ctx;
	const char *path;
	const char *prefix;	/* put before every name ("x." ), or NULL */
	long line;		/* the line being read */
	int series;		/* -1 not known yet, 0 snapshot, 1 series */
	enum section sec;
	struct zone z;
	struct sbuf npfx;	/* "zoneinfo.nodeN." */
	struct sbuf zpfx;	/* "zoneinfo.nodeN.Z." */
	int ref_tail;		/* tail lines of the first complete
				 * populated zone; -1 = none yet */
	/* one entry per metric: the only state that grows with the file */
	struct strmap ids;	/* name -> index into m */
	struct metric *m;	/* owned */
	size_t nr_m, alloc_m;
	/*
	 * The metrics of the previous record in the order they came:
	 * records repeat the same keys in the same order, so the next name
	 * is looked for there first, with one memcmp instead of hashing.
	 */
	size_t *order;		/* owned */
	size_t nr_order, alloc_order, pos;
	struct sbuf name;	/* scratch */
	size_t vm_pfx_len;	/* of prefix + "proc-vmstat." */
	/* the current record */
	long rec;		/* 1-based; 0 = none yet */
	long rec_line;
	double t;
	struct point *pts;	/* owned */
	size_t nr_pts, alloc_pts;
	size_t keys[SEC_NR], zones;
	size_t first_keys[SEC_NR], first_zones;
	long nr_done;		/* records written */
	/* a malformed line of a series: the cut end, if nothing follows */
	struct sbuf cut;
	long cut_line;
	int run_done, warned_dup;
	int async;		/* the series written by a second thread */
};

/*
 * The character classes of the hot loops, without the C library's
 * locale look-up for every byte (the names are ASCII whatever the locale).
 */
static inline int is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline int is_word(char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || is_digit(c) ||
	       c == '_';
}

/* `name` of [A-Za-z0-9_]; returns its length (0 = none). */
static inline size_t word_len(const char *s)
{
	size_t n = 0;

	while (is_word(s[n]))
		n++;
	return n;
}

/*
 * The metric the previous record had at the current position (pos <
 * nr_order) is the current one: it is in order[] already.
 */
static inline size_t same_in_order(struct procfs *st)
{
	return st->order[st->pos++];
}

/* procfs.c: the kinds, the shared line readers, the records' points */

/* MK_COUNTER if key[0..len) starts with one of the n prefixes in tab. */
enum metric_kind pf_kind_of(const char *const *tab, size_t n,
			    const char *key, size_t len);
/*
 * A malformed line: error() in a snapshot; in a series remembered as
 * the cut end of the file, and said only if another line follows.
 * Returns 0 or -1.
 */
__attribute__((format(printf, 2, 3)))
int pf_bad_line(struct procfs *st, const char *fmt, ...);
/* A count as the kernel prints it (digits, no sign); advances *p
 * only on success. */
int pf_get_count(const char **p, double *out);
/* `name value` with nothing after; 0 or -1. */
int pf_name_value(const char *s, size_t *nlen, double *v);
/*
 * Index of the metric named st->name, created with kind and unit; with
 * vm_key, the kind is that of the vmstat item vm_key[0..vm_len).
 */
size_t pf_metric_index(struct procfs *st, enum section sec,
		       enum metric_kind kind, const char *vm_key,
		       size_t vm_len, const char *unit);
/* One value of metric i in the current record; the first of a name wins. */
void pf_add_point_i(struct procfs *st, enum section sec, size_t i, double v,
		    long line);
/* st->name = prefix + a + b (b may be NULL). */
void pf_make_name(struct procfs *st, const struct sbuf *prefix,
		  const char *a, size_t alen, const char *b);

/* One value of st->name in the current record. */
static inline void add_point_k(struct procfs *st, enum section sec,
			       enum metric_kind kind, const char *vm_key,
			       size_t vm_len, const char *unit, double v,
			       long line)
{
	pf_add_point_i(st, sec, pf_metric_index(st, sec, kind, vm_key,
						vm_len, unit), v, line);
}

static inline void add_point(struct procfs *st, enum section sec,
			     enum metric_kind kind, const char *unit,
			     double v, long line)
{
	add_point_k(st, sec, kind, NULL, 0, unit, v, line);
}

/* A vmstat item (in /proc/vmstat or zoneinfo): its kind by its name. */
static inline void add_vm_point(struct procfs *st, enum section sec,
				const char *key, size_t len, double v)
{
	add_point_k(st, sec, MK_GAUGE, key, len, NULL, v, st->line);
}

/*
 * zoneinfo.c: a line of a `Node N, zone Z` section; closing the open
 * zone block (0, or 1 and *what it lacks), or -1 after error() when it
 * is incomplete.
 */
int pf_zoneinfo_line(struct procfs *st, const char *s);
int pf_zone_close(struct procfs *st, const char **what);
int pf_zone_close_or_fail(struct procfs *st);

/*
 * vmstat-meminfo.c: a /proc/vmstat or /proc/meminfo line; which of the
 * three files a section's first line comes from (SEC_NONE: none); the
 * fast path of a vmstat series line read where it lies (1 when taken).
 */
int pf_vmstat_line(struct procfs *st, const char *s);
int pf_meminfo_line(struct procfs *st, const char *s);
enum section pf_classify(const char *s);
int pf_vm_fast_line(struct procfs *st, const char *s, size_t len,
		    long lineno);

#endif
