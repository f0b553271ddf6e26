#!/bin/sh
# TLS to a team's server is libpq's sslmode in the URI (issue 16): a
# server that takes TCP connections on 127.0.0.1 only over TLS (pg_hba:
# hostssl trust, hostnossl reject), with a certificate for "localhost"
# from a CA made here.  verify-full with that CA connects and answers;
# without TLS, and with TLS to a CA that did not sign the server, the
# connection is refused with libpq's reason, exit 4.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/pg.sh"

need_pg
if ! command -v openssl >/dev/null 2>&1; then
	test_skip 'TLS to the server' 'no openssl (scripts/deps.sh check installs it)'
	test_done
	exit
fi

# the server user must read its key and certificate
chmod 755 "$TRASH"
mkdir tls
(
	cd tls &&
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=perfsift test CA" \
		-keyout ca.key -out ca.crt &&
	openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" \
		-keyout server.key -out server.csr &&
	printf 'subjectAltName = DNS:localhost\n' >san.ext &&
	openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
		-days 2 -extfile san.ext -out server.crt &&
	openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=another CA" \
		-keyout other.key -out other.crt
) >tls.log 2>&1 || { cat tls.log; exit 1; }
chmod 600 tls/server.key
[ "$(id -u)" = 0 ] && chown "$PG_USER" tls/server.key tls/server.crt
# a TCP port of our own, so as not to meet another server on 5432
port=$(( 20000 + $$ % 20000 ))
PG_CONF_EXTRA="listen_addresses = '127.0.0.1'
port = $port
ssl = on
ssl_cert_file = '$TRASH/tls/server.crt'
ssl_key_file = '$TRASH/tls/server.key'"
pg_start
PGPORT=$port
export PGPORT
# TCP from 127.0.0.1: TLS or nothing
hba=$PG_DIR/data/pg_hba.conf
{ echo "hostssl all all 127.0.0.1/32 trust"
  echo "hostnossl all all 127.0.0.1/32 reject"
  grep -v '^host' "$hba"; } >hba.new
cat hba.new >"$hba"
pg_psql -d postgres -c "SELECT pg_reload_conf()" >/dev/null
pg_psql -d postgres -c "CREATE DATABASE perfsift" >/dev/null

url() {
	echo "postgresql://postgres@localhost:$port/perfsift?$1"
}

test_expect_success 'verify-full with the CA that signed the server: it answers' '
	gen_cmp_csv 20 3 5 >t.csv &&
	perfsift --db "$(url "sslmode=verify-full&sslrootcert=$TRASH/tls/ca.crt")" import -q t.csv &&
	perfsift --db "$(url "sslmode=verify-full&sslrootcert=$TRASH/tls/ca.crt")" runs --json >runs.json &&
	grep -c "\"label\"" runs.json >n &&
	echo 10 >expect && test_cmp expect n
'

test_expect_success 'without TLS the server refuses: exit 4, the reason' '
	test_expect_code 4 perfsift --db "$(url sslmode=disable)" runs 2>err &&
	cat err &&
	grep "no encryption" err
'

test_expect_success 'a CA that did not sign the server: exit 4, not verified' '
	test_expect_code 4 perfsift --db "$(url "sslmode=verify-full&sslrootcert=$TRASH/tls/other.crt")" runs 2>err &&
	cat err &&
	grep "certificate verify failed" err
'

test_done
