/*
 * Loading a library on demand (dl.h).
 */
#include "core/compat.h"
#include "core/dl.h"
#include <dlfcn.h>

int dl_load(const char *soname, const char *package,
	    const struct dl_sym *syms, size_t n, void *table, char **why)
{
	void *so = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	size_t i;

	if (!so) {
		*why = xstrfmt("cannot load %s (Debian package %s): %s",
			       soname, package, dlerror());
		return -1;
	}
	for (i = 0; i < n; i++) {
		/* a library's dependencies are searched too (GLib's) */
		void *f = dlsym(so, syms[i].name);

		if (!f) {
			*why = xstrfmt("%s: no %s", soname, syms[i].name);
			dlclose(so);
			return -1;
		}
		/* POSIX: a function's address fits in a void * */
		memcpy((char *)table + syms[i].off, &f, sizeof(f));
	}
	return 0;
}
