/*
 * The fio importer: reads `fio --output-format=json` output (fio 2.x in
 * microseconds, fio 3.x in nanoseconds) and emits one run per file with
 * lkp's fio.* totals over all jobs, per-job metrics, and as run params
 * the job options that every job shares.
 */
#include "core/compat.h"
#include <jansson.h>
#include "core/sbuf.h"
#include "core/strparse.h"
#include "importer.h"

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
 * --output-format=json,normal writes a normal header first).  The first
 * top-level object is imported; what follows it is ignored (the normal
 * report of json,normal; later objects of --status-interval output, which
 * get a warning).
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

/* Job options that name files or logs: never run params. */
static const char *const param_skip[] = {
	"directory", "filename", "filename_format", "log_avg_msec", "name",
	"opendir", "output", "per_job_logs", "write_bw_log",
	"write_hist_log", "write_iops_log", "write_lat_log",
};

/* fio's latency bucket objects and the unit their keys are in. */
static const struct {
	const char *key, *unit;
} lat_buckets[] = {
	{ "latency_ns", "ns" },
	{ "latency_us", "us" },
	{ "latency_ms", "ms" },
};

/* One latency object (slat/clat/lat) of one direction, in ns. */
struct lat_stat {
	int measured;		/* N > 0 or mean > 0 */
	double mean_ns, stddev_ns;
	double scale;		/* ns per unit of the file: 1 or 1000 */
	const json_t *pct;	/* borrowed "percentile" object, or NULL */
};

/* One direction object of one job. */
struct dir_stat {
	int present;		/* the job has this direction */
	int have_ios;		/* fio printed total_ios (not fio 2.1) */
	double ios;		/* total_ios */
	double weight;		/* total_ios, or io KiB without total_ios */
	double bw_kibs, iops, runtime_ms, io_kib;
	struct lat_stat lat[NR_LATS];
};

/* A weighted mean built one value at a time. */
struct wmean {
	double w, mean;
};

/* Named weighted means: percentiles and latency buckets over jobs. */
struct acc {
	char *name;		/* owned, metric name without "fio." */
	struct wmean m;
};

struct acc_list {
	struct acc *v;		/* owned */
	size_t nr, alloc;
};

struct fio_state {
	struct import_ctx *ctx;		/* borrowed */
	const char *path;		/* borrowed, for messages */
	long line0;			/* line of the object's '{' */
	long ver_major, ver_minor;	/* -1 if "fio version" is unknown */
	const json_t *jobs;		/* borrowed "jobs" array */
	size_t nr_jobs;
	long *job_line;			/* owned, [nr_jobs] */
	struct dir_stat (*ds)[NR_DIRS];	/* owned, [nr_jobs][NR_DIRS] */
	struct sbuf name;		/* scratch metric name */
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

static void acc_add(struct acc_list *l, const char *name, double value,
		    double w)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (!strcmp(l->v[i].name, name))
			break;
	if (i == l->nr) {
		ALLOC_GROW(l->v, l->nr + 1, l->alloc);
		l->v[i].name = xstrdup(name);
		l->v[i].m.w = 0;
		l->v[i].m.mean = 0;
		l->nr++;
	}
	wmean_add(&l->v[i].m, value, w);
}

static void acc_release(struct acc_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

/* A number member, or 0 when absent or not a number. */
static double num(const json_t *obj, const char *key)
{
	return json_number_value(json_object_get(obj, key));
}

static int has_num(const json_t *obj, const char *key)
{
	return json_is_number(json_object_get(obj, key));
}

__attribute__((format(printf, 5, 6)))
static int emitf(struct fio_state *st, const char *unit, double value,
		 long line, const char *fmt, ...)
{
	va_list ap;

	sbuf_reset(&st->name);
	sbuf_addstr(&st->name, "fio.");
	va_start(ap, fmt);
	sbuf_vaddf(&st->name, fmt, ap);
	va_end(ap);
	return db_emit_sample(st->ctx, st->name.buf, unit, value, line);
}

/*
 * Append the percentile key ("99.950000") as "%g" would print it
 * ("99.95"), with more digits only if %g would round it to another
 * number.  Returns -1 if the key is not a number.
 */
static int add_pct(struct sbuf *sb, const char *key)
{
	char buf[64];
	double p;
	int prec;

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
 * Call fn for each real percentile of a percentile object, with the "P"
 * part of the metric name and the value in ns.  Keys that are not numbers
 * are skipped, with a warning if warn is set (each map is read twice:
 * for the totals and for the job).
 */
static int pct_foreach(struct fio_state *st, const struct lat_stat *ls,
		       long line, int warn,
		       int (*fn)(struct fio_state *, const char *, double,
				 void *),
		       void *data)
{
	struct sbuf p = SBUF_INIT;
	const char *key;
	json_t *v;
	int ret = 0;

	json_object_foreach((json_t *)ls->pct, key, v) {
		/* fio 2.x pads the map with duplicate "0.00": 0 slots */
		if (!strcmp(key, "0.00"))
			continue;
		sbuf_reset(&p);
		if (!json_is_number(v) || add_pct(&p, key)) {
			if (warn)
				warning("%s:%ld: ignoring percentile '%s'",
					st->path, line, key);
			continue;
		}
		ret = fn(st, p.buf, json_number_value(v) * ls->scale, data);
		if (ret)
			break;
	}
	sbuf_release(&p);
	return ret;
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
	long line;
	size_t job;
	const char *dir;	/* "read" */
	char sub[16];		/* "clat_ns", or "" */
};

static int bad_value(const struct where *w, const char *key, const char *what,
		     const json_t *v)
{
	const char *got = json_is_string(v) ? "a string" :
			  json_is_object(v) ? "an object" :
			  json_is_array(v) ? "an array" :
			  json_is_boolean(v) ? "a boolean" :
			  json_is_null(v) ? "null" : "a negative number";

	return error("%s:%ld: jobs[%zu].%s%s%s.%s: expected %s, got %s",
		     w->st->path, w->line, w->job, w->dir, *w->sub ? "." : "",
		     w->sub, key, what, got);
}

/* A member that must be a number >= 0 if present (absent: 0). */
static int get_count(const struct where *w, const json_t *obj,
		     const char *key, double *out)
{
	const json_t *v = json_object_get(obj, key);

	*out = 0;
	if (!v)
		return 0;
	if (!json_is_number(v) || json_number_value(v) < 0)
		return bad_value(w, key, "a number >= 0", v);
	*out = json_number_value(v);
	return 0;
}

static int lat_load(struct where *w, struct lat_stat *ls, const json_t *dir,
		    int kind)
{
	const json_t *o, *v;
	char key[16];
	double n;
	const char *pk;

	memset(ls, 0, sizeof(*ls));
	snprintf(key, sizeof(key), "%s_ns", lat_names[kind]);
	ls->scale = 1;
	o = json_object_get(dir, key);
	snprintf(w->sub, sizeof(w->sub), "%s", key);
	if (!o) {
		o = json_object_get(dir, lat_names[kind]);
		ls->scale = 1000;
		snprintf(w->sub, sizeof(w->sub), "%s", lat_names[kind]);
	}
	if (!o)
		return 0;
	if (!json_is_object(o))
		return error("%s:%ld: jobs[%zu].%s.%s: expected an object",
			     w->st->path, w->line, w->job, w->dir, w->sub);
	if (get_count(w, o, "mean", &ls->mean_ns) ||
	    get_count(w, o, "stddev", &ls->stddev_ns) ||
	    get_count(w, o, "N", &n))
		return -1;
	ls->mean_ns *= ls->scale;
	ls->stddev_ns *= ls->scale;
	ls->measured = n > 0 || ls->mean_ns > 0;
	ls->pct = json_object_get(o, "percentile");
	if (ls->pct && !json_is_object(ls->pct))
		return bad_value(w, "percentile", "an object", ls->pct);
	if (ls->pct)
		json_object_foreach((json_t *)ls->pct, pk, v)
			if (!json_is_number(v) || json_number_value(v) < 0)
				return bad_value(w, "percentile", "numbers >= 0",
						 v);
	w->sub[0] = '\0';
	return 0;
}

/* io_kbytes, or io_bytes in the unit of the fio version that wrote it. */
static int io_kib(const struct where *w, const json_t *dir, double *out)
{
	const struct fio_state *st = w->st;

	if (json_object_get(dir, "io_kbytes"))
		return get_count(w, dir, "io_kbytes", out);
	if (get_count(w, dir, "io_bytes", out))
		return -1;
	/* io_bytes was KiB "since the dawn of time" until fio-2.21 */
	if (st->ver_major > 2 || (st->ver_major == 2 && st->ver_minor >= 21))
		*out /= 1024;
	return 0;
}

static int dir_load(struct fio_state *st, struct dir_stat *d,
		    const json_t *job, size_t j, int dir)
{
	const json_t *o = json_object_get(job, dir_names[dir]);
	struct where w = { st, st->job_line[j], j, dir_names[dir], "" };
	int k;

	memset(d, 0, sizeof(*d));
	if (!o)
		return 0;
	if (!json_is_object(o))
		return error("%s:%ld: jobs[%zu].%s: expected an object",
			     st->path, w.line, j, dir_names[dir]);
	/* with unified_rw_reporting=both "mixed" repeats read+write+trim */
	if (dir == DIR_MIXED && json_object_get(job, "read"))
		return 0;
	d->present = 1;
	d->have_ios = json_object_get(o, "total_ios") != NULL;
	if (get_count(&w, o, "bw", &d->bw_kibs) ||
	    get_count(&w, o, "iops", &d->iops) ||
	    get_count(&w, o, "runtime", &d->runtime_ms) ||
	    io_kib(&w, o, &d->io_kib) ||
	    get_count(&w, o, "total_ios", &d->ios))
		return -1;
	d->weight = d->have_ios ? d->ios : d->io_kib;
	for (k = 0; k < NR_LATS; k++)
		if (lat_load(&w, &d->lat[k], o, k))
			return -1;
	return 0;
}

/* ---- totals ---- */

/*
 * Mean and pooled stddev of one latency type over the jobs that did I/O
 * in dir and measured it.  Returns 0 if none did.
 */
static int lat_pool(const struct fio_state *st, int dir, int kind,
		    double *mean, double *stddev)
{
	struct wmean m = { 0, 0 }, var = { 0, 0 };
	size_t j;

	for (j = 0; j < st->nr_jobs; j++) {
		const struct dir_stat *d = &st->ds[j][dir];

		if (d->weight > 0 && d->lat[kind].measured)
			wmean_add(&m, d->lat[kind].mean_ns, d->weight);
	}
	if (!(m.w > 0))
		return 0;
	for (j = 0; j < st->nr_jobs; j++) {
		const struct dir_stat *d = &st->ds[j][dir];
		double sd = d->lat[kind].stddev_ns;
		double dm = d->lat[kind].mean_ns - m.mean;

		if (d->weight > 0 && d->lat[kind].measured)
			wmean_add(&var, sd * sd + dm * dm, d->weight);
	}
	*mean = m.mean;
	*stddev = sqrt(var.mean);
	return 1;
}

/* Collects one job's percentiles into an acc_list with that job's weight. */
struct pct_collect {
	struct acc_list *l;
	double w;
};

static int pct_collect_one(struct fio_state *st UNUSED, const char *p,
			   double v, void *data)
{
	struct pct_collect *pc = data;

	acc_add(pc->l, p, v, pc->w);
	return 0;
}

static int emit_dir_totals(struct fio_state *st, int dir)
{
	const char *dn = dir_names[dir];
	double bw = 0, iops = 0, weight = 0, runtime = 0, io = 0;
	int present = 0, k;
	size_t j, i;

	for (j = 0; j < st->nr_jobs; j++) {
		const struct dir_stat *d = &st->ds[j][dir];

		if (!d->present)
			continue;
		present = 1;
		bw += d->bw_kibs;
		iops += d->iops;
		weight += d->weight;
		io += d->io_kib;
		if (d->runtime_ms > runtime)
			runtime = d->runtime_ms;
	}
	if (!present)
		return 0;
	/* trim and mixed only when they had I/O; read/write always */
	if ((dir == DIR_TRIM || dir == DIR_MIXED) && !(weight > 0))
		return 0;
	if (emitf(st, "MB/s", bw / 1024, st->line0, "%s_bw_MBps", dn) ||
	    emitf(st, "IO/s", iops, st->line0, "%s_iops", dn))
		return -1;
	if (!(weight > 0))
		return 0;	/* no I/O: no latency, runtime or volume */

	for (k = 0; k < NR_LATS; k++) {
		struct acc_list pl = { NULL, 0, 0 };
		double mean, sd;
		int ret = 0;

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
		for (j = 0; j < st->nr_jobs; j++) {
			const struct dir_stat *d = &st->ds[j][dir];
			struct pct_collect pc = { &pl, d->weight };

			if (d->weight > 0 && d->lat[k].measured &&
			    d->lat[k].pct &&
			    pct_foreach(st, &d->lat[k], st->job_line[j], 0,
					pct_collect_one, &pc))
				ret = -1;
		}
		for (i = 0; !ret && i < pl.nr; i++)
			ret = emitf(st, "ns", pl.v[i].m.mean, st->line0,
				    "%s_%s_%s%%_ns", dn, lat_names[k],
				    pl.v[i].name);
		acc_release(&pl);
		if (ret)
			return -1;
	}
	if (emitf(st, "ms", runtime, st->line0, "%s_runtime_ms", dn) ||
	    emitf(st, "MiB", io / 1024, st->line0, "%s_io_MiB", dn))
		return -1;
	return 0;
}

/* Σ weight of a job over its directions: its share of the buckets. */
static double job_weight(const struct fio_state *st, size_t j)
{
	double w = 0;
	int dir;

	for (dir = 0; dir < NR_DIRS; dir++)
		if (st->ds[j][dir].present)
			w += st->ds[j][dir].weight;
	return w;
}

static int emit_buckets(struct fio_state *st)
{
	struct acc_list l = { NULL, 0, 0 };
	struct sbuf name = SBUF_INIT;
	size_t j, i, b;
	int ret = 0;

	for (j = 0; j < st->nr_jobs; j++) {
		const json_t *job = json_array_get(st->jobs, j);
		double w = job_weight(st, j);

		for (b = 0; b < ARRAY_SIZE(lat_buckets); b++) {
			const json_t *o = json_object_get(job,
							  lat_buckets[b].key);
			const char *key;
			json_t *v;

			if (!json_is_object(o))
				continue;
			json_object_foreach((json_t *)o, key, v) {
				if (!json_is_number(v))
					continue;
				sbuf_reset(&name);
				sbuf_addf(&name, "latency_%s%s%%", key,
					  lat_buckets[b].unit);
				acc_add(&l, name.buf, json_number_value(v), w);
			}
		}
	}
	/* weight 0: no job did I/O, and a distribution of nothing is not 0 */
	for (i = 0; !ret && i < l.nr; i++)
		if (l.v[i].m.w > 0)
			ret = emitf(st, "%", l.v[i].m.mean, st->line0, "%s",
				    l.v[i].name);
	acc_release(&l);
	sbuf_release(&name);
	return ret;
}

static int emit_totals(struct fio_state *st)
{
	double workload = 0;
	int have_ios = 1, dir;
	size_t j;

	for (dir = 0; dir < NR_DIRS; dir++)
		if (emit_dir_totals(st, dir))
			return -1;
	if (emit_buckets(st))
		return -1;
	for (j = 0; j < st->nr_jobs; j++)
		for (dir = 0; dir < NR_DIRS; dir++) {
			const struct dir_stat *d = &st->ds[j][dir];

			if (!d->present)
				continue;
			if (!d->have_ios)
				have_ios = 0;
			workload += d->ios;
		}
	if (have_ios &&
	    emitf(st, "ios", workload, st->line0, "workload"))
		return -1;
	return 0;
}

/* ---- per job ---- */

struct job_pct {
	const char *job, *dir, *lat;	/* borrowed */
	long line;
};

static int emit_job_pct(struct fio_state *st, const char *p, double v,
			void *data)
{
	const struct job_pct *jp = data;

	return emitf(st, "ns", v, jp->line, "%s.%s.%s_%s%%_ns", jp->job,
		     jp->dir, jp->lat, p);
}

static int emit_job_dir(struct fio_state *st, const char *job, long line,
			const struct dir_stat *d, const char *dn)
{
	int k;

	if (emitf(st, "MB/s", d->bw_kibs / 1024, line, "%s.%s.bw_MBps", job,
		  dn) ||
	    emitf(st, "IO/s", d->iops, line, "%s.%s.iops", job, dn))
		return -1;
	for (k = 0; k < NR_LATS; k++) {
		const struct lat_stat *ls = &d->lat[k];
		struct job_pct jp = { job, dn, lat_names[k], line };

		if (!ls->measured)
			continue;
		if (emitf(st, "ns", ls->mean_ns, line, "%s.%s.%s_mean_ns",
			  job, dn, lat_names[k]))
			return -1;
		if (k == LAT_C &&
		    emitf(st, "ns", ls->stddev_ns, line, "%s.%s.clat_stddev",
			  job, dn))
			return -1;
		if (ls->pct &&
		    pct_foreach(st, ls, line, 1, emit_job_pct, &jp))
			return -1;
	}
	if (emitf(st, "ms", d->runtime_ms, line, "%s.%s.runtime_ms", job,
		  dn) ||
	    emitf(st, "MiB", d->io_kib / 1024, line, "%s.%s.io_MiB", job, dn))
		return -1;
	if (d->have_ios &&
	    emitf(st, "ios", d->ios, line, "%s.%s.ios", job, dn))
		return -1;
	return 0;
}

static const struct {
	const char *key, *unit;
} job_fields[] = {
	{ "usr_cpu", "%" },
	{ "sys_cpu", "%" },
	{ "ctx", NULL },
	{ "majf", NULL },
	{ "minf", NULL },
};

static const char *jobname(const struct fio_state *st, size_t j)
{
	return json_string_value(json_object_get(json_array_get(st->jobs, j),
						 "jobname"));
}

static int emit_jobs(struct fio_state *st)
{
	struct sbuf job = SBUF_INIT;
	const char **names;	/* borrowed from the JSON */
	size_t j, i;
	int ret = 0, dir;

	names = xcalloc(st->nr_jobs, sizeof(*names));
	for (j = 0; j < st->nr_jobs; j++)
		names[j] = jobname(st, j);
	for (j = 0; !ret && j < st->nr_jobs; j++) {
		const json_t *o = json_array_get(st->jobs, j);
		long line = st->job_line[j];
		int shared = 0;

		for (i = 0; i < st->nr_jobs && !shared; i++)
			shared = i != j && !strcmp(names[j], names[i]);
		sbuf_reset(&job);
		sbuf_addstr(&job, names[j]);
		if (shared)
			sbuf_addf(&job, "#%zu", j);

		for (dir = 0; !ret && dir < NR_DIRS; dir++) {
			const struct dir_stat *d = &st->ds[j][dir];

			if (d->present && d->weight > 0)
				ret = emit_job_dir(st, job.buf, line, d,
						   dir_names[dir]);
		}
		for (i = 0; !ret && i < ARRAY_SIZE(job_fields); i++)
			if (has_num(o, job_fields[i].key))
				ret = emitf(st, job_fields[i].unit,
					    num(o, job_fields[i].key), line,
					    "%s.%s", job.buf,
					    job_fields[i].key);
	}
	free(names);
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

/* The option as job j sees it: its own value, else the global one. */
static const char *job_option(const json_t *global, const json_t *job,
			      const char *key)
{
	const char *v;

	v = json_string_value(json_object_get(
		json_object_get(job, "job options"), key));
	return v ? v : json_string_value(json_object_get(global, key));
}

/* Append to *kv the params of key if every job agrees on its value. */
static void param_consider(const struct fio_state *st, const json_t *global,
			   const char *key, struct kv **kv, size_t *nr,
			   size_t *alloc)
{
	const char *value = NULL;
	size_t j;

	if (param_skipped(key))
		return;
	for (j = 0; j < *nr; j++)
		if (!strcmp((*kv)[j].key, key))
			return;		/* already in */
	for (j = 0; j < st->nr_jobs; j++) {
		const char *v = job_option(global,
					   json_array_get(st->jobs, j), key);

		if (!v || (value && strcmp(v, value)))
			return;
		value = v;
	}
	if (!value)
		return;
	ALLOC_GROW(*kv, *nr + 1, *alloc);
	(*kv)[*nr].key = key;
	(*kv)[*nr].value = value;
	(*nr)++;
}

static int emit_run(struct fio_state *st, const json_t *root)
{
	const json_t *global = json_object_get(root, "global options");
	struct run_desc rd;
	struct kv *kv = NULL;
	size_t nr = 0, alloc = 0, j;
	double ts;
	const char *key;
	json_t *v;
	int ret;

	/* keys borrowed from root, which outlives the run */
	if (json_is_object(global))
		json_object_foreach((json_t *)global, key, v)
			param_consider(st, global, key, &kv, &nr, &alloc);
	for (j = 0; j < st->nr_jobs; j++) {
		const json_t *opts = json_object_get(
			json_array_get(st->jobs, j), "job options");

		if (json_is_object(opts))
			json_object_foreach((json_t *)opts, key, v)
				param_consider(st, global, key, &kv, &nr,
					       &alloc);
	}

	memset(&rd, 0, sizeof(rd));
	rd.suite = "fio";
	rd.testcase = "fio";
	rd.params = kv;
	rd.nr_params = nr;
	rd.iteration = -1;
	/* epoch seconds; a value out of range is no start time (and no UB) */
	ts = num(root, "timestamp");
	rd.start_time = ts > 0 && ts < 1e15 ? (int64_t)ts : 0;
	ret = db_emit_run(st->ctx, &rd, st->line0);
	free(kv);
	return ret;
}

/* ---- reading the file ---- */

static void parse_version(struct fio_state *st, const json_t *root)
{
	const char *p = json_string_value(json_object_get(root,
							  "fio version"));
	long major, minor;

	st->ver_major = st->ver_minor = -1;
	if (!p || str_expect_lit(&p, "fio-") || str_long(&p, &major) ||
	    str_expect(&p, '.') || str_long(&p, &minor))
		return;
	st->ver_major = major;
	st->ver_minor = minor;
}

/*
 * The line of each job's "jobname" key, found in the text of the object
 * (jansson keeps no positions).  If the count does not match the jobs,
 * every job gets the line of the '{'.
 */
static void find_job_lines(struct fio_state *st, const char *text,
			   size_t len)
{
	static const char pat[] = "\"jobname\"";
	size_t i, n = 0;
	long line = st->line0;

	st->job_line = xcalloc(st->nr_jobs, sizeof(*st->job_line));
	for (i = 0; i < len; i++) {
		if (text[i] == '\n') {
			line++;
		} else if (text[i] == '"' && len - i >= sizeof(pat) - 1 &&
			   !memcmp(text + i, pat, sizeof(pat) - 1)) {
			size_t k = i + sizeof(pat) - 1;

			while (k < len && (text[k] == ' ' || text[k] == '\t'))
				k++;
			if (k < len && text[k] == ':') {
				if (n < st->nr_jobs)
					st->job_line[n] = line;
				n++;
			}
			i += sizeof(pat) - 2;
		}
	}
	if (n != st->nr_jobs)
		for (i = 0; i < st->nr_jobs; i++)
			st->job_line[i] = st->line0;
}

/*
 * Where the JSON starts: the offset of the first line that starts with
 * '{' and the number of lines before it.  Returns -1 if there is none.
 */
static int find_json_start(const char *buf, size_t len, size_t *off,
			   long *skipped)
{
	size_t pos = 0;
	long n = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		if (buf[pos] == '{') {
			*off = pos;
			*skipped = n;
			return 0;
		}
		if (!nl)
			break;
		pos = nl - buf + 1;
		n++;
	}
	return -1;
}

/* Does another line starting with '{' follow the object? */
static long next_object_line(const char *buf, size_t len, long line)
{
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		if (pos && buf[pos - 1] == '\n' && buf[pos] == '{')
			return line;
		if (!nl)
			break;
		pos = nl - buf + 1;
		line++;
	}
	return 0;
}

static long count_lines(const char *buf, size_t len)
{
	long n = 0;
	size_t i;

	for (i = 0; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

int fio_detect(const char *path UNUSED, const char *head, size_t len UNUSED)
{
	if (strstr(head, "\"fio version\""))
		return 90;
	if (strstr(head, "\"jobname\"") && strstr(head, "\"jobs\""))
		return 40;
	return 0;
}

int fio_parse(struct import_ctx *ctx, struct input *in)
{
	struct sbuf sb = SBUF_INIT;
	struct fio_state st;
	json_error_t jerr;
	json_t *root = NULL;
	size_t off, j, used;
	long skipped, next;
	int ret = -1, dir;

	memset(&st, 0, sizeof(st));
	st.ctx = ctx;
	st.path = in->path;
	sbuf_init(&st.name, 128);

	if (input_read_all(in, &sb))
		goto out;
	if (!sb.len) {
		error("%s: empty file, expected fio JSON output", in->path);
		goto out;
	}
	if (find_json_start(sb.buf, sb.len, &off, &skipped)) {
		error("%s: not fio JSON output: no line starts with '{'",
		      in->path);
		goto out;
	}
	st.line0 = skipped + 1;
	if (skipped)
		warning("%s:1: skipped %ld line%s before the JSON", in->path,
			skipped, skipped == 1 ? "" : "s");

	root = json_loadb(sb.buf + off, sb.len - off,
			  JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root) {
		error("%s:%ld: truncated or invalid JSON: %s", in->path,
		      skipped + (jerr.line > 0 ? jerr.line : 1), jerr.text);
		goto out;
	}
	st.jobs = json_object_get(root, "jobs");
	if (!json_is_object(root) || !json_is_array(st.jobs)) {
		error("%s:%ld: not fio JSON output: no \"jobs\" array",
		      in->path, st.line0);
		goto out;
	}
	st.nr_jobs = json_array_size(st.jobs);
	if (!st.nr_jobs) {
		error("%s:%ld: fio JSON output without any job", in->path,
		      st.line0);
		goto out;
	}
	used = jerr.position > 0 ? (size_t)jerr.position : 0;
	if (used > sb.len - off)
		used = sb.len - off;
	next = next_object_line(sb.buf + off + used, sb.len - off - used,
				st.line0 + count_lines(sb.buf + off, used));
	if (next)
		warning("%s:%ld: more JSON objects follow (--status-interval?);"
			" only the first was imported", in->path, next);

	parse_version(&st, root);
	find_job_lines(&st, sb.buf + off, used);
	st.ds = xcalloc(st.nr_jobs, sizeof(*st.ds));
	for (j = 0; j < st.nr_jobs; j++) {
		const json_t *job = json_array_get(st.jobs, j);

		if (!json_is_object(job) || !jobname(&st, j)) {
			error("%s:%ld: jobs[%zu] is not a job: no \"jobname\"",
			      in->path, st.job_line[j], j);
			goto out;
		}
		for (dir = 0; dir < NR_DIRS; dir++)
			if (dir_load(&st, &st.ds[j][dir], job, j, dir))
				goto out;
	}

	if (emit_run(&st, root) || emit_totals(&st) || emit_jobs(&st))
		goto out;
	ret = 0;
out:
	json_decref(root);
	free(st.job_line);
	free(st.ds);
	sbuf_release(&st.name);
	sbuf_release(&sb);
	return ret;
}
