#!/bin/sh
# Check the Debian packages perfsift needs and install the missing ones.
#
#   scripts/deps.sh build   libraries and tools to build perfsift
#   scripts/deps.sh check   build + what the test suite runs (fio, gnuplot,
#                           scipy for the reference tables, aiosmtpd, git,
#                           chromium and html5lib for the HTML page, and
#                           the PostgreSQL 15 server for the
#                           server tests: tests/pg.sh)
#   scripts/deps.sh demo    build + what `make demo` runs
#
# As root, missing packages are installed with apt-get (after an
# `apt-get update`: a fresh machine has no package lists).  Otherwise the
# exact apt-get line is printed and the script fails.
set -e

build="gcc make pkg-config libsqlite3-dev libjansson-dev libcurl4-openssl-dev zlib1g-dev libyaml-dev libgmime-3.0-dev libpq-dev"
case "${1:-build}" in
build)	want="$build" ;;
check)	want="$build sqlite3 git fio gnuplot-nox python3 python3-scipy python3-aiosmtpd python3-html5lib clang libclang-rt-14-dev openssl chromium postgresql" ;;
demo)	want="$build fio gnuplot-nox git" ;;
*)	echo "usage: scripts/deps.sh [build|check|demo]" >&2; exit 2 ;;
esac

missing=
for p in $want; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "perfsift: missing Debian packages:$missing" >&2
	echo "perfsift: run as root:  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "perfsift: installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
