/*
 * The fio importer: reads `fio --output-format=json` output (fio 2.x in
 * microseconds, fio 3.x in nanoseconds) and emits one run per file with
 * lkp's fio.* totals over all jobs, per-job metrics, and as run params
 * the job options that every job shares.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "../formats.h"
#include "fio.h"
#include "fio-int.h"

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
 * Reading.  The document is streamed, never held whole.  A scanner of our
 * own (strings and their escapes, nesting, lines) finds the members of
 * the top-level object and the elements of its arrays ("jobs",
 * "disk_util"); each is parsed alone from its bytes into a small tree
 * (fio-json.c, which takes the JSON that fio writes without a malloc and
 * a hash insert per value, as jansson makes them), freed before the next
 * is read.  What that parser leaves, jansson parses, and so jansson still
 * decides what is valid and says what is wrong: its slice is parsed
 * behind a few bytes that put its parser where the parse of the whole
 * document would be (in the object or an array, at the same depth, after
 * a value or a comma), so an error keeps its text and its line.  A key
 * given twice counts once, the last, as in jansson.  Nothing is said
 * before the end of the file: a read error anywhere is the only message,
 * and a syntax error comes before the bad value of a job, as when the
 * document was parsed whole.
 *
 * Memory.  Of each job we keep its name, the line of its "jobname" and a
 * record (the directions that did I/O: counts, latency means, stddevs,
 * percentiles under interned names; the CPU fields), the records going
 * to an unlinked temporary file past 256 KiB; the totals (sums, and the
 * weighted means of buckets and percentiles) run as the jobs come, kept
 * twice while "fio version" may still change the unit of io_bytes.  The
 * run needs every job (its params): it is emitted at the end of the
 * document, then the samples from the records, in the order and with
 * the values of the whole-document code.  Our memory so does not grow
 * with the jobs (SQLite's page cache and the metric-id cache are the
 * most of it).  Limits: a member, an array element or a token of more
 * than 4 MiB is refused (jansson's tree is several times the text; fio
 * writes a job in a few KiB, tens with json+ bins); the document and
 * the number of jobs have none, at about 20 bytes a job.
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
	fio_reset_jobs(st, JOBS_NONE);
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

/* The fio version from which io_bytes counts bytes, not KiB (io_kib()). */
#define IO_BYTES_MAJOR 2
#define IO_BYTES_MINOR 21

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
		return error("%s:%ld: %s", path,
			     job_line(st, st->job_err_index), st->job_err.buf);
	st->bytes = st->ver_major > IO_BYTES_MAJOR ||
		    (st->ver_major == IO_BYTES_MAJOR &&
		     st->ver_minor >= IO_BYTES_MINOR);
	if (fio_pool_variances(st) || (!nr && fio_emit_run(st)))
		return -1;
	st->nr_pend = 0;
	sbuf_reset(&st->pend_names);
	for (i = 0; i < NR_DIRS * NR_LATS; i++) {
		struct fhist *f = &st->final[i / NR_LATS][i % NR_LATS];

		fhist_release(f);
		*f = st->hist[i / NR_LATS][i % NR_LATS];
		memset(&st->hist[i / NR_LATS][i % NR_LATS], 0, sizeof(*f));
	}
	return fio_emit_totals(st) || fio_emit_jobs(st) ? -1 : 0;
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
	fio_reset_jobs(&d->st, JOBS_ARRAY);
	return d;
}

void fio_doc_member(struct fio_doc *d, const char *key, json_t *value)
{
	fio_member_take_json(&d->st, key, value);
}

void fio_doc_job(struct fio_doc *d, json_t *job, long line)
{
	ALLOC_GROW(d->line, d->nr + 1, d->alloc);
	d->line[d->nr++] = line;
	fj_from_json(&d->st.job, job);
	fio_job_add(&d->st, fj_root(&d->st.job), d->st.nr_jobs);
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
	      fio_emit_histograms(&d->st) ? -1 : 0;
	fio_doc_free(d);
	return ret;
}

/* What the documents of a file came to, for the messages at its end. */
struct docs {
	long skipped;		/* lines before the JSON */
	long cut;		/* line of a last snapshot cut short, or 0 */
	int found;		/* a line starts with '{' */
	int any;		/* the file has a byte */
	int nr;			/* complete documents */
};

/*
 * The nr-th complete document, the next one's line next (0: none):
 * taken, and the values held of the one before made its points.
 * 0 or -1 after error().
 */
static int take_next(struct fio_state *st, const struct reader *r, int nr,
		     long next, double *prev_t)
{
	/* one document is written as it is read, not held */
	st->hold = nr || next;
	/* the first was a snapshot too: its point, before its values go */
	if (nr == 1 && fio_pending_series(st, *prev_t))
		return -1;
	if (take_document(st, r->jobname_line, r->nr_jobname_lines, nr))
		return -1;
	if (nr && fio_pending_series(st, doc_time(st)))
		return -1;
	*prev_t = doc_time(st);
	return 0;
}

/*
 * One document, or the snapshots of --status-interval: each object at
 * the start of a line.  Every complete one but the last is a point of
 * the series of each value, at its timestamp; the last is also the
 * run's samples.  A last one cut short (fio killed) is named and left
 * out, the earlier ones kept.  0, or -1 after error() (a read error,
 * or a complete document's); the syntax error of the first document
 * is said by docs_end().
 */
static int read_documents(struct fio_state *st, struct reader *r,
			  struct docs *ds)
{
	double prev_t = 0;
	long next;

	ds->found = fio_find_json_start(r, &ds->any);
	if (ds->found < 0)
		return -1;
	if (ds->found)
		ds->skipped = r->line - 1;
	while (ds->found) {
		long start = r->line;

		if (ds->nr)
			doc_reset(st, r);
		if (fio_read_document(st, r)) {
			/*
			 * The first document's syntax error refuses the file
			 * (docs_end() says it): what follows is not read (a
			 * device would not end).
			 */
			if (!ds->nr)
				return r->failed ? -1 : 0;
			fio_drain(r);
			if (r->failed)
				return -1;
			ds->cut = start;
			break;
		}
		next = fio_next_object_line(r);
		if (take_next(st, r, ds->nr, next, &prev_t))
			return -1;
		ds->nr++;
		ds->found = next != 0;
	}
	fio_drain(r);
	return r->failed ? -1 : 0;
}

/*
 * After the documents: what is wrong with the file, the warnings, and
 * the last complete document as the run's result.  0 or -1 after
 * error().
 */
static int docs_end(struct fio_state *st, const struct input *in,
		    const struct docs *ds)
{
	if (!ds->any)
		return error("%s: empty file, expected fio JSON output",
			     in->path);
	if (!ds->found && !ds->nr && !st->parse_err.len)
		return error("%s: not fio JSON output: no line starts with "
			     "'{'", in->path);
	if (!ds->nr)
		return error("%s", st->parse_err.buf);
	if (ds->skipped)
		warning("%s:1: skipped %ld line%s before the JSON", in->path,
			ds->skipped, ds->skipped == 1 ? "" : "s");
	if (ds->cut)
		db_warn(st->ctx, ds->cut, "the snapshot that starts here is "
			"cut short (%s); left out, the %d before it kept",
			st->parse_err.buf, ds->nr);
	if ((st->hold && fio_pending_samples(st)) || fio_emit_histograms(st))
		return -1;
	return 0;
}

static int fio_parse(struct import_ctx *ctx, struct input *in)
{
	struct fio_state st;
	struct reader r;
	struct docs ds = { 0, 0, 0, 0, 0 };
	int ret;

	fio_state_init(&st, ctx, in->path);
	reader_init(&r, in);
	ret = read_documents(&st, &r, &ds) ? -1 : docs_end(&st, in, &ds);
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
