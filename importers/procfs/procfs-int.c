/*
 * What the procfs readers share (procfs-int.h), below procfs.c's records
 * and the readers of zoneinfo, vmstat and meminfo: the kind of a key
 * (event counter or gauge), a malformed line's report, the numbers of a
 * line, and a metric's index and points in the run being read.
 */
#include "core/compat.h"
#include <ctype.h>
#include "core/strparse.h"
#include "procfs-int.h"

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

enum metric_kind pf_kind_of(const char *const *tab, size_t n,
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
	return pf_kind_of(counter_prefixes, ARRAY_SIZE(counter_prefixes), key,
			  len);
}

/*
 * A malformed line.  In a snapshot: error().  In a series it may be the
 * last line of a file cut while the monitor wrote it: remembered, and
 * reported only if another line follows.
 */
__attribute__((format(printf, 2, 3)))
int pf_bad_line(struct procfs *st, const char *fmt, ...)
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
 * A count as the kernel prints it (digits); advances *p only on success.
 * No sign: /proc/vmstat, zoneinfo and meminfo print unsigned counters
 * (a per-cpu drift below zero is printed as 0), so "-929552" is damage,
 * refused as a line that does not read.
 */
int pf_get_count(const char **p, double *out)
{
	const char *s = *p, *d = s;
	uint64_t u = 0;
	char *end;
	double v;

	if (!is_digit(*d))
		return -1;
	/* up to 19 digits exactly in an integer; longer ones via strtod */
	while (is_digit(*d) && d - s < 19)
		u = u * 10 + (uint64_t)(*d++ - '0');
	if (!is_digit(*d)) {
		*out = (double)u;
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

/* `name value` with nothing after; 0 or -1. */
int pf_name_value(const char *s, size_t *nlen, double *v)
{
	const char *p = s + word_len(s);

	*nlen = (size_t)(p - s);
	if (!*nlen || (*p != ' ' && *p != '\t'))
		return -1;
	str_skip_blanks(&p);
	if (pf_get_count(&p, v))
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
 * Index of the metric named st->name, created with kind and unit; with
 * vm_key, the kind is vm_kind(vm_key) (looked up only when the metric is
 * new: the prefix table is not scanned for every line).
 */
size_t pf_metric_index(struct procfs *st, enum section sec,
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
void pf_add_point_i(struct procfs *st, enum section sec, size_t i,
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

/* st->name = prefix + a + b (b may be NULL). */
void pf_make_name(struct procfs *st, const struct sbuf *prefix,
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
