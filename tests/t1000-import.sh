#!/bin/sh
# perfsift import: files, directories, stdin, gzip; the per-file summary
# lines and the total; all-or-nothing per file; re-import is a no-op;
# --dry-run; metadata flags and the default label; the error messages
# and exit codes; and the generic CSV format (importers/csv/csv.c).
. "$(dirname "$0")/lib.sh"

# jget PATH...: read JSON on stdin, print the value at each PATH (dot
# separated keys and indices; "@keys" = sorted keys, "@len" = length),
# one JSON text per line.
cat >"$TRASH/jget.py" <<\EOF
import json, sys
doc = json.load(sys.stdin)
for path in sys.argv[1:]:
    v = doc
    for k in path.split(".") if path else []:
        if k == "@keys":
            v = sorted(v)
        elif k == "@len":
            v = len(v)
        elif isinstance(v, list):
            v = v[int(k)]
        else:
            v = v[k]
    print(json.dumps(v, sort_keys=True))
EOF
jget() {
	/usr/bin/python3 "$TRASH/jget.py" "$@"
}


cat >a.csv <<\EOF
label,metric,value
A,x,1
A,y,2
A,x,3
EOF
cat >b.csv <<\EOF
label,kernel,metric,value,unit
B,6.1.0,lat_ms,10.5,ms
B,6.1.0,lat_ms,12,ms
B,6.1.0,lat_ms,11,ms
EOF
printf 'metric,value\nsingle,42\n' >c.csv

test_expect_success 'one file: a summary line and the total' '
	perfsift import a.csv >out 2>err &&
	cat >expect <<-\EOF &&
	a.csv: csv, 2 runs, 3 samples
	imported 1 file: 2 runs, 3 samples
	EOF
	test_cmp expect out &&
	test ! -s err &&
	test "$(db_counts)" = "1 2 0 3 0 2 0" &&
	test_db_ok
'

test_expect_success 'several files: a line each, in the order given, and the total' '
	perfsift import c.csv b.csv >out 2>err &&
	cat >expect <<-\EOF &&
	c.csv: csv, 1 run, 1 sample
	b.csv: csv, 3 runs, 3 samples
	imported 2 files: 4 runs, 4 samples
	EOF
	test_cmp expect out &&
	test ! -s err
'

test_expect_success 're-importing the same content changes nothing' '
	perfsift debug dump >before &&
	counts=$(db_counts) &&
	perfsift import a.csv >out 2>err &&
	cat >expect <<-\EOF &&
	a.csv: already imported
	imported 0 files: 0 runs, 0 samples; 1 already imported
	EOF
	test_cmp expect out &&
	test ! -s err &&
	cp b.csv copy-of-b.csv &&
	perfsift import copy-of-b.csv c.csv >out &&
	cat >expect <<-\EOF &&
	copy-of-b.csv: already imported
	c.csv: already imported
	imported 0 files: 0 runs, 0 samples; 2 already imported
	EOF
	test_cmp expect out &&
	perfsift debug dump >after &&
	test_cmp before after &&
	test "$(db_counts)" = "$counts"
'

test_expect_success 'the same content twice in one command: imported once' '
	PERFSIFT_DB=$TRASH/twice.db &&
	cp a.csv a-copy.csv &&
	perfsift import a.csv a-copy.csv >out &&
	cat >expect <<-\EOF &&
	a.csv: csv, 2 runs, 3 samples
	a-copy.csv: already imported
	imported 1 file: 2 runs, 3 samples; 1 already imported
	EOF
	test_cmp expect out
'

test_expect_success '.gz is read transparently: same rows as the plain file' '
	gzip -c a.csv >a.csv.gz &&
	perfsift --db plain.db import a.csv >/dev/null &&
	perfsift --db gz.db import a.csv.gz >out &&
	cat >expect <<-\EOF &&
	a.csv.gz: csv, 2 runs, 3 samples
	imported 1 file: 2 runs, 3 samples
	EOF
	test_cmp expect out &&
	perfsift --db plain.db debug dump >plain.dump &&
	perfsift --db gz.db debug dump >gz.dump &&
	test_cmp plain.dump gz.dump
'

test_expect_success 'gzip and plain are the same content: already imported both ways' '
	perfsift --db gz.db import a.csv >out &&
	grep -qx "a.csv: already imported" out &&
	perfsift --db plain.db import a.csv.gz >out &&
	grep -qx "a.csv.gz: already imported" out &&
	gzip -c a.csv >renamed.gz &&
	perfsift --db plain.db import renamed.gz >out &&
	grep -qx "renamed.gz: already imported" out &&
	perfsift --db gz.db debug dump >gz.dump2 &&
	test_cmp gz.dump gz.dump2
'

test_expect_success 'stdin: "-" reads standard input, plain or gzip' '
	perfsift --db stdin.db import - <a.csv >out 2>err &&
	cat >expect <<-\EOF &&
	-: csv, 2 runs, 3 samples
	imported 1 file: 2 runs, 3 samples
	EOF
	test_cmp expect out &&
	test ! -s err &&
	perfsift --db stdin.db debug dump >stdin.dump &&
	test_cmp plain.dump stdin.dump &&
	cat a.csv | perfsift --db pipe.db import - >out &&
	test_cmp expect out &&
	gzip -c a.csv | perfsift --db gzpipe.db import - >out &&
	test_cmp expect out &&
	perfsift --db gzpipe.db debug dump >gzpipe.dump &&
	test_cmp plain.dump gzpipe.dump
'

test_expect_success 're-import via stdin or from a file after stdin changes nothing' '
	perfsift --db stdin.db import - <a.csv >out &&
	grep -qx -- "-: already imported" out &&
	gzip -c a.csv | perfsift --db stdin.db import - >out &&
	grep -qx -- "-: already imported" out &&
	perfsift --db stdin.db import a.csv >out &&
	grep -qx "a.csv: already imported" out &&
	perfsift --db plain.db import - <a.csv >out &&
	grep -qx -- "-: already imported" out &&
	perfsift --db stdin.db debug dump >stdin.dump2 &&
	test_cmp stdin.dump stdin.dump2
'

test_expect_success 'errors in a file read from stdin are named "-:LINE:"' '
	printf "metric,value\nx,1\nx,abc\n" >bad-stdin.csv &&
	test_expect_code 3 perfsift --db bad-stdin.db import - \
		<bad-stdin.csv >out 2>err &&
	echo "perfsift: error: -:3: expected a number in column '"'value'"', got '"'abc'"'" >expect &&
	test_cmp expect err &&
	test "$(db_counts bad-stdin.db)" = "0 0 0 0 0 0 0"
'

test_expect_success 'a directory is walked recursively, sorted, hidden files skipped' '
	mkdir -p tree/sub/deeper tree/.hidden tree/b-dir &&
	printf "metric,value\nt,1\n" >tree/b.csv &&
	printf "metric,value\nt,2\n" >tree/a.csv &&
	printf "metric,value\nt,3\n" >tree/sub/z.csv &&
	printf "metric,value\nt,4\n" >tree/sub/deeper/y.csv &&
	printf "metric,value\nt,5\n" >tree/b-dir/x.csv &&
	printf "metric,value\nt,6\n" >tree/.hidden/h.csv &&
	printf "metric,value\nt,7\n" >tree/.dot.csv &&
	printf "metric,value\nt,8\n" >tree/sub/.h.csv &&
	printf "metric,value\nt,9\n" | gzip -c >tree/sub/w.csv.gz &&
	perfsift --db tree.db import tree >out 2>err &&
	cat >expect <<-\EOF &&
	tree/a.csv: csv, 1 run, 1 sample
	tree/b-dir/x.csv: csv, 1 run, 1 sample
	tree/b.csv: csv, 1 run, 1 sample
	tree/sub/deeper/y.csv: csv, 1 run, 1 sample
	tree/sub/w.csv.gz: csv, 1 run, 1 sample
	tree/sub/z.csv: csv, 1 run, 1 sample
	imported 6 files: 6 runs, 6 samples
	EOF
	test_cmp expect out &&
	test ! -s err &&
	test "$(sqlite3 tree.db "SELECT group_concat(v) FROM
		(SELECT CAST(value AS INTEGER) AS v FROM samples s
		 JOIN run_variants r ON r.id = s.run_id ORDER BY r.id)")" = "2,5,1,4,9,3"
'

test_expect_success 'a hidden file named on the command line is imported' '
	perfsift --db hidden.db import tree/.dot.csv >out &&
	grep -qx "tree/.dot.csv: csv, 1 run, 1 sample" out
'

test_expect_success 'a directory and a file: the directory again is already imported' '
	perfsift --db tree.db import tree c.csv >out &&
	test_last_line "imported 1 file: 1 run, 1 sample; 6 already imported" out
'

cat >good1.csv <<\EOF
label,metric,value
G1,good.one,1
EOF
cat >good2.csv <<\EOF
label,metric,value
G2,good.two,2
EOF
awk 'BEGIN {
	print "label,metric,value"
	for (i = 0; i < 1000; i++) print "BAD,bad.metric" i % 7 "," i
	print "BAD,bad.last,oops"
}' >bad.csv

test_expect_success 'a failed file keeps nothing; the good files still import; exit 3' '
	PERFSIFT_DB=$TRASH/fail.db &&
	test_expect_code 3 perfsift import good1.csv bad.csv good2.csv \
		>out 2>err &&
	cat >expect <<-\EOF &&
	good1.csv: csv, 1 run, 1 sample
	good2.csv: csv, 1 run, 1 sample
	imported 2 files: 2 runs, 2 samples; 1 failed
	EOF
	test_cmp expect out &&
	echo "perfsift: error: bad.csv:1002: expected a number in column '"'value'"', got '"'oops'"'" >expect &&
	test_cmp expect err &&
	test "$(db_counts)" = "2 2 0 2 0 2 0" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM metrics WHERE
		name GLOB '"'bad*'"'")" = 0 &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM variants WHERE
		label = '"'BAD'"'")" = 0 &&
	test_db_ok
'

test_expect_success 'the failed file can be imported once fixed; a failure leaves no hash behind' '
	PERFSIFT_DB=$TRASH/fail.db &&
	sed "s/oops/7/" bad.csv >fixed.csv &&
	perfsift import fixed.csv >out &&
	grep -qx "fixed.csv: csv, 143 runs, 1001 samples" out &&
	test_expect_code 3 perfsift import bad.csv >out 2>err &&
	grep -q "^imported 0 files: 0 runs, 0 samples; 1 failed$" out
'

test_expect_success 'a failing file does not spoil a later one in the same command' '
	PERFSIFT_DB=$TRASH/fail2.db &&
	test_expect_code 3 perfsift import bad.csv good1.csv bad.csv \
		good2.csv >out 2>err &&
	test "$(grep -c "^perfsift: error: bad.csv:1002:" err)" = 2 &&
	test_last_line "imported 2 files: 2 runs, 2 samples; 2 failed" out &&
	test "$(db_counts)" = "2 2 0 2 0 2 0"
'

test_expect_success 'a nonexistent path: error, exit 3, the other files still import' '
	PERFSIFT_DB=$TRASH/missing.db &&
	test_expect_code 3 perfsift import good1.csv no-such-file.csv \
		good2.csv >out 2>err &&
	cat >expect <<-\EOF &&
	good1.csv: csv, 1 run, 1 sample
	good2.csv: csv, 1 run, 1 sample
	imported 2 files: 2 runs, 2 samples; 1 failed
	EOF
	test_cmp expect out &&
	grep -q "^perfsift: error: no-such-file.csv: " err &&
	test $(wc -l <err) = 1 &&
	test "$(db_counts)" = "2 2 0 2 0 2 0"
'

test_expect_success 'a dangling symlink on the command line is a failed file' '
	PERFSIFT_DB=$TRASH/dangling.db &&
	ln -s does-not-exist dangling.csv &&
	test_expect_code 3 perfsift import dangling.csv good1.csv \
		>out 2>err &&
	grep -q "^perfsift: error: dangling.csv: " err &&
	test_last_line "imported 1 file: 1 run, 1 sample; 1 failed" out
'

test_expect_success 'an unreadable file: error, exit 3, the other files still import' '
	PERFSIFT_DB=$TRASH/unreadable.db &&
	if [ "$(id -u)" = 0 ]; then
		# root reads any mode; this one fails with EIO at offset 0
		unreadable=/proc/self/mem
	else
		cp good1.csv locked.csv && chmod 000 locked.csv &&
		unreadable=locked.csv
	fi &&
	test_expect_code 3 perfsift import good1.csv "$unreadable" \
		good2.csv >out 2>err &&
	grep -q "^perfsift: error: $unreadable" err &&
	test_last_line "imported 2 files: 2 runs, 2 samples; 1 failed" out &&
	test "$(db_counts)" = "2 2 0 2 0 2 0"
'

# BUG (fixed in 6c05e62): lib/import/import.c walk() and import_expand()
# count one failure per top-level PATH, however many entries under a
# directory failed: here three files fail and the total says "2 failed".
# Fix: pass nr_bad down into walk() and add one per entry that cannot be
# stat'ed (and one per unreadable subdirectory) instead of returning -1
# once.
test_expect_success 'failed entries inside a directory are each counted' '
	PERFSIFT_DB=$TRASH/dircount.db &&
	mkdir dir-fail &&
	cp good1.csv dir-fail/good.csv &&
	cp bad.csv dir-fail/bad.csv &&
	ln -s nowhere1 dir-fail/link1 &&
	ln -s nowhere2 dir-fail/link2 &&
	test_expect_code 3 perfsift import dir-fail >out 2>err &&
	test "$(grep -c "^perfsift: error: " err)" = 3 &&
	test_last_line "imported 1 file: 1 run, 1 sample; 3 failed" out
'

test_expect_success 'an empty file is an error' '
	PERFSIFT_DB=$TRASH/empty.db &&
	: >empty.csv &&
	test_expect_code 3 perfsift import empty.csv >out 2>err &&
	echo "perfsift: error: empty.csv: empty file" >expect &&
	test_cmp expect err &&
	echo "imported 0 files: 0 runs, 0 samples; 1 failed" >expect &&
	test_cmp expect out &&
	test_expect_code 3 perfsift import --format csv empty.csv 2>err &&
	grep -q "^perfsift: error: empty.csv: empty file$" err &&
	test_expect_code 3 perfsift import - </dev/null 2>err &&
	grep -q "^perfsift: error: -: empty file$" err &&
	gzip -c empty.csv >empty.gz &&
	test_expect_code 3 perfsift import empty.gz 2>err &&
	grep -q "^perfsift: error: empty.gz: " err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success 'a CSV with only a header or only comments has no data: error' '
	PERFSIFT_DB=$TRASH/nodata.db &&
	printf "label,metric,value\n" >header-only.csv &&
	test_expect_code 3 perfsift import header-only.csv 2>err &&
	grep -q "^perfsift: error: header-only.csv: " err &&
	printf "# nothing\n\n# here\n" >comments.csv &&
	test_expect_code 3 perfsift import comments.csv 2>err &&
	grep -q "^perfsift: error: comments.csv: " err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success 'a file no importer recognises: error naming the formats tried' '
	PERFSIFT_DB=$TRASH/unknown.db &&
	printf "hello, this is not benchmark output\n" >notes.txt &&
	test_expect_code 3 perfsift import notes.txt good1.csv >out 2>err &&
	grep -Eq "^perfsift: error: notes.txt: unknown format \(tried codesize, csv(, [a-z0-9-]+)*\); use --format$" err &&
	grep -Eq "tried .*fio" err &&
	test $(wc -l <err) = 1 &&
	grep -qx "good1.csv: csv, 1 run, 1 sample" out
'

test_expect_success '--format nosuch: exit 2, the formats listed, nothing imported' '
	PERFSIFT_DB=$TRASH/nosuchfmt.db &&
	test_expect_code 2 perfsift import --format nosuch a.csv >out 2>err &&
	grep -q "^perfsift: error: unknown format .nosuch." err &&
	grep -Eq "^ +csv$" err &&
	grep -Eq "^ +fio$" err &&
	test ! -s out &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success '--format csv reads a file that detection would miss' '
	PERFSIFT_DB=$TRASH/forced.db &&
	printf "# exported by hand\nmetric,value\nforced,1\n" >results.dat &&
	perfsift import --format csv results.dat >out &&
	grep -qx "results.dat: csv, 1 run, 1 sample" out
'

test_expect_success 'a wrong --format is a clear error, nothing kept' '
	PERFSIFT_DB=$TRASH/wrongfmt.db &&
	test_expect_code 3 perfsift import --format fio a.csv >out 2>err &&
	grep -q "^perfsift: error: a.csv" err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success '--dry-run parses and reports, and writes nothing' '
	PERFSIFT_DB=$TRASH/dry.db &&
	perfsift import c.csv >/dev/null &&
	perfsift debug dump >before &&
	perfsift import --dry-run a.csv b.csv c.csv >out 2>err &&
	cat >expect <<-\EOF &&
	a.csv: csv, 2 runs, 3 samples (dry run)
	b.csv: csv, 3 runs, 3 samples (dry run)
	c.csv: already imported
	would import 2 files: 5 runs, 6 samples; 1 already imported
	EOF
	test_cmp expect out &&
	test ! -s err &&
	perfsift debug dump >after &&
	test_cmp before after &&
	test "$(db_counts)" = "1 1 0 1 0 1 0" &&
	perfsift import a.csv >out &&
	grep -qx "a.csv: csv, 2 runs, 3 samples" out
'

test_expect_success '--dry-run still reports errors with exit 3' '
	PERFSIFT_DB=$TRASH/dry2.db &&
	test_expect_code 3 perfsift import --dry-run bad.csv good1.csv \
		>out 2>err &&
	grep -q "^perfsift: error: bad.csv:1002: " err &&
	grep -qx "would import 1 file: 1 run, 1 sample; 1 failed" out &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success '-q prints only the total' '
	PERFSIFT_DB=$TRASH/quiet.db &&
	perfsift import -q a.csv b.csv >out 2>err &&
	echo "imported 2 files: 5 runs, 6 samples" >expect &&
	test_cmp expect out &&
	test ! -s err &&
	perfsift import --quiet a.csv >out &&
	echo "imported 0 files: 0 runs, 0 samples; 1 already imported" >expect &&
	test_cmp expect out
'

cat >meta.csv <<\EOF
kernel,machine,testcase,params,metric,value
6.1.0,m1,t1,threads=4;mode=rw,ops,100
6.1.0,m1,t1,threads=4;mode=rw,ops,110
EOF

test_expect_success 'metadata flags override what the file says' '
	PERFSIFT_DB=$TRASH/meta.db &&
	perfsift import --kernel 6.2.0 --machine m2 --testcase t2 \
		--param threads=8 --param extra=yes meta.csv >/dev/null &&
	perfsift runs --json >out &&
	jget @len 0.label 0.kernel 0.commit 0.machine 0.testcase 0.params \
		1.params 0.suite 0.iteration 1.iteration <out >actual &&
	cat >expect <<-\EOF &&
	2
	"6.2.0"
	"6.2.0"
	null
	"m2"
	"t2"
	{"extra": "yes", "mode": "rw", "threads": "8"}
	{"extra": "yes", "mode": "rw", "threads": "8"}
	"csv"
	0
	1
	EOF
	test_cmp expect actual
'

test_expect_success 'without flags the file metadata is kept' '
	PERFSIFT_DB=$TRASH/meta2.db &&
	perfsift import meta.csv >/dev/null &&
	perfsift runs --json >out &&
	jget 0.label 0.kernel 0.machine 0.testcase 0.params <out >actual &&
	cat >expect <<-\EOF &&
	"6.1.0"
	"6.1.0"
	"m1"
	"t1"
	{"mode": "rw", "threads": "4"}
	EOF
	test_cmp expect actual
'

printf 'metric,value\nm,1\n' >plain.csv
SHA=0123456789abcdef0123456789abcdef01234567
export SHA

test_expect_success '--label defaults to the kernel' '
	PERFSIFT_DB=$TRASH/label1.db &&
	perfsift import --kernel 6.9.0-rc1 plain.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.kernel 0.commit >actual &&
	printf "\"6.9.0-rc1\"\n\"6.9.0-rc1\"\nnull\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--label defaults to the first 12 chars of the commit' '
	PERFSIFT_DB=$TRASH/label2.db &&
	perfsift import --commit $SHA plain.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.commit 0.kernel >actual &&
	printf "\"0123456789ab\"\n\"%s\"\nnull\n" $SHA >expect &&
	test_cmp expect actual
'

test_expect_success 'kernel wins over commit for the default label; --label wins over both' '
	PERFSIFT_DB=$TRASH/label3.db &&
	perfsift import --commit $SHA --kernel 6.8.0 plain.csv >/dev/null &&
	perfsift runs --json | jget 0.label >actual &&
	echo "\"6.8.0\"" >expect &&
	test_cmp expect actual &&
	PERFSIFT_DB=$TRASH/label4.db &&
	perfsift import --commit $SHA --kernel 6.8.0 --label mine \
		plain.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.kernel 0.commit >actual &&
	printf "\"mine\"\n\"6.8.0\"\n\"%s\"\n" $SHA >expect &&
	test_cmp expect actual
'

test_expect_success 'a short commit is its own label' '
	PERFSIFT_DB=$TRASH/label5.db &&
	perfsift import --commit deadbeef plain.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.commit >actual &&
	printf "\"deadbeef\"\n\"deadbeef\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'the default label applies to the file columns too' '
	PERFSIFT_DB=$TRASH/label6.db &&
	printf "commit,metric,value\n%s,m,1\n" $SHA >commit-col.csv &&
	printf "kernel,commit,metric,value\n5.15.0,%s,m,2\n" $SHA >both-col.csv &&
	printf "label,kernel,metric,value\nfilelabel,5.10.0,m,3\n" >label-col.csv &&
	perfsift import commit-col.csv both-col.csv label-col.csv >/dev/null &&
	perfsift runs --json | jget 0.label 1.label 2.label >actual &&
	printf "\"0123456789ab\"\n\"5.15.0\"\n\"filelabel\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--kernel alone keeps the label the file gives; --label overrides it' '
	PERFSIFT_DB=$TRASH/label7.db &&
	perfsift import --kernel 6.0.0 label-col.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.kernel >actual &&
	printf "\"filelabel\"\n\"6.0.0\"\n" >expect &&
	test_cmp expect actual &&
	PERFSIFT_DB=$TRASH/label8.db &&
	perfsift import --label cli label-col.csv >/dev/null &&
	perfsift runs --json | jget 0.label 0.kernel >actual &&
	printf "\"cli\"\n\"5.10.0\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success '--commit must be hex: exit 2, nothing imported' '
	PERFSIFT_DB=$TRASH/badcommit.db &&
	for c in xyz123456 "" "12 34" v6.1 0123456789abcdeg; do
		test_expect_code 2 perfsift import --commit "$c" plain.csv \
			>out 2>err || exit 1
		grep -q "^perfsift: error: --commit" err || exit 1
		test ! -s out || exit 1
	done &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

test_expect_success '--param must be k=v: exit 2' '
	PERFSIFT_DB=$TRASH/badparam.db &&
	test_expect_code 2 perfsift import --param novalue plain.csv 2>err &&
	grep -q "^perfsift: error: --param" err &&
	test_expect_code 2 perfsift import --param =v plain.csv 2>err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

# BUG (fixed in the working tree, not yet committed): cli/cmd-import.c
# cmd_import() returns from option errors after --param has allocated
# keys (xstrndup) without freeing params[], so LeakSanitizer fails the
# process under `make asan` (exit 1, not 2). Fix: free params[i].key and
# params on every early return (one out: label), or keep the key as a
# borrowed pointer into optarg.
test_expect_success 'usage errors after --param exit 2 (also under ASan)' '
	test_expect_code 2 perfsift import --param a=1 --commit XYZ \
		plain.csv 2>err &&
	test_expect_code 2 perfsift import --param a=1 --format nosuch \
		plain.csv 2>err &&
	test_expect_code 2 perfsift import --param a=1 2>err &&
	! grep -q Sanitizer err
'

# ---- the CSV format (importers/csv/csv.c) ----

test_expect_success 'CSV: without an iteration column a metric seen again starts the next run' '
	PERFSIFT_DB=$TRASH/csv-iter.db &&
	cat >noiter.csv <<-\EOF &&
	label,metric,value
	A,x,1
	A,y,10
	A,x,2
	B,x,5
	A,x,3
	A,y,30
	EOF
	perfsift import noiter.csv >out &&
	grep -qx "noiter.csv: csv, 4 runs, 6 samples" out &&
	sqlite3 "$PERFSIFT_DB" "SELECT r.label, r.iteration, m.name, s.value
		FROM samples s JOIN run_variants r ON r.id = s.run_id
		JOIN metrics m ON m.id = s.metric_id
		ORDER BY r.label, r.iteration, m.name" >actual &&
	cat >expect <<-\EOF &&
	A|0|x|1.0
	A|0|y|10.0
	A|1|x|2.0
	A|1|y|30.0
	A|2|x|3.0
	B|0|x|5.0
	EOF
	test_cmp expect actual
'

test_expect_success 'CSV: without iterations, the k-th value of each metric is run k' '
	PERFSIFT_DB=$TRASH/csv-iter-bymetric.db &&
	printf "metric,value\nx,1\nx,2\nx,3\ny,10\ny,20\ny,30\n" >bymetric.csv &&
	perfsift import bymetric.csv >out &&
	grep -qx "bymetric.csv: csv, 3 runs, 6 samples" out &&
	sqlite3 "$PERFSIFT_DB" "SELECT r.iteration, group_concat(m.name || '"'='"'
		|| CAST(s.value AS INTEGER)) FROM samples s
		JOIN run_variants r ON r.id = s.run_id JOIN metrics m ON m.id = s.metric_id
		GROUP BY r.id ORDER BY r.id" >actual &&
	cat >expect <<-\EOF &&
	0|x=1,y=10
	1|x=2,y=20
	2|x=3,y=30
	EOF
	test_cmp expect actual
'

test_expect_success 'CSV: rows with the same variant and iteration form one run' '
	PERFSIFT_DB=$TRASH/csv-iter2.db &&
	cat >iter.csv <<-\EOF &&
	label,iteration,metric,value
	A,0,x,1
	A,1,x,2
	A,0,y,10
	A,1,y,20
	B,0,x,5
	EOF
	perfsift import iter.csv >out &&
	grep -qx "iter.csv: csv, 3 runs, 5 samples" out &&
	perfsift runs --json | jget 0.iteration 0.samples 1.iteration \
		1.samples 2.label >actual &&
	printf "0\n2\n1\n2\n\"B\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'CSV: a second import of the same variant continues the iterations' '
	PERFSIFT_DB=$TRASH/csv-iter3.db &&
	printf "label,metric,value\nA,x,1\nA,x,2\n" >it1.csv &&
	printf "label,metric,value\nA,x,3\n" >it2.csv &&
	perfsift import it1.csv it2.csv >/dev/null &&
	sqlite3 "$PERFSIFT_DB" "SELECT group_concat(iteration)
		FROM (SELECT iteration FROM runs ORDER BY id)" >actual &&
	echo "0,1,2" >expect &&
	test_cmp expect actual
'

test_expect_success 'CSV: optional columns, params, extra columns and time' '
	PERFSIFT_DB=$TRASH/csv-cols.db &&
	cat >cols.csv <<-\EOF &&
	label,kernel,commit,machine,testcase,params,iteration,unit,time,threads,metric,value
	v1,6.1.0,abcdef0123456789,lkp-csl,ebizzy,"runtime=10,size=1G",0,records/s,2024-05-01T10:00:00Z,4,ebizzy.rsec,80387.01
	v1,6.1.0,abcdef0123456789,lkp-csl,ebizzy,runtime=10;size=1G,1,records/s,1714557600,4,ebizzy.rsec,80691.5
	EOF
	perfsift import cols.csv >out &&
	grep -qx "cols.csv: csv, 2 runs, 2 samples" out &&
	perfsift runs --json >runs.json &&
	jget 0.@keys <runs.json >keys &&
	for k in id label kernel commit machine testcase params iteration \
		suite samples; do
		grep -q "\"$k\"" keys || { echo "runs --json lacks $k"; exit 1; }
	done &&
	jget 0.label 0.kernel 0.commit 0.machine 0.testcase 0.params \
		0.iteration 0.suite 0.samples 0.start_time 1.start_time \
		1.params <runs.json >actual &&
	cat >expect <<-\EOF &&
	"v1"
	"6.1.0"
	"abcdef0123456789"
	"lkp-csl"
	"ebizzy"
	{"runtime": "10", "size": "1G", "threads": "4"}
	0
	"csv"
	1
	1714557600
	1714557600
	{"runtime": "10", "size": "1G", "threads": "4"}
	EOF
	test_cmp expect actual &&
	perfsift metrics --json | jget 0.name 0.unit >actual &&
	printf "\"ebizzy.rsec\"\n\"records/s\"\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'CSV: RFC 4180 quoting' '
	PERFSIFT_DB=$TRASH/csv-quote.db &&
	cat >quote.csv <<-\EOF &&
	"label","metric","value"
	"a,b","say ""hi""",1.5e3
	  "spaced" , plain , 2
	EOF
	perfsift import quote.csv >out &&
	grep -qx "quote.csv: csv, 2 runs, 2 samples" out &&
	sqlite3 "$PERFSIFT_DB" "SELECT r.label, m.name, s.value
		FROM samples s JOIN run_variants r ON r.id = s.run_id
		JOIN metrics m ON m.id = s.metric_id ORDER BY r.id" >actual &&
	cat >expect <<-\EOF &&
	a,b|say "hi"|1500.0
	spaced|plain|2.0
	EOF
	test_cmp expect actual
'

test_expect_success 'CSV: a stat column makes aggregates, kept as printed' '
	PERFSIFT_DB=$TRASH/csv-agg.db &&
	cat >agg.csv <<-\EOF &&
	label,testcase,machine,metric,stat,value,stddev,stddev_kind,n,marker
	base,ebizzy,m1,ebizzy.rsec,Hmean,80000,2,relative,5,
	new,ebizzy,m1,ebizzy.rsec,Hmean,76000,1500,,,*
	EOF
	perfsift import agg.csv >out &&
	cat >expect <<-\EOF &&
	agg.csv: csv, 0 runs, 0 samples, 2 aggregates
	imported 1 file: 0 runs, 0 samples, 2 aggregates
	EOF
	test_cmp expect out &&
	test "$(db_counts)" = "1 0 0 0 2 1 0" &&
	perfsift show new --json >new.json &&
	jget runs aggregates.@len aggregates.0.label aggregates.0.testcase \
		aggregates.0.machine aggregates.0.metric aggregates.0.stat \
		aggregates.0.value aggregates.0.stddev aggregates.0.n \
		aggregates.0.marker <new.json >actual &&
	cat >expect <<-\EOF &&
	[]
	1
	"new"
	"ebizzy"
	"m1"
	"ebizzy.rsec"
	"Hmean"
	76000.0
	1500.0
	null
	"*"
	EOF
	test_cmp expect actual &&
	perfsift show base --json | jget aggregates.0.stddev \
		aggregates.0.n aggregates.0.marker >actual &&
	printf "1600.0\n5\nnull\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'CSV: CRLF line ends, comments and blank lines' '
	PERFSIFT_DB=$TRASH/csv-crlf.db &&
	printf "# made on Windows\r\n\r\nlabel,metric,value\r\nW,x,1\r\n# c\r\n\r\nW,x,2\r\nW,x,3" >crlf.csv &&
	perfsift import crlf.csv >out &&
	grep -qx "crlf.csv: csv, 3 runs, 3 samples" out &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT group_concat(value)
		FROM (SELECT value FROM samples ORDER BY run_id)")" = "1.0,2.0,3.0" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT label FROM run_variants LIMIT 1")" = W &&
	printf "label,metric,value\r\n# c\r\nW,x,1\r\nW,x,zz\r\n" >crlf-bad.csv &&
	test_expect_code 3 perfsift import crlf-bad.csv 2>err &&
	echo "perfsift: error: crlf-bad.csv:4: expected a number in column '"'value'"', got '"'zz'"'" >expect &&
	test_cmp expect err
'

test_expect_success 'CSV: a UTF-8 byte order mark before the header is skipped' '
	PERFSIFT_DB=$TRASH/csv-bom.db &&
	printf "\357\273\277metric,value\nbom.metric,1\n" >bom.csv &&
	perfsift import bom.csv >out &&
	grep -qx "bom.csv: csv, 1 run, 1 sample" out &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT name FROM metrics")" = bom.metric
'

# BUG (fixed in 6c05e62): importers/csv/csv.c csv_detect() tokenises only
# the very first line, while csv_parse() skips a UTF-8 byte order mark
# and leading blank and '#' lines before the header.  So a valid CSV
# with a BOM or a comment on top is "unknown format" unless its name
# ends in .csv (stdin never does).  Fix: in csv_detect(), skip
# "\xef\xbb\xbf" and blank/'#' lines within the head before looking for
# the metric and value names.
test_expect_success 'CSV: detected behind a byte order mark or a leading comment' '
	PERFSIFT_DB=$TRASH/csv-detect.db &&
	printf "\357\273\277metric,value\ndetect.bom,1\n" >bom.txt &&
	perfsift import bom.txt >out 2>err &&
	grep -qx "bom.txt: csv, 1 run, 1 sample" out &&
	printf "# comment\n\nmetric,value\ndetect.comment,1\n" |
		perfsift import - >out 2>err &&
	grep -qx -- "-: csv, 1 run, 1 sample" out
'

test_expect_success 'CSV: values that are not finite decimal numbers are refused' '
	PERFSIFT_DB=$TRASH/csv-nonfinite.db &&
	for v in inf -inf nan NaN 0x10 1e999 -1e999 "" 12abc 1,5 "1 2"; do
		printf "metric,value\nx,1\nx,\"%s\"\n" "$v" >nf.csv &&
		test_expect_code 3 perfsift import nf.csv >out 2>err ||
			{ echo "value \"$v\" accepted"; exit 1; }
		grep -q "^perfsift: error: nf.csv:3: expected a number in column .value." err ||
			{ echo "value \"$v\":"; cat err; exit 1; }
	done &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

# BUG (fixed in 6c05e62): lib/strparse.c str_double() refuses "0x10" but
# not "-0x10" or "+0x1p4": the hex check looks at s[0] only, before the
# sign.  So the CSV value -0x10 imports as -16.  Fix: check for
# "0x"/"0X" after an optional sign (see tests/unit/t-lib.c
# test_str_double_signed_hex).
test_expect_success 'CSV: a signed hexadecimal value is refused like an unsigned one' '
	PERFSIFT_DB=$TRASH/csv-hex.db &&
	printf "metric,value\nx,-0x10\n" >hex.csv &&
	test_expect_code 3 perfsift import hex.csv >out 2>err &&
	grep -q "^perfsift: error: hex.csv:2: expected a number" err
'

test_expect_success 'CSV: malformed input gets path:line and what was expected' '
	PERFSIFT_DB=$TRASH/csv-errors.db &&
	check_err() {
		printf "$1" >e.csv &&
		test_expect_code 3 perfsift import --format csv e.csv \
			>out 2>err &&
		echo "perfsift: error: e.csv:$2" >expect &&
		test_cmp expect err
	} &&
	check_err "label,metric,value\nA,x,1\nA,y\n" \
		"3: expected 3 fields as in the header, got 2" &&
	check_err "label,metric,value\n\"A,x,1\n" \
		"2: the quoted field opened at column 1 does not close on its line (a row is one line: no line end inside quotes)" &&
	check_err "label,metric,value\n\"A\"x,y,1\n" \
		"2: expected '"','"' after quoted field" &&
	check_err "label,name,value\nA,x,1\n" \
		"1: expected a CSV header with '"'metric'"' and '"'value'"' columns; '"'metric'"' is missing" &&
	check_err "metric,val\nx,1\n" \
		"1: expected a CSV header with '"'metric'"' and '"'value'"' columns; '"'value'"' is missing" &&
	check_err "label,metric,value\nA,,1\n" "2: empty metric name" &&
	check_err "iteration,metric,value\n-1,x,1\n" \
		"2: expected an iteration number >= 0, got '"'-1'"'" &&
	check_err "iteration,metric,value\n1.5,x,1\n" \
		"2: expected an iteration number >= 0, got '"'1.5'"'" &&
	check_err "time,metric,value\nyesterday,x,1\n" \
		"2: expected a time (unix seconds or YYYY-MM-DDTHH:MM:SS), got '"'yesterday'"'" &&
	check_err "metric,value,stat,stddev_kind\nx,1,mean,wild\n" \
		"2: expected stddev_kind sample, population or relative, got '"'wild'"'" &&
	check_err "metric,value,stat,n\nx,1,mean,2.5\n" \
		"2: expected a count in column '"'n'"', got '"'2.5'"'" &&
	check_err "metric,value,stat,stddev\nx,1,mean,wide\n" \
		"2: expected a number in column '"'stddev'"', got '"'wide'"'" &&
	check_err "label,iteration,metric,value\nA,0,x,1\nA,0,x,2\n" \
		"3: metric '"'x'"' given twice for one run" &&
	check_err "params,metric,value\nthreads,x,1\n" \
		"2: expected '"'key=value'"' in params, got '"'threads'"'" &&
	test "$(db_counts)" = "0 0 0 0 0 0 0"
'

# samples go in sixteen to a statement (lib/store/emit.c): a metric
# given twice inside a statement undoes it whole, and its rows go in
# again one at a time to find the line; the other file still imports
test_expect_success 'a metric given twice among queued samples: its line, nothing kept' '
	PERFSIFT_DB=$TRASH/csv-dup16.db &&
	{
		echo label,iteration,metric,value &&
		for i in $(seq 1 20); do echo "a,0,m$i,$i"; done &&
		echo a,0,m3,33 &&
		for i in $(seq 21 40); do echo "a,0,m$i,$i"; done
	} >dup16.csv &&
	printf "label,metric,value\nb,x,1\n" >fine.csv &&
	test_expect_code 3 perfsift import dup16.csv fine.csv >out 2>err &&
	echo "perfsift: error: dup16.csv:22: metric '"'m3'"' given twice for one run" >expect &&
	test_cmp expect err &&
	grep -q "imported 1 file: 1 run, 1 sample; 1 failed" out &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM samples")" = 1 &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM run_values")" = 1
'

test_expect_success 'CSV: more than 256 fields is an error' '
	PERFSIFT_DB=$TRASH/csv-wide.db &&
	awk "BEGIN { for (i = 0; i < 300; i++) printf \"c%d,\", i; print \"metric,value\" }" >wide.csv &&
	test_expect_code 3 perfsift import wide.csv 2>err &&
	echo "perfsift: error: wide.csv:1: more than 256 fields" >expect &&
	test_cmp expect err
'

# BUG (fixed in d442927): importers/csv/csv.c parse_header() returns its
# errors ("column 'x' given twice", "column N has an empty name") after
# xstrdup()ing names into s->colname[] but before s->nr_cols is set, so
# csv_parse() frees none of them: LeakSanitizer fails the process under
# `make asan` (exit 1 instead of 3).  Fix: set s->nr_cols = i + 1 as
# each name is stored (or free colname[] up to the first NULL at out:).
test_expect_success 'CSV: a duplicated or empty header name is an error (also under ASan)' '
	PERFSIFT_DB=$TRASH/csv-header.db &&
	printf "metric,value,metric\nx,1,y\n" >dup.csv &&
	test_expect_code 3 perfsift import dup.csv >out 2>err &&
	grep -q "^perfsift: error: dup.csv:1: column .metric. given twice$" err &&
	printf "metric,,value\nx,1,2\n" >noname.csv &&
	test_expect_code 3 perfsift import noname.csv >out 2>err &&
	grep -q "^perfsift: error: noname.csv:1: column 2 has an empty name$" err &&
	! grep -q Sanitizer err
'

# BUG (fixed in 6c05e62): importers/csv/csv.c parse_time() casts any finite
# number to int64_t ((int64_t)1e300 is undefined; on x86-64 it gives
# INT64_MIN) and the db layer then stores no start time, so a nonsense
# time is accepted silently.  The "n" column has the same cast
# ((long)1e300 -> "n not known").  Fix: refuse times outside, say,
# 0..253402300799 (year 9999) and counts above LONG_MAX with the
# "expected a time"/"expected a count" errors.
test_expect_success 'CSV: an out-of-range time or count is refused' '
	PERFSIFT_DB=$TRASH/csv-range.db &&
	printf "time,metric,value\n1e300,x,1\n" >bigtime.csv &&
	test_expect_code 3 perfsift import bigtime.csv >out 2>err &&
	grep -q "^perfsift: error: bigtime.csv:2: expected a time" err &&
	printf "metric,value,stat,n\nx,1,mean,1e300\n" >bign.csv &&
	test_expect_code 3 perfsift import bign.csv >out 2>err &&
	grep -q "^perfsift: error: bign.csv:2: expected a count" err
'

test_expect_success 'a progress line on a terminal; none with -q or without a terminal' '
	PERFSIFT_DB=$TRASH/progress.db &&
	mkdir prog && printf "metric,value\nx,1\n" >prog/a.csv &&
	printf "metric,value\ny,2\n" >prog/b.csv &&
	# script(1) (bsdutils, always installed) gives the command a pty
	script -qec "$PERFSIFT import prog" /dev/null </dev/null >tty.out &&
	grep -q "importing 1/2 prog/a.csv" tty.out &&
	grep -q "importing 2/2 prog/b.csv" tty.out &&
	rm -f "$PERFSIFT_DB"* &&
	script -qec "$PERFSIFT import -q prog" /dev/null </dev/null >tty.out &&
	! grep -q "importing" tty.out &&
	rm -f "$PERFSIFT_DB"* &&
	perfsift import prog >out 2>err &&
	! grep -q "importing" err
'

test_done
