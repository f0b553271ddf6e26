#!/bin/sh
# The mmtests-table importer on every MMTests table we have as text: the
# four tables of compare-kernels' HTML report in ../shared/samples/mmtests
# (stream, Duration, Ops of mmtests-vmstat and of mmtests-schedstat), and
# the verbatim tables of research/mmtests.md §1.2 (ebizzy, and the
# 5.3.0-rc3 fsmark mail).  The expected cells come from the text itself,
# read here in python independently of the C parser: HTML cells by their
# tags, text rows by a regular expression over "value (pct%)" pairs, run
# names rebuilt from the two header lines by the rule of research §1.2.
. "$(dirname "$0")/lib.sh"
need_samples

MM=$SAMPLES/mmtests
export MM

need_python3 'mmtests tables'

cat >ebizzy.txt <<'EOF'
ebizzy
                                                6.1                          6.1
                                            vanilla                      patched
Min       total_rsec-1          19725.00 (   0.00%)          19091.00 (  -3.21%)
Hmean     total_rsec-4          80387.01 (   0.00%)          77706.86 *  -3.33%*
HStddev   total_rsec-1            181.32 (   0.00%)            223.83 ( -23.45%)
HCoeffVar total_rsec-4              0.67 (   0.00%)              0.25 (  63.38%)
Max       total_rsec-4          81101.00 (   0.00%)          77963.00 (  -3.87%)
BHmean.95 total_rsec-4          80691.44 (   0.00%)          77810.20 (  -3.57%)
EOF

cat >fsmark.txt <<'EOF'
                                   5.3.0-rc3              5.3.0-rc3
                                     vanilla          shrinker-v1r1
Min       1-files/sec     5181.70 (   0.00%)     3204.20 ( -38.16%)
1st-qrtle 1-files/sec    14877.10 (   0.00%)     6596.90 ( -55.66%)
Max-1     1-files/sec    18463.00 (   0.00%)    18479.90 (   0.09%)
Hmean     1-files/sec     7459.11 (   0.00%)     6249.49 ( -16.22%)
BHmean-50 1-files/sec    10953.31 (   0.00%)     8017.89 ( -26.80%)
EOF

cat >check.py <<'PY'
import re, sys

src, dump = sys.argv[1], sys.argv[2]
lines = open(src, encoding="utf-8").read().splitlines()

def name(upper, lower):
    # research/mmtests.md §1.2: "upper-lower"; a name without '-' prints
    # as itself minus its last character over itself
    if not lower:
        return upper
    if lower[:-1] == upper and "-" not in lower:
        return lower
    return upper + "-" + lower

def kernel(n):
    m = re.match(r"^(v?\d+(\.\d+)+(-rc\d+)?)(-|$)", n)
    return m.group(1) if m else None

want = {}   # (label, metric, stat) -> (value, marker, line)
def add(names, bench, stat, op, cells, i):
    assert len(cells) == len(names), (i, cells)
    metric = bench + "." + op if bench else op
    for nm, (v, star) in zip(names, cells):
        key = (nm, metric, stat)
        assert key not in want, key
        want[key] = (float(v), "*" if star else "NULL", i)

if src.endswith(".html"):
    cell = re.compile(r"<t([dh])[^>]*>(.*?)</t[dh]>")
    bench, head, title = None, [], None
    for i, line in enumerate(lines, 1):
        cells = cell.findall(line) if line.startswith("<tr>") else []
        if not cells:
            if re.match(r"^[a-z][a-z0-9-]*$", line):
                title = line
            if line.startswith("</table>"):
                head = []
            continue
        if cells[0][0] == "h":
            head.append([c.strip() for k, c in cells[1:]])
            continue
        upper, lower = head
        names = [name(u, l) for u, l in zip(upper, lower)]
        text = [c for k, c in cells]
        vals = [(text[j].strip(), False) for j in range(2, len(text), 2)]
        add(names, title, text[0].strip(), " ".join(text[1].split()), vals, i)
else:
    row = re.compile(r"^(\S+)\s+(\S+)((\s+[0-9.]+\s+[(*]\s*-?[0-9.]+%[)*])+)$")
    pair = re.compile(r"([0-9.]+)\s+([(*])\s*-?[0-9.]+%[)*]")
    bench = lines[0] if re.match(r"^[a-z]+$", lines[0]) else None
    ends = lambda s: {mm.end(): mm.group() for mm in re.finditer(r"\S+", s)}
    for i, line in enumerate(lines, 1):
        m = row.match(line)
        if not m:
            continue
        if not row.match(lines[i - 2]):
            # the first row: the two header lines above, right-aligned
            eu, el = ends(lines[i - 3]), ends(lines[i - 2])
            names = [name(eu.get(e), el.get(e))
                     for e in sorted(set(eu) | set(el))]
        cells = [(v, s == "*") for v, s in pair.findall(m.group(3))]
        add(names, bench, m.group(1), m.group(2), cells, i)

got = {}
for line in open(dump, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] != "aggregate":
        continue
    label, kern, commit, tc, par, mach, metric, stat, value, sd, kind, \
        sdsrc, n, marker, lineno = f[1:]
    assert commit == "NULL" and par == "" and mach == "", f
    assert sd == "NULL" and n == "NULL", f
    assert kern == (kernel(label) or ""), (kern, label)
    assert tc == (metric.split(".")[0] if "." in metric else ""), f
    got[(label, metric, stat)] = (float(value), marker, int(lineno))

assert set(got) == set(want), sorted(set(got) ^ set(want))
for k, (v, marker, line) in want.items():
    g = got[k]
    assert abs(g[0] - v) <= 1e-12 * abs(v) and g[1] == marker and \
        g[2] == line, (k, g, (v, marker, line))
print("%d cells checked" % len(want))
PY

for fc in "$MM/compare-kernels-example-report-index.html:174" ebizzy.txt:12 \
	  fsmark.txt:10
do
	f=${fc%:*} cells=${fc##*:}
	export f cells
	test_expect_success "$(basename "$f"): every row, column and marker" '
		rm -f r.db* &&
		perfsift --db r.db import "$f" >out 2>err &&
		grep "mmtests-table, 0 runs, 0 samples, [0-9]* aggregates; [0-9]* tables\{0,1\}: " out &&
		! grep warning err &&
		perfsift --db r.db debug dump >dump &&
		python3 check.py "$f" dump >checked &&
		cat checked && grep -qx "$cells cells checked" checked
	'
done

test_expect_success 'the HTML report: 87 rows of two runs, four tables' '
	rm -f r.db* &&
	perfsift --db r.db import -q "$MM/compare-kernels-example-report-index.html" &&
	perfsift --db r.db debug dump >dump &&
	test $(grep -c "^aggregate	TEST_RUN	" dump) = 87 &&
	test $(grep -c "^aggregate	TEST_RUN_BUSY	" dump) = 87 &&
	grep -F "stream.NUMA base-page range updates	Ops	0	" dump &&
	grep -F "stream.Elapsed	Duration	20.12	" dump
'

test_expect_success 'the HTML report compares: its MB/sec, Duration and Ops cells are the values' '
	perfsift --db r.db compare TEST_RUN TEST_RUN_BUSY --all --json >c.json 2>err &&
	! grep warning err &&
	python3 -c "
import json
rows = json.load(open(\"c.json\"))[\"rows\"]
assert len(rows) == 87, len(rows)
both = [r for r in rows if r[\"base\"][\"mean\"] is not None and
        r[\"vs\"][0][\"mean\"] is not None]
assert len(both) == 87, len(both)
by = {(r[\"metric\"]): r for r in rows}
assert by[\"stream.copy\"][\"base\"][\"mean\"] == 19059.86, by[\"stream.copy\"]
assert by[\"stream.copy\"][\"vs\"][0][\"mean\"] == 15234.88
assert by[\"stream.Elapsed\"][\"base\"][\"stat\"] == \"Duration\"
"
'

test_expect_success 'a percentage that does not follow from the values is warned about' '
	sed "s/-16.22%/-6.22%/" fsmark.txt >bad.txt &&
	rm -f r.db* &&
	perfsift --db r.db import bad.txt 2>err &&
	grep "warning: bad.txt:6: .Hmean 1-files/sec. of .5.3.0-rc3-shrinker-v1r1.: the printed -6.22% does not follow from 6249.49 against 7459.11" err &&
	test $(grep -c warning err) = 1
'

test_expect_success 'both sign conventions pass: pndiff on a lower-is-better row' '
	sed "s/3204.20 ( -38.16%)/3204.20 (  38.16%)/" fsmark.txt >flip.txt &&
	rm -f r.db* &&
	perfsift --db r.db import flip.txt 2>err &&
	! grep warning err
'

test_expect_success 'collapsed blanks read the same' '
	sed "s/  */ /g" ebizzy.txt >collapsed.txt &&
	rm -f a.db* b.db* &&
	perfsift --db a.db import -q ebizzy.txt &&
	perfsift --db b.db import -q collapsed.txt &&
	perfsift --db a.db debug dump | sed 1d >a &&
	perfsift --db b.db debug dump | sed 1d >b &&
	test_cmp a b && test $(grep -c "^aggregate" a) = 12
'

test_expect_success 'compare on the 5.3.0-rc3 table: Hmean stands, n unknown, no star' '
	rm -f r.db* &&
	perfsift --db r.db import -q fsmark.txt &&
	perfsift --db r.db compare 5.3.0-rc3-vanilla 5.3.0-rc3-shrinker-v1r1 \
		--all --json >c.json &&
	python3 -c "
import json
r = json.load(open(\"c.json\"))[\"rows\"]
assert len(r) == 1 and r[0][\"metric\"] == \"1-files/sec\", r
b, v = r[0][\"base\"], r[0][\"vs\"][0]
assert b[\"stat\"] == \"Hmean\" and b[\"mean\"] == 7459.11 and b[\"n\"] is None, b
assert v[\"mean\"] == 6249.49 and v[\"marker\"] is None, v
assert abs(v[\"change_pct\"] - 100 * (6249.49 / 7459.11 - 1)) < 1e-9, v
assert round(v[\"change_pct\"], 2) == -16.22, v
assert v[\"test\"] == \"source\" and v[\"p_value\"] is None, v
assert v[\"significant\"] is False, v
"
'

test_expect_success 'compare on the ebizzy table: the star makes it significant' '
	rm -f r.db* &&
	perfsift --db r.db import -q ebizzy.txt &&
	perfsift --db r.db compare 6.1-vanilla 6.1-patched --all --json >c.json &&
	python3 -c "
import json
r = [x for x in json.load(open(\"c.json\"))[\"rows\"]
     if x[\"metric\"] == \"ebizzy.total_rsec-4\"]
assert len(r) == 1, r
v = r[0][\"vs\"][0]
assert v[\"marker\"] == \"*\" and v[\"test\"] == \"source\", v
assert v[\"significant\"] is True and v[\"verdict\"] == \"regression\", v
"
'

cat >cells.py <<'PY'
# The rows of an MMTests table, as (label, operation, cells): every number
# and its marker, whatever the widths; the source and perfsift's reprint
# (--format mmtests) must hold the same set.
import re, sys

def cells(path):
    rows = set()
    for l in open(path, encoding="utf-8"):
        l = re.sub(r"^( *> ?)+", "", l)    # a quoted reply's table
        m = re.match(r"^(\S+)\s+(\S+)((\s+-?[0-9.]+\s+[(*]\s*-?[0-9.]+%[)*])+)\s*$", l)
        if m:
            c = tuple((float(v), mark, float(p)) for v, mark, p in
                      re.findall(r"(-?[0-9.]+)\s+([(*])\s*(-?[0-9.]+)%", m.group(3)))
            rows.add((m.group(1), m.group(2), c))
            continue
        # a table without percentages: Duration, Ops, a monitor's
        m = re.match(r"^(\S+)\s+(\S+)((\s+-?[0-9.]+)+)\s*$", l)
        if m:
            rows.add((m.group(1), m.group(2),
                      tuple(float(v) for v in m.group(3).split())))
    return rows

a, b = cells(sys.argv[1]), cells(sys.argv[2])
assert a and a == b, sorted(map(repr, a ^ b))
print("%d rows, every cell" % len(a))
PY

test_expect_success 'compare --format mmtests reprints the imported tables: every cell as printed' '
	rm -f e.db* f.db* &&
	perfsift --db e.db import -q ebizzy.txt &&
	perfsift --db e.db compare 6.1-vanilla 6.1-patched --all --format mmtests >e.out &&
	python3 cells.py ebizzy.txt e.out >e.rt && grep "^6 rows, every cell" e.rt &&
	perfsift --db f.db import -q fsmark.txt &&
	perfsift --db f.db compare 5.3.0-rc3-vanilla 5.3.0-rc3-shrinker-v1r1 --all --format mmtests >f.out &&
	python3 cells.py fsmark.txt f.out >f.rt && grep "^5 rows, every cell" f.rt &&
	# the fsmark table comes back line for line
	sed -n "2,\$p" fsmark.txt >expect &&
	grep -A6 "^ *5.3.0-rc3 *5.3.0-rc3$" f.out | sed -n "2,\$p" >actual &&
	test_cmp expect actual
'

test_expect_success 'every table of tests/data/mmtests-table reprinted: every cell' '
	for c in "$SRC"/tests/data/mmtests-table/*/; do
		test -f "$c/expect" || continue
		# a skipped row is not reprinted; the pft fields of 2013 and
		# label-less monitors come back as Mean, Duration and Ops
		# rows, and a sub-heading in the operation
		! grep -qs "row skipped$" "$c/warnings" || continue
		case $(basename "$c") in
		era-2013-pft-monitors|hand-reformatted) continue ;;
		esac
		rm -f c.db* &&
		perfsift --db c.db import -q --format mmtests-table "$c/input" &&
		# run names may hold blanks
		labels=$(sqlite3 c.db "SELECT label FROM variants
			GROUP BY label ORDER BY min(id)") &&
		(IFS="
" && perfsift --db c.db compare --by label $labels --all \
			--format mmtests) >c.out &&
		python3 cells.py "$c/input" c.out >c.rt &&
		echo "$(basename "$c"): $(cat c.rt)" || return 1
	done >all.rt &&
	cat all.rt &&
	test "$(grep -c "rows, every cell$" all.rt)" = 11
'

test_done
