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
	for (i = 0; i < n && !ret; i++)
		ret = one_file(x, f[i], op, mmx_rep_of(f[i]->name, ".log",
						       (long)i + 1));
	free(f);
	free(op);
	return ret;
}

static int extract(struct mmx *x)
{
	struct mmx_factor *c = NULL;
	size_t nr = 0, alloc = 0, nr_wl, w, i, k;
	/* ExtractUnixbenchsyscall.pm: DATA_TIME_NSECONDS, on lps */
	int direction = strcmp(mmx_test(x), "unixbench-syscall") ? 0 :
			DIR_LOWER;
	char **wl;
	int ret = 0;

	if (mmx_workloads(x, "unixbench-", &wl, &nr_wl))
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
			memset(&c[nr], 0, sizeof(*c));
			c[nr].text = xstrndup(name + k,
					      (size_t)(e - name) - k);
			c[nr].num = mmx_perl_num(c[nr].text);
			c[nr].pos = nr;
			nr++;
		}
	}
	nr = mmx_sort_factors(c, nr, 1);
	for (w = 0; w < nr_wl && !ret; w++)
		for (i = 0; i < nr && !ret; i++)
			ret = one_op(x, wl[w], c[i].text, direction);
	mmx_factors_free(c, nr);
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
