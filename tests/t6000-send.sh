#!/bin/sh
# perfsift send against real SMTP servers on 127.0.0.1 (tests/smtpd.py,
# python3-aiosmtpd), one per behaviour: plain, AUTH, STARTTLS with a
# certificate made here, implicit TLS, a refused recipient, a refused
# message, and one that never answers.  What the server received is
# checked byte for byte (tests/smtp-check.py); every failure must be a
# clear error naming the reply, exit 4, the .eml untouched, and the
# password must appear in no output.
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
PASSWORD=s3cret-Pw.42
WRONG=wr0ng-Pw.17
if ! $PY -c 'import aiosmtpd' 2>/dev/null || ! command -v openssl >/dev/null
then
	test_skip 'perfsift send' 'no python3-aiosmtpd or openssl'
	test_done
	exit
fi

# The servers, started here (not in a test's subshell) so that lib.sh's
# trap stops them (smtpd_start, smtpd_port, smtpd_stop in tests/lib.sh).

# send ARGS...: perfsift send, never for more than 60 s; what it prints
# is also kept in all.out, which the password must never be in
send() {
	timeout 60 "$PERFSIFT" send "$@" >"$TRASH/.send-out" 2>"$TRASH/.send-err"
	rc=$?
	cat "$TRASH/.send-out" "$TRASH/.send-err" >>"$TRASH/all.out"
	cat "$TRASH/.send-out"
	cat "$TRASH/.send-err" >&2
	return $rc
}

# received NAME: how many messages the server NAME stored
received() {
	ls "$TRASH/$1" | grep -c '\.json$' || true
}

# check NAME N SENT FROM RCPTS [KEY=VALUE...]: message N of server NAME
check() {
	d=$TRASH/$1
	n=$2
	sent=$3
	mfrom=$4
	rcpts=$5
	shift 5
	$PY "$SRC/tests/smtp-check.py" "$sent" "$d/$n.eml" "$d/$n.json" \
		"$mfrom" "$rcpts" "$@"
}

# The first line of FILE must be TEXT: test_first_line TEXT FILE
test_first_line() {
	printf '%s\n' "$1" >"$TRASH/.expect-first"
	head -n 1 "$2" >"$TRASH/.actual-first"
	diff -u "$TRASH/.expect-first" "$TRASH/.actual-first"
}

# the libcurl part of a message, which holds timings, made stable
stable() {
	sed -e 's/after [0-9]* ms/after N ms/' \
	    -e 's/after [0-9]* milliseconds/after N milliseconds/' \
	    -e 's/127\.0\.0\.1:[0-9]*/127.0.0.1:PORT/g' \
	    -e 's/port [0-9]* /port PORT /'
}

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout key.pem -out cert.pem -days 2 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 >openssl.log 2>&1
smtpd_start plain
smtpd_start auth --mode auth --user robot --password "$PASSWORD"
smtpd_start authlogin --mode auth --auth-mech LOGIN --user robot \
	--password "$PASSWORD"
smtpd_start starttls --mode starttls --cert cert.pem --key key.pem
smtpd_start smtps --mode smtps --cert cert.pem --key key.pem
smtpd_start reject --mode reject --reject nobody@example.org
smtpd_start data554 --mode data554
smtpd_start hang --mode hang
PLAIN=$(smtpd_port plain) && AUTH=$(smtpd_port auth) && AUTHLOGIN=$(smtpd_port authlogin) &&
STARTTLS=$(smtpd_port starttls) && SMTPS=$(smtpd_port smtps) && REJECT=$(smtpd_port reject) &&
DATA554=$(smtpd_port data554) && HANG=$(smtpd_port hang) || {
	echo "a test server did not start"
	exit 1
}
# a port nobody listens on: the kernel's pick, closed again
CLOSED=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# The message: two To (one display name with a comma), a Cc, a UTF-8
# body with lines SMTP must escape (".", "..x") and a long line.
cat >m.eml <<'EOF'
From: Perf Robot <robot@example.org>
To: a@example.org, "Doe, Jane" <jane@example.org>
Cc: list@example.org
Subject: [perfsift] x_ops -12.3% regression
Date: Tue, 01 Dec 2026 00:00:00 +0000
Message-ID: <t6000.1@perfsift.example.org>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

Greeting,

x_ops 100.0 ± 0.5  ->  87.7 ± 0.4   -12.3%
.
..two dots
.one dot
From the start of a line

EOF
awk 'BEGIN { for (i = 0; i < 90; i++) printf "0123456789"; print "" }' >>m.eml
echo 'the end' >>m.eml
cp m.eml m.orig
RCPTS=a@example.org,jane@example.org,list@example.org

test_expect_success 'plain: sent as it is, envelope from the headers' '
	send --smtp smtp://127.0.0.1:$PLAIN m.eml >out 2>err &&
	echo "sent m.eml to 3 recipients via smtp://127.0.0.1:$PLAIN" >expect &&
	test_cmp expect out &&
	test_cmp /dev/null err &&
	test "$(received plain)" = 1 &&
	check plain 1 m.eml robot@example.org $RCPTS tls=false login=none &&
	cmp m.eml m.orig
'

test_expect_success 'CRLF file sent unchanged; two files, two lines' '
	sed "s/\$/\r/" m.eml >crlf.eml &&
	printf "From: b@example.org\nTo: c@example.org\n\nshort\n" >short.eml &&
	send --smtp smtp://127.0.0.1:$PLAIN crlf.eml short.eml >out &&
	cat >expect <<-EOF &&
	sent crlf.eml to 3 recipients via smtp://127.0.0.1:$PLAIN
	sent short.eml to 1 recipient via smtp://127.0.0.1:$PLAIN
	EOF
	test_cmp expect out &&
	cmp crlf.eml plain/2.eml &&
	check plain 2 crlf.eml robot@example.org $RCPTS &&
	check plain 3 short.eml b@example.org c@example.org
'

test_expect_success 'flags beat the headers: --from, --to, --cc' '
	send --smtp smtp://127.0.0.1:$PLAIN --from "Other <o@example.org>" \
		--to x@example.org --cc "y@example.org, \"Zed, Z\" <z@example.org>" \
		--cc x@example.org m.eml >out &&
	echo "sent m.eml to 3 recipients via smtp://127.0.0.1:$PLAIN" >expect &&
	test_cmp expect out &&
	check plain 4 m.eml o@example.org \
		x@example.org,y@example.org,z@example.org
'

test_expect_success 'settings when the file has no From, To, Cc' '
	printf "Subject: bare\n\nno addresses\n" >bare.eml &&
	cat >cfg <<-EOF &&
	# perfsift mail settings
	from = file@example.org
	to = t1@example.org, t2@example.org
	cc = c1@example.org
	smtp-url = smtp://127.0.0.1:$PLAIN
	EOF
	PERFSIFT_CONFIG=cfg send bare.eml >out &&
	echo "sent bare.eml to 3 recipients via smtp://127.0.0.1:$PLAIN" >expect &&
	test_cmp expect out &&
	check plain 5 bare.eml file@example.org \
		t1@example.org,t2@example.org,c1@example.org &&
	PERFSIFT_CONFIG=cfg PERFSIFT_FROM=env@example.org send bare.eml &&
	check plain 6 bare.eml env@example.org \
		t1@example.org,t2@example.org,c1@example.org &&
	PERFSIFT_CONFIG=cfg PERFSIFT_FROM=env@example.org \
		send --from flag@example.org bare.eml &&
	check plain 7 bare.eml flag@example.org \
		t1@example.org,t2@example.org,c1@example.org
'

test_expect_success 'the server: flag beats environment beats file' '
	printf "smtp-url = smtp://127.0.0.1:$CLOSED\n" >cfg &&
	PERFSIFT_CONFIG=cfg PERFSIFT_SMTP_URL=smtp://127.0.0.1:$PLAIN \
		send short.eml >out &&
	echo "sent short.eml to 1 recipient via smtp://127.0.0.1:$PLAIN" >expect &&
	test_cmp expect out &&
	PERFSIFT_CONFIG=cfg PERFSIFT_SMTP_URL=smtp://127.0.0.1:$CLOSED \
		send --smtp smtp://127.0.0.1:$PLAIN short.eml >out &&
	test_cmp expect out &&
	PERFSIFT_CONFIG=cfg \
		test_expect_code 4 send short.eml 2>err &&
	grep -q "^perfsift: error: smtp://127.0.0.1:$CLOSED: cannot connect" err &&
	test "$(received plain)" = 9
'

test_expect_success 'missing sender, recipient or server: exit 2' '
	printf "To: c@example.org\n\nx\n" >nofrom.eml &&
	printf "From: b@example.org\n\nx\n" >norcpt.eml &&
	test_expect_code 2 send --smtp smtp://127.0.0.1:$PLAIN nofrom.eml 2>err &&
	echo "perfsift: error: nofrom.eml: no sender: the file has no From; give --from, PERFSIFT_FROM or '"'"'from'"'"' in the config file" >expect &&
	test_cmp expect err &&
	test_expect_code 2 send --smtp smtp://127.0.0.1:$PLAIN norcpt.eml 2>err &&
	echo "perfsift: error: norcpt.eml: no recipient: the file has no To or Cc; give --to, --cc, or '"'"'to'"'"' in the config file" >expect &&
	test_cmp expect err &&
	test_expect_code 2 send m.eml 2>err &&
	echo "perfsift: error: no SMTP server: give --smtp URL, PERFSIFT_SMTP_URL or smtp-url in the config file" >expect &&
	test_cmp expect err &&
	test_expect_code 2 send --smtp smtp://127.0.0.1:$PLAIN 2>err &&
	head -n 1 err >got &&
	echo "perfsift: error: no FILE.eml to send" >expect &&
	test_cmp expect got &&
	test "$(received plain)" = 9
'

test_expect_success 'every file tried; the worst status wins' '
	test_expect_code 3 send --smtp smtp://127.0.0.1:$PLAIN nofrom.eml \
		missing.eml short.eml >out 2>err &&
	echo "sent short.eml to 1 recipient via smtp://127.0.0.1:$PLAIN" >expect &&
	test_cmp expect out &&
	cat >expect <<-EOF &&
	perfsift: error: nofrom.eml: no sender: the file has no From; give --from, PERFSIFT_FROM or '"'"'from'"'"' in the config file
	perfsift: error: missing.eml: cannot open: No such file or directory
	EOF
	test_cmp expect err &&
	check plain 10 short.eml b@example.org c@example.org
'

test_expect_success 'a bad config line: path:line, exit 2; a missing named file: 4' '
	printf "from = a@example.org\n\nsmtp-starttls = maybe\n" >bad.cfg &&
	PERFSIFT_CONFIG=bad.cfg \
		test_expect_code 2 send --smtp smtp://127.0.0.1:$PLAIN m.eml 2>err &&
	echo "perfsift: error: bad.cfg:3: smtp-starttls must be required, optional or off, not '"'"'maybe'"'"'" >expect &&
	test_cmp expect err &&
	printf "smtp-password = $PASSWORD\n" >bad.cfg &&
	PERFSIFT_CONFIG=bad.cfg \
		test_expect_code 2 send m.eml 2>err &&
	echo "perfsift: error: bad.cfg:1: the password is not read from the config file: set PERFSIFT_SMTP_PASSWORD or use ~/.netrc" >expect &&
	test_cmp expect err &&
	PERFSIFT_CONFIG=none.cfg \
		test_expect_code 4 send m.eml 2>err &&
	echo "perfsift: error: none.cfg: cannot open: No such file or directory" >expect &&
	test_cmp expect err &&
	PERFSIFT_SMTP_URL=http://127.0.0.1:$PLAIN \
		test_expect_code 2 send m.eml 2>err &&
	echo "perfsift: error: PERFSIFT_SMTP_URL: bad SMTP URL: the scheme must be smtp:// or smtps://" >expect &&
	test_cmp expect err &&
	test "$(received plain)" = 10
'

test_expect_success 'a password in the URL is refused and not repeated' '
	test_expect_code 2 send --smtp "smtp://robot:$PASSWORD@127.0.0.1:$AUTH" \
		m.eml >out 2>err &&
	echo "perfsift: error: bad SMTP URL: a user or password in the URL is refused (smtp-user or PERFSIFT_SMTP_USER; the password in PERFSIFT_SMTP_PASSWORD or ~/.netrc)" >expect &&
	test_cmp expect err &&
	test_cmp /dev/null out
'

test_expect_success 'AUTH required: without credentials the sender is refused' '
	test_expect_code 4 send --smtp smtp://127.0.0.1:$AUTH m.eml >out 2>err &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:$AUTH: the server refused sender <robot@example.org>: 530 5.7.0 Authentication required (libcurl: MAIL failed: 530)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect err &&
	test_cmp /dev/null out &&
	cmp m.eml m.orig
'

test_expect_success 'AUTH with a wrong password: clear error, exit 4' '
	PERFSIFT_SMTP_USER=robot \
		PERFSIFT_SMTP_PASSWORD=$WRONG \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$AUTH m.eml \
		>out 2>err &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:$AUTH: the server refused authentication as '"'"'robot'"'"': 535 5.7.8 Authentication credentials invalid (libcurl: Login denied)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect err &&
	cp err wrong-password.err &&
	test "$(received auth)" = 0
'

test_expect_success 'AUTH PLAIN and LOGIN with PERFSIFT_SMTP_PASSWORD' '
	PERFSIFT_SMTP_USER=robot PERFSIFT_SMTP_PASSWORD=$PASSWORD \
		send --smtp smtp://127.0.0.1:$AUTH m.eml >out 2>err &&
	echo "sent m.eml to 3 recipients via smtp://127.0.0.1:$AUTH" >expect &&
	test_cmp expect out &&
	check auth 1 m.eml robot@example.org $RCPTS login=robot &&
	printf "smtp-user = robot\n" >user.cfg &&
	PERFSIFT_CONFIG=user.cfg PERFSIFT_SMTP_PASSWORD=$PASSWORD \
		send --smtp smtp://127.0.0.1:$AUTHLOGIN m.eml >>out 2>>err &&
	check authlogin 1 m.eml robot@example.org $RCPTS login=robot &&
	test_cmp /dev/null err
'

test_expect_success 'AUTH with the password from $NETRC' '
	cat >netrc <<-EOF &&
	machine 127.0.0.1 login other password $WRONG
	machine 127.0.0.1 login robot password $PASSWORD
	EOF
	chmod 600 netrc &&
	PERFSIFT_SMTP_USER=robot NETRC=$TRASH/netrc \
		send --smtp smtp://127.0.0.1:$AUTH m.eml >>out 2>>err &&
	check auth 2 m.eml robot@example.org $RCPTS login=robot &&
	PERFSIFT_SMTP_USER=other NETRC=$TRASH/netrc \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$AUTH m.eml \
		2>err &&
	test_first_line "perfsift: error: smtp://127.0.0.1:$AUTH: the server refused authentication as '"'"'other'"'"': 535 5.7.8 Authentication credentials invalid (no PERFSIFT_SMTP_PASSWORD; the password looked for in \$NETRC) (libcurl: Login denied)" err &&
	test "$(received auth)" = 2
'

test_expect_success 'STARTTLS with a certificate nobody vouches for: refused' '
	test_expect_code 4 send --smtp smtp://127.0.0.1:$STARTTLS m.eml \
		2>err &&
	test_first_line "perfsift: error: smtp://127.0.0.1:$STARTTLS: TLS failed (smtp-cainfo or PERFSIFT_SMTP_CAINFO names the CA bundle) (libcurl: SSL certificate problem: self-signed certificate)" err &&
	test "$(received starttls)" = 0
'

test_expect_success 'STARTTLS with PERFSIFT_SMTP_CAINFO, then smtp-cainfo' '
	PERFSIFT_SMTP_CAINFO=$TRASH/cert.pem \
		send --smtp smtp://127.0.0.1:$STARTTLS m.eml >out &&
	echo "sent m.eml to 3 recipients via smtp://127.0.0.1:$STARTTLS" >expect &&
	test_cmp expect out &&
	check starttls 1 m.eml robot@example.org $RCPTS tls=true &&
	printf "smtp-cainfo = $TRASH/cert.pem\nsmtp-starttls = required\n" \
		>tls.cfg &&
	PERFSIFT_CONFIG=tls.cfg send --smtp smtp://127.0.0.1:$STARTTLS m.eml &&
	check starttls 2 m.eml robot@example.org $RCPTS tls=true
'

test_expect_success 'smtp-starttls = off against a server that requires it' '
	printf "smtp-starttls = off\n" >off.cfg &&
	PERFSIFT_CONFIG=off.cfg \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$STARTTLS \
		m.eml 2>err &&
	test_first_line "perfsift: error: smtp://127.0.0.1:$STARTTLS: the server refused sender <robot@example.org>: 530 Must issue a STARTTLS command first (libcurl: MAIL failed: 530)" err
'

test_expect_success 'STARTTLS required against a server without it' '
	printf "smtp-starttls = required\n" >req.cfg &&
	PERFSIFT_CONFIG=req.cfg \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$PLAIN \
		m.eml 2>err &&
	test_first_line "perfsift: error: smtp://127.0.0.1:$PLAIN: the server does not offer STARTTLS, and smtp-starttls is required (libcurl: STARTTLS not supported.)" err &&
	test "$(received plain)" = 10
'

test_expect_success 'smtps:// (TLS from the first byte)' '
	PERFSIFT_SMTP_CAINFO=$TRASH/cert.pem \
		send --smtp smtps://127.0.0.1:$SMTPS m.eml >out &&
	echo "sent m.eml to 3 recipients via smtps://127.0.0.1:$SMTPS" >expect &&
	test_cmp expect out &&
	check smtps 1 m.eml robot@example.org $RCPTS tls=true
'

test_expect_success 'connection refused: exit 4, the file kept' '
	test_expect_code 4 send --smtp smtp://127.0.0.1:$CLOSED m.eml >out 2>err &&
	stable <err >got &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:PORT: cannot connect (libcurl: Failed to connect to 127.0.0.1 port PORT after N ms: Couldn'"'"'t connect to server)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect got &&
	cmp m.eml m.orig
'

test_expect_success 'a refused recipient fails the whole message' '
	test_expect_code 4 send --smtp smtp://127.0.0.1:$REJECT \
		--to a@example.org --to nobody@example.org --to b@example.org \
		m.eml >out 2>err &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:$REJECT: the server refused recipient <nobody@example.org>: 550 5.1.1 <nobody@example.org>: Recipient address rejected (libcurl: RCPT failed: 550)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect err &&
	test "$(received reject)" = 0 &&
	send --smtp smtp://127.0.0.1:$REJECT m.eml >out &&
	check reject 1 m.eml robot@example.org $RCPTS
'

test_expect_success 'a message refused at the end of DATA (554)' '
	test_expect_code 4 send --smtp smtp://127.0.0.1:$DATA554 m.eml \
		>out 2>err &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:$DATA554: the server refused the message: 554 5.7.1 Message refused: looks like a test (libcurl: Weird server reply)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect err &&
	cmp m.eml m.orig
'

test_expect_success 'a server that never answers: smtp-timeout = 2' '
	printf "smtp-timeout = 2\n" >slow.cfg &&
	start=$(date +%s) &&
	PERFSIFT_CONFIG=slow.cfg \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$HANG m.eml \
		>out 2>err &&
	end=$(date +%s) &&
	test $((end - start)) -lt 20 &&
	stable <err >got &&
	cat >expect <<-EOF &&
	perfsift: error: smtp://127.0.0.1:PORT: the server sent no greeting within 2 s (libcurl: Operation timed out after N milliseconds with 0 bytes received)
	perfsift: error: m.eml: not sent (the file is kept)
	EOF
	test_cmp expect got &&
	cmp m.eml m.orig
'

test_expect_success 'a silent server past smtp-connect-timeout: its figure is said' '
	printf "smtp-connect-timeout = 1\n" >slow1.cfg &&
	PERFSIFT_CONFIG=slow1.cfg \
		test_expect_code 4 send --smtp smtp://127.0.0.1:$HANG m.eml \
		>out 2>err &&
	stable <err >got &&
	grep "^perfsift: error: smtp://127.0.0.1:PORT: the server sent no greeting within 1 s " got &&
	cmp m.eml m.orig
'

test_expect_success 'the password appears in no output' '
	grep -q "$WRONG" netrc &&
	! grep -r -l -e "$PASSWORD" -e "$WRONG" --exclude=netrc \
		--exclude=bad.cfg . &&
	test -s wrong-password.err &&
	grep -q "authentication as .robot.: 535" all.out
'

test_expect_success 'perfsift help send' '
	perfsift help send >out &&
	head -n 1 out >got &&
	echo "usage: perfsift send [--smtp URL] [--from A] [--to A]... [--cc A]... FILE.eml..." >expect &&
	test_cmp expect got
'

smtpd_stop
# GMime is loaded when a message is first read (lib/mail/gmime.h): a
# library of its name without its functions stands for one that is
# missing or broken, ahead of the real one on the loader's path.
test_expect_success 'GMime that cannot be loaded: a clear error, exit 4, nothing sent' '
	mkdir -p fakelib &&
	printf "int perfsift_fake;\n" >fake.c &&
	${CC:-cc} -shared -fPIC -o fakelib/libgmime-3.0.so.0 fake.c &&
	before=$(received plain) &&
	test_expect_code 4 env LD_LIBRARY_PATH="$TRASH/fakelib" \
		"$PERFSIFT" send --smtp smtp://127.0.0.1:$PLAIN m.eml 2>err &&
	grep "libgmime-3.0.so.0: no g_date_time_new_from_unix_utc" err &&
	test "$(received plain)" = "$before"
'

test_done
