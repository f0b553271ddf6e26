#!/bin/sh
# Tables cut short: a file that ends inside a row (a mail saved half,
# a paste cut at a byte) loses that row with a warning naming its line,
# and never yields a metric from half a name.
. "$(dirname "$0")/lib.sh"

MAIL=$SAMPLES/emails/2025-lkp-will-it-scale-poll2-do_pollfd.txt
MM=$SRC/tests/data/mmtests-table/era-2019-three-kernels/input

test_expect_success 'an MMTests table cut at any byte: the last line said' '
	for n in 300 400 900 1100; do
		head -c $n "$MM" >mm.txt &&
		line=$(wc -l <mm.txt) && line=$((line + 1)) &&
		rm -f mm.db* &&
		perfsift --db mm.db import mm.txt >out 2>err &&
		grep "mm.txt:$line: the last line has no line end (the file cut short?): not read" err || return 1
	done
'

test_expect_success 'an MMTests row with fewer cells than its header: skipped, said' '
	head -c 900 "$MM" >short.txt && echo >>short.txt &&
	perfsift --db short.db import short.txt >out 2>err &&
	grep "short.txt:11: expected .<statistic> <operation>. and 3 columns of values with .(N%)., as in the header: row skipped" err &&
	grep "7 rows (1 skipped)" out
'

test_expect_success 'a blank last line without its newline is no row' '
	printf "Hello\n\n> " >blank.txt &&
	perfsift --db blank.db import --format lkp-table blank.txt >out 2>err || : &&
	! grep "no line end" err
'

need_samples

test_expect_success 'an lkp mail cut inside a row: the row said, no half-named metric' '
	head -c 4460 "$MAIL" | sed "\$d" >whole.txt &&
	perfsift --db whole.db import whole.txt >/dev/null 2>&1 &&
	sqlite3 whole.db "SELECT name FROM metrics ORDER BY name" >want &&
	for n in 4480 4490 4500; do
		head -c $n "$MAIL" >cut.txt &&
		rm -f cut.db* &&
		perfsift --db cut.db import cut.txt >out 2>err &&
		grep "cut.txt:86: the last line has no line end (the file cut short?): not read" err &&
		sqlite3 cut.db "SELECT name FROM metrics ORDER BY name" >got &&
		test_cmp want got || return 1
	done
'

test_done
