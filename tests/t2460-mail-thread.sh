#!/bin/sh
# A thread, end to end (issue 33): an mbox built from real messages of
# ../shared/samples/emails (a robot report, a reply quoting another
# report, two MMTests posts) and replies written here that quote them
# one and two levels deep, in quoted-printable and with their blanks
# collapsed, imported in one command; then compare, show and
# regressions on two commits of it answer with the numbers the report
# printed.
. "$(dirname "$0")/lib.sh"
need_samples
need_python3 'the mail thread'

EMAILS=$SAMPLES/emails
ROBOT=$EMAILS/2025-lkp-will-it-scale-poll2-do_pollfd.txt
export EMAILS ROBOT

cat >thread.py <<'PY'
import email, email.policy, os, quopri, re, sys

emails = os.environ["EMAILS"]
def raw(name):
    return open(os.path.join(emails, name), "rb").read()

def body_of(data):
    msg = email.message_from_bytes(data, policy=email.policy.compat32)
    part = next(p for p in msg.walk() if p.get_content_type() == "text/plain")
    return msg, part.get_payload(decode=True).decode("utf-8", "replace")

out = []
def add(data):
    out.append(b"From perfsift@example.org Mon Jan  1 00:00:00 2025\n" +
               data.rstrip(b"\n") + b"\n\n")

robot = "2025-lkp-will-it-scale-poll2-do_pollfd.txt"
add(raw(robot))
add(raw("2019-mmtests-kernbench-resetpcpu-fused-header-quoted.txt"))
add(raw("2021-lkp-stress-ng-vm-segv-failruns-replacement-char-mojibake-quoted.txt"))
add(raw("2022-mmtests-netperf-udp-wfsync-reply.txt"))

# a reply quoting the robot's table, and its lead paragraph, twice deep
msg, text = body_of(raw(robot))
rows = [l for l in text.split("\n")
        if "will-it-scale." in l and re.match(r"^\s+\d", l)]
head = text.split("\n")
start = head.index(next(l for l in head if l.startswith("d000e073ca2a08ab")))
table = head[start:start + 4] + rows
reply = ["On Sun, 26 Jan 2025, kernel test robot wrote:",
         "> kernel test robot noticed a 11.7% regression of "
         "will-it-scale.per_process_ops on:", ">"] + \
        ["> " + l for l in table] + ["", "Is poll2 that sensitive?", ""]
add(("From: Dev One <one@example.org>\n"
     "Subject: Re: [linus:master] [do_pollfd()]  8935989798: "
     "will-it-scale.per_process_ops 11.7% regression\n"
     "Message-ID: <reply-1@example.org>\n"
     "In-Reply-To: <202501261509.b6b4260d-lkp@intel.com>\n"
     "References: <202501261509.b6b4260d-lkp@intel.com>\n"
     "MIME-Version: 1.0\n"
     "Content-Type: text/plain; charset=utf-8\n"
     "Content-Transfer-Encoding: quoted-printable\n\n").encode() +
    quopri.encodestring("\n".join(reply).encode()))

# its answer: the reply quoted again, blanks collapsed by an archive
again = ["On Mon, 27 Jan 2025, Dev One wrote:"] + \
        ["> " + re.sub(r"[ \t]+", " ", l) for l in reply] + \
        ["", "It is: the file table walk shows up.", ""]
add(("From: Dev Two <two@example.org>\n"
     "Subject: Re: [linus:master] [do_pollfd()]  8935989798: "
     "will-it-scale.per_process_ops 11.7% regression\n"
     "Message-ID: <reply-2@example.org>\n"
     "In-Reply-To: <reply-1@example.org>\n"
     "References: <202501261509.b6b4260d-lkp@intel.com> "
     "<reply-1@example.org>\n"
     "MIME-Version: 1.0\n"
     "Content-Type: text/plain; charset=utf-8\n\n" +
     "\n".join(again)).encode())
sys.stdout.buffer.write(b"".join(out))
PY

test_expect_success 'the thread imports: every message, its tables, its rows' '
	python3 thread.py >thread.mbox &&
	perfsift import thread.mbox >out 2>err &&
	test "$(grep -c "^thread.mbox message [0-9]*: " out)" = 6 &&
	grep "^thread.mbox message 1: lkp-table, 0 runs, 0 samples, 188 aggregates, 1 warning; 1 table: 94 rows$" out &&
	grep "^thread.mbox message 2: mmtests-table, 0 runs, 0 samples, 18 aggregates; 2 tables: 6 rows, 3 rows$" out &&
	grep "^thread.mbox message 3: lkp-table, 0 runs, 0 samples, 58 aggregates; 2 tables: 2 rows, 27 rows$" out &&
	grep "^thread.mbox message 4: mmtests-table, 0 runs, 0 samples, 18 aggregates; 1 table: 9 rows$" out &&
	grep "^thread.mbox message 5: lkp-table, 0 runs, 0 samples, 6 aggregates; 1 table: 3 rows$" out &&
	grep "^thread.mbox message 6: lkp-table, 0 runs, 0 samples, 6 aggregates; 1 table: 3 rows$" out &&
	test_last_line "imported 6 messages: 0 runs, 0 samples, $(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM aggregates") aggregates" out &&
	test "$(grep -c warning err)" = 1 &&
	test "$(sqlite3 "$PERFSIFT_DB" "SELECT count(*) FROM import_skips")" = 0
'

test_expect_success 'the replies keep their place in the thread' '
	sqlite3 "$PERFSIFT_DB" "SELECT i.message, m.value FROM imports i
		JOIN import_meta m ON m.import_id = i.id
		WHERE m.key = \"in_reply_to\" ORDER BY i.message" >irt &&
	grep -x "5|202501261509.b6b4260d-lkp@intel.com" irt &&
	grep -x "6|reply-1@example.org" irt
'

test_expect_success 'compare the two commits: the printed means and change' '
	perfsift compare d000e073ca2a 893598979838 --all --json \
		--metric will-it-scale.per_process_ops >c.json &&
	python3 -c "
import json
d = json.load(open(\"c.json\"))
r = d[\"rows\"]
# the report with its axes; the replies quote the rows without them
assert [(x[\"testcase\"], x[\"machine\"]) for x in r] == \\
    [(\"\", \"\"), (\"will-it-scale\", \"lkp-skl-fpga01\")], r
for x in r:
    assert x[\"base\"][\"mean\"] == 263173 and x[\"vs\"][0][\"mean\"] == 232411, x
    assert x[\"base\"][\"source\"] == \"aggregate\", x
    assert abs(x[\"vs\"][0][\"change_pct\"] - 100 * (232411 / 263173 - 1)) < 1e-9
    assert x[\"vs\"][0][\"verdict\"] == \"regression\", x
assert \"test=poll2\" in r[1][\"params\"], r[1]
"
'

test_expect_success 'show the new commit: its aggregates, nothing skipped' '
	perfsift show 893598979838 --json >s.json &&
	python3 -c "
import json
d = json.load(open(\"s.json\"))
a = [x for x in d[\"aggregates\"] if x[\"metric\"] == \"perf-profile.self.cycles-pp.fdget\"]
assert [x[\"value\"] for x in a] == [41.62], a
assert d[\"skipped\"] == [], d[\"skipped\"]
"
'

test_expect_success 'regressions: the robot headline among them' '
	perfsift regressions --json >r.json &&
	python3 -c "
import json
d = json.load(open(\"r.json\"))
rows = d if isinstance(d, list) else d.get(\"regressions\", d.get(\"rows\"))
hit = [x for x in rows if x.get(\"metric\") == \"will-it-scale.per_process_ops\"]
assert hit, rows[:3]
"
'

test_done
