#!/bin/sh
# perfsift push --to TARGET (issue 16): a database copied into another,
# import by import, idempotently.  The project's own inputs (CSV, fio
# JSON+ with histograms, fio logs with series, an lkp tree with members,
# an MMTests tree with metric positions and summaries, a robot mbox with
# aggregates and mail headers) are imported into a.db and pushed into
# SQLite targets: every column of every table must arrive (compared
# modulo ids), and the commands must answer the same.  A second push
# copies nothing; a target holding some imports gets the others only; a
# push killed mid-import leaves whole imports and the next one completes
# it; an unfinished import is skipped; a bad target is refused
# untouched.  The same checks against a PostgreSQL server end the script,
# with a push killed mid-way there too.
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data
SQ="'"
F=$SRC/tests/fixtures

# canon DB: every row of every table, ids replaced by what they point to
# (an import by its hash, a run or member by its import and rank, a
# variant by its identity, a metric by its name), sorted
canon() {
	sqlite3 -separator '|' "$1" <<'EOF' | sort
CREATE TEMP VIEW rk AS SELECT r.id, i.sha256 || '#' || row_number() OVER
	(PARTITION BY r.import_id ORDER BY r.id) AS k
	FROM runs r JOIN imports i ON i.id = r.import_id;
CREATE TEMP VIEW sk AS SELECT s.id, i.sha256 || ':' || s.path || '#' ||
	row_number() OVER (PARTITION BY s.import_id ORDER BY s.id) AS k
	FROM sources s JOIN imports i ON i.id = s.import_id;
CREATE TEMP VIEW vk AS SELECT id, label || '/' || kernel || '/' ||
	commit_sha || '/' || machine || '/' || testcase || '/' || params AS k
	FROM variants;
CREATE TEMP VIEW ak AS SELECT a.id, i.sha256 || '#' || row_number() OVER
	(PARTITION BY a.import_id ORDER BY a.id) AS k
	FROM aggregates a JOIN imports i ON i.id = a.import_id;
SELECT 'import', path, sha256, format, size, file_size, is_dir, message
	FROM imports;
SELECT 'imported_at', sha256, imported_at FROM imports;
SELECT 'source', k FROM sk;
SELECT 'meta', i.sha256, m.key, m.value FROM import_meta m
	JOIN imports i ON i.id = m.import_id;
SELECT 'table', i.sha256, t.seq, t.line, t.kind, t.title, t.columns,
	t.rows_read, t.rows_skipped FROM import_tables t
	JOIN imports i ON i.id = t.import_id;
SELECT 'skip', i.sha256, s.seq, s.line, s.table_seq, s.reason, s.text
	FROM import_skips s JOIN imports i ON i.id = s.import_id;
SELECT 'variant', k FROM vk;
SELECT 'vparam', vk.k, p.key, p.value FROM variant_params p
	JOIN vk ON vk.id = p.variant_id;
SELECT 'metric', name, unit, kind, direction, summary FROM metrics;
SELECT 'position', i.sha256, m.name, p.position FROM import_metrics p
	JOIN imports i ON i.id = p.import_id JOIN metrics m ON m.id = p.metric_id;
SELECT 'run', rk.k, vk.k, r.suite, r.iteration, r.start_time, sk.k, r.line
	FROM runs r JOIN rk ON rk.id = r.id JOIN vk ON vk.id = r.variant_id
	LEFT JOIN sk ON sk.id = r.source_id;
SELECT 'sample', rk.k, m.name, s.value, typeof(s.value), s.line, sk.k,
	s.derived FROM samples s JOIN rk ON rk.id = s.run_id
	JOIN metrics m ON m.id = s.metric_id LEFT JOIN sk ON sk.id = s.source_id;
SELECT 'series', rk.k, m.name, s.chunk, s.n, hex(s.points), sk.k, s.line
	FROM series s JOIN rk ON rk.id = s.run_id
	JOIN metrics m ON m.id = s.metric_id LEFT JOIN sk ON sk.id = s.source_id;
SELECT 'hist', rk.k, m.name, h.n, hex(h.bins), sk.k, h.line
	FROM histograms h JOIN rk ON rk.id = h.run_id
	JOIN metrics m ON m.id = h.metric_id LEFT JOIN sk ON sk.id = h.source_id;
SELECT 'aggregate', ak.k, vk.k, a.suite, m.name, a.stat, a.value, a.stddev,
	a.stddev_kind, a.stddev_source, a.n, a.marker, sk.k, a.line,
	a.change_source, a.change_base FROM aggregates a JOIN ak ON ak.id = a.id
	JOIN vk ON vk.id = a.variant_id JOIN metrics m ON m.id = a.metric_id
	LEFT JOIN sk ON sk.id = a.source_id;
SELECT 'run_values', rk.k, v.n, length(v.data), hex(substr(v.data, 5, 8))
	FROM run_values v JOIN rk ON rk.id = v.run_id;
SELECT 'commit', sha, position, parents, subject, date FROM commits;
SELECT 'direction', pattern, direction FROM metric_directions;
EOF
}

# same_answers A B [unordered]: the commands answer the same on both
# databases (ids aside: a target that held imports before numbers its
# own rows); unordered: but for those that follow import order (runs,
# regressions without commit order), when B held imports before
same_answers() {
	k=0
	for db in "$1" "$2"; do
		k=$((k + 1))
		{
			[ -n "${3:-}" ] || perfsift --db "$db" runs --json
			perfsift --db "$db" metrics --json
			perfsift --db "$db" show v6.1 --json
			perfsift --db "$db" show 6.1-patched --json
			perfsift --db "$db" compare v6.1 patched --all --format json
			perfsift --db "$db" compare 6.1-vanilla 6.1-patched --all \
				--format json
			perfsift --db "$db" compare 6.1-vanilla 6.1-patched \
				--format mmtests
			[ -n "${3:-}" ] || perfsift --db "$db" regressions --json
		} | grep -v '"id":' >answers.$k || return 1
	done
	test_cmp answers.1 answers.2
}

# the schema's columns, each of which canon shows (a new column or table
# fails here: push.c and canon must learn it); watch's tables are what
# one database's watch reported, which push leaves (docs/changepoints.md)
cat >columns.expect <<'EOF'
aggregates.change_base
aggregates.change_source
aggregates.id
aggregates.import_id
aggregates.line
aggregates.marker
aggregates.metric_id
aggregates.n
aggregates.source_id
aggregates.stat
aggregates.stddev
aggregates.stddev_kind
aggregates.stddev_source
aggregates.suite
aggregates.value
aggregates.variant_id
commits.date
commits.parents
commits.position
commits.sha
commits.subject
histograms.bins
histograms.line
histograms.metric_id
histograms.n
histograms.run_id
histograms.source_id
import_meta.import_id
import_meta.key
import_meta.value
import_metrics.import_id
import_metrics.metric_id
import_metrics.position
import_skips.import_id
import_skips.line
import_skips.reason
import_skips.seq
import_skips.table_seq
import_skips.text
import_tables.columns
import_tables.import_id
import_tables.kind
import_tables.line
import_tables.rows_read
import_tables.rows_skipped
import_tables.seq
import_tables.title
imports.file_size
imports.format
imports.id
imports.imported_at
imports.is_dir
imports.message
imports.path
imports.sha256
imports.size
metric_directions.direction
metric_directions.pattern
metrics.direction
metrics.id
metrics.kind
metrics.name
metrics.summary
metrics.unit
run_values.data
run_values.n
run_values.run_id
runs.id
runs.import_id
runs.iteration
runs.line
runs.source_id
runs.start_time
runs.suite
runs.variant_id
samples.derived
samples.line
samples.metric_id
samples.run_id
samples.source_id
samples.value
series.chunk
series.codec
series.line
series.metric_id
series.n
series.points
series.run_id
series.source_id
sources.id
sources.import_id
sources.path
variant_params.key
variant_params.value
variant_params.variant_id
variants.commit_sha
variants.id
variants.kernel
variants.label
variants.machine
variants.params
variants.testcase
EOF

test_expect_success 'the schema has the tables and columns push copies' '
	perfsift --db ref.db runs >/dev/null &&
	sqlite3 ref.db "SELECT m.name || ${SQ}.${SQ} || p.name FROM sqlite_master m,
		pragma_table_info(m.name) p WHERE m.type = ${SQ}table${SQ}
		AND m.name NOT GLOB ${SQ}watch_*${SQ}" |
		sort >columns &&
	test_cmp columns.expect columns
'

test_expect_success 'a database of every kind of input' '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 3 &&
	perfsift --db a.db import $D/csv/basic/input $D/csv/aggregates/input \
		$F/fio/nj2-randread.jsonplus.json \
		$D/lkp-tree/stats-route/input $D/mmtests-tree/work/log >out &&
	perfsift --db a.db import --format fio-log \
		$D/fio-log/window-means/input >>out &&
	test_expect_code 3 perfsift --db a.db import \
		$F/mail/robot-thread.mbox >>out 2>err &&
	perfsift --db a.db import --format lkp-table \
		$D/lkp-table/bad-row-columns/input >>out 2>>err &&
	perfsift --db a.db commits import --repo repo >>out &&
	perfsift --db a.db metrics --set-direction "fio.*lat*=lower" >>out &&
	canon a.db >a.canon &&
	for kind in import source meta table skip variant vparam metric \
		position run sample series hist aggregate run_values commit \
		direction; do
		grep -q "^$kind|" a.canon || { echo "no $kind rows"; exit 1; }
	done
'

test_expect_success 'push copies every row; the commands answer the same' '
	perfsift --db a.db push --to b.db >out &&
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	test "$(grep -c "^pushed .* ([0-9]* runs\{0,1\}, [0-9]* samples\{0,1\}\(, [0-9]* aggregates\{0,1\}\)\{0,1\})$" out)" = "$n" &&
	grep -q "^pushed /.*/csv/basic/input (5 runs, 5 samples)$" out &&
	grep -q "^pushed /.*/csv/aggregates/input (0 runs, 0 samples, 3 aggregates)$" out &&
	grep -q "^pushed /.*/robot-thread.mbox message 1 (0 runs, 0 samples, 14 aggregates)$" out &&
	grep -q "^pushed 3 commits, 1 direction override$" out &&
	test_last_line "pushed $n imports (0 already there)" out &&
	canon b.db >b.canon &&
	test_cmp a.canon b.canon &&
	same_answers a.db b.db &&
	test_db_ok b.db
'

test_expect_success 'a second push copies nothing' '
	perfsift --db a.db push --to b.db >out &&
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	echo "pushed 0 imports ($n already there)" >expect &&
	test_cmp expect out &&
	canon b.db >b.canon &&
	test_cmp a.canon b.canon
'

test_expect_success 'a target holding some imports gets the others only' '
	perfsift --db p.db import $F/fio/nj2-randread.jsonplus.json \
		$D/csv/basic/input >/dev/null &&
	perfsift --db a.db push --to p.db >out &&
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	test_last_line "pushed $((n - 2)) imports (2 already there)" out &&
	! grep -q "csv/basic\|nj2-randread" out &&
	canon p.db | grep -v "^imported_at|" >p.canon &&
	grep -v "^imported_at|" a.canon >a.canon-at &&
	test_cmp a.canon-at p.canon &&
	same_answers a.db p.db unordered
'

test_expect_success 'a metric the target knows keeps what it says, gains what it lacks' '
	sqlite3 a.db "SELECT name FROM metrics WHERE unit IS NOT NULL AND
		direction IS NOT NULL ORDER BY id LIMIT 1" >name &&
	m=$(cat name) && test -n "$m" &&
	perfsift --db m.db runs >/dev/null &&
	sqlite3 m.db "INSERT INTO metrics(name, unit) VALUES (${SQ}$m${SQ}, NULL);
		INSERT INTO metrics(name, unit) VALUES (${SQ}fio.read_iops${SQ}, ${SQ}x${SQ})" &&
	perfsift --db a.db push --to m.db >/dev/null &&
	test "$(sqlite3 m.db "SELECT unit, direction FROM metrics WHERE name = ${SQ}$m${SQ}")" = \
	     "$(sqlite3 a.db "SELECT unit, direction FROM metrics WHERE name = ${SQ}$m${SQ}")" &&
	test "$(sqlite3 m.db "SELECT unit FROM metrics WHERE name = ${SQ}fio.read_iops${SQ}")" = x
'

test_expect_success 'an unfinished import in the source is skipped' '
	cp a.db u.db &&
	sqlite3 u.db "UPDATE imports SET sha256 = ${SQ}pending-1-2.3${SQ} WHERE id =
		(SELECT max(id) FROM imports)" &&
	perfsift --db u.db push --to v.db >out &&
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	test_last_line "pushed $((n - 1)) imports (0 already there, 1 unfinished skipped)" out &&
	test "$(sqlite3 v.db "SELECT count(*) FROM imports WHERE sha256 LIKE
		${SQ}pending-%${SQ}")" = 0
'

test_expect_success 'the database itself as target: usage error, nothing written' '
	cp a.db a.copy &&
	test_expect_code 2 perfsift --db a.db push --to a.db 2>err &&
	grep -q "is the database itself" err &&
	test_expect_code 2 perfsift --db a.db push --to ./a.db 2>err &&
	ln -s a.db link.db &&
	test_expect_code 2 perfsift --db a.db push --to link.db 2>err &&
	test_expect_code 2 perfsift --db a.db push 2>err &&
	grep -q "needed" err &&
	cmp a.db a.copy
'

test_expect_success 'a target that is not a perfsift database is refused untouched' '
	echo "not a database" >text.db &&
	cp text.db text.copy &&
	test_expect_code 4 perfsift --db a.db push --to text.db >out 2>err &&
	grep -q "text.db" err &&
	cmp text.db text.copy &&
	sqlite3 other.db "CREATE TABLE x(a); INSERT INTO x VALUES (1)" &&
	cp other.db other.copy &&
	test_expect_code 4 perfsift --db a.db push --to other.db >out 2>err &&
	grep -q "not a perfsift database" err &&
	cmp other.db other.copy &&
	test ! -e other.db-wal
'

test_expect_success 'a source that does not exist is not created' '
	test_expect_code 4 perfsift --db nothing.db push --to b.db 2>err &&
	grep -q "nothing.db: no such database" err &&
	test ! -e nothing.db
'

test_expect_success 'a write that fails rolls its import back and stops; the next push completes' '
	perfsift --db e.db runs >/dev/null &&
	m=$(sqlite3 a.db "SELECT m.name FROM samples s JOIN runs r ON
		r.id = s.run_id JOIN metrics m ON m.id = s.metric_id
		ORDER BY r.import_id DESC LIMIT 1") &&
	sqlite3 e.db "CREATE TRIGGER boom BEFORE INSERT ON samples
		WHEN NEW.metric_id = (SELECT id FROM metrics WHERE
		name = ${SQ}$m${SQ}) BEGIN SELECT RAISE(ABORT, ${SQ}boom${SQ}); END" &&
	test_expect_code 4 perfsift --db a.db push --to e.db >out 2>err &&
	grep -q "database: boom" err &&
	grep -q "), then stopped on an error$" out &&
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	had=$(sqlite3 e.db "SELECT count(*) FROM imports") &&
	test "$had" -lt "$n" &&
	sqlite3 a.db "SELECT i.sha256, count(r.id) FROM imports i LEFT JOIN
		runs r ON r.import_id = i.id GROUP BY i.id ORDER BY i.id
		LIMIT $had" >runs.a &&
	sqlite3 e.db "SELECT i.sha256, count(r.id) FROM imports i LEFT JOIN
		runs r ON r.import_id = i.id GROUP BY i.id ORDER BY i.id" >runs.e &&
	test_cmp runs.a runs.e &&
	test "$(sqlite3 e.db "SELECT count(*) FROM runs WHERE import_id NOT IN
		(SELECT id FROM imports)")" = 0 &&
	sqlite3 e.db "DROP TRIGGER boom" &&
	perfsift --db a.db push --to e.db >out &&
	test_last_line "pushed $((n - had)) imports ($had already there)" out &&
	canon e.db >e.canon &&
	test_cmp a.canon e.canon
'

# big_db DB RUNS METRICS: DB holds a small import, then a big one of one
# label, RUNS x METRICS samples
big_db() {
	perfsift --db "$1" import $D/csv/basic/input >/dev/null &&
	awk -v n="$2" -v k="$3" "BEGIN { print \"label,iteration,metric,value\"
		for (i = 0; i < n; i++) for (m = 0; m < k; m++)
			printf \"big,%d,m%05d,%d.5\n\", i, m, (i * m) % 977 }" >big-$2.csv &&
	perfsift --db "$1" import big-$2.csv >/dev/null
}

# a big import: 40 runs of 50,000 metrics, 2 million samples
test_expect_success 'a push killed mid-import leaves whole imports; the next completes it' '
	big_db k.db 40 50000 &&
	canon k.db >k.canon &&
	killed= &&
	for try in 1 2 3 4 5; do
		rm -f t.db t.db-wal t.db-shm
		"$PERFSIFT" --db k.db push --to t.db >push.out 2>&1 &
		pid=$!
		i=0
		until [ "$(sqlite3 t.db "SELECT count(*) FROM imports" \
			2>/dev/null)" = 1 ] || [ $i -ge 500 ]; do
			i=$((i + 1))
			sleep 0.01
		done
		sleep 0.$try
		if kill -9 $pid 2>/dev/null; then
			wait $pid || :
			killed=yes
			break
		fi
		wait $pid || :
	done &&
	test "$killed" = yes &&
	test_db_ok t.db &&
	test "$(sqlite3 t.db "SELECT count(*) FROM imports
		WHERE path = ${SQ}big-40.csv${SQ}")" = 0 &&
	had=$(sqlite3 t.db "SELECT count(*) FROM imports") &&
	test "$(sqlite3 t.db "SELECT count(*) FROM samples")" = $((had * 5)) &&
	perfsift --db k.db push --to t.db >out &&
	test_last_line "pushed $((2 - had)) import$([ $had = 1 ] || echo s) ($had already there)" out &&
	grep -q "^pushed big-40.csv (40 runs, 2000000 samples)$" out &&
	canon t.db >t.canon &&
	test_cmp k.canon t.canon
'

# The server: the same pushes into PostgreSQL (need_pg skips the rest
# only where no server can run).
. "$SRC/tests/pg.sh"
need_pg
pg_start
pg_psql -d postgres -c "CREATE DATABASE push" >/dev/null
pg_psql -d postgres -c "CREATE DATABASE pushk" >/dev/null
URI="postgresql:///push?host=$PGHOST&port=$PGPORT&user=$PGUSER"
URIK="postgresql:///pushk?host=$PGHOST&port=$PGPORT&user=$PGUSER"

test_expect_success 'push into a server; the commands answer the same' '
	n=$(sqlite3 a.db "SELECT count(*) FROM imports") &&
	perfsift --db a.db push --to "$URI" >out &&
	test_last_line "pushed $n imports (0 already there)" out &&
	same_answers a.db "$URI" &&
	perfsift --db a.db push --to "$URI" >out &&
	test_last_line "pushed 0 imports ($n already there)" out &&
	same_answers a.db "$URI"
'

test_expect_success 'a push into a server killed mid-way: the next completes it' '
	big_db k2.db 100 2000 &&
	gen_cmp_csv 20 5 3 >after.csv &&
	perfsift --db k2.db import after.csv >/dev/null || return 1
	"$PERFSIFT" --db k2.db push --to "$URIK" >push.out 2>&1 &
	pid=$!
	# the big import is being written: the writers'\'' lock is held
	i=0
	until [ "$(pg_psql -d pushk -c "SELECT count(*) FROM imports")" = 1 ] ||
	      [ $i -ge 500 ]; do
		i=$((i + 1))
		sleep 0.01
	done
	pg_wait_writer pushk
	sleep 0.3
	kill -9 $pid &&
	! wait $pid &&
	echo 1 >expect &&
	pg_psql -d pushk -c "SELECT count(*) FROM imports" >n &&
	test_cmp expect n &&
	perfsift --db k2.db push --to "$URIK" >out &&
	test_last_line "pushed 2 imports (1 already there)" out &&
	same_answers k2.db "$URIK"
'

test_done
