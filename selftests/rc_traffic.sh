#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Reliable-connected traffic between two hosts over mrc, driven by standard
# verbs tools (rdma-core's ibv_rc_pingpong, and ibv_srq_pingpong for many QPs
# receiving through one shared receive queue), checked end to end: the
# tools' own data checks, their exit codes, and the veth counters proving
# the bytes crossed the wire.

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"

pingpong() { # SIZE [EXTRA ARGS...]
	local size=$1 gid_a gid_b before
	shift
	gid_a=$(gid_index_of mrcsta "$(gid_of_v6 $A6)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v6 $B6)")
	before=$(veth_tx_bytes mstb mstb0)
	server_a 18515 timeout 60 ibv_rc_pingpong -d mrcsta -g "$gid_a" -s "$size" -n 50 -c "$@"
	nb timeout 60 ibv_rc_pingpong -d mrcstb -g "$gid_b" -s "$size" -n 50 -c "$@" $A4 ||
		fail "client failed (size $size)"
	wait $SERVER_PID || fail "server failed (size $size)"
	[ $(( $(veth_tx_bytes mstb mstb0) - before )) -ge $((size * 50)) ] ||
		fail "fewer than $((size * 50)) bytes left host B"
}

rc_pingpong_small() { two_hosts; pingpong 64; }
rc_pingpong_4k() { two_hosts; pingpong 4096; }
rc_pingpong_64k_events() { two_hosts; pingpong 65536 -e; }
rc_pingpong_1m() { two_hosts; pingpong 1048576; }

# -n is the total of exchanges over all QPs (its help says per QP).
srq_pingpong() { # SIZE QPS [EXTRA ARGS...]
	local size=$1 qps=$2 iters=$(($2 * 8)) gid_a gid_b before
	shift 2
	gid_a=$(gid_index_of mrcsta "$(gid_of_v4 $A4)")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v4 $B4)")
	before=$(veth_tx_bytes mstb mstb0)
	server_a 18516 timeout 120 ibv_srq_pingpong -p 18516 -d mrcsta -g "$gid_a" -s "$size" \
		-q "$qps" -n $iters -c "$@"
	nb timeout 120 ibv_srq_pingpong -p 18516 -d mrcstb -g "$gid_b" -s "$size" -q "$qps" \
		-n $iters -c "$@" $A4 || fail "client failed (size $size, $qps QPs)"
	wait $SERVER_PID || fail "server failed (size $size, $qps QPs)"
	[ $(( $(veth_tx_bytes mstb mstb0) - before )) -ge $((size * iters)) ] ||
		fail "fewer than $((size * iters)) bytes left host B"
}

srq_pingpong_16_qps() { two_hosts; srq_pingpong 4096 16; }
srq_pingpong_64k_events() { two_hosts; srq_pingpong 65536 4 -e; }

rc_counters_count_traffic() {
	two_hosts
	pingpong 8192
	[ "$(counter mrcsta tx_packets)" -gt 100 ] || fail "tx_packets did not count"
	[ "$(counter mrcstb rx_packets)" -gt 100 ] || fail "rx_packets did not count"
	[ "$(counter mrcsta acks_received)" -gt 0 ] || fail "no ACKs counted"
}

# An RC QP connected to a QP of its own host, through the host's own GID: the packets come back
# over the loopback device, to the device that owns the address (IPv6 and IPv4-mapped GIDs).
rc_loopback() {
	two_hosts
	pingpong_to_itself ibv_rc_pingpong 18515 65536 6 rx_bytes $((65536 * 100))
	pingpong_to_itself ibv_rc_pingpong 18515 65536 4 rx_bytes $((65536 * 100))
}

ktap_run \
	rc_pingpong_small \
	rc_loopback \
	rc_pingpong_4k \
	rc_pingpong_64k_events \
	rc_pingpong_1m \
	srq_pingpong_16_qps \
	srq_pingpong_64k_events \
	rc_counters_count_traffic
