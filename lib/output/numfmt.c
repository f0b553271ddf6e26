/*
 * printf's %f and %g without printf (numfmt.h).
 */
#include "core/compat.h"
#include "output/numfmt.h"

typedef unsigned __int128 u128;

/* 10^k and 5^k (5^27 < 2^63); constant tables: the writers format on two
 * threads */
static const uint64_t pow10_u[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

static const uint64_t pow5_u[28] = {
	1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL,
	390625ULL, 1953125ULL, 9765625ULL, 48828125ULL, 244140625ULL,
	1220703125ULL, 6103515625ULL, 30517578125ULL, 152587890625ULL,
	762939453125ULL, 3814697265625ULL, 19073486328125ULL,
	95367431640625ULL, 476837158203125ULL, 2384185791015625ULL,
	11920928955078125ULL, 59604644775390625ULL, 298023223876953125ULL,
	1490116119384765625ULL, 7450580596923828125ULL,
};

/* 10^k, exact in double for k <= 22 (5^22 < 2^53) */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

#define LIMIT_M ((uint64_t)1 << 53)	/* the m printf's digits may hold */

/* q rounded up when the remainder rem of the divisor d is above a half,
 * or is a half and q odd (printf's ties go to the even digit) */
static int round_half_even(u128 q, u128 rem, u128 d, uint64_t *m)
{
	if (q >= LIMIT_M)
		return -1;
	*m = (uint64_t)q + (2 * rem > d || (2 * rem == d && (q & 1)));
	return 0;
}

/*
 * a * 10^k rounded to the nearest integer (ties to even, as printf) into
 * *m: 0, or -1 when the caller must ask snprintf (|k| > 27, or a result
 * of 2^53 or more).  a >= 0 and finite.
 *
 * First in double: one product or quotient of exact operands, correctly
 * rounded, is within 2^-53 x of the exact value, and x - r is exact
 * (r <= x < 2r, or r = 0), so it decides unless the remainder is that
 * close to a half.  Then exactly, in integers: a = M 2^E with M < 2^53,
 * so a 10^k is M 5^k 2^(E+k), below 2^116 before the shift, and
 * a / 10^j is M 2^(E-j) / 5^j.
 */
static int scaled_round_exact(double a, int k, uint64_t *m);

static inline int scaled_round(double a, int k, uint64_t *m)
{
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
	return scaled_round_exact(a, k, m);
}

/* scaled_round() where the double could not decide: in integers */
static int __attribute__((noinline)) scaled_round_exact(double a, int k,
							uint64_t *m)
{
	uint64_t bits, M;
	int E, s;
	u128 d;

	memcpy(&bits, &a, sizeof(bits));
	M = bits & ((LIMIT_M >> 1) - 1);
	E = (int)(bits >> 52 & 0x7ff);
	if (E) {
		M |= LIMIT_M >> 1;
		E -= 1075;
	} else {
		E = -1074;	/* subnormal, or 0 */
	}
	if (k >= 0) {
		u128 p;

		if (k > 27)
			return -1;
		p = (u128)M * pow5_u[k];
		s = E + k;
		if (s >= 0) {
			if (s >= 53 || p >= (u128)LIMIT_M >> s)
				return -1;
			*m = (uint64_t)(p << s);
			return 0;
		}
		if (s < -116) {		/* p < 2^116: below a half */
			*m = 0;
			return 0;
		}
		d = (u128)1 << -s;
		return round_half_even(p >> -s, p & (d - 1), d, m);
	}
	if (k < -27)
		return -1;
	/* a / 10^j = M 2^(E-j) / 5^j */
	s = E + k;
	d = pow5_u[-k];
	if (s >= 0) {
		u128 n;

		if (s > 127 - 53)
			return -1;
		n = (u128)M << s;
		return round_half_even(n / d, n % d, d, m);
	}
	if (-s > 127 - 63) {		/* the divisor above 2^64 > 2 M */
		*m = 0;
		return 0;
	}
	d <<= -s;
	return round_half_even(M / d, M % d, d, m);
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

/*
 * The decimal digits of m, at least min (<= 24) of them (zeros in front),
 * into d, which must hold 24 bytes past them (the copies below are of a
 * constant size).
 */
static int digits_of(uint64_t m, int min, char *d)
{
	int n = min < 1 ? 1 : min;
	char t[16 + 24], *e;

	/* counted from min up: %g's m has exactly min digits */
	while (n < 20 && m >= pow10_u[n])
		n++;
	if (n <= 16) {
		/*
		 * Below 10^16: sixteen digits, zeros in front, as one or two
		 * words of eight in 32 bits, and the last n of them copied
		 * (a constant 24 bytes: t holds them)
		 */
		digits8((uint32_t)(m % 100000000), t + 8);
		if (n > 8)
			digits8((uint32_t)(m / 100000000), t);
		memcpy(d, t + 16 - n, 24);
		return n;
	}
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

/*
 * n less the '0's that end d[0..n), keeping the first digit: eight at a
 * time while they are there (a word compared with "00000000", and the
 * zero bytes at its top counted), then one by one.  %.15g of 7499.508
 * strips eight of "749950800000000", and the JSON writer's numbers are
 * mostly such.
 */
static int without_zeros(const char *d, int n)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n > 8) {
		uint64_t w;

		memcpy(&w, d + n - 8, 8);
		w ^= 0x3030303030303030ULL;
		if (w)	/* d[n - 1] is the top byte */
			return n - (__builtin_clzll(w) >> 3);
		n -= 8;
	}
#endif
	while (n > 1 && d[n - 1] == '0')
		n--;
	return n;
}

size_t fmt_fixed(char *buf, double v, int prec, int plus)
{
	char d[24 + 16];	/* the digits, and room to copy 16 past them */
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
	/*
	 * Copies of a constant size, which the compiler makes a few moves
	 * rather than calls: n <= 20, prec <= 17, and buf holds NUMFMT_BUF
	 */
	memcpy(buf + pos, d, 24);
	pos += n - prec;
	if (prec) {
		buf[pos++] = '.';
		memcpy(buf + pos, d + n - prec, 16);
		if (prec > 16)
			buf[pos + 16] = d[n - 1];
		pos += prec;
	}
	buf[pos] = '\0';
	return (size_t)pos;
}

/*
 * floor(log10 |v|) or one off it, for a finite v != 0: the decimal
 * exponent from the binary one.  The binary one read from the bits, as
 * frexp() would give it (a subnormal, rare, goes through frexp()).
 */
static int decimal_exponent(double v)
{
	uint64_t bits;
	int e;

	memcpy(&bits, &v, sizeof(bits));
	e = (int)(bits >> 52 & 0x7ff);
	if (e)
		e -= 1022;
	else
		frexp(v, &e);
	/*
	 * floor((e - 1) log10 2) without floor(): 78913 / 2^18 is log10 2
	 * to 1e-6, which gives the same integer for every exponent a
	 * double has (-1074 to 1024)
	 */
	e = (e - 1) * 78913;
	return e >= 0 ? e / 262144 : -((-e + 262143) / 262144);
}

/*
 * a > 0 rounded to prec significant digits: *m with
 * 10^(prec-1) <= *m < 10^prec, and *e its decimal exponent (corrected
 * from decimal_exponent()'s estimate).  0, or -1 when only snprintf
 * can tell.
 */
static int general_digits(double a, int prec, int *e, uint64_t *m)
{
	uint64_t top = pow10_u[prec];

	*e = decimal_exponent(a);
	if (scaled_round(a, prec - 1 - *e, m))
		return -1;
	if (*m < top / 10) {		/* the estimate was one too high */
		--*e;
		if (scaled_round(a, prec - 1 - *e, m))
			return -1;
	}
	if (*m >= top) {		/* one too low, or rounding carried */
		++*e;
		if (scaled_round(a, prec - 1 - *e, m))
			return -1;
	}
	return *m < top / 10 || *m >= top ? -1 : 0;
}

/*
 * The n digits d (trailing zeros dropped) of exponent e in %g's layout
 * at buf + pos; returns the end.  The pieces are copied with constant
 * sizes, which the compiler makes a few moves rather than calls: n <=
 * 17 digits, -e - 1 <= 4 zeros, buf holds NUMFMT_BUF, d 24 past n.
 */
static int general_layout(char *buf, int pos, const char *d, int n, int e,
			  int prec)
{
	if (e < -4 || e >= prec) {
		buf[pos++] = d[0];
		if (n > 1) {
			buf[pos++] = '.';
			memcpy(buf + pos, d + 1, 24);
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
		memcpy(buf + pos, "0.0000", 6);
		pos += 2 + (-e - 1);
		memcpy(buf + pos, d, 24);
		pos += n;
	} else if (n <= e + 1) {
		/* an integer: its digits, then zeros up to the point */
		memcpy(buf + pos, d, 24);
		memset(buf + pos + n, '0', 24);
		pos += e + 1;
	} else {
		memcpy(buf + pos, d, 24);
		pos += e + 1;
		buf[pos++] = '.';
		memcpy(buf + pos, d + e + 1, 24);
		pos += n - e - 1;
	}
	return pos;
}

size_t fmt_general(char *buf, double v, int prec)
{
	char d[24 + 24];	/* the digits, and room to copy 24 past them */
	uint64_t m;
	int e, n, pos = 0;

	if (!isfinite(v) || prec < 1 || prec > 17 || v == 0 ||
	    general_digits(fabs(v), prec, &e, &m))
		return (size_t)snprintf(buf, NUMFMT_BUF, "%.*g", prec, v);
	/* exactly prec digits */
	n = digits_of(m, prec, d);
	n = without_zeros(d, n);	/* %g drops trailing zeros */
	if (signbit(v))
		buf[pos++] = '-';
	pos = general_layout(buf, pos, d, n, e, prec);
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
