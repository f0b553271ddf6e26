/*
 * A structure-aware mutator for the fuzz targets (libFuzzer's
 * LLVMFuzzerCustomMutator): besides libFuzzer's own byte mutations,
 * the changes that found real bugs by hand, made on purpose:
 *
 *  - a JSON key repeated with another value ("bw" twice: the last one
 *    won, silently);
 *  - a number replaced by a huge, tiny, signed or non-finite one
 *    (1e308, -1e308, 1e-310, nan, inf, 2^64: means, variances and %
 *    changes that overflow);
 *  - a line repeated with one number changed (a metric row twice in a
 *    table, a CSV row twice);
 *  - the input cut at a byte of its last lines (a mail or table cut
 *    mid-row, a last line without its end).
 *
 * Included by each target; one mutation an input, chosen from seed.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed);

static uint32_t mut_rand(uint32_t *s)
{
	/* xorshift32: any fixed sequence from the seed will do */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static const char *const mut_numbers[] = {
	"1e308", "-1e308", "1.7976931348623157e308", "1e-310", "-5",
	"nan", "NaN", "inf", "-inf", "18446744073709551616", "-0", "0",
	"9007199254740993", "4.9e-324",
};

/* Replace data[at, at + n) by rep; the new size, or size if no room. */
static size_t mut_splice(uint8_t *data, size_t size, size_t max_size,
			 size_t at, size_t n, const char *rep, size_t rlen)
{
	if (size - n + rlen > max_size)
		return size;
	memmove(data + at + rlen, data + at + n, size - at - n);
	memcpy(data + at, rep, rlen);
	return size - n + rlen;
}

/* Start of the k-th digit run (mod how many there are), its length. */
static int mut_find_number(const uint8_t *data, size_t size, uint32_t k,
			   size_t *at, size_t *len)
{
	size_t i, nr = 0, pass;

	for (pass = 0; pass < 2; pass++) {
		size_t seen = 0;

		for (i = 0; i < size; i++) {
			size_t j = i;

			if (data[i] < '0' || data[i] > '9' ||
			    (i && data[i - 1] >= '0' && data[i - 1] <= '9') ||
			    (i && data[i - 1] == '.'))
				continue;
			while (j < size && ((data[j] >= '0' && data[j] <= '9') ||
					    data[j] == '.'))
				j++;
			if (pass && seen == k % nr) {
				*at = i;
				*len = j - i;
				return 0;
			}
			seen++;
		}
		nr = seen;
		if (!nr)
			return -1;
	}
	return -1;
}

/* The line containing byte at: [*start, *end) with its '\n' if any. */
static void mut_line_of(const uint8_t *data, size_t size, size_t at,
			size_t *start, size_t *end)
{
	size_t s = at, e = at;

	while (s > 0 && data[s - 1] != '\n')
		s--;
	while (e < size && data[e] != '\n')
		e++;
	*start = s;
	*end = e < size ? e + 1 : e;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
			       unsigned int seed)
{
	uint32_t s = seed | 1, k = mut_rand(&s);
	size_t at, len, ls, le;
	const char *num;
	uint8_t *q;

	if (!size || k % 3 == 0)
		return LLVMFuzzerMutate(data, size, max_size);
	num = mut_numbers[mut_rand(&s) % (sizeof(mut_numbers) /
					 sizeof(*mut_numbers))];
	switch (mut_rand(&s) % 4) {
	case 0:	/* a number made extreme */
		if (mut_find_number(data, size, mut_rand(&s), &at, &len))
			break;
		return mut_splice(data, size, max_size, at, len, num,
				  strlen(num));
	case 1:	/* a line repeated, its number changed: "key": v twice */
		if (mut_find_number(data, size, mut_rand(&s), &at, &len))
			break;
		mut_line_of(data, size, at, &ls, &le);
		if (le == size && (!size || data[size - 1] != '\n'))
			break;
		if (size + (le - ls) > max_size)
			break;
		memmove(data + le + (le - ls), data + le, size - le);
		memcpy(data + le, data + ls, le - ls);
		size += le - ls;
		/* the copy's number: at, moved by the line's length */
		return mut_splice(data, size, max_size, at + (le - ls), len,
				  num, strlen(num));
	case 2:	/* cut at a byte of the last lines */
		q = memchr(data, '\n', size);
		if (!q)
			break;
		at = size - 1 - mut_rand(&s) % (size < 400 ? size : 400);
		return at ? at : size;
	default: /* the last line loses its end */
		if (data[size - 1] == '\n')
			return size - 1;
		break;
	}
	return LLVMFuzzerMutate(data, size, max_size);
}
