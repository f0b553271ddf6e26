/*
 * xorshift.h - the generator of the benchmark and simulation programs in
 * tests/ (bench-stats.c, cp-synth.c): xorshift64* (Vigna 2016), small,
 * fast, and the same sequence from the same seed on every machine, which
 * rand() does not promise.
 */
#ifndef PERFSIFT_TESTS_XORSHIFT_H
#define PERFSIFT_TESTS_XORSHIFT_H

#include <stdint.h>

/* The next 64 random bits; *state must not be 0. */
static inline uint64_t xorshift64s(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

#endif /* PERFSIFT_TESTS_XORSHIFT_H */
