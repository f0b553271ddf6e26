#!/bin/sh
# perfsift bisect suggest and bisect judge, end to end: a git repository
# of 64 commits whose file 'level' is the benchmark's mean, 1000 up to c39
# and 960 from c40 on; the "benchmark" adds normal noise (sd 10, seeded
# per call) and writes runs as CSV for the commit checked out: 5 at good
# and bad, 3 at each bisect step.
# suggest, followed step by step, must converge on c40; `git bisect run`
# with judge must name c40 as the first bad commit.  The numbers of
# suggest --json are checked against scipy; the bad inputs exit 2, 3 or
# (judge) 128.
. "$(dirname "$0")/lib.sh"

# bench.sh SHA LEVEL [RUNS]: RUNS (3) runs of metric ops around LEVEL as
# CSV on stdout;
# each call its own seed (the file 'seed' counts them).  A script, so that
# git bisect run's step can call it too.
cat >bench.sh <<EOF
#!/bin/sh
s=\$((\$(cat "$TRASH/seed" 2>/dev/null || echo 0) + 1))
echo \$s >"$TRASH/seed"
awk -v c="\$1" -v level="\$2" -v n="\${3:-3}" -v seed="\$s" 'BEGIN {
	srand(seed)
	print "commit,metric,value,iteration"
	for (r = 0; r < n; r++) {
		u1 = rand(); u2 = rand()
		z = sqrt(-2 * log(1 - u1)) * cos(6.283185307179586 * u2)
		printf "%s,ops,%.4f,%d\\n", c, level + 10 * z, r
	}
}'
EOF
chmod +x bench.sh

bench() {
	"$TRASH/bench.sh" "$@" >"$TRASH/r.csv"
}

# at N [RUNS]: bench commit cN at its level and import it
at() {
	bench "$(sha "$1")" "$([ "$1" -lt 40 ] && echo 1000 || echo 960)" ${2:-} &&
	perfsift import -q "$TRASH/r.csv" >/dev/null
}

# midlevel: halfway between the means at c0 and c63
midlevel() {
	sqlite3 "$PERFSIFT_DB" "SELECT (avg(s.value) FILTER (WHERE
		c.position = 0) + avg(s.value) FILTER (WHERE c.position = 63))
		/ 2 FROM samples s JOIN runs r ON r.id = s.run_id JOIN variants
		v ON v.id = r.variant_id JOIN commits c ON c.sha = v.commit_sha"
}

# the commit number of a sha
num() {
	git -C repo log --format='%H %s' | awk -v h="$1" '$1 == h { print substr($2, 2) }'
}

test_expect_success 'a repository of 64 commits; the level drops at c40' '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	for i in $(seq 0 63); do
		case $i in
		0) echo 1000 >repo/level ;;
		40) echo 960 >repo/level ;;
		esac &&
		git -C repo add level &&
		GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" \
			git -C repo commit -q --allow-empty -m "c$i" || return 1
	done &&
	perfsift commits import --repo repo >out &&
	grep "recorded 64 commits" out &&
	at 0 5 && at 63 5
'

test_expect_success 'suggest before any bisect step: the whole range, the middle next' '
	perfsift bisect suggest --metric ops --good "$(sha 0)" --bad "$(sha 63)" >out &&
	cat out &&
	grep "^range: after $(sha 0 | cut -c1-12) (position 0, good) up to $(sha 63 | cut -c1-12) (position 63, bad): 63 candidates, 62 untested, 0 unknown, 0 between$" out &&
	grep "^next: test $(sha 31) (position 31), the middle of the 62 untested: c31$" out &&
	grep "^    git bisect start $(sha 63) $(sha 0)$" out &&
	perfsift bisect suggest --metric ops --good "$(sha 0)" --bad "$(sha 63)" --json >s.json &&
	/usr/bin/python3 -c "
import json; d = json.load(open(\"s.json\"))
assert d[\"next\"] == \"$(sha 31)\", d[\"next\"]
assert d[\"untested_between\"] == 62 and len(d[\"candidates\"]) == 63
assert d[\"good\"] == \"$(sha 0)\" and d[\"bad\"] == \"$(sha 63)\"
assert not d[\"found\"] and d[\"verdict\"] == \"regression\"
assert [c[\"verdict\"] for c in d[\"commits\"]] == [\"good\", \"bad\"]
"
'

test_expect_success 'suggest, followed step by step, converges on c40' '
	steps=0 &&
	while :; do
		perfsift bisect suggest --metric ops --good "$(sha 0)" \
			--bad "$(sha 63)" --json >s.json &&
		next=$(/usr/bin/python3 -c "import json; print(json.load(open(\"s.json\"))[\"next\"] or \"\")") &&
		[ -n "$next" ] || break
		steps=$((steps + 1)) &&
		echo "step $steps: c$(num "$next")" &&
		at "$(num "$next")" &&
		[ $steps -lt 20 ] || return 1
	done &&
	/usr/bin/python3 -c "
import json; d = json.load(open(\"s.json\"))
assert d[\"found\"] and d[\"bad\"] == \"$(sha 40)\" and d[\"good\"] == \"$(sha 39)\", d
assert d[\"candidates\"] == [\"$(sha 40)\"] and d[\"untested_between\"] == 0
" &&
	echo "$steps steps" &&
	[ $steps -le 12 ] &&
	perfsift bisect suggest --metric ops --good "$(sha 0)" --bad "$(sha 63)" >out &&
	grep "^first bad commit: $(sha 40) (position 40) c40$" out &&
	grep "^last good commit: $(sha 39) (position 39) c39$" out &&
	grep "^    git bisect bad $(sha 40)$" out &&
	grep "^    git bisect good $(sha 39)$" out
'

test_expect_success 'suggest --json: noise, p-values and verdicts against scipy' '
	sqlite3 -separator " " "$PERFSIFT_DB" "SELECT c.position, s.value FROM
		samples s JOIN runs r ON r.id = s.run_id JOIN variants v ON
		v.id = r.variant_id JOIN commits c ON c.sha = v.commit_sha" >vals &&
	/usr/bin/python3 - <<-\PY
	import json, math
	from scipy import stats
	d = json.load(open("s.json"))
	by = {}
	for l in open("vals"):
	    p, v = l.split()
	    by.setdefault(int(p), []).append(float(v))
	ss = sum(sum((x - sum(v) / len(v)) ** 2 for x in v) for v in by.values() if len(v) > 1)
	df = sum(len(v) - 1 for v in by.values() if len(v) > 1)
	sd = math.sqrt(ss / df)
	def near(a, b):
	    assert abs(a - b) <= 1e-9 * max(abs(a), abs(b)) or a == b, (a, b)
	near(d["noise"]["sd"], sd)
	assert d["noise"]["df"] == df, (d["noise"], df)
	mean = {p: sum(v) / len(v) for p, v in by.items()}
	g, b = mean[0], mean[63]
	def p(a, na, c, nc):
	    t = abs(a - c) / (sd * math.sqrt(1 / na + 1 / nc))
	    return 2 * stats.t.sf(t, df)
	near(d["p"], p(g, len(by[0]), b, len(by[63])))
	near(d["change_pct"], 100 * (b / g - 1))
	assert len(d["commits"]) == len(by)
	for c in d["commits"]:
	    pos, n = c["position"], len(by[c["position"]])
	    assert c["n"] == n
	    near(c["mean"], mean[pos])
	    near(c["p_good"], p(mean[pos], n, g, len(by[0])) if pos else 1.0)
	    near(c["p_bad"], p(mean[pos], n, b, len(by[63])) if pos != 63 else 1.0)
	    near(c["level"], (mean[pos] - g) / (b - g))
	    want = "good" if pos < 40 else "bad"
	    assert c["verdict"] == want, (pos, c)
	    assert c["more_runs"] is None
	print("checked", len(d["commits"]), "commits")
	PY
'

test_expect_success 'judge: exit 0 at a good commit, 1 at a bad one, a line saying why' '
	test_expect_code 0 perfsift bisect judge --metric ops --good "$(sha 0)" --bad "$(sha 63)" "$(sha 39)" >out &&
	grep "^$(sha 39 | cut -c1-12): good: mean " out &&
	test_expect_code 1 perfsift bisect judge --metric ops --good "$(sha 0)" --bad "$(sha 63)" "$(sha 40 | cut -c1-10)" >out &&
	grep "^$(sha 40 | cut -c1-12): bad: mean " out
'

test_expect_success 'judge: 125 while the runs cannot tell, with how many more' '
	PERFSIFT_DB=$TRASH/unknown.db &&
	perfsift commits import --repo repo >/dev/null &&
	at 0 5 && at 63 5 &&
	mid=$(midlevel) &&
	printf "commit,metric,value\n%s,ops,%s\n" "$(sha 50)" "$mid" >mid.csv &&
	perfsift import -q mid.csv >/dev/null &&
	test_expect_code 125 perfsift bisect judge --metric ops \
		--good "$(sha 0)" --bad "$(sha 63)" "$(sha 50)" >out &&
	cat out &&
	grep "^$(sha 50 | cut -c1-12): unknown: mean .* (n=1); .*; [0-9]* more runs* needed$" out &&
	perfsift bisect suggest --metric ops --good "$(sha 0)" \
		--bad "$(sha 63)" --json >u.json &&
	perfsift bisect suggest --metric ops --good "$(sha 0)" \
		--bad "$(sha 63)" >out &&
	grep "^next: run $(sha 50) (position 50) again, it is unknown: c50$" out &&
	/usr/bin/python3 - <<-\PY
	import json, math
	from scipy import stats
	d = json.load(open("u.json"))
	(c,) = [c for c in d["commits"] if c["position"] == 50]
	assert c["verdict"] == "unknown" and d["undecided"] == [c["commit"]]
	assert d["next"] == c["commit"] and d["next_is_retest"]
	ng = nb = 5
	g, b = (x["mean"] for x in (d["commits"][0], d["commits"][-1]))
	sd, df, alpha = d["noise"]["sd"], d["noise"]["df"], d["alpha"]
	q = stats.t.ppf(1 - alpha / 2, df) + stats.t.ppf(0.9, df)
	inv = (abs(b - g) / (sd * q)) ** 2 - 1 / min(ng, nb)
	want = max(1, math.ceil(1 / inv) - 1)
	assert c["more_runs"] == want, (c, want)
	print("more runs:", want)
	PY
'

test_expect_success 'judge: 125 for a level between good and bad' '
	PERFSIFT_DB=$TRASH/between.db &&
	perfsift commits import --repo repo >/dev/null &&
	at 0 5 && at 63 5 &&
	mid=$(midlevel) &&
	awk -v c="$(sha 31)" -v m="$mid" "BEGIN { print \"commit,metric,value,iteration\"
		for (i = 0; i < 12; i++) printf \"%s,ops,%.4f,%d\\n\", c, m + (i % 2 ? 1 : -1), i }" >b.csv &&
	perfsift import -q b.csv >/dev/null &&
	test_expect_code 125 perfsift bisect judge --metric ops \
		--good "$(sha 0)" --bad "$(sha 63)" "$(sha 31)" >out &&
	grep "^$(sha 31 | cut -c1-12): between: mean .* (n=12)" out &&
	perfsift bisect suggest --metric ops --good "$(sha 0)" --bad "$(sha 63)" >out &&
	cat out &&
	grep "^31 .* between  c31$" out &&
	grep "63 candidates, 61 untested, 0 unknown, 1 between$" out &&
	grep "^next: test $(sha 32) (position 32), the middle of the 61 untested: c32$" out
'

test_expect_success 'git bisect run with judge finds c40' '
	rm -f "$TRASH/seed" &&
	export PERFSIFT_DB="$TRASH/run.db" &&
	perfsift commits import --repo repo >/dev/null &&
	at 0 5 && at 63 5 &&
	cat >step.sh <<-EOF &&
	#!/bin/sh
	# run by git bisect run in the repository: the benchmark, its import,
	# the verdict; up to 4 rounds of 3 runs while judge cannot tell
	sha=\$(git rev-parse HEAD)
	for round in 1 2 3 4; do
		"$TRASH/bench.sh" "\$sha" "\$(cat level)" >"$TRASH/r.csv" &&
		"$PERFSIFT" import -q "$TRASH/r.csv" >/dev/null || exit 128
		"$PERFSIFT" bisect judge --metric ops --good $(sha 0) \
			--bad $(sha 63) "\$sha"
		rc=\$?
		[ \$rc = 125 ] || exit \$rc
	done
	exit 125
	EOF
	chmod +x step.sh &&
	g=$(sha 0) b=$(sha 63) c40=$(sha 40) &&
	cd repo &&
	git bisect start "$b" "$g" >/dev/null &&
	git bisect run ../step.sh >../bisect.log 2>&1 || { cat ../bisect.log; exit 1; }
	cat ../bisect.log &&
	grep "^$c40 is the first bad commit" ../bisect.log &&
	git bisect reset >/dev/null 2>&1
'

test_expect_success 'plot trend --good --bad marks the bisection' '
	perfsift plot trend --metric ops --good "$(sha 0)" --bad "$(sha 63)" \
		--script >trend.gp &&
	grep "with points lc rgb \"#1a9850\" pt 9 ps 2.2 title \"bisect good (" trend.gp &&
	grep "with points lc rgb \"#d73027\" pt 7 ps 2.2 title \"bisect bad (" trend.gp &&
	grep "bisect $(sha 0 | cut -c1-7)..$(sha 63 | cut -c1-7), t-tests at 0.01" trend.gp &&
	perfsift plot trend --metric ops --good "$(sha 0)" --bad "$(sha 63)" -o trend.txt &&
	grep "bisect good ([0-9]*) *o$" trend.txt &&
	grep "bisect bad ([0-9]*) *X$" trend.txt &&
	test_expect_code 2 perfsift plot trend --metric ops --good "$(sha 0)" -o x.png &&
	test_expect_code 2 perfsift plot trend --metric ops --good "$(sha 63)" --bad "$(sha 0)" -o x.png &&
	test_expect_code 2 perfsift plot compare a b --good "$(sha 0)" --bad "$(sha 63)" -o x.png &&
	! test -e x.png
'

test_expect_success 'plot trend --script with the bisection marks: golden' '
	PERFSIFT_DB=$TRASH/golden.db &&
	perfsift commits import --repo repo >/dev/null &&
	for i in 0 20 39 40 50 63; do
		awk -v c="$(sha $i)" -v i=$i "BEGIN { print \"commit,metric,value,iteration\"
			for (r = 0; r < 4; r++)
				printf \"%s,ops,%d,%d\\n\", c, (i < 40 ? 1000 : 960) + (r * 7 + i) % 9 - 4, r }" >g.csv &&
		perfsift import -q g.csv >/dev/null || return 1
	done &&
	perfsift plot trend --metric ops --good "$(sha 0)" --bad "$(sha 63)" --script >trend.gp &&
	test_golden trend-bisect.gp trend.gp
'

test_expect_success 'bad input: clear errors, exit 2 or 3, and 128 from judge' '
	g=$(sha 0) b=$(sha 63) &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$b" --bad "$g" 2>err &&
	grep "comes after bad" err &&
	test_expect_code 128 perfsift bisect judge --metric ops --good "$b" --bad "$g" "$(sha 5)" 2>err &&
	grep "comes after bad" err &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$g" --bad "$g" 2>err &&
	grep "the same commit" err &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$g" --bad deadbeef 2>err &&
	grep "'"'"'deadbeef'"'"' is not a recorded commit" err &&
	test_expect_code 128 perfsift bisect judge --metric ops --good "$g" --bad "$b" deadbeef 2>err &&
	test_expect_code 2 perfsift bisect suggest --metric nosuch --good "$g" --bad "$b" 2>err &&
	grep "no sample of '"'"'nosuch'"'"'" err &&
	test_expect_code 128 perfsift bisect judge --metric nosuch --good "$g" --bad "$b" "$(sha 5)" &&
	test_expect_code 3 perfsift bisect suggest --metric ops --good "$g" --bad "$(sha 62)" 2>err &&
	grep "no run of ops at the bad commit $(sha 62 | cut -c1-12)" err &&
	test_expect_code 128 perfsift bisect judge --metric ops --good "$g" --bad "$b" "$(sha 61)" 2>err &&
	grep "no run of ops at $(sha 61 | cut -c1-12)" err &&
	test_expect_code 3 perfsift bisect suggest --metric ops --good "$g" --bad "$(sha 39)" 2>err &&
	cat err &&
	grep "do not differ at alpha 0.01" err &&
	grep "^hint: a change as large as the one seen (.*) needs about [0-9]* runs at each for 90% power at alpha 0.01$" err &&
	test_expect_code 128 perfsift bisect judge --metric ops --good "$g" --bad "$b" 2>err &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$g" 2>err &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$g" --bad "$b" --alpha 2 2>err &&
	test_expect_code 2 perfsift bisect frobnicate 2>err &&
	test_expect_code 128 perfsift bisect judge --json --metric ops --good "$g" --bad "$b" "$(sha 5)" 2>err
'

test_expect_success 'several series: the metric must name one' '
	printf "commit,metric,value,iteration,testcase\n%s,ops,1,0,other\n" "$(sha 0)" >o.csv &&
	perfsift import -q o.csv >/dev/null &&
	test_expect_code 2 perfsift bisect suggest --metric ops --good "$(sha 0)" --bad "$(sha 63)" 2>err &&
	cat err &&
	grep "matches more than one series" err &&
	grep "^    ops, testcase other$" err &&
	perfsift bisect suggest --metric ops --testcase "" --good "$(sha 0)" --bad "$(sha 63)" >out &&
	grep "^first bad commit: $(sha 40)" out
'

test_done
