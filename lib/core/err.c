/*
 * error(), warning(), die() and BUG(): the one place that writes
 * diagnostics to stderr.
 */
#include "core/compat.h"
#include "core/sbuf.h"

static struct sbuf *capture;
static int quiet_warnings;

void err_capture(struct sbuf *sb)
{
	capture = sb;
}

void err_set_quiet_warnings(int quiet)
{
	quiet_warnings = quiet;
}

static void report(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void report(const char *prefix, const char *fmt, va_list ap)
{
	if (capture) {
		if (capture->len)
			sbuf_addch(capture, '\n');
		sbuf_vaddf(capture, fmt, ap);
		return;
	}
	fflush(stdout);
	fprintf(stderr, "perfsift: %s", prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	fflush(stdout);
	fputs("perfsift: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stdout);
	fputs("perfsift: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
