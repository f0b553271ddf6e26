/*
 * The fio-terse importer: `fio --minimal` / `--output-format=terse`
 * lines (--terse-version 2, 3 (the default), 4, 5), one per job, or per
 * group with group_reporting.  Each line becomes the job object fio's
 * JSON would print, handed to the JSON importer's own code (fio.h): the
 * same metric names, units, totals and checks as fio JSON.
 *
 * How the format was worked out: research/fio-procfs.md §1.4 (fio's
 * stat.c show_thread_status_terse_all()), checked field by field
 * against the real v3 and v5 lines of samples/fio and against the JSON
 * of the same runs (tests/t2150: one fio run written as json, terse and
 * normal at once).
 *
 * A line: general fields (v2: 2;jobname;groupid;error; v3+:
 * V;fio-version;jobname;groupid;error), then per direction (read,
 * write, and trim in v2, v4 and v5) io KiB; bw KiB/s; iops; runtime ms;
 * slat min;max;mean;dev; clat min;max;mean;dev (us); 20 percentiles
 * "P%=us" ("0%=0" unused); lat min;max;mean;dev; bw min;max;agg%;mean;
 * dev; v5 adds bw samples and iops min;max;mean;dev;samples.  Then
 * usr%;sys%;ctx;majf;minf, 7 I/O depths, 10 us latency buckets, 12 ms
 * buckets, and disk utilisation (9 fields a disk, not read), errors,
 * description.
 *
 * What the form does not print, and so the run lacks or approximates:
 * - latencies are in us (the JSON's ns / 1000): stored in ns, x 1000;
 * - iops is an integer, total_ios is not printed: total_ios is taken as
 *   iops x runtime / 1000, rounded, which fio's JSON gives within one
 *   second's I/Os; the N of each latency is that count;
 * - the latency buckets below 2 us: the terse "<=2" us bucket holds the
 *   ns buckets too, a share JSON has no name for: neither it nor any
 *   fio.latency_*ns% is kept (the other buckets are JSON's);
 * - job options: none, so no run params (a terse run is its own
 *   variant unless --label and --param say otherwise).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "fio.h"

#define TERSE_MAX_FIELDS 4096
/* The terse versions there are (--terse-version). */
#define TERSE_VERSION_MIN 2
#define TERSE_VERSION_MAX 5
/*
 * Fields of a direction: its clat percentiles; bw min;max;agg%;mean;dev
 * (agg% its share of the group's); v5's bw samples and iops
 * min;max;mean;dev;samples.
 */
#define TERSE_NR_PCT 20
#define TERSE_NR_BW 5
#define TERSE_BW_AGG 2
#define TERSE_V5_NR_BW_IOPS 6
/* The I/O depth shares after the CPU fields. */
#define TERSE_NR_DEPTHS 7

struct terse {
	struct import_ctx *ctx;
	const char *path;
	struct fio_doc *doc;
	int version;		/* of the first line; all must agree */
	char fio_version[64];
	long lines;
};

static const char *const dirs[] = { "read", "write", "trim" };
static const char *const lats[] = { "slat_ns", "clat_ns", "lat_ns" };
/* NULL: the first, "<=2" with the ns buckets folded in, is not kept */
static const char *const us_buckets[] = {
	NULL, "4", "10", "20", "50", "100", "250", "500", "750", "1000",
};
static const char *const ms_buckets[] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

/* A number field, with a trailing '%' allowed where fio prints one. */
static int field_num(const char *s, int pct, double *out)
{
	const char *p = s;

	if (str_double(&p, out))
		return -1;
	if (pct && *p == '%')
		p++;
	return *p ? -1 : 0;
}

struct cursor {
	struct terse *t;
	char **f;
	size_t nr, i;
	long line;
};

static int bad_field(struct cursor *c, const char *what)
{
	if (c->i >= c->nr)
		return error("%s:%ld: expected %s in field %zu, got the end of "
			     "the line (%zu fields: a terse line cut short?)",
			     c->t->path, c->line, what, c->i + 1, c->nr);
	return error("%s:%ld: expected %s in field %zu, got '%.40s'",
		     c->t->path, c->line, what, c->i + 1, c->f[c->i]);
}

static int next_num(struct cursor *c, int pct, double *out, const char *what)
{
	if (c->i >= c->nr || field_num(c->f[c->i], pct, out))
		return bad_field(c, what);
	c->i++;
	return 0;
}

/* min;max;mean;dev in us -> {min, max, mean, stddev} in ns */
static int lat_block(struct cursor *c, json_t *dir, const char *key,
		     double n)
{
	double v[4];
	json_t *o;
	int k;

	for (k = 0; k < 4; k++)
		if (next_num(c, 0, &v[k], "a latency in us"))
			return -1;
	o = json_object();
	json_object_set_new(o, "min", json_real(v[0] * 1000));
	json_object_set_new(o, "max", json_real(v[1] * 1000));
	json_object_set_new(o, "mean", json_real(v[2] * 1000));
	json_object_set_new(o, "stddev", json_real(v[3] * 1000));
	json_object_set_new(o, "N", json_real(v[2] > 0 ? n : 0));
	json_object_set_new(dir, key, o);
	return 0;
}

/* TERSE_NR_PCT "P%=us" fields -> the percentile map of clat_ns, in ns */
static int pct_block(struct cursor *c, json_t *lat)
{
	json_t *m = json_object();
	int k;

	for (k = 0; k < TERSE_NR_PCT; k++) {
		const char *s = c->i < c->nr ? c->f[c->i] : NULL;
		const char *eq = s ? strstr(s, "%=") : NULL;
		double p, v;
		char key[32];

		const char *q = s;

		if (!eq || str_double(&q, &p) || q != eq ||
		    field_num(eq + 2, 0, &v)) {
			json_decref(m);
			return bad_field(c, "a percentile 'P%=us'");
		}
		c->i++;
		if (p <= 0)
			continue;	/* an unused slot, "0%=0" */
		snprintf(key, sizeof(key), "%f", p);
		json_object_set_new(m, key, json_real(v * 1000));
	}
	json_object_set_new(lat, "percentile", m);
	return 0;
}

static int dir_block(struct cursor *c, json_t *job, const char *name)
{
	double io, bw, iops, rt, x, n;
	json_t *d = json_object();
	int k;

	if (next_num(c, 0, &io, "the I/O in KiB") ||
	    next_num(c, 0, &bw, "the bandwidth in KiB/s") ||
	    next_num(c, 0, &iops, "the IOPS") ||
	    next_num(c, 0, &rt, "the runtime in ms"))
		goto fail;
	n = rt > 0 ? floor(iops * rt / 1000 + 0.5) : 0;
	json_object_set_new(d, "io_kbytes", json_real(io));
	json_object_set_new(d, "bw", json_real(bw));
	json_object_set_new(d, "iops", json_real(iops));
	json_object_set_new(d, "runtime", json_real(rt));
	json_object_set_new(d, "total_ios", json_real(n));
	if (lat_block(c, d, lats[0], n) || lat_block(c, d, lats[1], n) ||
	    pct_block(c, json_object_get(d, lats[1])) ||
	    lat_block(c, d, lats[2], n))
		goto fail;
	for (k = 0; k < TERSE_NR_BW; k++)
		if (next_num(c, k == TERSE_BW_AGG, &x,
			     "a bandwidth statistic"))
			goto fail;
	if (c->t->version == 5)
		for (k = 0; k < TERSE_V5_NR_BW_IOPS; k++)
			if (next_num(c, 0, &x, "a bandwidth or IOPS "
				     "statistic"))
				goto fail;
	json_object_set_new(job, name, d);
	return 0;
fail:
	json_decref(d);
	return -1;
}

static int buckets(struct cursor *c, json_t *job, const char *key,
		   const char *const *names, size_t n)
{
	json_t *o = json_object();
	size_t k;
	double v;

	for (k = 0; k < n; k++) {
		if (next_num(c, 1, &v, "a latency bucket in %")) {
			json_decref(o);
			return -1;
		}
		if (names[k])
			json_object_set_new(o, names[k], json_real(v));
	}
	json_object_set_new(job, key, o);
	return 0;
}

/*
 * Cut line at its ';' into c->f (c->nr fields; the caller frees c->f).
 * 0 or error().
 */
static int split_fields(struct cursor *c, char *line)
{
	size_t alloc = 0;
	char *p = line, *semi;

	for (;;) {
		ALLOC_GROW(c->f, c->nr + 1, alloc);
		c->f[c->nr++] = p;
		semi = strchr(p, ';');
		if (!semi)
			return 0;
		*semi = '\0';
		p = semi + 1;
		if (c->nr >= TERSE_MAX_FIELDS)
			return error("%s:%ld: more than %d fields: not a terse "
				     "line", c->t->path, c->line,
				     TERSE_MAX_FIELDS);
	}
}

/*
 * The version (the same on every line) and, from v3, fio's version (the
 * document's, from the first line): c->i at the job's name after them.
 * 0 or error().
 */
static int line_head(struct cursor *c)
{
	struct terse *t = c->t;
	int version;
	long v;

	version = str_to_long(c->f[0], &v) || v < TERSE_VERSION_MIN ||
		  v > TERSE_VERSION_MAX ? 0 : (int)v;
	if (!version)
		return error("%s:%ld: expected a terse line starting with its "
			     "version (2..5), got '%.40s'", t->path, c->line,
			     c->f[0]);
	if (t->version && version != t->version)
		return error("%s:%ld: terse version %d after lines of version "
			     "%d", t->path, c->line, version, t->version);
	t->version = version;
	c->i = 1;
	if (version == TERSE_VERSION_MIN)
		return 0;
	if (c->nr < 2)
		return error("%s:%ld: expected a terse line, got too few "
			     "fields", t->path, c->line);
	if (!t->fio_version[0]) {
		json_t *fv;

		snprintf(t->fio_version, sizeof(t->fio_version), "%s",
			 c->f[1]);
		fv = json_string(t->fio_version);
		fio_doc_member(t->doc, "fio version", fv);
		json_decref(fv);
	}
	c->i = 2;
	return 0;
}

/* The fields after the job's name into job, as fio's JSON has them. */
static int job_body(struct cursor *c, json_t *job)
{
	static const char *const what[] = {
		"usr%", "sys%", "ctx", "majf", "minf",
	};
	static const char *const keys[] = {
		"usr_cpu", "sys_cpu", "ctx", "majf", "minf",
	};
	size_t ndirs = c->t->version == 3 ? 2 : 3, k;
	double x;

	if (next_num(c, 0, &x, "the group id"))
		return -1;
	json_object_set_new(job, "groupid", json_real(x));
	if (next_num(c, 0, &x, "the error number"))
		return -1;
	json_object_set_new(job, "error", json_real(x));
	for (k = 0; k < ndirs; k++)
		if (dir_block(c, job, dirs[k]))
			return -1;
	for (k = 0; k < ARRAY_SIZE(keys); k++) {
		if (next_num(c, k < 2, &x, what[k]))
			return -1;
		json_object_set_new(job, keys[k], json_real(x));
	}
	for (k = 0; k < TERSE_NR_DEPTHS; k++)
		if (next_num(c, 1, &x, "an I/O depth share in %"))
			return -1;
	/* disk utilisation, errors, description: not read */
	return buckets(c, job, "latency_us", us_buckets,
		       ARRAY_SIZE(us_buckets)) ||
	       buckets(c, job, "latency_ms", ms_buckets,
		       ARRAY_SIZE(ms_buckets)) ? -1 : 0;
}

/* One terse line -> one job object of the document; 0 or error(). */
static int terse_line(struct terse *t, char *line, long lineno)
{
	struct cursor c = { t, NULL, 0, 0, lineno };
	json_t *job = NULL;
	int ret = -1;

	if (split_fields(&c, line) || line_head(&c))
		goto out;
	if (c.i >= c.nr || !*c.f[c.i]) {
		bad_field(&c, "the job's name");
		goto out;
	}
	job = json_object();
	json_object_set_new(job, "jobname", json_string(c.f[c.i++]));
	if (job_body(&c, job))
		goto out;
	fio_doc_job(t->doc, job, lineno);
	t->lines++;
	ret = 0;
out:
	json_decref(job);
	free(c.f);
	return ret;
}

static int fio_terse_parse(struct import_ctx *ctx, struct input *in)
{
	struct terse t = { ctx, in->path, NULL, 0, "", 0 };
	int r;

	t.doc = fio_doc_new(ctx, in->path, 1);
	while ((r = input_getline(in)) > 0) {
		char *s = in->sb.buf;

		sbuf_rtrim(&in->sb);
		if (!*s)
			continue;
		if (terse_line(&t, s, in->line)) {
			r = -1;
			break;
		}
	}
	if (r < 0) {
		fio_doc_free(t.doc);
		return -1;
	}
	if (!t.lines) {
		fio_doc_free(t.doc);
		return error("%s: empty file, expected fio terse lines",
			     in->path);
	}
	return fio_doc_end(t.doc);
}

/* "3;fio-3.33;name;0;0;..." (v3-v5) or "2;name;0;0;..." */
static int fio_terse_detect(const char *path, const char *head, size_t len)
{
	const char *nl = memchr(head, '\n', len);
	size_t n = nl ? (size_t)(nl - head) : len, semis = 0, i;

	(void)path;
	if (n < 8 || head[0] < '2' || head[0] > '5' || head[1] != ';')
		return 0;
	for (i = 0; i < n; i++)
		semis += head[i] == ';';
	if (semis < 30)
		return 0;
	if (head[0] > '2' && strncmp(head + 2, "fio-", 4))
		return 0;
	return 80;
}

const struct importer importer_fio_terse = {
	.name = "fio-terse",
	.family = "fio",
	.what = "fio --minimal / --output-format=terse lines "
		"(--terse-version 2..5), fio JSON's names",
	.flags = IMP_FILES | IMP_SAMPLES | IMP_RECORDED,
	.detect = fio_terse_detect,
	.parse = fio_terse_parse,
};
