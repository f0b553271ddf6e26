/*
 * pg-schema: one step of the PostgreSQL server's schema, made from the
 * SQLite migrations (schema/README.md).  The migrations run in an
 * in-memory SQLite database, and what migration VERSION changed in its
 * catalog is written out as PostgreSQL DDL; the base step is what all
 * the migrations up to BASE made, from nothing, after the server's own
 * part (SERVER_SQL).  COLUMNS holds the hints the catalog cannot give.
 *
 *   pg-schema BASE VERSION SERVER_SQL COLUMNS MIGRATION... >STEP.sql
 *
 * A build tool: any failure ends the run (die), and make deletes the
 * half-written step.
 */
#include "core/compat.h"
#include <ctype.h>
#include <sqlite3.h>
#include "core/sbuf.h"

static const char usage[] =
	"usage: pg-schema BASE VERSION SERVER_SQL COLUMNS MIGRATION...";

/* a schema file is a few KiB: one past this is not one */
#define SCHEMA_FILE_MAX (1 << 20)
#define READ_CHUNK 4096
/* foreign keys followed for a column's type; more is a cycle */
#define FK_DEPTH_MAX 8

/*
 * The generator's own tables, in a database of their own, so that the
 * migrations (which run in main and name their tables unqualified) never
 * meet them.  state is 'prev' (before the step) or 'cur' (after it).
 */
static const char gen_tables[] =
	"ATTACH ':memory:' AS gen;"
	"CREATE TABLE gen.hint_integer (tbl TEXT, col TEXT,"
	"	PRIMARY KEY (tbl, col));"
	"CREATE TABLE gen.hint_order (tbl TEXT, col TEXT, pos INTEGER,"
	"	PRIMARY KEY (tbl, col));"
	/* fresh: created by the step and not written out yet */
	"CREATE TABLE gen.tables (state TEXT, tbl TEXT, seq INTEGER,"
	"	sql TEXT, constraints TEXT, fresh INTEGER,"
	"	PRIMARY KEY (state, tbl));"
	/* def: the server's definition; pos: its place in CREATE TABLE */
	"CREATE TABLE gen.columns (state TEXT, tbl TEXT, cid INTEGER,"
	"	pos INTEGER, def TEXT, PRIMARY KEY (state, tbl, cid));"
	"CREATE TABLE gen.objects (state TEXT, type TEXT, name TEXT,"
	"	sql TEXT, seq INTEGER);";

/* SQLite's column types and the server's */
static const struct {
	const char *sqlite, *pg;
} types[] = {
	{ "INTEGER", "bigint" },
	{ "REAL", "double precision" },
	/* byte by byte, as SQLite's BINARY, whatever the server's locale */
	{ "TEXT", "text COLLATE \"C\"" },
	{ "BLOB", "bytea" },
};

/*
 * Clauses of a table's SQL that SQLite's catalog does not report: the
 * server would silently lack them, so a table with one is refused.
 */
static const char *const untranslated[] = {
	"AUTOINCREMENT", "CHECK", "COLLATE", "DEFERRABLE", "GENERATED",
};

/* a table's columns, as column_def() reads them */
static const char *const gen_columns_sql =
	"SELECT cid, name, type, \"notnull\", dflt_value, pk "
	"FROM pragma_table_info(?1) ORDER BY cid";

/* The file at path, whole, appended to sb. */
static void read_file(const char *path, struct sbuf *sb)
{
	FILE *f = fopen(path, "r");
	size_t start = sb->len, n;

	if (!f)
		die(EXIT_ENV, "cannot open '%s': %s", path, strerror(errno));
	do {
		n = fread(sbuf_room(sb, READ_CHUNK), 1, READ_CHUNK, f);
		sbuf_setlen(sb, sb->len + n);
	} while (n && sb->len - start <= SCHEMA_FILE_MAX);
	if (ferror(f))
		die(EXIT_ENV, "cannot read '%s': %s", path, strerror(errno));
	if (sb->len - start > SCHEMA_FILE_MAX)
		die(EXIT_BADINPUT, "'%s': over %d bytes: not a schema file",
		    path, SCHEMA_FILE_MAX);
	fclose(f);
}

/* sql prepared, with ?1 and ?2 bound to a and b unless NULL; finalize */
static sqlite3_stmt *query(sqlite3 *db, const char *sql, const char *a,
			   const char *b)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		die(EXIT_BADINPUT, "'%s': %s", sql, sqlite3_errmsg(db));
	if (a)
		sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
	if (b)
		sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
	return st;
}

/* 1 at a row of st, 0 after the last */
static int row(sqlite3 *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		die(EXIT_BADINPUT, "'%s': %s", sqlite3_sql(st),
		    sqlite3_errmsg(db));
	return 0;
}

static const char *text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* The first column of sql's first row as text: caller frees; NULL: none */
static char *query_str(sqlite3 *db, const char *sql, const char *a,
		       const char *b)
{
	sqlite3_stmt *st = query(db, sql, a, b);
	char *s = row(db, st) && text(st, 0) ? xstrdup(text(st, 0)) : NULL;

	sqlite3_finalize(st);
	return s;
}

/* The first column of sql's first row as a number; 0: none */
static int query_int(sqlite3 *db, const char *sql, const char *a,
		     const char *b)
{
	sqlite3_stmt *st = query(db, sql, a, b);
	int v = row(db, st) ? sqlite3_column_int(st, 0) : 0;

	sqlite3_finalize(st);
	return v;
}

/* sql, with ?1 and ?2 bound as query() binds them, run for its effect */
static void run(sqlite3 *db, const char *sql, const char *a, const char *b)
{
	sqlite3_stmt *st = query(db, sql, a, b);

	row(db, st);
	sqlite3_finalize(st);
}

/* sql run for its effect; what names it in the message if it fails */
static void exec(sqlite3 *db, const char *sql, const char *what)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die(EXIT_BADINPUT, "%s: %s", what, msg);
}

/* The migrations [from, to) of steps, applied in order. */
static void apply(sqlite3 *db, const char *const *steps, int from, int to)
{
	struct sbuf sql = SBUF_INIT;
	int i;

	for (i = from; i < to; i++) {
		sbuf_reset(&sql);
		read_file(steps[i], &sql);
		exec(db, sql.buf, steps[i]);
	}
	sbuf_release(&sql);
}

/* The next blank-separated word of *p, NUL-terminated in place; NULL: none */
static char *next_word(char **p)
{
	char *w = *p + strspn(*p, " \t");

	if (!*w)
		return NULL;
	*p = w + strcspn(w, " \t");
	if (**p)
		*(*p)++ = '\0';
	return w;
}

/* One row of a hint table; path:line names the line if it is refused. */
static void hint_add(sqlite3 *db, const char *sql, const char *table,
		     const char *column, int pos, const char *path, int line)
{
	sqlite3_stmt *st = query(db, sql, table, column);

	sqlite3_bind_int(st, 3, pos);
	if (sqlite3_step(st) != SQLITE_DONE)
		die(EXIT_BADINPUT, "%s:%d: '%s.%s': %s", path, line, table,
		    column, sqlite3_errmsg(db));
	sqlite3_finalize(st);
}

/* One line of COLUMNS: "integer T.C..." or "order T C..." */
static void hint_line(sqlite3 *db, char *p, const char *path, int line)
{
	char *kind = next_word(&p), *table = NULL, *w;
	int pos = 0;

	if (!kind || *kind == '#')
		return;
	if (!strcmp(kind, "order") && !(table = next_word(&p)))
		die(EXIT_BADINPUT, "%s:%d: 'order' names no table", path, line);
	if (strcmp(kind, "order") && strcmp(kind, "integer"))
		die(EXIT_BADINPUT, "%s:%d: expected 'integer TABLE.COLUMN...' "
		    "or 'order TABLE COLUMN...', got '%s'", path, line, kind);
	while ((w = next_word(&p))) {
		char *dot = strchr(w, '.');

		if (table) {
			hint_add(db, "INSERT INTO gen.hint_order "
				 "VALUES (?1, ?2, ?3)", table, w, pos++,
				 path, line);
			continue;
		}
		if (!dot || dot == w || !dot[1])
			die(EXIT_BADINPUT, "%s:%d: expected TABLE.COLUMN, got "
			    "'%s'", path, line, w);
		*dot = '\0';
		hint_add(db, "INSERT INTO gen.hint_integer VALUES (?1, ?2)",
			 w, dot + 1, 0, path, line);
	}
}

static void load_hints(sqlite3 *db, const char *path)
{
	struct sbuf sb = SBUF_INIT;
	char *p, *end;
	int line = 0;

	read_file(path, &sb);
	for (p = sb.buf; *p; p = end) {
		end = p + strcspn(p, "\n");
		if (*end)
			*end++ = '\0';
		hint_line(db, p, path, ++line);
	}
	sbuf_release(&sb);
}

/* The key a single-column foreign key names; all fields owned. */
struct fkey {
	char *table, *column;
	char *on_delete, *on_update;	/* "NO ACTION" when not said */
};

/* table.column's foreign key into *fk: 1, or 0 when it has none */
static int fkey_get(sqlite3 *db, const char *table, const char *column,
		    struct fkey *fk)
{
	sqlite3_stmt *st = query(db, "SELECT \"table\", \"to\", on_delete, "
				 "on_update FROM pragma_foreign_key_list(?1) "
				 "WHERE \"from\" = ?2", table, column);
	int found = row(db, st);

	if (found && !text(st, 1))
		die(EXIT_BADINPUT, "%s.%s: a foreign key that names no "
		    "column of %s", table, column, text(st, 0));
	if (found) {
		fk->table = xstrdup(text(st, 0));
		fk->column = xstrdup(text(st, 1));
		fk->on_delete = xstrdup(text(st, 2));
		fk->on_update = xstrdup(text(st, 3));
	}
	sqlite3_finalize(st);
	return found;
}

static void fkey_release(struct fkey *fk)
{
	free(fk->table);
	free(fk->column);
	free(fk->on_delete);
	free(fk->on_update);
}

/*
 * The server's type of table.column, appended to out: integer where
 * COLUMNS says so, a foreign key's key's type, else the counterpart of
 * its SQLite type.
 */
static void column_type(sqlite3 *db, const char *table, const char *column,
			int depth, struct sbuf *out)
{
	struct fkey fk;
	char *type;
	size_t i;

	if (query_int(db, "SELECT count(*) FROM gen.hint_integer "
		      "WHERE tbl = ?1 AND col = ?2", table, column)) {
		sbuf_addstr(out, "integer");
		return;
	}
	if (fkey_get(db, table, column, &fk)) {
		if (depth == FK_DEPTH_MAX)
			die(EXIT_BADINPUT, "%s.%s: foreign keys in a cycle",
			    table, column);
		column_type(db, fk.table, fk.column, depth + 1, out);
		fkey_release(&fk);
		return;
	}
	type = query_str(db, "SELECT type FROM pragma_table_info(?1) "
			 "WHERE name = ?2", table, column);
	if (!type)
		die(EXIT_BADINPUT, "%s.%s: no such column", table, column);
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		if (!strcasecmp(type, types[i].sqlite)) {
			sbuf_addstr(out, types[i].pg);
			free(type);
			return;
		}
	}
	die(EXIT_BADINPUT, "%s.%s: type '%s' has no server counterpart "
	    "(schema/README.md)", table, column, type);
}

/* ON DELETE or ON UPDATE, unless it does nothing */
static void fkey_action(struct sbuf *out, const char *on, const char *action)
{
	if (strcmp(action, "NO ACTION"))
		sbuf_addf(out, " ON %s %s", on, action);
}

/*
 * The server's definition of a column of table (a row of gen_columns_sql
 * in col), appended to out.  rowid_key: the table's one primary key
 * column is SQLite's row id, which the server makes an identity column,
 * unless its values are another table's keys.
 */
static void column_def(sqlite3 *db, const char *table, int rowid_key,
		       sqlite3_stmt *col, struct sbuf *out)
{
	const char *name = text(col, 1), *dflt = text(col, 4);
	int pk = sqlite3_column_int(col, 5);
	struct fkey fk;
	int has_fk = fkey_get(db, table, name, &fk);

	sbuf_addf(out, "%s ", name);
	column_type(db, table, name, 0, out);
	if (pk && rowid_key && !has_fk)
		sbuf_addstr(out, " GENERATED BY DEFAULT AS IDENTITY");
	if (pk && !query_int(db, "SELECT count(*) > 1 FROM "
			     "pragma_table_info(?1) WHERE pk", table, NULL))
		sbuf_addstr(out, " PRIMARY KEY");
	if (query_int(db, "SELECT count(*) FROM pragma_index_list(?1) l "
		      "WHERE l.origin = 'u' AND (SELECT group_concat(name) "
		      "FROM pragma_index_info(l.name)) = ?2", table, name))
		sbuf_addstr(out, " UNIQUE");
	if (sqlite3_column_int(col, 3))
		sbuf_addstr(out, " NOT NULL");
	if (dflt)
		sbuf_addf(out, " DEFAULT %s", dflt);
	if (has_fk) {
		sbuf_addf(out, " REFERENCES %s(%s)", fk.table, fk.column);
		fkey_action(out, "DELETE", fk.on_delete);
		fkey_action(out, "UPDATE", fk.on_update);
		fkey_release(&fk);
	}
}

/*
 * The constraints of table on several columns (its primary key, its
 * UNIQUEs), ",\n\t" between them, appended to out.
 */
static void table_constraints(sqlite3 *db, const char *table,
			      struct sbuf *out)
{
	sqlite3_stmt *st = query(db,
		"SELECT 'PRIMARY KEY (' || group_concat(name, ', ') || ')' "
		"FROM (SELECT name FROM pragma_table_info(?1) WHERE pk "
		"ORDER BY pk) HAVING count(*) > 1 "
		"UNION ALL "
		"SELECT * FROM (SELECT 'UNIQUE (' || (SELECT group_concat("
		"name, ', ') FROM (SELECT name FROM pragma_index_info(l.name) "
		"ORDER BY seqno)) || ')' FROM pragma_index_list(?1) l WHERE "
		"l.origin = 'u' AND (SELECT count(*) FROM "
		"pragma_index_info(l.name)) > 1 ORDER BY l.name)",
		table, NULL);

	while (row(db, st))
		sbuf_addf(out, "%s%s", out->len ? ",\n\t" : "", text(st, 0));
	sqlite3_finalize(st);
}

/* The server's definitions of table's columns, into gen.columns. */
static void snapshot_columns(sqlite3 *db, const char *state,
			     const char *table)
{
	sqlite3_stmt *col = query(db, gen_columns_sql, table, NULL);
	sqlite3_stmt *ins = query(db, "INSERT INTO gen.columns VALUES (?1, "
				  "?2, ?3, coalesce((SELECT pos FROM "
				  "gen.hint_order WHERE tbl = ?2 AND "
				  "col = ?4), ?3), ?5)", state, table);
	int rowid_key = query_int(db, "SELECT (SELECT count(*) FROM "
				  "pragma_table_info(?1) WHERE pk) = 1 AND "
				  "NOT EXISTS (SELECT 1 FROM "
				  "pragma_index_list(?1) WHERE origin = 'pk')",
				  table, NULL);
	struct sbuf def = SBUF_INIT;

	while (row(db, col)) {
		sbuf_reset(&def);
		column_def(db, table, rowid_key, col, &def);
		sqlite3_bind_int(ins, 3, sqlite3_column_int(col, 0));
		sqlite3_bind_text(ins, 4, text(col, 1), -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 5, def.buf, -1, SQLITE_TRANSIENT);
		row(db, ins);
		sqlite3_reset(ins);
	}
	sqlite3_finalize(ins);
	sqlite3_finalize(col);
	sbuf_release(&def);
}

/* One table of main, as the server would define it, into gen. */
static void snapshot_table(sqlite3 *db, const char *state,
			   sqlite3_stmt *master)
{
	const char *table = text(master, 0);
	struct sbuf constraints = SBUF_INIT;
	sqlite3_stmt *ins;

	if (query_int(db, "SELECT count(*) FROM pragma_foreign_key_list(?1) "
		      "WHERE seq > 0", table, NULL))
		die(EXIT_BADINPUT, "table %s: a foreign key of several "
		    "columns is not translated for the server "
		    "(schema/README.md)", table);
	snapshot_columns(db, state, table);
	table_constraints(db, table, &constraints);
	ins = query(db, "INSERT INTO gen.tables VALUES (?1, ?2, ?3, ?4, ?5, "
		    "?1 = 'cur' AND NOT EXISTS (SELECT 1 FROM gen.tables "
		    "WHERE state = 'prev' AND tbl = ?2))", state, table);
	sqlite3_bind_int64(ins, 3, sqlite3_column_int64(master, 2));
	sqlite3_bind_text(ins, 4, text(master, 1), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins, 5, constraints.buf, -1, SQLITE_TRANSIENT);
	row(db, ins);
	sqlite3_finalize(ins);
	sbuf_release(&constraints);
}

/* main's schema as the server would define it, into gen as state. */
static void snapshot(sqlite3 *db, const char *state)
{
	sqlite3_stmt *master = query(db, "SELECT name, sql, rowid FROM "
				     "main.sqlite_master WHERE type = 'table' "
				     "AND name NOT LIKE 'sqlite\\_%' "
				     "ESCAPE '\\' ORDER BY rowid", NULL, NULL);

	while (row(db, master))
		snapshot_table(db, state, master);
	sqlite3_finalize(master);
	run(db, "INSERT INTO gen.objects SELECT ?1, type, name, sql, rowid "
	    "FROM main.sqlite_master WHERE type IN ('index', 'view', "
	    "'trigger')", state, NULL);
}

/*
 * The first of the untranslated clauses in sql, outside comments and
 * quotes; NULL: none.
 */
static const char *untranslated_clause(const char *sql)
{
	const char *p = sql, *end;
	size_t n, i;

	while (*p) {
		if (!strncmp(p, "--", 2)) {
			p += strcspn(p, "\n");
		} else if (!strncmp(p, "/*", 2)) {
			end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		} else if (strchr("'\"`[", *p)) {
			end = strchr(p + 1, *p == '[' ? ']' : *p);
			p = end ? end + 1 : p + strlen(p);
		} else if (isalpha((unsigned char)*p) || *p == '_') {
			for (n = 0; isalnum((unsigned char)p[n]) ||
				    p[n] == '_'; n++)
				;
			for (i = 0; i < ARRAY_SIZE(untranslated); i++)
				if (strlen(untranslated[i]) == n &&
				    !strncasecmp(p, untranslated[i], n))
					return untranslated[i];
			p += n;
		} else {
			p++;
		}
	}
	return NULL;
}

/* what's table: refused if its SQL holds a clause the server would lack */
static void check_clauses(sqlite3 *db, const char *what, const char *table)
{
	char *sql = query_str(db, "SELECT sql FROM gen.tables WHERE "
			      "state = 'cur' AND tbl = ?1", table, NULL);
	const char *clause = untranslated_clause(sql);

	if (clause)
		die(EXIT_BADINPUT, "%s: table %s: %s is not translated for the "
		    "server (schema/README.md)", what, table, clause);
	free(sql);
}

/* CREATE TABLE for a table the step made, appended to out. */
static void create_table(sqlite3 *db, const char *what, const char *table,
			 struct sbuf *out)
{
	sqlite3_stmt *col;
	char *constraints;
	const char *sep = "";

	check_clauses(db, what, table);
	if (query_int(db, "SELECT h.n AND (h.n != c.n OR h.m != c.n) FROM "
		      "(SELECT count(*) AS n, count(p.name) AS m FROM "
		      "gen.hint_order o LEFT JOIN pragma_table_info(?1) p ON "
		      "p.name = o.col WHERE o.tbl = ?1) h, (SELECT count(*) "
		      "AS n FROM pragma_table_info(?1)) c", table, NULL))
		die(EXIT_BADINPUT, "%s: table %s: 'order %s' in COLUMNS does "
		    "not name its columns", what, table, table);
	sbuf_addf(out, "CREATE TABLE %s (\n", table);
	col = query(db, "SELECT def FROM gen.columns WHERE state = 'cur' AND "
		    "tbl = ?1 ORDER BY pos", table, NULL);
	for (; row(db, col); sep = ",\n")
		sbuf_addf(out, "%s\t%s", sep, text(col, 0));
	sqlite3_finalize(col);
	constraints = query_str(db, "SELECT constraints FROM gen.tables "
				"WHERE state = 'cur' AND tbl = ?1", table,
				NULL);
	if (*constraints)
		sbuf_addf(out, ",\n\t%s", constraints);
	sbuf_addstr(out, "\n);\n");
	free(constraints);
}

/*
 * The tables the step made, each after those its foreign keys name,
 * appended to out.
 */
static void create_tables(sqlite3 *db, const char *what, struct sbuf *out)
{
	char *table;

	while ((table = query_str(db, "SELECT tbl FROM gen.tables c WHERE "
				  "state = 'cur' AND fresh AND NOT EXISTS "
				  "(SELECT 1 FROM pragma_foreign_key_list("
				  "c.tbl) f JOIN gen.tables r ON r.state = "
				  "'cur' AND r.tbl = f.\"table\" AND "
				  "r.fresh WHERE r.tbl != c.tbl) "
				  "ORDER BY seq LIMIT 1", NULL, NULL))) {
		create_table(db, what, table, out);
		run(db, "UPDATE gen.tables SET fresh = 0 WHERE state = 'cur' "
		    "AND tbl = ?1", table, NULL);
		free(table);
	}
	table = query_str(db, "SELECT tbl FROM gen.tables WHERE fresh",
			  NULL, NULL);
	if (table)
		die(EXIT_BADINPUT, "%s: table %s: its foreign keys are in a "
		    "cycle", what, table);
}

/*
 * ALTER TABLE for each column the step added to a table the server has,
 * appended to out; any other change to such a table is refused.
 */
static void alter_tables(sqlite3 *db, const char *what, struct sbuf *out)
{
	sqlite3_stmt *st;
	char *table;

	table = query_str(db, "SELECT p.tbl FROM gen.tables p LEFT JOIN "
			  "gen.tables c ON c.state = 'cur' AND c.tbl = p.tbl "
			  "WHERE p.state = 'prev' AND (c.tbl IS NULL OR "
			  "c.constraints != p.constraints OR EXISTS (SELECT 1 "
			  "FROM gen.columns o LEFT JOIN gen.columns n ON "
			  "n.state = 'cur' AND n.tbl = o.tbl AND n.cid = o.cid "
			  "WHERE o.state = 'prev' AND o.tbl = p.tbl AND "
			  "n.def IS NOT o.def)) ORDER BY p.seq", NULL, NULL);
	if (table)
		die(EXIT_BADINPUT, "%s: drops table %s or changes more in it "
		    "than added columns: not translated for the server "
		    "(schema/README.md)", what, table);
	st = query(db, "SELECT n.tbl, n.def FROM gen.columns n JOIN "
		   "gen.tables p ON p.state = 'prev' AND p.tbl = n.tbl "
		   "WHERE n.state = 'cur' AND n.cid >= (SELECT count(*) FROM "
		   "gen.columns o WHERE o.state = 'prev' AND o.tbl = n.tbl) "
		   "ORDER BY p.seq, n.cid", NULL, NULL);
	while (row(db, st)) {
		check_clauses(db, what, text(st, 0));
		sbuf_addf(out, "ALTER TABLE %s ADD COLUMN %s;\n", text(st, 0),
			  text(st, 1));
	}
	sqlite3_finalize(st);
}

/*
 * The indexes or views (type) the step made, appended to out as SQLite
 * has their SQL; one it drops or changes is refused.
 */
static void create_objects(sqlite3 *db, const char *what, const char *type,
			   struct sbuf *out)
{
	sqlite3_stmt *st;
	char *name;

	name = query_str(db, "SELECT name FROM gen.objects p WHERE "
			 "state = 'prev' AND type = ?1 AND sql NOT NULL AND "
			 "NOT EXISTS (SELECT 1 FROM gen.objects c WHERE "
			 "c.state = 'cur' AND c.type = p.type AND "
			 "c.name = p.name AND c.sql = p.sql)", type, NULL);
	if (name)
		die(EXIT_BADINPUT, "%s: drops or changes %s %s: not translated "
		    "for the server (schema/README.md)", what, type, name);
	st = query(db, "SELECT sql FROM gen.objects c WHERE state = 'cur' AND "
		   "type = ?1 AND sql NOT NULL AND NOT EXISTS (SELECT 1 FROM "
		   "gen.objects p WHERE p.state = 'prev' AND p.type = c.type "
		   "AND p.name = c.name) ORDER BY seq", type, NULL);
	while (row(db, st))
		sbuf_addf(out, "%s;\n", text(st, 0));
	sqlite3_finalize(st);
}

/*
 * Every hint of COLUMNS (path) names a column of the newest schema, and
 * an integer one an INTEGER: a renamed or dropped column leaves none
 * behind that would silently apply to nothing.
 */
static void check_hints(sqlite3 *db, const char *path)
{
	char *stale = query_str(db, "SELECT h.tbl || '.' || h.col FROM "
				"gen.hint_integer h WHERE NOT EXISTS (SELECT 1 "
				"FROM pragma_table_info(h.tbl) p WHERE "
				"p.name = h.col AND p.type = 'INTEGER' "
				"COLLATE NOCASE) UNION ALL SELECT h.tbl || "
				"'.' || h.col FROM gen.hint_order h WHERE NOT "
				"EXISTS (SELECT 1 FROM pragma_table_info("
				"h.tbl) p WHERE p.name = h.col)", NULL, NULL);

	if (stale)
		die(EXIT_BADINPUT, "%s: %s is not an INTEGER column of the "
		    "newest schema", path, stale);
}

/* A version number as the Makefile gives it ("6", or "0007") */
static int parse_version(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < 1 || v > INT_MAX)
		die(EXIT_USAGE, "'%s': not a schema version\n%s", s, usage);
	return (int)v;
}

/*
 * The server's step to version, appended to out: what migrations
 * [from, version) of steps made, from the catalog before them to the
 * catalog after them.
 */
static void translate(sqlite3 *db, const char *const *steps, int from,
		      int version, struct sbuf *out)
{
	struct sbuf what = SBUF_INIT;
	char *trigger;

	sbuf_addstr(&what, steps[version - 1]);
	if (from + 1 < version)
		sbuf_addf(&what, " (from %s on)", steps[from]);
	apply(db, steps, 0, from);
	snapshot(db, "prev");
	apply(db, steps, from, version);
	snapshot(db, "cur");
	create_tables(db, what.buf, out);
	alter_tables(db, what.buf, out);
	create_objects(db, what.buf, "index", out);
	create_objects(db, what.buf, "view", out);
	/* a server trigger runs a function: nothing to copy SQLite's into */
	trigger = query_str(db, "SELECT name FROM gen.objects WHERE "
			    "type = 'trigger'", NULL, NULL);
	if (trigger)
		die(EXIT_BADINPUT, "%s: trigger %s: not translated for the "
		    "server (schema/README.md)", what.buf, trigger);
	sbuf_addf(out, "UPDATE perfsift_meta SET schema_version = %d;\n",
		  version);
	sbuf_release(&what);
}

int main(int argc, char **argv)
{
	const char *const *steps = (const char *const *)argv + 5;
	struct sbuf out = SBUF_INIT;
	int base, version, from;
	sqlite3 *db;

	if (argc < 6)
		die(EXIT_USAGE, "%s", usage);
	base = parse_version(argv[1]);
	version = parse_version(argv[2]);
	if (version < base || version > argc - 5)
		die(EXIT_USAGE, "version %d: not from the base %d to the last "
		    "migration given, %d", version, base, argc - 5);
	from = version == base ? 0 : version - 1;
	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		die(EXIT_ENV, "cannot open an in-memory database");
	exec(db, gen_tables, "pg-schema");
	load_hints(db, argv[4]);
	sbuf_addf(&out, "-- perfsift's server schema, version %d "
		  "(schema/README.md): made by\n-- scripts/pg-schema.c from ",
		  version);
	if (from)
		sbuf_addf(&out, "%s; do not edit.\n", steps[version - 1]);
	else
		sbuf_addf(&out, "the migrations up to %s\n-- and from %s; do "
			  "not edit.\n\n", steps[version - 1], argv[3]);
	if (!from) {
		read_file(argv[3], &out);
		sbuf_addch(&out, '\n');
	}
	translate(db, steps, from, version, &out);
	apply(db, steps, version, argc - 5);
	check_hints(db, argv[4]);
	sqlite3_close(db);
	if (fwrite(out.buf, 1, out.len, stdout) != out.len || fflush(stdout))
		die(EXIT_ENV, "cannot write the step: %s", strerror(errno));
	sbuf_release(&out);
	return 0;
}
