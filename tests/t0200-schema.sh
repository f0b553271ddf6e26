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
	for t in imports runs variants variant_params sources metrics samples aggregates series commits metric_directions; do
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
	test "$(sqlite3 old.db "PRAGMA user_version")" -ge 3 &&
	sqlite3 old.db "SELECT name FROM sqlite_master WHERE name = '"'"'runs_variant'"'"'" | grep -q . &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"out.json\"))
assert d[\"runs\"][0][\"values\"] == {\"x_ops\": 42.5}, d
"
'

# Version 2 kept the variant columns in runs and in aggregates, params in
# run_params (runs) and as text (aggregates); version 3 moves them into
# one variants table.  Every run and aggregate must find its variant, with
# its params, and the listing commands must show the same as before.
test_expect_success 'a version 2 database becomes version 10: variants, params, aggregates, mail metadata, metric statements, histograms, run_values packed, tables, skipped rows and watch state' '
	cat "$SRC/schema/0001-init.sql" "$SRC/schema/0002-runs-variant-index.sql" |
		sqlite3 v2.db &&
	sqlite3 v2.db "PRAGMA user_version = 2;
		INSERT INTO imports VALUES (1, '"'"'x.csv'"'"', '"'"'abc'"'"', '"'"'csv'"'"', 10, 10, 0);
		INSERT INTO runs VALUES (1, 1, '"'"'csv'"'"', '"'"'t'"'"', '"'"'bs=4k,rw=read'"'"', '"'"'m1'"'"', '"'"'6.1'"'"', NULL, '"'"'6.1'"'"', 0, NULL, 2);
		INSERT INTO runs VALUES (2, 1, '"'"'csv'"'"', '"'"'t'"'"', '"'"'bs=4k,rw=read'"'"', '"'"'m1'"'"', '"'"'6.1'"'"', NULL, '"'"'6.1'"'"', 1, NULL, 3);
		INSERT INTO runs VALUES (3, 1, '"'"'csv'"'"', '"'"'t'"'"', '"'"''"'"', '"'"''"'"', '"'"''"'"', '"'"'abcdef1234'"'"', '"'"'abcdef1234'"'"', 0, NULL, 4);
		INSERT INTO run_params VALUES (1, '"'"'bs'"'"', '"'"'4k'"'"'), (1, '"'"'rw'"'"', '"'"'read'"'"'), (2, '"'"'bs'"'"', '"'"'4k'"'"'), (2, '"'"'rw'"'"', '"'"'read'"'"');
		INSERT INTO metrics VALUES (1, '"'"'x_ops'"'"', NULL);
		INSERT INTO samples VALUES (1, 1, 1.5, 2), (2, 1, 2.5, 3), (3, 1, 9, 4);
		INSERT INTO aggregates(id, import_id, suite, testcase, params, machine, kernel, label, metric_id, stat, value)
			VALUES (1, 1, '"'"'csv'"'"', '"'"'t'"'"', '"'"'bs=8k'"'"', '"'"'m1'"'"', '"'"'6.2'"'"', '"'"'6.2'"'"', 1, '"'"'mean'"'"', 7);" &&
	perfsift --db v2.db runs >runs.out &&
	test "$(sqlite3 v2.db "PRAGMA user_version")" = 10 &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM histograms")" = 0 &&
	test "$(sqlite3 v2.db "SELECT group_concat(run_id || '"'"':'"'"' || n || '"'"':'"'"' || hex(data), '"'"' '"'"') FROM run_values")" = \
		"1:1:01000000000000000000F83F 2:1:010000000000000000000440 3:1:010000000000000000002240" &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM import_meta")" = 0 &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM import_metrics")" = 0 &&
	test "$(sqlite3 v2.db "SELECT coalesce(direction, '"'"'-'"'"') || coalesce(summary, '"'"'-'"'"') FROM metrics")" = -- &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM variants")" = 3 &&
	test "$(sqlite3 v2.db "SELECT group_concat(key || '"'"'='"'"'|| value, '"'"','"'"') FROM variant_params p JOIN variants v ON v.id = p.variant_id WHERE v.label = '"'"'6.2'"'"'")" = bs=8k &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM runs r JOIN variant_params p ON p.variant_id = r.variant_id")" = 4 &&
	perfsift --db v2.db show 6.1 --json >s.json &&
	perfsift --db v2.db show 6.2 --json >a.json &&
	perfsift --db v2.db compare --by param:bs 4k 8k --all --format csv >c.csv &&
	/usr/bin/python3 -c "
import json
s = json.load(open(\"s.json\"))
assert [r[\"values\"][\"x_ops\"] for r in s[\"runs\"]] == [1.5, 2.5], s
assert s[\"runs\"][0][\"params\"] == {\"bs\": \"4k\", \"rw\": \"read\"}, s
a = json.load(open(\"a.json\"))
assert a[\"aggregates\"][0][\"value\"] == 7 and a[\"aggregates\"][0][\"machine\"] == \"m1\", a
" &&
	grep -q "x_ops" c.csv &&
	perfsift --db v2.db show abcdef --json | grep -q "\"commit\": \"abcdef1234\""
'

# Version 8 packs series chunks (lib/store/series.c).  A packed chunk is
# decoded here by a reader of the layout as series.c describes it, and
# turned into the plain pairs of doubles that every chunk of a version 7
# database is; the database taken back to version 7 then migrates and
# reads the same points.
test_expect_success 'series chunks: packed as described; a version 7 database with plain ones reads the same' '
	perfsift --db s7.db import -q "$SRC/tests/data/procfs/mmtests-series/input" \
		"$SRC/tests/data/procfs/lkp-series-fractional/input" >/dev/null &&
	perfsift --db s7.db debug dump >before &&
	grep -c "^series" before >points &&
	test "$(cat points)" = 45 &&
	/usr/bin/python3 - s7.db <<-\EOF &&
	import sqlite3, struct, sys
	db = sqlite3.connect(sys.argv[1])
	def varint(b, i):
	    u, shift = 0, 0
	    while True:
	        c = b[i]; i += 1
	        u |= (c & 0x7f) << shift; shift += 7
	        if not c & 0x80:
	            return (u >> 1) ^ -(u & 1), i
	kinds = set()
	for run, metric, chunk, n, codec, b in db.execute(
	        "SELECT run_id, metric_id, chunk, n, codec, points "
	        "FROM series").fetchall():
	    assert codec == 1, codec
	    flags, i, pts = b[0], 1, []
	    kinds.add(flags)
	    t = dt = v = 0
	    for k in range(n):
	        if flags & 1:
	            d, i = varint(b, i)
	            if k == 0: t = d
	            else: dt += d; t += dt
	            x = float(t)
	        else:
	            x = struct.unpack("<d", b[i:i + 8])[0]; i += 8
	        if flags & 2:
	            d, i = varint(b, i); v += d; y = float(v)
	        else:
	            y = struct.unpack("<d", b[i:i + 8])[0]; i += 8
	        pts.append(struct.pack("<dd", x, y))
	    assert i == len(b), (i, len(b))
	    db.execute("UPDATE series SET points = ?, codec = 0 WHERE run_id = ? "
	               "AND metric_id = ? AND chunk = ?",
	               (b"".join(pts), run, metric, chunk))
	assert kinds == {2, 3}, kinds
	db.execute("ALTER TABLE series DROP COLUMN codec")
	db.execute("DROP TABLE import_tables")
	db.execute("DROP TABLE import_skips")
	db.execute("DROP TABLE watch_series")
	db.execute("DROP TABLE watch_points")
	db.execute("PRAGMA user_version = 7")
	db.commit()
	EOF
	test "$(sqlite3 s7.db "PRAGMA user_version")" = 7 &&
	perfsift --db s7.db debug dump >after &&
	test_cmp before after &&
	test "$(sqlite3 s7.db "PRAGMA user_version")" = 10 &&
	test "$(sqlite3 s7.db "SELECT DISTINCT codec FROM series")" = 0 &&
	test "$(sqlite3 s7.db "SELECT count(*) FROM series WHERE length(points) <> 16 * n")" = 0
'

test_expect_success 'a database from a newer perfsift is refused (exit 4)' '
	sqlite3 future.db "PRAGMA application_id = 1347634772; PRAGMA user_version = 999" &&
	test_expect_code 4 perfsift --db future.db runs 2>err &&
	grep -q "schema version 999 is newer" err
'

test_done
