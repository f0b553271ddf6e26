#!/bin/sh
# perfsift trend and changepoints: a metric's history in the commit order
# that commits import recorded, per commit its mean, sd and n, and the
# change points (lib/stats/changepoint.h) with commit, last commit
# before, means, change, p and a verdict by direction.  A temporary git
# repository of 16 commits, 4 runs each: x_ops (higher is better) drops
# 20 % at c9, x_lat_us (lower is better) drops 30 % at c5, x_flat never
# changes, y_steps moves at c4, c7 and c12.  The numbers are checked
# against a python computation.
. "$(dirname "$0")/lib.sh"
need_python3 'trend'

results() {
	awk -v c="$(sha "$1" | cut -c1-10)" -v i="$1" 'BEGIN {
		srand(2000 + i)
		print "commit,metric,value,iteration"
		for (r = 0; r < 4; r++) {
			printf "%s,x_ops,%.4f,%d\n", c, (i < 9 ? 100 : 80) + (rand() - 0.5) * 2, r
			printf "%s,x_lat_us,%.4f,%d\n", c, (i < 5 ? 50 : 35) + (rand() - 0.5), r
			printf "%s,x_flat,%.4f,%d\n", c, 10 + (rand() - 0.5), r
			printf "%s,y_steps,%.4f,%d\n", c, 20 + (i >= 4) - (i >= 7) * 1.5 + (i >= 12) * 2 + (rand() - 0.5) * 2, r
		}
	}' >"c$1.csv"
}

test_expect_success 'a repository of 16 commits, 4 runs of each' '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 16 &&
	for i in $(seq 1 16); do
		results $i && perfsift import -q c$i.csv || return 1
	done &&
	perfsift commits import --repo repo >out &&
	grep "recorded 16 commits (16 new), linked 16 variants" out
'

test_expect_success 'changepoints: x_ops drops 20 % at c9, a regression' '
	perfsift changepoints --metric x_ops >out &&
	cat out &&
	grep "64 runs at 16 commits in commit order; 1 change point" out &&
	grep "^$(sha 9 | cut -c1-12)  $(sha 8 | cut -c1-12) .* regression  c9$" out
'

test_expect_success 'changepoints --json: the numbers, checked in python' '
	perfsift changepoints --metric "x_*" --json >cp.json &&
	for i in $(seq 1 16); do cat c$i.csv; done | grep -v "^commit" >all.csv &&
	sha 9 >s9 && sha 8 >s8 && sha 5 >s5 && sha 4 >s4 &&
	/usr/bin/python3 - <<-\PY
	import json
	from scipy import stats
	doc = json.load(open("cp.json"))
	series = {s["metric"]: s for s in doc["series"]}
	assert set(series) == {"x_ops", "x_lat_us", "x_flat"}, series.keys()
	vals = {}
	for l in open("all.csv"):
	    c, m, v, r = l.strip().split(",")
	    vals.setdefault(m, []).append(float(v))
	s9, s8, s5, s4 = (open(f).read().strip() for f in ("s9", "s8", "s5", "s4"))
	def check(m, k, commit, last, verdict):
	    (cp,) = series[m]["changepoints"]
	    x = vals[m]
	    a, b = x[:4 * k], x[4 * k:]
	    assert cp["commit"] == commit and cp["last_good"] == last, cp
	    assert cp["n_before"] == len(a) and cp["n_after"] == len(b), cp
	    ma, mb = sum(a) / len(a), sum(b) / len(b)
	    assert abs(cp["mean_before"] - ma) < 1e-9 * ma, (cp, ma)
	    assert abs(cp["mean_after"] - mb) < 1e-9 * mb, (cp, mb)
	    assert abs(cp["change_pct"] - 100 * (mb / ma - 1)) < 1e-9, cp
	    p = stats.ttest_ind(a, b).pvalue
	    assert abs(cp["p"] - p) <= 1e-6 * p + 1e-300, (cp["p"], p)
	    assert cp["verdict"] == verdict, cp
	check("x_ops", 8, s9, s8, "regression")
	check("x_lat_us", 4, s5, s4, "improvement")
	assert series["x_flat"]["changepoints"] == [], series["x_flat"]
	assert series["x_ops"]["direction"] == "higher"
	assert series["x_lat_us"]["direction"] == "lower"
	print("x_ops at c9, x_lat_us at c5, x_flat none")
	PY
'

test_expect_success 'trend: mean, sd and n per commit, the change point marked' '
	perfsift trend --metric x_ops >out &&
	cat out &&
	test "$(awk "NR > 2 && \$5 == 4" out | wc -l)" = 16 &&
	grep "^ *8  $(sha 9 | cut -c1-12) .*<- -[0-9.]*% regression (p " out &&
	perfsift trend --metric x_ops --json >t.json &&
	/usr/bin/python3 - <<-\PY
	import json, statistics
	s = json.load(open("t.json"))["series"][0]
	assert len(s["commits"]) == 16
	for k, c in enumerate(s["commits"]):
	    assert c["position"] == k and c["n"] == 4 and c["subject"] == "c%d" % (k + 1)
	    assert abs(c["mean"] - statistics.mean(c["values"])) < 1e-9
	    assert abs(c["sd"] - statistics.stdev(c["values"])) < 1e-9
	print("16 commits")
	PY
'

test_expect_success '--max-pvalue and --min-change: the step kept or dropped' '
	perfsift changepoints --metric x_ops --min-change 25 >out &&
	grep "0 change points" out &&
	perfsift changepoints --metric x_ops --min-change 15 >out &&
	grep "1 change point" out
'

test_expect_success '--window: the windowed mode, checked against the python reference' '
	perfsift changepoints --metric x_ops --window 12 >out &&
	cat out &&
	grep "64 runs at 16 commits in commit order; 1 change point (windows of 12 runs)" out &&
	grep "^$(sha 9 | cut -c1-12)  $(sha 8 | cut -c1-12) .* regression  c9$" out &&
	for w in 0 6 12 50; do
		perfsift changepoints --metric "[xy]_*" --window $w --json >w$w.json || return 1
	done &&
	/usr/bin/python3 - <<-\PY
	# windowed(): tests/ref/gen-changepoint-ref.py, the reference of the
	# unit test (brute-force E-divisive, scipy t-tests, the merge pass)
	import importlib.util, json, os
	import numpy as np
	spec = importlib.util.spec_from_file_location(
	    "ref", os.environ["SRC"] + "/tests/ref/gen-changepoint-ref.py")
	ref = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(ref)
	vals = {}
	for l in open("all.csv"):
	    c, m, v, r = l.strip().split(",")
	    vals.setdefault(m, []).append(float(v))
	group = [k // 4 for k in range(64)]
	found = {}
	for w in (0, 6, 12, 50):
	    doc = json.load(open("w%d.json" % w))
	    assert doc["window"] == w, doc["window"]
	    for s in doc["series"]:
	        x = np.asarray(vals[s["metric"]])
	        got, k = [], 0
	        for c in s["changepoints"]:
	            k += c["n_before"]
	            got.append(k)
	        if w:
	            want = ref.windowed(x, group, w, 0.001, 0.0, 3, 0, 1)
	        else:
	            want = ref.detect(x, group, 0.001, 0.0, 3, 0)
	        assert got == want["index"], (w, s["metric"], got, want)
	        for c, mb, ma, p in zip(s["changepoints"], want["mean_before"],
	                                want["mean_after"], want["p"]):
	            assert abs(c["mean_before"] - mb) < 1e-9 * abs(mb), (c, mb)
	            assert abs(c["mean_after"] - ma) < 1e-9 * abs(ma), (c, ma)
	            assert abs(c["p"] - p) <= 1e-6 * p + 1e-300, (c["p"], p)
	        print(w, s["metric"], got)
	        found[s["metric"]] = found.get(s["metric"], 0) + len(got)
	# y_steps (steps at c4, c7 and c12 of 1, 1.5 and 2 sd of its
	# uniform noise) has change points; x_flat none
	assert found["y_steps"] > 0 and found["x_flat"] == 0, found
	PY
'

test_expect_success '--window: bad values' '
	test_expect_code 2 perfsift changepoints --metric x_ops --window 5 2>err &&
	grep "window wants 0 or a number of runs >= 6, got .5." err &&
	test_expect_code 2 perfsift trend --metric x_ops --window -1 &&
	test_expect_code 2 perfsift trend --metric x_ops --window x
'

test_expect_success 'plot trend: a point per commit, the segments at their means' '
	perfsift plot trend --metric x_ops --script >s.gp &&
	/usr/bin/python3 - <<-\PY
	import re
	text = open("s.gp").read()
	blocks = dict(re.findall(r"\$(P1_L\d+) << EOD\n(.*?)EOD", text, re.S))
	pts = [tuple(map(float, l.split())) for l in blocks["P1_L1"].splitlines()]
	assert [p[0] for p in pts] == list(range(16)), pts
	vals = {}
	for i in range(1, 17):
	    for l in open("c%d.csv" % i):
	        f = l.strip().split(",")
	        if f[1] == "x_ops":
	            vals.setdefault(i - 1, []).append(float(f[2]))
	for x, y, e in pts:
	    v = vals[int(x)]
	    m = sum(v) / len(v)
	    assert abs(y - m) < 1e-9 * m, (x, y, m)
	before = [x for k in range(8) for x in vals[k]]
	after = [x for k in range(8, 16) for x in vals[k]]
	seg1 = [tuple(map(float, l.split())) for l in blocks["P1_L2"].splitlines()]
	seg2 = [tuple(map(float, l.split())) for l in blocks["P1_L3"].splitlines()]
	assert [p[0] for p in seg1] == [-0.4, 7.4] and [p[0] for p in seg2] == [7.6, 15.4]
	assert abs(seg1[0][1] - sum(before) / 32) < 1e-9 * 100
	assert abs(seg2[0][1] - sum(after) / 32) < 1e-9 * 100
	vert = [tuple(map(float, l.split())) for l in blocks["P1_L4"].splitlines()]
	assert [p[0] for p in vert] == [7.5, 7.5], vert
	assert "P1_L5" not in blocks
	assert re.search(r"title \"change at [0-9a-f]{7}: -19\.[0-9]{2}% \(p ", text), text
	assert "1 change point (E-divisive" in text
	print("16 commits, 2 segments")
	PY
	perfsift plot trend --metric x_ops -o trend.png &&
	test -s trend.png &&
	perfsift plot trend --metric x_ops -o trend.txt &&
	grep -q "trend of x_ops" trend.txt
'

test_expect_success 'plot trend in text: 72 columns, a character per line, its legend, labels apart' '
	perfsift plot trend --metric x_ops -o trend.txt &&
	git -C repo log --reverse --format=%H >order &&
	cat trend.txt &&
	/usr/bin/python3 - <<-\PY
	import re
	lines = open("trend.txt", encoding="utf-8").read().split("\n")
	assert max(map(len, lines)) <= 72, max(lines, key=len)
	shas = [l.strip() for l in open("order")]
	# the frame: from the top tic to the bottom border
	top = next(i for i, l in enumerate(lines) if re.match(r"^ +\+$", l))
	bottom = next(i for i, l in enumerate(lines) if re.match(r"^ +\+-{20,}\+$", l))
	left = lines[bottom].index("+")
	body = [l[left + 1:] for l in lines[top + 1:bottom]]
	# a mean per commit, none hidden: 16 "*"
	assert sum(l.count("*") for l in body) == 16, body
	# the segment means "-" on two rows, the change "|" a column of its own
	seg = [l for l in body if re.search(r"-{3}", l)]
	assert len(seg) == 2, body
	cols = {l.index("|", 1) for l in body if "|" in l[1:]}
	assert len(cols) == 1 and sum("|" in l[1:] for l in body) >= 12, body
	# labels: shas in commit order, two spaces apart at least
	labels = lines[bottom + 1].split()
	assert len(labels) >= 4, lines[bottom + 1]
	assert not re.search(r"\S {0,1}\S{7}\S", lines[bottom + 1].strip())
	pos = [next(k for k, s in enumerate(shas) if s.startswith(t)) for t in labels]
	assert pos == sorted(pos) and pos[0] == 0, (labels, pos)
	# the caption whole, then the legend: an entry a line, each its own character
	assert lines[bottom + 2].strip() == "commit, in the recorded order (oldest left)"
	legend = [l for l in lines[bottom + 3:] if l.strip()]
	glyphs = {l.strip()[-1]: l.strip()[:-1].strip() for l in legend}
	assert glyphs == {"*": "mean +- sd per commit",
	                  "-": "mean between change points",
	                  "|": glyphs.get("|", ""), ":": "error bars"}, glyphs
	assert glyphs["|"].startswith("change at "), glyphs
	print("16 means, 2 segments, 1 change, %d labels" % len(labels))
	PY
'

test_expect_success 'plot trend of values near the largest double: drawn, not a crash' '
	(
		PERFSIFT_DB=$TRASH/huge.db &&
		for i in 1 2 3; do
			c=$(sha $i | cut -c1-10) &&
			printf "commit,metric,value,iteration\\n%s,h,1.7e308,0\\n%s,h,-1.7e308,1\\n%s,h,1e308,2\\n" \
				$c $c $c >h$i.csv &&
			perfsift import -q h$i.csv || return 1
		done &&
		perfsift commits import --repo repo >out &&
		perfsift plot trend --metric h -o h.txt 2>err &&
		grep -q "trend of h" h.txt &&
		test "$(grep -c "^ *|.*\*" h.txt)" -ge 1 &&
		perfsift plot trend --metric h -o h.png 2>err &&
		test -s h.png
	)
'

test_expect_success 'bad input: unknown metric, no recorded commits, bad options' '
	test_expect_code 2 perfsift changepoints --metric nothing 2>err &&
	grep "no sample of .nothing. in a run whose commit is recorded" err &&
	test_expect_code 2 perfsift changepoints 2>err &&
	grep "metric NAME is needed" err &&
	test_expect_code 2 perfsift trend --metric x_ops --max-pvalue 2 &&
	test_expect_code 2 perfsift plot trend --metric nothing -o n.png 2>err &&
	grep "no sample of .nothing." err &&
	PERFSIFT_DB=$TRASH/empty.db &&
	perfsift import -q c1.csv &&
	test_expect_code 2 perfsift trend --metric x_ops 2>err &&
	grep "commits import" err
'

test_done
