#!/bin/sh
# The codesize importer: bloat-o-meter tables and size(1) output.  Two
# builds of tests/fixtures/codesize/{old,new}.c are made here with gcc;
# their tables come from our own bom.py (the kernel's script is GPL and
# not on this machine, see PROVENANCE), and every sample is checked in
# python against nm --size-sort of the builds themselves, independently
# of the C parser.  Then kinds, directions, compare's verdicts without a
# test, and the bad inputs: a bad row refused with its line, a table that
# does not add up imported with warnings naming the lines.
. "$(dirname "$0")/lib.sh"

FIX=$SRC/tests/fixtures/codesize
DATA=$SRC/tests/data/codesize
export FIX

# sample RUN METRIC: the value of METRIC in run RUN from `dump`
sample() {
	awk -F'\t' -v r="$1" -v m="$2" \
		'$1 == "sample" && $2 == r && $3 == m { print $5 }' dump
}

test_expect_success 'both formats are detected' '
	cp "$DATA/hand-categorized/input" table.txt &&
	cp "$DATA/gcc-size-t/input" size.txt &&
	perfsift --db d.db import table.txt size.txt >out &&
	grep "^table.txt: codesize, 2 runs, 18 samples$" out &&
	grep "^size.txt: codesize, 1 run, 8 samples$" out
'

test_expect_success 'the fixtures table: values, totals, runs old and new' '
	rm -f s.db* &&
	perfsift --db s.db import "$DATA/gcc-bloat-c/input" >out 2>err &&
	test_cmp /dev/null err &&
	perfsift --db s.db debug dump >dump &&
	awk -F"\t" "\$1 == \"run\" { print \$2, \$3, \$9 }" dump >runs &&
	printf "1 bloat-o-meter old\n2 bloat-o-meter new\n" >want &&
	test_cmp want runs &&
	test "$(sample 1 size.grows)" = 18 &&
	test "$(sample 2 size.grows)" = 74 &&
	test "$(sample 1 size.removed_fn)" = 16 &&
	test -z "$(sample 2 size.removed_fn)" &&
	test -z "$(sample 1 size.added_fn)" &&
	test "$(sample 2 size.added_fn)" = 13 &&
	test "$(sample 1 size.data.table)" = 32 &&
	test "$(sample 2 size.data.table)" = 64 &&
	test "$(sample 1 size.rodata.banner)" = 28 &&
	test "$(sample 2 size.rodata.banner)" = 49 &&
	test "$(sample 1 size.total.function)" = 218 &&
	test "$(sample 2 size.total.function)" = 221 &&
	test "$(sample 1 size.total)" = $((218 + 37 + 64)) &&
	test "$(sample 2 size.total)" = $((221 + 69 + 85))
'

test_expect_success 'without a Total line, size.total sums the rows' '
	rm -f s.db* &&
	perfsift --db s.db import "$DATA/hand-2005/input" >out 2>err &&
	test_cmp /dev/null err &&
	perfsift --db s.db debug dump >dump &&
	test "$(sample 1 size.total)" = $((4312 + 540 + 402 + 98 + 388)) &&
	test "$(sample 2 size.total)" = $((4520 + 589 + 44 + 390))
'

test_expect_success 'every metric: bytes, exact, lower is better' '
	perfsift --db d.db metrics >m &&
	grep "^size\." m >rows &&
	test $(wc -l <rows) = 18 &&
	! awk "\$2 != \"bytes\" || \$3 != \"exact\" || \$4 != \"lower\"" rows |
		grep .
'

test_expect_success 'compare decides the sizes without a test' '
	rm -f s.db* &&
	perfsift --db s.db import "$DATA/gcc-bloat-c/input" >/dev/null &&
	perfsift --db s.db compare old new --format text >cmp &&
	grep "exact metric: the change decides, no test" cmp &&
	grep "^size.total (bytes) .* 319 (n=1) .* 375 (n=1) .*+17.55% .* none .*regression" cmp &&
	grep "^size.shrinks (bytes) .* 54 (n=1) .* 4 (n=1) .*-92.59% .* none .*improvement" cmp
'

test_expect_success 'size output of two builds, labelled at import' '
	rm -f z.db* &&
	perfsift --db z.db import --label old "$DATA/gcc-size-old/input" &&
	perfsift --db z.db import --label new "$DATA/gcc-size-new/input" &&
	perfsift --db z.db compare old new --format text >cmp &&
	grep "^size.prog.text (bytes) .* 1653 (n=1) .* 1687 (n=1) .* none " cmp &&
	grep "^size.prog.total (bytes) .* 2293 (n=1) .* 2359 (n=1) .* none " cmp
'

test_expect_success '--label on a table of two builds is a usage error' '
	rm -f l.db* &&
	test_expect_code 2 perfsift --db l.db import --label x \
		"$DATA/hand-2005/input" 2>err &&
	grep "several variants" err
'

test_expect_success 'a bad row: exit 3, path:line, nothing kept' '
	rm -f b.db* &&
	cp "$DATA/bad-row/input" bad.txt &&
	test_expect_code 3 perfsift --db b.db import bad.txt 2>err &&
	grep "^perfsift: error: bad.txt:4: expected .name old new delta., got .bar " err &&
	test "$(db_counts b.db)" = "0 0 0 0 0 0 0"
'

test_expect_success 'a symbol twice in one table is refused' '
	rm -f b.db* &&
	sed "5s/^update_curr /__schedule  /" "$DATA/hand-categorized/input" >dup.txt &&
	test_expect_code 3 perfsift --db b.db import dup.txt 2>err &&
	grep "dup.txt:5: .size.__schedule. again (line 3)" err
'

test_expect_success 'a table that does not add up: warnings with lines, imported' '
	rm -f w.db* &&
	cp "$DATA/hand-not-adding-up/input" w.txt &&
	perfsift --db w.db import w.txt >out 2>err &&
	grep "^perfsift: warning: w.txt:4: .bar.: the delta +20 is not new - old (+30)$" err &&
	grep "^perfsift: warning: w.txt:1: the Function table.s deltas add up to 50 bytes, not the 80 of this line$" err &&
	grep "^perfsift: warning: w.txt:6: After - Before is 90 bytes" err &&
	grep "codesize, 2 runs, 7 samples, 3 warnings" out &&
	perfsift --db w.db debug dump >dump &&
	test "$(sample 2 size.bar)" = 230
'

test_expect_success 'summary counts and chg are checked too' '
	rm -f w.db* &&
	sed -e "1s|grow/shrink: 2/1|grow/shrink: 3/1|" \
		-e "7s|chg +0.00%|chg +1.00%|" \
		"$DATA/hand-categorized/input" >c.txt &&
	perfsift --db w.db import c.txt >out 2>err &&
	grep "c.txt:1: the Function table has rows add/remove 1/0 grow/shrink 2/1, not the 1/0 3/1 of this line" err &&
	grep "c.txt:7: chg +1.00% is not (After - Before) / Before (+0.00%)" err
'

need_python3 'builds checked against nm'
if ! command -v gcc >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then
	test_skip 'builds checked against nm' 'no gcc or nm'
	test_done
	exit
fi

test_expect_success 'fresh builds: every sample is what nm says' '
	mkdir -p build-old build-new &&
	gcc -O2 -o build-old/prog "$FIX/old.c" &&
	gcc -O2 -o build-new/prog "$FIX/new.c" &&
	python3 "$FIX/bom.py" build-old/prog build-new/prog >default.txt &&
	python3 "$FIX/bom.py" -c build-old/prog build-new/prog >cat.txt &&
	for t in default cat; do
		rm -f n.db* &&
		perfsift --db n.db import $t.txt >out 2>err &&
		test_cmp /dev/null err &&
		perfsift --db n.db debug dump >dump-$t || return 1
	done &&
	cat >check.py <<-\EOF &&
	import re, subprocess, sys

	def nm(path, kinds):
	    sym = {}
	    out = subprocess.run(["nm", "--size-sort", path], check=True,
	                         capture_output=True, text=True).stdout
	    for line in out.splitlines():
	        size, kind, name = line.split()
	        if kind in kinds:
	            name = re.sub(r"\.[0-9]+", "", name)
	            sym[name] = sym.get(name, 0) + int(size, 16)
	    return sym

	def got(dump):
	    runs, s = {}, {}
	    for line in open(dump):
	        f = line.rstrip("\n").split("\t")
	        if f[0] == "run":
	            runs[f[1]] = f[8]
	        if f[0] == "sample":
	            s[(runs[f[1]], f[2])] = int(float(f[4]))
	    return s

	def want(sections):
	    w = {}
	    for prefix, total, kinds in sections:
	        sums = {}
	        for b, path in (("old", "build-old/prog"),
	                        ("new", "build-new/prog")):
	            sums[b] = nm(path, kinds)
	        for name in set(sums["old"]) | set(sums["new"]):
	            if sums["old"].get(name) == sums["new"].get(name):
	                continue
	            for b in ("old", "new"):
	                if name in sums[b]:
	                    w[(b, prefix + name)] = sums[b][name]
	        for b in ("old", "new"):
	            t = sum(sums[b].values())
	            w[(b, "size.total")] = w.get((b, "size.total"), 0) + t
	            if total:
	                w[(b, total)] = t
	    return w

	all_kinds = "tTdDbBrRvVwW"
	checks = [
	    ("dump-default", [("size.", None, all_kinds)]),
	    ("dump-cat", [("size.", "size.total.function", "tTwW"),
	                  ("size.data.", "size.total.data", "dDbBvV"),
	                  ("size.rodata.", "size.total.rodata", "rR")]),
	]
	for dump, sections in checks:
	    g, w = got(dump), want(sections)
	    assert g == w, (dump, sorted(set(g.items()) ^ set(w.items())))
	    print(dump, len(g), "samples as nm says")
	EOF
	python3 check.py
'

test_expect_success 'fresh builds: size(1) rows are the values' '
	size build-old/prog build-new/prog >size.txt &&
	rm -f n.db* &&
	perfsift --db n.db import size.txt >out 2>err &&
	test_cmp /dev/null err &&
	perfsift --db n.db debug dump >dump &&
	size build-new/prog | awk "NR == 2 { print \$1, \$2, \$3, \$4 }" >want &&
	for c in text data bss total; do
		printf "%s " "$(sample 1 size.build-new/prog.$c)"
	done | sed "s/ \$//" >got &&
	echo >>got &&
	test_cmp want got
'

MAIL=$SRC/tests/fixtures/mail/bloat-o-meter.eml

test_expect_success 'a bloat-o-meter table in a patch mail: the table, not the prose' '
	perfsift --db mail.db import "$MAIL" >out &&
	grep "bloat-o-meter.eml message 1: codesize, 2 runs, 10 samples" out &&
	perfsift --db mail.db show old --json >old.json &&
	perfsift --db mail.db show new --json >new.json &&
	/usr/bin/python3 - "$MAIL" <<-\PY
	import json, re, sys
	rows = {}
	for l in open(sys.argv[1]):
	    m = re.match(r"^(\S+)\s+(\d+|-)\s+(\d+|-)\s+([+-]\d+)$", l.strip())
	    if m:
	        rows[m.group(1)] = (m.group(2), m.group(3))
	assert len(rows) == 5, rows
	old = json.load(open("old.json"))["runs"][0]["values"]
	new = json.load(open("new.json"))["runs"][0]["values"]
	for name, (o, n) in rows.items():
	    assert (o == "-") == ("size." + name not in old), name
	    assert (n == "-") == ("size." + name not in new), name
	    if o != "-":
	        assert old["size." + name] == float(o), name
	    if n != "-":
	        assert new["size." + name] == float(n), name
	assert old["size.total"] == 23847152 and new["size.total"] == 23847476
	print("5 rows and the totals")
	PY
'

test_expect_success 'the same commit message saved as text: read the same way' '
	sed "1,/^\$/d" "$MAIL" >commit.txt &&
	perfsift --db txt.db import commit.txt >out &&
	grep "commit.txt: codesize, 2 runs, 10 samples" out
'

test_expect_success 'a table in mail with a row that does not parse: path:line' '
	sed "s/^tcp_v4_rcv .*/tcp_v4_rcv  5320  54x4  +144/" "$MAIL" >bad.eml &&
	test_expect_code 3 perfsift --db badm.db import bad.eml >out 2>err &&
	grep "bad.eml:17: expected .name old new delta., got .tcp_v4_rcv  5320  54x4  +144." err &&
	perfsift --db badm.db runs >runs &&
	! grep old runs
'

test_expect_success 'size(1) run here on real binaries: every hex cell, letters too' '
	bins="$PERFSIFT /usr/bin/ls /usr/bin/git /usr/bin/sqlite3" &&
	size $bins >real.size &&
	# a hex cell that starts with a letter (d11ac) was once refused
	awk "NR > 1 && \$5 ~ /^[a-f]/ { n++ } END { exit !n }" real.size ||
	echo "no hex cell with a letter first in this build; the rows still count" &&
	perfsift --db real.db import real.size >out &&
	grep -q "real.size: codesize, 1 run, 16 samples" out &&
	awk "NR > 1 { n = split(\$6, p, \"/\"); print \"size.\" p[n] \".text \" \$1;
		print \"size.\" p[n] \".total \" \$4 }" real.size | sort >want &&
	sqlite3 -separator " " real.db "SELECT m.name, CAST(s.value AS INTEGER)
		FROM samples s JOIN metrics m ON m.id = s.metric_id
		WHERE m.name GLOB \"*.text\" OR m.name GLOB \"*.total\"" | sort >got &&
	test_cmp want got &&
	size -A "$PERFSIFT" >real-A.size &&
	perfsift --db real.db import real-A.size >out &&
	grep -q "real-A.size: codesize, 1 run, " out
'

test_expect_success 'byte counts print in full, and a growth of 300 bytes is a change' '
	# above 10^6, where %.6g would round
	size -A /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 >a.size &&
	awk "\$1 == \".text\" { \$2 += 300 } \$1 == \"Total\" { \$2 += 300 } 1" a.size >b.size &&
	perfsift --db grow.db import --label old a.size >/dev/null &&
	perfsift --db grow.db import --label new b.size >/dev/null &&
	text=$(awk "\$1 == \".text\" { print \$2 }" a.size) &&
	total=$(awk "\$1 == \"Total\" { print \$2 }" a.size) &&
	perfsift --db grow.db compare old new --all >out &&
	grep "section.text (bytes)  *$text (n=1)  *$((text + 300)) (n=1) .* regression" out &&
	grep "sections.total (bytes)  *$total (n=1)  *$((total + 300)) (n=1) .* regression" out &&
	perfsift --db grow.db compare old new --all --format markdown >md &&
	grep "| $total (n=1) | $((total + 300)) (n=1) |" md &&
	! grep "e+0" out md
'

test_done
