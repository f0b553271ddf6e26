#!/bin/sh
# make demo: the main job on real data made here and now.
#
# Runs a real fio workload in two configurations (random reads with 4 KiB
# and with 64 KiB blocks), five iterations each, samples /proc/vmstat and
# /proc/zoneinfo during every run (lkp's monitor format: "time: <epoch>"
# then the file), imports everything into demo-out/demo.db and shows the
# comparison with significance.  Everything lands in demo-out/.
set -eu
cd "$(dirname "$0")/.."
P=${PERFSIFT:-./perfsift}
OUT=demo-out
ITER=${DEMO_ITERATIONS:-5}
RUNTIME=${DEMO_RUNTIME:-2}

rm -rf "$OUT"
mkdir -p "$OUT/raw" "$OUT/data"
DB=$OUT/demo.db
export PERFSIFT_DB="$DB"

# monitor FILE SOURCE: sample SOURCE every 0.5 s until killed
monitor() {
	while :; do
		echo "time: $(date +%s.%N)"
		cat "$2"
		echo
		sleep 0.5
	done >"$1"
}

# vmstat_csv RAW CSV: reduce a monitor capture to one value per counter,
# as lkp does: event counters (pg*, numa_*, ...) last - first, gauges
# (nr_*) the mean.  (Stand-in until the procfs importer reads raw files.)
vmstat_csv() {
	awk '
	/^time: / { snap++; next }
	NF == 2 && $2 ~ /^[0-9]+$/ {
		if (!($1 in first)) { first[$1] = $2; order[++n] = $1 }
		last[$1] = $2; sum[$1] += $2; cnt[$1]++
	}
	END {
		print "metric,value"
		for (i = 1; i <= n; i++) {
			k = order[i]
			if (k ~ /^nr_/ && k !~ /^nr_(dirtied|written|vmscan_immediate_reclaim)$/)
				v = sum[k] / cnt[k]
			else
				v = last[k] - first[k]
			printf "proc-vmstat.%s,%.6f\n", k, v
		}
	}' "$1" >"$2"
}

echo "== fio $(fio --version): randread, psync, ${RUNTIME}s, $ITER iterations per block size"
for i in $(seq 1 "$ITER"); do
	for bs in 4k 64k; do
		run=$OUT/raw/bs$bs-$i
		monitor "$run.proc-vmstat" /proc/vmstat &
		mon1=$!
		monitor "$run.zoneinfo" /proc/zoneinfo &
		mon2=$!
		fio --name=randread --rw=randread --bs="$bs" --size=64m \
			--ioengine=psync --runtime="$RUNTIME" --time_based \
			--directory="$OUT/data" --output-format=json \
			--output="$run.fio.json" >/dev/null
		kill "$mon1" "$mon2"
		wait "$mon1" "$mon2" 2>/dev/null || true
		vmstat_csv "$run.proc-vmstat" "$run.vmstat.csv"
		printf '  bs=%-4s iteration %d done\n' "$bs" "$i"
	done
done
rm -rf "$OUT/data"

echo
echo "== perfsift import"
for bs in 4k 64k; do
	"$P" import --quiet "$OUT"/raw/bs$bs-*.fio.json
	"$P" import --quiet --testcase proc-vmstat --param bs=$bs \
		"$OUT"/raw/bs$bs-*.vmstat.csv
done
"$P" runs

echo
echo "== perfsift compare --by param:bs 4k 64k --metric 'fio.read*'"
"$P" compare --by param:bs 4k 64k --metric 'fio.read*'
echo
echo "== the same in lkp's layout (% stddev is lkp's population one)"
"$P" compare --by param:bs 4k 64k --format lkp --metric 'fio.read_[bi]*'
echo
echo "== /proc/vmstat, every counter: with false discovery control (BH), then without"
"$P" compare --by param:bs 4k 64k --testcase proc-vmstat | tail -n 1
"$P" compare --by param:bs 4k 64k --testcase proc-vmstat --fdr none | tail -n 1
echo
echo "raw captures and the database are in $OUT/"
