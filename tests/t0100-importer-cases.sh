#!/bin/sh
# Data-driven importer tests (jq's layout): every folder
# tests/data/<importer>/<case>/ holds `input` and either `expect` (the
# `perfsift debug dump` after importing it; with `warnings`, the exact
# stderr, else none) or `error` (the exact stderr of a failed import,
# which must exit 3 and keep nothing).  `input` may be
# a directory (a result a directory importer claims whole, or a tree).
# An optional `args` file replaces the default import flags
# `--format <importer>`.  Adding a case needs no code.
. "$(dirname "$0")/lib.sh"

for dir in "$SRC"/tests/data/*/*/; do
	[ -e "$dir/input" ] || continue
	imp=$(basename "$(dirname "$dir")")
	case=$(basename "$dir")
	export dir imp case
	if [ -f "$dir/expect" ]; then
		test_expect_success "$imp/$case imports as expected" '
			rm -f case.db* &&
			rm -rf input && cp -R "$dir/input" input &&
			args="--format $imp" &&
			if [ -f "$dir/args" ]; then args=$(cat "$dir/args"); fi &&
			perfsift --db case.db import $args input >out 2>err &&
			perfsift --db case.db debug dump >actual &&
			if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
				cp actual "$dir/expect" &&
				if [ -s err ]; then cp err "$dir/warnings"; else rm -f "$dir/warnings"; fi
			fi &&
			test_cmp "$dir/expect" actual &&
			if [ -f "$dir/warnings" ]; then
				test_cmp "$dir/warnings" err
			else
				test_cmp /dev/null err
			fi &&
			perfsift --db case.db import $args input >out2 &&
			grep -q "already imported" out2 &&
			! grep -v -e ": already imported$" \
				-e "^imported 0 files: 0 runs, 0 samples; [0-9]* already imported$" out2 &&
			perfsift --db case.db debug dump >actual2 &&
			test_cmp actual actual2
		'
	elif [ -f "$dir/error" ]; then
		test_expect_success "$imp/$case is refused with a clear error" '
			rm -f case.db* &&
			rm -rf input && cp -R "$dir/input" input &&
			args="--format $imp" &&
			if [ -f "$dir/args" ]; then args=$(cat "$dir/args"); fi &&
			test_expect_code 3 perfsift --db case.db import $args input >out 2>err &&
			if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp err "$dir/error"; fi &&
			test_cmp "$dir/error" err &&
			perfsift --db case.db debug dump >dump &&
			! grep -v "^import" dump | grep . &&
			! grep -q "^import" dump
		'
	fi
done
test_done
