#!/bin/sh
# Decode speed of the mail decoder against GMime, and their agreement,
# on a big generated mbox: the messages of tests/fixtures/mail/
# robot-thread.mbox (one of six broken) and the .eml fixtures, repeated
# with fresh Message-IDs up to about SIZE_MB (default 200).  Both
# programs decode and print the same dump (perfsift debug mail,
# tests/mail-ref/gmime-dump); the best of 3 runs each is reported, and
# the peak memory of one run (/usr/bin/time, Debian package time).
#
#   make check && tests/mail-ref/bench.sh [SIZE_MB]
set -eu
cd "$(dirname "$0")/../.."
size_mb=${1:-200}
perfsift=${PERFSIFT:-./perfsift}
gmime=${GMIME_DUMP:-build/tests/gmime-dump}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mail-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# one round: the thread, then each .eml as an mbox message
{
	cat tests/fixtures/mail/robot-thread.mbox
	for f in tests/fixtures/mail/crlf-folded.eml \
		 tests/fixtures/mail/latin1-8bit.eml; do
		echo "From bench@example.org Mon Jan  1 00:00:00 2024"
		cat "$f"
		echo
	done
} >"$tmp/round"
round=$(stat -c %s "$tmp/round")
n=$((size_mb * 1048576 / round + 1))
awk -v n="$n" 'BEGIN { while ((getline l < ARGV[1]) > 0) r[++k] = l;
	for (i = 1; i <= n; i++)
		for (j = 1; j <= k; j++) {
			l = r[j]
			sub(/^Message-ID: *</, "Message-ID: <" i ".", l)
			print l
		} }' "$tmp/round" >"$tmp/big.mbox"
bytes=$(stat -c %s "$tmp/big.mbox")
echo "mbox: $bytes bytes, $(grep -c '^From ' "$tmp/big.mbox") messages"

best() {	# best wall time of 3 runs of "$@" >/dev/null, in seconds
	b=
	for i in 1 2 3; do
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || true
		t1=$(date +%s.%N)
		b=$(echo "$t0 $t1 ${b:-1e9}" | awk '{ d = $2 - $1; print (d < $3 ? d : $3) }')
	done
	echo "$b"
}
ours=$(best "$perfsift" debug mail "$tmp/big.mbox")
ref=$(best "$gmime" --mbox "$tmp/big.mbox")
# peak memory (max RSS, KiB) of one run each
rss() {
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$tmp/rss"
}
ours_kb=$(rss "$perfsift" debug mail "$tmp/big.mbox")
ref_kb=$(rss "$gmime" --mbox "$tmp/big.mbox")
awk -v b="$bytes" -v o="$ours" -v g="$ref" -v ok="$ours_kb" -v gk="$ref_kb" 'BEGIN {
	printf "perfsift debug mail: %.2f s, %.0f MB/s, max RSS %d KiB\n", o, b / o / 1e6, ok
	printf "gmime-dump:          %.2f s, %.0f MB/s, max RSS %d KiB\n", g, b / g / 1e6, gk }'

# agreement: the same dump but for the broken messages (ours says which)
"$perfsift" debug mail "$tmp/big.mbox" 2>/dev/null | tail -n +2 >"$tmp/ours" || true
"$gmime" --mbox "$tmp/big.mbox" >"$tmp/gmime"
broken=$(awk '/^message [0-9]+$/ { n = $2 } /^broken$/ { print n }' "$tmp/ours" | wc -l)
awk 'NR == FNR { if (/^message [0-9]+$/) n = $2; if (/^broken$/) bad[n] = 1; next }
	/^message [0-9]+$/ { skip = ($2 in bad) } !skip' "$tmp/ours" "$tmp/ours" >"$tmp/ours.cmp"
awk 'NR == FNR { if (/^message [0-9]+$/) n = $2; if (/^broken$/) bad[n] = 1; next }
	/^message [0-9]+$/ { skip = ($2 in bad) } !skip' "$tmp/ours" "$tmp/gmime" >"$tmp/gmime.cmp"
total=$(grep -c '^message ' "$tmp/ours")
if cmp -s "$tmp/ours.cmp" "$tmp/gmime.cmp"; then
	echo "agreement: $((total - broken)) of $total messages identical; $broken broken (left out)"
else
	echo "agreement: DIFFERENT"
	diff "$tmp/gmime.cmp" "$tmp/ours.cmp" | head -20
	exit 1
fi
