#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Reliable-connected traffic between two hosts over mrc, driven by standard
# verbs tools (rdma-core's ibv_rc_pingpong), checked end to end: the tools'
# own data checks, their exit codes, and the veth counters proving the
# bytes crossed the wire.

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

rc_counters_count_traffic() {
	two_hosts
	pingpong 8192
	[ "$(counter mrcsta tx_packets)" -gt 100 ] || fail "tx_packets did not count"
	[ "$(counter mrcstb rx_packets)" -gt 100 ] || fail "rx_packets did not count"
	[ "$(counter mrcsta acks_received)" -gt 0 ] || fail "no ACKs counted"
}

ktap_run \
	rc_pingpong_small \
	rc_pingpong_4k \
	rc_pingpong_64k_events \
	rc_pingpong_1m \
	rc_counters_count_traffic
