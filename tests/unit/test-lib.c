/*
 * The unit-test harness (test-lib.h): the pass and fail counters, the
 * failure reports and the summary line.  Linked into every tests/unit
 * binary.
 */
#include "core/compat.h"
#include "test-lib.h"

static int passed, failed;

/*
 * Count a failure and report it: "file:line: " and the message.  Reports
 * go to stdout and the library's errors to stderr: each one is flushed so
 * that the two stay in order.
 */
static void fail_v(const char *file, int line, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void fail_v(const char *file, int line, const char *fmt, va_list ap)
{
	failed++;
	printf("%s:%d: ", file, line);
	vprintf(fmt, ap);
	putchar('\n');
	fflush(stdout);
}

/* Count one check; the message describes a failure.  Returns ok. */
static int count(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int count(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return 1;
	}
	va_start(ap, fmt);
	fail_v(file, line, fmt, ap);
	va_end(ap);
	return 0;
}

int check_bool_loc(const char *file, int line, const char *what, int ok)
{
	return count(ok, file, line, "check failed: %s", what);
}

int check_int_loc(const char *file, int line, const char *what,
		  long long expect, long long got)
{
	return count(expect == got, file, line, "expected %lld, got %lld (%s)",
		     expect, got, what);
}

int check_str_loc(const char *file, int line, const char *what,
		  const char *expect, const char *got)
{
	int ok = expect && got ? !strcmp(expect, got) : expect == got;

	return count(ok, file, line, "expected '%.200s', got '%.200s' (%s)",
		     expect ? expect : "(null)", got ? got : "(null)", what);
}

static int near(double expect, double got, double rel, double zero_abs)
{
	if (isnan(expect))
		return isnan(got);
	if (isinf(expect))
		return got == expect;
	if (expect == 0)
		return fabs(got) <= zero_abs;
	return fabs(got - expect) <= rel * fabs(expect);
}

int check_double_loc(const char *file, int line, const char *what,
		     double expect, double got, double rel, double zero_abs)
{
	int ok = near(expect, got, rel, zero_abs);
	char err[32] = "";

	if (!ok && expect == 0)
		snprintf(err, sizeof(err), ", abs err %.3g", fabs(got));
	else if (!ok && isfinite(expect))
		snprintf(err, sizeof(err), ", rel err %.3g",
			 fabs(got - expect) / fabs(expect));
	return count(ok, file, line, "expected %.17g, got %.17g (%s%s)",
		     expect, got, what, err);
}

void test_fail_loc(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(file, line, fmt, ap);
	va_end(ap);
}

void test_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("#   ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

int test_done(void)
{
	printf("%d passed, %d failed\n", passed, failed);
	if (fflush(stdout) || ferror(stdout))
		return 1;
	return failed ? 1 : 0;
}
