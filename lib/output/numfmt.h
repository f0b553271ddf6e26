#ifndef NUMFMT_H
#define NUMFMT_H
/*
 * printf's "%.*f" and "%.*g" for doubles, byte for byte, without printf.
 * A comparison prints a dozen numbers a row, and glibc's exact
 * conversion does multi-precision arithmetic for every digit of each.
 * The digits are computed here in 64-bit long double arithmetic, and
 * whenever that could round differently from the exact value (a
 * remainder within the arithmetic's error of a half, a magnitude past
 * 2^53 once scaled, NaN or infinity) the number is handed to snprintf
 * instead: the result is always printf's.
 * tests/unit/t-numfmt.c holds them to snprintf on millions of values.
 */
#include <stddef.h>

/* Room for any of them: DBL_MAX in %+.17f is 327 bytes. */
#define NUMFMT_BUF 336

/* "%.{prec}f" of v (plus: "%+.{prec}f") into buf[NUMFMT_BUF]; returns
 * the length.  prec past 17 goes to snprintf. */
size_t fmt_fixed(char *buf, double v, int prec, int plus);

/* "%.{prec}g" of v into buf[NUMFMT_BUF]; the length. */
size_t fmt_general(char *buf, double v, int prec);

/* "%lld" of v into buf[NUMFMT_BUF]; the length. */
size_t fmt_int(char *buf, long long v);

#endif
