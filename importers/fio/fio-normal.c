/*
 * The fio-normal importer: fio's human-readable report (the default
 * --output-format=normal, and what people paste into mail), fio 3.x.
 * Each job block becomes the job object fio's JSON would print, handed
 * to the JSON importer's own code (fio.h): the same names, units and
 * totals as fio JSON, within what this form prints.
 *
 * How the format was worked out: research/fio-procfs.md §1.5 (fio's
 * stat.c show_thread_status_normal()), checked line by line against the
 * normal reports of samples/fio and against the JSON of the same runs
 * (tests/t2150: one fio run written as json, normal and terse at once).
 *
 * Read, per job block ("NAME: (groupid=G, jobs=N): err= E: pid=..."):
 *   DIR: IOPS=30.8k, BW=120MiB/s (126MB/s)(121MiB/1001msec)  runtime ms
 *   slat/clat/lat (nsec|usec|msec): min=, max=, avg=, stdev=  -> ns
 *   clat percentiles (unit): |  1.00th=[   19], ...           -> ns
 *   lat (nsec|usec|msec)   : 2=18.86%, ...   the latency buckets
 *   cpu          : usr=2.50%, sys=27.10%, ctx=, majf=, minf=
 *   issued rwts: total=r,w,t,s              the exact I/O counts
 * and from the job definition lines at the top ("NAME: (g=0): rw=...,
 * bs=(R) 4096B-4096B, (W) ..., ioengine=..., iodepth=1") each
 * direction's block size, when fixed.
 *
 * Precision.  IOPS and BW are printed rounded (30.8k); the exact I/O
 * count (issued rwts) and runtime (msec) give them as fio computes
 * them: iops = total_ios x 1000 / runtime, and with a fixed block size
 * io = total_ios x bs, bw = io x 1000 / runtime / 1024 (KiB/s, an
 * integer as fio prints it in JSON); without one, the printed size and
 * bandwidth.  Latency means and deviations have two decimals in their
 * unit, percentiles are integers in theirs; latency buckets print only
 * when not zero (JSON names the zero ones too).  Values may carry SI
 * suffixes (max=31019k).  Job options are not printed: no run params.
 * fio 2.x's report (`read : io=..., bw=...KB/s, iops=..., runt=...`,
 * before fio-2.17) is refused by name: its JSON or terse output reads.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include "fio.h"
#include <ctype.h>

static const char *const dirs[] = { "read", "write", "trim" };

struct normal {
	struct import_ctx *ctx;
	const char *path;
	struct fio_doc *doc;
	json_t *job;		/* the job being read, or NULL */
	long job_line;
	json_t *dir;		/* its direction being read, borrowed */
	int dir_idx;
	json_t *pct;		/* the percentile map being read, borrowed */
	double pct_scale;
	/* block sizes from the job definitions: name -> "R W T" fixed bs */
	json_t *bs;		/* object: jobname -> [r, w, t] or null */
	double issued[3];	/* the job's "issued rwts" totals */
	int have_issued, have_cpu;
	long last_line;		/* the last line read */
	long jobs;
};

/* A number with an optional SI suffix (k, M, G: x1000); 0 or -1. */
static int si_number(const char **p, double *out)
{
	if (str_double(p, out))
		return -1;
	switch (**p) {
	case 'k': case 'K': *out *= 1e3; (*p)++; break;
	case 'M': *out *= 1e6; (*p)++; break;
	case 'G': *out *= 1e9; (*p)++; break;
	}
	return 0;
}

static double unit_ns(const char *u, size_t n)
{
	if (n == 4 && !strncmp(u, "nsec", 4))
		return 1;
	if (n == 4 && !strncmp(u, "usec", 4))
		return 1e3;
	if (n == 4 && !strncmp(u, "msec", 4))
		return 1e6;
	return 0;
}

/* "(usec)" at p -> ns per unit; 0 if not a unit */
static double paren_unit(const char **p)
{
	const char *s = *p, *e;
	double k;

	if (*s != '(')
		return 0;
	e = strchr(s, ')');
	if (!e)
		return 0;
	k = unit_ns(s + 1, (size_t)(e - s - 1));
	if (k)
		*p = e + 1;
	return k;
}

/* A size with a unit: 121MiB, 126MB, 4096B, 51.4KiB -> bytes; -1 if bad */
static double size_bytes(const char **p)
{
	static const struct { const char *u; double k; } units[] = {
		{ "KiB", 1024.0 }, { "MiB", 1048576.0 },
		{ "GiB", 1073741824.0 }, { "TiB", 1099511627776.0 },
		{ "kB", 1e3 }, { "KB", 1024.0 }, { "MB", 1e6 }, { "GB", 1e9 },
		{ "TB", 1e12 }, { "B", 1 },
	};
	double v;
	size_t i;

	if (str_double(p, &v))
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (starts_with(*p, units[i].u)) {
			*p += strlen(units[i].u);
			return v * units[i].k;
		}
	return -1;
}

static int bad(struct normal *n, long line, const char *what, const char *s)
{
	return error("%s:%ld: expected %s, got '%.60s'", n->path, line, what,
		     s);
}

/* A job's name: the bytes of s before g, cut at JOBNAME_MAX - 1. */
#define JOBNAME_MAX 256

static void job_name(char name[JOBNAME_MAX], const char *s, const char *g)
{
	size_t len = (size_t)(g - s);

	if (len >= JOBNAME_MAX)
		len = JOBNAME_MAX - 1;
	memcpy(name, s, len);
	name[len] = '\0';
}

/* "NAME: (g=0): rw=..., bs=(R) 4096B-4096B, (W) 4096B-4096B, ..." */
static void job_definition(struct normal *n, const char *s, const char *g)
{
	const char *b = strstr(g, "bs=(R) ");
	json_t *arr = json_array();
	char name[JOBNAME_MAX];
	int k;

	for (k = 0; k < 3; k++) {
		const char *lo, *hi;
		double x, y;

		if (!b) {
			json_array_append_new(arr, json_null());
			continue;
		}
		lo = strchr(b, ')');
		lo = lo ? lo + 2 : NULL;
		x = lo ? size_bytes(&lo) : -1;
		hi = lo && *lo == '-' ? lo + 1 : NULL;
		y = hi ? size_bytes(&hi) : -1;
		json_array_append_new(arr, x > 0 && x == y ? json_real(x) :
						   json_null());
		b = hi ? strstr(hi, ", (") : NULL;
		if (b)
			b += 2;
	}
	json_object_set_new(n->bs, "", json_null());	/* keeps it an object */
	job_name(name, s, g);
	json_object_set_new(n->bs, name, arr);
}

/*
 * Direction k of the job that ends, bs its fixed block size (0: none):
 * the exact I/O count, and what the form rounds derived from it.
 */
static void dir_end(struct normal *n, int k, double bs)
{
	json_t *d = json_object_get(n->job, dirs[k]);
	double ios, rt;
	json_t *lat;
	const char *lk;

	/*
	 * fio's JSON always has read and write (trim since 3.x, but the
	 * totals keep it only with I/O): the normal report leaves out a
	 * direction without I/O
	 */
	if (!d && k < 2) {
		d = json_object();
		json_object_set_new(d, "io_kbytes", json_real(0));
		json_object_set_new(d, "bw", json_real(0));
		json_object_set_new(d, "iops", json_real(0));
		json_object_set_new(d, "runtime", json_real(0));
		json_object_set_new(n->job, dirs[k], d);
	}
	if (!d)
		return;
	if (n->have_issued)
		json_object_set_new(d, "total_ios", json_real(n->issued[k]));
	ios = json_number_value(json_object_get(d, "total_ios"));
	rt = json_number_value(json_object_get(d, "runtime"));
	if (rt > 0 && json_object_get(d, "total_ios"))
		json_object_set_new(d, "iops", json_real(ios * 1000 / rt));
	if (bs > 0 && json_object_get(d, "total_ios")) {
		double io = ios * bs;

		json_object_set_new(d, "io_kbytes", json_real(io / 1024));
		if (rt > 0)
			json_object_set_new(d, "bw", json_real(
				floor(io * 1000 / rt / 1024)));
	}
	/* each latency's N: the direction's I/Os */
	json_object_foreach(d, lk, lat)
		if (json_is_object(lat) && json_object_get(lat, "mean"))
			json_object_set_new(lat, "N", json_real(ios));
}

/* The end of a job block: derive what the form rounds, hand it over. */
static int job_end(struct normal *n)
{
	const char *name;
	json_t *bs;
	int k;

	if (!n->job)
		return 0;
	name = json_string_value(json_object_get(n->job, "jobname"));
	/* every job's report ends with its cpu, depths and issued lines */
	if (!n->have_cpu || !n->have_issued)
		return error("%s:%ld: the report of job '%s' (line %ld) ends "
			     "before its %s line: cut short?", n->path,
			     n->last_line, name ? name : "", n->job_line,
			     !n->have_cpu ? "'cpu :'" : "'issued rwts:'");
	bs = json_object_get(n->bs, name ? name : "");
	for (k = 0; k < 3; k++)
		dir_end(n, k, json_is_array(bs) ?
			json_number_value(json_array_get(bs, k)) : 0);
	fio_doc_job(n->doc, n->job, n->job_line);
	json_decref(n->job);
	n->job = NULL;
	n->have_issued = n->have_cpu = 0;
	n->dir = NULL;
	n->pct = NULL;
	n->jobs++;
	return 0;
}

/* "  read: IOPS=30.8k, BW=120MiB/s (126MB/s)(121MiB/1001msec)" */
static int dir_line(struct normal *n, const char *s, int k, long line)
{
	const char *p = strstr(s, "IOPS="), *q;
	double iops, bw, io, rt;
	json_t *d = json_object();

	if (!p || (p += 5, si_number(&p, &iops)))
		goto bad;
	q = strstr(p, "BW=");
	if (!q)
		goto bad;
	q += 3;
	bw = size_bytes(&q);
	if (bw < 0 || !starts_with(q, "/s"))
		goto bad;
	q = strstr(q, ")(");
	if (!q)
		goto bad;
	q += 2;
	io = size_bytes(&q);
	if (io < 0 || *q++ != '/' || str_double(&q, &rt) ||
	    !starts_with(q, "msec"))
		goto bad;
	json_object_set_new(d, "iops", json_real(iops));
	json_object_set_new(d, "bw", json_real(floor(bw / 1024)));
	json_object_set_new(d, "io_kbytes", json_real(io / 1024));
	json_object_set_new(d, "runtime", json_real(rt));
	json_object_set_new(n->job, dirs[k], d);
	n->dir = d;
	n->dir_idx = k;
	return 0;
bad:
	json_decref(d);
	return bad(n, line, "'DIR: IOPS=N, BW=N<unit>/s (N<unit>/s)(N<unit>"
		   "/Nmsec)'", s);
}

/* "clat (usec): min=16, max=1472, avg=28.44, stdev=27.42" */
static int lat_line(struct normal *n, const char *s, const char *kind,
		    long line)
{
	static const char *const fields[] = { "min", "max", "avg", "stdev" };
	static const char *const keys[] = { "min", "max", "mean", "stddev" };
	const char *p = strchr(s, '(');
	json_t *o = json_object();
	double k;
	size_t i;

	k = p ? paren_unit(&p) : 0;
	if (!k || *p++ != ':')
		goto bad;
	for (i = 0; i < ARRAY_SIZE(fields); i++) {
		double v;

		str_skip_blanks(&p);
		if (!starts_with(p, fields[i]) || p[strlen(fields[i])] != '=')
			goto bad;
		p += strlen(fields[i]) + 1;
		str_skip_blanks(&p);
		if (si_number(&p, &v))
			goto bad;
		json_object_set_new(o, keys[i], json_real(v * k));
		if (*p == ',')
			p++;
	}
	{
		char key[16];

		snprintf(key, sizeof(key), "%s_ns", kind);
		json_object_set_new(n->dir, key, o);
	}
	return 0;
bad:
	json_decref(o);
	return bad(n, line, "'LAT (nsec|usec|msec): min=N, max=N, avg=N, "
		   "stdev=N'", s);
}

/* "|  1.00th=[   19],  5.00th=[   21], ..." */
static int pct_line(struct normal *n, const char *s, long line)
{
	const char *p = s + 1;

	for (;;) {
		double pc, v;
		char key[32];

		str_skip_blanks(&p);
		if (!*p)
			return 0;
		if (str_double(&p, &pc) || !starts_with(p, "th=["))
			return bad(n, line, "'P.PPth=[ N]' percentiles", s);
		p += 4;
		str_skip_blanks(&p);
		if (si_number(&p, &v) || *p++ != ']')
			return bad(n, line, "'P.PPth=[ N]' percentiles", s);
		snprintf(key, sizeof(key), "%f", pc);
		json_object_set_new(n->pct, key, json_real(v * n->pct_scale));
		if (*p == ',')
			p++;
	}
}

/* "lat (usec)   : 2=18.86%, 4=10.05%, ..." -> latency_ns/us/ms */
static int bucket_line(struct normal *n, const char *s, long line)
{
	const char *p = strchr(s, '(');
	double k = p ? paren_unit(&p) : 0;
	const char *key = k == 1 ? "latency_ns" : k == 1e3 ? "latency_us" :
			  "latency_ms";
	json_t *o;

	if (!k)
		return bad(n, line, "'lat (nsec|usec|msec) : N=P%, ...'", s);
	o = json_object_get(n->job, key);
	if (!o) {
		o = json_object();
		json_object_set_new(n->job, key, o);
	}
	str_skip_blanks(&p);
	if (*p++ != ':')
		return bad(n, line, "'lat (unit) : N=P%, ...'", s);
	for (;;) {
		const char *eq;
		char b[16];
		double v;

		str_skip_blanks(&p);
		if (!*p)
			return 0;
		eq = strchr(p, '=');
		if (!eq || eq - p >= (long)sizeof(b))
			return bad(n, line, "'N=P%'", p);
		memcpy(b, p, (size_t)(eq - p));
		b[eq - p] = '\0';
		p = eq + 1;
		if (str_double(&p, &v) || *p++ != '%')
			return bad(n, line, "'N=P%'", eq + 1);
		json_object_set_new(o, b, json_real(v));
		if (*p == ',')
			p++;
	}
}

/* "cpu          : usr=2.50%, sys=27.10%, ctx=31070, majf=0, minf=13" */
static int cpu_line(struct normal *n, const char *s, long line)
{
	static const char *const f[] = { "usr", "sys", "ctx", "majf", "minf" };
	static const char *const keys[] = { "usr_cpu", "sys_cpu", "ctx",
					    "majf", "minf" };
	const char *p = strchr(s, ':');
	size_t i;

	if (!p)
		return bad(n, line, "'cpu : usr=P%, sys=P%, ctx=N, ...'", s);
	p++;
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		double v;

		str_skip_blanks(&p);
		if (!starts_with(p, f[i]) || p[strlen(f[i])] != '=')
			return bad(n, line, "'cpu : usr=P%, sys=P%, ctx=N, "
				   "majf=N, minf=N'", s);
		p += strlen(f[i]) + 1;
		if (si_number(&p, &v))
			return bad(n, line, "a number", p);
		if (*p == '%')
			p++;
		json_object_set_new(n->job, keys[i], json_real(v));
		if (*p == ',')
			p++;
	}
	n->have_cpu = 1;
	return 0;
}

/* "issued rwts: total=30877,13169,0,0 short=..." */
static int issued_line(struct normal *n, const char *s, long line)
{
	const char *p = strstr(s, "total=");
	int k;

	if (!p)
		return bad(n, line, "'issued rwts: total=R,W,T,S'", s);
	p += 6;
	for (k = 0; k < 3; k++) {
		if (str_double(&p, &n->issued[k]))
			return bad(n, line, "'issued rwts: total=R,W,T,S'", s);
		if (*p == ',')
			p++;
	}
	n->have_issued = 1;
	return 0;
}

/* "NAME: (groupid=G, jobs=N): err= E: pid=...", g at ": (groupid=" */
static int job_start(struct normal *n, const char *s, const char *g,
		     long line)
{
	double gid = 0, err = 0;
	const char *p = g + strlen(": (groupid=");
	char name[JOBNAME_MAX];

	if (job_end(n))
		return -1;
	if (str_double(&p, &gid))
		return bad(n, line, "'NAME: (groupid=G, jobs=N): err= "
			   "E: ...'", s);
	p = strstr(p, "err=");
	if (p) {
		p += strlen("err=");
		str_skip_blanks(&p);
		str_double(&p, &err);
	}
	job_name(name, s, g);
	n->job = json_object();
	n->job_line = line;
	json_object_set_new(n->job, "jobname", json_string(name));
	json_object_set_new(n->job, "groupid", json_real(gid));
	json_object_set_new(n->job, "error", json_real(err));
	return 0;
}

/* "clat percentiles (usec):": the map the '|' lines fill */
static int pct_start(struct normal *n, const char *t, long line)
{
	const char *p = t + strlen("clat percentiles ");
	double k = paren_unit(&p);
	json_t *lat = json_object_get(n->dir, "clat_ns");

	if (!k || !lat)
		return bad(n, line, "'clat percentiles (unit):' after "
			   "the clat line", t);
	n->pct = json_object();
	n->pct_scale = k;
	json_object_set_new(lat, "percentile", n->pct);
	return 0;
}

/*
 * A line that starts with "read", "write" or "trim": 1 if it is not a
 * direction's first line, else what reading it returns.
 */
static int dir_start(struct normal *n, const char *t, long line)
{
	int k;

	for (k = 0; k < 3; k++) {
		size_t l = strlen(dirs[k]);
		const char *c = t + l;

		if (strncmp(t, dirs[k], l))
			continue;
		while (*c == ' ')
			c++;
		if (*c == ':' && strstr(t, "IOPS="))
			return dir_line(n, t, k, line);
		if (*c == ':' && strstr(t, "io=") && strstr(t, "runt="))
			return error("%s:%ld: a fio 2.x report (before "
				     "fio-2.17): not read; import its JSON or "
				     "terse output", n->path, line);
	}
	return 1;
}

/* A line of a job's report, indented, t after the blanks. */
static int report_line(struct normal *n, const char *t, long line)
{
	int rc = dir_start(n, t, line);

	if (rc <= 0)
		return rc;
	if (n->dir && (starts_with(t, "slat (") || starts_with(t, "clat (") ||
		       (starts_with(t, "lat (") && strstr(t, "min="))))
		return lat_line(n, t, t[0] == 'l' ? "lat" : t[0] == 's' ?
				"slat" : "clat", line);
	if (n->dir && starts_with(t, "clat percentiles ("))
		return pct_start(n, t, line);
	if (n->pct && t[0] == '|')
		return pct_line(n, t, line);
	n->pct = NULL;
	if (starts_with(t, "lat (") && !strstr(t, "min="))
		return bucket_line(n, t, line);
	if (starts_with(t, "cpu ") || starts_with(t, "cpu:"))
		return cpu_line(n, t, line);
	if (starts_with(t, "issued rwts:") || starts_with(t, "issued rwt:"))
		return issued_line(n, t, line);
	return 0;	/* bw, iops, IO depths, latency target: not read */
}

static int one_line(struct normal *n, char *s, long line)
{
	const char *t = s, *g;

	str_skip_blanks(&t);
	if (!*t)
		return 0;
	/* a job's definition at the top, or its report's first line */
	if (s[0] != ' ' && (g = strstr(s, ": (g=")) && !n->job) {
		job_definition(n, s, g);
		return 0;
	}
	if (s[0] != ' ' && (g = strstr(s, ": (groupid=")))
		return job_start(n, s, g, line);
	if (s[0] != ' ') {
		/* "Run status group", "Disk stats", banners: a job ends */
		return job_end(n);
	}
	if (!n->job)
		return 0;
	return report_line(n, t, line);
}

static int fio_normal_parse(struct import_ctx *ctx, struct input *in)
{
	struct normal n;
	int r;

	memset(&n, 0, sizeof(n));
	n.ctx = ctx;
	n.path = in->path;
	n.doc = fio_doc_new(ctx, in->path, 1);
	n.bs = json_object();
	while ((r = input_getline(in)) > 0) {
		sbuf_rtrim(&in->sb);
		if (starts_with(in->sb.buf, "fio-") && !n.jobs && !n.job) {
			json_t *v = json_string(in->sb.buf);

			fio_doc_member(n.doc, "fio version", v);
			json_decref(v);
			continue;
		}
		n.last_line = in->line;
		if (one_line(&n, in->sb.buf, in->line)) {
			r = -1;
			break;
		}
	}
	if (r >= 0 && n.job && job_end(&n))
		r = -1;
	json_decref(n.job);
	json_decref(n.bs);
	if (r < 0) {
		fio_doc_free(n.doc);
		return -1;
	}
	if (!n.jobs) {
		fio_doc_free(n.doc);
		return error("%s: no job report ('NAME: (groupid=G, jobs=N): "
			     "err= ...') in it", in->path);
	}
	return fio_doc_end(n.doc);
}

static int fio_normal_detect(const char *path, const char *head, size_t len)
{
	(void)path;
	(void)len;
	if (strstr(head, ": (groupid=") && strstr(head, "IOPS="))
		return 70;
	if (strstr(head, ": (g=") && strstr(head, "rw="))
		return 50;
	return 0;
}

const struct importer importer_fio_normal = {
	.name = "fio-normal",
	.family = "fio",
	.what = "fio's normal (human) report, fio 3.x, fio JSON's "
		"names",
	.flags = IMP_FILES | IMP_SAMPLES | IMP_RECORDED,
	.detect = fio_normal_detect,
	.parse = fio_normal_parse,
};
