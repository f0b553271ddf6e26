/*
 * gmime-dump: the reference of the mail decoder's differential test
 * (tests/t1400-mail-gmime.sh).  It prints, with GMime, what `perfsift
 * debug mail FILE` prints with lib/mail/mail.c: for each message of an
 * mbox (--mbox) or a single message (--eml), its headers and the lines
 * of its text/plain parts that are not attachments, transfer-decoded
 * and in UTF-8.  Built only for the tests (make check), linked with
 * `pkg-config gmime-3.0`; not part of perfsift.
 *
 * How each field is had from GMime:
 *   message-id   g_mime_message_get_message_id()
 *   subject      g_mime_message_get_subject() (RFC 2047 decoded)
 *   from         the raw From value, g_mime_utils_header_unfold(), then
 *                g_mime_utils_header_decode_text()
 *   date         the raw Date value, unfolded and trimmed
 *   in-reply-to  g_mime_utils_decode_message_id() of the raw value
 *   references   g_mime_references_parse() of the raw value
 *   text         g_mime_part_get_content() written to a memory stream
 *                (GMime undoes quoted-printable and base64), split at
 *                "\n" (a final "\n" ends the last line; "\r" before "\n"
 *                dropped), and each line made UTF-8 by the rule of
 *                mail.h, with GMime's iconv: kept if valid UTF-8, else
 *                converted from the part's charset (windows-1252 when
 *                none, us-ascii or unknown); with --mbox, a line
 *                ">From ", ">>From ", ... loses one ">" (mboxrd: GMime
 *                leaves that to its caller).
 *
 * The one place where mail.c departs from GMime on purpose and this
 * program does not follow it: a quoted-printable line's trailing white
 * space, which mail.c drops and "=" followed by white space, which
 * mail.c takes for a soft line break, both as RFC 2045 6.7 (3) says.
 * Quoted-printable encoders write neither (a trailing space is "=20"),
 * so no fixture holds them; tests/unit/t-mail.c checks them.
 */
#include <gmime/gmime.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

static const char *header_raw(GMimeObject *obj, const char *name)
{
	GMimeHeader *h = g_mime_header_list_get_header(
		g_mime_object_get_header_list(obj), name);

	return h ? g_mime_header_get_raw_value(h) : NULL;
}

/* The raw value of header name, unfolded and trimmed; caller frees. */
static char *header_unfolded(GMimeObject *obj, const char *name)
{
	const char *raw = header_raw(obj, name);
	char *v = g_mime_utils_header_unfold(raw ? raw : "");

	return g_strstrip(v);
}

static int is_utf8_charset(const char *cs)
{
	return !g_ascii_strcasecmp(cs, "utf-8") ||
	       !g_ascii_strcasecmp(cs, "utf8");
}

static int mbox;			/* --mbox */

static void print_line(const char *s, size_t n, const char *charset)
{
	const char *end;
	char *conv = NULL;
	iconv_t cd = (iconv_t)-1;
	size_t k = 0;

	while (mbox && k < n && s[k] == '>')
		k++;
	if (k && n - k >= 5 && !memcmp(s + k, "From ", 5))
		s++, n--;

	if (g_utf8_validate(s, (gssize)n, &end) && end == s + n) {
		printf("|%.*s\n", (int)n, s);
		return;
	}
	if (charset && !is_utf8_charset(charset) &&
	    g_ascii_strcasecmp(charset, "us-ascii"))
		cd = g_mime_iconv_open("UTF-8", charset);
	if (cd == (iconv_t)-1)
		cd = g_mime_iconv_open("UTF-8", "windows-1252");
	if (cd != (iconv_t)-1) {
		conv = g_mime_iconv_strndup(cd, s, n);
		g_mime_iconv_close(cd);
	}
	printf("|%s\n", conv ? conv : "(gmime-dump: iconv failed)");
	g_free(conv);
}

/* The lines of a text/plain part. */
static void dump_part(GMimePart *part)
{
	GMimeObject *obj = (GMimeObject *)part;
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *bytes;
	const char *charset;
	size_t i, start = 0;

	if (!content)
		return;
	charset = g_mime_object_get_content_type_parameter(obj, "charset");
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	bytes = g_mime_stream_mem_get_byte_array((GMimeStreamMem *)mem);
	for (i = 0; i <= bytes->len; i++) {
		size_t n;

		if (i < bytes->len && bytes->data[i] != '\n')
			continue;
		if (i == bytes->len && start == i)
			break;	/* a final "\n" ended the last line */
		n = i - start;
		if (n && bytes->data[start + n - 1] == '\r')
			n--;
		print_line((const char *)bytes->data + start, n, charset);
		start = i + 1;
	}
	g_object_unref(mem);
}

static void walk(GMimeObject *obj)
{
	GMimeContentType *ct;
	GMimeContentDisposition *disp;

	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = (GMimeMultipart *)obj;
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++)
			walk(g_mime_multipart_get_part(mp, i));
		return;
	}
	if (!GMIME_IS_PART(obj))
		return;		/* message/rfc822 and the like */
	ct = g_mime_object_get_content_type(obj);
	disp = g_mime_object_get_content_disposition(obj);
	if (!g_mime_content_type_is_type(ct, "text", "plain"))
		return;
	if (disp && g_mime_content_disposition_is_attachment(disp))
		return;
	dump_part((GMimePart *)obj);
}

static void dump_message(GMimeMessage *msg, int index)
{
	GMimeObject *obj = (GMimeObject *)msg;
	const char *s, *raw;
	char *from, *from_text, *date, *irt = NULL;
	GMimeReferences *refs = NULL;
	int i;

	printf("message %d\n", index);
	s = g_mime_message_get_message_id(msg);
	printf("message-id: %s\n", s ? s : "");
	s = g_mime_message_get_subject(msg);
	printf("subject: %s\n", s ? s : "");
	from = header_unfolded(obj, "From");
	from_text = g_mime_utils_header_decode_text(NULL, from);
	printf("from: %s\n", from_text);
	date = header_unfolded(obj, "Date");
	printf("date: %s\n", date);
	raw = header_raw(obj, "In-Reply-To");
	if (raw)
		irt = g_mime_utils_decode_message_id(raw);
	printf("in-reply-to: %s\n", irt ? irt : "");
	raw = header_raw(obj, "References");
	if (raw)
		refs = g_mime_references_parse(NULL, raw);
	fputs("references: ", stdout);
	for (i = 0; refs && i < g_mime_references_length(refs); i++)
		printf("%s%s", i ? " " : "",
		       g_mime_references_get_message_id(refs, i));
	puts("");
	puts("text:");
	if (g_mime_message_get_mime_part(msg))
		walk(g_mime_message_get_mime_part(msg));
	puts("end");
	if (refs)
		g_mime_references_free(refs);
	g_free(irt);
	g_free(date);
	g_free(from_text);
	g_free(from);
}

int main(int argc, char **argv)
{
	GMimeStream *stream;
	GMimeParser *parser;
	GError *err = NULL;
	int index = 0;

	if (argc != 3 || (strcmp(argv[1], "--mbox") &&
			  strcmp(argv[1], "--eml"))) {
		fprintf(stderr, "usage: gmime-dump --mbox|--eml FILE\n");
		return 2;
	}
	mbox = !strcmp(argv[1], "--mbox");
	g_mime_init();
	stream = g_mime_stream_fs_open(argv[2], O_RDONLY, 0, &err);
	if (!stream) {
		fprintf(stderr, "gmime-dump: %s: %s\n", argv[2], err->message);
		return 1;
	}
	parser = g_mime_parser_new_with_stream(stream);
	g_mime_parser_set_format(parser, mbox ? GMIME_FORMAT_MBOX
					      : GMIME_FORMAT_MESSAGE);
	while (!g_mime_parser_eos(parser)) {
		GMimeMessage *msg = g_mime_parser_construct_message(parser,
								    NULL);

		if (!msg)
			break;
		dump_message(msg, ++index);
		g_object_unref(msg);
		if (!mbox)
			break;
	}
	g_object_unref(parser);
	g_object_unref(stream);
	g_mime_shutdown();
	return fflush(stdout) ? 1 : 0;
}
