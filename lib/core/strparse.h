#ifndef STRPARSE_H
#define STRPARSE_H
#include "core/sbuf.h"
/*
 * Cursor helpers for parsing (curl's strparse): each takes a pointer to
 * the cursor, and advances it only on success.  They return 0 on success
 * and -1 on failure without printing anything; the caller says what was
 * expected, with path:line.
 */
#include <stddef.h>

/* Skip spaces and tabs; always succeeds. */
void str_skip_blanks(const char **p);
/* Expect the character c. */
int str_expect(const char **p, char c);
/* Expect the literal s. */
int str_expect_lit(const char **p, const char *s);
/* A strictly numeric double (strtod syntax, no inf/nan, finite). */
int str_double(const char **p, double *out);
/* A signed decimal integer. */
int str_long(const char **p, long *out);
/* Parse a whole string as a finite double, surrounding blanks allowed. */
int str_to_double(const char *s, double *out);
/* Parse a whole string as a decimal long, surrounding blanks allowed. */
int str_to_long(const char *s, long *out);
/* Does s start with / end with prefix? */
int starts_with(const char *s, const char *prefix);
int ends_with(const char *s, const char *suffix);
/*
 * Natural order: runs of digits compare as numbers, so "clat_5%" sorts
 * before "clat_10%" and "m2" before "m10".  Like strcmp's sign.
 */
int str_natcmp(const char *a, const char *b);
/*
 * The key of s under natural order: strcmp() of two keys has the sign of
 * str_natcmp() of their strings, so that thousands of names sort by one
 * byte comparison each.  Each run of digits becomes its length (a digit
 * byte '1'..'8', or '9' and a byte of the length from 9 on) and its
 * digits without leading zeros; anything else is copied.  Appended to
 * out; -1 (out unchanged) for a run of more than 255 digits.
 */
int str_natkey(const char *s, struct sbuf *out);
/*
 * A minus that a mail client or an editor made typographic (U+2212 MINUS
 * SIGN, U+2013 EN DASH) before a digit becomes '-', in place (s only
 * gets shorter): tables print ASCII, text that went through mail may not.
 */
void str_ascii_minus(char *s);
/* Shell-style glob match (fnmatch without flags); NULL pattern matches. */
int glob_match(const char *pattern, const char *s);
/* s as a glob that matches s alone ("a[*]b" for "a*b"); new string. */
char *glob_quote(const char *s);

#endif
