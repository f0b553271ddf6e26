#!/bin/sh
# perfsift watch: the change points that the runs imported since the last
# watch create or move.  A seeded series of 50 commits, 3 runs each,
# appended a commit at a time (import, commits import, watch, ...):
# after each step the change points watch reported so far, applied in
# order (new: added, moved: from -> to, gone: removed), must be those of
# 'changepoints --window 50' on the whole series, and watch's exit status
# 1 exactly at the steps whose change points include a commit that the
# step before had none at (11 of the 50; u_shift, one run a commit, two
# small steps 3 commits apart, has change points that move: 5 times).
# Then the text report, --mail through tests/smtpd.py, a failed mail
# that leaves the state as it was, and the usual errors; and the same
# report and state on a PostgreSQL server.
. "$(dirname "$0")/lib.sh"
need_python3 'watch'

N=50
results() {
	awk -v c="$(sha "$1" | cut -c1-10)" -v i="$1" 'BEGIN {
		srand(5040 + i)
		print "commit,metric,value,iteration"
		for (r = 0; r < 3; r++) {
			g = 0
			for (k = 0; k < 6; k++) g += rand()
			m = i < 10 ? 100 : i < 22 ? 85 : i < 35 ? 95 : 75
			printf "%s,x_ops,%.4f,%d\n", c, m + (g - 3) * 3, r
			printf "%s,y_lat_us,%.4f,%d\n", c, (i < 30 ? 40 : 44) + (rand() - 0.5) * 2, r
			printf "%s,z_flat,%.4f,%d\n", c, 10 + (rand() - 0.5), r
			g = 0
			for (k = 0; k < 6; k++) g += rand()
			printf "%s,v_small,%.4f,%d\n", c, (i < 25 ? 20 : 21.2) + (g - 3) * 1.4, r
			if (r == 0) {
				g = 0
				for (k = 0; k < 6; k++) g += rand()
				printf "%s,u_shift,%.4f,0\n", c, (i < 20 ? 100 : i < 23 ? 97 : 94) + (g - 3) * 2.5
			}
			w = i < 15 ? 50 : i < 25 ? 50 + (i - 14) * 2 : 70
			printf "%s,w_ramp,%.4f,%d\n", c, w + (rand() - 0.5), r
		}
	}' >"c$1.csv"
}

test_expect_success "a repository of $N commits" '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 $N &&
	for i in $(seq 1 $N); do sha $i; done >shas
'

test_expect_success "$N steps: import, watch; the sum of the reports is changepoints'" '
	for i in $(seq 1 $N); do
		results $i &&
		perfsift import -q c$i.csv >/dev/null &&
		perfsift commits import --repo repo >/dev/null || return 1
		rc=0
		perfsift watch --json >w$i.json || rc=$?
		echo $rc >rc$i
		perfsift changepoints --metric "*" --window 50 --json >cp$i.json ||
			return 1
	done &&
	/usr/bin/python3 - "$N" <<-\PY
	import json, sys
	n = int(sys.argv[1])
	state = {}
	key = lambda s: (s["metric"], s["testcase"], s["params"], s["machine"])
	prev = {}
	ones = moves = 0
	for i in range(1, n + 1):
	    w = json.load(open("w%d.json" % i))
	    rc = int(open("rc%d" % i).read())
	    for s in w["series"]:
	        pts = state.setdefault(key(s), set())
	        for g in s["gone"]:
	            pts.remove(g["commit"])
	        for c in s["changepoints"]:
	            if c["kind"] == "moved":
	                pts.remove(c["from"])
	                moves += 1
	            else:
	                assert c["kind"] == "new" and c["from"] is None, c
	            assert c["commit"] not in pts, (i, c)
	            pts.add(c["commit"])
	    cp = json.load(open("cp%d.json" % i))
	    full = {key(s): {c["commit"]: c["p"] for c in s["changepoints"]}
	            for s in cp["series"]}
	    for k in set(full) | set(state):
	        got = state.get(k, set())
	        assert got == set(full.get(k, {})), (i, k, got, full.get(k))
	    # the p-values reported are those of the full computation
	    for s in w["series"]:
	        for c in s["changepoints"]:
	            f = full[key(s)][c["commit"]]
	            assert abs(c["p"] - f) <= 1e-12 * f, (i, c, f)
	    appeared = any(set(full[k]) - set(prev.get(k, {})) for k in full)
	    assert rc == (1 if appeared else 0), (i, rc, appeared)
	    assert w["new_or_moved"] == sum(len(s["changepoints"])
	                                    for s in w["series"]), w
	    ones += rc
	    prev = full
	assert (ones, moves) == (11, 5), (ones, moves)
	fin = {k: sorted(v) for k, v in state.items() if v}
	assert len(fin[("x_ops", "", "", "")]) >= 3, fin
	assert ("z_flat", "", "", "") not in fin, fin
	PY
'

test_expect_success 'watch again without new runs: nothing, exit 0' '
	perfsift watch >out &&
	cat out &&
	echo "0 change points new or moved in 0 of 6 series (0 new runs)" >expect &&
	test_cmp expect out
'
# w.db: x_ops alone, watched in three goes
watch_db() {
	"$PERFSIFT" --db w.db "$@"
}
import_range() {
	for i in $(seq "$1" "$2"); do
		grep -e "^commit" -e ",x_ops," c$i.csv >x$i.csv &&
		watch_db import -q x$i.csv >/dev/null || return 1
	done &&
	watch_db commits import --repo repo >/dev/null
}

test_expect_success 'text: the first watch of a series reports its change points as new' '
	import_range 1 20 &&
	rc=0 &&
	watch_db watch --metric x_ops >out || rc=$?
	cat out &&
	test $rc = 1 &&
	grep "^60 runs at 20 commits, 60 new; 1 change point new or moved, 0 gone, 1 in all$" out &&
	grep "^new   $(sha 10 | cut -c1-12)  $(sha 9 | cut -c1-12)  -  " out &&
	grep "^1 change point new or moved in 1 of 1 series (60 new runs)$" out
'

if /usr/bin/python3 -c "import aiosmtpd" 2>/dev/null; then
	smtpd_start plain
	have_smtpd=1
else
	have_smtpd=
fi

test_expect_success '--mail: the report sent through the mail path' '
	test -n "$have_smtpd" || { echo "no python3-aiosmtpd: skipped"; return 0; }
	port=$(smtpd_port plain) &&
	import_range 21 30 &&
	rc=0 &&
	watch_db watch --metric x_ops --mail --from w@example.org \
		--to list@example.org --smtp smtp://127.0.0.1:$port >out 2>err || rc=$?
	cat out err &&
	test $rc = 1 &&
	grep "^sent to 1 recipient via smtp://127.0.0.1:$port" err &&
	test "$(ls plain | grep -c "\.eml$")" = 1 &&
	eml=$(ls plain/*.eml) &&
	grep "^Subject: perfsift watch: 1 change point new or moved" "$eml" &&
	grep "^new   $(sha 22 | cut -c1-12)  $(sha 21 | cut -c1-12)  -  " "$eml"
'

test_expect_success 'a mail that fails: exit 4, the state as it was, reported again' '
	import_range 31 50 &&
	sqlite3 w.db "SELECT commit_sha FROM watch_points ORDER BY seq" >before &&
	rc=0 &&
	watch_db watch --metric x_ops --mail --from w@example.org \
		--to list@example.org --smtp smtp://127.0.0.1:1 >out 2>err || rc=$?
	cat out err &&
	test $rc = 4 &&
	test ! -s out &&
	sqlite3 w.db "SELECT commit_sha FROM watch_points ORDER BY seq" >after &&
	test_cmp before after &&
	test "$(sqlite3 w.db "SELECT runs FROM watch_series")" = 90 &&
	rc=0 &&
	watch_db watch --metric x_ops >out || rc=$?
	cat out &&
	test $rc = 1 &&
	grep "^150 runs at 50 commits, 60 new; 1 change point new or moved, 0 gone, 3 in all$" out &&
	grep "^new   $(sha 35 | cut -c1-12)  $(sha 34 | cut -c1-12)  -  " out &&
	sqlite3 w.db "SELECT commit_sha FROM watch_points ORDER BY seq" >after &&
	printf "%s\n" "$(sha 10)" "$(sha 22)" "$(sha 35)" >expect &&
	test_cmp expect after
'

test_expect_success 'errors: no such metric, mail options without --mail, a bad window (exit 2)' '
	rc=0 && watch_db watch --metric nope 2>err || rc=$?
	test $rc = 2 && grep "no sample of the metrics asked for" err &&
	rc=0 && watch_db watch --to a@example.org 2>err || rc=$?
	test $rc = 2 && grep "are for --mail" err &&
	rc=0 && watch_db watch --window 3 2>err || rc=$?
	test $rc = 2 && grep "window" err &&
	rc=0 && watch_db watch --mail --from a@example.org 2>err || rc=$?
	test $rc = 2 && grep "to whom" err
'
# the same on a PostgreSQL server (tests/pg.sh's throwaway one), when
# its binaries are installed
. "$SRC/tests/pg.sh"
PG_BINDIR=$(pg_find_bindir)
if [ -n "$PG_BINDIR" ]; then
	smtpd_stop
	export PG_BINDIR
	pg_start
	PGURL="postgresql:///perfsift?host=$PGHOST&port=$PGPORT&user=postgres"
	test_expect_success 'on a server: the same report, the same state' '
		pg_psql -d postgres -c "CREATE DATABASE perfsift" >/dev/null &&
		for db in "$PGURL" p.db; do
			for i in $(seq 1 30); do
				"$PERFSIFT" --db "$db" import -q x$i.csv >/dev/null ||
					return 1
			done &&
			"$PERFSIFT" --db "$db" commits import --repo repo >/dev/null &&
			"$PERFSIFT" --db "$db" watch --metric x_ops >/dev/null
			test $? = 1 || return 1
			for i in $(seq 31 50); do
				"$PERFSIFT" --db "$db" import -q x$i.csv >/dev/null ||
					return 1
			done &&
			"$PERFSIFT" --db "$db" commits import --repo repo >/dev/null
			rc=0
			"$PERFSIFT" --db "$db" watch --metric x_ops --json >"$(echo "$db" | cut -c1-4).json" ||
				rc=$?
			test $rc = 1 || return 1
		done &&
		test_cmp p.db.json post.json &&
		grep "\"commit\": \"$(sha 35)\"" post.json
	'
fi
test_done
