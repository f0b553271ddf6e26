#!/bin/sh
# The schema is embedded in the binary and applied on first use; a
# database of an older version is upgraded by the PRAGMA user_version
# migrations (schema/NNNN-*.sql) with its data intact; a newer one is
# refused.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a new database gets the whole schema' '
	perfsift --db new.db runs 2>/dev/null &&
	test "$(sqlite3 new.db "PRAGMA user_version")" = \
		"$(ls "$SRC"/schema/*.sql | wc -l)" &&
	test "$(sqlite3 new.db "PRAGMA journal_mode")" = wal &&
	sqlite3 new.db "SELECT name FROM sqlite_master WHERE type = '"'"'table'"'"' ORDER BY 1" >tables &&
	for t in imports runs run_params metrics samples aggregates series commits metric_directions; do
		grep -qx "$t" tables || { echo "no table $t"; exit 1; }
	done
'

test_expect_success 'a version 1 database is upgraded, data intact' '
	sqlite3 old.db <"$SRC/schema/0001-init.sql" &&
	sqlite3 old.db "PRAGMA user_version = 1;
		INSERT INTO imports VALUES (1, '"'"'x.csv'"'"', '"'"'abc'"'"', '"'"'csv'"'"', 10, 10, 0);
		INSERT INTO runs(id, import_id, suite, label, iteration) VALUES (1, 1, '"'"'csv'"'"', '"'"'A'"'"', 0);
		INSERT INTO metrics VALUES (1, '"'"'x_ops'"'"', NULL);
		INSERT INTO samples VALUES (1, 1, 42.5, 2);" &&
	perfsift --db old.db show A --json >out.json &&
	test "$(sqlite3 old.db "PRAGMA user_version")" -ge 2 &&
	sqlite3 old.db "SELECT name FROM sqlite_master WHERE name = '"'"'runs_variant_iteration'"'"'" | grep -q . &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"out.json\"))
assert d[\"runs\"][0][\"values\"] == {\"x_ops\": 42.5}, d
"
'

test_expect_success 'a database from a newer perfsift is refused (exit 4)' '
	sqlite3 future.db "PRAGMA user_version = 999" &&
	test_expect_code 4 perfsift --db future.db runs 2>err &&
	grep -q "schema version 999 is newer" err
'

test_done
