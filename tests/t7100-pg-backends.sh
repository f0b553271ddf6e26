#!/bin/sh
# The two backends give the same answers (issue 16): every importer case
# of tests/data imports into a PostgreSQL server exactly as into SQLite
# (the same `debug dump`, the same refusals, nothing kept of a refused
# input), and on one data set imported into both, every query command
# prints the same bytes: runs, metrics, show, compare in every format and
# test, regressions, trend, changepoints, bisect, plot scripts and data,
# and the report, read by the server's owner and by grants.sql's
# read-only role.  The server is tests/pg.sh's throwaway one.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pg.sh"

need_pg
pg_start

SOURCE_DATE_EPOCH=1700000000
export SOURCE_DATE_EPOCH
PGURL="postgresql:///perfsift?host=$PGHOST&port=$PGPORT&user=postgres"
export PGURL

# fresh: an empty server database (perfsift creates its schema)
fresh() {
	pg_psql -d postgres -c "DROP DATABASE IF EXISTS perfsift" >/dev/null &&
	pg_psql -d postgres -c "CREATE DATABASE perfsift" >/dev/null
}
# empty: every table of the schema emptied and its ids restarted, as
# fresh would leave it once perfsift made the schema, in a tenth of the
# time
empty() {
	pg_psql -d perfsift -c "DO \$\$ BEGIN EXECUTE (SELECT 'TRUNCATE ' ||
		string_agg(quote_ident(tablename), ', ') || ' RESTART IDENTITY'
		FROM pg_tables WHERE schemaname = 'public' AND
		tablename <> 'perfsift_meta'); END \$\$" >/dev/null
}

test_expect_success 'an empty server database gets the schema' '
	fresh &&
	perfsift --db "$PGURL" runs >out &&
	pg_psql -d perfsift -c "SELECT application_id, schema_version FROM perfsift_meta" >meta &&
	echo "1347634772|$(ls "$SRC"/schema/*.sql | wc -l)" >expect &&
	test_cmp expect meta
'

for dir in "$SRC"/tests/data/*/*/; do
	[ -e "$dir/input" ] || continue
	imp=$(basename "$(dirname "$dir")")
	case=$(basename "$dir")
	export dir imp case
	if [ -f "$dir/expect" ]; then
		test_expect_success "server: $imp/$case imports as into SQLite" '
			empty &&
			rm -rf input && cp -R "$dir/input" input &&
			args="--format $imp" &&
			if [ -f "$dir/args" ]; then args=$(cat "$dir/args"); fi &&
			perfsift --db "$PGURL" import $args input >out 2>err &&
			perfsift --db "$PGURL" debug dump >actual &&
			test_cmp "$dir/expect" actual &&
			perfsift --db "$PGURL" import $args input >out2 &&
			grep -q "already imported" out2
		'
	elif [ -f "$dir/error" ]; then
		test_expect_success "server: $imp/$case is refused, nothing kept" '
			empty &&
			rm -rf input && cp -R "$dir/input" input &&
			args="--format $imp" &&
			if [ -f "$dir/args" ]; then args=$(cat "$dir/args"); fi &&
			test_expect_code 3 perfsift --db "$PGURL" import $args input >out 2>err &&
			test_cmp "$dir/error" err &&
			perfsift --db "$PGURL" debug dump >dump &&
			! grep . dump
		'
	fi
done

# One data set in both: results of 12 commits (3 runs each, a step at c7),
# two labels with 400 metrics for compare, an fio directory, a procfs
# series, an MMTests tree and an lkp tree; then commit order from git.
results() {
	awk -v c="$(sha "$1" | cut -c1-10)" -v i="$1" 'BEGIN {
		srand(3000 + i)
		print "commit,metric,value,iteration"
		for (r = 0; r < 3; r++) {
			printf "%s,x_ops,%.4f,%d\n", c, (i < 7 ? 100 : 85) + (rand() - 0.5) * 2, r
			printf "%s,x_lat_us,%.4f,%d\n", c, 50 + (rand() - 0.5), r
		}
	}' >"c$1.csv"
}

test_expect_success 'one data set imported into both backends' '
	fresh &&
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 12 &&
	gen_cmp_csv 400 7 9 >cmp.csv &&
	for i in $(seq 1 12); do results $i || return 1; done &&
	for db in "$TRASH/lite.db" "$PGURL"; do
		perfsift --db "$db" import -q cmp.csv &&
		for i in $(seq 1 12); do
			perfsift --db "$db" import -q c$i.csv || return 1
		done &&
		for d in "$SRC"/tests/data/fio-dir/rr/input "$SRC"/tests/data/mmtests-tree/work \
			 "$SRC"/tests/data/lkp-tree/local-kernel/input \
			 "$SRC"/tests/data/procfs/*/input; do
			case "$d" in */bad-*) continue ;; esac
			perfsift --db "$db" import -q "$d" || return 1
		done &&
		perfsift --db "$db" commits import --repo repo >/dev/null || return 1
	done &&
	perfsift --db "$TRASH/lite.db" debug dump >lite.dump &&
	perfsift --db "$PGURL" debug dump >pg.dump &&
	test_cmp lite.dump pg.dump
'

test_expect_success 'grants.sql: a read-only role' '
	pg_psql -d perfsift -c "CREATE ROLE perfsift_ro LOGIN; CREATE ROLE perfsift_rw LOGIN" >/dev/null &&
	pg_psql -d perfsift -v reader=perfsift_ro -v writer=perfsift_rw \
		-f "$SRC/schema/pg/grants.sql" >/dev/null
'
PGURL_RO="postgresql:///perfsift?host=$PGHOST&port=$PGPORT&user=perfsift_ro"

# same CMD...: both backends print the same bytes and exit the same, the
# server read by its owner and by the read-only role
same() {
	set +e
	perfsift --db "$TRASH/lite.db" "$@" >lite.out 2>lite.err
	lite_rc=$?
	for url in "$PGURL" "$PGURL_RO"; do
		perfsift --db "$url" "$@" >pg.out 2>pg.err
		pg_rc=$?
		[ $lite_rc = $pg_rc ] || { echo "exit $lite_rc vs $pg_rc"; cat pg.err; return 1; }
		test_cmp lite.out pg.out && test_cmp lite.err pg.err || return 1
	done
	set -e
}

test_expect_success 'runs, metrics and show: the same bytes' '
	same runs && same runs --json &&
	same metrics && same metrics --json && same metrics --metric "x_*" --json &&
	same runs --testcase "r[a-z]*" --json &&
	same show base --json && same show new && same show base --metric "m00[1-3]*" &&
	PERFSIFT_DB=$PGURL "$PERFSIFT" runs --json >env.out &&
	perfsift --db "$PGURL" runs --json >db.out &&
	test_cmp db.out env.out
'

test_expect_success 'compare in every format and test: the same bytes' '
	for f in text json csv markdown lkp mmtests; do
		same compare base new --format $f &&
		same compare base new --format $f --all || return 1
	done &&
	same compare base new --json --test welch &&
	same compare base new --json --test mwu --all &&
	same compare base new --json --metric "m01*"
'

test_expect_success 'regressions, trend, changepoints, bisect: the same bytes' '
	same regressions && same regressions --json &&
	same trend --metric x_ops --json && same changepoints --metric "x_*" --json &&
	same bisect suggest --metric x_ops --good "$(sha 1)" --bad "$(sha 12)" --json &&
	same bisect judge --metric x_ops --good "$(sha 1)" --bad "$(sha 12)" "$(sha 7)"
'

test_expect_success 'plot scripts and the report: the same bytes' '
	same plot compare base new --metric "m000*" --script &&
	same plot trend --metric x_ops --script &&
	same report base new --style lkp --from a@example.org --to b@example.org &&
	same report base new --style mmtests --from a@example.org --to b@example.org
'

# Past 65,536 metric ids compare reads only its variants' metrics (the
# ids of the runs' packed values, the aggregates' rows): the same bytes
# from the server, whose blobs and id ranges go through its own driver.
test_expect_success 'compare in a database of 70,000 more metrics: the same bytes' '
	awk "BEGIN { print \"label,iteration,metric,value\"
		for (m = 0; m < 70000; m++)
			printf \"other,0,filler.%06d,%d\\n\", m, m }" >filler.csv &&
	for db in "$TRASH/lite.db" "$PGURL"; do
		perfsift --db "$db" import -q filler.csv || return 1
	done &&
	for f in text json mmtests lkp; do
		same compare base new --format $f --all || return 1
	done &&
	same compare 6.1-vanilla 6.1-patched --format mmtests --all &&
	grep -q kernbench pg.out
'

test_done
