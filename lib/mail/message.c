/*
 * The report as an RFC 5322 message (message.h): GMime builds and
 * serialises the MIME structure; this file chooses the headers and
 * writes the result to an .eml or an mbox.
 *
 * Why GMime and not libcurl's MIME API: curl_mime_* builds a message
 * only as the body of a transfer (SMTP, HTTP, IMAP) and has no way to
 * serialise it to a buffer, while the report must be written to disk
 * (.eml, mbox) before it is sent, byte for byte as it will be sent.
 */
#include "core/compat.h"
#include "core/sha256.h"
#include "mail/message.h"
#include <fcntl.h>
#include "mail/gmime.h"
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

time_t message_date(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");
	char *end;
	long long t;

	if (e && *e) {
		errno = 0;
		t = strtoll(e, &end, 10);
		if (!*end && !errno && t >= 0)
			return (time_t)t;
		warning("SOURCE_DATE_EPOCH='%s' is not a number of seconds: "
			"the time now is used", e);
	}
	return time(NULL);
}

/* Add the addresses of text (one or several, comma-separated). */
static int add_addresses(InternetAddressList *to, const char *text,
			 const char *what)
{
	InternetAddressList *l = internet_address_list_parse(NULL, text);
	int n = l ? internet_address_list_length(l) : 0, i;

	if (n <= 0) {
		if (l)
			g_object_unref(l);
		return error("%s: '%s' is not an e-mail address", what, text);
	}
	/* names beyond ASCII as UTF-8 encoded words, not iso-8859-1 */
	for (i = 0; i < n; i++)
		internet_address_set_charset(
			internet_address_list_get_address(l, i), "UTF-8");
	internet_address_list_append(to, l);
	g_object_unref(l);
	return 0;
}

/*
 * <YYYYMMDDHHMMSS.16 hex digits-perfsift@domain>: the digits hash the
 * message's subject, recipients and body, with 16 random bytes unless
 * the date is fixed (SOURCE_DATE_EPOCH), so that a rebuilt report gets
 * the same Message-ID and two reports never collide.
 */
static char *make_msgid(const struct message_spec *m, int fixed)
{
	char host[256] = "localhost", hex[65], stamp[32];
	const char *domain = m->msgid_domain;
	struct sha256 h;
	struct tm tm;
	size_t i;

	sha256_init(&h);
	sha256_update(&h, m->subject, strlen(m->subject));
	for (i = 0; i < m->nto; i++)
		sha256_update(&h, m->to[i], strlen(m->to[i]) + 1);
	for (i = 0; i < m->ncc; i++)
		sha256_update(&h, m->cc[i], strlen(m->cc[i]) + 1);
	sha256_update(&h, m->body, strlen(m->body));
	if (!fixed) {
		unsigned char rnd[16];

		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			memset(rnd, 0, sizeof(rnd));	/* the pid still differs */
		sha256_update(&h, rnd, sizeof(rnd));
		sha256_update(&h, &(pid_t){ getpid() }, sizeof(pid_t));
	}
	sha256_final_hex(&h, hex);
	if (!domain || !*domain) {
		if (gethostname(host, sizeof(host) - 1) || !*host)
			snprintf(host, sizeof(host), "localhost");
		host[sizeof(host) - 1] = '\0';
		domain = host;
	}
	gmtime_r(&m->date, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	return xstrfmt("%s.%.16s-perfsift@%s", stamp, hex, domain);
}

static GMimeObject *attachment_part(const struct attachment *a)
{
	const char *slash = strchr(a->type, '/');
	char *type = xstrndup(a->type, slash ? (size_t)(slash - a->type) :
			      strlen(a->type));
	GMimePart *part = g_mime_part_new_with_type(type, slash ? slash + 1 :
						    "octet-stream");
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(a->data, a->len);
	GMimeDataWrapper *w =
		g_mime_data_wrapper_new_with_stream(s, GMIME_CONTENT_ENCODING_DEFAULT);

	g_mime_part_set_content(part, w);
	g_object_unref(w);
	g_object_unref(s);
	g_mime_part_set_content_encoding(part, GMIME_CONTENT_ENCODING_BASE64);
	g_mime_object_set_disposition((GMimeObject *)part,
				      GMIME_DISPOSITION_ATTACHMENT);
	g_mime_part_set_filename(part, a->name);
	free(type);
	return (GMimeObject *)part;
}

/*
 * 7bit for ASCII, 8bit for UTF-8, quoted-printable when a line is longer
 * than SMTP allows (998 octets, RFC 5322 2.1.1).  GMime's own choice
 * (g_mime_part_get_best_content_encoding()) answered "default" for a
 * memory stream's UTF-8 here, which writes no header at all: 8-bit text
 * labelled 7bit.
 */
static GMimeContentEncoding body_encoding(const char *body)
{
	size_t line = 0;
	int high = 0;

	for (; *body; body++) {
		if (*body == '\n') {
			line = 0;
			continue;
		}
		if (++line > 998)
			return GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
		high |= (unsigned char)*body >= 0x80;
	}
	return high ? GMIME_CONTENT_ENCODING_8BIT : GMIME_CONTENT_ENCODING_7BIT;
}

static char *bracketed(const char *id)
{
	return xstrfmt("%s%s%s", *id == '<' ? "" : "<", id,
		       *id == '<' ? "" : ">");
}

/* The message's headers (its Message-ID made here): 0 or -1. */
static int set_headers(GMimeMessage *msg, const struct message_spec *m,
		       char **msgid)
{
	GDateTime *dt;
	size_t i;

	if (add_addresses(g_mime_message_get_from(msg), m->from, "From"))
		return -1;
	for (i = 0; i < m->nto; i++)
		if (add_addresses(g_mime_message_get_to(msg), m->to[i], "To"))
			return -1;
	for (i = 0; i < m->ncc; i++)
		if (add_addresses(g_mime_message_get_cc(msg), m->cc[i], "Cc"))
			return -1;
	g_mime_message_set_subject(msg, m->subject, "utf-8");
	dt = g_date_time_new_from_unix_utc(m->date);
	g_mime_message_set_date(msg, dt);
	g_date_time_unref(dt);
	*msgid = make_msgid(m, getenv("SOURCE_DATE_EPOCH") != NULL);
	g_mime_message_set_message_id(msg, *msgid);
	if (m->in_reply_to && *m->in_reply_to) {
		char *irt = bracketed(m->in_reply_to);
		char *refs = m->references && *m->references ?
			     xstrfmt("%s %s", m->references, irt) :
			     xstrdup(irt);

		g_mime_object_set_header((GMimeObject *)msg, "In-Reply-To",
					 irt, NULL);
		g_mime_object_set_header((GMimeObject *)msg, "References",
					 refs, NULL);
		free(irt);
		free(refs);
	}
	g_mime_object_set_header((GMimeObject *)msg, "User-Agent",
				 "perfsift", NULL);
	return 0;
}

/*
 * The body, and its attachments in a multipart/mixed after it.  The
 * body's own UTF-8 bytes (g_mime_text_part_set_text() would convert
 * them to the smallest charset that holds them, such as iso-8859-1);
 * 7bit or 8bit when every line fits, else quoted-printable.
 */
static void set_body(GMimeMessage *msg, const struct message_spec *m)
{
	GMimeTextPart *text = g_mime_text_part_new_with_subtype("plain");
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(m->body,
							   strlen(m->body));
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(s,
					GMIME_CONTENT_ENCODING_DEFAULT);
	GMimeMultipart *mp;
	size_t i;

	g_mime_part_set_content((GMimePart *)text, w);
	g_object_unref(w);
	g_object_unref(s);
	g_mime_text_part_set_charset(text, "UTF-8");
	g_mime_part_set_content_encoding((GMimePart *)text,
					 body_encoding(m->body));
	if (!m->natt) {
		g_mime_message_set_mime_part(msg, (GMimeObject *)text);
		g_object_unref(text);
		return;
	}
	mp = g_mime_multipart_new_with_subtype("mixed");
	g_mime_multipart_add(mp, (GMimeObject *)text);
	for (i = 0; i < m->natt; i++) {
		GMimeObject *part = attachment_part(&m->att[i]);

		g_mime_multipart_add(mp, part);
		g_object_unref(part);
	}
	g_mime_message_set_mime_part(msg, (GMimeObject *)mp);
	g_object_unref(mp);
	g_object_unref(text);
}

/* The message as its bytes, lines ending in LF: 0 or -1 after error(). */
static int serialise(GMimeMessage *msg, struct sbuf *out)
{
	GMimeStream *mem = g_mime_stream_mem_new();
	GMimeFormatOptions *fo = g_mime_format_options_new();
	GByteArray *bytes;
	int ret = -1;

	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
	if (g_mime_object_write_to_stream((GMimeObject *)msg, fo, mem) < 0) {
		error("the message could not be serialised");
	} else {
		bytes = g_mime_stream_mem_get_byte_array((GMimeStreamMem *)mem);
		sbuf_add(out, bytes->data, bytes->len);
		ret = 0;
	}
	g_mime_format_options_free(fo);
	g_object_unref(mem);
	return ret;
}

int mail_value_check(const char *what, const char *v)
{
	const unsigned char *p;

	if (!v)
		return 0;
	for (p = (const unsigned char *)v; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return error("%s: a control character (0x%02x) at byte "
				     "%zu: refused, it could end the header",
				     what, *p, (size_t)(p - (const unsigned char *)v) + 1);
	return 0;
}

/* Every value of m that goes in a header: 0, or -1 after error(). */
static int spec_check(const struct message_spec *m)
{
	size_t i;

	if (mail_value_check("From", m->from) ||
	    mail_value_check("Subject", m->subject) ||
	    mail_value_check("In-Reply-To", m->in_reply_to) ||
	    mail_value_check("References", m->references) ||
	    mail_value_check("the Message-ID's domain", m->msgid_domain))
		return -1;
	for (i = 0; i < m->nto; i++)
		if (mail_value_check("To", m->to[i]))
			return -1;
	for (i = 0; i < m->ncc; i++)
		if (mail_value_check("Cc", m->cc[i]))
			return -1;
	return 0;
}

int message_build(const struct message_spec *m, struct sbuf *out,
		  char **msgid)
{
	GMimeMessage *msg;
	int ret = -1;

	*msgid = NULL;
	if (spec_check(m))
		return -1;
	if (gmime_load())
		return -1;
	msg = g_mime_message_new(TRUE);
	if (!set_headers(msg, m, msgid)) {
		set_body(msg, m);
		ret = serialise(msg, out);
	}
	g_object_unref(msg);
	if (ret) {
		free(*msgid);
		*msgid = NULL;
	}
	return ret;
}

/* write all of buf to fd; 0 or -1 with errno */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int message_write_eml(const char *path, const char *msg, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.XXXXXX", path);
	int fd = mkstemp(tmp), ret = -1;

	if (fd < 0) {
		error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	if (write_all(fd, msg, len) || fchmod(fd, 0644) || fsync(fd)) {
		error("cannot write '%s': %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (close(fd) || rename(tmp, path)) {
		error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	return ret;
}

/* the bare address of "Name <addr>" */
static char *bare_address(const char *from)
{
	const char *lt = strrchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt)
		return xstrndup(lt + 1, (size_t)(gt - lt - 1));
	return xstrdup(from);
}

/*
 * An mbox whose last message lacks its closing blank line (written by
 * another tool, or cut short) gets it, so that our "From " line starts a
 * message of its own.  0, or -1 with errno.
 */
static int end_mbox(const char *path, off_t size, int fd)
{
	char last[2] = { '\n', '\n' };
	int rfd;
	ssize_t n;

	if (size <= 0)
		return 0;
	rfd = open(path, O_RDONLY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	n = pread(rfd, last + (size == 1), size == 1 ? 1 : 2,
		  size == 1 ? 0 : size - 2);
	close(rfd);
	if (n < 0)
		return -1;
	if (last[1] != '\n')
		return write_all(fd, "\n\n", 2);
	if (last[0] != '\n')
		return write_all(fd, "\n", 1);
	return 0;
}

/*
 * Is the file at fd (size bytes) one to append mail to: empty, or an
 * mbox, which starts with "From "?  An SQLite database (perfsift's own,
 * named by mistake) is not.
 */
static int mbox_start_ok(int fd, off_t size)
{
	char head[5];

	return size == 0 ||
	       (pread(fd, head, sizeof(head), 0) == (ssize_t)sizeof(head) &&
		!memcmp(head, "From ", 5));
}

int message_append_mbox(const char *path, const char *msg, size_t len,
			const char *sender, time_t date)
{
	struct sbuf sb = SBUF_INIT;
	char stamp[64], *addr = bare_address(sender);
	const char *p = msg, *end = msg + len;
	struct tm tm;
	struct stat st;
	int fd, ret = -1;

	gmtime_r(&date, &tm);
	strftime(stamp, sizeof(stamp), "%a %b %e %H:%M:%S %Y", &tm);
	sbuf_addf(&sb, "From %s %s\n", *addr ? addr : "MAILER-DAEMON", stamp);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p;
		size_t n = nl ? (size_t)(nl - p + 1) : (size_t)(end - p);

		while (q < p + n && *q == '>')
			q++;
		if ((size_t)(p + n - q) >= 5 && !memcmp(q, "From ", 5))
			sbuf_addch(&sb, '>');
		sbuf_add(&sb, p, n);
		p += n;
	}
	if (sb.len && sb.buf[sb.len - 1] != '\n')
		sbuf_addch(&sb, '\n');
	sbuf_addch(&sb, '\n');
	/* a FIFO or a device is no mbox (and would block the open) */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		error("'%s' is not an mbox: not a regular file", path);
		goto out;
	}
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot append to '%s': %s", path, strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX) || fstat(fd, &st)) {
		error("cannot lock '%s': %s", path, strerror(errno));
		close(fd);
		goto out;
	}
	if (!mbox_start_ok(fd, st.st_size)) {
		error("'%s' is not an mbox (it does not start with \"From \"): "
		      "nothing appended", path);
		close(fd);
		goto out;
	}
	if (end_mbox(path, st.st_size, fd) ||
	    write_all(fd, sb.buf, sb.len) || fsync(fd)) {
		error("cannot append to '%s': %s", path, strerror(errno));
		close(fd);
		goto out;
	}
	if (close(fd)) {
		error("cannot append to '%s': %s", path, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(addr);
	sbuf_release(&sb);
	return ret;
}
