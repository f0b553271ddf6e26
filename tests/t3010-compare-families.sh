#!/bin/sh
# Significance at the run counts kernel people have (issue 8): a
# comparison shaped like a real lkp one — 4 runs a side, ~250 stats
# (fio's results, /usr/bin/time, proc-vmstat, meminfo, zoneinfo; 30
# constants, some twins), read bandwidth -35% at ±8% run-to-run spread —
# flags the benchmark's result by default; the same comparison with both
# sides drawn from one distribution flags nothing; a row's answer does
# not change when the others are filtered away; params a user does not
# care about can be left out of the row key.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

# gen.py SHIFT SEED: the CSV (label,iteration,metric,value) on stdout
cat >gen.py <<'PY'
import sys
import numpy as np

shift, seed = float(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(seed)
rows = []

def add(metric, base_mean, rel_sd, change=0.0, const=False):
    for label, factor in (("base", 1.0), ("new", 1.0 + change)):
        for it in range(4):
            v = base_mean if const else \
                rng.normal(base_mean * factor, base_mean * rel_sd)
            rows.append((label, it, metric, v))

# the benchmark's own results: bandwidth and iops move together
add("fio.read_bw_MBps", 4000, 0.08, shift)
add("fio.read_iops", 1024000, 0.08, shift)
for k in range(18):
    add("fio.read_clat_%d%%_ns" % (k * 5 + 5), 20000 + 500 * k, 0.05)
for k in range(10):
    add("fio.time.stat_%d" % k, 100 + k, 0.10)
# monitors: counters and gauges, 30 constant on both sides
for k in range(150):
    add("proc-vmstat.counter_%03d" % k, 1e6 + 1e4 * k, 0.05,
        const=k < 20)
for k in range(40):
    add("meminfo.gauge_%02d" % k, 2e6, 0.02, const=k < 10)
for k in range(30):
    add("zoneinfo.node0.Normal.stat_%02d" % k, 5e4, 0.03)
# twins: the same values under two names (a sum beside its only term)
twins = [r for r in rows if r[2] == "proc-vmstat.counter_100"]
rows += [(l, i, "proc-vmstat.counter_total", v) for l, i, _, v in twins]

print("label,iteration,metric,value")
for l, i, m, v in rows:
    print("%s,%d,%s,%.6f" % (l, i, m, v))
PY

test_expect_success 'a -35% change in the benchmark result at 4+4 runs is flagged by default' '
	$PY gen.py -0.35 11 >real.csv &&
	perfsift --db real.db import -q real.csv &&
	perfsift --db real.db compare base new --json >real.json &&
	$PY -c "
import json
d = json.load(open(\"real.json\"))
flagged = sorted(r[\"metric\"] for r in d[\"rows\"])
assert flagged == [\"fio.read_bw_MBps\", \"fio.read_iops\"], flagged
for r in d[\"rows\"]:
    vs = r[\"vs\"][0]
    assert vs[\"verdict\"] == \"regression\" and vs[\"test\"] == \"welch\", vs
    # the headline results are their own family of 2 (fio has 28 other
    # rows): too few for a prior of the variances, and the U test (min
    # p 0.029 at 4+4) cannot reach 0.05/2: Welch
    assert abs(vs[\"level\"] - 0.05 / 2) < 1e-15, vs[\"level\"]
"
'

test_expect_success 'the answer for a row does not depend on the filters' '
	perfsift --db real.db compare base new --all --format csv >all.csv &&
	perfsift --db real.db compare base new --all --format csv \
		--metric fio.read_bw_MBps >one.csv &&
	grep "fio.read_bw_MBps" all.csv >want &&
	tail -n 1 one.csv >got &&
	test_cmp want got &&
	perfsift --db real.db compare base new --all --format csv \
		--metric "zoneinfo.*" --metric fio.read_bw_MBps >two.csv &&
	grep -c "^" two.csv >n && test "$(cat n)" = 32
'

test_expect_success 'constants are not tests, twins count once, monitors are their own families' '
	perfsift --db real.db compare base new --all --json >all.json &&
	$PY -c "
import json
rows = json.load(open(\"all.json\"))[\"rows\"]
by = {r[\"metric\"]: r[\"vs\"][0] for r in rows}
c = by[\"proc-vmstat.counter_000\"]
assert c[\"test\"] == \"none\" and c[\"verdict\"] == \"unchanged\" and c[\"p_value\"] is None, c
t, o = by[\"proc-vmstat.counter_total\"], by[\"proc-vmstat.counter_100\"]
assert t[\"p_value\"] == o[\"p_value\"] and t[\"q_value\"] == o[\"q_value\"], (t, o)
# proc-vmstat: 151 rows, 20 constants, 1 twin: 130 tests
assert abs(o[\"level\"] - 0.05 / 130) < 1e-15, o[\"level\"]
assert abs(by[\"meminfo.gauge_20\"][\"level\"] - 0.05 / 30) < 1e-15
assert abs(by[\"zoneinfo.node0.Normal.stat_00\"][\"level\"] - 0.05 / 30) < 1e-15
"
'

# Twenty null draws of that comparison: BH at 0.05 in each family lets a
# family have a false discovery one time in twenty at most, so the
# families with one (of about 100) must stay within 0.05 + 3 binomial
# standard errors.  A draw with nothing flagged is kept for the layouts'
# "no significant change" below.
test_expect_success 'both sides from one distribution: families with a false discovery within the FDR bound' '
	: >fams &&
	for seed in $(seq 21 40); do
		rm -f draw.db* &&
		$PY gen.py 0 $seed >null.csv &&
		perfsift --db draw.db import -q null.csv &&
		perfsift --db draw.db compare base new --all --json >draw.json &&
		$PY -c "
import json
rows = json.load(open(\"draw.json\"))[\"rows\"]
fam = lambda m: \"headline\" if m in (\"fio.read_bw_MBps\", \"fio.read_iops\") else m.split(\".\")[0]
tested = sorted(set(fam(r[\"metric\"]) for r in rows if r[\"vs\"][0][\"p_value\"] is not None))
found = sorted(set(fam(r[\"metric\"]) for r in rows if r[\"vs\"][0][\"significant\"]))
print($seed, len(tested), len(found), \" \".join(found))
" >>fams || exit 1
		if [ ! -f null.db ] && [ "$(tail -n 1 fams | cut -d" " -f3)" = 0 ]; then
			cp draw.db null.db || exit 1
		fi
	done &&
	cat fams &&
	test -f null.db &&
	$PY -c "
import math
fams = found = 0
for line in open(\"fams\"):
    w = line.split()
    fams += int(w[1]); found += int(w[2])
bound = 0.05 + 3 * math.sqrt(0.05 * 0.95 / fams)
print(\"families with a false discovery: %d of %d (bound %.3f)\" % (found, fams, bound))
assert fams >= 100, fams
assert found / fams <= bound, (found, fams, bound)
"
'

test_expect_success 'a row that is not significant is unknown, with the runs that would decide it' '
	$PY -c "
import json
rows = json.load(open(\"all.json\"))[\"rows\"]
u = [r[\"vs\"][0] for r in rows if r[\"vs\"][0][\"verdict\"] == \"unknown\"]
assert u, \"no unknown row\"
for vs in u:
    assert vs[\"significant\"] is False
    assert vs[\"runs_needed\"] is None or vs[\"runs_needed\"] >= 8, vs
    assert vs[\"runs_needed\"] is None or \"runs per side would decide\" in vs[\"note\"], vs
"
'

test_expect_success '--ignore-param lines up runs that differ in a knob nobody compares' '
	cat >knob.csv <<-\EOF &&
	label,rate_iops,rw,iteration,metric,value
	A,15000,read,0,fio.read_bw_MBps,100
	A,15000,read,1,fio.read_bw_MBps,101
	A,15000,read,2,fio.read_bw_MBps,99
	B,,read,0,fio.read_bw_MBps,60
	B,,read,1,fio.read_bw_MBps,61
	B,,read,2,fio.read_bw_MBps,59
	EOF
	perfsift --db knob.db import -q knob.csv &&
	perfsift --db knob.db compare A B --all >out 2>err &&
	grep -q "no row has values on both sides" err &&
	grep -q -- "--ignore-param NAME" err &&
	perfsift --db knob.db compare A B --all --ignore-param rate_iops --format csv >out &&
	grep -q "^,rw=read,,fio.read_bw_MBps,,higher,A,3,100,1,B,3,60,1,-40," out &&
	perfsift --db knob.db compare A B --all --ignore-param "*" --format csv >star &&
	grep -q "^,,,fio.read_bw_MBps" star
'

test_expect_success 'lkp and mmtests layouts say when nothing is significant' '
	perfsift --db null.db compare base new --format lkp >lkp.out &&
	grep -q "%stddev" lkp.out &&
	grep -q "^no significant change (" lkp.out &&
	perfsift --db null.db compare base new --format mmtests >mm.out &&
	grep -q "base" mm.out &&
	grep -q "^no significant change (" mm.out
'

# A comparison of more rows than fit in 64 MiB (151,000 metrics: memory
# grows with the rows, not the samples) stops with a clear limit, narrows
# with --testcase (families never span testcases: no answer changes).
# 1.5 million samples: skipped under the sanitizers (minutes there).
if grep -q __asan_init "$PERFSIFT" 2>/dev/null; then
	test_skip "more rows than one comparison loads" "slow under ASan"
else
	test_expect_success 'more rows than one comparison loads: exit 4 with the limit; --testcase narrows it' '
		awk "BEGIN { print \"testcase,label,iteration,metric,value\"
			for (l = 0; l < 2; l++) for (i = 0; i < 5; i++) {
				for (m = 0; m < 150000; m++)
					printf \"ta,%s,%d,m%d,%d\\n\",
						l ? \"new\" : \"base\", i, m, i + m
				for (m = 0; m < 1000; m++)
					printf \"tb,%s,%d,m%d,%d\\n\",
						l ? \"new\" : \"base\", i, m, i + m
			} }" >big.csv &&
		perfsift --db big.db import -q big.csv &&
		peak_rss_kib out "$PERFSIFT" --db big.db compare base new \
			2>err >rss &&
		test "$(cut -d" " -f2 rss)" = 4 &&
		test "$(cut -d" " -f1 rss)" -lt 65536 &&
		grep -q "these variants hold more than one comparison loads within 64 MiB" err &&
		grep -q "narrow it with --testcase or --machine" err &&
		perfsift --db big.db compare base new --testcase tb --metric m7 --all --format csv >out &&
		test "$(grep -c "^tb," out)" = 1
	'
	! [ -f rss ] || say "# refused at a peak RSS of $(cut -d" " -f1 rss) KiB"
fi

test_done
