#!/bin/sh
# The groundwork of the PostgreSQL backend (issue 16): the throwaway
# server of tests/pg.sh starts as an unprivileged user, on a Unix socket
# only, and always stops; schema/pg loads, and its tables, columns, keys,
# foreign keys and indexes are those of the SQLite schema perfsift itself
# creates; the version row; the UNIQUE content hash; deleting an import
# cascades to everything it brought; schema/pg/grants.sql gives a
# read-only role SELECT only and a writing role no DDL.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pg.sh"

need_pg

# the chain: the baseline, then every later step, in order, as one file
PG_SCHEMA=$TRASH/pg-schema.sql
PG_LAST=$(ls "$SRC"/schema/pg/[0-9][0-9][0-9][0-9]-*.sql | sort | tail -n 1)
cat $(ls "$SRC"/schema/pg/[0-9][0-9][0-9][0-9]-*.sql | sort) >"$PG_SCHEMA"

# sql FILE-OR-TEXT: run SQL in the test database (stops at the first
# error), printing tuples unaligned, "|" between columns
sql() {
	pg_psql -d perfsift -c "$1"
}
# sql_as ROLE TEXT: the same, connected as ROLE
sql_as() {
	pg_psql -d perfsift -U "$1" -c "$2"
}

# A perfsift SQLite database of the current schema, to compare with.
perfsift --db "$TRASH/ref.db" runs >/dev/null 2>&1

# each of these prints one sorted list, from SQLite (lite_*) or from the
# server (pg_*), in the same notation
lite_columns() {
	sqlite3 "$TRASH/ref.db" "SELECT m.name || '.' || p.name FROM
		sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type IN ('table', 'view')" | sort
}
pg_columns() {
	sql "SELECT table_name || '.' || column_name FROM
		information_schema.columns WHERE table_schema = 'public' AND
		table_name != 'perfsift_meta'" | sort
}
# PRIMARY KEY and UNIQUE: "table(col,col)"
lite_keys() {
	sqlite3 "$TRASH/ref.db" "SELECT m.name || '(' || (SELECT
			group_concat(name, ',') FROM (SELECT name FROM
			pragma_index_info(l.name) ORDER BY seqno)) || ')'
		FROM sqlite_master m, pragma_index_list(m.name) l
		WHERE m.type = 'table' AND l.origin IN ('pk', 'u')
		UNION
		SELECT m.name || '(' || p.name || ')'
		FROM sqlite_master m, pragma_table_info(m.name) p
		WHERE m.type = 'table' AND p.pk = 1 AND
		      p.type = 'INTEGER' AND (SELECT count(*) FROM
		      pragma_table_info(m.name) WHERE pk > 0) = 1" | sort
}
pg_keys() {
	sql "SELECT c.conrelid::regclass || '(' || string_agg(a.attname, ','
			ORDER BY k.ord) || ')'
		FROM pg_constraint c CROSS JOIN
		     unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND
		     a.attnum = k.attnum
		WHERE c.contype IN ('p', 'u') AND
		      c.connamespace = 'public'::regnamespace AND
		      c.conrelid != 'perfsift_meta'::regclass
		GROUP BY c.oid, c.conrelid" | sort
}
# foreign keys: "table.col>table.col ACTION"
lite_fks() {
	sqlite3 "$TRASH/ref.db" "SELECT m.name || '.' || f.\"from\" || '>' ||
			f.\"table\" || '.' || f.\"to\" || ' ' || f.on_delete
		FROM sqlite_master m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table'" | sort
}
pg_fks() {
	sql "SELECT c.conrelid::regclass || '.' || a.attname || '>' ||
			c.confrelid::regclass || '.' || b.attname || ' ' ||
			CASE c.confdeltype WHEN 'c' THEN 'CASCADE'
			     WHEN 'a' THEN 'NO ACTION' ELSE c.confdeltype::text
			END
		FROM pg_constraint c
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND
		     a.attnum = c.conkey[1]
		JOIN pg_attribute b ON b.attrelid = c.confrelid AND
		     b.attnum = c.confkey[1]
		WHERE c.contype = 'f' AND
		      c.connamespace = 'public'::regnamespace" | sort
}
# the other indexes: "name table(col,col)"
lite_indexes() {
	sqlite3 "$TRASH/ref.db" "SELECT i.name || ' ' || i.tbl_name || '(' ||
			(SELECT group_concat(name, ',') FROM (SELECT name FROM
			pragma_index_info(i.name) ORDER BY seqno)) || ')'
		FROM sqlite_master i WHERE i.type = 'index' AND
		     i.name NOT LIKE 'sqlite_autoindex_%'" | sort
}
pg_indexes() {
	sql "SELECT i.relname || ' ' || x.indrelid::regclass || '(' ||
			string_agg(a.attname, ',' ORDER BY k.ord) || ')'
		FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
		CROSS JOIN unnest(x.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = x.indrelid AND
		     a.attnum = k.attnum
		WHERE i.relnamespace = 'public'::regnamespace AND
		      NOT x.indisprimary AND NOT EXISTS (SELECT 1 FROM
		      pg_constraint c WHERE c.conindid = x.indexrelid)
		GROUP BY i.relname, x.indrelid" | sort
}

# rows IMPORT_ID: how many rows of each table hang on that import
rows() {
	sql "SELECT (SELECT count(*) FROM runs WHERE import_id = $1) || ' ' ||
		(SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
		 WHERE r.import_id = $1) || ' ' ||
		(SELECT count(*) FROM series s JOIN runs r ON r.id = s.run_id
		 WHERE r.import_id = $1) || ' ' ||
		(SELECT count(*) FROM histograms h JOIN runs r ON
		 r.id = h.run_id WHERE r.import_id = $1) || ' ' ||
		(SELECT count(*) FROM aggregates WHERE import_id = $1) || ' ' ||
		(SELECT count(*) FROM sources WHERE import_id = $1) || ' ' ||
		(SELECT count(*) FROM import_meta WHERE import_id = $1) || ' ' ||
		(SELECT count(*) FROM import_metrics WHERE import_id = $1)"
}

# A server started by a child shell that then fails (exit 1) or is
# killed (TERM) must be gone afterwards, its directory too.
cat >"$TRASH/child.sh" <<\EOF
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/perfsift-t7000-child.XXXXXX")
say() { printf '%s\n' "$*"; }
. "$SRC/tests/pg.sh"
pg_start || exit 3
head -n 1 "$PG_DIR/data/postmaster.pid" >"$1/pid"
echo "$PG_DIR" >"$1/dir"
"$PG_BINDIR/psql" -X -A -t -c 'SELECT 1' >"$1/answer"
case $2 in
fail)	false ;;
term)	kill -TERM $$; sleep 5 ;;
esac
exit 1
EOF

for how in fail term; do
	case $how in
	fail)	what='fails' ;;
	term)	what='is killed (TERM)' ;;
	esac
	test_expect_success "a server whose script $what is stopped and removed" '
		mkdir -p $how &&
		test_expect_code 1 env SRC="$SRC" PG_BINDIR="$PG_BINDIR" \
			sh "$TRASH/child.sh" "$TRASH/$how" $how &&
		test "$(cat $how/answer)" = 1 &&
		pid=$(cat $how/pid) && test -n "$pid" &&
		! kill -0 "$pid" 2>/dev/null &&
		! test -e "$(cat $how/dir)"
	'
done

if ! pg_start; then
	test_expect_success 'the throwaway server starts' 'false'
	test_done
	exit
fi

test_expect_success 'the server: no TCP, a socket in its own directory, not root' '
	test "$(pg_psql -c "SHOW listen_addresses")" = "" &&
	test "$(pg_psql -c "SHOW unix_socket_directories")" = "$PGHOST" &&
	test -S "$PGHOST/.s.PGSQL.$PGPORT" &&
	test "$(stat -c %a "$PGHOST")" = 700 &&
	test "$(pg_psql -c "SHOW fsync")" = off &&
	test "$(pg_psql -c "SHOW server_version_num")" -ge 150000 &&
	owner=$(stat -c %u "$PGHOST/data") &&
	test "$owner" != 0 &&
	test "$owner" = "$(stat -c %u "/proc/$(head -n 1 "$PGHOST/data/postmaster.pid")")"
'

test_expect_success 'schema/pg is versioned with the SQLite migrations' '
	latest=$(ls "$SRC"/schema/[0-9][0-9][0-9][0-9]-*.sql | wc -l) &&
	test "$(sqlite3 ref.db "PRAGMA user_version")" = "$latest" &&
	test "$(basename "$PG_LAST" | cut -c1-4)" = "$(printf %04d "$latest")" &&
	test "$(basename "$(ls "$SRC"/schema/[0-9]*.sql | tail -n 1)" | cut -c1-4)" = "$(printf %04d "$latest")"
'

test_expect_success 'the schema loads in one transaction' '
	pg_psql -c "CREATE DATABASE perfsift" &&
	pg_psql -d perfsift -1 -f "$PG_SCHEMA" &&
	test "$(sql "SELECT count(*) FROM pg_tables WHERE schemaname = '"'"'public'"'"'")" = \
		"$(sqlite3 ref.db "SELECT count(*) + 1 FROM sqlite_master WHERE type = '"'"'table'"'"'")"
'

test_expect_success 'the version row says PSFT and the schema version' '
	app=$(sed -n "s/^#define PERFSIFT_APP_ID 0x\([0-9a-fA-F]*\).*/\1/p" "$SRC/lib/store/db.h") &&
	test -n "$app" &&
	echo "$(printf %d "0x$app")|$(sqlite3 ref.db "PRAGMA user_version")" >expect &&
	sql "SELECT application_id, schema_version FROM perfsift_meta" >actual &&
	test_cmp expect actual &&
	test "$(sqlite3 ref.db "PRAGMA application_id")" = "$(printf %d "0x$app")" &&
	test_must_fail sql "INSERT INTO perfsift_meta VALUES (false, 1, 1)" &&
	test_must_fail sql "INSERT INTO perfsift_meta(application_id, schema_version) VALUES (1, 1)"
'

test_expect_success 'every table and view has the columns of the SQLite schema' '
	lite_columns >expect &&
	pg_columns >actual &&
	test "$(wc -l <expect)" -gt 80 &&
	test_cmp expect actual
'

test_expect_success 'the same primary keys and UNIQUE constraints' '
	lite_keys >expect &&
	pg_keys >actual &&
	grep -qx "imports(sha256)" expect &&
	grep -qx "samples(run_id,metric_id)" expect &&
	test_cmp expect actual
'

test_expect_success 'the same foreign keys, cascading the same way' '
	lite_fks >expect &&
	pg_fks >actual &&
	grep -qx "samples.run_id>runs.id CASCADE" expect &&
	grep -qx "runs.variant_id>variants.id NO ACTION" expect &&
	test_cmp expect actual
'

test_expect_success 'the same indexes on the same columns' '
	lite_indexes >expect &&
	pg_indexes >actual &&
	grep -qx "runs_variant runs(variant_id,iteration)" expect &&
	test_cmp expect actual
'

test_expect_success 'an import with one of everything' '
	sql "INSERT INTO imports(path, sha256, format, size, imported_at)
		VALUES ('"'"'a.json'"'"', '"'"'aaaa'"'"', '"'"'fio'"'"', 10, 0);
	INSERT INTO variants(label, machine) VALUES ('"'"'v1'"'"', '"'"'m1'"'"');
	INSERT INTO variant_params VALUES (1, '"'"'bs'"'"', '"'"'4k'"'"');
	INSERT INTO sources(import_id, path) VALUES (1, '"'"'x/fio.json'"'"');
	INSERT INTO runs(import_id, variant_id, suite, iteration)
		VALUES (1, 1, '"'"'fio'"'"', 0), (1, 1, '"'"'fio'"'"', 1);
	INSERT INTO metrics(name) VALUES ('"'"'fio.read_iops'"'"'),
		('"'"'fio.read_clat_ns'"'"');
	INSERT INTO samples(run_id, metric_id, value, line)
		VALUES (1, 1, 1.5, 2), (1, 2, 2.5, 3), (2, 1, 1.25, 4);
	INSERT INTO series(run_id, metric_id, chunk, n, points)
		VALUES (1, 1, 0, 1, '"'"'\\x0000000000000000000000000000f03f'"'"');
	INSERT INTO histograms(run_id, metric_id, n, bins)
		VALUES (1, 2, 1, '"'"'\\x0000000000000000000000000000f03f'"'"');
	INSERT INTO aggregates(import_id, variant_id, suite, metric_id, stat,
		value) VALUES (1, 1, '"'"'fio'"'"', 1, '"'"'mean'"'"', 1.4);
	INSERT INTO import_meta VALUES (1, '"'"'subject'"'"', '"'"'x'"'"');
	INSERT INTO import_metrics VALUES (1, 1, 0), (1, 2, 1);" &&
	test "$(rows 1)" = "2 3 1 1 1 1 1 2" &&
	test "$(sql "SELECT encode(points, '"'"'hex'"'"') FROM series")" = \
		0000000000000000000000000000f03f &&
	test "$(sql "SELECT label FROM run_variants WHERE id = 2")" = v1
'

test_expect_success 'the content hash is unique: a second import of it is refused' '
	test_must_fail sql "INSERT INTO imports(path, sha256, format, size,
		imported_at) VALUES ('"'"'b.json'"'"', '"'"'aaaa'"'"',
		'"'"'fio'"'"', 10, 1)" 2>err &&
	grep "duplicate key value violates unique constraint \"imports_sha256_key\"" err &&
	test "$(sql "SELECT count(*) FROM imports")" = 1
'

test_expect_success 'deleting an import deletes its runs, samples and the rest' '
	sql "INSERT INTO imports(path, sha256, format, size, imported_at)
		VALUES ('"'"'c.csv'"'"', '"'"'cccc'"'"', '"'"'csv'"'"', 5, 2);
	INSERT INTO runs(import_id, variant_id, suite) SELECT id, 1,
		'"'"'csv'"'"' FROM imports WHERE sha256 = '"'"'cccc'"'"';
	INSERT INTO samples(run_id, metric_id, value) SELECT max(id), 1, 7
		FROM runs;" &&
	other=$(sql "SELECT id FROM imports WHERE sha256 = '"'"'cccc'"'"'") &&
	test "$(rows "$other")" = "1 1 0 0 0 0 0 0" &&
	sql "DELETE FROM imports WHERE id = 1" &&
	test "$(rows 1)" = "0 0 0 0 0 0 0 0" &&
	test "$(rows "$other")" = "1 1 0 0 0 0 0 0" &&
	test "$(sql "SELECT count(*) FROM samples")" = 1 &&
	test "$(sql "SELECT count(*) FROM variants") $(sql "SELECT count(*) FROM metrics")" = "1 2"
'

test_expect_success 'a sample of a metric that does not exist is refused' '
	test_must_fail sql "INSERT INTO samples(run_id, metric_id, value)
		SELECT max(id), 99, 1 FROM runs" 2>err &&
	grep "violates foreign key constraint" err
'

test_expect_success 'grants.sql: roles for reading and for writing' '
	sql "CREATE ROLE perfsift_ro LOGIN; CREATE ROLE perfsift_rw LOGIN" &&
	pg_psql -d perfsift -v reader=perfsift_ro -v writer=perfsift_rw \
		-f "$SRC/schema/pg/grants.sql"
'

test_expect_success 'the read-only role reads every table and writes none' '
	for t in $(sql "SELECT tablename FROM pg_tables WHERE
			schemaname = '"'"'public'"'"'") run_variants; do
		sql_as perfsift_ro "SELECT count(*) FROM $t" >/dev/null ||
			{ echo "cannot read $t"; exit 1; }
	done &&
	test "$(sql_as perfsift_ro "SELECT count(*) FROM samples s JOIN
		runs r ON r.id = s.run_id JOIN variants v ON
		v.id = r.variant_id")" = 1 &&
	test_must_fail sql_as perfsift_ro "INSERT INTO imports(path, sha256,
		format, size, imported_at) VALUES ('"'"'d'"'"', '"'"'dddd'"'"',
		'"'"'csv'"'"', 1, 3)" 2>err &&
	grep "permission denied for table imports" err &&
	test_must_fail sql_as perfsift_ro "DELETE FROM samples" 2>err &&
	grep "permission denied for table samples" err &&
	test_must_fail sql_as perfsift_ro "UPDATE metrics SET unit = '"'"'x'"'"'" 2>err &&
	grep "permission denied for table metrics" err &&
	test "$(sql "SELECT count(*) FROM imports") $(sql "SELECT count(*) FROM samples")" = "1 1"
'

test_expect_success 'the writing role imports, and cannot change the schema nor its version' '
	sql_as perfsift_rw "INSERT INTO imports(path, sha256, format, size,
		imported_at) VALUES ('"'"'e'"'"', '"'"'eeee'"'"', '"'"'csv'"'"', 1, 4);
	INSERT INTO metrics(name) VALUES ('"'"'m.new'"'"')" &&
	test "$(sql "SELECT count(*) FROM imports") $(sql "SELECT count(*) FROM metrics")" = "2 3" &&
	test_must_fail sql_as perfsift_rw "UPDATE perfsift_meta SET schema_version = 99" 2>err &&
	grep "permission denied for table perfsift_meta" err &&
	test_must_fail sql_as perfsift_rw "DROP TABLE samples" 2>err &&
	grep "must be owner of table samples" err &&
	test_must_fail sql_as perfsift_rw "CREATE TABLE x (a int)" 2>err &&
	grep "permission denied for schema public" err
'

test_done
