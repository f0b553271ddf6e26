#!/bin/sh
# The MMTests extractors of pgbench, thpscale, kernbench, ebizzy and
# hackbench (importers/mmtests/), through `perfsift debug mmtests-extract`:
# every value it prints (operation, order, repetition, t, value,
# file:line) against a re-extraction written here in python straight
# from the rules of research/mmtests-2020-extractors.md §2 and §7
# (pgbench, thpscale, on the three dates of ../shared/samples) and of
# research/mmtests.md §3.2 and MMTests' 2020 ExtractHackbench (kernbench,
# ebizzy, hackbench, on the hand-made tree tests/data/mmtests-tree).
# Then the tree imported, and bad input refused with file:line.
. "$(dirname "$0")/lib.sh"

FIX=$SRC/tests/data/mmtests-tree/work/log
WL=$SAMPLES/mmtests/work-log
DATES="log.ltccip8.2020-06-03_1400 log.ltccip8.2020-06-12_1807
log.ltccip8.2020-06-14_0656"
export FIX WL

need_python3 'mmtests extractors b'
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

cat >check.py <<'PY'
# check.py BENCH LOGDIR ACTUAL: re-extract LOGDIR as MMTests does and
# compare with ACTUAL (perfsift debug mmtests-extract); print one line
# of facts per operation ("op n first-t") on stdout, differences on
# stderr, exit 1 if any.
import gzip, math, os, re, sys

bench, logdir, actual = sys.argv[1:4]
names = sorted(os.listdir(logdir))
exp = {}        # op -> [(rep, t, value, "file:line")]
order = []      # the declared operations, in order


def add(op, rep, t, v, where):
    if op not in exp:
        exp[op] = []
        if op not in order:
            order.append(op)
    exp[op].append((rep, t, v, where))


def read(name):
    """MMTests opens X.gz first; the file name printed is the one read;
    a missing file reads as empty, as MMTests' open_log gives nothing."""
    path = os.path.join(logdir, name)
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rt") as f:
            return name + ".gz", f.read().splitlines()
    if not os.path.exists(path):
        return name, []
    with open(path) as f:
        return name, f.read().splitlines()


if bench == "pgbench":
    direction = "higher"
    # §2: pgbench-*.log on disk (not .gz), clients sorted numerically
    clients = sorted(int(m.group(1)) for n in names
                     for m in [re.fullmatch(r"pgbench-(\d+)\.log", n)] if m)
    for c in clients:
        fn, lines = read("pgbench-transactions-%d.log" % c)
        start = float(lines[0].split()[0]) if lines else 0
        got = 0
        # lines 1-9 skipped; groups of 4 from line 10; partial dropped
        for first in range(10, len(lines) - 2, 4):
            grp = lines[first - 1:first + 3]
            if len(grp) < 4:
                break
            v = sum(float(l.split()[1]) for l in grp) / 4
            t = float(grp[-1].split()[0]) - start
            add(str(c), 0, t, v if v != 0 else 1.0, "%s:%d" % (fn, first + 3))
            got += 1
        print("pgbench-client %d lines %d samples %d" % (c, len(lines), got))
        if not got:
            fn, lines = read("pgbench-%d.log" % c)
            for i, l in enumerate(lines, 1):
                m = re.match(r"^tps = ([0-9.]+) \(including", l)
                if m:
                    add(str(c), 0, None, float(m.group(1)), "%s:%d" % (fn, i))
elif bench == "thpscale":
    direction = "lower"
    # §7: threads-*.log.gz, numeric; explicit order base, huge, both
    clients = sorted(int(m.group(1)) for n in names
                     for m in [re.fullmatch(r"threads-(\d+)\.log\.gz", n)] if m)
    order = ["fault-%s-%d" % (k, c) for k in ("base", "huge", "both")
             for c in clients]
    for c in clients:
        fn, lines = read("threads-%d.log" % c)
        seen = set()
        for i, l in enumerate(lines, 1):
            if l.startswith("fault"):
                f = l.split()
                add("fault-%s-%d" % (f[2], c), 0, float(f[4]), float(f[3]),
                    "%s:%d" % (fn, i))
                add("fault-both-%d" % c, 0, float(f[4]), float(f[3]),
                    "%s:%d" % (fn, i))
                seen.add(f[2])
        for k in ("base", "huge"):
            if k not in seen:       # MMTests' dummy zero
                add("fault-%s-%d" % (k, c), 0, 0.0, 0.0, "%s:0" % fn)
elif bench == "kernbench":
    direction = "lower"
    # time-T-N; T from the time-*-1 files; sorted Elapsed, System, User
    files = [(int(m.group(1)), int(m.group(2)), n) for n in names
             for m in [re.fullmatch(r"time-(\d+)-(\d+)", n)] if m]
    threads = sorted({t for t, r, n in files if r == 1})
    order = ["%s-%d" % (m, t) for m in ("Elapsed", "System", "User")
             for t in threads]
    for t, r, n in sorted(files):
        if t not in threads:
            continue
        fn, lines = read(n)
        for i, l in enumerate(lines, 1):
            m = re.match(r"^([0-9.]+)user ([0-9.]+)system "
                         r"(?:(\d+):)?(\d+):([0-9.]+)elapsed", l)
            if m:
                el = (int(m.group(3) or 0) * 3600 + int(m.group(4)) * 60 +
                      float(m.group(5)))
                for op, v in (("Elapsed", el), ("System", m.group(2)),
                              ("User", m.group(1))):
                    add("%s-%d" % (op, t), r, None, float(v),
                        "%s:%d" % (fn, i))
elif bench == "ebizzy":
    direction = "higher"
    files = [(int(m.group(1)), int(m.group(2)), n) for n in names
             for m in [re.fullmatch(r"ebizzy-(\d+)-(\d+)\.log", n)] if m]
    threads = sorted({t for t, r, n in files})
    # thread_rsec sorts before total_rsec
    order = ["%s-%d" % (m, t) for m in ("thread_rsec", "total_rsec")
             for t in threads]
    for t, r, n in sorted(files):
        fn, lines = read(n)
        m = re.match(r"^(\d+) records/s((?: \d+)*)$", lines[0])
        add("total_rsec-%d" % t, r, None, float(m.group(1)), fn + ":1")
        for k, v in enumerate(m.group(2).split(), 1):
            add("thread_rsec-%d" % t, r, float(k), float(v), fn + ":1")
elif bench == "hackbench":
    direction = "lower"
    # ExtractHackbench (2020): groups of hackbench-*-1 numerically, the
    # files of a group in lexical order, op = the bare group count
    groups = sorted(int(m.group(1)) for n in names
                    for m in [re.fullmatch(r"hackbench-(\d+)-1", n)] if m)
    for g in groups:
        for n in names:
            m = re.fullmatch(r"hackbench-%d-(\d+)" % g, n)
            if not m:
                continue
            fn, lines = read(n)
            for i, l in enumerate(lines, 1):
                mm = re.search(r"Total time: ([0-9.]+)", l)
                if mm:
                    add(str(g), int(m.group(1)), None, float(mm.group(1)),
                        "%s:%d" % (fn, i))
else:
    sys.exit("unknown bench " + bench)

got, got_ops = {}, None
for l in open(actual).read().splitlines():
    if l.startswith("# ops: "):
        got_ops = l
        continue
    if l.startswith("# summary: "):
        continue
    op, rep, t, v, where = l.split("\t")
    got.setdefault(op, []).append(
        (int(rep), None if t == "-" else float(t), float(v), where))

bad = 0
want_ops = "# ops: " + ", ".join("%s (%s)" % (o, direction) for o in order)
if got_ops != want_ops:
    print("ops line differs:\n  want %s\n  got  %s" % (want_ops, got_ops),
          file=sys.stderr)
    bad += 1


def near(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))


for op in sorted(set(exp) | set(got)):
    e, g = exp.get(op, []), got.get(op, [])
    if len(e) != len(g):
        print("%s: %d values expected, %d printed" % (op, len(e), len(g)),
              file=sys.stderr)
        bad += 1
        continue
    for a, b in zip(e, g):
        if a[0] != b[0] or not near(a[1], b[1]) or not near(a[2], b[2]) \
           or a[3] != b[3]:
            print("%s: want %r, got %r" % (op, a, b), file=sys.stderr)
            bad += 1
            break
    print("op %s n %d first-t %s" % (op, len(e), e[0][1] if e else "-"))
sys.exit(1 if bad else 0)
PY

# check BENCH DIR: extract DIR and compare; facts in facts.BENCH, the
# warnings in err
check() {
	perfsift debug mmtests-extract "$2" >actual 2>err &&
	"$PYTHON" check.py "$1" "$2/logs" actual >>"facts.$1"
}

cat >counts.sql <<'EOF'
SELECT m.name, count(*), coalesce(sum(s.derived), 0) FROM samples s
	JOIN metrics m ON m.id = s.metric_id
	WHERE m.name NOT LIKE '%.Duration.%'
	GROUP BY m.name ORDER BY m.name;
EOF
cat >points.sql <<'EOF'
SELECT sum(s.n) FROM series s JOIN metrics m ON m.id = s.metric_id
	WHERE m.name = 'ebizzy.thread_rsec-4';
EOF

# ---- the hand-made tree: kernbench, ebizzy, hackbench ----

test_expect_success 'kernbench, ebizzy, hackbench of the hand-made tree' '
	for it in 6.1-vanilla/iter-0 6.1-vanilla/iter-1 6.1-patched/iter-0
	do
		check kernbench "$FIX/$it/kernbench" && ! grep . err &&
		check ebizzy "$FIX/$it/ebizzy" && ! grep . err &&
		check hackbench "$FIX/$it/hackbench-process-pipes" &&
		! grep . err || exit 1
	done &&
	# 3 repetitions per operation and iteration; 1 or 4 threads
	grep -c "^op .* n 3 " facts.kernbench >n && echo 18 | test_cmp - n &&
	grep -c "^op total_rsec-[14] n 3 " facts.ebizzy >n &&
	echo 6 | test_cmp - n &&
	grep -c "^op thread_rsec-1 n 3 first-t 1.0$" facts.ebizzy >n &&
	echo 3 | test_cmp - n &&
	grep -c "^op thread_rsec-4 n 12 first-t 1.0$" facts.ebizzy >n &&
	echo 3 | test_cmp - n &&
	grep -c "^op [14] n 3 first-t None$" facts.hackbench >n &&
	echo 6 | test_cmp - n
'

test_expect_success 'an h:mm:ss elapsed time is read as seconds' '
	perfsift debug mmtests-extract "$FIX/6.1-vanilla/iter-0/kernbench" \
		>out &&
	head -n 1 "$FIX/6.1-vanilla/iter-0/kernbench/logs/time-2-1" |
		grep " 1:01:42.97elapsed " &&
	grep "^Elapsed-2	1	-	3702.97	time-2-1:1$" out
'

test_expect_success 'the hand-made tree imports: one run per repetition' '
	perfsift import "$FIX" >out 2>err &&
	! grep -i -e error -e warning err &&
	sqlite3 "$PERFSIFT_DB" <counts.sql >actual &&
	cat >expect <<-\EOF &&
	ebizzy.thread_rsec-1|9|9
	ebizzy.thread_rsec-4|9|9
	ebizzy.total_rsec-1|9|0
	ebizzy.total_rsec-4|9|0
	hackbench-process-pipes.1|9|0
	hackbench-process-pipes.4|9|0
	kernbench.Elapsed-2|9|0
	kernbench.Elapsed-4|9|0
	kernbench.System-2|9|0
	kernbench.System-4|9|0
	kernbench.User-2|9|0
	kernbench.User-4|9|0
	EOF
	test_cmp expect actual &&
	sqlite3 "$PERFSIFT_DB" <points.sql >n &&
	echo 36 | test_cmp - n &&
	sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM runs" >n &&
	echo 27 | test_cmp - n
'

# ---- bad input ----

# corrupt TEST FILE SED LINE: a copy of the fixture's TEST directory
# with FILE edited by SED; the extraction must fail at FILE:LINE
corrupt() {
	rm -rf bad && mkdir bad &&
	cp -R "$FIX/6.1-vanilla/iter-0/$1" bad/ &&
	chmod -R u+w bad &&
	sed -i "$3" "bad/$1/logs/$2" &&
	test_expect_code 3 perfsift debug mmtests-extract "bad/$1" \
		>out 2>err &&
	grep "^perfsift: error: bad/$1/logs/$2:$4: expected " err
}

test_expect_success 'a corrupted value line is an error at file:line' '
	corrupt kernbench time-4-2 "1s/system/sys tem/" 1 &&
	corrupt ebizzy ebizzy-4-3.log "1s/ [0-9]*\$/ 19x87/" 1 &&
	corrupt hackbench-process-pipes hackbench-1-2 \
		"s/Total time: 0\\./Total time: ?./" 5 &&
	grep "got .     Total time: ?\\." err
'

test_expect_success 'a corrupted tree is not imported, exit 3' '
	rm -rf tree && mkdir -p tree/r/iter-0 &&
	cp "$FIX/6.1-patched/iter-0/tests-timestamp" tree/r/iter-0/ &&
	cp -R "$FIX/6.1-patched/iter-0/hackbench-process-pipes" \
		tree/r/iter-0/ &&
	chmod -R u+w tree &&
	sed -i "s/Total time: \\([0-9.]*\\)/Total time: \\1.5/" \
		tree/r/iter-0/hackbench-process-pipes/logs/hackbench-4-3 &&
	test_expect_code 3 perfsift --db bad.db import tree/r >out 2>err &&
	grep "hackbench-4-3:5: expected .Total time" err
'

test_expect_success 'a truncated .gz of the hand-made tree is an error' '
	rm -rf bad && mkdir bad &&
	cp -R "$FIX/6.1-vanilla/iter-1/hackbench-process-pipes" bad/ &&
	chmod -R u+w bad &&
	for i in 1 2 3 4 5 6 7 8; do
		cat bad/*/logs/hackbench-4-1
	done | gzip -9 >full.gz &&
	head -c 60 full.gz >bad/hackbench-process-pipes/logs/hackbench-4-1.gz &&
	test_expect_code 3 perfsift debug mmtests-extract \
		bad/hackbench-process-pipes >out 2>err &&
	grep "hackbench-4-1.gz:.*truncated gzip" err
'

# ---- pgbench and thpscale, MMTests 2020, on the real trees ----

if [ ! -d "$WL" ]; then
	test_skip 'pgbench and thpscale of the sample trees' \
		'../shared/samples is absent'
	test_done
	exit
fi

test_expect_success 'pgbench: every value, three dates' '
	for d in $DATES; do
		check pgbench "$WL/$d/pgbench-timed-rw-small/iter-0/pgbench" &&
			! grep . err || exit 1
	done &&
	# 300-line logs give 72 windows, 301-line ones 73; the first at 12 s
	grep "^pgbench-client" facts.pgbench >clients &&
	test $(wc -l <clients) = 28 &&
	! grep -v -e " lines 300 samples 72$" -e " lines 301 samples 73$" \
		clients &&
	grep -c " lines 301 " clients >n && echo 5 | test_cmp - n &&
	grep "^op " facts.pgbench >ops &&
	test $(wc -l <ops) = 28 &&
	! grep -v -e " n 72 first-t 12.0$" -e " n 73 first-t 12.0$" ops
'

test_expect_success 'pgbench: june03 client 1 starts with lines 10-13' '
	d=$WL/log.ltccip8.2020-06-03_1400/pgbench-timed-rw-small/iter-0 &&
	perfsift debug mmtests-extract "$d/pgbench" >out &&
	gzip -dc "$d/pgbench/logs/pgbench-transactions-1.log.gz" |
		sed -n "10,13p" | awk "{ s += \$2 } END { print s / 4 }" \
		>mean &&
	head -n 1 out | cut -f 1-4 >first &&
	printf "1\t0\t12\t%s\n" "$(cat mean)" | test_cmp - first &&
	ops="1 (higher), 5 (higher), 12 (higher), 21 (higher), 32 (higher)" &&
	ops="$ops, 48 (higher), 80 (higher), 81 (higher)" &&
	test_last_line "# ops: $ops" out
'

test_expect_success 'pgbench: no window, the tps line instead' '
	d=$WL/log.ltccip8.2020-06-12_1807/pgbench-timed-rw-small/iter-0 &&
	rm -rf c && mkdir c && cp -R "$d/pgbench" c/ && chmod -R u+w c &&
	l=c/pgbench/logs &&
	gzip -dc $l/pgbench-transactions-8.log.gz | head -n 12 | gzip >t.gz &&
	mv t.gz $l/pgbench-transactions-8.log.gz &&
	rm c/pgbench/logs/pgbench-transactions-24.log.gz &&
	perfsift debug mmtests-extract c/pgbench >out 2>err &&
	grep "pgbench-transactions-8.log: fewer than 13 lines" err &&
	grep "pgbench-transactions-24.log: no such file" err &&
	grep "^8	0	-	[0-9.]*	pgbench-8.log:9$" out &&
	grep "^24	0	-	[0-9.]*	pgbench-24.log:9$" out &&
	check pgbench c/pgbench
'

test_expect_success 'thpscale: every fault, three dates' '
	for d in $DATES; do
		check thpscale "$WL/$d/thpscale/iter-0/thpscale" &&
			! grep . err || exit 1
	done &&
	grep "^op " facts.thpscale >ops &&
	test $(wc -l <ops) = 81 &&
	# june03: about 20000 faults per client, 1-8 huge or the dummy
	sed -n "1,27p" ops >june03 &&
	grep "^op fault-base-1 n 20030 " june03 &&
	grep "^op fault-both-32 n 20000 " june03 &&
	grep "^op fault-huge-32 n 8 " june03 &&
	grep "^op fault-huge-1 n 1 first-t 0.0$" june03 &&
	# june12: about 200, and up to 17 huge
	sed -n "28,54p" ops >june12 &&
	grep "^op fault-base-1 n 198 " june12 &&
	grep "^op fault-huge-32 n 17 " june12 &&
	grep "^op fault-huge-1 n 1 first-t 0.0$" june12
'

test_expect_success 'a truncated pgbench-transactions .gz is an error' '
	d=$WL/log.ltccip8.2020-06-03_1400/pgbench-timed-rw-small/iter-0 &&
	rm -rf c && mkdir c && cp -R "$d/pgbench" c/ && chmod -R u+w c &&
	head -c 3000 "$d/pgbench/logs/pgbench-transactions-5.log.gz" \
		>c/pgbench/logs/pgbench-transactions-5.log.gz &&
	test_expect_code 3 perfsift debug mmtests-extract c/pgbench \
		>out 2>err &&
	l=c/pgbench/logs/pgbench-transactions-5.log.gz &&
	grep "^perfsift: error: $l:[0-9]*: truncated gzip" err
'

test_expect_success 'a corrupted thpscale fault line is an error' '
	d=$WL/log.ltccip8.2020-06-12_1807/thpscale/iter-0 &&
	rm -rf thpscale && cp -R "$d/thpscale" thpscale &&
	chmod -R u+w thpscale &&
	gzip -dc thpscale/logs/threads-5.log.gz |
		sed "60s/^fault \\([0-9]*\\) base *[0-9]*/fault \\1 base 2x7/" |
		gzip >t.gz && mv t.gz thpscale/logs/threads-5.log.gz &&
	test_expect_code 3 perfsift debug mmtests-extract thpscale >out 2>err &&
	grep "threads-5.log.gz:60: expected .fault <thread> <base|huge>" err
'

test_done
