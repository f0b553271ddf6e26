#!/usr/bin/python3
"""A real SMTP server on 127.0.0.1 for the mail tests (python3-aiosmtpd).

    smtpd.py --dir DIR [--mode MODE] [--user U --password P]
             [--cert CERT --key KEY] [--reject ADDR] [--lifetime S]

It listens on a free port (the kernel picks it: no race between choosing
and binding), writes the port to DIR/port when it is ready, and stores
each message it accepts as DIR/N.eml (the DATA bytes as received, dots
unstuffed, CRLF kept) with DIR/N.json (the envelope: mail_from, rcpt_tos,
and the AUTH login if any).  It exits after --lifetime seconds (default
120) whatever happens, so that a test killed before its trap ran leaves
no server behind.

Modes:
    plain       accept everything
    auth        AUTH PLAIN/LOGIN (--auth-mech: only one) required with
                --user/--password (over plain text: auth_require_tls=False)
    starttls    STARTTLS offered and required (--cert/--key)
    smtps       implicit TLS from the first byte (--cert/--key)
    reject      550 for the recipient --reject, others accepted
    data554     every message refused with 554 at the end of DATA
    hang        a plain socket that accepts and never says a word
"""
import argparse
import asyncio
import json
import logging
import os
import socket
import ssl
import sys
import time
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Handler:
    def __init__(self, args):
        self.args = args
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.args.mode == 'reject' and address == self.args.reject:
            return '550 5.1.1 <%s>: Recipient address rejected' % address
        envelope.rcpt_tos.append(address)
        return '250 OK'

    async def handle_DATA(self, server, session, envelope):
        if self.args.mode == 'data554':
            return '554 5.7.1 Message refused: looks like a test'
        self.count += 1
        base = os.path.join(self.args.dir, str(self.count))
        with open(base + '.eml.tmp', 'wb') as f:
            f.write(envelope.original_content)
        login = None
        if isinstance(session.auth_data, LoginPassword):
            login = session.auth_data.login.decode()
        with open(base + '.json.tmp', 'w') as f:
            json.dump({'mail_from': envelope.mail_from,
                       'rcpt_tos': envelope.rcpt_tos,
                       'login': login,
                       'tls': server.transport.get_extra_info(
                           'ssl_object') is not None}, f)
        # the .json last: a test that sees it sees the whole message
        os.rename(base + '.eml.tmp', base + '.eml')
        os.rename(base + '.json.tmp', base + '.json')
        return '250 OK: queued as %d' % self.count


def authenticator(args):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword) and
              auth_data.login.decode() == args.user and
              auth_data.password.decode() == args.password)
        # handled=False: aiosmtpd answers a failure with its 535
        return AuthResult(success=ok, handled=False,
                          auth_data=auth_data if ok else None)
    return check


def tls_context(args):
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(args.cert, args.key)
    return ctx


def write_port(args, port):
    path = os.path.join(args.dir, 'port')
    with open(path + '.tmp', 'w') as f:
        f.write('%d\n' % port)
    os.rename(path + '.tmp', path)


def hang(args):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(('127.0.0.1', 0))
    s.listen(8)
    write_port(args, s.getsockname()[1])
    # never accept: the kernel completes the handshake, nobody answers
    time.sleep(args.lifetime)


async def serve(args):
    kw = {'hostname': 'perfsift-test', 'timeout': 30}
    if args.mode == 'auth':
        kw.update(authenticator=authenticator(args), auth_required=True,
                  auth_require_tls=False)
        if args.auth_mech:
            other = {'PLAIN': 'LOGIN', 'LOGIN': 'PLAIN'}[args.auth_mech]
            kw.update(auth_exclude_mechanism=[other])
    elif args.mode == 'starttls':
        kw.update(tls_context=tls_context(args), require_starttls=True)
    loop = asyncio.get_running_loop()
    handler = Handler(args)	# one for all connections: one count
    server = await loop.create_server(
        lambda: SMTP(handler, loop=loop, **kw), '127.0.0.1', 0,
        ssl=tls_context(args) if args.mode == 'smtps' else None)
    write_port(args, server.sockets[0].getsockname()[1])
    await asyncio.sleep(args.lifetime)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--dir', required=True)
    p.add_argument('--mode', default='plain',
                   choices=['plain', 'auth', 'starttls', 'smtps', 'reject',
                            'data554', 'hang'])
    p.add_argument('--user')
    p.add_argument('--password')
    p.add_argument('--auth-mech', choices=['PLAIN', 'LOGIN'],
                   help='offer only this AUTH mechanism (default: both)')
    p.add_argument('--cert')
    p.add_argument('--key')
    p.add_argument('--reject')
    p.add_argument('--lifetime', type=float, default=120)
    args = p.parse_args()
    logging.disable(logging.CRITICAL)	# aiosmtpd logs every command
    warnings.simplefilter('ignore')	# AUTH without TLS is meant here
    os.makedirs(args.dir, exist_ok=True)
    if args.mode == 'hang':
        hang(args)
    else:
        asyncio.run(serve(args))


if __name__ == '__main__':
    sys.exit(main())
