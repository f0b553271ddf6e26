/*
 * The generic CSV importer (SPEC §6): a long-format table, one value per
 * row, so that anything else can come in.
 *
 * Header names "metric" and "value" are required; "label", "kernel",
 * "commit", "machine", "testcase", "params" (k=v pairs separated by ';'
 * or ','), "iteration", "unit", "time" (unix seconds or ISO 8601, UTC)
 * are optional.  A row with a "stat" column (Amean, mean, ...) is a
 * summary kept as an aggregate, with optional "stddev", "stddev_kind"
 * (sample, population, relative; default sample), "n" and "marker".
 * A "kind" column (counter, gauge, exact; empty: not stated) states
 * the metric's kind: exact for deterministic quantities such as code
 * size, which compare decides without a test.
 * Any other column becomes a run parameter (e.g. "threads").
 *
 * Rows with the same variant columns and iteration form one run.  Without
 * an iteration column, a metric seen again for the same variant starts
 * the next run: "A,x,1 / A,x,2" is two runs of A.  Fields may be quoted
 * as in RFC 4180 ("a,b", "say ""hi"""); a quoted field cannot span lines.
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/pairmap.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/importer.h"
#include "../formats.h"
#include <time.h>

enum col {
	C_METRIC, C_VALUE, C_LABEL, C_KERNEL, C_COMMIT, C_MACHINE, C_TESTCASE,
	C_PARAMS, C_ITERATION, C_UNIT, C_TIME, C_STAT, C_STDDEV,
	C_STDDEV_KIND, C_N, C_MARKER, C_KIND, C_NR,
	C_PARAM = -2,	/* any other column: a run parameter */
};

static const char *const col_names[C_NR] = {
	"metric", "value", "label", "kernel", "commit", "machine", "testcase",
	"params", "iteration", "unit", "time", "stat", "stddev",
	"stddev_kind", "n", "marker", "kind",
};

#define MAX_FIELDS 256
/* The bytes between the parts of a run key (ASCII's separators). */
#define KEY_SEP_FIELD '\x1f'
#define KEY_SEP_PARAM '\x1e'
#define KEY_SEP_METRIC '\x1d'
/* Unix seconds of 10000-01-01: a "time" is before it. */
#define TIME_MAX_S 253402300800.0
/* The largest count taken in column 'n'. */
#define N_MAX 1e15
/* The UTF-8 byte order mark that spreadsheets write first. */
static const char utf8_bom[] = "\xef\xbb\xbf";
#define UTF8_BOM_LEN (sizeof(utf8_bom) - 1)
/* (variant, metric) counts kept in memory at most; see run_to_fill() */
#define CSV_SEEN_MAX (1u << 16)

struct csv_state {
	int col[MAX_FIELDS];		/* column index -> enum col */
	char *colname[MAX_FIELDS];	/* owned */
	int where[C_NR];		/* enum col -> column index, -1 */
	size_t nr_cols;
	char *field[MAX_FIELDS];	/* into line buffer */
	struct strmap variants;		/* variant key -> its number */
	struct pairmap runs;		/* (variant, run of it) -> runs.id */
	struct strmap seen;		/* variant key + metric -> count */
	struct sbuf key;
	int64_t variant, run;		/* the row's: pairmap key of its run */
	struct kv *kv;			/* params of the current row */
	size_t nr_kv, alloc_kv;
	struct sbuf paramsbuf;		/* copy of the params field, split */
};

static int csv_detect(const char *path, const char *head, size_t len)
{
	const char *end = head + len, *nl;
	size_t n;
	char first[1024];
	int has_metric = 0, has_value = 0;
	char *p, *tok;

	/* the header: past a byte order mark, blank and # comment lines */
	if (len >= UTF8_BOM_LEN && !memcmp(head, utf8_bom, UTF8_BOM_LEN))
		head += UTF8_BOM_LEN;
	for (;;) {
		const char *q = head;

		while (q < end && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (q < end && (*q == '\n' || *q == '#')) {
			nl = memchr(q, '\n', (size_t)(end - q));
			if (!nl)
				return 0;
			head = nl + 1;
			continue;
		}
		break;
	}
	nl = memchr(head, '\n', (size_t)(end - head));
	n = nl ? (size_t)(nl - head) : (size_t)(end - head);
	if (n >= sizeof(first))
		n = sizeof(first) - 1;
	memcpy(first, head, n);
	first[n] = '\0';
	for (p = first; (tok = strsep(&p, ",")); ) {
		while (*tok == ' ' || *tok == '"')
			tok++;
		if (!strncmp(tok, "metric", 6) &&
		    (!tok[6] || tok[6] == '"' || tok[6] == '\r' || tok[6] == ' '))
			has_metric = 1;
		if (!strncmp(tok, "value", 5) &&
		    (!tok[5] || tok[5] == '"' || tok[5] == '\r' || tok[5] == ' '))
			has_value = 1;
	}
	if (has_metric && has_value)
		return 90;
	/* a .csv that lacks the columns: ours, so the error says why */
	if (ends_with(path, ".csv") || ends_with(path, ".csv.gz"))
		return 20;
	return 0;
}

/*
 * Split line in place into fields.  Returns the count, or -1 after an
 * error for a quote that does not close on the line or too many fields.
 */
static int split(struct csv_state *s, char *line, const char *path, long lnum)
{
	size_t n = 0;
	char *p = line;

	for (;;) {
		char *out, *start;

		if (n == MAX_FIELDS)
			return error("%s:%ld: more than %d fields", path, lnum,
				     MAX_FIELDS);
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '"') {
			start = out = ++p;
			for (;;) {
				if (!*p)
					return error("%s:%ld: the quoted field "
						     "opened at column %td does "
						     "not close on its line (a "
						     "row is one line: no line "
						     "end inside quotes)", path,
						     lnum, start - line);
				if (*p == '"') {
					if (p[1] != '"')
						break;
					p++;
				}
				*out++ = *p++;
			}
			p++;	/* closing quote */
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p && *p != ',')
				return error("%s:%ld: expected ',' after quoted "
					     "field", path, lnum);
			*out = '\0';
		} else {
			start = p;
			while (*p && *p != ',')
				p++;
			out = p;
			while (out > start && (out[-1] == ' ' || out[-1] == '\t'))
				out--;
		}
		s->field[n++] = start;
		if (!*p) {
			*out = '\0';
			break;
		}
		*out = '\0';
		p++;
	}
	return (int)n;
}

static int parse_header(struct csv_state *s, int nf, const char *path,
			long line)
{
	int i, j;

	for (j = 0; j < C_NR; j++)
		s->where[j] = -1;
	for (i = 0; i < nf; i++) {
		s->col[i] = C_PARAM;
		s->colname[i] = xstrdup(s->field[i]);
		s->nr_cols = (size_t)i + 1;	/* what to free on error */
		if (!*s->field[i])
			return error("%s:%ld: column %d has an empty name", path,
				     line, i + 1);
		for (j = 0; j < C_NR; j++) {
			if (strcmp(s->field[i], col_names[j]))
				continue;
			if (s->where[j] >= 0)
				return error("%s:%ld: column '%s' given twice",
					     path, line, col_names[j]);
			s->col[i] = j;
			s->where[j] = i;
		}
	}
	s->nr_cols = (size_t)nf;
	if (s->where[C_METRIC] < 0 || s->where[C_VALUE] < 0)
		return error("%s:%ld: expected a CSV header with 'metric' and "
			     "'value' columns; '%s' is missing", path, line,
			     s->where[C_METRIC] < 0 ? "metric" : "value");
	return 0;
}

static const char *get(struct csv_state *s, enum col c)
{
	int i = s->where[c];

	return i >= 0 && *s->field[i] ? s->field[i] : NULL;
}

static void add_kv(struct csv_state *s, const char *k, const char *v)
{
	ALLOC_GROW(s->kv, s->nr_kv + 1, s->alloc_kv);
	s->kv[s->nr_kv].key = k;
	s->kv[s->nr_kv].value = v;
	s->nr_kv++;
}

/* Collect params of the row: the params column and extra columns. */
static int row_params(struct csv_state *s, const char *path, long lnum)
{
	const char *pf = get(s, C_PARAMS);
	size_t i;

	s->nr_kv = 0;
	if (pf) {
		char *p, *tok;

		sbuf_reset(&s->paramsbuf);
		sbuf_addstr(&s->paramsbuf, pf);
		for (p = s->paramsbuf.buf; (tok = strsep(&p, ";,")); ) {
			char *eq;

			while (*tok == ' ')
				tok++;
			if (!*tok)
				continue;
			eq = strchr(tok, '=');
			if (!eq || eq == tok)
				return error("%s:%ld: expected 'key=value' in "
					     "params, got '%.40s'", path, lnum,
					     tok);
			*eq = '\0';
			add_kv(s, tok, eq + 1);
		}
	}
	for (i = 0; i < s->nr_cols; i++)
		if (s->col[i] == C_PARAM && *s->field[i])
			add_kv(s, s->colname[i], s->field[i]);
	return 0;
}

static int parse_time(const char *v, int64_t *out)
{
	struct tm tm;
	const char *end;
	double d;

	if (!str_to_double(v, &d)) {
		/* 0 .. year 9999: anything else is not a time */
		if (!(d >= 0 && d < TIME_MAX_S))
			return -1;
		*out = (int64_t)d;
		return 0;
	}
	memset(&tm, 0, sizeof(tm));
	end = strptime(v, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end)
		end = strptime(v, "%Y-%m-%d %H:%M:%S", &tm);
	if (!end)
		end = strptime(v, "%Y-%m-%d", &tm);
	if (!end || (*end && strcmp(end, "Z")))
		return -1;
	*out = (int64_t)timegm(&tm);
	return 0;
}

static int get_number(struct csv_state *s, enum col c, double *out,
		      const char *path, long lnum)
{
	int i = s->where[c];

	if (str_to_double(s->field[i], out))
		return error("%s:%ld: expected a number in column '%s', got "
			     "'%.40s'", path, lnum, col_names[c], s->field[i]);
	return 0;
}

static void key_add(struct sbuf *key, const char *field, char sep)
{
	if (field)
		sbuf_addstr(key, field);
	sbuf_addch(key, sep);
}

static int set_kind(struct import_ctx *ctx, const char *metric,
		    const char *kind, long lnum)
{
	static const char *const names[] = { "counter", "gauge", "exact" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(kind, names[i]))
			return db_set_kind(ctx, metric,
					   (enum metric_kind)(i + 1), lnum);
	return error("%s:%ld: expected a kind (counter, gauge or exact) in "
		     "column 'kind', got '%.40s'", ctx->path, lnum, kind);
}

/*
 * Without an iteration column, the k-th row of a metric for a variant
 * goes to the variant's k-th run.  The counts live in a map while it is
 * small; past CSV_SEEN_MAX (millions of distinct metric names) the
 * database answers instead, so memory stays bounded: the first run of
 * the variant (its run 0, 1, ...) that does not have the metric yet.
 * 0 or -1.
 */
static int run_to_fill(struct csv_state *s, struct import_ctx *ctx,
		       const char *metric, int64_t *count)
{
	int64_t c, run_id;
	int r = 0;

	for (c = 0;; c++) {
		if (!pairmap_get(&s->runs, s->variant, -1 - c, &run_id))
			break;
		r = db_run_has_metric(ctx, run_id, metric);
		if (r <= 0)
			break;
	}
	*count = c;
	return r < 0 ? -1 : 0;
}

/*
 * The checks of every row: its metric, value, params, iteration
 * (-1 without) and start time (0 without).  0 or error().
 */
static int row_check(struct csv_state *s, const char *metric,
		     const char *path, long lnum, double *value,
		     long *iteration, int64_t *start)
{
	const char *tv;

	if (!metric)
		return error("%s:%ld: empty metric name", path, lnum);
	if (get_number(s, C_VALUE, value, path, lnum))
		return -1;
	if (row_params(s, path, lnum))
		return -1;
	if (get(s, C_ITERATION)) {
		if (str_to_long(get(s, C_ITERATION), iteration) ||
		    *iteration < 0)
			return error("%s:%ld: expected an iteration number "
				     ">= 0, got '%.40s'", path, lnum,
				     get(s, C_ITERATION));
	}
	tv = get(s, C_TIME);
	if (tv && parse_time(tv, start))
		return error("%s:%ld: expected a time (unix seconds or "
			     "YYYY-MM-DDTHH:MM:SS), got '%.40s'", path, lnum,
			     tv);
	return 0;
}

/* A row with a "stat": a summary, emitted as an aggregate. */
static int row_aggregate(struct csv_state *s, struct import_ctx *ctx,
			 double value, const char *path, long lnum)
{
	struct agg_desc a = {
		.suite = "csv", .testcase = get(s, C_TESTCASE),
		.machine = get(s, C_MACHINE),
		.kernel = get(s, C_KERNEL), .commit = get(s, C_COMMIT),
		.label = get(s, C_LABEL), .params = s->kv,
		.nr_params = s->nr_kv, .metric = get(s, C_METRIC),
		.unit = get(s, C_UNIT), .stat = get(s, C_STAT), .value = value,
		.stddev = NAN, .stddev_kind = "sample", .n = -1,
		.marker = get(s, C_MARKER),
	};
	double d;

	if (get(s, C_STDDEV)) {
		if (get_number(s, C_STDDEV, &a.stddev, path, lnum))
			return -1;
	}
	if (get(s, C_STDDEV_KIND)) {
		a.stddev_kind = get(s, C_STDDEV_KIND);
		if (strcmp(a.stddev_kind, "sample") &&
		    strcmp(a.stddev_kind, "population") &&
		    strcmp(a.stddev_kind, "relative"))
			return error("%s:%ld: expected stddev_kind sample, "
				     "population or relative, got '%.40s'",
				     path, lnum, a.stddev_kind);
	}
	if (get(s, C_N)) {
		if (get_number(s, C_N, &d, path, lnum))
			return -1;
		if (d < 0 || d != floor(d) || d > N_MAX)
			return error("%s:%ld: expected a count in column 'n', "
				     "got '%.40s'", path, lnum, get(s, C_N));
		a.n = (long)d;
	}
	return db_emit_aggregate(ctx, &a, lnum);
}

/*
 * The run of the row into s->variant and s->run: the number of its
 * variant (the variant columns and params, s->key), and the iteration
 * if given, else -1 - the count of the metric so far for the variant.
 * Built without printf: this runs once per row.  0 or -1.
 */
static int run_key(struct csv_state *s, struct import_ctx *ctx,
		   const char *metric, long iteration)
{
	int64_t count;
	size_t keylen;

	sbuf_reset(&s->key);
	key_add(&s->key, get(s, C_LABEL), KEY_SEP_FIELD);
	key_add(&s->key, get(s, C_KERNEL), KEY_SEP_FIELD);
	key_add(&s->key, get(s, C_COMMIT), KEY_SEP_FIELD);
	key_add(&s->key, get(s, C_MACHINE), KEY_SEP_FIELD);
	key_add(&s->key, get(s, C_TESTCASE), KEY_SEP_FIELD);
	for (size_t i = 0; i < s->nr_kv; i++) {
		key_add(&s->key, s->kv[i].key, '=');
		key_add(&s->key, s->kv[i].value, KEY_SEP_PARAM);
	}
	s->variant = (int64_t)s->variants.nr;
	strmap_get_or_put(&s->variants, s->key.buf, s->key.len, &s->variant);
	if (iteration >= 0) {
		s->run = iteration;
		return 0;
	}
	keylen = s->key.len;
	if (s->seen.nr < CSV_SEEN_MAX) {
		key_add(&s->key, metric, KEY_SEP_METRIC);
		if (!strmap_get(&s->seen, s->key.buf, s->key.len, &count))
			count = 0;
		strmap_put(&s->seen, s->key.buf, s->key.len, count + 1);
		sbuf_setlen(&s->key, keylen);
	} else if (run_to_fill(s, ctx, metric, &count)) {
		return -1;
	}
	s->run = -1 - count;
	return 0;
}

/* The row's run made current: emitted the first time.  0 or -1. */
static int row_run(struct csv_state *s, struct import_ctx *ctx, long lnum,
		   long iteration, int64_t start)
{
	int64_t run_id;

	if (!pairmap_get(&s->runs, s->variant, s->run, &run_id)) {
		struct run_desc rd = {
			.suite = "csv", .testcase = get(s, C_TESTCASE),
			.machine = get(s, C_MACHINE),
			.kernel = get(s, C_KERNEL), .commit = get(s, C_COMMIT),
			.label = get(s, C_LABEL), .params = s->kv,
			.nr_params = s->nr_kv, .iteration = iteration,
			.start_time = start,
		};

		if (db_emit_run(ctx, &rd, lnum))
			return -1;
		pairmap_put(&s->runs, s->variant, s->run, ctx->run_id);
		return 0;
	}
	return db_resume_run(ctx, run_id);
}

static int row(struct csv_state *s, struct import_ctx *ctx, const char *path,
	       long lnum)
{
	const char *metric = get(s, C_METRIC);
	double value;
	int64_t start = 0;
	long iteration = -1;

	if (row_check(s, metric, path, lnum, &value, &iteration, &start))
		return -1;
	if (get(s, C_STAT))
		return row_aggregate(s, ctx, value, path, lnum);
	if (run_key(s, ctx, metric, iteration) ||
	    row_run(s, ctx, lnum, iteration, start) ||
	    db_emit_sample(ctx, metric, get(s, C_UNIT), value, lnum))
		return -1;
	return get(s, C_KIND) ? set_kind(ctx, metric, get(s, C_KIND), lnum) : 0;
}

/*
 * The header: the first line that is not blank or a # comment, into
 * s's columns.  0, or -1 after error() (an empty file too).
 */
static int read_header(struct csv_state *s, struct input *in)
{
	size_t i;
	int r, nf;

	while ((r = input_getline(in)) > 0) {
		const char *p = in->sb.buf;

		str_skip_blanks(&p);
		if (*p && *p != '#')
			break;
	}
	if (r <= 0)
		return r == 0 ? error("%s: empty file", in->path) : -1;
	/* a UTF-8 byte order mark, as spreadsheets write */
	if (starts_with(in->sb.buf, utf8_bom)) {
		memmove(in->sb.buf, in->sb.buf + UTF8_BOM_LEN,
			in->sb.len - UTF8_BOM_LEN + 1);
		in->sb.len -= UTF8_BOM_LEN;
	}
	/*
	 * Control bytes no text has (a CR aside: below): binary data, whatever
	 * quotes or CRs it also holds.  Bytes that are not UTF-8 are left to
	 * the columns: a spreadsheet may write Latin-1.
	 */
	for (i = 0; i < in->sb.len; i++) {
		unsigned char c = (unsigned char)in->sb.buf[i];

		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return error("%s:%ld: expected the text of a CSV file, "
				     "got binary data (byte 0x%02x at column "
				     "%zu)", in->path, in->line, c, i + 1);
	}
	/* classic Mac line ends: the whole file reads as one line */
	if (memchr(in->sb.buf, '\r', in->sb.len))
		return error("%s:%ld: a carriage return inside the header "
			     "line: the line ends are CR only (classic Mac); "
			     "convert them, e.g. tr '\\r' '\\n'", in->path,
			     in->line);
	nf = split(s, in->sb.buf, in->path, in->line);
	if (nf < 0 || parse_header(s, nf, in->path, in->line))
		return -1;
	return 0;
}

static void csv_state_release(struct csv_state *s)
{
	size_t i;

	for (i = 0; i < s->nr_cols; i++)
		free(s->colname[i]);
	strmap_clear(&s->variants);
	pairmap_clear(&s->runs);
	strmap_clear(&s->seen);
	sbuf_release(&s->key);
	sbuf_release(&s->paramsbuf);
	free(s->kv);
}

static int csv_parse(struct import_ctx *ctx, struct input *in)
{
	struct csv_state s;
	int r, nf, ret = -1;

	memset(&s, 0, sizeof(s));
	sbuf_init(&s.key, 256);
	sbuf_init(&s.paramsbuf, 0);
	if (read_header(&s, in))
		goto out;
	while ((r = input_getline(in)) > 0) {
		const char *p = in->sb.buf;

		str_skip_blanks(&p);
		if (!*p || *p == '#')
			continue;
		nf = split(&s, in->sb.buf, in->path, in->line);
		if (nf < 0)
			goto out;
		if ((size_t)nf != s.nr_cols) {
			error("%s:%ld: expected %zu fields as in the header, "
			      "got %d", in->path, in->line, s.nr_cols, nf);
			goto out;
		}
		if (row(&s, ctx, in->path, in->line))
			goto out;
	}
	if (r == 0)
		ret = 0;
out:
	csv_state_release(&s);
	return ret;
}

const struct importer importer_csv = {
	.name = "csv",
	.family = "csv",
	.what = "generic long-format CSV: metric,value[,label,kernel,...]",
	.flags = IMP_FILES | IMP_VARIANTS | IMP_SAMPLES | IMP_AGGREGATES,
	.detect = csv_detect,
	.parse = csv_parse,
};
