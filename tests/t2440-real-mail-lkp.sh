#!/bin/sh
# Real mail in (issue 33), the lkp half: every lkp table of the 17 real
# LKML messages in ../shared/samples/emails (robot reports, replies
# quoting them, tables in changelogs; 2015-2025; see its PROVENANCE.md)
# imports, every row, the numbers as printed.  For each file: the tables
# found (kind, columns, rows read and skipped, first line, title) and at
# least three cells of each table, read off the message by hand; the
# warnings it must give (none but those listed); and, for every
# aggregate, a check independent of the parser that its metric name,
# value, "± N%" and printed change stand on the message line it names
# (the decoded lines of `perfsift debug mail --lines`, which t1400 holds
# against GMime).
. "$(dirname "$0")/lib.sh"
need_samples
need_python3 'the real lkp mails'

EMAILS=$SAMPLES/emails
export EMAILS

# The tables and the hand-read cells: "== FILE", then "warn N" (the
# warnings it gives), "table KIND COLUMNS READ SKIPPED LINE TITLE" in
# order and "cell LINE LABEL METRIC VALUE STDDEV-KIND STDDEV-AS-PRINTED
# N CHANGE MARKER" ('-': NULL).
cat >expect.all <<'EOF'
== 2015-lkp-aim7-zone-lock-latin1-plusminus.txt
warn 0
table lkp 2 6 0 19 -
table lkp 2 8 0 42 -
cell 19 "24b7e5819ad5" aim7.jobs-per-min 152288.0 at-most-relative 1.0 - - -
cell 19 "3484b2de9499" aim7.jobs-per-min 81911.0 at-most-relative 1.0 - -46.2% lkp
cell 23 "24b7e5819ad5" aim7.time.voluntary_context_switches 2186645.0 relative 5.0 - - -
cell 23 "3484b2de9499" aim7.time.voluntary_context_switches 2885949.0 relative 4.0 - +32.0% lkp
cell 24 "24b7e5819ad5" aim7.time.involuntary_context_switches 4576561.0 relative 1.0 - - -
cell 24 "3484b2de9499" aim7.time.involuntary_context_switches 5715773.0 at-most-relative 1.0 - +24.9% lkp
cell 42 "20150327095413.GO4701-base" aim7.jobs-per-min 84568.0 relative 1.0 - - -
cell 42 "20150327095413.GO4701-new" aim7.jobs-per-min 164280.0 relative 1.0 - +94.3% lkp
cell 49 "20150327095413.GO4701-base" uptime.boot 468.0 relative 1.0 - - -
cell 49 "20150327095413.GO4701-new" uptime.boot 266.0 relative 2.0 - -43.1% lkp
== 2016-lkp-style-vm-scalability-thp-swap-Aplusminus-mojibake.txt
warn 0
table lkp 2 6 0 66 -
cell 66 "base" vmstat.swap.so 1118821.0 at-most-relative 1.0 - - -
cell 66 "base+patchset" vmstat.swap.so 1254241.0 relative 1.0 - +12.1% lkp
cell 71 "base" perf-profile.cycles-pp._raw_spin_lock_irq.__add_to_swap_cache.add_to_swap_cache.add_to_swap.shrink_page_list 9.82 relative 8.0 - - -
cell 71 "base+patchset" perf-profile.cycles-pp._raw_spin_lock_irq.__add_to_swap_cache.add_to_swap_cache.add_to_swap.shrink_page_list 6.72 relative 2.0 - -31.6% lkp
== 2016-lkp-style-vm-scalability-workingset-ascii-plusminus.txt
warn 0
table lkp 2 1 0 34 -
cell 34 "23047a96d7cf" vm-scalability.throughput 21621405.0 at-most-relative 1.0 - - -
cell 34 "063f6715e77a" vm-scalability.throughput 24069657.0 relative 2.0 - +11.3% lkp
== 2016-lkp-vm-scalability-swap-underscore-mojibake-quoted.txt
warn 0
table lkp 2 6 0 14 -
cell 14 "20160831143031.4e5a180f969ec6997637a96f-base" vm-scalability.throughput 2506952.0 relative 2.0 - - -
cell 14 "20160831143031.4e5a180f969ec6997637a96f-new" vm-scalability.throughput 3212076.0 relative 7.0 - +28.1% lkp
cell 19 "20160831143031.4e5a180f969ec6997637a96f-base" perf-profile.cycles-pp._raw_spin_lock_irqsave.test_clear_page_writeback.end_page_writeback.page_endio.pmem_rw_page 10.52 relative 12.0 - - -
cell 19 "20160831143031.4e5a180f969ec6997637a96f-new" perf-profile.cycles-pp._raw_spin_lock_irqsave.test_clear_page_writeback.end_page_writeback.page_endio.pmem_rw_page 0.0 - - - -100.0% lkp
== 2019-lkp-fsmark-sunrpc-flowed-wrapped-rows.txt
warn 0
table lkp 2 39 0 59 -
cell 59 "e791f8e9380d" fsmark.files_per_sec 527.29 at-most-relative 2.0 - - -
cell 59 "0472e4766049" fsmark.files_per_sec 407.96 at-most-relative 2.0 - -22.6% lkp
cell 60 "e791f8e9380d" perf-profile.calltrace.cycles-pp.smp_apic_timer_interrupt.apic_timer_interrupt.cpuidle_enter_state.do_idle.cpu_startup_entry 1.97 relative 11.0 - - -
cell 60 "0472e4766049" perf-profile.calltrace.cycles-pp.smp_apic_timer_interrupt.apic_timer_interrupt.cpuidle_enter_state.do_idle.cpu_startup_entry 2.88 relative 4.0 - +0.9 lkp
cell 150 "e791f8e9380d" perf-profile.self.cycles-pp.memcpy_erms 6.1 at-most-relative 2.0 - - -
cell 150 "0472e4766049" perf-profile.self.cycles-pp.memcpy_erms 9.27 relative 4.0 - +3.2 lkp
== 2019-lkp-vm-scalability-mgag200-no-header-row.txt
warn 0
table lkp 2 4 0 68 -
cell 68 "90f479ae51af" vm-scalability.median 37236.0 relative 3.0 - - -
cell 68 "04a0983095fe" vm-scalability.median 38167.0 relative 3.0 - +2.5% lkp
cell 71 "90f479ae51af" vm-scalability.throughput 12767318.0 relative 4.0 - - -
cell 71 "04a0983095fe" vm-scalability.throughput 13089177.0 relative 3.0 - +2.5% lkp
== 2020-lkp-vm-scalability-4commit-flowed-wrapped.txt
warn 0
table lkp 4 4 0 48 vm-scalability
cell 48 "2a4b03ffc69f" vm-scalability.median 211462.0 at-most-relative 2.0 - - -
cell 48 "1567c3e3467c" vm-scalability.median 177702.0 at-most-relative 2.0 - -16.0% lkp
cell 48 "v5.7-rc1" vm-scalability.median 179809.0 at-most-relative 2.0 - -15.0% lkp
cell 48 "v5.7" vm-scalability.median 179510.0 at-most-relative 2.0 - -15.1% lkp
cell 50 "2a4b03ffc69f" vm-scalability.median_stddev% 5.34 relative 9.0 - - -
cell 50 "1567c3e3467c" vm-scalability.median_stddev% 2.23 relative 11.0 - -3.1 lkp
cell 50 "v5.7-rc1" vm-scalability.median_stddev% 2.49 relative 5.0 - -2.9 lkp
cell 50 "v5.7" vm-scalability.median_stddev% 2.61 relative 11.0 - -2.7 lkp
cell 54 "2a4b03ffc69f" vm-scalability.workload 7967000000.0 at-most-relative 2.0 - - -
cell 54 "1567c3e3467c" vm-scalability.workload 7082000000.0 at-most-relative 2.0 - -11.1% lkp
cell 54 "v5.7-rc1" vm-scalability.workload 7082000000.0 at-most-relative 2.0 - -11.1% lkp
cell 54 "v5.7" vm-scalability.workload 7082000000.0 at-most-relative 2.0 - -11.1% lkp
== 2021-lkp-stress-ng-vm-segv-failruns-replacement-char-mojibake-quoted.txt
warn 0
table lkp-fail 2 2 0 65 stress-ng
table lkp 2 27 0 69 stress-ng
cell 65 "c5e6fc08feb2" perf-profile.children.cycles-pp.error_entry 1.0 - - 6 - -
cell 65 "b360fb5e5954" perf-profile.children.cycles-pp.error_entry 1.0 - - 6 -3% -
cell 66 "c5e6fc08feb2" perf-profile.self.cycles-pp.error_entry 0.0 - - 6 - -
cell 66 "b360fb5e5954" perf-profile.self.cycles-pp.error_entry 0.0 - - 6 -1% -
cell 69 "c5e6fc08feb2" stress-ng.time.involuntary_context_switches 11324.0 relative 3.0 - - -
cell 69 "b360fb5e5954" stress-ng.time.involuntary_context_switches 8140.0 relative 3.0 - -28.1% lkp
cell 108 "c5e6fc08feb2" softirqs.CPU71.RCU 11097.0 relative 4.0 - - -
cell 108 "b360fb5e5954" softirqs.CPU71.RCU 12756.0 relative 5.0 - +14.9% lkp
== 2021-lkp-style-wis-fio-row-labels-tabs-quoted.txt
warn 0
table lkp 2 4 0 36 will-it-scale/malloc1
table lkp 2 4 0 45 will-it-scale/pagefault2
table lkp 2 4 0 54 fio (4k/1M is block size)
cell 36 "v5.11-rc1" will-it-scale.per_process_ops 15782.0 relative 2.0 - - -
cell 36 "v5.11-rc1+patch" will-it-scale.per_process_ops 15765.0 relative 3.0 - -0.1% lkp
cell 39 "v5.11-rc1" will-it-scale.per_process_ops 10967.0 at-most-relative 2.0 - - -
cell 39 "v5.11-rc1+patch" will-it-scale.per_process_ops 11751.0 relative 2.0 - +7.1% lkp
cell 45 "v5.11-rc1" will-it-scale.per_process_ops 79028.0 at-most-relative 2.0 - - -
cell 45 "v5.11-rc1+patch" will-it-scale.per_process_ops 81411.0 at-most-relative 2.0 - +3.0% lkp
cell 46 "v5.11-rc1" will-it-scale.per_process_ops 183960.0 relative 2.0 - - -
cell 46 "v5.11-rc1+patch" will-it-scale.per_process_ops 192078.0 relative 2.0 - +4.4% lkp
cell 48 "v5.11-rc1" will-it-scale.per_process_ops 198195.0 at-most-relative 2.0 - - -
cell 48 "v5.11-rc1+patch" will-it-scale.per_process_ops 217526.0 at-most-relative 2.0 - +9.8% lkp
cell 54 "v5.11-rc1" fio.read_bw_MBps 16881.0 relative 2.0 - - -
cell 54 "v5.11-rc1+patch" fio.read_bw_MBps 17081.0 relative 2.0 - +1.2% lkp
cell 57 "v5.11-rc1" fio.write_bw_MBps 3924.0 at-most-relative 2.0 - - -
cell 57 "v5.11-rc1+patch" fio.write_bw_MBps 3929.0 at-most-relative 2.0 - +0.1% lkp
== 2021-lkp-vm-scalability-rstat-ogonek-mojibake-3commit.txt
warn 0
table lkp 2 5 0 26 -
table lkp 3 13 0 76 -
cell 26 "20210812031910.GA63920-base" perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath 2.77 relative 12.0 - - -
cell 26 "20210812031910.GA63920-new" perf-profile.children.cycles-pp.native_queued_spin_lock_slowpath 30.19 relative 8.0 - +27.4 lkp
cell 30 "20210812031910.GA63920-base" perf-profile.children.cycles-pp.__pagevec_lru_add 4.15 relative 10.0 - - -
cell 30 "20210812031910.GA63920-new" perf-profile.children.cycles-pp.__pagevec_lru_add 32.33 relative 7.0 - +28.2 lkp
cell 76 "dc26532aed0a" vm-scalability.throughput 65523232.0 relative 4.0 - - -
cell 76 "2d146aa3aa84" vm-scalability.throughput 38817332.0 relative 5.0 - -40.8% lkp
cell 76 "73371bf27a8a" vm-scalability.throughput 52701654.0 relative 3.0 - -19.6% lkp
cell 89 "dc26532aed0a" pp.bt.lock_page_lruvec_irqsave.__pagevec_lru_add.lru_cache_add.shmem_getpage_gfp.shmem_fault 1.98 relative 3.0 - - -
cell 89 "2d146aa3aa84" pp.bt.lock_page_lruvec_irqsave.__pagevec_lru_add.lru_cache_add.shmem_getpage_gfp.shmem_fault 35.89 relative 5.0 - +33.9 lkp
cell 89 "73371bf27a8a" pp.bt.lock_page_lruvec_irqsave.__pagevec_lru_add.lru_cache_add.shmem_getpage_gfp.shmem_fault 21.8 relative 23.0 - +19.8 lkp
== 2022-lkp-hackbench-memcg-kmem-failruns-qp-quoted.txt
warn 0
table lkp 2 6 0 85 hackbench
table lkp-fail 2 4 0 137 hackbench
table lkp 2 2 0 145 hackbench
cell 85 "086f694a75e1" hackbench.throughput 146519.0 at-most-relative 2.0 - - -
cell 85 "a8c49af3be5f" hackbench.throughput 126397.0 at-most-relative 2.0 - -13.7% lkp
cell 90 "086f694a75e1" hackbench.time.involuntary_context_switches 136500000.0 at-most-relative 2.0 - - -
cell 90 "a8c49af3be5f" hackbench.time.involuntary_context_switches 319500000.0 relative 4.0 - +134.1% lkp
cell 94 "086f694a75e1" hackbench.time.system_time 64911.0 at-most-relative 2.0 - - -
cell 94 "a8c49af3be5f" hackbench.time.system_time 75465.0 at-most-relative 2.0 - +16.3% lkp
cell 137 "086f694a75e1" dmesg.timestamp:last 7632.0 - - 13 - -
cell 137 "9ff9ec89a6dc" dmesg.timestamp:last 1791.0 - - 3 -44932% -
cell 142 "086f694a75e1" kmsg.timestamp:last 4072.0 - - 13 - -
cell 142 "9ff9ec89a6dc" kmsg.timestamp:last 844.0 - - 3 -24827% -
cell 145 "086f694a75e1" hackbench.throughput 144327.0 relative 3.0 - - -
cell 145 "9ff9ec89a6dc" hackbench.throughput 141594.0 relative 5.0 - -1.9% lkp
cell 149 "086f694a75e1" hackbench.time.elapsed_time 473.44 relative 3.0 - - -
cell 149 "9ff9ec89a6dc" hackbench.time.elapsed_time 482.23 relative 5.0 - +1.9% lkp
== 2022-lkp-srcu-boot-failruns-3commit-reply.txt
warn 0
table lkp-fail 3 2 0 76 boot
cell 76 "feebd043ec6b" dmesg.RIP:process_srcu 0.0 - - 16 - -
cell 76 "7bf8d644f869" dmesg.RIP:process_srcu 4.0 - - 16 25% -
cell 76 "ea0098f19115" dmesg.RIP:process_srcu 0.0 - - 100 0% -
cell 77 "feebd043ec6b" dmesg.WARNING:at_kernel/rcu/srcutree.c:#process_srcu 0.0 - - 16 - -
cell 77 "7bf8d644f869" dmesg.WARNING:at_kernel/rcu/srcutree.c:#process_srcu 4.0 - - 16 25% -
cell 77 "ea0098f19115" dmesg.WARNING:at_kernel/rcu/srcutree.c:#process_srcu 0.0 - - 100 0% -
== 2023-lkp-unixbench-spawn-rss-percpu-quoted.txt
warn 0
table lkp 2 42 0 35 unixbench
cell 35 "9cd6ffa60256" unixbench.score 11110.0 at-most-relative 2.0 - - -
cell 35 "f1a7941243c1" unixbench.score 8974.0 at-most-relative 2.0 - -19.2% lkp
cell 37 "9cd6ffa60256" unixbench.time.major_page_faults 4243909.0 relative 6.0 - - -
cell 37 "f1a7941243c1" unixbench.time.major_page_faults 2867136.0 relative 5.0 - -32.4% lkp
cell 83 "9cd6ffa60256" proc-vmstat.nr_active_anon 304947.0 relative 4.0 - - -
cell 83 "f1a7941243c1" proc-vmstat.nr_active_anon 189144.0 relative 28.0 - -38.0% lkp
== 2024-lkp-netperf-timers-3commit-quoted-no-plusminus.txt
warn 0
table lkp 3 4 0 32 -
cell 32 "57e95a5c4117" netperf.ThroughputBoth_Mbps 4.1 at-most-relative 2.0 - - -
cell 32 "7ee988770326" netperf.ThroughputBoth_Mbps 4.05 at-most-relative 2.0 - -1.2% lkp
cell 32 "8b3843ae3634" netperf.ThroughputBoth_Mbps 4.05 at-most-relative 2.0 - -1.2% lkp
cell 35 "57e95a5c4117" netperf.Throughput_total_Mbps 1049.0 at-most-relative 2.0 - - -
cell 35 "7ee988770326" netperf.Throughput_total_Mbps 1037.0 at-most-relative 2.0 - -1.2% lkp
cell 35 "8b3843ae3634" netperf.Throughput_total_Mbps 1036.0 at-most-relative 2.0 - -1.2% lkp
== 2024-lkp-style-vm-scalability-5commit-folio-compaction-qp-quoted.txt
warn 0
table lkp 5 1 0 54 vm-scalability
table lkp 5 1 0 135 vm-scalability
cell 54 "6.6.0-rc4-mm-everything-2023-10-21-02-40+" vm-scalability.throughput 12896955.0 at-most-relative 2.0 - - -
cell 54 "6.6.0-rc4-split-folio-in-compaction+" vm-scalability.throughput 13249322.0 at-most-relative 2.0 - +2.7% lkp
cell 54 "6.6.0-rc4-folio-migration-in-compaction+" vm-scalability.throughput 12385175.0 relative 5.0 - -4.0% lkp
cell 54 "6.6.0-rc4-folio-migration-free-page-split+" vm-scalability.throughput 13033951.0 at-most-relative 2.0 - +1.1% lkp
cell 54 "6.6.0-rc4-folio-migration-free-page-split-sort-src+" vm-scalability.throughput 12845698.0 at-most-relative 2.0 - -0.4% lkp
cell 135 "6.7.0-rc1-mm-everything-2023-11-15-00-17+" vm-scalability.throughput 13041962.0 at-most-relative 2.0 - - -
cell 135 "6.7.0-rc1-split-folio-in-compaction+" vm-scalability.throughput 15142976.0 at-most-relative 2.0 - +16.1% lkp
cell 135 "6.7.0-rc1-folio-migration-in-compaction+" vm-scalability.throughput 13690666.0 relative 6.0 - +5.0% lkp
cell 135 "6.7.0-rc1-folio-migration-free-page-split+" vm-scalability.throughput 13920441.0 at-most-relative 2.0 - +6.7% lkp
cell 135 "6.7.0-rc1-folio-migration-free-page-split-sort-src+" vm-scalability.throughput 13762582.0 at-most-relative 2.0 - +5.5% lkp
== 2025-lkp-will-it-scale-evm-headerless-rows-qp-quoted.txt
warn 0
table lkp 2 8 0 23 -
cell 23 "e38e699a42b4-base" perf-profile.children.cycles-pp.__fput 24.57 at-most-relative 2.0 - - -
cell 23 "e38e699a42b4" perf-profile.children.cycles-pp.__fput 96.76 at-most-relative 2.0 - +72.2 lkp
cell 37 "e38e699a42b4-base" perf-profile.self.cycles-pp.native_queued_spin_lock_slowpath 98.69 at-most-relative 2.0 - - -
cell 37 "e38e699a42b4" perf-profile.self.cycles-pp.native_queued_spin_lock_slowpath 0.0 at-most-relative 2.0 - -98.7 lkp
== 2025-lkp-will-it-scale-poll2-do_pollfd.txt
warn 1
table lkp 2 94 0 62 will-it-scale
cell 62 "d000e073ca2a" numa-meminfo.node0.Shmem 21281.0 relative 147.0 - - -
cell 62 "893598979838" numa-meminfo.node0.Shmem 63313.0 relative 84.0 - +197.5% lkp
cell 155 "d000e073ca2a" perf-profile.self.cycles-pp.fdget 36.98 at-most-relative 2.0 - - -
cell 155 "893598979838" perf-profile.self.cycles-pp.fdget 41.62 at-most-relative 2.0 - +4.6 lkp
EOF

# Every aggregate of a db against the decoded lines of the message.
cat >cells.py <<'PY'
import re, sqlite3, sys

db, decoded = sys.argv[1], sys.argv[2]
lines = []			# (raw line, text) in order
for l in open(decoded, encoding="utf-8"):
    m = re.match(r"^(\d+)\t\d+\t\|(.*)$", l.rstrip("\n"))
    if m:
        lines.append((int(m.group(1)), m.group(2)))
where = {}
for i, (n, _) in enumerate(lines):
    where.setdefault(n, i)

def num(tok):
    try:
        return float(tok)
    except ValueError:
        return None

bad = 0
rows = sqlite3.connect(db).execute(
    "SELECT a.line, m.name, a.value, a.stddev_kind, a.stddev_source, "
    "a.change_source, a.stat, a.n FROM aggregates a JOIN metrics m "
    "ON m.id = a.metric_id").fetchall()
for line, metric, value, kind, sd, change, stat, n in rows:
    # the row, and the lines it was wrapped onto
    i = where[line]
    text = lines[i][1]
    while metric not in text.split() and i + 1 < len(lines) and \
            len(text) < 4096:
        i += 1
        text += " " + lines[i][1]
    toks = text.split()
    ok = metric in toks
    if stat == "fails":
        counts = [t for t in toks if re.match(r"^\d*:\d+$", t)]
        ok = ok and any(int(c.split(":")[0] or 0) == value and
                        int(c.split(":")[1]) == n for c in counts)
    else:
        ok = ok and any(num(t) == value for t in toks)
    if kind == "relative":
        ok = ok and re.search(r"(^|[^\d.])%d%%" % sd, text) is not None
    if change is not None:
        ok = ok and change in toks
    if not ok:
        bad += 1
        print("line %d %s: %s %s %s %s not in %r" %
              (line, metric, value, kind, sd, change, text))
print("%d cells, %d wrong" % (len(rows), bad))
sys.exit(1 if bad else 0)
PY

awk '/^== /{ f = substr($0, 4); print f > "files" } { print > ("want." f) }' \
	expect.all

while read -r f; do
	export f
	test_expect_success "$f: its tables, rows and hand-read cells" '
		rm -f m.db* &&
		perfsift --db m.db import "$EMAILS/$f" >out 2>err &&
		grep -q "^$EMAILS/$f message 1: lkp-table, " out &&
		{
			echo "== $f" &&
			echo "warn $(grep -c "warning" err)" &&
			sqlite3 -separator " " m.db "SELECT \"table\", kind,
				columns, rows_read, rows_skipped, line,
				coalesce(title, \"-\") FROM import_tables
				ORDER BY seq" &&
			while read -r kw line label rest; do
				[ "$kw" = cell ] || continue
				sqlite3 -separator " " m.db "SELECT \"cell\",
					a.line, \"\"\"\" || v.label || \"\"\"\",
					m.name, a.value,
					coalesce(a.stddev_kind, \"-\"),
					coalesce(a.stddev_source, \"-\"),
					coalesce(a.n, \"-\"),
					coalesce(a.change_source, \"-\"),
					coalesce(a.marker, \"-\") FROM aggregates a
					JOIN variants v ON v.id = a.variant_id
					JOIN metrics m ON m.id = a.metric_id
					WHERE a.line = $line AND
					\"\"\"\" || v.label || \"\"\"\" = '"'"'$label'"'"'"
			done <"want.$f"
		} >got &&
		test_cmp "want.$f" got &&
		perfsift debug mail --lines "$EMAILS/$f" >decoded &&
		python3 cells.py m.db decoded
	'
done <files

test_expect_success 'the 17 messages at once: 17 imports, nothing skipped' '
	rm -f all.db* &&
	perfsift --db all.db import $(sed "s|^|$EMAILS/|" files) >out 2>err &&
	test "$(sqlite3 all.db "SELECT count(*) FROM imports")" = 17 &&
	test "$(sqlite3 all.db "SELECT count(*) FROM import_skips")" = 0 &&
	test "$(sqlite3 all.db "SELECT sum(rows_read) FROM import_tables")" = 297
'

test_expect_success 'a report on a robot mail leads with its headline, and names its spread' '
	m=$EMAILS/2025-lkp-will-it-scale-poll2-do_pollfd.txt &&
	rm -f wis.db* &&
	perfsift --db wis.db import "$m" >/dev/null 2>&1 &&
	perfsift --db wis.db report d000e073ca 8935989798 >rep &&
	sed -n 5p rep >lead &&
	echo "perfsift noticed a 11.7% regression of will-it-scale.per_process_ops on:" >want &&
	test_cmp want lead &&
	grep "^The significant changes; %stddev is lkp.s: the population stddev (n) in % of the mean, as the source printed it over runs not imported:" rep &&
	perfsift --db wis.db compare d000e073ca 8935989798 >cmp &&
	grep "^mean ± sd: as the source printed it, over runs not imported (.rel.: printed in % of the mean, lkp.s the population sd);" cmp &&
	# without the robot saying which: its own result before the total
	sed -e "/noticed a/d" -e "s/^ will-it-scale.per_process_ops 11.7% regression/ x/" "$m" >plain.txt &&
	rm -f plain.db* &&
	perfsift --db plain.db import plain.txt >/dev/null 2>&1 &&
	test "$(sqlite3 plain.db "SELECT count(*) FROM import_meta WHERE key = \"headline\"")" = 0 &&
	perfsift --db plain.db report d000e073ca 8935989798 >rep2 &&
	grep "^perfsift noticed a 11.7% regression of will-it-scale.per_process_ops on:" rep2
'

test_done
