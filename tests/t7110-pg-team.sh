#!/bin/sh
# A team on one server (issue 16): many importers at once (8, one killed
# mid-way), two machines importing the same file at the same moment (it
# is imported once, the other says "already imported"), a read-only role
# that runs every query command and cannot write, and bad input: an
# unreachable server, wrong credentials, a password on the command line,
# another application's database, a newer schema, a connection lost in
# the middle of an import (nothing kept, exit 4 with the server's words).
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pg.sh"

need_pg
pg_start

url() {
	echo "postgresql:///${2:-perfsift}?host=$PGHOST&port=$PGPORT&user=${1:-postgres}"
}
PGURL=$(url)
export PGURL

fresh() {
	pg_psql -d postgres -c "DROP DATABASE IF EXISTS ${1:-perfsift} WITH (FORCE)" >/dev/null &&
	pg_psql -d postgres -c "CREATE DATABASE ${1:-perfsift}" >/dev/null
}
count() {
	pg_psql -d perfsift -c "$1"
}

# big N SEED: a CSV of N runs x 2,000 metrics of one label (a server
# takes a few seconds for 100 runs: time to kill it mid-way)
big() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed); print "label,iteration,metric,value"
		for (i = 0; i < n; i++) for (m = 0; m < 2000; m++)
			printf "l%d,%d,m%06d,%.6g\n", seed, i, m, 100 * rand()
	}'
}

test_expect_success '8 importers at once, one killed mid-way' '
	fresh &&
	for i in 1 2 3 4 5 6 7; do gen_cmp_csv 300 $i 7 >f$i.csv || return 1; done &&
	big 100 99 >killed.csv || return 1
	"$PERFSIFT" --db "$PGURL" import -q killed.csv 2>killed.err &
	victim=$!
	# the victim is writing its rows (it holds the writers'\'' lock)
	pg_wait_writer perfsift
	pids=
	for i in 1 2 3 4 5 6 7; do
		perfsift --db "$PGURL" import -q f$i.csv >o$i 2>e$i &
		pids="$pids $!"
	done &&
	sleep 0.3 &&
	kill -9 $victim &&
	! wait $victim &&
	for p in $pids; do wait $p || return 1; done &&
	for i in 1 2 3 4 5 6 7; do
		grep "1 file" o$i || { cat o$i e$i; return 1; }
	done &&
	echo 7 >expect &&
	count "SELECT count(*) FROM imports" >actual &&
	test_cmp expect actual &&
	count "SELECT count(*) FROM imports WHERE sha256 LIKE '\''pending-%'\''" >actual &&
	echo 0 >expect && test_cmp expect actual &&
	echo 21000 >expect &&
	count "SELECT count(*) FROM samples" >actual &&
	test_cmp expect actual &&
	perfsift --db "$PGURL" import -q killed.csv &&
	echo 221000 >expect &&
	count "SELECT count(*) FROM samples" >actual &&
	test_cmp expect actual
'

test_expect_success 'the same file from two importers at once: imported once' '
	fresh &&
	big 20 7 >same.csv || return 1
	"$PERFSIFT" --db "$PGURL" import same.csv >a.out 2>&1 &
	a=$!
	"$PERFSIFT" --db "$PGURL" import same.csv >b.out 2>&1 &
	b=$!
	wait $a && wait $b &&
	cat a.out b.out &&
	cat a.out b.out | grep -c "^same.csv: already imported$" >n &&
	echo 1 >expect && test_cmp expect n &&
	count "SELECT count(*) FROM imports" >actual &&
	test_cmp expect actual
'

test_expect_success 'grants.sql: a read-only role runs every query command' '
	fresh &&
	gen_cmp_csv 50 3 5 >ro.csv &&
	perfsift --db "$PGURL" import -q ro.csv &&
	pg_psql -d perfsift -c "CREATE ROLE perfsift_ro LOGIN; CREATE ROLE perfsift_rw LOGIN" >/dev/null &&
	pg_psql -d perfsift -v reader=perfsift_ro -v writer=perfsift_rw \
		-f "$SRC/schema/pg/grants.sql" >/dev/null &&
	RO=$(url perfsift_ro) &&
	perfsift --db "$RO" runs --json >runs.json &&
	perfsift --db "$PGURL" runs --json >runs.expect &&
	test_cmp runs.expect runs.json &&
	perfsift --db "$RO" metrics --json >/dev/null &&
	perfsift --db "$RO" show base --json >/dev/null &&
	perfsift --db "$RO" compare base new --json >c.ro &&
	perfsift --db "$PGURL" compare base new --json >c.owner &&
	test_cmp c.owner c.ro &&
	perfsift --db "$RO" regressions --json >/dev/null &&
	perfsift --db "$RO" report base new --from a@example.org --to b@example.org >/dev/null &&
	perfsift --db "$RO" plot compare base new --metric "m000*" --script >/dev/null &&
	gen_cmp_csv 50 4 5 >w.csv &&
	test_expect_code 4 perfsift --db "$RO" import w.csv 2>err &&
	cat err &&
	grep "permission denied" err &&
	count "SELECT count(*) FROM imports" >n && echo 1 >expect && test_cmp expect n
'

test_expect_success 'grants.sql: the writing role imports' '
	RW=$(url perfsift_rw) &&
	perfsift --db "$RW" import -q w.csv &&
	count "SELECT count(*) FROM imports" >n && echo 2 >expect && test_cmp expect n &&
	perfsift --db "$RW" metrics --set-direction "m0*=lower" &&
	count "SELECT pattern, direction FROM metric_directions" >d &&
	echo "m0*|-1" >expect && test_cmp expect d &&
	test_expect_code 4 perfsift --db "$(url perfsift_ro)" metrics --set-direction "m1*=lower" 2>err &&
	grep "permission denied" err
'

test_expect_success 'an unreachable server: exit 4, libpq says why' '
	test_expect_code 4 perfsift --db "postgresql:///perfsift?host=$TRASH/nowhere" runs 2>err &&
	cat err &&
	grep "cannot connect: .*nowhere" err
'

test_expect_success 'wrong credentials: exit 4 with the server message' '
	pg_psql -d postgres -c "CREATE ROLE pw LOGIN PASSWORD '\''right'\''" >/dev/null &&
	perfsift --db "$PGURL" runs >/dev/null &&
	pg_psql -d perfsift -c "GRANT SELECT ON ALL TABLES IN SCHEMA public TO pw" >/dev/null &&
	hba=$PG_DIR/data/pg_hba.conf &&
	{ echo "local all pw scram-sha-256"; cat "$hba"; } >hba.new &&
	cat hba.new >"$hba" &&
	pg_psql -d postgres -c "SELECT pg_reload_conf()" >/dev/null &&
	PGPASSWORD=wrong test_expect_code 4 perfsift --db "$(url pw)" runs 2>err &&
	cat err &&
	grep "password authentication failed" err &&
	PGPASSWORD=right perfsift --db "$(url pw)" runs --json >/dev/null
'

test_expect_success 'a password in the URI is refused, and not echoed' '
	test_expect_code 4 perfsift --db "postgresql://pw:sekrit@localhost/perfsift" runs 2>err &&
	cat err &&
	grep "password in the URI is refused" err &&
	! grep sekrit err &&
	test_expect_code 4 perfsift --db "postgresql:///perfsift?host=$PGHOST&password=sekrit" runs 2>err &&
	! grep sekrit err
'

test_expect_success 'another application'\''s database is refused, untouched' '
	fresh other &&
	pg_psql -d other -c "CREATE TABLE accounts(id int)" >/dev/null &&
	test_expect_code 4 perfsift --db "$(url postgres other)" runs 2>err &&
	cat err &&
	grep "not a perfsift database" err &&
	pg_psql -d other -c "SELECT count(*) FROM pg_tables WHERE schemaname = '\''public'\''" >n &&
	echo 1 >expect && test_cmp expect n &&
	pg_psql -d other -c "DROP TABLE accounts; CREATE TABLE perfsift_meta(one boolean, application_id int, schema_version int); INSERT INTO perfsift_meta VALUES (true, 42, 7)" >/dev/null &&
	test_expect_code 4 perfsift --db "$(url postgres other)" runs 2>err &&
	grep "not a perfsift database (application_id 0x2a)" err
'

test_expect_success 'a newer schema is refused' '
	fresh &&
	perfsift --db "$PGURL" runs >/dev/null &&
	pg_psql -d perfsift -c "UPDATE perfsift_meta SET schema_version = 99" >/dev/null &&
	test_expect_code 4 perfsift --db "$PGURL" runs 2>err &&
	cat err &&
	grep "schema version 99 is newer than this perfsift understands ($(ls "$SRC"/schema/*.sql | wc -l))" err
'

test_expect_success 'the connection lost mid-import: exit 4, the server said why, nothing kept' '
	fresh &&
	big 100 5 >lost.csv || return 1
	"$PERFSIFT" --db "$PGURL" import lost.csv >out 2>err &
	p=$!
	pg_wait_writer perfsift
	sleep 0.3 &&
	count "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\''perfsift'\'' AND pid <> pg_backend_pid()" &&
	set +e && wait $p; rc=$? && set -e &&
	cat out err &&
	[ $rc = 4 ] &&
	# the server'\''s last words when libpq read them before the socket
	# closed; libpq'\''s own when a write found it closed first
	grep -E "terminating connection due to administrator command|server closed the connection unexpectedly" err &&
	count "SELECT count(*) FROM imports" >n && echo 0 >expect && test_cmp expect n &&
	perfsift --db "$PGURL" import -q lost.csv &&
	count "SELECT count(*) FROM samples" >n && echo 200000 >expect && test_cmp expect n
'

test_done
