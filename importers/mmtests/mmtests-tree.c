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
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "store/direction.h"
#include "import/importer.h"
#include "../procfs/procfs.h"
#include "../formats.h"
#include "extract.h"
#include <ctype.h>
#include <dirent.h>
#include <fnmatch.h>
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

static const char *base_name(const char *path);

/* ---- the extraction sink (extract.h) ---- */

struct mmx_val {
	size_t op;
	long rep;
	double t, v;
	long line;
	int64_t source;
	const char *file;	/* borrowed: the member's path */
};

struct mmx_op {
	char *name;
	int direction;
};

struct mmx {
	const struct mmtests_extractor *ex;
	const char *ex_name;	/* its row's name: "kernbench" */
	const char *test;
	struct import_ctx *ctx;		/* NULL: print to out */
	FILE *out;
	/* the files of logs/ and, importing, their members */
	struct mmx_file *files;
	const struct member **mem;
	size_t nr_files;
	const struct mmx_file **sel;
	size_t nr_sel, alloc_sel;
	const char *cur;		/* the file being read */
	/* operations, in MMTests' order, across the iterations */
	struct mmx_op *ops;
	size_t nr_ops, alloc_ops;
	struct strmap op_idx;
	struct strmap seen;		/* printing: (op, rep) -> line */
	/* the values of one iteration, in the order reported */
	struct mmx_val *val;
	size_t nr_val, alloc_val;
};

const char *mmx_test(const struct mmx *x)
{
	return x->test;
}

size_t mmx_glob(struct mmx *x, const char *glob,
		const struct mmx_file *const **out)
{
	size_t i;

	x->nr_sel = 0;
	for (i = 0; i < x->nr_files; i++)
		if (!fnmatch(glob, x->files[i].name, 0)) {
			ALLOC_GROW(x->sel, x->nr_sel + 1, x->alloc_sel);
			x->sel[x->nr_sel++] = &x->files[i];
		}
	*out = x->sel;
	return x->nr_sel;
}

const struct mmx_file *mmx_find(struct mmx *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->nr_files; i++)
		if (!strcmp(x->files[i].name, name))
			return &x->files[i];
	return NULL;
}

int mmx_open(struct mmx *x, const struct mmx_file *f, struct input *in)
{
	size_t i = (size_t)(f - x->files);

	if (i >= x->nr_files)
		BUG("mmx_open() of a file not listed");
	x->cur = f->path;
	if (x->ctx)
		return import_open_member(x->ctx, x->mem[i], in);
	if (input_open(in, f->path, -1)) {
		input_close(in);
		return -1;
	}
	return 0;
}

int mmx_close(struct mmx *x, const struct mmx_file *f, struct input *in)
{
	size_t i = (size_t)(f - x->files);

	if (i >= x->nr_files)
		BUG("mmx_close() of a file not listed");
	if (x->ctx)
		return import_close_member(x->ctx, x->mem[i], in);
	input_close(in);
	return 0;
}

static size_t op_index(struct mmx *x, const char *op, int direction)
{
	int64_t idx;

	if (strmap_get(&x->op_idx, op, strlen(op), &idx))
		return (size_t)idx;
	ALLOC_GROW(x->ops, x->nr_ops + 1, x->alloc_ops);
	x->ops[x->nr_ops].name = xstrdup(op);
	x->ops[x->nr_ops].direction = direction ? direction : x->ex->direction;
	strmap_put(&x->op_idx, op, strlen(op), (int64_t)x->nr_ops);
	return x->nr_ops++;
}

int mmx_op(struct mmx *x, const char *op, int direction)
{
	if (!*op)
		return error("%s: an operation with no name", x->cur ?
			     x->cur : x->test);
	op_index(x, op, direction);
	return 0;
}

int mmx_add(struct mmx *x, const char *op, long rep, double t, double value,
	    long line)
{
	struct mmx_val *v;

	if (!*op || rep < 0)
		BUG("mmx_add(\"%s\", %ld)", op, rep);
	if (!isfinite(value))
		return error("%s:%ld: expected a number for %s, got %g",
			     x->cur ? x->cur : x->test, line, op, value);
	if (!x->ctx) {
		/* the import's check (check_twice()), here as values come */
		size_t idx = op_index(x, op, 0);

		if (isnan(t)) {
			struct { size_t op; long rep; } key;
			int64_t prev;

			memset(&key, 0, sizeof(key));
			key.op = idx;
			key.rep = rep;
			if (strmap_get(&x->seen, (const char *)&key, sizeof(key),
				       &prev))
				return error("%s:%ld: a second value of %s for "
					     "repetition %ld (the first at line "
					     "%ld)", x->cur ? x->cur : x->test,
					     line, op, rep, (long)prev);
			strmap_put(&x->seen, (const char *)&key, sizeof(key),
				   line);
		}
		fprintf(x->out, "%s\t%ld\t", op, rep);
		if (isnan(t))
			fputs("-", x->out);
		else
			fprintf(x->out, "%.15g", t);
		fprintf(x->out, "\t%.15g\t%s:%ld\n", value, x->cur ?
			base_name(x->cur) : "", line);
		return 0;
	}
	ALLOC_GROW(x->val, x->nr_val + 1, x->alloc_val);
	v = &x->val[x->nr_val++];
	v->op = op_index(x, op, 0);
	v->rep = rep;
	v->t = t;
	v->v = value;
	v->line = line;
	v->source = x->ctx->source_id;
	v->file = x->cur ? x->cur : x->test;
	return 0;
}

void mmx_warn(struct mmx *x, long line, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (x->ctx) {
		const char *keep = x->ctx->path;

		x->ctx->path = x->cur ? x->cur : keep;
		db_warn(x->ctx, line, "%s", sb.buf);
		x->ctx->path = keep;
	} else {
		warning("%s:%ld: %s", x->cur ? x->cur : x->test, line, sb.buf);
	}
	sbuf_release(&sb);
}

static void mmx_release(struct mmx *x)
{
	size_t i;

	for (i = 0; i < x->nr_ops; i++)
		free(x->ops[i].name);
	free(x->ops);
	strmap_clear(&x->op_idx);
	strmap_clear(&x->seen);
	free(x->val);
	free(x->sel);
}

/* ---- one iteration's own files ---- */

/* The metric of operation op of this test: "<test>.<op>". */
static void metric_name(struct sbuf *sb, const char *test, const char *op)
{
	sbuf_reset(sb);
	sbuf_addf(sb, "%s.%s", test, op);
}

/*
 * State a metric of the test (direction, summary, position) the first
 * time this import uses it.
 */
struct tree {
	struct import_ctx *ctx;
	const char *test;
	struct strmap stated;	/* metric names stated in this import */
	long position;
	struct sbuf name;
};

static int state(struct tree *t, const char *metric, const char *unit,
		 int direction, const char *summary, long position, long line)
{
	struct metric_state ms = { direction, summary, position };
	int64_t v;

	if (strmap_get(&t->stated, metric, strlen(metric), &v))
		return 0;
	strmap_put(&t->stated, metric, strlen(metric), 1);
	return db_metric_state(t->ctx, metric, unit, &ms, line);
}

/*
 * Positions: an operation's is its place in MMTests' order (declared or
 * first added, across the iterations); the iteration's own metrics
 * (Duration, Ops) come after every operation, in the order written.
 */
#define ITER_POSITION 1000000L

/* Emit a per-iteration value (Duration, Ops) as a sample of the run. */
static int iter_sample(struct tree *t, const char *table, const char *row,
		       const char *unit, int direction, double v, long line)
{
	char summary[64];

	snprintf(summary, sizeof(summary), "Monitor:%s", table);
	sbuf_reset(&t->name);
	sbuf_addf(&t->name, "%s.%s.%s", t->test, table, row);
	if (state(t, t->name.buf, unit, direction, summary,
		  ITER_POSITION + t->position++, line))
		return -1;
	return db_emit_sample(t->ctx, t->name.buf, unit, v, line);
}

/* An iteration's files, found among the members. */
struct iter {
	long n;				/* N of iter-N */
	char prefix[40];		/* "iter-N/" */
	const struct member *timestamp, *sysstate, *proc_vmstat, *vmstat;
	const struct member *iostat, *kernel_version;
	/* from kernel.version (`uname -a`): "" when not known */
	char kernel[128], machine[128];
	size_t first, nr;		/* its members: m[first..first+nr) */
	/* from tests-timestamp */
	int64_t begin, end;
	int have_time;
	double user, sys, elapsed;
	long time_line;
};

/* "test begin :: T 123", "time :: T U user S system E elapsed" */
static const char *after_test(const char *s, const char *lead,
			      const char *test)
{
	size_t n = strlen(lead), t = strlen(test);

	if (strncmp(s, lead, n) || strncmp(s + n, test, t) ||
	    (s[n + t] != ' ' && s[n + t]))
		return NULL;
	return s + n + t;
}

static int read_timestamp(struct tree *t, struct iter *it)
{
	struct input in;
	int r;

	if (import_open_member(t->ctx, it->timestamp, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *s = in.sb.buf, *p;
		double u, sy, e;
		long long ep;

		if ((p = after_test(s, "test begin :: ", t->test))) {
			if (sscanf(p, "%lld", &ep) == 1)
				it->begin = ep;
		} else if ((p = after_test(s, "test end :: ", t->test))) {
			if (sscanf(p, "%lld", &ep) == 1)
				it->end = ep;
		} else if ((p = after_test(s, "time :: ", t->test))) {
			char w1[16], w2[16], w3[16];

			if (sscanf(p, " %lf %15s %lf %15s %lf %15s", &u, w1,
				   &sy, w2, &e, w3) != 6 ||
			    strcmp(w1, "user") || strcmp(w2, "system") ||
			    strcmp(w3, "elapsed")) {
				import_close_member(t->ctx, it->timestamp, &in);
				return error("%s:%ld: expected 'time :: %s U "
					     "user S system E elapsed', got "
					     "'%.80s'", in.path, in.line,
					     t->test, s);
			}
			it->user = u;
			it->sys = sy;
			it->elapsed = e;
			it->have_time = 1;
			it->time_line = in.line;
		}
	}
	if (import_close_member(t->ctx, it->timestamp, &in) || r < 0)
		return -1;
	return 0;
}

/*
 * kernel.version: MMTests keeps `uname -a` there ("Linux <host>
 * <release> #1 SMP ..."): the release is the runs' kernel, the host their
 * machine.
 */
static int read_kernel_version(struct tree *t, struct iter *it)
{
	struct input in;
	int r;

	if (import_open_member(t->ctx, it->kernel_version, &in))
		return -1;
	r = input_getline(&in);
	if (r > 0) {
		char os[32];

		if (sscanf(in.sb.buf, "%31s %127s %127s", os, it->machine,
			   it->kernel) != 3 || strcmp(os, "Linux")) {
			it->machine[0] = it->kernel[0] = '\0';
			db_warn(t->ctx, in.line, "%s: expected `uname -a` "
				"output ('Linux <host> <release> ...'), got "
				"'%.60s'; no kernel or machine taken from it",
				in.path, in.sb.buf);
		}
	}
	if (import_close_member(t->ctx, it->kernel_version, &in) || r < 0)
		return -1;
	return 0;
}

static int emit_duration(struct tree *t, struct iter *it)
{
	if (!it->have_time)
		return 0;
	if (db_emit_source(t->ctx, it->timestamp->name))
		return -1;
	return iter_sample(t, "Duration", "User", "s", DIR_LOWER, it->user,
			   it->time_line) ||
	       iter_sample(t, "Duration", "System", "s", DIR_LOWER, it->sys,
			   it->time_line) ||
	       iter_sample(t, "Duration", "Elapsed", "s", DIR_LOWER,
			   it->elapsed, it->time_line) ? -1 : 0;
}

/* /proc/vmstat before and after the test, as MonitorMmtestsvmstat reads. */
struct vmsnap {
	struct strmap before, after;	/* name -> index into v */
	double *v;
	size_t nr, alloc;
};

static void snap_set(struct vmsnap *s, struct strmap *m, const char *key,
		     size_t len, double v)
{
	int64_t idx;

	if (strmap_get(m, key, len, &idx)) {
		s->v[idx] = v;
		return;
	}
	ALLOC_GROW(s->v, s->nr + 1, s->alloc);
	s->v[s->nr] = v;
	strmap_put(m, key, len, (int64_t)s->nr++);
}

static int snap_has(struct strmap *m, const char *key)
{
	int64_t idx;

	return strmap_get(m, key, strlen(key), &idx);
}

/* after - before of key; 0 when the after snapshot lacks it */
static double delta(struct vmsnap *s, const char *key)
{
	int64_t a, b;

	if (!strmap_get(&s->after, key, strlen(key), &a))
		return 0;
	return s->v[a] - (strmap_get(&s->before, key, strlen(key), &b) ?
			  s->v[b] : 0);
}

static double sum_deltas(struct vmsnap *s, const char *prefix,
			 const char *const *suffix, size_t n)
{
	char key[96];
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "%s%s", prefix, suffix[i]);
		sum += delta(s, key);
	}
	return sum;
}

/* MMTests' renames, applied as the lines are read (§10). */
static const char *renamed(const char *key, size_t len, size_t *out_len)
{
	static const struct { const char *from, *to; } tab[] = {
		{ "allocstall_dma", "allocstall" },
		{ "allocstall_dma32", "allocstall" },
		{ "allocstall_normal", "allocstall" },
		{ "allocstall_movable", "allocstall" },
		{ "allocstall_highmem", "allocstall" },
		{ "thp_split", "thp_split_page" },
		{ "thp_failed", "thp_split_page_failed" },
		{ "compact_pages_moved", "pgmigrate_success" },
		{ "compact_pagemigrate_failed", "pgmigrate_failed" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (strlen(tab[i].from) == len &&
		    !memcmp(tab[i].from, key, len)) {
			*out_len = strlen(tab[i].to);
			return tab[i].to;
		}
	*out_len = len;
	return key;
}

/*
 * The Ops table (research/mmtests-2020-extractors.md §10), in MMTests'
 * order, from the deltas.
 */
static int emit_ops(struct tree *t, struct vmsnap *s, double elapsed,
		    long line)
{
	static const char *const zones[] = { "_dma", "_dma32", "_normal",
					     "_movable", "_high", "" };
	static const char *const zones2[] = { "_dma", "_dma32", "_normal",
					      "_high", "_movable", "" };
	double minor = delta(s, "pgfault") - delta(s, "pgmajfault");
	double dscan, kscan, ksteal, dsteal, cstall, csucc, mscan, fscan;
	double hint, hint_local, v;
	struct { const char *row; double v; int undefined; } rows[64];
	size_t n = 0, i;

#define ROW(label, value) do { rows[n].row = (label); rows[n].v = (value); \
			       rows[n++].undefined = 0; } while (0)
	dscan = sum_deltas(s, "pgscan_direct", zones, ARRAY_SIZE(zones));
	kscan = sum_deltas(s, "pgscan_kswapd", zones, ARRAY_SIZE(zones));
	ksteal = delta(s, "kswapd_steal") +
		 sum_deltas(s, "pgsteal_kswapd", zones2, ARRAY_SIZE(zones2));
	dsteal = sum_deltas(s, "pgsteal", zones, ARRAY_SIZE(zones) - 1) +
		 sum_deltas(s, "pgsteal_direct", zones, ARRAY_SIZE(zones));
	if (snap_has(&s->after, "kswapd_steal"))
		dsteal -= delta(s, "kswapd_steal");
	ROW("Minor Faults", minor);
	ROW("Major Faults", delta(s, "pgmajfault"));
	ROW("Swap Ins", delta(s, "pswpin"));
	ROW("Swap Outs", delta(s, "pswpout"));
	ROW("Allocation stalls", delta(s, "allocstall"));
	ROW("Fragmentation stalls", delta(s, "fragment_stall"));
	ROW("DMA allocs", delta(s, "pgalloc_dma"));
	ROW("DMA32 allocs", delta(s, "pgalloc_dma32"));
	ROW("Normal allocs", delta(s, "pgalloc_normal"));
	ROW("Movable allocs", delta(s, "pgalloc_movable"));
	ROW("Direct pages scanned", dscan);
	ROW("Kswapd pages scanned", kscan);
	ROW("Kswapd pages reclaimed", ksteal);
	ROW("Direct pages reclaimed", dsteal);
	ROW("Kswapd efficiency %", kscan ? ksteal * 100 / kscan : 100);
	ROW("Kswapd velocity", kscan / elapsed);
	ROW("Direct efficiency %", dscan ? dsteal * 100 / dscan : 100);
	ROW("Direct velocity", dscan / elapsed);
	ROW("Percentage direct scans", kscan + dscan ?
	    dscan * 100 / (kscan + dscan) : 0);
	ROW("Page writes by reclaim", delta(s, "nr_vmscan_write"));
	ROW("Page writes file", delta(s, "nr_vmscan_write") -
	    delta(s, "pswpout"));
	ROW("Page writes anon", delta(s, "pswpout"));
	ROW("Page reclaim immediate", delta(s, "nr_vmscan_immediate_reclaim"));
	ROW("Sector Reads", delta(s, "pgpgin"));
	ROW("Sector Writes", delta(s, "pgpgout"));
	ROW("Page rescued immediate", delta(s, "pgrescued"));
	ROW("Slabs scanned", delta(s, "slabs_scanned"));
	ROW("Direct inode steals", delta(s, "pginodesteal"));
	ROW("Kswapd inode steals", delta(s, "kswapd_inodesteal"));
	ROW("Kswapd skipped wait", delta(s, "kswapd_skip_congestion_wait"));
	ROW("THP fault alloc", delta(s, "thp_fault_alloc"));
	ROW("THP fault fallback", delta(s, "thp_fault_fallback"));
	ROW("THP collapse alloc", delta(s, "thp_collapse_alloc"));
	ROW("THP collapse fail", delta(s, "thp_collapse_alloc_failed"));
	ROW("THP split", delta(s, "thp_split_page"));
	ROW("THP split failed", delta(s, "thp_split_page_failed"));
	cstall = delta(s, "compact_stall");
	csucc = delta(s, "compact_success");
	ROW("Compaction stalls", cstall);
	ROW("Compaction success", csucc);
	ROW("Compaction failures", delta(s, "compact_fail"));
	/* undefined when nothing stalled: MMTests prints 0.00 */
	ROW("Compaction efficiency", cstall ? csucc * 100 / cstall : 0);
	ROW("Page migrate success", delta(s, "pgmigrate_success"));
	ROW("Page migrate failure", delta(s, "pgmigrate_fail"));
	mscan = delta(s, "compact_migrate_scanned");
	fscan = delta(s, "compact_free_scanned");
	ROW("Compaction pages isolated", delta(s, "compact_isolated"));
	ROW("Compaction migrate scanned", mscan);
	ROW("Compaction free scanned", fscan);
	ROW("Compact scan efficiency", !mscan ? 0 : mscan * 100 /
	    (fscan ? fscan : 1));
	v = snap_has(&s->before, "compact_migrate_scanned") ?
	    (7 * mscan + 19 * delta(s, "compact_isolated") +
	     1038 * delta(s, "pgmigrate_success") +
	     14 * delta(s, "pgmigrate_fail")) / 1e6 : -1 / 1e6;
	ROW("Compaction cost", v);
	ROW("Kcompactd wake", delta(s, "compact_daemon_wake"));
	ROW("Kcompactd migrate scanned",
	    delta(s, "compact_daemon_migrate_scanned"));
	ROW("Kcompactd free scanned", delta(s, "compact_daemon_free_scanned"));
	ROW("NUMA alloc hit", delta(s, "numa_hit"));
	ROW("NUMA alloc miss", delta(s, "numa_miss"));
	ROW("NUMA interleave hit", delta(s, "numa_interleave"));
	ROW("NUMA alloc local", delta(s, "numa_local"));
	ROW("NUMA base-page range updates", delta(s, "numa_pte_updates"));
	ROW("NUMA PTE updates", delta(s, "numa_pte_updates") -
	    512 * delta(s, "numa_huge_pte_updates"));
	ROW("NUMA PMD updates", delta(s, "numa_huge_pte_updates"));
	hint = delta(s, "numa_hint_faults");
	hint_local = delta(s, "numa_hint_faults_local");
	ROW("NUMA hint faults", hint);
	/* MMTests prints the count under a "%" label */
	ROW("NUMA hint local faults %", hint_local);
	ROW("NUMA hint local percent", hint ? hint_local * 100 / hint : 100);
	ROW("NUMA pages migrated", delta(s, "numa_pages_migrated"));
	ROW("AutoNUMA cost", (7 * delta(s, "numa_pte_updates") +
			      5000 * hint +
			      19 * delta(s, "numa_pages_migrated")) / 1e6);
#undef ROW
	if (n > ARRAY_SIZE(rows))
		BUG("Ops rows");
	for (i = 0; i < n; i++)
		if (iter_sample(t, "Ops", rows[i].row, NULL, DIR_HIGHER,
				rows[i].v, line))
			return -1;
	return 0;
}

/*
 * tests-sysstate: the test's block, its /proc/vmstat before and after
 * fed to the procfs parser as two `time:` records (series of counters
 * under "mmtests-sysstate."), and the Ops table.
 */
static int read_sysstate(struct tree *t, struct iter *it)
{
	enum { OUT, TEST, BEFORE, AFTER } where = OUT;
	struct vmsnap s = { STRMAP_INIT, STRMAP_INIT, NULL, 0, 0 };
	struct procfs *pf = NULL;
	struct sbuf rec = SBUF_INIT;
	struct input in;
	long block_line = 0, nbefore = 0, nafter = 0;
	int r, ret = -1;

	if (import_open_member(t->ctx, it->sysstate, &in))
		return -1;
	t->ctx->nested++;
	pf = procfs_feed_new(t->ctx, in.path, "mmtests-sysstate.");
	while ((r = input_getline(&in)) > 0) {
		const char *l = in.sb.buf;

		if (where == OUT) {
			if (after_test(l, "test begin :: ", t->test)) {
				where = TEST;
				block_line = in.line;
			}
			continue;
		}
		if (after_test(l, "test end :: ", t->test))
			break;
		if (!strcmp(l, "file start :: /proc/vmstat") ||
		    !strcmp(l, "file end :: /proc/vmstat")) {
			int before = l[5] == 's';

			where = before ? BEFORE : AFTER;
			sbuf_reset(&rec);
			sbuf_addf(&rec, "time: %lld", (long long)(before ?
				  it->begin : (it->end ? it->end :
					       it->begin)));
			if (procfs_feed_line(pf, &rec, in.line))
				goto out;
			continue;
		}
		if (starts_with(l, "file start :: ") ||
		    starts_with(l, "file end :: ")) {
			where = TEST;
			continue;
		}
		if (where == BEFORE || where == AFTER) {
			const char *sp = strchr(l, ' ');
			const char *key;
			size_t klen;
			char *end;
			double v;

			if (!sp || sp == l || !*(sp + 1) ||
			    (v = strtod(sp + 1, &end), *end)) {
				error("%s:%ld: expected a /proc/vmstat line "
				      "'name value', got '%.60s'", in.path,
				      in.line, l);
				goto out;
			}
			key = renamed(l, (size_t)(sp - l), &klen);
			snap_set(&s, where == BEFORE ? &s.before : &s.after,
				 key, klen, v);
			if (where == BEFORE)
				nbefore++;
			else
				nafter++;
			if (procfs_feed_line(pf, &in.sb, in.line))
				goto out;
		}
	}
	if (r < 0)
		goto out;
	if (where == OUT) {
		/* MMTests' plain file may hold only "status :: 0" */
		db_warn(t->ctx, 0, "no 'test begin :: %s' block: no Ops table "
			"for %s", t->test, it->prefix);
		ret = 0;
		goto out;
	}
	if (!nbefore || !nafter) {
		error("%s:%ld: expected /proc/vmstat before and after the test "
		      "in its block, got %s", in.path, block_line,
		      !nbefore && !nafter ? "neither" : nbefore ? "no after" :
		      "no before");
		goto out;
	}
	r = procfs_feed_end(pf, 1);
	pf = NULL;
	if (r)
		goto out;
	ret = emit_ops(t, &s, it->have_time && it->elapsed > 0 ?
		       it->elapsed : 1, block_line);
out:
	if (pf)
		procfs_feed_end(pf, 0);
	t->ctx->nested--;
	if (import_close_member(t->ctx, it->sysstate, &in))
		ret = -1;
	strmap_clear(&s.before);
	strmap_clear(&s.after);
	free(s.v);
	sbuf_release(&rec);
	return ret;
}

/*
 * The vmstat monitor: `vmstat -n` through MMTests' latency-output,
 * "<epoch> <offset> <delta> -- r b swpd free ...": series under lkp's
 * names, gauges.
 */
static int read_vmstat(struct tree *t, const struct member *m)
{
	static const char *const cols[] = {
		"vmstat.procs.r", "vmstat.procs.b", "vmstat.memory.swpd",
		"vmstat.memory.free", "vmstat.memory.buff",
		"vmstat.memory.cache", "vmstat.swap.si", "vmstat.swap.so",
		"vmstat.io.bi", "vmstat.io.bo", "vmstat.system.in",
		"vmstat.system.cs", "vmstat.cpu.us", "vmstat.cpu.sy",
		"vmstat.cpu.id", "vmstat.cpu.wa", "vmstat.cpu.st",
		"vmstat.cpu.gu",
	};
	int64_t id[ARRAY_SIZE(cols)] = { 0 };
	struct input in;
	int r, ret = -1;

	if (import_open_member(t->ctx, m, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p = in.sb.buf, *dd = strstr(p, " -- ");
		double ep, v;
		size_t i = 0;

		str_skip_blanks(&p);
		if (!*p)
			continue;
		if (!dd || str_double(&p, &ep)) {
			error("%s:%ld: expected '<epoch> <offset> <delta> -- "
			      "<vmstat columns>', got '%.60s'", in.path,
			      in.line, in.sb.buf);
			goto out;
		}
		p = dd + 4;
		str_skip_blanks(&p);
		if (!isdigit((unsigned char)*p))
			continue;	/* a header vmstat repeated */
		while (*p && i < ARRAY_SIZE(cols)) {
			if (str_double(&p, &v)) {
				error("%s:%ld: expected a number in column %zu,"
				      " got '%.20s'", in.path, in.line, i + 1,
				      p);
				goto out;
			}
			if (!id[i] && db_metric(t->ctx, cols[i], NULL,
						MK_GAUGE, in.line, &id[i]))
				goto out;
			if (db_emit_series_id(t->ctx, id[i], ep, v, in.line))
				goto out;
			i++;
			str_skip_blanks(&p);
		}
	}
	ret = r < 0 ? -1 : 0;
out:
	if (import_close_member(t->ctx, m, &in))
		ret = -1;
	return ret;
}

/* Drop ANSI SGR sequences (ESC [ ... m) from a line, in place. */
static void strip_ansi(struct sbuf *sb)
{
	size_t i, o = 0;

	for (i = 0; i < sb->len; i++) {
		if (sb->buf[i] == '\x1b' && i + 1 < sb->len &&
		    sb->buf[i + 1] == '[') {
			size_t j = i + 2;

			while (j < sb->len && (isdigit((unsigned char)sb->buf[j])
					       || sb->buf[j] == ';'))
				j++;
			if (j < sb->len && sb->buf[j] == 'm') {
				i = j;
				continue;
			}
		}
		sb->buf[o++] = sb->buf[i];
	}
	sbuf_setlen(sb, o);
}

/*
 * The iostat monitor (`iostat -x` behind the same prefix): blocks of
 * "avg-cpu:" and "Device" header lines, each followed by rows; series
 * iostat.cpu.<column> and iostat.<device>.<column>, columns as iostat
 * names them (r/s, w_await, %util), gauges.  The first block is
 * iostat's average since boot, kept as the first point, as vmstat's.
 */
static int read_iostat(struct tree *t, const struct member *m)
{
	char cols[32][24];
	size_t nr_cols = 0;
	int cpu = 0;
	struct input in;
	struct sbuf name = SBUF_INIT;
	int r, ret = -1;

	if (import_open_member(t->ctx, m, &in))
		return -1;
	while ((r = input_getline(&in)) > 0) {
		const char *p, *dd;
		char dev[64];
		double ep, v;
		size_t i, n;

		/* iostat colours its numbers when S_COLORS says so */
		strip_ansi(&in.sb);
		p = in.sb.buf;
		dd = strstr(p, " -- ");
		str_skip_blanks(&p);
		if (!*p)
			continue;
		if (!dd || str_double(&p, &ep)) {
			error("%s:%ld: expected '<epoch> <offset> <delta> -- "
			      "<iostat line>', got '%.60s'", in.path, in.line,
			      in.sb.buf);
			goto out;
		}
		p = dd + 4;
		str_skip_blanks(&p);
		if (!*p) {
			nr_cols = 0;
			continue;
		}
		if (starts_with(p, "avg-cpu:") || starts_with(p, "Device")) {
			cpu = p[0] == 'a';
			p += cpu ? 8 : 6;
			if (*p == ':')
				p++;
			for (nr_cols = 0; nr_cols < ARRAY_SIZE(cols); ) {
				str_skip_blanks(&p);
				n = strcspn(p, " \t");
				if (!n)
					break;
				if (n >= sizeof(cols[0]))
					n = sizeof(cols[0]) - 1;
				memcpy(cols[nr_cols], p, n);
				cols[nr_cols++][n] = '\0';
				p += strcspn(p, " \t");
			}
			continue;
		}
		if (!nr_cols)
			continue;	/* iostat's banner line */
		if (cpu) {
			snprintf(dev, sizeof(dev), "cpu");
		} else {
			n = strcspn(p, " \t");
			snprintf(dev, sizeof(dev), "%.*s", (int)n, p);
			p += n;
		}
		for (i = 0; i < nr_cols; i++) {
			str_skip_blanks(&p);
			if (!*p)
				break;
			if (str_double(&p, &v)) {
				error("%s:%ld: expected a number under '%s', "
				      "got '%.20s'", in.path, in.line, cols[i],
				      p);
				goto out;
			}
			sbuf_reset(&name);
			sbuf_addf(&name, "iostat.%s.%s", dev, cols[i]);
			if (db_emit_series(t->ctx, name.buf, NULL, MK_GAUGE, ep,
					   v, in.line))
				goto out;
		}
	}
	ret = r < 0 ? -1 : 0;
out:
	sbuf_release(&name);
	if (import_close_member(t->ctx, m, &in))
		ret = -1;
	return ret;
}

/* The iteration's own files: after the values of its first run. */
static int iter_files(struct tree *t, struct iter *it)
{
	const char *keep = t->ctx->path;
	int ret = -1;

	if (emit_duration(t, it))
		goto out;
	if (it->sysstate) {
		t->ctx->path = it->sysstate->path;
		if (read_sysstate(t, it))
			goto out;
	}
	if (it->proc_vmstat &&
	    import_nested(t->ctx, "procfs", it->proc_vmstat) < 0)
		goto out;
	if (it->vmstat) {
		t->ctx->path = it->vmstat->path;
		if (read_vmstat(t, it->vmstat))
			goto out;
	}
	if (it->iostat) {
		t->ctx->path = it->iostat->path;
		if (read_iostat(t, it->iostat))
			goto out;
	}
	ret = 0;
out:
	t->ctx->path = keep;
	return ret;
}

/* ---- writing an iteration ---- */

static int cmp_val_rep(const void *a, const void *b)
{
	const struct mmx_val *x = a, *y = b;

	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	/* stable: the order reported */
	return x < y ? -1 : x > y;
}

static const char *summary_of(const struct mmtests_extractor *ex)
{
	static char buf[96];

	switch (ex->summary) {
	case MMX_MULTIOPS:
		return "Multiops";
	case MMX_SINGLEOPS:
		snprintf(buf, sizeof(buf), "Singleops:%s", ex->label);
		return buf;
	case MMX_SINGLEOPS_MEAN:
		snprintf(buf, sizeof(buf), "Singleops-mean:%s", ex->label);
		return buf;
	}
	return NULL;
}

static int write_iteration(struct tree *t, struct mmx *x, struct iter *it,
			   const char *label)
{
	struct run_desc rd = {
		.suite = "mmtests", .testcase = t->test, .label = label,
		.kernel = it->kernel, .machine = it->machine,
		.iteration = -1, .start_time = it->begin,
	};
	size_t i, j, k;
	int first = 1;

	/* stable by repetition: each repetition one run */
	qsort(x->val, x->nr_val, sizeof(*x->val), cmp_val_rep);
	for (i = 0; i < x->nr_val; i = j) {
		for (j = i; j < x->nr_val && x->val[j].rep == x->val[i].rep;
		     j++)
			;
		if (db_emit_run(t->ctx, &rd, x->val[i].line))
			return -1;
		for (k = i; k < j; k++) {
			const struct mmx_val *v = &x->val[k];
			const struct mmx_op *op = &x->ops[v->op];

			metric_name(&t->name, t->test, op->name);
			t->ctx->source_id = v->source;
			if (state(t, t->name.buf, x->ex->unit, op->direction,
				  summary_of(x->ex), (long)v->op, v->line))
				return -1;
			if (isnan(v->t)) {
				int r = db_emit_sample(t->ctx, t->name.buf,
						       x->ex->unit, v->v,
						       v->line);

				if (r)
					return r;
			} else if (db_emit_series(t->ctx, t->name.buf,
						  x->ex->unit, MK_GAUGE, v->t,
						  v->v, v->line)) {
				return -1;
			}
		}
		if (first && iter_files(t, it))
			return -1;
		first = 0;
	}
	return 0;
}

/*
 * A value of a run given twice (t NAN): MMTests would pool both; a
 * run has one value of a metric, so this is an extractor's or a log's
 * error.  Checked before anything is written.
 */
static int check_twice(struct mmx *x)
{
	struct strmap seen = STRMAP_INIT;
	size_t i;
	int ret = 0;

	for (i = 0; i < x->nr_val && !ret; i++) {
		struct { size_t op; long rep; } key;
		int64_t prev;

		if (!isnan(x->val[i].t))
			continue;
		memset(&key, 0, sizeof(key));
		key.op = x->val[i].op;
		key.rep = x->val[i].rep;
		if (strmap_get(&seen, (const char *)&key, sizeof(key), &prev))
			ret = error("%s:%ld: a second value of %s for repetition "
				    "%ld (the first at %s:%ld)", x->val[i].file,
				    x->val[i].line, x->ops[key.op].name, key.rep,
				    x->val[prev].file, x->val[prev].line);
		else
			strmap_put(&seen, (const char *)&key, sizeof(key),
				   (int64_t)i);
	}
	strmap_clear(&seen);
	return ret;
}

/* ---- the tree ---- */

static const char *base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

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

		if (cur->timestamp && read_timestamp(&t, cur))
			goto out;
		if (cur->kernel_version && read_kernel_version(&t, cur))
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
		if (check_twice(&x))
			goto out;
		if (write_iteration(&t, &x, cur, label))
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
		fprintf(out, "# summary: %s\n", summary_of(x.ex));
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

	fprintf(f, "    %-14s extractors:", "");
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
