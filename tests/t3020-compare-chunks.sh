#!/bin/sh
# compare reads the samples a range of metrics at a time and keeps of
# each row only its digest (moments, the tests' results, the log-scale
# figures, MMTests' spread and best mean, a hash for twins): its memory
# is its rows', whatever the number of samples.  The answers must not
# depend on the range: every output format, every test option, three
# variants, two groups, twins, exact and constant metrics, n = 1 sides,
# aggregates, and an MMTests tree (its pool), with ranges of 1, 13 and
# the default number of samples ($PERFSIFT_CMP_CHUNK), byte for byte.
# plot compare keeps the samples (it draws each run): the same rows.
# Two threads or one ($PERFSIFT_THREADS=1): the same bytes.
. "$(dirname "$0")/lib.sh"

test_expect_success 'data: 3 labels x 2 testcases x 4 runs, twins, exact, constant, n = 1' '
	awk "BEGIN {
		srand(3020); print \"label,testcase,iteration,metric,value,kind\"
		split(\"base new third\", lab, \" \")
		for (l = 1; l <= 3; l++) for (t = 1; t <= 2; t++)
		for (i = 0; i < 4; i++) {
			for (m = 0; m < 120; m++) {
				v = (10 + m) * (1 + 0.03 * rand())
				if (l == 2 && m % 9 == 0) v *= 1.08
				if (m % 17 == 0) v = -v
				printf \"%s,t%d,%d,m%03d_ops,%.6g,\\n\", lab[l], t, i, m, v
			}
			w = 100 + i + (l == 3)
			printf \"%s,t%d,%d,twin_a_ms,%d,\\n\", lab[l], t, i, w
			printf \"%s,t%d,%d,twin_b_ms,%d,\\n\", lab[l], t, i, w
			printf \"%s,t%d,%d,const_ops,42,\\n\", lab[l], t, i
			printf \"%s,t%d,%d,size_bytes,%d,exact\\n\", lab[l], t, i, 1000 + (l == 2)
			if (i == 0)
				printf \"%s,t%d,%d,once_ms,%d,\\n\", lab[l], t, i, 5 + l
		}
	}" >d.csv &&
	perfsift import d.csv >out &&
	perfsift import "$SRC/tests/data/csv/aggregates/input" >>out
'

test_expect_success 'every format and test: the same bytes from any range' '
	for test in auto welch mwu; do
		for f in text json csv markdown lkp mmtests; do
			for chunk in "" 1 13; do
				PERFSIFT_CMP_CHUNK=$chunk perfsift compare base new third \
					--all --test $test --format $f \
					>"out.$test.$f.${chunk:-d}" 2>&1 ||
					return 1
			done &&
			test_cmp "out.$test.$f.d" "out.$test.$f.1" &&
			test_cmp "out.$test.$f.d" "out.$test.$f.13" || return 1
		done
	done &&
	grep -q "twin_b_ms" out.auto.json.d &&
	grep -q "^size_bytes .* none  *unchanged" out.auto.text.d
'

test_expect_success 'an MMTests tree (the pool of --format mmtests): the same bytes' '
	PERFSIFT_DB=$TRASH/mm.db &&
	perfsift import "$SRC/tests/data/mmtests-tree/work/log/6.1-vanilla" \
		"$SRC/tests/data/mmtests-tree/work/log/6.1-patched" >out &&
	for f in mmtests json; do
		perfsift compare 6.1-vanilla 6.1-patched --all --format $f \
			>mm.$f.d &&
		PERFSIFT_CMP_CHUNK=1 perfsift compare 6.1-vanilla 6.1-patched \
			--all --format $f >mm.$f.1 &&
		test_cmp mm.$f.d mm.$f.1 || return 1
	done &&
	grep -q kernbench mm.mmtests.d
'

# From PARALLEL_MIN (4,096) rows on, the rows' digests and intervals are
# split over two threads, and from 2,048 the writers' blocks of rows
# (lib/core/parallel.c); past a chunk of rows (6,898 at two variants),
# the next chunk is made ahead and faulted in by the digest's helper
# (compare.c's add_chunk()): the same bytes in every format.
test_expect_success 'two threads or one: the same bytes (8,000 rows)' '
	PERFSIFT_DB=$TRASH/t.db &&
	gen_cmp_csv 8000 7 11 >t.csv &&
	perfsift import t.csv >/dev/null &&
	for f in text json mmtests lkp csv markdown; do
		perfsift compare base new --all --format $f >two.$f &&
		PERFSIFT_THREADS=1 perfsift compare base new --all \
			--format $f >one.$f &&
		test_cmp one.$f two.$f || return 1
	done &&
	perfsift compare base new --format json >two.shown &&
	PERFSIFT_THREADS=1 perfsift compare base new --format json >one.shown &&
	test_cmp one.shown two.shown &&
	grep -q "\"metric\": \"m0000_ops\"" one.shown &&
	grep -q improvement one.text
'

# From PARALLEL_MIN metric ids on, the metrics table is read on two
# connections (compare.c's metric_split): a helper thread takes blocks
# of ids from the lowest, the caller from the highest, and the metrics
# are packed in id order.  Ids without a metric between them, metrics
# past the gap, and a helper that cannot open its connection (no file
# descriptor left: the caller reads every block): the same bytes as one
# thread, which reads the table in one statement.
test_expect_success 'the metrics table on two connections: a gap, a helper without one' '
	PERFSIFT_DB=$TRASH/t.db &&
	sqlite3 "$TRASH/t.db" "INSERT INTO metrics(id, name) VALUES
		(9000, '"'"'gap_a'"'"'), (12000, '"'"'gap_b'"'"')" &&
	gen_cmp_csv 300 8 3 | sed "s/,m0/,z0/" >z.csv &&
	perfsift import z.csv >/dev/null &&
	test "$(sqlite3 "$TRASH/t.db" "SELECT min(id) FROM metrics
		WHERE name LIKE '"'"'z%'"'"'")" = 12001 &&
	for f in json mmtests; do
		perfsift compare base new --all --format $f >gap2.$f &&
		PERFSIFT_THREADS=1 perfsift compare base new --all \
			--format $f >gap1.$f &&
		test_cmp gap1.$f gap2.$f || return 1
	done &&
	test "$(grep -c "\"metric\": \"[mz][0-9]" gap1.json)" = 8300 &&
	! grep -q gap_ gap1.json &&
	n=6 &&
	until (ulimit -n $n && PERFSIFT_THREADS=1 perfsift compare base new \
		--all --format csv >lim1 2>/dev/null); do
		n=$((n + 1)) && test $n -lt 64 || return 1
	done &&
	(ulimit -n $n && perfsift compare base new --all --format csv \
		>lim2) &&
	test_cmp lim1 lim2 &&
	perfsift compare base new --all --format csv >lim0 &&
	test_cmp lim0 lim2
'

# The digest runs beside the merge of the runs (compare.c's digest
# pipe), by blocks of rows handed to the second thread: three groups
# whose runs differ in number (the rows' array grows past a row a metric
# while the helper reads it), metrics only some runs have, one or two
# threads, ranges of every size: the same bytes.
test_expect_success 'the digest beside the merge: three groups, uneven runs' '
	PERFSIFT_DB=$TRASH/g.db &&
	awk "BEGIN {
		srand(3021); print \"label,testcase,iteration,metric,value\"
		split(\"base new\", lab, \" \")
		for (l = 1; l <= 2; l++) for (t = 1; t <= 3; t++)
		for (i = 0; i < t + l; i++)
			for (m = 0; m < 1500; m++) {
				if (m % 7 == t && i == 0) continue
				v = (10 + m) * (1 + 0.03 * rand())
				if (l == 2 && m % 11 == 0) v *= 1.06
				printf \"%s,t%d,%d,m%04d_ops,%.6g\\n\", lab[l], t, i, m, v
			}
	}" >g.csv &&
	perfsift import g.csv >/dev/null &&
	for f in text json mmtests lkp csv markdown; do
		perfsift compare base new --all --format $f >g2.$f &&
		PERFSIFT_THREADS=1 perfsift compare base new --all \
			--format $f >g1.$f &&
		PERFSIFT_CMP_CHUNK=1000 perfsift compare base new --all \
			--format $f >gc.$f &&
		test_cmp g1.$f g2.$f &&
		test_cmp g1.$f gc.$f || return 1
	done &&
	test "$(grep -c "\"metric\": \"m" g1.json)" = 4500 &&
	grep -q improvement g1.text
'

# Past 65,536 metric ids (compare.c's SPARSE_METRICS) compare reads
# only the metrics its variants have, samples or aggregates: an archive
# of hundreds of thousands of names does not make every comparison read
# them all.  The first data set again, with 70,000 other metrics before
# it and 1,000 after: the same bytes in every format, and no more memory
# than without them (reading all took 9 MB more).
test_expect_success 'a database of 71,000 other metrics: the same bytes, the same memory' '
	PERFSIFT_DB=$TRASH/sparse.db &&
	awk "BEGIN { print \"label,iteration,metric,value\"
		for (m = 0; m < 70000; m++)
			printf \"other,0,filler.before.%06d,%d\\n\", m, m }" >before.csv &&
	awk "BEGIN { print \"label,iteration,metric,value\"
		for (m = 0; m < 1000; m++)
			printf \"other,1,filler.after.%04d,%d\\n\", m, m }" >after.csv &&
	perfsift import before.csv d.csv "$SRC/tests/data/csv/aggregates/input" \
		after.csv >out &&
	test "$(sqlite3 sparse.db "SELECT max(id) FROM metrics")" -gt 70000 &&
	for f in text json csv markdown lkp mmtests; do
		perfsift compare base new third --all --format $f \
			>sparse.$f 2>&1 &&
		test_cmp out.auto.$f.d sparse.$f || return 1
	done &&
	peak_rss_kib s.out "$PERFSIFT" --db sparse.db compare base new third \
		--all --format json >rss.sparse &&
	peak_rss_kib d.out "$PERFSIFT" --db test.db compare base new third \
		--all --format json >rss.dense &&
	test_cmp s.out d.out &&
	if ! grep -q __asan_init "$PERFSIFT"; then
		test $(cut -d" " -f1 rss.sparse) -lt \
			$(($(cut -d" " -f1 rss.dense) + 4096))
	fi
'

test_expect_success 'plot compare keeps the samples: each run is drawn' '
	perfsift plot compare base new --metric "m001_ops" --testcase t1 \
		--script >plot.gp &&
	grep "^base,t1,[0-3],m001_ops," d.csv | cut -d, -f5 >runs &&
	test $(wc -l <runs) = 4 &&
	while read -r x; do
		grep -q "$x" plot.gp || return 1
	done <runs
'

test_done
