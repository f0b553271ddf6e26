#!/bin/sh
# fio --status-interval: a file of several JSON documents, each a snapshot
# of the run so far.  Every snapshot is a point of each value's series at
# its timestamp_ms, the last one is the run's result, and a last snapshot
# cut short (fio killed mid-write) is named and left out while the
# earlier ones are kept.  The sample is a real fio-3.33 run with
# --status-interval=1 (../shared/samples/fio/randread-status-interval1.json.out,
# four documents at lines 1, 272, 543, 814).
. "$(dirname "$0")/lib.sh"
need_samples
need_python3 'fio status-interval'

SI=$SAMPLES/fio/randread-status-interval1.json.out

cat >expect.py <<'PY'
import json, sys
text = open(sys.argv[1]).read()
docs, dec, i = [], json.JSONDecoder(), 0
while True:
    i = text.find("{", i)
    if i < 0:
        break
    try:
        d, j = dec.raw_decode(text, i)
    except ValueError:
        break
    docs.append(d)
    i = j
keep = int(sys.argv[2]) if len(sys.argv) > 2 else len(docs)
for d in docs[:keep]:
    r = d["jobs"][0]["read"]
    print("%r %r %r" % (d["timestamp_ms"] / 1000, r["iops"], r["bw"] / 1024))
PY

series() {	# DB METRIC: "t value" per point
	perfsift --db "$1" show run:1 --series "$2" | awk 'NR > 2 { print $1, $3 }'
}

test_expect_success 'four snapshots: four points, the last one the result' '
	perfsift --db si.db import "$SI" >out &&
	grep "1 run, 89 samples, 356 series points" out &&
	/usr/bin/python3 expect.py "$SI" >expect &&
	test "$(wc -l <expect)" = 4 &&
	perfsift --db si.db show run:1 --series fio.read_iops --json >iops.json &&
	perfsift --db si.db show run:1 --series fio.read_bw_MBps --json >bw.json &&
	perfsift --db si.db show run:1 --json >run.json &&
	/usr/bin/python3 - <<-\PY
	import json
	want = [tuple(map(float, l.split())) for l in open("expect")]
	def points(path):
	    doc = json.load(open(path))
	    s = doc["series"] if "series" in doc else doc
	    s = s[0] if isinstance(s, list) else s
	    return [(p[0], p[1]) for p in s["points"]]
	iops, bw = points("iops.json"), points("bw.json")
	assert len(iops) == 4 and len(bw) == 4, (iops, bw)
	for (t, i, b), (ti, vi), (tb, vb) in zip(want, iops, bw):
	    assert abs(ti - t) < 1e-6 and abs(tb - t) < 1e-6, (t, ti, tb)
	    assert abs(vi - i) <= 1e-9 * i and abs(vb - b) <= 1e-9 * b, (i, vi, b, vb)
	run = json.load(open("run.json"))
	vals = run["runs"][0]["values"]
	assert abs(vals["fio.read_iops"] - want[-1][1]) <= 1e-9 * want[-1][1], vals["fio.read_iops"]
	print("4 points; the result is the last snapshot")
	PY
'

test_expect_success 'the last snapshot cut short: named, left out, the others kept' '
	head -n 900 "$SI" >cut.json &&
	perfsift --db cut.db import cut.json >out 2>err &&
	grep "cut.json:814: the snapshot that starts here is cut short" err &&
	grep "left out, the 3 before it kept" err &&
	grep "1 run, 89 samples, 267 series points, 1 warning" out &&
	/usr/bin/python3 expect.py "$SI" 3 | tail -n 1 >last &&
	set -- $(cat last) &&
	perfsift --db cut.db show run:1 --metric fio.read_iops --json >run.json &&
	/usr/bin/python3 -c "
import json
v = json.load(open(\"run.json\"))[\"runs\"][0][\"values\"][\"fio.read_iops\"]
assert abs(v - $2) <= 1e-9 * $2, v
"
'

test_expect_success 'one document cut short: an error, nothing kept' '
	head -n 200 "$SI" >one.json &&
	test_expect_code 3 perfsift --db one.db import one.json >out 2>err &&
	grep "one.json:" err &&
	perfsift --db one.db runs >runs &&
	! grep fio runs
'

test_expect_success 'a snapshot that is not fio output after a good one: an error' '
	{ sed -n "1,271p" "$SI"; echo "{\"jobs\": 3}"; } >bad.json &&
	test_expect_code 3 perfsift --db bad.db import bad.json >out 2>err &&
	grep "bad.json:272: not fio JSON output" err
'

test_done
