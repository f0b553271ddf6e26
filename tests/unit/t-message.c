/*
 * t-message.c - unit test of lib/mail/message.c: the RFC 5322 message
 * GMime builds for a report (encoded headers, the body's transfer
 * encoding, threading headers, attachments, the Message-ID), the .eml
 * written atomically, and the mbox appended in mboxrd form.
 */
#include "mail/message.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "test-lib.h"

static char dir[] = "/tmp/perfsift-t-message.XXXXXX";

static char *build(const struct message_spec *m, char **msgid)
{
	struct sbuf sb = SBUF_INIT;

	if (message_build(m, &sb, msgid)) {
		sbuf_release(&sb);
		return NULL;
	}
	return sbuf_detach(&sb, NULL);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	struct sbuf sb = SBUF_INIT;
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sbuf_add(&sb, buf, n);
	fclose(f);
	return sbuf_detach(&sb, NULL);
}

static const char *const to[] = { "Ann <ann@example.org>", "bob@example.org" };

static struct message_spec spec(const char *subject, const char *body)
{
	struct message_spec m = {
		.from = "Pérf Sift <ps@example.org>", .to = to, .nto = 2,
		.subject = subject, .body = body, .msgid_domain = "example.org",
		.date = 1764547200,
	};

	return m;
}

TEST(headers)
{
	struct message_spec m = spec("[mm] 1234567890: ops ±2.6% regression",
				     "Hello,\n\n  ops ± 2%\n");
	char *id, *msg;

	m.in_reply_to = "orig@example.net";
	m.references = "<root@example.net>";
	msg = build(&m, &id);
	if (!check(msg != NULL))
		return;
	check(strstr(msg, "Date: Mon, 01 Dec 2025 00:00:00 +0000\n") != NULL);
	check(strstr(msg, "From: =?UTF-8?b?UMOpcmY=?= Sift <ps@example.org>\n")
	      != NULL);
	check(strstr(msg, "To: Ann <ann@example.org>, bob@example.org\n") != NULL);
	/* not ASCII: an RFC 2047 encoded word, in UTF-8 */
	check(strstr(msg, "Subject: [mm] 1234567890: ops =?UTF-8?") != NULL);
	check(strstr(msg, "In-Reply-To: <orig@example.net>\n") != NULL);
	check(strstr(msg, "References: <root@example.net> <orig@example.net>\n")
	      != NULL);
	check(strstr(msg, "MIME-Version: 1.0\n") != NULL);
	check(strstr(msg, "Content-Type: text/plain; charset=UTF-8\n") != NULL);
	check(strstr(msg, "Content-Transfer-Encoding: 8bit\n") != NULL);
	check(strstr(msg, "\n\nHello,\n\n  ops \xc2\xb1 2%\n") != NULL);
	check(!strncmp(id, "20251201000000.", 15));
	check(strlen(id) == 15 + 16 + strlen("-perfsift@example.org"));
	check(strstr(id, "-perfsift@example.org") != NULL);
	free(msg);
	free(id);
}

TEST(encodings)
{
	char line[1200], *id, *msg;
	struct message_spec m;

	memset(line, 'x', sizeof(line) - 2);
	line[sizeof(line) - 2] = '\n';
	line[sizeof(line) - 1] = '\0';
	m = spec("plain", "ascii only\n");
	msg = build(&m, &id);
	if (check(msg != NULL))
		check(strstr(msg, "Content-Transfer-Encoding: 7bit\n") != NULL);
	free(msg);
	free(id);
	/* a line longer than SMTP's 998 octets */
	m = spec("long", line);
	msg = build(&m, &id);
	if (check(msg != NULL))
		check(strstr(msg, "Content-Transfer-Encoding: quoted-printable\n")
		      != NULL);
	free(msg);
	free(id);
	m = spec("bad", "x\n");
	m.from = "not an address <";
	msg = build(&m, &id);
	check(msg == NULL);
	check(id == NULL);
}

TEST(attachments)
{
	static const char png[] = "\x89PNG\r\n\x1a\n";
	struct attachment a = { "1-ops.png", "image/png", png, 8 };
	struct message_spec m = spec("charts", "see the charts\n");
	char *id, *msg;

	m.att = &a;
	m.natt = 1;
	msg = build(&m, &id);
	if (!check(msg != NULL))
		return;
	check(strstr(msg, "Content-Type: multipart/mixed; boundary=") != NULL);
	check(strstr(msg, "Content-Type: image/png; name=1-ops.png\n") != NULL);
	check(strstr(msg, "Content-Transfer-Encoding: base64\n") != NULL);
	check(strstr(msg, "Content-Disposition: attachment; filename=1-ops.png\n")
	      != NULL);
	check(strstr(msg, "\niVBORw0KGgo=\n") != NULL);	/* the 8 bytes */
	free(msg);
	free(id);
}

TEST(msgid)
{
	struct message_spec m = spec("same", "same body\n");
	char *a, *b, *ma, *mb;

	setenv("SOURCE_DATE_EPOCH", "1764547200", 1);
	check(message_date() == 1764547200);
	ma = build(&m, &a);
	mb = build(&m, &b);
	/* a fixed date: the same message gets the same id */
	if (check(a && b))
		check_str(a, b);
	free(a);
	free(b);
	free(ma);
	free(mb);
	unsetenv("SOURCE_DATE_EPOCH");
	ma = build(&m, &a);
	mb = build(&m, &b);
	if (check(a && b))
		check(strcmp(a, b) != 0);
	free(a);
	free(b);
	free(ma);
	free(mb);
}

TEST(mbox)
{
	static const char msg[] = "Subject: x\n\nFrom here\n>From there\n"
				  ">>From far\n From not\nFromage\n";
	char *path = NULL, *text;

	path = malloc(strlen(dir) + 16);
	sprintf(path, "%s/out.mbox", dir);
	/* an mbox left without its closing blank line */
	{
		FILE *f = fopen(path, "w");

		fputs("From a@b Thu Jan  1 00:00:00 1970\nSubject: old\n\nold",
		      f);
		fclose(f);
	}
	check_int(0, message_append_mbox(path, msg, strlen(msg),
					 "Pérf <ps@example.org>", 1764547200));
	check_int(0, message_append_mbox(path, msg, strlen(msg),
					 "ps@example.org", 1764547200));
	text = slurp(path);
	if (check(text != NULL))
		check_str("From a@b Thu Jan  1 00:00:00 1970\nSubject: old\n\nold"
			  "\n\n"
			  "From ps@example.org Mon Dec  1 00:00:00 2025\n"
			  "Subject: x\n\n>From here\n>>From there\n"
			  ">>>From far\n From not\nFromage\n\n"
			  "From ps@example.org Mon Dec  1 00:00:00 2025\n"
			  "Subject: x\n\n>From here\n>>From there\n"
			  ">>>From far\n From not\nFromage\n\n", text);
	free(text);
	unlink(path);
	free(path);
}

TEST(eml)
{
	char *path = malloc(strlen(dir) + 16), *text;

	sprintf(path, "%s/r.eml", dir);
	check_int(0, message_write_eml(path, "a\nb\n", 4));
	text = slurp(path);
	if (check(text != NULL))
		check_str("a\nb\n", text);
	free(text);
	check_int(0, message_write_eml(path, "c\n", 2));
	text = slurp(path);
	if (check(text != NULL))
		check_str("c\n", text);
	free(text);
	unlink(path);
	sprintf(path, "%s/no/r.eml", dir);
	check_int(-1, message_write_eml(path, "a\n", 2));
	free(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_headers();
	test_encodings();
	test_attachments();
	test_msgid();
	test_mbox();
	test_eml();
	rmdir(dir);
	return test_done();
}
