#!/bin/sh
# The hub: help, --version, where the database lives (--db, then
# $PERFSIFT_DB, then ./perfsift.db, created on first use) and the exit
# codes of usage and environment errors (SPEC §5).
. "$(dirname "$0")/lib.sh"

printf 'metric,value\nx,1\n' >one.csv
export ONE="$TRASH/one.csv"

test_expect_success '--version prints the version and exits 0' '
	perfsift --version >out 2>err &&
	grep -Eq "^perfsift [0-9]+\.[0-9]+\.[0-9]+$" out &&
	test $(wc -l <out) = 1 &&
	test ! -s err
'

test_expect_success 'help lists the commands on stdout' '
	perfsift help >out 2>err &&
	test ! -s err &&
	grep -q "^usage: perfsift \[--db PATH|URL\] COMMAND" out &&
	for c in import runs metrics show; do
		grep -Eq "^ +$c +[a-z]" out || { echo "no $c in help"; exit 1; }
	done
'

test_expect_success '--help and -h are help' '
	perfsift help >expect &&
	perfsift --help >actual &&
	test_cmp expect actual &&
	perfsift -h >actual &&
	test_cmp expect actual
'

test_expect_success 'help import, import --help and import -h are the same text' '
	perfsift help import >expect 2>err &&
	test ! -s err &&
	grep -q "^usage: perfsift import" expect &&
	for o in --format --kernel --commit --label --machine --testcase \
		--param --dry-run; do
		grep -q -- "$o" expect || { echo "help import lacks $o"; exit 1; }
	done &&
	perfsift import --help >actual &&
	test_cmp expect actual &&
	perfsift import -h >actual &&
	test_cmp expect actual &&
	perfsift import --label x --help >actual &&
	test_cmp expect actual
'

test_expect_success 'every command has its own help' '
	for c in import runs metrics show; do
		perfsift help $c >out &&
		grep -q "^usage: perfsift $c" out || { echo "help $c"; exit 1; }
		perfsift $c --help >out2 &&
		test_cmp out out2 || exit 1
	done
'

test_expect_success 'help and --version create no database' '
	mkdir nodb && cd nodb &&
	unset PERFSIFT_DB &&
	perfsift help >/dev/null &&
	perfsift help import >/dev/null &&
	perfsift import --help >/dev/null &&
	perfsift --version >/dev/null &&
	test_expect_code 2 perfsift nosuch 2>/dev/null &&
	test "$(ls -A)" = ""
'

test_expect_success 'help of an unknown command: exit 2' '
	test_expect_code 2 perfsift help nosuch >out 2>err &&
	grep -q "^perfsift: error: .*nosuch" err &&
	test ! -s out
'

test_expect_success 'unknown command: exit 2, error on stderr, nothing on stdout' '
	test_expect_code 2 perfsift frobnicate >out 2>err &&
	test ! -s out &&
	grep -q "^perfsift: error: .frobnicate. is not a perfsift command" err
'

test_expect_success 'no command: exit 2 with usage on stderr' '
	test_expect_code 2 perfsift >out 2>err &&
	test ! -s out &&
	grep -q "^usage: perfsift" err
'

test_expect_success 'bad global option: exit 2 with usage on stderr' '
	test_expect_code 2 perfsift --frob runs >out 2>err &&
	test ! -s out &&
	grep -q "^perfsift: error: unknown option .--frob." err &&
	grep -q "^usage: perfsift" err &&
	test_expect_code 2 perfsift --db >out 2>err &&
	grep -q "^usage: perfsift" err
'

test_expect_success 'bad command option: exit 2 with the command usage on stderr' '
	for c in import runs metrics show; do
		test_expect_code 2 perfsift $c --no-such-option x \
			>out 2>err || exit 1
		test ! -s out || { echo "$c printed on stdout"; exit 1; }
		grep -q "^usage: perfsift $c" err ||
			{ echo "$c: no usage"; cat err; exit 1; }
	done
'

test_expect_success 'missing arguments are usage errors' '
	test_expect_code 2 perfsift import 2>err &&
	grep -q "^usage: perfsift import" err &&
	test_expect_code 2 perfsift import --format 2>err &&
	test_expect_code 2 perfsift show 2>err &&
	grep -q "^usage: perfsift show" err &&
	test_expect_code 2 perfsift show a b 2>err &&
	test_expect_code 2 perfsift runs extra 2>err &&
	test_expect_code 2 perfsift debug 2>err
'

test_expect_success 'the database is created on first use, at $PERFSIFT_DB' '
	PERFSIFT_DB=$TRASH/first.db &&
	test ! -e "$PERFSIFT_DB" &&
	perfsift runs >out 2>err &&
	test -f "$PERFSIFT_DB" &&
	test_db_ok &&
	test ! -s out &&
	grep -q "^no runs" err
'

test_expect_success '--db beats $PERFSIFT_DB; --db=PATH works too' '
	mkdir where && cd where &&
	PERFSIFT_DB=$PWD/env.db perfsift --db flag.db import -q "$ONE" >out &&
	test -f flag.db &&
	test ! -e env.db &&
	test ! -e perfsift.db &&
	test "$(sqlite3 flag.db "SELECT count(*) FROM runs")" = 1 &&
	PERFSIFT_DB=$PWD/env.db perfsift --db=eq.db runs --json >out &&
	test -f eq.db &&
	test ! -e env.db &&
	test "$(cat out)" = "[]"
'

test_expect_success '$PERFSIFT_DB is used without --db' '
	mkdir env && cd env &&
	PERFSIFT_DB=$PWD/env.db perfsift import -q "$ONE" >out &&
	test ! -e perfsift.db &&
	test "$(sqlite3 env.db "SELECT count(*) FROM runs")" = 1
'

test_expect_success 'without --db or $PERFSIFT_DB: ./perfsift.db' '
	mkdir default && cd default &&
	unset PERFSIFT_DB &&
	perfsift import -q "$ONE" >out &&
	test -f perfsift.db &&
	test "$(sqlite3 perfsift.db "SELECT count(*) FROM runs")" = 1 &&
	PERFSIFT_DB= perfsift runs --json >out &&
	grep -q "\"samples\": 1" out
'

test_expect_success 'a database that cannot be opened: exit 4' '
	test_expect_code 4 perfsift --db "$TRASH/no/such/dir/x.db" runs \
		>out 2>err &&
	grep -q "^perfsift: error: .*no/such/dir/x.db" err &&
	test ! -s out
'

test_expect_success 'a file that is not a database: exit 4' '
	printf "this is not sqlite, just text that is long enough\n%.0s" \
		1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 >not.db &&
	cp not.db not.db.orig &&
	test_expect_code 4 perfsift --db not.db runs >out 2>err &&
	grep -q "^perfsift: error: " err &&
	cmp not.db not.db.orig
'

test_expect_success 'a write error on stdout is an error (exit 4)' '
	test -w /dev/full || { echo "no /dev/full"; exit 0; }
	test_expect_code 4 perfsift --version >/dev/full 2>err &&
	grep -q "^perfsift: error: write to stdout failed" err &&
	test_expect_code 4 perfsift help >/dev/full 2>err &&
	perfsift import -q "$ONE" >/dev/null &&
	test_expect_code 4 perfsift runs --json >/dev/full 2>err
'

test_expect_success 'a usage error or a dry run creates no database' '
	test_expect_code 2 perfsift --db u.db runs --bogus 2>err &&
	grep -q "^perfsift runs: unrecognized option" err &&
	test ! -e u.db &&
	test_expect_code 2 perfsift --db u.db import --commit XYZ x.csv 2>/dev/null &&
	test ! -e u.db &&
	printf "metric,value\nx,1\n" >d.csv &&
	perfsift --db u.db import --dry-run d.csv >out &&
	grep -q "d.csv: csv, 1 run, 1 sample (dry run)" out &&
	test ! -e u.db
'

test_done
