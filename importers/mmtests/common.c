/*
 * What several extractors read the same way (extract.h): a log file line
 * by line, the files of a glob as repetitions, the files named by
 * numbers, values pooled until their file is read, Perl's reading of a
 * number, MMTests' numeric sort and uniq() of factors taken from file
 * names, a repetition's number in a file name, and logs/workloads.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "extract.h"

#define NUMBER_DIGITS_MAX 9	/* a number in a file name: 1 to 9 digits */

/* ---- the reader ---- */

long mmx_read(struct mmx *x, const struct mmx_file *f, long rep,
	      const struct mmx_reader *rd, void *data)
{
	struct mmx_line l = { f, rep, NULL, 0, 0 };
	struct input in;
	long found = 0, n;
	int r;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		l.s = in.sb.buf;
		l.no = in.line;
		n = rd->line(x, &l, data);
		if (n < 0) {
			mmx_close(x, f, &in);
			return -1;
		}
		if (n && !l.first)
			l.first = l.no;
		found += n;
		if (rd->first_only)
			break;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!found && rd->none)
		mmx_warn(x, 0, "%s: %s", f->name, rd->none);
	return found;
}

int mmx_read_reps(struct mmx *x, const char *glob, const char *suffix,
		  const struct mmx_reader *rd, void *data)
{
	const struct mmx_file *const *g, **f;
	size_t n = mmx_glob(x, glob, &g), i;
	int ret = 0;

	/* mmx_glob's list lasts until the next call: keep a copy */
	f = xcalloc(n ? n : 1, sizeof(*f));
	for (i = 0; i < n; i++)
		f[i] = g[i];
	for (i = 0; i < n && !ret; i++)
		if (mmx_read(x, f[i], mmx_rep_of(f[i]->name, suffix,
						 (long)i + 1), rd, data) < 0)
			ret = -1;
	free(f);
	return ret;
}

/* ---- files named by numbers ---- */

/* 1 to NUMBER_DIGITS_MAX digits at *p: their number, *p after them; or -1 */
static long name_number(const char **p)
{
	size_t len = strspn(*p, "0123456789");
	long n;

	if (!len || len > NUMBER_DIGITS_MAX)
		return -1;
	n = strtol(*p, NULL, 10);
	*p += len;
	return n;
}

static int parse_numbered(const struct mmx_file *f,
			  const struct mmx_names *names,
			  struct mmx_numbered *v)
{
	const char *p;

	if (!starts_with(f->name, names->prefix))
		return 0;
	p = v->digits = f->name + strlen(names->prefix);
	if ((v->n = name_number(&p)) < 0)
		return 0;
	v->len = (size_t)(p - v->digits);
	v->rep = 0;
	if ((names->flags & MMX_NUM_REP) &&
	    (*p++ != '-' || (v->rep = name_number(&p)) < 0))
		return 0;
	if (strcmp(p, names->suffix))
		return 0;
	v->f = f;
	return 1;
}

/* Read from X.gz, when MMTests globs the disk for one or the other. */
static int wanted(const struct mmx_file *f, int flags)
{
	if (flags & MMX_NUM_GZ)
		return ends_with(f->path, ".gz");
	if (flags & MMX_NUM_PLAIN)
		return !ends_with(f->path, ".gz");
	return 1;
}

static int cmp_by_rep(const void *a, const void *b)
{
	const struct mmx_numbered *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return strcmp(x->f->name, y->f->name);
}

static int cmp_lexical(const void *a, const void *b)
{
	const struct mmx_numbered *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int has_first(const struct mmx_numbered *v, size_t nr, long n)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (v[i].n == n && v[i].rep == 1)
			return 1;
	return 0;
}

/* Keep the files whose n has a rep 1 file; warn of the others. */
static size_t keep_firsts(struct mmx *x, const struct mmx_names *names,
			  struct mmx_numbered *v, size_t nr)
{
	char *keep = xcalloc(nr ? nr : 1, 1);
	size_t i, m;

	for (i = 0; i < nr; i++)
		keep[i] = (char)has_first(v, nr, v[i].n);
	for (i = m = 0; i < nr; i++)
		if (keep[i])
			v[m++] = v[i];
		else
			mmx_warn(x, 0, "%s: no %s%ld-1, so MMTests leaves out "
				 "%ld %s", v[i].f->name, names->prefix,
				 v[i].n, v[i].n, names->needs_first);
	free(keep);
	return m;
}

size_t mmx_numbered(struct mmx *x, const struct mmx_names *names,
		    struct mmx_numbered **out)
{
	const struct mmx_file *const *f;
	size_t n = mmx_glob(x, names->glob, &f), i, nr = 0;
	struct mmx_numbered *v = xcalloc(n ? n : 1, sizeof(*v));

	for (i = 0; i < n; i++)
		if (!parse_numbered(f[i], names, &v[nr])) {
			if (names->other)
				mmx_warn(x, 0, "%s: %s", f[i]->name,
					 names->other);
		} else if (wanted(f[i], names->flags)) {
			v[nr++].pos = i;
		}
	QSORT(v, nr, names->flags & MMX_NUM_LEXICAL ? cmp_lexical :
	      cmp_by_rep);
	if (names->needs_first)
		nr = keep_firsts(x, names, v, nr);
	*out = v;
	return nr;
}

int mmx_read_numbered(struct mmx *x, struct mmx_numbered *v, size_t nr,
		      const struct mmx_reader *rd)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (mmx_read(x, v[i].f, v[i].rep, rd, &v[i]) < 0)
			return -1;
	return 0;
}

int mmx_op_per_n(struct mmx *x, const char *name,
		 const struct mmx_numbered *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		char op[64];

		if (i && v[i].n == v[i - 1].n)
			continue;
		snprintf(op, sizeof(op), "%s-%ld", name, v[i].n);
		if (mmx_op(x, op, 0))
			return -1;
	}
	return 0;
}

/* ---- values pooled until their file is read ---- */

void mmx_pool_take(struct mmx_pool *p, char *op, double value, long line)
{
	struct mmx_pooled *v;
	int64_t before = 0;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	v = &p->v[p->nr++];
	v->op = op;
	v->value = value;
	v->line = line;
	strmap_get(&p->seen, op, strlen(op), &before);
	strmap_put(&p->seen, op, strlen(op), before + 1);
	v->block = (long)before;
	if (before + 1 > p->blocks)
		p->blocks = (long)before + 1;
}

int mmx_pool_add(struct mmx *x, const struct mmx_pool *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (mmx_add(x, p->v[i].op, 0, p->blocks > 1 ?
			    (double)p->v[i].block : NAN, p->v[i].value,
			    p->v[i].line))
			return -1;
	return 0;
}

void mmx_pool_release(struct mmx_pool *p)
{
	while (p->nr)
		free(p->v[--p->nr].op);
	free(p->v);
	p->v = NULL;
	p->alloc = 0;
	strmap_clear(&p->seen);
	p->blocks = 1;
}

/* ---- factors ---- */

double mmx_perl_num(const char *s)
{
	char buf[64];
	size_t n = strspn(s, "0123456789.eE+-");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

struct mmx_factor *mmx_factor_push(struct mmx_factor **v, size_t *nr,
				   size_t *alloc, char *text)
{
	struct mmx_factor *c;

	ALLOC_GROW(*v, *nr + 1, *alloc);
	c = &(*v)[*nr];
	memset(c, 0, sizeof(*c));
	c->text = text;
	c->num = text ? mmx_perl_num(text) : 0;
	c->pos = (*nr)++;
	return c;
}

static int cmp_factor(const void *a, const void *b)
{
	const struct mmx_factor *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

size_t mmx_sort_factors(struct mmx_factor *v, size_t n, int uniq)
{
	size_t i, j, k;

	QSORT(v, n, cmp_factor);
	if (!uniq)
		return n;
	/* MMTests' uniq(): the first of equal texts stays */
	for (i = k = 0; i < n; i++) {
		for (j = 0; j < k && strcmp(v[j].text, v[i].text); j++)
			;
		if (j < k)
			free(v[i].text);
		else
			v[k++] = v[i];
	}
	return k;
}

void mmx_factors_free(struct mmx_factor *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}

long mmx_rep_of(const char *name, const char *suffix, long fallback)
{
	const char *p = strrchr(name, '-');
	long n = 0;

	if (!p)
		return fallback;
	for (p++; *p >= '0' && *p <= '9' && n < 1000000; p++)
		n = n * 10 + (*p - '0');
	return strcmp(p, suffix) || !n ? fallback : n;
}

/* ---- logs/workloads ---- */

struct workloads {
	char **w;		/* owned, and each of them */
	size_t nr, alloc;
};

/* logs/workloads' first line: its words, split on single spaces */
static long workload_words(struct mmx *x, const struct mmx_line *l,
			   void *data)
{
	struct workloads *wl = data;
	const char *s, *sp;
	size_t before = wl->nr;

	(void)x;
	for (s = l->s; *s; s = *sp ? sp + 1 : sp) {
		sp = strchrnul(s, ' ');
		if (sp == s)
			continue;
		ALLOC_GROW(wl->w, wl->nr + 1, wl->alloc);
		wl->w[wl->nr++] = xstrndup(s, (size_t)(sp - s));
	}
	return (long)(wl->nr - before);
}

static void workloads_release(struct workloads *wl)
{
	while (wl->nr)
		free(wl->w[--wl->nr]);
	free(wl->w);
}

static int read_workloads(struct mmx *x, const char *prefix,
			  struct workloads *wl)
{
	static const struct mmx_reader first_line = {
		.line = workload_words,
		.first_only = 1,
	};
	const struct mmx_file *f = mmx_find(x, "workloads");
	const char *test = mmx_test(x);
	size_t plen = strlen(prefix);

	if (!f) {
		if (strncmp(test, prefix, plen) || !test[plen])
			return error("%s: no logs/workloads, and the test's "
				     "name does not say the workload", test);
		mmx_warn(x, 0, "no logs/workloads: the workload is '%s', from "
			 "the test's name", test + plen);
		ALLOC_GROW(wl->w, 1, wl->alloc);
		wl->w[wl->nr++] = xstrdup(test + plen);
		return 0;
	}
	if (mmx_read(x, f, 0, &first_line, wl) < 0)
		return -1;
	if (!wl->nr)
		mmx_warn(x, 1, "no workload named: nothing to read");
	return 0;
}

/* T of each file W<tail>: the last '-' field once strip is cut */
static size_t workload_factors(struct mmx *x, const struct workloads *wl,
			       const char *tail, const char *strip,
			       struct mmx_factor **out)
{
	size_t nr = 0, alloc = 0, w, i;

	*out = NULL;
	for (w = 0; w < wl->nr; w++) {
		const struct mmx_file *const *f;
		char *glob = xstrfmt("%s%s", wl->w[w], tail);
		size_t n = mmx_glob(x, glob, &f);

		free(glob);
		for (i = 0; i < n; i++) {
			const char *name = f[i]->name;
			size_t e = strlen(name) - strlen(strip), k = e;

			while (k > 0 && name[k - 1] != '-')
				k--;
			mmx_factor_push(out, &nr, &alloc,
					xstrndup(name + k, e - k));
		}
	}
	return mmx_sort_factors(*out, nr, 1);
}

int mmx_each_workload(struct mmx *x, const char *prefix, const char *tail,
		      const char *strip,
		      int (*each)(struct mmx *x, const char *w, const char *t,
				  void *data),
		      void *data)
{
	struct workloads wl = { NULL, 0, 0 };
	struct mmx_factor *t = NULL;
	size_t nr = 0, w, i;
	int ret = read_workloads(x, prefix, &wl);

	if (!ret)
		nr = workload_factors(x, &wl, tail, strip, &t);
	for (w = 0; w < wl.nr && !ret; w++)
		for (i = 0; i < nr && !ret; i++)
			ret = each(x, wl.w[w], t[i].text, data);
	mmx_factors_free(t, nr);
	workloads_release(&wl);
	return ret;
}
