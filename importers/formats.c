/*
 * The table of formats: one row per format, in the order
 * `perfsift help import` lists them (detection ties go to the first).
 * Adding a format is its file in its family's folder and its row here;
 * what it handles is in its flags, and the engine reads nothing else of
 * it.
 */
#include "core/compat.h"
#include "formats.h"

const struct importer *const importer_table[] = {
	&importer_codesize,
	&importer_csv,
	&importer_fio,
	&importer_fio_dir,
	&importer_fio_log,
	&importer_fio_normal,
	&importer_fio_terse,
	&importer_lkp_tree,
	&importer_lkp_table,
	&importer_mmtests_table,
	&importer_mmtests_tree,
	&importer_procfs,
	&importer_vmstat_tool,
};

const size_t importer_table_size = ARRAY_SIZE(importer_table);
