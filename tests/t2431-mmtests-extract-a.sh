#!/bin/sh
# The MMTests extractors schbench, sembench, sockperf, stream and unixbench
# on every test directory of the three 2020 trees in ../shared/samples:
# `perfsift debug mmtests-extract` must print what a python re-extraction
# finds, written here straight from research/mmtests-2020-extractors.md
# (§3, §4, §5, §6, §8) with regular expressions over the raw logs: the
# same operations in the same order, with their directions, the same
# repetitions, values and file:line.  schbench on june12 must also give
# MMTests' own extract-mmtests output, op for op.  Then one corrupted log
# per extractor: an error naming file:line, exit status 3.
. "$(dirname "$0")/lib.sh"
need_samples

WL=$SAMPLES/mmtests/work-log
export WL

need_python3 'mmtests extractors against a python re-extraction'

cat >ref.py <<'PY'
# ref.py LOGS TEST: what MMTests 2020 extracts from LOGS (a test's logs/),
# printed as `perfsift debug mmtests-extract` prints it.
import gzip, os, re, sys

logs, test = sys.argv[1], sys.argv[2]
names = sorted(n[:-3] if n.endswith(".gz") else n for n in os.listdir(logs))
names = sorted(set(names))
out, ops = [], []

def lines(name):
    # gz-first, as MMTests opens logs
    p = os.path.join(logs, name)
    if os.path.exists(p + ".gz"):
        data = gzip.open(p + ".gz", "rt", errors="replace").read()
    else:
        data = open(p, errors="replace").read()
    return data.splitlines()

def add(op, rep, value, name, line, direction):
    if op not in [o for o, d in ops]:
        ops.append((op, direction))
    out.append((op, rep, "-", value, "%s:%d" % (name, line)))

def glob(pat):
    rx = re.compile("^" + re.escape(pat).replace(r"\*", ".*") + "$")
    return [n for n in names if rx.match(n)]   # byte order: lexical

def numeric(xs):
    # Perl: sort { $a <=> $b }, then uniq
    seen, res = set(), []
    for x in sorted(xs, key=float):
        if x not in seen:
            seen.add(x)
            res.append(x)
    return res

def workloads():
    return [w for w in lines("workloads")[0].split(" ") if w]

def rep_of(name):
    return int(re.search(r"-([0-9]+)\.[a-z]+$", name).group(1))

if test == "schbench":
    # §3: groups numeric; "[ \t*]+<d>.<d>th: <d>"; trailing 00 dropped
    groups = numeric(n[len("schbench-"):-len(".log")]
                     for n in glob("schbench-*.log"))
    for g in groups:
        name = "schbench-%s.log" % g
        for i, l in enumerate(lines(name), 1):
            m = re.search(r"[ \t*]+([0-9]+\.[0-9]+)th: ([0-9]+)", l)
            if m:
                pct = re.sub("00$", "", m.group(1))
                add("%sth-qrtle-%s" % (pct, g), 0, float(m.group(2)),
                    name, i, "lower")
elif test.startswith("sembench-"):
    # §4: T = last '-' field of W-*.log; W-T.log; "run time ... burns"
    wls = workloads()
    thr = numeric(n.split("-")[-1][:-len(".log")]
                  for w in wls for n in glob(w + "-*.log"))
    for w in wls:
        for t in thr:
            name = "%s-%s.log" % (w, t)
            for i, l in enumerate(lines(name), 1):
                m = re.search(r"run time.* seconds ([0-9]+) worker burns "
                              r"per second", l)
                if m:
                    add("sembench-%s-%s" % (w, t), 0, float(m.group(1)),
                        name, i, "higher")
elif test.startswith("sockperf-"):
    # §5: proto = 4th, size = 3rd field from the end; lexical -N files
    sizes, proto = [], None
    for n in glob("*-max-1.stdout"):
        f = n.split("-")
        proto = f[-4]
        sizes.append(f[-3])
    for s in numeric(sizes):
        for name in glob("%s-%s-max-*.stdout" % (proto, s)):
            for i, l in enumerate(lines(name), 1):
                m = re.search(r"Summary: BandWidth is.*\(([0-9.]+) Mbps\)", l)
                if m:
                    add(s, rep_of(name), float(m.group(1)), name, i, "higher")
elif test == "stream":
    # §6: copy, scale, add, triad: the first number after the lead
    for op in ("copy", "scale", "add", "triad"):
        ops.append((op, "higher"))
    for name in glob("stream-*.log"):
        for i, l in enumerate(lines(name), 1):
            m = re.match(r"^(Copy|Scale|Add|Triad):\s+([0-9.]*)\s", l + "\n")
            if m:
                add(m.group(1).lower(), rep_of(name), float(m.group(2)),
                    name, i, "higher")
elif test.startswith("unixbench-"):
    # §8: T = 2nd field from the end of W-*-1.log; RESULT of the index
    # line; syscall's module says nanoseconds: lower
    direction = "lower" if test == "unixbench-syscall" else "higher"
    wls = workloads()
    cop = numeric(n.split("-")[-2] for w in wls for n in glob(w + "-*-1.log"))
    rx = re.compile(r"^(Dhrystone 2 using register variables|Execl Throughput"
                    r"|Pipe Throughput|System Call Overhead|Process Creation)"
                    r" * ([0-9.]+) * ([0-9.]+) * ([0-9.]+)")
    for w in wls:
        for t in cop:
            for name in glob("%s-%s-*.log" % (w, t)):
                for i, l in enumerate(lines(name), 1):
                    m = rx.match(l)
                    if m:
                        add("unixbench-%s-%s" % (w, t), rep_of(name),
                            float(m.group(3)), name, i, direction)
else:
    sys.exit("no reference for " + test)

for op, rep, t, v, where in out:
    print("%s\t%d\t%s\t%r\t%s" % (op, rep, t, v, where))
print("# ops:" + ",".join(" %s (%s)" % od for od in ops))
PY

cat >cmp.py <<'PY'
# cmp.py EXPECT ACTUAL: the same lines, values compared as numbers;
# prints "<ops> ops, <values> values"
import sys

def rows(path):
    # the summary line is checked where the import is
    return [l.rstrip("\n").split("\t") for l in open(path)
            if not l.startswith("# summary: ")]

e, a = rows(sys.argv[1]), rows(sys.argv[2])
assert len(e) == len(a), (len(e), len(a))
for x, y in zip(e, a):
    if len(x) == 1:
        assert x == y, (x, y)
        continue
    assert len(y) == 5, y
    assert x[:3] == y[:3] and x[4] == y[4], (x, y)
    assert float(x[3]) == float(y[3]), (x, y)
assert e[-1][0].startswith("# ops:") and e[-1][0] != "# ops:", e[-1]
print("%d ops, %d values" % (e[-1][0].count("("), len(e) - 1))
PY

DATES="2020-06-03_1400 2020-06-12_1807 2020-06-14_0656"
TESTS="schbench/schbench sembench-futex/sembench-futex
sockperf-tcp-throughput/sockperf-tcp-throughput stream-omp-nodes/stream
unixbench/unixbench-dhry2reg unixbench/unixbench-execl unixbench/unixbench-pipe
unixbench/unixbench-spawn unixbench/unixbench-syscall"
export DATES TESTS

test_expect_success 'every test dir of the five on three dates: ops, reps, values, directions' '
	for d in $DATES; do
		for rt in $TESTS; do
			run=${rt%/*} t=${rt#*/}
			dir=$WL/log.ltccip8.$d/$run/iter-0/$t
			python3 ref.py "$dir/logs" "$t" >expect || return 1
			perfsift debug mmtests-extract "$dir" >actual 2>err ||
				{ cat err; return 1; }
			! test -s err || { cat err; return 1; }
			echo "$d $t: $(python3 cmp.py expect actual)" || return 1
		done
	done >counts &&
	cat counts &&
	cat >want <<-\EOF &&
	2020-06-03_1400 schbench: 42 ops, 42 values
	2020-06-03_1400 sembench-futex: 171 ops, 171 values
	2020-06-03_1400 sockperf-tcp-throughput: 5 ops, 50 values
	2020-06-03_1400 stream: 4 ops, 20 values
	2020-06-03_1400 unixbench-dhry2reg: 2 ops, 6 values
	2020-06-03_1400 unixbench-execl: 2 ops, 6 values
	2020-06-03_1400 unixbench-pipe: 2 ops, 6 values
	2020-06-03_1400 unixbench-spawn: 2 ops, 6 values
	2020-06-03_1400 unixbench-syscall: 2 ops, 6 values
	2020-06-12_1807 schbench: 49 ops, 49 values
	2020-06-12_1807 sembench-futex: 336 ops, 336 values
	2020-06-12_1807 sockperf-tcp-throughput: 5 ops, 50 values
	2020-06-12_1807 stream: 4 ops, 20 values
	2020-06-12_1807 unixbench-dhry2reg: 2 ops, 6 values
	2020-06-12_1807 unixbench-execl: 2 ops, 6 values
	2020-06-12_1807 unixbench-pipe: 2 ops, 6 values
	2020-06-12_1807 unixbench-spawn: 2 ops, 6 values
	2020-06-12_1807 unixbench-syscall: 2 ops, 6 values
	2020-06-14_0656 schbench: 49 ops, 49 values
	2020-06-14_0656 sembench-futex: 336 ops, 336 values
	2020-06-14_0656 sockperf-tcp-throughput: 5 ops, 50 values
	2020-06-14_0656 stream: 4 ops, 20 values
	2020-06-14_0656 unixbench-dhry2reg: 2 ops, 6 values
	2020-06-14_0656 unixbench-execl: 2 ops, 6 values
	2020-06-14_0656 unixbench-pipe: 2 ops, 6 values
	2020-06-14_0656 unixbench-spawn: 2 ops, 6 values
	2020-06-14_0656 unixbench-syscall: 2 ops, 6 values
	EOF
	test_cmp want counts
'

test_expect_success 'the directions: schbench lower, unixbench-syscall lower (the 2020 bug), the rest higher' '
	d=$WL/log.ltccip8.2020-06-03_1400 &&
	perfsift debug mmtests-extract $d/unixbench/iter-0/unixbench-syscall >s &&
	test_last_line "# ops: unixbench-syscall-1 (lower), unixbench-syscall-160 (lower)" s &&
	perfsift debug mmtests-extract $d/unixbench/iter-0/unixbench-pipe >p &&
	test_last_line "# ops: unixbench-pipe-1 (higher), unixbench-pipe-160 (higher)" p &&
	perfsift debug mmtests-extract $d/stream-omp-nodes/iter-0/stream >st &&
	test_last_line "# ops: copy (higher), scale (higher), add (higher), triad (higher)" st &&
	perfsift debug mmtests-extract $d/schbench/iter-0/schbench >sc &&
	tail -n 1 sc | grep "^# ops: 50.0th-qrtle-1 (lower), 75.0th-qrtle-1 (lower)," &&
	! tail -n 1 sc | grep higher
'

test_expect_success 'schbench june12 gives MMTests extract-mmtests output, op for op' '
	perfsift debug mmtests-extract \
		$WL/log.ltccip8.2020-06-12_1807/schbench/iter-0/schbench >got &&
	python3 - "$SAMPLES/mmtests/schbench-extract-mmtests-output.txt" got <<-\EOF
	import sys
	mm = [l.split() for l in open(sys.argv[1]) if l.strip()]
	assert mm[0] == ["Operation", "Lat"], mm[0]
	# op, iteration, value: Singleops print no sample number
	mm = [(f[0], float(f[2])) for f in mm[1:] if len(f) == 3 and f[1] == "0"]
	got = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
	assert got[-2] == ["# summary: Singleops:Lat"], got[-2]
	del got[-2]
	ops = got[-1][0]
	got = [(f[0], float(f[3])) for f in got[:-1] if f[1] == "0" and f[2] == "-"]
	assert len(mm) == 49 and mm == got, (len(mm), len(got))
	assert ops == "# ops: " + ", ".join("%s (lower)" % o for o, v in mm), ops
	print("49 ops as MMTests")
	EOF
'

# copy one test's logs into the trash directory: copy DATE RUN TEST
copy() {
	rm -rf "$3" && mkdir -p "$3" &&
	cp -R "$WL/log.ltccip8.$1/$2/iter-0/$3/logs" "$3/"
}

test_expect_success 'schbench: a corrupted latency is an error at file:line' '
	copy 2020-06-12_1807 schbench schbench &&
	sed -i "3s/54/x54/" schbench/logs/schbench-16.log &&
	test_expect_code 3 perfsift debug mmtests-extract schbench >out 2>err &&
	cat err &&
	grep "error: .*schbench/logs/schbench-16.log:3: expected .<percentile>th: <usec>., got .\\\\t75.0th: x54.$" err
'

test_expect_success 'schbench: a second block makes observations, t the block' '
	copy 2020-06-12_1807 schbench schbench &&
	cp schbench/logs/schbench-2.log block &&
	cat block >>schbench/logs/schbench-2.log &&
	perfsift debug mmtests-extract schbench >out &&
	grep -c "	schbench-2.log:" out >n && test "$(cat n)" = 14 &&
	grep "^50.0th-qrtle-2	0	0	14	schbench-2.log:2$" out &&
	grep "^50.0th-qrtle-2	0	1	14	schbench-2.log:11$" out &&
	grep "^99.9th-qrtle-2	0	1	92	schbench-2.log:17$" out &&
	grep "^50.0th-qrtle-1	0	-	11	schbench-1.log:2$" out &&
	test_last_line "$(perfsift debug mmtests-extract \
		$WL/log.ltccip8.2020-06-12_1807/schbench/iter-0/schbench | tail -n 1)" out
'

test_expect_success 'sembench: a corrupted burn rate is an error at file:line' '
	copy 2020-06-03_1400 sembench-futex sembench-futex &&
	sed -i "s/^run time 30 seconds 489491 /run time 30 seconds 48x491 /" \
		sembench-futex/logs/futex-12.log &&
	test_expect_code 3 perfsift debug mmtests-extract sembench-futex >out 2>err &&
	cat err &&
	grep "error: .*sembench-futex/logs/futex-12.log:5: expected .run time <s> seconds <N> worker burns per second., got .run time 30 seconds 48x491" err
'

test_expect_success 'sembench: a workload that lacks a thread count is an error (MMTests dies)' '
	copy 2020-06-03_1400 sembench-futex sembench-futex &&
	echo "futex sem" >sembench-futex/logs/workloads &&
	cp sembench-futex/logs/futex-2.log sembench-futex/logs/sem-2.log &&
	test_expect_code 3 perfsift debug mmtests-extract sembench-futex >out 2>err &&
	cat err &&
	grep "error: sembench-futex: no logs/sem-5.log: workload sem lacks thread count 5" err
'

test_expect_success 'sockperf: a corrupted bandwidth is an error at file:line' '
	copy 2020-06-12_1807 sockperf-tcp-throughput sockperf-tcp-throughput &&
	sed -i "s/(59.194 Mbps)/(59.1x94 Mbps)/" \
		sockperf-tcp-throughput/logs/tcp-14-max-1.stdout &&
	test_expect_code 3 perfsift debug mmtests-extract sockperf-tcp-throughput >out 2>err &&
	cat err &&
	grep "error: .*sockperf-tcp-throughput/logs/tcp-14-max-1.stdout:12: expected .Summary: BandWidth is <x> MBps (<Mbps> Mbps)., got .sockperf: Summary: BandWidth is 7.399 MBps (59.1x94 Mbps)" err
'

test_expect_success 'stream: a corrupted rate is an error at file:line; a missing one a warning' '
	copy 2020-06-12_1807 stream-omp-nodes stream &&
	cp stream/logs/stream-2.log keep &&
	sed -i "s/^Copy:           60337.6 /Copy:           603x37.6 /" stream/logs/stream-2.log &&
	test_expect_code 3 perfsift debug mmtests-extract stream >out 2>err &&
	cat err &&
	grep "error: .*stream/logs/stream-2.log:27: expected .Copy: <MB/s> <avg> <min> <max>., got .Copy:           603x37.6 " err &&
	grep -v "^Triad:" keep >stream/logs/stream-2.log &&
	perfsift debug mmtests-extract stream >out 2>err &&
	grep "warning: .*stream-2.log:0: stream-2.log: no .Triad:. line" err &&
	test $(grep -c "^triad	" out) = 4 && test $(grep -c "^copy	" out) = 5
'

test_expect_success 'unixbench: a corrupted index line is an error at file:line' '
	copy 2020-06-03_1400 unixbench unixbench-pipe &&
	sed -i "44s/584116.2/58x116.2/" unixbench-pipe/logs/pipe-1-1.log &&
	test_expect_code 3 perfsift debug mmtests-extract unixbench-pipe >out 2>err &&
	cat err &&
	grep "error: .*unixbench-pipe/logs/pipe-1-1.log:44: expected .Pipe Throughput <BASELINE> <RESULT> <INDEX>., got .Pipe Throughput  *12440.0  *58x116.2" err
'

test_expect_success 'unixbench: without logs/workloads the test name gives the workload' '
	copy 2020-06-03_1400 unixbench unixbench-syscall &&
	rm unixbench-syscall/logs/workloads &&
	perfsift debug mmtests-extract unixbench-syscall >out 2>err &&
	grep "warning: unixbench-syscall:0: no logs/workloads: the workload is .syscall." err &&
	perfsift debug mmtests-extract \
		$WL/log.ltccip8.2020-06-03_1400/unixbench/iter-0/unixbench-syscall >want &&
	test_cmp want out
'

test_expect_success 'import: a repetition is a run (stream: 5, unixbench-pipe: 3)' '
	rm -f r.db* &&
	perfsift --db r.db import -q $WL/log.ltccip8.2020-06-12_1807/stream-omp-nodes >out 2>&1 &&
	grep "5 runs" out &&
	sqlite3 r.db "SELECT summary FROM metrics WHERE name = '\''stream.copy'\''" >s &&
	test "$(cat s)" = "Singleops-mean:MB/sec" &&
	sqlite3 r.db "SELECT count(*) FROM samples s JOIN metrics m ON
		m.id = s.metric_id WHERE m.name = '\''stream.triad'\''" >n &&
	test "$(cat n)" = 5
'

test_done
