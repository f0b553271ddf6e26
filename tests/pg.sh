# tests/pg.sh: a throwaway PostgreSQL server for the tests, sourced after
# tests/lib.sh (and by scripts/scale-measure.sh).
#
#   need_pg          skip the whole script, with a visible message, when
#                    Debian's PostgreSQL binaries are not installed
#   pg_start         initdb into a new temporary directory and start a
#                    server there; exports PGHOST PGPORT PGUSER PGDATABASE
#   pg_stop          stop it (fast, then immediate) and remove the directory;
#                    trapped at exit by pg_start, so a failing test never
#                    leaves a server running
#   pg_psql ARGS...  psql with the options every test wants (stop at the
#                    first error, no .psqlrc, unaligned tuples only)
#   pg_wait_writer DB  wait until a perfsift writer of DB holds its lock
#
# The server listens on no TCP port at all: only on a Unix socket in its
# own directory (mode 0700), and trusts whoever can reach that socket,
# which is the user who started it and root.  fsync is off: the data dies
# with the test anyway.
#
# initdb and postgres refuse to run as root, and `make check` runs as root
# in CI.  As root the server runs as the unprivileged user $PG_USER
# (default nobody) through runuser, in a directory under /tmp chowned to
# it; otherwise it runs as the calling user.  The clients (psql, the tests)
# keep running as the caller and connect as the server's superuser, whose
# role name is "postgres" either way.
#
# The binaries are Debian's (package postgresql-15, installed by
# `scripts/deps.sh check`): $PG_BINDIR, else the newest
# /usr/lib/postgresql/N/bin.  Nothing from PATH or /usr/local is used, so
# a hand-installed copy cannot hide a missing package.

: "${PG_USER:=nobody}"
# extra postgresql.conf lines (the scale measurement raises the memory)
: "${PG_CONF_EXTRA:=}"
PG_DIR=

# the server's environment is the tests' own: no stray connection settings
unset PGHOSTADDR PGSERVICE PGSERVICEFILE PGPASSWORD PGPASSFILE PGSSLMODE \
	PGOPTIONS PGAPPNAME PGCONNECT_TIMEOUT PGTARGETSESSIONATTRS 2>/dev/null || true

pg_find_bindir() {
	if [ -n "${PG_BINDIR:-}" ]; then
		[ -x "$PG_BINDIR/initdb" ] && echo "$PG_BINDIR"
		return
	fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] &&
		   [ -x "$d/postgres" ] && [ -x "$d/psql" ]; then
			echo "$d"
			return
		fi
	done
}

# need_pg: the rest of the script needs a server; without Debian's
# binaries it is skipped as a whole, the way need_samples skips
need_pg() {
	PG_BINDIR=$(pg_find_bindir)
	if [ -z "$PG_BINDIR" ]; then
		say "1..0 # SKIP no PostgreSQL server binaries (Debian package postgresql; scripts/deps.sh check installs it)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
	export PG_BINDIR
}

# pg_as_server CMD ARGS...: run CMD as the user the server runs as
pg_as_server() {
	if [ "$(id -u)" = 0 ]; then
		# from a directory it can enter: the caller's may be root's
		(cd "$PG_DIR" && runuser -u "$PG_USER" -- "$@")
	else
		"$@"
	fi
}

pg_start() {
	[ -n "${PG_BINDIR:-}" ] || need_pg
	trap 'pg_stop; cd /; rm -rf "$TRASH"' EXIT
	trap 'exit 1' INT TERM HUP PIPE
	if [ "$(id -u)" = 0 ]; then
		# root's TMPDIR may be private; the server user must reach it
		PG_DIR=$(mktemp -d /tmp/perfsift-pg.XXXXXX) || return 1
		chown "$PG_USER" "$PG_DIR" || return 1
	else
		PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/perfsift-pg.XXXXXX") ||
			return 1
	fi
	chmod 700 "$PG_DIR"
	if ! pg_as_server "$PG_BINDIR/initdb" -D "$PG_DIR/data" -U postgres \
		--auth=trust --no-locale -E UTF8 --no-sync \
		>"$PG_DIR/initdb.log" 2>&1; then
		echo "pg_start: initdb failed:" >&2
		cat "$PG_DIR/initdb.log" >&2
		return 1
	fi
	cat >>"$PG_DIR/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$PG_DIR'
port = 5432
fsync = off
synchronous_commit = off
full_page_writes = off
$PG_CONF_EXTRA
EOF
	# the log file is written by pg_ctl as the server user: in PG_DIR
	if ! pg_as_server "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" \
		-l "$PG_DIR/server.log" -w -t 60 start >"$PG_DIR/pg_ctl.log" 2>&1
	then
		echo "pg_start: the server did not start:" >&2
		cat "$PG_DIR/pg_ctl.log" "$PG_DIR/server.log" >&2
		return 1
	fi
	PGHOST=$PG_DIR
	PGPORT=5432
	PGUSER=postgres
	PGDATABASE=postgres
	export PGHOST PGPORT PGUSER PGDATABASE
}

pg_stop() {
	[ -n "$PG_DIR" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		pg_pid=$(head -n 1 "$PG_DIR/data/postmaster.pid")
		pg_as_server "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" -m fast \
			-w -t 30 stop >/dev/null 2>&1 ||
		pg_as_server "$PG_BINDIR/pg_ctl" -D "$PG_DIR/data" \
			-m immediate -w -t 30 stop >/dev/null 2>&1
		# pg_ctl returns once postmaster.pid is gone, a moment before
		# the process itself: wait for that too (10 s at most)
		pg_i=0
		while [ -n "$pg_pid" ] && kill -0 "$pg_pid" 2>/dev/null &&
		      [ $pg_i -lt 100 ]; do
			sleep 0.1
			pg_i=$((pg_i + 1))
		done
	fi
	rm -rf "$PG_DIR"
	PG_DIR=
}

# pg_wait_writer DB: wait (15 s at most) until a writer of DB holds the
# lock every perfsift writer takes for its transaction (an advisory lock)
pg_wait_writer() {
	pg_i=0
	while [ $pg_i -lt 300 ] && [ "$(pg_psql -d "$1" -c "SELECT count(*)
		FROM pg_locks l JOIN pg_database d ON d.oid = l.database
		WHERE l.locktype = 'advisory' AND l.granted AND
		d.datname = '$1'")" = 0 ]; do
		sleep 0.05
		pg_i=$((pg_i + 1))
	done
}

pg_psql() {
	"$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -A -t "$@"
}
