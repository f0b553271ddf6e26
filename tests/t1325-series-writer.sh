#!/bin/sh
# The procfs series writer (lib/store/series.c, series_buf_async()): a
# thread that adds a monitor's points while the parser reads on.  It
# takes a series' source and path from the import when it first meets
# its metric, so it must end with the member that started it: the next
# member of the same run (an MMTests test's vmstat output after its
# proc-vmstat) has its own source, threads or not.
. "$(dirname "$0")/lib.sh"
need_samples

W=$SAMPLES/mmtests/work-log

# the derived vmstat.* samples of every run, by whether their source is
# a vmstat-<test> member
by_source() {
	sqlite3 "$1" "SELECT o.path LIKE 'iter-0/vmstat-%', count(*)
		FROM samples s JOIN metrics m ON m.id = s.metric_id
		JOIN sources o ON o.id = s.source_id
		WHERE m.name LIKE 'vmstat.%' AND s.derived = 1 GROUP BY 1"
}

test_expect_success 'an MMTests run: the series of vmstat-<test> keep their source' '
	perfsift --db t.db import -q "$W" >/dev/null 2>&1 &&
	by_source t.db >got &&
	echo "1|612" >want &&
	test_cmp want got
'

test_expect_success 'the same rows with one thread' '
	PERFSIFT_THREADS=1 perfsift --db one.db import -q "$W" >/dev/null 2>&1 &&
	by_source one.db >got1 &&
	test_cmp want got1 &&
	for q in "SELECT run_id, metric_id, value, line, derived, source_id
			FROM samples ORDER BY 1, 2" \
		 "SELECT run_id, metric_id, chunk, n, hex(points), source_id,
			line FROM series ORDER BY 1, 2, 3"; do
		sqlite3 t.db "$q" >a && sqlite3 one.db "$q" >b &&
		test_cmp a b || return 1
	done
'

test_done
