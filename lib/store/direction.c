/*
 * The metric direction catalog.  Names are split into words at '.', '_',
 * '-', '/', ' ' and the words (and the unit) are matched against two
 * lists; the last component of a dotted name counts most, so that
 * "fio.read_clat_mean_ns" is a latency even though it starts with "fio".
 * lkp's KPIs (etc/index-perf-all.yaml names) and MMTests' per-benchmark
 * conventions are covered by explicit name patterns first.
 */
#include "core/compat.h"
#include <pthread.h>
#include "store/direction.h"
#include "core/strparse.h"
#include <ctype.h>

/*
 * Named metrics, checked first: lkp KPIs and monitors whose words would
 * mislead (fio.latency_2us% is a share of I/Os, not a time).
 */
struct dir_rule {
	const char *glob;
	int dir;
};

static const struct dir_rule named[] = {
	{ "fio.latency_*%", DIR_UNKNOWN },
	{ "fio.workload", DIR_HIGHER },
	{ "fio.*io_MiB", DIR_HIGHER },	/* I/O done in a fixed time */
	{ "fio.*.ios", DIR_HIGHER },
	{ "*.workload", DIR_HIGHER },
	{ "will-it-scale.per_*_ops", DIR_HIGHER },
	{ "will-it-scale.scalability", DIR_HIGHER },
	{ "aim7.jobs-per-min", DIR_HIGHER },
	{ "unixbench.score", DIR_HIGHER },
	{ "hackbench.throughput", DIR_HIGHER },
	{ "netperf.Throughput_*", DIR_HIGHER },
	{ "stress-ng.*.ops_per_sec", DIR_HIGHER },
	{ "vm-scalability.throughput", DIR_HIGHER },
	{ "pft.faults_per_sec_per_cpu", DIR_HIGHER },
	{ "*.time.elapsed_time*", DIR_LOWER },
	{ "*.time.*_page_faults", DIR_LOWER },
	{ "*.time.*context_switches", DIR_LOWER },
	{ "*.time.system_time", DIR_LOWER },
	{ "*.time.user_time", DIR_LOWER },
	{ "*.time.percent_of_cpu_this_job_got", DIR_UNKNOWN },
};

/*
 * MMTests' per-benchmark conventions, used only when neither the unit
 * nor the words of the name decide (ebizzy.latency_ms is still lower).
 */
static const struct dir_rule benchmarks[] = {
	{ "aim9.*", DIR_HIGHER },
	{ "ebizzy.*", DIR_HIGHER },
	{ "blogbench.*", DIR_HIGHER },
	{ "dbench*.*", DIR_LOWER },	/* dbench4 reports latency per op */
	{ "kernbench.*", DIR_LOWER },
	{ "hackbench*.*", DIR_LOWER },	/* MMTests hackbench: seconds */
	{ "schbench.*", DIR_LOWER },	/* wakeup latency percentiles */
	{ "tbench*.*", DIR_HIGHER },
	{ "netperf*.*", DIR_HIGHER },
	{ "sysbench*.*", DIR_HIGHER },
	{ "redis*.*", DIR_HIGHER },
	{ "pgbench*.*", DIR_HIGHER },
	{ "stream.*", DIR_HIGHER },
	{ "fsmark*.*", DIR_HIGHER },
	{ "specjbb*.*", DIR_HIGHER },
};

static const char *const higher_words[] = {
	"throughput", "tput", "ops", "bw", "bandwidth", "iops", "score",
	"jobs-per-min", "jpm", "rsec", "records", "mbps", "gbps", "kbps",
	"mb/s", "kb/s", "gb/s", "b/s", "io/s", "ops/s", "ops_per_sec",
	"per_sec", "trans", "tps", "qps", "rps", "requests", "hits", "speed",
	"rate", "mops", "flops", "gflops", "files/sec", "transactions",
	"per_thread_ops", "per_process_ops", "bogo-ops", "mb_per_sec",
	"loops", "iterations", "operations",
};

static const char *const lower_words[] = {
	"latency", "lat", "clat", "slat", "time", "elapsed", "elsp", "elapsed_time",
	"duration", "runtime", "usec", "us", "msec", "ms", "nsec", "ns", "sec",
	"seconds", "secs", "cycles", "faults", "fault", "stalls", "stall",
	"misses", "miss", "wait", "delay", "overhead", "syst", "user",
	"sys", "allocstall", "pgfault", "pgmajfault", "pgscan", "oom_kill",
	"errors",
	"fail", "failures", "retries", "path-length", "cpi",
};

/*
 * A word list indexed by first letter: the words of a name are looked up
 * thousands of times a comparison, against the few words that share
 * their first letter only.
 */
struct word_index {
	const char *const *list;
	size_t nr;
	unsigned char start[257];	/* words of letter c: at[start[c]..] */
	const char *at[128];
	size_t len[128];		/* strlen(at[i]) */
};

static void index_words(struct word_index *x)
{
	size_t i, count[256] = { 0 }, fill[256];
	unsigned c, pos = 0;

	if (x->nr > ARRAY_SIZE(x->at))
		BUG("word list of %zu words", x->nr);
	for (i = 0; i < x->nr; i++)
		count[(unsigned char)x->list[i][0]]++;
	for (c = 0; c < 256; c++) {
		x->start[c] = (unsigned char)pos;
		fill[c] = pos;
		pos += (unsigned)count[c];
	}
	x->start[256] = (unsigned char)pos;
	for (i = 0; i < x->nr; i++) {
		size_t k = fill[(unsigned char)x->list[i][0]]++;

		x->at[k] = x->list[i];
		x->len[k] = strlen(x->list[i]);
	}
}

static struct word_index higher_index = {
	higher_words, ARRAY_SIZE(higher_words), { 0 }, { 0 }, { 0 } };
static struct word_index lower_index = {
	lower_words, ARRAY_SIZE(lower_words), { 0 }, { 0 }, { 0 } };

/* Is the word w (n bytes, any case) in the list? */
static int word_in(const char *w, size_t n, struct word_index *x)
{
	unsigned c0 = (unsigned char)tolower((unsigned char)*w), i;

	for (i = x->start[c0]; i < x->start[c0 + 1]; i++)
		if (x->len[i] == n && !strncasecmp(w, x->at[i], n))
			return 1;
	return 0;
}

/* The characters that separate the words of a name (1), by byte. */
static unsigned char sep[256];

/* Score the words of s: +1 for each higher word, -1 for each lower. */
static int words_vote(const char *s)
{
	int higher = 0, lower = 0;

	while (*s) {
		const char *w;
		size_t n;

		while (*s && sep[(unsigned char)*s])
			s++;
		w = s;
		while (*s && !sep[(unsigned char)*s])
			s++;
		n = (size_t)(s - w);
		if (!n)
			continue;
		/* numbers ("000123", "4k") are never words of the lists */
		if (*w >= '0' && *w <= '9')
			continue;
		if (word_in(w, n, &higher_index))
			higher++;
		if (word_in(w, n, &lower_index))
			lower++;
	}
	return higher > lower ? DIR_HIGHER : lower > higher ? DIR_LOWER
							   : DIR_UNKNOWN;
}

/*
 * What a glob must find in a name to match it at all: its literal head,
 * or for a pattern that starts with '*' the literal part after the
 * stars.  Checked first, it rules most names out before glob_match().
 */
struct glob_hint {
	size_t head;		/* bytes of literal head (0: starts with '*') */
	const char *seg;	/* the literal after the stars, in the glob */
	size_t seg_len;
	int suffix;		/* seg ends the glob: the name must end so */
};

static void hint_init(const char *g, struct glob_hint *h)
{
	h->head = strcspn(g, "*?[\\");
	h->seg = g + strspn(g, "*");
	h->seg_len = h->head ? 0 : strcspn(h->seg, "*?[\\");
	h->suffix = h->seg_len && !h->seg[h->seg_len];
}

static int hint_ok(const char *g, const struct glob_hint *h, const char *s,
		   size_t len)
{
	if (h->head)
		return *g == *s && !strncmp(g, s, h->head);
	if (h->suffix)
		return len >= h->seg_len &&
		       !memcmp(s + len - h->seg_len, h->seg, h->seg_len);
	return !h->seg_len || memmem(s, len, h->seg, h->seg_len);
}

/*
 * A list of rules indexed by a name's first byte: by_first[c] has a bit
 * for each rule that may match a name starting with c (its glob starts
 * with c, or with a wildcard), in the list's order.  Most names are
 * then checked against a few rules, not all of them.
 */
struct rule_list {
	const struct dir_rule *rule;
	size_t nr;
	struct glob_hint hint[32];
	uint32_t by_first[256];
	/* the first rule whose hint is the same ("*.time.*"), or itself */
	unsigned char twin[32];
};

static void list_init(struct rule_list *l)
{
	size_t i, c;

	if (l->nr > 32)
		BUG("a rule list of %zu rules", l->nr);
	for (i = 0; i < l->nr; i++) {
		const char *g = l->rule[i].glob;
		const struct glob_hint *h = &l->hint[i];
		size_t j;

		hint_init(g, &l->hint[i]);
		for (c = 0; c < 256; c++)
			if (!h->head || (unsigned char)*g == c)
				l->by_first[c] |= (uint32_t)1 << i;
		/* wildcard rules are looked at for every name: a twin's
		 * answer is known when the later one's turn comes */
		l->twin[i] = (unsigned char)i;
		for (j = 0; !h->head && j < i; j++) {
			const struct glob_hint *t = &l->hint[j];

			if (!t->head && t->suffix == h->suffix &&
			    t->seg_len == h->seg_len &&
			    !memcmp(t->seg, h->seg, h->seg_len)) {
				l->twin[i] = (unsigned char)j;
				break;
			}
		}
	}
}

/*
 * The direction of the first rule that matches; 2 if none does.  The
 * literal of rules that share it ("*.time.*" five times) is looked for
 * once.
 */
static int lookup(const struct rule_list *l, const char *metric)
{
	uint32_t m = l->by_first[(unsigned char)*metric];
	size_t len = strlen(metric);
	char ok[32];

	while (m) {
		size_t i = (size_t)__builtin_ctz(m);

		m &= m - 1;
		ok[i] = l->twin[i] != i ? ok[l->twin[i]] :
			(char)hint_ok(l->rule[i].glob, &l->hint[i], metric,
				      len);
		if (ok[i] && glob_match(l->rule[i].glob, metric))
			return l->rule[i].dir;
	}
	return 2;
}

#define RULE_LIST(r) { (r), ARRAY_SIZE(r), { { 0 } }, { 0 }, { 0 } }
static struct rule_list named_list = RULE_LIST(named);
static struct rule_list benchmarks_list = RULE_LIST(benchmarks);

/*
 * The catalog's indexes, made once whichever thread asks first: compare
 * looks directions up on both cores (lib/analysis/load-samples.c digest_row()).
 */
static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;
static void catalog_init(void);

/*
 * Rates and times per operation, read from the shape of a name or unit:
 * "files/sec", "MB/s", "ops_per_sec" are rates (higher); "ms/op",
 * "usec/call" are times per operation (lower).  0 if neither.
 */
static int rate_vote(const char *s)
{
	const char *slash = strrchr(s, '/');

	if (strstr(s, "per_sec") || strstr(s, "per-sec") ||
	    strstr(s, "per_second"))
		return DIR_HIGHER;
	if (!slash)
		return 0;
	if (!strcmp(slash, "/s") || !strcmp(slash, "/sec") ||
	    !strcmp(slash, "/second") || !strcmp(slash, "/min"))
		return DIR_HIGHER;
	if (!strcmp(slash, "/op") || !strcmp(slash, "/call") ||
	    !strcmp(slash, "/req") || !strcmp(slash, "/iter"))
		return DIR_LOWER;
	return 0;
}

int direction_builtin(const char *metric, const char *unit)
{
	const char *last;
	int d;

	pthread_once(&catalog_once, catalog_init);
	d = lookup(&named_list, metric);
	if (d != 2)
		return d;
	/* a rate or time unit decides before the words */
	if (unit && *unit && (d = rate_vote(unit)))
		return d;
	if (unit && *unit) {
		if (word_in(unit, strlen(unit), &higher_index))
			return DIR_HIGHER;
		if (word_in(unit, strlen(unit), &lower_index))
			return DIR_LOWER;
	}
	/* the last dotted component first: "fio.read_clat_mean_ns" */
	last = strrchr(metric, '.');
	last = last ? last + 1 : metric;
	d = rate_vote(last);
	if (d)
		return d;
	d = words_vote(last);
	if (d != DIR_UNKNOWN)
		return d;
	d = lookup(&benchmarks_list, metric);
	if (d != 2)
		return d;
	return words_vote(metric);
}

int direction_load(struct db *db, struct direction_overrides *o)
{
	struct stmt *st;
	size_t alloc = 0, alloc2 = 0;

	memset(o, 0, sizeof(*o));
	st = db_prepare(db, "SELECT pattern, direction FROM metric_directions "
			    "ORDER BY length(pattern) DESC, pattern");
	if (!st)
		return -1;
	while (stmt_step(st) == SQLITE_ROW) {
		ALLOC_GROW(o->pattern, o->nr + 1, alloc);
		ALLOC_GROW(o->dir, o->nr + 1, alloc2);
		o->pattern[o->nr] =
			xstrdup((const char *)stmt_column_text(st, 0));
		o->dir[o->nr] = stmt_column_int(st, 1);
		o->nr++;
	}
	stmt_finalize(st);
	return 0;
}

void direction_release(struct direction_overrides *o)
{
	size_t i;

	for (i = 0; i < o->nr; i++)
		free(o->pattern[i]);
	free(o->pattern);
	free(o->dir);
	memset(o, 0, sizeof(*o));
}

int direction_of(const struct direction_overrides *o, const char *metric,
		 const char *unit, int stated)
{
	size_t i;

	for (i = 0; o && i < o->nr; i++)
		if (glob_match(o->pattern[i], metric))
			return o->dir[i];
	if (stated == DIR_HIGHER || stated == DIR_LOWER)
		return stated;
	return direction_builtin(metric, unit);
}

int direction_set(struct db *db, const char *pattern, int dir)
{
	struct stmt *st;
	int rc;

	if (dir == INT_MIN)
		st = db_prepare(db, "DELETE FROM metric_directions "
				    "WHERE pattern = ?");
	else
		st = db_prepare(db, "INSERT INTO metric_directions(pattern, "
				    "direction) VALUES (?, ?) ON CONFLICT "
				    "(pattern) DO UPDATE SET direction = "
				    "excluded.direction");
	if (!st)
		return -1;
	stmt_bind_text(st, 1, pattern, -1, SQLITE_TRANSIENT);
	if (dir != INT_MIN)
		stmt_bind_int(st, 2, dir);
	rc = stmt_step(st);
	stmt_finalize(st);
	if (rc != SQLITE_DONE)
		return error("%s: %s", db->path, db_errmsg(db));
	return 0;
}

const char *direction_name(int dir)
{
	return dir > 0 ? "higher" : dir < 0 ? "lower" : "unknown";
}

const char *direction_verdict(int dir, double change_pct)
{
	if (!isfinite(change_pct) || change_pct == 0 || dir == DIR_UNKNOWN)
		return "change";
	return (change_pct > 0) == (dir == DIR_HIGHER) ? "improvement"
						       : "regression";
}

int direction_parse(const char *s)
{
	if (!strcmp(s, "higher"))
		return DIR_HIGHER;
	if (!strcmp(s, "lower"))
		return DIR_LOWER;
	if (!strcmp(s, "unknown"))
		return DIR_UNKNOWN;
	return -2;
}

/*
 * The headline results of the benchmarks lkp and MMTests run (lkp's
 * etc/index-perf-all.yaml and its robot's report subjects): what a
 * regression report is about, each with its rank (metric_kpi_rank()).
 * lookup() answers 2 for none, so the ranks avoid it.
 */
static const struct dir_rule kpis[] = {
	{ "fio.read_bw_MBps", KPI_OWN },
	{ "fio.write_bw_MBps", KPI_OWN },
	{ "fio.trim_bw_MBps", KPI_OWN },
	{ "fio.read_iops", KPI_OWN },
	{ "fio.write_iops", KPI_OWN },
	{ "fio.trim_iops", KPI_OWN },
	{ "fio.workload", KPI_TOTAL },
	{ "will-it-scale.per_*_ops", KPI_OWN },
	{ "will-it-scale.workload", KPI_TOTAL },
	{ "aim7.jobs-per-min", KPI_OWN },
	{ "aim9.*", KPI_OWN },
	{ "unixbench.score", KPI_OWN },
	{ "hackbench.throughput", KPI_OWN },
	{ "netperf.Throughput_*", KPI_OWN },
	{ "stress-ng.*.ops_per_sec", KPI_OWN },
	{ "vm-scalability.throughput", KPI_OWN },
	{ "vm-scalability.median", KPI_OWN },
	{ "pft.faults_per_sec_per_cpu", KPI_OWN },
	{ "ebizzy.throughput", KPI_OWN },
	{ "reaim.jobs_per_min", KPI_OWN },
	{ "pigz.throughput", KPI_OWN },
	{ "sysbench-*.*", KPI_OWN },
	{ "fsmark.files_per_sec", KPI_OWN },
	{ "fsmark.app_overhead", KPI_OWN },
	{ "kbuild.buildtime_per_iteration", KPI_OWN },
	{ "blogbench.*_score", KPI_OWN },
	{ "*.workload", KPI_TOTAL },
};

static struct rule_list kpi_list = RULE_LIST(kpis);

static void catalog_init(void)
{
	const char *p;

	index_words(&higher_index);
	index_words(&lower_index);
	for (p = "._-/ :()[]%"; *p; p++)
		sep[(unsigned char)*p] = 1;
	list_init(&named_list);
	list_init(&benchmarks_list);
	list_init(&kpi_list);
}


int metric_is_kpi(const char *metric)
{
	pthread_once(&catalog_once, catalog_init);
	return lookup(&kpi_list, metric) != 2;
}

int metric_kpi_rank(const char *metric)
{
	int r;

	pthread_once(&catalog_once, catalog_init);
	r = lookup(&kpi_list, metric);
	return r == 2 ? 0 : r;
}
