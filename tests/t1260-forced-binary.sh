#!/bin/sh
# A format forced on what is not that format ends, and says so in one
# readable line: every importer under --format on /dev/urandom, on
# /dev/zero and on a FIFO of endless text stops with exit 3 (not at the
# device's end, which never comes), and its message is valid UTF-8 with
# the input's bytes quoted short and escaped (\xHH), never raw.
. "$(dirname "$0")/lib.sh"

formats="fio fio-normal fio-terse fio-log procfs vmstat-tool codesize csv lkp-table mmtests-table"

utf8_short() {
	# every line of $1 valid UTF-8 and under 300 characters
	/usr/bin/python3 -c '
import sys
for line in open(sys.argv[1], "rb"):
    s = line.decode("utf-8")
    assert len(s) < 300, s
' "$1"
}

for dev in /dev/urandom /dev/zero; do
	for f in $formats; do
		export dev f
		test_expect_success "--format $f $dev: ends, exit 3, a readable message" '
			test_expect_code 3 timeout 60 "$PERFSIFT" --db d.db import \
				--format $f $dev >out 2>err &&
			grep "^perfsift: error: $dev" err &&
			utf8_short err
		'
	done
done

test_expect_success '--format fio on endless text: stops after 64 MiB without a {' '
	mkfifo fifo &&
	{ yes "fio: some diagnostic line" >fifo 2>/dev/null & } &&
	test_expect_code 3 timeout 60 "$PERFSIFT" --db d.db import --format fio fifo 2>err &&
	grep "^perfsift: error: fifo: no line starts with .{. in the first 64 MiB: not fio JSON output$" err
'

test_expect_success 'a NUL before the JSON names its line' '
	printf "fio: one\\nfio: two\\n\\000{\\n" >nul.json &&
	test_expect_code 3 perfsift import --format fio nul.json 2>err &&
	grep "^perfsift: error: nul.json:3: a NUL byte before the JSON (binary data?): not fio JSON output$" err
'

test_expect_success 'a cell of Latin-1 bytes is quoted escaped, at most 40 bytes' '
	{ printf "metric,value,label\\nx.bw,"; head -c 600 /dev/zero | tr "\\000" "\\374"; printf ",A\\n"; } >latin1.csv &&
	test_expect_code 3 perfsift import latin1.csv 2>err &&
	grep "^perfsift: error: latin1.csv:2: expected a number in column .value., got .\(\\\\xfc\)\{40\}.$" err &&
	utf8_short err
'

test_expect_success 'a /proc file forced on bytes that are not text says binary, quotes nothing' '
	printf "ab\\033cd \\374\\374\\374\\n" >bin.txt &&
	test_expect_code 3 perfsift import --format procfs bin.txt 2>err &&
	grep "^perfsift: error: bin.txt:1: expected the text of a /proc file, got binary data (byte 0x1b at column 3)$" err
'

test_done
