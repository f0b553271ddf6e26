/*
 * perfsift send: deliver messages written to disk before (the report
 * command writes its .eml first, so a failed delivery is retried with
 * this).  The envelope comes from the flags, else the message's own
 * From/To/Cc (read with GMime), else the mail settings; lib/mail/smtp.c
 * does the SMTP.
 */
#include "core/compat.h"
#include "core/input.h"
#include "mail/smtp.h"
#include "cmd.h"
#include "mail/gmime.h"

/* Append the mailboxes of list (groups opened) to out. */
static void add_mailboxes(struct addr_list *out, InternetAddressList *list)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_GROUP(ia))
			add_mailboxes(out, internet_address_group_get_members(
					INTERNET_ADDRESS_GROUP(ia)));
		else if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			addr_list_add(out, internet_address_mailbox_get_addr(
					INTERNET_ADDRESS_MAILBOX(ia)));
	}
}

/* The file's From (first mailbox) and To + Cc; 0 or error(). */
static int read_headers(const char *path, const char *buf, size_t len,
			struct addr_list *from, struct addr_list *rcpt)
{
	GMimeStream *st;
	GMimeParser *parser;
	GMimeMessage *m;

	st = g_mime_stream_mem_new_with_buffer(buf, len);
	parser = g_mime_parser_new_with_stream(st);
	m = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(st);
	if (!m)
		return error("%s: not a mail message", path);
	add_mailboxes(from, g_mime_message_get_from(m));
	add_mailboxes(rcpt, g_mime_message_get_to(m));
	add_mailboxes(rcpt, g_mime_message_get_cc(m));
	g_object_unref(m);
	return 0;
}

/* The addresses of several lists, each once (case-insensitively). */
static void add_unique(struct addr_list *out, const struct addr_list *in)
{
	size_t i, j;

	for (i = 0; i < in->nr; i++) {
		for (j = 0; j < out->nr; j++)
			if (!strcasecmp(out->v[j], in->v[i]))
				break;
		if (j == out->nr)
			addr_list_add(out, in->v[i]);
	}
}

struct send_opts {
	const char *smtp;		/* --smtp, or NULL */
	const char *from;		/* --from, or NULL */
	struct addr_list to, cc;	/* --to, --cc */
};

/* --to, --cc: value is the struct addr_list */
static int opt_addresses(const struct opt *o UNUSED, const char *arg,
			 void *list)
{
	addr_list_add_split(list, arg);
	return 0;
}

static const char *const send_usage[] = {
	"perfsift send [--smtp URL] [--from A] [--to A]... [--cc A]... "
	"FILE.eml...",
	NULL,
};

static const struct opt send_opts[] = {
	OPT_STRING(0, "smtp", struct send_opts, smtp, "URL",
		   "smtp://host[:port] or smtps://host[:port]"),
	OPT_STRING(0, "from", struct send_opts, from, "A",
		   "the envelope sender"),
	OPT_CALLBACK(0, "to", struct send_opts, to, "A",
		     "the envelope recipients (repeatable; each may be\n"
		     "a comma-separated list)", opt_addresses, 0),
	OPT_CALLBACK(0, "cc", struct send_opts, cc, "A",
		     "more envelope recipients, as --to", opt_addresses, 0),
	OPT_END(),
};

const struct cmd_options send_options = {
	.name = "send",
	.usage = send_usage,
	.description =
	"Send each FILE (one RFC 5322 message, as 'perfsift report' writes\n"
	"it) as it is, over SMTP.  The sender is --from, else the file's\n"
	"From, else PERFSIFT_FROM or 'from' in the config file.  The\n"
	"recipients are the --to and --cc addresses when any is given, else\n"
	"the file's To and Cc, else the settings' to and cc.  The server is\n"
	"--smtp, else PERFSIFT_SMTP_URL, else smtp-url in the config file\n"
	"(see README.md: the config file, STARTTLS, AUTH; the password only\n"
	"from PERFSIFT_SMTP_PASSWORD or ~/.netrc).  One line per file sent;\n"
	"a file that fails is named and the others are still sent.  Exit 2\n"
	"for a missing sender, recipient or server or a bad config file, 3\n"
	"for a file that cannot be read, 4 when the server or the network\n"
	"fails (the highest of all files).\n",
	.options = send_opts,
};

/* Send one file; returns an exit status. */
static int send_one(const char *path, const struct send_opts *o,
		    const struct mail_settings *s)
{
	struct addr_list hfrom = { 0 }, hrcpt = { 0 }, rcpt = { 0 };
	struct sbuf msg = SBUF_INIT;
	struct input in;
	const char *from;
	int status = EXIT_BADINPUT;

	if (input_open(&in, path, -1))
		return EXIT_BADINPUT;
	if (input_read_all(&in, &msg) ||
	    read_headers(path, msg.buf, msg.len, &hfrom, &hrcpt))
		goto out;
	status = EXIT_USAGE;
	from = o->from ? o->from : hfrom.nr ? hfrom.v[0] : s->from;
	if (!from) {
		error("%s: no sender: the file has no From; give --from, "
		      "PERFSIFT_FROM or 'from' in the config file", path);
		goto out;
	}
	if (o->to.nr || o->cc.nr) {
		add_unique(&rcpt, &o->to);
		add_unique(&rcpt, &o->cc);
	} else if (hrcpt.nr) {
		add_unique(&rcpt, &hrcpt);
	} else {
		add_unique(&rcpt, &s->to);
		add_unique(&rcpt, &s->cc);
	}
	if (!rcpt.nr) {
		error("%s: no recipient: the file has no To or Cc; give --to, "
		      "--cc, or 'to' in the config file", path);
		goto out;
	}
	status = EXIT_ENV;
	if (smtp_send(s, from, (const char *const *)rcpt.v, rcpt.nr, msg.buf,
		      msg.len)) {
		error("%s: not sent (the file is kept)", path);
		goto out;
	}
	printf("sent %s to %zu recipient%s via %s\n", path, rcpt.nr,
	       rcpt.nr == 1 ? "" : "s", s->smtp_url);
	status = EXIT_OK;
out:
	input_close(&in);
	sbuf_release(&msg);
	addr_list_release(&hfrom);
	addr_list_release(&hrcpt);
	addr_list_release(&rcpt);
	return status;
}

/* The settings with --smtp over them, and GMime; an exit status. */
static int send_setup(const struct send_opts *o, struct mail_settings *s)
{
	int r = mail_settings_load(s);

	if (r)
		return r == -2 ? EXIT_ENV : EXIT_USAGE;
	if (o->smtp) {
		free(s->smtp_url);
		s->smtp_url = xstrdup(o->smtp);
	}
	if (!s->smtp_url) {
		error("no SMTP server: give --smtp URL, PERFSIFT_SMTP_URL or "
		      "smtp-url in the config file");
		return EXIT_USAGE;
	}
	return gmime_load() ? EXIT_ENV : EXIT_OK;
}

int cmd_send(int argc, const char **argv, struct perfsift_ctx *ctx UNUSED)
{
	struct send_opts o = { 0 };
	struct mail_settings s;
	int i, r, status;

	argc = parse_options(argc, argv, &send_options, &o, 0, &status);
	if (argc < 0)
		goto out_opts;
	if (!argc) {
		status = usage_error(&send_options, "no FILE.eml to send");
		goto out_opts;
	}
	if (o.smtp && smtp_url_check(o.smtp)) {
		status = EXIT_USAGE;
		goto out_opts;
	}
	status = send_setup(&o, &s);
	if (status)
		goto out;
	for (i = 0; i < argc; i++) {
		r = send_one(argv[i], &o, &s);
		if (r > status)
			status = r;
	}
	g_mime_shutdown();
out:
	mail_settings_release(&s);
out_opts:
	addr_list_release(&o.to);
	addr_list_release(&o.cc);
	return status;
}
