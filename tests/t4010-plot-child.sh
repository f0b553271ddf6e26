#!/bin/sh
# The gnuplot perfsift runs is bounded and told nothing secret: one
# that hangs is killed after PERFSIFT_PLOT_TIMEOUT seconds (default 120)
# with exit 4 and nothing left behind; its environment lacks the mail
# and database secrets (PERFSIFT_*, PG*, any *PASSWORD*, *SECRET*,
# *TOKEN*) and keeps the rest.
. "$(dirname "$0")/lib.sh"

printf 'label,iteration,metric,value\nA,1,x.bw,1\nA,2,x.bw,2\nB,1,x.bw,3\nB,2,x.bw,4\n' >d.csv

test_expect_success 'set up' '
	perfsift import d.csv >/dev/null &&
	mkdir hangbin envbin &&
	printf "#!/bin/sh\nexec sleep 60\n" >hangbin/gnuplot &&
	printf "#!/bin/sh\ncat >/dev/null\nenv >\"%s/child.env\"\nexit 1\n" "$TRASH" >envbin/gnuplot &&
	chmod +x hangbin/gnuplot envbin/gnuplot
'

test_expect_success 'a gnuplot that hangs is killed: exit 4, said, nothing left' '
	test_expect_code 4 timeout 50 env PATH="$TRASH/hangbin:$PATH" \
		PERFSIFT_PLOT_TIMEOUT=1 "$PERFSIFT" plot compare A B -o hang.png 2>err &&
	grep "^perfsift: error: .gnuplot. did not finish within 1 s: killed$" err &&
	test ! -e hang.png &&
	test -z "$(ls -A | grep "^\.hang")"
'

test_expect_success 'the text chart (into memory) is bounded too' '
	test_expect_code 4 timeout 50 env PATH="$TRASH/hangbin:$PATH" \
		PERFSIFT_PLOT_TIMEOUT=1 "$PERFSIFT" plot compare A B -o hang.txt 2>err &&
	grep "did not finish within 1 s: killed" err
'

test_expect_success 'a timeout that is not a number is said, and the default used' '
	test_expect_code 4 env PATH="$TRASH/envbin:$PATH" \
		PERFSIFT_PLOT_TIMEOUT=soon "$PERFSIFT" plot compare A B -o e.png 2>err &&
	grep "^perfsift: warning: PERFSIFT_PLOT_TIMEOUT=.soon. is not a number of seconds (1 to 86400): 120 s it is$" err
'

test_expect_success 'gnuplot gets no secret, and the rest of the environment' '
	rm -f child.env &&
	test_expect_code 4 env PATH="$TRASH/envbin:$PATH" \
		PERFSIFT_SMTP_PASSWORD=hunter2 PERFSIFT_SMTP_USER=me \
		PGPASSWORD=pgsecret MY_API_TOKEN=tok CLIENT_SECRET=cs \
		KEEP_ME=yes "$PERFSIFT" plot compare A B -o e.png 2>err &&
	test -s child.env &&
	! grep -e hunter2 -e pgsecret -e "=tok$" -e "=cs$" -e "^PERFSIFT_" -e "^PG" child.env &&
	grep "^KEEP_ME=yes$" child.env &&
	grep "^PATH=" child.env &&
	grep "^HOME=" child.env
'

test_done
