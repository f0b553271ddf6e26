#!/bin/sh
# Values whose sums and squares overflow a double (docs/reliability.md):
# compare's mean, sample sd and Welch p at 1e308 are the true ones, as
# scipy gives them on the same values scaled by a power of two (exact),
# not the "± 0", p = 0 or p = 1 of an overflowed sum.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
need_python3 'scipy reference values'

# data NAME A1 A2 A3 B1 B2 B3: ab_db's NAME.db, and NAME.txt: the values
data() {
	_d=$1
	ab_db "$@" &&
	shift &&
	printf '%s\n' "$@" >"$_d.txt"
}

# scipy NAME: "mean_a sd_a mean_b sd_b p" of NAME.txt from numpy/scipy
scipy() {
	"$PY" - "$1.txt" <<'PY'
import sys
import numpy as np
from scipy import stats
v = [float(l) for l in open(sys.argv[1])]
def side(x):
    # each side on its own power of two: no square overflows or vanishes
    k = 2.0 ** -np.frexp(np.max(np.abs(x)))[1]
    return np.mean(x * k) / k, np.std(x * k, ddof=1) / k
ma, sa = side(np.array(v[:3]))
mb, sb = side(np.array(v[3:]))
s = 2.0 ** -1020
p = stats.ttest_ind_from_stats(ma * s, sa * s, 3, mb * s, sb * s, 3,
                               equal_var=False).pvalue
print(repr(ma), repr(sa), repr(mb), repr(sb), repr(p))
PY
}

# check NAME: compare's csv row against scipy's figures
check() {
	perfsift --db "$1.db" compare A B --all --test welch --format csv \
		>out &&
	sed -n 2p out | awk -F, '{ print $9, $10, $13, $14, $18 }' >got &&
	scipy "$1" >want &&
	read -r gma gsa gmb gsb gp <got &&
	read -r wma wsa wmb wsb wp <want &&
	test_near "$gma" "$wma" &&
	test_near "$gsa" "$wsa" &&
	test_near "$gmb" "$wmb" &&
	test_near "$gsb" "$wsb" &&
	test_near "$gp" "$wp" 1e-6
}

test_expect_success 'setup' '
	data mixed 1e308 -1e308 1e308 1 2 3 &&
	data edge 1e308 1.7e308 -1.7e308 1 2 3 &&
	data high 1.5e308 1.6e308 1.7e308 1.0e308 1.1e308 1.2e308
'

test_expect_success '1e308, -1e308, 1e308: sd 1.15e308, no regression' '
	check mixed &&
	perfsift --db mixed.db compare A B --all >out &&
	grep "^z.bw .* ± 1.1547e+308 (n=3) .* 0.6667  0.6667  welch  unknown \[1\]$" out &&
	grep "about 95 runs per side" out
'

test_expect_success '1e308, 1.7e308, -1.7e308: the mean is 3.3e307' '
	check edge &&
	perfsift --db edge.db compare A B --all --format json >out &&
	grep "\"mean\": 3.33333333333333e+307" out
'

test_expect_success '1.5e308.. against 1.0e308..: Welch p 0.0036' '
	check high &&
	perfsift --db high.db compare A B --all --test welch >out &&
	grep "^z.bw .* -31.25%  \[-42.79%, -18.31%\]  0.0036  0.0036  welch  regression$" out
'

test_expect_success 'mmtests: the % of 1.1e308 against 1.6e308' '
	perfsift --db high.db compare A B --all --format mmtests >out &&
	grep "^Max .*( -29.41%)$" out &&
	grep "^Min .*( -33.33%)$" out
'

test_done
