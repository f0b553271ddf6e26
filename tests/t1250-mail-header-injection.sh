#!/bin/sh
# A CR or LF in an address, subject or Message-ID would end its header
# and start another (a Bcc) or, in the SMTP envelope, an SMTP command
# (RCPT TO:<evil@x>).  Each is refused before anything is written or
# sent: the server receives nothing, no file appears.
. "$(dirname "$0")/lib.sh"

smtpd_start plain
PLAIN=$(smtpd_port plain) || { echo "the test server did not start"; exit 1; }
CR=$(printf '\r')
NL='
'
received() {
	ls "$TRASH/plain" | grep -c '\.json$' || true
}

printf 'From: r@example.org\nTo: a@example.org\nSubject: x\n\nbody\n' >m.eml
printf 'label,iteration,metric,value\n' >d.csv
for i in 1 2 3; do
	printf 'a,%s,x.ops,%s\nb,%s,x.ops,%s\n' $i $((100 + i)) $i $((80 + i)) >>d.csv
done
perfsift import d.csv >/dev/null

test_expect_success 'send: a recipient with CR LF and an SMTP command is refused' '
	test_expect_code 4 perfsift send --smtp smtp://127.0.0.1:$PLAIN \
		--to "r@example.com$CR${NL}RCPT TO:<evil@x>" m.eml >out 2>err &&
	grep "a control character (0x0d) at byte 14: refused" err &&
	test "$(received)" = 0
'

test_expect_success 'report: CR LF in --to, --from, --in-reply-to: nothing written or sent' '
	for opt in "--to" "--from" "--in-reply-to"; do
		rm -f r.eml &&
		if perfsift report a b --from r@example.org --to a@example.org \
			$opt "x@example.org$CR${NL}Bcc: evil@x" -o r.eml >out 2>err; then
			echo "$opt: accepted" && return 1
		fi &&
		grep "a control character (0x0d)" err &&
		test ! -e r.eml &&
		if perfsift report a b --from r@example.org --to a@example.org \
			$opt "x@example.org$NL" --smtp smtp://127.0.0.1:$PLAIN \
			>out 2>err; then
			echo "$opt: sent" && return 1
		fi &&
		test "$(received)" = 0 || return 1
	done
'

test_expect_success 'PERFSIFT_FROM from the environment is checked the same way' '
	rm -f r.eml &&
	if PERFSIFT_FROM="r@example.org${NL}Bcc: evil@x" perfsift report a b \
		--to a@example.org -o r.eml >out 2>err; then
		echo accepted && return 1
	fi &&
	grep "a control character (0x0a)" err &&
	test ! -e r.eml
'

test_expect_success 'a plain address still goes through' '
	perfsift send --smtp smtp://127.0.0.1:$PLAIN --to r@example.com m.eml >out &&
	test "$(received)" = 1
'

test_done
