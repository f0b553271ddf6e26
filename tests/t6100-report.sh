#!/bin/sh
# perfsift report (issue 14): the comparison as the post to the list.
# A temporary git repository of two commits (base, patched) and a fio-
# style CSV, 5 runs each: fio.read_iops drops 9.8 % (a regression of a
# headline metric), fio.read_clat_mean_ns rises 5 %, fio.read_bw_MBps
# drops 5 %, fio.time.sys_time is flat.  Golden reports in both styles
# (the whole .eml: $SOURCE_DATE_EPOCH fixes Date and Message-ID, the
# config file the Message-ID's domain), the message parsed back by
# Python's email module, --attach-plots, --mbox, an imported robot email
# answered in its thread, "no significant change", and the errors.
. "$(dirname "$0")/lib.sh"
need_python3 'report'

SOURCE_DATE_EPOCH=1764547200
PERFSIFT_CONFIG=$TRASH/config
export SOURCE_DATE_EPOCH PERFSIFT_CONFIG
printf '# the test'"'"'s settings\nmessage-id-domain = perfsift.example\n' >config

# data SHA LEVEL: 5 runs of each metric at the commit, fixed values
data() {
	awk -v c="$1" -v k="$2" 'BEGIN {
		print "commit,machine,testcase,iteration,metric,value,unit,kconfig,compiler,rw,bs"
		split("0 3 -2 1 -2", d, " ")
		for (r = 0; r < 5; r++) {
			e = d[r + 1]
			printf "%s,lkp-skl-d01,fio-basic,%d,fio.read_iops,%g,IO/s,x86_64-rhel-9.4,gcc-12,randread,4k\n", c, r, 10000 * k * k + 20 * e
			printf "%s,lkp-skl-d01,fio-basic,%d,fio.read_bw_MBps,%g,MB/s,x86_64-rhel-9.4,gcc-12,randread,4k\n", c, r, 39.06 * k + 0.08 * e
			printf "%s,lkp-skl-d01,fio-basic,%d,fio.read_clat_mean_ns,%g,ns,x86_64-rhel-9.4,gcc-12,randread,4k\n", c, r, 98000 / k + 150 * e
			printf "%s,lkp-skl-d01,fio-basic,%d,fio.time.sys_time,%g,s,x86_64-rhel-9.4,gcc-12,randread,4k\n", c, r, 12.5 + 0.1 * e
		}
	}'
}

test_expect_success 'two commits, 5 runs each' '
	git init -q repo &&
	git -C repo config user.name "P Sift" &&
	git -C repo config user.email psift@example.org &&
	make_commits 1 2 &&
	GIT_AUTHOR_DATE="@1700000100 +0000" GIT_COMMITTER_DATE="@1700000100 +0000" \
		git -C repo commit -q --allow-empty -m "mm: make the read path take the slow lock" &&
	perfsift commits import --repo repo >/dev/null &&
	data "$(sha 2)" 1 >base.csv &&
	data "$(git -C repo rev-parse HEAD)" 0.95 >new.csv &&
	perfsift import -q base.csv new.csv >/dev/null &&
	git -C repo rev-parse HEAD >new.sha
'

test_expect_success 'report without an address: the subject and the text' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --tree linus:master --subsys mm >out &&
	cat out &&
	head -n 1 out >subj &&
	echo "Subject: [linus:master] [mm] $(echo "$new" | cut -c1-10): fio.read_iops 9.8% regression" >expect &&
	test_cmp expect subj &&
	grep "^perfsift noticed a 9.8% regression of fio.read_iops on:$" out &&
	grep "^commit: $new (\"mm: make the read path take the slow lock\")$" out &&
	grep "^base: $(sha 2) (\"c2\")$" out &&
	grep "^testcase: fio-basic$" out &&
	grep "^config: x86_64-rhel-9.4$" out &&
	grep "^compiler: gcc-12$" out &&
	grep "^test machine: lkp-skl-d01$" out &&
	grep "^	bs: 4k$" out &&
	grep "^	rw: randread$" out &&
	! grep "^	kconfig\|^	compiler" out &&
	grep "fio.read_iops$" out &&
	grep "fio.read_clat_mean_ns$" out &&
	! grep "fio.time.sys_time$" out &&
	grep "^	perfsift compare $(sha 2) \\\\$" out &&
	grep "^	    $new --format lkp$" out &&
	grep "^ *fio.read_iops (IO/s)$" out
'

test_expect_success 'lines: at most 100 columns outside the tables, no trailing blanks' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --all >out &&
	! grep -n "[ 	]$" out | grep -v "^[0-9]*:-- $" &&
	awk "/^ *[-0-9.e+]+ / { next } length > 100 { print NR\": \"\$0; bad = 1 } END { exit bad }" out
'

test_expect_success 'golden: the lkp-style message' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --tree linus:master --subsys mm \
		--from "Pérf Sift <perfsift@example.org>" --to dev@example.org \
		--cc "Lïst <list@example.org>" -o lkp.eml 2>err &&
	grep "^wrote lkp.eml$" err &&
	test_golden lkp.eml lkp.eml
'

test_expect_success 'golden: the mmtests-style message' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --style mmtests --from perfsift@example.org \
		--to dev@example.org -o mm.eml &&
	test_golden mmtests.eml mm.eml
'

test_expect_success 'the message parsed back by Python: headers, body, table' '
	/usr/bin/python3 - <<-\PY
	import email, email.policy
	m = email.message_from_bytes(open("lkp.eml", "rb").read(), policy=email.policy.default)
	assert str(m["From"]) == "Pérf Sift <perfsift@example.org>", m["From"]
	assert str(m["To"]) == "dev@example.org"
	assert str(m["Cc"]) == "Lïst <list@example.org>"
	assert m["Subject"].startswith("[linus:master] [mm] "), m["Subject"]
	assert m["Date"] == "Mon, 01 Dec 2025 00:00:00 +0000"
	assert m["Message-ID"].startswith("<20251201000000.") and m["Message-ID"].endswith("-perfsift@perfsift.example>")
	assert m["MIME-Version"] == "1.0"
	assert m.get_content_type() == "text/plain" and m.get_content_charset() == "utf-8"
	assert m["Content-Transfer-Encoding"] == "8bit"
	assert m["In-Reply-To"] is None
	body = m.get_content()
	assert "-5.0%" in body and "fio.read_iops" in body and "±" in body, body
	print("ok")
	PY
'

test_expect_success '--attach-plots: a PNG per significant metric, base64' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --from perfsift@example.org \
		--to dev@example.org --attach-plots -o att.eml &&
	/usr/bin/python3 - <<-\PY
	import email, email.policy, struct
	m = email.message_from_bytes(open("att.eml", "rb").read(), policy=email.policy.default)
	assert m.get_content_type() == "multipart/mixed"
	parts = list(m.iter_parts())
	assert parts[0].get_content_type() == "text/plain"
	pngs = parts[1:]
	names = sorted(p.get_filename().split("-", 1)[1] for p in pngs)
	assert names == ["fio.read_bw_MBps.png", "fio.read_clat_mean_ns.png", "fio.read_iops.png"], names
	for p in pngs:
	    assert p["Content-Transfer-Encoding"] == "base64"
	    data = p.get_content()
	    assert data[:8] == b"\x89PNG\r\n\x1a\n"
	    w, h = struct.unpack(">II", data[16:24])
	    assert (w, h) == (1200, 800), (w, h)
	print("ok")
	PY
'

test_expect_success '--mbox: appended in mboxrd form, read back by mailbox' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --from perfsift@example.org --to dev@example.org --mbox out.mbox &&
	perfsift report "$(sha 2)" "$new" --from perfsift@example.org --to dev@example.org --style mmtests --mbox out.mbox &&
	head -n 1 out.mbox >first &&
	echo "From perfsift@example.org Mon Dec  1 00:00:00 2025" >expect &&
	test_cmp expect first &&
	/usr/bin/python3 -c "
import mailbox
msgs = list(mailbox.mbox(\"out.mbox\"))
assert len(msgs) == 2, len(msgs)
assert all(\"fio.read_iops\" in str(m[\"Subject\"]) for m in msgs)
print(\"ok\")"
'

test_expect_success 'an imported robot email answered in its thread' '
	awk "/^From /{n++} n==1" "$SRC/tests/fixtures/mail/robot-thread.mbox" | tail -n +2 >robot.eml &&
	perfsift --db robot.db import robot.eml >/dev/null &&
	perfsift --db robot.db report 5ef2dccfcca8 375700bab5b1 --from perfsift@example.org \
		--to oliver.sang@intel.com -o reply.eml &&
	/usr/bin/python3 - <<-\PY &&
	import email, email.policy
	m = email.message_from_bytes(open("reply.eml", "rb").read(), policy=email.policy.default)
	assert m["In-Reply-To"] == "<202508150803.d5387224-lkp@intel.com>", m["In-Reply-To"]
	assert m["References"] == "<202508150803.d5387224-lkp@intel.com>", m["References"]
	assert m["Subject"].startswith("Re: [linus:master] [llist]"), m["Subject"]
	body = m.get_content()
	assert "perfsift noticed a 2.6% regression of will-it-scale.per_thread_ops on:" in body, body
	assert "commit: 375700bab5b150e876e42d894a9a7470881f8a61" in body
	print("ok")
	PY
	perfsift --db robot.db report 5ef2dccfcca8 375700bab5b1 --from perfsift@example.org \
		--to x@example.org --in-reply-to "<other@example.org>" -o other.eml &&
	grep "^In-Reply-To: <other@example.org>$" other.eml &&
	grep "^Subject: 375700bab5: will-it-scale.per_thread_ops 2.6% regression$" other.eml
'

test_expect_success 'no significant change: the subject and the text say so' '
	new=$(cat new.sha) &&
	perfsift report "$(sha 2)" "$new" --metric fio.time.sys_time >out &&
	head -n 1 out >subj &&
	echo "Subject: $(echo "$new" | cut -c1-10): no significant change" >expect &&
	test_cmp expect subj &&
	grep "^perfsift found no significant change among the 1 metric compared" out &&
	! grep "%stddev" out
'

test_expect_success 'bad input: clear errors, nothing written' '
	new=$(cat new.sha) &&
	test_expect_code 2 perfsift report "$(sha 2)" nosuch 2>err &&
	grep "nosuch. is not a label, kernel or commit" err &&
	test_expect_code 2 env -u PERFSIFT_FROM "$PERFSIFT" report "$(sha 2)" "$new" -o x.eml 2>err &&
	grep "who sends it?" err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --from a@example.org --send 2>err &&
	grep "to whom?" err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --from "a <" --to b@example.org -o x.eml 2>err &&
	grep "is not an e-mail address" err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --style robot 2>err &&
	test_expect_code 2 perfsift report "$(sha 2)" 2>err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --smtp smtp://127.0.0.1:1 2>err &&
	grep "smtp names the server for --send" err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --html page --tree t 2>err &&
	grep "html writes a page, not a message" err &&
	test_expect_code 2 perfsift report "$(sha 2)" "$new" --html page --style mmtests 2>err &&
	! test -e page &&
	test_expect_code 4 perfsift report "$(sha 2)" "$new" --from a@example.org -o nodir/x.eml 2>err &&
	! test -e x.eml && ! test -e nodir
'

test_expect_success '--send: a real SMTP server receives it; a refused one keeps the .eml' '
	/usr/bin/python3 -c "import aiosmtpd" || { echo "no aiosmtpd"; exit 1; }
	new=$(cat new.sha)
	smtpd_start srv &&
	port=$(smtpd_port srv) &&
	timeout 60 "$PERFSIFT" report "$(sha 2)" "$new" --from perfsift@example.org \
		--to dev@example.org --cc list@example.org --attach-plots \
		--smtp "smtp://127.0.0.1:$port" --send -o sent.eml 2>err &&
	grep "^sent to 2 recipients via smtp://127.0.0.1:$port$" err &&
	/usr/bin/python3 - <<-\PY &&
	import email, email.policy, json
	env = json.load(open("srv/1.json"))
	assert env["mail_from"] == "perfsift@example.org", env
	assert env["rcpt_tos"] == ["dev@example.org", "list@example.org"], env
	got = open("srv/1.eml", "rb").read().replace(b"\r\n", b"\n")
	assert got == open("sent.eml", "rb").read()
	m = email.message_from_bytes(got, policy=email.policy.default)
	assert "fio.read_iops" in m["Subject"]
	parts = list(m.iter_parts())
	assert "-9.8%" in parts[0].get_content()
	assert len(parts) == 4 and parts[1].get_content_type() == "image/png"
	print("ok")
	PY
	smtpd_stop
	test_expect_code 4 timeout 60 "$PERFSIFT" report "$(sha 2)" "$new" \
		--from perfsift@example.org --to dev@example.org \
		--smtp "smtp://127.0.0.1:$port" --send -o kept.eml 2>err &&
	cat err &&
	grep "the message is kept in kept.eml" err &&
	grep "^From: perfsift@example.org$" kept.eml
'

test_done
