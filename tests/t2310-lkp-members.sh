#!/bin/sh
# An lkp run's members that are not regular files (issue 36).  The member
# list holds regular files only, so a stats.json that was a directory, a
# FIFO or a link to /dev/zero used to be absent: the run imported with
# exit 0 and no samples (or the raw route's fewer), and replaced a good
# earlier import of it.  Now such a member is an error naming it, the run
# fails alone, and a re-import that would leave a run with fewer samples
# keeps the earlier one unless --replace.
. "$(dirname "$0")/lib.sh"

LEVELS=fio-basic/4k-performance-psync-1-2s-randread-16M-tb/lkp-fixture/debian-12-x86_64/x86_64-rhel-9.4/gcc-12/1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d
R0=t/$LEVELS/0
R1=t/$LEVELS/1
export R0 R1

# want_samples DB "0|10 1|11": iteration|samples of every run in DB
want_samples() {
	printf '%s\n' $2 >want &&
	sqlite3 "$1" "SELECT r.iteration || '|' ||
		(SELECT count(*) FROM samples s WHERE s.run_id = r.id)
		FROM runs r ORDER BY r.iteration" >got &&
	test_cmp want got
}

# run0_value METRIC: run 0's sample of METRIC in good.db
run0_value() {
	sqlite3 good.db "SELECT s.value FROM samples s JOIN metrics m ON
		m.id = s.metric_id JOIN runs r ON r.id = s.run_id WHERE
		r.iteration = 0 AND m.name = '$1'"
}

# a fresh copy of the tree: two runs of 10 stats each (run 1 a copy of
# run 0 with another fio.workload: one content is one import), imported
# into good.db
fresh_tree() {
	rm -rf t good.db &&
	cp -R "$SRC/tests/data/lkp-tree/stats-route/input" t &&
	cp -R $R0 $R1 &&
	sed "s/2116664/2116665/" $R0/stats.json >$R1/stats.json &&
	! cmp -s $R0/stats.json $R1/stats.json &&
	perfsift --db good.db import t >/dev/null &&
	want_samples good.db "0|10 1|10"
}

# stats.json of run 0 replaced by what the first argument says
break_stats() {
	rm -f $R0/stats.json &&
	case $1 in
	dir) mkdir $R0/stats.json ;;
	fifo) mkfifo $R0/stats.json ;;
	zero) ln -s /dev/zero $R0/stats.json ;;
	dangling) ln -s "$TRASH/nowhere" $R0/stats.json ;;
	esac
}

# grow RUN: one stat more, so that the run replaces its earlier import
grow() {
	sed "s/^{\$/{ \"perfsift.extra\": 1,/" $1/stats.json >s &&
	mv s $1/stats.json
}

for kind in "dir:a directory" "fifo:a FIFO" "zero:a character device"; do
	k=${kind%%:*}
	what=${kind#*:}
	test_expect_success "stats.json that is $what: run 0 fails, run 1 imports" "
		fresh_tree &&
		break_stats $k &&
		grow $R1 &&
		test_expect_code 3 timeout 20 \"\$PERFSIFT\" --db good.db \
			import t >out 2>err &&
		echo \"perfsift: error: \$R0/stats.json: not a regular file: $what\" >want &&
		test_cmp want err &&
		grep -q \"/1: lkp-tree, 1 run, 11 samples, .*, replaces the earlier import\\\$\" out &&
		grep -q \"^imported 1 directory: 1 run, 11 samples, .*; 1 failed\\\$\" out &&
		want_samples good.db \"0|10 1|11\"
	"
done

test_expect_success 'a dangling link as stats.json cannot be read: an error' '
	fresh_tree &&
	break_stats dangling &&
	test_expect_code 3 perfsift --db good.db import t >out 2>err &&
	echo "perfsift: error: $R0/stats.json: cannot read: No such file or directory" >want &&
	test_cmp want err &&
	want_samples good.db "0|10 1|10"
'

test_expect_success 'into a new database: nothing of the failed run is kept' '
	fresh_tree &&
	break_stats fifo &&
	test_expect_code 3 timeout 20 "$PERFSIFT" --db new.db import t >out 2>err &&
	grep -q "$R0/stats.json: not a regular file: a FIFO$" err &&
	want_samples new.db "1|10" &&
	test "$(sqlite3 new.db "SELECT count(*) FROM imports")" = 1
'

test_expect_success 'stats.json a FIFO and no job.yaml: claimed and refused, not walked past' '
	fresh_tree &&
	break_stats fifo &&
	rm $R0/job.yaml &&
	test_expect_code 3 timeout 20 "$PERFSIFT" --db new2.db import $R0 >out 2>err &&
	echo "perfsift: error: $R0/stats.json: not a regular file: a FIFO" >want &&
	test_cmp want err &&
	test_last_line "imported 0 files: 0 runs, 0 samples; 1 failed" out
'

test_expect_success 'job.yaml, fio.output and a monitor are members too' '
	fresh_tree &&
	rm $R0/job.yaml && mkfifo $R0/job.yaml &&
	test_expect_code 3 timeout 20 "$PERFSIFT" --db good.db import $R0 2>err &&
	grep -q "$R0/job.yaml: not a regular file: a FIFO$" err &&
	rm -rf raw && cp -R "$SRC/tests/data/lkp-tree/raw-route/input" raw &&
	raw=$(dirname raw/*/*/*/*/*/*/*/*/fio.output) &&
	rm $raw/fio.output && ln -s /dev/zero $raw/fio.output &&
	rm $raw/proc-vmstat.gz && mkdir $raw/proc-vmstat.gz &&
	test_expect_code 3 timeout 20 "$PERFSIFT" --db raw.db import raw 2>err &&
	grep -q "$raw/fio.output: not a regular file: a character device$" err &&
	grep -q "$raw/proc-vmstat.gz: not a regular file: a directory$" err &&
	test ! -f raw.db || test "$(sqlite3 raw.db "SELECT count(*) FROM runs")" = 0
'

test_expect_success 'a FIFO that the run does not read (stats.json wins over fio.output) is no error' '
	fresh_tree &&
	mkfifo $R0/fio.output &&
	grow $R1 &&
	grow $R0 &&
	timeout 20 "$PERFSIFT" --db good.db import t >out 2>err &&
	test_cmp /dev/null err &&
	want_samples good.db "0|11 1|11"
'

test_expect_success 'fewer samples than the earlier import: kept, said, exit 3' '
	fresh_tree &&
	echo "{ \"fio.read_iops\": 1 }" >$R0/stats.json &&
	grow $R1 &&
	test_expect_code 3 perfsift --db good.db import t >out 2>err &&
	echo "perfsift: error: $R0: 1 sample, fewer than the 10 of its earlier import: the earlier import is kept (--replace replaces it)" >want &&
	test_cmp want err &&
	grep -q "/1: lkp-tree, 1 run, 11 samples, .*, replaces the earlier import\$" out &&
	want_samples good.db "0|10 1|11" &&
	test "$(run0_value fio.read_iops)" = 1057803.098451
'

test_expect_success 'stats.json gone (the raw route: 8 derived, not 10): kept too' '
	fresh_tree &&
	rm $R0/stats.json &&
	test_expect_code 3 perfsift --db good.db import t >out 2>err &&
	echo "perfsift: error: $R0: 8 samples, fewer than the 10 of its earlier import: the earlier import is kept (--replace replaces it)" >want &&
	test_cmp want err &&
	want_samples good.db "0|10 1|10"
'

test_expect_success '--dry-run says the same and writes nothing' '
	fresh_tree &&
	echo "{ \"fio.read_iops\": 1 }" >$R0/stats.json &&
	test_expect_code 3 perfsift --db good.db import --dry-run t >out 2>err &&
	grep -q "$R0: 1 sample, fewer than the 10 of its earlier import" err &&
	want_samples good.db "0|10 1|10"
'

test_expect_success '--replace replaces it: 1 sample, the old 10 gone' '
	fresh_tree &&
	echo "{ \"fio.read_iops\": 1 }" >$R0/stats.json &&
	perfsift --db good.db import --replace t >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "/0: lkp-tree, 1 run, 1 sample, .*, replaces the earlier import\$" out &&
	grep -q ": already imported\$" out &&
	want_samples good.db "0|1 1|10" &&
	test "$(run0_value fio.read_iops)" = 1.0 &&
	test "$(sqlite3 good.db "SELECT count(*) FROM imports")" = 2
'

test_expect_success 'as many samples or more: replaced without --replace' '
	fresh_tree &&
	sed "s/1057803.098451/7/" $R0/stats.json >s && mv s $R0/stats.json &&
	perfsift --db good.db import t >out 2>err &&
	test_cmp /dev/null err &&
	grep -q "/0: lkp-tree, 1 run, 10 samples, .*, replaces the earlier import\$" out &&
	want_samples good.db "0|10 1|10" &&
	test "$(run0_value fio.read_iops)" = 7.0
'

test_done
