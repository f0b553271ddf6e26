#!/bin/sh
# No output path may name the database: plot -o, report -o and --mbox
# naming it (by any spelling: a link, its -wal file) are refused with
# exit 2 and the database is untouched.  An --mbox target is absent,
# empty or an mbox ("From " first): an SQLite file or a FIFO is refused
# (exit 4) and nothing is appended.
. "$(dirname "$0")/lib.sh"

{
	printf 'label,iteration,metric,value\n'
	for i in 1 2 3 4; do
		printf 'A,%s,fio.read_bw,%s\n' $i $((100 + i))
		printf 'B,%s,fio.read_bw,%s\n' $i $((80 + i))
	done
} >d.csv

test_expect_success 'set up a database' '
	perfsift --db w.png import d.csv >/dev/null &&
	cp w.png keep.db
'

test_expect_success 'plot -o the database: refused, database intact' '
	test_expect_code 2 perfsift --db w.png plot compare A B -o w.png 2>err &&
	grep "^perfsift: error: w.png: that is the database (w.png): write the output elsewhere$" err &&
	cmp w.png keep.db &&
	perfsift --db w.png runs >out && grep "^ *1  A " out
'

test_expect_success 'report -o and --mbox the database, or a link to it: refused' '
	test_expect_code 2 perfsift --db w.png report A B --from a@example.org -o w.png 2>err &&
	grep "w.png: that is the database" err &&
	ln -s w.png link.eml &&
	test_expect_code 2 perfsift --db w.png report A B --from a@example.org --mbox link.eml 2>err &&
	grep "link.eml: that is the database (w.png)" err &&
	cmp w.png keep.db
'

test_expect_success 'the database journal is refused too' '
	: >w.png-wal &&
	test_expect_code 2 perfsift --db w.png report A B --from a@example.org -o w.png-wal 2>err &&
	grep "w.png-wal: that is the database'"'"'s journal (w.png)" err &&
	rm -f w.png-wal
'

test_expect_success 'another SQLite file as --mbox: refused, unchanged' '
	cp keep.db other-app.db &&
	test_expect_code 4 perfsift --db w.png report A B --from a@example.org --to b@example.org --mbox other-app.db 2>err &&
	grep "other-app.db'"'"' is not an mbox (it does not start with \"From \"): nothing appended" err &&
	cmp other-app.db keep.db
'

test_expect_success 'a FIFO as --mbox: refused at once, not waited on' '
	mkfifo fifo &&
	test_expect_code 4 timeout 20 "$PERFSIFT" --db w.png report A B --from a@example.org --to b@example.org --mbox fifo 2>err &&
	grep "fifo'"'"' is not an mbox: not a regular file" err
'

test_expect_success 'an empty file, then the mbox it became: appended twice' '
	: >out.mbox &&
	perfsift --db w.png report A B --from a@example.org --to b@example.org --mbox out.mbox &&
	perfsift --db w.png report A B --from a@example.org --to b@example.org --mbox out.mbox &&
	test "$(grep -c "^From " out.mbox)" = 2
'

test_done
