#ifndef TEST_LIB_H
#define TEST_LIB_H
/*
 * The one harness of the unit tests in tests/unit (git's
 * t/unit-tests/test-lib.h, cut down): checks that count passes and
 * failures, each failure reported as "file:line: expected X, got Y
 * (expression)" on stdout, and test_done() for the summary line that
 * tests/run-all.sh adds up.
 *
 *	TEST(sbuf_init)
 *	{
 *		struct sbuf sb = SBUF_INIT;
 *
 *		check(sb.buf != NULL);
 *		check_int(0, sb.len);
 *		check_str("", sb.buf);
 *	}
 *
 *	int main(void)
 *	{
 *		test_sbuf_init();
 *		return test_done();
 *	}
 *
 * Every check returns 1 if it passed and 0 if it failed, so that the
 * caller can say more with test_msg().  Helpers that check on behalf of
 * their caller pass the caller's location to the check_*_loc() functions.
 */

/* One group of checks, a function main() calls: static void test_NAME(void) */
#define TEST(name) static void test_##name(void)

/* A condition that must hold. */
#define check(cond) check_bool_loc(__FILE__, __LINE__, #cond, !!(cond))
/* Integers of any type, compared as long long. */
#define check_int(expect, got) \
	check_int_loc(__FILE__, __LINE__, #got, (long long)(expect), \
		      (long long)(got))
/* Strings; two NULLs are equal, one NULL is not. */
#define check_str(expect, got) \
	check_str_loc(__FILE__, __LINE__, #got, (expect), (got))

/*
 * Doubles: |got - expect| <= rel * |expect|.  A NaN expects a NaN and an
 * infinity itself.  Where expect is 0, relative error means nothing and
 * |got| <= TEST_ZERO_ABS is asked instead: 0 (exactly 0) unless the test
 * file defines another floor before including this header.
 */
#ifndef TEST_ZERO_ABS
#define TEST_ZERO_ABS 0.0
#endif
#define check_double_near(expect, got, rel) \
	check_double_loc(__FILE__, __LINE__, #got, (expect), (got), (rel), \
			 TEST_ZERO_ABS)
#define check_double_eq(expect, got) \
	check_double_loc(__FILE__, __LINE__, #got, (expect), (got), 0, \
			 TEST_ZERO_ABS)

/* A failure found some other way (a bad line in a table of cases). */
#define test_fail(...) test_fail_loc(__FILE__, __LINE__, __VA_ARGS__)

int check_bool_loc(const char *file, int line, const char *what, int ok);
int check_int_loc(const char *file, int line, const char *what,
		  long long expect, long long got);
int check_str_loc(const char *file, int line, const char *what,
		  const char *expect, const char *got);
int check_double_loc(const char *file, int line, const char *what,
		     double expect, double got, double rel, double zero_abs);
/* Count one failure and print "file:line: " and the message. */
void test_fail_loc(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A note after a failed check: "#   " and the message. */
void test_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Print "N passed, N failed" (the last such line of a test is what
 * tests/run-all.sh reads) and return main()'s exit status: 0 if nothing
 * failed and stdout could be written, 1 otherwise.
 */
int test_done(void);

#endif
