#!/bin/sh
# Changes and spreads that overflow a double (docs/reliability.md): a
# base of 1e-310 against 2 (the % change is past 1e308), and values of
# +-1e308 whose sums overflow.  Every compare format, report (lkp,
# mmtests, html), regressions and plot compare print such a change as
# "n/a" with its reason in a note: no crash, no BUG abort.
. "$(dirname "$0")/lib.sh"

# no_crash DB CMD...: perfsift --db DB CMD... exits 0 with no BUG
no_crash() {
	_db=$1
	shift
	test_expect_code 0 perfsift --db "$_db.db" "$@" >out 2>err || return 1
	if grep BUG err; then
		return 1
	fi
}

test_expect_success 'setup' '
	ab_db tiny 1e-310 2e-310 1e-310 1 2 3 &&
	ab_db huge 1e308 -1e308 1e308 1 2 3
'

test_expect_success 'compare: an overflowing change is n/a with a note' '
	no_crash tiny compare A B --all &&
	grep "^z.bw .* n/a .* unknown \[1\]$" out &&
	grep "^\[1\] change n/a: the ratio of the means overflows a double$" out &&
	no_crash tiny compare A B --all --format markdown &&
	grep "| n/a | - |.*(change n/a: the ratio of the means overflows" out &&
	no_crash tiny compare A B --all --format json &&
	grep "\"change_pct\": null" out &&
	grep "\"note\": \"change n/a: the ratio" out &&
	no_crash tiny compare A B --all --format mmtests &&
	grep "^Max  *z.bw  *0.00 (   0.00%)  *3.00 (     n/a)$" out &&
	no_crash tiny compare A B --all --format csv &&
	grep "^,,,z.bw,,higher,A,3,.*,B,3,2,1,,,,0.07" out
'

test_expect_success 'compare --format lkp: n/a, not a crash' '
	for t in auto welch mwu; do
		for d in tiny huge; do
			no_crash $d compare A B --all --format lkp --test $t &&
			grep " n/a  *2.00 ± 40%  z.bw$" out || return 1
		done
	done
'

test_expect_success 'every format and test exits 0 on both' '
	for d in tiny huge; do
		for f in text lkp mmtests json csv markdown; do
			for t in auto welch mwu; do
				no_crash $d compare A B --all --format $f \
					--test $t || return 1
			done
		done
	done
'

test_expect_success 'report (lkp, mmtests, html) and regressions' '
	for d in tiny huge; do
		no_crash $d report A B &&
		no_crash $d report --all A B &&
		no_crash $d report --all --style mmtests A B &&
		rm -rf html &&
		no_crash $d report --all --html html A B &&
		test -s html/index.html &&
		no_crash $d regressions || return 1
	done &&
	perfsift --db tiny.db report --all --html html A B &&
	grep "<td class=\"num\">n/a</td>" html/index.html
'

test_expect_success 'plot compare: png, svg, txt and the script' '
	for d in tiny huge; do
		for o in c.png c.svg c.txt; do
			rm -f $o &&
			no_crash $d plot compare A B -o $o &&
			test -s $o || return 1
		done &&
		no_crash $d plot compare A B --script &&
		! grep -i "inf\|nan" out || return 1
	done
'

test_done
