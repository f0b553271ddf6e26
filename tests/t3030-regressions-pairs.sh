#!/bin/sh
# perfsift regressions reads the metrics once for all its pairs, keeps
# of each pair only the rows that may still be regressions and computes
# the intervals of those only (issue 15).  Without FDR control a pair's
# tests are those of 'perfsift compare' on it, so what regressions
# reports must be compare's regressions, row for row, to the last digit.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
export PY

# 4 variants x 6 runs x 300 metrics (a few twins: the same values under
# two names), a 20% step at c2 on every 30th metric, one improvement
results() {
	awk 'BEGIN {
		srand(15); print "label,iteration,metric,value"
		for (c = 0; c < 4; c++) for (i = 0; i < 6; i++)
		for (m = 0; m < 300; m++) {
			v = (1 + m) * (0.98 + 0.04 * rand())
			if (c >= 2 && m % 30 == 0) v *= 1.2
			if (c >= 3 && m == 7) v *= 0.8
			printf "c%d,%d,m.%03d,%.6g\n", c, i, m, v
			if (m % 100 == 5)
				printf "c%d,%d,m.twin%03d,%.6g\n", c, i, m, v
		} }' >r.csv
}

# same_rows REGRESSIONS.json COMPARE.json...: every regression of the
# compare documents (base, label, metric) with the same numbers
same_rows() {
	$PY - "$@" <<-\EOF
	import json, sys
	keys = ("change_pct", "ci_low_pct", "ci_high_pct", "p_value",
	    "q_value", "test")
	got = {(r["base"], r["label"], r["metric"]):
	       tuple(r[k] for k in keys)
	       for r in json.load(open(sys.argv[1]))["regressions"]}
	want = {}
	for path in sys.argv[2:]:
	    d = json.load(open(path))
	    for row in d["rows"]:
	        for vs in row["vs"]:
	            if vs["verdict"] == "regression":
	                want[(d["base"], vs["label"], row["metric"])] = \
	                    tuple(vs[k] for k in keys)
	if not want or got != want:
	    sys.exit("regressions %r\ncompare %r" % (got, want))
	EOF
}

test_expect_success 'four variants, a step at c2' '
	results &&
	perfsift import -q r.csv &&
	perfsift metrics --set-direction "m.*=lower" >/dev/null
'

test_expect_success 'regressions --fdr none: each pair as compare says' '
	perfsift regressions --fdr none --json >reg.json &&
	perfsift compare c0 c1 --all --fdr none --json >c01.json &&
	perfsift compare c1 c2 --all --fdr none --json >c12.json &&
	perfsift compare c2 c3 --all --fdr none --json >c23.json &&
	same_rows reg.json c01.json c12.json c23.json
'

test_expect_success 'regressions --base --fdr none: as compare of them all' '
	perfsift regressions --base c0 --fdr none --json >reg.json &&
	perfsift compare c0 c1 c2 c3 --all --fdr none --json >all.json &&
	same_rows reg.json all.json
'

test_expect_success 'text and JSON name the same regressions' '
	perfsift regressions >out &&
	perfsift regressions --json >out.json &&
	$PY -c "import json, sys
d = json.load(open(\"out.json\"))
line = \"%d regressions among 4 variants (import order); %d metric comparisons\" % (
    len(d[\"regressions\"]), d[\"tested\"] + d[\"untested\"])
if d[\"untested\"]:
    line += \", %d not decidable (fewer than 2 runs a side, or no spread)\" % d[\"untested\"]
print(line)" >expect &&
	grep -Fx "$(cat expect)" out &&
	grep "regressions among 4 variants (import order); [1-9][0-9]* metric comparisons" out
'

# regressions reads the metrics once for all its pairs: every one, even
# past the 65,536 ids from which a single compare reads only its own.
test_expect_success 'a database of 70,000 more metric names: the same regressions' '
	PERFSIFT_DB=$TRASH/sparse.db &&
	perfsift runs >/dev/null &&
	sqlite3 sparse.db "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL
		SELECT i + 1 FROM k WHERE i < 69999)
		INSERT INTO metrics(name) SELECT printf('"'"'filler.%06d'"'"', i)
		FROM k" &&
	perfsift import -q r.csv &&
	perfsift metrics --set-direction "m.*=lower" >/dev/null &&
	perfsift regressions --json >sparse.json &&
	PERFSIFT_DB=$TRASH/test.db perfsift regressions --json >dense.json &&
	test_cmp dense.json sparse.json &&
	grep -q "\"metric\"" sparse.json
'

test_expect_success 'regressions fits 100 columns whatever the params' '
	long=$(printf "p%03d=somewhat-long-value," $(seq 1 20)) &&
	{
		echo "label,iteration,metric,value,params"
		for l in a b; do
			for i in 1 2 3 4 5; do
				v=100; [ $l = b ] && v=70
				echo "$l,$i,bench.ops_per_sec,$((v + i)),\"${long%,}\""
			done
		done
	} >wide.csv &&
	perfsift --db wide.db import wide.csv >/dev/null &&
	perfsift --db wide.db metrics --set-direction "bench.*=higher" >/dev/null &&
	perfsift --db wide.db regressions >out &&
	grep "^b  *a  *\[1\]  *bench.ops_per_sec" out &&
	grep "^  \[1\] - p001=somewhat-long-value" out &&
	awk "length > 100 { bad = 1 } END { exit bad }" out &&
	grep "^      p004=somewhat-long-value," out
'

test_expect_success 'the comparisons no test could decide are counted' '
	printf "label,iteration,metric,value\nA,1,x.ops,1\nA,1,y.ops,5\nA,2,y.ops,6\nA,1,s.ops,4\nB,1,x.ops,2\nB,1,y.ops,5\nB,2,y.ops,6.1\nB,1,z.ops,3\nB,1,s.ops,4\n" >one.csv &&
	perfsift --db one.db import one.csv >/dev/null &&
	perfsift --db one.db regressions >out &&
	grep -x "0 regressions among 2 variants (import order); 3 metric comparisons, 1 not decidable (fewer than 2 runs a side, or no spread)" out &&
	perfsift --db one.db regressions --json >out.json &&
	$PY -c "import json
d = json.load(open(\"out.json\"))
assert d[\"tested\"] == 2 and d[\"untested\"] == 1, d"
'

test_done
