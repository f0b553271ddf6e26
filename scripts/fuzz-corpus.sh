#!/bin/sh
# Assemble the seed corpus of the fuzz targets into DIR: every file input
# of tests/data (directory inputs: their members joined with the target's
# "\n---\n" separators in its member order), the mail fixtures of
# tests/fixtures/mail, MMTests logs directories (fuzz-mmtests' shape,
# see tests/fuzz/fuzz-mmtests.c), and, when ../shared is
# beside the tree, the samples it holds (procfs, lkp, fio, the real
# mails of emails/; files under 1 MB).  DIR is rebuilt; nothing is copied into the source tree.
set -eu
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/fuzz-corpus.sh DIR}
rm -rf "$dir"
mkdir -p "$dir"
n=0
for f in tests/data/*/*/input; do
	n=$((n + 1))
	if [ -f "$f" ]; then
		cp "$f" "$dir/data-$n"
	elif [ -d "$f" ]; then
		# job.yaml, stats.json, fio.output, proc-vmstat, zoneinfo
		out="$dir/dir-$n"
		: >"$out"
		first=1
		for m in job.yaml stats.json fio.output proc-vmstat zoneinfo; do
			p=$(find "$f" -name "$m" -o -name "$m.gz" | head -n 1)
			[ $first = 1 ] || printf '\n---\n' >>"$out"
			first=0
			[ -n "$p" ] && cat "$p" >>"$out"
		done
	fi
done
for f in tests/fixtures/mail/*; do
	[ "$(basename "$f")" = README ] && continue
	n=$((n + 1))
	cp "$f" "$dir/mail-$n"
done
# MMTests logs directories for fuzz-mmtests: "<test>\n" then each file
# as "<name>\n<content>" joined by "\n---\n" (gunzipped, each cut to
# its first 400 lines); from the hand-made tree and the sample trees
mm_seed() {	# TEST LOGS-DIR
	n=$((n + 1))
	out="$dir/mmtests-$n"
	printf '%s\n' "$1" >"$out"
	first=1
	for p in "$2"/*; do
		[ -f "$p" ] || continue
		[ $first = 1 ] || printf '\n---\n' >>"$out"
		first=0
		basename "$p" .gz >>"$out"
		zcat -f "$p" | head -n 400 >>"$out"
	done
}
for l in tests/data/mmtests-tree/work/log/*/iter-0/*/logs; do
	[ -d "$l" ] && mm_seed "$(basename "$(dirname "$l")")" "$l"
done
if [ -d ../shared/samples ]; then
	for l in ../shared/samples/mmtests/work-log/log.ltccip8.2020-06-03_1400/*/iter-0/*/logs; do
		[ -d "$l" ] && mm_seed "$(basename "$(dirname "$l")")" "$l"
	done
	for f in ../shared/samples/procfs/* ../shared/samples/lkp/* \
		 ../shared/samples/fio/* ../shared/samples/emails/*.txt; do
		[ -f "$f" ] || continue
		[ "$(stat -c %s "$f")" -lt 1000000 ] || continue
		n=$((n + 1))
		cp "$f" "$dir/sample-$n"
	done
fi
echo "fuzz corpus: $n seeds in $dir"
