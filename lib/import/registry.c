/*
 * Format lookup and detection over the table the program hands over
 * (importer_use(): importers/formats.c's): every importer scores the
 * first bytes of a file and the best score wins; --format overrides.
 */
#include "core/compat.h"
#include "core/xalloc.h"
#include "mail/mail.h"
#include "import/importer.h"

/* The table, split once into the formats and the parts. */
static const struct importer **importer_table, **part_table;
static size_t importer_table_size, part_table_size;

void importer_use(const struct importer *const *table, size_t nr)
{
	size_t i;

	if (importer_table)
		BUG("importer_use() called twice");
	importer_table = xcalloc(nr + 1, sizeof(*importer_table));
	part_table = xcalloc(nr + 1, sizeof(*part_table));
	for (i = 0; i < nr; i++) {
		if (table[i]->flags & IMP_PART)
			part_table[part_table_size++] = table[i];
		else
			importer_table[importer_table_size++] = table[i];
	}
}

static void check_used(void)
{
	if (!importer_table)
		BUG("no table of formats: importer_use() was not called");
}

const struct importer *const *importer_list(size_t *nr)
{
	check_used();
	*nr = importer_table_size;
	return importer_table;
}

const struct importer *const *importer_parts(size_t *nr)
{
	check_used();
	*nr = part_table_size;
	return part_table;
}

const struct importer *importer_find(const char *name)
{
	size_t i;

	check_used();
	for (i = 0; i < importer_table_size; i++)
		if (!strcmp(importer_table[i]->name, name))
			return importer_table[i];
	return NULL;
}

const struct importer *importer_part(const char *family, const char *name)
{
	size_t i;

	check_used();
	for (i = 0; i < part_table_size; i++)
		if (!strcmp(part_table[i]->family, family) &&
		    !strcmp(part_table[i]->name, name))
			return part_table[i];
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

	for (i = 0; i < importer_table_size; i++) {
		int s;

		if (!(importer_table[i]->flags & IMP_FILES))
			continue;
		/*
		 * A text importer (text_new: it reads lines, tables in
		 * files and mail) is not offered a JSON document: its
		 * detect() would read the head line by line to say no,
		 * a cost every fio file would pay
		 */
		if (json && importer_table[i]->text_new)
			continue;
		s = importer_table[i]->detect(path, head, len);

		if (s > best_score) {
			best_score = s;
			best = importer_table[i];
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

	for (i = 0; i < importer_table_size; i++) {
		int s;

		if (!(importer_table[i]->flags & IMP_DIRS))
			continue;
		s = importer_table[i]->detect_dir(dir, m, nr);
		if (s > best_score) {
			best_score = s;
			best = importer_table[i];
		}
	}
	return best;
}
