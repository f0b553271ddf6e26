#!/bin/sh
# The lkp and mmtests layouts of compare reproduce the real outputs
# byte for byte when given the same values: the 2025 kernel test robot
# email in samples/lkp, and the MMTests 5.3.0-rc3 mail table quoted in
# research/mmtests.md §1.2.  The values go in as aggregates (CSV with a
# stat column), exactly as the tables printed them.
. "$(dirname "$0")/lib.sh"
need_samples

EMAIL=$SAMPLES/lkp/email-2025-08-15-llist-will-it-scale-2.6pct-regression.txt
RESEARCH=$SAMPLES/../research/mmtests.md
export EMAIL RESEARCH

# metric, base mean, base relative stddev %, new mean, new rel stddev %
# (means with the digits lkp did not print, where its rounding needs them)
cat >lkp-values <<\EOF
perf-c2c.HITM.total 118225 2.4 111161 -
proc-vmstat.pgfault 192600000 - 187800000 -
vmstat.system.cs 14579 - 14264 -
will-it-scale.192.threads_idle 1.9776 - 1.9203 -
will-it-scale.per_thread_ops 3016 - 2938 -
perf-sched.sch_delay.avg.ms.syscall_exit_to_user_mode.do_syscall_64.entry_SYSCALL_64_after_hwframe.[unknown] 0.3281 19.3 0.4403 6.2
perf-sched.total_wait_and_delay.count.ms 71544 2.1 62531 3.4
perf-sched.wait_and_delay.avg.ms.anon_pipe_read.vfs_read.ksys_read.do_syscall_64 47.56 115.2 152.39 11.9
perf-sched.wait_time.avg.ms.__cond_resched.unmap_vmas.vms_clear_ptes.part.0 0.3 73.5 0.0792 109.1
perf-profile.calltrace.cycles-pp.llist_add_batch.smp_call_function_many_cond.on_each_cpu_cond_mask.flush_tlb_mm_range.tlb_finish_mmu 27.27 - 0 -
EOF

test_expect_success 'build the lkp table from the email values' '
	{
		echo "label,testcase,metric,stat,value,stddev,stddev_kind"
		while read -r m b bs n ns; do
			[ "$bs" = - ] && bs=
			[ "$ns" = - ] && ns=
			echo "5ef2dccfcca8d864,will-it-scale,$m,mean,$b,$bs,relative"
			echo "375700bab5b150e876e42d894a9,will-it-scale,$m,mean,$n,$ns,relative"
		done <lkp-values
	} >lkp.csv &&
	perfsift --db lkp.db import -q lkp.csv &&
	perfsift --db lkp.db compare 5ef2dccfcca8d864 375700bab5b150e876e42d894a9 \
		--all --format lkp >out
'

test_expect_success 'lkp: the four header lines are the email'"'"'s' '
	grep -A3 "^5ef2dccfcca8d864 " "$EMAIL" >expect &&
	grep -A3 "^5ef2dccfcca8d864 " out >actual &&
	test $(wc -l <expect) = 4 &&
	test_cmp expect actual
'

test_expect_success 'lkp: every row is the email'"'"'s row, byte for byte' '
	while read -r m rest; do
		want=$(awk -v m="$m" "/^ *[0-9]/ && \$NF == m" "$EMAIL" | head -n 1) &&
		test -n "$want" &&
		grep -F -x -e "$want" out ||
			{ echo "row differs: $m"; echo "want: $want"; grep -F -e "$m" out; exit 1; }
	done <lkp-values
'

test_expect_success 'mmtests: the 5.3.0-rc3 fsmark table of research/mmtests.md' '
	grep -A8 "^Mail example of the previous label set" "$RESEARCH" |
		sed -n "3,9p" >expect &&
	test $(wc -l <expect) = 7 &&
	cat >mm.csv <<-\EOF &&
	label,testcase,metric,stat,value
	5.3.0-rc3-vanilla,fsmark,fsmark.1-files/sec,Min,5181.70
	5.3.0-rc3-vanilla,fsmark,fsmark.1-files/sec,1st-qrtle,14877.10
	5.3.0-rc3-vanilla,fsmark,fsmark.1-files/sec,Max-1,18463.00
	5.3.0-rc3-vanilla,fsmark,fsmark.1-files/sec,Hmean,7459.11
	5.3.0-rc3-vanilla,fsmark,fsmark.1-files/sec,BHmean-50,10953.31
	5.3.0-rc3-shrinker-v1r1,fsmark,fsmark.1-files/sec,Min,3204.20
	5.3.0-rc3-shrinker-v1r1,fsmark,fsmark.1-files/sec,1st-qrtle,6596.90
	5.3.0-rc3-shrinker-v1r1,fsmark,fsmark.1-files/sec,Max-1,18479.90
	5.3.0-rc3-shrinker-v1r1,fsmark,fsmark.1-files/sec,Hmean,6249.49
	5.3.0-rc3-shrinker-v1r1,fsmark,fsmark.1-files/sec,BHmean-50,8017.89
	EOF
	perfsift --db mm.db import -q mm.csv &&
	perfsift --db mm.db compare 5.3.0-rc3-vanilla 5.3.0-rc3-shrinker-v1r1 \
		--all --format mmtests >out &&
	sed -n "3,9p" out >actual &&
	test_cmp expect actual
'

test_expect_success 'mmtests: kernbench Amean 300.28 -> 309.38 is starred -3.03%' '
	cat >kb.csv <<-\EOF &&
	label,testcase,metric,stat,value,stddev,n
	6.1-vanilla,kernbench,kernbench.elsp-2,Amean,300.28,1.74,5
	6.1-patched,kernbench,kernbench.elsp-2,Amean,309.38,1.25,5
	EOF
	perfsift --db kb.db import -q kb.csv &&
	perfsift --db kb.db compare 6.1-vanilla 6.1-patched --format mmtests >out &&
	grep -x "Amean elsp-2      300.28 (   0.00%)      309.38 \*  -3.03%\*" out
'

test_done
