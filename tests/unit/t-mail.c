/*
 * t-mail.c - unit tests of the mail decoder (core/mail.h): detection,
 * headers (folding, RFC 2047), MIME structure, transfer encodings,
 * charsets, quoting, line numbers, broken and truncated messages, and
 * the two real robot emails of ../shared/samples/lkp (argv[1] is the
 * repository root; skipped with a SKIP line when they are absent).
 * Each case is a mail text and the dump of what the decoder reads.
 */
#include "core/compat.h"
#include "core/input.h"
#include "mail/mail.h"
#include "core/sbuf.h"

#include <sys/stat.h>
#include <unistd.h>
#include "test-lib.h"

static char tmpdir[] = "/tmp/t-mail.XXXXXX";

/* Files go to tmpdir, the working directory: errors name "mail:LINE". */
static char *tmp_path(const char *name)
{
	return xstrdup(name);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, n, f) != n || fclose(f))
		test_fail("cannot write %s: %s", path, strerror(errno));
}

static void dump_field(struct sbuf *out, const char *name, const char *v)
{
	if (*v)
		sbuf_addf(out, "%s: %s\n", name, v);
}

/*
 * Read path with the decoder and dump it: "kind K", then per message
 * "msg N @LINE" and its non-empty headers, its lines as
 * "LINE:DEPTH|TEXT", and "broken" after a -1.  Errors go to errs.
 */
static char *dump_path(const char *path, int kind, struct sbuf *errs)
{
	struct sbuf out = SBUF_INIT;
	struct input in;
	struct mail_reader r;
	struct mail_msg m;
	struct mail_line l;
	int rc;

	sbuf_reset(errs);
	err_capture(errs);
	if (input_open(&in, path, -1) < 0) {
		input_close(&in);
		err_capture(NULL);
		return sbuf_detach(&out, NULL);
	}
	mail_reader_init(&r, &in, kind);
	sbuf_addf(&out, "kind %d\n", r.kind);
	while ((rc = mail_next_message(&r, &m)) != 0) {
		if (rc < 0) {
			sbuf_addf(&out, "msg %d broken\n", r.nr_msgs);
			continue;
		}
		sbuf_addf(&out, "msg %d @%ld\n", m.index, m.first_line);
		dump_field(&out, "id", m.message_id);
		dump_field(&out, "subject", m.subject);
		dump_field(&out, "from", m.from);
		dump_field(&out, "date", m.date);
		dump_field(&out, "irt", m.in_reply_to);
		dump_field(&out, "refs", m.references);
		while ((rc = mail_next_line(&r, &l)) > 0) {
			check_int(strlen(l.text), l.len);
			sbuf_addf(&out, "%ld:%d|%s\n", l.lineno, l.quote_depth,
				  l.text);
		}
		if (rc < 0)
			sbuf_addstr(&out, "broken\n");
		/* the end stays the end */
		check_int(0, mail_next_line(&r, &l));
	}
	check_int(0, mail_next_message(&r, &m));
	mail_reader_release(&r);
	input_close(&in);
	err_capture(NULL);
	return sbuf_detach(&out, NULL);
}

/* Decode text (len bytes) written to a file; kind as for the reader. */
static char *dump_text(const char *text, size_t len, int kind,
		       struct sbuf *errs)
{
	char *p = tmp_path("mail"), *res;

	write_file(p, text, len);
	res = dump_path(p, kind, errs);
	unlink(p);
	free(p);
	return res;
}

/* Check that text decodes to expect, with the error message err. */
#define check_mail(text, kind, expect, err) \
	check_mail_loc(__FILE__, __LINE__, text, strlen(text), kind, expect, \
		       err)

static void check_mail_loc(const char *file, int line, const char *text,
			   size_t len, int kind, const char *expect,
			   const char *err)
{
	struct sbuf errs = SBUF_INIT;
	char *got = dump_text(text, len, kind, &errs);

	check_str_loc(file, line, "decoded", expect, got);
	check_str_loc(file, line, "errors", err, errs.buf);
	free(got);
	sbuf_release(&errs);
}

#define E ""	/* captured errors have no prefix */
#define HDR "From: a <a@example.org>\nSubject: s\n"
#define FFFD "\xef\xbf\xbd"	/* U+FFFD */
#define HDR_OUT "subject: s\nfrom: a <a@example.org>\n"

TEST(detect)
{
	static const struct {
		const char *head;
		int kind;
	} cases[] = {
		{ "From a@b Mon Jan  1 00:00:00 2024\nFrom: a\n", MAIL_MBOX },
		{ "From a@b Mon Jan  1 00:00:00 2024\nhello\n", MAIL_NONE },
		{ "From: a\nSubject: b\n\nbody\n", MAIL_EML },
		{ "Received: from x\n\tby y\nX-Mailer: z\n\n", MAIL_EML },
		{ "Return-Path: <a@b>\r\nMessage-ID: <x@y>\r\n\r\n", MAIL_EML },
		/* one known header is not enough */
		{ "Subject: b\nFoo: c\n\n", MAIL_NONE },
		{ "commit: \n  5ef2dccfcc (\"x\")\n5ef2 3757\n", MAIL_NONE },
		{ "\tSubject: b\nFrom: c\n\n", MAIL_NONE },
		{ "Subject: b\nnot a header\nFrom: c\n", MAIL_NONE },
		/* the head cut in the middle of the header block */
		{ "Subject: b\nFrom: c\nTo: d\nX-Long: aaaa", MAIL_EML },
		{ "", MAIL_NONE },
		{ "From ", MAIL_NONE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!check_int(cases[i].kind, mail_detect(cases[i].head,
							  strlen(cases[i].head))))
			test_msg("case %zu: %s", i, cases[i].head);
}

TEST(quoted_printable)
{
	check_mail(HDR "Content-Transfer-Encoding: quoted-printable\n\n"
		   "    118225 =C2=B1  2%      -6.0%=\n"
		   "     111161  =\n"
		   "      perf-c2c.HITM.total\n"
		   "lower =c2=b1, bad =ZZ and =4 stay; a=0Ab=3D\n"
		   "padding after a soft break=  \n"
		   " joins; trailing blanks go   \t\n"
		   "=\n"
		   "last\n",
		   MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "5:0|    118225 ±  2%      -6.0%     111161        "
		   "perf-c2c.HITM.total\n"
		   "8:0|lower ±, bad =ZZ and =4 stay; a\n"
		   "8:0|b=\n"
		   "9:0|padding after a soft break joins; trailing blanks go\n"
		   "12:0|last\n", "");
	/* a soft break at the end of the text: the line is still given */
	check_mail(HDR "Content-Transfer-Encoding: quoted-printable\n\n"
		   "a=\nb=\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "5:0|ab\n", "");
}

TEST(rfc2047_headers)
{
	check_mail("Subject: =?utf-8?q?Re=3A_=5Blkp=5D_=C2=B1?= "
		   "=?UTF-8?B?IDIuNiUgcmVncmVzc2lvbg==?=\n"
		   "From: =?iso-8859-1?Q?J=F6rg?= R. =?windows-1252?q?=96_x?="
		   " <j@example.org>\n"
		   "Message-ID: <m1@example.org>\n\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nid: m1@example.org\n"
		   "subject: Re: [lkp] ± 2.6% regression\n"
		   "from: Jörg R. – x <j@example.org>\n", "");
	/* a character split between two words; bad words kept as written */
	check_mail("Subject: =?utf-8?b?wg==?=   =?utf-8?b?sQ==?= "
		   "=?utf-8?x?abc?= =?utf-8?q?a b?= =?x-no-such?q?=B1?=\n"
		   "From: x\n\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\n"
		   "subject: ± =?utf-8?x?abc?= =?utf-8?q?a b?= ±\n"
		   "from: x\n", "");
	/* a line end in an encoded word (fuzz-mail found it) */
	check_mail("Subject: =?utf-8?q?a=0Ab=0D=0Ac?= =?utf-8?b?DQo=?=d\n"
		   "From: x\n\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: a b  c  d\nfrom: x\n", "");
	/* undeclared 8-bit header text: UTF-8 kept, else windows-1252 */
	check_mail("Subject: caf\xc3\xa9 \xc2\xb1\nFrom: caf\xe9 \xb1\n\n",
		   MAIL_EML, "kind 1\nmsg 1 @1\nsubject: café ±\n"
		   "from: café ±\n", "");
}

TEST(folded_headers)
{
	check_mail("Subject: [linus:master] [llist]  375700bab5:\n"
		   " will-it-scale.per_thread_ops\n"
		   "\t2.6% regression\n"
		   "From: x\n"
		   "Message-ID:\n <a@b>\n"
		   "In-Reply-To: <p@q> (message of\n \"Mon\")\n"
		   "References: <1@x>\n\t<2@x>\n  <3@x>\n"
		   "Date: Fri, 15 Aug 2025 15:36:00\n +0800\n"
		   "Subject: a second subject is not read\n\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nid: a@b\n"
		   "subject: [linus:master] [llist]  375700bab5: "
		   "will-it-scale.per_thread_ops\t2.6% regression\n"
		   "from: x\ndate: Fri, 15 Aug 2025 15:36:00 +0800\n"
		   "irt: p@q\nrefs: 1@x 2@x 3@x\n", "");
}

TEST(multipart)
{
	/* alternative: the text/plain part only; blank before boundary */
	check_mail(HDR "Content-Type: multipart/alternative; "
		   "BOUNDARY=\"b 1\"\n\npreamble\n--b 1\n"
		   "Content-Type: text/plain; charset=us-ascii\n\n"
		   "plain\n\n--b 1  \nContent-Type: text/html\n\n"
		   "<p>html</p>\n--b 1--\nepilogue\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "9:0|plain\n", "");
	/* signed > mixed > (text, attachment, inline text, rfc822) */
	check_mail(HDR "Content-Type: multipart/signed; boundary=s;\n"
		   "\tprotocol=\"application/pgp-signature\"\n\n"
		   "--s\nContent-Type: multipart/mixed; boundary=m\n\n"
		   "--m\n\nno headers: text/plain\n"
		   "--m\nContent-Type: text/plain\n"
		   "Content-Disposition: attachment; filename=config\n\n"
		   "CONFIG_X=y\n"
		   "--m\nContent-Type: text/plain\n"
		   "Content-Disposition: inline; filename=notes\n\n"
		   "inline text\n"
		   "--m\nContent-Type: message/rfc822\n\n"
		   "Subject: inner\n\ninner body\n"
		   "--m--\n--s\nContent-Type: application/pgp-signature\n\n"
		   "sig\n--s--\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "11:0|no headers: text/plain\n"
		   "21:0|inline text\n", "");
	/* the parts of a digest are messages */
	check_mail(HDR "Content-Type: multipart/digest; boundary=d\n\n"
		   "--d\n\nSubject: x\n\ny\n--d--\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n",
		   "");
	/* multipart without a boundary: nothing to read, not broken */
	check_mail(HDR "Content-Type: multipart/mixed\n\ntext\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n",
		   "");
}

TEST(base64_and_charsets)
{
	/*
	 * "Jens,\r\n\r\nthe regression is gone:\r\n 579287 \xb1 1%\r\nend"
	 * in iso-8859-1, cut into base64 lines of 16 characters
	 */
	check_mail(HDR "Content-Type: text/plain; charset=\"ISO-8859-1\"\n"
		   "Content-Transfer-Encoding: BASE64\n\n"
		   "SmVucywNCg0KdGhl\n"
		   "IHJlZ3Jlc3Npb24g\n"
		   "aXMgZ29uZToNCiA1\n"
		   "NzkyODcgsSAxJQ0K\n"
		   "ZW5k\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "6:0|Jens,\n6:0|\n6:0|the regression is gone:\n"
		   "8:0| 579287 ± 1%\n10:0|end\n", "");
	/* 8bit latin-1, UTF-8 under a latin-1 label, bad UTF-8, NUL */
	check_mail(HDR "Content-Type: text/plain; charset=iso-8859-1\n\n"
		   "caf\xe9 \xb1\ncaf\xc3\xa9 \xc2\xb1\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "5:0|café ±\n6:0|café ±\n", "");
	check_mail(HDR "Content-Type: text/plain; charset=utf-8\n"
		   "Content-Transfer-Encoding: quoted-printable\n\n"
		   "bad =C3 and =FF, a NUL =00.\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "6:0|bad \xef\xbf\xbd and \xef\xbf\xbd, a NUL "
		   "\xef\xbf\xbd.\n", "");
	/* no charset: windows-1252; an unknown one: the same */
	check_mail(HDR "\n\x93quoted\x94 \x96 \xb1\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "4:0|“quoted” – ±\n", "");
	check_mail(HDR "Content-Type: text/plain; charset=x-unknown\n\n"
		   "\xb1\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "5:0|±\n", "");
	/* iconv's UCS-4 gives code points past U+10FFFF (fuzz-mail) */
	check_mail(HDR "Content-Type: text/plain; charset=ucs-4\n"
		   "Content-Transfer-Encoding: base64\n\n"
		   "AAAAQX////8AAAAK\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\n" HDR_OUT "6:0|A"
		   /* 6 bytes for U+7FFFFFFF, 3 for the cut-off unit */
		   FFFD FFFD FFFD FFFD FFFD FFFD FFFD FFFD FFFD "\n", "");
	/* ISO-2022-JP is 7-bit and still converted */
	check_mail(HDR "Content-Type: text/plain; charset=ISO-2022-JP\n\n"
		   "\x1b$B$3$s\x1b(B 1\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "5:0|こん 1\n", "");
}

TEST(quoting)
{
	struct sbuf errs = SBUF_INIT;
	char *p = tmp_path("q"), *got;
	const char *text = "x\n> > 118225 ±  2%\n>>  a\n  > > b\n>\n> >c\n"
			   "->d\n";
	struct input in;
	struct mail_reader r;
	struct mail_msg m;
	struct mail_line l;

	check_mail(text, MAIL_NONE,
		   "kind 0\nmsg 1 @1\n1:0|x\n2:2|118225 ±  2%\n3:2| a\n4:2|b\n"
		   "5:1|\n6:2|c\n7:0|->d\n", "");
	/* prefix_len: the whole decoded line is before text */
	write_file(p, "> > 118225\n", 11);
	check_int(0, input_open(&in, p, -1));
	mail_reader_init(&r, &in, MAIL_DETECT);
	check_int(MAIL_NONE, r.kind);
	check_int(1, mail_next_message(&r, &m));
	check_int(1, mail_next_line(&r, &l));
	check_int(4, l.prefix_len);
	check_str("> > 118225", l.text - l.prefix_len);
	check_str("118225", l.text);
	check_int(0, mail_next_line(&r, &l));
	check_int(0, mail_next_message(&r, &m));
	mail_reader_release(&r);
	input_close(&in);
	unlink(p);
	free(p);
	got = dump_text("", 0, MAIL_DETECT, &errs);
	check_str("kind 0\nmsg 1 @1\n", got);
	free(got);
	sbuf_release(&errs);
}

#define FROM_LINE "From a@example.org Mon Jan  1 00:00:00 2024\n"

TEST(mbox_with_broken_message)
{
	/* a bad header line in the middle one */
	check_mail(FROM_LINE "Subject: one\n\nfirst\n\n"
		   FROM_LINE "Subject: two\nthis is no header\n\nlost\n\n"
		   FROM_LINE "Subject: three\n\n>From here\n>>From there\n"
		   "From: is a separator only in \"From \"\n\n", MAIL_DETECT,
		   "kind 2\nmsg 1 @1\nsubject: one\n4:0|first\n"
		   "msg 2 broken\n"
		   "msg 3 @12\nsubject: three\n15:0|From here\n"
		   "16:1|From there\n"
		   "17:0|From: is a separator only in \"From \"\n"
		   "18:0|\n",	/* GMime keeps the blank line at the end */
		   E "mail:8: expected a header line 'Name: value' or a "
		   "blank line, got 'this is no header'");
	/* a multipart never closed in the middle one, then a good one */
	check_mail(FROM_LINE "Subject: one\n\nfirst\n\n"
		   FROM_LINE "Subject: two\n"
		   "Content-Type: multipart/mixed; boundary=zz\n\n"
		   "--zz\n\ncut here\n\n"
		   FROM_LINE "Subject: three\n\nthird\n", MAIL_MBOX,
		   "kind 2\nmsg 1 @1\nsubject: one\n4:0|first\n"
		   "msg 2 @6\nsubject: two\n12:0|cut here\nbroken\n"
		   "msg 3 @14\nsubject: three\n17:0|third\n",
		   E "mail:13: truncated message (from line 6): expected "
		   "the multipart boundary '--zz--'");
	/* ">From " is only an escape in an mbox */
	check_mail(HDR "\n>From x\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "4:1|From x\n", "");
}

TEST(truncated_email)
{
	check_mail(HDR "Content-Type: multipart/mixed; boundary=\"=_a\"\n\n"
		   "--=_a\nContent-Type: multipart/alternative; boundary=b\n\n"
		   "--b\nContent-Transfer-Encoding: quoted-printable\n\n"
		   "first\nsecond, cut in a soft break=", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "11:0|first\n12:0|second, cut in a soft break\nbroken\n",
		   E "mail:12: truncated message (from line 1): expected the "
		   "multipart boundary '--b--'");
	/* cut in the headers of a part */
	check_mail(HDR "Content-Type: multipart/mixed; boundary=x\n\n"
		   "--x\nContent-Type: text/pl", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "broken\n",
		   E "mail:6: truncated message (from line 1): expected the "
		   "multipart boundary '--x--'");
	/* a header block alone is a message without text, not broken */
	check_mail(HDR, MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n",
		   "");
}

TEST(crlf)
{
	check_mail("From: a <a@example.org>\r\nSubject: s\r\n"
		   "Content-Type: multipart/mixed; boundary=c\r\n\r\n"
		   "--c\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
		   "> one =C2=B1=\r\n two\r\n\r\n--c--\r\n", MAIL_EML,
		   "kind 1\nmsg 1 @1\nsubject: s\nfrom: a <a@example.org>\n"
		   "8:1|one ± two\n", "");
}

TEST(plain_text)
{
	/* lines as they are: no headers, no decoding, no separators */
	check_mail("Subject: only one header\nFrom x\n=C2=B1 stays\n\n"
		   "--b\n", MAIL_NONE,
		   "kind 0\nmsg 1 @1\n1:0|Subject: only one header\n"
		   "2:0|From x\n3:0|=C2=B1 stays\n4:0|\n5:0|--b\n", "");
}

TEST(limits)
{
	struct sbuf text = SBUF_INIT, expect = SBUF_INIT;
	int i;

	/* a header block over MAIL_HEADER_MAX, then a good message */
	sbuf_addstr(&text, FROM_LINE "Subject: big\n");
	for (i = 0; i < 20000; i++)
		sbuf_addf(&text, "X-Filler-%d: %060d\n", i, i);
	sbuf_addstr(&text, "\nbody\n\n" FROM_LINE "Subject: ok\n\ntext\n");
	check_mail_loc(__FILE__, __LINE__, text.buf, text.len, MAIL_MBOX,
		       "kind 2\nmsg 1 broken\nmsg 2 @20006\nsubject: ok\n"
		       "20009:0|text\n",
		       E "mail:13765: header block longer than 1048576 "
		       "bytes");
	/* multipart nested 17 deep */
	sbuf_reset(&text);
	sbuf_addstr(&text, HDR);
	for (i = 0; i < 17; i++)
		sbuf_addf(&text, "Content-Type: multipart/mixed; "
			  "boundary=b%d\n\n--b%d\n", i, i);
	sbuf_addstr(&text, "\ntext\n");
	sbuf_addf(&expect, E "mail:%d: multipart nested deeper than 16 "
		  "levels", 2 + 16 * 3 + 2);
	check_mail_loc(__FILE__, __LINE__, text.buf, text.len, MAIL_EML,
		       "kind 1\nmsg 1 @1\n" HDR_OUT "broken\n", expect.buf);
	sbuf_release(&text);
	sbuf_release(&expect);
}

/* The real robot emails of ../shared/samples/lkp, read in place. */
static void test_samples(const char *root)
{
	char *dir = xstrfmt("%s/../shared/samples/lkp", root ? root : ".");
	char *eml = xstrfmt("%s/email-2025-08-15-llist-will-it-scale-2.6pct-"
			    "regression.txt", dir);
	char *txt = xstrfmt("%s/email-2020-06-12-btrfs-aim7-9.1pct-regression"
			    "-excerpt.txt", dir);
	struct sbuf errs = SBUF_INIT;
	struct stat st;
	char *got, *p;

	if (stat(eml, &st) || stat(txt, &st)) {
		printf("# SKIP the email samples: %s is absent\n", dir);
		goto out;
	}
	got = dump_path(eml, MAIL_DETECT, &errs);
	check_str("", errs.buf);
	check(!strncmp(got, "kind 1\nmsg 1 @1\n"
		       "id: 202508150803.d5387224-lkp@intel.com\n"
		       "subject: [linus:master] [llist]  375700bab5:  "
		       "will-it-scale.per_thread_ops 2.6% regression\n"
		       "from: kernel test robot <oliver.sang@intel.com>\n"
		       "date: Fri, 15 Aug 2025 15:36:00 +0800\n"
		       "11:0|\n12:0|\n13:0|Hello,\n", 200));
	/* declared iso-8859-1, holds UTF-8: the "±" is kept */
	check((p = strstr(got, "64:0|    118225 ±  2%      -6.0%     111161"
			  "        perf-c2c.HITM.total\n")) != NULL);
	check((p = strstr(got, "121:0|https://github.com/intel/lkp-tests/"
			  "wiki\n")) != NULL);
	check(p && !strcmp(p + strlen(p) - 5, "wiki\n"));
	free(got);
	got = dump_path(txt, MAIL_DETECT, &errs);
	check_str("", errs.buf);
	check(!strncmp(got, "kind 0\nmsg 1 @1\n1:0|[Report as quoted", 35));
	check(strstr(got, "\n129:0|") != NULL);
	check(strstr(got, "\n130:0|") == NULL);
	free(got);
out:
	sbuf_release(&errs);
	free(dir);
	free(eml);
	free(txt);
}

/* The message of text as mail_next_unflowed() gives it. */
static char *dump_unflowed(const char *text, struct sbuf *errs)
{
	struct sbuf out = SBUF_INIT;
	struct input in;
	struct mail_reader r;
	struct mail_msg m;
	struct mail_line l;
	char *p = tmp_path("mail");
	int rc;

	write_file(p, text, strlen(text));
	sbuf_reset(errs);
	err_capture(errs);
	if (input_open(&in, p, -1) == 0) {
		mail_reader_init(&r, &in, MAIL_DETECT);
		while ((rc = mail_next_message(&r, &m)) > 0) {
			while ((rc = mail_next_unflowed(&r, &l)) > 0) {
				check_int(strlen(l.text), l.len);
				sbuf_addf(&out, "%ld:%d|%s\n", l.lineno,
					  l.quote_depth, l.text);
			}
			if (rc < 0)
				sbuf_addstr(&out, "broken\n");
		}
		mail_reader_release(&r);
	}
	input_close(&in);
	err_capture(NULL);
	unlink(p);
	free(p);
	return sbuf_detach(&out, NULL);
}

#define check_unflowed(text, expect) do { \
	struct sbuf errs_ = SBUF_INIT; \
	char *got_ = dump_unflowed(text, &errs_); \
	check_str("", errs_.buf); \
	check_str(expect, got_); \
	free(got_); \
	sbuf_release(&errs_); \
} while (0)

TEST(format_flowed)
{
	/* a row wrapped by Thunderbird: numbers, then the name */
	check_unflowed(HDR "Content-Type: text/plain; charset=utf-8; "
		       "format=flowed\n\n"
		       ">>        1.97 \xc2\xb1 11%      +0.9        2.88 \n"
		       ">> perf-profile.calltrace.x \n"
		       ">>\n"
		       ">>        0.00            +0.9        0.93\n"
		       "fixed line\n"
		       " stuffed line\n"
		       "flowed at depth 0 \n"
		       "> is not joined to depth 1\n"
		       "-- \n"
		       "sig\n",
		       "5:2|       1.97 \xc2\xb1 11%      +0.9        2.88 "
		       "perf-profile.calltrace.x \n"
		       "8:2|       0.00            +0.9        0.93\n"
		       "9:0|fixed line\n"
		       "10:0|stuffed line\n"
		       "11:0|flowed at depth 0 \n"
		       "12:1|is not joined to depth 1\n"
		       "13:0|-- \n"
		       "14:0|sig\n");
	/* DelSp=yes: the space before the break goes */
	check_unflowed(HDR "Content-Type: text/plain; format=flowed; "
		       "delsp=yes\n\n"
		       "vm-scala \nbility.throughput\n",
		       "5:0|vm-scalability.throughput\n");
	/* not flowed: trailing spaces and leading blanks stay */
	check_unflowed(HDR "\n  a \nb\n", "4:0|  a \n5:0|b\n");
	/* quoted-printable under flowed: "=20" ends a flowed line */
	check_unflowed(HDR "Content-Type: text/plain; format=flowed\n"
		       "Content-Transfer-Encoding: quoted-printable\n\n"
		       "one=20\ntwo\n",
		       "6:0|one two\n");
}

int main(int argc, char **argv)
{
	if (!mkdtemp(tmpdir)) {
		test_fail("mkdtemp: %s", strerror(errno));
		return test_done();
	}
	if (chdir(tmpdir)) {
		test_fail("chdir %s: %s", tmpdir, strerror(errno));
		return test_done();
	}
	test_detect();
	test_quoted_printable();
	test_rfc2047_headers();
	test_folded_headers();
	test_multipart();
	test_base64_and_charsets();
	test_quoting();
	test_mbox_with_broken_message();
	test_truncated_email();
	test_crlf();
	test_plain_text();
	test_limits();
	test_format_flowed();
	test_samples(argc > 1 ? argv[1] : NULL);
	if (chdir("/"))
		test_fail("chdir /: %s", strerror(errno));
	rmdir(tmpdir);
	return test_done();
}
