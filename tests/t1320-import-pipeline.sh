#!/bin/sh
# The import pipeline (lib/import/pipe.c): fio's files (JSON, normal and
# terse reports: the importers flagged IMP_RECORDED) are parsed ahead on
# a thread of their own and their calls replayed into each file's
# transaction.  Whatever the inputs (good, bad, duplicated,
# mixed with other formats, imported before), an import with it must
# print the same lines, exit the same way and leave the same rows as
# one file after another (PERFSIFT_THREADS=1).
. "$(dirname "$0")/lib.sh"

D=$SRC/tests/data

# both IN...: import IN with and without threads; the same lines,
# status and rows (imports_agree, tests/lib.sh)
both() {
	imports_agree PERFSIFT_THREADS 1 2 "$@"
}

# in/: fio outputs of tests/data, each twice with its numbers changed
# (so each copy has its own hash), the bad ones, one with a control
# character in its job name (refused when its metric is stored, after
# the parse), one cut short, a copy of a good one under another name, a
# CSV and a procfs snapshot between them
mkdir in
n=0
for f in "$D"/fio/*/input; do
	n=$((n + 1))
	cp "$f" in/f$n.json
	sed 's/"bw" *: *\([0-9][0-9]*\)/"bw" : 1\1/' "$f" >in/g$n.json
done
sed 's/"jobname" *: *"[^"]*"/"jobname" : "bad\\u0001name"/' \
	"$D"/fio/psync-randread/input >in/ctrl.json
head -c 3000 "$D"/fio/randrw/input >in/cut.json
cp "$D"/fio/randrw/input in/copy-of-randrw.json
printf 'label,metric,value\nA,x_ops,1\nA,y_ops,2\n' >in/m.csv
printf 'nr_free_pages 100\npgfault 7\n' >in/n.vmstat

test_expect_success 'fio outputs, good and bad, mixed with other formats: the same with the pipeline' '
	both in &&
	test "$(cat 2.rc)" = 3 &&
	test_last_line "imported 20 files: 20 runs, 1870 samples; 1 already imported; 4 skipped; 14 failed" 2.out &&
	grep -q "^perfsift: error: in/ctrl.json:[0-9]*: a control character in the metric name" 2.err &&
	grep -q "^perfsift: error: in/cut.json:" 2.err &&
	grep -q "^perfsift: warning: in/g10.json:1: skipped 1 line before the JSON" 2.err &&
	test "$(grep -c "^perfsift: error:" 2.err)" = 14 &&
	test "$(sqlite3 2.db "SELECT count(*) FROM imports")" = 20
'

test_expect_success 'the same options, forced format, dry run and quiet: the same' '
	both --format fio --label L --param fs=xfs in &&
	test_last_line "imported 18 files: 18 runs, 1866 samples; 1 already imported; 20 failed" 2.out &&
	both --dry-run in/f*.json &&
	test_last_line "would import 9 files: 9 runs, 933 samples; 8 failed" 2.out &&
	both -q in/g*.json in/m.csv &&
	test "$(cat 2.out)" = "imported 10 files: 10 runs, 935 samples; 8 failed"
'

test_expect_success 'the same files twice on one line (its warning said once), and again after a first import' '
	both in/f10.json in/f10.json in/copy-of-randrw.json in/f15.json &&
	grep -q "; 2 already imported" 2.out &&
	test "$(grep -c "in/f10.json:1: skipped 1 line before the JSON" 2.err)" = 1 &&
	SEED="in/f13.json in/f15.json" both in &&
	grep -q "2 already imported" 2.out
'

# 2,000 small fio outputs, as the bench imports them (fewer here)
test_expect_success 'two hundred outputs of one job: the same rows, and every one counted' '
	fio_copies 200 many &&
	both many &&
	test_last_line "imported 200 files: 200 runs, 17800 samples" 2.out
'

if [ -d "$SAMPLES" ]; then
	# fio's normal and terse reports go through the same fio code
	test_expect_success 'fio normal and terse reports, one of them bad: the same' '
		mkdir forms &&
		cp "$SAMPLES"/fio/*.normal.out "$SAMPLES"/fio/*.terse*.out forms/ &&
		sed "s/;[0-9]*;/;x;/" "$SAMPLES"/fio/randread-psync.terse.out \
			>forms/bad.terse.out &&
		both forms &&
		test_last_line "imported 7 files: 7 runs, 630 samples; 1 failed" 2.out &&
		grep -q "^perfsift: error: forms/bad.terse.out:1: expected the group id in field 4, got .x.$" 2.err
	'
	test_expect_success 'the samples, every format: the same with threads as without' '
		both "$SAMPLES"
	'
else
	test_skip 'fio normal and terse reports' "SKIP ../shared/samples is absent: $SAMPLES"
	test_skip 'the samples with and without threads' "SKIP ../shared/samples is absent: $SAMPLES"
fi

test_done
