/*
 * error(), warning(), die() and BUG(): the one place that writes
 * diagnostics to stderr.
 */
#include "core/compat.h"
#include <pthread.h>
#include "core/sbuf.h"

/* one line at a time: an import's writer thread may report too */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct sbuf *capture;
static int quiet_warnings;
/* this thread's diversion (err_divert()), before any capture */
static __thread void (*divert_fn)(void *data, int is_error, const char *msg);
static __thread void *divert_data;

void err_divert(void (*fn)(void *data, int is_error, const char *msg),
		void *data)
{
	divert_fn = fn;
	divert_data = data;
}

void err_discard(void *data, int is_error, const char *msg)
{
	(void)data;
	(void)is_error;
	(void)msg;
}

void err_capture(struct sbuf *sb)
{
	capture = sb;
}

void err_set_quiet_warnings(int quiet)
{
	quiet_warnings = quiet;
}

/*
 * Write one diagnostic line: "perfsift: <prefix><message>".  Control
 * characters in the message (a file name with a newline in it, bytes of
 * a binary file quoted in a message) are written as \n, \r, \t or \xHH,
 * so that one diagnostic is always one line and cannot forge another.
 */
static void emit_line(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void emit_line(const char *prefix, const char *fmt, va_list ap)
{
	struct sbuf msg = SBUF_INIT, out = SBUF_INIT;

	sbuf_vaddf(&msg, fmt, ap);
	if (divert_fn) {
		divert_fn(divert_data, *prefix == 'e', msg.buf);
		sbuf_release(&msg);
		return;
	}
	sbuf_add_escaped(&out, msg.buf);
	pthread_mutex_lock(&lock);
	if (capture) {
		if (capture->len)
			sbuf_addch(capture, '\n');
		sbuf_addstr(capture, out.buf);
	} else {
		fflush(stdout);
		fprintf(stderr, "perfsift: %s%s\n", prefix, out.buf);
	}
	pthread_mutex_unlock(&lock);
	sbuf_release(&msg);
	sbuf_release(&out);
}

static void report(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void report(const char *prefix, const char *fmt, va_list ap)
{
	emit_line(prefix, fmt, ap);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	if (quiet_warnings)
		return;
	va_start(ap, fmt);
	emit_line("warning: ", fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	divert_fn = NULL;	/* the last word is printed */
	va_start(ap, fmt);
	emit_line("error: ", fmt, ap);
	va_end(ap);
	exit(status);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stdout);
	fprintf(stderr, "perfsift: BUG: %s:%d: ", file, line);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
