#ifndef SCHEMA_H
#define SCHEMA_H
/*
 * The schema, embedded from schema/ by scripts/embed-schema.sh: SQLite's
 * migrations (step i brings a file to version i + 1) and PostgreSQL's
 * steps made from them (a base, then one per later version;
 * schema/README.md).
 */
#include <stddef.h>

extern const char *const schema_migrations[];
extern const size_t schema_nr_migrations;

struct schema_step {
	int version;		/* the version a server is at after it */
	const char *sql;
};
extern const struct schema_step schema_pg_steps[];
extern const size_t schema_pg_nr_steps;

#endif
