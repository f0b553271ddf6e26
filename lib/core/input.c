/*
 * Buffered, gzip-transparent, hashing reader for input files (input.h).
 */
#include "core/compat.h"
#include "core/input.h"
#include "core/parallel.h"
#include <fcntl.h>
#include <unistd.h>

#define BUF_SIZE (256u << 10)
/* hash in a second thread from this many reads on (1 MiB and more) */
#define HASHER_FROM 4

/*
 * The content hash, computed by a worker thread while the importer
 * parses (SHA-256 is about a seventh of a procfs import's time).  The
 * reads alternate between two buffers; each is queued for hashing when
 * it is made, and a buffer is read into again only when the hashing of
 * the read before the last is done.  The hash is the same as one
 * thread's: the reads are hashed in order.
 */
static void hash_read(void *ctx, void *job)
{
	const struct input_read *r = job;

	sha256_update(ctx, r->buf, r->len);
}

static int fill(struct input *in)
{
	int n;

	if (in->eof)
		return 0;
	if (in->nr_reads == HASHER_FROM)
		in->hasher = worker_start(hash_read, &in->hash);
	if (in->hasher) {
		/* the other buffer, once its hashing is done */
		worker_wait(in->hasher, 1);
		in->cur ^= 1;
		in->buf = in->bufs[in->cur];
	}
	in->nr_reads++;
	n = gzread(in->gz, in->buf, BUF_SIZE);
	if (n < 0) {
		int zerr;
		const char *msg = gzerror(in->gz, &zerr);

		if (zerr == Z_ERRNO)
			msg = strerror(errno);
		return error("%s:%ld: read error: %s", in->path, in->line + 1,
			     msg);
	}
	if (n == 0) {
		int zerr;

		/* gzread returns 0 for a cut-off gzip stream too */
		gzerror(in->gz, &zerr);
		if (zerr == Z_BUF_ERROR)
			return error("%s:%ld: truncated gzip data", in->path,
				     in->line + 1);
		in->eof = 1;
		return 0;
	}
	if (in->hasher) {
		in->reads[in->cur].buf = in->buf;
		in->reads[in->cur].len = (size_t)n;
		worker_queue(in->hasher, &in->reads[in->cur]);
	} else
		sha256_update(&in->hash, in->buf, (size_t)n);
	/* lines are checked for NUL bytes only in a read that has one */
	in->nul = memchr(in->buf, '\0', (size_t)n) != NULL;
	in->nbytes += (uint64_t)n;
	in->pos = 0;
	in->end = (size_t)n;
	return n;
}

int input_open(struct input *in, const char *path, int fd)
{
	unsigned char magic[2];
	int own_fd = -1;

	memset(in, 0, sizeof(*in));
	in->path = path;
	sbuf_init_capped(&in->sb, INPUT_LINE_MAX);
	sha256_init(&in->hash);
	if (fd < 0) {
		if (!strcmp(path, "-")) {
			fd = dup(0);
		} else {
			fd = open(path, O_RDONLY | O_CLOEXEC);
		}
		if (fd < 0)
			return error("%s: cannot open: %s", path,
				     strerror(errno));
		own_fd = fd;
	} else {
		fd = dup(fd);
		if (fd < 0)
			return error("%s: cannot dup: %s", path,
				     strerror(errno));
		own_fd = fd;
	}
	if (pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)
		in->is_gzip = 1;
	in->gz = gzdopen(own_fd, "rb");
	if (!in->gz) {
		close(own_fd);
		return error("%s: cannot open: out of memory", path);
	}
	gzbuffer(in->gz, BUF_SIZE);
	in->bufs[0] = xmalloc(BUF_SIZE);
	in->bufs[1] = xmalloc(BUF_SIZE);
	in->buf = in->bufs[0];
	if (fill(in) < 0) {
		/* a first read that fails (a corrupt gzip header): the
		 * caller does not close what it failed to open */
		input_close(in);
		return -1;
	}
	in->head_len = in->end < sizeof(in->head) - 1 ? in->end
						       : sizeof(in->head) - 1;
	memcpy(in->head, in->buf, in->head_len);
	in->head[in->head_len] = '\0';
	return 0;
}

void input_close(struct input *in)
{
	worker_stop(in->hasher);
	in->hasher = NULL;
	if (in->gz)
		gzclose(in->gz);
	in->gz = NULL;
	free(in->bufs[0]);
	free(in->bufs[1]);
	in->bufs[0] = in->bufs[1] = in->buf = NULL;
	sbuf_release(&in->sb);
}

int input_getline(struct input *in)
{
	int nul = 0;

	sbuf_reset(&in->sb);
	in->cut = 0;
	for (;;) {
		unsigned char *start, *nl;
		size_t n;

		if (in->pos == in->end) {
			int r = fill(in);

			if (r < 0)
				return -1;
			if (r == 0) {
				if (!in->sb.len)
					return 0;
				in->cut = 1;
				break;
			}
		}
		nul |= in->nul;
		start = in->buf + in->pos;
		nl = memchr(start, '\n', in->end - in->pos);
		n = nl ? (size_t)(nl - start) : in->end - in->pos;
		if (sbuf_grow_capped(&in->sb, n) < 0)
			return error("%s:%ld: line longer than %u bytes",
				     in->path, in->line + 1, INPUT_LINE_MAX);
		memcpy(in->sb.buf + in->sb.len, start, n);
		in->sb.len += n;
		in->sb.buf[in->sb.len] = '\0';
		in->pos += n + (nl ? 1 : 0);
		if (nl)
			break;
	}
	in->line++;
	/* text formats only: a NUL would silently cut the line short */
	if (nul && memchr(in->sb.buf, '\0', in->sb.len))
		return error("%s:%ld: NUL byte in a text line (binary data?)",
			     in->path, in->line);
	if (in->sb.len && in->sb.buf[in->sb.len - 1] == '\r')
		sbuf_setlen(&in->sb, in->sb.len - 1);
	return 1;
}

int input_peekline(struct input *in, const char **p, size_t *len)
{
	const unsigned char *start = in->buf + in->pos, *nl;

	if (in->pos >= in->end || in->nul ||
	    !(nl = memchr(start, '\n', in->end - in->pos)))
		return 0;
	*p = (const char *)start;
	*len = (size_t)(nl - start);
	return 1;
}

void input_skipline(struct input *in, size_t len)
{
	in->pos += len + 1;
	in->line++;
}

int input_read_all(struct input *in, struct sbuf *out)
{
	for (;;) {
		size_t n = in->end - in->pos;

		if (n) {
			if (out->len + n > INPUT_FILE_MAX)
				return error("%s: larger than %u bytes",
					     in->path, INPUT_FILE_MAX);
			sbuf_add(out, in->buf + in->pos, n);
			in->pos = in->end;
		}
		int r = fill(in);
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
	}
}

int input_finish(struct input *in, char hex[65], uint64_t *size)
{
	int r;

	in->pos = in->end;
	while ((r = fill(in)) > 0)
		in->pos = in->end;
	if (r < 0)
		return -1;
	worker_stop(in->hasher);
	in->hasher = NULL;
	sha256_final_hex(&in->hash, hex);
	*size = in->nbytes;
	return 0;
}

int input_hash_file(const char *path, char hex[65])
{
	struct input in;
	uint64_t size;
	int ret;

	if (input_open(&in, path, -1) < 0) {
		input_close(&in);
		return -1;
	}
	ret = input_finish(&in, hex, &size);
	input_close(&in);
	return ret;
}
