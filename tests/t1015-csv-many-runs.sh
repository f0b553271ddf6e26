#!/bin/sh
# A CSV of one metric and no iteration column makes a run of every row
# (the k-th row of a metric goes to the variant's k-th run): 160,000
# rows are 160,000 runs.  They import whole, each run its own value, in
# constant time and memory a run: under 64 MiB at its peak (a memory
# bound is not a timing: it is deterministic enough for a test).
. "$(dirname "$0")/lib.sh"

need_python3 'the peak RSS of an import'

test_expect_success '160,000 one-row runs of one variant, and of an iteration column' '
	awk "BEGIN { print \"metric,value,label\";
		for (i = 0; i < 160000; i++) printf \"z.bw,%d,A\n\", i + 1 }" \
		>runs.csv &&
	awk "BEGIN { print \"metric,value,label,iteration\";
		for (i = 0; i < 160000; i++)
			printf \"z.bw,%d,B,%d\n\", i + 1, 159999 - i }" >iter.csv &&
	peak_rss_kib out "$PERFSIFT" --db r.db import runs.csv >rss 2>err &&
	test "$(cut -d" " -f2 rss)" = 0 &&
	test_cmp /dev/null err &&
	grep -q "^imported 1 file: 160000 runs, 160000 samples" out &&
	peak_rss_kib out2 "$PERFSIFT" --db r.db import iter.csv >rss2 2>err &&
	test "$(cut -d" " -f2 rss2)" = 0 &&
	grep -q "^imported 1 file: 160000 runs, 160000 samples" out2 &&
	perfsift --db r.db show A --json >a.json &&
	perfsift --db r.db show B --json >b.json &&
	/usr/bin/python3 - <<-\PY
	import json
	# every run holds one value: A's k-th row in its run k, B's in the
	# run of its iteration (written backwards)
	for f, label in (("a.json", "A"), ("b.json", "B")):
	    runs = json.load(open(f))["runs"]
	    assert len(runs) == 160000, len(runs)
	    got = sorted((r["iteration"], r["values"]["z.bw"]) for r in runs)
	    for it, v in got:
	        want = it + 1 if label == "A" else 160000 - it
	        assert v == want and len(got) == 160000, (label, it, v)
	    assert [it for it, _ in got] == list(range(160000)), label
	PY
'

if grep -q __asan_init "$PERFSIFT" 2>/dev/null; then
	test_skip 'peak RSS under 64 MiB' 'a sanitizer build'
else
	test_expect_success 'peak RSS under 64 MiB' '
		test "$(cut -d" " -f1 rss)" -lt 65536 &&
		test "$(cut -d" " -f1 rss2)" -lt 65536
	'
	say "# peak RSS $(cut -d" " -f1 rss) and $(cut -d" " -f1 rss2) KiB"
fi

test_done
