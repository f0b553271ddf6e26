/*
 * unixbench-dhry2reg, -execl, -pipe, -spawn, -syscall (research/mmtests-
 * 2020-extractors.md §8): the workloads W of logs/workloads' first line;
 * the copy counts T of every logs/W-*-1.log (the 2nd '-' field from the
 * end), numerically, once each; for each W, for each T, every
 * W-T-N.log in MMTests' lexical order, each repetition N; in each, the
 * line of the final "Partial Index" table, "<test name>  <BASELINE>
 * <RESULT>  <INDEX>", gives RESULT (lps) to op "unixbench-W-T".
 * Multiops.  Higher is better, but for unixbench-syscall, whose 2020
 * module declares nanoseconds: lower, a bug we copy.  The fs* tests'
 * "File ... maxblocks" lines are not read.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "extract.h"

/* The names of the Partial Index lines MMTests matches, in any file. */
static const char *const names[] = {
	"Dhrystone 2 using register variables",
	"Pipe Throughput",
	"System Call Overhead",
	"Execl Throughput",
	"Process Creation",
};

struct copies {
	char *t;		/* owned: T as the file name spells it */
	double num;		/* T as Perl's <=> reads it */
	size_t pos;		/* in the order found: ties keep it */
};

/* A string as Perl's <=> reads it: its leading decimal number, else 0. */
static double perl_num(const char *s)
{
	char buf[64];
	size_t n = strspn(s, "0123456789.eE+-");

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return strtod(buf, NULL);
}

static int cmp_copies(const void *a, const void *b)
{
	const struct copies *x = a, *y = b;

	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The repetition N of "W-T-N.log"; 0 if the name has none. */
static long rep_of(const char *name)
{
	const char *p = strrchr(name, '-') + 1;
	long n = 0;

	while (*p >= '0' && *p <= '9' && n < 1000000)
		n = n * 10 + (*p++ - '0');
	return strcmp(p, ".log") ? 0 : n;
}

/*
 * The workloads: the words of logs/workloads' first line, split on single
 * spaces as MMTests splits it (empty words left out).  Without the file
 * (MMTests dies), the test's name says it: "unixbench-pipe" -> pipe.
 */
static int read_workloads(struct mmx *x, char ***out, size_t *nr)
{
	const struct mmx_file *f = mmx_find(x, "workloads");
	const char *test = mmx_test(x), *s, *sp;
	size_t alloc = 0;
	struct input in;
	int r;

	*out = NULL;
	*nr = 0;
	if (!f) {
		if (!starts_with(test, "unixbench-") || !test[10])
			return error("%s: no logs/workloads, and the test's "
				     "name does not say the workload", test);
		mmx_warn(x, 0, "no logs/workloads: the workload is '%s', from "
			 "the test's name", test + 10);
		ALLOC_GROW(*out, 1, alloc);
		(*out)[(*nr)++] = xstrdup(test + 10);
		return 0;
	}
	if (mmx_open(x, f, &in))
		return -1;
	r = input_getline(&in);
	for (s = r > 0 ? in.sb.buf : ""; *s; s = *sp ? sp + 1 : sp) {
		sp = strchrnul(s, ' ');
		if (sp == s)
			continue;
		ALLOC_GROW(*out, *nr + 1, alloc);
		(*out)[(*nr)++] = xstrndup(s, (size_t)(sp - s));
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!*nr)
		mmx_warn(x, 1, "no workload named: nothing to read");
	return 0;
}

/* A run of [0-9.] at p, then a space if need_space: its end, or NULL. */
static const char *number_sp(const char *p, int need_space)
{
	const char *e = p + strspn(p, "0123456789.");

	if (e == p || (need_space && *e != ' '))
		return NULL;
	return e;
}

/*
 * MMTests' /^<name> * ([0-9.]+) * ([0-9.]+) * ([0-9.]+)/ (" * ": one
 * space or more), for each name: 1 and *v the middle number, 0 for a
 * line that starts with no name, -1 for one of the names' lines that
 * does not match (*name_i says which) or whose middle number is not one.
 */
static int match_result(const char *s, double *v, size_t *name_i)
{
	const char *p = NULL, *res, *e;
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names) && !p; i++)
		if (starts_with(s, names[i]))
			p = s + strlen(names[i]);
	if (!p)
		return 0;
	*name_i = i - 1;
	if (*p != ' ')
		return -1;
	p += strspn(p, " ");
	if (!(e = number_sp(p, 1)))
		return -1;
	res = e + strspn(e, " ");
	if (!(e = number_sp(res, 1)) || !number_sp(e + strspn(e, " "), 0) ||
	    (size_t)(e - res) >= sizeof(buf))
		return -1;
	memcpy(buf, res, (size_t)(e - res));
	buf[e - res] = '\0';
	/* Perl reads "1.2.3" as 1.2; that is no unixbench number */
	return str_to_double(buf, v) ? -1 : 1;
}

static int one_file(struct mmx *x, const struct mmx_file *f, const char *op,
		    long rep)
{
	struct input in;
	int r, found = 0, in_index = 0;

	if (mmx_open(x, f, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf;
		size_t name_i = 0;
		double v;
		int m;

		if (starts_with(s, "System Benchmarks Partial Index")) {
			in_index = 1;
			continue;
		}
		if (!*s || starts_with(s, "System Benchmarks Index Score"))
			in_index = 0;
		m = match_result(s, &v, &name_i);
		/*
		 * The same names head the lines of the runs above the
		 * table ("Pipe Throughput  584116.2 lps  (10.0 s, ...)"):
		 * a line MMTests does not match is wrong only in the table.
		 */
		if (m < 0 && in_index) {
			error("%s:%ld: expected '%s <BASELINE> <RESULT> "
			      "<INDEX>', got '%.80s'", f->path, in.line,
			      names[name_i], s);
			mmx_close(x, f, &in);
			return -1;
		}
		if (m <= 0)
			continue;
		if (mmx_add(x, op, rep, NAN, v, in.line)) {
			mmx_close(x, f, &in);
			return -1;
		}
		found++;
	}
	if (mmx_close(x, f, &in) || r < 0)
		return -1;
	if (!found)
		mmx_warn(x, 0, "%s: no result line in a 'System Benchmarks "
			 "Partial Index' table (the run did not finish?)",
			 f->name);
	return 0;
}

/* The files W-T-*.log of one op, in MMTests' lexical order. */
static int one_op(struct mmx *x, const char *w, const char *t, int direction)
{
	const struct mmx_file *const *g, **f;
	char *glob = xstrfmt("%s-%s-*.log", w, t);
	char *op = xstrfmt("unixbench-%s-%s", w, t);
	size_t n = mmx_glob(x, glob, &g), i;
	int ret = 0;

	free(glob);
	/* mmx_glob's list lasts until the next call: keep a copy */
	f = xcalloc(n ? n : 1, sizeof(*f));
	for (i = 0; i < n; i++)
		f[i] = g[i];
	/* the direction is the op's from its first value on */
	if (n)
		ret = mmx_op(x, op, direction);
	for (i = 0; i < n && !ret; i++) {
		long rep = rep_of(f[i]->name);

		ret = one_file(x, f[i], op, rep ? rep : (long)i + 1);
	}
	free(f);
	free(op);
	return ret;
}

static int extract(struct mmx *x)
{
	struct copies *c = NULL;
	size_t nr = 0, alloc = 0, nr_wl, w, i, k;
	/* ExtractUnixbenchsyscall.pm: DATA_TIME_NSECONDS, on lps */
	int direction = strcmp(mmx_test(x), "unixbench-syscall") ? 0 :
			DIR_LOWER;
	char **wl;
	int ret = 0;

	if (read_workloads(x, &wl, &nr_wl))
		return -1;
	for (w = 0; w < nr_wl; w++) {
		const struct mmx_file *const *f;
		char *glob = xstrfmt("%s-*-1.log", wl[w]);
		size_t n = mmx_glob(x, glob, &f);

		free(glob);
		for (i = 0; i < n; i++) {
			const char *name = f[i]->name, *e;

			/* "W-T-1.log": T between the last two '-' */
			e = strrchr(name, '-');
			k = (size_t)(e - name);
			while (k > 0 && name[k - 1] != '-')
				k--;
			ALLOC_GROW(c, nr + 1, alloc);
			c[nr].t = xstrndup(name + k, (size_t)(e - name) - k);
			c[nr].num = perl_num(c[nr].t);
			c[nr].pos = nr;
			nr++;
		}
	}
	QSORT(c, nr, cmp_copies);
	/* MMTests' uniq(): the first of equal strings stays */
	for (i = k = 0; i < nr; i++) {
		size_t j;

		for (j = 0; j < k && strcmp(c[j].t, c[i].t); j++)
			;
		if (j < k)
			free(c[i].t);
		else
			c[k++] = c[i];
	}
	nr = k;
	for (w = 0; w < nr_wl && !ret; w++)
		for (i = 0; i < nr && !ret; i++)
			ret = one_op(x, wl[w], c[i].t, direction);
	for (i = 0; i < nr; i++)
		free(c[i].t);
	free(c);
	for (w = 0; w < nr_wl; w++)
		free(wl[w]);
	free(wl);
	return ret;
}

const struct mmtests_extractor mmx_unixbench = {
	.name = "unixbench",
	.what = "unixbench: result (lps) per workload and copy count",
	.summary = MMX_MULTIOPS,
	.direction = DIR_HIGHER,
	.unit = "lps",
	.extract = extract,
};
