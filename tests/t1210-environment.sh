#!/bin/sh
# Nothing lost, nothing foreign touched (issue 7, items 1, 2, 7, 8): an
# empty --db is a usage error, not SQLite's throw-away temporary
# database; a database that is not perfsift's is refused before a
# single write (its bytes and journal mode unchanged), one that an older
# perfsift wrote is adopted; an empty selector is a usage error; a full
# disk or a stdout that cannot be written is an environment error (exit
# 4), said once, naming the database, with earlier data kept.
. "$(dirname "$0")/lib.sh"

printf "label,metric,value\nA,x_ops,1\n" >a.csv
printf "label,metric,value\nB,x_ops,2\n" >b.csv

test_expect_success 'an empty --db is a usage error, and nothing is imported anywhere' '
	test_expect_code 2 perfsift --db= import a.csv >out 2>err &&
	grep -q "error: --db needs a path, got an empty one" err &&
	test_expect_code 2 perfsift --db "" import a.csv >out 2>err &&
	grep -q "error: --db needs a path, got an empty one" err &&
	test ! -s out
'

test_expect_success 'PERFSIFT_DB set but empty means the default ./perfsift.db' '
	mkdir -p dflt && (cd dflt && PERFSIFT_DB= perfsift import -q ../a.csv) &&
	test -f dflt/perfsift.db &&
	test "$(sqlite3 dflt/perfsift.db "SELECT count(*) FROM runs")" = 1
'

test_expect_success 'another program'"'"'s database is refused with exit 4, untouched' '
	sqlite3 other.db "CREATE TABLE notes(t TEXT); INSERT INTO notes VALUES ('"'hi'"');" &&
	cp other.db other.orig &&
	for cmd in "import a.csv" "runs" "metrics" "compare A B"; do
		test_expect_code 4 perfsift --db other.db $cmd >out 2>err &&
		grep -q "other.db: not a perfsift database (application_id 0, user_version 0, 1 schema objects): refusing to touch it" err || exit 1
	done &&
	cmp other.db other.orig &&
	test ! -e other.db-wal &&
	test "$(sqlite3 other.db "PRAGMA journal_mode")" = delete &&
	test "$(sqlite3 other.db "SELECT name FROM sqlite_master")" = notes
'

test_expect_success 'a foreign database with our table names but another id is refused too' '
	perfsift --db ours.db import -q a.csv &&
	cp ours.db stolen.db &&
	sqlite3 stolen.db "PRAGMA application_id = 42" &&
	test_expect_code 4 perfsift --db stolen.db runs 2>err &&
	grep -q "stolen.db: not a perfsift database (application_id 0x2a" err &&
	sqlite3 neg.db "PRAGMA user_version = -1; CREATE TABLE t(x)" &&
	test_expect_code 4 perfsift --db neg.db import a.csv 2>err &&
	grep -q "neg.db: not a perfsift database" err
'

test_expect_success 'a new database says it is perfsift'"'"'s; an old one is adopted' '
	test "$(sqlite3 ours.db "PRAGMA application_id")" = 1347634772 &&
	cp ours.db old.db &&
	sqlite3 old.db "PRAGMA application_id = 0" &&
	perfsift --db old.db runs >out &&
	grep -q "^ *1  A" out &&
	test "$(sqlite3 old.db "PRAGMA application_id")" = 1347634772
'

test_expect_success 'an empty selector is a usage error' '
	test_expect_code 2 perfsift --db ours.db compare "" A 2>err &&
	grep -q "an empty selector names no variant" err &&
	test_expect_code 2 perfsift --db ours.db show "" 2>err &&
	grep -q "an empty selector names no variant" err
'

test_expect_success 'regressions --exit-code on a stdout that cannot be written: exit 4, not 1' '
	cat >reg.csv <<-EOF &&
	label,iteration,metric,value
	base,0,t_ops,100
	base,1,t_ops,101
	base,2,t_ops,99
	base,3,t_ops,100
	base,4,t_ops,100.5
	new,0,t_ops,80
	new,1,t_ops,81
	new,2,t_ops,79
	new,3,t_ops,80
	new,4,t_ops,80.5
	EOF
	perfsift --db reg.db import -q reg.csv &&
	test_expect_code 1 perfsift --db reg.db regressions --exit-code >out &&
	test_expect_code 4 perfsift --db reg.db regressions --exit-code >/dev/full 2>err &&
	grep -q "write to stdout failed" err
'

test_expect_success 'a newline in a file name forges no line, on stdout or stderr' '
	mkdir nl &&
	printf "label,metric,value\nA,x,1\n" >"nl/$(printf "a\nb.csv")" &&
	printf "label,metric,value\nA,x,zz\n" >"nl/$(printf "bad\nfile.csv")" &&
	test_expect_code 3 perfsift --db nl.db import nl >out 2>err &&
	cat >expect <<-\EOF &&
	nl/a\nb.csv: csv, 1 run, 1 sample
	imported 1 file: 1 run, 1 sample; 1 failed
	EOF
	test_cmp expect out &&
	printf "%s\\n" "perfsift: error: nl/bad\\nfile.csv:2: expected a number in column '"'value'"', got '"'zz'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'a walk never takes the database being written (or its -wal, -shm) as input' '
	mkdir walk && cp a.csv walk/ &&
	perfsift --db walk/w.db import walk >out &&
	cat >expect <<-\EOF &&
	walk/a.csv: csv, 1 run, 1 sample
	imported 1 file: 1 run, 1 sample
	EOF
	test_cmp expect out &&
	perfsift --db walk/w.db import walk >out &&
	cat >expect <<-\EOF &&
	walk/a.csv: already imported
	imported 0 files: 0 runs, 0 samples; 1 already imported
	EOF
	test_cmp expect out
'

# A database in a folder that this user cannot write: read as another
# user (root can write anywhere), if runuser and the user nobody exist.
if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null &&
   id nobody >/dev/null 2>&1; then
	test_expect_success 'a database in a folder we cannot write: reading works, writing is exit 4' '
		mkdir -p ro && chmod 755 "$TRASH" ro &&
		perfsift --db ro/r.db import -q a.csv &&
		chmod 644 ro/r.db && chmod 555 ro && cp b.csv ro.csv && chmod 644 ro.csv &&
		runuser -u nobody -- "$PERFSIFT" --db "$TRASH/ro/r.db" runs >out 2>err &&
		grep -q "^ *1  A" out && test ! -s err &&
		runuser -u nobody -- "$PERFSIFT" --db "$TRASH/ro/r.db" show A >out 2>err &&
		grep -q "^x_ops " out &&
		test_expect_code 4 runuser -u nobody -- "$PERFSIFT" --db "$TRASH/ro/r.db" import "$TRASH/ro.csv" >out 2>err &&
		grep -q "ro/r.db: database: attempt to write a readonly database" err &&
		chmod 755 ro
	'
else
	test_skip "a database in a folder we cannot write" "needs root, runuser and the user nobody"
fi

# A full disk: a 400 KiB tmpfs (root only; skipped, and said, elsewhere).
full=$TRASH/full
if mkdir -p "$full" && mount -t tmpfs -o size=400k tmpfs "$full" 2>/dev/null; then
	trap 'umount "$full" 2>/dev/null; cd /; rm -rf "$TRASH"' EXIT
	test_expect_success 'a full disk: exit 4 once, naming the database; the rest not tried; earlier data kept' '
		awk "BEGIN { print \"label,metric,value\"
			for (i = 0; i < 20000; i++) printf \"F,m%d,%d\\n\", i, i }" >big.csv &&
		test_expect_code 4 perfsift --db "$full/f.db" import a.csv big.csv b.csv >out 2>err &&
		test "$(grep -c error err)" = 1 &&
		grep -q "error: $full/f.db: database or disk is full" err &&
		grep -q "stopped on a database error, 1 not tried" out &&
		test "$(sqlite3 "$full/f.db" "PRAGMA integrity_check")" = ok &&
		test "$(sqlite3 "$full/f.db" "SELECT group_concat(label) FROM run_variants")" = A
	'
	# the series of a monitor are written by a second thread
	# (lib/store/series.c): the disk fills there
	test_expect_success 'a full disk under a long series: exit 4, said once, nothing of it kept' '
		rm -f "$full"/f.db* &&
		awk "BEGIN { for (t = 0; t < 3000; t++) { print \"time: \" (1700000000 + t)
			for (k = 0; k < 190; k++) print \"nr_x\" k, k * 100003 + t * t * (k + 1) } }" >long.vm &&
		test_expect_code 4 perfsift --db "$full/f.db" import long.vm >out 2>err &&
		test "$(grep -c error err)" = 1 &&
		grep -q "error: $full/f.db: database or disk is full" err &&
		test "$(sqlite3 "$full/f.db" "PRAGMA integrity_check")" = ok &&
		test "$(sqlite3 "$full/f.db" "SELECT count(*) FROM series")" = 0
	'
else
	test_skip "a full disk" "cannot mount a tmpfs here: not root?"
fi

test_done
