/*
 * An iteration of an MMTests test written (mmtests-tree-int.h): the
 * values its extractor reported, a run per repetition, and with the
 * first run the iteration's own files: tests-timestamp (Duration),
 * tests-sysstate (the vmstat counters and MMTests' Ops from them), and
 * the monitors proc-vmstat, vmstat and iostat as series.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "../procfs/procfs.h"
#include "mmtests-tree-int.h"
#include <ctype.h>

/*
 * State a metric of the test (direction, summary, position) the first
 * time this import uses it.
 */
int mt_state(struct tree *t, const char *metric, const char *unit,
	     int direction, const char *summary, long position, long line)
{
	struct metric_state ms = { direction, summary, position };
	int64_t v;

	if (strmap_get(&t->stated, metric, strlen(metric), &v))
		return 0;
	strmap_put(&t->stated, metric, strlen(metric), 1);
	return db_metric_state(t->ctx, metric, unit, &ms, line);
}

/*
 * Positions: an operation's is its place in MMTests' order (declared or
 * first added, across the iterations); the iteration's own metrics
 * (Duration, Ops) come after every operation, in the order written.
 */
#define ITER_POSITION 1000000L

/* Emit a per-iteration value (Duration, Ops) as a sample of the run. */
static int iter_sample(struct tree *t, const char *table, const char *row,
		       const char *unit, int direction, double v, long line)
{
	char summary[64];

	snprintf(summary, sizeof(summary), "Monitor:%s", table);
	sbuf_reset(&t->name);
	sbuf_addf(&t->name, "%s.%s.%s", t->test, table, row);
	if (mt_state(t, t->name.buf, unit, direction, summary,
		     ITER_POSITION + t->position++, line))
		return -1;
	return db_emit_sample(t->ctx, t->name.buf, unit, v, line);
}

/* ---- one iteration's own files ---- */

/* "test begin :: T 123", "time :: T U user S system E elapsed" */
static const char *after_test(const char *s, const char *lead,
			      const char *test)
{
	size_t n = strlen(lead), t = strlen(test);

	if (strncmp(s, lead, n) || strncmp(s + n, test, t) ||
	    (s[n + t] != ' ' && s[n + t]))
		return NULL;
	return s + n + t;
}

int mt_read_timestamp(struct tree *t, struct iter *it)
{
	struct input in;
	int r;

	if (import_open_member(t->ctx, it->timestamp, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf, *p;
		double u, sy, e;
		long long ep;

		if ((p = after_test(s, "test begin :: ", t->test))) {
			if (sscanf(p, "%lld", &ep) == 1)
				it->begin = ep;
		} else if ((p = after_test(s, "test end :: ", t->test))) {
			if (sscanf(p, "%lld", &ep) == 1)
				it->end = ep;
		} else if ((p = after_test(s, "time :: ", t->test))) {
			char w1[16], w2[16], w3[16];

			if (sscanf(p, " %lf %15s %lf %15s %lf %15s", &u, w1,
				   &sy, w2, &e, w3) != 6 ||
			    strcmp(w1, "user") || strcmp(w2, "system") ||
			    strcmp(w3, "elapsed")) {
				import_close_member(t->ctx, it->timestamp, &in);
				return error("%s:%ld: expected 'time :: %s U "
					     "user S system E elapsed', got "
					     "'%.80s'", in.path, in.line,
					     t->test, s);
			}
			it->user = u;
			it->sys = sy;
			it->elapsed = e;
			it->have_time = 1;
			it->time_line = in.line;
		}
	}
	if (import_close_member(t->ctx, it->timestamp, &in) || r < 0)
		return -1;
	return 0;
}

/*
 * kernel.version: MMTests keeps `uname -a` there ("Linux <host>
 * <release> #1 SMP ..."): the release is the runs' kernel, the host their
 * machine.
 */
int mt_read_kernel_version(struct tree *t, struct iter *it)
{
	struct input in;
	int r;

	if (import_open_member(t->ctx, it->kernel_version, &in))
		return -1;
	r = input_getline(&in);
	if (r > 0) {
		char os[32];

		if (sscanf(in.sb.buf, "%31s %127s %127s", os, it->machine,
			   it->kernel) != 3 || strcmp(os, "Linux")) {
			it->machine[0] = it->kernel[0] = '\0';
			db_warn(t->ctx, in.line, "%s: expected `uname -a` "
				"output ('Linux <host> <release> ...'), got "
				"'%.60s'; no kernel or machine taken from it",
				in.path, in.sb.buf);
		}
	}
	if (import_close_member(t->ctx, it->kernel_version, &in) || r < 0)
		return -1;
	return 0;
}

static int emit_duration(struct tree *t, struct iter *it)
{
	if (!it->have_time)
		return 0;
	if (db_emit_source(t->ctx, it->timestamp->name))
		return -1;
	return iter_sample(t, "Duration", "User", "s", DIR_LOWER, it->user,
			   it->time_line) ||
	       iter_sample(t, "Duration", "System", "s", DIR_LOWER, it->sys,
			   it->time_line) ||
	       iter_sample(t, "Duration", "Elapsed", "s", DIR_LOWER,
			   it->elapsed, it->time_line) ? -1 : 0;
}

/* /proc/vmstat before and after the test, as MonitorMmtestsvmstat reads. */
struct vmsnap {
	struct strmap before, after;	/* name -> index into v */
	double *v;
	size_t nr, alloc;
};

static void snap_set(struct vmsnap *s, struct strmap *m, const char *key,
		     size_t len, double v)
{
	int64_t idx;

	if (strmap_get(m, key, len, &idx)) {
		s->v[idx] = v;
		return;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr] = v;
	strmap_put(m, key, len, (int64_t)s->nr++);
}

static int snap_has(struct strmap *m, const char *key)
{
	int64_t idx;

	return strmap_get(m, key, strlen(key), &idx);
}

/* after - before of key; 0 when the after snapshot lacks it */
static double delta(struct vmsnap *s, const char *key)
{
	int64_t a, b;

	if (!strmap_get(&s->after, key, strlen(key), &a))
		return 0;
	return s->v[a] - (strmap_get(&s->before, key, strlen(key), &b) ?
			  s->v[b] : 0);
}

static double sum_deltas(struct vmsnap *s, const char *prefix,
			 const char *const *suffix, size_t n)
{
	char key[96];
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, suffix[i]);
		sum += delta(s, key);
	}
	return sum;
}

/* MMTests' renames, applied as the lines are read (§10). */
static const char *renamed(const char *key, size_t len, size_t *out_len)
{
	static const struct { const char *from, *to; } tab[] = {
		{ "allocstall_dma", "allocstall" },
		{ "allocstall_dma32", "allocstall" },
		{ "allocstall_normal", "allocstall" },
		{ "allocstall_movable", "allocstall" },
		{ "allocstall_highmem", "allocstall" },
		{ "thp_split", "thp_split_page" },
		{ "thp_failed", "thp_split_page_failed" },
		{ "compact_pages_moved", "pgmigrate_success" },
		{ "compact_pagemigrate_failed", "pgmigrate_failed" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (strlen(tab[i].from) == len &&
		    !memcmp(tab[i].from, key, len)) {
			*out_len = strlen(tab[i].to);
			return tab[i].to;
		}
	*out_len = len;
	return key;
}

/*
 * The Ops table (research/mmtests-2020-extractors.md §10), in MMTests'
 * order, from the deltas.
 */
static int emit_ops(struct tree *t, struct vmsnap *s, double elapsed,
		    long line)
{
	static const char *const zones[] = { "_dma", "_dma32", "_normal",
					     "_movable", "_high", "" };
	static const char *const zones2[] = { "_dma", "_dma32", "_normal",
					      "_high", "_movable", "" };
	double minor = delta(s, "pgfault") - delta(s, "pgmajfault");
	double dscan, kscan, ksteal, dsteal, cstall, csucc, mscan, fscan;
	double hint, hint_local, v;
	struct { const char *row; double v; int undefined; } rows[64];
	size_t n = 0, i;

#define ROW(label, value) do { rows[n].row = (label); rows[n].v = (value); \
			       rows[n++].undefined = 0; } while (0)
	dscan = sum_deltas(s, "pgscan_direct", zones, ARRAY_SIZE(zones));
	kscan = sum_deltas(s, "pgscan_kswapd", zones, ARRAY_SIZE(zones));
	ksteal = delta(s, "kswapd_steal") +
		 sum_deltas(s, "pgsteal_kswapd", zones2, ARRAY_SIZE(zones2));
	dsteal = sum_deltas(s, "pgsteal", zones, ARRAY_SIZE(zones) - 1) +
		 sum_deltas(s, "pgsteal_direct", zones, ARRAY_SIZE(zones));
	if (snap_has(&s->after, "kswapd_steal"))
		dsteal -= delta(s, "kswapd_steal");
	ROW("Minor Faults", minor);
	ROW("Major Faults", delta(s, "pgmajfault"));
	ROW("Swap Ins", delta(s, "pswpin"));
	ROW("Swap Outs", delta(s, "pswpout"));
	ROW("Allocation stalls", delta(s, "allocstall"));
	ROW("Fragmentation stalls", delta(s, "fragment_stall"));
	ROW("DMA allocs", delta(s, "pgalloc_dma"));
	ROW("DMA32 allocs", delta(s, "pgalloc_dma32"));
	ROW("Normal allocs", delta(s, "pgalloc_normal"));
	ROW("Movable allocs", delta(s, "pgalloc_movable"));
	ROW("Direct pages scanned", dscan);
	ROW("Kswapd pages scanned", kscan);
	ROW("Kswapd pages reclaimed", ksteal);
	ROW("Direct pages reclaimed", dsteal);
	ROW("Kswapd efficiency %", kscan ? ksteal * 100 / kscan : 100);
	ROW("Kswapd velocity", kscan / elapsed);
	ROW("Direct efficiency %", dscan ? dsteal * 100 / dscan : 100);
	ROW("Direct velocity", dscan / elapsed);
	ROW("Percentage direct scans", kscan + dscan ?
	    dscan * 100 / (kscan + dscan) : 0);
	ROW("Page writes by reclaim", delta(s, "nr_vmscan_write"));
	ROW("Page writes file", delta(s, "nr_vmscan_write") -
	    delta(s, "pswpout"));
	ROW("Page writes anon", delta(s, "pswpout"));
	ROW("Page reclaim immediate", delta(s, "nr_vmscan_immediate_reclaim"));
	ROW("Sector Reads", delta(s, "pgpgin"));
	ROW("Sector Writes", delta(s, "pgpgout"));
	ROW("Page rescued immediate", delta(s, "pgrescued"));
	ROW("Slabs scanned", delta(s, "slabs_scanned"));
	ROW("Direct inode steals", delta(s, "pginodesteal"));
	ROW("Kswapd inode steals", delta(s, "kswapd_inodesteal"));
	ROW("Kswapd skipped wait", delta(s, "kswapd_skip_congestion_wait"));
	ROW("THP fault alloc", delta(s, "thp_fault_alloc"));
	ROW("THP fault fallback", delta(s, "thp_fault_fallback"));
	ROW("THP collapse alloc", delta(s, "thp_collapse_alloc"));
	ROW("THP collapse fail", delta(s, "thp_collapse_alloc_failed"));
	ROW("THP split", delta(s, "thp_split_page"));
	ROW("THP split failed", delta(s, "thp_split_page_failed"));
	cstall = delta(s, "compact_stall");
	csucc = delta(s, "compact_success");
	ROW("Compaction stalls", cstall);
	ROW("Compaction success", csucc);
	ROW("Compaction failures", delta(s, "compact_fail"));
	/* undefined when nothing stalled: MMTests prints 0.00 */
	ROW("Compaction efficiency", cstall ? csucc * 100 / cstall : 0);
	ROW("Page migrate success", delta(s, "pgmigrate_success"));
	ROW("Page migrate failure", delta(s, "pgmigrate_fail"));
	mscan = delta(s, "compact_migrate_scanned");
	fscan = delta(s, "compact_free_scanned");
	ROW("Compaction pages isolated", delta(s, "compact_isolated"));
	ROW("Compaction migrate scanned", mscan);
	ROW("Compaction free scanned", fscan);
	ROW("Compact scan efficiency", !mscan ? 0 : mscan * 100 /
	    (fscan ? fscan : 1));
	v = snap_has(&s->before, "compact_migrate_scanned") ?
	    (7 * mscan + 19 * delta(s, "compact_isolated") +
	     1038 * delta(s, "pgmigrate_success") +
	     14 * delta(s, "pgmigrate_fail")) / 1e6 : -1 / 1e6;
	ROW("Compaction cost", v);
	ROW("Kcompactd wake", delta(s, "compact_daemon_wake"));
	ROW("Kcompactd migrate scanned",
	    delta(s, "compact_daemon_migrate_scanned"));
	ROW("Kcompactd free scanned", delta(s, "compact_daemon_free_scanned"));
	ROW("NUMA alloc hit", delta(s, "numa_hit"));
	ROW("NUMA alloc miss", delta(s, "numa_miss"));
	ROW("NUMA interleave hit", delta(s, "numa_interleave"));
	ROW("NUMA alloc local", delta(s, "numa_local"));
	ROW("NUMA base-page range updates", delta(s, "numa_pte_updates"));
	ROW("NUMA PTE updates", delta(s, "numa_pte_updates") -
	    512 * delta(s, "numa_huge_pte_updates"));
	ROW("NUMA PMD updates", delta(s, "numa_huge_pte_updates"));
	hint = delta(s, "numa_hint_faults");
	hint_local = delta(s, "numa_hint_faults_local");
	ROW("NUMA hint faults", hint);
	/* MMTests prints the count under a "%" label */
	ROW("NUMA hint local faults %", hint_local);
	ROW("NUMA hint local percent", hint ? hint_local * 100 / hint : 100);
	ROW("NUMA pages migrated", delta(s, "numa_pages_migrated"));
	ROW("AutoNUMA cost", (7 * delta(s, "numa_pte_updates") +
			      5000 * hint +
			      19 * delta(s, "numa_pages_migrated")) / 1e6);
#undef ROW
	if (n > ARRAY_SIZE(rows))
		BUG("Ops rows");
	for (i = 0; i < n; i++)
		if (iter_sample(t, "Ops", rows[i].row, NULL, DIR_HIGHER,
				rows[i].v, line))
			return -1;
	return 0;
}

/*
 * tests-sysstate: the test's block, its /proc/vmstat before and after
 * fed to the procfs parser as two `time:` records (series of counters
 * under "mmtests-sysstate."), and the Ops table.
 */
static int read_sysstate(struct tree *t, struct iter *it)
{
	enum { OUT, TEST, BEFORE, AFTER } where = OUT;
	struct vmsnap s = { STRMAP_INIT, STRMAP_INIT, NULL, 0, 0 };
	struct procfs *pf = NULL;
	struct sbuf rec = SBUF_INIT;
	struct input in;
	long block_line = 0, nbefore = 0, nafter = 0;
	int r, ret = -1;

	if (import_open_member(t->ctx, it->sysstate, &in))
		return -1;
	t->ctx->nested++;
	pf = procfs_feed_new(t->ctx, in.path, "mmtests-sysstate.");
	while ((r = input_getline(&in)) > 0) {
		const char *l = in.sb.buf;

		if (where == OUT) {
			if (after_test(l, "test begin :: ", t->test)) {
				where = TEST;
				block_line = in.line;
			}
			continue;
		}
		if (after_test(l, "test end :: ", t->test))
			break;
		if (!strcmp(l, "file start :: /proc/vmstat") ||
		    !strcmp(l, "file end :: /proc/vmstat")) {
			int before = l[5] == 's';

			where = before ? BEFORE : AFTER;
			sbuf_reset(&rec);
			sbuf_addf(&rec, "time: %lld", (long long)(before ?
				  it->begin : (it->end ? it->end :
					       it->begin)));
			if (procfs_feed_line(pf, &rec, in.line))
				goto out;
			continue;
		}
		if (starts_with(l, "file start :: ") ||
		    starts_with(l, "file end :: ")) {
			where = TEST;
			continue;
		}
		if (where == BEFORE || where == AFTER) {
			const char *sp = strchr(l, ' ');
			const char *key;
			size_t klen;
			char *end;
			double v;

			if (!sp || sp == l || !*(sp + 1) ||
			    (v = strtod(sp + 1, &end), *end)) {
				error("%s:%ld: expected a /proc/vmstat line "
				      "'name value', got '%.60s'", in.path,
				      in.line, l);
				goto out;
			}
			key = renamed(l, (size_t)(sp - l), &klen);
			snap_set(&s, where == BEFORE ? &s.before : &s.after,
				 key, klen, v);
			if (where == BEFORE)
				nbefore++;
			else
				nafter++;
			if (procfs_feed_line(pf, &in.sb, in.line))
				goto out;
		}
	}
	if (r < 0)
		goto out;
	if (where == OUT) {
		/* MMTests' plain file may hold only "status :: 0" */
		db_warn(t->ctx, 0, "no 'test begin :: %s' block: no Ops table "
			"for %s", t->test, it->prefix);
		ret = 0;
		goto out;
	}
	if (!nbefore || !nafter) {
		error("%s:%ld: expected /proc/vmstat before and after the test "
		      "in its block, got %s", in.path, block_line,
		      !nbefore && !nafter ? "neither" : nbefore ? "no after" :
		      "no before");
		goto out;
	}
	r = procfs_feed_end(pf, 1);
	pf = NULL;
	if (r)
		goto out;
	ret = emit_ops(t, &s, it->have_time && it->elapsed > 0 ?
		       it->elapsed : 1, block_line);
out:
	if (pf)
		procfs_feed_end(pf, 0);
	t->ctx->nested--;
	if (import_close_member(t->ctx, it->sysstate, &in))
		ret = -1;
	strmap_clear(&s.before);
	strmap_clear(&s.after);
	free(s.v);
	sbuf_release(&rec);
	return ret;
}

/*
 * The vmstat monitor: `vmstat -n` through MMTests' latency-output,
 * "<epoch> <offset> <delta> -- r b swpd free ...": series under lkp's
 * names, gauges.
 */
static int read_vmstat(struct tree *t, const struct member *m)
{
	static const char *const cols[] = {
		"vmstat.procs.r", "vmstat.procs.b", "vmstat.memory.swpd",
		"vmstat.memory.free", "vmstat.memory.buff",
		"vmstat.memory.cache", "vmstat.swap.si", "vmstat.swap.so",
		"vmstat.io.bi", "vmstat.io.bo", "vmstat.system.in",
		"vmstat.system.cs", "vmstat.cpu.us", "vmstat.cpu.sy",
		"vmstat.cpu.id", "vmstat.cpu.wa", "vmstat.cpu.st",
		"vmstat.cpu.gu",
	};
	int64_t id[ARRAY_SIZE(cols)] = { 0 };
	struct input in;
	int r, ret = -1;

	if (import_open_member(t->ctx, m, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p = in.sb.buf, *dd = strstr(p, " -- ");
		double ep, v;
		size_t i = 0;

		str_skip_blanks(&p);
		if (!*p)
			continue;
		if (!dd || str_double(&p, &ep)) {
			error("%s:%ld: expected '<epoch> <offset> <delta> -- "
			      "<vmstat columns>', got '%.60s'", in.path,
			      in.line, in.sb.buf);
			goto out;
		}
		p = dd + 4;
		str_skip_blanks(&p);
		if (!isdigit((unsigned char)*p))
			continue;	/* a header vmstat repeated */
		while (*p && i < ARRAY_SIZE(cols)) {
			if (str_double(&p, &v)) {
				error("%s:%ld: expected a number in column %zu,"
				      " got '%.20s'", in.path, in.line, i + 1,
				      p);
				goto out;
			}
			if (!id[i] && db_metric(t->ctx, cols[i], NULL,
						MK_GAUGE, in.line, &id[i]))
				goto out;
			if (db_emit_series_id(t->ctx, id[i], ep, v, in.line))
				goto out;
			i++;
			str_skip_blanks(&p);
		}
	}
	ret = r < 0 ? -1 : 0;
out:
	if (import_close_member(t->ctx, m, &in))
		ret = -1;
	return ret;
}

/* Drop ANSI SGR sequences (ESC [ ... m) from a line, in place. */
static void strip_ansi(struct sbuf *sb)
{
	size_t i, o = 0;

	for (i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '\x1b' && i + 1 < sb->len &&
		    sb->buf[i + 1] == '[') {
			size_t j = i + 2;

			while (j < sb->len && (isdigit((unsigned char)sb->buf[j])
					       || sb->buf[j] == ';'))
				j++;
			if (j < sb->len && sb->buf[j] == 'm') {
				i = j;
				continue;
			}
		}
		sb->buf[o++] = sb->buf[i];
	}
	sbuf_setlen(sb, o);
}

/*
 * The iostat monitor (`iostat -x` behind the same prefix): blocks of
 * "avg-cpu:" and "Device" header lines, each followed by rows; series
 * iostat.cpu.<column> and iostat.<device>.<column>, columns as iostat
 * names them (r/s, w_await, %util), gauges.  The first block is
 * iostat's average since boot, kept as the first point, as vmstat's.
 */
static int read_iostat(struct tree *t, const struct member *m)
{
	char cols[32][24];
	size_t nr_cols = 0;
	int cpu = 0;
	struct input in;
	struct sbuf name = SBUF_INIT;
	int r, ret = -1;

	if (import_open_member(t->ctx, m, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p, *dd;
		char dev[64];
		double ep, v;
		size_t i, n;

		/* iostat colours its numbers when S_COLORS says so */
		strip_ansi(&in.sb);
		p = in.sb.buf;
		dd = strstr(p, " -- ");
		str_skip_blanks(&p);
		if (!*p)
			continue;
		if (!dd || str_double(&p, &ep)) {
			error("%s:%ld: expected '<epoch> <offset> <delta> -- "
			      "<iostat line>', got '%.60s'", in.path, in.line,
			      in.sb.buf);
			goto out;
		}
		p = dd + 4;
		str_skip_blanks(&p);
		if (!*p) {
			nr_cols = 0;
			continue;
		}
		if (starts_with(p, "avg-cpu:") || starts_with(p, "Device")) {
			cpu = p[0] == 'a';
			p += cpu ? 8 : 6;
			if (*p == ':')
				p++;
			for (nr_cols = 0; nr_cols < ARRAY_SIZE(cols); ) {
				str_skip_blanks(&p);
				n = strcspn(p, " \t");
				if (!n)
					break;
				if (n >= sizeof(cols[0]))
					n = sizeof(cols[0]) - 1;
				memcpy(cols[nr_cols], p, n);
				cols[nr_cols++][n] = '\0';
				p += strcspn(p, " \t");
			}
			continue;
		}
		if (!nr_cols)
			continue;	/* iostat's banner line */
		if (cpu) {
			snprintf(dev, sizeof(dev), "cpu");
		} else {
			n = strcspn(p, " \t");
			snprintf(dev, sizeof(dev), "%.*s", (int)n, p);
			p += n;
		}
		for (i = 0; i < nr_cols; i++) {
			str_skip_blanks(&p);
			if (!*p)
				break;
			if (str_double(&p, &v)) {
				error("%s:%ld: expected a number under '%s', "
				      "got '%.20s'", in.path, in.line, cols[i],
				      p);
				goto out;
			}
			sbuf_reset(&name);
			sbuf_addf(&name, "iostat.%s.%s", dev, cols[i]);
			if (db_emit_series(t->ctx, name.buf, NULL, MK_GAUGE, ep,
					   v, in.line))
				goto out;
		}
	}
	ret = r < 0 ? -1 : 0;
out:
	sbuf_release(&name);
	if (import_close_member(t->ctx, m, &in))
		ret = -1;
	return ret;
}

/* The iteration's own files: after the values of its first run. */
static int iter_files(struct tree *t, struct iter *it)
{
	const char *keep = t->ctx->path;
	int ret = -1;

	if (emit_duration(t, it))
		goto out;
	if (it->sysstate) {
		t->ctx->path = it->sysstate->path;
		if (read_sysstate(t, it))
			goto out;
	}
	if (it->proc_vmstat &&
	    import_nested(t->ctx, "procfs", it->proc_vmstat) < 0)
		goto out;
	if (it->vmstat) {
		t->ctx->path = it->vmstat->path;
		if (read_vmstat(t, it->vmstat))
			goto out;
	}
	if (it->iostat) {
		t->ctx->path = it->iostat->path;
		if (read_iostat(t, it->iostat))
			goto out;
	}
	ret = 0;
out:
	t->ctx->path = keep;
	return ret;
}

/* ---- writing an iteration ---- */

/* The metric of operation op of this test: "<test>.<op>". */
static void metric_name(struct sbuf *sb, const char *test, const char *op)
{
	sbuf_reset(sb);
	sbuf_addf(sb, "%s.%s", test, op);
}

static int cmp_val_rep(const void *a, const void *b)
{
	const struct mmx_val *x = a, *y = b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	/* stable: the order reported */
	return x < y ? -1 : x > y;
}

const char *mt_summary_of(const struct mmtests_extractor *ex)
{
	static char buf[96];

	switch (ex->summary) {
	case MMX_MULTIOPS:
		return "Multiops";
	case MMX_SINGLEOPS:
		snprintf(buf, sizeof(buf), "Singleops:%s", ex->label);
		return buf;
	case MMX_SINGLEOPS_MEAN:
		snprintf(buf, sizeof(buf), "Singleops-mean:%s", ex->label);
		return buf;
	}
	return NULL;
}

int mt_write_iteration(struct tree *t, struct mmx *x, struct iter *it,
		       const char *label)
{
	struct run_desc rd = {
		.suite = "mmtests", .testcase = t->test, .label = label,
		.kernel = it->kernel, .machine = it->machine,
		.iteration = -1, .start_time = it->begin,
	};
	size_t i, j, k;
	int first = 1;

	/* stable by repetition: each repetition one run */
	qsort(x->val, x->nr_val, sizeof(*x->val), cmp_val_rep);
	for (i = 0; i < x->nr_val; i = j) {
		for (j = i; j < x->nr_val && x->val[j].rep == x->val[i].rep;
		     j++)
			;
		if (db_emit_run(t->ctx, &rd, x->val[i].line))
			return -1;
		for (k = i; k < j; k++) {
			const struct mmx_val *v = &x->val[k];
			const struct mmx_op *op = &x->ops[v->op];

			metric_name(&t->name, t->test, op->name);
			t->ctx->source_id = v->source;
			if (mt_state(t, t->name.buf, x->ex->unit, op->direction,
				     mt_summary_of(x->ex), (long)v->op,
				     v->line))
				return -1;
			if (isnan(v->t)) {
				int r = db_emit_sample(t->ctx, t->name.buf,
						       x->ex->unit, v->v,
						       v->line);

				if (r)
					return r;
			} else if (db_emit_series(t->ctx, t->name.buf,
						  x->ex->unit, MK_GAUGE, v->t,
						  v->v, v->line)) {
				return -1;
			}
		}
		if (first && iter_files(t, it))
			return -1;
		first = 0;
	}
	return 0;
}

/*
 * A value of a run given twice (t NAN): MMTests would pool both; a
 * run has one value of a metric, so this is an extractor's or a log's
 * error.  Checked before anything is written.
 */
int mt_check_twice(struct mmx *x)
{
	struct strmap seen = STRMAP_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < x->nr_val && !ret; i++) {
		struct { size_t op; long rep; } key;
		int64_t prev;

		if (!isnan(x->val[i].t))
			continue;
		memset(&key, 0, sizeof(key));
		key.op = x->val[i].op;
		key.rep = x->val[i].rep;
		if (strmap_get(&seen, (const char *)&key, sizeof(key), &prev))
			ret = error("%s:%ld: a second value of %s for repetition "
				    "%ld (the first at %s:%ld)", x->val[i].file,
				    x->val[i].line, x->ops[key.op].name, key.rep,
				    x->val[prev].file, x->val[prev].line);
		else
			strmap_put(&seen, (const char *)&key, sizeof(key),
				   (int64_t)i);
	}
	strmap_clear(&seen);
	return ret;
}
