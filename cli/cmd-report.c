/*
 * perfsift report: the comparison of BASE and NEW... as the post to the
 * list (report/report.c), as an RFC 5322 message (report/message.c),
 * written to an .eml or an mbox, sent over SMTP (lib/core/smtp.c), or
 * as a static HTML page (plots/html.c).
 */
#include "core/compat.h"
#include "core/smtp.h"
#include "output/compare-fmt.h"
#include "store/query.h"
#include "../plots/html.h"
#include "../report/message.h"
#include "../report/report.h"
#include "cmd.h"
#include "strlist.h"
#include <getopt.h>

const char *const report_usage[] = {
	"usage: perfsift report BASE NEW... [--style lkp|mmtests] [--all]",
	"                       [--tree T] [--subsys S] [compare's options]",
	"                       [--from A] [--to A]... [--cc A]...",
	"                       [--in-reply-to ID] [--attach-plots]",
	"                       [-o FILE.eml] [--mbox FILE] [--send]",
	"                       [--smtp URL] [--html DIR]",
	"",
	"The comparison of BASE and NEW (as 'perfsift compare' makes it) as",
	"the post to the list.  lkp style: the kernel test robot's layout:",
	"subject '[tree] [subsys] <sha10>: <metric> <pct>% regression', the",
	"lead sentence naming the most important significant change (a",
	"benchmark's headline metric first, then regressions, then the",
	"smallest q), commit and base with their subjects, testcase, config,",
	"compiler, machine, parameters, the %stddev %change %stddev table of",
	"the significant rows (every row with --all), an ASCII chart of the",
	"lead metric, and the perfsift commands that rebuild it.  mmtests",
	"style: MMTests' compare-kernels tables.  Nothing significant: the",
	"subject and the report say 'no significant change'.",
	"",
	"Without -o, --mbox, --send or --html the message goes to stdout",
	"(only the subject and the text when no From is known).  The message:",
	"From, To, Cc, Subject (RFC 2047 when not ASCII), Date, Message-ID",
	"(its domain: the config's message-id-domain, else the host name),",
	"In-Reply-To and References with --in-reply-to, or by themselves",
	"when NEW's results were imported from a mail (a robot report: the",
	"answer is 'Re:' its subject, in its thread); text/plain UTF-8;",
	"--attach-plots adds each significant metric's chart as a PNG",
	"(6 at most).  $SOURCE_DATE_EPOCH fixes Date (and so Message-ID).",
	"",
	"    --style S       lkp (default) or mmtests",
	"    --all           every row in the table, not only significant ones",
	"    --tree T        the subject's [T] (e.g. linus:master)",
	"    --subsys S      the subject's [S] (e.g. mm)",
	"    --by, --testcase, --metric, --machine, --ignore-param, --test,",
	"    --alpha, --fdr, --min-change: as for 'perfsift compare'",
	"    --from A        the sender (else PERFSIFT_FROM, else the config)",
	"    --to A, --cc A  recipients (repeatable; else the config's)",
	"    --in-reply-to ID  answer the message ID, in its thread",
	"    --attach-plots  the significant metrics' charts as PNG parts",
	"    -o FILE         write the message to FILE (replaced atomically)",
	"    --mbox FILE     append it to the mbox FILE (mboxrd)",
	"    --send          send it over SMTP (written to disk first: -o's",
	"                    file, else ./report-DATE-ID.eml; a failed send",
	"                    keeps it for 'perfsift send FILE')",
	"    --smtp URL      smtp://host[:port] or smtps://... (else",
	"                    PERFSIFT_SMTP_URL, else the config's smtp-url)",
	"    --html DIR      write DIR/index.html: the tables and the charts",
	"                    as inline SVG, a self-contained page",
	"",
	"Settings, the config file and the password: see 'perfsift help send'.",
	NULL,
};

struct report_args {
	struct cmp_opts o;
	char *param;
	enum report_style style;
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

static int parse_args(int argc, const char **argv, struct report_args *a)
{
	enum { O_BY = 256, O_TESTCASE, O_METRIC, O_MACHINE, O_IGNORE, O_ALL,
	       O_STYLE, O_TREE, O_SUBSYS, O_FROM, O_TO, O_CC, O_IRT,
	       O_ATTACH, O_MBOX, O_SEND, O_SMTP, O_HTML };
	static const struct option opts[] = {
		{ "by", required_argument, NULL, O_BY },
		{ "testcase", required_argument, NULL, O_TESTCASE },
		{ "metric", required_argument, NULL, O_METRIC },
		{ "machine", required_argument, NULL, O_MACHINE },
		{ "ignore-param", required_argument, NULL, O_IGNORE },
		{ "test", required_argument, NULL, 't' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "fdr", required_argument, NULL, 'f' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "all", no_argument, NULL, O_ALL },
		{ "style", required_argument, NULL, O_STYLE },
		{ "tree", required_argument, NULL, O_TREE },
		{ "subsys", required_argument, NULL, O_SUBSYS },
		{ "from", required_argument, NULL, O_FROM },
		{ "to", required_argument, NULL, O_TO },
		{ "cc", required_argument, NULL, O_CC },
		{ "in-reply-to", required_argument, NULL, O_IRT },
		{ "attach-plots", no_argument, NULL, O_ATTACH },
		{ "output", required_argument, NULL, 'o' },
		{ "mbox", required_argument, NULL, O_MBOX },
		{ "send", no_argument, NULL, O_SEND },
		{ "smtp", required_argument, NULL, O_SMTP },
		{ "html", required_argument, NULL, O_HTML },
		{ 0 },
	};
	int c;

	optind = 0;
	while ((c = getopt_long(argc, (char *const *)argv, "o:", opts,
				NULL)) != -1) {
		const char *name = NULL;

		switch (c) {
		case O_BY:
			free(a->param);
			a->param = NULL;
			if (dim_parse(optarg, &a->o.dim, &a->param))
				return usage_error(report_usage, "--by wants "
						   "label, kernel, commit, "
						   "machine or param:NAME, got "
						   "'%s'", optarg);
			name = "--by";
			break;
		case O_TESTCASE:
			strlist_add(&a->o.testcase_globs, optarg);
			name = "--testcase";
			break;
		case O_METRIC:
			strlist_add(&a->o.metric_globs, optarg);
			name = "--metric";
			break;
		case O_MACHINE:
			a->o.machine = optarg;
			name = "--machine";
			break;
		case O_IGNORE:
			strlist_add(&a->o.ignore_params, optarg);
			name = "--ignore-param";
			break;
		case O_ALL: a->all = 1; break;
		case O_STYLE:
			if (!strcmp(optarg, "lkp"))
				a->style = REPORT_LKP;
			else if (!strcmp(optarg, "mmtests"))
				a->style = REPORT_MMTESTS;
			else
				return usage_error(report_usage, "--style wants "
						   "lkp or mmtests, got '%s'",
						   optarg);
			break;
		case O_TREE: a->tree = optarg; break;
		case O_SUBSYS: a->subsys = optarg; break;
		case O_FROM: a->from = optarg; break;
		case O_TO: strlist_add(&a->to, optarg); break;
		case O_CC: strlist_add(&a->cc, optarg); break;
		case O_IRT: a->in_reply_to = optarg; break;
		case O_ATTACH: a->attach = 1; break;
		case 'o': a->out = optarg; break;
		case O_MBOX: a->mbox = optarg; break;
		case O_SEND: a->send = 1; break;
		case O_SMTP: a->smtp = optarg; break;
		case O_HTML: a->html = optarg; break;
		default:
			if (parse_cmp_common(c, optarg, &a->o, report_usage))
				return EXIT_USAGE;
			name = c == 't' ? "--test" : c == 'a' ? "--alpha" :
			       c == 'f' ? "--fdr" : "--min-change";
		}
		if (name) {
			shell_word(&a->repro, name);
			shell_word(&a->repro, optarg);
		}
	}
	a->o.param = a->param;
	if (argc - optind < 2)
		return usage_error(report_usage, "need BASE and at least one NEW "
				   "variant");
	/* what only a message uses would be ignored by the page */
	if (a->html && (a->out || a->mbox || a->send || a->attach ||
			a->from || a->to.nr || a->cc.nr || a->in_reply_to ||
			a->smtp || a->tree || a->subsys ||
			a->style != REPORT_LKP))
		return usage_error(report_usage, "--html writes a page, not a "
				   "message: not with -o, --mbox, --send, "
				   "--attach-plots, --from, --to, --cc, "
				   "--in-reply-to, --smtp, --tree, --subsys or "
				   "--style mmtests");
	if (a->smtp && !a->send)
		return usage_error(report_usage, "--smtp names the server for "
				   "--send");
	return EXIT_OK;
}

/* Resolve the selectors (argv[0..n)) into var; an exit status. */
static int resolve(struct db *db, const char **argv, size_t n,
		   const struct report_args *a, struct selector *var)
{
	size_t i, j;
	int r;

	for (i = 0; i < n; i++) {
		r = selector_resolve(db, argv[i], a->o.dim, a->param, &var[i]);
		if (r)
			return r == -1 ? EXIT_USAGE : EXIT_ENV;
		for (j = 0; j < i; j++)
			if (var[j].dim == var[i].dim &&
			    !strcmp(var[j].value, var[i].value))
				return usage_error(report_usage, "'%s' and '%s' "
						   "are the same variant",
						   var[j].text, var[i].text);
	}
	return EXIT_OK;
}

/* The significant metrics' charts as PNG attachments (6 at most). */
static void attach_charts(const struct report_req *rq,
			  struct attachment *att, size_t *natt,
			  struct sbuf *data)
{
	const struct comparison *c = rq->c;
	size_t i, j;

	*natt = 0;
	for (i = 0; i < c->nr && *natt < 6; i++) {
		int sig = 0;

		for (j = 0; j + 1 < c->nvar; j++)
			sig |= c->rows[i].vs[j].significant &&
			       (c->rows[i].vs[j].verdict == CMP_REGRESSION ||
				c->rows[i].vs[j].verdict == CMP_IMPROVEMENT);
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
	struct attachment att[6];
	struct sbuf data[6], msg = SBUF_INIT;
	char *msgid = NULL, *path = NULL;
	const char **rcpt;
	size_t natt = 0, nrcpt, i;
	int status = EXIT_ENV;

	for (i = 0; i < ARRAY_SIZE(data); i++)
		sbuf_init(&data[i], 0);
	rcpt = recipients(ms, &nrcpt);
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
	if (message_build(&m, &msg, &msgid)) {
		status = EXIT_USAGE;
		goto out;
	}
	if (!a->out && !a->mbox && !a->send) {
		fwrite(msg.buf, 1, msg.len, stdout);
		status = EXIT_OK;
		goto out;
	}
	if (a->out) {
		if (message_write_eml(a->out, msg.buf, msg.len))
			goto out;
		fprintf(stderr, "wrote %s\n", a->out);
	}
	if (a->mbox) {
		if (message_append_mbox(a->mbox, msg.buf, msg.len, ms->from,
					m.date))
			goto out;
		fprintf(stderr, "appended to %s\n", a->mbox);
	}
	if (a->send) {
		if (!a->out) {
			path = default_eml_path(msgid);
			if (message_write_eml(path, msg.buf, msg.len))
				goto out;
			fprintf(stderr, "wrote %s\n", path);
		}
		if (smtp_send(ms, ms->from, rcpt, nrcpt, msg.buf, msg.len)) {
			fprintf(stderr, "perfsift: the message is kept in %s; "
				"'perfsift send %s' tries again\n",
				a->out ? a->out : path, a->out ? a->out : path);
			goto out;
		}
		fprintf(stderr, "sent to %zu recipient%s via %s\n", nrcpt,
			nrcpt == 1 ? "" : "s", ms->smtp_url);
	}
	status = EXIT_OK;
out:
	for (i = 0; i < natt; i++)
		free((char *)att[i].name);
	for (i = 0; i < ARRAY_SIZE(data); i++)
		sbuf_release(&data[i]);
	sbuf_release(&msg);
	free(rcpt);
	free(msgid);
	free(path);
	return status;
}

/* Flags over the settings' file and environment; an exit status. */
static int settings(const struct report_args *a, struct mail_settings *ms)
{
	size_t i;

	switch (mail_settings_load(ms)) {
	case 0: break;
	case -1: return EXIT_USAGE;
	default: return EXIT_ENV;
	}
	if (a->from) {
		free(ms->from);
		ms->from = xstrdup(a->from);
	}
	if (a->to.nr) {
		addr_list_release(&ms->to);
		for (i = 0; i < a->to.nr; i++)
			addr_list_add(&ms->to, a->to.v[i]);
	}
	if (a->cc.nr) {
		addr_list_release(&ms->cc);
		for (i = 0; i < a->cc.nr; i++)
			addr_list_add(&ms->cc, a->cc.v[i]);
	}
	if (a->smtp) {
		free(ms->smtp_url);
		ms->smtp_url = xstrdup(a->smtp);
	}
	if ((a->out || a->mbox || a->send) && !ms->from)
		return usage_error(report_usage, "who sends it? --from, "
				   "PERFSIFT_FROM or the config's 'from'");
	if (a->send && !ms->to.nr)
		return usage_error(report_usage, "to whom? --to or the config's "
				   "'to'");
	if (a->send && !ms->smtp_url)
		return usage_error(report_usage, "through which server? --smtp "
				   "URL, PERFSIFT_SMTP_URL or the config's "
				   "'smtp-url'");
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

int cmd_report(int argc, const char **argv, struct perfsift_ctx *ctx)
{
	struct report_args a = { .o = CMP_OPTS_INIT, .style = REPORT_LKP };
	struct mail_settings ms = { 0 };
	struct report_req rq = { 0 };
	struct report_key key;
	struct comparison cmp;
	struct selector *var = NULL;
	struct sbuf subject = SBUF_INIT, body = SBUF_INIT, repro = SBUF_INIT;
	char *msgid = NULL, *refs = NULL, *orig_subject = NULL;
	const char *irt = NULL, *references = NULL;
	size_t nvar = 0, i;
	struct db *db;
	int status, nmsg = 0, have_cmp = 0;

	sbuf_init(&a.repro, 0);
	status = parse_args(argc, argv, &a);
	if (status)
		goto out;
	if (!a.html) {
		status = settings(&a, &ms);
		if (status)
			goto out;
	}
	status = EXIT_ENV;
	db = cmd_db(ctx);
	if (!db)
		goto out;
	nvar = (size_t)(argc - optind);
	var = xcalloc(nvar, sizeof(*var));
	status = resolve(db, argv + optind, nvar, &a, var);
	if (status)
		goto out;
	a.o.mm_pool = a.style == REPORT_MMTESTS;
	a.o.keep_samples = 1;	/* its charts draw each run */
	if (compare_variants(db, var, nvar, &a.o, &cmp)) {
		status = EXIT_ENV;
		goto out;
	}
	have_cmp = 1;
	if (!cmp.nr) {
		error("no metric is shared by these variants%s",
		      a.o.metric_globs.nr || a.o.testcase_globs.nr ||
		      a.o.machine ? " with these filters" : "");
		status = EXIT_USAGE;
		goto out;
	}
	if (a.html) {
		status = html_page(&a, &cmp, argv + optind, nvar);
		goto out;
	}
	/* answer the mail NEW came from, unless told whom to answer */
	if (a.in_reply_to) {
		irt = a.in_reply_to;
	} else if (query_variant_message(db, &var[1], &msgid, &refs,
					 &orig_subject, &nmsg) < 0) {
		status = EXIT_ENV;
		goto out;
	} else if (msgid) {
		irt = msgid;
		references = *refs ? refs : NULL;
	}
	for (i = 0; i < nvar; i++)
		shell_word(&repro, argv[optind + i]);
	sbuf_add(&repro, a.repro.buf, a.repro.len);
	rq.style = a.style;
	rq.db = db;
	rq.c = &cmp;
	rq.var = var;
	rq.nvar = nvar;
	rq.tree = a.tree;
	rq.subsys = a.subsys;
	rq.all = a.all;
	rq.reproduce_args = repro.buf + 1;
	rq.reply_subject = orig_subject && *orig_subject ? orig_subject : NULL;
	if (report_build(&rq, &subject, &body, &key)) {
		status = EXIT_ENV;
		goto out;
	}
	if (!ms.from && !a.out && !a.mbox && !a.send) {
		printf("Subject: %s\n\n%s", subject.buf, body.buf);
		status = EXIT_OK;
		goto out;
	}
	status = deliver(&a, &ms, &rq, subject.buf, body.buf, irt, references);
out:
	if (have_cmp)
		comparison_release(&cmp);
	for (i = 0; var && i < nvar; i++)
		selector_release(&var[i]);
	free(var);
	free(a.param);
	strlist_release(&a.o.testcase_globs);
	strlist_release(&a.o.metric_globs);
	strlist_release(&a.o.ignore_params);
	strlist_release(&a.to);
	strlist_release(&a.cc);
	sbuf_release(&a.repro);
	sbuf_release(&repro);
	sbuf_release(&subject);
	sbuf_release(&body);
	mail_settings_release(&ms);
	free(msgid);
	free(refs);
	free(orig_subject);
	return status;
}
