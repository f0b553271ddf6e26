#!/bin/sh
# perfsift commits import: the commit order of a temporary git repository
# recorded, short shas (robot emails give 10 digits) linked to full ones,
# and regressions in that order naming the last good and first bad
# commits of a step planted at c6.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
export PY

# results of commit c$1: 8 runs of x_ops, ~100 before c6 and ~80 from it
# (8, not 5: the exact U test of 5 + 5 cannot go below p = 0.0079, too
# little for 9 pairs under Benjamini-Hochberg)
results() {
	awk -v c="$(sha "$1" | cut -c1-10)" -v i="$1" 'BEGIN {
		srand(1000 + i); m = i < 6 ? 100 : 80
		print "commit,metric,value,iteration"
		for (r = 0; r < 8; r++)
			printf "%s,x_ops,%.3f,%d\n", c, m + (rand() - 0.5) * 2, r
	}' >"c$1.csv"
}

test_expect_success 'a repository of 10 commits; results of each, c8 before c2' '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 10 &&
	for i in 1 8 2 3 4 5 6 7 9 10; do
		results $i && perfsift import -q c$i.csv || return 1
	done &&
	test "$(sqlite3 test.db "SELECT count(*) FROM variants
		WHERE length(commit_sha) = 10")" = 10
'

test_expect_success 'commits import records order, parents, subjects, dates' '
	perfsift commits import --repo repo >out &&
	echo "recorded 10 commits (10 new), linked 10 variants" >expect &&
	test_cmp expect out &&
	sqlite3 test.db "SELECT position, subject, date - 1700000000
		FROM commits ORDER BY position" >got &&
	seq 1 10 | awk "{ print \$1 - 1 \"|c\" \$1 \"|\" \$1 }" >want &&
	test_cmp want got &&
	test "$(sqlite3 test.db "SELECT parents FROM commits
		WHERE position = 5")" = "$(sha 5)" &&
	test "$(sqlite3 test.db "SELECT parents FROM commits
		WHERE position = 0")" = "" &&
	test "$(sqlite3 test.db "SELECT sha FROM commits
		WHERE position = 9")" = "$(sha 10)"
'

test_expect_success 'variants linked to the full shas; labels kept' '
	test "$(sqlite3 test.db "SELECT commit_sha FROM variants
		WHERE label = '"'"'$(sha 6 | cut -c1-10)'"'"'")" = "$(sha 6)" &&
	test "$(sqlite3 test.db "SELECT count(*) FROM variants v
		JOIN commits c ON c.sha = v.commit_sha")" = 10 &&
	test_db_ok
'

test_expect_success 'regressions in git order: last good c5, first bad c6' '
	perfsift regressions >out &&
	grep -x "1 regression among 10 variants (commit order); 9 metric comparisons" out &&
	# variants named by their shas: the pair is the commits, no more
	# columns for them, and the table fits in 100 columns
	grep "^$(sha 6 | cut -c1-10)  $(sha 5 | cut -c1-10) .* x_ops .* mwu$" out &&
	! grep -q "LAST GOOD" out &&
	test "$(awk "length(\$0) > 100" out)" = "" &&
	grep -x "  $(sha 5 | cut -c1-12)  c5" out &&
	grep -x "  $(sha 6 | cut -c1-12)  c6" out &&
	perfsift regressions --order git --json >out.json &&
	$PY -c "
import json, sys
d = json.load(open(\"out.json\"))
assert d[\"order\"] == \"commit\", d
r = d[\"regressions\"]
assert len(r) == 1, r
assert r[0][\"last_good\"] == {\"commit\": \"$(sha 5)\", \"subject\": \"c5\"}, r
assert r[0][\"first_bad\"] == {\"commit\": \"$(sha 6)\", \"subject\": \"c6\"}, r
"
'

test_expect_success '--order import: c8 was imported after c1, a drop there too' '
	perfsift regressions --order import --json >out.json &&
	$PY -c "
import json
d = json.load(open(\"out.json\"))
assert d[\"order\"] == \"import\", d
pairs = sorted((r[\"last_good\"][\"subject\"], r[\"first_bad\"][\"subject\"])
	       for r in d[\"regressions\"])
assert pairs == [(\"c1\", \"c8\"), (\"c5\", \"c6\")], pairs
"
'

test_expect_success 're-running adds nothing; 2 more commits are recorded after' '
	perfsift commits import --repo repo >out &&
	echo "recorded 10 commits (0 new), linked 0 variants" >expect &&
	test_cmp expect out &&
	make_commits 11 12 &&
	perfsift commits import --repo repo >out &&
	echo "recorded 12 commits (2 new), linked 0 variants" >expect &&
	test_cmp expect out &&
	sqlite3 test.db "SELECT subject FROM commits ORDER BY position" >got &&
	seq 1 12 | sed "s/^/c/" >want &&
	test_cmp want got
'

test_expect_success 'older commits recorded later go before (order renumbered)' '
	perfsift --db r.db commits import --repo repo HEAD~4..HEAD >out &&
	grep -x "recorded 4 commits (4 new), linked 0 variants" out &&
	perfsift --db r.db commits import --repo repo HEAD~8..HEAD~5 &&
	perfsift --db r.db commits import --repo repo HEAD~6..HEAD~3 >out &&
	grep -x "recorded 3 commits (1 new, order renumbered), linked 0 variants" out &&
	sqlite3 r.db "SELECT subject FROM commits ORDER BY position" >got &&
	seq 5 12 | sed "s/^/c/" >want &&
	test_cmp want got &&
	sqlite3 r.db "SELECT sha, subject FROM commits ORDER BY position" \
		| tr "|" " " >got &&
	for i in $(seq 5 12); do echo "$(sha $i) c$i"; done >want &&
	test_cmp want got
'

test_expect_success 'a short sha whose full variant exists is merged into it' '
	printf "commit,label,metric,value\n%s,L,y_ops,1\n" "$(sha 3 | cut -c1-8)" >s.csv &&
	printf "commit,label,metric,value\n%s,L,y_ops,2\n" "$(sha 3)" >f.csv &&
	perfsift --db m.db import -q s.csv &&
	perfsift --db m.db import -q f.csv &&
	test "$(sqlite3 m.db "SELECT count(*) FROM variants")" = 2 &&
	perfsift --db m.db commits import --repo repo >out &&
	grep "linked 1 variant (1 merged into existing ones)" out &&
	test "$(sqlite3 m.db "SELECT count(*) FROM variants")" = 1 &&
	test "$(sqlite3 m.db "SELECT count(*) FROM runs r JOIN variants v
		ON v.id = r.variant_id WHERE v.commit_sha = '"'"'$(sha 3)'"'"'")" = 2
'

test_expect_success '--order git with a variant of no recorded commit: exit 3' '
	printf "label,metric,value\nnocommit,x_ops,1\n" >n.csv &&
	perfsift --db m.db import -q n.csv &&
	test_expect_code 3 perfsift --db m.db regressions --order git 2>err &&
	grep "no recorded commit for these variants" err &&
	grep -x "    nocommit" err &&
	perfsift --db m.db regressions >out &&
	grep "(import order)" out &&
	test_expect_code 2 perfsift --db m.db regressions --order time
'

test_expect_success 'bad input: not a repository, a bad range, no git, usage' '
	mkdir plain &&
	test_expect_code 2 perfsift commits import --repo plain 2>err &&
	grep "error: '"'"'plain'"'"' is not a git repository" err &&
	grep "git: fatal: not a git repository" err &&
	test_expect_code 2 perfsift commits import --repo repo no-such-rev 2>err &&
	grep "git log failed" err &&
	grep "no-such-rev" err &&
	test_expect_code 2 perfsift commits import --repo repo --bad 2>err &&
	test_expect_code 2 perfsift commits import repo 2>err &&
	grep "repo PATH is needed" err &&
	test_expect_code 2 perfsift commits 2>err &&
	test_expect_code 2 perfsift commits export 2>err &&
	grep "unknown subcommand" err &&
	(PATH=/nonexistent && export PATH &&
	 test_expect_code 4 "$PERFSIFT" commits import --repo repo 2>err) &&
	grep "git is needed" err &&
	test "$(sqlite3 test.db "SELECT count(*) FROM commits")" = 12
'

test_done
