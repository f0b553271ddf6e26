/*
 * t-series.c - the layouts of a stored series chunk (lib/store/series.c):
 * series_pack() then series_unpack() gives back every double bit for bit,
 * whichever layout was chosen; the packed layout is chosen when t or the
 * values are integers, and is the size its description says; a blob that
 * is cut, overlong, of another n or of an unknown codec is refused, and
 * no byte string makes series_unpack() read outside its blob (run under
 * ASan by make asan).
 */
#include "store/series.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "test-lib.h"
#include "../xorshift.h"

static int same_bits(double a, double b)
{
	return !memcmp(&a, &b, sizeof(a));
}

/* pack, unpack, compare bit for bit; returns the codec chosen */
static int round_trip(const double *t, const double *v, size_t n,
		      size_t *len_out)
{
	unsigned char buf[SERIES_PACK_MAX(SERIES_CHUNK)];
	double tv[2 * SERIES_CHUNK + 2], tv2[2 * SERIES_CHUNK + 2];
	int codec = -1;
	size_t len, i;

	for (i = 0; i < n; i++) {
		tv[2 * i] = t[i];
		tv[2 * i + 1] = v[i];
	}
	len = series_pack(tv, n, buf, &codec);

	check(len <= SERIES_PACK_MAX(n));
	check(len <= 1 + n * 16);
	check(n <= series_max_points(codec, len));
	if (!check_int(0, series_unpack(codec, buf, len, n, tv2)))
		return codec;
	for (i = 0; i < n; i++)
		if (!same_bits(t[i], tv2[2 * i]) ||
		    !same_bits(v[i], tv2[2 * i + 1]))
			break;
	if (!check_int(n, i))
		test_msg("point %zu of %zu: (%.17g, %.17g) came back as "
			 "(%.17g, %.17g)", i, n, t[i], v[i], tv2[2 * i],
			 tv2[2 * i + 1]);
	/* one byte less, one more, one point more or less: refused */
	if (len)
		check_int(-1, series_unpack(codec, buf, len - 1, n, tv2));
	buf[len] = 0;
	check_int(-1, series_unpack(codec, buf, len + 1, n, tv2));
	if (n < SERIES_CHUNK)
		check_int(-1, series_unpack(codec, buf, len, n + 1, tv2));
	if (n)
		check_int(-1, series_unpack(codec, buf, len, n - 1, tv2));
	if (len_out)
		*len_out = len;
	return codec;
}

TEST(monitor)
{
	double t[SERIES_CHUNK], v[SERIES_CHUNK];
	size_t i, len;

	/* a vmstat counter every second: 1 byte of t, 1-2 of value */
	for (i = 0; i < SERIES_CHUNK; i++) {
		t[i] = 1796000000 + (double)i;
		v[i] = 500000 + 37 * (double)i;
	}
	check_int(SERIES_PACKED, round_trip(t, v, SERIES_CHUNK, &len));
	/* flags, t0 (5 bytes) and v0 (3), then 1 + 1 a point */
	check_int(1 + 5 + 3 + (SERIES_CHUNK - 1) * 2, len);
}

TEST(layouts)
{
	double t[4] = { 0.5, 1.5, 2.5, 3.5 }, v[4] = { 1, 2, 3, 4 };
	size_t len;

	/* fractional t, integral values: t raw, values packed */
	check_int(SERIES_PACKED, round_trip(t, v, 4, &len));
	check_int(1 + 4 * 8 + 4, len);
	/* neither: the plain pairs */
	v[2] = 0.25;
	check_int(SERIES_RAW, round_trip(t, v, 4, &len));
	check_int(64, len);
	/* one point; none (no flags byte: the plain layout is shorter) */
	check_int(SERIES_PACKED, round_trip((double[]){ 7 }, (double[]){ 0 },
					    1, NULL));
	check_int(SERIES_RAW, round_trip(NULL, NULL, 0, &len));
	check_int(0, len);
}

TEST(edges)
{
	/* integers at the limit, and what is not one: -0, NaN, infinities,
	 * 2^53 + 2, 1e300, the smallest denormal */
	double two53 = 9007199254740992.0;
	double odd[] = { -0.0, NAN, INFINITY, -INFINITY, two53 + 2, 1e300,
			 4.9e-324, 0.1 };
	double t[3], v[3];
	size_t k, len;

	/* at the limit, a step apart: packed */
	t[0] = two53;
	t[1] = two53 - 1;
	t[2] = two53;
	v[0] = -two53;
	v[1] = -two53 + 1;
	v[2] = -two53;
	check_int(SERIES_PACKED, round_trip(t, v, 3, &len));
	check_int(1 + 8 + 8 + 2 + 2, len);
	/* from one limit to the other: the varints (up to 9 bytes) make it
	 * longer than the plain pairs, which are kept */
	t[1] = -two53;
	v[1] = two53;
	check_int(SERIES_RAW, round_trip(t, v, 3, &len));
	check_int(48, len);
	/* one odd value makes its stream 8 bytes a point, not the other */
	for (k = 0; k < sizeof(odd) / sizeof(odd[0]); k++) {
		double t1[3] = { 1, odd[k], 3 }, v1[3] = { 1, odd[k], 3 };
		double ti[3] = { 1, 2, 3 }, vi[3] = { 4, 5, 6 };

		check_int(SERIES_RAW, round_trip(t1, v1, 3, NULL));
		check_int(SERIES_PACKED, round_trip(ti, v1, 3, NULL));
		check_int(SERIES_PACKED, round_trip(t1, vi, 3, NULL));
	}
}

TEST(random)
{
	double t[SERIES_CHUNK], v[SERIES_CHUNK];
	uint64_t seed = 42;
	int round, packed = 0;

	for (round = 0; round < 2000; round++) {
		size_t n = xorshift64s(&seed) % (SERIES_CHUNK + 1), i;
		int kind = (int)(xorshift64s(&seed) % 4);

		for (i = 0; i < n; i++) {
			uint64_t r = xorshift64s(&seed);

			switch (kind) {
			case 0:	/* steady monitor, jittered */
				t[i] = 1e9 + (double)i * 10 + (double)(r % 3);
				v[i] = (double)(int64_t)(r >> 40) - 8e6;
				break;
			case 1:	/* integers anywhere in range */
				t[i] = (double)((int64_t)(r >> 10) -
						((int64_t)1 << 53));
				v[i] = (double)((int64_t)r >> 11);
				break;
			case 2:	/* any bits at all */
				memcpy(&t[i], &r, 8);
				r = xorshift64s(&seed);
				memcpy(&v[i], &r, 8);
				break;
			default:	/* fio-log times in s, values ints */
				t[i] = (double)i * 0.001;
				v[i] = (double)(r % 1000);
			}
		}
		packed += round_trip(t, v, n, NULL) == SERIES_PACKED;
	}
	check(packed > 1000);
}

TEST(garbage)
{
	unsigned char buf[64];
	double tv[128];
	uint64_t seed = 7;
	int i, ok = 0;

	/* unknown codecs, flags, cut varints: refused */
	check_int(-1, series_unpack(2, "\x01\x00\x00", 3, 1, tv));
	check_int(-1, series_unpack(SERIES_PACKED, "", 0, 0, tv));
	check_int(-1, series_unpack(SERIES_PACKED, "\x00", 1, 0, tv));
	check_int(-1, series_unpack(SERIES_PACKED, "\x07", 1, 0, tv));
	check_int(-1, series_unpack(SERIES_PACKED, "\x03\x80", 2, 1, tv));
	check_int(-1, series_unpack(SERIES_PACKED,
				    "\x03\xff\xff\xff\xff\xff\xff\xff\xff\xff"
				    "\xff\x01\x00", 13, 1, tv));
	check_int(0, series_unpack(SERIES_PACKED, "\x03\x02\x03", 3, 1, tv));
	check_double_eq(1, tv[0]);
	check_double_eq(-2, tv[1]);
	/* random bytes: whatever they say, nothing is read past the blob */
	for (i = 0; i < 100000; i++) {
		size_t len = xorshift64s(&seed) % sizeof(buf), k;
		size_t n = xorshift64s(&seed) % 40;

		for (k = 0; k < len; k++)
			buf[k] = (unsigned char)xorshift64s(&seed);
		if (len)
			buf[0] &= 3;
		if (n <= series_max_points(SERIES_PACKED, len))
			ok += !series_unpack(SERIES_PACKED, buf, len, n, tv);
	}
	check(ok > 0);
}

int main(void)
{
	test_monitor();
	test_layouts();
	test_edges();
	test_random();
	test_garbage();
	return test_done();
}
