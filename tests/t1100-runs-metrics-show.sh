#!/bin/sh
# The listing commands on a small CSV fixture: runs, metrics (with the
# direction overrides) and show.  Text output against golden files in
# tests/expect/t1100-runs-metrics-show/; JSON checked field by field
# with python3's json module (SPEC §5.1); selector errors.
. "$(dirname "$0")/lib.sh"

W=abcd111111111111111111111111111111111111
X=abcd222222222222222222222222222222222222
E=ef0123456789abcdef0123456789abcdef012345
export W X E

# Two variants on one testcase (base: 3 runs, patched: 2), patched has
# one more run on another machine and testcase, and a third variant is
# known only by its commit (so its kernel, machine and testcase are
# unknown).  Summaries of the first two come as aggregates.
cat >runs.csv <<EOF
label,kernel,commit,machine,testcase,params,iteration,metric,value,unit
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,0,will-it-scale.per_thread_ops,1000,ops
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,0,will-it-scale.time.elapsed_time,300.5,s
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,0,proc-vmstat.numa_hit,123456,
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,1,will-it-scale.per_thread_ops,1010,ops
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,1,will-it-scale.time.elapsed_time,301.25,s
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,1,proc-vmstat.numa_hit,123500,
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,2,will-it-scale.per_thread_ops,990,ops
base,6.8.0,$W,lkp-icl,will-it-scale,mode=thread;nr_task=16,2,will-it-scale.time.elapsed_time,299.75,s
patched,6.9.0,$X,lkp-icl,will-it-scale,mode=thread;nr_task=16,0,will-it-scale.per_thread_ops,950,ops
patched,6.9.0,$X,lkp-icl,will-it-scale,mode=thread;nr_task=16,0,will-it-scale.time.elapsed_time,310,s
patched,6.9.0,$X,lkp-icl,will-it-scale,mode=thread;nr_task=16,1,will-it-scale.per_thread_ops,960.5,ops
patched,6.9.0,$X,lkp-icl,will-it-scale,mode=thread;nr_task=16,1,will-it-scale.time.elapsed_time,309,s
patched,6.9.0,$X,lkp-skl,fio-basic,bs=4k;rw=read,0,fio.read_bw_MBps,512.25,MB/s
,,$E,,,,,fio.read_bw_MBps,500,MB/s
EOF
cat >agg.csv <<EOF
label,kernel,commit,testcase,machine,metric,stat,value,stddev,stddev_kind,n,marker
base,6.8.0,$W,will-it-scale,lkp-icl,will-it-scale.per_thread_ops,Amean,1000,10,population,3,
patched,6.9.0,$X,will-it-scale,lkp-icl,will-it-scale.per_thread_ops,Amean,955.25,7.42,sample,,*
EOF

# The JSON checks: each script reads one document on stdin (json.load
# fails on anything else on stdout) and asserts, naming what differs.
cat >"$TRASH/check-runs.py" <<\EOF
import json, os, sys
runs = json.load(sys.stdin)
W, X, E = os.environ["W"], os.environ["X"], os.environ["E"]
wis = {"mode": "thread", "nr_task": "16"}
def run(i, label, kernel, commit, machine, testcase, params, it, n):
    return dict(id=i, label=label, kernel=kernel, commit=commit,
                machine=machine, testcase=testcase, params=params,
                iteration=it, suite="csv", samples=n)
expect = [
    run(1, "base", "6.8.0", W, "lkp-icl", "will-it-scale", wis, 0, 3),
    run(2, "base", "6.8.0", W, "lkp-icl", "will-it-scale", wis, 1, 3),
    run(3, "base", "6.8.0", W, "lkp-icl", "will-it-scale", wis, 2, 2),
    run(4, "patched", "6.9.0", X, "lkp-icl", "will-it-scale", wis, 0, 2),
    run(5, "patched", "6.9.0", X, "lkp-icl", "will-it-scale", wis, 1, 2),
    run(6, "patched", "6.9.0", X, "lkp-skl", "fio-basic",
        {"bs": "4k", "rw": "read"}, 0, 1),
    # unknown values are null, params an empty object
    run(7, "ef0123456789", None, E, None, None, {}, 0, 1),
]
want_ids = [int(a) for a in sys.argv[1:]] or [r["id"] for r in expect]
expect = [r for r in expect if r["id"] in want_ids]
assert isinstance(runs, list), type(runs)
assert len(runs) == len(expect), ("count", len(runs), len(expect))
for got, exp in zip(runs, expect):
    for k, v in exp.items():
        assert k in got, ("missing field", k, got)
        assert got[k] == v and type(got[k]) == type(v), \
            ("run", exp["id"], k, got[k], v)
print("ok")
EOF

cat >"$TRASH/check-metrics.py" <<\EOF
import json, sys
m = json.load(sys.stdin)
expect = [
    {"name": "fio.read_bw_MBps", "unit": "MB/s", "direction": "higher",
     "runs": 2, "aggregates": 0},
    {"name": "proc-vmstat.numa_hit", "unit": None, "direction": "unknown",
     "runs": 2, "aggregates": 0},
    {"name": "will-it-scale.per_thread_ops", "unit": "ops",
     "direction": "higher", "runs": 5, "aggregates": 2},
    {"name": "will-it-scale.time.elapsed_time", "unit": "s",
     "direction": "lower", "runs": 5, "aggregates": 0},
]
assert isinstance(m, list) and len(m) == 4, m
for got, exp in zip(m, expect):
    for k, v in exp.items():
        assert got.get(k, "MISSING") == v, (exp["name"], k, got.get(k), v)
print("ok")
EOF

cat >"$TRASH/check-show-patched.py" <<\EOF
import json, os, sys
d = json.load(sys.stdin)
assert sorted(d) == ["aggregates", "runs", "skipped"], sorted(d)
assert d["skipped"] == [], d["skipped"]
runs = d["runs"]
assert [r["id"] for r in runs] == [4, 5, 6], [r["id"] for r in runs]
for r in runs:
    for k in ("id", "label", "kernel", "commit", "machine", "testcase",
              "params", "iteration", "suite", "samples", "values"):
        assert k in r, ("missing", k)
    assert r["label"] == "patched" and r["commit"] == os.environ["X"], r
vals = [r["values"] for r in runs]
assert vals == [
    {"will-it-scale.per_thread_ops": 950,
     "will-it-scale.time.elapsed_time": 310},
    {"will-it-scale.per_thread_ops": 960.5,
     "will-it-scale.time.elapsed_time": 309},
    {"fio.read_bw_MBps": 512.25},
], vals
for v in vals:
    for x in v.values():
        assert isinstance(x, (int, float)) and not isinstance(x, bool), x
assert runs[2]["params"] == {"bs": "4k", "rw": "read"}, runs[2]["params"]
assert runs[2]["machine"] == "lkp-skl", runs[2]
a = d["aggregates"]
assert len(a) == 1, a
a = a[0]
exp = {"label": "patched", "testcase": "will-it-scale",
       "machine": "lkp-icl", "metric": "will-it-scale.per_thread_ops",
       "stat": "Amean", "value": 955.25, "stddev": 7.42, "n": None,
       "marker": "*"}
for k, v in exp.items():
    assert k in a, ("aggregate lacks", k)
    assert a[k] == v, (k, a[k], v)
print("ok")
EOF

cat >"$TRASH/check-show-base.py" <<\EOF
import json, sys
d = json.load(sys.stdin)
assert [r["id"] for r in d["runs"]] == [1, 2, 3]
assert d["runs"][2]["values"] == {
    "will-it-scale.per_thread_ops": 990,
    "will-it-scale.time.elapsed_time": 299.75}, d["runs"][2]["values"]
assert d["runs"][0]["values"]["proc-vmstat.numa_hit"] == 123456
a = d["aggregates"]
assert len(a) == 1, a
# the stddev as given (population), n known, no marker
assert a[0]["stddev"] == 10, a[0]["stddev"]
assert a[0]["n"] == 3 and isinstance(a[0]["n"], int), a[0]["n"]
assert a[0]["marker"] is None, a[0]["marker"]
assert a[0]["value"] == 1000, a[0]["value"]
print("ok")
EOF

cat >"$TRASH/check-show-run7.py" <<\EOF
import json, os, sys
d = json.load(sys.stdin)
assert d["aggregates"] == [], d["aggregates"]
assert len(d["runs"]) == 1, d["runs"]
r = d["runs"][0]
exp = {"id": 7, "label": "ef0123456789", "kernel": None,
       "commit": os.environ["E"], "machine": None, "testcase": None,
       "params": {}, "iteration": 0, "suite": "csv", "samples": 1,
       "values": {"fio.read_bw_MBps": 500}}
for k, v in exp.items():
    assert k in r, ("missing", k)
    assert r[k] == v, (k, r[k], v)
print("ok")
EOF

check_json() {
	script=$1
	shift
	/usr/bin/python3 "$TRASH/$script" "$@"
}

test_expect_success 'setup: import the fixture' '
	perfsift import runs.csv agg.csv >out &&
	cat >expect <<-\EOF &&
	runs.csv: csv, 7 runs, 14 samples
	agg.csv: csv, 0 runs, 0 samples, 2 aggregates
	imported 2 files: 7 runs, 14 samples, 2 aggregates
	EOF
	test_cmp expect out
'

# ---- runs ----

test_expect_success 'runs: every run, oldest first' '
	perfsift runs >out 2>err &&
	test ! -s err &&
	test_golden runs out
'

test_expect_success 'runs --label, --kernel, --commit prefix select one variant' '
	perfsift runs --label patched >out &&
	test_golden runs-patched out &&
	perfsift runs --kernel 6.9.0 >out2 &&
	test_cmp out out2 &&
	perfsift runs --commit abcd2 >out3 &&
	test_cmp out out3 &&
	perfsift runs --commit $X >out4 &&
	test_cmp out out4
'

test_expect_success 'runs --machine, --testcase GLOB, --suite' '
	perfsift runs --machine lkp-skl >out &&
	test_golden runs-machine out &&
	perfsift runs --testcase "fio*" >out2 &&
	test_cmp out out2 &&
	perfsift runs --testcase "will-it-*" --label base >out &&
	test_golden runs-testcase-base out &&
	perfsift runs --suite csv >out &&
	perfsift runs >all &&
	test_cmp all out
'

test_expect_success 'runs with no match: "no runs match" on stderr, exit 0' '
	perfsift runs --machine nosuch >out 2>err &&
	test ! -s out &&
	echo "no runs match" >expect &&
	test_cmp expect err &&
	perfsift runs --suite fio --json >out 2>err &&
	test "$(cat out)" = "[]" &&
	test ! -s err
'

test_expect_success 'runs --json: SPEC 5.1 fields and values; unknown values are null' '
	perfsift runs --json >out 2>err &&
	test ! -s err &&
	check_json check-runs.py <out
'

test_expect_success 'runs --json honours the filters' '
	perfsift runs --json --label base >out &&
	check_json check-runs.py 1 2 3 <out &&
	perfsift runs --testcase fio-basic --json >out &&
	check_json check-runs.py 6 <out &&
	perfsift runs --commit ef01 --json >out &&
	check_json check-runs.py 7 <out
'

test_expect_success 'runs: an unknown variant is exit 2 with the candidates' '
	test_expect_code 2 perfsift runs --label nosuch >out 2>err &&
	test ! -s out &&
	cat >expect <<-\EOF &&
	perfsift: error: no label '"'nosuch'"' in the database; candidates:
	  labels:
	    base
	    ef0123456789
	    patched
	EOF
	test_cmp expect err &&
	test_expect_code 2 perfsift runs --kernel 9.9 2>err &&
	grep -q "^    6.8.0$" err &&
	grep -q "^    6.9.0$" err
'

test_expect_success 'runs: only one of --label, --kernel, --commit' '
	test_expect_code 2 perfsift runs --label base --kernel 6.8.0 \
		>out 2>err &&
	grep -q "^perfsift: error: " err &&
	test ! -s out
'

test_expect_success 'runs --commit with an ambiguous prefix: exit 2 listing the shas' '
	test_expect_code 2 perfsift runs --commit abcd >out 2>err &&
	test ! -s out &&
	grep -q "^perfsift: error: commit prefix .abcd. is ambiguous" err &&
	grep -q "^    $W$" err &&
	grep -q "^    $X$" err
'

# ---- metrics ----

test_expect_success 'metrics: unit, direction, run and aggregate counts' '
	perfsift metrics >out 2>err &&
	test ! -s err &&
	test_golden metrics out
'

test_expect_success 'metrics --json: SPEC fields and values' '
	perfsift metrics --json >out 2>err &&
	test ! -s err &&
	check_json check-metrics.py <out
'

test_expect_success 'metrics with filters and --metric GLOB' '
	perfsift metrics --label base >out &&
	test_golden metrics-base out &&
	perfsift metrics --metric "will-it-scale.*" --machine lkp-icl >out &&
	test_golden metrics-glob out &&
	perfsift metrics --metric "nosuch*" >out 2>err &&
	test ! -s out &&
	echo "no metrics match" >expect &&
	test_cmp expect err
'

test_expect_success 'metrics --set-direction and --unset-direction' '
	perfsift metrics --set-direction "proc-vmstat.*=lower" >out &&
	echo "proc-vmstat.*: lower is better" >expect &&
	test_cmp expect out &&
	perfsift metrics --set-direction "will-it-scale.time.*=higher" >out &&
	perfsift metrics >out &&
	test_golden metrics-overridden out &&
	perfsift metrics --json --metric "proc-vmstat.numa_hit" >out &&
	grep -q "\"direction\": \"lower\"" out &&
	perfsift metrics --unset-direction "proc-vmstat.*" >out &&
	echo "proc-vmstat.*: override removed" >expect &&
	test_cmp expect out &&
	perfsift metrics --unset-direction "will-it-scale.time.*" >out &&
	perfsift metrics >out &&
	test_golden metrics out
'

test_expect_success 'metrics --set-direction: the longest matching pattern wins' '
	perfsift metrics --set-direction "*=unknown" >/dev/null &&
	perfsift metrics --set-direction "will-it-scale.*=lower" >/dev/null &&
	perfsift metrics --json >out &&
	tr -d " \n" <out >flat &&
	grep -q "\"name\":\"fio.read_bw_MBps\",\"unit\":\"MB/s\",\"direction\":\"unknown\"" flat &&
	grep -q "\"name\":\"will-it-scale.per_thread_ops\",\"unit\":\"ops\",\"direction\":\"lower\"" flat &&
	perfsift metrics --unset-direction "*" >/dev/null &&
	perfsift metrics --unset-direction "will-it-scale.*" >/dev/null &&
	perfsift metrics >out &&
	test_golden metrics out
'

test_expect_success 'metrics --set-direction with a bad direction: exit 2' '
	test_expect_code 2 perfsift metrics --set-direction "x=sideways" \
		>out 2>err &&
	grep -q "^perfsift: error: direction must be higher, lower or unknown" err &&
	test_expect_code 2 perfsift metrics --set-direction "nodirection" \
		>out 2>err &&
	grep -q "^usage: perfsift metrics" err &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM metric_directions")" = 0
'

# ---- show ----

test_expect_success 'show LABEL: a table per testcase with n, mean, sd' '
	perfsift show base >out 2>err &&
	test ! -s err &&
	test_golden show-base out &&
	perfsift show patched >out &&
	test_golden show-patched out
'

test_expect_success 'show KERNEL and show COMMIT-PREFIX are the same variant' '
	perfsift show patched >expect &&
	perfsift show 6.9.0 >out &&
	test_cmp expect out &&
	perfsift show abcd2 >out &&
	test_cmp expect out &&
	perfsift show $X >out &&
	test_cmp expect out
'

test_expect_success 'show run:ID: one run' '
	perfsift show run:1 >out &&
	test_golden show-run1 out &&
	perfsift show run:7 >out &&
	test_golden show-run7 out
'

test_expect_success 'show --metric, --testcase, --machine narrow the output' '
	perfsift show patched --metric "*_ops" --testcase "will*" >out &&
	test_golden show-patched-ops out &&
	perfsift show patched --machine lkp-skl >out &&
	test_golden show-patched-skl out
'

test_expect_success 'show --json: SPEC 5.1 runs with values, aggregates' '
	perfsift show patched --json >out 2>err &&
	test ! -s err &&
	check_json check-show-patched.py <out &&
	perfsift show base --json >out &&
	check_json check-show-base.py <out &&
	perfsift show run:7 --json >out &&
	check_json check-show-run7.py <out &&
	perfsift show ef01 --json >out2 &&
	check_json check-show-run7.py <out2
'

test_expect_success 'show: an unknown selector is exit 2 with the candidates' '
	test_expect_code 2 perfsift show nosuch >out 2>err &&
	test ! -s out &&
	cat >expect <<-EOF &&
	perfsift: error: '"'nosuch'"' is not a label, kernel or commit in the database; candidates:
	  labels:
	    base
	    ef0123456789
	    patched
	  kernels:
	    6.8.0
	    6.9.0
	  commits:
	    $W
	    $X
	    $E
	EOF
	test_cmp expect err &&
	test_expect_code 2 perfsift show nosuch --json >out 2>err &&
	test ! -s out
'

test_expect_success 'show: an ambiguous commit prefix is exit 2 listing the shas' '
	test_expect_code 2 perfsift show abcd >out 2>err &&
	test ! -s out &&
	cat >expect <<-EOF &&
	perfsift: error: commit prefix '"'abcd'"' is ambiguous; candidates:
	    $W
	    $X
	EOF
	test_cmp expect err
'

test_expect_success 'show: bad run ids and missing selector are usage errors' '
	test_expect_code 2 perfsift show run:999 >out 2>err &&
	grep -q "^perfsift: error: no run with id 999" err &&
	test_expect_code 2 perfsift show run:abc 2>err &&
	test_expect_code 2 perfsift show run:0 2>err &&
	test_expect_code 2 perfsift show 2>err &&
	grep -q "^usage: perfsift show" err
'

test_expect_success 'show: more than 8 runs in a group: no per-run columns' '
	PERFSIFT_DB=$TRASH/many.db &&
	awk "BEGIN { print \"label,metric,value,unit\";
		for (i = 1; i <= 9; i++) print \"many,m.score,\" i * 10 \",pts\" }" \
		>many.csv &&
	perfsift import many.csv >/dev/null &&
	perfsift show many >out &&
	test_golden show-many out
'

test_expect_success 'show --json: a relative stddev is given as an absolute value' '
	PERFSIFT_DB=$TRASH/relative.db &&
	printf "label,metric,stat,value,stddev,stddev_kind,n\nrel,m.ops,Amean,2500,4,relative,5\n" >rel.csv &&
	perfsift import rel.csv >/dev/null &&
	perfsift show rel --json >out &&
	/usr/bin/python3 -c "
import json, sys
a = json.load(open(\"out\"))[\"aggregates\"][0]
assert a[\"stddev\"] == 100, a
assert a[\"n\"] == 5 and a[\"value\"] == 2500, a
"
'

# BUG (fixed in 6c05e62): cli/cmd-show.c show_text() prints an
# aggregate's stddev as the absolute value the db layer converted it to,
# but tags it with the kind "(relative)": a source "± 4%" of 2500 shows
# as "100 (relative)", which reads as 100%, under a heading that
# promises the values "as the source printed them".  Fix: have
# lib/query.c query_aggregates() also return stddev_source, and print
# relative ones as e.g. "100 (4%)" or "4% (relative)".
test_expect_success 'show: a relative stddev is shown with its percentage' '
	PERFSIFT_DB=$TRASH/relative.db &&
	perfsift show rel >out &&
	grep "^rel " out >line &&
	grep -q "4%" line
'

# BUG (fixed in 6c05e62): lib/query.c selector_resolve() with DIM_AUTO
# takes the first kind that matches (label, then kernel, then commit)
# and never checks the others, although query.h says it "fails if more
# than one kind matches different runs" and SPEC §5 wants an ambiguous
# selector to be an error listing the candidates.  Here "6.1" is the
# label of runs of kernel 6.2 and the kernel of runs labelled "old":
# show 6.1 silently picks the label.  Fix: in DIM_AUTO, when the label
# matches, also test the kernel (and a hex commit prefix); if another
# kind matches a different set of runs, error() "'%s' is ambiguous: a
# label and a kernel" and list both, return -1.
test_expect_success 'show: a selector that is a label of some runs and the kernel of others is ambiguous' '
	PERFSIFT_DB=$TRASH/ambiguous.db &&
	cat >amb.csv <<-\EOF &&
	label,kernel,metric,value
	old,6.1,x,1
	6.1,6.2,x,2
	EOF
	perfsift import amb.csv >/dev/null &&
	test_expect_code 2 perfsift show 6.1 >out 2>err &&
	grep -q "^perfsift: error: .*6\.1" err
'

test_done
