/*
 * t-numfmt.c - lib/output/numfmt.c against snprintf: "%.*f" (with and
 * without '+') and "%.*g" of a few hundred thousand doubles, byte for byte.  The
 * values are the kinds a comparison prints (means, sds, percentages,
 * p-values: seeded random magnitudes from 1e-12 to 1e18, both signs) and
 * the hard ones: exact halves (0.125, 2.5), values next to them and to
 * decimal halves at every scale, round
 * numbers, the 9.9999 that rounds into a new digit, powers of ten and
 * their neighbours, denormals, zeros of both signs, NaN and infinities.
 */
#include "output/numfmt.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "test-lib.h"
#include "../xorshift.h"

static long failures;

static void one(double v)
{
	char want[NUMFMT_BUF], got[NUMFMT_BUF];
	int p;

	for (p = 0; p <= 6; p++) {
		snprintf(want, sizeof(want), "%.*f", p, v);
		fmt_fixed(got, v, p, 0);
		if (strcmp(want, got) && failures++ < 10)
			check_str(want, got);
		snprintf(want, sizeof(want), "%+.*f", p, v);
		fmt_fixed(got, v, p, 1);
		if (strcmp(want, got) && failures++ < 10)
			check_str(want, got);
	}
	for (p = 1; p <= 17; p += (p < 8 ? 1 : 7)) {
		snprintf(want, sizeof(want), "%.*g", p, v);
		fmt_general(got, v, p);
		if (strcmp(want, got) && failures++ < 10)
			check_str(want, got);
	}
}

TEST(special)
{
	static const double v[] = {
		0.0, -0.0, 0.125, -0.125, 2.5, 3.5, 0.5, 1.5, 0.05, 0.005,
		1e-4, 9.9999, 99999.95, 999999.5, 9999995, 0.00001234,
		1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 123456789012345678.0,
		DBL_MIN, DBL_MIN / 4, DBL_MAX, DBL_EPSILON, 1.0 / 3, 2.0 / 3,
		-1e-300, 5e-324, 0.1, 0.2, 0.3, 100, 1e6, 1e-5, 12.345,
	};
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		one(v[i]);
		one(nextafter(v[i], INFINITY));
		one(nextafter(v[i], -INFINITY));
	}
	one(NAN);
	one(INFINITY);
	one(-INFINITY);
	check_int(0, failures);
}

TEST(halves)
{
	int k, j;

	/* k / 2^j: exact ties at every precision up to j digits */
	for (j = 1; j <= 12; j++)
		for (k = -5000; k <= 5000; k += 7)
			one(ldexp(k, -j));
	/* decimal steps: 0.001 .. 99.999 */
	for (k = 0; k < 100000; k += 3)
		one(k / 1000.0);
	check_int(0, failures);
}

TEST(random)
{
	uint64_t s = 20261201;
	long i;

	for (i = 0; i < 100000; i++) {
		double mag = pow(10, (double)(xorshift64s(&s) % 31) - 12);
		double u = (double)(xorshift64s(&s) >> 11) * 0x1p-53;
		double v = mag * u * ((xorshift64s(&s) & 1) ? -1 : 1);

		one(v);
	}
	/* raw bit patterns: any double */
	for (i = 0; i < 30000; i++) {
		uint64_t b = xorshift64s(&s);
		double v;

		memcpy(&v, &b, sizeof(v));
		one(v);
	}
	check_int(0, failures);
}

/*
 * Values within a few units of the last place of a decimal half at
 * every scale, where a product rounded in double cannot tell which way
 * the half goes and the exact path must decide.
 */
TEST(near_halves)
{
	uint64_t s = 20261202;
	int p, i, u;

	for (p = 0; p <= 8; p++)
		for (i = 0; i < 1000; i++) {
			int bits = 1 + (int)(xorshift64s(&s) % 52);
			double k = (double)(xorshift64s(&s) >> (64 - bits));
			double v = (k + 0.5) / pow(10, p);

			for (u = 0; u < 3; u++) {
				one(v);
				one(-v);
				v = nextafter(v, (i & 1) ? INFINITY : -INFINITY);
			}
		}
	check_int(0, failures);
}

/*
 * Integers as "%.0f" and "%.15g": every value below 10^5 and a stride
 * through 10^8 (one word of eight digits, lib/output/numfmt.c
 * digits8()), then steps of about 1.6 % through 10^16 (two words).
 */
TEST(digit_words)
{
	char want[NUMFMT_BUF], got[NUMFMT_BUF];
	uint64_t x;
	long bad = 0;

	for (x = 0; x < 100000000; x += x < 100000 ? 1 : 997) {
		snprintf(want, sizeof(want), "%.0f", (double)x);
		fmt_fixed(got, (double)x, 0, 0);
		if (strcmp(want, got) && bad++ < 10)
			check_str(want, got);
	}
	for (x = 99999999; x < 10000000000000000ULL; x += x / 61 + 7) {
		snprintf(want, sizeof(want), "%.0f", (double)x);
		fmt_fixed(got, (double)x, 0, 0);
		if (strcmp(want, got) && bad++ < 10)
			check_str(want, got);
		snprintf(want, sizeof(want), "%.15g", (double)x);
		fmt_general(got, (double)x, 15);
		if (strcmp(want, got) && bad++ < 10)
			check_str(want, got);
	}
	check_int(0, bad);
}

TEST(integers)
{
	static const long long v[] = {
		0, 1, -1, 9, 10, -10, 99, 100, 123456789, -987654321,
		LLONG_MAX, LLONG_MIN, LLONG_MIN + 1,
	};
	char want[NUMFMT_BUF], got[NUMFMT_BUF];
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(want, sizeof(want), "%lld", v[i]);
		check_int((long long)strlen(want), (long long)fmt_int(got, v[i]));
		check_str(want, got);
	}
}

int main(void)
{
	test_special();
	test_halves();
	test_random();
	test_near_halves();
	test_digit_words();
	test_integers();
	return test_done();
}
