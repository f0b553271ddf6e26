/*
 * libFuzzer target for the importers: every input is imported with each
 * format forced (and once detected) into an in-memory database.  Any
 * crash, leak or undefined behaviour is a bug; errors are expected.
 *
 *   make fuzz            builds build-fuzz/fuzz-import (clang)
 *   build-fuzz/fuzz-import -max_total_time=60 CORPUS_DIR
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "../../importers/import.h"
#include "../../importers/importer.h"
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct db db;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf errors = SBUF_INIT;
	const struct importer *imp;
	size_t nr, i;
	FILE *f;

	if (!db.sq) {
		if (db_open(&db, ":memory:"))
			abort();
		snprintf(path, sizeof(path), "/tmp/perfsift-fuzz-%ld",
			 (long)getpid());
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	err_capture(&errors);	/* errors are expected: keep them quiet */
	err_set_quiet_warnings(1);
	imp = importer_list(&nr);
	for (i = 0; i <= nr; i++) {
		struct import_opts o = { 0 };
		struct import_result r;

		o.format = i < nr ? imp[i].name : NULL;
		o.dry_run = 1;
		import_file(&db, &o, path, &r);
	}
	err_capture(NULL);
	sbuf_release(&errors);
	return 0;
}
