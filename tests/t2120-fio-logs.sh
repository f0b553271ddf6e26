#!/bin/sh
# fio's log files (fio-log) and a fio output directory as one result
# (fio-dir): every log of ../shared/samples/fio/logs (fio-3.33: 500 ms
# windows, per-I/O rows with offsets, window maxima, a clat histogram) and
# the fixtures of tests/data/fio-dir.  The expected numbers are read from
# the files themselves with python, row by row, independently of the C
# parser.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
FIXT=$SRC/tests/data/fio-dir

cat >check-log.py <<'PY'
# check-log.py LOG DUMP JOB [fio2] [dir]: the series of one log in a dump
# are its rows, per direction: as many points, same times, same values
# (bw / 1024; hist: the sum of the bins; fio2: latencies * 1000); without
# dir (the log imported alone) the job has no other series.
import re, sys

log, dump, job = sys.argv[1:4]
fio2 = "fio2" in sys.argv[4:]
alone = "dir" not in sys.argv[4:]
m = re.match(r"(.*)_(bw|iops|lat|clat|slat|clat_hist)(\.\d+)?\.log$",
             log.rsplit("/", 1)[-1])
kind = m.group(2)
rows = [[float(int(c, 16)) if c.strip().startswith("0x") else float(c)
         for c in line.split(",")] for line in open(log)]
hist = kind == "clat_hist"
ddir_col = 1 if hist else 2
per_io = bool(rows) and rows[0][ddir_col + 1] != 0
name = {"bw": "bw_per_io_MBps" if per_io else "bw_MBps",
        "iops": "iops_per_io" if per_io else "iops",
        "lat": "lat_mean_ns", "clat": "clat_mean_ns",
        "slat": "slat_mean_ns", "clat_hist": "clat_hist_count"}[kind]
got = {}
for line in open(dump):
    f = line.rstrip("\n").split("\t")
    if f[0] == "series":
        got.setdefault(f[2], []).append((float(f[3]), float(f[4])))
bad = 0
for d, dn in enumerate(("read", "write", "trim")):
    want = []
    for r in rows:
        if int(r[ddir_col]) != d:
            continue
        if hist:
            v = sum(r[3:])
        elif kind == "bw":
            v = r[1] / 1024
        else:
            v = r[1] * (1000 if fio2 and kind in ("lat", "clat", "slat")
                        else 1)
        want.append((r[0] / 1000, v))
    metric = "fio.%s.%s.%s" % (job, dn, name)
    have = got.pop(metric, [])
    if len(have) != len(want):
        print("%s: %s: %d points, file has %d rows" %
              (log, metric, len(have), len(want)))
        bad = 1
        continue
    for (t1, v1), (t2, v2) in zip(sorted(have), sorted(want)):
        if abs(t1 - t2) > 1e-9 * max(1, abs(t2)) or \
           abs(v1 - v2) > 1e-12 * max(1, abs(v2)):
            print("%s: %s: (%r, %r) != (%r, %r)" %
                  (log, metric, t1, v1, t2, v2))
            bad = 1
            break
for k in got if alone else []:
    if k.startswith("fio.%s." % job):
        print("%s: unexpected series %s" % (log, k))
        bad = 1
sys.exit(bad)
PY

# mean METRIC: the derived sample of METRIC in `dump`
mean() {
	awk -F'\t' -v m="$1" '$1 == "sample" && $3 == m { print $5 }' dump
}

# json_val FILE EXPR: a number from a fio JSON file (d is the document)
json_val() {
	$PY -c 'import json, sys
t = open(sys.argv[1]).read()
d = json.JSONDecoder().raw_decode(t[t.index("{"):])[0]
print(eval(sys.argv[2]))' "$1" "$2"
}

# near A B PCT: |A - B| <= PCT % of B
near() {
	$PY -c 'import sys
a, b, p = map(float, sys.argv[1:])
sys.exit(0 if abs(a - b) <= p / 100 * abs(b) else 1)' "$1" "$2" "$3" || {
		echo "expected $1 within $3 % of $2"
		return 1
	}
}

if [ -d "$SAMPLES/fio/logs" ]; then
	L=$SAMPLES/fio/logs
	for f in "$L"/*.log; do
		b=$(basename "$f")
		export f b
		test_expect_success "sample log $b imports, its series are its rows" '
			rm -f s.db* &&
			perfsift --db s.db import "$f" >out 2>err &&
			test_cmp /dev/null err &&
			grep -q ": fio-log, 1 run" out &&
			perfsift --db s.db debug dump >dump &&
			p=${b%%_*} && n=${b%.log} && n=${n##*.} &&
			if [ "$n" -gt 1 ]; then p="$p#$n"; fi &&
			$PY check-log.py "$f" dump "$p"
		'
	done

	# fio computes bw_mean from the same 500 ms windows it logs
	# (bwavgtime = log_avg_msec = 500): the means agree to rounding.
	test_expect_success 'the mean of the bw log is the JSON bw_mean' '
		rm -f s.db* &&
		perfsift --db s.db import "$L/avg500_bw.1.log" >out &&
		perfsift --db s.db debug dump >dump &&
		for d in read write; do
			want=$(json_val "$L/avg500.json.out" \
				"d[\"jobs\"][0][\"$d\"][\"bw_mean\"] / 1024") &&
			near "$(mean fio.avg500.$d.bw_MBps)" "$want" 2 || return 1
		done
	'

	# per-I/O rows: one per I/O, so their count is total_ios and their
	# mean the JSON mean of all I/Os, exactly but for rounding
	test_expect_success 'per-I/O clat rows: count is total_ios, mean the JSON mean' '
		rm -f s.db* &&
		perfsift --db s.db import "$L/perio_clat.2.log" >out &&
		perfsift --db s.db debug dump >dump &&
		ios=$(json_val "$L/perio.json.out" "d[\"jobs\"][1][\"read\"][\"total_ios\"]") &&
		test "$(grep -c "^series.*fio.perio#2.read.clat_mean_ns" dump)" = "$ios" &&
		want=$(json_val "$L/perio.json.out" "d[\"jobs\"][1][\"read\"][\"clat_ns\"][\"mean\"]") &&
		near "$(mean "fio.perio#2.read.clat_mean_ns")" "$want" 0.01
	'

	test_expect_success 'windowed clat: mean of window means is near the JSON mean' '
		rm -f s.db* &&
		perfsift --db s.db import "$L/avg500_clat.1.log" >out &&
		perfsift --db s.db debug dump >dump &&
		want=$(json_val "$L/avg500.json.out" "d[\"jobs\"][0][\"read\"][\"clat_ns\"][\"mean\"]") &&
		near "$(mean fio.avg500.read.clat_mean_ns)" "$want" 10
	'

	# two JSON outputs in one directory: not one result, walked as files
	test_expect_success 'the samples directory (two JSONs) is walked, not claimed' '
		rm -f s.db* &&
		perfsift --db s.db import "$L" >out 2>err &&
		! grep -q fio-dir out &&
		grep -q "avg500_bw.1.log: fio-log" out &&
		grep -q "perio.json.out: fio," out
	'

	test_expect_success 'avg500 JSON, logs and hist log as one directory' '
		rm -rf d s.db* && mkdir d &&
		cp "$L"/avg500* "$L"/hist_clat_hist.1.log d/ &&
		perfsift --db s.db import d >out 2>err &&
		test_cmp /dev/null err &&
		grep -q "^d: fio-dir, 1 run" out &&
		perfsift --db s.db debug dump >dump &&
		test "$(grep -c "^run" dump)" = 1 &&
		for f in d/*.log; do
			$PY check-log.py "$f" dump logged dir || return 1
		done &&
		grep -q "^sample	1	fio.logged.read.bw_MBps	MB/s	.*avg500.json.out$" dump
	'
else
	test_skip 'the sample logs' "SKIP ../shared/samples is absent: $SAMPLES"
fi

test_expect_success 'fixture nj2: one run, JSON samples, logs under its job names' '
	rm -rf d s.db* && cp -R "$FIXT/nj2/input" d &&
	perfsift --db s.db import d >out 2>err &&
	grep -q "^d: fio-dir, 1 run" out &&
	perfsift --db s.db debug dump >dump &&
	test "$(grep -c "^run" dump)" = 1 &&
	test "$(grep -c "^import" dump)" = 1 &&
	for k in bw iops lat clat; do
		$PY check-log.py d/mix_$k.1.log dump "mix#0" dir &&
		$PY check-log.py d/mix_$k.2.log dump "mix#1" dir || return 1
	done &&
	want=$(json_val d/mix.json "d[\"jobs\"][1][\"write\"][\"bw\"] / 1024") &&
	got=$(mean "fio.mix#1.write.bw_MBps") &&
	near "$got" "$want" 0.0001 &&
	grep "^sample	1	fio.mix#1.write.bw_MBps	" dump >s &&
	! grep -q derived s &&
	grep -q "mix_slat.1.log: no rows" err
'

test_expect_success 'bw log mean of the fixtures is the JSON bw_mean' '
	for c in rr:rr offset:off; do
		dir=${c%%:*} p=${c##*:} &&
		rm -f s.db* &&
		perfsift --db s.db import --format fio-log \
			"$FIXT/$dir/input/${p}_bw.1.log" >out &&
		perfsift --db s.db debug dump >dump &&
		f=$(ls "$FIXT/$dir/input/"*.json) &&
		want=$(json_val "$f" "d[\"jobs\"][0][\"read\"][\"bw_mean\"] / 1024") &&
		near "$(mean fio.$p.read.bw_MBps)" "$want" 2 || return 1
	done
'

test_expect_success 'a non-numeric column: path:line error, exit 3, nothing kept' '
	rm -f s.db* &&
	printf "250, 242720, 0, 0, 0\n500, 19592, 0, 0, 0\n750, 1e, 0, 0, 0\n" \
		>x_bw.1.log &&
	test_expect_code 3 perfsift --db s.db import x_bw.1.log >out 2>err &&
	grep -q "x_bw.1.log:3: expected a number in column 2, got .1e.$" err &&
	perfsift --db s.db debug dump >dump &&
	! grep -v "^import" dump | grep .
'

test_expect_success 'a bad ddir and a short row are refused with their line' '
	rm -f s.db* &&
	printf "250, 1, 0, 0, 0\n500, 1, 7, 0, 0\n" >y_iops.1.log &&
	test_expect_code 3 perfsift --db s.db import y_iops.1.log 2>err &&
	grep -q "y_iops.1.log:2: expected ddir 0, 1 or 2 in column 3, got 7" err &&
	printf "250, 1, 0, 0, 0\n500, 1, 0, 0\n" >z_iops.1.log &&
	test_expect_code 3 perfsift --db s.db import z_iops.1.log 2>err &&
	grep -q "z_iops.1.log:2: expected 5 columns as in the first row, got 4" err
'

test_expect_success 'a log whose name does not say: refused, or value with --format' '
	rm -f s.db* &&
	cp "$FIXT/rr/input/rr_bw.1.log" mystery.txt &&
	test_expect_code 3 perfsift --db s.db import mystery.txt 2>err &&
	grep -q "mystery.txt: unknown format" err &&
	perfsift --db s.db import --format fio-log mystery.txt >out 2>err &&
	grep -q "does not say which fio log" err &&
	perfsift --db s.db debug dump >dump &&
	test "$(grep -c "^series	1	fio.mystery.txt.read.value	" dump)" = 3
'

test_expect_success 'fio 2.x rows (4 columns, latencies in us) are stored in ns' '
	rm -f s.db* &&
	printf "500, 81, 0, 0\n1000, 70, 1, 0\n" >old_clat.1.log &&
	perfsift --db s.db import old_clat.1.log >out &&
	perfsift --db s.db debug dump >dump &&
	$PY check-log.py old_clat.1.log dump old fio2
'

test_expect_success 'log_window_value=both and a hex prio (fio 3.38 rows)' '
	rm -f s.db* &&
	printf "500, 81336, 99000, 0, 0, 0x6004\n500, 96532, 120000, 1, 0, 0x6004\n" \
		>new_clat.1.log &&
	perfsift --db s.db import new_clat.1.log >out &&
	perfsift --db s.db debug dump >dump &&
	grep -q "^series	1	fio.new.write.clat_mean_ns	0.5	96532$" dump &&
	test "$(grep -c ^series dump)" = 2
'

test_expect_success 'log_unix_epoch: epoch milliseconds give epoch seconds' '
	rm -f s.db* &&
	printf "1700000000250, 100, 0, 0, 0\n1700000000500, 200, 0, 0, 0\n" \
		>ep_iops.1.log &&
	perfsift --db s.db import ep_iops.1.log >out &&
	perfsift --db s.db debug dump >dump &&
	grep -q "^series	1	fio.ep.read.iops	1700000000.25	100$" dump &&
	grep -q "^run	1	fio	fio	.*	1700000000	1$" dump
'

test_done
