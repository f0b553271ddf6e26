#!/bin/sh
# One naming across fio's output forms: the same run written as json,
# terse and normal at once (tests/fixtures/fio/*-all-forms.out, fio-3.33)
# imports under the same metric names with the same values, within what
# each form prints (terse: latencies in us with 6 decimals, integer IOPS,
# integer-us percentiles, no total_ios; normal: two decimals in a line's
# unit, integer percentiles in theirs, zero latency buckets not printed),
# because both importers hand each job to the JSON importer's own code as
# the job object fio's JSON would print.  The names only one form has are
# listed and asserted.
# Also: the terse samples of ../shared/samples/fio (v3 and v5, one job,
# group_reporting, two groups) against their fields, and bad input.
. "$(dirname "$0")/lib.sh"
need_python3 'fio forms'

FIX=$SRC/tests/fixtures/fio

cat >dump.py <<'PY'
# dump.py DB: {metric: value} of run 1, from perfsift show --json
import json, subprocess, sys
out = subprocess.run([sys.argv[1], "--db", sys.argv[2], "show", "run:1",
                      "--json"], check=True, capture_output=True,
                     text=True).stdout
print(json.dumps(json.loads(out)["runs"][0]["values"], sort_keys=True))
PY

cat >split.py <<'PY'
# split.py FILE: the normal report of a json,normal,terse file on stdout
# (the lines around the JSON document, without the terse lines)
import sys
lines = open(sys.argv[1]).read().split("\n")
start = lines.index("{")
end = start + lines[start:].index("}")
keep = [l for l in lines[:start] if not l.startswith("3;fio-")] + lines[end + 1:]
print("\n".join(keep))
PY

cat >same-normal.py <<'PY'
# same-normal.py JSON-VALUES NORMAL-VALUES: as same.py for the normal form
import json, re, sys
j, t = (json.load(open(p)) for p in sys.argv[1:3])
def tol(name, v):
    if re.search(r"_[0-9.]+%_ns$", name):
        return 1000          # integer percentiles in us (or ns)
    if name.endswith(("_mean_ns", "_stddev")):
        return 10 + 1e-3 * abs(v)   # two decimals in the line's unit
    if name.endswith("bw_MBps"):
        return 2 / 1024.0    # KiB/s floored twice
    if re.search(r"latency_[0-9>=]+[num]s%$", name):
        return 0.0051        # %.2f
    if name.endswith("_cpu"):
        return 0.0051
    return 1e-9 * abs(v) + 1e-9
bad = [(n, j[n], t[n]) for n in sorted(set(j) & set(t))
       if abs(j[n] - t[n]) > tol(n, j[n])]
assert not bad, bad[:10]
only_json = sorted(set(j) - set(t))
only_normal = sorted(set(t) - set(j))
# the JSON alone: the latency buckets that are zero (normal omits them)
bad_only = [n for n in only_json
            if not (re.search(r"latency_[0-9>=]+[num]s%$", n) and j[n] == 0)]
assert not bad_only, bad_only
assert not only_normal, only_normal
print(len(set(j) & set(t)), "names agree;", len(only_json), "zero buckets JSON only")
PY

cat >same.py <<'PY'
# same.py JSON-VALUES TERSE-VALUES: the shared names agree within the
# precision terse prints; the names of one form only are the expected ones
import json, re, sys
j, t = (json.load(open(p)) for p in sys.argv[1:3])
def tol(name, v):
    if re.search(r"_[0-9.]+%_ns$", name):
        return 1000          # integer us percentiles
    if name.endswith(("_mean_ns", "_stddev")):
        return 1 + 1e-6 * abs(v)    # us with 6 decimals
    if name.endswith("iops"):
        return 2             # integer IOPS, summed over up to 2 jobs
    if name.endswith((".ios", "workload")):
        return 2 + 1e-3 * abs(v)    # total_ios from iops x runtime
    if re.search(r"latency_[0-9]+[um]s%$", name):
        return 0.0051        # %3.2f
    if name.endswith("%") or name.endswith("_cpu"):
        return 0.051         # %3.1f / %f
    return 1e-9 * abs(v) + 1e-9
bad = [(n, j[n], t[n]) for n in sorted(set(j) & set(t))
       if abs(j[n] - t[n]) > tol(n, j[n])]
assert not bad, bad[:10]
only_json = sorted(set(j) - set(t))
only_terse = sorted(set(t) - set(j))
# the JSON alone: the ns buckets, and the 2 us one (terse folds the ns
# buckets into it)
allowed = re.compile(r"^fio\.(latency_[0-9]+ns%|latency_2us%)$")
assert all(allowed.match(n) for n in only_json), only_json
assert not only_terse, only_terse
print(len(set(j) & set(t)), "names agree;", len(only_json), "JSON only")
PY

for f in randrw70 nj2; do
	test_expect_success "$f: json and terse of one run, the same names and values" "
		perfsift --db j.$f.db import --format fio '$FIX/$f-all-forms.out' >out 2>err &&
		grep -E '^3;fio-' '$FIX/$f-all-forms.out' >$f.terse &&
		perfsift --db t.$f.db import $f.terse >out &&
		grep 'fio-terse, 1 run' out &&
		/usr/bin/python3 dump.py '$PERFSIFT' j.$f.db >j.json &&
		/usr/bin/python3 dump.py '$PERFSIFT' t.$f.db >t.json &&
		/usr/bin/python3 same.py j.json t.json
	"
done

for f in randrw70 nj2; do
	test_expect_success "$f: json and normal of one run, the same names and values" "
		perfsift --db j.$f.db import --format fio '$FIX/$f-all-forms.out' >out 2>err &&
		/usr/bin/python3 split.py '$FIX/$f-all-forms.out' >$f.normal &&
		perfsift --db n.$f.db import $f.normal >out &&
		grep 'fio-normal, 1 run' out &&
		/usr/bin/python3 dump.py '$PERFSIFT' j.$f.db >j.json &&
		/usr/bin/python3 dump.py '$PERFSIFT' n.$f.db >n.json &&
		/usr/bin/python3 same-normal.py j.json n.json
	"
done

test_expect_success 'normal output cut in the middle of a job: path:line, nothing kept' '
	/usr/bin/python3 split.py "$FIX/randrw70-all-forms.out" | sed -n "1,12p" >cut.normal &&
	test_expect_code 3 perfsift --db cutn.db import cut.normal >out 2>err &&
	grep "cut.normal:12: the report of job .rw70. (line 6) ends before its .cpu :. line: cut short?" err &&
	perfsift --db cutn.db runs >runs &&
	! grep fio runs
'

test_expect_success 'a normal latency line that does not parse: path:line' '
	/usr/bin/python3 split.py "$FIX/randrw70-all-forms.out" |
		sed "s/clat (usec): min=16,/clat (usec): min=1x6,/" >badn.normal &&
	test_expect_code 3 perfsift --db badn.db import badn.normal 2>err &&
	grep "badn.normal:[0-9]*: expected .LAT (nsec|usec|msec): min=N" err
'

test_expect_success 'terse lines: every field where it belongs' '
	grep -E "^3;fio-" "$FIX/randrw70-all-forms.out" >one.terse &&
	perfsift --db one.db import one.terse >out &&
	/usr/bin/python3 dump.py "$PERFSIFT" one.db >v.json &&
	/usr/bin/python3 - <<-\PY
	import json
	f = open("one.terse").read().strip().split(";")
	v = json.load(open("v.json"))
	r, w = 5, 5 + 41
	near = lambda a, b: abs(a - b) <= 1e-9 * abs(b) + 1e-9
	assert near(v["fio.read_bw_MBps"], float(f[r + 1]) / 1024)
	assert near(v["fio.read_iops"], float(f[r + 2]))
	assert near(v["fio.read_runtime_ms"], float(f[r + 3]))
	assert near(v["fio.read_io_MiB"], float(f[r + 0]) / 1024)
	assert near(v["fio.read_clat_mean_ns"], float(f[r + 10]) * 1000)
	assert near(v["fio.read_lat_mean_ns"], float(f[r + 34]) * 1000)
	assert near(v["fio.write_clat_99%_ns"], float(f[w + 12 + 12].split("=")[1]) * 1000)
	assert near(v["fio.write_iops"], float(f[w + 2]))
	assert "fio.read_slat_mean_ns" not in v      # psync: not measured
	print("fields in place")
	PY
'

if [ -d "$SAMPLES" ]; then
test_expect_success 'the terse samples: v3, v5, group_reporting, two jobs' '
	for f in randread-psync.terse.out randread-psync.terse-v5.out \
		 randwrite-libaio-nj2-group.terse.out jobfile-2groups.terse.out; do
		perfsift --db s.db import "$SAMPLES/fio/$f" >>samples.out ||
			return 1
	done &&
	test "$(grep -c "fio-terse, 1 run" samples.out)" = 4 &&
	perfsift --db s.db show run:2 --metric "fio.read_iops" --json >v5.json &&
	grep -q "23279" v5.json &&
	perfsift --db s.db show run:4 --metric "fio.*.read.iops" >two &&
	test "$(grep -c "^fio\." two)" -ge 1
'
fi

if [ -d "$SAMPLES" ]; then
test_expect_success 'the normal samples: values against their own lines' '
	for f in randread-psync.normal.out randwrite-libaio-nj2-group.normal.out \
		 jobfile-2groups.normal.out logs/maxval.normal.out; do
		rm -f nsamp.db &&
		perfsift --db nsamp.db import "$SAMPLES/fio/$f" >o || return 1
		grep -q "fio-normal, 1 run" o || return 1
		/usr/bin/python3 dump.py "$PERFSIFT" nsamp.db >v.json || return 1
		/usr/bin/python3 - "$SAMPLES/fio/$f" <<-\PY || return 1
		import json, re, sys
		text = open(sys.argv[1]).read()
		v = json.load(open("v.json"))
		jobs = re.split(r"\n(?=\S+: \(groupid=)", text)[1:]
		tot = {"read": 0, "write": 0}
		for job in jobs:
		    name = job.split(":")[0]
		    issued = [float(x) for x in re.search(r"total=([\d,]+)", job).group(1).split(",")]
		    for k, d in enumerate(("read", "write")):
		        m = re.search(r"\n  %s: IOPS=.*?/(\d+)msec" % d, job)
		        if m:
		            tot[d] += issued[k] * 1000 / float(m.group(1))
		    cpu = re.search(r"usr=([\d.]+)%, sys=([\d.]+)%, ctx=(\d+)", job)
		    key = "fio.%s.usr_cpu" % name
		    if len(jobs) > 1:
		        assert abs(v[key] - float(cpu.group(1))) < 1e-9, (key, v[key])
		for d in ("read", "write"):
		    assert abs(v["fio.%s_iops" % d] - tot[d]) <= 1e-9 * max(tot[d], 1), (d, v["fio.%s_iops" % d], tot[d])
		if len(jobs) == 1:
		    m = re.search(r"\n    clat \((\w)sec\): min=\S+, max=\S+, avg=([\d.]+),", jobs[0])
		    k = {"n": 1, "u": 1e3, "m": 1e6}[m.group(1)]
		    d = "read" if "  read:" in jobs[0] else "write"
		    assert abs(v["fio.%s_clat_mean_ns" % d] - float(m.group(2)) * k) < 1e-6 * k, d
		print(sys.argv[1].split("/")[-1], "ok")
		PY
	done
'

test_expect_success 'json,normal in one file: the JSON wins, and the normal part agrees' '
	f=$SAMPLES/fio/seqread-psync-128k.json+normal.out &&
	perfsift --db jn.db import "$f" >out 2>err &&
	grep ": fio, 1 run" out &&
	perfsift --db jn2.db import --format fio-normal "$f" >out2 &&
	grep ": fio-normal, 1 run" out2 &&
	/usr/bin/python3 dump.py "$PERFSIFT" jn.db >j.json &&
	/usr/bin/python3 dump.py "$PERFSIFT" jn2.db >n.json &&
	/usr/bin/python3 same-normal.py j.json n.json
'
else
	test_skip 'the normal samples and json,normal' '../shared/samples is absent'
fi

test_expect_success 'a terse line with the wrong field count: path:line, nothing kept' '
	grep -E "^3;fio-" "$FIX/randrw70-all-forms.out" | cut -d";" -f1-60 >cut.terse &&
	test_expect_code 3 perfsift --db cut.db import cut.terse 2>err &&
	grep "cut.terse:1: expected .* in field 61, got the end of the line (60 fields" err &&
	perfsift --db cut.db runs >runs &&
	! grep fio runs
'

test_expect_success 'a terse field that is not a number: path:line' '
	grep -E "^3;fio-" "$FIX/randrw70-all-forms.out" | sed "s/;30846;/;3O846;/" >bad.terse &&
	test_expect_code 3 perfsift --db bad.db import --format fio-terse bad.terse 2>err &&
	grep "bad.terse:1: expected the IOPS in field 8, got .3O846." err
'

test_done
