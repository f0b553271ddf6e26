/*
 * The procfs importer: /proc/zoneinfo, /proc/vmstat and /proc/meminfo,
 * either one snapshot (the file as cat printed it) or a monitor series
 * (lkp's and MMTests' `time: <epoch>` records), streamed line by line
 * into one run per file under lkp's key names.
 */
#include "core/compat.h"
#include <ctype.h>
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "procfs.h"

/*
 * How the formats were worked out: the kernel's printers (mm/vmstat.c
 * zoneinfo_show_print, vmstat_show; fs/proc/meminfo.c) as summarised in
 * research/fio-procfs.md §2-§3, checked line by line against real dumps of
 * every era in samples/procfs (2.6.15-rc2 from LKML, 3.x and 5.x from
 * pcp's QA data, 6.18 local) and, for the key names, against the output of
 * lkp-tests' own programs/zoneinfo/parse on a real file
 * (samples/lkp/local-zoneinfo-parsed.txt; see t2200).
 *
 * Input.  One file holds
 * - a snapshot: the content of one of the three files, or
 * - a series: records `time: <epoch seconds>` (integer or fractional)
 *   each followed by one snapshot; blank lines between records are
 *   allowed.  lkp's monitors write this (programs/proc-vmstat/monitor:
 *   `echo time: $(date +%s); cat /proc/$file`, vmstat deduplicated with
 *   awk '!x[$1]++'), and MMTests' monitors/watch-proc-{vmstat,zoneinfo,
 *   meminfo}.sh write the very same (`echo time: \`date +%s\``; cat;
 *   sleep), read from the MMTests source and the proc-vmstat log in
 *   samples/mmtests.  A "before/after" pair is a series of two records.
 * Which of the three files a snapshot is comes from its first line:
 * `Node N, zone Z` is zoneinfo, `Name: value [kB]` meminfo, `name value`
 * vmstat.  Lines starting with '#' are comments, and a line of '='
 * (`==== vmstat:`, as LKML mails paste several files) starts a new
 * section whose kind again comes from its first line, so one snapshot
 * may hold several of the three files.  Blank lines are skipped.
 *
 * Names (lkp's, research/lkp.md §2.4), values as printed (pages, or kB
 * for meminfo with unit "kB"; HugePages_* have no unit):
 *   proc-vmstat.<name>                     every /proc/vmstat line
 *   meminfo.<Name>                         e.g. meminfo.Active(file)
 *   zoneinfo.nodeN.<name>                  the per-node stats block (4.8+)
 *   zoneinfo.nodeN.Z.pages.free            and .min .low .high .boost
 *                                          .promo .spanned .present
 *                                          .managed .cma .scanned, 2.6's
 *                                          .active .inactive
 *   zoneinfo.nodeN.Z.pages.<stat>          the zone's counters that follow
 *                                          (nr_free_pages, numa_hit, ...):
 *                                          lkp's quirk keeps the `pages.`
 *                                          tag, and so do we
 *   zoneinfo.nodeN.Z.protection.I          lowmem_reserve[I]
 *   zoneinfo.nodeN.Z.pagesets.cpuC.F       F = count high batch high_min
 *                                          high_max vm_stats_threshold
 *                                          (whatever `F: value` lines the
 *                                          cpu block has)
 *   zoneinfo.nodeN.Z.pagesets.cpuC.hot.F   2.6.x hot/cold lists: `cpu: C
 *   zoneinfo.nodeN.Z.pagesets.cpuC.cold.F  pcp: 0` is hot, `pcp: 1` cold;
 *                                          F = count low high batch
 *   zoneinfo.nodeN.Z.pagesets.cpuC.numa_hit  2.6.x per-cpu NUMA counters
 *                                          (numa_*, interleave_hit,
 *                                          local_node, other_node)
 *   zoneinfo.nodeN.Z.pagesets.F            per-zone sums over the CPUs
 *                                          (and over hot+cold) of count
 *                                          and high (pages the pcp lists
 *                                          hold, and may hold) and of the
 *                                          2.6.x per-cpu NUMA counters;
 *                                          batch, low, high_min, high_max
 *                                          and the threshold are per-CPU
 *                                          tunables and are not summed
 *   zoneinfo.nodeN.Z.start_pfn             and the other zone-level lines
 *                                          after the pagesets
 *                                          (node_unreclaimable,
 *                                          all_unreclaimable,
 *                                          inactive_ratio, prev_priority,
 *                                          temp_priority)
 *   2.6.x `scanned N (a: X i: Y)`: pages.scanned, pages.nr_scan_active,
 *   pages.nr_scan_inactive (the kernel's field names).
 * zoneinfo is read by a state machine over the `Node N, zone Z` blocks:
 * [per-node stats] -> pages free... -> protection -> pagesets -> cpu blocks
 * -> zone-level tail; any `name value` or `name: value` line in a known
 * place is kept under a generic name, so new fields need no code.
 *
 * Where we differ from lkp's programs/zoneinfo/parse:
 * - lkp reads exactly 4 lines after each `cpu:` line.  On 6.x (count,
 *   high, batch, high_min, high_max, threshold) that puts high_max and the
 *   threshold at zone level (zoneinfo.node0.DMA.high_max,
 *   .vm_stats_threshold), each CPU overwriting the last; we keep them per
 *   CPU (pagesets.cpuC.high_max, pagesets.cpuC.vm_stats_threshold).  On
 *   3.x/5.x (3 fields) lkp's 4th line is the threshold and the names
 *   agree with ours.
 * - 2.6.x: lkp writes the hot and the cold list to the same keys (cold
 *   wins) and the per-cpu NUMA counters at zone level (last CPU wins),
 *   and turns `scanned 66 (a: 0 i: 0)` into `pages.0: 0)`; see the names
 *   above for ours.
 * - The pagesets.F sums are ours.
 * - Kinds (below): lkp reduces every zoneinfo key by its mean; we reduce
 *   the event counters among them (numa_*, nr_dirtied, workingset_* ...)
 *   by last - first, as for proc-vmstat.
 * - A key printed twice in one record: we keep the first everywhere,
 *   with one warning (lkp's vmstat monitor keeps the first with awk; its
 *   zoneinfo parse prints both).
 *
 * Incomplete input.  A zone block is complete when it has `pages free`,
 * `protection:`, and, if it is populated (present != 0, or no `present`
 * line), `pagesets`, a `start_pfn:` line after them and at least as many
 * zone-level lines after the pagesets as the first complete populated
 * zone of the file (3.x prints inactive_ratio after start_pfn).  A series
 * record is complete when its zone blocks are, it has at least as many
 * zone blocks as the first record (CPU hotplug may change the pagesets,
 * so zoneinfo keys are not counted), at least as many vmstat and meminfo
 * keys as the first record (these sets are fixed for a boot), at least
 * one key, and no line of it is malformed.  In a series an incomplete
 * LAST record, including one whose very last line is cut (`nr_free_pa`),
 * is dropped with a warning, as lkp's dump-stat truncates it; an
 * incomplete middle record, a malformed line followed by more lines, an
 * incomplete snapshot and a series with no complete record are errors.
 * Records are therefore buffered until the next `time:` line: memory is
 * one record's points plus one entry per metric.
 *
 * Duplicated keys in one record (2016 kernels printed some vmstat names
 * twice; lkp pipes vmstat through awk '!x[$1]++'): the first value is
 * kept, with one warning per file.
 *
 * Not read here: MMTests' tests-sysstate, where /proc/vmstat, zoneinfo
 * and meminfo sit before and after a test between `file start ::` and
 * `file end ::` markers among other files: that container needs a
 * reader of its own (each section would be one record of a two-record
 * series here).
 *
 * Run: one per file, suite "procfs", start time the first `time:`.
 * Snapshot values are samples (db_emit_sample + db_set_kind); series
 * values are series (db_emit_series), which the db layer reduces at the
 * end of the run by kind.
 */

/*
 * Event counters, by prefix of the name after "proc-vmstat." (and of the
 * zoneinfo stat names, which are the same items).  lkp's list
 * (etc/event-counter-prefixes: pg numa_ thp_ compact_ pswp allocstall
 * kswapd_ pageoutrun slabs_scanned unevictable_pgs_ htlb_buddy_alloc_
 * zone_reclaim_failed nr_dirtied nr_written nr_vmscan_immediate_reclaim
 * nr_promote*), plus what the kernel also only ever increments, marked
 * "ours": the other vm_event_items (workingset_* but workingset_nodes,
 * drop_*, oom_kill, balloon_*, swap_ra*, zswp*, swp*_zero, cma_alloc_*,
 * ksm, TLB-flush debug counters, direct_map_level*_splits/collapses,
 * vmacache_*) and cumulative node stats (nr_vmscan_write,
 * nr_throttled_written, nr_foll_pin_*).  Everything else (nr_* levels,
 * meminfo, watermarks, protection, pagesets) is a gauge.
 */
static const char *const counter_prefixes[] = {
	"allocstall", "compact_", "htlb_buddy_alloc_", "kswapd_",
	"nr_dirtied", "nr_promote", "nr_vmscan_immediate_reclaim",
	"nr_written", "numa_", "pageoutrun", "pg", "pswp", "slabs_scanned",
	"thp_", "unevictable_pgs_", "zone_reclaim_",
	/* ours */
	"balloon_", "cma_alloc_", "cow_ksm", "direct_map_level", "drop_",
	"ksm_", "nr_foll_pin_", "nr_throttled_written", "nr_tlb_",
	"nr_vmscan_write", "oom_kill", "swap_ra", "swpin_zero",
	"swpout_zero", "vmacache_", "workingset_activate",
	"workingset_nodereclaim", "workingset_refault", "workingset_restore",
	"zswp",
};

/* 2.6.x per-cpu NUMA counters in the pagesets (summed per zone). */
static const char *const pcp_counters[] = {
	"interleave_hit", "local_node", "numa_", "other_node",
};

static enum metric_kind kind_of(const char *const *tab, size_t n,
				const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++) {
		size_t pl = strlen(tab[i]);

		if (len >= pl && !memcmp(key, tab[i], pl))
			return MK_COUNTER;
	}
	return MK_GAUGE;
}

static enum metric_kind vm_kind(const char *key, size_t len)
{
	return kind_of(counter_prefixes, ARRAY_SIZE(counter_prefixes), key,
		       len);
}

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

/* A pagesets field summed over the CPUs of one zone. */
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
	struct zsum sums[12];
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
 * A malformed line.  In a snapshot: error().  In a series it may be the
 * last line of a file cut while the monitor wrote it: remembered, and
 * reported only if another line follows.
 */
__attribute__((format(printf, 2, 3)))
static int bad_line(struct procfs *st, const char *fmt, ...)
{
	va_list ap;

	if (st->series != 1) {
		struct sbuf sb = SBUF_INIT;

		va_start(ap, fmt);
		sbuf_vaddf(&sb, fmt, ap);
		va_end(ap);
		error("%s:%ld: %s", st->path, st->line, sb.buf);
		sbuf_release(&sb);
		return -1;
	}
	sbuf_reset(&st->cut);
	va_start(ap, fmt);
	sbuf_vaddf(&st->cut, fmt, ap);
	va_end(ap);
	st->cut_line = st->line;
	return 0;
}

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

/* An integer as printed ([-]digits); advances *p only on success. */
static int get_count(const char **p, double *out)
{
	const char *s = *p, *d = s;
	uint64_t u = 0;
	int neg = 0;
	char *end;
	double v;

	if (*d == '-') {
		neg = 1;
		d++;
	}
	if (!is_digit(*d))
		return -1;
	/* up to 19 digits exactly in an integer; longer ones via strtod */
	while (is_digit(*d) && d - s < 19 + neg)
		u = u * 10 + (uint64_t)(*d++ - '0');
	if (!is_digit(*d)) {
		*out = neg ? -(double)u : (double)u;
		*p = d;
		return 0;
	}
	while (is_digit(*d))
		d++;
	v = strtod(s, &end);
	if (end != d || !isfinite(v))
		return -1;
	*out = v;
	*p = d;
	return 0;
}

/* `name` of [A-Za-z0-9_]; returns its length (0 = none). */
static size_t word_len(const char *s)
{
	size_t n = 0;

	while (is_word(s[n]))
		n++;
	return n;
}

/* `name value` with nothing after; 0 or -1. */
static int name_value(const char *s, size_t *nlen, double *v)
{
	const char *p = s + word_len(s);

	*nlen = (size_t)(p - s);
	if (!*nlen || (*p != ' ' && *p != '\t'))
		return -1;
	str_skip_blanks(&p);
	if (get_count(&p, v))
		return -1;
	str_skip_blanks(&p);
	return *p ? -1 : 0;
}

/*
 * `some key: value` (zoneinfo pagesets and tail): key of letters, digits,
 * '_' and spaces, copied to key with spaces as '_' (lkp's tr(' ', '_')).
 */
static int colon_value(const char *s, char *key, size_t keysz, double *v)
{
	const char *colon = strchr(s, ':'), *p;
	size_t n, i;

	if (!colon)
		return -1;
	n = (size_t)(colon - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n >= keysz)
		return -1;
	for (i = 0; i < n; i++) {
		if (!(is_word(s[i]) || s[i] == ' '))
			return -1;
		key[i] = s[i] == ' ' ? '_' : s[i];
	}
	key[n] = '\0';
	p = colon + 1;
	str_skip_blanks(&p);
	if (get_count(&p, v))
		return -1;
	str_skip_blanks(&p);
	return *p ? -1 : 0;
}

/* i is the metric of the current position of the record */
static size_t next_in_order(struct procfs *st, size_t i)
{
	ALLOC_GROW(st->order, st->pos + 1, st->alloc_order);
	st->order[st->pos++] = i;
	if (st->pos > st->nr_order)
		st->nr_order = st->pos;
	return i;
}

/*
 * The metric the previous record had at the current position (pos <
 * nr_order) is the current one: it is in order[] already.
 */
static size_t same_in_order(struct procfs *st)
{
	return st->order[st->pos++];
}

/*
 * Index of the metric named st->name, created with kind and unit; with
 * vm_key, the kind is vm_kind(vm_key) (looked up only when the metric is
 * new: the prefix table is not scanned for every line).
 */
static size_t metric_index(struct procfs *st, enum section sec,
			   enum metric_kind kind, const char *vm_key,
			   size_t vm_len, const char *unit)
{
	int64_t id;
	struct metric *m;
	size_t i;

	if (st->pos < st->nr_order) {
		m = &st->m[st->order[st->pos]];
		if (m->len == st->name.len &&
		    !memcmp(m->name, st->name.buf, m->len))
			return same_in_order(st);
	}
	if (strmap_get(&st->ids, st->name.buf, st->name.len, &id))
		return next_in_order(st, (size_t)id);
	if (vm_key)
		kind = vm_kind(vm_key, vm_len);
	ALLOC_GROW(st->m, st->nr_m + 1, st->alloc_m);
	m = &st->m[st->nr_m];
	m->name = xstrndup(st->name.buf, st->name.len);
	m->len = st->name.len;
	m->sec = sec;
	m->unit = unit;
	m->kind = kind;
	m->record = 0;
	m->declared = 0;
	m->id = 0;
	strmap_put(&st->ids, st->name.buf, st->name.len, (int64_t)st->nr_m);
	i = st->nr_m++;
	return next_in_order(st, i);
}

/* One value of metric i in the current record; the first of a name wins. */
static void add_point_i(struct procfs *st, enum section sec, size_t i,
			double v, long line)
{
	struct point *pt;

	if (st->m[i].record == st->rec) {
		if (!st->warned_dup)
			db_warn(st->ctx, line, "'%s' appears twice in one "
				"record: the first value is kept (later "
				"duplicates are not reported)", st->m[i].name);
		st->warned_dup = 1;
		return;
	}
	st->m[i].record = st->rec;
	ALLOC_GROW(st->pts, st->nr_pts + 1, st->alloc_pts);
	pt = &st->pts[st->nr_pts++];
	pt->metric = i;
	pt->value = v;
	pt->line = line;
	st->keys[sec]++;
}

/* One value of st->name in the current record. */
static void add_point_k(struct procfs *st, enum section sec,
			enum metric_kind kind, const char *vm_key,
			size_t vm_len, const char *unit, double v, long line)
{
	add_point_i(st, sec, metric_index(st, sec, kind, vm_key, vm_len, unit),
		    v, line);
}

static void add_point(struct procfs *st, enum section sec,
		      enum metric_kind kind, const char *unit, double v,
		      long line)
{
	add_point_k(st, sec, kind, NULL, 0, unit, v, line);
}

/* A vmstat item (in /proc/vmstat or zoneinfo): its kind by its name. */
static void add_vm_point(struct procfs *st, enum section sec,
			 const char *key, size_t len, double v)
{
	add_point_k(st, sec, MK_GAUGE, key, len, NULL, v, st->line);
}

/* st->name = prefix + a + b (b may be NULL). */
static void make_name(struct procfs *st, const struct sbuf *prefix,
		      const char *a, size_t alen, const char *b)
{
	sbuf_reset(&st->name);
	if (st->prefix)
		sbuf_addstr(&st->name, st->prefix);
	if (prefix)
		sbuf_add(&st->name, prefix->buf, prefix->len);
	sbuf_add(&st->name, a, alen);
	if (b)
		sbuf_addstr(&st->name, b);
}

/* ---- zoneinfo ---- */

/* What a zone block lacks, or NULL when it is complete. */
static const char *zone_missing(const struct procfs *st)
{
	const struct zone *z = &st->z;

	if (!z->pages_free)
		return "'pages free'";
	if (!z->protection)
		return "'protection:'";
	if (!z->populated)
		return NULL;
	if (!z->pagesets)
		return "'pagesets'";
	if (!z->start_pfn)
		return "'start_pfn:' after the pagesets";
	if (st->ref_tail > 0 && z->tail < st->ref_tail)
		return "the zone-level lines after the pagesets that the "
		       "zones before it have";
	return NULL;
}

/*
 * Close the open zone block.  Returns 0, or 1 (and *what) when it is
 * incomplete; emits the pagesets sums of a complete one.
 */
static int zone_close(struct procfs *st, const char **what)
{
	struct zone *z = &st->z;
	size_t i;

	if (!z->open)
		return 0;
	z->open = 0;
	*what = zone_missing(st);
	if (*what)
		return 1;
	if (z->populated && st->ref_tail < 0)
		st->ref_tail = z->tail;
	for (i = 0; i < z->nr_sums; i++) {
		make_name(st, &st->zpfx, "pagesets.", 9, z->sums[i].field);
		add_point(st, SEC_ZONEINFO, z->sums[i].kind, NULL,
			  z->sums[i].value, z->pagesets_line);
	}
	return 0;
}

static int zone_close_or_fail(struct procfs *st)
{
	long zline = st->z.line;
	const char *what;

	if (zone_close(st, &what))
		return error("%s:%ld: expected %s in the zone block started at "
			     "line %ld before this line", st->path, st->line,
			     what, zline);
	return 0;
}

static int node_line(struct procfs *st, const char *s)
{
	const char *p = s + 5;	/* after "Node " */
	long node;
	size_t n;
	char zname[32];

	if (str_long(&p, &node) || node < 0 ||
	    str_expect_lit(&p, ", zone"))
		return bad_line(st, "expected 'Node N, zone NAME', got '%.60s'",
				s);
	str_skip_blanks(&p);
	n = word_len(p);
	if (!n || n >= sizeof(zname) || p[n])
		return bad_line(st, "expected 'Node N, zone NAME', got '%.60s'",
				s);
	memcpy(zname, p, n);
	zname[n] = '\0';
	if (zone_close_or_fail(st))
		return -1;
	memset(&st->z, 0, sizeof(st->z));
	st->z.open = 1;
	st->z.node = node;
	st->z.line = st->line;
	st->z.cpu = -1;
	st->z.pcp = -1;
	st->z.populated = 1;
	sbuf_reset(&st->npfx);
	sbuf_addf(&st->npfx, "zoneinfo.node%ld.", node);
	sbuf_reset(&st->zpfx);
	sbuf_addf(&st->zpfx, "zoneinfo.node%ld.%s.", node, zname);
	st->zones++;
	return 0;
}

static void zsum_add(struct zone *z, const char *field, double v,
		     enum metric_kind kind)
{
	size_t i, n;

	for (i = 0; i < z->nr_sums; i++)
		if (!strcmp(z->sums[i].field, field)) {
			z->sums[i].value += v;
			return;
		}
	n = strlen(field);
	if (z->nr_sums == ARRAY_SIZE(z->sums) ||
	    n >= sizeof(z->sums[0].field))
		return;
	memcpy(z->sums[i].field, field, n + 1);
	z->sums[i].value = v;
	z->sums[i].kind = kind;
	z->nr_sums++;
}

/* `protection: (0, 1754, 64216, 64216)` */
static int protection_line(struct procfs *st, const char *t)
{
	const char *p = t + 11;
	long i = 0;
	double v;
	char idx[24];

	str_skip_blanks(&p);
	if (str_expect(&p, '('))
		goto bad;
	for (;;) {
		str_skip_blanks(&p);
		if (get_count(&p, &v))
			goto bad;
		snprintf(idx, sizeof(idx), "%ld", i++);
		make_name(st, &st->zpfx, "protection.", 11, idx);
		add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
		str_skip_blanks(&p);
		if (!str_expect(&p, ')'))
			break;
		if (str_expect(&p, ','))
			goto bad;
	}
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	st->z.protection = 1;
	return 0;
bad:
	return bad_line(st, "expected 'protection: (N, N, ...)', got '%.60s'",
			t);
}

/* 2.6.x `scanned  66 (a: 0 i: 0)`, or plain `scanned  0` (3.x). */
static int scanned_line(struct procfs *st, const char *t)
{
	const char *p = t + 7;
	double v, a, i;

	str_skip_blanks(&p);
	if (get_count(&p, &v))
		goto bad;
	str_skip_blanks(&p);
	make_name(st, &st->zpfx, "pages.scanned", 13, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
	if (!*p)
		return 0;
	if (str_expect_lit(&p, "(a:"))
		goto bad;
	str_skip_blanks(&p);
	if (get_count(&p, &a))
		goto bad;
	str_skip_blanks(&p);
	if (str_expect_lit(&p, "i:"))
		goto bad;
	str_skip_blanks(&p);
	if (get_count(&p, &i) || str_expect(&p, ')'))
		goto bad;
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	make_name(st, &st->zpfx, "pages.nr_scan_active", 20, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, a, st->line);
	make_name(st, &st->zpfx, "pages.nr_scan_inactive", 22, NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, i, st->line);
	return 0;
bad:
	return bad_line(st, "expected 'scanned N' or 'scanned N (a: N i: N)', "
			"got '%.60s'", t);
}

/* `cpu: N` or 2.6.x `cpu: N pcp: P` */
static int cpu_line(struct procfs *st, const char *t)
{
	const char *p = t + 4;
	long cpu, pcp = -1;

	str_skip_blanks(&p);
	if (str_long(&p, &cpu) || cpu < 0)
		goto bad;
	str_skip_blanks(&p);
	if (*p) {
		if (str_expect_lit(&p, "pcp:"))
			goto bad;
		str_skip_blanks(&p);
		if (str_long(&p, &pcp) || pcp < 0 || pcp > 99)
			goto bad;
		str_skip_blanks(&p);
		if (*p)
			goto bad;
	}
	st->z.cpu = cpu;
	st->z.pcp = (int)pcp;
	return 0;
bad:
	return bad_line(st, "expected 'cpu: N' or 'cpu: N pcp: N', got '%.60s'",
			t);
}

/* A `field: value` line of the current cpu block. */
static void cpu_field(struct procfs *st, const char *key, double v)
{
	struct zone *z = &st->z;
	enum metric_kind kind = kind_of(pcp_counters,
					ARRAY_SIZE(pcp_counters), key,
					strlen(key));
	int list = z->pcp >= 0 && (!strcmp(key, "count") ||
				   !strcmp(key, "low") ||
				   !strcmp(key, "high") ||
				   !strcmp(key, "batch"));
	char sub[48];

	if (list && z->pcp <= 1)
		snprintf(sub, sizeof(sub), "cpu%ld.%s.", z->cpu,
			 z->pcp ? "cold" : "hot");
	else if (list)
		snprintf(sub, sizeof(sub), "cpu%ld.pcp%d.", z->cpu, z->pcp);
	else
		snprintf(sub, sizeof(sub), "cpu%ld.", z->cpu);
	make_name(st, &st->zpfx, "pagesets.", 9, sub);
	sbuf_addstr(&st->name, key);
	add_point(st, SEC_ZONEINFO, kind, NULL, v, st->line);
	if (kind == MK_COUNTER || !strcmp(key, "count") ||
	    !strcmp(key, "high"))
		zsum_add(z, key, v, kind);
}

/* A zone-level `key: value` line after the pagesets. */
static void tail_field(struct procfs *st, const char *key, double v)
{
	st->z.phase = ZP_TAIL;
	st->z.tail++;
	if (!strcmp(key, "start_pfn"))
		st->z.start_pfn = 1;
	make_name(st, &st->zpfx, key, strlen(key), NULL);
	add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
}

static int zoneinfo_line(struct procfs *st, const char *s)
{
	struct zone *z = &st->z;
	size_t indent = strspn(s, " \t"), n;
	const char *t = s + indent;
	char key[64];
	double v;

	if (!indent) {
		if (starts_with(t, "Node "))
			return node_line(st, s);
		return bad_line(st, "expected 'Node N, zone NAME' or an "
				"indented zone line, got '%.60s'", s);
	}
	if (!z->open)
		return bad_line(st, "expected 'Node N, zone NAME', got '%.60s'",
				s);
	if (!strcmp(t, "per-node stats")) {
		if (z->phase != ZP_HEAD)
			goto unexpected;
		z->phase = ZP_NODE;
		return 0;
	}
	if (starts_with(t, "pages free")) {
		const char *p = t + 10;

		if (z->phase != ZP_HEAD && z->phase != ZP_NODE)
			goto unexpected;
		str_skip_blanks(&p);
		if (get_count(&p, &v) || (str_skip_blanks(&p), *p))
			return bad_line(st, "expected 'pages free N', got "
					"'%.60s'", t);
		z->phase = ZP_PAGES;
		z->pages_free = 1;
		make_name(st, &st->zpfx, "pages.free", 10, NULL);
		add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v, st->line);
		return 0;
	}
	if (starts_with(t, "protection:")) {
		if (z->phase != ZP_PAGES || z->protection)
			goto unexpected;
		return protection_line(st, t);
	}
	if (!strcmp(t, "pagesets")) {
		if (z->phase != ZP_PAGES)
			goto unexpected;
		z->phase = ZP_PAGESETS;
		z->pagesets = 1;
		z->pagesets_line = st->line;
		return 0;
	}

	switch (z->phase) {
	case ZP_HEAD:
		return bad_line(st, "expected 'pages free N' or 'per-node "
				"stats' after the 'Node' line, got '%.60s'", t);
	case ZP_NODE:
		if (name_value(t, &n, &v))
			return bad_line(st, "expected 'name value' in the "
					"per-node stats, got '%.60s'", t);
		make_name(st, &st->npfx, t, n, NULL);
		add_vm_point(st, SEC_ZONEINFO, t, n, v);
		return 0;
	case ZP_PAGES:
		if (starts_with(t, "scanned") && word_len(t) == 7)
			return scanned_line(st, t);
		if (strchr(t, ':')) {
			if (colon_value(t, key, sizeof(key), &v))
				return bad_line(st, "expected 'name: value', "
						"got '%.60s'", t);
			if (indent <= 2) {
				tail_field(st, key, v);
				return 0;
			}
			make_name(st, &st->zpfx, "pages.", 6, key);
			add_point(st, SEC_ZONEINFO, MK_GAUGE, NULL, v,
				  st->line);
			return 0;
		}
		if (name_value(t, &n, &v))
			return bad_line(st, "expected 'name value' in the "
					"zone, got '%.60s'", t);
		if (n == 7 && !memcmp(t, "present", 7))
			z->populated = v != 0;
		make_name(st, &st->zpfx, "pages.", 6, NULL);
		sbuf_add(&st->name, t, n);
		add_vm_point(st, SEC_ZONEINFO, t, n, v);
		return 0;
	case ZP_PAGESETS:
		if (starts_with(t, "cpu:"))
			return cpu_line(st, t);
		if (colon_value(t, key, sizeof(key), &v))
			return bad_line(st, "expected 'cpu: N' or 'name: "
					"value' in the pagesets, got '%.60s'",
					t);
		/*
		 * The kernel's format strings indent the fields of a cpu
		 * block by 12-14 and the zone-level lines after the
		 * pagesets by 2; `vm stats threshold` is per CPU although
		 * printed at 2.
		 */
		if (!strcmp(key, "vm_stats_threshold") || indent > 2) {
			if (z->cpu < 0)
				return bad_line(st, "expected 'cpu: N' before "
						"'%.60s'", t);
			cpu_field(st, key, v);
			return 0;
		}
		tail_field(st, key, v);
		return 0;
	case ZP_TAIL:
		if (colon_value(t, key, sizeof(key), &v) || indent > 2)
			return bad_line(st, "expected a zone-level 'name: "
					"value' line after the pagesets, got "
					"'%.60s'", t);
		tail_field(st, key, v);
		return 0;
	}
unexpected:
	return bad_line(st, "unexpected '%.60s' in the zone block started at "
			"line %ld", t, z->line);
}

/* ---- vmstat, meminfo ---- */

/*
 * s[0..n) == t[0..n), each readable for n bytes: compared by words, with
 * no call (a vmstat name is 10 to 40 bytes; memcmp()'s call cost more
 * than its bytes)
 */
static inline int same_bytes(const char *s, const char *t, size_t n)
{
	uint64_t a, b;
	uint32_t x, y;
	size_t i;

	if (n >= 8) {
		for (i = 0; i + 8 < n; i += 8) {
			memcpy(&a, s + i, 8);
			memcpy(&b, t + i, 8);
			if (a != b)
				return 0;
		}
		/* the last 8, overlapping what was compared */
		memcpy(&a, s + n - 8, 8);
		memcpy(&b, t + n - 8, 8);
		return a == b;
	}
	if (n >= 4) {
		memcpy(&x, s, 4);
		memcpy(&y, t, 4);
		if (x != y)
			return 0;
		memcpy(&x, s + n - 4, 4);
		memcpy(&y, t + n - 4, 4);
		return x == y;
	}
	for (i = 0; i < n; i++)
		if (s[i] != t[i])
			return 0;
	return 1;
}

/*
 * The k <= 8 digits that end at end, as a number, or -1 when one of
 * them is not a digit; the 8 bytes before end must be readable.  All
 * eight at once in a word (the bytes before the digits read as '0').
 */
static inline int64_t digits_word(const char *end, int k)
{
	uint64_t w, t;

	memcpy(&w, end - 8, 8);
	/* little-endian: the first of the 8 bytes is the lowest */
	if (k < 8)
		w = w >> (8 * (8 - k)) << (8 * (8 - k)) |
		    (0x3030303030303030ULL >> (8 * k));
	/* each byte 0x30 to 0x39: a high nibble of 3, and 6 more keeps it */
	t = (w + 0x0606060606060606ULL) | w;
	if ((w & 0xf0f0f0f0f0f0f0f0ULL) != 0x3030303030303030ULL ||
	    (t & 0xf0f0f0f0f0f0f0f0ULL) != 0x3030303030303030ULL)
		return -1;
	w -= 0x3030303030303030ULL;
	/* pairs, then fours, then the eight: the first digit highest */
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	return (int64_t)((w * 10000 + (w >> 32)) & 0xffffffffULL);
}

/*
 * The count of the line the kernel prints, `name digits`, from p just
 * after the name to end (s the line's start): one space, at most 19
 * digits, nothing after (trailing blanks neither); 0, or -1 for anything
 * else, which name_value() reads or refuses.  Up to 16 digits by words.
 */
static inline int vm_count(const char *s, const char *p, const char *end,
			   double *v)
{
	const char *d;
	uint64_t u = 0;
	long k = end - p - 1;

	if (k < 1 || *p != ' ')
		return -1;
	if (k <= 16 && end - s >= 8 + (k > 8 ? 8 : 0)) {
		int64_t lo = digits_word(end, k > 8 ? 8 : (int)k), hi = 0;

		if (k > 8)
			hi = digits_word(end - 8, (int)k - 8);
		if (lo < 0 || hi < 0)
			return -1;
		*v = (double)((uint64_t)hi * 100000000 + (uint64_t)lo);
		return 0;
	}
	if (k > 19)
		return -1;
	for (d = p + 1; d < end && is_digit(*d); d++)
		u = u * 10 + (uint64_t)(*d - '0');
	if (d != end)
		return -1;
	*v = (double)u;
	return 0;
}

/*
 * A line of a monitor's /proc/vmstat record read straight from the
 * input's buffer (input_peekline(): not copied, not NUL-terminated):
 * when it is the plain `name digits` line whose name the previous record
 * had at this place, its point is added as vmstat_line() would add it,
 * and 1 is returned; else 0, with nothing changed, and the line goes the
 * usual way.  The name is compared where it lies, without reading it
 * first: the previous record's is made of word bytes (name_value()), so
 * a line that has it and then a space has exactly it.
 */
static int vm_fast_line(struct procfs *st, const char *s, size_t len,
			long lineno)
{
	const struct metric *m;
	size_t n;
	double v;

	if (st->series != 1 || st->sec != SEC_VMSTAT || st->cut.len ||
	    st->pos >= st->nr_order)
		return 0;
	m = &st->m[st->order[st->pos]];
	if (m->sec != SEC_VMSTAT || m->len <= st->vm_pfx_len)
		return 0;
	n = m->len - st->vm_pfx_len;
	if (len <= n || !same_bytes(s, m->name + st->vm_pfx_len, n) ||
	    vm_count(s, s + n, s + len, &v))
		return 0;
	st->line = lineno;
	add_point_i(st, SEC_VMSTAT, same_in_order(st), v, lineno);
	return 1;
}

static int vmstat_line(struct procfs *st, const char *s)
{
	size_t n;
	double v;

	if (vm_fast_line(st, s, strlen(s), st->line))
		return 0;
	if (name_value(s, &n, &v))
		return bad_line(st, "expected 'name value' (a /proc/vmstat "
				"line), got '%.60s'", s);
	make_name(st, NULL, "proc-vmstat.", 12, NULL);
	sbuf_add(&st->name, s, n);
	add_vm_point(st, SEC_VMSTAT, s, n, v);
	return 0;
}

/* Length of a meminfo key ("Active(file)") before its ':', or 0. */
static size_t meminfo_key_len(const char *s)
{
	size_t n = 0;

	while (is_word(s[n]) || s[n] == '(' || s[n] == ')')
		n++;
	return s[n] == ':' ? n : 0;
}

static int meminfo_line(struct procfs *st, const char *s)
{
	size_t n = meminfo_key_len(s);
	const char *p = s + n + 1, *unit = NULL;
	double v;

	if (!n)
		goto bad;
	str_skip_blanks(&p);
	if (get_count(&p, &v))
		goto bad;
	str_skip_blanks(&p);
	if (!str_expect_lit(&p, "kB"))
		unit = "kB";
	str_skip_blanks(&p);
	if (*p)
		goto bad;
	make_name(st, NULL, "meminfo.", 8, NULL);
	sbuf_add(&st->name, s, n);
	add_point(st, SEC_MEMINFO, MK_GAUGE, unit, v, st->line);
	return 0;
bad:
	return bad_line(st, "expected 'Name: value [kB]' (a /proc/meminfo "
			"line), got '%.60s'", s);
}

/* Which file a section's first line comes from; SEC_NONE = none. */
static enum section classify(const char *s)
{
	size_t n;
	double v;

	if (starts_with(s, "Node ") && strstr(s, ", zone"))
		return SEC_ZONEINFO;
	if (meminfo_key_len(s))
		return SEC_MEMINFO;
	if (!name_value(s, &n, &v))
		return SEC_VMSTAT;
	return SEC_NONE;
}

/* ---- records ---- */

static int start_run(struct procfs *st)
{
	struct run_desc rd = {
		.suite = "procfs", .testcase = "", .iteration = -1,
	};

	if (st->run_done)
		return 0;
	st->run_done = 1;
	if (st->series == 1)
		/* an epoch in seconds; anything out of range is no start */
		rd.start_time = st->t > 0 && st->t < 1e15 ?
					(int64_t)floor(st->t) : 0;
	return db_emit_run(st->ctx, &rd, st->line);
}

static void record_begin(struct procfs *st, double t)
{
	st->rec++;
	st->rec_line = st->line;
	st->t = t;
	st->nr_pts = 0;
	st->pos = 0;
	memset(st->keys, 0, sizeof(st->keys));
	st->zones = 0;
	st->sec = SEC_NONE;
}

/* What makes the current record incomplete, into why; 0 = complete. */
static int record_incomplete(struct procfs *st, struct sbuf *why)
{
	long zline = st->z.line;
	const char *what;
	int s;

	if (st->cut.len) {
		sbuf_addf(why, "line %ld: %s", st->cut_line, st->cut.buf);
		return 1;
	}
	if (zone_close(st, &what)) {
		sbuf_addf(why, "expected %s in the zone block started at line "
			  "%ld", what, zline);
		return 1;
	}
	if (!st->nr_pts) {
		sbuf_addstr(why, "expected a snapshot, got no values");
		return 1;
	}
	if (!st->nr_done)
		return 0;
	if (st->zones < st->first_zones) {
		sbuf_addf(why, "expected %zu zone blocks as in the first "
			  "record, got %zu", st->first_zones, st->zones);
		return 1;
	}
	for (s = SEC_VMSTAT; s < SEC_NR; s++) {
		if (st->keys[s] < st->first_keys[s]) {
			sbuf_addf(why, "expected %zu keys as in the first "
				  "record, got %zu", st->first_keys[s],
				  st->keys[s]);
			return 1;
		}
	}
	return 0;
}

static int record_write(struct procfs *st)
{
	size_t i;

	for (i = 0; i < st->nr_pts; i++) {
		const struct point *pt = &st->pts[i];
		struct metric *m = &st->m[pt->metric];
		int r;

		if (st->series == 1) {
			/* the handle once per metric, then points by it */
			r = m->id ? 0 : db_series_sync(st->ctx) ||
					db_metric(st->ctx, m->name, m->unit,
						  m->kind, pt->line, &m->id);
			if (!r)
				r = db_emit_series_id(st->ctx, m->id, st->t,
						      pt->value, pt->line);
		} else {
			r = db_emit_sample(st->ctx, m->name, m->unit, pt->value,
					   pt->line);
			if (!r && !m->declared) {
				r = db_set_kind(st->ctx, m->name, m->kind,
						pt->line);
				m->declared = 1;
			}
		}
		if (r)
			return r;
	}
	if (!st->nr_done++) {
		memcpy(st->first_keys, st->keys, sizeof(st->keys));
		st->first_zones = st->zones;
		/* the metrics are made: the points of the next records go
		 * to a writer thread while these lines are read */
		if (st->series == 1 && st->async)
			db_series_async(st->ctx);
	}
	st->nr_pts = 0;
	return 0;
}

/*
 * End the current record: write it, or refuse it.  at_eof: the last
 * record of a series may be incomplete (the file was cut), and is then
 * dropped with a warning.
 */
static int record_end(struct procfs *st, int at_eof)
{
	struct sbuf why = SBUF_INIT;
	int ret = 0;

	if (!record_incomplete(st, &why))
		return record_write(st);
	if (st->series == 1 && at_eof && st->nr_done) {
		db_warn(st->ctx, st->rec_line, "the last record (time: %.15g) "
			"is incomplete and was dropped, as lkp does: %s",
			st->t, why.buf);
	} else if (st->series == 1 && at_eof) {
		ret = error("%s:%ld: the only record (time: %.15g, line %ld) "
			    "is incomplete: %s", st->path, st->line, st->t,
			    st->rec_line, why.buf);
	} else if (st->series == 1) {
		ret = error("%s:%ld: the record of 'time: %.15g' (line %ld) is "
			    "incomplete: %s", st->path, st->line, st->t,
			    st->rec_line, why.buf);
	} else {
		ret = error("%s:%ld: the snapshot is incomplete: %s", st->path,
			    st->line, why.buf);
	}
	sbuf_release(&why);
	return ret;
}

static int time_line(struct procfs *st, const char *s)
{
	const char *p = s + 5;
	double t;

	str_skip_blanks(&p);
	if (str_double(&p, &t) || (str_skip_blanks(&p), *p) || t < 0)
		return error("%s:%ld: expected 'time: <epoch seconds>', got "
			     "'%.60s'", st->path, st->line, s);
	if (st->series == 0)
		return error("%s:%ld: expected one snapshot or only "
			     "'time:' records, got 'time:' after a snapshot "
			     "without one", st->path, st->line);
	if (st->rec && record_end(st, 0))
		return -1;
	st->series = 1;
	record_begin(st, t);
	return start_run(st);
}

static int content_line(struct procfs *st, const char *s)
{
	if (st->series < 0) {
		st->series = 0;
		record_begin(st, 0);
		if (start_run(st))
			return -1;
	}
	if (st->sec == SEC_NONE) {
		st->sec = classify(s);
		if (st->sec == SEC_NONE)
			return bad_line(st, "expected the content of "
					"/proc/zoneinfo ('Node N, zone NAME'), "
					"/proc/vmstat ('name value') or "
					"/proc/meminfo ('Name: value kB'), got "
					"'%.60s'", s);
	}
	switch (st->sec) {
	case SEC_ZONEINFO:
		return zoneinfo_line(st, s);
	case SEC_VMSTAT:
		return vmstat_line(st, s);
	case SEC_MEMINFO:
		return meminfo_line(st, s);
	default:
		BUG("section %d", (int)st->sec);
	}
}

static int one_line(struct procfs *st, struct sbuf *sb)
{
	const char *s;

	sbuf_rtrim(sb);
	s = sb->buf;
	if (!*s || *s == '#')
		return 0;
	if (st->cut.len)
		return error("%s:%ld: %s", st->path, st->cut_line,
			     st->cut.buf);
	if (*s == 't' && starts_with(s, "time:"))
		return time_line(st, s);
	if (*s == '=' && starts_with(s, "===")) {
		/* a section header of a pasted snapshot */
		st->sec = SEC_NONE;
		return zone_close_or_fail(st);
	}
	return content_line(st, s);
}

struct procfs *procfs_feed_new(struct import_ctx *ctx, const char *path,
			       const char *prefix)
{
	struct procfs *st = xcalloc(1, sizeof(*st));

	st->ctx = ctx;
	st->path = path;
	st->prefix = prefix;
	st->vm_pfx_len = (prefix ? strlen(prefix) : 0) + strlen("proc-vmstat.");
	st->series = -1;
	st->ref_tail = -1;
	sbuf_init(&st->npfx, 0);
	sbuf_init(&st->zpfx, 0);
	sbuf_init(&st->name, 0);
	sbuf_init(&st->cut, 0);
	return st;
}

int procfs_feed_line(struct procfs *st, struct sbuf *line, long lineno)
{
	st->line = lineno;
	return one_line(st, line);
}

int procfs_feed_end(struct procfs *st, int finish)
{
	size_t i;
	int ret = 0;

	if (finish && !st->rec)
		ret = error("%s: empty file, expected the content of "
			    "/proc/zoneinfo, /proc/vmstat or /proc/meminfo",
			    st->path);
	else if (finish)
		ret = record_end(st, 1);
	for (i = 0; i < st->nr_m; i++)
		free(st->m[i].name);
	free(st->m);
	free(st->pts);
	free(st->order);
	strmap_clear(&st->ids);
	sbuf_release(&st->npfx);
	sbuf_release(&st->zpfx);
	sbuf_release(&st->name);
	sbuf_release(&st->cut);
	free(st);
	return ret;
}

static int procfs_parse(struct import_ctx *ctx, struct input *in)
{
	struct procfs *st = procfs_feed_new(ctx, in->path, NULL);
	int r, failed = 0;

	/* a whole file is ours: its series may be written beside us */
	st->async = 1;
	for (;;) {
		const char *p;
		size_t len;

		/* most lines of a series: read where they lie */
		if (input_peekline(in, &p, &len) &&
		    vm_fast_line(st, p, len, in->line + 1)) {
			input_skipline(in, len);
			continue;
		}
		if ((r = input_getline(in)) <= 0)
			break;
		if (procfs_feed_line(st, &in->sb, in->line)) {
			failed = 1;
			break;
		}
	}
	if (r < 0)
		failed = 1;
	r = procfs_feed_end(st, !failed);
	/*
	 * The writer idle before the driver uses the database again, and
	 * ended: the next member of the run is not this file
	 */
	if (db_series_async_end(ctx) || failed)
		r = -1;
	return r;
}

/* ---- detection ---- */

/*
 * The first content line decides, past comments, '=' headers and one
 * `time:` line: `Node N, zone Z` alone on its line is zoneinfo
 * (/proc/buddyinfo has numbers after the zone), `MemTotal:` or a run of
 * `Name: value kB` lines meminfo, a run of `name value` lines vmstat;
 * after a '=' header the next section may be of another kind.
 */
static int procfs_detect(const char *path, const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	char line[256];
	int first = 1, nr = 0, kind = SEC_NONE, known = 0, timed = 0;

	(void)path;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!nl && len >= sizeof(((struct input *)0)->head))
			break;	/* a cut line at the end of the head */
		n = (size_t)((nl ? nl : end) - p);
		if (n >= sizeof(line))
			return 0;
		memcpy(line, p, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			return 0;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
			line[--n] = '\0';
		p = nl ? nl + 1 : end;
		if (!n || line[0] == '#')
			continue;
		if (starts_with(line, "===")) {
			first = 1;	/* a pasted section of any kind */
			continue;
		}
		if (starts_with(line, "time:")) {
			double t;

			if (str_to_double(line + 5, &t))
				return 0;
			timed = 1;
			continue;
		}
		if (first) {
			first = 0;
			kind = classify(line);
			nr = 0;
			if (kind == SEC_ZONEINFO) {
				const char *q = strstr(line, ", zone") + 6;

				str_skip_blanks(&q);
				q += word_len(q);
				return *q ? 0 : 95;
			}
			if (kind == SEC_NONE)
				return 0;
			known |= starts_with(line, "MemTotal:") ||
				 starts_with(line, "nr_free_pages ") ||
				 starts_with(line, "nr_dirty ");
		} else if ((int)classify(line) != kind) {
			return 0;
		}
		if (++nr >= 8)
			break;
	}
	if (kind == SEC_NONE)
		return 0;
	if (known)
		return 95;
	if (nr >= 3)
		return timed ? 70 : 60;
	return 20;
}

const struct importer importer_procfs = {
	.name = "procfs",
	.family = "procfs",
	.what = "/proc/zoneinfo, /proc/vmstat, /proc/meminfo: snapshots "
		"and monitor series",
	.flags = IMP_FILES | IMP_SAMPLES | IMP_SERIES,
	.detect = procfs_detect,
	.parse = procfs_parse,
	.lkp_names = (const char *const[]){ "meminfo", "proc-vmstat", "zoneinfo", NULL },
};
