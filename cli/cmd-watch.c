/*
 * perfsift watch: after an import, the change points that the runs
 * imported since the last watch created or moved, in every series (a
 * metric's history in commit order at one testcase, params and machine)
 * of the metrics asked for.  The change points are those of
 * 'changepoints --window N' on the whole series (cp_detect_windowed(),
 * the incremental stream of lib/stats/changepoint.h run over the
 * series); what watch reported last is kept in the database
 * (store/watch.h) and compared by commit: a change point at a commit
 * where the last report had none is "moved" when a change point of the
 * last report, now gone, lay between the same neighbours that are still
 * there, else "new".  Exit 1 when one is new or moved (for cron and
 * CI), 0 when none.
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "core/xalloc.h"
#include "mail/message.h"
#include "mail/smtp.h"
#include "store/direction.h"
#include "store/watch.h"
#include "changepoints.h"
#include "options.h"
#include "strlist.h"
#include "table.h"
#include <jansson.h>
#include <math.h>

struct watch_args {
	struct strlist metrics;
	struct run_filter f;
	struct cp_options cpo;
	double min_pct;		/* --min-change */
	size_t window;
	int json, mail;
	const char *from, *smtp;
	struct strlist to, cc;
};

/* One change point of a series' report. */
enum watch_kind { W_KEPT, W_NEW, W_MOVED };

struct watch_item {
	const struct cp_point *cp;
	enum watch_kind kind;
	const struct watch_point *from;	/* W_MOVED: where it was */
};

/* A series, its change points now and what the last watch reported. */
struct watched {
	struct cp_series s;
	struct watch_state last;
	struct watch_item *item;	/* s.cp.nr of them */
	const struct watch_point **gone;	/* last's points now gone */
	size_t ngone, nreported;
};

#define T struct watch_args
static const struct opt watch_opts[] = {
	OPT_LIST("metric", T, metrics, "GLOB",
		 "only metrics matching GLOB (repeatable;\n"
		 "default: every metric)"),
	OPT_TESTCASE(T, f.testcase),
	OPT_MACHINE(T, f.machine),
	OPT_CP_TESTS(T, cpo, min_pct),
	OPT_CALLBACK(0, "window", T, window, "N",
		     "windows of N runs (at least 6; default 50,\n"
		     "Otava's); 0: the whole series at once",
		     cp_opt_window, 0),
	OPT_JSON(T, json, "one JSON document on stdout"),
	OPT_BOOL(0, "mail", T, mail,
		 "also send the report over SMTP when a change\n"
		 "point is new or moved"),
	OPT_GROUP("With --mail, as for 'perfsift report':"),
	OPT_STRING(0, "from", T, from, "A",
		   "the sender (else PERFSIFT_FROM or the config's)"),
	OPT_LIST("to", T, to, "A", "a recipient (repeatable; else the config's)"),
	OPT_LIST("cc", T, cc, "A", "a Cc recipient (repeatable)"),
	OPT_STRING(0, "smtp", T, smtp, "URL",
		   "smtp://host[:port] or smtps://... (else\n"
		   "PERFSIFT_SMTP_URL, else the config's smtp-url)"),
	OPT_END(),
};
#undef T

static const char watch_description[] =
	"After an import: the change points that the runs imported since\n"
	"the last watch created or moved, in each series (a metric's\n"
	"history in commit order at one testcase, params and machine, as\n"
	"'perfsift changepoints' reads it) of the metrics asked for.  The\n"
	"change points are those of 'perfsift changepoints --window N' on\n"
	"the whole series.  What watch reported is kept in the database,\n"
	"per series, by the commit each change point starts at: a change\n"
	"point at a commit where the last report had none is 'moved' when\n"
	"one of the last report, no longer there, lay between the same\n"
	"neighbours, else 'new'; one of the last report that is gone\n"
	"without a successor is listed as gone.  The first watch of a\n"
	"series reports all of its change points as new.\n"
	"\n"
	"Exit status 1 when a change point is new or moved, 0 when none\n"
	"is (for cron and CI).  The state is stored in one transaction\n"
	"with the report, after the mail is sent with --mail: a watch cut\n"
	"off, or whose mail fails (exit 4), leaves the last report's state,\n"
	"and the next watch reports the same again.\n";

static const char *const watch_usage[] = {
	"perfsift watch [--metric GLOB]... [--testcase GLOB] [--machine M]\n"
	"               [--max-pvalue P] [--min-change PCT] [--window N]\n"
	"               [--json] [--mail [--from A] [--to A]... [--cc A]...\n"
	"               [--smtp URL]]",
	NULL,
};

const struct cmd_options watch_options = {
	.name = "watch",
	.usage = watch_usage,
	.description = watch_description,
	.options = watch_opts,
};

static const char *const kind_name[] = { "kept", "new", "moved" };

/* The row of the first run at commit sha, or -1 if the series has none. */
static long row_of(const struct cp_series *s, const char *sha)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->r[i].sha, sha))
			return (long)i;
	return -1;
}

/*
 * Tell the change points of w->s from the last report's: each of the
 * last report at a commit that is a change point now is kept; each new
 * one takes, as "moved", the first gone one between its kept neighbours.
 */
static void classify(struct watched *w)
{
	const struct cp_result *cp = &w->s.cp;
	size_t nl = w->last.nr, i, j;
	long *at = xcalloc(nl + 1, sizeof(*at));
	char *used = xcalloc(nl + 1, 1);

	w->item = xcalloc(cp->nr + 1, sizeof(*w->item));
	for (j = 0; j < nl; j++)
		at[j] = row_of(&w->s, w->last.pts[j].sha);
	for (i = 0; i < cp->nr; i++) {
		const char *sha = w->s.r[cp->points[i].index].sha;

		w->item[i].cp = &cp->points[i];
		w->item[i].kind = W_NEW;
		for (j = 0; j < nl; j++)
			if (!used[j] && !strcmp(w->last.pts[j].sha, sha)) {
				used[j] = 1;
				w->item[i].kind = W_KEPT;
				break;
			}
	}
	for (i = 0; i < cp->nr; i++) {
		long lo = -1, hi = (long)w->s.nr, k;

		if (w->item[i].kind != W_NEW)
			continue;
		for (k = (long)i - 1; k >= 0; k--)
			if (w->item[k].kind == W_KEPT) {
				lo = (long)w->item[k].cp->index;
				break;
			}
		for (k = (long)i + 1; k < (long)cp->nr; k++)
			if (w->item[k].kind == W_KEPT) {
				hi = (long)w->item[k].cp->index;
				break;
			}
		for (j = 0; j < nl; j++)
			if (!used[j] && at[j] > lo && at[j] < hi) {
				used[j] = 1;
				w->item[i].kind = W_MOVED;
				w->item[i].from = &w->last.pts[j];
				break;
			}
		w->nreported++;
	}
	w->gone = xcalloc(nl + 1, sizeof(*w->gone));
	for (j = 0; j < nl; j++)
		if (!used[j])
			w->gone[w->ngone++] = &w->last.pts[j];
	free(at);
	free(used);
}

static long new_runs(const struct watched *w)
{
	long n = (long)w->s.nr - (w->last.known ? w->last.runs : 0);

	return n > 0 ? n : 0;
}

static void watch_text(const struct watched *w, FILE *f)
{
	struct table t;
	size_t i;

	cp_series_title(&w->s, f);
	fprintf(f, "%zu runs at %zu commits, %ld new; %zu change point%s "
		"new or moved, %zu gone, %zu in all\n", w->s.nr,
		cp_nr_commits(&w->s), new_runs(w), w->nreported,
		w->nreported == 1 ? "" : "s", w->ngone, w->s.cp.nr);
	table_init(&t, 9, 0xf0ul);
	table_addf(&t, "KIND");
	table_addf(&t, "COMMIT");
	table_addf(&t, "LAST BEFORE");
	table_addf(&t, "FROM");
	table_addf(&t, "BEFORE");
	table_addf(&t, "AFTER");
	table_addf(&t, "CHANGE");
	table_addf(&t, "P");
	table_addf(&t, "VERDICT");
	for (i = 0; i < w->s.cp.nr; i++) {
		const struct watch_item *it = &w->item[i];
		const struct cp_point *p = it->cp;
		char a[13], b[13], c[13] = "-";

		if (it->kind == W_KEPT)
			continue;
		cp_short_sha(a, w->s.r[p->index].sha);
		cp_short_sha(b, w->s.r[p->index - 1].sha);
		if (it->from)
			cp_short_sha(c, it->from->sha);
		table_addf(&t, "%s", kind_name[it->kind]);
		table_addf(&t, "%s", a);
		table_addf(&t, "%s", b);
		table_addf(&t, "%s", c);
		table_addf(&t, "%.6g (n=%zu)", p->mean_before, p->n_before);
		table_addf(&t, "%.6g (n=%zu)", p->mean_after, p->n_after);
		table_addf(&t, "%+.2f%%", p->change_pct);
		table_addf(&t, "%.2g", p->pvalue);
		table_addf(&t, "%s",
			   direction_verdict(w->s.direction, p->change_pct));
	}
	if (w->nreported)
		table_print(&t, f);
	table_release(&t);
	for (i = 0; i < w->ngone; i++) {
		char a[13];

		cp_short_sha(a, w->gone[i]->sha);
		fprintf(f, "gone: %s (p %.2g when reported)\n", a,
			w->gone[i]->p);
	}
	fputc('\n', f);
}

static json_t *watch_json(const struct watched *w)
{
	json_t *o = history_series_json(w->s.r, w->s.direction);
	json_t *cps = json_array(), *gone = json_array();
	size_t i;

	json_object_set_new(o, "runs", json_integer((json_int_t)w->s.nr));
	json_object_set_new(o, "new_runs", json_integer(new_runs(w)));
	json_object_set_new(o, "changepoints_in_all",
			    json_integer((json_int_t)w->s.cp.nr));
	for (i = 0; i < w->s.cp.nr; i++) {
		const struct watch_item *it = &w->item[i];
		const struct cp_point *p = it->cp;
		json_t *c;

		if (it->kind == W_KEPT)
			continue;
		c = cp_point_json(&w->s, p);
		json_object_set_new(c, "kind", json_string(kind_name[it->kind]));
		json_object_set_new(c, "from", it->from ?
				    json_string(it->from->sha) : json_null());
		json_object_set_new(c, "index", json_integer((json_int_t)p->index));
		json_array_append_new(cps, c);
	}
	for (i = 0; i < w->ngone; i++) {
		json_t *g = json_object();

		json_object_set_new(g, "commit", json_string(w->gone[i]->sha));
		json_object_set_new(g, "p", json_finite(w->gone[i]->p));
		json_array_append_new(gone, g);
	}
	json_object_set_new(o, "changepoints", cps);
	json_object_set_new(o, "gone", gone);
	return o;
}

static struct watch_key key_of(const struct history_row *r)
{
	struct watch_key k = { r->metric, r->testcase, r->params, r->machine };

	return k;
}

/* Store w's change points now as the series' state; 0 or -1 */
static int store(struct db *db, const struct watched *w)
{
	struct watch_key k = key_of(w->s.r);
	struct watch_point *pts = xcalloc(w->s.cp.nr + 1, sizeof(*pts));
	size_t i;
	int r;

	for (i = 0; i < w->s.cp.nr; i++) {
		const struct cp_point *p = &w->s.cp.points[i];

		pts[i].sha = w->s.r[p->index].sha;
		pts[i].index = (long)p->index;
		pts[i].p = p->pvalue;
	}
	r = watch_store(db, &k, (long)w->s.nr, pts, w->s.cp.nr);
	free(pts);
	return r;
}

struct watch_run {
	struct watched *w;
	size_t nr, alloc;
	struct history_row **rows;	/* one history per --metric */
	size_t *nrows, nhist;
	size_t nreported;
};

/* Is metric m one an earlier --metric's history had? */
static int seen_metric(const struct watch_run *run, const char *m)
{
	size_t i, j;

	for (i = 0; i + 1 < run->nhist; i++)
		for (j = 0; j < run->nrows[i]; j++)
			if (!strcmp(run->rows[i][j].metric, m))
				return 1;
	return 0;
}

/* Every series of glob: computed, compared and stored; 0 or -1 */
static int watch_glob(struct db *db, const struct watch_args *a,
		      const struct direction_overrides *dirs,
		      const char *glob, struct watch_run *run)
{
	struct history_row *rows;
	size_t nr, i, j;

	if (query_history(db, &a->f, glob, &rows, &nr))
		return -1;
	run->rows = xrealloc(run->rows, (run->nhist + 1) * sizeof(*run->rows));
	run->nrows = xrealloc(run->nrows,
			      (run->nhist + 1) * sizeof(*run->nrows));
	run->rows[run->nhist] = rows;
	run->nrows[run->nhist++] = nr;
	for (i = 0; i < nr; i = j) {
		struct watched *w;
		struct watch_key k = key_of(&rows[i]);

		for (j = i; j < nr && history_same_series(&rows[i], &rows[j]); j++)
			;
		if (seen_metric(run, rows[i].metric))
			continue;
		ALLOC_GROW(run->w, run->nr + 1, run->alloc);
		w = &run->w[run->nr++];
		memset(w, 0, sizeof(*w));
		w->s.r = &rows[i];
		w->s.nr = j - i;
		w->s.window = a->window;
		w->s.direction = direction_of(dirs, rows[i].metric,
					      rows[i].unit, rows[i].stated);
		if (watch_load(db, &k, &w->last) || cp_series_detect(&w->s, &a->cpo))
			return -1;
		classify(w);
		run->nreported += w->nreported;
		if (store(db, w))
			return -1;
	}
	return 0;
}

static void run_release(struct watch_run *run)
{
	size_t i;

	for (i = 0; i < run->nr; i++) {
		cp_result_release(&run->w[i].s.cp);
		watch_state_release(&run->w[i].last);
		free(run->w[i].item);
		free(run->w[i].gone);
	}
	free(run->w);
	for (i = 0; i < run->nhist; i++)
		history_rows_free(run->rows[i], run->nrows[i]);
	free(run->rows);
	free(run->nrows);
}

/* The text report: the series with something to say, then a summary */
static void report_text(const struct watch_run *run, FILE *f)
{
	size_t i, nser = 0;
	long nruns = 0;

	for (i = 0; i < run->nr; i++) {
		nruns += new_runs(&run->w[i]);
		if (run->w[i].nreported || run->w[i].ngone) {
			watch_text(&run->w[i], f);
			nser++;
		}
	}
	fprintf(f, "%zu change point%s new or moved in %zu of %zu series "
		"(%ld new runs)\n", run->nreported,
		run->nreported == 1 ? "" : "s", nser, run->nr, nruns);
}

static void report_json(const struct watch_run *run,
			const struct watch_args *a)
{
	json_t *doc = json_object(), *arr = json_array();
	size_t i;
	long nruns = 0;

	for (i = 0; i < run->nr; i++) {
		nruns += new_runs(&run->w[i]);
		if (run->w[i].nreported || run->w[i].ngone)
			json_array_append_new(arr, watch_json(&run->w[i]));
	}
	json_object_set_new(doc, "series", arr);
	json_object_set_new(doc, "series_watched",
			    json_integer((json_int_t)run->nr));
	json_object_set_new(doc, "new_runs", json_integer(nruns));
	json_object_set_new(doc, "new_or_moved",
			    json_integer((json_int_t)run->nreported));
	json_object_set_new(doc, "max_pvalue", json_real(a->cpo.max_pvalue));
	json_object_set_new(doc, "min_change_pct", json_real(a->min_pct));
	json_object_set_new(doc, "window", json_integer((json_int_t)a->window));
	print_json_steal(doc);
}

/* --mail's settings: the flags over the config and environment */
static int mail_settings(const struct watch_args *a, struct mail_settings *ms)
{
	switch (mail_settings_load(ms)) {
	case 0: break;
	case -1: return EXIT_USAGE;
	default: return EXIT_ENV;
	}
	mail_settings_flags(ms, a->from, &a->to, &a->cc, a->smtp);
	if (!ms->from)
		return usage_error(&watch_options, "--mail: who sends it? "
				   "--from, PERFSIFT_FROM or the config's "
				   "'from'");
	if (!ms->to.nr)
		return usage_error(&watch_options, "--mail: to whom? --to or "
				   "the config's 'to'");
	if (!ms->smtp_url)
		return usage_error(&watch_options, "--mail: through which "
				   "server? --smtp URL, PERFSIFT_SMTP_URL or "
				   "the config's 'smtp-url'");
	return EXIT_OK;
}

/* The report as a message, sent; an exit status */
static int send_report(const struct watch_run *run,
		       const struct mail_settings *ms)
{
	struct message_spec m = { 0 };
	struct sbuf msg = SBUF_INIT;
	char *body = NULL, *subject, *msgid = NULL;
	const char **rcpt = xcalloc(ms->to.nr + ms->cc.nr + 1, sizeof(*rcpt));
	size_t len = 0, n = 0, i;
	FILE *f = open_memstream(&body, &len);
	int status = EXIT_ENV;

	if (!f)
		die(EXIT_ENV, "out of memory for the mail's body");
	report_text(run, f);
	fclose(f);
	subject = xstrfmt("perfsift watch: %zu change point%s new or moved",
			  run->nreported, run->nreported == 1 ? "" : "s");
	m.from = ms->from;
	m.to = (const char *const *)ms->to.v;
	m.nto = ms->to.nr;
	m.cc = (const char *const *)ms->cc.v;
	m.ncc = ms->cc.nr;
	m.subject = subject;
	m.body = body;
	m.msgid_domain = ms->msgid_domain;
	m.date = message_date();
	for (i = 0; i < ms->to.nr; i++)
		rcpt[n++] = ms->to.v[i];
	for (i = 0; i < ms->cc.nr; i++)
		rcpt[n++] = ms->cc.v[i];
	if (message_build(&m, &msg, &msgid)) {
		status = EXIT_USAGE;
	} else if (!smtp_send(ms, ms->from, rcpt, n, msg.buf, msg.len)) {
		fprintf(stderr, "sent to %zu recipient%s via %s\n", n,
			n == 1 ? "" : "s", ms->smtp_url);
		status = EXIT_OK;
	}
	sbuf_release(&msg);
	free(msgid);
	free(subject);
	free(body);
	free(rcpt);
	return status;
}

/* Watch, report, mail, then commit the state; an exit status */
static int watch(struct db *db, const struct watch_args *a,
		 struct mail_settings *ms)
{
	static const char *const every[] = { "*" };
	struct direction_overrides dirs = { 0 };
	struct watch_run run = { 0 };
	const char *const *globs = a->metrics.nr ? a->metrics.v : every;
	size_t nglobs = a->metrics.nr ? a->metrics.nr : 1, i;
	int status = EXIT_ENV, in_tx = 0;

	if (direction_load(db, &dirs) || db_begin(db))
		goto out;
	in_tx = 1;
	for (i = 0; i < nglobs; i++)
		if (watch_glob(db, a, &dirs, globs[i], &run))
			goto out;
	if (!run.nr) {
		error("no sample of %s in a run whose commit is recorded "
		      "(see 'perfsift metrics' and 'perfsift commits import')",
		      a->metrics.nr ? "the metrics asked for" : "any metric");
		status = EXIT_USAGE;
		goto out;
	}
	if (a->mail && run.nreported) {
		status = send_report(&run, ms);
		if (status != EXIT_OK)
			goto out;
	}
	if (db_commit(db))
		goto out;
	in_tx = 0;
	if (a->json)
		report_json(&run, a);
	else
		report_text(&run, stdout);
	status = run.nreported ? EXIT_FOUND : EXIT_OK;
out:
	if (in_tx)
		db_rollback(db);
	run_release(&run);
	direction_release(&dirs);
	return status;
}

int cmd_watch(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct watch_args a = { .cpo = CP_OPTIONS_INIT,
				.window = CP_WINDOW_DEFAULT };
	struct mail_settings ms = { 0 };
	int status;

	argc = parse_options(argc, argv, &watch_options, &a, 0, &status);
	if (argc < 0)
		goto out;
	status = EXIT_USAGE;
	if (argc) {
		status = usage_error(&watch_options, "unexpected argument '%s'",
				     argv[0]);
		goto out;
	}
	if (!a.mail && (a.from || a.to.nr || a.cc.nr || a.smtp)) {
		status = usage_error(&watch_options, "--from, --to, --cc and "
				     "--smtp are for --mail");
		goto out;
	}
	a.cpo.min_magnitude = a.min_pct / 100;
	if (a.mail && (status = mail_settings(&a, &ms)) != EXIT_OK)
		goto out;
	status = EXIT_ENV;
	if (cmd_db(ctx))
		status = watch(&ctx->db, &a, &ms);
out:
	mail_settings_release(&ms);
	strlist_release(&a.metrics);
	strlist_release(&a.to);
	strlist_release(&a.cc);
	return status;
}
