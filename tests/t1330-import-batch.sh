#!/bin/sh
# Batches (db_batch_start(), cli/cmd-import.c): the results of one import
# command are committed several at a time, each result still all or
# nothing, and a result's line is printed once it is committed.  Batched
# or a commit a result (PERFSIFT_COMMIT_MS=0), an import must print the
# same lines, exit the same way and leave the same rows: on good and bad
# input, and when the disk fills inside a batch.
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data

# both IN...: import IN a commit a result and in batches of $W ms (an
# hour when unset); the same lines, status and rows (imports_agree,
# tests/lib.sh; $DB: both into that database)
both() {
	imports_agree PERFSIFT_COMMIT_MS 0 "${W:-3600000}" "$@"
}

# many/: 200 outputs of one fio job, each with its own bandwidth
fio_copies 200 many

# mbox N OUT: a robot email (tests/fixtures) N times under new
# Message-IDs, then the 7th again (already imported)
mbox() {
	awk -v n="$1" 'NR < 99 { line[NR] = $0 } END {
		for (k = 1; k < 99; k++) {
			if (line[k] ~ /^Message-ID: <2025/) { mid = k; continue }
			if (mid) post = post line[k] "\n"; else pre = pre line[k] "\n"
		}
		sub(/^Message-ID: <2025/, "", line[mid])
		for (i = 1; i <= n; i++)
			printf "%sMessage-ID: <%d-2025%s\n%s", pre, i, line[mid], post
		printf "%sMessage-ID: <7-2025%s\n%s", pre, line[mid], post
	}' "$SRC"/tests/fixtures/mail/robot-thread.mbox >"$2"
}
mbox 300 m.mbox

test_expect_success 'good and bad files, mail, trees, a file twice: the same batched as one by one' '
	mkdir bad &&
	printf "label,metric,value\nA,x_ops,1\nA,x_ops,oops\n" >bad/a.csv &&
	head -c 3000 "$D"/fio/randrw/input >bad/cut.json &&
	printf "label,metric,value\nB,x_ops,2\n" >bad/b.csv &&
	both "$D" bad many/o-000.json many many/o-001.json &&
	test "$(cat 2.rc)" = 3 &&
	grep -q "^perfsift: error: bad/a.csv:3:" 2.err &&
	grep -q "^bad/b.csv: csv, 1 run, 1 sample$" 2.out &&
	grep -q "^many/o-199.json: fio, 1 run, 89 samples$" 2.out &&
	test "$(grep -c "^many/o-000.json: already imported" 2.out)" = 1 &&
	test "$(sqlite3 2.db "PRAGMA integrity_check")" = ok
'

if [ -d "$SAMPLES" ]; then
	test_expect_success 'the samples, every format: the same batched as one by one' '
		both "$SAMPLES"
	'
else
	test_skip 'the samples batched' "SKIP ../shared/samples is absent: $SAMPLES"
fi

# A mail file is one item of many results: they are committed as they
# come when the batch is due, not held to the file's end
test_expect_success 'an mbox committed every millisecond, between files: the same as one by one' '
	W=1 both many/o-00*.json m.mbox many/o-01*.json &&
	test "$(grep -c "^m.mbox message [0-9]*: lkp-table, 0 runs, 0 samples, 14 aggregates; [0-9] tables\{0,1\}: [^;]*$" 2.out)" = 300 &&
	grep -q "^m.mbox message 301: already imported$" 2.out &&
	test_last_line "imported 20 files, 300 messages: 20 runs, 1780 samples, 4200 aggregates; 1 already imported" 2.out
'

# m.fifo: an mbox of 250 messages (825 kB) written in pieces of 100 kB
# with a pause after each; before the last piece, another process sees
# messages committed (the reader takes 256 KiB at a time: the batch is
# due when a block comes in after a pause), never all of them
test_expect_success 'a long mbox: its messages committed as they come, not at its end' '
	mbox 250 all.mbox &&
	split -b 100000 -a 1 all.mbox piece. &&
	mkfifo m.fifo
	"$PERFSIFT" --db w.db import m.fifo >w.out 2>w.err &
	pid=$!
	(sleep 60 && cat m.fifo >/dev/null) &
	dog=$!
	exec 4>m.fifo
	kill $dog 2>/dev/null || :
	for p in piece.a piece.b piece.c piece.d piece.e piece.f piece.g piece.h; do
		cat $p >&4 && sleep 0.3 || return 1
	done
	n=$(sqlite3 w.db "SELECT count(*) FROM imports") &&
	cat piece.i >&4 && exec 4>&- &&
	wait $pid &&
	test "$n" -gt 0 && test "$n" -lt 250 &&
	test_last_line "imported 250 messages: 0 runs, 0 samples, 3500 aggregates; 1 already imported" w.out
'

# A result whose savepoint journals more than SQLite keeps in memory
# (db.c: 120 KiB): b.csv's 20,000 names fall between a.csv's, so it
# changes most pages of the names' index that a.csv made in the batch.
# The journal then spills to a file; at 256 KiB SQLite wrote 0 bytes of
# it and the import stopped on "database or disk is full".
test_expect_success 'a savepoint whose journal spills to a file: the same batched as one by one' '
	awk "BEGIN { print \"label,metric,value\"
		for (i = 0; i < 20000; i++)
			printf \"A,metric_%05d_ops,%d\\n\", 2 * i, i }" >sj-a.csv &&
	awk "BEGIN { print \"label,metric,value\"
		for (i = 0; i < 20000; i++)
			printf \"B,metric_%05d_ops,%d\\n\", 2 * i + 1, i }" >sj-b.csv &&
	both sj-a.csv sj-b.csv &&
	test "$(cat 2.rc)" = 0 &&
	test_last_line "imported 2 files: 2 runs, 40000 samples" 2.out
'

test_expect_success 'PERFSIFT_COMMIT_MS that is not a number: said, and the default used' '
	PERFSIFT_COMMIT_MS=soon perfsift --db w.db import many/o-00*.json >out 2>err &&
	grep -q "^perfsift: warning: PERFSIFT_COMMIT_MS=soon is not a number of milliseconds; using 100$" err &&
	test_last_line "imported 10 files: 10 runs, 890 samples" out
'

# k.fifo: a file the import blocks on, after a.csv and b.csv are stored
# in the batch: what has been said and what another process sees then
printf "label,metric,value\nA,x_ops,1\n" >a.csv
printf "label,metric,value\nB,x_ops,2\n" >b.csv
mkfifo k.fifo
# start_blocked: the import, stopped at k.fifo (opened for writing on fd 3);
# a watchdog opens the fifo if the import never does, so a broken import
# fails the test instead of hanging it
start_blocked() {
	rm -f k.db k.db-wal k.db-shm
	PERFSIFT_COMMIT_MS=3600000 "$PERFSIFT" --db k.db import a.csv b.csv \
		k.fifo >k.out 2>k.err &
	pid=$!
	(sleep 60 && cat k.fifo >/dev/null) &
	dog=$!
	exec 3>k.fifo
	kill $dog 2>/dev/null || true
}

test_expect_success 'inside a batch: nothing said and nothing seen; killed, the database is as it was' '
	start_blocked &&
	test ! -s k.out &&
	test "$(sqlite3 k.db "SELECT count(*) FROM runs")" = 0 &&
	kill -9 $pid && { wait $pid || :; } && exec 3>&- &&
	test "$(sqlite3 k.db "PRAGMA integrity_check")" = ok &&
	test "$(sqlite3 k.db "SELECT count(*) FROM runs")" = 0
'

test_expect_success 'the batch committed: all of it said and seen' '
	start_blocked &&
	test ! -s k.out &&
	printf "label,metric,value\nC,x_ops,3\n" >&3 && exec 3>&- &&
	wait $pid &&
	test "$(grep -c ": csv, 1 run, 1 sample$" k.out)" = 3 &&
	test "$(sqlite3 k.db "SELECT group_concat(label) FROM run_variants")" = A,B,C
'

# A full disk: a 600 KiB tmpfs (root only; skipped, and said, elsewhere).
full=$TRASH/full
if mkdir -p "$full" && mount -t tmpfs -o size=600k tmpfs "$full" 2>/dev/null; then
	trap 'umount "$full" 2>/dev/null; cd /; rm -rf "$TRASH"' EXIT
	test_expect_success 'a full disk inside a batch: what is kept and said is what one by one keeps and says' '
		DB=$full/f.db both many &&
		test "$(cat 2.rc)" = 4 &&
		test "$(grep -c error 2.err)" = 1 &&
		grep -q "error: $full/f.db: database or disk is full" 2.err &&
		n=$(grep -c ": fio, 1 run, 89 samples$" 2.out) &&
		test "$n" -gt 0 && test "$n" -lt 200 &&
		test_last_line "imported $n files: $n runs, $((n * 89)) samples; 1 failed; stopped on a database error, $((199 - n)) not tried" 2.out &&
		test "$(sqlite3 $full/f.db "PRAGMA integrity_check")" = ok &&
		test "$(sqlite3 $full/f.db "SELECT count(*) FROM runs")" = $n
	'
	# batches of 1 ms: the disk fills after some were committed, inside
	# the mbox; what stdout says imported is what the database holds
	test_expect_success 'a full disk inside an mbox committed as it comes: said is kept, exit 4 once' '
		mbox 3000 big.mbox &&
		rm -f $full/f.db* &&
		test_expect_code 4 env PERFSIFT_COMMIT_MS=1 "$PERFSIFT" --db $full/f.db \
			import big.mbox >out 2>err &&
		test "$(grep -c error err)" = 1 &&
		grep -q "error: $full/f.db: database or disk is full" err &&
		n=$(grep -c "^big.mbox message [0-9]*: lkp-table" out) &&
		test "$n" -gt 0 && test "$n" -lt 3000 &&
		test "$(grep -c "^big.mbox message" out)" = $n &&
		test_last_line "imported $n messages: 0 runs, 0 samples, $((n * 14)) aggregates; 1 failed; stopped on a database error, 0 not tried" out &&
		test "$(sqlite3 $full/f.db "PRAGMA integrity_check")" = ok &&
		test "$(sqlite3 $full/f.db "SELECT count(*) FROM imports")" = $n &&
		test "$(sqlite3 $full/f.db "SELECT count(*) FROM aggregates")" = $((n * 14))
	'
else
	test_skip "a full disk inside a batch" "cannot mount a tmpfs here: not root?"
	test_skip "a full disk inside an mbox" "cannot mount a tmpfs here: not root?"
fi

test_done
