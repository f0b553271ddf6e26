#ifndef LKP_TABLE_H
#define LKP_TABLE_H
/*
 * lkp's comparison tables and the kernel test robot's report bodies,
 * read a line at a time (importers/lkp-table.c), so that a plain file and
 * the text of each mail message feed the same parser.
 */
#include "store/db.h"
#include "core/input.h"

/* The parser, as struct importer's text_new/text_line/text_end. */
void *lkp_table_text_new(struct import_ctx *ctx);
int lkp_table_text_line(void *p, const char *line, long lineno, int depth);
int lkp_table_text_end(void *p, int finish);

int lkp_table_detect(const char *path, const char *head, size_t len);
int lkp_table_parse(struct import_ctx *ctx, struct input *in);

#endif
