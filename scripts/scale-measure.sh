#!/bin/sh
# scripts/scale-measure.sh: the measured figures of docs/scale.md.
#
#   scripts/scale-measure.sh [WORKDIR]     (after `make`; about 10 minutes)
#
# Makes COMMITS commits (git, empty, fixed dates) x RUNS runs x METRICS
# metrics of samples (default 100 x 10 x 10,000 = 10^7), one CSV file per
# run, and loads them
#   - into SQLite through perfsift itself: `perfsift commits import`, then
#     `perfsift import` of the directory of CSV files (one transaction per
#     file, as always);
#   - into a throwaway PostgreSQL server (tests/pg.sh) holding the
#     schema/pg DDL: the same rows, read back from the SQLite database, by
#     psql \copy (COPY), one \copy and so one transaction per run, with
#     every key, foreign key and index in place, as a live server would
#     take them.
# Then it prints, for both, the bytes per sample of the samples table and
# of its indexes, the load rate, and the best of REPEAT (3) wall times of
# the queries that compare, regressions and trend need, as psql and the
# sqlite3 shell run them (rows printed to /dev/null).  Last, the same with
# an index on samples(metric_id), which the schema does not have.
#
# Environment: PERFSIFT (./perfsift), COMMITS, RUNS, METRICS, REPEAT,
# PG_BINDIR (see tests/pg.sh).  WORKDIR (default: a new directory under
# /tmp, removed at the end) needs about 1.5 GB at the default size.
set -eu
cd "$(dirname "$0")/.."
SRC=$PWD
: "${PERFSIFT:=$SRC/perfsift}"
: "${COMMITS:=100}"
: "${RUNS:=10}"
: "${METRICS:=10000}"
: "${REPEAT:=3}"
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset PERFSIFT_DB

if [ ! -x "$PERFSIFT" ]; then
	echo "scale-measure: no $PERFSIFT: run make first" >&2
	exit 4
fi
if [ $# -gt 0 ]; then
	TRASH=$1
	mkdir -p "$TRASH"
	keep=1
else
	TRASH=$(mktemp -d /tmp/perfsift-scale.XXXXXX)
	keep=0
	trap 'rm -rf "$TRASH"' EXIT
fi
say() {
	printf '%s\n' "$*" >&2
}
. "$SRC/tests/pg.sh"
PG_BINDIR=$(pg_find_bindir)
if [ -z "$PG_BINDIR" ]; then
	echo "scale-measure: no PostgreSQL server binaries (scripts/deps.sh check)" >&2
	exit 4
fi
PG_CONF_EXTRA="shared_buffers = 1GB
work_mem = 64MB
maintenance_work_mem = 512MB
max_wal_size = 8GB
checkpoint_timeout = 30min
jit = off"

now() {
	date +%s.%N
}
# calc EXPR: awk arithmetic
calc() {
	awk "BEGIN { print $1 }"
}
# best_of CMD...: the best wall time of REPEAT runs, in seconds
best_of() {
	best=
	n=0
	while [ $n -lt "$REPEAT" ]; do
		t0=$(now)
		"$@" >/dev/null
		t=$(calc "$(now) - $t0")
		if [ -z "$best" ] || [ "$(calc "$t < $best")" = 1 ]; then
			best=$t
		fi
		n=$((n + 1))
	done
	echo "$best"
}
lite() {
	sqlite3 "$db" "$@"
}
pg() {
	pg_psql -d scale -c "$1"
}
progress() {
	echo "scale-measure: $(date +%H:%M:%S) $*" >&2
}

db=$TRASH/scale.db
samples=$((COMMITS * RUNS * METRICS))
progress "$COMMITS commits x $RUNS runs x $METRICS metrics = $samples samples in $TRASH"

# ---- the commits and the CSV files
rm -rf "$TRASH/repo" "$TRASH/csv" "$TRASH/pg" "$db" "$db-wal" "$db-shm"
git init -q "$TRASH/repo"
git -C "$TRASH/repo" config user.name scale
git -C "$TRASH/repo" config user.email scale@example.org
c=0
while [ $c -lt "$COMMITS" ]; do
	GIT_AUTHOR_DATE="@$((1700000000 + c)) +0000" \
	GIT_COMMITTER_DATE="@$((1700000000 + c)) +0000" \
		git -C "$TRASH/repo" commit -q --allow-empty -m "c$c"
	c=$((c + 1))
done
git -C "$TRASH/repo" log --reverse --format=%H >"$TRASH/shas"

# Every metric has its own level and 2 % noise; every 100th metric drops
# 5 % from the commit at 60 % of the range on.
mkdir -p "$TRASH/csv"
awk -v runs="$RUNS" -v metrics="$METRICS" -v dir="$TRASH/csv" '
BEGIN { srand(16) }
{ sha[n++] = $1 }
END {
	for (m = 0; m < metrics; m++)
		level[m] = 1 + 1e4 * rand()
	for (c = 0; c < n; c++)
		for (i = 0; i < runs; i++) {
			f = sprintf("%s/c%04d-r%03d.csv", dir, c, i)
			print "commit,iteration,metric,value" >f
			for (m = 0; m < metrics; m++) {
				v = level[m] * (0.98 + 0.04 * rand())
				if (m % 100 == 0 && c >= 0.6 * n)
					v *= 0.95
				printf "%s,%d,monitor%02d.stat_%06d,%.6g\n",
					sha[c], i, m % 40, m, v >f
			}
			close(f)
		}
}' "$TRASH/shas"
csv_bytes=$(cat "$TRASH"/csv/*.csv | wc -c)
progress "CSV written: $csv_bytes bytes"

# ---- SQLite, through perfsift
"$PERFSIFT" --db "$db" commits import --repo "$TRASH/repo" >/dev/null
t0=$(now)
"$PERFSIFT" --db "$db" import -q "$TRASH/csv" >/dev/null
lite_load_s=$(calc "$(now) - $t0")
test "$(lite "SELECT count(*) FROM samples")" = "$samples"
lite "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
progress "SQLite: imported in $lite_load_s s"
lite_file=$(wc -c <"$db")
lite "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC" \
	>"$TRASH/sqlite-sizes"
lite_samples=$(awk -F'|' '$1 == "samples" { print $2 }' "$TRASH/sqlite-sizes")

# ---- PostgreSQL: the same rows by COPY
mkdir -p "$TRASH/pg"
lite -csv "SELECT id, path, sha256, format, size, file_size, imported_at,
	is_dir, message FROM imports ORDER BY id" >"$TRASH/pg/imports.csv"
lite -csv "SELECT id, label, kernel, commit_sha, machine, testcase, params
	FROM variants ORDER BY id" >"$TRASH/pg/variants.csv"
lite -csv "SELECT id, import_id, variant_id, suite, iteration, start_time,
	source_id, line FROM runs ORDER BY id" >"$TRASH/pg/runs.csv"
lite -csv "SELECT id, name, unit, kind, direction, summary FROM metrics
	ORDER BY id" >"$TRASH/pg/metrics.csv"
lite -csv "SELECT sha, position, parents, subject, date FROM commits" \
	>"$TRASH/pg/commits.csv"
lite -csv "SELECT run_id, value, metric_id, line, derived, source_id
	FROM samples ORDER BY run_id, metric_id" >"$TRASH/pg/samples.csv"
# one file per run: each run has METRICS samples
(cd "$TRASH/pg" && split -a 5 -d -l "$METRICS" samples.csv run- &&
	rm samples.csv)
progress "rows exported from SQLite for COPY"

pg_start
# pg_start's trap removes TRASH too: not a directory we were given
[ "$keep" = 0 ] || trap 'pg_stop' EXIT
pg_psql -c "CREATE DATABASE scale"
# the baseline and every later step, in order
cat $(ls "$SRC"/schema/pg/[0-9][0-9][0-9][0-9]-*.sql | sort) >"$TRASH/pg-schema.sql"
pg_psql -d scale -1 -f "$TRASH/pg-schema.sql"
csv="FORMAT csv"
pg_psql -d scale -1 <<EOF
\\copy imports(id, path, sha256, format, size, file_size, imported_at, is_dir, message) FROM '$TRASH/pg/imports.csv' WITH ($csv)
\\copy variants(id, label, kernel, commit_sha, machine, testcase, params) FROM '$TRASH/pg/variants.csv' WITH ($csv, FORCE_NOT_NULL (label, kernel, commit_sha, machine, testcase, params))
\\copy runs(id, import_id, variant_id, suite, iteration, start_time, source_id, line) FROM '$TRASH/pg/runs.csv' WITH ($csv)
\\copy metrics(id, name, unit, kind, direction, summary) FROM '$TRASH/pg/metrics.csv' WITH ($csv)
\\copy commits(sha, position, parents, subject, date) FROM '$TRASH/pg/commits.csv' WITH ($csv, FORCE_NOT_NULL (parents))
EOF
for f in "$TRASH"/pg/run-*; do
	printf "\\\\copy samples(run_id, value, metric_id, line, derived, source_id) FROM '%s' WITH (%s)\n" "$f" "$csv"
done >"$TRASH/pg/samples.psql"
t0=$(now)
pg_psql -d scale -f "$TRASH/pg/samples.psql"
pg_load_s=$(calc "$(now) - $t0")
test "$(pg "SELECT count(*) FROM samples")" = "$samples"
progress "PostgreSQL: copied in $pg_load_s s"
t0=$(now)
pg "VACUUM ANALYZE"
pg_vacuum_s=$(calc "$(now) - $t0")
pg "SELECT relname, pg_relation_size(oid) FROM pg_class WHERE
	relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i')
	ORDER BY 2 DESC" >"$TRASH/pg-sizes"
pg_heap=$(pg "SELECT pg_relation_size('samples')")
pg_idx=$(pg "SELECT pg_indexes_size('samples')")
pg_total=$(pg "SELECT pg_total_relation_size('samples')")
pg_db=$(pg "SELECT pg_database_size('scale')")

# ---- the queries
sha_mid=$(sed -n "$((COMMITS / 2 + 1))p" "$TRASH/shas")
label_mid=$(echo "$sha_mid" | cut -c1-12)
lo=$((COMMITS * 4 / 10))
hi=$((COMMITS * 6 / 10 - 1))
m=$((METRICS * 42 / 100))
metric=$(printf 'monitor%02d.stat_%06d' $((m % 40)) $m)
# compare: the samples of one variant's runs (lib/store/query.c
# query_samples, with its label)
q_compare="SELECT s.run_id, m.name, m.unit, s.value, coalesce(s.derived, 0)
	FROM samples s JOIN runs r ON r.id = s.run_id JOIN variants v ON
	v.id = r.variant_id JOIN metrics m ON m.id = s.metric_id
	WHERE v.label = '$label_mid' ORDER BY s.run_id, m.name"
# regressions: per metric over a range of commits
q_range="SELECT s.metric_id, count(*), sum(s.value), sum(s.value * s.value)
	FROM samples s JOIN runs r ON r.id = s.run_id JOIN variants v ON
	v.id = r.variant_id JOIN commits c ON c.sha = v.commit_sha
	WHERE c.position BETWEEN $lo AND $hi GROUP BY s.metric_id"
# trend: one metric over every commit
q_trend="SELECT c.position, s.value FROM samples s JOIN metrics m ON
	m.id = s.metric_id JOIN runs r ON r.id = s.run_id JOIN variants v ON
	v.id = r.variant_id JOIN commits c ON c.sha = v.commit_sha
	WHERE m.name = '$metric' ORDER BY c.position, r.id"
test "$(lite "$q_compare" | wc -l)" = $((RUNS * METRICS))
test "$(pg "$q_compare" | wc -l)" = $((RUNS * METRICS))
test "$(lite "$q_range" | wc -l)" = "$METRICS"
test "$(pg "$q_range" | wc -l)" = "$METRICS"
test "$(lite "$q_trend" | wc -l)" = $((COMMITS * RUNS))
test "$(pg "$q_trend" | wc -l)" = $((COMMITS * RUNS))
for q in compare range trend; do
	eval "sql=\$q_$q"
	lite "EXPLAIN QUERY PLAN $sql" >"$TRASH/plan-sqlite-$q"
	pg "EXPLAIN $sql" >"$TRASH/plan-pg-$q"
	eval "lite_$q=\$(best_of lite \"\$sql\")"
	eval "pg_$q=\$(best_of pg \"\$sql\")"
done
# perfsift compare itself, the middle commit against the last one
sha_last=$(tail -n 1 "$TRASH/shas")
ps_compare=$(best_of "$PERFSIFT" --db "$db" compare "$label_mid" \
	"$(echo "$sha_last" | cut -c1-12)" --json)

# the commands that read every sample: perfsift runs (a count per run)
# and perfsift metrics (a count per metric), and their queries on the
# server
ps_runs=$(best_of "$PERFSIFT" --db "$db" runs)
ps_metrics=$(best_of "$PERFSIFT" --db "$db" metrics)
pg_runs=$(best_of pg "SELECT r.id, (SELECT count(*) FROM samples s
	WHERE s.run_id = r.id) FROM runs r ORDER BY r.id")
pg_metrics=$(best_of pg "SELECT metric_id, count(*) FROM samples
	GROUP BY metric_id")

# perfsift never runs ANALYZE; what SQLite's planner does with statistics
t0=$(now)
lite "ANALYZE"
lite_analyze_s=$(calc "$(now) - $t0")
for q in compare range trend; do
	eval "sql=\$q_$q"
	lite "EXPLAIN QUERY PLAN $sql" >"$TRASH/plan-sqlite-analyzed-$q"
	eval "lite_a_$q=\$(best_of lite \"\$sql\")"
done
progress "queries timed"

# ---- what an index on samples(metric_id) would cost and bring
t0=$(now)
lite "CREATE INDEX samples_metric ON samples(metric_id)"
lite_mi_s=$(calc "$(now) - $t0")
lite_mi=$(lite "SELECT sum(pgsize) FROM dbstat WHERE name = 'samples_metric'")
lite_trend_mi=$(best_of lite "$q_trend")
t0=$(now)
pg "CREATE INDEX samples_metric ON samples(metric_id)"
pg_mi_s=$(calc "$(now) - $t0")
pg "ANALYZE samples"
pg_mi=$(pg "SELECT pg_relation_size('samples_metric')")
pg_trend_mi=$(best_of pg "$q_trend")
pg "EXPLAIN $q_trend" >"$TRASH/plan-pg-trend-indexed"
lite "EXPLAIN QUERY PLAN $q_trend" >"$TRASH/plan-sqlite-trend-indexed"

# ---- where the COPY time goes: the same files into a copy of samples
# with its primary key but without the two foreign keys (LIKE copies no
# foreign key), each checked row by row by a trigger on the other
pg "CREATE TABLE samples_nofk (LIKE samples INCLUDING ALL)"
sed 's/^\\copy samples(/\\copy samples_nofk(/' "$TRASH/pg/samples.psql" \
	>"$TRASH/pg/samples-nofk.psql"
t0=$(now)
pg_psql -d scale -f "$TRASH/pg/samples-nofk.psql"
pg_nofk_s=$(calc "$(now) - $t0")
test "$(pg "SELECT count(*) FROM samples_nofk")" = "$samples"
pg "DROP TABLE samples_nofk"
progress "PostgreSQL: copied again without foreign keys in $pg_nofk_s s"

# ---- the figures
per() {
	calc "$1 / $samples" | awk '{ printf "%.1f", $1 }'
}
rate() {
	awk -v n="$samples" -v s="$1" 'BEGIN { printf "%.0f", n / s }'
}
ms() {
	awk -v s="$1" 'BEGIN { printf "%.0f ms", s * 1000 }'
}
cat <<EOF
# scale-measure: $(date -u '+%Y-%m-%d %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)
samples: $samples ($COMMITS commits x $RUNS runs x $METRICS metrics), CSV $csv_bytes bytes in $((COMMITS * RUNS)) files
sqlite: $(sqlite3 --version | cut -d' ' -f1); postgresql: $(pg "SHOW server_version")

| | SQLite (perfsift) | SQLite after ANALYZE | PostgreSQL 15 |
|---|---|---|---|
| load | perfsift import: $(printf %.1f "$lite_load_s") s | - | \\copy, one per run: $(printf %.1f "$pg_load_s") s (+ VACUUM ANALYZE $(printf %.1f "$pg_vacuum_s") s) |
| samples/s | $(rate "$lite_load_s") | - | $(rate "$pg_load_s") |
| the same COPY without the foreign keys | - | - | $(printf %.1f "$pg_nofk_s") s, $(rate "$pg_nofk_s") samples/s |
| samples table, bytes/sample | $(per "$lite_samples") (WITHOUT ROWID: table = primary key) | - | heap $(per "$pg_heap") |
| its indexes, bytes/sample | 0 | - | $(per "$pg_idx") (samples_pkey) |
| samples total, bytes/sample | $(per "$lite_samples") | - | $(per "$pg_total") |
| whole database, bytes/sample | $(per "$lite_file") | - | $(per "$pg_db") |
| compare: one variant's samples ($((RUNS * METRICS)) rows) | $(ms "$lite_compare") | $(ms "$lite_a_compare") | $(ms "$pg_compare") |
| regressions: per metric over $((hi - lo + 1)) commits ($((METRICS)) groups of $(((hi - lo + 1) * RUNS))) | $(ms "$lite_range") | $(ms "$lite_a_range") | $(ms "$pg_range") |
| trend: one metric, every commit ($((COMMITS * RUNS)) rows) | $(ms "$lite_trend") | $(ms "$lite_a_trend") | $(ms "$pg_trend") |
| perfsift compare --json, two variants | $(ms "$ps_compare") | - | - |
| perfsift runs (samples counted per run) / its query | $(ms "$ps_runs") | - | $(ms "$pg_runs") |
| perfsift metrics (runs counted per metric) / a GROUP BY metric_id | $(ms "$ps_metrics") | - | $(ms "$pg_metrics") |
| + index on samples(metric_id): build | - | $(printf %.1f "$lite_mi_s") s | $(printf %.1f "$pg_mi_s") s |
| + its size, bytes/sample | - | $(per "$lite_mi") | $(per "$pg_mi") |
| + trend with it | - | $(ms "$lite_trend_mi") | $(ms "$pg_trend_mi") |

ANALYZE (SQLite): $(printf %.1f "$lite_analyze_s") s

query plans (before the metric_id index):
EOF
for q in compare range trend; do
	echo "-- $q, SQLite:"
	sed 's/^/    /' "$TRASH/plan-sqlite-$q"
	echo "-- $q, SQLite after ANALYZE:"
	sed 's/^/    /' "$TRASH/plan-sqlite-analyzed-$q"
	echo "-- $q, PostgreSQL:"
	sed 's/^/    /' "$TRASH/plan-pg-$q"
done
echo "-- trend with samples_metric, SQLite:"
sed 's/^/    /' "$TRASH/plan-sqlite-trend-indexed"
echo "-- trend with samples_metric, PostgreSQL:"
sed 's/^/    /' "$TRASH/plan-pg-trend-indexed"
echo "-- SQLite dbstat (bytes):"
sed 's/^/    /' "$TRASH/sqlite-sizes"
echo "-- PostgreSQL relations (bytes):"
sed 's/^/    /' "$TRASH/pg-sizes"
progress "done"
