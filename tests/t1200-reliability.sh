#!/bin/sh
# Reliability (SPEC §10): concurrent imports into one database, an
# import killed mid-way, a line over the 16 MiB cap, binary garbage,
# truncated and corrupt gzip, and directory walks that must end.  Every
# case must be a clear error or a success: never a crash, a hang, or a
# database that lost or gained anything it should not have.
. "$(dirname "$0")/lib.sh"


# gen_csv LABEL ROWS: a long-format CSV, 1000 metrics, ROWS/1000 runs
# (few runs per variant: the import does a lookup per new run that
# grows with the runs already there, and this is not a speed test)
gen_csv() {
	awk -v label="$1" -v n="$2" 'BEGIN {
		print "label,metric,value"
		for (i = 0; i < n; i++) print label ",m" i % 1000 "," i
	}'
}

# Processes put in the background are "$PERFSIFT", never the perfsift
# function: $! must be the pid of perfsift itself, not of a subshell
# that a kill would leave perfsift running behind.

# not_signalled STATUS: fail if STATUS says the process died by a signal
not_signalled() {
	if [ "$1" -gt 128 ]; then
		echo "died by signal $(($1 - 128))"
		return 1
	fi
}

test_expect_success 'setup: a database with earlier imports' '
	printf "label,kernel,metric,value\nbase,6.1,x,1\nbase,6.1,x,2\n" >base.csv &&
	printf "label,metric,stat,value,n\nbase,y,mean,3,4\n" >agg.csv &&
	perfsift import base.csv agg.csv >out &&
	test_db_ok
'

test_expect_success 'two large imports at once into the same database both succeed' '
	PERFSIFT_DB=$TRASH/conc.db &&
	perfsift import -q base.csv agg.csv >/dev/null
	gen_csv A 300000 >conc-a.csv
	gen_csv B 300000 >conc-b.csv
	"$PERFSIFT" import conc-a.csv >out-a 2>err-a &
	pa=$!
	"$PERFSIFT" import conc-b.csv >out-b 2>err-b &
	pb=$!
	sa=0 && sb=0 &&
	{ wait $pa || sa=$?; } &&
	{ wait $pb || sb=$?; } &&
	cat err-a err-b &&
	test "$sa $sb" = "0 0" &&
	test ! -s err-a && test ! -s err-b &&
	grep -qx "conc-a.csv: csv, 300 runs, 300000 samples" out-a &&
	grep -qx "conc-b.csv: csv, 300 runs, 300000 samples" out-b &&
	sqlite3 "$PERFSIFT_DB" "SELECT label, count(*) FROM run_variants
		GROUP BY label ORDER BY label" >actual &&
	printf "A|300\nB|300\nbase|2\n" >expect &&
	test_cmp expect actual &&
	sqlite3 "$PERFSIFT_DB" "SELECT r.label, count(*), sum(s.value)
		FROM samples s JOIN run_variants r ON r.id = s.run_id
		GROUP BY r.label ORDER BY r.label" >actual &&
	printf "A|300000|44999850000.0\nB|300000|44999850000.0\nbase|2|3.0\n" >expect &&
	test_cmp expect actual &&
	test_db_ok
'

test_expect_success 'many small imports at once: all succeed, none lost' '
	PERFSIFT_DB=$TRASH/conc.db &&
	for i in 1 2 3 4 5 6 7 8; do
		printf "label,metric,value\nsmall$i,s,$i\n" >small$i.csv
	done &&
	pids= &&
	for i in 1 2 3 4 5 6 7 8; do
		"$PERFSIFT" import -q small$i.csv >sout$i 2>serr$i &
		pids="$pids $!"
	done &&
	bad=0 &&
	for p in $pids; do wait $p || bad=$((bad + 1)); done &&
	cat serr* &&
	test $bad = 0 &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_variants
		WHERE label GLOB '"'small*'"'")" = 8 &&
	test_db_ok
'

# BUG (fixed in 6c05e62): lib/db.c db_open() runs "PRAGMA journal_mode =
# WAL" once.  On a database that is not in WAL mode yet (a new one,
# which another perfsift is creating at this moment) SQLite returns
# SQLITE_BUSY for that pragma at once, without the busy handler, and
# perfsift exits 4 "database is locked".  Two imports started together
# on a new database fail this way about once in a hundred tries; here a
# python3 sqlite3 connection holds the write lock of a new, empty
# database for a second to make it happen every time.  Fix: in
# db_open(), retry the pragma on SQLITE_BUSY (sqlite3_sleep(10) between
# tries) until BUSY_TIMEOUT_MS, or check "PRAGMA journal_mode" first and
# convert under BEGIN IMMEDIATE.
test_expect_success 'an import waits while another process creates the database' '
	cat >hold.py <<-\EOF &&
	import sqlite3, sys, time
	c = sqlite3.connect(sys.argv[1], isolation_level=None)
	c.execute("BEGIN IMMEDIATE")
	open(sys.argv[2], "w").write("locked\n")
	time.sleep(1.0)
	c.execute("COMMIT")
	EOF
	rm -f new.db locked
	/usr/bin/python3 hold.py new.db locked &
	holder=$!
	i=0 &&
	while [ ! -s locked ] && [ $i -lt 200 ]; do sleep 0.02; i=$((i + 1)); done &&
	test -s locked &&
	st=0 &&
	{ perfsift --db new.db import small1.csv >out 2>err || st=$?; } &&
	wait $holder &&
	cat err &&
	test $st = 0 &&
	grep -qx "small1.csv: csv, 1 run, 1 sample" out &&
	test_db_ok new.db
'

test_expect_success 'setup: a large CSV to kill mid-way (2,000,000 rows)' '
	gen_csv KILLED 2000000 >big.csv &&
	test $(wc -l <big.csv) = 2000001
'

test_expect_success 'an import killed mid-way leaves the database as it was' '
	sqlite3 "$PERFSIFT_DB" .dump >before
	counts=$(db_counts)
	"$PERFSIFT" import big.csv >kout 2>kerr &
	pid=$!
	sleep 0.3 &&
	kill -9 $pid &&
	st=0 && { wait $pid || st=$?; } &&
	if [ $st = 0 ]; then
		echo "the import finished within 0.3 s: make big.csv bigger"
		exit 1
	fi &&
	test $st = 137 &&
	test_db_ok &&
	sqlite3 "$PERFSIFT_DB" .dump >after &&
	test_cmp before after &&
	test "$(db_counts)" = "$counts" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_variants
		WHERE label = '"'KILLED'"'")" = 0
'

test_expect_success 'killed after its rows reached the WAL: all or nothing' '
	sqlite3 "$PERFSIFT_DB" .dump >before
	counts=$(db_counts)
	# an empty WAL to start with, so that its growth shows the spill
	sqlite3 "$PERFSIFT_DB" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
	wal="$PERFSIFT_DB-wal"
	"$PERFSIFT" import big.csv >kout 2>kerr &
	pid=$!
	# wait until uncommitted pages spill into the WAL (or it ends)
	i=0 &&
	while kill -0 $pid 2>/dev/null &&
	      [ $(stat -c %s "$wal" 2>/dev/null || echo 0) -lt 2000000 ] &&
	      [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done &&
	kill -9 $pid 2>/dev/null; st=0 && { wait $pid || st=$?; } &&
	if [ $st = 0 ]; then
		echo "the import committed before the WAL grew: nothing tested"
		exit 1
	fi &&
	test $st = 137 &&
	test_db_ok &&
	sqlite3 "$PERFSIFT_DB" .dump >after &&
	if ! cmp -s before after; then
		# the kill may only have hit after the commit (a larger
		# page cache spills later): then all of the file is there
		echo "note: the import committed before SIGKILL"
		sort before >before.sorted && sort after >after.sorted &&
		test "$(comm -23 before.sorted after.sorted | wc -l)" = 0 &&
		test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*), sum(n)
			FROM (SELECT (SELECT count(*) FROM samples s
			WHERE s.run_id = r.id) AS n FROM run_variants r
			WHERE label = '"'KILLED'"')")" = "2000|2000000" &&
		sqlite3 "$PERFSIFT_DB" "DELETE FROM samples WHERE run_id IN
			(SELECT id FROM run_variants WHERE label = '"'KILLED'"');
			DELETE FROM runs WHERE id IN (SELECT id FROM run_variants
			WHERE label = '"'KILLED'"');
			DELETE FROM imports WHERE id NOT IN
			(SELECT import_id FROM runs UNION
			 SELECT import_id FROM aggregates)"
	else
		test "$(db_counts)" = "$counts"
	fi
'

test_expect_success 'after a kill the database takes new imports' '
	printf "label,metric,value\nafter,z,9\n" >after.csv &&
	perfsift import after.csv >out &&
	grep -qx "after.csv: csv, 1 run, 1 sample" out &&
	test_db_ok
'

test_expect_success 'a line longer than 16 MiB: clear error, exit 3, nothing kept' '
	counts=$(db_counts) &&
	{ printf "label,metric,value\nok,x,1\nhuge,"; head -c 17000000 /dev/zero |
		tr "\0" a; printf ",1\nok,x,2\n"; } >huge.csv &&
	test_expect_code 3 perfsift import huge.csv after.csv >out 2>err &&
	echo "perfsift: error: huge.csv:3: line longer than 16777216 bytes" >expect &&
	test_cmp expect err &&
	grep -qx "imported 0 files: 0 runs, 0 samples; 1 already imported; 1 failed" out &&
	test "$(db_counts)" = "$counts"
'

test_expect_success 'a 17 MiB file without any newline: clear error either way' '
	head -c 17000000 /dev/zero | tr "\0" 7 >oneline.dat &&
	test_expect_code 3 perfsift import oneline.dat >out 2>err &&
	grep -q "^perfsift: error: oneline.dat: unknown format" err &&
	test_expect_code 3 perfsift import --format csv oneline.dat >out 2>err &&
	echo "perfsift: error: oneline.dat:1: line longer than 16777216 bytes" >expect &&
	test_cmp expect err
'

test_expect_success 'a huge line inside a small .gz: clear error, exit 3' '
	gzip -c huge.csv >huge.csv.gz &&
	test $(wc -c <huge.csv.gz) -lt 1000000 &&
	test_expect_code 3 perfsift import huge.csv.gz >out 2>err &&
	echo "perfsift: error: huge.csv.gz:3: line longer than 16777216 bytes" >expect &&
	test_cmp expect err
'

test_expect_success 'binary garbage with --format csv: clear error, exit 3' '
	counts=$(db_counts) &&
	head -c 300000 "$PERFSIFT" >garbage.bin &&
	test_expect_code 3 perfsift import --format csv garbage.bin >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^perfsift: error: garbage.bin:[0-9]*: " err &&
	{ printf "metric,value\n"; cat garbage.bin; } >garbage-body.csv &&
	test_expect_code 3 perfsift import garbage-body.csv >out 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^perfsift: error: garbage-body.csv:[0-9]*: " err &&
	test "$(db_counts)" = "$counts"
'

test_expect_success 'binary garbage detected or forced as any format: exit 3' '
	test_expect_code 3 perfsift import garbage.bin >out 2>err &&
	grep -q "^perfsift: error: garbage.bin: unknown format" err &&
	test_expect_code 3 perfsift import --format fio garbage.bin >out 2>err &&
	grep -q "^perfsift: error: garbage.bin" err &&
	head -c 100000 /dev/zero >zeros.bin &&
	test_expect_code 3 perfsift import --format csv zeros.bin >out 2>err &&
	grep -q "^perfsift: error: zeros.bin" err &&
	test_expect_code 3 perfsift import --format fio zeros.bin >out 2>err &&
	grep -q "^perfsift: error: zeros.bin" err
'

# BUG (fixed in 6c05e62): lib/input.c input_getline() hands lines with
# NUL bytes to importers that treat them as C strings, so
# importers/csv/csv.c silently drops whatever follows a NUL: "x,1<NUL>,junk"
# imports x=1 with no error.  Fix: in csv_parse() (or once in
# input_getline() for text formats) refuse a line where memchr(sb.buf,
# 0, sb.len) finds a NUL: "path:line: NUL byte in line (binary data?)".
test_expect_success 'a NUL byte inside a CSV line is an error, not silently cut' '
	PERFSIFT_DB=$TRASH/nul.db &&
	printf "metric,value\nx,1\000,junk\ny,2\n" >nul.csv &&
	test_expect_code 3 perfsift import nul.csv >out 2>err &&
	grep -q "^perfsift: error: nul.csv:2: " err
'

test_expect_success 'a truncated .gz: error, exit 3, nothing kept, the others import' '
	PERFSIFT_DB=$TRASH/gz.db &&
	gen_csv GZ 200000 >gzsrc.csv &&
	gzip -c gzsrc.csv >full.csv.gz &&
	size=$(wc -c <full.csv.gz) &&
	head -c $((size / 2)) full.csv.gz >half.csv.gz &&
	head -c $((size - 4)) full.csv.gz >notrailer.csv.gz &&
	head -c 20 full.csv.gz >header.csv.gz &&
	printf "label,metric,value\ngood,g,1\n" >good.csv &&
	test_expect_code 3 perfsift import half.csv.gz good.csv \
		notrailer.csv.gz header.csv.gz >out 2>err &&
	grep -q "^perfsift: error: half.csv.gz:[0-9]*: truncated gzip data$" err &&
	grep -q "^perfsift: error: notrailer.csv.gz:[0-9]*: truncated gzip data$" err &&
	grep -q "^perfsift: error: header.csv.gz:[0-9]*: truncated gzip data$" err &&
	test $(wc -l <err) = 3 &&
	grep -qx "imported 1 file: 1 run, 1 sample; 3 failed" out &&
	test "$(db_counts)" = "1 1 0 1 0 1 0" &&
	test_db_ok
'

test_expect_success 'a truncated .gz on stdin: error, exit 3' '
	PERFSIFT_DB=$TRASH/gz2.db &&
	test_expect_code 3 perfsift import - <half.csv.gz >out 2>err &&
	grep -q "^perfsift: error: -:[0-9]*: truncated gzip data$" err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success 'a corrupt .gz (bad data, bad CRC): error, exit 3' '
	PERFSIFT_DB=$TRASH/gz3.db &&
	size=$(wc -c <full.csv.gz) &&
	{ head -c $((size / 2)) full.csv.gz; head -c 200 /dev/zero;
	  tail -c +$((size / 2 + 201)) full.csv.gz; } >corrupt.csv.gz &&
	test $(wc -c <corrupt.csv.gz) = $size &&
	test_expect_code 3 perfsift import corrupt.csv.gz >out 2>err &&
	grep -q "^perfsift: error: corrupt.csv.gz:[0-9]*: " err &&
	{ head -c $((size - 8)) full.csv.gz; printf "\377\377\377\377";
	  tail -c 4 full.csv.gz; } >badcrc.csv.gz &&
	test_expect_code 3 perfsift import badcrc.csv.gz >out 2>err &&
	grep -q "^perfsift: error: badcrc.csv.gz:[0-9]*: " err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success 'directories nested too deep: an error, the rest imports' '
	PERFSIFT_DB=$TRASH/deep.db &&
	d=deep && i=0 &&
	while [ $i -lt 70 ]; do d=$d/d; i=$((i + 1)); done &&
	mkdir -p $d &&
	printf "metric,value\ndeep,1\n" >$d/deep.csv &&
	printf "metric,value\nshallow,1\n" >deep/shallow.csv &&
	st=0 && { perfsift import deep >out 2>err || st=$?; } &&
	not_signalled $st &&
	test $st = 3 &&
	grep -q "^perfsift: error: deep/.*: directories nested too deep" err &&
	grep -qx "deep/shallow.csv: csv, 1 run, 1 sample" out
'

# BUG (fixed in 6c05e62): lib/import/import.c walk() stat()s each entry
# and so follows symlinks to directories with no memory of where it has
# been: one link back to "." imports the same files again at every level
# down to the depth limit (41 "already imported" lines and a failure);
# two such links make the walk exponential and perfsift never ends.
# Fix: lstat() entries and do not descend into symlinked directories (as
# find and git do), or keep the (st_dev, st_ino) of every directory on
# the walk and skip one seen before.  timeout(1) guards the suite from
# the hang.
test_expect_success 'a directory with symlinks back to itself: the walk ends, each file once' '
	PERFSIFT_DB=$TRASH/loop.db &&
	mkdir loop &&
	printf "metric,value\nlooped,1\n" >loop/a.csv &&
	ln -s . loop/self1 &&
	ln -s . loop/self2 &&
	st=0 && { timeout 5 "$PERFSIFT" import loop >out 2>err || st=$?; } &&
	test $st != 124 &&
	not_signalled $st &&
	test "$(grep -c "a.csv" out)" = 1 &&
	grep -qx "loop/a.csv: csv, 1 run, 1 sample" out
'

test_done
