#!/bin/sh
# A database path is a regular file or nothing yet: a device, a FIFO or
# a directory is refused (exit 4) before SQLite opens it, so nothing is
# written beside it (as root, /dev/null-journal in /dev).
. "$(dirname "$0")/lib.sh"

printf 'label,iteration,metric,value\na,1,x.ops,1\n' >d.csv

test_expect_success 'a device: refused, no journal beside it' '
	test_expect_code 4 perfsift --db /dev/null runs 2>err &&
	grep "^perfsift: error: /dev/null: not a database file: a device$" err &&
	test_expect_code 4 perfsift --db /dev/full import d.csv 2>err &&
	grep "/dev/full: not a database file: a device" err &&
	test ! -e /dev/null-journal && test ! -e /dev/full-journal &&
	test ! -e /dev/null-wal && test ! -e /dev/full-wal
'

test_expect_success 'a FIFO and a directory: refused, not waited on' '
	mkfifo fifo &&
	test_expect_code 4 timeout 20 "$PERFSIFT" --db fifo runs 2>err &&
	grep "fifo: not a database file: a FIFO" err &&
	mkdir dir &&
	test_expect_code 4 perfsift --db dir import d.csv 2>err &&
	grep "dir: not a database file: a directory" err &&
	test ! -e dir-journal
'

test_expect_success 'a link to a database, and a new path, still work' '
	perfsift --db real.db import d.csv >/dev/null &&
	ln -s real.db link.db &&
	perfsift --db link.db runs >out &&
	grep "x.ops\|1 run\|a" out
'

test_done
