/*
 * Cursor helpers that advance only on success (see strparse.h).
 */
#include "core/compat.h"
#include "core/strparse.h"
#include "core/sbuf.h"
#include <ctype.h>

void str_skip_blanks(const char **p)
{
	while (**p == ' ' || **p == '\t')
		(*p)++;
}

int str_expect(const char **p, char c)
{
	if (**p != c)
		return -1;
	(*p)++;
	return 0;
}

int str_expect_lit(const char **p, const char *s)
{
	size_t n = strlen(s);

	if (strncmp(*p, s, n))
		return -1;
	*p += n;
	return 0;
}

int str_double(const char **p, double *out)
{
	const char *s = *p;
	char *end;
	double v;

	/* strtod accepts "inf", "nan" and hex; benchmark data never has them */
	if (!(isdigit((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.'))
		return -1;
	if ((*s == '-' || *s == '+') && !(isdigit((unsigned char)s[1]) ||
					  s[1] == '.'))
		return -1;
	{
		/* strtod takes hexadecimal too: "0x10", "-0x1p3" */
		const char *d = *s == '-' || *s == '+' ? s + 1 : s;

		if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
			return -1;
	}
	errno = 0;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -1;
	if (errno == ERANGE && fabs(v) > 1)
		return -1;
	*out = v;
	*p = end;
	return 0;
}

int str_long(const char **p, long *out)
{
	const char *s = *p;
	char *end;
	long v;

	if (!(isdigit((unsigned char)*s) ||
	      ((*s == '-' || *s == '+') && isdigit((unsigned char)s[1]))))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || errno == ERANGE)
		return -1;
	*out = v;
	*p = end;
	return 0;
}

int str_to_double(const char *s, double *out)
{
	const char *p = s;
	double v;

	str_skip_blanks(&p);
	if (str_double(&p, &v))
		return -1;
	str_skip_blanks(&p);
	if (*p)
		return -1;
	*out = v;
	return 0;
}

int str_to_long(const char *s, long *out)
{
	const char *p = s;
	long v;

	str_skip_blanks(&p);
	if (str_long(&p, &v))
		return -1;
	str_skip_blanks(&p);
	if (*p)
		return -1;
	*out = v;
	return 0;
}

int starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !memcmp(s + n - m, suffix, m);
}

/* Does c match the set at p (just after '[')?  *end gets the ']'. */
static int glob_set(const char *p, unsigned char c, const char **end)
{
	int neg = 0, hit = 0;

	if (*p == '!' || *p == '^') {
		neg = 1;
		p++;
	}
	if (*p == ']') {	/* a leading ']' is literal */
		hit |= c == ']';
		p++;
	}
	for (; *p && *p != ']'; p++) {
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hit |= c >= (unsigned char)*p && c <= (unsigned char)p[2];
			p += 2;
		} else {
			hit |= c == (unsigned char)*p;
		}
	}
	if (!*p)
		return -1;	/* no closing ']': '[' is literal */
	*end = p;
	return hit != neg;
}

/*
 * Shell glob with *, ? and [...] (fnmatch(3) without flags, for ASCII
 * metric names), iterative with one backtrack point: linear in practice,
 * and several times faster than glibc's fnmatch, which matters because
 * every metric of a comparison is matched against the direction catalog.
 */
int glob_match(const char *pattern, const char *s)
{
	const char *p = pattern, *star = NULL, *resume = NULL, *end;

	if (!pattern)
		return 1;
	if (!s)
		s = "";
	while (*s) {
		if (*p == '*') {
			star = ++p;
			resume = s;
			continue;
		}
		if (*p == '[') {
			int m = glob_set(p + 1, (unsigned char)*s, &end);

			if (m == 1) {
				p = end + 1;
				s++;
				continue;
			}
			if (m < 0 && *s == '[') {
				p++;
				s++;
				continue;
			}
		} else if (*p == '\\' && p[1]) {
			if (p[1] == *s) {
				p += 2;
				s++;
				continue;
			}
		} else if (*p && (*p == '?' || *p == *s)) {
			p++;
			s++;
			continue;
		}
		if (!star)
			return 0;
		p = star;
		s = ++resume;
	}
	while (*p == '*')
		p++;
	return !*p;
}

/*
 * Metric names in natural order: digit runs compare as numbers, so
 * clat_5% comes before clat_10%, and m2 before m10.
 */
int str_natcmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			const char *ea = a, *eb = b;
			size_t la, lb;

			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			for (ea = a; isdigit((unsigned char)*ea); ea++)
				;
			for (eb = b; isdigit((unsigned char)*eb); eb++)
				;
			la = (size_t)(ea - a);
			lb = (size_t)(eb - b);
			if (la != lb)
				return la < lb ? -1 : 1;
			if (memcmp(a, b, la))
				return memcmp(a, b, la);
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int str_natkey(const char *s, struct sbuf *out)
{
	/* a key is at most twice its name: one length byte a digit */
	char *p = sbuf_room(out, 2 * strlen(s)), *start = p;

	while (*s) {
		const char *e;
		size_t len;

		if (!isdigit((unsigned char)*s)) {
			*p++ = *s++;
			continue;
		}
		/* as str_natcmp(): leading zeros go, a last 0 stays */
		while (*s == '0' && isdigit((unsigned char)s[1]))
			s++;
		for (e = s; isdigit((unsigned char)*e); e++)
			;
		len = (size_t)(e - s);
		if (len > 255) {
			*start = '\0';
			return -1;
		}
		/* a digit byte: it compares with other bytes as a digit does */
		if (len < 9) {
			*p++ = (char)('0' + (int)len);
		} else {
			*p++ = '9';
			*p++ = (char)len;
		}
		memcpy(p, s, len);
		p += len;
		s = e;
	}
	sbuf_setlen(out, out->len + (size_t)(p - start));
	return 0;
}

void str_ascii_minus(char *s)
{
	/* both start with 0xe2: most lines have none, and stay as they are */
	char *r = strchr(s, '\xe2'), *w = r;

	if (!r)
		return;
	while (*r) {
		if (*r == '\xe2' &&
		    (!strncmp(r, "\xe2\x88\x92", 3) ||
		     !strncmp(r, "\xe2\x80\x93", 3)) &&
		    isdigit((unsigned char)r[3])) {
			*w++ = '-';
			r += 3;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

char *glob_quote(const char *s)
{
	struct sbuf sb = SBUF_INIT;

	for (; *s; s++) {
		if (*s == '*' || *s == '?' || *s == '[')
			sbuf_addf(&sb, "[%c]", *s);
		else
			sbuf_addch(&sb, *s);
	}
	return sbuf_detach(&sb, NULL);
}
