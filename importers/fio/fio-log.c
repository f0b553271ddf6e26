/*
 * The fio-log importer: fio's --write_bw_log, --write_iops_log,
 * --write_lat_log and --write_hist_log files as series, one per job,
 * direction and kind of log (fio-dir.c reads them beside their JSON).
 */
#include "core/compat.h"
#include <jansson.h>
#include "core/input.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "fio.h"

/*
 * How the format was worked out: from fio's iolog.c (flush_samples(),
 * flush_hist_samples()) and HOWTO ("Log File Formats"), summed up in
 * research/fio-procfs.md §1.6, and checked on fio-3.33's own logs
 * (samples/fio/logs: per-I/O, 500 ms windows, window max, clat histogram;
 * tests/fixtures/fio-log: the commands are in its README).  Logs have no
 * header and say neither their kind nor their unit: both come from the
 * file name and the fio version.
 *
 * Names.  P_bw.N.log, P_iops.N.log, P_lat.N.log, P_clat.N.log,
 * P_slat.N.log, P_clat_hist.N.log (".gz" allowed): P the prefix given to
 * --write_*_log, N fio's thread number (1-based over every clone of
 * every job; no ".N" with per_job_logs=0).  A file named otherwise is
 * not detected (the driver then says "unknown format; use --format").
 * With --format fio-log such a file is read anyway as a log of unknown
 * kind: its values are kept as written, without unit, under
 * fio.J.DIR.value (J the file name without ".log"), with a warning.
 *
 * Rows.  "msec, value, ddir, bs[, offset][, prio]" separated by ", ":
 *   fio 2.x          msec, value, ddir, bs[, offset]           4 or 5
 *   fio 3.x (<3.37)  msec, value, ddir, bs[, offset], prio     5 or 6
 *   3.37+ log_window_value=both: a second value (the window max) after
 *   the first; 3.38+ prio may be hex "0x%04x" (log_prio=1) and an
 *   issue_time column may follow.
 * The layout is set by the first row and every row must have as many
 * columns.  ddir is the third column, unless that column is above 2 in
 * the first row: then it is the window max of log_window_value=both and
 * ddir is the fourth (only the first value, the mean, is kept).  ddir
 * must be 0 (read), 1 (write) or 2 (trim).  Columns after bs may be hex.
 * Hist logs: "msec, ddir, bs, b0, ..., bK" (K + 1 = 1856 >> coarseness
 * on fio 3.x); we keep per window and direction the number of I/Os (the
 * sum of the bins), not the bins: their latency layout depends on the
 * fio version and options (FIO_IO_U_PLAT_*, log_hist_coarseness), which
 * a log does not record.
 *
 * Time: t = msec / 1000 s, from the job's start; with log_unix_epoch=1
 * msec is epoch milliseconds (above 1e12) and t is then epoch seconds,
 * which also becomes the start time of a standalone run.
 *
 * Metrics, J the job (below), DIR read/write/trim, all gauges:
 *   _bw   fio.J.DIR.bw_MBps            value / 1024 (KiB/s -> MB/s as
 *                                      the fio importer's bw_MBps)
 *   _iops fio.J.DIR.iops               IO/s
 *   _lat  fio.J.DIR.lat_mean_ns        ns (fio 2.x: µs * 1000)
 *   _clat fio.J.DIR.clat_mean_ns       ns
 *   _slat fio.J.DIR.slat_mean_ns       ns
 *   _clat_hist fio.J.DIR.clat_hist_count  I/Os completed in the window
 * Windowed logs (log_avg_msec=M: bs is 0 in every row) hold the mean of
 * each window, so the derived mean of a latency series is the mean of
 * the window means: every window weighs the same, however many I/Os it
 * saw; close to the JSON's mean (which weighs every I/O) but not the
 * same.  Per-I/O logs (no log_avg_msec: bs is the I/O's size) hold one
 * latency per I/O, whose mean is the JSON's mean exactly.  But their bw
 * and iops rows are per I/O too (bs / the I/O's latency, and 1), not the
 * job's throughput: those series are named fio.J.DIR.bw_per_io_MBps and
 * fio.J.DIR.iops_per_io so that their means are not mistaken for it.
 * With log_max_value=1 (log_window_value=max) the values are window
 * maxima: a log does not say so; beside its JSON, the job's options do
 * and a warning says the series holds maxima under a _mean_ name.
 *
 * The job J.  Standalone, a log is one run of its own (suite and testcase
 * "fio", no params) and J is its prefix P, "P#N" for N > 1 (the number of
 * the file name, 1-based).  Beside its JSON (fio-dir), J is the name the
 * fio importer gives jobs[N - 1]: its jobname, or "jobname#i" (i =
 * N - 1, 0-based as there) when several jobs[] entries share the name.
 * That holds when jobs[] has one entry per thread; with group_reporting
 * it has one per group, which fio-dir sees from numjobs (an entry with
 * numjobs=k not followed by its k - 1 clones): the logs then keep their
 * standalone names, with a warning.  Unit: fio 2.x logs latencies in µs;
 * beside a JSON its "fio version" says which; standalone, a row of 4
 * columns, or of 5 whose last is neither 0 nor 1 (an offset, not a
 * prio), is fio 2.x.
 *
 * fio-dir claims a directory that holds fio logs (by name) and exactly
 * one other file, or exactly one other whose name contains "json"; of
 * those, the one fio_detect() knows is the JSON, imported first with the
 * fio importer (it makes the run); the logs follow into the same run.
 * The run then has the JSON's samples, and since a series derives no
 * sample where its run has one of that metric, fio.J.read.bw_MBps keeps
 * the JSON's value and the log's series beside it.
 */

enum log_kind {
	LK_BW, LK_IOPS, LK_LAT, LK_CLAT, LK_SLAT, LK_CLAT_HIST, LK_UNKNOWN,
};

static const struct log_kind_info {
	const char *suffix;	/* after P in the file name */
	const char *metric;	/* windowed rows */
	const char *per_io;	/* per-I/O rows */
	const char *unit;
	double scale;		/* stored = value * scale */
	int latency;		/* µs in fio 2.x */
	const char *option;	/* the job option that names P */
} kinds[] = {
	[LK_BW] = { "_bw", "bw_MBps", "bw_per_io_MBps", "MB/s", 1.0 / 1024,
		    0, "write_bw_log" },
	[LK_IOPS] = { "_iops", "iops", "iops_per_io", "IO/s", 1, 0,
		      "write_iops_log" },
	[LK_LAT] = { "_lat", "lat_mean_ns", "lat_mean_ns", "ns", 1, 1,
		     "write_lat_log" },
	[LK_CLAT] = { "_clat", "clat_mean_ns", "clat_mean_ns", "ns", 1, 1,
		      "write_lat_log" },
	[LK_SLAT] = { "_slat", "slat_mean_ns", "slat_mean_ns", "ns", 1, 1,
		      "write_lat_log" },
	[LK_CLAT_HIST] = { "_clat_hist", "clat_hist_count", "clat_hist_count",
			   "ios", 1, 0, "write_hist_log" },
	[LK_UNKNOWN] = { "", "value", "value", NULL, 1, 0, NULL },
};

static const char *const ddir_names[] = { "read", "write", "trim" };

/* What a log's file name says. */
struct log_name {
	enum log_kind kind;
	char *prefix;		/* owned: P (or the whole stem) */
	long index;		/* N; 0 = none */
};

static void log_name_release(struct log_name *ln)
{
	free(ln->prefix);
	ln->prefix = NULL;
}

/*
 * Parse the base name of path; 0 if it names a fio log, -1 if not (then
 * ln->kind is LK_UNKNOWN and ln->prefix the name without ".log" and
 * ".N", or without ".gz" only).
 */
static int log_name_parse(const char *path, struct log_name *ln)
{
	const char *base = strrchr(path, '/');
	size_t len, k;
	char *stem;

	base = base ? base + 1 : path;
	stem = xstrdup(base);
	len = strlen(stem);
	ln->kind = LK_UNKNOWN;
	ln->index = 0;
	ln->prefix = stem;
	if (ends_with(stem, ".gz"))
		stem[len -= 3] = '\0';
	if (!ends_with(stem, ".log"))
		return -1;
	stem[len -= 4] = '\0';
	k = len;
	while (k > 0 && stem[k - 1] >= '0' && stem[k - 1] <= '9')
		k--;
	if (k < len && k > 1 && stem[k - 1] == '.' && len - k < 9) {
		ln->index = strtol(stem + k, NULL, 10);
		stem[len = k - 1] = '\0';
	}
	for (k = 0; k < LK_UNKNOWN; k++) {
		size_t n = strlen(kinds[k].suffix);

		if (len > n && ends_with(stem, kinds[k].suffix) &&
		    (k != LK_CLAT || !ends_with(stem, "_clat_hist"))) {
			stem[len - n] = '\0';
			ln->kind = (enum log_kind)k;
			return 0;
		}
	}
	return -1;
}

int fio_log_named(const char *name)
{
	struct log_name ln;
	int r = !log_name_parse(name, &ln);

	log_name_release(&ln);
	return r;
}

/* Is the first line of head numbers separated by ", "? */
static int row_shaped(const char *head, size_t len)
{
	size_t i, commas = 0;

	for (i = 0; i < len && head[i] != '\n'; i++) {
		char c = head[i];

		if (c == ',') {
			if (i + 1 < len && head[i + 1] != ' ')
				return 0;
			commas++;
		} else if (!(c >= '0' && c <= '9') && c != ' ' && c != 'x' &&
			   !(c >= 'a' && c <= 'f') && c != '\r' && c != '.') {
			return 0;
		}
	}
	return commas >= 3 && head[0] >= '0' && head[0] <= '9';
}

static int fio_log_detect(const char *path, const char *head, size_t len)
{
	struct log_name ln;
	int named = !log_name_parse(path, &ln);

	log_name_release(&ln);
	return named && row_shaped(head, len) ? 80 : 0;
}

/* ---- the job names that a JSON beside the logs gives ---- */

void fio_jobs_release(struct fio_jobs *jm)
{
	size_t i;

	for (i = 0; i < jm->nr; i++) {
		free(jm->names[i]);
		free(jm->options[i]);
	}
	free(jm->names);
	free(jm->options);
	memset(jm, 0, sizeof(*jm));
}

/* A job option (its own, else the global one) as a string, or NULL. */
static const char *job_option(json_t *job, json_t *global, const char *key)
{
	json_t *v = json_object_get(json_object_get(job, "job options"), key);

	if (!v)
		v = json_object_get(global, key);
	return json_string_value(v);
}

static long job_numjobs(json_t *job, json_t *global)
{
	const char *s = job_option(job, global, "numjobs");
	long n;

	return s && !str_to_long(s, &n) && n > 0 ? n : 1;
}

/* The jobname of jobs[i], "" if none. */
static const char *jobname_at(json_t *jobs, size_t i)
{
	return json_string_value(json_object_get(json_array_get(jobs, i),
						 "jobname")) ?: "";
}

/*
 * Job i's name as the fio importer gives it (J, or J#i when another job
 * has the name) and its log options, into jm.
 */
static void job_entry_load(struct fio_jobs *jm, json_t *jobs, json_t *global,
			   size_t i)
{
	static const char *const opts[] = {
		"write_bw_log", "write_iops_log", "write_lat_log",
		"write_hist_log", "log_max_value", "log_window_value",
	};
	json_t *job = json_array_get(jobs, i);
	const char *name = jobname_at(jobs, i);
	struct sbuf o = SBUF_INIT;
	int shared = 0;
	size_t j, k;

	for (j = 0; j < jm->nr && !shared; j++)
		shared = j != i && !strcmp(name, jobname_at(jobs, j));
	jm->names[i] = shared ? xstrfmt("%s#%zu", name, i) : xstrdup(name);
	for (k = 0; k < ARRAY_SIZE(opts); k++) {
		const char *v = job_option(job, global, opts[k]);

		if (v)
			sbuf_addf(&o, "%s=%s\n", opts[k], v);
	}
	jm->options[i] = sbuf_detach(&o, NULL);
}

/*
 * numjobs=k: k entries of one name, one a clone, unless merged
 * (group_reporting): is any job fewer entries than its numjobs?
 */
static int jobs_merged(json_t *jobs, json_t *global, size_t nr)
{
	size_t i, k;
	int merged = 0;

	for (i = 0; i < nr; ) {
		long n = job_numjobs(json_array_get(jobs, i), global);
		const char *name = jobname_at(jobs, i);

		for (k = 1; k < (size_t)n && i + k < nr; k++)
			if (strcmp(name, jobname_at(jobs, i + k)))
				break;
		if (k < (size_t)n)
			merged = 1;
		i += k;
	}
	return merged;
}

/* The JSON document in sb, after the lines before its first '{'. */
static json_t *json_doc_load(const struct sbuf *sb)
{
	json_error_t jerr;
	const char *p;

	for (p = sb->buf; *p && *p != '{'; p = strchr(p, '\n') + 1)
		if (!strchr(p, '\n')) {
			p += strlen(p);
			break;
		}
	return json_loadb(p, sb->len - (size_t)(p - sb->buf),
			  JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &jerr);
}

int fio_jobs_load(struct fio_jobs *jm, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	struct input in;
	json_t *doc = NULL, *jobs, *global;
	const char *ver;
	size_t i;
	int ret = -1;

	memset(jm, 0, sizeof(*jm));
	if (input_open(&in, path, -1))
		return -1;
	if (input_read_all(&in, &sb))
		goto out;
	doc = json_doc_load(&sb);
	jobs = json_object_get(doc, "jobs");
	if (!json_is_array(jobs)) {
		error("%s: cannot read the jobs of this fio JSON again", path);
		goto out;
	}
	global = json_object_get(doc, "global options");
	ver = json_string_value(json_object_get(doc, "fio version"));
	jm->fio2 = ver && starts_with(ver, "fio-2.") &&
		   !starts_with(ver, "fio-2.99");
	jm->nr = json_array_size(jobs);
	jm->names = xcalloc(jm->nr ? jm->nr : 1, sizeof(*jm->names));
	jm->options = xcalloc(jm->nr ? jm->nr : 1, sizeof(*jm->options));
	for (i = 0; i < jm->nr; i++)
		job_entry_load(jm, jobs, global, i);
	jm->merged = jobs_merged(jobs, global, jm->nr);
	ret = 0;
out:
	json_decref(doc);
	sbuf_release(&sb);
	input_close(&in);
	return ret;
}

/* ---- one log ---- */

#define MAX_COLS 4096	/* hist logs: 3 + 1856 on fio 3.x */

struct log_state {
	struct import_ctx *ctx;
	const char *path;
	struct log_name ln;
	const struct fio_jobs *jm;	/* borrowed; NULL standalone */
	char *job;			/* owned: J */
	int ncols;			/* of the first row; 0 before it */
	int ddir_col;
	int per_io;
	int fio2;			/* -1: not known yet */
	int64_t id[ARRAY_SIZE(ddir_names)];
	double col[MAX_COLS];
	long rows;
};

/* The name J (see the top comment); warns where it falls back. */
static void choose_job(struct log_state *ls)
{
	const struct fio_jobs *jm = ls->jm;
	const struct log_name *ln = &ls->ln;
	long n = ln->index;

	if (jm && !jm->merged && n >= 1 && (size_t)n <= jm->nr) {
		ls->job = xstrdup(jm->names[n - 1]);
	} else if (jm && !jm->merged && !n && jm->nr == 1) {
		ls->job = xstrdup(jm->names[0]);
	} else {
		if (jm)
			db_warn(ls->ctx, 0, "log %ld has no job of its own "
				"in the JSON's %zu%s: named from the file",
				n, jm->nr, jm->merged ?
				" (group_reporting merged them)" : "");
		ls->job = n > 1 ? xstrfmt("%s#%ld", ln->prefix, n) :
				  xstrdup(ln->prefix);
		return;
	}
	if (ln->kind != LK_UNKNOWN) {
		const char *o = jm->options[n ? n - 1 : 0];
		char *want = xstrfmt("%s=", kinds[ln->kind].option);
		const char *v = strstr(o, want);

		if (v) {
			const char *e = strchr(v, '\n'), *b;

			v += strlen(want);
			for (b = e; b > v && b[-1] != '/'; b--)
				;
			if ((size_t)(e - b) != strlen(ln->prefix) ||
			    strncmp(b, ln->prefix, (size_t)(e - b)))
				db_warn(ls->ctx, 0, "job '%s' wrote its log as "
					"'%.*s', not '%s'", ls->job,
					(int)(e - v), v, ln->prefix);
		}
		free(want);
		if (kinds[ln->kind].latency &&
		    (strstr(o, "log_max_value=1\n") ||
		     strstr(o, "log_window_value=max\n")))
			db_warn(ls->ctx, 0, "job '%s' logs window maxima: "
				"fio.%s.*.%s holds maxima, not means",
				ls->job, ls->job, kinds[ln->kind].metric);
	}
}

/* Split the row into ls->col[]; the count, or -1 after error(). */
static int split_row(struct log_state *ls, char *s, long lineno)
{
	int n = 0;
	char *tok;

	while ((tok = strsep(&s, ","))) {
		double v;

		if (n == MAX_COLS)
			return error("%s:%ld: more than %d columns",
				     ls->path, lineno, MAX_COLS);
		while (*tok == ' ')
			tok++;
		if (n >= 4 && starts_with(tok, "0x") && tok[2]) {
			char *end;

			v = (double)strtoull(tok + 2, &end, 16);
			if (*end && *end != '\r' && *end != ' ')
				goto bad;
		} else if (str_to_double(tok, &v)) {
			goto bad;
		}
		/*
		 * time, value (a bandwidth, a rate, a latency), direction,
		 * block size, offset: none of them is ever negative
		 */
		if (v < 0)
			return error("%s:%ld: a negative value (%g) in column "
				     "%d: fio logs none", ls->path, lineno, v,
				     n + 1);
		ls->col[n++] = v;
		continue;
bad:
		return error("%s:%ld: expected a number in column %d, got "
			     "'%.40s'", ls->path, lineno, n + 1, tok);
	}
	return n;
}

/* Learn the layout from the first row (see the top comment). */
static int first_row(struct log_state *ls, int n, long lineno)
{
	int hist = ls->ln.kind == LK_CLAT_HIST;

	if (n < 4)
		return error("%s:%ld: expected at least 4 columns "
			     "(msec, %s), got %d", ls->path, lineno,
			     hist ? "ddir, bs, bins" : "value, ddir, bs", n);
	ls->ncols = n;
	ls->ddir_col = hist ? 1 : 2;
	if (!hist && ls->col[2] > 2 && n >= 5)
		ls->ddir_col = 3;	/* log_window_value=both */
	ls->per_io = ls->col[ls->ddir_col + 1] != 0;
	if (ls->fio2 < 0)
		ls->fio2 = n == 4 || (n == 5 && ls->ddir_col == 2 &&
				      ls->col[4] != 0 && ls->col[4] != 1);
	return 0;
}

static int log_row(struct log_state *ls, struct sbuf *line, long lineno)
{
	const struct log_kind_info *ki = &kinds[ls->ln.kind];
	double v, t, d;
	int n, i, dd;

	n = split_row(ls, line->buf, lineno);
	if (n < 0)
		return -1;
	if (!ls->ncols && first_row(ls, n, lineno))
		return -1;
	if (n != ls->ncols)
		return error("%s:%ld: expected %d columns as in the first row, "
			     "got %d", ls->path, lineno, ls->ncols, n);
	d = ls->col[ls->ddir_col];
	if (d != 0 && d != 1 && d != 2)
		return error("%s:%ld: expected ddir 0, 1 or 2 in column %d, "
			     "got %.15g", ls->path, lineno, ls->ddir_col + 1,
			     d);
	dd = (int)d;
	t = ls->col[0] / 1000;
	if (ls->ln.kind == LK_CLAT_HIST) {
		for (v = 0, i = 3; i < n; i++)
			v += ls->col[i];
	} else {
		v = ls->col[1] * ki->scale;
		if (ki->latency && ls->fio2)
			v *= 1000;
	}
	if (!ls->id[dd]) {
		struct sbuf name = SBUF_INIT;
		int r;

		sbuf_addf(&name, "fio.%s.%s.%s", ls->job, ddir_names[dd],
			  ls->per_io ? ki->per_io : ki->metric);
		r = db_metric(ls->ctx, name.buf, ki->unit, MK_GAUGE, lineno,
			      &ls->id[dd]);
		sbuf_release(&name);
		if (r)
			return -1;
	}
	ls->rows++;
	return db_emit_series_id(ls->ctx, ls->id[dd], t, v, lineno);
}

int fio_log_read(struct import_ctx *ctx, struct input *in,
		 const struct fio_jobs *jm)
{
	struct log_state *ls = xcalloc(1, sizeof(*ls));
	int ret = -1, r;

	ls->ctx = ctx;
	ls->path = in->path;
	ls->jm = jm;
	ls->fio2 = jm ? jm->fio2 : -1;
	if (log_name_parse(in->path, &ls->ln))
		db_warn(ctx, 0, "the file name does not say which fio log "
			"this is (P_bw.N.log, P_clat.N.log, ...): values kept "
			"as written under fio.%s.DIR.value", ls->ln.prefix);
	choose_job(ls);
	while ((r = input_getline(in)) > 0) {
		if (!ls->rows && !ls->ncols && !jm) {
			struct run_desc rd = {
				.suite = "fio", .testcase = "fio",
				.iteration = -1,
			};
			double ms;

			/* epoch ms; anything out of range is no start */
			if (!str_double(&(const char *){ in->sb.buf }, &ms) &&
			    ms > 1e12 && ms < 1e18)
				rd.start_time = (int64_t)(ms / 1000);
			if (db_emit_run(ctx, &rd, in->line))
				goto out;
		}
		if (log_row(ls, &in->sb, in->line))
			goto out;
	}
	if (r < 0)
		goto out;
	/* standalone, the driver refuses a file without data */
	if (!ls->rows && jm)
		db_warn(ctx, 0, "no rows: fio logged nothing here");
	ret = 0;
out:
	log_name_release(&ls->ln);
	free(ls->job);
	free(ls);
	return ret;
}

static int fio_log_parse(struct import_ctx *ctx, struct input *in)
{
	return fio_log_read(ctx, in, NULL);
}

const struct importer importer_fio_log = {
	.name = "fio-log",
	.family = "fio",
	.what = "fio's --write_{bw,iops,lat,hist}_log files "
		"(P_bw.N.log, P_clat.N.log, ...) as series",
	.flags = IMP_FILES | IMP_SERIES,
	.detect = fio_log_detect,
	.parse = fio_log_parse,
};
