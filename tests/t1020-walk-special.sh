#!/bin/sh
# What a walk finds that is no regular file (a FIFO, a socket-like
# special file) is skipped and counted, never opened (a FIFO would
# block); a directory it cannot read is said once, and counted as a
# failure, the rest imported.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a FIFO in a walked directory: skipped, named, counted' '
	mkdir -p w/a &&
	printf "label,iteration,metric,value\nA,1,x.ops,1\n" >w/a/r.csv &&
	mkfifo w/a/fifo &&
	timeout 20 "$PERFSIFT" import w >out 2>err &&
	grep "^w/a/fifo: skipped: not a regular file: a FIFO$" out &&
	test_last_line "imported 1 file: 1 run, 1 sample; 1 skipped" out &&
	test_cmp /dev/null err
'

test_expect_success 'a FIFO named on the command line is still read' '
	mkfifo named &&
	{ printf "label,iteration,metric,value\nB,1,x.ops,2\n" >named & } &&
	timeout 20 "$PERFSIFT" import --format csv named >out &&
	grep "^named: csv, 1 run, 1 sample$" out
'

if test "$(id -u)" = 0 && command -v runuser >/dev/null 2>&1 &&
   id nobody >/dev/null 2>&1; then
	test_expect_success 'an unreadable directory: said once, counted, the rest imported' '
		mkdir -p /tmp/perfsift-walk.$$ &&
		chmod 755 /tmp/perfsift-walk.$$ &&
		cp -R w /tmp/perfsift-walk.$$/w &&
		rm -f /tmp/perfsift-walk.$$/w/a/fifo &&
		mkdir /tmp/perfsift-walk.$$/w/locked &&
		chmod 000 /tmp/perfsift-walk.$$/w/locked &&
		chmod -R a+rwX /tmp/perfsift-walk.$$/w/a &&
		chmod 777 /tmp/perfsift-walk.$$ &&
		(cd /tmp/perfsift-walk.$$ &&
		 test_expect_code 3 runuser -u nobody -- "$PERFSIFT" --db n.db import w >out 2>err) &&
		d=/tmp/perfsift-walk.$$ &&
		test "$(grep -c "cannot read directory" $d/err)" = 1 &&
		grep "^perfsift: error: w/locked: cannot read directory: Permission denied$" $d/err &&
		test_last_line "imported 1 file: 1 run, 1 sample; 1 failed" $d/out &&
		rm -rf /tmp/perfsift-walk.$$
	'
else
	say "not root with runuser and nobody: the unreadable directory is not tried"
fi

test_done
