/*
 * The fio importer's output: the run and its params, the totals over
 * the jobs, each job's samples, the json+ histograms; held as pending
 * values while a --status-interval document may be a snapshot.
 */
#include "core/compat.h"
#include "fio-int.h"

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

/* One value of a document, held (see fio_state.pend). */
struct pending {
	size_t name;			/* offset in pend_names */
	const char *unit;		/* a string literal, or NULL */
	double value;
	long line;
};

/*
 * The names are made of strings only: fmt holds "%s" and "%%" and
 * nothing else, appended here without the cost of vsnprintf()'s
 * format machinery (a name for every sample, a few per job).
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
int fio_pending_samples(struct fio_state *st)
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
int fio_pending_series(struct fio_state *st, double t)
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
int fio_pool_variances(struct fio_state *st)
{
	const struct totals *t = &st->tot[st->bytes];
	struct job_rec jr;
	size_t j, i;
	int k;

	spill_rewind(&st->spill);
	for (j = 0; j < st->nr_jobs; j++) {
		if (fio_job_read(st, &jr, 0))
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

int fio_emit_totals(struct fio_state *st)
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

int fio_emit_jobs(struct fio_state *st)
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
		ret = fio_job_read(st, &jr, 1);
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

/* Epoch seconds past any start time (and within int64_t). */
#define EPOCH_MAX_S 1e15

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

int fio_emit_run(struct fio_state *st)
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
	rd.start_time = st->timestamp > 0 && st->timestamp < EPOCH_MAX_S ?
			(int64_t)st->timestamp : 0;
	ret = db_emit_run(st->ctx, &rd, st->line0);
	free(kv);
	return ret;
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
int fio_emit_histograms(struct fio_state *st)
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
