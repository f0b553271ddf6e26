#!/bin/bash
# Run every test: the C unit tests (build/tests/t-*), then the shell
# tests (tests/tNNNN-*.sh).  Each prints "N passed, N failed[, N skipped]"
# as its last line; this adds them up and prints the total the same way.
#
# Tests run $PERFSIFT_TEST_JOBS at a time (default: one per core), each
# into its own log, and are reported in their order as soon as they and
# the ones before them are done.  Every test works in its own temporary
# directory and starts its servers on ports the kernel picks, so they do
# not meet; PERFSIFT_TEST_JOBS=1 runs them one after another.
cd "$(dirname "$0")/.." || exit 1
: "${PERFSIFT_BUILD:=$PWD/build}"
: "${PERFSIFT:=$PWD/perfsift}"
export PERFSIFT PERFSIFT_BUILD

jobs=${PERFSIFT_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac

total_pass=0 total_fail=0 total_skip=0 bad_scripts=""
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# test I: names[I], run as "${prog[I]} ${arg[I]}"
names=() prog=() arg=()
for t in "$PERFSIFT_BUILD"/tests/t-*; do
	[ -x "$t" ] || continue
	names+=("unit/$(basename "$t")") prog+=("$t") arg+=("$PWD")
done
for t in tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	names+=("$(basename "$t" .sh)") prog+=(sh) arg+=("$t")
done

# start I: test I in the background, its output in $logs/I.log and its
# exit status, once it is done, in $logs/I.rc
start() {
	( "${prog[$1]}" "${arg[$1]}" >"$logs/$1.log" 2>&1
	  echo $? >"$logs/$1.rc.tmp" && mv "$logs/$1.rc.tmp" "$logs/$1.rc" ) &
}

# report I: add test I's counts to the totals and print its line
report() {
	local name=${names[$1]} log=$logs/$1.log rc last p f s skipnote
	rc=$(cat "$logs/$1.rc")
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$last" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$last" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	: "${p:=0}" "${f:=0}" "${s:=0}"
	if [ -z "$last" ] || [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=$((f + 1))	# crashed or printed no summary
	fi
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	total_skip=$((total_skip + s))
	if [ "$f" != 0 ]; then
		bad_scripts="$bad_scripts $name"
		echo "FAIL $name"
		grep -v '^ok ' "$log" | head -n 80
	else
		skipnote=$(grep -m1 'SKIP' "$log")
		echo "ok   $name: $p passed${s:+, $s skipped}${skipnote:+ ($skipnote)}"
	fi
}

n=${#names[@]} next=0 done_=0 running=0
while [ $done_ -lt $n ]; do
	while [ $running -lt "$jobs" ] && [ $next -lt $n ]; do
		start $next
		next=$((next + 1))
		running=$((running + 1))
	done
	while [ $done_ -lt $next ] && [ -e "$logs/$done_.rc" ]; do
		report $done_
		done_=$((done_ + 1))
	done
	[ $done_ -lt $n ] || break
	# one test ended (or had ended unreported): room for the next
	wait -n
	running=0
	for ((i = done_; i < next; i++)); do
		[ -e "$logs/$i.rc" ] || running=$((running + 1))
	done
done
echo
[ -n "$bad_scripts" ] && echo "failed:$bad_scripts"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
