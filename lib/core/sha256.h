#ifndef SHA256_H
#define SHA256_H
/*
 * SHA-256 (FIPS 180-4), used to recognise a file imported before.
 */
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t nbytes;
	unsigned char block[64];
	size_t fill;
};

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
/*
 * Use the portable block function (1) or the fastest the CPU has (0);
 * for tests.  Returns 1 if the CPU has a faster one.
 */
int sha256_use_portable(int portable);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void sha256_final_hex(struct sha256 *c, char hex[65]);

#endif
