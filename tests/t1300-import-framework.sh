#!/bin/sh
# The import framework: variants with identity (overrides refused on an
# input of several variants, commit prefixes resolved to the known sha),
# metric kinds (the CSV "kind" column, `metrics` showing them, exact
# metrics decided without a test), series reduced into derived samples
# (counter: last - first, gauge: the mean, a counter going down: warned,
# nothing derived), `show --series`, walked files no importer knows, and
# a long series whose points a worker thread writes.
. "$(dirname "$0")/lib.sh"

SHA_A=1111111111aaaaaaaaaa2222222222bbbbbbbbbb
SHA_B=1111111111cccccccccc3333333333dddddddddd

test_expect_success 'overrides on a two-commit CSV: usage error, nothing kept' '
	cat >two.csv <<-EOF &&
	commit,metric,value
	$SHA_A,x_ops,1
	$SHA_B,x_ops,2
	EOF
	test_expect_code 2 perfsift import --label robot two.csv >out 2>err &&
	grep -q "two.csv: the input holds several variants" err &&
	grep -q "\-\-label, \-\-kernel and \-\-commit name one variant and would merge them" err &&
	test "$(db_counts)" = "0 0 0 0 0 0 0" &&
	perfsift import two.csv >out &&
	grep -qx "two.csv: csv, 2 runs, 2 samples" out
'

test_expect_success 'overrides across the files of one command: the second variant is refused' '
	PERFSIFT_DB=$TRASH/o2.db &&
	printf "commit,metric,value\n$SHA_A,x_ops,1\n" >a.csv &&
	printf "commit,metric,value\n$SHA_B,x_ops,2\n" >b.csv &&
	printf "commit,metric,value\n$SHA_A,y_ops,3\n" >a2.csv &&
	test_expect_code 2 perfsift import --label robot a.csv a2.csv b.csv >out 2>err &&
	grep -qx "a.csv: csv, 1 run, 1 sample" out &&
	grep -qx "a2.csv: csv, 1 run, 1 sample" out &&
	grep -q "b.csv: the input holds several variants" err &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM variants")" = 1 &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT commit_sha FROM variants")" = $SHA_A
'

test_expect_success '--machine and --testcase on a two-commit CSV: they apply to both' '
	PERFSIFT_DB=$TRASH/o4.db &&
	perfsift import --machine haswell --testcase kernbench two.csv >out &&
	grep -qx "two.csv: csv, 2 runs, 2 samples" out &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT group_concat(machine || \" \" || testcase, \",\") FROM variants")" = \
		"haswell kernbench,haswell kernbench" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(DISTINCT commit_sha) FROM variants")" = 2
'

test_expect_success 'an MMTests kernbench table of two kernels, --machine haswell: both on haswell' '
	PERFSIFT_DB=$TRASH/o6.db &&
	cat >kernbench.txt <<-\EOF &&
	kernbench
	                          5.4.0-rc3              5.4.0-rc3
	                            vanilla         resetpcpu-v1r1
	Amean     elsp-256      162.42 (   0.00%)      118.46 *  27.06%*
	Stddev    elsp-256        2.46 (   0.00%)        0.81 (  67.01%)
	EOF
	perfsift import --machine haswell kernbench.txt >out &&
	grep -qx "kernbench.txt: mmtests-table, 0 runs, 0 samples, 4 aggregates; 1 table: 2 rows" out &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT group_concat(label || \" \" || machine, \",\") FROM (SELECT * FROM variants ORDER BY label)")" = \
		"5.4.0-rc3-resetpcpu-v1r1 haswell,5.4.0-rc3-vanilla haswell" &&
	test_expect_code 2 perfsift import --label one kernbench.txt >out 2>err &&
	grep -q "\-\-label, \-\-kernel and \-\-commit name one variant and would merge them" err
'

test_expect_success '--machine that would make two machines one: refused, named' '
	PERFSIFT_DB=$TRASH/o5.db &&
	cat >machines.csv <<-EOF &&
	commit,machine,metric,value
	$SHA_A,m1,x_ops,1
	$SHA_A,m2,x_ops,2
	EOF
	test_expect_code 2 perfsift import --machine haswell machines.csv >out 2>err &&
	grep -q "machines.csv: the input holds several variants" err &&
	grep -q "\-\-machine and \-\-testcase would merge them" err &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM variants")" = 0
'

test_expect_success 'one variant with overrides: accepted' '
	PERFSIFT_DB=$TRASH/o3.db &&
	perfsift import --label L --machine m1 a.csv >out &&
	perfsift runs --json >runs.json &&
	grep -q "\"label\": \"L\"" runs.json &&
	grep -q "\"machine\": \"m1\"" runs.json
'

test_expect_success 'a 10-digit commit prefix becomes the full sha the database knows' '
	PERFSIFT_DB=$TRASH/c.db &&
	perfsift import a.csv >/dev/null &&
	printf "commit,metric,value\n1111111111a,z_ops,5\n" >short.csv &&
	perfsift import short.csv >/dev/null &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT group_concat(DISTINCT commit_sha) FROM variants")" = $SHA_A &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM variants")" = 1 &&
	printf "commit,metric,value\nabcdef0123,z_ops,5\n" >unknown.csv &&
	perfsift import unknown.csv >/dev/null &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM variants WHERE commit_sha = '"'abcdef0123'"'")" = 1
'

test_expect_success 'an ambiguous commit prefix is refused, naming the candidates' '
	PERFSIFT_DB=$TRASH/c.db &&
	perfsift import b.csv >/dev/null &&
	test_expect_code 3 perfsift import --commit 1111111111 a2.csv >out 2>err &&
	grep -q "commit .1111111111. is ambiguous; candidates:" err &&
	grep -q "    $SHA_A" err &&
	grep -q "    $SHA_B" err
'

test_expect_success 'metric kinds: the CSV kind column, shown by metrics' '
	PERFSIFT_DB=$TRASH/k.db &&
	cat >kinds.csv <<-EOF &&
	label,metric,value,kind,unit
	A,vmlinux.text_bytes,1000,exact,bytes
	B,vmlinux.text_bytes,1010,exact,bytes
	A,pgfault,5,counter,
	A,nr_free_pages,7,gauge,
	A,plain,1,,
	EOF
	perfsift import kinds.csv >/dev/null &&
	perfsift metrics --json >m.json &&
	/usr/bin/python3 -c "
import json
m = {r[\"name\"]: r[\"kind\"] for r in json.load(open(\"m.json\"))}
assert m == {\"vmlinux.text_bytes\": \"exact\", \"pgfault\": \"counter\",
             \"nr_free_pages\": \"gauge\", \"plain\": None}, m
" &&
	perfsift metrics --metric vmlinux.text_bytes >m.txt &&
	grep -q "^vmlinux.text_bytes  bytes  exact" m.txt &&
	printf "label,metric,value,kind\nA,x,1,size\n" >badkind.csv &&
	test_expect_code 3 perfsift import badkind.csv 2>err &&
	grep -qx "perfsift: error: badkind.csv:2: expected a kind (counter, gauge or exact) in column '"'kind'"', got '"'size'"'" err
'

test_expect_success 'an exact metric: one value per side decides, no test' '
	PERFSIFT_DB=$TRASH/k.db &&
	perfsift metrics --set-direction "vmlinux.*=lower" >/dev/null &&
	perfsift compare A B --metric "vmlinux.*" --all --format json >c.json &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"c.json\"))
r = d[\"rows\"][0]
vs = r[\"vs\"][0]
assert r[\"metric\"] == \"vmlinux.text_bytes\", r
assert vs[\"test\"] == \"none\" and vs[\"p_value\"] is None, vs
assert abs(vs[\"change_pct\"] - 1.0) < 1e-12, vs
assert vs[\"significant\"] is True and vs[\"verdict\"] == \"regression\", vs
"
'

test_expect_success 'walked files that no importer knows are skipped and counted' '
	PERFSIFT_DB=$TRASH/w.db &&
	mkdir -p tree/sub &&
	cp a.csv tree/sub/a.csv &&
	echo "just some notes" >tree/README &&
	printf "\001\002\003" >tree/sub/blob.bin &&
	perfsift import tree >out 2>err &&
	grep -qx "tree/README: skipped: no importer knows it" out &&
	grep -qx "tree/sub/blob.bin: skipped: no importer knows it" out &&
	grep -qx "imported 1 file: 1 run, 1 sample; 2 skipped" out &&
	test ! -s err &&
	test_expect_code 3 perfsift import tree/README 2>err &&
	grep -q "tree/README: unknown format" err
'

test_expect_success 'a series: counters reduce to last - first, gauges to the mean' '
	PERFSIFT_DB=$TRASH/s.db &&
	cat >vmstat.mon <<-EOF &&
	time: 1000.5
	nr_free_pages 100
	pgfault 1000
	pgmajfault 50
	time: 1002.5
	nr_free_pages 110
	pgfault 1600
	pgmajfault 40
	time: 1004.5
	nr_free_pages 150
	pgfault 1900
	pgmajfault 60
	EOF
	perfsift import --label mon vmstat.mon >out 2>err &&
	grep -q "vmstat.mon:8: counter .proc-vmstat.pgmajfault. went down (50 to 40): a reboot or a wrap; no value derived for this run" err &&
	grep -q "vmstat.mon: procfs, 1 run, 0 samples, 9 series points, 2 derived, 1 warning" out &&
	perfsift show mon --json >s.json &&
	/usr/bin/python3 -c "
import json
v = json.load(open(\"s.json\"))[\"runs\"][0][\"values\"]
assert v == {\"proc-vmstat.pgfault\": 900, \"proc-vmstat.nr_free_pages\": 120}, v
" &&
	perfsift metrics --json | grep -q "\"kind\": \"counter\"" &&
	perfsift show mon --series proc-vmstat.pgfault >series.txt &&
	cat >expect <<-EOF &&
	run 1: proc-vmstat.pgfault, 3 points from t = 1000.5 s
	     T  +S  VALUE  CHANGE
	1000.5   0   1000       -
	1002.5   2   1600    +600
	1004.5   4   1900    +300
	EOF
	test_cmp expect series.txt &&
	perfsift show mon --series "proc-vmstat.nr_*" --json >series.json &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"series.json\"))
assert d == {\"series\": [{\"run\": 1, \"metric\": \"proc-vmstat.nr_free_pages\",
  \"points\": [[1000.5, 100], [1002.5, 110], [1004.5, 150]]}]}, d
" &&
	test_expect_code 2 perfsift show mon --series nosuch 2>err &&
	grep -q "no series matches" err
'

test_expect_success 'a series longer than one chunk is stored and read back whole' '
	PERFSIFT_DB=$TRASH/long.db &&
	awk "BEGIN { for (i = 0; i < 1000; i++)
		printf \"time: %d\\npgfault %d\\nnr_free_pages %d\\n\", i, i * 3, i % 7 }" >long.mon &&
	perfsift import --label long long.mon >/dev/null &&
	perfsift show long --series proc-vmstat.pgfault --json >l.json &&
	/usr/bin/python3 -c "
import json
p = json.load(open(\"l.json\"))[\"series\"][0][\"points\"]
assert p == [[i, i * 3] for i in range(1000)], p[:5]
" &&
	perfsift show long --json >v.json &&
	/usr/bin/python3 -c "
import json
v = json.load(open(\"v.json\"))[\"runs\"][0][\"values\"]
assert v[\"proc-vmstat.pgfault\"] == 2997, v
assert abs(v[\"proc-vmstat.nr_free_pages\"] - sum(i % 7 for i in range(1000)) / 1000) < 1e-12, v
" &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM series")" = 8
'

# A series of more points than the writer thread takes at a time
# (lib/store/series.c, ASYNC_BLOCK): the same rows written beside the
# parse as by one thread, and a bad line after thousands of records
# keeps nothing.
test_expect_success 'a long series: its points written by a second thread are the ones one thread writes' '
	awk "BEGIN { for (t = 0; t < 800; t++) { print \"time: \" (1700000000 + t)
		for (k = 0; k < 190; k++) print \"nr_x\" k, k * 1000 + t * (k % 7) } }" >long.vm &&
	perfsift --db async.db import long.vm >out &&
	grep -q "152000 series points" out &&
	PERFSIFT_THREADS=1 perfsift --db one.db import long.vm >/dev/null &&
	perfsift --db async.db debug dump >async.dump &&
	perfsift --db one.db debug dump >one.dump &&
	test_cmp one.dump async.dump &&
	test "$(grep -c "^series" async.dump)" = 152000 &&
	# the lines read where they lie and the ones that take the usual
	# way (CRLF, blanks at the end, a tab) give the same points
	awk "{ if (NR % 3 == 0) printf \"%s\\r\\n\", \$0
		else if (NR % 5 == 0) printf \"%s  \\n\", \$0
		else if (NR % 7 == 0) { sub(/ /, \"\\t\"); print }
		else print }" long.vm >mixed.vm &&
	perfsift --db mixed.db import mixed.vm >/dev/null &&
	perfsift --db mixed.db debug dump | sed 1d >mixed.dump &&
	sed 1d one.dump >one.rows &&
	test_cmp one.rows mixed.dump &&
	awk "NR == 120000 { print \"nr_x5 oops\" } { print }" long.vm >bad.vm &&
	test_expect_code 3 perfsift --db bad.db import bad.vm 2>err &&
	grep -q "bad.vm:120000: expected .name value." err &&
	test "$(sqlite3 bad.db "SELECT count(*) FROM series")" = 0 &&
	test "$(sqlite3 bad.db "SELECT count(*) FROM imports")" = 0
'

test_done
