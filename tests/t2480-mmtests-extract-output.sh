#!/bin/sh
# The mmtests-extract importer on the real extract-mmtests.pl output in
# ../shared/samples/mmtests (schbench of 2020-06-12): detected without
# --format, one run of 49 samples named schbench.<operation>, lower is
# better, the values as printed; the same values as the mmtests-tree
# importer reads from that run's raw logs; two labelled imports compare
# row by row; a broken line is refused naming path:line.
. "$(dirname "$0")/lib.sh"
need_samples

X=$SAMPLES/mmtests/schbench-extract-mmtests-output.txt
D12=$SAMPLES/mmtests/work-log/log.ltccip8.2020-06-12_1807
export X D12

test_expect_success 'the extract output imports as one run of 49 samples' '
	perfsift import --label june12 "$X" >out &&
	grep -x "$X: mmtests-extract, 1 run, 49 samples" out &&
	perfsift debug dump >dump &&
	test "$(grep -c "^run	" dump)" = 1 &&
	test "$(grep -c "^sample	" dump)" = 49 &&
	grep -x "run	1	mmtests	schbench				NULL	june12	0	NULL	2" dump
'

test_expect_success 'values and directions as printed' '
	# line 2: "50.0th-qrtle-1   0        11.00"
	grep -x "sample	1	schbench.50.0th-qrtle-1	usec	11	2" dump &&
	# line 50: "99.9th-qrtle-39  0     13488.00"
	grep -x "sample	1	schbench.99.9th-qrtle-39	usec	13488	50" dump &&
	perfsift metrics >metrics &&
	test "$(grep -c "^schbench\..*  usec  -     lower " metrics)" = 49
'

test_expect_success 'the raw logs of that run give the same 49 values' '
	perfsift import --label tree "$D12/schbench" >tree.out 2>tree.err &&
	perfsift compare --all --metric "schbench.*" tree june12 >cmp &&
	test "$(grep -c "^schbench\..* +0\.00% .* unchanged" cmp)" = 49
'

test_expect_success 'compare of two labelled imports of it gives its rows' '
	{ cat "$X" && echo; } >schbench-again.txt &&
	perfsift import --label again schbench-again.txt >out2 &&
	grep -x "schbench-again.txt: mmtests-extract, 1 run, 49 samples" out2 &&
	perfsift compare --all june12 again >cmp2 &&
	test "$(grep -c "^schbench\..*(usec) .* +0\.00% " cmp2)" = 49 &&
	grep "^schbench.99.9th-qrtle-39 (usec)  *13488 (n=1)  *13488 (n=1) " cmp2
'

test_expect_success 'a broken line is refused with path:line' '
	sed "5s/ 0 / x /" "$X" >schbench-bad.txt &&
	test_expect_code 3 perfsift --db bad.db import schbench-bad.txt \
		>bad.out 2>bad.err &&
	grep -x "perfsift: error: schbench-bad.txt:5: expected .<operation> <iteration> <value>., got .95.0th-qrtle-1   x        15.00." bad.err
'

test_done
