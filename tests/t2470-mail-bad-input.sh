#!/bin/sh
# Mail that goes wrong (issue 33): a table cut mid-row, a row whose
# columns disagree with its table, a row of garbage, binary attachments,
# a 50 MB message, an mbox with one broken message among good ones.
# Each gives a warning or an error naming path:line, the good parts are
# imported, nothing is invented, and --strict refuses what warned.
. "$(dirname "$0")/lib.sh"

msg() {	# FILE MESSAGE-ID BODY-FILE
	{
		printf 'From: Dev <dev@example.org>\nSubject: numbers\n'
		printf 'Message-ID: <%s@example.org>\n' "$2"
		printf 'MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
		cat "$3"
	} >"$1"
}

cat >table.txt <<\EOF
0123456789abcdef abcdef0123456789abcdef01234
---------------- ---------------------------
         %stddev     %change         %stddev
             \          |                \
      3000 ±  2%      -5.0%       2850        will-it-scale.per_thread_ops
EOF

test_expect_success 'a table cut mid-row: the whole rows kept, the cut one named' '
	{ cat table.txt && printf "    118225 ±  2%%      -6.0%%\n"; } >cut.txt &&
	msg cut.eml cut cut.txt &&
	perfsift --db cut.db import cut.eml >out 2>err &&
	grep -x "perfsift: warning: cut.eml:12: a row without its metric name: row skipped" err &&
	grep "cut.eml message 1: lkp-table, 0 runs, 0 samples, 2 aggregates, 1 warning; 1 table: 1 row (1 skipped)$" out &&
	test "$(sqlite3 cut.db "SELECT group_concat(value) FROM aggregates")" = "3000.0,2850.0" &&
	test "$(sqlite3 cut.db "SELECT line || \" \" || reason FROM import_skips")" = \
		"12 a row without its metric name"
'

test_expect_success 'columns that disagree, a row of garbage: skipped, named, shown' '
	{
		cat table.txt &&
		echo "      1000           +20.0%                   will-it-scale.workload" &&
		echo "      12 ±  x%   +1.0%  13 ± ?%  will-it-scale.time.user_time" &&
		echo "      4000            +1.0%       4040        will-it-scale.time.elapsed_time"
	} >odd.txt &&
	msg odd.eml odd odd.txt &&
	perfsift --db odd.db import odd.eml >out 2>err &&
	test "$(grep -c "row skipped$" err)" = 2 &&
	grep "odd.eml:12: expected 2 columns of values (and changes) before the metric name: row skipped" err &&
	grep "odd.eml:13: expected numbers, a change and .± N%. before the metric name: row skipped" err &&
	grep "1 table: 2 rows (2 skipped)$" out &&
	perfsift --db odd.db show abcdef012345 >show &&
	grep "^odd.eml message 1:12: expected 2 columns" show &&
	grep -F "    | 1000           +20.0%                   will-it-scale.workload" show &&
	test "$(sqlite3 odd.db "SELECT count(*) FROM aggregates")" = 4
'

test_expect_success '--strict: the message with a skipped row is refused, the good one kept' '
	cat odd.eml >two.mbox.tmp &&
	{
		echo "From dev@example.org Mon Jan  1 00:00:00 2025" && cat odd.eml &&
		echo && echo "From dev@example.org Mon Jan  1 00:00:00 2025" &&
		msg good.eml good table.txt && cat good.eml
	} >two.mbox &&
	test_expect_code 3 perfsift --db strict.db import --strict two.mbox >out 2>err &&
	grep "two.mbox:13: expected 2 columns of values (and changes) before the metric name$" err &&
	grep "two.mbox message 2: lkp-table, 0 runs, 0 samples, 2 aggregates; 1 table: 1 row$" out &&
	test "$(sqlite3 strict.db "SELECT group_concat(message) FROM imports")" = 2 &&
	test "$(sqlite3 strict.db "SELECT count(*) FROM import_skips")" = 0
'

test_expect_success 'binary attachments are not text; the table beside them imports' '
	head -c 3000 "$PERFSIFT" | base64 >bin.b64 &&
	{
		printf "From: Dev <dev@example.org>\nSubject: with a vmlinux\n"
		printf "Message-ID: <bin@example.org>\nMIME-Version: 1.0\n"
		printf "Content-Type: multipart/mixed; boundary=b1\n\n--b1\n"
		printf "Content-Type: text/plain; charset=utf-8\n\n"
		cat table.txt
		printf "\n--b1\nContent-Type: application/octet-stream\n"
		printf "Content-Transfer-Encoding: base64\n\n"
		cat bin.b64
		printf "\n--b1\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
		cat bin.b64
		printf "\n--b1--\n"
	} >bin.eml &&
	perfsift --db bin.db import bin.eml >out 2>err &&
	grep "bin.eml message 1: lkp-table, 0 runs, 0 samples, 2 aggregates; 1 table: 1 row$" out &&
	! grep warning err
'

test_expect_success 'a 50 MB message: read in bounded memory, its table found' '
	python3 -c "
import sys
out = sys.stdout
out.write(\"From: a <a@example.org>\nSubject: big\nMessage-ID: <big@example.org>\n\n\")
line = \"> +\tstatic int foo(struct bar *b) { return b->x + 12345; } /* diff */\n\"
for _ in range(50 * 1024 * 1024 // len(line)):
    out.write(line)
out.write(open(\"table.txt\").read())
" >big.eml &&
	test $(wc -c <big.eml) -gt 50000000 &&
	peak_rss_kib out "$PERFSIFT" --db big.db import big.eml >rss &&
	read kib rc <rss &&
	test "$rc" = 0 &&
	grep "big.eml message 1: lkp-table, 0 runs, 0 samples, 2 aggregates; 1 table: 1 row$" out &&
	# under ASan and UBSan the RSS means nothing (their shadow memory)
	if grep -q __asan_init "$PERFSIFT" 2>/dev/null; then
		echo "peak RSS not checked: a sanitizer build"
	else
		test "$kib" -lt 65536
	fi
'

test_expect_success 'an mbox with one broken message: the others import, the broken one is named' '
	{
		echo "From dev@example.org Mon Jan  1 00:00:00 2025" && cat good.eml && echo &&
		echo "From dev@example.org Mon Jan  1 00:00:00 2025" &&
		printf "From: x\nSubject: cut\nMessage-ID: <cut2@example.org>\n" &&
		printf "Content-Type: multipart/mixed; boundary=zz\n\n--zz\n\n" &&
		cat table.txt && echo &&
		echo "From dev@example.org Mon Jan  1 00:00:00 2025" &&
		sed "s/good@/good3@/" good.eml
	} >broken.mbox &&
	test_expect_code 3 perfsift --db broken.db import broken.mbox >out 2>err &&
	grep "broken.mbox:[0-9]*: truncated message" err &&
	test "$(sqlite3 broken.db "SELECT group_concat(message) FROM imports")" = "1,3"
'

test_done
