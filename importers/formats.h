#ifndef FORMATS_H
#define FORMATS_H
/*
 * The formats perfsift reads, one struct importer each, defined in its
 * family's folder (importers/FAMILY/FORMAT.c) and listed once in
 * formats.c's table, with the parts of a family's trees (IMP_PART: the
 * MMTests extractors).  The program hands the table to the engine:
 * importer_use(importer_table, importer_table_size).
 */
#include "import/importer.h"

extern const struct importer importer_codesize, importer_csv, importer_fio,
	importer_fio_dir, importer_fio_log, importer_fio_normal,
	importer_fio_terse, importer_lkp_table, importer_lkp_tree,
	importer_mmtests_extract, importer_mmtests_table, importer_mmtests_tree, importer_procfs,
	importer_vmstat_tool;
extern const struct importer importer_mmtests_blogbench,
	importer_mmtests_ebizzy, importer_mmtests_hackbench,
	importer_mmtests_kernbench, importer_mmtests_pgbench,
	importer_mmtests_schbench, importer_mmtests_sembench,
	importer_mmtests_sockperf, importer_mmtests_stream,
	importer_mmtests_thpscale, importer_mmtests_unixbench;

extern const struct importer *const importer_table[];
extern const size_t importer_table_size;

#endif
