/*
 * The table of importers and format detection: every importer scores the
 * first bytes of a file and the best score wins; --format overrides.
 */
#include "core/compat.h"
#include "importer.h"

static const struct importer importers[] = {
	{ "csv", "generic long-format CSV: metric,value[,label,kernel,...]",
	  csv_detect, csv_parse },
	{ "fio", "fio --output-format=json (fio 2.x and 3.x)",
	  fio_detect, fio_parse },
};

const struct importer *importer_list(size_t *nr)
{
	*nr = ARRAY_SIZE(importers);
	return importers;
}

const struct importer *importer_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(importers); i++)
		if (!strcmp(importers[i].name, name))
			return &importers[i];
	return NULL;
}

const struct importer *importer_detect(const char *path, const char *head,
				       size_t len)
{
	const struct importer *best = NULL;
	int best_score = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(importers); i++) {
		int s = importers[i].detect(path, head, len);

		if (s > best_score) {
			best_score = s;
			best = &importers[i];
		}
	}
	return best;
}
