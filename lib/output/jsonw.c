/*
 * Streaming JSON writer (see jsonw.h).
 */
#include "core/compat.h"
#include "output/jsonw.h"
#include "output/numfmt.h"

void jw_init(struct jsonw *w, struct sbuf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

/* Bytes a JSON string cannot hold as they are: '"', '\\', controls. */
static const unsigned char needs_escape[256] = {
	[0 ... 0x1f] = 1, ['"'] = 1, ['\\'] = 1,
};

/*
 * The bytes written at sbuf_room() up to end are the buffer's: within
 * the room asked for, so without sbuf_setlen()'s check and call (an
 * item a few bytes, 800,000 of them in a document of 20,000 rows).
 */
static inline void wrote(struct sbuf *sb, char *end)
{
	sb->len = (size_t)(end - sb->buf);
	*end = '\0';
}

/* Bytes of s before the first that must be escaped (or its end). */
static size_t plain_len(const char *s)
{
	const char *p = s;

	while (!needs_escape[(unsigned char)*p])
		p++;
	return (size_t)(p - s);
}

static void put_string(struct sbuf *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = plain_len(s);
	char *p;

	if (!s[n]) {
		/* the usual string: nothing to escape, one copy */
		p = sbuf_room(sb, n + 2);
		*p++ = '"';
		memcpy(p, s, n);
		p += n;
		*p++ = '"';
		wrote(sb, p);
		return;
	}
	sbuf_addch(sb, '"');
	while (*s) {
		const char *run = s;

		/* copy runs of plain characters at once */
		while (!needs_escape[(unsigned char)*s])
			s++;
		if (s > run)
			sbuf_add(sb, run, (size_t)(s - run));
		if (!*s)
			break;
		switch (*s) {
		case '"': sbuf_add(sb, "\\\"", 2); break;
		case '\\': sbuf_add(sb, "\\\\", 2); break;
		case '\n': sbuf_add(sb, "\\n", 2); break;
		case '\t': sbuf_add(sb, "\\t", 2); break;
		case '\r': sbuf_add(sb, "\\r", 2); break;
		default: {
			unsigned char c = (unsigned char)*s;
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4],
				      hex[c & 15] };

			sbuf_add(sb, u, 6);
		}
		}
		s++;
	}
	sbuf_addch(sb, '"');
}

/*
 * Comma, newline and indent before an item; then "key": if any.  Written
 * in place: an item is a few bytes, and a document of 20,000 rows has
 * 800,000 of them.  The separator is copied 64 bytes at a time (a
 * constant size: a few moves, not a call), the key, of a length known,
 * as it is.
 */
static void item(struct jsonw *w, const char *key, size_t klen)
{
	/* ",\n" and the deepest indent: one copy writes all three */
	static const char sep[] = ",\n"
		"                                "
		"                                "
		"                                "
		"                                ";
	struct sbuf *sb = w->out;
	size_t indent = 2 * (size_t)w->depth;
	char *p = sbuf_room(sb, indent + 2 + klen + 4 + 64);

	/* a sanitizer's build checks the key's promise (jsonw.h) */
	if (SANITIZED && key && (plain_len(key) != klen || key[klen]))
		BUG("JSON key '%s' needs escaping or its length is wrong", key);
	if (w->depth) {
		int comma = w->has_items[w->depth];
		size_t n = indent + 1 + (size_t)comma;

		/* open_container() stops at depth 63: 126 spaces at most */
		if (n <= 64)
			memcpy(p, sep + !comma, 64);
		else
			memcpy(p, sep + !comma, n);
		p += n;
		w->has_items[w->depth] = 1;
	}
	if (!key) {
		wrote(sb, p);
		return;
	}
	*p = '"';
	memcpy(p + 1, key, klen);
	memcpy(p + 1 + klen, "\": ", 3);
	wrote(sb, p + 1 + klen + 3);
}

static void open_container(struct jsonw *w, const char *key, size_t klen,
			   char c)
{
	item(w, key, klen);
	sbuf_addch(w->out, c);
	if (++w->depth >= (int)sizeof(w->has_items))
		BUG("JSON nested too deep");
	w->has_items[w->depth] = 0;
	w->kind[w->depth] = c;
}

void jw_object_n(struct jsonw *w, const char *key, size_t klen)
{
	open_container(w, key, klen, '{');
}

void jw_array_n(struct jsonw *w, const char *key, size_t klen)
{
	open_container(w, key, klen, '[');
}

void jw_end(struct jsonw *w)
{
	struct sbuf *sb = w->out;
	size_t indent = 2 * (size_t)(w->depth - 1);
	char *p;

	if (!w->depth)
		BUG("jw_end() without an open object or array");
	p = sbuf_room(sb, indent + 2);
	if (w->has_items[w->depth]) {
		*p++ = '\n';
		memset(p, ' ', indent);
		p += indent;
	}
	*p++ = w->kind[w->depth] == '{' ? '}' : ']';
	wrote(sb, p);
	w->depth--;
}

void jw_str_n(struct jsonw *w, const char *key, size_t klen, const char *s)
{
	item(w, key, klen);
	if (s)
		put_string(w->out, s);
	else
		sbuf_add(w->out, "null", 4);
}

void jw_num_n(struct jsonw *w, const char *key, size_t klen, double v)
{
	char *p;

	item(w, key, klen);
	if (!isfinite(v)) {
		sbuf_add(w->out, "null", 4);
		return;
	}
	/* 15 digits: printf's "%.15g", which reads back as the double */
	p = sbuf_room(w->out, NUMFMT_BUF);
	wrote(w->out, p + fmt_general(p, v, 15));
}

void jw_int_n(struct jsonw *w, const char *key, size_t klen, long long v)
{
	char buf[NUMFMT_BUF];

	item(w, key, klen);
	sbuf_add(w->out, buf, fmt_int(buf, v));
}

void jw_bool_n(struct jsonw *w, const char *key, size_t klen, int v)
{
	item(w, key, klen);
	sbuf_addstr(w->out, v ? "true" : "false");
}

void jw_null_n(struct jsonw *w, const char *key, size_t klen)
{
	item(w, key, klen);
	sbuf_add(w->out, "null", 4);
}
