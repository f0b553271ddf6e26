#!/bin/bash
# make bench: measure perfsift against the SPEC §11 performance targets and
# print one table: each figure, the median of several runs and their
# spread (min-max), the floor it is measured against in the same run, the
# ratio to that floor, the target and pass/miss.  The machine is shared
# and noisy: these are figures to read, never a timed test, so a missed
# target does not fail; only a broken import or measurement does.
# docs/performance.md says what each figure means and keeps past results.
#
#   PERFSIFT=./perfsift BENCH_STATS=build/bench-stats \
#       BENCH_JANSSON=build/bench-jansson BENCH_STORE=build/bench-store \
#       CP_SYNTH=build/cp-synth scripts/bench.sh
#   BENCH_TSV=FILE    also write the table as TSV, one line per figure:
#                     key median min max floor ratio target verdict
#   BENCH_1GB=1       also import 1 GB inputs for the peak-RSS target (slow)
#   BENCH_BIG=N       runs per variant of the large compare database
#                     (default 100: 2 x 100 x 50,000 = 10 M samples)
set -eu

LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset PERFSIFT_DB 2>/dev/null || true

PERFSIFT=${PERFSIFT:-./perfsift}
BENCH_STATS=${BENCH_STATS:-build/bench-stats}
BENCH_JANSSON=${BENCH_JANSSON:-build/bench-jansson}
BENCH_STORE=${BENCH_STORE:-build/bench-store}
CP_SYNTH=${CP_SYNTH:-build/cp-synth}
BENCH_1GB=${BENCH_1GB:-0}
BENCH_BIG=${BENCH_BIG:-100}
BENCH_TSV=${BENCH_TSV:-}
RUNS=3			# imports (and whole-second figures): median of RUNS
# sub-second figures: median of COMPARE_RUNS.  9, not 5: the machine's
# speed moves from one second to the next, and with 5 one slow stretch
# (a run of 106 ms among ones of 50) could carry the median with it
COMPARE_RUNS=9

case $PERFSIFT in /*) ;; *) PERFSIFT=$PWD/$PERFSIFT ;; esac
case $BENCH_STATS in /*) ;; *) BENCH_STATS=$PWD/$BENCH_STATS ;; esac
case $BENCH_JANSSON in /*) ;; *) BENCH_JANSSON=$PWD/$BENCH_JANSSON ;; esac
case $BENCH_STORE in /*) ;; *) BENCH_STORE=$PWD/$BENCH_STORE ;; esac
case $CP_SYNTH in /*) ;; *) CP_SYNTH=$PWD/$CP_SYNTH ;; esac
[ -x "$BENCH_JANSSON" ] || BENCH_JANSSON=
[ -x "$BENCH_STORE" ] || BENCH_STORE=
srcdir=$(cd "$(dirname "$0")/.." && pwd)

tmp=$(mktemp -d /tmp/perfsift-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

failed=0
nr_pass=0
nr_miss=0
: >"$tmp/tsv"

# ---------------------------------------------------------------- helpers

# calc, fmt, summarize, judge, fig and the other helpers of the table
. "$srcdir/scripts/bench-lib.sh"

# A GNU time that reports the peak RSS (%M, KiB), else poll /proc
# (BENCH_TIME= forces the polling, to test it).
time_bin=${BENCH_TIME-/usr/bin/time}
if [ -z "$time_bin" ] || [ ! -x "$time_bin" ] ||
   ! "$time_bin" -f %M -o "$tmp/rss" true 2>/dev/null; then
	time_bin=
fi

# now: seconds since the epoch, microseconds or better; bash 5 has it
# without forking date
now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		echo "$EPOCHREALTIME"
	else
		date +%s.%N
	fi
}

# run_timed OUT CMD...: run CMD once, stdout to OUT (a new file),
# stderr to $tmp/err.  Sets t_elapsed (seconds, wall clock around the
# process) and t_rc;
# returns CMD's exit status.  With want_rss=1 also t_rss_kb, the peak
# resident set size in KiB (at the cost of GNU time's exec in the timing,
# about a millisecond, or of a polling loop competing for the CPUs).
want_rss=0
run_timed() {
	local out=$1 t0 t1 rc=0 pid k v _
	shift
	t_rss_kb=0
	# the last run's OUT removed first: truncating a 21 MB file in the
	# redirection took 9-21 ms, the file system's time, not CMD's
	rm -f "$out" "$tmp/err"
	t0=$(now)
	if [ "$want_rss" = 0 ]; then
		"$@" >"$out" 2>"$tmp/err" || rc=$?
		t1=$(now)
	elif [ -n "$time_bin" ]; then
		"$time_bin" -f %M -o "$tmp/rss" "$@" >"$out" 2>"$tmp/err" ||
			rc=$?
		t1=$(now)
		# on failure GNU time writes "Command exited..." first
		t_rss_kb=$(tail -n 1 "$tmp/rss")
	else
		"$@" >"$out" 2>"$tmp/err" &
		pid=$!
		# VmHWM is the peak so far: the last reading before exit wins
		while [ -r "/proc/$pid/status" ]; do
			while read -r k v _; do
				if [ "$k" = VmHWM: ]; then
					t_rss_kb=$v
				fi
			done <"/proc/$pid/status" 2>/dev/null || true
			sleep 0.01
		done
		wait "$pid" || rc=$?
		t1=$(now)
	fi
	t_elapsed=$(calc "$t1 - $t0")
	t_rc=$rc
	return "$rc"
}

# timed N CMD...: run CMD N times (stdout to $tmp/out); med, lo and hi of
# the wall times in seconds.  Returns 1 (and says so) on failure.
timed() {
	local n=$1 i ts=
	shift
	for i in $(seq "$n"); do
		if ! run_timed "$tmp/out" "$@"; then
			fail "$* (exit $t_rc)"
			return 1
		fi
		ts="$ts $t_elapsed"
	done
	summarize $ts
}

# printed N CMD...: run CMD N times; each prints one number (a helper's
# own timing, in seconds); med, lo and hi of them
printed() {
	local n=$1 i x vs=
	shift
	for i in $(seq "$n"); do
		x=$("$@" 2>"$tmp/err") || { fail "$*"; return 1; }
		vs="$vs $x"
	done
	summarize $vs
}

# imported NAME EXPECT ARGS...: import ARGS RUNS times, each into a
# fresh database (a re-import of the same content is skipped by design),
# check that stdout says EXPECT; med, lo and hi of the times in seconds,
# rss_med, rss_lo and rss_hi of the peak RSS in MiB.  Returns 1 on failure.
# With KEEP_DB=1 the last run's database stays, as $tmp/NAME-RUNS.db.
imported() {
	local name=$1 expect=$2 i db ts= rs=
	shift 2
	for i in $(seq "$RUNS"); do
		db=$tmp/$name-$i.db
		if ! want_rss=1 run_timed "$tmp/out" \
			"$PERFSIFT" --db "$db" import -q "$@"; then
			fail "perfsift import $name (exit $t_rc)"
			return 1
		fi
		if ! grep -q "$expect" "$tmp/out"; then
			printf 'expected "%s", got:\n' "$expect" >"$tmp/err"
			cat "$tmp/out" >>"$tmp/err"
			fail "perfsift import $name: unexpected summary"
			return 1
		fi
		[ "${KEEP_DB:-0}" = 1 ] && [ "$i" = "$RUNS" ] ||
			rm -f "$db" "$db-wal" "$db-shm"
		ts="$ts $t_elapsed"
		rs="$rs $(calc "$t_rss_kb / 1024")"
	done
	summarize $rs
	rss_med=$med rss_lo=$lo rss_hi=$hi
	summarize $ts
}

# rss_fig KEY LABEL: the peak-RSS row of the last imported(), <= 64 MiB
rss_fig() {
	local m=$med l=$lo h=$hi
	med=$rss_med lo=$rss_lo hi=$rss_hi
	judge "$med" "<=" 64
	fig "$1" "$2" %.1f "" "<= 64 MiB" "$vd"
	med=$m lo=$l hi=$h
}

# cat_floor FILE...: med of `cat` of the files (from the page cache), as
# the rate floor of a text format: sets floor_s (seconds)
cat_floor() {
	timed "$COMPARE_RUNS" cat "$@" || return 1
	floor_s=$med
}

# mb_fig KEY LABEL BYTES [TARGET]: the MB/s row of the last timing (med,
# lo, hi in seconds) beside the floor floor_s (seconds, the same bytes);
# TARGET ">= N" (MB/s) or "<= Rx" (times slower than the floor)
mb_fig() {
	local floor= t=${4:-} r
	per "$(calc "$3 / 1e6")"
	[ -z "${floor_s:-}" ] || floor=$(calc "$3 / 1e6 / $floor_s")
	vd=
	case $t in
	'>= '*)
		judge "$med" ">=" "${t#>= }" ;;
	'<= '*x)
		r=${t#<= }
		[ -z "$floor" ] || judge "$(calc "$floor / $med")" "<=" "${r%x}" ;;
	esac
	fig "$1" "$2" %.1f "$floor" "$t" "$vd"
}

# gen_csv FILE LABELS ITERATIONS METRICS SEED: a long-format CSV
# (label,iteration,metric,value), LABELS x ITERATIONS x METRICS rows.
# Each metric has its own level; each sample 2% noise around it; the
# second label ("new") is 1% higher on every 10th metric.
gen_csv() {
	awk -v labels="$2" -v iters="$3" -v metrics="$4" -v seed="$5" 'BEGIN {
		srand(seed)
		for (m = 0; m < metrics; m++)
			level[m] = 1 + 1e4 * rand()
		print "label,iteration,metric,value"
		for (l = 0; l < labels; l++) {
			name = l == 0 ? "base" : l == 1 ? "new" : "v" l
			for (i = 0; i < iters; i++)
				for (m = 0; m < metrics; m++) {
					v = level[m] * (0.98 + 0.04 * rand())
					if (l > 0 && m % 10 == 0)
						v *= 1.01
					printf "%s,%d,metric.%06d,%.6g\n",
						name, i, m, v
				}
		}
	}' >"$1"
}

size_of() {
	wc -c <"$1" | tr -d ' '
}

# gb_figs NAME EXPECT LABEL PATH: import PATH (1 GB, BENCH_1GB) once:
# its peak RSS against 64 MiB and its rate; PATH removed after
gb_figs() {
	local bytes
	bytes=$(du -sb "$4" | cut -f1)
	if RUNS=1 imported "$1" "$2" "$4"; then
		rss_fig "import_${1}_rss_mib" "  $3, 1 run: peak RSS [MiB]"
		floor_s=
		mb_fig "import_${1}_mbps" "  $3, 1 run [MB/s]" "$bytes"
	fi
	rm -rf "$4"
}

# ------------------------------------------------------------- preamble

if [ ! -x "$PERFSIFT" ]; then
	echo "bench: $PERFSIFT is not built (run make bench)" >&2
	exit 2
fi
sqlite_bin=$(command -v sqlite3 || true)
fio_bin=$(command -v fio || true)

sqlite_ver=missing
if [ -n "$sqlite_bin" ]; then
	sqlite_ver=$("$sqlite_bin" --version | cut -d' ' -f1)
fi
fio_ver=missing
if [ -n "$fio_bin" ]; then
	fio_ver=$("$fio_bin" --version)
fi
# the journal and cache settings of lib/store/db.c, for sqlite3's runs:
# a floor with a cheaper journal would not be the same work
sqlite_pragmas=(-cmd 'PRAGMA journal_mode = WAL'
	-cmd 'PRAGMA synchronous = NORMAL' -cmd 'PRAGMA cache_size = -24576')

echo "perfsift benchmarks (SPEC.md §11), $(date -u '+%Y-%m-%d %H:%M UTC')"
version=$("$PERFSIFT" --version 2>/dev/null || echo 'perfsift ?')
echo "$version, $(nproc) CPUs," \
	"Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sqlite3 $sqlite_ver, fio $fio_ver," \
	"peak RSS via ${time_bin:-VmHWM polled from /proc/PID/status}"
echo "median of $COMPARE_RUNS runs (sub-second figures) or $RUNS" \
	"(imports and longer ones); spread = min-max of those runs;"
echo "ratio = how many times slower than the floor (median / floor time,"
echo "floor / median rate).  A miss is a figure to look at, not a failure."
echo "MB = 10^6 bytes, MiB = 2^20."
echo
line=$(printf '  %-46s %10s %19s %10s %7s  %-15s %s' "FIGURE [unit]" \
	median "spread (min-max)" floor ratio target verdict)
printf '%s\n' "$line"
printf '  %s\n' "$(printf '%122s' '' | tr ' ' -)"

# ------------------------------------------------- 1. CSV import (1M samples)

csv=$tmp/big.csv
gen_csv "$csv" 2 10 50000 42
csv_bytes=$(size_of "$csv")
csv_rows=1000000
section "1. CSV import: $(fmt_int $csv_rows) samples (2 labels x 10 iterations" \
	"x 50,000 metrics), $(fmt %.1f "$(calc "$csv_bytes / 1e6")") MB;" \
	"floors: sqlite3 .import (WAL, synchronous=NORMAL), cat"
sq_s=
if [ -n "$sqlite_bin" ]; then
	ts=
	for i in $(seq "$RUNS"); do
		db=$tmp/sqlite-$i.db
		# the table first, so --skip 1 drops the header row; .import
		# runs inside one transaction; timed the same way as
		# perfsift, through GNU time
		if ! want_rss=1 run_timed "$tmp/out" \
			"$sqlite_bin" "${sqlite_pragmas[@]}" "$db" \
			'CREATE TABLE t(label TEXT, iteration INTEGER, metric TEXT, value REAL);' \
			".import --csv --skip 1 $csv t"; then
			fail "sqlite3 .import"
			ts=
			break
		fi
		if [ "$i" = 1 ]; then
			n=$("$sqlite_bin" "$db" 'SELECT count(*) FROM t')
			if [ "$n" != "$csv_rows" ]; then
				echo "sqlite3 imported $n rows" >"$tmp/err"
				fail "sqlite3 .import row count"
				ts=
				break
			fi
		fi
		[ "${KEEP_DB:-0}" = 1 ] && [ "$i" = "$RUNS" ] ||
			rm -f "$db" "$db-wal" "$db-shm"
		ts="$ts $t_elapsed"
	done
	if [ -n "$ts" ]; then
		summarize $ts
		sq_s=$med
	fi
fi
floor_s=
cat_floor "$csv" || true
if imported csv "$csv_rows samples" "$csv"; then
	judge "$(calc "$med / ${sq_s:-0}")" "<=" 1.5
	[ -n "$sq_s" ] || vd=
	fig import_csv_s "perfsift import [s]" %.2f "$sq_s" "<= 1.5x" "$vd"
	keep
	per $csv_rows
	judge "$med" ">=" 500000
	fig import_csv_samples_per_s "  rate [samples/s]" int "" \
		">= 500,000" "$vd"
	restore
	mb_fig import_csv_mbps "  parse rate [MB/s]" "$csv_bytes"
	rss_fig import_csv_rss_mib "  peak RSS [MiB]"
fi
# one run per row: a CSV without an iteration column puts the k-th row of
# a metric in the variant's k-th run, so 160,000 rows of one metric are
# 160,000 runs; every per-run lookup must be constant time (this took 15 s,
# quadratic, when the held values searched their runs one by one)
awk 'BEGIN { print "metric,value,label"; srand(7);
	for (i = 0; i < 160000; i++) printf "z.bw,%.3f,A\n", 100 * rand() }' \
	>"$tmp/runs.csv"
if imported csvruns "160000 runs" "$tmp/runs.csv"; then
	per 160000
	fig import_csv_runs_per_s "  160,000 runs of one row [samples/s]" int
	rss_fig import_csv_runs_rss_mib "  160,000 runs of one row: peak RSS [MiB]"
fi
rm -f "$tmp/runs.csv"
if [ "$BENCH_1GB" = 1 ]; then
	# 2 labels x 352 iterations x 50,000 metrics: about 1 GB; more runs
	# rather than more metrics, as a long series of test runs grows
	big_rows=$((2 * 352 * 50000))
	gen_csv "$tmp/1g.csv" 2 352 50000 43
	if RUNS=1 imported csv1g "$big_rows samples" "$tmp/1g.csv"; then
		rss_fig import_csv1g_rss_mib "  1 GB CSV, 1 run: peak RSS [MiB]"
		per $big_rows
		fig import_csv1g_samples_per_s \
			"  1 GB CSV, 1 run [samples/s]" int
	fi
	rm -f "$tmp"/1g.*
fi

# ------------------------------------------------- 2. fio JSON import

section "2. fio JSON import: one real fio run, numbers varied; floor:" \
	"jansson's bare parse of the same bytes (build/bench-jansson)"
# jansson_floor FILE...: the median of RUNS bare parses into floor_s
jansson_floor() {
	floor_s=
	[ -n "$BENCH_JANSSON" ] || return 0
	printed "$RUNS" "$BENCH_JANSSON" 1 "$@" || return 0
	floor_s=$med
}

# store_fig KEY LABEL SRC: import SRC once more, keep its database, and
# time the rows' storage alone (bench-store, nothing parsed) beside
# jansson's parse floor_s: the floor under the storage side
store_fig() {
	rm -f "$tmp/rows.db"*
	if [ -n "$BENCH_STORE" ] &&
	   "$PERFSIFT" --db "$tmp/rows.db" import -q "$3" >/dev/null &&
	   printed "$RUNS" "$BENCH_STORE" 1 "$tmp/rows.db" "$tmp/store.db"
	then
		fig "$1" "$2" %.2f "${floor_s:-}"
	fi
	rm -f "$tmp/rows.db"*
}

if [ -z "$fio_bin" ]; then
	section "  skipped: fio is not installed (scripts/deps.sh check installs it)"
elif ! (cd "$tmp" && "$fio_bin" --name=b --rw=randread --size=1m \
		--runtime=1 --time_based=0 --filename="$tmp/f" \
		--output-format=json >"$tmp/fio.json" 2>"$tmp/err"); then
	fail "fio did not run"
else
	rm -f "$tmp/f"
	# 2,000 variants of the one real output: new timestamps and
	# bandwidth, IOPS and mean latencies scaled by 0.9-1.1, so that
	# every file has its own content hash
	mkdir "$tmp/fio"
	awk -v n=2000 -v dir="$tmp/fio" -v seed=7 '
	{ line[NR] = $0 }
	END {
		srand(seed)
		for (f = 0; f < n; f++) {
			out = sprintf("%s/fio-%04d.json", dir, f)
			for (i = 1; i <= NR; i++) {
				s = line[i]
				if (s ~ /"(timestamp|timestamp_ms|bw|bw_bytes|iops|mean)" : [0-9.]+,?$/) {
					match(s, /[0-9.]+,?$/)
					v = substr(s, RSTART, RLENGTH)
					c = v ~ /,$/ ? "," : ""
					if (s ~ /"timestamp"/)
						x = sprintf("%.0f", v + f)
					else if (s ~ /"timestamp_ms"/)
						x = sprintf("%.0f", v + 1000 * f)
					else if (v ~ /\./)
						x = sprintf("%.6f", v * (0.9 + 0.2 * rand()))
					else
						x = sprintf("%.0f", v * (0.9 + 0.2 * rand()))
					s = substr(s, 1, RSTART - 1) x c
				}
				print s > out
			}
			close(out)
		}
	}' "$tmp/fio.json"
	# gen_jobs N OUT: N jobs of the run in one file (6 kB a job), as
	# fio writes numjobs=N without group_reporting
	gen_jobs() {
	awk -v n="$1" -v seed=7 '
	NR <= 6 { head[++nh] = $0; next }	# up to "jobs" : [
	/^    }/ && !done { job[++nj] = "    }"; done = 1; next }
	!done { job[++nj] = $0; next }
	{ tail[++nt] = $0 }
	END {
		srand(seed)
		for (i = 1; i <= nh; i++)
			print head[i]
		for (f = 0; f < n; f++)
			for (i = 1; i <= nj; i++) {
				s = job[i]
				if (s ~ /"(bw|bw_bytes|iops|mean)" : [0-9.]+,?$/) {
					match(s, /[0-9.]+,?$/)
					v = substr(s, RSTART, RLENGTH)
					c = v ~ /,$/ ? "," : ""
					if (v ~ /\./)
						x = sprintf("%.6f", v * (0.9 + 0.2 * rand()))
					else
						x = sprintf("%.0f", v * (0.9 + 0.2 * rand()))
					s = substr(s, 1, RSTART - 1) x c
				}
				if (i == nj && f < n - 1)
					s = s ","
				print s
			}
		for (i = 1; i <= nt; i++)
			print tail[i]
	}' "$tmp/fio.json" >"$2"
	}
	# the same 2,000 jobs in one file: the parse without the per-file
	# costs (open, detect, hash, a transaction per file)
	gen_jobs 2000 "$tmp/fio-2000-jobs.json"

	fio_bytes=$(cat "$tmp"/fio/*.json | wc -c | tr -d ' ')
	jansson_floor "$tmp"/fio/*.json
	if imported fio "imported 2000 files" "$tmp/fio"; then
		keep
		mb_fig import_fio_dir_mbps \
			"2,000 files, $(fmt %.1f "$(calc "$fio_bytes / 1e6")") MB: parse rate [MB/s]" \
			"$fio_bytes" "<= 1.5x"
		restore
		per 2000
		judge "$med" ">=" 2000
		fig import_fio_dir_files_per_s "  files [files/s]" int "" \
			">= 2,000" "$vd"
		rss_fig import_fio_dir_rss_mib "  peak RSS [MiB]"
		store_fig import_fio_dir_store_s \
			"  the rows' storage alone (bench-store) [s]" "$tmp/fio"
	fi
	one_bytes=$(size_of "$tmp/fio-2000-jobs.json")
	jansson_floor "$tmp/fio-2000-jobs.json"
	if imported fio1 "imported 1 file" "$tmp/fio-2000-jobs.json"; then
		mb_fig import_fio_file_mbps \
			"the 2,000 jobs in 1 file: parse rate [MB/s]" \
			"$one_bytes" "<= 1.5x"
		rss_fig import_fio_file_rss_mib "  peak RSS [MiB]"
		store_fig import_fio_file_store_s \
			"  the rows' storage alone (bench-store) [s]" \
			"$tmp/fio-2000-jobs.json"
	fi
	rm -rf "$tmp/fio" "$tmp"/fio-*.json
	if [ "$BENCH_1GB" = 1 ]; then
		# 1 GB: as many jobs as that takes, each its own metrics
		gen_jobs $((1000000000 / (one_bytes / 2000))) "$tmp/fio-1g.json"
		gb_figs fio1g "imported 1 file" "1 GB of jobs in 1 file" \
			"$tmp/fio-1g.json"
	fi
	rm -f "$tmp/fio.json"
fi

# ------------------------------------------------- 3. lib/stats

section "3. lib/stats micro-benchmark (tests/bench-stats.c, 300,000 pairs" \
	"of 5 vs 5 samples, $RUNS processes)"
if [ ! -x "$BENCH_STATS" ]; then
	: >"$tmp/err"
	fail "$BENCH_STATS is not built"
else
	for i in $(seq "$RUNS"); do
		"$BENCH_STATS" 300000 >"$tmp/stats-$i" 2>"$tmp/err" ||
			{ fail "bench-stats"; break; }
	done
	# st_fig KEY LABEL STAT SCALE: one bench-stats figure over the runs
	st_fig() {
		summarize $(awk -v k="$3" -v s="$4" '$1 == k { print $2 * s }' \
			"$tmp"/stats-*)
		fig "$1" "$2" %.0f
	}
	st_fig stats_compare_ns "one comparison [ns]" compare_ns 1
	st_fig stats_summarize_ns "  stats_summarize, 5 values [ns]" summarize_ns 1
	st_fig stats_welch_ns "  stats_welch [ns]" welch_ns 1
	st_fig stats_mwu_ns "  stats_mwu, exact [ns]" mwu_ns 1
	st_fig stats_change_ci_ns "  stats_change_ci [ns]" change_ci_ns 1
	st_fig stats_bh5000_us "stats_bh of 5,000 p-values [us]" bh5000_ns 0.001
	# the statistics' share of a 20,000-metric compare: 20,000
	# comparisons and the BH pass scaled to 20,000
	summarize $(for f in "$tmp"/stats-*; do
		awk '$1 == "compare_ns" { c = $2 } $1 == "bh5000_ns" { b = $2 }
		     END { print (c * 20000 + b * 4) / 1e6 }' "$f"
	done)
	fig stats_part_compare20k_ms "stats part of a 20,000-metric compare [ms]" %.1f
	cs=$(awk '$1 == "checksum" { print $2 }' "$tmp"/stats-* | sort -u)
	if [ "$(echo "$cs" | wc -l)" != 1 ]; then
		echo "checksums differ between runs: $cs" >"$tmp/err"
		fail "bench-stats checksum"
	fi
	section "  (checksum $cs: the same on every run of the same lib/stats)"
fi

# ------------------------------------------------- 4. compare

# the floor of compare: every sample of the two variants read, grouped
# and averaged by sqlite3 alone, on the real schema
floor_sql="SELECT m.name, v.label, count(*), avg(s.value)
	FROM samples s JOIN runs r ON r.id = s.run_id
	JOIN variants v ON v.id = r.variant_id
	JOIN metrics m ON m.id = s.metric_id
	WHERE v.label IN ('base', 'new') GROUP BY m.name, v.label;"

# cmp_db M R: the database of 2 variants x R runs x M metrics, made once
cmp_db() {
	db=$tmp/cmp-$1-$2.db
	[ -e "$db" ] && return 0
	gen_csv "$tmp/cmp.csv" 2 "$2" "$1" 44
	"$PERFSIFT" --db "$db" import -q "$tmp/cmp.csv" >/dev/null \
		2>"$tmp/err" || { fail "import of the $1 x $2 compare data"; return 1; }
	rm -f "$tmp/cmp.csv"
}

# cmp_floor: sqlite3's GROUP BY over $db, median into floor_ms
cmp_floor() {
	floor_ms=
	[ -n "$sqlite_bin" ] || return 0
	timed "$COMPARE_RUNS" "$sqlite_bin" "$db" "$floor_sql" || return 0
	if [ "$(wc -l <"$tmp/out")" != $((2 * $1)) ]; then
		echo "sqlite3 printed $(wc -l <"$tmp/out") groups" >"$tmp/err"
		fail "the GROUP BY floor"
		return 0
	fi
	scale 1000
	floor_ms=$med
}

# cmp_time M R FORMAT: time compare --all in FORMAT (text: no --format)
# over $db; checks one row per metric; med, lo, hi in ms.  Returns 2
# when compare refuses the data as more than its memory budget (the
# first, untimed run, which also warms the page cache, tells).
cmp_time() {
	local f= rc=0
	[ "$3" = text ] || f="--format $3"
	"$PERFSIFT" --db "$db" compare base new --all $f >/dev/null \
		2>"$tmp/err" || rc=$?
	if [ "$rc" = 4 ] && grep -q 'within 64 MiB' "$tmp/err"; then
		return 2
	fi
	timed "$COMPARE_RUNS" "$PERFSIFT" --db "$db" compare base new --all $f ||
		return 1
	# every row names its metric (mmtests: six statistics a metric)
	n=$(grep -c 'metric\.' "$tmp/out" || true)
	if [ "$n" -lt "$1" ]; then
		: >"$tmp/err"
		fail "compare --format $3 printed $n rows, not $1"
		return 1
	fi
	scale 1000
}

# cmp_rss KEY LABEL: the peak RSS of one compare --all --format json
# over $db against 64 MiB; "refused" (a miss, not a broken measurement)
# when compare declines the data as more than its memory budget.
# Returns 0 when compare ran (t_elapsed is its time), else 1.
cmp_rss() {
	if want_rss=1 run_timed "$tmp/out" "$PERFSIFT" --db "$db" \
		compare base new --all --format json; then
		med=$(calc "$t_rss_kb / 1024") lo=$med hi=$med
		judge "$med" "<=" 64
		fig "$1" "$2" %.1f "" "<= 64 MiB" "$vd"
		return 0
	fi
	if [ "$t_rc" = 4 ] && grep -q 'within 64 MiB' "$tmp/err"; then
		missing "$1" "$2" "<= 64 MiB" refused
	else
		fail "compare peak RSS over $db (exit $t_rc)"
	fi
	return 1
}

section "4. compare base new --all: 2 variants x R runs x M metrics;" \
	"floor: sqlite3's GROUP BY (metric, label) of the same samples"
if timed "$COMPARE_RUNS" "$PERFSIFT" --version; then
	scale 1000
	fig startup_ms "process start-up (perfsift --version) [ms]" %.1f
fi
if cmp_db 20000 5; then
	cmp_floor 20000
	for f in text mmtests lkp json csv markdown; do
		key=compare_${f}_m20000_r5_ms
		label="M = 20,000, R = 5, --format $f [ms]"
		rc=0
		cmp_time 20000 5 "$f" || rc=$?
		case $rc in
		2) missing "$key" "$label" "<= 62, <= 1.0x" refused ;;
		0)
			judge "$med" "<=" 62
			v=$vd
			judge "$(calc "$med / ${floor_ms:-0}")" "<=" 1
			[ -n "$floor_ms" ] || vd=miss
			[ "$v" = pass ] && [ "$vd" = pass ] || v=miss
			fig "$key" "$label" %.1f "$floor_ms" "<= 62, <= 1.0x" "$v"
			;;
		esac
	done
	cmp_rss compare_m20000_r5_rss_mib \
		"  peak RSS, --format json, 1 run [MiB]" || true
fi
# linear in metrics and in runs: the time per sample read (a metric in
# one run of one variant) should stay flat as M or R grows.  The largest
# sizes are refused today (compare loads both variants within 64 MiB);
# they print "refused" until compare streams.
section "  growth: the time per sample (metric-run: 2 x R x M of them)" \
	"should stay flat"
for mr in 5000:5 10000:5 20000:5 50000:5 20000:10 20000:15 20000:20; do
	m=${mr%:*} r=${mr#*:}
	cmp_db "$m" "$r" || continue
	floor_ms=
	for f in json text; do
		key=growth_${f}_m${m}_r${r}
		label="M = $(fmt_int "$m"), R = $r, --format $f [ms]"
		rc=0
		cmp_time "$m" "$r" "$f" || rc=$?
		if [ "$rc" = 2 ]; then
			missing "${key}_ms" "$label" "" refused
			continue
		elif [ "$rc" != 0 ]; then
			continue
		fi
		# the floor once per database, and only when compare ran
		[ -n "$floor_ms" ] || { keep; cmp_floor "$m"; restore; }
		samples=$((2 * r * m))
		fig "${key}_ms" "$label" %.1f "$floor_ms"
		scale "$(calc "1e6 / $samples")"
		fig "${key}_ns_per_sample" "  per sample [ns]" %.0f \
			"${floor_ms:+$(calc "$floor_ms * 1e6 / $samples")}"
	done
	[ "$m:$r" = 20000:5 ] || rm -f "$db" "$db-wal" "$db-shm"
done
rm -f "$tmp"/cmp-*

# the peak RSS whatever the number of samples: a database 100 times the
# size above (BENCH_BIG runs per variant x 50,000 metrics), one run
big_n=$((2 * BENCH_BIG * 50000))
section "  memory: 2 variants x $BENCH_BIG runs x 50,000 metrics," \
	"--format json"
gen_csv "$tmp/cmp.csv" 2 "$BENCH_BIG" 50000 46
db=$tmp/big.db
if ! "$PERFSIFT" --db "$db" import -q "$tmp/cmp.csv" \
	>/dev/null 2>"$tmp/err"; then
	fail "import of the large compare database"
elif cmp_rss compare_big_rss_mib \
	"$(fmt_int $big_n) samples: peak RSS, 1 run [MiB]"; then
	med=$(calc "$t_elapsed * 1000") lo=$med hi=$med
	fig compare_big_json_ms "  $(fmt_int $big_n) samples, 1 run [ms]" %.1f
fi
rm -f "$tmp/cmp.csv" "$tmp"/big.db*

# ------------------------------------------------- 5. regressions

section "5. regressions: 100 variants (import order) x 5 runs x 5,000" \
	"metrics, 10 metrics 20 % worse from the 51st; floor: sqlite3's GROUP BY"
awk -v commits=100 -v iters=5 -v metrics=5000 -v seed=45 'BEGIN {
	srand(seed)
	for (m = 0; m < metrics; m++)
		level[m] = 1 + 1e4 * rand()
	print "label,iteration,metric,value"
	for (c = 0; c < commits; c++)
		for (i = 0; i < iters; i++)
			for (m = 0; m < metrics; m++) {
				v = level[m] * (0.98 + 0.04 * rand())
				if (c >= 50 && m % 500 == 0)
					v *= 1.2
				printf "c%03d,%d,metric.%06d,%.6g\n", c, i, m, v
			}
}' >"$tmp/reg.csv"
db=$tmp/reg.db
# lower is better, so that the planted rise is a regression
if ! { "$PERFSIFT" --db "$db" import -q "$tmp/reg.csv" &&
       "$PERFSIFT" --db "$db" metrics --set-direction 'metric.*=lower'
     } >/dev/null 2>"$tmp/err"; then
	fail "the regressions database"
else
	rm -f "$tmp/reg.csv"
	floor_ms=
	if [ -n "$sqlite_bin" ] && timed "$RUNS" "$sqlite_bin" "$db" \
		"SELECT m.name, v.label, count(*), avg(s.value)
		 FROM samples s JOIN runs r ON r.id = s.run_id
		 JOIN variants v ON v.id = r.variant_id
		 JOIN metrics m ON m.id = s.metric_id
		 GROUP BY m.name, v.label;"; then
		scale 1000
		floor_ms=$med
	fi
	if timed "$RUNS" "$PERFSIFT" --db "$db" regressions; then
		if ! grep -q '^10 regressions among 100 variants' "$tmp/out" ||
		   [ "$(grep -c '^c050  *c049 ' "$tmp/out")" != 10 ]; then
			cp "$tmp/out" "$tmp/err"
			fail "regressions did not find the 10 planted steps"
		fi
		scale 1000
		judge "$med" "<=" 1000
		fig regressions_ms "regressions, median of $RUNS [ms]" %.0f \
			"$floor_ms" "<= 1,000" "$vd"
	fi
fi
rm -f "$db" "$db-wal" "$db-shm"

# a year of commits: 1,000 variants x 5 runs x 2,000 metrics (10 M
# samples), 10 metrics 20 % worse from the 501st; one run (about 30 s
# to build), its time and its peak RSS
section "5b. regressions: 1,000 variants x 5 runs x 2,000 metrics" \
	"(10 M samples), 10 metrics 20 % worse from the 501st"
awk -v commits=1000 -v iters=5 -v metrics=2000 -v seed=46 'BEGIN {
	srand(seed)
	for (m = 0; m < metrics; m++)
		level[m] = 1 + 1e4 * rand()
	print "label,iteration,metric,value"
	for (c = 0; c < commits; c++)
		for (i = 0; i < iters; i++)
			for (m = 0; m < metrics; m++) {
				v = level[m] * (0.98 + 0.04 * rand())
				if (c >= 500 && m % 200 == 0)
					v *= 1.2
				printf "c%04d,%d,metric.%06d,%.6g\n", c, i, m, v
			}
}' >"$tmp/reg.csv"
db=$tmp/reg10m.db
if ! { "$PERFSIFT" --db "$db" import -q "$tmp/reg.csv" &&
       "$PERFSIFT" --db "$db" metrics --set-direction 'metric.*=lower'
     } >/dev/null 2>"$tmp/err"; then
	fail "the 10 M-sample regressions database"
elif ! want_rss=1 run_timed "$tmp/out" "$PERFSIFT" --db "$db" regressions; then
	fail "regressions over 10 M samples (exit $t_rc)"
elif ! grep -q '^10 regressions among 1000 variants' "$tmp/out" ||
     [ "$(grep -c '^c0500  *c0499 ' "$tmp/out")" != 10 ]; then
	cp "$tmp/out" "$tmp/err"
	fail "regressions did not find the 10 planted steps in 10 M samples"
else
	summarize "$t_elapsed"
	judge "$med" "<=" 10
	fig regressions_10m_s "regressions over 10 M samples [s]" %.2f "" \
		"<= 10 s" "$vd"
	rss_med=$(calc "$t_rss_kb / 1024") rss_lo=$rss_med rss_hi=$rss_med
	rss_fig regressions_10m_rss_mib "  peak RSS [MiB]"
fi
rm -f "$tmp/reg.csv" "$db" "$db-wal" "$db-shm"

# ------------------------------------------------- 6. lkp result tree

section "6. lkp result tree: 100 commits x 5 runs x 2,000 stats (job.yaml" \
	"+ stats.json); floor: jansson's bare parse of the stats.json files"
# gen_lkp_tree DIR [COMMITS]: COMMITS (100) x 5 run directories
gen_lkp_tree() {
	/usr/bin/python3 - "$1" "${2:-100}" <<'PY'
import json, os, random, sys
random.seed(6)
root = sys.argv[1]
keys = ["bench.stat_%04d" % i for i in range(2000)]
level = [1 + 1e4 * random.random() for _ in keys]
for c in range(int(sys.argv[2])):
    sha = "%040x" % (0x1234567 * (c + 1))
    for r in range(5):
        d = os.path.join(root, "bench", "p-1", "host", "rootfs", "kconfig",
                         "gcc-12", sha, str(r))
        os.makedirs(d)
        with open(os.path.join(d, "job.yaml"), "w") as f:
            f.write("testcase: bench\ntbox_group: host\ncommit: %s\n"
                    "nr_threads: 1\nbench:\n  p: 1\n" % sha)
        with open(os.path.join(d, "stats.json"), "w") as f:
            json.dump({k: v * (0.98 + 0.04 * random.random())
                       for k, v in zip(keys, level)}, f)
PY
}
if gen_lkp_tree "$tmp/lkp"; then
	lkp_bytes=$(du -sb "$tmp/lkp" | cut -f1)
	jansson_floor $(find "$tmp/lkp" -name stats.json)
	if imported lkp "imported 500 directories: 500 runs, 1000000 samples" \
		"$tmp/lkp"; then
		keep
		mb_fig import_lkp_mbps "$(fmt %.1f "$(calc "$lkp_bytes / 1e6")") MB: parse rate [MB/s]" \
			"$lkp_bytes"
		restore
		per 1000000
		fig import_lkp_samples_per_s "  rate [samples/s]" int
		restore
		per 500
		fig import_lkp_dirs_per_s "  run directories [dirs/s]" int
		rss_fig import_lkp_rss_mib "  peak RSS [MiB]"
	fi
	rm -rf "$tmp/lkp"
else
	fail "generating the lkp tree"
fi
if [ "$BENCH_1GB" = 1 ]; then
	# 2,500 commits: 12,500 run directories, 25 M samples, about 1 GB
	if gen_lkp_tree "$tmp/lkp" 2500; then
		gb_figs lkp1g "imported 12500 directories: 12500 runs, 25000000 samples" \
			"1 GB tree" "$tmp/lkp"
	else
		fail "generating the 1 GB lkp tree"
	fi
fi

# ------------------------------------------------- 7. procfs series

section "7. procfs series: lkp monitor format, /proc/vmstat records of 190" \
	"counters; floor: cat"
# gen_series FILE MB: vmstat records of 190 counters, 1 s apart, until
# the file holds MB megabytes
gen_series() {
	awk -v mb="$2" 'BEGIN {
		srand(7)
		for (k = 0; k < 190; k++) {
			name[k] = (k % 3 ? "nr_gauge_" : "pgcounter_") k
			v[k] = int(1e6 * rand())
		}
		limit = mb * 1e6; bytes = 0
		for (t = 1796000000; bytes < limit; t++) {
			line = "time: " t
			print line; bytes += length(line) + 1
			for (k = 0; k < 190; k++) {
				v[k] += k % 3 ? int(100 * rand()) - 50 : int(1000 * rand())
				line = name[k] " " v[k]
				print line; bytes += length(line) + 1
			}
		}
	}' >"$1"
}
gen_series "$tmp/series" 200
series_bytes=$(stat -c %s "$tmp/series")
cat_floor "$tmp/series" || true
if imported series "imported 1 file: 1 run, 190 samples" "$tmp/series"; then
	keep
	mb_fig import_series_mbps "$(fmt %.0f "$(calc "$series_bytes / 1e6")") MB series: parse rate [MB/s]" \
		"$series_bytes" ">= 200"
	restore
	per $(( $(grep -c '^time: ' "$tmp/series") * 190 ))
	fig import_series_points_per_s "  rate [points/s]" int
	rss_fig import_series_rss_mib "  peak RSS [MiB]"
fi
rm -f "$tmp/series"
if [ "$BENCH_1GB" = 1 ]; then
	gen_series "$tmp/series" 1000
	gb_figs series1g "imported 1 file: 1 run, 190 samples" "1 GB series" \
		"$tmp/series"
fi

# ------------------------------------------------- 8. robot emails

section "8. an mbox of 1,000 kernel test robot emails (lkp-table through" \
	"the mail decoder); floor: cat"
# message 1 of the hand-written thread fixture (multipart, quoted-
# printable, a base64 attachment), 1,000 times under new Message-IDs
awk 'NR < 99' "$srcdir/tests/fixtures/mail/robot-thread.mbox" >"$tmp/one.eml"
for i in $(seq 1000); do
	sed "s/^Message-ID: <2025/Message-ID: <$i-2025/" "$tmp/one.eml"
done >"$tmp/robot.mbox"
mbox_bytes=$(stat -c %s "$tmp/robot.mbox")
cat_floor "$tmp/robot.mbox" || true
if imported mbox "imported 1000 messages: 0 runs, 0 samples, 14000 aggregates" \
	"$tmp/robot.mbox"; then
	keep
	mb_fig import_mbox_mbps "$(fmt %.1f "$(calc "$mbox_bytes / 1e6")") MB mbox: parse rate [MB/s]" \
		"$mbox_bytes"
	restore
	per 1000
	fig import_mbox_messages_per_s "  messages [messages/s]" int
	rss_fig import_mbox_rss_mib "  peak RSS [MiB]"
fi
rm -f "$tmp/robot.mbox"
if [ "$BENCH_1GB" = 1 ]; then
	# the message as many times as makes 1 GB, each its own Message-ID
	# (the text around that line joined once: a line at a time took
	# awk minutes)
	n1g=$((1000000000 / (mbox_bytes / 1000)))
	awk -v n=$n1g '{ line[NR] = $0 } END {
		for (k = 1; k <= NR; k++) {
			if (line[k] ~ /^Message-ID: <2025/) { mid = k; continue }
			if (mid) post = post line[k] "\n"; else pre = pre line[k] "\n"
		}
		sub(/^Message-ID: <2025/, "", line[mid])
		for (i = 1; i <= n; i++)
			printf "%sMessage-ID: <%d-2025%s\n%s", pre, i, line[mid], post
	}' "$tmp/one.eml" >"$tmp/robot-1g.mbox"
	gb_figs mbox1g "imported $n1g messages" "1 GB mbox" "$tmp/robot-1g.mbox"
fi
rm -f "$tmp/one.eml"

# -------------------------------------- 8b. real LKML messages

# the 31 real messages of ../shared/samples/emails (every table family
# of issue 33: robot reports, quoted replies, MMTests posts, QP, flowed),
# taken in turn 10,000 times, each with its own Message-ID
emails=$srcdir/../shared/samples/emails
if [ -d "$emails" ]; then
	section "8b. an mbox of 10,000 real LKML messages (the 31 of" \
		"samples/emails in turn; every text parser); floor: cat"
	python3 - "$emails" 10000 >"$tmp/real.mbox" <<'PY'
import os, re, sys

src, n = sys.argv[1], int(sys.argv[2])
files = sorted(f for f in os.listdir(src) if f.endswith(".txt"))
msgs = []
for f in files:
    head, _, body = open(os.path.join(src, f), "rb").read().partition(b"\n\n")
    head = re.sub(rb"(?im)^message-id:.*\n([ \t].*\n)*", b"", head + b"\n")
    body = re.sub(rb"(?m)^From ", b">From ", body)
    msgs.append((head, body))
out = sys.stdout.buffer
for i in range(n):
    head, body = msgs[i % len(msgs)]
    out.write(b"From bench@example.org Mon Jan  1 00:00:00 2025\n" + head +
              b"Message-ID: <%d-bench@example.org>\n\n" % i + body.rstrip(b"\n") +
              b"\n\n")
PY
	real_bytes=$(stat -c %s "$tmp/real.mbox")
	cat_floor "$tmp/real.mbox" || true
	if KEEP_DB=1 imported realmail "imported 10000 messages:" \
		"$tmp/real.mbox"; then
		real_rows=$(sqlite3 "$tmp/realmail-$RUNS.db" \
			"SELECT sum(rows_read) FROM import_tables")
		keep
		mb_fig import_realmail_mbps "$(fmt %.1f "$(calc "$real_bytes / 1e6")") MB mbox: parse rate [MB/s]" \
			"$real_bytes"
		restore
		per 10000
		fig import_realmail_messages_per_s "  messages [messages/s]" int
		restore
		per "$real_rows"
		fig import_realmail_rows_per_s "  table rows ($real_rows) [rows/s]" int
		rss_fig import_realmail_rss_mib "  peak RSS [MiB]"
	fi
	rm -f "$tmp/real.mbox" "$tmp"/realmail-*.db*
fi

# ------------------------------------------------- 9. MMTests trees

section "9. an MMTests work/log: 20 runs x 10 iterations x 5 benchmarks" \
	"(mmtests-tree); floor: cat of every file"
# gen_mmtests DIR: blogbench (7 logs), kernbench (2 thread counts x 3),
# ebizzy (2 x 3, 8 threads), hackbench (3 group counts x 3) and stream
# (5 logs) per iteration, with tests-timestamp; made-up numbers around
# fixed levels, seeded by awk's srand(1)
gen_mmtests() {
	awk -v dir="$1" 'BEGIN {
		srand(1)
		split("blogbench kernbench ebizzy hackbench-process-pipes stream", b, " ")
		for (r = 1; r <= 20; r++) for (it = 0; it < 10; it++) {
			d = sprintf("%s/run-%02d/iter-%d", dir, r, it)
			system("mkdir -p " d)
			ts = d "/tests-timestamp"
			print "start :: 1600000000" >ts
			for (k = 1; k <= 5; k++) {
				t = b[k]; l = d "/" t "/logs"
				system("mkdir -p " l)
				print "test begin :: " t " 1600000100" >>ts
				print "test end :: " t " 1600000200" >>ts
				printf "time :: %s %.2f user %.2f system %.2f elapsed\n", t, 50 + rand(), 20 + rand(), 100 + rand() >>ts
			}
			close(ts)
			for (n = 1; n <= 7; n++) {
				f = l0("blogbench") "/blogbench-" n ".log"
				printf "Final score for writes:          %d\nFinal score for reads :       %d\n", 3000 + 100 * rand(), 1000000 + 10000 * rand() >f
				close(f)
			}
			for (th = 2; th <= 4; th += 2) for (n = 1; n <= 3; n++) {
				f = l0("kernbench") "/time-" th "-" n
				printf "%.2fuser %.2fsystem 5:%05.2felapsed 196%%CPU (0avgtext+0avgdata 250000maxresident)k\n0inputs+123456outputs (0major+9876543minor)pagefaults 0swaps\n", 540 + rand(), 48 + rand(), 1 + rand() >f
				close(f)
				f = l0("ebizzy") "/ebizzy-" th "-" n ".log"
				line = sprintf("%d records/s", 80000 + 1000 * rand())
				for (x = 1; x <= 8; x++)
					line = line sprintf(" %d", 10000 + 100 * rand())
				print line >f
				print "real 10.00 s" >>f
				close(f)
			}
			for (g = 1; g <= 4; g *= 2) for (n = 1; n <= 3; n++) {
				f = l0("hackbench-process-pipes") "/hackbench-" g "-" n
				printf "# Running %ssched/messaging%s benchmark:\n# 20 sender and receiver processes per group\n# %d groups == %d processes run\n\n     Total time: %.3f [sec]\n", "\047", "\047", g, 40 * g, g * (0.8 + 0.1 * rand()) >f
				close(f)
			}
			for (n = 1; n <= 5; n++) {
				f = l0("stream") "/stream-" n ".log"
				printf "Copy:           %.1f     0.006728     0.005850     0.006956\nScale:          %.1f     0.006887     0.005856     0.007208\nAdd:            %.1f     0.009256     0.007857     0.009666\nTriad:          %.1f     0.009052     0.007893     0.009437\n", 61000 + 100 * rand(), 61000 + 100 * rand(), 68000 + 100 * rand(), 68000 + 100 * rand() >f
				close(f)
			}
		}
	}
	function l0(t) { return d "/" t "/logs" }'
}
gen_mmtests "$tmp/mmlog"
mm_files=$(find "$tmp/mmlog" -type f | wc -l)
mm_bytes=$(find "$tmp/mmlog" -type f -exec cat {} + | wc -c)
find "$tmp/mmlog" -type f | sort >"$tmp/mm-files"
floor_s=
if timed "$COMPARE_RUNS" xargs cat <"$tmp/mm-files"; then
	floor_s=$med
fi
if imported mmtests "imported 100 directories: 4200 runs, 17600 samples, 9600 series points" \
	"$tmp/mmlog"; then
	keep
	mb_fig import_mmtests_mbps "$(fmt_int "$mm_files") files, $(fmt %.1f "$(calc "$mm_bytes / 1e6")") MB: parse rate [MB/s]" \
		"$mm_bytes"
	restore
	per "$mm_files"
	fig import_mmtests_files_per_s "  files [files/s]" int
	restore
	per 27200
	fig import_mmtests_values_per_s "  samples + observations [values/s]" int
	rss_fig import_mmtests_rss_mib "  peak RSS [MiB]"
fi
rm -rf "$tmp/mmlog"

# ------------------------------------------------- 10. change points

section "10. change points (tests/cp-synth.c --bench, $RUNS processes; each" \
	"figure in it is already its best of 5, or of 3 at 1M points)"
if [ ! -x "$CP_SYNTH" ]; then
	: >"$tmp/err"
	fail "$CP_SYNTH is not built"
else
	for i in $(seq "$RUNS"); do
		"$CP_SYNTH" --bench >"$tmp/cp-$i" 2>"$tmp/err" ||
			{ fail "cp-synth --bench"; break; }
	done
	# cp_fig KEY LABEL STAT [TARGET]: one cp-synth figure over the runs
	cp_fig() {
		summarize $(awk -v k="$3" '$1 == k { print $2 }' "$tmp"/cp-*)
		vd=
		[ -z "${4:-}" ] || judge "$med" "<=" "$4"
		fig "$1" "$2" %.1f "" "${4:+<= $(fmt_int "$4")}" "$vd"
	}
	# cp_quality CASE MODE: recall and precision at the exact commit
	# (the same on every run: the series are seeded)
	cp_quality() {
		local r p
		r=$(awk -v k="$1_$2_recall" '$1 == k { print 100 * $2; exit }' "$tmp"/cp-1)
		p=$(awk -v k="$1_$2_precision" '$1 == k { print 100 * $2; exit }' "$tmp"/cp-1)
		section "    recall $(fmt %.1f "$r") %, precision $(fmt %.1f "$p") %"
		printf '%s\t%s\t\t\t\t\t\t\n%s\t%s\t\t\t\t\t\t\n' \
			"cp_$1_$2_recall_pct" "$r" "cp_$1_$2_precision_pct" "$p" \
			>>"$tmp/tsv"
	}
	for c in cp10k:10,000:50 cp1m:1,000,000:2000; do
		k=${c%%:*} t=${c##*:} n=${c#*:} n=${n%:*}
		cp_fig "${k}_detect_ms" "$n points: cp_detect [ms]" \
			"${k}_detect_ms" "$t"
		cp_quality "$k" detect
		cp_fig "${k}_windowed_ms" "  windowed, W = 50 (default) [ms]" \
			"${k}_windowed_ms" "$t"
		cp_quality "$k" windowed
		cp_fig "${k}_otava_ms" "  windowed, Otava's plain merge [ms]" \
			"${k}_otava_ms"
		cp_quality "$k" otava
	done
	cp_fig cp_append_us "cp_stream_append of 1 point, median [us]" \
		append_us_median 100
	cp_fig cp_append_p99_us "  99th percentile of 2,000 appends [us]" \
		append_us_p99
fi

# ------------------------------------------------- 10b. watch

# perfsift watch after an import of 5 runs at a new commit, the series
# 2,000 commits x 5 runs = 10,000 points already watched: each timed run
# on a fresh copy of the database as the import left it (a watch stores
# its state, so the next one would have no new runs).  Floor: changepoints
# --window 50, the same change points computed over the whole series.
watch_section() {
	local d=$tmp/watch i ts= c
	mkdir -p "$d"
	git init -q "$d/repo" || { fail "git init"; return 0; }
	for i in $(seq 2001); do
		printf 'commit refs/heads/master\nmark :%d\ncommitter b <b@example.org> %d +0000\ndata 6\nc%04d\n' \
			"$i" $((1700000000 + i)) "$i"
		[ "$i" = 1 ] || printf 'from :%d\n' $((i - 1))
		echo
	done | git -C "$d/repo" fast-import --quiet ||
		{ fail "git fast-import"; return 0; }
	git -C "$d/repo" log --reverse --format=%H | awk 'BEGIN {
		srand(38)
		print "commit,metric,value,iteration"
	}
	NR <= 2000 {
		for (r = 0; r < 5; r++)
			printf "%s,w_ops,%.4f,%d\n", substr($1, 1, 12),
				(NR < 700 ? 100 : NR < 1500 ? 90 : 95) + 4 * rand(), r
	}' >"$d/all.csv"
	c=$(git -C "$d/repo" log -1 --format=%H | cut -c1-12)
	{
		echo "commit,metric,value,iteration"
		for i in 0 1 2 3 4; do echo "$c,w_ops,80.$i,$i"; done
	} >"$d/new.csv"
	{
		"$PERFSIFT" --db "$d/w.db" import -q "$d/all.csv" &&
		"$PERFSIFT" --db "$d/w.db" commits import --repo "$d/repo" &&
		{ "$PERFSIFT" --db "$d/w.db" watch || [ $? = 1 ]; } &&
		"$PERFSIFT" --db "$d/w.db" import -q "$d/new.csv"
	} >/dev/null 2>"$tmp/err" || { fail "the watched series"; return 0; }
	for i in $(seq "$COMPARE_RUNS"); do
		cp "$d/w.db" "$d/t.db"
		run_timed "$tmp/out" "$PERFSIFT" --db "$d/t.db" watch ||
			[ "$t_rc" = 1 ] || { fail "watch (exit $t_rc)"; return 0; }
		grep -q "^1 change point new or moved in 1 of 1 series (5 new runs)$" \
			"$tmp/out" || { fail "watch: not the one new change point"; return 0; }
		ts="$ts $t_elapsed"
	done
	timed "$COMPARE_RUNS" "$PERFSIFT" --db "$d/w.db" changepoints \
		--metric w_ops --window 50 || return 0
	scale 1000
	local floor_ms=$med
	summarize $ts
	scale 1000
	judge "$med" "<=" 10
	section "10b. watch: 5 runs appended to a 10,000-point series (2,000" \
		"commits x 5 runs); floor: changepoints --window 50 of it"
	fig watch_append5_10k_ms "watch after 5 runs appended [ms]" %.1f \
		"$floor_ms" "<= 10" "$vd"
	rm -rf "$d"
}
watch_section

# ------------------------------------------------- 11. a PostgreSQL server

# the throwaway server of the tests (tests/pg.sh), when Debian's
# PostgreSQL is installed: import into it beside psql's \copy of the same
# rows, and compare against it beside the SQLite file
pg_section() {
	local url pg_csv=$tmp/pg.csv rows=1000000
	TRASH=$tmp
	say() { printf '%s\n' "$*"; }
	. "$srcdir/tests/pg.sh"
	PG_BINDIR=$(pg_find_bindir)
	if [ -z "$PG_BINDIR" ]; then
		section "11. PostgreSQL: skipped (no server binaries; Debian" \
			"package postgresql)"
		return 0
	fi
	pg_start >"$tmp/err" 2>&1 || { fail "starting a PostgreSQL server"; return 0; }
	trap 'pg_stop; rm -rf "$tmp"' EXIT
	url="postgresql:///perfsift?host=$PGHOST&port=$PGPORT&user=postgres"
	pg_fresh() {
		pg_psql -d postgres -c "DROP DATABASE IF EXISTS perfsift WITH (FORCE)" &&
		pg_psql -d postgres -c "CREATE DATABASE perfsift"
	} >/dev/null 2>&1
	# 2 labels x 100 iterations x 5,000 metrics: an lkp-sized catalog
	gen_csv "$pg_csv" 2 100 5000 45
	section "11. PostgreSQL $("$PG_BINDIR/postgres" --version | awk '{ print $3 }')" \
		"(tests/pg.sh's server, fsync off): import of $(fmt_int $rows)" \
		"samples (5,000 metrics); floors: psql \\copy of the rows into" \
		"a table with samples' keys and foreign keys (time), of the CSV" \
		"into a bare table (rate); compare: beside the SQLite file"
	local ts= tc= i
	for i in $(seq "$RUNS"); do
		pg_fresh || { fail "a fresh server database"; return 0; }
		pg_psql -d perfsift -c "CREATE TABLE t(label text, iteration integer, metric text, value double precision)" >/dev/null
		run_timed "$tmp/out" "$PG_BINDIR/psql" -X -q -d perfsift \
			-c "\\copy t FROM '$pg_csv' CSV HEADER" ||
			{ fail "psql \\copy"; return 0; }
		tc="$tc $t_elapsed"
		pg_fresh || { fail "a fresh server database"; return 0; }
		"$PERFSIFT" --db "$url" runs >/dev/null 2>"$tmp/err" ||
			{ fail "perfsift on the server"; return 0; }
		run_timed "$tmp/out" "$PERFSIFT" --db "$url" import -q "$pg_csv" ||
			{ fail "import into the server"; return 0; }
		grep -q "$rows samples" "$tmp/out" ||
			{ fail "import into the server: not $rows samples"; return 0; }
		ts="$ts $t_elapsed"
	done
	# the storage floor: the samples just imported, copied by psql into a
	# table with the keys and foreign keys of samples
	local tk= ks
	pg_psql -d perfsift -c "\\copy samples(run_id, metric_id, value, line, source_id, derived) TO '$tmp/samples.csv' CSV" >/dev/null
	for i in $(seq "$RUNS"); do
		pg_psql -d perfsift -c "SET client_min_messages = warning; DROP TABLE IF EXISTS s2; CREATE TABLE s2 (LIKE samples INCLUDING ALL); ALTER TABLE s2 ADD FOREIGN KEY (run_id) REFERENCES runs(id) ON DELETE CASCADE, ADD FOREIGN KEY (metric_id) REFERENCES metrics(id)" >/dev/null
		run_timed "$tmp/out" "$PG_BINDIR/psql" -X -q -d perfsift \
			-c "\\copy s2(run_id, metric_id, value, line, source_id, derived) FROM '$tmp/samples.csv' CSV" ||
			{ fail "psql \\copy into samples' keys"; return 0; }
		tk="$tk $t_elapsed"
	done
	summarize $tk
	ks=$med
	summarize $tc
	local floor_s=$med
	summarize $ts
	fig pg_import_s "perfsift import into the server [s]" %.2f "$ks"
	per $rows
	local fr
	fr=$(calc "$rows / $floor_s")
	fig pg_import_samples_per_s "  rate [samples/s]" int "$fr"
	# compare at M = 20,000, R = 5: the same data in both backends
	if cmp_db 20000 5; then
		local lite_ms
		timed "$COMPARE_RUNS" "$PERFSIFT" --db "$db" compare base new \
			--all --format json || { fail "compare on SQLite"; return 0; }
		scale 1000
		lite_ms=$med
		pg_fresh
		gen_csv "$tmp/cmp.csv" 2 5 20000 44
		"$PERFSIFT" --db "$url" import -q "$tmp/cmp.csv" >/dev/null 2>"$tmp/err" ||
			{ fail "import of the compare data into the server"; return 0; }
		"$PERFSIFT" --db "$url" compare base new --all --format json \
			>"$tmp/pg.json" 2>"$tmp/err" &&
		"$PERFSIFT" --db "$db" compare base new --all --format json \
			>"$tmp/lite.json" 2>>"$tmp/err" &&
		cmp -s "$tmp/pg.json" "$tmp/lite.json" ||
			{ fail "compare: the server and SQLite differ"; return 0; }
		timed "$COMPARE_RUNS" "$PERFSIFT" --db "$url" compare base new \
			--all --format json || { fail "compare on the server"; return 0; }
		scale 1000
		fig pg_compare_json_m20000_r5_ms \
			"compare M = 20,000, R = 5, json, server [ms]" %.1f "$lite_ms"
	fi
	pg_stop
	trap 'rm -rf "$tmp"' EXIT
}
pg_section

# ------------------------------------------------- summary

echo
echo "targets met: $nr_pass of $((nr_pass + nr_miss))"
if [ -n "$BENCH_TSV" ]; then
	{
		printf 'key\tmedian\tmin\tmax\tfloor\tratio\ttarget\tverdict\n'
		cat "$tmp/tsv"
	} >"$BENCH_TSV"
fi
if [ "$failed" != 0 ]; then
	echo "bench: some measurements FAILED (see above)" >&2
	exit 1
fi
