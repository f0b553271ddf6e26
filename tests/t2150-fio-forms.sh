#!/bin/sh
# One naming across fio's output forms: the same run written as json and
# terse at once (tests/fixtures/fio/*-all-forms.out, fio-3.33) imports
# under the same metric names with the same values, within what each
# form prints (terse: latencies in us with 6 decimals, integer IOPS,
# integer-us percentiles, no total_ios), because the terse importer hands
# each line to the JSON importer's own code as the job object fio's JSON
# would print.  The names only one form has are listed and asserted.
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
