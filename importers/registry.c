/*
 * The table of importers and format detection: every importer scores the
 * first bytes of a file and the best score wins; --format overrides.
 */
#include "core/compat.h"
#include "core/mail.h"
#include "importer.h"
#include "lkp-table.h"
#include "mmtests-table.h"

static const struct importer importers[] = {
	{ "codesize", "code size: scripts/bloat-o-meter tables (runs old "
	  "and new; also in mail) and size(1) output (Berkeley or -A)",
	  IMP_FILES | IMP_VARIANTS | IMP_SAMPLES,
	  codesize_detect, codesize_parse, NULL, NULL, codesize_text_new,
	  codesize_text_line, codesize_text_end, NULL, NULL },
	{ "csv", "generic long-format CSV: metric,value[,label,kernel,...]",
	  IMP_FILES | IMP_VARIANTS | IMP_SAMPLES | IMP_AGGREGATES,
	  csv_detect, csv_parse, NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "fio", "fio --output-format=json (fio 2.x and 3.x)",
	  IMP_FILES | IMP_SAMPLES | IMP_RECORDED, fio_detect, fio_parse,
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "fio-dir", "a directory holding one fio JSON output and its "
	  "logs: one result",
	  IMP_DIRS | IMP_SAMPLES | IMP_SERIES,
	  NULL, NULL, fio_dir_detect_dir, fio_dir_parse_dir, NULL, NULL, NULL,
	  NULL, NULL },
	{ "fio-log", "fio's --write_{bw,iops,lat,hist}_log files "
	  "(P_bw.N.log, P_clat.N.log, ...) as series",
	  IMP_FILES | IMP_SERIES, fio_log_detect, fio_log_parse,
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "fio-normal", "fio's normal (human) report, fio 3.x, fio JSON's "
	  "names",
	  IMP_FILES | IMP_SAMPLES | IMP_RECORDED, fio_normal_detect,
	  fio_normal_parse,
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "fio-terse", "fio --minimal / --output-format=terse lines "
	  "(--terse-version 2..5), fio JSON's names",
	  IMP_FILES | IMP_SAMPLES | IMP_RECORDED, fio_terse_detect,
	  fio_terse_parse,
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "lkp-tree", "lkp-tests result tree: <testcase>/.../<commit>/<run>/",
	  IMP_DIRS | IMP_VARIANTS | IMP_SAMPLES | IMP_SERIES,
	  NULL, NULL, lkp_tree_detect_dir, lkp_tree_parse_dir, NULL, NULL, NULL,
	  NULL, NULL },
	{ "lkp-table", "lkp compare/ncompare tables and kernel test robot "
	  "reports (plain text, .eml, mbox)",
	  IMP_FILES | IMP_VARIANTS | IMP_AGGREGATES | IMP_TEXT,
	  lkp_table_detect, lkp_table_parse, NULL, NULL,
	  lkp_table_text_new, lkp_table_text_line, lkp_table_text_end,
	  NULL, NULL },
	{ "mmtests-table", "MMTests compare-kernels/compare-mmtests tables "
	  "(text, .eml, mbox, or the HTML report), Duration, Ops and "
	  "monitor tables",
	  IMP_FILES | IMP_VARIANTS | IMP_AGGREGATES | IMP_TEXT,
	  mmtests_table_detect, mmtests_table_parse, NULL, NULL,
	  mmtests_table_text_new, mmtests_table_text_line,
	  mmtests_table_text_end, NULL, NULL },
	{ "mmtests-tree", "MMTests raw results: work/log/<run>/iter-N/<test>/ "
	  "(one result per run and test)",
	  IMP_TREES | IMP_SAMPLES | IMP_SERIES,
	  NULL, NULL, NULL, mmtests_tree_parse_dir, NULL, NULL, NULL,
	  mmtests_tree_parts, mmtests_tree_members },
	{ "procfs", "/proc/zoneinfo, /proc/vmstat, /proc/meminfo: snapshots "
	  "and monitor series",
	  IMP_FILES | IMP_SAMPLES | IMP_SERIES,
	  procfs_detect, procfs_parse, NULL, NULL, NULL, NULL, NULL, NULL,
	  NULL },
	{ "vmstat-tool", "the vmstat command's output (lkp's vmstat monitor: "
	  "vmstat --timestamp -n 1)",
	  IMP_FILES | IMP_SERIES, vmstat_tool_detect, vmstat_tool_parse,
	  NULL, NULL, NULL, NULL, NULL, NULL, NULL },
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

/* Does the head begin (after blanks) with '{', as a JSON document does? */
static int head_is_json(const char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\t' ||
			   head[i] == '\n' || head[i] == '\r'))
		i++;
	return i < len && head[i] == '{';
}

const struct importer *importer_detect(const char *path, const char *head,
				       size_t len)
{
	const struct importer *best = NULL;
	int best_score = 0, json = head_is_json(head, len);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(importers); i++) {
		int s;

		if (!(importers[i].flags & IMP_FILES))
			continue;
		/*
		 * A text importer (text_new: it reads lines, tables in
		 * files and mail) is not offered a JSON document: its
		 * detect() would read the head line by line to say no
		 * (7 % of a fio file's import)
		 */
		if (json && importers[i].text_new)
			continue;
		s = importers[i].detect(path, head, len);

		if (s > best_score) {
			best_score = s;
			best = &importers[i];
		}
	}
	return best;
}

const struct importer *importer_pick(const char *format, const char *path,
				     const char *head, size_t len)
{
	const struct importer *imp = format ? importer_find(format) : NULL;

	if ((!format || (imp && imp->text_new)) &&
	    mail_detect(head, len) != MAIL_NONE)
		return NULL;
	if (format)
		return imp && (imp->flags & IMP_FILES) ? imp : NULL;
	return len ? importer_detect(path, head, len) : NULL;
}

const struct importer *importer_detect_dir(const char *dir,
					   const struct member *m, size_t nr)
{
	const struct importer *best = NULL;
	int best_score = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(importers); i++) {
		int s;

		if (!(importers[i].flags & IMP_DIRS))
			continue;
		s = importers[i].detect_dir(dir, m, nr);
		if (s > best_score) {
			best_score = s;
			best = &importers[i];
		}
	}
	return best;
}
