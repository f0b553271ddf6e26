/*
 * The fio importer's jobs: each element of "jobs" checked (types, and no
 * negative quantities), summed into the totals in job order, and what
 * the samples need of it kept as a record (fio-spill.c); and the other
 * top-level members of a document, which the reader (fio-read.c) hands
 * over as it meets them.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "fio-int.h"

const char *const dir_names[NR_DIRS] = {
	"read", "write", "trim", "mixed",
};

const char *const lat_names[NR_LATS] = { "slat", "clat", "lat" };

const struct job_field job_fields[NR_JOB_FIELDS] = {
	{ "usr_cpu", "%" },
	{ "sys_cpu", "%" },
	{ "ctx", NULL },
	{ "majf", NULL },
	{ "minf", NULL },
};

/* fio's latency bucket objects and the unit their keys are in. */
static const struct {
	const char *key, *unit;
} lat_buckets[] = {
	{ "latency_ns", "ns" },
	{ "latency_us", "us" },
	{ "latency_ms", "ms" },
};

/* ---- one job, while its element is parsed ---- */

/* One latency object (slat/clat/lat) of one direction, in ns. */
struct lat_stat {
	int measured;		/* N > 0 or mean > 0 */
	double mean_ns, stddev_ns;
	double scale;		/* ns per unit of the file: 1 or 1000 */
	const struct fj_node *pct;	/* "percentile" object, or NULL */
	const struct fj_node *bins;	/* json+ "bins" object, or NULL */
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

void fhist_release(struct fhist *h)
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

void totals_release(struct totals *t)
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

/* The directions of a job, checked; their json+ bins into st->hist. */
static int dirs_load(struct fio_state *st, struct dir_stat ds[NR_DIRS],
		     const struct fj_node *job, size_t j)
{
	int dir, k;

	for (dir = 0; dir < NR_DIRS; dir++)
		if (dir_load(st, &ds[dir], job, j, dir))
			return -1;
	for (dir = 0; dir < NR_DIRS; dir++)
		for (k = 0; k < NR_LATS; k++)
			if (ds[dir].present && ds[dir].lat[k].bins)
				fhist_add(&st->hist[dir][k], &st->job,
					  ds[dir].lat[k].bins,
					  ds[dir].lat[k].scale, st->line0);
	return 0;
}

/*
 * The job's directions into the totals of both units of io_bytes, its
 * weight (I/Os) into jw; those that did I/O into st->dirs, counted in
 * jr->nr_dirs.
 */
static void dirs_sum(struct fio_state *st, const struct dir_stat ds[NR_DIRS],
		     double jw[2], struct job_rec *jr)
{
	int dir, b;

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
			dir_keep(st, d, dir, w, jr->nr_dirs++);
	}
}

/* The latency buckets are shares of the job's I/Os: its weight jw. */
static void buckets_add(struct fio_state *st, const struct fj_node *job,
			const double jw[2])
{
	const struct fj *jd = &st->job;
	size_t i;
	int b;

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
}

/* The numbers of job_fields[] that the job has, into jr. */
static void fields_keep(const struct fj *jd, const struct fj_node *job,
			struct job_rec *jr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(job_fields); i++) {
		const struct fj_node *v = fj_get(jd, job, job_fields[i].key);

		if (fj_is(v, FJ_NUMBER)) {
			jr->fields |= 1u << i;
			jr->field[i] = fj_num(v);
		}
	}
}

/* The job's name and record, its directions and their percentiles. */
static void job_spill(struct fio_state *st, const char *name,
		      const struct job_rec *jr)
{
	size_t i, p;
	int k;

	sbuf_add(&st->jobnames, name, strlen(name) + 1);
	spill_add(&st->spill, jr, sizeof(*jr));
	for (i = p = 0; i < jr->nr_dirs; i++) {
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

void fio_job_add(struct fio_state *st, const struct fj_node *job, size_t j)
{
	const struct fj *jd = &st->job;
	const char *name = fj_str(jd, fj_get(jd, job, "jobname"));
	struct dir_stat ds[NR_DIRS];
	struct job_rec jr;
	double jw[2] = { 0, 0 };

	st->nr_jobs = j + 1;
	if (st->job_failed)
		return;		/* the rest is only checked for syntax */
	if (!fj_is(job, FJ_OBJECT) || !name) {
		job_fail(st, j, "jobs[%zu] is not a job: no \"jobname\"", j);
		return;
	}
	if (dirs_load(st, ds, job, j))
		return;
	memset(&jr, 0, sizeof(jr));
	st->nr_pct = 0;
	dirs_sum(st, ds, jw, &jr);
	buckets_add(st, job, jw);
	fields_keep(jd, job, &jr);
	params_add(st, job);
	job_spill(st, name, &jr);
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
int fio_job_read(struct fio_state *st, struct job_rec *jr, int pct)
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
void fio_reset_jobs(struct fio_state *st, int kind)
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
void fio_member_take(struct fio_state *st, const char *key)
{
	const struct fj *d = &st->member;
	const struct fj_node *v = fj_root(d);

	if (!strcmp(key, "jobs")) {
		fio_reset_jobs(st, JOBS_OTHER);
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

/* fio_member_take() of a jansson value (borrowed). */
void fio_member_take_json(struct fio_state *st, const char *key,
			  const json_t *value)
{
	fj_from_json(&st->member, value);
	fio_member_take(st, key);
}
