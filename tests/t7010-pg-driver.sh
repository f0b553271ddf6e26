#!/bin/sh
# The PostgreSQL driver (lib/store/pg.c) against a throwaway server:
# build/tests/t-pg (tests/unit/t-pg.c), which skips itself when run by
# tests/run-all.sh without a server, run here with PERFSIFT_TEST_PG
# pointing at the server of tests/pg.sh.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pg.sh"

need_pg

T_PG=${PERFSIFT_BUILD:-$SRC/build}/tests/t-pg

if ! pg_start; then
	test_expect_success 'the throwaway server starts' 'false'
	test_done
	exit
fi

test_expect_success 't-pg: every check passes against the server' '
	test -x "$T_PG" &&
	rc=0 &&
	PERFSIFT_TEST_PG="postgresql:///postgres?host=$PGHOST&port=$PGPORT&user=postgres" \
		"$T_PG" >out 2>err || rc=$?
	cat out err &&
	test $rc = 0 &&
	! grep -q SKIP out &&
	passed=$(sed -n "s/^\([0-9]*\) passed, 0 failed$/\1/p" out) &&
	test -n "$passed" && test "$passed" -gt 300
'

# the number of checks, for the log (the summary counts this script's)
[ -f "$TRASH/out" ] && say "# t-pg: $(tail -n 1 "$TRASH/out")"

test_expect_success 'no NOTICE or other chatter on stderr' '
	test -f err &&
	! test -s err
'

test_done
