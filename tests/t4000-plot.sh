#!/bin/sh
# perfsift plot (issue 13): compare, sweep and series charts on a small
# database made here (kernbench-style samples, a will-it-scale thread
# sweep, zoneinfo and vmstat monitor series).  The gnuplot scripts
# (--script) against golden files in tests/expect/t4000-plot/, with the
# numbers that matter checked on their own; real renders by gnuplot
# (PNG size from its IHDR, SVG parsed as XML, the text chart read); and
# the errors: no data, no numeric parameter, unknown kind or extension,
# an output that cannot be written, gnuplot missing or failing, with
# nothing left behind.
. "$(dirname "$0")/lib.sh"

# kernbench-style: elapsed time per job count, 5 runs each.  elsp-8 is
# 10% slower in patched, elsp-16 faster, the others the same.
cat >kb.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
base,m1,kernbench,0,kernbench.elsp-2,200,s
base,m1,kernbench,1,kernbench.elsp-2,202,s
base,m1,kernbench,2,kernbench.elsp-2,198,s
base,m1,kernbench,3,kernbench.elsp-2,201,s
base,m1,kernbench,4,kernbench.elsp-2,199,s
base,m1,kernbench,0,kernbench.elsp-4,110,s
base,m1,kernbench,1,kernbench.elsp-4,111,s
base,m1,kernbench,2,kernbench.elsp-4,109,s
base,m1,kernbench,3,kernbench.elsp-4,110.5,s
base,m1,kernbench,4,kernbench.elsp-4,109.5,s
base,m1,kernbench,0,kernbench.elsp-8,60,s
base,m1,kernbench,1,kernbench.elsp-8,61,s
base,m1,kernbench,2,kernbench.elsp-8,59,s
base,m1,kernbench,3,kernbench.elsp-8,60.5,s
base,m1,kernbench,4,kernbench.elsp-8,59.5,s
base,m1,kernbench,0,kernbench.elsp-16,35,s
base,m1,kernbench,1,kernbench.elsp-16,35.5,s
base,m1,kernbench,2,kernbench.elsp-16,34.5,s
base,m1,kernbench,3,kernbench.elsp-16,35.2,s
base,m1,kernbench,4,kernbench.elsp-16,34.8,s
base,m1,kernbench,0,kernbench.elsp-32,25,s
base,m1,kernbench,1,kernbench.elsp-32,26,s
base,m1,kernbench,2,kernbench.elsp-32,24,s
base,m1,kernbench,3,kernbench.elsp-32,25.5,s
base,m1,kernbench,4,kernbench.elsp-32,24.5,s
patched,m1,kernbench,0,kernbench.elsp-2,200.5,s
patched,m1,kernbench,1,kernbench.elsp-2,201,s
patched,m1,kernbench,2,kernbench.elsp-2,199,s
patched,m1,kernbench,3,kernbench.elsp-2,202,s
patched,m1,kernbench,4,kernbench.elsp-2,198.5,s
patched,m1,kernbench,0,kernbench.elsp-4,110,s
patched,m1,kernbench,1,kernbench.elsp-4,109,s
patched,m1,kernbench,2,kernbench.elsp-4,111,s
patched,m1,kernbench,3,kernbench.elsp-4,110,s
patched,m1,kernbench,4,kernbench.elsp-4,110.5,s
patched,m1,kernbench,0,kernbench.elsp-8,66,s
patched,m1,kernbench,1,kernbench.elsp-8,67,s
patched,m1,kernbench,2,kernbench.elsp-8,65,s
patched,m1,kernbench,3,kernbench.elsp-8,66.5,s
patched,m1,kernbench,4,kernbench.elsp-8,65.5,s
patched,m1,kernbench,0,kernbench.elsp-16,33,s
patched,m1,kernbench,1,kernbench.elsp-16,33.5,s
patched,m1,kernbench,2,kernbench.elsp-16,32.5,s
patched,m1,kernbench,3,kernbench.elsp-16,33.2,s
patched,m1,kernbench,4,kernbench.elsp-16,32.8,s
patched,m1,kernbench,0,kernbench.elsp-32,25.2,s
patched,m1,kernbench,1,kernbench.elsp-32,25.8,s
patched,m1,kernbench,2,kernbench.elsp-32,24.4,s
patched,m1,kernbench,3,kernbench.elsp-32,25.1,s
patched,m1,kernbench,4,kernbench.elsp-32,24.9,s
EOF

# will-it-scale: ops per thread over nr_threads 1, 4, 16 (3 runs each);
# mode is a parameter that is not a number
cat >wis.csv <<\EOF
label,machine,testcase,nr_threads,mode,iteration,metric,value,unit
base,m1,will-it-scale,1,thread,0,will-it-scale.per_thread_ops,1000,ops
base,m1,will-it-scale,1,thread,1,will-it-scale.per_thread_ops,1010,ops
base,m1,will-it-scale,1,thread,2,will-it-scale.per_thread_ops,990,ops
base,m1,will-it-scale,4,thread,0,will-it-scale.per_thread_ops,900,ops
base,m1,will-it-scale,4,thread,1,will-it-scale.per_thread_ops,910,ops
base,m1,will-it-scale,4,thread,2,will-it-scale.per_thread_ops,905,ops
base,m1,will-it-scale,16,thread,0,will-it-scale.per_thread_ops,700,ops
base,m1,will-it-scale,16,thread,1,will-it-scale.per_thread_ops,720,ops
base,m1,will-it-scale,16,thread,2,will-it-scale.per_thread_ops,710,ops
patched,m1,will-it-scale,1,thread,0,will-it-scale.per_thread_ops,1005,ops
patched,m1,will-it-scale,1,thread,1,will-it-scale.per_thread_ops,995,ops
patched,m1,will-it-scale,1,thread,2,will-it-scale.per_thread_ops,1000,ops
patched,m1,will-it-scale,4,thread,0,will-it-scale.per_thread_ops,850,ops
patched,m1,will-it-scale,4,thread,1,will-it-scale.per_thread_ops,860,ops
patched,m1,will-it-scale,4,thread,2,will-it-scale.per_thread_ops,855,ops
patched,m1,will-it-scale,16,thread,0,will-it-scale.per_thread_ops,500,ops
EOF

# A variant whose name holds every character gnuplot could misread.
cat >odd.csv <<\EOF
label,machine,testcase,iteration,metric,value,unit
"q""it's @x_y\z",m1,kernbench,0,kernbench.elsp-2,190,s
"q""it's @x_y\z",m1,kernbench,1,kernbench.elsp-2,191,s
EOF
ODD='q"it'"'"'s @x_y\z'

# zone_record TIME FREE MIN LOW HIGH: one /proc/zoneinfo record of a
# monitor (lkp's "time:" format), one Normal zone, one CPU
zone_record() {
	cat <<-EOF
	time: $1
	Node 0, zone   Normal
	  pages free     $2
	        boost    0
	        min      $3
	        low      $4
	        high     $5
	        spanned  262144
	        present  262144
	        managed  250000
	        protection: (0, 0, 0, 0, 0)
	      nr_free_pages $2
	  pagesets
	    cpu: 0
	              count:    100
	              high:     200
	              batch:    63
	  vm stats threshold: 24
	  node_unreclaimable:  0
	  start_pfn:           1048576
	EOF
}
# vm_record TIME PGFAULT FREE: one /proc/vmstat record
vm_record() {
	printf 'time: %s\nnr_free_pages %s\npgfault %s\n' "$1" "$3" "$2"
}

{
	zone_record 1000 30000 8000 10000 12000
	zone_record 1001 25000 8000 10000 12000
	zone_record 1002 21000 8000 10000 12000
} >zi-base-1
{
	zone_record 2000 31000 8000 10000 12000
	zone_record 2001.5 29000 8000 10000 12000
	zone_record 2003 27000 8000 10000 12000
} >zi-base-2
# the patched kernel keeps higher watermarks
{
	zone_record 3000 30000 9000 11000 13000
	zone_record 3001 28000 9000 11000 13000
	zone_record 3002 26000 9000 11000 13000
} >zi-patched-1
# pgfault at 1000 s, +1, +2, +4: rates 200, 100 and 200 per second
{
	vm_record 1000 100 5000
	vm_record 1001 300 4900
	vm_record 1002 400 4800
	vm_record 1004 800 4700
} >vm-base-1
{
	vm_record 5000 1000 6000
	vm_record 5002 1600 6100
} >vm-patched-1

# fio latency percentiles as lkp names them, 3 runs of two variants
{
	echo "label,machine,testcase,iteration,metric,value,unit"
	for v in base patched; do
		for it in 0 1 2; do
			for p in 1 50 90 99 99.9; do
				awk -v v=$v -v it=$it -v p=$p "BEGIN {
					y = (v == \"base\" ? 1000 : 1500) * (1 + it / 10)
					y *= 1 / (1 - p / 100.5)
					printf \"%s,m1,fio-lat,%d,fio.read_clat_%s%%_ns,%.0f,ns\\n\", v, it, p, y
				}"
			done
		done
	done
} >lat.csv

test_expect_success 'setup: import the fixtures' '
	perfsift import -q kb.csv wis.csv odd.csv &&
	perfsift import -q --label base --machine m1 --testcase mon \
		zi-base-1 zi-base-2 vm-base-1 &&
	perfsift import -q --label patched --machine m1 --testcase mon \
		zi-patched-1 vm-patched-1 &&
	perfsift import -q lat.csv &&
	perfsift runs >runs &&
	test "$(grep -c " mon " runs)" = 5 &&
	perfsift metrics --metric proc-vmstat.pgfault >m &&
	grep -q "^proc-vmstat.pgfault .* counter " m
'

# the run ids of the monitor files, by import order
vm_base_run() {
	awk '$6 == "mon" { n++; if (n == 3) print $1 }' runs
}

# ---- compare ----

test_expect_success 'compare --script: the golden script' '
	perfsift plot compare base patched --metric "kernbench.elsp-*" \
		-o kb.png --script >out 2>err &&
	test ! -s err &&
	test ! -e kb.png &&
	test_golden compare.gp out
'

test_expect_success 'compare --script: bars, errors, runs and verdicts are the data' '
	perfsift plot compare base patched --metric "kernbench.elsp-*" \
		-o kb.png --script >out &&
	grep -q "^set terminal pngcairo size 1200,800 font \"sans,12\" noenhanced$" out &&
	grep -q "^set output \"kb.png\"$" out &&
	grep -q "^set multiplot layout 2,3 title \"base vs patched, kernbench on m1\\\\nbars: mean ± sample standard deviation (n-1); points: runs; change against base, \* significant (Benjamini-Hochberg q < 0.05)\"$" out &&
	# panels in natural order of the metric names
	grep "^set title \"kernbench" out >titles &&
	printf "set title \"kernbench.elsp-%s\"\n" 2 4 8 16 32 >expect &&
	test_cmp expect titles &&
	# elsp-8: mean 60 with sd sqrt(2.5/4), and 66 with the same
	awk "/^\\\$P3_err << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out >err3 &&
	printf "0 60 0.7905694150420949\n1 66 0.7905694150420949\n" >expect &&
	test_cmp expect err3 &&
	# every run is a point: 5 + 5 per panel
	test "$(awk "/^\\\$P3_runs << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out | wc -l)" = 10 &&
	# the regression (time: lower is better) red, the improvement
	# green, both starred; unchanged rows carry no star
	grep -q "^set label 1 \"+10.0% \*\" at 1,67 center offset 0,0.9 front tc rgb \"#b00000\"$" out &&
	grep -q "^set label 1 \"-5.7% \*\" at 1,33.5 center offset 0,0.9 front tc rgb \"#006400\"$" out &&
	grep -q "^set label 1 \"+0.1%\" at 1,202 center offset 0,0.9 front tc rgb \"black\"$" out &&
	test "$(grep -c "^set label .*\*" out)" = 2 &&
	perfsift compare base patched --metric "kernbench.elsp-*" >cmp &&
	grep -q "^kernbench.elsp-8 (s) .*+10.00% .*regression" cmp &&
	grep -q "^kernbench.elsp-16 (s) .*-5.71% .*improvement" cmp
'

test_expect_success 'compare --script without -o: no terminal, no output; .txt: dumb' '
	perfsift plot compare base patched --metric "kernbench.elsp-8" \
		--script >out &&
	! grep -q "^set terminal" out &&
	! grep -q "^set output" out &&
	grep -q "^set termoption noenhanced$" out &&
	grep -q "^plot \$P1_bars using 1:2:3 with boxes lc variable notitle" out &&
	# one panel still names its metric, the page heading does not
	grep -q "^set title \"kernbench.elsp-8\"$" out &&
	perfsift plot compare base patched --metric "kernbench.elsp-8" \
		-o one.txt --script >out &&
	grep -q "^set title \"kernbench.elsp-8 (s)\\\\nbase vs patched, kernbench on m1\\\\nbars:" out &&
	perfsift plot compare base patched --metric "kernbench.elsp-*" \
		-o kb.txt --script >out &&
	test_golden compare-txt.gp out &&
	grep -q "^set terminal dumb size 72,26 nofeed noenhanced$" out &&
	! grep -q "^set multiplot" out
'

# ---- sweep ----

test_expect_success 'sweep by the metric name: the golden script, log2 x axis' '
	perfsift plot sweep base patched --metric "kernbench.elsp-*" \
		-o sweep.svg --script >out 2>err &&
	test ! -s err &&
	test_golden sweep-name.gp out &&
	grep -q "^set terminal svg size 1200,800 font \"sans,12\" noenhanced background \"white\"$" out &&
	grep -q "^set logscale x 2$" out &&
	grep -q "^set xtics nomirror (\"2\" 2, \"4\" 4, \"8\" 8, \"16\" 16, \"32\" 32)$" out &&
	grep -q "^set xlabel \"N in kernbench.elsp-N\"$" out &&
	grep -q "^set ylabel \"s\"$" out &&
	# base at N=2: 200 202 198 201 199: mean 200, sd sqrt(10/4)
	awk "/^\\\$P1_L1 << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out >l1 &&
	head -n 1 l1 >first &&
	echo "2 200 1.5811388300841898" >expect &&
	test_cmp expect first &&
	test "$(wc -l <l1)" = 5 &&
	grep -q "with yerrorlines lt 1 title \"base\", " out &&
	grep -q "with yerrorlines lt 2 title \"patched\"$" out
'

test_expect_success 'sweep --x PARAM: x from a run parameter; one run has no bar' '
	perfsift plot sweep base patched --x nr_threads \
		--metric will-it-scale.per_thread_ops -o wis.png --script >out &&
	test_golden sweep-x.gp out &&
	grep -q "^set xlabel \"nr_threads\"$" out &&
	grep -q "^set logscale x 2$" out &&
	awk "/^\\\$P1_L2 << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out >l2 &&
	printf "1 1000 5\n4 855 5\n16 500 0\n" >expect &&
	test_cmp expect l2 &&
	grep -q "a point of one run has no bar" out &&
	# the title keeps the group; mode=thread stays in it
	grep -q "title \"will-it-scale.per_thread_ops: base vs patched, will-it-scale on m1 (mode=thread)" out
'

test_expect_success 'sweep: 1, 4 and 16 are powers of two over 16x: log; 1..3 not' '
	printf "label,nr_threads,iteration,metric,value\n" >lin.csv &&
	for t in 1 2 3; do
		echo "lin,$t,0,lin.ops,$((t * 10))" >>lin.csv || exit 1
	done &&
	perfsift import -q lin.csv &&
	perfsift plot sweep lin --x nr_threads --metric lin.ops --script >out &&
	grep -q "^unset logscale x$" out &&
	grep -q "^set xrange \[0.92:3.08\]$" out
'

test_expect_success 'sweep --x with sizes: 4k, 64k and 1m in bytes, named as written' '
	printf "label,bs,iteration,metric,value\n" >bs.csv &&
	for b in 4k 64k 1m; do
		echo "sz,$b,0,sz.bw,1" >>bs.csv || exit 1
	done &&
	perfsift import -q bs.csv &&
	perfsift plot sweep sz --x bs --metric sz.bw --script >out &&
	grep -q "^set xtics nomirror (\"4k\" 4096, \"64k\" 65536, \"1m\" 1048576)$" out &&
	grep -q "^set logscale x 2$" out
'

test_expect_success 'sweep with no numeric parameter: exit 2, nothing written' '
	test_expect_code 2 perfsift plot sweep base \
		--metric will-it-scale.per_thread_ops -o n.png >out 2>err &&
	grep -q "^perfsift: error: no numeric parameter: .will-it-scale.per_thread_ops. has no trailing number" err &&
	test_expect_code 2 perfsift plot sweep base --x nosuch \
		--metric will-it-scale.per_thread_ops -o n.png 2>err &&
	grep -q "^perfsift: error: no numeric parameter: no run of .will-it-scale.per_thread_ops. has a parameter .nosuch.$" err &&
	test_expect_code 2 perfsift plot sweep base --x mode \
		--metric will-it-scale.per_thread_ops -o n.png 2>err &&
	grep -q "^perfsift: error: no numeric parameter: run [0-9]* has mode=thread, not a number$" err &&
	test ! -s out &&
	test ! -e n.png &&
	test -z "$(ls -A | grep "^\.n\.png")"
'

test_expect_success 'sweep over two families, or one metric too many: exit 2' '
	test_expect_code 2 perfsift plot sweep base --metric "*" --script \
		>out 2>err &&
	grep -q "^perfsift: error: .\*. matches .* narrow it with --metric$" err &&
	test ! -s out
'

# ---- series ----

test_expect_success 'series of free pages: runs, and the watermarks dashed' '
	perfsift plot series base patched \
		--metric zoneinfo.node0.Normal.pages.free -o free.png \
		--script >out 2>err &&
	test ! -s err &&
	test_golden series-free.gp out &&
	grep -q "^set xlabel \"seconds since the run.s first sample\"$" out &&
	# three runs as lines, seconds from each run start
	grep -q "title \"base run [0-9]*\", " out &&
	test "$(grep -c "with linespoints lt [12] " out)" = 3 &&
	awk "/^\\\$P1_L2 << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out >l2 &&
	printf "0 31000\n1.5 29000\n3 27000\n" >expect &&
	test_cmp expect l2 &&
	# base shares one set of watermarks over both runs, patched has
	# its own: each level twice, named by the run that has it
	test "$(grep -c "with lines lc rgb \"#505050\" dt 2 lw 1.5 title \"min watermark (base run [0-9]*)\"" out)" = 1 &&
	test "$(grep -c "with lines lc rgb \"#505050\" dt 2 lw 1.5 title \"min watermark (patched run [0-9]*)\"" out)" = 1 &&
	test "$(grep -c " dt [234] lw 1.5 title " out)" = 6 &&
	grep -q "dashed: the zone.s watermarks" out &&
	# in text the legend goes below, an entry a line: 22 lines of
	# chart, 2 of heading, 9 of legend
	perfsift plot series base patched \
		--metric zoneinfo.node0.Normal.pages.free -o free.txt \
		--script >out &&
	grep -q "^set terminal dumb size 72,33 nofeed noenhanced$" out &&
	grep -q "^set key below left vertical noautotitle$" out
'

test_expect_success 'series of a counter: rates per second, at each interval middle' '
	run=$(vm_base_run) &&
	perfsift plot series "run:$run" --metric "proc-vmstat.pgfault" \
		--script >out &&
	awk "/^\\\$P1_L1 << EOD/ { f = 1; next } /^EOD/ { f = 0 } f" out >l1 &&
	printf "0.5 200\n1.5 100\n3 200\n" >expect &&
	test_cmp expect l1 &&
	grep -q "^set ylabel \"per second\"$" out &&
	grep -q "title \"base run $run\"$" out &&
	grep -q "counters as rates: the change over each interval / its length, at its middle" out &&
	perfsift plot series base patched --metric "proc-vmstat.*" \
		-o vm.png --script >out &&
	test_golden series-vmstat.gp out &&
	# a gauge (nr_free_pages) as it is, a counter as a rate
	grep -q "^set title \"proc-vmstat.nr_free_pages\"$" out &&
	grep -q "^set title \"proc-vmstat.pgfault, rate\"$" out
'

test_expect_success 'series that match nothing, or too much: exit 2' '
	test_expect_code 2 perfsift plot series base --metric "nosuch.*" \
		-o s.png >out 2>err &&
	echo "perfsift: error: no series matches '"'nosuch.*'"' in '"'base'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 2 perfsift plot series base patched -o s.png 2>err &&
	grep -q "a series plot draws at most 4: narrow it with --metric" err &&
	test ! -e s.png
'

# ---- errors of the request ----

test_expect_success 'no data: exit 2 naming the metric and the variants' '
	test_expect_code 2 perfsift plot compare base patched \
		--metric "nosuch*" -o x.png >out 2>err &&
	echo "perfsift: error: no metric matching '"'nosuch*'"' has values in '"'base'"', '"'patched'"'" >expect &&
	test_cmp expect err &&
	test ! -s out &&
	test_expect_code 2 perfsift plot compare base patched \
		--machine nosuch -o x.png 2>err &&
	grep -q "no metric matching .\*. has values" err &&
	test_expect_code 2 perfsift plot compare base nosuch -o x.png 2>err &&
	grep -q "^perfsift: error: .nosuch. is not a label, kernel or commit" err &&
	test ! -e x.png
'

test_expect_success 'compare of too many metrics: exit 2 with the limit' '
	test_expect_code 2 perfsift plot compare base patched -o x.png 2>err &&
	grep -q "a compare plot draws at most 12: narrow it with --metric" err
'

test_expect_success 'latency: percentiles on a nines axis, mean and sd over the runs' '
	perfsift plot latency base patched --script >lat.gp &&
	test_golden latency.gp lat.gp &&
	grep -F "fio.read_clat_P%: base vs patched" lat.gp &&
	# a tic label is a gnuplot format: its % doubled
	grep -F "\"99%%\" 2," lat.gp &&
	grep -F "\"50%%\" 0.3010299956639812" lat.gp &&
	grep -F "\"99.9%%\" 3.000000000000" lat.gp &&
	# base at 99%: 1000, 1100, 1200 times 1/(1 - 99/100.5)
	/usr/bin/python3 -c "
import re, statistics
t = open(\"lat.gp\").read()
blk = t.split(\"<< EOD\")[1].split(\"EOD\")[0].split(\"\n\")
pts = {round(float(l.split()[0]), 6): (float(l.split()[1]), float(l.split()[2])) for l in blk if l.strip()}
ys = [round(1000 * (1 + i / 10) / (1 - 99 / 100.5)) for i in range(3)]
m, s = pts[2.0]
assert abs(m - statistics.mean(ys)) < 1e-9 and abs(s - statistics.stdev(ys)) < 1e-9, (m, s, ys)
" &&
	perfsift plot latency base patched -o lat.txt &&
	cat lat.txt &&
	/usr/bin/python3 -c "
import re
lines = open(\"lat.txt\", encoding=\"utf-8\").read().split(\"\n\")
assert max(map(len, lines)) <= 72
b = next(i for i, l in enumerate(lines) if re.match(r\"^ +[0-9]+ \\+-{20,}\\+\$\", l))
labels = lines[b + 1].split()
# the nines a reader looks for, none run together
for want in (\"90%\", \"99%\", \"99.9%\"):
    assert want in labels, labels
assert not re.search(r\"%[0-9]\", lines[b + 1]), lines[b + 1]
# a variant a sample of its own: its line and point characters
legend = {l.split()[0]: l.split()[-1] for l in lines[b + 3:] if l.strip()}
assert legend[\"base\"] != legend[\"patched\"], legend
assert legend[\"error\"] == \":\", legend
" &&
	test_expect_code 2 perfsift plot latency base --metric "kernbench.*" -o no.png 2>err &&
	grep "no latency percentiles among the metrics matching .kernbench" err &&
	test ! -e no.png
'

test_expect_success 'unknown kind: exit 2 naming the kinds' '
	for k in bars trends; do
		test_expect_code 2 perfsift plot $k base -o x.png >out 2>err &&
		grep -q "^perfsift: error: unknown plot kind .$k.: the kinds are compare, sweep, series, latency and trend$" err &&
		grep -q "^usage: perfsift plot" err || exit 1
	done &&
	test ! -e x.png
'

test_expect_success 'usage errors: extension, -o missing, --x, run:ID, selectors' '
	test_expect_code 2 perfsift plot compare base patched -o x.pdf 2>err &&
	grep -q "^perfsift: error: .x.pdf.: the output.s name must end in .png, .svg or .txt$" err &&
	test_expect_code 2 perfsift plot compare base patched -o png 2>err &&
	test_expect_code 2 perfsift plot compare base patched 2>err &&
	grep -q "where to? -o FILE" err &&
	test_expect_code 2 perfsift plot compare base patched --x nr_threads \
		--script 2>err &&
	grep -q "^perfsift: error: --x is for sweep plots$" err &&
	test_expect_code 2 perfsift plot compare run:1 run:2 --script 2>err &&
	grep -q "only series plots take run:ID" err &&
	test_expect_code 2 perfsift plot compare base --script 2>err &&
	grep -q "a compare plot needs BASE and at least one NEW variant" err &&
	test_expect_code 2 perfsift plot series run:x --script 2>err &&
	test_expect_code 2 perfsift plot compare base patched --metric a \
		--metric b --script 2>err &&
	grep -q "^perfsift: error: --metric given twice: a chart takes one$" err &&
	test_expect_code 2 perfsift plot compare base patched -o a.png \
		-o b.png 2>err &&
	grep -q "^perfsift: error: -o given twice" err &&
	test_expect_code 2 perfsift plot series b b b b b b b b b --script \
		2>err &&
	grep -q "^perfsift: error: 9 selectors: a chart tells at most 8 variants apart$" err &&
	test_expect_code 2 perfsift plot 2>err &&
	grep -q "which plot? compare, sweep, series or latency" err &&
	test ! -e x.pdf
'

# ---- rendering by gnuplot ----

# png_size FILE: "WIDTHxHEIGHT" from the PNG signature and IHDR chunk
png_size() {
	/usr/bin/python3 - "$1" <<-\EOF
	import struct, sys
	b = open(sys.argv[1], "rb").read(24)
	assert b[:8] == b"\x89PNG\r\n\x1a\n", b[:8]
	assert b[12:16] == b"IHDR", b[12:16]
	w, h = struct.unpack(">II", b[16:24])
	print("%dx%d" % (w, h))
	EOF
}

test_expect_success 'PNG: 1200x800, and only the chart is left in the folder' '
	mkdir png &&
	perfsift plot compare base patched --metric "kernbench.elsp-*" \
		-o png/kb.png >out 2>err &&
	test ! -s out &&
	test ! -s err &&
	test "$(png_size png/kb.png)" = 1200x800 &&
	test "$(ls -A png)" = kb.png &&
	perfsift plot series base patched --metric "zoneinfo.*.free" \
		-o png/free.png &&
	test "$(png_size png/free.png)" = 1200x800 &&
	perfsift plot sweep base patched --metric "kernbench.elsp-*" \
		-o png/sweep.PNG &&
	test "$(png_size png/sweep.PNG)" = 1200x800 &&
	perfsift plot latency base patched -o png/lat.png &&
	test "$(png_size png/lat.png)" = 1200x800 &&
	test "$(ls -A png | tr "\n" " ")" = "free.png kb.png lat.png sweep.PNG "
'

test_expect_success 'PNG: the file gets the permissions of a new file' '
	(umask 027 && perfsift plot compare base patched \
		--metric "kernbench.elsp-2" -o perm.png) &&
	test "$(stat -c %a perm.png)" = 640
'

test_expect_success 'SVG: well-formed XML, 1200x800, with the names in it' '
	perfsift plot sweep base patched --x nr_threads \
		--metric will-it-scale.per_thread_ops -o wis.svg &&
	/usr/bin/python3 -c "
import sys, xml.etree.ElementTree as E
root = E.parse(\"wis.svg\").getroot()
assert root.tag.endswith(\"svg\"), root.tag
assert root.get(\"width\") == \"1200\" and root.get(\"height\") == \"800\", root.attrib
text = \" \".join(t.text or \"\" for t in root.iter() if t.tag.endswith(\"text\"))
for want in (\"base\", \"patched\", \"nr_threads\", \"ops\"):
    assert want in text, (want, text[:300])
"
'

test_expect_success 'TXT: 72 columns of text with the variants, the unit and the error bars said' '
	perfsift plot compare base patched --metric "kernbench.elsp-*" \
		-o kb.txt &&
	/usr/bin/python3 -c "
import sys
lines = open(\"kb.txt\", encoding=\"utf-8\").read().split(\"\n\")
wide = [l for l in lines if len(l) > 72]
assert not wide, wide[:3]
" &&
	grep -q "base (n=5)" kb.txt &&
	grep -q "patched (n=5)" kb.txt &&
	grep -q "kernbench.elsp-8 (s)" kb.txt &&
	grep -q "+10.0% \*" kb.txt &&
	grep -q "bars: mean ± sample standard deviation (n-1); points: runs;" kb.txt &&
	test "$(grep -c "kernbench.elsp-[0-9]* (s)" kb.txt)" = 5 &&
	perfsift plot series base patched --metric "proc-vmstat.pgfault" \
		-o rate.txt &&
	grep -q "proc-vmstat.pgfault, rate: base vs patched (per second)" rate.txt &&
	grep -q "seconds since the run.s first sample" rate.txt &&
	grep -q "base run [0-9]*" rate.txt
'

test_expect_success 'names reach gnuplot as they are: quotes, @, _ and backslash' '
	perfsift plot compare base "$ODD" --metric kernbench.elsp-2 \
		-o odd.txt --script >out &&
	grep -q "(\"base (n=5)\" 0, \"q\\\\\"it'"'"'s @x_y\\\\\\\\z (n=2)\" 1)" out &&
	perfsift plot compare base "$ODD" --metric kernbench.elsp-2 \
		-o odd.txt &&
	grep -qF "$ODD (n=2)" odd.txt
'

test_expect_success 'panels of several groups: short titles, the groups in full in the caption' '
	{
		echo "label,machine,testcase,params,iteration,metric,value" &&
		for v in base patched; do
			for i in 0 1 2; do
				echo "$v,,fio,bs=4k;runtime=2;size=64m,$i,x.iops,$((100 + i))" &&
				echo "$v,vm,fio-basic,bs=4k;compiler=gcc-12;kconfig=local;nr_task=1;rootfs=debian-12;runtime=2s;test_size=64m,$i,x.iops,$((200 + i))"
			done
		done
	} >groups.csv &&
	(
	PERFSIFT_DB=$TRASH/groups.db &&
	perfsift import -q groups.csv &&
	perfsift plot compare base patched \
		--metric x.iops -o groups.png --script >groups.gp &&
	# a panel: its metric, its tag and what tells its group apart
	grep -qF "set title \"x.iops [1]\\nfio (runtime=2,size=64m)\"" groups.gp &&
	grep -qF "set title \"x.iops [2]\\nfio-basic on vm (compiler=gcc-12,kconfig=local," groups.gp &&
	# the caption, in the page heading: each group whole
	grep -qF "\\n[1] fio (bs=4k,runtime=2,size=64m)\\n[2] fio-basic on vm (bs=4k,compiler=gcc-12,kconfig=local,nr_task=1,rootfs=debian-12,runtime=2s,test_size=64m)\"" groups.gp &&
	# no panel title line longer than its panel holds (600 px / 9)
	/usr/bin/python3 -c "
import re
for t in re.findall(r\"^set title \\\"(.*)\\\"\$\", open(\"groups.gp\").read(), re.M):
    for line in t.split(\"\\\\n\"):
        assert len(line) <= 600 // 9, line
" &&
	perfsift plot compare base patched \
		--metric x.iops -o groups.png &&
	test -s groups.png &&
	perfsift plot compare base patched \
		--metric x.iops -o groups.txt &&
	grep -q "^ *x.iops \[2\] (no unit recorded)$" groups.txt &&
	grep -q "^ *\[1\] fio (bs=4k,runtime=2,size=64m)$" groups.txt
	)
'

# ---- the environment ----

test_expect_success 'an output that cannot be written: exit 4, nothing left' '
	test_expect_code 4 perfsift plot compare base patched \
		--metric "kernbench.elsp-2" -o nodir/x.png >out 2>err &&
	grep -q "^perfsift: error: cannot write .nodir/x.png.: No such file or directory$" err &&
	echo file >afile &&
	test_expect_code 4 perfsift plot compare base patched \
		--metric "kernbench.elsp-2" -o afile/x.png 2>err &&
	grep -q "^perfsift: error: cannot write .afile/x.png.: Not a directory$" err &&
	mkdir isdir.png &&
	test_expect_code 4 perfsift plot compare base patched \
		--metric "kernbench.elsp-2" -o isdir.png 2>err &&
	grep -q "^perfsift: error: cannot write .isdir.png.: Is a directory$" err &&
	test -z "$(ls -A isdir.png)" &&
	test -z "$(ls -A | grep "\.png\.")"
'

if [ "$(id -u)" = 0 ] && command -v runuser >/dev/null &&
   id nobody >/dev/null 2>&1; then
	test_expect_success 'a folder we may not write: exit 4, nothing left' '
		mkdir ro && chmod 755 ro && chmod 644 "$PERFSIFT_DB" &&
		chmod 755 "$TRASH" &&
		test_expect_code 4 runuser -u nobody -- "$PERFSIFT" \
			--db "$PERFSIFT_DB" plot compare base patched \
			--metric "kernbench.elsp-2" -o ro/x.png 2>err &&
		grep -q "cannot write .ro/x.png.: Permission denied" err &&
		test -z "$(ls -A ro)"
	'
else
	test_skip "a folder we may not write" "needs root, runuser and the user nobody"
fi

test_expect_success 'gnuplot missing from PATH: exit 4 naming gnuplot-nox' '
	mkdir emptybin &&
	test_expect_code 4 env PATH="$TRASH/emptybin" "$PERFSIFT" plot \
		compare base patched --metric "kernbench.elsp-2" -o g.png \
		>out 2>err &&
	grep -q "^perfsift: error: .gnuplot. is not on PATH: install the Debian package gnuplot-nox$" err &&
	test ! -e g.png &&
	test -z "$(ls -A | grep "^\.g\.png")"
'

test_expect_success 'gnuplot failing half-way: exit 4 with its message, the old file kept' '
	mkdir fakebin &&
	cat >fakebin/gnuplot <<-\EOF &&
	#!/bin/sh
	# write half a chart to the output the script names, then fail
	out=$(sed -n "s/^set output \"\(.*\)\"$/\1/p")
	printf "half a chart" >"$out"
	echo "line 42: something went wrong" >&2
	exit 1
	EOF
	chmod +x fakebin/gnuplot &&
	echo "the old chart" >keep.png &&
	test_expect_code 4 env PATH="$TRASH/fakebin:$PATH" "$PERFSIFT" plot \
		compare base patched --metric "kernbench.elsp-2" -o keep.png \
		>out 2>err &&
	grep -q "^perfsift: error: gnuplot failed (exit status 1); it said:$" err &&
	grep -q "^perfsift: error: gnuplot: line 42: something went wrong$" err &&
	test "$(cat keep.png)" = "the old chart" &&
	test -z "$(ls -A | grep "^\.keep")"
'

test_expect_success 'gnuplot that writes nothing: exit 4, nothing left' '
	mkdir nullbin &&
	printf "#!/bin/sh\ncat >/dev/null\n" >nullbin/gnuplot &&
	chmod +x nullbin/gnuplot &&
	test_expect_code 4 env PATH="$TRASH/nullbin:$PATH" "$PERFSIFT" plot \
		compare base patched --metric "kernbench.elsp-2" -o null.png \
		2>err &&
	grep -q "^perfsift: error: gnuplot wrote nothing to .null.png.$" err &&
	test ! -e null.png &&
	test -z "$(ls -A | grep "^\.null")"
'

test_expect_success 'help: plot is in the command list, with its usage' '
	perfsift help >out &&
	grep -q "^   plot  *draw a chart with gnuplot" out &&
	perfsift plot --help >out &&
	grep -q "^usage: perfsift plot KIND SELECTOR" out
'

test_done
