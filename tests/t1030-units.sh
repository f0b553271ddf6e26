#!/bin/sh
# One metric, one unit (lib/store/units.c): a metric keeps the first
# unit it was given; values in another unit of the same quantity are
# converted to it (IEC sizes and rates, times), the spread with them; a
# unit whose scale is in doubt ("MB/s": 1000 or 1024?) is refused with
# both named, and nothing of that file is kept.
. "$(dirname "$0")/lib.sh"

test_expect_success 'KiB/s, then MiB/s: converted to KiB/s' '
	printf "label,iteration,metric,value,unit\nA,1,foo.bw,1500,KiB/s\nA,2,foo.bw,1510,KiB/s\n" >kib.csv &&
	printf "label,iteration,metric,value,unit\nB,1,foo.bw,1.5,MiB/s\nB,2,foo.bw,1.6,MiB/s\n" >mib.csv &&
	perfsift import kib.csv mib.csv >out &&
	test_last_line "imported 2 files: 4 runs, 4 samples" out &&
	perfsift compare A B --all --json >c.json &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"c.json\"))
r = d[\"rows\"][0]
assert r[\"unit\"] == \"KiB/s\", r[\"unit\"]
v = r[\"vs\"][0]
assert abs(v[\"min\"] - 1536) < 1e-9 and abs(v[\"max\"] - 1638.4) < 1e-9, v
"
'

test_expect_success 'MB/s against KiB/s: refused, both named, nothing of it kept' '
	printf "label,iteration,metric,value,unit\nC,1,foo.bw,1.5,MB/s\nC,2,foo.bw,1.6,MB/s\n" >mb.csv &&
	test_expect_code 3 perfsift import mb.csv >out 2>err &&
	grep "^perfsift: error: mb.csv:2: metric .foo.bw. is in KiB/s in the database, here in MB/s: not one quantity perfsift can convert (give it another name, or convert it)$" err &&
	test_expect_code 2 perfsift compare A C 2>/dev/null
'

test_expect_success 'a time aggregate in ms onto a metric in us: value and sd converted' '
	printf "label,iteration,metric,value,unit\nD,1,lat.p99,1200,us\nD,2,lat.p99,1300,us\n" >us.csv &&
	printf "label,metric,stat,value,stddev,n,unit\nE,lat.p99,mean,1.5,0.1,5,ms\n" >ms.csv &&
	perfsift import us.csv ms.csv >out &&
	perfsift compare D E --all --json >c.json &&
	/usr/bin/python3 -c "
import json
d = json.load(open(\"c.json\"))
r = [r for r in d[\"rows\"] if r[\"metric\"] == \"lat.p99\"][0]
v = r[\"vs\"][0]
assert abs(v[\"mean\"] - 1500) < 1e-9, v
assert abs(v[\"stddev\"] - 100) < 1e-9, v
"
'

test_expect_success 'the unit of the same quantity and the same name: no conversion at all' '
	printf "label,iteration,metric,value,unit\nF,1,foo.bw,7,KiB/s\n" >same.csv &&
	perfsift import same.csv >out &&
	perfsift show F --json >s.json &&
	grep "^        \"foo.bw\": 7.0$" s.json
'

test_done
