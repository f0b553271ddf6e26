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

/*
 * a * 10^k rounded to the nearest integer into *m, if that is certainly
 * what exact arithmetic gives: 0, or -1 when the caller must ask
 * snprintf (a tie or near one, or a value too large to hold exactly).
 */
static int scaled_round(long double a, int k, uint64_t *m)
{
	long double x, r, frac;

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

/* The decimal digits of m, at least min of them (zeros in front). */
static int digits_of(uint64_t m, int min, char *d)
{
	char tmp[24], *p = tmp + sizeof(tmp);
	int n;

	/* two digits a division */
	while (m >= 100) {
		unsigned k = (unsigned)(m % 100);

		m /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * k, 2);
	}
	if (m >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * m, 2);
	} else {
		*--p = (char)('0' + m);
	}
	while (tmp + sizeof(tmp) - p < min)
		*--p = '0';
	n = (int)(tmp + sizeof(tmp) - p);
	memcpy(d, p, (size_t)n);
	return n;
}

size_t fmt_fixed(char *buf, double v, int prec, int plus)
{
	char d[24];
	uint64_t m;
	int n, pos = 0, i;

	if (!isfinite(v) || prec < 0 || prec > 17 ||
	    scaled_round(fabsl((long double)v), prec, &m))
		return (size_t)snprintf(buf, NUMFMT_BUF, plus ? "%+.*f" : "%.*f",
					prec, v);
	if (signbit(v))
		buf[pos++] = '-';
	else if (plus)
		buf[pos++] = '+';
	n = digits_of(m, prec + 1, d);
	for (i = 0; i < n - prec; i++)
		buf[pos++] = d[i];
	if (prec) {
		buf[pos++] = '.';
		for (; i < n; i++)
			buf[pos++] = d[i];
	}
	buf[pos] = '\0';
	return (size_t)pos;
}

size_t fmt_general(char *buf, double v, int prec)
{
	long double a = fabsl((long double)v);
	char d[24];
	uint64_t m, top;
	int e, n, pos = 0, i;

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
	e = (int)floor((e - 1) * 0.30102999566398120);
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
	n = digits_of(m, prec, d);
	while (n > 1 && d[n - 1] == '0')	/* %g drops trailing zeros */
		n--;
	if (signbit(v))
		buf[pos++] = '-';
	if (e < -4 || e >= prec) {
		buf[pos++] = d[0];
		if (n > 1) {
			buf[pos++] = '.';
			for (i = 1; i < n; i++)
				buf[pos++] = d[i];
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
		for (i = -1; i > e; i--)
			buf[pos++] = '0';
		for (i = 0; i < n; i++)
			buf[pos++] = d[i];
	} else {
		for (i = 0; i <= e; i++)
			buf[pos++] = i < n ? d[i] : '0';
		if (n > e + 1) {
			buf[pos++] = '.';
			for (i = e + 1; i < n; i++)
				buf[pos++] = d[i];
		}
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
