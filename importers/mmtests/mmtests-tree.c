/*
 * The MMTests tree importer: work/log/<run>/iter-N/... as MMTests'
 * run-mmtests.sh writes it (research/mmtests.md §3,
 * research/mmtests-2020-extractors.md §0, §9, §10).
 *
 * - A run directory (one with iter-N subdirectories holding a
 *   tests-timestamp) is claimed as a tree; each test in it (each
 *   iter-N/<test>/logs/) is one result: one import, one transaction.
 *   The run's name is the variant's label, the test its testcase.
 * - Per iteration, the test's extractor (importers/mmtests/) reports
 *   MMTests' operations and samples; each repetition of the benchmark
 *   (rep >= 1) is a run of the variant, else the iteration is.
 * - The iteration's first run also gets what MMTests reports per
 *   iteration: tests-timestamp's `time ::` line (the Duration table),
 *   tests-sysstate's /proc/vmstat before and after the test (through the
 *   procfs parser, counters; and the Ops table computed from them as
 *   MMTests' MonitorMmtestsvmstat does), and the monitors
 *   proc-vmstat-<test> (procfs) and vmstat-<test> as series.
 * - Each operation's direction (MMTests' data type) and summary are
 *   stated with the metric, and its position in MMTests' order is kept.
 *
 * This file walks the tree and hands each iteration's logs to the test's
 * extractor; the sink the extractor reports through is mmtests-sink.c,
 * the iteration's writing mmtests-iter.c (mmtests-tree-int.h).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "import/importer.h"
#include "../formats.h"
#include "mmtests-tree-int.h"
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>

/* ---- listing ---- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir (hidden ones left out), sorted; NULL-free list. */
static char **list_dir(const char *dir, size_t *nr)
{
	char **v = NULL;
	size_t alloc = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	*nr = 0;
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(v, *nr + 1, alloc);
		v[(*nr)++] = xstrdup(de->d_name);
	}
	closedir(d);
	QSORT(v, *nr, cmp_str);
	return v;
}

static void free_list(char **v, size_t nr)
{
	while (nr)
		free(v[--nr]);
	free(v);
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* "iter-<digits>" */
static int iter_name(const char *s, long *n)
{
	const char *p = s + 5;
	char *end;

	if (strncmp(s, "iter-", 5) || !isdigit((unsigned char)*p))
		return 0;
	errno = 0;
	*n = strtol(p, &end, 10);
	return !*end && !errno;
}

/* Does dir/name or dir/name.gz exist? */
static int exists_gz(const char *dir, const char *name)
{
	char *a = xstrfmt("%s/%s", dir, name), *b = xstrfmt("%s.gz", a);
	int r = is_file(a) || is_file(b);

	free(a);
	free(b);
	return r;
}

static int mmtests_tree_parts(const char *dir, void (*add)(void *, const char *),
		       void *data)
{
	char **it, **tests = NULL;
	size_t nr_it, i, nr_tests = 0, alloc = 0, k;
	int score = 0;

	it = list_dir(dir, &nr_it);
	for (i = 0; i < nr_it; i++) {
		char *sub = xstrfmt("%s/%s", dir, it[i]), **e;
		size_t nr_e, j;
		long n;

		if (!iter_name(it[i], &n) || !is_dir(sub) ||
		    !exists_gz(sub, "tests-timestamp")) {
			free(sub);
			continue;
		}
		score = 80;
		e = list_dir(sub, &nr_e);
		for (j = 0; j < nr_e; j++) {
			char *logs = xstrfmt("%s/%s/logs", sub, e[j]);

			if (is_dir(logs)) {
				ALLOC_GROW(tests, nr_tests + 1, alloc);
				tests[nr_tests++] = e[j];
				e[j] = NULL;
			}
			free(logs);
		}
		for (j = 0; j < nr_e; j++)
			free(e[j]);
		free(e);
		free(sub);
	}
	free_list(it, nr_it);
	QSORT(tests, nr_tests, cmp_str);
	for (k = 0; k < nr_tests; k++)
		if (!k || strcmp(tests[k], tests[k - 1]))
			add(data, tests[k]);
	free_list(tests, nr_tests);
	return score;
}

/*
 * Add dir/rel/name as a member "rel/name" (without .gz), from name.gz
 * when both exist (MMTests opens gz first).
 */
static void add_files(const char *dir, const char *rel,
		      int (*want)(const char *name, const char *test),
		      const char *test,
		      void (*add)(void *, const char *, const char *),
		      void *data)
{
	char *sub = xstrfmt("%s/%s", dir, rel), **e;
	size_t nr, i;

	e = list_dir(sub, &nr);
	for (i = 0; i < nr; i++) {
		size_t n = strlen(e[i]);
		int gz = n > 3 && ends_with(e[i], ".gz");
		char *path = xstrfmt("%s/%s", sub, e[i]), *base, *name;

		if (!is_file(path)) {
			free(path);
			continue;
		}
		base = gz ? xstrndup(e[i], n - 3) : xstrdup(e[i]);
		/* X and X.gz: X is listed first and left for X.gz */
		if (!gz && i + 1 < nr && !strncmp(e[i + 1], e[i], n) &&
		    !strcmp(e[i + 1] + n, ".gz")) {
			free(base);
			free(path);
			continue;
		}
		if (!want || want(base, test)) {
			name = xstrfmt("%s/%s", rel, base);
			add(data, name, path);
			free(name);
		}
		free(base);
		free(path);
	}
	free_list(e, nr);
	free(sub);
}

/* The iteration's own files that belong to test: tests-*, <mon>-<test>. */
static int iter_file_of(const char *name, const char *test)
{
	size_t n = strlen(name), t = strlen(test);

	if (!strcmp(name, "tests-timestamp") || !strcmp(name, "tests-sysstate") ||
	    !strcmp(name, "kernel.version"))
		return 1;
	if (n > t + 1 && !strcmp(name + n - t, test) && name[n - t - 1] == '-')
		return 1;
	return n > t + 7 && ends_with(name, ".start") &&
	       !strncmp(name + n - t - 6, test, t) && name[n - t - 7] == '-';
}

static int mmtests_tree_members(const char *dir, const char *test,
			 void (*add)(void *, const char *, const char *),
			 void *data)
{
	char **it;
	size_t nr_it, i;

	it = list_dir(dir, &nr_it);
	for (i = 0; i < nr_it; i++) {
		char *logs;
		long n;

		if (!iter_name(it[i], &n))
			continue;
		add_files(dir, it[i], iter_file_of, test, add, data);
		logs = xstrfmt("%s/%s/logs", it[i], test);
		add_files(dir, logs, NULL, NULL, add, data);
		free(logs);
	}
	free_list(it, nr_it);
	return 0;
}

/* ---- the tree ---- */

/* The run's name: the directory's last component, without a trailing /. */
static char *run_label(const char *dir)
{
	const char *b = base_name(dir);
	size_t n = strcspn(b, "/");

	return xstrndup(b, n);
}

static int cmp_iter(const void *a, const void *b)
{
	const struct iter *x = a, *y = b;

	/* MMTests globs iter-* lexically */
	return strcmp(x->prefix, y->prefix);
}

/* Group the members by iteration; the iterations sorted as MMTests. */
static struct iter *find_iters(const struct member *m, size_t nr,
			       const char *test, size_t *nr_it)
{
	struct iter *it = NULL;
	size_t alloc = 0, i;

	*nr_it = 0;
	for (i = 0; i < nr; i++) {
		const char *slash = strchr(m[i].name, '/');
		char dirname[32];
		struct iter *cur;
		long n;

		if (!slash || (size_t)(slash - m[i].name) >= sizeof(dirname))
			continue;
		memcpy(dirname, m[i].name, (size_t)(slash - m[i].name));
		dirname[slash - m[i].name] = '\0';
		if (!iter_name(dirname, &n))
			continue;
		cur = *nr_it ? &it[*nr_it - 1] : NULL;
		if (!cur || cur->n != n || strncmp(m[i].name, cur->prefix,
						   strlen(cur->prefix))) {
			ALLOC_GROW(it, *nr_it + 1, alloc);
			cur = &it[(*nr_it)++];
			memset(cur, 0, sizeof(*cur));
			cur->n = n;
			snprintf(cur->prefix, sizeof(cur->prefix), "%s/",
				 dirname);
			cur->first = i;
		}
		cur->nr = i + 1 - cur->first;
		slash++;
		if (!strcmp(slash, "tests-timestamp"))
			cur->timestamp = &m[i];
		else if (!strcmp(slash, "tests-sysstate"))
			cur->sysstate = &m[i];
		else if (starts_with(slash, "proc-vmstat-") &&
			 !strcmp(slash + 12, test))
			cur->proc_vmstat = &m[i];
		else if (starts_with(slash, "vmstat-") &&
			 !strcmp(slash + 7, test))
			cur->vmstat = &m[i];
		else if (starts_with(slash, "iostat-") &&
			 !strcmp(slash + 7, test))
			cur->iostat = &m[i];
		else if (!strcmp(slash, "kernel.version"))
			cur->kernel_version = &m[i];
	}
	QSORT(it, *nr_it, cmp_iter);
	return it;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

/* Each iter-N missing below the largest N: a warning naming it. */
static void warn_gaps(struct import_ctx *ctx, const struct iter *it,
		      size_t nr)
{
	long *n = xcalloc(nr ? nr : 1, sizeof(*n)), want = 0;
	size_t i;

	for (i = 0; i < nr; i++)
		n[i] = it[i].n;
	QSORT(n, nr, cmp_long);
	for (i = 0; i < nr; want = n[i++] + 1)
		for (; want < n[i]; want++)
			db_warn(ctx, 0, "iter-%ld is missing (there is an "
				"iter-%ld)", want, n[nr - 1]);
	free(n);
}

/* The iteration's logs/ files as the extractor sees them. */
static void iter_logs(struct mmx *x, const struct member *m, struct iter *it,
		      const char *test)
{
	struct sbuf pfx = SBUF_INIT;
	size_t i;

	sbuf_addf(&pfx, "%s%s/logs/", it->prefix, test);
	x->nr_files = 0;
	for (i = it->first; i < it->first + it->nr; i++) {
		if (!starts_with(m[i].name, pfx.buf))
			continue;
		x->files[x->nr_files].name = m[i].name + pfx.len;
		x->files[x->nr_files].path = m[i].path;
		x->mem[x->nr_files] = &m[i];
		x->nr_files++;
	}
	sbuf_release(&pfx);
}

const struct importer *mmtests_extractor_for(const char *test)
{
	char name[256];
	size_t n = strlen(test);

	if (n >= sizeof(name))
		return NULL;
	memcpy(name, test, n + 1);
	for (;;) {
		const struct importer *imp = importer_part("mmtests", name);
		char *dash;

		if (imp)
			return imp;
		dash = strrchr(name, '-');
		if (!dash)
			return NULL;
		*dash = '\0';
	}
}
static int mmtests_tree_parse_dir(struct import_ctx *ctx, const char *dir,
			   const struct member *m, size_t nr)
{
	const char *test = ctx->part;
	struct tree t = { ctx, test, STRMAP_INIT, 0, SBUF_INIT };
	struct mmx x;
	const struct importer *part;
	struct iter *it;
	char *label = run_label(dir);
	size_t nr_it, i;
	long with_values = 0;
	int ret = -1;

	memset(&x, 0, sizeof(x));
	part = mmtests_extractor_for(test);
	x.ex = part ? part->part : NULL;
	x.ex_name = part ? part->name : NULL;
	x.test = test;
	x.ctx = ctx;
	if (!x.ex) {
		warning("%s: test '%s': perfsift has no extractor for it; "
			"skipped", dir, test);
		free(label);
		return 1;
	}
	x.files = xcalloc(nr ? nr : 1, sizeof(*x.files));
	x.mem = xcalloc(nr ? nr : 1, sizeof(*x.mem));
	it = find_iters(m, nr, test, &nr_it);
	warn_gaps(ctx, it, nr_it);
	for (i = 0; i < nr_it; i++) {
		struct iter *cur = &it[i];

		if (cur->timestamp && mt_read_timestamp(&t, cur))
			goto out;
		if (cur->kernel_version && mt_read_kernel_version(&t, cur))
			goto out;
		iter_logs(&x, m, cur, test);
		if (!x.nr_files) {
			db_warn(ctx, 0, "%s/%s%s: no logs of the test in this "
				"iteration; left out", dir, cur->prefix, test);
			continue;
		}
		x.nr_val = 0;
		x.cur = NULL;
		if (x.ex->extract(&x))
			goto out;
		if (!x.nr_val) {
			db_warn(ctx, 0, "%s/%s%s/logs: the %s extractor found "
				"no value in this iteration; left out", dir,
				cur->prefix, test, x.ex_name);
			continue;
		}
		if (mt_check_twice(&x))
			goto out;
		if (mt_write_iteration(&t, &x, cur, label))
			goto out;
		with_values++;
	}
	if (!with_values) {
		ret = error("%s: test '%s': no iteration with values", dir,
			    test);
		goto out;
	}
	ret = 0;
out:
	ctx->source_id = 0;
	free(it);
	free(x.files);
	free(x.mem);
	mmx_release(&x);
	strmap_clear(&t.stated);
	sbuf_release(&t.name);
	free(label);
	return ret;
}

/* ---- perfsift debug mmtests-extract ---- */

int mmtests_extract_print(const char *dir, const char *test, FILE *out)
{
	struct mmx x;
	const struct importer *part;
	char **e, *logs, *base = NULL;
	size_t nr, i;
	int ret;

	memset(&x, 0, sizeof(x));
	/* DIR is iter-N/<test> or iter-N/<test>/logs */
	logs = !strcmp(base_name(dir), "logs") ||
	       !strncmp(base_name(dir), "logs/", 5) ? xstrdup(dir) :
	       xstrfmt("%s/logs", dir);
	if (!test) {
		char *t = xstrdup(dir), *b;

		while (strlen(t) > 1 && t[strlen(t) - 1] == '/')
			t[strlen(t) - 1] = '\0';
		if (!strcmp(base_name(t), "logs"))
			t[strlen(t) - 4] = '\0';
		while (strlen(t) > 1 && t[strlen(t) - 1] == '/')
			t[strlen(t) - 1] = '\0';
		b = (char *)base_name(t);
		base = xstrdup(b);
		free(t);
		test = base;
	}
	part = mmtests_extractor_for(test);
	x.ex = part ? part->part : NULL;
	x.ex_name = part ? part->name : NULL;
	x.test = test;
	x.out = out;
	if (!x.ex) {
		ret = error("%s: no extractor for test '%s'", dir, test);
		goto done;
	}
	if (!is_dir(logs)) {
		ret = error("%s: no such directory", logs);
		goto done;
	}
	e = list_dir(logs, &nr);
	x.files = xcalloc(nr ? nr : 1, sizeof(*x.files));
	for (i = 0; i < nr; i++) {
		size_t n = strlen(e[i]);
		int gz = n > 3 && ends_with(e[i], ".gz");
		char *path = xstrfmt("%s/%s", logs, e[i]);

		if (!is_file(path) || (!gz && i + 1 < nr &&
				       !strncmp(e[i + 1], e[i], n) &&
				       !strcmp(e[i + 1] + n, ".gz"))) {
			free(path);
			continue;
		}
		x.files[x.nr_files].name = gz ? xstrndup(e[i], n - 3) :
						xstrdup(e[i]);
		x.files[x.nr_files++].path = path;
	}
	free_list(e, nr);
	ret = x.ex->extract(&x);
	if (!ret) {
		fprintf(out, "# summary: %s\n", mt_summary_of(x.ex));
		fprintf(out, "# ops:");
		for (i = 0; i < x.nr_ops; i++)
			fprintf(out, "%s%s (%s)", i ? ", " : " ",
				x.ops[i].name,
				direction_name(x.ops[i].direction));
		fputc('\n', out);
	}
	for (i = 0; i < x.nr_files; i++) {
		free((char *)x.files[i].name);
		free((char *)x.files[i].path);
	}
	free(x.files);
done:
	mmx_release(&x);
	free(logs);
	free(base);
	return ret;
}

/* `perfsift help import`: the benchmarks it reads. */
static void mmtests_tree_help(FILE *f)
{
	size_t k, n;
	const struct importer *const *part = importer_parts(&n);

	fprintf(f, "    %-*s extractors:", IMP_HELP_WIDTH, "");
	for (k = 0; k < n; k++)
		if (!strcmp(part[k]->family, "mmtests"))
			fprintf(f, " %s", part[k]->name);
	fputc('\n', f);
}

const struct importer importer_mmtests_tree = {
	.name = "mmtests-tree",
	.family = "mmtests",
	.what = "MMTests raw results: work/log/<run>/iter-N/<test>/ "
		"(one result per run and test)",
	.flags = IMP_TREES | IMP_SAMPLES | IMP_SERIES,
	.parse_dir = mmtests_tree_parse_dir,
	.tree_parts = mmtests_tree_parts,
	.tree_members = mmtests_tree_members,
	.help = mmtests_tree_help,
	.extract = mmtests_extract_print,
};
