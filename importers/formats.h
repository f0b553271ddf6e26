#ifndef FORMATS_H
#define FORMATS_H
/*
 * The formats perfsift reads, one struct importer each, defined in its
 * family's folder (importers/FAMILY/FORMAT.c) and listed once in
 * formats.c's table.
 */
#include "import/importer.h"

extern const struct importer importer_codesize, importer_csv, importer_fio,
	importer_fio_dir, importer_fio_log, importer_fio_normal,
	importer_fio_terse, importer_lkp_table, importer_lkp_tree,
	importer_mmtests_table, importer_mmtests_tree, importer_procfs,
	importer_vmstat_tool;

#endif
