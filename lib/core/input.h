#ifndef INPUT_H
#define INPUT_H
/*
 * struct input: one input file read as a stream of bytes or lines, with
 * gzip undone transparently (zlib reads plain files as they are), the
 * SHA-256 and size of the content computed as it is read, and a cap on
 * line length so that binary garbage cannot eat memory.
 *
 * Importers read through input_getline() or input_read_all(); the import
 * driver calls input_finish() to hash whatever the importer left unread.
 * Past the first MiB the hash is computed in a second thread
 * (PERFSIFT_THREADS=1: in the caller's).  An importer that reads in->gz
 * itself (fio's) does so from input_open() on and hashes what it reads
 * into in->hash: it never mixes its reads with these.
 */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>
#include "core/parallel.h"
#include "core/sbuf.h"
#include "core/sha256.h"

#define INPUT_LINE_MAX (16u << 20)	/* longest line accepted */
#define INPUT_FILE_MAX (256u << 20)	/* largest input_read_all() */

struct input {
	const char *path;	/* borrowed: the name used in messages */
	gzFile gz;		/* owned */
	long line;		/* 1-based number of the last line read */
	struct sbuf sb;		/* the last line, without its newline */
	unsigned char *buf;	/* the read buffer: bufs[cur] */
	size_t pos, end;
	uint64_t nbytes;	/* content bytes read so far */
	/*
	 * Complete after input_finish() only.  The hasher's thread writes
	 * it at every 64 bytes, the reader the fields around it at every
	 * line: each on cache lines of its own (core/parallel.h).
	 */
	_Alignas(PARALLEL_ALIGN) struct sha256 hash;
	/* owned; reads alternate between them */
	_Alignas(PARALLEL_ALIGN) unsigned char *bufs[2];
	int cur;
	long nr_reads;
	struct worker *hasher;	/* hashing in a second thread, or NULL */
	struct input_read {
		const unsigned char *buf;
		size_t len;
	} reads[2];		/* the hasher's jobs */
	int nul;		/* the last read holds a NUL byte */
	int cut;		/* the last line read ended at the end of
				 * the file, without its newline */
	int eof;
	int is_gzip;		/* the file was gzip-compressed */
	/* the first bytes of the content, for detection */
	char head[4096];
	size_t head_len;
};

/*
 * Open path ("-" is standard input; fd >= 0 reads that descriptor and
 * path is only its name).  Fills in->head.  Returns 0 or error().
 */
int input_open(struct input *in, const char *path, int fd);
void input_close(struct input *in);

/*
 * Read the next line into in->sb (without "\n" or "\r\n").  Returns 1 for
 * a line, 0 at end of file, -1 after printing "path:line: ..." for a line
 * over INPUT_LINE_MAX or a read error (truncated gzip, I/O error).
 */
int input_getline(struct input *in);

/*
 * The next line where it lies in the read buffer, for a parser that can
 * take it without a copy: 1 with *p and *len (without the newline; not
 * NUL-terminated; a '\r' before the newline kept) when the line is
 * wholly in the buffer and the buffer holds no NUL byte, else 0.
 * Nothing is consumed: input_skipline(in, len) takes the line (and
 * counts it), or input_getline() reads it as usual.
 */
int input_peekline(struct input *in, const char **p, size_t *len);
void input_skipline(struct input *in, size_t len);

/*
 * Read everything that is left into out (capped at INPUT_FILE_MAX);
 * in->line is not advanced.  Returns 0 or -1 after error().
 */
int input_read_all(struct input *in, struct sbuf *out);

/* Read and hash the rest; give the content hash and size. 0 or -1. */
int input_finish(struct input *in, char hex[65], uint64_t *size);

/* Hash a whole file without parsing it (the re-import check). */
int input_hash_file(const char *path, char hex[65]);

#endif
