#ifndef MMTESTS_TABLE_H
#define MMTESTS_TABLE_H
/*
 * MMTests' comparison tables (compare-kernels.sh, compare-mmtests.pl) as
 * posted in mail and kept in files, read a line at a time
 * (importers/mmtests-table.c), so that a plain file and the text of each
 * mail message feed the same parser.
 */
#include "store/db.h"
#include "core/input.h"

/* The parser, as struct importer's text_new/text_line/text_end. */
void *mmtests_table_text_new(struct import_ctx *ctx);
int mmtests_table_text_line(void *p, const char *line, long lineno, int depth);
int mmtests_table_text_end(void *p, int finish);

int mmtests_table_detect(const char *path, const char *head, size_t len);
int mmtests_table_parse(struct import_ctx *ctx, struct input *in);

#endif
