/*
 * libFuzzer target for the mail decoder (core/mail.h): every input is
 * read as a file through struct input, with the kind detected and then
 * forced to each of plain text, .eml and mbox, every message and every
 * line taken.  Besides crashes, leaks and undefined behaviour, what the
 * decoder gives is checked (and once more with format=flowed lines
 * joined, mail_next_unflowed()): each line and header valid UTF-8 without
 * NUL or newline, its length right, its line number within the message
 * and never going back, the quote prefix where it says; a broken
 * message does not end an mbox.  Errors are expected and kept quiet.
 *
 *   make fuzz            builds build-fuzz/fuzz-mail (clang)
 *   build-fuzz/fuzz-mail -max_total_time=60 CORPUS_DIR
 */
#include "core/compat.h"
#include "mutate.h"
#include "core/input.h"
#include "mail/mail.h"
#include "core/sbuf.h"
#include <iconv.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * 1 if s is valid UTF-8 with no NUL or newline, as mail.h promises;
 * glibc's iconv judges, not the decoder's own check.
 */
static int clean_utf8(const char *s, size_t n)
{
	static iconv_t cd = (iconv_t)-1;
	static char out[1 << 16];
	char *ip = (char *)s;
	size_t il = n;

	if (memchr(s, '\0', n) || memchr(s, '\n', n))
		return 0;
	if (cd == (iconv_t)-1 && (cd = iconv_open("UTF-32LE", "UTF-8")) ==
	    (iconv_t)-1)
		abort();
	iconv(cd, NULL, NULL, NULL, NULL);
	while (il) {
		char *op = out;
		size_t ol = sizeof(out);

		if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1 &&
		    errno != E2BIG)
			return 0;
	}
	return 1;
}

static void check_str_field(const char *s)
{
	if (!clean_utf8(s, strlen(s)))
		abort();
}

/*
 * unflowed: through mail_next_unflowed(), whose joined lines may take a
 * stuffed blank into the prefix at depth 0
 */
static void read_all(int fd, int kind, int unflowed)
{
	struct input in;
	struct mail_reader r;
	struct mail_msg m;
	struct mail_line l;
	long nr_msgs = 0;
	int rc;

	if (lseek(fd, 0, SEEK_SET) < 0)
		abort();
	if (input_open(&in, "fuzz-input", fd) < 0) {
		input_close(&in);
		return;
	}
	mail_reader_init(&r, &in, kind);
	while ((rc = mail_next_message(&r, &m)) != 0) {
		long last = 0;

		/* each message takes at least one line, but for plain text */
		if (++nr_msgs > in.line + 1)
			abort();
		if (rc < 0)
			continue;
		if (m.index != r.nr_msgs || m.first_line < 1)
			abort();
		check_str_field(m.message_id);
		check_str_field(m.subject);
		check_str_field(m.from);
		check_str_field(m.date);
		check_str_field(m.in_reply_to);
		check_str_field(m.references);
		while ((rc = unflowed ? mail_next_unflowed(&r, &l) :
				       mail_next_line(&r, &l)) > 0) {
			const char *whole = l.text - l.prefix_len;

			if (!clean_utf8(whole, l.len + l.prefix_len) ||
			    l.text[l.len] != '\0' || l.lineno < last ||
			    l.lineno < m.first_line || l.lineno > in.line ||
			    strlen(l.text) != l.len)
				abort();
			if (!unflowed &&
			    ((l.quote_depth > 0) != (l.prefix_len > 0) ||
			     (l.prefix_len && !memchr(whole, '>', l.prefix_len))))
				abort();
			last = l.lineno;
		}
		if ((unflowed ? mail_next_unflowed(&r, &l) :
				mail_next_line(&r, &l)) != 0)
			abort();
	}
	if (mail_next_message(&r, &m) != 0)
		abort();
	mail_reader_release(&r);
	input_close(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct sbuf errors = SBUF_INIT;
	int kind;

	if (fd < 0)
		fd = memfd_create("fuzz-mail", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, 0) ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	err_capture(&errors);
	for (kind = MAIL_DETECT; kind <= MAIL_MBOX; kind++)
		read_all(fd, kind, 0);
	read_all(fd, MAIL_DETECT, 1);
	err_capture(NULL);
	sbuf_release(&errors);
	return 0;
}
