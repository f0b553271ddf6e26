#!/bin/sh
# The lkp-table importer on the kernel test robot's real reports in
# ../shared/samples/lkp (2020's old body with a fail:runs block, 2025's
# current one).  The expected numbers come from the text itself, read here
# with the row pattern of research/lkp.md §7.1 in python, independently of
# the C parser: every row's metric, every column's value, "± N%" (or the
# "at most 2 %" lkp means by printing none), fail:runs counts, the commits
# of the columns (the head's full sha from the body), the axes.
. "$(dirname "$0")/lib.sh"
need_samples

LKP=$SAMPLES/lkp
export LKP

need_python3 'lkp robot reports'

cat >check.py <<'PY'
import re, sys

report, dump = sys.argv[1], sys.argv[2]
text = open(report, encoding="utf-8").read().splitlines()
perf = re.compile(r"^\s*(\S+)(\s±\s*(\d+)%)?\s+([+-]\d+(\.\d+)?%?)\s+(\S+)"
                  r"(\s±\s*(\d+)%)?\s+(\S+)$")
fail = re.compile(r"^\s*(\d*):(\d+)\s+(-?\d+)%\s+(\d*):(\d+)\s+(\S+)$")
want = {}
for i, line in enumerate(text, 1):
    m = None if fail.match(line) else perf.match(line)
    if m:
        for col, (v, sd) in enumerate(((m.group(1), m.group(3)),
                                       (m.group(6), m.group(8)))):
            want[(m.group(9), col)] = ("mean", float(v),
                                       float(sd) if sd else None, None, i)
        continue
    m = fail.match(line)
    if m:
        want[(m.group(6), 0)] = ("fails", int(m.group(1) or 0), None,
                                 int(m.group(2)), i)
        want[(m.group(6), 1)] = ("fails", int(m.group(4) or 0), None,
                                 int(m.group(5)), i)
cols = [l.split() for l in text if re.match(r"^[0-9a-f]{16} [0-9a-f]{27}\s*$", l)]
assert len(cols) == 1, cols
body = [re.match(r"^commit: ([0-9a-f]{40}) ", l) for l in text]
head = [m.group(1) for m in body if m][0]
assert head.startswith(cols[0][1])
col_commit = [cols[0][0], head]
keys = [l for l in text if re.match(r"^[a-z_]+(/[a-z_]+)+:$", l.strip())]
vals = text[text.index(keys[0]) + 1].strip().split("/")
axes = dict(zip(keys[0].strip()[:-1].split("/"), vals))
params = ",".join("%s=%s" % kv for kv in sorted(axes.items())
                  if kv[0] not in ("testcase", "tbox_group"))

got = {}
for line in open(dump, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] != "aggregate":
        continue
    label, kernel, commit, tc, par, mach, metric, stat, value, sd, kind, \
        src, n, marker, lineno = f[1:]
    col = col_commit.index(commit)
    assert tc == axes["testcase"] and mach == axes["tbox_group"], f
    assert par == params, (par, params)
    assert label == commit[:12], f
    got[(metric, col)] = (stat, float(value), kind, src, n, int(lineno))

assert set(got) == set(want), sorted(set(got) ^ set(want))
for k, (stat, v, sd, runs, line) in want.items():
    g = got[k]
    assert g[0] == stat and g[5] == line, (k, g, line)
    assert abs(g[1] - v) <= 1e-12 * abs(v), (k, g, v)
    if stat == "fails":
        assert g[4] == str(runs) and g[2] == "NULL", (k, g)
    elif sd is None:
        assert g[2] == "at-most-relative" and g[3] == "2", (k, g)
    else:
        assert g[2] == "relative" and float(g[3]) == sd, (k, g)
print("%d cells checked" % len(want))
PY

for f in email-2020-06-12-btrfs-aim7-9.1pct-regression-excerpt.txt \
	 email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt; do
	export f
	test_expect_success "$f: every row, column, ± and count" '
		rm -f r.db* &&
		perfsift --db r.db import "$LKP/$f" >out 2>err &&
		grep "lkp-table, 0 runs, 0 samples, [0-9]* aggregates; [0-9]* tables\{0,1\}: [^;]*$" out &&
		! grep warning err &&
		perfsift --db r.db debug dump >dump &&
		python3 check.py "$LKP/$f" dump >checked &&
		cat checked && grep -q "^[1-9][0-9]* cells checked" checked
	'
done

test_expect_success 'the 2020 fail:runs block: 3 of 9 runs, none of 8' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2020-06-12-btrfs-aim7-9.1pct-regression-excerpt.txt" &&
	perfsift --db r.db debug dump >dump &&
	grep -F "dmesg.WARNING:at#for_ip_swapgs_restore_regs_and_return_to_usermode/0x	fails	3	NULL	NULL	NULL	9" dump &&
	grep -F "dmesg.WARNING:at#for_ip_swapgs_restore_regs_and_return_to_usermode/0x	fails	0	NULL	NULL	NULL	8" dump
'

test_expect_success 'the report itself: headline, commit, the columns with their subjects, the test' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" &&
	sqlite3 r.db "SELECT key || \"=\" || value FROM import_meta
		WHERE key NOT IN (\"date\", \"from\", \"subject\") ORDER BY key" >meta &&
	cat >expect <<-\EOF &&
	column.1=5ef2dccfcc ("delayacct: remove redundant code and adjust indentation")
	column.2=375700bab5 ("llist: make llist_add_batch() a static inline")
	commit=375700bab5b150e876e42d894a9a7470881f8a61
	compiler=gcc-12
	config=x86_64-rhel-9.4
	headline=will-it-scale.per_thread_ops 2.6% regression
	message_id=202508150803.d5387224-lkp@intel.com
	test_machine=192 threads 4 sockets Intel(R) Xeon(R) Platinum 9242 CPU @ 2.30GHz (Cascade Lake) with 176G memory
	testcase=will-it-scale
	EOF
	test_cmp expect meta
'

test_expect_success 'regressions on the report: lkp flagged its rows, the headline among them' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" &&
	test_expect_code 1 perfsift --db r.db regressions --exit-code --json >reg.json &&
	python3 -c "
import json
d = json.load(open(\"reg.json\"))
rows = d[\"regressions\"]
m = {r[\"metric\"]: r for r in rows}
r = m[\"will-it-scale.per_thread_ops\"]
assert r[\"base\"] == \"5ef2dccfcca8\" and r[\"label\"] == \"375700bab5b1\", r
assert r[\"test\"] == \"source\", r
assert len(rows) == 12, len(rows)
"
'

test_expect_success 'a report whose headline disagrees with its table is warned about' '
	sed "s/noticed a 2.6% regression/noticed a 4.6% regression/" \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" >r.txt &&
	rm -f r.db* &&
	perfsift --db r.db import r.txt 2>err &&
	grep "warning: r.txt:[0-9]*: .will-it-scale.per_thread_ops.: the report says 4.6%, its table -2.6%" err
'

test_expect_success 'compare on the imported report: the source decides, n not known' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" &&
	perfsift --db r.db compare 5ef2dccfcca8 375700bab5b1 --all --json \
		--metric will-it-scale.per_thread_ops >c.json &&
	python3 -c "
import json
r = json.load(open(\"c.json\"))[\"rows\"]
assert len(r) == 1, r
v = r[0][\"vs\"][0]
assert r[0][\"base\"][\"mean\"] == 3016 and v[\"mean\"] == 2938, r
assert abs(v[\"change_pct\"] - 100 * (2938 / 3016 - 1)) < 1e-9, v
assert v[\"test\"] == \"source\" and v[\"p_value\"] is None, v
"
'

cat >roundtrip.py <<'PY'
# The table of a report against perfsift's reprint of it (--format lkp):
# the same axes and the same rows byte for byte (values, "± N%", the
# change as the report printed it).  The robot orders rows by monitor
# (ncompare's sort_stats, research/lkp.md §1.8), perfsift by the bytes
# of the name: rows are matched by name.
import re, sys

src = open(sys.argv[1], encoding="utf-8").read().splitlines()
out = open(sys.argv[2], encoding="utf-8").read().splitlines()
def rows(lines):
    """The table's rows by metric: from the dashes under the column
    titles to the first blank line, header and glyph lines left out;
    the leading blanks are not compared (the 2020 excerpt was quoted)."""
    got, on = {}, False
    for l in lines:
        if l.startswith("----------------"):
            on = True
            continue
        if on and not l.strip():
            on = False
        if not on or "%stddev" in l or "fail:runs" in l or \
                not l.strip().strip("|\\ "):
            continue
        got[l.split()[-1]] = l.strip()
    return got

def axes(lines):
    i = [k for k, l in enumerate(lines) if l.startswith("=" * 80)][0]
    return lines[i + 1].strip(), lines[i + 2].strip()

assert axes(src) == axes(out), (axes(src), axes(out))
a, b = rows(src), rows(out)
assert sorted(a) == sorted(b), "rows differ"
for k in a:
    assert a[k] == b[k], (a[k], b[k])
print("%d rows byte for byte" % len(a))
PY

test_expect_success 'the 2020 report reprinted by --format lkp: the fail:runs block too' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2020-06-12-btrfs-aim7-9.1pct-regression-excerpt.txt" &&
	perfsift --db r.db compare --by commit efc3453494 c75e839414 --all \
		--format lkp >reprint &&
	grep -B2 "^          3:9          -33%            :8     dmesg.WARNING" reprint >fail &&
	grep "^       fail:runs  %reproduction    fail:runs$" fail &&
	python3 roundtrip.py \
		"$LKP/email-2020-06-12-btrfs-aim7-9.1pct-regression-excerpt.txt" \
		reprint >rt &&
	cat rt &&
	grep -q "^35 rows byte for byte" rt
'

test_expect_success 'the 2025 report reprinted by --format lkp: the same frame and rows' '
	rm -f r.db* &&
	perfsift --db r.db import -q \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" &&
	perfsift --db r.db compare --by commit 5ef2dccfcc 375700bab5 --all \
		--format lkp >reprint &&
	grep -A10 "^commit: $" reprint >frame &&
	sed -n "2,3p" frame >ids &&
	printf "  5ef2dccfcca8d864\n  375700bab5b150e876e42d894a9a7470881f8a61\n" >expect &&
	test_cmp expect ids &&
	grep "^5ef2dccfcca8d864 375700bab5b150e876e42d894a9 $" reprint &&
	python3 roundtrip.py \
		"$LKP/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt" \
		reprint >rt &&
	cat rt &&
	grep -q "^44 rows byte for byte" rt
'

test_expect_success 'our own tables reprinted: three commits; a fail block in a robot body' '
	D=$SRC/tests/data/lkp-table &&
	rm -f t.db* &&
	perfsift --db t.db import -q --format lkp-table "$D/ncompare-three-commits/input" &&
	perfsift --db t.db compare --by commit 1111111111aaaaaa 2222222222bbbbb \
		3333333333ccccc --all --format lkp >r3 &&
	python3 roundtrip.py "$D/ncompare-three-commits/input" r3 >rt3 &&
	grep -q "^6 rows byte for byte" rt3 &&
	rm -f t.db* &&
	perfsift --db t.db import -q --format lkp-table "$D/robot-2025/input" &&
	perfsift --db t.db compare --by commit 0123456789abcdef abcdef0123 --all \
		--format lkp >r4 &&
	python3 roundtrip.py "$D/robot-2025/input" r4 >rt4 &&
	grep -q "^3 rows byte for byte" rt4
'

test_done
