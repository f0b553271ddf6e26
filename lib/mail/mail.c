/*
 * The streaming mail decoder (mail.h): mbox, .eml or plain text into
 * messages, their headers, and the decoded lines of their text/plain
 * parts, each line with the raw file line it starts on.  One raw line is
 * read at a time; only one header block is held (capped).
 */
#include "core/compat.h"
#include "mail/mail.h"
#include <iconv.h>

enum field {
	F_MESSAGE_ID, F_SUBJECT, F_FROM, F_DATE, F_IN_REPLY_TO, F_REFERENCES,
	NR_FIELDS
};

enum state {
	S_HEADERS,	/* the header block of a part */
	S_TEXT,		/* a text/plain part: its lines are given out */
	S_SKIP,		/* another part, a preamble or an epilogue */
	S_TRUNC,	/* ended with a multipart open: error to give */
	S_DONE,		/* the message's text has ended */
};

enum { ENC_PLAIN, ENC_QP, ENC_BASE64 };

/* ---- bytes and charsets ------------------------------------------- */

/* 1 if s is valid UTF-8 without NUL; *ascii set if it is plain ASCII. */
static int utf8_valid(const char *s, size_t n, int *ascii)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	*ascii = 1;
	while (i < n) {
		if (p[i] && p[i] < 0x80) {
			i++;
			continue;
		}
		if (!p[i])
			return 0;
		*ascii = 0;
		k = utf8_seq(p + i, n - i);
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

static const char replacement[] = "\xef\xbf\xbd";	/* U+FFFD */

/*
 * Charsets in which ASCII bytes may mean something else (escape
 * sequences, 16-bit units): their text is always converted.
 */
static int ascii_compatible(const char *cs)
{
	static const char *const not_ascii[] = {
		"iso-2022", "utf-7", "utf-16", "utf-32", "ucs", "hz",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_ascii); i++)
		if (!strncasecmp(cs, not_ascii[i], strlen(not_ascii[i])))
			return 0;
	return 1;
}

static int is_utf8_name(const char *cs)
{
	return !strcasecmp(cs, "utf-8") || !strcasecmp(cs, "utf8");
}

static int is_ascii_name(const char *cs)
{
	return !*cs || !strcasecmp(cs, "us-ascii") || !strcasecmp(cs, "ascii");
}

/* The iconv descriptor to UTF-8 from cs, or NULL if iconv lacks it. */
static iconv_t get_cd(struct mail_reader *r, const char *cs)
{
	if (r->cd_charset[0] && !strcasecmp(r->cd_charset, cs))
		return r->cd;
	if (r->cd)
		iconv_close(r->cd);
	r->cd = iconv_open("UTF-8", cs);
	if (r->cd == (iconv_t)-1)
		r->cd = NULL;
	snprintf(r->cd_charset, sizeof(r->cd_charset), "%s", cs);
	return r->cd;
}

/* Append s converted with cd; what does not convert becomes U+FFFD. */
static void add_iconv(struct sbuf *out, iconv_t cd, const char *s, size_t n)
{
	char *ip = (char *)s;
	size_t il = n, room = n * 4 + 16;

	iconv(cd, NULL, NULL, NULL, NULL);
	for (;;) {
		char *op;
		size_t ol, rc;

		sbuf_grow(out, room);
		op = out->buf + out->len;
		ol = out->alloc - out->len - 1;
		rc = il ? iconv(cd, &ip, &il, &op, &ol)
			: iconv(cd, NULL, NULL, &op, &ol);
		out->len = (size_t)(op - out->buf);
		out->buf[out->len] = '\0';
		if (rc != (size_t)-1) {
			if (!il)
				break;
			continue;
		}
		if (errno == E2BIG) {
			room *= 2;
			continue;
		}
		/* EILSEQ, or EINVAL: a sequence cut off at the end */
		sbuf_addstr(out, replacement);
		ip++;
		il--;
	}
}

/*
 * Append s, in charset cs ("" for none), to out as UTF-8.  With
 * utf8_first, valid UTF-8 is kept whatever cs says (mail.h).
 */
static void add_utf8(struct mail_reader *r, struct sbuf *out, const char *s,
		     size_t n, const char *cs, int utf8_first)
{
	int ascii, valid = utf8_valid(s, n, &ascii);
	int compat = ascii_compatible(cs);
	iconv_t cd;
	size_t i;

	if (valid && compat && (ascii || utf8_first || is_utf8_name(cs))) {
		sbuf_add(out, s, n);
		return;
	}
	if (is_utf8_name(cs)) {
		sbuf_add_utf8_repaired(out, s, n);
		return;
	}
	cd = is_ascii_name(cs) ? NULL : get_cd(r, cs);
	if (!cd)
		cd = get_cd(r, "WINDOWS-1252");
	if (!cd) {
		sbuf_add_utf8_repaired(out, s, n);
		return;
	}
	i = out->len;
	add_iconv(out, cd, s, n);
	/*
	 * iconv passes NUL (from =00 or base64) and, from UCS-4, writes
	 * code points past U+10FFFF (fuzz-mail found it): repair those.
	 */
	if (!utf8_valid(out->buf + i, out->len - i, &ascii)) {
		size_t cn = out->len - i;
		char *conv = xmalloc(cn);

		memcpy(conv, out->buf + i, cn);
		sbuf_setlen(out, i);
		sbuf_add_utf8_repaired(out, conv, cn);
		free(conv);
	}
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/*
 * Base64-decode s into out, carrying bits in *acc and *bits; "=" ends a
 * group (its leftover bits are dropped), other bytes are skipped.
 */
static void b64_decode(struct sbuf *out, const char *s, size_t n,
		       unsigned *acc, int *bits)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int v = b64val((unsigned char)s[i]);

		if (v < 0) {
			if (s[i] == '=')
				*acc = 0, *bits = 0;
			continue;
		}
		*acc = (*acc << 6 | (unsigned)v) & 0xffffff;
		*bits += 6;
		if (*bits >= 8) {
			*bits -= 8;
			sbuf_addch(out, (char)(*acc >> *bits & 0xff));
		}
	}
}

static int is_wsp(int c)
{
	return c == ' ' || c == '\t';
}

/* ---- headers ------------------------------------------------------ */

/* Length of "Name" if s is "Name:" or "Name :"; 0 if no header line. */
static size_t header_name(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && s[i] > 32 && s[i] < 127 && s[i] != ':')
		i++;
	if (!i)
		return 0;
	k = i;
	while (k < n && is_wsp(s[k]))
		k++;
	return k < n && s[k] == ':' ? i : 0;
}

/* An encoded word "=?cs?e?text?=" at s, parsed (RFC 2047 2). */
struct eword {
	char charset[64];
	int b;			/* B, else Q encoding */
	const char *text;
	size_t text_len, len;	/* len: the whole word */
};

static int parse_eword(const char *s, size_t n, struct eword *w)
{
	size_t i = 2, cs, t;

	if (n < 8 || s[0] != '=' || s[1] != '?')
		return 0;
	while (i < n && s[i] != '?' && !is_wsp(s[i]))
		i++;
	cs = i - 2;
	if (!cs || cs >= sizeof(w->charset) || i + 2 >= n || s[i] != '?' ||
	    s[i + 2] != '?')
		return 0;
	if (s[i + 1] == 'B' || s[i + 1] == 'b')
		w->b = 1;
	else if (s[i + 1] == 'Q' || s[i + 1] == 'q')
		w->b = 0;
	else
		return 0;
	memcpy(w->charset, s + 2, cs);
	w->charset[cs] = '\0';
	/* RFC 2231 language suffix: =?utf-8*en?q?...?= */
	if (strchr(w->charset, '*'))
		*strchr(w->charset, '*') = '\0';
	t = i + 3;
	for (i = t; i + 1 < n; i++) {
		if (is_wsp(s[i]))
			return 0;
		if (s[i] == '?' && s[i + 1] == '=')
			break;
	}
	if (i + 1 >= n)
		return 0;
	w->text = s + t;
	w->text_len = i - t;
	w->len = i + 2;
	return 1;
}

static void q_decode(struct sbuf *out, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '_') {
			sbuf_addch(out, ' ');
		} else if (s[i] == '=' && i + 2 < n &&
			   hexval((unsigned char)s[i + 1]) >= 0 &&
			   hexval((unsigned char)s[i + 2]) >= 0) {
			sbuf_addch(out, (char)(hexval((unsigned char)s[i + 1]) << 4 |
					       hexval((unsigned char)s[i + 2])));
			i += 2;
		} else {
			sbuf_addch(out, s[i]);
		}
	}
}

/* Give out the bytes of the encoded words read so far, in charset cs. */
static void flush_ewords(struct mail_reader *r, struct sbuf *out, char *cs)
{
	if (r->tmp.len)
		add_utf8(r, out, r->tmp.buf, r->tmp.len, cs, 0);
	sbuf_reset(&r->tmp);
	cs[0] = '\0';
}

/*
 * Append the header text s, its RFC 2047 encoded words decoded, to out
 * as UTF-8.  White space between two encoded words goes; the bytes of
 * adjacent words in one charset are converted together, since a
 * character may be split between them.
 */
static void decode_header_text(struct mail_reader *r, struct sbuf *out,
			       const char *s, size_t n)
{
	char cs[64] = "";
	size_t i = 0, lit = 0, k;
	struct eword w;

	sbuf_reset(&r->tmp);
	while (i < n) {
		if (s[i] != '=' || !parse_eword(s + i, n - i, &w)) {
			i++;
			continue;
		}
		/*
		 * The text since the previous word: dropped if it is white
		 * space between two words, else given out.
		 */
		for (k = lit; k < i && is_wsp(s[k]); k++)
			;
		if (k < i || !cs[0]) {
			flush_ewords(r, out, cs);
			add_utf8(r, out, s + lit, i - lit, "", 1);
		} else if (strcasecmp(cs, w.charset)) {
			flush_ewords(r, out, cs);
		}
		snprintf(cs, sizeof(cs), "%s", w.charset);
		if (w.b) {
			unsigned acc = 0;
			int bits = 0;

			b64_decode(&r->tmp, w.text, w.text_len, &acc, &bits);
		} else {
			q_decode(&r->tmp, w.text, w.text_len);
		}
		i += w.len;
		lit = i;
	}
	flush_ewords(r, out, cs);
	add_utf8(r, out, s + lit, n - lit, "", 1);
}

/* Copy the msg-ids "<...>" of v (all, or the first) into out. */
static void add_msg_ids(struct mail_reader *r, struct sbuf *out,
			const char *v, size_t n, int all)
{
	const char *p = v, *end = v + n, *lt, *gt;

	while (p < end && (lt = memchr(p, '<', (size_t)(end - p)))) {
		gt = memchr(lt, '>', (size_t)(end - lt));
		if (!gt)
			break;
		if (out->len)
			sbuf_addch(out, ' ');
		add_utf8(r, out, lt + 1, (size_t)(gt - lt - 1), "", 1);
		if (!all)
			return;
		p = gt + 1;
	}
	if (!out->len && n && !memchr(v, '<', n)) {
		/* no brackets: the first word */
		size_t k = 0;

		while (k < n && !is_wsp(v[k]))
			k++;
		add_utf8(r, out, v, k, "", 1);
	}
}

static void trim(const char **v, size_t *n)
{
	while (*n && is_wsp(**v))
		(*v)++, (*n)--;
	while (*n && is_wsp((*v)[*n - 1]))
		(*n)--;
}

/* The MIME headers of a part, pointing into r->hdr. */
struct part_hdr {
	const char *ctype, *cte, *disp;
	size_t ctype_len, cte_len, disp_len;
};

/*
 * Walk the header block r->hdr ("Name: value" lines, unfolded): fill
 * *ph and, for the message header (fields), the decoded fields.
 */
static void parse_headers(struct mail_reader *r, struct part_hdr *ph,
			  int fields)
{
	static const char *const names[NR_FIELDS] = {
		"message-id", "subject", "from", "date", "in-reply-to",
		"references",
	};
	const char *p = r->hdr.buf, *end = r->hdr.buf + r->hdr.len;
	int seen[NR_FIELDS] = { 0 };

	memset(ph, 0, sizeof(*ph));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *v;
		size_t name = header_name(p, (size_t)(eol - p)), n;
		int f;

		if (!name) {	/* header_line() lets none in */
			p = eol + 1;
			continue;
		}
		v = memchr(p, ':', (size_t)(eol - p)) + 1;
		n = (size_t)(eol - v);
		trim(&v, &n);
		if (name == 12 && !strncasecmp(p, "content-type", 12) &&
		    !ph->ctype)
			ph->ctype = v, ph->ctype_len = n;
		else if (name == 25 && !ph->cte &&
			 !strncasecmp(p, "content-transfer-encoding", 25))
			ph->cte = v, ph->cte_len = n;
		else if (name == 19 && !ph->disp &&
			 !strncasecmp(p, "content-disposition", 19))
			ph->disp = v, ph->disp_len = n;
		for (f = 0; fields && f < NR_FIELDS; f++) {
			struct sbuf *sb = &r->fields[f];
			char *c;

			if (seen[f] || name != strlen(names[f]) ||
			    strncasecmp(p, names[f], name))
				continue;
			seen[f] = 1;
			if (f == F_SUBJECT || f == F_FROM)
				decode_header_text(r, sb, v, n);
			else if (f == F_DATE)
				add_utf8(r, sb, v, n, "", 1);
			else
				add_msg_ids(r, sb, v, n, f == F_REFERENCES);
			/* an encoded word may hold a line end: one line */
			for (c = sb->buf; (c = strpbrk(c, "\r\n")); c++)
				*c = ' ';
		}
		p = eol + 1;
	}
}

/* Length of the token at v (up to white space, ';', '(' or '"'). */
static size_t token_len(const char *v, size_t n)
{
	size_t i = 0;

	while (i < n && !is_wsp(v[i]) && v[i] != ';' && v[i] != '(' &&
	       v[i] != '"')
		i++;
	return i;
}

/*
 * The parameter name (case-insensitive) of a Content-Type value, copied
 * into out (quoted strings unquoted); 1 if found.
 */
static int ctype_param(const char *v, size_t n, const char *name,
		       struct sbuf *out)
{
	size_t i = 0, nl = strlen(name);

	sbuf_reset(out);
	for (;;) {
		const char *semi = memchr(v + i, ';', n - i);
		size_t k;

		if (!semi)
			return 0;
		i = (size_t)(semi - v) + 1;
		while (i < n && is_wsp(v[i]))
			i++;
		k = i;
		while (k < n && v[k] != '=' && v[k] != ';' && !is_wsp(v[k]))
			k++;
		if (k - i != nl || strncasecmp(v + i, name, nl))
			continue;
		while (k < n && is_wsp(v[k]))
			k++;
		if (k >= n || v[k] != '=')
			continue;
		k++;
		while (k < n && is_wsp(v[k]))
			k++;
		if (k < n && v[k] == '"') {
			for (k++; k < n && v[k] != '"'; k++) {
				if (v[k] == '\\' && k + 1 < n)
					k++;
				sbuf_addch(out, v[k]);
			}
		} else {
			sbuf_add(out, v + k, token_len(v + k, n - k));
		}
		return 1;
	}
}

/* ---- raw lines ---------------------------------------------------- */

/* The next raw line into r->in->sb: 1, 0 at the end, -1 input error. */
static int raw_next(struct mail_reader *r)
{
	int rc;

	if (r->unread) {
		r->unread = 0;
		return 1;
	}
	if (r->eof)
		return 0;
	rc = input_getline(r->in);
	if (rc <= 0) {
		r->eof = 1;
		r->failed = rc < 0;
		return rc;
	}
	r->lineno = r->in->line;
	return 1;
}

static int is_from_line(const struct mail_reader *r)
{
	return r->kind == MAIL_MBOX && r->in->sb.len >= 5 &&
	       !memcmp(r->in->sb.buf, "From ", 5);
}

/*
 * The multipart level whose boundary the raw line is ("--b" or "--b--",
 * white space after it allowed), innermost first; -1 if none.
 */
static int boundary_level(const struct mail_reader *r, int *close)
{
	const char *s = r->in->sb.buf;
	size_t n = r->in->sb.len;
	int k;

	if (n < 2 || s[0] != '-' || s[1] != '-')
		return -1;
	while (n > 2 && is_wsp(s[n - 1]))
		n--;
	for (k = r->depth - 1; k >= 0; k--) {
		size_t bl = strlen(r->bound[k]);

		if (n < bl + 2 || memcmp(s + 2, r->bound[k], bl))
			continue;
		if (n == bl + 2) {
			*close = 0;
			return k;
		}
		if (n == bl + 4 && s[bl + 2] == '-' && s[bl + 3] == '-') {
			*close = 1;
			return k;
		}
	}
	return -1;
}

/* ---- the message -------------------------------------------------- */

static int broken(struct mail_reader *r)
{
	r->state = S_DONE;
	return -1;
}

/*
 * One raw line of a header block.  Returns 0 (more to come), 1 (the
 * blank line that ends the block) or -1 after error().
 */
static int header_line(struct mail_reader *r)
{
	const char *s = r->in->sb.buf;
	size_t n = r->in->sb.len;

	if (!n)
		return 1;
	if (is_wsp(s[0]) && !r->hdr.len)
		return error("%s:%ld: expected a header line 'Name: value', "
			     "got a continuation line '%.40s'", r->in->path,
			     r->lineno, s);
	if (!is_wsp(s[0]) && !header_name(s, n))
		return error("%s:%ld: expected a header line 'Name: value' or "
			     "a blank line, got '%.40s'", r->in->path, r->lineno,
			     s);
	if (sbuf_grow_capped(&r->hdr, n + 1) < 0)
		return error("%s:%ld: header block longer than %u bytes",
			     r->in->path, r->lineno, MAIL_HEADER_MAX);
	if (r->hdr.len && !is_wsp(s[0]))
		sbuf_addch(&r->hdr, '\n');
	sbuf_add(&r->hdr, s, n);
	return 0;
}

static void reset_text(struct mail_reader *r)
{
	sbuf_reset(&r->dec);
	r->dec_pos = 0;
	r->b64_acc = 0;
	r->b64_bits = 0;
}

/*
 * The header block of a part (the message itself at depth 0) is read:
 * decide what its body is.  Returns 0 or -1 after error().
 */
static int start_part(struct mail_reader *r, int fields)
{
	struct part_hdr ph;
	const char *t;
	size_t tl, sl;
	int text, attachment;

	parse_headers(r, &ph, fields);
	r->state = S_SKIP;
	reset_text(r);
	t = ph.ctype;
	tl = t ? token_len(t, ph.ctype_len) : 0;
	if (!t) {
		/* RFC 2046 5.1.5: the parts of a digest are messages */
		text = !(r->depth && r->digest[r->depth - 1]);
	} else if (tl > 10 && !strncasecmp(t, "multipart/", 10)) {
		if (!ctype_param(t, ph.ctype_len, "boundary", &r->tmp) ||
		    !r->tmp.len)
			return 0;	/* no boundary: opaque */
		if (r->depth == MAIL_DEPTH_MAX)
			return error("%s:%ld: multipart nested deeper than %d "
				     "levels", r->in->path, r->lineno,
				     MAIL_DEPTH_MAX);
		sl = tl - 10;
		r->digest[r->depth] = sl == 6 && !strncasecmp(t + 10, "digest", 6);
		r->bound[r->depth++] = xstrdup(r->tmp.buf);
		return 0;	/* the preamble is skipped */
	} else {
		/* an unreadable type is text/plain (RFC 2045 5.2) */
		text = (tl == 10 && !strncasecmp(t, "text/plain", 10)) ||
		       !memchr(t, '/', tl);
	}
	attachment = ph.disp && token_len(ph.disp, ph.disp_len) == 10 &&
		     !strncasecmp(ph.disp, "attachment", 10);
	if (!text || attachment)
		return 0;
	r->state = S_TEXT;
	r->enc = ENC_PLAIN;
	if (ph.cte) {
		size_t el = token_len(ph.cte, ph.cte_len);

		if (el == 16 && !strncasecmp(ph.cte, "quoted-printable", 16))
			r->enc = ENC_QP;
		else if (el == 6 && !strncasecmp(ph.cte, "base64", 6))
			r->enc = ENC_BASE64;
	}
	r->charset[0] = '\0';
	if (t && ctype_param(t, ph.ctype_len, "charset", &r->tmp) &&
	    r->tmp.len < sizeof(r->charset))
		memcpy(r->charset, r->tmp.buf, r->tmp.len + 1);
	r->flowed = t && ctype_param(t, ph.ctype_len, "format", &r->tmp) &&
		    !strcasecmp(r->tmp.buf, "flowed");
	r->delsp = r->flowed &&
		   ctype_param(t, ph.ctype_len, "delsp", &r->tmp) &&
		   !strcasecmp(r->tmp.buf, "yes");
	return 0;
}

static void free_bounds(struct mail_reader *r)
{
	while (r->depth)
		free(r->bound[--r->depth]);
}

void mail_reader_init(struct mail_reader *r, struct input *in, int kind)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->in = in;
	r->kind = kind == MAIL_DETECT ? mail_detect(in->head, in->head_len)
				      : kind;
	sbuf_init_capped(&r->hdr, MAIL_HEADER_MAX);
	sbuf_init_capped(&r->dec, INPUT_LINE_MAX);
	sbuf_init(&r->line, 0);
	sbuf_init(&r->tmp, 0);
	sbuf_init_capped(&r->joined, INPUT_LINE_MAX);
	sbuf_init(&r->ahead, 0);
	for (i = 0; i < ARRAY_SIZE(r->fields); i++)
		sbuf_init(&r->fields[i], 0);
	r->state = S_DONE;
}

void mail_reader_release(struct mail_reader *r)
{
	size_t i;

	free_bounds(r);
	sbuf_release(&r->hdr);
	sbuf_release(&r->dec);
	sbuf_release(&r->line);
	sbuf_release(&r->tmp);
	sbuf_release(&r->joined);
	sbuf_release(&r->ahead);
	for (i = 0; i < ARRAY_SIZE(r->fields); i++)
		sbuf_release(&r->fields[i]);
	if (r->cd)
		iconv_close(r->cd);
	r->cd = NULL;
}

static void fill_msg(struct mail_reader *r, struct mail_msg *msg)
{
	msg->index = r->nr_msgs;
	msg->first_line = r->msg_line;
	msg->message_id = r->fields[F_MESSAGE_ID].buf;
	msg->subject = r->fields[F_SUBJECT].buf;
	msg->from = r->fields[F_FROM].buf;
	msg->date = r->fields[F_DATE].buf;
	msg->in_reply_to = r->fields[F_IN_REPLY_TO].buf;
	msg->references = r->fields[F_REFERENCES].buf;
}

int mail_next_message(struct mail_reader *r, struct mail_msg *msg)
{
	size_t i;
	int rc;

	if (r->failed || (r->nr_msgs && r->kind != MAIL_MBOX))
		return 0;
	free_bounds(r);
	reset_text(r);
	r->has_ahead = 0;
	r->flowed = r->delsp = 0;
	sbuf_reset(&r->hdr);
	for (i = 0; i < ARRAY_SIZE(r->fields); i++)
		sbuf_reset(&r->fields[i]);
	r->state = S_DONE;
	if (r->kind == MAIL_MBOX) {
		/* what is left of the previous message, up to "From " */
		while ((rc = raw_next(r)) > 0 && !is_from_line(r))
			;
		if (rc <= 0)
			return rc;
	}
	r->nr_msgs++;
	r->msg_line = r->kind == MAIL_MBOX ? r->lineno : 1;
	if (r->kind == MAIL_NONE) {
		fill_msg(r, msg);
		r->state = S_TEXT;
		r->enc = ENC_PLAIN;
		r->charset[0] = '\0';
		r->flowed = r->delsp = 0;
		return 1;
	}
	while ((rc = raw_next(r)) > 0) {
		if (is_from_line(r)) {
			r->unread = 1;
			break;
		}
		rc = header_line(r);
		if (rc < 0)
			return -1;
		if (rc)
			break;
	}
	if (rc < 0 || start_part(r, 1) < 0)
		return broken(r);
	fill_msg(r, msg);
	return 1;
}

/* Give out the line s (n bytes, NUL-terminated) of raw line lineno. */
static void give_line(struct mail_reader *r, struct mail_line *out,
		      const char *s, size_t n, long lineno)
{
	int ascii, depth = 0;
	size_t p = 0, i;

	if (!utf8_valid(s, n, &ascii) || !ascii_compatible(r->charset)) {
		sbuf_reset(&r->line);
		add_utf8(r, &r->line, s, n, r->charset, 1);
		s = r->line.buf;
		n = r->line.len;
	}
	/* quote prefixes: ">", "> ", ">>", "> > ", after optional spaces */
	for (;;) {
		for (i = p; i < n && s[i] == ' '; i++)
			;
		if (i == n || s[i] != '>')
			break;
		depth++;
		p = i + 1;
		if (p < n && s[p] == ' ')
			p++;
	}
	out->text = s + p;
	out->len = n - p;
	out->prefix_len = p;
	out->lineno = lineno;
	out->quote_depth = depth;
	out->cut = 0;
	/* RFC 3676 4.3: "-- " is the signature separator, never flowed */
	out->flowed = r->flowed && out->len && s[n - 1] == ' ' &&
		      !(out->len == 3 && !memcmp(out->text, "-- ", 3));
}

/* A complete decoded line waiting in r->dec: give it out (1) or 0. */
static int take_dec_line(struct mail_reader *r, struct mail_line *out)
{
	char *s = r->dec.buf + r->dec_pos, *nl;
	size_t n;
	long lineno = r->dec_line;

	if (r->dec_pos >= r->dec.len)
		return 0;
	nl = memchr(s, '\n', r->dec.len - r->dec_pos);
	if (!nl)
		return 0;
	n = (size_t)(nl - s);
	*nl = '\0';
	if (n && s[n - 1] == '\r')
		s[--n] = '\0';
	r->dec_pos = (size_t)(nl - r->dec.buf) + 1;
	/* the rest was decoded from the last raw line */
	r->dec_line = r->dec_last;
	give_line(r, out, s, n, lineno);
	return 1;
}

/*
 * Decode raw line s of part r->enc into r->dec.  Returns 0, or -1 after
 * error() when the line being decoded grows past INPUT_LINE_MAX.
 */
static int decode_line(struct mail_reader *r, const char *s, size_t n,
		       long lineno)
{
	size_t i;
	int soft = 0;

	r->dec_last = lineno;
	if (r->dec_pos == r->dec.len) {
		sbuf_reset(&r->dec);
		r->dec_pos = 0;
		r->dec_line = lineno;
	} else if (r->dec_pos) {
		memmove(r->dec.buf, r->dec.buf + r->dec_pos,
			r->dec.len - r->dec_pos);
		sbuf_setlen(&r->dec, r->dec.len - r->dec_pos);
		r->dec_pos = 0;
	}
	/* decoded text is never longer than the encoded line, plus "\n" */
	if (sbuf_grow_capped(&r->dec, n + 1) < 0)
		return error("%s:%ld: decoded line longer than %u bytes",
			     r->in->path, lineno, INPUT_LINE_MAX);
	if (r->enc == ENC_BASE64) {
		b64_decode(&r->dec, s, n, &r->b64_acc, &r->b64_bits);
		return 0;
	}
	/* quoted-printable: transport padding goes (RFC 2045 6.7 (3)) */
	while (n && is_wsp(s[n - 1]))
		n--;
	if (n && s[n - 1] == '=') {
		soft = 1;
		n--;
	}
	for (i = 0; i < n; i++) {
		int hi, lo;

		/* "=XX"; any other "=" stays as it is, as in GMime */
		if (s[i] == '=' && i + 2 < n &&
		    (hi = hexval((unsigned char)s[i + 1])) >= 0 &&
		    (lo = hexval((unsigned char)s[i + 2])) >= 0) {
			sbuf_addch(&r->dec, (char)(hi << 4 | lo));
			i += 2;
		} else {
			sbuf_addch(&r->dec, s[i]);
		}
	}
	if (!soft)
		sbuf_addch(&r->dec, '\n');
	return 0;
}

/* The message ends here: what was decoded is complete. */
static void end_message(struct mail_reader *r, long last_line)
{
	if (r->dec_pos < r->dec.len)
		sbuf_addch(&r->dec, '\n');
	r->end_line = last_line;
	r->state = r->depth ? S_TRUNC : S_DONE;
}

int mail_next_line(struct mail_reader *r, struct mail_line *out)
{
	for (;;) {
		const char *s;
		size_t n;
		long ln;
		int rc, level, close = 0;

		if (take_dec_line(r, out))
			return 1;
		if (r->state == S_DONE)
			return 0;
		if (r->state == S_TRUNC) {
			error("%s:%ld: truncated message (from line %ld): "
			      "expected the multipart boundary '--%s--'",
			      r->in->path, r->end_line, r->msg_line,
			      r->bound[r->depth - 1]);
			return broken(r);
		}
		rc = raw_next(r);
		if (rc < 0)
			return broken(r);
		if (!rc || is_from_line(r)) {
			r->unread = rc > 0;
			end_message(r, rc ? r->lineno - 1 : r->lineno);
			continue;
		}
		s = r->in->sb.buf;
		n = r->in->sb.len;
		ln = r->lineno;
		level = r->depth ? boundary_level(r, &close) : -1;
		if (level >= 0) {
			if (r->dec_pos < r->dec.len)
				sbuf_addch(&r->dec, '\n');
			while (r->depth > level + 1)
				free(r->bound[--r->depth]);
			if (close)
				free(r->bound[--r->depth]);
			r->state = close ? S_SKIP : S_HEADERS;
			sbuf_reset(&r->hdr);
			continue;
		}
		if (r->state == S_HEADERS) {
			rc = header_line(r);
			if (rc < 0 || (rc && start_part(r, 0) < 0))
				return broken(r);
			continue;
		}
		if (r->state != S_TEXT)
			continue;
		/* mboxrd/mboxo: ">From " was "From " */
		if (r->kind == MAIL_MBOX && n && s[0] == '>') {
			size_t k = 0;

			while (k < n && s[k] == '>')
				k++;
			if (n - k >= 5 && !memcmp(s + k, "From ", 5))
				s++, n--;
		}
		if (!n && r->enc != ENC_BASE64) {
			/* the blank line before a boundary or "From " */
			rc = raw_next(r);
			if (rc < 0)
				return broken(r);
			if (rc) {
				r->unread = 1;
				if (is_from_line(r) ||
				    (r->depth && boundary_level(r, &close) >= 0))
					continue;
			}
			s = "";
		}
		if (r->enc == ENC_PLAIN && r->dec_pos == r->dec.len) {
			give_line(r, out, s, n, ln);
			out->cut = n && r->in->cut;
			return 1;
		}
		if (decode_line(r, s, n, ln) < 0)
			return broken(r);
	}
}

/* ---- format=flowed ------------------------------------------------ */

/* Keep l (borrowed from the reader) to be given out next. */
static void hold_ahead(struct mail_reader *r, const struct mail_line *l)
{
	size_t pre = l->prefix_len;

	sbuf_reset(&r->ahead);
	sbuf_add(&r->ahead, l->text - pre, pre + l->len);
	r->ahead_line = *l;
	r->ahead_line.text = r->ahead.buf + pre;
	r->has_ahead = 1;
}

/* RFC 3676 4.4: a flowed line's first space is stuffing. */
static void unstuff(struct mail_line *l)
{
	if (l->quote_depth == 0 && l->len && l->text[0] == ' ') {
		l->text++;
		l->len--;
		l->prefix_len++;
	}
}

int mail_next_unflowed(struct mail_reader *r, struct mail_line *out)
{
	struct mail_line l;
	int rc;

	if (r->has_ahead) {
		r->has_ahead = 0;
		l = r->ahead_line;
	} else {
		rc = mail_next_line(r, &l);
		if (rc <= 0)
			return rc;
		if (!l.flowed && !r->flowed) {
			*out = l;
			return 1;
		}
	}
	/* the pieces that follow are joined to it in joined */
	sbuf_reset(&r->joined);
	sbuf_add(&r->joined, l.text - l.prefix_len, l.prefix_len + l.len);
	l.text = r->joined.buf + l.prefix_len;
	if (r->flowed)
		unstuff(&l);
	*out = l;
	while (out->flowed) {
		struct mail_line next;
		size_t keep;

		rc = mail_next_line(r, &next);
		if (rc < 0)
			return rc;
		if (!rc)
			break;
		if (next.quote_depth != out->quote_depth) {
			hold_ahead(r, &next);
			break;
		}
		unstuff(&next);
		keep = (size_t)(out->text - r->joined.buf);
		if (r->delsp)
			sbuf_setlen(&r->joined, r->joined.len - 1);
		if (sbuf_grow_capped(&r->joined, next.len + 1) < 0) {
			error("%s:%ld: a flowed line longer than %u bytes",
			      r->in->path, out->lineno, INPUT_LINE_MAX);
			return broken(r);
		}
		sbuf_add(&r->joined, next.text, next.len);
		out->text = r->joined.buf + keep;
		out->len = r->joined.len - keep;
		out->flowed = next.flowed;
		out->cut = next.cut;
	}
	return 1;
}

/* ---- detection ---------------------------------------------------- */

static int known_header(const char *s, size_t n)
{
	static const char *const known[] = {
		"received", "from", "to", "cc", "date", "subject",
		"message-id", "return-path", "mime-version", "in-reply-to",
		"references", "content-type", "content-transfer-encoding",
		"reply-to", "sender", "delivered-to", "list-id", "user-agent",
		"dkim-signature", "arc-seal", "authentication-results",
	};
	size_t i;

	if (n > 2 && !strncasecmp(s, "x-", 2))
		return 1;
	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (n == strlen(known[i]) && !strncasecmp(s, known[i], n))
			return 1;
	return 0;
}

int mail_detect(const char *head, size_t len)
{
	const char *p = head, *end = head + len;
	int known = 0, lines = 0;

	if (len > 5 && !memcmp(head, "From ", 5)) {
		const char *nl = memchr(head, '\n', len);

		if (nl && header_name(nl + 1, (size_t)(end - nl - 1)))
			return MAIL_MBOX;
		return MAIL_NONE;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n, name;

		if (!nl)
			break;	/* cut off by the end of head */
		n = (size_t)(nl - p);
		if (n && p[n - 1] == '\r')
			n--;
		if (!n)
			break;
		if (is_wsp(p[0])) {
			if (!lines)
				return MAIL_NONE;
		} else if ((name = header_name(p, n))) {
			known += known_header(p, name);
		} else {
			return MAIL_NONE;
		}
		lines++;
		p = nl + 1;
	}
	return known >= 2 ? MAIL_EML : MAIL_NONE;
}
