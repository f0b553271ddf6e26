/*
 * The lkp-tree importer: claims one lkp-tests run directory as one result
 * and emits one run for it, named from the path and job.yaml, with the
 * samples of its stats.json, or, without stats.json, those our own fio
 * and procfs importers derive from the raw files lkp left there.
 */
#include "core/compat.h"
#include <ctype.h>
#include <jansson.h>
#include <yaml.h>
#include "core/input.h"
#include "core/sbuf.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"

/*
 * How the layout was worked out: from lkp-tests' own code
 * (research/lkp.md §2; lib/result.rb PATH_SCHEME, lib/matrix.rb
 * create_stats_matrix and unite_to, lib/job.rb each_param, sbin/dump-stat,
 * programs/{fio,meminfo,zoneinfo}/parse), from the spec fixtures in
 * samples/lkp, and by rebuilding a tree the way lkp lays it out
 * (tests/fixtures/lkp-tree/make-tree.sh, whose reduce.py does lkp's
 * reduction; t2300 checks both routes against it).
 *
 * What is claimed.  A run directory (RESULT_ROOT):
 *   .../<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/
 *       <compiler>/<commit>/<run>/
 * holding job.yaml or stats.json (score 90; also, in a run-shaped path,
 * when either is there as a FIFO, a directory or a device, which
 * parse_dir then refuses by name: left out of the member list, it would
 * import as a run without samples), or, copied before lkp processed it,
 * only raw files: a test output we can read (fio.output) or lkp
 * monitors (proc-vmstat, zoneinfo, meminfo; gzipped as lkp does), under
 * a numeric run directory deep enough for the layout (score 60 or 40).
 * The commit level and the one above it hold matrix.json, avg.json and
 * stddev.json: lkp's derived views over the runs, never claimed (the
 * driver descends into the run directories, which are).
 *
 * The run.  The last 8 path components give testcase, path_params,
 * tbox_group (the machine), rootfs, kconfig, compiler, commit, run.  The
 * commit level is a 40-hex sha in robot trees; local runs put a kernel
 * release there (`uname -r`, "5.14.6-v5.14"), which then is the run's
 * kernel, not its commit.  Anything else there means the path lacks the
 * commit level, and the run directory is refused: guessing would file
 * the run under a wrong commit.  A numeric run directory gives the
 * iteration, so that a re-imported run replaces its old self.
 *
 * The path wins over job.yaml: it is where lkp filed the result and what
 * its compare reads (ResultPath parses the path, not the job).  job.yaml's
 * testcase, tbox_group, commit, kconfig, compiler and rootfs (its file
 * name: lkp's rootfs_filename()) are checked against the path and a
 * disagreement is warned about.
 *
 * Params.  rootfs, kconfig and compiler always (as rootfs=, kconfig=,
 * compiler=), so that runs of different builds never merge.  Then what
 * job.yaml says about the workload.  lkp's own rule (lib/job.rb
 * each_param) takes every option of the setup/tests/daemon programs the
 * job names, wherever it sits, and needs lkp's program catalogue to know
 * them.  Without it we take:
 *   - the scalar children of every top-level mapping that is not a
 *     monitor's (monitor_sections[]): the test's own sections
 *     ("fio-setup-basic:", "pmbench:") and setup sections ("fs:");
 *   - every top-level scalar that is not lkp bookkeeping.
 * Bookkeeping is what differs between runs or commits of one job, or
 * describes the machine or the queue: identity keys (testcase, commit,
 * ...), the names in job_skip[], the families in job_skip_prefix[] and
 * job_skip_suffix[], any value that is a path ("/..."), and any value
 * holding the run's commit (kernel paths, bootloader lines).  Keys that
 * start with ':' or '#' are lkp's source markers; null values are
 * monitors and programs without options; sequences are left out (in a
 * result's job.yaml they are boot and kconfig lists, never a workload
 * dimension, which lkp expands before the run).  The rule errs on the
 * side of a param too many: a bookkeeping key we do not know splits
 * variants loudly (compare finds nothing to line up), while a workload
 * key left out would merge different workloads silently.
 * Without job.yaml, params are rootfs, kconfig, compiler and
 * path_params=<the path_params level>, lkp's own summary of the params.
 *
 * Samples.  stats.json is lkp's reduction of the run and wins: every
 * numeric key becomes a sample under its own name, derive_samples is
 * turned off, and the monitors are still handed to the procfs importer
 * so that their time series are kept.  lkp saves JSON with
 * allow_nan: true, so bare NaN and Infinity are read as non-numeric
 * values (skipped and counted, like strings, booleans, arrays and null).
 * Without stats.json, the member that an importer names in its
 * lkp_names goes to it: fio.output (fio's JSON) to the fio importer, the
 * monitors to procfs and vmstat-tool, and the store reduces the
 * series at the end of the run (counter: last - first, gauge: mean), as
 * lkp's create_stats_matrix does.  Differences between the two routes
 * are listed in docs/lkp-tree.md.
 */

enum level {
	LV_TESTCASE, LV_PATH_PARAMS, LV_TBOX_GROUP, LV_ROOTFS, LV_KCONFIG,
	LV_COMPILER, LV_COMMIT, LV_RUN, NR_LEVELS,
};

static const char *const level_names[NR_LEVELS] = {
	"testcase", "path_params", "tbox_group", "rootfs", "kconfig",
	"compiler", "commit", "run",
};

#define LAYOUT "<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/" \
	"<compiler>/<commit>/<run>/"

/* Members that only a run directory of lkp's has, besides the routes. */
static const char *const raw_markers[] = {
	"time", "job.sh", "reproduce.sh", "program_list", "last_state",
};

/* Top-level mappings that hold a monitor's options, not the workload's. */
static const char *const monitor_sections[] = {
	"boot-time", "buddyinfo", "cpufreq-stats", "cpuidle", "diskstats",
	"energy", "ftrace", "heartbeat", "interrupts", "iostat", "kmsg",
	"latency_stats", "lock_stat", "meminfo", "mpstat", "numa-meminfo",
	"numa-numastat", "numa-vmstat", "pagetypeinfo", "perf-c2c",
	"perf-profile", "perf-sched", "perf-stat", "pmeter", "proc-stat",
	"proc-vmstat", "sched_debug", "slabinfo", "softirqs", "top",
	"turbostat", "uptime", "vmstat", "zoneinfo",
};

/* job.yaml keys read for the cross-check: never params. */
enum ident {
	ID_TESTCASE, ID_TBOX_GROUP, ID_ROOTFS, ID_KCONFIG, ID_COMPILER,
	ID_COMMIT, NR_IDENTS,
};

static const struct {
	const char *key;
	enum level level;
} idents[NR_IDENTS] = {
	{ "testcase", LV_TESTCASE },
	{ "tbox_group", LV_TBOX_GROUP },
	{ "rootfs", LV_ROOTFS },
	{ "kconfig", LV_KCONFIG },
	{ "compiler", LV_COMPILER },
	{ "commit", LV_COMMIT },
};

/* lkp bookkeeping in job.yaml (robot and local runs): never params. */
static const char *const job_skip[] = {
	"arch", "base_commit", "bootloader_append", "branch", "brand",
	"category", "cpu_info", "dequeue_time", "enqueue_time", "head_commit",
	"hostname", "id", "initrd", "ipmi_ip", "job_file", "job_origin",
	"kernel", "kernel_cmdline", "kernel_cmdline_hw", "last_kernel",
	"local_run", "mac_addr", "max_uptime", "memory", "model", "nr_cpu",
	"nr_node", "queue", "queue_at_least_once", "queue_cmdline_keys",
	"repeat_to", "result_root", "rootfs_partition",
	"schedule_notify_address", "site", "submit_id", "suite", "testbox",
	"timeout", "ucode", "user", "uuid", "vmlinuz",
};

static const char *const job_skip_prefix[] = {
	"_", ":", "#", "LKP_", "need_", "kbuild_",
};

static const char *const job_skip_suffix[] = {
	"_initrd", "_partitions", "_version", "_commit",
};

struct param {
	char *key, *value;	/* owned */
};

struct param_list {
	struct param *v;	/* owned */
	size_t nr, alloc;
};

/* What job.yaml says about the run. */
struct job_info {
	int present;
	struct param_list params;
	char *ident[NR_IDENTS];		/* owned; NULL if absent */
	long ident_line[NR_IDENTS];
};

struct lkp_run {
	char *level[NR_LEVELS];		/* owned path components */
	int is_commit;			/* level[LV_COMMIT] is a sha */
	long run;			/* -1 if not a number */
};

static int in_list(const char *s, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

static const struct member *find_member(const struct member *m, size_t nr,
					const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

static int is_sha(const char *s)
{
	size_t n = 0;

	for (; *s; s++, n++)
		if (!isxdigit((unsigned char)*s))
			return 0;
	return n == 40;
}

/* uname -r: "5.14.6-v5.14", "6.2.0-rc5-00021-g1234abcd", "6.8.0". */
static int is_kernel_release(const char *s)
{
	long v;

	return !str_long(&s, &v) && v >= 0 && !str_expect(&s, '.') &&
	       isdigit((unsigned char)*s);
}

static int is_number(const char *s, long *out)
{
	const char *p = s;

	if (!isdigit((unsigned char)*p) || str_long(&p, out) || *p)
		return 0;
	return 1;
}

/*
 * The last NR_LEVELS components of dir into level[] (owned copies, in
 * path order: level[LV_TESTCASE] first), ignoring empty and "."
 * components.  Returns how many components dir has; if fewer than
 * NR_LEVELS, every level[] is NULL.
 */
static size_t split_levels(const char *dir, char *level[NR_LEVELS])
{
	const char *comp[NR_LEVELS];
	size_t len[NR_LEVELS];
	size_t n = 0, i;
	const char *p = dir;

	while (*p) {
		const char *e = strchrnul(p, '/');

		if (e > p && !(e - p == 1 && *p == '.')) {
			/* keep the last NR_LEVELS: a ring */
			comp[n % NR_LEVELS] = p;
			len[n % NR_LEVELS] = (size_t)(e - p);
			n++;
		}
		p = *e ? e + 1 : e;
	}
	for (i = 0; i < NR_LEVELS; i++)
		level[i] = NULL;
	if (n < NR_LEVELS)
		return n;
	for (i = 0; i < NR_LEVELS; i++) {
		size_t k = (n - NR_LEVELS + i) % NR_LEVELS;

		level[i] = xstrndup(comp[k], len[k]);
	}
	return n;
}

static void lkp_run_release(struct lkp_run *r)
{
	int i;

	for (i = 0; i < NR_LEVELS; i++)
		free(r->level[i]);
}

static int parse_path(struct lkp_run *r, const char *dir)
{
	const char *c;

	memset(r, 0, sizeof(*r));
	if (split_levels(dir, r->level) < NR_LEVELS)
		return error("%s: missing its commit level: an lkp run "
			     "directory is .../" LAYOUT, dir);
	c = r->level[LV_COMMIT];
	if (is_sha(c))
		r->is_commit = 1;
	else if (!is_kernel_release(c))
		return error("%s: missing its commit level: '%s' is neither a "
			     "40-hex commit nor a kernel release (expected "
			     ".../" LAYOUT ")", dir, c);
	if (!is_number(r->level[LV_RUN], &r->run))
		r->run = -1;
	return 0;
}

/* ---- job.yaml ---- */

static void param_add(struct param_list *l, const char *key, size_t klen,
		      const char *value, size_t vlen)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].key = xstrndup(key, klen);
	l->v[l->nr].value = xstrndup(value, vlen);
	l->nr++;
}

static void param_list_release(struct param_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].key);
		free(l->v[i].value);
	}
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

static void job_info_release(struct job_info *j)
{
	int i;

	param_list_release(&j->params);
	for (i = 0; i < NR_IDENTS; i++)
		free(j->ident[i]);
}

static const char *scalar(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* A plain empty, "~" or "null" scalar: YAML's null. */
static int is_null(const yaml_node_t *n)
{
	const char *s = scalar(n);

	if (n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
	       !strcmp(s, "Null") || !strcmp(s, "NULL");
}

static int key_skipped(const char *key)
{
	size_t i, kl = strlen(key);

	if (in_list(key, job_skip, ARRAY_SIZE(job_skip)))
		return 1;
	for (i = 0; i < ARRAY_SIZE(job_skip_prefix); i++)
		if (starts_with(key, job_skip_prefix[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(job_skip_suffix); i++) {
		size_t sl = strlen(job_skip_suffix[i]);

		if (kl > sl && !strcmp(key + kl - sl, job_skip_suffix[i]))
			return 1;
	}
	return 0;
}

/* A value that is a path or names the run's commit: bookkeeping. */
static int value_skipped(const yaml_node_t *v, const struct lkp_run *r)
{
	const char *s = scalar(v);

	if (*s == '/')
		return 1;
	return r->is_commit && strstr(s, r->level[LV_COMMIT]);
}

/* Add key: value as a param if both are scalars and it is no bookkeeping. */
static void consider(struct job_info *j, const yaml_node_t *k,
		     const yaml_node_t *v, const struct lkp_run *r)
{
	if (k->type != YAML_SCALAR_NODE || v->type != YAML_SCALAR_NODE ||
	    is_null(v) || key_skipped(scalar(k)) || value_skipped(v, r))
		return;
	param_add(&j->params, scalar(k), k->data.scalar.length, scalar(v),
		  v->data.scalar.length);
}

static void section_params(struct job_info *j, yaml_document_t *doc,
			   const yaml_node_t *sec, const struct lkp_run *r)
{
	const yaml_node_pair_t *pr;

	for (pr = sec->data.mapping.pairs.start;
	     pr < sec->data.mapping.pairs.top; pr++)
		consider(j, yaml_document_get_node(doc, pr->key),
			 yaml_document_get_node(doc, pr->value), r);
}

static int job_walk(struct job_info *j, yaml_document_t *doc,
		    const struct member *m, const struct lkp_run *r)
{
	const yaml_node_t *root = yaml_document_get_root_node(doc);
	const yaml_node_pair_t *pr;

	if (!root)
		return error("%s: empty job.yaml, expected a mapping of job "
			     "keys", m->path);
	if (root->type != YAML_MAPPING_NODE)
		return error("%s:%lu: expected a mapping of job keys at the "
			     "top of job.yaml", m->path,
			     (unsigned long)root->start_mark.line + 1);
	for (pr = root->data.mapping.pairs.start;
	     pr < root->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = yaml_document_get_node(doc, pr->key);
		const yaml_node_t *v = yaml_document_get_node(doc, pr->value);
		const char *key;
		int i;

		if (!k || !v || k->type != YAML_SCALAR_NODE)
			continue;
		key = scalar(k);
		for (i = 0; i < NR_IDENTS; i++)
			if (!strcmp(key, idents[i].key))
				break;
		if (i < NR_IDENTS) {
			if (v->type == YAML_SCALAR_NODE && !is_null(v) &&
			    !j->ident[i]) {
				j->ident[i] = xstrdup(scalar(v));
				j->ident_line[i] = (long)k->start_mark.line + 1;
			}
			continue;
		}
		if (v->type == YAML_MAPPING_NODE) {
			if (!key_skipped(key) &&
			    !in_list(key, monitor_sections,
				     ARRAY_SIZE(monitor_sections)))
				section_params(j, doc, v, r);
		} else {
			consider(j, k, v, r);
		}
	}
	return 0;
}

/* Read a member we parse ourselves; it becomes the rows' provenance. */
static int read_member(struct import_ctx *ctx, const struct member *m,
		       struct sbuf *out)
{
	struct input in;
	int ret;

	if (import_open_member(ctx, m, &in))
		return -1;
	ret = input_read_all(&in, out);
	if (ret)
		input_close(&in);
	else
		ret = import_close_member(ctx, m, &in);
	return ret;
}

/* Parse job.yaml (libyaml's document API; the first document only). */
static int job_load(struct import_ctx *ctx, struct job_info *j,
		    const struct member *m, const struct lkp_run *r)
{
	struct sbuf sb = SBUF_INIT;
	yaml_parser_t parser;
	yaml_document_t doc;
	int ret = -1, have_doc = 0;

	if (read_member(ctx, m, &sb))
		goto out_sb;
	if (!yaml_parser_initialize(&parser)) {
		error("%s: cannot set up the YAML parser", m->path);
		goto out_sb;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)sb.buf,
				     sb.len);
	if (!yaml_parser_load(&parser, &doc)) {
		error("%s:%lu: not YAML: %s%s%s", m->path,
		      (unsigned long)parser.problem_mark.line + 1,
		      parser.problem ? parser.problem : "parse error",
		      parser.context ? " " : "",
		      parser.context ? parser.context : "");
		goto out;
	}
	have_doc = 1;
	j->present = 1;
	ret = job_walk(j, &doc, m, r);
out:
	if (have_doc)
		yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
out_sb:
	sbuf_release(&sb);
	return ret;
}

/* Warn where job.yaml disagrees with the path. */
static void job_check(struct import_ctx *ctx, const struct job_info *j,
		      const struct lkp_run *r, const struct member *m)
{
	const char *saved = ctx->path;
	int i;

	ctx->path = m->path;
	for (i = 0; i < NR_IDENTS; i++) {
		const char *want = r->level[idents[i].level];
		const char *got = j->ident[i];

		if (!got)
			continue;
		/* lkp files a rootfs under its file name (rootfs_filename) */
		if (i == ID_ROOTFS && strrchr(got, '/'))
			got = strrchr(got, '/') + 1;
		if (!strcmp(got, want))
			continue;
		db_warn(ctx, j->ident_line[i],
			"%s '%s' differs from the path's %s '%s'; the path "
			"wins", idents[i].key, got,
			level_names[idents[i].level], want);
	}
	ctx->path = saved;
}

/* ---- the run ---- */

static int emit_run(struct import_ctx *ctx, const struct lkp_run *r,
		    const struct job_info *j)
{
	static const enum level build[] = { LV_ROOTFS, LV_KCONFIG,
					    LV_COMPILER };
	struct run_desc rd;
	struct kv *kv;
	size_t nr = 0, i;
	int ret;

	kv = xcalloc(j->params.nr + ARRAY_SIZE(build) + 1, sizeof(*kv));
	/* job.yaml first: a key of the path's wins as a later duplicate */
	for (i = 0; i < j->params.nr; i++) {
		kv[nr].key = j->params.v[i].key;
		kv[nr].value = j->params.v[i].value;
		nr++;
	}
	if (!j->present) {
		kv[nr].key = level_names[LV_PATH_PARAMS];
		kv[nr].value = r->level[LV_PATH_PARAMS];
		nr++;
	}
	for (i = 0; i < ARRAY_SIZE(build); i++) {
		kv[nr].key = level_names[build[i]];
		kv[nr].value = r->level[build[i]];
		nr++;
	}

	memset(&rd, 0, sizeof(rd));
	rd.suite = "lkp";
	rd.testcase = r->level[LV_TESTCASE];
	rd.machine = r->level[LV_TBOX_GROUP];
	if (r->is_commit)
		rd.commit = r->level[LV_COMMIT];
	else
		rd.kernel = r->level[LV_COMMIT];
	rd.params = kv;
	rd.nr_params = nr;
	rd.iteration = r->run;
	ret = db_emit_run(ctx, &rd, 0);
	free(kv);
	return ret;
}

/* ---- stats.json ---- */

/*
 * Is stat key a quantity that cannot be negative: fio's (bandwidths,
 * rates, latencies, their percentiles) and the time(1) figures lkp
 * records for every test (*.time.*: seconds, faults, switches)?  A
 * negative one is damage, not a measurement.
 */
static int never_negative(const char *key)
{
	return starts_with(key, "fio.") || strstr(key, ".time.") != NULL;
}

/* The line of "key" in the JSON text (1 when not found as written). */
static long key_line(const char *text, size_t len, const char *key)
{
	char *pat = xstrfmt("\"%s\"", key);
	const char *at = memmem(text, len, pat, strlen(pat)), *p;
	long line = 1;

	free(pat);
	for (p = text; at && p < at; p++)
		line += *p == '\n';
	return line;
}

/*
 * lkp writes stats.json with allow_nan: true: a bare NaN, Infinity or
 * -Infinity outside a string, which JSON and jansson refuse.  Copy the
 * text with each of them turned into null (counted as non-numeric then).
 */
static void nan_to_null(const char *s, size_t len, struct sbuf *out)
{
	static const char *const words[] = { "-Infinity", "Infinity", "NaN" };
	int in_str = 0;
	size_t i, w;

	sbuf_grow(out, len);
	for (i = 0; i < len; i++) {
		if (in_str) {
			if (s[i] == '\\' && i + 1 < len)
				sbuf_addch(out, s[i++]);
			else if (s[i] == '"')
				in_str = 0;
			sbuf_addch(out, s[i]);
			continue;
		}
		if (s[i] == '"')
			in_str = 1;
		for (w = 0; w < ARRAY_SIZE(words); w++) {
			size_t wl = strlen(words[w]);

			if (len - i >= wl && !memcmp(s + i, words[w], wl))
				break;
		}
		if (w < ARRAY_SIZE(words)) {
			sbuf_addstr(out, "null");
			i += strlen(words[w]) - 1;
			continue;
		}
		sbuf_addch(out, s[i]);
	}
}

static int import_stats(struct import_ctx *ctx, const struct member *m)
{
	struct sbuf raw = SBUF_INIT, text = SBUF_INIT;
	const char *saved = ctx->path, *key, *first_bad = NULL;
	json_error_t jerr;
	json_t *root = NULL, *v;
	long bad = 0;
	int ret = -1;

	ctx->path = m->path;
	if (read_member(ctx, m, &raw))
		goto out;
	nan_to_null(raw.buf, raw.len, &text);
	/* as reals: a counter past 2^63 must not fail the whole file */
	/* a stat twice: an error, neither value guessed */
	root = json_loadb(text.buf, text.len, JSON_DECODE_ANY |
			  JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		error("%s:%d: invalid JSON: %s", m->path,
		      jerr.line > 0 ? jerr.line : 1, jerr.text);
		goto out;
	}
	if (!json_is_object(root)) {
		error("%s: expected a JSON object", m->path);
		goto out;
	}
	json_object_foreach(root, key, v) {
		if (!json_is_number(v)) {
			if (!bad++)
				first_bad = key;
			continue;
		}
		if (json_number_value(v) < 0 && never_negative(key)) {
			error("%s:%ld: '%s' is %g: it cannot be negative",
			      m->path, key_line(text.buf, text.len, key), key,
			      json_number_value(v));
			goto out;
		}
		if (db_emit_sample(ctx, key, NULL, json_number_value(v), 0))
			goto out;
	}
	if (bad)
		db_warn(ctx, 0, "skipped %ld non-numeric value%s (first: '%s')",
			bad, bad == 1 ? "" : "s", first_bad);
	ret = 0;
out:
	ctx->path = saved;
	json_decref(root);
	sbuf_release(&raw);
	sbuf_release(&text);
	return ret;
}

/* ---- the importer ---- */

/* The importer that reads the member called name, or NULL. */
static const struct importer *route_of(const char *name)
{
	const struct importer *const *imp;
	size_t i, nr, k;

	imp = importer_list(&nr);
	for (i = 0; i < nr; i++)
		for (k = 0; imp[i]->lkp_names && imp[i]->lkp_names[k]; k++)
			if (!strcmp(name, imp[i]->lkp_names[k]))
				return imp[i];
	return NULL;
}

/*
 * A member read only without stats.json, which holds its numbers (a
 * benchmark's output), or always: a monitor's time series are kept
 * either way.
 */
static int raw_only(const struct importer *imp)
{
	return !(imp->flags & IMP_SERIES);
}

/* Is the directory at least as deep as the layout, with a numeric run? */
static int run_shaped(const char *dir)
{
	char *level[NR_LEVELS];
	long run;
	int ok, i;

	if (split_levels(dir, level) < NR_LEVELS)
		return 0;
	ok = is_number(level[LV_RUN], &run) &&
	     (is_sha(level[LV_COMMIT]) || is_kernel_release(level[LV_COMMIT]));
	for (i = 0; i < NR_LEVELS; i++)
		free(level[i]);
	return ok;
}

static int lkp_tree_detect_dir(const char *dir, const struct member *m, size_t nr)
{
	int test_output = 0, monitors = 0, markers = 0;
	size_t i;

	/* lkp's derived views over runs (commit and compiler levels) */
	if (find_member(m, nr, "avg.json") || find_member(m, nr, "stddev.json"))
		return 0;
	if (find_member(m, nr, "job.yaml") || find_member(m, nr, "stats.json"))
		return 90;
	/* there, but no regular file: claimed, for parse_dir to say so */
	if ((member_present(dir, "job.yaml") ||
	     member_present(dir, "stats.json")) && run_shaped(dir))
		return 90;
	for (i = 0; i < nr; i++) {
		const struct importer *to = route_of(m[i].name);

		if (to && raw_only(to))
			test_output++;
		else if (to)
			monitors++;
		else if (in_list(m[i].name, raw_markers,
				 ARRAY_SIZE(raw_markers)))
			markers++;
	}
	if (!test_output && !monitors)
		return 0;
	if (!run_shaped(dir))
		return 0;
	if (test_output && (monitors || markers))
		return 60;
	return 40;
}

/*
 * Every member the run would read by name, checked before anything is
 * emitted: one that is a FIFO, a directory or a link to /dev/zero is not
 * in the member list, and the run would import without it, as if lkp
 * had left it out (stats.json: no samples, or the raw route's fewer).
 */
static int check_members(const char *dir, int have_stats)
{
	const struct importer *const *imp;
	size_t i, nr, k;
	int ret = 0;

	ret |= member_check(dir, "job.yaml");
	ret |= member_check(dir, "stats.json");
	imp = importer_list(&nr);
	for (i = 0; i < nr; i++) {
		if (have_stats && raw_only(imp[i]))
			continue;
		for (k = 0; imp[i]->lkp_names && imp[i]->lkp_names[k]; k++)
			ret |= member_check(dir, imp[i]->lkp_names[k]);
	}
	return ret ? -1 : 0;
}

static int lkp_tree_parse_dir(struct import_ctx *ctx, const char *dir,
		       const struct member *m, size_t nr)
{
	const struct member *job, *stats;
	struct job_info j;
	struct lkp_run r;
	size_t i;
	int ret = -1;

	memset(&j, 0, sizeof(j));
	if (parse_path(&r, dir))
		goto out;
	job = find_member(m, nr, "job.yaml");
	stats = find_member(m, nr, "stats.json");
	if (check_members(dir, stats != NULL))
		goto out;
	if (job) {
		if (job_load(ctx, &j, job, &r))
			goto out;
		job_check(ctx, &j, &r, job);
	}
	ret = emit_run(ctx, &r, &j);
	if (ret)
		goto out;
	ret = -1;
	if (stats) {
		ctx->derive_samples = 0;
		if (import_stats(ctx, stats))
			goto out;
	}
	for (i = 0; i < nr; i++) {
		const struct importer *to = route_of(m[i].name);

		if (!to || (stats && raw_only(to)))
			continue;
		if (import_nested(ctx, to->name, &m[i]) < 0)
			goto out;
	}
	/* job.yaml alone: lkp's incomplete runs look like this */
	if (!ctx->nr_samples && !ctx->nr_series)
		db_warn(ctx, 0, "no stats.json and no file we can read: the "
			"run has no values");
	ret = 0;
out:
	job_info_release(&j);
	lkp_run_release(&r);
	return ret;
}

const struct importer importer_lkp_tree = {
	.name = "lkp-tree",
	.family = "lkp",
	.what = "lkp-tests result tree: <testcase>/.../<commit>/<run>/",
	.flags = IMP_DIRS | IMP_VARIANTS | IMP_SAMPLES | IMP_SERIES,
	.detect_dir = lkp_tree_detect_dir,
	.parse_dir = lkp_tree_parse_dir,
};
