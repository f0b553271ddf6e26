/*
 * printf's %f and %g without printf (numfmt.h).
 */
#include "core/compat.h"
#include "output/numfmt.h"

/* 10^k, exact in long double for k <= 27 (5^27 < 2^63); a constant
 * table: the writers format on two threads */
static long double pow10l_exact(int k)
{
	static const long double p[28] = {
		1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L,
		1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L,
		1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
		1e26L, 1e27L,
	};

	return p[k];
}

/* 10^k, exact in double for k <= 22 (5^22 < 2^53) */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * a * 10^k rounded to the nearest integer into *m, if that is certainly
 * what exact arithmetic gives: 0, or -1 when the caller must ask
 * snprintf (a tie or near one, or a value too large to hold exactly).
 * a >= 0.
 */
static int scaled_round(double a, int k, uint64_t *m)
{
	long double x, r, frac;

	/*
	 * In double first: one product or quotient of exact operands,
	 * correctly rounded, is within 2^-53 x of the exact value.  x - r
	 * is exact (r <= x < 2r, or r = 0), so only a remainder within
	 * that of a half is in doubt.  In double this is SSE arithmetic;
	 * the long double path below needs the x87 unit and two changes
	 * of its rounding mode for one conversion.
	 */
	if (k >= -22 && k <= 22) {
		double xd = k >= 0 ? a * pow10_exact[k] : a / pow10_exact[-k];

		if (xd < 0x1p53) {
			double rd = (double)(int64_t)xd, fd = xd - rd;

			if (fabs(fd - 0.5) > xd * 0x1p-52) {
				*m = (uint64_t)rd + (fd > 0.5);
				return 0;
			}
		}
	}
	if (k >= 0) {
		if (k > 27)
			return -1;
		x = a * pow10l_exact(k);	/* one rounding: 2^-64 relative */
	} else {
		if (-k > 27)
			return -1;
		x = a / pow10l_exact(-k);
	}
	if (!(x < 9007199254740992.0L))		/* 2^53 */
		return -1;
	/* x >= 0 and below 2^53: truncation is floorl(), without a call */
	r = (long double)(uint64_t)x;
	frac = x - r;
	/*
	 * x is within 2^-63 relative of the exact product: below 2^53 that
	 * is under 2^-10 absolute.  A remainder that close to a half could
	 * round either way (and an exact tie goes to the even digit).
	 */
	if (fabsl(frac - 0.5L) < 0x1p-9L)
		return -1;
	*m = (uint64_t)r + (frac > 0.5L);
	return 0;
}

/* "00" to "99" */
static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/* x < 10^8 as exactly 8 digits: 32-bit divisions, two digits each */
static void digits8(uint32_t x, char *d)
{
	uint32_t hi = x / 10000, lo = x % 10000;

	memcpy(d, pairs + 2 * (hi / 100), 2);
	memcpy(d + 2, pairs + 2 * (hi % 100), 2);
	memcpy(d + 4, pairs + 2 * (lo / 100), 2);
	memcpy(d + 6, pairs + 2 * (lo % 100), 2);
}

/* The decimal digits of m, at least min (<= 24) of them (zeros in front). */
static int digits_of(uint64_t m, int min, char *d)
{
	static const uint64_t p10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	int n = min < 1 ? 1 : min;
	char *e;

	/* counted from min up: %g's m has exactly min digits */
	while (n < 20 && m >= p10[n])
		n++;
	/* from the right: eight digits at a time in 32 bits, then pairs */
	e = d + n;
	while (m >= 100000000) {
		e -= 8;
		digits8((uint32_t)(m % 100000000), e);
		m /= 100000000;
	}
	while (m >= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (m % 100), 2);
		m /= 100;
	}
	if (m >= 10) {
		e -= 2;
		memcpy(e, pairs + 2 * m, 2);
	} else {
		*--e = (char)('0' + m);
	}
	while (e > d)
		*--e = '0';
	return n;
}

size_t fmt_fixed(char *buf, double v, int prec, int plus)
{
	char d[24];
	uint64_t m;
	int n, pos = 0;

	if (!isfinite(v) || prec < 0 || prec > 17 ||
	    scaled_round(fabs(v), prec, &m))
		return (size_t)snprintf(buf, NUMFMT_BUF, plus ? "%+.*f" : "%.*f",
					prec, v);
	if (signbit(v))
		buf[pos++] = '-';
	else if (plus)
		buf[pos++] = '+';
	n = digits_of(m, prec + 1, d);
	memcpy(buf + pos, d, (size_t)(n - prec));
	pos += n - prec;
	if (prec) {
		buf[pos++] = '.';
		memcpy(buf + pos, d + n - prec, (size_t)prec);
		pos += prec;
	}
	buf[pos] = '\0';
	return (size_t)pos;
}

size_t fmt_general(char *buf, double v, int prec)
{
	double a = fabs(v);
	char d[24];
	uint64_t m, top;
	int e, n, pos = 0;

	if (!isfinite(v) || prec < 1 || prec > 17)
		return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	if (a == 0)
		return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	/*
	 * The decimal exponent from the binary one, then corrected.  The
	 * binary one read from the bits, as frexp() would give it (a
	 * subnormal, rare, goes through frexp()).
	 */
	{
		uint64_t bits;

		memcpy(&bits, &v, sizeof(bits));
		e = (int)(bits >> 52 & 0x7ff);
		if (e)
			e -= 1022;
		else
			frexp(v, &e);
	}
	/*
	 * floor((e - 1) log10 2) without floor(): 78913 / 2^18 is log10 2
	 * to 1e-6, which gives the same integer for every exponent a
	 * double has (-1074 to 1024)
	 */
	e = (e - 1) * 78913;
	e = e >= 0 ? e / 262144 : -((-e + 262143) / 262144);
	top = (uint64_t)pow10l_exact(prec);
	if (scaled_round(a, prec - 1 - e, &m))
		return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	if (m < top / 10) {		/* the estimate was one too high */
		e--;
		if (scaled_round(a, prec - 1 - e, &m))
			return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	}
	if (m >= top) {			/* one too low, or rounding carried */
		e++;
		if (scaled_round(a, prec - 1 - e, &m))
			return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	}
	if (m < top / 10 || m >= top)
		return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	/* top / 10 <= m < top: exactly prec digits */
	n = digits_of(m, prec, d);
	while (n > 1 && d[n - 1] == '0')	/* %g drops trailing zeros */
		n--;
	if (signbit(v))
		buf[pos++] = '-';
	if (e < -4 || e >= prec) {
		buf[pos++] = d[0];
		if (n > 1) {
			buf[pos++] = '.';
			memcpy(buf + pos, d + 1, (size_t)n - 1);
			pos += n - 1;
		}
		buf[pos++] = 'e';
		buf[pos++] = e < 0 ? '-' : '+';
		if (e < 0)
			e = -e;
		if (e >= 100)
			buf[pos++] = (char)('0' + e / 100);
		buf[pos++] = (char)('0' + e / 10 % 10);
		buf[pos++] = (char)('0' + e % 10);
	} else if (e < 0) {
		buf[pos++] = '0';
		buf[pos++] = '.';
		memset(buf + pos, '0', (size_t)(-e - 1));
		pos += -e - 1;
		memcpy(buf + pos, d, (size_t)n);
		pos += n;
	} else if (n <= e + 1) {
		/* an integer: its digits, then zeros up to the point */
		memcpy(buf + pos, d, (size_t)n);
		pos += n;
		memset(buf + pos, '0', (size_t)(e + 1 - n));
		pos += e + 1 - n;
	} else {
		memcpy(buf + pos, d, (size_t)e + 1);
		pos += e + 1;
		buf[pos++] = '.';
		memcpy(buf + pos, d + e + 1, (size_t)(n - e - 1));
		pos += n - e - 1;
	}
	buf[pos] = '\0';
	return (size_t)pos;
}

size_t fmt_int(char *buf, long long v)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v
				     : (unsigned long long)v;
	size_t n;

	/* digits from the right: printf's "%lld" without its parsing */
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	n = (size_t)(tmp + sizeof(tmp) - p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	return n;
}
