#!/bin/sh
# The MMTests tables of 14 real mailing-list messages of 2013-2024
# (../shared/samples/emails, PROVENANCE.md there): each message imported
# alone, every table found with its title, columns and rows, no row
# skipped, and cells read off each message by hand (the value, the
# significance star, the percentage as printed, a Duration or Ops value)
# checked in the database.  The mail decoding (quoting, quoted-printable)
# is the mail reader's; what is tested here is the table reading: the
# two-line header, fused lower headers, one-line and hand-written
# headers, names with blanks and quotes, 9 columns, 2013's pft fields and
# label-less monitors, 2016's "(114.93%)", hand-realigned columns,
# titles and sub-headings.
. "$(dirname "$0")/lib.sh"

EMAILS=$SRC/../shared/samples/emails
if [ ! -d "$EMAILS" ]; then
	say "1..0 # SKIP the real messages are absent: $EMAILS"
	echo "0 passed, 0 failed, 1 skipped"
	exit 0
fi
export EMAILS

# import_alone FILE: FILE into a fresh m.db; it must import, silently
import_alone() {
	rm -f m.db* &&
	perfsift --db m.db import "$EMAILS/$1" >out 2>err &&
	grep "message 1: mmtests-table, " out &&
	test_cmp /dev/null err
}

# The tables found, in order, against the expected list on stdin.
tables_are() {
	cat >expect-tables &&
	sqlite3 m.db "SELECT kind, title, columns, rows_read, rows_skipped
		FROM import_tables ORDER BY seq" >tables &&
	test_cmp expect-tables tables
}

# Cells on stdin, one a line: label|metric|stat|value|marker|change, the
# marker '-' for none, the change as printed against the first column
# ('-' for the first column, empty where the table prints none).
cells_are() {
	while IFS='|' read -r label metric stat want; do
		got=$(sqlite3 m.db "SELECT a.value || '|' ||
			coalesce(a.marker, '-') || '|' ||
			coalesce(a.change_source, '-')
			FROM aggregates a JOIN variants v ON v.id = a.variant_id
			JOIN metrics m ON m.id = a.metric_id
			WHERE v.label = '$label' AND m.name = '$metric'
			AND a.stat = '$stat'") || return 1
		if [ "$got" != "$want" ]; then
			echo "$label / $metric / $stat: want '$want', got '$got'"
			return 1
		fi
	done
}

test_expect_success '2013 fair zone: pft fields, monitors without labels or "Duration", quoted' '
	import_alone 2013-mmtests-pft-parallelio-vmstat-fair-zone-quoted.txt &&
	# the Duration blocks and the vmstat block have no title and prose
	# above them: they belong to the last benchmark with their runs
	tables_are <<-\EOF &&
	mmtests|pft|2|20|0
	mmtests|pft|2|3|0
	mmtests|parallelio|2|24|0
	mmtests|parallelio|2|3|0
	mmtests|parallelio|2|45|0
	EOF
	cells_are <<-\EOF
	mmotm-fairpcp|pft.Faults/cpu-1|Mean|391558.5131|-|-0.30%
	mmotm-unfair|pft.User-1|Mean|0.0258|-|-
	mmotm-fairpcp|pft.Faults/sec-4|Mean|884026.1721|-|0.08%
	mmotm-unfair|pft.User|Duration|39.9|-|-
	mmotm-fairpcp|pft.System|Duration|1069.5|-|
	mmotm-fairpcp|pft.Elapsed|Duration|556.86|-|
	mmotm-fairpcp|parallelio.memcachetest-6257M|Ops|27610.0|-|55.37%
	mmotm-unfair|parallelio.majorfaults-1877M|Ops|7636.0|-|-
	mmotm-fairpcp|parallelio.swaptotal-1877M|Ops|0.0|-|0.00%
	mmotm-unfair|parallelio.User|Duration|592.67|-|-
	mmotm-fairpcp|parallelio.System|Duration|3628.81|-|
	mmotm-fairpcp|parallelio.Elapsed|Duration|7206.46|-|
	mmotm-unfair|parallelio.Kswapd efficiency|Ops|56.0|-|-
	mmotm-fairpcp|parallelio.Kswapd velocity|Ops|6956.262|-|
	mmotm-unfair|parallelio.Page Outs|Ops|163980516.0|-|-
	mmotm-fairpcp|parallelio.Percentage direct scans|Ops|0.0|-|
	EOF
'

test_expect_success '2016 numaswap: "(114.93%)", a fused vmstat header' '
	import_alone 2016-mmtests-mutilate-numaswap-old-2space-format-vmstat.txt &&
	# the vmstat table: prose above it, and its second run is named
	# numaswap-v1r1 where the mutilate table says numaswap-v1
	tables_are <<-\EOF &&
	mmtests|mutilate|2|7|0
	mmtests||2|15|0
	EOF
	cells_are <<-\EOF &&
	4.4.0-numaswap-v1|mutilate.7|Hmean|70542.96|-|114.93%
	4.4.0-vanilla|mutilate.47|Hmean|18070.91|-|-
	4.4.0-numaswap-v1|mutilate.12|Hmean|93866.34|-|69.96%
	4.4.0-numaswap-v1r1|Minor Faults|Ops|2146148218.0|-|
	4.4.0-vanilla|Swap Ins|Ops|57307366.0|-|-
	4.4.0-numaswap-v1r1|Page writes anon|Ops|17094.0|-|
	EOF
	test "$(sqlite3 m.db "SELECT group_concat(DISTINCT kernel)
		FROM variants")" = 4.4.0
'

test_expect_success '2019 resetpcpu: kernbench quoted, Duration under "vanillaresetpcpu-v1r1"' '
	import_alone 2019-mmtests-kernbench-resetpcpu-fused-header-quoted.txt &&
	tables_are <<-\EOF &&
	mmtests|kernbench|2|6|0
	mmtests|kernbench|2|3|0
	EOF
	cells_are <<-\EOF
	5.4.0-rc3-resetpcpu-v1r1|kernbench.syst-256|Amean|4551.77|*|69.16%
	5.4.0-rc3-vanilla|kernbench.elsp-256|Amean|162.42|-|-
	5.4.0-rc3-resetpcpu-v1r1|kernbench.user-256|Stddev|50.83|-|-18.30%
	5.4.0-rc3-resetpcpu-v1r1|kernbench.System|Duration|13671.93|-|
	5.4.0-rc3-vanilla|kernbench.User|Duration|39766.24|-|-
	5.4.0-rc3-resetpcpu-v1r1|kernbench.Elapsed|Duration|387.65|-|
	EOF
'

test_expect_success '2019 core scheduling: four 9-kernel tables, quoted-printable' '
	import_alone 2019-mmtests-sysbenchthread-9col-qp-softbreaks-coresched.txt &&
	# SYSBENCHTHREAD is a heading two blank lines and a URL above the
	# first header: not a title
	tables_are <<-\EOF &&
	mmtests||8|12|0
	mmtests||8|12|0
	mmtests||8|10|0
	mmtests||8|12|0
	EOF
	cells_are <<-\EOF
	BM-csc-HT|1|Amean|8.49|*|-659.72%
	v-BM-HT|1|Amean|1.12|-|-
	BM-csc-HT|3|Stddev|0.13|-|-3211.60%
	v-VM-noHT|1|Amean|1.15|*|19.56%
	v-VM-HT|16|Stddev|0.05|-|-
	VM-noHT|12|Stddev|0.03|-|-11031521092846084.00%
	VM-v4-csc_stallfix-HT|3|Amean|1.19|*|16.93%
	v-VM-v4-HT|8|Amean|1.43|-|-
	v-VM-v4-noHT|5|Stddev|0.04|-|-700.00%
	VMx2-HT|1|Amean|1.54|*|-32.84%
	VMx2-csc-HT|1|Amean|2.83|-|-144.32%
	VMx2-csc-HT|1|Stddev|3.19|-|-42121.82%
	EOF
'

test_expect_success '2020 fsnotify: four kernels, stars' '
	import_alone 2020-mmtests-fsnotify-4kernel-reply.txt &&
	tables_are <<-\EOF &&
	mmtests||4|9|0
	EOF
	cells_are <<-\EOF
	5.7.0-fastfsnotify-v1r1|1|Amean|0.463|*|4.27%
	5.7.0-amir-20200608|32|Amean|14.714|*|-5.71%
	5.7.0-fastfsnotify-v2r1|3|Amean|1.531|-|0.88%
	5.7.0-vanilla|12|Amean|5.8267|-|-
	EOF
'

test_expect_success '2020 pseudo inodes: two kernels, "( x%)" and "* x%*"' '
	import_alone 2020-mmtests-fsnotify-pseudo-inodes.txt &&
	tables_are <<-\EOF &&
	mmtests||2|9|0
	EOF
	cells_are <<-\EOF
	5.7.0-nofsnotify-v1r1|5|Amean|5.7233|*|1.54%
	5.7.0-vanilla|32|Amean|38.0527|-|-
	5.7.0-nofsnotify-v1r1|24|Amean|29.168|-|-1.03%
	EOF
'

test_expect_success '2020 uclamp: a one-line header, three levels of quoting' '
	import_alone 2020-mmtests-netperf-udp-uclamp-3col-nested-quoted.txt &&
	tables_are <<-\EOF &&
	mmtests||3|9|0
	EOF
	cells_are <<-\EOF
	uclamp|send-64|Hmean|157.84|*|-2.82%
	uclamp-static-key|send-16384|Hmean|26773.74|*|1.47%
	nouclamp|send-1024|Hmean|2525.28|-|-
	EOF
'

test_expect_success '2021 wakegran: "multi subtest", fused headers, "*-105.52%*"' '
	import_alone 2021-mmtests-sched-wakegran-kernbench-netperf-dbench-3col-quoted.txt &&
	# the dbench table: the line above its header is prose ("... dbench
	# reports"), a blank line between
	tables_are <<-\EOF &&
	mmtests|kernbench|3|9|0
	mmtests|netperf-tcp-rr|3|5|0
	mmtests||3|8|0
	mmtests|dbench4|3|6|0
	EOF
	cells_are <<-\EOF
	5.15.0-rc1-sched-moveforward-v1r1|kernbench.syst-80|Amean|232.93|*|6.29%
	5.15.0-rc1-sched-scalewakegran-v2r5|kernbench.elsp-80|CoeffVar|6.76|-|6.79%
	5.15.0-rc1-vanilla|kernbench.user-80|Amean|1518.87|-|-
	5.15.0-rc1-sched-moveforward-v1r1|kernbench.user-80|Amean|1518.93|-|-0.00%
	5.15.0-rc1-sched-moveforward-v1r1|netperf-tcp-rr.1|Hmean|39552.3|*|1.13%
	5.15.0-rc1-vanilla|netperf-tcp-rr.1|Min|32388.28|-|-
	5.15.0-rc1-sched-scalewakegran-v2r5|netperf-tcp-rr.1|Max|51263.38|-|-3.31%
	5.15.0-rc1-sched-moveforward-v1r1|4|Amean|45.86|*|-105.52%
	5.15.0-rc1-sched-scalewakegran-v2r5|128|Amean|336.06|*|-1.71%
	5.15.0-rc1-vanilla|64|Amean|127.81|-|-
	5.15.0-rc1-sched-moveforward-v1r1|dbench4.2|Amean|39.81|*|-6.26%
	5.15.0-rc1-sched-scalewakegran-v2r5|dbench4.4|Amean|51.34|-|-0.04%
	5.15.0-rc1-vanilla|dbench4.1|Stddev|1.43|-|-
	EOF
'

test_expect_success '2022 WF_SYNC: netperf-udp unquoted in a quoted thread' '
	import_alone 2022-mmtests-netperf-udp-wfsync-reply.txt &&
	tables_are <<-\EOF &&
	mmtests|netperf-udp|2|9|0
	EOF
	cells_are <<-\EOF
	6.1.0-rc3-sched-wfsync-v1r1|netperf-udp.send-64|Hmean|112.75|*|-52.06%
	6.1.0-rc3-vanilla|netperf-udp.send-16384|Hmean|43537.08|-|-
	6.1.0-rc3-sched-wfsync-v1r1|netperf-udp.send-4096|Hmean|6824.96|*|-52.93%
	EOF
'

test_expect_success '2022 sync wakeup: hand-realigned, underlined titles, sub-headings' '
	import_alone 2022-mmtests-reformatted-hackbench-pgbench-quoted-tim-chen.txt &&
	tables_are <<-\EOF &&
	mmtests|Hackbench|2|15|0
	mmtests|Hackbench|2|15|0
	mmtests|Hackbench|2|15|0
	mmtests|Hackbench|2|15|0
	mmtests|Pgbench|2|10|0
	EOF
	cells_are <<-\EOF
	Patched|Hackbench.process-pipes-1|Amean|0.442|-|-2.79%
	Baseline|Hackbench.process-pipes-288|Amean|58.0595|-|-
	Patched|Hackbench.process-pipes-79|Amean|16.1385|-|-1.32%
	Patched|Hackbench.process-sockets-172|Amean|110.3947|-|1.21%
	Baseline|Hackbench.process-sockets-1|Amean|0.6776|-|-
	Patched|Hackbench.process-sockets-21|Amean|13.2915|-|1.79%
	Patched|Hackbench.thread-pipes-30|Amean|6.2391|-|-2.21%
	Baseline|Hackbench.thread-pipes-4|Amean|0.9041|-|-
	Patched|Hackbench.thread-pipes-288|Amean|60.2903|-|-1.28%
	Patched|Hackbench.thread-sockets-21|Amean|13.6679|-|2.69%
	Baseline|Hackbench.thread-sockets-288|Amean|195.5573|-|-
	Patched|Hackbench.thread-sockets-12|Amean|7.8079|-|2.59%
	Patched|Pgbench.6|Hmean|34119.11|-|23.06%
	Baseline|Pgbench.1|Hmean|68.54|-|-
	Patched|Pgbench.144|Hmean|71295.72|-|-5.41%
	EOF
'

test_expect_success '2022 scalewakegran v5: hackbench and its Duration block' '
	import_alone 2022-mmtests-sched-scalewakegran-v5.txt &&
	tables_are <<-\EOF &&
	mmtests|hackbench-process-pipes|2|15|0
	mmtests|hackbench-process-pipes|2|3|0
	EOF
	cells_are <<-\EOF
	5.17.0-rc0-sched-scalewakegran-v5|hackbench-process-pipes.110|Amean|12.5193|*|30.03%
	5.17.0-rc0-sched-scalewakegran-v5|hackbench-process-pipes.234|Amean|29.2507|-|9.04%
	5.17.0-rc0-vanilla|hackbench-process-pipes.1|Amean|0.336|-|-
	5.17.0-rc0-vanilla|hackbench-process-pipes.User|Duration|16189.01|-|-
	5.17.0-rc0-sched-scalewakegran-v5|hackbench-process-pipes.System|Duration|30529.21|-|
	5.17.0-rc0-sched-scalewakegran-v5|hackbench-process-pipes.Elapsed|Duration|605.33|-|
	EOF
'

test_expect_success '2023 sparsetruncate: quartiles, Max-N, BAmean-N' '
	import_alone 2023-mmtests-sparsetruncate-tiny-quartiles-bamean.txt &&
	# "baseline" over "baseline/": a name without a dash
	tables_are <<-\EOF &&
	mmtests||2|20|0
	EOF
	cells_are <<-\EOF
	with-patch/|Time|Amean|345.56|*|-0.28%
	baseline/|Time|BAmean-25|329.3|-|-
	with-patch/|Time|Max-99|434.0|-|14.57%
	with-patch/|Time|1st-qrtle|336.0|-|-0.60%
	EOF
'

test_expect_success '2023 sockmem: titles with remarks, a one-line header' '
	import_alone 2023-mmtests-tbench4-netperf-udp-tcp-sockmem.txt &&
	tables_are <<-\EOF &&
	mmtests|tbench4|2|10|0
	mmtests|netperf-udp|2|18|0
	mmtests|netperf-tcp|2|9|0
	EOF
	cells_are <<-\EOF
	patchset|tbench4.1|Hmean|360.31|*|0.89%
	patchset|tbench4.32|Hmean|8684.26|-|-0.10%
	baseline|tbench4.384|Hmean|22605.36|-|-
	patchset|netperf-udp.send-8192|Hmean|24205.35|*|1.26%
	baseline|netperf-udp.recv-2048|Hmean|7727.19|-|-
	patchset|netperf-udp.recv-16384|Hmean|39372.28|-|-0.57%
	patchset|netperf-tcp.8192|Hmean|39632.41|*|-1.36%
	baseline|netperf-tcp.64|Hmean|1756.32|-|-
	patchset|netperf-tcp.1024|Hmean|19036.21|-|-0.08%
	EOF
'

test_expect_success '2024 get_partial_node: run names with blanks and quotes' '
	import_alone 2024-mmtests-slub-get_partial_node-hackbench.txt &&
	tables_are <<-\EOF &&
	mmtests|hackbench-process-pipes|2|8|0
	mmtests|hackbench-process-sockets|2|8|0
	EOF
	cells_are <<-\EOF &&
	6.9.0-rc2(with ">=")|hackbench-process-pipes.1|Amean|0.0356|*|4.60%
	6.9-rc2(with ">")|hackbench-process-pipes.64|Amean|1.2321|-|-
	6.9.0-rc2(with ">=")|hackbench-process-pipes.12|Amean|0.3141|*|-6.59%
	6.9.0-rc2(with ">=")|hackbench-process-sockets.64|Amean|3.764|*|-0.65%
	6.9-rc2(with ">")|hackbench-process-sockets.7|Amean|0.3754|-|-
	6.9.0-rc2(with ">=")|hackbench-process-sockets.48|Amean|2.7897|*|-2.11%
	EOF
	test "$(sqlite3 m.db "SELECT kernel FROM variants
		WHERE label = '"'"'6.9-rc2(with \">\")'"'"' LIMIT 1")" = 6.9-rc2
'

test_expect_success 'all 14 together, one database: each message its own import' '
	rm -f all.db* &&
	for f in "$EMAILS"/*mmtests*; do
		perfsift --db all.db import "$f" >>out 2>>err || return 1
	done &&
	test_cmp /dev/null err &&
	test "$(sqlite3 all.db "SELECT count(*) FROM imports")" = 14 &&
	sqlite3 all.db "SELECT count(*), sum(rows_read), sum(rows_skipped)
		FROM import_tables" >sum &&
	echo "34|397|0" >expect &&
	test_cmp expect sum
'

test_done
