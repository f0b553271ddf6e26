#!/bin/sh
# show keeps every --metric, as compare does (issue 35): the rows of
# any of the globs, in the order show prints them.
. "$(dirname "$0")/lib.sh"

test_expect_success 'three metrics of one run' '
	printf "label,metric,value\nv1,a.x,1\nv1,b.y,2\nv1,c.z,3\n" >r.csv &&
	perfsift import -q r.csv
'

test_expect_success 'show --metric twice: the rows of both globs' '
	perfsift show v1 --metric "a.*" --metric c.z >out &&
	grep -q "^a\.x " out &&
	grep -q "^c\.z " out &&
	! grep -q "b\.y" out &&
	perfsift show v1 --metric "a.*" --metric c.z --json >out.json &&
	grep -q "\"a\.x\"" out.json &&
	grep -q "\"c\.z\"" out.json &&
	! grep -q "b\.y" out.json
'

test_expect_success 'show --metric once: as before' '
	perfsift show v1 --metric b.y >out &&
	grep -q "^b\.y " out &&
	! grep -q "a\.x" out
'

test_done
