#!/bin/sh
# The change-point modes on planted steps (tests/cp-synth.c --quick:
# seeded series of 50, 200 and 1,000 points, four kinds of noise, 1, 3
# or 5 runs per commit).  The bars of issue 12: steps of at least 3 sd
# with at least 3 runs per commit (normal noise) found at exactly their
# commit at least 95 % of the time, and at most 5 % of flat series with
# any change point, for cp_detect and the windowed mode, at every size.
# Otava's plain merge (no Bonferroni factor) is measured, not held to
# the flat bar: it misses it at 1,000 points (docs/changepoints.md).
. "$(dirname "$0")/lib.sh"

CP_SYNTH=${PERFSIFT_BUILD:-$SRC/build}/cp-synth

# summary KEY: the value cp-synth printed for KEY
summary() {
	awk -v k="$1" '$1 == "summary" && $2 == k { print $3 }' out
}

# at_least KEY MIN / at_most KEY MAX: the figure, and the bar it meets
at_least() {
	v=$(summary "$1")
	echo "$1 = $v (>= $2)"
	awk -v v="$v" -v m="$2" 'BEGIN { exit !(v != "" && v + 0 >= m) }'
}

at_most() {
	v=$(summary "$1")
	echo "$1 = $v (<= $2)"
	awk -v v="$v" -v m="$2" 'BEGIN { exit !(v != "" && v + 0 <= m) }'
}

test_expect_success 'cp-synth --quick runs' '
	"$CP_SYNTH" --quick >out &&
	grep "^cp-synth: planted steps, seed 20261130 (--quick)" out &&
	grep "right only at exactly the first run" out
'

for mode in detect windowed; do
	test_expect_success "$mode: steps >= 3 sd, >= 3 runs, normal: recall >= 95 %" '
		at_least ${mode}_recall_normal_3sd_3runs 0.95 &&
		at_least ${mode}_precision_normal_3sd_3runs 0.90
	'
	test_expect_success "$mode: flat normal series with a change point <= 5 %" '
		at_least ${mode}_flat_normal_series 1000 &&
		at_most ${mode}_flat_normal_any 0.05 &&
		at_most ${mode}_flat_normal_any_worst_size 0.05
	'
done

test_expect_success 'the same numbers on every run but the seconds' '
	"$CP_SYNTH" --quick >again &&
	grep -v "^ *[0-9]* points:" out >a &&
	grep -v "^ *[0-9]* points:" again >b &&
	test_cmp a b
'

test_done
