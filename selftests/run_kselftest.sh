#!/bin/bash
# Run every program in the Makefile's TEST_PROGS, each under the timeout
# from `settings`, and print kselftest's KTAP summary: a plan, one ok/not ok
# line per program, the program's own KTAP nested behind "# ".
# Exit status: 0 when every program passed (or skipped), 1 otherwise.
cd "$(dirname "$0")" || exit 1

# MRC_ONLY="a.sh b.sh" runs just those (the VM rig's --only).
progs=${MRC_ONLY:-$(sed -n 's/^TEST_PROGS := //p' Makefile)}
timeout_s=$(sed -n 's/^timeout=//p' settings)
timeout_s=$((timeout_s * ${MRC_TIMEOUT_SCALE:-1}))	# the debug kernel runs slower
n=0 failed=0

echo "TAP version 13"
echo "1..$(echo $progs | wc -w)"
for prog in $progs; do
	n=$((n + 1))
	echo "# selftests: mrc: $prog"
	start=$SECONDS
	timeout "$timeout_s" bash "./$prog" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	# what each program costs the suite, whose whole must stay within CI's hour
	echo "# $prog: $((SECONDS - start)) s"
	case $rc in
	0) echo "ok $n selftests: mrc: $prog" ;;
	4) echo "ok $n selftests: mrc: $prog # SKIP" ;;
	124) echo "not ok $n selftests: mrc: $prog # TIMEOUT ${timeout_s} seconds"; failed=1 ;;
	*) echo "not ok $n selftests: mrc: $prog # exit=$rc"; failed=1 ;;
	esac
done
exit $failed
