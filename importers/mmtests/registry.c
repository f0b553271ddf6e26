/*
 * The MMTests extractors (extract.h): one row per benchmark family, each
 * in its own file.  Sorted by name.
 */
#include "core/compat.h"
#include "extract.h"

extern const struct mmtests_extractor mmx_blogbench, mmx_ebizzy,
	mmx_hackbench, mmx_kernbench, mmx_pgbench, mmx_schbench,
	mmx_sembench, mmx_sockperf, mmx_stream, mmx_thpscale, mmx_unixbench;

static const struct mmtests_extractor *const extractors[] = {
	&mmx_blogbench, &mmx_ebizzy, &mmx_hackbench, &mmx_kernbench,
	&mmx_pgbench, &mmx_schbench, &mmx_sembench, &mmx_sockperf,
	&mmx_stream, &mmx_thpscale, &mmx_unixbench,
};

const struct mmtests_extractor *mmtests_extractors(size_t *nr)
{
	static struct mmtests_extractor list[ARRAY_SIZE(extractors)];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(extractors); i++)
		list[i] = *extractors[i];
	*nr = ARRAY_SIZE(extractors);
	return list;
}

const struct mmtests_extractor *mmtests_extractor_for(const char *test)
{
	char name[256];
	size_t i, n = strlen(test);

	if (n >= sizeof(name))
		return NULL;
	memcpy(name, test, n + 1);
	for (;;) {
		char *dash;

		for (i = 0; i < ARRAY_SIZE(extractors); i++)
			if (!strcmp(extractors[i]->name, name))
				return extractors[i];
		dash = strrchr(name, '-');
		if (!dash)
			return NULL;
		*dash = '\0';
	}
}
