/*
 * The procfs importer: /proc/zoneinfo, /proc/vmstat and /proc/meminfo,
 * either one snapshot (the file as cat printed it) or a monitor series
 * (lkp's and MMTests' `time: <epoch>` records), streamed line by line
 * into one run per file under lkp's key names.
 */
#include "core/compat.h"
#include <ctype.h>
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "procfs.h"
#include "procfs-int.h"

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

/* ---- records ---- */

/* Epoch seconds past any start time (and within int64_t). */
#define EPOCH_MAX_S 1e15

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
		rd.start_time = st->t > 0 && st->t < EPOCH_MAX_S ?
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
	if (pf_zone_close(st, &what)) {
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
	const char *p = s + strlen("time:");
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
		long bad;

		st->sec = pf_classify(s);
		if (st->sec == SEC_NONE && (bad = text_bad_byte(s)) >= 0)
			return pf_bad_line(st, "expected the text of a /proc "
					   "file, got binary data (byte 0x%02x "
					   "at column %ld)",
					   (unsigned char)s[bad], bad + 1);
		if (st->sec == SEC_NONE)
			return pf_bad_line(st, "expected the content of "
					   "/proc/zoneinfo ('Node N, zone "
					   "NAME'), /proc/vmstat ('name "
					   "value') or /proc/meminfo ('Name: "
					   "value kB'), got '%.60s'", s);
	}
	switch (st->sec) {
	case SEC_ZONEINFO:
		return pf_zoneinfo_line(st, s);
	case SEC_VMSTAT:
		return pf_vmstat_line(st, s);
	case SEC_MEMINFO:
		return pf_meminfo_line(st, s);
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
		return pf_zone_close_or_fail(st);
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
		    pf_vm_fast_line(st, p, len, in->line + 1)) {
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
/* Content lines of one kind that are enough to decide. */
#define DETECT_LINES 8
/* The longest line of the head that detection reads. */
#define DETECT_LINE_MAX 256

/* What detection has seen of the head so far. */
struct peek {
	int first;		/* the next content line starts a section */
	int nr;			/* content lines of the section so far */
	int kind;		/* enum section of the section */
	int known;		/* a line that only these files print */
	int timed;		/* a `time:` line */
};

/* peek_line() answers other than a score: read on, or enough is read */
#define PEEK_MORE (-1)
#define PEEK_ENOUGH (-2)

/*
 * The next line of the head at *p into line, its trailing blanks cut:
 * 1, 0 at the end (a line cut by the end of the head too), -1 if it is
 * too long or holds a NUL (not a /proc text file).
 */
static int head_line(const char **p, const char *end, size_t len,
		     char line[DETECT_LINE_MAX])
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	size_t n;

	if (!nl && len >= sizeof(((struct input *)0)->head))
		return 0;	/* a cut line at the end of the head */
	n = (size_t)((nl ? nl : end) - *p);
	if (n >= DETECT_LINE_MAX)
		return -1;
	memcpy(line, *p, n);
	line[n] = '\0';
	if (memchr(line, '\0', n))
		return -1;
	while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
		line[--n] = '\0';
	*p = nl ? nl + 1 : end;
	return 1;
}

/* One line of the head: PEEK_MORE, PEEK_ENOUGH, or the score. */
static int peek_line(struct peek *pk, const char *line)
{
	if (!*line || line[0] == '#')
		return PEEK_MORE;
	if (starts_with(line, "===")) {
		pk->first = 1;	/* a pasted section of any kind */
		return PEEK_MORE;
	}
	if (starts_with(line, "time:")) {
		double t;

		if (str_to_double(line + strlen("time:"), &t))
			return 0;
		pk->timed = 1;
		return PEEK_MORE;
	}
	if (pk->first) {
		pk->first = 0;
		pk->kind = pf_classify(line);
		pk->nr = 0;
		if (pk->kind == SEC_ZONEINFO) {
			const char *q = strstr(line, ", zone") +
					strlen(", zone");

			str_skip_blanks(&q);
			q += word_len(q);
			return *q ? 0 : 95;
		}
		if (pk->kind == SEC_NONE)
			return 0;
		pk->known |= starts_with(line, "MemTotal:") ||
			     starts_with(line, "nr_free_pages ") ||
			     starts_with(line, "nr_dirty ");
	} else if ((int)pf_classify(line) != pk->kind) {
		return 0;
	}
	return ++pk->nr >= DETECT_LINES ? PEEK_ENOUGH : PEEK_MORE;
}

static int procfs_detect(const char *path, const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	char line[DETECT_LINE_MAX];
	struct peek pk = { 1, 0, SEC_NONE, 0, 0 };
	int r;

	(void)path;
	while (p < end) {
		r = head_line(&p, end, len, line);
		if (r < 0)
			return 0;
		if (!r)
			break;
		r = peek_line(&pk, line);
		if (r == PEEK_ENOUGH)
			break;
		if (r != PEEK_MORE)
			return r;
	}
	if (pk.kind == SEC_NONE)
		return 0;
	if (pk.known)
		return 95;
	if (pk.nr >= 3)
		return pk.timed ? 70 : 60;
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
	.lkp_names = (const char *const[]){
		"meminfo", "proc-vmstat", "zoneinfo", NULL,
	},
};
