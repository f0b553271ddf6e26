#!/bin/sh
# run_values (schema 0007): each run's samples packed in one blob, the
# copy compare reads.  It must hold exactly what samples holds after
# every kind of import (CSV rows that come back to a run, series reduced
# into derived samples, trees, replaced and deleted imports), and compare
# must print the same bytes whether it reads the blobs or the rows.
. "$(dirname "$0")/lib.sh"

# unpack.py DB: the samples and the unpacked run_values, each sorted,
# must be the same rows; prints the count
cat >unpack.py <<'PY'
import sqlite3, struct, sys
db = sqlite3.connect(sys.argv[1])
rows = sorted((r, m, v, 1 if d else 0) for r, m, v, d in
              db.execute("SELECT run_id, metric_id, value, derived FROM samples"))
packed = []
for run, n, data in db.execute("SELECT run_id, n, data FROM run_values"):
    assert len(data) == 12 * n, (run, n, len(data))
    last = -1
    for i in range(n):
        word, value = struct.unpack_from("<Id", data, 12 * i)
        mid = word & 0x7fffffff
        assert mid > last, ("not ascending", run, mid, last)
        last = mid
        packed.append((run, mid, value, word >> 31))
packed.sort()
runs_with = {r for r, _, _, _ in rows}
runs_packed = {r for r, in db.execute("SELECT run_id FROM run_values")}
if rows != packed or runs_with != runs_packed:
    print("differ: %d samples, %d packed" % (len(rows), len(packed)))
    sys.exit(1)
print(len(rows))
PY

need_python3 'run_values checked against samples'

test_expect_success 'CSV rows that come back to their run, and iterations' '
	cat >back.csv <<-\EOF &&
	label,metric,value
	a,x_ops,1
	a,y_ms,2
	a,x_ops,3
	b,x_ops,4
	a,y_ms,5
	a,z_ops,6
	EOF
	perfsift import back.csv "$SRC/tests/data/csv/iterations/input" >out &&
	test "$(python3 unpack.py "$PERFSIFT_DB")" = \
		"$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM samples")" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_values")" -gt 3
'

test_expect_success 'fio with logs (derived samples), procfs series, trees' '
	for d in fio-log/window-means lkp-tree/stats-route lkp-tree/raw-route; do
		perfsift import "$SRC/tests/data/$d/input" >>out 2>>err || return 1
	done &&
	perfsift import "$SRC/tests/data/mmtests-tree/work" >>out 2>>err &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM samples WHERE derived")" -gt 0 &&
	python3 unpack.py "$PERFSIFT_DB" >n &&
	test "$(cat n)" = "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM samples")"
'

test_expect_success 'a changed file replaces its import: the old runs lose their blobs' '
	printf "label,metric,value\nc,x_ops,1\nc,x_ops,2\n" >r.csv &&
	perfsift import r.csv >out &&
	printf "label,metric,value\nc,x_ops,7\n" >r.csv &&
	perfsift import r.csv >out &&
	python3 unpack.py "$PERFSIFT_DB" >/dev/null &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_values v LEFT JOIN runs r ON r.id = v.run_id WHERE r.id IS NULL")" = 0
'

test_expect_success 'compare prints the same bytes from the blobs and from the rows' '
	PERFSIFT_DB=$TRASH/cmp.db &&
	gen_cmp_csv 300 5 7 >cmp.csv &&
	perfsift import cmp.csv >/dev/null &&
	for f in text json csv markdown lkp mmtests; do
		perfsift compare base new --all --format $f >blob.$f || return 1
	done &&
	grep -q improvement blob.text &&
	sqlite3 "$PERFSIFT_DB" "DELETE FROM run_values" &&
	for f in text json csv markdown lkp mmtests; do
		perfsift compare base new --all --format $f >rows.$f &&
		test_cmp blob.$f rows.$f || return 1
	done
'

# More values than an import holds in memory for its blobs (4 MiB,
# 262,144 values; lib/store/values.h): in run order the runs before the
# current one are written when it fills; in metric order every run
# gets values after its blob was written and is packed from the table.
test_expect_success 'past the values an import holds: in run order and interleaved' '
	awk "BEGIN { print \"label,iteration,metric,value\";
		for (l = 0; l < 2; l++) for (i = 0; i < 4; i++)
			for (m = 0; m < 35000; m++)
				printf \"%s,%d,m%05d_ops,%d.5\n\", l ? \"b\" : \"a\", i, m, m + i }" \
		>seq.csv &&
	(head -n 1 seq.csv && tail -n +2 seq.csv | sort -t, -k3,3 -k1,1 -k2,2n) \
		>mixed.csv &&
	for f in seq mixed; do
		PERFSIFT_DB=$TRASH/held-$f.db &&
		perfsift import $f.csv >out &&
		grep "8 runs, 280000 samples" out &&
		test "$(python3 unpack.py "$PERFSIFT_DB")" = 280000 &&
		test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_values")" = 8 ||
		return 1
	done
'

# damage.py DB HOW: the first run's blob with its first two entries
# swapped (HOW=swap) or its first entry twice (HOW=dup); prints the run
cat >damage.py <<\EOF
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
run, data = db.execute("SELECT run_id, data FROM run_values "
                       "ORDER BY run_id LIMIT 1").fetchone()
e1, e2, rest = data[:12], data[12:24], data[24:]
data = e2 + e1 + rest if sys.argv[2] == "swap" else e1 + e1 + rest
db.execute("UPDATE run_values SET data = ? WHERE run_id = ?", (data, run))
db.commit()
print(run)
EOF

test_expect_success 'a run_values blob out of order is refused, not merged wrongly' '
	PERFSIFT_DB=$TRASH/bad.db &&
	gen_cmp_csv 300 5 7 >cmp.csv &&
	perfsift import cmp.csv >/dev/null &&
	cp "$PERFSIFT_DB" good.db &&
	run=$(python3 damage.py "$PERFSIFT_DB" swap) &&
	test_expect_code 4 perfsift compare base new --all >out 2>err &&
	test ! -s out &&
	grep "the values of run $run are out of order (a damaged run_values blob)" err &&
	cp good.db "$PERFSIFT_DB" &&
	run=$(python3 damage.py "$PERFSIFT_DB" dup) &&
	test_expect_code 4 perfsift compare base new --all >out 2>err &&
	test ! -s out &&
	grep "the values of run $run are out of order" err
'

test_done
