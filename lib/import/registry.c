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
static const struct importer **formats, **parts;
static size_t nr_formats, nr_parts;

void importer_use(const struct importer *const *table, size_t nr)
{
	size_t i;

	if (formats)
		BUG("importer_use() called twice");
	formats = xcalloc(nr + 1, sizeof(*formats));
	parts = xcalloc(nr + 1, sizeof(*parts));
	for (i = 0; i < nr; i++) {
		if (table[i]->flags & IMP_PART)
			parts[nr_parts++] = table[i];
		else
			formats[nr_formats++] = table[i];
	}
}

static void check_used(void)
{
	if (!formats)
		BUG("no table of formats: importer_use() was not called");
}

const struct importer *const *importer_list(size_t *nr)
{
	check_used();
	*nr = nr_formats;
	return formats;
}

const struct importer *const *importer_parts(size_t *nr)
{
	check_used();
	*nr = nr_parts;
	return parts;
}

const struct importer *importer_find(const char *name)
{
	size_t i;

	check_used();
	for (i = 0; i < nr_formats; i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

const struct importer *importer_part(const char *family, const char *name)
{
	size_t i;

	check_used();
	for (i = 0; i < nr_parts; i++)
		if (!strcmp(parts[i]->family, family) &&
		    !strcmp(parts[i]->name, name))
			return parts[i];
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

	for (i = 0; i < nr_formats; i++) {
		int s;

		if (!(formats[i]->flags & IMP_FILES))
			continue;
		/*
		 * A text importer (text_new: it reads lines, tables in
		 * files and mail) is not offered a JSON document: its
		 * detect() would read the head line by line to say no,
		 * a cost every fio file would pay
		 */
		if (json && formats[i]->text_new)
			continue;
		s = formats[i]->detect(path, head, len);

		if (s > best_score) {
			best_score = s;
			best = formats[i];
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

	for (i = 0; i < nr_formats; i++) {
		int s;

		if (!(formats[i]->flags & IMP_DIRS))
			continue;
		s = formats[i]->detect_dir(dir, m, nr);
		if (s > best_score) {
			best_score = s;
			best = formats[i];
		}
	}
	return best;
}
