#ifndef RUN_H
#define RUN_H
/*
 * Running a helper program (git, gnuplot) to completion: its standard
 * input fed from memory (or /dev/null), its standard output and error
 * captured through pipes, without a deadlock however much either side
 * writes (one poll() loop over the three pipes).
 */
#include <stddef.h>

struct sbuf;

struct run_io {
	const char *in;		/* fed to its stdin; NULL: /dev/null */
	size_t in_len;
	struct sbuf *out;	/* its stdout, up to out_cap bytes (more is
				 * an error, the child still waited for);
				 * NULL: stdout goes to err with stderr */
	size_t out_cap;
	struct sbuf *err;	/* its stderr, up to err_cap bytes (the rest
				 * dropped) */
	size_t err_cap;
	/*
	 * The Debian package that has argv[0]: when it is not on PATH the
	 * error says to install it.
	 */
	const char *package;
	int missing;		/* set: argv[0] was not on PATH */
	/*
	 * Seconds it may take, 0: no limit.  Past them it is killed
	 * (SIGKILL) and run_program() fails saying so.
	 */
	int timeout_s;
};

/*
 * Run argv (argv[0] looked up on PATH; NULL-terminated) with io and
 * wait for it.  It gets perfsift's environment without the secrets of
 * the mail and database settings (run_env_secret()): a chart program
 * has no business with a password.  Returns its exit status (128 + the
 * signal when one killed it), or -1 after error() when it could not be
 * started, its output passed out_cap or it passed timeout_s.  A child
 * that stops reading its input ends the feeding (SIGPIPE is ignored
 * meanwhile); its exit status tells.
 */
int run_program(const char *const *argv, struct run_io *io);
/*
 * Is the environment entry "NAME=value" one a helper program does not
 * get: PERFSIFT_*, libpq's PG*, and any name with PASSWORD, SECRET or
 * TOKEN in it?
 */
int run_env_secret(const char *entry);

#endif
