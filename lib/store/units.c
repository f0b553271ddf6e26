/*
 * One metric, one unit.  A metric keeps the first unit it was given; a
 * value that comes in another unit of the same quantity is converted to
 * it (1.5 MiB/s stored as 1536 under KiB/s), and one in a unit perfsift
 * cannot convert without guessing is refused with both named: 1500 in
 * KB/s and 1.5 in MB/s must never be compared as one metric.
 *
 * Only the units whose scale is not in doubt convert: times, and the
 * IEC binary sizes and rates.  "KB", "MB" and their rates mean 1000 to
 * some tools and 1024 to others (fio's "KB/s" was KiB/s): refused.
 */
#include "core/compat.h"
#include "store/emit-int.h"
#include "store/stmt.h"

struct unit {
	const char *name;
	int family;
	double scale;		/* of the family's base unit */
};

enum { U_TIME = 1, U_SIZE, U_RATE };

/* units longer than this are looked up each time, not cached */
#define UNIT_KEY_MAX 64
/*
 * (metric, unit) pairs remembered, then forgotten all at once.  A family
 * of metrics repeats run after run and fits; an import of one run with
 * 600,000 metrics (fio, 20,000 jobs) looks each up once and would only
 * grow the map, by 10 MiB at DB_CACHE_MAX entries.
 */
#define UNIT_CACHE_MAX (1u << 12)

static const struct unit units[] = {
	{ "ns", U_TIME, 1e-9 }, { "nsec", U_TIME, 1e-9 },
	{ "us", U_TIME, 1e-6 }, { "usec", U_TIME, 1e-6 },
	{ "\xc2\xb5s", U_TIME, 1e-6 }, { "ms", U_TIME, 1e-3 },
	{ "msec", U_TIME, 1e-3 }, { "s", U_TIME, 1 }, { "sec", U_TIME, 1 },
	{ "seconds", U_TIME, 1 }, { "min", U_TIME, 60 },
	{ "B", U_SIZE, 1 }, { "bytes", U_SIZE, 1 },
	{ "KiB", U_SIZE, 1024.0 }, { "MiB", U_SIZE, 1048576.0 },
	{ "GiB", U_SIZE, 1073741824.0 }, { "TiB", U_SIZE, 1099511627776.0 },
	{ "B/s", U_RATE, 1 }, { "KiB/s", U_RATE, 1024.0 },
	{ "MiB/s", U_RATE, 1048576.0 }, { "GiB/s", U_RATE, 1073741824.0 },
};

static const struct unit *unit_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(units[i].name, name))
			return &units[i];
	return NULL;
}

int unit_convert(const char *from, const char *to, double *factor)
{
	const struct unit *f, *t;

	if (!strcmp(from, to)) {
		*factor = 1;
		return 0;
	}
	f = unit_find(from);
	t = unit_find(to);
	if (!f || !t || f->family != t->family)
		return -1;
	*factor = f->scale / t->scale;
	return 0;
}

int emit_unit_factor(struct import_ctx *ctx, int64_t id, const char *name,
		     const char *unit, long line, double *factor)
{
	struct db *db = ctx->db;
	char key[sizeof(id) + UNIT_KEY_MAX];
	size_t ulen = unit ? strlen(unit) : 0, klen;
	struct stmt *st;
	int64_t cached;
	char *stored = NULL;
	int rc, ret = 0;

	*factor = 1;
	if (!ulen)
		return 0;
	/* a sample's path: the id and the unit, no allocation */
	klen = sizeof(id) + (ulen < UNIT_KEY_MAX ? ulen : UNIT_KEY_MAX);
	memcpy(key, &id, sizeof(id));
	memcpy(key + sizeof(id), unit, klen - sizeof(id));
	if (ulen <= UNIT_KEY_MAX &&
	    strmap_get(&db->metric_units, key, klen, &cached)) {
		memcpy(factor, &cached, sizeof(*factor));
		return 0;
	}
	st = db_prepare(db, "SELECT unit FROM metrics WHERE id = ?1");
	if (!st)
		return -1;
	stmt_bind_int64(st, 1, id);
	rc = stmt_step(st);
	if (rc == SQLITE_ROW && stmt_column_type(st, 0) != SQLITE_NULL)
		stored = xstrdup((const char *)stmt_column_text(st, 0));
	stmt_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		ret = db_fail(db, rc, ctx->path, line);
	else if (stored && unit_convert(unit, stored, factor))
		ret = error("%s:%ld: metric '%s' is in %s in the database, "
			    "here in %s: not one quantity perfsift can convert "
			    "(give it another name, or convert it)", ctx->path,
			    line, name, stored, unit);
	if (!ret && ulen <= UNIT_KEY_MAX) {
		if (db->metric_units.nr >= UNIT_CACHE_MAX)
			strmap_clear(&db->metric_units);
		memcpy(&cached, factor, sizeof(cached));
		strmap_put(&db->metric_units, key, klen, cached);
	}
	free(stored);
	return ret;
}
