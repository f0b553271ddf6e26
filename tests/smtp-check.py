#!/usr/bin/python3
"""What an SMTP test server (tests/smtpd.py) received, against the file
that was sent:

    smtp-check.py SENT.eml GOT.eml GOT.json FROM RCPT[,RCPT...] [KEY=VALUE...]

Checks that every line of GOT ended in CRLF, that GOT with CRLF made LF
is SENT byte for byte (so dots were unstuffed back, nothing added or
lost), that the headers parse the same, and that the envelope is
MAIL FROM:<FROM> and RCPT TO: each RCPT in order.  KEY=VALUE pairs check
more of the envelope JSON (login=robot, tls=true).  Prints what differs
and exits 1.
"""
import email
import email.policy
import json
import sys


def fail(msg):
    print('smtp-check: ' + msg)
    sys.exit(1)


def main():
    sent_path, got_path, env_path, mail_from, rcpts = sys.argv[1:6]
    sent = open(sent_path, 'rb').read()
    got = open(got_path, 'rb').read()
    env = json.load(open(env_path))
    lines = got.split(b'\n')
    if lines[-1] != b'':
        fail('the received message does not end with a line end')
    for i, line in enumerate(lines[:-1], 1):
        if not line.endswith(b'\r'):
            fail('received line %d ends in a bare LF: %r' % (i, line))
    sent_lf = sent.replace(b'\r\n', b'\n')
    if got.replace(b'\r\n', b'\n') != sent_lf:
        fail('the body differs:\nsent %r\ngot  %r' % (sent_lf, got))
    a = email.message_from_bytes(sent, policy=email.policy.default)
    b = email.message_from_bytes(got, policy=email.policy.default)
    for h in ('From', 'To', 'Cc', 'Subject', 'Message-ID', 'Date'):
        if str(a.get(h)) != str(b.get(h)):
            fail('header %s: sent %r, got %r' % (h, a.get(h), b.get(h)))
    if env['mail_from'] != mail_from:
        fail('MAIL FROM %r, not %r' % (env['mail_from'], mail_from))
    if env['rcpt_tos'] != rcpts.split(','):
        fail('RCPT TO %r, not %r' % (env['rcpt_tos'], rcpts.split(',')))
    for kv in sys.argv[6:]:
        k, v = kv.split('=', 1)
        if str(env.get(k)).lower() != v:
            fail('envelope %s = %r, not %r' % (k, env.get(k), v))


if __name__ == '__main__':
    main()
