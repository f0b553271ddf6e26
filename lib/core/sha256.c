/*
 * SHA-256 as specified in FIPS 180-4, section 6.2.  Written from the
 * standard; checked against the NIST example vectors in t-lib.  On x86
 * CPUs with the SHA extensions the blocks go through those instructions
 * (ten times faster: hashing every input must not cost more than
 * parsing it); t-lib checks both paths against each other.
 */
#include "core/compat.h"
#include "core/sha256.h"
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1
#endif

static const uint32_t k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress_c(uint32_t h[8], const unsigned char *p, size_t n);

#ifdef HAVE_SHA_NI
/*
 * n blocks with the SHA-NI instructions.  The state lives in two
 * registers in the order the instructions want (ABEF, CDGH); the message
 * schedule in four registers of four words each, W[4g..4g+3] computed
 * from the four before it: msg1 gives W[t-16] + s0(W[t-15]), the
 * alignr adds W[t-7], msg2 adds s1(W[t-2]).
 */
__attribute__((target("sha,sse4.1")))
static void compress_ni(uint32_t h[8], const unsigned char *p, size_t n)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL,
					     0x0405060700010203LL);
	__m128i st0, st1, tmp, w[4], msg, save0, save1;
	int g;

	tmp = _mm_loadu_si128((const __m128i *)&h[0]);		/* DCBA */
	st1 = _mm_loadu_si128((const __m128i *)&h[4]);		/* HGFE */
	tmp = _mm_shuffle_epi32(tmp, 0xB1);			/* CDAB */
	st1 = _mm_shuffle_epi32(st1, 0x1B);			/* EFGH */
	st0 = _mm_alignr_epi8(tmp, st1, 8);			/* ABEF */
	st1 = _mm_blend_epi16(st1, tmp, 0xF0);			/* CDGH */
	for (; n; n--, p += 64) {
		save0 = st0;
		save1 = st1;
		for (g = 0; g < 16; g++) {
			__m128i *wg = &w[g & 3];

			if (g < 4) {
				*wg = _mm_shuffle_epi8(_mm_loadu_si128(
					(const __m128i *)(p + 16 * g)), bswap);
			} else {
				tmp = _mm_sha256msg1_epu32(*wg, w[(g + 1) & 3]);
				tmp = _mm_add_epi32(tmp, _mm_alignr_epi8(
					w[(g + 3) & 3], w[(g + 2) & 3], 4));
				*wg = _mm_sha256msg2_epu32(tmp, w[(g + 3) & 3]);
			}
			msg = _mm_add_epi32(*wg, _mm_loadu_si128(
				(const __m128i *)&k[4 * g]));
			st1 = _mm_sha256rnds2_epu32(st1, st0, msg);
			msg = _mm_shuffle_epi32(msg, 0x0E);
			st0 = _mm_sha256rnds2_epu32(st0, st1, msg);
		}
		st0 = _mm_add_epi32(st0, save0);
		st1 = _mm_add_epi32(st1, save1);
	}
	tmp = _mm_shuffle_epi32(st0, 0x1B);			/* FEBA */
	st1 = _mm_shuffle_epi32(st1, 0xB1);			/* DCHG */
	st0 = _mm_blend_epi16(tmp, st1, 0xF0);			/* DCBA */
	st1 = _mm_alignr_epi8(st1, tmp, 8);			/* HGFE */
	_mm_storeu_si128((__m128i *)&h[0], st0);
	_mm_storeu_si128((__m128i *)&h[4], st1);
}
#endif

#ifdef HAVE_SHA_NI
/* Does the CPU have the SHA extensions (and SSE4.1)?  By cpuid: clang 14
 * does not know "sha" in __builtin_cpu_supports(). */
static int cpu_has_sha(void)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSE4_1))
		return 0;
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
		return 0;
	return !!(b & (1u << 29));	/* CPUID.(7,0):EBX.SHA */
}
#endif

/* The block function in use: chosen once, by what the CPU can do. */
static void (*compress_fn)(uint32_t h[8], const unsigned char *p, size_t n);

static void compress(uint32_t h[8], const unsigned char *p, size_t n)
{
	/* atomic: two threads may hash at once (the import pipeline) and
	 * both choose, the same function */
	void (*fn)(uint32_t h[8], const unsigned char *p, size_t n) =
		__atomic_load_n(&compress_fn, __ATOMIC_RELAXED);

	if (!fn) {
		fn = compress_c;
#ifdef HAVE_SHA_NI
		if (cpu_has_sha())
			fn = compress_ni;
#endif
		__atomic_store_n(&compress_fn, fn, __ATOMIC_RELAXED);
	}
	fn(h, p, n);
}

int sha256_use_portable(int portable)
{
	__atomic_store_n(&compress_fn, portable ? compress_c : NULL,
			 __ATOMIC_RELAXED);
#ifdef HAVE_SHA_NI
	return cpu_has_sha();
#else
	return 0;
#endif
}

static void compress_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^
			      (w[i - 15] >> 3);
		uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^
			      (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) +
		     ((e & f) ^ (~e & g)) + k[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) +
		     ((a & b) ^ (a & c) ^ (b & c));
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void compress_c(uint32_t h[8], const unsigned char *p, size_t n)
{
	for (; n; n--, p += 64)
		compress_block(h, p);
}

void sha256_init(struct sha256 *c)
{
	static const uint32_t iv[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(c->h, iv, sizeof(iv));
	c->nbytes = 0;
	c->fill = 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->nbytes += len;
	if (c->fill) {
		size_t n = 64 - c->fill;

		if (n > len)
			n = len;
		memcpy(c->block + c->fill, p, n);
		c->fill += n;
		p += n;
		len -= n;
		if (c->fill < 64)
			return;
		compress(c->h, c->block, 1);
		c->fill = 0;
	}
	if (len >= 64) {
		compress(c->h, p, len / 64);
		p += len / 64 * 64;
		len %= 64;
	}
	memcpy(c->block, p, len);
	c->fill = len;
}

void sha256_final_hex(struct sha256 *c, char hex[65])
{
	uint64_t bits = c->nbytes * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (c->fill < 56 ? 56 : 120) - c->fill;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, pad, padlen + 8);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", c->h[i]);
}
