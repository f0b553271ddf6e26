#!/bin/sh
# The lkp-tree importer on a result tree laid out as lkp lays it out
# (tests/fixtures/lkp-tree/result, built by make-tree.sh from real fio
# runs, reduced by reduce.py, a port of lkp's reduction: stats.json per run,
# matrix/avg/stddev.json per commit).  The expected numbers are read from
# lkp's own files with python's json module, independently of our C code:
# compare must give avg.json's means, and the raw route (no stats.json:
# our fio and procfs parsers, reduced by the store) must give stats.json's
# values, except the differences listed in docs/lkp-tree.md.
. "$(dirname "$0")/lib.sh"

TREE=$SRC/tests/fixtures/lkp-tree/result
C1=1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d
C2=9f8e7d6c5b4a39281706f5e4d3c2b1a098f7e6d5
RUNS=fio-basic/4k-performance-psync-1-2s-randread-16M-tb/lkp-fixture/debian-12-x86_64/x86_64-rhel-9.4/gcc-12
export TREE C1 C2 RUNS

need_python3 'lkp result tree'

# ---- helpers: everything is computed from lkp's files, not from us ----

cat >lib.py <<'PY'
import glob, gzip, json, math, os, sys

TREE, C1, C2, RUNS = (os.environ[k] for k in ("TREE", "C1", "C2", "RUNS"))

def run_dirs(root, commit):
    base = os.path.join(root, RUNS, commit)
    return sorted((d for d in glob.glob(base + "/*/") if
                   os.path.basename(d.rstrip("/")).isdigit()),
                  key=lambda d: int(os.path.basename(d.rstrip("/"))))

def stats(run):
    return json.load(open(os.path.join(run, "stats.json")))

def close(a, b, rel):
    return a == b or abs(a - b) <= rel * max(abs(a), abs(b))

def fail(bad, msg):
    print(msg)
    bad.append(msg)
PY

cat >check-runs.py <<'PY'
# runs --json: six runs, named from the path, params from job.yaml.
import json, sys
from lib import *

want_params = {
    "bs": "4k", "compiler": "gcc-12", "cpufreq_governor": "performance",
    "ioengine": "psync", "kconfig": "x86_64-rhel-9.4", "nr_task": "1",
    "rootfs": "debian-12-x86_64", "runtime": "2s", "rw": "randread",
    "test_size": "16M", "time_based": "tb",
}
runs = json.load(open(sys.argv[1]))
bad = []
if len(runs) != 6:
    fail(bad, "%d runs, expected 6" % len(runs))
seen = {}
for r in runs:
    for k, v in (("testcase", "fio-basic"), ("machine", "lkp-fixture"),
                 ("suite", "lkp"), ("kernel", None)):
        if r[k] != v:
            fail(bad, "run %d: %s %r, expected %r" % (r["id"], k, r[k], v))
    if r["params"] != want_params:
        fail(bad, "run %d: params %r" % (r["id"], r["params"]))
    seen.setdefault(r["commit"], []).append(r["iteration"])
    n = len([v for v in stats(run_dirs(TREE, r["commit"])[r["iteration"]]).values()
             if isinstance(v, (int, float))])
    if r["samples"] != n:
        fail(bad, "run %d: %d samples, stats.json has %d" % (r["id"], r["samples"], n))
if {c: sorted(i) for c, i in seen.items()} != {C1: [0, 1, 2], C2: [0, 1, 2]}:
    fail(bad, "commits and iterations: %r" % seen)
sys.exit(1 if bad else 0)
PY

cat >check-compare.py <<'PY'
# compare --format json against each commit's avg.json and stddev.json.
# lkp's stddev.json is the population sd (n divisor), ours the sample sd
# (n - 1): ours = lkp's * sqrt(n / (n - 1)).  A stat missing from a run
# (dump-stat dropped it as all-zero there) is 0 in lkp's matrix
# (matrix_fill_missing_zeros) but missing for us: then our n counts the
# runs that have it and our mean is avg * 3 / n.
import json, sys
from lib import *

out = json.load(open(sys.argv[1]))
rows = {r["metric"]: r for r in out["rows"]}
bad, full, partial = [], 0, 0
must = {"fio.read_bw_MBps", "fio.read_iops", "fio.read_clat_mean_ns",
        "fio.read_clat_99%_ns", "fio.workload", "proc-vmstat.pgfault",
        "proc-vmstat.pgpgin", "proc-vmstat.pgalloc_normal",
        "proc-vmstat.nr_free_pages", "meminfo.MemFree"}
checked = set()
for side, commit in (("base", C1), ("new", C2)):
    cdir = os.path.join(TREE, RUNS, commit)
    avg = json.load(open(os.path.join(cdir, "avg.json")))
    sd = json.load(open(os.path.join(cdir, "stddev.json")))
    runs = [stats(d) for d in run_dirs(TREE, commit)]
    for k, a in avg.items():
        r = rows.get(k)
        if r is None:
            fail(bad, "%s: no row" % k)
            continue
        s = r["base"] if side == "base" else r["vs"][0]
        n = sum(1 for st in runs if k in st)
        if s["n"] != n:
            fail(bad, "%s %s: n %r, expected %d" % (side, k, s["n"], n))
            continue
        if n == 3:
            full += 1
            checked.add(k)
            want_sd = sd[k] * math.sqrt(n / (n - 1))
            if not close(s["mean"], a, 1e-9):
                fail(bad, "%s %s: mean %r, avg.json %r" % (side, k, s["mean"], a))
            if not (close(s["stddev"], want_sd, 1e-9) or
                    abs(s["stddev"] - want_sd) <= 1e-12 * abs(a)):
                fail(bad, "%s %s: sd %r, stddev.json*sqrt(3/2) %r" %
                     (side, k, s["stddev"], want_sd))
        else:
            partial += 1
            if not close(s["mean"] * n / 3, a, 1e-9):
                fail(bad, "%s %s: mean %r over %d runs, avg.json %r over 3" %
                     (side, k, s["mean"], n, a))
for k in sorted(must - checked):
    fail(bad, "%s: not checked on both sides" % k)
print("%d means and sds match avg.json/stddev.json, %d stats missing in some "
      "run match avg*3/n, %d bad" % (full, partial, len(bad)))
sys.exit(1 if bad else 0)
PY

cat >check-routes.py <<'PY'
# The raw route (no stats.json) against lkp's stats.json, run by run.
import gzip, json, re, sys
from lib import *

copy = sys.argv[1]
shows = {}
for f in sys.argv[2:]:
    r = json.load(open(f))["runs"][0]
    shows[(r["commit"], r["iteration"])] = r["values"]

# Deliberate differences (docs/lkp-tree.md):
# lkp's meminfo parser derives these two; our procfs importer does not.
ABSENT = {"meminfo.Memused", "meminfo.max_used_kB"}
# Cumulative counters that lkp's event-counter-prefixes do not list, so
# lkp averages them; ours are counters: last - first.
COUNTERS = {"proc-vmstat.nr_foll_pin_acquired",
            "proc-vmstat.nr_foll_pin_released",
            "proc-vmstat.drop_pagecache", "proc-vmstat.drop_slab"}

def monitor_records(path):
    recs = []
    for line in gzip.open(path, "rt"):
        if line.startswith("time:"):
            recs.append([])
        elif recs:
            recs[-1].append(line.rstrip("\n"))
    return recs

def vmstat_series(run, key):
    out = []
    for rec in monitor_records(os.path.join(run, "proc-vmstat.gz")):
        for line in rec:
            f = line.split()
            if f and f[0] == key:
                out.append(int(f[1]))
                break
    return out

def zone_series(run, zone, key):
    """key ("free", "min", "numa_hit") of one zone in every record."""
    out = []
    for rec in monitor_records(os.path.join(run, "zoneinfo.gz")):
        z = None
        for line in rec:
            m = re.match(r"Node (\d+), zone\s+(\S+)", line)
            if m:
                z = m.group(2)
                continue
            f = line.split()
            if z != zone or len(f) < 2:
                continue
            if f[:2] == ["pages", "free"] and key == "free":
                out.append(int(f[2]))
                break
            if f[0] == key and f[1].isdigit():
                out.append(int(f[1]))
                break
    return out

bad = []
agreed = exceptions = zone_checked = 0
for commit in (C1, C2):
    for run in run_dirs(TREE, commit):
        it = int(os.path.basename(run.rstrip("/")))
        ours = shows.get((commit, it))
        if ours is None:
            fail(bad, "no run for %s/%d" % (commit[:8], it))
            continue
        st = stats(run)
        for k, v in st.items():
            got = ours.get(k)
            if k in ABSENT:
                exceptions += 1
                if got is not None:
                    fail(bad, "%s: expected absent, got %r" % (k, got))
                continue
            if k in COUNTERS:
                exceptions += 1
                s = vmstat_series(run, k.split(".", 1)[1])
                if got is None or got != s[-1] - s[0]:
                    fail(bad, "%s: %r, expected last - first %r" %
                         (k, got, s[-1] - s[0]))
                continue
            if k.startswith("zoneinfo."):
                # lkp's values are wrong (docs/lkp-tree.md): names only,
                # but for its misreads of the per-CPU lines
                exceptions += 1
                if got is None and not re.search(r"\.(high_max|vm_stats_threshold)$", k):
                    fail(bad, "%s: missing" % k)
                continue
            if got is None:
                fail(bad, "%s/%d %s: missing (stats.json %r)" % (commit[:8], it, k, v))
            elif not close(got, v, 1e-6):
                fail(bad, "%s/%d %s: %r, stats.json %r" % (commit[:8], it, k, got, v))
            else:
                agreed += 1
        # zoneinfo against the raw file itself: gauges are the mean,
        # counters last - first
        for zone, key, name, red in (
                ("Normal", "free", "pages.free", "mean"),
                ("Normal", "min", "pages.min", "mean"),
                ("DMA32", "nr_free_pages", "pages.nr_free_pages", "mean"),
                ("Normal", "numa_hit", "pages.numa_hit", "delta")):
            s = zone_series(run, zone, key)
            want = sum(s) / len(s) if red == "mean" else s[-1] - s[0]
            k = "zoneinfo.node0.%s.%s" % (zone, name)
            zone_checked += 1
            if k not in ours or not close(ours[k], want, 1e-9):
                fail(bad, "%s: %r, the raw file gives %r" % (k, ours.get(k), want))
print("%d values agree with stats.json, %d listed differences checked, "
      "%d zoneinfo values checked against the raw file, %d bad" %
      (agreed, exceptions, zone_checked, len(bad)))
sys.exit(1 if bad else 0)
PY

# ---- 1. the tree, one command ----

test_expect_success 'one import of the tree: 6 run directories, nothing else' '
	perfsift import "$TREE" >out 2>err &&
	test_cmp /dev/null err &&
	test $(grep -c ": lkp-tree, 1 run, .*, 2 files skipped$" out) = 6 &&
	test $(grep -c "/\(avg\|matrix\|stddev\).json: skipped: no importer knows it$" out) = 6 &&
	grep -q "^imported 6 directories: 6 runs, [0-9]* samples, [0-9]* series points; 6 skipped$" out &&
	perfsift debug dump >dump1
'

test_expect_success 'runs: testcase, machine, full commits, params, iterations' '
	perfsift runs --json >runs.json &&
	python3 check-runs.py runs.json
'

test_expect_success 'bookkeeping of job.yaml is no param' '
	python3 -c "
import json
skip = set(\"queue submit_id id enqueue_time result_root kernel user LKP_SERVER \"
           \"testbox tbox_group commit suite category job_origin debug_mode\".split())
for r in json.load(open(\"runs.json\")):
    assert not skip & set(r[\"params\"]), skip & set(r[\"params\"])
"
'

# ---- 2. compare against lkp's avg.json and stddev.json ----

test_expect_success 'compare: means are avg.json, sds are stddev.json x sqrt(n/(n-1))' '
	perfsift compare 1a2b3c4d5e 9f8e7d6c5b --all --format json >cmp.json &&
	python3 check-compare.py cmp.json
'

test_expect_success 'compare lines up the two commits: same testcase, params, machine' '
	python3 -c "
import json, sys
rows = json.load(open(\"cmp.json\"))[\"rows\"]
one = [r[\"metric\"] for r in rows if not r[\"base\"][\"n\"] or not r[\"vs\"][0][\"n\"]]
both = len(rows) - len(one)
print(both, \"rows on both sides;\", len(one), \"on one:\", one[:5])
sys.exit(0 if both >= 150 else 1)
"
'

# ---- 3. the raw route agrees with lkp's stats.json ----

test_expect_success 'without stats.json: fio and procfs parsers, reduced by the store' '
	cp -R "$TREE" raw &&
	find raw -name stats.json -exec rm {} + &&
	perfsift --db raw.db import raw >out 2>err &&
	test_cmp /dev/null err &&
	test $(grep -c ": lkp-tree, 1 run, .* derived, 1 file skipped$" out) = 6 &&
	perfsift --db raw.db runs --json >rawruns.json &&
	for id in 1 2 3 4 5 6; do
		perfsift --db raw.db show run:$id --json >show$id.json || exit 1
	done &&
	python3 check-routes.py raw show1.json show2.json show3.json \
		show4.json show5.json show6.json
'

test_expect_success 'both routes make the same variants' '
	perfsift --db raw.db runs --json >rawruns.json &&
	python3 -c "
import json
a = json.load(open(\"runs.json\")); b = json.load(open(\"rawruns.json\"))
key = lambda r: (r[\"commit\"], r[\"iteration\"], r[\"testcase\"], r[\"machine\"], r[\"params\"])
assert sorted(map(key, a)) == sorted(map(key, b)), (a, b)
"
'

# ---- 4. re-import ----

test_expect_success 're-import of the unchanged tree: already imported, nothing changes' '
	perfsift import "$TREE" >out 2>err &&
	test_cmp /dev/null err &&
	test $(grep -c ": already imported$" out) = 6 &&
	grep -q "; 6 already imported; 6 skipped$" out &&
	perfsift debug dump >dump2 &&
	test_cmp dump1 dump2
'

test_expect_success 'a changed run replaces its earlier import, alone' '
	cp -R "$TREE" copy &&
	perfsift --db copy.db import copy >out &&
	f=$(echo copy/$RUNS/$C2/1/stats.json) &&
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d[\"perfsift.test_key\"] = 42
json.dump(d, open(sys.argv[1], \"w\"), indent=2)
" "$f" &&
	perfsift --db copy.db import copy >out 2>err &&
	test_cmp /dev/null err &&
	test $(grep -c ": already imported$" out) = 5 &&
	grep -q "/$C2/1: lkp-tree, 1 run, .*, replaces the earlier import$" out &&
	grep -q "^imported 1 directory: 1 run, .*; 5 already imported; 6 skipped$" out &&
	test $(perfsift --db copy.db runs --json | grep -c "\"iteration\":") = 6 &&
	perfsift --db copy.db debug dump | grep "	perfsift.test_key	" >key &&
	test $(wc -l <key) = 1
'

# ---- 5. bad input ----

test_expect_success 'bad run directories fail alone, with their path, exit 3' '
	cp -R "$TREE" bad &&
	echo "[1, 2, 3]" >bad/$RUNS/$C1/1/stats.json &&
	printf "suite: fio-basic\nfio-setup-basic: [randread\n  bs: 4k\n" \
		>bad/$RUNS/$C2/0/job.yaml &&
	cp -R bad/$RUNS/$C2/2 bad/$RUNS/7 &&
	test_expect_code 3 perfsift --db bad.db import bad >out 2>err &&
	cat >expect <<-EOF &&
	perfsift: error: bad/$RUNS/$C1/1/stats.json: expected a JSON object
	perfsift: error: bad/$RUNS/7: missing its commit level: '"'"'gcc-12'"'"' is neither a 40-hex commit nor a kernel release (expected .../<testcase>/<path_params>/<tbox_group>/<rootfs>/<kconfig>/<compiler>/<commit>/<run>/)
	perfsift: error: bad/$RUNS/$C2/0/job.yaml:3: not YAML: did not find expected '"'"','"'"' or '"'"']'"'"' while parsing a flow sequence
	EOF
	test_cmp expect err &&
	grep -q "^imported 4 directories: 4 runs, .*; 6 skipped; 3 failed$" out &&
	test $(perfsift --db bad.db runs --json | grep -c "\"iteration\":") = 4
'

test_expect_success 'job.yaml that is YAML but no mapping' '
	mkdir -p nomap/$RUNS/$C1 &&
	cp -R "$TREE/$RUNS/$C1/0" nomap/$RUNS/$C1/0 &&
	echo "just a line of text" >nomap/$RUNS/$C1/0/job.yaml &&
	test_expect_code 3 perfsift --db nomap.db import nomap >out 2>err &&
	grep -q "^perfsift: error: nomap/$RUNS/$C1/0/job.yaml:1: expected a mapping of job keys at the top of job.yaml$" err
'

test_expect_success 'stats.json: NaN (lkp writes allow_nan), strings, arrays skipped, said once' '
	mkdir -p nan/$RUNS/$C1/0 &&
	cp "$TREE/$RUNS/$C1/0/job.yaml" nan/$RUNS/$C1/0/ &&
	cat >nan/$RUNS/$C1/0/stats.json <<-\EOF &&
	{
	  "fio.read_iops": 100.5,
	  "perf-stat.overall.ipc": NaN,
	  "x.inf": -Infinity,
	  "x.text": "NaN is not a number",
	  "x.list": [1, 2],
	  "x.flag": true,
	  "x.null": null,
	  "fio.workload": 7
	}
	EOF
	perfsift --db nan.db import nan >out 2>err &&
	grep -q "^perfsift: warning: nan/$RUNS/$C1/0/stats.json: skipped 6 non-numeric values (first: .perf-stat.overall.ipc.)$" err &&
	test $(wc -l <err) = 1 &&
	perfsift --db nan.db debug dump | grep "^sample" | cut -f3,5 >samples &&
	printf "fio.read_iops\t100.5\nfio.workload\t7\n" >expect &&
	test_cmp expect samples
'

# ---- 6. what else is claimed, and how ----

test_expect_success 'job.yaml disagreeing with the path: warned about, the path wins' '
	mkdir -p dis/$RUNS/$C1 &&
	cp -R "$TREE/$RUNS/$C1/0" dis/$RUNS/$C1/0 &&
	sed -i "s/^tbox_group: .*/tbox_group: lkp-other/; s/^commit: .*/commit: $C2/" \
		dis/$RUNS/$C1/0/job.yaml &&
	perfsift --db dis.db import dis >out 2>err &&
	grep -q "^perfsift: warning: dis/$RUNS/$C1/0/job.yaml:[0-9]*: tbox_group .lkp-other. differs from the path.s tbox_group .lkp-fixture.; the path wins$" err &&
	grep -q "^perfsift: warning: dis/$RUNS/$C1/0/job.yaml:[0-9]*: commit .$C2. differs from the path.s commit .$C1.; the path wins$" err &&
	perfsift --db dis.db runs --json >r.json &&
	grep -q "\"commit\": \"$C1\"" r.json &&
	grep -q "\"machine\": \"lkp-fixture\"" r.json
'

test_expect_success 'a local run: the commit level is a kernel release' '
	mkdir -p local/ebizzy/10s-100x-200%/dellj853host/rhel/defconfig/gcc/5.14.6-v5.14 &&
	cp -R "$TREE/$RUNS/$C1/2" local/ebizzy/10s-100x-200%/dellj853host/rhel/defconfig/gcc/5.14.6-v5.14/0 &&
	rm local/ebizzy/*/*/*/*/*/*/0/job.yaml &&
	perfsift --db local.db import local >out 2>err &&
	perfsift --db local.db runs --json >r.json &&
	grep -q "\"kernel\": \"5.14.6-v5.14\"" r.json &&
	grep -q "\"commit\": null" r.json &&
	grep -q "\"testcase\": \"ebizzy\"" r.json &&
	grep -q "\"machine\": \"dellj853host\"" r.json &&
	grep -q "\"path_params\": \"10s-100x-200%\"" r.json &&
	grep -q "\"iteration\": 0" r.json
'

test_expect_success 'raw files only (copied before lkp processed them): claimed' '
	mkdir -p rawonly/$RUNS/$C1 &&
	cp -R "$TREE/$RUNS/$C1/0" rawonly/$RUNS/$C1/0 &&
	rm rawonly/$RUNS/$C1/0/job.yaml rawonly/$RUNS/$C1/0/stats.json &&
	perfsift --db rawonly.db import rawonly >out 2>err &&
	grep -q "/$C1/0: lkp-tree, 1 run, .* derived, 1 file skipped$" out &&
	perfsift --db rawonly.db show run:1 --json >s.json &&
	grep -q "\"fio.read_iops\":" s.json &&
	grep -q "\"proc-vmstat.pgfault\":" s.json
'

test_expect_success 'job.yaml alone (an incomplete run): a run without values, warned' '
	mkdir -p jobonly/$RUNS/$C1/0 &&
	cp "$TREE/$RUNS/$C1/0/job.yaml" jobonly/$RUNS/$C1/0/ &&
	perfsift --db jobonly.db import jobonly >out 2>err &&
	echo "perfsift: warning: jobonly/$RUNS/$C1/0: no stats.json and no file we can read: the run has no values" >expect &&
	test_cmp expect err &&
	grep -q "/$C1/0: lkp-tree, 1 run, 0 samples, 1 warning$" out
'

test_expect_success 'monitors alone outside an lkp layout are not claimed' '
	mkdir -p notlkp/dumps &&
	cp "$TREE/$RUNS/$C1/0/proc-vmstat.gz" notlkp/dumps/ &&
	perfsift --db notlkp.db import notlkp >out 2>err &&
	! grep -q lkp-tree out &&
	grep -q "notlkp/dumps/proc-vmstat.gz: procfs, 1 run" out
'

# ---- 7. lkp's own fixture: pmbench stats.json + job.yaml ----

if [ -d "$SAMPLES/lkp" ]; then
test_expect_success 'lkp spec fixture (pmbench): the numbers of its stats.json' '
	d=lkp/pmbench/30s-100%-75%-1/lkp-bdw-ep6/debian-x86_64-2019-05-14.cgz/x86_64-rhel-7.6/gcc-7/f0ed5b5f14e6a0b5a4dbd8e2e84c0c5ef5a5b6c7/0 &&
	mkdir -p $d &&
	cp "$SAMPLES/lkp/fixture-stats_part-stats.json" $d/stats.json &&
	cp "$SAMPLES/lkp/fixture-stats_part-job.yaml" $d/job.yaml &&
	perfsift --db pm.db import lkp >out 2>err &&
	test_cmp /dev/null err &&
	grep -q ": lkp-tree, 1 run, 3 samples$" out &&
	perfsift --db pm.db debug dump >dump &&
	python3 -c "
import json, sys
want = json.load(open(sys.argv[1]))
got = {}
for line in open(\"dump\"):
    f = line.rstrip(\"\n\").split(\"\t\")
    if f[0] == \"sample\":
        got[f[2]] = float(f[4])
assert set(got) == set(want), (got, want)
for k, v in want.items():
    assert abs(got[k] - v) <= 1e-15 * abs(v), (k, got[k], v)
print(len(want), \"values\")
" "$SAMPLES/lkp/fixture-stats_part-stats.json" &&
	grep "^run" dump | cut -f3,4,5,6 >run &&
	printf "lkp\tpmbench\tcold=1,compiler=gcc-7,kconfig=x86_64-rhel-7.6,mapsize=75%%,nr_threads=100%%,rootfs=debian-x86_64-2019-05-14.cgz,runtime=30s,stats_part=from_10_to_20,stats_part_begin=10,stats_part_end=20\tlkp-bdw-ep6\n" >expect &&
	test_cmp expect run
'
else
	test_skip 'lkp spec fixture (pmbench)' '../shared/samples is absent'
fi

test_done
