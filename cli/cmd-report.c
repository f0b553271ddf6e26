/*
 * perfsift report: the comparison of BASE and NEW... as the post to the
 * list (report/report.c), as an RFC 5322 message (lib/mail/message.c),
 * written to an .eml or an mbox, sent over SMTP (lib/mail/smtp.c), or
 * as a static HTML page (plots/html.c).
 */
#include "core/compat.h"
#include "mail/smtp.h"
#include "output/compare-fmt.h"
#include "store/query.h"
#include "../plots/html.h"
#include "mail/message.h"
#include "../report/report.h"
#include "cmd.h"
#include "options.h"
#include "strlist.h"

struct report_args {
	struct compare_args cmp;
	int style;		/* enum report_style */
	int all, attach, send;
	const char *tree, *subsys, *from, *in_reply_to, *smtp;
	const char *out, *mbox, *html;
	struct strlist to, cc;
	struct sbuf repro;	/* the compare options, shell-quoted */
};

/* Append ' ' and word, single-quoted when the shell would split it. */
static void shell_word(struct sbuf *sb, const char *word)
{
	const char *p;

	sbuf_addch(sb, ' ');
	if (*word && !word[strspn(word, "abcdefghijklmnopqrstuvwxyz"
				   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				   "_-.,:/=+@%")]) {
		sbuf_addstr(sb, word);
		return;
	}
	sbuf_addch(sb, '\'');
	for (p = word; *p; p++) {
		if (*p == '\'')
			sbuf_addstr(sb, "'\\''");
		else
			sbuf_addch(sb, *p);
	}
	sbuf_addch(sb, '\'');
}

/* compare's options as typed, for the command that rebuilds the report */
static int echo_compare_option(void *args, const struct opt *o,
			       const char *arg)
{
	struct report_args *a = args;

	if (OPT_IS_IN(o, struct report_args, cmp)) {
		sbuf_addf(&a->repro, " --%s", o->long_name);
		shell_word(&a->repro, arg);
	}
	return 0;
}

static const struct opt_word style_words[] = {
	{ "lkp", REPORT_LKP },
	{ "mmtests", REPORT_MMTESTS },
	{ NULL, 0 },
};

static const char *const report_usage[] = {
	"perfsift report BASE NEW... [--style lkp|mmtests] [--all]\n"
	"                [--tree T] [--subsys S] [compare's options]\n"
	"                [--from A] [--to A]... [--cc A]...\n"
	"                [--in-reply-to ID] [--attach-plots]\n"
	"                [-o FILE.eml] [--mbox FILE] [--send]\n"
	"                [--smtp URL] [--html DIR]",
	NULL,
};

#define T struct report_args
static const struct opt report_opts[] = {
	OPT_ENUM("style", T, style, "S", "lkp (default) or mmtests",
		 style_words),
	OPT_BOOL(0, "all", T, all,
		 "every row in the table, not only significant ones"),
	OPT_STRING(0, "tree", T, tree, "T",
		   "the subject's [T] (e.g. linus:master)"),
	OPT_STRING(0, "subsys", T, subsys, "S",
		   "the subject's [S] (e.g. mm)"),
	OPT_STRING(0, "from", T, from, "A",
		   "the sender (else PERFSIFT_FROM, else the config)"),
	OPT_LIST("to", T, to, "A",
		 "recipients (repeatable; else the config's)"),
	OPT_LIST("cc", T, cc, "A",
		 "copy recipients (repeatable; else the config's)"),
	OPT_STRING(0, "in-reply-to", T, in_reply_to, "ID",
		   "answer the message ID, in its thread"),
	OPT_BOOL(0, "attach-plots", T, attach,
		 "the significant metrics' charts as PNG parts"),
	OPT_STRING('o', "output", T, out, "FILE",
		   "write the message to FILE (replaced atomically)"),
	OPT_STRING(0, "mbox", T, mbox, "FILE",
		   "append it to the mbox FILE (mboxrd)"),
	OPT_BOOL(0, "send", T, send,
		 "send it over SMTP (written to disk first: -o's\n"
		 "file, else ./report-DATE-ID.eml; a failed send\n"
		 "keeps it for 'perfsift send FILE')"),
	OPT_STRING(0, "smtp", T, smtp, "URL",
		   "smtp://host[:port] or smtps://... (else\n"
		   "PERFSIFT_SMTP_URL, else the config's smtp-url)"),
	OPT_STRING(0, "html", T, html, "DIR",
		   "write DIR/index.html: the tables and the charts\n"
		   "as inline SVG, a self-contained page"),
	OPT_GROUP("As for 'perfsift compare':"),
	OPT_COMPARE_ROWS(T, cmp),
	OPT_COMPARE_TESTS(T, cmp.o),
	OPT_END(),
};
#undef T

const struct cmd_options report_options = {
	.name = "report",
	.usage = report_usage,
	.description =
	"The comparison of BASE and NEW (as 'perfsift compare' makes it) as\n"
	"the post to the list.  lkp style: the kernel test robot's layout:\n"
	"subject '[tree] [subsys] <sha10>: <metric> <pct>% regression', the\n"
	"lead sentence naming the most important significant change (a\n"
	"benchmark's headline metric first, then regressions, then the\n"
	"smallest q), commit and base with their subjects, testcase, config,\n"
	"compiler, machine, parameters, the %stddev %change %stddev table of\n"
	"the significant rows (every row with --all), an ASCII chart of the\n"
	"lead metric, and the perfsift commands that rebuild it.  mmtests\n"
	"style: MMTests' compare-kernels tables.  Nothing significant: the\n"
	"subject and the report say 'no significant change'.\n"
	"\n"
	"Without -o, --mbox, --send or --html the message goes to stdout\n"
	"(only the subject and the text when no From is known).  The message:\n"
	"From, To, Cc, Subject (RFC 2047 when not ASCII), Date, Message-ID\n"
	"(its domain: the config's message-id-domain, else the host name),\n"
	"In-Reply-To and References with --in-reply-to, or by themselves\n"
	"when NEW's results were imported from a mail (a robot report: the\n"
	"answer is 'Re:' its subject, in its thread); text/plain UTF-8;\n"
	"--attach-plots adds each significant metric's chart as a PNG\n"
	"(6 at most).  $SOURCE_DATE_EPOCH fixes Date (and so Message-ID).\n",
	.options = report_opts,
	.epilogue = "Settings, the config file and the password: see "
		    "'perfsift help send'.\n",
	.hook = echo_compare_option,
};

/*
 * The options (the selectors to argv[0..n), n returned), checked
 * together; -1 with *status when the command ends here.
 */
static int parse_args(int argc, const char **argv, struct report_args *a,
		      int *status)
{
	argc = parse_options(argc, argv, &report_options, a, 0, status);
	if (argc < 0)
		return -1;
	compare_args_done(&a->cmp);
	*status = EXIT_USAGE;
	if (argc < 2)
		return usage_error(&report_options, "need BASE and at least "
				   "one NEW variant"), -1;
	/* what only a message uses would be ignored by the page */
	if (a->html && (a->out || a->mbox || a->send || a->attach ||
			a->from || a->to.nr || a->cc.nr || a->in_reply_to ||
			a->smtp || a->tree || a->subsys ||
			a->style != REPORT_LKP))
		return usage_error(&report_options, "--html writes a page, not "
				   "a message: not with -o, --mbox, --send, "
				   "--attach-plots, --from, --to, --cc, "
				   "--in-reply-to, --smtp, --tree, --subsys or "
				   "--style mmtests"), -1;
	if (a->smtp && !a->send)
		return usage_error(&report_options, "--smtp names the server "
				   "for --send"), -1;
	*status = EXIT_OK;
	return argc;
}

/* Resolve the selectors (argv[0..n)) into var; an exit status. */
static int resolve(struct db *db, const char **argv, size_t n,
		   const struct report_args *a, struct selector *var)
{
	size_t i, j;
	int r;

	for (i = 0; i < n; i++) {
		r = selector_resolve(db, argv[i], a->cmp.o.dim, a->cmp.o.param,
				     &var[i]);
		if (r)
			return r == -1 ? EXIT_USAGE : EXIT_ENV;
		for (j = 0; j < i; j++)
			if (var[j].dim == var[i].dim &&
			    !strcmp(var[j].value, var[i].value))
				return usage_error(&report_options, "'%s' and "
						   "'%s' are the same variant",
						   var[j].text, var[i].text);
	}
	return EXIT_OK;
}

/* --attach-plots attaches the charts of so many metrics at most */
#define MAX_ATTACHED_CHARTS 6

/* The significant metrics' charts as PNG attachments. */
static void attach_charts(const struct report_req *rq,
			  struct attachment *att, size_t *natt,
			  struct sbuf *data)
{
	const struct comparison *c = rq->c;
	size_t i, j;

	*natt = 0;
	for (i = 0; i < c->nr && *natt < MAX_ATTACHED_CHARTS; i++) {
		int sig = 0;

		for (j = 0; j + 1 < c->nvar; j++)
			sig |= cmp_vs_changed(&c->rows[i].vs[j]);
		if (!sig || report_chart(rq, &c->rows[i], PLOT_PNG,
					 &data[*natt]))
			continue;
		att[*natt].name = xstrfmt("%zu-%s.png", *natt + 1,
					  c->rows[i].metric);
		att[*natt].type = "image/png";
		att[*natt].data = data[*natt].buf;
		att[*natt].len = data[*natt].len;
		(*natt)++;
	}
}

/* Where --send keeps the message when neither -o nor --mbox is given. */
static char *default_eml_path(const char *msgid)
{
	const char *dot = strchr(msgid, '.');
	size_t stamp = dot ? (size_t)(dot - msgid) : 0;

	return xstrfmt("report-%.*s-%.8s.eml", (int)stamp, msgid,
		       dot ? dot + 1 : msgid);
}

/* Every recipient: To then Cc. */
static const char **recipients(const struct mail_settings *ms, size_t *n)
{
	const char **r = xcalloc(ms->to.nr + ms->cc.nr + 1, sizeof(*r));
	size_t i;

	*n = 0;
	for (i = 0; i < ms->to.nr; i++)
		r[(*n)++] = ms->to.v[i];
	for (i = 0; i < ms->cc.nr; i++)
		r[(*n)++] = ms->cc.v[i];
	return r;
}

/* -o and --mbox: the message written where asked; 0 or -1 */
static int store_message(const struct report_args *a,
			 const struct mail_settings *ms, const struct sbuf *msg,
			 time_t date)
{
	if (a->out) {
		if (message_write_eml(a->out, msg->buf, msg->len))
			return -1;
		fprintf(stderr, "wrote %s\n", a->out);
	}
	if (a->mbox) {
		if (message_append_mbox(a->mbox, msg->buf, msg->len, ms->from,
					date))
			return -1;
		fprintf(stderr, "appended to %s\n", a->mbox);
	}
	return 0;
}

/* --send: the message on disk (-o's, else its own file), then sent */
static int send_message(const struct report_args *a,
			struct mail_settings *ms, const struct sbuf *msg,
			const char *msgid)
{
	char *path = NULL;
	const char *kept = a->out;
	const char **rcpt;
	size_t nrcpt;
	int status = EXIT_ENV;

	if (!kept) {
		path = default_eml_path(msgid);
		if (message_write_eml(path, msg->buf, msg->len)) {
			free(path);
			return EXIT_ENV;
		}
		fprintf(stderr, "wrote %s\n", path);
		kept = path;
	}
	rcpt = recipients(ms, &nrcpt);
	if (smtp_send(ms, ms->from, rcpt, nrcpt, msg->buf, msg->len)) {
		fprintf(stderr, "perfsift: the message is kept in %s; "
			"'perfsift send %s' tries again\n", kept, kept);
	} else {
		fprintf(stderr, "sent to %zu recipient%s via %s\n", nrcpt,
			nrcpt == 1 ? "" : "s", ms->smtp_url);
		status = EXIT_OK;
	}
	free(rcpt);
	free(path);
	return status;
}

/*
 * Build the message, write it where asked, send it; an exit status.
 * The message is on disk before a send is tried.
 */
static int deliver(const struct report_args *a, struct mail_settings *ms,
		   const struct report_req *rq, const char *subject,
		   const char *body, const char *in_reply_to,
		   const char *references)
{
	struct message_spec m = { 0 };
	struct attachment att[MAX_ATTACHED_CHARTS];
	struct sbuf data[MAX_ATTACHED_CHARTS], msg = SBUF_INIT;
	char *msgid = NULL;
	size_t natt = 0, i;
	int status = EXIT_USAGE;

	for (i = 0; i < ARRAY_SIZE(data); i++)
		sbuf_init(&data[i], 0);
	m.from = ms->from;
	m.to = (const char *const *)ms->to.v;
	m.nto = ms->to.nr;
	m.cc = (const char *const *)ms->cc.v;
	m.ncc = ms->cc.nr;
	m.subject = subject;
	m.body = body;
	m.in_reply_to = in_reply_to;
	m.references = references;
	m.msgid_domain = ms->msgid_domain;
	m.date = message_date();
	if (a->attach) {
		attach_charts(rq, att, &natt, data);
		m.att = att;
		m.natt = natt;
	}
	if (message_build(&m, &msg, &msgid))
		goto out;
	status = EXIT_OK;
	if (!a->out && !a->mbox && !a->send)
		fwrite(msg.buf, 1, msg.len, stdout);
	else if (store_message(a, ms, &msg, m.date))
		status = EXIT_ENV;
	else if (a->send)
		status = send_message(a, ms, &msg, msgid);
out:
	for (i = 0; i < natt; i++)
		free((char *)att[i].name);
	for (i = 0; i < ARRAY_SIZE(data); i++)
		sbuf_release(&data[i]);
	sbuf_release(&msg);
	free(msgid);
	return status;
}

void mail_settings_flags(struct mail_settings *ms, const char *from,
			 const struct strlist *to, const struct strlist *cc,
			 const char *smtp)
{
	size_t i;

	if (from) {
		free(ms->from);
		ms->from = xstrdup(from);
	}
	if (to->nr) {
		addr_list_release(&ms->to);
		for (i = 0; i < to->nr; i++)
			addr_list_add(&ms->to, to->v[i]);
	}
	if (cc->nr) {
		addr_list_release(&ms->cc);
		for (i = 0; i < cc->nr; i++)
			addr_list_add(&ms->cc, cc->v[i]);
	}
	if (smtp) {
		free(ms->smtp_url);
		ms->smtp_url = xstrdup(smtp);
	}
}

/* Flags over the settings' file and environment; an exit status. */
static int settings(const struct report_args *a, struct mail_settings *ms)
{
	switch (mail_settings_load(ms)) {
	case 0: break;
	case -1: return EXIT_USAGE;
	default: return EXIT_ENV;
	}
	mail_settings_flags(ms, a->from, &a->to, &a->cc, a->smtp);
	if ((a->out || a->mbox || a->send) && !ms->from)
		return usage_error(&report_options, "who sends it? --from, "
				   "PERFSIFT_FROM or the config's 'from'");
	if (a->send && !ms->to.nr)
		return usage_error(&report_options, "to whom? --to or the "
				   "config's 'to'");
	if (a->send && !ms->smtp_url)
		return usage_error(&report_options, "through which server? "
				   "--smtp URL, PERFSIFT_SMTP_URL or the "
				   "config's 'smtp-url'");
	return EXIT_OK;
}

/* --html DIR: the page of the comparison; an exit status */
static int html_page(const struct report_args *a,
		     const struct comparison *cmp, const char **names,
		     size_t nvar)
{
	struct html_opts ho = { 0 };
	struct sbuf title = SBUF_INIT;
	size_t i;
	int r;

	for (i = 0; i < nvar; i++)
		sbuf_addf(&title, "%s%s", i ? " vs " : "",
			  selector_label(&cmp->var[i]));
	ho.title = title.buf;
	ho.all = a->all;
	ho.names = names;	/* as typed */
	r = report_html(cmp, &ho, a->html);
	if (!r)
		fprintf(stderr, "wrote %s/index.html\n", a->html);
	sbuf_release(&title);
	return r ? EXIT_ENV : EXIT_OK;
}

/* The mail a post answers, and what it says of it. */
struct reply {
	char *msgid, *refs, *subject;	/* owned; NULL: NEW is no mail's */
	const char *irt, *references;	/* the headers; NULL: none */
};

/* --in-reply-to, else the mail NEW's results came from; 0 or -1 */
static int find_reply(struct db *db, const struct report_args *a,
		      const struct selector *new, struct reply *rp)
{
	int nmsg = 0;

	memset(rp, 0, sizeof(*rp));
	if (a->in_reply_to) {
		rp->irt = a->in_reply_to;
		return 0;
	}
	if (query_variant_message(db, new, &rp->msgid, &rp->refs,
				  &rp->subject, &nmsg) < 0)
		return -1;
	if (rp->msgid) {
		rp->irt = rp->msgid;
		rp->references = *rp->refs ? rp->refs : NULL;
	}
	return 0;
}

static void reply_release(struct reply *rp)
{
	free(rp->msgid);
	free(rp->refs);
	free(rp->subject);
}

/*
 * The post of cmp (of var[0..nvar), typed as names[]): printed, written
 * or sent; an exit status.
 */
static int report_post(struct db *db, const struct report_args *a,
		       struct mail_settings *ms, const char **names,
		       struct selector *var, size_t nvar,
		       const struct comparison *cmp)
{
	struct report_req rq = { 0 };
	struct report_key key;
	struct sbuf subject = SBUF_INIT, body = SBUF_INIT, repro = SBUF_INIT;
	struct reply rp;
	char *headline = NULL;
	size_t i;
	int status = EXIT_ENV;

	if (find_reply(db, a, &var[1], &rp))
		goto out;
	for (i = 0; i < nvar; i++)
		shell_word(&repro, names[i]);
	sbuf_add(&repro, a->repro.buf, a->repro.len);
	rq.style = a->style;
	rq.db = db;
	rq.c = cmp;
	rq.var = var;
	rq.nvar = nvar;
	rq.tree = a->tree;
	rq.subsys = a->subsys;
	rq.all = a->all;
	rq.reproduce_args = repro.buf + 1;
	rq.reply_subject = rp.subject && *rp.subject ? rp.subject : NULL;
	if (query_variant_headline(db, &var[1], &headline) < 0)
		goto out;
	rq.headline_metric = headline;
	if (report_build(&rq, &subject, &body, &key))
		goto out;
	if (!ms->from && !a->out && !a->mbox && !a->send) {
		printf("Subject: %s\n\n%s", subject.buf, body.buf);
		status = EXIT_OK;
	} else {
		status = deliver(a, ms, &rq, subject.buf, body.buf, rp.irt,
				 rp.references);
	}
out:
	free(headline);
	reply_release(&rp);
	sbuf_release(&repro);
	sbuf_release(&subject);
	sbuf_release(&body);
	return status;
}

/* Compare the selectors argv[0..nvar), then the page or the post. */
static int report_comparison(struct db *db, const char **argv, size_t nvar,
			     struct report_args *a, struct mail_settings *ms)
{
	struct selector *var = xcalloc(nvar, sizeof(*var));
	struct comparison cmp;
	size_t i;
	int status = resolve(db, argv, nvar, a, var);

	if (status)
		goto out;
	a->cmp.o.mm_pool = a->style == REPORT_MMTESTS;
	a->cmp.o.keep_samples = 1;	/* its charts draw each run */
	if (compare_variants(db, var, nvar, &a->cmp.o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	if (!cmp.nr) {
		error("no metric is shared by these variants%s",
		      a->cmp.o.metric_globs.nr || a->cmp.o.testcase_globs.nr ||
		      a->cmp.o.machine ? " with these filters" : "");
		status = EXIT_USAGE;
	} else if (a->html) {
		status = html_page(a, &cmp, argv, nvar);
	} else {
		status = report_post(db, a, ms, argv, var, nvar, &cmp);
	}
	comparison_release(&cmp);
out:
	for (i = 0; i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	return status;
}

int cmd_report(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct report_args a = { .style = REPORT_LKP };
	struct mail_settings ms = { 0 };
	int status;

	compare_args_init(&a.cmp);
	sbuf_init(&a.repro, 0);
	argc = parse_args(argc, argv, &a, &status);
	if (argc >= 0 && !a.html)
		status = settings(&a, &ms);
	if (argc >= 0 && !status)
		status = !cmd_db(ctx) ? EXIT_ENV :
			 cmd_output_ok(ctx, a.out) ? EXIT_USAGE :
			 cmd_output_ok(ctx, a.mbox) ? EXIT_USAGE :
			 report_comparison(&ctx->db, argv, (size_t)argc, &a,
					   &ms);
	compare_args_release(&a.cmp);
	strlist_release(&a.to);
	strlist_release(&a.cc);
	sbuf_release(&a.repro);
	mail_settings_release(&ms);
	return status;
}
