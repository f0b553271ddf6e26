# tests/lib.sh: the shell test library, after git's t/test-lib.sh.
#
# A test script sources this file, then calls
#   test_expect_success 'title' 'commands'
# any number of times, and ends with test_done.  Each body runs in a
# subshell with `set -e`, inside a trash directory that is removed at
# exit.  $PERFSIFT is the binary, $SRC the source tree, $SAMPLES the
# shared samples (use `need_samples` to skip when ../shared is absent).

set -u
LC_ALL=C
TZ=UTC
export LC_ALL TZ
unset PERFSIFT_DB PERFSIFT_SMTP_URL PERFSIFT_SMTP_USER PERFSIFT_SMTP_PASSWORD \
	PERFSIFT_SMTP_CAINFO PERFSIFT_FROM NETRC 2>/dev/null || true
# no mail settings from the user's ~/.config/perfsift/config
PERFSIFT_CONFIG=/dev/null
export PERFSIFT_CONFIG

SRC=$(cd "$(dirname "$0")/.." && pwd)
: "${PERFSIFT:=$SRC/perfsift}"
SAMPLES=$(cd "$SRC/.." && pwd)/shared/samples
TEST_NAME=$(basename "$0" .sh)
EXPECT_DIR=$SRC/tests/expect/$TEST_NAME
export PERFSIFT SRC SAMPLES

TRASH=$(mktemp -d "${TMPDIR:-/tmp}/perfsift-$TEST_NAME.XXXXXX")
trap 'smtpd_stop; cd /; rm -rf "$TRASH"' EXIT
cd "$TRASH"
# every perfsift call in a test uses the trash database unless it says
PERFSIFT_DB=$TRASH/test.db
export PERFSIFT_DB

# A function, so `perfsift ... &` backgrounds a subshell: $! is not the
# perfsift process.  To kill an import mid-way, start "$PERFSIFT" itself.
perfsift() {
	"$PERFSIFT" "$@"
}

# make_commits FROM TO: empty commits "cFROM".."cTO" in ./repo, with
# fixed dates, so that their shas are the same on every run
make_commits() {
	for i in $(seq "$1" "$2"); do
		GIT_AUTHOR_DATE="@$((1700000000 + i)) +0000" \
		GIT_COMMITTER_DATE="@$((1700000000 + i)) +0000" \
			git -C repo commit -q --allow-empty -m "c$i" || return 1
	done
}

# sha N: the full sha of commit "cN" in ./repo
sha() {
	git -C repo log --format='%H %s' | awk -v s="c$1" '$2 == s { print $1 }'
}

test_count=0
test_failed=0
test_skipped=0

say() {
	printf '%s\n' "$*"
}

test_expect_success() {
	test_count=$((test_count + 1))
	(
		set -e
		eval "$2"
	) >"$TRASH/.out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		say "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		say "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | head -n 60
	fi
}

# test_skip 'title' 'reason'
test_skip() {
	test_count=$((test_count + 1))
	test_skipped=$((test_skipped + 1))
	say "ok $test_count # skip $1 ($2)"
}

# Skip the whole script when ../shared/samples is not beside the tree.
need_samples() {
	if [ ! -d "$SAMPLES" ]; then
		say "1..0 # SKIP ../shared/samples is absent: $SAMPLES"
		echo "0 passed, 0 failed, 1 skipped"
		exit 0
	fi
}

# need_python3 'what the rest checks': without python3 the rest of the
# script is skipped as one test.
need_python3() {
	if ! command -v python3 >/dev/null 2>&1; then
		test_skip "$1" 'no python3'
		test_done
		exit
	fi
}

test_cmp() {
	diff -u "$1" "$2"
}

# The last line of FILE must be TEXT: test_last_line TEXT FILE
test_last_line() {
	printf '%s\n' "$1" >"$TRASH/.expect-last"
	tail -n 1 "$2" >"$TRASH/.actual-last"
	diff -u "$TRASH/.expect-last" "$TRASH/.actual-last"
}

# Compare actual output with a golden file in tests/expect/<test>/NAME;
# with UPDATE_GOLDEN=1 the golden file is written instead.
test_golden() {
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		mkdir -p "$EXPECT_DIR"
		cp "$2" "$EXPECT_DIR/$1"
		return 0
	fi
	if [ ! -f "$EXPECT_DIR/$1" ]; then
		echo "missing golden file tests/expect/$TEST_NAME/$1 (make update-golden)"
		return 1
	fi
	diff -u "$EXPECT_DIR/$1" "$2"
}

# The command must fail with exit status $1 (not crash by a signal).
test_expect_code() {
	want=$1
	shift
	set +e
	"$@"
	got=$?
	set -e
	if [ "$got" != "$want" ]; then
		echo "expected exit $want, got $got: $*"
		return 1
	fi
	return 0
}

test_must_fail() {
	set +e
	"$@"
	got=$?
	set -e
	if [ "$got" = 0 ]; then
		echo "expected failure: $*"
		return 1
	fi
	if [ "$got" -gt 128 ]; then
		echo "died by signal $((got - 128)): $*"
		return 1
	fi
	return 0
}

# Relative comparison of two numbers: test_near A B [REL]
test_near() {
	awk -v a="$1" -v b="$2" -v r="${3:-1e-9}" 'BEGIN {
		d = a - b; if (d < 0) d = -d;
		m = a < 0 ? -a : a; mb = b < 0 ? -b : b; if (mb > m) m = mb;
		if (d <= r * m || d == 0) exit 0;
		printf "not near: %s vs %s (rel %s)\n", a, b, r; exit 1 }'
}

# peak_rss_kib OUT CMD...: run CMD (its stdout into OUT) and print its
# peak RSS in KiB (getrusage of the child, by python3); CMD's exit code
# is printed after it ("54600 4").  A bound on memory is not a timing:
# it is deterministic enough for a test, except under the sanitizers.
peak_rss_kib() {
	_out=$1
	shift
	/usr/bin/python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as f:
    rc = subprocess.run(sys.argv[2:], stdout=f).returncode
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, rc)
' "$_out" "$@"
}

# the row counts of every table, on one line; a database that was never
# created (a usage error, a dry run) holds nothing
db_counts() {
	if [ ! -f "${1:-$PERFSIFT_DB}" ]; then
		echo "0 0 0 0 0 0 0"
		return
	fi
	sqlite3 "${1:-$PERFSIFT_DB}" "SELECT (SELECT count(*) FROM imports) ||
		' ' || (SELECT count(*) FROM runs) ||
		' ' || (SELECT count(*) FROM runs r JOIN variant_params p ON
			p.variant_id = r.variant_id) ||
		' ' || (SELECT count(*) FROM samples) ||
		' ' || (SELECT count(*) FROM aggregates) ||
		' ' || (SELECT count(*) FROM metrics) ||
		' ' || (SELECT count(*) FROM series)"
}

# SMTP servers on 127.0.0.1 (tests/smtpd.py, python3-aiosmtpd).  Start
# them outside a test's subshell for the EXIT trap to stop them, or stop
# them in the test that started them; each also exits by itself after
# its --lifetime (600 s).
smtpd_pids=
# smtpd_start NAME ARGS...: a server storing into $TRASH/NAME, its port
# in $TRASH/NAME/port, its output in $TRASH/NAME.log
smtpd_start() {
	_name=$1
	shift
	/usr/bin/python3 "$SRC/tests/smtpd.py" --dir "$TRASH/$_name" \
		--lifetime 600 "$@" >"$TRASH/$_name.log" 2>&1 &
	smtpd_pids="$smtpd_pids $!"
}

# smtpd_port NAME: the server's port, waiting up to 20 s for it
smtpd_port() {
	_i=0
	while [ ! -s "$TRASH/$1/port" ]; do
		_i=$((_i + 1))
		if [ $_i -gt 200 ]; then
			echo "server $1 did not start:" >&2
			cat "$TRASH/$1.log" >&2
			return 1
		fi
		sleep 0.1
	done
	cat "$TRASH/$1/port"
}

# smtpd_stop: stop every server this shell started (a test's `set -e`
# must not take their exit status for a failure)
smtpd_stop() {
	for _p in $smtpd_pids; do
		kill "$_p" 2>/dev/null || :
	done
	for _p in $smtpd_pids; do
		wait "$_p" 2>/dev/null || :
	done
	smtpd_pids=
}

# gen_cmp_csv METRICS SEED EVERY: a CSV of labels base and new, 5 runs
# each of METRICS metrics m0000_ops... around 100 + m with 2 % noise
# (awk's srand(SEED)), new 5 % higher on every EVERY-th metric
gen_cmp_csv() {
	awk -v metrics="$1" -v seed="$2" -v every="$3" 'BEGIN {
		srand(seed); print "label,iteration,metric,value"
		for (l = 0; l < 2; l++) for (i = 0; i < 5; i++)
			for (m = 0; m < metrics; m++) {
				x = (100 + m) * (1 + 0.02 * rand())
				if (l && m % every == 0)
					x *= 1.05
				printf "%s,%d,m%04d_ops,%.6g\n",
					l ? "new" : "base", i, m, x
			}
	}'
}

# ab_db NAME A1 A2 A3 B1 B2 B3: the database NAME.db of metric z.bw, the
# first three values label A, the last three label B
ab_db() {
	_n=$1
	shift
	{
		echo metric,value,label
		for _l in A A A B B B; do
			echo "z.bw,$1,$_l"
			shift
		done
	} >"$_n.csv"
	perfsift --db "$_n.db" import "$_n.csv" >/dev/null
}

# fio_copies N DIR: N outputs of tests/data's psync-randread job in DIR
# (o-000.json ...), each with its own bandwidth, so its own content hash
fio_copies() {
	mkdir -p "$2" &&
	awk -v n="$1" -v dir="$2" '{ line[NR] = $0 } END {
		for (f = 0; f < n; f++) {
			out = sprintf("%s/o-%03d.json", dir, f)
			for (i = 1; i <= NR; i++) {
				s = line[i]
				if (s ~ /"bw" : [0-9]+,?$/)
					sub(/: [0-9]+/, ": " (1000 + f), s)
				print s > out
			}
			close(out)
		}
	}' "$SRC"/tests/data/fio/psync-randread/input
}

# imports_agree VAR V1 V2 IN...: import IN with VAR=V1 (run 1) and with
# VAR=V2 (run 2), each into a new database ($DB for both when set, else
# 1.db and 2.db; $SEED imported into it first, quietly, with VAR=V1,
# when set); their output, messages, status and every row (import times
# blanked) must be the same.  Leaves 1.out, 1.err, 1.rc, 1.dump, 2.*.
imports_agree() {
	_var=$1 _v1=$2 _v2=$3
	shift 3
	for _m in 1 2; do
		_db=${DB:-$_m.db}
		rm -f "$_db" "$_db-wal" "$_db-shm"
		if [ -n "${SEED:-}" ]; then
			env "$_var=$_v1" "$PERFSIFT" --db "$_db" import -q $SEED \
				>/dev/null 2>&1
		fi
		if [ $_m = 1 ]; then _v=$_v1; else _v=$_v2; fi
		_rc=0
		env "$_var=$_v" "$PERFSIFT" --db "$_db" import "$@" \
			>$_m.out 2>$_m.err || _rc=$?
		echo $_rc >$_m.rc
		for _t in $(sqlite3 "$_db" "SELECT name FROM sqlite_master
				WHERE type = 'table' ORDER BY name"); do
			echo "== $_t"
			sqlite3 "$_db" "SELECT * FROM $_t"
		done | sed -E 's/\|[0-9]{10}\|([01])\|/|T|\1|/' >$_m.dump
	done
	test_cmp 1.out 2.out && test_cmp 1.err 2.err &&
	test_cmp 1.rc 2.rc && test_cmp 1.dump 2.dump
}

# The database must still be sound.
test_db_ok() {
	out=$(sqlite3 "${1:-$PERFSIFT_DB}" 'PRAGMA integrity_check')
	[ "$out" = ok ] || { echo "integrity_check: $out"; return 1; }
}

test_done() {
	passed=$((test_count - test_failed - test_skipped))
	echo "# $TEST_NAME: $passed passed, $test_failed failed, $test_skipped skipped"
	echo "$passed passed, $test_failed failed, $test_skipped skipped"
	[ "$test_failed" = 0 ]
}
