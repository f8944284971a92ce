#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Benchmark (not a test): what multipath buys one QP, per fabric. Every B -> A path is a
# link of rate R (lib_rate.sh), so throughput counts paths:
#   aggregate   ib_write_bw sprayed over all N paths (round robin, adaptive) against pinned
#               to one EV (the single-path baseline): host A's settled wire rate in MB/s
#               (every header counted, as R counts them) and its share of N * R or R;
#   failover    one spine's link to leaf A down, or the spine silently dropping everything
#               (netem loss 100%), 4 s into a sprayed transfer: the rate before, the stall
#               (ms of transfer lost against the settled rate, over the 3 s after; and the
#               kernel's own: the oldest PSN's longest wait, in ms and in smoothed RTTs) and
#               the settled rate after, against (N - 1) / N.
# The single-link comparison against rxe is bench.sh's table, from the same VM run.
#
#                           +-- spine 1 --+ tbf R
#   [ host A ] -- [ leaf A ]+--   ...   --+[ leaf B ] -- [ host B ]     ECMP on UDP ports
#                           +-- spine N --+ tbf R                       or SRv6 (End)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"
source "$(dirname "$0")/lib_rate.sh"

N=$RATE_SPINES
FAILED=0	# rows that failed: the exit status says so, after every row has run

# Runs CMD in a fresh world; its stdout is the result, its stderr is dropped (perftest's
# chatter), "fail" when it failed.
measure() { # CMD...
	local out
	cleanup_world
	out=$( ( set -e; "$@" ) 2>/dev/null ) || out=fail
	cleanup_world
	echo "$out"
}

# MB/s of one sprayed QP on FABRIC (rate_fabric, rate_srv6_fabric) under the policy of host
# B's default profile or, with ARGS, of a profile made from them.
sprayed() { # FABRIC [PROFILE ARGS...]
	$1
	shift
	[ $# -eq 0 ] || b_profile 2 "$@"
	rate_of_qp
}

failover() { # FABRIC WHAT BREAK
	$1
	shift
	failover_measure "$@" >/dev/null
	no_qp_errors
	echo "$RATE_BEFORE $RATE_STALL $RATE_AFTER $RATE_KSTALL $RATE_KSTALL_RTT"
}

aggregate_row() { # NAME SHARE_OF_PATHS CMD...
	local name=$1 paths=$2 v
	shift 2
	v=$(measure "$@")
	if [ "$v" = fail ]; then
		printf '  %-34s %10s\n' "$name" fail
		FAILED=$((FAILED + 1))
	else
		printf '  %-34s %10.2f  %.2f of %s\n' "$name" "$v" "$(of_nr "$v" "$paths")" \
			"$([ "$paths" = 1 ] && echo R || echo "N*R")"
	fi
}

failover_row() { # FABRIC NAME BREAK
	local v before stall after kstall krtt
	v=$(measure failover "$1" "$2" "$3")
	shift
	if [ "$v" = fail ]; then
		printf '  %-12s %s\n' "$1" "fail (perftest or a QP error)"
		FAILED=$((FAILED + 1))
		return
	fi
	read -r before stall after kstall krtt <<<"$v"
	awk -v w="$1" -v b="$before" -v s="$stall" -v a="$after" -v n=$N -v k="$kstall" \
		-v kr="$krtt" 'BEGIN {
		printf "  %-12s before %6.2f MB/s  stall %5d ms (kernel: %d ms = %d RTT)" \
			"  after %6.2f MB/s  %.2f of before ((N-1)/N %.2f)\n", w, b / 1e6, s, k, kr,
			a / 1e6, b ? a / b : 0, (n - 1) / n }'
}

mrc_load
echo "BENCH multipath: one QP from B to A, $N spines, every path a link of R = $RATE_MBIT" \
	"Mbit/s ($((RATE_BPS / 1000)) kB/s); N*R = $((N * RATE_BPS / 1000)) kB/s"
echo "fabric ECMP (UDP source port EVs; leaves hash on the UDP ports), MB/s:"
aggregate_row "sprayed, round robin, 256 EVs" $N sprayed rate_fabric
aggregate_row "sprayed, round robin, 4096 EVs" $N sprayed rate_fabric mode auto count 4096
aggregate_row "sprayed, adaptive, 256 EVs" $N sprayed rate_fabric mode auto count 256 \
	policy adaptive
aggregate_row "pinned to one EV" 1 sprayed rate_fabric mode exp ev 0xc000
echo "fabric ECMP, one spine failing 4 s into a 14 s sprayed transfer:"
failover_row rate_fabric "link down" rate_link_down
failover_row rate_fabric "blackhole" rate_blackhole
echo "fabric ECMP, host A's ib_read_bw of B's memory (B's READ responses cross the failure):"
RATE_OP=read failover_row rate_fabric "READ, blackhole" rate_blackhole
echo "fabric SRv6 (SRV6 EVs: $N x 64 SIDs, the sender picks the spine; spines run End), MB/s:"
aggregate_row "sprayed, round robin, $((N * 64)) EVs" $N sprayed rate_srv6_fabric
aggregate_row "pinned to one EV" 1 sprayed rate_srv6_fabric fmt 1 mode exp ev fc00:e1::1
echo "fabric SRv6, one spine failing 4 s into a 14 s sprayed transfer:"
failover_row rate_srv6_fabric "link down" rate_link_down
failover_row rate_srv6_fabric "blackhole" rate_blackhole
echo "BENCH multipath: done, $FAILED rows failed"
[ $FAILED -eq 0 ]
