#!/bin/sh
# What a mistyped command line gets (issue 35): a misspelt command or
# option is answered with the names spelt like it, "did you mean ...?",
# and the command's usage lines, not its whole help; so is a missing
# argument.
. "$(dirname "$0")/lib.sh"

SQ="'"

# err_is FILE LINES...: FILE holds exactly these lines
err_is() {
	f=$1
	shift
	printf '%s\n' "$@" >expect.err &&
	test_cmp expect.err "$f"
}

test_expect_success 'a misspelt command: did you mean, its usage, exit 2' '
	test_expect_code 2 perfsift comapre a b >out 2>err &&
	test ! -s out &&
	err_is err "perfsift: error: ${SQ}comapre${SQ} is not a perfsift command" \
		"did you mean ${SQ}compare${SQ}?" \
		"usage: perfsift compare BASE NEW... [OPTIONS]" \
		"see ${SQ}perfsift help compare${SQ}"
'

test_expect_success 'a missing or an extra letter, a swap: the same answer' '
	for typo in sohw shw showw; do
		test_expect_code 2 perfsift $typo x 2>err &&
		grep -x "did you mean ${SQ}show${SQ}?" err &&
		grep -x "see ${SQ}perfsift help show${SQ}" err || exit 1
	done
'

test_expect_success 'help of a misspelt command: the same answer' '
	test_expect_code 2 perfsift help regresions >out 2>err &&
	test ! -s out &&
	grep -x "did you mean ${SQ}regressions${SQ}?" err &&
	grep -q "^usage: perfsift regressions " err
'

test_expect_success 'a prefix of two commands names both, no usage' '
	test_expect_code 2 perfsift co 2>err &&
	err_is err "perfsift: error: ${SQ}co${SQ} is not a perfsift command" \
		"did you mean one of ${SQ}commits${SQ}, ${SQ}compare${SQ}?" \
		"see ${SQ}perfsift help${SQ}"
'

test_expect_success 'a word the summaries name: the commands about it' '
	test_expect_code 2 perfsift variants 2>err &&
	err_is err "perfsift: error: ${SQ}variants${SQ} is not a perfsift command" \
		"the commands about variants: compare, runs, show" \
		"see ${SQ}perfsift help COMMAND${SQ}"
'

test_expect_success 'a word like nothing: no guess' '
	test_expect_code 2 perfsift x 2>err &&
	err_is err "perfsift: error: ${SQ}x${SQ} is not a perfsift command; see ${SQ}perfsift help${SQ}"
'

test_expect_success 'a misspelt option: did you mean, the usage, not the help' '
	test_expect_code 2 perfsift compare --alhpa 0.1 a b >out 2>err &&
	test ! -s out &&
	err_is err "perfsift compare: unrecognized option ${SQ}--alhpa${SQ}" \
		"did you mean ${SQ}--alpha${SQ}?" \
		"usage: perfsift compare BASE NEW... [OPTIONS]" \
		"see ${SQ}perfsift help compare${SQ}" &&
	test_expect_code 2 perfsift compare --alhpa=0.1 a b 2>err &&
	grep -x "did you mean ${SQ}--alpha${SQ}?" err
'

test_expect_success 'a long name after one dash, a hub option misspelt' '
	test_expect_code 2 perfsift show -metric x a 2>err &&
	grep -x "perfsift show: invalid option -- ${SQ}m${SQ}" err &&
	grep -x "did you mean ${SQ}--metric${SQ}?" err &&
	test_expect_code 2 perfsift --dbb x runs 2>err &&
	err_is err "perfsift: error: unknown option ${SQ}--dbb${SQ}" \
		"did you mean ${SQ}--db${SQ}?" \
		"usage: perfsift [--db PATH|URL] COMMAND [OPTIONS] [ARGS]" \
		"       perfsift help [COMMAND]" \
		"       perfsift --version" \
		"see ${SQ}perfsift help${SQ}"
'

test_expect_success 'an option like none of the table: no guess' '
	test_expect_code 2 perfsift runs --zzzzzz 2>err &&
	! grep -q "did you mean" err &&
	grep -x "see ${SQ}perfsift help runs${SQ}" err
'

test_expect_success 'a missing argument: the usage and the hint, not the help' '
	test_expect_code 2 perfsift compare >out 2>err &&
	test ! -s out &&
	err_is err "perfsift: error: need BASE and at least one NEW variant" \
		"usage: perfsift compare BASE NEW... [OPTIONS]" \
		"see ${SQ}perfsift help compare${SQ}" &&
	test_expect_code 2 perfsift compare --alpha 2 a b 2>err &&
	test $(wc -l <err) = 3
'

test_expect_success 'no usage error prints a whole help' '
	for c in bisect changepoints commits compare import metrics plot \
		push regressions report runs send show trend; do
		test_expect_code 2 perfsift $c --no-such-option 2>err || exit 1
		grep -q "^usage: perfsift $c" err || { echo "$c: no usage"; exit 1; }
		test $(wc -l <err) -le 9 || { echo "$c: help"; cat err; exit 1; }
	done
'

test_expect_success 'compare 4k 64k, values of a param: names the --by' '
	printf "label,bs,metric,value\nA,4k,m,1\nA,64k,m,2\n" >p.csv &&
	perfsift import -q p.csv &&
	test_expect_code 2 perfsift compare 4k 64k >out 2>err &&
	test ! -s out &&
	grep -x "${SQ}4k${SQ} is a value of parameter bs: select along it with --by param:bs" err &&
	perfsift compare --by param:bs 4k 64k >out &&
	grep -q "^base 4k (1 run) vs 64k (1 run)" out
'

test_done
