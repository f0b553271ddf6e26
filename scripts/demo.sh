#!/bin/sh
# make demo: the main job on real data made here and now.
#
# Runs a real fio workload in two configurations (random reads with 4 KiB
# and with 64 KiB blocks), five iterations each, samples /proc/vmstat,
# /proc/zoneinfo and /proc/meminfo during every run in lkp's monitor
# format ("time: <epoch>" then the file), and files each run the way
# lkp-tests lays out a result tree (job.yaml, fio.output, proc-vmstat.gz,
# zoneinfo.gz, meminfo.gz under .../<commit>/<run>/).  perfsift imports
# the whole tree with one command, reduces the monitors itself (lkp's
# stats.json is not written: event counters last - first, gauges the
# mean), shows the comparison with significance and draws the charts
# (perfsift plot: PNG, and text for email).  Everything lands in
# demo-out/.
set -eu
cd "$(dirname "$0")/.."
P=${PERFSIFT:-./perfsift}
OUT=demo-out
ITER=${DEMO_ITERATIONS:-5}
RUNTIME=${DEMO_RUNTIME:-2}

rm -rf "$OUT"
mkdir -p "$OUT/result" "$OUT/data"
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

# lkp's local runs file the kernel release where robot runs put a commit
host=$(hostname | sed 's/-[0-9]*$//')
kernel=$(uname -r)

echo "== fio $(fio --version): randread, psync, ${RUNTIME}s, $ITER iterations per block size"
for i in $(seq 1 "$ITER"); do
	for bs in 4k 64k; do
		run=$OUT/result/fio-basic/$bs-psync-randread-${RUNTIME}s/$host/debian-12/local/gcc-12/$kernel/$((i - 1))
		mkdir -p "$run"
		cat >"$run/job.yaml" <<-YAML
		suite: fio-basic
		testcase: fio-basic
		category: benchmark
		runtime: ${RUNTIME}s
		nr_task: 1
		fio-setup-basic:
		  rw: randread
		  bs: $bs
		  ioengine: psync
		  test_size: 64m
		fio:
		tbox_group: $host
		rootfs: debian-12
		kconfig: local
		compiler: gcc-12
		YAML
		monitor "$run/proc-vmstat" /proc/vmstat &
		mon1=$!
		monitor "$run/zoneinfo" /proc/zoneinfo &
		mon2=$!
		monitor "$run/meminfo" /proc/meminfo &
		mon3=$!
		fio --name=randread --rw=randread --bs="$bs" --size=64m \
			--ioengine=psync --runtime="$RUNTIME" --time_based \
			--directory="$OUT/data" --output-format=json \
			--output="$run/fio.output" >/dev/null
		kill "$mon1" "$mon2" "$mon3"
		wait "$mon1" "$mon2" "$mon3" 2>/dev/null || true
		gzip "$run/proc-vmstat" "$run/zoneinfo" "$run/meminfo"
		printf '  bs=%-4s iteration %d done\n' "$bs" "$i"
	done
done
rm -rf "$OUT/data"

echo
echo "== perfsift import $OUT/result    (one lkp run directory = one result)"
"$P" import "$OUT/result" | tail -n 3
"$P" runs

echo
echo "== perfsift compare --by param:bs 4k 64k --metric 'fio.read*'"
"$P" compare --by param:bs 4k 64k --metric 'fio.read*'
echo
echo "== the same in lkp's layout (% stddev is lkp's population one)"
"$P" compare --by param:bs 4k 64k --format lkp --metric 'fio.read*'
echo
echo "== /proc/vmstat, every counter: with false discovery control (BH), then without"
"$P" compare --by param:bs 4k 64k --metric 'proc-vmstat.*' | tail -n 1
"$P" compare --by param:bs 4k 64k --metric 'proc-vmstat.*' --fdr none | tail -n 1
echo
echo "== a monitor series as imported: free pages of the Normal zone in the first 4k run"
first=$("$P" runs --json | sed -n 's/.*"id": \([0-9]*\).*/\1/p' | head -n 1)
"$P" show "run:$first" --series 'zoneinfo.node0.Normal.pages.free' | head -n 8
echo
echo "== charts (perfsift plot, drawn by gnuplot) in $OUT/"
"$P" plot compare --by param:bs 4k 64k --metric 'fio.read_[bil]*' \
	-o "$OUT/compare.png"
"$P" plot compare --by param:bs 4k 64k --metric 'fio.read_[bi]*' \
	-o "$OUT/compare.txt"
# what the page cache and the allocator saw: free pages of the Normal
# zone against its watermarks, and the rate of page-ins from the disk
"$P" plot series --by param:bs 4k 64k \
	--metric 'zoneinfo.node0.Normal.pages.free' -o "$OUT/free-pages.png"
"$P" plot series --by param:bs 4k 64k --metric 'proc-vmstat.pgpgin' \
	-o "$OUT/pgpgin.png"
echo "compare.png (bandwidth, I/O, IOPS and latency, each run a point),"
echo "compare.txt (the same as text, for an email), free-pages.png (the"
echo "Normal zone's free pages against its min/low/high watermarks) and"
echo "pgpgin.png (page-ins per second); the first chart as text:"
sed -n '1,/^$/p' "$OUT/compare.txt"
echo
echo "== the report to post, as an e-mail (perfsift report, lkp style)"
"$P" report --by param:bs 4k 64k --metric 'fio.read_[bi]*' \
	--from "perfsift demo <perfsift@localhost>" --to "you@localhost" \
	--attach-plots -o "$OUT/report.eml"
sed -n '/^Subject:/p' "$OUT/report.eml"
echo "$OUT/report.eml: the message (text/plain with the table and an ASCII"
echo "chart, the charts as PNG attachments); send it with"
echo "'perfsift send $OUT/report.eml --smtp smtp://HOST', or read it with"
echo "'mutt -f' after 'perfsift report ... --mbox FILE'"
echo "raw captures (an lkp result tree) and the database are in $OUT/"
