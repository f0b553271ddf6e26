#ifndef ERR_H
#define ERR_H
/*
 * Error reporting, as in git's usage.c: library code calls error() and
 * returns its -1; only cli/ calls die().  Messages are lowercase, without
 * a trailing period, and carry "path:line: " for input errors.
 */

/* Exit statuses of every command (SPEC §5). */
enum exit_status {
	EXIT_OK = 0,
	EXIT_FOUND = 1,		/* regressions found with --exit-code */
	EXIT_USAGE = 2,
	EXIT_BADINPUT = 3,	/* bad input or data error */
	EXIT_ENV = 4,		/* database, gnuplot, SMTP, git */
};

/* Prints "perfsift: error: <msg>" to stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "perfsift: warning: <msg>" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "perfsift: error: <msg>" and exits with status; cli/ only. */
void die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/* Broken invariant: prints file:line and aborts. */
void bug_fl(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)

/*
 * Errors can be captured instead of printed (tests, the fuzzer, and the
 * import driver, which prints one summary per file): while a capture
 * buffer is set, error() appends its message there.  Pass NULL to stop.
 */
struct sbuf;
void err_capture(struct sbuf *sb);
/*
 * Divert this thread's error() and warning() messages (as formatted,
 * before escaping; a warning silenced by --quiet is not passed) to fn:
 * an importer parsing ahead on a thread of its own has them printed in
 * order later, or not at all.  fn NULL: print again.
 */
void err_divert(void (*fn)(void *data, int is_error, const char *msg),
		void *data);
/* A diversion that says nothing: err_divert(err_discard, NULL). */
void err_discard(void *data, int is_error, const char *msg);
/* Silence warnings (--quiet). */
void err_set_quiet_warnings(int quiet);

#endif
