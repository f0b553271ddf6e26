/*
 * The import driver's walk (import.h): paths expanded into results,
 * directories recursed, a directory or tree an importer claims made one
 * result (or one per part).
 */
#include "core/compat.h"
#include "core/sbuf.h"
#include "core/strmap.h"
#include "core/strparse.h"
#include "import/driver.h"
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- directory members ---- */

void member_list_release(struct member_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free((char *)l->m[i].name);
		free((char *)l->m[i].path);
	}
	free(l->m);
	memset(l, 0, sizeof(*l));
}

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	/* X before X.gz under the same name: the plain one is kept */
	return c ? c : (int)(strlen(x->path) - strlen(y->path));
}

int member_list_read(const char *dir, struct member_list *l)
{
	struct dirent *de;
	size_t i, out = 0;
	DIR *d;

	memset(l, 0, sizeof(*l));
	d = opendir(dir);
	if (!d)
		return error("%s: cannot read directory: %s", dir,
			     strerror(errno));
	while ((de = readdir(d))) {
		char *path;
		struct stat st;
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.')
			continue;
		path = xstrfmt("%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		ALLOC_GROW(l->m, l->nr + 1, l->alloc);
		l->m[l->nr].path = path;
		l->m[l->nr].size = (int64_t)st.st_size;
		l->m[l->nr].name = n > 3 && ends_with(de->d_name, ".gz") ?
			xstrndup(de->d_name, n - 3) : xstrdup(de->d_name);
		l->nr++;
	}
	closedir(d);
	QSORT(l->m, l->nr, cmp_member);
	for (i = 0; i < l->nr; i++) {
		if (out && !strcmp(l->m[out - 1].name, l->m[i].name)) {
			free((char *)l->m[i].name);
			free((char *)l->m[i].path);
			continue;
		}
		l->m[out++] = l->m[i];
	}
	l->nr = out;
	return 0;
}

const char *member_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "a special file";
}

/* One path of member_check(): 0 absent or regular, else -1 after error(). */
static int check_one(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 :
		       error("%s: cannot read: %s", path, strerror(errno));
	/* a link is followed: to a file it is that file; dangling, an error */
	if (stat(path, &st))
		return error("%s: cannot read: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error("%s: not a regular file: %s", path,
			     member_kind(st.st_mode));
	return 0;
}

int member_check(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	char *gz = xstrfmt("%s.gz", path);
	/* both said: either would be the member */
	int ret = check_one(path);

	ret |= check_one(gz);
	free(path);
	free(gz);
	return ret ? -1 : 0;
}

int member_present(const char *dir, const char *name)
{
	char *path = xstrfmt("%s/%s", dir, name);
	char *gz = xstrfmt("%s.gz", path);
	struct stat st;
	int ret = !lstat(path, &st) || !lstat(gz, &st);

	free(path);
	free(gz);
	return ret;
}

/* add() of tree_members(): one file of the part. */
static void add_tree_member(void *data, const char *name, const char *path)
{
	struct member_list *l = data;
	struct stat st;

	ALLOC_GROW(l->m, l->nr + 1, l->alloc);
	l->m[l->nr].name = xstrdup(name);
	l->m[l->nr].path = xstrdup(path);
	l->m[l->nr].size = stat(path, &st) ? 0 : (int64_t)st.st_size;
	l->nr++;
}

int member_list_of_part(const struct importer *imp, const char *dir,
			const char *part, struct member_list *l)
{
	memset(l, 0, sizeof(*l));
	if (imp->tree_members(dir, part, add_tree_member, l)) {
		member_list_release(l);
		return -1;
	}
	QSORT(l->m, l->nr, cmp_member);
	return 0;
}

/* Does a directory importer claim dir (the forced one, if --format)? */
static const struct importer *claim_dir(const char *dir,
					const struct import_opts *o)
{
	const struct importer *imp = NULL, *forced;
	struct member_list l;

	forced = o && o->format ? importer_find(o->format) : NULL;
	if (forced && !(forced->flags & IMP_DIRS))
		return NULL;
	if (member_list_read(dir, &l))
		return NULL;
	if (forced)
		imp = forced->detect_dir(dir, l.m, l.nr) > 0 ? forced : NULL;
	else
		imp = importer_detect_dir(dir, l.m, l.nr);
	member_list_release(&l);
	return imp;
}

/* ---- expansion ---- */

struct item_list {
	struct import_item *v;
	size_t nr, alloc;
	struct strmap seen;	/* (st_dev, st_ino) of dirs and files */
};

static void add_item(struct item_list *l, const char *path, int walked,
		     const struct importer *dir_imp)
{
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr].path = xstrdup(path);
	l->v[l->nr].walked = walked;
	l->v[l->nr].dir_imp = dir_imp;
	l->v[l->nr].part = NULL;
	l->nr++;
}

/* The parts of a tree, as its importer names them. */
struct part_list {
	char **v;
	size_t nr, alloc;
};

static void add_part(void *data, const char *part)
{
	struct part_list *p = data;

	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr++] = xstrdup(part);
}

/*
 * Does a tree importer claim dir (the forced one, if --format)?  Then
 * each of its parts is an item.  Returns 1 if claimed, 0 if not, -1 after
 * error() (the tree could not be listed).
 */
static int claim_tree(struct item_list *l, const char *dir, int walked,
		      const struct import_opts *o)
{
	const struct importer *const *imp, *best = NULL, *forced;
	struct part_list best_parts = { 0 };
	size_t i, nr;
	int best_score = 0;

	forced = o && o->format ? importer_find(o->format) : NULL;
	if (forced && !(forced->flags & IMP_TREES))
		return 0;
	imp = importer_list(&nr);
	for (i = 0; i < nr; i++) {
		struct part_list p = { 0 };
		int s;

		if (!(imp[i]->flags & IMP_TREES) || (forced && forced != imp[i]))
			continue;
		s = imp[i]->tree_parts(dir, add_part, &p);
		if (s > best_score && s > 0) {
			struct part_list t = p;

			p = best_parts;
			best_parts = t;
			best = imp[i];
			best_score = s;
		}
		while (p.nr)
			free(p.v[--p.nr]);
		free(p.v);
		if (s < 0)
			return -1;
	}
	if (!best)
		return 0;
	for (i = 0; i < best_parts.nr; i++) {
		add_item(l, dir, walked, best);
		l->v[l->nr - 1].part = best_parts.v[i];
	}
	free(best_parts.v);
	if (!best_parts.nr)
		warning("%s: read as %s, but it holds no result to import",
			dir, best->name);
	return 1;
}

/* Has this inode been walked or listed already?  Marks it if not. */
static int seen_before(struct item_list *l, const struct stat *st)
{
	uint64_t key[2] = { (uint64_t)st->st_dev, (uint64_t)st->st_ino };
	int64_t v;

	if (strmap_get(&l->seen, (const char *)key, sizeof(key), &v))
		return 1;
	strmap_put(&l->seen, (const char *)key, sizeof(key), 1);
	return 0;
}

/*
 * Add the results under path, sorted, recursively; symlinks are
 * followed, but a directory or file reached twice (a link back up the
 * tree) is walked or listed once.  A claimed directory is one result and
 * is not descended into.  Returns the number of entries that could not
 * be read (each reported with error()).
 */
static size_t walk(struct item_list *l, const char *path, int depth,
		   const struct import_opts *o)
{
	char **names = NULL;
	size_t nr = 0, alloc = 0, i, bad = 0;
	const struct importer *imp;
	struct dirent *de;
	DIR *dir;

	if (depth > 64) {
		error("%s: directories nested too deep", path);
		return 1;
	}
	/* first: the claims below would each say it cannot be read */
	dir = opendir(path);
	if (!dir) {
		error("%s: cannot read directory: %s", path, strerror(errno));
		return 1;
	}
	switch (claim_tree(l, path, depth > 0, o)) {
	case 1:
		closedir(dir);
		return 0;
	case -1:
		closedir(dir);
		return 1;
	}
	imp = claim_dir(path, o);
	if (imp) {
		closedir(dir);
		add_item(l, path, depth > 0, imp);
		return 0;
	}
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, nr + 1, alloc);
		names[nr++] = xstrdup(de->d_name);
	}
	closedir(dir);
	QSORT(names, nr, cmp_str);
	for (i = 0; i < nr; i++) {
		char *sub = xstrfmt("%s/%s", path, names[i]);
		struct stat st;

		if (stat(sub, &st)) {
			error("%s: cannot open: %s", sub, strerror(errno));
			bad++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(l, &st))
				bad += walk(l, sub, depth + 1, o);
		} else if (!seen_before(l, &st)) {
			/* a FIFO, a device: skipped and counted, never read */
			add_item(l, sub, 1, NULL);
		}
		free(sub);
		free(names[i]);
	}
	free(names);
	return bad;
}

static void mark_seen(const char *path, void *data)
{
	struct stat st;

	if (!stat(path, &st))
		seen_before(data, &st);
}

struct import_item *import_expand(const char *const *paths, size_t nr,
				  const struct import_opts *o, size_t *nr_items,
				  size_t *nr_bad)
{
	struct item_list l = { 0 };
	size_t i;

	*nr_bad = 0;
	/* the database being written, and its companions: never inputs */
	if (o && o->db_path)
		db_for_each_file(o->db_path, mark_seen, &l);
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (!strcmp(paths[i], "-")) {
			add_item(&l, "-", 0, NULL);
		} else if (stat(paths[i], &st)) {
			error("%s: cannot open: %s", paths[i], strerror(errno));
			(*nr_bad)++;
		} else if (S_ISDIR(st.st_mode)) {
			if (!seen_before(&l, &st))
				*nr_bad += walk(&l, paths[i], 0, o);
		} else {
			/* named on the command line: always imported */
			add_item(&l, paths[i], 0, NULL);
		}
	}
	strmap_clear(&l.seen);
	*nr_items = l.nr;
	return l.v;
}

void import_items_free(struct import_item *items, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		free(items[i].path);
		free(items[i].part);
	}
	free(items);
}
