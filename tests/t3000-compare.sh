#!/bin/sh
# perfsift compare: the numbers against scipy (tests/fixtures/compare/
# expect.json, made by gen.py), the honest cases (3+3 runs, zero
# variance, n=1, aggregates only, 500 metrics under BH), and every
# output format against golden files.
. "$(dirname "$0")/lib.sh"

FIX=$SRC/tests/fixtures/compare
PY=/usr/bin/python3
export FIX PY

test_expect_success 'import the fixtures' '
	perfsift --db known.db import -q $FIX/known.csv &&
	perfsift --db small.db import -q $FIX/small.csv &&
	perfsift --db bh.db import -q $FIX/bh500.csv &&
	perfsift --db agg.db import -q $FIX/aggregates.csv
'

test_expect_success 'U test p-values, means, sd and Fieller CI match scipy' '
	perfsift --db known.db compare base new --all --test mwu --json >out.json &&
	$PY $FIX/check.py out.json known
'

test_expect_success '--test welch matches scipy ttest_ind(equal_var=False)' '
	perfsift --db known.db compare base new --all --test welch --json >out.json &&
	$PY $FIX/check.py out.json known_welch
'

test_expect_success 'direction-aware verdicts' '
	perfsift --db known.db compare base new --all --json >out.json &&
	$PY -c "
import json
rows = {r[\"metric\"]: r[\"vs\"][0] for r in json.load(open(\"out.json\"))[\"rows\"]}
assert rows[\"bench.throughput\"][\"verdict\"] == \"regression\", rows[\"bench.throughput\"]
assert rows[\"bench.latency_us\"][\"verdict\"] == \"improvement\"
# not significant, and the interval [-12.8%, +7.4%] is wider than
# --min-change (1%): the data cannot say it is unchanged
assert rows[\"bench.noise_ops\"][\"verdict\"] == \"unknown\"
assert rows[\"bench.noise_ops\"][\"significant\"] is False
# 2 (z(1 - level/2) + z(0.8))^2 s^2 / d^2 at the family level 0.05/4
from scipy.stats import norm
n = rows[\"bench.noise_ops\"]
s2 = (202.202 - 195.138) ** 2
z = norm.ppf(1 - 0.0125 / 2) + norm.ppf(0.8)
import math
want = math.ceil(2 * z * z * (16.8990804483558 ** 2 + 8.8518907584764 ** 2) / 2 / s2)
assert n[\"level\"] == 0.0125 and n[\"runs_needed\"] == want == 82, (n, want)
"
'

test_expect_success 'zero variance: equal constants unchanged, different ones significant' '
	perfsift --db known.db compare base new --all --json --metric "bench.const*" >out.json &&
	$PY -c "
import json
rows = {r[\"metric\"]: r for r in json.load(open(\"out.json\"))[\"rows\"]}
e = rows[\"bench.const_equal_ops\"]
# one value in every run of both sides: not a test, unchanged
assert e[\"base\"][\"stddev\"] == 0 and e[\"vs\"][0][\"p_value\"] is None, e
assert e[\"vs\"][0][\"test\"] == \"none\" and e[\"vs\"][0][\"verdict\"] == \"unchanged\"
d = rows[\"bench.const_diff_ops\"][\"vs\"][0]
# 5+5 in a family of 4 tests: the level is 0.0125 and the U test (best p
# 2/C(10,5) = 0.0079) is not four times below it: Welch, whose p is 0
# for two constant sides that differ
assert d[\"test\"] == \"welch\" and d[\"p_value\"] == 0, d
assert d[\"verdict\"] == \"regression\" and d[\"ci_low_pct\"] == d[\"ci_high_pct\"]
"
'

test_expect_success 'only significant rows without --all' '
	perfsift --db known.db compare base new --json >out.json &&
	$PY -c "
import json
m = sorted(r[\"metric\"] for r in json.load(open(\"out.json\"))[\"rows\"])
assert m == [\"bench.const_diff_ops\", \"bench.latency_us\", \"bench.throughput\"], m
"
'

test_expect_success 'without --all every format shows the same rows' '
	for f in text markdown csv lkp mmtests; do
		perfsift --db known.db compare base new --format $f >out.$f || return 1
	done &&
	for m in bench.const_diff_ops bench.latency_us bench.throughput; do
		for f in text markdown csv lkp mmtests; do
			grep -q "$m" out.$f || { echo "$f lacks $m"; return 1; }
		done
	done &&
	for m in bench.const_equal_ops bench.noise_ops; do
		for f in text markdown csv lkp mmtests; do
			! grep -q "$m" out.$f || { echo "$f shows $m"; return 1; }
		done
	done
'

test_expect_success '3+3 runs: auto uses Welch, which matches scipy' '
	perfsift --db small.db compare base new --json >out.json &&
	$PY $FIX/check.py out.json small
'

test_expect_success '3+3 runs: the U test can never reach alpha, and says so' '
	perfsift --db small.db compare base new --test mwu --all --json >out.json &&
	$PY $FIX/check.py out.json small_mwu &&
	$PY -c "
import json
vs = json.load(open(\"out.json\"))[\"rows\"][0][\"vs\"][0]
assert vs[\"verdict\"] == \"unknown\", vs
assert \"need >= 4 per side\" in vs[\"note\"], vs
" &&
	perfsift --db small.db compare base new --test mwu --all >out.txt &&
	grep "3+3 runs: the U test cannot reach alpha 0.05; need >= 4 per side" out.txt
'

test_expect_success 'n=1: no p-value, and why' '
	printf "label,metric,value\nA,x_ops,10\nB,x_ops,12\n" >one.csv &&
	perfsift --db one.db import -q one.csv &&
	perfsift --db one.db compare A B --all --json >out.json &&
	$PY -c "
import json
vs = json.load(open(\"out.json\"))[\"rows\"][0][\"vs\"][0]
assert vs[\"p_value\"] is None and vs[\"test\"] == \"none\", vs
assert vs[\"verdict\"] == \"unknown\" and \"n=1\" in vs[\"note\"], vs
assert abs(vs[\"change_pct\"] - 20) < 1e-12
"
'

test_expect_success 'a metric missing on one side is missing, not 0' '
	printf "label,metric,value\nA,x_ops,10\nA,x_ops,11\nB,x_ops,12\nB,x_ops,13\nA,only_a_ops,5\nA,only_a_ops,6\n" >miss.csv &&
	perfsift --db miss.db import -q miss.csv &&
	perfsift --db miss.db compare A B --all --json >out.json &&
	$PY -c "
import json
rows = {r[\"metric\"]: r for r in json.load(open(\"out.json\"))[\"rows\"]}
r = rows[\"only_a_ops\"]
assert r[\"vs\"][0][\"mean\"] is None and r[\"vs\"][0][\"n\"] is None, r
assert r[\"vs\"][0][\"change_pct\"] is None and r[\"vs\"][0][\"source\"] is None
assert r[\"vs\"][0][\"verdict\"] == \"unknown\"
" &&
	perfsift --db miss.db compare A B --all >out.txt &&
	grep "^only_a_ops .*missing" out.txt
'

test_expect_success 'aggregates only: Welch from summaries matches scipy' '
	perfsift --db agg.db compare v6.1 patched --all --json >out.json &&
	$PY $FIX/check.py out.json aggregates &&
	$PY -c "
import json
rows = {r[\"metric\"]: r for r in json.load(open(\"out.json\"))[\"rows\"]}
e = rows[\"ebizzy.total_rsec-4\"]
assert e[\"base\"][\"source\"] == \"aggregate\" and e[\"vs\"][0][\"test\"] == \"welch\"
assert e[\"vs\"][0][\"verdict\"] == \"regression\", e
k = rows[\"kernbench.elsp-2\"][\"vs\"][0]
assert k[\"verdict\"] == \"regression\", k   # seconds: higher is worse
s = rows[\"ebizzy.total_rsec-1\"][\"vs\"][0]
assert s[\"test\"] == \"source\" and s[\"p_value\"] is None, s
assert s[\"significant\"] is True and s[\"marker\"] == \"*\", s
"
'

test_expect_success '500 metrics: BH keeps the planted regression and drops the noise' '
	perfsift --db bh.db compare base new --test mwu --json >bh.json &&
	perfsift --db bh.db compare base new --test mwu --fdr none --all --json >raw.json &&
	$PY -c "
import json
e = json.load(open(\"$FIX/expect.json\"))[\"bh500\"]
bh = json.load(open(\"bh.json\"))[\"rows\"]
raw = json.load(open(\"raw.json\"))[\"rows\"]
assert [r[\"metric\"] for r in bh] == [\"bench.m137_ops\"], [r[\"metric\"] for r in bh]
assert bh[0][\"vs\"][0][\"verdict\"] == \"regression\"
assert abs(bh[0][\"vs\"][0][\"q_value\"] - e[\"q137\"]) < 1e-9 * e[\"q137\"]
assert abs(bh[0][\"vs\"][0][\"p_value\"] - e[\"p137\"]) < 1e-9 * e[\"p137\"]
got = sorted(int(r[\"metric\"][7:10]) for r in raw if r[\"vs\"][0][\"significant\"])
assert got == e[\"raw_significant\"], got
assert len(got) > 10
"
'

test_expect_success '500 metrics, auto: the moderated t-test, as scipy computes it' '
	perfsift --db bh.db compare base new --json >bh.json &&
	perfsift --db bh.db compare base new --fdr none --all --json >raw.json &&
	$PY -c "
import json
e = json.load(open(\"$FIX/expect.json\"))[\"bh500_moderated\"]
bh = json.load(open(\"bh.json\"))[\"rows\"]
raw = json.load(open(\"raw.json\"))[\"rows\"]
assert [r[\"metric\"] for r in bh] == [\"bench.m137_ops\"], [r[\"metric\"] for r in bh]
assert abs(bh[0][\"vs\"][0][\"q_value\"] - e[\"q137\"]) < 1e-9 * e[\"q137\"]
assert len(raw) == 500
for r in raw:
    k = int(r[\"metric\"][7:10])
    vs = r[\"vs\"][0]
    assert vs[\"test\"] == \"moderated\", vs
    assert vs[\"p_moderated\"] == vs[\"p_value\"], vs
    assert abs(vs[\"p_value\"] - e[\"p\"][k]) <= 1e-9 * e[\"p\"][k], (k, vs[\"p_value\"], e[\"p\"][k])
    assert vs[\"p_welch\"] is not None, vs
got = sorted(int(r[\"metric\"][7:10]) for r in raw if r[\"vs\"][0][\"significant\"])
assert got == e[\"raw_significant\"], got
"
'

test_expect_success 'unknown and ambiguous selectors list the candidates (exit 2)' '
	test_expect_code 2 perfsift --db known.db compare base nosuch 2>err &&
	grep "nosuch" err && grep "^    base$" err && grep "^    new$" err
'

test_expect_success '--by param:NAME lines runs up without that parameter' '
	cat >p.csv <<-\EOF &&
	testcase,bs,engine,metric,value
	fio,4k,psync,bw_MBps,100
	fio,4k,psync,bw_MBps,101
	fio,4k,psync,bw_MBps,99
	fio,64k,psync,bw_MBps,400
	fio,64k,psync,bw_MBps,405
	fio,64k,psync,bw_MBps,398
	EOF
	perfsift --db p.db import -q p.csv &&
	perfsift --db p.db compare --by param:bs 4k 64k --all --json >out.json &&
	$PY -c "
import json
d = json.load(open(\"out.json\"))
r = d[\"rows\"][0]
assert d[\"by\"] == \"param\" and r[\"params\"] == \"engine=psync\", r
assert r[\"vs\"][0][\"verdict\"] == \"improvement\", r
"
'

test_expect_success 'variants that differ in params: a warning points to --by param' '
	cat >q.csv <<-\EOF &&
	label,testcase,bs,metric,value
	small,fio,4k,bw_MBps,100
	small,fio,4k,bw_MBps,101
	big,fio,64k,bw_MBps,400
	big,fio,64k,bw_MBps,402
	EOF
	perfsift --db q.db import -q q.csv &&
	perfsift --db q.db compare small big >out 2>err &&
	grep -q "no row has values on both sides.*--by param:NAME" err &&
	perfsift --db q.db compare --by param:bs 4k 64k --all --json >out.json &&
	$PY -c "
import json
r = json.load(open(\"out.json\"))[\"rows\"][0]
assert r[\"vs\"][0][\"n\"] == 2 and r[\"base\"][\"n\"] == 2, r
"
'

for fmt in text mmtests lkp csv markdown; do
	export fmt
	test_expect_success "format $fmt (golden)" '
		perfsift --db known.db compare base new --all --format $fmt >out &&
		test_golden known-$fmt out &&
		perfsift --db agg.db compare v6.1 patched --all --format $fmt >out &&
		test_golden aggregates-$fmt out
	'
done

test_expect_success 'json has every field of SPEC 5.2' '
	perfsift --db known.db compare base new --json >out.json &&
	$PY -c "
import json
d = json.load(open(\"out.json\"))
for k in (\"base\", \"compared\", \"alpha\", \"fdr\", \"rows\"): assert k in d, k
r = d[\"rows\"][0]
for k in (\"testcase\", \"params\", \"machine\", \"metric\", \"unit\", \"direction\", \"base\", \"vs\"): assert k in r, k
for k in (\"n\", \"mean\", \"stddev\", \"min\", \"max\", \"source\"): assert k in r[\"base\"], k
for k in (\"label\", \"n\", \"mean\", \"stddev\", \"change_pct\", \"ci_low_pct\", \"ci_high_pct\", \"p_value\", \"q_value\", \"test\", \"significant\", \"verdict\"):
    assert k in r[\"vs\"][0], k
assert d[\"base\"] == \"base\" and d[\"compared\"] == [\"new\"] and d[\"fdr\"] == \"bh\"
"
'

test_expect_success 'regressions: each variant against its predecessor; --exit-code' '
	test_expect_code 1 perfsift --db known.db regressions --exit-code >out &&
	grep "^new  *base .*bench.throughput" out &&
	grep "^new  *base .*bench.const_diff_ops" out &&
	grep "2 regressions among 2 variants (import order)" out &&
	perfsift --db known.db regressions --base new >out &&
	grep "^base  *new .*bench.latency_us" out &&
	grep "1 regression among 2 variants" out
'

test_expect_success 'regressions: in recorded commit order when every variant has one' '
	a=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa &&
	b=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb &&
	c=cccccccccccccccccccccccccccccccccccccccc &&
	printf "metric,value\nx_ops,80\nx_ops,81\nx_ops,79\n" >c.csv &&
	printf "metric,value\nx_ops,100\nx_ops,101\nx_ops,99\n" >a.csv &&
	printf "metric,value\nx_ops,100.5\nx_ops,100\nx_ops,99.5\n" >b.csv &&
	# imported c, a, b: c -> a is a rise, a -> b flat: nothing to report
	perfsift --db c.db import -q --commit $c c.csv &&
	perfsift --db c.db import -q --commit $a a.csv &&
	perfsift --db c.db import -q --commit $b b.csv &&
	perfsift --db c.db regressions >out &&
	grep -x "0 regressions among 3 variants (import order); 2 metric comparisons" out &&
	# the commits table says a, b, c: the drop is at c, against b
	sqlite3 c.db "INSERT INTO commits(sha, position) VALUES
		('"'"'$a'"'"', 0), ('"'"'$b'"'"', 1), ('"'"'$c'"'"', 2)" &&
	perfsift --db c.db regressions --json >out.json &&
	$PY -c "
import json
d = json.load(open(\"out.json\"))
assert d[\"order\"] == \"commit\", d
r = d[\"regressions\"]
assert len(r) == 1, r
assert r[0][\"label\"] == \"cccccccccccc\" and r[0][\"base\"] == \"bbbbbbbbbbbb\", r
"
'

test_done
