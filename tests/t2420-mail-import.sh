#!/bin/sh
# Tables in mail (issue 9): an mbox is read message by message through
# the mail decoder (lib/mail/mail.c), each message that holds a table is
# its own import with its headers kept (Message-ID, Subject, From, Date,
# In-Reply-To, References), a broken message is named with its line and
# the others are kept, a message without a table is skipped; then
# compare on two commits of the thread, end to end.
. "$(dirname "$0")/lib.sh"

MAIL=$SRC/tests/fixtures/mail
export MAIL

test_expect_success 'a robot thread: every good message imports, the broken one is named' '
	test_expect_code 3 perfsift --db t.db import "$MAIL/robot-thread.mbox" >out 2>err &&
	cat >expect <<-EOF &&
	$MAIL/robot-thread.mbox message 1: lkp-table, 0 runs, 0 samples, 14 aggregates; 1 table: 7 rows
	$MAIL/robot-thread.mbox message 2: lkp-table, 0 runs, 0 samples, 4 aggregates; 1 table: 2 rows
	$MAIL/robot-thread.mbox message 3: lkp-table, 0 runs, 0 samples, 6 aggregates; 2 tables: 2 rows, 1 row
	$MAIL/robot-thread.mbox message 5: lkp-table, 0 runs, 0 samples, 8 aggregates; 1 table: 4 rows
	$MAIL/robot-thread.mbox message 6: lkp-table, 0 runs, 0 samples, 2 aggregates; 1 table: 1 row
	imported 5 messages: 0 runs, 0 samples, 34 aggregates; 1 failed
	EOF
	test_cmp expect out &&
	grep "robot-thread.mbox:189: truncated message (from line 172)" err &&
	test "$(sqlite3 t.db "SELECT group_concat(message) FROM (SELECT message FROM imports ORDER BY message)")" = "1,2,3,5,6"
'

test_expect_success 'the last reply: one headerless row, its columns named by its Message-ID' '
	sqlite3 t.db "SELECT v.label, a.value, a.stddev_kind, a.stddev_source,
		coalesce(a.change_source, \"-\")
		FROM aggregates a JOIN variants v ON v.id = a.variant_id
		JOIN imports i ON i.id = a.import_id WHERE i.message = 6
		ORDER BY a.id" >six &&
	cat >expect <<-\EOF &&
	87h6xyz.fsf-base|579287.0|relative|1.0|-
	87h6xyz.fsf-new|581020.0|at-most-relative|2.0|+0.3%
	EOF
	test_cmp expect six
'

test_expect_success 'each message keeps its headers as import metadata' '
	sqlite3 t.db "SELECT i.message, m.key, m.value FROM imports i
		JOIN import_meta m ON m.import_id = i.id
		WHERE m.key IN (\"message_id\", \"in_reply_to\")
		ORDER BY i.message, m.key" >meta &&
	cat >expect <<-\EOF &&
	1|message_id|202508150803.d5387224-lkp@intel.com
	2|in_reply_to|202508150803.d5387224-lkp@intel.com
	2|message_id|4b1c0f2e-77aa-4a3c-9e0e-2f9d1c2b7a10@kernel.dk
	3|in_reply_to|4b1c0f2e-77aa-4a3c-9e0e-2f9d1c2b7a10@kernel.dk
	3|message_id|aKKJ5QcZ1fTzK4y2@xsang-OptiPlex-9020
	5|in_reply_to|202508150803.d5387224-lkp@intel.com
	5|message_id|archive-202508150803.d5387224@example.org
	6|in_reply_to|aKKJ5QcZ1fTzK4y2@xsang-OptiPlex-9020
	6|message_id|87h6xyz.fsf@example.org
	EOF
	test_cmp expect meta &&
	# an RFC 2047 subject in two encoded words, decoded and joined
	sqlite3 t.db "SELECT m.value FROM imports i JOIN import_meta m
		ON m.import_id = i.id WHERE i.message = 3 AND m.key = \"subject\"" >subj &&
	grep "^Re: \[linus:master\] \[llist\] 375700bab5: will-it-scale.per_thread_ops" subj
'

test_expect_success 'rows keep the raw line numbers of the mbox' '
	perfsift --db t.db debug dump >dump &&
	grep -F "will-it-scale.per_thread_ops	mean	3016	NULL	at-most-relative	2	NULL	NULL	63" dump &&
	grep -F "perf-c2c.HITM.total	mean	118225	2364.5	relative	2	NULL	NULL	118" dump
'

rows_of() {
	sqlite3 t.db "SELECT v.label || \" \" || m.name || \" \" || a.value ||
		\" \" || a.stddev_kind || \" \" || a.stddev_source
		FROM aggregates a JOIN variants v ON v.id = a.variant_id
		JOIN metrics m ON m.id = a.metric_id
		JOIN imports i ON i.id = a.import_id
		WHERE i.message = $1" | sort
}

test_expect_success 'the archive copy, its blanks collapsed and quoted-printable, reads the same numbers' '
	rows_of 1 >one &&
	rows_of 5 >five &&
	test "$(wc -l <five)" = 8 &&
	comm -13 one five >extra &&
	! test -s extra
'

test_expect_success 'imported again: every message already there, nothing added' '
	perfsift --db t.db debug dump >before &&
	test_expect_code 3 perfsift --db t.db import "$MAIL/robot-thread.mbox" >out 2>err &&
	test "$(grep -c ": already imported$" out)" = 5 &&
	perfsift --db t.db debug dump >after &&
	test_cmp before after
'

test_expect_success 'compare on two commits of the thread, end to end' '
	perfsift --db t.db compare 5ef2dccfcca8 375700bab5b1 --all --json \
		--metric will-it-scale.per_thread_ops --testcase will-it-scale >c.json &&
	python3 -c "
import json
d = json.load(open(\"c.json\"))
r = d[\"rows\"]
assert len(r) == 1, r
assert r[0][\"machine\"] == \"lkp-csl-2sp10\", r[0]
assert r[0][\"base\"][\"mean\"] == 3016 and r[0][\"vs\"][0][\"mean\"] == 2938, r
assert abs(r[0][\"vs\"][0][\"change_pct\"] - 100 * (2938 / 3016 - 1)) < 1e-9
"
'

test_expect_success 'a truncated email: nothing kept, the line named' '
	test_expect_code 3 perfsift --db tr.db import "$MAIL/truncated.eml" >out 2>err &&
	grep "truncated.eml:23: truncated message" err &&
	test "$(sqlite3 tr.db "SELECT count(*) FROM aggregates")" = 0
'

test_expect_success 'a mail without any table is an error when named, skipped when walked' '
	test_expect_code 3 perfsift --db n.db import "$MAIL/no-table.eml" 2>err &&
	grep "no-table.eml: no message holds a table perfsift reads" err &&
	! grep warning err &&
	mkdir walk && cp "$MAIL/no-table.eml" walk/ &&
	perfsift --db n.db import walk >out &&
	grep "message 1: skipped: no table in it" out
'

test_expect_success 'an MMTests table in a CRLF, folded, quoted-printable .eml' '
	perfsift --db mm.db import "$MAIL/crlf-folded.eml" >out &&
	grep "crlf-folded.eml message 1: mmtests-table, 0 runs, 0 samples, 8 aggregates" out &&
	perfsift --db mm.db debug dump >dump &&
	grep -F "6.8.0-rc7-patched-v2r1	6.8.0-rc7	NULL	pagealloc-bench			pagealloc-bench.alloc-odr0-1	Amean	371	NULL	NULL	NULL	NULL	*	26" dump &&
	# the typographic minus of the mail reads as a minus
	grep -F "6.8.0-rc7-patched-v2r1	6.8.0-rc7	NULL	pagealloc-bench			pagealloc-bench.alloc-odr0-1	CoeffVar	0.44	NULL	NULL	NULL	NULL	NULL	29" dump &&
	sqlite3 mm.db "SELECT value FROM import_meta WHERE key = \"subject\"" >subj &&
	echo "Re: [PATCH] mm/page_alloc: ± noise in the MMTests tables (was: page allocator regressions)" >expect &&
	test_cmp expect subj
'

# one small report per era of the robot's subject (research/lkp.md §3.2)
report() {
	cat <<-EOF
	From: kernel test robot <lkp@intel.com>
	Subject: $1
	Message-ID: <$2@example.org>
	Date: Mon, 1 Jan 2024 00:00:00 +0000

	0123456789abcdef abcdef0123456789abcdef01234
	---------------- ---------------------------
	         %stddev     %change         %stddev
	             \          |                \\
	      3000            $3       $4        $5
	EOF
}

test_expect_success 'the robot subject of every era names the headline' '
	report "[lkp-robot] [mm/cma] 2b0f904a5a: fio.read_bw_MBps -16.1% regression" a -16.1% 2517 fio.read_bw_MBps >a.eml &&
	report "[genirq] cbe16f35be: will-it-scale.per_thread_ops -5.2% regression" b -5.2% 2844 will-it-scale.per_thread_ops >b.eml &&
	report "[linus:master] [llist]  375700bab5:  will-it-scale.per_thread_ops 2.6% regression" c -2.6% 2922 will-it-scale.per_thread_ops >c.eml &&
	report "[linux-next:master] [fork] 6e553c6bcb: will-it-scale.per_process_ops 94.7% improvement" d +94.7% 5841 will-it-scale.per_process_ops >d.eml &&
	perfsift --db s.db import a.eml b.eml c.eml d.eml >out 2>err &&
	! grep warning err &&
	sqlite3 s.db "SELECT value FROM import_meta WHERE key = \"headline\" ORDER BY import_id" >got &&
	cat >expect <<-\EOF &&
	fio.read_bw_MBps -16.1% regression
	will-it-scale.per_thread_ops -5.2% regression
	will-it-scale.per_thread_ops 2.6% regression
	will-it-scale.per_process_ops 94.7% improvement
	EOF
	test_cmp expect got
'

test_expect_success 'a subject that disagrees with its table is warned about' '
	report "[genirq] cbe16f35be: will-it-scale.per_thread_ops -9.2% regression" e -5.2% 2844 will-it-scale.per_thread_ops >e.eml &&
	perfsift --db s.db import e.eml 2>err &&
	grep "warning: e.eml:[0-9]*: .will-it-scale.per_thread_ops.: the report says -9.2%, its table -5.2%" err
'

test_done
