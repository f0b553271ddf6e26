#ifndef LE_H
#define LE_H
/*
 * Little-endian numbers in blobs (series, histograms, run_values): the
 * layout on disk is the same whatever the machine's byte order.
 */
#include <stdint.h>
#include <string.h>

static inline void le_put_double(unsigned char *p, double d)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &d, 8);
#else
	uint64_t u;
	int i;

	memcpy(&u, &d, sizeof(u));
	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(u >> (8 * i));
#endif
}

static inline double le_get_double(const unsigned char *p)
{
	double d;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&d, p, 8);
#else
	uint64_t u = 0;
	int i;

	for (i = 0; i < 8; i++)
		u |= (uint64_t)p[i] << (8 * i);
	memcpy(&d, &u, sizeof(d));
#endif
	return d;
}

static inline uint32_t le_get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline void le_put_u32(unsigned char *p, uint32_t u)
{
	p[0] = (unsigned char)u;
	p[1] = (unsigned char)(u >> 8);
	p[2] = (unsigned char)(u >> 16);
	p[3] = (unsigned char)(u >> 24);
}

#endif
