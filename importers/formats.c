/*
 * The table of formats: one row per format, in the order
 * `perfsift help import` lists them (detection ties go to the first),
 * then the parts of the families' trees (IMP_PART), sorted by name.
 * Adding a format, or an MMTests benchmark, is its file in its family's
 * folder and its row here; what it handles is in its flags, and the
 * engine reads nothing else of it.
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
	&importer_mmtests_extract,
	&importer_mmtests_table,
	&importer_mmtests_tree,
	&importer_procfs,
	&importer_vmstat_tool,

	&importer_mmtests_blogbench,
	&importer_mmtests_ebizzy,
	&importer_mmtests_hackbench,
	&importer_mmtests_kernbench,
	&importer_mmtests_pgbench,
	&importer_mmtests_schbench,
	&importer_mmtests_sembench,
	&importer_mmtests_sockperf,
	&importer_mmtests_stream,
	&importer_mmtests_thpscale,
	&importer_mmtests_unixbench,
};

const size_t importer_table_size = ARRAY_SIZE(importer_table);
