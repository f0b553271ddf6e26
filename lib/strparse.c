/*
 * Cursor helpers that advance only on success (see strparse.h).
 */
#include "compat.h"
#include "strparse.h"
#include <ctype.h>
#include <fnmatch.h>

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
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -1;
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

int glob_match(const char *pattern, const char *s)
{
	if (!pattern)
		return 1;
	return fnmatch(pattern, s ? s : "", 0) == 0;
}
