# scripts/bench-lib.sh: the arithmetic and the table of make bench, sourced
# by scripts/bench.sh and by tests/t9000-bench-lib.sh (which checks them
# without timing anything).  The caller sets tmp (a directory: the TSV
# lines go to $tmp/tsv, a failure's details come from $tmp/err) and
# nr_pass=0 nr_miss=0 failed=0.

# calc EXPR: evaluate an awk expression (floating point) and print it
calc() {
	awk "BEGIN { print $1 }"
}

# fmt_int X: X rounded, with thousands separators (1234567 -> 1,234,567)
fmt_int() {
	awk -v x="$1" 'BEGIN {
		s = sprintf("%.0f", x); out = ""
		while (length(s) > 3) {
			out = "," substr(s, length(s) - 2) out
			s = substr(s, 1, length(s) - 3)
		}
		print s out
	}'
}

# fmt FORMAT X: printf through awk (so that X may be any number awk
# reads); FORMAT "int" is fmt_int
fmt() {
	if [ "$1" = int ]; then
		fmt_int "$2"
	else
		awk -v f="$1" -v x="$2" 'BEGIN { printf f, x }'
	fi
}

# summarize V...: set med, lo and hi to the median, minimum and maximum
# of the values (the mean of the middle two for an even count)
summarize() {
	set -- $(printf '%s\n' "$@" | sort -g | awk '
		{ v[NR] = $1 }
		END {
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			print m, v[1], v[NR]
		}')
	med=$1 lo=$2 hi=$3
}

# scale F: multiply med, lo and hi by F (seconds -> ms: 1000)
scale() {
	med=$(calc "$med * $1") lo=$(calc "$lo * $1") hi=$(calc "$hi * $1")
}

# per X: turn the times med, lo and hi into rates X / time (the slowest
# run gives the lowest rate)
per() {
	local l=$lo
	med=$(calc "$1 / $med") lo=$(calc "$1 / $hi") hi=$(calc "$1 / $l")
}

# keep, restore: save med, lo and hi, and put them back (a time turned
# into several rates)
keep() {
	k_med=$med k_lo=$lo k_hi=$hi
}
restore() {
	med=$k_med lo=$k_lo hi=$k_hi
}

# judge VALUE OP LIMIT: set vd to "pass" or "miss" (OP is >= or <=)
judge() {
	vd=$(awk -v a="$1" -v op="$2" -v b="$3" 'BEGIN {
		ok = op == ">=" ? a + 0 >= b + 0 : a + 0 <= b + 0
		print ok ? "pass" : "miss"
	}')
}

section() {
	printf '%s\n' "$*"
}

# fig KEY LABEL FORMAT [FLOOR [TARGET [VERDICT]]]: one row of the table
# from med, lo and hi, and its line in the TSV.  The ratio is median /
# floor for times and floor / median for rates (a unit "[.../s]" in
# LABEL): how many times slower than its floor, either way.  Not in
# $(...), whose subshell would lose the count.
fig() {
	local key=$1 label=$2 f=$3 floor=${4:-} target=${5:-} v=${6:-}
	local ratio= line
	if [ -n "$floor" ]; then
		case $label in
		*'/s]'*) ratio=$(calc "$floor / $med") ;;
		*) ratio=$(calc "$med / $floor") ;;
		esac
	fi
	case $v in
	pass) nr_pass=$((nr_pass + 1)) ;;
	miss) nr_miss=$((nr_miss + 1)) ;;
	esac
	line=$(printf '  %-46s %10s %19s %10s %7s  %-15s %s' "$label" \
		"$(fmt "$f" "$med")" \
		"$(fmt "$f" "$lo")-$(fmt "$f" "$hi")" \
		"${floor:+$(fmt "$f" "$floor")}" \
		"${ratio:+$(fmt %.2fx "$ratio")}" "$target" "$v")
	printf '%s\n' "${line%"${line##*[! ]}"}"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$key" "$med" "$lo" "$hi" \
		"$floor" "${ratio:+$(fmt %.4f "$ratio")}" "$target" "$v" \
		>>"$tmp/tsv"
}

# missing KEY LABEL TARGET WHAT: a figure that has no number because
# perfsift refused (WHAT); a miss when it has a TARGET, not a broken
# benchmark
missing() {
	local line v=
	if [ -n "$3" ]; then
		nr_miss=$((nr_miss + 1))
		v=miss
	fi
	line=$(printf '  %-46s %10s %19s %10s %7s  %-15s %s' "$2" "$4" \
		'' '' '' "$3" "$v")
	printf '%s\n' "${line%"${line##*[! ]}"}"
	printf '%s\t%s\t\t\t\t\t%s\t%s\n' "$1" "$4" "$3" "$v" >>"$tmp/tsv"
}

fail() {
	printf '  FAILED: %s\n' "$*"
	if [ -s "$tmp/err" ]; then
		sed -e 's/^/    | /' "$tmp/err" | head -n 10
	fi
	failed=1
}

