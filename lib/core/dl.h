#ifndef DL_H
#define DL_H
/*
 * Libraries loaded when a command first needs them, not linked (libpq,
 * libcurl, GMime: their dependencies would cost every process its start
 * time and memory).  Each user keeps a table of function pointers and
 * lists the functions by name and offset in it.
 */
#include <stddef.h>

struct dl_sym {
	const char *name;
	size_t off;		/* of the pointer in the table */
};

/*
 * Open soname and fill table's pointers with syms[0..n).  0, or -1 with
 * *why (malloc'ed: the caller frees it) naming the Debian package that
 * holds the library.
 */
int dl_load(const char *soname, const char *package,
	    const struct dl_sym *syms, size_t n, void *table, char **why);

#endif
