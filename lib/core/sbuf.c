/*
 * The growable string buffer (see sbuf.h).
 */
#include "core/compat.h"
#include "core/sbuf.h"

char sbuf_empty[1];

void sbuf_init(struct sbuf *sb, size_t hint)
{
	sb->alloc = sb->len = 0;
	sb->buf = sbuf_empty;
	sb->cap = 0;
	if (hint)
		sbuf_grow(sb, hint);
}

void sbuf_init_capped(struct sbuf *sb, size_t cap)
{
	sbuf_init(sb, 0);
	sb->cap = cap;
}

void sbuf_release(struct sbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sb->alloc = sb->len = 0;
	sb->buf = sbuf_empty;
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *res;

	sbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	sb->alloc = sb->len = 0;
	sb->buf = sbuf_empty;
	return res;
}

void sbuf_reset(struct sbuf *sb)
{
	sbuf_setlen(sb, 0);
}

void sbuf_setlen(struct sbuf *sb, size_t len)
{
	if (len > (sb->alloc ? sb->alloc - 1 : 0))
		BUG("sbuf_setlen() beyond buffer");
	sb->len = len;
	if (sb->buf != sbuf_empty)
		sb->buf[len] = '\0';
}

void sbuf_grow(struct sbuf *sb, size_t extra)
{
	int new_buf = !sb->alloc;

	if (sb->len + extra + 1 < sb->len)
		die(EXIT_ENV, "string too long");
	if (new_buf)
		sb->buf = NULL;
	ALLOC_GROW(sb->buf, sb->len + extra + 1, sb->alloc);
	if (new_buf)
		sb->buf[0] = '\0';
}

void sbuf_addstr(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addpad(struct sbuf *sb, size_t n)
{
	memset(sbuf_room(sb, n), ' ', n);
	sbuf_setlen(sb, sb->len + n);
}

void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int len;

	va_copy(cp, ap);
	len = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0,
			fmt, cp);
	va_end(cp);
	if (len < 0)
		BUG("vsnprintf failed for '%s'", fmt);
	if ((size_t)len >= (sb->alloc ? sb->alloc - sb->len : 0)) {
		sbuf_grow(sb, (size_t)len);
		len = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt,
				ap);
	}
	sb->len += (size_t)len;
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sbuf_trim(struct sbuf *sb)
{
	size_t i = 0;

	sbuf_rtrim(sb);
	while (i < sb->len && (sb->buf[i] == ' ' || sb->buf[i] == '\t'))
		i++;
	if (i) {
		memmove(sb->buf, sb->buf + i, sb->len - i);
		sbuf_setlen(sb, sb->len - i);
	}
}

void sbuf_add_escaped(struct sbuf *sb, const char *s)
{
	const unsigned char *p;
	size_t left = strlen(s), n;

	for (p = (const unsigned char *)s; *p; p += n, left -= n) {
		n = utf8_seq(p, left);
		if (*p == '\n')
			sbuf_addstr(sb, "\\n");
		else if (*p == '\r')
			sbuf_addstr(sb, "\\r");
		else if (*p == '\t')
			sbuf_addstr(sb, "\\t");
		else if (*p < 0x20 || *p == 0x7f || !n)
			sbuf_addf(sb, "\\x%02x", *p);
		else
			sbuf_add(sb, p, n);
		if (!n)
			n = 1;
	}
}

long text_bad_byte(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t left = strlen(s), n;

	for (; *p; p += n, left -= n) {
		n = utf8_seq(p, left);
		if (!n || (*p < 0x20 && *p != '\t') || *p == 0x7f)
			return (long)((const char *)p - s);
	}
	return -1;
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, past U+10FFFF */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Append s with each byte that is not valid UTF-8, and NUL, as U+FFFD. */
void sbuf_add_utf8_repaired(struct sbuf *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, k;

	while (i < n) {
		k = p[i] ? utf8_seq(p + i, n - i) : 0;
		if (k) {
			sbuf_add(out, p + i, k);
			i += k;
		} else {
			sbuf_addstr(out, "\xef\xbf\xbd");	/* U+FFFD */
			i++;
		}
	}
}
