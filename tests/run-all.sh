#!/bin/sh
# Run every test: the C unit tests (build/tests/t-*), then the shell
# tests (tests/tNNNN-*.sh).  Each prints "N passed, N failed[, N skipped]"
# as its last line; this adds them up and prints the total the same way.
cd "$(dirname "$0")/.." || exit 1
: "${PERFSIFT_BUILD:=$PWD/build}"
: "${PERFSIFT:=$PWD/perfsift}"
export PERFSIFT PERFSIFT_BUILD

total_pass=0 total_fail=0 total_skip=0 bad_scripts=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

run_one() {
	name=$1
	shift
	"$@" >"$log" 2>&1
	rc=$?
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	p=$(echo "$last" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(echo "$last" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
	s=$(echo "$last" | sed -n 's/.* \([0-9]*\) skipped.*/\1/p')
	: "${p:=0}" "${f:=0}" "${s:=0}"
	if [ -z "$last" ] || [ $rc != 0 ] && [ "$f" = 0 ]; then
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

for t in "$PERFSIFT_BUILD"/tests/t-*; do
	[ -x "$t" ] || continue
	run_one "unit/$(basename "$t")" "$t" "$PWD"
done
for t in tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t" .sh)" sh "$t"
done
echo
[ -n "$bad_scripts" ] && echo "failed:$bad_scripts"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
