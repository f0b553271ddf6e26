/*
 * The fio importer: reads `fio --output-format=json` output (fio 2.x in
 * microseconds, fio 3.x in nanoseconds) and emits one run per file with
 * lkp's fio.* totals over all jobs, per-job metrics, and as run params
 * the job options that every job shares.
 */
#include "core/compat.h"
#include <fcntl.h>
#include <unistd.h>
#include <jansson.h>
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "fio.h"
#include "fio-json.h"

/*
 * How the format was worked out: fio's JSON layout is described in
 * research/fio-procfs.md §1.1-1.2 (fio's stat.c, checked against fio-3.33
 * output in samples/fio/ and against published fio 2.1-2.x outputs); the
 * metric names are those of lkp-tests' programs/fio/parse
 * (research/lkp.md §2.4), checked key by key against lkp's own parse of a
 * real fio-3.19 file (samples/lkp/fixture-fio-*; see t2100).
 *
 * Input.  Lines before the first line that starts with '{' are skipped
 * with a warning (fio writes "fio: ..." diagnostics there, and
 * --output-format=json,normal writes a normal header first).  A top-level
 * object is a document; what follows the last one is ignored (the normal
 * report of json,normal).  --status-interval writes one document per
 * interval, each the run so far, each at the start of a line: every
 * value of every document is then a point of that value's series at the
 * document's timestamp_ms (else timestamp), and the last document is the
 * run's result (its samples).  A last document cut short (fio killed) is
 * named in a warning and left out, the earlier ones kept; a cut single
 * document is an error.  A single document is written as it is read;
 * several are held one at a time (their values, until the next shows
 * whether they were the last).
 *
 * Reading.  The document is streamed, never held whole.  A scanner of
 * our own (strings and their escapes, nesting, lines) finds the members
 * of the top-level object and the elements of its arrays ("jobs",
 * "disk_util"); each is parsed alone from its bytes into a small tree
 * (fio-json.c, which takes the JSON that fio writes, in a twelfth of
 * jansson's time), freed before the next is read.  What
 * that parser leaves, jansson parses, and so jansson still decides what
 * is valid and says what is wrong: its slice is parsed behind a few
 * bytes that put its parser where the parse of the whole document would
 * be (in the object or an array, at the same depth, after a value or a
 * comma), so an error keeps its text and its line.  A key given twice
 * counts once, the last, as in jansson.  Nothing is said before the end
 * of the file: a read error anywhere is the only message, and a syntax
 * error comes before the bad value of a job, as when the document was
 * parsed whole.
 *
 * Memory.  Of each job we keep its name, the line of its "jobname" and a
 * record (the directions that did I/O: counts, latency means, stddevs,
 * percentiles under interned names; the CPU fields), the records going
 * to an unlinked temporary file past 256 KiB; the totals (sums, and the
 * weighted means of buckets and percentiles) run as the jobs come, kept
 * twice while "fio version" may still change the unit of io_bytes.  The
 * run needs every job (its params): it is emitted at the end of the
 * document, then the samples from the records, in the order and with
 * the values of the whole-document code.  20,000 jobs (115 MB) import
 * in 60 MiB, of which 45 are SQLite's page cache and the metric-id
 * cache and 1 is ours (800 MiB before).  Limits: a member, an array
 * element or a token of more than 4 MiB is refused (jansson takes 6 to
 * 12 times the text; fio writes a job in a few KiB, tens with json+
 * bins); the document and the number of jobs have none, at about 20
 * bytes a job.
 *
 * Units.  fio 3.x (from 2.99) prints slat_ns/clat_ns/lat_ns in ns; fio
 * 2.x prints slat/clat/lat in µs, which we multiply by 1000: every stored
 * latency is in ns.  The choice follows the key that is present, not the
 * version string.  bw is KiB/s in every version.  io_kbytes (KiB) exists
 * from fio-2.21; before it io_bytes was in KiB, from 2.21 in bytes.
 * fio 2.x pads percentile maps to 20 slots with duplicate "0.00": 0 keys;
 * those are skipped.  fio <= 2.1 has no total_ios: weights then use the
 * I/O volume, and fio.workload and the per-job .ios are not emitted.
 *
 * The run: suite "fio", testcase "fio", start time "timestamp"; params
 * are "global options" plus the job options, a key being kept only when
 * its value (the job's own, else the global one) is the same string in
 * every job.  Keys naming paths or logs (param_skip[]) are left out so
 * that identical workloads on different files compare as one variant.
 * fio-3.33 does not print options given as bare command-line flags
 * (--group_reporting, --time_based) in "job options", so those never
 * become params (samples/fio/randwrite-libaio-nj2-group.json.out).
 *
 * Totals, DIR = read and write (and trim, or "mixed" from
 * unified_rw_reporting=mixed, only when they did I/O), over all jobs[]:
 *   fio.DIR_bw_MBps        Σ bw / 1024                       MB/s
 *   fio.DIR_iops           Σ iops                            IO/s
 * and only when the direction did I/O (Σ total_ios > 0):
 *   fio.DIR_clat_mean_ns   Σ ios_j·mean_j / Σ ios_j           ns
 *   fio.DIR_clat_stddev    pooled stddev of all the I/Os      ns
 *   fio.DIR_clat_P%_ns     for each percentile P fio printed  ns
 *   fio.DIR_slat_mean_ns, fio.DIR_slat_stddev                 ns
 *   fio.DIR_lat_mean_ns                                       ns
 *   fio.DIR_slat_P%_ns, fio.DIR_lat_P%_ns  (slat_/lat_percentiles=1)
 *   fio.DIR_runtime_ms     max over jobs                      ms
 *   fio.DIR_io_MiB         Σ io_kbytes / 1024                 MiB
 *   fio.latency_Nns%, fio.latency_Nus%, fio.latency_Nms%,
 *   fio.latency_>=2000ms%  fio's latency buckets              %
 *   fio.workload           Σ total_ios, all directions        ios
 * and, from json+ output, each direction's latency bins summed over the
 * jobs (exact: fio's bins are fixed, a bin's key its latency), one
 * histogram per run (schema 0006), in ns:
 *   fio.DIR_clat_hist_ns   (and _lat_, _slat_ when fio printed bins)
 * Per job (J = jobname, or J#index when several jobs[] entries share a
 * name, as numjobs=N without group_reporting makes them), for each
 * direction that did I/O in that job:
 *   fio.J.DIR.{bw_MBps, iops, clat_mean_ns, clat_stddev, clat_P%_ns,
 *   lat_mean_ns, slat_mean_ns, runtime_ms, io_MiB, ios}
 * and fio.J.usr_cpu, fio.J.sys_cpu (%), fio.J.ctx, .majf, .minf.
 *
 * Decisions:
 * - Latencies of a direction without I/O are not emitted: the mean of no
 *   I/O is not 0.  (lkp writes 0 there, e.g. write_clat_mean_ns: 0.0 for
 *   a read-only job, which would show up as a huge "improvement" the day
 *   the job starts writing.)  For the same reason a latency type that was
 *   not measured (slat of sync engines, disable_lat/disable_clat: N = 0
 *   and mean 0) is not emitted.
 * - lkp calls the slat mean read_slat_mean_us although the value is in ns
 *   on fio 3.x; we name it _ns.
 * - Means and stddevs over several jobs are those of the union of all
 *   their I/Os: M = Σ ios_j·mean_j / Σ ios_j and the pooled
 *   sqrt(Σ ios_j·(sd_j² + (mean_j - M)²) / Σ ios_j) (fio's stddevs divide
 *   by n - 1, the pooling by n: a difference of order 1/n).  One job gives
 *   back its own numbers.  With group_reporting fio has already merged
 *   the jobs into one entry, which is then the totals.
 * - Percentiles over several jobs are the ios-weighted average of the
 *   jobs' percentiles: an approximation (a percentile of a union is not a
 *   mean of percentiles); exact merging needs the json+ bins.
 * - fio's latency buckets are percentages of each job's I/Os (all
 *   directions); over several jobs they are weighted by each job's
 *   Σ total_ios.
 * - Sample lines (provenance): a job's metrics carry the line of its
 *   "jobname" key, totals the line of the object's '{'.
 */

enum { DIR_READ, DIR_WRITE, DIR_TRIM, DIR_MIXED, NR_DIRS };
static const char *const dir_names[NR_DIRS] = {
	"read", "write", "trim", "mixed",
};

enum { LAT_S, LAT_C, LAT_T, NR_LATS };
static const char *const lat_names[NR_LATS] = { "slat", "clat", "lat" };

/*
 * Job options that name files or logs, or say how the logs are written
 * (not what the workload does): never run params.
 */
static const char *const param_skip[] = {
	"directory", "filename", "filename_format", "log_alternate_epoch",
	"log_avg_msec", "log_compression", "log_hist_coarseness",
	"log_hist_msec", "log_issue_time", "log_max_value", "log_offset",
	"log_prio", "log_store_compressed", "log_unix_epoch",
	"log_window_value", "name", "opendir", "output", "per_job_logs",
	"write_bw_log", "write_hist_log", "write_iops_log", "write_lat_log",
};

/* fio's latency bucket objects and the unit their keys are in. */
static const struct {
	const char *key, *unit;
} lat_buckets[] = {
	{ "latency_ns", "ns" },
	{ "latency_us", "us" },
	{ "latency_ms", "ms" },
};

/* Numbers of a job emitted as they are. */
static const struct {
	const char *key, *unit;
} job_fields[] = {
	{ "usr_cpu", "%" },
	{ "sys_cpu", "%" },
	{ "ctx", NULL },
	{ "majf", NULL },
	{ "minf", NULL },
};

/*
 * The longest member of the top-level object or element of one of its
 * arrays (a job), and the longest token: jansson takes 6 to 12 times
 * the text in memory (a 4 MiB job imports in 30 MiB).
 */
#define FIO_VALUE_MAX (4u << 20)

/* ---- one job, while its element is parsed ---- */

/* One latency object (slat/clat/lat) of one direction, in ns. */
struct lat_stat {
	int measured;		/* N > 0 or mean > 0 */
	double mean_ns, stddev_ns;
	double scale;		/* ns per unit of the file: 1 or 1000 */
	const struct fj_node *pct;	/* "percentile" object, or NULL */
	const struct fj_node *bins;	/* json+ "bins" object, or NULL */
};

/*
 * A latency histogram summed over the jobs (json+ "bins": a bin's
 * latency, in ns, and its count): the bins of several jobs add up
 * exactly, and so do the runs of a variant later.
 */
struct fhist {
	double *v, *c;
	size_t nr, alloc;
	struct strmap idx;	/* the value's 8 bytes -> index */
	long line;
};

/* One direction object of one job. */
struct dir_stat {
	int present;		/* the job has this direction */
	int have_ios;		/* fio printed total_ios (not fio 2.1) */
	int io_in_bytes;	/* io is "io_bytes": its unit depends on the
				 * version (see io_kib()) */
	double ios;		/* total_ios */
	double io;		/* io_kbytes, or io_bytes */
	double bw_kibs, iops, runtime_ms;
	struct lat_stat lat[NR_LATS];
};

/* ---- what is kept of every job ---- */

/*
 * A job as it is kept, in the spill (below): the numbers of job_fields[]
 * that it has, then its directions that did I/O.
 */
struct job_rec {
	uint32_t nr_dirs;
	uint32_t fields;		/* bit i: job_fields[i] present */
	double field[ARRAY_SIZE(job_fields)];
};

/*
 * A direction of a job that did I/O (or may have: see io_kib()), then
 * for each latency type its nr_pct percentile codes (uint32_t, see
 * pct_code()) and values (double, ns).
 */
struct dir_rec {
	unsigned char dir;		/* DIR_* */
	unsigned char have_ios, io_in_bytes;
	unsigned char measured;		/* bit k: latency k measured */
	uint32_t nr_pct[NR_LATS];
	double ios, io, bw_kibs, iops, runtime_ms;
	double mean_ns[NR_LATS], stddev_ns[NR_LATS];
};

/*
 * The job records, written once in job order and read back twice (the
 * pooled stddevs, then the samples).  Past SPILL_MEM bytes in memory
 * they go to an unlinked temporary file in $TMPDIR, so that memory does
 * not grow with the jobs (SQLite's temp_store = FILE, the dry run's
 * database); if no file can be made or written, they stay in memory.
 */
#define SPILL_MEM (256u << 10)

struct spill {
	struct sbuf mem;	/* the records after those in the file */
	int fd;			/* the temporary file, or -1 */
	int no_file;		/* none could be made or written */
	uint64_t file_len;	/* bytes in the file */
	uint64_t pos;		/* reading: offset over the file, then mem */
	unsigned char *buf;	/* owned, SPILL_BUF bytes of the file */
	uint64_t buf_pos;	/* offset of buf in the file */
	size_t buf_len;
};

/* A weighted mean built one value at a time. */
struct wmean {
	double w, mean;
};

/* Named weighted means (percentiles, latency buckets), first seen first. */
struct acc {
	uint32_t id;		/* name in fio_state.names */
	struct wmean m;
};

struct acc_list {
	struct acc *v;		/* owned */
	size_t nr, alloc;
	size_t next;		/* where the next name usually is */
};

/* The totals of one direction over the jobs. */
struct dir_total {
	int present;
	double bw_kibs, iops, weight, io_kib, runtime_ms;
	struct wmean lat[NR_LATS];	/* mean latency over the jobs */
};

/*
 * Everything summed over the jobs in job order, as the totals were
 * computed when the whole document was held.
 */
struct totals {
	struct dir_total dir[NR_DIRS];
	struct acc_list pct[NR_DIRS][NR_LATS];	/* P -> mean over jobs */
	struct acc_list buckets;		/* latency_Nus% -> mean */
};

/* A job option and what the jobs say of it, for the params. */
struct param_cand {
	char *key;		/* owned */
	char *value;		/* owned: the first job's own string, or NULL */
	size_t nr_own;		/* jobs that give it as a string */
	int differ;		/* two jobs give two different strings */
};

/* Interned names: percentiles ("99.95"), buckets, odd percentile keys. */
struct names {
	struct sbuf text;	/* the names, each ending in NUL */
	size_t *off;		/* owned: where name i starts in text */
	size_t nr, alloc;
	struct strmap ids;	/* name -> i */
};

/* A percentile code whose name is a key that is not a number. */
#define PCT_BAD 0x80000000u

struct fio_state {
	struct import_ctx *ctx;		/* borrowed */
	const char *path;		/* borrowed, for messages */
	long line0;			/* line of the object's '{' */

	/* top-level members; the last of a name wins, as in jansson */
	long ver_major, ver_minor;	/* -1 if "fio version" is unknown */
	double timestamp, timestamp_ms;
	struct fj global;		/* "global options" (root: none) */
	enum { JOBS_NONE, JOBS_ARRAY, JOBS_OTHER } jobs_kind;

	/* the elements of the last "jobs" array */
	size_t nr_jobs;
	struct spill spill;		/* their records */
	struct sbuf jobnames;		/* their names, each ending in NUL */
	/* [0]: io_bytes in KiB (fio < 2.21), [1]: in bytes */
	struct totals tot[2];
	int bytes;			/* the one that holds: fio >= 2.21 */
	struct wmean lat_var[NR_DIRS][NR_LATS];	/* of tot[bytes], at the end */
	double workload;
	int have_ios;			/* every direction has total_ios */
	struct param_cand *cands;	/* owned, in first-seen order */
	size_t nr_cands, alloc_cands;
	struct strmap cand_ids;		/* key -> index in cands */
	/* the first bad value of a job, reported after the document */
	int job_failed;
	size_t job_err_index;
	struct sbuf job_err;		/* without "path:line: " */
	/* the syntax error that stopped the parse, or "" */
	struct sbuf parse_err;
	/* the lines of the "jobname" keys found in the text */
	const long *jobname_line;	/* borrowed from the reader */
	size_t nr_jobname_lines;

	struct fj job;			/* the job being read, as a tree */
	struct fj member;		/* the top-level member being read */
	struct sbuf key;		/* its key */
	struct names names;
	struct strmap pct_keys;		/* percentile key -> code */
	/* one job's directions and percentiles, while written or read */
	struct dir_rec dirs[NR_DIRS];
	uint32_t *pct_id;		/* owned */
	double *pct_val;		/* owned */
	size_t nr_pct, alloc_pct_id, alloc_pct_val;
	struct sbuf name;		/* scratch metric name */
	struct sbuf scratch;
	/*
	 * --status-interval: the values of the last complete document,
	 * held (emitf() appends here) until the next one shows it was a
	 * snapshot (then they are series points at its timestamp) or the
	 * file ends (then they are the run's samples).
	 */
	/* json+: the bins of this document, and of the last complete one */
	struct fhist hist[NR_DIRS][NR_LATS], final[NR_DIRS][NR_LATS];
	int hold;			/* more than one document */
	struct pending *pend;
	size_t nr_pend, alloc_pend;
	struct sbuf pend_names;		/* their names, each ending in NUL */
};

static void fhist_release(struct fhist *h)
{
	free(h->v);
	free(h->c);
	strmap_clear(&h->idx);
	memset(h, 0, sizeof(*h));
}

static void fhist_add(struct fhist *h, const struct fj *d,
		      const struct fj_node *bins, double scale, long line)
{
	const struct fj_node *v;

	if (!h->line)
		h->line = line;
	for (v = fj_first(d, bins); v; v = fj_next(d, v)) {
		double x = strtod(fj_key(d, v), NULL) * scale, n = fj_num(v);
		int64_t i;

		if (!strmap_get(&h->idx, (const char *)&x, sizeof(x), &i)) {
			ALLOC_GROW(h->v, h->nr + 1, h->alloc);
			h->c = xrealloc(h->c, h->alloc * sizeof(*h->c));
			h->v[h->nr] = x;
			h->c[h->nr] = 0;
			i = (int64_t)h->nr++;
			strmap_put(&h->idx, (const char *)&x, sizeof(x), i);
		}
		h->c[i] += n;
	}
}

/* One value of a document, held (see fio_state.pend). */
struct pending {
	size_t name;			/* offset in pend_names */
	const char *unit;		/* a string literal, or NULL */
	double value;
	long line;
};

/*
 * The increment is exact for the first value (w / W == 1) and keeps the
 * mean exact when all values are equal: one job gives back the job's
 * own numbers, bit for bit.
 */
static void wmean_add(struct wmean *m, double value, double w)
{
	if (!(w > 0))
		return;
	m->w += w;
	m->mean += (value - m->mean) * (w / m->w);
}

/* Jobs usually list the same names in the same order: try next first. */
static void acc_add(struct acc_list *l, uint32_t id, double value, double w)
{
	size_t i = l->next;

	if (i >= l->nr || l->v[i].id != id)
		for (i = 0; i < l->nr && l->v[i].id != id; i++)
			;
	if (i == l->nr) {
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		l->v[i].id = id;
		l->v[i].m.w = 0;
		l->v[i].m.mean = 0;
		l->nr++;
	}
	l->next = i + 1;
	wmean_add(&l->v[i].m, value, w);
}

static void acc_release(struct acc_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void totals_release(struct totals *t)
{
	int dir, k;

	for (dir = 0; dir < NR_DIRS; dir++)
		for (k = 0; k < NR_LATS; k++)
			acc_release(&t->pct[dir][k]);
	acc_release(&t->buckets);
	memset(t, 0, sizeof(*t));
}

static uint32_t name_id(struct names *n, const char *s, size_t len)
{
	int64_t id;

	if (strmap_get(&n->ids, s, len, &id))
		return (uint32_t)id;
	ALLOC_GROW(n->off, n->nr + 1, n->alloc);
	n->off[n->nr] = n->text.len;
	sbuf_add(&n->text, s, len);
	sbuf_addch(&n->text, '\0');
	strmap_put(&n->ids, s, len, (int64_t)n->nr);
	return (uint32_t)n->nr++;
}

static const char *name_str(const struct names *n, uint32_t id)
{
	return n->text.buf + n->off[id];
}

/*
 * The names are made of strings only: fmt holds "%s" and "%%" and
 * nothing else, appended here without vsnprintf(), which was a tenth
 * of the import (a few names per job, 60 samples a file).
 */
__attribute__((format(printf, 5, 6)))
static int emitf(struct fio_state *st, const char *unit, double value,
		 long line, const char *fmt, ...)
{
	const char *f;
	va_list ap;

	sbuf_reset(&st->name);
	sbuf_add(&st->name, "fio.", 4);
	va_start(ap, fmt);
	for (f = fmt; *f; f += 2) {
		const char *lit = f;

		while (*f && *f != '%')
			f++;
		sbuf_add(&st->name, lit, (size_t)(f - lit));
		if (!*f)
			break;
		if (f[1] == 's')
			sbuf_addstr(&st->name, va_arg(ap, const char *));
		else if (f[1] == '%')
			sbuf_addch(&st->name, '%');
		else
			BUG("fio: emitf() format '%s'", fmt);
	}
	va_end(ap);
	if (!st->hold)
		return db_emit_sample(st->ctx, st->name.buf, unit, value, line);
	ALLOC_GROW(st->pend, st->nr_pend + 1, st->alloc_pend);
	st->pend[st->nr_pend].name = st->pend_names.len;
	st->pend[st->nr_pend].unit = unit;
	st->pend[st->nr_pend].value = value;
	st->pend[st->nr_pend].line = line;
	st->nr_pend++;
	sbuf_add(&st->pend_names, st->name.buf, st->name.len + 1);
	return 0;
}

/* The held values as the run's samples. */
static int pending_samples(struct fio_state *st)
{
	size_t i;

	for (i = 0; i < st->nr_pend; i++) {
		const struct pending *p = &st->pend[i];

		if (db_emit_sample(st->ctx, st->pend_names.buf + p->name,
				   p->unit, p->value, p->line))
			return -1;
	}
	return 0;
}

/* The held values as one point each of their series, at t (seconds). */
static int pending_series(struct fio_state *st, double t)
{
	size_t i;

	for (i = 0; i < st->nr_pend; i++) {
		const struct pending *p = &st->pend[i];

		if (db_emit_series(st->ctx, st->pend_names.buf + p->name,
				   p->unit, MK_GAUGE, t, p->value, p->line))
			return -1;
	}
	return 0;
}

/*
 * Append the percentile key ("99.950000") as "%g" would print it
 * ("99.95"), with more digits only if %g would round it to another
 * number.  Returns -1 if the key is not a number.
 */
static int add_pct(struct sbuf *sb, const char *key)
{
	const char *dot = key;
	char buf[64];
	double p;
	size_t n;
	int prec;

	/*
	 * fio prints "%f" of P in 1..999: with 6 significant digits or
	 * fewer, "%g" gives back that decimal without its trailing zeros
	 * (it is P to 6 digits, in fixed notation), and strtod() of it is
	 * p: the loop below would stop at once.
	 */
	while (*dot >= '0' && *dot <= '9')
		dot++;
	if (*key >= '1' && *key <= '9' && dot - key <= 3 && *dot == '.' &&
	    dot[1]) {
		n = strspn(dot + 1, "0123456789");
		if (!dot[1 + n]) {
			while (n && dot[n] == '0')
				n--;
			if ((size_t)(dot - key) + n <= 6) {
				sbuf_add(sb, key, (size_t)(dot - key) +
					 (n ? n + 1 : 0));
				return 0;
			}
		}
	}
	if (str_to_double(key, &p))
		return -1;
	for (prec = 6; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, p);
		if (strtod(buf, NULL) == p)
			break;
	}
	sbuf_addstr(sb, buf);
	return 0;
}

/*
 * A percentile key as it is kept: the id of its "P" name, or PCT_BAD |
 * the id of the key itself when it is not a number (the job's samples
 * warn about it, the totals skip it).
 */
static uint32_t pct_code(struct fio_state *st, const char *key)
{
	size_t len = strlen(key);
	int64_t code;
	uint32_t c;

	if (strmap_get(&st->pct_keys, key, len, &code))
		return (uint32_t)code;
	sbuf_reset(&st->scratch);
	if (add_pct(&st->scratch, key))
		c = PCT_BAD | name_id(&st->names, key, len);
	else
		c = name_id(&st->names, st->scratch.buf, st->scratch.len);
	strmap_put(&st->pct_keys, key, len, c);
	return c;
}

/* ---- checking a job ---- */

/*
 * The first bad job stops the import, but only once the whole document
 * has been read: a syntax error further on is said first, as when the
 * document was parsed whole, and the line of a job is known only then.
 */
__attribute__((format(printf, 3, 4)))
static int job_fail(struct fio_state *st, size_t j, const char *fmt, ...)
{
	va_list ap;

	if (st->job_failed)
		return -1;
	st->job_failed = 1;
	st->job_err_index = j;
	sbuf_reset(&st->job_err);
	va_start(ap, fmt);
	sbuf_vaddf(&st->job_err, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Where a value sits in the document, for messages: "jobs[0].read.bw".
 * What is read is checked, never guessed: a member that is present must
 * have the JSON type fio writes, and quantities that cannot be negative
 * (bandwidth, IOPS, runtime, volume, latency, counts) are not: a string
 * or -5 MB/s is an input error with its path, not 0 or a −100% change.
 */
struct where {
	struct fio_state *st;
	size_t job;
	const char *dir;	/* "read" */
	char sub[16];		/* "clat_ns", or "" */
};

static int bad_value(const struct where *w, const char *key, const char *what,
		     const struct fj_node *v)
{
	const char *got = fj_is(v, FJ_STRING) ? "a string" :
			  fj_is(v, FJ_OBJECT) ? "an object" :
			  fj_is(v, FJ_ARRAY) ? "an array" :
			  fj_is(v, FJ_TRUE) ? "a boolean" :
			  fj_is(v, FJ_FALSE) ? "a boolean" :
			  fj_is(v, FJ_NULL) ? "null" : "a negative number";

	return job_fail(w->st, w->job,
			"jobs[%zu].%s%s%s.%s: expected %s, got %s", w->job,
			w->dir, *w->sub ? "." : "", w->sub, key, what, got);
}

/* A member that must be a number >= 0 if present (absent: 0). */
static int get_count(const struct where *w, const struct fj_node *obj,
		     const char *key, double *out)
{
	const struct fj_node *v = fj_get(&w->st->job, obj, key);

	*out = 0;
	if (!v)
		return 0;
	if (!fj_is(v, FJ_NUMBER) || fj_num(v) < 0)
		return bad_value(w, key, "a number >= 0", v);
	*out = fj_num(v);
	return 0;
}

static int lat_load(struct where *w, struct lat_stat *ls,
		    const struct fj_node *dir, int kind)
{
	const struct fj *d = &w->st->job;
	const struct fj_node *o, *v;
	char key[16];
	double n;

	memset(ls, 0, sizeof(*ls));
	snprintf(key, sizeof(key), "%s_ns", lat_names[kind]);
	ls->scale = 1;
	o = fj_get(d, dir, key);
	snprintf(w->sub, sizeof(w->sub), "%s", key);
	if (!o) {
		o = fj_get(d, dir, lat_names[kind]);
		ls->scale = 1000;
		snprintf(w->sub, sizeof(w->sub), "%s", lat_names[kind]);
	}
	if (!o)
		return 0;
	if (!fj_is(o, FJ_OBJECT))
		return job_fail(w->st, w->job,
				"jobs[%zu].%s.%s: expected an object", w->job,
				w->dir, w->sub);
	if (get_count(w, o, "mean", &ls->mean_ns) ||
	    get_count(w, o, "stddev", &ls->stddev_ns) ||
	    get_count(w, o, "N", &n))
		return -1;
	ls->mean_ns *= ls->scale;
	ls->stddev_ns *= ls->scale;
	ls->measured = n > 0 || ls->mean_ns > 0;
	ls->bins = fj_get(d, o, "bins");
	if (ls->bins && !fj_is(ls->bins, FJ_OBJECT))
		return bad_value(w, "bins", "an object", ls->bins);
	for (v = fj_first(d, ls->bins); v; v = fj_next(d, v)) {
		const char *p = fj_key(d, v);
		double x;

		if (str_double(&p, &x) || *p || x < 0)
			return bad_value(w, "bins", "keys that are latencies",
					 ls->bins);
		if (!fj_is(v, FJ_NUMBER) || fj_num(v) < 0)
			return bad_value(w, "bins", "counts >= 0", v);
	}
	ls->pct = fj_get(d, o, "percentile");
	if (ls->pct && !fj_is(ls->pct, FJ_OBJECT))
		return bad_value(w, "percentile", "an object", ls->pct);
	for (v = fj_first(d, ls->pct); v; v = fj_next(d, v))
		if (!fj_is(v, FJ_NUMBER) || fj_num(v) < 0)
			return bad_value(w, "percentile", "numbers >= 0", v);
	w->sub[0] = '\0';
	return 0;
}

/*
 * The I/O volume in KiB: io_kbytes, or io_bytes, which was KiB "since
 * the dawn of time" until fio-2.21 and bytes from then on.  "fio
 * version" may come after the jobs, or twice, so the jobs keep io_bytes
 * as it is, and the totals are kept for both units (bytes = 0, 1).
 */
static double io_kib(int io_in_bytes, double io, int bytes)
{
	return io_in_bytes && bytes ? io / 1024 : io;
}

static int dir_load(struct fio_state *st, struct dir_stat *d,
		    const struct fj_node *job, size_t j, int dir)
{
	const struct fj *jd = &st->job;
	const struct fj_node *o = fj_get(jd, job, dir_names[dir]);
	struct where w = { st, j, dir_names[dir], "" };
	int k;

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	if (!fj_is(o, FJ_OBJECT))
		return job_fail(st, j, "jobs[%zu].%s: expected an object", j,
				dir_names[dir]);
	/* with unified_rw_reporting=both "mixed" repeats read+write+trim */
	if (dir == DIR_MIXED && fj_get(jd, job, "read"))
		return 0;
	d->present = 1;
	d->have_ios = fj_get(jd, o, "total_ios") != NULL;
	d->io_in_bytes = !fj_get(jd, o, "io_kbytes");
	if (get_count(&w, o, "bw", &d->bw_kibs) ||
	    get_count(&w, o, "iops", &d->iops) ||
	    get_count(&w, o, "runtime", &d->runtime_ms) ||
	    get_count(&w, o, d->io_in_bytes ? "io_bytes" : "io_kbytes",
		      &d->io) ||
	    get_count(&w, o, "total_ios", &d->ios))
		return -1;
	for (k = 0; k < NR_LATS; k++)
		if (lat_load(&w, &d->lat[k], o, k))
			return -1;
	return 0;
}

/* ---- the spill of job records ---- */

#define SPILL_BUF (64u << 10)

static void spill_init(struct spill *s)
{
	memset(s, 0, sizeof(*s));
	sbuf_init(&s->mem, 0);
	s->fd = -1;
}

static void spill_release(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	sbuf_release(&s->mem);
	free(s->buf);
	spill_init(s);
}

/* An unlinked temporary file, or -1. */
static int spill_open(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	int fd;

	path = xstrfmt("%s/perfsift-fio-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* Move what is in memory to the file, as much as it takes. */
static void spill_flush(struct spill *s)
{
	size_t done = 0;

	if (s->fd < 0)
		s->fd = spill_open();
	if (s->fd < 0) {
		s->no_file = 1;
		return;
	}
	while (done < s->mem.len) {
		ssize_t n = write(s->fd, s->mem.buf + done, s->mem.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->no_file = 1;	/* a full disk: memory it is */
			break;
		}
		done += (size_t)n;
	}
	s->file_len += done;
	memmove(s->mem.buf, s->mem.buf + done, s->mem.len - done);
	sbuf_setlen(&s->mem, s->mem.len - done);
}

static void spill_add(struct spill *s, const void *data, size_t len)
{
	sbuf_add(&s->mem, data, len);
	if (s->mem.len >= SPILL_MEM && !s->no_file)
		spill_flush(s);
}

static void spill_rewind(struct spill *s)
{
	s->pos = 0;
	s->buf_len = 0;
}

/* Read the next len bytes (data NULL: skip them).  0, or -1 and errno. */
static int spill_read(struct spill *s, void *data, size_t len)
{
	unsigned char *out = data;

	while (len) {
		size_t n;

		if (s->pos < s->file_len) {
			if (s->pos < s->buf_pos ||
			    s->pos >= s->buf_pos + s->buf_len) {
				uint64_t left = s->file_len - s->pos;
				ssize_t got;

				if (!s->buf)
					s->buf = xmalloc(SPILL_BUF);
				s->buf_pos = s->pos;
				s->buf_len = left < SPILL_BUF ? (size_t)left
							      : SPILL_BUF;
				got = pread(s->fd, s->buf, s->buf_len,
					    (off_t)s->pos);
				if (got != (ssize_t)s->buf_len) {
					s->buf_len = 0;
					if (got >= 0)
						errno = EIO;
					return -1;
				}
			}
			n = s->buf_pos + s->buf_len - s->pos;
			if (n > len)
				n = len;
			if (out)
				memcpy(out, s->buf + (s->pos - s->buf_pos), n);
		} else {
			size_t off = s->pos - s->file_len;

			if (off + len > s->mem.len)
				BUG("fio: reading past the job records");
			n = len;
			if (out)
				memcpy(out, s->mem.buf + off, n);
		}
		if (out)
			out += n;
		s->pos += n;
		len -= n;
	}
	return 0;
}

/* ---- summing a job up ---- */

static void pct_push(struct fio_state *st, uint32_t code, double value)
{
	ALLOC_GROW(st->pct_id, st->nr_pct + 1, st->alloc_pct_id);
	ALLOC_GROW(st->pct_val, st->nr_pct + 1, st->alloc_pct_val);
	st->pct_id[st->nr_pct] = code;
	st->pct_val[st->nr_pct] = value;
	st->nr_pct++;
}

/*
 * A direction that did I/O: into st->dirs[nr] and st->pct_*, its mean
 * latencies and percentiles into the totals, for both units of io_bytes.
 */
static void dir_keep(struct fio_state *st, const struct dir_stat *d,
		     int dir, const double w[2], size_t nr)
{
	struct dir_rec *dr = &st->dirs[nr];
	int k, b;

	memset(dr, 0, sizeof(*dr));	/* written whole, padding too */
	dr->dir = dir;
	dr->have_ios = d->have_ios;
	dr->io_in_bytes = d->io_in_bytes;
	dr->ios = d->ios;
	dr->io = d->io;
	dr->bw_kibs = d->bw_kibs;
	dr->iops = d->iops;
	dr->runtime_ms = d->runtime_ms;
	for (k = 0; k < NR_LATS; k++) {
		const struct lat_stat *ls = &d->lat[k];
		size_t first = st->nr_pct, i;
		const struct fj_node *v;

		if (!ls->measured)
			continue;
		dr->measured |= 1u << k;
		dr->mean_ns[k] = ls->mean_ns;
		dr->stddev_ns[k] = ls->stddev_ns;
		for (b = 0; b < 2; b++)
			if (w[b] > 0)
				wmean_add(&st->tot[b].dir[dir].lat[k],
					  ls->mean_ns, w[b]);
		if (!ls->pct)
			continue;
		for (v = fj_first(&st->job, ls->pct); v;
		     v = fj_next(&st->job, v)) {
			const char *key = fj_key(&st->job, v);

			/* fio 2.x pads the map with "0.00": 0 slots */
			if (strcmp(key, "0.00"))
				pct_push(st, pct_code(st, key),
					 fj_num(v) * ls->scale);
		}
		dr->nr_pct[k] = (uint32_t)(st->nr_pct - first);
		for (b = 0; b < 2; b++) {
			if (!(w[b] > 0))
				continue;
			for (i = first; i < st->nr_pct; i++)
				if (!(st->pct_id[i] & PCT_BAD))
					acc_add(&st->tot[b].pct[dir][k],
						st->pct_id[i], st->pct_val[i],
						w[b]);
		}
	}
}

static void params_add(struct fio_state *st, const struct fj_node *job)
{
	const struct fj_node *opts = fj_get(&st->job, job, "job options");
	const struct fj_node *v;

	if (!fj_is(opts, FJ_OBJECT))
		return;
	for (v = fj_first(&st->job, opts); v; v = fj_next(&st->job, v)) {
		const char *key = fj_key(&st->job, v);
		const char *s = fj_str(&st->job, v);
		struct param_cand *c;
		int64_t i;

		if (!strmap_get(&st->cand_ids, key, strlen(key), &i)) {
			ALLOC_GROW(st->cands, st->nr_cands + 1,
				   st->alloc_cands);
			i = (int64_t)st->nr_cands++;
			c = &st->cands[i];
			memset(c, 0, sizeof(*c));
			c->key = xstrdup(key);
			strmap_put(&st->cand_ids, key, strlen(key), i);
		}
		c = &st->cands[i];
		if (!s)
			continue;
		c->nr_own++;
		if (!c->value)
			c->value = xstrdup(s);
		else if (strcmp(c->value, s))
			c->differ = 1;
	}
}

/*
 * Check element j of "jobs" and keep what the run and the samples need
 * of it; the sums over jobs advance in job order, as they did.
 */
static void job_add(struct fio_state *st, const struct fj_node *job, size_t j)
{
	const struct fj *jd = &st->job;
	const char *name = fj_str(jd, fj_get(jd, job, "jobname"));
	struct dir_stat ds[NR_DIRS];
	struct job_rec jr;
	double jw[2] = { 0, 0 };
	size_t i, p;
	int dir, b, k;

	st->nr_jobs = j + 1;
	if (st->job_failed)
		return;		/* the rest is only checked for syntax */
	if (!fj_is(job, FJ_OBJECT) || !name) {
		job_fail(st, j, "jobs[%zu] is not a job: no \"jobname\"", j);
		return;
	}
	for (dir = 0; dir < NR_DIRS; dir++)
		if (dir_load(st, &ds[dir], job, j, dir))
			return;
	for (dir = 0; dir < NR_DIRS; dir++)
		for (k = 0; k < NR_LATS; k++)
			if (ds[dir].present && ds[dir].lat[k].bins)
				fhist_add(&st->hist[dir][k], jd,
					  ds[dir].lat[k].bins,
					  ds[dir].lat[k].scale, st->line0);

	memset(&jr, 0, sizeof(jr));
	st->nr_pct = 0;
	for (dir = 0; dir < NR_DIRS; dir++) {
		const struct dir_stat *d = &ds[dir];
		double w[2];

		if (!d->present)
			continue;
		for (b = 0; b < 2; b++) {
			struct dir_total *t = &st->tot[b].dir[dir];
			double io = io_kib(d->io_in_bytes, d->io, b);

			/* without total_ios (fio 2.1) the volume weighs */
			w[b] = d->have_ios ? d->ios : io;
			t->present = 1;
			t->bw_kibs += d->bw_kibs;
			t->iops += d->iops;
			t->weight += w[b];
			t->io_kib += io;
			if (d->runtime_ms > t->runtime_ms)
				t->runtime_ms = d->runtime_ms;
			jw[b] += w[b];
		}
		if (!d->have_ios)
			st->have_ios = 0;
		st->workload += d->ios;
		if (w[0] > 0 || w[1] > 0)
			dir_keep(st, d, dir, w, jr.nr_dirs++);
	}

	/* the buckets are shares of the job's I/Os: its weight */
	for (i = 0; i < ARRAY_SIZE(lat_buckets); i++) {
		const struct fj_node *o = fj_get(jd, job, lat_buckets[i].key);
		const struct fj_node *v;

		if (!fj_is(o, FJ_OBJECT))
			continue;
		for (v = fj_first(jd, o); v; v = fj_next(jd, v)) {
			const char *key = fj_key(jd, v);
			uint32_t id;

			if (!fj_is(v, FJ_NUMBER))
				continue;
			sbuf_reset(&st->scratch);
			sbuf_add(&st->scratch, "latency_", 8);
			sbuf_addstr(&st->scratch, key);
			sbuf_addstr(&st->scratch, lat_buckets[i].unit);
			sbuf_addch(&st->scratch, '%');
			id = name_id(&st->names, st->scratch.buf,
				     st->scratch.len);
			for (b = 0; b < 2; b++)
				acc_add(&st->tot[b].buckets, id,
					fj_num(v), jw[b]);
		}
	}
	for (i = 0; i < ARRAY_SIZE(job_fields); i++) {
		const struct fj_node *v = fj_get(jd, job, job_fields[i].key);

		if (fj_is(v, FJ_NUMBER)) {
			jr.fields |= 1u << i;
			jr.field[i] = fj_num(v);
		}
	}
	params_add(st, job);

	sbuf_add(&st->jobnames, name, strlen(name) + 1);
	spill_add(&st->spill, &jr, sizeof(jr));
	for (i = p = 0; i < jr.nr_dirs; i++) {
		const struct dir_rec *dr = &st->dirs[i];

		spill_add(&st->spill, dr, sizeof(*dr));
		for (k = 0; k < NR_LATS; k++) {
			if (!dr->nr_pct[k])
				continue;
			spill_add(&st->spill, st->pct_id + p,
				  dr->nr_pct[k] * sizeof(*st->pct_id));
			spill_add(&st->spill, st->pct_val + p,
				  dr->nr_pct[k] * sizeof(*st->pct_val));
			p += dr->nr_pct[k];
		}
	}
}

static int spill_failed(const struct fio_state *st)
{
	return error("%s: cannot read back the job records from their "
		     "temporary file: %s", st->path, strerror(errno));
}

/*
 * Read back the next job's record: its directions into st->dirs, their
 * percentiles into st->pct_* in the same order (pct 0: skip them).
 * 0 or error().
 */
static int job_read(struct fio_state *st, struct job_rec *jr, int pct)
{
	size_t i, n;
	int k;

	if (spill_read(&st->spill, jr, sizeof(*jr)))
		return spill_failed(st);
	if (jr->nr_dirs > NR_DIRS)
		BUG("fio: a job record of %u directions", jr->nr_dirs);
	st->nr_pct = 0;
	for (i = 0; i < jr->nr_dirs; i++) {
		const struct dir_rec *dr = &st->dirs[i];

		if (spill_read(&st->spill, &st->dirs[i], sizeof(*dr)))
			return spill_failed(st);
		for (k = 0; k < NR_LATS; k++) {
			n = dr->nr_pct[k];
			if (!n)
				continue;
			if (!pct) {
				if (spill_read(&st->spill, NULL,
					       n * (sizeof(*st->pct_id) +
						    sizeof(*st->pct_val))))
					return spill_failed(st);
				continue;
			}
			ALLOC_GROW(st->pct_id, st->nr_pct + n,
				   st->alloc_pct_id);
			ALLOC_GROW(st->pct_val, st->nr_pct + n,
				   st->alloc_pct_val);
			if (spill_read(&st->spill, st->pct_id + st->nr_pct,
				       n * sizeof(*st->pct_id)) ||
			    spill_read(&st->spill, st->pct_val + st->nr_pct,
				       n * sizeof(*st->pct_val)))
				return spill_failed(st);
			st->nr_pct += n;
		}
	}
	return 0;
}

/* A new "jobs" member: it replaces the earlier one, as in jansson. */
static void jobs_reset(struct fio_state *st, int kind)
{
	size_t i;
	int b;

	st->jobs_kind = kind;
	st->nr_jobs = 0;
	spill_release(&st->spill);
	for (i = 0; i < NR_DIRS * NR_LATS; i++)
		fhist_release(&st->hist[i / NR_LATS][i % NR_LATS]);
	sbuf_reset(&st->jobnames);
	for (b = 0; b < 2; b++)
		totals_release(&st->tot[b]);
	st->workload = 0;
	st->have_ios = 1;
	for (i = 0; i < st->nr_cands; i++) {
		free(st->cands[i].key);
		free(st->cands[i].value);
	}
	st->nr_cands = 0;
	strmap_clear(&st->cand_ids);
	st->job_failed = 0;
	sbuf_reset(&st->job_err);
}

/* ---- the totals, at the end ---- */

static double dr_io_kib(const struct fio_state *st, const struct dir_rec *d)
{
	return io_kib(d->io_in_bytes, d->io, st->bytes);
}

static double dr_weight(const struct fio_state *st, const struct dir_rec *d)
{
	return d->have_ios ? d->ios : dr_io_kib(st, d);
}

/*
 * The pooled variances need the mean over all jobs first: one pass over
 * the records, in job order, once the document is read.  0 or -1.
 */
static int pool_variances(struct fio_state *st)
{
	const struct totals *t = &st->tot[st->bytes];
	struct job_rec jr;
	size_t j, i;
	int k;

	spill_rewind(&st->spill);
	for (j = 0; j < st->nr_jobs; j++) {
		if (job_read(st, &jr, 0))
			return -1;
		for (i = 0; i < jr.nr_dirs; i++) {
			const struct dir_rec *d = &st->dirs[i];
			double w = dr_weight(st, d);

			for (k = 0; k < NR_LATS; k++) {
				double sd = d->stddev_ns[k];
				double dm = d->mean_ns[k] -
					    t->dir[d->dir].lat[k].mean;

				if (w > 0 && (d->measured & (1u << k)))
					wmean_add(&st->lat_var[d->dir][k],
						  sd * sd + dm * dm, w);
			}
		}
	}
	return 0;
}

/*
 * Mean and pooled stddev of one latency type over the jobs that did I/O
 * in dir and measured it.  Returns 0 if none did.
 */
static int lat_pool(const struct fio_state *st, int dir, int kind,
		    double *mean, double *stddev)
{
	const struct wmean *m = &st->tot[st->bytes].dir[dir].lat[kind];

	if (!(m->w > 0))
		return 0;
	*mean = m->mean;
	*stddev = sqrt(st->lat_var[dir][kind].mean);
	return 1;
}

static int emit_dir_totals(struct fio_state *st, int dir)
{
	const struct totals *t = &st->tot[st->bytes];
	const struct dir_total *d = &t->dir[dir];
	const char *dn = dir_names[dir];
	size_t i;
	int k;

	if (!d->present)
		return 0;
	/* trim and mixed only when they had I/O; read/write always */
	if ((dir == DIR_TRIM || dir == DIR_MIXED) && !(d->weight > 0))
		return 0;
	if (emitf(st, "MB/s", d->bw_kibs / 1024, st->line0, "%s_bw_MBps",
		  dn) ||
	    emitf(st, "IO/s", d->iops, st->line0, "%s_iops", dn))
		return -1;
	if (!(d->weight > 0))
		return 0;	/* no I/O: no latency, runtime or volume */

	for (k = 0; k < NR_LATS; k++) {
		const struct acc_list *pl = &t->pct[dir][k];
		double mean, sd;

		if (lat_pool(st, dir, k, &mean, &sd)) {
			if (emitf(st, "ns", mean, st->line0, "%s_%s_mean_ns",
				  dn, lat_names[k]))
				return -1;
			/* lkp has no lat stddev; we follow its names */
			if (k != LAT_T &&
			    emitf(st, "ns", sd, st->line0, "%s_%s_stddev",
				  dn, lat_names[k]))
				return -1;
		}
		for (i = 0; i < pl->nr; i++)
			if (emitf(st, "ns", pl->v[i].m.mean, st->line0,
				  "%s_%s_%s%%_ns", dn, lat_names[k],
				  name_str(&st->names, pl->v[i].id)))
				return -1;
	}
	if (emitf(st, "ms", d->runtime_ms, st->line0, "%s_runtime_ms", dn) ||
	    emitf(st, "MiB", d->io_kib / 1024, st->line0, "%s_io_MiB", dn))
		return -1;
	return 0;
}

static int emit_totals(struct fio_state *st)
{
	const struct acc_list *l = &st->tot[st->bytes].buckets;
	size_t i;
	int dir;

	for (dir = 0; dir < NR_DIRS; dir++)
		if (emit_dir_totals(st, dir))
			return -1;
	/* weight 0: no job did I/O, and a distribution of nothing is not 0 */
	for (i = 0; i < l->nr; i++)
		if (l->v[i].m.w > 0 &&
		    emitf(st, "%", l->v[i].m.mean, st->line0, "%s",
			  name_str(&st->names, l->v[i].id)))
			return -1;
	if (st->have_ios &&
	    emitf(st, "ios", st->workload, st->line0, "workload"))
		return -1;
	return 0;
}

/* ---- per job ---- */

/*
 * The line of job j's "jobname" key, found in the text of the object
 * (jansson keeps no positions).  If the count does not match the jobs,
 * every job gets the line of the '{'.
 */
static long job_line(const struct fio_state *st, size_t j)
{
	return st->nr_jobname_lines == st->nr_jobs ? st->jobname_line[j]
						   : st->line0;
}

/* A direction of a job; its percentiles start at st->pct_*[p]. */
static int emit_job_dir(struct fio_state *st, const char *job, long line,
			const struct dir_rec *d, size_t p)
{
	const char *dn = dir_names[d->dir];
	size_t i;
	int k;

	if (emitf(st, "MB/s", d->bw_kibs / 1024, line, "%s.%s.bw_MBps", job,
		  dn) ||
	    emitf(st, "IO/s", d->iops, line, "%s.%s.iops", job, dn))
		return -1;
	for (k = 0; k < NR_LATS; k++) {
		size_t end = p + d->nr_pct[k];

		if (!(d->measured & (1u << k)))
			continue;
		if (emitf(st, "ns", d->mean_ns[k], line, "%s.%s.%s_mean_ns",
			  job, dn, lat_names[k]))
			return -1;
		if (k == LAT_C &&
		    emitf(st, "ns", d->stddev_ns[k], line,
			  "%s.%s.clat_stddev", job, dn))
			return -1;
		for (i = p; i < end; i++) {
			uint32_t c = st->pct_id[i];

			if (c & PCT_BAD)
				warning("%s:%ld: ignoring percentile '%s'",
					st->path, line,
					name_str(&st->names, c & ~PCT_BAD));
			else if (emitf(st, "ns", st->pct_val[i], line,
				       "%s.%s.%s_%s%%_ns", job, dn,
				       lat_names[k], name_str(&st->names, c)))
				return -1;
		}
		p = end;
	}
	if (emitf(st, "ms", d->runtime_ms, line, "%s.%s.runtime_ms", job,
		  dn) ||
	    emitf(st, "MiB", dr_io_kib(st, d) / 1024, line, "%s.%s.io_MiB",
		  job, dn))
		return -1;
	if (d->have_ios &&
	    emitf(st, "ios", d->ios, line, "%s.%s.ios", job, dn))
		return -1;
	return 0;
}

struct name_ref {
	const char *name;	/* borrowed from fio_state.jobnames */
	size_t job;
};

static int name_ref_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name_ref *)a)->name,
		      ((const struct name_ref *)b)->name);
}

/*
 * Which jobs share their name with another (numjobs=N): a flag per job.
 * The caller frees it.
 */
static unsigned char *shared_names(const struct fio_state *st)
{
	struct name_ref *refs = xcalloc(st->nr_jobs, sizeof(*refs));
	unsigned char *shared = xcalloc(st->nr_jobs, 1);
	const char *name = st->jobnames.buf;
	size_t j;

	for (j = 0; j < st->nr_jobs; j++, name += strlen(name) + 1) {
		refs[j].name = name;
		refs[j].job = j;
	}
	QSORT(refs, st->nr_jobs, name_ref_cmp);
	for (j = 0; j + 1 < st->nr_jobs; j++)
		if (!strcmp(refs[j].name, refs[j + 1].name))
			shared[refs[j].job] = shared[refs[j + 1].job] = 1;
	free(refs);
	return shared;
}

static int emit_jobs(struct fio_state *st)
{
	unsigned char *shared = shared_names(st);
	const char *name = st->jobnames.buf;
	struct sbuf job = SBUF_INIT;
	struct job_rec jr;
	size_t j, i, p;
	int ret = 0, k;

	spill_rewind(&st->spill);
	for (j = 0; !ret && j < st->nr_jobs; j++, name += strlen(name) + 1) {
		long line = job_line(st, j);

		sbuf_reset(&job);
		sbuf_addstr(&job, name);
		if (shared[j])
			sbuf_addf(&job, "#%zu", j);
		ret = job_read(st, &jr, 1);
		for (i = p = 0; !ret && i < jr.nr_dirs; i++) {
			const struct dir_rec *d = &st->dirs[i];

			if (dr_weight(st, d) > 0)
				ret = emit_job_dir(st, job.buf, line, d, p);
			for (k = 0; k < NR_LATS; k++)
				p += d->nr_pct[k];
		}
		for (i = 0; !ret && i < ARRAY_SIZE(job_fields); i++)
			if (jr.fields & (1u << i))
				ret = emitf(st, job_fields[i].unit,
					    jr.field[i], line, "%s.%s",
					    job.buf, job_fields[i].key);
	}
	free(shared);
	sbuf_release(&job);
	return ret;
}

/* ---- the run and its params ---- */

static int param_skipped(const char *key)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_skip); i++)
		if (!strcmp(key, param_skip[i]))
			return 1;
	return 0;
}

/*
 * Append to *kv the param key if every job agrees on its value: a job's
 * own string, else the global one.  Keys and values are borrowed from
 * st, which outlives the run.
 */
static void param_consider(const struct fio_state *st, const char *key,
			   struct kv **kv, size_t *nr, size_t *alloc)
{
	const char *global = fj_str(&st->global,
				    fj_get(&st->global, fj_root(&st->global),
					   key));
	const struct param_cand *c = NULL;
	const char *value;
	int64_t i;

	if (param_skipped(key))
		return;
	if (strmap_get(&st->cand_ids, key, strlen(key), &i))
		c = &st->cands[i];
	if (c && c->differ)
		return;
	if (c && c->nr_own == st->nr_jobs) {
		value = c->value;
	} else {
		/* some jobs take the global value: all must agree with it */
		if (!global || (c && c->nr_own && strcmp(c->value, global)))
			return;
		value = c && c->nr_own ? c->value : global;
	}
	ALLOC_GROW(*kv, *nr + 1, *alloc);
	(*kv)[*nr].key = key;
	(*kv)[*nr].value = value;
	(*nr)++;
}

static int emit_run(struct fio_state *st)
{
	struct run_desc rd;
	struct kv *kv = NULL;
	size_t nr = 0, alloc = 0, i;
	const struct fj *g = &st->global;
	const struct fj_node *v;
	int ret;

	/* "global options" first, then the jobs' own keys, first seen first */
	for (v = fj_first(g, fj_root(g)); v; v = fj_next(g, v))
		if (fj_is(fj_root(g), FJ_OBJECT))
			param_consider(st, fj_key(g, v), &kv, &nr, &alloc);
	for (i = 0; i < st->nr_cands; i++)
		if (!fj_get(g, fj_root(g), st->cands[i].key))
			param_consider(st, st->cands[i].key, &kv, &nr,
				       &alloc);

	memset(&rd, 0, sizeof(rd));
	rd.suite = "fio";
	rd.testcase = "fio";
	rd.params = kv;
	rd.nr_params = nr;
	rd.iteration = -1;
	/* epoch seconds; a value out of range is no start time (and no UB) */
	rd.start_time = st->timestamp > 0 && st->timestamp < 1e15 ?
			(int64_t)st->timestamp : 0;
	ret = db_emit_run(st->ctx, &rd, st->line0);
	free(kv);
	return ret;
}

/* ---- the top-level members ---- */

static void parse_version(struct fio_state *st, const char *p)
{
	long major, minor;

	st->ver_major = st->ver_minor = -1;
	if (!p || str_expect_lit(&p, "fio-") || str_long(&p, &major) ||
	    str_expect(&p, '.') || str_long(&p, &minor))
		return;
	st->ver_major = major;
	st->ver_minor = minor;
}

/*
 * A member other than an array, the root of st->member: keep what the
 * run needs of it ("global options" is kept whole: st->member's tree
 * moves there).
 */
static void member_take(struct fio_state *st, const char *key)
{
	const struct fj *d = &st->member;
	const struct fj_node *v = fj_root(d);

	if (!strcmp(key, "jobs")) {
		jobs_reset(st, JOBS_OTHER);
	} else if (!strcmp(key, "fio version")) {
		parse_version(st, fj_str(d, v));
	} else if (!strcmp(key, "timestamp")) {
		st->timestamp = fj_num(v);
	} else if (!strcmp(key, "timestamp_ms")) {
		st->timestamp_ms = fj_num(v);
	} else if (!strcmp(key, "global options")) {
		struct fj old = st->global;

		st->global = st->member;
		st->member = old;
	}
}

/* member_take() of a jansson value (borrowed). */
static void member_take_json(struct fio_state *st, const char *key,
			     const json_t *value)
{
	fj_from_json(&st->member, value);
	member_take(st, key);
}

/* ---- reading the document: bytes, slices, and jansson ---- */

/*
 * struct input offers lines (capped at 16 MiB, NUL refused: one line
 * may be a whole minified document) or the whole file (capped at
 * 256 MiB); this reads bytes as input.c's fill() does, with its hashing,
 * counts and messages, so that the import driver's input_finish() finds
 * the content hashed and the stream at its end.
 */
#define READ_CHUNK (64u << 10)
/* Room before a capture for the bytes that set jansson's state. */
#define SLOT 8
/* Nesting that jansson refuses anyway (JSON_PARSER_MAX_DEPTH 2048). */
#define NEST_MAX 2048

/*
 * What the whole document's parse has read before the captured bytes,
 * in a few bytes: inside the object, at a member, after a member's
 * value, after its comma; inside an array member, at an element, after
 * one, after its comma.  Each slice is then read with the same depth,
 * the same expectations and so the same messages.  None holds a newline.
 */
static const char p_obj[] = "{";
static const char p_obj_value[] = "{\"\":[]";
static const char p_obj_comma[] = "{\"\":[],";
static const char p_arr[] = "{\"\":[";
static const char p_arr_value[] = "{\"\":[[]";
static const char p_arr_comma[] = "{\"\":[[],";

struct reader {
	struct input *in;		/* borrowed */
	unsigned char *chunk;		/* owned, READ_CHUNK bytes */
	const unsigned char *p, *end;	/* read, not yet consumed */
	long line;			/* line of the next byte */
	int failed;			/* a read error was reported */
	/*
	 * Inside the top-level object: the "jobname" keys are looked for
	 * in the text, and consumed bytes go to cap (after SLOT bytes).
	 */
	int in_object;
	int pat;			/* bytes of "\"jobname\"" matched */
	long *jobname_line;		/* owned */
	size_t nr_jobname_lines, alloc_jobname_lines;
	struct sbuf cap;
	long cap_line;			/* line of the first captured byte */
};

static const char jobname_pat[] = "\"jobname\"";
#define JOBNAME_PAT_LEN (sizeof(jobname_pat) - 1)

static void reader_init(struct reader *r, struct input *in)
{
	memset(r, 0, sizeof(*r));
	r->in = in;
	r->chunk = xmalloc(READ_CHUNK);
	/* input_open() has read the first bytes already */
	r->p = in->buf + in->pos;
	r->end = in->buf + in->end;
	in->pos = in->end;
	r->line = 1;
	sbuf_init(&r->cap, 4096);
	sbuf_add(&r->cap, "        ", SLOT);
}

static void reader_release(struct reader *r)
{
	free(r->chunk);
	free(r->jobname_line);
	sbuf_release(&r->cap);
}

/* Read the next bytes: 1, or 0 at the end or after a read error. */
static int rd_fill(struct reader *r)
{
	struct input *in = r->in;
	int n, zerr;

	if (r->failed || in->eof)
		return 0;
	n = gzread(in->gz, r->chunk, READ_CHUNK);
	if (n < 0) {
		const char *msg = gzerror(in->gz, &zerr);

		if (zerr == Z_ERRNO)
			msg = strerror(errno);
		r->failed = 1;
		error("%s:%ld: read error: %s", in->path, in->line + 1, msg);
		return 0;
	}
	if (n == 0) {
		/* gzread returns 0 for a cut-off gzip stream too */
		gzerror(in->gz, &zerr);
		if (zerr == Z_BUF_ERROR) {
			r->failed = 1;
			error("%s:%ld: truncated gzip data", in->path,
			      in->line + 1);
			return 0;
		}
		in->eof = 1;
		return 0;
	}
	sha256_update(&in->hash, r->chunk, (size_t)n);
	in->nbytes += (uint64_t)n;
	r->p = r->chunk;
	r->end = r->chunk + n;
	return 1;
}

/* The next byte, not consumed, or -1 at the end. */
static inline int rd_peek(struct reader *r)
{
	if (r->p == r->end && !rd_fill(r))
		return -1;
	return *r->p;
}

/*
 * The "jobname" keys, as the whole-document code found them: the text
 * "jobname" in quotes, then blanks and ':', anywhere in the object.
 */
static void jobname_step(struct reader *r, int c)
{
	if (r->pat == (int)JOBNAME_PAT_LEN) {
		if (c == ' ' || c == '\t')
			return;
		r->pat = 0;
		if (c == ':') {
			ALLOC_GROW(r->jobname_line, r->nr_jobname_lines + 1,
				   r->alloc_jobname_lines);
			r->jobname_line[r->nr_jobname_lines++] = r->line;
			return;
		}
	}
	if (c == jobname_pat[r->pat])
		r->pat++;
	else
		r->pat = c == '"';
}

/* Consume the next byte: it is returned, or -1 at the end. */
static inline int rd_get(struct reader *r)
{
	int c = rd_peek(r);

	if (c < 0)
		return -1;
	r->p++;
	if (c == '\n')
		r->line++;
	if (r->in_object) {
		jobname_step(r, c);
		sbuf_addch(&r->cap, c);
	}
	return c;
}

/* Start capturing at the next byte. */
static void cap_start(struct reader *r)
{
	sbuf_setlen(&r->cap, SLOT);
	r->cap_line = r->line;
}

static size_t cap_used(const struct reader *r)
{
	return r->cap.len - SLOT;
}

/* jansson's whitespace; returns the byte after it (not consumed). */
static int skip_ws(struct reader *r)
{
	int c;

	while ((c = rd_peek(r)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		rd_get(r);
	return c;
}

/*
 * Bytes of jansson's number and keyword tokens, and of UTF-8 sequences
 * (their first byte makes jansson read and check the whole sequence, so
 * it must not be cut off).
 */
static int is_scalar_byte(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.' ||
	       c >= 0x80;
}

enum scan {
	SCAN_DONE,	/* ended where jansson's value ends, or fails */
	SCAN_EOF,	/* the file ended inside */
	SCAN_BIG,	/* longer than FIO_VALUE_MAX */
};

/* The rest of a string whose '"' is consumed. */
static enum scan scan_string_rest(struct reader *r)
{
	int c, esc = 0;

	while ((c = rd_get(r)) >= 0) {
		if (esc)
			esc = 0;
		else if (c == '\\')
			esc = 1;
		else if (c == '"')
			return SCAN_DONE;
		if (cap_used(r) > FIO_VALUE_MAX)
			return SCAN_BIG;
	}
	return SCAN_EOF;
}

/*
 * One token as jansson's lexer sees its end: a string, a run of number
 * or keyword bytes, or one byte (punctuation, or what jansson refuses).
 */
static enum scan scan_token(struct reader *r)
{
	int c = rd_get(r);

	if (c < 0)
		return SCAN_EOF;
	if (c == '"')
		return scan_string_rest(r);
	if (is_scalar_byte(c))
		while (is_scalar_byte(rd_peek(r))) {
			rd_get(r);
			if (cap_used(r) > FIO_VALUE_MAX)
				return SCAN_BIG;
		}
	return SCAN_DONE;
}

/*
 * One value: an object or array up to its closing bracket, by nesting
 * outside strings (a bracket that does not match ends it too: jansson
 * fails there), or one token.  The bytes of a chunk are gone through
 * in one loop and captured at once: rd_get() per byte was a fifth of
 * the import.  What a byte does is what rd_get() and the byte's turn
 * did, in the same order, the size checked after each byte as before.
 */
/* The bytes that change the scan's state; it skips the others. */
static const unsigned char scan_stop[256] = {
	['"'] = 1, ['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
	['\n'] = 1,
};

static enum scan scan_value(struct reader *r)
{
	char closer[NEST_MAX];
	size_t depth = 0;
	int c = rd_peek(r), in_str = 0, esc = 0;

	if (c != '{' && c != '[')
		return scan_token(r);
	while (rd_peek(r) >= 0) {
		const unsigned char *p = r->p, *end = r->end;
		size_t used = cap_used(r);
		size_t room = used <= FIO_VALUE_MAX ? FIO_VALUE_MAX + 1 - used
						    : 1;
		const size_t rest = JOBNAME_PAT_LEN - 1;
		int done = 0;

		/* the byte that passes the limit is the last one looked at */
		if ((size_t)(end - p) > room)
			end = p + room;
		while (p < end && !done) {
			/* nothing to do for the others (jobname_step() at 0) */
			if (!r->pat && !esc) {
				while (p < end && !scan_stop[*p])
					p++;
				if (p == end)
					break;
			}
			c = *p++;
			if (c == '\n')
				r->line++;
			/*
			 * A quote not followed by the rest of the pattern
			 * starts no match: the pattern fails before the
			 * next quote, which starts its own.
			 */
			if (r->in_object &&
			    (r->pat ||
			     (c == '"' && (end - p < (ptrdiff_t)rest ||
					   !memcmp(p, jobname_pat + 1, rest)))))
				jobname_step(r, c);
			if (in_str) {
				if (esc)
					esc = 0;
				else if (c == '\\')
					esc = 1;
				else if (c == '"')
					in_str = 0;
			} else if (c == '"') {
				in_str = 1;
			} else if (c == '{' || c == '[') {
				if (depth == NEST_MAX)
					done = 1;
				else
					closer[depth++] = c == '{' ? '}' : ']';
			} else if (c == '}' || c == ']') {
				if (c != closer[--depth] || !depth)
					done = 1;
			}
		}
		if (r->in_object)
			sbuf_add(&r->cap, r->p, (size_t)(p - r->p));
		r->p = p;
		if (done)
			return SCAN_DONE;
		if (cap_used(r) > FIO_VALUE_MAX)
			return SCAN_BIG;
	}
	return SCAN_EOF;
}

/* Record the syntax error; the line counts from the capture's first. */
static void parse_failed(struct fio_state *st, const struct reader *r,
			 const json_error_t *jerr)
{
	sbuf_reset(&st->parse_err);
	sbuf_addf(&st->parse_err, "%s:%ld: truncated or invalid JSON: %s",
		  st->path,
		  r->cap_line - 1 + (jerr->line > 0 ? jerr->line : 1),
		  jerr->text);
}

/* Put the bytes of state (p_obj...) in front of the capture. */
static void cap_state(struct reader *r, const char *state)
{
	size_t n = strlen(state);

	memcpy(r->cap.buf, state, n);
	memset(r->cap.buf + n, ' ', SLOT - n);
}

/*
 * Parse the capture behind state (what the whole parse has read before
 * it) and before suffix (what closes the state; "" when the file ended
 * inside).  Returns the value, or NULL after recording the error.
 */
static json_t *parse_capture(struct fio_state *st, struct reader *r,
			     const char *state, const char *suffix)
{
	size_t len = r->cap.len;
	json_error_t jerr;
	json_t *v;

	cap_state(r, state);
	sbuf_addstr(&r->cap, suffix);
	v = json_loadb(r->cap.buf, r->cap.len, JSON_DISABLE_EOF_CHECK, &jerr);
	/* the value ends where the scan said, the suffix closes it */
	if (v && (size_t)jerr.position != r->cap.len)
		BUG("fio: a JSON slice ends at %d of %zu", jerr.position,
		    r->cap.len);
	sbuf_setlen(&r->cap, len);
	if (!v)
		parse_failed(st, r, &jerr);
	return v;
}

/*
 * The capture passed FIO_VALUE_MAX.  If jansson finds an error well
 * before the cut (it reads at most a UTF-8 sequence ahead), that is the
 * error of the whole document; otherwise the value is refused for its
 * size.
 */
__attribute__((format(printf, 5, 6)))
static int too_big(struct fio_state *st, struct reader *r, const char *state,
		   long line, const char *fmt, ...)
{
	json_error_t jerr;
	va_list ap;
	json_t *v;

	cap_state(r, state);
	v = json_loadb(r->cap.buf, r->cap.len, JSON_DISABLE_EOF_CHECK, &jerr);
	if (v)
		BUG("fio: a cut JSON value accepted");
	if (jerr.position >= 0 && (size_t)jerr.position + 8 < r->cap.len) {
		parse_failed(st, r, &jerr);
		return -1;
	}
	sbuf_reset(&st->parse_err);
	sbuf_addf(&st->parse_err, "%s:%ld: ", st->path, line);
	va_start(ap, fmt);
	sbuf_vaddf(&st->parse_err, fmt, ap);
	va_end(ap);
	sbuf_addf(&st->parse_err, " larger than %u MiB, the limit of one "
		  "member, job or token (fio writes a job in a few KiB)",
		  FIO_VALUE_MAX >> 20);
	return -1;
}

/*
 * The next token is wrong where it stands (state says where): jansson
 * says how, from the capture and that token.
 */
static int syntax_error(struct fio_state *st, struct reader *r,
			const char *state)
{
	long line = r->line;

	if (scan_token(r) == SCAN_BIG)
		return too_big(st, r, state, line, "a JSON token");
	if (parse_capture(st, r, state, ""))
		BUG("fio: JSON accepted where it cannot be");
	return -1;
}

/*
 * An array member: its elements one by one; those of "jobs" are jobs.
 * Another array replaces what its key had as any member does: only its
 * type matters then ("fio version": [] is no version).
 */
static int read_array(struct fio_state *st, struct reader *r,
		      const char *key)
{
	int jobs = !strcmp(key, "jobs"), c;
	size_t i;

	if (jobs) {
		jobs_reset(st, JOBS_ARRAY);
	} else {
		/* only its type matters */
		if (fj_parse(&st->member, "[]", 2))
			BUG("fio: [] refused");
		member_take(st, key);
	}
	cap_start(r);
	c = skip_ws(r);
	if (c == ']') {
		rd_get(r);
		return 0;
	}
	for (i = 0;; i++) {
		long line = r->line;
		enum scan s = scan_value(r);
		json_t *v;

		if (s == SCAN_BIG)
			return too_big(st, r, p_arr, line,
				       "\"%s\"[%zu] is", key, i);
		/* an element in the subset that fio writes: no jansson */
		if (s == SCAN_DONE &&
		    !fj_parse(&st->job, r->cap.buf + SLOT, cap_used(r))) {
			if (jobs)
				job_add(st, fj_root(&st->job), i);
		} else {
			v = parse_capture(st, r, p_arr,
					  s == SCAN_DONE ? "]}" : "");
			if (!v)
				return -1;
			if (jobs) {
				fj_from_json(&st->job, json_array_get(
					json_object_get(v, ""), 0));
				job_add(st, fj_root(&st->job), i);
			}
			json_decref(v);
		}

		cap_start(r);
		c = skip_ws(r);
		if (c == ']') {
			rd_get(r);
			return 0;
		}
		if (c != ',')
			return syntax_error(st, r, p_arr_value);
		rd_get(r);
		cap_start(r);
		c = skip_ws(r);
		if (c == ']')
			return syntax_error(st, r, p_arr_comma);
	}
}

/*
 * A member's key, the capture from key_off: into st->key.  0, or -1 if
 * jansson does not take it.
 */
static int member_key(struct fio_state *st, struct reader *r, size_t key_off)
{
	json_error_t jerr;
	json_t *key;

	sbuf_reset(&st->key);
	if (!fj_parse(&st->member, r->cap.buf + key_off,
		      r->cap.len - key_off)) {
		sbuf_addstr(&st->key, fj_str(&st->member,
					     fj_root(&st->member)));
		return 0;
	}
	key = json_loadb(r->cap.buf + key_off, r->cap.len - key_off,
			 JSON_DECODE_ANY, &jerr);
	if (!key)
		return -1;
	sbuf_addstr(&st->key, json_string_value(key));
	json_decref(key);
	return 0;
}

/* One member, its key's '"' next; the capture holds what precedes it. */
static int read_member(struct fio_state *st, struct reader *r)
{
	size_t key_off = r->cap.len, value_off;
	long line = r->line;
	json_t *v;
	enum scan s;

	rd_get(r);
	s = scan_string_rest(r);
	if (s == SCAN_BIG)
		return too_big(st, r, p_obj, line, "a key");
	if (s != SCAN_DONE || member_key(st, r, key_off) || skip_ws(r) != ':')
		return syntax_error(st, r, p_obj);
	rd_get(r);
	if (skip_ws(r) == '[') {
		rd_get(r);
		return read_array(st, r, st->key.buf);
	}
	line = r->line;
	value_off = r->cap.len;
	s = scan_value(r);
	if (s == SCAN_BIG)
		return too_big(st, r, p_obj, line, "\"%s\" is", st->key.buf);
	if (s == SCAN_DONE && !fj_parse(&st->member, r->cap.buf + value_off,
					r->cap.len - value_off)) {
		member_take(st, st->key.buf);
		return 0;
	}
	v = parse_capture(st, r, p_obj, s == SCAN_DONE ? "}" : "");
	if (v)
		member_take_json(st, st->key.buf,
				 json_object_iter_value(json_object_iter(v)));
	json_decref(v);
	return v ? 0 : -1;
}

/*
 * The top-level object, its '{' consumed.  Returns 0 after its '}', or
 * -1 with the syntax error recorded (or the file cut short).
 */
static int read_object(struct fio_state *st, struct reader *r)
{
	const char *state = p_obj;
	int c;

	cap_start(r);
	c = skip_ws(r);
	if (c == '}') {
		rd_get(r);
		return 0;
	}
	for (;;) {
		if (c != '"')
			return syntax_error(st, r, state);
		if (read_member(st, r))
			return -1;
		cap_start(r);
		c = skip_ws(r);
		if (c == '}') {
			rd_get(r);
			return 0;
		}
		if (c != ',')
			return syntax_error(st, r, p_obj_value);
		rd_get(r);
		cap_start(r);
		c = skip_ws(r);
		state = p_obj_comma;
	}
}

/*
 * Where the JSON starts: the first line that starts with '{'.  Returns
 * 1 there (not consumed), 0 at the end; *any tells if there was a byte.
 */
static int find_json_start(struct reader *r, int *any)
{
	int c, bol = 1;

	*any = 0;
	while ((c = rd_peek(r)) >= 0) {
		*any = 1;
		if (bol && c == '{')
			return 1;
		rd_get(r);
		bol = c == '\n';
	}
	return 0;
}

/* After the object: the line of the next line starting with '{', or 0. */
static long next_object_line(struct reader *r)
{
	int c, bol = 0;

	while ((c = rd_peek(r)) >= 0) {
		if (bol && c == '{')
			return r->line;
		rd_get(r);
		bol = c == '\n';
	}
	return 0;
}

static void drain(struct reader *r)
{
	while (rd_peek(r) >= 0)
		r->p = r->end;
}

int fio_detect(const char *path UNUSED, const char *head, size_t len UNUSED)
{
	if (strstr(head, "\"fio version\""))
		return 90;
	if (strstr(head, "\"jobname\"") && strstr(head, "\"jobs\""))
		return 40;
	return 0;
}

static void fio_state_release(struct fio_state *st)
{
	size_t i;
	int b;

	for (b = 0; b < 2; b++)
		totals_release(&st->tot[b]);
	fj_release(&st->job);
	for (i = 0; i < st->nr_cands; i++) {
		free(st->cands[i].key);
		free(st->cands[i].value);
	}
	free(st->cands);
	strmap_clear(&st->cand_ids);
	fj_release(&st->global);
	fj_release(&st->member);
	sbuf_release(&st->key);
	spill_release(&st->spill);
	free(st->pct_id);
	free(st->pct_val);
	sbuf_release(&st->jobnames);
	sbuf_release(&st->job_err);
	sbuf_release(&st->parse_err);
	sbuf_release(&st->names.text);
	free(st->names.off);
	strmap_clear(&st->names.ids);
	strmap_clear(&st->pct_keys);
	sbuf_release(&st->name);
	sbuf_release(&st->scratch);
	free(st->pend);
	sbuf_release(&st->pend_names);
	for (i = 0; i < NR_DIRS * NR_LATS; i++) {
		fhist_release(&st->hist[i / NR_LATS][i % NR_LATS]);
		fhist_release(&st->final[i / NR_LATS][i % NR_LATS]);
	}
}

/* Forget one document before the next snapshot of --status-interval. */
static void doc_reset(struct fio_state *st, struct reader *r)
{
	jobs_reset(st, JOBS_NONE);
	st->timestamp = st->timestamp_ms = 0;
	memset(st->lat_var, 0, sizeof(st->lat_var));
	r->nr_jobname_lines = 0;
	r->pat = 0;
}

/* The document's time in seconds: timestamp_ms when fio wrote it. */
static double doc_time(const struct fio_state *st)
{
	return st->timestamp_ms > 0 ? st->timestamp_ms / 1000 : st->timestamp;
}

/*
 * One complete document read: check it, emit the run (the first), and
 * hold its values (the next document, if any, makes them a snapshot).
 * 0 or -1 after error().
 */
static int take_document(struct fio_state *st, const long *jobname_line,
			 size_t nr_jobname_lines, int nr)
{
	const char *path = st->path;
	size_t i;

	if (st->parse_err.len)
		return error("%s", st->parse_err.buf);
	if (st->jobs_kind != JOBS_ARRAY)
		return error("%s:%ld: not fio JSON output: no \"jobs\" array",
			     path, st->line0);
	if (!st->nr_jobs)
		return error("%s:%ld: fio JSON output without any job", path,
			     st->line0);
	st->jobname_line = jobname_line;
	st->nr_jobname_lines = nr_jobname_lines;
	if (st->job_failed)
		return error("%s:%ld: %s", path, job_line(st, st->job_err_index),
			     st->job_err.buf);
	st->bytes = st->ver_major > 2 ||
		    (st->ver_major == 2 && st->ver_minor >= 21);
	if (pool_variances(st) || (!nr && emit_run(st)))
		return -1;
	st->nr_pend = 0;
	sbuf_reset(&st->pend_names);
	for (i = 0; i < NR_DIRS * NR_LATS; i++) {
		struct fhist *f = &st->final[i / NR_LATS][i % NR_LATS];

		fhist_release(f);
		*f = st->hist[i / NR_LATS][i % NR_LATS];
		memset(&st->hist[i / NR_LATS][i % NR_LATS], 0, sizeof(*f));
	}
	return emit_totals(st) || emit_jobs(st) ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The json+ histograms of the last complete document, summed over its
 * jobs: fio.DIR_LAT_hist_ns (fio.read_clat_hist_ns ...), bins in ns.
 */
static int emit_histograms(struct fio_state *st)
{
	struct sbuf name = SBUF_INIT;
	int dir, k, ret = 0;

	for (dir = 0; dir < NR_DIRS && !ret; dir++)
		for (k = 0; k < NR_LATS && !ret; k++) {
			struct fhist *h = &st->final[dir][k];
			double *pairs;
			size_t i;

			if (!h->nr)
				continue;
			/* ascending by value, counts along */
			pairs = xmalloc(2 * h->nr * sizeof(*pairs));
			for (i = 0; i < h->nr; i++) {
				pairs[2 * i] = h->v[i];
				pairs[2 * i + 1] = h->c[i];
			}
			qsort(pairs, h->nr, 2 * sizeof(*pairs), cmp_double);
			for (i = 0; i < h->nr; i++) {
				h->v[i] = pairs[2 * i];
				h->c[i] = pairs[2 * i + 1];
			}
			free(pairs);
			sbuf_reset(&name);
			sbuf_addf(&name, "fio.%s_%s_hist_ns", dir_names[dir],
				  lat_names[k]);
			ret = db_emit_histogram(st->ctx, name.buf, "ns", h->v,
						h->c, h->nr, h->line);
		}
	sbuf_release(&name);
	return ret;
}

static void fio_state_init(struct fio_state *st, struct import_ctx *ctx,
			   const char *path)
{
	memset(st, 0, sizeof(*st));
	st->ctx = ctx;
	st->path = path;
	st->ver_major = st->ver_minor = -1;
	st->have_ios = 1;
	sbuf_init(&st->name, 128);
	sbuf_init(&st->scratch, 64);
	sbuf_init(&st->jobnames, 0);
	sbuf_init(&st->job_err, 0);
	sbuf_init(&st->parse_err, 0);
	sbuf_init(&st->names.text, 0);
	sbuf_init(&st->pend_names, 0);
	sbuf_init(&st->job.text, 0);
	sbuf_init(&st->member.text, 0);
	sbuf_init(&st->global.text, 0);
	sbuf_init(&st->key, 0);
	spill_init(&st->spill);
}

/* ---- the same document built by the other forms (fio.h) ---- */

struct fio_doc {
	struct fio_state st;
	long *line;		/* each job's line */
	size_t nr, alloc;
};

struct fio_doc *fio_doc_new(struct import_ctx *ctx, const char *path,
			    long line)
{
	struct fio_doc *d = xcalloc(1, sizeof(*d));

	fio_state_init(&d->st, ctx, path);
	d->st.line0 = line;
	jobs_reset(&d->st, JOBS_ARRAY);
	return d;
}

void fio_doc_member(struct fio_doc *d, const char *key, json_t *value)
{
	member_take_json(&d->st, key, value);
}

void fio_doc_job(struct fio_doc *d, json_t *job, long line)
{
	ALLOC_GROW(d->line, d->nr + 1, d->alloc);
	d->line[d->nr++] = line;
	fj_from_json(&d->st.job, job);
	job_add(&d->st, fj_root(&d->st.job), d->st.nr_jobs);
}

void fio_doc_free(struct fio_doc *d)
{
	if (!d)
		return;
	fio_state_release(&d->st);
	free(d->line);
	free(d);
}

int fio_doc_end(struct fio_doc *d)
{
	int ret;

	ret = take_document(&d->st, d->line, d->nr, 0) ||
	      emit_histograms(&d->st) ? -1 : 0;
	fio_doc_free(d);
	return ret;
}

static int fio_parse(struct import_ctx *ctx, struct input *in)
{
	struct fio_state st;
	struct reader r;
	long skipped = 0, next = 0, cut = 0;
	double prev_t = 0;
	int found, any, nr = 0, ret = -1;

	fio_state_init(&st, ctx, in->path);
	reader_init(&r, in);

	/*
	 * One document, or the snapshots of --status-interval: each
	 * object at the start of a line.  Every complete one but the last
	 * is a point of the series of each value, at its timestamp; the
	 * last is also the run's samples.  A last one cut short (fio
	 * killed) is named and left out, the earlier ones kept.
	 */
	found = find_json_start(&r, &any);
	if (found)
		skipped = r.line - 1;
	while (found) {
		long start = r.line;
		int rc;

		if (nr)
			doc_reset(&st, &r);
		st.line0 = r.line;
		r.in_object = 1;
		rd_get(&r);
		rc = read_object(&st, &r);
		r.in_object = 0;
		if (rc) {
			drain(&r);
			if (r.failed)
				goto out;
			if (!nr)
				break;	/* the error, said below */
			cut = start;
			break;
		}
		next = next_object_line(&r);
		/* one document is written as it is read, not held */
		st.hold = nr || next;
		/* the first was a snapshot too: its point, before its values go */
		if (nr == 1 && pending_series(&st, prev_t))
			goto out;
		if (take_document(&st, r.jobname_line, r.nr_jobname_lines,
				  nr))
			goto out;
		if (nr && pending_series(&st, doc_time(&st)))
			goto out;
		prev_t = doc_time(&st);
		nr++;
		found = next != 0;
	}
	drain(&r);
	if (r.failed)
		goto out;
	if (!any) {
		error("%s: empty file, expected fio JSON output", in->path);
		goto out;
	}
	if (!found && !nr && !st.parse_err.len) {
		error("%s: not fio JSON output: no line starts with '{'",
		      in->path);
		goto out;
	}
	if (!nr) {
		error("%s", st.parse_err.buf);
		goto out;
	}
	if (skipped)
		warning("%s:1: skipped %ld line%s before the JSON", in->path,
			skipped, skipped == 1 ? "" : "s");
	if (cut)
		db_warn(ctx, cut, "the snapshot that starts here is cut short "
			"(%s); left out, the %d before it kept", st.parse_err.buf,
			nr);
	/* the last complete document: the run's result */
	if ((st.hold && pending_samples(&st)) || emit_histograms(&st))
		goto out;
	ret = 0;
out:
	reader_release(&r);
	fio_state_release(&st);
	return ret;
}

const struct importer importer_fio = {
	.name = "fio",
	.family = "fio",
	.what = "fio --output-format=json (fio 2.x and 3.x)",
	.flags = IMP_FILES | IMP_SAMPLES | IMP_RECORDED,
	.detect = fio_detect,
	.parse = fio_parse,
	.lkp_names = (const char *const[]){ "fio.output", NULL },
};
