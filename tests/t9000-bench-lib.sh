#!/bin/sh
# The arithmetic and the table of make bench (scripts/bench-lib.sh):
# medians, spreads, rates, verdicts, the TSV line of each figure and the
# "refused" figure.  Fixed numbers only: no timing is measured or
# asserted here (the machine is shared; timings belong to make bench).
. "$(dirname "$0")/lib.sh"

# lib CMDS: run CMDS in bash with the bench's helpers loaded, in a
# table directory of its own (bench-lib.sh is bash: arrays, local)
lib() {
	mkdir -p t && : >t/tsv &&
	bash -c 'set -eu; tmp=t nr_pass=0 nr_miss=0 failed=0
		. "$SRC/scripts/bench-lib.sh"; '"$1"
}

test_expect_success 'summarize: median, min and max, odd count' '
	lib "summarize 3 1.5 2 10 0.25; echo \$med \$lo \$hi" >out &&
	echo "2 0.25 10" >expect &&
	test_cmp expect out
'

test_expect_success 'summarize: the mean of the middle two, even count' '
	lib "summarize 4 1 3 2; echo \$med \$lo \$hi" >out &&
	echo "2.5 1 4" >expect &&
	test_cmp expect out
'

test_expect_success 'per: times into rates, the slowest run the lowest' '
	lib "summarize 2 1 4; per 8; echo \$med \$lo \$hi" >out &&
	echo "4 2 8" >expect &&
	test_cmp expect out
'

test_expect_success 'judge: >= and <=, equal passes' '
	lib "judge 5 \">=\" 5; echo \$vd; judge 5.1 \"<=\" 5; echo \$vd" >out &&
	printf "pass\nmiss\n" >expect &&
	test_cmp expect out
'

test_expect_success 'fig: a time beside its floor, the TSV line, the count' '
	lib "summarize 0.3 0.1 0.2; scale 1000
	     fig cmp_ms \"compare [ms]\" %.1f 100 \"<= 62\" miss
	     echo \$nr_pass \$nr_miss" >out &&
	grep "^  compare \[ms\]  *200.0  *100.0-300.0  *100.0  *2.00x  <= 62  *miss$" out &&
	tail -n 1 out >count && echo "0 1" >expect && test_cmp expect count &&
	printf "cmp_ms\t200\t100\t300\t100\t2.0000\t<= 62\tmiss\n" >expect &&
	test_cmp expect t/tsv
'

test_expect_success 'fig: a rate is floor / median, thousands separated' '
	lib "med=250000 lo=200000 hi=1000000
	     fig r \"rate [samples/s]\" int 500000 \">= 500,000\" miss" >out &&
	grep "^  rate \[samples/s\]  *250,000  *200,000-1,000,000  *500,000  *2.00x" out &&
	cut -f6 t/tsv >ratio && echo 2.0000 >expect && test_cmp expect ratio
'

test_expect_success 'missing: refused counts as a miss only with a target' '
	lib "missing a \"big [MiB]\" \"<= 64 MiB\" refused
	     missing b \"growth [ms]\" \"\" refused
	     echo \$nr_miss" >out &&
	tail -n 1 out >count && echo 1 >expect && test_cmp expect count &&
	printf "a\trefused\t\t\t\t\t<= 64 MiB\tmiss\nb\trefused\t\t\t\t\t\t\n" \
		>expect &&
	test_cmp expect t/tsv
'

test_done
