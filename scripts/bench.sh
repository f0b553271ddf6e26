#!/bin/bash
# make bench: measure perfsift against the SPEC §11 performance targets and
# print one table (figure, measured value, target, pass/miss).  The machine
# is shared and noisy: these are figures to read, never a timed test, so a
# missed target does not fail; only a broken import or benchmark does.
# docs/bench.md says what each figure means and keeps past results.
#
#   PERFSIFT=./perfsift BENCH_STATS=build/bench-stats \
#       BENCH_JANSSON=build/bench-jansson CP_SYNTH=build/cp-synth \
#       scripts/bench.sh
#   BENCH_1GB=1 ...   also import a 1 GB CSV for the peak-RSS target (slow)
set -eu

LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset PERFSIFT_DB 2>/dev/null || true

PERFSIFT=${PERFSIFT:-./perfsift}
BENCH_STATS=${BENCH_STATS:-build/bench-stats}
BENCH_JANSSON=${BENCH_JANSSON:-build/bench-jansson}
CP_SYNTH=${CP_SYNTH:-build/cp-synth}
BENCH_1GB=${BENCH_1GB:-0}
RUNS=3			# import timings: best of RUNS, a fresh database each
COMPARE_RUNS=5		# compare timings: best of COMPARE_RUNS

case $PERFSIFT in /*) ;; *) PERFSIFT=$PWD/$PERFSIFT ;; esac
case $BENCH_STATS in /*) ;; *) BENCH_STATS=$PWD/$BENCH_STATS ;; esac
case $BENCH_JANSSON in /*) ;; *) BENCH_JANSSON=$PWD/$BENCH_JANSSON ;; esac
case $CP_SYNTH in /*) ;; *) CP_SYNTH=$PWD/$CP_SYNTH ;; esac
[ -x "$BENCH_JANSSON" ] || BENCH_JANSSON=

tmp=$(mktemp -d /tmp/perfsift-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

failed=0
nr_pass=0
nr_miss=0

# ---------------------------------------------------------------- helpers

# calc EXPR: evaluate an awk expression (floating point) and print it
calc() {
	awk "BEGIN { print $1 }"
}

# fmt_int X: X rounded, with thousands separators (1234567 -> 1,234,567)
fmt_int() {
	awk -v x="$1" 'BEGIN {
		s = sprintf("%.0f", x); out = ""
		while (length(s) > 3) {
			out = "," substr(s, length(s) - 2) out
			s = substr(s, 1, length(s) - 3)
		}
		print s out
	}'
}

# fmt FORMAT X: printf through awk (so that X may be any number awk reads)
fmt() {
	awk -v f="$1" -v x="$2" 'BEGIN { printf f, x }'
}

# check VALUE OP TARGET: set vd to "pass" or "miss" (OP is >= or <=) and
# count it; not in $(...), whose subshell would lose the count
check() {
	vd=$(awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		ok = op == ">=" ? a + 0 >= b + 0 : a + 0 <= b + 0
		print ok ? "pass" : "miss"
	}')
	if [ "$vd" = pass ]; then
		nr_pass=$((nr_pass + 1))
	else
		nr_miss=$((nr_miss + 1))
	fi
}

section() {
	printf '\n%s\n' "$*"
}

# row FIGURE MEASURED [TARGET [VERDICT]]
row() {
	local line
	line=$(printf '  %-40s %15s %14s  %s' "$1" "$2" "${3:-}" "${4:-}")
	printf '%s\n' "${line%"${line##*[! ]}"}"
}

note() {
	printf '  %s\n' "$*"
}

fail() {
	printf '  FAILED: %s\n' "$*"
	if [ -s "$tmp/err" ]; then
		sed -e 's/^/    | /' "$tmp/err" | head -n 10
	fi
	failed=1
}

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

# run_timed OUT CMD...: run CMD once, stdout to OUT, stderr to $tmp/err.
# Sets t_elapsed (seconds, wall clock around the process) and t_rc;
# returns CMD's exit status.  With want_rss=1 also t_rss_kb, the peak
# resident set size in KiB (at the cost of GNU time's exec in the timing,
# about a millisecond, or of a polling loop competing for the CPUs).
want_rss=0
run_timed() {
	local out=$1 t0 t1 rc=0 pid k v _
	shift
	t_rss_kb=0
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

# best_import NAME EXPECT ARGS...: import ARGS RUNS times, each into a
# fresh database (a re-import of the same content is skipped by design),
# check that stdout says EXPECT, and set best_s (the fastest run) and
# max_rss_kb (the largest peak RSS seen).  Returns 1 on failure.
best_import() {
	local name=$1 expect=$2 i db
	shift 2
	best_s=
	max_rss_kb=0
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
		rm -f "$db" "$db-wal" "$db-shm"
		if [ -z "$best_s" ] || [ "$(calc "$t_elapsed < $best_s")" = 1 ]
		then
			best_s=$t_elapsed
		fi
		if [ "$t_rss_kb" -gt "$max_rss_kb" ]; then
			max_rss_kb=$t_rss_kb
		fi
	done
}

# best_time N CMD...: run CMD N times (stdout to $tmp/out); set best to
# the fastest wall time in seconds.  Returns 1 (and says so) on failure.
best_time() {
	local n=$1 i
	shift
	best=
	for i in $(seq "$n"); do
		if ! run_timed "$tmp/out" "$@"; then
			fail "$* (exit $t_rc)"
			best=
			return 1
		fi
		if [ -z "$best" ] || [ "$(calc "$t_elapsed < $best")" = 1 ]
		then
			best=$t_elapsed
		fi
	done
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

echo "perfsift benchmarks (SPEC.md §11), $(date -u '+%Y-%m-%d %H:%M UTC')"
version=$("$PERFSIFT" --version 2>/dev/null || echo 'perfsift ?')
echo "$version, $(nproc) CPUs," \
	"Linux $(uname -r), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sqlite3 $sqlite_ver, fio $fio_ver," \
	"peak RSS via ${time_bin:-VmHWM polled from /proc/PID/status}"
echo "Times are the best of several runs on a shared machine: figures to"
echo "compare, not a test.  MB = 10^6 bytes, MiB = 2^20."
echo
row FIGURE MEASURED "SPEC TARGET"
printf '  %s\n' "$(printf '%78s' '' | tr ' ' -)"

# ------------------------------------------------- 1. CSV import (1M samples)

csv=$tmp/big.csv
gen_csv "$csv" 2 10 50000 42
csv_bytes=$(size_of "$csv")
csv_rows=1000000
section "1. CSV import"
csv_mb=$(fmt %.1f "$(calc "$csv_bytes / 1e6")")
note "$(fmt_int $csv_rows) samples: 2 labels x 10 iterations x" \
	"50,000 metrics, $csv_mb MB"

csv_rss_kb=
if best_import csv "$csv_rows samples" "$csv"; then
	csv_s=$best_s
	csv_rss_kb=$max_rss_kb
	sps=$(calc "$csv_rows / $csv_s")
	row "perfsift import, best of $RUNS" "$(fmt '%.2f s' "$csv_s")"
	check "$sps" ">=" 500000
	row "samples/s" "$(fmt_int "$sps")" ">= 500,000" "$vd"
	row "MB/s" "$(fmt %.1f "$(calc "$csv_bytes / 1e6 / $csv_s")")"

	if [ -n "$sqlite_bin" ]; then
		best=
		for i in $(seq "$RUNS"); do
			db=$tmp/sqlite-$i.db
			# the table first, so --skip 1 drops the header row;
			# .import runs inside one transaction; timed the same
			# way as perfsift, through GNU time
			if ! want_rss=1 run_timed "$tmp/out" "$sqlite_bin" "$db" \
				'CREATE TABLE t(label TEXT, iteration INTEGER, metric TEXT, value REAL);' \
				".import --csv --skip 1 $csv t"; then
				fail "sqlite3 .import"
				best=
				break
			fi
			if [ "$i" = 1 ]; then
				n=$("$sqlite_bin" "$db" 'SELECT count(*) FROM t')
				if [ "$n" != "$csv_rows" ]; then
					echo "sqlite3 imported $n rows" >"$tmp/err"
					fail "sqlite3 .import row count"
					best=
					break
				fi
			fi
			rm -f "$db" "$db-journal"
			if [ -z "$best" ] ||
			   [ "$(calc "$t_elapsed < $best")" = 1 ]; then
				best=$t_elapsed
			fi
		done
		if [ -n "$best" ]; then
			ratio=$(calc "$csv_s / $best")
			check "$ratio" "<=" 2
			row "sqlite3 .import, best of $RUNS" \
				"$(fmt '%.2f s' "$best")"
			row "perfsift time / sqlite3 time" \
				"$(fmt '%.2fx' "$ratio")" "<= 2x" "$vd"
		fi
	else
		note "sqlite3 .import: skipped (no sqlite3 binary)"
	fi
fi

# ------------------------------------------------- 2. fio JSON import

section "2. fio JSON import"
# the storage floor: the rows of an import written again, nothing parsed
BENCH_STORE=${BENCH_STORE:-build/bench-store}
case $BENCH_STORE in /*) ;; *) BENCH_STORE=$PWD/$BENCH_STORE ;; esac
[ -x "$BENCH_STORE" ] || BENCH_STORE=

# store_floor SRC JS: import SRC once more, keep its database, and print
# the rows "storage alone" (bench-store, best of RUNS) and its ratio to
# jansson's parse JS (seconds)
store_floor() {
	local st
	rm -f "$tmp/rows.db"*
	if [ -n "$BENCH_STORE" ] &&
	   "$PERFSIFT" --db "$tmp/rows.db" import -q "$1" >/dev/null &&
	   st=$("$BENCH_STORE" "$RUNS" "$tmp/rows.db" "$tmp/store.db"); then
		row "  the same rows' storage alone" "$(fmt '%.2f s' "$st")"
		row "  storage alone / jansson parse" \
			"$(fmt '%.2fx' "$(calc "$st / $2")")"
	fi
	rm -f "$tmp/rows.db"*
}

if [ -z "$fio_bin" ]; then
	note "skipped: fio is not installed (scripts/deps.sh check installs it)"
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
	# the same 2,000 jobs in one file: the parse without the per-file
	# costs (open, detect, hash, a transaction per file)
	awk -v n=2000 -v seed=7 '
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
	}' "$tmp/fio.json" >"$tmp/fio-2000-jobs.json"

	fio_bytes=$(cat "$tmp"/fio/*.json | wc -c | tr -d ' ')
	note "2,000 files, $(fmt %.1f "$(calc "$fio_bytes / 1e6")") MB: one real" \
		"fio run, numbers varied per file"
	if best_import fio "imported 2000 files" "$tmp/fio"; then
		row "perfsift import DIR, best of $RUNS" \
			"$(fmt '%.2f s' "$best_s")"
		mbs=$(calc "$fio_bytes / 1e6 / $best_s")
		check "$mbs" ">=" 100
		row "MB/s (2,000 small files)" "$(fmt %.1f "$mbs")" \
			">= 100" "$vd"
		note "(per-file costs dominate here: open, detect, content hash,"
		note " one transaction and one run per file; not parse speed alone)"
		check "$(calc "2000 / $best_s")" ">=" 2000
		row "files/s" "$(fmt_int "$(calc "2000 / $best_s")")" \
			">= 2,000" "$vd"
		if [ -n "$BENCH_JANSSON" ] &&
		   js=$("$BENCH_JANSSON" "$RUNS" "$tmp"/fio/*.json); then
			row "  jansson's bare parse of the same files" \
				"$(fmt '%.2f s' "$js")"
			check "$(calc "$best_s / $js")" "<=" 1.5
			row "  import / jansson parse" \
				"$(fmt '%.2fx' "$(calc "$best_s / $js")")" \
				"<= 1.5x" "$vd"
			store_floor "$tmp/fio" "$js"
		fi
	fi
	one_bytes=$(size_of "$tmp/fio-2000-jobs.json")
	if best_import fio1 "imported 1 file" "$tmp/fio-2000-jobs.json"; then
		mbs=$(calc "$one_bytes / 1e6 / $best_s")
		check "$mbs" ">=" 100
		note "the same 2,000 jobs in one file," \
			"$(fmt %.1f "$(calc "$one_bytes / 1e6")") MB:"
		row "perfsift import FILE, best of $RUNS" \
			"$(fmt '%.2f s' "$best_s")"
		row "MB/s (one file)" "$(fmt %.1f "$mbs")" ">= 100" "$vd"
		if [ -n "$BENCH_JANSSON" ] &&
		   js=$("$BENCH_JANSSON" "$RUNS" "$tmp/fio-2000-jobs.json"); then
			row "  jansson's bare parse of the same file" \
				"$(fmt '%.2f s' "$js")"
			check "$(calc "$best_s / $js")" "<=" 1.5
			row "  import / jansson parse" \
				"$(fmt '%.2fx' "$(calc "$best_s / $js")")" \
				"<= 1.5x" "$vd"
			store_floor "$tmp/fio-2000-jobs.json" "$js"
		fi
	fi
fi

# ------------------------------------------------- 3. peak RSS

section "3. Peak RSS of the CSV import"
if [ -n "$csv_rss_kb" ]; then
	mb=$(calc "$csv_rss_kb / 1024")
	check "$mb" "<=" 64
	row "$csv_mb MB CSV, $(fmt_int $csv_rows) samples" \
		"$(fmt '%.1f MiB' "$mb")" "<= 64 MiB" "$vd"
	note "(SPEC: <= 64 MB importing a 1 GB input; this is the 1M-sample file)"
fi
if [ "$BENCH_1GB" = 1 ]; then
	# 2 labels x 352 iterations x 50,000 metrics: about 1 GB; more runs
	# rather than more metrics, as a long series of test runs grows
	big_rows=$((2 * 352 * 50000))
	gen_csv "$tmp/1g.csv" 2 352 50000 43
	bytes=$(size_of "$tmp/1g.csv")
	if want_rss=1 run_timed "$tmp/out" \
		"$PERFSIFT" --db "$tmp/1g.db" import -q "$tmp/1g.csv"; then
		mb=$(calc "$t_rss_kb / 1024")
		check "$mb" "<=" 64
		note "$(fmt %.2f "$(calc "$bytes / 1e9")") GB CSV, one run:" \
			"$(fmt %.0f "$t_elapsed") s"
		row "peak RSS (1 GB CSV)" \
			"$(fmt '%.1f MiB' "$mb")" "<= 64 MiB" "$vd"
		row "samples/s (1 GB CSV)" \
			"$(fmt_int "$(calc "$big_rows / $t_elapsed")")"
	else
		fail "perfsift import of the 1 GB CSV"
	fi
	rm -f "$tmp"/1g.*
else
	note "1 GB case skipped: at the speed above it takes minutes, over the"
	note "bench's budget; run with BENCH_1GB=1 to include it"
fi

# ------------------------------------------------- 4. lib/stats

section "4. lib/stats micro-benchmark (tests/bench-stats.c, best of 3 passes)"
if [ ! -x "$BENCH_STATS" ]; then
	: >"$tmp/err"
	fail "$BENCH_STATS is not built"
elif ! "$BENCH_STATS" >"$tmp/stats" 2>"$tmp/err"; then
	fail "bench-stats"
else
	st() {
		awk -v k="$1" '$1 == k { print $2 }' "$tmp/stats"
	}
	note "$(fmt_int "$(st comparisons)") comparisons of 5 vs 5 samples," \
		"new random data each"
	row "ns per comparison" "$(fmt %.0f "$(st compare_ns)")"
	note "(= 2 x stats_summarize + stats_welch + stats_mwu + stats_change_ci)"
	row "ns per stats_summarize (5 values)" "$(fmt %.0f "$(st summarize_ns)")"
	row "ns per stats_welch" "$(fmt %.0f "$(st welch_ns)")"
	row "ns per stats_mwu (exact)" "$(fmt %.0f "$(st mwu_ns)")"
	row "ns per stats_change_ci" "$(fmt %.0f "$(st change_ci_ns)")"
	row "us per stats_bh (5,000 p-values)" \
		"$(fmt %.0f "$(calc "$(st bh5000_ns) / 1000")")"
	for m in 5000 20000; do
		ms=$(calc "($(st compare_ns) * $m + $(st bh5000_ns) * $m / 5000) / 1e6")
		row "stats part of a $(fmt_int $m)-metric compare" \
			"$(fmt '%.1f ms' "$ms")" \
			"(of $([ $m = 5000 ] && echo 50 || echo 160) ms)"
	done
	note "checksum $(st checksum)"
fi

# ------------------------------------------------- 5. compare

section "5. compare"
if ! "$PERFSIFT" --db "$tmp/help.db" help compare >/dev/null 2>&1; then
	echo "compare: not yet measured (needs perfsift compare)"
else
	note "2 variants x 5 runs, compare base new --all --format json," \
		"best of $COMPARE_RUNS"
	if best_time "$COMPARE_RUNS" "$PERFSIFT" --version; then
		row "process start-up (perfsift --version)" \
			"$(fmt '%.1f ms' "$(calc "$best * 1000")")"
	fi
	for m in 5000 20000; do
		target=$([ $m = 5000 ] && echo 50 || echo 160)
		gen_csv "$tmp/cmp.csv" 2 5 "$m" 44
		db=$tmp/cmp-$m.db
		if ! "$PERFSIFT" --db "$db" import -q "$tmp/cmp.csv" \
			>/dev/null 2>"$tmp/err"; then
			fail "import of the $m-metric compare data"
			continue
		fi
		if best_time "$COMPARE_RUNS" "$PERFSIFT" --db "$db" \
			compare base new --all --format json; then
			# one row per metric, or we timed something else
			n=$(grep -o '"metric" *:' "$tmp/out" | wc -l)
			ms=$(calc "$best * 1000")
			check "$ms" "<=" "$target"
			row "$(fmt_int $m) metrics" "$(fmt '%.1f ms' "$ms")" \
				"<= $target ms" "$vd"
			if [ "$n" != "$m" ]; then
				: >"$tmp/err"
				fail "compare --all printed $n rows, not $m"
			fi
		fi
		# how much of it is the JSON writer
		if best_time "$COMPARE_RUNS" "$PERFSIFT" --db "$db" \
			compare base new --all --format csv; then
			row "  the same, --format csv" \
				"$(fmt '%.1f ms' "$(calc "$best * 1000")")"
		fi
		rm -f "$db" "$db-wal" "$db-shm"
	done
	note "(wall time of the whole process: start-up, open, query, stats,"
	note " output; the last run's output is checked for one row per metric)"
fi

# ------------------------------------------------- 6. lkp result tree

section "6. lkp result tree (100 commits x 5 runs x 2,000 stats: job.yaml + stats.json)"
gen_lkp_tree() {
	/usr/bin/python3 - "$1" <<'PY'
import json, os, random, sys
random.seed(6)
root = sys.argv[1]
keys = ["bench.stat_%04d" % i for i in range(2000)]
level = [1 + 1e4 * random.random() for _ in keys]
for c in range(100):
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
	if best_import lkp "imported 500 directories: 500 runs, 1000000 samples" \
		"$tmp/lkp"; then
		row "perfsift import TREE, best of $RUNS" "$(fmt '%.2f s' "$best_s")"
		row "run directories/s" "$(fmt_int "$(calc "500 / $best_s")")"
		row "files/s (job.yaml + stats.json)" \
			"$(fmt_int "$(calc "1000 / $best_s")")"
		row "samples/s" "$(fmt_int "$(calc "1000000 / $best_s")")"
		row "MB/s" "$(fmt %.1f "$(calc "$lkp_bytes / 1e6 / $best_s")")"
		row "peak RSS" "$(fmt '%.1f MiB' "$(calc "$max_rss_kb / 1024")")" \
			"<= 64 MiB"
	fi
	rm -rf "$tmp/lkp"
else
	fail "generating the lkp tree"
fi

# ------------------------------------------------- 7. procfs series

section "7. procfs series (lkp monitor format, /proc/vmstat records)"
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
best_time 3 cat "$tmp/series"
cat_s=$best
if best_import series "imported 1 file: 1 run, 190 samples" \
	"$tmp/series"; then
	mbs=$(calc "$series_bytes / 1e6 / $best_s")
	check "$mbs" ">=" 200
	row "$(fmt %.0f "$(calc "$series_bytes / 1e6")") MB series, best of $RUNS" \
		"$(fmt '%.2f s' "$best_s")"
	row "MB/s" "$(fmt %.1f "$mbs")" ">= 200" "$vd"
	row "  floor: cat of the same bytes, MB/s" \
		"$(fmt %.0f "$(calc "$series_bytes / 1e6 / $cat_s")")"
	points=$(( $(grep -c '^time: ' "$tmp/series") * 190 ))
	row "points/s" "$(fmt_int "$(calc "$points / $best_s")")"
	mb=$(calc "$max_rss_kb / 1024")
	check "$mb" "<=" 64
	row "peak RSS" "$(fmt '%.1f MiB' "$mb")" "<= 64 MiB" "$vd"
fi
rm -f "$tmp/series"
if [ "$BENCH_1GB" = 1 ]; then
	gen_series "$tmp/series" 1000
	RUNS=1 best_import series1g "imported 1 file: 1 run, 190 samples" \
		"$tmp/series" &&
	{
		mb=$(calc "$max_rss_kb / 1024")
		check "$mb" "<=" 64
		row "peak RSS (1 GB series)" "$(fmt '%.1f MiB' "$mb")" \
			"<= 64 MiB" "$vd"
		row "MB/s (1 GB series)" "$(fmt %.1f "$(calc "$(stat -c %s "$tmp/series") / 1e6 / $best_s")")"
	}
	rm -f "$tmp/series"
fi

# ------------------------------------------------- 8. robot emails
section "8. an mbox of 1,000 kernel test robot emails (lkp-table through the mail decoder)"
# message 1 of the hand-written thread fixture (multipart, quoted-
# printable, a base64 attachment), 1,000 times under new Message-IDs
srcdir=$(cd "$(dirname "$0")/.." && pwd)
awk 'NR < 99' "$srcdir/tests/fixtures/mail/robot-thread.mbox" >"$tmp/one.eml"
for i in $(seq 1000); do
	sed "s/^Message-ID: <2025/Message-ID: <$i-2025/" "$tmp/one.eml"
done >"$tmp/robot.mbox"
mbox_bytes=$(stat -c %s "$tmp/robot.mbox")
if best_import mbox "imported 1000 messages: 0 runs, 0 samples, 14000 aggregates" \
	"$tmp/robot.mbox"; then
	row "$(fmt %.1f "$(calc "$mbox_bytes / 1e6")") MB mbox, best of $RUNS" \
		"$(fmt '%.2f s' "$best_s")"
	row "messages/s" "$(fmt_int "$(calc "1000 / $best_s")")"
	row "aggregates/s" "$(fmt_int "$(calc "14000 / $best_s")")"
	row "MB/s" "$(fmt %.1f "$(calc "$mbox_bytes / 1e6 / $best_s")")"
	row "peak RSS" "$(fmt '%.1f MiB' "$(calc "$max_rss_kb / 1024")")"
fi
rm -f "$tmp/robot.mbox" "$tmp/one.eml"

# ------------------------------------------------- 9. MMTests trees
section "9. an MMTests work/log: 20 runs x 10 iterations x 5 benchmarks (mmtests-tree)"
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
mm_bytes=$(du -sb "$tmp/mmlog" | cut -f1)
if best_import mmtests "imported 100 directories: 4200 runs, 17600 samples, 9600 series points" \
	"$tmp/mmlog"; then
	row "$(fmt_int "$mm_files") files, $(fmt %.1f "$(calc "$mm_bytes / 1e6")") MB, best of $RUNS" \
		"$(fmt '%.2f s' "$best_s")"
	row "files/s" "$(fmt_int "$(calc "$mm_files / $best_s")")"
	row "values/s (17,600 samples + 9,600 observations)" \
		"$(fmt_int "$(calc "27200 / $best_s")")"
	row "peak RSS" "$(fmt '%.1f MiB' "$(calc "$max_rss_kb / 1024")")"
fi
rm -rf "$tmp/mmlog"

# ------------------------------------------------- 10. change points
section "10. change points (tests/cp-synth.c --bench; normal noise, 1..5 runs a commit)"
if [ ! -x "$CP_SYNTH" ]; then
	: >"$tmp/err"
	fail "$CP_SYNTH is not built"
elif ! "$CP_SYNTH" --bench >"$tmp/cp" 2>"$tmp/err"; then
	fail "cp-synth --bench"
else
	# cpv KEY: the figure cp-synth printed for KEY
	cpv() {
		awk -v k="$1" '$1 == k { print $2 }' "$tmp/cp"
	}
	# cp_rows CASE TARGET_MS: time, recall and precision of each mode
	cp_rows() {
		local mode label ms
		for mode in detect windowed otava; do
			case $mode in
			detect) label="cp_detect (whole series)" ;;
			windowed) label="windowed, W = 50 (default options)" ;;
			otava) label="windowed, Otava's plain merge" ;;
			esac
			ms=$(cpv "$1_${mode}_ms")
			if [ "$mode" = otava ]; then
				row "$label" "$(fmt '%.1f ms' "$ms")"
			else
				check "$ms" "<=" "$2"
				row "$label" "$(fmt '%.1f ms' "$ms")" \
					"<= $(fmt_int "$2") ms" "$vd"
			fi
			row "  recall / precision (exact commit)" \
				"$(fmt %.1f "$(calc "100 * $(cpv "$1_${mode}_recall")")") / $(fmt '%.1f %%' "$(calc "100 * $(cpv "$1_${mode}_precision")")")"
		done
	}
	note "$(fmt_int "$(cpv cp10k_points)") points, $(cpv cp10k_steps) steps" \
		"of +-3 sd, best of 5:"
	cp_rows cp10k 50
	note "$(fmt_int "$(cpv cp1m_points)") points, $(cpv cp1m_steps) steps" \
		"of +-3 sd, cp_detect once, the windowed modes best of 3:"
	cp_rows cp1m 2000
	us=$(cpv append_us_median)
	check "$us" "<=" 100
	row "cp_stream_append of 1 point to it, median" \
		"$(fmt '%.1f us' "$us")" "<= 100 us" "$vd"
	row "  99th percentile of $(fmt_int "$(cpv append_n)") appends" \
		"$(fmt '%.1f us' "$(cpv append_us_p99)")"
	row "  of which merged everything (no barrier)" \
		"$(cpv append_full_merges)"
fi

# ------------------------------------------------- summary

echo
echo "targets met: $nr_pass of $((nr_pass + nr_miss))" \
	"(a miss is a figure to look at, not a failure)"
if [ "$failed" != 0 ]; then
	echo "bench: some measurements FAILED (see above)" >&2
	exit 1
fi
