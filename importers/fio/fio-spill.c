/*
 * The fio importer's job records: kept in memory, and past SPILL_MEM in
 * an unlinked temporary file, then read back in order.
 */
#include "core/compat.h"
#include <fcntl.h>
#include <unistd.h>
#include "fio-int.h"

#define SPILL_BUF (64u << 10)

void spill_init(struct spill *s)
{
	memset(s, 0, sizeof(*s));
	sbuf_init(&s->mem, 0);
	s->fd = -1;
}

void spill_release(struct spill *s)
{
	if (s->fd >= 0)
		close(s->fd);
	sbuf_release(&s->mem);
	free(s->buf);
	spill_init(s);
}

/* An unlinked temporary file, or -1. */
static int spill_open(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;
	int fd;

	path = xstrfmt("%s/perfsift-fio-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* Move what is in memory to the file, as much as it takes. */
static void spill_flush(struct spill *s)
{
	size_t done = 0;

	if (s->fd < 0)
		s->fd = spill_open();
	if (s->fd < 0) {
		s->no_file = 1;
		return;
	}
	while (done < s->mem.len) {
		ssize_t n = write(s->fd, s->mem.buf + done, s->mem.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->no_file = 1;	/* a full disk: memory it is */
			break;
		}
		done += (size_t)n;
	}
	s->file_len += done;
	memmove(s->mem.buf, s->mem.buf + done, s->mem.len - done);
	sbuf_setlen(&s->mem, s->mem.len - done);
}

void spill_add(struct spill *s, const void *data, size_t len)
{
	sbuf_add(&s->mem, data, len);
	if (s->mem.len >= SPILL_MEM && !s->no_file)
		spill_flush(s);
}

void spill_rewind(struct spill *s)
{
	s->pos = 0;
	s->buf_len = 0;
}

/* Read the next len bytes (data NULL: skip them).  0, or -1 and errno. */
int spill_read(struct spill *s, void *data, size_t len)
{
	unsigned char *out = data;

	while (len) {
		size_t n;

		if (s->pos < s->file_len) {
			if (s->pos < s->buf_pos ||
			    s->pos >= s->buf_pos + s->buf_len) {
				uint64_t left = s->file_len - s->pos;
				ssize_t got;

				if (!s->buf)
					s->buf = xmalloc(SPILL_BUF);
				s->buf_pos = s->pos;
				s->buf_len = left < SPILL_BUF ? (size_t)left
							      : SPILL_BUF;
				got = pread(s->fd, s->buf, s->buf_len,
					    (off_t)s->pos);
				if (got != (ssize_t)s->buf_len) {
					s->buf_len = 0;
					if (got >= 0)
						errno = EIO;
					return -1;
				}
			}
			n = s->buf_pos + s->buf_len - s->pos;
			if (n > len)
				n = len;
			if (out)
				memcpy(out, s->buf + (s->pos - s->buf_pos), n);
		} else {
			size_t off = s->pos - s->file_len;

			if (off + len > s->mem.len)
				BUG("fio: reading past the job records");
			n = len;
			if (out)
				memcpy(out, s->mem.buf + off, n);
		}
		if (out)
			out += n;
		s->pos += n;
		len -= n;
	}
	return 0;
}
