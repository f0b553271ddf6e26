#!/bin/sh
# fio json+: each direction's latency bins are kept as the run's
# histogram (fio.DIR_LAT_hist_ns), the bins of several jobs summed, and
# `show --percentiles` merges the histograms of the selected runs and
# computes percentiles as fio does.  Checked: on every json+ file of
# ../shared/samples/fio whose jobs[] is one entry, every percentile fio
# printed equals ours, bin for bin; on our two-job fixture and on runs
# merged across files, the percentiles equal a python computation from
# the summed bins (fio's rule: the first bin whose running count reaches
# p% of the total).
. "$(dirname "$0")/lib.sh"
need_python3 'fio histograms'

FIX=$SRC/tests/fixtures/fio/nj2-randread.jsonplus.json
PCTS=1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99

cat >ref.py <<'PY'
# ref.py PCTS FILE...: per direction and latency type, the bins of every
# job of every file summed; the percentiles by fio's rule, as JSON
import json, sys
pcts = [float(p) for p in sys.argv[1].split(",")]
hist = {}
for path in sys.argv[2:]:
    doc = json.loads(open(path).read()[open(path).read().index("{"):])
    for job in doc["jobs"]:
        for d in ("read", "write", "trim"):
            for lat in ("slat", "clat", "lat"):
                bins = job.get(d, {}).get(lat + "_ns", {}).get("bins")
                if not bins:
                    continue
                h = hist.setdefault("fio.%s_%s_hist_ns" % (d, lat), {})
                for k, c in bins.items():
                    h[float(k)] = h.get(float(k), 0) + c
out = {}
for m, h in hist.items():
    v = sorted(h)
    total = sum(h.values())
    vals = {}
    for p in pcts:
        need, s = p / 100.0 * total, 0
        for x in v:
            s += h[x]
            if s >= need:
                vals["%g" % p] = x
                break
    out[m] = {"count": float(total), "values": vals}
print(json.dumps(out, sort_keys=True))
PY

cat >ours.py <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print(json.dumps({p["metric"]: {"count": p["count"], "values": p["values"]}
                  for p in doc["percentiles"]}, sort_keys=True))
PY

test_expect_success 'two jobs in one file: their bins summed, fio percentiles' '
	perfsift --db nj2.db import "$FIX" >out &&
	perfsift --db nj2.db show run:1 --percentiles $PCTS --json >p.json &&
	/usr/bin/python3 ours.py p.json >actual &&
	/usr/bin/python3 ref.py $PCTS "$FIX" >expect &&
	test_cmp expect actual &&
	grep "\"fio.read_clat_hist_ns\"" actual
'

test_expect_success 'the text form: count and percentiles per metric' '
	perfsift --db nj2.db show run:1 --percentiles 50,99,99.9 >out &&
	perfsift --db nj2.db show run:1 --percentiles 50,99,99.9 --json >p.json &&
	head -n 1 out | tr -s " " >h &&
	echo "METRIC RUNS COUNT P50 P99 P99.9" >e &&
	test_cmp e h &&
	/usr/bin/python3 -c "
import json
p = json.load(open(\"p.json\"))[\"percentiles\"][0]
print(\"%s 1 %d %d %d %d\" % (p[\"metric\"], p[\"count\"], p[\"values\"][\"50\"],
      p[\"values\"][\"99\"], p[\"values\"][\"99.9\"]))" >e2 &&
	grep "^fio.read_clat_hist_ns" out | tr -s " " >h2 &&
	test_cmp e2 h2
'

test_expect_success 'bad --percentiles and no histogram: usage errors' '
	test_expect_code 2 perfsift --db nj2.db show run:1 --percentiles 50,x &&
	test_expect_code 2 perfsift --db nj2.db show run:1 --percentiles 0 &&
	test_expect_code 2 perfsift --db nj2.db show run:1 --percentiles 50 \
		--metric "nothing*" 2>err &&
	grep "no histogram matches" err
'

if [ -d "$SAMPLES" ]; then
for f in randread-psync.json+.out randrw70-libaio.json+.out \
	 randwrite-libaio-nj2-group.json+.out; do
	test_expect_success "$f: every percentile fio printed, from our bins" "
		perfsift --db one.db import '$SAMPLES/fio/$f' >out &&
		id=\$(perfsift --db one.db runs --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)[-1][\"id\"])') &&
		/usr/bin/python3 - '$SAMPLES/fio/$f' \$id <<-\\PY
		import json, subprocess, sys
		text = open(sys.argv[1]).read()
		doc = json.loads(text[text.index('{'):])
		assert len(doc['jobs']) == 1, len(doc['jobs'])
		checked = 0
		for d in ('read', 'write', 'trim'):
		    for lat in ('clat', 'lat', 'slat'):
		        o = doc['jobs'][0].get(d, {}).get(lat + '_ns', {})
		        if not o.get('bins') or not o.get('percentile'):
		            continue
		        keys = sorted(o['percentile'], key=float)
		        out = subprocess.run(['$PERFSIFT', '--db', 'one.db', 'show',
		            'run:' + sys.argv[2], '--percentiles',
		            ','.join('%g' % float(k) for k in keys), '--metric',
		            'fio.%s_%s_hist_ns' % (d, lat), '--json'],
		            check=True, capture_output=True, text=True).stdout
		        got = json.loads(out)['percentiles'][0]['values']
		        for k in keys:
		            assert got['%g' % float(k)] == o['percentile'][k], (d, lat, k, got['%g' % float(k)], o['percentile'][k])
		            checked += 1
		assert checked >= 17, checked
		print(checked, 'percentiles as fio printed them')
		PY
	"
done

test_expect_success 'runs of several files merged: the summed bins decide' '
	perfsift --db m.db import --label both "$SAMPLES/fio/randread-psync.json+.out" \
		"$FIX" >out &&
	perfsift --db m.db show both --percentiles $PCTS --metric "fio.read_clat_hist_ns" \
		--json >p.json &&
	/usr/bin/python3 ours.py p.json >actual &&
	/usr/bin/python3 ref.py $PCTS "$SAMPLES/fio/randread-psync.json+.out" "$FIX" |
		/usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps({\"fio.read_clat_hist_ns\": d[\"fio.read_clat_hist_ns\"]}, sort_keys=True))" >expect &&
	test_cmp expect actual &&
	grep "\"runs\": 2" p.json
'
else
	test_skip 'the json+ samples' '../shared/samples is absent'
fi

test_done
