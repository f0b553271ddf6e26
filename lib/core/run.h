#ifndef RUN_H
#define RUN_H
/*
 * Running a helper program (git) to completion: standard input from
 * /dev/null, its standard output and error captured through pipes.
 */
#include <stddef.h>

struct sbuf;

/*
 * Run argv (argv[0] looked up on PATH; NULL-terminated) and wait for it.
 * Its stdout is appended to out, up to out_cap bytes (more is an error,
 * the child is still waited for); its stderr to err, up to 16 KiB (the
 * rest is dropped).  Returns its exit status (128 + the signal when one
 * killed it), or -1 after error() when it could not be started or its
 * output passed out_cap; *missing is set to 1 when argv[0] is not on PATH.
 */
int run_capture(const char *const *argv, struct sbuf *out, size_t out_cap,
		struct sbuf *err, int *missing);

#endif
