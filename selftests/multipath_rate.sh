#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What spraying buys when each path is a link of limited rate: every B -> A path of the
# leaf-spine fabric is shaped to R (tc tbf at leaf B), well below what the VM can move, so
# one QP's throughput is the sum of the paths it uses. Sprayed over all N spines it reaches
# most of N * R; when one spine dies mid-transfer it settles at about (N - 1) / N of that,
# after a stall that is measured and reported.
#
#                   tbf R  +-- spine 1 --+
#   [ host A ] -- [ leaf A ]+-- spine 2 --+[ leaf B ] -- [ host B ]     (lib_clos.sh;
#                           +--   ...   --+   tbf R on each spine link   ECMP on UDP ports)
#                           +-- spine N --+

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_clos.sh"

SPINES=4
RATE_MBIT=24			# R: 3 MB/s per path
RATE_BPS=$((RATE_MBIT * 125000))

# ib_write_bw's average MB/s (10^6 bytes; perftest's MB/sec unit) from B to A, one QP.
write_bw_mbs() { # ARGS...
	clos_perftest ib_write_bw 18515 --report_gbits "$@" |
		awk '{ v = $4 } END { printf "%.3f\n", v * 1000 / 8 }'
}

sprayed_aggregate() {
	local bw
	clos_fabric $SPINES
	clos_shape_b_to_a $SPINES ${RATE_MBIT}mbit
	bw=$(write_bw_mbs -s 65536 -D 10)
	echo "sprayed over $SPINES paths of $((RATE_BPS / 1000)) kB/s: one QP $bw MB/s" \
		"($(awk -v b="$bw" -v r=$RATE_BPS -v n=$SPINES 'BEGIN { printf "%.2f", b * 1e6 / (n * r) }') of N*R)"
	awk -v b="$bw" -v r=$RATE_BPS -v n=$SPINES 'BEGIN { exit !(b * 1e6 >= 0.85 * n * r) }' ||
		fail "sprayed throughput $bw MB/s is below 0.85 * N * R"
	no_qp_errors
}

# Bytes host A has received (its netdev in netns msta), read through a process living in
# that namespace: /proc/PID/net/dev is the namespace's, no ip netns exec per sample.
A_ANCHOR=
rx_bytes_a() { awk '$1 == "msta0:" { print $2 }' /proc/$A_ANCHOR/net/dev; }

# Every 100 ms: "ms bytes" of host A's receive counter, until killed.
sample_rx_a() {
	while :; do
		echo "$(now_ms) $(rx_bytes_a)"
		sleep 0.1
	done
}

# Spine 2 fails (BREAK) 4 s into a 14 s sprayed transfer. From the samples: the rate before
# (1-4 s), the stall (the time after the failure until a 100 ms sample reaches half of the
# rate before again), and the rate once settled (the last 4 s).
failover_throughput() { # WHAT BREAK
	local what=$1 break=$2 bw sampler t_fail samples=/tmp/rate-samples.out
	clos_fabric $SPINES
	clos_shape_b_to_a $SPINES ${RATE_MBIT}mbit
	ip netns exec msta sleep 1000 &	# not via na: $! must be the sleep
	A_ANCHOR=$!
	sample_rx_a >$samples &
	sampler=$!
	(write_bw_mbs -s 65536 -D 14 >/tmp/rate-bw.out) &
	bw=$!
	wait_until 30 evs_b_ready
	sleep 4
	t_fail=$(now_ms)
	$break
	wait $bw || fail "ib_write_bw failed across the $what"
	kill $sampler $A_ANCHOR
	awk -v tf="$t_fail" -v n=$SPINES -v what="$what" '
		{ t[NR] = $1; b[NR] = $2 }
		function rate(i) { return (b[i] - b[i - 1]) * 1000 / (t[i] - t[i - 1]) }
		END {
			for (i = 2; i <= NR; i++)
				if (t[i] <= tf && t[i - 1] >= tf - 3000) {
					pre += b[i] - b[i - 1]
					pre_t += t[i] - t[i - 1]
				}
			before = pre_t ? pre * 1000 / pre_t : 0
			last = NR	# the last sample while traffic still came in
			while (last > 2 && b[last] == b[last - 1]) last--
			last--		# its interval may be cut short by the end
			stall = -1
			for (i = 2; i <= last; i++)
				if (t[i - 1] >= tf && rate(i) >= 0.5 * before) {
					stall = t[i - 1] - tf
					break
				}
			first = last
			while (first > 1 && t[last] - t[first - 1] <= 4000) first--
			post = t[last] > t[first] ? (b[last] - b[first]) * 1000 / (t[last] - t[first]) : 0
			printf "%s: before %.2f MB/s, stall %d ms, after %.2f MB/s (%.2f of before; (N-1)/N = %.2f)\n",
				what, before / 1e6, stall, post / 1e6, before ? post / before : 0, (n - 1) / n
			print before, stall, post > "/tmp/rate-result.out"
		}' $samples
	read -r before stall post </tmp/rate-result.out
	no_qp_errors
	# about (N-1)/N: at least 80% of it, and visibly less than before
	awk -v a="$post" -v b="$before" -v n=$SPINES \
		'BEGIN { r = b ? a / b : 0; exit !(r >= 0.8 * (n - 1) / n && r <= 0.95) }' ||
		fail "$what: throughput after the failure is not about (N-1)/N of before"
	[ "$stall" -ge 0 ] || fail "$what: the rate never came back to half of before"
}
evs_b_ready() { [ "$(nb mrcctl -j ev show dev mrcstb dst $CLOS_A6 | jq length)" -gt 0 ]; }

spine_link_down_throughput() { failover_throughput "link down" "clos_spine_a_link 2 down"; }
blackhole_on() { ns_ex msts2 tc qdisc add dev msts2-a root netem loss 100%; }
spine_blackhole_throughput() { failover_throughput "blackhole" blackhole_on; }

ktap_run \
	sprayed_aggregate \
	spine_link_down_throughput \
	spine_blackhole_throughput
