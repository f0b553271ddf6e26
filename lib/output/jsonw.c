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

static void put_string(struct sbuf *sb, const char *s)
{
	static const char hex[] = "0123456789abcdef";

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

/* Comma, newline and indent before an item; then "key": if any. */
static void item(struct jsonw *w, const char *key)
{
	/* ",\n" and the deepest indent: one copy writes all three */
	static const char sep[] = ",\n"
		"                                "
		"                                "
		"                                "
		"                                ";
	struct sbuf *sb = w->out;

	if (w->depth) {
		size_t indent = 2 * (size_t)w->depth;
		int comma = w->has_items[w->depth];

		/* open_container() stops at depth 63: 126 spaces at most */
		sbuf_add(sb, sep + !comma, indent + 1 + (size_t)comma);
		w->has_items[w->depth] = 1;
	}
	if (key) {
		put_string(sb, key);
		sbuf_add(sb, ": ", 2);
	}
}

static void open_container(struct jsonw *w, const char *key, char c)
{
	item(w, key);
	sbuf_addch(w->out, c);
	if (++w->depth >= (int)sizeof(w->has_items))
		BUG("JSON nested too deep");
	w->has_items[w->depth] = 0;
	w->kind[w->depth] = c;
}

void jw_object(struct jsonw *w, const char *key)
{
	open_container(w, key, '{');
}

void jw_array(struct jsonw *w, const char *key)
{
	open_container(w, key, '[');
}

void jw_end(struct jsonw *w)
{
	struct sbuf *sb = w->out;
	int i;

	if (!w->depth)
		BUG("jw_end() without an open object or array");
	if (w->has_items[w->depth]) {
		sbuf_addch(sb, '\n');
		for (i = 0; i < w->depth - 1; i++)
			sbuf_add(sb, "  ", 2);
	}
	sbuf_addch(sb, w->kind[w->depth] == '{' ? '}' : ']');
	w->depth--;
}

void jw_str(struct jsonw *w, const char *key, const char *s)
{
	item(w, key);
	if (s)
		put_string(w->out, s);
	else
		sbuf_add(w->out, "null", 4);
}

void jw_num(struct jsonw *w, const char *key, double v)
{
	char buf[NUMFMT_BUF];

	item(w, key);
	if (!isfinite(v)) {
		sbuf_add(w->out, "null", 4);
		return;
	}
	/* 15 digits: printf's "%.15g", which reads back as the double */
	sbuf_add(w->out, buf, fmt_general(buf, v, 15));
}

void jw_int(struct jsonw *w, const char *key, long long v)
{
	char buf[NUMFMT_BUF];

	item(w, key);
	sbuf_add(w->out, buf, fmt_int(buf, v));
}

void jw_bool(struct jsonw *w, const char *key, int v)
{
	item(w, key);
	sbuf_addstr(w->out, v ? "true" : "false");
}

void jw_null(struct jsonw *w, const char *key)
{
	item(w, key);
	sbuf_add(w->out, "null", 4);
}
