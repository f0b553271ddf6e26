#!/bin/sh
# The MMTests tree importer on the real work/log trees of
# ../shared/samples/mmtests/work-log (one machine, three dates, eight runs,
# twelve tests), and compare --format mmtests on them: every cell of the
# main tables checked against tests/mmtests-ref.py (MMTests 2020's
# statistics, percentages, star and layout, written again in python from
# research/mmtests-2020-extractors.md), the Duration table against
# tests-timestamp, the Ops table against /proc/vmstat deltas read here.
. "$(dirname "$0")/lib.sh"
need_samples
need_python3 'MMTests trees'

W=$SAMPLES/mmtests/work-log
D03=$W/log.ltccip8.2020-06-03_1400
D12=$W/log.ltccip8.2020-06-12_1807
D14=$W/log.ltccip8.2020-06-14_0656

test_expect_success 'a work/log imports every test of every run' '
	perfsift import --label june03 "$D03" >out03 &&
	perfsift import --label june12 "$D12" >out12 &&
	perfsift import --label june14 "$D14" >out14 &&
	for f in out03 out12 out14; do
		grep -c ": mmtests-tree, " $f >n &&
		test "$(cat n)" = 12 || { cat $f; exit 1; }
	done &&
	grep "blogbench test blogbench: mmtests-tree, 7 runs" out03 &&
	grep "unixbench test unixbench-pipe: mmtests-tree, 3 runs" out03 &&
	grep "sockperf-tcp-throughput test sockperf-tcp-throughput: mmtests-tree, 10 runs" out03 &&
	grep "imported 12 directories" out03
'

test_expect_success 're-importing changes nothing' '
	perfsift import --label june03 "$D03" >again &&
	test "$(grep -c ": already imported$" again)" = 12 &&
	grep "; 12 already imported" again
'

# the extractor's values of one run of a test, every iteration
dump() {	# RUNDIR TEST
	for it in "$1"/iter-*; do
		perfsift debug mmtests-extract --test "$2" "$it/$2" || return 1
	done
}

# every test: the 2020 main table, cell for cell
for t in blogbench:blogbench pgbench-timed-rw-small:pgbench \
	 schbench:schbench sembench-futex:sembench-futex \
	 sockperf-tcp-throughput:sockperf-tcp-throughput \
	 stream-omp-nodes:stream thpscale:thpscale \
	 unixbench:unixbench-dhry2reg unixbench:unixbench-syscall; do
	run=${t%%:*} test=${t#*:}
	test_expect_success "$test: compare --format mmtests = MMTests 2020's table" "
		dump '$D03/$run' $test >a.dump &&
		dump '$D12/$run' $test >b.dump &&
		dump '$D14/$run' $test >c.dump &&
		/usr/bin/python3 '$SRC/tests/mmtests-ref.py' a.dump b.dump c.dump \
			-- june03 june12 june14 >expect &&
		perfsift compare june03 june12 june14 --testcase $test \
			--format mmtests >full &&
		awk 'NR > 2 && /^\$/ { exit } NR > 2' full >actual &&
		test_cmp expect actual
	"
done

test_expect_success 'blogbench: the 2020 table as MMTests prints it' '
	perfsift compare june03 june12 --testcase blogbench --format mmtests \
		>out &&
	sed -n "3,7p" out >head &&
	cat >expect <<-\EOF
	                                     june03                 june12
	Min       WriteScore      273.00 (   0.00%)      321.00 (  17.58%)
	Min       ReadScore    523075.00 (   0.00%)   310166.00 ( -40.70%)
	Hmean     WriteScore      350.86 (   0.00%)      411.31 (  17.23%)
	Hmean     ReadScore    609803.26 (   0.00%)   365483.92 * -40.07%*
	EOF
	test_cmp expect head
'

test_expect_success 'the current style: HStddev, BHmean.95, 18 wide, CI star' '
	perfsift compare june03 june12 --testcase blogbench --format mmtests \
		--mmtests-style current >out &&
	grep "^HStddev   ReadScore" out &&
	grep "^BHmean.95 WriteScore" out &&
	! grep "BHmean-50" out &&
	# ReadScore -40%: the +-1.96 sigma bands overlap (ratio 0.68 in
	# research/mmtests.md §1.5), so no star
	printf "%-9s %-10s%18.2f (%7.2f%%)%18.2f (%7.2f%%)\n" Hmean ReadScore \
		609803.26 0 365483.92 -40.07 >expect &&
	grep "^Hmean     ReadScore" out >actual &&
	test_cmp expect actual
'

test_expect_success 'Duration of every test: tests-timestamp'"'"'s time line, no percentages' '
	for t in blogbench:blogbench pgbench-timed-rw-small:pgbench \
		 schbench:schbench sembench-futex:sembench-futex \
		 sockperf-tcp-throughput:sockperf-tcp-throughput \
		 stream-omp-nodes:stream thpscale:thpscale \
		 unixbench:unixbench-dhry2reg unixbench:unixbench-execl \
		 unixbench:unixbench-pipe unixbench:unixbench-spawn \
		 unixbench:unixbench-syscall; do
		run=${t%%:*} test=${t#*:}
		: >times &&
		for d in "$D03" "$D12"; do
			sed -n "s/^time :: $test \([^ ]*\) user \([^ ]*\) system \([^ ]*\) elapsed$/\1 \2 \3/p" \
				"$d/$run/iter-0/tests-timestamp" >>times
		done &&
		set -- $(cat times) &&
		test $# = 6 &&
		# "Duration" and the operations as wide as the longest
		printf "Duration %-7s%12.2f%12.2f\n" User $1 $4 System $2 $5 \
			Elapsed $3 $6 >expect &&
		perfsift compare june03 june12 --testcase $test \
			--format mmtests >out &&
		grep "^Duration" out >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'Ops of every test: the /proc/vmstat deltas of tests-sysstate.gz' '
	cat >ops.py <<-\PY &&
	import gzip, sys
	def deltas(path, test):
	    snap, cur, inside = {"b": {}, "a": {}}, None, False
	    for l in gzip.open(path, "rt"):
	        l = l.rstrip("\n")
	        if l.startswith("test begin :: " + test): inside = True; continue
	        if l.startswith("test end :: " + test): break
	        if not inside: continue
	        if l == "file start :: /proc/vmstat": cur = "b"; continue
	        if l == "file end :: /proc/vmstat": cur = "a"; continue
	        if l.startswith("file "): cur = None; continue
	        if cur:
	            k, v = l.split(" ")
	            snap[cur][k] = float(v)
	    return lambda k: snap["a"].get(k, 0) - snap["b"].get(k, 0) if k in snap["a"] else 0
	rows = []
	for p in sys.argv[2:]:
	    d = deltas(p, sys.argv[1])
	    h = d("numa_hint_faults")
	    rows.append([("Minor Faults", d("pgfault") - d("pgmajfault")),
	                 ("Major Faults", d("pgmajfault")),
	                 ("Normal allocs", d("pgalloc_normal")),
	                 ("Sector Writes", d("pgpgout")),
	                 ("Page migrate success", d("pgmigrate_success")),
	                 ("NUMA hint local percent", d("numa_hint_faults_local") * 100 / h if h else 100),
	                 ("AutoNUMA cost", (7 * d("numa_pte_updates") + 5000 * h + 19 * d("numa_pages_migrated")) / 1e6)])
	w = max(len(r[0]) for r in rows[0])
	for i, (name, _) in enumerate(rows[0]):
	    print("Ops %s%s" % (name, "".join("%15.2f" % r[i][1] for r in rows)))
	PY
	for t in blogbench:blogbench pgbench-timed-rw-small:pgbench \
		 schbench:schbench sembench-futex:sembench-futex \
		 sockperf-tcp-throughput:sockperf-tcp-throughput \
		 stream-omp-nodes:stream thpscale:thpscale \
		 unixbench:unixbench-dhry2reg unixbench:unixbench-syscall; do
		run=${t%%:*} test=${t#*:}
		/usr/bin/python3 ops.py $test \
			"$D03/$run/iter-0/tests-sysstate.gz" \
			"$D12/$run/iter-0/tests-sysstate.gz" >expect &&
		perfsift compare june03 june12 --testcase $test \
			--format mmtests >out &&
		: >ops.actual &&
		while read -r line; do
			name=$(echo "$line" | sed "s/^Ops \(.*[^ 0-9.]\) *[0-9.].*/\1/")
			grep "^Ops $name  " out | tr -s " " >>ops.actual
		done <expect &&
		tr -s " " <expect >expect.s &&
		test_cmp expect.s ops.actual || return 1
	done
'

test_expect_success 'directions as MMTests states them, not guessed from names' '
	perfsift metrics >m &&
	grep "^blogbench.Duration.System .* lower" m &&
	grep "^unixbench-syscall.unixbench-syscall-1 .* lower" m &&
	grep "^unixbench-pipe.unixbench-pipe-1 .* higher" m &&
	grep "^thpscale.fault-base-1 .* lower" m
'

test_expect_success 'monitors: vmstat and proc-vmstat series on the first run' '
	perfsift debug dump >dump &&
	grep -c "vmstat.cpu.sy" dump >n && test "$(cat n)" -gt 100 &&
	grep -q "proc-vmstat.pgfault" dump &&
	grep -q "mmtests-sysstate.proc-vmstat.pgfault" dump
'

# a tree of our own making from the blogbench run: copies, so that
# they can be broken
mkrun() {	# NAME
	mkdir -p "$1" && cp -r "$D03/blogbench/iter-0" "$1/iter-0"
}

test_expect_success 'a missing iteration: imported, with a warning naming it' '
	mkrun gap && cp -r gap/iter-0 gap/iter-2 &&
	perfsift --db gap.db import gap >out 2>err &&
	grep "gap: iter-1 is missing (there is an iter-2)" err &&
	grep "gap test blogbench: mmtests-tree, 14 runs" out
'

test_expect_success 'kernel and machine from kernel.version (uname -a)' '
	FIXLOG=$SRC/tests/data/mmtests-tree/work/log &&
	perfsift --db fix.db import "$FIXLOG" >out &&
	grep "6.1-vanilla test kernbench: mmtests-tree, 6 runs" out &&
	perfsift --db fix.db runs --testcase kernbench >runs &&
	grep -c "6.1-vanilla  6.1.0-vanilla  -       bench01" runs >n &&
	test "$(cat n)" = 6 &&
	grep -c "6.1-patched  6.1.0-patched  -       bench01" runs >n &&
	test "$(cat n)" = 3 &&
	perfsift --db fix.db compare 6.1-vanilla 6.1-patched --testcase kernbench \
		--format mmtests >cmp &&
	grep "^Amean     Elapsed-2" cmp
'

test_expect_success 'iterations past iter-9: numeric gaps only, lexical reading' '
	FIX=$SRC/tests/data/mmtests-tree/work/log/6.1-patched &&
	mkdir many &&
	for i in 0 1 2 3 4 6 7 8 9 10 11; do
		cp -r "$FIX/iter-0" many/iter-$i || return 1
	done &&
	perfsift --db many.db import many >out 2>err &&
	# once per test: kernbench, ebizzy, hackbench
	test "$(grep -c "is missing" err)" = 3 &&
	grep "many: iter-5 is missing (there is an iter-11)" err &&
	grep "many test kernbench: mmtests-tree, 33 runs" out
'

test_expect_success 'a log line that does not parse: path:line, nothing kept' '
	mkrun bad &&
	sed -i "s/^Final score for reads :.*/Final score for reads :       12x4/" \
		bad/iter-0/blogbench/logs/blogbench-3.log &&
	test_expect_code 3 perfsift --db bad.db import bad >out 2>err &&
	grep "bad/iter-0/blogbench/logs/blogbench-3.log:44: expected" err &&
	perfsift --db bad.db runs >runs &&
	! grep blogbench runs
'

test_expect_success 'a value given twice in one repetition: path:line of both' '
	mkrun twice &&
	f=twice/iter-0/blogbench/logs/blogbench-2.log &&
	sed -n "/^Final score for writes/p" $f >>$f &&
	test_expect_code 3 perfsift --db twice.db import twice >out 2>err &&
	grep "blogbench-2.log:[0-9]*: a second value of WriteScore for repetition 2 (the first at .*blogbench-2.log:43)" err &&
	test_expect_code 3 perfsift debug mmtests-extract twice/iter-0/blogbench >out 2>err &&
	grep "blogbench-2.log:[0-9]*: a second value of WriteScore for repetition 2 (the first at line 43)" err
'

test_expect_success 'a truncated gz: an error naming it, nothing half-imported' '
	mkrun cut &&
	f=cut/iter-0/proc-vmstat-blogbench.gz &&
	head -c 20000 $f >t && mv t $f &&
	test_expect_code 3 perfsift --db cut.db import cut >out 2>err &&
	grep "proc-vmstat-blogbench.gz" err &&
	perfsift --db cut.db runs >runs &&
	! grep blogbench runs
'

test_expect_success 'a test with no extractor: skipped and counted, not an error' '
	mkrun unk &&
	cp -r unk/iter-0/blogbench unk/iter-0/frobench &&
	perfsift --db unk.db import unk >out 2>err &&
	grep "unk test frobench: skipped: no extractor for this test" out &&
	grep "test .frobench.: perfsift has no extractor" err &&
	grep "unk test blogbench: mmtests-tree, 7 runs" out
'

test_done
