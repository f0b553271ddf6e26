#!/bin/sh
# report --html DIR (plots/html.c): the self-contained comparison page,
# read back as a real browser builds it (chromium --dump-dom): the
# significant rows' numbers against `perfsift compare --json` of the
# same variants, the inline SVG charts with their ids and links both
# ways, --all, the "no significant change" page, names that need
# escaping, nothing that points outside the page, valid HTML5
# (html5lib, strict), a golden page, and the failures: a folder that
# cannot be written, gnuplot failing, with no partial file left.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3

# html_page DIR [--all] BASE NEW...: the page of a comparison
html_page() {
	dir=$1
	shift
	perfsift report "$@" --html "$dir"
}

# kernbench-style elapsed times, 5 runs each: elsp-8 10% slower in
# patched (a regression), elsp-16 5.7% faster (an improvement), the
# others alike
cat >kb.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
base,m1,kernbench,0,kernbench.elsp-2,200,s
base,m1,kernbench,1,kernbench.elsp-2,202,s
base,m1,kernbench,2,kernbench.elsp-2,198,s
base,m1,kernbench,3,kernbench.elsp-2,201,s
base,m1,kernbench,4,kernbench.elsp-2,199,s
base,m1,kernbench,0,kernbench.elsp-8,60,s
base,m1,kernbench,1,kernbench.elsp-8,61,s
base,m1,kernbench,2,kernbench.elsp-8,59,s
base,m1,kernbench,3,kernbench.elsp-8,60.5,s
base,m1,kernbench,4,kernbench.elsp-8,59.5,s
base,m1,kernbench,0,kernbench.elsp-16,35,s
base,m1,kernbench,1,kernbench.elsp-16,35.5,s
base,m1,kernbench,2,kernbench.elsp-16,34.5,s
base,m1,kernbench,3,kernbench.elsp-16,35.2,s
base,m1,kernbench,4,kernbench.elsp-16,34.8,s
base,m1,kernbench,0,kernbench.elsp-32,25,s
base,m1,kernbench,1,kernbench.elsp-32,26,s
base,m1,kernbench,2,kernbench.elsp-32,24,s
base,m1,kernbench,3,kernbench.elsp-32,25.5,s
base,m1,kernbench,4,kernbench.elsp-32,24.5,s
patched,m1,kernbench,0,kernbench.elsp-2,200.5,s
patched,m1,kernbench,1,kernbench.elsp-2,201,s
patched,m1,kernbench,2,kernbench.elsp-2,199,s
patched,m1,kernbench,3,kernbench.elsp-2,202,s
patched,m1,kernbench,4,kernbench.elsp-2,198.5,s
patched,m1,kernbench,0,kernbench.elsp-8,66,s
patched,m1,kernbench,1,kernbench.elsp-8,67,s
patched,m1,kernbench,2,kernbench.elsp-8,65,s
patched,m1,kernbench,3,kernbench.elsp-8,66.5,s
patched,m1,kernbench,4,kernbench.elsp-8,65.5,s
patched,m1,kernbench,0,kernbench.elsp-16,33,s
patched,m1,kernbench,1,kernbench.elsp-16,33.5,s
patched,m1,kernbench,2,kernbench.elsp-16,32.5,s
patched,m1,kernbench,3,kernbench.elsp-16,33.2,s
patched,m1,kernbench,4,kernbench.elsp-16,32.8,s
patched,m1,kernbench,0,kernbench.elsp-32,25.2,s
patched,m1,kernbench,1,kernbench.elsp-32,25.8,s
patched,m1,kernbench,2,kernbench.elsp-32,24.4,s
patched,m1,kernbench,3,kernbench.elsp-32,25.1,s
patched,m1,kernbench,4,kernbench.elsp-32,24.9,s
EOF

# a third kernel: elsp-8 as base, elsp-32 20% slower, no other metric
cat >p2.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
patched2,m1,kernbench,0,kernbench.elsp-8,60.1,s
patched2,m1,kernbench,1,kernbench.elsp-8,61.1,s
patched2,m1,kernbench,2,kernbench.elsp-8,59.1,s
patched2,m1,kernbench,3,kernbench.elsp-8,60.6,s
patched2,m1,kernbench,4,kernbench.elsp-8,59.6,s
patched2,m1,kernbench,0,kernbench.elsp-32,30,s
patched2,m1,kernbench,1,kernbench.elsp-32,31,s
patched2,m1,kernbench,2,kernbench.elsp-32,29,s
patched2,m1,kernbench,3,kernbench.elsp-32,30.5,s
patched2,m1,kernbench,4,kernbench.elsp-32,29.5,s
EOF

# two kernels that do not differ
cat >quiet.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
q1,m2,hackbench,0,hackbench.time,10.0,s
q1,m2,hackbench,1,hackbench.time,10.4,s
q1,m2,hackbench,2,hackbench.time,9.8,s
q2,m2,hackbench,0,hackbench.time,10.1,s
q2,m2,hackbench,1,hackbench.time,9.9,s
q2,m2,hackbench,2,hackbench.time,10.3,s
EOF

# names with every character HTML gives a meaning to, and a URL
cat >odd.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
o1,m<1>,t&"x',0,a<b>&"c'.d http://x.test/,10,u<&>
o1,m<1>,t&"x',1,a<b>&"c'.d http://x.test/,11,u<&>
o1,m<1>,t&"x',2,a<b>&"c'.d http://x.test/,10.5,u<&>
o2&<,m<1>,t&"x',0,a<b>&"c'.d http://x.test/,20,u<&>
o2&<,m<1>,t&"x',1,a<b>&"c'.d http://x.test/,21,u<&>
o2&<,m<1>,t&"x',2,a<b>&"c'.d http://x.test/,20.5,u<&>
EOF
ODD_METRIC='a<b>&"c'"'"'.d http://x.test/'

# The page as chromium builds it: dom DIR OUT
dom() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--dump-dom "file://$TRASH/$1/index.html" >"$2" 2>/dev/null &&
	test -s "$2"
}

# domq.py DOM QUERY: what the DOM holds, one item a line, for exact
# comparison: rows (the table rows' cells, tab-separated, with the
# row's id and class), charts (each svg: id, the number of its bars),
# links (each a's href and text), ids (duplicates), external (every
# attribute that points outside the page), none (the no-change line)
cat >domq.py <<\EOF
import sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.charts, self.links, self.ids = [], [], [], []
        self.external, self.none, self.tables = [], [], 0
        self.notes = []
        self.tr = self.cell = self.a = self.p = None
        self.svg = None
    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        for k, v in attrs:
            v = v or ""
            if k == "id":
                self.ids.append(v)
            low = v.strip().lower()
            if (k in ("href", "src", "xlink:href", "action", "data",
                      "poster", "srcset") and not low.startswith("#")) \
               or any(s in low for s in ("http:", "https:", "file:",
                                         "url(//", "url(h", "url(f")):
                if k not in ("aria-label",):
                    self.external.append("%s %s=%s" % (tag, k, v))
        if tag in ("script", "link", "iframe", "img", "object", "embed",
                   "image", "base"):
            self.external.append("<%s>" % tag)
        if tag == "table":
            self.tables += 1
        if tag == "tr":
            self.tr = [d.get("id", "-"), d.get("class", "-")]
        elif tag in ("td", "th") and self.tr is not None:
            self.cell = ""
        elif tag == "a":
            self.a = [d.get("href", ""), ""]
        elif tag == "p" and d.get("class") in ("none", "note"):
            self.p = ""
            self.pclass = d.get("class")
        elif tag == "svg":
            self.svg = [d.get("id", "-"), 0]
    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.tr.append(" ".join(self.cell.split()))
            self.cell = None
        elif tag == "tr" and self.tr is not None:
            self.rows.append(self.tr)
            self.tr = None
        elif tag == "a" and self.a is not None:
            self.links.append(self.a)
            self.a = None
        elif tag == "p" and self.p is not None:
            (self.none if self.pclass == "none" else
             self.notes).append(" ".join(self.p.split()))
            self.p = None
        elif tag == "svg" and self.svg is not None:
            self.charts.append(self.svg)
            self.svg = None
    def handle_data(self, data):
        if self.svg is not None and "(n=" in data:
            self.svg[1] += 1
        if self.cell is not None:
            self.cell += data
        if self.a is not None:
            self.a[1] += data
        if self.p is not None:
            self.p += data

d = Dom()
d.feed(open(sys.argv[1], encoding="utf-8").read())
q = sys.argv[2]
if q == "rows":
    for r in d.rows:
        if r[1] != "-" or len(r) > 4 and r[2] != "metric" \
           and "mean ± sd" not in r:
            print("\t".join(r))
    for n in d.notes:
        print(n)
elif q == "charts":
    for c in d.charts:
        print("%s %d" % (c[0], c[1]))
elif q == "links":
    for a in d.links:
        print("%s %s" % (a[0], " ".join(a[1].split())))
elif q == "ids":
    seen = set()
    for i in d.ids:
        if i in seen:
            print("duplicate id " + i)
        seen.add(i)
    print("%d ids" % len(d.ids))
elif q == "external":
    for e in d.external:
        print(e)
elif q == "none":
    print("%d tables" % d.tables)
    for p in d.none:
        print(p)
EOF

# expect.py JSON: the rows the page must show, from compare --json, as
# domq.py prints them: id, class, then the cells
cat >expect.py <<\EOF
import json, math, sys
doc = json.load(open(sys.argv[1]))
fdr = doc["fdr"] == "bh"
def num(v):
    return "-" if v is None else "%.6g" % v
def pval(p):
    if p is None:
        return "-"
    return "%.1e" % p if p < 0.0001 else "%.4f" % p
def side(s):
    if s["mean"] is None:
        return ["missing", "-"]
    t = num(s["mean"])
    if s["stddev"] is not None:
        t += " ± " + num(s["stddev"])
    return [t, "?" if s["n"] is None else str(s["n"])]
k = 0
notes = []
for r in doc["rows"]:
    sig = any(x["significant"] and x["verdict"] in
              ("regression", "improvement") for x in r["vs"])
    if sig:
        k += 1
    cells = ["row-%d" % k if sig else "-", "sig" if sig else "-"]
    cells.append(r["metric"] + (" (%s)" % r["unit"] if r["unit"] else ""))
    cells += side(r["base"])
    for x in r["vs"]:
        cells += side(x)
        c = x["change_pct"]
        cells.append("-" if c is None else "%+.2f%%" % c)
        cells.append(pval(x["q_value"] if fdr else x["p_value"]))
        v = x["verdict"]
        if x["significant"] and v == "regression":
            v = "✗ " + v
        elif x["significant"] and v == "improvement":
            v = "✓ " + v
        if x["note"]:
            if x["note"] not in notes:
                notes.append(x["note"])
            v += " [%d]" % (notes.index(x["note"]) + 1)
        cells.append(v)
    print("\t".join(cells))
# one group here: its footnotes after its table
for i, n in enumerate(notes):
    print("[%d] %s" % (i + 1, n))
EOF

test_expect_success 'setup: import the fixtures' '
	perfsift import -q kb.csv p2.csv quiet.csv odd.csv
'

test_expect_success 'the page: written, no temporary file left, UTF-8 HTML5' '
	html_page page base patched >out 2>err &&
	test ! -s out &&
	echo "wrote page/index.html" >expect &&
	test_cmp expect err &&
	test "$(ls -A page)" = index.html &&
	head -n 1 page/index.html >first &&
	echo "<!DOCTYPE html>" >expect &&
	test_cmp expect first &&
	grep -q "^<meta charset=\"utf-8\">$" page/index.html &&
	iconv -f UTF-8 -t UTF-8 page/index.html >/dev/null
'

if "$PY" -c "import html5lib" 2>/dev/null; then
	test_expect_success 'valid HTML5: html5lib parses every page without an error' '
		html_page all --all base patched &&
		html_page quiet q1 q2 &&
		html_page odd o1 "o2&<" &&
		for p in page all quiet odd; do
			"$PY" -c "import html5lib, sys
html5lib.HTMLParser(strict=True).parse(open(sys.argv[1], \"rb\").read())" \
				$p/index.html || exit 1
		done
	'
else
	test_skip "valid HTML5" "no html5lib for $PY (python3-html5lib)"
fi

test_expect_success 'self-contained: no URL, script, link or external file' '
	html_page odd o1 "o2&<" &&
	! grep -Ei "https?:|file:|<script|<link|<img|<iframe|xmlns|xlink|gnuplot_svg" page/index.html &&
	# the one URL of odd/ is a metric name, as text: its cell, the
	# chart caption, the chart title and the chart panel
	grep -o "http://x.test/" odd/index.html >urls &&
	test "$(wc -l <urls)" = 4 &&
	grep -q "^<text>a&lt;b>&amp;\"c.\.d http://x.test/</text>$" odd/index.html &&
	! grep -Ei "(href|src)=\"[^#]" page/index.html odd/index.html &&
	! grep -i "url([^#]" page/index.html odd/index.html
'

if command -v chromium >/dev/null 2>&1; then
	HAVE_CHROMIUM=1
else
	HAVE_CHROMIUM=
fi

browser_test() {
	if [ -n "$HAVE_CHROMIUM" ]; then
		test_expect_success "$1" "$2"
	else
		test_skip "$1" "no chromium (scripts/deps.sh check)"
	fi
}

browser_test 'in chromium: the significant rows, exactly as compare --json has them' '
	perfsift compare base patched --json >cmp.json &&
	"$PY" expect.py cmp.json >expect &&
	test "$(wc -l <expect)" = 2 &&
	dom page page.dom &&
	"$PY" domq.py page.dom rows >rows &&
	test_cmp expect rows &&
	# the values themselves, as the text format prints them
	grep -q "^row-1	sig	kernbench.elsp-8 (s)	60 ± 0.790569	5	66 ± 0.790569	5	+10.00%	8.6e-06	✗ regression$" rows &&
	grep -q "^row-2	sig	kernbench.elsp-16 (s)	35 ± 0.380789	5	33 ± 0.380789	5	-5.71%	6.7e-05	✓ improvement$" rows &&
	# the marks are classes for colour too
	grep -q "<td class=\"num reg\">+10.00%</td>" page/index.html &&
	grep -q "<td class=\"verdict imp\">✓ improvement</td>" page/index.html &&
	# the heading: the variants and the group as compare knows them
	grep -q "<h1>base vs patched</h1>" page.dom &&
	grep -q "<h2>testcase kernbench · machine m1</h2>" page.dom &&
	grep -q "Base: base (5 runs); compared with it: patched (5 runs)." page.dom &&
	grep -q "1 regression, 1 improvement, 0 changed (direction unknown), 2 unknown; 4 tests over 4 metric rows; 2 rows shown" page.dom
'

browser_test 'in chromium: a chart per significant row, ids unique, linked both ways' '
	"$PY" domq.py page.dom charts >charts &&
	# each chart: its two bars, named "base (n=5)", "patched (n=5)"
	printf "chart-1 2\nchart-2 2\n" >expect &&
	test_cmp expect charts &&
	"$PY" domq.py page.dom links >links &&
	printf "%s\n" "#chart-1 kernbench.elsp-8" "#chart-2 kernbench.elsp-16" \
		"#row-1 ↑ kernbench.elsp-8" "#row-2 ↑ kernbench.elsp-16" >expect &&
	test_cmp expect links &&
	"$PY" domq.py page.dom ids >ids &&
	! grep duplicate ids &&
	# the svg ids of each chart carry its prefix
	test "$(grep -o "id=\"chart-1-[A-Za-z0-9_]*\"" page.dom | sort -u | wc -l)" = \
	     "$(grep -o "id=\"chart-2-[A-Za-z0-9_]*\"" page.dom | sort -u | wc -l)" &&
	grep -q "<use href=\"#chart-2-gpPt5\" id=\"chart-2-gpPt6\"" page.dom &&
	# the chart is the same comparison: its marked change
	grep -q "<text>+10.0% \*</text>" page.dom &&
	grep -q "<text>-5.7% \*</text>" page.dom &&
	"$PY" domq.py page.dom external >ext &&
	test ! -s ext
'

browser_test 'in chromium: --all shows every row, the significant ones marked' '
	html_page all --all base patched &&
	dom all all.dom &&
	perfsift compare base patched --all --json >all.json &&
	"$PY" expect.py all.json >expect &&
	test "$(grep -c "^[-r]" expect)" = 4 &&
	"$PY" domq.py all.dom rows >rows &&
	test_cmp expect rows &&
	test "$(grep -c "	sig	" rows)" = 2 &&
	test "$(grep -c "[✗✓]" rows)" = 2 &&
	grep -q "^-	-	kernbench.elsp-2 (s)	200 ± 1.58114	5	200.2 ± 1.44049	5	+0.10%	0.8545	unknown \[1\]$" rows &&
	grep -q "^\[1\] not significant: about 1276 runs per side would decide a change of this size$" rows &&
	"$PY" domq.py all.dom charts >charts &&
	printf "chart-1 2\nchart-2 2\n" >expect &&
	test_cmp expect charts
'

browser_test 'in chromium: three variants: a column group each, missing values said' '
	html_page three base patched patched2 &&
	dom three three.dom &&
	perfsift compare base patched patched2 --json >three.json &&
	"$PY" expect.py three.json >expect &&
	"$PY" domq.py three.dom rows >rows &&
	test_cmp expect rows &&
	test "$(grep -c "^row-" rows)" = 3 &&
	grep -q "^row-2	sig	kernbench.elsp-16 (s)	35 ± 0.380789	5	33 ± 0.380789	5	-5.71%	[0-9.e-]*	✓ improvement	missing	-	-	-	unknown" rows &&
	grep -q "^row-3	sig	kernbench.elsp-32 (s)	25 ± 0.790569	5	25.08 ± 0.506952	5	+0.32%	[0-9.]*	unknown.*	30 ± 0.790569	5	+20.00%	[0-9.e-]*	✗ regression$" rows &&
	grep -q "<th colspan=\"2\" scope=\"colgroup\">base (base)</th><th colspan=\"5\" scope=\"colgroup\">patched</th><th colspan=\"5\" scope=\"colgroup\">patched2</th>" three.dom &&
	"$PY" domq.py three.dom charts >charts &&
	printf "chart-1 3\nchart-2 2\nchart-3 3\n" >expect &&
	test_cmp expect charts
'

browser_test 'in chromium: nothing significant: the no-change line, no table, no chart' '
	html_page quiet q1 q2 &&
	dom quiet quiet.dom &&
	"$PY" domq.py quiet.dom none >none &&
	printf "%s\n" "0 tables" "No significant change: 1 metric row compared, none changed significantly (q < 0.05)." >expect &&
	test_cmp expect none &&
	"$PY" domq.py quiet.dom charts >charts &&
	test ! -s charts &&
	# --all: the row, unmarked, and still no chart
	html_page quietall --all q1 q2 &&
	dom quietall quietall.dom &&
	"$PY" domq.py quietall.dom rows >rows &&
	test "$(grep -c "^-	-	hackbench.time (s)	" rows)" = 1 &&
	test "$(wc -l <rows)" = 2 &&
	! grep -q "[✗✓]" rows &&
	test ! -s "$("$PY" domq.py quietall.dom charts >c; echo c)"
'

browser_test 'in chromium: names with < & " and a URL are text, and escaped' '
	dom odd odd.dom &&
	"$PY" domq.py odd.dom rows >rows &&
	cut -f 3 rows >metric &&
	printf "%s (u<&>)\n" "$ODD_METRIC" >expect &&
	test_cmp expect metric &&
	"$PY" domq.py odd.dom links >links &&
	printf "%s\n" "#chart-1 $ODD_METRIC" "#row-1 ↑ $ODD_METRIC" >expect &&
	test_cmp expect links &&
	grep -q "<h1>o1 vs o2&amp;&lt;</h1>" odd.dom &&
	"$PY" domq.py odd.dom external >ext &&
	test ! -s ext
'

browser_test 'a screenshot: 1200x2000, drawn' '
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--window-size=1200,2000 --screenshot="$TRASH/shot.png" \
		"file://$TRASH/page/index.html" >/dev/null 2>&1 &&
	test "$(od -An -tx1 -j16 -N8 shot.png | tr -d " \n")" = 000004b0000007d0 &&
	test "$(wc -c <shot.png)" -gt 20000
'

test_expect_success 'golden: the same input gives the same page' '
	html_page again base patched &&
	cmp page/index.html again/index.html &&
	if [ "$(gnuplot --version)" = "gnuplot 5.4 patchlevel 4" ]; then
		test_golden page.html page/index.html
	else
		echo "# golden page skipped: $(gnuplot --version) draws other SVG"
	fi
'

test_expect_success 'an old page is replaced whole' '
	mkdir -p old && echo "old page" >old/index.html &&
	html_page old base patched &&
	cmp page/index.html old/index.html &&
	test "$(ls -A old)" = index.html
'

test_expect_success 'DIR that cannot be made or written: exit 4, no partial file' '
	test_expect_code 4 html_page nodir/sub base patched 2>err &&
	grep -q "^perfsift: error: cannot create .nodir/sub.: No such file or directory$" err &&
	test ! -e nodir &&
	echo file >afile &&
	test_expect_code 4 html_page afile base patched 2>err &&
	grep -q "^perfsift: error: cannot write .afile/index.html.: Not a directory$" err &&
	test "$(cat afile)" = file
'

if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null &&
   id nobody >/dev/null 2>&1; then
	test_expect_success 'a folder we may not write: exit 4, nothing in it' '
		mkdir ro && chmod 755 ro "$TRASH" && chmod 644 "$PERFSIFT_DB" &&
		test_expect_code 4 runuser -u nobody -- "$PERFSIFT" \
			--db "$PERFSIFT_DB" report base patched --html ro 2>err &&
		grep -q "^perfsift: error: cannot write .ro/index.html.: Permission denied$" err &&
		test -z "$(ls -A ro)"
	'
else
	test_skip "a folder we may not write" "needs root, runuser and the user nobody"
fi

test_expect_success 'gnuplot failing: exit 4 with its message, the old page kept' '
	mkdir fakebin &&
	printf "#!/bin/sh\ncat >/dev/null\necho \"line 7: no\" >&2\nexit 1\n" \
		>fakebin/gnuplot &&
	chmod +x fakebin/gnuplot &&
	mkdir -p kept && echo "old page" >kept/index.html &&
	PATH="$TRASH/fakebin:$PATH" test_expect_code 4 html_page kept \
		base patched 2>err &&
	grep -q "^perfsift: error: gnuplot failed (exit status 1); it said:$" err &&
	grep -q "^perfsift: error: gnuplot: line 7: no$" err &&
	test "$(cat kept/index.html)" = "old page" &&
	test "$(ls -A kept)" = index.html &&
	# no chart to draw: no gnuplot needed
	PATH="$TRASH/fakebin:$PATH" html_page quiet2 q1 q2 &&
	test -s quiet2/index.html
'

test_done
