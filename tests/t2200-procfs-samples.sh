#!/bin/sh
# The procfs importer on real dumps: every file of ../shared/samples/procfs
# (zoneinfo/vmstat/meminfo of kernels 2.6.15, 3.x, 5.x and 6.18, snapshots
# and series), lkp's monitor files and an MMTests proc-vmstat log.  The
# expected numbers are read from the files themselves with awk, line by
# line, independently of the C parser; lkp's own zoneinfo parse
# (local-zoneinfo-parsed.txt) must be reproduced key for key, except for
# the keys where lkp is wrong (listed below, see importers/procfs/procfs.c).
. "$(dirname "$0")/lib.sh"
need_samples

P=$SAMPLES/procfs
LKP=$SAMPLES/lkp
MMT=$SAMPLES/mmtests

# import FILE: into a fresh s.db, no message on stderr, dump to `dump`
import_one() {
	rm -f s.db* &&
	perfsift --db s.db import --format procfs "$1" >out 2>err &&
	test_cmp /dev/null err &&
	perfsift --db s.db debug dump >dump
}

# sample / first (earliest series point) / kind METRIC: from `dump`
sample() {
	awk -F'\t' -v m="$1" '$1 == "sample" && $3 == m { print $5 }' dump
}
first() {
	awk -F'\t' -v m="$1" '$1 == "series" && $3 == m { print $5; exit }' dump
}
kind() {
	awk -F'\t' -v m="$1" '$1 == "kind" && $2 == m { print $3 }' dump
}

# want_eq WHAT EXPECTED GOT: both non-empty and equal
want_eq() {
	if [ -z "$2" ] || [ "$2" != "$3" ]; then
		echo "$1: expected '$2', got '$3'"
		return 1
	fi
}

# The lines of one zone block (node $2, zone $3) of the first record.
zone_block() {
	awk -v n="$2," -v z="$3" '
		/^time:/ { if (seen++) exit; next }
		$1 == "Node" { f = ($2 == n && $4 == z) }
		f' "$1"
}

# cpu_val BLOCK-FILE CPU FIELD [PCP]: FIELD of one cpu block (2.6.x: of
# its `pcp: PCP` list)
cpu_val() {
	awk -v c="$2" -v k="$3:" -v l="${4:-}" '
		$1 == "cpu:" { cur = $2; list = $4 }
		$1 == k && cur == c && list == l { print $2; exit }' "$1"
}

# line_val FILE KEY [COLUMN]: column (default 2) of the first line whose
# first word is KEY
line_val() {
	awk -v k="$2" -v c="${3:-2}" '$1 == k { print $c; exit }' "$1"
}

# sum_val FILE KEY: the sum of column 2 over the lines whose first word
# is KEY
sum_val() {
	awk -v k="$2" '$1 == k { s += $2 } END { print s }' "$1"
}

# delta FILE KEY: last - first of column 2 of the lines of KEY
delta() {
	awk -v k="$2" '$1 == k { if (n++ == 0) a = $2; b = $2 }
		END { printf "%.15g\n", b - a }' "$1"
}

# mean FILE KEY [COLUMN]: the mean of a column over the lines of KEY
mean() {
	awk -v k="$2" -v c="${3:-2}" '$1 == k { s += $c; n++ }
		END { printf "%.15g\n", s / n }' "$1"
}

# Every `name value` line of a vmstat snapshot (lines $2..$3 of the
# file) as the sample rows the dump must hold.
vmstat_rows() {
	awk -v a="$2" -v b="$3" 'NR >= a && NR <= b {
		printf "sample\t1\tproc-vmstat.%s\tNULL\t%s\t%d\n", $1, $2, NR }' "$1" |
	sort
}

# Every line of a meminfo snapshot as sample rows.
meminfo_rows() {
	awk '{ k = $1; sub(/:$/, "", k);
		printf "sample\t1\tmeminfo.%s\t%s\t%s\t%d\n", k,
			$3 == "kB" ? "kB" : "NULL", $2, NR }' "$1" | sort
}

# Every point of a series of `name value` records (vmstat, or meminfo
# with prefix meminfo. and the colon dropped) as series rows.
series_rows() {
	awk -v pre="$2" '
		/^time:/ { t = sprintf("%.15g", $2); next }
		NF >= 2 { k = $1; sub(/:$/, "", k);
			printf "series\t1\t%s%s\t%s\t%s\n", pre, k, t, $2 }' "$1" |
	sort
}

# ---- vmstat ----

for f in "$P"/vmstat.local-6.18.txt "$P"/vmstat.pcp-qa-meminfo-root-002.2node-3.x.txt \
	 "$P"/vmstat.pcp-qa-meminfo-root-007.2node-5.x.txt; do
	export f
	test_expect_success "$(basename "$f"): every line, value and kind" '
		import_one "$f" &&
		vmstat_rows "$f" 1 999999 >want &&
		grep "^sample" dump | sort >got &&
		test_cmp want got &&
		want_eq pgfault counter "$(kind proc-vmstat.pgfault)" &&
		want_eq nr_free_pages gauge "$(kind proc-vmstat.nr_free_pages)" &&
		want_eq nr_dirtied counter "$(kind proc-vmstat.nr_dirtied)" &&
		want_eq nr_dirty_threshold gauge \
			"$(kind proc-vmstat.nr_dirty_threshold)" &&
		want_eq kinds "$(grep -c "^sample" dump)" "$(grep -c "^kind" dump)"
	'
done

test_expect_success 'vmstat 6.18 series: every point; pgfault last - first, nr_free_pages mean' '
	f=$P/vmstat.local-6.18.timeseries.txt &&
	import_one "$f" &&
	series_rows "$f" proc-vmstat. >want &&
	grep "^series" dump | sort >got &&
	test_cmp want got &&
	want_eq "pgfault delta" "$(delta "$f" pgfault)" \
		"$(sample proc-vmstat.pgfault)" &&
	test_near "$(mean "$f" nr_free_pages)" \
		"$(sample proc-vmstat.nr_free_pages)" &&
	grep -q "^run	1	procfs	.*	1796006140	1\$" dump &&
	want_eq records 5 "$(grep -c "^series	1	proc-vmstat.pgfault	" dump)"
'

# ---- meminfo ----

test_expect_success 'meminfo.local-6.18.txt: every line, value, unit' '
	import_one "$P/meminfo.local-6.18.txt" &&
	meminfo_rows "$P/meminfo.local-6.18.txt" >want &&
	grep "^sample" dump | sort >got &&
	test_cmp want got &&
	want_eq MemFree 22280564 "$(sample meminfo.MemFree)" &&
	want_eq kind gauge "$(kind "meminfo.Active(file)")" &&
	! grep "^kind" dump | grep -v "	gauge\$"
'

test_expect_success 'meminfo 6.18 series: every point; MemFree mean' '
	f=$P/meminfo.local-6.18.timeseries.txt &&
	import_one "$f" &&
	series_rows "$f" meminfo. >want &&
	grep "^series" dump | sort >got &&
	test_cmp want got &&
	test_near "$(mean "$f" MemFree:)" "$(sample meminfo.MemFree)"
'

# ---- zoneinfo ----

# check_zone FILE NODE ZONE [series]: pages free, min, the second
# protection entry, cpu1 count, the sum of the counts, start_pfn,
# read from the file with awk (first record of a series).
check_zone() {
	zone_block "$1" "$2" "$3" >zb &&
	pre=zoneinfo.node$2.$3 &&
	get=sample && if [ "${4:-}" = series ]; then get=first; fi &&
	want_eq "$pre pages.free" "$(line_val zb pages 3)" \
		"$($get "$pre.pages.free")" &&
	want_eq "$pre pages.min" "$(line_val zb min)" \
		"$($get "$pre.pages.min")" &&
	want_eq "$pre protection.1" \
		"$(sed -n "s/.*protection: (\([^)]*\))/\1/p" zb |
			awk -F", *" "{ print \$2 }")" \
		"$($get "$pre.protection.1")" &&
	want_eq "$pre cpu1 count" "$(cpu_val zb 1 count)" \
		"$($get "$pre.pagesets.cpu1.count")" &&
	want_eq "$pre pagesets.count" "$(sum_val zb count:)" \
		"$($get "$pre.pagesets.count")" &&
	want_eq "$pre start_pfn" "$(line_val zb start_pfn:)" \
		"$($get "$pre.start_pfn")"
}

# zone_count FILE: each Node line of the first record has a pages.free
zone_count() {
	want_eq "zone blocks" \
		"$(awk '/^time:/ { if (s++) exit } $1 == "Node"' "$1" | wc -l)" \
		"$(grep -c "^$2	1	zoneinfo\.node[0-9]*\.[A-Za-z0-9]*\.pages\.free	" \
			dump)"
}

test_expect_success 'zoneinfo 6.18: DMA, DMA32, Normal; per-node stats; empty zones' '
	f=$P/zoneinfo.local-6.18.txt &&
	import_one "$f" &&
	check_zone "$f" 0 DMA && check_zone "$f" 0 DMA32 &&
	check_zone "$f" 0 Normal &&
	zone_count "$f" sample &&
	zone_block "$f" 0 Normal >zb &&
	want_eq high_max "$(cpu_val zb 0 high_max)" \
		"$(sample zoneinfo.node0.Normal.pagesets.cpu0.high_max)" &&
	want_eq threshold 24 \
		"$(sample zoneinfo.node0.Normal.pagesets.cpu1.vm_stats_threshold)" &&
	want_eq nr_inactive_anon "$(line_val "$f" nr_inactive_anon)" \
		"$(sample zoneinfo.node0.nr_inactive_anon)" &&
	want_eq Movable.managed 0 "$(sample zoneinfo.node0.Movable.pages.managed)" &&
	want_eq Device.protection.4 0 "$(sample zoneinfo.node0.Device.protection.4)" &&
	want_eq "zone numa_hit kind" counter \
		"$(kind zoneinfo.node0.Normal.pages.numa_hit)" &&
	want_eq "pages.free kind" gauge "$(kind zoneinfo.node0.Normal.pages.free)"
'

test_expect_success 'zoneinfo 3.x (2 nodes, 32 CPUs): four zones, tail lines' '
	f=$P/zoneinfo.pcp-qa-meminfo-root-002.2node-3.x.txt &&
	import_one "$f" &&
	check_zone "$f" 0 DMA && check_zone "$f" 0 Normal &&
	check_zone "$f" 1 Normal &&
	zone_count "$f" sample &&
	want_eq inactive_ratio 24 "$(sample zoneinfo.node1.Normal.inactive_ratio)" &&
	zone_block "$f" 1 Normal >zb &&
	want_eq cpu31.threshold "$(grep "vm stats threshold" zb |
		tail -n 1 | awk "{ print \$4 }")" \
		"$(sample zoneinfo.node1.Normal.pagesets.cpu31.vm_stats_threshold)" &&
	want_eq nr_free_pages "$(line_val zb nr_free_pages)" \
		"$(sample zoneinfo.node1.Normal.pages.nr_free_pages)"
'

test_expect_success 'zoneinfo 5.x (2 nodes): per-node stats of node 1, empty zones' '
	f=$P/zoneinfo.pcp-qa-meminfo-root-007.2node-5.x.txt &&
	import_one "$f" &&
	check_zone "$f" 0 DMA32 && check_zone "$f" 0 Normal &&
	check_zone "$f" 1 Normal &&
	zone_count "$f" sample &&
	zone_block "$f" 1 Normal >zb &&
	want_eq node1.nr_inactive_anon "$(line_val zb nr_inactive_anon)" \
		"$(sample zoneinfo.node1.nr_inactive_anon)" &&
	want_eq node1.DMA.free 0 "$(sample zoneinfo.node1.DMA.pages.free)" &&
	! grep -q "zoneinfo\.node1\.DMA\.pagesets" dump
'

test_expect_success '2.6.15 paste: the vmstat section line by line, hot/cold pagesets' '
	f=$P/vmstat+zoneinfo.lkml-2005-2.6.15-rc2.2node.txt &&
	import_one "$f" &&
	a=$(grep -n "^=* vmstat:" "$f" | cut -d: -f1) &&
	b=$(grep -n "^=* zoneinfo:" "$f" | cut -d: -f1) &&
	vmstat_rows "$f" $((a + 1)) $((b - 1)) >want &&
	grep "^sample	1	proc-vmstat\." dump | sort >got &&
	test_cmp want got &&
	zone_count "$f" sample &&
	zone_block "$f" 1 Normal >zb &&
	want_eq free "$(line_val zb pages 3)" \
		"$(sample zoneinfo.node1.Normal.pages.free)" &&
	want_eq scanned "$(line_val zb scanned)" \
		"$(sample zoneinfo.node1.Normal.pages.scanned)" &&
	want_eq nr_scan_active "$(line_val zb scanned 4)" \
		"$(sample zoneinfo.node1.Normal.pages.nr_scan_active)" &&
	want_eq cpu1.hot.count "$(cpu_val zb 1 count 0)" \
		"$(sample zoneinfo.node1.Normal.pagesets.cpu1.hot.count)" &&
	want_eq cpu1.cold.high "$(cpu_val zb 1 high 1)" \
		"$(sample zoneinfo.node1.Normal.pagesets.cpu1.cold.high)" &&
	want_eq count.sum "$(sum_val zb count:)" \
		"$(sample zoneinfo.node1.Normal.pagesets.count)" &&
	want_eq numa_hit.sum "$(sum_val zb numa_hit:)" \
		"$(sample zoneinfo.node1.Normal.pagesets.numa_hit)" &&
	want_eq cpu0.numa_miss "$(cpu_val zb 0 numa_miss 1)" \
		"$(sample zoneinfo.node1.Normal.pagesets.cpu0.numa_miss)" &&
	want_eq numa.kind counter "$(kind zoneinfo.node1.Normal.pagesets.numa_hit)" &&
	want_eq protection.1 3944 "$(sample zoneinfo.node0.DMA.protection.1)" &&
	want_eq prev_priority 12 "$(sample zoneinfo.node0.DMA32.prev_priority)"
'

test_expect_success 'zoneinfo 6.18 series: five records, Normal free mean, numa_hit delta' '
	f=$P/zoneinfo.local-6.18.timeseries.txt &&
	import_one "$f" &&
	check_zone "$f" 0 Normal series &&
	want_eq records 5 \
		"$(grep -c "^series	1	zoneinfo.node0.Normal.pages.free	" dump)" &&
	awk "\$1 == \"Node\" { z = \$4 } z == \"Normal\"" "$f" >normal &&
	test_near "$(mean normal pages 3)" \
		"$(sample zoneinfo.node0.Normal.pages.free)" &&
	want_eq "numa_hit delta" "$(delta normal numa_hit)" \
		"$(sample zoneinfo.node0.Normal.pages.numa_hit)"
'

# ---- lkp's monitor files ----

test_expect_success 'lkp proc-vmstat monitor: every point, pgfault last - first' '
	f=$LKP/local-proc-vmstat-monitor-raw.txt &&
	import_one "$f" &&
	series_rows "$f" proc-vmstat. >want &&
	grep "^series" dump | sort >got &&
	test_cmp want got &&
	want_eq "pgfault delta" "$(delta "$f" pgfault)" \
		"$(sample proc-vmstat.pgfault)"
'

cat >check-lkp-zoneinfo.awk <<'AWK'
# Every key lkp's programs/zoneinfo/parse printed (local-zoneinfo-parsed.txt,
# file 1) against our series points (the dump, file 2), record by record.
# lkp is wrong about two keys per zone on 6.x: it reads 4 lines after each
# `cpu:`, so high_max and the `vm stats threshold` of every CPU land at
# zone level, one line per CPU.  The i-th of them must be our
# pagesets.cpu<i>.high_max / .vm_stats_threshold.
BEGIN { FS = "\t" }
FNR == NR {
	split($0, kv, ": ")
	if (kv[1] == "time") { t = kv[2]; nt++; next }
	key = "zoneinfo." kv[1]
	if (key ~ /\.(high_max|vm_stats_threshold)$/ && key !~ /\.pagesets\./) {
		i = seen[t, key]++
		f = key; sub(/.*\./, "", f)
		z = key; sub(/\.[^.]*$/, "", z)
		key = z ".pagesets.cpu" i "." f
		remapped++
	}
	want[t, key] = kv[2]; order[++n] = t SUBSEP key
	next
}
$1 == "series" { got[$4, $3] = $5 }
END {
	for (i = 1; i <= n; i++) {
		k = order[i]
		split(k, p, SUBSEP)
		if (!(k in got)) { print "missing: " p[2] " at " p[1]; bad++ }
		else if (got[k] != want[k]) {
			print p[2] " at " p[1] ": got " got[k] ", lkp " want[k]; bad++
		}
	}
	printf "%d lkp values in %d records, %d of them remapped, %d bad\n",
		n, nt, remapped, bad
	exit (bad > 0 || n < 600 || remapped != 36)
}
AWK

test_expect_success 'lkp zoneinfo monitor: every key of lkp zoneinfo/parse matches' '
	import_one "$LKP/local-zoneinfo-monitor-raw.txt" &&
	awk -f check-lkp-zoneinfo.awk "$LKP/local-zoneinfo-parsed.txt" dump >res &&
	cat res &&
	grep -q " 3 records, 36 of them remapped, 0 bad" res &&
	check_zone "$LKP/local-zoneinfo-monitor-raw.txt" 0 Normal series
'

# ---- MMTests' proc-vmstat monitor (gzip, no blank lines) ----

# workingset_nodereclaim is an event counter in the kernel source, but on
# this 4.18 kernel it goes up and down (3671 -> 3543 -> 3671): the db
# layer warns once and derives no value for it.
test_expect_success 'MMTests proc-vmstat-blogbench.gz: every point of 242 records' '
	f=$MMT/blogbench-iter0-proc-vmstat-blogbench.gz &&
	rm -f s.db* &&
	perfsift --db s.db import --format procfs "$f" >out 2>err &&
	perfsift --db s.db debug dump >dump &&
	grep "warning: .*blogbench.gz:438: counter .proc-vmstat.workingset_nodereclaim. went down (3659 to 3652)" \
		err &&
	want_eq warnings 1 "$(wc -l <err)" &&
	test -z "$(sample proc-vmstat.workingset_nodereclaim)" &&
	gzip -dc "$f" >plain &&
	series_rows plain proc-vmstat. >want &&
	grep "^series" dump | sort >got &&
	test_cmp want got &&
	want_eq "pgfault delta" "$(delta plain pgfault)" \
		"$(sample proc-vmstat.pgfault)" &&
	want_eq records 242 "$(grep -c "^series	1	proc-vmstat.pgfault	" dump)"
'

# ---- the counts read by words ----

# From the second record on, a vmstat line whose name the previous record
# had at its place is read where it lies, its digits eight at a time:
# counts of every length the kernel prints (1 to 19 digits, leading zeros
# too) after names shorter and longer than a word; each value stored must
# be the one its line says (awk's own %.15g of it, as the dump prints).
cat >gen-digits.awk <<'AWK'
BEGIN {
	srand(3)
	n = split("a ab nr_x nr_free abcdefg abcdefgh nr_free_pages " \
		  "nr_zone_inactive_file_long_name", nm, " ")
	for (t = 0; t < 40; t++) {
		print "time: " (1796000000 + t)
		for (i = 1; i <= n; i++) {
			k = (t * n + i) % 19 + 1
			v = (t % 5 == 0 && k > 3) ? "00" : int(1 + 9 * rand())
			while (length(v) < k)
				v = v int(10 * rand())
			print nm[i], v
		}
	}
}
AWK

test_expect_success 'vmstat counts of 1 to 19 digits: every point as written' '
	awk -f gen-digits.awk >digits &&
	import_one digits &&
	awk "/^time:/ { t = \$2; next }
	     { printf \"series\\t1\\tproc-vmstat.%s\\t%s\\t%.15g\\n\", \$1, t, \$2 }" \
		digits | sort >want &&
	grep "^series" dump | sort >got &&
	test_cmp want got &&
	want_eq points 320 "$(wc -l <got)" &&
	want_eq "19-digit counts" 16 "$(awk "length(\$2) == 19" digits | wc -l)"
'

# ---- cut files, detection ----

test_expect_success 'a series cut in its last record: dropped with a warning' '
	head -n 1000 "$P/zoneinfo.local-6.18.timeseries.txt" >cut &&
	perfsift --db c.db import --format procfs cut >out 2>err &&
	grep -q "warning: cut:865: the last record (time: 1796006148.428) is incomplete and was dropped" err &&
	perfsift --db c.db debug dump >dump &&
	want_eq records 4 \
		"$(grep -c "^series	1	zoneinfo.node0.Normal.pages.free	" dump)"
'

test_expect_success 'a series cut in a middle record is refused' '
	sed 432,440d "$P/vmstat.local-6.18.timeseries.txt" >mid &&
	test_expect_code 3 perfsift --db m.db import --format procfs mid >out 2>err &&
	grep -q "error: mid:.*the record of .time: 1796006144.38. (line 389) is incomplete" err &&
	grep -q "incomplete: expected 192 keys as in the first record, got 183\$" err
'

test_expect_success 'a snapshot cut in a zone block is refused' '
	head -n 180 "$P/zoneinfo.local-6.18.txt" >zcut &&
	test_expect_code 3 perfsift --db z.db import zcut >out 2>err &&
	grep -q "error: zcut:180: the snapshot is incomplete: expected .start_pfn:. after" err &&
	grep -q "after the pagesets in the zone block started at line 145\$" err &&
	head -n 150 "$P/zoneinfo.local-6.18.txt" >zcut &&
	test_expect_code 3 perfsift --db z.db import zcut >out 2>err &&
	grep -q "error: zcut:150: the snapshot is incomplete: expected .protection:. in" err &&
	grep -q "in the zone block started at line 145\$" err
'

# lkp's vmstat monitor keeps the vmstat command's output; its own parser
# (programs/vmstat/parse) made fixture-vmstat-parsed.yaml of it: every
# time and every value of ours must be the same.
test_expect_success "lkp's vmstat monitor: every point equals lkp's own parse" '
	rm -f vt.db* &&
	perfsift --db vt.db import --label vt "$LKP/fixture-vmstat-raw.txt" >out &&
	grep -qx ".*fixture-vmstat-raw.txt: vmstat-tool, 1 run, 0 samples, 34 series points, 17 derived" out &&
	perfsift --db vt.db show vt --series "vmstat.*" --json >s.json &&
	perfsift --db vt.db show vt --json >v.json &&
	/usr/bin/python3 - "$LKP/fixture-vmstat-parsed.yaml" <<-PY
	import json, sys
	want, t = {}, None
	for line in open(sys.argv[1]):
	    k, v = line.strip().split(": ")
	    if k == "time":
	        t = float(v)
	    else:
	        want.setdefault("vmstat." + k, []).append([t, float(v)])
	got = {s["metric"]: s["points"] for s in json.load(open("s.json"))["series"]}
	assert got == want, (sorted(got), sorted(want))
	vals = json.load(open("v.json"))["runs"][0]["values"]
	for k, pts in want.items():
	    mean = sum(p[1] for p in pts) / len(pts)
	    assert abs(vals[k] - mean) <= 1e-12 * max(1, abs(mean)), (k, vals[k], mean)
	PY
'

test_expect_success 'the vmstat command: a bad number, no header, no timestamp' '
	printf "procs ---memory--\n r  b   free\n 1  0  100\n 2  0  x\n" >bad.vm &&
	test_expect_code 3 perfsift --db vt2.db import bad.vm 2>err &&
	grep -qx "perfsift: error: bad.vm:4: expected a number for .vmstat.memory.free., got .x." err &&
	printf "procs ---memory--\n r  b   free\n 1  0  100\n 3  0  300\n" >plain.vm &&
	perfsift --db vt2.db import --label p plain.vm >/dev/null &&
	perfsift --db vt2.db show p --series vmstat.memory.free --json >p.json &&
	grep -q "\[" p.json &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"p.json\"))
assert d[\"series\"][0][\"points\"] == [[0, 100], [1, 300]], d
"
'

for f in "$P"/*.txt "$LKP"/local-*-monitor-raw.txt \
	 "$MMT"/blogbench-iter0-proc-vmstat-blogbench.gz; do
	export f
	test_expect_success "$(basename "$f") is detected as procfs" '
		rm -f d.db* &&
		perfsift --db d.db import "$f" >out &&
		grep -q ": procfs, 1 run" out
	'
done

test_done
