#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Unreliable datagrams between two hosts over mrc, driven by rdma-core's ibv_ud_pingpong (UD QPs,
# address handles, a GRH before every payload), over IPv6 and IPv4-mapped GIDs, with the tool's
# own data check; the receive side's guard: a datagram with the wrong Q_Key, or a connected (RC)
# packet aimed at a UD QP, is dropped and counted, and the QP goes on working; and the edges
# mrc_ud_check (userspace/tools) tries on both ends.
#
#   netns msta [ mrcsta ] msta0 <-- veth --> mstb0 [ mrcstb ] (netns mstb)

source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_fabric.sh"
source "$(dirname "$0")/lib_wire.sh"

UD_PORT=18530
UD_QKEY=0x11111111	# the one ibv_ud_pingpong uses

# ibv_ud_pingpong's server on A, then its client on B; the veth counter proves the bytes left B.
ud_server() { # FAMILY SIZE [EXTRA ARGS...]
	local family=$1 size=$2 gid_a
	shift 2
	gid_a=$(gid_index_of mrcsta "$(gid_of_v"$family" "$(eval echo \$A"$family")")")
	server_a $UD_PORT timeout 60 ibv_ud_pingpong -p $UD_PORT -d mrcsta -g "$gid_a" \
		-s "$size" -n 50 -c "$@"
}

ud_client() { # FAMILY SIZE [EXTRA ARGS...]
	local family=$1 size=$2 gid_b before
	shift 2
	gid_b=$(gid_index_of mrcstb "$(gid_of_v"$family" "$(eval echo \$B"$family")")")
	before=$(veth_tx_bytes mstb mstb0)
	# the tool's TCP exchange goes to A's IPv4 address (its server listens on IPv4 only)
	nb timeout 60 ibv_ud_pingpong -p $UD_PORT -d mrcstb -g "$gid_b" -s "$size" -n 50 -c "$@" \
		$A4 || fail "client failed (IPv$family, size $size)"
	wait $SERVER_PID || fail "server failed (IPv$family, size $size)"
	[ $(( $(veth_tx_bytes mstb mstb0) - before )) -ge $((size * 50)) ] ||
		fail "fewer than $((size * 50)) bytes left host B"
}

ud_pingpong() { # FAMILY SIZE [EXTRA ARGS...]
	ud_server "$@"
	ud_client "$@"
}

# The QPN of the (one) UD QP on DEV in netns NS.
ud_qpn_of() { # NS DEV
	ip netns exec "$1" rdma -j resource show qp link "$2/1" |
		jq -e '[.[] | select(.type == "UD") | .lqpn] | first'
}

ud_pingpong_ipv6() {
	two_hosts
	ud_pingpong 6 1024
	[ "$(counter mrcsta tx_packets)" -ge 50 ] || fail "A's datagrams were not counted"
	[ "$(counter mrcstb rx_packets)" -ge 50 ] || fail "B's datagrams were not counted"
	[ "$(counter mrcsta drop_no_recv_wqe)" -eq 0 ] || fail "A dropped datagrams"
}

ud_pingpong_ipv4_events() { two_hosts; ud_pingpong 4 512 -e; }

ud_small_messages() { two_hosts; ud_pingpong 6 1; }

ud_wrong_qkey_dropped() {
	two_hosts
	local qpn qkey_before rc_before
	ud_server 6 256
	wait_until 10 ud_qpn_of msta mrcsta
	qpn=$(ud_qpn_of msta mrcsta)
	qkey_before=$(counter mrcsta drop_bad_qkey)
	rc_before=$(counter mrcsta drop_unknown_qp)
	inject $A6 "$(ud_packet "$qpn" 0x22222222 77 64)"
	inject $A4 "$(ud_packet "$qpn" 0x11111110 77 0)"
	wait_until 5 test "$(counter mrcsta drop_bad_qkey)" -ge $((qkey_before + 2)) ||
		fail "datagrams with a wrong Q_Key were not counted"
	# a connected QP's SEND (hdr_len 7 words) for the UD QP: not a datagram, not for it
	inject $A6 "$(send_packet "$qpn" 0 0)"
	wait_until 5 test "$(counter mrcsta drop_unknown_qp)" -gt "$rc_before" ||
		fail "an RC packet at a UD QP was not dropped as for no such QP"
	# none took a receive WQE: the exchange runs its 50 rounds with every byte checked
	ud_client 6 256
	[ "$(counter mrcsta drop_bad_qkey)" -eq $((qkey_before + 2)) ] ||
		fail "the pingpong's own datagrams were refused"
}

# mrc_ud_check (userspace/tools): controlled Q_Keys refused, datagrams over the MTU and AHs of
# another PD failing the sender's QP (which comes back), a receive too short failing alone, a
# wrong Q_Key dropped, the GRH, source QP and immediate of what lands, every byte checked.
ud_edges() { # FAMILY
	local family=$1 gid_a gid_b out rc=0 before
	gid_a=$(gid_index_of mrcsta "$(gid_of_v"$family" "$(eval echo \$A"$family")")")
	gid_b=$(gid_index_of mrcstb "$(gid_of_v"$family" "$(eval echo \$B"$family")")")
	before=$(counter mrcsta drop_bad_qkey)
	server_a 18531 timeout 60 mrc_ud_check -d mrcsta -g "$gid_a" -p 18531
	out=$(nb timeout 60 mrc_ud_check -d mrcstb -g "$gid_b" -p 18531 $A4 2>&1) || rc=$?
	echo "$out"
	wait $SERVER_PID || fail "mrc_ud_check: the server failed"
	[ $rc -eq 0 ] || fail "mrc_ud_check: the client failed (exit $rc)"
	[ "$(counter mrcsta drop_bad_qkey)" -eq $((before + 1)) ] ||
		fail "the wrong Q_Key's datagram was not counted once"
}

ud_edges_ipv6() { two_hosts; ud_edges 6; }
ud_edges_ipv4() { two_hosts; ud_edges 4; }

ktap_run \
	ud_pingpong_ipv6 \
	ud_pingpong_ipv4_events \
	ud_small_messages \
	ud_wrong_qkey_dropped \
	ud_edges_ipv6 \
	ud_edges_ipv4
