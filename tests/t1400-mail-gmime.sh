#!/bin/sh
# The mail decoder (lib/mail/mail.c, through `perfsift debug mail`)
# against GMime (tests/mail-ref/gmime-dump, built by make check): on
# every mail fixture and every email sample, the same messages, the same
# decoded headers, the same text lines.  Messages the decoder finds
# broken are listed here (GMime reads whatever it can of them) and left
# out of the comparison.  Line numbers and quote depths, which GMime
# does not have, are pinned by the golden files of `debug mail --lines`.
. "$(dirname "$0")/lib.sh"

GMIME_DUMP=${PERFSIFT_BUILD:-$SRC/build}/tests/gmime-dump
FIX=$SRC/tests/fixtures/mail

# The kind "perfsift debug mail" detects: mbox, eml or text.
kind_of() {
	perfsift debug mail "$1" 2>/dev/null | sed -n '1s/^kind //p'
}

# Numbers of the broken messages of our dump $1, on one line.
broken_list() {
	awk '/^message [0-9]+$/ { n = $2 } /^broken$/ { printf "%s ", n }' "$1"
}

# Dump $1 without the messages numbered in $2.
drop_messages() {
	awk -v drop=" $2" '/^kind / { next }
		/^message [0-9]+$/ { skip = index(drop, " " $2 " ") > 0 }
		!skip' "$1"
}

# compare FILE EXPECTED-BROKEN
compare_with_gmime() {
	kind=$(kind_of "$1")
	test "$kind" = mbox || test "$kind" = eml || {
		echo "$1: detected as '$kind', not mail"
		return 1
	}
	perfsift debug mail "$1" >ours 2>errors || true
	got=$(broken_list ours)
	if [ "$got" != "$2" ]; then
		echo "$1: broken messages '$got', expected '$2'"
		cat errors
		return 1
	fi
	"$GMIME_DUMP" --"$kind" "$1" >gmime.raw
	drop_messages ours "$got" >ours.cmp
	drop_messages gmime.raw "$got" >gmime.cmp
	test_cmp gmime.cmp ours.cmp
}

test_expect_success 'gmime-dump is built' '
	test -x "$GMIME_DUMP"
'

test_expect_success 'robot-thread.mbox: as GMime, message 4 broken' '
	compare_with_gmime "$FIX/robot-thread.mbox" "4 " &&
	grep -c "^message " ours >n && echo 6 >expect && test_cmp expect n
'

test_expect_success 'crlf-folded.eml: as GMime' '
	compare_with_gmime "$FIX/crlf-folded.eml" ""
'

test_expect_success 'latin1-8bit.eml: as GMime' '
	compare_with_gmime "$FIX/latin1-8bit.eml" ""
'

test_expect_success 'truncated.eml: broken, named with its line' '
	compare_with_gmime "$FIX/truncated.eml" "1 " &&
	grep "truncated.eml:23: truncated message (from line 1): expected the multipart boundary .--tThc/1wpZn/ma/RB--." errors
'

test_expect_success 'robot-thread.mbox: the broken message named' '
	perfsift debug mail "$FIX/robot-thread.mbox" >/dev/null 2>errors ||
	true &&
	grep "robot-thread.mbox:189: truncated message (from line 172)" errors
'

if [ -d "$SAMPLES/lkp" ]; then
	for f in "$SAMPLES"/lkp/email-*; do
		name=$(basename "$f")
		case $(kind_of "$f") in
		text)
			test_expect_success "$name: plain text, read whole" "
				perfsift debug mail --lines '$f' >out &&
				test \$(grep -c '	|' out) = \$(wc -l <'$f')
			"
			;;
		*)
			test_expect_success "$name: as GMime" "
				compare_with_gmime '$f' ''
			"
			;;
		esac
	done
else
	test_skip 'the email samples' "SKIP ../shared/samples is absent: $SAMPLES"
fi

# Line numbers and quote depths of every fixture.
for f in "$FIX"/*; do
	name=$(basename "$f")
	test "$name" = README && continue
	test_expect_success "$name: line numbers and quote depths" "
		perfsift debug mail --lines '$f' >out 2>/dev/null || true
		test_golden '$name' out
	"
done

test_done
