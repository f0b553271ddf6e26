#!/bin/bash
# make stress: the reliability promises under load, longer than make
# check (a few minutes), with figures at the end (docs/reliability.md):
#
# 1. SIGKILL at STRESS_KILLS (100) random points of an import: every time
#    the database is intact (PRAGMA integrity_check) and holds the file
#    fully or not at all, the earlier import untouched.
# 2. 4 writers importing at once while a reader runs compare in a loop:
#    every import succeeds, every compare answers, nothing is lost.
# 3. A full disk (a small tmpfs, root only): imports until it is full;
#    each one either succeeds (exit 0) or stops with exit 4, and the
#    database stays intact with whole files only.
#
#   PERFSIFT=./perfsift tests/stress.sh      (make stress)
set -eu
LC_ALL=C
export LC_ALL
P=${PERFSIFT:-./perfsift}
case $P in /*) ;; *) P=$PWD/$P ;; esac
KILLS=${STRESS_KILLS:-100}
tmp=$(mktemp -d /tmp/perfsift-stress.XXXXXX)
full=$tmp/full
cleanup() {
	umount "$full" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
fail=0

integrity() {
	sqlite3 "$1" "PRAGMA integrity_check"
}

# gen LABEL RUNS METRICS: a CSV of RUNS x METRICS samples
gen() {
	awk -v l="$1" -v r="$2" -v m="$3" 'BEGIN {
		print "label,iteration,metric,value"
		for (i = 0; i < r; i++)
			for (j = 0; j < m; j++)
				printf "%s,%d,metric_%d,%d.25\n", l, i, j, i * j
	}'
}

echo "== 1. SIGKILL at $KILLS random points of an import"
gen base 2 10 >base.csv
gen killed 40 5000 >big.csv
"$P" --db base.db import -q base.csv >/dev/null
t0=$(date +%s%N)
cp base.db timing.db
"$P" --db timing.db import -q big.csv >/dev/null
t1=$(date +%s%N)
dur_us=$(( (t1 - t0) / 1000 ))
echo "  one import of 200,000 samples: $((dur_us / 1000)) ms"
survived=0 complete=0 absent=0
for i in $(seq "$KILLS"); do
	rm -f work.db work.db-wal work.db-shm
	cp base.db work.db
	"$P" --db work.db import -q big.csv >/dev/null 2>&1 &
	pid=$!
	us=$(( (RANDOM * 32768 + RANDOM) % (dur_us + 1) ))
	sleep "$(awk -v u="$us" 'BEGIN { printf "%.6f", u / 1e6 }')"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [ "$(integrity work.db)" != ok ]; then
		echo "  FAILED: integrity after a kill at ${us} us"
		fail=1
		continue
	fi
	runs=$(sqlite3 work.db "SELECT count(*) FROM runs")
	samples=$(sqlite3 work.db "SELECT count(*) FROM samples")
	base_ok=$(sqlite3 work.db "SELECT count(*) FROM run_variants WHERE label = 'base'")
	if [ "$base_ok" != 2 ]; then
		echo "  FAILED: the earlier import changed (kill at ${us} us)"
		fail=1
	elif [ "$runs $samples" = "42 200020" ]; then
		complete=$((complete + 1))
	elif [ "$runs $samples" = "2 20" ]; then
		absent=$((absent + 1))
	else
		echo "  FAILED: half an import: $runs runs, $samples samples"
		fail=1
		continue
	fi
	survived=$((survived + 1))
done
echo "  kills survived: $survived of $KILLS (file absent: $absent, complete: $complete)"

echo "== 2. 4 writers at once, and a reader running compare"
rm -f conc.db*
"$P" --db conc.db import -q base.csv >/dev/null
gen other 2 10 | sed 's/\.25$/.75/' >other.csv
"$P" --db conc.db import -q other.csv >/dev/null
for w in 1 2 3 4; do
	for f in 1 2 3 4 5; do
		gen "w$w" 5 2000 | sed "s/^w$w,/w$w,/; s/metric_/m${f}_/" >"w$w-$f.csv"
	done
done
pids=
for w in 1 2 3 4; do
	"$P" --db conc.db import -q w$w-*.csv >"out-$w" 2>"err-$w" &
	pids="$pids $!"
done
reads=0 read_fail=0
while kill -0 $pids 2>/dev/null; do
	if "$P" --db conc.db compare base other --all --format csv >/dev/null 2>&1
	then
		reads=$((reads + 1))
	else
		read_fail=$((read_fail + 1))
	fi
done
wfail=0
for p in $pids; do
	wait "$p" || wfail=$((wfail + 1))
done
runs=$(sqlite3 conc.db "SELECT count(*) FROM runs")
samples=$(sqlite3 conc.db "SELECT count(*) FROM samples")
echo "  writers failed: $wfail of 4; compares answered: $reads, failed: $read_fail"
echo "  runs: $runs (want 104), samples: $samples (want 200040), integrity: $(integrity conc.db)"
if [ "$wfail" != 0 ] || [ "$read_fail" != 0 ] || [ "$runs" != 104 ] ||
   [ "$samples" != 200040 ] || [ "$(integrity conc.db)" != ok ]; then
	echo "  FAILED"
	cat err-* | head -n 5
	fail=1
fi

echo "== 3. a full disk"
mkdir -p "$full"
if mount -t tmpfs -o size=2m tmpfs "$full" 2>/dev/null; then
	oks=0 fulls=0 others=0
	for i in $(seq 1 40); do
		gen "f$i" 2 3000 >"f$i.csv"
		st=0
		"$P" --db "$full/f.db" import -q "f$i.csv" >/dev/null 2>"ferr" || st=$?
		case $st in
		0) oks=$((oks + 1)) ;;
		4) fulls=$((fulls + 1)) ;;
		*) others=$((others + 1)); echo "  exit $st: $(cat ferr)" ;;
		esac
		if [ "$(integrity "$full/f.db")" != ok ]; then
			echo "  FAILED: integrity after import $i (exit $st)"
			fail=1
			break
		fi
	done
	whole=$(sqlite3 "$full/f.db" "SELECT count(*) FROM runs r WHERE
		(SELECT count(*) FROM samples s WHERE s.run_id = r.id) != 3000")
	echo "  imports: $oks succeeded, $fulls stopped with exit 4, $others other; runs not whole: $whole"
	if [ "$others" != 0 ] || [ "$whole" != 0 ] || [ "$fulls" = 0 ]; then
		echo "  FAILED"
		fail=1
	fi
else
	echo "  skipped: cannot mount a tmpfs here (not root?)"
fi

if [ "$fail" != 0 ]; then
	echo "stress: FAILED" >&2
	exit 1
fi
echo "stress: all promises held"
