/*
 * GMime loaded on demand (gmime.h says why).
 */
#define GMIME_LOADER
#include "core/compat.h"
#include "core/dl.h"
#include "mail/gmime.h"

struct gmime_api gmime_api;

int gmime_load(void)
{
	static const struct dl_sym syms[] = {
#define X(f) { #f, offsetof(struct gmime_api, f) },
		GMIME_FUNCS(X)
#undef X
	};
	static int state;	/* 0: not tried, 1: ready, -1: failed */
	char *why;

	if (state)
		return state > 0 ? 0 : -1;
	state = -1;
	if (dl_load(GMIME_SONAME, "libgmime-3.0-0", syms, ARRAY_SIZE(syms),
		    &gmime_api, &why)) {
		error("%s", why);
		free(why);
		return -1;
	}
	gmime_api.g_mime_init();
	state = 1;
	return 0;
}
