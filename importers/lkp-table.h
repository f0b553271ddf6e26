#ifndef LKP_TABLE_H
#define LKP_TABLE_H
/*
 * lkp's comparison tables and the kernel test robot's report bodies,
 * read a line at a time (importers/lkp-table.c), so that a plain file and
 * the text of each mail message feed the same parser.
 */
#include "store/db.h"
#include "core/input.h"

struct lkp_table;

/* A parser emitting into ctx; free with lkp_table_free(). */
void lkp_table_init(struct lkp_table **t, struct import_ctx *ctx);
void lkp_table_free(struct lkp_table *t);
/* One line (without its newline) and its line number: 0 or -1 (error()). */
int lkp_table_line(struct lkp_table *t, const char *line, long lineno);
/* The end of the text: 0, or -1 when a table was cut off. */
int lkp_table_finish(struct lkp_table *t);

/* The same, as struct importer's text_new/text_line/text_end. */
void *lkp_table_text_new(struct import_ctx *ctx);
int lkp_table_text_line(void *p, const char *line, long lineno);
int lkp_table_text_end(void *p, int finish);

int lkp_table_detect(const char *path, const char *head, size_t len);
int lkp_table_parse(struct import_ctx *ctx, struct input *in);

#endif
