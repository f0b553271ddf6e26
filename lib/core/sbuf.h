#ifndef SBUF_H
#define SBUF_H
/*
 * struct sbuf: the one growable string (git's strbuf).  buf is never NULL
 * and always NUL-terminated; len excludes the NUL.  A buffer filled from
 * an input file gets a cap (curl's dynbuf "toobig"): growing past it
 * fails instead of eating the machine's memory.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct sbuf {
	size_t alloc, len;
	char *buf;		/* owned unless alloc == 0 (then sbuf_empty) */
	size_t cap;		/* 0 = no cap; else max len in bytes */
};
extern char sbuf_empty[];
#define SBUF_INIT { 0, 0, sbuf_empty, 0 }

void sbuf_init(struct sbuf *sb, size_t hint);
/* A buffer that refuses to grow past cap bytes (see sbuf_grow_capped). */
void sbuf_init_capped(struct sbuf *sb, size_t cap);
void sbuf_release(struct sbuf *sb);
/* Returns the buffer (caller frees) and resets sb; len may be NULL. */
char *sbuf_detach(struct sbuf *sb, size_t *len);
void sbuf_reset(struct sbuf *sb);
void sbuf_setlen(struct sbuf *sb, size_t len);

/* These grow without limit checks (die on OOM); use for output. */
void sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_addstr(struct sbuf *sb, const char *s);
/*
 * Append s with its control characters written as \n, \r, \t or \xHH,
 * and each byte that is not part of valid UTF-8 as \xHH: one line of
 * valid UTF-8 whatever s holds (a file name with a newline, the bytes
 * of a binary file quoted in a message).
 */
void sbuf_add_escaped(struct sbuf *sb, const char *s);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
size_t utf8_seq(const unsigned char *s, size_t n);
/*
 * Offset of the first byte of s that text does not hold (a control
 * character other than tab, or a byte that is not valid UTF-8), or -1
 * when s is text: a message then says "binary data" rather than quote it.
 */
long text_bad_byte(const char *s);
/* Append s with each byte that is not valid UTF-8, and NUL, as U+FFFD. */
void sbuf_add_utf8_repaired(struct sbuf *out, const char *s, size_t n);
/* Append n spaces (one growth, one memset). */
void sbuf_addpad(struct sbuf *sb, size_t n);

/* Inline: these run once per byte or field on the hot paths. */
static inline void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	if (sb->len + len + 1 > sb->alloc)
		sbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

/*
 * Room for n more bytes: where to write them.  The writer then says how
 * many it wrote with sbuf_setlen(sb, sb->len + written).  For writers
 * that know a bound on their output (a number, an indented key) and
 * would otherwise make several calls with a growth check each.
 */
static inline char *sbuf_room(struct sbuf *sb, size_t n)
{
	if (sb->len + n + 1 > sb->alloc)
		sbuf_grow(sb, n);
	return sb->buf + sb->len;
}

static inline void sbuf_addch(struct sbuf *sb, int c)
{
	if (sb->len + 2 > sb->alloc)
		sbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

/*
 * Grow for input: returns -1 (no error printed) if len+extra > cap.
 * Inline, and sbuf_grow() called only when the room is short: once per
 * input line.
 */
static inline int sbuf_grow_capped(struct sbuf *sb, size_t extra)
{
	if (sb->cap && sb->len + extra > sb->cap)
		return -1;
	if (sb->len + extra + 1 > sb->alloc)
		sbuf_grow(sb, extra);
	return 0;
}

/* Drop trailing blanks (space, tab, CR, LF); inline: once per input line. */
static inline void sbuf_rtrim(struct sbuf *sb)
{
	size_t n = sb->len;

	while (n && (sb->buf[n - 1] == ' ' || sb->buf[n - 1] == '\t' ||
		     sb->buf[n - 1] == '\r' || sb->buf[n - 1] == '\n'))
		n--;
	if (n == sb->len)
		return;
	sb->len = n;
	if (sb->alloc)
		sb->buf[n] = '\0';
}

void sbuf_trim(struct sbuf *sb);

#endif
